"""Opposed tests (DW-M48): both sides test; a success against a failure wins, and a tie
(both succeed or both fail, whatever the grade, DW-A26) means both test again, each
re-test a full test with its fatigue. NPCs test with their level (DW-M50). A re-test
announces again what can still be announced, and a side that can no longer act loses
(DW-X20)."""

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

    def choose(self, choice: Choice, dice: DiceSource) -> tuple[OpposedTest, list[Event]]:
        if self.finished:
            raise DeadWeightError("the opposed test is over")
        side = self.current
        test, events = self.tests[side].choose(choice, dice)
        tests = (test, self.tests[1]) if side == 0 else (self.tests[0], test)
        return _settle(self.model_copy(update={"tests": tests}), dice, sided(events, side))


def start_opposed(
    first: Character | Npc,
    first_setup: TestSetup,
    second: Character | Npc,
    second_setup: TestSetup,
    dice: DiceSource,
    options: Options = DEFAULT,
) -> tuple[OpposedTest, list[Event]]:
    """Throw both tests; the returned contest waits for the first open choice."""
    one, events = start_test(first, first_setup, dice, options=options)
    two, more = start_test(second, second_setup, dice, options=options)
    contest = OpposedTest(setups=(first_setup, second_setup), options=options, tests=(one, two))
    return _settle(contest, dice, sided(events, 0) + sided(more, 1))


def _settle(
    contest: OpposedTest, dice: DiceSource, events: list[Event]
) -> tuple[OpposedTest, list[Event]]:
    while all(test.finished for test in contest.tests):
        one, two = contest.tests
        assert one.verdict is not None and two.verdict is not None
        winner = opposed_winner(one.verdict, two.verdict)
        if winner is not None:
            name = contest.tests[winner].roller.label
            events.append(event("opposed", f"{name} wins the opposed test", winner=winner))
            return contest.model_copy(update={"winner": winner}), events
        if contest.round >= MAX_OPPOSED_ROUNDS:
            raise LimitError(f"still tied after {MAX_OPPOSED_ROUNDS} rounds")
        events.append(event("opposed", f"a tie ({one.verdict} and {two.verdict}): test again"))
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
        first, more = _retest(one.roller, contest.setups[0], dice, contest.options)
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
