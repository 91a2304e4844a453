"""Brute-force odds: roll an expression down every possible sequence of faces.

Independent of the exact evaluator's mathematics: it drives the real roller with scripted
faces, branching on every die the roller asks for, and weighs each complete sequence by
the product of 1/sides. Only for small expressions with bounded dice.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

from tabletop.dice import roll


class _NeedFace(Exception):
    def __init__(self, sides: int) -> None:
        self.sides = sides


class _Script:
    def __init__(self, faces: list[int]) -> None:
        self.faces = faces
        self.used = 0

    def roll(self, sides: int) -> int:
        if self.used == len(self.faces):
            raise _NeedFace(sides)
        face = self.faces[self.used]
        self.used += 1
        return face


def enumerate_odds(
    expression: str, names: dict[str, int] | None = None, dialect: str = "tabletop"
) -> dict[int | Fraction, Fraction]:
    """Total -> exact probability, by walking every sequence of faces the roller could see."""
    odds: defaultdict[int | Fraction, Fraction] = defaultdict(Fraction)
    pending: list[tuple[list[int], Fraction]] = [([], Fraction(1))]
    while pending:
        faces, chance = pending.pop()
        try:
            total = roll(expression, _Script(faces), names=names, dialect=dialect).total
        except _NeedFace as need:
            share = chance / need.sides
            pending.extend(([*faces, face], share) for face in range(1, need.sides + 1))
            continue
        odds[total] += chance
    return dict(odds)
