"""Work bounds a room enforces before any work and before any die is drawn.

The dice engine's own bounds (`dice.limits`: 10,000 dice a roll) keep a roll from hanging
a process; a room shares a worker with other rooms, so it bounds much lower: every dice
expression in an intent, wherever it stands (a roll's notation, a roll-under chance roll or
damage, any field a system reads as dice), counts the most dice it can throw — each
exploding die with every follow-up it may add, each re-roll, and forty times the re-rolls a
"re-roll until" rule expects (the engine's own margin) — and an intent past `MAX_ROOM_DICE`
in all is refused whole, with nothing drawn and nothing appended. MCTS bots are bounded
where they are seated (2,000 simulations a decision); exports, imports and messages by
their size (`protocol.MAX_IMPORT`, `protocol.MAX_MESSAGE`); reads by pages (reading.py).
docs/rooms.md ("Design") gives what each bound costs at worst.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from typing import Any

from tabletop.dice import parse
from tabletop.dice.prepare import computed_dice
from tabletop.dice.syntax import ComputedDice, Dice, Node, RiskDice, UsageDie, children, most_dice
from tabletop.errors import TabletopError
from tabletop.names import texts
from tabletop.rooms.errors import OverBudget

MAX_ROOM_DICE = 300
"""Dice one intent may throw at most at a table (the engine allows 10,000): the largest
roll, its entry and its lines take a worker about 7 ms (measured: 1,000 dice 25 ms), not
the half second 10,000 took; `14d6!` (each die with its 20 follow-ups) still fits."""

MAX_FIELDS = 10_000
"""Text fields of an intent looked at for dice (an intent is at most 64 KiB anyway)."""

REROLL_MARGIN = 40
"""A "re-roll until" rule counts this many times the re-rolls it expects (dice.parser)."""


def check_intent(intent: Any) -> None:
    """Refuse an intent whose dice, counted before rolling, pass the room's bound."""
    total = Fraction(0)
    for text in texts(intent, MAX_FIELDS):
        total += dice_cost(text)
        if total > MAX_ROOM_DICE:
            raise OverBudget(
                f"this intent could throw about {round(total):,} dice or more; a table rolls "
                f"at most {MAX_ROOM_DICE:,} dice at once, counting every explosion a die may "
                "add (20 unless bounded, as in 4d6!:3) and every re-roll"
            )


def dice_cost(text: str) -> Fraction:
    """The most dice an expression can throw, and its expected "until" re-rolls times the
    margin; 0 for text that is not a dice expression (a name, a note)."""
    if not any(char.isdigit() or char in "dD" for char in text[:1_000]):
        return Fraction(0)
    try:
        tree = parse(text)
    except TabletopError as refused:
        if "limit" in str(refused):
            return Fraction(MAX_ROOM_DICE + 1)  # past even the engine's bounds
        return Fraction(0)
    return sum((_term_cost(term) for term in _terms(tree)), Fraction(0))


def _term_cost(term: Dice | UsageDie | RiskDice | ComputedDice) -> Fraction:
    if isinstance(term, ComputedDice):  # `(1d4)d6!`: the most dice its largest pool throws
        try:
            return Fraction(computed_dice(term, {}))
        except (KeyError, TabletopError):  # a name's value is not known yet, or past the limits
            return Fraction(MAX_ROOM_DICE + 1)
    cost = Fraction(most_dice(term))
    steps = term.reroll.steps if isinstance(term, Dice) and term.reroll is not None else ()
    for place, step in enumerate(steps):
        if not step.once:
            matching = step.when.count(term.sides)
            seen = matching if place == 0 else term.sides  # a later step: at most every die
            cost += REROLL_MARGIN * Fraction(term.count * seen, term.sides - matching)
    return cost


def _terms(node: Node) -> Iterator[Dice | UsageDie | RiskDice | ComputedDice]:
    """Every dice term under `node`, inside labels, functions and groups too."""
    waiting = [node]
    while waiting:
        found = waiting.pop()
        if isinstance(found, Dice | UsageDie | RiskDice | ComputedDice):
            yield found
        waiting += children(found)
