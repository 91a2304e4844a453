"""Properties of every dialect: its spelling of a tree reads back as that tree, the reading
keeps the law, and exact odds agree with 100,000 seeded samples within their error."""

from __future__ import annotations

import contextlib
from dataclasses import replace

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.dice import DIALECTS, distribution, notation, parse, sample
from tabletop.dice.spelling import Unspellable
from tabletop.dice.syntax import (
    FATE_FACES,
    BinaryOp,
    Compare,
    Dice,
    Explode,
    Integer,
    Negate,
    Node,
    Pick,
    Reroll,
)
from tabletop.errors import LimitError, NotationError, TabletopError
from tests.dice.test_properties import dice_terms
from tests.effort import tried


@st.composite
def pools(draw: st.DrawFn) -> Dice:
    """A pool of any dialect: tabletop's, or with explosions that add dice of their own."""
    term = draw(dice_terms(max_count=3, max_sides=6, max_depth=2))
    if draw(st.booleans()):  # Roll20's critical points and sorting: shown only
        high, low = draw(st.integers(1, term.sides)), draw(st.integers(1, term.sides))
        order = draw(st.sampled_from(["ascending", "descending", None]))
        term = replace(term, critical=Compare(">=", high), fumble=Compare("<=", low), order=order)
    if term.reroll is None and term.explode is None and draw(st.booleans()):
        return replace(term, sides=3, faces=FATE_FACES)  # Fate dice: keep and count only
    if term.explode is None and draw(st.booleans()):
        low = draw(st.integers(0, term.sides))
        return replace(term, minimum=low, maximum=draw(st.none() | st.integers(low, 8)))
    if term.explode is not None and draw(st.booleans()):
        explode = term.explode
        depth = draw(st.sampled_from([None, 1]))
        every = explode.on is not None and explode.on.count(term.sides) == term.sides
        if not every:
            term = replace(term, explode=Explode(explode.on, explode.penetrating, depth, True))
    if term.reroll is not None and draw(st.booleans()):  # Foundry's r1r3: one after another
        after = Reroll(Compare("=", draw(st.integers(1, term.sides))), draw(st.booleans()))
        if after.once or term.sides > 1:
            term = replace(term, reroll=replace(term.reroll, then=after))
    if term.keep is None and draw(st.booleans()):  # d20's k3, p<2
        when = Compare(draw(st.sampled_from(["=", "<", ">"])), draw(st.integers(1, term.sides)))
        term = replace(term, pick=Pick(when, draw(st.booleans())))
    plain_faces = term.faces is None and not term.mapped
    if plain_faces and (term.explode is None or term.explode.separate) and draw(st.booleans()):
        bare = term.success is not None and draw(st.booleans())  # Foundry's df, sf
        failing = None if bare else Compare("<=", draw(st.integers(1, term.sides)))
        term = replace(term, deduct=draw(st.sampled_from(["one", "face"])), failure=failing)
    return term


def trees() -> st.SearchStrategy[Node]:
    return st.recursive(
        st.integers(0, 9).map(Integer) | pools(),
        lambda children: (
            children.map(Negate)
            | st.builds(
                BinaryOp,
                st.sampled_from(["+", "-", "*", "/", "÷", "rem", "mod", "**"]),
                children,
                children,
            )
        ),
        max_leaves=3,
    )


def spelled(tree: Node, dialect: str) -> str | None:
    try:
        return notation(tree, dialect)
    except Unspellable:
        return None


@settings(max_examples=tried(150), deadline=None)
@given(trees())
def test_each_dialects_spelling_reads_back_as_its_tree(tree):
    for name in DIALECTS:
        text = spelled(tree, name)
        if text is None:
            continue
        try:
            read = parse(text, name)
        except (NotationError, LimitError):
            # Only limits and unspellable combinations may refuse; say which.
            continue
        assert parse(notation(read, name), name) == read, (name, text)


@settings(max_examples=tried(100), deadline=None)
@given(trees())
def test_a_dialects_spelling_keeps_the_law(tree):
    first = next((name for name in DIALECTS if spelled(tree, name) is not None), None)
    if first is None:
        return
    try:
        law = distribution(tree, dialect=first)
    except TabletopError:  # past the limits, or dividing by zero
        return
    for name in DIALECTS:
        text = spelled(tree, name)
        if text is None:
            continue
        with contextlib.suppress(NotationError, LimitError):
            assert distribution(text, dialect=name) == law, (name, text)


SAMPLED = [
    ("roll20", "5d10!k2"),
    ("roll20", "3d6!>5d1>4"),
    ("roll20", "2d6!p + 7/2"),
    ("roll20", "6dFkh3 + 4dF>1"),
    ("roll20", "5d6!k3>4f1"),
    ("roll20", "{4d6, 3d8}kh1 + {3d6+3}>15 + {2d4!}>3f1"),
    ("avrae", "(1d20, 1d20)kh1 / 2"),
    ("foundry", "6d6xeven + 4d6ms>10"),
    ("foundry", "6d6xo>=5dh2cs>=4"),
    ("foundry", "3d8rkh2 / 2"),
    ("foundry", "6d6xkh4cs>3df=1 + 4d6sf<3"),
    ("foundry", "20d6r2=1 + 5d6rr1x2>=5 + 4d6xo1=6"),
    ("roll20", "(1d4)d6 + (2d2 - 2)d3"),
    ("foundry", "(1d3)d6xkh2 + 2d(1d4)"),
    ("roll20", "{4d6+3d8}k4 + {2d10}dl1"),
    ("roll20", "4d8r1r3r5kh3 + 3d6ro<2ro6"),
    ("avrae", "4d6e6kh3 / 3"),
    ("tabletop", "floor(3d6 * 2 / 4) - round(-1d4)"),
    ("roll20", "2 ** (1d4 - 2) + 3d6 % 4"),
    ("foundry", "(2d6 - 7) % 3 + 1d6 / 4 % 1"),
    ("avrae", "(1d10 - 5) % 1d4 + 1d8 / 3 % 2"),
]


@settings(max_examples=tried(7), deadline=None)
@given(st.sampled_from(SAMPLED), st.integers(0, 2**32 - 1))
def test_exact_odds_agree_with_a_hundred_thousand_samples(case, seed):
    dialect, text = case
    odds = distribution(text, dialect=dialect)
    totals = sample(text, 100_000, seed=seed, dialect=dialect)
    values, counts = np.unique(totals, return_counts=True)
    assert set(values.tolist()) <= set(odds.outcomes)
    seen = dict(zip(values.tolist(), counts.tolist(), strict=True))
    for value, chance in odds:
        expected = float(chance) * 100_000
        spread = (expected * (1 - float(chance))) ** 0.5
        assert abs(seen.get(value, 0) - expected) <= 5 * spread + 3, (value, chance)
