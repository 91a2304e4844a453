"""Leases on PostgreSQL (leases.py, leased.py): a room's lease is taken only when it is free,
expired or the taker's own, renewed while held, given up on a clean stop; an append checks
it inside its own transaction, so an owner that lost it appends nothing; a shard never reads
the log of a room it does not hold. Leases here last about a second, and every wait is for
a condition the database shows, with a generous deadline."""

from __future__ import annotations

import contextlib
import secrets
import threading
import time
from collections.abc import Callable, Iterator

import psycopg
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.errors import TabletopError
from tabletop.rooms import Hall
from tabletop.rooms.errors import BadLink, Elsewhere, Fenced, RoomError, Unkept
from tabletop.rooms.leased import LeasedStore
from tabletop.rooms.leases import Busy, Taken
from tabletop.rooms.postgres import PostgresStore
from tabletop.rooms.store import NOTIFY_CHANNEL
from tests.effort import tried
from tests.rooms.conftest import SLIPPERY, fixed_seeds, new_database

LEASE = 1.0
"""Seconds each test's leases last, unless one must stay held whatever the machine's load."""

LONG = 15.0
"""Seconds of a lease that must not expire while a test asks a few questions (renewed, when
a test renews it, every three seconds)."""

DEADLINE = 30.0
"""Seconds any condition may take to come true on a busy machine."""

D6 = {"kind": "roll", "notation": "1d6"}


def until(condition: Callable[[], object], what: str) -> None:
    deadline = time.monotonic() + DEADLINE
    while not condition():
        assert time.monotonic() < deadline, f"waited {DEADLINE:g} s for {what}"
        time.sleep(0.05)


@pytest.fixture
def database(postgres) -> str:
    return new_database(postgres)


@pytest.fixture
def stores(database) -> Iterator[Callable[[str], LeasedStore]]:
    """Shards' stores on one database, each owner its own."""
    opened: list[LeasedStore] = []

    def open_as(owner: str, lease: float = LEASE) -> LeasedStore:
        store = LeasedStore(database, owner, lease)
        opened.append(store)
        return store

    yield open_as
    for store in opened:
        store.close()


@pytest.fixture
def room(database) -> tuple[str, str]:
    """A dice room made by a process that holds no lease (making a room takes none), and
    its GM's member id."""
    store = PostgresStore(database)
    made = Hall(store).create("dice", "the crypt")
    store.close()
    return made.extra["room"], "m1"


def lease_row(database: str, room: str) -> tuple[str, int, bool] | None:
    with psycopg.connect(database, autocommit=True) as db:
        row = db.execute(
            "SELECT owner, epoch, expires <= clock_timestamp() FROM leases WHERE room = %s",
            (room,),
        ).fetchone()
    return None if row is None else (row[0], row[1], row[2])


def expiry(database: str, room: str) -> float:
    """The room's lease's expiry, in seconds of the database's clock."""
    with psycopg.connect(database, autocommit=True) as db:
        row = db.execute(
            "SELECT EXTRACT(EPOCH FROM expires)::float8 FROM leases WHERE room = %s", (room,)
        ).fetchone()
    assert row is not None
    return float(row[0])


def lapse(database: str, room: str) -> None:
    """Make a long lease end a second from now, as if its owner had stopped renewing it."""
    with psycopg.connect(database, autocommit=True) as db:
        db.execute(
            "UPDATE leases SET expires = clock_timestamp() + interval '1 second' WHERE room = %s",
            (room,),
        )


def expired(database: str, room: str) -> bool:
    row = lease_row(database, room)
    return row is not None and row[2]


def roll(hall: Hall, room: str, member: str, client: str) -> list[int]:
    done = hall.act(room, member, D6, client)
    return [e.seq for e in done.entries]


def test_a_free_lease_is_taken_and_its_renewals_keep_it(stores, database, room):
    name, _ = room
    one = stores("one")
    assert one.take(name) == Taken(1)
    assert one.holds(name)
    first = expiry(database, name)
    stop = one.start_renewing(lambda lost: pytest.fail(f"lost {lost}"))
    try:
        # renewed every fifth of a lease: the expiry moves on, the owner and epoch stay
        until(lambda: expiry(database, name) > first + 2 * LEASE, "renewals to go on")
    finally:
        stop()
    assert lease_row(database, name)[:2] == ("one", 1)  # type: ignore[index]
    assert one.holds(name)


def test_a_held_lease_is_taken_only_once_it_has_expired(stores, database, room):
    name, _ = room
    one, two = stores("one", lease=LONG), stores("two")
    assert one.take(name) == Taken(1)
    busy = two.take(name)
    assert isinstance(busy, Busy) and busy.owner == "one" and 0 < busy.left <= LONG
    assert lease_row(database, name) == ("one", 1, False)
    lapse(database, name)  # as if its owner had died: no renewal since
    until(lambda: expired(database, name), "the lease to expire unrenewed")
    assert two.take(name) == Taken(2)
    assert lease_row(database, name)[:2] == ("two", 2)  # type: ignore[index]
    lost: list[str] = []
    stop = one.start_renewing(lost.append)
    try:
        until(lambda: lost, "the old owner's renewal to find the lease taken")
    finally:
        stop()
    assert lost == [name] and not one.holds(name)
    until(lambda: expired(database, name), "the new owner's lease to expire unrenewed")
    assert one.take(name) == Taken(3)


def test_an_owner_takes_its_own_lease_back_at_once_with_a_new_epoch(stores, database, room):
    """A shard started again in a dead one's place has the same owner name: it need not wait
    for the lease to expire, and the new epoch fences whatever the old one still holds."""
    name, member = room
    old, new = stores("shard-0"), stores("shard-0")
    assert old.take(name) == Taken(1)
    assert new.take(name) == Taken(2)
    with pytest.raises(Fenced):
        roll(Hall(old), name, member, "from-the-old-one")
    assert roll(Hall(new), name, member, "from-the-new-one") == [3]


def test_a_released_lease_is_taken_at_once_and_its_epoch_goes_on(stores, database, room):
    name, _ = room
    one, two = stores("one"), stores("two")
    assert one.take(name) == Taken(1)
    one.release()
    assert not one.holds(name)
    assert lease_row(database, name) == ("one", 1, True)
    assert two.take(name) == Taken(2)


def test_no_lease_is_taken_for_a_room_that_does_not_exist(stores, database):
    assert stores("one").take("no-such-room") is None
    assert lease_row(database, "no-such-room") is None


def test_an_append_after_the_lease_was_taken_over_is_refused_and_keeps_nothing(
    stores, database, room
):
    name, member = room
    one, two = stores("one"), stores("two")
    first, second = Hall(one), Hall(two)
    assert one.take(name) == Taken(1)
    assert roll(first, name, member, "a") == [3]
    until(lambda: expired(database, name), "the lease to expire unrenewed")
    assert two.take(name) == Taken(2)
    with pytest.raises(Fenced, match="no longer serves"):
        roll(first, name, member, "b")
    assert name in one.fenced and not one.holds(name)
    assert [e.seq for e in second.entries(name)] == [1, 2, 3]
    assert roll(second, name, member, "b") == [4]  # the same request, sent again, is kept once
    with psycopg.connect(database, autocommit=True) as db:
        kept = db.execute("SELECT count(*) FROM entries WHERE client = 'b'").fetchone()
    assert kept == (1,)
    # the old owner's connection left its refused transaction: it can ask for the lease
    # again (told who holds it, or taking it once the new owner, renewing nothing, lets go)
    assert isinstance(one.take(name), Busy | Taken)


@pytest.mark.parametrize("foreseen", [False, True])
def test_in_a_round_a_room_taken_over_is_refused_and_the_others_appends_are_kept(
    stores, database, room, foreseen
):
    """In a round the lease check's answer is read with the request's next
    (leased.py, `_lock_room`), or, foreseen, at the round's opening (`foresee`): a room
    found taken over is refused with `Fenced` even when its request failed first for
    another reason (the rules ran on a table that may be old), and nothing of it is kept,
    while another room's appends in the same round are."""
    name, member = room
    other = Hall(PostgresStore(database)).create("dice", "the other crypt").extra["room"]
    one, two = stores("one"), stores("two")
    first = Hall(one)
    assert one.take(name) == Taken(1)
    first.table(name)
    until(lambda: expired(database, name), "the lease to expire unrenewed")
    assert two.take(name) == Taken(2)
    assert one.take(other) == Taken(1)
    first.table(other)
    with one.batch():
        if foreseen:
            one.foresee(
                {
                    other: [("m1", "kept", None), ("m1", "kept too", None)],
                    name: [(member, "b", None), ("m9", "c", None)],
                }
            )
        assert roll(first, other, "m1", "kept") == [3]
        with pytest.raises(Fenced, match="no longer serves"):
            roll(first, name, member, "b")
        with pytest.raises(Fenced, match="no longer serves"):
            roll(first, name, "m9", "c")  # no such member: that is not what it is told
        assert roll(first, other, "m1", "kept too") == [4]
    assert name in one.fenced
    with psycopg.connect(database, autocommit=True) as db:
        rows = db.execute("SELECT room, client FROM entries WHERE client IS NOT NULL").fetchall()
    assert sorted(rows) == [(other, "kept"), (other, "kept too")]


@pytest.mark.parametrize("refused_at", [0, 1, 2, 3])
def test_in_a_round_a_write_the_database_refuses_loses_the_whole_round(
    stores, database, room, refused_at
):
    """A round does not wait for a request's writes (leased.py, `_settle`): they go with the
    next request's reads, or with the commit. The lease means nobody else writes the room,
    so the database refuses a write only when it is failing, and the refusal may surface in
    a later request: every request after it is refused, nothing of the round is kept, and
    its commit is refused (`Unkept`, or the error itself when the commit is what reads it).
    The next round appends on the same connection."""
    name, member = room
    one = stores("one", lease=LONG)
    hall = Hall(one)
    assert one.take(name) == Taken(1)
    hall.table(name)
    head = one.head(name)
    told = []
    with pytest.raises((Unkept, psycopg.IntegrityError)) as lost, one.batch():
        for number in range(4):
            if number == refused_at:
                with contextlib.suppress(psycopg.Error), one.locked(name):
                    one.head(name)  # a read first, as a request's resent-id check is
                    one.append(name, [(head, "m1", None, None, "{}")])  # that seq is taken
            if number < 3:
                try:
                    told.append(roll(hall, name, member, f"lost-{number}"))
                except psycopg.Error:
                    told.append("refused")
    # Its own request may hear of it (its release, sent after the write, may bring the
    # answer back in time); after the last request, the commit may be what reads it.
    expected = (Unkept, psycopg.errors.UniqueViolation) if refused_at == 3 else Unkept
    assert isinstance(lost.value, expected)
    assert told == [[head + 1 + n] for n in range(refused_at)] + ["refused"] * (3 - refused_at)
    assert one.head(name) == head
    hall.unload(name)  # as the shard does with every room of a round that was not kept
    with one.batch():
        assert roll(hall, name, member, "after") == [head + 1]


def rolls(hall: Hall, room: str, *clients: str) -> list[list[int]]:
    """The GM's rolls under these client ids, each answered with its seqs."""
    return [roll(hall, room, "m1", client) for client in clients]


def test_a_foreseen_round_is_two_round_trips_however_many_requests_it_holds(stores, database):
    """leased.py, `foresee`: the round's opening locks its rooms, checks their leases and
    reads every resent-id and spent-nonce check at once; each request then waits for no
    answer, and the commit carries every write: two messages to PostgreSQL in all, once
    each room is loaded (a format-2 room also reads its dice seed once a dice session)."""
    one = stores("one", lease=LONG)
    hall = Hall(one)
    rooms = [Hall(PostgresStore(database)).create("dice", name).extra["room"] for name in "ab"]
    for name in rooms:
        assert one.take(name) == Taken(1)
        hall.table(name)
    with one.batch():
        assert rolls(hall, rooms[0], "seed") == rolls(hall, rooms[1], "seed") == [[3]]
    sent: list[list[str]] = []
    send = one._send

    def counted() -> None:
        sent.append([text.split(" ")[0] for text, _ in one._waiting or ()])
        send()

    one._send = counted  # type: ignore[method-assign]
    for round_ in range(2):  # the first sends its statements bound, the next prepared
        sent.clear()
        clients = [f"{round_}-{n}" for n in range(3)]
        with one.batch():
            one.foresee({name: [("m1", client, None) for client in clients] for name in rooms})
            told = [rolls(hall, name, *clients) for name in rooms]
        assert told == [[[4 + 3 * round_ + n] for n in range(3)]] * 2
        assert len(sent) == 2 and sent[0][0] == "BEGIN" and sent[1][-1] == "COMMIT"
        assert "SAVEPOINT" not in sent[1]  # none is taken: nothing of a request is sent early
    assert [one.head(name) for name in rooms] == [9, 9]
    plans = one._db.execute(
        "SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements "
        "WHERE name LIKE 'tabletop%'"
    ).fetchall()
    assert any("unnest" in text and generic > 0 for text, generic, _ in plans)
    assert [text for text, _, custom in plans if custom] == []  # each planned once (connect)


CHECKS = st.tuples(
    st.sampled_from(["m1", "m2"]),
    st.sampled_from(["a", "b", "c"]),
    st.sampled_from([None, "x", "y"]),
    st.booleans(),
    st.booleans(),
)
"""A request's actor, client id and nonce; whether it fails after appending; whether the
test asks the database too (which sends what waits, and so takes the request's savepoint:
otherwise undoing it is dropping its statements unsent)."""


class Refused(Exception):
    """A request that fails after it appended (its savepoint is undone)."""


def test_a_foreseen_check_answers_as_the_database_would(stores):
    """docs/rooms.md, "What the lease saves": what `sent_before` answers from the round's
    opening, with what the round appended and undid since, is what the database says in
    the same transaction, request by request: a resent id, a spent nonce, a request undone
    in the round (its savepoint taken, or its statements dropped unsent) and sent again,
    across rounds. One store, a new room each example."""
    one = stores("one", lease=LONG)

    @settings(max_examples=tried(60), deadline=None, derandomize=True)
    @given(rounds=st.lists(st.lists(CHECKS, min_size=1, max_size=6), min_size=1, max_size=3))
    def check(rounds: list[list[tuple[str, str, str | None, bool, bool]]]) -> None:
        room = f"r{secrets.token_hex(4)}"
        with one.locked():
            one.add_room(room, "dice", "00", 0)
        head = 0
        for requests in rounds:
            with one.batch():
                one.foresee({room: [request[:3] for request in requests]})
                for actor, client, nonce, fails, ask in requests:
                    with contextlib.suppress(Refused), one.locked(room):
                        told = one.sent_before(room, actor, client, nonce)
                        if ask:
                            truth = PostgresStore.sent_before(one, room, actor, client, nonce)
                            assert told == truth
                        if told == (None, None):
                            one.append(room, [(head + 1, actor, client, nonce, "{}")])
                            if fails:
                                raise Refused
                            head += 1
            assert one.entries(room) == ["{}"] * head

    check()


@pytest.fixture
def owner(stores, room) -> tuple[LeasedStore, Hall, str, str]:
    """A shard's store holding the room's lease (long), its hall with the room loaded, the
    room and its GM."""
    name, member = room
    one = stores("one", lease=LONG)
    hall = Hall(one, seeds=fixed_seeds())
    assert one.take(name) == Taken(1)
    hall.table(name)
    return one, hall, name, member


def test_a_foreseen_round_answers_a_resend_once_and_a_spent_nonce_with_a_refusal(owner):
    """The hall's own path through a foreseen round: a roll sent again in the same round is
    the first one's answer; a nonce already spent in the round is refused; a roll the rules
    refuse before any die is undone and, mended and sent again, appended; a roll sent again
    in the next round is still the first one's answer."""
    one, hall, name, member = owner
    with one.batch():
        one.foresee({name: [(member, c, n) for c, n in [("a", None), ("b", "n"), ("c", "n")]]})
        first = hall.act(name, member, D6, "a")
        assert hall.act(name, member, D6, "a").duplicate
        assert [e.seq for e in hall.act(name, member, D6, "b", "n").entries] == [4]
        with pytest.raises(RoomError, match="already named entry 4"):
            hall.act(name, member, D6, "c", "n")
        with pytest.raises(TabletopError):
            hall.act(name, member, {"kind": "roll", "notation": "1d0"}, "d")
        assert [e.seq for e in hall.act(name, member, D6, "d").entries] == [5]
    with one.batch():
        one.foresee({name: [(member, "a", None), (member, "d", None)]})
        again = hall.act(name, member, D6, "a")
        assert again.duplicate and again.entries == first.entries
        assert hall.act(name, member, D6, "d").duplicate
    assert one.head(name) == 5


def test_a_foreseen_check_reads_a_hostile_client_id_and_nonce_exactly(owner):
    """A round's opening binds client ids and nonces as array literals (psycopg's quoting):
    text built to break a wrong quoting, the array syntax's own braces, commas and quotes,
    and a nonce spelled NULL come back as the same keys, so a resend and a spent nonce are
    answered from the opening, as the database would answer them."""
    one, hall, name, member = owner
    client, nonce = SLIPPERY + '{a,"b"}\\', "NULL"
    with one.batch():
        assert [e.seq for e in hall.act(name, member, D6, client, nonce).entries] == [3]
    with one.batch():
        one.foresee({name: [(member, client, nonce), (member, "other", nonce)]})
        assert one._foreseen == {
            (name, member, client, nonce): (3, 3),
            (name, member, "other", nonce): (None, 3),
        }
        assert hall.act(name, member, D6, client, nonce).duplicate
        with pytest.raises(RoomError, match="already named entry 3"):
            hall.act(name, member, D6, "other", nonce)
    assert one.head(name) == 3


def test_an_append_that_passed_the_check_holds_off_a_take_until_it_commits(stores, database, room):
    """The check reads the lease row FOR KEY SHARE inside the append's transaction, and a
    take locks it FOR UPDATE: the take waits, so the append that passed is in the log
    before the new owner reads it."""
    name, member = room
    # a long lease (PostgreSQL ends a session idle in a transaction after three), made to
    # expire by hand, as if its owner had stopped renewing it
    one, two = stores("one", lease=LONG), stores("two")
    first = Hall(one)
    assert one.take(name) == Taken(1)
    first.table(name)
    lapse(database, name)
    until(lambda: expired(database, name), "the lease to expire unrenewed")
    taken: list[object] = []
    with one.locked(name):  # the lease has expired, but nobody took it: this one may append
        one.append(name, [(4, member, "late", None, "{}")])
        taker = threading.Thread(target=lambda: taken.append(two.take(name)))
        taker.start()
        until(lambda: waiting_on_a_lock(database), "the take to wait for the append")
        assert not taken
    taker.join(timeout=DEADLINE)
    assert taken == [Taken(2)]
    with psycopg.connect(database, autocommit=True) as db:
        assert db.execute("SELECT max(seq) FROM entries").fetchone() == (4,)


def waiting_on_a_lock(database: str) -> bool:
    with psycopg.connect(database, autocommit=True) as db:
        row = db.execute(
            "SELECT count(*) FROM pg_stat_activity "
            "WHERE datname = current_database() AND wait_event_type = 'Lock'"
        ).fetchone()
    return bool(row and row[0])


def test_an_owner_appends_without_catching_up_or_notifying_anyone(stores, database, room):
    """The lease, checked in the append's own transaction, proves that nobody else appended
    since the take (leases.py, `Store.sole_writer`): the owner reads no entries to catch up
    on and sends no notice, since no other process folds a room it does not hold."""
    name, member = room
    one = stores("one", lease=LONG)
    hall = Hall(one)
    assert one.take(name) == Taken(1)
    hall.table(name)
    reads: list[tuple[object, ...]] = []
    read = one.entries
    one.entries = lambda *asked: reads.append(asked) or read(*asked)  # type: ignore[method-assign]
    with psycopg.connect(database, autocommit=True) as listener:
        listener.execute(f"LISTEN {NOTIFY_CHANNEL}")
        assert roll(hall, name, member, "a") == [3]
        with one.batch():
            assert roll(hall, name, member, "b") == [4]
        # a notice sent after the appends: every notice of theirs would arrive before it
        with psycopg.connect(database, autocommit=True) as other:
            other.execute("SELECT pg_notify(%s, 'after')", (NOTIFY_CHANNEL,))
        heard = []
        for notice in listener.notifies(timeout=DEADLINE):
            heard.append(notice.payload)
            if notice.payload == "after":
                break
    assert heard == ["after"] and reads == []


def test_an_owners_hall_remembers_what_links_open_until_it_changes_one(stores):
    """A shard that holds a room is its one writer, so its hall remembers what each link
    opened instead of reading the store on every request (hall.py, `_credential`), and
    forgets it in the transaction of any change to the room's links: a kicked member, a
    rotated link and rotated invites stop working at once all the same."""
    one = stores("one", lease=LONG)
    hall = Hall(one)
    made = hall.create("dice", "the crypt")
    room, links = made.extra["room"], made.extra["tokens"]
    bo = hall.join(room, links["player"], "Bo").extra
    reads: list[str] = []
    read = one.credential
    one.credential = lambda token: reads.append(token) or read(token)  # type: ignore[method-assign]
    for _ in range(3):
        assert hall.who(room, links["gm"]).id == "m1" and hall.who(room, bo["token"]).id == "m2"
    assert len(reads) == 2
    fresh = hall.rotate_link(room, "m1").extra["token"]
    with pytest.raises(BadLink):
        hall.who(room, links["gm"])
    assert hall.who(room, fresh).id == "m1"
    hall.kick(room, "m1", "Bo")
    with pytest.raises(BadLink):
        hall.who(room, bo["token"])
    hall.join(room, links["observer"], "Cy")
    hall.rotate_invites(room, "m1")
    with pytest.raises(BadLink):
        hall.join(room, links["observer"], "Di")


def test_a_shard_never_reads_the_log_of_a_room_another_holds(stores, room):
    name, _ = room
    one, two = stores("one"), stores("two")
    assert one.take(name) == Taken(1)
    with pytest.raises(Elsewhere):
        Hall(two).table(name)
    assert two.entries("no-such-room") == []  # an unknown room is told as before


def test_a_room_a_shard_opens_is_held_from_the_transaction_that_makes_it(stores, database):
    """What the shard writes of a new room next (an imported log's snapshot) passes the
    check; the shard gives the lease up once that round is committed."""
    one = stores("one", lease=LONG)
    made = Hall(one).create("dice", "fresh")
    name = made.extra["room"]
    assert one.holds(name) and lease_row(database, name) == ("one", 1, False)
    assert roll(Hall(one), name, "m1", "first") == [3]
    one.release([name])
    assert stores("two").take(name) == Taken(2)


def test_a_shard_whose_session_postgresql_ended_appends_in_its_next_round(stores, database, room):
    """PostgreSQL ends the session of a process paused inside a transaction (leases.py):
    the round that finds it ended is refused, and the next opens a new connection (before
    it prepares the round's statements on it)."""
    name, member = room
    one = stores("one", lease=LONG)
    hall = Hall(one)
    assert one.take(name) == Taken(1)
    hall.table(name)
    with psycopg.connect(database, autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", (one._db.info.backend_pid,))
    with pytest.raises(psycopg.OperationalError), one.batch():
        roll(hall, name, member, "lost")
    with one.batch():
        assert roll(hall, name, member, "after") == [3]
