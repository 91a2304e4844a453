"""Each dialect reads its tool's notation as that tool's reference and tests define it.

Sources, cited per case below:
- ROLL20: Roll20's Dice Reference / Dice Specification (wiki.roll20.net/Dice_Reference; the
  same text is kept in CPAN's Games-Dice-Roll20 Spec.pod).
- FOUNDRY: Foundry VTT's `foundry.dice.terms.Die` modifier docstrings (as mirrored in
  League-of-Foundry-Developers/foundry-vtt-types src/foundry/client/dice/terms/die.d.mts)
  and its `DiceTerm.explode`/`reroll` source (target defaults, 1,000-result limit).
- D20: avrae/d20 1.1.2 (grammar.lark, expression.py) and its tests/test_dice.py.
Each case gives the law it must have: the same law as a tabletop expression, or its mean.
"""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from tabletop.dice import (
    FixedDice,
    distribution,
    notation,
    other_readings,
    parse,
    roll,
    sample,
)
from tabletop.errors import LimitError, NotationError, RollError
from tests.dice.brute import enumerate_odds

ROLL20 = "Roll20 Dice Reference"
FOUNDRY = "Foundry VTT Die modifiers"
D20 = "avrae/d20"

# (dialect, text, the tabletop text with the same law, source)
SAME_LAW_AS = [
    ("roll20", "3d6>3", "3d6>=3", f"{ROLL20}: Target Number, '3d6>3' counts dice of 3 or more"),
    ("roll20", "3d6<3", "3d6<=3", f"{ROLL20}: '<' is 'equal to or less than'"),
    ("roll20", "3d6!>4", "3d6!>=4", f"{ROLL20}: '3d6!>4' explodes on any die of 4 or more"),
    ("roll20", "3d6!3", "3d6!=3", f"{ROLL20}: '3d6!3' explodes only if a 3 is rolled"),
    ("roll20", "5d6!!", "5d6!", f"{ROLL20}: Compounding Exploding Dice, '5d6!!'"),
    ("roll20", "2d8r<2", "2d8r<=2", f"{ROLL20}: Rerolling Dice, '2d8r<2'"),
    ("roll20", "2d8ro<2", "2d8ro<=2", f"{ROLL20}: Reroll Once, '2d8ro<2'"),
    (
        "roll20",
        "2d8r1r3r5r7",
        "2d4*2",
        f"{ROLL20}: Rerolling Dice, '2d8r1r3r5r7' re-rolls every odd face (2, 4, 6, 8 stand)",
    ),
    (
        "roll20",
        "{3d6}k2",
        "3d6kh2",
        f"{ROLL20}: Group Rolls, a single roll in a group keeps or drops its dice",
    ),
    (
        "roll20",
        "{5d6!!}>8",
        "5d6>=8!",
        f"{ROLL20}: Compounding Exploding Dice, '{{5d6!!}}>8' compares each compounded die to 8",
    ),
    (
        "roll20",
        "{4d6+3d8+1}>5",
        "4d6>=4 + 3d8>=4",
        f"{ROLL20}: Single Sub-Roll, the math 'totaled into each roll' of every pool",
    ),
    (
        "roll20",
        "{3d6+1}<3",
        "3d6<=2",
        f"{ROLL20}: Target Number, '{{3d6+1}}<3' adds 1 to each die, then compares it to 3",
    ),
    ("roll20", "8d6r", "8d6r1", f"{ROLL20}: Rerolling Dice, '8d6r' re-rolls any 1"),
    (
        "roll20",
        "1d20+5 \\ +5 Roll for Initiative",
        "1d20+5",
        f"{ROLL20}: a backslash separates the formula from words with numbers in them",
    ),
    ("foundry", "3d6ms10", "3d6 - 10", "Foundry dice-modifiers: '3d6ms10' subtracts 10"),
    ("roll20", "8d10k4", "8d10kh4", f"{ROLL20}: Drop/Keep, '8d100k4' keeps the top 4"),
    ("roll20", "8d10d3", "8d10dl3", f"{ROLL20}: Drop/Keep, '8d100d3' drops the 3 lowest"),
    ("roll20", "4d6!p", "4d6!p", f"{ROLL20}: Penetrating Dice subtract 1 from each follow-up"),
    ("roll20", "floor(7/2)", "3", f"{ROLL20}: floor() rounds toward negative infinity"),
    ("roll20", "ceil(7/2)", "4", f"{ROLL20}: ceil() rounds toward positive infinity"),
    ("roll20", "round(5/2)", "3", f"{ROLL20}: round() rounds a fractional part of .5 up"),
    ("roll20", "round(-5/2)", "-2", f"{ROLL20}: round() rounds .5 toward positive infinity"),
    ("roll20", "abs(2-7)", "5", f"{ROLL20}: abs() is the absolute value"),
    ("roll20", "0d6", "0", f"{ROLL20}: Basic Roll, N must be 0 or more"),
    (
        "roll20",
        "{1d6, 5 + 0d0}kh1",
        "{1d6, 5}kh1",
        f"{ROLL20}: Grouped Rolls, '{{1d6, 5 + 0d0}}kh1'",
    ),
    ("roll20", "1d20+5[fire]", "1d20+5", f"{ROLL20}: Inline labels are shown, not rolled"),
    ("roll20", "1d8[slashing]+2d6[fire]", "1d8+2d6", f"{ROLL20}: a label for each term"),
    (
        "roll20",
        "1d20+5 Roll for Initiative",
        "1d20+5",
        f"{ROLL20}: '/roll 1d20+5 Roll for Initiative'",
    ),
    ("foundry", "2d6[fire] + 1d4", "2d6 + 1d4", "Foundry flavour text on a term"),
    ("foundry", "20d20r", "20d20ro1", f"{FOUNDRY}: '20d20r' re-rolls 1s (once; rr recurses)"),
    ("foundry", "20d20r=1", "20d20ro1", f"{FOUNDRY}: '20d20r=1' re-rolls all 1s"),
    ("foundry", "4d6rr1", "4d6r1", f"{FOUNDRY}: rr re-rolls recursively"),
    ("foundry", "20d20k", "20d20kh1", f"{FOUNDRY}: '20d20k' keeps the 1 highest die"),
    ("foundry", "20d20kl10", "20d20kl10", f"{FOUNDRY}: '20d20kl10' keeps the 10 lowest"),
    ("foundry", "20d20d", "20d20dl1", f"{FOUNDRY}: '20d20d' drops the 1 lowest die"),
    ("foundry", "20d20dh10", "20d20dh10", f"{FOUNDRY}: '20d20dh10' drops the 10 highest"),
    ("foundry", "20d20cs", "20d20=20", f"{FOUNDRY}: '20d20cs' counts dice that rolled a 20"),
    ("foundry", "20d20cs>10", "20d20>10", f"{FOUNDRY}: '20d20cs>10' counts higher than 10"),
    ("foundry", "20d20cs<10", "20d20<10", f"{FOUNDRY}: '20d20cs<10' counts less than 10"),
    ("foundry", "2d10x", "2d10!", f"{FOUNDRY}: x explodes the highest result (sums agree)"),
    ("foundry", "2d10x>=9", "2d10!>=9", f"{FOUNDRY}: x with a target explodes matching dice"),
    ("foundry", "3d6xo", "3d6!:1", f"{FOUNDRY}: xo explodes once (new dice never explode)"),
    ("avrae", "4d6kh3", "4d6kh3", f"{D20}: STANDARD_EXPRESSIONS '4d6kh3'"),
    ("avrae", "4d6pl1", "4d6dl1", f"{D20}: p drops (test_p_op 'ph1pl1')"),
    (
        "avrae",
        "4d6rol1",
        "4d6kh3 + 1d6",
        f"{D20}: test_ro_op '1d6rol1', ro with the selector l1 re-rolls the lowest die once",
    ),
    ("avrae", "5d8roh2", "5d8kl3 + 2d8", f"{D20}: README selectors, 'hX' the highest X values"),
    (
        "avrae",
        "4d6ral1",
        "5d6",
        f"{D20}: test_ra_op '1d6ral1', explode_once adds one die for the first die selected",
    ),
    ("avrae", "1d20rr<20", "20", f"{D20}: test_rr_op, '1d20rr<20' == 20"),
    ("avrae", "1d20rr>1", "1", f"{D20}: test_rr_op, '1d20rr>1' == 1"),
    ("avrae", "1d1ro1", "1", f"{D20}: test_ro_op, '1d1ro1' == 1"),
    ("avrae", "15 / 2", "7", f"{D20}: test_binop, '15 / 2' == 7"),
    ("avrae", "15 // 2", "7", f"{D20}: test_binop, '15 // 2' == 7"),
    ("avrae", "-7 / 2", "-3", f"{D20}: '/' divides exactly and the total is int(): -3.5 -> -3"),
    ("avrae", "-7 // 2", "-4", f"{D20}: '//' is Python's floor division"),
    ("avrae", "-+-++---+1", "-1", f"{D20}: test_unop, '-+-++---+1' == -1"),
    ("avrae", "0d6", "0", f"{D20}: test_dice, '0d6' == 0"),
    ("avrae", "2d6e6", "2d6!", f"{D20}: e explodes into new dice (sums agree)"),
    ("avrae", "10d6mi6", "60", f"{D20}: test_mi_op, '10d6mi6' == 60"),
    ("avrae", "10d6mi10", "100", f"{D20}: test_mi_op, '10d6mi10' == 100"),
    ("avrae", "10d6ma1", "10", f"{D20}: test_ma_op, '10d6ma1' == 10"),
    ("avrae", "10d6ma0", "0", f"{D20}: test_ma_op, '10d6ma0' == 0"),
    ("foundry", "6d6min2", "6d6min2", f"{FOUNDRY}: '6d6min2', each result at least 2"),
    ("foundry", "6d6cf", "6d6=1", f"{FOUNDRY}: '6d6cf' counts the dice that rolled a 1"),
    ("foundry", "6d6cf<=3", "6d6<=3", f"{FOUNDRY}: '6d6cf<=3' counts failures of 3 or less"),
    ("foundry", "6d6ms>12", "6d6 - 12", f"{FOUNDRY}: '6d6ms>12' subtracts 12 from the total"),
    ("foundry", "6d6ms<12", "12 - 6d6", f"{FOUNDRY}: ms< takes the total from the target"),
    ("foundry", "{1d20, 1d20}kh", "2d20kh1", "Foundry dice pools: {1d20, 1d20}kh keeps the best"),
    ("roll20", "{1d20, 1d20}kh1", "2d20kh1", f"{ROLL20}: Grouped rolls keep among totals"),
    ("avrae", "(1d20, 1d20)kh1", "2d20kh1", f"{D20}: sets, '(1d4, 2+2, 3d6kl1)kh1'"),
    ("avrae", "(1, 2, 3, 4, 5)kh2", "9", f"{D20}: test_selectors, '(1, 2, 3, 4, 5)kh2' == 9"),
    ("avrae", "(1, 2, 3, 4, 5)ph1", "10", f"{D20}: test_p_op, ph drops the highest"),
    ("avrae", "(1,)", "1", f"{D20}: test_set, '(1,)' == 1"),
    ("avrae", "(1, 1)", "2", f"{D20}: test_set, '(1, 1)' == 2"),
    ("foundry", "6d6max5", "6d6max5", f"{FOUNDRY}: '6d6max5', each result at most 5"),
    ("roll20", "7 % 3", "1", f"{ROLL20}: '%', the remainder of a / b"),
    ("roll20", "-7 % 3", "-1", f"{ROLL20}: '%' of a negative a is negative"),
    ("roll20", "7 % -3", "1", f"{ROLL20}: '%' of a whole a and b lies in [0, |b| - 1]"),
    ("roll20", "1d20 % 2", "1d2 - 1", f"{ROLL20}: 'a % 2' is 0 when a is even, 1 when odd"),
    ("roll20", "2 + 3 * 7 % 4", "3", f"{ROLL20}: '*', '/' and '%' left to right"),
    ("roll20", "2**3", "8", f"{ROLL20}: '**' is exponentiation"),
    ("roll20", "2 * 3 ** 2", "18", f"{ROLL20}: exponentiation before multiplication"),
    ("roll20", "2 ** 3 ** 2", "512", "JavaScript's '**' groups from the right (ECMA-262)"),
    ("roll20", "(-2) ** 3", "-8", f"{ROLL20}: parentheses first"),
    ("roll20", "1d6 ** 0", "1", "JavaScript: x ** 0 is 1"),
    ("foundry", "7 % 3", "1", "Foundry OperatorTerm '%', precedence 20 as '*' and '/'"),
    ("foundry", "-7 % 3", "-1", "Foundry evaluates operators as JavaScript does: -7 % 3 is -1"),
    ("foundry", "1d20 % 2 + 1", "1d2", "Foundry '%' on a roll's total"),
    ("roll20", "1d20cs>18 + 5", "1d20 + 5", f"{ROLL20}: critical points change only the display"),
    ("roll20", "3d6cf<3cs6", "3d6", f"{ROLL20}: 'cf<3' marks fumbles, 'cs6' criticals"),
    ("roll20", "2d20kh1cs>19", "2d20kh1", f"{ROLL20}: critical points after a keep"),
    ("roll20", "8d6s", "8d6", f"{ROLL20}: Sorting Dice, '8d6s' sorts ascending"),
    ("roll20", "4d6sdkh3", "4d6kh3", f"{ROLL20}: 'sd' sorts descending; the total stays"),
    (
        "roll20",
        "1d20cs20cs10",
        "1d20",
        f"{ROLL20}: Critical points, '1d20cs20cs10' shows a 20 or a 10 as critical",
    ),
    ("avrae", "()", "0", f"{D20}: README, '()' is an empty set"),
    ("avrae", "-7 % 3", "2", f"{D20}: BinOp '%' is Python's: signed as the divisor"),
    ("avrae", "7 % -3", "-2", f"{D20}: BinOp '%' is Python's"),
    ("avrae", "1d6 / 4 % 1", "0", f"{D20}: the fraction's remainder, then int() of the total"),
]


@pytest.mark.parametrize(("dialect", "text", "tabletop", "source"), SAME_LAW_AS)
def test_each_dialect_reads_its_tools_notation(dialect, text, tabletop, source):
    assert distribution(text, dialect=dialect) == distribution(tabletop), source


# (dialect, text, exact mean, source): meanings tabletop spells otherwise or not at all.
MEANS = [
    ("roll20", "7/2", Fraction(7, 2), f"{ROLL20}: '/' keeps the fraction"),
    ("foundry", "7/2", Fraction(7, 2), "Foundry formulas are JavaScript arithmetic"),
    ("avrae", "7/2", 3, f"{D20}: '15 / 2' == 7 (int() of the exact quotient)"),
    ("tabletop", "7/2", 3, "docs/dice-notation.md: '/' rounds down"),
    ("tabletop", "-7/2", -4, "docs/dice-notation.md: '/' rounds toward minus infinity"),
    ("roll20", "3d6>3", 2, f"{ROLL20}: a die of 3 or more is a success (mean 3 x 2/3)"),
    ("tabletop", "3d6>3", Fraction(3, 2), "docs/dice-notation.md: '>' is strict"),
    ("roll20", "4dF", 0, f"{ROLL20}: Fate/Fudge Roll NdF, faces -1, 0 and 1"),
    ("foundry", "6d6even", 3, f"{FOUNDRY}: '6d6even' counts the even numbers rolled"),
    ("foundry", "5d6odd", Fraction(5, 2), f"{FOUNDRY}: '6d6odd' counts the odd numbers"),
    ("roll20", "3d6>3f1", Fraction(3, 2), f"{ROLL20}: '3d6>3f1' takes failures from successes"),
    (
        "roll20",
        "{3d20+5}>21",
        Fraction(3, 4),
        f"{ROLL20}: Single Sub-Roll Success, '{{3d20+5}}>21' adds 5 to each roll, counts 21+",
    ),
    (
        "roll20",
        "{3d20+5}>21f<10",
        0,
        f"{ROLL20}: Single Sub-Roll Failure, each roll plus 5: 21+ succeeds, 10 or less fails",
    ),
    (
        "roll20",
        "{2d6!}>4f1",
        Fraction(4, 5) - Fraction(4, 5 * 6**21),
        f"{ROLL20}: '{{2d6!}}>4f1', each exploding die: 4+ succeeds, a 1 fails (20 follow-ups)",
    ),
    ("foundry", "{2d6, 1d12}cs>7", Fraction(5, 6), "Foundry pools count successes per total"),
    ("roll20", "4dF+3", 3, f"{ROLL20}: Fate dice in arithmetic"),
    ("foundry", "4df", 0, "Foundry's FateDie, denomination f"),
    ("foundry", "4dc", 2, "Foundry dice-modifiers: '4dc' flips four coins, tallying heads"),
    ("foundry", "3dcc0", Fraction(3, 2), "Foundry dice-modifiers: '3dcc0' tallies the tails"),
    ("roll20", "4dF>1", Fraction(4, 3), f"{ROLL20}: successes on Fate dice (a + counts)"),
    ("roll20", "2 ** -1", Fraction(1, 2), "JavaScript: 2 ** -1 is 0.5"),
    ("roll20", "1d4 ** 2", Fraction(15, 2), f"{ROLL20}: '**' of a roll: (1+4+9+16)/4"),
    ("roll20", "(7/2) % 2", Fraction(3, 2), "JavaScript's '%' keeps the fraction: 3.5 % 2"),
    ("foundry", "(1d4 - 5/2) % 1", 0, "Foundry: -1.5 % 1 is -0.5, 1.5 % 1 is 0.5"),
    (
        "avrae",
        "2d8rr1rr3",
        Fraction(32, 3),
        f"{D20}: diceast._simplify_operations joins rr1rr3 into rr(1,3); 2, 4-8 stand",
    ),
    # FOUNDRY: Die.deductFailures/subtractFailures and DiceTerm._applyDeduct: a failing die
    # counts -1 (df) or minus its face (sf), whatever it counted before; bare, after a
    # success count, every die that is not a success fails.
    ("foundry", "6d6df=1", 19, f"{FOUNDRY}: df=1, each 1 is -1, the rest their faces"),
    ("foundry", "6d6cs>3df", 0, f"{FOUNDRY}: '6d6cs>3df' takes each non-success from the count"),
    ("foundry", "6d6cs>3df=1", 2, f"{FOUNDRY}: a 1 is -1, 2-3 count 0, 4-6 count 1"),
    ("foundry", "6d6sf<3", 15, f"{FOUNDRY}: subtractFailures, the faces under 3 taken away"),
    ("foundry", "6d6cs>3sf", -3, f"{FOUNDRY}: a non-success counts minus its face"),
    (
        "foundry",
        "1d6cs>=1df=1",
        Fraction(2, 3),
        f"{FOUNDRY}: _applyDeduct, a failure is no success",
    ),
    # D20: SetOperator.keep/drop with a bare or </> selector select dice by their number.
    ("avrae", "4d6k3", 2, f"{D20}: 'k3' keeps only the dice showing 3 (4 x 3 x 1/6)"),
    ("avrae", "4d6p<3", 12, f"{D20}: 'p<3' drops the 1s and 2s (4 x 18/6)"),
    ("avrae", "6d6k5k6", 11, f"{D20}: 'k5k6' is joined into k(5,6) (_simplify_operations)"),
    ("avrae", "1d6k7", 0, f"{D20}: a selector no die matches keeps nothing"),
    (
        "avrae",
        "1d20ra20",
        Fraction(441, 40),
        f"{D20}: SetOperator.explode_once adds one die for one selected die (10.5 + 10.5/20)",
    ),
    ("roll20", "(1d4)d6", Fraction(35, 4), f"{ROLL20}: '(1d4)d6' rolls 1d4 d6s (2.5 x 3.5)"),
    ("foundry", "(1d3)d4 + 1", 6, "Foundry: a parenthetical count of dice is rolled first"),
    ("roll20", "2d(3+3)", 7, f"{ROLL20}: Computed Dice Roll, 'Nd(X+Y)' computes the sides"),
    (
        "foundry",
        "1d(1d20)",
        Fraction(23, 4),
        "Foundry dice-advanced: '1d(1d20)', a die of sides rolled by a d20 ((2 + 21) / 4)",
    ),
    (
        "foundry",
        "(1d20*2)d(1d10)",
        Fraction(21) * Fraction(13, 4),
        "Foundry dice-advanced: '(1d20*2)d(1d10)', count and sides both rolled (21 x 3.25)",
    ),
    (
        "foundry",
        "(2d4)d8x",
        Fraction(5) * Fraction(9, 2) / (1 - Fraction(1, 8)) * (1 - Fraction(1, 8) ** 21),
        "Foundry dice-advanced: '(2d4)d8' with the modifiers of Die (x explodes the 8s)",
    ),
    ("roll20", "(1d3 - 1)d4kh2", Fraction(5, 2), f"{ROLL20}: modifiers on computed dice"),
    (
        "roll20",
        "{1d6, 1d4}>4f1",
        Fraction(1, 2) + Fraction(1, 4) - Fraction(1, 6) - Fraction(1, 4),
        f"{ROLL20}: Multiple Sub-Roll Failure, each total of 4+ adds one, each 1 takes one",
    ),
    (
        "foundry",
        "2d4r1r3",
        Fraction(87, 16),
        f"{FOUNDRY}: each modifier acts on the results the one before left (a 1 re-rolled "
        "into a 3 is re-rolled again)",
    ),
    (
        "avrae",
        "2d4rr1ro3",
        Fraction(17, 3),
        f"{D20}: rr and ro are two operations, applied in the order written",
    ),
    ("avrae", "1d%", 45, f"{D20}: Die._add_roll, d% is randrange(0, 100, 10)"),
    ("avrae", "(1, 2, 3, 4, 5)k<3", 3, f"{D20}: test_selectors, '(1, 2, 3, 4, 5)k<3' == 3"),
    ("avrae", "(1, 2, 3, 4, 5)p1p2", 12, f"{D20}: test_p_op, '(1, 2, 3, 4, 5)p1p2' == 12"),
    ("avrae", "(1)k2", 0, f"{D20}: test_selectors, '(1)k2' == 0"),
    ("avrae", "1 + 2 == 2", 0, f"{D20}: test_pemdas, comparisons bind loosest: '1 + 2 == 2' == 0"),
    ("avrae", "1 + (2 == 2)", 2, f"{D20}: test_pemdas, '1 + (2 == 2)' == 2"),
    ("avrae", "1d20 + 5 >= 15", Fraction(11, 20), f"{D20}: BinOp '>=' is 1 when it holds"),
    ("avrae", "3d6 > 10", Fraction(1, 2), f"{D20}: '>' between totals, not a success count"),
    (
        "avrae",
        "(4d6+3d8)kh3",
        Fraction(55, 2),
        f"{D20}: a keep after parentheses keeps the one member, whole (keeping more keeps all)",
    ),
    ("avrae", "2d%kh1", Fraction(123, 2), f"{D20}: a tens die keeps by its value"),
    ("avrae", "1d%mi50", 60, f"{D20}: mi raises a tens die's 0-40 to 50"),
    ("roll20", "1d%", Fraction(101, 2), f"{ROLL20}: d% is a d100"),
]


@pytest.mark.parametrize(("dialect", "text", "mean", "source"), MEANS)
def test_each_dialect_has_its_tools_mean(dialect, text, mean, source):
    assert distribution(text, dialect=dialect).mean == mean, source


def test_foundry_r_rerolls_once_where_tabletop_rerolls_until():
    # FOUNDRY: `r` is reroll(recursive=false); tabletop's (and Roll20's) `r` repeats.
    once = distribution("1d4r1", dialect="foundry")
    assert once.probability(1) == Fraction(1, 16)
    assert distribution("1d4r1").probability(1) == 0
    assert distribution("1d4r1", dialect="roll20").probability(1) == 0


def test_separate_explosions_change_keeps_and_counts_not_sums():
    # Issue 34: every peer's !/x/e adds dice; tabletop's ! compounds them into one die.
    assert distribution("5d10!", dialect="roll20") == distribution("5d10!")
    assert distribution("5d10!k2", dialect="roll20") != distribution("5d10!k2")
    assert distribution("5d10!k2", dialect="roll20") == distribution("5d10xkh2", dialect="foundry")
    # `2d6>3!` in Roll20: a 6 adds a die that may succeed too, so up to 2 + 2*20 successes.
    assert distribution("2d6>3!", dialect="roll20").max == 42
    assert distribution("2d6>3!").max == 2


@pytest.mark.parametrize(
    ("dialect", "text"),
    [
        ("roll20", "2d2!k1"),
        ("roll20", "2d2!d1"),
        ("roll20", "2d2!pk1"),
        ("foundry", "3d3xodh1cs>=2"),
        ("foundry", "2d4xo>=3kh1"),
        ("foundry", "2d2xkh1cs>=2"),
        ("avrae", "2d2e2pl1"),
        ("roll20", "floor(1d6/4) + round(1d4/2)"),
        ("roll20", "3dFk2"),
        ("foundry", "2df + 1d4cs>=3"),
        ("foundry", "3d4r1min2kh2"),
        ("roll20", "2d4>3f1"),
        ("roll20", "{1d4, 1d6}kh1>3"),
        ("roll20", "{1d4+1, 1d6, 2}d1"),
        ("foundry", "{1d4, 1d4, 1d3}kl2cs>=2"),
        ("avrae", "(1d4, 2, 1d3 / 2)kh1"),
        ("roll20", "2d2>2f1!"),
        ("roll20", "3d4kh2>3f<2"),
        ("foundry", "2d4xeven"),
        ("avrae", "3d4ro1ma3pl1"),
        ("avrae", "1d6 / 4 + 1d4 // 3"),
        ("roll20", "1d6 ** (1d3 - 2) + 1d4 % 3"),
        ("foundry", "(1d6 - 3) % 1d4 * 2"),
        ("avrae", "(1d6 - 4) % 1d3 + 1d6 / 4 % 1"),
        ("roll20", "2d4ro1ro4"),
        ("foundry", "3d4df=1"),
        ("foundry", "2d4r1r3"),
        ("foundry", "3d3r1r2kh2"),
        ("avrae", "2d4ro1ro2pl1"),
        ("roll20", "(1d4)d6"),
        ("roll20", "{2d4+2d3}k2"),
        ("roll20", "{3d4}dl1"),
        ("roll20", "{1d6+1d4+1d2}kl1"),
        ("roll20", "(1d3 - 1)d4 + 1"),
        ("roll20", "(1d3)d4kh2>2"),
        ("foundry", "(1d3)d3dl1"),
        ("roll20", "2d(1d3)"),
        ("avrae", "(1d4, 1d3, 2)k<3 + (1d4 / 2, 1d2)p1"),
        ("avrae", "1d4 + 1 > 1d6 != (1d3 == 2)"),
        ("foundry", "3dcc0 + 2dc"),
        ("avrae", "2d3rol1 + 2d3roh1 + 2d2ral1"),
        ("roll20", "{1d4, 1d3 + 1, 2}kh2>3f<2"),
        ("foundry", "(1d2)d(1d3 + 1)"),
        ("foundry", "(2d2)d3 * 2"),
        ("foundry", "3d4r1=1"),
        ("foundry", "3d4rr2=1"),
        ("foundry", "3d3rr2<=3"),
        ("foundry", "3d4x2>=3"),
        ("foundry", "2d3xo1=3"),
        ("foundry", "2d4r1x1=4"),
        ("avrae", "3d4ra4"),
        ("avrae", "3d4ra1ra4"),
        ("avrae", "3d4ro1ra<2"),
        ("avrae", "4d4mi2k2k4"),
        ("avrae", "3d4ro1p>2"),
        ("avrae", "2d3e3p<2"),
        ("foundry", "3d4cs>2df"),
        ("foundry", "3d4kh2sf<2"),
        ("foundry", "2d4r1cs>=3sf=4"),
        ("foundry", "2d3xo>=2kl2df<=2"),
        ("foundry", "3d4evendf>3"),
        ("avrae", "3d4ro1ro>3kh2"),
        ("tabletop", "2d3ro1ro3!"),
        ("roll20", "{2d3!}>2f1"),
        ("roll20", "{3d4kh2 - 1}<2"),
    ],
)
def test_exact_odds_match_every_sequence_of_faces(dialect, text):
    """Brute force: the roller driven down every sequence of faces it could see."""
    odds = distribution(text, dialect=dialect)
    assert dict(odds) == enumerate_odds(text, dialect=dialect)


def test_a_separate_explosion_is_a_die_of_its_own_on_the_record():
    rolled = roll("2d6!k2", FixedDice([6, 6, 2, 3]), dialect="roll20")
    assert [die.faces for die in rolled.pools()[0].dice] == [(6,), (6,), (2,), (3,)]
    assert rolled.total == 12
    assert str(rolled) == "2d6!kh2 → [6!, 6!, ~~2~~, ~~3~~] = 12"
    compounded = roll("2d6!k2", FixedDice([6, 6, 2, 3]))
    assert compounded.total == 17  # tabletop: one die of 6+6+2 and one of 3


def test_labels_and_comments_are_kept_with_the_roll_and_shown():
    rolled = roll("(1d6+2)[bludgeoning] + 1d4[fire]", FixedDice([3, 4]), dialect="foundry")
    assert (
        str(rolled)
        == "(1d6 + 2)[bludgeoning] + 1d4[fire] → ([3] + 2) [bludgeoning] + [4] [fire] = 9"
    )
    commented = roll("1d20+5 Roll for initiative", FixedDice([12]), dialect="roll20")
    assert str(commented) == "1d20 + 5 Roll for initiative → [12] + 5 = 17"
    assert commented.to_json()["dice"]["text"] == "Roll for initiative"


def test_a_bounded_die_shows_its_face_and_its_value():
    rolled = roll("3d6min3", FixedDice([1, 5, 2]), dialect="foundry")
    assert str(rolled) == "3d6min3 → [1→3, 5, 2→3] = 11"
    assert distribution("1d6min3").probability(3) == Fraction(1, 2)


def test_failures_are_marked_and_taken_from_the_count():
    rolled = roll("3d6>3f1", FixedDice([1, 4, 2]), dialect="roll20")
    assert str(rolled) == "3d6>3f1 → [_1_, **4**, 2] = 0"
    assert rolled.to_json()["dice"]["dice"][0]["failure"] is True


def test_a_failure_taken_away_is_marked_and_counts_against_the_total():
    # FOUNDRY: _applyDeduct flags r.failure and drops r.success; the total sums r.count.
    rolled = roll("6d6cs>3df", FixedDice([1, 4, 2, 6, 3, 5]), dialect="foundry")
    assert str(rolled) == "6d6cs>3df → [_1_, **4**, _2_, **6**, _3_, **5**] = 0"
    subtracted = roll("4d6sf<3", FixedDice([1, 4, 2, 6]), dialect="foundry")
    assert subtracted.total == 4 + 6 - 1 - 2
    first = subtracted.to_json()["dice"]["dice"][0]
    assert first["failure"] is True and "success" not in first


def test_dice_kept_by_face_are_the_only_ones_counted():
    # D20: SetOperator.keep drops every die its selector does not select.
    rolled = roll("4d6k3", FixedDice([3, 1, 3, 6]), dialect="avrae")
    assert str(rolled) == "4d6k3 → [3, ~~1~~, 3, ~~6~~] = 6"
    assert [die["kept"] for die in rolled.to_json()["dice"]["dice"]] == [True, False, True, False]


def test_a_limit_over_the_pool_stops_re_rolls_and_explosions_once_spent():
    # FOUNDRY: Die.reroll, '20d20r1=1 reroll a single 1'; Die.explode's max counts down.
    rolled = roll("4d20r1=1", FixedDice([1, 1, 7, 1, 12]), dialect="foundry")
    assert str(rolled) == "4d20r1=1 → [~~1~~ 1, 7, 1, 12] = 21"  # the second 1 stays
    assert (
        roll("4d20rr2=1", FixedDice([1, 1, 1, 9, 2, 3]), dialect="foundry").total == 1 + 9 + 2 + 3
    )
    exploded = roll("3d6x2=6", FixedDice([6, 6, 6, 6, 6]), dialect="foundry")
    assert exploded.total == 30 and len(exploded.pools()[0].dice) == 5
    assert distribution("1d6x3>=1", dialect="foundry").min == 4  # every face explodes 3 times


def test_a_group_keeping_its_dice_shows_each_pool_with_its_dropped_dice():
    # ROLL20: '{4d6+3d8}k4': of the 4 d6s and 3 d8s the highest 4 are kept and summed.
    rolled = roll("{4d6+3d8}k4", FixedDice([6, 1, 4, 4, 8, 2, 3]), dialect="roll20")
    assert str(rolled) == "{4d6 + 3d8}kh4 → {[6, ~~1~~, 4, 4] + [8, ~~2~~, ~~3~~]} = 22"
    assert [pool.value for pool in rolled.pools()] == [14, 8]


def test_values_given_when_rolling_are_read_by_their_name():
    # ROLL20: attributes, '@{strength}'; FOUNDRY: roll data paths, '@abilities.str.mod'.
    given = roll("1d20 + @{strength}", FixedDice([10]), names={"strength": 3}, dialect="roll20")
    assert str(given) == "1d20 + @{strength} → [10] + strength(3) = 13"
    path = distribution("1d20 + @abilities.str.mod", {"abilities.str.mod": 2}, dialect="foundry")
    assert path == distribution("1d20 + 2")
    assert notation(parse("2d6 + @{STR}", "roll20"), "tabletop") == "2d6 + STR"
    assert notation(parse("2d6 + STR"), "foundry") == "2d6 + @STR"
    with pytest.raises(RollError, match="uses 'dex' but no value was given"):
        roll("1d20 + @{strength} + @{dex}", names={"strength": 3}, dialect="roll20")
    missing = re.escape("uses 'abilities.str.mod' but no value was given")
    with pytest.raises(RollError, match=missing):
        roll("1d20 + @abilities.str.mod", names={"str": 3}, dialect="foundry")


def test_foundry_flavour_after_a_hash_is_kept_and_shown():
    # FOUNDRY: '/r 1d20 + 5 # Attack roll', the words after '#' are the roll's flavour.
    rolled = roll("1d20 + 5 # Attack roll", FixedDice([12]), dialect="foundry")
    assert str(rolled) == "1d20 + 5 # Attack roll → [12] + 5 = 17"
    assert rolled.to_json()["dice"]["text"] == "Attack roll"
    comment = parse("1d20 + 5 Roll for initiative", "roll20")
    assert notation(comment, "foundry") == "1d20 + 5 # Roll for initiative"
    assert parse("1d20 #", "foundry") == parse("1d20", "foundry")


def test_tabletop_reads_what_no_other_reading_contradicts():
    # Issue 34: computed dice, Foundry's '#' flavour and several re-rolls mean the same here.
    assert parse("(1d4)d6") == parse("(1d4)d6", "roll20") == parse("(1d4)d6", "foundry")
    assert parse("2d6 + 3 # fire") == parse("2d6 + 3 # fire", "foundry")
    assert parse("2d8r1r3") == parse("2d8r1r3", "roll20")
    assert other_readings("(1d4)d6 + 2d6 # fire") == []
    # Foundry's r re-rolls once, each r what the one before left: another law, so a note.
    assert [note.dialect.name for note in other_readings("2d8r1r3")] == ["foundry"]


def test_computed_dice_show_their_count_and_then_their_dice():
    rolled = roll("(1d4)d6", FixedDice([3, 4, 2, 6]), dialect="roll20")
    assert str(rolled) == "(1d4)d6 → ([3])d6 [4, 2, 6] = 12"
    assert [pool.term.sides for pool in rolled.pools()] == [4, 6]
    assert rolled.to_json()["dice"]["count"]["value"] == 3


def test_computed_dice_take_modifiers_and_computed_sides():
    # ROLL20: Computed Dice Roll '(N+Y)dX/Nd(X+Y)'; FOUNDRY dice-advanced: '1d(1d20)'.
    kept = roll("(1d4)d6kh1", FixedDice([3, 4, 2, 6]), dialect="roll20")
    assert str(kept) == "(1d4)d6kh1 → ([3])d6 [~~4~~, ~~2~~, 6] = 6"
    sided = roll("2d(1d6)", FixedDice([5, 4, 2]), dialect="roll20")
    assert str(sided) == "2d(1d6) → (2)d([5]) [4, 2] = 6"
    assert sided.to_json()["dice"]["sides"]["value"] == 5
    assert [die.sides for die in sided.pools()[-1].dice] == [5, 5]
    assert notation(parse("(2)d6kh1", "roll20"), "roll20") == "(2)d6kh1"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("(1d4 - 2)d6", "may roll a negative number of dice"),
        ("(1d4 / 2)d6", "may roll a fraction of a die"),
        ("(20000)d6", "could roll 20,000 dice; the limit is 10,000"),
        ("2d(1d6 - 1)", "may roll dice with 0 sides; a die has between 1 and 1,000,000"),
        ("(1d10)d(1d100000)", "steps, over the limit"),  # refused before any pool is weighed
    ],
)
def test_a_computed_count_that_cannot_be_dice_is_refused(text, words):
    with pytest.raises((RollError, LimitError), match=re.escape(words)):
        distribution(text, dialect="roll20")


def test_a_group_of_one_pool_counts_each_die_with_the_number_added():
    # ROLL20: '{3d20+5}>21 - Roll 3 d20's, for each roll add 5 and then count a success for
    # each result of 21 or more'; '{5d6!!}>8' compares each compounded die, not the total.
    rolled = roll("{3d20+5}>21", FixedDice([16, 3, 20]), dialect="roll20")
    assert str(rolled) == "3d20>16 → [**16**, 3, **20**] = 2"
    compounded = roll("{5d6!!}>8", FixedDice([6, 3, 2, 1, 5, 4]), dialect="roll20")
    assert compounded.total == 1  # the 6+3 is one die of 9; the total of 21 is not compared
    # Tabletop's group of one compares the total: each reading notes the other.
    assert [note.dialect.name for note in other_readings("{3d6+3}>15")] == ["roll20"]


def test_a_group_marks_the_totals_that_fail():
    # ROLL20: '{4d6+2d8, 3d20+3, 5d10+1}>40f<10', a failure for each sub-roll total of 10 or less.
    rolled = roll("{1d6, 1d4, 1d8}>4f1", FixedDice([5, 1, 2]), dialect="roll20")
    assert str(rolled) == "{1d6, 1d4, 1d8}>4f1 → {**[5]**, _[1]_, [2]} = 0"
    assert [m.get("failure") for m in rolled.to_json()["dice"]["members"]] == [False, True, False]


def test_a_group_shows_which_totals_it_kept():
    rolled = roll("{2d6, 1d12}kh1", FixedDice([2, 5, 9]), dialect="roll20")
    assert str(rolled) == "{2d6, 1d12}kh1 → {~~[2, 5]~~, [9]} = 9"
    assert [member["kept"] for member in rolled.to_json()["dice"]["members"]] == [False, True]


def test_a_fate_die_shows_its_minus_blank_and_plus():
    rolled = roll("4dF", FixedDice([1, 2, 3, 3]), dialect="roll20")
    assert str(rolled) == "4dF → [-1, 0, 1, 1] = 1"
    assert distribution("4dF", dialect="roll20").probability(0) == Fraction(19, 81)


def test_penetrating_follow_ups_show_the_minus_one():
    rolled = roll("1d6!p", FixedDice([6, 6, 1]), dialect="roll20")
    assert str(rolled) == "1d6!p → [6!, (6-1)!, (1-1)] = 11"
    assert rolled.to_json()["dice"]["dice"][1]["added"] is True


def test_d20_caps_a_roll_at_a_thousand_dice():
    # D20 test_invalid_rolls: '1001d6' raises TooManyRolls.
    with pytest.raises(LimitError, match="1,000 dice"):
        parse("1001d6", "avrae")
    assert parse("1000d6", "avrae") == parse("1000d6")


@pytest.mark.parametrize(
    ("dialect", "text", "words"),
    [
        ("tabletop", "4dF", "this is Roll20 notation, not tabletop's (--dialect roll20)"),
        ("roll20", "4dF!", "a die with faces of its own (Fate, d20's d%) takes no explosion"),
        ("avrae", "1d%rr0", "takes no re-roll here (not built yet)"),
        ("roll20", "{4d6+3}k2", "built for Roll20's sums of plain dice ({4d6+3d8}k4)"),
        ("roll20", "{4d6+3d8}k4>3", "a group that keeps its dice takes no more modifiers"),
        ("roll20", "2d(1d6)kh1", "modifiers on computed sides (2d(1d6)kh1) are not supported"),
        ("foundry", "2dcc2", "a coin is called c1 (heads) or c0 (tails)"),
        ("tabletop", "4dc", "this is Foundry VTT notation"),
        ("roll20", "5d6mt3>4", "dice matching (2d6m, 2d6mt) is not supported yet"),
        ("roll20", "1d20 + 5 &{tracker}", "roll options (&{tracker}) is not supported yet"),
        ("foundry", "3d12ms>(4d6)", "a target in parentheses (cs<=(@power), ms>(4d6))"),
        ("avrae", "(1, 2, 3)kh1kl1", "several keeps or drops on one set, one after another"),
        ("avrae", "((10d6kh5)kl2)kh1", "a parenthesised pool with modifiers of its own"),
        ("roll20", "{1d6, 1d6}f1", "failures are taken from a success count"),
        ("foundry", "5d10xo<8x10cs>=8", "explosions of two kinds (Foundry's 5d10xo<8x10"),
        ("roll20", "{4d6-3d8}>4", "built for pools added together and a number added"),
        ("roll20", "{5}>3", "a success count on a group of one member counts its dice"),
        ("roll20", "{3d6>3}>1", "a success count on a group of one member counts its dice"),
        ("roll20", "{2d6}>4f1kh1", "a group that counts its dice takes no more modifiers"),
        ("tabletop", "{4d6+3d8}k4", "built for Roll20's sums of plain dice"),
        ("roll20", "{1d6, 2d6", "expected '}' to close the group"),
        ("tabletop", "1d20+5 Roll for initiative", "this is Roll20 notation"),
        ("foundry", "2d6[fire", "this '[' has no matching ']'"),
        ("foundry", "2d4r1=1r3", "re-rolls applied one after another on a pool"),
        ("avrae", "2d8rr1mi2rr3", "re-rolls applied one after another on a pool"),
        ("roll20", "2d4r1r<4", "re-rolling every face of a d4 would never stop"),
        ("tabletop", "(1d4)d6adv", "advantage on computed dice is not supported yet"),
        ("avrae", "(1d4)d6", "this is tabletop, Roll20 and Foundry VTT notation"),
        ("tabletop", "7 % 2", "this is Roll20, Foundry VTT and Avrae (d20) notation"),
        ("foundry", "2 ** 3", "this is Roll20 notation, not Foundry VTT's"),
        ("avrae", "2 ** 3", "this is Roll20 notation"),
        ("roll20", "-2 ** 2", "a sign before a power is unclear"),
        ("roll20", "2 ** -2 ** 2", "a sign before a power is unclear"),
        ("foundry", "4d6r1=1kh3", "with keep/drop, counts, bounds or a second limit"),
        ("foundry", "4d6r1=1x1=6", "with keep/drop, counts, bounds or a second limit"),
        ("roll20", "20d20r1=1", "this is tabletop and Foundry VTT notation, not Roll20's"),
        ("roll20", "6d6min2", "this is tabletop and Foundry VTT notation"),
        ("avrae", "1d6e6mi2", "a per-die minimum after an explosion is not supported yet"),
        ("foundry", "6d6df", "df needs the faces that fail (df=1, df<3) unless it follows"),
        ("foundry", "6d6cf<3sf", "sf after cf (Foundry takes the counted failures away again)"),
        ("foundry", "6d6min2df=1", "a per-die minimum or maximum with df or sf is not built"),
        ("foundry", "4dfdf=1", "takes no deduction of failures (df, sf) here"),
        ("foundry", "6d6df=1cs>3", "a success count after a deduction of failures"),
        ("tabletop", "6d6df=1", "this is Foundry VTT notation, not tabletop's"),
        ("roll20", "6d6sf<3", "this is Foundry VTT notation, not Roll20's"),
        ("foundry", "6d6ms=3", "expected a target after 'ms'"),
        ("roll20", "1d20+@{selected|strength}", "references to a token or another character"),
        ("roll20", "1d20+@str", "this is Foundry VTT notation, not Roll20's"),
        ("tabletop", "1d20+@str", "this is Foundry VTT notation, not tabletop's"),
        ("roll20", "1d20 # to hit", "this is tabletop and Foundry VTT notation, not Roll20's"),
        ("foundry", "1d20+@", "expected a name after '@', such as @str"),
        ("roll20", "3d6f1", "failures are taken from a success count"),
        ("foundry", "4d6kh3r1", "in the order written"),
        ("avrae", "10d6mil1", "expected the minimum of each die"),
        ("tabletop", "1d20 >= 10", "this is Avrae (d20) notation"),
        ("avrae", "4d6kh3k3", "both by place (kh3) and by face (k3) on one pool is not"),
        ("avrae", "4d6k3kh1", "both by place (kh3) and by face (k3) on one pool is not"),
        ("avrae", "4d6k3p1", "keeping and dropping dice by face one after another"),
        ("avrae", "2d6e5ra6", "this dice term already has an explosion"),
        ("avrae", "1d2e1e2", "every face of a d2 explodes, so it would never stop"),
        ("avrae", "4d6rrl1", "until they stop being so would never stop"),
        ("avrae", "4d6eh1", "picking the lowest or highest dice to explode (4d6eh1)"),
        ("avrae", "4d6ral1kh3", "re-rolling the lowest or highest dice (d20's rol1, ral1) with"),
        ("avrae", "4d6rol5", "can re-roll between 1 and 4 of 4 dice"),
        ("avrae", "4d6ra6kh3", "d20's ra) with keep/drop, counts, bounds or a second limit"),
        ("avrae", "1.5", "decimal numbers"),
        ("tabletop", "dF", "this is Roll20 notation"),
        ("tabletop", "floor(7/2", "expected ')'"),
        ("tabletop", "4d6d1", "this is Roll20 and Foundry VTT notation"),
        ("tabletop", "1d6e6", "this is Avrae (d20) notation, not tabletop's (--dialect avrae)"),
        ("roll20", "STR + 1", "this is tabletop notation"),
        ("tabletop", "8d6cs>3", "this is Roll20 and Foundry VTT notation"),
    ],
)
def test_a_refusal_names_the_feature_and_who_reads_it(dialect, text, words):
    """Issue 34: never 'the expression uses dF but no value was given'."""
    with pytest.raises(NotationError) as refused:
        parse(text, dialect)
    assert words in str(refused.value)
    assert "no value was given" not in str(refused.value)


def test_an_unknown_dialect_is_one_line():
    with pytest.raises(Exception, match="there is no dice dialect 'rolls20'"):
        parse("1d6", "rolls20")


def test_remainders_and_powers_show_as_written():
    rolled = roll("-1d6 % 4 + 2 ** 1d4", FixedDice([6, 3]), dialect="roll20")
    assert str(rolled) == "-1d6 % 4 + 2 ** 1d4 → -[6] % 4 + 2 ** [3] = 6"
    assert rolled.to_json()["dice"]["left"]["op"] == "rem"
    assert str(roll("(-1d6) ** 2", FixedDice([3]), dialect="roll20")) == (
        "(-1d6) ** 2 → (-[3]) ** 2 = 9"
    )
    assert str(roll("-1d6 % 4", FixedDice([6]), dialect="avrae")) == "-1d6 % 4 → -[6] % 4 = 2"


@pytest.mark.parametrize(
    ("text", "error", "words"),
    [
        ("2 ** (1/2)", RollError, "a power that may be a fraction (a root)"),
        ("(1/2) ** -1", RollError, "a fraction to a negative power"),
        ("(1/3) ** 65", LimitError, "past 64"),
        ("10 ** 19", LimitError, "beyond the ±1,000,000,000,000,000,000"),
        ("2 ** 1000000000000000", LimitError, "2**1000000000000000"),
        ("0 ** -1", RollError, "can raise zero to a negative power"),
        ("(1d2 - 1) ** -1", RollError, "can raise zero to a negative power"),
        ("7 % (1d2 - 1)", RollError, "can divide by zero"),
    ],
)
def test_a_power_or_remainder_past_what_is_exact_is_refused(text, error, words):
    with pytest.raises(error, match=re.escape(words)):
        distribution(text, dialect="roll20")


@pytest.mark.parametrize("text", ["(1d2 - 1) ** -1", "7 % (1d2 - 1)"])
def test_a_roll_or_sample_that_divides_by_zero_is_an_error(text):
    with pytest.raises(RollError, match="zero"):
        roll(text, FixedDice([1]), dialect="roll20")
    with pytest.raises(RollError, match="zero"):
        sample(text, 100, seed=1, dialect="roll20")


def test_critical_points_mark_the_dice_they_show_and_change_nothing():
    # ROLL20: Critical Success and Fumble Points, '1d20cs>18' highlights 18-20 as criticals.
    several = roll("3d20cs20cs10", FixedDice([10, 20, 5]), dialect="roll20")
    assert str(several) == "3d20cs20cs10 → [10 (critical), 20 (critical), 5] = 35"
    rolled = roll("3d20cs>18cf<2 + 5", FixedDice([18, 1, 7]), dialect="roll20")
    assert str(rolled) == "3d20cs>18cf<2 + 5 → [18 (critical), 1 (fumble), 7] + 5 = 31"
    dice = rolled.to_json()["dice"]["left"]["dice"]
    assert [(die.get("critical"), die.get("fumble")) for die in dice] == [
        (True, None),
        (None, True),
        (None, None),
    ]
    # Foundry's cs counts; the note says so rather than rolling a silent second meaning.
    assert distribution("1d20cs>19", dialect="foundry").mean == Fraction(1, 20)


def test_sorted_dice_are_shown_in_order_with_their_marks():
    # ROLL20: Sorting Dice, 's'/'sa' ascending and 'sd' descending; dropped dice stay shown.
    rolled = roll("4d6kh3sd", FixedDice([3, 6, 1, 5]), dialect="roll20")
    assert str(rolled) == "4d6kh3sd → [6, 5, 3, ~~1~~] = 14"
    assert str(roll("3d6s", FixedDice([3, 6, 1]), dialect="roll20")) == "3d6sa → [1, 3, 6] = 10"


def test_a_coin_shows_heads_as_1_and_a_call_counts_its_face():
    # FOUNDRY: Coin, 'c' calls a face; by default the heads are tallied.
    assert (
        str(roll("3dcc0", FixedDice([1, 2, 1]), dialect="foundry"))
        == "3dcc0 → [**0**, 1, **0**] = 2"
    )
    assert str(roll("2dc", FixedDice([2, 1]), dialect="foundry")) == "2dc → [1, 0] = 1"


def test_the_lowest_die_re_rolled_once_shows_its_first_face_struck_through():
    # D20: SetOperator.reroll_once over the selector l1, the earlier die among equals.
    rolled = roll("4d6rol1", FixedDice([3, 1, 5, 1, 6]), dialect="avrae")
    assert str(rolled) == "4d6rol1 → [3, ~~1~~ 6, 5, 1] = 15"


def test_d20s_tens_die_shows_its_tens():
    rolled = roll("2d%kh1 + 1d10", FixedDice([3, 10, 7]), dialect="avrae")
    assert str(rolled) == "2d%kh1 + 1d10 → [~~20~~, 90] + [7] = 97"
