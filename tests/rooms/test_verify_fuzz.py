"""Fuzzing the verifier: valid logs of every system (tests/rooms/scenes.py), mutated — lines
dropped, reordered, spliced from another log, fields edited to wrong types, huge or deep
values, lines sealed, hashes forged to agree again — and sent to `verify`, `POST /verify`
and `POST /import`. Whatever arrives, the answer is one line naming the first bad line:
never a traceback, a 500 or a room made from a log that does not verify.

Every input a hunt finds is kept in tests/rooms/verify_corpus.json, which always runs
(`VERIFY_EXAMPLES=2000 pytest tests/rooms/test_verify_fuzz.py` hunts longer)."""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop.rooms import AuditError, SqliteStore, verify
from tests.effort import tried
from tests.rooms.conftest import serve_in_thread
from tests.rooms.forge import rechained, sealed_copy
from tests.rooms.scenes import SCENES, played

CORPUS_FILE = Path(__file__).parent / "verify_corpus.json"
CORPUS = json.loads(CORPUS_FILE.read_text(encoding="utf-8"))
EXAMPLES = int(os.environ.get("VERIFY_EXAMPLES", "60"))
FUZZ = settings(
    max_examples=tried(EXAMPLES),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.fixture(scope="module")
def logs(tmp_path_factory) -> dict[str, list[list[str]]]:
    """Each system's GM export and Ada's, played once for the module."""
    folder = tmp_path_factory.mktemp("scenes")
    return {system: list(played(system, folder)) for system in SCENES}


@pytest.fixture(scope="module")
def running(tmp_path_factory):
    store = SqliteStore(tmp_path_factory.mktemp("fuzzed") / "rooms.sqlite3")
    server = serve_in_thread(store, rate=100_000)
    yield server.url
    server.stop()
    store.close()


# what a mutation may put in a field ------------------------------------------------------


def nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


HOSTILE = st.one_of(
    st.sampled_from([nested(600), 10**4000, -(10**4000), 2**64 + 1, {"sides": 10**400}]),
    st.none(),
    st.booleans(),
    st.integers(),
    st.sampled_from([2**64, -(2**63), 10**300, 0, -1, 1.5, 1e308]),
    st.text(max_size=12),
    st.sampled_from(["", "\u2028", "\x00", "room.undo", "roll", "all", "event", "0" * 64]),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
)

RAW = st.sampled_from(
    [
        "1" * 5000,  # past Python's 4,300-digit limit for int()
        "[" * 100_000 + "]" * 100_000,  # deeper than any parser's recursion
        '{"a":' * 50_000 + "1" + "}" * 50_000,
        "NaN",
        "Infinity",
        "-0",
        "1e999",
        '"\\ud800"',  # a lone surrogate
    ]
)


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place inside a JSON value: the keys and indexes that lead to it."""
    found = [prefix]
    if isinstance(value, dict):
        for key, inner in value.items():
            found += paths(inner, (*prefix, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            found += paths(inner, (*prefix, index))
    return found


def put(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    value[path[0]] = put(value[path[0]], path[1:], new)
    return value


@st.composite
def mutated(draw: Any, logs: dict[str, list[list[str]]]) -> list[str]:
    """One log of one system with one to three mutations."""
    system = draw(st.sampled_from(sorted(logs)))
    lines = list(draw(st.sampled_from(logs[system])))
    for _ in range(draw(st.integers(1, 3))):
        lines = draw(st.sampled_from(MUTATIONS))(draw, lines, logs)
    if draw(st.booleans()):  # most edits fail the hash: forge it so the rules must catch them
        lines = _forge(draw, lines, logs)
    return lines


def _drop(draw: Any, lines: list[str], logs: Any) -> list[str]:
    if len(lines) < 2:
        return lines
    at = draw(st.integers(0, len(lines) - 1))
    return lines[:at] + lines[at + 1 :]


def _swap(draw: Any, lines: list[str], logs: Any) -> list[str]:
    first, second = (draw(st.integers(0, len(lines) - 1)) for _ in range(2))
    lines[first], lines[second] = lines[second], lines[first]
    return lines


def _edit(draw: Any, lines: list[str], logs: Any) -> list[str]:
    """A field of a line set to a hostile value, or taken out."""
    at = draw(st.integers(0, len(lines) - 1))
    try:
        body = json.loads(lines[at])
    except ValueError:
        return lines
    where = draw(st.sampled_from(paths(body)))
    if where and draw(st.booleans()):
        inner = body
        for key in where[:-1]:
            inner = inner[key]
        del inner[where[-1]]
    else:
        body = put(body, where, draw(HOSTILE))
    lines[at] = json.dumps(body, ensure_ascii=False)
    return lines


def _raw(draw: Any, lines: list[str], logs: Any) -> list[str]:
    at = draw(st.integers(0, len(lines) - 1))
    cut = draw(st.integers(0, len(lines[at])))
    lines[at] = lines[at][:cut] + draw(RAW) + lines[at][cut:]
    return lines


def _seal(draw: Any, lines: list[str], logs: Any) -> list[str]:
    at = draw(st.integers(0, max(0, len(lines) - 2)))
    with contextlib.suppress(ValueError, KeyError, TypeError, AttributeError):
        lines[at] = json.dumps(sealed_copy(json.loads(lines[at])), ensure_ascii=False)
    return lines


def _splice(draw: Any, lines: list[str], logs: Any) -> list[str]:
    other = draw(st.sampled_from(draw(st.sampled_from(list(logs.values())))))
    cut = draw(st.integers(0, len(lines)))
    return lines[:cut] + other[draw(st.integers(0, len(other))) :]


def _duplicate(draw: Any, lines: list[str], logs: Any) -> list[str]:
    line = draw(st.sampled_from(lines[:-1] or lines))
    at = draw(st.integers(0, len(lines) - 1))
    return [*lines[:at], line, *lines[at:]]


def _forge(draw: Any, lines: list[str], logs: Any) -> list[str]:
    """Every seq, hash, prev and the trailer made to agree again: only the rules can
    object to what a line holds."""
    try:
        bodies = [json.loads(line) for line in lines]
        for number, body in enumerate(bodies[:-1], start=1):
            body["seq"] = number
        return rechained([json.dumps(body, ensure_ascii=False) for body in bodies])
    except (ValueError, KeyError, TypeError, AttributeError, IndexError, RecursionError):
        return lines


MUTATIONS = [_drop, _swap, _duplicate, _edit, _edit, _edit, _edit, _raw, _seal, _splice]


# the contract -----------------------------------------------------------------------------


def check_verify(lines: list[str]) -> None:
    """`verify` answers, or names the first bad line in one line; nothing else escapes."""
    try:
        verify(lines)
    except AuditError as failed:
        assert "\n" not in str(failed) and 1 <= failed.line <= max(len(lines), 1)


def check_served(url: str, lines: list[str]) -> None:
    """`POST /verify` and `POST /import` answer in one line of JSON, never 500; a log that
    does not verify makes no room."""
    body = "".join(f"{line}\n" for line in lines).encode("utf-8", "surrogatepass")
    checked = httpx.post(f"{url}/verify", content=body, timeout=60)
    assert checked.status_code in (200, 413), checked.text
    said = checked.json()
    if checked.status_code == 200 and not said["ok"]:
        assert "\n" not in said["error"] and isinstance(said["line"], int)
    imported = httpx.post(f"{url}/import", content=body, timeout=60)
    assert imported.status_code < 500, imported.text
    answer = imported.json()
    if imported.status_code >= 400:
        assert set(answer) == {"error"} and "\n" not in answer["error"]
    else:
        assert said.get("ok") and said.get("view") == "full", "imported a log verify refused"


@FUZZ
@given(data=st.data())
def test_a_mutated_log_is_refused_in_one_line_naming_its_first_bad_line(logs, data):
    check_verify(data.draw(mutated(logs)))


@settings(FUZZ, max_examples=tried(max(EXAMPLES // 3, 10)))
@given(data=st.data())
def test_the_server_answers_every_mutated_log_in_one_line(logs, running, data):
    check_served(running, data.draw(mutated(logs)))


def test_every_valid_scene_verifies_and_imports(logs, running):
    for system, (full, member) in logs.items():
        assert verify(full).ruled, system
        assert verify(member).view != "full"
        check_served(running, full)


@pytest.mark.parametrize("case", CORPUS, ids=[case["why"][:60] for case in CORPUS])
def test_a_log_that_once_broke_the_verifier_keeps_the_contract(case, running):
    lines = case["lines"]
    check_verify(lines)
    check_served(running, lines)
    if "error" in case:
        with pytest.raises(AuditError, match=case["error"]):
            verify(lines)
