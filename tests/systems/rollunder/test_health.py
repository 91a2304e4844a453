"""Health, dying and what time heals (§ Health loss, § Critical damage, § Spending omens;
CR-M11, CR-M12, CR-A13, CR-A22, CR-A27, CR-A29)."""

from __future__ import annotations

import pytest

from tabletop.dice import FixedDice
from tabletop.systems.rollunder import (
    EndOfActivation,
    Hit,
    Injury,
    LoseAbility,
    Resolution,
    RollUnderError,
    RollUnderOptions,
    SufferHit,
    begin_activation,
    downtime,
    gain_ability,
    heal,
    lose_health,
    save_from_death,
    stretch,
)
from tests.systems.rollunder.helpers import hero, kinds, run

DEFAULTS = RollUnderOptions()


def fallen(**sheet: object):  # type: ignore[no-untyped-def]
    """Ash knocked to 0 by a hit of 6 (health 5, no injury)."""
    return run(
        SufferHit(character=hero(health=5, **sheet), hit=Hit(amount=6)), []
    ).outcome.character


def test_cr_m11_health_never_drops_below_0():
    sheet, events = lose_health(hero(health=3), 10)
    assert sheet.health == 0 and sheet.at_deaths_door
    assert [event.kind for event in events] == ["health_lost", "dying"]
    again, events = lose_health(sheet, 2)
    assert again.health == 0 and [event.kind for event in events] == ["health_lost"]


def test_cr_a13_death_comes_at_the_end_of_the_next_activation_to_begin():
    """CR-T11, CR-A13: falling during an activation, its own end does not kill."""
    sheet = fallen()
    still = run(EndOfActivation(character=sheet, actor="Goblin"), []).outcome.character
    assert still.alive  # the activation in which Ash fell
    armed, events = begin_activation(still, "Bo", DEFAULTS)
    assert armed.deadline_started and events[0].kind == "dying_deadline"
    dead = run(EndOfActivation(character=armed, actor="Bo"), []).outcome.character
    assert dead.death == "health loss"


def test_cr_a13_the_option_waits_for_the_dying_characters_own_activation():
    options = RollUnderOptions(dying_deadline="own_next_activation")
    sheet, _ = begin_activation(fallen(), "Bo", options)
    assert not sheet.deadline_started
    assert run(EndOfActivation(character=sheet, actor="Bo"), [], options).outcome.character.alive
    sheet, _ = begin_activation(sheet, "Ash", options)
    dead = run(EndOfActivation(character=sheet, actor="Ash"), [], options).outcome.character
    assert not dead.alive


def test_cr_m11_healing_before_the_deadline_saves_the_character():
    armed, _ = begin_activation(fallen(), "Bo", DEFAULTS)
    healed, _ = heal(armed, 3)
    assert healed.health == 3 and not healed.deadline_started
    assert run(EndOfActivation(character=healed, actor="Bo"), []).outcome.character.alive


def test_cr_t11_an_omen_at_the_deadline_puts_health_back_to_1():
    armed, _ = begin_activation(fallen(omens=1, max_omens=1), "Bo", DEFAULTS)
    start = Resolution.begin(EndOfActivation(character=armed, actor="Bo"), FixedDice([]))
    assert start.decision is not None and start.decision.kind == "death_save"
    saved = start.choose("save", FixedDice([])).outcome.character
    assert saved.alive and saved.health == 1 and saved.omens == 0
    died = start.choose("die", FixedDice([])).outcome.character
    assert died.death == "health loss" and died.omens == 1


def test_heal_stops_at_the_maximum_and_is_refused_for_the_dead_or_for_nothing():
    assert heal(hero(health=12), 5).character.health == 14
    with pytest.raises(RollUnderError, match="dead"):
        heal(hero(death="injury"), 1)
    with pytest.raises(RollUnderError, match="at least 1"):
        heal(hero(), 0)


def test_cr_m12_str_changes_move_maximum_and_current_health_together():
    stronger, events = gain_ability(hero(), "STR", 2)
    assert (stronger.abilities["STR"], stronger.max_health, stronger.health) == (14, 16, 12)
    assert [event.kind for event in events] == ["ability_gained", "health_adjusted"]
    assert gain_ability(hero(), "AGI", 2).character.max_health == 14


def test_cr_m12_str_loss_can_leave_a_character_dying_with_maximum_health_stopping_at_0():
    done = run(LoseAbility(character=hero(health=2, max_health=2), ability="STR", amount=3), [])
    sheet = done.outcome.character
    assert (sheet.abilities["STR"], sheet.max_health, sheet.health) == (9, 0, 0)
    assert "dying" in kinds(done)


def test_cr_a22_an_ability_lost_to_0_kills_at_once_by_default():
    done = run(LoseAbility(character=hero(), ability="WIT", amount=20), [])
    assert done.outcome.character.death == "ability loss"


def test_cr_a22_the_dying_option_waits_for_the_deadline_and_healing_does_not_help():
    options = RollUnderOptions(ability_at_zero="dying")
    sheet = run(
        LoseAbility(character=hero(), ability="WIT", amount=9), [], options
    ).outcome.character
    assert sheet.alive and sheet.at_deaths_door
    sheet = heal(sheet, 2).character
    sheet, _ = begin_activation(sheet, "Bo", options)
    dead = run(EndOfActivation(character=sheet, actor="Bo"), [], options).outcome.character
    assert dead.death == "ability loss"


def test_stretch_ends_incapacitation():
    sheet, events = stretch(hero(incapacitated=True))
    assert not sheet.incapacitated and events[0].kind == "recovered"
    assert stretch(hero()).events == ()


def test_cr_a29_downtime_ends_incapacitation_restores_temporary_injuries_and_omens():
    hurt = hero(
        abilities={"STR": 10, "AGI": 8, "WIT": 9},
        max_health=12,
        health=5,
        incapacitated=True,
        omens=0,
        max_omens=3,
        injuries=(
            Injury(trait="Disabled arm", ability="STR", lost=2),
            Injury(
                trait="Disabled leg", ability="AGI", lost=2, permanent=True, loss_permanent=True
            ),
        ),
    )
    rested = downtime(hurt).character
    assert rested.abilities == {"STR": 12, "AGI": 8, "WIT": 9}
    assert (rested.max_health, rested.health) == (14, 7)
    assert not rested.incapacitated and rested.omens == 3
    assert [injury.trait for injury in rested.injuries] == ["Disabled leg"]


def test_cr_a27_an_ability_saved_at_0_comes_back_only_to_where_it_was():
    """STR 2, Disabled arm takes it to 0, the omen brings 1 back, downtime the other 1."""
    frail = hero(abilities={"STR": 2, "AGI": 10, "WIT": 9}, health=14, omens=1, max_omens=1)
    start = Resolution.begin(SufferHit(character=frail, hit=Hit(amount=8)), FixedDice([2]))
    saved = start.choose("keep 1", FixedDice([])).choose("save", FixedDice([])).outcome.character
    assert saved.abilities["STR"] == 1 and saved.injuries[0].lost == 1
    rested = downtime(saved).character
    assert rested.abilities["STR"] == 2 and (rested.max_health, rested.health) == (14, 6)


def test_save_from_death_is_refused_when_not_dying_or_without_omens():
    with pytest.raises(RollUnderError, match="not dying"):
        save_from_death(hero(omens=1, max_omens=1), DEFAULTS)
    with pytest.raises(RollUnderError, match="0 omens"):
        save_from_death(hero(health=0), DEFAULTS)


def test_the_sheet_refuses_impossible_states():
    with pytest.raises(ValueError, match="over the maximum health"):
        hero(health=15)
    with pytest.raises(ValueError, match="more than the maximum"):
        hero(omens=2, max_omens=1)
    with pytest.raises(ValueError, match="only a dying character"):
        hero(deadline_started=True)
    with pytest.raises(ValueError, match="from 0 to 1000"):
        hero(abilities={"STR": -1, "AGI": 1, "WIT": 1})
