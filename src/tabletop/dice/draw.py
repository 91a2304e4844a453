"""The one uniform draw every seeded die and seeded choice makes, in a module of its own so
that the board game's compiled engine (setup.py) compiles it together with its game loop."""

from __future__ import annotations

import random


def draw_below(rng: random.Random, n: int) -> int:
    """A uniform draw from 0 to n - 1 (n at least 1): the very draw `rng.randrange(n)` and
    `rng.choice` make (CPython's `_randbelow_with_getrandbits`), without their argument
    checks, which cost more than the draw in a simulation's inner loop."""
    bits = n.bit_length()
    drawn = rng.getrandbits(bits)
    while drawn >= n:
        drawn = rng.getrandbits(bits)
    return drawn
