"""The log format (docs/rules/deadweight-board.md ENG-14): what a setup line records, how
lines are chained, and what replay names when games are missing or cut."""

from __future__ import annotations

import hashlib
import json

import pytest

from tabletop.data import canonical
from tabletop.games.deadweight_board.config import make_config
from tabletop.games.deadweight_board.errors import ReplayError
from tabletop.games.deadweight_board.log import GENESIS, LOG_VERSION, line_hash, replay_lines
from tabletop.games.deadweight_board.simulate import bot_seed, game_seed, run_games

SHORT = make_config(turn_cap=4)


def _games(count: int, seats: list[str] | None = None) -> list[list[str]]:
    seats = seats or ["random", "greedy"]
    return [record.log for record in run_games(count, seats, 2, SHORT, seed=5, log=True)]


def test_the_setup_line_records_each_seats_bot_and_the_seed_it_drew():
    """ENG-14: what a bot needs to decide again is its policy and its seed."""
    (lines,) = _games(1)
    setup = json.loads(lines[0])
    seed = game_seed(5, 0)
    assert setup["version"] == LOG_VERSION == 3
    assert setup["seed"] == seed and setup["bots"] == ["random", "greedy"]
    assert setup["bot_seeds"] == [bot_seed(seed, 0), bot_seed(seed, 1)]


def test_each_line_hash_covers_the_hash_before_it_and_every_other_field():
    """ENG-14: SHA-256 of the previous hash, a newline and the line's canonical JSON."""
    (lines,) = _games(1)
    prev = GENESIS
    for text in lines:
        record = json.loads(text)
        body = {key: value for key, value in record.items() if key != "hash"}
        expected = hashlib.sha256(f"{prev}\n{canonical(body)}".encode()).hexdigest()
        assert record["hash"] == line_hash(prev, record) == expected
        prev = record["hash"]


def test_an_edit_anywhere_changes_the_hash_of_the_end_line():
    """ENG-14: the end line's hash stands for the whole game."""
    (lines,) = _games(1)
    records = [json.loads(text) for text in lines]
    records[3]["label"] += "!"
    prev = GENESIS
    for record in records:
        prev = line_hash(prev, record)
    assert prev != records[-1]["hash"]


def test_a_game_dropped_from_the_middle_is_named_by_the_game_after_it():
    """ENG-14: games follow each other with consecutive numbers."""
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
