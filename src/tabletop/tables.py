"""Random tables as data: a dice expression and ranges of results, each leading to an entry.

A table file (TOML or JSON) gives a `name`, the `dice` to roll, optionally the range of
`modifiers` the rules add to the roll, and `entries`, each with a
`roll` (a number, "a-b", "a+" for a and above, or "<=a") and a `name`, optionally `text`
and structured `effects` (each a table with a `kind` and its own fields). Loading checks
that every possible roll reaches exactly one entry and that no entry is unreachable. Tables
shipped with a system live in its `data/tables/` folder and are found by
`<system>/<file stem>`, e.g. `dead-weight/mortal-wounds`.
"""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    field_serializer,
    field_validator,
    model_validator,
)

from tabletop.data import read_data_file, validated
from tabletop.dice import DiceSource, Roll, distribution, notation, parse, roll
from tabletop.errors import TableError, TabletopError

_PACKAGES = ("tabletop.systems", "tabletop.games")
MAX_MODIFIER = 100
"""The largest modifier range a table may declare."""


class Effect(BaseModel):
    """A mechanical effect of an entry: a `kind` and whatever fields that kind needs.

    The system that owns the table gives each kind its meaning; tabletop never parses
    prose to find effects."""

    model_config = ConfigDict(extra="allow", frozen=True)

    kind: str = Field(min_length=1)

    @property
    def fields(self) -> dict[str, Any]:
        """The effect's own fields, without `kind`."""
        return dict(self.model_extra or {})


@dataclass(frozen=True, slots=True)
class Span:
    """An inclusive range of results; None on a side means open-ended."""

    low: int | None
    high: int | None

    @property
    def bounds(self) -> tuple[float, float]:
        return (
            -math.inf if self.low is None else self.low,
            math.inf if self.high is None else self.high,
        )

    def __contains__(self, value: int) -> bool:
        low, high = self.bounds
        return low <= value <= high

    def overlaps(self, other: Span) -> bool:
        return max(self.bounds[0], other.bounds[0]) <= min(self.bounds[1], other.bounds[1])

    def __str__(self) -> str:
        if self.low is None:
            return f"<={self.high}"
        if self.high is None:
            return f"{self.low}+"
        return str(self.low) if self.low == self.high else f"{self.low}-{self.high}"


_RANGE = re.compile(r"(-?\d+)\s*-\s*(-?\d+)")


def parse_span(text: int | str) -> Span:
    """Read `7`, `"2-3"`, `"-3--1"`, `"7+"` or `"<=1"`."""
    if isinstance(text, int) and not isinstance(text, bool):
        return Span(text, text)
    if not isinstance(text, str):
        raise ValueError("a roll range must be a number or text such as '2-3'")
    cleaned = text.strip()
    try:
        if cleaned.endswith("+"):
            return Span(int(cleaned[:-1]), None)
        if cleaned.startswith("<="):
            return Span(None, int(cleaned[2:]))
        both = _RANGE.fullmatch(cleaned)
        span = Span(int(both[1]), int(both[2])) if both else Span(int(cleaned), int(cleaned))
    except ValueError:
        raise ValueError(
            f"cannot read the roll range {text!r}: use a number, 'a-b', 'a+' or '<=a'"
        ) from None
    if span.bounds[0] > span.bounds[1]:
        raise ValueError(f"the roll range {text!r} runs backwards")
    return span


class Entry(BaseModel):
    """One row of a table."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True, extra="forbid")

    roll: Span
    name: str = Field(min_length=1)
    text: str = ""
    effects: tuple[Effect, ...] = ()

    @field_validator("roll", mode="before")
    @classmethod
    def _read_roll(cls, value: Any) -> Span:
        return value if isinstance(value, Span) else parse_span(value)

    @field_serializer("roll")
    def _write_roll(self, span: Span) -> str:
        """Written back as the text it is read from, so a dumped table loads again."""
        return str(span)


class Table(BaseModel):
    """A random table whose every possible roll leads to exactly one entry."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1)
    title: str = ""
    dice: str
    modifiers: tuple[int, int] = (0, 0)
    """The lowest and highest modifier the rules add to this table's roll: validation checks
    every roll plus every such modifier (so rows only a modified roll reaches are allowed)."""
    entries: tuple[Entry, ...] = Field(min_length=1)

    @field_validator("dice")
    @classmethod
    def _normalise_dice(cls, value: str) -> str:
        try:
            return notation(parse(value))
        except TabletopError as error:
            raise ValueError(str(error)) from None

    @model_validator(mode="after")
    def _every_roll_reaches_one_entry(self) -> Table:
        try:
            rolled = distribution(self.dice).outcomes
        except TabletopError as error:
            raise TableError(f"table {self.name!r}: its dice cannot be weighed: {error}") from None
        low, high = self.modifiers
        if not -MAX_MODIFIER <= low <= high <= MAX_MODIFIER:
            raise TableError(
                f"table {self.name!r}: modifiers run from the lowest to the highest, "
                f"within ±{MAX_MODIFIER}"
            )
        ordered = sorted(self.entries, key=lambda entry: entry.roll.bounds[0])
        for first, second in itertools.pairwise(ordered):
            if first.roll.overlaps(second.roll):
                at = max(first.roll.bounds[0], second.roll.bounds[0])
                if at == -math.inf:
                    at = min(first.roll.bounds[1], second.roll.bounds[1])
                raise TableError(
                    f"table {self.name!r}: entries {first.name!r} ({first.roll}) and "
                    f"{second.name!r} ({second.roll}) both cover {int(at)}"
                )
        reached = self._sweep(ordered, _runs(rolled, low, high))
        for index, entry in enumerate(ordered):
            if index not in reached:
                raise TableError(
                    f"table {self.name!r}: entry {entry.name!r} ({entry.roll}) can never be "
                    f"rolled on {self.dice}"
                )
        return self

    def _sweep(self, ordered: list[Entry], runs: list[tuple[int, int]]) -> set[int]:
        """Walk every run of possible results through the entries (sorted, disjoint); refuse
        the first result no entry covers, and return the entries reached."""
        reached: set[int] = set()
        index = 0
        for start, end in runs:
            value = start
            while value <= end:
                while index < len(ordered) and ordered[index].roll.bounds[1] < value:
                    index += 1
                if index == len(ordered) or ordered[index].roll.bounds[0] > value:
                    raise TableError(f"table {self.name!r}: no entry for a roll of {value}")
                reached.add(index)
                top = ordered[index].roll.bounds[1]
                if top >= end:
                    break
                value = int(top) + 1
        return reached

    def lookup(self, value: int) -> Entry:
        """The entry for a result (which may be a modified roll)."""
        for entry in self.entries:
            if value in entry.roll:
                return entry
        raise TableError(f"table {self.name!r} has no entry for {value}")

    def roll(self, dice: DiceSource, modifier: int = 0) -> TableRoll:
        """Roll the table's dice, add `modifier`, and find the entry."""
        rolled = roll(self.dice, dice)
        value = rolled.total + modifier
        return TableRoll(self, rolled, modifier, value, self.lookup(value))


def _runs(rolled: list[int], low: int, high: int) -> list[tuple[int, int]]:
    """The possible results (each roll plus a modifier from `low` to `high`) as sorted,
    merged runs of consecutive values."""
    runs: list[tuple[int, int]] = []
    for value in rolled:
        start, end = value + low, value + high
        if runs and start <= runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], max(runs[-1][1], end))
        else:
            runs.append((start, end))
    return runs


@dataclass(frozen=True, slots=True)
class TableRoll:
    """The record of a table roll: the dice, any modifier, and the entry reached."""

    table: Table
    roll: Roll
    modifier: int
    value: int
    entry: Entry

    def to_json(self) -> dict[str, Any]:
        return {
            "table": self.table.name,
            "roll": self.roll.to_json(),
            "modifier": self.modifier,
            "value": self.value,
            "entry": self.entry.model_dump(mode="json"),
        }


def load_table(source: str | Path | dict[str, Any], name: str | None = None) -> Table:
    """A table from a TOML or JSON file, or from already-read data."""
    if isinstance(source, dict):
        return validated(Table, source, name or str(source.get("name", "table")), TableError)
    return validated(Table, read_data_file(source, TableError), str(source), TableError)


def builtin_tables() -> dict[str, resources.abc.Traversable]:
    """Every table shipped with a system or game, by `<system>/<stem>`."""
    found: dict[str, resources.abc.Traversable] = {}
    for package in _PACKAGES:
        for system in resources.files(package).iterdir():
            folder = system / "data" / "tables"
            if not folder.is_dir():
                continue
            for file in folder.iterdir():
                if file.name.endswith((".toml", ".json")):
                    stem = file.name.rsplit(".", 1)[0]
                    found[f"{system.name.replace('_', '-')}/{stem}"] = file
    return dict(sorted(found.items()))


def find_table(name_or_path: str) -> Table:
    """A built-in table by name, or a table file by path."""
    known = builtin_tables()
    if name_or_path in known:
        file = known[name_or_path]
        with resources.as_file(file) as path:
            return load_table(path)
    try:
        exists = Path(name_or_path).exists()
    except OSError:  # a name the system cannot look up at all, such as one too long
        exists = False
    if exists:
        return load_table(Path(name_or_path))
    hint = f"; built-in tables: {', '.join(known)}" if known else ""
    raise TableError(f"no table file or built-in table named {name_or_path!r}{hint}")
