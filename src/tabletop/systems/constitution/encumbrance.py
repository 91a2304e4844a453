"""Equipment and encumbrance (article 14): what a character carries, in stones, and what
that load does to them."""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

from pydantic import Field, ValidationError, model_validator

from tabletop.systems.constitution.attacks import ARMOUR, ArmourName
from tabletop.systems.constitution.errors import ConstitutionDataError
from tabletop.systems.constitution.models import Model
from tabletop.systems.constitution.options import DEFAULT, Options

SMALL_THINGS_PER_RATION = 2
"""A ration of food takes the room of two small things (§ 14.6)."""

MAX_BACKPACK_SMALL_THINGS = 30
"""A full backpack holds 30 small things (§ 14.5); more is refused (C3-A26)."""

MAX_MEDIUM_ITEMS = 6
MAX_BIG_THINGS = 5

COINS_PER_PURSE = 50
"""A small purse holds 50 coins (or tiny things) and packs as a small thing (§ 14.13a)."""

COINS_PER_POUCH = 250
"""A larger pouch holds up to 250 coins and is worn as a medium thing (§ 14.13a)."""

EncumbranceLevel = Literal["unencumbered", "encumbered", "heavily_encumbered", "overloaded"]

SPEED: dict[str, Fraction] = {
    "unencumbered": Fraction(1),
    "encumbered": Fraction(2, 3),
    "heavily_encumbered": Fraction(1, 3),
}
"""Overland speed by encumbrance (§ 14.13b)."""


class Load(Model):
    """What one character carries, by size (§ 14.3–14.13)."""

    armour: str | None = None
    backpack: bool = False
    small_things: int = Field(default=0, ge=0)
    rations: int = Field(default=0, ge=0)
    medium_items: int = Field(default=0, ge=0)
    big_things: int = Field(default=0, ge=0)
    weapons_at_side: int = Field(default=0, ge=0)
    """Large, heavy weapons carried ready at the side: a stone each (§ 14.12)."""
    coins: int = Field(default=0, ge=0, le=1_000_000)
    """Coins (or gemstones, tiny things) carried: they must fit the purses and pouches."""
    purses: int = Field(default=0, ge=0)
    """Small purses of up to 50 coins, packed in the backpack as small things (§ 14.13a)."""
    pouches: int = Field(default=0, ge=0)
    """Larger pouches of up to 250 coins, worn as medium things (§ 14.13a)."""

    @model_validator(mode="after")
    def _fits(self) -> Load:
        room = COINS_PER_PURSE * self.purses + COINS_PER_POUCH * self.pouches
        if self.coins > room:
            raise ValueError(
                f"{self.coins} coins need purses (50 each) or pouches (250 each): "
                f"these hold {room} (§ 14.13a, C3-A54)"
            )
        if self.armour is not None and self.armour not in ARMOUR:
            raise ValueError(f"unknown armour {self.armour!r}; choose from {', '.join(ARMOUR)}")
        packed = self.packed_small_things
        if packed and not self.backpack:
            raise ValueError("small things, rations and purses need a backpack (§ 14.5)")
        if packed > MAX_BACKPACK_SMALL_THINGS:
            raise ValueError(f"{packed} small things overfill a backpack (30 at most, § 14.5)")
        if self.worn_medium_items > MAX_MEDIUM_ITEMS:
            raise ValueError("holding or wearing more than 6 medium items is impossible (§ 14.7)")
        if self.big_things > MAX_BIG_THINGS:
            raise ValueError("more than 5 big things cannot be strapped to a pack (C3-A26)")
        return self

    @property
    def packed_small_things(self) -> int:
        return self.small_things + SMALL_THINGS_PER_RATION * self.rations + self.purses

    @property
    def worn_medium_items(self) -> int:
        return self.medium_items + self.pouches

    @property
    def stones(self) -> int:
        """The load in stones (§ 14.4–14.12)."""
        armour = ARMOUR[self.armour].stones if self.armour else 0
        pack = 0
        if self.backpack:
            pack = 1 if self.packed_small_things <= 15 else 2
        worn = self.worn_medium_items
        medium = 0 if worn == 0 else (1 if worn <= 3 else 2)
        big = (0, 1, 2, 2, 3, 3)[self.big_things]
        return armour + pack + medium + big + self.weapons_at_side


GearSize = Literal[
    "tiny",
    "small",
    "ration",
    "medium",
    "big",
    "heavy weapon",
    "armour",
    "backpack",
    "purse",
    "pouch",
]
"""How a line of gear counts for encumbrance (§ 14.4–14.13): tiny things not at all."""

MAX_GEAR = 100
"""Lines of gear on one sheet."""


class Gear(Model):
    """One line of what a character carries (§ 14.1): what it is, its size, how many, and
    where it is carried (the player's words: "backpack", "belt", "worn")."""

    name: str = Field(min_length=1, max_length=60)
    size: GearSize = "small"
    count: int = Field(default=1, ge=1, le=100)
    armour: ArmourName | None = None
    """Which armour (§ 14.15), for a line of size "armour"."""
    where: str = Field(default="", max_length=40)

    @model_validator(mode="after")
    def _armour_is_armour(self) -> Gear:
        if (self.size == "armour") != (self.armour is not None):
            raise ValueError("a line of size armour names its armour, and only such a line does")
        if self.size == "armour" and self.count != 1:
            raise ValueError("armour is one suit a line")
        return self


def load_of(gear: tuple[Gear, ...], coins: int = 0) -> Load:
    """The load a sheet's gear and coins make (§ 14.3–14.13), refused if it cannot be
    carried that way: one suit of armour, small things in a backpack, coins in purses."""
    counts: dict[str, int] = {}
    for line in gear:
        counts[line.size] = counts.get(line.size, 0) + line.count
    armour = [line.armour for line in gear if line.armour is not None]
    if len(armour) > 1:
        raise ValueError(f"one suit of armour at a time, not {', '.join(map(str, armour))}")
    try:
        return _load(counts, armour[0] if armour else None, coins)
    except ValidationError as problem:
        raise ValueError(problem.errors()[0]["msg"].removeprefix("Value error, ")) from None


def _load(counts: dict[str, int], armour: str | None, coins: int) -> Load:
    return Load(
        armour=armour,
        backpack=counts.get("backpack", 0) > 0,
        small_things=counts.get("small", 0),
        rations=counts.get("ration", 0),
        medium_items=counts.get("medium", 0),
        big_things=counts.get("big", 0),
        weapons_at_side=counts.get("heavy weapon", 0),
        coins=coins,
        purses=counts.get("purse", 0),
        pouches=counts.get("pouch", 0),
    )


def _nearest(value: Fraction) -> int:
    return int(value + Fraction(1, 2))


def limits(strength: int, options: Options = DEFAULT) -> tuple[int, int]:
    """Stones carried freely (STR / 3, to nearest) and while encumbered (STR × 2/3, C3-A25)."""
    if strength < 0:
        raise ConstitutionDataError("strength cannot be negative")
    free = _nearest(Fraction(strength, 3))
    heavy = Fraction(2 * strength, 3)
    encumbered = _nearest(heavy) if options.encumbrance_rounding == "nearest" else int(heavy)
    return free, encumbered


def encumbrance(strength: int, stones: int, options: Options = DEFAULT) -> EncumbranceLevel:
    """How a load of `stones` weighs on a character of this strength (§ 14.13b)."""
    free, encumbered = limits(strength, options)
    if stones <= free:
        return "unencumbered"
    if stones <= encumbered:
        return "encumbered"
    if stones == encumbered + 1:
        return "heavily_encumbered"
    return "overloaded"


def drag_capacity(strength: int, stones: int) -> int:
    """Stones a character can drag besides their load: strength − load (§ 14.13b)."""
    return max(0, strength - stones)
