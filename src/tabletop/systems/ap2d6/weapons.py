"""Weapons and attacks: to-hit, damage dice and types, requirements, grips and throwing.

The rules give the shape of a weapon but no weapon list (RU-G02): a group supplies its own
in a TOML or JSON file (see docs/rules/ap2d6.md for the format). An attack rolls 2d6 plus
its to-hit scores against the target's To-Hit, which the defender wins on a tie (RU-A01);
a hit rolls the damage dice plus the scaling score (RU-M28).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from tabletop.dice import DiceSource, parse
from tabletop.dice.syntax import BinaryOp, Dice, Integer, Name, Node
from tabletop.errors import TabletopError
from tabletop.systems.ap2d6.checks import Check, blocked_check, roll_with_bonus
from tabletop.systems.ap2d6.costs import ActionCost, basic_action
from tabletop.systems.ap2d6.datafiles import read_file
from tabletop.systems.ap2d6.errors import Ap2d6Error, InvalidValueError, validated
from tabletop.systems.ap2d6.options import DEFAULTS, Options
from tabletop.systems.ap2d6.records import DiceRecord, roll_dice
from tabletop.systems.ap2d6.scores import incapable, named_scores, score_name
from tabletop.systems.ap2d6.sheet import Character

DIE_CHAIN: tuple[int, ...] = (4, 6, 8, 10, 12, 20)
"""Damage dice from smallest up; "one die smaller" steps down this chain (RU-A15d)."""

MAX_DAMAGE_DICE = 100
"""Damage dice one attack may roll (before a double 6 doubles them)."""

TWO_HAND_STR_BONUS = 2
"""Both hands on a [one-handed] weapon raise effective STR by 2 (RU-M31)."""

ONE_HAND_STR_MARGIN = 2
"""A [two-handed] weapon can be held in one hand 2 STR above its requirement (RU-M31)."""

THROW_BASE_RANGE = 3
THROW_RANGE_PER_DEFICIT = 2
"""An improvised throw reaches 3 + AGI spaces, 2 fewer per point below requirements (RU-M32)."""

THROW_TO_HIT = ("PERCEPTION", "AGI")
IMPLICIT_REQUIREMENT = -1
"""A weapon with no requirements needs -1 in each score it hits with (RU-M30, RU-A15e)."""

DamageType = Literal["B", "P", "S"]
Grip = Literal["one-hand", "two-hands"]


class Damage(BaseModel):
    """A damage expression split into what the rules act on: each die, scores, a flat part."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    dice: tuple[int, ...]
    """The sides of each die, largest first."""
    scaling: tuple[str, ...] = ()
    flat: int = 0

    def __str__(self) -> str:
        parts = [_dice_text(self.dice)] if self.dice else []
        parts += list(self.scaling)
        if self.flat:
            parts.append(str(self.flat))
        return "+".join(parts).replace("+-", "-") or "0"


def _dice_text(dice: tuple[int, ...]) -> str:
    """`(8, 4, 4)` → `1d8+2d4`."""
    counts: dict[int, int] = {}
    for sides in dice:
        counts[sides] = counts.get(sides, 0) + 1
    return "+".join(f"{count}d{sides}" for sides, count in counts.items())


def parse_damage(text: str) -> Damage:
    """Read `1d8+STR`, `1d8+1d4+STR`, `2d6+1`: a sum of plain dice, score names and numbers."""
    try:
        tree = parse(text)
    except TabletopError as error:
        raise InvalidValueError(str(error)) from None
    dice: list[int] = []
    scaling: list[str] = []
    flat = 0
    for term, sign in _terms(tree):
        if isinstance(term, Dice) and term.plain and sign > 0:
            if term.sides not in DIE_CHAIN:
                raise InvalidValueError(
                    f"damage dice must be one of d4, d6, d8, d10, d12, d20: {text!r}"
                )
            dice += [term.sides] * term.count
        elif isinstance(term, Name) and sign > 0:
            scaling.append(score_name(term.name))
        elif isinstance(term, Integer):
            flat += sign * term.value
        else:
            raise InvalidValueError(f"damage must add plain dice, scores and numbers: {text!r}")
    if not dice or len(dice) > MAX_DAMAGE_DICE:
        raise InvalidValueError(f"damage needs 1 to {MAX_DAMAGE_DICE} dice: {text!r}")
    return Damage(dice=tuple(sorted(dice, reverse=True)), scaling=tuple(scaling), flat=flat)


def _terms(node: Node, sign: int = 1) -> list[tuple[Node, int]]:
    if isinstance(node, BinaryOp) and node.op in "+-":
        right_sign = sign if node.op == "+" else -sign
        return _terms(node.left, sign) + _terms(node.right, right_sign)
    return [(node, sign)]


class Attack(BaseModel):
    """One of a weapon's basic attacks (RU-M28)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: Annotated[str, Field(min_length=1)]
    to_hit: tuple[str, ...]
    """Scores added to the attack roll, e.g. ("STR", "AGI") for "STR + AGI"."""
    damage: Damage
    type: DamageType
    kind: str = ""
    """How it is delivered, e.g. "thrusting" or "swinging: leading" (RU-G02: glyphs external)."""
    thrown: bool = False
    """A [thrown] move of the weapon's own."""

    @field_validator("to_hit", mode="before")
    @classmethod
    def _to_hit(cls, value: Any) -> Any:
        if isinstance(value, str):
            value = [part for part in value.split("+") if part.strip()]
        if isinstance(value, list | tuple):
            return tuple(score_name(str(part)) for part in value)
        return value

    @field_validator("damage", mode="before")
    @classmethod
    def _damage(cls, value: Any) -> Any:
        return parse_damage(value) if isinstance(value, str) else value


class Weapon(BaseModel):
    """A weapon: its attacks, AP cost, hands, requirements, and whether it can be thrown."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: Annotated[str, Field(min_length=1)]
    speed: ActionCost
    """AP per attack, usually escalating, e.g. "(1n1)->(2n1)"."""
    hands: Literal["one-handed", "two-handed"] = "one-handed"
    heavy: bool = False
    requirements: dict[str, Annotated[int, Field(ge=-100, le=100)]] = {}
    throwable: bool = False
    """A spear or dagger: it can be thrown even without a [thrown] move (RU-M32)."""
    attacks: Annotated[tuple[Attack, ...], Field(min_length=1)]
    assumption: str = ""
    """Set when the weapon is an example rather than the group's own data."""

    _requirement_names = field_validator("requirements", mode="before")(named_scores)

    @model_validator(mode="after")
    def _distinct_attacks(self) -> Weapon:
        names = [attack.name for attack in self.attacks]
        if len(set(names)) != len(names):
            raise ValueError(f"{self.name}: two attacks share a name")
        return self

    @property
    def encs(self) -> int:
        """Most weapons are 1 enc; [heavy] ones 2 (RU-M49)."""
        return 2 if self.heavy else 1

    def attack(self, name: str | None = None) -> Attack:
        """An attack by name (the first if no name is given)."""
        if name is None:
            return self.attacks[0]
        for attack in self.attacks:
            if attack.name == name:
                return attack
        known = ", ".join(attack.name for attack in self.attacks)
        raise Ap2d6Error(f"{self.name} has no attack {name!r}; its attacks: {known}")


def load_weapons(path: str | Path) -> dict[str, Weapon]:
    """A group's weapon file: one table per weapon, keyed by its name."""
    data = read_file(path)
    return {
        name: validated(Weapon, {"name": name, **entry}, f"{path}: {name}")
        for name, entry in data.items()
    }


# -- wielding --------------------------------------------------------------------------------


class Wielded(BaseModel):
    """An attack as this character can make it with this grip, after every requirement rule."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    weapon: str
    attack: str
    deficit: int
    """Points below the weapon's requirements (RU-A15a)."""
    to_hit_bonus: int
    status_modifier: int = 0
    """What statuses do to checks with the to-hit scores, such as [encumbered]'s -1 on AGI
    (RU-A37): a penalty on the roll, outside the weapon's capped bonus."""
    dice: tuple[int, ...]
    scaling_bonus: int
    flat: int
    type: DamageType
    blocked: str | None = None
    """Why a to-hit score cannot be used at all (RU-A03), if so."""

    @property
    def below_requirements(self) -> bool:
        return self.deficit > 0

    @property
    def damage(self) -> str:
        bonus = self.scaling_bonus + self.flat
        return _dice_text(self.dice) + (f"{bonus:+d}" if bonus else "")


def _scores(character: Character, weapon: Weapon, grip: Grip) -> Callable[[str], int]:
    """Effective scores with this weapon: two hands on a [one-handed] weapon add 2 STR to
    every use of STR with it (RU-M31, RU-A16)."""
    bonus = TWO_HAND_STR_BONUS if weapon.hands == "one-handed" and grip == "two-hands" else 0

    def score(name: str) -> int:
        return character.score(name) + (bonus if name == "STR" else 0)

    return score


def check_grip(character: Character, weapon: Weapon, grip: Grip) -> None:
    """A [two-handed] weapon in one hand needs STR 2 above its STR requirement (RU-M31)."""
    if weapon.hands == "two-handed" and grip == "one-hand":
        needed = weapon.requirements.get("STR", 0) + ONE_HAND_STR_MARGIN
        if character.score("STR") < needed:
            raise Ap2d6Error(
                f"{character.name} needs STR {needed} to wield the [two-handed] {weapon.name} "
                f"in one hand (has {character.score('STR')})"
            )


def deficit(
    weapon: Weapon, to_hit: tuple[str, ...], score: Callable[[str], int], options: Options
) -> int:
    """Points below the requirements: summed over scores, or the largest (RU-A15a); without
    requirements, -1 in each to-hit score is required (RU-A15e)."""
    required = weapon.requirements or dict.fromkeys(to_hit, IMPLICIT_REQUIREMENT)
    gaps = [max(need - score(name), 0) for name, need in required.items()]
    return sum(gaps) if options.requirement_deficits == "sum" else max(gaps, default=0)


def reduce_dice(dice: tuple[int, ...], points: int, options: Options) -> tuple[int, ...] | None:
    """Drop a die per point; with one die left, make it a size smaller instead (RU-M30,
    RU-A15c/d). None when it would go below a d4: the weapon cannot be used."""
    kept = sorted(dice, reverse=True)
    for _ in range(points):
        if len(kept) > 1:
            kept.pop(-1 if options.dropped_damage_die == "smallest" else 0)
        else:
            index = DIE_CHAIN.index(kept[0])
            if index == 0:
                return None
            kept = [DIE_CHAIN[index - 1]]
    return tuple(kept)


def wield(
    character: Character,
    weapon: Weapon,
    attack_name: str | None = None,
    grip: Grip | None = None,
    options: Options = DEFAULTS,
) -> Wielded:
    """The attack as `character` makes it: below requirements there is no damage scaling,
    the to-hit bonus is at most 0, and dice drop or shrink per point short (RU-M30)."""
    grip = grip or ("two-hands" if weapon.hands == "two-handed" else "one-hand")
    check_grip(character, weapon, grip)
    attack = weapon.attack(attack_name)
    score = _scores(character, weapon, grip)
    short = deficit(weapon, attack.to_hit, score, options)
    dice = reduce_dice(attack.damage.dice, short, options)
    if dice is None:
        raise Ap2d6Error(
            f"{character.name} is {short} below {weapon.name}'s requirements: its damage "
            "would fall below a d4, so it cannot be wielded"
        )
    bonus = sum(score(name) for name in attack.to_hit)
    return Wielded(
        weapon=weapon.name,
        attack=attack.name,
        deficit=short,
        to_hit_bonus=min(bonus, 0) if short else bonus,
        status_modifier=_status_modifier(character, attack.to_hit),
        dice=dice,
        scaling_bonus=0 if short else sum(score(name) for name in attack.damage.scaling),
        flat=attack.damage.flat,
        type=attack.type,
        blocked=_blocked(attack.to_hit, score, options),
    )


def _status_modifier(character: Character, names: tuple[str, ...]) -> int:
    """Statuses' modifiers to checks with each to-hit score (RU-M51, RU-A37)."""
    return sum(character.check_modifier(name) for name in names)


def _blocked(names: tuple[str, ...], score: Callable[[str], int], options: Options) -> str | None:
    """Why one of these to-hit scores cannot be used at all (RU-A03), if one cannot."""
    for name in names:
        reason = incapable(score(name), options)
        if reason is not None:
            return f"{name}: {reason}"
    return None


# -- attacking -------------------------------------------------------------------------------


class AttackResult(BaseModel):
    """An attack's record: the roll against To-Hit and, on a hit, the damage and its type."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    wielded: Wielded
    check: Check
    damage_roll: DiceRecord | None = None
    damage: int = 0
    doubled: bool = False
    """A double 6 doubled the damage dice (RU-A13)."""

    @property
    def hit(self) -> bool:
        return self.check.success

    @property
    def double_six(self) -> bool:
        return self.check.critical == "double-six"

    def __str__(self) -> str:
        head = f"{self.wielded.weapon} ({self.wielded.attack}): {self.check}"
        if not self.hit:
            return head
        extra = " (double 6s: twice the dice)" if self.doubled else ""
        return f"{head}\n  damage {self.damage_roll} → {self.damage} ({self.wielded.type}){extra}"


def resolve(
    wielded: Wielded, target_to_hit: int, dice: DiceSource, options: Options = DEFAULTS
) -> AttackResult:
    """Roll the attack against the target's To-Hit and, on a hit, its damage (RU-M28).
    Armour is not applied here: the rules leave it to data the group supplies (RU-G03)."""
    rolled = roll_to_hit(wielded, target_to_hit, dice, options)
    if not rolled.success:
        return AttackResult(wielded=wielded, check=rolled)
    doubled = rolled.critical == "double-six"
    damage_roll, damage = roll_damage(wielded, doubled, dice, options)
    return AttackResult(
        wielded=wielded, check=rolled, damage_roll=damage_roll, damage=damage, doubled=doubled
    )


def roll_to_hit(
    wielded: Wielded, target_to_hit: int, dice: DiceSource, options: Options = DEFAULTS
) -> Check:
    """2d6 + the attack's to-hit bonus against the target's To-Hit, which the defender wins
    on a tie (RU-M28, RU-A01); no die when a to-hit score cannot be used (RU-A03)."""
    if wielded.blocked is not None:
        return blocked_check(target_to_hit, wielded.blocked, defender=True)
    # Each to-hit score was tested for -3 on its own (`blocked`); their sum is not a score.
    return roll_with_bonus(
        wielded.to_hit_bonus,
        target_to_hit,
        dice,
        modifier=wielded.status_modifier,
        defender_wins_ties=True,
        options=options,
    )


def roll_damage(
    wielded: Wielded, doubled: bool, dice: DiceSource, options: Options = DEFAULTS
) -> tuple[DiceRecord, int]:
    """A hit's damage: its dice (twice as many after double 6s, or twice the roll, RU-A13)
    plus the scaling score and the flat part, never below 0 (RU-A47)."""
    pool = (
        wielded.dice * 2
        if doubled and options.double_six_damage == "twice-the-dice"
        else wielded.dice
    )
    damage_roll = roll_dice(_dice_text(pool), dice)
    dice_total = damage_roll.total * (
        2 if doubled and options.double_six_damage == "twice-the-roll" else 1
    )
    return damage_roll, max(dice_total + wielded.scaling_bonus + wielded.flat, 0)


# -- throwing without a [thrown] move ----------------------------------------------------------


class Throw(BaseModel):
    """An improvised throw of a spear or dagger (RU-M32): what it hits with and how far."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    wielded: Wielded
    range: int
    cost: ActionCost


def improvised_throw(
    character: Character,
    weapon: Weapon,
    attack_name: str | None = None,
    options: Options = DEFAULTS,
) -> Throw:
    """Throw a spear or dagger that has no [thrown] move: (2n1), PERCEPTION + AGI to hit, no
    scaling, 3 + AGI spaces less 2 per point short, one damage die fewer or a size smaller
    (RU-M32). By default the general below-requirements rule applies too (RU-A17)."""
    if not weapon.throwable:
        raise Ap2d6Error(f"only a spear or a dagger can be thrown this way, not {weapon.name}")
    if any(attack.thrown for attack in weapon.attacks):
        raise Ap2d6Error(f"{weapon.name} has a [thrown] move of its own: use that")
    attack = weapon.attack(attack_name)
    score = character.score
    short = deficit(weapon, THROW_TO_HIT, score, options)
    reach = THROW_BASE_RANGE + score("AGI") - THROW_RANGE_PER_DEFICIT * short
    if reach <= 0:
        raise Ap2d6Error(f"{character.name} cannot throw {weapon.name} even one space")
    general = short if options.improvised_throw_requirements == "both" else 0
    dice = reduce_dice(attack.damage.dice, general + 1, options)
    if dice is None:
        raise Ap2d6Error(f"thrown, {weapon.name}'s damage would fall below a d4: it cannot be")
    bonus = sum(score(name) for name in THROW_TO_HIT)
    wielded = Wielded(
        weapon=weapon.name,
        attack=f"{attack.name}, thrown",
        deficit=short,
        to_hit_bonus=min(bonus, 0) if general else bonus,
        status_modifier=_status_modifier(character, THROW_TO_HIT),
        dice=dice,
        scaling_bonus=0,
        flat=attack.damage.flat,
        type=attack.type,
        blocked=_blocked(THROW_TO_HIT, score, options),
    )
    return Throw(wielded=wielded, range=reach, cost=basic_action("improvised-throw").cost)
