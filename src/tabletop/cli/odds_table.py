"""The text of `tabletop odds`: every total with its chance as a percentage and an exact
fraction, summarised in ranges when there are too many totals to read (or to print fast).

`--json` always lists every outcome; this table is for a person at a terminal.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from rich.table import Table

from tabletop.cli.output import fraction, percent
from tabletop.dice import Distribution
from tabletop.dice.render import shown_number
from tabletop.dice.syntax import Number
from tabletop.errors import LimitError

SHOWN_BELOW = Fraction(1, 100_000)
"""Outcomes rarer than this are counted in the caption, not listed, unless --all is given."""

MAX_ROWS = 60
"""Past this many rows the totals are grouped into ranges (`RANGES` of them)."""

RANGES = 40
"""How many ranges a summarised table shows."""

MAX_LISTED = 5_000
"""The most outcomes `--all` lists; past it the table is refused and --json is the way."""

MAX_FRACTION_CHARS = 24
"""Longer exact fractions are shown as `…`; --json holds every one in full."""

MIN_BAR = 5
"""A bar column narrower than this is left out."""


@dataclass(frozen=True)
class _Row:
    """One line of the table: a total (or a range of them) and its chances."""

    low: Number
    high: Number
    chance: Fraction
    at_least: Fraction
    at_most: Fraction


def odds_table(text: str, odds: Distribution, show_all: bool, width: int) -> Table:
    """Every total of `odds` (or ranges of them, past `MAX_ROWS`) with exact fractions, in
    as many columns as fit `width` (the total, its chance and fraction always do)."""
    if show_all and len(odds) > MAX_LISTED:
        raise LimitError(
            f"--all lists at most {MAX_LISTED:,} totals and this has {len(odds):,}; "
            "--json gives every one"
        )
    total = odds.total
    listed = [
        v for v, w in odds.weights.items() if show_all or w * SHOWN_BELOW.denominator >= total
    ]
    grouped = len(listed) > MAX_ROWS
    rows = _ranges(odds, listed[0], listed[-1]) if grouped else _rows(odds, set(listed))
    cells = [_cells(row) for row in rows]
    long_fractions = any(row[2] == "…" for row in cells)
    headers = ("totals" if grouped else "total", "chance", "exactly", "≥ total", "≤ total")
    widths = [max(len(header), *(len(row[i]) for row in cells)) for i, header in enumerate(headers)]
    shown = _columns_that_fit(widths, width)
    table = Table(title=f"odds of {text}", title_justify="left", show_edge=False, pad_edge=False)
    for index in range(shown):
        style = "dim" if index >= 3 else None
        table.add_column(headers[index], justify="right", style=style, no_wrap=True)
    room = width - sum(widths[:shown]) - 3 * shown
    bar_width = min(30, room)
    if bar_width >= MIN_BAR:
        table.add_column("", no_wrap=True)
    peak = max(row.chance for row in rows)
    for row, text_cells in zip(rows, cells, strict=True):
        bar = [f"[cyan]{'█' * round(bar_width * row.chance / peak)}[/cyan]"]
        table.add_row(*text_cells[:shown], *(bar if bar_width >= MIN_BAR else []))
    table.caption = _caption(len(odds), grouped, len(odds) - len(listed), long_fractions)
    return table


def _columns_that_fit(widths: list[int], width: int) -> int:
    """How many of the columns, in order, fit in `width` (never fewer than three)."""
    shown = len(widths)
    while shown > 3 and sum(widths[:shown]) + 3 * (shown - 1) > width:
        shown -= 1
    return shown


def _cells(row: _Row) -> tuple[str, str, str, str, str]:
    """A row's numbers as text: the total or range, chance, exact fraction, ≥ and ≤."""
    exact = fraction(row.chance)
    return (
        shown_number(row.low)
        if row.low == row.high
        else f"{shown_number(row.low)}–{shown_number(row.high)}",
        percent(float(row.chance)),
        exact if len(exact) <= MAX_FRACTION_CHARS else "…",
        percent(float(row.at_least)),
        percent(float(row.at_most)),
    )


def _rows(odds: Distribution, listed: set[int]) -> list[_Row]:
    """One row for each listed total, with the chances of reaching at least and at most it."""
    total = odds.total
    rows: list[_Row] = []
    below = total
    for value, weight in odds.weights.items():
        if value in listed:
            at_least, at_most = Fraction(below, total), 1 - Fraction(below - weight, total)
            rows.append(_Row(value, value, Fraction(weight, total), at_least, at_most))
        below -= weight
    return rows


def _ranges(odds: Distribution, least: int, greatest: int) -> list[_Row]:
    """The totals from `least` to `greatest` in `RANGES` equal ranges (empty ones left out);
    the rarer totals outside them are in the first and last range's ≥ and ≤ columns."""
    width = -(-(greatest - least + 1) // RANGES)
    total = odds.total
    sums: dict[int, int] = {}
    below = total
    for value, weight in odds.weights.items():
        if value < least:
            below -= weight
        elif value <= greatest:
            start = least + (value - least) // width * width
            sums[start] = sums.get(start, 0) + weight
    rows = []
    for start, weight in sums.items():
        high = min(start + width - 1, greatest)
        at_least, at_most = Fraction(below, total), 1 - Fraction(below - weight, total)
        rows.append(_Row(start, high, Fraction(weight, total), at_least, at_most))
        below -= weight
    return rows


def _caption(outcomes: int, grouped: bool, hidden: int, long_fractions: bool) -> str | None:
    """What the table leaves out, and where to find it."""
    notes = []
    if grouped:
        notes.append(f"{outcomes:,} totals in ranges (--json lists every one)")
    if hidden:
        notes.append(f"{hidden} outcomes rarer than 0.001% not listed (--all lists them)")
    if long_fractions:
        notes.append("fractions too long to show are in --json")
    return "; ".join(notes) or None
