"""How a shard's round reaches PostgreSQL (postgres.py, `PostgresStore.batch`): the round's
statements are bound by the store, wait until one's answer is read, and go as one message;
each is prepared on the connection before the next batch, once. What a member sends must
reach the log exactly, however it is quoted."""

from __future__ import annotations

import pytest

from tabletop.errors import TabletopError
from tabletop.rooms import Hall
from tabletop.rooms.postgres import PostgresStore
from tests.rooms.conftest import SLIPPERY, fixed_seeds, new_database


@pytest.fixture
def store(postgres):
    store = PostgresStore(new_database(postgres))
    yield store
    store.close()


def prepared(store: PostgresStore) -> list[str]:
    """The statements the store prepared on its own connection (not psycopg's own, which it
    prepares outside batches for statements it sends often)."""
    rows = store._db.execute(
        "SELECT statement FROM pg_prepared_statements WHERE name LIKE 'tabletop%'"
    ).fetchall()
    return sorted(row[0] for row in rows)


def test_what_a_member_says_in_a_round_reaches_the_log_exactly(hall):
    """In a round's first batch the statements are sent bound, in the next as prepared
    statements given bound values: both must keep the text and the client id exact."""
    room = hall.create("dice", "the crypt").extra["room"]
    for number in range(2):
        client = f"{number} {SLIPPERY[:40]}"
        with hall.store.batch():
            said = hall.say(room, "m1", SLIPPERY, client=client)
            again = hall.say(room, "m1", SLIPPERY, client=client)
        assert again.duplicate and again.entries == said.entries  # the client id matched
        (entry,) = said.entries
        assert entry.event.data["text"] == SLIPPERY
        assert [e.text for e in hall.entries(room, entry.seq - 1)] == [entry.text]
        assert hall.store.head(room) == entry.seq


def test_a_rounds_statements_are_prepared_once_before_the_next_round(store):
    hall = Hall(store, seeds=fixed_seeds())
    room = hall.create("dice", "the crypt").extra["room"]
    roll = {"kind": "roll", "notation": "1d6"}
    head = store.head(room)
    with store.batch():
        hall.act(room, "m1", roll, "first")
    assert prepared(store) == []  # a round sends a statement bound the first time
    with store.batch():  # and the next round prepares it before it begins
        hall.act(room, "m1", roll, "second")
    after_two = prepared(store)
    assert any(
        text.startswith("PREPARE tabletop_") and "INSERT INTO entries" in text for text in after_two
    )
    for number in range(3):
        with store.batch():
            hall.act(room, "m1", roll, f"again-{number}")
    assert prepared(store) == after_two
    assert [e.seq for e in hall.entries(room, head)] == list(range(head + 1, head + 6))


def test_a_statement_postgresql_cannot_prepare_is_sent_bound_every_time(store):
    cannot = "SELECT %s IS NULL"  # the parameter's type cannot be told from the statement
    for _ in range(3):
        with store.batch():
            assert store._execute(cannot, (None,)).fetchone() == (True,)
            assert store._execute(cannot, ("it's",)).fetchone() == (False,)
    assert not any("IS NULL" in text for text in prepared(store))


def test_a_rolled_back_request_leaves_the_prepared_statements_in_place(store):
    """A request refused as a round's first is undone by rolling the transaction back; the
    statements stay prepared (psycopg would drop every prepared statement on a rollback if
    it prepared its own: `postgres.connect` turns that off)."""
    hall = Hall(store, seeds=fixed_seeds())
    room = hall.create("dice", "the crypt").extra["room"]
    roll = {"kind": "roll", "notation": "1d6"}
    for number in range(2):
        with store.batch():
            hall.act(room, "m1", roll, f"kept-{number}")
    ready = prepared(store)
    with store.batch():
        with pytest.raises(TabletopError):  # past the dice budget: refused before any die
            hall.act(room, "m1", {"kind": "roll", "notation": "100000d6"}, "too many")
        hall.act(room, "m1", roll, "after")
    with store.batch():
        hall.act(room, "m1", roll, "later")
    assert prepared(store) == ready
    assert store.retried(room, "m1", "later") == store.head(room)
