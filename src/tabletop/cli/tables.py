"""`tabletop table`: roll on a random table, list and show the built-in ones."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table as RichTable

from tabletop.cli.output import console, print_json, print_roll
from tabletop.dice import dice_source
from tabletop.tables import builtin_tables, find_table

app = typer.Typer(help="Random tables: roll on one, list them, show one.", no_args_is_help=True)

TableName = Annotated[
    str, typer.Argument(help="A built-in table (see `tabletop table list`) or a TOML/JSON file.")
]


@app.command("roll")
def roll_table(
    table: TableName,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Roll a reproducible stream from this seed.")
    ] = None,
    modifier: Annotated[
        int, typer.Option("--modifier", "-m", help="Add this to the roll before reading the table.")
    ] = 0,
    json: Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")] = False,
) -> None:
    """Roll on a table and show the dice and the entry they reach."""
    loaded = find_table(table)
    result = loaded.roll(dice_source(seed), modifier)
    if json:
        print_json(result.to_json())
        return
    shown = f" {modifier:+d} = {result.value}" if modifier else ""
    print_roll(result.roll, prefix=f"{escape(loaded.title or loaded.name)}: ", suffix=shown)
    console.print(f"[bold]{escape(result.entry.name)}[/bold]")
    if result.entry.text:
        console.print(escape(result.entry.text))


@app.command("list")
def list_tables() -> None:
    """List the tables that ship with tabletop."""
    known = builtin_tables()
    if not known:
        console.print("no built-in tables yet")
        return
    for name in known:
        console.print(name)


@app.command("show")
def show_table(table: TableName) -> None:
    """Print a table's entries."""
    loaded = find_table(table)
    view = RichTable(
        title=escape(f"{loaded.title or loaded.name} ({loaded.dice})"), title_justify="left"
    )
    view.add_column("roll", justify="right")
    view.add_column("entry")
    for entry in loaded.entries:
        view.add_row(
            str(entry.roll), escape(entry.name + (f" — {entry.text}" if entry.text else ""))
        )
    console.print(view)
