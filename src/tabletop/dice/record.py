"""Every draw a dice source gave, kept so that what happened can be stored and replayed.

Apart from `tabletop.dice.source` because a draw is a pydantic model (it is stored in
session records), and a roll from the command line should not load pydantic.
"""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict, Field

from tabletop.dice.source import DiceSource
from tabletop.errors import DataError


class Draw(BaseModel):
    """One number a dice source gave: a face from 1 to `sides`."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    sides: int = Field(ge=1)
    face: int = Field(ge=1)


class RecordingDice:
    """Passes rolls through to another source and keeps every draw, in order, so that what
    happened can be stored and replayed exactly (`ReplayDice`)."""

    __slots__ = ("_source", "draws")

    def __init__(self, source: DiceSource) -> None:
        self._source = source
        self.draws: list[Draw] = []

    def roll(self, sides: int) -> int:
        face = self._source.roll(sides)
        self.draws.append(Draw(sides=sides, face=face))
        return face


class ReplayDice:
    """Gives back recorded draws in order; `DataError` if the rules ask for a different die,
    for more draws than were recorded, or (`check_used_up`) for fewer."""

    __slots__ = ("_draws", "_next")

    def __init__(self, draws: Iterable[Draw]) -> None:
        self._draws = tuple(draws)
        self._next = 0

    def roll(self, sides: int) -> int:
        if self._next >= len(self._draws):
            raise DataError(f"the record ran out of dice (the rules asked for a d{sides})")
        draw = self._draws[self._next]
        if draw.sides != sides or draw.face > sides:
            raise DataError(
                f"draw {self._next + 1} of the record is a d{draw.sides} showing {draw.face}, "
                f"but the rules asked for a d{sides}"
            )
        self._next += 1
        return draw.face

    @property
    def used_up(self) -> bool:
        return self._next == len(self._draws)

    def check_used_up(self) -> None:
        if self._next != len(self._draws):
            left = len(self._draws) - self._next
            raise DataError(
                f"the record holds {left} more {'draw' if left == 1 else 'draws'} "
                "than the rules used"
            )
