"""`tabletop ap2d6 character new`: point buy or rolled scores, shown as a sheet."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from tabletop.cli.ap2d6.common import read_numbers
from tabletop.cli.local import play
from tabletop.cli.options import Json, Seed, rule_options
from tabletop.cli.output import console, print_json
from tabletop.cli.scene import Out, save_sheet
from tabletop.dice import dice_source
from tabletop.systems.ap2d6.errors import Ap2d6Error
from tabletop.systems.ap2d6.options import Options
from tabletop.systems.ap2d6.scores import RANDOM_SCHEMES
from tabletop.systems.ap2d6.session import SESSION, SUGGESTED_POINTS
from tabletop.systems.ap2d6.sheet import Character

app = typer.Typer(help="Character sheets: make a new one, show a saved one.", no_args_is_help=True)


@app.command("new")
def new_character(
    ctx: typer.Context,
    name: Annotated[str, typer.Option("--name", help="The character's name.")] = "Adventurer",
    points: Annotated[
        int | None,
        typer.Option("--points", help=f"Point buy with this many SP (default {SUGGESTED_POINTS})."),
    ] = None,
    random: Annotated[
        str | None,
        typer.Option("--random", help=f"Roll the standard scores: {' or '.join(RANDOM_SCHEMES)}."),
    ] = None,
    set_scores: Annotated[
        list[str] | None,
        typer.Option(
            "--set",
            help="Point buy: a score's value, e.g. --set STR=2 (-1 on a standard score: +1 SP).",
            metavar="SCORE=VALUE",
        ),
    ] = None,
    skill: Annotated[
        list[str] | None,
        typer.Option(
            "--skill",
            help="Buy a skill at the cost your group's skill list gives, e.g. --skill STEALTH=2.",
            metavar="NAME=COST",
        ),
    ] = None,
    priority: Annotated[
        str | None,
        typer.Option(
            "--priority",
            help="With --random: roll six scores and give the highest to the first listed, "
            "e.g. DEX,AGI,PERCEPTION,STR,CON,SOCIAL.",
        ),
    ] = None,
    out: Out = None,
    seed: Seed = None,
    json: Json = False,
) -> None:
    """Make a character by point buy (--points) or with rolled scores (--random)."""
    intent: dict[str, object] = {
        "kind": "new-character",
        "name": name,
        "skills": read_numbers(skill, "--skill"),
    }
    if random is not None:
        if points is not None or set_scores:
            raise Ap2d6Error("--random rolls the scores: leave out --points and --set")
        order = [part.strip() for part in priority.split(",")] if priority else None
        intent |= {"method": random, "priority": order}
    else:
        if priority:
            raise Ap2d6Error("--priority only goes with --random")
        intent |= {
            "points": SUGGESTED_POINTS if points is None else points,
            "scores": read_numbers(set_scores, "--set"),
        }
    table = SESSION.new(rule_options(ctx, Options).model_dump())
    table, events = play(SESSION, table, intent, dice_source(seed))
    character = table.characters["c1"].sheet
    if out is not None:
        save_sheet(out, character)
    if json:
        print_json(character.model_dump(mode="json"))
        return
    for event in events[:-1]:  # the last says the character joined the table
        console.print(f"[dim]{escape(event.text)}[/dim]")
    console.print(sheet_table(character))
    if out is not None:
        console.print(f"saved to {escape(str(out))}")


def sheet_table(character: Character) -> Table:
    """The sheet as a table: scores, then the qualities derived from them."""
    table = Table(title=escape(character.name), title_justify="left", show_header=False)
    table.add_column("", style="bold")
    table.add_column("", justify="right")
    for score, value in character.scores.items():
        table.add_row(score, f"{value:+d}" if value else "0")
    for score, value in character.special.items():
        table.add_row(f"{score} [special]", f"{value:+d}")
    table.add_section()
    table.add_row("Health", f"{character.current_hp} / {character.max_hp}")
    table.add_row("To-Hit", str(character.to_hit))
    table.add_row("Recovery dice", f"{character.recovery_dice} d6")
    table.add_row("Speed", f"{character.speed} spaces")
    for name, cost in character.skills.items():
        table.add_row(f"skill: {escape(name)}", f"{cost} SP")
    table.add_row("Unspent SP", str(character.unspent_sp))
    return table
