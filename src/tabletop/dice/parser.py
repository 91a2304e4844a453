"""Dice notation text -> syntax tree, with errors that point at the character.

A small recursive-descent parser over the grammar in docs/dice-notation.md. Written by hand
rather than with a parser generator because the grammar is tiny, every error must name the
exact character, and the limits (length, nesting, dice counts) must be enforced before any
work is done.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache

from tabletop.dice import limits
from tabletop.dice.syntax import (
    USAGE_DIE_SIZES,
    BinaryOp,
    Compare,
    Dice,
    Explode,
    Integer,
    Keep,
    Name,
    Negate,
    Node,
    Reroll,
    RiskDice,
    UsageDie,
    most_dice,
)
from tabletop.errors import LimitError, NotationError

_SPACES = re.compile(r"[ \t]*")
_DIGITS = re.compile(r"[0-9]+")
_COMPARE = re.compile(r"(>=|<=|[<>=])([0-9]*)")
_MODIFIER_STARTS = frozenset("akdr!=<>")


def parse(text: str) -> Node:
    """Parse a dice expression such as `4d6kh3 + 2` into its syntax tree."""
    if not isinstance(text, str):
        raise NotationError(repr(text), 0, "a dice expression must be text")
    if len(text) > limits.MAX_EXPRESSION_LENGTH:
        raise LimitError(
            f"dice expression is {len(text):,} characters long; "
            f"the limit is {limits.MAX_EXPRESSION_LENGTH:,}"
        )
    return _parse_cached(text)


@lru_cache(maxsize=4096)
def _parse_cached(text: str) -> Node:
    parser = _Parser(text)
    node, _ = parser.expression()
    return node


class _Parser:
    __slots__ = ("dice_count", "pos", "rerolls", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.dice_count = 0
        self.rerolls: Fraction | int = 0

    # -- helpers ---------------------------------------------------------------------------

    def fail(self, problem: str, position: int | None = None) -> NotationError:
        return NotationError(self.text, self.pos if position is None else position, problem)

    def peek(self, offset: int = 0) -> str:
        index = self.pos + offset
        return self.text[index : index + 1]

    def skip_space(self) -> None:
        if self.text[self.pos : self.pos + 1] in (" ", "\t"):
            self.pos = _SPACES.match(self.text, self.pos).end()  # type: ignore[union-attr]

    def take(self, literal: str) -> bool:
        if self.text.startswith(literal, self.pos):
            self.pos += len(literal)
            return True
        return False

    def integer(self, what: str) -> int:
        match = _DIGITS.match(self.text, self.pos)
        if match is None:
            raise self.fail(f"expected {what}")
        self.pos = match.end()
        return int(match.group())

    def optional_integer(self, default: int) -> int:
        return self.integer("a number") if self.peek().isdigit() else default

    def check_nesting(self, level: int, position: int) -> None:
        if level > limits.MAX_NESTING:
            raise LimitError(
                f"dice expression has more than {limits.MAX_NESTING} parentheses and minus signs "
                f"open at once (at character {position + 1})"
            )

    def check_depth(self, depth: int, position: int) -> None:
        if depth > limits.MAX_DEPTH:
            raise LimitError(
                f"dice expression stacks more than {limits.MAX_DEPTH} operations on one another "
                f"(at character {position + 1})"
            )

    # -- grammar ---------------------------------------------------------------------------

    def expression(self) -> tuple[Node, int]:
        self.skip_space()
        if not self.peek():
            raise self.fail(
                "the expression is empty" if not self.text.strip() else "expected a term"
            )
        node, depth = self.sum(0)
        self.skip_space()
        if self.peek() == ")":
            raise self.fail("this ')' has no matching '('")
        if self.peek():
            raise self.fail("expected an operator (+ - * /) or the end")
        return node, depth

    def sum(self, level: int) -> tuple[Node, int]:
        return self.operations(level, ("+", "-"), self.product)

    def product(self, level: int) -> tuple[Node, int]:
        return self.operations(level, ("*", "/"), self.unary)

    def operations(
        self, level: int, ops: tuple[str, str], operand: Callable[[int], tuple[Node, int]]
    ) -> tuple[Node, int]:
        """Operands joined by operators of one precedence, grouped from the left."""
        node, depth = operand(level)
        while True:
            self.skip_space()
            op = self.peek()
            if op not in ops:
                return node, depth
            at = self.pos
            self.pos += 1
            right, right_depth = operand(level)
            depth = max(depth, right_depth) + 1
            self.check_depth(depth, at)
            node = BinaryOp(op, node, right)  # type: ignore[arg-type]

    def unary(self, level: int) -> tuple[Node, int]:
        self.skip_space()
        at = self.pos
        if self.take("-"):
            self.check_nesting(level + 1, at)
            operand, depth = self.unary(level + 1)
            self.check_depth(depth + 1, at)
            return Negate(operand), depth + 1
        return self.atom(level)

    def atom(self, level: int) -> tuple[Node, int]:
        start = self.pos  # unary() has skipped the spaces
        char = self.peek()
        if char == "(":
            self.check_nesting(level + 1, start)
            self.pos += 1
            node, depth = self.sum(level + 1)
            self.skip_space()
            if not self.take(")"):
                raise self.fail(f"expected ')' to close the '(' at character {start + 1}")
            return node, depth
        if not char:
            raise self.fail("expected a number, dice or '(' here")
        if "0" <= char <= "9":
            value = self.integer("a number")
            if self.peek() in ("d", "D"):
                return self.dice(value, start), 1
            return Integer(value), 1
        if char in ("d", "D") and (self.peek(1).isdigit() or self.peek(1) in ("%", "!")):
            return self.dice(1, start), 1
        if char == "U" and self.peek(1) in ("d", "D") and self.peek(2).isdigit():
            return self.usage_die(start), 1
        if char.isalpha() or char == "_":
            while self.peek().isalnum() or self.peek() == "_":
                self.pos += 1
            return Name(self.text[start : self.pos]), 1
        raise self.fail("expected a number, dice or '(' here")

    def count_dice(self, count: int, start: int) -> None:
        """Add a term's most dice to the roll's total, refusing it past the limit."""
        self.refuse_past_limit(self.dice_count + count, start)
        self.dice_count += count

    @staticmethod
    def refuse_past_limit(dice: int, start: int) -> None:
        if dice > limits.MAX_DICE:
            raise LimitError(
                f"dice expression could throw {dice:,} dice; the limit is "
                f"{limits.MAX_DICE:,} per roll (at character {start + 1})"
            )

    def usage_die(self, start: int) -> UsageDie:
        self.pos += 2  # "Ud"
        at = self.pos
        size = self.integer("the size of the usage die (4, 6, 8, 10, 12 or 20)")
        if size not in USAGE_DIE_SIZES:
            raise self.fail("a usage die is a d4, d6, d8, d10, d12 or d20", at)
        self.count_dice(1, start)
        return UsageDie(size)

    def dice(self, count: int, start: int) -> Dice | RiskDice:
        if count < 1:
            raise self.fail("a pool needs at least one die", start)
        self.refuse_past_limit(count, start)
        self.pos += 1  # the "d"
        if self.take("!"):
            self.count_dice(count, start)
            return RiskDice(count)
        at = self.pos
        if self.take("%"):
            sides = 100
        else:
            sides = self.integer("the number of sides after 'd' (or % or !)")
            if sides < 1:
                raise self.fail("a die needs at least one side", at)
            if sides > limits.MAX_SIDES:
                raise LimitError(
                    f"a d{sides:,} has more than {limits.MAX_SIDES:,} sides, the largest die "
                    f"allowed (at character {at + 1})"
                )
        term = self.modifiers(count, sides)
        self.count_dice(most_dice(term), start)
        self.expect_rerolls(term, start)
        return term

    def expect_rerolls(self, term: Dice, start: int) -> None:
        """Refuse a "re-roll until" rule so likely to repeat that a roll could run out of dice.

        The re-rolls expected may use at most a fortieth of the dice the roll has left, which
        makes running out by bad luck less likely than one in 10**17."""
        if term.reroll is None or term.reroll.once:
            return
        matching = term.reroll.when.count(term.sides)
        self.rerolls += Fraction(term.count * matching, term.sides - matching)
        if self.rerolls * 40 > limits.MAX_DICE - self.dice_count:
            raise LimitError(
                f"the re-rolls in this dice expression would expect to throw about "
                f"{round(self.rerolls):,} more dice, too many to be sure a roll ends within "
                f"{limits.MAX_DICE:,} dice (at character {start + 1})"
            )

    def modifiers(self, count: int, sides: int) -> Dice:
        """Read the modifiers after `NdX`, in any order, each kind at most once."""
        seen: set[str] = set()
        reroll = explode = keep = success = None
        text = self.text
        while True:
            at = self.pos
            char = text[at] if at < len(text) else ""
            if char not in _MODIFIER_STARTS:
                break
            kind: str
            if text.startswith("adv", at) or text.startswith("dis", at):
                kind = "keep"
                self.pos += 3
                extra = self.optional_integer(1)
                if extra < 1:
                    raise self.fail("advantage needs at least one extra die", at)
                self.refuse_past_limit(count + extra, at)
                keep = Keep("kh" if char == "a" else "kl", count)
                count += extra
            elif char == "k" or char == "d":
                kind = "keep"
                keep = self.keep(count)
            elif char == "!":
                kind = "explode"
                explode = self.explode(sides)
            elif char == "r":
                kind = "reroll"
                reroll = self.reroll(sides)
            elif char == "a":
                break
            else:
                kind = "success"
                success = self.compare("a number to count successes against")
            if kind in seen:
                raise self.fail(f"this dice term already has a {_KIND_NAMES[kind]}", at)
            seen.add(kind)
        return Dice(count, sides, reroll, explode, keep, success)

    def keep(self, count: int) -> Keep:
        at = self.pos
        letter = self.text[self.pos]
        self.pos += 1
        side = self.peek()
        if side in ("h", "l"):
            self.pos += 1
        elif letter == "k":
            side = "h"
        else:
            raise self.fail("expected 'h' or 'l' after 'd' (drop highest / drop lowest)")
        mode = f"{letter}{side}"
        number = self.optional_integer(1)
        if mode in ("kh", "kl") and not 1 <= number <= count:
            raise self.fail(f"can keep between 1 and {count} of {count} dice", at)
        if mode in ("dh", "dl") and not 0 <= number < count:
            raise self.fail(f"can drop between 0 and {count - 1} of {count} dice", at)
        return Keep(mode, number)  # type: ignore[arg-type]

    def explode(self, sides: int) -> Explode:
        self.pos += 1  # "!"
        penetrating = self.take("p")
        on = None
        if self.peek() in ("=", "<", ">"):
            at = self.pos
            on = self.compare("a number to explode on")
            if not on.count(sides):
                raise self.fail(f"a d{sides} never rolls {on}, so it would never explode", at)
        depth = None
        if self.take(":"):
            at = self.pos
            depth = self.integer("the most follow-up dice after ':'")
            if not 1 <= depth <= limits.MAX_EXPLOSION_DEPTH:
                raise self.fail(
                    f"an explosion bound must be between 1 and {limits.MAX_EXPLOSION_DEPTH}", at
                )
        return Explode(on, penetrating, depth)

    def reroll(self, sides: int) -> Reroll:
        self.pos += 1  # "r"
        once = self.take("o")
        at = self.pos
        if self.peek().isdigit():
            when = Compare("=", self.integer("a face to re-roll"))
        else:
            when = self.compare("a face to re-roll, such as r1 or r<3")
        matching = when.count(sides)
        if not matching:
            raise self.fail(f"a d{sides} never rolls {when}, so nothing would be re-rolled", at)
        if not once and matching == sides:
            raise self.fail(f"re-rolling every face of a d{sides} would never stop", at)
        return Reroll(when, once)

    def compare(self, what: str) -> Compare:
        match = _COMPARE.match(self.text, self.pos)
        if match is None:
            raise self.fail(f"expected {what}")
        self.pos = match.end(1)
        if not match[2]:
            raise self.fail(f"expected {what}")
        self.pos = match.end()
        return Compare(match[1], int(match[2]))  # type: ignore[arg-type]


_KIND_NAMES = {
    "keep": "keep/drop (or advantage) modifier",
    "explode": "explosion",
    "reroll": "re-roll",
    "success": "success count",
}
