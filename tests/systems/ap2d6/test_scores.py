"""Scores and the sheet (§ Characters and Scores, § The Character Sheet, § Increasing Scores)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletop.errors import TabletopError
from tabletop.systems.ap2d6 import Character, Options, raise_cost, standard_sheet
from tabletop.systems.ap2d6.scores import incapable, passive, step_cost
from tabletop.systems.ap2d6.statuses import shipped_statuses


@pytest.mark.parametrize(("target", "cost"), [(1, 1), (2, 3), (3, 6), (4, 10), (5, 15)])
def test_raising_from_zero_matches_the_cost_table(target: int, cost: int) -> None:
    """RU-M07: the seed's table of SP from 0 straight to 1..5."""
    assert raise_cost(0, target) == cost


def test_each_step_costs_the_new_value_but_one_from_below_zero() -> None:
    """RU-M07, RU-A04: X to Y costs the sum of each new value; from a negative score, 1."""
    assert raise_cost(2, 3) == 3
    assert raise_cost(-2, 0) == 2
    assert raise_cost(-1, 2) == 1 + 1 + 2
    assert raise_cost(4, 4) == 0


def test_raising_cannot_lower() -> None:
    with pytest.raises(TabletopError, match="cannot take it down"):
        raise_cost(2, 1)


@given(st.integers(-20, 20), st.integers(0, 20), st.integers(0, 20))
def test_raising_in_two_legs_costs_the_same_as_in_one(start: int, first: int, second: int) -> None:
    """RU-A04: cost is per step, so splitting a raise never changes its price."""
    middle, end = start + first, start + first + second
    assert raise_cost(start, end) == raise_cost(start, middle) + raise_cost(middle, end)
    assert all(step_cost(score) >= 1 for score in range(start, end))


def test_a_missing_special_score_and_minus_three_cannot_act() -> None:
    """RU-M02, RU-A03: None is no ability at all; -3 or lower fails everything it governs."""
    assert incapable(None) is not None
    assert incapable(-3) is not None
    assert incapable(-7) is not None
    assert incapable(-2) is None
    assert incapable(0) is None
    assert incapable(-3, Options(incapable_at_or_below=-4)) is None


def test_a_special_score_of_zero_is_not_a_missing_one() -> None:
    """RU-M02: PYROMANCY 0 is a mediocre pyromancer; no PYROMANCY is no pyromancer."""
    mage = Character(name="Mage", special={"PYROMANCY": 0})
    fighter = standard_sheet("Fighter")
    assert mage.special_score("PYROMANCY") == 0
    assert fighter.special_score("PYROMANCY") is None
    assert fighter.score("MEDICINE") == 0


def test_every_sheet_keeps_the_six_standard_scores_in_order() -> None:
    """RU-M03."""
    sheet = Character(name="Ayla", scores={"stealth": 2, "dex": 1})
    assert list(sheet.scores) == ["STR", "AGI", "DEX", "CON", "PERCEPTION", "SOCIAL", "STEALTH"]
    assert sheet.scores["DEX"] == 1


@pytest.mark.parametrize(("con", "health", "dice"), [(0, 18, 3), (2, 30, 5), (-1, 12, 2)])
def test_health_and_recovery_dice_follow_con(con: int, health: int, dice: int) -> None:
    """RU-T07, RU-M04, RU-M33: Max HP 18 + 6 × CON and one recovery die per 6 Max HP."""
    sheet = standard_sheet("Ayla", CON=con)
    assert (sheet.max_hp, sheet.hp, sheet.max_recovery_dice, sheet.recovery_dice) == (
        health,
        health,
        dice,
        dice,
    )


def test_to_hit_is_six_adjusted_by_gear_and_statuses() -> None:
    """RU-M05, RU-M51: baseline 6; [encumbered] lowers it by 3."""
    sheet = Character(name="Knight", to_hit_adjustments={"bulky armour": -1})
    assert standard_sheet("Ayla").to_hit == 6
    assert sheet.to_hit == 5
    encumbered = sheet.with_status("encumbered", shipped_statuses().spec("encumbered"))
    assert encumbered.to_hit == 2
    assert encumbered.move_spaces() == 3
    assert encumbered.check_modifier("AGI") == -1


def test_statuses_change_scores_and_max_hp() -> None:
    """RU-M41, RU-A26: [frail] is -1 STR, -2 CON, -1 AGI, and Max HP follows CON."""
    frail = standard_sheet("Ayla").with_status("frail", shipped_statuses().spec("frail"))
    assert (frail.score("STR"), frail.score("CON"), frail.score("AGI")) == (-1, -2, -1)
    assert frail.max_hp == 6


def test_passive_scores_are_six_plus_the_score() -> None:
    """RU-M12."""
    assert passive(1) == 7
    assert passive(-2) == 4


def test_bad_sheets_are_refused_with_a_reason() -> None:
    with pytest.raises(ValueError, match="score name"):
        Character(name="Ayla", scores={"not a name": 1})
    with pytest.raises(ValueError, match="both"):
        Character(name="Ayla", scores={"PSYCHIC": 1}, special={"PSYCHIC": 1})
    with pytest.raises(ValueError, match="death record"):
        Character(name="Ayla", life="dying")


def test_a_sheet_round_trips_through_json() -> None:
    sheet = standard_sheet("Ayla", AGI=2).with_status(
        "poison", shipped_statuses().spec("poison"), 3
    )
    assert Character.model_validate_json(sheet.model_dump_json()) == sheet
