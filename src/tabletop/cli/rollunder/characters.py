"""`tabletop rollunder character new | show`: a sheet written down through the session
(CR-S01: the chapter has no creation rules, so making a character is writing its numbers)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Group
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from tabletop.cli.local import play
from tabletop.cli.options import Json, rule_options, whole_number
from tabletop.cli.output import console, print_json
from tabletop.cli.scene import Out, save_sheet, show_sheet
from tabletop.dice import dice_source
from tabletop.systems.rollunder.character import (
    MAX_HEALTH,
    MAX_MONEY,
    MAX_OMENS,
    Character,
    games_own_abilities,
    read_sheet,
    sheet_sources,
)
from tabletop.systems.rollunder.errors import RollUnderDataError
from tabletop.systems.rollunder.intents import NewCharacter
from tabletop.systems.rollunder.options import RollUnderOptions
from tabletop.systems.rollunder.session import SESSION


def read_scores(pairs: list[str], abilities: tuple[str, ...]) -> dict[str, int]:
    """`--set STR=12 …` as scores, one for each of the game's abilities (CR-G01)."""
    scores: dict[str, int] = {}
    for pair in pairs:
        ability, sep, value = pair.partition("=")
        ability = ability.strip().upper()
        score = whole_number(value.strip()) if sep else None
        if not ability or score is None:
            raise RollUnderDataError(f"--set looks like ABILITY=SCORE, not {pair[:40]!r}")
        if ability not in abilities:
            raise RollUnderDataError(
                f"--set {ability[:20]}: the game's abilities are {', '.join(abilities)}"
            )
        if ability in scores:
            raise RollUnderDataError(f"--set {ability} is given twice")
        scores[ability] = score
    missing = [ability for ability in abilities if ability not in scores]
    if missing:
        raise RollUnderDataError(
            f"give every ability a score: --set {' --set '.join(f'{a}=N' for a in missing)}"
        )
    return scores


def character_new(
    ctx: typer.Context,
    name: Annotated[str, typer.Option("--name", help="The character's name.")],
    scores: Annotated[
        list[str],
        typer.Option("--set", help="An ability score as ABILITY=SCORE; one for each ability."),
    ],
    max_health: Annotated[
        int, typer.Option("--max-health", min=0, max=MAX_HEALTH, help="Maximum health.")
    ],
    health: Annotated[
        int | None,
        typer.Option("--health", min=0, max=MAX_HEALTH, help="Health now (default: full)."),
    ] = None,
    omens: Annotated[
        int, typer.Option("--omens", min=0, max=MAX_OMENS, help="Omens now (and the maximum).")
    ] = 0,
    money: Annotated[
        int, typer.Option("--money", min=0, max=MAX_MONEY, help="Coins, for the burial cost.")
    ] = 0,
    out: Out = None,
    json: Json = False,
) -> None:
    """Write a new character down: every ability score, maximum health, omens, money.

    The chapter has no creation rules (CR-S01): the numbers come from the rest of your game."""
    options = rule_options(ctx, RollUnderOptions)
    intent = NewCharacter(
        name=name,
        abilities=read_scores(scores, options.abilities),
        max_health=max_health,
        health=health,
        omens=omens,
        money=money,
    )
    table, _ = play(SESSION, SESSION.new(options.model_dump()), intent, dice_source(None))
    (seat,) = table.characters.values()
    if out is not None:
        save_sheet(out, seat.sheet)
    if json:
        print_json(seat.sheet.model_dump(mode="json"))
        return
    console.print(sheet_view(seat.sheet))
    if out is not None:
        console.print(f"[dim]saved to {escape(str(out))}[/dim]")


def character_show(
    file: Annotated[Path, typer.Argument(help="A character sheet (JSON, or TOML).")],
    json: Json = False,
) -> None:
    """Show a saved character sheet (it is checked as it is read)."""
    show_sheet(read_sheet(file), sheet_view, json)


def sheet_view(character: Character) -> Group:
    """The sheet: the abilities in a table, then health, omens, corruption and what marks it."""
    table = Table(title=escape(character.name), title_justify="left")
    for ability in character.abilities:
        table.add_column(escape(ability), justify="right")
    table.add_row(*(str(score) for score in character.abilities.values()))
    lines = [
        f"health {character.health} of {character.max_health}  omens {character.omens} of "
        f"{character.max_omens}  corruption {character.corruption}  money {character.money}"
    ]
    if character.leader is not None:
        lines.append(f"follows {character.leader}")
    if character.load is not None:
        load = character.load
        carried = ", ".join(item.name for item in (*load.worn, *load.held, *load.stored))
        lines.append(f"carry limit {character.load.carry_limit}; carries {carried or 'nothing'}")
    lines += [f"injury: {injury.trait}" for injury in character.injuries]
    lines += [f"mutation: {mutation}" for mutation in character.mutations]
    if character.mutations_to_choose:
        lines.append(f"mutations for the GM to choose: {character.mutations_to_choose}")
    if character.death is not None:
        lines.append(f"dead ({character.death})")
    elif character.at_deaths_door:
        lines.append("dying")
    elif character.incapacitated:
        lines.append("incapacitated")
    return Group(table, *(Text(line) for line in lines), *placeholder_lines(character))


def placeholder_lines(character: Character) -> list[Text]:
    """Which of the sheet's numbers are the user's game's, not the chapter's (CR-G)."""
    _, placeholders = sheet_sources()
    open_values = "; ".join(f"{p.what} ({p.gap})" for p in placeholders.values())
    lines = [Text(f"PLACEHOLDER, from your game and not these rules: {open_values}", style="dim")]
    own = games_own_abilities(character)
    if own:
        lines.append(
            Text(f"PLACEHOLDER abilities the chapter does not name: {', '.join(own)}", "dim")
        )
    return lines
