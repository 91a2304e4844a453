"""The decisions inside a rule: what a procedure asks for and what it is answered.

A rule that can stop for a choice is written as a generator (a *procedure*) that yields
requests and receives answers:

- a `RollRequest` asks for dice that directly affect someone. The dice are rolled, and
  anyone who may spend an omen on them can re-roll (CR-M19a) before the owner says which
  result stands (CR-A10); the procedure receives a `RollAnswer` with every result.
- a `ChoiceRequest` asks a player or the GM to pick from a list (save from death with an
  omen or die; which carried item an injury destroys); it receives a `ChoiceAnswer`.

Procedures are pure: the same answers always give the same requests, events and outcome.
`tabletop.systems.rollunder.resolution` drives them one decision at a time.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from functools import lru_cache
from typing import Annotated, Literal, TypeVar

from pydantic import Field, model_validator

from tabletop.dice import DiceSource, Die, Roll, RolledPool, limits, notation, parse, roll
from tabletop.systems.rollunder.errors import RollUnderError
from tabletop.systems.rollunder.records import DiceRecord, Event, Model, roll_record
from tabletop.words import listed, said

POOL_DEPTH = limits.MAX_EXPLOSION_DEPTH
"""Follow-up rolls of a pool that explodes as one (CR-A11), the engine's largest bound."""

RollKind = Literal[
    "ability", "strength", "contest", "tie_break", "damage", "injury", "corruption", "mutation",
    "chance",
]  # fmt: skip
ChoiceKind = Literal["death_save", "destroy_item"]

SAVE, DIE = "save", "die"
"""The two answers to a death save: spend an omen to live, or die."""


class RollRequest(Model):
    """Dice to roll for someone, who may spend omens to re-roll them."""

    type: Literal["roll"] = "roll"
    kind: RollKind
    expression: str
    purpose: str
    owner: str
    """Who says which result stands: the character (or group) the roll affects."""
    payers: dict[str, int] = Field(default_factory=dict)
    """Who may spend an omen to re-roll, with the omens each holds when the roll is made."""
    explodes_at: int | None = None
    """Roll the expression again while its total is this, adding each new total minus 1
    (a damage pool exploding as one die, CR-A11); None for a single engine roll."""
    score: int | None = None
    """The score a d20 roll-under roll passes at or under (CR-M01), so whoever decides
    whether to spend an omen sees whether a result already passed; None for totals."""


class ChoiceRequest(Model):
    """A choice for a player or the GM among the listed options."""

    type: Literal["choice"] = "choice"
    kind: ChoiceKind
    chooser: str
    purpose: str
    choices: tuple[str, ...] = Field(min_length=1)


Request = RollRequest | ChoiceRequest


class RollAnswer(Model):
    """Every result of a roll, who paid an omen for each re-roll, and which result stands."""

    type: Literal["roll"] = "roll"
    results: tuple[DiceRecord, ...] = Field(min_length=1)
    rerolled_by: tuple[str, ...] = ()
    kept: int = 0

    @model_validator(mode="after")
    def _consistent(self) -> RollAnswer:
        if len(self.rerolled_by) != len(self.results) - 1:
            raise ValueError("every result after the first is a re-roll someone paid for")
        if not 0 <= self.kept < len(self.results):
            raise ValueError(f"result {self.kept + 1} was kept but only {len(self.results)} exist")
        return self

    @property
    def result(self) -> DiceRecord:
        """The result that stands."""
        return self.results[self.kept]

    @property
    def total(self) -> int:
        return self.result.total


class ChoiceAnswer(Model):
    type: Literal["choice"] = "choice"
    choice: str


Answer = Annotated[RollAnswer | ChoiceAnswer, Field(discriminator="type")]

T = TypeVar("T")
Procedure = Generator[Request, RollAnswer | ChoiceAnswer, T]
"""A rule that may stop for decisions, finally returning `T`."""


def rolled(request: RollRequest, log: list[Event]) -> Procedure[RollAnswer]:
    """Ask for a roll; log the omens spent on it and the result that stood."""
    answer = yield request
    assert isinstance(answer, RollAnswer)  # the driver checks answers against requests
    for payer in answer.rerolled_by:
        log.append(
            Event.about(
                payer,
                "omen_spent",
                f"{payer} spends an omen to re-roll {request.purpose}",
                use="re-roll",
                roll=request.kind,
            )
        )
    if len(answer.results) > 1:
        shown = ", ".join(str(result.total) for result in answer.results)
        log.append(
            Event.about(
                request.owner,
                "roll_kept",
                f"{request.owner} keeps {answer.total} of {shown} for {request.purpose}",
                dice=answer.result,
                roll=request.kind,
                kept=answer.total,
            )
        )
    return answer


def chosen(request: ChoiceRequest) -> Procedure[str]:
    """Ask for a choice and return it (the driver has checked it is one of the choices)."""
    answer = yield request
    assert isinstance(answer, ChoiceAnswer)
    return answer.choice


def omens_spent_by(name: str, answer: RollAnswer) -> int:
    """Omens `name` spent re-rolling this roll."""
    return answer.rerolled_by.count(name)


def roll_exploding_pool(expression: str, maximum: int, dice: DiceSource) -> DiceRecord:
    """Roll `expression` again while it totals `maximum`, adding each new total minus 1."""
    rolls = [roll(expression, dice)]
    while rolls[-1].total == maximum and len(rolls) <= POOL_DEPTH:
        rolls.append(roll(expression, dice))
    total = rolls[0].total + sum(later.total - 1 for later in rolls[1:])
    return DiceRecord(
        expression=expression,
        total=total,
        line=pool_said(rolls, total),
        dice={"type": "exploding_pool", "rolls": [later.to_json() for later in rolls]},
    )


def pool_said(rolls: Sequence[Roll], total: int) -> str:
    """A pool exploding as one, in words: `2d6, exploding together: 6 and 6, then 3 and 4
    (+6) = 18` (each roll again adds its total minus 1, CR-A11)."""
    if len(rolls) == 1:
        return said(rolls[0])
    faces = [listed([str(die.face) for die in _dice(rolled)]) for rolled in rolls]
    again = [f"{shown} (+{r.total - 1})" for shown, r in zip(faces[1:], rolls[1:], strict=True)]
    return (
        f"{rolls[0].expression}, exploding together: {', then '.join([faces[0], *again])} = {total}"
    )


def _dice(rolled: Roll) -> tuple[Die, ...]:
    pool = rolled.result
    assert isinstance(pool, RolledPool)  # a damage pool is dice alone
    return pool.dice


def roll_for(request: RollRequest, dice: DiceSource) -> DiceRecord:
    """Roll what a request asks for, every die on the record."""
    if request.explodes_at is not None:
        return roll_exploding_pool(request.expression, request.explodes_at, dice)
    return roll_record(request.expression, dice)


def check_answer(request: Request, answer: RollAnswer | ChoiceAnswer, repeat: bool) -> None:
    """Refuse an answer that does not fit its request (a saved state edited by hand)."""
    if isinstance(request, ChoiceRequest):
        if not isinstance(answer, ChoiceAnswer) or answer.choice not in request.choices:
            raise RollUnderError(f"the saved answer does not fit the choice: {request.purpose}")
        return
    if not isinstance(answer, RollAnswer):
        raise RollUnderError(f"the saved answer does not fit the roll: {request.purpose}")
    asked = _canonical(request.expression)
    if any(_canonical(result.expression) != asked for result in answer.results):
        raise RollUnderError(f"a saved result is not a roll of {request.expression}")
    if not repeat and len(answer.rerolled_by) > 1:
        raise RollUnderError("a roll may be re-rolled only once under these options")
    for payer in set(answer.rerolled_by):
        if answer.rerolled_by.count(payer) > request.payers.get(payer, 0):
            raise RollUnderError(f"{payer} paid for more re-rolls than they had omens")


@lru_cache(maxsize=4096)
def _canonical(expression: str) -> str:
    """The notation as the dice engine writes it, so `2d6+1` asked for matches the
    `2d6 + 1` a roll records. Cached like the engine's parser: every replay of a saved
    resolution checks each of its rolls again."""
    return notation(parse(expression))
