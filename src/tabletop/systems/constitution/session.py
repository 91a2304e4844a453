"""3d6 Constitution at a shared table: characters, checks with degrees, harm and rest, XP,
the initiative tracker of article 5, and the party's days on the road (articles 13 and 15)
as intents, events and views.

The fight is the combat machine itself: each combatant belongs to a member (the GM's unless
the GM gives it to a player), and that member, or the GM, makes its choices. The articles
hide little from the players; checks may be rolled in any roll mode. What the referee keeps
to themselves is the time of day and the encounter checks (§ 13.3, § 13.5; C3-A61).
"""

from __future__ import annotations

from typing import Any, Literal, get_args

from pydantic import Field

from tabletop.dice import DiceSource
from tabletop.errors import PermissionDenied
from tabletop.npcs import BookNpc, EditNpc, NewNpc, RemoveNpc, RevealNpc
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
    closed_offer,
    controls,
    in_mode,
    note,
    offer,
    owner_for,
)
from tabletop.systems.constitution.character import (
    ABILITIES,
    Character,
    award_xp,
    character_check,
)
from tabletop.systems.constitution.combat import (
    Action,
    Add,
    AnswerDirectHit,
    AnswerShield,
    Combat,
    Combatant,
    EndTurn,
    ExtraAction,
    apply,
    legal_actions,
)
from tabletop.systems.constitution.creation import new_character
from tabletop.systems.constitution.errors import ConstitutionError
from tabletop.systems.constitution.health import good_night, short_rest, take_damage
from tabletop.systems.constitution.initiations import catalogue
from tabletop.systems.constitution.models import build
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
from tabletop.systems.constitution.sheet_edits import SheetAction, act, carrying, sheet_offers
from tabletop.systems.constitution.table import ConstitutionTable, Seat
from tabletop.systems.constitution.table_npcs import (
    EXAMPLE,
    ROSTER,
    NpcJoinsFight,
    NpcStats,
    bestiary,
    combatant,
    fight_view,
    in_fight,
    kept_names,
    made,
    secret_ids,
    taken_from_fight,
    written_back,
)
from tabletop.systems.constitution.told import protocol_events

MAX_CHARACTERS = 100

ACTIONS: tuple[str, ...] = tuple(
    shape.model_fields["action"].default for shape in get_args(get_args(Action)[0])
)
"""Every choice of the fight, in the order the tracker lists them."""

GM_ACTIONS = ("begin", "next_round", "force_bout", "end_combat", "add")
"""Choices that move the whole fight along, or bring someone into it: the GM's."""


# intents ----------------------------------------------------------------------------------

Id = str


class NewCharacter(Frozen):
    """A level-1 character: 3d6 in order for each ability, then hit points (§ 4)."""

    kind: Literal["new-character"] = "new-character"
    name: str = Field(default="Nameless", min_length=1, max_length=MAX_NAME)
    character_class: Literal["fighter", "sage", "adventurer"] | None = None
    initiation: str | None = Field(default=None, max_length=60)
    owner: str | None = None


class CheckIntent(Frozen):
    """A check of an ability (skill-scaled if named) with every bonus that applies (§ 3)."""

    kind: Literal["check"] = "check"
    character: Id
    ability: Literal["strength", "wits", "knowledge", "will", "charisma"]
    dc: int = Field(default=20, ge=-1000, le=1000)
    skill: str | None = Field(default=None, max_length=60)
    modifier: int = Field(default=0, ge=-1000, le=1000)
    advantage: int = Field(default=0, ge=0, le=20)
    disadvantage: int = Field(default=0, ge=0, le=20)
    mode: RollMode = RollMode.PUBLIC


class Damage(Frozen):
    """Damage off HP; past 0 the overflow raises the injury DC (§ 5.18, § 6.6)."""

    kind: Literal["damage"] = "damage"
    character: Id
    amount: int = Field(ge=0, le=10_000)


class Rest(Frozen):
    """A short rest (HP re-rolled, a point of fatigue) or a good night's sleep (§ 6.4–6.5)."""

    kind: Literal["rest"] = "rest"
    character: Id
    night: bool = False


class AwardXp(Frozen):
    kind: Literal["award-xp"] = "award-xp"
    character: Id
    amount: int = Field(ge=0, le=10_000_000)
    reason: str = Field(default="the session", max_length=MAX_NAME)


class JoinFight(Frozen):
    """A seated character steps into the fight being set up, played by their owner."""

    kind: Literal["join-fight"] = "join-fight"
    character: Id
    side: str = Field(default="party", min_length=1, max_length=30)
    ac: int = Field(default=20, ge=0, le=60)


class CombatIntent(Frozen):
    """One choice of the initiative tracker; `controller` gives a combatant brought in with
    `add` to a player."""

    kind: Literal["combat"] = "combat"
    action: Action
    controller: str | None = None


class ConstitutionSession(Session[ConstitutionTable]):
    name = "constitution"
    version = 2
    """2: a hidden NPC's numbers are kept part by part, each line's own (C3-N05)."""
    state = ConstitutionTable
    error = ConstitutionError
    explained = frozenset(intent.model_fields["kind"].default for intent in SHEET_INTENTS)
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
        BookNpc,
        NewNpc[NpcStats],
        EditNpc,
        RemoveNpc,
        RevealNpc,
        NpcJoinsFight,
    )

    # offers -------------------------------------------------------------------------------

    def offers(self, state: ConstitutionTable, member: Member) -> list[Offer]:
        found: list[Offer] = []
        if len(state.characters) < MAX_CHARACTERS:
            found += [
                offer(
                    "new-character",
                    "roll up a character",
                    name=Choice(help="the character's name", example="Ada"),
                    character_class=Choice(values=(None, "fighter", "sage", "adventurer")),
                ),
                offer("import-character", "bring a saved sheet", sheet=Choice(help="the sheet")),
            ]
        mine = tuple(c for c, seat in state.characters.items() if controls(member, seat.owner))
        if mine:
            found += [
                offer(
                    "check",
                    "check an ability",
                    character=Choice(values=mine),
                    ability=Choice(values=ABILITIES),
                    dc=Choice(help="the DC; 20 is normal", example=20),
                    mode=Choice(values=tuple(RollMode)),
                ),
                offer(
                    "rest",
                    "rest",
                    character=Choice(values=mine),
                    night=Choice(values=(False, True)),
                ),
            ]
        for cid in mine:
            found += sheet_offers(cid, state.characters[cid].sheet)
        found += road_offers(state, member, mine)
        outside = tuple(c for c in mine if not _in_fight(state, c))
        if outside and state.fight.phase in ("setup", "between_rounds"):
            found.append(
                offer(
                    "join-fight",
                    "step into the fight",
                    character=Choice(values=outside),
                    side=Choice(values=("party", "foes")),
                )
            )
        if member.is_gm and state.characters:
            everyone = tuple(state.characters)
            found += [
                offer(
                    "damage",
                    "harm a character",
                    character=Choice(values=everyone),
                    amount=Choice(help="damage", example=4),
                ),
                offer(
                    "award-xp",
                    "award XP",
                    character=Choice(values=everyone),
                    amount=Choice(help="XP", example=100),
                ),
            ]
        if member.is_gm:
            found += self._npc_offers(state)
        return found + self._fight_offers(state, member)

    def _npc_offers(self, state: ConstitutionTable) -> list[Offer]:
        """The referee's NPCs: bring, change, take away, show; and step one into the fight."""
        found = ROSTER.offers(state.npcs, EXAMPLE, bestiary())
        waiting = tuple(nid for nid in state.npcs if nid not in in_fight(state.fight))
        if waiting and state.fight.phase in ("setup", "between_rounds"):
            found.append(
                offer(
                    "npc-joins-fight",
                    "an NPC steps into the fight",
                    npc=Choice(values=waiting),
                    side=Choice(values=("foes", "party")),
                )
            )
        return found

    def why_not(self, state: ConstitutionTable, intent: Any, member: Member) -> str:
        return why_not_on_the_road(state, intent["kind"])

    def _fight_offers(self, state: ConstitutionTable, member: Member) -> list[Offer]:
        if state.fight.phase == "over":
            return []
        legal = [
            a for a in legal_actions(state.fight, state.options) if self._may(state, member, a)
        ]
        wrapped = [CombatIntent(action=a) for a in legal]
        found = [o for o in [closed_offer("combat", "a choice of the fight", wrapped)] if o]
        shapes = _detailed(state, member, legal)
        if shapes and (
            member.is_gm
            or any(
                controller == member.id and state.fight.get(cid).fighting
                for cid, controller in state.controllers.items()
            )
        ):
            found.append(
                offer(
                    "combat",
                    "a choice of the fight with its details (an attack's modifiers, a cost)",
                    action=Choice(
                        help="the action",
                        example=legal[0].model_dump(mode="json")
                        if legal
                        else {"action": shapes[0]},
                        shapes=shapes,
                    ),
                )
            )
        return found

    def _may(self, state: ConstitutionTable, member: Member, action: Any) -> bool:
        """Whether `member` makes this choice: the GM any, a player those of their own."""
        if member.is_gm:
            return True
        actor = _actor(state.fight, action)
        return actor is not None and state.controllers.get(actor) == member.id

    # the rules ----------------------------------------------------------------------------

    def apply(
        self, state: ConstitutionTable, intent: Any, member: Member, dice: DiceSource
    ) -> tuple[ConstitutionTable, list[Event]]:
        options = state.options
        if isinstance(intent, NewCharacter | ImportCharacter):
            return self._seat(state, intent, member, dice)
        if isinstance(intent, CombatIntent):
            return self._combat(state, intent, member, dice)
        if isinstance(intent, JoinFight):
            return self._join(state, intent, member, dice)
        if isinstance(intent, BookNpc | NewNpc | EditNpc | RemoveNpc | RevealNpc | NpcJoinsFight):
            return self._npcs(state, intent, dice)
        if isinstance(intent, March):
            return march(state, intent, dice)
        if isinstance(intent, Camp):
            return camp(state, intent, dice)
        if isinstance(intent, Explore):
            return explore(state, intent, dice)
        seat = state.characters.get(intent.character)
        if seat is None:
            raise ConstitutionError(f"no character {intent.character!r} at this table")
        sheet = seat.sheet
        if isinstance(intent, HuntIntent | Rations | LightIntent):
            return on_the_road(state, intent, member, dice)
        if isinstance(intent, CheckIntent):
            result = character_check(
                sheet,
                intent.ability,
                intent.dc,
                dice,
                skill=intent.skill,
                modifier=intent.modifier + seat.penalty(options),
                advantage=intent.advantage,
                disadvantage=intent.disadvantage,
                options=options,
            )
            text = f"{sheet.name} checks {intent.ability}: {result.describe()}"
            told = note("check", text, **result.model_dump(mode="json"), success=result.success)
            return state, [in_mode(told, intent.mode, member.name or member.id)]
        if isinstance(intent, SheetAction):
            sheet, events = act(sheet, intent, dice, options)
        elif isinstance(intent, Damage):
            sheet, _, events = take_damage(sheet, intent.amount, dice, options=options)
        elif isinstance(intent, Rest):
            if intent.night:
                sheet, events = good_night(sheet, dice)
            else:
                sheet, events = short_rest(sheet, dice, options=options)
        else:
            sheet, events = award_xp(sheet, intent.amount, intent.reason, options)
        seats = {**state.characters, intent.character: seat.model_copy(update={"sheet": sheet})}
        return state.model_copy(update={"characters": seats}), protocol_events(events)

    def _seat(
        self,
        state: ConstitutionTable,
        intent: NewCharacter | ImportCharacter,
        member: Member,
        dice: DiceSource,
    ) -> tuple[ConstitutionTable, list[Event]]:
        owner = owner_for(intent.owner, member)
        if isinstance(intent, ImportCharacter):
            sheet, events = build(Character, intent.sheet), []
        else:
            if intent.initiation is not None and intent.initiation not in catalogue():
                known = ", ".join(sorted(catalogue()))
                raise ConstitutionError(f"unknown initiation {intent.initiation!r}; known: {known}")
            sheet, events = new_character(
                intent.name, dice, intent.character_class, intent.initiation
            )
        cid = f"c{state.next_id}"
        seats = {**state.characters, cid: Seat(owner=owner, sheet=sheet)}
        joined = note("character", f"{sheet.name} joins the table", character=cid, owner=owner)
        after = state.model_copy(update={"characters": seats, "next_id": state.next_id + 1})
        return after, [*protocol_events(events), joined]

    def _combat(
        self, state: ConstitutionTable, intent: CombatIntent, member: Member, dice: DiceSource
    ) -> tuple[ConstitutionTable, list[Event]]:
        action = intent.action
        if not self._may(state, member, action):
            raise PermissionDenied(f"{action.action}: not {member.name or member.id}'s choice")
        if intent.controller is not None and not isinstance(action, Add):
            raise ConstitutionError("only a combatant being added is given to a player")
        fight, events = apply(state.fight, action, dice, state.options)
        controllers = dict(state.controllers)
        if isinstance(action, Add) and intent.controller is not None:
            controllers[action.combatant.id] = intent.controller
        npcs = written_back(state.npcs, fight)
        after = state.model_copy(update={"fight": fight, "controllers": controllers, "npcs": npcs})
        return after, protocol_events(events, secret_ids(state.npcs))

    def _join(
        self, state: ConstitutionTable, intent: JoinFight, member: Member, dice: DiceSource
    ) -> tuple[ConstitutionTable, list[Event]]:
        seat = state.characters.get(intent.character)
        if seat is None:
            raise ConstitutionError(f"no character {intent.character!r} at this table")
        if not controls(member, seat.owner):
            raise PermissionDenied(f"{seat.sheet.name} is not {member.name or member.id}'s")
        fighter = Combatant.of(seat.sheet, side=intent.side, ac=intent.ac)
        fight, events = apply(state.fight, Add(combatant=fighter), dice, state.options)
        controllers = {**state.controllers, fighter.id: seat.owner}
        after = state.model_copy(update={"fight": fight, "controllers": controllers})
        return after, protocol_events(events)

    def _npcs(
        self,
        state: ConstitutionTable,
        intent: BookNpc | NewNpc[NpcStats] | EditNpc | RemoveNpc | RevealNpc | NpcJoinsFight,
        dice: DiceSource,
    ) -> tuple[ConstitutionTable, list[Event]]:
        """The referee's NPCs: the book's humans or typed in, changed, taken away, shown, and
        stepped into the fight as the GM's combatants (C3-N01..N05)."""
        if isinstance(intent, NpcJoinsFight):
            kept = ROSTER.kept(state.npcs, intent.npc)
            fighter = combatant(intent.npc, kept, intent.side)
            fight, events = apply(state.fight, Add(combatant=fighter), dice, state.options)
            return state.model_copy(update={"fight": fight}), protocol_events(events)
        if isinstance(intent, BookNpc | NewNpc):
            if isinstance(intent, BookNpc):
                creature = bestiary().creature(intent.creature, ConstitutionError)
                npc = made(intent.name or creature.name, creature.stats, dice, creature.name)
            else:
                npc = made(intent.name, intent.stats, dice)
            npcs, counter, events = ROSTER.add(state.npcs, state.next_npc, npc, state.names)
            return state.model_copy(update={"npcs": npcs, "next_npc": counter}), events
        fight = state.fight
        if isinstance(intent, RemoveNpc):
            fight = taken_from_fight(fight, intent.npc)
        npcs, events = ROSTER.change(state.npcs, intent, state.names)
        return state.model_copy(update={"npcs": npcs, "fight": fight}), events

    # views --------------------------------------------------------------------------------

    def kept_from_players(self, state: ConstitutionTable) -> dict[str, str]:
        return kept_names(state.npcs, state.fight)

    def view(self, state: ConstitutionTable, member: Member) -> dict[str, Any]:
        return {
            "system": self.name,
            "options": state.options.model_dump(mode="json"),
            "characters": [
                {
                    "id": cid,
                    "owner": seat.owner,
                    "sheet": seat.sheet.model_dump(mode="json"),
                    "supplies": seat.supplies.model_dump(mode="json"),
                    "deprivation": seat.deprivation.model_dump(mode="json"),
                    "penalty": seat.penalty(state.options),
                    "carrying": carrying(seat.sheet, state.options),
                }
                for cid, seat in state.characters.items()
            ],
            "fight": fight_view(state.fight, state.npcs, member),
            "controllers": state.controllers,
            "clock": clock_view(state.clock, member),
            "npcs": ROSTER.view(state.npcs, member),
        }


# helpers ----------------------------------------------------------------------------------


def _in_fight(state: ConstitutionTable, cid: str) -> bool:
    """Whether a seated character has stepped into the fight (as its own combatant)."""
    joined = Combatant.of(state.characters[cid].sheet).id
    return any(c.id == joined for c in state.fight.combatants)


def _detailed(state: ConstitutionTable, member: Member, legal: list[Any]) -> tuple[str, ...]:
    """The fight's choices the detailed form offers `member` now: each one open (its
    details free), and what no list can give: a combatant brought in by the GM and an
    initiative typed in before a round, a spell declared between rounds (§ 5.1, § 5.5)."""
    open_now = {a.action for a in legal}
    phase = state.fight.phase
    if phase in ("setup", "between_rounds"):
        open_now |= {"add"} if member.is_gm else set()
        own = [c for c in state.fight.combatants if c.fighting and _may_id(state, member, c.id)]
        open_now |= {"set_initiative"} if own else set()
        open_now |= {"declare_spell"} if own and phase == "between_rounds" else set()
    return tuple(a for a in ACTIONS if a in open_now)


def _may_id(state: ConstitutionTable, member: Member, cid: str) -> bool:
    return member.is_gm or state.controllers.get(cid) == member.id


def _actor(fight: Combat, action: Any) -> str | None:
    """The combatant whose choice `action` is; None for the GM's own (the fight's pace)."""
    if action.action in GM_ACTIONS:
        return None
    if isinstance(action, EndTurn | ExtraAction):
        return fight.acting
    if isinstance(action, AnswerDirectHit):
        return fight.pending_direct_hit.target if fight.pending_direct_hit else None
    if isinstance(action, AnswerShield):
        return fight.pending_shield.target if fight.pending_shield else None
    for field in ("id", "attacker", "shooter", "commander"):
        if hasattr(action, field):
            return str(getattr(action, field))
    return None


SESSION = ConstitutionSession()
