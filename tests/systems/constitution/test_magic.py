"""Priests and magic (articles 11–12)."""

from __future__ import annotations

import pytest

from tabletop.dice import FixedDice
from tabletop.systems.constitution import (
    ConstitutionError,
    KnownSpell,
    Options,
    ask_blessing,
    breakthrough,
    cast_prepared,
    cast_ritual,
    learn_spell,
    prepare_spells,
    purpose_fulfilled,
    research_days,
    research_subject,
    slots_fit,
    spell_improvement,
    study,
)

from .conftest import make_character


def magician(level: int = 1, **fields: object):
    spells = fields.pop(
        "spells",
        {"Light": KnownSpell(level=1, rating=60), "Fireball": KnownSpell(level=2, rating=40)},
    )
    fields.setdefault("has_spell_book", True)
    return make_character(
        character_class="sage",
        level=level,
        initiations=("goetia",),
        spells=spells,
        knowledge=12,
        will=10,
        **fields,
    )


@pytest.mark.parametrize(
    ("levels", "fits"),
    [
        ([1, 2, 3, 4], True),
        ([1, 2, 2, 4], True),
        ([1, 1, 1, 1], True),
        ([2, 2, 3, 4], False),
        ([4, 4], False),
        ([1, 1, 1, 1, 1], False),
    ],
)
def test_c3_t17_spell_slots_of_a_fourth_level_character(levels, fits):
    """§ 12.5, C3-T17, C3-A22."""
    assert slots_fit(levels, 4) is fits


def test_c3_t17_a_first_level_goetia_prepares_one_first_level_spell():
    assert slots_fit([1], 1) and not slots_fit([2], 1)


def test_c3_m56_a_ritual_needs_both_skill_modified_checks():
    """§ 12.2: knowledge 12 × 60% = 7 (+1 sage level) and will 10 × 60% = 6, vs DC 20."""
    sage = magician()
    sage, ritual = cast_ritual(sage, "Light", FixedDice([12, 14]))
    assert (ritual.knowledge.score, ritual.will.score) == (8, 6)
    assert ritual.success and ritual.hours == 1 and sage.cast_this_session
    _, failed = cast_ritual(magician(), "Light", FixedDice([12, 13]))
    assert not failed.success


def test_c3_m57_preparing_then_casting_on_a_d100_at_or_under_the_rating():
    """§ 12.3, C3-A19 (≤), C3-A39 (the preparation is spent)."""
    sage = magician(level=2)
    sage, _ = prepare_spells(sage, ["Light", "Fireball"])
    sage, cast = cast_prepared(sage, "Light", FixedDice([60]))
    assert cast.success and sage.prepared == ("Fireball",)
    sage, cast = cast_prepared(sage, "Fireball", FixedDice([41]))
    assert not cast.success
    with pytest.raises(ConstitutionError, match="has not prepared"):
        cast_prepared(sage, "Fireball", FixedDice([1]))


def test_c3_a19_a_spell_at_100_percent_always_works():
    sage = magician(spells={"Light": KnownSpell(level=1, rating=100)})
    sage, _ = prepare_spells(sage, ["Light"])
    _, cast = cast_prepared(sage, "Light", FixedDice([100]))
    assert cast.success


def test_c3_m57_a_second_preparation_in_a_day_tires():
    """§ 12.4; the night's sleep resets the count."""
    sage, events = prepare_spells(magician(), ["Light"])
    assert sage.fatigue == 0
    sage, events = prepare_spells(sage, ["Light"])
    assert sage.fatigue == 1 and events[-1].kind == "fatigue"


def test_preparing_needs_goetia_a_spell_book_and_fitting_slots():
    """§ 12.3, § 12.7, § 12.5."""
    with pytest.raises(ConstitutionError, match="cannot prepare"):
        prepare_spells(make_character(), [])
    with pytest.raises(ConstitutionError, match="spell book"):
        prepare_spells(magician(has_spell_book=False), ["Light"])
    with pytest.raises(ConstitutionError, match="do not fit"):
        prepare_spells(magician(), ["Fireball"])


def test_c3_a20_the_spell_improvement_roll():
    """§ 12.15: above the rating the roll becomes it; otherwise +1d6 (capped at 100)."""
    sage = magician(cast_this_session=True)
    higher, _ = spell_improvement(sage, "Light", FixedDice([85]))
    assert higher.spells["Light"].rating == 85 and not higher.cast_this_session
    lower, _ = spell_improvement(sage, "Light", FixedDice([60, 4]))
    assert lower.spells["Light"].rating == 64
    capped, _ = spell_improvement(
        magician(cast_this_session=True, spells={"Light": KnownSpell(level=1, rating=98)}),
        "Light",
        FixedDice([50, 6]),
    )
    assert capped.spells["Light"].rating == 100
    with pytest.raises(ConstitutionError, match="tried no spell"):
        spell_improvement(magician(), "Light", FixedDice([50]))


def test_c3_a21_research_takes_4d6_days_per_level_doubled_with_chores():
    """§ 12.9: level 2 → 8d6 (per_level) or 4d6 × 2 (multiplied)."""
    days, record = research_days(2, FixedDice([1, 2, 3, 4, 5, 6, 1, 2]))
    assert days == 24 and record.expression == "8d6"
    days, _ = research_days(1, FixedDice([6, 6, 6, 6]), own_chores=True)
    assert days == 48
    days, record = research_days(
        2, FixedDice([1, 2, 3, 4]), options=Options(research_time="multiplied")
    )
    assert days == 20 and record.expression == "4d6 * 2"


def test_c3_m59_research_routes():
    """§ 12.10–12.13: random first-level spell, curriculum, writings, half a mentor's rating."""
    spell, rating, record = research_subject(
        "exploratory", FixedDice([2]), candidates=["A", "B", "C"]
    )
    assert (spell, rating, record.total) == ("B", 50, 2)
    assert research_subject("writings", FixedDice([]), candidates=["A"]) == ("A", 50, None)
    assert research_subject("school", FixedDice([]), candidates=["Next", "Later"])[:2] == (
        "Next",
        50,
    )
    assert research_subject("mentor", FixedDice([]), candidates=["Ward"], mentor_rating=75)[:2] == (
        "Ward",
        37,
    )
    with pytest.raises(ConstitutionError, match="spell list"):
        research_subject("writings", FixedDice([]))


def test_c3_m59_learning_needs_a_book_an_opening_initiation_and_an_owed_research():
    """§ 12.8, § 8.3–8.5."""
    sage = magician(level=2)
    with pytest.raises(ConstitutionError, match="only on gaining a level"):
        learn_spell(sage, "Sleep", KnownSpell(level=1, rating=50))
    sage = breakthrough(sage)
    learned = learn_spell(sage, "Sleep", KnownSpell(level=1, rating=50))
    assert "Sleep" in learned.spells and learned.research_owed == 0
    with pytest.raises(ConstitutionError, match="no initiation"):
        learn_spell(breakthrough(sage), "Burn", KnownSpell(level=2, rating=50, school="fire"))
    pyromancer = make_character(
        character_class="sage",
        level=2,
        initiations=("goetia", "pyromancer"),
        has_spell_book=True,
        research_owed=1,
    )
    assert (
        "Burn"
        in learn_spell(pyromancer, "Burn", KnownSpell(level=2, rating=50, school="fire")).spells
    )


def test_c3_m59_focused_study_adds_1d6_a_day():
    """§ 12.14."""
    sage, record = study(magician(), "Light", 3, FixedDice([1, 2, 3]))
    assert sage.spells["Light"].rating == 66 and record.expression == "3d6"


def test_c3_m54_blessings_and_penance():
    """§ 11.1–11.4: a selfish request earns penance whatever the answer; a just purpose
    fulfilled lifts one."""
    priest = make_character(character_class="sage", initiations=("ordained",))
    priest, blessing, _ = ask_blessing(priest, "my purse", "personal gain", just=False)
    assert priest.penance == 1 and blessing.active
    priest, just_blessing, _ = ask_blessing(priest, "the village", "scourge the undead", just=True)
    assert purpose_fulfilled(priest, just_blessing).penance == 0
    with pytest.raises(ConstitutionError):
        purpose_fulfilled(priest, blessing)
    with pytest.raises(ConstitutionError, match="not ordained"):
        ask_blessing(make_character(), "x", "y", just=True)


def test_c3_m53_a_blessing_lasts_until_a_sunrise_and_a_sunset_have_passed():
    """§ 11.2."""
    priest = make_character(character_class="sage", initiations=("ordained",))
    _, blessing, _ = ask_blessing(priest, "the sword", "slay the wight", just=True)
    after_sunset = blessing.time_passes("sunset")
    assert after_sunset.active and not after_sunset.time_passes("sunrise").active
