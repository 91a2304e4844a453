"""Game logs as JSON lines, and replaying them so that a log cannot tell what did not happen.

A log holds one or more games. Each game is a `setup` line (game number, the dice's seed or
null, players, each seat's bot and the seed it drew, config and the state after setup), then
one line per decision or chance event (who, the action number, what it means, and a digest
of the state after it), then an `end` line (scores, ranking, winners, turns and the final
state). Every line ends in a `hash` chained over the lines before it in its game: the
SHA-256 of the previous line's hash (`GENESIS` before the setup line) and this line without
`hash`, as canonical JSON; the end line's hash thus stands for the whole game.

`replay` sets each game up again from its setup line and draws every chance event from the
same seeded dice, or, for a table's game (seed null: its dice were the room's), loads the
recorded setup and takes each recorded outcome, checked to be one the chance event can have.
It asks each seat's bot again (rebuilt from its policy and seed) at every decision, writes
the line it expects with the same writer that wrote the log, and compares every field of it
with the line recorded: the first field that differs is named with its line number and both
values. Why the lines are chained and not keyed (HMAC) is in docs/rules/deadweight-board.md
(ENG-15).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, TextIO

from pydantic import ValidationError

from tabletop.data import canonical, describe, parse_json
from tabletop.dice import SeededDice
from tabletop.errors import TabletopError
from tabletop.games.deadweight_board.bots import Bot, replayable_bot
from tabletop.games.deadweight_board.config import DeadweightConfig
from tabletop.games.deadweight_board.errors import ReplayError
from tabletop.games.deadweight_board.model import state_from_json, to_model
from tabletop.games.deadweight_board.rules import apply_in_place, chance_outcomes, roll_chance
from tabletop.games.deadweight_board.rules import describe as describe_action
from tabletop.games.deadweight_board.setup import new_game
from tabletop.games.deadweight_board.state import (
    CHANCE,
    CHANCE_NAMES,
    COLOURS,
    OVER,
    SETUP_LANTERN,
    State,
)

LOG_VERSION = 4
"""Version 4 records a table's game (seed null: its setup state and every chance outcome as
the room's dice gave them) beside seeded games; version 3 (chained, bot seeds) recorded a
table's game by a game seed, version 2 had no bot seeds and no chain, version 1 numbered
chance outcomes from 1000. None of them replays: simulate again to write a new log."""
HUMAN = "human"
"""A seat a person holds in `bots`: their decisions are checked to be legal, not re-asked."""
GENESIS = "0" * 64
"""What a game's setup line is chained to."""
MAX_LOG_LINE_BYTES = 1_000_000
MAX_LOG_LINES = 50_000_000
EXCERPT = 60
"""Characters of a value an error quotes, at most."""


def _state_dict(state: State) -> dict[str, Any]:
    return to_model(state).model_dump(mode="json", exclude={"config"})


def line_hash(prev: str, record: dict[str, Any]) -> str:
    """A line's hash: over the hash before it and every field but `hash` itself."""
    body = {key: value for key, value in record.items() if key != "hash"}
    return hashlib.sha256(f"{prev}\n{canonical(body)}".encode()).hexdigest()


class GameLog:
    """One game's lines as they are written, each naming the one before it by hash.

    `simulate` writes with it, and `replay` writes the lines it expects with it, so a
    field added here is written and checked alike."""

    def __init__(self, game: int) -> None:
        self.game = game
        self.lines: list[str] = []
        self._prev = GENESIS

    def setup(
        self, seed: int | None, bots: list[str], bot_seeds: list[int | None], state: State
    ) -> dict:
        """The first line: everything the game and its bots are made again from. `seed` is
        the dice's, or None for a table's game (the room's dice: the setup is `state` as
        dealt, and each chance line's outcome is what the dice gave); `bots` names each
        seat's holder at the start (a bot's policy, or `HUMAN`); `bot_seeds` gives the seed
        of a bot that plays its seat all game, or None where each decision names the bot
        and seed that made it (a table's bots) or a person decides."""
        return self._add(
            {
                "type": "setup",
                "version": LOG_VERSION,
                "seed": seed,
                "players": state.n,
                "bots": bots,
                "bot_seeds": bot_seeds,
                "config": state.ship.config.model_dump(mode="json"),
                "state": _state_dict(state),
            }
        )

    def decision(
        self,
        player: int,
        action: int,
        text: str,
        state: State,
        bot: str | None = None,
        bot_seed: int | None = None,
    ) -> dict:
        """A seat's decision, with `state` as it stands after it; `bot` and `bot_seed` name
        a bot built for this decision alone (`make_bot(bot, bot_seed)`), as a table's are."""
        made_by = {} if bot is None else {"bot": bot, "bot_seed": bot_seed}
        return self._add(
            {
                "type": "decision",
                "player": COLOURS[player],
                **made_by,
                "action": action,
                "label": text,
                "digest": state.digest(),
            }
        )

    def chance(self, chance: int, outcome: int, text: str, state: State) -> dict:
        """A die or a card, with `state` as it stands after it."""
        return self._add(
            {
                "type": "chance",
                "event": CHANCE_NAMES[chance],
                "outcome": outcome,
                "label": text,
                "digest": state.digest(),
            }
        )

    def end(self, state: State) -> dict:
        """The last line: how the game ended, and the final state."""
        return self._add(
            {
                "type": "end",
                "scores": state.scores(),
                "ranking": [COLOURS[p] for p in state.ranking()],
                "winners": [COLOURS[p] for p in state.winners],
                "aborted": state.aborted,
                "turns": state.turn,
                "state": _state_dict(state),
            }
        )

    def _add(self, fields: dict[str, Any]) -> dict[str, Any]:
        record = {"type": fields.pop("type"), "game": self.game, **fields}
        record["hash"] = self._prev = line_hash(self._prev, record)
        self.lines.append(json.dumps(record))
        return record


# --- replay --------------------------------------------------------------------------------


def replay(path: str | Path) -> int:
    """Re-execute every game in a log; return how many games matched. The first line that
    does not match raises `ReplayError` naming it."""
    path = Path(path)
    try:
        if not path.is_file():  # a named pipe would wait for ever, a device never end
            problem = "no such file" if not path.exists() else "not a regular file"
            raise ReplayError(f"cannot read log {path}: {problem}")
        with open(path, encoding="utf-8") as handle:
            return replay_lines(_bounded_lines(handle))
    except OSError as error:
        raise ReplayError(f"cannot read log {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise ReplayError(f"cannot read log {path}: it is not UTF-8 text") from None


def _bounded_lines(handle: TextIO) -> Iterator[str]:
    """The file's lines, each cut one past the bound so that `_parse` refuses it: a line
    that never ends cannot fill the memory first."""
    while line := handle.readline(MAX_LOG_LINE_BYTES + 1):
        yield line


def replay_lines(lines: Iterable[str]) -> int:
    """Re-execute the games in `lines`; return how many there were."""
    games = 0
    game: _Replay | None = None
    expected_number: int | None = None
    number = 0
    for number, text in enumerate(lines, start=1):
        if number > MAX_LOG_LINES:
            raise ReplayError(f"line {number}: a log holds at most {MAX_LOG_LINES:,} lines")
        if not text.strip():
            continue
        record = _parse(number, text)
        try:
            if game is None:
                game = _Replay(record, expected_number)
            elif game.next_line(record):
                games += 1
                expected_number = game.number + 1
                game = None
        except _Mismatch as problem:
            raise ReplayError(f"line {number}: {problem}") from None
        except TabletopError as error:
            raise ReplayError(f"line {number}: {error}") from None
    if game is not None:
        raise ReplayError(f"the log ends in the middle of a game (line {number} is its last)")
    if not games:
        raise ReplayError("the log holds no games")
    return games


class _Mismatch(Exception):
    """A line that does not match the re-executed game."""


def _parse(number: int, text: str) -> dict[str, Any]:
    if len(text) > MAX_LOG_LINE_BYTES:
        raise ReplayError(f"line {number}: longer than {MAX_LOG_LINE_BYTES:,} bytes")
    try:
        record = parse_json(text)
    except json.JSONDecodeError as error:
        raise ReplayError(f"line {number}: not JSON ({error.msg})") from None
    except (ValueError, RecursionError) as error:  # NaN, 1e400, 5,000 digits, deep nesting
        raise ReplayError(f"line {number}: {str(error)[:120]}") from None
    if not isinstance(record, dict):
        raise ReplayError(f"line {number}: not a JSON object")
    return record


class _Replay:
    """One game being re-executed from its setup line, one expected line at a time."""

    def __init__(self, record: dict[str, Any], number: int | None) -> None:
        if record.get("type") != "setup":
            raise _Mismatch(f"a game starts with a setup line, not {_excerpt(record.get('type'))}")
        if record.get("version") != LOG_VERSION:
            raise _Mismatch(
                f"the log is version {_excerpt(record.get('version', 1))}, this tabletop reads "
                f"version {LOG_VERSION} (tables' games from the room's dice); simulate again, "
                "or download the table's record again, to write a new log"
            )
        game = _whole(record, "game", 0)
        if number is not None and game != number:
            raise _Mismatch(f"field 'game': expected {number} (the next game), found {game}")
        self.number = game
        seed = None if record.get("seed") is None else _whole(record, "seed", 0)
        players = _whole(record, "players", 2)
        bots = _seat_list(record, "bots", str, players)
        bot_seeds = _seat_list(record, "bot_seeds", int, players)
        pairs = zip(bots, bot_seeds, strict=True)
        if any(drawn is not None and name == HUMAN for name, drawn in pairs):
            raise _Mismatch("field 'bot_seeds': a seat a person holds has no bot seed")
        try:
            config = DeadweightConfig.model_validate(record.get("config"))
        except ValidationError as error:
            raise _Mismatch(f"field 'config': {describe(error)[:200]}") from None
        self.holders = bots
        self.bots: list[Bot | None] = [
            None if drawn is None else replayable_bot(name, drawn)
            for name, drawn in zip(bots, bot_seeds, strict=True)
        ]
        self.bot_seeds = bot_seeds
        self.dice = None if seed is None else SeededDice(seed)
        if self.dice is None:
            self.state = _recorded_setup(record, players)
        else:
            self.state = new_game(players, config, self.dice)
        self.log = GameLog(game)
        self.config = record["config"]
        _compare(record, self.log.setup(seed, bots, bot_seeds, self.state), self.config, "")

    def next_line(self, record: dict[str, Any]) -> bool:
        """Check `record` against the line the game writes next; True once it has ended."""
        state = self.state
        if state.phase == OVER:
            _compare(record, self.log.end(state), self.config, "")
            return True
        if state.phase == CHANCE:
            chance = state.chance
            outcome = (
                _outcome(state, record) if self.dice is None else roll_chance(state, self.dice)
            )
            text = describe_action(state, outcome)
            apply_in_place(state, outcome)
            expected = self.log.chance(chance, outcome, text, state)
            _compare(record, expected, self.config, "")
            return False
        owner = state.owner
        bot, bot_seed, decider = self._decider(owner, record)
        action = record.get("action") if decider is None else decider.choose(state)
        if type(action) is not int:
            raise _Mismatch(f"field 'action': a whole number, not {_excerpt(action)}")
        text = describe_action(state, action)
        apply_in_place(state, action)  # a person's decision: refused unless legal
        expected = self.log.decision(owner, action, text, state, bot, bot_seed)
        asked = ""
        if decider is not None:
            policy, drawn = (bot, bot_seed) if bot else (self.holders[owner], self.bot_seeds[owner])
            asked = f" ({COLOURS[owner]}'s {policy} bot, seed {drawn}, asked again)"
        _compare(record, expected, self.config, asked)
        return False

    def _decider(self, owner: int, record: dict[str, Any]) -> tuple[str | None, int | None, Any]:
        """Who decides for `owner` now: the seat's bot for the whole game, a bot the line
        names for this decision alone, or (None) a person, whose choice is taken as recorded."""
        if self.bots[owner] is not None:
            return None, None, self.bots[owner]
        bot, bot_seed = record.get("bot"), record.get("bot_seed")
        if bot is None and bot_seed is None:
            if self.holders[owner] != HUMAN:
                raise _Mismatch(
                    f"{COLOURS[owner]}'s seat holds a {self.holders[owner]} bot; the line "
                    "does not name the bot and seed that decided"
                )
            return None, None, None
        if type(bot) is not str or type(bot_seed) is not int or bot_seed < 0:
            raise _Mismatch("fields 'bot' and 'bot_seed': a bot's policy and a whole seed")
        return bot, bot_seed, replayable_bot(bot, bot_seed)


def _recorded_setup(record: dict[str, Any], players: int) -> State:
    """A table's game as its setup line records it: a position the strict loader accepts
    (ENG-08), for `players`, before the lantern is placed (so a fresh setup)."""
    recorded = record.get("state")
    if not isinstance(recorded, dict):
        raise _Mismatch("field 'state': a table's game records the state after its setup")
    state = state_from_json(json.dumps({**recorded, "config": record["config"]}))
    if state.n != players or state.phase != SETUP_LANTERN:
        raise _Mismatch(
            f"field 'state': the setup of a game for {players}, before the lantern is placed"
        )
    return state


def _outcome(state: State, record: dict[str, Any]) -> int:
    """A table's chance outcome as its line records it, refused unless the pending chance
    event can have it (the room's verify checks that the dice gave it)."""
    outcome = record.get("outcome")
    if type(outcome) is not int or outcome not in (o for o, _ in chance_outcomes(state)):
        raise _Mismatch(
            f"field 'outcome': {_excerpt(outcome)} is not an outcome of the pending "
            f"{CHANCE_NAMES[state.chance]}"
        )
    return outcome


def _whole(record: dict[str, Any], key: str, least: int) -> int:
    value = record.get(key)
    if type(value) is not int or value < least:
        raise _Mismatch(f"field {key!r}: a whole number from {least} up, not {_excerpt(value)}")
    return value


def _seat_list(record: dict[str, Any], key: str, kind: type, players: int) -> list[Any]:
    """One entry of `kind` a seat: a holder (a bot's policy or `HUMAN`), or the seed its
    bot drew (a whole number, or None)."""
    value = record.get(key)
    if (
        not isinstance(value, list)
        or len(value) != players
        or any(not _fits(item, kind) for item in value)
    ):
        what = "holder" if kind is str else "seed (a whole number from 0 up, or null)"
        raise _Mismatch(f"field {key!r}: one {what} for each of the {players} seats")
    return value


def _fits(item: Any, kind: type) -> bool:
    if kind is str:
        return type(item) is str
    return item is None or (type(item) is int and item >= 0)


def _compare(found: dict[str, Any], expected: dict[str, Any], config: Any, why: str) -> None:
    """Name the first field, in the order the writer puts them, where `found` differs."""
    for key, value in expected.items():
        if key == "hash":  # last: a field too many is named as such, not as a wrong hash
            extra = next((name for name in found if name not in expected), None)
            if extra is not None:
                raise _Mismatch(f"field {_excerpt(extra)} is not one a {found['type']} line holds")
        if key not in found:
            raise _Mismatch(f"field {key!r} is missing (expected {_excerpt(value)})")
        difference = _difference(value, found[key], key)
        if difference is not None:
            if key == "state":
                _check_recorded(found[key], config)
            where, want, got = difference
            because = why if key == "action" else ""
            raise _Mismatch(
                f"field {where!r}: expected {_excerpt(want)}{because}, found {_excerpt(got)}"
            )


def _difference(want: Any, got: Any, where: str) -> tuple[str, Any, Any] | None:
    """The first place inside two JSON values where they differ, types included (`1` is
    not `true`, nor `1.0`), as a dotted path and the two values there."""
    if type(want) is not type(got):
        return where, want, got
    if isinstance(want, dict):
        missing = [key for key in want if key not in got] + [key for key in got if key not in want]
        if missing:
            return f"{where}.{missing[0]}", want.get(missing[0]), got.get(missing[0])
        for key, value in want.items():
            found = _difference(value, got[key], f"{where}.{key}")
            if found is not None:
                return found
        return None
    if isinstance(want, list):
        for index, (a, b) in enumerate(zip(want, got, strict=False)):
            found = _difference(a, b, f"{where}.{index}")
            if found is not None:
                return found
        return None if len(want) == len(got) else (where, want, got)
    return None if want == got else (where, want, got)


def _excerpt(value: Any) -> str:
    """A value as JSON, cut to `EXCERPT` characters: an error line stays one short line."""
    text = json.dumps(value, ensure_ascii=False) if value is not None else "nothing"
    return text if len(text) <= EXCERPT else text[: EXCERPT - 1] + "…"


def _check_recorded(recorded: Any, config: Any) -> None:
    """A recorded position that differs goes through the strict loader, so one the rules
    cannot reach is refused with the rule it breaks (docs/rules ENG-08)."""
    if isinstance(recorded, dict):
        state_from_json(json.dumps({**recorded, "config": config}))
