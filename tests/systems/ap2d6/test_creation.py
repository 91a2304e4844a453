"""Character creation (§ Point Buy, § Randomized Character Creation)."""

from fractions import Fraction

import pytest

from tabletop.dice import FixedDice
from tabletop.errors import TabletopError
from tabletop.systems.ap2d6 import Options, point_buy, random_character, sp_equivalent
from tabletop.systems.ap2d6.odds import random_score_odds


def test_point_buy_spends_on_scores_and_skills_and_keeps_the_rest() -> None:
    """RU-M07, RU-M08: STR 2 (3 SP) + DEX 1 (1 SP) + a 2 SP skill out of 9, with AGI
    lowered to -1 for +1 SP, leaves 4."""
    sheet, events = point_buy("Ayla", 9, {"STR": 2, "DEX": 1, "AGI": -1}, {"Lockpicking": 2})
    assert sheet.scores["STR"] == 2 and sheet.scores["AGI"] == -1
    assert sheet.skills == {"Lockpicking": 2}
    assert sheet.unspent_sp == 4
    assert [event.kind for event in events] == ["lower", "raise", "raise", "skill"]


def test_point_buy_lowers_at_most_two_standard_scores_and_only_to_minus_one() -> None:
    """RU-M08, RU-A06."""
    with pytest.raises(TabletopError, match="at most 2"):
        point_buy("Ayla", 0, {"STR": -1, "AGI": -1, "DEX": -1})
    with pytest.raises(TabletopError, match="only to -1"):
        point_buy("Ayla", 0, {"STR": -2})
    with pytest.raises(TabletopError, match="only a standard score"):
        point_buy("Ayla", 0, {"STEALTH": -1})
    three, _ = point_buy(
        "Ayla", 0, {"STR": -1, "AGI": -1, "DEX": -1}, options=Options(lowered_scores_in_point_buy=3)
    )
    assert three.unspent_sp == 3


def test_point_buy_refuses_to_overspend_and_changes_nothing() -> None:
    with pytest.raises(TabletopError, match="cost 6 SP and only 5"):
        point_buy("Ayla", 5, {"STR": 3})


def test_a_negative_budget_starts_in_debt_and_buys_nothing() -> None:
    """RU-A45: start with negative SP, but nothing is bought while the balance is below 0."""
    sheet, _ = point_buy("Peasant", -3, {"STR": -1, "AGI": -1})
    assert sheet.unspent_sp == -1
    with pytest.raises(TabletopError):
        point_buy("Peasant", -1, {"STR": 1})


def test_random_scores_in_sheet_order() -> None:
    """RU-M09: d4-2 for STR, AGI, DEX, CON, PERCEPTION, SOCIAL in turn, and 4 SP for skills."""
    sheet, events = random_character("Ayla", "d4-2", FixedDice([1, 2, 3, 4, 4, 2]))
    assert [sheet.scores[s] for s in ("STR", "AGI", "DEX", "CON", "PERCEPTION", "SOCIAL")] == [
        -1,
        0,
        1,
        2,
        2,
        0,
    ]
    assert sheet.unspent_sp == 4
    assert sum(len(event.dice) for event in events) == 6


def test_random_scores_assigned_by_priority() -> None:
    """RU-M09: roll six, then the highest goes to the score listed first."""
    sheet, _ = random_character(
        "Ayla",
        "d6-3",
        FixedDice([1, 6, 3, 4, 2, 5]),
        ["DEX", "AGI", "CON", "STR", "SOCIAL", "PERCEPTION"],
    )
    assert (
        sheet.scores["DEX"] == 3 and sheet.scores["AGI"] == 2 and sheet.scores["PERCEPTION"] == -2
    )
    with pytest.raises(TabletopError, match="each of"):
        random_character("Ayla", "d6-3", FixedDice([1] * 6), ["DEX"])
    with pytest.raises(TabletopError, match="d4-2 or d6-3"):
        random_character("Ayla", "d8-4", FixedDice([1] * 6))


def test_rolled_scores_are_worth_what_the_cost_table_says() -> None:
    """RU-P07, RU-A05: d4-2 is worth 3/4 SP a score, as the rules say; d6-3 is 7/6, not 1.5."""
    assert random_score_odds("d4-2") == {v: Fraction(1, 4) for v in (-1, 0, 1, 2)}
    assert sp_equivalent("d4-2") == Fraction(3, 4)
    assert sp_equivalent("d6-3") == Fraction(7, 6)
