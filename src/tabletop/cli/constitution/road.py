"""`tabletop constitution road …`: the party's days on the road, kept in a campaign file.

The clock (day, miles, exploration turns, lights) and each character's rations and
deprivation outlive a scene, so every verb plays at a campaign's table (`--campaign FILE`)
and adds its events to the journal (docs/campaigns.md). The command line's user is the
campaign's GM and sees the encounter checks the players at a room would not.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from tabletop.cli.options import Json, Seed
from tabletop.cli.output import console, print_json
from tabletop.cli.scene import DryRun, open_scene, print_events, told_json
from tabletop.dice import dice_source
from tabletop.session import Member
from tabletop.systems.constitution.character import read_sheet
from tabletop.systems.constitution.session import SESSION
from tabletop.systems.constitution.table import ConstitutionTable

GM = Member.gm()
"""Who looks at the clock at the command line: the campaign's GM, who sees all of it."""

app = typer.Typer(
    help="The party's days on the road (§ 13, § 15), kept in a campaign: march, hunt, "
    "rations, camp, explore, light, clock.",
    no_args_is_help=True,
)

Campaign = Annotated[
    Path, typer.Option("--campaign", help="The campaign file whose clock and party this moves.")
]
Who = Annotated[str, typer.Option("--who", help="The party member, by name or id.")]
Terrain = Annotated[
    str,
    typer.Option(
        "--terrain",
        help="road, plains, trail, desert, hills, forest, jungle, mountains or swamp (§ 13.4).",
    ),
]


def _play(
    campaign: Path,
    intent: dict[str, Any],
    who: str | None,
    dry_run: bool,
    seed: int | None,
    json: bool,
) -> None:
    """Play one intent at the campaign's table, keep it unless --dry-run, and show the
    events and the clock after."""
    dice = dice_source(seed)
    scene = open_scene(
        SESSION, read_sheet, dice, campaign=campaign, who=who, required=who is not None
    )
    if who is not None:
        intent = {**intent, "character": scene.character}
    events = scene.play(intent, dice)
    kept = scene.keep(dry_run)
    if json:
        print_json(
            {
                "events": [told_json(event) for event in events],
                "clock": _clock(scene.state),
                "saved": not dry_run,
            }
        )
        return
    print_events(events)
    _print_clock(scene.state)
    if kept:
        console.print(f"[dim]{escape(kept)}[/dim]")


def _clock(state: ConstitutionTable) -> dict[str, Any]:
    """The clock and each character's rations and penalty, as the GM sees them."""
    view = SESSION.view(state, GM)
    party = {
        seat["sheet"]["name"]: {
            "id": seat["id"],
            "supplies": seat["supplies"],
            "penalty": seat["penalty"],
            "dead": seat["sheet"]["dead"],
        }
        for seat in view["characters"]
    }
    return {**view["clock"], "party": party}


def _print_clock(state: ConstitutionTable) -> None:
    clock = state.clock
    today = "marched" if clock.marched else "not marched yet"
    lights = ", ".join(f"{light.kind} {light.turns_left} turns" for light in clock.turns.lights)
    console.print(
        f"[bold]day {clock.day}[/bold] ({today}; {clock.turns.turns} turns explored), "
        f"{float(clock.miles):g} miles in all" + (f"; burning: {lights}" if lights else "")
    )
    for seat in state.characters.values():
        penalty = seat.penalty(state.options)
        state_word = "dead" if seat.sheet.dead else f"{penalty} to all checks" if penalty else ""
        console.print(
            f"  {escape(seat.sheet.name)}: {seat.supplies.food} food, {seat.supplies.water} "
            f"water" + (f"; {state_word}" if state_word else "")
        )


@app.command("march")
def march_command(
    campaign: Campaign,
    terrain: Terrain = "road",
    weather: Annotated[
        str, typer.Option("--weather", help="fair, rain, snow, wind or storm (§ 13.4b).")
    ] = "fair",
    pace: Annotated[
        str,
        typer.Option(
            "--pace", help="The slowest's load: unencumbered, encumbered, heavily_encumbered."
        ),
    ] = "unencumbered",
    miles: Annotated[
        int | None,
        typer.Option("--miles", min=1, max=1000, help="Stop at a goal this near."),
    ] = None,
    trapping: Annotated[
        bool, typer.Option("--trapping", help="Set traps on the way: −25% (§ 10.2).")
    ] = False,
    dry_run: DryRun = False,
    seed: Seed = None,
    json: Json = False,
) -> None:
    """The party's march for the day, with the encounter checks on the way (§ 13.4–13.5)."""
    intent = {
        "kind": "march",
        "terrain": terrain,
        "weather": weather,
        "pace": pace,
        "miles": miles,
        "trapping": trapping,
    }
    _play(campaign, intent, None, dry_run, seed, json)


@app.command("hunt")
def hunt_command(
    campaign: Campaign,
    who: Who,
    method: Annotated[
        str, typer.Option("--method", help="ranged, traps or forage (§ 13.6–13.9).")
    ] = "ranged",
    terrain: Terrain = "plains",
    season: Annotated[
        str, typer.Option("--season", help="spring, summer, autumn or winter (§ 13.7).")
    ] = "summer",
    rating: Annotated[
        int | None,
        typer.Option(
            "--rating", min=0, max=100, help="The hunting skill's rating, set on first use."
        ),
    ] = None,
    dry_run: DryRun = False,
    seed: Seed = None,
    json: Json = False,
) -> None:
    """Hunt or forage before the day's march: rations, and part of the day lost (§ 13.8)."""
    intent = {
        "kind": "hunt",
        "method": method,
        "terrain": terrain,
        "season": season,
        "rating": rating,
    }
    _play(campaign, intent, who, dry_run, seed, json)


@app.command("rations")
def rations_command(
    campaign: Campaign,
    who: Who,
    food: Annotated[
        int, typer.Option("--food", help="Rations of food taken on (or, negative, handed over).")
    ] = 0,
    water: Annotated[
        int, typer.Option("--water", help="Rations of water taken on (or handed over).")
    ] = 0,
    dry_run: DryRun = False,
    json: Json = False,
) -> None:
    """Take on or hand over rations of food and water (§ 15.1)."""
    _play(campaign, {"kind": "rations", "food": food, "water": water}, who, dry_run, None, json)


@app.command("camp")
def camp_command(
    campaign: Campaign,
    sleep: Annotated[str, typer.Option("--sleep", help="well, badly or none (§ 15.6).")] = "well",
    dry: Annotated[
        bool,
        typer.Option("--dry", help="No water came to hand today: drink what is carried (§ 15.5)."),
    ] = False,
    dry_run: DryRun = False,
    seed: Seed = None,
    json: Json = False,
) -> None:
    """End the day: supper from the rations, the night, the morning's HP roll (§ 6.5, § 15)."""
    intent = {"kind": "camp", "sleep": sleep, "water_found": not dry}
    _play(campaign, intent, None, dry_run, seed, json)


@app.command("explore")
def explore_command(
    campaign: Campaign,
    turns: Annotated[
        int, typer.Option("--turns", min=1, max=100_000, help="Ten-minute turns that pass.")
    ] = 1,
    encounters: Annotated[
        str,
        typer.Option("--encounters", help="none, each_turn or each_hour: 1-in-6 checks (§ 13.5)."),
    ] = "none",
    dry_run: DryRun = False,
    seed: Seed = None,
    json: Json = False,
) -> None:
    """Let exploration turns pass: lights burn down, encounter checks if asked (§ 13.1–13.5)."""
    intent = {"kind": "explore", "turns": turns, "encounters": encounters}
    _play(campaign, intent, None, dry_run, seed, json)


@app.command("light")
def light_command(
    campaign: Campaign,
    who: Who,
    light: Annotated[
        str, typer.Argument(help="torch (6 turns), candle (18) or lantern (24) (§ 13.2).")
    ] = "torch",
    dry_run: DryRun = False,
    json: Json = False,
) -> None:
    """Light a torch, a candle or a lantern."""
    _play(campaign, {"kind": "light", "light": light}, who, dry_run, None, json)


@app.command("clock")
def clock_command(campaign: Campaign, json: Json = False) -> None:
    """The campaign's clock and each character's rations and penalties now."""
    scene = open_scene(SESSION, read_sheet, dice_source(None), campaign=campaign, required=False)
    if json:
        print_json(_clock(scene.state))
        return
    _print_clock(scene.state)
