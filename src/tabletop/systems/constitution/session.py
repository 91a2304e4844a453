"""3d6 Constitution at a shared table: characters, checks with degrees, harm and rest, XP,
the initiative tracker of article 5, and the party's days on the road (articles 13 and 15)
as intents, events and views.

The fight is the combat machine itself: each combatant belongs to a member (the GM's unless
the GM gives it to a player), and that member, or the GM, makes its choices. The articles
hide little from the players; checks may be rolled in any roll mode. What the referee keeps
to themselves is the time of day and the encounter checks (§ 13.3, § 13.5; C3-A61).

Each part of the book has its module: the characters (table_characters), the fight
(table_fight), the road (road) and the referee's NPCs (table_npcs); this one routes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tabletop.dice import DiceSource
from tabletop.npcs import BookNpc, EditNpc, NewNpc, RemoveNpc, RevealNpc
from tabletop.offers import Offer
from tabletop.session import Event, ImportCharacter, Member, Seated, Session, controls, kinds
from tabletop.systems.constitution.errors import ConstitutionError
from tabletop.systems.constitution.levers import held_back
from tabletop.systems.constitution.road import (
    Camp,
    Explore,
    HuntIntent,
    LightIntent,
    March,
    Rations,
    camp,
    clock_view,
    explore,
    march,
    on_the_road,
    road_offers,
    why_not_on_the_road,
)
from tabletop.systems.constitution.sheet_edits import INTENTS as SHEET_INTENTS
from tabletop.systems.constitution.sheet_edits import RateSkill, carrying
from tabletop.systems.constitution.table import ConstitutionTable
from tabletop.systems.constitution.table_asks import ASKS
from tabletop.systems.constitution.table_characters import (
    AwardXp,
    CheckIntent,
    Damage,
    NewCharacter,
    Rest,
    character_offers,
    character_step,
    seat_character,
)
from tabletop.systems.constitution.table_fight import (
    CombatIntent,
    JoinFight,
    fight_offers,
    fight_step,
    join_fight,
    npc_joins_fight,
)
from tabletop.systems.constitution.table_lists import (
    LIST_INTENTS,
    ListIntent,
    ResearchAtRandom,
    list_offers,
    list_step,
    lists_view,
    rated,
    rating_offers,
)
from tabletop.systems.constitution.table_npcs import (
    EXAMPLE,
    ROSTER,
    NpcJoinsFight,
    NpcStats,
    bestiary,
    fight_view,
    kept_names,
    made,
    taken_from_fight,
)
from tabletop.systems.constitution.table_turns import TURNS
from tabletop.turns_and_asks import TurnsAndAsks

NpcIntent = BookNpc | NewNpc[NpcStats] | EditNpc | RemoveNpc | RevealNpc


TURNS_AND_ASKS = TurnsAndAsks(TURNS, ASKS)
"""The turns and the GM's asks at this table."""


class ConstitutionSession(Session[ConstitutionTable]):
    name = "constitution"
    version = 5
    """2: a hidden NPC's numbers are kept part by part, each line's own (C3-N05); 3: the DC,
    bonuses and advantage dice of a player's own check or blow are the GM's unless the
    table hands them over (C3-S07); an NPC's number emptied reads "none", and a light going
    out names who lit it by the name they have now; 4: a turn ended in a fight says so
    ("Dane ends the turn") before the next one's line, and an NPC brought from the book
    under the book's own name says it once; 5: stored shots lost say their count without
    `shot(s)` (C3-A65), a turn the GM's order moves on out of a fight says who ended it
    before the next one's line, a player's initiative is rolled, never typed in (C3-S09),
    and an ask names only a skill its character has rated or the referee's list holds
    (C3-S05)."""
    state = ConstitutionTable
    error = ConstitutionError
    explained = kinds((*SHEET_INTENTS, ResearchAtRandom, *ASKS.intents[:1]))
    """The rules say why they refuse a sheet's edit, a research or an ask the offers do not
    cover (an ask of a skill the character can never roll, C3-S05)."""
    intents = (
        NewCharacter,
        ImportCharacter,
        CheckIntent,
        Damage,
        Rest,
        AwardXp,
        JoinFight,
        CombatIntent,
        March,
        HuntIntent,
        Rations,
        Camp,
        Explore,
        LightIntent,
        *SHEET_INTENTS,
        *LIST_INTENTS,
        BookNpc,
        NewNpc[NpcStats],
        EditNpc,
        RemoveNpc,
        RevealNpc,
        NpcJoinsFight,
        *TURNS_AND_ASKS.intents,
    )

    def offers(self, state: ConstitutionTable, member: Member) -> list[Offer]:
        mine = tuple(c for c, seat in state.characters.items() if controls(member, seat.owner))
        found = character_offers(state, member, mine) + road_offers(state, member, mine)
        if state.skills:  # a skill's first rating picks from the referee's list (C3-S08)
            found = [o for o in found if not (o.kind == "rate-skill" and o.entry == "skills")]
            found += [listed for cid in mine for listed in rating_offers(state, cid)]
        found += list_offers(state, member, mine)
        if member.is_gm:
            found += ROSTER.offers(state.npcs, EXAMPLE, bestiary())
        found += fight_offers(state, member, mine)
        return found + TURNS_AND_ASKS.offers(state, member)

    def seated(self, state: ConstitutionTable) -> Mapping[str, Seated]:
        return TURNS_AND_ASKS.seated(state)

    def why_not(self, state: ConstitutionTable, intent: Any, member: Member) -> str:
        held = held_back(intent, member, state.options)
        return held or why_not_on_the_road(state, intent["kind"])

    def apply(
        self, state: ConstitutionTable, intent: Any, member: Member, dice: DiceSource
    ) -> tuple[ConstitutionTable, list[Event]]:
        if isinstance(intent, NewCharacter | ImportCharacter):
            return seat_character(state, intent, member, dice)
        if isinstance(intent, CombatIntent):
            return fight_step(state, intent, member, dice)
        if isinstance(intent, JoinFight):
            return join_fight(state, intent, member, dice)
        if isinstance(intent, NpcJoinsFight):
            return npc_joins_fight(state, intent, dice)
        if isinstance(intent, BookNpc | NewNpc | EditNpc | RemoveNpc | RevealNpc):
            return self._npcs(state, intent, dice)
        if TURNS_AND_ASKS.takes(intent):
            return TURNS_AND_ASKS.apply(state, intent, member, dice)
        if isinstance(intent, March):
            return march(state, intent, dice)
        if isinstance(intent, Camp):
            return camp(state, intent, dice)
        if isinstance(intent, Explore):
            return explore(state, intent, dice)
        if isinstance(intent, ListIntent):
            return list_step(state, intent, member, dice)
        if isinstance(intent, RateSkill):
            rated(state, intent)
        if isinstance(intent, HuntIntent | Rations | LightIntent):
            if intent.character not in state.characters:
                raise ConstitutionError(f"no character {intent.character!r} at this table")
            return on_the_road(state, intent, member, dice)
        return character_step(state, intent, member, dice)

    def _npcs(
        self, state: ConstitutionTable, intent: NpcIntent, dice: DiceSource
    ) -> tuple[ConstitutionTable, list[Event]]:
        """The referee's NPCs: the book's humans or typed in, changed, taken away once out of
        the fight, shown (C3-N01..N06)."""
        if isinstance(intent, BookNpc | NewNpc):
            if isinstance(intent, BookNpc):
                creature = bestiary().creature(intent.creature, ConstitutionError)
                npc = made(intent.name or creature.name, creature.stats, dice, creature.name)
            else:
                npc = made(intent.name, intent.stats, dice)
            npcs, counter, events = ROSTER.add(state.npcs, state.next_npc, npc, state.names)
            return state.model_copy(update={"npcs": npcs, "next_npc": counter}), events
        if isinstance(intent, RemoveNpc):
            taken_from_fight(state.fight, intent.npc)
            state = TURNS.without(state, intent.npc)
        npcs, events = ROSTER.change(state.npcs, intent, state.names)
        return state.model_copy(update={"npcs": npcs}), events

    # views --------------------------------------------------------------------------------

    def kept_from_players(self, state: ConstitutionTable) -> dict[str, str]:
        return kept_names(state.npcs, state.fight)

    def view(self, state: ConstitutionTable, member: Member) -> dict[str, Any]:
        def seat_shown(cid: str, seat: Any) -> dict[str, Any]:
            return {
                "sheet": seat.sheet.model_dump(mode="json"),
                "supplies": seat.supplies.model_dump(mode="json"),
                "deprivation": seat.deprivation.model_dump(mode="json"),
                "penalty": seat.penalty(state.options),
                "carrying": carrying(seat.sheet, state.options),
            }

        return self.table_view(
            state.options,
            state.characters,
            seat_shown,
            fight=fight_view(state.fight, state.npcs, member),
            controllers=state.controllers,
            clock=clock_view(state.clock, member),
            npcs=ROSTER.view(state.npcs, member),
            **TURNS_AND_ASKS.view(state, member),
            lists=lists_view(state),
        )


SESSION = ConstitutionSession()
