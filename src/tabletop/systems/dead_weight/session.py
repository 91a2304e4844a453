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
"""

from __future__ import annotations

from itertools import zip_longest
from typing import Any, Literal

from pydantic import Field

from tabletop.dice import DiceSource
from tabletop.npcs import EditNpc, NewNpc, RemoveNpc, RevealNpc
from tabletop.session import (
    MAX_NAME,
    Choice,
    Event,
    Frozen,
    ImportCharacter,
    Member,
    Offer,
    RollMode,
    Session,
    Visibility,
    closed_offer,
    controls,
    hidden,
    in_mode,
    note,
    offer,
    owner_for,
)
from tabletop.systems.dead_weight.attribute_test import (
    AttributeTest,
    DauntlessRoll,
    Help,
    Pass,
    Reroll,
    TestSetup,
    start_test,
)
from tabletop.systems.dead_weight.attributes import Attribute
from tabletop.systems.dead_weight.body import (
    StabiliseMeans,
    WoundPlacement,
    heal_wounds,
    pass_fainted_turn,
    receive_fatigue,
    receive_wounds,
    recover_fatigue,
    stabilise,
    try_to_wake,
)
from tabletop.systems.dead_weight.character import Character, CharacterClass, sheet_from
from tabletop.systems.dead_weight.creation import (
    Creation,
    CreationChoice,
    begin_creation,
    random_character,
)
from tabletop.systems.dead_weight.errors import DeadWeightError
from tabletop.systems.dead_weight.events import Event as RulesEvent
from tabletop.systems.dead_weight.magic import (
    Praying,
    SpellCasting,
    begin_expedition,
    cast_spell,
    pray,
    study,
)
from tabletop.systems.dead_weight.npc import Npc, NpcStats
from tabletop.systems.dead_weight.odds import advise
from tabletop.systems.dead_weight.opposed import OpposedTest, start_opposed
from tabletop.systems.dead_weight.options import DEFAULT, Options
from tabletop.systems.dead_weight.owners import Whose
from tabletop.systems.dead_weight.rest import Snore, interlude, rest_at_camp
from tabletop.systems.dead_weight.sheet_edits import INTENTS as SHEET_INTENTS
from tabletop.systems.dead_weight.sheet_edits import (
    CastSpell,
    Pray,
    SheetEdit,
    derived,
    edit,
    sheet_offers,
)
from tabletop.systems.dead_weight.supplements import Supplement
from tabletop.systems.dead_weight.table_npcs import (
    EXAMPLE,
    ROSTER,
    KeptNpc,
    NpcWounds,
    living,
    tester,
    told_of,
    told_sides,
    wounded,
)
from tabletop.systems.dead_weight.tables import TABLES, system_table
from tabletop.systems.dead_weight.trackers import (
    MAX_RISK_DICE,
    MAX_SEGMENTS,
    Tracker,
    TrackerKind,
    UsageDie,
    advance,
    advance_doom,
    can_see,
    risk,
)

HIDDEN_AT_FIRST = (TrackerKind.DOOM, TrackerKind.OMENS)
"""Trackers the players do not see unless the GM shows them (DW-X21)."""

MAX_TRACKERS = 50
MAX_CHARACTERS = 100


# the table --------------------------------------------------------------------------------


class Seat(Frozen):
    """A character at the table and the member who plays them."""

    owner: str
    sheet: Character
    missing: tuple[str, ...] = ()
    """What creation skipped because the core book leaves it to other books."""


class Making(Frozen):
    """A character being made step by step, and the member making them."""

    owner: str
    creation: Creation


class Exchange(Frozen):
    """The test under way (one test, or an opposed test) and the characters in it, so that
    what it does to them is written back to their sheets."""

    test: AttributeTest | None = None
    opposed: OpposedTest | None = None
    casting: SpellCasting | Praying | None = None
    """A spell or prayer whose test is under way (DW-M18, DW-M22)."""
    rollers: tuple[str | None, ...] = ()
    """Each side's character id; None for an NPC the GM plays."""
    kept: tuple[str | None, ...] = ()
    """Each side's kept NPC id (None for a character or an NPC typed into the test)."""
    helpers: tuple[str, ...] = ()

    @property
    def open_test(self) -> AttributeTest:
        """The test whose choice is next (in an opposed test, the side still choosing)."""
        if self.opposed is not None:
            return self.opposed.tests[self.opposed.current]
        if self.casting is not None:
            assert self.casting.test is not None
            return self.casting.test
        assert self.test is not None
        return self.test

    @property
    def roller(self) -> str | None:
        """The character whose player makes the player's choices now."""
        return self.rollers[self.opposed.current if self.opposed is not None else 0]

    @property
    def finished(self) -> bool:
        if self.opposed is not None:
            return self.opposed.finished
        if self.casting is not None:
            return self.casting.finished
        return self.test is not None and self.test.finished

    def choices(self) -> list[Reroll | Pass | DauntlessRoll]:
        if self.opposed is not None:
            return self.opposed.choices()
        if self.casting is not None:
            return self.casting.choices()
        return self.open_test.choices()

    @property
    def taking_part(self) -> set[str]:
        return {r for r in self.rollers if r is not None} | set(self.helpers)


class DeadWeightTable(Frozen):
    options: Options = DEFAULT
    characters: dict[str, Seat] = Field(default_factory=dict)
    making: dict[str, Making] = Field(default_factory=dict)
    trackers: dict[str, Tracker] = Field(default_factory=dict)
    exchange: Exchange | None = None
    next_id: int = Field(default=1, ge=1)
    npcs: dict[str, KeptNpc] = Field(default_factory=dict)
    """The enemies the GM keeps, by id (`n1`, …): their numbers are the GM's (DW-N04)."""
    next_npc: int = Field(default=1, ge=1)

    @property
    def names(self) -> list[str]:
        """Everyone's name at the table: a kept NPC's must differ from all of them."""
        return [s.sheet.label for s in self.characters.values()] + [
            n.name for n in self.npcs.values()
        ]

    @property
    def testing(self) -> bool:
        return self.exchange is not None and not self.exchange.finished

    @property
    def hidden_npcs(self) -> dict[str, str]:
        """The kept enemies whose numbers the players may not see: id to name (DW-N04)."""
        return {nid: npc.name for nid, npc in self.npcs.items() if not npc.revealed}

    def hides(self, nid: str) -> bool:
        """Whether the players may not see the numbers of the kept enemy `nid`; one taken
        away is kept hidden (its finished test may still be on the table)."""
        npc = self.npcs.get(nid)
        return npc is None or not npc.revealed

    @property
    def npc_names(self) -> dict[str, str]:
        """Every kept enemy's name by id, shown or hidden: what its lines call it."""
        return {nid: npc.name for nid, npc in self.npcs.items()}

    def whose(
        self, rollers: tuple[str | None, ...], kept: tuple[str | None, ...], opposed: bool
    ) -> Whose:
        """Whose each side of a test is: in an opposed test its character or kept enemy, in
        one test a kept enemy only (a character's test shares its dice with its helpers,
        and keeps nothing from anyone); with the hidden enemies among them."""
        sides = zip_longest(rollers, kept)
        ids = tuple(nid or (cid if opposed else None) for cid, nid in sides)
        return Whose(ids=ids, kept=frozenset(self.hidden_npcs) & set(ids))


# intents ----------------------------------------------------------------------------------

Id = str


class NewCharacter(Frozen):
    """Make a character: at random at once, or step by step (`guided`)."""

    kind: Literal["new-character"] = "new-character"
    name: str = Field(default="Unnamed", min_length=1, max_length=200)
    character_class: CharacterClass | None = None
    guided: bool = False
    owner: str | None = None
    """Who will play them (the GM may make a character for a player); the asker by default."""
    supplement: Supplement = Supplement()
    """Backgrounds, spells, gods and items the group supplies (the book leaves them out)."""
    allow_choosing_quirk: bool = False
    """The GM lets the player choose a quirk instead of rolling it (DW-M10)."""


class CreationStep(Frozen):
    """One choice of a character being made: keep or re-roll a life-path roll, pick…"""

    kind: Literal["creation-choice"] = "creation-choice"
    character: Id
    choice: CreationChoice


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


class NewTracker(Frozen):
    kind: Literal["new-tracker"] = "new-tracker"
    name: str = Field(min_length=1, max_length=MAX_NAME)
    tracker_kind: TrackerKind = TrackerKind.CUSTOM
    segments: int = Field(ge=1, le=MAX_SEGMENTS)
    visible: bool | None = None
    """Whether the players see it; by default all but doom and omens (DW-X21)."""


class AdvanceTracker(Frozen):
    """Fill segments (empty them with a negative number); doom counts the Doomed (DW-A34)."""

    kind: Literal["advance-tracker"] = "advance-tracker"
    name: str = Field(min_length=1, max_length=MAX_NAME)
    points: int = Field(default=1, ge=-MAX_SEGMENTS, le=MAX_SEGMENTS)


class ShowTracker(Frozen):
    """Show a tracker to the players, or hide it from them."""

    kind: Literal["show-tracker"] = "show-tracker"
    name: str = Field(min_length=1, max_length=MAX_NAME)
    visible: bool


class Fatigue(Frozen):
    kind: Literal["fatigue"] = "fatigue"
    character: Id
    attribute: Attribute
    points: int = Field(default=1, ge=1, le=20)


class Wounds(Frozen):
    """Wounds the player places, one placement per wound (DW-M40)."""

    kind: Literal["wounds"] = "wounds"
    character: Id
    placements: tuple[WoundPlacement, ...] = Field(min_length=1, max_length=20)
    lethal: bool = True
    in_combat: bool = False


class Recover(Frozen):
    """Fatigue comes off an attribute (when and how much: DW-G09, the GM's call)."""

    kind: Literal["recover"] = "recover"
    character: Id
    attribute: Attribute
    points: int = Field(default=1, ge=1, le=20)


class Heal(Frozen):
    kind: Literal["heal"] = "heal"
    character: Id
    attribute: Attribute
    points: int = Field(default=1, ge=1, le=20)
    by_resting: bool = False


class Wake(Frozen):
    """A fainted character tries to wake up (DW-M43)."""

    kind: Literal["wake"] = "wake"
    character: Id


class RestAtCamp(Frozen):
    """A night at camp: prayers ready again, Shaken and Sleepy gone (`rest.rest_at_camp`)."""

    kind: Literal["rest-at-camp"] = "rest-at-camp"
    character: Id
    snore: Snore = "ambush"
    """A loud snorer's choice: one more ambush die, or stay Sleepy (quirk 4, DW-X22)."""


class Interlude(Frozen):
    """Back from the expedition: Nauseated heals, Hopeless ends (DW-X23)."""

    kind: Literal["interlude"] = "interlude"
    character: Id


class WaitTurns(Frozen):
    """Turns pass for a fainted character, counting down to the wake roll (DW-A16)."""

    kind: Literal["wait"] = "wait"
    character: Id
    turns: int = Field(default=1, ge=1, le=100)


class Stabilise(Frozen):
    """Someone stabilises and wakes a fainted or mortally wounded character (DW-M46, M47)."""

    kind: Literal["stabilise"] = "stabilise"
    character: Id
    means: StabiliseMeans = "first aid kit"
    in_combat: bool = False


class Study(Frozen):
    """A wizard studies a forgotten spell back from the grimoire, at camp (DW-M17)."""

    kind: Literal["study"] = "study"
    character: Id
    spell: str = Field(min_length=1, max_length=MAX_NAME)


class BeginExpedition(Frozen):
    """Set out: memorise spells (one per INT) and prayers (one per PRE), reset the
    expedition's counters (§ Spells, § Prayers, DW-A23)."""

    kind: Literal["expedition"] = "expedition"
    character: Id
    spells: tuple[str, ...] = Field(default=(), max_length=20)
    prayers: tuple[str, ...] = Field(default=(), max_length=20)


class UseUsageDie(Frozen):
    kind: Literal["usage-die"] = "usage-die"
    size: Literal[4, 6, 8, 10, 12, 20]
    label: str = Field(default="", max_length=MAX_NAME)


class RollRisk(Frozen):
    kind: Literal["risk"] = "risk"
    count: int = Field(default=1, ge=1, le=MAX_RISK_DICE)
    label: str = Field(default="", max_length=MAX_NAME)


class RollTable(Frozen):
    kind: Literal["roll-table"] = "roll-table"
    table: str
    modifier: int = Field(default=0, ge=-100, le=100)
    mode: RollMode = RollMode.PUBLIC


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
)
ExchangeChoice = Reroll | Pass | DauntlessRoll


# the session ------------------------------------------------------------------------------


class DeadWeightSession(Session[DeadWeightTable]):
    name = "dead-weight"
    state = DeadWeightTable
    error = DeadWeightError
    version = 2
    """2: a hidden enemy's lines are kept by marks (DW-N04, DW-N05)."""
    explained = frozenset(
        {
            *(intent.model_fields["kind"].default for intent in SHEET_INTENTS),
            *("study", "wake", "wait", "stabilise"),
        }
    )
    intents = (
        NewCharacter,
        ImportCharacter,
        CreationStep,
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
        UseUsageDie,
        RollRisk,
        RollTable,
        *SHEET_INTENTS,
        NewNpc[NpcStats],
        EditNpc,
        RemoveNpc,
        RevealNpc,
        NpcWounds,
    )

    # what each member may ask for ---------------------------------------------------------

    def offers(self, state: DeadWeightTable, member: Member) -> list[Offer]:
        found = [*self._character_offers(state, member), *self._exchange_offers(state, member)]
        found += [
            offer("usage-die", "roll a usage die", size=Choice(values=(4, 6, 8, 10, 12, 20))),
            offer("risk", "roll risk dice", count=Choice(help="how many", example=2)),
            offer(
                "roll-table",
                "roll on one of the book's tables",
                table=Choice(values=tuple(TABLES)),
                mode=Choice(values=tuple(RollMode)),
            ),
        ]
        if member.is_gm:
            found += self._gm_offers(state)
        return found

    def _character_offers(self, state: DeadWeightTable, member: Member) -> list[Offer]:
        found: list[Offer] = []
        if len(state.characters) + len(state.making) < MAX_CHARACTERS:
            found += [
                offer(
                    "new-character",
                    "make a character, at random or step by step",
                    name=Choice(help="the character's name", example="Amber"),
                    guided=Choice(values=(False, True)),
                ),
                offer("import-character", "bring a saved sheet", sheet=Choice(help="the sheet")),
            ]
        for cid, making in state.making.items():
            if controls(member, making.owner):
                found += _creation_offers(cid, making.creation)
        mine = tuple(
            cid
            for cid, seat in state.characters.items()
            if controls(member, seat.owner)
            and not (state.exchange and state.testing and cid in state.exchange.taking_part)
        )
        for cid in mine:
            found += sheet_offers(cid, state.characters[cid].sheet, state.testing)
        if not mine:
            return found
        able = tuple(c for c in mine if state.characters[c].sheet.condition.can_act)
        if not state.testing and able:
            found.append(
                offer(
                    "test",
                    "test or check an attribute",
                    roller=Choice(values=able),
                    setup=Choice(help="attribute, advantage, disadvantage, …", example={}),
                )
            )
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
        found += _body_offers(state, mine)
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

    def _exchange_offers(self, state: DeadWeightTable, member: Member) -> list[Offer]:
        exchange = state.exchange
        if exchange is None or exchange.finished or not self._decides(state, member):
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

    def _gm_offers(self, state: DeadWeightTable) -> list[Offer]:
        found: list[Offer] = ROSTER.offers(state.npcs, EXAMPLE)
        able = living(state.npcs)
        if able:
            found.append(
                offer(
                    "npc-wounds",
                    "wound an NPC",
                    npc=Choice(values=able),
                    wounds=Choice(help="wounds after armour", example=1),
                )
            )
        if not state.testing:
            setup = Choice(help="what it tests, with advantage, disadvantage, …", example={})
            if able:
                found.append(
                    offer("npc-test", "test a kept NPC", kept=Choice(values=able), setup=setup)
                )
            found += [
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
        if len(state.trackers) < MAX_TRACKERS:
            found.append(
                offer(
                    "new-tracker",
                    "start a tracker",
                    name=Choice(help="its name", example="the tide"),
                    tracker_kind=Choice(values=tuple(TrackerKind)),
                    segments=Choice(help="segments", example=6),
                )
            )
        names = tuple(state.trackers)
        if names:
            found += [
                offer("advance-tracker", "advance a tracker", name=Choice(values=names)),
                offer(
                    "show-tracker",
                    "show a tracker to the players, or hide it",
                    name=Choice(values=names),
                    visible=Choice(values=(True, False)),
                ),
            ]
        return found

    def _decides(self, state: DeadWeightTable, member: Member) -> bool:
        """Whether `member` makes the exchange's next choice (the GM may make any)."""
        exchange = state.exchange
        assert exchange is not None
        if member.is_gm:
            return True
        if exchange.open_test.deciding.value == "gm" or exchange.roller is None:
            return False
        return state.characters[exchange.roller].owner == member.id

    def why_not(self, state: DeadWeightTable, intent: Any, member: Member) -> str:
        kind = intent["kind"]
        if kind in ("reroll", "pass", "dauntless"):
            if not state.testing:
                return "no test is waiting for a choice"
            return "it is not your choice now"
        if kind in ("test", "npc-test", "opposed-test", "cast-spell", "pray") and state.testing:
            return "a test is under way; finish it first"
        return "not open to you now"

    # the rules ----------------------------------------------------------------------------

    def apply(
        self, state: DeadWeightTable, intent: Any, member: Member, dice: DiceSource
    ) -> tuple[DeadWeightTable, list[Event]]:
        if isinstance(intent, NewCharacter | ImportCharacter | CreationStep):
            return self._characters(state, intent, member, dice)
        if isinstance(intent, Test | NpcTest | OpposedTestIntent | CastSpell | Pray):
            return self._start(state, intent, dice)
        if isinstance(intent, SheetEdit):
            seat = state.characters[intent.character]
            sheet, events = edit(seat.sheet, intent, dice)
            seated = {
                **state.characters,
                intent.character: seat.model_copy(update={"sheet": sheet}),
            }
            return state.model_copy(update={"characters": seated}), told_of(events)
        if isinstance(intent, Reroll | Pass | DauntlessRoll):
            return self._choose(state, intent, dice)
        if isinstance(intent, NewTracker | AdvanceTracker | ShowTracker):
            return self._trackers(state, intent)
        if isinstance(intent, SheetChange):
            return self._sheet(state, intent, dice)
        if isinstance(intent, NewNpc | EditNpc | RemoveNpc | RevealNpc | NpcWounds):
            return self._npcs(state, intent)
        return state, [self._dice(intent, member, dice)]

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
        exchange = state.exchange
        if (
            isinstance(intent, RemoveNpc)
            and exchange
            and state.testing
            and intent.npc in exchange.kept
        ):
            raise DeadWeightError("that NPC is in the test under way; finish it first")
        npcs, events = ROSTER.change(state.npcs, intent, state.names)
        return state.model_copy(update={"npcs": npcs}), events

    def kept_from_players(self, state: DeadWeightTable) -> dict[str, str]:
        return state.hidden_npcs

    def _characters(
        self,
        state: DeadWeightTable,
        intent: NewCharacter | ImportCharacter | CreationStep,
        member: Member,
        dice: DiceSource,
    ) -> tuple[DeadWeightTable, list[Event]]:
        if isinstance(intent, CreationStep):
            making = state.making[intent.character]
            creation, events = making.creation.choose(intent.choice, dice)
            if not creation.done:
                made = {
                    **state.making,
                    intent.character: Making(owner=making.owner, creation=creation),
                }
                return state.model_copy(update={"making": made}), told_of(events)
            rest = {k: v for k, v in state.making.items() if k != intent.character}
            state = state.model_copy(update={"making": rest})
            return _seated(state, intent.character, making.owner, creation, events)
        owner = owner_for(intent.owner, member)
        cid = f"c{state.next_id}"
        state = state.model_copy(update={"next_id": state.next_id + 1})
        if isinstance(intent, ImportCharacter):
            sheet = sheet_from(intent.sheet)
            return _seated(state, cid, owner, sheet, [])
        party = tuple(seat.sheet.life_path for seat in state.characters.values())
        if intent.guided:
            creation, events = begin_creation(
                dice,
                name=intent.name,
                character_class=intent.character_class,
                options=state.options,
                supplement=intent.supplement,
                party=party,
                allow_choosing_quirk=intent.allow_choosing_quirk,
            )
            made = {**state.making, cid: Making(owner=owner, creation=creation)}
            told = note("character begun", f"{intent.name} is being made", character=cid)
            return state.model_copy(update={"making": made}), [told, *told_of(events)]
        creation, events = random_character(
            dice,
            name=intent.name,
            character_class=intent.character_class,
            options=state.options,
            supplement=intent.supplement,
        )
        return _seated(state, cid, owner, creation, events)

    def _start(
        self,
        state: DeadWeightTable,
        intent: Test | NpcTest | OpposedTestIntent | CastSpell | Pray,
        dice: DiceSource,
    ) -> tuple[DeadWeightTable, list[Event]]:
        if isinstance(intent, CastSpell | Pray):
            caster = _sheet_of(state, intent.character)
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
                return done.model_copy(update={"exchange": None}), told_of(events)
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
            told = told_sides(events, whose, state.npc_names, opposed=True)
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
            told = told_sides(events, whose, state.npc_names, opposed=False)
            return _written_back(state, exchange), told
        else:
            roller = _sheet_of(state, intent.roller)
            if intent.roller in intent.helpers or len(set(intent.helpers)) < len(intent.helpers):
                raise DeadWeightError("each helper is another character, named once")
            helps = [
                Help(helper=_sheet_of(state, h), extra_effort=h in intent.helper_effort)
                for h in intent.helpers
            ]
            test, events = start_test(roller, intent.setup, dice, helps, options=state.options)
            exchange = Exchange(test=test, rollers=(intent.roller,), helpers=intent.helpers)
        return _written_back(state, exchange), told_of(events)

    def _choose(
        self, state: DeadWeightTable, choice: ExchangeChoice, dice: DiceSource
    ) -> tuple[DeadWeightTable, list[Event]]:
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
        told = told_sides(events, whose, state.npc_names, opposed)
        return _written_back(state, exchange), told

    def _trackers(
        self, state: DeadWeightTable, intent: NewTracker | AdvanceTracker | ShowTracker
    ) -> tuple[DeadWeightTable, list[Event]]:
        if isinstance(intent, NewTracker):
            if intent.name in state.trackers:
                raise DeadWeightError(f"there is already a tracker called {intent.name!r}")
            visible = (
                intent.tracker_kind not in HIDDEN_AT_FIRST
                if intent.visible is None
                else intent.visible
            )
            tracker = Tracker(
                name=intent.name,
                kind=intent.tracker_kind,
                segments=intent.segments,
                visible=visible,
            )
            events = [
                note(
                    "new tracker",
                    f"a tracker: {intent.name}, {intent.segments} segments",
                    tracker=tracker.model_dump(mode="json"),
                )
            ]
        else:
            tracker = state.trackers[intent.name]
            if isinstance(intent, ShowTracker):
                tracker = tracker.model_copy(update={"visible": intent.visible})
                shown = "shows" if intent.visible else "hides"
                events = [
                    note(
                        "tracker shown",
                        f"the GM {shown} {tracker.name}",
                        tracker=tracker.model_dump(mode="json"),
                    )
                ]
            elif tracker.kind == TrackerKind.DOOM:
                adventurers = [seat.sheet for seat in state.characters.values()]
                tracker, raw = advance_doom(tracker, intent.points, adventurers, state.options)
                events = told_of(raw)
            else:
                tracker, raw = advance(tracker, intent.points)
                events = told_of(raw)
        trackers = {**state.trackers, tracker.name: tracker}
        if isinstance(intent, ShowTracker) and intent.visible:
            return state.model_copy(update={"trackers": trackers}), events
        return state.model_copy(update={"trackers": trackers}), self._kept(state, tracker, events)

    def _kept(self, state: DeadWeightTable, tracker: Tracker, events: list[Event]) -> list[Event]:
        """A hidden tracker's events: the GM sees them (and, for omens, whoever plays a
        character with the Third eye); the others only hear that a hidden tracker moved."""
        if tracker.visible:
            return events
        seers = tuple(
            sorted(
                {seat.owner for seat in state.characters.values() if can_see(tracker, seat.sheet)}
            )
        )
        return [
            e.model_copy(
                update={
                    "visibility": Visibility.HIDDEN,
                    "audience": seers,
                    "hint": "the GM moved a hidden tracker",
                }
            )
            for e in events
        ]

    def _sheet(
        self, state: DeadWeightTable, intent: SheetChange, dice: DiceSource
    ) -> tuple[DeadWeightTable, list[Event]]:
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
        else:
            sheet, events = rest_at_camp(sheet, intent.snore)
        seated = {**state.characters, intent.character: seat.model_copy(update={"sheet": sheet})}
        told = told_of(events) or [note("sheet", f"{sheet.label}: nothing changes")]
        return state.model_copy(update={"characters": seated}), told

    def _dice(self, intent: Any, member: Member, dice: DiceSource) -> Event:
        """Usage dice, risk dice and the book's tables: rolls that change no sheet."""
        who = member.name or member.id
        if isinstance(intent, UseUsageDie):
            after, rolled = UsageDie(size=intent.size).use(dice)
            now = f"now Ud{after.size}" if after else "used up: that was the last one"
            label = f" ({intent.label})" if intent.label else ""
            return note(
                "usage die",
                f"{who} rolls Ud{intent.size}{label}: {now}",
                **rolled.to_json(),
                after=after.size if after else None,
            )
        if isinstance(intent, RollRisk):
            happens, rolled = risk(intent.count, dice)
            verdict = "it happens" if happens else "it does not happen"
            return note(
                "risk",
                f"{who} rolls {intent.count} risk {'die' if intent.count == 1 else 'dice'}: "
                f"{verdict}",
                **rolled.to_json(),
                triggered=happens,
                label=intent.label,
            )
        table = system_table(intent.table)
        result = table.roll(dice, intent.modifier)
        event = note(
            "table", f"{table.title}: {result.value}, {result.entry.name}", **result.to_json()
        )
        return in_mode(event, intent.mode, who)

    # what each member sees ----------------------------------------------------------------

    def view(self, state: DeadWeightTable, member: Member) -> dict[str, Any]:
        return {
            "system": self.name,
            "options": state.options.model_dump(mode="json"),
            "characters": [
                {
                    "id": cid,
                    "owner": seat.owner,
                    "sheet": seat.sheet.model_dump(mode="json"),
                    "derived": derived(seat.sheet),
                }
                for cid, seat in state.characters.items()
            ],
            "making": [
                {
                    "id": cid,
                    "owner": making.owner,
                    "character": making.creation.character.model_dump(mode="json"),
                    "decision": _decision_json(making.creation),
                }
                for cid, making in state.making.items()
            ],
            "trackers": [
                tracker.model_dump(mode="json")
                if self._sees(state, tracker, member)
                else hidden("a tracker the GM keeps hidden")
                for tracker in state.trackers.values()
            ],
            "exchange": self._exchange_view(state, member),
            "npcs": ROSTER.view(state.npcs, member),
        }

    def _sees(self, state: DeadWeightTable, tracker: Tracker, member: Member) -> bool:
        if member.is_gm or tracker.visible:
            return True
        return any(
            seat.owner == member.id and can_see(tracker, seat.sheet)
            for seat in state.characters.values()
        )

    def _exchange_view(self, state: DeadWeightTable, member: Member) -> dict[str, Any] | None:
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

    def advice(self, state: DeadWeightTable, member: Member) -> dict[str, Any] | None:
        """The exact odds after each choice open to `member` now, and the advisor's pick
        (None when no choice is theirs). Milliseconds, so asked for apart from `legal`."""
        exchange = state.exchange
        if exchange is None or exchange.finished or not self._decides(state, member):
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


# helpers ----------------------------------------------------------------------------------

_ATTRIBUTES = Choice(values=tuple(Attribute))


STABILISE_MEANS: tuple[StabiliseMeans, ...] = ("first aid kit", "medical supply", "healing spell")


def _wait(sheet: Character, turns: int) -> tuple[Character, list[RulesEvent]]:
    """`turns` turns pass for a fainted character; none need pass once the wait is over."""
    if not sheet.condition.fainted or sheet.condition.faint_turns == 0:
        raise DeadWeightError(f"{sheet.label} has no turns to wait out")
    events: list[RulesEvent] = []
    for _ in range(min(turns, sheet.condition.faint_turns)):
        sheet, more = pass_fainted_turn(sheet)
        events += more
    return sheet, events


def _body_offers(state: DeadWeightTable, mine: tuple[str, ...]) -> list[Offer]:
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


def _sheet_of(state: DeadWeightTable, cid: str) -> Character:
    if cid not in state.characters:
        raise DeadWeightError(f"no character {cid!r} at this table")
    return state.characters[cid].sheet


def _contender(state: DeadWeightTable, side: Contender) -> Character | Npc:
    named = [x for x in (side.character, side.kept, side.npc) if x is not None]
    if len(named) != 1:
        raise DeadWeightError(
            "each side of an opposed test is one character, one kept NPC or one NPC typed in"
        )
    if side.kept is not None:
        return tester(state.npcs, side.kept)
    return side.npc if side.npc is not None else _sheet_of(state, side.character or "")


def _seated(
    state: DeadWeightTable,
    cid: str,
    owner: str,
    made: Character | Creation,
    events: list[RulesEvent],
) -> tuple[DeadWeightTable, list[Event]]:
    """The character (a sheet, or a finished creation) seated at the table."""
    if isinstance(made, Creation):
        seat = Seat(owner=owner, sheet=made.character, missing=made.missing)
    else:
        seat = Seat(owner=owner, sheet=made)
    sheet = seat.sheet
    seated = {**state.characters, cid: seat}
    joined = note("character", f"{sheet.label} joins the table", character=cid, owner=owner)
    return state.model_copy(update={"characters": seated}), [*told_of(events), joined]


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


def _creation_offers(cid: str, creation: Creation) -> list[Offer]:
    """The open creation decision as offers: each listed option, and names or dice to give."""
    decision = creation.decision()
    if decision is None:
        return []
    listed: list[dict[str, Any]] = []
    if "keep" in decision.kinds:
        listed.append({"kind": "keep"})
    if "attribute" in decision.kinds:
        listed += [{"kind": "attribute", "attribute": name} for name in decision.options]
    if "class" in decision.kinds:
        listed += [{"kind": "class", "character_class": name} for name in decision.options]
    if "pick" in decision.kinds:
        listed += [{"kind": "pick", "name": name} for name in decision.options]
    if "skip" in decision.kinds:
        listed.append({"kind": "skip"})
    intents = tuple(
        {"kind": "creation-choice", "character": cid, "choice": choice} for choice in listed
    )
    found = (
        [Offer(kind="creation-choice", text=decision.prompt, intents=intents)] if intents else []
    )
    if {"reroll", "names"} & set(decision.kinds) or decision.free_names:
        found.append(
            offer(
                "creation-choice",
                decision.prompt,
                character=Choice(values=(cid,)),
                choice=Choice(
                    help="dice to re-roll, or the names chosen", example={"kind": "keep"}
                ),
            )
        )
    return found


def _decision_json(creation: Creation) -> dict[str, Any] | None:
    decision = creation.decision()
    return None if decision is None else decision.model_dump(mode="json")


SESSION = DeadWeightSession()
