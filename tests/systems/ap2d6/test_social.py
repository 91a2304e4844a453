"""Social play (§ SOCIAL Rolls, § Communicative Skills, Bias, and Reputation, § Social
Perception, § Check Resolution, § Contests)."""

from fractions import Fraction

import pytest

from tabletop.dice import FixedDice
from tabletop.errors import TabletopError
from tabletop.systems.ap2d6 import (
    Options,
    lie,
    read,
    reading_bands,
    reputation_name,
    social_contest,
    social_roll,
)
from tabletop.systems.ap2d6.odds import reading_bands_against
from tabletop.systems.ap2d6.social import reputation_levels


def test_rum43_the_scale_runs_from_reviled_to_revered() -> None:
    """RU-M43: thirteen named levels, -6 to +6."""
    assert list(reputation_levels()) == list(range(-6, 7))
    assert reputation_name(-6) == "Reviled"
    assert reputation_name(-2) == "Strongly Disliked"
    assert reputation_name(0) == "Neutral"
    assert reputation_name(6) == "Revered"
    with pytest.raises(TabletopError):
        reputation_name(7)


def test_rum45_the_loathed_shopper_who_succeeds_by_four() -> None:
    """RU-M44, RU-M45 and the rules' example: at -3 (Loathed), passing by 4 lifts the
    interaction two levels, to -1 (Disliked). SOCIAL 3 - 3 bias + [4,5] = 9 against DC 5."""
    result = social_roll(3, -3, 5, FixedDice([4, 5]))
    assert result.check.total == 9 and result.check.margin == 4
    assert (result.shift, result.level) == (2, -1)


def test_rum45_the_guard_persuaded_to_neutral() -> None:
    """The rules' example: a guard at -2 moved to 0 by passing by more than 3."""
    assert social_roll(2, -2, 4, FixedDice([5, 4])).level == 0


def test_rum45_one_level_for_a_pass_none_for_a_tie() -> None:
    """RU-M45, RU-A02: a pass by 1-3 lifts one level; a tie fails (the other side defends)."""
    assert social_roll(0, 1, 7, FixedDice([4, 4])).shift == 1
    tie = social_roll(0, 1, 7, FixedDice([3, 3]))
    assert tie.check.total == 7 and tie.shift == 0 and tie.level == 1


def test_the_level_stays_on_the_scale() -> None:
    assert social_roll(5, 6, 2, FixedDice([6, 6])).level == 6


@pytest.mark.parametrize(
    ("faces", "band"),
    [
        ((6, 5), "complete-success"),  # 11 vs 7: +4
        ((5, 5), "moderate-success"),  # +3
        ((4, 4), "moderate-success"),  # +1
        ((3, 4), "moderate-failure"),  # a tie: the one read wins
        ((2, 2), "moderate-failure"),  # -3
        ((1, 2), "catastrophic-failure"),  # -4
    ],
)
def test_rum46_four_bands_of_reading(faces: tuple[int, int], band: str) -> None:
    """RU-M46: reading a SOCIAL 1 character is DC 7."""
    assert read(0, 7, FixedDice(faces)).band == band


def test_rua44_double_ones_are_a_moderate_failure_at_best() -> None:
    """RU-A44: a forced failure counts as failing by 0."""
    assert read(9, 7, FixedDice([1, 1])).band == "moderate-failure"
    assert read(None, 7, FixedDice([])).band == "moderate-failure"


def test_rum47_a_successful_lie_sets_the_dc_to_read_the_liar() -> None:
    """RU-M47: SOCIAL 2 lying to PERCEPTION 1 (DC 7): [4,3] = 9 succeeds and becomes the DC."""
    told = lie(2, 1, FixedDice([4, 3]))
    assert not told.suspicious and told.read_dc == 9
    assert read(1, told.read_dc, FixedDice([4, 4])).band == "moderate-failure"
    caught = lie(0, 1, FixedDice([3, 3]))
    assert caught.suspicious and caught.read_dc is None


def test_rum48_social_contests_grade_the_winner_and_ties_are_standoffs() -> None:
    """RU-M48, RU-A34: totals 11 and 6: a complete success for the first; equal totals are a
    standoff even with different scores, unless the table uses the contest rule."""
    assert social_contest(0, 0, FixedDice([5, 6, 3, 3])).degree == "complete"
    close = social_contest(0, 0, FixedDice([4, 4, 3, 3]))
    assert close.contest.winner == "first" and close.degree == "moderate"
    standoff = social_contest(2, 0, FixedDice([3, 3, 4, 4]))
    assert standoff.contest.winner is None and standoff.degree is None
    ruled = social_contest(
        2, 0, FixedDice([3, 3, 4, 4]), options=Options(social_contest_ties="contest-rule")
    )
    assert ruled.contest.winner == "first"


@pytest.mark.parametrize(
    ("difference", "expected"),
    [
        (-2, (Fraction(1, 36), Fraction(1, 4), Fraction(5, 9), Fraction(1, 6))),
        (-1, (Fraction(1, 12), Fraction(1, 3), Fraction(1, 2), Fraction(1, 12))),
        (0, (Fraction(1, 6), Fraction(5, 12), Fraction(7, 18), Fraction(1, 36))),
        (1, (Fraction(5, 18), Fraction(4, 9), Fraction(5, 18), Fraction(0))),
        (2, (Fraction(5, 12), Fraction(5, 12), Fraction(1, 6), Fraction(0))),
    ],
)
def test_rup04_reading_bands_by_score_difference(difference: int, expected: tuple) -> None:
    """RU-P04: (complete, moderate success, moderate failure, catastrophic) by roller - target."""
    assert tuple(reading_bands(difference + 1, 1).values()) == expected


def test_rup04_band_odds_agree_with_rolling_every_face() -> None:
    """Brute force: each of the 36 faces through `read` gives the same bands."""
    for perception, dc in [(0, 7), (5, 6), (-2, 3), (3, 13)]:
        counted: dict[str, Fraction] = {}
        for a in range(1, 7):
            for b in range(1, 7):
                band = read(perception, dc, FixedDice([a, b])).band
                counted[band] = counted.get(band, Fraction(0)) + Fraction(1, 36)
        exact = {band: p for band, p in reading_bands_against(perception, dc).items() if p}
        assert counted == exact
