"""Exploding damage, armour and direct damage (§ Damage; CR-M13…M15, CR-A11, CR-A12)."""

from __future__ import annotations

import pytest

from tabletop.dice import FixedDice
from tabletop.systems.rollunder import (
    DamageDice,
    Hit,
    Resolution,
    RollDamage,
    RollUnderDataError,
    RollUnderOptions,
    SufferHit,
    after_armour,
    armour_reduction,
    parse_damage,
)
from tabletop.systems.rollunder.damage import MAX_DAMAGE_DICE, ROLL_DEPTH
from tests.systems.rollunder.helpers import hero, run

ROBUST = {"max_health": 200, "health": 200}


def rolled(dice: str, faces: list[int], options: RollUnderOptions | None = None) -> int:
    intent = RollDamage(character=hero(), dice=DamageDice.parse(dice))
    return run(intent, faces, options).outcome.damage


@pytest.mark.parametrize(
    ("faces", "total"), [([6, 1], 6), ([5], 5), ([6, 6, 3], 13), ([6, 6, 6, 1], 16)]
)
def test_cr_m13_cr_t05_a_maximum_rolls_again_adding_the_new_roll_minus_1(faces, total):
    """CR-T05, CR-M13: [6, 1] → 6 + 0; [6, 6, 3] → 6 + 5 + 2."""
    assert rolled("d6", faces) == total


def test_cr_a11_the_raw_face_decides_each_explosion_on_any_die_size():
    assert rolled("d4", [4, 4, 4, 2]) == 4 + 3 + 3 + 1
    assert rolled("d12", [12, 12, 1]) == 12 + 11 + 0
    assert rolled("d2", [2, 2, 1]) == 3


def test_cr_a11_each_die_of_several_explodes_on_its_own():
    assert rolled("2d6", [6, 2, 4]) == (6 + 1) + 4
    assert rolled("2d6", [6, 6, 3, 4]) == (6 + 5 + 2) + 4


def test_cr_a11_the_whole_pool_option_explodes_on_the_pool_maximum():
    pool = RollUnderOptions(damage_pool="whole_pool")
    assert rolled("2d6", [6, 6, 3, 4], pool) == 12 + (7 - 1)
    assert rolled("2d6", [6, 5], pool) == 11
    assert rolled("2d6", [6, 6, 6, 6, 1, 1], pool) == 12 + 11 + 1
    assert rolled("d6", [6, 2], pool) == 7  # one die: the same either way


def test_cr_a11_a_modifier_is_added_once_after_the_explosions_and_damage_stays_at_least_0():
    assert rolled("d6+1", [6, 1]) == 7
    assert rolled("d4-3", [1]) == 0
    assert rolled("2d4+2", [4, 4, 1, 2]) == (4 + 3 + 0) + 2 + 2


def test_cr_a11_a_d1_never_explodes():
    assert rolled("d1", [1]) == 1
    assert rolled("3d1", [1, 1, 1]) == 3


def test_an_unbounded_chain_stops_only_at_the_engine_bound():
    """ROLL_DEPTH: after 100 follow-ups the chain ends (once in 2**101 on a d2)."""
    assert rolled("d2", [2] * (ROLL_DEPTH + 1)) == 2 + ROLL_DEPTH * 1


@pytest.mark.parametrize(
    ("damage", "armour", "left"), [(7, 5, 4), (1, 2, 0), (3, 3, 0), (9, 2, 7), (0, 3, 0)]
)
def test_cr_t07_cr_a12_armour_takes_off_at_most_3(damage, armour, left):
    assert after_armour(damage, armour) == left
    assert armour_reduction(damage, armour) == damage - left


def test_cr_m15_direct_damage_ignores_armour():
    assert after_armour(7, 3, direct=True) == 7
    done = run(SufferHit(character=hero(**ROBUST), hit=Hit(amount=7, armour=3, direct=True)), [])
    assert done.outcome.dealt == 7


def test_cr_t07_a_hit_rolls_then_armour_then_health():
    hit = Hit(dice=DamageDice.parse("d6"), armour=5)
    done = run(SufferHit(character=hero(**ROBUST), hit=hit), [6, 6, 3])
    assert (done.outcome.rolled, done.outcome.dealt) == (13, 10)
    assert done.outcome.character.health == 190
    armour = next(event for event in done.events if event.kind == "armour")
    assert armour.values["reduction"] == 3


def test_cr_m19a_the_target_may_reroll_the_damage_against_them_and_keep_the_lower():
    hit = Hit(dice=DamageDice.parse("d8"))
    start = Resolution.begin(
        SufferHit(character=hero(omens=1, max_omens=1, **ROBUST), hit=hit), FixedDice([8, 8, 2])
    )
    assert start.decision is not None and start.decision.roll == "damage"
    assert start.decision.results[0].total == 8 + 7 + 1
    done = start.choose("reroll Ash", FixedDice([3])).choose("keep 2", FixedDice([]))
    assert done.outcome.dealt == 3
    assert done.outcome.character.omens == 0


def test_cr_a10_the_attacker_rerolls_their_own_damage_whole_and_keeps_the_higher():
    start = Resolution.begin(
        RollDamage(character=hero(omens=1, max_omens=1), dice=DamageDice.parse("d6+1")),
        FixedDice([2]),
    )
    again = start.choose("reroll Ash", FixedDice([6, 6, 1]))
    assert [result.total for result in again.decision.results] == [2, 11]  # type: ignore[union-attr]
    assert again.choose("keep 2", FixedDice([])).outcome.damage == 12


@pytest.mark.parametrize(
    ("text", "parsed"),
    [
        ("d8", DamageDice(sides=8)),
        ("2d6+1", DamageDice(count=2, sides=6, modifier=1)),
        (" d6 - 2 ", DamageDice(sides=6, modifier=-2)),
        ("1D10", DamageDice(sides=10)),
        ("3", 3),
    ],
)
def test_damage_dice_are_read_from_text(text, parsed):
    assert parse_damage(text) == parsed
    if isinstance(parsed, DamageDice):
        assert parse_damage(str(parsed)) == parsed


@pytest.mark.parametrize(
    ("dice", "shown"),
    [(DamageDice(count=10, sides=2), "10d2"), (DamageDice(count=11, sides=6), "11d6"),
     (DamageDice(count=1, sides=12, modifier=1), "d12+1"), (DamageDice(count=2, sides=6), "2d6")],
)  # fmt: skip
def test_cr_a11_damage_dice_are_shown_as_written(dice, shown):
    """§ Damage, CR-A11: the text of several dice keeps its count (10d2 was shown as 0d2 and
    11d6 as 1d6, in events and in the odds JSON) and reads back as the same dice."""
    assert str(dice) == shown
    assert parse_damage(shown) == dice
    done = run(SufferHit(character=hero(**ROBUST), hit=Hit(dice=dice)), [1] * dice.count)
    roll = next(event for event in done.events if event.kind == "damage_roll")
    assert roll.text.startswith(f"damage {shown} against Ash:")


def test_the_most_damage_dice_allowed_can_all_be_rolled():
    """§ Damage, docs/rules Limits: every die may add up to ROLL_DEPTH follow-ups, so the
    documented most dice is what the dice engine can roll (100 exploding dice were refused
    by the engine with a message about 10,100 dice)."""
    most = DamageDice(count=MAX_DAMAGE_DICE, sides=6)
    done = run(SufferHit(character=hero(**ROBUST), hit=Hit(dice=most)), [1] * MAX_DAMAGE_DICE)
    assert done.outcome.rolled == MAX_DAMAGE_DICE
    with pytest.raises(RollUnderDataError, match=f"less than or equal to {MAX_DAMAGE_DICE}"):
        parse_damage(f"{MAX_DAMAGE_DICE + 1}d6")


@pytest.mark.parametrize(
    "text", ["2x6", "d", "0d6", "d0", "101d6", "d6+1001", "", "-3", "99999", "1" * 5000, "d²"]
)
def test_bad_damage_dice_are_refused_clearly(text):
    with pytest.raises(RollUnderDataError):
        parse_damage(text)


def test_a_hit_has_dice_or_an_amount_not_both():
    with pytest.raises(ValueError, match="either damage dice or a fixed amount"):
        Hit(dice=DamageDice(sides=6), amount=3)
    with pytest.raises(ValueError, match="either damage dice or a fixed amount"):
        Hit()
