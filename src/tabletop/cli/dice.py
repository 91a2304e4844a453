"""`tabletop roll` and `tabletop odds`: any dice expression, in any dialect, rolled or weighed
exactly; what another dialect would read differently is noted on stderr."""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated

import typer
from rich.markup import escape

from tabletop.cli.odds_table import odds_table
from tabletop.cli.options import Json, Seed, whole_number
from tabletop.cli.output import console, fraction, notes, percent, print_json, print_roll
from tabletop.dice import (
    DIALECTS,
    Distribution,
    dice_source,
    distribution,
    notation,
    other_readings,
    parse,
    roll,
)
from tabletop.dice.dialects import DIALECT_VARIABLE, user_dialect
from tabletop.dice.syntax import Node, dice_terms, most_dice
from tabletop.errors import LimitError, RollError

MAX_TIMES = 10_000
"""Rolls one `tabletop roll --times` may ask for."""

MAX_DICE_SHOWN = 100_000
"""Dice all the rolls of one `tabletop roll --times` may throw (each is printed in full)."""

Expression = Annotated[
    str, typer.Argument(help="A dice expression, e.g. '4d6kh3 + 2' (see docs/dice-notation.md).")
]
DialectName = Annotated[
    str | None,
    typer.Option(
        "--dialect",
        help=(
            f"Read the expression as {', '.join(DIALECTS)} does (default: ${DIALECT_VARIABLE}, "
            "else tabletop; see docs/dice-notation.md)."
        ),
        metavar="DIALECT",
    ),
]
Names = Annotated[
    list[str] | None,
    typer.Option(
        "--var",
        help="Give a name in the expression a value, e.g. --var STR=2.",
        metavar="NAME=VALUE",
    ),
]


def read_names(pairs: list[str] | None) -> dict[str, int]:
    """`["STR=2", "AGI=-1"]` -> `{"STR": 2, "AGI": -1}`."""
    names: dict[str, int] = {}
    for pair in pairs or []:
        name, sep, value = pair.partition("=")
        number = whole_number(value)
        if not sep or not name.strip() or number is None:
            raise RollError(f"--var wants NAME=WHOLE_NUMBER, not {pair[:60]!r}")
        names[name.strip()] = number
    return names


def read(expression: str, dialect: str | None, names: dict[str, int]) -> tuple[Node, str]:
    """The tree of `expression` in the chosen dialect, after noting (on stderr) every other
    dialect that reads the same text with another meaning."""
    chosen = dialect or user_dialect()
    tree = parse(expression, chosen)
    for reading in other_readings(expression, chosen, names):
        notes.print(f"[yellow]note:[/yellow] {escape(str(reading))}", soft_wrap=True)
    return tree, chosen


def roll_command(
    expression: Expression,
    dialect: DialectName = None,
    seed: Seed = None,
    times: Annotated[
        int, typer.Option("--times", "-n", min=1, max=MAX_TIMES, help="Roll this many times.")
    ] = 1,
    json: Json = False,
    var: Names = None,
) -> None:
    """Roll dice and show every die: kept, dropped, re-rolled, exploded.

    With --times and --json, each roll is one JSON object on its own line."""
    names = read_names(var)
    tree, chosen = read(expression, dialect, names)
    most = max(1, sum(most_dice(term) for term in dice_terms(tree)))
    if most * times > MAX_DICE_SHOWN:
        raise LimitError(
            f"{times:,} rolls of {notation(tree, chosen)!r} could throw {most * times:,} dice; "
            f"--times may throw at most {MAX_DICE_SHOWN:,}"
        )
    source = dice_source(seed)
    for _ in range(times):
        rolled = roll(tree, source, names=names, dialect=chosen)
        if json:
            print_json(rolled.to_json())
        else:
            print_roll(rolled)


def odds_command(
    expression: Expression,
    dialect: DialectName = None,
    at_least: Annotated[
        int | None, typer.Option("--at-least", help="Also give P(total ≥ T).")
    ] = None,
    at_most: Annotated[
        int | None, typer.Option("--at-most", help="Also give P(total ≤ T).")
    ] = None,
    show_all: Annotated[bool, typer.Option("--all", help="List even the rarest outcomes.")] = False,
    json: Json = False,
    var: Names = None,
) -> None:
    """Exact odds of a dice expression: every total as a fraction, mean and spread."""
    if at_least is not None and at_most is not None:
        raise RollError("give --at-least or --at-most, not both")
    names = read_names(var)
    tree, chosen = read(expression, dialect, names)
    odds = distribution(tree, names, dialect=chosen)
    text = notation(tree, chosen)
    threshold = _threshold(odds, at_least, at_most)
    if json:
        data = {"expression": text, **odds.to_json()}
        if threshold is not None:
            key, value, probability = threshold
            data[key] = {"threshold": value, **_probability_json(probability)}
        print_json(data)
        return
    console.print(odds_table(text, odds, show_all, console.width))
    mean, spread = f"{float(odds.mean):.4g}", f"{odds.stdev:.4g}"
    console.print(f"mean [bold]{mean}[/bold], standard deviation [bold]{spread}[/bold]")
    if threshold is not None:
        key, value, probability = threshold
        sign = "≥" if key == "at_least" else "≤"
        console.print(
            f"P(total {sign} {value}) = [bold]{percent(float(probability))}[/bold] "
            f"(exactly {fraction(probability)})"
        )


def _threshold(
    odds: Distribution, at_least: int | None, at_most: int | None
) -> tuple[str, int, Fraction] | None:
    if at_least is not None:
        return "at_least", at_least, odds.at_least(at_least)
    if at_most is not None:
        return "at_most", at_most, odds.at_most(at_most)
    return None


def _probability_json(probability: Fraction) -> dict[str, object]:
    return {
        "probability": float(probability),
        "exact": fraction(probability),
    }
