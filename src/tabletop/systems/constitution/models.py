"""The shared shape of Constitution state: frozen, validated models, dice records, events.

Every rule returns new state built through `Model.evolve`, which validates the whole model
again, so a rule can never leave half-applied or out-of-range state behind.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Self, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

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


class Theirs(NamedTuple):
    """A piece of a line that is someone's numbers or verdict: the combatants (by id) it
    belongs to, any one of whom may be shown it (the damage a blow deals is the striker's
    roll and the struck one's loss)."""

    text: str
    owners: tuple[str, ...]


Piece = str | Theirs
"""A piece of a line: words anyone may read, or someone's numbers."""


def theirs(value: object, *owners: str) -> Piece:
    """`value` as a piece of a line that is `owners`' own (plain words when it is nobody's:
    a line told outside a fight)."""
    named = tuple(owner for owner in owners if owner)
    return Theirs(str(value), named) if named else str(value)


def joined(pieces: tuple[Piece, ...] | list[Piece]) -> str:
    """The line the pieces make, as the rules' own reader (the referee, a command line)
    reads it."""
    return "".join(piece if isinstance(piece, str) else piece.text for piece in pieces)


class Part(Model):
    """Characters `start` to `end` of an event's message: a combatant's numbers or verdict."""

    start: int = Field(ge=0)
    end: int = Field(ge=0)
    owners: tuple[str, ...] = Field(min_length=1)


class Event(Model):
    """Something that happened: a kind a program can switch on, a line for people, the dice;
    and, where a table may keep someone's numbers from its players, whose they are."""

    kind: str
    message: str
    dice: tuple[DiceRecord, ...] = ()
    parts: tuple[Part, ...] = ()
    """The spans of `message` that are a combatant's numbers or verdicts (C3-N05)."""
    roller: str | None = None
    """The combatant `dice` were rolled for."""

    @classmethod
    def told(
        cls,
        kind: str,
        *pieces: Piece,
        dice: tuple[DiceRecord, ...] = (),
        roller: str | None = None,
    ) -> Event:
        """The event whose message is `pieces` joined, with a part for each of theirs (one
        for neighbouring pieces of the same owners)."""
        parts: list[Part] = []
        at = 0
        for piece in pieces:
            end = at + len(piece if isinstance(piece, str) else piece.text)
            if isinstance(piece, Theirs) and end > at:
                last = parts[-1] if parts else None
                if last is not None and last.end == at and last.owners == piece.owners:
                    parts[-1] = Part(start=last.start, end=end, owners=piece.owners)
                else:
                    parts.append(Part(start=at, end=end, owners=piece.owners))
            at = end
        return cls(kind=kind, message=joined(pieces), dice=dice, parts=tuple(parts), roller=roller)
