"""Corruption (§ Corruption; CR-M18, CR-A14, CR-A15, CR-G07)."""

from __future__ import annotations

import json

import pytest

from tabletop.dice import FixedDice
from tabletop.systems.rollunder import (
    Resolution,
    RollUnderDataError,
    RollUnderError,
    RollUnderOptions,
    SufferCorruption,
    choose_mutation,
    load_mutation_table,
)
from tests.systems.rollunder.helpers import hero, kinds, run

# A test fixture only: tabletop ships no mutations (the table is in another chapter).
TEST_MUTATIONS = {
    "name": "test mutations",
    "dice": "1d4",
    "entries": [
        {"roll": "1-2", "name": "Test mutation A"},
        {"roll": "3+", "name": "Test mutation B"},
    ],
}


def corrupt(gain: int = 1, table: dict | None = None, **sheet: object) -> SufferCorruption:
    return SufferCorruption(character=hero(**sheet), gain=gain, mutation_table=table)


def test_cr_t15_a_roll_under_the_total_is_direct_damage_and_heals_as_much_corruption():
    """CR-T15: corruption 2 + 1 = 3; d12 3 ≤ 3 → 3 direct damage, corruption 0."""
    done = run(corrupt(corruption=2, health=14), [3])
    sheet = done.outcome.character
    assert (sheet.corruption, sheet.health) == (0, 11)
    assert done.outcome.triggered and done.outcome.roll == 3
    assert kinds(done)[:3] == ["corruption_gained", "corruption_roll", "corruption_healed"]


def test_cr_m18_a_roll_over_the_total_does_nothing_more():
    done = run(corrupt(corruption=0), [2])
    assert (done.outcome.character.corruption, done.outcome.character.health) == (1, 10)
    assert not done.outcome.triggered


def test_cr_a14_the_total_includes_the_new_gain_unless_the_option_says_before():
    assert run(corrupt(corruption=2, health=14), [3]).outcome.triggered
    options = RollUnderOptions(corruption_roll_against="old_total")
    done = run(corrupt(corruption=2, health=14), [3], options)
    assert not done.outcome.triggered and done.outcome.character.corruption == 3
    hit = run(corrupt(gain=5, corruption=2, health=14), [2], options)
    assert hit.outcome.triggered and hit.outcome.character.corruption == 5


def test_cr_t17_critical_damage_from_corruption_brings_a_mutation():
    """CR-T17: health 5 of 10, corruption 4 + 1; d12 3 → 3 > 2.5, incapacitated, a mutation
    for the GM to choose; 3 > 5 is false, so no injury. Health 2, corruption 2."""
    done = run(corrupt(corruption=4, health=5, max_health=10), [3])
    sheet = done.outcome.character
    assert (sheet.health, sheet.corruption) == (2, 2)
    assert sheet.incapacitated and sheet.mutations_to_choose == 1
    assert not done.outcome.critical.injury
    assert kinds(done)[-1] == "mutation_to_choose"
    chosen, _ = choose_mutation(sheet, "Third eye")
    assert chosen.mutations == ("Third eye",) and chosen.mutations_to_choose == 0
    with pytest.raises(RollUnderError, match="no mutation waiting"):
        choose_mutation(chosen, "Horns")


def test_cr_a15_corruption_damage_can_injure_and_still_mutates():
    done = run(corrupt(corruption=11, health=10, max_health=10), [12, 5])
    sheet = done.outcome.character
    assert done.outcome.critical.permanent
    assert sheet.injuries[0].trait == "Disabled leg" and sheet.injuries[0].permanent
    assert sheet.mutations_to_choose == 1


def test_cr_a15_a_character_killed_by_the_injury_develops_no_mutation():
    done = run(corrupt(corruption=11, health=10, max_health=10), [12, 8])
    assert not done.outcome.character.alive
    assert "mutation_to_choose" not in kinds(done)


def test_cr_g07_a_supplied_mutation_table_is_rolled_and_an_omen_may_reroll_it():
    table = load_mutation_table(TEST_MUTATIONS)
    done = run(corrupt(corruption=4, health=5, max_health=10, table=table), [3, 4])
    assert done.outcome.character.mutations == ("Test mutation B",)
    start = Resolution.begin(
        corrupt(corruption=4, health=5, max_health=10, omens=1, max_omens=1, table=table),
        FixedDice([3]),
    )
    on_table = start.choose("keep 1", FixedDice([1]))
    assert on_table.decision is not None and on_table.decision.roll == "mutation"
    final = on_table.choose("reroll Ash", FixedDice([4])).choose("keep 2", FixedDice([]))
    assert final.outcome.character.mutations == ("Test mutation B",)


def test_cr_g07_a_mutation_table_file_is_checked_when_loaded(tmp_path):
    path = tmp_path / "mutations.json"
    path.write_text(json.dumps(TEST_MUTATIONS), encoding="utf-8")
    assert load_mutation_table(path)["entries"][1]["roll"] == "3+"
    broken = {**TEST_MUTATIONS, "entries": [{"roll": "1-2", "name": "only half"}]}
    with pytest.raises(RollUnderDataError, match="no entry for a roll of 3"):
        load_mutation_table(broken)
    with pytest.raises(ValueError, match="no entry for a roll of 3"):
        corrupt(corruption=1, table=broken)


def test_corruption_gain_must_be_at_least_1():
    with pytest.raises(ValueError):
        corrupt(gain=0)
