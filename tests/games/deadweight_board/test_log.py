"""The log format (docs/rules/deadweight-board.md ENG-15): what a setup line records, how
lines are chained, what replay names when games are missing or cut, and a table's game with
a person and a bot built afresh for each decision."""

from __future__ import annotations

import hashlib
import json

import pytest

from tabletop.data import canonical
from tabletop.games.deadweight_board.actions import DIE
from tabletop.games.deadweight_board.bots import make_bot
from tabletop.games.deadweight_board.config import make_config
from tabletop.games.deadweight_board.errors import ReplayError
from tabletop.games.deadweight_board.log import (
    GENESIS,
    HUMAN,
    LOG_VERSION,
    line_hash,
    replay_lines,
)
from tabletop.games.deadweight_board.rules import legal_actions
from tabletop.games.deadweight_board.simulate import bot_seed, game_seed, run_games
from tests.games.deadweight_board.logs import written_game

SHORT = make_config(turn_cap=4)


def _games(count: int, seats: list[str] | None = None) -> list[list[str]]:
    seats = seats or ["random", "greedy"]
    return [record.log for record in run_games(count, seats, 2, SHORT, seed=5, log=True)]


def test_the_setup_line_records_each_seats_bot_and_the_seed_it_drew():
    """ENG-15: what a bot needs to decide again is its policy and its seed."""
    (lines,) = _games(1)
    setup = json.loads(lines[0])
    seed = game_seed(5, 0)
    assert setup["version"] == LOG_VERSION == 4
    assert setup["seed"] == seed and setup["bots"] == ["random", "greedy"]
    assert setup["bot_seeds"] == [bot_seed(seed, 0), bot_seed(seed, 1)]


def test_each_line_hash_covers_the_hash_before_it_and_every_other_field():
    """ENG-15: SHA-256 of the previous hash, a newline and the line's canonical JSON."""
    (lines,) = _games(1)
    prev = GENESIS
    for text in lines:
        record = json.loads(text)
        body = {key: value for key, value in record.items() if key != "hash"}
        expected = hashlib.sha256(f"{prev}\n{canonical(body)}".encode()).hexdigest()
        assert record["hash"] == line_hash(prev, record) == expected
        prev = record["hash"]


def test_an_edit_anywhere_changes_the_hash_of_the_end_line():
    """ENG-15: the end line's hash stands for the whole game."""
    (lines,) = _games(1)
    records = [json.loads(text) for text in lines]
    records[3]["label"] += "!"
    prev = GENESIS
    for record in records:
        prev = line_hash(prev, record)
    assert prev != records[-1]["hash"]


def test_a_game_dropped_from_the_middle_is_named_by_the_game_after_it():
    """ENG-15: games follow each other with consecutive numbers."""
    first, _, third = _games(3)
    with pytest.raises(
        ReplayError, match=rf"^line {len(first) + 1}: field 'game': expected 1 .*found 2$"
    ):
        replay_lines([*first, *third])


def test_a_log_cut_in_the_middle_of_a_game_names_its_last_line():
    (lines,) = _games(1)
    with pytest.raises(ReplayError, match=r"ends in the middle of a game \(line 7 is its last\)"):
        replay_lines(lines[:7])


def test_a_field_a_line_does_not_hold_is_refused_by_name():
    (lines,) = _games(1)
    record = json.loads(lines[1])
    record["note"] = "trust me"
    with pytest.raises(ReplayError, match=r"^line 2: field \"note\" is not one a decision line"):
        replay_lines([lines[0], json.dumps(record), *lines[2:]])


def _table_game(table: bool = False) -> list[str]:
    """A game as a table plays it (ENG-15): Red a person, Blue a bot built afresh for each
    decision from a seed of its own; the dice from the game's seed, or (`table`) recorded
    as the room's dice gave them, with no seed."""

    def decide(state, number):
        if state.owner == 0:
            return legal_actions(state)[0], {}
        drawn = 100 + number
        return make_bot("random", drawn).choose(state), {"bot": "random", "bot_seed": drawn}

    return written_game(9, [HUMAN, "random"], [None, None], decide, table)


def test_a_tables_game_replays_asking_each_decisions_bot_and_taking_a_persons_move():
    """ENG-15: a person's decision is checked to be legal; a bot's, named on its line with
    its seed, is asked again."""
    lines = _table_game()
    assert replay_lines(lines) == 1
    blue = next(i for i, text in enumerate(lines) if '"bot_seed"' in text)
    record = json.loads(lines[blue])
    record["bot_seed"] += 1
    asked = rf"^line {blue + 1}: field 'action': .*Blue's random bot, seed {record['bot_seed']}"
    with pytest.raises(ReplayError, match=asked):
        replay_lines([*lines[:blue], json.dumps(record), *lines[blue + 1 :]])


def test_a_bots_seat_cannot_pass_its_decision_off_as_a_persons():
    lines = _table_game()
    blue = next(i for i, text in enumerate(lines) if '"bot_seed"' in text)
    record = json.loads(lines[blue])
    del record["bot"], record["bot_seed"]
    with pytest.raises(ReplayError, match="Blue's seat holds a random bot; the line does not"):
        replay_lines([*lines[:blue], json.dumps(record), *lines[blue + 1 :]])


def test_a_persons_illegal_decision_is_refused():
    lines = _table_game()
    red = next(i for i, text in enumerate(lines) if '"decision"' in text)
    record = json.loads(lines[red])
    record["action"] = 99_999
    with pytest.raises(ReplayError, match=rf"^line {red + 1}: .*not legal"):
        replay_lines([*lines[:red], json.dumps(record), *lines[red + 1 :]])


def _replaced(lines: list[str], number: int, **fields: object) -> list[str]:
    record = json.loads(lines[number])
    record.update(fields)
    return [*lines[:number], json.dumps(record), *lines[number + 1 :]]


def test_a_log_of_an_earlier_version_is_refused_in_one_line():
    """ENG-15: version 3 recorded a table's game by a seed; version 4 does not."""
    (lines,) = _games(1)
    with pytest.raises(ReplayError, match=r"^line 1: the log is version 3, this tabletop reads "):
        replay_lines(_replaced(lines, 0, version=3))


def test_a_tables_game_replays_from_its_recorded_setup_and_outcomes():
    """ENG-14: seed null: the setup line's state is loaded (a fresh setup), each chance
    outcome is taken as recorded when the chance event can have it, each bot asked again."""
    lines = _table_game(table=True)
    assert json.loads(lines[0])["seed"] is None and replay_lines(lines) == 1
    roll = next(
        i for i, text in enumerate(lines) if DIE < json.loads(text).get("outcome", 0) <= DIE + 6
    )
    with pytest.raises(ReplayError, match=rf"^line {roll + 1}: field 'outcome': 5 is not an"):
        replay_lines(_replaced(lines, roll, outcome=5))
    other = DIE + (json.loads(lines[roll])["outcome"] - DIE) % 6 + 1
    with pytest.raises(ReplayError, match=rf"^line {roll + 1}: field 'label'"):
        replay_lines(_replaced(lines, roll, outcome=other))


def test_a_tables_game_starts_from_a_fresh_setup():
    lines = _table_game(table=True)
    played = json.loads(lines[-1])["state"]
    with pytest.raises(ReplayError, match=r"^line 1: .*before the lantern is placed"):
        replay_lines(_replaced(lines, 0, state=played))
    with pytest.raises(ReplayError, match=r"^line 1: bad game state"):
        replay_lines(_replaced(lines, 0, state={"players": []}))
