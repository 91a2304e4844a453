"""Status effects as data: what each does per stack and per round, and how long one lasts.

The rules name statuses without cataloguing them (RU-G04); `data/statuses.toml` holds the
ones the document gives numbers for, tagged where a number had to be assumed, and a group
can add its own with a file of the same shape.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, field_validator

from tabletop.systems.ap2d6.datafiles import read_file, shipped
from tabletop.systems.ap2d6.errors import Ap2d6Error, InvalidValueError, validated
from tabletop.systems.ap2d6.scores import named_scores

ROUNDS_PER_HOUR = 600
"""A round is about six seconds (§ Action Points), so an hour is 600 rounds."""

MAX_STACKS = 1_000
"""Stacks of one status a character may carry; beyond it the input is refused."""

_STATUS = re.compile(r"[a-z][a-z0-9-]*")

Amount = Annotated[int, Field(ge=0, le=MAX_STACKS)]
Modifier = Annotated[int, Field(ge=-100, le=100)]


def status_name(text: str) -> str:
    """A status's name as the catalogue spells it: `[Poison]` → `poison`."""
    name = text.strip().strip("[]").strip().lower()
    if not _STATUS.fullmatch(name):
        raise InvalidValueError(f"{text!r} is not a status name (lower-case words joined by -)")
    return name


def named_statuses(value: object) -> object:
    """A mapping keyed by status names, the names as the catalogue spells them; anything else
    is left for the model to refuse."""
    if isinstance(value, dict):
        return {status_name(str(name)): entry for name, entry in value.items()}
    return value


class StatusSpec(BaseModel):
    """What one status does. Every number is per round of play unless it says per stack."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    summary: str = ""
    damage_per_stack: Amount = 0
    heal_per_stack: Amount = 0
    decay_per_round: Amount = 0
    score_modifiers: dict[str, Modifier] = {}
    check_modifiers: dict[str, Modifier] = {}
    speed: Modifier = 0
    to_hit: Modifier = 0
    assumption: str = ""

    _score_names = field_validator("score_modifiers", "check_modifiers", mode="before")(
        named_scores
    )

    @property
    def acts_each_round(self) -> bool:
        """Hurts or heals in Effect Activation, so CON can ignore its stacks (RU-A38)."""
        return self.damage_per_stack > 0 or self.heal_per_stack > 0


class StatusCatalogue(BaseModel):
    """Every status the table knows, by name."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    statuses: dict[str, StatusSpec]

    _status_names = field_validator("statuses", mode="before")(named_statuses)

    def spec(self, name: str) -> StatusSpec:
        """The status called `name`, or a clear error listing the known ones."""
        key = status_name(name)
        if key not in self.statuses:
            known = ", ".join(sorted(self.statuses))
            raise Ap2d6Error(f"no status called [{key}]; known statuses: {known}")
        return self.statuses[key]

    def extended(self, other: StatusCatalogue) -> StatusCatalogue:
        """This catalogue with `other`'s statuses added (replacing any of the same name)."""
        return StatusCatalogue(statuses={**self.statuses, **other.statuses})


class Status(BaseModel):
    """A status a character has: its stacks and, if it runs out, the rounds it has left."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    stacks: Annotated[int, Field(ge=1, le=MAX_STACKS)] = 1
    rounds_left: Annotated[int, Field(ge=1)] | None = None


@cache
def shipped_statuses() -> StatusCatalogue:
    """The statuses that come with the rules (data/statuses.toml)."""
    return validated(StatusCatalogue, {"statuses": shipped("statuses.toml")}, "statuses.toml")


def load_statuses(path: str | Path) -> StatusCatalogue:
    """The shipped statuses extended with a group's own file of the same shape."""
    own = validated(StatusCatalogue, {"statuses": read_file(path)}, str(path))
    return shipped_statuses().extended(own)
