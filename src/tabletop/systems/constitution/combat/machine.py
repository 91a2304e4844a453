"""The machine: the legal choices now, and applying one."""

from __future__ import annotations

from tabletop.dice import DiceSource
from tabletop.systems.constitution.combat import fighting as _fighting_rules
from tabletop.systems.constitution.combat import flow as _flow_rules
from tabletop.systems.constitution.combat import spending as _spending_rules
from tabletop.systems.constitution.combat.actions import (
    AnswerDirectHit,
    AttackAction,
    Begin,
    Defend,
    EndCombat,
    EndTurn,
    ExtraAction,
    ForceBout,
    Leave,
    MoraleCheck,
    NextRound,
    React,
    Reorient,
    RollInitiative,
    Tactical,
)
from tabletop.systems.constitution.combat.flow import (
    can_act,
)
from tabletop.systems.constitution.combat.state import (
    REACTION_COSTS,
    Combat,
)
from tabletop.systems.constitution.errors import IllegalMove
from tabletop.systems.constitution.models import Event, Model
from tabletop.systems.constitution.options import DEFAULT, Options


def legal_actions(combat: Combat) -> list[Model]:
    """Every concrete choice open now (attacks and reactions with their default details)."""
    if combat.phase == "over":
        return []
    if combat.pending_direct_hit:
        return [AnswerDirectHit(pay=False)] + (
            [AnswerDirectHit(pay=True)]
            if combat.get(combat.pending_direct_hit.target).hp >= combat.pending_direct_hit.price
            else []
        )
    fighting = [c for c in combat.combatants if c.fighting]
    if combat.phase == "setup":
        choices: list[Model] = [RollInitiative(id=c.id) for c in fighting if c.initiative is None]
        if fighting and not choices:
            choices.append(Begin())
        return choices
    choices = [MoraleCheck(id=c.id) for c in fighting if c.morale is not None]
    choices += [Leave(id=c.id) for c in fighting]
    if combat.phase == "between_rounds":
        choices += [RollInitiative(id=c.id) for c in fighting if c.initiative is None]
        if any(c.initiative is None for c in fighting):
            return choices
        choices += [Reorient(id=c.id) for c in fighting if not c.reorienting]
        choices += [NextRound(), EndCombat()]
        if not combat.respite_taken and any((c.initiative or 0) > 0 for c in fighting):
            choices.append(ForceBout())
        return choices
    acting = combat.get(combat.acting) if combat.acting else None
    if acting is not None:
        if can_act(combat, acting.id):
            choices += [
                AttackAction(attacker=acting.id, target=t.id)
                for t in fighting
                if t.side != acting.side
            ]
            choices.append(Defend(id=acting.id))
        choices.append(ExtraAction())
        choices.append(EndTurn())
        if acting.id in combat.superior:
            choices.append(EndTurn(superior=True))
    for reactor in fighting:
        if not reactor.disoriented and reactor.id != combat.acting:
            choices += [React(id=reactor.id, cost=cost) for cost in REACTION_COSTS]
        if reactor.tactician and reactor.id not in combat.tactical_used:
            choices.append(Tactical(id=reactor.id))
        if reactor.id in combat.permits and reactor.id != combat.acting:
            choices += [
                AttackAction(attacker=reactor.id, target=t.id)
                for t in fighting
                if t.side != reactor.side
            ]
            if reactor.can_defend_as_reaction:
                choices.append(Defend(id=reactor.id))
    return choices


def apply(
    combat: Combat, action: Model, dice: DiceSource, options: Options = DEFAULT
) -> tuple[Combat, list[Event]]:
    """Advance the fight by one choice; illegal choices raise `IllegalMove` and change nothing."""
    if combat.phase == "over":
        raise IllegalMove("the combat is over")
    if combat.pending_direct_hit and not isinstance(action, AnswerDirectHit):
        raise IllegalMove("first answer the direct hit: pay the HP or take the injury saves")
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise IllegalMove(f"unknown action {action!r}")
    return handler(combat, action, dice, options)


_HANDLERS = {**_flow_rules.HANDLERS, **_spending_rules.HANDLERS, **_fighting_rules.HANDLERS}
