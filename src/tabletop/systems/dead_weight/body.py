"""The body: fatigue and wounds per attribute, fainting, mortal wounds, traumas, healing.

Fatigue goes on an attribute until it is full (fatigue + wounds = score); after that each
new point turns an existing fatigue point into a wound, and when there is none to turn the
character faints (DW-M32, DW-A13). Wounds go where the player places them, converting
fatigue where they must (DW-A14); when no attribute can hold another, a lethal wound
mortally wounds and a non-lethal one knocks out (DW-M44).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from tabletop.dice import DiceSource, RolledRisk, roll
from tabletop.systems.dead_weight.afflictions import Remedy, remove_affliction, stays_sleepy
from tabletop.systems.dead_weight.attributes import Attribute
from tabletop.systems.dead_weight.catalogue import Affliction, Trait, Trauma
from tabletop.systems.dead_weight.character import (
    Character,
    Condition,
    Pending,
    PendingKind,
    revise,
    with_attribute,
)
from tabletop.systems.dead_weight.errors import DeadWeightError
from tabletop.systems.dead_weight.events import Event, event
from tabletop.systems.dead_weight.options import DEFAULT, Options
from tabletop.systems.dead_weight.tables import system_table
from tabletop.words import counted, said, said_plus

Change = tuple[Character, list[Event]]


# fatigue -------------------------------------------------------------------------------


def receive_fatigue(character: Character, attribute: Attribute, points: int = 1) -> Change:
    """Put `points` fatigue on `attribute`, one at a time, with the overflow rule.

    Under Plagued each point arrives as a wound on that attribute instead (DW-M54)."""
    events: list[Event] = []
    for _ in range(max(0, points)):
        if character.has(Affliction.PLAGUED):
            character, more = _forced_wound(character, attribute, "plagued: fatigue as a wound")
        else:
            character, more = _one_fatigue(character, attribute)
        events += more
    return character, events


def _one_fatigue(character: Character, attribute: Attribute) -> Change:
    state = character.attribute(attribute)
    if state.fatigue + state.wounds < state.score:
        updated = with_attribute(character, attribute, fatigue=state.fatigue + 1)
        return updated, [
            event(
                "fatigue",
                f"{character.label}'s {attribute} takes a fatigue point",
                attribute=attribute,
            )
        ]
    if state.fatigue > 0:
        updated = with_attribute(
            character, attribute, fatigue=state.fatigue - 1, wounds=state.wounds + 1
        )
        text = f"{character.label}'s {attribute} is full: a fatigue point becomes a wound"
        return updated, [event("fatigue to wound", text, attribute=attribute)]
    return faint(character, 1, f"{attribute} cannot take another fatigue point")


def _forced_wound(character: Character, attribute: Attribute, why: str) -> Change:
    """A wound that must go on `attribute` (DW-M43): added, converting fatigue if full,
    or, if the attribute cannot hold it, the character faints."""
    state = character.attribute(attribute)
    if state.wounds >= state.score:
        return faint(character, 1, f"{attribute} cannot hold another wound ({why})")
    if state.fatigue + state.wounds < state.score:
        updated = with_attribute(character, attribute, wounds=state.wounds + 1)
        text = f"{character.label}'s {attribute} takes a wound ({why})"
    else:
        updated = with_attribute(
            character, attribute, fatigue=state.fatigue - 1, wounds=state.wounds + 1
        )
        text = (
            f"{character.label}'s {attribute} takes a wound, turning a fatigue point into it "
            f"({why})"
        )
    return updated, [event("wound", text, attribute=attribute, converted="turning" in text)]


def wound_attribute(character: Character, attribute: Attribute, points: int, why: str) -> Change:
    """Wounds that a rule puts on one attribute: any that do not fit make the character faint."""
    events: list[Event] = []
    for _ in range(max(0, points)):
        character, more = _forced_wound(character, attribute, why)
        events += more
    return character, events


# fainting ------------------------------------------------------------------------------


def faint(character: Character, discarded: int, why: str) -> Change:
    """The character faints (or stays fainted) with `discarded` more points to wait out."""
    condition = character.condition
    updated = character.model_copy(
        update={
            "condition": condition.model_copy(
                update={"fainted": True, "faint_turns": condition.faint_turns + discarded}
            ),
            "tokens": character.tokens.model_copy(update={"stun": 0}),
        }
    )
    text = f"{character.label} faints: {why}" if not condition.fainted else f"{why} (discarded)"
    return updated, [event("faint", text, discarded=discarded)]


def pass_fainted_turn(character: Character) -> Change:
    """One combat or exploration turn passes for a fainted character."""
    condition = character.condition
    if not condition.fainted or condition.faint_turns == 0:
        return character, []
    turns = condition.faint_turns - 1
    updated = character.model_copy(
        update={"condition": condition.model_copy(update={"faint_turns": turns})}
    )
    return updated, [
        event(
            "faint turn", f"{character.label}: {counted(turns, 'turn')} left before trying to wake"
        )
    ]


def try_to_wake(character: Character, dice: DiceSource, options: Options = DEFAULT) -> Change:
    """After waiting, roll 1d! to wake up (DW-M46; which result wakes is DW-A17)."""
    condition = character.condition
    if not condition.fainted or condition.mortally_wounded or condition.dead:
        raise DeadWeightError(f"{character.label} is not simply fainted")
    if condition.faint_turns:
        raise DeadWeightError(
            f"{character.label} must wait {counted(condition.faint_turns, 'more turn')}"
        )
    rolled = roll("1d!", dice)
    risk = rolled.pools()[0]
    assert isinstance(risk, RolledRisk)
    wakes = risk.triggered == (options.wake_on == "risk_triggers")
    record = {"roll": rolled.to_json(), "woke": wakes}
    tries = f"{character.label} tries to wake on {said(rolled)}"
    if not wakes:
        return character, [event("wake roll", f"{tries}: still out cold", **record)]
    woken = character.model_copy(update={"condition": Condition()})
    return woken, [event("wake roll", f"{tries}: {character.label} wakes up", **record)]


StabiliseMeans = Literal["first aid kit", "medical supply", "healing spell"]


def stabilise(character: Character, means: StabiliseMeans, *, in_combat: bool) -> Change:
    """Stabilise and wake a mortally wounded or fainted character (DW-M46, DW-M47).

    Only a character on the verge of death (mortal row 6) may be stabilised during combat;
    others wait for the combat to end (DW-A38)."""
    condition = character.condition
    if condition.dead:
        raise DeadWeightError(f"{character.label} is dead")
    if not (condition.mortally_wounded or condition.fainted):
        raise DeadWeightError(f"{character.label} needs no stabilising")
    if in_combat and not condition.verge_of_death:
        raise DeadWeightError("stabilising waits until the combat is over (DW-A38)")
    woken = character.model_copy(update={"condition": Condition()})
    return woken, [event("stabilised", f"{character.label} is stabilised with a {means}")]


def combat_turn_ends(character: Character) -> Change:
    """At the end of a combat turn, a character on the verge of death dies (mortal row 6)."""
    if character.condition.verge_of_death and not character.condition.dead:
        return _die(character, "was not stabilised in time")
    return character, []


def _die(character: Character, why: str) -> Change:
    dead = Condition(dead=True)
    return character.model_copy(update={"condition": dead}), [
        event("death", f"{character.label} dies: {why}")
    ]


# wounds --------------------------------------------------------------------------------


class WoundPlacement(BaseModel):
    """Where the player puts one wound point, and whether it turns a fatigue point into it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    attribute: Attribute
    convert: bool = False


def can_hold_a_wound(character: Character) -> list[Attribute]:
    """Attributes with room for another wound (wounds below the score)."""
    return [a for a in Attribute if not character.attribute(a).full_of_wounds]


def receive_wounds(
    character: Character,
    wounds: int,
    placements: list[WoundPlacement],
    dice: DiceSource,
    *,
    lethal: bool = True,
    in_combat: bool = False,
    mortal_modifier: int = 0,
    options: Options = DEFAULT,
) -> Change:
    """Place `wounds` from one source, as the player chose in `placements` (DW-M42..M44).

    Give one placement per point that some attribute can hold; points that no attribute
    can hold mortally wound (lethal) or knock out (non-lethal) instead."""
    if wounds <= 0 or character.condition.dead:
        return character, []
    if character.condition.mortally_wounded:
        if lethal:
            return _die(character, "hurt again while mortally wounded")
        return faint(character, wounds, "non-lethal damage to a mortally wounded character")
    events: list[Event] = []
    queue = list(placements)
    for point in range(wounds):
        room = can_hold_a_wound(character)
        if not room:
            if queue:
                raise DeadWeightError("no attribute can hold these wounds: give no more placements")
            return _unplaceable(
                character, wounds - point, dice, lethal, mortal_modifier, options, events
            )
        if not queue:
            raise DeadWeightError(
                f"{counted(wounds - point, 'more wound')} to place: choose an attribute for each"
            )
        character, more = _place(character, queue.pop(0))
        events += more
    if queue:
        raise DeadWeightError(f"{counted(len(queue), 'placement')} more than there are wounds")
    if in_combat and character.has(Affliction.SLEEPY):
        if stays_sleepy(character):
            events.append(
                event(
                    "sleepy", f"{character.label}, a coffee addict with no coffee yet, stays Sleepy"
                )
            )
        else:
            character, more = remove_affliction(
                character, Affliction.SLEEPY, Remedy.WOUND_IN_COMBAT
            )
            events += more
    return character, events


def _place(character: Character, placement: WoundPlacement) -> Change:
    attribute = placement.attribute
    state = character.attribute(attribute)
    if state.full_of_wounds:
        raise DeadWeightError(f"{attribute} cannot hold more wounds than its score {state.score}")
    full = state.fatigue + state.wounds == state.score
    if full and not placement.convert:
        raise DeadWeightError(f"{attribute} is full: this wound must turn a fatigue point into it")
    if placement.convert and state.fatigue == 0:
        raise DeadWeightError(f"{attribute} has no fatigue to turn into a wound")
    fatigue = state.fatigue - 1 if placement.convert else state.fatigue
    updated = with_attribute(character, attribute, fatigue=fatigue, wounds=state.wounds + 1)
    how = ", turning a fatigue point into it" if placement.convert else ""
    return updated, [
        event(
            "wound",
            f"{character.label}'s {attribute} takes a wound{how}",
            attribute=attribute,
            converted=placement.convert,
        )
    ]


def _unplaceable(
    character: Character,
    left: int,
    dice: DiceSource,
    lethal: bool,
    modifier: int,
    options: Options,
    events: list[Event],
) -> Change:
    if not lethal:
        character, more = faint(character, left, "no attribute can hold a non-lethal wound")
        return character, events + more
    character, more = mortally_wound(character, dice, modifier)
    events += more
    excess = left - 1
    condition = character.condition
    if not excess or condition.dead:
        return character, events
    if condition.mortally_wounded and options.mortal_excess_same_instance == "kill":
        character, more = _die(character, "more wounds from the same blow (DW-A15)")
        return character, events + more
    if condition.fainted and not condition.mortally_wounded:
        # knocked out (row 1) or spared by Rejected by death: the rest of the blow is
        # discarded while fainting, so it lengthens the faint (DW-A16, DW-A37, DW-X06)
        character, more = faint(character, excess, "the rest of the blow")
        return character, events + more
    text = f"{character.label}: {counted(excess, 'more wound')} of the same blow discarded"
    return character, [*events, event("discarded", text, discarded=excess)]


def mortally_wound(character: Character, dice: DiceSource, modifier: int = 0) -> Change:
    """A wound no attribute can hold: Rejected by death may save the character (2d!),
    otherwise roll on the mortal wounds table (1d6 + earlier mortal wounds this
    expedition + `modifier`)."""
    events: list[Event] = []
    if character.has(Trait.REJECTED_BY_DEATH):
        rolled = roll("2d!", dice)
        risk = rolled.pools()[0]
        assert isinstance(risk, RolledRisk)
        if risk.triggered:
            events.append(
                event(
                    "rejected by death",
                    f"Rejected by death, {said(rolled)}: death rejects {character.label}",
                    roll=rolled.to_json(),
                )
            )
            character, more = faint(character, 1, "rejected by death (DW-A37)")
            return character, events + more
        told = f"Rejected by death, {said(rolled)}: no reprieve for {character.label}"
        events.append(event("rejected by death", told, roll=rolled.to_json()))
    earlier = character.expedition.mortal_wounds
    table = system_table("mortal-wounds")
    result = table.roll(dice, modifier=earlier + modifier)
    events.append(
        event(
            "mortal wound roll",
            f"{character.label}'s mortal wound, "
            f"{said_plus(result.roll, earlier + modifier, result.value)}: {result.entry.name}",
            **result.to_json(),
        )
    )
    kind = result.entry.effects[0].kind
    if kind == "spared":
        return character, events
    expedition = character.expedition.model_copy(update={"mortal_wounds": earlier + 1})
    character = character.model_copy(update={"expedition": expedition})
    if kind == "faint":
        character, more = faint(character, 1, "knocked out")
        return character, events + more
    if kind == "death":
        character, more = _die(character, "a mortal wound")
        return character, events + more
    condition = character.condition.model_copy(
        update={"mortally_wounded": True, "verge_of_death": kind == "verge_of_death"}
    )
    character = character.model_copy(update={"condition": condition})
    events.append(event("mortally wounded", f"{character.label} is mortally wounded"))
    if kind == "trauma":
        character, more = gain_trauma(
            character, Trauma.named(result.entry.effects[0].fields["name"])
        )
        events += more
    elif kind == "choose_trauma":
        character, more = _ask_for_a_trauma(character)
        events += more
    return character, events


# traumas -------------------------------------------------------------------------------


def gain_trauma(character: Character, trauma: Trauma) -> Change:
    """Add a trauma (nothing if already held); chronic pain and brain damage also ask which
    score or proficiency drops (DW-M53)."""
    if character.has(trauma):
        return character, [event("trauma ignored", f"{character.label} already has {trauma}")]
    character = revise(character, traumas=(*character.traumas, trauma))
    events = [event("trauma", f"{character.label} receives the {trauma} trauma", trauma=trauma)]
    if trauma == Trauma.CHRONIC_PAIN:
        options = [a for a in Attribute if character.attribute(a).score > 0]
        kind = PendingKind.LOWER_SCORE
    elif trauma == Trauma.BRAIN_DAMAGE:
        options = [a for a in Attribute if character.attribute(a).proficiency > 0]
        kind = PendingKind.LOWER_PROFICIENCY
    else:
        return character, events
    if len(options) == 1:
        character, more = _lower(character, kind, options[0])
        return character, events + more
    if options:
        ask = Pending(kind=kind, options=tuple(options), reason=str(trauma))
        character = character.model_copy(update={"pending": (*character.pending, ask)})
    return character, events


def _ask_for_a_trauma(character: Character) -> Change:
    missing = tuple(trauma.value for trauma in Trauma if not character.has(trauma))
    if not missing:
        return character, [event("trauma ignored", f"{character.label} already holds every trauma")]
    ask = Pending(kind=PendingKind.CHOOSE_TRAUMA, options=missing, reason="mortal wound row 3")
    return character.model_copy(update={"pending": (*character.pending, ask)}), [
        event("choose", f"{character.label}: choose a trauma not held yet", options=list(missing))
    ]


def resolve_pending(character: Character, answer: str) -> Change:
    """Answer the first pending choice on the sheet with one of its options."""
    if not character.pending:
        raise DeadWeightError("nothing is waiting for a choice")
    first, rest = character.pending[0], character.pending[1:]
    if answer not in first.options:
        raise DeadWeightError(f"to {first.kind}, choose one of {', '.join(first.options)}")
    character = character.model_copy(update={"pending": rest})
    if first.kind == PendingKind.CHOOSE_TRAUMA:
        return gain_trauma(character, Trauma(answer))
    return _lower(character, first.kind, Attribute(answer))


def _lower(character: Character, kind: PendingKind, attribute: Attribute) -> Change:
    state = character.attribute(attribute)
    if kind == PendingKind.LOWER_PROFICIENCY:
        updated = with_attribute(character, attribute, proficiency=state.proficiency - 1)
        return updated, [
            event(
                "proficiency lowered", f"{character.label}'s {attribute} proficiency drops by one"
            )
        ]
    score = state.score - 1
    wounds = min(state.wounds, score)
    fatigue = min(state.fatigue, score - wounds)
    updated = with_attribute(character, attribute, score=score, fatigue=fatigue, wounds=wounds)
    if attribute == Attribute.INT:
        magic = updated.magic
        kept = magic.spells_memorised[:score]
        updated = updated.model_copy(
            update={"magic": magic.model_copy(update={"spells_memorised": kept})}
        )
    if attribute == Attribute.PRE:
        magic = updated.magic
        kept = magic.prayers_memorised[:score]
        exhausted = tuple(p for p in magic.prayers_exhausted if p in kept)
        updated = updated.model_copy(
            update={
                "magic": magic.model_copy(
                    update={"prayers_memorised": kept, "prayers_exhausted": exhausted}
                )
            }
        )
    return revise(updated), [
        event("score lowered", f"{character.label}'s {attribute} score drops to {score}")
    ]


# healing -------------------------------------------------------------------------------


def recover_fatigue(character: Character, attribute: Attribute, points: int = 1) -> Change:
    """Take fatigue off an attribute (when and how much is another book's rule, DW-G09);
    Parched blocks it."""
    if character.has(Affliction.PARCHED):
        raise DeadWeightError(f"{character.label} is parched: fatigue does not recover")
    state = character.attribute(attribute)
    healed = min(points, state.fatigue)
    updated = with_attribute(character, attribute, fatigue=state.fatigue - healed)
    return updated, [
        event("fatigue recovered", f"{character.label}'s {attribute} recovers {healed} fatigue")
    ]


def heal_wounds(
    character: Character, attribute: Attribute, points: int = 1, *, by_resting: bool = False
) -> Change:
    """Heal wounds on an attribute (DW-G09); Hungry blocks it, Cursed blocks healing by rest."""
    if character.has(Affliction.HUNGRY):
        raise DeadWeightError(f"{character.label} is hungry: wounds do not heal")
    if by_resting and character.has(Affliction.CURSED):
        raise DeadWeightError(f"{character.label} is cursed: wounds do not heal by resting")
    state = character.attribute(attribute)
    healed = min(points, state.wounds)
    updated = with_attribute(character, attribute, wounds=state.wounds - healed)
    return updated, [
        event("wounds healed", f"{character.label}'s {attribute} heals {counted(healed, 'wound')}")
    ]
