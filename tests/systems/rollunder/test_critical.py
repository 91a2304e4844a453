"""Critical damage and the injury table (§ Critical damage; CR-M16, CR-M17, CR-A04…A09,
CR-A28)."""

from __future__ import annotations

import pytest

from tabletop.dice import FixedDice
from tabletop.systems.rollunder import (
    Hit,
    Item,
    Load,
    LoseAbility,
    Resolution,
    RollUnderOptions,
    SufferHit,
    critical_damage,
    downtime,
    injury_table,
)
from tests.systems.rollunder.helpers import hero, kinds, run


def hit(amount: int, **sheet: object) -> SufferHit:
    return SufferHit(character=hero(**sheet), hit=Hit(amount=amount))


@pytest.mark.parametrize(
    ("damage", "faces", "incapacitated", "injury", "permanent", "health"),
    [
        (5, [], False, False, False, 5),
        (6, [], True, False, False, 4),
        (7, [], True, False, False, 3),
        (8, [6], True, True, False, 2),
        (15, [6], True, True, True, 0),
    ],
)
def test_cr_t09_the_three_thresholds(damage, faces, incapacitated, injury, permanent, health):
    """CR-T09: health 10 of 14; 5 is not > 5; 6 > 5; 8 > 7; 15 > 14 (health stops at 0)."""
    done = run(hit(damage), faces)
    critical = done.outcome.critical
    assert (critical.incapacitated, critical.injury, critical.permanent) == (
        incapacitated,
        injury,
        permanent,
    )
    assert done.outcome.character.health == health
    assert done.outcome.character.incapacitated is incapacitated
    assert ("injury_roll" in kinds(done)) is injury


def test_cr_a05_halves_are_compared_exactly():
    assert critical_damage(4, 7, 7).incapacitated
    assert not critical_damage(3, 7, 7).incapacitated
    assert critical_damage(4, 7, 7).injury and not critical_damage(3, 7, 7).injury
    assert not critical_damage(7, 7, 7).permanent and critical_damage(8, 7, 7).permanent


def test_cr_t11_health_stops_at_0_and_the_character_is_dying():
    """CR-T11: health 5, damage 9 → 0 (not −4), incapacitated, injury (9 > 7)."""
    done = run(hit(9, health=5), [7])
    sheet = done.outcome.character
    assert sheet.health == 0 and sheet.at_deaths_door and sheet.alive
    assert kinds(done)[:4] == ["armour", "health_lost", "dying", "incapacitated"]
    assert done.events[1].values == {"damage": 9, "before": 5, "after": 0}


def test_cr_t13_permanent_past_maximum_health_else_until_downtime():
    """CR-T13: damage 15 (max 14) and d8 5 → Disabled leg, −2 AGI for good; damage 8 → back
    at downtime."""
    lasting = run(hit(15, health=14), [5]).outcome.character
    assert lasting.abilities["AGI"] == 8
    assert lasting.injuries[0].trait == "Disabled leg" and lasting.injuries[0].permanent
    after = downtime(lasting.with_changes(health=3)).character
    assert after.abilities["AGI"] == 8 and after.injuries == lasting.injuries
    passing = run(hit(8, health=14), [5]).outcome.character
    assert passing.abilities["AGI"] == 8 and not passing.injuries[0].permanent
    healed = downtime(passing).character
    assert healed.abilities["AGI"] == 10 and healed.injuries == ()


@pytest.mark.parametrize(
    ("face", "trait", "ability"),
    [
        (2, "Disabled arm", "STR"),
        (3, "Disabled arm", "STR"),
        (4, "Disabled leg", "AGI"),
        (5, "Disabled leg", "AGI"),
        (6, "Disabled eye", "WIT"),
        (7, "Disabled eye", "WIT"),
    ],
)
def test_cr_m17_disabling_rows_take_2_from_their_ability(face, trait, ability):
    sheet = run(hit(8, health=14), [face]).outcome.character
    assert sheet.injuries[0].trait == trait and sheet.injuries[0].ability == ability
    assert sheet.abilities[ability] == hero().abilities[ability] - 2


def test_cr_a08_an_injury_to_str_moves_health_too_without_more_critical_damage():
    """CR-A08, CR-M12: −2 STR also takes 2 from maximum and current health."""
    done = run(hit(8, health=14), [2])
    sheet = done.outcome.character
    assert (sheet.abilities["STR"], sheet.max_health, sheet.health) == (10, 12, 4)
    assert kinds(done).count("incapacitated") == 1
    assert "health_adjusted" in kinds(done)


def test_cr_m17_row_8_is_instant_death():
    sheet = run(hit(8, health=14), [8]).outcome.character
    assert not sheet.alive and sheet.death == "injury"


def test_cr_a09_an_omen_rerolls_the_injury_roll_but_cannot_cancel_instant_death():
    start = Resolution.begin(hit(8, health=14, omens=1, max_omens=1), FixedDice([8]))
    assert start.decision is not None and start.decision.roll == "injury"
    done = start.choose("reroll Ash", FixedDice([6])).choose("keep 2", FixedDice([]))
    assert done.outcome.character.alive and done.outcome.character.abilities["WIT"] == 7
    dead = start.choose("keep 1", FixedDice([]))
    assert not dead.outcome.character.alive


def test_cr_a09_the_option_lets_a_death_save_cancel_instant_death():
    options = RollUnderOptions(omen_saves_from_injury_death=True)
    start = Resolution.begin(hit(8, health=14, omens=1, max_omens=1), FixedDice([8]), options)
    at_death = start.choose("keep 1", FixedDice([]))
    assert at_death.decision is not None and at_death.decision.kind == "death_save"
    saved = at_death.choose("save", FixedDice([])).outcome.character
    assert saved.alive and saved.omens == 0 and saved.health == 6


def test_cr_m17_row_1_the_gm_picks_the_item_destroyed():
    gear = Load(
        carry_limit=20,
        worn=(Item(name="clothes", bulk=1, kind="clothes"),),
        held=(Item(name="spear", bulk=2, kind="weapon"),),
        stored=(Item(name="rope", bulk=1),),
    )
    start = Resolution.begin(hit(8, health=14, load=gear), FixedDice([1]))
    assert start.decision is not None
    assert (start.decision.kind, start.decision.chooser) == ("destroy_item", "GM")
    assert start.decision.choices == ("clothes", "spear", "rope")
    spear_gone = start.choose("spear", FixedDice([])).outcome.character
    assert [item.name for item in spear_gone.load.items] == ["clothes", "rope"]  # type: ignore[union-attr]


def test_cr_a28_destroying_the_clothes_drops_what_they_held():
    gear = Load(
        carry_limit=20,
        worn=(Item(name="clothes", bulk=1, kind="clothes"),),
        stored=(Item(name="rope", bulk=1),),
    )
    done = run(hit(8, health=14, load=gear), [1])
    assert done.outcome.character.load == Load(carry_limit=20)
    destroyed = next(event for event in done.events if event.kind == "item_destroyed")
    assert destroyed.values == {"item": "clothes", "dropped": "rope"}


def test_cr_m17_row_1_with_nothing_carried_destroys_nothing():
    done = run(hit(8, health=14), [1])
    assert "nothing_to_destroy" in kinds(done)


@pytest.mark.parametrize(
    ("measure", "armour", "damage", "injury"),
    [("after_armour", 3, 9, False), ("before_armour", 3, 9, True)],
)
def test_cr_a04_what_the_thresholds_measure(measure, armour, damage, injury):
    """CR-A04: 9 against armour 3 deals 6 (not > 7), but the roll itself is > 7."""
    options = RollUnderOptions(critical_damage_measure=measure)
    intent = SufferHit(character=hero(health=14), hit=Hit(amount=damage, armour=armour))
    done = run(intent, [6] if injury else [], options)
    assert done.outcome.critical.injury is injury


def test_cr_a04_the_health_lost_reading_caps_the_measure_at_the_health_left():
    options = RollUnderOptions(critical_damage_measure="health_lost")
    done = run(hit(10, health=4), [], options)
    assert done.outcome.critical.incapacitated and not done.outcome.critical.injury
    assert run(hit(10, health=4), [6]).outcome.critical.injury  # the default reading


def test_cr_a07_the_option_keeps_the_ability_loss_after_the_trait_heals():
    options = RollUnderOptions(injury_ability_loss="permanent")
    sheet = run(hit(8, health=14), [4], options).outcome.character
    healed = downtime(sheet).character
    assert healed.abilities["AGI"] == 8 and healed.injuries == ()


def test_cr_a22_an_injury_that_takes_an_ability_to_0_kills_unless_an_omen_saves():
    frail = {"abilities": {"STR": 2, "AGI": 10, "WIT": 9}, "health": 14}
    dead = run(hit(8, **frail), [2]).outcome.character
    assert dead.death == "ability loss"
    start = Resolution.begin(hit(8, omens=1, max_omens=1, **frail), FixedDice([2]))
    at_death = start.choose("keep 1", FixedDice([]))  # the omen could re-roll the injury
    assert at_death.decision is not None and at_death.decision.choices == ("save", "die")
    saved = at_death.choose("save", FixedDice([])).outcome.character
    assert saved.alive and saved.abilities["STR"] == 1 and saved.omens == 0
    assert (saved.max_health, saved.health) == (14 - 2 + 1, 6 - 2 + 1)


def test_cr_m12_health_lost_to_str_is_never_critical_damage():
    done = run(LoseAbility(character=hero(health=4), ability="STR", amount=3), [])
    sheet = done.outcome.character
    assert (sheet.abilities["STR"], sheet.max_health, sheet.health) == (9, 11, 1)
    assert not sheet.incapacitated
    assert "incapacitated" not in kinds(done)


def test_the_shipped_injury_table_covers_the_d8_as_the_rules_list():
    table = injury_table()
    assert table.dice == "1d8"
    assert [(str(entry.roll), entry.name) for entry in table.entries] == [
        ("1", "Item destroyed"),
        ("2-3", "Disabled arm"),
        ("4-5", "Disabled leg"),
        ("6-7", "Disabled eye"),
        ("8", "Instant death"),
    ]


@pytest.mark.parametrize("dropped", ["AGI", "WIT"])
def test_cr_g01_the_ability_list_keeps_the_three_the_chapter_uses(dropped):
    """CR-G01 (docs/rules): the list may add abilities but not drop STR, AGI or WIT, which the
    injury table (§ Critical damage), encumbrance and followers use. Dropping one made an
    injury fail halfway with 'has no WIT score'."""
    kept = tuple(name for name in ("STR", "AGI", "WIT") if name != dropped)
    with pytest.raises(ValueError, match=f"must include {dropped}"):
        RollUnderOptions(abilities=kept)
    more = RollUnderOptions(abilities=("STR", "AGI", "WIT", "CHA"))
    sheet = hero(abilities={"STR": 12, "AGI": 10, "WIT": 9, "CHA": 7}, health=14)
    done = run(SufferHit(character=sheet, hit=Hit(amount=8)), [6], more)
    assert done.outcome.character.abilities == {"STR": 12, "AGI": 10, "WIT": 7, "CHA": 7}
