"""3d6 Constitution's days on the road at a shared table (articles 13 and 15 with 6.5): the
march and its encounter checks kept from the players, hunting, rations, camp with supper,
sleep and the morning's HP, time passing and lights, each with fixed dice and the seed's
article or the reading (docs/rules/constitution.md) it follows."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.systems.constitution import ConstitutionError
from tabletop.systems.constitution.travel import MILES_PER_DAY, WEATHER_SPEED
from tests.effort import tried
from tests.systems.constitution.test_session import ADA, BO, GM, WATCHER, play, received, seated


def test_a_days_march_on_a_road_rolls_one_check_plus_one_per_six_miles_for_the_gm_alone():
    """§ 13.4: 24 miles a day on a road; § 13.5: one check a day plus one per 6 miles, 1 in 3
    (a d6 of 1 or 2); C3-A61: the checks are the referee's, the players learn only that
    they are rolled."""
    state, events = play(seated(), {"kind": "march", "terrain": "road"}, GM, [1, 3, 4, 5, 6])
    marched = "day 1: the party marches 24 miles over country roads (fair, unencumbered)"
    assert events[0].text == marched
    assert events[1].data["encounters"] == 1
    assert state.clock.marched and state.clock.miles == 24
    assert "1 encounter in 5" in received(events, state, GM)
    for member in (ADA, BO, WATCHER):
        told = received(events, state, member)
        assert "the GM rolls for encounters" in told and "encounter in" not in told
        assert "marches 24 miles" in told


def test_weather_pace_and_a_near_goal_shorten_the_march():
    """§ 13.4b: rain halves the day; § 14.13: encumbered travellers go at 2/3; C3-A32: the
    factors multiply exactly. Plains 18 × 1/2 × 2/3 = 6 miles: two checks (one a day, one
    for the full 6 miles). A goal nearer than that ends the day there."""
    march = {"kind": "march", "terrain": "plains", "weather": "rain", "pace": "encumbered"}
    state, events = play(seated(), march, GM, [3, 3])
    assert state.clock.miles == 6 and events[0].data["encounter_checks"] == 2
    near = {"kind": "march", "terrain": "road", "miles": 5}
    state, events = play(seated(), near, GM, [6])
    assert state.clock.miles == 5 and events[0].data["encounter_checks"] == 1


def test_the_party_marches_once_a_day():
    """C3-A56: one march a day; the next after camp."""
    state, _ = play(seated(), {"kind": "march"}, GM, [6] * 5)
    with pytest.raises(ConstitutionError, match="march"):
        play(state, {"kind": "march"}, GM, [6] * 5)


def test_a_hunt_before_the_march_feeds_the_hunter_and_shortens_the_day():
    """§ 13.6–13.8: strength × hunting% (C3-A11: 18 × 50% = 9) + d20 10 = 19 against plains'
    DC 15 succeeds: 1d4 = 3 rations, and 1d4 = 2 quarters of the day lost; § 4.11: the group
    sets the skill's rating the first time it is used. The march covers the half left:
    18 × 1/2 = 9 miles."""
    hunt = {"kind": "hunt", "character": "c1", "terrain": "plains", "rating": 50}
    state, events = play(seated(), hunt, ADA, [10, 3, 2])
    assert "10 + 9 = 19 vs DC 15: success" in events[0].text
    assert state.characters["c1"].supplies.food == 3
    assert state.characters["c1"].sheet.skills == {"hunting": 50}
    assert state.clock.day_lost == Fraction(1, 2)
    state, events = play(state, {"kind": "march", "terrain": "plains"}, GM, [6, 6])
    assert state.clock.miles == 9
    with pytest.raises(ConstitutionError):
        play(state, hunt | {"rating": None}, ADA, [10, 3, 2])


def test_hunting_with_traps_takes_the_whole_day():
    """§ 13.8: traps take all day whatever the outcome, so no march is offered (C3-A56)."""
    hunt = {"kind": "hunt", "character": "c1", "method": "traps", "rating": 50}
    state, _ = play(seated(), hunt, ADA, [1])
    assert state.clock.day_lost == 1
    assert "march" not in {offer.kind for offer in state_offers(state)}
    with pytest.raises(ConstitutionError):
        play(state, {"kind": "march"}, GM, [6])


def state_offers(state):
    from tabletop.systems.constitution import SESSION

    return SESSION.legal(state, GM)


def test_camp_feeds_who_carries_food_and_starts_a_fast_for_who_does_not():
    """§ 15.1: a ration a day; § 15.2: a day without food is a fast, −2 on every check;
    § 15.3 and C3-A58: without food after a march is two days of strain; § 6.5 and C3-A60:
    after a good night each character re-rolls HP without penalty dice."""
    state, _ = play(seated(), {"kind": "rations", "character": "c1", "food": 2}, ADA)
    state, _ = play(state, {"kind": "march"}, GM, [6] * 5)
    state, events = play(state, {"kind": "camp"}, GM, [4, 2])
    ada, bo = state.characters["c1"], state.characters["c2"]
    assert ada.supplies.food == 1 and ada.sheet.hp == 4 and ada.penalty(state.options) == 0
    assert bo.deprivation.fasting and bo.deprivation.strain == 2
    assert bo.penalty(state.options) == -2 and bo.sheet.hp == 2
    assert state.clock.day == 2 and not state.clock.marched and state.clock.miles == 24
    assert "Bo has nothing to eat" in received(events, state, ADA)


def test_a_check_at_the_table_carries_the_deprivation_penalty():
    """§ 15.2 '-2 to all checks' (C3-A62): Bo, fasting, rolls 12 + wits 9 − 2 = 19 and fails
    DC 20, which 21 would have passed."""
    state, _ = play(seated(), {"kind": "camp"}, GM, [4, 2])
    check = {"kind": "check", "character": "c2", "ability": "wits"}
    _, events = play(state, check, BO, [12])
    assert "= 19 vs DC 20: failure" in events[0].text


def test_a_dry_camp_drinks_from_the_water_carried_or_calls_for_a_strength_save():
    """§ 15.5: a day without water is a strength save at DC 20, −4 on a pass, −6 on a
    failure; C3-A59: a carried ration of water spares it. Ada drinks hers; Bo (strength 9)
    rolls 5: 14, a failure, −6. § 15.7: −6 is at least half his strength, so he wakes with
    a point of fatigue and rolls his morning HP with a penalty die (3 and 5: 3)."""
    state, _ = play(seated(), {"kind": "rations", "character": "c1", "water": 1}, ADA)
    state, _ = play(state, {"kind": "rations", "character": "c2", "food": 1}, BO)
    state, _ = play(state, {"kind": "camp", "water_found": False}, GM, [3, 5, 3, 5])
    ada, bo = state.characters["c1"], state.characters["c2"]
    assert ada.supplies.water == 0 and ada.deprivation.dehydration == 0
    assert bo.deprivation.dehydration == -6 and bo.deprivation.failed_water_saves == 1
    assert bo.sheet.fatigue == 1 and bo.sheet.hp == 3


def test_a_bad_night_does_not_reset_fatigue_or_reroll_hp():
    """§ 6.5: only a good night's sleep resets fatigue and brings the morning's HP roll
    (C3-A60); § 15.6: sleeping badly leaves a rested character unpenalised (C3-A28)."""
    state, _ = play(seated(), {"kind": "rest", "character": "c1"}, ADA, [2])
    state, events = play(state, {"kind": "camp", "sleep": "badly"}, GM)
    ada = state.characters["c1"]
    assert ada.sheet.fatigue == 1 and ada.sheet.hp == 2
    assert not [e for e in events if e.type == "hit_points"]


def test_time_passes_on_the_gms_clock_while_lights_burn_down_in_view_of_all():
    """§ 13.2: a torch lasts 6 turns; § 13.5: a quiet dungeon's check is 1 in 6 once an hour;
    § 13.3 and C3-A61: the time of day is the referee's, a light going out is not."""
    state, _ = play(seated(), {"kind": "light", "character": "c1", "light": "torch"}, ADA)
    explore = {"kind": "explore", "turns": 6, "encounters": "each_hour"}
    state, events = play(state, explore, GM, [1])
    assert state.clock.turns.turns == 6 and state.clock.turns.lights == ()
    assert "1 encounter in 1" in received(events, state, GM)
    told = received(events, state, ADA)
    assert "Ada's torch goes out" in told and "time passes" in told
    assert "60 minutes" not in told and "encounter in" not in told
    assert '"turns": {"hidden": "the time of day"}' in told


def test_rations_cannot_go_below_none():
    with pytest.raises(ConstitutionError, match="not that many"):
        play(seated(), {"kind": "rations", "character": "c1", "food": -1}, ADA)


def test_a_player_hunts_only_with_their_own_character_and_only_the_gm_marches():
    from tabletop.errors import PermissionDenied

    with pytest.raises(ConstitutionError, match=r"Hunt or forage: Character must be Ada$"):
        play(seated(), {"kind": "hunt", "character": "c2", "rating": 40}, ADA, [10])
    with pytest.raises(PermissionDenied):
        play(seated(), {"kind": "march"}, ADA, [6] * 5)


def test_two_sleepless_nights_cost_four_on_every_check():
    """§ 15.6 and C3-A28: −4 per 24 hours awake after the first; 48 hours awake is −4. No
    night's sleep means no morning HP roll either (C3-A60). § 15.2: a one-day fast ends
    after one day of normal eating, so only the sleep penalty is left."""
    state, _ = play(seated(), {"kind": "camp", "sleep": "none"}, GM)
    assert state.characters["c1"].penalty(state.options) == -2  # no food yet: fasting
    state, _ = play(state, {"kind": "rations", "character": "c1", "food": 2}, ADA)
    state, _ = play(state, {"kind": "camp", "sleep": "none"}, GM)
    ada = state.characters["c1"]
    assert ada.deprivation.hours_awake == 48 and not ada.deprivation.fasting
    assert ada.penalty(state.options) == -4 and ada.supplies.food == 1
    assert state.clock.day == 3


@settings(max_examples=tried(60), deadline=None)
@given(
    terrain=st.sampled_from(list(MILES_PER_DAY)),
    weather=st.sampled_from(list(WEATHER_SPEED)),
    pace=st.sampled_from(["unencumbered", "encumbered", "heavily_encumbered"]),
    goal=st.one_of(st.none(), st.integers(1, 40)),
    seed=st.integers(0, 1000),
)
def test_a_march_covers_the_days_reach_or_the_goal_and_checks_once_per_six_miles(
    terrain, weather, pace, goal, seed
):
    """§ 13.4–13.5, C3-A32 and C3-A57, as an invariant: the miles are the lesser of the
    goal and terrain × weather × pace exactly; checks are 1 + ⌊miles / 6⌋; the encounter
    count never exceeds the checks; the clock counts the miles."""
    from tabletop.dice import SeededDice
    from tabletop.systems.constitution import SESSION
    from tabletop.systems.constitution.encumbrance import SPEED

    state = seated()
    march = {"kind": "march", "terrain": terrain, "weather": weather, "pace": pace}
    events = SESSION.resolve(state, march | {"miles": goal}, GM, SeededDice(seed))
    for event in events:
        state = SESSION.fold(state, event)
    reach = MILES_PER_DAY[terrain] * WEATHER_SPEED[weather] * SPEED[pace]
    walked = reach if goal is None else min(Fraction(goal), reach)
    assert state.clock.miles == walked and Fraction(events[0].data["miles"]) == walked
    assert events[0].data["encounter_checks"] == 1 + walked // 6
    assert 0 <= events[1].data["encounters"] <= events[0].data["encounter_checks"]
