"""Rolls as text: one readable line such as `4d6dl1 → [6, 5, 4, ~~2~~] = 15`.

Rendering is kept apart from rolling so that the same record prints as plain text (with
Markdown-style marks) or as Rich markup for a colour terminal.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from rich.markup import escape

from tabletop.dice.results import (
    Die,
    Rolled,
    RolledCall,
    RolledComputed,
    RolledGroup,
    RolledInteger,
    RolledLabel,
    RolledName,
    RolledNegate,
    RolledOp,
    RolledPool,
    RolledRisk,
    RolledUsage,
    RollRecord,
)
from tabletop.dice.spelling import infix
from tabletop.dice.syntax import WRITTEN, Number


@dataclass(frozen=True)
class Marks:
    """How the fate of a die is shown: prefix and suffix around its text."""

    dropped: tuple[str, str]
    success: tuple[str, str]
    explosion: tuple[str, str]
    arrow: str = "→"
    failure: tuple[str, str] = ("_", "_")
    critical: tuple[str, str] = ("", " (critical)")
    fumble: tuple[str, str] = ("", " (fumble)")

    def wrap(self, kind: tuple[str, str], text: str) -> str:
        return f"{kind[0]}{text}{kind[1]}"


PLAIN = Marks(dropped=("~~", "~~"), success=("**", "**"), explosion=("", ""))
RICH = Marks(
    dropped=("[dim strike]", "[/dim strike]"),
    success=("[bold green]", "[/bold green]"),
    explosion=("[yellow]", "[/yellow]"),
    failure=("[bold red]", "[/bold red]"),
    critical=("[green]", " (critical)[/green]"),
    fumble=("[red]", " (fumble)[/red]"),
)


def render_line(roll: RollRecord, marks: Marks = PLAIN) -> str:
    """`expression → explanation = total`, the record of a roll on one line."""
    expression = roll.expression if marks is PLAIN else escape(roll.expression)
    total = shown_number(roll.total)
    return f"{expression} {marks.arrow} {explain(roll.result, marks)} = {total}"


def shown_number(value: Number) -> str:
    """A value as a player reads it: whole, as a short decimal (`3.5`), or as a fraction
    (`7/3`) when no short decimal is exact."""
    if isinstance(value, int) or value.denominator == 1:
        return str(int(value))
    denominator = value.denominator
    for prime in (2, 5):
        while denominator % prime == 0:
            denominator //= prime
    if denominator == 1 and value.denominator <= 10_000:
        return str(Decimal(value.numerator) / Decimal(value.denominator))
    return f"{value.numerator}/{value.denominator}"


def explain(node: Rolled, marks: Marks = PLAIN) -> str:
    """The expression with each dice term replaced by the dice it rolled."""
    if isinstance(node, RolledPool):
        return "[" + ", ".join(render_die(die, marks) for die in node.dice) + "]"
    if isinstance(node, RolledComputed):
        sides = node.pool.term.sides if node.sides is None else f"({explain(node.sides, marks)})"
        return f"({explain(node.count, marks)})d{sides} {explain(node.pool, marks)}"
    if isinstance(node, RolledOp):
        left_op = node.left.op if isinstance(node.left, RolledOp) else None
        right_op = node.right.op if isinstance(node.right, RolledOp) else None
        return infix(
            WRITTEN.get(node.op, node.op),
            explain(node.left, marks),
            left_op,
            explain(node.right, marks),
            right_op,
            node.op,
        )
    if isinstance(node, RolledGroup):
        shown = []
        for index, member in enumerate(node.members):
            text = explain(member, marks)
            if not node.kept[index]:
                text = marks.wrap(marks.dropped, text)
            elif node.success is not None and node.success[index]:
                text = marks.wrap(marks.success, text)
            if node.kept[index] and node.failure is not None and node.failure[index]:
                text = marks.wrap(marks.failure, text)
            shown.append(text)
        return "{" + ", ".join(shown) + "}"
    if isinstance(node, RolledLabel):
        inner = explain(node.operand, marks)
        if node.trailing:  # the comment is on the line already, with the expression
            return inner
        if isinstance(node.operand, RolledOp | RolledNegate):
            inner = f"({inner})"
        return f"{inner} [{node.text if marks is PLAIN else escape(node.text)}]"
    if isinstance(node, RolledCall):
        if node.function == "trunc":  # d20's whole total: the line's total shows it
            return explain(node.operand, marks)
        return f"{node.function}({explain(node.operand, marks)})"
    if isinstance(node, RolledInteger):
        return str(node.value)
    if isinstance(node, RolledName):
        return f"{node.name}({node.value})"
    if isinstance(node, RolledNegate):
        inner = explain(node.operand, marks)
        return f"-({inner})" if isinstance(node.operand, RolledOp) else f"-{inner}"
    if isinstance(node, RolledUsage):
        if not node.steps_down:
            fate = f"stays Ud{node.term.size}"
        elif node.next_size is None:
            fate = "used up"
        else:
            fate = f"down to Ud{node.next_size}"
        return f"[{node.value}, {fate}]"
    if isinstance(node, RolledRisk):
        faces = ", ".join(
            marks.wrap(marks.success, "1") if face == 1 else str(face) for face in node.faces
        )
        return f"[{faces}] ({'happens' if node.triggered else 'no risk'})"
    raise TypeError(f"not a rolled node: {node!r}")


def render_die(die: Die, marks: Marks = PLAIN) -> str:
    """One die: re-rolled faces struck out, explosions chained with `!+` (a die that added
    a die of its own ends in `!`), fate marked."""
    parts = [f"({die.faces[0]}-1)" if die.added and die.penetrating else str(die.faces[0])]
    if die.triggered:
        parts.append(marks.wrap(marks.explosion, "!"))
    if len(die.faces) == 1 and not die.added and die.value != die.faces[0]:
        parts.append(f"→{die.value}")  # a per-die minimum or maximum changed it
    for face in die.faces[1:]:
        parts.append(marks.wrap(marks.explosion, "!+"))
        parts.append(f"({face}-1)" if die.penetrating else str(face))
    text = "".join(parts)
    if not die.kept:
        text = marks.wrap(marks.dropped, text)
    elif die.success and not die.failure:
        text = marks.wrap(marks.success, text)
    elif die.failure and not die.success:
        text = marks.wrap(marks.failure, text)
    if die.critical:
        text = marks.wrap(marks.critical, text)
    if die.fumble:
        text = marks.wrap(marks.fumble, text)
    rerolled = "".join(marks.wrap(marks.dropped, str(face)) + " " for face in die.rerolled)
    return rerolled + text
