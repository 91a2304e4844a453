"""Spending and recovering omens (§ Spending omens; CR-M19, CR-A10, CR-A18)."""

from __future__ import annotations

import pytest

from tabletop.dice import FixedDice
from tabletop.systems.rollunder import (
    ChanceRoll,
    Resolution,
    RollUnderError,
    RollUnderOptions,
    cast_sacred_spell,
    recover_omens,
    save_from_death,
    spend_omens,
)
from tests.systems.rollunder.helpers import hero, run


def test_cr_m19b_one_omen_restores_health_and_every_ability_at_0():
    """CR-A18: health 0, STR 0 and WIT 0 all come back to 1 for one omen; STR lifts health."""
    dying = hero(abilities={"STR": 0, "AGI": 5, "WIT": 0}, health=0, max_health=4, omens=2,
                 max_omens=2)  # fmt: skip
    saved, events = save_from_death(dying, RollUnderOptions())
    assert saved.abilities == {"STR": 1, "AGI": 5, "WIT": 1}
    assert (saved.health, saved.max_health) == (1, 5)  # STR 0 → 1 raised both by 1
    assert saved.omens == 1 and not saved.at_deaths_door
    assert events[-1].values == {"restored": "STR, WIT", "omens": 1}


def test_cr_a18_the_option_costs_one_omen_per_score_at_0():
    options = RollUnderOptions(death_save_scope="one_per_omen")
    dying = hero(abilities={"STR": 5, "AGI": 0, "WIT": 9}, health=0, omens=2, max_omens=2)
    saved, _ = save_from_death(dying, options)
    assert saved.omens == 0 and saved.health == 1 and saved.abilities["AGI"] == 1
    with pytest.raises(RollUnderError, match="1 omens, not the 2 needed"):
        save_from_death(dying.with_changes(omens=1), options)


def test_cr_m19c_a_sacred_spell_costs_an_omen():
    sheet, events = cast_sacred_spell(hero(omens=1, max_omens=1), "Ward")
    assert sheet.omens == 0
    assert [event.kind for event in events] == ["omen_spent", "sacred_spell"]
    with pytest.raises(RollUnderError, match="0 omens"):
        cast_sacred_spell(sheet, "Ward")
    with pytest.raises(RollUnderError, match="name the sacred spell"):
        cast_sacred_spell(hero(omens=1, max_omens=1), " ")


def test_cr_m19_spent_omens_come_back_in_downtime():
    assert recover_omens(hero(omens=1, max_omens=3)).character.omens == 3
    assert recover_omens(hero(omens=3, max_omens=3)).events == ()


def test_spend_omens_refuses_more_than_held_and_the_dead():
    with pytest.raises(RollUnderError, match="has 1 omens"):
        spend_omens(hero(omens=1, max_omens=1), 2, "test")
    with pytest.raises(RollUnderError, match="dead"):
        spend_omens(hero(death="injury", omens=1, max_omens=1), 1, "test")


def test_cr_m19a_a_chance_roll_or_table_roll_can_be_rerolled():
    intent = ChanceRoll(character=hero(omens=1, max_omens=1), expression="1d6", purpose="luck")
    start = Resolution.begin(intent, FixedDice([1]))
    assert start.decision is not None and start.decision.roll == "chance"
    done = start.choose("reroll Ash", FixedDice([5])).choose("keep 2", FixedDice([]))
    assert done.outcome.result.total == 5 and done.outcome.character.omens == 0
    assert run(ChanceRoll(character=hero(), expression="2d6"), [3, 4]).outcome.result.total == 7


def test_cr_m19a_a_chance_roll_written_loosely_still_resumes_after_a_choice():
    """CR-M19a: the engine records `2d6+1` as `2d6 + 1`; the kept result must still count
    as a roll of what was asked, or the resolution could never be read again."""
    intent = ChanceRoll(character=hero(omens=1, max_omens=1), expression="2d6+1")
    start = Resolution.begin(intent, FixedDice([1, 2]))
    done = start.choose("reroll Ash", FixedDice([6, 5])).choose("keep 2", FixedDice([]))
    assert done.finished and done.outcome.result.total == 12
    assert Resolution.model_validate_json(done.model_dump_json()).outcome == done.outcome


def test_cr_a10_the_owner_may_keep_the_first_result_after_rerolling():
    intent = ChanceRoll(character=hero(omens=1, max_omens=1), expression="1d6")
    done = Resolution.begin(intent, FixedDice([4])).choose("reroll Ash", FixedDice([2]))
    kept = done.choose("keep 1", FixedDice([]))
    assert kept.outcome.result.total == 4 and kept.outcome.character.omens == 0
