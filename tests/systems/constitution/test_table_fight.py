"""The fight at a 3d6 Constitution table: the extra degrees of a blow spent by its attacker
(§ 5.19, C3-A63), what the fight does to a character written on their sheet, and a fight
that ends clearing its tracker for the next one (C3-A64)."""

from __future__ import annotations

import pytest

from tabletop.errors import TabletopError
from tabletop.systems.constitution import SESSION, ConstitutionTable
from tests.systems.constitution.test_session import ADA, BO, GM, play, seated


def combat(action: dict) -> dict:
    return {"kind": "combat", "action": action}


def ada_hits_bo() -> tuple[ConstitutionTable, list]:
    """Ada (strength 18, fighter 1) and Bo (HP 3, will 9) step in; Ada's blow [15] makes 34
    against AC 20, three degrees (§ 3.2); d6 [6] takes Bo 3 past 0, so DC 23 (§ 6.6):
    strength [15] passes, a minor wound; will [2] fails, Bo collapses."""
    state = seated()
    state, _ = play(state, {"kind": "join-fight", "character": "c1"}, ADA)
    state, _ = play(state, {"kind": "join-fight", "character": "c2", "side": "foes"}, BO)
    state, _ = play(state, combat({"action": "roll_initiative", "id": "Ada"}), ADA, [19])
    state, _ = play(state, combat({"action": "roll_initiative", "id": "Bo"}), BO, [1])
    state, _ = play(state, combat({"action": "begin"}), GM)
    blow = combat({"action": "attack", "attacker": "Ada", "target": "Bo"})
    return play(state, blow, ADA, [15, 6, 15, 2])


def spending(state: ConstitutionTable, member) -> list[tuple[str, int, str]]:
    """The extra degrees `member` is offered to spend: who, how many, on what effect."""
    return [
        (action["id"], action["degrees"], action["effect"])
        for o in SESSION.offers(state, member)
        if o.kind == "combat"
        for action in (intent["action"] for intent in o.intents)
        if action["action"] == "spend_degrees"
    ]


def test_the_attacker_is_offered_the_extra_degrees_and_spends_them_once():
    """§ 5.19 and its notes (one degree drove a pelican back, two out of a window), C3-A63:
    the line names who may spend how many on whom; Ada is offered both, Bo neither; she
    spends two and nothing is left to spend."""
    state, events = ada_hits_bo()
    assert events[1].text == "Ada has extra degrees to spend on Bo (§ 5.19): 2"
    assert spending(state, ADA) == [
        ("Ada", 1, "drives them back a little"),
        ("Ada", 2, "drives them well back: out of a window, over an edge"),
    ]
    assert spending(state, BO) == []
    spend = {"action": "spend_degrees", "id": "Ada", "degrees": 2, "effect": "over the rail"}
    with pytest.raises(TabletopError):
        play(state, combat(spend), BO)
    state, spent = play(state, combat(spend), ADA)
    assert [e.text for e in spent] == ["Ada spends extra degrees (2) on Bo: over the rail (§ 5.19)"]
    assert state.fight.unspent is None and spending(state, GM) == []
    with pytest.raises(TabletopError, match="no blow of theirs has extra degrees"):
        play(state, combat(spend), ADA)


def test_extra_degrees_not_spent_lapse_when_the_fight_moves_on():
    """C3-A63: the degrees belong to the blow; once Ada ends her turn they are gone."""
    state, _ = ada_hits_bo()
    state, _ = play(state, combat({"action": "end_turn"}), ADA)
    assert state.fight.unspent is None and spending(state, ADA) == []


def test_what_the_fight_does_is_written_on_the_sheet_and_an_ended_fight_clears():
    """C3-A64, § 6.7–6.9: Bo's HP lost, the shallow cut (the default minor wound) and the
    collapse reach his sheet as they happen; when the GM ends the fight the tracker is
    cleared (no "round 1 (over)" left up) and the sheets keep what it did, so Bo can step
    into the next fight."""
    state, _ = ada_hits_bo()
    bo = state.characters["c2"].sheet
    assert bo.hp == 0 and not bo.standing and [w.severity for w in bo.wounds] == ["minor"]
    assert "shallow cut" in bo.wounds[0].description
    for action in ({"action": "end_turn"}, {"action": "end_combat"}):
        state, told = play(state, combat(action), GM)
    assert told[-1].text == "the fight is over"
    assert state.fight.combatants == () and state.fighters == {} and state.controllers == {}
    assert SESSION.view(state, BO)["fight"]["combatants"] == []
    assert state.characters["c2"].sheet == bo
    state, _ = play(state, {"kind": "join-fight", "character": "c2"}, BO)
    assert state.fight.get("Bo").hp == 0


def test_a_character_steps_in_beside_a_combatant_the_gm_brought_under_the_same_name():
    """The GM's detailed form brought someone in as 'Ada'; Ada's own character still steps
    in, under an id of her own (the control walk met 'there is already a combatant')."""
    state = seated()
    brought = {"id": "Ada", "name": "Ada's double", "side": "foes", "hp": 5}
    state, _ = play(state, combat({"action": "add", "combatant": brought}), GM)
    state, _ = play(state, {"kind": "join-fight", "character": "c1"}, ADA)
    assert [(c.id, c.name) for c in state.fight.combatants] == [
        ("Ada", "Ada's double"),
        ("Ada2", "Ada"),
    ]
    assert state.fighters == {"Ada2": "c1"} and state.controllers["Ada2"] == ADA.id
