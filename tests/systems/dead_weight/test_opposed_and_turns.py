"""Opposed tests with re-tests on ties (DW-M48, DW-A26), NPC opposition (DW-M50), and the
per-turn rules: bleeding, encumbrance, combat actions and Catch Breath."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.dice import FixedDice, SeededDice
from tabletop.errors import LimitError
from tabletop.systems.dead_weight import (
    Affliction,
    Attribute,
    DeadWeightError,
    Item,
    Npc,
    Outcome,
    Pass,
    TestSetup,
    Trait,
    bleed,
    can_catch_breath,
    combat_actions,
    encumbered_turn,
    opposed_winner,
    start_opposed,
    start_test,
    stow,
)
from tabletop.systems.dead_weight.opposed import MAX_OPPOSED_ROUNDS, OpposedTest
from tests.effort import tried
from tests.systems.dead_weight.helpers import character

STR = Attribute.STR


def test_dw_a26_a_great_success_does_not_beat_a_success():
    assert opposed_winner(Outcome.GREAT_SUCCESS, Outcome.SUCCESS) is None
    assert opposed_winner(Outcome.FAILURE, Outcome.CRITICAL_FAILURE) is None
    assert opposed_winner(Outcome.SUCCESS, Outcome.CRITICAL_FAILURE) == 0
    assert opposed_winner(Outcome.FAILURE, Outcome.SUCCESS) == 1


def test_dw_m48_arm_wrestling_re_tests_a_tie_with_fatigue_each_time():
    """Both succeed in round one (fatigue from the 4s), then the second fails."""
    a = character(STR, score=2, name="Amber")
    b = character(STR, score=2, name="Zael")
    setup = TestSetup(attribute=STR)
    contest, events = start_opposed(a, setup, b, setup, FixedDice([4, 2, 5, 3, 4, 2, 2, 3]))
    assert contest.finished and contest.winner == 0 and contest.round == 2
    assert contest.tests[0].roller.attribute(STR).fatigue == 2
    assert any("test again" in e.text for e in events)


def test_dw_m50_an_npc_opposes_with_its_level():
    hero = character(STR, score=1, proficiency=1, name="Amber")
    ogre = Npc(name="Ogre", level=3)
    contest, _ = start_opposed(
        hero, TestSetup(attribute=STR), ogre, TestSetup(), FixedDice([2, 1, 1, 5])
    )
    assert contest.current == 0 and not contest.finished
    contest, _ = contest.choose(Pass(), FixedDice([]))
    assert contest.winner == 1


def test_a_contest_that_never_ends_is_called_off():
    a = character(STR, score=1)
    never = TestSetup(attribute=STR, dice=0)
    with pytest.raises(LimitError):
        start_opposed(a, never, a, never, FixedDice([]))
    assert MAX_OPPOSED_ROUNDS == 100


def test_dw_x20_a_side_too_worn_to_test_again_loses_the_tie():
    """DW-A26, docs/rules DW-X20: Amber's critical failure makes her faint (STR 1 already
    wounded); the tie would need a re-test she cannot make, so the Ogre wins instead of
    her pass being refused."""
    amber = character(STR, score=1, wounds=1, proficiency=1, name="Amber")
    ogre = Npc(name="Ogre", level=1)
    contest, _ = start_opposed(
        amber, TestSetup(attribute=STR), ogre, TestSetup(), FixedDice([1, 2, 3])
    )
    assert Pass() in contest.choices()
    contest, events = contest.choose(Pass(), FixedDice([]))
    assert contest.winner == 1 and contest.round == 1
    assert contest.tests[0].roller.condition.fainted
    assert events[-1].text == "Amber cannot test again: Ogre wins"


def test_dw_x20_a_re_test_drops_extra_effort_that_can_no_longer_be_paid():
    """DW-A12, DW-A26, docs/rules DW-X20: Amber's extra effort spends her only STR die; at
    the tie she cannot pay it again, so she re-tests by the zero-dice rule (2 dice, lowest
    counts: 5) instead of the contest being refused."""
    amber = character(STR, score=1, name="Amber")
    ogre = Npc(name="Ogre", level=1)
    effort = TestSetup(attribute=STR, extra_effort=True)
    contest, _ = start_opposed(amber, effort, ogre, TestSetup(), FixedDice([2, 3, 2, 5, 6, 3]))
    assert contest.winner == 0 and contest.round == 2
    again = contest.tests[0]
    assert not again.setup.extra_effort and again.take_lowest and again.faces() == (5, 6)
    assert again.roller.attribute(STR).fatigue == 1


def test_dw_x20_a_re_test_rolls_the_whole_pool_once_it_is_below_the_dice_chosen():
    """docs/rules DW-X20: two dice chosen from a pool of 2; the 4 tires her to a pool of 1,
    so the re-test rolls that one die."""
    amber = character(STR, score=2, name="Amber")
    ogre = Npc(name="Ogre", level=1)
    two = TestSetup(attribute=STR, dice=2)
    contest, _ = start_opposed(amber, two, ogre, TestSetup(), FixedDice([4, 2, 5, 6, 3]))
    assert contest.round == 2 and contest.winner == 0
    assert contest.tests[0].faces() == (6,) and contest.tests[0].setup.dice is None


@settings(max_examples=tried(40), deadline=None)
@given(
    seed=st.integers(0, 10**6),
    scores=st.tuples(st.integers(0, 3), st.integers(0, 3)),
    wounds=st.tuples(st.integers(0, 3), st.integers(0, 3)),
    extra_effort=st.booleans(),
    fewer=st.sampled_from([None, 1, 2]),
    picks=st.lists(st.integers(0, 50), max_size=30),
)
def test_any_legal_choice_in_an_opposed_test_is_accepted(
    seed, scores, wounds, extra_effort, fewer, picks
):
    """Random legal choices: every choice offered is taken (or the contest is called off,
    DW-X20), and the contest round-trips through JSON at every step."""
    sides = [
        character(STR, score=s, wounds=min(w, s), proficiency=1, name=n)
        for s, w, n in zip(scores, wounds, ("Amber", "Zael"), strict=True)
    ]
    setup = TestSetup(attribute=STR, extra_effort=extra_effort, dice=fewer, advantage=1)
    dice = SeededDice(seed)
    try:
        contest, _ = start_opposed(sides[0], setup, sides[1], TestSetup(attribute=STR), dice)
    except (DeadWeightError, LimitError):
        return  # an announcement the rules refuse, or a contest that can never end
    for pick in picks:
        if contest.finished:
            break
        choices = contest.choices()
        assert choices
        try:
            contest, _ = contest.choose(choices[pick % len(choices)], dice)
        except (DeadWeightError, LimitError) as called_off:
            assert "called off" in str(called_off) or "still tied" in str(called_off)
            break
        assert OpposedTest.model_validate_json(contest.model_dump_json()) == contest


def test_bleeding_costs_a_fatigue_each_turn():
    c = character(STR, score=2, afflictions=[Affliction.BLEEDING])
    c, _ = bleed(c, STR)
    assert c.attribute(STR).fatigue == 1
    fine, events = bleed(character(STR, score=2), STR)
    assert fine.attribute(STR).fatigue == 0 and not events


def test_dw_m55_a_failed_encumbrance_test_drops_a_random_item():
    c = character(STR, score=0)
    inventory = c.inventory
    for name in ("a", "b", "c", "d", "e", "f", "g", "h"):
        inventory = stow(inventory, Item(name=name))
    c = c.model_copy(update={"inventory": inventory})
    assert c.encumbered
    failed, _ = start_test(c, TestSetup(attribute=STR), FixedDice([2, 3]))
    after, events = encumbered_turn(c, failed, FixedDice([2]))
    assert events[0].data["item"] == "b" and len(after.inventory.items()) == 7
    passed, _ = start_test(c, TestSetup(attribute=STR), FixedDice([5, 5]))
    kept, none = encumbered_turn(c, passed, FixedDice([]))
    assert kept == c and not none
    with pytest.raises(DeadWeightError):
        unfinished, _ = start_test(
            character(STR, score=1, proficiency=1), TestSetup(), FixedDice([1])
        )
        encumbered_turn(c, unfinished, FixedDice([]))


def test_combat_actions_and_catch_breath():
    assert combat_actions(character(afflictions=[Affliction.NAUSEATED]), 3) == 2
    assert combat_actions(character(traits=[Trait.BATTLE_TRANCE]), 3, kills=2) == 5
    assert not can_catch_breath(character(afflictions=[Affliction.SHAKEN]))
    assert can_catch_breath(character())
