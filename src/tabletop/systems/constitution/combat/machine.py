"""The machine: the legal choices now, and applying one."""

from __future__ import annotations

from tabletop.dice import DiceSource
from tabletop.systems.constitution.combat import fighting as _fighting_rules
from tabletop.systems.constitution.combat import flow as _flow_rules
from tabletop.systems.constitution.combat import spending as _spending_rules
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
from tabletop.systems.constitution.combat.flow import (
    can_act,
    can_pay,
)
from tabletop.systems.constitution.combat.state import (
    CHAIN_OF_COMMAND_COST,
    DRIVE_BACK,
    DRIVE_OUT,
    ORDER_COST,
    REACTION_COSTS,
    SUPERIOR_COST,
    Combat,
    Combatant,
)
from tabletop.systems.constitution.errors import ConstitutionError
from tabletop.systems.constitution.models import Event, Model
from tabletop.systems.constitution.options import DEFAULT, Options


def legal_actions(combat: Combat, options: Options = DEFAULT) -> list[Model]:
    """Every choice open now under `options`. Choices with free details (an attack's
    modifiers, a spend's cost, a spell's name, a typed-in initiative) are listed once with
    default details."""
    if combat.phase == "over":
        return []
    pending = combat.pending_direct_hit
    if pending:
        affordable = combat.get(pending.target).hp >= pending.price
        return [AnswerDirectHit(pay=False)] + ([AnswerDirectHit(pay=True)] if affordable else [])
    if combat.pending_shield:
        return [AnswerShield(raise_shield=True), AnswerShield(raise_shield=False)]
    fighting = [c for c in combat.combatants if c.fighting]
    if combat.phase == "setup":
        choices: list[Model] = [RollInitiative(id=c.id) for c in fighting if c.initiative is None]
        return choices or ([Begin()] if fighting else [])
    choices = _degrees(combat)
    choices += [MoraleCheck(id=c.id) for c in fighting if c.morale is not None]
    choices += [Leave(id=c.id) for c in fighting]
    choices += [LoseTrack(shooter=c.id) for c in fighting if c.stored]
    if combat.phase == "between_rounds":
        return choices + _respite_choices(combat, fighting, options)
    return choices + _round_choices(combat, fighting, options)


def _degrees(combat: Combat) -> list[Model]:
    """Spending the extra degrees of the blow that just landed: driving the foe back, one
    degree or two (the notes to § 5.19), while the attacker still fights."""
    unspent = combat.unspent
    if unspent is None or not combat.get(unspent.attacker).fighting:
        return []
    found: list[Model] = [SpendDegrees(id=unspent.attacker, degrees=1, effect=DRIVE_BACK)]
    if unspent.degrees > 1:
        found.append(SpendDegrees(id=unspent.attacker, degrees=2, effect=DRIVE_OUT))
    return found


def _respite_choices(combat: Combat, fighting: list[Combatant], options: Options) -> list[Model]:
    """Between rounds (§ 5.5–5.8)."""
    unrolled: list[Model] = [RollInitiative(id=c.id) for c in fighting if c.initiative is None]
    if unrolled:
        return unrolled
    choices: list[Model] = [Reorient(id=c.id) for c in fighting if not c.reorienting]
    choices += [Spend(id=c.id, cost=2) for c in fighting if can_pay(c, 2, options)]
    choices += [NextRound(), EndCombat()]
    if not combat.respite_taken and any((c.initiative or 0) > 0 for c in fighting):
        choices.append(ForceBout())
    return choices


def _round_choices(combat: Combat, fighting: list[Combatant], options: Options) -> list[Model]:
    """During a round: the acting combatant's turn, and what anyone may pay for (§ 5.1–5.4)."""
    choices: list[Model] = []
    acting = combat.get(combat.acting) if combat.acting else None
    if acting is not None:
        if can_act(combat, acting.id):
            choices += _blows(acting, fighting)
            choices.append(Defend(id=acting.id))
        choices += [ExtraAction()] if can_pay(acting, options.extra_action_cost, options) else []
        choices.append(EndTurn())
        if acting.id in combat.superior and (acting.initiative or 0) > SUPERIOR_COST:
            choices.append(EndTurn(superior=True))
    for reactor in fighting:
        if reactor.id != combat.acting:
            choices += [
                React(id=reactor.id, cost=cost)
                for cost in REACTION_COSTS
                if can_pay(reactor, cost, options)
            ]
        if reactor.tactician and reactor.id not in combat.tactical_used:
            choices.append(Tactical(id=reactor.id))
        if reactor.id in combat.permits and reactor.id != combat.acting:
            choices += _blows(reactor, fighting)
            if reactor.can_defend_as_reaction:
                choices.append(Defend(id=reactor.id))
        if any(s.target == combat.last_damaged for s in reactor.stored):
            choices.append(ReleaseStored(shooter=reactor.id))
        commander = combat.get(reactor.commander) if reactor.commander else None
        if commander and commander.fighting and _may_order(combat, commander, reactor, options):
            choices.append(Command(commander=commander.id, followers=(reactor.id,)))
    return choices


def _blows(attacker: Combatant, fighting: list[Combatant]) -> list[Model]:
    return [
        AttackAction(attacker=attacker.id, target=t.id) for t in fighting if t.side != attacker.side
    ]


def _may_order(combat: Combat, commander: Combatant, follower: Combatant, options: Options) -> bool:
    """An order is possible when the commander acts or can pay for the order, a henchman
    follower has not yet acted, and any other follower can pay to act on it (§ 5.9, § 5.11)."""
    commander_able = combat.acting == commander.id or can_pay(commander, ORDER_COST, options)
    if follower.henchman:
        return commander_able and follower.turns_left > 0
    return commander_able and can_pay(follower, CHAIN_OF_COMMAND_COST, options)


def apply(
    combat: Combat, action: Model, dice: DiceSource, options: Options = DEFAULT
) -> tuple[Combat, list[Event]]:
    """Advance the fight by one choice; illegal choices raise
    `ConstitutionError` and change nothing."""
    if combat.phase == "over":
        raise ConstitutionError("the combat is over")
    if combat.pending_direct_hit and not isinstance(action, AnswerDirectHit):
        raise ConstitutionError("first answer the direct hit: pay the HP or take the injury saves")
    if combat.pending_shield and not isinstance(action, AnswerShield):
        target = combat.get(combat.pending_shield.target).name
        raise ConstitutionError(f"first {target} answers the hit: shield, or noshield")
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise ConstitutionError(f"unknown action {action!r}")
    if not isinstance(action, ReleaseStored | SpendDegrees):
        # Stored shots join damage as it is dealt (§ 5.22), and extra degrees are spent on
        # the blow that won them (§ 5.19); anything else moves past both.
        combat = combat.evolve(last_damaged=None)
        if not isinstance(action, AnswerDirectHit):
            combat = combat.evolve(unspent=None)
    return handler(combat, action, dice, options)


_HANDLERS = {**_flow_rules.HANDLERS, **_spending_rules.HANDLERS, **_fighting_rules.HANDLERS}
