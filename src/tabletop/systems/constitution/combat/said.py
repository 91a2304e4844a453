"""Each choice of the fight as the articles say it: "Wren attacks the Abbey Warden
(§ 5.14)", "Ada pays 2 initiative for a natural reaction (§ 5.4)", for the offers a table
makes and the buttons a page shows."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tabletop.systems.constitution.combat.actions import (
    AnswerDirectHit,
    AnswerShield,
    AttackAction,
    Begin,
    Command,
    Defend,
    EndCombat,
    EndTurn,
    ExtraAction,
    ForceBout,
    Leave,
    LoseTrack,
    MoraleCheck,
    NextRound,
    React,
    ReleaseStored,
    Reorient,
    RollInitiative,
    Spend,
    SpendDegrees,
    Tactical,
)
from tabletop.systems.constitution.combat.state import (
    FORCED_BOUT_COST,
    SHIELD_AFTER_ROLL_COST,
    SUPERIOR_COST,
    Combat,
)
from tabletop.systems.constitution.models import Model
from tabletop.systems.constitution.options import Options

REACTIONS = {
    2: "a natural reaction: a shield raised, a warning shouted, a weapon drawn",
    5: "a reaction: an order to attack, a blow at a foe off guard",
    10: "a reaction: a riposte, an attack on a clear order",
}
"""The examples § 5.4 gives of each reaction's cost."""


def said(combat: Combat, action: Model, options: Options) -> str:
    """The choice in the words of the articles, naming who makes it and on whom."""
    name = _names(combat)
    saying = _SAYINGS.get(type(action))
    if saying is None:
        return str(getattr(action, "action", "a choice")).replace("_", " ")
    return saying(combat, action, name, options)


def _names(combat: Combat) -> Callable[[str | None], str]:
    def name(combatant_id: str | None) -> str:
        if combatant_id is None:
            return "nobody"
        return combat.get(combatant_id).name

    return name


def _roll_initiative(combat: Combat, a: Any, name: Any, options: Options) -> str:
    return f"{name(a.id)} rolls initiative: a d20 and wits (§ 5.1)"


def _begin(combat: Combat, a: Any, name: Any, options: Options) -> str:
    return "Begin the first round: turns from the highest initiative down (§ 5.1)"


def _end_turn(combat: Combat, a: Any, name: Any, options: Options) -> str:
    if a.superior:
        return f"{name(combat.acting)} takes −{SUPERIOR_COST} initiative for another turn (§ 5.3)"
    return f"{name(combat.acting)} ends the turn"


def _react(combat: Combat, a: Any, name: Any, options: Options) -> str:
    return f"{name(a.id)} pays {a.cost} initiative for {REACTIONS.get(a.cost, a.what)} (§ 5.4)"


def _extra_action(combat: Combat, a: Any, name: Any, options: Options) -> str:
    cost = options.extra_action_cost // 2 if a.bow else options.extra_action_cost
    bow = " with the bow (§ 7.8)" if a.bow else " (§ 5.2)"
    return f"{name(combat.acting)} pays {cost} initiative for an extra action{bow}"


def _command(combat: Combat, a: Any, name: Any, options: Options) -> str:
    followers = ", ".join(name(f) for f in a.followers)
    return f"{name(a.commander)} orders {followers} to act (§ 5.11)"


def _tactical(combat: Combat, a: Any, name: Any, options: Options) -> str:
    return f"{name(a.id)} takes the free tactical action: {a.what} (§ 7.3)"


def _attack(combat: Combat, a: Any, name: Any, options: Options) -> str:
    return f"{name(a.attacker)} attacks {name(a.target)} (§ 5.14)"


def _defend(combat: Combat, a: Any, name: Any, options: Options) -> str:
    if combat.acting == a.id:
        return f"{name(a.id)} defends actively for the rest of the round (§ 5.17)"
    return f"{name(a.id)} defends against the next attack, as a reaction (§ 5.17)"


def _spend_degrees(combat: Combat, a: Any, name: Any, options: Options) -> str:
    target = name(combat.unspent.target) if combat.unspent else "the foe"
    degrees = f"{a.degrees} extra degree{'s' if a.degrees > 1 else ''}"
    return f"{name(a.id)} spends {degrees} on {target}: {a.effect} (§ 5.19)"


def _release_stored(combat: Combat, a: Any, name: Any, options: Options) -> str:
    return f"{name(a.shooter)} lets a stored shot fly at {name(combat.last_damaged)} (§ 5.22)"


def _lose_track(combat: Combat, a: Any, name: Any, options: Options) -> str:
    return f"{name(a.shooter)} loses track of the target: the stored shots are lost (§ 5.22)"


def _answer_direct_hit(combat: Combat, a: Any, name: Any, options: Options) -> str:
    pending = combat.pending_direct_hit
    target = name(pending.target if pending else None)
    if a.pay and pending:
        return f"{target} pays {pending.price} HP to stop the direct hit (§ 6.12)"
    return f"{target} takes the direct hit and rolls the injury saves (§ 6.6)"


def _answer_shield(combat: Combat, a: Any, name: Any, options: Options) -> str:
    pending = combat.pending_shield
    target = name(pending.target if pending else None)
    if a.raise_shield:
        cost = SHIELD_AFTER_ROLL_COST
        return f"{target} pays {cost} initiative and raises a shield after the roll (§ 5.4)"
    return f"{target} lets the blow land"


def _morale(combat: Combat, a: Any, name: Any, options: Options) -> str:
    return f"{name(a.id)} checks morale: 2d6 at or under it holds (§ 5.13)"


def _leave(combat: Combat, a: Any, name: Any, options: Options) -> str:
    how = {"fled": "flees or gives up", "down": "is carried off", "dead": "dies"}[a.status]
    return f"{name(a.id)} {how} and leaves the fight"


def _reorient(combat: Combat, a: Any, name: Any, options: Options) -> str:
    return f"{name(a.id)} re-orients: initiative rolled again, only reactions next round (§ 5.6)"


def _spend(combat: Combat, a: Any, name: Any, options: Options) -> str:
    return f"{name(a.id)} pays {a.cost} initiative for {a.what} between rounds (§ 5.5)"


def _next_round(combat: Combat, a: Any, name: Any, options: Options) -> str:
    return f"Begin round {combat.round + 1}: a side demands it (§ 5.5)"


def _force_bout(combat: Combat, a: Any, name: Any, options: Options) -> str:
    return f"Force the bout on: everyone −{FORCED_BOUT_COST} initiative, no respite (§ 5.8)"


def _end_combat(combat: Combat, a: Any, name: Any, options: Options) -> str:
    return "End the fight"


_SAYINGS: dict[type[Model], Callable[[Combat, Any, Any, Options], str]] = {
    RollInitiative: _roll_initiative,
    Begin: _begin,
    EndTurn: _end_turn,
    React: _react,
    ExtraAction: _extra_action,
    Command: _command,
    Tactical: _tactical,
    AttackAction: _attack,
    Defend: _defend,
    SpendDegrees: _spend_degrees,
    ReleaseStored: _release_stored,
    LoseTrack: _lose_track,
    AnswerDirectHit: _answer_direct_hit,
    AnswerShield: _answer_shield,
    MoraleCheck: _morale,
    Leave: _leave,
    Reorient: _reorient,
    Spend: _spend,
    NextRound: _next_round,
    ForceBout: _force_bout,
    EndCombat: _end_combat,
}
