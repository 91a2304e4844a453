"""Content the core book leaves to other books, supplied by the user as a TOML file.

Warrior and thief backgrounds, each school's spell list, the gods and their prayers, and
equipment statistics are in the Blacksalt book, not in the core rules (DW-G01..G03, G07).
tabletop ships none of it; a table that owns those books writes it down like this:

    [backgrounds.Footman]          # a name the class offers, or one of your own
    class = "warrior"
    traits = ["hardened"]          # special traits from the core book
    skills = []
    maneuvers = ["..."]            # the maneuver list: creation picks one
    silver = "1d6"
    items = [{ name = "spear", weapon = "STR 1P+2", place = "right hand" }]

    [schools."Necromancers of Yadar"]
    spells = ["...", "..."]

    [gods.Yulak]
    prayers = ["..."]

    [items.rope]                   # statistics for an item by name
    slots = 1

Creation offers what is supplied and lets the player skip what is not. At a table the GM
keeps these lists in the room (`table_lists`): typed in once, or loaded from such a file.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from tabletop.data import read_data_file, validated
from tabletop.errors import DataError, TabletopError
from tabletop.kept_lists import file_table
from tabletop.systems.dead_weight.catalogue import Skill, Trait
from tabletop.systems.dead_weight.character import CharacterClass
from tabletop.systems.dead_weight.inventory import Item
from tabletop.systems.dead_weight.kits import KitItem


class Background(BaseModel):
    # Files spell the field `class`; a saved creation spells it by name: both load back.
    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    character_class: CharacterClass = Field(alias="class")
    traits: tuple[Trait, ...] = ()
    skills: tuple[Skill, ...] = ()
    maneuvers: tuple[str, ...] = ()
    silver: str | None = None
    items: tuple[KitItem, ...] = ()


class School(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    spells: tuple[str, ...] = Field(min_length=1)


class God(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    prayers: tuple[str, ...] = ()


class ItemStats(BaseModel):
    """Statistics for an item by name: any field of an item but its name."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    slots: int | None = Field(default=None, ge=0, le=20)
    awkward: tuple[str, ...] | None = None
    liquid: bool | None = None
    weapon: str | None = None
    armour: tuple[dict[str, int], ...] | None = None
    usage: int | None = None
    note: str | None = None


class Supplement(BaseModel):
    """Everything the user supplied (empty by default: the core book alone)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    backgrounds: dict[str, Background] = Field(default_factory=dict)
    schools: dict[str, School] = Field(default_factory=dict)
    gods: dict[str, God] = Field(default_factory=dict)
    items: dict[str, ItemStats] = Field(default_factory=dict)

    def over(self, base: Supplement) -> Supplement:
        """This supplement's entries, and the base's wherever this one has none by that name."""
        return Supplement(
            backgrounds={**base.backgrounds, **self.backgrounds},
            schools={**base.schools, **self.schools},
            gods={**base.gods, **self.gods},
            items={**base.items, **self.items},
        )

    def with_stats(self, item: Item) -> Item:
        """The item with any statistics the supplement gives for its name."""
        stats = self.items.get(item.name)
        if stats is None:
            return item
        changes = stats.model_dump(exclude_none=True)
        return Item.model_validate(item.model_dump() | changes | {"assumption": ""})


def load_supplement(path: str | Path) -> Supplement:
    """Read a supplement file (TOML, or JSON when it ends in .json), or `DataError`."""
    return validated(Supplement, read_data_file(path), str(path))


def read_supplement(
    text: str, name: str = "the supplement file", error: type[TabletopError] = DataError
) -> Supplement:
    """A supplement from a file's text, in the format every table's lists load from
    (`kept_lists.file_table`); or `error` naming what is wrong."""
    return validated(Supplement, file_table(text, name, error), name, error)
