"""The course of a fight: setup, rounds and turns, the superior turn, the respite between
rounds, re-orienting, forced bouts (§ 5.1–5.11)."""

from __future__ import annotations

from tabletop.dice import DiceSource, roll
from tabletop.session import rolled_for
from tabletop.systems.constitution.attacks import (
    damage_expression,
)
from tabletop.systems.constitution.check import d20_expression
from tabletop.systems.constitution.combat.actions import (
    Add,
    Begin,
    DeclareSpell,
    EndCombat,
    EndTurn,
    ForceBout,
    NextRound,
    Reorient,
    RollInitiative,
    SetInitiative,
    Spend,
)
from tabletop.systems.constitution.combat.state import (
    AMBUSH_BONUS,
    FORCED_BOUT_COST,
    HENCHMAN_INITIATIVE,
    MAX_COMBATANTS,
    SUPERIOR_COST,
    Combat,
    Combatant,
    Outcome,
)
from tabletop.systems.constitution.errors import ConstitutionError
from tabletop.systems.constitution.models import DiceRecord, Event, theirs
from tabletop.systems.constitution.options import Options


def require_phase(combat: Combat, *phases: str) -> None:
    """Refuse an action taken in the wrong phase of the fight."""
    if combat.phase not in phases:
        wanted = " or ".join(p.replace("_", " ") for p in phases)
        raise ConstitutionError(
            f"that can only be done during {wanted}; it is {combat.phase.replace('_', ' ')}"
        )


def in_fight(combat: Combat, combatant_id: str) -> Combatant:
    combatant = combat.get(combatant_id)
    if not combatant.fighting:
        raise ConstitutionError(f"{combatant.name} is out of the fight ({combatant.status})")
    return combatant


def can_pay(combatant: Combatant, cost: int, options: Options) -> bool:
    """Whether `pay` takes `cost`: never at initiative 0 (§ 5.9), and past what is left only
    when overspending is clamped (C3-A13)."""
    have = combatant.initiative or 0
    return have > 0 and (cost <= have or options.overspend_initiative == "clamp")


def pay(combatant: Combatant, cost: int, options: Options) -> Combatant:
    """Spend initiative; past 0 it is clamped, or refused (C3-A13). At 0 there is nothing
    left to pay with, so nothing can be bought (§ 5.9)."""
    have = combatant.initiative or 0
    if have == 0:
        raise ConstitutionError(f"{combatant.name} is at initiative 0 and has nothing to spend")
    if not can_pay(combatant, cost, options):
        raise ConstitutionError(
            f"{combatant.name} has {have} initiative, not the {cost} this costs"
        )
    return combatant.evolve(initiative=max(0, have - cost))


def acting(combat: Combat) -> Combatant:
    """The combatant whose turn it is."""
    require_phase(combat, "round")
    if combat.acting is None:
        raise ConstitutionError("nobody is taking a turn")
    return combat.get(combat.acting)


def use_action(combat: Combat, combatant_id: str) -> Combat:
    """Spend the turn's main action or a bought permit."""
    if combat.acting == combatant_id and not combat.main_action_used:
        return combat.evolve(main_action_used=True)
    if combatant_id in combat.permits:
        permits = list(combat.permits)
        permits.remove(combatant_id)
        return combat.evolve(permits=tuple(permits))
    raise ConstitutionError(
        "that needs the combatant's turn, or initiative spent first on a reaction, "
        "an extra action or a command"
    )


def can_act(combat: Combat, combatant_id: str) -> bool:
    """Whether an attack or defence by this combatant is paid for: their turn's main action,
    or a permit bought with initiative."""
    own_turn = combat.acting == combatant_id and not combat.main_action_used
    return own_turn or combatant_id in combat.permits


def _add(combat: Combat, action: Add, dice: DiceSource, options: Options) -> Outcome:
    require_phase(combat, "setup", "between_rounds")
    if len(combat.combatants) >= MAX_COMBATANTS:
        raise ConstitutionError(f"a combat holds at most {MAX_COMBATANTS} combatants")
    new = action.combatant
    if any(c.id == new.id for c in combat.combatants):
        raise ConstitutionError(f"there is already a combatant {new.id!r}")
    damage_expression(new.damage)
    if new.commander is not None and all(c.id != new.commander for c in combat.combatants):
        raise ConstitutionError(
            f"{new.name}'s commander {new.commander!r} must join the fight first"
        )
    if new.henchman:
        new = new.evolve(initiative=HENCHMAN_INITIATIVE)
    event = Event(kind="joined", message=f"{new.name} ({new.side}) joins the fight")
    return combat.evolve(combatants=(*combat.combatants, new)), [event]


def _initiative_roll(
    combatant: Combatant, dice: DiceSource, surprise: str, bonus: int
) -> tuple[int, tuple[DiceRecord, ...]]:
    score = combatant.wits + combatant.fighter_level + bonus
    if surprise == "ambush":
        return score + AMBUSH_BONUS, ()
    if surprise == "flat_footed":
        return 0, ()
    net = {"advantage": 1, "penalty": -1}.get(surprise, 0)
    with rolled_for(combatant.id):
        rolled = roll(d20_expression(net), dice)
    return max(0, rolled.total + score), (DiceRecord.of(rolled),)


def _roll_initiative(
    combat: Combat, action: RollInitiative, dice: DiceSource, options: Options
) -> Outcome:
    require_phase(combat, "setup", "between_rounds")
    combatant = in_fight(combat, action.id)
    if combatant.henchman:
        raise ConstitutionError(f"{combatant.name} is a henchman: initiative is always 1 (§ 5.11)")
    if combatant.initiative is not None:
        raise ConstitutionError(f"{combatant.name} already has initiative {combatant.initiative}")
    value, records = _initiative_roll(combatant, dice, action.surprise, action.bonus)
    score = theirs(f"{value} ({records[0].text})" if records else value, combatant.id)
    how = "" if records else f" ({action.surprise.replace('_', ' ')})"
    event = Event.told(
        "initiative",
        f"{combatant.name}: initiative ",
        score,
        how,
        dice=records,
        roller=combatant.id,
    )
    return combat.replace(combatant.evolve(initiative=value)), [event]


def _set_initiative(
    combat: Combat, action: SetInitiative, dice: DiceSource, options: Options
) -> Outcome:
    require_phase(combat, "setup", "between_rounds")
    combatant = in_fight(combat, action.id)
    event = Event.told(
        "initiative", f"{combatant.name}: initiative ", theirs(action.value, combatant.id)
    )
    return combat.replace(combatant.evolve(initiative=action.value)), [event]


def start_round(combat: Combat, options: Options, forced: bool) -> tuple[Combat, list[Event]]:
    """Give everyone able to act their turn, find the superior initiative, start the round."""
    fresh = []
    for c in combat.combatants:
        turns = int(c.fighting and not c.reorienting and (c.initiative or 0) > 0)
        fresh.append(c.evolve(turns_left=turns, defence=None, guard=None))
    combat = combat.evolve(
        combatants=tuple(fresh),
        phase="round",
        round=combat.round + 1,
        permits=(),
        tactical_used=(),
        forced=forced,
        respite_taken=False,
        acting=None,
        main_action_used=False,
    )
    combat = combat.evolve(superior=_superior(combat, options))
    events = [Event(kind="round", message=f"round {combat.round} begins")]
    if combat.superior:
        names = ", ".join(combat.get(i).name for i in combat.superior)
        events.append(Event(kind="superior", message=f"superior initiative: {names}"))
    return advance(combat, events)


def _superior(combat: Combat, options: Options) -> tuple[str, ...]:
    """The unique highest initiative at the start of the round (C3-A12), if it is above the
    10 the extra turn costs (C3-A47)."""
    able = [c for c in combat.combatants if c.turns_left > 0]
    if not able:
        return ()
    best = max(c.initiative or 0 for c in able)
    if best <= SUPERIOR_COST:
        return ()
    top = tuple(c.id for c in able if c.initiative == best)
    if len(top) > 1 and options.superior_initiative_ties == "nobody":
        return ()
    return top


def advance(combat: Combat, events: list[Event]) -> tuple[Combat, list[Event]]:
    """Hand the turn to the next combatant, or close the round."""
    actor = combat.next_actor()
    if actor is None:
        ended = combat.evolve(
            phase="between_rounds",
            acting=None,
            superior=(),
            permits=(),
            combatants=tuple(c.evolve(reorienting=False) for c in combat.combatants),
        )
        events.append(Event(kind="round_end", message=f"round {combat.round} ends"))
        if all((c.initiative or 0) == 0 for c in ended.combatants if c.fighting) and combat.forced:
            events.append(_BREAK_APART)
        return ended, events
    combat = combat.evolve(acting=actor.id, main_action_used=False)
    events.append(
        Event.told(
            "turn", f"{actor.name}'s turn (initiative ", theirs(actor.initiative, actor.id), ")"
        )
    )
    if actor.casting:
        events.append(
            Event(kind="spell", message=f"{actor.name}'s spell {actor.casting} takes effect")
        )
        combat = combat.replace(actor.evolve(casting=None))
    return combat, events


def _begin(combat: Combat, action: Begin, dice: DiceSource, options: Options) -> Outcome:
    require_phase(combat, "setup")
    fighting = [c for c in combat.combatants if c.fighting]
    if not fighting:
        raise ConstitutionError("add combatants first")
    missing = [c.name for c in fighting if c.initiative is None]
    if missing:
        raise ConstitutionError(f"roll initiative first for {', '.join(missing)}")
    return start_round(combat, options, forced=False)


def _end_turn(combat: Combat, action: EndTurn, dice: DiceSource, options: Options) -> Outcome:
    actor = acting(combat)
    # what the one who ends the turn did, said first: the log credits its lines to them, and
    # the next turn's line alone would read as theirs ("Bo: Cora's turn")
    ends = Event(kind="turn_end", message=f"{actor.name} ends the turn")
    events: list[Event] = [] if action.superior else [ends]
    turns = actor.turns_left - 1
    if action.superior:
        if actor.id not in combat.superior:
            raise ConstitutionError(
                f"{actor.name} does not hold the superior initiative this round"
            )
        if (actor.initiative or 0) <= SUPERIOR_COST:
            raise ConstitutionError(
                f"{actor.name} is at {actor.initiative}: after −{SUPERIOR_COST} there is no "
                "initiative left to take a turn at (C3-A41, C3-A47)"
            )
        actor = pay(actor, SUPERIOR_COST, options)
        turns += 1
        combat = combat.evolve(superior=tuple(i for i in combat.superior if i != actor.id))
        events.append(
            Event.told(
                "superior_turn",
                f"{actor.name} takes −10 for another turn at ",
                theirs(actor.initiative, actor.id),
            )
        )
    combat = combat.replace(actor.evolve(turns_left=max(0, turns)))
    combat = combat.evolve(
        acting=None,
        permits=tuple(p for p in combat.permits if p != actor.id),
        superior=tuple(i for i in combat.superior if i != actor.id),
    )
    return advance(combat, events)


def _reorient(combat: Combat, action: Reorient, dice: DiceSource, options: Options) -> Outcome:
    require_phase(combat, "between_rounds")
    combatant = in_fight(combat, action.id)
    if combatant.reorienting:
        raise ConstitutionError(f"{combatant.name} has already re-oriented")
    surprise = "penalty" if combatant.disoriented else "none"
    if combatant.henchman:
        value, records = HENCHMAN_INITIATIVE, ()
        note = " (a henchman never rolls: back to 1, § 5.11)"
    else:
        value, records = _initiative_roll(combatant, dice, surprise, 0)
        note = " with a penalty die (§ 5.9)" if surprise == "penalty" else ""
    event = Event.told(
        "reorient",
        f"{combatant.name} re-orients{note}: initiative ",
        theirs(value, combatant.id),
        "; only reactions next round",
        dice=records,
        roller=combatant.id,
    )
    combat = combat.replace(combatant.evolve(initiative=value, reorienting=True))
    return combat.evolve(respite_taken=True), [event]


def _spend(combat: Combat, action: Spend, dice: DiceSource, options: Options) -> Outcome:
    require_phase(combat, "between_rounds")
    combatant = in_fight(combat, action.id)
    paid = pay(combatant, action.cost, options)
    event = Event.told(
        "spend",
        f"{combatant.name} pays {action.cost} for {action.what}: initiative ",
        theirs(paid.initiative, combatant.id),
    )
    return combat.replace(paid).evolve(respite_taken=True), [event]


def _declare_spell(
    combat: Combat, action: DeclareSpell, dice: DiceSource, options: Options
) -> Outcome:
    require_phase(combat, "between_rounds")
    caster = in_fight(combat, action.id)
    event = Event(
        kind="casting", message=f"{caster.name} begins casting {action.spell}; everyone can see it"
    )
    return combat.replace(caster.evolve(casting=action.spell)).evolve(respite_taken=True), [event]


def _next_round(combat: Combat, action: NextRound, dice: DiceSource, options: Options) -> Outcome:
    require_phase(combat, "between_rounds")
    missing = [c.name for c in combat.combatants if c.fighting and c.initiative is None]
    if missing:
        raise ConstitutionError(f"roll initiative first for {', '.join(missing)}")
    return start_round(combat, options, forced=False)


_BREAK_APART = Event(
    kind="bout_over",
    message="everyone is at 0: the combatants break apart; re-orient to fight on (C3-A50)",
)
"""A forced bout that spends everyone ends the bout, not the fight (§ 5.8; C3-A50)."""


def _force_bout(combat: Combat, action: ForceBout, dice: DiceSource, options: Options) -> Outcome:
    require_phase(combat, "between_rounds")
    if combat.respite_taken:
        raise ConstitutionError("the respite has begun; the bout can only be forced on before it")
    if all((c.initiative or 0) == 0 for c in combat.combatants if c.fighting):
        raise ConstitutionError("everyone is at 0 initiative: there is no bout left to force on")
    events = [Event(kind="forced", message="the bout is forced on: everyone −10 initiative")]
    changed = []
    for c in combat.combatants:
        if not c.fighting:
            changed.append(c)
            continue
        c = c.evolve(initiative=max(0, (c.initiative or 0) - FORCED_BOUT_COST))
        with rolled_for(c.id):
            loss = roll(options.forced_bout_hp_loss, dice)
        if loss.total > 0:
            c = c.evolve(hp=max(0, c.hp - loss.total))
            events.append(
                Event.told(
                    "strain",
                    f"{c.name} loses ",
                    theirs(loss.total, c.id),
                    " HP",
                    dice=(DiceRecord.of(loss),),
                    roller=c.id,
                )
            )
        changed.append(c)
    combat = combat.evolve(combatants=tuple(changed))
    if all(c.initiative == 0 for c in changed if c.fighting):
        events.append(_BREAK_APART)
        return combat.evolve(respite_taken=True), events
    started, more = start_round(combat, options, forced=True)
    return started, events + more


def _end_combat(combat: Combat, action: EndCombat, dice: DiceSource, options: Options) -> Outcome:
    require_phase(combat, "between_rounds")
    return combat.evolve(phase="over", acting=None), [
        Event(kind="over", message="the fight is over")
    ]


HANDLERS = {
    Add: _add,
    RollInitiative: _roll_initiative,
    SetInitiative: _set_initiative,
    Begin: _begin,
    EndTurn: _end_turn,
    Reorient: _reorient,
    Spend: _spend,
    DeclareSpell: _declare_spell,
    NextRound: _next_round,
    ForceBout: _force_bout,
    EndCombat: _end_combat,
}
