"""`tabletop rollunder`: ability rolls, contests, damage, corruption and their exact odds.

Every verb that rolls takes `--seed`; every verb takes `--json`. Readings of unclear rules
are switched with `tabletop rollunder --option NAME=VALUE <verb> …` (docs/rules/rollunder.md).
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any, cast, get_args

import typer
from rich.markup import escape
from rich.rule import Rule
from rich.table import Table

from tabletop.cli.options import Json, Seed, add_rule_options, rule_options, whole_number
from tabletop.cli.output import console, errors, percent, print_json
from tabletop.cli.rollunder.characters import character_new, character_show
from tabletop.cli.scene import CampaignFile, DryRun, Scene, Who, open_scene
from tabletop.dice import DiceSource, dice_source
from tabletop.session import Event
from tabletop.systems.rollunder.abilities import ChallengeLevel, Roller, ScoreRoll
from tabletop.systems.rollunder.character import MAX_CORRUPTION, MAX_HEALTH, read_sheet
from tabletop.systems.rollunder.contests import MAX_SIDES, MAX_TEAM, Contest, Side
from tabletop.systems.rollunder.corruption import CORRUPTION_DIE, roll_against
from tabletop.systems.rollunder.corruption import load_mutation_table as mutation_data
from tabletop.systems.rollunder.critical import (
    CriticalDamage,
    critical_damage,
    injury_table,
    measured_damage,
)
from tabletop.systems.rollunder.damage import DamageDice, Hit, after_armour, parse_damage
from tabletop.systems.rollunder.errors import RollUnderDataError, validated
from tabletop.systems.rollunder.intents import (
    Answer,
    ContestIntent,
    ContestSide,
    ImportCharacter,
    ScoreRollIntent,
    SetMutationTable,
    SufferHitIntent,
)
from tabletop.systems.rollunder.odds import (
    contest_odds,
    corruption_chain,
    corruption_odds,
    damage_odds,
    encumbered_with_omens,
    injury_odds,
    long_run_damage_per_gain,
    pass_chance,
    with_omens,
)
from tabletop.systems.rollunder.options import STR, RollUnderOptions
from tabletop.systems.rollunder.policies import reroll_failures
from tabletop.systems.rollunder.records import roll_record
from tabletop.systems.rollunder.resolution import Decision, Policy, no_rerolls
from tabletop.systems.rollunder.session import SESSION, outcome_of, rules_events
from tabletop.tables import load_table

app = typer.Typer(
    help="The d20 roll-under Core Rules: ability rolls, contests, exploding damage, "
    "critical damage, corruption, and their exact odds.",
    no_args_is_help=True,
)
odds_app = typer.Typer(help="Exact odds, as fractions and percentages.", no_args_is_help=True)
app.add_typer(odds_app, name="odds")
character_app = typer.Typer(help="Write characters down and show them.", no_args_is_help=True)
app.add_typer(character_app, name="character")

Level = Annotated[
    str, typer.Option("--level", help="Challenge level: trivial, challenging or impossible.")
]
Health = Annotated[
    int | None, typer.Option("--health", min=0, help="The target's health before the hit.")
]
MaxHealth = Annotated[
    int | None, typer.Option("--max-health", min=0, help="The target's maximum health.")
]
SheetFile = Annotated[
    Path | None,
    typer.Option(
        "--character",
        help="A character sheet (JSON) to apply it all to and save back (--dry-run: only "
        "look); --json prints the new sheet.",
    ),
]
Ask = Annotated[
    bool,
    typer.Option(
        "--ask",
        help="With --character: make each decision at the prompt (omen re-rolls, the death "
        "save, the GM's pick of an item). Without it no omen is spent on re-rolls, the death "
        "save is taken when the omens allow, and the first item listed is destroyed.",
    ),
]
MAX_BAD_ANSWERS = 20
"""Answers at one prompt that are not a choice before the command gives up (never a hang)."""


add_rule_options(app, RollUnderOptions, "Run the roll-under Core Rules.")
character_app.command("new")(character_new)
character_app.command("show")(character_show)


def _level(text: str) -> ChallengeLevel:
    levels = get_args(ChallengeLevel)
    if text not in levels:
        raise RollUnderDataError(f"--level is {', '.join(levels)}, not {text!r}")
    return cast(ChallengeLevel, text)


def _played(
    scene: Scene, intent: Any, dice: DiceSource, policy: Policy = no_rerolls
) -> list[Event]:
    """Play one intent at the scene's table, answering each decision it stops for with
    `policy`: the rules' one path, as any client at a shared table takes it."""
    events = scene.play(intent, dice)
    while (decision := SESSION.decision(scene.state)) is not None:
        events += scene.play(Answer(choice=policy(decision)), dice)
    return events


def _table(options: RollUnderOptions) -> Scene:
    """An empty table of one under these options."""
    return Scene(SESSION, SESSION.new(options.model_dump()))


def _finished(
    events: list[Event], json: bool, hide: tuple[str, ...] = (), **extra: Any
) -> dict[str, Any] | None:
    """Print a rule played to its end: with --json its outcome, every event and `extra`
    (None back); else its events, less the kinds hidden, and the outcome back to show."""
    outcome = outcome_of(events)
    assert outcome is not None  # `_played` answers every decision, so the rule ends
    told = rules_events(events)
    if json:
        told_json = [event.model_dump(mode="json") for event in told]
        print_json({**outcome, "events": told_json, **extra})
        return None
    for event in told:
        if event.kind in hide:
            continue
        line = escape(event.text)
        if event.dice is not None:
            line += f"  [dim]{escape(event.dice.line)}[/dim]"
        console.print(line)
    return outcome


def _fraction(value: Fraction) -> dict[str, Any]:
    return {"probability": float(value), "exact": f"{value.numerator}/{value.denominator}"}


# -- roll --------------------------------------------------------------------------------


@app.command("roll")
def roll_command(
    ctx: typer.Context,
    score: Annotated[
        list[int],
        typer.Option(
            "--score", min=0, help="The ability score; repeat it for a collective roll (one d20)."
        ),
    ],
    strength: Annotated[
        int | None,
        typer.Option(
            "--strength",
            min=0,
            help="Encumbered AGI roll: the STR score of the extra roll that must also pass.",
        ),
    ] = None,
    level: Level = "challenging",
    omens: Annotated[
        int, typer.Option("--omens", min=0, help="Omens to spend re-rolling a failed roll.")
    ] = 0,
    seed: Seed = None,
    json: Json = False,
) -> None:
    """An ability roll: pass on a d20 equal to or under the score."""
    options = rule_options(ctx, RollUnderOptions)
    if strength is not None and len(score) > 1:
        raise RollUnderDataError("--strength is for one roller's encumbered AGI roll")
    rollers = tuple(
        validated(
            Roller,
            {
                "name": "roller" if len(score) == 1 else f"roller {number}",
                "score": value,
                "strength": strength,
                "omens": omens if number == 1 else 0,
            },
            "--score",
        )
        for number, value in enumerate(score, start=1)
    )
    rule = validated(ScoreRoll, {"rollers": rollers, "level": _level(level)}, "--score")
    intent = ScoreRollIntent(rollers=rule.rollers, ability=rule.ability, level=rule.level)
    events = _played(_table(options), intent, dice_source(seed), reroll_failures(rollers, options))
    outcome = _finished(events, json)
    if outcome is None:
        return
    verdict = "[bold green]pass[/bold green]" if outcome["passed"] else "[bold red]fail[/bold red]"
    console.print(verdict)


# -- contest -----------------------------------------------------------------------------


def read_side(text: str) -> Side:
    """`Ana=10` (one contestant) or `Red=10,8` (a team whose members score 10 and 8)."""
    name, sep, scores = text.partition("=")
    name = name.strip()
    try:
        values = [int(part) for part in scores.split(",")] if sep else []
    except ValueError:
        values = []
    if not name or not values:
        raise RollUnderDataError(f"a side looks like NAME=SCORE or NAME=SCORE,SCORE…, not {text!r}")
    if len(values) > MAX_TEAM:
        raise RollUnderDataError(f"a team has at most {MAX_TEAM} members")
    members = [
        {"name": name if len(values) == 1 else f"{name} {number}", "score": value}
        for number, value in enumerate(values, start=1)
    ]
    return validated(Side, {"name": name, "members": members}, f"side {text!r}")


Sides = Annotated[
    list[str],
    typer.Argument(
        help="Each side as NAME=SCORE, or NAME=SCORE,SCORE… for a team (successes added)."
    ),
]
Rolls = Annotated[int, typer.Option("--rolls", min=1, max=100, help="Ability rolls each.")]


def _contest(sides: list[str], rolls: int, ability: str) -> Contest:
    if len(sides) < 2 or len(sides) > MAX_SIDES:
        raise RollUnderDataError(f"a contest needs 2 to {MAX_SIDES} sides")
    data = {"ability": ability, "sides": [read_side(text) for text in sides], "rolls": rolls}
    return validated(Contest, data, "contest")


@app.command("contest")
def contest_command(
    ctx: typer.Context,
    sides: Sides,
    rolls: Rolls = 4,
    ability: Annotated[str, typer.Option("--ability", help="The ability contested.")] = "AGI",
    seed: Seed = None,
    json: Json = False,
) -> None:
    """An ability contest: the same number of rolls each, ranked by successes.

    Ties are broken with more rolls; a team adds up its members' successes."""
    contest = _contest(sides, rolls, ability)
    intent = ContestIntent(
        ability=contest.ability,
        sides=tuple(ContestSide(name=side.name, scores=side.members) for side in contest.sides),
        rolls=contest.rolls,
    )
    events = _played(_table(rule_options(ctx, RollUnderOptions)), intent, dice_source(seed))
    outcome = _finished(events, json, hide=("ability_roll", "strength_roll"))
    if outcome is None:
        return
    ranking = Table(title="ranking", title_justify="left", show_edge=False)
    ranking.add_column("place", justify="right")
    ranking.add_column("side")
    ranking.add_column("successes", justify="right")
    for number, place in enumerate(outcome["places"], start=1):
        ranking.add_row(str(number), escape(" = ".join(place["sides"])), str(place["successes"]))
    console.print(ranking)


# -- damage ------------------------------------------------------------------------------


def _health(health: int | None, max_health: int | None) -> tuple[int, int] | None:
    if health is None and max_health is None:
        return None
    if health is None or max_health is None:
        raise RollUnderDataError("give both --health and --max-health")
    if max_health > MAX_HEALTH:
        raise RollUnderDataError(f"--max-health is at most {MAX_HEALTH:,}")
    if health > max_health:
        raise RollUnderDataError(f"health {health} is over the maximum health {max_health}")
    return health, max_health


def ask_at_the_prompt(decision: Decision) -> str:
    """A policy that puts each decision to whoever is at the keyboard (on stderr, so --json
    output stays clean): a choice by its number or its text. The end of input refuses the
    whole rule, which changes nothing."""
    errors.print(f"[bold]{escape(decision.purpose)}[/bold] ({escape(decision.chooser)} decides)")
    for number, result in enumerate(decision.results, start=1):
        errors.print(f"  result {number}: {escape(result.line)}")
    for number, choice in enumerate(decision.choices, start=1):
        errors.print(f"  {number}. {escape(choice)}")
    for _ in range(MAX_BAD_ANSWERS):
        try:
            line = errors.input("choice: ").strip()
        except EOFError:
            errors.print()
            raise RollUnderDataError(
                f"no answer to {decision.purpose!r} before the end of input; nothing was changed"
            ) from None
        number = whole_number(line)
        if number is not None and 1 <= number <= len(decision.choices):
            return decision.choices[number - 1]
        if line in decision.choices:
            return line
        errors.print(f"choose 1 to {len(decision.choices)}, or type a choice as listed")
    raise RollUnderDataError(f"no valid answer to {decision.purpose!r}; nothing was changed")


def _run_on_sheet(
    where: tuple[Path | None, Path | None, str | None],
    intent: dict[str, Any],
    seed: int | None,
    options: RollUnderOptions,
    run: tuple[bool, bool, bool],
    mutation_table: dict[str, Any] | None = None,
) -> None:
    """Seat the sheet (`where`: a sheet file, or a campaign and its party member), set the
    group's mutation table if given, play the rule on the character and keep it unless
    `run` (json, ask, dry run) says --dry-run: the events, then the new sheet (all of it
    with --json)."""
    json, ask, dry_run = run
    path, campaign, who = where
    if path is not None and path.suffix != ".json" and not dry_run:
        raise RollUnderDataError(
            f"{path} is not a .json sheet, and the sheet is saved back as JSON: convert it "
            f"with `character show {path} --json`, or look without saving with --dry-run"
        )
    dice = dice_source(seed)
    scene = open_scene(
        SESSION, read_sheet, dice, character=path, campaign=campaign, who=who, options=options
    )
    if mutation_table is not None:
        scene.play(SetMutationTable(table=mutation_table), dice)
    asked = {**intent, "character": scene.character}
    events = _played(scene, asked, dice, ask_at_the_prompt if ask else no_rerolls)
    kept = scene.keep(dry_run)
    outcome = _finished(events, json, saved=not dry_run)
    if outcome is None:
        return
    after = outcome["character"]
    console.print(
        f"[bold]{escape(after['name'])}[/bold]: health {after['health']} of "
        f"{after['max_health']}, corruption {after['corruption']}, omens {after['omens']}"
        + (f", [red]dead ({escape(after['death'])})[/red]" if after["death"] else "")
    )
    if kept:
        console.print(f"[dim]{escape(kept)}[/dim]")


def _critical_report(
    dealt: int, rolled: int, before: tuple[int, int], dice: DiceSource, options: RollUnderOptions
) -> tuple[CriticalDamage, dict[str, Any]]:
    """Health after the hit, the thresholds crossed, and the injury rolled if one is due,
    with the entry's effects (an ability loss, an item, death)."""
    health, maximum = before
    critical = critical_damage(measured_damage(dealt, rolled, health, options), health, maximum)
    report: dict[str, Any] = {
        "health": {"before": health, "after": max(0, health - dealt), "max": maximum},
        "critical": critical.model_dump(),
        "injury": None,
    }
    if critical.injury:
        table = injury_table()
        record = roll_record(table.dice, dice)
        entry = table.lookup(record.total)
        report["injury"] = {
            "name": entry.name,
            "permanent": critical.permanent,
            "effects": [effect.model_dump(mode="json") for effect in entry.effects],
            "roll": record.model_dump(mode="json"),
        }
    return critical, report


def _killed(report: dict[str, Any]) -> bool:
    """Whether the injury in a critical report kills on the spot."""
    injury = report.get("injury")
    return injury is not None and any(e["kind"] == "death" for e in injury["effects"])


def _show_critical(report: dict[str, Any], dealt: int) -> None:
    health = report["health"]
    console.print(f"health {health['before']} → {health['after']} of {health['max']}")
    if health["after"] == 0 and not _killed(report):
        console.print("dying: dies once the next activation is over, unless healed or saved")
    critical = report["critical"]
    if not critical["incapacitated"]:
        console.print("no critical damage")
        return
    console.print(f"[bold red]critical damage[/bold red] ({dealt} at once): incapacitated")
    injury = report["injury"]
    if injury is None:
        return
    line = escape(injury["roll"]["line"])
    console.print(f"injury: [bold]{escape(injury['name'])}[/bold]  [dim]{line}[/dim]")
    lasting = "permanent" if injury["permanent"] else "until downtime"
    for effect in injury["effects"]:
        if effect["kind"] == "disabled":
            ability, loss = effect["ability"], effect["loss"]
            console.print(f"  {escape(effect['trait'])} and −{loss} {ability} ({lasting})")
            if ability == STR:
                console.print(
                    f"  health follows STR: maximum and current health −{loss} too "
                    "(never critical damage)"
                )
        elif effect["kind"] == "death":
            console.print("  [bold red]the character dies[/bold red]")
        else:
            console.print("  the GM picks one carried item; it is destroyed")


@app.command("damage")
def damage_command(
    ctx: typer.Context,
    die: Annotated[
        str, typer.Argument(help="Damage dice such as d8, 2d6 or d6+1, or a fixed amount.")
    ],
    armour: Annotated[
        int, typer.Option("--armour", min=0, help="Armour value (takes off at most 3).")
    ] = 0,
    direct: Annotated[
        bool, typer.Option("--direct", help="Direct damage: ignores armour.")
    ] = False,
    health: Health = None,
    max_health: MaxHealth = None,
    character: SheetFile = None,
    campaign: CampaignFile = None,
    who: Who = None,
    ask: Ask = False,
    dry_run: DryRun = False,
    seed: Seed = None,
    json: Json = False,
) -> None:
    """Roll damage, apply armour, report critical damage and any injury.

    A maximum rolls again and adds the new roll minus 1. With --health and --max-health (or
    --character) the thresholds are checked and the injury table rolled when called for."""
    options = rule_options(ctx, RollUnderOptions)
    damage = parse_damage(die)
    hit_data = {"armour": armour, "direct": direct}
    hit_data |= {"dice": damage} if isinstance(damage, DamageDice) else {"amount": damage}
    validated(Hit, hit_data, "the hit")  # bounds refused before a die is rolled
    if character is not None or campaign is not None:
        if health is not None or max_health is not None:
            raise RollUnderDataError("--health and --max-health come from the character's sheet")
        intent = {"kind": "suffer-hit", "damage": die.strip(), "armour": armour, "direct": direct}
        _run_on_sheet((character, campaign, who), intent, seed, options, (json, ask, dry_run))
        return
    if ask or dry_run or who is not None:
        raise RollUnderDataError("--ask, --dry-run and --who are for a character's sheet")
    dice = dice_source(seed)
    record = None
    if isinstance(damage, DamageDice):
        record = damage.roll(options, dice)
        rolled = damage.total(record.total)
    else:
        rolled = damage
    dealt = after_armour(rolled, armour, direct)
    before = _health(health, max_health)
    data: dict[str, Any] = {
        "die": die.strip(),
        "roll": record.model_dump(mode="json") if record else None,
        "rolled": rolled,
        "armour": armour,
        "direct": direct,
        "dealt": dealt,
    }
    report = _critical_report(dealt, rolled, before, dice, options)[1] if before else {}
    if json:
        print_json(data | report)
        return
    if record is not None:
        console.print(f"damage [dim]{escape(record.line)}[/dim]")
    taken = "direct, ignoring armour" if direct else f"after armour {armour}"
    console.print(f"[bold]{dealt}[/bold] damage ({taken}; rolled {rolled})")
    if report:
        _show_critical(report, dealt)


# -- corruption --------------------------------------------------------------------------


@app.command("corruption")
def corruption_command(
    ctx: typer.Context,
    total: Annotated[
        int | None,
        typer.Option("--total", min=0, max=MAX_CORRUPTION, help="Corruption before this gain."),
    ] = None,
    gain: Annotated[
        int, typer.Option("--gain", min=1, max=MAX_CORRUPTION, help="Corruption suffered.")
    ] = 1,
    health: Health = None,
    max_health: MaxHealth = None,
    mutations: Annotated[
        Path | None,
        typer.Option("--mutations", help="Your mutation table (a TOML/JSON table file)."),
    ] = None,
    character: SheetFile = None,
    campaign: CampaignFile = None,
    who: Who = None,
    ask: Ask = False,
    dry_run: DryRun = False,
    seed: Seed = None,
    json: Json = False,
) -> None:
    """Suffer corruption: a d12 equal to or under the total strikes as direct damage.

    The roll heals as much corruption as it deals; critical damage from it brings a
    mutation (rolled on --mutations, or left for the GM)."""
    options = rule_options(ctx, RollUnderOptions)
    table = mutation_data(mutations) if mutations is not None else None
    if character is not None or campaign is not None:
        if total is not None or health is not None or max_health is not None:
            raise RollUnderDataError("--total and health come from the character's sheet")
        intent = {"kind": "suffer-corruption", "gain": gain}
        where = (character, campaign, who)
        _run_on_sheet(where, intent, seed, options, (json, ask, dry_run), table)
        return
    if ask or dry_run or who is not None:
        raise RollUnderDataError("--ask, --dry-run and --who are for a character's sheet")
    if total is None:
        raise RollUnderDataError("give --total (the corruption before this gain) or --character")
    dice = dice_source(seed)
    after_gain = total + gain
    against = roll_against(total, gain, options)
    record = roll_record(CORRUPTION_DIE, dice)
    triggered = record.total <= against
    damage = record.total if triggered else 0
    data: dict[str, Any] = {
        "before": total,
        "gain": gain,
        "against": against,
        "roll": record.model_dump(mode="json"),
        "triggered": triggered,
        "damage": damage,
        "after": after_gain - damage,
        "mutation": None,
    }
    before = _health(health, max_health)
    report: dict[str, Any] = {}
    if before is not None and triggered:
        critical, report = _critical_report(damage, damage, before, dice, options)
        if critical.incapacitated and not _killed(report):
            data["mutation"] = _mutation(table, dice)
    if json:
        print_json(data | report)
        return
    outcome = f"{damage} direct damage" if triggered else "no effect"
    console.print(
        f"corruption {total} + {gain}: d12 {record.total} against {against}: {outcome}; "
        f"corruption now {data['after']}"
    )
    if report:
        _show_critical(report, damage)
    if data["mutation"] is not None:
        console.print(f"[bold magenta]mutation[/bold magenta]: {escape(data['mutation']['name'])}")


def _mutation(table: dict[str, Any] | None, dice: DiceSource) -> dict[str, Any]:
    if table is None:
        return {"name": "chosen by the GM", "roll": None}
    loaded = load_table(table)
    record = roll_record(loaded.dice, dice)
    return {"name": loaded.lookup(record.total).name, "roll": record.model_dump(mode="json")}


# -- odds --------------------------------------------------------------------------------


@odds_app.command("ability")
def odds_ability(
    ctx: typer.Context,
    score: Annotated[
        list[int], typer.Option("--score", min=0, help="Score; repeat for a collective roll.")
    ],
    strength: Annotated[
        int | None, typer.Option("--strength", min=0, help="STR of an encumbered AGI roll.")
    ] = None,
    omens: Annotated[int, typer.Option("--omens", min=0, max=100, help="Omens to re-roll.")] = 0,
    json: Json = False,
) -> None:
    """P(an ability roll passes), alone, as a group, encumbered, with omens to re-roll."""
    options = rule_options(ctx, RollUnderOptions)
    if strength is not None and len(score) > 1:
        raise RollUnderDataError("--strength is for one roller's encumbered AGI roll")
    best = max(score)
    if strength is not None:
        chance = encumbered_with_omens(best, strength, omens, options)
    else:
        chance = with_omens(pass_chance(best, options), omens, options)
    if json:
        print_json({"scores": score, "strength": strength, "omens": omens, **_fraction(chance)})
        return
    console.print(
        f"P(pass) = [bold]{percent(float(chance))}[/bold] "
        f"(exactly {chance.numerator}/{chance.denominator})"
    )


@odds_app.command("contest")
def odds_contest(ctx: typer.Context, sides: Sides, rolls: Rolls = 4, json: Json = False) -> None:
    """P(each side finishes first), tie-breaks included."""
    contest = _contest(sides, rolls, "AGI")
    odds = contest_odds(contest.sides, rolls, rule_options(ctx, RollUnderOptions))
    if json:
        print_json(
            {
                "first": {name: _fraction(p) for name, p in odds.first.items()},
                "shared_first": _fraction(odds.shared_first),
                "successes": {
                    name: [{"successes": k, **_fraction(p)} for k, p in sorted(dist.items())]
                    for name, dist in odds.successes.items()
                },
            }
        )
        return
    table = Table(title=f"contest of {rolls} rolls each", title_justify="left", show_edge=False)
    table.add_column("side")
    table.add_column("P(first)", justify="right")
    table.add_column("mean successes", justify="right", style="dim")
    for name, chance in odds.first.items():
        mean = sum(k * p for k, p in odds.successes[name].items())
        table.add_row(escape(name), percent(float(chance)), f"{float(mean):.2f}")
    console.print(table)
    if odds.shared_first:
        shared = percent(float(odds.shared_first))
        console.print(f"a tie for first that no roll can break: {shared}")


@odds_app.command("damage")
def odds_damage(
    ctx: typer.Context,
    die: Annotated[str, typer.Option("--die", help="Damage dice: d8, 2d6, d6+1…")],
    armour: Annotated[int, typer.Option("--armour", min=0, help="Armour value.")] = 0,
    direct: Annotated[bool, typer.Option("--direct", help="Direct damage.")] = False,
    health: Health = None,
    max_health: MaxHealth = None,
    json: Json = False,
) -> None:
    """The exact damage of one hit after armour, and the chance of each critical threshold."""
    options = rule_options(ctx, RollUnderOptions)
    damage = parse_damage(die)
    if not isinstance(damage, DamageDice):
        raise RollUnderDataError("--die takes damage dice such as d8; a fixed amount has no odds")
    before = _health(health, max_health)
    odds = damage_odds(damage, armour, direct, options, exact_up_to=before[1] if before else 0)
    outcomes = odds.outcomes()
    critical = odds.critical(*before, options) if before else None
    if json:
        data: dict[str, Any] = {
            "die": str(damage),
            "armour": armour,
            "direct": direct,
            "outcomes": [{"value": v, "probability": float(p)} for v, p in outcomes],
            "mean": float(odds.mean),
        }
        if critical is not None:
            data |= {
                "incapacitated": float(critical.incapacitated),
                "injury": float(critical.injury),
                "permanent": float(critical.permanent),
            }
        print_json(data)
        return
    table = Table(title=f"damage {damage} after armour {armour}", title_justify="left")
    table.add_column("damage", justify="right")
    table.add_column("chance", justify="right")
    table.add_column("≥ damage", justify="right", style="dim")
    shown = [(v, p) for v, p in outcomes if p >= Fraction(1, 100_000)]
    for value, chance in shown:
        at_least = 1 - odds.dealt.at_most(value - 1)
        table.add_row(str(value), percent(float(chance)), percent(float(at_least)))
    if len(shown) < len(outcomes):
        table.caption = f"{len(outcomes) - len(shown)} rarer outcomes not listed (see --json)"
    console.print(table)
    console.print(f"mean [bold]{float(odds.mean):.4g}[/bold] (exactly {odds.mean})")
    if critical is not None:
        for label, chance in (
            ("incapacitated", critical.incapacitated),
            ("injury roll", critical.injury),
            ("permanent injury", critical.permanent),
        ):
            console.print(f"P({label}) = [bold]{percent(float(chance))}[/bold]")


@odds_app.command("injury")
def odds_injury(
    ctx: typer.Context,
    omens: Annotated[
        int, typer.Option("--omens", min=0, max=100, help="Omens to re-roll instant death.")
    ] = 0,
    json: Json = False,
) -> None:
    """P(each injury), re-rolling instant death while omens last."""
    odds = injury_odds(omens, rule_options(ctx, RollUnderOptions))
    if json:
        print_json({"omens": omens, "injuries": {n: _fraction(p) for n, p in odds.items()}})
        return
    for name, chance in odds.items():
        console.print(f"{escape(name)}: [bold]{percent(float(chance))}[/bold] ({chance})")


@odds_app.command("corruption")
def odds_corruption(
    ctx: typer.Context,
    total: Annotated[
        int,
        typer.Option("--total", min=0, max=MAX_CORRUPTION, help="Corruption before the gain."),
    ],
    gain: Annotated[int, typer.Option("--gain", min=1, max=100, help="Corruption gained.")] = 1,
    health: Health = None,
    max_health: MaxHealth = None,
    gains: Annotated[
        int, typer.Option("--gains", min=0, max=200, help="Also look this many gains ahead.")
    ] = 0,
    json: Json = False,
) -> None:
    """The chance a corruption roll strikes, its damage, and where many gains lead."""
    options = rule_options(ctx, RollUnderOptions)
    before = _health(health, max_health)
    odds = corruption_odds(total, gain, *(before or (None, None)), options)
    chain = corruption_chain(gain, gains, total, options) if gains else None
    rate = long_run_damage_per_gain(gain)
    if json:
        data: dict[str, Any] = {
            "against": odds.against,
            "trigger": _fraction(odds.trigger),
            "damage": [{"value": v, **_fraction(p)} for v, p in odds.damage.items()],
            "mean_damage": _fraction(odds.mean_damage),
            "long_run_damage_per_gain": _fraction(rate),
        }
        if odds.critical is not None:
            data |= {
                "incapacitated": _fraction(odds.critical.incapacitated),
                "injury": _fraction(odds.critical.injury),
                "permanent": _fraction(odds.critical.permanent),
                "mutation": _fraction(odds.mutation or Fraction(0)),
            }
        if chain is not None:
            data["after_gains"] = {
                "gains": gains,
                "mean_total": _fraction(chain.totals.mean),
                "mean_damage": _fraction(chain.mean_damage),
            }
        print_json(data)
        return
    console.print(
        f"d12 against {odds.against}: strikes {percent(float(odds.trigger))} of the time, "
        f"mean damage {float(odds.mean_damage):.4g}"
    )
    if odds.critical is not None:
        console.print(
            f"P(critical damage) = {percent(float(odds.critical.incapacitated))}, "
            f"P(injury roll) = {percent(float(odds.critical.injury))}, "
            f"P(a mutation: critical damage survived) = {percent(float(odds.mutation or 0))}"
        )
    if chain is not None:
        console.print(
            f"after {gains} gains of {gain}: mean corruption {float(chain.totals.mean):.4g}, "
            f"mean damage taken {float(chain.mean_damage):.4g}"
        )
    console.print(f"in the long run: {float(rate):.4g} damage per gain of {gain}")


def showcase(seed: int) -> None:
    """For `tabletop showcase`: three hits played at a table, then their exact odds."""
    console.print(Rule("The d20 roll-under Core Rules: exploding damage and critical damage"))
    ash = {"name": "Ash", "abilities": {"STR": 12, "AGI": 10, "WIT": 9}, "max_health": 14}
    dice = dice_source(seed)
    scene = _table(RollUnderOptions())
    scene.play(ImportCharacter(sheet=ash | {"health": 14}), dice)
    console.print("Ash (health 14, armour 1) takes three d8 hits that explode on an 8:")
    for _ in range(3):
        events = _played(scene, SufferHitIntent(character="c1", damage="d8", armour=1), dice)
        _finished(events, json=False)
    odds = damage_odds(DamageDice(sides=8), 1, exact_up_to=14)
    critical = odds.critical(14, 14)
    console.print(
        f"exactly, one such hit at full health: mean damage {odds.mean}, "
        f"P(incapacitated) = {critical.incapacitated}, P(injury) = {critical.injury}"
    )
