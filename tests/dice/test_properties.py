"""Properties of the notation, the roller and the exact odds over random expressions."""

from __future__ import annotations

import contextlib

from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.dice import SeededDice, distribution, notation, parse, roll
from tabletop.dice.parser import parse_with_names
from tabletop.dice.syntax import (
    USAGE_DIE_SIZES,
    AnyOf,
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
    children,
)
from tabletop.errors import LimitError, NotationError
from tests.dice.brute import enumerate_odds
from tests.effort import tried

COMPARE_OPS = ["=", "<", "<=", ">", ">="]
NAMES = {"STR": 2, "AGI": -1, "WIT_2": 0}


@st.composite
def dice_terms(draw: st.DrawFn, max_count: int = 4, max_sides: int = 8, max_depth: int = 3) -> Dice:
    """A well-formed pool: only modifiers the parser accepts for its size."""
    count = draw(st.integers(1, max_count))
    sides = draw(st.integers(1, max_sides))

    def compare(need_some: bool) -> Compare:
        op = draw(st.sampled_from(COMPARE_OPS))
        target = draw(st.integers(0, sides + 1))
        when = Compare(op, target)
        if need_some and not when.faces(sides):
            when = Compare("=", draw(st.integers(1, sides)))
        return when

    reroll = None
    if draw(st.booleans()):
        once = draw(st.booleans())
        when: Compare | AnyOf = compare(need_some=True)
        if draw(st.booleans()):  # several re-rolls of one kind: `r1r3`
            when = AnyOf((when, compare(need_some=True)))
        if not once and len(when.faces(sides)) == sides:
            once = True
        reroll = Reroll(when, once)
    explode = None
    if draw(st.booleans()):
        on = compare(need_some=True) if draw(st.booleans()) else None
        explode = Explode(on, draw(st.booleans()), draw(st.none() | st.integers(1, max_depth)))
    keep = None
    if draw(st.booleans()):
        mode = draw(st.sampled_from(["kh", "kl", "dh", "dl"]))
        number = (
            draw(st.integers(1, count)) if mode in ("kh", "kl") else draw(st.integers(0, count - 1))
        )
        keep = Keep(mode, number)
    success = compare(need_some=False) if draw(st.booleans()) else None
    return Dice(count, sides, reroll, explode, keep, success)


def trees(pool: st.SearchStrategy[Dice], max_leaves: int) -> st.SearchStrategy[Node]:
    leaves = st.one_of(
        st.integers(0, 20).map(Integer),
        st.sampled_from(sorted(NAMES)).map(Name),
        pool,
        st.sampled_from(USAGE_DIE_SIZES).map(UsageDie),
        st.integers(1, 3).map(RiskDice),
    )
    return st.recursive(
        leaves,
        lambda children: st.one_of(
            children.map(Negate),
            st.builds(BinaryOp, st.sampled_from(["+", "-", "*"]), children, children),
        ),
        max_leaves=max_leaves,
    )


@settings(max_examples=tried(1500))
@given(trees(dice_terms(), max_leaves=12))
def test_printing_and_parsing_give_back_the_same_tree(tree):
    assert parse(notation(tree)) == tree


@settings(max_examples=tried(300))
@given(trees(dice_terms(), max_leaves=12))
def test_the_names_a_roll_needs_are_every_name_in_its_tree(tree):
    """The parser gathers the names as it reads, and a roll asks for exactly those before it
    starts: one missed would roll with a name unbound, one too many would refuse a roll."""
    assert parse_with_names(notation(tree)) == (tree, frozenset(_names_in(tree)))


def _names_in(node: Node) -> set[str]:
    if isinstance(node, Name):
        return {node.name}
    return set().union(*(_names_in(child) for child in children(node)))


@given(trees(dice_terms(max_count=3, max_sides=6), max_leaves=4), st.integers(0, 2**32))
def test_every_rolled_total_is_a_possible_outcome(tree, seed):
    odds = distribution(tree, NAMES)
    rolled = roll(tree, SeededDice(seed), names=NAMES)
    assert odds.probability(rolled.total) > 0


def _tiny(term: Dice) -> bool:
    """Small enough to enumerate: no re-roll-until, a short explosion bound, few dice."""
    explosions_bounded = term.explode is None or term.explode.depth is not None
    rerolls_bounded = term.reroll is None or term.reroll.once
    return explosions_bounded and rerolls_bounded and term.count * term.sides <= 8


@given(trees(dice_terms(max_count=2, max_sides=4, max_depth=2).filter(_tiny), max_leaves=2))
def test_exact_odds_equal_brute_force_on_random_small_expressions(tree):
    assert dict(distribution(tree, NAMES)) == enumerate_odds(notation(tree), NAMES)


ALPHABET = "0123456789dDkhlrop!%<>=+-*/() adisUSTR:#"


@given(st.text(alphabet=ALPHABET, max_size=30) | st.text(max_size=30))
def test_random_text_parses_or_raises_the_notation_error(text):
    with contextlib.suppress(NotationError, LimitError):
        parse(text)
