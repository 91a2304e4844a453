"""What a roll leaves on the record: every die with its faces and its fate.

A `Roll` holds the normalised expression, the total and a tree that mirrors the syntax
tree, with each dice term replaced by the dice it rolled. Rendering lives in
`tabletop.dice.render`; these classes only hold the facts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from tabletop.dice.syntax import ArithmeticOp, Dice, RiskDice, UsageDie, dice_notation


@dataclass(frozen=True, slots=True)
class Die:
    """One die of a pool.

    `faces` is the face that stood after any re-roll followed by each explosion follow-up,
    as rolled; `value` is what the die is worth (a penetrating follow-up counts one less).
    `rerolled` lists the faces thrown away by re-rolls, in order.
    """

    sides: int
    faces: tuple[int, ...]
    value: int
    rerolled: tuple[int, ...] = ()
    kept: bool = True
    success: bool | None = None
    penetrating: bool = False

    @property
    def face(self) -> int:
        """The face that stood after re-rolls, before any explosion."""
        return self.faces[0]

    @property
    def exploded(self) -> bool:
        return len(self.faces) > 1

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "sides": self.sides,
            "faces": list(self.faces),
            "value": self.value,
            "kept": self.kept,
        }
        if self.rerolled:
            data["rerolled"] = list(self.rerolled)
        if self.exploded:
            data["exploded"] = True
        if self.penetrating and self.exploded:
            data["penetrating"] = True
        if self.success is not None:
            data["success"] = self.success
        return data


@dataclass(frozen=True, slots=True)
class RolledInteger:
    value: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "integer", "value": self.value}


@dataclass(frozen=True, slots=True)
class RolledName:
    name: str
    value: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "name", "name": self.name, "value": self.value}


@dataclass(frozen=True, slots=True)
class RolledNegate:
    operand: Rolled
    value: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "negate", "value": self.value, "operand": self.operand.to_json()}


@dataclass(frozen=True, slots=True)
class RolledOp:
    op: ArithmeticOp
    left: Rolled
    right: Rolled
    value: int

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "operation",
            "op": self.op,
            "value": self.value,
            "left": self.left.to_json(),
            "right": self.right.to_json(),
        }


@dataclass(frozen=True, slots=True)
class RolledPool:
    """A pool of dice: the value is the sum of kept dice, or the count of successes."""

    term: Dice
    dice: tuple[Die, ...]
    value: int

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "dice",
            "notation": dice_notation(self.term),
            "value": self.value,
            "dice": [die.to_json() for die in self.dice],
        }


@dataclass(frozen=True, slots=True)
class RolledUsage:
    """A usage die: the face rolled, and the die it steps down to on a 1 or 2."""

    term: UsageDie
    value: int

    @property
    def steps_down(self) -> bool:
        return self.value <= 2

    @property
    def next_size(self) -> int | None:
        """The usage die afterwards: the same size, the next smaller one, or None if gone."""
        return self.term.next_size if self.steps_down else self.term.size

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "usage",
            "notation": dice_notation(self.term),
            "value": self.value,
            "steps_down": self.steps_down,
            "next_size": self.next_size,
        }


@dataclass(frozen=True, slots=True)
class RolledRisk:
    """Risk dice: the d6 faces; the value is 1 if any shows a 1 (the risk happens)."""

    term: RiskDice
    faces: tuple[int, ...]
    value: int

    @property
    def triggered(self) -> bool:
        return self.value == 1

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "risk",
            "notation": dice_notation(self.term),
            "value": self.value,
            "faces": list(self.faces),
            "triggered": self.triggered,
        }


Rolled = (
    RolledInteger | RolledName | RolledNegate | RolledOp | RolledPool | RolledUsage | RolledRisk
)


class RollRecord(Protocol):
    """A finished roll as the renderer reads it: `tabletop.dice.roll.Roll` is one. It lives
    beside the record's parts so that rendering needs only this module, never the roll."""

    @property
    def expression(self) -> str: ...

    @property
    def total(self) -> int: ...

    @property
    def result(self) -> Rolled: ...
