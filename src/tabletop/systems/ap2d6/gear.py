"""What a character carries, as the sheet keeps it: the items in the personal space and in
the one bag in use (§ Encumbrance). `encumbrance` weighs it."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from tabletop.systems.ap2d6.errors import Ap2d6Error

KIND_ENCS = {"weapon": 1, "heavy-weapon": 2, "food-day": 1, "negligible": 0}
"""Encs of one item of each kind the rules price (RU-M49); small items go by threes."""

MAX_ITEMS = 10_000
MAX_BAGS_IN_USE = 1
"""One bag at a time unless something says otherwise (RU-M50)."""

ItemKind = Literal["weapon", "heavy-weapon", "food-day", "small", "negligible", "other"]
KIND_WORDS: dict[str, str] = {
    "weapon": "weapon",
    "heavy-weapon": "[heavy] weapon",
    "food-day": "day's food and water",
    "small": "small item",
    "negligible": "negligible item",
    "other": "item",
}
"""How a line names an item that has no name of its own, by its kind."""


class Item(BaseModel):
    """Something carried: its kind, how many, and for "other" the encs of each."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(default="", max_length=80)
    kind: ItemKind
    count: Annotated[int, Field(ge=1, le=MAX_ITEMS)] = 1
    encs: Annotated[int, Field(ge=0, le=1000)] | None = None
    """Encs of one item of kind "other" (the GM's call); the other kinds are priced by rule."""

    def each(self) -> int:
        if self.kind == "other":
            if self.encs is None:
                raise Ap2d6Error(f"{self.name or 'an item'} of kind 'other' needs its encs")
            return self.encs
        return KIND_ENCS.get(self.kind, 0)


class Bag(BaseModel):
    """A bag's own threshold and maximum (the group's data, RU-G07). A bag with no threshold
    never makes anyone [encumbered]."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: Annotated[str, Field(min_length=1, max_length=80)]
    threshold: Annotated[int, Field(ge=0, le=1000)] | None = None
    maximum: Annotated[int, Field(ge=0, le=1000)]


MAX_LINES = 200
"""Lines of items one space of a sheet holds."""


class Carried(BaseModel):
    """The sheet's load: the personal space's items, the bag in use and what is in it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    personal: tuple[Item, ...] = Field(default=(), max_length=MAX_LINES)
    bag: Bag | None = None
    in_bag: tuple[Item, ...] = Field(default=(), max_length=MAX_LINES)

    @model_validator(mode="after")
    def _bagged_items_need_a_bag(self) -> Carried:
        if self.in_bag and self.bag is None:
            raise ValueError("items in a bag need a bag")
        return self
