"""Hit points, fatigue, injury and wounds (article 6, with § 7.2, § 11.3 and § 15.7).

HP is re-rolled, never healed: a short rest re-rolls hit dice with one disadvantage die per
point of fatigue and penance; sleep clears fatigue. When damage gets past HP, or an effect
bypasses HP, the character rolls the two injury saves.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from tabletop.dice import DiceSource, roll
from tabletop.systems.constitution.character import Character, Wound, bonuses
from tabletop.systems.constitution.check import Check, check
from tabletop.systems.constitution.errors import ConstitutionError
from tabletop.systems.constitution.models import DiceRecord, Event, Model, theirs
from tabletop.systems.constitution.options import DEFAULT, Options

INJURY_DC = 20
"""Both injury saves start at DC 20; overflow damage adds to it (§ 6.6)."""

DIRECT_HIT_PRICE = 10
"""HP per attacker level or HD to stop a direct hit (§ 6.12)."""

SHALLOW_CUT = Wound(
    severity="minor",
    description="shallow cut; may grow infected unless properly treated",
    penalty=-2,
)
"""The default minor wound (§ 6.9)."""


def hit_die_sides(character: Character) -> int:
    """d6 hit dice, or what an initiation such as Tough fucker gives (§ 6.1, § 7.2)."""
    sides = [effect.sides for effect in character.effects("hit_die") if effect.sides]
    return max(sides, default=6)


def hit_point_expression(hit_dice: int, sides: int, penalty_dice: int) -> str:
    """The HP roll: hit dice plus one extra die per penalty, keeping the lowest (§ 6.5)."""
    if penalty_dice == 0:
        return f"{hit_dice}d{sides}"
    return f"{hit_dice + penalty_dice}d{sides}kl{hit_dice}"


def roll_hit_points(
    character: Character, dice: DiceSource, *, fatigue: int | None = None
) -> tuple[int, DiceRecord]:
    """Roll the character's hit dice; fatigue and penance are disadvantage dice (C3-A04)."""
    penalty = (character.fatigue if fatigue is None else fatigue) + character.penance
    rolled = roll(hit_point_expression(character.hit_dice, hit_die_sides(character), penalty), dice)
    return rolled.total, DiceRecord.of(rolled)


def _rerolled(character: Character, dice: DiceSource, fatigue: int) -> tuple[Character, Event]:
    new, record = roll_hit_points(character, dice, fatigue=fatigue)
    keep = bool(character.effects("keep_hit_points")) and character.hp > new
    hp = character.hp if keep else new
    message = f"{character.name} re-rolls HP: {new}" + (
        f", keeps {character.hp} (§ 7.2)" if keep else ""
    )
    return character.evolve(hp=hp), Event(kind="hit_points", message=message, dice=(record,))


def short_rest(
    character: Character,
    dice: DiceSource,
    *,
    reroll: bool = True,
    gain_fatigue: bool = True,
    options: Options = DEFAULT,
) -> tuple[Character, list[Event]]:
    """Ten minutes somewhere safe (§ 6.4–6.5): re-roll HP if the player wants (taking the
    new total, unless Tough), then one more point of fatigue (C3-A18)."""
    events = []
    if reroll:
        character, event = _rerolled(character, dice, character.fatigue)
        events.append(event)
    if gain_fatigue and (reroll or options.fatigue_without_reroll):
        character = character.evolve(fatigue=character.fatigue + 1)
        told = f"{character.name}: fatigue {character.fatigue}"
        events.append(Event(kind="fatigue", message=told))
    return character, events


def good_night(
    character: Character, dice: DiceSource, *, morning_fatigue: int = 0
) -> tuple[Character, list[Event]]:
    """A good night's sleep: fatigue back to 0, a fresh HP roll in the morning (§ 6.5),
    minor wounds that last until a long rest healed (C3-G09), spell preparations reset.

    `morning_fatigue` is fatigue the day starts with, e.g. from deprivation (§ 15.7)."""
    healed = tuple(w for w in character.wounds if w.until != "the next long rest")
    rested = character.evolve(fatigue=morning_fatigue, wounds=healed, preparations_today=0)
    rested, event = _rerolled(rested, dice, morning_fatigue)
    return rested, [Event(kind="sleep", message=f"{character.name} sleeps well"), event]


# -- Injury (§ 6.6–6.12) ----------------------------------------------------------------------


class Injury(Model):
    """The two injury saves and what came of them."""

    dc: int
    strength_save: Check
    will_save: Check
    outcome: Literal["minor_wound", "major_wound", "dead"]
    standing: bool
    gave_up: bool = Field(default=False, description="the player failed the will save on purpose")


def direct_hit_dc(damage: int, options: Options = DEFAULT) -> int:
    """The injury DC of a hit that bypasses HP: 20 + the damage rolled, as if the HP were 0,
    or a flat 20 (C3-A16)."""
    return INJURY_DC + (damage if options.direct_hit_injury_dc == "damage" else 0)


def overflow(hp: int, damage: int) -> int:
    """Damage that got past the HP (§ 6.6); falling to exactly 0 overflows nothing (§ 5.18)."""
    return max(0, damage - hp)


def roll_injury(
    strength: int,
    will: int,
    dc: int,
    dice: DiceSource,
    *,
    may_take_major_wound: bool,
    give_up: bool = False,
    options: Options = DEFAULT,
) -> Injury:
    """The two injury saves from scores that already carry their bonuses (§ 6.6–6.8, § 6.11):
    strength decides minor wound, major wound or death; will decides staying up."""
    strength_save = check(strength, dc, dice, options=options)
    will_save = check(will, dc, dice, options=options)
    if strength_save.success:
        outcome = "minor_wound"
    elif may_take_major_wound:
        outcome = "major_wound"
    else:
        outcome = "dead"
    return Injury(
        dc=dc,
        strength_save=strength_save,
        will_save=will_save,
        outcome=outcome,
        standing=will_save.success and not give_up and outcome != "dead",
        gave_up=give_up,
    )


def injury_events(name: str, injury: Injury, who: str = "") -> list[Event]:
    """The saves and their outcome, as events: the saves and the wound are `who`'s own (a
    combatant's id, where a table may keep its numbers); a death or a collapse is seen."""
    events = [
        Event.told(
            "strength_save",
            theirs(f"{name}'s strength save: " + injury.strength_save.describe(), who),
            dice=(injury.strength_save.roll,),
            roller=who or None,
        ),
        Event.told(
            "will_save",
            theirs(f"{name}'s will save: " + injury.will_save.describe(), who),
            dice=(injury.will_save.roll,),
            roller=who or None,
        ),
    ]
    outcome = injury.outcome.replace("_", " ")
    if injury.outcome == "dead":
        events.append(Event(kind="dead", message=f"{name}: {outcome}"))
    else:
        events.append(Event.told("wound", theirs(f"{name}: {outcome}", who)))
    if not injury.standing and injury.outcome != "dead":
        events.append(Event(kind="collapsed", message=f"{name} collapses"))
    return events


def injury_saves(
    character: Character,
    dc: int,
    dice: DiceSource,
    *,
    take_major_wound: bool = True,
    major_wound: str = "a major wound the referee describes",
    give_up: bool = False,
    modifier: int = 0,
    options: Options = DEFAULT,
) -> tuple[Character, Injury, list[Event]]:
    """Strength save for severity, will save for staying up (§ 6.6–6.8, § 6.11).

    A failed strength save is death or a major wound, as the player chooses
    (`take_major_wound`) while the character has fewer major-wound marks than their level."""
    situations = {"injury_save"}
    strength = modifier + sum(b.amount for b in bonuses(character, "strength", situations, options))
    will = modifier + sum(b.amount for b in bonuses(character, "will", situations, options))
    injury = roll_injury(
        character.abilities.strength + strength,
        character.abilities.will + will,
        dc,
        dice,
        may_take_major_wound=take_major_wound and character.major_wound_marks < character.level,
        give_up=give_up,
        options=options,
    )
    if injury.outcome == "minor_wound":
        character = character.evolve(wounds=(*character.wounds, SHALLOW_CUT))
    elif injury.outcome == "major_wound":
        wound = Wound(severity="major", description=major_wound, until="the referee says")
        character = character.evolve(
            wounds=(*character.wounds, wound), major_wound_marks=character.major_wound_marks + 1
        )
    else:
        character = character.evolve(dead=True)
    character = character.evolve(standing=injury.standing)
    return character, injury, injury_events(character.name, injury)


def take_damage(
    character: Character,
    damage: int,
    dice: DiceSource,
    *,
    take_major_wound: bool = True,
    give_up: bool = False,
    options: Options = DEFAULT,
) -> tuple[Character, Injury | None, list[Event]]:
    """Subtract damage from HP (§ 5.18); past 0 the overflow raises the injury DC (§ 6.6)."""
    if damage < 0:
        raise ConstitutionError("damage cannot be negative")
    if character.dead:
        raise ConstitutionError(f"{character.name} is already dead")
    spill = overflow(character.hp, damage)
    hurt = character.evolve(hp=max(0, character.hp - damage))
    events = [Event(kind="damage", message=f"{character.name} takes {damage}: HP {hurt.hp}")]
    if spill == 0:
        return hurt, None, events
    hurt, injury, more = injury_saves(
        hurt,
        INJURY_DC + spill,
        dice,
        take_major_wound=take_major_wound,
        give_up=give_up,
        options=options,
    )
    return hurt, injury, events + more


def direct_hit(
    character: Character,
    damage: int,
    attacker_level: int,
    dice: DiceSource,
    *,
    pay_hit_points: bool,
    take_major_wound: bool = True,
    price: int | None = None,
    options: Options = DEFAULT,
) -> tuple[Character, Injury | None, list[Event]]:
    """A hit that bypasses HP (§ 5.20, § 6.12): pay 10 HP per attacker level or HD to stop
    it, or roll the injury saves at DC 20 + the damage (C3-A16). Another effect the referee
    rules bypasses HP passes its own `price`."""
    price = DIRECT_HIT_PRICE * attacker_level if price is None else price
    if pay_hit_points:
        if character.hp < price:
            raise ConstitutionError(
                f"stopping this direct hit costs {price} HP; {character.name} has {character.hp}"
            )
        paid = character.evolve(hp=character.hp - price)
        return paid, None, [Event(kind="hp_paid", message=f"{character.name} pays {price} HP")]
    return injury_saves(
        character,
        direct_hit_dc(damage, options),
        dice,
        take_major_wound=take_major_wound,
        options=options,
    )


def die_of_wounds(character: Character) -> Character:
    """The player may let a badly wounded character die later on (§ 6.10)."""
    if not any(w.severity == "major" for w in character.wounds):
        raise ConstitutionError(f"{character.name} has no major wound to die of")
    return character.evolve(dead=True, standing=False)
