"""Roll-under Core Rules benchmark.

Goals (issue 7): exact damage odds, first time asked, no slower than icepool computing the
same exploding die to the same depth; a hit resolved through the whole rules machine
(damage roll, armour, critical damage, injury, events) at least 1,000 times a second on
this machine, reported against rolling its dice alone; exact contest odds faster than
estimating them by playing 1,000 contests.
"""

from __future__ import annotations

from bench.timing import best_seconds, cold_seconds, rate, ratio
from tabletop.dice import SeededDice, roll
from tabletop.systems.rollunder import (
    Character,
    Contest,
    DamageDice,
    Hit,
    Roller,
    Side,
    SufferHit,
    resolve,
)
from tabletop.systems.rollunder.odds import contest_odds, odds_depth

DICE = [4, 6, 8, 12, 20]


def _cold_odds(sides: int) -> tuple[float, float]:
    """First-ask seconds for our damage odds and for icepool's same die, fresh interpreter,
    each warmed up on a d3 first."""
    depth = odds_depth(DamageDice(sides=sides))
    times = cold_seconds(
        {
            "ours": (
                "from tabletop.systems.rollunder import DamageDice; "
                "from tabletop.systems.rollunder.odds import damage_odds",
                "damage_odds(DamageDice(sides=3), 1).outcomes()",
                f"damage_odds(DamageDice(sides={sides}), 1).outcomes()",
            ),
            "icepool": (
                "import icepool",
                "((icepool.d(3) - 1).explode([2], depth=9) + 1)"
                ".map(lambda x: max(x - 1, 0)).denominator()",
                f"((icepool.d({sides}) - 1).explode([{sides - 1}], depth={depth}) + 1)"
                ".map(lambda x: max(x - 1, 0)).denominator()",
            ),
        }
    )
    ours, theirs = times["ours"], times["icepool"]
    return ours, theirs


def run() -> None:
    print("## Roll-under Core Rules\n")
    print(
        "### Exact damage odds after armour 1, first time asked (fresh interpreter, median "
        "of 5), in milliseconds, against icepool at the same depth\n"
    )
    print("| die | depth | tabletop | icepool | icepool ÷ tabletop |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for sides in DICE:
        ours, theirs = _cold_odds(sides)
        depth = odds_depth(DamageDice(sides=sides))
        print(
            f"| d{sides} | {depth} | {ours * 1e3:.2f} | {theirs * 1e3:.2f} | "
            f"{ratio(theirs, ours)} |"
        )

    print(
        "\n### Hits resolved per second through the rules machine, against rolling the dice alone\n"
    )
    print("| hit | tabletop hits/s | dice rolls/s | rolls ÷ hits |\n| --- | ---: | ---: | ---: |")
    target = Character(
        name="Ash", abilities={"STR": 12, "AGI": 10, "WIT": 9}, max_health=14, health=10
    )
    dice = SeededDice(1)
    for text in ("d8", "2d6+1"):
        damage = DamageDice.parse(text)
        hit = SufferHit(character=target, hit=Hit(dice=damage, armour=1))
        hits = rate(lambda h=hit: resolve(h, dice))
        rolls = rate(lambda e=f"{damage.dice}!p:100": roll(e, dice))
        label = f"{text}, armour 1, health 10 of 14"
        print(f"| {label} | {hits:,.0f} | {rolls:,.0f} | {ratio(rolls, hits)} |")

    print(
        "\n### Contest odds: exact against estimating by playing 1,000 contests, in milliseconds\n"
    )
    print("| contest | exact | 1,000 played | played ÷ exact |\n| --- | ---: | ---: | ---: |")
    sides = (
        Side(name="Red", members=(Roller(name="r1", score=10), Roller(name="r2", score=8))),
        Side.alone(Roller(name="Blue", score=12)),
        Side.alone(Roller(name="Solo", score=15)),
    )
    contest = Contest(ability="AGI", sides=sides)
    exact = best_seconds(lambda: contest_odds(sides, 4))
    played = best_seconds(lambda: [resolve(contest, dice) for _ in range(1_000)], repeats=3)
    print(
        f"| a team of 2 and two others, 4 rolls | {exact * 1e3:.1f} | {played * 1e3:.0f} | "
        f"{ratio(played, exact)} |"
    )
    print()
