"""The referee asks a player for a check, and the turns everyone sees, at a Constitution
table (tabletop.asks/tabletop.turns wired by table_asks.py and table_turns.py;
docs/rules/constitution.md C3-S05, C3-S06): a kept DC and its verdict never reach a player,
only the GM asks or takes an ask back, a player answers only their own, and only the GM or
the one whose turn it is moves it on; in a fight the initiative keeps the turn."""

from __future__ import annotations

import pytest

from tabletop.dice import FixedDice
from tabletop.errors import PermissionDenied, TabletopError
from tabletop.systems.constitution import SESSION
from tests.systems.constitution.test_npcs import combat, fighting
from tests.systems.constitution.test_session import ADA, BO, GM, WATCHER, play, received, seated

KEPT_DC = 31
"""A DC no other number of the table holds (Ada: wits 15, HP 5; Bo: all 9s, HP 3)."""


def ask(dc_shown: bool = False, character: str = "c1", **what) -> dict:
    return {
        "kind": "ask-roll",
        "character": character,
        "what": {"ability": "wits", **what},
        "dc": KEPT_DC,
        "dc_shown": dc_shown,
        "reason": "to spot the ambush",
    }


def test_a_kept_dc_and_its_verdict_reach_the_gm_alone_and_the_player_sees_their_dice():
    """§ 3.1-3.2: Ada's wits check (15) against the GM's kept DC 31 with a 10 is 25, a
    failure by 6: two degrees. The GM reads it all; Ada reads her die, her total and '?'."""
    state, asked = play(seated(), ask(), GM)
    assert [e.text for e in asked] == [
        "the GM asks Ada for a wits check against DC 31, which the GM keeps (to spot the ambush)"
    ]
    assert [SESSION.view_event(e, ADA).text for e in asked] == [
        "the GM asks Ada for a wits check against a DC the GM keeps (to spot the ambush)"
    ]
    (waiting,) = SESSION.view(state, ADA)["asks"]
    assert waiting == {
        "id": "a1",
        "character": "c1",
        "text": "Ada: a wits check against a DC the GM keeps (to spot the ambush)",
        "dc": None,
        "dc_kept": True,
    }
    tap = [o for o in SESSION.legal(state, ADA) if o.kind == "answer-ask"]
    assert [(o.text, o.intents) for o in tap] == [
        (waiting["text"], ({"kind": "answer-ask", "ask": "a1"},))
    ]
    state, answered = play(state, {"kind": "answer-ask", "ask": "a1"}, ADA, [10])
    assert [e.text for e in answered] == [
        "Ada checks wits, as the GM asked: 1d20! → [10] = 10; 10 + 15 = 25 vs DC 31: "
        "failure, 2 degrees"
    ]
    assert [SESSION.view_event(e, ADA).text for e in answered] == [
        "Ada checks wits, as the GM asked: 1d20! → [10] = 10; 10 + 15 = 25 vs DC ?: ?"
    ]
    assert SESSION.view_event(answered[0], ADA).data == {"draws": [{"sides": 20, "face": 10}]}
    assert state.asks.waiting == {}
    for member in (ADA, BO, WATCHER):
        told = received(asked + answered, state, member)
        assert str(KEPT_DC) not in told and "failure" not in told and "2 degrees" not in told


def test_a_shown_dc_is_everyones_and_a_skill_and_advantage_die_go_with_the_ask():
    """§ 4.10, § 3.8: the GM asks Bo (wits 9) for a check with an advantage die against
    DC 31, shown: Bo's 20 explodes into a 4, the better of 24 and 5 is kept: 33 ≥ 31."""
    state, _ = play(seated(), ask(dc_shown=True, character="c2", advantage=1), GM)
    assert SESSION.view(state, BO)["asks"][0]["dc"] == KEPT_DC
    state, answered = play(state, {"kind": "answer-ask", "ask": "a1"}, BO, [20, 4, 5])
    line = "Bo checks wits, as the GM asked: 2d20!kh1 → [20!+4, ~~5~~] = 24; 24 + 9 = 33 vs DC 31"
    assert [SESSION.view_event(e, BO).text for e in answered] == [f"{line}: success, 1 degree"]


def test_the_gms_ask_picks_its_skill_from_the_asked_characters_and_the_referees_list():
    """C3-S05 (rules version 5), C3-S08: the skills offered follow the character asked, each
    with the skills on the referee's list: Bo's swimming is not Ada's to roll, so an ask of
    it of Ada is refused when asked, in words; climbing, on the list, may be asked of Ada and
    is rolled once the group has rated it (§ 4.11). With no rating and no list, the ask is of
    the ability alone."""
    (free,) = [o for o in SESSION.legal(seated(), GM) if o.kind == "ask-roll"]
    assert free.fields["what"].within["skill"].values == (None,)
    rate = {"kind": "rate-skill", "character": "c2", "skill": "swimming", "rating": 30}
    state, _ = play(seated(), rate, GM)
    keep = {"kind": "keep-skill", "name": "climbing", "note": "walls and trees"}
    state, _ = play(state, keep, GM)
    (listed,) = [o for o in SESSION.legal(state, GM) if o.kind == "ask-roll"]
    skill = listed.fields["what"].within["skill"]
    assert (skill.follows, skill.each) == (
        "character",
        {"c1": (None, "climbing"), "c2": (None, "climbing", "swimming")},
    )
    assert listed.allows(ask(character="c2", skill="swimming")) is None
    assert listed.allows(ask()) is None
    assert "not 'swimming'" in (listed.allows(ask(skill="swimming")) or "")
    with pytest.raises(TabletopError, match="Ada has no rating for swimming, and the referee's"):
        SESSION.resolve(state, ask(skill="swimming"), GM, FixedDice(()))
    state, _ = play(state, ask(skill="climbing"), GM)
    with pytest.raises(TabletopError, match="no rating for 'climbing' yet"):
        play(state, {"kind": "answer-ask", "ask": "a1"}, ADA, [10])
    rate = {"kind": "rate-skill", "character": "c1", "skill": "climbing", "rating": 40}
    state, _ = play(state, rate, ADA)
    state, (answered,) = play(state, {"kind": "answer-ask", "ask": "a1"}, ADA, [10])
    assert answered.data["success"] is False and state.asks.waiting == {}


def test_a_player_cannot_ask_answer_anothers_ask_or_take_one_back():
    state, _ = play(seated(), ask(), GM)
    with pytest.raises(PermissionDenied):
        SESSION.resolve(state, ask(character="c2"), ADA, [])
    with pytest.raises(TabletopError):
        play(state, {"kind": "answer-ask", "ask": "a1"}, BO, [10])
    with pytest.raises(PermissionDenied):
        play(state, {"kind": "drop-ask", "ask": "a1"}, ADA)
    state, dropped = play(state, {"kind": "drop-ask", "ask": "a1"}, GM)
    assert SESSION.view_event(dropped[0], ADA).text == (
        "the GM takes back Ada: a wits check against a DC the GM keeps (to spot the ambush)"
    )
    assert state.asks.waiting == {}


def test_the_gm_sets_the_turn_order_and_only_the_one_whose_turn_it_is_ends_it():
    state, _ = play(seated(), {"kind": "new-npc", "name": "Grell", "stats": {}}, GM, [2])
    state, events = play(state, {"kind": "turn-order", "order": ["c2", "n1", "c1"]}, GM)
    assert [e.text for e in events] == [
        "the turn order: Bo, Grell, Ada",
        "round 1: Bo's turn",
    ]
    view = SESSION.view(state, ADA)["turn"]
    assert view["current"] == "c2" and view["by"] == "the GM"
    assert [(one["name"], one["player"]) for one in view["order"]] == [
        ("Bo", "p2"),
        ("Grell", None),
        ("Ada", "p1"),
    ]
    with pytest.raises(TabletopError):
        play(state, {"kind": "next-turn"}, ADA)
    with pytest.raises(TabletopError):
        play(state, {"kind": "turn-order", "order": ["c1"]}, ADA)
    state, events = play(state, {"kind": "next-turn"}, BO)
    # who ended the turn first: the log credits the step's first line to Bo (rules v5)
    assert [e.text for e in events] == ["Bo ends the turn", "round 1: Grell's turn"]
    assert events[0].cause is not None and events[0].cause.member == BO
    state, _ = play(state, {"kind": "remove-npc", "npc": "n1"}, GM)
    assert SESSION.view(state, BO)["turn"]["current"] == "c1"


def test_in_a_fight_the_initiative_keeps_the_turn_and_the_gms_order_steps_aside():
    """§ 5.2: Ada (initiative 19 + 15 + 1) acts before the sergeant; the turn every member
    sees is the fight's, moved by the rules, and no turn-order lever is offered."""
    state, _ = fighting()
    view = SESSION.view(state, ADA)["turn"]
    assert (view["current"], view["by"], view["round"]) == ("Ada", "the rules", 1)
    assert [(one["id"], one["player"]) for one in view["order"]] == [("Ada", "p1"), ("n1", None)]
    kinds = {o.kind for o in SESSION.legal(state, GM)}
    assert not kinds & {"turn-order", "next-turn", "end-turns"}
    state, _ = play(state, combat({"action": "end_turn"}), ADA)
    assert SESSION.view(state, BO)["turn"]["current"] == "n1"
