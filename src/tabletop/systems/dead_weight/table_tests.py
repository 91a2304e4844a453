"""Tests at a Dead Weight table (§ Attribute Tests and Checks, § Special Tests): a
character's test with helpers, the GM's test for an enemy, an opposed test, and the
re-roll exchange that runs die by die until both sides stop; a spell's or prayer's test runs
the same way (§ Spells, § Prayers)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, ValidationError

from tabletop.asks import gm_lever
from tabletop.dice import DiceSource
from tabletop.errors import PermissionDenied
from tabletop.offers import Choice, Offer, closed_offer, offer
from tabletop.session import Event, Frozen, Member, hidden
from tabletop.systems.dead_weight.attribute_test import (
    GM_ANNOUNCES,
    DauntlessRoll,
    Help,
    Pass,
    Reroll,
    TestSetup,
    gm_levers,
    start_test,
)
from tabletop.systems.dead_weight.character import Character
from tabletop.systems.dead_weight.errors import DeadWeightError
from tabletop.systems.dead_weight.events import Event as RulesEvent
from tabletop.systems.dead_weight.magic import cast_spell, pray
from tabletop.systems.dead_weight.npc import Npc
from tabletop.systems.dead_weight.odds import advise
from tabletop.systems.dead_weight.opposed import start_opposed
from tabletop.systems.dead_weight.sheet_edits import CastSpell, Pray, setup_choice
from tabletop.systems.dead_weight.table import DeadWeightTable, Exchange, Id, sheet_of
from tabletop.systems.dead_weight.table_npcs import tester, told_of, told_sides


class Test(Frozen):
    """A character tests (or checks) an attribute; others may help (DW-M35)."""

    kind: Literal["test"] = "test"
    roller: Id
    setup: TestSetup = TestSetup()
    helpers: tuple[Id, ...] = Field(default=(), max_length=3)
    helper_effort: tuple[Id, ...] = ()
    """Helpers who go for extra effort (two dice for a fatigue)."""


class NpcTest(Frozen):
    """The GM tests for a monster or anyone the players do not play (DW-M50): a kept NPC
    (`kept`), whose numbers stay hidden, or one typed in for this test (`npc`)."""

    kind: Literal["npc-test"] = "npc-test"
    kept: Id | None = None
    npc: Npc | None = None
    setup: TestSetup = TestSetup()


class Contender(Frozen):
    """One side of an opposed test: a character, a kept NPC, or an NPC typed in for it."""

    character: Id | None = None
    kept: Id | None = None
    npc: Npc | None = None
    setup: TestSetup = TestSetup()


class OpposedTestIntent(Frozen):
    """Two sides test one after the other until one wins (DW-M36)."""

    kind: Literal["opposed-test"] = "opposed-test"
    first: Contender
    second: Contender


ExchangeChoice = Reroll | Pass | DauntlessRoll


def announced_by(state: DeadWeightTable, setup: TestSetup, member: Member) -> None:
    """Refuse a player's announcement that sets what the GM sets, unless the table hands it
    over (`players_set_difficulty`, DW-T01)."""
    for what in gm_levers(setup):
        gm_lever(member, state.options.players_set_difficulty, what)


def why_not_announced(state: DeadWeightTable, setup: Any, member: Member) -> str | None:
    """Why a player's test the offers refuse is refused, when it announces the GM's part."""
    try:
        announced_by(state, TestSetup.model_validate(setup or {}), member)
    except (PermissionDenied, ValidationError) as refused:
        return str(refused) if isinstance(refused, PermissionDenied) else None
    return None


def announces(state: DeadWeightTable, member: Member) -> bool:
    """Whether `member` announces the GM's part of a test at this table (DW-T01)."""
    return member.is_gm or state.options.players_set_difficulty


def test_offers(state: DeadWeightTable, mine: tuple[str, ...], member: Member) -> list[Offer]:
    """A test for each character of `mine` who can act, while no test is under way."""
    able = tuple(c for c in mine if state.characters[c].sheet.condition.can_act)
    if state.testing or not able:
        return []
    levers = announces(state, member)
    return [
        Offer(
            kind="test",
            text="test or check an attribute",
            fields={"roller": Choice(values=able), "setup": setup_choice(levers)},
            preset={} if levers else {"setup": GM_ANNOUNCES},
        )
    ]


def exchange_offers(state: DeadWeightTable, member: Member) -> list[Offer]:
    """The choices of the test under way, to whoever makes them now."""
    exchange = state.exchange
    if exchange is None or exchange.finished or not decides(state, member):
        return []
    choices = exchange.choices()
    made = [
        closed_offer(kind, text, [c for c in choices if c.kind == kind])
        for kind, text in (
            ("reroll", "re-roll one die"),
            ("pass", "stop re-rolling"),
            ("dauntless", "add the Dauntless dice, or not"),
        )
    ]
    return [o for o in made if o is not None]


def gm_test_offers(state: DeadWeightTable, able: tuple[str, ...]) -> list[Offer]:
    """The GM's tests: for a kept enemy (`able`: those alive), an enemy typed in, or two
    sides opposed; none while a test is under way."""
    if state.testing:
        return []
    setup = Choice(help="what it tests, with advantage, disadvantage, …", example={})
    found = []
    if able:
        found.append(offer("npc-test", "test a kept NPC", kept=Choice(values=able), setup=setup))
    return [
        *found,
        offer(
            "npc-test",
            "test for an NPC",
            npc=Choice(help="its name and level (the score it tests with)", example={}),
            setup=setup,
        ),
        offer(
            "opposed-test",
            "an opposed test between two sides",
            first=Choice(
                help="a character, a kept NPC, or an NPC typed in; then what it tests",
                example={},
            ),
            second=Choice(help="the other side, the same way", example={}),
        ),
    ]


def decides(state: DeadWeightTable, member: Member) -> bool:
    """Whether `member` makes the exchange's next choice (the GM may make any)."""
    exchange = state.exchange
    assert exchange is not None
    if member.is_gm:
        return True
    if exchange.open_test.deciding.value == "gm" or exchange.roller is None:
        return False
    return state.characters[exchange.roller].owner == member.id


def begin_test(
    state: DeadWeightTable,
    intent: Test | NpcTest | OpposedTestIntent | CastSpell | Pray,
    member: Member,
    dice: DiceSource,
) -> tuple[DeadWeightTable, list[Event]]:
    """A test begins: its dice are rolled and the exchange waits for the first choice."""
    if isinstance(intent, CastSpell | Pray):
        caster = sheet_of(state, intent.character)
        if isinstance(intent, CastSpell):
            casting, events = cast_spell(caster, intent.spell, dice, state.options)
        else:
            casting, events = pray(
                caster,
                intent.prayer,
                dice,
                desperate_plea=intent.desperate_plea,
                options=state.options,
            )
        exchange = Exchange(casting=casting, rollers=(intent.character,))
        if casting.test is None:  # an arcane well: no test, nothing left to choose
            done = _written_back(state, exchange)
            return done.model_copy(update={"exchange": None}), told_of(named(exchange, events))
    elif isinstance(intent, OpposedTestIntent):
        sides = [_contender(state, side) for side in (intent.first, intent.second)]
        rollers = (intent.first.character, intent.second.character)
        kept = (intent.first.kept, intent.second.kept)
        whose = state.whose(rollers, kept, opposed=True)
        contest, events = start_opposed(
            sides[0],
            intent.first.setup,
            sides[1],
            intent.second.setup,
            dice,
            state.options,
            whose,
        )
        exchange = Exchange(opposed=contest, rollers=rollers, kept=kept)
        told = told_sides(named(exchange, events), whose, state.npc_names, opposed=True)
        return _written_back(state, exchange), told
    elif isinstance(intent, NpcTest):
        if (intent.kept is None) == (intent.npc is None):
            raise DeadWeightError("an NPC test is for a kept NPC or one typed in, not both")
        npc = tester(state.npcs, intent.kept) if intent.kept else intent.npc
        assert npc is not None
        whose = state.whose((None,), (intent.kept,), opposed=False)
        with whose.rolling(0):
            test, events = start_test(npc, intent.setup, dice, options=state.options)
        exchange = Exchange(test=test, rollers=(None,), kept=(intent.kept,))
        told = told_sides(named(exchange, events), whose, state.npc_names, opposed=False)
        return _written_back(state, exchange), told
    else:
        announced_by(state, intent.setup, member)
        roller = sheet_of(state, intent.roller)
        if intent.roller in intent.helpers or len(set(intent.helpers)) < len(intent.helpers):
            raise DeadWeightError("each helper is another character, named once")
        helps = [
            Help(helper=sheet_of(state, h), extra_effort=h in intent.helper_effort)
            for h in intent.helpers
        ]
        test, events = start_test(roller, intent.setup, dice, helps, options=state.options)
        exchange = Exchange(test=test, rollers=(intent.roller,), helpers=intent.helpers)
    return _written_back(state, exchange), told_of(named(exchange, events))


def choose(
    state: DeadWeightTable, choice: ExchangeChoice, dice: DiceSource
) -> tuple[DeadWeightTable, list[Event]]:
    """One choice of the re-roll exchange, the test judged when both sides stop."""
    exchange = state.exchange
    assert exchange is not None
    opposed = exchange.opposed is not None
    whose = state.whose(exchange.rollers, exchange.kept, opposed)
    if exchange.opposed is not None:
        contest, events = exchange.opposed.choose(choice, dice, whose)
        exchange = exchange.model_copy(update={"opposed": contest})
    elif exchange.casting is not None:
        casting, events = exchange.casting.choose(choice, dice)
        exchange = exchange.model_copy(update={"casting": casting})
    else:
        with whose.rolling(0):
            test, events = exchange.open_test.choose(choice, dice)
        exchange = exchange.model_copy(update={"test": test})
    told = told_sides(named(exchange, events), whose, state.npc_names, opposed)
    return _written_back(state, exchange), told


EXCHANGE_LINES = frozenset({"dice rolled", "test judged", "dauntless", "extra effort", "omens"})
"""The exchange's lines told as the test's own: "Amber's test: rolled [1, 4, 6]"."""


def named(exchange: Exchange, events: list[RulesEvent]) -> list[RulesEvent]:
    """The exchange's lines naming whose test they are (issue 30, item 2): "Amber re-rolls
    die 1 (1 → 5) with proficiency", "the GM re-rolls Amber's die 3 (6 → 2) with
    disadvantage", "Amber's test: success, fatigue"; a tie names both sides."""
    labels = _labels(exchange)
    told = []
    for e in events:
        label = labels[(e.side or 0) if exchange.opposed is not None else 0]
        if e.kind in ("reroll", "pass"):
            text = _chosen(e.text, label)
        elif e.kind in EXCHANGE_LINES:
            text = f"{label}'s test: {e.text}"
        elif e.kind == "opposed":
            text = f"{' against '.join(labels)}: {e.text}"
        else:
            text = e.text
        told.append(e.model_copy(update={"text": text}))
    return told


def _labels(exchange: Exchange) -> list[str]:
    """Whose test each side is: a spell cast from an arcane well has no test, only its
    caster (DW-A20)."""
    if exchange.opposed is not None:
        return [test.roller.label for test in exchange.opposed.tests]
    if exchange.casting is not None:
        return [exchange.casting.caster.label]
    return [exchange.open_test.roller.label]


def _chosen(text: str, label: str) -> str:
    """A re-roll or a pass named: the player's side as the adventurer (or the enemy) whose
    test it is, the GM's as the GM on that test."""
    side, _, rest = text.partition(" ")
    if side == "player":
        return f"{label} {rest}"
    if rest.startswith("re-rolls die "):
        return f"the GM re-rolls {label}'s die {rest.removeprefix('re-rolls die ')}"
    return f"the GM {rest} on {label}'s test"


def _contender(state: DeadWeightTable, side: Contender) -> Character | Npc:
    named = [x for x in (side.character, side.kept, side.npc) if x is not None]
    if len(named) != 1:
        raise DeadWeightError(
            "each side of an opposed test is one character, one kept NPC or one NPC typed in"
        )
    if side.kept is not None:
        return tester(state.npcs, side.kept)
    return side.npc if side.npc is not None else sheet_of(state, side.character or "")


def _written_back(state: DeadWeightTable, exchange: Exchange) -> DeadWeightTable:
    """The exchange stored, and each character in it as the test has left them."""
    seats = dict(state.characters)
    if exchange.casting is not None:
        cid = exchange.rollers[0]
        assert cid is not None
        seats[cid] = seats[cid].model_copy(update={"sheet": exchange.casting.caster})
        return state.model_copy(update={"characters": seats, "exchange": exchange})
    tests = exchange.opposed.tests if exchange.opposed is not None else (exchange.open_test,)
    for cid, test in zip(exchange.rollers, tests, strict=True):
        if cid is not None and isinstance(test.roller, Character):
            seats[cid] = seats[cid].model_copy(update={"sheet": test.roller})
    if exchange.test is not None:
        for cid, help in zip(exchange.helpers, exchange.test.helpers, strict=True):
            seats[cid] = seats[cid].model_copy(update={"sheet": help.helper})
    return state.model_copy(update={"characters": seats, "exchange": exchange})


def exchange_view(state: DeadWeightTable, member: Member) -> dict[str, Any] | None:
    """The test under way; a hidden kept NPC's test shows a player none of its dice nor
    what it was announced with, and who won an opposed test between two of them is the
    GM's (DW-N04)."""
    exchange = state.exchange
    if exchange is None:
        return None
    shown = exchange.model_dump(mode="json")
    shown["finished"] = exchange.finished
    if exchange.casting is not None:
        casting = shown.pop("casting")
        shown["test"] = casting["test"]
        shown["casting"] = {
            "spell": casting.get("spell") or casting.get("prayer"),
            "result": casting["result"],
        }
    if exchange.opposed is not None:
        shown["opposed"]["current"] = exchange.opposed.current
    if member.is_gm:
        return shown
    kept = [nid if nid is not None and state.hides(nid) else None for nid in exchange.kept]
    for side, nid in enumerate(kept):
        if nid is None:
            continue
        name = state.npcs[nid].name if nid in state.npcs else "an NPC"
        secret = hidden(f"{name}'s test, which the GM keeps")
        if exchange.opposed is not None:
            shown["opposed"]["tests"][side] = secret
            shown["opposed"]["setups"][side] = hidden(f"what {name} tests with")
        else:
            shown["test"] = secret
    if exchange.opposed is not None and all(kept):
        shown["opposed"]["winner"] = hidden("who won, which the GM keeps")
    return shown


def advice_for(state: DeadWeightTable, member: Member) -> dict[str, Any] | None:
    """The exact odds after each choice open to `member` now, and the advisor's pick
    (None when no choice is theirs). Milliseconds, so asked for apart from `legal`."""
    exchange = state.exchange
    if exchange is None or exchange.finished or not decides(state, member):
        return None
    advice = advise(exchange.open_test)
    return {
        "side": advice.side.value,
        "best": advice.best.model_dump(mode="json"),
        "choices": [
            {"intent": choice.model_dump(mode="json"), "odds": odds.to_json()}
            for choice, odds in advice.options
        ],
    }
