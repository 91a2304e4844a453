"""Judging the final faces of a test: success, great success, failures and fatigue.

The faces are judged only once both sides have stopped re-rolling (DW-M29, DW-M30). The
same rules serve the state machine, the advisor's reference checks and the odds."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Outcome(StrEnum):
    """The four results of a test; they never overlap."""

    CRITICAL_FAILURE = "critical failure"
    FAILURE = "failure"
    SUCCESS = "success"
    GREAT_SUCCESS = "great success"

    @property
    def succeeded(self) -> bool:
        return self in (Outcome.SUCCESS, Outcome.GREAT_SUCCESS)


def succeeds(face: int, terrified: bool) -> bool:
    """A 4, 5 or 6 succeeds; under Terrified a 4 does not (DW-M29, DW-M54)."""
    return face >= (5 if terrified else 4)


def tires(face: int, hopeless: bool) -> bool:
    """A 1 or a 4 causes fatigue; under Hopeless a 5 or 6 does too (DW-M30, DW-M54)."""
    return face in (1, 4) or (hopeless and face >= 5)


@dataclass(frozen=True, slots=True)
class HelperThrow:
    """A helper's dice in the main roll: their fatigue is the helper's own (DW-M35)."""

    faces: tuple[int, ...]
    hopeless: bool = False
    fatigue_counts: bool = True
    """False on a check, or when the helper paid for extra effort."""


@dataclass(frozen=True, slots=True)
class Throw:
    """Everything the judgement of a test depends on."""

    own: tuple[int, ...]
    """The roller's own dice, final faces."""
    take_lowest: bool = False
    """The own dice are a zero-dice roll: only the lowest is the result (DW-M37)."""
    count_all_thrown: bool = False
    """DW-A06 option "all": every die thrown counts for fatigue, criticals and sixes."""
    helpers: tuple[HelperThrow, ...] = ()
    dauntless: tuple[int, ...] = ()
    """The two extra dice of a Dauntless roller, added after a success (DW-A36)."""
    terrified: bool = False
    hopeless: bool = False
    fatigue_counts: bool = True
    """False on a check or under extra effort: the roll itself costs no fatigue."""
    keep_safe: bool = False
    """Kept it safe: the roll costs fatigue only if the test fails (DW-M34)."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """The judged test: its outcome, and who takes a fatigue point from the dice."""

    outcome: Outcome
    fatigue: bool
    helper_fatigue: tuple[bool, ...] = ()

    def to_json(self) -> dict[str, object]:
        return {
            "outcome": self.outcome.value,
            "fatigue": self.fatigue,
            "helper_fatigue": list(self.helper_fatigue),
        }


def judge(throw: Throw) -> Verdict:
    """Judge final faces: the rules of DW-M29 and DW-M30 with every exception."""
    if throw.take_lowest and throw.own:
        kept = (min(throw.own),)
        counted = throw.own if throw.count_all_thrown else kept
    else:
        kept = counted = throw.own
    helper_faces = tuple(face for helper in throw.helpers for face in helper.faces)
    deciding = kept + helper_faces
    success = any(succeeds(face, throw.terrified) for face in deciding)
    seen = counted + helper_faces + throw.dauntless
    great = success and seen.count(6) >= 2
    critical = not success and 1 in seen
    if great:
        outcome = Outcome.GREAT_SUCCESS
    elif success:
        outcome = Outcome.SUCCESS
    else:
        outcome = Outcome.CRITICAL_FAILURE if critical else Outcome.FAILURE
    own_tired = any(tires(face, throw.hopeless) for face in counted + throw.dauntless)
    fatigue = own_tired and throw.fatigue_counts and not (throw.keep_safe and success)
    helper_fatigue = tuple(
        helper.fatigue_counts and any(tires(face, helper.hopeless) for face in helper.faces)
        for helper in throw.helpers
    )
    return Verdict(outcome, fatigue, helper_fatigue)
