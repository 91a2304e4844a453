"""Dead Weight at a shared table: characters, tests and their re-roll exchange, trackers,
the body, usage and risk dice and the book's tables, as intents, events and views.

The re-roll exchange runs die by die: the roller's owner (or the GM, who may act for any
character) makes the player's choices, the GM the GM's, and `advice` gives whoever is
choosing the exact odds of each choice. The doom and omens trackers start hidden (DW-X21),
as may any tracker the GM makes: players learn that a hidden tracker moved, never where it
stands; a character with the Third eye sees the omens tracker (DW-M52).

The enemies the GM keeps hidden are the table's whose numbers the players may not see
(`kept_from_players`): each line of such an enemy's own test, and its wounds, reach the
players in words; its verdict in an opposed test's line is its part of that line; each
side's dice are rolled for it, so a player is shown their own in a step that keeps the
enemy's (DW-N04, DW-N05). The advisor answers only whoever chooses, on their own test.

Each part of the book has its module: the characters (table_characters), tests and the
re-roll exchange (table_tests), the body (table_body), trackers (table_trackers), usage and
risk dice and tables (table_dice), and the GM's enemies (table_npcs); this one routes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tabletop.dice import DiceSource
from tabletop.npcs import EditNpc, NewNpc, RemoveNpc, RevealNpc
from tabletop.offers import Offer
from tabletop.session import Event, Member, Seated, Session, controls, kinds
from tabletop.systems.dead_weight.attribute_test import DauntlessRoll, Pass, Reroll
from tabletop.systems.dead_weight.errors import DeadWeightError
from tabletop.systems.dead_weight.npc import NpcStats
from tabletop.systems.dead_weight.sheet_edits import INTENTS as SHEET_INTENTS
from tabletop.systems.dead_weight.sheet_edits import (
    CastSpell,
    Pray,
    SheetEdit,
    derived,
    sheet_offers,
)
from tabletop.systems.dead_weight.table import DeadWeightTable
from tabletop.systems.dead_weight.table_asks import ASKS, NO_DC
from tabletop.systems.dead_weight.table_body import (
    BeginExpedition,
    Fatigue,
    Heal,
    Interlude,
    NewSession,
    Recover,
    RestAtCamp,
    Sacrifice,
    SheetChange,
    Stabilise,
    Study,
    WaitTurns,
    Wake,
    WoundChoice,
    Wounds,
    body_offers,
    change_sheet,
    edited,
    new_session,
)
from tabletop.systems.dead_weight.table_characters import (
    MAKING_INTENTS,
    MakingIntent,
    making_offers,
    making_view,
    seat_character,
)
from tabletop.systems.dead_weight.table_dice import (
    RollRisk,
    RollTable,
    UseUsageDie,
    dice_offers,
    rolled,
)
from tabletop.systems.dead_weight.table_fights import (
    FIGHT_INTENTS,
    FIGHT_KINDS,
    FightIntent,
    attack_view,
    fight_offers,
    fight_step,
    follow,
    why_not_in_fight,
)
from tabletop.systems.dead_weight.table_lists import (
    LIST_INTENTS,
    ListIntent,
    list_offers,
    list_step,
    lists_view,
)
from tabletop.systems.dead_weight.table_npcs import (
    EXAMPLE,
    ROSTER,
    KeptNpc,
    NpcWounds,
    living,
    wound_offers,
    wounded,
)
from tabletop.systems.dead_weight.table_tests import (
    NpcTest,
    OpposedTestIntent,
    Test,
    advice_for,
    announces,
    begin_test,
    choose,
    exchange_offers,
    exchange_view,
    gm_test_offers,
    test_offers,
    why_not_announced,
)
from tabletop.systems.dead_weight.table_trackers import (
    AdvanceTracker,
    NewTracker,
    ShowTracker,
    tracker_offers,
    tracker_step,
    trackers_view,
)
from tabletop.systems.dead_weight.table_turns import TURNS
from tabletop.turns_and_asks import TurnsAndAsks

TURNS_AND_ASKS = TurnsAndAsks(TURNS, ASKS)
"""The turns and the GM's asks at this table."""


class DeadWeightSession(Session[DeadWeightTable]):
    name = "dead-weight"
    state = DeadWeightTable
    error = DeadWeightError
    version = 6
    """2: a hidden enemy's lines are kept by marks (DW-N04, DW-N05). 3: the GM's levers are
    the GM's (DW-T01) and every line names whom it is about (DW-T06). 4: magic's lines (a
    prayer, an angry god, a mishap and its effects, no conductor) name the caster too. 5: a
    mortal wound's, death's refusal, an arcane well's, a miracle's and an affliction already
    held name whom they are about, and a miracle the table does not apply is told once (and
    a wound's choice, a sacrifice and a new session are asked for at the table, DW-T08). 6:
    risk dice read in words, a count says its plural, a class by its name (DW-T06), and a
    turn the GM's order moves on says who ended it ("Amber ends the turn") before the next
    one's line (DW-T05)."""
    explained = kinds(SHEET_INTENTS) | {
        "study",
        "wake",
        "wait",
        "stabilise",
        "wound-choice",
        "sacrifice",
    }
    intents = (
        *MAKING_INTENTS,
        *LIST_INTENTS,
        Test,
        NpcTest,
        OpposedTestIntent,
        Reroll,
        Pass,
        DauntlessRoll,
        NewTracker,
        AdvanceTracker,
        ShowTracker,
        Fatigue,
        Wounds,
        Recover,
        Heal,
        Wake,
        RestAtCamp,
        Interlude,
        WaitTurns,
        Stabilise,
        Study,
        BeginExpedition,
        WoundChoice,
        Sacrifice,
        NewSession,
        UseUsageDie,
        RollRisk,
        RollTable,
        *SHEET_INTENTS,
        NewNpc[NpcStats],
        EditNpc,
        RemoveNpc,
        RevealNpc,
        NpcWounds,
        *FIGHT_INTENTS,
        *TURNS_AND_ASKS.intents,
    )

    # what each member may ask for ---------------------------------------------------------

    def offers(self, state: DeadWeightTable, member: Member) -> list[Offer]:
        found = making_offers(state, member)
        taking_part = state.exchange.taking_part if state.exchange and state.testing else set()
        mine = tuple(
            cid
            for cid, seat in state.characters.items()
            if controls(member, seat.owner) and cid not in taking_part
        )
        levers = announces(state, member)
        for cid in mine:
            found += sheet_offers(cid, state.characters[cid].sheet, state.testing, levers)
        if mine:
            found += test_offers(state, mine, member) + body_offers(state, mine, member)
        found += fight_offers(state, member, mine)
        found += exchange_offers(state, member) + dice_offers()
        if member.is_gm:
            able = living(state.npcs)
            found += ROSTER.offers(state.npcs, EXAMPLE) + wound_offers(able)
            found += gm_test_offers(state, able) + tracker_offers(state)
        found += list_offers(state, member)
        return found + TURNS_AND_ASKS.offers(state, member)

    def seated(self, state: DeadWeightTable) -> Mapping[str, Seated]:
        return TURNS_AND_ASKS.seated(state)

    def why_not(self, state: DeadWeightTable, intent: Any, member: Member) -> str:
        kind = intent["kind"]
        if kind in ("reroll", "pass", "dauntless"):
            if not state.testing:
                return "no test is waiting for a choice"
            return "it is not your choice now"
        if kind in ("test", "npc-test", "opposed-test", "cast-spell", "pray") and state.testing:
            return "a test is under way; finish it first"
        if kind in ("test", "attack") and state.attack is None:
            refused = why_not_announced(state, intent.get("setup"), member)
            return refused or "not open to you now"
        if kind in FIGHT_KINDS:
            return why_not_in_fight(state, kind)
        if kind == "ask-roll" and intent.get("dc") is not None:
            return NO_DC
        return "not open to you now"

    # the rules ----------------------------------------------------------------------------

    def apply(
        self, state: DeadWeightTable, intent: Any, member: Member, dice: DiceSource
    ) -> tuple[DeadWeightTable, list[Event]]:
        if isinstance(intent, MakingIntent):
            return seat_character(state, intent, member, dice)
        if isinstance(intent, ListIntent):
            return list_step(state, intent, member)
        if isinstance(intent, Test | NpcTest | OpposedTestIntent | CastSpell | Pray):
            return begin_test(state, intent, member, dice)
        if isinstance(intent, SheetEdit):
            return edited(state, intent, dice)
        if isinstance(intent, Reroll | Pass | DauntlessRoll):
            chosen, events = choose(state, intent, dice)
            followed, more = follow(chosen)
            return followed, events + more
        if isinstance(intent, FightIntent):
            return fight_step(state, intent, member, dice)
        if TURNS_AND_ASKS.takes(intent):
            return TURNS_AND_ASKS.apply(state, intent, member, dice)
        if isinstance(intent, NewTracker | AdvanceTracker | ShowTracker):
            return tracker_step(state, intent)
        if isinstance(intent, SheetChange):
            return change_sheet(state, intent, member, dice)
        if isinstance(intent, NewSession):
            return new_session(state, member)
        if isinstance(intent, NewNpc | EditNpc | RemoveNpc | RevealNpc | NpcWounds):
            return self._npcs(state, intent)
        return state, [rolled(intent, member, dice)]

    def _npcs(
        self,
        state: DeadWeightTable,
        intent: NewNpc[NpcStats] | EditNpc | RemoveNpc | RevealNpc | NpcWounds,
    ) -> tuple[DeadWeightTable, list[Event]]:
        """The GM's enemies: brought, changed, taken away, shown or hidden, wounded."""
        if isinstance(intent, NpcWounds):
            npcs, events = wounded(state.npcs, intent)
            return state.model_copy(update={"npcs": npcs}), events
        if isinstance(intent, NewNpc):
            made = KeptNpc(name=intent.name, stats=intent.stats)
            npcs, counter, events = ROSTER.add(state.npcs, state.next_npc, made, state.names)
            return state.model_copy(update={"npcs": npcs, "next_npc": counter}), events
        if isinstance(intent, RemoveNpc) and state.in_play(intent.npc):
            raise DeadWeightError("that NPC is in the test (or attack) under way; finish it first")
        if isinstance(intent, RemoveNpc):
            state = TURNS.without(state, intent.npc)
        npcs, events = ROSTER.change(state.npcs, intent, state.names)
        return state.model_copy(update={"npcs": npcs}), events

    def kept_from_players(self, state: DeadWeightTable) -> dict[str, str]:
        return state.hidden_npcs

    # what each member sees ----------------------------------------------------------------

    def view(self, state: DeadWeightTable, member: Member) -> dict[str, Any]:
        def seat_shown(cid: str, seat: Any) -> dict[str, Any]:
            return {
                "sheet": seat.sheet.model_dump(mode="json"),
                "derived": derived(seat.sheet),
                "left_out": list(seat.missing),
            }

        return self.table_view(
            state.options,
            state.characters,
            seat_shown,
            making=making_view(state),
            trackers=trackers_view(state, member),
            exchange=exchange_view(state, member),
            attack=attack_view(state),
            **TURNS_AND_ASKS.view(state, member),
            npcs=ROSTER.view(state.npcs, member),
            lists=lists_view(state),
        )

    def advice(self, state: DeadWeightTable, member: Member) -> dict[str, Any] | None:
        """The exact odds after each choice open to `member` now, and the advisor's pick
        (None when no choice is theirs). Milliseconds, so asked for apart from `legal`."""
        return advice_for(state, member)


SESSION = DeadWeightSession()
