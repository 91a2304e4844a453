"""Ability rolls, collective rolls, challenge levels and the encumbered AGI roll
(§ Ability Rolls, § Challenge Levels, § Encumbrance; CR-M01, M02, M05, M06)."""

from __future__ import annotations

import pytest

from tabletop.dice import FixedDice
from tabletop.errors import RollError
from tabletop.systems.rollunder import (
    AbilityRoll,
    CollectiveRoll,
    Item,
    Load,
    Resolution,
    Roller,
    RollUnderError,
    RollUnderOptions,
    ScoreRoll,
)
from tests.systems.rollunder.helpers import hero, kinds, run

HEAVY = Load(
    carry_limit=7,
    worn=(Item(name="clothes", bulk=1, kind="clothes"),),
    stored=(Item(name="rope", bulk=3),),
)
LIGHT = Load(carry_limit=7, worn=(Item(name="clothes", bulk=1, kind="clothes"),),
             stored=(Item(name="rope", bulk=2),))  # fmt: skip


def score_roll(*scores: int, level: str = "challenging", **roller: object) -> ScoreRoll:
    rollers = [Roller(name=f"r{n}", score=s, **roller) for n, s in enumerate(scores)]  # type: ignore[arg-type]
    return ScoreRoll(rollers=tuple(rollers), level=level)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("score", "face", "passed"),
    [(12, 12, True), (12, 13, False), (12, 1, True), (20, 20, True), (0, 1, False)],
)
def test_cr_t01_a_roll_equal_or_under_the_score_passes(score, face, passed):
    """CR-T01, CR-M01: pass on a d20 equal to or under the score."""
    assert run(score_roll(score), [face]).outcome.passed is passed


def test_cr_t01_on_a_sheet_the_named_ability_is_rolled():
    done = run(AbilityRoll(character=hero(), ability="STR"), [12])
    assert done.outcome.passed
    assert done.events[0].values == {"ability": "STR", "score": 12, "face": 12, "passed": True}
    assert done.events[0].dice is not None and done.events[0].dice.line == "1d20: 12"


@pytest.mark.parametrize(("level", "passed"), [("trivial", True), ("impossible", False)])
def test_cr_m05_trivial_and_impossible_need_no_roll(level, passed):
    """CR-M05: no die is rolled (the fixed dice are empty)."""
    done = run(AbilityRoll(character=hero(), ability="AGI", level=level), [])
    assert done.outcome.passed is passed
    assert done.outcome.rolled is False
    assert kinds(done) == ["automatic_result"]


def test_cr_a17_no_natural_results_by_default_and_the_option_makes_them():
    assert run(score_roll(25), [20]).outcome.passed
    assert not run(score_roll(0), [1]).outcome.passed
    naturals = RollUnderOptions(natural_results="one_passes_twenty_fails")
    assert not run(score_roll(25), [20], naturals).outcome.passed
    assert run(score_roll(0), [1], naturals).outcome.passed
    assert run(score_roll(12), [12], naturals).outcome.passed


@pytest.mark.parametrize(("face", "passed"), [(14, True), (15, False), (3, True)])
def test_cr_m02_one_d20_for_the_group_against_any_score(face, passed):
    """CR-M02: one die only; the group passes if any member's score would."""
    done = run(score_roll(5, 14, 9), [face])
    assert done.outcome.passed is passed
    assert kinds(done) == ["ability_roll", "group_result"]


def test_cr_m02_a_collective_roll_of_sheets():
    group = CollectiveRoll(
        characters=(hero(), hero(name="Bo", abilities={"STR": 8, "AGI": 15, "WIT": 4})),
        ability="AGI",
    )
    assert run(group, [15]).outcome.passed
    assert not run(group, [16]).outcome.passed


@pytest.mark.parametrize(("faces", "passed"), [([9, 14], False), ([9, 10], True), ([15], False)])
def test_cr_t19_an_encumbered_agi_roll_also_needs_a_str_roll(faces, passed):
    """CR-T19, CR-A02: AGI 12, STR 10, encumbered; the STR roll is skipped once AGI failed."""
    sheet = hero(abilities={"STR": 10, "AGI": 12, "WIT": 9})
    done = run(AbilityRoll(character=sheet, ability="AGI", encumbered=True), faces)
    assert done.outcome.passed is passed


def test_cr_a02_the_moot_str_roll_is_rolled_for_the_record_under_the_option():
    sheet = hero(abilities={"STR": 10, "AGI": 12, "WIT": 9})
    options = RollUnderOptions(moot_strength_rolls="roll")
    done = run(AbilityRoll(character=sheet, ability="AGI", encumbered=True), [15, 3], options)
    assert not done.outcome.passed
    assert kinds(done) == ["ability_roll", "strength_roll"]


def test_cr_a01_encumbrance_comes_from_the_load_over_half_the_limit():
    """CR-A01: limit 7, bulk 4 is encumbered (two dice), bulk 3 is not (one die)."""
    assert run(AbilityRoll(character=hero(load=HEAVY), ability="AGI"), [5, 5]).outcome.passed
    assert run(AbilityRoll(character=hero(load=LIGHT), ability="AGI"), [5]).outcome.passed


def test_cr_m06_only_agi_rolls_need_the_extra_str_roll():
    assert run(AbilityRoll(character=hero(load=HEAVY), ability="WIT"), [5]).outcome.passed


def test_cr_a02_a_group_rolls_str_only_while_its_result_depends_on_it():
    heavy = hero(name="Cai", abilities={"STR": 10, "AGI": 12, "WIT": 9}, load=HEAVY)
    light = hero(name="Di", abilities={"STR": 10, "AGI": 8, "WIT": 9})
    group = CollectiveRoll(characters=(heavy, light), ability="AGI")
    assert not run(group, [10, 11]).outcome.passed  # only Cai passes AGI, then fails STR
    assert run(group, [10, 5]).outcome.passed
    assert run(group, [7]).outcome.passed  # Di passes outright: no STR roll


def test_cr_a21_an_incapacitated_character_fails_without_a_roll():
    sheet = hero(incapacitated=True)
    done = run(AbilityRoll(character=sheet, ability="STR"), [])
    assert not done.outcome.passed and not done.outcome.rolled
    rolled = run(
        AbilityRoll(character=sheet, ability="STR"),
        [3],
        RollUnderOptions(incapacitated_rolls="roll"),
    )
    assert rolled.outcome.passed


def test_cr_a21_the_challenge_level_comes_before_incapacitation():
    """§ Challenge Levels, CR-A21: the GM rates the action knowing the character's state, so
    a trivial action still succeeds and an impossible one fails, without a roll."""
    sheet = hero(incapacitated=True)
    assert run(AbilityRoll(character=sheet, ability="STR", level="trivial"), []).outcome.passed
    impossible = AbilityRoll(character=sheet, ability="STR", level="impossible")
    assert not run(impossible, []).outcome.passed


def test_cr_a02_a_collective_roll_skips_a_str_roll_that_cannot_matter_under_either_setting():
    """CR-A02 `moot_strength_rolls=roll` is about one character's own roll: a member who
    passes outright settles a collective roll, so no STR roll is made."""
    heavy = hero(name="Cai", abilities={"STR": 10, "AGI": 12, "WIT": 9}, load=HEAVY)
    light = hero(name="Di", abilities={"STR": 10, "AGI": 8, "WIT": 9})
    group = CollectiveRoll(characters=(heavy, light), ability="AGI")
    done = run(group, [7], RollUnderOptions(moot_strength_rolls="roll"))
    assert done.outcome.passed and "strength_roll" not in kinds(done)


def test_cr_a21_a_group_counts_only_members_who_can_act():
    down = hero(name="Cai", abilities={"STR": 10, "AGI": 15, "WIT": 9}, incapacitated=True)
    up = hero(name="Di", abilities={"STR": 10, "AGI": 5, "WIT": 9})
    assert not run(CollectiveRoll(characters=(down, up), ability="AGI"), [10]).outcome.passed
    assert not run(CollectiveRoll(characters=(down,), ability="AGI"), []).outcome.passed


def test_cr_m19a_an_omen_rerolls_an_ability_roll_and_the_owner_keeps_one():
    """CR-M19a, CR-A10: the player spends an omen, then chooses which result stands."""
    start = Resolution.begin(
        AbilityRoll(character=hero(omens=1, max_omens=2), ability="STR"), FixedDice([15])
    )
    assert start.decision is not None
    assert start.decision.choices == ("keep 1", "reroll Ash")
    again = start.choose("reroll Ash", FixedDice([3]))
    assert again.decision is not None and again.decision.choices == ("keep 1", "keep 2")
    done = again.choose("keep 2", FixedDice([]))
    assert done.outcome.passed
    assert done.outcome.character.omens == 0
    assert kinds(done) == ["omen_spent", "roll_kept", "ability_roll"]


def test_cr_m01_the_decision_says_whether_each_result_passes():
    """Issue 23: an omen is spent on a re-roll only knowing whether the roll already passed:
    against STR 12, a 15 fails and a 3 passes."""
    start = Resolution.begin(
        AbilityRoll(character=hero(omens=1, max_omens=2), ability="STR"), FixedDice([15])
    )
    assert start.decision is not None and start.decision.passes == (False,)
    again = start.choose("reroll Ash", FixedDice([3]))
    assert again.decision is not None and again.decision.passes == (False, True)


def test_cr_a10_the_same_roll_can_be_rerolled_again_unless_the_option_says_once():
    intent = AbilityRoll(character=hero(omens=2, max_omens=2), ability="STR")
    twice = Resolution.begin(intent, FixedDice([15])).choose("reroll Ash", FixedDice([16]))
    assert twice.decision is not None and "reroll Ash" in twice.decision.choices
    once = RollUnderOptions(omen_repeat_rerolls=False)
    single = Resolution.begin(intent, FixedDice([15]), once).choose("reroll Ash", FixedDice([16]))
    assert single.decision is not None and single.decision.choices == ("keep 1", "keep 2")


def test_any_member_may_reroll_a_collective_roll():
    group = CollectiveRoll(
        characters=(hero(), hero(name="Bo", omens=1, max_omens=1)), ability="STR"
    )
    start = Resolution.begin(group, FixedDice([19]))
    assert start.decision is not None and start.decision.choices == ("keep 1", "reroll Bo")
    done = start.choose("reroll Bo", FixedDice([4])).choose("keep 2", FixedDice([]))
    assert done.outcome.passed
    assert [sheet.omens for sheet in done.outcome.characters] == [0, 0]


def test_refusals_dead_characters_unknown_abilities_and_running_out_of_dice():
    with pytest.raises(RollUnderError, match="dead"):
        run(AbilityRoll(character=hero(death="injury"), ability="STR"), [])
    with pytest.raises(RollUnderError, match="no CHA score"):
        run(AbilityRoll(character=hero(), ability="CHA"), [])
    with pytest.raises(RollUnderError, match="not the game's"):
        run(AbilityRoll(character=hero(abilities={"STR": 3}), ability="STR"), [])
    with pytest.raises(RollError, match="ran out"):
        run(AbilityRoll(character=hero(), ability="STR"), [])
