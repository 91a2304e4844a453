"""The attribute test as a state machine, with fixed dice: the notes' vectors (DW-T01..T11)
and every exception to the pool, re-roll and fatigue rules (§ Attribute Tests and Checks)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.dice import FixedDice, SeededDice
from tabletop.systems.dead_weight import (
    Affliction,
    Attribute,
    AttributeTest,
    Automatic,
    DauntlessRoll,
    DeadWeightError,
    Help,
    Npc,
    Options,
    Outcome,
    Pass,
    QuirkRule,
    Reroll,
    Resource,
    Side,
    Situation,
    Skill,
    TestSetup,
    Trait,
    Trauma,
    begin_session,
    start_test,
    use_burden,
)
from tests.effort import tried
from tests.systems.dead_weight.helpers import character

INT, DEX, STR, PRE = Attribute.INT, Attribute.DEX, Attribute.STR, Attribute.PRE


def play(test: AttributeTest, *choices, faces=()):
    """Apply choices in order with the given re-roll faces; returns the test and events."""
    dice = FixedDice(faces)
    events = []
    for choice in choices:
        test, more = test.choose(choice, dice)
        events += more
    return test, events


def test_dw_t01_amber_climbs_a_rope():
    """§ Attribute Tests: DEX 4 rolling [1, 2, 4, 6] succeeds (one 6 is not great) and
    takes one fatigue for the 1 and 4 together."""
    amber = character(DEX, score=4)
    test, events = start_test(amber, TestSetup(attribute=DEX), FixedDice([1, 2, 4, 6]))
    assert test.finished and test.verdict == Outcome.SUCCESS
    assert test.fatigue is True
    assert test.roller.attribute(DEX).fatigue == 1
    assert [e.kind for e in events][-2:] == ["test judged", "fatigue"]


def test_dw_t01_the_same_dice_as_a_check_cost_nothing():
    """DW-M38: a check is judged like a test, but 1s and 4s cause no fatigue."""
    amber = character(DEX, score=4)
    test, _ = start_test(amber, TestSetup(attribute=DEX, check=True), FixedDice([1, 2, 4, 6]))
    assert test.verdict == Outcome.SUCCESS and test.fatigue is False
    assert test.roller.attribute(DEX).fatigue == 0


def test_a_pool_of_one_is_announced_as_one_die():
    """Issue 23: "1 dice" in the log; one die is a die, two or more are dice."""
    _, events = start_test(character(DEX, score=1), TestSetup(attribute=DEX), FixedDice([6]))
    assert "1 die" in events[0].text and "1 dice" not in events[0].text
    _, events = start_test(character(DEX, score=2), TestSetup(attribute=DEX), FixedDice([6, 6]))
    assert "2 dice" in events[0].text


def test_dw_t03a_only_the_final_faces_count():
    roller = character(INT, score=2, proficiency=1)
    test, _ = start_test(roller, TestSetup(attribute=INT), FixedDice([1, 3]))
    assert test.turn == Side.PLAYER and test.phase == "rerolling"
    test, _ = play(test, Reroll(resource=Resource.PROFICIENCY, die=0), faces=[5])
    assert test.finished and test.verdict == Outcome.SUCCESS and not test.fatigue
    assert test.dice[0].faces == (1, 5)


def test_dw_t03b_the_new_face_must_be_kept():
    roller = character(INT, score=2, proficiency=1)
    test, _ = start_test(roller, TestSetup(attribute=INT), FixedDice([1, 3]))
    test, _ = play(test, Reroll(resource=Resource.PROFICIENCY, die=1), faces=[2])
    assert test.verdict == Outcome.CRITICAL_FAILURE and test.fatigue


def test_dw_t03c_dw_a24_a_die_may_be_re_rolled_twice_by_default():
    roller = character(INT, score=1, proficiency=2)
    test, _ = start_test(roller, TestSetup(attribute=INT), FixedDice([2]))
    test, _ = play(test, Reroll(resource=Resource.PROFICIENCY, die=0), faces=[3])
    assert not test.finished
    test, _ = play(test, Reroll(resource=Resource.PROFICIENCY, die=0), faces=[5])
    assert test.verdict == Outcome.SUCCESS


def test_dw_t03c_with_distinct_dice_the_second_re_roll_is_illegal():
    roller = character(INT, score=1, proficiency=2)
    options = Options(proficiency_distinct_dice=True)
    test, _ = start_test(roller, TestSetup(attribute=INT), FixedDice([2]), options=options)
    test, _ = play(test, Reroll(resource=Resource.PROFICIENCY, die=0), faces=[3])
    assert test.finished and test.verdict == Outcome.FAILURE


def test_dw_t03d_dw_a25_advantage_and_disadvantage_net_one_for_one():
    roller = character(INT, score=2)
    test, _ = start_test(
        roller, TestSetup(attribute=INT, advantage=2, disadvantage=1), FixedDice([2, 3])
    )
    assert (test.budgets.advantage, test.budgets.disadvantage) == (1, 0)


def test_the_gm_re_rolls_with_disadvantage_and_the_player_may_answer():
    """DW-M31: re-rolls alternate one at a time; the test ends after two passes in a row."""
    roller = character(STR, score=2, proficiency=1)
    test, _ = start_test(roller, TestSetup(attribute=STR, disadvantage=1), FixedDice([5, 2]))
    test, _ = play(test, Pass())
    assert test.turn == Side.GM and not test.finished
    test, _ = play(test, Reroll(resource=Resource.DISADVANTAGE, die=0), faces=[3])
    assert test.turn == Side.PLAYER and not test.finished
    test, events = play(test, Reroll(resource=Resource.PROFICIENCY, die=1), faces=[6])
    assert test.finished and test.verdict == Outcome.SUCCESS and not test.fatigue
    assert [e.data.get("forced") for e in events if e.kind == "pass"] == [True, True]


def test_a_player_cannot_re_roll_on_the_gms_turn():
    roller = character(STR, score=2, proficiency=1)
    test, _ = start_test(roller, TestSetup(attribute=STR, disadvantage=1), FixedDice([5, 2]))
    test, _ = play(test, Pass())
    before = test.model_dump()
    with pytest.raises(DeadWeightError):
        test.choose(Reroll(resource=Resource.PROFICIENCY, die=1), FixedDice([6]))
    assert test.model_dump() == before


def test_dw_t05_dw_a39_choosing_not_to_roll_is_a_plain_failure():
    roller = character(DEX, score=3)
    test, _ = start_test(roller, TestSetup(attribute=DEX, dice=0), FixedDice([]))
    assert test.automatic == Automatic.DECLINED
    assert test.verdict == Outcome.FAILURE and not test.fatigue
    assert test.roller.attribute(DEX).fatigue == 0


def test_rolling_fewer_dice_than_the_pool():
    roller = character(DEX, score=3)
    test, _ = start_test(roller, TestSetup(attribute=DEX, dice=1), FixedDice([5]))
    assert test.faces() == (5,) and test.verdict == Outcome.SUCCESS
    with pytest.raises(DeadWeightError, match="roll fewer"):
        start_test(roller, TestSetup(attribute=DEX, dice=4), FixedDice([1, 1, 1, 1]))


def test_dw_t07_dw_a11_extra_effort_pays_first_and_adds_a_die():
    roller = character(STR, score=3, fatigue=1)
    test, events = start_test(
        roller, TestSetup(attribute=STR, extra_effort=True), FixedDice([4, 1, 2])
    )
    assert test.pool == 3 and len(test.dice) == 3
    assert test.verdict == Outcome.SUCCESS and not test.fatigue
    assert test.roller.attribute(STR).fatigue == 2
    assert events[0].kind == "extra effort"


def test_dw_x19_extra_effort_also_covers_hopeless_fives_and_sixes():
    """§ Extra Effort, § Afflictions (Hopeless) (docs/rules DW-X19): the point paid before
    the roll is its only fatigue, so a Hopeless roller's 6s add none."""
    roller = character(STR, score=3, afflictions=[Affliction.HOPELESS])
    test, _ = start_test(
        roller, TestSetup(attribute=STR, extra_effort=True), FixedDice([6, 6, 5, 2])
    )
    assert test.verdict == Outcome.GREAT_SUCCESS and not test.fatigue
    assert test.roller.attribute(STR).fatigue == 1


def test_dw_a11_option_counts_the_paid_fatigue():
    roller = character(STR, score=3, fatigue=1)
    options = Options(extra_effort_pool="available_after_paying")
    test, _ = start_test(
        roller, TestSetup(attribute=STR, extra_effort=True), FixedDice([4, 1]), options=options
    )
    assert test.pool == 2


def test_dw_t07_dw_a12_extra_effort_is_refused_when_it_would_wound():
    roller = character(STR, score=2, fatigue=2)
    with pytest.raises(DeadWeightError, match="would be a wound"):
        start_test(roller, TestSetup(attribute=STR, extra_effort=True), FixedDice([4, 4]))
    plagued = character(STR, score=3, afflictions=[Affliction.PLAGUED])
    with pytest.raises(DeadWeightError, match="plagued"):
        start_test(plagued, TestSetup(attribute=STR, extra_effort=True), FixedDice([4] * 4))


def test_sleepy_forbids_extra_effort_and_helping():
    sleepy = character(STR, score=3, afflictions=[Affliction.SLEEPY])
    with pytest.raises(DeadWeightError, match="sleepy"):
        start_test(sleepy, TestSetup(attribute=STR, extra_effort=True), FixedDice([4] * 4))
    with pytest.raises(DeadWeightError, match="sleepy"):
        start_test(character(STR, score=2), TestSetup(), FixedDice([4] * 3), [Help(helper=sleepy)])


def test_extra_effort_is_not_allowed_while_keeping_it_safe():
    roller = character(STR, score=3)
    setup = TestSetup(attribute=STR, extra_effort=True, keep_it_safe=True)
    with pytest.raises(DeadWeightError, match="keeping it safe"):
        start_test(roller, setup, FixedDice([4] * 3))
    assert roller.attribute(STR).fatigue == 0


def test_dw_m34_keeping_it_safe_removes_two_dice_and_spares_a_success():
    roller = character(DEX, score=3)
    safe = TestSetup(attribute=DEX, keep_it_safe=True)
    test, _ = start_test(roller, safe, FixedDice([4]))
    assert test.pool == 1 and test.verdict == Outcome.SUCCESS and not test.fatigue
    test, _ = start_test(roller, safe, FixedDice([1]))
    assert test.verdict == Outcome.CRITICAL_FAILURE and test.fatigue


def test_dw_a08_keeping_it_safe_below_one_die_uses_the_zero_dice_rule():
    roller = character(DEX, score=2)
    test, _ = start_test(roller, TestSetup(attribute=DEX, keep_it_safe=True), FixedDice([5, 4]))
    assert test.pool == 0 and test.take_lowest
    assert test.verdict == Outcome.SUCCESS and not test.fatigue


def test_dw_a08_keeping_it_safe_also_spares_hopeless_fatigue_on_a_success():
    roller = character(DEX, score=3, afflictions=[Affliction.HOPELESS])
    test, _ = start_test(roller, TestSetup(attribute=DEX, keep_it_safe=True), FixedDice([6]))
    assert test.verdict == Outcome.SUCCESS and not test.fatigue


def test_dw_t09_terrified_fours_fail_but_still_tire():
    terrified = character(DEX, score=2, afflictions=[Affliction.TERRIFIED])
    for faces, outcome in [
        ([4, 2], Outcome.FAILURE),
        ([4, 1], Outcome.CRITICAL_FAILURE),
        ([5, 4], Outcome.SUCCESS),
    ]:
        test, _ = start_test(terrified, TestSetup(attribute=DEX), FixedDice(faces))
        assert (test.verdict, test.fatigue) == (outcome, True)


def test_dw_t09_hopeless_fives_and_sixes_tire_once():
    hopeless = character(DEX, score=3, afflictions=[Affliction.HOPELESS])
    test, _ = start_test(hopeless, TestSetup(attribute=DEX, dice=2), FixedDice([5, 3]))
    assert (test.verdict, test.fatigue) == (Outcome.SUCCESS, True)
    test, _ = start_test(hopeless, TestSetup(attribute=DEX), FixedDice([6, 6, 5]))
    assert test.verdict == Outcome.GREAT_SUCCESS
    assert test.roller.attribute(DEX).fatigue == 1


def test_dw_t11_dw_a13_a_score_of_zero_keeps_the_lowest_and_faints():
    """INT 0 rolls two dice and keeps the lowest: [1, 5] keeps the 1, a critical failure
    whose fatigue cannot be placed on a score of 0, so the character faints."""
    roller = character(INT, score=0)
    test, events = start_test(roller, TestSetup(attribute=INT), FixedDice([1, 5]))
    assert test.take_lowest and test.verdict == Outcome.CRITICAL_FAILURE
    assert test.roller.condition.fainted
    assert any(e.kind == "faint" for e in events)


def test_dw_m37_a_negative_pool_throws_two_plus_its_size():
    roller = character(INT, score=1, fatigue=1)
    test, _ = start_test(
        roller, TestSetup(attribute=INT, keep_it_safe=True), FixedDice([6, 6, 5, 4])
    )
    assert test.pool == -2 and len(test.dice) == 4
    assert test.verdict == Outcome.SUCCESS
    assert not test.fatigue


def test_dw_m37_the_gms_optional_automatic_failure():
    roller = character(INT, score=1, fatigue=1)
    options = Options(gm_auto_fail_at_minus_two=True)
    setup = TestSetup(attribute=INT, keep_it_safe=True)
    test, _ = start_test(roller, setup, FixedDice([]), options=options)
    assert test.automatic == Automatic.GM_AUTO_FAIL and test.verdict == Outcome.FAILURE


def test_dw_a06_all_thrown_dice_count_under_the_option():
    roller = character(INT, score=0)
    options = Options(take_lowest_eval="all")
    test, _ = start_test(roller, TestSetup(attribute=INT), FixedDice([5, 4]), options=options)
    assert test.verdict == Outcome.SUCCESS and test.fatigue  # the 4 is the kept die anyway
    kept_only, _ = start_test(roller, TestSetup(attribute=INT), FixedDice([5, 1]))
    every_die, _ = start_test(roller, TestSetup(attribute=INT), FixedDice([6, 6]), options=options)
    assert kept_only.verdict == Outcome.CRITICAL_FAILURE
    assert every_die.verdict == Outcome.GREAT_SUCCESS


def test_dw_m33_angry_forbids_proficiency_rerolls():
    roller = character(STR, score=2, proficiency=2, afflictions=[Affliction.ANGRY])
    test, _ = start_test(roller, TestSetup(attribute=STR), FixedDice([1, 2]))
    assert test.finished and test.budgets.proficiency == 0


def test_dw_m09_the_burden_gives_disadvantage_no_proficiency_and_insight():
    roller = character(STR, score=2, proficiency=2)
    test, _events = start_test(roller, TestSetup(attribute=STR, burden=True), FixedDice([5, 2]))
    assert test.budgets.proficiency == 0 and test.budgets.disadvantage == 1
    assert test.roller.insight == 2
    assert test.roller.expedition.burden_used_this_session
    again = test.roller
    with pytest.raises(DeadWeightError, match="once per session"):
        start_test(again, TestSetup(attribute=STR, burden=True), FixedDice([5, 2]))


def test_dw_m09_the_burden_on_a_decision_and_a_new_session():
    """§ 4. Roll your burden: the burden may instead make a decision go against the
    character, for the same insight point, and either use is once per session, so a new
    session makes it available again."""
    roller = character(STR, score=2)
    burdened, events = use_burden(roller)
    assert burdened.insight == 2 and events[0].kind == "burden"
    with pytest.raises(DeadWeightError, match="once per session"):
        use_burden(burdened)
    with pytest.raises(DeadWeightError, match="once per session"):
        start_test(burdened, TestSetup(attribute=STR, burden=True), FixedDice([5, 2]))
    fresh, _ = begin_session(burdened)
    assert not fresh.expedition.burden_used_this_session
    test, _ = start_test(fresh, TestSetup(attribute=STR, burden=True), FixedDice([5, 2]))
    assert test.roller.insight == 3


def test_skills_give_advantage_and_survivalist_proficiency_in_their_situations():
    roller = character(
        DEX,
        score=2,
        skills=[Skill.INFILTRATION, Skill.SURVIVALIST],
        quirks=[{"name": "Huge facial scar", "rule": QuirkRule.FACIAL_SCAR}],
    )
    sneaking, _ = start_test(
        roller, TestSetup(attribute=DEX, situations=(Situation.SNEAKING,)), FixedDice([1, 2])
    )
    assert sneaking.budgets.advantage == 1
    wild, _ = start_test(
        roller,
        TestSetup(
            attribute=DEX, situations=(Situation.WILDERNESS_SURVIVAL, Situation.INTIMIDATING)
        ),
        FixedDice([1, 2]),
    )
    assert wild.budgets.proficiency == 1 and wild.budgets.advantage == 1


def test_berserker_ignores_strength_fatigue_and_wounds_in_combat():
    berserker = character(STR, score=3, fatigue=1, wounds=1, traits=[Trait.BERSERKER])
    fighting, _ = start_test(
        berserker, TestSetup(attribute=STR, in_combat=True), FixedDice([2, 3, 5])
    )
    assert fighting.pool == 3
    calm, _ = start_test(berserker, TestSetup(attribute=STR), FixedDice([2]))
    assert calm.pool == 1


def test_a_berserker_still_collapses_when_fatigue_cannot_be_placed():
    berserker = character(STR, score=2, wounds=2, traits=[Trait.BERSERKER])
    test, _ = start_test(berserker, TestSetup(attribute=STR, in_combat=True), FixedDice([1, 2]))
    assert test.verdict == Outcome.CRITICAL_FAILURE and test.roller.condition.fainted


def test_dw_m35_a_helper_rolls_a_die_and_keeps_its_fatigue():
    roller = character(PRE, score=2)
    helper = character(PRE, score=2, name="Zael")
    test, _ = start_test(
        roller, TestSetup(attribute=PRE), FixedDice([2, 3, 4]), [Help(helper=helper)]
    )
    assert [d.owner for d in test.dice] == [0, 0, 1]
    assert test.verdict == Outcome.SUCCESS
    assert not test.fatigue and test.helper_fatigue == (True,)
    assert test.helpers[0].helper.attribute(PRE).fatigue == 1
    assert test.roller.attribute(PRE).fatigue == 0


def test_dw_a09_the_main_roller_may_not_touch_the_helpers_die_by_default():
    roller = character(PRE, score=1, proficiency=1)
    helper = character(PRE, score=2, name="Zael")
    test, _ = start_test(roller, TestSetup(attribute=PRE), FixedDice([2, 3]), [Help(helper=helper)])
    assert {choice.die for choice in test.choices() if isinstance(choice, Reroll)} == {0}
    opened = Options(main_may_modify_help_die=True)
    test, _ = start_test(
        roller, TestSetup(attribute=PRE), FixedDice([2, 3]), [Help(helper=helper)], options=opened
    )
    assert {choice.die for choice in test.choices() if isinstance(choice, Reroll)} == {0, 1}


def test_the_gm_may_re_roll_the_helpers_die():
    roller = character(PRE, score=1)
    helper = character(PRE, score=2, name="Zael")
    test, _ = start_test(
        roller, TestSetup(attribute=PRE, disadvantage=1), FixedDice([2, 6]), [Help(helper=helper)]
    )
    assert test.turn == Side.GM
    test, _ = play(test, Reroll(resource=Resource.DISADVANTAGE, die=1), faces=[3])
    assert test.verdict == Outcome.FAILURE


def test_a_helpers_extra_effort_rolls_two_dice_and_pays_first():
    roller = character(PRE, score=1)
    helper = character(PRE, score=2, proficiency=1, name="Zael")
    test, _ = start_test(
        roller,
        TestSetup(attribute=PRE),
        FixedDice([2, 1, 4]),
        [Help(helper=helper, extra_effort=True)],
    )
    assert [d.owner for d in test.dice] == [0, 1, 1]
    assert test.budgets.helpers == (1,)
    test, _ = play(test, Pass())
    assert test.verdict == Outcome.SUCCESS
    assert test.helper_fatigue == (False,)
    assert test.helpers[0].helper.attribute(PRE).fatigue == 1


def test_a_paranoid_character_cannot_be_helped_and_one_helper_is_the_limit():
    paranoid = character(PRE, score=2, traumas=[Trauma.PARANOID])
    helper = character(PRE, score=2, name="Zael")
    with pytest.raises(DeadWeightError, match="paranoid"):
        start_test(paranoid, TestSetup(attribute=PRE), FixedDice([1] * 3), [Help(helper=helper)])
    with pytest.raises(DeadWeightError, match="1 helper"):
        start_test(
            character(PRE, score=2),
            TestSetup(attribute=PRE),
            FixedDice([1] * 4),
            [Help(helper=helper), Help(helper=helper)],
        )


def test_dw_a36_dauntless_adds_two_dice_after_a_success():
    roller = character(STR, score=2, traits=[Trait.DAUNTLESS])
    test, _ = start_test(roller, TestSetup(attribute=STR), FixedDice([6, 2]))
    assert test.phase == "dauntless" and test.choices() == [
        DauntlessRoll(roll=True),
        DauntlessRoll(roll=False),
    ]
    rolled, _ = play(test, DauntlessRoll(roll=True), faces=[6, 4])
    assert rolled.verdict == Outcome.GREAT_SUCCESS and rolled.fatigue
    declined, _ = play(test, DauntlessRoll(roll=False))
    assert declined.verdict == Outcome.SUCCESS and not declined.fatigue


def test_bad_omens_asks_for_the_omens_tracker_on_a_critical_failure():
    roller = character(STR, score=1, traits=[Trait.BAD_OMENS])
    _, events = start_test(roller, TestSetup(attribute=STR), FixedDice([1]))
    assert any(e.kind == "omens" for e in events)


def test_dw_m50_an_npc_tests_with_its_level_and_takes_no_fatigue():
    ghoul = Npc(name="Ghoul", level=2)
    test, _ = start_test(ghoul, TestSetup(disadvantage=1), FixedDice([1, 4]))
    assert test.pool == 2 and test.turn == Side.GM
    test, _ = play(test, Pass())
    assert test.verdict == Outcome.SUCCESS and not test.fatigue
    with pytest.raises(DeadWeightError, match="not NPCs"):
        start_test(ghoul, TestSetup(extra_effort=True), FixedDice([1, 4]))


def test_a_fainted_character_cannot_test():
    roller = character(STR, score=2, condition={"fainted": True})
    with pytest.raises(DeadWeightError, match="cannot act"):
        start_test(roller, TestSetup(), FixedDice([1, 1]))


def test_an_open_test_round_trips_through_json():
    roller = character(INT, score=2, proficiency=1)
    helper = character(INT, score=1, name="Zael")
    test, _ = start_test(
        roller,
        TestSetup(attribute=INT, disadvantage=1),
        FixedDice([1, 3, 2]),
        [Help(helper=helper)],
    )
    again = AttributeTest.model_validate(json.loads(test.model_dump_json()))
    assert again == test
    assert again.choices() == test.choices()


@settings(max_examples=tried(60))
@given(
    score=st.integers(0, 4),
    proficiency=st.integers(0, 2),
    fatigue=st.integers(0, 2),
    advantage=st.integers(0, 2),
    disadvantage=st.integers(0, 2),
    seed=st.integers(0, 10_000),
    picks=st.lists(st.integers(0, 50), max_size=12),
)
def test_no_sequence_of_legal_choices_leaves_an_illegal_test(
    score, proficiency, fatigue, advantage, disadvantage, seed, picks
):
    """Random legal choices: budgets never go negative, every die keeps its history, the
    test finishes, and the sheet stays valid with at most one new fatigue point."""
    fatigue = min(fatigue, score)
    roller = character(DEX, score=score, proficiency=proficiency, fatigue=fatigue)
    setup = TestSetup(attribute=DEX, advantage=advantage, disadvantage=disadvantage)
    dice = SeededDice(seed)
    test, _ = start_test(roller, setup, dice)
    picks = list(picks)
    while not test.finished:
        choices = test.choices()
        pick = picks.pop(0) if picks else 0
        test, _ = test.choose(choices[pick % len(choices)], dice)
        AttributeTest.model_validate(test.model_dump())
        assert min(test.budgets.proficiency, test.budgets.advantage, test.budgets.disadvantage) >= 0
    rerolls = sum(len(d.rerolls) for d in test.dice)
    assert rerolls <= proficiency + max(advantage - disadvantage, 0) + max(
        disadvantage - advantage, 0
    )
    after = test.roller.attribute(DEX)
    assert after.fatigue + after.wounds <= after.score
    assert (after.fatigue + after.wounds) - fatigue in (0, 1) or test.roller.condition.fainted
