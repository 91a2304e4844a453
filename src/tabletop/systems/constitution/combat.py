"""Combat (article 5) as a state machine: initiative as a score that is spent.

A `Combat` is plain data. `legal_actions(combat)` lists what may be done now; `apply(combat,
action, dice)` checks the action is legal and returns the new combat and its events. The
phases: `setup` (add combatants, roll initiative) → `round` (turns from the highest
initiative down; anyone may spend initiative on reactions) → `between_rounds` (the respite:
re-orient, physical actions at a cost, declare spells, force the bout on) → `round` … → `over`.

Spending initiative buys one action outside one's turn: a reaction, an extra action, or
acting on a command. That purchase is a *permit* the next attack or defence uses up.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from tabletop.dice import DiceSource, roll
from tabletop.systems.constitution.attacks import (
    DEFAULT_DAMAGE,
    FiringPosition,
    active_defence,
    attack,
    damage_expression,
    morale_check,
    roll_damage,
    stray_shot,
)
from tabletop.systems.constitution.check import check, d20_expression
from tabletop.systems.constitution.errors import IllegalMove
from tabletop.systems.constitution.health import INJURY_DC, overflow
from tabletop.systems.constitution.models import DiceRecord, Event, Model
from tabletop.systems.constitution.options import DEFAULT, Options

SUPERIOR_COST = 10
"""Initiative the superior combatant pays for a second turn (§ 5.3)."""

FORCED_BOUT_COST = 10
"""Initiative everyone pays when a bout is forced on (§ 5.8)."""

AMBUSH_BONUS = 20
"""A prepared ambusher may take wits + 20 instead of rolling (§ 5.10)."""

HENCHMAN_INITIATIVE = 1
"""Henchmen never roll; their score is always 1 (§ 5.11)."""

CHAIN_OF_COMMAND_COST = 10
"""A combatant with a rolled initiative pays this to act on a command (§ 5.4, § 5.11)."""

ORDER_COST = 5
"""Ordering subordinates to attack, as a reaction (§ 5.4)."""

REACTION_COSTS = (2, 5, 10)
"""The three costs of § 5.4, from the most to the least natural reaction."""

MAX_COMBATANTS = 100
"""Combatants one tracker holds: a documented bound."""


class StoredAttack(Model):
    """A successful ranged attack kept without damage (§ 5.22)."""

    target: str
    damage: str


class Combatant(Model):
    """One side's fighter as the tracker sees them: the scores a fight needs."""

    id: str = Field(pattern=r"^[A-Za-z0-9_-]{1,24}$")
    name: str = Field(min_length=1, max_length=60)
    side: str = Field(default="party", min_length=1, max_length=30)
    wits: int = Field(default=10, ge=0, le=40)
    strength: int = Field(default=10, ge=0, le=40)
    will: int = Field(default=10, ge=0, le=40)
    fighter_level: int = Field(default=0, ge=0, le=30)
    """Fighters add their level to initiative, attacks, defence and injury saves (§ 7.1)."""
    level: int = Field(default=1, ge=1, le=30)
    """Level or hit dice: prices a direct hit (§ 6.12) and limits major wounds (§ 6.11)."""
    hp: int = Field(default=0, ge=0)
    ac: int = Field(default=20, ge=0, le=60)
    damage: str = DEFAULT_DAMAGE
    henchman: bool = False
    commander: str | None = None
    morale: int | None = Field(default=None, ge=2, le=12)
    can_defend_as_reaction: bool = False
    """Has a shield or the training to defend as a reaction (§ 5.17)."""
    tactician: bool = False
    bow_training: bool = False
    initiative: int | None = Field(default=None, ge=0)
    turns_left: int = Field(default=0, ge=0)
    reorienting: bool = False
    defence: int | None = None
    """AC won by defending as the main action, for the rest of the round (§ 5.17)."""
    guard: int | None = None
    """AC won by defending as a reaction, for the next attack only (§ 5.17)."""
    major_wound_marks: int = Field(default=0, ge=0)
    stored: tuple[StoredAttack, ...] = ()
    casting: str | None = None
    status: Literal["fighting", "down", "fled", "dead"] = "fighting"

    @property
    def disoriented(self) -> bool:
        """At initiative 0: open to opportunity attacks, no reactions (§ 5.9)."""
        return self.initiative == 0

    @property
    def fighting(self) -> bool:
        return self.status == "fighting"

    @property
    def current_ac(self) -> int:
        return max(self.ac, self.defence or 0, self.guard or 0)


class PendingDirectHit(Model):
    """A direct hit the defender must answer: pay HP or take the injury saves (§ 6.12)."""

    attacker: str
    target: str
    damage: int
    price: int


class Combat(Model):
    """The whole fight: who is in it, the phase, whose turn, what is open."""

    combatants: tuple[Combatant, ...] = ()
    phase: Literal["setup", "round", "between_rounds", "over"] = "setup"
    round: int = Field(default=0, ge=0)
    acting: str | None = None
    main_action_used: bool = False
    superior: tuple[str, ...] = ()
    """Who may still take the superior-initiative turn this round (§ 5.3)."""
    permits: tuple[str, ...] = ()
    """Combatants who paid initiative for one action outside their turn."""
    tactical_used: tuple[str, ...] = ()
    forced: bool = False
    respite_taken: bool = False
    """Someone used the respite between rounds, so the bout can no longer be forced on."""
    last_damaged: str | None = None
    pending_direct_hit: PendingDirectHit | None = None

    def get(self, combatant_id: str) -> Combatant:
        for combatant in self.combatants:
            if combatant.id == combatant_id:
                return combatant
        raise IllegalMove(f"no combatant {combatant_id!r}")

    def replace(self, combatant: Combatant) -> Combat:
        return self.evolve(
            combatants=tuple(combatant if c.id == combatant.id else c for c in self.combatants)
        )

    def order(self) -> list[Combatant]:
        """Fighting combatants from the highest initiative down; ties go to higher wits,
        then to whoever joined first (C3-A38)."""
        fighting = [c for c in self.combatants if c.fighting]
        return sorted(fighting, key=lambda c: (-(c.initiative or 0), -c.wits))

    def next_actor(self) -> Combatant | None:
        """Whoever has a turn left at the highest initiative (scores change as they are
        spent, so the order is worked out afresh each time)."""
        waiting = [c for c in self.order() if c.turns_left > 0]
        return waiting[0] if waiting else None


# -- Actions ---------------------------------------------------------------------------------


class Add(Model):
    action: Literal["add"] = "add"
    combatant: Combatant


class RollInitiative(Model):
    """Roll 1d20 + wits (+ fighter level + `bonus`), or a surprise variant (§ 5.1, § 5.10)."""

    action: Literal["roll_initiative"] = "roll_initiative"
    id: str
    surprise: Literal["none", "advantage", "ambush", "penalty", "flat_footed"] = "none"
    bonus: int = 0


class SetInitiative(Model):
    """Enter an initiative rolled with physical dice."""

    action: Literal["set_initiative"] = "set_initiative"
    id: str
    value: int = Field(ge=0)


class Begin(Model):
    action: Literal["begin"] = "begin"


class EndTurn(Model):
    """The acting combatant is done; `superior` takes −10 for another turn (§ 5.3)."""

    action: Literal["end_turn"] = "end_turn"
    superior: bool = False


class React(Model):
    """Pay 2, 5 or 10 initiative for a reaction (§ 5.4); buys one action out of turn."""

    action: Literal["react"] = "react"
    id: str
    cost: int
    what: str = "a reaction"


class ExtraAction(Model):
    """The acting combatant pays for another action this turn (§ 5.2; C3-A14, § 7.8)."""

    action: Literal["extra_action"] = "extra_action"
    bow: bool = False


class Command(Model):
    """A superior orders a follower to act (§ 5.11): a henchman acts now instead of at 1;
    a follower with a rolled initiative pays 10 to act in addition to their turn."""

    action: Literal["command"] = "command"
    commander: str
    follower: str


class Tactical(Model):
    """A tactician's free tactical action this round (§ 7.3)."""

    action: Literal["tactical"] = "tactical"
    id: str
    what: str = "an awareness check or an order"


class AttackAction(Model):
    """An attack roll (§ 5.14) by the acting combatant or one holding a permit."""

    action: Literal["attack"] = "attack"
    attacker: str
    target: str
    modifier: int = 0
    advantage: int = Field(default=0, ge=0)
    disadvantage: int = Field(default=0, ge=0)
    damage: str | None = None
    ranged: bool = False
    store: bool = False
    into_melee: FiringPosition | None = None
    other_target: str | None = None
    aimed_tenths: int = Field(default=0, ge=0, le=2)
    use_direct_hit: bool = True


class Defend(Model):
    """Active defence (§ 5.17): as the main action (all round) or as a reaction (one attack)."""

    action: Literal["defend"] = "defend"
    id: str


class ReleaseStored(Model):
    """Add a stored ranged attack's damage while its target is taking damage (§ 5.22)."""

    action: Literal["release_stored"] = "release_stored"
    shooter: str


class LoseTrack(Model):
    action: Literal["lose_track"] = "lose_track"
    shooter: str


class AnswerDirectHit(Model):
    """The defender pays 10 HP per attacker level, or rolls the injury saves (§ 6.12)."""

    action: Literal["answer_direct_hit"] = "answer_direct_hit"
    pay: bool


class MoraleCheck(Model):
    action: Literal["morale"] = "morale"
    id: str


class Leave(Model):
    """A combatant leaves the fight: flees, surrenders, is carried off."""

    action: Literal["leave"] = "leave"
    id: str
    status: Literal["down", "fled", "dead"] = "fled"


class Reorient(Model):
    """Between rounds: re-roll initiative, with a penalty die at 0; no turn next round,
    only reactions (§ 5.6, § 5.9)."""

    action: Literal["reorient"] = "reorient"
    id: str


class Spend(Model):
    """Between rounds: a physical action paid in initiative (§ 5.5)."""

    action: Literal["spend"] = "spend"
    id: str
    cost: int = Field(ge=1)
    what: str = "a physical action"


class DeclareSpell(Model):
    """Between rounds: declare a memorised spell; it goes off on the caster's turn (§ 5.7)."""

    action: Literal["declare_spell"] = "declare_spell"
    id: str
    spell: str = Field(min_length=1)


class NextRound(Model):
    action: Literal["next_round"] = "next_round"


class ForceBout(Model):
    """One side will not let go: everyone −10, a new round at once, no respite (§ 5.8)."""

    action: Literal["force_bout"] = "force_bout"


class EndCombat(Model):
    action: Literal["end_combat"] = "end_combat"


Action = Annotated[
    Add
    | RollInitiative
    | SetInitiative
    | Begin
    | EndTurn
    | React
    | ExtraAction
    | Command
    | Tactical
    | AttackAction
    | Defend
    | ReleaseStored
    | LoseTrack
    | AnswerDirectHit
    | MoraleCheck
    | Leave
    | Reorient
    | Spend
    | DeclareSpell
    | NextRound
    | ForceBout
    | EndCombat,
    Field(discriminator="action"),
]


# -- Legal actions -----------------------------------------------------------------------------


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


def can_act(combat: Combat, combatant_id: str) -> bool:
    """Whether an attack or defence by this combatant is paid for: their turn's main action,
    or a permit bought with initiative."""
    own_turn = combat.acting == combatant_id and not combat.main_action_used
    return own_turn or combatant_id in combat.permits


# -- Applying an action ------------------------------------------------------------------------


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


def _require_phase(combat: Combat, *phases: str) -> None:
    if combat.phase not in phases:
        wanted = " or ".join(p.replace("_", " ") for p in phases)
        raise IllegalMove(
            f"that can only be done during {wanted}; it is {combat.phase.replace('_', ' ')}"
        )


def _fighting(combat: Combat, combatant_id: str) -> Combatant:
    combatant = combat.get(combatant_id)
    if not combatant.fighting:
        raise IllegalMove(f"{combatant.name} is out of the fight ({combatant.status})")
    return combatant


def _pay(combatant: Combatant, cost: int, options: Options) -> Combatant:
    """Spend initiative; past 0 it is clamped, or refused (C3-A13)."""
    have = combatant.initiative or 0
    if cost > have and options.overspend_initiative == "refuse":
        raise IllegalMove(f"{combatant.name} has {have} initiative, not the {cost} this costs")
    return combatant.evolve(initiative=max(0, have - cost))


def _add(combat: Combat, action: Add, dice: DiceSource, options: Options):
    _require_phase(combat, "setup", "between_rounds")
    if len(combat.combatants) >= MAX_COMBATANTS:
        raise IllegalMove(f"a combat holds at most {MAX_COMBATANTS} combatants")
    new = action.combatant
    if any(c.id == new.id for c in combat.combatants):
        raise IllegalMove(f"there is already a combatant {new.id!r}")
    damage_expression(new.damage)
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
    rolled = roll(d20_expression(net), dice)
    return max(0, rolled.total + score), (DiceRecord.of(rolled),)


def _roll_initiative(combat: Combat, action: RollInitiative, dice: DiceSource, options: Options):
    _require_phase(combat, "setup", "between_rounds")
    combatant = _fighting(combat, action.id)
    if combatant.henchman:
        raise IllegalMove(f"{combatant.name} is a henchman: initiative is always 1 (§ 5.11)")
    if combatant.initiative is not None:
        raise IllegalMove(f"{combatant.name} already has initiative {combatant.initiative}")
    value, records = _initiative_roll(combatant, dice, action.surprise, action.bonus)
    how = f" ({records[0].text})" if records else f" ({action.surprise.replace('_', ' ')})"
    event = Event(
        kind="initiative", message=f"{combatant.name}: initiative {value}{how}", dice=records
    )
    return combat.replace(combatant.evolve(initiative=value)), [event]


def _set_initiative(combat: Combat, action: SetInitiative, dice: DiceSource, options: Options):
    _require_phase(combat, "setup", "between_rounds")
    combatant = _fighting(combat, action.id)
    event = Event(kind="initiative", message=f"{combatant.name}: initiative {action.value}")
    return combat.replace(combatant.evolve(initiative=action.value)), [event]


def _start_round(combat: Combat, options: Options, forced: bool) -> tuple[Combat, list[Event]]:
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
    return _advance(combat, events)


def _superior(combat: Combat, options: Options) -> tuple[str, ...]:
    """The unique highest initiative at the start of the round (C3-A12)."""
    able = [c for c in combat.combatants if c.turns_left > 0]
    if not able:
        return ()
    best = max(c.initiative or 0 for c in able)
    top = tuple(c.id for c in able if c.initiative == best)
    if len(top) > 1 and options.superior_initiative_ties == "nobody":
        return ()
    return top


def _advance(combat: Combat, events: list[Event]) -> tuple[Combat, list[Event]]:
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
            events.append(
                Event(kind="bout_over", message="everyone is spent: the combatants break apart")
            )
            return ended.evolve(phase="over"), events
        return ended, events
    combat = combat.evolve(acting=actor.id, main_action_used=False)
    events.append(
        Event(kind="turn", message=f"{actor.name}'s turn (initiative {actor.initiative})")
    )
    if actor.casting:
        events.append(
            Event(kind="spell", message=f"{actor.name}'s spell {actor.casting} takes effect")
        )
        combat = combat.replace(actor.evolve(casting=None))
    return combat, events


def _begin(combat: Combat, action: Begin, dice: DiceSource, options: Options):
    _require_phase(combat, "setup")
    fighting = [c for c in combat.combatants if c.fighting]
    if not fighting:
        raise IllegalMove("add combatants first")
    missing = [c.name for c in fighting if c.initiative is None]
    if missing:
        raise IllegalMove(f"roll initiative first for {', '.join(missing)}")
    return _start_round(combat, options, forced=False)


def _acting(combat: Combat) -> Combatant:
    _require_phase(combat, "round")
    if combat.acting is None:
        raise IllegalMove("nobody is taking a turn")
    return combat.get(combat.acting)


def _end_turn(combat: Combat, action: EndTurn, dice: DiceSource, options: Options):
    actor = _acting(combat)
    events: list[Event] = []
    turns = actor.turns_left - 1
    if action.superior:
        if actor.id not in combat.superior:
            raise IllegalMove(f"{actor.name} does not hold the superior initiative this round")
        actor = _pay(actor, SUPERIOR_COST, options)
        turns += 1
        combat = combat.evolve(superior=tuple(i for i in combat.superior if i != actor.id))
        events.append(
            Event(
                kind="superior_turn",
                message=f"{actor.name} takes −10 for another turn at {actor.initiative}",
            )
        )
    combat = combat.replace(actor.evolve(turns_left=max(0, turns)))
    combat = combat.evolve(
        acting=None,
        permits=tuple(p for p in combat.permits if p != actor.id),
        superior=tuple(i for i in combat.superior if i != actor.id),
    )
    return _advance(combat, events)


def _react(combat: Combat, action: React, dice: DiceSource, options: Options):
    _require_phase(combat, "round")
    reactor = _fighting(combat, action.id)
    if action.cost not in REACTION_COSTS:
        raise IllegalMove(f"a reaction costs 2, 5 or 10 initiative (§ 5.4), not {action.cost}")
    if reactor.disoriented:
        raise IllegalMove(f"{reactor.name} is at initiative 0 and cannot react (§ 5.9)")
    paid = _pay(reactor, action.cost, options)
    event = Event(
        kind="reaction",
        message=f"{reactor.name} pays {action.cost} for {action.what}: "
        f"initiative {paid.initiative}",
    )
    combat = combat.replace(paid).evolve(permits=(*combat.permits, reactor.id))
    return combat, [event]


def _extra_action(combat: Combat, action: ExtraAction, dice: DiceSource, options: Options):
    actor = _acting(combat)
    if action.bow and not actor.bow_training:
        raise IllegalMove(f"{actor.name} has no bow training (§ 7.8)")
    cost = options.extra_action_cost // 2 if action.bow else options.extra_action_cost
    paid = _pay(actor, cost, options)
    event = Event(
        kind="extra_action",
        message=f"{actor.name} pays {cost} for an extra action: initiative {paid.initiative}",
    )
    return combat.replace(paid).evolve(permits=(*combat.permits, actor.id)), [event]


def _command(combat: Combat, action: Command, dice: DiceSource, options: Options):
    _require_phase(combat, "round")
    commander = _fighting(combat, action.commander)
    follower = _fighting(combat, action.follower)
    if follower.commander != commander.id:
        raise IllegalMove(f"{follower.name} does not take orders from {commander.name}")
    events = []
    if combat.acting != commander.id:
        if commander.disoriented:
            raise IllegalMove(f"{commander.name} is at initiative 0 and cannot give orders")
        commander = _pay(commander, ORDER_COST, options)
        combat = combat.replace(commander)
        events.append(
            Event(kind="order", message=f"{commander.name} pays {ORDER_COST} to give an order")
        )
    if follower.henchman:
        if follower.turns_left < 1:
            raise IllegalMove(f"{follower.name} has already acted this round")
        follower = follower.evolve(turns_left=0)
        cost_note = "instead of at initiative 1"
    else:
        follower = _pay(follower, CHAIN_OF_COMMAND_COST, options)
        cost_note = f"paying {CHAIN_OF_COMMAND_COST}"
    combat = combat.replace(follower).evolve(permits=(*combat.permits, follower.id))
    events.append(
        Event(
            kind="command",
            message=f"{follower.name} acts on {commander.name}'s order "
            f"at {commander.initiative}, {cost_note}",
        )
    )
    return combat, events


def _tactical(combat: Combat, action: Tactical, dice: DiceSource, options: Options):
    _require_phase(combat, "round")
    tactician = _fighting(combat, action.id)
    if not tactician.tactician:
        raise IllegalMove(f"{tactician.name} is no tactician (§ 7.3)")
    if tactician.id in combat.tactical_used:
        raise IllegalMove(f"{tactician.name} has used this round's tactical action")
    event = Event(kind="tactical", message=f"{tactician.name}: free tactical action, {action.what}")
    return combat.evolve(tactical_used=(*combat.tactical_used, tactician.id)), [event]


def _use_action(combat: Combat, combatant_id: str) -> Combat:
    """Spend the turn's main action or a bought permit."""
    if combat.acting == combatant_id and not combat.main_action_used:
        return combat.evolve(main_action_used=True)
    if combatant_id in combat.permits:
        permits = list(combat.permits)
        permits.remove(combatant_id)
        return combat.evolve(permits=tuple(permits))
    raise IllegalMove(
        "that needs the combatant's turn, or initiative spent first on a reaction, "
        "an extra action or a command"
    )


def _attack(combat: Combat, action: AttackAction, dice: DiceSource, options: Options):
    _require_phase(combat, "round")
    attacker = _fighting(combat, action.attacker)
    target = _fighting(combat, action.target)
    if attacker.id == target.id:
        raise IllegalMove("a combatant cannot attack themselves")
    if action.store and not action.ranged:
        raise IllegalMove("only ranged attacks can be stored (§ 5.22)")
    if action.into_melee and action.other_target is None:
        raise IllegalMove("firing into mêlée needs the other fighter (other_target)")
    other = _fighting(combat, action.other_target) if action.other_target else None
    damage = damage_expression(action.damage or attacker.damage)
    combat = _use_action(combat, attacker.id)
    result = attack(
        attacker.strength + attacker.fighter_level + action.modifier,
        target.current_ac,
        dice,
        damage=damage,
        with_damage=not action.store and action.into_melee is None,
        advantage=action.advantage,
        disadvantage=action.disadvantage,
        options=options,
    )
    events = [
        Event(
            kind="attack",
            message=f"{attacker.name} attacks {target.name} (AC {target.current_ac}): "
            + result.roll.describe(),
            dice=(result.roll.roll,),
        )
    ]
    combat = combat.replace(combat.get(target.id).evolve(guard=None))
    if not result.hit:
        return combat, events
    if action.into_melee and other is not None:
        stray = stray_shot(action.into_melee, dice, aimed_tenths=action.aimed_tenths)
        if not stray.on_chosen_target:
            target = other
        events.append(
            Event(
                kind="stray_shot",
                message=f"into the mêlée ({stray.chance_in_ten} in 10): it strikes {target.name}",
                dice=(stray.roll,),
            )
        )
    if action.into_melee and not action.store:
        amount, record = roll_damage(damage, dice)
        result = result.evolve(damage=amount, damage_roll=record)
    if result.roll.extra_degrees:
        events.append(
            Event(
                kind="extra_degrees",
                message=f"{result.roll.extra_degrees} extra degree(s) to spend (§ 5.19)",
            )
        )
    if action.store:
        stored = (*attacker.stored, StoredAttack(target=target.id, damage=damage))
        combat = combat.replace(combat.get(attacker.id).evolve(stored=stored))
        events.append(
            Event(kind="stored", message=f"{attacker.name} stores the shot at {target.name}")
        )
        return combat, events
    if result.direct_hit and action.use_direct_hit:
        price = 10 * attacker.level
        pending = PendingDirectHit(
            attacker=attacker.id, target=target.id, damage=result.damage, price=price
        )
        events.append(
            Event(
                kind="direct_hit",
                message=f"direct hit on {target.name}: pay {price} HP or take the injury saves",
                dice=(result.damage_roll,) if result.damage_roll else (),
            )
        )
        return combat.evolve(pending_direct_hit=pending), events
    assert result.damage_roll is not None
    events.append(
        Event(
            kind="damage_roll",
            message=f"damage {result.damage_roll.text}",
            dice=(result.damage_roll,),
        )
    )
    return _hurt(combat, target.id, result.damage, INJURY_DC, dice, options, events)


def _hurt(
    combat: Combat,
    target_id: str,
    damage: int,
    base_dc: int,
    dice: DiceSource,
    options: Options,
    events: list[Event],
    *,
    bypass: bool = False,
) -> tuple[Combat, list[Event]]:
    """Take damage off HP; if it gets past them (or bypasses them) roll the injury saves."""
    target = combat.get(target_id)
    spill = damage if bypass else overflow(target.hp, damage)
    if not bypass:
        target = target.evolve(hp=max(0, target.hp - damage))
        events.append(Event(kind="damage", message=f"{target.name} takes {damage}: HP {target.hp}"))
    combat = combat.replace(target).evolve(last_damaged=target.id)
    if spill == 0 and not bypass:
        return combat, events
    injury_bonus = target.fighter_level if options.fighter_bonus_scope == "combat" else 0
    dc = base_dc + spill
    strength = check(target.strength + injury_bonus, dc, dice, options=options)
    will = check(target.will + injury_bonus, dc, dice, options=options)
    events.append(
        Event(
            kind="strength_save",
            message="injury, strength save: " + strength.describe(),
            dice=(strength.roll,),
        )
    )
    events.append(
        Event(kind="will_save", message="injury, will save: " + will.describe(), dice=(will.roll,))
    )
    if strength.success:
        events.append(Event(kind="minor_wound", message=f"{target.name}: a minor wound"))
    elif target.major_wound_marks < target.level:
        target = target.evolve(major_wound_marks=target.major_wound_marks + 1)
        events.append(
            Event(
                kind="major_wound",
                message=f"{target.name}: a major wound (or death, as the player chooses)",
            )
        )
    else:
        target = target.evolve(status="dead")
        events.append(Event(kind="dead", message=f"{target.name} dies"))
    if target.fighting and not will.success:
        target = target.evolve(status="down")
        events.append(Event(kind="collapsed", message=f"{target.name} collapses"))
    combat = combat.replace(target)
    if combat.acting and not combat.get(combat.acting).fighting:
        return _advance(combat.evolve(acting=None), events)
    return combat, events


def _answer_direct_hit(combat: Combat, action: AnswerDirectHit, dice: DiceSource, options: Options):
    pending = combat.pending_direct_hit
    if pending is None:
        raise IllegalMove("there is no direct hit to answer")
    target = combat.get(pending.target)
    combat = combat.evolve(pending_direct_hit=None)
    if action.pay:
        if target.hp < pending.price:
            raise IllegalMove(f"{target.name} has {target.hp} HP, not the {pending.price} needed")
        paid = target.evolve(hp=target.hp - pending.price)
        return combat.replace(paid), [
            Event(kind="hp_paid", message=f"{target.name} pays {pending.price} HP")
        ]
    extra = pending.damage if options.direct_hit_injury_dc == "damage" else 0
    return _hurt(combat, target.id, extra, INJURY_DC, dice, options, [], bypass=True)


def _defend(combat: Combat, action: Defend, dice: DiceSource, options: Options):
    _require_phase(combat, "round")
    defender = _fighting(combat, action.id)
    own_turn = combat.acting == defender.id
    if not own_turn and not defender.can_defend_as_reaction:
        raise IllegalMove(f"{defender.name} needs a shield or training to defend as a reaction")
    combat = _use_action(combat, defender.id)
    ac, rolled = active_defence(
        defender.strength + defender.fighter_level, defender.ac, dice, options
    )
    defender = defender.evolve(defence=ac) if own_turn else defender.evolve(guard=ac)
    lasting = "for the round" if own_turn else "against the next attack"
    event = Event(
        kind="defence",
        message=f"{defender.name} defends: {rolled.describe()}; AC {ac} {lasting}",
        dice=(rolled.roll,),
    )
    return combat.replace(defender), [event]


def _release_stored(combat: Combat, action: ReleaseStored, dice: DiceSource, options: Options):
    _require_phase(combat, "round")
    shooter = combat.get(action.shooter)
    if combat.last_damaged is None:
        raise IllegalMove("stored shots are released when their target takes damage")
    shots = [s for s in shooter.stored if s.target == combat.last_damaged]
    if not shots:
        raise IllegalMove(f"{shooter.name} has no stored shot at the one just hurt")
    remaining = list(shooter.stored)
    remaining.remove(shots[0])
    combat = combat.replace(shooter.evolve(stored=tuple(remaining)))
    rolled = roll(shots[0].damage, dice)
    events = [
        Event(
            kind="stored_released",
            message=f"{shooter.name}'s stored shot: {rolled}",
            dice=(DiceRecord.of(rolled),),
        )
    ]
    return _hurt(combat, shots[0].target, max(0, rolled.total), INJURY_DC, dice, options, events)


def _lose_track(combat: Combat, action: LoseTrack, dice: DiceSource, options: Options):
    shooter = combat.get(action.shooter)
    event = Event(
        kind="stored_lost",
        message=f"{shooter.name} loses track: {len(shooter.stored)} stored shot(s) lost",
    )
    return combat.replace(shooter.evolve(stored=())), [event]


def _morale(combat: Combat, action: MoraleCheck, dice: DiceSource, options: Options):
    _require_phase(combat, "round", "between_rounds")
    combatant = _fighting(combat, action.id)
    if combatant.morale is None:
        raise IllegalMove(f"{combatant.name} has no morale score")
    result = morale_check(combatant.morale, dice)
    verdict = "holds" if result.holds else "breaks"
    events = [
        Event(
            kind="morale",
            message=f"{combatant.name} morale {combatant.morale}: {result.roll.text}, {verdict}",
            dice=(result.roll,),
        )
    ]
    if result.holds:
        return combat, events
    return _leave(combat, Leave(id=combatant.id, status="fled"), dice, options, events)


def _leave(
    combat: Combat,
    action: Leave,
    dice: DiceSource,
    options: Options,
    events: list[Event] | None = None,
):
    _require_phase(combat, "round", "between_rounds")
    combatant = _fighting(combat, action.id)
    events = [
        *(events or []),
        Event(kind="left", message=f"{combatant.name} is out: {action.status}"),
    ]
    combat = combat.replace(combatant.evolve(status=action.status, turns_left=0))
    if combat.acting == combatant.id:
        return _advance(combat.evolve(acting=None), events)
    return combat, events


def _reorient(combat: Combat, action: Reorient, dice: DiceSource, options: Options):
    _require_phase(combat, "between_rounds")
    combatant = _fighting(combat, action.id)
    if combatant.reorienting:
        raise IllegalMove(f"{combatant.name} has already re-oriented")
    surprise = "penalty" if combatant.disoriented else "none"
    value, records = _initiative_roll(combatant, dice, surprise, 0)
    note = " with a penalty die (§ 5.9)" if surprise == "penalty" else ""
    event = Event(
        kind="reorient",
        message=f"{combatant.name} re-orients{note}: initiative {value}; only reactions next round",
        dice=records,
    )
    combat = combat.replace(combatant.evolve(initiative=value, reorienting=True))
    return combat.evolve(respite_taken=True), [event]


def _spend(combat: Combat, action: Spend, dice: DiceSource, options: Options):
    _require_phase(combat, "between_rounds")
    combatant = _fighting(combat, action.id)
    paid = _pay(combatant, action.cost, options)
    event = Event(
        kind="spend",
        message=f"{combatant.name} pays {action.cost} for {action.what}: "
        f"initiative {paid.initiative}",
    )
    return combat.replace(paid).evolve(respite_taken=True), [event]


def _declare_spell(combat: Combat, action: DeclareSpell, dice: DiceSource, options: Options):
    _require_phase(combat, "between_rounds")
    caster = _fighting(combat, action.id)
    event = Event(
        kind="casting", message=f"{caster.name} begins casting {action.spell}; everyone can see it"
    )
    return combat.replace(caster.evolve(casting=action.spell)).evolve(respite_taken=True), [event]


def _next_round(combat: Combat, action: NextRound, dice: DiceSource, options: Options):
    _require_phase(combat, "between_rounds")
    missing = [c.name for c in combat.combatants if c.fighting and c.initiative is None]
    if missing:
        raise IllegalMove(f"roll initiative first for {', '.join(missing)}")
    return _start_round(combat, options, forced=False)


def _force_bout(combat: Combat, action: ForceBout, dice: DiceSource, options: Options):
    _require_phase(combat, "between_rounds")
    if combat.respite_taken:
        raise IllegalMove("the respite has begun; the bout can only be forced on before it")
    events = [Event(kind="forced", message="the bout is forced on: everyone −10 initiative")]
    changed = []
    for c in combat.combatants:
        if not c.fighting:
            changed.append(c)
            continue
        c = c.evolve(initiative=max(0, (c.initiative or 0) - FORCED_BOUT_COST))
        loss = roll(options.forced_bout_hp_loss, dice)
        if loss.total > 0:
            c = c.evolve(hp=max(0, c.hp - loss.total))
            events.append(
                Event(
                    kind="strain",
                    message=f"{c.name} loses {loss.total} HP",
                    dice=(DiceRecord.of(loss),),
                )
            )
        changed.append(c)
    combat = combat.evolve(combatants=tuple(changed))
    if all(c.initiative == 0 for c in changed if c.fighting):
        events.append(
            Event(kind="bout_over", message="everyone is at 0: the combatants break apart")
        )
        return combat.evolve(phase="over"), events
    started, more = _start_round(combat, options, forced=True)
    return started, events + more


def _end_combat(combat: Combat, action: EndCombat, dice: DiceSource, options: Options):
    _require_phase(combat, "between_rounds")
    return combat.evolve(phase="over", acting=None), [Event(kind="over", message="the combat ends")]


_HANDLERS = {
    Add: _add,
    RollInitiative: _roll_initiative,
    SetInitiative: _set_initiative,
    Begin: _begin,
    EndTurn: _end_turn,
    React: _react,
    ExtraAction: _extra_action,
    Command: _command,
    Tactical: _tactical,
    AttackAction: _attack,
    Defend: _defend,
    ReleaseStored: _release_stored,
    LoseTrack: _lose_track,
    AnswerDirectHit: _answer_direct_hit,
    MoraleCheck: _morale,
    Leave: _leave,
    Reorient: _reorient,
    Spend: _spend,
    DeclareSpell: _declare_spell,
    NextRound: _next_round,
    ForceBout: _force_bout,
    EndCombat: _end_combat,
}
