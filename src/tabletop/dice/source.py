"""Where dice faces come from: the one place randomness enters tabletop.

Every rule takes a `DiceSource`. Real play uses the operating system's cryptographic
source; `SeededDice` gives a reproducible stream for `--seed`; `FixedDice` lets a test or a
GM dictate each face exactly. Recording and replaying draws lives in
`tabletop.dice.record`.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterable
from typing import Protocol, runtime_checkable

from tabletop.dice.draw import draw_below
from tabletop.errors import RollError


@runtime_checkable
class DiceSource(Protocol):
    """Anything that can roll one die: returns a face from 1 to `sides`."""

    def roll(self, sides: int) -> int: ...


_SYSTEM_RANDOM = random.SystemRandom()
"""What `secrets.randbelow` draws from (os.urandom), without importing `secrets` and with it
hmac and hashlib, which a roll from the command line would wait for."""


class SystemDice:
    """Faces from the operating system's cryptographic random source (the default)."""

    __slots__ = ()

    def roll(self, sides: int) -> int:
        return _SYSTEM_RANDOM.randrange(sides) + 1

    def __repr__(self) -> str:
        return "SystemDice()"


class SeededDice:
    """A reproducible stream of faces: the same seed gives the same faces, in order."""

    __slots__ = ("_random", "seed")

    def __init__(self, seed: int) -> None:
        self.seed = check_seed(seed)
        self._random = random.Random(seed)

    def roll(self, sides: int) -> int:
        return draw_below(self._random, sides) + 1

    @property
    def generator(self) -> random.Random:
        """The generator the faces come from: a loop that draws faces itself with
        `draw_below` (the board game's compiled self-play) continues this very stream."""
        return self._random

    def __repr__(self) -> str:
        return f"SeededDice({self.seed})"


class FixedDice:
    """Faces given in advance, consumed in order; for tests and for entering physical rolls.

    Raises `RollError` when it runs out or when a face cannot appear on the die asked for.
    """

    __slots__ = ("_faces",)

    def __init__(self, faces: Iterable[int]) -> None:
        self._faces = deque(faces)
        for face in self._faces:
            if not isinstance(face, int) or isinstance(face, bool):
                raise RollError(f"a fixed face must be a whole number, not {face!r}")

    @property
    def remaining(self) -> list[int]:
        return list(self._faces)

    def roll(self, sides: int) -> int:
        if not self._faces:
            raise RollError(f"ran out of fixed dice faces (needed a d{sides})")
        face = self._faces[0]
        if not 1 <= face <= sides:
            raise RollError(f"fixed face {face} cannot appear on a d{sides}")
        return self._faces.popleft()

    def __repr__(self) -> str:
        return f"FixedDice({list(self._faces)})"


def check_seed(seed: int | None) -> int | None:
    """A seed is a whole number, 0 or more (or None for no seed)."""
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or seed < 0):
        raise RollError(f"a seed must be a whole number, 0 or more, not {seed!r}")
    return seed


def dice_source(seed: int | None = None) -> DiceSource:
    """The usual source: seeded when a seed is given, the OS's otherwise."""
    return SystemDice() if seed is None else SeededDice(seed)
