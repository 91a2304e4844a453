"""The referee's NPCs at a 3d6 Constitution table (C3-N01..N06): the articles' ordinary
humans or typed in, stepped into the fight as the GM's combatants, their numbers kept."""

from __future__ import annotations

import pytest

from tabletop.errors import TabletopError
from tabletop.session import Visibility
from tabletop.systems.constitution import SESSION, ConstitutionError
from tabletop.systems.constitution.table_npcs import bestiary
from tests.systems.constitution.test_session import ADA, GM, play, received, seated

SERGEANT = {"kind": "npc-from-book", "creature": "Human in heavy armour", "name": "Sergeant"}


def test_the_articles_give_an_average_humans_numbers_and_armour_shield_and_henchmen_vary_them():
    """C3-N01..N04: abilities 10 (§ 4.2), unarmoured AC 20 (§ 5.15), an armed human's d6
    (§ 5.18), one hit die (§ 2.7); +2 and +10 AC for light and heavy armour; a shield to
    defend as a reaction (§ 5.17); a henchman at initiative 1 (§ 5.11)."""
    book = {c.name: c for c in bestiary().creatures}
    human = book["Average human"].stats
    assert (human.wits, human.strength, human.will, human.ac, human.damage, human.level) == (
        10,
        10,
        10,
        20,
        "1d6",
        1,
    )
    assert human.hp is None and human.morale is None  # rolled when brought; C3-A15
    assert [book[n].stats.ac for n in ("Human in light armour", "Human in heavy armour")] == [
        22,
        30,
    ]
    assert book["Shield-bearer"].stats.can_defend_as_reaction
    assert book["Henchman"].stats.henchman
    assert {c.reading for c in book.values()} <= {"C3-N01", "C3-N02", "C3-N03", "C3-N04"}


def test_one_brought_from_the_book_rolls_its_hit_dice_for_the_gm_alone():
    """§ 6.1: one hit die, 1d6 HP, rolled as it comes to the table; the players hear its
    name and never receive the roll (the draw rides on the GM's event only)."""
    state, events = play(seated(), SERGEANT, GM, [4])
    kept = state.npcs["n1"]
    assert kept.stats.hp == 4 and kept.creature == "Human in heavy armour"
    assert [e.visibility for e in events] == [Visibility.GM, Visibility.PUBLIC]
    told = received(events, state, ADA)
    assert "the GM brings Sergeant to the table" in told
    assert "AC 30" not in told and '"ac": 30' not in told and '"draws"' not in told
    typed = {"kind": "new-npc", "name": "Bandit", "stats": {"hp": 7, "damage": "1d8"}}
    state, _ = play(state, typed, GM)  # HP given: nothing rolled
    assert state.npcs["n2"].stats.hp == 7
    with pytest.raises(TabletopError, match="damage 'a sword': bad dice expression"):
        play(state, {"kind": "edit-npc", "npc": "n2", "stat": "damage", "value": "a sword"}, GM)


def to_ada(event) -> str:
    """The line Ada's page receives of `event`."""
    shown = SESSION.view_event(event, ADA)
    return shown.text if shown else ""


def fighting() -> tuple:
    """Ada (fighter, wits 15) and the sergeant (HP 4) in the fight, Ada acting first."""
    state, _ = play(seated(), SERGEANT, GM, [4])
    state, _ = play(state, {"kind": "join-fight", "character": "c1"}, ADA)
    state, joined = play(state, {"kind": "npc-joins-fight", "npc": "n1"}, GM)
    initiative = {"kind": "combat", "action": {"action": "roll_initiative", "id": "Ada"}}
    state, _ = play(state, initiative, ADA, [19])
    initiative["action"]["id"] = "n1"
    state, rolled = play(state, initiative, GM, [1])
    state, _ = play(state, {"kind": "combat", "action": {"action": "begin"}}, GM)
    return state, joined + rolled


def test_an_npc_in_the_fight_keeps_its_numbers_and_its_lines_reach_players_without_them():
    """C3-N05: the sergeant joins as the GM's foe; its initiative (1 + wits 10 = 11) is the
    GM's, the players read 'initiative ?'; their view of the fight holds its name, side
    and place in the order, and none of its numbers."""
    state, events = fighting()
    assert state.fight.get("n1").side == "foes" and "n1" not in state.controllers
    assert [to_ada(e) for e in events] == [
        "Sergeant (foes) joins the fight",
        "Sergeant: initiative ? (?d?! → [?] = ?)",
    ]
    fight = received([], state, ADA)
    assert '"order": ["Ada", "n1"]' in fight
    assert '"ac": 30' not in fight and '"initiative": 11' not in fight
    seen = next(c for c in SESSION.view(state, ADA)["fight"]["combatants"] if c["id"] == "n1")
    assert seen == {
        "id": "n1",
        "name": "Sergeant",
        "side": "foes",
        "status": "fighting",
        "turns_left": 1,
        "reorienting": False,
        "commander": None,
    }


def test_a_hit_on_the_npc_and_the_saves_it_forces_are_kept_and_its_hp_written_back():
    """C3-N05, C3-N06: Ada hits the sergeant (AC 30) for 5; it has 4 HP, so it makes its
    injury saves (§ 6.6), which name nobody: they follow the hit on it, and are kept too.
    The fight leaves it at 0 HP, and so does its card."""
    state, _ = fighting()
    attack = {"action": "attack", "attacker": "Ada", "target": "n1"}
    state, events = play(state, {"kind": "combat", "action": attack}, ADA, [15, 5, 10, 10])
    told = {e.type: to_ada(e) for e in events}
    assert told["attack"].startswith("Ada attacks Sergeant (AC ?)")
    assert told["damage_roll"] == "damage 1d6 → [5] = 5"  # Ada's own roll
    assert told["damage"] == "Sergeant takes ?: HP ?"
    assert told["strength_save"].endswith("vs DC ?: failure, ? degree")
    assert state.npcs["n1"].stats.hp == 0
    with pytest.raises(ConstitutionError, match="in the fight"):
        play(state, {"kind": "remove-npc", "npc": "n1"}, GM)
