"""Rolls as text: one readable line such as `4d6dl1 → [6, 5, 4, ~~2~~] = 15`.

Rendering is kept apart from rolling so that the same record prints as plain text (with
Markdown-style marks) or as Rich markup for a colour terminal.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.markup import escape

from tabletop.dice.results import (
    Die,
    Rolled,
    RolledInteger,
    RolledName,
    RolledNegate,
    RolledOp,
    RolledPool,
    RolledRisk,
    RolledUsage,
    RollRecord,
)
from tabletop.dice.syntax import infix


@dataclass(frozen=True)
class Marks:
    """How the fate of a die is shown: prefix and suffix around its text."""

    dropped: tuple[str, str]
    success: tuple[str, str]
    explosion: tuple[str, str]
    arrow: str = "→"

    def wrap(self, kind: tuple[str, str], text: str) -> str:
        return f"{kind[0]}{text}{kind[1]}"


PLAIN = Marks(dropped=("~~", "~~"), success=("**", "**"), explosion=("", ""))
RICH = Marks(
    dropped=("[dim strike]", "[/dim strike]"),
    success=("[bold green]", "[/bold green]"),
    explosion=("[yellow]", "[/yellow]"),
)


def render_line(roll: RollRecord, marks: Marks = PLAIN) -> str:
    """`expression → explanation = total`, the record of a roll on one line."""
    expression = roll.expression if marks is PLAIN else escape(roll.expression)
    return f"{expression} {marks.arrow} {explain(roll.result, marks)} = {roll.total}"


def explain(node: Rolled, marks: Marks = PLAIN) -> str:
    """The expression with each dice term replaced by the dice it rolled."""
    if isinstance(node, RolledPool):
        return "[" + ", ".join(render_die(die, marks) for die in node.dice) + "]"
    if isinstance(node, RolledOp):
        left_op = node.left.op if isinstance(node.left, RolledOp) else None
        right_op = node.right.op if isinstance(node.right, RolledOp) else None
        return infix(
            node.op, explain(node.left, marks), left_op, explain(node.right, marks), right_op
        )
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
    """One die: re-rolled faces struck out, explosions chained with `!+`, fate marked."""
    parts = [str(die.faces[0])]
    for face in die.faces[1:]:
        parts.append(marks.wrap(marks.explosion, "!+"))
        parts.append(f"({face}-1)" if die.penetrating else str(face))
    text = "".join(parts)
    if not die.kept:
        text = marks.wrap(marks.dropped, text)
    elif die.success:
        text = marks.wrap(marks.success, text)
    rerolled = "".join(marks.wrap(marks.dropped, str(face)) + " " for face in die.rerolled)
    return rerolled + text
