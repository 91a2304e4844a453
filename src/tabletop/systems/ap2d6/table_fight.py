"""A fight at a 2d6 table: Initiative Rules B on the AP tracker (§ Action Points, § Initiative
Rules B). The GM starts rounds; each character's player spends their AP, waits, interrupts
and makes death checks; the GM gives or takes AP and ends the fight."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from tabletop.dice import DiceSource
from tabletop.errors import PermissionDenied, TabletopError
from tabletop.offers import Choice, Offer, closed_offer, offer
from tabletop.session import CharacterIntent, Event, Frozen, Member, note
from tabletop.systems.ap2d6.costs import action_cost, basic_actions, basic_named
from tabletop.systems.ap2d6.errors import Ap2d6Error, validated
from tabletop.systems.ap2d6.events import Event as RulesEvent
from tabletop.systems.ap2d6.rounds import (
    Combat,
    act,
    begin_round,
    end_fight,
    interrupt,
    order,
    start_main_phase,
    tracker_change,
)
from tabletop.systems.ap2d6.table import (
    MAX_CHARACTERS,
    Ap2d6Table,
    Id,
    fight_of,
    in_fight,
    sheet_of,
    with_fight,
    with_sheet,
)
from tabletop.systems.ap2d6.told import told
from tabletop.systems.ap2d6.tracker import ATTACK


class StartFight(Frozen):
    kind: Literal["start-fight"] = "start-fight"
    characters: tuple[Id, ...] = Field(min_length=1, max_length=MAX_CHARACTERS)


class NextRound(Frozen):
    """The round begins: effects, statuses, then the Main Phase (RU-M25)."""

    kind: Literal["next-round"] = "next-round"


class Spend(CharacterIntent):
    """Pay for an action: a basic action by name, or any (XnY) cost (RU-M16..M19)."""

    kind: Literal["spend"] = "spend"
    action: str = Field(min_length=1, max_length=80)
    attack: bool = False
    """An attack: every attack this round shares one escalating count (RU-M19)."""
    pick: str | None = Field(default=None, max_length=40)
    """For a cost with a choice, e.g. `(2n3 or 3n1)`: the one paid."""


class AttackIntent(CharacterIntent):
    """An attack, paid at its weapon's speed (its basic attack AP cost): every attack this
    round shares one escalating count (§ Attacking using AP, RU-M19, RU-A48)."""

    kind: Literal["attack"] = "attack"
    speed: str = Field(min_length=1, max_length=80)
    """The weapon's speed, e.g. (1n1)->(2n1)."""
    pick: str | None = Field(default=None, max_length=40)
    """For a speed with a choice, e.g. `(2n3 or 3n1)`: the one paid."""


class TrackerChange(CharacterIntent):
    """Gain, lose or get temp AP (the GM's calls), or wait (RU-M20..M23)."""

    kind: Literal["tracker"] = "tracker"
    change: Literal["gain", "lose", "temp", "wait"]


class Interrupt(CharacterIntent):
    """An initiative contest to act before another (RU-M27)."""

    kind: Literal["interrupt"] = "interrupt"
    target: Id
    tagged: bool = False


class Order(Frozen):
    """Who goes first among characters acting at the same moment (RU-M26)."""

    kind: Literal["order"] = "order"
    characters: tuple[Id, ...] = Field(min_length=1, max_length=MAX_CHARACTERS)


class EndFight(Frozen):
    kind: Literal["end-fight"] = "end-fight"


GM_CHANGES = ("gain", "lose", "temp")
FightIntent = StartFight | NextRound | EndFight | Interrupt | Order
PayIntent = Spend | AttackIntent | TrackerChange

_BASIC = f"a basic action ({', '.join(a.label for a in basic_actions().values())})"


def fight_offers(state: Ap2d6Table, member: Member, mine: tuple[str, ...]) -> list[Offer]:
    """What the member's characters in the fight may do now: pay for an action or an
    attack, wait, act first, order those acting at once."""
    fight = state.fight
    if fight is None or fight.phase == "not-started":
        return []
    acting = tuple(
        c
        for c in mine
        if in_fight(fight, state.characters[c].sheet.name)
        and fight.character(state.characters[c].sheet.name).life == "up"
    )
    if not acting:
        return []
    fighters = tuple(c for c in state.characters if in_fight(fight, state.characters[c].sheet.name))
    basic = _affordable(state, fight, acting)
    # Only what the rules can grant: paying with AP left to spend, waiting before any
    # is spent (a player's; the GM's tracker changes stay open), acting before someone
    # else's action.
    paying = tuple(c for c in acting if may_pay(state, fight, c))
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


def round_offers(state: Ap2d6Table) -> list[Offer]:
    """The GM's: start a fight, start each round, end it."""
    everyone = tuple(state.characters)
    if state.fight is None:
        if not everyone:
            return []
        return [
            offer(
                "start-fight",
                "start a fight",
                characters=Choice(help="who is in it", example=list(everyone)),
            )
        ]
    found = [offer("next-round", "start the next round")]
    if state.fight.phase != "not-started":
        found.append(offer("end-fight", "end the fight"))
    return found


def why_not_in_fight(state: Ap2d6Table, kind: str) -> str:
    if kind in ("spend", "interrupt", "tracker") and state.fight is None:
        return "there is no fight under way"
    return "not open to you now"


def pay_step(
    state: Ap2d6Table, intent: PayIntent, member: Member
) -> tuple[Ap2d6Table, list[Event]]:
    """A character in the fight pays for an action or an attack, or their tracker changes."""
    sheet = sheet_of(state, intent.character)
    fight = fight_of(state, sheet.name)
    if fight is None:
        raise Ap2d6Error(f"{sheet.name} is not in a fight")
    if isinstance(intent, TrackerChange):
        if intent.change in GM_CHANGES and not member.is_gm:
            raise PermissionDenied(f"only the GM gives or takes AP ({intent.change})")
        fight, events = tracker_change(fight, sheet.name, intent.change, state.options)
    else:
        fight, events = _spend(fight, sheet.name, intent)
    return with_fight(state, fight), told(events, state.owners, sheet.name)


def fight_step(
    state: Ap2d6Table, intent: FightIntent, dice: DiceSource
) -> tuple[Ap2d6Table, list[Event]]:
    """The fight itself: started, a round begun, an order or an interrupt settled, ended."""
    if isinstance(intent, StartFight):
        if len(set(intent.characters)) != len(intent.characters):
            raise Ap2d6Error("each character joins the fight once")
        sheets = tuple(sheet_of(state, cid) for cid in intent.characters)
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
        return with_fight(state, fight), told(events + more, owners)
    if isinstance(intent, Order):
        names = [sheet_of(state, cid).name for cid in intent.characters]
        ordered, events = order(fight, names, dice, state.options, owners)
        return state, [
            *told(events, owners),
            note("order", "in order: " + ", ".join(ordered), order=ordered),
        ]
    if isinstance(intent, Interrupt):
        who, whom = sheet_of(state, intent.character).name, sheet_of(state, intent.target).name
        fight, _, events = interrupt(
            fight, who, whom, dice, tagged=intent.tagged, options=state.options, owners=owners
        )
        return with_fight(state, fight), told(events, owners)
    after, events = end_fight(fight)
    state = with_fight(state, fight).model_copy(update={"fight": None, "strikes": {}})
    for sheet in after:
        state = with_sheet(state, state.id_of(sheet.name), sheet)
    return state, told(events)


def may_pay(state: Ap2d6Table, fight: Combat, cid: str) -> bool:
    """Whether a character has AP to spend now (RU-M18): none while waiting."""
    tracker = fight.character(state.characters[cid].sheet.name).tracker
    return not tracker.waiting and tracker.spendable > 0


def _may_wait(state: Ap2d6Table, fight: Combat, cid: str) -> bool:
    """Whether a character may still wait this round (RU-M23): not waiting already, and no
    AP spent yet unless the table's option allows waiting after acting."""
    tracker = fight.character(state.characters[cid].sheet.name).tracker
    return not tracker.waiting and (not tracker.acted or state.options.wait_after_acting)


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
