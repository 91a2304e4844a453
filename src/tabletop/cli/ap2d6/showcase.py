"""The 2d6 action-point rules' part of `tabletop showcase`."""

from __future__ import annotations

from rich.rule import Rule

from tabletop.cli.output import console
from tabletop.dice import dice_source
from tabletop.systems import ap2d6


def showcase(seed: int) -> None:
    """The 2d6 action-point rules: the AP tracker's walkthrough and a death check kept secret."""
    dice = dice_source(seed)
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
