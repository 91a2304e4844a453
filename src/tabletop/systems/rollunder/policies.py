"""Ready-made deciders for the decision machine: who re-rolls what, for bots, the command
line and simulations. A policy takes the open `Decision` and returns one of its choices."""

from __future__ import annotations

from tabletop.systems.rollunder.abilities import Roller, passes
from tabletop.systems.rollunder.critical import injury_table
from tabletop.systems.rollunder.options import RollUnderOptions
from tabletop.systems.rollunder.resolution import KEEP, REROLL, Decision, Policy, no_rerolls


def reroll_failures(rollers: tuple[Roller, ...], options: RollUnderOptions) -> Policy:
    """A player who keeps a passing ability (or STR) roll and re-rolls a failing one while
    omens last; every other decision as `no_rerolls`."""
    best = max(roller.score for roller in rollers)
    strength = {roller.name: roller.strength for roller in rollers}
    scores = {roller.name: roller.score for roller in rollers}

    def choose(decision: Decision) -> str:
        if decision.roll == "strength":
            target = strength.get(decision.chooser) or 0
        elif decision.roll in ("ability", "contest", "tie_break"):
            target = scores.get(decision.chooser, best)
        else:
            return no_rerolls(decision)
        for number, result in enumerate(decision.results, start=1):
            if passes(result.total, target, options):
                return f"{KEEP} {number}"
        rerolls = [choice for choice in decision.choices if choice.startswith(REROLL)]
        return rerolls[0] if rerolls else f"{KEEP} 1"

    return choose


def avoid_instant_death(decision: Decision) -> str:
    """A player who re-rolls an injury roll of instant death while omens last, and keeps any
    other result; every other decision as `no_rerolls`."""
    if decision.roll != "injury":
        return no_rerolls(decision)
    table = injury_table()
    for number, result in enumerate(decision.results, start=1):
        if not any(e.kind == "death" for e in table.lookup(result.total).effects):
            return f"{KEEP} {number}"
    rerolls = [choice for choice in decision.choices if choice.startswith(REROLL)]
    return rerolls[0] if rerolls else f"{KEEP} 1"
