"""A table's game (docs/rules ENG-14): the setup and every chance node come from the room's
dice and the start's cause stays with the GM; a bot's move is decided into the action it
chose, which folding applies without asking the bot; the finished game is a log `replay`
accepts and a list of boards to step through, built from the record alone; each legal move
names the place it points at."""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterator
from random import Random

import pytest

from tabletop.dice import Draw, ReplayDice, SeededDice
from tabletop.errors import DataError
from tabletop.games.deadweight_board import BoardError, Position
from tabletop.games.deadweight_board.actions import PASS, TRADE, name_of
from tabletop.games.deadweight_board.board import COLOURS
from tabletop.games.deadweight_board.bots import GreedyBot, MctsBot, RandomBot, make_bot
from tabletop.games.deadweight_board.errors import BoardDataError
from tabletop.games.deadweight_board.log import replay
from tabletop.games.deadweight_board.record import KeptGame
from tabletop.games.deadweight_board.rules import legal_actions
from tabletop.games.deadweight_board.session import (
    BOT_SEED_SIDES,
    SESSION,
    BoardTable,
)
from tabletop.games.deadweight_board.setup import new_game
from tabletop.games.deadweight_board.state import bits
from tabletop.games.deadweight_board.targets import target_of, targets
from tabletop.session import TABLE, Event, Member, Visibility

GM = Member.gm()
ANN = Member.player("ann", "Ann")
BEN = Member.player("ben", "Ben")
WATCHER = Member.observer()
BOT_MOVES = {"kind": "bot-moves"}


def play(state: BoardTable, intent: dict, member: Member, dice=None) -> tuple:
    events = SESSION.resolve(state, intent, member, dice or SeededDice(7))
    for event in events:
        state = SESSION.fold(state, event)
    return state, events


def started(options: dict, bots: tuple[str, ...] = ("random", "greedy")) -> tuple:
    """A table of bots, started: the state and every event from the empty table on."""
    state, log = SESSION.new(options), []
    for bot in bots:
        state, events = play(state, {"kind": "seat-bot", "bot": bot, "seat": None}, GM)
        log += events
    state, events = play(state, {"kind": "start"}, GM, SeededDice(11))
    return state, log + events


def to_the_end(state: BoardTable, log: list[Event]) -> tuple[BoardTable, list[Event]]:
    """The bots play on, as the server's table moves do, until the game is over."""
    for step in range(5_000):
        if SESSION.table_move(state) is None:
            return state, log
        state, events = play(state, BOT_MOVES, TABLE, SeededDice(step))
        log = log + events
    raise AssertionError("the game did not end")


@pytest.fixture
def choices(monkeypatch) -> list[str]:
    """Every bot's `choose` call from now on, by bot (the bots are counted, not changed)."""
    calls: list[str] = []
    for bot in (RandomBot, GreedyBot, MctsBot):

        def counted(self, state, _choose=bot.choose, _name=bot.__name__):
            calls.append(_name)
            return _choose(self, state)

        monkeypatch.setattr(bot, "choose", counted)
    return calls


def test_the_setup_is_drawn_from_the_starts_dice_and_only_the_gm_sees_them():
    """ENG-14: no game seed; every die the setup drew is in the start's cause, which a
    hidden event keeps from players and observers (they get its hint)."""
    state, events = started({"turn_cap": 5})
    cause = events[-2].cause
    assert cause is not None and cause.visibility != Visibility.PUBLIC
    replayed = ReplayDice(cause.draws)
    assert KeptGame(new_game(2, state.options, replayed)) == state.game == state.setup
    replayed.check_used_up()
    assert "seed" not in BoardTable.model_fields and state.first_seats == ("random", "greedy")
    for member in (ANN, WATCHER):
        shown = [SESSION.view_event(event, member) for event in events[-2:]]
        assert all(e is not None and e.cause is None for e in shown)
        assert "the board's setup is sealed" in shown[-1].text
    assert SESSION.view_event(events[-2], GM).cause.draws == cause.draws


def test_bot_moves_is_decided_into_the_action_the_bot_chose_with_a_drawn_seed():
    """ENG-09: the cause records the bot, its seed (the resolution's first die) and its
    action; a decision made elsewhere (a worker) with the same dice resolves the same."""
    state, _ = started({"turn_cap": 5})
    events = SESSION.resolve(state, BOT_MOVES, ANN, SeededDice(3))
    cause = events[0].cause
    assert cause.asked == BOT_MOVES and cause.member == ANN
    decided = cause.intent
    seat, spec = decided["seat"], decided["bot"]
    assert decided["kind"] == "bot-act" and seat == SESSION.view(state, GM)["to_decide"]
    assert cause.draws[0] == Draw(sides=BOT_SEED_SIDES, face=decided["seed"])
    chosen = make_bot(spec, decided["seed"]).choose(state.game.play())
    assert decided["action"] == name_of(chosen) == events[0].data["action"]
    assert events[0].text.startswith(f"{seat} ({spec} bot): ")
    decision = SESSION.think(state, BOT_MOVES, ANN, SeededDice(3))
    assert SESSION.resolve(state, BOT_MOVES, ANN, SeededDice(3), decision=decision) == events
    assert SESSION.thinks == frozenset({"bot-moves"})


def test_a_bot_act_is_never_offered_and_is_refused_when_sent():
    state, _ = started({"turn_cap": 5})
    (event, *_) = SESSION.resolve(state, BOT_MOVES, ANN, SeededDice(3))
    for member in (GM, ANN, TABLE):
        assert "bot-act" not in [o.kind for o in SESSION.legal(state, member)]
        with pytest.raises(BoardError, match=r"A bot.s move: .* nobody sends it"):
            SESSION.resolve(state, event.cause.intent, member, SeededDice(3))


def test_folding_a_finished_four_bot_game_asks_no_bot(choices):
    """Issue 21: folding applies the recorded actions; only re-resolving asks a bot."""
    options = {"turn_cap": 24}
    state, log = to_the_end(*started(options, ("random", "greedy", "mcts:8", "random")))
    assert {"RandomBot", "GreedyBot", "MctsBot"} <= set(choices)
    moves = [e for e in log if e.cause is not None and e.cause.asked == BOT_MOVES]
    assert len(moves) == len(choices) > 40
    choices.clear()
    stored = [Event.model_validate_json(event.model_dump_json()) for event in log]
    assert SESSION.fold_all(stored, SESSION.new(options)) == state
    assert choices == []


def test_re_resolving_a_bot_move_asks_the_bot_again_and_finds_a_forged_action(choices):
    """`resolve_again` (what verify runs) asks the bot with the recorded seed; a forged
    action, which folding would apply, is not what the bot gives."""
    state, _ = started({"turn_cap": 5})
    events = SESSION.resolve(state, BOT_MOVES, TABLE, SeededDice(3))
    cause = events[0].cause
    choices.clear()
    assert SESSION.resolve_again(state, cause) == events and len(choices) == 1
    other = next(
        name_of(a) for a in legal_actions(state.game.state) if name_of(a) != cause.intent["action"]
    )
    forged_cause = cause.model_copy(update={"intent": {**cause.intent, "action": other}})
    forged = events[0].model_copy(
        update={"cause": forged_cause, "data": {**events[0].data, "action": other}}
    )
    assert SESSION.fold(state, forged) != SESSION.fold(state, events[0])
    assert SESSION.resolve_again(state, forged_cause)[0] != forged
    reseeded = {**cause.intent, "seed": cause.intent["seed"] % BOT_SEED_SIDES + 1}
    with pytest.raises(DataError, match="bot-act: the bot's seed is"):
        SESSION.fold(
            state,
            events[0].model_copy(update={"cause": cause.model_copy(update={"intent": reseeded})}),
        )
    greedy = {**cause.intent, "bot": "greedy" if cause.intent["bot"] != "greedy" else "random"}
    with pytest.raises(DataError, match="is not held by a"):
        SESSION.fold(
            state,
            events[0].model_copy(update={"cause": cause.model_copy(update={"intent": greedy})}),
        )


def test_a_finished_game_is_a_log_replay_accepts_and_boards_to_step_through(tmp_path, choices):
    """ENG-14: the log is one game of log.py's lines from the recorded setup (seed null),
    built without asking a bot; replay asks every bot again."""
    state, _ = to_the_end(*started({"turn_cap": 4, "chest_visibility": "hidden"}))
    choices.clear()
    record = SESSION.game_record(state, WATCHER)
    assert choices == []
    lines = [json.loads(line) for line in record["log"].splitlines()]
    assert record["file"] == f"deadweight-board-{lines[-1]['hash'][:12]}.jsonl"
    path = tmp_path / record["file"]
    path.write_text(record["log"])
    assert replay(path) == 1
    decisions = [line for line in lines if line["type"] == "decision"]
    assert len(choices) == len(decisions)
    assert lines[0]["seed"] is None and lines[0]["bots"] == ["random", "greedy"]
    assert all(line["bot"] in ("random", "greedy") and line["bot_seed"] for line in decisions)
    assert len(record["steps"]) == len(decisions) + 1
    assert record["steps"][0]["text"] == "the ship is set up"
    assert record["steps"][-1]["state"] == SESSION.view(state, GM)["game"]
    assert SESSION.view(state, ANN)["record"] is True


def test_each_board_of_the_record_names_its_turn_its_player_and_its_events():
    """What a page replays by turn and by player: each board after the setup names the turn
    its decision was taken in and who took it (the seat that was to decide on the board
    before), and tells the decision and what the rules did, a line each, as the table's log
    tells them."""
    state, log = to_the_end(*started({"turn_cap": 4}, bots=("random", "greedy", "random")))
    boards = SESSION.game_record(state, WATCHER)["steps"]
    assert (boards[0]["turn"], boards[0]["by"], boards[0]["events"]) == (0, None, [])
    for before, board in itertools.pairwise(boards):
        assert board["by"] == COLOURS[before["state"]["machine"]["owner"]]
        assert board["turn"] == before["state"]["machine"]["turn"]
        assert board["events"][0] == board["text"].split("; ")[0]
    assert [board["turn"] for board in boards] == sorted(board["turn"] for board in boards)
    assert {board["turn"] for board in boards} == set(range(5))
    bot = re.compile(r"^(Red|Blue|Green) \((random|greedy) bot\): ")  # the log names the bot
    kept = [e for e in log if e.type not in ("seat", "setup", "setup-sealed")]
    told = [bot.sub(r"\1: ", event.text) for event in kept]
    assert [line for board in boards for line in board["events"]] == told


def test_the_record_waits_for_the_end_of_a_started_game():
    state, _ = started({"turn_cap": 5})
    with pytest.raises(BoardError, match="once a game the GM started is over"):
        SESSION.game_record(state, ANN)
    assert SESSION.view(state, ANN)["record"] is False


def test_a_snapshot_round_trips_and_one_whose_record_is_wrong_is_refused():
    """A table saved as JSON loads back equal, its game checked by the strict loader; a
    snapshot with a game seed, without its first holders or with a setup past the lantern
    is refused on load, and one whose steps do not lead to its game when its record is
    written (a load does not re-run the game)."""
    state, _ = to_the_end(*started({"turn_cap": 3}))
    data = json.loads(state.model_dump_json())
    assert SESSION.load(data) == state and SESSION.load(state.model_dump_json()) == state
    for change, problem in (
        ({"seed": 5}, "seed"),
        ({"first_seats": []}, "who first held"),
        ({"setup": data["game"]}, "before the lantern is placed"),
    ):
        with pytest.raises(DataError, match=problem):
            SESSION.load({**data, **change})
    decision = next(i for i, step in enumerate(data["record"]) if step["bot"] and i > 2)
    data["record"][decision]["action"] = PASS
    edited = SESSION.load(data)
    with pytest.raises(BoardDataError, match="table's record"):
        SESSION.game_record(edited, ANN)


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


# secrets ----------------------------------------------------------------------------------


def _four_seats(seed: int) -> Iterator[tuple[BoardTable, list[Event], BoardTable]]:
    """A full four-seat game under hidden chests, Ann and Ben choosing at random and two
    bots moving as the table: each resolution with the table before and after it."""
    choose = Random(seed)
    state = SESSION.new({"chest_visibility": "hidden", "turn_cap": 40})
    opening = [(ANN, {"kind": "take-seat"}), (BEN, {"kind": "take-seat"})]
    opening += [
        (GM, {"kind": "seat-bot", "bot": bot, "seat": None}) for bot in ("greedy", "random")
    ]
    for step, (member, intent) in enumerate([*opening, (GM, {"kind": "start"})]):
        before = state
        state, events = play(state, intent, member, SeededDice(seed * 1000 + step))
        yield before, events, state
    for step in range(5_000):
        if SESSION.view(state, GM)["to_decide"] is None:
            return
        member, intent = TABLE, BOT_MOVES
        if SESSION.table_move(state) is None:
            member = next(
                m for m in (ANN, BEN) if any(o.kind == "act" for o in SESSION.legal(state, m))
            )
            (act,) = [o for o in SESSION.legal(state, member) if o.kind == "act"]
            intent = choose.choice(act.intents)
        before = state
        state, events = play(state, intent, member, SeededDice(seed * 1000 + 10 + step))
        yield before, events, state
    raise AssertionError("the game did not end")


def _face_down(state: BoardTable) -> set[int]:
    game = state.game.state if state.game is not None else None
    return set() if game is None else set(bits(game.pile)) | set(bits(game.discards))


def _cards_named(value) -> Iterator[int]:
    if isinstance(value, dict):
        for key, inner in value.items():
            if key == "card" and isinstance(inner, int):
                yield inner
            yield from _cards_named(inner)
    elif isinstance(value, list | tuple):
        for inner in value:
            yield from _cards_named(inner)


def test_no_player_or_observer_receives_a_face_down_card_or_a_closed_chest():
    """ENG-07, ENG-14, AMB-16: in a whole four-seat game, what Ann, Ben and an observer
    receive of each entry never names a card that stays face down, never shows a hidden
    haul that is not theirs, and carries a cause (with its draws) only for a resolution
    they see whole, never the start's; their views never show a closed chest or the
    face-down cards."""
    hauls = turned_up = causes = 0
    for before, events, after in _four_seats(seed=16):
        staying_down = _face_down(before) & _face_down(after)
        start = events[0].cause.intent["kind"] == "start"
        for member in (ANN, BEN, WATCHER):
            shown = [SESSION.view_event(event, member) for event in events]
            for event, seen in zip(events, shown, strict=True):
                if seen is None:
                    continue
                assert not set(_cards_named(seen.model_dump(mode="json"))) & staying_down
                if seen.type == "chest_opened" and seen.data.get("by") == "walk_the_plank":
                    assert member.id in event.audience
                    hauls += 1
                if seen.cause is not None:
                    assert not start and all(e.seen_by(member) for e in events)
                    causes += 1
            turned_up += sum(1 for seen in shown if seen is not None and seen.type == "card_up")
            game = SESSION.view(after, member)["game"]
            if game is not None and game["machine"]["phase"] != "over":
                assert all(set(chest) == {"hidden"} for chest in game["chests"])
                assert set(game["trade_pile"]["face_down"]) == {"hidden"}
    assert hauls and turned_up and causes
