"""`tabletop ap2d6 check`, `contest` and `odds`: one roll against a DC or a rival, and its odds."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markup import escape

from tabletop.cli.ap2d6.common import read_score
from tabletop.cli.options import Json, Seed, rule_options
from tabletop.cli.output import console, percent, print_json
from tabletop.dice import dice_source
from tabletop.systems.ap2d6.checks import Check, check, check_against, contest
from tabletop.systems.ap2d6.errors import Ap2d6Error
from tabletop.systems.ap2d6.odds import check_odds
from tabletop.systems.ap2d6.options import Options

ScoreText = Annotated[
    str,
    typer.Option(
        "--score",
        "-s",
        help="The score added to 2d6 (a whole number, or 'none' for a [special] score you lack).",
    ),
]
Modifier = Annotated[
    int, typer.Option("--modifier", "-m", help="A situational bonus or penalty (bias, skill).")
]
DefenderWinsTies = Annotated[
    bool,
    typer.Option(
        "--defender-wins-ties",
        help="The DC stands for a character (To-Hit, passive perception): a tie fails.",
    ),
]


def check_command(
    ctx: typer.Context,
    score: ScoreText,
    dc: Annotated[int | None, typer.Option("--dc", help="The DC to meet.")] = None,
    against: Annotated[
        int | None,
        typer.Option("--against", help="Roll against this score of a defender: DC 6 + score."),
    ] = None,
    modifier: Modifier = 0,
    defender_wins_ties: DefenderWinsTies = False,
    seed: Seed = None,
    json: Json = False,
) -> None:
    """Roll 2d6 + score against a DC, or against a defender's score.

    Against a score the DC is 6 + that score and the defender wins ties."""
    if (dc is None) == (against is None):
        raise Ap2d6Error("give --dc or --against, one of them")
    options = rule_options(ctx, Options)
    value = read_score(score)
    dice = dice_source(seed)
    if against is not None:
        result = check_against(value, against, dice, modifier=modifier, options=options)
    else:
        assert dc is not None
        result = check(
            value,
            dc,
            dice,
            modifier=modifier,
            defender_wins_ties=defender_wins_ties,
            options=options,
        )
    if json:
        print_json(check_json(result))
        return
    colour = "green" if result.success else "red"
    console.print(f"[{colour}]{escape(str(result))}[/{colour}]")


def check_json(result: Check) -> dict[str, object]:
    """A check as JSON: the model plus its total, margin and critical."""
    return {
        **result.model_dump(mode="json"),
        "total": result.total,
        "margin": result.margin,
        "critical": result.critical,
    }


def contest_command(
    ctx: typer.Context,
    score: ScoreText,
    versus: Annotated[str, typer.Option("--versus", "-v", help="The rival's score (or 'none').")],
    modifier: Modifier = 0,
    versus_modifier: Annotated[
        int, typer.Option("--versus-modifier", help="The rival's situational modifier.")
    ] = 0,
    redo_ties: Annotated[
        bool, typer.Option("--redo-ties", help="Roll again when totals and scores both tie.")
    ] = False,
    seed: Seed = None,
    json: Json = False,
) -> None:
    """Both sides roll 2d6 + score: the higher total wins, then the higher score."""
    options = rule_options(ctx, Options)
    result = contest(
        read_score(score),
        read_score(versus, "--versus"),
        dice_source(seed),
        first_modifier=modifier,
        second_modifier=versus_modifier,
        full_tie="redo" if redo_ties else None,
        options=options,
    )
    if json:
        print_json({**result.model_dump(mode="json"), "difference": result.difference})
        return
    console.print(escape(result.describe("you", "your rival")))


def odds_command(
    ctx: typer.Context,
    score: ScoreText,
    dc: Annotated[int, typer.Option("--dc", help="The DC to meet.")],
    modifier: Modifier = 0,
    defender_wins_ties: DefenderWinsTies = False,
    json: Json = False,
) -> None:
    """Exact chance that 2d6 + score succeeds against a DC.

    Success means meeting the DC, or beating it with --defender-wins-ties; a natural double 1
    fails whatever the total (RU-A12). Also the chance of double 1s and of double 6s."""
    options = rule_options(ctx, Options)
    value = read_score(score)
    odds = check_odds(
        value, dc, modifier=modifier, defender_wins_ties=defender_wins_ties, options=options
    )
    if json:
        print_json(
            {
                **{key: float(chance) for key, chance in odds.items()},
                "exact": {key: f"{c.numerator}/{c.denominator}" for key, c in odds.items()},
            }
        )
        return
    sign = ">" if defender_wins_ties else "≥"
    bonus = (value or 0) + modifier
    success = odds["success"]
    console.print(
        f"P(2d6 {bonus:+d} {sign} {dc}) = [bold]{percent(float(success))}[/bold] "
        f"(exactly {success.numerator}/{success.denominator})"
    )
    console.print(
        f"double 1s: {percent(float(odds['double_one']))}, double 6s: "
        f"{percent(float(odds['double_six']))}"
    )
