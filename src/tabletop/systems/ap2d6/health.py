"""Health: damage, dying and death checks on the sheet, healing, rest and recovery dice.

Each function takes a character (and dice where the rules roll) and returns the new sheet
with the events; a change the rules refuse raises `Ap2d6Error` and changes nothing.
"""

from __future__ import annotations

from typing import Any

from tabletop.dice import DiceSource
from tabletop.systems.ap2d6 import death
from tabletop.systems.ap2d6.errors import Ap2d6Error
from tabletop.systems.ap2d6.events import Event
from tabletop.systems.ap2d6.options import DEFAULTS, Options
from tabletop.systems.ap2d6.records import roll_dice
from tabletop.systems.ap2d6.sheet import ActiveStatus, Character, Injuries
from tabletop.systems.ap2d6.statuses import (
    ROUNDS_PER_HOUR,
    Status,
    StatusCatalogue,
    shipped_statuses,
)

CONSCIOUS_AT = 6
"""A stable character wakes at 6 HP or more (RU-M36)."""

LONG_REST_HOURS = 8
"""A rest this long gives back every recovery die (RU-M33)."""

MAX_REST_HOURS = 24 * 365
"""Hours one rest may last."""

MAX_AMOUNT = 100_000
"""Damage or healing one call may deal."""

Outcome = tuple[Character, list[Event]]


def _amount(amount: int, what: str) -> int:
    if isinstance(amount, bool) or not isinstance(amount, int) or not 0 <= amount <= MAX_AMOUNT:
        raise Ap2d6Error(f"{what} must be a whole number from 0 to {MAX_AMOUNT:,}")
    return amount


def dies_outright(hp: int, max_hp: int) -> bool:
    """Reduced to -(Max HP / 2) or below (RU-M34, RU-A19), compared exactly: 2·HP ≤ -Max HP."""
    return 2 * hp <= -max_hp


def take_damage(
    character: Character, amount: int, dice: DiceSource, *, is_hit: bool = True
) -> Outcome:
    """Lose `amount` HP. At 0 or below the character goes down and the GM rolls the secret
    death DC (RU-M35, RU-M37); at -(Max HP / 2) they die outright (RU-M34); a hit while down
    adds a failed death check (RU-M39), other harm such as [poison] does not (RU-A43)."""
    _amount(amount, "damage")
    if character.public_life == "dead":
        raise Ap2d6Error(f"{character.name} is already dead")
    hp = character.current_hp - amount
    update: dict[str, Any] = {"hp": hp}
    events = [
        Event(
            kind="damage",
            summary=f"{character.name} takes {amount} damage (HP {hp})",
            data={"amount": amount},
        )
    ]
    outright = dies_outright(hp, character.max_hp)
    if character.down or character.secretly_dead:
        assert character.dying is not None
        record, more = (
            death.hit(character.dying, amount, character.name) if is_hit else (character.dying, [])
        )
        events += more
        if outright:
            record, _ = death.end_by(record, "killed-outright", character.name)
            record = record.model_copy(update={"revealed": True})
        elif record.end == "healed" and hp <= 0:
            record, more = death.end_by(record, None, character.name)
            events += more
        update |= {"dying": record, "life": _life(record)}
    elif outright:
        update["life"] = "dead"
    elif hp <= 0:
        record, rolled = death.start(dice, character.name)
        update |= {"dying": record, "life": "dying"}
        events += [Event(kind="downed", summary=f"{character.name} is down"), rolled]
    if outright:
        events.append(Event(kind="killed", summary=f"{character.name} dies outright"))
    return character.model_copy(update=update), events


def _life(record: death.DeathRecord) -> str:
    if record.survived is False:
        return "dead"
    return "dying" if record.rolling else "unconscious"


def death_check(
    character: Character, dice: DiceSource, *, modifier: int = 0, options: Options = DEFAULTS
) -> Outcome:
    """The downed character's death check for this turn (RU-M38)."""
    if character.dying is None:
        raise Ap2d6Error(f"{character.name} is not down")
    record, events = death.roll_check(
        character.dying, dice, character.name, modifier=modifier, options=options
    )
    return character.model_copy(update={"dying": record, "life": _life(record)}), events


def heal(
    character: Character,
    amount: int,
    dice: DiceSource,
    *,
    statuses: StatusCatalogue | None = None,
    options: Options = DEFAULTS,
) -> Outcome:
    """Regain HP up to Max HP. Above 0 HP a dying character is stable (RU-A20); at 6 HP or
    more a stable one wakes (RU-M36). Healing someone whose checks have stopped means going
    to them, so it first checks on them and reveals their fate (RU-A41)."""
    _amount(amount, "healing")
    events: list[Event] = []
    if fate_unknown(character):
        character, events = check_on(character, dice, statuses=statuses, options=options)
    if character.life == "dead":
        if events:
            too_late = Event(
                kind="too-late", summary=f"{character.name} is dead: healing cannot help"
            )
            return character, [*events, too_late]
        raise Ap2d6Error(f"{character.name} is dead; healing cannot help")
    hp = min(character.current_hp + amount, max(character.max_hp, character.current_hp))
    update: dict[str, Any] = {"hp": hp}
    events.append(Event(kind="heal", summary=f"{character.name} regains health (HP {hp})"))
    if character.life == "dying" and hp > 0:
        assert character.dying is not None
        record, more = death.end_by(character.dying, "healed", character.name)
        update |= {"dying": record, "life": "unconscious"}
        events += more
    healed = character.model_copy(update=update)
    return _maybe_wake(healed, events, dice, statuses, options)


def fate_unknown(character: Character) -> bool:
    """Down, done with death checks, and nobody has checked on them yet: whether they live is
    the GM's secret, so nothing may treat them differently until someone looks (RU-A41)."""
    return (
        character.dying is not None and not character.dying.rolling and not character.dying.revealed
    )


def check_on(
    character: Character,
    dice: DiceSource,
    *,
    statuses: StatusCatalogue | None = None,
    options: Options = DEFAULTS,
) -> Outcome:
    """Someone checks on a downed character: the outcome is revealed and, if they lived, the
    consequence of each failed check is rolled and applied to the sheet (RU-M38, RU-A22)."""
    if character.dying is None:
        raise Ap2d6Error(f"{character.name} has not been down")
    record, events = death.check_on(character.dying, dice, character.name)
    if record.survived and not character.dying.revealed:
        character = apply_consequences(character, record.consequences, statuses, options)
    checked = character.model_copy(update={"dying": record})
    return _maybe_wake(checked, events, dice, statuses, options)


def _maybe_wake(
    character: Character,
    events: list[Event],
    dice: DiceSource,
    statuses: StatusCatalogue | None,
    options: Options,
) -> Outcome:
    """A stable character at 6 HP or more regains consciousness (RU-M36) and, waking, finds
    out what dying cost them if nobody has checked on them yet (RU-A41)."""
    if character.life != "unconscious" or character.current_hp < CONSCIOUS_AT:
        return character, events
    if character.dying is not None and not character.dying.revealed:
        revealed, more = check_on(character, dice, statuses=statuses, options=options)
        return revealed, [*events, *more]
    woken = character.model_copy(update={"life": "up", "dying": None})
    return woken, [*events, Event(kind="wake", summary=f"{character.name} regains consciousness")]


def apply_consequences(
    character: Character,
    consequences: tuple[death.Consequence, ...],
    statuses: StatusCatalogue | None = None,
    options: Options = DEFAULTS,
) -> Character:
    """Put resolved consequences on the sheet: statuses with durations (the longer one of a
    repeat kept, RU-A22), scars, lowered scores, lameness, lost limbs; then HP is capped at
    the new Max HP (RU-A26)."""
    catalogue = statuses or shipped_statuses()
    scores = dict(character.scores)
    active = dict(character.statuses)
    injuries = character.injuries
    for consequence in consequences:
        if consequence.status is not None:
            rounds = (consequence.hours or 0) * ROUNDS_PER_HOUR
            held = active.get(consequence.status)
            if held is not None and held.state.rounds_left is not None:
                before = held.state.rounds_left
                rounds = (
                    max(before, rounds)
                    if options.repeated_consequence_status == "longest"
                    else before + rounds
                )
            spec = catalogue.spec(consequence.status)
            active[consequence.status] = ActiveStatus(spec=spec, state=Status(rounds_left=rounds))
        if consequence.lowered_score is not None:
            scores[consequence.lowered_score] = scores.get(consequence.lowered_score, 0) - 1
        injuries = Injuries(
            scars=injuries.scars + consequence.scars,
            lame=injuries.lame or consequence.lame,
            lost_limbs=injuries.lost_limbs
            + ((consequence.lost_limb,) if consequence.lost_limb else ()),
        )
    changed = character.model_copy(
        update={"scores": scores, "statuses": active, "injuries": injuries}
    )
    return changed.model_copy(update={"hp": min(changed.current_hp, changed.max_hp)})


def rest(
    character: Character,
    hours: int,
    dice_to_spend: int,
    dice: DiceSource,
    *,
    statuses: StatusCatalogue | None = None,
    options: Options = DEFAULTS,
) -> Outcome:
    """Rest for `hours`, spending up to one recovery die an hour (d6 each, HP capped at Max,
    RU-A18); statuses run down; 8 hours or more give back every recovery die (RU-M33).

    A stable character at 6 HP or more wakes (RU-M36). Statuses that act every round
    ([poison], [bleed], [heal]) must be played out first (RU-A40). Resting a downed character
    whose fate is still secret means staying with them, so it checks on them first; until
    then every refusal is the same whether they live or not (RU-A41)."""
    if not 1 <= hours <= MAX_REST_HOURS:
        raise Ap2d6Error(f"a rest lasts from 1 to {MAX_REST_HOURS:,} hours")
    known = "dying" if character.life == "dying" else character.public_life
    if known in ("dying", "dead"):
        raise Ap2d6Error(f"{character.name} cannot rest while {known}")
    left = min(character.recovery_dice or 0, character.max_recovery_dice)
    if not 0 <= dice_to_spend <= min(hours, left):
        raise Ap2d6Error(
            f"{character.name} can spend 0 to {min(hours, left)} recovery dice in {hours} hours"
            f" ({left} left, at most one an hour)"
        )
    acting = sorted(name for name, s in character.statuses.items() if s.spec.acts_each_round)
    if acting:
        raise Ap2d6Error(
            f"play out [{'], ['.join(acting)}] round by round before resting: they act every round"
        )
    events: list[Event] = []
    if fate_unknown(character):
        character, events = check_on(character, dice, statuses=statuses, options=options)
        if character.life == "dead":
            return character, [
                *events,
                Event(kind="too-late", summary=f"{character.name} is dead: the dead do not rest"),
            ]
        # A lowered CON may have taken recovery dice away with the Max HP they came from.
        left = min(left, character.max_recovery_dice)
        dice_to_spend = min(dice_to_spend, left)
    dice_words = "recovery die" if dice_to_spend == 1 else "recovery dice"
    spent = f", {dice_to_spend} {dice_words} to roll" if dice_to_spend else ""
    events.append(
        Event(kind="rest", summary=f"{character.name} rests {death.hours_words(hours)}{spent}")
    )
    for hour in range(1, hours + 1):
        if hour <= dice_to_spend:
            rolled = roll_dice("1d6", dice)
            hp = min(character.current_hp + rolled.total, max(character.max_hp, 0))
            character = character.model_copy(
                update={"hp": max(hp, character.current_hp), "recovery_dice": left - hour}
            )
            events.append(
                Event(
                    kind="recovery-die",
                    summary=(
                        f"{character.name}, hour {hour}: recovery die {rolled}"
                        f" (HP {character.current_hp})"
                    ),
                    dice=(rolled,),
                )
            )
        character, expired = pass_rounds(character, ROUNDS_PER_HOUR)
        events += expired
        character, events = _maybe_wake(character, events, dice, statuses, options)
    if hours >= LONG_REST_HOURS:
        character = character.model_copy(update={"recovery_dice": character.max_recovery_dice})
        events.append(
            Event(
                kind="long-rest",
                summary=f"{character.name} ends a long rest: every recovery die is back",
            )
        )
    return character, events


def pass_rounds(character: Character, rounds: int) -> Outcome:
    """Time passes: statuses with a duration run down and end when it runs out."""
    kept: dict[str, ActiveStatus] = {}
    events = []
    for name, active in character.statuses.items():
        left = active.state.rounds_left
        if left is None or left > rounds:
            state = (
                active.state
                if left is None
                else Status(stacks=active.state.stacks, rounds_left=left - rounds)
            )
            kept[name] = ActiveStatus(spec=active.spec, state=state)
        else:
            told = f"{character.name}'s [{name}] wears off"
            events.append(Event(kind="status-ended", summary=told))
    changed = character.model_copy(update={"statuses": kept})
    return changed, events
