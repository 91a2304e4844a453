"""Spending initiative during a round: reactions, extra actions, orders, tactical actions
(§ 5.2, § 5.4, § 5.11, § 7.3, § 7.8)."""

from __future__ import annotations

from tabletop.dice import DiceSource
from tabletop.systems.constitution.combat.actions import (
    Command,
    ExtraAction,
    React,
    Tactical,
)
from tabletop.systems.constitution.combat.flow import (
    acting,
    in_fight,
    pay,
    require_phase,
)
from tabletop.systems.constitution.combat.state import (
    CHAIN_OF_COMMAND_COST,
    ORDER_COST,
    REACTION_COSTS,
    Combat,
    Outcome,
)
from tabletop.systems.constitution.errors import ConstitutionError
from tabletop.systems.constitution.models import Event, theirs
from tabletop.systems.constitution.options import Options


def _react(combat: Combat, action: React, dice: DiceSource, options: Options) -> Outcome:
    require_phase(combat, "round")
    reactor = in_fight(combat, action.id)
    if action.cost not in REACTION_COSTS:
        raise ConstitutionError(
            f"a reaction costs 2, 5 or 10 initiative (§ 5.4), not {action.cost}"
        )
    if combat.acting == reactor.id:
        raise ConstitutionError(
            f"it is {reactor.name}'s own turn: pay for an extra action instead (extra)"
        )
    if reactor.disoriented:
        raise ConstitutionError(f"{reactor.name} is at initiative 0 and cannot react (§ 5.9)")
    paid = pay(reactor, action.cost, options)
    event = Event.told(
        "reaction",
        f"{reactor.name} pays {action.cost} for {action.what}: initiative ",
        theirs(paid.initiative, reactor.id),
    )
    combat = combat.replace(paid).evolve(permits=(*combat.permits, reactor.id))
    return combat, [event]


def _extra_action(
    combat: Combat, action: ExtraAction, dice: DiceSource, options: Options
) -> Outcome:
    actor = acting(combat)
    if action.bow and not actor.bow_training:
        raise ConstitutionError(f"{actor.name} has no bow training (§ 7.8)")
    cost = options.extra_action_cost // 2 if action.bow else options.extra_action_cost
    paid = pay(actor, cost, options)
    event = Event.told(
        "extra_action",
        f"{actor.name} pays {cost} for an extra action: initiative ",
        theirs(paid.initiative, actor.id),
    )
    return combat.replace(paid).evolve(permits=(*combat.permits, actor.id)), [event]


def _command(combat: Combat, action: Command, dice: DiceSource, options: Options) -> Outcome:
    """One order to one or more followers (§ 5.11): out of the commander's turn it is the
    −5 reaction of § 5.4, paid once for the whole order (C3-A52)."""
    require_phase(combat, "round")
    commander = in_fight(combat, action.commander)
    followers = [in_fight(combat, follower_id) for follower_id in action.followers]
    for follower in followers:
        if follower.commander != commander.id:
            raise ConstitutionError(f"{follower.name} does not take orders from {commander.name}")
        if follower.henchman and follower.turns_left < 1:
            raise ConstitutionError(f"{follower.name} has already acted this round")
        if not follower.henchman and follower.disoriented:
            raise ConstitutionError(f"{follower.name} is at initiative 0 and cannot react (§ 5.9)")
    events = []
    if combat.acting != commander.id:
        if commander.disoriented:
            raise ConstitutionError(f"{commander.name} is at initiative 0 and cannot give orders")
        commander = pay(commander, ORDER_COST, options)
        combat = combat.replace(commander)
        events.append(
            Event(kind="order", message=f"{commander.name} pays {ORDER_COST} to give an order")
        )
    for follower in followers:
        if follower.henchman:
            follower = follower.evolve(turns_left=0)
            cost_note = "instead of at initiative 1"
        else:
            follower = pay(follower, CHAIN_OF_COMMAND_COST, options)
            cost_note = f"paying {CHAIN_OF_COMMAND_COST}"
        combat = combat.replace(follower).evolve(permits=(*combat.permits, follower.id))
        events.append(
            Event.told(
                "command",
                f"{follower.name} acts on {commander.name}'s order at ",
                theirs(commander.initiative, commander.id),
                f", {cost_note}",
            )
        )
    return combat, events


def _tactical(combat: Combat, action: Tactical, dice: DiceSource, options: Options) -> Outcome:
    require_phase(combat, "round")
    tactician = in_fight(combat, action.id)
    if not tactician.tactician:
        raise ConstitutionError(f"{tactician.name} is no tactician (§ 7.3)")
    if tactician.id in combat.tactical_used:
        raise ConstitutionError(f"{tactician.name} has used this round's tactical action")
    event = Event(kind="tactical", message=f"{tactician.name}: free tactical action, {action.what}")
    return combat.evolve(tactical_used=(*combat.tactical_used, tactician.id)), [event]


HANDLERS = {
    React: _react,
    ExtraAction: _extra_action,
    Command: _command,
    Tactical: _tactical,
}
