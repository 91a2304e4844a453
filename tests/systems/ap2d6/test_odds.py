"""Exact odds (RU-P01..RU-P07), checked against rolling every face through the rules and
against sampling."""

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.dice import FixedDice, distribution
from tabletop.systems.ap2d6 import (
    Options,
    check,
    check_odds,
    contest,
    contest_odds,
    death_check,
    failure_margins,
    simulate_death,
    stabilise_chance,
)
from tabletop.systems.ap2d6.odds import death_check_success, double_six_chance
from tests.effort import tried

PAIRS = list(itertools.product(range(1, 7), repeat=2))
AT_LEAST = [
    1,
    Fraction(35, 36),
    Fraction(11, 12),
    Fraction(5, 6),
    Fraction(13, 18),
    Fraction(7, 12),
    Fraction(5, 12),
    Fraction(5, 18),
    Fraction(1, 6),
    Fraction(1, 12),
    Fraction(1, 36),
]


def test_rup01_two_d6_at_least_each_target() -> None:
    """RU-P01: P(2d6 ≥ t) for t = 2..12, from the dice engine and from `check_odds` where double
    1s cannot matter."""
    odds = distribution("2d6")
    assert [odds.at_least(t) for t in range(2, 13)] == AT_LEAST
    for target in range(3, 13):
        assert check_odds(0, target)["success"] == AT_LEAST[target - 2]
        assert check_odds(0, target - 1, defender_wins_ties=True)["success"] == AT_LEAST[target - 2]


def test_rup01_double_ones_take_one_in_36_off_an_easy_check() -> None:
    """RU-A12: against DC 2 with score 0 the only failure is [1,1]."""
    assert check_odds(0, 2)["success"] == Fraction(35, 36)
    assert check_odds(0, 2, options=Options(double_one_fails=False))["success"] == 1
    assert check_odds(None, 2)["success"] == 0 and check_odds(-3, 2)["success"] == 0


def test_rup05_double_rates() -> None:
    """RU-P05: each 1 in 36; the chance of a temp AP in k attacks is 1 - (35/36)^k."""
    odds = check_odds(0, 7)
    assert odds["double_one"] == odds["double_six"] == Fraction(1, 36)
    assert double_six_chance(2) == 1 - Fraction(35, 36) ** 2


@settings(max_examples=tried(60))
@given(st.integers(-2, 8), st.integers(-2, 16), st.booleans(), st.booleans(), st.booleans())
def test_check_odds_match_rolling_every_face(
    score: int, dc: int, defender: bool, ones_fail: bool, sixes_win: bool
) -> None:
    """Brute force: the 36 faces through `check` give exactly the odds, under any options."""
    options = Options(double_one_fails=ones_fail, double_six_succeeds=sixes_win)
    wins = sum(
        check(score, dc, FixedDice(pair), defender_wins_ties=defender, options=options).success
        for pair in PAIRS
    )
    assert check_odds(score, dc, defender_wins_ties=defender, options=options)[
        "success"
    ] == Fraction(wins, 36)


def test_check_odds_match_sampling() -> None:
    """200,000 sampled 2d6 pairs land within 4 standard errors of the exact figure."""
    rng = np.random.default_rng(7)
    a, b = rng.integers(1, 7, 200_000), rng.integers(1, 7, 200_000)
    for score, dc in [(0, 7), (2, 6), (5, 5), (-1, 9)]:
        hits = (a + b + score >= dc) & ~((a == 1) & (b == 1))
        exact = float(check_odds(score, dc)["success"])
        assert abs(hits.mean() - exact) < 4 * (exact * (1 - exact) / 200_000) ** 0.5 + 1e-9


@pytest.mark.parametrize(
    ("first", "second", "chance"),
    [
        (0, 3, Fraction(103, 648)),
        (0, 2, Fraction(155, 648)),
        (0, 1, Fraction(145, 432)),
        (1, 1, Fraction(1, 2)),
        (1, 0, Fraction(287, 432)),
        (2, 0, Fraction(493, 648)),
        (3, 0, Fraction(545, 648)),
    ],
)
def test_rup02_contest_wins_by_score_difference(first: int, second: int, chance: Fraction) -> None:
    """RU-P02: ties to the higher score, a redo at equal scores, double 1s not losing by
    themselves (the notes' figures; by default double 1s lose, RU-A12)."""
    plain = Options(double_one_fails=False)
    assert contest_odds(first, second, redo_full_ties=True, options=plain)["first"] == chance


def test_rup02_contest_odds_match_rolling_every_face() -> None:
    """Brute force over the 1,296 pairs of pairs, with the default options."""
    for first, second in [(0, 0), (2, 0), (0, 3), (1, 2)]:
        counts = {"first": 0, "second": 0, None: 0}
        for (a, b), (c, d) in itertools.product(PAIRS, PAIRS):
            counts[contest(first, second, FixedDice([a, b, c, d])).winner] += 1
        odds = contest_odds(first, second)
        assert odds == {key or "tie": Fraction(n, 1296) for key, n in counts.items()}
        assert sum(odds.values()) == 1


def test_rup03_death_check_odds() -> None:
    """RU-P03: one check succeeds 721/1296 of the time; stabilising, with all checks facing the
    same hidden DC, is 206367451/362797056; and the failure margins."""
    weights = distribution("2d6")
    marginal = sum((p * death_check_success(dc) for dc, p in weights), Fraction(0))
    assert marginal == Fraction(721, 1296)
    assert stabilise_chance() == Fraction(206367451, 362797056)
    assert failure_margins() == {
        1: Fraction(35, 324),
        2: Fraction(125, 1296),
        3: Fraction(13, 162),
        4: Fraction(5, 81),
        5: Fraction(7, 162),
        6: Fraction(35, 1296),
        7: Fraction(5, 324),
        8: Fraction(5, 648),
        9: Fraction(1, 324),
        10: Fraction(1, 1296),
    }


def test_rup03_stabilising_from_a_tally_matches_running_the_checks() -> None:
    """With DC 8 from one success and one failure: every face of every further check goes
    through the rules (each tally's outcome computed once, from its own sheet)."""
    from tabletop.systems.ap2d6 import standard_sheet, take_damage

    sheet = standard_sheet("Ayla")
    start, _ = take_damage(sheet, 18, FixedDice([4, 4]))
    start, _ = death_check(start, FixedDice([4, 4]))
    start, _ = death_check(start, FixedDice([1, 2]))
    known: dict[tuple[int, int], Fraction] = {}

    def lives(character) -> Fraction:
        record = character.dying
        if not record.rolling:
            return Fraction(bool(record.survived))
        tally = (record.successes, record.failures)
        if tally not in known:
            known[tally] = sum(
                (
                    Fraction(1, 36) * lives(death_check(character, FixedDice(pair))[0])
                    for pair in PAIRS
                ),
                Fraction(0),
            )
        return known[tally]

    assert stabilise_chance(8, successes=1, failures=1) == lives(start)


def test_rup03_sampled_death_episodes_agree_with_the_exact_chance() -> None:
    sampled = simulate_death(200_000, seed=3)
    exact = float(stabilise_chance())
    assert abs(sampled - exact) < 4 * (exact * (1 - exact) / 200_000) ** 0.5
