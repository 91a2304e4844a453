"""Ability contests (§ Ability Contests): everyone makes the same number of ability rolls,
typically 4; sides rank by successes, a team adding its members' successes; ties are broken
with more rolls (CR-M03, CR-M04, CR-A16).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from pydantic import Field, model_validator

from tabletop.systems.rollunder.abilities import Roller, ability_check, distinct_names
from tabletop.systems.rollunder.flow import Procedure
from tabletop.systems.rollunder.options import RollUnderOptions
from tabletop.systems.rollunder.records import Event, Model

USUAL_ROLLS = 4
MAX_CONTEST_ROLLS = 100
MAX_SIDES = 20
MAX_TEAM = 20
MAX_TIE_BREAK_ROUNDS = 1_000
"""Bounds of one contest. A tie still standing after this many tie-break rounds stands
(the chance of that is below 10⁻⁴⁰ unless a tie cannot be broken at all)."""


class Side(Model):
    """A contestant on their own, or a team whose successes are added together."""

    name: str = Field(min_length=1, max_length=60)
    members: tuple[Roller, ...] = Field(min_length=1, max_length=MAX_TEAM)

    @classmethod
    def alone(cls, roller: Roller) -> Side:
        return cls(name=roller.name, members=(roller,))


class Place(Model):
    """A place in the ranking: one side, or several whose tie could not be broken."""

    sides: tuple[str, ...]
    successes: int


class ContestOutcome(Model):
    places: tuple[Place, ...]
    """Best first."""
    successes: dict[str, int]
    """Each side's successes in the contest's rolls (before tie-breaks)."""
    omens_spent: dict[str, int]
    """Omens each contestant spent on re-rolls."""

    @property
    def winner(self) -> str | None:
        """The side alone in first place, if any."""
        first = self.places[0].sides
        return first[0] if len(first) == 1 else None


class Contest(Model):
    """A contest of `rolls` ability rolls each among two or more sides."""

    intent: Literal["contest"] = "contest"
    ability: str = Field(min_length=1, max_length=8)
    sides: tuple[Side, ...] = Field(min_length=2, max_length=MAX_SIDES)
    rolls: int = Field(default=USUAL_ROLLS, ge=1, le=MAX_CONTEST_ROLLS)

    @model_validator(mode="after")
    def _distinct_names(self) -> Contest:
        distinct_names(self, [side.name for side in self.sides])
        return distinct_names(self, [m.name for side in self.sides for m in side.members])

    def procedure(self, options: RollUnderOptions, log: list[Event]) -> Procedure[ContestOutcome]:
        return _Contest(self, options, log).run()


class _Contest:
    """The running contest: omens left per contestant, and the procedure itself."""

    def __init__(self, contest: Contest, options: RollUnderOptions, log: list[Event]) -> None:
        self.contest = contest
        self.options = options
        self.log = log
        self.omens = {m.name: m.omens for side in contest.sides for m in side.members}

    def run(self) -> Procedure[ContestOutcome]:
        contest = self.contest
        successes: dict[str, int] = {}
        for side in contest.sides:
            successes[side.name] = yield from self.side_rolls(side, contest.rolls, "contest")
        places: list[Place] = []
        for score in sorted(set(successes.values()), reverse=True):
            tied = [side for side in contest.sides if successes[side.name] == score]
            for group in (yield from self.break_tie(tied)):
                places.append(Place(sides=tuple(side.name for side in group), successes=score))
        outcome = ContestOutcome(
            places=tuple(places),
            successes=successes,
            omens_spent={
                m.name: m.omens - self.omens[m.name] for s in contest.sides for m in s.members
            },
        )
        ranking = "; ".join(" = ".join(place.sides) for place in outcome.places)
        self.log.append(Event.about(None, "contest_result", f"ranking, best first: {ranking}"))
        return outcome

    def side_rolls(
        self, side: Side, rolls: int, kind: Literal["contest", "tie_break"]
    ) -> Procedure[int]:
        """Every member of `side` makes `rolls` ability rolls; the side's successes."""
        total = 0
        for member in side.members:
            passes = 0
            if member.always(self.options) is False and member.incapacitated:
                self.log.append(
                    Event.about(
                        member.name,
                        "automatic_result",
                        f"{member.name} fails every roll (incapacitated)",
                        ability=self.contest.ability,
                        passed=False,
                    )
                )
                rolls_now = 0
            else:
                rolls_now = rolls
            for number in range(1, rolls_now + 1):
                roller = member.model_copy(update={"omens": self.omens[member.name]})
                purpose = f"{member.name}'s {self.contest.ability} roll {number} of {rolls}"
                if kind == "tie_break":
                    purpose = f"{member.name}'s tie-break {self.contest.ability} roll"
                passed, spent = yield from ability_check(
                    roller, self.contest.ability, kind, purpose, self.options, self.log
                )
                self.omens[member.name] -= spent
                passes += passed
            total += passes
            if kind == "contest":
                self.log.append(
                    Event.about(
                        member.name,
                        "contest_rolls",
                        passes_text(member.name, passes, rolls),
                        side=side.name,
                        successes=passes,
                        rolls=rolls,
                    )
                )
        return total

    def break_tie(self, tied: list[Side]) -> Procedure[list[list[Side]]]:
        """Tied sides roll again until they are ordered; groups best first (CR-A16)."""
        if len(tied) == 1:
            return [tied]
        per_round = 1 if self.options.contest_tie_break == "one_roll_each" else self.contest.rolls
        for _ in range(MAX_TIE_BREAK_ROUNDS):
            if self.unbreakable(tied):
                break
            scores = {}
            for side in tied:
                scores[side.name] = yield from self.side_rolls(side, per_round, "tie_break")
            self.log.append(
                Event(kind="tie_break", text=tie_break_text(scores), values=dict(scores))
            )
            levels = sorted(set(scores.values()), reverse=True)
            if len(levels) > 1:
                ordered: list[list[Side]] = []
                for level in levels:
                    group = [side for side in tied if scores[side.name] == level]
                    ordered.extend((yield from self.break_tie(group)))
                return ordered
        names = " = ".join(side.name for side in tied)
        self.log.append(
            Event.about(None, "tie_stands", f"the tie between {names} cannot be broken")
        )
        return [tied]

    def unbreakable(self, tied: list[Side]) -> bool:
        """True when no roll can separate the tied sides: every member's result is certain
        and every side would score the same."""
        fixed = set()
        for side in tied:
            certain = [member.always(self.options) for member in side.members]
            if None in certain:
                return False
            fixed.add(sum(bool(result) for result in certain))
        return len(fixed) == 1


def passes_text(name: str, passes: object, rolls: object) -> str:
    """A contestant's successes (a table may keep the number apart, CR-S04)."""
    return f"{name} passes {passes} of {rolls} roll{'' if rolls == 1 else 's'}"


def tie_break_text(scores: Mapping[str, object]) -> str:
    """A tie-break round's successes by side (a table may keep some apart, CR-S04)."""
    return "tie-break round: " + ", ".join(f"{side} {score}" for side, score in scores.items())
