"""The fight at a 3d6 Constitution table (article 5): characters and the referee's NPCs step
into the initiative tracker, each combatant's member (or the GM) makes its choices, each
offered as the articles say it, and what the fight does to a character is written on their
sheet. A fight that ends clears the tracker for the next one: a table has many fights.
"""

from __future__ import annotations

from typing import Any, Literal, get_args

from pydantic import Field

from tabletop.dice import DiceSource
from tabletop.errors import PermissionDenied
from tabletop.offers import Choice, Offer, closed_offer, offer
from tabletop.session import CharacterIntent, Event, Frozen, Member, controls
from tabletop.systems.constitution.character import Character, Wound
from tabletop.systems.constitution.combat import (
    Action,
    Add,
    AnswerDirectHit,
    AnswerShield,
    Combat,
    Combatant,
    EndTurn,
    ExtraAction,
    Leave,
    LoseTrack,
    MoraleCheck,
    SetInitiative,
    apply,
    legal_actions,
)
from tabletop.systems.constitution.errors import ConstitutionError
from tabletop.systems.constitution.health import SHALLOW_CUT
from tabletop.systems.constitution.levers import held_back
from tabletop.systems.constitution.table import ConstitutionTable
from tabletop.systems.constitution.table_npcs import (
    ROSTER,
    NpcJoinsFight,
    combatant,
    in_fight,
    secret_ids,
    written_back,
)
from tabletop.systems.constitution.told import protocol_events

ACTIONS: tuple[str, ...] = tuple(
    shape.model_fields["action"].default for shape in get_args(get_args(Action)[0])
)
"""Every choice of the fight, in the order the tracker lists them."""

GM_ACTIONS = ("begin", "next_round", "force_bout", "end_combat", "add")
"""Choices that move the whole fight along, or bring someone into it: the GM's."""

MAJOR_WOUND = Wound(
    severity="major", description="a major wound the referee describes", until="the referee says"
)
"""What a major wound taken in the fight writes on the sheet (§ 6.10): the referee's words."""

ANYTIME = (Leave, MoraleCheck, LoseTrack)
"""The fight's choices open to any fighter whoever's turn it is, offered after the turn's own
(the screen shows what the turn asks first, § 5)."""


class JoinFight(CharacterIntent):
    """A seated character steps into the fight being set up, played by their owner."""

    kind: Literal["join-fight"] = "join-fight"
    side: str = Field(default="party", min_length=1, max_length=30)
    ac: int = Field(default=20, ge=0, le=60)


class CombatIntent(Frozen):
    """One choice of the initiative tracker; `controller` gives a combatant brought in with
    `add` to a player."""

    kind: Literal["combat"] = "combat"
    action: Action
    controller: str | None = None


# offers -----------------------------------------------------------------------------------


def fight_offers(state: ConstitutionTable, member: Member, mine: tuple[str, ...]) -> list[Offer]:
    """Stepping into the fight, and the choices of the fight open to `member` now as one
    list; the detailed form for what no list can hold."""
    found = []
    setting_up = state.fight.phase in ("setup", "between_rounds")
    outside = tuple(c for c in mine if c not in state.fighters.values())
    if outside and setting_up:
        found.append(
            offer(
                "join-fight",
                "step into the fight",
                character=Choice(values=outside),
                side=Choice(values=("party", "foes")),
            )
        )
    waiting = tuple(nid for nid in state.npcs if nid not in in_fight(state.fight))
    if member.is_gm and waiting and setting_up:
        found.append(
            offer(
                "npc-joins-fight",
                "an NPC steps into the fight",
                npc=Choice(values=waiting),
                side=Choice(values=("foes", "party")),
            )
        )
    legal = [a for a in legal_actions(state.fight, state.options) if may(state, member, a)]
    anytime = [a for a in legal if isinstance(a, ANYTIME)]
    for text, actions in (
        ("a choice of the fight", [a for a in legal if not isinstance(a, ANYTIME)]),
        ("at any moment of the fight: leave it, a morale check, a lost shot", anytime),
    ):
        choices = closed_offer("combat", text, [CombatIntent(action=a) for a in actions])
        found += [choices] if choices else []
    shapes = _detailed(state, member, legal)
    if shapes and (member.is_gm or _plays_a_fighter(state, member)):
        found.append(
            offer(
                "combat",
                in_full(shapes),
                action=Choice(
                    help="the choice, then what it needs",
                    example=next(
                        (a.model_dump(mode="json") for a in legal if a.action in shapes),
                        {"action": shapes[0]},
                    ),
                    shapes=shapes,
                ),
            )
        )
    return found


IN_FULL = {
    "add": "bring someone in by hand",
    "roll_initiative": "roll initiative with a bonus or surprise",
    "set_initiative": "type in an initiative",
    "declare_spell": "declare a spell for the round",
}
"""What the detailed form does with each choice of the fight that needs more than a button,
in a player's words; any other open then is a blow, a shot or a reaction."""


def in_full(shapes: tuple[str, ...]) -> str:
    """The detailed form's title: what it does with the choices open now, not its fields."""
    said = [IN_FULL[shape] for shape in shapes if shape in IN_FULL]
    if any(shape not in IN_FULL for shape in shapes):
        said.append("attack, defend or react with a modifier, a shot or what it costs")
    return f"choose in full: {', '.join(said)}"


def _plays_a_fighter(state: ConstitutionTable, member: Member) -> bool:
    return any(
        controller == member.id and state.fight.get(cid).fighting
        for cid, controller in state.controllers.items()
    )


def _detailed(state: ConstitutionTable, member: Member, legal: list[Any]) -> tuple[str, ...]:
    """The fight's choices the detailed form offers `member` now: each one open (its
    details free), and what no list can give: a combatant brought in and an initiative
    typed in before a round by the GM (C3-S09), a spell declared between rounds (§ 5.1,
    § 5.5)."""
    open_now = {a.action for a in legal}
    if not (member.is_gm or state.options.players_set_difficulty):
        open_now -= {"roll_initiative"}  # its bonus and surprise are the GM's (C3-S07)
    phase = state.fight.phase
    if phase in ("setup", "between_rounds"):
        open_now |= {"add"} if member.is_gm else set()
        own = [c for c in state.fight.combatants if c.fighting and _may_id(state, member, c.id)]
        open_now |= {"set_initiative"} if own and member.is_gm else set()
        open_now |= {"declare_spell"} if own and phase == "between_rounds" else set()
    return tuple(a for a in ACTIONS if a in open_now)


def may(state: ConstitutionTable, member: Member, action: Any) -> bool:
    """Whether `member` makes this choice: the GM any, a player those of their own."""
    if member.is_gm:
        return True
    actor = _actor(state.fight, action)
    return actor is not None and state.controllers.get(actor) == member.id


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


# the rules --------------------------------------------------------------------------------


def fight_step(
    state: ConstitutionTable, intent: CombatIntent, member: Member, dice: DiceSource
) -> tuple[ConstitutionTable, list[Event]]:
    """One choice of the fight, by whoever may make it."""
    action = intent.action
    if not may(state, member, action):
        raise PermissionDenied(f"that choice of the fight is not {member.name or member.id}'s")
    refused = held_back(intent.model_dump(mode="json"), member, state.options)
    if refused is not None:
        raise PermissionDenied(refused)
    if isinstance(action, SetInitiative) and not member.is_gm:
        raise PermissionDenied(
            "a player's initiative is rolled by the table, 1d20 + wits (§ 5.1): "
            "only the GM types one in"
        )
    if intent.controller is not None and not isinstance(action, Add):
        raise ConstitutionError("only a combatant being added is given to a player")
    fight, events = apply(state.fight, action, dice, state.options)
    controllers = dict(state.controllers)
    if isinstance(action, Add) and intent.controller is not None:
        controllers[action.combatant.id] = intent.controller
    changed = state.model_copy(update={"controllers": controllers})
    return _after(changed, fight), protocol_events(events, secret_ids(state.npcs))


def join_fight(
    state: ConstitutionTable, intent: JoinFight, member: Member, dice: DiceSource
) -> tuple[ConstitutionTable, list[Event]]:
    """A seated character steps into the fight, played by the one who plays them."""
    seat = state.characters.get(intent.character)
    if seat is None:
        raise ConstitutionError(f"no character {intent.character!r} at this table")
    if not controls(member, seat.owner):
        raise PermissionDenied(f"{seat.sheet.name} is not {member.name or member.id}'s")
    if intent.character in state.fighters.values():
        raise ConstitutionError(f"{seat.sheet.name} is in the fight already")
    fighter = _unique(Combatant.of(seat.sheet, side=intent.side, ac=intent.ac), state.fight)
    fight, events = apply(state.fight, Add(combatant=fighter), dice, state.options)
    after = state.model_copy(
        update={
            "fight": fight,
            "controllers": {**state.controllers, fighter.id: seat.owner},
            "fighters": {**state.fighters, fighter.id: intent.character},
        }
    )
    return after, protocol_events(events)


def _unique(fighter: Combatant, fight: Combat) -> Combatant:
    """`fighter` under an id no combatant holds yet: two characters may share a name, or
    the GM may have brought someone in under it ('Nameless', then 'Nameless2')."""
    taken = {c.id for c in fight.combatants}
    if fighter.id not in taken:
        return fighter
    stem = fighter.id[:21]
    free = next(f"{stem}{n}" for n in range(2, 1000) if f"{stem}{n}" not in taken)
    return fighter.model_copy(update={"id": free})


def npc_joins_fight(
    state: ConstitutionTable, intent: NpcJoinsFight, dice: DiceSource
) -> tuple[ConstitutionTable, list[Event]]:
    """A kept NPC steps into the fight as the GM's combatant, under its NPC id (C3-N05)."""
    fighter = combatant(intent.npc, ROSTER.kept(state.npcs, intent.npc), intent.side)
    fight, events = apply(state.fight, Add(combatant=fighter), dice, state.options)
    return state.model_copy(update={"fight": fight}), protocol_events(events)


def _after(state: ConstitutionTable, fight: Combat) -> ConstitutionTable:
    """The table once the fight has moved on: what it did to each NPC and character written
    back (C3-N06, C3-A64), and, once it is over, a clear tracker for the next fight."""
    seats = dict(state.characters)
    for fighter_id, cid in state.fighters.items():
        seat = seats[cid]
        sheet = _marked(seat.sheet, state.fight.get(fighter_id), fight.get(fighter_id))
        seats[cid] = seat.model_copy(update={"sheet": sheet})
    kept = written_back(state.npcs, fight)
    if fight.phase == "over":
        return state.model_copy(
            update={
                "characters": seats,
                "npcs": kept,
                "fight": Combat(),
                "controllers": {},
                "fighters": {},
            }
        )
    return state.model_copy(update={"characters": seats, "npcs": kept, "fight": fight})


def _marked(sheet: Character, before: Combatant, after: Combatant) -> Character:
    """The sheet with what one step of the fight did to its character: the HP lost or paid,
    wounds taken, a collapse or death (§ 5.18, § 6.6–6.11)."""
    if before == after:
        return sheet
    minor = after.minor_wounds - before.minor_wounds
    major = after.major_wound_marks - before.major_wound_marks
    return sheet.evolve(
        hp=max(0, sheet.hp + after.hp - before.hp),
        wounds=(*sheet.wounds, *[SHALLOW_CUT] * minor, *[MAJOR_WOUND] * major),
        major_wound_marks=sheet.major_wound_marks + major,
        dead=sheet.dead or after.status == "dead",
        standing=sheet.standing and after.status not in ("down", "dead"),
    )
