"""What the rules leave on the record: dice rolled and events, as plain JSON-ready models.

Events and saved states are pydantic models that round-trip through JSON, so they keep a
`DiceRecord` (the expression, the total, the roll in words and the engine's full record of
every die) rather than the live `Roll` object.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from tabletop.dice import DiceSource, Roll, roll
from tabletop.words import said


class Model(BaseModel):
    """Frozen, strict about unknown fields: the base of every rollunder model."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class DiceRecord(Model):
    """One roll on the record: what was rolled, every die as the engine recorded it, the total."""

    expression: str
    """What the dice engine rolled (`1d6!p:100`), which a check of the roll reads."""
    total: int
    line: str
    """The roll on one line as a player reads it, e.g. `1d6, exploding: 6, then 3 (+2) = 8`
    (`said`)."""
    dice: dict[str, Any]
    """The engine's record of every die (`Roll.to_json()["dice"]`)."""

    @classmethod
    def of(cls, rolled: Roll) -> DiceRecord:
        data = rolled.to_json()
        return cls(
            expression=rolled.expression,
            total=rolled.total,
            line=said(rolled),
            dice=data["dice"],
        )

    @property
    def one_die(self) -> bool:
        """Whether one die showing one face made the roll, so its total says it all."""
        dice = self.dice.get("dice")
        return isinstance(dice, list) and len(dice) == 1 and len(dice[0].get("faces", ())) == 1

    def __str__(self) -> str:
        return self.line


def roll_record(expression: str, dice: DiceSource) -> DiceRecord:
    """Roll `expression` and keep its record."""
    return DiceRecord.of(roll(expression, dice))


EventKind = Literal[
    "ability_roll",
    "automatic_result",
    "strength_roll",
    "group_result",
    "omen_spent",
    "roll_kept",
    "contest_rolls",
    "tie_break",
    "tie_stands",
    "contest_result",
    "damage_roll",
    "armour",
    "health_lost",
    "dying",
    "dying_deadline",
    "incapacitated",
    "injury_roll",
    "disabled",
    "item_destroyed",
    "nothing_to_destroy",
    "ability_lost",
    "ability_gained",
    "health_adjusted",
    "died",
    "saved_from_death",
    "corruption_gained",
    "corruption_roll",
    "corruption_healed",
    "mutation",
    "mutation_to_choose",
    "chance_roll",
    "healed",
    "recovered",
    "sacred_spell",
    "burial",
    "replacement",
    "follower",
    "carrying",
    "renamed",
    "notes",
    "money",
    "spells",
]


class Event(Model):
    """One thing that happened: a kind, who it happened to, a line for people, the numbers
    for programs, and the dice if any were rolled."""

    kind: EventKind
    character: str | None = None
    text: str
    values: dict[str, int | bool | str | None] = Field(default_factory=dict)
    dice: DiceRecord | None = None

    @classmethod
    def about(
        cls,
        name: str | None,
        kind: EventKind,
        text: str,
        dice: DiceRecord | None = None,
        **values: int | bool | str | None,
    ) -> Event:
        """An event that happened to the character called `name` (None: to a group)."""
        return cls(kind=kind, character=name, text=text, values=values, dice=dice)

    def __str__(self) -> str:
        return self.text if self.dice is None else f"{self.text} ({self.dice.line})"
