"""`tabletop campaign new | show | add | log | act`: a campaign file a GM keeps between
sessions. The party, the trackers and the journal are one system's table kept as its
events (tabletop.campaigns); every system's `--campaign FILE` plays into the same file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from tabletop.campaigns import (
    GM,
    CampaignError,
    new_campaign,
    party,
    read_campaign,
    write_campaign,
)
from tabletop.cli.options import Json, RuleOptions, Seed, read_rule_options
from tabletop.cli.output import console, print_json
from tabletop.data import read_data_file
from tabletop.dice import dice_source
from tabletop.session import Event
from tabletop.systems.registry import system
from tabletop.words import counted

app = typer.Typer(
    help="A campaign a GM keeps: the party, trackers that outlive a scene, the journal.",
    no_args_is_help=True,
)

File = Annotated[Path, typer.Argument(help="The campaign file (JSON).")]


@app.command("new")
def new_command(
    file: File,
    system_name: Annotated[
        str, typer.Option("--system", help="dead-weight, constitution, ap2d6, …")
    ],
    name: Annotated[str | None, typer.Option("--name", help="What to call it.")] = None,
    option: RuleOptions = None,
    force: Annotated[bool, typer.Option("--force", help="Replace an existing file.")] = False,
) -> None:
    """Start a campaign of one system (its rule readings fixed with --option)."""
    known = system(system_name)
    if file.exists() and not force:
        raise CampaignError(f"{file} exists: choose another name, or --force to replace it")
    options: dict[str, Any] = {}
    if option and known.options is not None:
        options = read_rule_options(known.options, option).model_dump(mode="json")
    campaign = new_campaign(name or file.stem, system_name, options)
    write_campaign(file, campaign)
    console.print(f"a {escape(known.title)} campaign, {escape(campaign.name)}: {escape(str(file))}")


@app.command("add")
def add_command(
    file: File,
    sheets: Annotated[list[Path], typer.Argument(help="Character sheets (JSON) to bring in.")],
    owner: Annotated[
        str | None, typer.Option("--owner", help="Who plays them (a member id at a room).")
    ] = None,
) -> None:
    """Bring saved characters into the party (each checked by the system's rules)."""
    campaign, state = read_campaign(file)
    for path in sheets:
        sheet = read_data_file(path, CampaignError)
        intent = {"kind": "import-character", "sheet": sheet, "owner": owner}
        campaign, state, events = campaign.play(state, intent, dice_source(None))
        console.print(escape(events[-1].text))
    write_campaign(file, campaign)


@app.command("act")
def act_command(
    file: File,
    intent: Annotated[str, typer.Argument(help='An intent as JSON: \'{"kind": "…", …}\'.')],
    seed: Seed = None,
    json_out: Json = False,
) -> None:
    """Ask the campaign's table for any intent its system takes (`tabletop campaign show
    FILE --json` lists what is open), as its GM; the events join the journal."""
    try:
        asked = json.loads(intent)
    except json.JSONDecodeError:
        raise CampaignError("the intent is not JSON: write it as '{\"kind\": …}'") from None
    campaign, state = read_campaign(file)
    campaign, state, events = campaign.play(state, asked, dice_source(seed))
    write_campaign(file, campaign)
    if json_out:
        print_json([event.model_dump(mode="json") for event in events])
        return
    for event in events:
        _print_entry(event)


@app.command("show")
def show_command(file: File, json_out: Json = False) -> None:
    """The campaign now: its party, its trackers and how long its journal is."""
    campaign, state = read_campaign(file)
    session = campaign.session
    view = session.view(state, GM)
    if json_out:
        offers = [offer.model_dump(mode="json") for offer in session.legal(state, GM)]
        print_json(
            {
                "name": campaign.name,
                "system": campaign.system,
                "journal": len(campaign.journal),
                "table": view,
                "offers": offers,
            }
        )
        return
    console.print(
        f"[bold]{escape(campaign.name)}[/bold], a {escape(system(campaign.system).title)} "
        f"campaign; {counted(len(campaign.journal), 'event')} in the journal"
    )
    seats = party(state)
    if seats:
        table = Table(title="the party")
        for column in ("id", "name", "played by"):
            table.add_column(column)
        for cid, seat in seats.items():
            table.add_row(cid, escape(seat.sheet.name), escape(seat.owner))
        console.print(table)
    else:
        console.print("nobody in the party yet: `tabletop campaign add FILE SHEET.json`")
    clock = view.get("clock")
    if clock is not None:
        today = "marched" if clock["marched"] else "not marched yet"
        console.print(f"clock: day {clock['day']} ({today}), {clock['miles']:g} miles in all")
    for tracker in view.get("trackers", []):
        filled = f"{tracker['filled']}/{tracker['segments']}"
        shown = "" if tracker.get("visible", True) else " (hidden from the players)"
        console.print(f"tracker {escape(tracker['name'])}: {filled}{shown}")


@app.command("log")
def log_command(
    file: File,
    last: Annotated[int | None, typer.Option("--last", min=1, help="Only the last N.")] = None,
    json_out: Json = False,
) -> None:
    """The journal: every event with its dice, oldest first."""
    campaign, _ = read_campaign(file)
    entries = campaign.journal[-last:] if last else campaign.journal
    if json_out:
        print_json([event.model_dump(mode="json") for event in entries])
        return
    for event in entries:
        _print_entry(event)


def _print_entry(event: Event) -> None:
    """One journal line: the event, and the dice its cause drew."""
    console.print(escape(event.text or event.type))
    if event.cause is not None and event.cause.draws:
        faces = ", ".join(f"d{draw.sides}:{draw.face}" for draw in event.cause.draws)
        console.print(f"  [dim]dice {escape(faces)}[/dim]")
