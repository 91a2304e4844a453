"""The d20 roll-under Core Rules at a shared table: characters, ability rolls and contests,
hits, corruption, death's door, time, carrying and the company, as intents, events and views.

A rule that stops for a decision (an omen re-roll, a death save, the GM's pick of an item)
waits in the table's `pending` resolution until whoever must answer sends an `answer`: the
player who owns the character, the asker for bare scores and a group's roll, the GM for the
GM's picks; the GM may answer anything. While it waits nothing else changes the table.

Secrets (docs/rules/rollunder.md, "At a shared table"): the GM's secret characters keep
their sheets from the players, who learn only that something happened to them; and every
roll has a mode, so the GM can roll in the open, for themselves, or blind.

Each part of the chapter has its module: the rules that may stop for a decision
(table_rules), those that need none (table_sheets), attacks (table_fight), the characters
and the company (table_characters), the GM's NPCs (table_npcs), turns (table_turns) and the
GM's asks (table_asks); this one routes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, get_args

from tabletop.dice import DiceSource
from tabletop.npcs import EditNpc, NewNpc, RemoveNpc, RevealNpc, npc_view, roster_offers
from tabletop.offers import Offer
from tabletop.session import Event, Member, Seated, Session, hidden, kinds
from tabletop.sheet_edits import RenameCharacter
from tabletop.systems.rollunder.errors import RollUnderError
from tabletop.systems.rollunder.intents import (
    INTENTS,
    Answer,
    Bury,
    CharacterIntent,
    DismissFollower,
    EndActivation,
    RecruitFollower,
    ReplaceCharacter,
    RuleIntent,
)
from tabletop.systems.rollunder.offers import table_offers, why_not
from tabletop.systems.rollunder.records import Event as RulesEvent
from tabletop.systems.rollunder.records import EventKind
from tabletop.systems.rollunder.resolution import Decision
from tabletop.systems.rollunder.sheet_edits import INTENTS as SHEET_INTENTS
from tabletop.systems.rollunder.sheet_edits import SheetEdit, derived
from tabletop.systems.rollunder.table import RollUnderTable
from tabletop.systems.rollunder.table_asks import ASKS
from tabletop.systems.rollunder.table_characters import (
    company_rule,
    dump,
    join,
    rename,
    sheet_edit,
)
from tabletop.systems.rollunder.table_fight import INTENTS as FIGHT_INTENTS
from tabletop.systems.rollunder.table_fight import (
    AttackIntent,
    EndAttack,
    MeetBlow,
    attack,
    attack_offers,
    attack_view,
    end_attack,
    meet_blow,
)
from tabletop.systems.rollunder.table_fight import why_not as fight_why_not
from tabletop.systems.rollunder.table_npcs import (
    NpcStats,
    example,
    npc_step,
    stat_names,
    stats_view,
)
from tabletop.systems.rollunder.table_rules import (
    answer,
    answer_offers,
    end_activation,
    pending_view,
    start,
)
from tabletop.systems.rollunder.table_sheets import plain
from tabletop.systems.rollunder.table_turns import TURNS
from tabletop.turns_and_asks import TurnsAndAsks

RULES_KINDS = frozenset(get_args(EventKind))
"""Event types that carry one of the rules' own events (see `rules_events`)."""

# the session ------------------------------------------------------------------------------


TURNS_AND_ASKS = TurnsAndAsks(TURNS, ASKS)
"""The turns and the GM's asks at this table."""


class RollUnderSession(Session[RollUnderTable]):
    name = "rollunder"
    version = 6
    """3: the GM's levers stay the GM's (CR-S10), and attacks (CR-F01..F05); 4: a roll the
    GM asks for against the character's own score is their ability roll, omens and all
    (CR-S12); 5: an answer's line says it as its button does ("Ada: Keep result 1", not
    "Ada: keep 1"); 6: a waiting roll says what it waits for and who chooses, and dice read in
    words, never the engine's notation (CR-S13), and a turn the GM's order moves on says who
    ended it ("Ash ends the turn") before the next one's line (CR-S11)."""
    state = RollUnderTable
    error = RollUnderError
    intents = (
        *INTENTS,
        *FIGHT_INTENTS,
        *SHEET_INTENTS,
        NewNpc[NpcStats],
        EditNpc,
        RemoveNpc,
        RevealNpc,
        *TURNS_AND_ASKS.intents,
    )
    explained = kinds(SHEET_INTENTS) | {"take-item", "drop-item", "use-item", "cast-spell"}

    # what each member may ask for ---------------------------------------------------------

    def offers(self, state: RollUnderTable, member: Member) -> list[Offer]:
        if state.pending is not None:
            return answer_offers(state, state.pending, member)
        found = table_offers(state, member) + attack_offers(state, member)
        if member.is_gm:
            listed = [(cid, not s.secret) for cid, s in state.characters.items() if s.npc]
            options = state.options
            found += roster_offers(listed, stat_names(options), example(options))
        return found + TURNS_AND_ASKS.offers(state, member)

    def seated(self, state: RollUnderTable) -> Mapping[str, Seated]:
        """Every character by name, the dead among them (a burial names them)."""
        return {cid: Seated(seat.sheet.name) for cid, seat in state.characters.items()}

    def why_not(self, state: RollUnderTable, intent: Any, member: Member) -> str:
        return fight_why_not(state, intent["kind"]) or why_not(state, intent)

    def refusal(self, state: RollUnderTable, intent: Any, member: Member) -> str | None:
        """While a decision waits, that is the reason for everything else (CR-S03)."""
        return None if state.pending is not None else super().refusal(state, intent, member)

    # the rules ----------------------------------------------------------------------------

    def apply(
        self, state: RollUnderTable, intent: Any, member: Member, dice: DiceSource
    ) -> tuple[RollUnderTable, list[Event]]:
        if isinstance(intent, Answer):
            return answer(state, intent, member, dice)
        if isinstance(intent, NewNpc | EditNpc | RemoveNpc | RevealNpc):
            return left(*npc_step(state, intent, member))
        if isinstance(intent, RuleIntent):
            return start(state, intent, member, dice)
        if TURNS_AND_ASKS.takes(intent):
            return TURNS_AND_ASKS.apply(state, intent, member, dice)
        if isinstance(intent, AttackIntent):
            return attack(state, intent, member, dice)
        if isinstance(intent, MeetBlow):
            return meet_blow(state, intent, member, dice)
        if isinstance(intent, EndAttack):
            return end_attack(state, member)
        if isinstance(intent, CharacterIntent):
            return join(state, intent, member)
        if isinstance(intent, RenameCharacter):
            return rename(state, intent, member)
        if isinstance(intent, SheetEdit):
            return sheet_edit(state, intent, member)
        if isinstance(intent, EndActivation):
            return end_activation(state, member, dice)
        if isinstance(intent, RecruitFollower | DismissFollower | Bury | ReplaceCharacter):
            return left(*company_rule(state, intent, member))
        return plain(state, intent, member)

    # what each member sees ----------------------------------------------------------------

    def view(self, state: RollUnderTable, member: Member) -> dict[str, Any]:
        def seat_shown(cid: str, seat: Any) -> dict[str, Any]:
            return {
                "name": seat.sheet.name,
                "secret": seat.secret,
                "buried": seat.buried,
                "npc": seat.npc,
                "sheet": dump(seat.sheet)
                if member.is_gm or not seat.secret
                else hidden("a sheet the GM keeps secret"),
                "derived": derived(seat.sheet, state.options)
                if member.is_gm or not seat.secret
                else hidden("what a secret sheet adds up to"),
            }

        return self.table_view(
            state.options,
            state.characters,
            seat_shown,
            pending=pending_view(state, member),
            attack=attack_view(state, member),
            **TURNS_AND_ASKS.view(state, member),
            npcs=[
                npc_view(cid, s.sheet.name, not s.secret, None, stats_view(s.sheet), member)
                for cid, s in state.characters.items()
                if s.npc
            ],
            mutation_table=state.mutation_table,
            activation=state.activation,
        )

    def kept_from_players(self, state: RollUnderTable) -> dict[str, str]:
        """The GM's secret characters, NPCs the GM has not shown among them (CR-S04, CR-N02)."""
        return {cid: seat.sheet.name for cid, seat in state.characters.items() if seat.secret}

    # for clients ----------------------------------------------------------------------------

    def decision(self, state: RollUnderTable) -> Decision | None:
        """The decision the table waits for, if any (what `answer` intents choose from)."""
        return None if state.pending is None else state.pending.resolution.decision


def rules_events(events: list[Event]) -> tuple[RulesEvent, ...]:
    """The rules' own events among a table's events seen in full, as the rules wrote them
    (what the command line prints)."""
    return tuple(
        RulesEvent(kind=e.type, text=e.text, **e.data)  # type: ignore[arg-type]
        for e in events
        if e.type in RULES_KINDS
    )


def outcome_of(events: list[Event]) -> dict[str, Any] | None:
    """The outcome of the last rule settled among these events (JSON data), if any."""
    settled = [e for e in events if e.type == "outcome"]
    return settled[-1].data["outcome"] if settled else None


def left(state: RollUnderTable, events: list[Event]) -> tuple[RollUnderTable, list[Event]]:
    """The table once characters have left it (an NPC taken away, a follower let go, the
    dead replaced): out of the turn order, asked for nothing, in no attack (CR-F05)."""
    for gone in {*state.turns.order, *(ask.character for ask in state.asks.waiting.values())}:
        if gone not in state.characters:
            state = TURNS_AND_ASKS.without(state, gone)
    attack = state.attack
    if attack is not None and not {attack.attacker, attack.target} <= state.characters.keys():
        state = state.model_copy(update={"attack": None})
    return state, events


SESSION = RollUnderSession()
