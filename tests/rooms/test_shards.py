"""A shard worker's rounds, driven in this process without its socket: each room's requests
in arrival order, every append of a round in one transaction (group commit) with each
request undone alone when refused, nothing answered or told before the commit, and nothing
kept, told or half-answered when the commit fails."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from tabletop.rooms import Hall
from tabletop.rooms.messages import (
    Answer,
    Attach,
    Attached,
    Call,
    Caller,
    Chat,
    Failure,
    Fanout,
    PoolAsk,
    PoolDone,
    Read,
    Resolve,
    ShardConfig,
    Think,
)
from tabletop.rooms.pool import Worker
from tabletop.rooms.shards import Shard, _Notified
from tests.rooms.conftest import open_test_store, seat


class Quiet:
    """A channel that keeps what the shard sends."""

    def __init__(self) -> None:
        self.sent: list[Any] = []

    def send(self, message: Any) -> None:
        self.sent.append(message)


@pytest.fixture(params=["sqlite", "postgresql"])
def shard(request, tmp_path):
    store = open_test_store(request.param, request, tmp_path)
    made = Shard(store, Quiet(), ShardConfig(0, store.address, bot_pause=60.0))  # type: ignore[arg-type]
    yield made
    store.close()


def round_of(shard: Shard, *calls: Call) -> list[Any]:
    """Queue the calls, run one round, and what it sent."""
    for call in calls:
        shard._sort(call)
    shard._round(shard._ready())
    sent, shard.out = shard.out, []
    return sent


def roll(number: int, room: str, token: str, notation: str = "1d6") -> Call:
    intent = {"kind": "roll", "notation": notation}
    return Call(number, room, Resolve(Caller(token), intent, f"c{number}"))


def test_a_round_appends_for_several_rooms_in_one_commit_and_a_refusal_alone_is_undone(
    shard, monkeypatch
):
    monkeypatch.setattr("tabletop.rooms.shards.ROUND_TIME", 60.0)  # both rooms in one round
    one, two = seat(shard.hall, "dice"), seat(shard.hall, "dice")
    heads = {r.room: shard.hall.table(r.room).head for r in (one, two)}
    commits = []
    commit = shard.store._commit
    shard.store._commit = lambda: (commits.append(1), commit())[1]  # type: ignore[method-assign]
    sent = round_of(
        shard,
        roll(1, one.room, one.tokens["Ada"]),
        roll(2, two.room, two.tokens["Ada"], "10000d6"),  # refused before any die
    )
    assert len(commits) == 1
    replies = {m.number: m.value for m in sent}
    assert isinstance(replies[1], Answer) and replies[1].seqs == [heads[one.room] + 1]
    assert isinstance(replies[2], Failure) and replies[2].status == 400
    again = Hall(shard.store)
    assert again.table(one.room).head == heads[one.room] + 1
    assert again.table(two.room).head == heads[two.room]


def test_one_rooms_requests_are_taken_in_arrival_order(shard, monkeypatch):
    monkeypatch.setattr("tabletop.rooms.shards.ROUND_TIME", 60.0)  # never cut short here
    room = seat(shard.hall, "dice")
    head = shard.hall.table(room.room).head
    calls = [roll(n, room.room, room.tokens["Ada" if n % 2 else "Bo"]) for n in range(1, 21)]
    first = round_of(shard, *calls)
    second = round_of(shard)
    seqs = [m.value.seqs[0] for m in first + second]
    assert [m.number for m in first + second] == list(range(1, 21))
    assert seqs == list(range(head + 1, head + 21))
    assert len(first) == 16, "a round takes at most 16 requests of one room"


def test_a_round_cut_short_by_time_lets_the_rooms_it_did_not_reach_go_first(shard, monkeypatch):
    monkeypatch.setattr("tabletop.rooms.shards.ROUND_TIME", 0.0)  # one step a round
    rooms = sorted((seat(shard.hall, "dice") for _ in range(3)), key=lambda r: r.room)
    calls = [roll(10 * n + i, r.room, r.tokens["Ada"]) for n, r in enumerate(rooms) for i in (1, 2)]
    served = [m.number for m in round_of(shard, *calls)]
    for _ in range(5):
        served += [m.number for m in round_of(shard)]
    assert served == [1, 11, 21, 2, 12, 22], "a room had its second turn before another's first"


def test_a_failed_commit_keeps_nothing_tells_nothing_and_refuses_every_request(shard):
    room = seat(shard.hall, "dice")
    head = shard.hall.table(room.room).head
    attached = round_of(shard, Call(1, room.room, Attach(room.tokens["Bo"], head)))
    assert isinstance(attached[0].value, Attached)

    def broken() -> None:
        raise OSError("disk full")

    commit = shard.store._commit
    shard.store._commit = broken  # type: ignore[method-assign]
    sent = round_of(shard, roll(2, room.room, room.tokens["Ada"]))
    shard.store._commit = commit  # type: ignore[method-assign]
    assert [type(m) for m in sent] == [type(sent[0])] and not any(
        isinstance(m, Fanout) for m in sent
    )
    assert sent[0].value.status == 503 and "send it again" in sent[0].value.problem
    assert Hall(shard.store).table(room.room).head == head
    again = round_of(shard, roll(3, room.room, room.tokens["Ada"]))
    assert again[-1].value.seqs == [head + 1], "the room was not read again from the store"


def test_fan_out_sends_each_distinct_line_once_with_its_receivers(shard):
    room = seat(shard.hall, "dice")
    head = shard.hall.table(room.room).head
    for number, name in enumerate(("Ada", "Bo", "GM", "Watcher"), start=1):
        round_of(shard, Call(number, room.room, Attach(room.tokens[name], head)))
    whisper = Chat(Caller(room.tokens["Ada"]), "psst", ("Bo",), "w1")
    sent = round_of(shard, Call(9, room.room, whisper))
    fanout = next(m for m in sent if isinstance(m, Fanout))
    (delivery,) = fanout.deliveries
    receivers = sorted(member for _, members in delivery.lines for member in members)
    ada, bo, gm = (room.member(n).id for n in ("Ada", "Bo", "GM"))
    assert receivers == sorted([ada, bo, gm]) and len(delivery.lines) == 1
    assert sent.index(fanout) < next(
        i for i, m in enumerate(sent) if m.__class__.__name__ == "Reply"
    )


def test_a_bots_decision_goes_to_the_pool_and_holds_its_room_not_the_shard(shard):
    board = seat(shard.hall, "deadweight-board")
    dice = seat(shard.hall, "dice")
    gm = Caller(board.tokens["GM"])
    for number, intent in enumerate(
        ({"kind": "seat-bot", "bot": "mcts:50"}, {"kind": "seat-bot", "bot": "greedy"}),
        start=1,
    ):
        round_of(shard, Call(number, board.room, Resolve(gm, intent, f"s{number}")))
    round_of(shard, Call(3, board.room, Resolve(gm, {"kind": "start"}, "go")))
    sent = round_of(shard, Call(4, board.room, Resolve(gm, {"kind": "bot-moves"}, "b1")))
    (asked,) = [m for m in sent if isinstance(m, PoolAsk)]
    assert isinstance(pickle.loads(asked.payload), Think)
    assert not [m for m in sent if getattr(m, "number", None) == 4], "answered before deciding"
    held = round_of(
        shard,
        Call(5, board.room, Read(gm, "view")),
        roll(6, dice.room, dice.tokens["Ada"]),
    )
    assert [m.number for m in held] == [6], "the shard waited for the bot, or the room did not"
    decided = Worker().perform(asked.payload)
    shard._sort(PoolDone(asked.job, pickle.dumps(decided)))
    answered: list[Any] = []
    for _ in range(4):  # a round past ROUND_TIME (a loaded machine) leaves the view to the next
        answered += [m for m in round_of(shard) if hasattr(m, "number")]
    assert [m.number for m in answered] == [4, 5], "the room's view came before the move"
    reply = answered[0]
    assert isinstance(reply.value, Answer) and reply.value.seqs
    cause = shard.hall.entries(board.room, reply.value.seqs[0] - 1)[0].event.cause
    assert cause is not None and cause.intent["kind"] == "bot-act"


def test_a_shard_lets_idle_rooms_go_every_sweep_and_snapshots_all_it_holds_when_it_stops(
    shard, monkeypatch
):
    room = seat(shard.hall, "dice")
    round_of(shard, roll(1, room.room, room.tokens["Ada"]))
    head = shard.hall.table(room.room).head
    monkeypatch.setattr(shard.hall._loaded, "idle", 0.0)
    shard._sweep_at = 0.0
    shard._sweep()
    assert not shard.hall.is_loaded(room.room), "an idle room was kept"
    assert shard.store.snapshot_before(room.room, head + 1)[0] == head  # type: ignore[index]
    other = seat(shard.hall, "dice")
    round_of(shard, roll(2, other.room, other.tokens["Ada"]))
    shard._let_go(shard.hall.let_go_all)
    assert shard.hall.loaded() == []
    head = Hall(shard.store).table(other.room).head
    assert shard.store.snapshot_before(other.room, head + 1)[0] == head  # type: ignore[index]


def test_sockets_of_a_room_let_go_are_told_what_another_process_appended(shard):
    room = seat(shard.hall, "dice")
    head = shard.hall.table(room.room).head
    round_of(shard, Call(1, room.room, Attach(room.tokens["Bo"], head)))
    shard.hall.let_go(room.room)
    elsewhere = Hall(shard.store)  # another process's shard, on the same database
    ada = elsewhere.who(room.room, room.tokens["Ada"])
    elsewhere.act(room.room, ada.id, {"kind": "roll", "notation": "1d6"}, "x1")
    elsewhere.say(room.room, ada.id, "and again", (), "x2")
    shard._sort((room.room, _Notified()))  # PostgreSQL's NOTIFY
    told = [m for m in round_of(shard) if isinstance(m, Fanout)]
    assert [d.seq for m in told for d in m.deliveries] == [head + 1, head + 2]
    shard.hall.let_go(room.room)
    elsewhere.say(room.room, ada.id, "once more", (), "x3")  # its notice not yet here
    sent = round_of(shard, roll(3, room.room, room.tokens["Ada"]))
    seqs = [d.seq for m in sent if isinstance(m, Fanout) for d in m.deliveries]
    assert seqs == [head + 3, head + 4], "the socket missed what the room's reload folded"
