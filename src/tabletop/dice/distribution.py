"""An exact probability distribution over whole numbers (and fractions, once an expression
divides exactly).

Held as integer weights over a common total, so every probability is an exact fraction
and nothing is rounded until a float is asked for.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from fractions import Fraction
from types import MappingProxyType
from typing import Any

Value = int | Fraction
"""An outcome: whole, or a fraction."""


class Distribution:
    """Outcomes with exact probabilities: `weights[value] / total`."""

    __slots__ = ("_total", "_weights")

    def __init__(self, weights: Mapping[Value, int]) -> None:
        cleaned = {value: weight for value, weight in sorted(weights.items()) if weight}
        if not cleaned:
            raise ValueError("a distribution needs at least one outcome")
        if any(weight < 0 for weight in cleaned.values()):
            raise ValueError("weights cannot be negative")
        self._weights = cleaned
        self._total = sum(cleaned.values())

    @classmethod
    def of_weights(cls, weights: Mapping[Value, int]) -> Distribution:
        """From positive integer weights already checked by the caller (the evaluator)."""
        made = cls.__new__(cls)
        made._weights = dict(sorted(weights.items()))
        made._total = sum(made._weights.values())
        return made

    @classmethod
    def point(cls, value: Value) -> Distribution:
        """The certain outcome `value`."""
        return cls({value: 1})

    @classmethod
    def uniform(cls, sides: int) -> Distribution:
        """One fair die: 1 to `sides`, equally likely."""
        return cls(dict.fromkeys(range(1, sides + 1), 1))

    # -- reading -------------------------------------------------------------------------

    @property
    def weights(self) -> Mapping[Value, int]:
        """Value -> integer weight, sorted by value; probabilities are weight / total.
        Read-only: a distribution may be shared from the cache."""
        return MappingProxyType(self._weights)

    @property
    def total(self) -> int:
        return self._total

    @property
    def outcomes(self) -> list[Value]:
        return list(self._weights)

    @property
    def min(self) -> Value:
        return next(iter(self._weights))

    @property
    def max(self) -> Value:
        return next(reversed(self._weights))

    def __len__(self) -> int:
        return len(self._weights)

    def __iter__(self) -> Iterator[tuple[Value, Fraction]]:
        """(value, probability) pairs in increasing value."""
        total = self._total
        for value, weight in self._weights.items():
            yield value, Fraction(weight, total)

    def probability(self, value: Value) -> Fraction:
        return Fraction(self._weights.get(value, 0), self._total)

    def at_least(self, threshold: Value) -> Fraction:
        """P(outcome ≥ threshold)."""
        return Fraction(sum(w for v, w in self._weights.items() if v >= threshold), self._total)

    def at_most(self, threshold: Value) -> Fraction:
        """P(outcome ≤ threshold)."""
        return Fraction(sum(w for v, w in self._weights.items() if v <= threshold), self._total)

    @property
    def mean(self) -> Fraction:
        return Fraction(sum(v * w for v, w in self._weights.items()), self._total)

    @property
    def variance(self) -> Fraction:
        square = Fraction(sum(v * v * w for v, w in self._weights.items()), self._total)
        return square - self.mean**2

    @property
    def stdev(self) -> float:
        return math.sqrt(self.variance)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Distribution):
            return NotImplemented
        return self._weights.keys() == other._weights.keys() and all(
            w * other._total == other._weights[v] * self._total for v, w in self._weights.items()
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        shown = ", ".join(f"{v}: {p}" for v, p in list(self)[:8])
        more = ", ..." if len(self) > 8 else ""
        return f"Distribution({{{shown}{more}}})"

    def to_json(self) -> dict[str, Any]:
        """The contract's shape: outcomes sorted by value with float and exact probability
        (a fractional value is its nearest float, with `exact_value` beside it)."""
        return {
            "outcomes": [
                {
                    "value": value if isinstance(value, int) else float(value),
                    **({} if isinstance(value, int) else {"exact_value": str(value)}),
                    "probability": float(p),
                    "exact": f"{p.numerator}/{p.denominator}",
                }
                for value, p in self
            ],
            "mean": float(self.mean),
            "stdev": self.stdev,
        }
