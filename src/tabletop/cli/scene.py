"""Where a command that changes a character plays, and how the change is kept.

Every such command runs at a table through the system's session, so the rules have one
path: a table of one made from a sheet file (`--character FILE`, written back when the
command is done), or a campaign's table (`--campaign FILE --who NAME`, whose journal gains
the events). `--dry-run` plays the same and keeps nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import typer
from pydantic import BaseModel
from rich.console import RenderableType
from rich.markup import escape

from tabletop.campaigns import Campaign, character_id, read_campaign, write_campaign
from tabletop.cli.local import play
from tabletop.cli.output import console, print_json
from tabletop.data import write_text_file
from tabletop.dice import DiceSource, dice_source
from tabletop.errors import DataError
from tabletop.session import Event, Session
from tabletop.words import counted

CharacterFile = Annotated[
    Path | None,
    typer.Option(
        "--character", help="A saved sheet (JSON): played, then written back unless --dry-run."
    ),
]
CampaignFile = Annotated[
    Path | None,
    typer.Option("--campaign", help="Play at this campaign's table and keep the events in it."),
]
Who = Annotated[
    str | None, typer.Option("--who", help="With --campaign: the party member, by name or id.")
]
DryRun = Annotated[bool, typer.Option("--dry-run", help="Play it and show it, but save nothing.")]
Out = Annotated[Path | None, typer.Option("--out", help="Also save the sheet here (JSON).")]


def show_sheet(sheet: BaseModel, view: Callable[[Any], RenderableType], as_json: bool) -> None:
    """A sheet for programs (its JSON) or for people (the system's own view of it)."""
    if as_json:
        print_json(sheet.model_dump(mode="json"))
    else:
        console.print(view(sheet))


def save_sheet(path: Path, sheet: BaseModel) -> None:
    """Write a sheet all or nothing, as `character show` and `--character` read it."""
    write_text_file(path, sheet.model_dump_json(indent=2) + "\n")


@dataclass
class Scene:
    """A table a command plays at, the character it is about, and where it is kept."""

    session: Session[Any]
    state: Any
    character: str | None = None
    """The id of the character the command is about, if any."""
    sheet_files: dict[str, Path] = field(default_factory=dict)
    """Each sheet file played at this table, by the id of its character."""
    campaign: Campaign | None = None
    campaign_file: Path | None = None
    events: list[Event] = field(default_factory=list)

    def play(self, intent: BaseModel | Mapping[str, Any], dice: DiceSource) -> list[Event]:
        """One intent at this table; the scene moves on only if the rules allow it."""
        if self.campaign is not None:
            self.campaign, self.state, events = self.campaign.play(self.state, intent, dice)
        else:
            self.state, events = play(self.session, self.state, intent, dice)
        self.events += events
        return events

    @property
    def sheet(self) -> Any:
        assert self.character is not None
        return self.state.characters[self.character].sheet

    def keep(self, dry_run: bool) -> str | None:
        """Save what the scene changed where it came from; what was saved, in words."""
        if not self.events:
            return None
        if dry_run:
            return "dry run: nothing saved"
        if self.campaign is not None and self.campaign_file is not None:
            write_campaign(self.campaign_file, self.campaign)
            return f"{counted(len(self.events), 'event')} kept in {self.campaign_file}"
        for cid, path in self.sheet_files.items():
            save_sheet(path, self.state.characters[cid].sheet)
        if self.sheet_files:
            return f"saved to {', '.join(str(path) for path in self.sheet_files.values())}"
        return None

    def join(self, who: str, read_sheet: Callable[[Path], BaseModel], dice: DiceSource) -> str:
        """Another character for this scene (a helper): a party member of the campaign by
        name, or a sheet file brought to the table of one; their id."""
        if self.campaign is not None:
            return character_id(self.state, who)
        path = Path(who)
        if path.resolve() in {known.resolve() for known in self.sheet_files.values()}:
            raise DataError(f"{path} is already at this table")
        sheet = read_sheet(path)
        before = set(self.state.characters)
        self.state, _ = play(
            self.session,
            self.state,
            {"kind": "import-character", "sheet": sheet.model_dump()},
            dice,
        )
        (cid,) = set(self.state.characters) - before
        self.sheet_files[cid] = path
        return cid


def open_scene(
    session: Session[Any],
    read_sheet: Callable[[Path], BaseModel],
    dice: DiceSource,
    *,
    character: Path | None = None,
    campaign: Path | None = None,
    who: str | None = None,
    options: BaseModel | None = None,
    required: bool = True,
) -> Scene:
    """The scene a command asked for: a sheet, a campaign's party member, or (when a
    character is not `required`) an empty table under `options`."""
    if campaign is not None:
        if character is not None:
            raise DataError("--character and --campaign: choose one (the party is in the campaign)")
        kept, state = read_campaign(campaign)
        if kept.system != session.name:
            raise DataError(f"{campaign} is a {kept.system} campaign, not {session.name}")
        scene = Scene(session, state, campaign=kept, campaign_file=campaign)
        if who is not None:
            scene.character = character_id(state, who)
        elif required:
            raise DataError("--campaign needs --who: which party member?")
        return scene
    if who is not None:
        raise DataError("--who names a party member of a --campaign")
    table = session.new(options.model_dump(mode="json") if options is not None else None)
    if character is None:
        if required:
            raise DataError("which character? give --character FILE or --campaign FILE --who NAME")
        return Scene(session, table)
    sheet = read_sheet(character)
    table, _ = play(session, table, {"kind": "import-character", "sheet": sheet.model_dump()}, dice)
    (cid,) = table.characters
    return Scene(session, table, character=cid, sheet_files={cid: character})


def told_json(event: Event) -> dict[str, Any]:
    """An event as the character commands print it under --json."""
    return {"kind": event.type, "text": event.text, "data": event.data}


def print_events(events: list[Event]) -> None:
    """Each event on a line for people, with the dice behind it dimmed below."""
    for event in events:
        console.print(escape(event.text))
        for record in event.data.get("dice", []):
            if isinstance(record, dict) and "text" in record:
                console.print(f"  [dim]{escape(record['text'])}[/dim]")


def change_sheet(
    session: Session[Any],
    read_sheet: Callable[[Path], BaseModel],
    sheet_view: Callable[[Any], RenderableType],
    intent: dict[str, Any],
    character: Path | None,
    campaign: Path | None,
    who: str | None,
    dry_run: bool,
    seed: int | None,
    json: bool,
    event_json: Callable[[Event], dict[str, Any]] = told_json,
) -> None:
    """The whole of a verb that changes one character: play `intent` for them at their
    table, keep it unless --dry-run, and show what happened and the sheet after."""
    dice = dice_source(seed)
    scene = open_scene(session, read_sheet, dice, character=character, campaign=campaign, who=who)
    events = scene.play({**intent, "character": scene.character}, dice)
    kept = scene.keep(dry_run)
    if json:
        print_json(
            {
                "character": scene.sheet.model_dump(mode="json"),
                "events": [event_json(event) for event in events],
                "saved": not dry_run,
            }
        )
        return
    print_events(events)
    console.print(sheet_view(scene.sheet))
    if kept:
        console.print(f"[dim]{escape(kept)}[/dim]")
