"""Character creation: point buy with skill points, or scores rolled with d4-2 or d6-3.

Point buy starts every score at 0, raises scores at the usual cost (RU-M07) and may lower up
to two standard scores to -1 for a point each (RU-M08). Random creation rolls each standard
score, in order or as six rolls assigned by priority, and leaves a few SP for skills (RU-M09).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tabletop.dice import DiceSource
from tabletop.systems.ap2d6.errors import Ap2d6Error, validated
from tabletop.systems.ap2d6.events import Event
from tabletop.systems.ap2d6.options import DEFAULTS, Options
from tabletop.systems.ap2d6.records import roll_dice
from tabletop.systems.ap2d6.scores import (
    RANDOM_SCHEMES,
    STANDARD_SCORES,
    check_score,
    in_sheet_order,
    raise_cost,
    score_name,
)
from tabletop.systems.ap2d6.sheet import Character

LOWERED_SCORE = -1
"""Point buy may lower a standard score this far, and no further (RU-A06)."""

MAX_BUDGET = 10_000


def point_buy(
    name: str,
    budget: int,
    scores: Mapping[str, int] | None = None,
    skills: Mapping[str, int] | None = None,
    options: Options = DEFAULTS,
) -> tuple[Character, list[Event]]:
    """Spend `budget` SP on scores (from 0) and skills (name → its SP cost, from the group's
    skill list, RU-G01). Unspent SP stay on the sheet.

    A negative budget is allowed, but nothing can be bought while the balance is below 0
    (RU-A45)."""
    if not -MAX_BUDGET <= budget <= MAX_BUDGET:
        raise Ap2d6Error(f"a skill-point budget is between -{MAX_BUDGET} and {MAX_BUDGET}")
    typed = {score_name(key): check_score(value, key) for key, value in (scores or {}).items()}
    chosen = {key: typed[key] for key in in_sheet_order(typed)}
    events: list[Event] = []
    balance = budget
    spent = 0
    lowered = [key for key, value in chosen.items() if value < 0]
    for key in lowered:
        if key not in STANDARD_SCORES or chosen[key] != LOWERED_SCORE:
            raise Ap2d6Error(
                f"point buy can lower only a standard score, and only to {LOWERED_SCORE} ({key})"
            )
    if len(lowered) > options.lowered_scores_in_point_buy:
        raise Ap2d6Error(
            f"point buy can lower at most {options.lowered_scores_in_point_buy} standard scores "
            f"(asked for {len(lowered)})"
        )
    for key in lowered:
        balance += 1
        events.append(Event(kind="lower", summary=f"{name} lowers {key} to -1 for 1 SP"))
    for key, value in chosen.items():
        if value > 0:
            cost = raise_cost(0, value)
            spent += cost
            events.append(Event(kind="raise", summary=f"{name} buys {key} {value} for {cost} SP"))
    if spent and balance - spent < 0:
        raise Ap2d6Error(f"those scores cost {spent} SP and only {balance} are available")
    character = validated(
        Character, {"name": name, "scores": chosen, "unspent_sp": balance - spent}, "character"
    )
    character, bought = buy_skills(character, skills or {})
    return character, events + bought


def buy_skills(character: Character, skills: Mapping[str, int]) -> tuple[Character, list[Event]]:
    """Spend unspent SP on skills, each at the cost the group's skill list gives (RU-G01)."""
    events = []
    skills = {skill: skills[skill] for skill in sorted(skills)}  # no order in the rules
    for skill, cost in skills.items():
        if not 0 <= cost <= MAX_BUDGET:
            raise Ap2d6Error(f"the skill {skill!r} must cost 0 to {MAX_BUDGET} SP")
        if skill in character.skills:
            raise Ap2d6Error(f"{character.name} already has the skill {skill!r}")
        told = f"{character.name} buys the skill {skill} for {cost} SP"
        events.append(Event(kind="skill", summary=told))
    spent = sum(skills.values())
    if spent and character.unspent_sp - spent < 0:
        raise Ap2d6Error(f"the skills cost {spent} SP and only {character.unspent_sp} are left")
    changed = character.model_copy(
        update={
            "skills": {**character.skills, **skills},
            "unspent_sp": character.unspent_sp - spent,
        }
    )
    return changed, events


def random_scores(
    name: str, scheme: str, dice: DiceSource, priority: Sequence[str] | None = None
) -> tuple[dict[str, int], list[Event]]:
    """Roll each of `name`'s standard scores with `scheme` ("d4-2" or "d6-3", RU-M09): in
    sheet order, or, given a `priority` of all six scores, the highest roll to the first
    score listed."""
    if scheme not in RANDOM_SCHEMES:
        raise Ap2d6Error(f"random scores use {' or '.join(RANDOM_SCHEMES)}, not {scheme!r}")
    rolls = [roll_dice(RANDOM_SCHEMES[scheme], dice) for _ in STANDARD_SCORES]
    if priority is None:
        order = list(STANDARD_SCORES)
        values = [rolled.total for rolled in rolls]
    else:
        order = [score_name(key) for key in priority]
        if sorted(order) != sorted(STANDARD_SCORES):
            raise Ap2d6Error(f"the priority must list each of {', '.join(STANDARD_SCORES)} once")
        values = sorted((rolled.total for rolled in rolls), reverse=True)
    events = [
        Event(kind="roll-score", summary=f"{name} rolls {rolled}", dice=(rolled,))
        for rolled in rolls
    ]
    scores = dict(zip(order, values, strict=True))
    events += [
        Event(kind="assign", summary=f"{name}'s {key}: {value}") for key, value in scores.items()
    ]
    return scores, events


def random_character(
    name: str,
    scheme: str,
    dice: DiceSource,
    priority: Sequence[str] | None = None,
    options: Options = DEFAULTS,
) -> tuple[Character, list[Event]]:
    """A character with rolled scores and `options.random_character_sp` SP for skills."""
    scores, events = random_scores(name, scheme, dice, priority)
    character = validated(
        Character,
        {"name": name, "scores": scores, "unspent_sp": options.random_character_sp},
        "character",
    )
    return character, events
