"""Dice notation: every form of docs/dice-notation.md parses to the tree it means."""

from __future__ import annotations

import pytest

from tabletop.dice import notation, parse
from tabletop.dice.syntax import (
    BinaryOp,
    Compare,
    Dice,
    Explode,
    Integer,
    Keep,
    Name,
    Negate,
    Reroll,
    RiskDice,
    UsageDie,
)
from tabletop.errors import LimitError, NotationError


@pytest.mark.parametrize(
    ("text", "tree"),
    [
        ("7", Integer(7)),
        ("3d6", Dice(3, 6)),
        ("d20", Dice(1, 20)),
        ("D20", Dice(1, 20)),
        ("d%", Dice(1, 100)),
        ("1d100", Dice(1, 100)),
        ("4d6kh3", Dice(4, 6, keep=Keep("kh", 3))),
        ("4d6k3", Dice(4, 6, keep=Keep("kh", 3))),
        ("4d6k", Dice(4, 6, keep=Keep("kh", 1))),
        ("4d6kl1", Dice(4, 6, keep=Keep("kl", 1))),
        ("4d6dl1", Dice(4, 6, keep=Keep("dl", 1))),
        ("4d6dh2", Dice(4, 6, keep=Keep("dh", 2))),
        ("d20adv", Dice(2, 20, keep=Keep("kh", 1))),
        ("d20dis", Dice(2, 20, keep=Keep("kl", 1))),
        ("d20adv2", Dice(3, 20, keep=Keep("kh", 1))),
        ("2d6dis", Dice(3, 6, keep=Keep("kl", 2))),
        ("d6!", Dice(1, 6, explode=Explode())),
        ("d6!>=5", Dice(1, 6, explode=Explode(Compare(">=", 5)))),
        ("d6!=1", Dice(1, 6, explode=Explode(Compare("=", 1)))),
        ("d6!:3", Dice(1, 6, explode=Explode(depth=3))),
        ("d6!p", Dice(1, 6, explode=Explode(penetrating=True))),
        ("d8!p>7:4", Dice(1, 8, explode=Explode(Compare(">", 7), True, 4))),
        ("d6r1", Dice(1, 6, reroll=Reroll(Compare("=", 1), once=False))),
        ("d6r<3", Dice(1, 6, reroll=Reroll(Compare("<", 3), once=False))),
        ("d6ro<=2", Dice(1, 6, reroll=Reroll(Compare("<=", 2), once=True))),
        ("8d6>=4", Dice(8, 6, success=Compare(">=", 4))),
        ("8d6=6", Dice(8, 6, success=Compare("=", 6))),
        ("8d6<2", Dice(8, 6, success=Compare("<", 2))),
        ("4d6kh3r1!", Dice(4, 6, Reroll(Compare("=", 1), False), Explode(), Keep("kh", 3))),
        ("Ud8", UsageDie(8)),
        ("Ud20", UsageDie(20)),
        ("2d!", RiskDice(2)),
        ("d!", RiskDice(1)),
        ("STR", Name("STR")),
        ("2d6+STR", BinaryOp("+", Dice(2, 6), Name("STR"))),
        ("1 + 2 * 3", BinaryOp("+", Integer(1), BinaryOp("*", Integer(2), Integer(3)))),
        ("(1 + 2) * 3", BinaryOp("*", BinaryOp("+", Integer(1), Integer(2)), Integer(3))),
        ("7 / 2", BinaryOp("/", Integer(7), Integer(2))),
        ("1 - 2 - 3", BinaryOp("-", BinaryOp("-", Integer(1), Integer(2)), Integer(3))),
        ("-d4", Negate(Dice(1, 4))),
        ("1d6 - -3", BinaryOp("-", Dice(1, 6), Negate(Integer(3)))),
        ("  1d20 +5 ", BinaryOp("+", Dice(1, 20), Integer(5))),
    ],
)
def test_each_form_parses_to_its_tree(text, tree):
    assert parse(text) == tree


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("d20", "1d20"),
        ("d%", "1d100"),
        ("4d6k3", "4d6kh3"),
        ("d20adv+5", "2d20kh1 + 5"),
        ("4d6!kh3r1", "4d6r1!kh3"),
        ("(1+2)*3", "(1 + 2) * 3"),
        ("1-(2-3)", "1 - (2 - 3)"),
        ("(1-2)-3", "1 - 2 - 3"),
        ("-(1+2)", "-(1 + 2)"),
        ("2*(3/4)", "2 * (3 / 4)"),
        ("d!", "1d!"),
        ("d6r=1", "1d6r1"),
    ],
)
def test_printing_gives_the_canonical_equivalent(text, canonical):
    assert notation(parse(text)) == canonical
    assert parse(canonical) == parse(text)


@pytest.mark.parametrize(
    ("text", "position", "words"),
    [
        ("", 0, "empty"),
        ("   ", 3, "empty"),
        ("4d6kx", 4, "operator"),
        ("4d6k+", 5, "expected a number"),
        ("2d", 2, "number of sides"),
        ("(1+2", 4, "close"),
        ("1+2)", 3, "no matching"),
        ("d0", 1, "at least one side"),
        ("0d6", 0, "at least one die"),
        ("3d6r<=6", 4, "never stop"),
        ("3d6r7", 4, "never rolls"),
        ("d6!>6", 3, "never explode"),
        ("d6!:0", 4, "between 1 and"),
        ("Ud7", 2, "usage die"),
        ("4d6kh5", 3, "keep between 1 and 4"),
        ("4d6dl4", 3, "drop between 0 and 3"),
        ("4d6dx", 4, "'h' or 'l'"),
        ("1 2", 2, "operator"),
        ("4d6kh3kh2", 6, "already has"),
        ("d20adv0", 3, "at least one extra"),
        ("2 * * 3", 4, "expected a number"),
        ("1d6$", 3, "operator"),
        ("d20advkh1", 6, "already has"),
    ],
)
def test_a_parse_error_points_at_the_character(text, position, words):
    with pytest.raises(NotationError) as caught:
        parse(text)
    assert caught.value.position == position
    assert words in str(caught.value)


def test_the_error_message_names_the_character_on_one_line():
    with pytest.raises(NotationError) as caught:
        parse("4d6kx")
    message = str(caught.value)
    assert "character 5 ('x')" in message
    assert "\n" not in message


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("1000000000d6", "limit is 10,000"),
        ("10001d6", "limit is 10,000"),
        ("5000d6 + 5001d6", "10,001 dice"),
        ("1d1000001", "sides"),
        ("(" * 10_000 + "1" + ")" * 10_000, "characters long"),
        ("(" * 400 + "1" + ")" * 400, "more than 100 parentheses and minus signs"),
        ("(" * 101 + "1" + ")" * 101, "at character 101"),
        ("-" * 200 + "1", "more than 100 parentheses and minus signs"),
        ("+".join(["1"] * 300), "stacks more than 250 operations"),
        ("500d1!", "could throw 10,500 dice"),
        ("1d1000r<1000", "re-rolls in this dice expression would expect"),
        ("1" * 1_000_001, "characters long"),
    ],
)
def test_inputs_past_the_limits_are_refused_before_any_work(text, words):
    with pytest.raises(LimitError) as caught:
        parse(text)
    assert words in str(caught.value)


def test_a_hundred_parentheses_and_a_long_flat_sum_are_fine():
    assert parse("(" * 100 + "1" + ")" * 100) == Integer(1)
    assert parse("+".join(["1"] * 200)).op == "+"


def test_an_explosion_bound_past_the_maximum_is_a_notation_error():
    with pytest.raises(NotationError, match="between 1 and 100"):
        parse("d6!:101")


def test_non_text_is_refused():
    with pytest.raises(NotationError):
        parse(42)  # type: ignore[arg-type]
