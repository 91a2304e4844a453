"""A table's game keeps its own record (docs/rules ENG-14): its dice follow a seed drawn at
the start and kept from everyone but the GM, the finished game is a log `replay` accepts
and a list of boards to step through, and each legal move names the place it points at."""

from __future__ import annotations

import json

import pytest

from tabletop.dice import FixedDice, SeededDice
from tabletop.errors import DataError
from tabletop.games.deadweight_board import BoardError, Position
from tabletop.games.deadweight_board.actions import PASS, TRADE
from tabletop.games.deadweight_board.log import replay
from tabletop.games.deadweight_board.observe import ALL_SEEING, observation
from tabletop.games.deadweight_board.session import SESSION, BoardTable
from tabletop.games.deadweight_board.targets import target_of, targets
from tabletop.session import Member, Visibility

GM = Member.gm()
ANN = Member.player("ann", "Ann")
WATCHER = Member.observer()
SEED_FACE = 123_456_789


def play(state: BoardTable, intent: dict, member: Member, dice=None) -> tuple:
    events = SESSION.resolve(state, intent, member, dice or SeededDice(7))
    for event in events:
        state = SESSION.fold(state, event)
    return state, events


def started(options: dict, bots: tuple[str, ...] = ("random", "greedy")) -> tuple:
    state = SESSION.new(options)
    for bot in bots:
        state, _ = play(state, {"kind": "seat-bot", "bot": bot, "seat": None}, GM)
    state, events = play(state, {"kind": "start"}, GM, FixedDice([SEED_FACE]))
    return state, events


def finished(options: dict) -> BoardTable:
    state, _ = started(options)
    for step in range(2_000):
        if SESSION.view(state, GM)["to_decide"] is None:
            return state
        state, _ = play(state, {"kind": "bot-moves"}, GM, SeededDice(step))
    raise AssertionError("the game did not end")


def test_the_game_follows_the_seed_drawn_at_the_start_and_only_the_gm_learns_it():
    """ENG-14: the setup is the one `SeededDice(seed)` deals; the seed is in the start's
    cause and in a hidden event, which a player and an observer receive as a hint only."""
    state, events = started({"turn_cap": 5})
    assert state.seed == SEED_FACE and state.first_seats == ("random", "greedy")
    sealed = events[-1]
    assert sealed.visibility == Visibility.HIDDEN and sealed.data == {"seed": SEED_FACE}
    for member in (ANN, WATCHER):
        shown = [SESSION.view_event(event, member) for event in events]
        told = json.dumps([e.model_dump(mode="json") for e in shown if e])
        assert str(SEED_FACE) not in told + json.dumps(SESSION.view(state, member))
        assert "sealed" in told
    assert SESSION.view_event(events[0], GM).cause.draws[0].face == SEED_FACE


def test_a_finished_game_is_a_log_replay_accepts_and_boards_to_step_through(tmp_path):
    """ENG-14: the log is one game of log.py's lines, from the seed and every step."""
    state = finished({"turn_cap": 4, "chest_visibility": "hidden"})
    record = SESSION.game_record(state, WATCHER)
    path = tmp_path / record["file"]
    path.write_text(record["log"])
    assert replay(path) == 1
    lines = [json.loads(line) for line in record["log"].splitlines()]
    assert lines[0]["seed"] == SEED_FACE and lines[0]["bots"] == ["random", "greedy"]
    decisions = [line for line in lines if line["type"] == "decision"]
    assert len(record["steps"]) == len(decisions) + 1
    assert record["steps"][0]["text"] == "the ship is set up"
    game = SESSION.view(state, GM)["game"]
    assert record["steps"][-1]["state"] == game
    assert record["steps"][-1]["state"] == observation(state.rerun().state, ALL_SEEING)
    assert SESSION.view(state, ANN)["record"] is True


def test_the_record_waits_for_the_end_of_a_started_game():
    state, _ = started({"turn_cap": 5})
    with pytest.raises(BoardError, match="once a game the GM started is over"):
        SESSION.game_record(state, ANN)
    assert SESSION.view(state, ANN)["record"] is False


def test_a_table_whose_record_does_not_lead_to_its_game_is_refused():
    """A snapshot whose steps were edited, or whose seed was, does not load."""
    state, _ = started({"turn_cap": 5})
    state, _ = play(state, {"kind": "bot-moves"}, GM)
    data = json.loads(state.model_dump_json())
    data["record"][0]["action"] = data["record"][0]["action"] + 1
    with pytest.raises(DataError):
        SESSION.load(data)
    data = json.loads(state.model_dump_json())
    data["seed"] = SEED_FACE + 1
    with pytest.raises(DataError):
        SESSION.load(data)
    assert SESSION.load(json.loads(state.model_dump_json())) == state


def test_each_move_names_the_place_on_the_board_it_points_at():
    """A step lands where the track says (S1 + 2 = S3), the lantern goes on the plank it
    names; passing or trading points at no one place."""
    game = Position(2).lantern("P3").turn("Red").at("Red", "S1").build()
    found = targets(game)
    assert found["step 1"] == "space:S2" and found["step 2"] == "space:S3"
    assert all(target.startswith("space:") for target in found.values())
    assert target_of(game, PASS) is None and target_of(game, TRADE) is None
    state, _ = started({"turn_cap": 5}, bots=("random", "random", "random"))
    view = SESSION.view(state, GM)
    assert view["targets"]["lantern to P3"] == "space:P3"
    assert "targets" not in SESSION.view(state, WATCHER)
