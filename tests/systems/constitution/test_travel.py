"""Exploration, travel and hunting (article 13), encumbrance (article 14)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tabletop.dice import FixedDice
from tabletop.systems.constitution import (
    ConstitutionDataError,
    ConstitutionError,
    Leg,
    Load,
    Options,
    TurnClock,
    check,
    day_rate,
    drag_capacity,
    dungeon_encounter,
    encumbrance,
    hunt,
    hunting_dc,
    limits,
    party_distance_lost,
    travel,
    turns_taken,
)

from .conftest import make_character


def test_c3_m62_lights_burn_down_turn_by_turn():
    """§ 13.2: torch 6 turns, candle 18, lantern 24."""
    clock = TurnClock().light("torch").light("lantern")
    clock, events = clock.advance(6)
    assert [e.message for e in events] == ["a torch goes out"]
    assert clock.minutes == 60 and clock.lights[0].turns_left == 18
    with pytest.raises(ConstitutionError):
        clock.advance(0)


def test_c3_a40_extra_degrees_save_turns():
    """§ 13.1: each extra degree saves a turn; at least one is spent."""
    assert turns_taken(3, check(10, 20, FixedDice([10]))) == 3
    assert turns_taken(3, check(10, 20, FixedDice([20, 1]))) == 1
    assert turns_taken(3, check(10, 20, FixedDice([2]))) is None


@pytest.mark.parametrize(
    ("terrain", "weather", "miles"),
    [
        ("road", "fair", 24),
        ("plains", "fair", 18),
        ("hills", "rain", 6),
        ("swamp", "storm", Fraction(8, 3)),
    ],
)
def test_c3_m63_travel_rates_by_terrain_and_weather(terrain, weather, miles):
    """§ 13.4a–b."""
    assert day_rate(terrain, weather) == miles


def test_c3_a32_factors_multiply_exactly():
    """Encumbered (2/3) in forest (12) under rain (1/2): 4 miles."""
    assert day_rate("forest", "rain", speed=Fraction(2, 3)) == 4


def test_c3_m65_a_route_day_by_day_with_encounter_checks():
    """§ 13.5: one check a day plus one per 6 miles; a d6 showing 1–2 is an encounter."""
    route = [Leg(terrain="road", miles=Fraction(30)), Leg(terrain="forest", miles=Fraction(10))]
    faces = [3, 1, 6, 5, 2, 4, 6, 6, 6]
    journey = travel(route, FixedDice(faces))
    assert [d.miles for d in journey.days] == [24, 15, 1]
    assert [d.encounter_checks for d in journey.days] == [5, 3, 1]
    assert journey.encounters == 2 and journey.miles == 40


def test_travel_refuses_a_standstill():
    with pytest.raises(ConstitutionError):
        travel([Leg(terrain="road", miles=Fraction(1))], FixedDice([]), speed=Fraction(0))


def test_dungeon_encounters_are_one_in_six():
    assert dungeon_encounter(FixedDice([1]))[0] and not dungeon_encounter(FixedDice([2]))[0]


def test_c3_t19_hunting_dcs():
    """§ 13.7, § 13.9, C3-T19."""
    assert hunting_dc("forest", "winter", "ranged") == 15
    assert hunting_dc("desert", "summer", "ranged") == 25
    assert hunting_dc("desert", "winter", "ranged") == 25
    assert hunting_dc("plains", "summer", "forage") == 20


def test_c3_t19_a_hunt_in_a_winter_forest():
    """§ 13.6–13.8, C3-T19: STR 12 × 50% = 6; d20 [9] = 15 vs 15 → 1d4 [3] rations, −50%."""
    hunter = make_character(strength=12, skills={"hunting": 50})
    result = hunt(hunter, "forest", "winter", "ranged", FixedDice([9, 3, 2]))
    assert result.check.total == 15 and result.rations == 3
    assert result.distance_lost == Fraction(1, 2)


def test_c3_t19_extra_degrees_buy_rations_or_an_advantage_die_on_distance():
    hunter = make_character(strength=12, skills={"hunting": 50})
    rations = hunt(hunter, "forest", "winter", "ranged", FixedDice([19, 3, 4]))
    assert rations.check.degree == 3 and rations.rations == 5
    kept = hunt(
        hunter, "forest", "winter", "ranged", FixedDice([19, 3, 4, 1, 2]), extra_for_rations=0
    )
    assert kept.rations == 3 and kept.distance_lost == Fraction(1, 4)


def test_c3_m67_failed_hunting_and_trapping_take_the_whole_day():
    hunter = make_character(strength=12, knowledge=12, skills={"hunting": 50})
    assert hunt(hunter, "forest", "winter", "ranged", FixedDice([2])).distance_lost == 1
    trapped = hunt(hunter, "forest", "summer", "traps", FixedDice([15, 2]))
    assert trapped.check.degree == 3  # 6 + 15 = 21 vs DC 10: two extra rations
    assert trapped.rations == 4 and trapped.distance_lost == 1


def test_c3_t19_several_hunters_take_the_worst_reduction():
    hunter = make_character(strength=12, skills={"hunting": 50})
    first = hunt(hunter, "forest", "summer", "ranged", FixedDice([10, 1, 2]))
    second = hunt(hunter, "forest", "summer", "ranged", FixedDice([10, 1, 3]))
    assert party_distance_lost([first, second]) == Fraction(3, 4)


@pytest.mark.parametrize(
    ("strength", "free", "encumbered"), [(10, 3, 7), (11, 4, 7), (4, 1, 3), (18, 6, 12)]
)
def test_c3_t15_encumbrance_limits(strength, free, encumbered):
    """§ 14.13b, C3-T15, C3-A25."""
    assert limits(strength) == (free, encumbered)


def test_c3_t15_levels_and_dragging():
    assert [encumbrance(10, w) for w in (3, 4, 7, 8, 9)] == [
        "unencumbered",
        "encumbered",
        "encumbered",
        "heavily_encumbered",
        "overloaded",
    ]
    assert drag_capacity(10, 8) == 2
    floor = Options(encumbrance_rounding="floor")
    assert limits(10, floor) == (3, 6) and encumbrance(10, 7, floor) == "heavily_encumbered"


def test_c3_m71_stones_from_item_sizes_and_armour():
    """§ 14.4–14.12, § 14.15, C3-A26."""
    assert Load().stones == 0
    assert Load(backpack=True).stones == 1
    assert Load(backpack=True, small_things=10, rations=3).stones == 2
    assert Load(armour="full chain", medium_items=4, big_things=3, weapons_at_side=1).stones == 8
    assert Load(armour="half-plate").stones == 2
    with pytest.raises(ValueError, match="overfill"):
        Load(backpack=True, small_things=31)
    with pytest.raises(ValueError, match="impossible"):
        Load(medium_items=7)
    with pytest.raises(ValueError):
        Load(big_things=6)
    with pytest.raises(ValueError, match="need a backpack"):
        Load(rations=1)


def test_negative_strength_is_refused():
    with pytest.raises(ConstitutionDataError):
        limits(-1)


def test_c3_a54_coins_ride_in_purses_and_pouches():
    """§ 14.13a: a small purse of 50 coins packs as a small thing; a pouch of up to 250 is
    worn as a medium thing. The coins weigh only as their containers."""
    purse = Load(backpack=True, small_things=15, coins=50, purses=1)
    assert purse.packed_small_things == 16 and purse.stones == 2  # 16 small things: 2 stones
    pouch = Load(medium_items=3, coins=250, pouches=1)
    assert pouch.worn_medium_items == 4 and pouch.stones == 2  # four medium things: 2 stones
    assert Load(coins=300, purses=1, pouches=1, backpack=True).stones == 2


@pytest.mark.parametrize(
    ("load", "problem"),
    [
        ({"coins": 1}, "need purses"),
        ({"coins": 51, "purses": 1, "backpack": True}, "these hold 50"),
        ({"coins": 50, "purses": 1}, "need a backpack"),
        ({"medium_items": 6, "pouches": 1, "coins": 10}, "more than 6 medium"),
    ],
)
def test_c3_a54_coins_that_do_not_fit_are_refused(load, problem):
    with pytest.raises(ValueError, match=problem):
        Load(**load)
