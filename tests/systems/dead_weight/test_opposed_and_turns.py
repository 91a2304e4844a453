"""Opposed tests with re-tests on ties (DW-M48, DW-A26), NPC opposition (DW-M50), and the
per-turn rules: bleeding, encumbrance, combat actions and Catch Breath."""

from __future__ import annotations

import pytest

from tabletop.dice import FixedDice
from tabletop.errors import LimitError
from tabletop.systems.dead_weight import (
    Affliction,
    Attribute,
    IllegalChoice,
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
from tabletop.systems.dead_weight.opposed import MAX_OPPOSED_ROUNDS
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
    with pytest.raises(IllegalChoice):
        unfinished, _ = start_test(
            character(STR, score=1, proficiency=1), TestSetup(), FixedDice([1])
        )
        encumbered_turn(c, unfinished, FixedDice([]))


def test_combat_actions_and_catch_breath():
    assert combat_actions(character(afflictions=[Affliction.NAUSEATED]), 3) == 2
    assert combat_actions(character(traits=[Trait.BATTLE_TRANCE]), 3, kills=2) == 5
    assert not can_catch_breath(character(afflictions=[Affliction.SHAKEN]))
    assert can_catch_breath(character())
