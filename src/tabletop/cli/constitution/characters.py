"""`tabletop constitution character new | show`, and the verbs that change a saved
character (`rest`, `damage`, `xp award`) through the session, kept with `--character FILE`
or `--campaign FILE --who NAME`."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console, Group
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from tabletop.cli.local import play
from tabletop.cli.options import Json, Seed
from tabletop.cli.output import console, print_json
from tabletop.cli.scene import (
    CampaignFile,
    CharacterFile,
    DryRun,
    Out,
    Who,
    change_sheet,
    save_sheet,
    show_sheet,
)
from tabletop.dice import DiceSource, dice_source
from tabletop.errors import InputEndedError
from tabletop.session import MAX_NAME
from tabletop.session import Event as Told
from tabletop.systems.constitution.character import ABILITIES, Character, read_sheet
from tabletop.systems.constitution.errors import ConstitutionDataError
from tabletop.systems.constitution.initiations import Initiation, catalogue
from tabletop.systems.constitution.session import SESSION
from tabletop.systems.constitution.table_characters import NewCharacter

CLASSES = {
    "fighter": "excels at combat",
    "sage": "excels in knowledge",
    "adventurer": "more flexible; might specialise in other fields",
}
"""The three basic classes and what § 4.7 says each does best."""


def character_new(
    name: Annotated[
        str | None, typer.Option("--name", help="The character's name (--guided asks).")
    ] = None,
    character_class: Annotated[
        str | None,
        typer.Option("--class", help="fighter, sage or adventurer (§ 4.7)."),
    ] = None,
    initiation: Annotated[
        str | None, typer.Option("--initiation", help="The level-1 initiation's id (§ 4.4).")
    ] = None,
    guided: Annotated[
        bool, typer.Option("--guided", help="Choose the name, class and initiation, described.")
    ] = False,
    out: Out = None,
    seed: Seed = None,
    json: Json = False,
) -> None:
    """Roll a new level-1 character: 3d6 in order for each ability, then hit points."""
    if character_class not in (None, *CLASSES):
        raise ConstitutionDataError("--class is fighter, sage or adventurer")
    if initiation is not None and initiation not in catalogue():
        raise ConstitutionDataError(
            f"unknown initiation {initiation!r}; known: {', '.join(sorted(catalogue()))}"
        )
    if guided:
        show = Console(stderr=True, highlight=False) if json else console
        name = name or _ask_name(show)
        character_class = character_class or _ask(show, "choose a class", CLASSES)
        initiation = initiation or _ask_initiation(show, character_class)
    made, events = roll_up(name or "Nameless", dice_source(seed), character_class, initiation)
    if out is not None:
        save_sheet(out, made)
    if json:
        print_json(made.model_dump(mode="json"))
        return
    print_told(events)
    print_sheet(made)
    if out is not None:
        console.print(f"saved to {escape(str(out))}")


def character_show(
    file: Annotated[Path, typer.Argument(help="A character sheet saved as JSON.")],
    json: Json = False,
) -> None:
    """Show a saved character sheet (it is checked as it is read)."""
    show_sheet(read_sheet(file), sheet_view, json)


def roll_up(
    name: str, dice: DiceSource, character_class: str | None, initiation: str | None = None
) -> tuple[Character, list[Told]]:
    """A new character rolled at a table of one: the sheet and the rolls that made it."""
    asked = NewCharacter(name=name, character_class=character_class, initiation=initiation)  # type: ignore[arg-type]
    table, events = play(SESSION, SESSION.new(), asked, dice)
    (seat,) = table.characters.values()
    return seat.sheet, [e for e in events if e.type != "character"]


def print_told(events: list[Told]) -> None:
    """Each rolled step on a line, followed by the dice behind it."""
    for event in events:
        console.print(event.text, markup=False)
        for record in event.data.get("dice", []):
            console.print(f"  [dim]{escape(record['text'])}[/dim]")


def print_sheet(character: Character) -> None:
    console.print(sheet_view(character))


def sheet_view(character: Character) -> Group:
    """The sheet: the abilities in a table, then HP, XP, fatigue and initiations."""
    title = f"{character.name}, level {character.level} {character.character_class or ''}"
    table = Table(title=escape(title))
    for ability in ABILITIES:
        table.add_column(ability, justify="right")
    table.add_row(*(str(character.abilities[a]) for a in ABILITIES))
    line = Text(
        f"HP {character.hp}  XP {character.xp}  fatigue {character.fatigue}  initiations: "
        f"{', '.join(character.initiations) or 'none yet'}"
    )
    return Group(table, line)


# guided creation ----------------------------------------------------------------------


def _read(show: Console, prompt: str) -> str:
    try:
        return show.input(f"{escape(prompt)}: ").strip()
    except EOFError:
        show.print()
        raise InputEndedError(
            "the input ended: the character is not made, nothing was saved"
        ) from None


def _ask_name(show: Console) -> str:
    while True:
        name = _read(show, "the character's name")
        if 0 < len(name) <= MAX_NAME:
            return name
        show.print(f"[red]a name is 1 to {MAX_NAME} characters[/red]")


def _ask(show: Console, prompt: str, choices: dict[str, str]) -> str:
    """One of `choices` (by number or name), each shown with what it does."""
    names = list(choices)
    show.print(f"\n[bold]{escape(prompt)}[/bold]")
    for number, (choice, text) in enumerate(choices.items(), start=1):
        show.print(f"  {number}. {escape(choice)}: {escape(text)}")
    while True:
        answer = _read(show, f"1 to {len(names)}, or a name")
        if answer.isascii() and answer.isdigit() and 1 <= int(answer) <= len(names):
            return names[int(answer) - 1]
        if answer in choices:
            return answer
        show.print(f"[red]choose 1 to {len(names)}[/red]")


def _ask_initiation(show: Console, character_class: str) -> str | None:
    """An initiation open to the class (§ 4.4, articles 7–10), or none yet."""
    open_to = {
        i.id: describe_initiation(i)
        for i in catalogue().values()
        if i.character_class in (None, character_class)
    }
    chosen = _ask(show, "choose the level-1 initiation", {**open_to, "none": "choose it later"})
    return None if chosen == "none" else chosen


def describe_initiation(initiation: Initiation) -> str:
    """An initiation's name, article and what it does, in one line."""
    parts = [
        " ".join(str(v) for v in effect.model_dump(exclude_none=True).values()).replace("_", " ")
        for effect in initiation.effects
    ]
    if initiation.referee:
        parts.append(f"referee: {initiation.referee}")
    return f"{initiation.name} (§ {initiation.article}): {'; '.join(parts) or 'see the article'}"


# changing a saved character ----------------------------------------------------------


change = partial(change_sheet, SESSION, read_sheet, sheet_view)
"""Play one change of a saved character at its table and keep it (unless --dry-run)."""


def damage_command(
    amount: Annotated[int, typer.Argument(min=0, max=10_000, help="Hit points of damage.")],
    character: CharacterFile = None,
    campaign: CampaignFile = None,
    who: Who = None,
    dry_run: DryRun = False,
    seed: Seed = None,
    json: Json = False,
) -> None:
    """Damage off a saved character's HP; past 0 the injury save (§ 5.18, § 6.6)."""
    change({"kind": "damage", "amount": amount}, character, campaign, who, dry_run, seed, json)


def xp_award(
    amount: Annotated[int, typer.Argument(min=0, max=10_000_000, help="XP earned.")],
    reason: Annotated[str, typer.Option("--reason", help="What it was for.")] = "the session",
    character: CharacterFile = None,
    campaign: CampaignFile = None,
    who: Who = None,
    dry_run: DryRun = False,
    json: Json = False,
) -> None:
    """Give a saved character XP; a new level comes with its hit die and improvement (§ 2)."""
    intent = {"kind": "award-xp", "amount": amount, "reason": reason}
    change(intent, character, campaign, who, dry_run, None, json)
