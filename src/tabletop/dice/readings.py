"""Never a silent second meaning: how the other shipped dialects read the same text.

Found by parsing the text in every dialect and comparing what each reading means -- the
exact laws, or the trees where a law is past the limits -- never from a list of known
cases. A reading whose law is the same (Roll20's `3d6!` adds its follow-ups as dice of
their own, tabletop's compounds them: the sums agree) is no note.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from tabletop.dice.dialects import DEFAULT_DIALECT, DIALECTS, Dialect, dialect_named
from tabletop.dice.distribution import Distribution
from tabletop.dice.exact import distribution
from tabletop.dice.parser import parse
from tabletop.dice.render import shown_number
from tabletop.dice.spelling import Unspellable, notation
from tabletop.dice.syntax import Node
from tabletop.errors import LimitError, TabletopError


@dataclass(frozen=True, slots=True)
class Reading:
    """Another dialect's meaning of the same text, as a one-line note."""

    text: str
    dialect: Dialect
    """The dialect that reads the text otherwise."""
    here: Dialect
    spelled: str | None
    """That other meaning in the chosen dialect's spelling, when it has one."""
    means: tuple[Fraction, Fraction] | None
    """The mean there and here, when both laws are exact."""

    def __str__(self) -> str:
        text = self.text.strip()
        line = f"{self.dialect.title} reads {text!r} otherwise"
        if self.spelled is not None:
            line += f": as {self.spelled!r} in {self.here.title}"
        if self.means is not None:
            there, here = self.means
            if there == here:
                line += " (the same mean, other odds)"
            else:
                line += f" (mean {_mean(there)} there, {_mean(here)} here)"
        else:
            line += " (its odds are too costly to compare in a note)"
        return line


def other_readings(
    text: str,
    dialect: str | Dialect = DEFAULT_DIALECT,
    names: Mapping[str, int] | None = None,
) -> list[Reading]:
    """How every other shipped dialect that accepts `text` reads it, where that means
    something else than `dialect` reads (the text must parse in `dialect`)."""
    here = dialect_named(dialect)
    tree = parse(text, here)
    found = []
    for other in DIALECTS.values():
        if other is here:
            continue
        try:
            there = parse(text, other)
        except TabletopError:
            continue
        if there == tree:
            continue
        laws = _laws(text, here, other, names)
        if laws is not None and laws[0] == laws[1]:
            continue
        means = None if laws is None else (laws[1].mean, laws[0].mean)
        found.append(Reading(text, other, here, _spelled(there, here), means))
    return found


NOTE_SHARE = 10
"""A note's laws may take this part of the exact odds' steps (their bits stay whole: a law
heavy in bits is quick): a roll is not held up by its note, where Roll20's `20d10!k10`
took 4 to 7 s of the whole steps before it was refused (now about a tenth of that)."""


def _laws(
    text: str, here: Dialect, other: Dialect, names: Mapping[str, int] | None
) -> tuple[Distribution, Distribution] | None:
    """Both exact laws, or None when either is past a note's part of the limits (the
    trees then differ)."""
    try:
        mine = distribution(text, names, dialect=here, share=NOTE_SHARE)
        return mine, distribution(text, names, dialect=other, share=NOTE_SHARE)
    except LimitError:
        return None


def _spelled(tree: Node, dialect: Dialect) -> str | None:
    """The other reading in `dialect`'s spelling, when it has one that reads back as it."""
    try:
        text = notation(tree, dialect)
    except Unspellable:
        return None
    again = parse(text, dialect)
    if again == tree:
        return text
    try:  # the same faces spelled otherwise: Roll20's >4 is tabletop's >3
        same = distribution(again, dialect=dialect) == distribution(tree, dialect=dialect)
    except TabletopError:
        return None
    return text if same else None


def _mean(value: Fraction) -> str:
    shown = shown_number(value)
    return shown if "/" not in shown else f"{float(value):.4g}"
