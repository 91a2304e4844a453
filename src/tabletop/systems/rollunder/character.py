"""The character sheet: abilities, health, omens, corruption, load, conditions, injuries.

Numbers the chapter leaves to the rest of the game (which abilities exist, the maximum
health formula, the carry limit, how many omens) are inputs on the sheet (CR-G01…G05).
A sheet is plain data; the rules return a new sheet rather than changing one.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, ValidationError, model_validator

from tabletop.data import describe, read_data_file, shipped_data
from tabletop.systems.rollunder.carrying import Load, check_hands
from tabletop.systems.rollunder.errors import RollUnderDataError, RollUnderError, validated
from tabletop.systems.rollunder.options import RollUnderOptions
from tabletop.systems.rollunder.records import Model

MAX_SCORE = 1_000
MAX_HEALTH = 10_000
MAX_OMENS = 1_000
MAX_CORRUPTION = 10_000
MAX_MONEY = 10**12
MAX_SPELLS = 100
"""Bounds on a sheet's numbers, far past anything a table tracks."""

MAX_NOTES = 4_000


class Injury(Model):
    """A disabling injury from the injury table: its trait and the ability points it took.

    `lost` is what was actually taken (an ability never drops below 0), so what downtime
    gives back is exactly that. The trait and the loss are permanent when the damage went
    past maximum health (CR-A07), the loss also under `injury_ability_loss="permanent"`."""

    trait: str = Field(min_length=1, max_length=80)
    ability: str | None = None
    lost: int = Field(default=0, ge=0, le=MAX_SCORE)
    permanent: bool = False
    loss_permanent: bool = False


class Character(Model):
    """A character sheet as the Core Rules use it."""

    name: str = Field(min_length=1, max_length=60)
    abilities: dict[str, int]
    max_health: int = Field(ge=0, le=MAX_HEALTH)
    health: int = Field(ge=0, le=MAX_HEALTH)
    omens: int = Field(default=0, ge=0, le=MAX_OMENS)
    max_omens: int = Field(default=0, ge=0, le=MAX_OMENS)
    corruption: int = Field(default=0, ge=0, le=MAX_CORRUPTION)
    money: int = Field(default=0, ge=0, le=MAX_MONEY)
    """Coins (the chapter's ʂ), for the burial cost."""
    load: Load | None = None
    leader: str | None = None
    """For a follower: the player character they follow; None for a player character."""
    incapacitated: bool = False
    deadline_started: bool = False
    """While dying: the activation at whose end they die has begun (CR-A13)."""
    death: str | None = None
    """Why the character died, or None while alive."""
    injuries: tuple[Injury, ...] = ()
    mutations: tuple[str, ...] = ()
    mutations_to_choose: int = Field(default=0, ge=0, le=MAX_CORRUPTION)
    """Mutations the GM still has to choose (corruption's critical damage, no table given)."""
    spells: tuple[str, ...] = Field(default=(), max_length=MAX_SPELLS)
    """Sacred spells the character can cast for an omen (the spells are another chapter's,
    CR-G09): written down by the player."""
    notes: str = Field(default="", max_length=MAX_NOTES)

    @model_validator(mode="after")
    def _consistent(self) -> Character:
        if not self.abilities:
            raise ValueError("a character needs at least one ability score")
        for ability, score in self.abilities.items():
            if not 0 <= score <= MAX_SCORE:
                raise ValueError(f"{ability} must be from 0 to {MAX_SCORE}, not {score}")
        if self.health > self.max_health:
            raise ValueError(
                f"health {self.health} is over the maximum health of {self.max_health}"
            )
        if self.omens > self.max_omens:
            raise ValueError(f"{self.omens} omens is more than the maximum of {self.max_omens}")
        if self.deadline_started and not self.at_deaths_door:
            raise ValueError("only a dying character can have a death deadline running")
        for injury in self.injuries:
            if injury.ability is not None and injury.ability not in self.abilities:
                raise ValueError(f"an injury takes {injury.ability}, which the sheet lacks")
        return self

    @property
    def alive(self) -> bool:
        return self.death is None

    @property
    def at_deaths_door(self) -> bool:
        """Alive with health or an ability at 0: dying, unless saved or healed (CR-M11)."""
        return self.alive and (self.health == 0 or 0 in self.abilities.values())

    @property
    def zero_abilities(self) -> tuple[str, ...]:
        return tuple(name for name, score in self.abilities.items() if score == 0)

    @property
    def can_act(self) -> bool:
        return self.alive and not self.incapacitated

    def score(self, ability: str) -> int:
        """The ability score, or a clear refusal if the sheet has no such ability."""
        try:
            return self.abilities[ability]
        except KeyError:
            known = ", ".join(self.abilities)
            raise RollUnderError(f"{self.name} has no {ability} score (has {known})") from None

    def require_alive(self) -> Character:
        if not self.alive:
            raise RollUnderError(f"{self.name} is dead ({self.death})")
        return self

    def with_changes(self, **changes: object) -> Character:
        """A new, re-validated sheet with `changes` applied. A death deadline ends by itself
        once the character is no longer dying (healed, saved or dead)."""
        data = {**self.model_dump(), **changes}
        scores = data["abilities"]
        dying = data["death"] is None and (data["health"] == 0 or 0 in scores.values())
        if not dying:
            data["deadline_started"] = False
        try:
            return Character.model_validate(data)
        except ValidationError as error:
            raise RollUnderError(f"{self.name}: {describe(error)}") from None


def check_sheet(character: Character, options: RollUnderOptions) -> Character:
    """The sheet, if it carries exactly the abilities the options name (CR-G01) and its
    hands hold what the options allow (CR-A26), its abilities in the game's order: however
    they were typed, a sheet reads the same (docs/rules/rollunder.md, CR-S09)."""
    if set(character.abilities) != set(options.abilities):
        raise RollUnderError(
            f"{character.name}'s abilities ({', '.join(character.abilities)}) are not the "
            f"game's ({', '.join(options.abilities)}); set RollUnderOptions.abilities"
        )
    if character.load is not None:
        check_hands(character.load, options)
    if list(character.abilities) == list(options.abilities):
        return character
    ordered = {ability: character.abilities[ability] for ability in options.abilities}
    return character.model_copy(update={"abilities": ordered})


def sheet_from(data: Any, origin: str = "the sheet") -> Character:
    """A sheet from JSON-like data, or one `RollUnderDataError` naming the first problem."""
    return validated(Character, data, origin)


def read_sheet(path: str | Path) -> Character:
    """A character sheet from a JSON (or TOML) file, as `--json` prints a sheet, checked."""
    return sheet_from(read_data_file(path, RollUnderDataError), str(path))


class SheetSource(Model):
    """Where a sheet's value comes from: a rule of the chapter, or the user's game."""

    status: Literal["rule", "PLACEHOLDER"]
    gap: str = ""
    what: str = ""
    why: str = ""
    uses: str = ""


@cache
def sheet_sources() -> tuple[dict[str, SheetSource], dict[str, SheetSource]]:
    """The abilities the chapter names, and the sheet's values it leaves open (placeholders
    the user's game supplies), from data/sheet.toml."""
    data = shipped_data("tabletop.systems.rollunder", "sheet.toml")
    abilities = {name: SheetSource(**entry) for name, entry in data["abilities"].items()}
    placeholders = {name: SheetSource(**entry) for name, entry in data["placeholders"].items()}
    return abilities, placeholders


def games_own_abilities(character: Character) -> tuple[str, ...]:
    """The sheet's abilities that the chapter does not name: the game's (CR-G01)."""
    named, _ = sheet_sources()
    return tuple(ability for ability in character.abilities if ability not in named)
