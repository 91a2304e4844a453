"""Shared test helpers: a standard sheet, running a rule on fixed dice, and a brute-force
walk of a rule down every sequence of dice faces (an oracle for the exact odds)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable
from fractions import Fraction
from typing import Any

from tabletop.dice import FixedDice
from tabletop.systems.rollunder import (
    Character,
    Intent,
    Resolution,
    RollUnderOptions,
    no_rerolls,
    resolve,
)
from tabletop.systems.rollunder.resolution import Policy
from tests.dice.brute import _NeedFace, _Script


def hero(**changes: Any) -> Character:
    """Ash: STR 12, AGI 10, WIT 9, health 10 of 14 (the notes' CR-T09 character)."""
    data: dict[str, Any] = {
        "name": "Ash",
        "abilities": {"STR": 12, "AGI": 10, "WIT": 9},
        "max_health": 14,
        "health": 10,
    }
    data.update(changes)
    return Character(**data)


def run(
    intent: Intent,
    faces: list[int],
    options: RollUnderOptions | None = None,
    policy: Policy = no_rerolls,
) -> Resolution:
    """Resolve `intent` on exactly these faces (every one must be used)."""
    dice = FixedDice(faces)
    done = resolve(intent, dice, options, policy)
    assert dice.remaining == [], f"faces left unused: {dice.remaining}"
    return done


def kinds(resolution: Resolution) -> list[str]:
    return [event.kind for event in resolution.events]


Classes = dict[int, list[tuple[int, int]]]
"""Per die size, faces the rule cannot tell apart lumped as (representative face, count)."""


def walk(
    run_once: Callable[[Any], Hashable],
    smallest: Fraction = Fraction(0),
    classes: Classes | None = None,
) -> tuple[dict[Hashable, Fraction], Fraction]:
    """Every result of `run_once(dice)` with its exact probability, found by branching on
    every die it asks for. `classes` lumps faces that the rule under test treats alike (a
    roll-under d20 only cares whether a face is at most each score). Branches rarer than
    `smallest` are dropped; their total is returned as the unexplored remainder."""
    found: defaultdict[Hashable, Fraction] = defaultdict(Fraction)
    unexplored = Fraction(0)
    pending: list[tuple[list[int], Fraction]] = [([], Fraction(1))]
    while pending:
        faces, chance = pending.pop()
        try:
            result = run_once(_Script(faces))
        except _NeedFace as need:
            lumps = (classes or {}).get(need.sides) or [(f, 1) for f in range(1, need.sides + 1)]
            assert sum(count for _, count in lumps) == need.sides
            if chance / need.sides < smallest:
                unexplored += chance
                continue
            pending.extend(
                ([*faces, face], chance * Fraction(count, need.sides)) for face, count in lumps
            )
            continue
        found[result] += chance
    return dict(found), unexplored


def d20_classes(*scores: int) -> Classes:
    """The d20 lumped at the given scores: faces between two scores are alike."""
    cuts = sorted({s for s in scores if 0 < s < 20} | {20})
    lumps, low = [], 1
    for cut in cuts:
        lumps.append((cut, cut - low + 1))
        low = cut + 1
    return {20: lumps}
