"""Dice: notation in several dialects, rolling with every die on the record, exact odds and
bulk sampling.

>>> from tabletop.dice import roll, distribution, FixedDice
>>> str(roll("4d6dl1", FixedDice([6, 5, 4, 2])))
'4d6dl1 → [6, 5, 4, ~~2~~] = 15'
>>> distribution("2d6").at_least(7)
Fraction(7, 12)
>>> distribution("3d6>3", dialect="roll20").mean
Fraction(2, 1)

Sampling (numpy) and the record of draws (pydantic) load on first use, so that a roll from
the command line imports neither.
"""

from __future__ import annotations

import importlib
from typing import Any

from tabletop.dice.dialects import DEFAULT_DIALECT, DIALECTS, Dialect
from tabletop.dice.distribution import Distribution
from tabletop.dice.exact import distribution
from tabletop.dice.parser import parse
from tabletop.dice.readings import Reading, other_readings
from tabletop.dice.render import PLAIN, RICH, Marks, explain, render_line
from tabletop.dice.results import Die, RolledPool, RolledRisk, RolledUsage
from tabletop.dice.roll import Roll
from tabletop.dice.roller import roll
from tabletop.dice.source import (
    DiceSource,
    FixedDice,
    SeededDice,
    SystemDice,
    dice_source,
)
from tabletop.dice.spelling import notation
from tabletop.dice.syntax import USAGE_DIE_SIZES, Node

_LOADED_LATER = {
    "sample": "tabletop.dice.sampling",
    "Draw": "tabletop.dice.record",
    "RecordingDice": "tabletop.dice.record",
    "ReplayDice": "tabletop.dice.record",
}


def __getattr__(name: str) -> Any:
    """`sample`, `Draw`, `RecordingDice` and `ReplayDice`, imported when first asked for."""
    home = _LOADED_LATER.get(name)
    if home is None:
        raise AttributeError(f"module 'tabletop.dice' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


__all__ = [
    "DEFAULT_DIALECT",
    "DIALECTS",
    "PLAIN",
    "RICH",
    "USAGE_DIE_SIZES",
    "Dialect",
    "DiceSource",
    "Die",
    "Distribution",
    "Draw",
    "FixedDice",
    "Marks",
    "Node",
    "Reading",
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
    "other_readings",
    "parse",
    "render_line",
    "roll",
    "sample",
]
