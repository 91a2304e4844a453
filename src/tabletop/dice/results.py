"""What a roll leaves on the record: every die with its faces and its fate.

A `Roll` holds the normalised expression, the total and a tree that mirrors the syntax
tree, with each dice term replaced by the dice it rolled. Rendering lives in
`tabletop.dice.render`; these classes only hold the facts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

from tabletop.dice.dialects import DEFAULT_DIALECT
from tabletop.dice.spelling import notation
from tabletop.dice.syntax import ArithmeticOp, Dice, Function, Number, RiskDice, UsageDie


class Die(NamedTuple):
    """One die of a pool (a named tuple rather than a frozen dataclass: a roll builds one per
    die, and a frozen dataclass of twelve fields takes six times as long to build).

    `faces` is the face that stood after any re-roll followed by each compounding
    explosion's follow-up, as rolled; `value` is what the die is worth (a penetrating
    follow-up counts one less). `rerolled` lists the faces thrown away by re-rolls, in order.
    A separate explosion's follow-up is a die of its own, `added` to the pool by the die
    before it, which is marked `triggered`.
    """

    sides: int
    faces: tuple[int, ...]
    value: int
    rerolled: tuple[int, ...] = ()
    kept: bool = True
    success: bool | None = None
    penetrating: bool = False
    failure: bool | None = None
    triggered: bool = False
    added: bool = False
    critical: bool = False
    """Shows a critical success point (Roll20's `cs`); marked only."""
    fumble: bool = False
    """Shows a critical failure point (Roll20's `cf`); marked only."""

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
        if self.penetrating and (self.exploded or self.added):
            data["penetrating"] = True
        if self.triggered:
            data["triggered"] = True
        if self.added:
            data["added"] = True
        if self.success is not None:
            data["success"] = self.success
        if self.failure is not None:
            data["failure"] = self.failure
        if self.critical:
            data["critical"] = True
        if self.fumble:
            data["fumble"] = True
        return data


@dataclass(frozen=True, slots=True)
class RolledInteger:
    value: int

    def to_json(self, dialect: str = DEFAULT_DIALECT) -> dict[str, Any]:
        return {"type": "integer", "value": self.value}


@dataclass(frozen=True, slots=True)
class RolledName:
    name: str
    value: int

    def to_json(self, dialect: str = DEFAULT_DIALECT) -> dict[str, Any]:
        return {"type": "name", "name": self.name, "value": self.value}


@dataclass(frozen=True, slots=True)
class RolledNegate:
    operand: Rolled
    value: Number

    def to_json(self, dialect: str = DEFAULT_DIALECT) -> dict[str, Any]:
        return {
            "type": "negate",
            "value": json_number(self.value),
            "operand": self.operand.to_json(dialect),
        }


@dataclass(frozen=True, slots=True)
class RolledOp:
    op: ArithmeticOp
    left: Rolled
    right: Rolled
    value: Number

    def to_json(self, dialect: str = DEFAULT_DIALECT) -> dict[str, Any]:
        return {
            "type": "operation",
            "op": self.op,
            "value": json_number(self.value),
            "left": self.left.to_json(dialect),
            "right": self.right.to_json(dialect),
        }


@dataclass(frozen=True, slots=True)
class RolledCall:
    function: Function
    operand: Rolled
    value: Number

    def to_json(self, dialect: str = DEFAULT_DIALECT) -> dict[str, Any]:
        return {
            "type": "function",
            "function": self.function,
            "value": json_number(self.value),
            "operand": self.operand.to_json(dialect),
        }


@dataclass(frozen=True, slots=True)
class RolledGroup:
    """A group's members as rolled, which of them were kept, which succeeded (and which
    failed, under Roll20's failures)."""

    members: tuple[Rolled, ...]
    kept: tuple[bool, ...]
    success: tuple[bool, ...] | None
    value: Number
    failure: tuple[bool, ...] | None = None

    def to_json(self, dialect: str = DEFAULT_DIALECT) -> dict[str, Any]:
        members = []
        for index, member in enumerate(self.members):
            data = {**member.to_json(dialect), "kept": self.kept[index]}
            if self.success is not None:
                data["success"] = self.success[index]
            if self.failure is not None:
                data["failure"] = self.failure[index]
            members.append(data)
        return {"type": "group", "value": json_number(self.value), "members": members}


@dataclass(frozen=True, slots=True)
class RolledLabel:
    """A label (or a trailing comment) and the value it is kept with."""

    text: str
    trailing: bool
    operand: Rolled
    value: Number

    def to_json(self, dialect: str = DEFAULT_DIALECT) -> dict[str, Any]:
        return {
            "type": "comment" if self.trailing else "label",
            "text": self.text,
            "value": json_number(self.value),
            "operand": self.operand.to_json(dialect),
        }


def json_number(value: Number) -> int | float:
    """A value for JSON: whole numbers as integers, fractions as the nearest float (the
    exact fraction is in `exact` beside it where it matters)."""
    return value if isinstance(value, int) else float(value)


@dataclass(frozen=True, slots=True)
class RolledPool:
    """A pool of dice: the value is the sum of kept dice, or the count of successes."""

    term: Dice
    dice: tuple[Die, ...]
    value: int

    def to_json(self, dialect: str = DEFAULT_DIALECT) -> dict[str, Any]:
        return {
            "type": "dice",
            "notation": notation(self.term, dialect),
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

    def to_json(self, dialect: str = DEFAULT_DIALECT) -> dict[str, Any]:
        return {
            "type": "usage",
            "notation": notation(self.term, dialect),
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

    def to_json(self, dialect: str = DEFAULT_DIALECT) -> dict[str, Any]:
        return {
            "type": "risk",
            "notation": notation(self.term, dialect),
            "value": self.value,
            "faces": list(self.faces),
            "triggered": self.triggered,
        }


@dataclass(frozen=True, slots=True)
class RolledComputed:
    """A computed pool: the roll of its count (and of its sides), then that many dice."""

    count: Rolled
    pool: RolledPool
    value: int
    sides: Rolled | None = None
    """The roll of its sides, when they are computed too (`2d(1d6)`)."""

    def to_json(self, dialect: str = DEFAULT_DIALECT) -> dict[str, Any]:
        data = {
            "type": "computed",
            "value": self.value,
            "count": self.count.to_json(dialect),
            "dice": [die.to_json() for die in self.pool.dice],
        }
        if self.sides is not None:
            data["sides"] = self.sides.to_json(dialect)
        return data


Rolled = (
    RolledInteger
    | RolledName
    | RolledNegate
    | RolledOp
    | RolledCall
    | RolledLabel
    | RolledComputed
    | RolledGroup
    | RolledPool
    | RolledUsage
    | RolledRisk
)


class RollRecord(Protocol):
    """A finished roll as the renderer reads it: `tabletop.dice.roll.Roll` is one. It lives
    beside the record's parts so that rendering needs only this module, never the roll."""

    @property
    def expression(self) -> str: ...

    @property
    def total(self) -> Number: ...

    @property
    def result(self) -> Rolled: ...
