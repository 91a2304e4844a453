"""Followers, replacements and burials (§ Followers, § Death; CR-M10, CR-M20, CR-M21,
CR-A19, CR-A23, CR-A24)."""

from __future__ import annotations

import pytest

from tabletop.systems.rollunder import (
    BURIAL_COST,
    Company,
    RollUnderError,
    RollUnderOptions,
    burial_cost,
    bury,
    dismiss_follower,
    loyalty_roll,
    recruit_follower,
    replace_character,
)
from tests.systems.rollunder.helpers import hero, run


def follower(name: str):  # type: ignore[no-untyped-def]
    return hero(name=name, abilities={"STR": 8, "AGI": 8, "WIT": 4}, max_health=8, health=8)


def party() -> Company:
    return Company(
        members=(
            hero(name="Ash", omens=2, max_omens=3, money=200),
            hero(name="Bo", omens=3, max_omens=3, money=100),
            hero(name="Cai", death="health loss"),
        )
    )


def test_cr_m10_each_player_character_leads_at_most_two_followers():
    company, events = recruit_follower(party(), "Ash", follower("Dog"))
    company, _ = recruit_follower(company, "Ash", follower("Eel"))
    assert [m.name for m in company.followers_of("Ash")] == ["Dog", "Eel"]
    assert events[0].values == {"leader": "Ash", "joined": True}
    with pytest.raises(RollUnderError, match="already leads 2"):
        recruit_follower(company, "Ash", follower("Fox"))
    with pytest.raises(RollUnderError, match="only player characters lead"):
        recruit_follower(company, "Dog", follower("Fox"))
    with pytest.raises(RollUnderError, match="different name"):
        recruit_follower(company, "Bo", follower("Dog"))
    rest, _ = dismiss_follower(company, "Dog")
    assert [m.name for m in rest.followers_of("Ash")] == ["Eel"]
    with pytest.raises(RollUnderError, match="not a follower"):
        dismiss_follower(company, "Bo")


def test_cr_a23_the_leader_makes_the_loyalty_wit_roll_unless_the_option_says_the_follower():
    company, _ = recruit_follower(party(), "Ash", follower("Dog"))
    leader_roll = loyalty_roll(company, "Dog", RollUnderOptions())
    assert leader_roll.character.name == "Ash" and leader_roll.ability == "WIT"
    assert run(leader_roll, [9]).outcome.passed  # Ash's WIT 9
    options = RollUnderOptions(loyalty_roller="follower")
    own = loyalty_roll(company, "Dog", options)
    assert own.character.name == "Dog"
    assert not run(own, [9], options).outcome.passed  # Dog's WIT 4
    with pytest.raises(RollUnderError, match="not a follower"):
        loyalty_roll(company, "Bo", options)


@pytest.mark.parametrize(("retrieved", "cost"), [(True, 256), (False, 512)])
def test_cr_m21_burial_costs_256_doubled_without_the_remains(retrieved, cost):
    assert burial_cost(retrieved) == cost == BURIAL_COST * (1 if retrieved else 2)


def test_cr_a19_the_companions_share_the_cost_exactly():
    dead = party().member("Cai")
    company, events = bury(party(), dead, True, {"Ash": 156, "Bo": 100})
    assert company.member("Ash").money == 44 and company.member("Bo").money == 0
    assert [event.values["paid"] for event in events] == [156, 100]
    with pytest.raises(RollUnderError, match="costs 512ʂ"):
        bury(party(), dead, False, {"Ash": 200, "Bo": 100})
    with pytest.raises(RollUnderError, match="has 100ʂ, not 156ʂ"):
        bury(party(), dead, True, {"Ash": 100, "Bo": 156})
    with pytest.raises(RollUnderError, match="not a living companion"):
        bury(party(), dead, True, {"Cai": 256})


def test_cr_a19_unpaid_each_companion_loses_an_omen_for_good():
    company, events = bury(party(), party().member("Cai"), True, None)
    ash, bo = company.member("Ash"), company.member("Bo")
    assert (ash.omens, ash.max_omens) == (2, 2)  # the spent omen is the one lost
    assert (bo.omens, bo.max_omens) == (2, 2)
    assert len(events) == 2


def test_burial_is_for_dead_player_characters():
    with pytest.raises(RollUnderError, match="not dead"):
        bury(party(), party().member("Ash"), True, None)
    company, _ = recruit_follower(party(), "Ash", follower("Dog"))
    dead_dog = company.member("Dog").with_changes(death="injury")
    with pytest.raises(RollUnderError, match="follower"):
        bury(company, dead_dog, True, None)


def test_cr_m20_cr_a24_the_replacement_joins_and_takes_over_the_followers():
    company, _ = recruit_follower(party(), "Bo", follower("Dog"))
    company = company.updated(company.member("Bo").with_changes(death="injury"))
    newcomer = hero(name="Fen")
    joined, _ = replace_character(company, "Bo", newcomer, RollUnderOptions())
    assert [m.name for m in joined.members] == ["Ash", "Cai", "Dog", "Fen"]
    assert joined.member("Dog").leader == "Fen"
    left, _ = replace_character(
        company, "Bo", newcomer, RollUnderOptions(followers_of_the_dead="leave")
    )
    assert [m.name for m in left.members] == ["Ash", "Cai", "Fen"]
    with pytest.raises(RollUnderError, match="alive"):
        replace_character(party(), "Ash", newcomer, RollUnderOptions())
    with pytest.raises(RollUnderError, match="nobody called"):
        replace_character(party(), "Zed", newcomer, RollUnderOptions())


def test_a_company_refuses_followers_without_a_leader():
    with pytest.raises(ValueError, match="not a player character of the company"):
        Company(members=(follower("Dog").with_changes(leader="Nobody"),))
