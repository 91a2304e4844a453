"""The GM asks a roll-under player for an ability roll, and the turns everyone sees
(tabletop.asks/tabletop.turns wired by table_asks.py and table_turns.py; CR-S11, CR-S12):
the number to roll under is the character's score or the GM's, kept or shown; only the GM
asks or takes an ask back, a player answers only their own with one tap; the GM sets the
order and the one whose turn it is may end it; whoever leaves the table leaves both."""

from __future__ import annotations

import re

import pytest

from tabletop.dice import FixedDice
from tabletop.errors import PermissionDenied, TabletopError
from tabletop.systems.rollunder import SESSION
from tests.systems.rollunder.test_npcs import PLAYERS, lines, with_hound
from tests.systems.rollunder.test_session import ASH, BO, GM, play, received, seated


def ask(dc: int | None = 7, dc_shown: bool = False, ability: str = "AGI") -> dict:
    asked = {"kind": "ask-roll", "character": "c1", "what": {"ability": ability}}
    return asked | {"dc": dc, "dc_shown": dc_shown, "reason": "to leap the gap"}


def test_cr_s12_a_kept_number_and_its_verdict_stay_with_the_gm_the_die_is_ashs():
    """§ Ability Rolls, CR-S12: the GM asks Ash (AGI 10) to roll under 7, kept; her one tap
    rolls 5, a pass. She reads her die and `?` for the number and the verdict; no byte she,
    Bo or an observer receives holds the 7 or the verdict."""
    state, asked = play(with_hound(), ask(), GM)
    assert lines(asked, GM) == [
        "the GM asks Ash for an AGI roll against DC 7, which the GM keeps (to leap the gap)"
    ]
    assert lines(asked, ASH) == [
        "the GM asks Ash for an AGI roll against a DC the GM keeps (to leap the gap)"
    ]
    (tap,) = [o for o in SESSION.legal(state, ASH) if o.kind == "answer-ask"]
    assert tap.intents == ({"kind": "answer-ask", "ask": "a1"},)
    state, answered = play(state, {"kind": "answer-ask", "ask": "a1"}, ASH, [5])
    assert lines(answered, GM) == [
        "Ash rolls 5 against AGI 7: pass",
        "Ash's AGI roll, as the GM asked: passes",
    ]
    assert lines(answered, ASH) == [
        "Ash rolls 5 against AGI ?: ?",
        "Ash's AGI roll, as the GM asked: ?",
    ]
    assert SESSION.view_event(answered[0], ASH).data["draws"] == [{"sides": 20, "face": 5}]
    for member in PLAYERS:
        told = received(asked + answered, state, member)
        for kept in (r"\b7\b", r"\bpass", r'"dc":\s*\d'):
            assert not re.search(kept, told), (member.id, kept)
    assert state.asks.waiting == {}


def test_cr_s12_without_a_number_the_roll_is_under_her_own_score_shown():
    """§ Ability Rolls: no number given, Ash rolls under her AGI 10; 11 fails, and a shown
    ask is everyone's to read: her ordinary ability roll."""
    state, _ = play(with_hound(), ask(dc=None, dc_shown=True), GM)
    _, answered = play(state, {"kind": "answer-ask", "ask": "a1"}, ASH, [11])
    assert lines(answered, BO) == ["Ash rolls 11 against AGI 10: fail", "Ash's roll fails"]


def test_cr_s12_an_asked_roll_under_her_own_score_takes_an_omen_re_roll():
    """CR-S12, CR-A10 (§ Spending omens: "an ability roll"): asked for a STR roll, Ash (STR
    12, one omen) rolls 15; the roll waits for her player, who re-rolls (3) and keeps it,
    spending the omen, as her own roll would (was: an asked roll took no omen re-roll)."""
    state, _ = play(seated(omens=1, max_omens=1), ask(dc=None, dc_shown=True, ability="STR"), GM)
    state, answered = play(state, {"kind": "answer-ask", "ask": "a1"}, ASH, [15])
    assert [e.type for e in answered] == ["decision"] and state.asks.waiting == {}
    state, _ = play(state, {"kind": "answer", "choice": "reroll Ash"}, ASH, [3])
    state, kept = play(state, {"kind": "answer", "choice": "keep 2"}, ASH)
    assert lines(kept, BO)[-1] == "Ash's roll passes"
    assert state.characters["c1"].sheet.omens == 0 and state.pending is None


def test_cr_s12_only_the_gm_asks_a_player_answers_their_own_the_gm_takes_one_back():
    state, _ = play(with_hound(), ask(), GM)
    with pytest.raises(PermissionDenied):
        SESSION.resolve(state, ask(), ASH, FixedDice([]))
    with pytest.raises(PermissionDenied):
        SESSION.resolve(state, {"kind": "answer-ask", "ask": "a1"}, BO, FixedDice([5]))
    with pytest.raises(PermissionDenied):
        SESSION.resolve(state, {"kind": "drop-ask", "ask": "a1"}, ASH, FixedDice([]))
    state, dropped = play(state, {"kind": "drop-ask", "ask": "a1"}, GM)
    assert state.asks.waiting == {} and lines(dropped, ASH)[0].startswith("the GM takes back")
    with pytest.raises(TabletopError, match="an ability roll is of STR, AGI, WIT, not 'LUCK'"):
        SESSION.resolve(state, ask(ability="LUCK"), GM, FixedDice([]))


def test_cr_s11_the_gm_sets_the_turns_the_one_whose_turn_it_is_ends_it_leavers_leave():
    """CR-S11 (CR-G04: the chapter has no turn order): the GM's order of Ash, the hound and
    Bo; Ash's player ends her turn, Bo's player may not; the hound taken away leaves the
    order, its asks and the attack it was in."""
    state, events = play(with_hound(), {"kind": "turn-order", "order": ["c1", "n1", "c2"]}, GM)
    assert lines(events, BO) == ["the turn order: Ash, Mire hound, Bo", "round 1: Ash's turn"]
    assert SESSION.view(state, BO)["turn"]["current"] == "c1"
    with pytest.raises(PermissionDenied):
        SESSION.resolve(state, {"kind": "next-turn"}, BO, FixedDice([]))
    state, events = play(state, {"kind": "next-turn"}, ASH)
    assert state.turns.whose == "n1"
    # who ended the turn first: the log credits the step's first line to Ash's player (v6)
    assert lines(events, BO) == ["Ash ends the turn", "round 1: Mire hound's turn"]
    assert events[0].cause is not None and events[0].cause.member == ASH
    strike = {"kind": "attack", "attacker": "c1", "target": "n1", "weapon": "d4"}
    state, _ = play(state, strike, ASH, [2])
    state, _ = play(state, {"kind": "remove-npc", "npc": "n1"}, GM)
    assert state.turns.order == ("c1", "c2") and state.attack is None
