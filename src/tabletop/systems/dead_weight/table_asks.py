"""The GM asks a player for a test at a Dead Weight table (DW-T04): an attribute, a test or
a check, with the advantage and disadvantage the GM announces (§ Advantage and
Disadvantage); the player answers with one tap and the test runs as any test, its re-roll
exchange included. A Dead Weight test has no DC (a 4, 5 or 6 succeeds), so the GM's form
has none and an ask with one is refused: there is no DC to keep, and the verdict is read off
the player's own dice.
"""

from __future__ import annotations

from pydantic import Field

from tabletop.asks import Ask, AskDesk, AskRoll
from tabletop.dice import DiceSource
from tabletop.session import Event, Frozen, Member, rolled_for
from tabletop.systems.dead_weight.attribute_test import MAX_ANNOUNCED_REROLLS, TestSetup
from tabletop.systems.dead_weight.attributes import Attribute
from tabletop.systems.dead_weight.errors import DeadWeightError
from tabletop.systems.dead_weight.table import DeadWeightTable
from tabletop.systems.dead_weight.table_tests import Test, begin_test
from tabletop.systems.dead_weight.table_turns import characters

NO_DC = "a Dead Weight test has no DC: a 4, 5 or 6 succeeds"


class AskedTest(Frozen):
    """What the GM asks an adventurer to test, announced as the GM announces it."""

    attribute: Attribute
    check: bool = False
    advantage: int = Field(default=0, ge=0, le=MAX_ANNOUNCED_REROLLS)
    disadvantage: int = Field(default=0, ge=0, le=MAX_ANNOUNCED_REROLLS)


def said(what: AskedTest) -> str:
    """An asked test as the log says it: "a DEX check with 1 disadvantage"."""
    test = "check" if what.check else "test"
    counts = ((what.advantage, "advantage"), (what.disadvantage, "disadvantage"))
    extra = " and ".join(f"{n} {name}" for n, name in counts if n)
    return f"a {what.attribute} {test}{f' with {extra}' if extra else ''}"


def roll_asked(
    state: DeadWeightTable, ask: Ask, dice: DiceSource
) -> tuple[DeadWeightTable, list[Event]]:
    """The adventurer's test of what was asked, announced by the GM (so the GM's part of it
    stands whoever answers, DW-T01); it waits for its re-roll exchange as any test."""
    if state.testing:
        raise DeadWeightError("a test is under way; finish it first")
    sheet = state.characters[ask.character].sheet
    if not sheet.condition.can_act:
        raise DeadWeightError(f"{sheet.label} cannot act now (§ Fainting, § Mortal Wounds)")
    what = ASKS.read(ask)
    setup = TestSetup(**what.model_dump())
    with rolled_for(ask.character):
        return begin_test(state, Test(roller=ask.character, setup=setup), Member.gm(), dice)


def no_dc(state: DeadWeightTable, intent: AskRoll[AskedTest]) -> None:
    """The GM asks for a test, never with a DC (DW-T04)."""
    if intent.dc is not None:
        raise DeadWeightError(NO_DC)


ASKS: AskDesk[DeadWeightTable, AskedTest] = AskDesk(
    AskedTest, said, {"attribute": "DEX"}, characters, roll_asked, refuse=no_dc, with_dc=False
)
"""The GM's asks at a Dead Weight table."""
