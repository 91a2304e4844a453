"""The documented bounds of the dice engine.

Every input that could make the engine hang or exhaust memory is checked against one of
these before any work is done (see docs/dice-notation.md, "Limits"). Values are chosen so
that anything a table would roll is far inside them.
"""

from __future__ import annotations

from typing import Final

MAX_EXPRESSION_LENGTH: Final = 1_000
"""Characters in one dice expression."""

MAX_NESTING: Final = 100
"""Parentheses and minus signs open at once."""

MAX_DEPTH: Final = 250
"""Operations stacked on one another in the syntax tree (`1+1+1` stacks two)."""

MAX_DICE: Final = 10_000
"""Dice one roll may throw: the most a pool can need with its explosions and one-off
re-rolls counts in full; "re-roll until" rules must expect at most a fortieth of what is
left, so that no roll runs out by bad luck."""

MAX_SIDES: Final = 1_000_000
"""Faces on one die."""

MAX_VALUE: Final = 10**18
"""The largest size any value in an expression may reach (it fits a signed 64-bit integer)."""

MAX_FRACTION_POWER: Final = 64
"""The largest power a fraction may be raised to (`(7/2)**2`): its numerator and denominator
grow with the power even while its value stays small."""

DEFAULT_EXPLOSION_DEPTH: Final = 20
"""Follow-up dice one exploding die may add when the expression gives no bound."""

MAX_EXPLOSION_DEPTH: Final = 100
"""The largest explosion bound an expression may ask for."""

MAX_OUTCOMES: Final = 100_000
"""Distinct values in any exact distribution, including intermediate ones."""

MAX_EXACT_WORK: Final = 3_000_000
"""Elementary steps one exact distribution may take in all (pairs combined, states visited);
about a second of work at most."""

MAX_EXACT_BITS: Final = 1 << 22
"""Bits of the packed integers one exact distribution may build in all (Python's big-integer
products grow faster than linearly, so this keeps the largest sums to about a second)."""

MAX_SAMPLES: Final = 10_000_000
"""Samples drawn by one call to `sample`."""

MAX_SAMPLED_DICE: Final = 100_000_000
"""Dice one call to `sample` may throw, counting the most each roll could need."""
