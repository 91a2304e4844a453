"""`tabletop ap2d6 character show`, and the verbs that change a saved character through the
session: `rest`, `damage`, `heal`, `carry` (kept with `--character FILE`, or in a campaign
with `--campaign FILE --who NAME`; `--dry-run` keeps nothing)."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Annotated, Any, get_args

import typer

from tabletop.cli.ap2d6.character import sheet_table
from tabletop.cli.ap2d6.common import event_json
from tabletop.cli.options import Json, Seed
from tabletop.cli.scene import CampaignFile, CharacterFile, DryRun, Who, change_sheet, show_sheet
from tabletop.systems.ap2d6.encumbrance import load_bags
from tabletop.systems.ap2d6.errors import Ap2d6Error
from tabletop.systems.ap2d6.gear import ItemKind
from tabletop.systems.ap2d6.session import SESSION
from tabletop.systems.ap2d6.sheet import read_sheet

Amount = Annotated[int, typer.Argument(min=1, max=1000, help="Hit points.")]


def show_command(
    file: Annotated[Path, typer.Argument(help="A character sheet saved as JSON.")],
    json: Json = False,
) -> None:
    """Show a saved character sheet (it is checked as it is read)."""
    show_sheet(read_sheet(file), sheet_table, json)


change = partial(change_sheet, SESSION, read_sheet, sheet_table, event_json=event_json)
"""Play one change of a saved character at its table and keep it (unless --dry-run)."""


def rest_command(
    hours: Annotated[int, typer.Argument(min=1, max=1000, help="Hours of rest.")],
    recovery_dice: Annotated[
        int, typer.Option("--recovery-dice", min=0, max=100, help="Recovery dice to spend.")
    ] = 0,
    character: CharacterFile = None,
    campaign: CampaignFile = None,
    who: Who = None,
    dry_run: DryRun = False,
    seed: Seed = None,
    json: Json = False,
) -> None:
    """Rest: up to one recovery die an hour (d6 each); a long rest gives the dice back."""
    intent = {"kind": "rest", "hours": hours, "recovery_dice": recovery_dice}
    change(intent, character, campaign, who, dry_run, seed, json)


def damage_command(
    amount: Amount,
    not_a_hit: Annotated[
        bool, typer.Option("--not-a-hit", help="Harm that is not a hit (poison, a fall).")
    ] = False,
    character: CharacterFile = None,
    campaign: CampaignFile = None,
    who: Who = None,
    dry_run: DryRun = False,
    seed: Seed = None,
    json: Json = False,
) -> None:
    """Damage: at 0 HP or below the character is down and the secret death DC is rolled."""
    intent = {"kind": "damage", "amount": amount, "is_hit": not not_a_hit}
    change(intent, character, campaign, who, dry_run, seed, json)


def heal_command(
    amount: Amount,
    character: CharacterFile = None,
    campaign: CampaignFile = None,
    who: Who = None,
    dry_run: DryRun = False,
    seed: Seed = None,
    json: Json = False,
) -> None:
    """Regain HP up to Max HP; a dying character above 0 is stable."""
    change({"kind": "heal", "amount": amount}, character, campaign, who, dry_run, seed, json)


def carry_command(
    item: Annotated[
        list[str] | None,
        typer.Option(
            "--item",
            metavar="KIND[:COUNT[:ENCS]]",
            help=f"Carried on the person: {', '.join(get_args(ItemKind))} ('other' with its encs).",
        ),
    ] = None,
    bag: Annotated[
        list[str] | None,
        typer.Option(
            "--bag",
            metavar="BAGS.toml:NAME=KIND[:COUNT[:ENCS]],…",
            help="A bag from your bag file and what is in it.",
        ),
    ] = None,
    character: CharacterFile = None,
    campaign: CampaignFile = None,
    who: Who = None,
    dry_run: DryRun = False,
    json: Json = False,
) -> None:
    """Weigh what a character carries: [encumbered] past a threshold (RU-M49..M52)."""
    bags = [_bag(text) for text in bag or []]
    items = [_item(text) for text in item or []]
    intent = {"kind": "carry", "items": items, "bags": bags}
    change(intent, character, campaign, who, dry_run, None, json)


def _item(text: str) -> dict[str, Any]:
    """`weapon:2` → two weapons; `other:1:3` → one item of 3 encs."""
    kind, _, rest = text.partition(":")
    count, _, encs = rest.partition(":")
    item: dict[str, Any] = {"kind": kind.strip()}
    for field, value in (("count", count), ("encs", encs)):
        if value:
            if not (value.isascii() and value.isdigit()):
                raise Ap2d6Error(f"--item wants KIND[:COUNT[:ENCS]], not {text!r}")
            item[field] = int(value)
    return item


def _bag(text: str) -> dict[str, Any]:
    """`bags.toml:backpack=small:3,weapon` → that bag and its items."""
    where, sep, contents = text.partition("=")
    path, colon, name = where.rpartition(":")
    if not sep or not colon:
        raise Ap2d6Error(f"--bag wants BAGS.toml:NAME=ITEM,…, not {text!r}")
    bags = load_bags(path)
    if name not in bags:
        raise Ap2d6Error(f"{path} has no bag {name!r}; it has {', '.join(bags) or 'none'}")
    items = [_item(part) for part in contents.split(",") if part.strip()]
    return {"bag": bags[name].model_dump(mode="json"), "items": items}


COMMANDS = {
    "rest": rest_command,
    "damage": damage_command,
    "heal": heal_command,
    "carry": carry_command,
}
"""The verbs of this module, as `tabletop ap2d6 VERB`."""
