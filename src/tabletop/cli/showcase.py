"""`tabletop showcase` (what `make run` shows): a short tour of what tabletop can do today."""

from __future__ import annotations

from rich.rule import Rule

from tabletop.cli.dice import odds_table
from tabletop.cli.output import console, print_roll
from tabletop.dice import SeededDice, distribution, roll, sample

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
    console.print(odds_table("4d6kh3", odds, show_all=False))
    chance = distribution("1d20adv").at_least(15)
    console.print(f"P(d20 with advantage ≥ 15) = {chance} ≈ {float(chance):.2%}")
    console.print(Rule("A million rolls at once"))
    totals = sample("4d6kh3", 1_000_000, seed=SHOWCASE_SEED)
    console.print(
        f"sampled mean of 4d6kh3 over 1,000,000 rolls: {totals.mean():.4f} "
        f"(exact: {float(odds.mean):.4f})"
    )
    _constitution_section()
    _ap2d6_section(dice)
    _dead_weight_section()
    _rollunder_section()
    _deadweight_board_section()


def _constitution_section() -> None:
    """3d6 Constitution: a character rolled up, and a check with its degrees."""
    from tabletop.systems.constitution.cli import showcase

    console.print(Rule("3d6 Constitution: a character, a check, its exact odds"))
    showcase(SHOWCASE_SEED)


def _dead_weight_section() -> None:
    """Dead Weight: a test whose re-rolls follow the advisor, with the odds of each choice."""
    from tabletop.systems.dead_weight.cli import showcase

    console.print(Rule("Dead Weight: a test re-rolled with the exact odds of every choice"))
    showcase(SHOWCASE_SEED)


def _rollunder_section() -> None:
    """The roll-under Core Rules: one exploding hit and its aftermath, then its exact odds."""
    from tabletop.systems.rollunder.cli import showcase

    console.print(Rule("The d20 roll-under Core Rules: exploding damage and critical damage"))
    showcase(SHOWCASE_SEED)


def _ap2d6_section(dice: SeededDice) -> None:
    """The 2d6 action-point rules: the AP tracker's walkthrough and a death check kept secret."""
    from tabletop.systems import ap2d6

    console.print(Rule("The 2d6 action-point rules"))
    tracker = ap2d6.APTracker()
    for label, cost in [("(2n2)", "(2n2)"), ("a move", "(1n1)"), (None, None), ("a move", "(1n1)")]:
        if cost is None:
            tracker, _ = tracker.start_round()
            console.print(f"  next round, tokens slide toward 0: {tracker}")
            continue
        tracker, _ = tracker.pay(ap2d6.action_cost(cost), label)
        console.print(f"  {label}: {tracker}")
    chance = ap2d6.check_odds(1, 8)["success"]
    console.print(f"P(2d6 + 1 meets DC 8) = {chance} ≈ {float(chance):.1%}")
    character, _ = ap2d6.take_damage(ap2d6.standard_sheet("Ayla"), 20, dice)
    for _ in range(3):
        character, _ = ap2d6.death_check(character, dice)
    console.print("Ayla is down; what her player sees (the DC stays with the GM):")
    for line in ap2d6.player_view(character.dying).lines():
        console.print(f"  {line}")


def _deadweight_board_section() -> None:
    """Deadweight, the board game: one seeded game between three bots, and its scores."""
    from tabletop.games.deadweight_board import play_game

    console.print(Rule("Deadweight, the board game: a seeded game between three bots"))
    game = play_game(["greedy", "greedy", "random"], seed=SHOWCASE_SEED)
    for seat in sorted(range(3), key=lambda p: -game.scores[p]):
        console.print(
            f"  seat {seat + 1} ({game.bots[seat]}): {game.scores[seat]} life rings, "
            f"loot value {game.loot_values[seat]}"
        )
    sources = {
        key.split(":", 1)[1]: value
        for key, value in game.counters.items()
        if key.startswith("life_rings:")
    }
    console.print(
        f"  {game.turns} turns; life rings came from "
        + ", ".join(
            f"{key.replace('_', ' ')} {value}"
            for key, value in sorted(sources.items(), key=lambda item: -item[1])
        )
    )
    console.print(
        "  [dim]play one yourself: tabletop deadweight-board play --seats you,greedy,mcts[/dim]"
    )
