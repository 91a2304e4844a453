"""The body at a Dead Weight table (§ Wounds and fatigue, § Receiving Wounds, § Fainting,
§ Mortal Wounds): fatigue and wounds taken and healed, waking and stabilising, the choices a
wound leaves, rest at camp, the interlude, setting out on an expedition with spells and
prayers memorised, a sacrifice to an angry god, and a new session's burden."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from tabletop.asks import gm_lever
from tabletop.dice import DiceSource
from tabletop.errors import PermissionDenied
from tabletop.frozen import Frozen
from tabletop.offers import Choice, Offer, closed_offer, offer
from tabletop.session import MAX_NAME, CharacterIntent, Event, Member, note
from tabletop.systems.dead_weight.attributes import Attribute
from tabletop.systems.dead_weight.body import (
    StabiliseMeans,
    WoundPlacement,
    heal_wounds,
    pass_fainted_turn,
    receive_fatigue,
    receive_wounds,
    recover_fatigue,
    resolve_pending,
    stabilise,
    try_to_wake,
)
from tabletop.systems.dead_weight.burden import begin_session
from tabletop.systems.dead_weight.character import Character
from tabletop.systems.dead_weight.errors import DeadWeightError
from tabletop.systems.dead_weight.events import Event as RulesEvent
from tabletop.systems.dead_weight.events import about
from tabletop.systems.dead_weight.magic import begin_expedition, make_sacrifice, study
from tabletop.systems.dead_weight.rest import Snore, interlude, rest_at_camp
from tabletop.systems.dead_weight.sheet_edits import SheetEdit, edit
from tabletop.systems.dead_weight.table import DeadWeightTable
from tabletop.systems.dead_weight.table_npcs import told_of


class Fatigue(CharacterIntent):
    kind: Literal["fatigue"] = "fatigue"
    attribute: Attribute
    points: int = Field(default=1, ge=1, le=20)


class Wounds(CharacterIntent):
    """Wounds the player places, one placement per wound (DW-M40)."""

    kind: Literal["wounds"] = "wounds"
    placements: tuple[WoundPlacement, ...] = Field(min_length=1, max_length=20)
    lethal: bool = True
    in_combat: bool = False


class Recover(CharacterIntent):
    """Fatigue comes off an attribute (when and how much: DW-G09, the GM's call)."""

    kind: Literal["recover"] = "recover"
    attribute: Attribute
    points: int = Field(default=1, ge=1, le=20)


class Heal(CharacterIntent):
    kind: Literal["heal"] = "heal"
    attribute: Attribute
    points: int = Field(default=1, ge=1, le=20)
    by_resting: bool = False


class Wake(CharacterIntent):
    """A fainted character tries to wake up (DW-M43)."""

    kind: Literal["wake"] = "wake"


class RestAtCamp(CharacterIntent):
    """A night at camp: prayers ready again, Shaken and Sleepy gone (`rest.rest_at_camp`)."""

    kind: Literal["rest-at-camp"] = "rest-at-camp"
    snore: Snore = "ambush"
    """A loud snorer's choice: one more ambush die, or stay Sleepy (quirk 4, DW-X22)."""


class Interlude(CharacterIntent):
    """Back from the expedition: Nauseated heals, Hopeless ends (DW-X23)."""

    kind: Literal["interlude"] = "interlude"


class WaitTurns(CharacterIntent):
    """Turns pass for a fainted character, counting down to the wake roll (DW-A16)."""

    kind: Literal["wait"] = "wait"
    turns: int = Field(default=1, ge=1, le=100)


class Stabilise(CharacterIntent):
    """Someone stabilises and wakes a fainted or mortally wounded character (DW-M46, M47)."""

    kind: Literal["stabilise"] = "stabilise"
    means: StabiliseMeans = "first aid kit"
    in_combat: bool = False


class Study(CharacterIntent):
    """A wizard studies a forgotten spell back from the grimoire, at camp (DW-M17)."""

    kind: Literal["study"] = "study"
    spell: str = Field(min_length=1, max_length=MAX_NAME)


class BeginExpedition(CharacterIntent):
    """Set out: memorise spells (one per INT) and prayers (one per PRE), reset the
    expedition's counters (§ Spells, § Prayers, DW-A23)."""

    kind: Literal["expedition"] = "expedition"
    spells: tuple[str, ...] = Field(default=(), max_length=20)
    prayers: tuple[str, ...] = Field(default=(), max_length=20)


class WoundChoice(CharacterIntent):
    """The choice a wound left to the player: a trauma not held yet (mortal wound row 3), or
    which score or proficiency drops (chronic pain, brain damage; DW-M53)."""

    kind: Literal["wound-choice"] = "wound-choice"
    answer: str = Field(min_length=1, max_length=MAX_NAME)


class Sacrifice(CharacterIntent):
    """A sacrifice calms the angry god (§ Prayers; what it takes is another book's, DW-G03)."""

    kind: Literal["sacrifice"] = "sacrifice"


class NewSession(Frozen):
    """The GM begins a new game session: every burden may be used once again (DW-M09)."""

    kind: Literal["new-session"] = "new-session"


SheetChange = (
    Fatigue
    | Wounds
    | Recover
    | Heal
    | Wake
    | RestAtCamp
    | Interlude
    | WaitTurns
    | Stabilise
    | Study
    | BeginExpedition
    | WoundChoice
    | Sacrifice
)

_ATTRIBUTES = Choice(values=tuple(Attribute))


STABILISE_MEANS: tuple[StabiliseMeans, ...] = ("first aid kit", "medical supply", "healing spell")


DEALT = {
    "fatigue": "fatigue and wounds",
    "wounds": "fatigue and wounds",
    "recover": "healing",
    "heal": "healing",
}
"""The sheet changes the book gives the GM (DW-T01), by kind: harm dealt, and healing and
recovery (how much and when is the GM's call, DW-G09)."""


def gm_deals(state: DeadWeightTable, member: Member) -> bool:
    """Whether `member` may deal harm and healing at this table (DW-T01)."""
    return member.is_gm or state.options.players_set_difficulty


def body_offers(state: DeadWeightTable, mine: tuple[str, ...], member: Member) -> list[Offer]:
    """What the body chapter lets the characters of `mine` do between tests; harm and
    healing only to whoever deals them (DW-T01)."""
    found = []
    if gm_deals(state, member):
        for kind, text in (
            ("fatigue", "take fatigue"),
            ("recover", "recover fatigue"),
            ("heal", "heal wounds"),
        ):
            found.append(offer(kind, text, character=Choice(values=mine), attribute=_ATTRIBUTES))
        found.append(
            offer(
                "wounds",
                "take wounds, placed one by one",
                character=Choice(values=mine),
                placements=Choice(help="where each wound goes", example=[{"attribute": "STR"}]),
            )
        )
    found += _fallen_offers(state, mine) + _owed_offers(state, mine)
    if member.is_gm and any(
        seat.sheet.expedition.burden_used_this_session for seat in state.characters.values()
    ):
        found.append(offer("new-session", "begin a new session"))
    found += [
        offer(
            "rest-at-camp",
            "rest at camp",
            character=Choice(values=mine),
            snore=Choice(values=("ambush", "sleepy")),
        ),
        offer("interlude", "return for the interlude", character=Choice(values=mine)),
        offer(
            "expedition",
            "set out on an expedition, memorising spells and prayers",
            character=Choice(values=mine),
            spells=Choice(help="spells to memorise", example=[]),
            prayers=Choice(help="prayers to memorise", example=[]),
        ),
    ]
    return found


def _fallen_offers(state: DeadWeightTable, mine: tuple[str, ...]) -> list[Offer]:
    """Waking, waiting out a faint, stabilising and studying a spell back, each offered
    only for the characters it can help now: a form for a character it can only refuse
    is a dead control (the control walk, tests/pages/test_walk.py, found all four). Asked
    for anyway, the rules say why not (`explained`)."""
    sheets = {cid: state.characters[cid].sheet for cid in mine}
    fainted = [c for c, s in sheets.items() if s.condition.fainted and not s.condition.dead]
    simply = [c for c in fainted if not sheets[c].condition.mortally_wounded]
    fallen = [
        c
        for c, s in sheets.items()
        if (s.condition.fainted or s.condition.mortally_wounded) and not s.condition.dead
    ]
    studying = [c for c, s in sheets.items() if s.magic.spells_forgotten and s.has_grimoire]
    forgotten = sorted({spell for c in studying for spell in sheets[c].magic.spells_forgotten})
    found = []
    waking = tuple(c for c in simply if not sheets[c].condition.faint_turns)
    if waking:
        found.append(offer("wake", "try to wake up", character=Choice(values=waking)))
    waiting = tuple(c for c in fainted if sheets[c].condition.faint_turns)
    if waiting:
        found.append(
            offer("wait", "let turns pass while fainted", character=Choice(values=waiting))
        )
    if fallen:
        found.append(
            offer(
                "stabilise",
                "stabilise and wake a fallen character",
                character=Choice(values=tuple(fallen)),
                means=Choice(values=STABILISE_MEANS),
            )
        )
    if studying:
        found.append(
            offer(
                "study",
                "study a forgotten spell back",
                character=Choice(values=tuple(studying)),
                spell=Choice(values=tuple(forgotten)),
            )
        )
    return found


def _owed_offers(state: DeadWeightTable, mine: tuple[str, ...]) -> list[Offer]:
    """What the rules wait on from a player: the choice a wound left (each option), and a
    sacrifice while their god is angry."""
    found = []
    for cid in mine:
        sheet = state.characters[cid].sheet
        if sheet.pending:
            asked = sheet.pending[0]
            answers = [WoundChoice(character=cid, answer=option) for option in asked.options]
            found.append(closed_offer("wound-choice", f"{sheet.label}: {asked.kind}", answers))
    angry = tuple(cid for cid in mine if state.characters[cid].sheet.magic.god_angry)
    if angry:
        text = "make a sacrifice to calm the angry god"
        found.append(offer("sacrifice", text, character=Choice(values=angry)))
    return [o for o in found if o is not None]


def change_sheet(
    state: DeadWeightTable, intent: SheetChange, member: Member, dice: DiceSource
) -> tuple[DeadWeightTable, list[Event]]:
    """A change the body chapter makes to one sheet, written back at the table; harm and
    healing only from whoever deals them (DW-T01)."""
    if intent.kind in DEALT:
        gm_lever(member, state.options.players_set_difficulty, DEALT[intent.kind])
    seat = state.characters[intent.character]
    sheet = seat.sheet
    if isinstance(intent, Fatigue):
        sheet, events = receive_fatigue(sheet, intent.attribute, intent.points)
    elif isinstance(intent, Wounds):
        sheet, events = receive_wounds(
            sheet,
            len(intent.placements),
            list(intent.placements),
            dice,
            lethal=intent.lethal,
            in_combat=intent.in_combat,
            options=state.options,
        )
    elif isinstance(intent, Recover):
        sheet, events = recover_fatigue(sheet, intent.attribute, intent.points)
    elif isinstance(intent, Heal):
        sheet, events = heal_wounds(
            sheet, intent.attribute, intent.points, by_resting=intent.by_resting
        )
    elif isinstance(intent, Wake):
        sheet, events = try_to_wake(sheet, dice, state.options)
    elif isinstance(intent, WaitTurns):
        sheet, events = _wait(sheet, intent.turns)
    elif isinstance(intent, Stabilise):
        sheet, events = stabilise(sheet, intent.means, in_combat=intent.in_combat)
    elif isinstance(intent, Study):
        sheet, events = study(sheet, intent.spell)
    elif isinstance(intent, BeginExpedition):
        sheet, events = begin_expedition(sheet, intent.spells, intent.prayers)
    elif isinstance(intent, Interlude):
        sheet, events = interlude(sheet)
    elif isinstance(intent, WoundChoice):
        sheet, events = resolve_pending(sheet, intent.answer)
    elif isinstance(intent, Sacrifice):
        sheet, events = make_sacrifice(sheet)
    else:
        sheet, events = rest_at_camp(sheet, intent.snore)
    seated = {**state.characters, intent.character: seat.model_copy(update={"sheet": sheet})}
    told = told_of(about(events, sheet.label)) or [note("sheet", f"{sheet.label}: nothing changes")]
    return state.model_copy(update={"characters": seated}), told


def new_session(state: DeadWeightTable, member: Member) -> tuple[DeadWeightTable, list[Event]]:
    """A new game session, the GM's to begin: every adventurer's burden may be used once
    again (DW-M09)."""
    if not member.is_gm:
        raise PermissionDenied("only the GM begins a new session")
    seats = dict(state.characters)
    told: list[Event] = []
    for cid, seat in state.characters.items():
        sheet, events = begin_session(seat.sheet)
        seats[cid] = seat.model_copy(update={"sheet": sheet})
        told += told_of(events)
    return state.model_copy(update={"characters": seats}), told


def _wait(sheet: Character, turns: int) -> tuple[Character, list[RulesEvent]]:
    """`turns` turns pass for a fainted character; none need pass once the wait is over."""
    if not sheet.condition.fainted or sheet.condition.faint_turns == 0:
        raise DeadWeightError(f"{sheet.label} has no turns to wait out")
    events: list[RulesEvent] = []
    for _ in range(min(turns, sheet.condition.faint_turns)):
        sheet, more = pass_fainted_turn(sheet)
        events += more
    return sheet, events


def edited(
    state: DeadWeightTable, intent: SheetEdit, dice: DiceSource
) -> tuple[DeadWeightTable, list[Event]]:
    """What a player writes on their sheet between rolls (DW-X25)."""
    seat = state.characters[intent.character]
    sheet, events = edit(seat.sheet, intent, dice)
    seated = {**state.characters, intent.character: seat.model_copy(update={"sheet": sheet})}
    return state.model_copy(update={"characters": seated}), told_of(about(events, sheet.label))
