"""The shared shape of Constitution state: frozen, validated models, dice records, events.

Every rule returns new state built through `Model.evolve`, which validates the whole model
again, so a rule can never leave half-applied or out-of-range state behind.
"""

from __future__ import annotations

from typing import Any, Self, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from tabletop.data import describe, validated
from tabletop.dice import Roll, render_line
from tabletop.systems.constitution.errors import ConstitutionDataError

M = TypeVar("M", bound=BaseModel)


class Model(BaseModel):
    """A frozen pydantic model that refuses unknown fields and re-validates on change."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    def evolve(self, **changes: Any) -> Self:
        """A copy with `changes` applied, validated like a fresh model."""
        try:
            return type(self).model_validate({**dict(self), **changes})
        except ValidationError as error:
            raise ConstitutionDataError(describe(error)) from None


def build(model: type[M], data: Any) -> M:
    """Validate `data` as `model`, turning pydantic's error into a `ConstitutionDataError`."""
    return validated(model, data, f"invalid {model.__name__}", ConstitutionDataError)


class DiceRecord(Model):
    """One roll on the record: the expression, the total, a readable line, every die."""

    expression: str
    total: int
    text: str
    dice: dict[str, Any]

    @classmethod
    def of(cls, rolled: Roll) -> DiceRecord:
        return cls(
            expression=rolled.expression,
            total=rolled.total,
            text=render_line(rolled),
            dice=rolled.to_json()["dice"],
        )


class Event(Model):
    """Something that happened: a kind a program can switch on, a line for people, the dice."""

    kind: str
    message: str
    dice: tuple[DiceRecord, ...] = ()
