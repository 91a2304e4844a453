"""A finished roll: its expression, its total and the record of every die, which prints
itself as one line (`4d6dl1 → [6, 5, 4, ~~2~~] = 15`) through `tabletop.dice.render`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tabletop.dice.dialects import DEFAULT_DIALECT
from tabletop.dice.render import render_line, shown_number
from tabletop.dice.results import (
    Rolled,
    RolledCall,
    RolledComputed,
    RolledGroup,
    RolledLabel,
    RolledNegate,
    RolledOp,
    RolledPool,
    RolledRisk,
    RolledUsage,
    json_number,
)
from tabletop.dice.syntax import Number


@dataclass(frozen=True, slots=True)
class Roll:
    """A finished roll: the normalised expression (in the dialect it was read in), its total
    and the record of every die."""

    expression: str
    total: Number
    result: Rolled
    dialect: str = DEFAULT_DIALECT

    def pools(self) -> list[RolledPool | RolledUsage | RolledRisk]:
        """Every dice term's record, left to right."""
        found: list[RolledPool | RolledUsage | RolledRisk] = []
        stack: list[Rolled] = [self.result]
        while stack:
            node = stack.pop()
            if isinstance(node, RolledOp):
                stack.extend((node.right, node.left))
            elif isinstance(node, RolledNegate | RolledCall | RolledLabel):
                stack.append(node.operand)
            elif isinstance(node, RolledGroup):
                stack.extend(reversed(node.members))
            elif isinstance(node, RolledComputed):
                rolled_first = (node.count,) if node.sides is None else (node.sides, node.count)
                stack.extend((node.pool, *rolled_first))
            elif isinstance(node, RolledPool | RolledUsage | RolledRisk):
                found.append(node)
        return found

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "expression": self.expression,
            "total": json_number(self.total),
            "dice": self.result.to_json(self.dialect),
        }
        if self.dialect != DEFAULT_DIALECT:
            data["dialect"] = self.dialect
        if not isinstance(self.total, int):
            data["exact"] = shown_number(self.total)
        return data

    def __str__(self) -> str:
        return render_line(self)
