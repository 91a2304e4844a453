"""Checks and contests: 2d6 + score against a DC or against another character's roll.

A check against a set DC succeeds when the roll meets it; a check against a character
(DC 6 + their score, To-Hit, passive perception) succeeds only when it beats it, because the
defender wins ties (RU-A01). A natural double 1 fails (RU-A12); a double 6 is noted for its
extra damage and temp AP (RU-A13). A missing [special] score or a score at -3 fails without
a roll (RU-M02, RU-A03).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from tabletop.dice import DiceSource
from tabletop.systems.ap2d6.options import DEFAULTS, Options
from tabletop.systems.ap2d6.owners import part, rolled
from tabletop.systems.ap2d6.records import TwoDice, roll_2d6
from tabletop.systems.ap2d6.scores import Score, incapable, passive

MAX_CONTEST_REDOS = 100
"""Fully tied contests rolled again before the tie stands (equal sides tie about 1 time in 9)."""

Critical = Literal["double-one", "double-six"]

CRITICAL_WORDS: dict[Critical | None, str] = {
    "double-one": "double 1s: a critical failure",
    "double-six": "double 6s",
    None: "",
}
"""What a check's line says of its critical roll (RU-A12, RU-A13)."""


def critical_of(rolled: TwoDice) -> Critical | None:
    """Double 1s or double 6s, if the dice show either (RU-A12, RU-A13)."""
    if rolled.double_one:
        return "double-one"
    return "double-six" if rolled.double_six else None


class Check(BaseModel):
    """The record of one check: the dice, the total, the DC and whether it succeeded."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    score: Score
    modifier: int = 0
    dc: int
    defender_wins_ties: bool
    roll: TwoDice | None
    """None when the check failed before any die was rolled."""
    success: bool
    reason: str = ""

    @property
    def total(self) -> int | None:
        if self.roll is None or self.score is None:
            return None
        return self.roll.total + self.score + self.modifier

    @property
    def margin(self) -> int | None:
        """How far the total is above (+) or below (-) the DC."""
        total = self.total
        return None if total is None else total - self.dc

    @property
    def critical(self) -> Critical | None:
        return None if self.roll is None else critical_of(self.roll)

    def __str__(self) -> str:
        verdict = "success" if self.success else "failure"
        if self.roll is None:
            return f"{verdict}: {self.reason}"
        vs = "must beat" if self.defender_wins_ties else "vs"
        bonus = self.score + self.modifier if self.score is not None else 0
        return f"{self.roll} {bonus:+d} = {self.total} {vs} DC {self.dc}: {verdict}" + (
            f" ({self.reason})" if self.reason else ""
        )


def check(
    score: Score,
    dc: int,
    dice: DiceSource,
    *,
    modifier: int = 0,
    defender_wins_ties: bool = False,
    options: Options = DEFAULTS,
) -> Check:
    """Roll 2d6 + score + modifier against `dc` (RU-M10).

    `defender_wins_ties` is for a DC that stands for a character (RU-A01); a set DC's tie
    follows `options.tie_on_set_dc`."""
    cannot = incapable(score, options)
    if cannot is not None:
        return blocked_check(dc, cannot, defender=defender_wins_ties, score=score)
    assert score is not None
    return roll_with_bonus(
        score,
        dc,
        dice,
        modifier=modifier,
        defender_wins_ties=defender_wins_ties,
        options=options,
    )


def roll_with_bonus(
    bonus: int,
    dc: int,
    dice: DiceSource,
    *,
    modifier: int = 0,
    defender_wins_ties: bool = False,
    options: Options = DEFAULTS,
) -> Check:
    """Roll 2d6 + bonus + modifier against `dc` with no -3 gate: for a bonus that is a sum of
    scores (an attack's to-hit), whose parts the caller has already tested one by one (RU-A03)."""
    rolled = roll_2d6(dice)
    return Check(
        score=bonus,
        modifier=modifier,
        dc=dc,
        defender_wins_ties=defender_wins_ties,
        roll=rolled,
        success=succeeds(rolled, bonus + modifier, dc, defender_wins_ties, options),
        reason=CRITICAL_WORDS[critical_of(rolled)],
    )


def succeeds(
    rolled: TwoDice, bonus: int, dc: int, defender_wins_ties: bool, options: Options = DEFAULTS
) -> bool:
    """Whether 2d6 showing `rolled` plus `bonus` succeeds against `dc` (RU-A01, RU-A12, RU-A13)."""
    total = rolled.total + bonus
    ties_fail = defender_wins_ties or options.tie_on_set_dc == "failure"
    success = total > dc if ties_fail else total >= dc
    if rolled.double_one and options.double_one_fails:
        return False
    if rolled.double_six and options.double_six_succeeds:
        return True
    return success


def blocked_check(dc: int, reason: str, *, defender: bool, score: Score = None) -> Check:
    """A check that fails before any die is rolled, and why (RU-M02, RU-A03)."""
    return Check(
        score=score, dc=dc, defender_wins_ties=defender, roll=None, success=False, reason=reason
    )


def check_against(
    score: Score,
    target_score: int,
    dice: DiceSource,
    *,
    modifier: int = 0,
    options: Options = DEFAULTS,
) -> Check:
    """A check against a character's score: DC 6 + score, and the defender wins ties (RU-M12)."""
    return check(
        score,
        passive(target_score),
        dice,
        modifier=modifier,
        defender_wins_ties=True,
        options=options,
    )


def stealth(
    agi: Score,
    stealth_score: int | None,
    perception: int,
    dice: DiceSource,
    *,
    modifier: int = 0,
    options: Options = DEFAULTS,
) -> Check:
    """Sneaking (RU-M42): an AGI check, plus STEALTH if the character has it, against the
    watcher's passive perception; the watcher wins ties."""
    return check_against(
        agi, perception, dice, modifier=modifier + (stealth_score or 0), options=options
    )


class Side(BaseModel):
    """One side of a contest: its score, any situational modifier and its roll."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    score: Score
    modifier: int = 0
    roll: TwoDice | None = None

    @property
    def total(self) -> int | None:
        if self.roll is None or self.score is None:
            return None
        return self.roll.total + self.score + self.modifier


Winner = Literal["first", "second"] | None

Kept = tuple[str | None, str | None]
"""For each side of a contest, the owner whose numbers a table keeps from its players, or None."""


class Contest(BaseModel):
    """A contest (RU-M11): each round of rolls, the winner (None for a tie) and what decided it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    rounds: tuple[tuple[Side, Side], ...]
    winner: Winner
    decided_by: Literal["total", "score", "double-one", "incapable", "tie"]

    @property
    def first(self) -> Side:
        return self.rounds[-1][0]

    @property
    def second(self) -> Side:
        return self.rounds[-1][1]

    @property
    def difference(self) -> int | None:
        """First side's total minus the second's, in the deciding round."""
        if self.first.total is None or self.second.total is None:
            return None
        return self.first.total - self.second.total

    def rolls(self, kept: Kept = (None, None)) -> list[str]:
        """Each round of rolls, the two sides' in one line; the side of an owner in `kept`
        (an id, or None) is marked as theirs (`kept.secret`)."""
        return [
            f"{part(kept[0], _side_text(a))}  vs  {part(kept[1], _side_text(b))}"
            for a, b in self.rounds
        ]

    def describe(
        self,
        first: str = "the first side",
        second: str = "the second side",
        kept: Kept = (None, None),
    ) -> str:
        """Each round of rolls on a line, then who won and why. With a side's owner in
        `kept`, its rolls and why the contest went as it did (which tells of its total, its
        score or its dice) are its part of the line, and so is who won when both are kept."""
        verdict = {"first": f"{first} won", "second": f"{second} won", None: "a tie"}[self.winner]
        how = {
            "total": "higher total",
            "score": "totals tied, higher score",
            "double-one": "double 1s lose",
            "incapable": "a side could not act",
            "tie": "totals and scores tied",
        }[self.decided_by]
        if all(kept):
            decided = part(kept[0], f"{verdict} ({how})")
        else:
            decided = f"{verdict} ({part(kept[0] or kept[1], how)})"
        return "\n".join([*self.rolls(kept), decided])

    def __str__(self) -> str:
        return self.describe()


def _side_text(side: Side) -> str:
    if side.roll is None:
        return "no roll"
    bonus = (side.score or 0) + side.modifier
    return f"{side.roll} {bonus:+d} = {side.total}"


def contest(
    first: Score,
    second: Score,
    dice: DiceSource,
    *,
    first_modifier: int = 0,
    second_modifier: int = 0,
    full_tie: Literal["tie", "redo"] | None = None,
    score_breaks_ties: bool = True,
    options: Options = DEFAULTS,
    whose: tuple[str | None, str | None] = (None, None),
) -> Contest:
    """Both sides roll 2d6 + score; the higher total wins, then the higher score (RU-M11).

    Equal totals and scores are a tie, or are rolled again (`full_tie`, default from the
    options); `score_breaks_ties=False` makes equal totals a tie whatever the scores (social
    contests, RU-A34). A side that cannot use its score loses without rolling (RU-M02); a
    natural double 1 loses to any other roll (RU-A12). `whose` says for whom each side's
    dice are rolled at a shared table (`rolled_for`)."""
    redo = (full_tie or options.full_contest_tie) == "redo"
    blocked = (incapable(first, options), incapable(second, options))
    if any(blocked):
        sides = (
            Side(score=first, modifier=first_modifier),
            Side(score=second, modifier=second_modifier),
        )
        winner: Winner = None if all(blocked) else ("second" if blocked[0] else "first")
        return Contest(rounds=(sides,), winner=winner, decided_by="incapable")
    rounds: list[tuple[Side, Side]] = []
    while True:
        with rolled(whose[0]):
            first_roll = roll_2d6(dice)
        with rolled(whose[1]):
            second_roll = roll_2d6(dice)
        pair = (
            Side(score=first, modifier=first_modifier, roll=first_roll),
            Side(score=second, modifier=second_modifier, roll=second_roll),
        )
        rounds.append(pair)
        winner, decided_by = decide(pair, score_breaks_ties, options)
        if winner is not None or not redo or len(rounds) > MAX_CONTEST_REDOS:
            return Contest(rounds=tuple(rounds), winner=winner, decided_by=decided_by)


def decide(
    pair: tuple[Side, Side], score_breaks_ties: bool = True, options: Options = DEFAULTS
) -> tuple[Winner, str]:
    """Who wins one round of a contest and why: double 1s lose (RU-A12), then the higher
    total, then the higher score (RU-M11; the score alone, not situational modifiers, RU-A46)."""
    first, second = pair
    assert first.roll is not None and second.roll is not None
    assert first.total is not None and second.total is not None
    assert first.score is not None and second.score is not None
    return outcome(
        (first.total, first.score, first.roll.double_one),
        (second.total, second.score, second.roll.double_one),
        score_breaks_ties,
        options,
    )


def outcome(
    first: tuple[int, int, bool],
    second: tuple[int, int, bool],
    score_breaks_ties: bool = True,
    options: Options = DEFAULTS,
) -> tuple[Winner, str]:
    """`decide` on bare numbers: each side as (total, score, rolled double 1s)."""
    if options.double_one_fails and first[2] != second[2]:
        return ("second" if first[2] else "first"), "double-one"
    if first[0] != second[0]:
        return ("first" if first[0] > second[0] else "second"), "total"
    if score_breaks_ties and first[1] != second[1]:
        return ("first" if first[1] > second[1] else "second"), "score"
    return None, "tie"
