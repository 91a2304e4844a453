"""`tabletop dead-weight rest | interlude | recover | heal | wait | wake | stabilise | study |
expedition`: what rest, time and care do to a saved character, through the session."""

from __future__ import annotations

from functools import partial
from typing import Annotated

import typer

from tabletop.cli.dead_weight.render import sheet as sheet_table
from tabletop.cli.options import Json, Seed
from tabletop.cli.scene import CampaignFile, CharacterFile, DryRun, Who, change_sheet
from tabletop.systems.dead_weight.attributes import Attribute
from tabletop.systems.dead_weight.character import read_sheet
from tabletop.systems.dead_weight.session import SESSION
from tabletop.systems.dead_weight.table_body import STABILISE_MEANS

Points = Annotated[int, typer.Argument(min=1, max=20, help="How many points.")]


_run = partial(change_sheet, SESSION, read_sheet, sheet_table)
"""Play one change of a saved character at its table and keep it (unless --dry-run)."""


def rest_command(
    character: CharacterFile = None,
    campaign: CampaignFile = None,
    who: Who = None,
    snore: Annotated[
        str,
        typer.Option(
            "--snore", help="A loud snorer: ambush (one more ambush die) or sleepy (stay Sleepy)."
        ),
    ] = "ambush",
    dry_run: DryRun = False,
    seed: Seed = None,
    json_out: Json = False,
) -> None:
    """Rest at camp: prayers ready again, Shaken and Sleepy gone (fatigue and wounds: heal)."""
    _run(
        {"kind": "rest-at-camp", "snore": snore}, character, campaign, who, dry_run, seed, json_out
    )


def interlude_command(
    character: CharacterFile = None,
    campaign: CampaignFile = None,
    who: Who = None,
    dry_run: DryRun = False,
    json_out: Json = False,
) -> None:
    """Back for the interlude: Nauseated heals, Hopeless ends (the dungeon escaped alive)."""
    _run({"kind": "interlude"}, character, campaign, who, dry_run, None, json_out)


def recover_command(
    attribute: Annotated[str, typer.Argument(help="STR, DEX, INT or PRE.")],
    points: Points = 1,
    character: CharacterFile = None,
    campaign: CampaignFile = None,
    who: Who = None,
    dry_run: DryRun = False,
    json_out: Json = False,
) -> None:
    """Take fatigue off an attribute (how much a rest gives is the GM's call); Parched blocks."""
    intent = {"kind": "recover", "attribute": Attribute.named(attribute), "points": points}
    _run(intent, character, campaign, who, dry_run, None, json_out)


def heal_command(
    attribute: Annotated[str, typer.Argument(help="STR, DEX, INT or PRE.")],
    points: Points = 1,
    by_resting: Annotated[
        bool, typer.Option("--by-resting", help="Healed by rest (Cursed wounds do not).")
    ] = False,
    character: CharacterFile = None,
    campaign: CampaignFile = None,
    who: Who = None,
    dry_run: DryRun = False,
    json_out: Json = False,
) -> None:
    """Heal wounds on an attribute; Hungry blocks it, Cursed blocks healing by rest."""
    intent = {
        "kind": "heal",
        "attribute": Attribute.named(attribute),
        "points": points,
        "by_resting": by_resting,
    }
    _run(intent, character, campaign, who, dry_run, None, json_out)


def wait_command(
    turns: Annotated[int, typer.Argument(min=1, max=100, help="Turns that pass.")] = 1,
    character: CharacterFile = None,
    campaign: CampaignFile = None,
    who: Who = None,
    dry_run: DryRun = False,
    json_out: Json = False,
) -> None:
    """Let turns pass for a fainted character, until the wake roll may be made."""
    _run({"kind": "wait", "turns": turns}, character, campaign, who, dry_run, None, json_out)


def wake_command(
    character: CharacterFile = None,
    campaign: CampaignFile = None,
    who: Who = None,
    dry_run: DryRun = False,
    seed: Seed = None,
    json_out: Json = False,
) -> None:
    """A fainted character who has waited rolls 1d! to wake up."""
    _run({"kind": "wake"}, character, campaign, who, dry_run, seed, json_out)


def stabilise_command(
    means: Annotated[
        str, typer.Option("--with", help=f"One of: {', '.join(STABILISE_MEANS)}.")
    ] = "first aid kit",
    in_combat: Annotated[
        bool, typer.Option("--in-combat", help="During a fight: only the verge of death.")
    ] = False,
    character: CharacterFile = None,
    campaign: CampaignFile = None,
    who: Who = None,
    dry_run: DryRun = False,
    json_out: Json = False,
) -> None:
    """Stabilise and wake a fainted or mortally wounded character."""
    intent = {"kind": "stabilise", "means": means, "in_combat": in_combat}
    _run(intent, character, campaign, who, dry_run, None, json_out)


def study_command(
    spell: Annotated[str, typer.Argument(help="The forgotten spell.")],
    character: CharacterFile = None,
    campaign: CampaignFile = None,
    who: Who = None,
    dry_run: DryRun = False,
    json_out: Json = False,
) -> None:
    """Study a forgotten spell back from the grimoire (at camp or in the interlude)."""
    _run({"kind": "study", "spell": spell}, character, campaign, who, dry_run, None, json_out)


def expedition_command(
    spell: Annotated[
        list[str] | None, typer.Option("--spell", help="A spell to memorise (one per INT).")
    ] = None,
    prayer: Annotated[
        list[str] | None, typer.Option("--prayer", help="A prayer to memorise (one per PRE).")
    ] = None,
    character: CharacterFile = None,
    campaign: CampaignFile = None,
    who: Who = None,
    dry_run: DryRun = False,
    json_out: Json = False,
) -> None:
    """Set out: memorise spells and prayers, and start the expedition's counts afresh."""
    intent = {"kind": "expedition", "spells": spell or [], "prayers": prayer or []}
    _run(intent, character, campaign, who, dry_run, None, json_out)


COMMANDS = {
    "rest": rest_command,
    "interlude": interlude_command,
    "recover": recover_command,
    "heal": heal_command,
    "wait": wait_command,
    "wake": wake_command,
    "stabilise": stabilise_command,
    "study": study_command,
    "expedition": expedition_command,
}
"""The verbs of this module, as `tabletop dead-weight VERB`."""
