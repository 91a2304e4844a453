"""Dice: notation, rolling with every die on the record, exact odds and bulk sampling.

>>> from tabletop.dice import roll, distribution, FixedDice
>>> str(roll("4d6dl1", FixedDice([6, 5, 4, 2])))
'4d6dl1 → [6, 5, 4, ~~2~~] = 15'
>>> distribution("2d6").at_least(7)
Fraction(7, 12)
"""

from tabletop.dice.distribution import Distribution
from tabletop.dice.exact import distribution
from tabletop.dice.parser import parse
from tabletop.dice.render import PLAIN, RICH, Marks, explain, render_line
from tabletop.dice.results import Die, RolledPool, RolledRisk, RolledUsage
from tabletop.dice.roll import Roll
from tabletop.dice.roller import roll
from tabletop.dice.sampling import sample
from tabletop.dice.source import (
    DiceSource,
    Draw,
    FixedDice,
    RecordingDice,
    ReplayDice,
    SeededDice,
    SystemDice,
    dice_source,
)
from tabletop.dice.syntax import USAGE_DIE_SIZES, Node, notation

__all__ = [
    "PLAIN",
    "RICH",
    "USAGE_DIE_SIZES",
    "DiceSource",
    "Die",
    "Distribution",
    "Draw",
    "FixedDice",
    "Marks",
    "Node",
    "RecordingDice",
    "ReplayDice",
    "Roll",
    "RolledPool",
    "RolledRisk",
    "RolledUsage",
    "SeededDice",
    "SystemDice",
    "dice_source",
    "distribution",
    "explain",
    "notation",
    "parse",
    "render_line",
    "roll",
    "sample",
]
