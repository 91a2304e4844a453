"""Scores: the standard six, what a score costs to raise, and when a score cannot be used.

A score is a whole number that may be negative (§ Characters and Scores). A [special] score
the character does not have is `None`: it is not 0, it is the absence of the ability.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from tabletop.systems.ap2d6.errors import Ap2d6Error, InvalidValueError
from tabletop.systems.ap2d6.options import DEFAULTS, Options

STANDARD_SCORES: tuple[str, ...] = ("STR", "AGI", "DEX", "CON", "PERCEPTION", "SOCIAL")
"""The scores every sheet in these rules keeps, even at 0 (RU-M03)."""

BASE_TO_HIT = 6
"""The To-Hit every character starts with (RU-M05)."""

PASSIVE_BASE = 6
"""A passive score, the DC of a check against a character, is this plus the score (RU-M12)."""

MAX_SCORE = 1_000
"""Scores beyond ±this are refused: no rule reaches them and sums stay small."""

_NAME = re.compile(r"[A-Z][A-Z0-9_]*")

Score = int | None
"""A score's value, or None for a [special] score the character does not have."""


def score_name(text: str) -> str:
    """A score's name in the sheet's spelling (upper case); refuses anything else."""
    name = text.strip().upper()
    if not _NAME.fullmatch(name):
        raise InvalidValueError(f"{text!r} is not a score name (letters, digits and _, e.g. STR)")
    return name


def in_sheet_order(names: Iterable[str]) -> list[str]:
    """Score names as a sheet lists them: the standard six in their order, then any others
    by name. The rules give no order to scores bought or raised together, so this is the
    order they are told in, however they were asked for (docs/rules/ap2d6.md, RU-S04)."""
    named = set(names)
    others = sorted(name for name in named if name not in STANDARD_SCORES)
    return [name for name in STANDARD_SCORES if name in named] + others


def named_scores(value: object) -> object:
    """A mapping keyed by score names, the names in the sheet's spelling; anything else is
    left for the model to refuse."""
    if isinstance(value, dict):
        return {score_name(str(name)): amount for name, amount in value.items()}
    return value


def check_score(value: int, name: str = "score") -> int:
    """`value` if it is a score the engine accepts."""
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) > MAX_SCORE:
        raise InvalidValueError(
            f"{name} must be a whole number between -{MAX_SCORE} and {MAX_SCORE}"
        )
    return value


def incapable(score: Score, options: Options = DEFAULTS) -> str | None:
    """Why a roll with this score fails before any die is thrown, or None if it can be tried.

    A missing [special] score does nothing (RU-M02); a score at or below -3 fails (RU-A03)."""
    if score is None:
        return "the character does not have this [special] score"
    if score <= options.incapable_at_or_below:
        return f"a score of {score} cannot perform actions related to it"
    return None


def step_cost(score: int) -> int:
    """SP to raise a score by one from `score`: the new value, but 1 from below zero (RU-A04)."""
    return max(score + 1, 1)


def raise_cost(start: int, end: int) -> int:
    """SP to raise a score from `start` to `end`, one step at a time (RU-M07, RU-A04)."""
    check_score(start, "the starting score")
    check_score(end, "the target score")
    if end < start:
        raise Ap2d6Error(f"raising a score cannot take it down ({start} to {end})")
    return sum(step_cost(score) for score in range(start, end))


def passive(score: int) -> int:
    """The DC of a check against this score (RU-M12): 6 + score."""
    return PASSIVE_BASE + score


RANDOM_SCHEMES: dict[str, str] = {"d4-2": "1d4-2", "d6-3": "1d6-3"}
"""The two randomisation schemes (RU-M09) and the dice each rolls per score."""
