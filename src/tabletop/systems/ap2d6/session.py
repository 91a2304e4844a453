"""The 2d6 action-point rules at a shared table: characters, checks and contests, harm and
healing, hidden death checks, and a fight on the AP tracker, as intents, events and views.

The death DC is the GM's secret (RU-M37): the GM rolls it when a character goes down, sees
every verdict against it, and may reveal it; until then no player receives it, not even in
the draws of their own death check. A fight runs Initiative Rules B: the GM starts rounds,
each character's player spends their AP, waits, interrupts and makes death checks.

An NPC the GM keeps hidden is a character whose numbers the players may not see
(`kept_from_players`): its own lines reach them in words or not at all, and a line that
tells of it and of a character of theirs reaches them with its part as `?` (RU-N05).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from tabletop import kept
from tabletop.dice import DiceSource
from tabletop.errors import PermissionDenied, TabletopError
from tabletop.npcs import (
    MAX_NPCS,
    BookNpc,
    EditNpc,
    NewNpc,
    RemoveNpc,
    RevealNpc,
    brought,
    changed,
    check_name,
    next_id,
    removed,
    roster_offers,
    shown,
)
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
    rolled_for,
)
from tabletop.systems.ap2d6 import health
from tabletop.systems.ap2d6.checks import check, check_against, contest
from tabletop.systems.ap2d6.costs import action_cost, basic_actions, basic_named
from tabletop.systems.ap2d6.creation import buy_skills, point_buy, random_character
from tabletop.systems.ap2d6.encumbrance import carry
from tabletop.systems.ap2d6.errors import Ap2d6Error, validated
from tabletop.systems.ap2d6.events import Event as RulesEvent
from tabletop.systems.ap2d6.gear import MAX_BAGS_IN_USE, Bag, Carried, Item
from tabletop.systems.ap2d6.options import DEFAULTS, Options
from tabletop.systems.ap2d6.owners import NOBODY, Owners
from tabletop.systems.ap2d6.rounds import (
    Combat,
    act,
    begin_round,
    death_check,
    end_fight,
    interrupt,
    order,
    roll_check,
    start_main_phase,
    tracker_change,
)
from tabletop.systems.ap2d6.scores import RANDOM_SCHEMES
from tabletop.systems.ap2d6.sheet import Character
from tabletop.systems.ap2d6.sheet_edits import INTENTS as SHEET_INTENTS
from tabletop.systems.ap2d6.sheet_edits import (
    RenameCharacter,
    SheetEdit,
    derived,
    edit,
    sheet_offers,
    weighed,
)
from tabletop.systems.ap2d6.table_npcs import (
    EXAMPLE,
    STATS,
    NpcMark,
    NpcStats,
    bestiary,
    card_words,
    edited,
    fighter_view,
    npc_line,
    npc_sheet,
    roster_view,
    stats_view,
)
from tabletop.systems.ap2d6.tracker import ATTACK

SUGGESTED_POINTS = 9
"""The rules call 9 SP a good start for semi-competent adventurers (RU-M08)."""

MAX_CHARACTERS = 100

MAX_CARRIED = 200
"""Lines of a load one intent may list."""


class Seat(Frozen):
    """A character at the table and the member who plays them; an NPC's is the GM's."""

    owner: str
    sheet: Character
    npc: NpcMark | None = None
    """Set for an NPC the GM keeps (RU-N04)."""

    @property
    def hidden_npc(self) -> bool:
        return self.npc is not None and not self.npc.revealed


class Ap2d6Table(Frozen):
    options: Options = DEFAULTS
    characters: dict[str, Seat] = Field(default_factory=dict)
    fight: Combat | None = None
    """The fight in initiative; its sheets are the characters' while it lasts."""
    revealed: tuple[str, ...] = ()
    """Characters whose death DC the GM has shown to everyone."""
    next_id: int = Field(default=1, ge=1)
    next_npc: int = Field(default=1, ge=1)

    @property
    def npcs(self) -> list[tuple[str, Character, NpcMark]]:
        """The GM's NPCs: id, sheet and mark."""
        return [(cid, s.sheet, s.npc) for cid, s in self.characters.items() if s.npc is not None]

    @property
    def hidden_npcs(self) -> dict[str, str]:
        """The NPCs whose numbers the players may not see: id to name (RU-N05)."""
        return {cid: s.sheet.name for cid, s in self.characters.items() if s.hidden_npc}

    @property
    def owners(self) -> Owners:
        """Each character's id by name, and which are kept from the players."""
        ids = {seat.sheet.name: cid for cid, seat in self.characters.items()}
        return Owners(ids=ids, kept=frozenset(self.hidden_npcs))

    def id_of(self, name: str) -> str:
        return next(cid for cid, seat in self.characters.items() if seat.sheet.name == name)


# intents ----------------------------------------------------------------------------------

Id = str


class NewCharacter(Frozen):
    """A character by point buy (RU-M08) or with rolled scores (RU-M09)."""

    kind: Literal["new-character"] = "new-character"
    name: str = Field(default="Adventurer", min_length=1, max_length=MAX_NAME)
    method: Literal["point-buy", "d4-2", "d6-3"] = "point-buy"
    points: int = SUGGESTED_POINTS
    scores: dict[str, int] = Field(default_factory=dict)
    skills: dict[str, int] = Field(default_factory=dict)
    priority: tuple[str, ...] | None = None
    """With rolled scores: the highest roll to the first score listed."""
    owner: str | None = None


class CheckIntent(Frozen):
    """2d6 + a character's score against a DC, or against a defender's score (RU-M10..M12)."""

    kind: Literal["check"] = "check"
    character: Id
    score: str = Field(min_length=1, max_length=40)
    dc: int | None = Field(default=None, ge=-100, le=100)
    against: int | None = Field(default=None, ge=-100, le=100)
    modifier: int = Field(default=0, ge=-100, le=100)
    defender_wins_ties: bool = False
    mode: RollMode = RollMode.PUBLIC


class ContestIntent(Frozen):
    """Two characters roll 2d6 + a score each; the higher total wins (RU-M11)."""

    kind: Literal["contest"] = "contest"
    first: Id
    second: Id
    score: str = Field(min_length=1, max_length=40)
    versus: str = Field(min_length=1, max_length=40)
    redo_ties: bool = False


class Damage(Frozen):
    """Harm: at 0 HP or below the character is down and the GM's secret DC is rolled."""

    kind: Literal["damage"] = "damage"
    character: Id
    amount: int = Field(ge=1, le=1000)
    is_hit: bool = True


class Heal(Frozen):
    kind: Literal["heal"] = "heal"
    character: Id
    amount: int = Field(ge=1, le=1000)


class Rest(Frozen):
    """Hours of rest, spending recovery dice (RU-M33)."""

    kind: Literal["rest"] = "rest"
    character: Id
    hours: int = Field(ge=1, le=1000)
    recovery_dice: int = Field(default=0, ge=0, le=100)


class BagLoad(Frozen):
    """A bag in use and what is in it."""

    bag: Bag
    items: tuple[Item, ...] = Field(default=(), max_length=MAX_CARRIED)


class Carry(Frozen):
    """What a character carries now: [encumbered] comes or goes with the load (RU-M49..M52)."""

    kind: Literal["carry"] = "carry"
    character: Id
    items: tuple[Item, ...] = Field(default=(), max_length=MAX_CARRIED)
    bags: tuple[BagLoad, ...] = Field(default=(), max_length=MAX_BAGS_IN_USE)


class DeathCheckIntent(Frozen):
    kind: Literal["death-check"] = "death-check"
    character: Id


class CheckOn(Frozen):
    """Someone goes to a downed character and finds out how it went (RU-M38)."""

    kind: Literal["check-on"] = "check-on"
    character: Id


class RevealDeathDc(Frozen):
    """The GM shows everyone a character's death DC."""

    kind: Literal["reveal-death-dc"] = "reveal-death-dc"
    character: Id


class StartFight(Frozen):
    kind: Literal["start-fight"] = "start-fight"
    characters: tuple[Id, ...] = Field(min_length=1, max_length=MAX_CHARACTERS)


class NextRound(Frozen):
    """The round begins: effects, statuses, then the Main Phase (RU-M25)."""

    kind: Literal["next-round"] = "next-round"


class Spend(Frozen):
    """Pay for an action: a basic action by name, or any (XnY) cost (RU-M16..M19)."""

    kind: Literal["spend"] = "spend"
    character: Id
    action: str = Field(min_length=1, max_length=80)
    attack: bool = False
    """An attack: every attack this round shares one escalating count (RU-M19)."""
    pick: str | None = Field(default=None, max_length=40)
    """For a cost with a choice, e.g. `(2n3 or 3n1)`: the one paid."""


class AttackIntent(Frozen):
    """An attack, paid at its weapon's speed (its basic attack AP cost): every attack this
    round shares one escalating count (§ Attacking using AP, RU-M19, RU-A48)."""

    kind: Literal["attack"] = "attack"
    character: Id
    speed: str = Field(min_length=1, max_length=80)
    """The weapon's speed, e.g. (1n1)->(2n1)."""
    pick: str | None = Field(default=None, max_length=40)
    """For a speed with a choice, e.g. `(2n3 or 3n1)`: the one paid."""


class TrackerChange(Frozen):
    """Gain, lose or get temp AP (the GM's calls), or wait (RU-M20..M23)."""

    kind: Literal["tracker"] = "tracker"
    character: Id
    change: Literal["gain", "lose", "temp", "wait"]


class Interrupt(Frozen):
    """An initiative contest to act before another (RU-M27)."""

    kind: Literal["interrupt"] = "interrupt"
    character: Id
    target: Id
    tagged: bool = False


class Order(Frozen):
    """Who goes first among characters acting at the same moment (RU-M26)."""

    kind: Literal["order"] = "order"
    characters: tuple[Id, ...] = Field(min_length=1, max_length=MAX_CHARACTERS)


class EndFight(Frozen):
    kind: Literal["end-fight"] = "end-fight"


OwnAction = (
    CheckIntent
    | Damage
    | Heal
    | Rest
    | Carry
    | DeathCheckIntent
    | Spend
    | AttackIntent
    | TrackerChange
)
GM_CHANGES = ("gain", "lose", "temp")


class Ap2d6Session(Session[Ap2d6Table]):
    name = "ap2d6"
    version = 2
    state = Ap2d6Table
    error = Ap2d6Error
    explained = frozenset(intent.model_fields["kind"].default for intent in SHEET_INTENTS)
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
        *SHEET_INTENTS,
    )

    # offers -------------------------------------------------------------------------------

    def offers(self, state: Ap2d6Table, member: Member) -> list[Offer]:
        found: list[Offer] = []
        if len(state.characters) < MAX_CHARACTERS:
            found += [
                offer(
                    "new-character",
                    "make a character",
                    name=Choice(help="the character's name", example="Ayla"),
                    method=Choice(values=("point-buy", *RANDOM_SCHEMES)),
                    scores=Choice(
                        help="with point buy: each score bought and the value it is bought to"
                    ),
                    skills=Choice(
                        help="with point buy: each skill from your group's list and its SP"
                    ),
                ),
                offer("import-character", "bring a saved sheet", sheet=Choice(help="the sheet")),
            ]
        everyone = tuple(state.characters)
        mine = tuple(c for c, seat in state.characters.items() if controls(member, seat.owner))
        up = tuple(c for c in mine if state.characters[c].sheet.life == "up")
        if up:
            found.append(
                offer(
                    "check",
                    "a check with a score",
                    character=Choice(values=up),
                    score=Choice(help="the score", example="AGI"),
                    dc=Choice(help="the DC", example=8),
                    mode=Choice(values=tuple(RollMode)),
                )
            )
        if mine:
            found += [
                offer(
                    "heal",
                    "regain health",
                    character=Choice(values=mine),
                    amount=Choice(help="HP", example=3),
                ),
                offer(
                    "rest",
                    "rest for some hours",
                    character=Choice(values=mine),
                    hours=Choice(help="hours", example=8),
                ),
                offer(
                    "carry",
                    "carry a load",
                    character=Choice(values=mine),
                    items=Choice(help="what is carried", example=[{"kind": "weapon"}]),
                ),
            ]
        for cid in mine:
            seat = state.characters[cid]
            if seat.npc is None:  # an NPC's numbers change through edit-npc (RU-N04)
                found += sheet_offers(cid, seat.sheet, cid in up, member.is_gm)
        dying = tuple(c for c in mine if self._may_check_death(state, c))
        if dying:
            found.append(offer("death-check", "a death check", character=Choice(values=dying)))
        unknown = tuple(c for c in everyone if health.fate_unknown(state.characters[c].sheet))
        if unknown:
            found.append(
                offer("check-on", "go to a downed character", character=Choice(values=unknown))
            )
        found += self._fight_offers(state, member, mine)
        if member.is_gm:
            found += self._gm_offers(state, everyone)
        return found

    def _may_check_death(self, state: Ap2d6Table, cid: str) -> bool:
        sheet = state.characters[cid].sheet
        if sheet.life != "dying" or sheet.dying is None or not sheet.dying.rolling:
            return False
        fight = state.fight
        if fight is None or not _in(fight, sheet.name):
            return True
        return sheet.name not in fight.death_checked

    def _fight_offers(
        self, state: Ap2d6Table, member: Member, mine: tuple[str, ...]
    ) -> list[Offer]:
        fight = state.fight
        if fight is None or fight.phase == "not-started":
            return []
        acting = tuple(
            c
            for c in mine
            if _in(fight, state.characters[c].sheet.name)
            and fight.character(state.characters[c].sheet.name).life == "up"
        )
        if not acting:
            return []
        fighters = tuple(c for c in state.characters if _in(fight, state.characters[c].sheet.name))
        basic = _affordable(state, fight, acting)
        # Only what the rules can grant: paying with AP left to spend, waiting before any
        # is spent (a player's; the GM's tracker changes stay open), acting before someone
        # else's action.
        paying = tuple(c for c in acting if _may_pay(state, fight, c))
        waiting = tuple(c for c in acting if _may_wait(state, fight, c))
        found = [
            *([closed] if (closed := closed_offer("spend", "a basic action", basic)) else []),
        ]
        if paying:
            found += [
                offer(
                    "attack",
                    "pay for an attack",
                    character=Choice(values=paying),
                    speed=Choice(help="the weapon's speed (its AP cost)", example="(1n1)->(2n1)"),
                ),
                offer(
                    "spend",
                    "pay for an action",
                    character=Choice(values=paying),
                    action=Choice(help=f"{_BASIC} or a cost such as (2n2)", example="move"),
                ),
            ]
        found += [
            offer(
                "order",
                "who goes first when several act at once",
                characters=Choice(help="who acts at the same moment", example=list(fighters)),
            ),
        ]
        if member.is_gm or waiting:
            found.append(
                offer(
                    "tracker",
                    "wait for the round",
                    character=Choice(values=acting if member.is_gm else waiting),
                    change=Choice(values=("wait", *(GM_CHANGES if member.is_gm else ()))),
                )
            )
        if len(fighters) > 1:
            found.append(
                offer(
                    "interrupt",
                    "try to act first",
                    character=Choice(values=acting),
                    target=Choice(values=fighters),
                )
            )
        return found

    def _gm_offers(self, state: Ap2d6Table, everyone: tuple[str, ...]) -> list[Offer]:
        listed = [(cid, mark.revealed) for cid, _, mark in state.npcs]
        found: list[Offer] = roster_offers(listed, STATS, EXAMPLE, bestiary())
        if everyone:
            found.append(
                offer(
                    "damage",
                    "harm a character",
                    character=Choice(values=everyone),
                    amount=Choice(help="damage", example=4),
                )
            )
            if len(everyone) > 1:
                found.append(
                    offer(
                        "contest",
                        "a contest between two characters",
                        first=Choice(values=everyone),
                        second=Choice(values=everyone),
                        score=Choice(help="the first side's score", example="STR"),
                        versus=Choice(help="the second side's score", example="STR"),
                    )
                )
        secret = tuple(
            c
            for c in everyone
            if state.characters[c].sheet.dying is not None and c not in state.revealed
        )
        if secret:
            found.append(
                offer(
                    "reveal-death-dc", "show everyone a death DC", character=Choice(values=secret)
                )
            )
        if state.fight is None and everyone:
            found.append(
                offer(
                    "start-fight",
                    "start a fight",
                    characters=Choice(help="who is in it", example=list(everyone)),
                )
            )
        if state.fight is not None:
            found.append(offer("next-round", "start the next round"))
            if state.fight.phase != "not-started":
                found.append(offer("end-fight", "end the fight"))
        return found

    def why_not(self, state: Ap2d6Table, intent: Any, member: Member) -> str:
        if intent["kind"] in ("spend", "interrupt", "tracker") and state.fight is None:
            return "there is no fight under way"
        return "not open to you now"

    # the rules ----------------------------------------------------------------------------

    def apply(
        self, state: Ap2d6Table, intent: Any, member: Member, dice: DiceSource
    ) -> tuple[Ap2d6Table, list[Event]]:
        if isinstance(intent, BookNpc | NewNpc | EditNpc | RemoveNpc | RevealNpc):
            return self._npcs(state, intent, member)
        return self._rules(state, intent, member, dice)

    def kept_from_players(self, state: Ap2d6Table) -> dict[str, str]:
        return state.hidden_npcs

    def _rules(
        self, state: Ap2d6Table, intent: Any, member: Member, dice: DiceSource
    ) -> tuple[Ap2d6Table, list[Event]]:
        options = state.options
        if isinstance(intent, NewCharacter | ImportCharacter):
            return self._seat(state, intent, member, dice)
        if isinstance(intent, ContestIntent):
            first, second = _sheet(state, intent.first), _sheet(state, intent.second)
            result = contest(
                first.score(intent.score),
                second.score(intent.versus),
                dice,
                full_tie="redo" if intent.redo_ties else None,
                options=options,
                whose=(intent.first, intent.second),
            )
            kept_sides = (state.owners.kept_id(first.name), state.owners.kept_id(second.name))
            told = result.describe(kept=kept_sides)
            text = f"{first.name} ({intent.score}) vs {second.name} ({intent.versus}): {told}"
            return state, [note("contest", text, **result.model_dump(mode="json"))]
        if isinstance(intent, RevealDeathDc):
            sheet = _sheet(state, intent.character)
            assert sheet.dying is not None
            shown = note(
                "death DC shown",
                f"{sheet.name}'s death DC was {sheet.dying.dc}",
                character=intent.character,
                dc=sheet.dying.dc,
            )
            return state.model_copy(update={"revealed": (*state.revealed, intent.character)}), [
                shown
            ]
        if isinstance(intent, StartFight | NextRound | EndFight | Interrupt | Order):
            return self._fight(state, intent, dice)
        if isinstance(intent, CheckOn):
            sheet = _sheet(state, intent.character)
            with rolled_for(intent.character):  # what dying cost them is rolled for them
                sheet, events = health.check_on(sheet, dice, options=options)
            told = _told(events, state.owners, sheet.name)
            return _with_sheet(state, intent.character, sheet), told
        if isinstance(intent, SheetEdit):
            return self._edit(state, intent)
        return self._own(state, intent, member, dice)

    def _npcs(
        self,
        state: Ap2d6Table,
        intent: BookNpc | NewNpc[NpcStats] | EditNpc | RemoveNpc | RevealNpc,
        member: Member,
    ) -> tuple[Ap2d6Table, list[Event]]:
        """The GM's NPCs: the book's or typed in, changed, taken away, shown or hidden."""
        names = [seat.sheet.name for seat in state.characters.values()]
        if isinstance(intent, BookNpc | NewNpc):
            if len(state.npcs) >= MAX_NPCS:
                raise Ap2d6Error(f"a table keeps at most {MAX_NPCS} NPCs")
            if isinstance(intent, BookNpc):
                creature = bestiary().creature(intent.creature, Ap2d6Error)
                name, stats, whence = intent.name or creature.name, creature.stats, creature.name
            else:
                name, stats, whence = intent.name, intent.stats, None
            check_name(name, names, Ap2d6Error)
            sheet = npc_sheet(name, stats)
            mark = NpcMark(creature=whence, bias=stats.bias)
            nid, counter = next_id(state.characters, state.next_npc)
            seats = {**state.characters, nid: Seat(owner=member.id, sheet=sheet, npc=mark)}
            after = state.model_copy(update={"characters": seats, "next_npc": counter})
            return after, brought(nid, name, card_words(sheet, mark), whence)
        seat = state.characters.get(intent.npc)
        if seat is None or seat.npc is None:
            raise Ap2d6Error(f"no NPC {intent.npc!r} at this table")
        name = seat.sheet.name
        in_fight = state.fight is not None and _in(state.fight, name)
        if isinstance(intent, RemoveNpc):
            if in_fight:
                raise Ap2d6Error(f"{name} is in the fight; end the fight first")
            rest = {cid: s for cid, s in state.characters.items() if cid != intent.npc}
            return state.model_copy(update={"characters": rest}), [removed(intent.npc, name)]
        if isinstance(intent, RevealNpc):
            mark = seat.npc.model_copy(update={"revealed": intent.revealed})
            told_now = shown(intent.npc, name, intent.revealed, stats_view(seat.sheet, mark))
            return _with_seat(state, intent.npc, seat.sheet, mark), [told_now]
        if intent.stat == "name":
            if in_fight:
                raise Ap2d6Error(f"{name} is in the fight; rename them after it")
            check_name(intent.value.strip(), [n for n in names if n != name], Ap2d6Error)
        sheet, mark = edited(seat.sheet, seat.npc, intent)
        now = (
            sheet.name
            if intent.stat == "name"
            else str(stats_view(sheet, mark).get(intent.stat, sheet.scores.get(intent.stat)))
        )
        events = changed(intent.npc, name, intent.stat, now, seat.npc.revealed)
        return _with_seat(state, intent.npc, sheet, mark), events

    def _seat(
        self,
        state: Ap2d6Table,
        intent: NewCharacter | ImportCharacter,
        member: Member,
        dice: DiceSource,
    ) -> tuple[Ap2d6Table, list[Event]]:
        owner = owner_for(intent.owner, member)
        if isinstance(intent, ImportCharacter):
            sheet, events = validated(Character, intent.sheet, "the sheet"), []
        elif intent.method == "point-buy":
            if intent.priority:
                raise Ap2d6Error("a priority order only goes with rolled scores")
            sheet, events = point_buy(
                intent.name, intent.points, intent.scores, intent.skills, state.options
            )
        else:
            if intent.scores:
                raise Ap2d6Error("rolled scores are rolled: leave out the scores")
            sheet, events = random_character(
                intent.name, intent.method, dice, intent.priority, state.options
            )
            sheet, bought = buy_skills(sheet, intent.skills)
            events += bought
        if any(seat.sheet.name == sheet.name for seat in state.characters.values()):
            raise Ap2d6Error(f"there is already a character called {sheet.name} at this table")
        cid = f"c{state.next_id}"
        seats = {**state.characters, cid: Seat(owner=owner, sheet=sheet)}
        joined = note("character", f"{sheet.name} joins the table", character=cid, owner=owner)
        after = state.model_copy(update={"characters": seats, "next_id": state.next_id + 1})
        return after, [*_told(events), joined]

    def _own(
        self, state: Ap2d6Table, intent: OwnAction, member: Member, dice: DiceSource
    ) -> tuple[Ap2d6Table, list[Event]]:
        """What one character does or has done to them."""
        options = state.options
        sheet = _sheet(state, intent.character)
        fight = state.fight if state.fight and _in(state.fight, sheet.name) else None
        if isinstance(intent, CheckIntent):
            return self._check(state, intent, sheet, fight, member, dice)
        if isinstance(intent, Spend | AttackIntent | TrackerChange):
            if fight is None:
                raise Ap2d6Error(f"{sheet.name} is not in a fight")
            if isinstance(intent, TrackerChange):
                if intent.change in GM_CHANGES and not member.is_gm:
                    raise PermissionDenied(f"only the GM gives or takes AP ({intent.change})")
                fight, events = tracker_change(fight, sheet.name, intent.change, options)
            else:
                fight, events = _spend(fight, sheet.name, intent)
            return _with_fight(state, fight), _told(events, state.owners, sheet.name)
        if isinstance(intent, DeathCheckIntent) and fight is not None:
            with rolled_for(intent.character):
                fight, events = death_check(fight, sheet.name, dice, options)
            return _with_fight(state, fight), _told(events, state.owners, sheet.name)
        if isinstance(intent, Damage):  # the death DC it may roll is the GM's: nobody's dice
            sheet, events = health.take_damage(sheet, intent.amount, dice, is_hit=intent.is_hit)
        elif isinstance(intent, DeathCheckIntent | Heal | Rest):
            with rolled_for(intent.character):  # their death checks, recovery dice, consequences
                sheet, events = _recovered(sheet, intent, dice, options)
        else:
            bags = [(load.bag, list(load.items)) for load in intent.bags]
            carry(sheet.score("STR"), intent.items, bags, bags_allowed=MAX_BAGS_IN_USE)
            carried = Carried(
                personal=intent.items,
                bag=intent.bags[0].bag if intent.bags else None,
                in_bag=intent.bags[0].items if intent.bags else (),
            )
            sheet, events = weighed(sheet, carried, f"{sheet.name} carries a new load")
        return _with_sheet(state, intent.character, sheet), _told(events, state.owners, sheet.name)

    def _edit(self, state: Ap2d6Table, intent: SheetEdit) -> tuple[Ap2d6Table, list[Event]]:
        """One of a sheet's own edits; a rename keeps names unique and waits for the end of
        a fight (the fight knows its fighters by name)."""
        sheet = _sheet(state, intent.character)
        if state.characters[intent.character].npc is not None:
            raise Ap2d6Error(f"{sheet.name} is an NPC: the GM changes it with edit-npc")
        changed, events = edit(sheet, intent)
        if isinstance(intent, RenameCharacter):
            if state.fight is not None and _in(state.fight, sheet.name):
                raise Ap2d6Error(f"{sheet.name} is in a fight: rename them after it")
            taken = (s.sheet.name for c, s in state.characters.items() if c != intent.character)
            if changed.name in taken:
                raise Ap2d6Error(
                    f"there is already a character called {changed.name} at this table"
                )
            seats = {
                **state.characters,
                intent.character: state.characters[intent.character].model_copy(
                    update={"sheet": changed}
                ),
            }
            return state.model_copy(update={"characters": seats}), _told(events)
        return _with_sheet(state, intent.character, changed), _told(events)

    def _check(
        self,
        state: Ap2d6Table,
        intent: CheckIntent,
        sheet: Character,
        fight: Combat | None,
        member: Member,
        dice: DiceSource,
    ) -> tuple[Ap2d6Table, list[Event]]:
        """A check, its result the character's part of the line (a hidden NPC's reaches the
        players as `?`); made blind or for the GM, the others read only that a roll was made,
        as of any character's (RU-N05)."""
        if (intent.dc is None) == (intent.against is None):
            raise Ap2d6Error("a check is against a DC or against a score, one of them")
        owners = state.owners
        score = sheet.score(intent.score)
        modifier = intent.modifier + sheet.check_modifier(intent.score)
        with rolled_for(intent.character):
            if intent.against is None and fight is not None:
                fight, _, raw = roll_check(
                    fight,
                    sheet.name,
                    intent.score,
                    intent.dc or 0,
                    dice,
                    defender_wins_ties=intent.defender_wins_ties,
                    options=state.options,
                    owners=owners,
                )
                state, events = _with_fight(state, fight), _told(raw, owners, sheet.name)
            else:
                if intent.against is not None:
                    result = check_against(
                        score, intent.against, dice, modifier=modifier, options=state.options
                    )
                else:
                    result = check(
                        score,
                        intent.dc or 0,
                        dice,
                        modifier=modifier,
                        defender_wins_ties=intent.defender_wins_ties,
                        options=state.options,
                    )
                text = f"{sheet.name} ({intent.score}): {owners.part(sheet.name, result)}"
                events = [note("check", text, **result.model_dump(mode="json"))]
        if intent.mode == RollMode.PUBLIC:
            return state, events
        who = member.name or member.id
        return state, [
            e if e.visibility == Visibility.GM else in_mode(_plain(e), intent.mode, who)
            for e in events
        ]

    def _fight(
        self,
        state: Ap2d6Table,
        intent: StartFight | NextRound | EndFight | Interrupt,
        dice: DiceSource,
    ) -> tuple[Ap2d6Table, list[Event]]:
        if isinstance(intent, StartFight):
            if len(set(intent.characters)) != len(intent.characters):
                raise Ap2d6Error("each character joins the fight once")
            sheets = tuple(_sheet(state, cid) for cid in intent.characters)
            fight = validated(Combat, {"characters": [s.model_dump() for s in sheets]}, "fight")
            names = ", ".join(s.name for s in sheets)
            return state.model_copy(update={"fight": fight}), [
                note("fight", f"into initiative: {names}")
            ]
        fight, owners = state.fight, state.owners
        assert fight is not None
        if isinstance(intent, NextRound):
            fight, events = begin_round(fight, dice, options=state.options, owners=owners)
            fight, more = start_main_phase(fight)
            return _with_fight(state, fight), _told(events + more, owners)
        if isinstance(intent, Order):
            names = [_sheet(state, cid).name for cid in intent.characters]
            ordered, events = order(fight, names, dice, state.options, owners)
            return state, [
                *_told(events, owners),
                note("order", "in order: " + ", ".join(ordered), order=ordered),
            ]
        if isinstance(intent, Interrupt):
            who, whom = _sheet(state, intent.character).name, _sheet(state, intent.target).name
            fight, _, events = interrupt(
                fight, who, whom, dice, tagged=intent.tagged, options=state.options, owners=owners
            )
            return _with_fight(state, fight), _told(events, owners)
        after, events = end_fight(fight)
        state = _with_fight(state, fight).model_copy(update={"fight": None})
        for sheet in after:
            state = _with_sheet(state, state.id_of(sheet.name), sheet)
        return state, _told(events)

    # views --------------------------------------------------------------------------------

    def view(self, state: Ap2d6Table, member: Member) -> dict[str, Any]:
        def secret(cid: str) -> bool:
            return state.characters[cid].hidden_npc and not member.is_gm

        def sheet_view(cid: str, sheet: Character) -> dict[str, Any]:
            return _sheet_view(sheet, member.is_gm or cid in state.revealed)

        fight = None
        if state.fight is not None:
            fight = state.fight.model_dump(mode="json", exclude={"characters"})
            fight["characters"] = []
            for c in state.fight.characters:
                cid = state.id_of(c.name)
                shown_sheet = sheet_view(cid, c)
                fight["characters"].append(
                    fighter_view(shown_sheet) if secret(cid) else shown_sheet
                )
        return {
            "system": self.name,
            "options": state.options.model_dump(mode="json"),
            "characters": [
                {
                    "id": cid,
                    "owner": seat.owner,
                    "npc": seat.npc is not None,
                    "name": seat.sheet.name,
                    "sheet": hidden("an NPC's sheet, which the GM keeps")
                    if secret(cid)
                    else sheet_view(cid, seat.sheet),
                    "derived": {} if secret(cid) else derived(seat.sheet),
                }
                for cid, seat in state.characters.items()
            ],
            "fight": fight,
            "revealed": list(state.revealed),
            "npcs": roster_view(state.npcs, member),
        }


# helpers ----------------------------------------------------------------------------------


_BASIC = f"a basic action ({', '.join(a.label for a in basic_actions().values())})"


def _may_pay(state: Ap2d6Table, fight: Combat, cid: str) -> bool:
    """Whether a character has AP to spend now (RU-M18): none while waiting."""
    tracker = fight.character(state.characters[cid].sheet.name).tracker
    return not tracker.waiting and tracker.spendable > 0


def _may_wait(state: Ap2d6Table, fight: Combat, cid: str) -> bool:
    """Whether a character may still wait this round (RU-M23): not waiting already, and no
    AP spent yet unless the table's option allows waiting after acting."""
    tracker = fight.character(state.characters[cid].sheet.name).tracker
    return not tracker.waiting and (not tracker.acted or state.options.wait_after_acting)


def _in(fight: Combat, name: str) -> bool:
    return any(c.name == name for c in fight.characters)


def _sheet(state: Ap2d6Table, cid: str) -> Character:
    if cid not in state.characters:
        raise Ap2d6Error(f"no character {cid!r} at this table")
    return state.characters[cid].sheet


def _with_sheet(state: Ap2d6Table, cid: str, sheet: Character) -> Ap2d6Table:
    """The character's sheet changed, in the fight too if they are in it."""
    seats = {**state.characters, cid: state.characters[cid].model_copy(update={"sheet": sheet})}
    fight = state.fight
    if fight is not None and _in(fight, sheet.name):
        fight = fight.replaced(sheet)
    return state.model_copy(update={"characters": seats, "fight": fight})


def _with_seat(state: Ap2d6Table, cid: str, sheet: Character, mark: NpcMark) -> Ap2d6Table:
    """An NPC's seat with a new sheet and mark (in the fight too, if it is in it)."""
    seat = state.characters[cid].model_copy(update={"npc": mark})
    state = state.model_copy(update={"characters": {**state.characters, cid: seat}})
    return _with_sheet(state, cid, sheet)


def _with_fight(state: Ap2d6Table, fight: Combat) -> Ap2d6Table:
    """The fight after a step, and each fighter's sheet as the fight has left it."""
    seats = dict(state.characters)
    for sheet in fight.characters:
        cid = state.id_of(sheet.name)
        seats[cid] = seats[cid].model_copy(update={"sheet": sheet})
    return state.model_copy(update={"characters": seats, "fight": fight})


def _affordable(state: Ap2d6Table, fight: Combat, acting: tuple[str, ...]) -> list[Spend]:
    """Each basic action each acting character can pay for now (RU-M16, RU-M17)."""
    found = []
    for cid in acting:
        name = state.characters[cid].sheet.name
        for action in basic_actions():
            try:
                act(fight, name, action)
            except TabletopError:
                continue
            found.append(Spend(character=cid, action=action))
    return found


def _spend(
    fight: Combat, name: str, intent: Spend | AttackIntent
) -> tuple[Combat, list[RulesEvent]]:
    """A basic action by name, a cost in (XnY) notation (RU-M16), or an attack at its
    weapon's speed (RU-M19)."""
    if isinstance(intent, AttackIntent):
        cost = action_cost(intent.speed)
        pick = action_cost(intent.pick).steps[0][0] if intent.pick else None
        return act(fight, name, cost, kind=ATTACK, choice=pick)
    basic = basic_named(intent.action)
    if basic is not None and not intent.attack:
        return act(fight, name, basic)
    if not any(ch.isdigit() for ch in intent.action):
        raise Ap2d6Error(
            f"{intent.action[:40]!r} is neither {_BASIC} "
            "nor a cost such as (2n2); an attack is paid at its weapon's speed (attack)"
        )
    cost = action_cost(intent.action)
    pick = action_cost(intent.pick).steps[0][0] if intent.pick else None
    kind = ATTACK if intent.attack else str(cost)
    return act(fight, name, cost, kind=kind, choice=pick)


def _sheet_view(sheet: Character, everything: bool) -> dict[str, Any]:
    """A sheet as one member sees it. Until the GM reveals it, a player sees of a death record
    their own rolls and whether to keep rolling, never the DC, a verdict or a margin, and of
    a downed character only that they are down until someone checks (RU-M37, RU-M38)."""
    data = sheet.model_dump(mode="json")
    data["public_life"] = sheet.public_life
    if everything:
        return data
    if sheet.life != "up" and not (sheet.life == "dead" and sheet.public_life == "dead"):
        data["life"] = hidden("how it goes while down, until someone checks")
    record = sheet.dying
    if record is not None:
        dying = data["dying"]
        dying["dc_roll"] = hidden("the GM's death DC")
        for mark in dying["checks"]:
            mark["success"] = hidden("the verdict against the DC")
            mark["margin"] = hidden("the margin")
        if record.end is not None and not record.revealed:
            dying["end"] = hidden("how it ended, until someone checks")
        for consequence in dying["consequences"]:
            consequence["margin"] = hidden("the margin")
    return data


def _told(
    events: list[RulesEvent], owners: Owners = NOBODY, subject: str | None = None
) -> list[Event]:
    """The rules' events in the protocol's shape: the GM's alone stay the GM's (RU-M37). A
    line that is a hidden NPC's own (it says whose, or it is of `subject`'s step and marks
    nobody's part) is told as its own (`npc_line`, RU-N05); a line that marks parts is
    settled by the session."""
    told = []
    for e in events:
        name = e.who or subject
        owner = owners.kept_id(name)
        text, hint, gm_only = e.summary, "", e.gm_only
        if name is not None and owner is not None and not kept.owners(text):
            text, hint, gm_only = npc_line(e, name, owner)
        told.append(
            Event(
                type=e.kind,
                text=text,
                data={**e.data, "dice": [d.model_dump(mode="json") for d in e.dice]},
                visibility=Visibility.GM if gm_only else Visibility.PUBLIC,
                hint=hint,
            )
        )
    return told


def _plain(event: Event) -> Event:
    """`event` with no part marked: a roll only its maker and the GM see keeps nothing."""
    return event.model_copy(update={"text": kept.plain(event.text)})


def _recovered(
    sheet: Character, intent: DeathCheckIntent | Heal | Rest, dice: DiceSource, options: Options
) -> tuple[Character, list[RulesEvent]]:
    """A death check out of a fight, healing or rest: what the character rolls for it."""
    if isinstance(intent, DeathCheckIntent):
        return health.death_check(sheet, dice, options=options)
    if isinstance(intent, Heal):
        return health.heal(sheet, intent.amount, dice, options=options)
    return health.rest(sheet, intent.hours, intent.recovery_dice, dice, options=options)


SESSION = Ap2d6Session()
