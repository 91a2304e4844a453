"""The character sheet: a validated model that refuses any sheet the rules cannot produce.

Rules never edit a sheet in place: they build a new one with `revise`, which validates it
again, so a change the rules forbid is refused with a reason and nothing is half-applied.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from tabletop.data import read_data_file, require_blocks, validated
from tabletop.systems.dead_weight.attributes import Attribute, AttributeState
from tabletop.systems.dead_weight.catalogue import Affliction, QuirkRule, Skill, Trait, Trauma
from tabletop.systems.dead_weight.errors import SheetError
from tabletop.systems.dead_weight.inventory import Inventory, ItemTag, PlaceKind, is_encumbered


class CharacterClass(StrEnum):
    WARRIOR = "warrior"
    THIEF = "thief"
    WIZARD = "wizard"
    CLERIC = "cleric"


class Quirk(BaseModel):
    """A feature of the character; `rule` is set when the quirk changes a rule."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1)
    rule: QuirkRule | None = None


class LifePath(BaseModel):
    """The entries the character's life-path rolls reached (names as in the tables)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    infancy: str | None = None
    career: str | None = None
    tragedy: str | None = None
    burden: str | None = None


class Attributes(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    STR: AttributeState = AttributeState()
    DEX: AttributeState = AttributeState()
    INT: AttributeState = AttributeState()
    PRE: AttributeState = AttributeState()

    def __getitem__(self, attribute: Attribute) -> AttributeState:
        state: AttributeState = getattr(self, attribute.value)
        return state

    def with_(self, attribute: Attribute, state: AttributeState) -> Attributes:
        return self.model_copy(update={attribute.value: state})


class Magic(BaseModel):
    """Spells and prayers: known, memorised for this expedition, forgotten or exhausted."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    spells_known: tuple[str, ...] = ()
    spells_memorised: tuple[str, ...] = ()
    spells_forgotten: tuple[str, ...] = ()
    arcane_well: bool = False
    """A great success after a spell: the next spell needs no test (DW-A20)."""
    mishaps: int = Field(default=0, ge=0)
    """Spell mishaps this expedition (added to the next mishap roll)."""
    prayers_known: tuple[str, ...] = ()
    prayers_memorised: tuple[str, ...] = ()
    prayers_exhausted: tuple[str, ...] = ()
    god_angry: bool = False
    """A critical failure on a prayer: no prayer is answered until a sacrifice."""
    desperate_plea_used: bool = False


class Condition(BaseModel):
    """Fainted, mortally wounded or dead, and what that involves."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    fainted: bool = False
    faint_turns: int = Field(default=0, ge=0)
    """Turns still to wait before the wake roll: the points discarded when fainting."""
    mortally_wounded: bool = False
    verge_of_death: bool = False
    """Mortal wound row 6: dead unless stabilised within one combat turn."""
    dead: bool = False
    blind_turns: int = Field(default=0, ge=0)
    """Exploration turns of blindness left (spell mishap 5)."""

    @property
    def can_act(self) -> bool:
        return not (self.fainted or self.mortally_wounded or self.dead)


class Tokens(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    stun: int = Field(default=0, ge=0)
    shield: int = Field(default=0, ge=0)
    dodge: int = Field(default=0, ge=0)


class Expedition(BaseModel):
    """Counters that last one expedition or one session."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    mortal_wounds: int = Field(default=0, ge=0)
    """Times mortally wounded this expedition (added to the next mortal wound roll)."""
    had_coffee: bool = False
    burden_used_this_session: bool = False


class PendingKind(StrEnum):
    CHOOSE_TRAUMA = "choose a trauma"
    LOWER_SCORE = "lower a score"
    LOWER_PROFICIENCY = "lower a proficiency"


class Pending(BaseModel):
    """A choice the rules left to the player, to be made before play goes on."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: PendingKind
    options: tuple[str, ...] = Field(min_length=1)
    reason: str = ""


class Character(BaseModel):
    """A Dead Weight adventurer's sheet."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["character"] = "character"
    name: str = Field(default="Unnamed", min_length=1, max_length=200)
    character_class: CharacterClass | None = None
    attributes: Attributes = Attributes()
    skills: tuple[Skill, ...] = ()
    traits: tuple[Trait, ...] = ()
    traumas: tuple[Trauma, ...] = ()
    afflictions: tuple[Affliction, ...] = ()
    quirks: tuple[Quirk, ...] = ()
    life_path: LifePath = LifePath()
    background: str | None = None
    """A warrior's or thief's background (its content is in another book: user data)."""
    maneuvers: tuple[str, ...] = ()
    school: str | None = None
    cleric_kit: str | None = None
    god: str | None = None
    inventory: Inventory = Inventory()
    silver: int = Field(default=0, ge=0)
    gold: int = Field(default=0, ge=0)
    insight: int = Field(default=1, ge=0)
    magic: Magic = Magic()
    condition: Condition = Condition()
    tokens: Tokens = Tokens()
    expedition: Expedition = Expedition()
    pending: tuple[Pending, ...] = ()
    notes: str = ""

    @field_validator("skills", "traits", "traumas", "afflictions")
    @classmethod
    def _no_duplicates(cls, values: tuple[Any, ...]) -> tuple[Any, ...]:
        if len(set(values)) != len(values):
            raise ValueError(f"listed twice: {sorted({v for v in values if values.count(v) > 1})}")
        return tuple(sorted(values))

    @model_validator(mode="after")
    def _sheet_is_possible(self) -> Character:
        for skill in self.skills:
            if skill.basic is not None and skill.basic in self.skills:
                raise ValueError(
                    f"{skill} replaces {skill.basic}: a sheet does not hold both (DW-M11)"
                )
        magic = self.magic
        _subset(magic.spells_memorised, magic.spells_known, "memorised spells", "known")
        _subset(magic.spells_forgotten, magic.spells_known, "forgotten spells", "known")
        _subset(magic.prayers_memorised, magic.prayers_known, "memorised prayers", "known")
        _subset(magic.prayers_exhausted, magic.prayers_memorised, "exhausted", "memorised")
        if set(magic.spells_memorised) & set(magic.spells_forgotten):
            raise ValueError("a spell cannot be both memorised and forgotten")
        if magic.spells_known and Trait.MAGIC_USER not in self.traits:
            raise ValueError("only a magic user knows spells")
        if magic.prayers_known and Trait.DIVINE_MANDATE not in self.traits:
            raise ValueError("only a character with the divine mandate knows prayers")
        intelligence = self.attributes.INT.score
        if len(magic.spells_memorised) > intelligence:
            raise ValueError(
                f"{len(magic.spells_memorised)} spells memorised but INT score {intelligence}"
            )
        presence = self.attributes.PRE.score
        if len(magic.prayers_memorised) > presence:
            raise ValueError(
                f"{len(magic.prayers_memorised)} prayers memorised but PRE score {presence}"
            )
        if Trauma.BROKEN_ARM in self.traumas and all(
            self.inventory.place(hand).items for hand in (PlaceKind.LEFT_HAND, PlaceKind.RIGHT_HAND)
        ):
            raise ValueError("with a broken arm only one hand can carry anything")
        condition = self.condition
        if condition.verge_of_death and not condition.mortally_wounded:
            raise ValueError("only a mortally wounded character is on the verge of death")
        if condition.faint_turns and not condition.fainted:
            raise ValueError("only a fainted character waits to wake up")
        return self

    # reading the sheet ----------------------------------------------------------------

    def attribute(self, attribute: Attribute) -> AttributeState:
        return self.attributes[attribute]

    def has(self, thing: Skill | Trait | Trauma | Affliction | QuirkRule) -> bool:
        if isinstance(thing, Skill):
            return thing in self.skills
        if isinstance(thing, Trait):
            return thing in self.traits
        if isinstance(thing, Trauma):
            return thing in self.traumas
        if isinstance(thing, Affliction):
            return thing in self.afflictions
        return any(quirk.rule == thing for quirk in self.quirks)

    @property
    def encumbered(self) -> bool:
        return is_encumbered(self.inventory, self.attributes.STR.score)

    @property
    def has_conductor(self) -> bool:
        return self.inventory.has(ItemTag.CONDUCTOR)

    @property
    def has_grimoire(self) -> bool:
        return self.inventory.has(ItemTag.GRIMOIRE)

    @property
    def has_holy_symbol(self) -> bool:
        return self.inventory.has(ItemTag.HOLY_SYMBOL)

    @property
    def label(self) -> str:
        return self.name

    def warnings(self) -> list[str]:
        """Things a player should know that are legal but worth a look (e.g. DW-A40)."""
        found = []
        if self.has(Trait.MAGIC_USER) and not self.has_grimoire:
            found.append("no grimoire: forgotten spells cannot be studied back (DW-A40)")
        if self.has(Trait.MAGIC_USER) and not self.has_conductor:
            found.append("no conductor: any failure after a spell is a critical failure")
        if self.has(Trait.DIVINE_MANDATE) and not self.has_holy_symbol:
            found.append("no holy symbol: prayers do not work")
        if self.encumbered:
            found.append("encumbered: half movement and a STR test every turn")
        return found


def _subset(part: tuple[str, ...], whole: tuple[str, ...], name: str, whole_name: str) -> None:
    missing = set(part) - set(whole)
    if missing:
        raise ValueError(f"{name} must be {whole_name}: {', '.join(sorted(missing))}")


def revise(character: Character, **changes: Any) -> Character:
    """A new sheet with `changes`, validated as a whole; `SheetError` if impossible."""
    data = character.model_dump()
    for field, value in changes.items():
        data[field] = value.model_dump() if isinstance(value, BaseModel) else value
    return sheet_from(data)


def sheet_from(data: dict[str, Any]) -> Character:
    """A sheet from JSON-like data, or `SheetError` naming the first problem."""
    return validated(Character, data, "impossible sheet", SheetError)


SHEET_BLOCKS = (
    *(f"attributes.{attribute}.score" for attribute in Attribute),
    "condition",
)
"""What a sheet file must state: every test reads the scores, and whether the character is
fainted, dying or dead; a missing block is refused, never taken as a fresh character's."""


def read_sheet(path: str | Path) -> Character:
    """A sheet from a JSON file (as `character new --out` writes it), checked like any other."""
    if Path(path).suffix != ".json":
        raise SheetError(f"{path}: a character sheet is a .json file")
    data = read_data_file(path, SheetError)
    character = sheet_from(data)
    require_blocks(data, SHEET_BLOCKS, str(path), SheetError)
    return character


def with_attribute(character: Character, attribute: Attribute, **changes: int) -> Character:
    """A new sheet with one attribute's fields changed (validated)."""
    state = character.attribute(attribute)
    try:
        updated = AttributeState.model_validate(state.model_dump() | changes)
    except ValidationError as error:
        message = error.errors()[0]["msg"].removeprefix("Value error, ")
        raise SheetError(f"{attribute}: {message}") from None
    return character.model_copy(
        update={"attributes": character.attributes.with_(attribute, updated)}
    )
