"""`tabletop ap2d6 death`: a downed character's death checks against a DC the GM keeps secret.

The screen is the player's: it shows their rolls, the hits they take and the GM's "stop
rolling", never the DC, a margin or a verdict, until someone checks on them. The GM can
follow the secret side in a file of their own (`--gm-file`).
"""

from __future__ import annotations

import json as jsonlib
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from tabletop.cli.ap2d6.common import ask_again, event_json
from tabletop.cli.local import play
from tabletop.cli.options import Json, Seed, rule_options
from tabletop.cli.output import console, print_json
from tabletop.data import write_text_file
from tabletop.dice import DiceSource, FixedDice, dice_source
from tabletop.errors import TabletopError
from tabletop.session import Event, Member
from tabletop.systems.ap2d6.death import gm_view, player_view
from tabletop.systems.ap2d6.errors import Ap2d6Error
from tabletop.systems.ap2d6.options import Options
from tabletop.systems.ap2d6.session import SESSION, Ap2d6Table
from tabletop.systems.ap2d6.sheet import Character, standard_sheet

PROMPT = "death> "

HELP = """\
  roll            roll this turn's death check (Enter does the same)
  roll A B        enter the two faces of a physical 2d6 instead
  hit N           the character is hit for N damage while down
  heal N          the character regains N HP
  check           someone checks on the character: what happened is revealed
  quit"""


PLAYER = Member.player("player", "the player")
"""Whose screen this is: the downed character's player, shown only what a player may see."""

DOWNED = "c1"


def step(table: Ap2d6Table, line: str, dice: DiceSource) -> tuple[Ap2d6Table, list[Event]]:
    """One command of the death session; raises a TabletopError (changing nothing) if it
    cannot be done."""
    words = line.split() or ["roll"]
    verb = words[0].lower()
    if verb == "roll":
        source = dice
        if len(words) == 3:
            source = FixedDice(_numbers(words[1:], "roll A B wants two faces from 1 to 6"))
        elif len(words) != 1:
            raise Ap2d6Error("write roll, or roll A B with the two faces you rolled")
        return play(SESSION, table, {"kind": "death-check", "character": DOWNED}, source)
    if verb in ("hit", "heal") and len(words) == 2:
        (amount,) = _numbers(words[1:], f"{verb} wants a whole number of HP")
        kind = "damage" if verb == "hit" else "heal"
        return play(SESSION, table, {"kind": kind, "character": DOWNED, "amount": amount}, dice)
    if verb == "check" and len(words) == 1:
        return play(SESSION, table, {"kind": "check-on", "character": DOWNED}, dice)
    raise Ap2d6Error(f"cannot read {line.strip()!r}; type 'help' for the commands")


def _numbers(words: list[str], message: str) -> list[int]:
    try:
        return [int(word) for word in words]
    except ValueError:
        raise Ap2d6Error(message) from None


def finished(character: Character) -> bool:
    """The story is told: the character is up again, or their fate has been revealed."""
    record = character.dying
    return record is None or record.revealed


def downed(
    name: str, con: int, hp: int, dice: DiceSource, options: Options
) -> tuple[Ap2d6Table, list[Event]]:
    """A table with one character of this CON brought down to `hp`, the secret DC rolled."""
    sheet = standard_sheet(name, CON=con)
    if sheet.max_hp <= 0:
        raise Ap2d6Error(f"CON {con} leaves no health (Max HP is 18 + 6 × CON)")
    if hp > 0:
        raise Ap2d6Error("--hp must be 0 or below: death checks are for a character who is down")
    table, _ = play(
        SESSION,
        SESSION.new(options.model_dump()),
        {"kind": "import-character", "sheet": sheet.model_dump(mode="json"), "owner": PLAYER.id},
        dice,
    )
    harm = {"kind": "damage", "character": DOWNED, "amount": sheet.max_hp - hp}
    table, events = play(SESSION, table, harm, dice)
    if table.characters[DOWNED].sheet.life != "dying":
        raise Ap2d6Error(
            f"at {hp} HP a character with {sheet.max_hp} Max HP dies outright (RU-M34)"
        )
    return table, events


def _show(character: Character, events: list[Event], as_json: bool) -> None:
    """The player's side only: what the session lets a player receive, and the player's view
    of the death record."""
    shown = [e for e in (SESSION.view_event(event, PLAYER) for event in events) if e]
    view = player_view(character.dying) if character.dying is not None else None
    if as_json:
        print_json(
            {
                "events": [event_json(event) for event in shown],
                "view": None if view is None else view.model_dump(mode="json"),
            }
        )
        return
    for event in shown:
        console.print(escape(event.text))
    if view is not None and not view.checked_on:
        console.print(
            "[bold]keep rolling[/bold]" if view.keep_rolling else "[bold]stop rolling[/bold]"
        )


def _write_gm_file(path: Path | None, character: Character, log: list[Event]) -> None:
    if path is None or character.dying is None:
        return
    data = {
        "view": gm_view(character.dying).model_dump(mode="json"),
        "events": [event_json(event) for event in log],
    }
    write_text_file(path, jsonlib.dumps(data, indent=2) + "\n", Ap2d6Error)


def death_command(
    ctx: typer.Context,
    name: Annotated[str, typer.Option("--name", help="The downed character.")] = "Adventurer",
    con: Annotated[int, typer.Option("--con", help="Their CON (Max HP is 18 + 6 × CON).")] = 0,
    hp: Annotated[int, typer.Option("--hp", help="Their HP now, 0 or below.")] = 0,
    gm_file: Annotated[
        Path | None,
        typer.Option("--gm-file", help="Keep the GM's side (the DC, each verdict) in this file."),
    ] = None,
    seed: Seed = None,
    json: Json = False,
) -> None:
    """Run a downed character's death checks against a secret DC.

    You see your rolls and when to stop; your fate is told only when someone checks on you.
    The GM's side can go to a file of their own with --gm-file."""
    dice = dice_source(seed)
    table, events = downed(name, con, hp, dice, rule_options(ctx, Options))
    log = list(events)
    _write_gm_file(gm_file, table.characters[DOWNED].sheet, log)
    if not json:
        console.print(
            f"[dim]{escape(name)} is down; the GM has rolled the death DC in secret.[/dim]"
        )
        console.print("[dim]Enter rolls a death check; type 'help' for the rest.[/dim]")
    _show(table.characters[DOWNED].sheet, events, json)
    while not finished(table.characters[DOWNED].sheet):
        try:
            line = console.input("" if json else PROMPT)
        except EOFError:
            break
        if line.strip().lower() in ("quit", "exit", "q"):
            break
        if line.strip().lower() in ("help", "?"):
            if json:
                print_json({"help": HELP.splitlines()})
            else:
                console.print(HELP)
            continue
        try:
            table, events = step(table, line, dice)
        except TabletopError as error:
            ask_again(error, json)
            continue
        log += events
        _write_gm_file(gm_file, table.characters[DOWNED].sheet, log)
        _show(table.characters[DOWNED].sheet, events, json)
