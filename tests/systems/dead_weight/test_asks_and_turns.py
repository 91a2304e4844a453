"""The GM asks for a test, and the turns everyone sees, at a Dead Weight table
(tabletop.asks and tabletop.turns wired by table_asks.py and table_turns.py; DW-T04, DW-T05):
the GM announces what is asked (advantage included) and never a DC, only the adventurer's
player (or the GM) answers, and the answer is a test like any other; only the GM or the one
whose turn it is moves the turn on. Dice are fixed faces."""

from __future__ import annotations

import pytest

from tabletop.dice import FixedDice
from tabletop.errors import PermissionDenied, TabletopError
from tabletop.systems.dead_weight import SESSION
from tests.systems.dead_weight.test_session import ADA, BO, GM, play, seated

ASK = {
    "kind": "ask-roll",
    "character": "c1",
    "what": {"attribute": "DEX", "check": True, "disadvantage": 1},
    "reason": "to cross the beam",
}


def test_the_gm_asks_for_a_check_and_the_player_answers_with_the_gms_announcement():
    """§ Checks or Tests and § Advantage and Disadvantage: the GM calls for Amber's DEX check
    with one disadvantage (DW-T01, the GM's to announce); Ada answers with one tap and the
    check waits for its re-roll exchange as any test; 1s and 4s tire no one in a check."""
    state, asked = play(seated(), ASK, GM)
    assert [e.text for e in asked] == [
        "the GM asks Amber for a DEX check with 1 disadvantage (to cross the beam)"
    ]
    answer = {"kind": "answer-ask", "ask": "a1"}
    assert any(answer in o.intents for o in SESSION.legal(state, ADA))
    assert not any(answer in o.intents for o in SESSION.legal(state, BO))
    with pytest.raises(PermissionDenied):
        SESSION.resolve(state, answer, BO, FixedDice([1, 4, 6]))
    state, events = play(state, answer, ADA, [1, 4, 6])
    assert events[0].text == "Amber: DEX check, 3 dice; 1 proficiency, 1 disadvantage"
    assert events[0].data["ask"] == "a1"
    setup = state.exchange.test.setup
    assert (setup.check, setup.disadvantage) == (True, 1)
    assert SESSION.view(state, ADA)["asks"] == [] and state.testing


def test_a_dead_weight_ask_has_no_dc():
    """DW-T04: a 4, 5 or 6 succeeds; the GM's form fixes no DC, and an ask naming one is
    refused and changes nothing."""
    state = seated()
    (asking,) = [o for o in SESSION.legal(state, GM) if o.kind == "ask-roll"]
    assert "dc" not in asking.fields and asking.preset == {"dc": None, "dc_shown": True}
    with pytest.raises(TabletopError, match="no DC"):
        SESSION.resolve(state, {**ASK, "dc": 8}, GM, FixedDice([]))
    assert "ask-roll" not in {o.kind for o in SESSION.legal(state, ADA)}


def test_the_turns_go_round_as_the_gm_sets_them_and_a_taken_enemy_leaves_them():
    """DW-T05: the GM sets an order of adventurers and kept enemies; Ada ends Amber's turn,
    Bo may not; an enemy taken away leaves the order."""
    state, _ = play(seated(), {"kind": "new-npc", "name": "Wight", "stats": {"level": 2}}, GM)
    state, events = play(state, {"kind": "turn-order", "order": ["c1", "n1", "c2"]}, GM)
    assert [e.text for e in events] == [
        "the turn order: Amber, Wight, Brom",
        "round 1: Amber's turn",
    ]
    assert SESSION.view(state, BO)["turn"]["current"] == "c1"
    with pytest.raises(PermissionDenied):
        SESSION.resolve(state, {"kind": "next-turn"}, BO, FixedDice([]))
    state, events = play(state, {"kind": "next-turn"}, ADA)
    # who ended the turn first: the log credits the step's first line to Ada (rules v6)
    assert [e.text for e in events] == ["Amber ends the turn", "round 1: Wight's turn"]
    assert events[0].cause is not None and events[0].cause.member == ADA
    state, _ = play(state, {"kind": "remove-npc", "npc": "n1"}, GM)
    assert [o["id"] for o in SESSION.view(state, ADA)["turn"]["order"]] == ["c1", "c2"]
