"""Snapshots and bounded rooms: a room loaded from its latest snapshot and the entries after
it is the table the whole log folds to, undo included (across snapshots too); a restart
applies the rules only to what follows the snapshot; a snapshot that does not match the log
is passed over; idle rooms are let go; a loaded room's memory does not grow with its log."""

from __future__ import annotations

import contextlib
import gc
import itertools
import logging
import tempfile
import types
from pathlib import Path
from typing import Any

import pytest
from hypothesis import event, given, settings, target
from hypothesis import strategies as st

from tabletop.errors import TabletopError
from tabletop.games.deadweight_board import session as board
from tabletop.games.deadweight_board.bots import random_bot
from tabletop.rooms import Hall, SqliteStore, Store
from tabletop.rooms.errors import RefusedOnRecord
from tabletop.rooms.ledger import groups
from tabletop.rooms.loaded import WINDOW
from tabletop.rooms.log import Entry
from tabletop.rooms.postgres import PostgresStore
from tabletop.rooms.snapshots import encode
from tabletop.rooms.table import Table, fold
from tabletop.session import Event, Session
from tests.effort import tried
from tests.rooms.conftest import new_database

SMALL = 3
"""Entries between snapshots in these tests: most undos reach back past one."""


def whole_log(store: Store, room: str, upto: int | None = None) -> Table:
    """The table the room's whole log (to `upto`) folds to, its history in memory."""
    return fold([Entry.from_text(body) for body in store.entries(room, 0, upto)])


def same_table(found: Table, expected: Table, store: Store, room: str) -> None:
    """Every field of the two tables, and what each ledger answers, are the same."""
    assert encode(found) == encode(expected)  # the state and every field Table keeps
    assert found.state == expected.state
    assert (found.room, found.system, found.options) == (
        expected.room,
        expected.system,
        expected.options,
    )
    assert found.last_in_force() == expected.last_in_force()
    for group in groups([Entry.from_text(body) for body in store.entries(room)]):
        first = group[0].seq
        assert found.ledger.last_of(first) == expected.ledger.last_of(first) == group[-1].seq


def snapshots_of(store: Store, room: str) -> list[tuple[int, str]]:
    rows = store._execute("SELECT seq, body FROM snapshots WHERE room = ? ORDER BY seq", (room,))
    return [(int(seq), str(body)) for seq, body in rows.fetchall()]


def some_intent(data: st.DataObject, table: Table, member_id: str) -> dict[str, Any] | None:
    """An intent the system offers this member now, its fields filled from the offer."""
    offers = [
        o for o in table.session.legal(table.state, table.member(member_id)) if o.kind != "roll"
    ]
    if not offers:
        return None
    chosen = data.draw(st.sampled_from(offers))
    if chosen.closed:
        return dict(data.draw(st.sampled_from(chosen.intents)))
    intent: dict[str, Any] = {"kind": chosen.kind}
    for name, field in chosen.fields.items():
        if field.values:
            intent[name] = data.draw(st.sampled_from(field.values))
        elif field.example is not None:
            intent[name] = field.example
    return intent


STEPS = ("roll", "intent", "intent", "undo", "undo", "undo", "chat", "kick", "join", "end", "table")
NOTATIONS = ("1d6", "2d8kh1", "1/((20-1d20)/6)", "1d0")
"""A roll, a refusal on the record for some faces (a d20 of 15 or more), one refused before
any die is drawn."""


ROOM_SYSTEMS = ("dead-weight", "deadweight-board", "dice", "ap2d6", "constitution", "rollunder")


@settings(max_examples=tried(60))
@given(
    system=st.sampled_from(ROOM_SYSTEMS),
    steps=st.lists(st.sampled_from(STEPS), min_size=15, max_size=60),
    data=st.data(),
)
def test_a_snapshot_and_its_tail_fold_to_the_table_the_whole_log_folds_to(system, steps, data):
    with tempfile.TemporaryDirectory() as folder:
        store = SqliteStore(Path(folder) / "rooms.sqlite3")
        try:
            seeds = itertools.count()  # the same dice every run: hypothesis replays a scene
            hall = Hall(store, seeds=lambda: next(seeds).to_bytes(32), snapshot_every=SMALL)
            made = hall.create(system, "the crypt")
            room, invites = made.extra["room"], made.extra["tokens"]
            players = [hall.join(room, invites["player"], "Ada").extra["member"]]
            crossed = 0
            for number, step in enumerate(steps):
                table = hall.table(room)
                who = data.draw(st.sampled_from(["m1", *players]))
                if step == "undo" and table.last_in_force() is not None:
                    latest = store.snapshot_before(room, table.head + 1)
                    crossed += latest is not None and table.last_in_force()[0] <= latest[0]
                with contextlib.suppress(TabletopError):  # refused: nothing changed
                    _play(hall, room, step, who, players, number, data)
            event(f"undos reaching back past a snapshot: {min(crossed, 5)}{'+' * (crossed >= 5)}")
            target(float(crossed), label="undos reaching back past a snapshot")
            live = hall.table(room)
            whole = whole_log(store, room)
            same_table(live, whole, store, room)
            same_table(Hall(store, snapshot_every=SMALL).table(room), whole, store, room)
            for seq, body in snapshots_of(store, room):
                assert body == encode(whole_log(store, room, seq)), f"the snapshot at {seq}"
        finally:
            store.close()


def _play(
    hall: Hall,
    room: str,
    step: str,
    who: str,
    players: list[str],
    number: int,
    data: st.DataObject,
) -> None:
    """One step of a random scene, as `who` where a member asks."""
    table, client = hall.table(room), f"c{number}"
    if step == "roll":
        notation = data.draw(st.sampled_from(NOTATIONS))
        mode = data.draw(st.sampled_from(["public", "blind", "self"]))
        hall.act(room, who, {"kind": "roll", "notation": notation, "mode": mode}, client)
    elif step == "intent":
        intent = some_intent(data, table, who)
        if intent is not None:
            hall.act(room, who, intent, client)
    elif step == "undo":
        hall.undo(room, "m1")
    elif step == "chat":
        to = tuple(table.member(p).name for p in players[:1] if p != who)
        hall.say(room, who, f"line {number}", data.draw(st.sampled_from([(), to])), client)
    elif step == "kick" and players:
        hall.kick(room, "m1", table.member(players.pop()).name)
    elif step == "join":
        made = hall.rotate_invites(room, "m1").extra["tokens"]
        players.append(hall.join(room, made["player"], f"P{number}").extra["member"])
    elif step == "end":
        hall.end_session(room, "m1")
    elif step == "table":
        hall.table_move(room)


def test_an_undo_past_a_snapshot_refolds_from_the_one_before_it_not_from_the_start(
    hall, monkeypatch
):
    small = Hall(hall.store, snapshot_every=SMALL)
    room = small.create("dice").extra["room"]
    for number in range(12):
        small.act(room, "m1", {"kind": "roll", "notation": "1d6"}, f"r{number}")
    while small.store.snapshot_before(room, small.table(room).head + 1)[0] < small.table(room).head:
        small.act(room, "m1", {"kind": "roll", "notation": "1d6"}, f"r{small.table(room).head}")
    taken = small.table(room).last_in_force()
    assert taken == (small.table(room).head, small.table(room).head)  # a snapshot holds it
    earlier = small.store.snapshot_before(room, taken[0])
    assert earlier is not None and earlier[0] > 3  # not the start
    folded: list[Event] = []
    real_fold = Session.fold

    def counting(self: Session[Any], state: Any, made: Event) -> Any:
        folded.append(made)
        return real_fold(self, state, made)

    monkeypatch.setattr(Session, "fold", counting)
    small.undo(room, "m1")
    assert len(folded) == taken[0] - earlier[0] - 1  # the rolls from that snapshot on
    head = small.table(room).head
    assert all(seq < taken[0] or seq == head for seq, _ in snapshots_of(small.store, room))
    monkeypatch.undo()
    same_table(small.table(room), whole_log(small.store, room), small.store, room)


def _board_room(hall: Hall, moves: int) -> str:
    """A board room of four random bots, `moves` moves into its game."""
    room = hall.create("deadweight-board").extra["room"]
    for seat in range(4):
        hall.act(room, "m1", {"kind": "seat-bot", "bot": "random"}, f"seat-{seat}")
    hall.act(room, "m1", {"kind": "start"}, "start")
    for _ in range(moves):
        hall.table_move(room)
    return room


def test_a_restart_applies_the_rules_only_to_the_entries_after_the_snapshot(tmp_path, monkeypatch):
    store = SqliteStore(tmp_path / "rooms.sqlite3")
    playing = Hall(store, snapshot_every=50)
    room = _board_room(playing, 120)
    while store.snapshot_before(room, store.head(room) + 1)[0] == store.head(room):
        playing.table_move(room)  # the game goes on past its latest snapshot
    snapshot = store.snapshot_before(room, store.head(room) + 1)
    assert snapshot is not None and 0 < store.head(room) - snapshot[0] < 50
    after = [Entry.from_text(body) for body in store.entries(room, snapshot[0])]
    folded: list[Event] = []
    applied: list[Any] = []
    chosen: list[Any] = []
    real_fold, real_apply = Session.fold, board.BoardSession.apply
    real_choose = random_bot.RandomBot.choose

    def fold_counted(self: Session[Any], state: Any, made: Event) -> Any:
        folded.append(made)
        return real_fold(self, state, made)

    def apply_counted(self: Any, state: Any, intent: Any, member: Any, dice: Any) -> Any:
        applied.append(intent)
        return real_apply(self, state, intent, member, dice)

    def choose_counted(self: Any, game: Any) -> int:
        chosen.append(game)
        return real_choose(self, game)

    monkeypatch.setattr(Session, "fold", fold_counted)
    monkeypatch.setattr(board.BoardSession, "apply", apply_counted)
    monkeypatch.setattr(random_bot.RandomBot, "choose", choose_counted)
    restarted = Hall(store, snapshot_every=50)
    table = restarted.table(room)
    resolutions = [e for e in after if e.event.cause is not None and not e.is_room_event]
    assert folded == [e.event for e in after if not e.is_room_event]
    assert len(applied) == len(resolutions)
    undecided = [e for e in resolutions if e.event.cause.intent["kind"] == "bot-moves"]
    assert len(chosen) == len(undecided)  # a bot thinks again only where no decision is kept
    monkeypatch.undo()
    same_table(table, whole_log(store, room), store, room)
    store.close()


def test_a_snapshot_that_does_not_match_the_log_is_passed_over_and_said_so(hall, caplog):
    small = Hall(hall.store, snapshot_every=SMALL)
    room = small.create("dice").extra["room"]
    for number in range(10):
        small.act(room, "m1", {"kind": "roll", "notation": "1d6"}, f"r{number}")
    store = small.store
    *_, (oldest, _), (earlier, _), (latest, body) = snapshots_of(store, room)
    store._execute(
        "UPDATE snapshots SET hash = ? WHERE room = ? AND seq = ?", ("0" * 64, room, latest)
    )
    store._execute(  # the table at another entry, kept under this one's seq
        "UPDATE snapshots SET body = ? WHERE room = ? AND seq = ?", (body, room, earlier)
    )
    with caplog.at_level(logging.WARNING, logger="tabletop.rooms"):
        table = Hall(store, snapshot_every=SMALL).table(room)
    assert f"room {room}: the snapshot at entry {latest} does not match the log" in caplog.text
    assert f"the snapshot at entry {earlier} is passed over" in caplog.text
    assert f"entry {oldest}" not in caplog.text  # the one loaded from
    same_table(table, whole_log(store, room), store, room)


def test_a_snapshot_of_another_version_or_broken_json_is_passed_over(hall, caplog):
    small = Hall(hall.store, snapshot_every=SMALL)
    room = small.create("dice").extra["room"]
    for number in range(4):
        small.act(room, "m1", {"kind": "roll", "notation": "1d6"}, f"r{number}")
    [(seq, body)] = snapshots_of(small.store, room)[-1:]
    for broken in (body.replace('"version":1', '"version":99'), body[:-5], "[]"):
        small.store._execute(
            "UPDATE snapshots SET body = ? WHERE room = ? AND seq = ?", (broken, room, seq)
        )
        with caplog.at_level(logging.WARNING, logger="tabletop.rooms"):
            table = Hall(small.store).table(room)
        assert f"the snapshot at entry {seq} is passed over" in caplog.text
        same_table(table, whole_log(small.store, room), small.store, room)


class Clock:
    def __init__(self) -> None:
        self.now = 1_767_225_600.0

    def __call__(self) -> float:
        return self.now


def test_an_idle_room_is_let_go_snapshotted_and_loaded_again_from_its_snapshot(hall):
    clock = Clock()
    rooms = Hall(hall.store, clock=clock, idle=60)
    quiet = rooms.create("dice").extra["room"]
    busy = rooms.create("dice").extra["room"]
    rooms.act(quiet, "m1", {"kind": "roll", "notation": "1d6"}, "r1")
    rooms.act(busy, "m1", {"kind": "roll", "notation": "1d6"}, "r1")
    assert set(rooms.loaded()) == {quiet, busy}
    clock.now += 45
    rooms.act(busy, "m1", {"kind": "roll", "notation": "1d6"}, "r2")
    clock.now += 30
    assert rooms.let_go_idle() == [quiet]
    assert rooms.loaded() == [busy]
    head = hall.store.head(quiet)
    assert hall.store.snapshot_before(quiet, head + 1)[0] == head  # snapshotted as it went
    clock.now += 120
    rooms.table(busy)  # any use lets the idle ones go
    assert rooms.loaded() == [busy]
    assert rooms.table(quiet).head == head
    same_table(rooms.table(quiet), whole_log(hall.store, quiet), hall.store, quiet)


def test_an_unloaded_room_is_loaded_again_from_the_store_as_it_is_there(hall):
    small = Hall(hall.store, snapshot_every=SMALL)
    room = small.create("dice").extra["room"]
    for number in range(5):
        small.act(room, "m1", {"kind": "roll", "notation": "1d6"}, f"r{number}")
    kept = hall.store.snapshot_before(room, small.table(room).head + 1)
    small.unload(room)  # as after a failed commit: no snapshot is written
    assert not small.is_loaded(room)
    assert hall.store.snapshot_before(room, 10**9) == kept
    same_table(small.table(room), whole_log(hall.store, room), hall.store, room)
    assert small.is_loaded(room)


def test_past_its_count_a_hall_lets_the_least_recently_used_room_go(hall):
    rooms = Hall(hall.store, most=2)
    made = [rooms.create("dice").extra["room"] for _ in range(3)]
    for room in made:
        rooms.act(room, "m1", {"kind": "roll", "notation": "1d6"}, "r1")
    assert rooms.loaded() == made[1:]
    rooms.table(made[1])
    rooms.table(made[0])
    assert rooms.loaded() == [made[1], made[0]]
    with pytest.raises(ValueError):
        Hall(hall.store, most=0)


def _held(root: object, kind: type) -> int:
    """How many objects of `kind` `root` holds, however deep (not through classes,
    modules or functions: what the program shares, not what this object keeps)."""
    seen, waiting, found = {id(root)}, [root], 0
    while waiting:
        here = waiting.pop()
        found += isinstance(here, kind)
        for inner in gc.get_referents(here):
            if id(inner) in seen or isinstance(inner, type | types.ModuleType | types.FunctionType):
                continue
            seen.add(id(inner))
            waiting.append(inner)
    return found


@pytest.mark.stress
def test_a_loaded_rooms_memory_does_not_grow_with_its_log(tmp_path):
    store = SqliteStore(tmp_path / "rooms.sqlite3")
    hall = Hall(store, snapshot_every=50)
    room = hall.create("dice").extra["room"]
    counts = []
    for rounds in (300, 3_000):
        while hall.table(room).head < rounds:
            number = hall.table(room).head
            hall.act(room, "m1", {"kind": "roll", "notation": "1d6"}, f"r{number}")
            if number % 7 == 0:
                hall.undo(room, "m1")
        counts.append((_held(hall, Entry), _held(hall, Event)))
    assert counts[1][0] == WINDOW, counts  # the window of latest entries, and no more
    assert counts[1] == counts[0], counts  # what a tenfold log adds to memory: nothing
    assert len(hall.entries(room)) >= 3_000  # the log itself stays in the store
    store.close()


def _reopened(store: Store) -> Store:
    """The same database opened again (its migrations run)."""
    store.close()
    if isinstance(store, SqliteStore):
        return SqliteStore(store.path)
    assert isinstance(store, PostgresStore)
    return PostgresStore(store.url)


def test_a_room_of_an_older_store_has_its_resolutions_indexed_when_the_store_opens(tmp_path):
    _index_is_rebuilt(SqliteStore(tmp_path / "rooms.sqlite3"))


def test_a_postgresql_store_of_rooms_before_snapshots_is_indexed_when_it_opens(request):
    _index_is_rebuilt(PostgresStore(new_database(request.getfixturevalue("postgres"))))


def _index_is_rebuilt(store: Store) -> None:
    hall = Hall(store)
    room = hall.create("dice").extra["room"]
    for number in range(6):
        hall.act(room, "m1", {"kind": "roll", "notation": "1d6"}, f"r{number}")
        if number % 2:
            hall.undo(room, "m1")
    with contextlib.suppress(RefusedOnRecord):  # a d20 of 15 or more: a refusal on the record
        hall.act(room, "m1", {"kind": "roll", "notation": "1/((20-1d20)/6)"}, "probe", "p")
    index = "SELECT first_seq, last_seq, counts, undone FROM resolutions ORDER BY first_seq"
    before = store._execute(index).fetchall()
    assert len(before) == 7
    store._execute("DELETE FROM resolutions")
    store._execute("UPDATE schema_version SET version = 3")  # as before the index existed
    reopened = _reopened(store)
    assert reopened._execute(index).fetchall() == before
    same_table(Hall(reopened).table(room), whole_log(reopened, room), reopened, room)
    reopened.close()
