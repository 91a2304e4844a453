"""Checks and contests (§ Checks and Contests, § Performing a Check Against a Score,
§ Double 1s, Double 6s, § Stealth)."""

from hypothesis import given
from hypothesis import strategies as st

from tabletop.dice import FixedDice
from tabletop.systems.ap2d6 import Options, check, check_against, contest, stealth


def test_rut03_check_against_a_score_defender_wins_ties() -> None:
    """RU-T03: poisoning a CON 1 target is DC 7; [3,4] ties and fails, [4,4] succeeds."""
    tie = check_against(0, 1, FixedDice([3, 4]))
    assert (tie.dc, tie.total, tie.success) == (7, 7, False)
    assert check_against(0, 1, FixedDice([4, 4])).success


def test_rua01_a_set_dc_is_met_on_a_tie() -> None:
    """RU-A01(a): a DC with no defending character is a minimum, so meeting it succeeds."""
    assert check(0, 8, FixedDice([4, 4])).success
    assert not check(0, 8, FixedDice([4, 3])).success
    assert not check(0, 8, FixedDice([4, 4]), options=Options(tie_on_set_dc="failure")).success


def test_rut05_attacks_must_beat_to_hit() -> None:
    """RU-T05: DEX 0 against To-Hit 6 misses on 6, hits on 7; against an [encumbered] To-Hit of
    3, 3 misses and 4 hits."""
    assert not check(0, 6, FixedDice([2, 4]), defender_wins_ties=True).success
    assert check(0, 6, FixedDice([3, 4]), defender_wins_ties=True).success
    assert not check(0, 3, FixedDice([1, 2]), defender_wins_ties=True).success
    assert check(0, 3, FixedDice([1, 3]), defender_wins_ties=True).success


def test_rut05_double_ones_fail_even_a_winning_total() -> None:
    """RU-T05, RU-A12: +5 against To-Hit 3 would total 7, but [1,1] is a critical failure."""
    result = check(5, 3, FixedDice([1, 1]), defender_wins_ties=True)
    assert result.total == 7 and not result.success and result.critical == "double-one"
    lenient = check(
        5, 3, FixedDice([1, 1]), defender_wins_ties=True, options=Options(double_one_fails=False)
    )
    assert lenient.success


def test_rua13_double_sixes_are_not_an_automatic_success() -> None:
    """RU-A13: double 6s are noted (extra damage dice, temp AP) but 12 + 0 still misses DC 13."""
    result = check(0, 13, FixedDice([6, 6]))
    assert result.critical == "double-six" and not result.success
    assert check(0, 13, FixedDice([6, 6]), options=Options(double_six_succeeds=True)).success


def test_missing_special_score_and_minus_three_fail_without_rolling() -> None:
    """RU-M02, RU-A03: nothing is rolled (the fixed dice would run out otherwise)."""
    none = check(None, 2, FixedDice([]))
    minus_three = check(-3, 2, FixedDice([]))
    assert not none.success and none.roll is None and "special" in none.reason
    assert not minus_three.success and minus_three.roll is None


def test_rut01_contest_tie_goes_to_the_higher_score() -> None:
    """RU-T01: STR 3 rolling [1,3] = 7 against STR 0 rolling [3,4] = 7: the STR 3 side wins."""
    result = contest(3, 0, FixedDice([1, 3, 3, 4]))
    assert (result.first.total, result.second.total) == (7, 7)
    assert (result.winner, result.decided_by) == ("first", "score")


def test_contest_full_tie_is_a_tie_or_rolled_again() -> None:
    """RU-M11: equal totals and equal scores: a tie, or (where a tie makes no sense) again."""
    tied = contest(1, 1, FixedDice([3, 4, 2, 5]))
    assert tied.winner is None and tied.decided_by == "tie"
    redone = contest(1, 1, FixedDice([3, 4, 2, 5, 6, 6, 1, 2]), full_tie="redo")
    assert redone.winner == "first" and len(redone.rounds) == 2


def test_contest_higher_total_wins_and_double_ones_lose() -> None:
    """RU-M11, RU-A12."""
    assert contest(0, 2, FixedDice([6, 6, 3, 4])).winner == "first"
    snake_eyes = contest(9, 0, FixedDice([1, 1, 2, 2]))
    assert (snake_eyes.winner, snake_eyes.decided_by) == ("second", "double-one")
    both = contest(0, 0, FixedDice([1, 1, 1, 1]))
    assert both.winner is None


def test_a_side_that_cannot_use_its_score_loses_the_contest() -> None:
    """RU-M02: without the [special] score you fail all contests related to it."""
    assert contest(None, 0, FixedDice([])).winner == "second"
    assert contest(1, -3, FixedDice([])).winner == "first"
    assert contest(None, None, FixedDice([])).winner is None


def test_rum42_stealth_is_agi_plus_stealth_against_passive_perception() -> None:
    """RU-M42: AGI 1 + STEALTH 1 against PERCEPTION 2 (DC 8): [3,3] ties and fails."""
    assert not stealth(1, 1, 2, FixedDice([3, 3])).success
    assert stealth(1, 1, 2, FixedDice([3, 4])).success
    assert stealth(1, None, 2, FixedDice([3, 4])).total == 8


@given(st.integers(-2, 10), st.integers(-5, 20), st.integers(1, 6), st.integers(1, 6))
def test_a_defender_never_does_better_than_a_set_dc(score: int, dc: int, a: int, b: int) -> None:
    """RU-A01: beating a DC implies meeting it; the two differ only on a tie."""
    set_dc = check(score, dc, FixedDice([a, b]))
    defended = check(score, dc, FixedDice([a, b]), defender_wins_ties=True)
    assert set_dc.success >= defended.success
    if set_dc.success != defended.success:
        assert set_dc.total == dc


@given(st.integers(-2, 6), st.integers(-2, 6), st.lists(st.integers(1, 6), min_size=4, max_size=4))
def test_swapping_the_sides_of_a_contest_swaps_the_winner(a: int, b: int, faces: list[int]) -> None:
    forward = contest(a, b, FixedDice(faces))
    backward = contest(b, a, FixedDice(faces[2:] + faces[:2]))
    swap = {"first": "second", "second": "first", None: None}
    assert backward.winner == swap[forward.winner]


def test_rua46_a_tied_contest_goes_to_the_score_not_the_modifiers() -> None:
    """RU-A46: STR 2 against STR 1 with a +3 bias, both totalling 9: the STR 2 side wins."""
    result = contest(2, 1, FixedDice([3, 4, 2, 3]), second_modifier=3)
    assert (result.first.total, result.second.total) == (9, 9)
    assert result.winner == "first"
