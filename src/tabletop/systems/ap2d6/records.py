"""Dice on the record in saved state: what was rolled, each face, and the total.

Events and states are pydantic models that round-trip through JSON, so they keep this plain
record of a `Roll` rather than the roll object itself. The system only rolls sums of plain
dice, so the faces in order are the whole story.
"""

from __future__ import annotations

from typing import Self

from pydantic import BaseModel, ConfigDict

from tabletop.dice import DiceSource, Roll, RolledPool, roll


class DiceRecord(BaseModel):
    """One roll: its expression, every face in the order rolled, and the total."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    expression: str
    faces: tuple[int, ...]
    total: int

    @classmethod
    def of(cls, rolled: Roll) -> Self:
        faces = tuple(
            die.value
            for pool in rolled.pools()
            if isinstance(pool, RolledPool)
            for die in pool.dice
        )
        return cls(expression=rolled.expression, faces=faces, total=rolled.total)

    def __str__(self) -> str:
        return f"{self.expression} → [{', '.join(map(str, self.faces))}] = {self.total}"


def roll_dice(expression: str, dice: DiceSource) -> DiceRecord:
    """Roll `expression` (plain dice and numbers) and keep its record."""
    return DiceRecord.of(roll(expression, dice))


class TwoDice(DiceRecord):
    """A 2d6 roll, the heart of every check: knows its double 1s and double 6s."""

    @property
    def double_one(self) -> bool:
        return self.faces == (1, 1)

    @property
    def double_six(self) -> bool:
        return self.faces == (6, 6)


def roll_2d6(dice: DiceSource) -> TwoDice:
    """Two six-sided dice, on the record."""
    return TwoDice.of(roll("2d6", dice))
