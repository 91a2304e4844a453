"""The board game at a table: folding a finished four-bot game from its events, as a room
refolds its log (docs/rules/deadweight-board.md ENG-14).

A table keeps its game between moves, so folding one move costs a clone of the game, the
move, its chance nodes and the events told; no bot is asked and nothing is re-run from the
start. The anchor, in the same run, is the engine alone: the same steps (decisions and
chance outcomes) applied to a copy of the same setup with `apply_in_place`. Also timed: the
saved-state model's round trip a move would cost if the table kept its game as that model
(`to_model` then `from_model`), and a snapshot of the finished table written and read back
(`model_dump_json`, `Session.load`).

Run: `.venv/bin/python -m bench deadweight_board_table` (about 10 s).
"""

from __future__ import annotations

from bench.timing import best_seconds
from tabletop.dice import SeededDice
from tabletop.games.deadweight_board.model import from_model, to_model
from tabletop.games.deadweight_board.rules import apply_in_place
from tabletop.games.deadweight_board.session import SESSION, BoardTable
from tabletop.games.deadweight_board.state import State
from tabletop.session import TABLE, Event, Member

GM = Member.gm()
BOTS = ("random", "random", "random", "random")
START_DICE = 1
"""The start's dice: a game of 5,473 entries (2,128 bot moves) under the default rules."""


def _played() -> tuple[BoardTable, list[Event], int]:
    """A four-bot table played to the end as the server plays it: the final table, every
    event from the empty table on, and how many bot moves there were."""
    state, log = SESSION.new(), []

    def play(intent: dict, member: Member, dice: SeededDice) -> None:
        nonlocal state
        events = SESSION.resolve(state, intent, member, dice)
        for event in events:
            state = SESSION.fold(state, event)
        log.extend(events)

    for bot in BOTS:
        play({"kind": "seat-bot", "bot": bot, "seat": None}, GM, SeededDice(0))
    play({"kind": "start"}, GM, SeededDice(START_DICE))
    moves = 0
    while SESSION.table_move(state) is not None:
        play({"kind": "bot-moves"}, TABLE, SeededDice(moves))
        moves += 1
    return state, log, moves


def _engine_alone(state: BoardTable, steps: int | None = None) -> State:
    """The anchor: the recorded steps (all, or the first `steps`) applied by the engine to
    a copy of the setup."""
    assert state.setup is not None
    game = state.setup.play()
    for step in state.record[:steps]:
        apply_in_place(game, step.action)
    return game


def run() -> None:
    print("## Deadweight board game at a table\n")
    state, log, moves = _played()
    assert SESSION.fold_all(log) == state
    fold = best_seconds(lambda: SESSION.fold_all(log))
    engine = best_seconds(lambda: _engine_alone(state))
    game = _engine_alone(state, len(state.record) // 2)
    round_trip = best_seconds(lambda: from_model(to_model(game)), repeats=20)
    text = state.model_dump_json()
    snapshot = best_seconds(lambda: SESSION.load(state.model_dump_json()), repeats=5)
    steps = len(state.record)
    print(
        f"Four random bots, default rules: {len(log):,} entries, {moves:,} bot moves, "
        f"{steps:,} steps (decisions and chance outcomes); best of 5.\n"
    )
    print("| measure | time | per bot move |\n| --- | ---: | ---: |")
    print(f"| fold every entry from the empty table | {fold:.3f} s | {fold / moves * 1e6:.0f} µs |")
    print(
        f"| anchor: the engine applies the same steps | {engine:.4f} s "
        f"| {engine / moves * 1e6:.1f} µs |"
    )
    print(f"| fold ÷ engine alone | {fold / engine:.0f}× | |")
    print(
        f"| `to_model` + `from_model` of the game at mid-game, once | {round_trip * 1e3:.2f} ms | |"
    )
    print(
        f"| snapshot of the final table ({len(text) / 1024:.0f} KiB JSON) written and loaded "
        f"| {snapshot * 1e3:.1f} ms | |"
    )
    print()
