"""Trees back to text: `notation(tree, dialect)` writes a tree in a dialect's spelling.

Parsing the text in the same dialect gives back the tree (for any tree that dialect's
parser makes). A tree holding something the dialect has no spelling for is refused with
`NotationError`, naming the feature and the dialects that do spell it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from itertools import pairwise
from typing import Any

from tabletop.dice.dialects import DEFAULT_DIALECT, DIALECTS, Dialect, dialect_named
from tabletop.dice.syntax import (
    COIN_FACES,
    COMPARISONS,
    FATE_FACES,
    TENS_FACES,
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
    PooledKeep,
    Reroll,
    RiskDice,
    UsageDie,
    whole,
)
from tabletop.errors import NotationError

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
"""A name tabletop and Roll20 can write (Foundry's paths may have dots)."""

_PRECEDENCE = {
    **dict.fromkeys(COMPARISONS, 0),
    "+": 1,
    "-": 1,
    "*": 2,
    "/": 2,
    "÷": 2,
    "rem": 2,
    "mod": 2,
    "%": 2,
    "**": 3,
}


class Unspellable(NotationError):
    """A tree holding a feature the dialect has no spelling for."""

    def __init__(self, feature: str, dialect: Dialect) -> None:
        spellers = [other.title for other in DIALECTS.values() if _spells(other, feature)]
        where = f"; {' and '.join(spellers)} can" if spellers else ""
        super().__init__("", 0, f"{dialect.title} has no spelling for {feature}{where}")

    def _describe(self) -> str:
        return self.problem


def notation(node: Node, dialect: str | Dialect = DEFAULT_DIALECT) -> str:
    """The text of a tree in `dialect`; `parse(notation(tree, d), d) == tree` for every tree
    the parser of `d` makes."""
    return _notation(node, dialect_named(dialect))


def shown(node: Node, dialect: str | Dialect = DEFAULT_DIALECT) -> str:
    """A tree's text for a message: in `dialect` if it spells it, else in the first dialect
    that does."""
    first = dialect_named(dialect)
    for reading in (first, *DIALECTS.values()):
        try:
            return _notation(node, reading)
        except Unspellable:
            continue
    return "the expression"


def _notation(node: Node, dialect: Dialect) -> str:
    if isinstance(node, Call) and node.function == "trunc":
        if not dialect.truncate_total:
            raise Unspellable("rounding toward zero (d20 rounds its total so)", dialect)
        return _Writer(dialect).write(node.operand)
    if dialect.truncate_total and not whole(node):
        raise Unspellable("a total that is a fraction (d20 rounds its total toward zero)", dialect)
    return _Writer(dialect).write(node)


class _Writer:
    __slots__ = ("dialect",)

    def __init__(self, dialect: Dialect) -> None:
        self.dialect = dialect

    def write(self, node: Node) -> str:
        if isinstance(node, Dice):
            return self.term(node)
        if isinstance(node, Integer):
            return str(node.value)
        if isinstance(node, Name):
            return self.name(node.name)
        if isinstance(node, Negate):
            inner = self.write(node.operand)
            return f"-({inner})" if isinstance(node.operand, BinaryOp) else f"-{inner}"
        if isinstance(node, BinaryOp):
            return infix(
                self.operator(node.op),
                self.write(node.left),
                _op_of(node.left),
                self.write(node.right),
                _op_of(node.right),
                node.op,
            )
        if isinstance(node, Label):
            return self.label(node)
        if isinstance(node, Group):
            return self.group(node)
        if isinstance(node, PooledKeep):
            if self.dialect.name != "roll20":
                raise Unspellable("keeping the dice of one group ({4d6+3d8}k4)", self.dialect)
            pools = " + ".join(self.term(pool) for pool in node.pools)
            return "{" + pools + "}" + self.keep(node.keep)
        if isinstance(node, ComputedDice):
            if not self.dialect.computed_dice:
                raise Unspellable("computed dice ((1d4)d6)", self.dialect)
            count = self.write(node.count)
            if not (isinstance(node.count, Integer) and not isinstance(node.sides, Integer)):
                count = f"({count})"  # `2d(1d6)`, but `(2)d6` is not `2d6`'s tree
            return f"{count}d{self.computed_sides(node)}"
        if isinstance(node, Call):
            if node.function not in self.dialect.functions:
                raise Unspellable(f"the function {node.function}()", self.dialect)
            return f"{node.function}({self.write(node.operand)})"
        return self.term(node)

    def group(self, node: Group) -> str:
        """`{a, b}kh1>3`, or d20's set `(a, b)kh1` (`(a,)` for one member)."""
        members = ", ".join(self.write(member) for member in node.members)
        if self.dialect.groups == "braces":
            text = "{" + members + "}"
        elif self.dialect.groups == "sets":
            text = f"({members}{',' if len(node.members) == 1 else ''})"
        else:
            raise Unspellable("grouped rolls", self.dialect)
        if node.keep is not None:
            text += self.keep(node.keep)
        if node.pick is not None:
            text += self.pick(node.pick)
        if node.success is not None:
            text += self.success(node.success)
        if node.failure is not None:
            text += self.failure(node.failure)
        return text

    def name(self, name: str) -> str:
        """A value given when rolling: `STR`, Roll20's `@{STR}`, Foundry's `@STR`."""
        values, plain = self.dialect.values, _WORD.fullmatch(name) is not None
        if values == "at":
            return f"@{name}"
        if values == "braces" and plain:
            return "@{" + name + "}"
        if self.dialect.names and plain:
            return name
        feature = "names bound when rolling" if plain else f"a value's path ({name})"
        raise Unspellable(feature, self.dialect)

    def label(self, node: Label) -> str:
        """`2d6[fire]` (parenthesised where the label would bind to a smaller term), or the
        trailing words of a comment."""
        inner = self.write(node.operand)
        if node.trailing:
            if self.dialect.trailing_text and node.text[:1].isalpha():
                return f"{inner} {node.text}"
            if self.dialect.trailing_text:  # Roll20's backslash before words not a formula's
                return f"{inner} \\ {node.text}"
            if self.dialect.comment_mark is not None:
                return f"{inner} {self.dialect.comment_mark} {node.text}"
            raise Unspellable("words after the expression", self.dialect)
        if not self.dialect.labels:
            raise Unspellable("labels", self.dialect)
        if isinstance(node.operand, BinaryOp | Negate) or (
            isinstance(node.operand, Label) and node.operand.trailing
        ):
            inner = f"({inner})"
        return f"{inner}[{node.text}]"

    def operator(self, op: str) -> str:
        dialect = self.dialect
        if op in ("+", "-", "*"):
            return op
        if op in COMPARISONS:
            if not dialect.comparisons:
                raise Unspellable("comparisons as values (1d20 >= 10)", dialect)
            return op
        if op in ("rem", "mod"):
            if dialect.remainder != op:
                raise Unspellable(_REMAINDERS[op], dialect)
            return "%"
        if op == "**":
            if not dialect.power:
                raise Unspellable("powers (**)", dialect)
            return op
        if op == "/":
            if dialect.division == "floor":
                return "/"
            if dialect.floor_division:
                return "//"
            raise Unspellable("whole-number division rounded down", dialect)
        if dialect.division == "exact":
            return "/"
        raise Unspellable("exact division (fractions)", dialect)

    def term(self, node: Dice | UsageDie | RiskDice) -> str:
        """The text of one dice term, modifiers in the order they take effect."""
        dialect = self.dialect
        if isinstance(node, UsageDie | RiskDice):
            if not dialect.dead_weight:
                raise Unspellable("Dead Weight's usage and risk dice", dialect)
            return f"Ud{node.size}" if isinstance(node, UsageDie) else f"{node.count}d!"
        if node.faces == COIN_FACES:
            if not dialect.coins:
                raise Unspellable("Foundry's coins (4dc)", dialect)
            call = "" if node.success is None else f"c{node.success.target}"
            return f"{node.count}dc{call}"
        marks = (node.failure, node.critical, node.fumble, node.order)
        if node.plain and marks == (None, None, None, None):
            return f"{node.count}d{node.sides}"  # no modifier to spell
        return f"{node.count}d{self.sides(node)}" + self.modifiers(node)

    def modifiers(self, node: Dice) -> str:
        """A pool's modifiers, in the order they take effect."""
        if node.reroll_place is not None:
            if not self.dialect.picks:
                raise Unspellable("re-rolling the lowest or highest dice (rol1)", self.dialect)
            place = node.reroll_place.place
            op = "ra" if node.reroll_place.adds else "ro"
            return f"{op}{'l' if place.mode == 'kl' else 'h'}{place.count}"
        reroll = self.rerolls(node.reroll) if node.reroll else ""
        reroll += self.bounds(node)
        explode = self.explode(node.explode, node.sides) if node.explode else ""
        keep = self.keep(node.keep) if node.keep else ""
        if node.pick is not None:
            keep += self.pick(node.pick)
        count = self.success(node.success) if node.success else ""
        if node.failure is not None and node.deduct is None:
            count += self.failure(node.failure)
        if node.deduct is not None:
            count += self.deduction(node.deduct, node.failure)
        count += self.criticals(node)
        if node.order is not None:
            count += self.order(node.order)
        parts = [reroll, explode, keep, count]
        if explode and not explode[-1].isdigit() and not keep and count[:1] in ("=", "<", ">"):
            # "8d6!>=5" would read as exploding on 5+; the count goes first: "8d6>=5!".
            parts = [reroll, count, explode]
        return "".join(parts)

    def computed_sides(self, node: ComputedDice) -> str:
        """The sides of `(1d4)d6kh1` with its modifiers, or the `(1d6)` of `2d(1d6)`."""
        if not isinstance(node.sides, Integer):
            return f"({self.write(node.sides)})"
        modifiers = "" if node.modifiers is None else self.modifiers(node.modifiers)
        return f"{node.sides.value}{modifiers}"

    def bounds(self, node: Dice) -> str:
        """Per-die minimum, then maximum, in the dialect's spelling."""
        limits = (("minimum", node.minimum), ("maximum", node.maximum))
        return self.family(self.dialect.bounds, limits, "per-die minimum and maximum", str)

    def family(
        self,
        spellings: dict[str, str],
        written: tuple[tuple[str, Any], ...],
        feature: str,
        argument: Callable[[Any], str],
    ) -> str:
        """The modifiers of one family a term has (minimum and maximum, critical and fumble),
        each spelled as the dialect's table says, followed by its argument."""
        text = ""
        for kind, value in written:
            if value is None:
                continue
            spelled = next((s for s, k in spellings.items() if k == kind), None)
            if spelled is None:
                raise Unspellable(feature, self.dialect)
            text += spelled + argument(value)
        return text

    def sides(self, node: Dice) -> str:
        if node.faces is None:
            return str(node.sides)
        if node.faces == TENS_FACES and self.dialect.percent == "tens":
            return "%"
        if node.faces != FATE_FACES or self.dialect.fate is None:
            feature = "Fate dice" if node.faces == FATE_FACES else "d20's tens die (d%)"
            raise Unspellable(feature, self.dialect)
        return self.dialect.fate

    def compare(self, compare: Compare, bare: bool) -> str:
        """A compare point in the dialect's spelling; `bare` lets "equal to" be a bare face."""
        spellings = self.dialect.compares
        op, target = compare.op, compare.target
        if op == "=" and bare:
            return str(target)
        for spelled, meant in spellings.items():
            if meant == op:
                return f"{spelled}{target}"
        # The same faces with the other kind of inequality: > 3 is >= 4, <= 2 is < 3.
        other = {">": (">=", 1), ">=": (">", -1), "<": ("<=", -1), "<=": ("<", 1)}.get(op)
        if other is not None:
            for spelled, meant in spellings.items():
                if meant == other[0]:
                    return f"{spelled}{target + other[1]}"
        raise Unspellable(f"the compare point {compare}", self.dialect)

    def rerolls(self, reroll: Reroll) -> str:
        """A pool's re-rolls, each applied to what the one before left; where the dialect
        joins re-rolls of one kind, two such side by side have no spelling."""
        steps = reroll.steps
        joins = self.dialect.reroll_union
        if len(steps) > 1 and not self.dialect.reroll_sequence:
            raise Unspellable(_ONE_AFTER_ANOTHER, self.dialect)
        if joins and any(a.once == b.once for a, b in pairwise(steps)):
            raise Unspellable(_ONE_AFTER_ANOTHER, self.dialect)
        return "".join(self.reroll(step) for step in steps)

    def reroll(self, reroll: Reroll) -> str:
        spelled = _spelling_of(self.dialect.rerolls, reroll.once)
        if spelled is None:
            raise Unspellable(
                "re-rolling once" if reroll.once else "re-rolling until", self.dialect
            )
        when = reroll.when
        if reroll.limit is not None:
            return spelled + self.limit(reroll.limit) + self.compare(when, bare=False)  # type: ignore[arg-type]
        points = when.points if isinstance(when, AnyOf) else (when,)
        return "".join(spelled + self.compare(point, bare=True) for point in points)

    def limit(self, limit: int) -> str:
        """Foundry's count of re-rolls or explosions over the pool, before the compare point."""
        if not self.dialect.pool_limits:
            raise Unspellable(_POOL_LIMIT, self.dialect)
        return str(limit)

    def explode(self, explode: Explode, sides: int) -> str:
        dialect = self.dialect
        once = explode.depth == 1 and not dialect.explosion_bound
        single = once and explode.limit == 1 and not dialect.pool_limits
        wanted = (explode.separate, explode.penetrating, once, single)
        spelled = next(
            (
                text
                for text, meaning in dialect.explosions.items()
                if (meaning.separate, meaning.penetrating, meaning.once, meaning.single) == wanted
            ),
            None,
        )
        if spelled is None:
            raise Unspellable(_explosion_name(explode), dialect)
        if explode.limit is not None and not single:
            on = explode.on or Compare("=", sides)
            if isinstance(on, AnyOf):
                raise Unspellable("an explosion on several faces with a limit", dialect)
            spelled += self.limit(explode.limit) + self.compare(on, bare=False)
        elif isinstance(explode.on, AnyOf):  # d20's joined `e5e6`
            kind = spelled
            spelled = "".join(kind + self.compare(on, bare=True) for on in explode.on.points)
        elif explode.on is not None:
            spelled += self.compare(explode.on, bare=dialect.bare_equals)
        elif dialect.name == "avrae":
            spelled += str(sides)
        if explode.depth is not None and not once:
            if not dialect.explosion_bound:
                raise Unspellable("a bound on the follow-ups of an explosion (:N)", dialect)
            spelled += f":{explode.depth}"
        return spelled

    def pick(self, pick: Pick) -> str:
        """d20's `k3`, `p<2` (`k3k4` for several faces)."""
        spelled = next((s for s, keeps in self.dialect.picks.items() if keeps == pick.keep), None)
        if spelled is None:
            raise Unspellable("keeping or dropping dice by face (k3)", self.dialect)
        points = pick.when.points if isinstance(pick.when, AnyOf) else (pick.when,)
        return "".join(spelled + self.compare(point, bare=True) for point in points)

    def keep(self, keep: Keep) -> str:
        spelled = next(
            (
                text
                for text, mode in self.dialect.keeps.items()
                if mode == keep.mode and len(text) == 2
            ),
            None,
        )
        if spelled is None:
            raise Unspellable(f"the keep/drop {keep.mode}", self.dialect)
        return f"{spelled}{keep.count}"

    def success(self, compare: Compare) -> str:
        counts = self.dialect.counts
        if compare.op in ("even", "odd"):
            if compare.op not in counts:
                raise Unspellable("counting even or odd dice", self.dialect)
            return compare.op
        spelled = next((text for text, kind in counts.items() if kind in ("", "cs")), None)
        if spelled is None:
            raise Unspellable("counting successes", self.dialect)
        return spelled + self.compare(compare, bare=bool(spelled) and self.dialect.bare_equals)

    def criticals(self, node: Dice) -> str:
        """Roll20's critical success and failure points, `cs>19cf<2` (`cs20cs10`: several)."""
        points = tuple(
            (kind, point)
            for kind, mark in (("critical", node.critical), ("fumble", node.fumble))
            if mark is not None
            for point in (mark.points if isinstance(mark, AnyOf) else (mark,))
        )
        return self.family(
            self.dialect.criticals,
            points,
            "critical success and failure points (cs, cf)",
            lambda point: self.compare(point, bare=self.dialect.bare_equals),
        )

    def order(self, order: str) -> str:
        """Roll20's `sa` or `sd`."""
        spelled = next(
            (s for s, meant in self.dialect.sorts.items() if meant == order and len(s) == 2), None
        )
        if spelled is None:
            raise Unspellable("sorting the dice (sa, sd)", self.dialect)
        return spelled

    def deduction(self, deduct: str, failure: Compare | None) -> str:
        """Foundry's `df` or `sf`, with the faces that fail when they are written."""
        spelled = next((s for s, kind in self.dialect.deducts.items() if kind == deduct), None)
        if spelled is None:
            raise Unspellable("failures taken away (df, sf)", self.dialect)
        if failure is None:
            return spelled
        return spelled + self.compare(failure, bare=self.dialect.bare_equals)

    def failure(self, compare: Compare) -> str:
        if "f" not in self.dialect.counts:
            raise Unspellable("failures taken from a count", self.dialect)
        return "f" + self.compare(compare, bare=self.dialect.bare_equals)


_ONE_AFTER_ANOTHER = "re-rolls of one kind applied one after another (Foundry's r1r3)"

_POOL_LIMIT = "a re-roll or explosion limited to a count over the pool (Foundry's r2=1)"

_REMAINDERS = {
    "rem": "the remainder signed as the dividend (JavaScript's %)",
    "mod": "the remainder signed as the divisor (Python's %)",
}


def _spelling_of(table: dict[str, bool], once: bool) -> str | None:
    return next((text for text, meaning in table.items() if meaning == once), None)


def _explosion_name(explode: Explode) -> str:
    kind = "separate" if explode.separate else "compounding"
    return f"{'penetrating ' if explode.penetrating else ''}{kind} explosions"


@lru_cache(maxsize=64)
def _spells(dialect: Dialect, feature: str) -> bool:
    """Whether `dialect` spells `feature` (by the name `Unspellable` gives it)."""
    probes = {
        "exact division (fractions)": dialect.division == "exact",
        "whole-number division rounded down": dialect.division == "floor" or dialect.floor_division,
        "names bound when rolling": dialect.names or dialect.values is not None,
        "Dead Weight's usage and risk dice": dialect.dead_weight,
        "counting successes": bool(dialect.counts),
        "counting even or odd dice": "even" in dialect.counts,
        "failures taken from a count": "f" in dialect.counts,
        "failures taken away (df, sf)": bool(dialect.deducts),
        "computed dice ((1d4)d6)": dialect.computed_dice,
        _POOL_LIMIT: dialect.pool_limits,
        _ONE_AFTER_ANOTHER: dialect.reroll_sequence and not dialect.reroll_union,
        "keeping or dropping dice by face (k3)": bool(dialect.picks),
        "labels": dialect.labels,
        "grouped rolls": dialect.groups is not None,
        "Fate dice": dialect.fate is not None,
        "d20's tens die (d%)": dialect.percent == "tens",
        "per-die minimum and maximum": bool(dialect.bounds),
        "words after the expression": dialect.trailing_text or dialect.comment_mark is not None,
        "powers (**)": dialect.power,
        "critical success and failure points (cs, cf)": bool(dialect.criticals),
        "sorting the dice (sa, sd)": bool(dialect.sorts),
        _REMAINDERS["rem"]: dialect.remainder == "rem",
        _REMAINDERS["mod"]: dialect.remainder == "mod",
        "a bound on the follow-ups of an explosion (:N)": dialect.explosion_bound,
        "rounding toward zero (d20 rounds its total so)": dialect.truncate_total,
        "a total that is a fraction (d20 rounds its total toward zero)": (
            dialect.division == "exact" and not dialect.truncate_total
        ),
    }
    if feature in probes:
        return probes[feature]
    if feature.startswith("the function "):
        return feature.removeprefix("the function ").removesuffix("()") in dialect.functions
    if feature.endswith("explosions"):
        separate = "separate" in feature
        penetrating = feature.startswith("penetrating")
        return any(
            (meaning.separate, meaning.penetrating) == (separate, penetrating)
            for meaning in dialect.explosions.values()
        )
    return False


def _op_of(node: Node) -> str | None:
    return node.op if isinstance(node, BinaryOp) else None


def infix(
    op: str,
    left: str,
    left_op: str | None,
    right: str,
    right_op: str | None,
    tree_op: str | None = None,
) -> str:
    """Join two operands with the fewest parentheses that keep the tree's shape.

    `left_op`/`right_op` are the tree's operators at the top of each operand (None for a
    leaf); `op` is the operator as written, `tree_op` the tree's (when they differ)."""
    level = _PRECEDENCE[tree_op or op]
    right_grouped = op == "**"  # `2 ** 3 ** 2` is `2 ** (3 ** 2)`
    looser = left_op is not None and _PRECEDENCE[left_op] < level + right_grouped
    if looser or (right_grouped and left.startswith("-")):  # `-2 ** 2` is refused as unclear
        left = f"({left})"
    if right_op is not None and _PRECEDENCE[right_op] < level + (not right_grouped):
        right = f"({right})"
    return f"{left} {op} {right}"
