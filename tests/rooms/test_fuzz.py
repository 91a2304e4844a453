"""Fuzzing the wire: the HTTP API from its own OpenAPI schema (schemathesis) and the socket's
messages (hypothesis). Whatever arrives, the answer is never a 500 or a traceback, every
refusal is one line of JSON, and a refused request appends nothing."""

from __future__ import annotations

import json
import sqlite3
import tempfile
from pathlib import Path
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop.rooms import SqliteStore
from tests.effort import tried
from tests.rooms.conftest import Recorder, party, serve_in_thread

with tempfile.TemporaryDirectory() as scratch:
    _store = SqliteStore(Path(scratch) / "schema.sqlite3")
    from tabletop.rooms.server import create_app

    SCHEMA = schemathesis.openapi.from_dict(create_app(_store).openapi())
    _store.close()
OPERATIONS = [result.ok() for result in SCHEMA.get_all_operations()]
FUZZ = settings(
    max_examples=tried(200),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.fixture(scope="module")
def running(tmp_path_factory):
    path = tmp_path_factory.mktemp("fuzz") / "rooms.sqlite3"
    store = SqliteStore(path)
    server = serve_in_thread(store, rate=100_000)  # the fuzzer, not the bound, is under test
    yield server.url, path
    server.stop()
    store.close()


@pytest.fixture(scope="module")
def served(running):
    made = party(running[0], "dead-weight")
    made.db = running[1]
    yield made
    made.close()


@pytest.fixture(scope="module")
def talking(running):
    """Another room, so that what the HTTP fuzzer does (kicks, new links) cannot reach it,
    and Ada's socket in it, open for every example."""
    made = party(running[0], "dead-weight")
    made.db = running[1]
    made.socket = Recorder(made.links["Ada"])
    yield made
    made.socket.close()
    made.close()


def head(room: Any) -> int:
    """The room's last seq, read from the database itself (links may have been rotated)."""
    with sqlite3.connect(room.db) as db:
        (seq,) = db.execute("SELECT MAX(seq) FROM entries WHERE room = ?", (room.room,)).fetchone()
    return int(seq)


@FUZZ
@given(data=st.data())
def test_the_http_api_never_answers_500_and_a_refusal_appends_nothing(served, data):
    operation = data.draw(st.sampled_from(OPERATIONS))
    case = data.draw(operation.as_strategy())
    if "room" in (case.path_parameters or {}) and data.draw(st.booleans()):
        case.path_parameters["room"] = served.room
    who = data.draw(st.sampled_from(["gm", "Ada", "player", "none", "junk"]))
    odd = {"none": "", "junk": "x" * 40}
    token = odd[who] if who in odd else served.links[who].partition("#")[2]
    before = head(served)
    response = case.call(base_url=served.url, headers={"Authorization": f"Bearer {token}"})
    assert response.status_code < 500, response.text
    if response.status_code >= 400:
        body = response.json()
        assert set(body) == {"error"} and "\n" not in body["error"] and body["error"]
        assert head(served) == before, f"{case.method} {case.path} was refused but appended"


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=12,
)

MESSAGES = st.one_of(
    st.text(max_size=200),
    JSONISH.map(json.dumps),
    st.fixed_dictionaries(
        {"type": st.sampled_from(["intent", "say", "ping", "hello", "x"])},
        optional={
            "id": st.text(max_size=70) | st.integers(),
            "intent": st.fixed_dictionaries(
                {"kind": st.sampled_from(["roll", "test", "new-tracker", "advance-tracker", "?"])},
                optional={
                    "notation": st.text(max_size=20)
                    | st.sampled_from(["1d6", "1d", "d0", "9999d9"]),
                    "mode": st.text(max_size=8) | st.sampled_from(["blind", "self"]),
                    "name": st.text(max_size=80),
                    "segments": st.integers(-5, 100),
                    "roller": st.text(max_size=5),
                },
            )
            | JSONISH,
            "text": st.text(max_size=80),
            "to": st.lists(st.text(max_size=10), max_size=3) | JSONISH,
            "nonce": st.text(max_size=70),
            "token": st.text(max_size=10),
        },
    ).map(json.dumps),
)


@FUZZ
@given(messages=st.lists(MESSAGES, min_size=1, max_size=8))
def test_any_socket_message_gets_an_answer_and_an_error_appends_nothing(talking, messages):
    socket = talking.socket
    socket.sync()
    for message in messages:
        before, start = head(talking), len(socket.frames)
        socket._socket.send(message)
        reply = socket.wait_for(lambda f: f.get("type") in ("ack", "error", "pong"), start=start)
        if reply["type"] == "error":
            assert reply["error"] and head(talking) == before
    assert not socket.closed.is_set()


def test_the_api_schema_names_every_endpoint(served):
    paths = httpx.get(f"{served.url}/openapi.json").json()["paths"]
    assert {"/rooms", "/rooms/{room}/intents", "/rooms/{room}/log", "/health"} <= set(paths)
