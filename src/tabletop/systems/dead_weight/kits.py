"""What each class brings (data/creation.toml): proficiency, traits, skills, kits, and the
starting gear every character has (DW-M05, DW-M12..M15, DW-M20)."""

from __future__ import annotations

from functools import cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from tabletop.data import shipped_data, validated
from tabletop.systems.dead_weight.attributes import Attribute
from tabletop.systems.dead_weight.catalogue import Skill, Trait
from tabletop.systems.dead_weight.character import CharacterClass
from tabletop.systems.dead_weight.inventory import Item, PlaceKind


class KitItem(Item):
    """An item of a kit, and where it starts (a weapon in hand, armour on the torso)."""

    place: PlaceKind | None = None

    def as_item(self) -> Item:
        return Item.model_validate(self.model_dump(exclude={"place"}))


class Kit(BaseModel):
    """One of a class's kits: a wizard's school or a cleric's A, B or C."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    silver: str | None = None
    """Dice of silver coins the kit comes with."""
    gold: int = 0
    containers: tuple[PlaceKind, ...] = ()
    items: tuple[KitItem, ...] = ()


class ClassData(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    proficiency: Attribute
    traits: tuple[Trait, ...] = ()
    skills: tuple[Skill, ...] = ()
    gear: str
    backgrounds: tuple[str, ...] = ()
    maneuvers: int = 0
    kits: tuple[Kit, ...] = ()
    spells_per: Literal["INT"] | None = None
    prayers_per: Literal["PRE"] | None = None
    basic_prayers: tuple[str, ...] = ()


class StartingGear(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    insight: int
    torches: str
    camping_supply_risk: int
    bandage_risk: int
    torch: Item
    ration: Item
    camping_supply: Item
    bandage: Item


class ChooseOnlyQuirk(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    text: str = ""


class CreationData(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    start: StartingGear
    choose_only_quirks: tuple[ChooseOnlyQuirk, ...] = ()
    classes: dict[CharacterClass, ClassData] = Field(min_length=4)


@cache
def creation_data() -> CreationData:
    """The shipped creation data, validated once."""
    return validated(CreationData, shipped_data(__package__, "creation.toml"), "creation.toml")
