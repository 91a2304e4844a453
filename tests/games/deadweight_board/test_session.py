"""Deadweight at a shared table: seats for members and bots, turns as named intents, the
haul under hidden chests kept from everyone but its roller, and the laws every session
obeys (tests/session_laws.py)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.dice import FixedDice, SeededDice
from tabletop.errors import DataError, PermissionDenied
from tabletop.games.deadweight_board import BoardError, Position, to_model
from tabletop.games.deadweight_board.session import SESSION, BoardTable, SeatHolder
from tabletop.session import Member, Visibility
from tests.effort import tried
from tests.session_laws import Table, check_laws

GM = Member.gm()
ANN = Member.player("ann", "Ann")
BEN = Member.player("ben", "Ben")
WATCHER = Member.observer()
HIDDEN = {"chest_visibility": "hidden", "turn_cap": 30}


def play(state: BoardTable, intent: dict, member: Member, dice=None) -> tuple:
    events = SESSION.resolve(state, intent, member, dice or SeededDice(0))
    for event in events:
        state = SESSION.fold(state, event)
    return state, events


def seated(options: dict | None = None, bot: str | None = "greedy") -> BoardTable:
    """Ann as Red, Ben as Blue and (with `bot`) a bot as Green, game started."""
    state = SESSION.new(options)
    state, _ = play(state, {"kind": "take-seat"}, ANN)
    state, _ = play(state, {"kind": "take-seat"}, BEN)
    if bot:
        state, _ = play(state, {"kind": "seat-bot", "bot": bot, "seat": None}, GM)
    state, _ = play(state, {"kind": "start"}, GM)
    return state


def test_seats_are_taken_in_turn_order_and_the_gm_starts_the_game():
    state = seated()
    assert [(h.member, h.bot) for h in state.seats] == [
        ("ann", None),
        ("ben", None),
        (None, "greedy"),
    ]
    view = SESSION.view(state, ANN)
    assert view["to_decide"] == "Red" and view["game"]["machine"]["phase"] == "setup_lantern"
    (act,) = [o for o in SESSION.legal(state, ANN) if o.kind == "act"]
    assert {"kind": "act", "action": "lantern to P3"} in act.intents


def test_only_the_deciding_seat_acts_and_an_illegal_action_changes_nothing():
    """Seed §Setup 5: the first player places the lantern; nobody else may."""
    state = seated()
    intent = {"kind": "act", "action": "lantern to P3"}
    with pytest.raises(BoardError, match="not your seat's decision"):
        SESSION.resolve(state, intent, BEN, SeededDice(0))
    with pytest.raises(PermissionDenied):
        SESSION.resolve(state, intent, WATCHER, SeededDice(0))
    with pytest.raises(BoardError):
        SESSION.resolve(state, {"kind": "act", "action": "step 2"}, ANN, SeededDice(0))
    with pytest.raises(BoardError, match="no bot decides"):
        SESSION.resolve(state, {"kind": "bot-moves"}, GM, SeededDice(0))
    state, events = play(state, intent, ANN)
    assert events[0].text == "Red: lantern to P3"
    assert events[0].data == {"seat": "Red", "action": "lantern to P3"}
    assert SESSION.view(state, BEN)["game"]["lantern"] == "P3"


def test_a_bot_moves_when_anyone_asks_on_its_turn_and_the_fold_applies_its_choice():
    """ENG-09: bots are seats; on a bot's decision any member (or the GM) asks it to move;
    the cause records the bot's seed (drawn from the server's dice) and its action, which
    folding the events applies."""
    state = SESSION.new({"turn_cap": 30})
    state, _ = play(state, {"kind": "seat-bot", "bot": "greedy", "seat": None}, GM)
    state, _ = play(state, {"kind": "seat-bot", "bot": "mcts:20", "seat": None}, GM)
    state, _ = play(state, {"kind": "start"}, GM)
    log = []
    for step in range(12):
        assert [o.kind for o in SESSION.legal(state, WATCHER)] == []
        assert "bot-moves" in [o.kind for o in SESSION.legal(state, BEN)]
        state, events = play(state, {"kind": "bot-moves"}, BEN, SeededDice(step))
        log += events
        assert events[0].cause is not None and events[0].cause.draws
        assert events[0].cause.intent["kind"] == "bot-act"
    assert SESSION.fold_all(log, _bots_started()) == state


def _bots_started() -> BoardTable:
    state = SESSION.new({"turn_cap": 30})
    state, _ = play(state, {"kind": "seat-bot", "bot": "greedy", "seat": None}, GM)
    state, _ = play(state, {"kind": "seat-bot", "bot": "mcts:20", "seat": None}, GM)
    state, _ = play(state, {"kind": "start"}, GM)
    return state


@pytest.mark.parametrize("bot", ["mcts:0.5s", "mcts:99999", "clever"])
def test_bots_that_would_not_replay_are_refused(bot):
    """ENG-09: a time budget (or an unbounded search) would not choose alike on a fold."""
    with pytest.raises(BoardError, match="a table's bot"):
        SESSION.resolve(SESSION.new(), {"kind": "seat-bot", "bot": bot}, GM, SeededDice(0))


def test_the_gm_hands_a_seat_to_a_bot_during_the_game():
    state, _ = play(seated(bot=None), {"kind": "act", "action": "lantern to P3"}, ANN)
    state, _ = play(state, {"kind": "seat-bot", "bot": "random", "seat": "Red"}, GM)
    assert state.seats[0] == SeatHolder(bot="random")
    assert "bot-moves" in [o.kind for o in SESSION.legal(state, BEN)]


def _wtp_table() -> BoardTable:
    """Red on S1 of L0 under hidden chests, about to step 2 onto Walk the Plank (S3)."""
    position = Position(2, chest_visibility="hidden").lantern("P3").turn("Red").at("Red", "S1")
    game = position.empty_hands().build()
    seats = (SeatHolder(member="ann"), SeatHolder(member="ben"))
    return BoardTable(options=game.ship.config, seats=seats, game=to_model(game))


def received(events, state, member: Member) -> str:
    shown = [SESSION.view_event(e, member) for e in events]
    told = json.dumps([e.model_dump(mode="json") for e in shown if e], ensure_ascii=False)
    return told + json.dumps(SESSION.view(state, member), ensure_ascii=False)


def test_a_walk_the_plank_haul_under_hidden_chests_is_seen_by_its_roller_alone():
    """AMB-16 `chest_visibility = hidden`, AMB-39, ENG-07: the centre chest (2 players:
    LR, Rope, Em, Pe) is lifted by Red on a 4; Red and the GM see the haul, Ben learns only
    that Red lifted the loot, and nobody but the GM sees a closed chest."""
    state, _ = play(_wtp_table(), {"kind": "act", "action": "step 2"}, ANN)
    state, events = play(state, {"kind": "act", "action": "plank action"}, ANN, FixedDice([4]))
    (opened,) = [e for e in events if e.type == "chest_opened"]
    assert opened.visibility == Visibility.GM and opened.audience == ("ann",)
    assert (
        SESSION.view_event(opened, BEN).text
        == "Red lifts the loot out of the chest under the plank"
    )
    assert "Em×1 Pe×1 Rope×1 LR×1" in received(events, state, ANN)
    assert "Em×1" not in received(events, state, BEN)
    assert "Em×1" not in received(events, state, WATCHER)
    ann, ben, gm = (SESSION.view(state, m)["game"] for m in (ANN, BEN, GM))
    assert ann["machine"]["pool"]["emerald"] == 1 and gm["machine"]["pool"]["emerald"] == 1
    assert ben["machine"]["pool"] == {"hidden": "the haul Red lifted"}
    assert ann["chests"][0] == {"hidden": "the loot in chest C1"}
    assert gm["chests"][0]["life_ring"] == 1
    assert ben["trade_pile"]["face_down"] == {
        "hidden": "which trade cards lie face down in the pile"
    }
    assert ben["trade_pile"]["face_down_count"] == len(gm["trade_pile"]["face_down"]) == 21
    state, events = play(state, {"kind": "act", "action": "take Em"}, ANN)
    assert events[0].visibility == Visibility.PUBLIC


def test_a_table_refuses_a_position_the_rules_cannot_reach():
    """The strict loader runs when a table is loaded (issue 13 item 5)."""
    data = json.loads(_wtp_table().model_dump_json())
    data["game"]["machine"]["phase"] = "station"
    with pytest.raises(DataError, match="on a station"):
        SESSION.load(data)


MEMBERS = [GM, ANN, BEN, WATCHER]


def _pick(data):
    return lambda items: data.draw(st.sampled_from(list(items)))


@settings(max_examples=tried(5), deadline=None)
@given(st.data())
def test_the_laws_hold_from_an_empty_table(data):
    check_laws(Table(SESSION, MEMBERS), _pick(data), steps=20)


@settings(max_examples=tried(6), deadline=None)
@given(st.data())
def test_the_laws_hold_in_a_game_with_hidden_chests_and_a_bot(data):
    table = Table(SESSION, MEMBERS, start=lambda: seated(HIDDEN, bot="random"))
    check_laws(table, _pick(data), steps=30)


@settings(max_examples=tried(5), deadline=None)
@given(st.data())
def test_the_laws_hold_around_a_walk_the_plank_haul(data):
    check_laws(Table(SESSION, MEMBERS, start=_wtp_table), _pick(data), steps=15)
