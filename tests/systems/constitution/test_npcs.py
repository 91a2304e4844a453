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


# lines that hold a hidden NPC's numbers without its name ----------------------------------


BRUTE = {"kind": "new-npc", "name": "Brute", "stats": {"strength": 27, "will": 23, "hp": 9}}


def brute_fights(stats: dict | None = None, first: str = "Ada", bo: dict | None = None) -> tuple:
    """Ada and the typed-in Brute (strength 27, will 23) in the fight, `first` acting first
    (initiative 30, the others 12); with `bo`, a combatant the GM gives Ada to play."""
    brute = {**BRUTE, "stats": {**BRUTE["stats"], **(stats or {})}}
    state, _ = play(seated(), brute, GM)
    state, _ = play(state, {"kind": "join-fight", "character": "c1"}, ADA)
    state, _ = play(state, {"kind": "npc-joins-fight", "npc": "n1"}, GM)
    if bo is not None:
        add = {"action": "add", "combatant": bo}
        state, _ = play(state, {"kind": "combat", "action": add, "controller": ADA.id}, GM)
    for fighter in state.fight.combatants:
        value = 30 if fighter.id == first else 12
        action = {"action": "set_initiative", "id": fighter.id, "value": value}
        state, _ = play(state, {"kind": "combat", "action": action}, GM)
    state, _ = play(state, {"kind": "combat", "action": {"action": "begin"}}, GM)
    return state


def test_the_saves_answering_a_direct_hit_on_the_npc_name_nobody_and_are_kept():
    """C3-N05: Ada's direct hit on the Brute (AC 5) is answered by the GM with its injury
    saves (§ 6.12), whose lines name nobody and open their step: they are the Brute's, whom
    the answer is for, and its strength and will reach no byte Ada receives."""
    state = brute_fights({"ac": 5})
    attack = {"action": "attack", "attacker": "Ada", "target": "n1"}
    state, _ = play(state, {"kind": "combat", "action": attack}, ADA, [20, 5, 5])
    assert state.fight.pending_direct_hit is not None
    answer = {"kind": "combat", "action": {"action": "answer_direct_hit", "pay": False}}
    state, events = play(state, answer, GM, [10, 10])
    gm_saw = " ".join(e.text for e in events)
    assert "+ 27 = " in gm_saw and "+ 23 = " in gm_saw
    told = received(events, state, ADA)
    assert "27" not in told and "23" not in told
    assert to_ada(events[0]).startswith("strength save: ?d?! → [?] = ?; ? + ? = ?")


def test_a_npc_renamed_in_the_fight_keeps_its_numbers_under_the_name_it_fights_with():
    """C3-N05, C3-N06: the Brute, renamed Grunt while in the fight, still fights as Brute
    (the fight keeps the name it joined with); its initiative and its attack on Ada, which
    name Brute, reach Ada with no number of its own."""
    state, _ = play(seated(), BRUTE, GM)
    state, _ = play(state, {"kind": "join-fight", "character": "c1"}, ADA)
    state, _ = play(state, {"kind": "npc-joins-fight", "npc": "n1"}, GM)
    rename = {"kind": "edit-npc", "npc": "n1", "stat": "name", "value": "Grunt"}
    state, _ = play(state, rename, GM)
    assert state.npcs["n1"].name == "Grunt" and state.fight.get("n1").name == "Brute"
    initiative = {"kind": "combat", "action": {"action": "roll_initiative", "id": "n1"}}
    state, rolled = play(state, initiative, GM, [19])
    assert to_ada(rolled[0]) == "Brute: initiative ? (?d?! → [?] = ?)"
    state, _ = play(
        state, {**initiative, "action": {**initiative["action"], "id": "Ada"}}, ADA, [1]
    )
    state, _ = play(state, {"kind": "combat", "action": {"action": "begin"}}, GM)
    attack = {"action": "attack", "attacker": "n1", "target": "Ada"}
    state, events = play(state, {"kind": "combat", "action": attack}, GM, [15, 5, 5, 5])
    assert "+ 27 = " in events[0].text
    told = received([*rolled, *events], state, ADA)
    assert "27" not in told and "29" not in told  # its attack score, its initiative (19 + 10)


def test_a_shield_answered_against_the_npcs_attack_keeps_the_attack_roll():
    """C3-N05, C3-A55: the Brute hits Bo, a shield-bearer the GM gave Ada to play; whether
    Ada raises the shield (its line names Bo and holds the Brute's judged roll) or lets the
    blow land (the Brute's degrees and damage, naming nobody), the Brute's strength and
    damage reach no byte Ada receives."""
    bo = {"id": "Bo", "name": "Bo", "hp": 20, "ac": 0, "can_defend_as_reaction": True}
    state = brute_fights({"damage": "1d8+3"}, first="n1", bo=bo)
    attack = {"action": "attack", "attacker": "n1", "target": "Bo", "use_direct_hit": False}
    state, _ = play(state, {"kind": "combat", "action": attack}, GM, [15])
    assert state.fight.pending_shield is not None
    for raised in (True, False):
        answer = {"kind": "combat", "action": {"action": "answer_shield", "raise_shield": raised}}
        after, events = play(state, answer, ADA, [2, 5, 5, 5, 5])
        gm_saw = " ".join(e.text for e in events)
        assert ("+ 27 = " in gm_saw) is raised and "1d8 + 3 → " in gm_saw
        told = received(events, after, ADA)
        assert "27" not in told and "1d8" not in told and "+ 3 " not in told, told
