"""`tabletop constitution …`: characters, checks, odds, XP, the combat tracker, travel, rest,
and the party's days on the road kept in a campaign (`road`)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Annotated

import typer
from rich.rule import Rule
from rich.table import Table

from tabletop.cli.constitution.characters import (
    change,
    character_new,
    character_show,
    damage_command,
    print_sheet,
    print_told,
    roll_up,
    xp_award,
)
from tabletop.cli.constitution.road import app as road_app
from tabletop.cli.constitution.tracker import run_tracker
from tabletop.cli.options import Json, Seed, add_rule_options, rule_options
from tabletop.cli.output import console, percent, print_json
from tabletop.cli.repl import Yes
from tabletop.cli.scene import CampaignFile, CharacterFile, DryRun, Scene, Who
from tabletop.dice import dice_source
from tabletop.session import ImportCharacter
from tabletop.systems.constitution.character import (
    MAX_LEVEL,
    MAX_SCORE,
    Abilities,
    Character,
    level_for_xp,
    level_threshold,
)
from tabletop.systems.constitution.check import check, skill_score
from tabletop.systems.constitution.encumbrance import SPEED
from tabletop.systems.constitution.errors import ConstitutionDataError
from tabletop.systems.constitution.odds import check_odds, hit_point_odds
from tabletop.systems.constitution.options import Options
from tabletop.systems.constitution.session import SESSION
from tabletop.systems.constitution.table_characters import Rest
from tabletop.systems.constitution.travel import (
    MILES_PER_DAY,
    TRAPPER_SPEED,
    WEATHER_SPEED,
    Leg,
    travel,
)

app = typer.Typer(
    help="3d6 Constitution: checks with degrees, odds, characters, combat, travel, rest.",
    no_args_is_help=True,
)
character_app = typer.Typer(help="Make and show characters.", no_args_is_help=True)
xp_app = typer.Typer(help="Experience and levels.", no_args_is_help=True)
add_rule_options(app, Options, "3d6 Constitution.")
app.add_typer(character_app, name="character")
app.add_typer(xp_app, name="xp")
app.add_typer(road_app, name="road")
character_app.command("new")(character_new)
character_app.command("show")(character_show)
xp_app.command("award")(xp_award)
app.command("damage")(damage_command)

Advantage = Annotated[
    int,
    typer.Option(
        "--advantage", min=0, max=20, help="Advantage dice (keep the best); cancel penalty dice."
    ),
]
Disadvantage = Annotated[
    int,
    typer.Option(
        "--disadvantage", min=0, max=20, help="Penalty dice (keep the worst); cancel advantage."
    ),
]
MAX_NUMBER = 1000
"""Largest DC or modifier the command line takes, either way: a documented bound."""
Dc = Annotated[
    int,
    typer.Option(
        "--dc", min=-MAX_NUMBER, max=MAX_NUMBER, help="The difficulty class; 20 is normal."
    ),
]


# -- check and odds ---------------------------------------------------------------------------


@app.command("check")
def check_command(
    ctx: typer.Context,
    ability: Annotated[
        int, typer.Option("--ability", min=0, max=MAX_SCORE, help="The ability score (§ 3.1).")
    ],
    dc: Dc,
    modifier: Annotated[
        int,
        typer.Option(
            "--modifier", min=-MAX_NUMBER, max=MAX_NUMBER, help="Bonuses minus penalties."
        ),
    ] = 0,
    skill: Annotated[
        int | None,
        typer.Option("--skill", min=0, max=100, help="Scale the ability by a skill % (§ 4.10)."),
    ] = None,
    advantage: Advantage = 0,
    disadvantage: Disadvantage = 0,
    seed: Seed = None,
    json: Json = False,
) -> None:
    """Roll an ability check: 1d20 (exploding on 20) + ability + modifier vs DC."""
    options = rule_options(ctx, Options)
    score = ability if skill is None else skill_score(ability, skill, options)
    result = check(
        score + modifier,
        dc,
        dice_source(seed),
        advantage=advantage,
        disadvantage=disadvantage,
        options=options,
    )
    if json:
        data = result.model_dump(mode="json")
        data["success"] = result.success
        print_json(data)
        return
    colour = "green" if result.success else "red"
    console.print(f"[{colour}]{result.describe()}[/{colour}]", highlight=False)


@app.command("odds")
def odds_command(
    ctx: typer.Context,
    modifier: Annotated[
        int,
        typer.Option(
            "--modifier", min=-MAX_NUMBER, max=MAX_NUMBER, help="Ability plus every modifier."
        ),
    ],
    dc: Dc,
    advantage: Advantage = 0,
    disadvantage: Disadvantage = 0,
    json: Json = False,
) -> None:
    """Exact odds of every degree of success and failure, exploding 20s and natural 1s included."""
    odds = check_odds(
        modifier,
        dc,
        advantage=advantage,
        disadvantage=disadvantage,
        options=rule_options(ctx, Options),
    )
    if json:
        print_json(odds.to_json())
        return
    table = Table(title=f"d20 + {modifier} vs DC {dc}: success {percent(float(odds.success))}")
    table.add_column("degree", justify="right")
    table.add_column("chance", justify="right")
    table.add_column("at least this", justify="right")
    for degree, chance in odds.degrees.items():
        if chance * 10**9 < 1:
            continue
        label = f"{degree} success" if degree > 0 else f"{-degree} failure"
        at_least = odds.at_least(degree) if degree > 0 else None
        table.add_row(label, percent(float(chance)), percent(float(at_least)) if at_least else "")
    console.print(table)
    console.print("[dim]Degrees rarer than one in a billion are not listed; --json has all.[/dim]")


# -- xp --------------------------------------------------------------------------------------------


@xp_app.command("level")
def xp_level(
    ctx: typer.Context,
    xp: Annotated[int, typer.Argument(min=0, help="The character's XP total.")],
    json: Json = False,
) -> None:
    """The level an XP total earns (§ 2.9) and the XP for the next one."""
    options = rule_options(ctx, Options)
    level = level_for_xp(xp, options)
    following = level_threshold(level + 1, options) if level < MAX_LEVEL else None
    if json:
        print_json({"xp": xp, "level": level, "next_level_at": following})
        return
    after = f"level {level + 1} at {following} XP" if following else "the engine's highest level"
    console.print(f"{xp} XP: level {level}; {after}")


# -- travel ----------------------------------------------------------------------------------------


def _leg(text: str) -> Leg:
    terrain, sep, miles = text.partition(":")
    try:
        distance = Fraction(miles)
    except (ValueError, ZeroDivisionError):
        distance = Fraction(-1)
    if not sep or terrain not in MILES_PER_DAY or distance <= 0 or distance > 100_000:
        raise ConstitutionDataError(
            f"--leg wants TERRAIN:MILES with terrain one of {', '.join(MILES_PER_DAY)} "
            f"and 0 < miles ≤ 100000, not {text!r}"
        )
    return Leg(terrain=terrain, miles=distance)  # type: ignore[arg-type]


@app.command("travel")
def travel_command(
    leg: Annotated[
        list[str],
        typer.Option("--leg", help="A stretch of the route, e.g. road:30 (repeat for more)."),
    ],
    weather: Annotated[
        list[str] | None,
        typer.Option("--weather", help="Each day's weather in turn; the last one repeats."),
    ] = None,
    encumbrance: Annotated[
        str,
        typer.Option(
            "--encumbrance", help="unencumbered, encumbered or heavily_encumbered (§ 14.13)."
        ),
    ] = "unencumbered",
    deprived: Annotated[
        bool, typer.Option("--deprived", help="Deprivation halves the speed (§ 15.7).")
    ] = False,
    trapping: Annotated[
        bool, typer.Option("--trapping", help="Setting traps on the way: −25% (§ 10.2).")
    ] = False,
    seed: Seed = None,
    json: Json = False,
) -> None:
    """Days and encounter checks for a route (§ 13.4–13.5)."""
    legs = [_leg(text) for text in leg]
    days_weather = weather or ["fair"]
    for item in days_weather:
        if item not in WEATHER_SPEED:
            raise ConstitutionDataError(
                f"--weather is one of {', '.join(WEATHER_SPEED)}, not {item!r}"
            )
    if encumbrance not in SPEED:
        raise ConstitutionDataError(f"--encumbrance is one of {', '.join(SPEED)}")
    speed = SPEED[encumbrance] * (Fraction(1, 2) if deprived else 1)
    speed *= TRAPPER_SPEED if trapping else 1
    journey = travel(legs, dice_source(seed), weather=days_weather, speed=speed)  # type: ignore[arg-type]
    if json:
        print_json(
            {
                "days": len(journey.days),
                "miles": float(journey.miles),
                "encounters": journey.encounters,
                "itinerary": [
                    {
                        "day": day.day,
                        "weather": day.weather,
                        "miles": float(day.miles),
                        "terrain": list(day.terrain),
                        "encounter_checks": day.encounter_checks,
                        "encounters": day.encounters,
                        "dice": [record.text for record in day.dice],
                    }
                    for day in journey.days
                ],
            }
        )
        return
    table = Table(title=f"{float(journey.miles):g} miles in {len(journey.days)} days")
    for column in ("day", "weather", "terrain", "miles", "checks", "encounters"):
        table.add_column(column)
    for day in journey.days:
        table.add_row(
            str(day.day),
            day.weather,
            ", ".join(day.terrain),
            f"{float(day.miles):.4g}",
            str(day.encounter_checks),
            f"[bold red]{day.encounters}[/bold red]" if day.encounters else "0",
        )
    console.print(table)


# -- rest ------------------------------------------------------------------------------------------


@app.command("rest")
def rest_command(
    hit_dice: Annotated[
        int | None,
        typer.Option("--hit-dice", min=1, max=30, help="Hit dice (level), without a sheet."),
    ] = None,
    fatigue: Annotated[int, typer.Option("--fatigue", min=0, max=30, help="Fatigue now.")] = 0,
    penance: Annotated[int, typer.Option("--penance", min=0, max=30, help="Penance (§ 11.3).")] = 0,
    tough: Annotated[
        bool, typer.Option("--tough", help="Tough fucker: d8s, may keep the old HP (§ 7.2).")
    ] = False,
    hp: Annotated[int, typer.Option("--hp", min=0, help="HP before the rest.")] = 0,
    night: Annotated[
        bool, typer.Option("--night", help="A good night's sleep instead of a short rest.")
    ] = False,
    odds: Annotated[bool, typer.Option("--odds", help="Also show the HP roll's odds.")] = False,
    character: CharacterFile = None,
    campaign: CampaignFile = None,
    who: Who = None,
    dry_run: DryRun = False,
    seed: Seed = None,
    json: Json = False,
) -> None:
    """Re-roll hit points after a short rest or a night's sleep.

    A short rest rolls one disadvantage die per point of fatigue and penance, then adds a
    point of fatigue; a good night's sleep clears fatigue first. Rest a saved character with
    --character (written back) or a campaign's with --campaign and --who; or give the
    numbers (--hit-dice, --fatigue, …) to see a rest without a sheet."""
    if character is not None or campaign is not None:
        change({"kind": "rest", "night": night}, character, campaign, who, dry_run, seed, json)
        return
    if hit_dice is None:
        raise ConstitutionDataError("rest whom? give --character FILE, or --hit-dice N")
    sheet = Character(
        name="resting",
        character_class="fighter" if tough else None,
        abilities=Abilities(strength=10, wits=10, knowledge=10, will=10, charisma=10),
        level=hit_dice,
        initiations=("tough",) if tough else (),
        hp=hp,
        fatigue=fatigue,
        penance=penance,
    )
    scene = Scene(SESSION, SESSION.new())
    dice = dice_source(seed)
    scene.play(ImportCharacter(sheet=sheet.model_dump()), dice)
    events = scene.play(Rest(character="c1", night=night), dice)
    rested = scene.state.characters["c1"].sheet
    chances = None
    if odds:
        penalty = (0 if night else fatigue) + penance
        chances = hit_point_odds(hit_dice, penalty, 8 if tough else 6)
    if json:
        data = {
            "hp": rested.hp,
            "fatigue": rested.fatigue,
            "dice": [record["text"] for event in events for record in event.data["dice"]],
        }
        if chances is not None:
            data["mean"] = float(chances.mean)
        print_json(data)
        return
    print_told(events)
    console.print(f"HP {rested.hp}, fatigue {rested.fatigue}")
    if chances is not None:
        console.print(f"mean HP of this roll: {float(chances.mean):.4f}")


# -- combat ----------------------------------------------------------------------------------------


@app.command("combat")
def combat_command(
    ctx: typer.Context,
    seed: Seed = None,
    load: Annotated[
        str | None, typer.Option("--load", help="Resume a fight saved with `save FILE`.")
    ] = None,
    save: Annotated[
        Path | None, typer.Option("--save", help="Where `save` (and leaving with --yes) writes.")
    ] = None,
    campaign: CampaignFile = None,
    yes: Yes = False,
) -> None:
    """Run a fight at the terminal: an interactive initiative tracker.

    Add combatants, roll initiative, take turns, spend initiative on reactions, attack, run
    rounds; `undo`, `save`, `load`, `help VERB`. With --campaign the party can `join` and
    the fight is kept in the campaign's journal. Type `help` at the prompt."""
    run_tracker(
        console,
        dice_source(seed),
        load,
        rule_options(ctx, Options),
        campaign=campaign,
        save=save,
        yes=yes,
    )


def showcase(seed: int) -> None:
    """For `tabletop showcase`: a fighter rolled up, then a strength check and its odds."""
    console.print(Rule("3d6 Constitution: a character, a check, its exact odds"))
    dice = dice_source(seed)
    made, events = roll_up("Ada", dice, "fighter")
    print_told(events)
    print_sheet(made)
    strength = made.abilities["strength"]
    result = check(strength, 20, dice)
    colour = "green" if result.success else "red"
    console.print(f"a strength check against DC 20: [{colour}]{result.describe()}[/{colour}]")
    odds = check_odds(strength, 20)
    console.print(
        f"exactly: success {percent(float(odds.success))}, two or more degrees "
        f"{percent(float(odds.at_least(2)))}, exploding 20s included"
    )
