"""An attack at a Dead Weight table as the book chains it (DW-T02, DW-T03): the attacker's
test, the blow's wounds from the GM, the struck adventurer's armour, Hardened and placing,
each step offered to whoever the rules ask and refused to anyone else; a hidden enemy's
numbers stay the GM's. Dice are fixed faces; the enemy is typed in, the core book having
no bestiary (DW-N01)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tabletop.dice import FixedDice
from tabletop.errors import PermissionDenied, TabletopError
from tabletop.session import Event, Member
from tabletop.systems.dead_weight import (
    SESSION,
    ArmourPart,
    Attribute,
    Character,
    Item,
    PlaceKind,
    Trait,
    stow,
)
from tabletop.systems.dead_weight.session import DeadWeightTable
from tests.systems.playing import played

GM = Member.gm()
ADA = Member.player("p1", "Ada")
BO = Member.player("p2", "Bo")

WIGHT = {"kind": "new-npc", "name": "Wight", "stats": {"level": 2, "wound_limit": 2}}


def amber() -> dict[str, Any]:
    """Amber: STR 2, DEX 3, Hardened, a leather coat of 2 AP worn on the torso."""
    sheet = Character.model_validate(
        {
            "name": "Amber",
            "attributes": {"STR": {"score": 2}, "DEX": {"score": 3}},
            "traits": [Trait.HARDENED],
        }
    )
    coat = Item(name="leather coat", armour=(ArmourPart(points=2, maximum=2),))
    inventory = stow(sheet.inventory, coat, PlaceKind.TORSO)
    return sheet.model_copy(update={"inventory": inventory}).model_dump(mode="json")


def table() -> DeadWeightTable:
    """Amber (c1) played by Ada, Brom (c2) by Bo, and the Wight (n1) the GM keeps hidden."""
    state = SESSION.new()
    state, _ = played(SESSION, state, {"kind": "import-character", "sheet": amber()}, ADA)
    brom = {"kind": "import-character", "sheet": {"name": "Brom"}}
    state, _ = played(SESSION, state, brom, BO)
    state, _ = played(SESSION, state, WIGHT, GM)
    return state


def kinds(state: DeadWeightTable, member: Member) -> set[str]:
    return {o.kind for o in SESSION.legal(state, member)}


def told(events: list[Event], member: Member) -> list[str]:
    """The lines `member` reads of `events`, in order."""
    return [shown.text for e in events if (shown := SESSION.view_event(e, member)) is not None]


def refused_to(state: DeadWeightTable, intent: dict[str, Any], *members: Member) -> None:
    """Each of `members` is refused `intent`, which changes nothing."""
    for member in members:
        with pytest.raises(TabletopError):
            SESSION.resolve(state, intent, member, FixedDice([6, 6, 6, 6]))


def test_an_adventurer_attacks_a_hidden_enemy_and_the_gm_gives_the_blow():
    """DW-M49: the attacker tests the weapon's attribute; Amber's STR 2 shows 5 and 2, a
    success with nothing to re-roll (DW-M28..M31), so she hits. The blow's wounds are the
    GM's (DW-T02: weapons' damage is another book's), and on an enemy they are what gets
    through its armour (DW-N03): the Wight takes 2, which it can hold (DW-M45)."""
    state = table()
    attack = {"kind": "attack", "attacker": "c1", "target": "n1", "setup": {"attribute": "STR"}}
    state, events = played(SESSION, state, attack, ADA, [5, 2])
    assert told(events, BO)[0] == "Amber attacks Wight"
    assert told(events, BO)[-1] == "Amber hits Wight"
    assert state.attack.step == "damage" and state.exchange.finished
    assert "blow" in kinds(state, GM) and "blow" not in kinds(state, ADA) | kinds(state, BO)
    refused_to(state, {"kind": "blow", "wounds": 2}, ADA, BO)
    refused_to(state, attack, GM)  # one attack at a time
    state, events = played(SESSION, state, {"kind": "blow", "wounds": 2}, GM)
    assert state.attack is None and state.npcs["n1"].stats.wounds == 2
    assert told(events, GM) == ["Wight takes 2 wounds"]
    assert told(events, ADA) == ["Wight takes ? wounds"]  # DW-N05
    assert "2" not in json.dumps([SESSION.view_event(e, ADA).model_dump() for e in events])


def test_a_hidden_enemy_attacks_through_armour_and_hardened_to_the_wounds_placed():
    """The whole chain (DW-T02): the Wight tests its level (DW-M50: 2 dice, 6 and 3, a
    success) and hits Amber; the GM gives 3 wounds; Ada rolls the coat's 2 AP, 6 and 1: one
    stopped, one armour point lost (DW-M40), 2 get through; Amber is Hardened and tests STR
    (DW-A35): 4 and 5, a success that resists one wound and tires STR (the 4, DW-M38); Ada
    places the last wound on DEX (§ Placing wounds). The players read the Wight's test in
    words, never its dice or level (DW-N04), and whether it hits (DW-T03)."""
    state = table()
    attack = {"kind": "attack", "attacker": "n1", "target": "c1", "setup": {"attribute": "STR"}}
    refused_to(state, attack, ADA)  # an enemy attacks only for the GM
    state, events = played(SESSION, state, attack, GM, [6, 3])
    assert told(events, ADA) == [
        "Wight attacks Amber",
        "Wight: STR test",
        "Wight rolls its dice",
        "Wight's test: no re-roll this turn",
        "Wight's test: no re-roll this turn",
        "Wight's test is judged",
        "Wight hits Amber",
    ]
    assert "2 dice" in told(events, GM)[1]
    seen = json.dumps([SESSION.view_event(e, ADA).model_dump(mode="json") for e in events])
    assert '"face": 6' not in seen and '"face": 3' not in seen and "level" not in seen

    state, events = played(SESSION, state, {"kind": "blow", "wounds": 3}, GM)
    assert told(events, ADA) == ["Wight's blow deals 3 wounds to Amber"]
    assert state.attack.step == "armour"
    assert {"defend", "no-armour"} <= kinds(state, ADA)
    assert not {"defend", "no-armour"} & kinds(state, BO)
    coat = {"kind": "defend", "armour": "leather coat", "part": 0, "dice": 2}
    refused_to(state, coat, BO)
    refused_to(state, {"kind": "place-wounds", "placements": []}, ADA)  # not that step yet
    state, events = played(SESSION, state, coat, ADA, [6, 1])
    assert told(events, BO) == [
        "Amber's leather coat: [6, 1] stops 1, loses 1 AP; 2 wounds get through"
    ]
    assert state.attack.step == "hardened" and state.attack.wounds == 2

    refused_to(state, {"kind": "hardened", "answer": "test"}, BO)
    state, events = played(SESSION, state, {"kind": "hardened", "answer": "test"}, ADA, [4, 5])
    assert told(events, BO)[-1] == "Amber resists 1 wound with Hardened; 1 left"
    assert state.attack.step == "place" and state.attack.wounds == 1

    placed = {"kind": "place-wounds", "placements": [{"attribute": "DEX"}]}
    refused_to(state, placed, BO)
    state, events = played(SESSION, state, placed, ADA)
    assert told(events, BO)[0] == "Amber places 1 wound"
    sheet = state.characters["c1"].sheet
    assert sheet.attribute(Attribute.DEX).wounds == 1
    assert sheet.attribute(Attribute.STR).fatigue == 1
    coat_now = next(i for i in sheet.inventory.items() if i.name == "leather coat")
    assert coat_now.armour[0].points == 1
    assert state.attack is None and "attack" in kinds(state, ADA)


def test_a_miss_ends_the_attack_and_a_waiting_step_survives_a_reload():
    """A failed attack test deals nothing (DW-T02). A hit waits in the table's state: the
    same step after the state is written out and read back, as a room reloads it."""
    state = table()
    attack = {"kind": "attack", "attacker": "n1", "target": "c1", "setup": {"attribute": "STR"}}
    missed, events = played(SESSION, state, attack, GM, [2, 3])
    assert told(events, ADA)[-1] == "Wight misses Amber" and missed.attack is None
    hit, _ = played(SESSION, state, attack, GM, [6, 3])
    reloaded = SESSION.load(json.loads(hit.model_dump_json()))
    assert reloaded.attack == hit.attack and reloaded.attack.step == "damage"
    assert SESSION.view(reloaded, ADA)["attack"]["step"] == "damage"


def test_the_gm_drops_an_attack_at_any_step_and_nobody_else_may():
    state = table()
    attack = {"kind": "attack", "attacker": "n1", "target": "c1", "setup": {"attribute": "STR"}}
    state, _ = played(SESSION, state, attack, GM, [6, 3])
    state, _ = played(SESSION, state, {"kind": "blow", "wounds": 1}, GM)
    refused_to(state, {"kind": "drop-attack"}, ADA, BO)
    refused_to(state, {"kind": "remove-npc", "npc": "n1"}, GM)  # it is in the attack
    dropped, events = played(SESSION, state, {"kind": "drop-attack"}, GM)
    assert dropped.attack is None and told(events, ADA) == ["the GM drops Wight's attack on Amber"]
    assert dropped.characters == state.characters


def test_no_armour_and_no_hardened_go_straight_to_placing():
    """Brom wears nothing and is not Hardened: after the blow he places the wounds."""
    state = table()
    attack = {"kind": "attack", "attacker": "n1", "target": "c2", "setup": {"attribute": "STR"}}
    state, _ = played(SESSION, state, attack, GM, [6, 3])
    state, _ = played(SESSION, state, {"kind": "blow", "wounds": 1}, GM)
    assert state.attack.step == "place"
    assert "place-wounds" in kinds(state, BO) and "place-wounds" not in kinds(state, ADA)


def test_a_player_gives_no_blow_unless_the_table_hands_harm_over():
    """DW-T01: the blow's wounds are harm, the GM's; handed over, the attacker's player
    gives them for their own adventurer's blow."""
    attack = {"kind": "attack", "attacker": "c1", "target": "n1", "setup": {"attribute": "STR"}}
    state = table()
    handed = state.model_copy(
        update={"options": state.options.model_copy(update={"players_set_difficulty": True})}
    )
    handed, _ = played(SESSION, handed, attack, ADA, [5, 2])
    assert "blow" in kinds(handed, ADA) and "blow" not in kinds(handed, BO)
    handed, _ = played(SESSION, handed, {"kind": "blow", "wounds": 1}, ADA)
    assert handed.npcs["n1"].stats.wounds == 1
    with pytest.raises(PermissionDenied):
        struck, _ = played(SESSION, state, attack, ADA, [5, 2])
        SESSION.resolve(struck, {"kind": "blow", "wounds": 1}, ADA, FixedDice([]))


def test_the_attack_forms_first_choices_are_two_different_people():
    """A form sent as it opens attacks someone else: the control walk met "an attacker
    attacks someone else" when the first attacker was also the first target."""
    state = table()
    for member in (ADA, GM):
        (attack,) = [o for o in SESSION.legal(state, member) if o.kind == "attack"]
        assert attack.fields["attacker"].values[0] != attack.fields["target"].values[0]
