"""Ability contests and their tie-breaks (§ Ability Contests; CR-M03, CR-M04, CR-A16)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from tabletop.dice import FixedDice
from tabletop.systems.rollunder import Contest, Resolution, Roller, RollUnderOptions, Side
from tests.systems.rollunder.helpers import kinds, run


def alone(name: str, score: int, **more: object) -> Side:
    return Side.alone(Roller(name=name, score=score, **more))  # type: ignore[arg-type]


def team(name: str, *scores: int) -> Side:
    members = tuple(Roller(name=f"{name}{n}", score=s) for n, s in enumerate(scores, 1))
    return Side(name=name, members=members)


def test_cr_t03_a_tie_is_broken_by_one_more_roll_each():
    """CR-T03: A (AGI 10) 3,15,9,11 = 2; B (AGI 12) 12,13,2,20 = 2; A rolls 4, B 16."""
    contest = Contest(ability="AGI", sides=(alone("A", 10), alone("B", 12)))
    done = run(contest, [3, 15, 9, 11, 12, 13, 2, 20, 4, 16])
    assert done.outcome.successes == {"A": 2, "B": 2}
    assert [place.sides for place in done.outcome.places] == [("A",), ("B",)]
    assert done.outcome.winner == "A"
    assert kinds(done).count("tie_break") == 1


def test_cr_t03_team_successes_are_added():
    """CR-T03, CR-M04: X scores 2 + 1 = 3, Y 2 + 2 = 4; Y wins, no tie-break."""
    contest = Contest(ability="AGI", sides=(team("X", 10, 10), team("Y", 10, 10)))
    faces = [*(1, 1, 20, 20), *(1, 20, 20, 20), *(1, 1, 20, 20), *(1, 1, 20, 20)]
    done = run(contest, faces)
    assert done.outcome.successes == {"X": 3, "Y": 4}
    assert done.outcome.winner == "Y"


def test_cr_a16_tied_teams_roll_once_more_per_member():
    contest = Contest(ability="AGI", sides=(team("X", 10, 10), team("Y", 10, 10)), rolls=1)
    # contest: X 1+0, Y 0+1; tie-break: X 1+1 = 2, Y 1+0 = 1
    done = run(contest, [1, 20, 20, 1, 1, 1, 1, 20])
    assert done.outcome.winner == "X"


def test_cr_a16_a_round_that_leaves_the_tie_repeats_with_only_the_tied():
    contest = Contest(ability="AGI", sides=(alone("A", 10), alone("B", 10), alone("C", 1)), rolls=1)
    # contest: A 1, B 1, C 0; tie-breaks between A and B only: both pass, both fail, B passes
    done = run(contest, [5, 5, 20, 3, 3, 15, 15, 15, 2])
    assert [place.sides for place in done.outcome.places] == [("B",), ("A",), ("C",)]
    assert kinds(done).count("tie_break") == 3


def test_cr_a16_a_three_way_tie_splits_and_the_rest_breaks_its_own_tie():
    contest = Contest(
        ability="AGI", sides=(alone("A", 10), alone("B", 10), alone("C", 10)), rolls=1
    )
    # all pass; tie-break: A passes, B and C fail; then B and C: B fails, C passes
    done = run(contest, [1, 1, 1, 2, 20, 20, 20, 3])
    assert [place.sides for place in done.outcome.places] == [("A",), ("C",), ("B",)]


def test_cr_a16_a_tie_no_roll_can_break_stands_without_rolling():
    """Scores of 20 always pass: the sides share first place; no tie-break dice."""
    contest = Contest(ability="AGI", sides=(alone("A", 20), alone("B", 25)), rolls=2)
    done = run(contest, [20, 20, 1, 19])
    assert [place.sides for place in done.outcome.places] == [("A", "B")]
    assert done.outcome.winner is None
    assert "tie_stands" in kinds(done)


def test_cr_a16_full_set_option_repeats_every_roll_in_a_tie_break():
    options = RollUnderOptions(contest_tie_break="full_set")
    contest = Contest(ability="AGI", sides=(alone("A", 10), alone("B", 10)), rolls=2)
    done = run(contest, [1, 20, 1, 20, 20, 20, 1, 20], options)
    assert done.outcome.winner == "B"


def test_cr_a02_an_encumbered_contestant_adds_a_str_roll_to_each_passing_roll():
    contest = Contest(ability="AGI", sides=(alone("A", 12, strength=10), alone("B", 5)), rolls=2)
    # A: 3 (STR 15 fails), 20 (no STR roll); B: 5, 6 -> A 0, B 1
    done = run(contest, [3, 15, 20, 5, 6])
    assert done.outcome.successes == {"A": 0, "B": 1}
    assert done.outcome.winner == "B"


def test_cr_a21_an_incapacitated_contestant_fails_every_roll():
    contest = Contest(ability="AGI", sides=(alone("A", 19, incapacitated=True), alone("B", 1)))
    # B fails all four; in the tie-break only B rolls (A cannot pass), and passes
    done = run(contest, [20, 20, 20, 20, 1])
    assert done.outcome.successes == {"A": 0, "B": 0}
    assert [place.sides for place in done.outcome.places] == [("B",), ("A",)]
    both = Contest(
        ability="AGI",
        sides=(alone("A", 19, incapacitated=True), alone("B", 19, incapacitated=True)),
    )
    assert [place.sides for place in run(both, []).outcome.places] == [("A", "B")]


def test_cr_m19a_a_contestant_spends_an_omen_to_reroll_a_failure():
    contest = Contest(ability="AGI", sides=(alone("A", 10, omens=1), alone("B", 10)), rolls=1)
    start = Resolution.begin(contest, FixedDice([15]))
    assert start.decision is not None and start.decision.choices == ("keep 1", "reroll A")
    done = start.choose("reroll A", FixedDice([2])).choose("keep 2", FixedDice([11]))
    assert done.outcome.winner == "A"
    assert done.outcome.omens_spent == {"A": 1, "B": 0}


def test_contest_refusals():
    with pytest.raises(ValidationError, match="different name"):
        Contest(ability="AGI", sides=(alone("A", 10), alone("A", 12)))
    with pytest.raises(ValidationError, match="at least 2"):
        Contest(ability="AGI", sides=(alone("A", 10),))
    with pytest.raises(ValidationError):
        Contest(ability="AGI", sides=(alone("A", 10), alone("B", 10)), rolls=0)
