"""Initiative Rules B: rounds in phases, statuses resolving in order, actions paid in AP.

A round starts with the Beginning Phase (RU-M25): 1. Effect Activation ([poison] and [bleed]
hurt, [heal] heals, with CON ignoring stacks, RU-M06), 2. Status Management (AP back, stacks
wear off, durations run out), 3. moves usable "at the beginning of the round". Then the Main
Phase, where anyone acts when they like; simultaneous actions go in initiative order (AGI),
ties to whoever acted least recently (RU-M26), and an interrupt is an initiative contest
(RU-M27).

`Combat` is the state; each function takes it and returns the new one with the events. The
open decision and its legal choices are `open_decision(combat)`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from tabletop.dice import DiceSource
from tabletop.systems.ap2d6 import health
from tabletop.systems.ap2d6.checks import Check, check, contest
from tabletop.systems.ap2d6.costs import ActionCost, Cost, basic_action
from tabletop.systems.ap2d6.errors import Ap2d6Error
from tabletop.systems.ap2d6.events import Event, Role, whose
from tabletop.systems.ap2d6.options import DEFAULTS, Options
from tabletop.systems.ap2d6.owners import NOBODY, Owners
from tabletop.systems.ap2d6.records import TwoDice, roll_2d6
from tabletop.systems.ap2d6.sheet import ActiveStatus, Character
from tabletop.systems.ap2d6.statuses import Status
from tabletop.systems.ap2d6.tracker import ATTACK, APTracker
from tabletop.systems.ap2d6.weapons import (
    AttackResult,
    Grip,
    Weapon,
    improvised_throw,
    resolve,
    wield,
)
from tabletop.words import counted

MAX_COMBATANTS = 100
MAX_ORDER_ROLL_OFFS = 100
"""Rounds of rolling to order characters tied on everything before the listed order stands."""

Phase = Literal["not-started", "beginning-moves", "main"]

Outcome = tuple["Combat", list[Event]]


class Combat(BaseModel):
    """A fight in initiative: the characters, the round and phase, and who acted when."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    characters: Annotated[tuple[Character, ...], Field(max_length=MAX_COMBATANTS)] = ()
    round: Annotated[int, Field(ge=0)] = 0
    phase: Phase = "not-started"
    actions_taken: Annotated[int, Field(ge=0)] = 0
    last_acted: dict[str, int] = {}
    """When each character last acted, counted in actions since the fight began."""
    death_checked: tuple[str, ...] = ()
    """Who has made this round's death check."""

    @model_validator(mode="after")
    def _unique_names(self) -> Combat:
        names = [character.name for character in self.characters]
        if len(set(names)) != len(names):
            raise ValueError("two characters in one fight share a name")
        return self

    def character(self, name: str) -> Character:
        for character in self.characters:
            if character.name == name:
                return character
        known = ", ".join(c.name for c in self.characters) or "nobody yet"
        raise Ap2d6Error(f"no character called {name!r} in this fight ({known})")

    def replaced(self, *changed: Character) -> Combat:
        by_name = {character.name: character for character in changed}
        return self.model_copy(
            update={"characters": tuple(by_name.get(c.name, c) for c in self.characters)}
        )

    def initiative(self) -> list[tuple[str, int]]:
        """The public initiative tracker: each character's AGI, highest first (RU-M24)."""
        scored = [(c.name, c.score("AGI")) for c in self.characters]
        return sorted(scored, key=lambda pair: -pair[1])


def view(combat: Combat, role: Role) -> dict[str, Any]:
    """The fight as JSON for `role`: every sheet through `Character.view`, so a player never
    receives a secret death DC, a verdict or an outcome nobody has found out yet."""
    data = combat.model_dump(mode="json", exclude={"characters"})
    return {**data, "characters": [character.view(role) for character in combat.characters]}


def join(combat: Combat, character: Character) -> Combat:
    """Add a character to the initiative tracker."""
    if any(c.name == character.name for c in combat.characters):
        raise Ap2d6Error(f"{character.name} is already in this fight")
    return combat.model_copy(update={"characters": (*combat.characters, character)})


def leave(combat: Combat, name: str) -> Combat:
    """Take a character off the tracker once they no longer matter to the fight."""
    combat.character(name)
    kept = tuple(c for c in combat.characters if c.name != name)
    return combat.model_copy(update={"characters": kept})


def end_fight(combat: Combat) -> tuple[tuple[Character, ...], list[Event]]:
    """Initiative is over: AP is tracked only in initiative, so every character leaves it with
    a fresh tracker, all their AP on 0 (lost AP back, temp AP and waiting gone, RU-A10)."""
    if combat.phase == "not-started":
        raise Ap2d6Error("the fight has not started: there is nothing to end")
    after = tuple(
        character.model_copy(
            update={"tracker": APTracker(ap_per_round=character.tracker.ap_per_round)}
        )
        for character in combat.characters
    )
    events = [Event(kind="fight-over", summary="out of initiative: every tracker is reset")]
    return after, events


# -- the beginning phase ---------------------------------------------------------------------


class BeginningChoices(BaseModel):
    """One character's choices for the Beginning Phase: stacks their CON ignores, per status
    (at most CON of each, RU-M06), and the order their statuses act in (RU-M25)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    ignore: dict[str, Annotated[int, Field(ge=0)]] | None = None
    """None: ignore as many hurting stacks as CON allows and no healing ones."""
    order: tuple[str, ...] | None = None
    """None: healing statuses first, then hurting ones, each alphabetically."""


def begin_round(
    combat: Combat,
    dice: DiceSource,
    choices: Mapping[str, BeginningChoices] | None = None,
    options: Options = DEFAULTS,
    owners: Owners = NOBODY,
) -> Outcome:
    """Start the next round: Effect Activation, then Status Management, then the window for
    beginning-of-round moves (RU-M25). Each character's lines are told as theirs."""
    choices = choices or {}
    unknown = set(choices) - {c.name for c in combat.characters}
    if unknown:
        raise Ap2d6Error(f"choices for characters not in the fight: {', '.join(sorted(unknown))}")
    number = combat.round + 1
    events = [Event(kind="round", summary=f"round {number} begins")]
    changed = []
    for character in combat.characters:
        character, activated = activate_effects(
            character, dice, choices.get(character.name, BeginningChoices()), options, owners
        )
        character, managed = manage_statuses(character, options)
        changed.append(character)
        events += whose(activated + managed, character.name)
    after = combat.model_copy(
        update={
            "characters": tuple(changed),
            "round": number,
            "phase": "beginning-moves",
            "death_checked": (),
        }
    )
    return after, events


def start_main_phase(combat: Combat) -> Outcome:
    """Close the beginning-of-round window and open the Main Phase."""
    if combat.phase != "beginning-moves":
        raise Ap2d6Error("the Main Phase follows the Beginning Phase: start a round first")
    return combat.model_copy(update={"phase": "main"}), [
        Event(kind="main-phase", summary=f"round {combat.round}: the Main Phase")
    ]


def ignorable(character: Character) -> dict[str, int]:
    """Stacks of each status CON may ignore this round: max(CON, 0), at most the stacks held,
    for statuses that hurt or heal each round (RU-M06, RU-A31, RU-A38)."""
    con = max(character.score("CON"), 0)
    return {
        name: min(con, active.state.stacks)
        for name, active in character.statuses.items()
        if active.spec.acts_each_round
    }


def activate_effects(
    character: Character,
    dice: DiceSource,
    choice: BeginningChoices,
    options: Options = DEFAULTS,
    owners: Owners = NOBODY,
) -> tuple[Character, list[Event]]:
    """Sub-phase 1: each status that acts per stack hurts or heals, less the stacks CON
    ignores; ignored stacks stay on the character (RU-M06). Healing that finds out how a
    downed character's checks went rolls their consequences, their dice (`owners`); the
    death DC harm may make the GM roll is nobody's."""
    if character.public_life == "dead":
        return character, []
    limits = ignorable(character)
    acting = {n: a for n, a in character.statuses.items() if a.spec.acts_each_round}
    ignore = choice.ignore
    if ignore is None:
        ignore = {n: limits[n] for n, a in acting.items() if a.spec.damage_per_stack}
    for name, amount in ignore.items():
        if name not in limits or amount > limits[name]:
            raise Ap2d6Error(
                f"{character.name} can ignore at most "
                f"{counted(limits.get(name, 0), 'stack')} of [{name}]"
            )
    order = choice.order
    if order is None:
        order = tuple(sorted(acting, key=lambda n: (acting[n].spec.damage_per_stack > 0, n)))
    if sorted(order) != sorted(acting):
        raise Ap2d6Error(f"{character.name}'s order must list each of: {', '.join(sorted(acting))}")
    events: list[Event] = []
    for name in order:
        spec = acting[name].spec
        stacked = acting[name].state.stacks - ignore.get(name, 0)
        if ignore.get(name):
            events.append(
                Event(
                    kind="ignored",
                    summary=f"{character.name}'s CON ignores {ignore[name]} [{name}]",
                )
            )
        if character.public_life == "dead" or stacked <= 0:
            continue
        told = f"{character.name}'s [{name}] acts: {counted(stacked, 'stack')}"
        acts = Event(kind="status-effect", summary=told)
        if spec.damage_per_stack:
            character, more = health.take_damage(
                character, spec.damage_per_stack * stacked, dice, is_hit=False
            )
            events.append(acts)
            events += more
        if spec.heal_per_stack:
            with owners.rolling(character.name):
                character, more = health.heal(
                    character, spec.heal_per_stack * stacked, dice, options=options
                )
            events.append(acts)
            events += more
    return character, events


def manage_statuses(
    character: Character, options: Options = DEFAULTS
) -> tuple[Character, list[Event]]:
    """Sub-phase 2: AP comes back on the tracker, stacks wear off, durations count down."""
    tracker, events = character.tracker.start_round(options)
    events = [e.model_copy(update={"summary": f"{character.name}: {e.summary}"}) for e in events]
    kept: dict[str, ActiveStatus] = {}
    for name, active in character.statuses.items():
        stacks = active.state.stacks - active.spec.decay_per_round
        if stacks <= 0:
            events.append(Event(kind="status-ended", summary=f"{character.name}: [{name}] is gone"))
            continue
        kept[name] = ActiveStatus(
            spec=active.spec, state=Status(stacks=stacks, rounds_left=active.state.rounds_left)
        )
    changed = character.model_copy(update={"tracker": tracker, "statuses": kept})
    changed, expired = health.pass_rounds(changed, 1)
    return changed, events + expired


# -- the main phase --------------------------------------------------------------------------


def _started(combat: Combat) -> None:
    if combat.phase == "not-started":
        raise Ap2d6Error("the fight has not started: begin the first round")


def _actor(combat: Combat, name: str) -> Character:
    _started(combat)
    character = combat.character(name)
    if character.life != "up":
        raise Ap2d6Error(f"{name} is {character.public_life} and cannot act")
    return character


def _acted(combat: Combat, character: Character) -> Combat:
    count = combat.actions_taken + 1
    return combat.replaced(character).model_copy(
        update={"actions_taken": count, "last_acted": {**combat.last_acted, character.name: count}}
    )


def act(
    combat: Combat,
    name: str,
    action: ActionCost | str,
    *,
    kind: str | None = None,
    choice: Cost | None = None,
) -> Outcome:
    """`name` pays for an action: a basic action by name ("move", "draw-weapon", …) or any
    cost. `kind` groups uses for escalating costs (RU-M19); a basic action counts as itself."""
    character = _actor(combat, name)
    summary_extra = ""
    if isinstance(action, str):
        basic = basic_action(action)
        kind = kind or (ATTACK if basic.attack else action)
        cost = basic.cost
        if basic.vulnerable:
            summary_extra = f" ({name} is [vulnerable] while doing it)"
    else:
        cost = action
        kind = kind or str(action)
    tracker, event = character.tracker.pay(cost, kind, choice)
    event = event.model_copy(update={"summary": f"{name}: {event.summary}{summary_extra}"})
    return _acted(combat, character.model_copy(update={"tracker": tracker})), [event]


def tracker_change(
    combat: Combat,
    name: str,
    change: Literal["gain", "lose", "temp", "wait"],
    options: Options = DEFAULTS,
) -> Outcome:
    """Gain, lose or get temp AP, or wait (RU-M20..RU-M23)."""
    _started(combat)
    character = combat.character(name)
    tracker = character.tracker
    if change == "gain":
        tracker, event = tracker.gain()
    elif change == "lose":
        tracker, event = tracker.lose()
    elif change == "temp":
        tracker, event = tracker.add_temp()
    else:
        _actor(combat, name)
        tracker, event = tracker.wait(options)
    event = event.model_copy(update={"summary": f"{name}: {event.summary}"})
    return combat.replaced(character.model_copy(update={"tracker": tracker})), [event]


def death_check(
    combat: Combat, name: str, dice: DiceSource, options: Options = DEFAULTS
) -> Outcome:
    """A dying character's one death check this round (RU-M38, RU-A07)."""
    _started(combat)
    if name in combat.death_checked:
        raise Ap2d6Error(f"{name} has already made this round's death check")
    character, events = health.death_check(combat.character(name), dice, options=options)
    after = combat.replaced(character).model_copy(
        update={"death_checked": (*combat.death_checked, name)}
    )
    return after, events


def double_six_temp_ap(
    combat: Combat, name: str, rolled: TwoDice | None, attack: bool, options: Options
) -> Outcome:
    """A natural double 6 in initiative gives 1 temp AP (RU-M15, RU-A13)."""
    if rolled is None or not rolled.double_six:
        return combat, []
    if options.double_six_temp_ap == "attacks" and not attack:
        return combat, []
    after, events = tracker_change(combat, name, "temp", options)
    told = [e.model_copy(update={"summary": "double 6s: " + e.summary}) for e in events]
    return after, whose(told, name)


def roll_check(
    combat: Combat,
    name: str,
    score: str,
    dc: int,
    dice: DiceSource,
    *,
    special: bool = False,
    defender_wins_ties: bool = False,
    options: Options = DEFAULTS,
    owners: Owners = NOBODY,
) -> tuple[Combat, Check, list[Event]]:
    """A check during the fight with the character's score and its status modifiers.
    `special` marks a [special] score: without it on their sheet, the check fails (RU-M02).
    Its result is the character's part of the line (`owners`)."""
    character = _actor(combat, name)
    rolled = check(
        character.special_score(score) if special else character.score(score),
        dc,
        dice,
        modifier=character.check_modifier(score),
        defender_wins_ties=defender_wins_ties,
        options=options,
    )
    summary = f"{name} ({score}): {owners.part(name, rolled)}"
    events = [Event(kind="check", summary=summary, dice=_dice(rolled), who=name)]
    combat, more = double_six_temp_ap(combat, name, rolled.roll, False, options)
    return combat, rolled, events + more


def _dice(rolled: Check) -> tuple:
    return () if rolled.roll is None else (rolled.roll,)


def attack(
    combat: Combat,
    attacker: str,
    target: str,
    weapon: Weapon,
    dice: DiceSource,
    *,
    attack_name: str | None = None,
    grip: Grip | None = None,
    throw: bool = False,
    choice: Cost | None = None,
    options: Options = DEFAULTS,
) -> tuple[Combat, AttackResult, list[Event]]:
    """Pay the weapon's speed as the round's next attack (RU-M19), roll against the target's
    To-Hit, deal the damage and, on double 6s, take a temp AP. `throw` makes an improvised
    throw of a spear or dagger at (2n1) (RU-M32)."""
    character = _actor(combat, attacker)
    victim = combat.character(target)
    if throw:
        thrown = improvised_throw(character, weapon, attack_name, options)
        wielded, cost = thrown.wielded, thrown.cost
    else:
        wielded, cost = wield(character, weapon, attack_name, grip, options), weapon.speed
    tracker, paid = character.tracker.pay(cost, ATTACK, choice)
    combat = _acted(combat, character.model_copy(update={"tracker": tracker}))
    result = resolve(wielded, victim.to_hit, dice, options)
    events = [
        paid.model_copy(update={"summary": f"{attacker}: {paid.summary}"}),
        Event(
            kind="attack",
            summary=f"{attacker} attacks {target}: {result}",
            dice=_dice(result.check) + ((result.damage_roll,) if result.damage_roll else ()),
        ),
    ]
    if result.hit:
        victim, hurt = health.take_damage(victim, result.damage, dice)
        combat = combat.replaced(victim)
        events += hurt
    combat, more = double_six_temp_ap(combat, attacker, result.check.roll, True, options)
    return combat, result, events + more


# -- ordering and interrupts -----------------------------------------------------------------


def _initiative_modifier(character: Character, options: Options) -> int:
    return character.check_modifier("AGI") if options.encumbered_agi_contests else 0


def order(
    combat: Combat,
    names: Sequence[str],
    dice: DiceSource,
    options: Options = DEFAULTS,
    owners: Owners = NOBODY,
) -> tuple[list[str], list[Event]]:
    """Who goes first among characters acting at the same time: higher AGI first; on a tie,
    whoever acted least recently (RU-M26, RU-A32); characters who have not acted yet and
    tie on AGI roll an AGI contest, or keep the listed order if the table prefers. Each
    roll of it is its character's (`owners`)."""
    if not names:
        raise Ap2d6Error("name the characters acting at the same moment")
    characters = [combat.character(name) for name in names]
    if len(set(names)) != len(names):
        raise Ap2d6Error("each character can be listed once")

    def key(c: Character) -> tuple[int, int]:
        return (-c.score("AGI"), combat.last_acted.get(c.name, 0))

    ordered: list[str] = []
    events: list[Event] = []
    groups: dict[tuple[int, int], list[Character]] = {}
    for character in sorted(characters, key=key):
        groups.setdefault(key(character), []).append(character)
    for (_, acted), group in groups.items():
        if len(group) > 1 and acted == 0 and options.unacted_initiative_tie == "contest":
            names_in_order, rolled = _roll_off(group, dice, options, owners)
            ordered += names_in_order
            events += rolled
        else:
            ordered += [c.name for c in group]
    return ordered, events


def _roll_off(
    group: list[Character], dice: DiceSource, options: Options, owners: Owners
) -> tuple[list[str], list[Event]]:
    """Order characters tied on AGI by an AGI contest among them, rolling again while tied."""
    pending = [group]
    ordered: list[str] = []
    events: list[Event] = []
    for _ in range(MAX_ORDER_ROLL_OFFS):
        if not pending:
            return ordered, events
        tied = pending.pop(0)
        if len(tied) == 1:
            ordered.append(tied[0].name)
            continue
        totals: dict[int, list[Character]] = {}
        for character in tied:
            with owners.rolling(character.name):
                rolled = roll_2d6(dice)
            total = rolled.total + character.score("AGI") + _initiative_modifier(character, options)
            totals.setdefault(total, []).append(character)
            events.append(
                Event(
                    kind="initiative-roll",
                    summary=f"{character.name}: {rolled} → {total}",
                    dice=(rolled,),
                    who=character.name,
                )
            )
        pending = [totals[total] for total in sorted(totals, reverse=True)] + pending
    for group_left in pending:
        ordered += [c.name for c in group_left]
    return ordered, events


def interrupt(
    combat: Combat,
    interrupter: str,
    target: str,
    dice: DiceSource,
    *,
    tagged: bool = False,
    options: Options = DEFAULTS,
    owners: Owners = NOBODY,
) -> tuple[Combat, str, list[Event]]:
    """Try to act before `target`'s action: an initiative (AGI) contest, paying (1n1) unless
    the move has [interrupt] (RU-M27, RU-A14). Returns who acts first; the other still acts.
    A double 6 on either side's roll is a roll in initiative: 1 temp AP (RU-A13). Each
    side's dice and rolls are its character's (`owners`); who acts first is everyone's.
    The contest's line comes first, the (1n1) paid for it after: it is the step's line."""
    character = _actor(combat, interrupter)
    if character.tracker.waiting:
        raise Ap2d6Error(f"{interrupter} is waiting and can do nothing else this round")
    if target == interrupter:
        raise Ap2d6Error("a character cannot interrupt their own action")
    opponent = combat.character(target)
    if opponent.life != "up" or opponent.tracker.waiting:
        why = "waiting" if opponent.life == "up" else opponent.public_life
        raise Ap2d6Error(f"{target} is {why}: there is no action of theirs to interrupt")
    paid: list[Event] = []
    if not tagged:
        combat, paid = act(combat, interrupter, "interrupt")
    elif options.interrupt_tag_waives == "cost-and-contest":
        return (
            combat,
            interrupter,
            [Event(kind="interrupt", summary=f"{interrupter} acts first ([interrupt])")],
        )
    result = contest(
        character.score("AGI"),
        opponent.score("AGI"),
        dice,
        first_modifier=_initiative_modifier(character, options),
        second_modifier=_initiative_modifier(opponent, options),
        full_tie="redo",
        options=options,
        whose=(owners.id(interrupter), owners.id(target)),
    )
    first = interrupter if result.winner == "first" else target
    rolls = tuple(side.roll for pair in result.rounds for side in pair if side.roll is not None)
    sides = ", then ".join(result.rolls((owners.kept_id(interrupter), owners.kept_id(target))))
    contested = Event(
        kind="interrupt",
        summary=f"{interrupter} interrupts {target}: {sides}: {first} acts first",
        dice=rolls,
    )
    events = [contested, *whose(paid, interrupter)]
    for pair in result.rounds:
        for name, side in zip((interrupter, target), pair, strict=True):
            combat, more = double_six_temp_ap(combat, name, side.roll, False, options)
            events += more
    return combat, first, events


# -- the open decision -----------------------------------------------------------------------


class Choice(BaseModel):
    """A move open to someone now, for bots and interfaces to offer."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["begin-round", "main-phase", "spend", "wait", "death-check", "check-on"]
    who: str | None = None
    detail: str = ""


class Decision(BaseModel):
    """What the fight is waiting for: the round and phase, and the choices open."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    round: int
    phase: Phase
    choices: tuple[Choice, ...]


def open_decision(combat: Combat, options: Options = DEFAULTS) -> Decision:
    """The choices open now. Spending is open to anyone up with AP on cell 0 (up to that much);
    the round can end whenever the table is done."""
    choices: list[Choice] = [Choice(kind="begin-round", detail=f"start round {combat.round + 1}")]
    if combat.phase == "beginning-moves":
        choices.append(Choice(kind="main-phase"))
    if combat.phase != "not-started":
        for character in combat.characters:
            tracker = character.tracker
            if character.life == "up" and not tracker.waiting and tracker.spendable:
                choices.append(
                    Choice(kind="spend", who=character.name, detail=f"up to {tracker.spendable} AP")
                )
            if (
                character.life == "up"
                and not tracker.waiting
                and (not tracker.acted or options.wait_after_acting)
            ):
                choices.append(Choice(kind="wait", who=character.name))
            if character.life == "dying" and character.name not in combat.death_checked:
                choices.append(Choice(kind="death-check", who=character.name))
            if health.fate_unknown(character):
                choices.append(Choice(kind="check-on", who=character.name))
    return Decision(round=combat.round, phase=combat.phase, choices=tuple(choices))


def check_on(combat: Combat, name: str, dice: DiceSource, options: Options = DEFAULTS) -> Outcome:
    """Someone checks on a downed character and finds out how it went (RU-M38)."""
    character, events = health.check_on(combat.character(name), dice, options=options)
    return combat.replaced(character), events
