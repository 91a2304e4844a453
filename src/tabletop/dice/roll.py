"""A finished roll: its expression, its total and the record of every die, which prints
itself as one line (`4d6dl1 → [6, 5, 4, ~~2~~] = 15`) through `tabletop.dice.render`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tabletop.dice.render import render_line
from tabletop.dice.results import (
    Rolled,
    RolledNegate,
    RolledOp,
    RolledPool,
    RolledRisk,
    RolledUsage,
)


@dataclass(frozen=True, slots=True)
class Roll:
    """A finished roll: the normalised expression, its total and the record of every die."""

    expression: str
    total: int
    result: Rolled

    def pools(self) -> list[RolledPool | RolledUsage | RolledRisk]:
        """Every dice term's record, left to right."""
        found: list[RolledPool | RolledUsage | RolledRisk] = []
        stack: list[Rolled] = [self.result]
        while stack:
            node = stack.pop()
            if isinstance(node, RolledOp):
                stack.extend((node.right, node.left))
            elif isinstance(node, RolledNegate):
                stack.append(node.operand)
            elif isinstance(node, RolledPool | RolledUsage | RolledRisk):
                found.append(node)
        return found

    def to_json(self) -> dict[str, Any]:
        return {"expression": self.expression, "total": self.total, "dice": self.result.to_json()}

    def __str__(self) -> str:
        return render_line(self)
