"""Opposed tests (DW-M48): both sides test; a success against a failure wins, and a tie
(both succeed or both fail, whatever the grade, DW-A26) means both test again, each
re-test a full test with its fatigue. NPCs test with their level (DW-M50). A re-test
announces again what can still be announced, and a side that can no longer act loses
(DW-X20).

At a shared table each side's dice are rolled for it, and the verdict of a side whose
numbers the players may not see (a hidden kept enemy) is its part of the contest's lines
(`owners.Whose`, DW-N04); from the command line nothing is anybody's."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from tabletop.dice import DiceSource
from tabletop.errors import LimitError
from tabletop.systems.dead_weight.attribute_test import (
    AttributeTest,
    DauntlessRoll,
    Pass,
    Reroll,
    TestSetup,
    announce_test,
    may_spend_fatigue,
    start_test,
)
from tabletop.systems.dead_weight.character import Character
from tabletop.systems.dead_weight.errors import DeadWeightError
from tabletop.systems.dead_weight.evaluation import Outcome
from tabletop.systems.dead_weight.events import Event, event, sided
from tabletop.systems.dead_weight.npc import Npc
from tabletop.systems.dead_weight.options import DEFAULT, Options
from tabletop.systems.dead_weight.owners import NOBODY, Whose

MAX_OPPOSED_ROUNDS = 100
"""Re-tests one opposed test may take before it is called off."""

Choice = Reroll | Pass | DauntlessRoll


def opposed_winner(first: Outcome, second: Outcome) -> int | None:
    """0 if the first side won, 1 if the second did, None on a tie (test again)."""
    if first.succeeded == second.succeeded:
        return None
    return 0 if first.succeeded else 1


class OpposedTest(BaseModel):
    """Two tests played one after the other, round after round until one side wins."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    setups: tuple[TestSetup, TestSetup]
    options: Options = DEFAULT
    tests: tuple[AttributeTest, AttributeTest]
    round: int = Field(default=1, ge=1)
    winner: int | None = None

    @property
    def finished(self) -> bool:
        return self.winner is not None

    @property
    def current(self) -> int:
        """Which side's test takes the next choice."""
        return 0 if not self.tests[0].finished else 1

    def choices(self) -> list[Choice]:
        return [] if self.finished else self.tests[self.current].choices()

    def choose(
        self, choice: Choice, dice: DiceSource, whose: Whose = NOBODY
    ) -> tuple[OpposedTest, list[Event]]:
        if self.finished:
            raise DeadWeightError("the opposed test is over")
        side = self.current
        with whose.rolling(side):
            test, events = self.tests[side].choose(choice, dice)
        tests = (test, self.tests[1]) if side == 0 else (self.tests[0], test)
        contest = self.model_copy(update={"tests": tests})
        return _settle(contest, dice, sided(events, side), whose)


def start_opposed(
    first: Character | Npc,
    first_setup: TestSetup,
    second: Character | Npc,
    second_setup: TestSetup,
    dice: DiceSource,
    options: Options = DEFAULT,
    whose: Whose = NOBODY,
) -> tuple[OpposedTest, list[Event]]:
    """Throw both tests; the returned contest waits for the first open choice."""
    with whose.rolling(0):
        one, events = start_test(first, first_setup, dice, options=options)
    with whose.rolling(1):
        two, more = start_test(second, second_setup, dice, options=options)
    contest = OpposedTest(setups=(first_setup, second_setup), options=options, tests=(one, two))
    return _settle(contest, dice, sided(events, 0) + sided(more, 1), whose)


def _settle(
    contest: OpposedTest, dice: DiceSource, events: list[Event], whose: Whose
) -> tuple[OpposedTest, list[Event]]:
    """Judge the contest once both tests are: a winner, or both test again. A kept side's
    verdict in a tie is its part of the line, and so is who won when both sides are kept
    (either verdict would tell the other's)."""
    while all(test.finished for test in contest.tests):
        one, two = contest.tests
        assert one.verdict is not None and two.verdict is not None
        winner = opposed_winner(one.verdict, two.verdict)
        if winner is not None:
            name = contest.tests[winner].roller.label
            both_kept = whose.kept_id(0) and whose.kept_id(1)
            told = whose.part(winner, name) if both_kept else name
            events.append(event("opposed", f"{told} wins the opposed test", winner=winner))
            return contest.model_copy(update={"winner": winner}), events
        if contest.round >= MAX_OPPOSED_ROUNDS:
            raise LimitError(f"still tied after {MAX_OPPOSED_ROUNDS} rounds")
        verdicts = f"{whose.part(0, one.verdict)} and {whose.part(1, two.verdict)}"
        events.append(event("opposed", f"a tie ({verdicts}): test again"))
        able = [_can_act(test.roller) for test in contest.tests]
        if able != [True, True]:
            if not any(able):
                raise DeadWeightError(
                    "neither side can act to test again: the contest is called off"
                )
            winner = able.index(True)
            name = contest.tests[winner].roller.label
            text = f"{contest.tests[1 - winner].roller.label} cannot test again: {name} wins"
            events.append(event("opposed", text, winner=winner))
            return contest.model_copy(update={"winner": winner}), events
        with whose.rolling(0):
            first, more = _retest(one.roller, contest.setups[0], dice, contest.options)
        with whose.rolling(1):
            second, again = _retest(two.roller, contest.setups[1], dice, contest.options)
        events += sided(more, 0) + sided(again, 1)
        contest = contest.model_copy(update={"tests": (first, second), "round": contest.round + 1})
    return contest, events


def _can_act(roller: Character | Npc) -> bool:
    return not isinstance(roller, Character) or roller.condition.can_act


def _retest(
    roller: Character | Npc, setup: TestSetup, dice: DiceSource, options: Options
) -> tuple[AttributeTest, list[Event]]:
    """Test again after a tie (DW-A26, DW-X20): the burden, once a session, is spent;
    extra effort is made again only while its fatigue can be paid; fewer dice than the
    pool become the whole pool once the pool has shrunk below them."""
    if isinstance(roller, Character):
        if setup.burden:
            setup = setup.model_copy(update={"burden": False})
        if setup.extra_effort and not may_spend_fatigue(roller, setup.attribute):
            setup = setup.model_copy(update={"extra_effort": False})
    if setup.dice:
        whole, _ = announce_test(roller, setup.model_copy(update={"dice": None}), options=options)
        if setup.dice > whole.pool:
            setup = setup.model_copy(update={"dice": None})
    return start_test(roller, setup, dice, options=options)
