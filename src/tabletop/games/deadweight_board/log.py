"""Game logs as JSON lines, and replaying them.

A log holds one or more games. Each game is a `setup` line (seed, seats, config and the
state after setup), then one line per decision or chance event (who, the action number,
what it means, and a digest of the state after it), then an `end` line (final state,
scores, ranking, winners). `replay` sets each game up again from its seed, draws every chance
event from the same seeded dice, applies every recorded decision, and stops at the first
line that does not match.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, TextIO

from pydantic import ValidationError

from tabletop.dice import SeededDice
from tabletop.errors import TabletopError
from tabletop.games.deadweight_board.config import DeadweightConfig
from tabletop.games.deadweight_board.errors import ReplayError
from tabletop.games.deadweight_board.model import state_from_json, to_model
from tabletop.games.deadweight_board.rules import apply_in_place, describe, roll_chance
from tabletop.games.deadweight_board.setup import new_game
from tabletop.games.deadweight_board.state import CHANCE, CHANCE_NAMES, COLOURS, OVER, State

LOG_VERSION = 2
"""Version 2 numbers chance outcomes after the decisions (`actions.NUM_ACTIONS` on); logs
of version 1 numbered them from 1000 and no longer replay."""
MAX_LOG_LINE_BYTES = 1_000_000
MAX_LOG_LINES = 50_000_000


def _state_dict(state: State) -> dict[str, Any]:
    return to_model(state).model_dump(mode="json", exclude={"config"})


def setup_line(game: int, seed: int, bots: list[str], state: State) -> str:
    return json.dumps(
        {
            "type": "setup",
            "version": LOG_VERSION,
            "game": game,
            "seed": seed,
            "players": state.n,
            "bots": bots,
            "config": state.ship.config.model_dump(mode="json"),
            "state": _state_dict(state),
        }
    )


def decision_line(game: int, player: int, action: int, text: str, state: State) -> str:
    return json.dumps(
        {
            "type": "decision",
            "game": game,
            "player": COLOURS[player],
            "action": action,
            "label": text,
            "digest": state.digest(),
        }
    )


def chance_line(game: int, chance: int, outcome: int, text: str, state: State) -> str:
    return json.dumps(
        {
            "type": "chance",
            "game": game,
            "event": CHANCE_NAMES[chance],
            "outcome": outcome,
            "label": text,
            "digest": state.digest(),
        }
    )


def _result(state: State) -> dict[str, Any]:
    """How a game ended, as the end line records it and replay checks it."""
    return {
        "scores": state.scores(),
        "ranking": [COLOURS[p] for p in state.ranking()],
        "winners": [COLOURS[p] for p in state.winners],
        "aborted": state.aborted,
    }


def end_line(game: int, state: State) -> str:
    return json.dumps(
        {
            "type": "end",
            "game": game,
            **_result(state),
            "turns": state.turn,
            "state": _state_dict(state),
        }
    )


def replay(path: str | Path) -> int:
    """Re-execute every game in a log; return how many games matched. The first line that
    does not match raises `ReplayError` naming it."""
    try:
        with open(path, encoding="utf-8") as handle:
            return replay_lines(_bounded_lines(handle))
    except OSError as error:
        raise ReplayError(f"cannot read log {path}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise ReplayError(f"cannot read log {path}: it is not UTF-8 text") from None


def _bounded_lines(handle: TextIO) -> Iterator[str]:
    """The file's lines, each cut one past the bound so that `_parse` refuses it: a line
    that never ends (say /dev/zero) cannot fill the memory first."""
    while line := handle.readline(MAX_LOG_LINE_BYTES + 1):
        yield line


def replay_lines(lines: Iterable[str]) -> int:
    games = 0
    game: _Replay | None = None
    for number, text in enumerate(lines, start=1):
        if number > MAX_LOG_LINES:
            raise ReplayError(f"line {number}: a log holds at most {MAX_LOG_LINES:,} lines")
        if not text.strip():
            continue
        record = _parse(number, text)
        kind = record.get("type")
        try:
            if kind == "setup":
                if game is not None:
                    raise _Mismatch("a new game starts before the last one ended")
                game = _Replay(record)
            elif game is None:
                raise _Mismatch(f"a {kind!r} line comes before any setup line")
            elif kind in ("decision", "chance"):
                game.step(record)
            elif kind == "end":
                game.finish(record)
                game = None
                games += 1
            else:
                raise _Mismatch(f"unknown line type {kind!r}")
        except _Mismatch as problem:
            raise ReplayError(f"line {number}: {problem}") from None
        except TabletopError as error:
            raise ReplayError(f"line {number}: {error}") from None
    if game is not None:
        raise ReplayError("the log ends in the middle of a game (no end line)")
    if not games:
        raise ReplayError("the log holds no games")
    return games


class _Mismatch(Exception):
    """A line that does not match the re-executed game."""


def _parse(number: int, text: str) -> dict[str, Any]:
    if len(text) > MAX_LOG_LINE_BYTES:
        raise ReplayError(f"line {number}: longer than {MAX_LOG_LINE_BYTES:,} bytes")
    try:
        record = json.loads(text)
    except json.JSONDecodeError as error:
        raise ReplayError(f"line {number}: not JSON ({error.msg})") from None
    if not isinstance(record, dict):
        raise ReplayError(f"line {number}: not a JSON object")
    return record


def _check_recorded(recorded: Any, config: Any) -> None:
    """A recorded position goes through the strict loader, so one the rules cannot reach is
    refused with the rule it breaks (docs/rules ENG-08)."""
    if not isinstance(recorded, dict):
        raise _Mismatch("the line records no game state")
    state_from_json(json.dumps({**recorded, "config": config}))


class _Replay:
    """One game being re-executed from its setup line."""

    def __init__(self, record: dict[str, Any]) -> None:
        if record.get("version") != LOG_VERSION:
            raise _Mismatch(
                f"the log is version {record.get('version', 1)}, this tabletop reads version "
                f"{LOG_VERSION} (action numbers changed); simulate again to write a new log"
            )
        try:
            config = DeadweightConfig.model_validate(record["config"])
            self.seed = int(record["seed"])
            players = int(record["players"])
        except (KeyError, TypeError, ValueError, ValidationError) as error:
            raise _Mismatch(f"bad setup line ({error.__class__.__name__})") from None
        self.game = record.get("game")
        self.config = record["config"]
        _check_recorded(record.get("state"), self.config)
        self.dice = SeededDice(self.seed)
        self.state = new_game(players, config, self.dice)
        if _state_dict(self.state) != record.get("state"):
            raise _Mismatch("the state after setup differs from the one recorded")

    def step(self, record: dict[str, Any]) -> None:
        state = self.state
        if record.get("game") != self.game:
            raise _Mismatch("the line belongs to another game")
        if state.phase == OVER:
            raise _Mismatch("the game is already over")
        if record["type"] == "chance":
            if state.phase != CHANCE:
                raise _Mismatch("a chance event is recorded where a player decides")
            outcome = roll_chance(state, self.dice)
            if outcome != record.get("outcome"):
                raise _Mismatch(
                    f"the dice give {describe(state, outcome)!r}, the log says "
                    f"{record.get('label')!r}"
                )
            apply_in_place(state, outcome)
        else:
            if state.phase == CHANCE:
                raise _Mismatch("a decision is recorded where a chance event is due")
            if record.get("player") != COLOURS[state.owner]:
                raise _Mismatch(
                    f"the decision belongs to {COLOURS[state.owner]}, "
                    f"the log says {record.get('player')}"
                )
            action = record.get("action")
            if not isinstance(action, int):
                raise _Mismatch("the action is not an integer")
            apply_in_place(state, action)
        if state.digest() != record.get("digest"):
            raise _Mismatch("the state after this step differs from the one recorded")

    def finish(self, record: dict[str, Any]) -> None:
        state = self.state
        if state.phase != OVER:
            raise _Mismatch("the log ends a game that is not over")
        for key, value in _result(state).items():
            if record.get(key) != value:
                raise _Mismatch(f"{key} differ: replay gives {value}, log says {record.get(key)}")
        _check_recorded(record.get("state"), self.config)
        if record.get("state") != _state_dict(state):
            raise _Mismatch("the final state differs from the one recorded")
