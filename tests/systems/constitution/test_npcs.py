"""The referee's NPCs at a 3d6 Constitution table (C3-N01..N06): the articles' ordinary
humans or typed in, stepped into the fight as the GM's combatants, their numbers kept: each
line of the fight read exactly as the GM and as a player read it (C3-N05)."""

from __future__ import annotations

import pytest

from tabletop.errors import TabletopError
from tabletop.session import Event, Member, Visibility
from tabletop.systems.constitution import SESSION, ConstitutionError
from tabletop.systems.constitution.table_npcs import bestiary
from tests.systems.constitution.test_session import ADA, BO, GM, WATCHER, play, received, seated

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
    assert "Human in heavy armour" not in told  # which creature it is tells its numbers
    typed = {"kind": "new-npc", "name": "Bandit", "stats": {"hp": 7, "damage": "1d8"}}
    state, _ = play(state, typed, GM)  # HP given: nothing rolled
    assert state.npcs["n2"].stats.hp == 7
    with pytest.raises(TabletopError, match="damage 'a sword': bad dice expression"):
        play(state, {"kind": "edit-npc", "npc": "n2", "stat": "damage", "value": "a sword"}, GM)


def lines(events: list[Event], member: Member = ADA) -> list[str]:
    """The lines `member`'s page receives of `events`, in order."""
    shown = [SESSION.view_event(event, member) for event in events]
    return [event.text for event in shown if event is not None]


def gm_lines(events: list[Event]) -> list[str]:
    assert lines(events, GM) == [event.text for event in events]
    return lines(events, GM)


def draws_shown(events: list[Event], member: Member = ADA) -> list[tuple[int, int]]:
    """The draws shown apart with the hint of a resolution's first line: (sides, face)."""
    shown = SESSION.view_event(events[0], member)
    assert shown is not None
    return [(d["sides"], d["face"]) for d in shown.data.get("draws", [])]


def combat(action: dict) -> dict:
    return {"kind": "combat", "action": action}


def fighting() -> tuple:
    """Ada (fighter, wits 15) and the sergeant (HP 4, AC 30) in the fight, Ada first."""
    state, _ = play(seated(), SERGEANT, GM, [4])
    state, _ = play(state, {"kind": "join-fight", "character": "c1"}, ADA)
    state, joined = play(state, {"kind": "npc-joins-fight", "npc": "n1"}, GM)
    state, own = play(state, combat({"action": "roll_initiative", "id": "Ada"}), ADA, [19])
    state, its = play(state, combat({"action": "roll_initiative", "id": "n1"}), GM, [1])
    state, begun = play(state, combat({"action": "begin"}), GM)
    return state, joined + own + its + begun


def test_initiative_lines_tell_the_players_the_npcs_turns_and_none_of_its_scores():
    """C3-N05: the sergeant's initiative (1 + wits 10 = 11) is the GM's: the players read
    'initiative ?' where it is rolled, at its turn and after it pays for an extra action;
    Ada's own (19 + wits 15 + fighter 1 = 35), her superior turn (§ 5.3) and every word
    reach her whole. Their view of the fight holds its name, side and place in the order,
    and none of its numbers."""
    state, events = fighting()
    assert gm_lines(events) == [
        "Sergeant (foes) joins the fight",
        "Ada: initiative 35 (1d20! → [19] = 19)",
        "Sergeant: initiative 11 (1d20! → [1] = 1)",
        "round 1 begins",
        "superior initiative: Ada",
        "Ada's turn (initiative 35)",
    ]
    assert lines(events) == [
        "Sergeant (foes) joins the fight",
        "Ada: initiative 35 (1d20! → [19] = 19)",
        "Sergeant: initiative ?",
        "round 1 begins",
        "superior initiative: Ada",
        "Ada's turn (initiative 35)",
    ]
    assert lines(events, BO) == lines(events)
    state, again = play(state, combat({"action": "end_turn", "superior": True}), ADA)
    assert lines(again) == ["Ada takes −10 for another turn at 25", "Ada's turn (initiative 25)"]
    state, turn = play(state, combat({"action": "end_turn"}), ADA)
    state, extra = play(state, combat({"action": "extra_action"}), GM)
    assert gm_lines(turn + extra) == [
        "Ada ends the turn",
        "Sergeant's turn (initiative 11)",
        "Sergeant pays 10 for an extra action: initiative 1",
    ]
    assert lines(turn + extra) == [
        "Ada ends the turn",
        "Sergeant's turn (initiative ?)",
        "Sergeant pays 10 for an extra action: initiative ?",
    ]
    assert state.fight.get("n1").side == "foes" and "n1" not in state.controllers
    fight = received([], state, ADA)
    assert '"order": ["Ada", "n1"]' in fight
    assert '"ac": 30' not in fight and '"initiative": 1,' not in fight
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


def test_an_initiative_typed_in_for_the_npc_is_kept_and_ones_for_characters_are_not():
    """C3-N05: the GM types in the sergeant's initiative and Ada's (§ 5.1, rolled with
    physical dice): the players read the sergeant's as ?, Ada's whole."""
    state, _ = play(seated(), SERGEANT, GM, [4])
    state, _ = play(state, {"kind": "join-fight", "character": "c1"}, ADA)
    state, _ = play(state, {"kind": "npc-joins-fight", "npc": "n1"}, GM)
    state, its = play(state, combat({"action": "set_initiative", "id": "n1", "value": 17}), GM)
    state, own = play(state, combat({"action": "set_initiative", "id": "Ada", "value": 12}), GM)
    assert gm_lines(its + own) == ["Sergeant: initiative 17", "Ada: initiative 12"]
    assert lines(its + own) == ["Sergeant: initiative ?", "Ada: initiative 12"]


def test_adas_attack_on_the_npc_tells_her_all_of_hers_and_none_of_its():
    """C3-N05: Ada (strength 18 + fighter 1) hits the sergeant: she reads her dice, her
    total, that she hit and by how many degrees (the extra ones are hers to spend, § 5.19)
    and her damage; its AC (30), its HP (4, § 5.18) and its injury saves (§ 6.6: DC 21,
    strength and will 10) are ?, or the whole line kept when it is wholly its own. Her own
    draws (the d20 and the d6) go with the hint; the NPC's saves do not. The fight leaves
    it at 0 HP, and so does its card, and it cannot be taken away while it fights."""
    state, _ = fighting()
    attack = combat({"action": "attack", "attacker": "Ada", "target": "n1"})
    state, events = play(state, attack, ADA, [15, 5, 10, 10])
    assert gm_lines(events) == [
        "Ada attacks Sergeant (AC 30): 1d20! → [15] = 15; 15 + 19 = 34 vs DC 30: success, 1 degree",
        "Ada's damage 1d6 → [5] = 5",
        "Sergeant takes 5: HP 0",
        "Sergeant's strength save: 1d20! → [10] = 10; 10 + 10 = 20 vs DC 21: failure, 1 degree",
        "Sergeant's will save: 1d20! → [10] = 10; 10 + 10 = 20 vs DC 21: failure, 1 degree",
        "Sergeant: major wound",
        "Sergeant collapses",
    ]
    assert lines(events) == [
        "Ada attacks Sergeant (AC ?): 1d20! → [15] = 15; 15 + 19 = 34 vs DC ?: success, 1 degree",
        "Ada's damage 1d6 → [5] = 5",
        "Sergeant takes 5: HP ?",
        "Sergeant: strength save, kept secret",
        "Sergeant: will save, kept secret",
        "Sergeant: wound, kept secret",
        "Sergeant collapses",
    ]
    assert draws_shown(events) == draws_shown(events, BO) == [(20, 15), (6, 5)]
    assert lines(events, WATCHER) == lines(events)
    assert state.npcs["n1"].stats.hp == 0
    with pytest.raises(ConstitutionError, match="in the fight"):
        play(state, {"kind": "remove-npc", "npc": "n1"}, GM)


# the Brute: a typed-in NPC with numbers nobody else has -------------------------------------


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
        state, _ = play(
            state, combat({"action": "set_initiative", "id": fighter.id, "value": value}), GM
        )
    state, _ = play(state, combat({"action": "begin"}), GM)
    return state


def test_the_npcs_attack_on_ada_tells_her_her_ac_whether_it_hit_and_her_own_harm():
    """C3-N05: the Brute (strength 27, damage 1d8+3) hits Ada (AC 20): she reads her AC,
    that it hit, the 8 damage she takes and her HP, and her injury saves whole (§ 6.6: DC
    20 + 8 past her 5 HP); its roll, its degrees and its damage dice are ?. Her saves'
    draws go with the hint of its attack line; its own draws never do."""
    state = brute_fights({"damage": "1d8+3"}, first="n1")
    attack = combat(
        {"action": "attack", "attacker": "n1", "target": "Ada", "use_direct_hit": False}
    )
    state, events = play(state, attack, GM, [2, 5, 11, 3])
    assert gm_lines(events) == [
        "Brute attacks Ada (AC 20): 1d20! → [2] = 2; 2 + 27 = 29 vs DC 20: success, 2 degrees",
        "Brute has extra degrees to spend on Ada (§ 5.19): 1",
        "Brute's damage 1d8 + 3 → [5] + 3 = 8",
        "Ada takes 8: HP 0",
        "Ada's strength save: 1d20! → [11] = 11; 11 + 19 = 30 vs DC 23: success, 2 degrees",
        "Ada's will save: 1d20! → [3] = 3; 3 + 10 = 13 vs DC 23: failure, 3 degrees",
        "Ada: minor wound",
        "Ada collapses",
    ]
    assert lines(events) == [
        "Brute attacks Ada (AC 20): ? vs DC 20: success, ?",
        "Brute has extra degrees to spend on Ada (§ 5.19): ?",
        "Brute's damage ?",
        "Ada takes 8: HP 0",
        "Ada's strength save: 1d20! → [11] = 11; 11 + 19 = 30 vs DC 23: success, 2 degrees",
        "Ada's will save: 1d20! → [3] = 3; 3 + 10 = 13 vs DC 23: failure, 3 degrees",
        "Ada: minor wound",
        "Ada collapses",
    ]
    assert draws_shown(events) == [(20, 11), (20, 3)]
    assert SESSION.view(state, GM)["fight"]["unspent"]["degrees"] == 1
    assert SESSION.view(state, ADA)["fight"]["unspent"]["degrees"] == {
        "hidden": "the extra degrees of an NPC the GM keeps"
    }


def test_a_direct_hit_on_the_npc_and_the_saves_answering_it_are_kept():
    """C3-N05, § 5.20, § 6.12: Ada's blow beats the Brute's AC 5 by 20 or more: the direct
    hit's damage, price (10 HP for Ada's level 1) and DC (20 + 5) are hers to read, as the
    rest of her attack but its AC; the GM answers with its injury saves, each line wholly
    its own. Its strength and will reach no byte Ada receives."""
    state = brute_fights({"ac": 5})
    attack = combat({"action": "attack", "attacker": "Ada", "target": "n1"})
    state, events = play(state, attack, ADA, [20, 5, 5])
    assert lines(events) == [
        "Ada attacks Brute (AC ?): 1d20! → [20!+5] = 25; 25 + 19 = 44 vs DC ?: success, 8 degrees",
        "Ada has extra degrees to spend on Brute (§ 5.19): 3",
        "Ada's direct hit on Brute (5 damage): pay 10 HP or take the injury saves at DC 25",
    ]
    assert draws_shown(events) == [(20, 20), (20, 5), (6, 5)]
    state, events = play(state, combat({"action": "answer_direct_hit", "pay": False}), GM, [10, 10])
    assert gm_lines(events) == [
        "Brute's strength save: 1d20! → [10] = 10; 10 + 27 = 37 vs DC 25: success, 3 degrees",
        "Brute's will save: 1d20! → [10] = 10; 10 + 23 = 33 vs DC 25: success, 2 degrees",
        "Brute: minor wound",
    ]
    assert lines(events) == [
        "Brute: strength save, kept secret",
        "Brute: will save, kept secret",
        "Brute: wound, kept secret",
    ]
    assert draws_shown(events) == []
    told = received(events, state, ADA)
    assert "27" not in told and "23" not in told


def test_the_npcs_direct_hit_on_ada_tells_her_what_she_must_choose_between_and_not_its_dice():
    """C3-N05, § 6.12: the Brute (level 2) beats Ada's AC 20 by 20: she reads the damage,
    the price of stopping it (10 HP per level of the attacker, since she chooses to pay
    it) and her saves' DC, but not its roll or its damage dice, which ride on no line she
    receives. She pays: her line is whole."""
    state = brute_fights({"level": 2}, first="n1")
    state = state.model_copy(
        update={"fight": state.fight.replace(state.fight.get("Ada").evolve(hp=25))}
    )
    attack = combat({"action": "attack", "attacker": "n1", "target": "Ada"})
    state, events = play(state, attack, GM, [15, 4])
    assert gm_lines(events)[1:] == [
        "Brute's direct hit on Ada (4 damage): pay 20 HP or take the injury saves at DC 24"
    ]
    assert lines(events) == [
        "Brute attacks Ada (AC 20): ? vs DC 20: success, ?",
        "Brute's direct hit on Ada (4 damage): pay 20 HP or take the injury saves at DC 24",
    ]
    assert "4 →" not in received(events, state, ADA)  # its damage die
    assert SESSION.view(state, ADA)["fight"]["pending_direct_hit"] == {
        "attacker": "n1",
        "target": "Ada",
        "damage": 4,
        "price": 20,
    }
    state, paid = play(state, combat({"action": "answer_direct_hit", "pay": True}), ADA)
    assert lines(paid) == gm_lines(paid) == ["Ada pays 20 HP"]


def test_a_shield_raised_against_the_npcs_blow_shows_its_bearer_everything_of_theirs():
    """C3-N05, C3-A55: the Brute hits Bo (AC 0), a shield-bearer the GM gave Ada to play;
    while the shield waits, Ada's view of the blow holds none of its roll or damage. Ada
    raises it (§ 5.4): Bo's defence roll and the AC it raises are hers, and so is whether
    the blow still lands; the Brute's roll, degrees and damage dice are ?. Let fall, the
    blow lands with the same lines kept."""
    bo = {"id": "Bo", "name": "Bo", "hp": 20, "ac": 0, "can_defend_as_reaction": True}
    state = brute_fights({"damage": "1d8+3"}, first="n1", bo=bo)
    attack = combat({"action": "attack", "attacker": "n1", "target": "Bo", "use_direct_hit": False})
    state, events = play(state, attack, GM, [15])
    assert lines(events) == [
        "Brute attacks Bo (AC 0): ? vs DC 0: success, ?",
        "Bo may pay 5 initiative to raise a shield after the roll, or let the blow land (§ 5.4)",
    ]
    assert SESSION.view(state, ADA)["fight"]["pending_shield"] == {
        "attacker": "n1",
        "target": "Bo",
        "roll": {"hidden": "the roll of an NPC the GM keeps"},
        "damage": {"hidden": "the damage of an NPC the GM keeps"},
        "use_direct_hit": False,
        "ac_change": 0,
    }
    raised = combat({"action": "answer_shield", "raise_shield": True})
    after, events = play(state, raised, ADA, [2, 5])
    assert gm_lines(events)[0] == (
        "Bo pays 5 and raises a shield after the roll: 1d20! → [2] = 2; 2 + 10 = 12 vs DC 0: "
        "success, 3 degrees; the attack against AC 12: 1d20! → [15] = 15; 15 + 27 = 42 vs "
        "DC 12: success, 7 degrees"
    )
    assert lines(events) == [
        "Bo pays 5 and raises a shield after the roll: 1d20! → [2] = 2; 2 + 10 = 12 vs DC 0: "
        "success, 3 degrees; the attack against AC 12: ? vs DC 12: success, ?",
        "Brute has extra degrees to spend on Bo (§ 5.19): ?",
        "Brute's damage ?",
        "Bo takes 8: HP 12",
    ]
    assert draws_shown(events) == [(20, 2)]
    let_fall = combat({"action": "answer_shield", "raise_shield": False})
    after, events = play(state, let_fall, ADA, [5])
    assert lines(events) == [
        "Brute has extra degrees to spend on Bo (§ 5.19): ?",
        "Brute's damage ?",
        "Bo takes 8: HP 12",
    ]
    assert "1d8" not in received(events, after, ADA)


def test_a_shield_the_npc_raises_against_adas_blow_keeps_its_roll_and_the_ac_it_raises():
    """C3-N05, C3-A55: Ada hits the Brute (AC 10), a shield-bearer: while the GM decides,
    her view of her own blow holds her roll but not the AC it beat. The Brute raises its
    shield (strength 27: AC 30): she reads that her blow now fails, by 2 degrees, and none
    of its roll or the AC."""
    state = brute_fights({"can_defend_as_reaction": True, "ac": 10})
    state, events = play(
        state, combat({"action": "attack", "attacker": "Ada", "target": "n1"}), ADA, [5]
    )
    assert lines(events)[0] == (
        "Ada attacks Brute (AC ?): 1d20! → [5] = 5; 5 + 19 = 24 vs DC ?: success, 3 degrees"
    )
    waiting = SESSION.view(state, ADA)["fight"]["pending_shield"]["roll"]
    assert waiting["dc"] == {"hidden": "the AC of an NPC the GM keeps"}
    assert (waiting["total"], waiting["degree"]) == (24, 3)
    raised = combat({"action": "answer_shield", "raise_shield": True})
    state, events = play(state, raised, GM, [3])
    assert gm_lines(events) == [
        "Brute pays 5 and raises a shield after the roll: 1d20! → [3] = 3; 3 + 27 = 30 vs DC "
        "10: success, 5 degrees; the attack against AC 30: 1d20! → [5] = 5; 5 + 19 = 24 vs "
        "DC 30: failure, 2 degrees"
    ]
    assert lines(events) == [
        "Brute pays 5 and raises a shield after the roll: ?; the attack against AC ?: "
        "1d20! → [5] = 5; 5 + 19 = 24 vs DC ?: failure, 2 degrees"
    ]


def test_the_npcs_own_rolls_defence_and_morale_are_its_own():
    """C3-N05, § 5.13, § 5.17: the Brute defends on its turn (strength 27 against its AC
    20) and checks morale (8, 2d6 at or under holds): the players read that it defends
    and not the AC it gains; that it checked morale, not its score, roll or verdict; and
    when it breaks, that it is out, which they see."""
    state = brute_fights({"morale": 8}, first="n1")
    state, defended = play(state, combat({"action": "defend", "id": "n1"}), GM, [4])
    state, holds = play(state, combat({"action": "morale", "id": "n1"}), GM, [3, 4])
    state, breaks = play(state, combat({"action": "morale", "id": "n1"}), GM, [6, 5])
    assert gm_lines(defended + holds + breaks) == [
        "Brute defends: 1d20! → [4] = 4; 4 + 27 = 31 vs DC 20: success, 3 degrees; AC 31 for "
        "the round",
        "Brute checks morale 8: 2d6 → [3, 4] = 7, holds",
        "Brute checks morale 8: 2d6 → [6, 5] = 11, breaks",
        "Brute is out: fled",
        "Ada's turn (initiative 12)",
    ]
    assert lines(defended + holds + breaks) == [
        "Brute defends: ?; AC ? for the round",
        "Brute: morale check, kept secret",
        "Brute: morale check, kept secret",
        "Brute is out: fled",
        "Ada's turn (initiative 12)",
    ]


def test_a_shot_into_the_melee_tells_whom_it_strikes_and_keeps_only_the_npcs_dice():
    """C3-N05, § 5.21: the Brute shoots at Bo from the side (6 in 10) and its d10 of 9
    strikes Ada instead: the players read whom it struck, not its die (the line carries
    its dice and no number of its, so it reaches them in words alone). Ada's shot the
    same way strikes the Brute: her line and its die are hers."""
    bo = {"id": "Bo", "name": "Bo", "hp": 20, "ac": 0}
    into = {"ranged": True, "into_melee": "side", "use_direct_hit": False}
    state = brute_fights({"damage": "1d8+3"}, first="n1", bo=bo)
    shot = {"action": "attack", "attacker": "n1", "target": "Bo", "other_target": "Ada", **into}
    _, events = play(state, combat(shot), GM, [5, 9, 1, 10, 10])
    assert gm_lines(events)[1] == "into the mêlée (6 in 10): it strikes Ada"
    assert lines(events) == [
        "Brute attacks Bo (AC 0): ? vs DC 0: success, ?",
        "into the mêlée (6 in 10): it strikes Ada",
        "Brute has extra degrees to spend on Ada (§ 5.19): ?",
        "Brute's damage ?",
        "Ada takes 4: HP 1",
    ]
    assert [SESSION.view_event(e, ADA).data for e in events[:2]] == [{}, {}]
    state = brute_fights(bo=bo)
    shot = {"action": "attack", "attacker": "Ada", "target": "Bo", "other_target": "n1", **into}
    _, events = play(state, combat(shot), ADA, [5, 9, 4])
    assert lines(events) == [
        "Ada attacks Bo (AC 0): 1d20! → [5] = 5; 5 + 19 = 24 vs DC 0: success, 5 degrees",
        "into the mêlée (6 in 10): it strikes Brute",
        "Ada has extra degrees to spend on Brute (§ 5.19): 4",
        "Ada's damage 1d6 → [4] = 4",
        "Brute takes 4: HP ?",
    ]
    assert SESSION.view_event(events[1], ADA).data["dice"][0]["text"] == "1d10 → [9] = 9"


def test_between_rounds_the_npcs_initiative_stays_its_own():
    """C3-N05, § 5.5–5.6: the Brute re-orients (7 + wits 10) and pays 2 for a physical
    action; Ada re-orients too: the players read what each did, Ada's new initiative and
    not the Brute's."""
    state = brute_fights(first="n1")
    for _ in range(2):
        state, _ = play(state, combat({"action": "end_turn"}), GM)
    state, its = play(state, combat({"action": "reorient", "id": "n1"}), GM, [7])
    state, paid = play(state, combat({"action": "spend", "id": "n1", "cost": 2}), GM)
    state, own = play(state, combat({"action": "reorient", "id": "Ada"}), ADA, [8])
    assert gm_lines(its + paid + own) == [
        "Brute re-orients: initiative 17; only reactions next round",
        "Brute pays 2 for a physical action: initiative 15",
        "Ada re-orients: initiative 24; only reactions next round",
    ]
    assert lines(its + paid + own) == [
        "Brute re-orients: initiative ?; only reactions next round",
        "Brute pays 2 for a physical action: initiative ?",
        "Ada re-orients: initiative 24; only reactions next round",
    ]


def test_a_npc_renamed_in_the_fight_keeps_its_numbers_under_the_name_it_fights_with():
    """C3-N05, C3-N06: the Brute, renamed Grunt while in the fight, still fights as Brute
    (the fight keeps the name it joined with); a line wholly its own is told under that
    name, and its numbers reach no byte Ada receives."""
    state, _ = play(seated(), BRUTE, GM)
    state, _ = play(state, {"kind": "join-fight", "character": "c1"}, ADA)
    state, _ = play(state, {"kind": "npc-joins-fight", "npc": "n1"}, GM)
    rename = {"kind": "edit-npc", "npc": "n1", "stat": "name", "value": "Grunt"}
    state, _ = play(state, rename, GM)
    assert state.npcs["n1"].name == "Grunt" and state.fight.get("n1").name == "Brute"
    assert SESSION.kept_from_players(state) == {"n1": "Brute"}
    state, rolled = play(state, combat({"action": "roll_initiative", "id": "n1"}), GM, [19])
    assert lines(rolled) == ["Brute: initiative ?"]
    state, _ = play(state, combat({"action": "roll_initiative", "id": "Ada"}), ADA, [1])
    state, _ = play(state, combat({"action": "begin"}), GM)
    state, morale = play(state, combat({"action": "leave", "id": "n1"}), GM)
    assert lines(morale) == ["Brute is out: fled", "Ada's turn (initiative 17)"]
    told = received(rolled, state, ADA)
    assert "29" not in told  # its initiative, 19 + wits 10


def test_a_fight_that_ends_clears_the_tracker_and_the_npc_can_be_taken_away():
    """C3-A64, C3-N06: once the fight is over its tracker is cleared for the next fight (no
    "round 1 (over)" left standing), the sergeant's HP stays written on it, and the GM takes
    it away; while it fought that was refused."""
    state, _ = fighting()
    with pytest.raises(TabletopError, match="in the fight"):
        play(state, {"kind": "remove-npc", "npc": "n1"}, GM)
    for action in ({"action": "leave", "id": "n1"}, {"action": "end_turn"}):
        state, _ = play(state, combat(action), GM)
    state, ended = play(state, combat({"action": "end_combat"}), GM)
    assert lines(ended) == ["the fight is over"]
    assert state.fight.combatants == () and state.fight.phase == "setup"
    assert SESSION.view(state, ADA)["fight"]["combatants"] == []
    assert state.npcs["n1"].stats.hp == 4
    state, _ = play(state, {"kind": "remove-npc", "npc": "n1"}, GM)
    assert state.npcs == {} and '"ac": 30' not in received([], state, ADA)
