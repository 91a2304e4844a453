"""`tabletop showcase` (what `make run` shows): a short tour of what tabletop can do today."""

from __future__ import annotations

from rich.rule import Rule

from tabletop.cli.odds_table import odds_table
from tabletop.cli.output import console, print_roll
from tabletop.dice import SeededDice, distribution, roll, sample
from tabletop.systems.registry import SYSTEMS, load

SHOWCASE_SEED = 2026


def showcase_command() -> None:
    """A guided tour: rolls with every die explained, exact odds, sampling."""
    dice = SeededDice(SHOWCASE_SEED)
    console.print(Rule("Rolls, every die on the record"))
    for expression, what in [
        ("4d6dl1", "an ability score: four d6, the lowest dropped"),
        ("1d20adv + 5", "a d20 with advantage"),
        ("1d20!", "a d20 that explodes on a natural 20"),
        ("2d8!p", "damage that re-rolls on its maximum and adds the new roll minus 1"),
        ("8d6>=4", "a pool counting dice that show 4 or more"),
        ("2d6ro1", "2d6, re-rolling each 1 once"),
        ("Ud8", "a Dead Weight usage die: steps down on a 1 or 2"),
        ("3d!", "Dead Weight risk dice: the risk happens if any d6 shows a 1"),
    ]:
        console.print(f"[dim]{what}[/dim]")
        print_roll(roll(expression, dice), prefix="  ")
    console.print(Rule("Exact odds"))
    odds = distribution("4d6kh3")
    console.print(odds_table("4d6kh3", odds, show_all=False, width=console.width))
    chance = distribution("1d20adv").at_least(15)
    console.print(f"P(d20 with advantage ≥ 15) = {chance} ≈ {float(chance):.2%}")
    console.print(Rule("A million rolls at once"))
    totals = sample("4d6kh3", 1_000_000, seed=SHOWCASE_SEED)
    console.print(
        f"sampled mean of 4d6kh3 over 1,000,000 rolls: {totals.mean():.4f} "
        f"(exact: {float(odds.mean):.4f})"
    )
    for entry in SYSTEMS:
        if entry.showcase_path:
            load(entry.showcase_path)(SHOWCASE_SEED)
