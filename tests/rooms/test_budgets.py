"""Work bounds counted before any work: every dice expression anywhere in an intent counts
the most dice it can throw, explosions and re-rolls included, against one bound."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tabletop.rooms.budgets import MAX_ROOM_DICE, check_intent, dice_cost
from tabletop.rooms.errors import OverBudget


@pytest.mark.parametrize(
    ("text", "dice"),
    [
        ("1d6", 1),
        ("4d6dl1", 4),
        ("2d8!p", 2 * 21),  # each die and its 20 follow-ups at the most
        ("3d6!:2", 3 * 3),  # a bound of its own
        ("3d!", 3),  # Dead Weight's risk dice
        ("Ud8", 1),
        ("1d20adv + STR", 2),
        ("2d6ro1", 4),  # one re-roll each
        ("10d6r1", 20 + 40 * 2),  # re-roll until: forty times the two expected
        ("-(2d6 + 1d4) * 3", 3),
        ("100d6[fire] + floor(50d6 / 2)", 150),  # inside labels and functions too
        ("{100d6, 3d6}kh1 # flavour", 103),  # and groups
        ("(1d4 + 2)d6", 1 + 6),  # computed dice: the count's die, then its most
        ("(1d4)d6!", 1 + 4 * 21),  # and its modifiers' follow-ups
        ("2d(1d6)", 1 + 2),  # computed sides: the sides' die, then the pool
        ("Ada", 0),
        ("the door is trapped", 0),
    ],
)
def test_an_expression_counts_the_most_dice_it_can_throw(text, dice):
    assert dice_cost(text) == Fraction(dice)


def test_computed_dice_whose_count_is_not_known_count_as_past_the_bound():
    assert dice_cost("(STR)d6") > MAX_ROOM_DICE


def test_an_intent_past_the_bound_is_refused_in_one_line_wherever_its_dice_stand():
    check_intent({"kind": "roll", "notation": f"{MAX_ROOM_DICE}d6"})
    with pytest.raises(OverBudget, match=f"at most {MAX_ROOM_DICE} dice"):
        check_intent({"kind": "roll", "notation": f"{MAX_ROOM_DICE + 1}d6"})
    with pytest.raises(OverBudget):
        check_intent({"kind": "roll", "notation": "15d6!"})
    nested = {"kind": "rule", "rule": {"hits": [{"damage": "99d6"}] * 4}}
    with pytest.raises(OverBudget):
        check_intent(nested)
    with pytest.raises(OverBudget):
        check_intent({"kind": "roll", "notation": "100000d6"})  # past the engine's own bound
    check_intent({"kind": "import-character", "sheet": {"name": "d6", "notes": "roll 1000d6"}})
