"""Never a silent second meaning: every other dialect's reading of the same text, compared by
law (issue 34's cases), and no note where the laws agree."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tabletop.dice import distribution, other_readings


def test_foundrys_limited_re_roll_is_noted_where_tabletop_counts_ones():
    # Issue 34: tabletop reads '20d20r1=1' as re-rolling 1s, then counting 1s (always 0).
    notes = [str(note) for note in other_readings("20d20r1=1")]
    assert any(note.startswith("Foundry VTT reads '20d20r1=1' otherwise") for note in notes)


def test_d20s_keep_by_face_is_noted_where_others_keep_the_highest():
    # D20: 'k3' keeps the dice showing 3; tabletop, Roll20 and Foundry keep the highest 3.
    notes = [str(note) for note in other_readings("4d6k3")]
    assert any(note.startswith("Avrae (d20) reads '4d6k3' otherwise") for note in notes)


def notes(text: str, dialect: str = "tabletop") -> dict[str, str]:
    return {reading.dialect.name: str(reading) for reading in other_readings(text, dialect)}


def test_a_strict_compare_point_names_roll20s_reading():
    found = notes("3d6>3")
    assert set(found) == {"roll20", "avrae"}
    assert found["roll20"] == (
        "Roll20 reads '3d6>3' otherwise: as '3d6>=3' in tabletop (mean 2 there, 1.5 here)"
    )
    # d20 compares the total: 1 when 3d6 is past 3, which is all but a 3 in 216.
    assert found["avrae"] == "Avrae (d20) reads '3d6>3' otherwise (mean 0.9954 there, 1.5 here)"


def test_roll20s_reading_names_tabletops_in_roll20_spelling():
    assert notes("3d6>3", "roll20")["tabletop"] == (
        "tabletop reads '3d6>3' otherwise: as '3d6>4' in Roll20 (mean 1.5 there, 2 here)"
    )


def test_foundrys_r_is_once_and_the_others_repeat():
    found = notes("20d20r1", "foundry")
    assert set(found) == {"tabletop", "roll20"}
    assert "as '20d20rr1' in Foundry VTT" in found["tabletop"]


def test_separate_explosions_are_noted_only_where_the_law_differs():
    assert notes("5d10!") == {}  # the sums agree
    assert "roll20" in notes("5d10!k2")
    assert "roll20" in notes("2d6>3!")


def test_division_is_noted_in_every_reading_that_rounds_otherwise():
    found = notes("-7/2")
    assert set(found) == {"roll20", "foundry", "avrae"}
    assert "(mean -3 there, -4 here)" in found["avrae"]
    assert "(mean -3.5 there, -4 here)" in found["roll20"]


@pytest.mark.parametrize(
    ("text", "dialects"),
    [
        ("4d6kh3", ("tabletop", "roll20", "foundry", "avrae")),
        ("1d20 + 5", ("tabletop", "roll20", "foundry", "avrae")),
        ("3d6!", ("tabletop", "roll20")),
        ("floor(7/2)", ("tabletop", "roll20", "foundry")),
        ("4d6dl1", ("tabletop", "roll20", "foundry")),
    ],
)
def test_the_same_meaning_everywhere_is_no_note(text, dialects):
    for dialect in dialects:
        assert other_readings(text, dialect) == []


def test_past_the_exact_limits_the_trees_decide_and_the_note_says_so():
    found = notes("2d200000kh1>3")
    assert "its odds are too costly to compare in a note" in found["roll20"]


def test_a_note_takes_a_part_of_the_exact_limits_and_leaves_the_whole_to_the_odds():
    """Roll20's `20d10!k10` adds its follow-ups as dice that keep competes for: its law
    took 4 s of the whole limits before a roll's note (issue 34, item 5). A note gives up
    at its part of them (tabletop's `6d10!k3` compounds past it), and caches no refusal
    the whole limits would not make: the odds of that reading are still exact."""
    (reading,) = other_readings("6d10!k3")
    assert reading.dialect.name == "roll20" and reading.means is None
    assert distribution("6d10!k3").mean > distribution("6d10!k3", dialect="roll20").mean


def test_a_note_carries_both_means_exactly():
    roll20, avrae = other_readings("3d6>3")
    assert roll20.means == (Fraction(2), Fraction(3, 2))
    assert avrae.means == (Fraction(215, 216), Fraction(3, 2))


def test_a_remainder_of_a_negative_number_names_the_other_sign():
    found = notes("-7 % 3", "roll20")
    assert set(found) == {"avrae"}
    assert found["avrae"] == ("Avrae (d20) reads '-7 % 3' otherwise (mean 2 there, -1 here)")
    assert other_readings("7 % 3", "roll20") == []


def test_roll20s_critical_point_is_noted_against_foundrys_count():
    found = notes("1d20cs>19", "roll20")
    assert set(found) == {"foundry"}
    assert found["foundry"] == (
        "Foundry VTT reads '1d20cs>19' otherwise: as '1d20>20' in Roll20 (mean 0.05 there, "
        "10.5 here)"
    )
