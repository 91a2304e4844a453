"""The 2d6 action-point rules at a shared table: characters, checks and contests, harm and
healing, hidden death checks, and a fight on the AP tracker, as intents, events and views.

Each part of the book has its module: the characters and the GM's NPCs
(table_characters), checks and contests (table_checks), harm, rest and dying
(table_health), the fight (table_fight) and an attack on someone as the book chains it
(table_strike), the turns the GM keeps (table_turns) and the checks the GM asks for
(table_asks); the table's state is in table; this one routes.

What the book gives the GM (a check's DC and bonuses, harm, healing, dealing an attack's
damage) is the GM's unless the table's option `players_set_difficulty` hands it over
(RU-S06): the players are not offered it and the rules refuse it from them.

An NPC the GM keeps hidden is a character whose numbers the players may not see
(`kept_from_players`): its own lines reach them in words or not at all, and a line that
tells of it and of a character of theirs reaches them with its part as `?` (RU-N05).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tabletop.dice import DiceSource
from tabletop.npcs import BookNpc, EditNpc, NewNpc, RemoveNpc, RevealNpc, roster_offers
from tabletop.offers import Offer
from tabletop.session import (
    Event,
    ImportCharacter,
    Member,
    Seated,
    Session,
    controls,
    hidden,
    kinds,
)
from tabletop.systems.ap2d6.errors import Ap2d6Error
from tabletop.systems.ap2d6.sheet_edits import INTENTS as SHEET_INTENTS
from tabletop.systems.ap2d6.sheet_edits import BuySkill, SheetEdit, derived, sheet_offers
from tabletop.systems.ap2d6.table import Ap2d6Table
from tabletop.systems.ap2d6.table_asks import ASKS
from tabletop.systems.ap2d6.table_characters import (
    SUGGESTED_POINTS,
    Carry,
    NewCharacter,
    carry_offers,
    carry_step,
    edit_step,
    npc_step,
    seat_character,
    seat_offers,
)
from tabletop.systems.ap2d6.table_checks import (
    CheckIntent,
    ContestIntent,
    check_offers,
    check_step,
    contest_offers,
    contest_step,
)
from tabletop.systems.ap2d6.table_fight import (
    AttackIntent,
    EndFight,
    Interrupt,
    NextRound,
    Order,
    Spend,
    StartFight,
    TrackerChange,
    fight_offers,
    fight_step,
    pay_step,
    round_offers,
    why_not_in_fight,
)
from tabletop.systems.ap2d6.table_health import (
    CheckOn,
    Damage,
    DeathCheckIntent,
    Heal,
    Rest,
    RevealDeathDc,
    dying_offers,
    harm_offers,
    health_step,
    rest_offers,
    reveal_offers,
    sheet_view,
)
from tabletop.systems.ap2d6.table_lists import (
    LIST_INTENTS,
    ListIntent,
    bought,
    list_offers,
    list_step,
    lists_view,
    skill_offer,
)
from tabletop.systems.ap2d6.table_npcs import (
    EXAMPLE,
    STATS,
    NpcStats,
    bestiary,
    fighter_view,
    roster_view,
)
from tabletop.systems.ap2d6.table_strike import (
    STRIKE_INTENTS,
    strike_offers,
    strike_step,
    strikes_view,
)
from tabletop.systems.ap2d6.table_turns import TURNS
from tabletop.systems.ap2d6.table_weapons import (
    WEAPON_INTENTS,
    weapon_offers,
    weapon_step,
    weapons_view,
)
from tabletop.turns_and_asks import TurnsAndAsks

__all__ = ["SESSION", "SUGGESTED_POINTS", "Ap2d6Session", "Ap2d6Table"]


TURNS_AND_ASKS = TurnsAndAsks(TURNS, ASKS)
"""The turns and the GM's asks at this table."""


class Ap2d6Session(Session[Ap2d6Table]):
    name = "ap2d6"
    version = 6
    """2: a hidden NPC's numbers are kept part by part (RU-N05); 3: the GM's levers are the
    GM's (RU-S06) and an attack on someone runs as the book chains it (RU-A49); 4: a check
    the GM asks for in a fight gives double 6s their temp AP (RU-A13, RU-S08); 5: an NPC
    brought from the book under the book's own name says it once ("Sneering guard (from
    the book)"); 6: a turn the GM's order moves on says who ended it ("Ayla ends the
    turn") before the next one's line."""
    state = Ap2d6Table
    error = Ap2d6Error
    explained = kinds(SHEET_INTENTS)
    intents = (
        NewCharacter,
        ImportCharacter,
        CheckIntent,
        ContestIntent,
        Damage,
        Heal,
        Rest,
        Carry,
        DeathCheckIntent,
        CheckOn,
        RevealDeathDc,
        StartFight,
        NextRound,
        Spend,
        AttackIntent,
        TrackerChange,
        Interrupt,
        Order,
        EndFight,
        BookNpc,
        NewNpc[NpcStats],
        EditNpc,
        RemoveNpc,
        RevealNpc,
        *STRIKE_INTENTS,
        *WEAPON_INTENTS,
        *LIST_INTENTS,
        *SHEET_INTENTS,
        *TURNS_AND_ASKS.intents,
    )

    # offers -------------------------------------------------------------------------------

    def offers(self, state: Ap2d6Table, member: Member) -> list[Offer]:
        everyone = tuple(state.characters)
        mine = tuple(c for c, seat in state.characters.items() if controls(member, seat.owner))
        up = tuple(c for c in mine if state.characters[c].sheet.life == "up")
        levers = member.is_gm or state.options.players_set_difficulty  # RU-S06
        found = seat_offers(state) + check_offers(state, up, levers) + rest_offers(mine, levers)
        found += carry_offers(mine)
        for cid in mine:
            seat = state.characters[cid]
            if seat.npc is None:  # an NPC's numbers change through edit-npc (RU-N04)
                found += self._sheet_offers(state, cid, cid in up, member.is_gm, levers)
        found += dying_offers(state, mine) + fight_offers(state, member, mine)
        found += strike_offers(state, member, mine)
        if levers and not member.is_gm:
            found += harm_offers(everyone)
        if member.is_gm:
            listed = [(cid, mark.revealed) for cid, _, mark in state.npcs]
            found += roster_offers(listed, STATS, EXAMPLE, bestiary())
            found += harm_offers(everyone) + contest_offers(state)
            found += reveal_offers(state) + round_offers(state) + weapon_offers(state)
        found += list_offers(state, member, mine)
        return found + TURNS_AND_ASKS.offers(state, member)

    @staticmethod
    def _sheet_offers(state: Ap2d6Table, cid: str, up: bool, gm: bool, levers: bool) -> list[Offer]:
        """A sheet's offers; a skill is bought from the GM's list when there is one (RU-S10)."""
        sheet = state.characters[cid].sheet
        found = sheet_offers(cid, sheet, up, gm, levers)
        if not state.skills:
            return found
        listed = skill_offer(state, cid, sheet)
        return [o for o in found if o.kind != "buy-skill"] + ([listed] if listed else [])

    def seated(self, state: Ap2d6Table) -> Mapping[str, Seated]:
        return TURNS_AND_ASKS.seated(state)

    def why_not(self, state: Ap2d6Table, intent: Any, member: Member) -> str:
        return why_not_in_fight(state, intent["kind"])

    # the rules ----------------------------------------------------------------------------

    def apply(
        self, state: Ap2d6Table, intent: Any, member: Member, dice: DiceSource
    ) -> tuple[Ap2d6Table, list[Event]]:
        if isinstance(intent, BookNpc | NewNpc | EditNpc | RemoveNpc | RevealNpc):
            if isinstance(intent, RemoveNpc):
                state = TURNS.without(state, intent.npc)
            return npc_step(state, intent, member)
        if TURNS_AND_ASKS.takes(intent):
            return TURNS_AND_ASKS.apply(state, intent, member, dice)
        if isinstance(intent, NewCharacter | ImportCharacter):
            return seat_character(state, intent, member, dice)
        if isinstance(intent, ContestIntent):
            return state, contest_step(state, intent, dice)
        if isinstance(intent, StartFight | NextRound | EndFight | Interrupt | Order):
            return fight_step(state, intent, dice)
        if isinstance(intent, SheetEdit):
            if isinstance(intent, BuySkill):
                bought(state, intent)
            return edit_step(state, intent)
        if isinstance(intent, ListIntent):
            return list_step(state, intent, member)
        if isinstance(intent, CheckIntent):
            return check_step(state, intent, member, dice)
        if isinstance(intent, Spend | AttackIntent | TrackerChange):
            return pay_step(state, intent, member)
        if isinstance(intent, Carry):
            return carry_step(state, intent)
        if isinstance(intent, WEAPON_INTENTS):
            return weapon_step(state, intent, member)
        if isinstance(intent, STRIKE_INTENTS):
            return strike_step(state, intent, member, dice)
        return health_step(state, intent, member, dice)

    def kept_from_players(self, state: Ap2d6Table) -> dict[str, str]:
        return state.hidden_npcs

    # views --------------------------------------------------------------------------------

    def view(self, state: Ap2d6Table, member: Member) -> dict[str, Any]:
        def secret(cid: str) -> bool:
            return state.characters[cid].hidden_npc and not member.is_gm

        def shown_sheet(cid: str, sheet: Any) -> dict[str, Any]:
            return sheet_view(sheet, member.is_gm or cid in state.revealed)

        fight = None
        if state.fight is not None:
            fight = state.fight.model_dump(mode="json", exclude={"characters"})
            fight["characters"] = []
            for c in state.fight.characters:
                cid = state.id_of(c.name)
                seen = shown_sheet(cid, c)
                fight["characters"].append(fighter_view(seen) if secret(cid) else seen)

        def seat_shown(cid: str, seat: Any) -> dict[str, Any]:
            return {
                "npc": seat.npc is not None,
                "name": seat.sheet.name,
                "sheet": hidden("an NPC's sheet, which the GM keeps")
                if secret(cid)
                else shown_sheet(cid, seat.sheet),
                "derived": {} if secret(cid) else derived(seat.sheet),
            }

        return self.table_view(
            state.options,
            state.characters,
            seat_shown,
            fight=fight,
            revealed=list(state.revealed),
            npcs=roster_view(state.npcs, member),
            attacks=strikes_view(state),
            weapons=weapons_view(state),
            lists=lists_view(state),
            **TURNS_AND_ASKS.view(state, member),
        )


SESSION = Ap2d6Session()
