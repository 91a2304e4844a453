"""Dice notation text -> syntax tree, in any dialect, with errors that point at the character.

A small recursive-descent parser over the grammar in docs/dice-notation.md. Written by hand
rather than with a parser generator because the grammar is tiny, every error must name the
exact character, and the limits (length, nesting, dice counts) must be enforced before any
work is done. Each dialect (`tabletop.dice.dialects`) is a table of spellings this one
parser reads; what a dialect's tool writes but tabletop cannot hold yet is refused with the
name of the feature and the dialects that read it (`tabletop.dice.unsupported`).
"""

from __future__ import annotations

import re
from dataclasses import replace
from fractions import Fraction
from functools import lru_cache

from tabletop.dice import limits
from tabletop.dice.dialects import (
    DEFAULT_DIALECT,
    DIALECTS,
    Dialect,
    ExplodeSpelling,
    dialect_named,
)
from tabletop.dice.syntax import (
    COIN_FACES,
    FATE_FACES,
    TENS_FACES,
    USAGE_DIE_SIZES,
    AnyOf,
    BinaryOp,
    Call,
    Compare,
    ComputedDice,
    Dice,
    Explode,
    Group,
    Integer,
    Keep,
    Label,
    Name,
    Negate,
    Node,
    Pick,
    PlacedReroll,
    PooledKeep,
    Reroll,
    RiskDice,
    UsageDie,
    expected_rerolls,
    most_dice,
    whole,
)
from tabletop.dice.unsupported import (
    FATE,
    MORE_THAN_ONE_REROLL,
    describe,
    missing_feature,
    other_readers,
)
from tabletop.errors import LimitError, NotationError, TabletopError

_SPACES = re.compile(r"[ \t]*")
_DIGITS = re.compile(r"[0-9]+")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_PATH = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")
"""Foundry's data path after `@`: `str`, `abilities.str.mod`."""

_ORDER = ("reroll", "minimum", "maximum", "explode", "keep", "success", "failure", "deduct")
"""The order the tree's modifiers take effect in; written-order dialects must agree (a keep
or drop by face, `pick`, takes effect where a keep does)."""

_MODIFIER_MARKS = ("!", "{", "[", "=", "<", ">")
"""Every character other than a letter that can start a modifier, or a mistaken one, after
the dice (`!` explosions, `>3` counts; `{` and `[` are refused or read where they are)."""

_COMPARED = ("==", "!=", ">=", "<=", ">", "<")
"""d20's comparisons, longest spelling first."""

_MARKS = ("critical", "fumble", "sort")
"""Modifiers that only change how dice are shown (Roll20's critical points and sorting), in no
order of effect."""


def parse(text: str, dialect: str | Dialect = DEFAULT_DIALECT) -> Node:
    """Parse a dice expression such as `4d6kh3 + 2`, read in `dialect`, into its tree."""
    return parse_with_names(text, dialect)[0]


def parse_with_names(
    text: str, dialect: str | Dialect = DEFAULT_DIALECT
) -> tuple[Node, frozenset[str]]:
    """`parse`, and the names the tree needs bound before it can be rolled (gathered as the
    text is read, rather than by walking the tree again)."""
    reading = dialect_named(dialect)
    if not isinstance(text, str):
        raise NotationError(repr(text), 0, "a dice expression must be text")
    if len(text) > limits.MAX_EXPRESSION_LENGTH:
        raise LimitError(
            f"dice expression is {len(text):,} characters long; "
            f"the limit is {limits.MAX_EXPRESSION_LENGTH:,}"
        )
    return _parse_cached(text, reading.name)


@lru_cache(maxsize=4096)
def _parse_cached(text: str, dialect: str) -> tuple[Node, frozenset[str]]:
    parser = _Parser(text, dialect_named(dialect))
    node, _ = parser.expression()
    if parser.dialect.truncate_total and not whole(node):
        node = Call("trunc", node)
    return node, frozenset(parser.names)


def reads(text: str, dialect: Dialect) -> bool:
    """Whether `dialect` reads the whole of `text`, its refusals left unexplained."""
    try:
        _Parser(text, dialect, probing=True).expression()
    except TabletopError:
        return False
    return True


class _Parser:
    __slots__ = (
        "dialect",
        "dice_count",
        "names",
        "pos",
        "probing",
        "rerolls",
        "spaced",
        "text",
    )

    def __init__(self, text: str, dialect: Dialect, probing: bool = False) -> None:
        self.text = text
        self.spaced = " " in text or "\t" in text
        """Whether there are spaces to skip at all (most rolls are written without)."""
        self.dialect = dialect
        self.probing = probing
        self.pos = 0
        self.dice_count = 0
        self.rerolls: Fraction | int = 0
        self.names: set[str] = set()
        """The names read so far, which must be bound before rolling."""

    # -- helpers ---------------------------------------------------------------------------

    def fail(self, problem: str, position: int | None = None) -> NotationError:
        return NotationError(self.text, self.pos if position is None else position, problem)

    def refuse(self, fallback: str, position: int | None = None) -> NotationError:
        """The error for text this dialect does not read here: the feature it looks like, and
        the dialects that read it, when it is one; `fallback` otherwise."""
        at = self.pos if position is None else position
        if self.probing:
            return self.fail(fallback, at)
        problem = missing_feature(self.text, at, self.dialect, own=True)
        if problem is None:
            readers = [
                other
                for other in DIALECTS.values()
                if other is not self.dialect and reads(self.text, other)
            ]
            if readers:
                problem = other_readers(readers, self.dialect)
        if problem is None:
            problem = missing_feature(self.text, at, self.dialect, own=False) or fallback
        return self.fail(problem, at)

    def peek(self, offset: int = 0) -> str:
        index = self.pos + offset
        return self.text[index : index + 1]

    def skip_space(self) -> None:
        if self.spaced and self.text[self.pos : self.pos + 1] in (" ", "\t"):
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

    def is_dice_letter(self, char: str) -> bool:
        return char == "d" or (char == "D" and self.dialect.uppercase_d)

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
        node, depth = self.comparison(0) if self.dialect.comparisons else self.sum(0)
        self.skip_space()
        if self.peek() == ")":
            raise self.fail("this ')' has no matching '('")
        rest = self.text[self.pos :].rstrip()
        spaced = self.text[self.pos - 1 : self.pos] in (" ", "\t")
        if rest[:1].isalpha() and self.dialect.trailing_text and spaced:
            self.pos = len(self.text)
            return Label(node, rest, trailing=True), depth
        if rest[:1] == "\\" and self.dialect.trailing_text:  # Roll20's `1d20+5 \ +5 Init`
            self.pos = len(self.text)
            words = rest[1:].strip()
            return (Label(node, words, trailing=True) if words else node), depth
        mark = self.dialect.comment_mark
        if mark is not None and rest.startswith(mark):  # Foundry's `1d20 + 5 # Attack`
            self.pos = len(self.text)
            words = rest[len(mark) :].strip()
            return (Label(node, words, trailing=True) if words else node), depth
        if self.peek():
            raise self.refuse("expected an operator (+ - * /) or the end")
        return node, depth

    def sum(self, level: int) -> tuple[Node, int]:
        """Products joined by `+` and `-`, grouped from the left."""
        node, depth = self.product(level)
        while True:
            self.skip_space()
            at = self.pos
            op = self.text[at : at + 1]
            if op not in ("+", "-"):
                return node, depth
            self.pos += 1
            right, right_depth = self.product(level)
            node, depth = self.binary(op, node, right, max(depth, right_depth) + 1, at)

    def whole(self, level: int) -> tuple[Node, int]:
        """A whole expression inside brackets: a sum, or (d20) a comparison of sums."""
        return self.comparison(level) if self.dialect.comparisons else self.sum(level)

    def comparison(self, level: int) -> tuple[Node, int]:
        """d20's sums joined by `==`, `!=`, `<`, `<=`, `>`, `>=` (`1d20 + 5 >= 15`), grouped
        from the left."""
        node, depth = self.sum(level)
        while True:
            self.skip_space()
            at = self.pos
            op = next((op for op in _COMPARED if self.text.startswith(op, at)), None)
            if op is None:
                return node, depth
            self.pos += len(op)
            right, right_depth = self.sum(level)
            node, depth = self.binary(op, node, right, max(depth, right_depth) + 1, at)

    def product(self, level: int) -> tuple[Node, int]:
        """Terms with their signs joined by `*`, `/` and `%`, grouped from the left."""
        node, depth = self.unary(level)
        while True:
            self.skip_space()
            at = self.pos
            op = self.product_operator()
            if op is None:
                return node, depth
            right, right_depth = self.unary(level)
            node, depth = self.binary(op, node, right, max(depth, right_depth) + 1, at)

    def binary(self, op: str, left: Node, right: Node, depth: int, at: int) -> tuple[Node, int]:
        """Two operands joined by an operator, refused past the depth limit."""
        self.check_depth(depth, at)
        return BinaryOp(op, left, right), depth  # type: ignore[arg-type]

    def product_operator(self) -> str | None:
        char = self.text[self.pos : self.pos + 1]
        if char not in ("*", "%", "/"):
            return None
        if char == "*" and self.peek(1) != "*":
            self.pos += 1
            return "*"
        if char == "%" and self.dialect.remainder is not None:
            self.pos += 1
            return self.dialect.remainder
        if char != "/":
            return None
        if self.peek(1) == "/":
            if not self.dialect.floor_division:
                raise self.refuse("expected a term after '/'", self.pos + 1)
            self.pos += 2
            return "/"
        self.pos += 1
        return "/" if self.dialect.division == "floor" else "÷"

    def unary(self, level: int, signed: bool = False) -> tuple[Node, int]:
        """A term with any signs before it (`signed`: a sign has been read already)."""
        self.skip_space()
        at = self.pos
        char = self.text[at : at + 1]
        if char == "-":
            self.pos += 1
            self.check_nesting(level + 1, at)
            operand, depth = self.unary(level + 1, signed=True)
            self.check_depth(depth + 1, at)
            return Negate(operand), depth + 1
        if char == "+" and self.dialect.unary_plus:  # `+x` is x itself
            self.pos += 1
            self.check_nesting(level + 1, at)
            return self.unary(level + 1, signed=True)
        if not self.dialect.power:
            return self.atom(level)
        return self.power(level, signed)

    def power(self, level: int, signed: bool) -> tuple[Node, int]:
        """`a ** b`, grouped from the right, where the dialect has it; a sign before the base
        is refused as JavaScript refuses it (`-2**2` could be -4 or 4)."""
        base, depth = self.atom(level)
        self.skip_space()
        at = self.pos
        if not self.take("**"):
            return base, depth
        if signed:
            raise self.fail("a sign before a power is unclear: write -(2**2) or (-2)**2", at)
        self.check_nesting(level + 1, at)
        exponent, exponent_depth = self.unary(level + 1)
        depth = max(depth, exponent_depth) + 1
        self.check_depth(depth, at)
        return BinaryOp("**", base, exponent), depth

    def group(self, level: int, start: int) -> tuple[Node, int]:
        """A parenthesised sum, the `(` at `start` already seen (in d20, with a comma, a set
        of members judged by their totals)."""
        self.check_nesting(level + 1, start)
        self.pos += 1
        self.skip_space()
        if self.dialect.groups == "sets" and self.take(")"):
            return Integer(0), 1  # d20's empty set `()`, whose total is 0
        node, depth = self.whole(level + 1)
        self.skip_space()
        if self.peek() == "," and self.dialect.groups == "sets":
            return self.members([node], depth, level, start, ")")
        if not self.take(")"):
            raise self.refuse(f"expected ')' to close the '(' at character {start + 1}")
        return node, depth

    def members(
        self, found: list[Node], depth: int, level: int, start: int, closing: str
    ) -> tuple[Node, int]:
        """The rest of a group's members (after the first, `found`), its closing bracket and
        its modifiers: keep/drop and a success count, over the members' totals."""
        while self.take(","):
            self.skip_space()
            if closing == ")" and self.peek() == ")":
                break  # d20's one-member set: `(1d6,)`
            member, member_depth = self.whole(level + 1)
            found.append(member)
            depth = max(depth, member_depth)
            self.skip_space()
        if not self.take(closing):
            raise self.fail(f"expected '{closing}' to close the group at character {start + 1}")
        return self.group_modifiers(found, depth, start)

    def group_modifiers(self, found: list[Node], depth: int, start: int) -> tuple[Node, int]:
        """A group's modifiers: keep/drop by place or (d20) by value, then a success count,
        over the members' totals."""
        keep = success = pick = failure = None
        while True:
            at = self.pos
            found_spelling = self.spelling()
            bare = "" in self.dialect.counts and self.peek() in ("=", "<", ">")
            if found_spelling is None and bare:
                found_spelling = ("", "success")
            if found_spelling is None:
                break
            spelled, kind = found_spelling
            self.pos += len(spelled)
            if kind == "keep" and keep is None and success is None and pick is None:
                if len(found) == 1 and self.dialect.name in ("tabletop", "roll20"):
                    return self.pooled(found[0], spelled, depth, start, at)
                keep = self.set_keep(self.dialect.keeps[spelled], len(found), at)
            elif kind == "pick" and keep is None:
                more = self.pick(self.dialect.picks[spelled], at)
                pick = more if pick is None else self.picked(pick, more, "pick", at)
            elif self.dialect.counts.get(spelled) == "f" and success is not None and not failure:
                failure = self.target("a total that fails", None)
                if failure is None:
                    raise self.fail("expected a total that fails, such as f1 or f<10")
            elif kind == "success" and success is None and self.dialect.counts[spelled] != "f":
                counted = self.dialect.counts[spelled]
                if counted in ("cs", "cf"):  # a total has no highest face to count
                    counted = ""
                success = self.success(counted, 0)
                if len(found) == 1 and self.dialect.name == "roll20":
                    return self.counted_dice(found[0], success, depth, start, at)
            else:
                raise self.fail(_group_refusal(kind, spelled, self.dialect), at)
        self.check_depth(depth + 1, start)
        return Group(tuple(found), keep, success, pick, failure), depth + 1

    def set_keep(self, mode: str, members: int, at: int) -> Keep:
        """A group's keep or drop; d20 keeps every member of a set when asked for more
        (`(4d6+3d8)kh3` is the one member's total)."""
        if self.dialect.groups != "sets" or mode not in ("kh", "kl"):
            return self.keep(mode, members, at)
        asked = self.keep(mode, limits.MAX_DICE, at)
        return Keep(asked.mode, min(asked.count, members))

    def pooled(
        self, member: Node, spelled: str, depth: int, start: int, at: int
    ) -> tuple[Node, int]:
        """Roll20's `{4d6+3d8}k4`: a keep over the dice of one group's pools (built for sums
        of plain pools, and only in Roll20: tabletop's reading would contradict Foundry's)."""
        pools = _added_pools(member)
        if self.dialect.name != "roll20" or pools is None:
            raise self.fail(
                "keeping or dropping the dice of one group is built for Roll20's sums of plain "
                "dice ({4d6+3d8}k4); this one is not supported yet",
                at,
            )
        keep = self.keep(self.dialect.keeps[spelled], sum(pool.count for pool in pools), at)
        if self.spelling() is not None or self.peek() in ("=", "<", ">"):
            raise self.fail("a group that keeps its dice takes no more modifiers yet")
        self.check_depth(depth + 1, start)
        return PooledKeep(pools, keep), depth + 1

    def counted_dice(
        self, member: Node, success: Compare, depth: int, start: int, at: int
    ) -> tuple[Node, int]:
        """Roll20's `{5d6!!}>8`, `{3d20+5}>21` and `{4d6+3d8}>4`: a group of one member counts
        each of its dice, with the member's number added to each die ("for each roll add 5"),
        and takes failures (`{2d6!}>4f1`) as a pool does; several pools are the sum of their
        counts."""
        found = _pools_and_number(member)
        if found is None or not found[0] or any(pool.success is not None for pool in found[0]):
            raise self.fail(
                "a success count on a group of one member counts its dice, built for pools "
                "added together and a number added ({3d20+5}>21: each die plus 5); this one is "
                "not supported yet",
                at,
            )
        pools, added = found
        failure = None
        if self.spelling() == ("f", "success"):
            self.pos += 1
            failure = self.target("a face that fails", None)
            if failure is None:
                raise self.fail("expected a face that fails, such as f1 or f<2")
        if self.spelling() is not None or self.peek() in ("=", "<", ">"):
            raise self.fail("a group that counts its dice takes no more modifiers")
        counted: Node | None = None
        for pool in pools:
            marked = replace(
                pool, success=_less(success, added), failure=failure and _less(failure, added)
            )
            counted = marked if counted is None else BinaryOp("+", counted, marked)
        assert counted is not None
        self.check_depth(depth + len(pools), start)
        return counted, depth + len(pools)

    def atom(self, level: int) -> tuple[Node, int]:
        """A term, with any labels written after it (`2d6[fire]`)."""
        node, depth = self.term(level)
        while self.dialect.labels:
            after = self.pos
            self.skip_space()
            if not self.take("["):
                self.pos = after
                break
            close = self.text.find("]", self.pos)
            if close < 0:
                raise self.fail("this '[' has no matching ']'", self.pos - 1)
            node = Label(node, self.text[self.pos : close])
            self.pos = close + 1
        return node, depth

    def term(self, level: int) -> tuple[Node, int]:
        start = self.pos  # unary() has skipped the spaces
        char = self.peek()
        if char == "{" and self.dialect.groups == "braces":
            self.check_nesting(level + 1, start)
            self.pos += 1
            first, depth = self.sum(level + 1)
            self.skip_space()
            return self.members([first], depth, level, start, "}")
        if char == "(":
            node, depth = self.group(level, start)
            if self.is_dice_letter(self.peek()) and self.dialect.computed_dice:
                return self.computed(node, depth, level)
            if self.is_dice_letter(self.peek()):
                raise self.refuse("expected an operator after ')'")
            found = self.spelling() if self.dialect.groups == "sets" else None
            if found is not None and found[1] in ("keep", "pick"):
                return self.set_of(node, depth, start)
            return node, depth
        if char == "@" and self.dialect.values is not None:
            return self.value_given(start), 1
        if not char:
            raise self.fail("expected a number, dice or '(' here")
        if "0" <= char <= "9":
            value = self.integer("a number")
            if self.is_dice_letter(self.peek()):
                if self.text[self.pos + 1 : self.pos + 2] == "(" and self.dialect.computed_dice:
                    return self.computed(Integer(value), 1, level)  # `2d(1d6)`
                return self.dice(value, start), 1
            if self.peek() == ".":
                raise self.refuse("expected an operator", self.pos)
            return Integer(value), 1
        after = self.peek(1)
        fate = after != "" and after == self.dialect.fate
        if self.is_dice_letter(char) and (after.isdigit() or after in ("%", "!") or fate):
            return self.dice(1, start), 1
        dead_weight = self.dialect.dead_weight
        if dead_weight and char == "U" and self.peek(1) in ("d", "D") and self.peek(2).isdigit():
            return self.usage_die(start), 1
        word = _WORD.match(self.text, self.pos)
        if word is not None:
            return self.word(word.group(), level, start)
        raise self.refuse("expected a number, dice or '(' here")

    def word(self, word: str, level: int, start: int) -> tuple[Node, int]:
        """A function call such as `floor(…)`, or (in tabletop) a name bound when rolling."""
        after = start + len(word)
        if word in self.dialect.functions and self.text.startswith("(", after):
            self.pos = after
            operand, depth = self.group(level, after)
            self.check_depth(depth + 1, start)
            return Call(word, operand), depth + 1  # type: ignore[arg-type]
        if not self.dialect.names or FATE.shape.match(self.text, start):
            raise self.refuse(f"{word!r} is not a number or dice in {self.dialect.title}", start)
        self.pos = after
        return self.name(word), 1

    def count_dice(self, count: int, start: int) -> None:
        """Add a term's most dice to the roll's total, refusing it past the limit."""
        self.refuse_past_limit(self.dice_count + count, start)
        self.dice_count += count

    def refuse_past_limit(self, dice: int, start: int) -> None:
        cap = self.dialect.max_dice
        if cap is not None and dice > cap:
            raise LimitError(
                f"dice expression throws {dice:,} dice; {self.dialect.cap_name} "
                f"(at character {start + 1})"
            )
        if dice > limits.MAX_DICE:
            raise LimitError(
                f"dice expression could throw {dice:,} dice; the limit is "
                f"{limits.MAX_DICE:,} per roll (at character {start + 1})"
            )

    def value_given(self, start: int) -> Name:
        """Roll20's `@{strength}` or Foundry's `@str`, `@abilities.str.mod`: a name bound
        when rolling."""
        if self.dialect.values == "at":
            path = _PATH.match(self.text, start + 1)
            if path is None:
                raise self.fail("expected a name after '@', such as @str", start + 1)
            self.pos = path.end()
            return self.name(path.group())
        close = self.text.find("}", start)
        if not self.text.startswith("@{", start) or close < 0:
            raise self.refuse("expected a value's name in braces, such as @{strength}", start)
        name = self.text[start + 2 : close]
        if _WORD.fullmatch(name) is None:
            raise self.fail(
                "references to a token or another character (@{selected|strength}) are not "
                "supported yet: give the value a plain name, such as @{strength}",
                start,
            )
        self.pos = close + 1
        return self.name(name)

    def name(self, name: str) -> Name:
        """A name bound when rolling, noted among those the roll needs."""
        self.names.add(name)
        return Name(name)

    def set_of(self, node: Node, depth: int, start: int) -> tuple[Node, int]:
        """d20's `(4d6)kh3`: a keep or drop after a parenthesised pool acts on its dice, as
        `4d6kh3` does; after any other expression (`(1)k2`, `(4d6+3d8)kh1`), on a set of that
        one member."""
        if not isinstance(node, Dice):
            return self.group_modifiers([node], depth, start)
        if node != Dice(node.count, node.sides, faces=node.faces):
            raise self.fail(
                "keeping or dropping after a parenthesised pool with modifiers of its own "
                "(((10d6kh5)kl2)kh1) is not supported yet"
            )
        return self.modifiers(node.count, node.sides, node.faces), depth

    def computed(self, count: Node, depth: int, level: int) -> tuple[Node, int]:
        """`(1d4)d6kh1` or `2d(1d6)`, the count read: its sides, then the pool's modifiers
        (on a fixed number of sides only)."""
        self.pos += 1  # the "d"
        at = self.pos
        sides: Node
        if self.peek() == "(":
            sides, sides_depth = self.group(level, at)
            depth = max(depth, sides_depth)
        else:
            sides = Integer(self.integer("the number of sides after 'd'"))
            if not 1 <= sides.value <= limits.MAX_SIDES:
                raise self.fail(f"a die has between 1 and {limits.MAX_SIDES:,} sides", at)
        modifiers = None
        if self.peek().isalpha() or self.peek() in ("!", "<", ">", "="):
            if not isinstance(sides, Integer):
                raise self.fail("modifiers on computed sides (2d(1d6)kh1) are not supported yet")
            if self.text.startswith(("adv", "dis"), self.pos):
                raise self.fail("advantage on computed dice is not supported yet")
            modifiers = self.modifiers(limits.MAX_DICE, sides.value, None)
        self.check_depth(depth + 1, at)
        return ComputedDice(count, sides, modifiers), depth + 1

    def coins(self, count: int, start: int) -> Dice:
        """Foundry's coins, `4dc`: each shows heads (1) or tails (0), so the total counts the
        heads; a call, `c1` or `c0`, counts the coins showing it."""
        self.count_dice(count, start)
        success = None
        if self.take("c"):
            at = self.pos
            call = self.integer("a call after 'c': c1 (heads) or c0 (tails)")
            if call not in COIN_FACES:
                raise self.fail("a coin is called c1 (heads) or c0 (tails)", at)
            success = Compare("=", call)
        if self.peek().isalpha() or self.peek() in ("!", "<", ">", "="):
            raise self.fail("a coin takes only a call (c1 or c0)")
        return Dice(count, len(COIN_FACES), success=success, faces=COIN_FACES)

    def usage_die(self, start: int) -> UsageDie:
        self.pos += 2  # "Ud"
        at = self.pos
        size = self.integer("the size of the usage die (4, 6, 8, 10, 12 or 20)")
        if size not in USAGE_DIE_SIZES:
            raise self.fail("a usage die is a d4, d6, d8, d10, d12 or d20", at)
        self.count_dice(1, start)
        return UsageDie(size)

    def dice(self, count: int, start: int) -> Node:
        if count < 1 and not (count == 0 and self.dialect.zero_dice):
            raise self.fail("a pool needs at least one die", start)
        self.refuse_past_limit(count, start)
        self.pos += 1  # the "d"
        at = self.pos
        if self.dialect.dead_weight and self.take("!"):
            self.count_dice(count, start)
            return RiskDice(count)
        if self.dialect.coins and self.take("c"):
            return self.coins(count, start)
        faces = None
        if self.take("%"):
            faces = TENS_FACES if self.dialect.percent == "tens" else None
            sides = 100 if faces is None else len(faces)
        elif self.dialect.fate is not None and self.take(self.dialect.fate):
            faces = FATE_FACES
            sides = len(faces)
        elif not self.peek().isdigit():
            raise self.refuse("expected the number of sides after 'd'")
        else:
            sides = self.integer("the number of sides after 'd'")
            if sides == 0 == count and self.dialect.zero_dice and not self.peek().isalpha():
                return Integer(0)  # Roll20's `5 + 0d0`: no dice at all (its grouped rolls)
            if sides < 1:
                raise self.fail("a die needs at least one side", at)
            if sides > limits.MAX_SIDES:
                raise LimitError(
                    f"a d{sides:,} has more than {limits.MAX_SIDES:,} sides, the largest die "
                    f"allowed (at character {at + 1})"
                )
        term = self.modifiers(count, sides, faces)
        self.count_dice(most_dice(term) if self.dialect.max_dice is None else term.count, start)
        self.expect_rerolls(term, start)
        if self.dialect.margin and self.text.startswith("ms", self.pos):
            return self.margin(term)
        return term

    def expect_rerolls(self, term: Dice, start: int) -> None:
        """Refuse a "re-roll until" rule so likely to repeat that a roll could run out of dice.

        The re-rolls expected may use at most a fortieth of the dice the roll has left, which
        makes running out by bad luck less likely than one in 10**17. A rule limited to a
        count over the pool is counted whole by `most_dice` instead."""
        if term.reroll is None or term.reroll.limit is not None:
            return
        self.rerolls += expected_rerolls(term)
        expected = Fraction(self.rerolls)  # compared in whole numbers: 40 * n / d > left
        if expected.numerator * 40 > (limits.MAX_DICE - self.dice_count) * expected.denominator:
            raise LimitError(
                f"the re-rolls in this dice expression would expect to throw about "
                f"{round(self.rerolls):,} more dice, too many to be sure a roll ends within "
                f"{limits.MAX_DICE:,} dice (at character {start + 1})"
            )

    # -- modifiers -------------------------------------------------------------------------

    def spelling(self) -> tuple[str, str] | None:
        """The longest modifier spelling of the dialect at the cursor, and its kind."""
        for spelled, kind in _spellings(self.dialect).get(self.text[self.pos : self.pos + 1], ()):
            if self.text.startswith(spelled, self.pos):
                return spelled, kind
        return None

    def modifiers(self, count: int, sides: int, faces: tuple[int, ...] | None) -> Dice:
        """Read the modifiers after `NdX`, each kind at most once; in a dialect whose tool
        applies them in the order written, only in the order the tree applies them."""
        following = self.text[self.pos : self.pos + 1]
        if not following.isalpha() and following not in _MODIFIER_MARKS:
            return Dice(count, sides, faces=faces)  # no modifier can start here
        seen: list[str] = []
        reroll = explode = keep = pick = success = failure = deduct = counted = None
        reroll_place = None
        bounds: dict[str, int] = {}
        marks: dict[str, Compare | AnyOf] = {}
        order = None
        while True:
            at = self.pos
            found = self.spelling()
            if found is None and "" in self.dialect.counts and self.peek() in ("=", "<", ">"):
                found = ("", "success")
            if found is None and self.dialect.margin and self.text.startswith("ms", at):
                break  # the margin of success wraps the pool (`dice`)
            if found is None:
                keeps = self.dialect.keeps
                drop = self.peek() == "d" and "d" not in keeps and "dh" in keeps
                if drop and not self.peek(1).isdigit():
                    raise self.refuse(
                        "expected 'h' or 'l' after 'd' (drop highest / drop lowest)", at + 1
                    )
                label = self.peek() == "[" and self.dialect.labels
                if self.peek().isalpha() or (self.peek() in ("!", "{", "[") and not label):
                    raise self.refuse("expected an operator (+ - * /) or the end")
                break
            spelled, kind = found
            if faces is not None and kind in ("reroll", "explode", "deduct"):
                raise self.fail(
                    f"a die with faces of its own (Fate, d20's d%) takes no "
                    f"{_KIND_NAMES[kind]} here (not built yet)"
                )
            self.pos += len(spelled)
            if kind == "advantage":
                kind = "keep"
                extra = self.optional_integer(1)
                if extra < 1:
                    raise self.fail("advantage needs at least one extra die", at)
                self.refuse_past_limit(count + extra, at)
                keep = Keep("kh" if spelled == "adv" else "kl", count)
                count += extra
            elif kind == "keep":
                keep = self.keep(self.dialect.keeps[spelled], count, at)
            elif kind == "pick" and pick is not None:
                more = self.pick(self.dialect.picks[spelled], at)
                pick = self.picked(pick, more, seen[-1], at)
                continue  # one pick of several faces, seen already
            elif kind == "pick":
                pick = self.pick(self.dialect.picks[spelled], at)
            elif spelled == "ra" and self.peek() in ("l", "h") and self.dialect.picks:
                kind = "reroll"  # d20's `4d6ral1`: one die added for the lowest
                reroll_place = self.reroll_by_place(True, count, at, adds=True)
            elif kind == "explode" and explode is not None and self.dialect.name == "avrae":
                more = self.explode(self.dialect.explosions[spelled], sides, at)
                explode = self.joined_explosion(explode, more, seen[-1], sides, at)
                continue  # d20 joins `e5e6` into one explosion on 5 or 6
            elif kind == "explode":
                explode = self.explode(self.dialect.explosions[spelled], sides, at)
            elif kind == "reroll" and self.peek() in ("l", "h") and self.dialect.picks:
                reroll_place = self.reroll_by_place(self.dialect.rerolls[spelled], count, at)
            elif kind == "reroll" and reroll is not None:
                more = self.reroll(self.dialect.rerolls[spelled], sides, at)
                reroll = self.joined(reroll, more, seen[-1], sides, at)
                continue  # one re-roll of several faces, seen already
            elif kind == "reroll":
                reroll = self.reroll(self.dialect.rerolls[spelled], sides, at)
            elif kind == "sort":
                order = self.dialect.sorts[spelled]
            elif kind in marks:  # Roll20's `1d20cs20cs10`: either face is a critical
                more = self.point(f"a face that is a {kind}, such as {spelled}>19")
                before = marks[kind]
                points = before.points if isinstance(before, AnyOf) else (before,)
                marks[kind] = AnyOf((*points, more))  # type: ignore[arg-type]
                continue  # one mark of several faces, seen already
            elif kind in _MARKS:
                marks[kind] = self.point(f"a face that is a {kind}, such as {spelled}>19")
            elif kind == "deduct":
                failure = self.failing(spelled, counted, at)
                deduct = self.dialect.deducts[spelled]
            elif kind in ("minimum", "maximum"):
                bounds[kind] = self.integer(f"the {kind} of each die after {spelled!r}")
            elif self.dialect.counts[spelled] == "f":
                kind = "failure"
                if success is None:
                    raise self.refuse("failures are taken from a success count, as in 3d6>3f1", at)
                failure = self.target("a face that fails", None)
                if failure is None:
                    raise self.fail("expected a face that fails, such as f1 or f<2")
            else:
                counted = self.dialect.counts[spelled]
                success = self.success(counted, sides)
            self.check_order(kind, seen, at)
            seen.append(kind)
        if reroll_place is not None and len(seen) > 1:
            raise self.fail(
                "re-rolling the lowest or highest dice (d20's rol1, ral1) with other modifiers is "
                "not supported yet"
            )
        if bounds and explode is not None:
            raise self.fail("a per-die minimum or maximum with an explosion is not built yet")
        if keep is not None and pick is not None:
            raise self.fail(
                "keeping or dropping dice both by place (kh3) and by face (k3) on one pool is "
                "not supported yet"
            )
        if (reroll is not None and reroll.limit is not None) or (
            explode is not None and explode.limit is not None
        ):
            self.check_limited(reroll, explode, keep or pick or success or deduct or bounds, at)
        if bounds and deduct is not None:
            raise self.fail("a per-die minimum or maximum with df or sf is not built yet")
        minimum, maximum = bounds.get("minimum"), bounds.get("maximum")
        critical, fumble = marks.get("critical"), marks.get("fumble")
        return Dice(
            count,
            sides,
            reroll,
            explode,
            keep,
            success,
            faces,
            minimum,
            maximum,
            failure,
            critical,
            fumble,
            order,  # type: ignore[arg-type]
            deduct,  # type: ignore[arg-type]
            pick,
            reroll_place,
        )

    def reroll_by_place(self, once: bool, count: int, at: int, adds: bool = False) -> PlacedReroll:
        """d20's `4d6rol1` (`roh1`): the lowest (highest) dice re-rolled once; `ral1`: one
        die added for the lowest."""
        if not once:
            raise self.fail(
                "re-rolling the lowest or highest dice until they stop being so would never "
                "stop (d20 gives up on it too)",
                at,
            )
        mode = "kl" if self.peek() == "l" else "kh"
        self.pos += 1
        number = self.integer("how many dice to re-roll")
        if not 1 <= number <= count:
            raise self.fail(f"can re-roll between 1 and {count} of {count} dice", at)
        return PlacedReroll(Keep(mode, number), adds)  # type: ignore[arg-type]

    def check_limited(
        self, reroll: Reroll | None, explode: Explode | None, more: object, at: int
    ) -> None:
        """A pool limit is built for sums of plain dice with one limited rule (and the other
        rule unlimited); anything else is refused by name."""
        both = reroll is not None and explode is not None
        if more or (both and reroll.limit is not None and explode.limit is not None):  # type: ignore[union-attr]
            raise self.fail(
                "a re-roll or explosion limited over the pool (Foundry's r2=1, d20's ra) with "
                "keep/drop, counts, bounds or a second limit is not supported yet",
                at,
            )

    def check_order(self, kind: str, seen: list[str], at: int) -> None:
        if kind in seen and kind in _SEVERAL:
            raise self.fail(f"{_SEVERAL[kind]} on one pool are not supported yet", at)
        if kind in seen:
            raise self.refuse(f"this dice term already has {_a(kind)}", at)
        if not self.dialect.written_order or kind in _MARKS:
            return
        later = [done for done in seen if _rank(done) > _rank(kind)]
        if later:
            raise self.fail(
                f"{self.dialect.title} applies modifiers in the order written; "
                f"{_a(kind)} after {_a(later[0])} is not supported yet "
                f"(write it first)",
                at,
            )

    def joined(self, first: Reroll, more: Reroll, last: str, sides: int, at: int) -> Reroll:
        """A second re-roll on a pool: one re-roll of the faces both name, where the dialect
        joins re-rolls of one kind (`r1r3` in Roll20, `rr1rr3` in d20), else one applied to
        what the first left (Foundry's `r1r3`, d20's `rr1ro3`); in written order only when
        the second follows the first, and never with a limit over the pool."""
        dialect = self.dialect
        steps = list(first.steps)
        tail = steps[-1]
        apart = dialect.written_order and last != "reroll"
        limited = first.limit is not None or more.limit is not None
        if not apart and not limited and dialect.reroll_union and tail.once == more.once:
            points = tail.when.points if isinstance(tail.when, AnyOf) else (tail.when,)
            steps[-1] = Reroll(AnyOf((*points, more.when)), tail.once)  # type: ignore[arg-type]
            if not tail.once and steps[-1].when.count(sides) == sides:
                raise self.fail(f"re-rolling every face of a d{sides} would never stop", at)
        elif not apart and not limited and dialect.reroll_sequence:
            steps.append(more)
        elif self.probing:
            raise self.fail("this dice term already has a re-roll", at)
        else:
            raise self.fail(describe(MORE_THAN_ONE_REROLL, dialect), at)
        chained = None
        for step in reversed(steps):
            chained = replace(step, then=chained)
        assert chained is not None
        return chained

    def pick(self, keeps: bool, at: int) -> Pick:
        """d20's keep or drop by face: `k3`, `k<3`, `p>4`."""
        when = self.target("a face to keep or drop, such as k3 or p<2", None)
        if when is None:
            raise self.refuse("expected a face to keep or drop, such as k3 or p<2", at)
        return Pick(when, keeps)

    def picked(self, first: Pick, more: Pick, last: str, at: int) -> Pick:
        """One pick of the faces two consecutive picks of one kind name (d20's `k3k4` keeps
        the dice showing 3 or 4)."""
        if first.keep != more.keep or last != "pick":
            raise self.fail(
                "keeping and dropping dice by face one after another (k3p1) is not supported yet",
                at,
            )
        points = first.when.points if isinstance(first.when, AnyOf) else (first.when,)
        return Pick(AnyOf((*points, more.when)), first.keep)  # type: ignore[arg-type]

    def joined_explosion(
        self, first: Explode, more: Explode, last: str, sides: int, at: int
    ) -> Explode:
        """d20's consecutive explosions of one kind (`e5e6`, `ra1ra6`): one explosion on the
        faces either names, as d20's `_simplify_operations` joins them."""
        if last != "explode" or replace(first, on=None) != replace(more, on=None):
            raise self.fail("this dice term already has an explosion", at)
        assert first.on is not None and more.on is not None  # d20 always names its faces
        points = first.on.points if isinstance(first.on, AnyOf) else (first.on,)
        joined = replace(first, on=AnyOf((*points, more.on)))  # type: ignore[arg-type]
        if joined.on.count(sides) == sides and joined.limit is None:  # type: ignore[union-attr]
            raise self.fail(f"every face of a d{sides} explodes, so it would never stop", at)
        return joined

    def keep(self, mode: str, count: int, at: int) -> Keep:
        if not self.peek().isdigit() and self.dialect.keep_count_required:
            raise self.refuse("expected how many dice to keep or drop", at)
        number = self.optional_integer(1)
        if mode in ("kh", "kl") and not 1 <= number <= count:
            raise self.fail(f"can keep between 1 and {count} of {count} dice", at)
        if mode in ("dh", "dl") and not 0 <= number < count:
            raise self.fail(f"can drop between 0 and {count - 1} of {count} dice", at)
        return Keep(mode, number)  # type: ignore[arg-type]

    def target(self, what: str, default: Compare | None) -> Compare | None:
        """A compare point, a bare face where the dialect reads one as "equal to", or
        `default` when nothing is written."""
        compare = self.compare_point(what)
        if compare is not None:
            return compare
        if self.peek().isdigit() and self.dialect.bare_equals:
            at = self.pos
            face = self.integer(what)
            if self.peek() in ("=", "<", ">"):
                raise self.refuse(f"expected {what}", at)
            return Compare("=", face)
        return default

    def point(self, what: str) -> Compare:
        """A compare point that must be written (`cs>19`, `cf1`)."""
        compare = self.target(what, None)
        if compare is None:
            raise self.fail(f"expected {what}")
        return compare

    def pool_limit(self, what: str) -> int | None:
        """Foundry's count before a compare point (`r2=1`, `x3>=5`): how many re-rolls or
        explosions the whole pool may have; None when none is written."""
        digits = _DIGITS.match(self.text, self.pos)
        if not self.dialect.pool_limits or digits is None:
            return None
        if self.text[digits.end() : digits.end() + 1] not in ("=", "<", ">"):
            return None
        self.pos = digits.end()
        limit = int(digits.group())
        if limit > limits.MAX_DICE:
            raise LimitError(f"at most {limits.MAX_DICE:,} {what} in a pool, the dice limit")
        return limit

    def explode(self, spelled: ExplodeSpelling, sides: int, start: int) -> Explode:
        at = self.pos
        limit = 1 if spelled.single else self.pool_limit("explosions")
        on = self.target("a face to explode on", None)
        if on is None and self.dialect.name == "avrae":
            raise self.refuse("d20 needs the faces to explode on, such as e6 or e>5", at)
        if on is not None and not on.count(sides):
            raise self.fail(f"a d{sides} never rolls {on}, so it would never explode", at)
        every = on is not None and on.count(sides) == sides
        if every and spelled.separate and limit is None:
            raise self.fail(f"every face of a d{sides} explodes, so it would never stop", at)
        depth = 1 if spelled.once else None
        if spelled.once and self.peek() == ":":
            raise self.fail("an explosion that happens once takes no bound")
        if self.dialect.explosion_bound and self.take(":"):
            at = self.pos
            depth = self.integer("the most follow-up dice after ':'")
            if not 1 <= depth <= limits.MAX_EXPLOSION_DEPTH:
                raise self.fail(
                    f"an explosion bound must be between 1 and {limits.MAX_EXPLOSION_DEPTH}", at
                )
        return Explode(on, spelled.penetrating, depth, spelled.separate, limit)

    def reroll(self, once: bool, sides: int, start: int) -> Reroll:
        at = self.pos
        default = self.dialect.reroll_default
        limit = self.pool_limit("re-rolls")
        if self.peek().isdigit() and not self.dialect.bare_equals:  # tabletop's r1
            when: Compare | None = Compare("=", self.integer("a face to re-roll"))
        else:
            when = self.target(
                "a face to re-roll, such as r1 or r<3",
                None if default is None else Compare("=", default),
            )
        if when is None:
            raise self.refuse("expected a face to re-roll, such as r1 or r<3")
        matching = when.count(sides)
        if not matching:
            raise self.fail(f"a d{sides} never rolls {when}, so nothing would be re-rolled", at)
        if not once and matching == sides and limit is None:
            raise self.fail(f"re-rolling every face of a d{sides} would never stop", at)
        return Reroll(when, once, limit)

    def success(self, counted: str, sides: int) -> Compare:
        """What a count counts: a bare count (`3d6>3`) needs its compare point; Foundry's
        `cs` alone counts the highest face, `cf` alone the 1s, `even` and `odd` parity."""
        if counted in ("even", "odd"):
            return Compare(counted, 0)  # type: ignore[arg-type]
        what = "a number to count successes against"
        default = {"": None, "cs": Compare("=", sides), "cf": Compare("=", 1)}[counted]
        compare = self.target(what, default)
        if compare is None:
            raise self.fail(f"expected {what}")
        return compare

    def failing(self, spelled: str, counted: str | None, at: int) -> Compare | None:
        """The faces that fail under Foundry's `df`/`sf`; None (written bare, after a success
        count) for every die that is not a success."""
        if counted == "cf":
            raise self.fail(
                f"{spelled} after cf (Foundry takes the counted failures away again) is not "
                "supported yet",
                at,
            )
        failing = self.target(f"the faces that fail, such as {spelled}=1", None)
        if failing is None and counted is None:
            raise self.fail(
                f"{spelled} needs the faces that fail ({spelled}=1, {spelled}<3) unless it "
                f"follows a success count (6d6cs>3{spelled}): Foundry's documents say a bare "
                f"6d6{spelled} takes away the 1s, but its code takes nothing away",
                at,
            )
        return failing

    def margin(self, term: Dice) -> Node:
        """Foundry's margin of success: `6d6ms>12` is the total less 12, `ms<12` 12 less it."""
        at = self.pos
        self.pos += 2  # "ms"
        compare = self.compare_point("a target after 'ms', such as ms>12")
        if compare is None and self.peek().isdigit():  # the article's `3d6ms10`: less 10
            compare = Compare(">=", self.integer("a target after 'ms'"))
        if compare is None or compare.op == "=":
            raise self.fail("expected a target after 'ms', such as ms>12 or ms<12", at)
        target = Integer(compare.target)
        return BinaryOp("-", term, target) if compare.op[0] == ">" else BinaryOp("-", target, term)

    def compare_point(self, what: str) -> Compare | None:
        """A compare point in the dialect's spelling (`>=4`; Roll20's `>4`), or None."""
        spellings = self.dialect.compares
        for spelled in sorted(spellings, key=len, reverse=True):
            if self.text.startswith(spelled, self.pos):
                self.pos += len(spelled)
                if not self.peek().isdigit():
                    raise self.refuse(f"expected {what}")
                return Compare(spellings[spelled], self.integer(what))  # type: ignore[arg-type]
        if self.peek() in ("<", ">", "=", "!"):
            raise self.refuse(f"expected {what}")
        return None


@lru_cache(maxsize=16)
def _spellings(dialect: Dialect) -> dict[str, tuple[tuple[str, str], ...]]:
    """Every modifier spelling of a dialect with its kind, longest first, by its first
    character (so that reading a modifier tries only the spellings it could be)."""
    tables = {
        "reroll": dialect.rerolls,
        "explode": dialect.explosions,
        "keep": dialect.keeps,
        "success": dialect.counts,
        "deduct": dialect.deducts,
        "pick": dialect.picks,
        "advantage": ("adv", "dis") if dialect.advantage else (),
    }
    found = [(spelled, kind) for kind, table in tables.items() for spelled in table if spelled]
    found += [(spelled, bound) for spelled, bound in dialect.bounds.items()]
    found += [(spelled, mark) for spelled, mark in dialect.criticals.items()]
    found += [(spelled, "sort") for spelled in dialect.sorts]
    by_first: dict[str, tuple[tuple[str, str], ...]] = {}
    for spelled, kind in sorted(found, key=lambda pair: -len(pair[0])):
        by_first[spelled[0]] = (*by_first.get(spelled[0], ()), (spelled, kind))
    return by_first


_KIND_NAMES = {
    "minimum": "per-die minimum",
    "maximum": "per-die maximum",
    "keep": "keep/drop (or advantage) modifier",
    "explode": "explosion",
    "reroll": "re-roll",
    "success": "success count",
    "failure": "failure count",
    "deduct": "deduction of failures (df, sf)",
    "pick": "keep or drop by face",
    "critical": "critical success point",
    "fumble": "critical failure point",
    "sort": "sort order",
}


def _added_pools(node: Node) -> tuple[Dice, ...] | None:
    """The plain pools a sum such as `4d6 + 3d8` adds, or None when it is anything else."""
    if isinstance(node, Dice) and node.plain and node.faces is None and node.count:
        return (node,)
    if isinstance(node, BinaryOp) and node.op == "+":
        left, right = _added_pools(node.left), _added_pools(node.right)
        return None if left is None or right is None else left + right
    return None


def _group_refusal(kind: str, spelled: str, dialect: Dialect) -> str:
    """Why a group does not take this modifier: the feature, when some tool reads it."""
    if kind in ("keep", "pick") and dialect.groups == "sets":
        return (
            "several keeps or drops on one set, one after another (kh1kl1, k3kh1) are not "
            "supported yet (read by Avrae (d20))"
        )
    if kind == "success" and dialect.counts.get(spelled) == "f":
        return "failures are taken from a success count, as in {a, b}>40f<10"
    return "a group takes a keep or drop, then a success count"


def _pools_and_number(node: Node) -> tuple[tuple[Dice, ...], int] | None:
    """The pools `4d6 + 3d8 + 5` adds (a number may be taken away: `3d20 - 5`) and the number
    added to them, or None when it is anything else."""
    if isinstance(node, Dice):
        return (node,), 0
    if isinstance(node, Integer):
        return (), node.value
    if isinstance(node, BinaryOp) and node.op == "-" and isinstance(node.right, Integer):
        left = _pools_and_number(node.left)
        return None if left is None else (left[0], left[1] - node.right.value)
    if isinstance(node, BinaryOp) and node.op == "+":
        left, right = _pools_and_number(node.left), _pools_and_number(node.right)
        if left is None or right is None:
            return None
        return left[0] + right[0], left[1] + right[1]
    return None


def _less(compare: Compare, added: int) -> Compare:
    """The compare point a die meets when the die plus `added` meets `compare`."""
    return Compare(compare.op, compare.target - added)


_SEVERAL = {
    "explode": "explosions of two kinds (Foundry's 5d10xo<8x10, d20's 2d6e5ra6)",
}
"""Modifiers some tool repeats on one pool that the tree holds once (read by name)."""


def _rank(kind: str) -> int:
    """Where a modifier takes effect in the tree's order."""
    return _ORDER.index("keep" if kind == "pick" else kind)


def _a(kind: str) -> str:
    """A modifier's name with its article: "an explosion", "a re-roll"."""
    name = _KIND_NAMES[kind]
    return f"{'an' if name[0] in 'aeiou' else 'a'} {name}"
