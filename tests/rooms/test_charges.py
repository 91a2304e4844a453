"""Every request that reaches a shard or the database costs someone's allowance, and the
address allowance cannot be dodged (docs/rooms.md, "Reads that cost what they read"). Each
attack here passed on a48a6db: a missing room and an invite cost nothing, key guesses on
`/import` were free, half-sent imports held the room quota, uvicorn believed anyone's
`X-Forwarded-For` from 127.0.0.1, each IPv6 address was its own bucket, another site's page
could post, and a huge number answered 500."""

from __future__ import annotations

import json
import socket
import time

import httpx
import pytest
from websockets.sync.client import connect

from tabletop.rooms import Hall
from tabletop.rooms.access import Access
from tabletop.rooms.allowances import Allowances, Rates
from tabletop.rooms.client import create_room
from tabletop.rooms.errors import TooMuch
from tests.rooms.conftest import (
    Running,
    fixed_seeds,
    seat,
    serve_in_process,
    serve_in_thread,
    stop_process,
)

STRICT = Rates(member=20, address=0.01, address_burst=5)
"""Five requests an address may make before it is refused, refilled at one in 100 s."""

BOGUS = {"Authorization": "Bearer not-a-token-of-anything"}


@pytest.fixture
def strict(tmp_path):
    from tabletop.rooms import SqliteStore

    store = SqliteStore(tmp_path / "rooms.sqlite3")
    seated = seat(Hall(store, seeds=fixed_seeds()), "dice")
    running = serve_in_thread(store, rates=STRICT)
    yield running, seated
    running.stop()
    store.close()


def spend(running: Running, requests: int, method: str, path: str, **kwargs) -> list[int]:  # type: ignore[no-untyped-def]
    return [
        httpx.request(method, f"{running.url}{path}", timeout=30, **kwargs).status_code
        for _ in range(requests)
    ]


def test_attack_every_stranger_request_that_reaches_a_shard_is_charged(strict):
    running, _ = strict
    missing = spend(running, 6, "GET", "/rooms/no-such-room", headers=BOGUS)
    assert missing[:5] == [404] * 5 and missing[5] == 429


def test_attack_an_invite_on_whoami_costs_its_address(strict):
    running, seated = strict
    invite = {"Authorization": f"Bearer {seated.tokens['player']}"}
    answers = spend(running, 6, "GET", f"/rooms/{seated.room}/whoami", headers=invite)
    assert answers[:5] == [200] * 5 and answers[5] == 429


def test_attack_key_guesses_on_import_are_metered(tmp_path):
    from tabletop.rooms import SqliteStore

    store = SqliteStore(tmp_path / "rooms.sqlite3")
    running = serve_in_thread(store, rates=STRICT, access=Access("key", key="k" * 32))
    try:
        guesses = [
            httpx.post(
                f"{running.url}/import", content=b"{}", headers={"Authorization": f"Bearer g{n}"}
            ).status_code
            for n in range(7)
        ]
        assert guesses[:5] == [401] * 5 and set(guesses[5:]) == {429}
    finally:
        running.stop()
        store.close()


def test_attack_half_sent_imports_hold_no_quota(tmp_path, monkeypatch):
    """Three imports that never finish their bodies hold none of a quota of two: a room
    opens beside them; and a body slower than BODY_WAIT is refused with 408."""
    from tabletop.rooms import SqliteStore

    monkeypatch.setattr("tabletop.rooms.server.BODY_WAIT", 2.0)
    store = SqliteStore(tmp_path / "rooms.sqlite3")
    running = serve_in_thread(store, access=Access("open", quota=2))
    port = int(running.url.rsplit(":", 1)[1])
    held = []
    try:
        for _ in range(3):
            raw = socket.create_connection(("127.0.0.1", port))
            raw.sendall(
                b"POST /import HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n\r\n{"
            )
            held.append(raw)
        time.sleep(0.3)
        assert create_room(running.url, "dice")["room"]
        held[0].settimeout(10)
        answer = b""
        while b"within" not in answer and (chunk := held[0].recv(4096)):
            answer += chunk
        assert answer.startswith(b"HTTP/1.1 408") and b"within 2 seconds" in answer
    finally:
        for raw in held:
            raw.close()
        running.stop()
        store.close()


def test_attack_a_huge_number_and_a_binary_frame_get_one_line_and_cost(strict):
    running, seated = strict
    ws = running.url.replace("http", "ws", 1) + f"/rooms/{seated.room}/live"
    with connect(ws) as live:  # a member's binary frame costs the member, and keeps the socket
        live.send(json.dumps({"type": "hello", "token": seated.tokens["Bo"], "after": 0}))
        assert json.loads(live.recv(timeout=5))["type"] == "welcome"
        live.send(b"\xff")
        frame = json.loads(live.recv(timeout=5))
        while frame.get("type") != "error":
            frame = json.loads(live.recv(timeout=5))
        assert "binary" in frame["error"]
        live.send(json.dumps({"type": "ping"}))
        while json.loads(live.recv(timeout=5)).get("type") != "pong":
            pass
    ada = {"Authorization": f"Bearer {seated.tokens['Ada']}"}
    for number in ("9223372036854775808", "-1", "1e400"):
        answer = httpx.get(f"{running.url}/rooms/{seated.room}/log?after={number}", headers=ada)
        assert answer.status_code == 422 and "\n" not in answer.json()["error"]
    with connect(ws) as live:  # a stranger's binary frame costs the address
        live.send(b"\x00\x01binary")
        refused = json.loads(live.recv(timeout=5))
        assert refused["type"] == "error" and "binary" in refused["error"]
    with connect(ws) as live:
        live.send(json.dumps({"type": "hello", "token": seated.tokens["Ada"], "after": 2**63}))
        assert json.loads(live.recv(timeout=5))["type"] == "error"
    # Bo's welcome cost the address one (a link it did not know yet); three numbers and two
    # frames the rest of its burst of five and more
    assert spend(running, 1, "GET", "/rooms/no-such-room", headers=BOGUS) == [429]


def test_attack_forwarded_for_from_an_untrusted_peer_changes_nothing(tmp_path):
    """`tabletop serve` without --trust-proxy: every request from 127.0.0.1 naming another
    client in X-Forwarded-For is still charged to 127.0.0.1 (uvicorn's own proxy handling,
    on by default for 127.0.0.1, gave each a fresh allowance)."""
    process, url = serve_in_process("--data", str(tmp_path / "data"), "--address-rate", "0.1")
    try:
        with httpx.Client(timeout=30) as client:
            answers = [
                client.post(
                    f"{url}/rooms/no-such-room/join",
                    json={"name": "x"},
                    headers={**BOGUS, "X-Forwarded-For": f"10.0.{n // 250}.{n % 250}"},
                ).status_code
                for n in range(90)  # past the burst of 60 even when a busy machine sends slowly
            ]
        assert 429 in answers
    finally:
        stop_process(process)


def test_attack_one_ipv6_network_is_one_address():
    allowances = Allowances(Rates(address=0.01, address_burst=2), trusted=("10.0.0.1",))
    allowances.take_address("2001:db8:1:2::1")
    allowances.take_address(allowances.client("10.0.0.1", "2001:db8:1:2:ffff::9"))
    with pytest.raises(TooMuch):
        allowances.take_address("2001:db8:1:2:dead:beef::1")
    allowances.take_address("2001:db8:1:3::1")  # another /64: its own
    allowances.take_address("1.2.3.4")
    allowances.take_address("::ffff:1.2.3.4")  # the same IPv4 client
    with pytest.raises(TooMuch):
        allowances.take_address("1.2.3.4")
    wide = Allowances(Rates(address=0.01, address_burst=1, ipv6_prefix=128))
    wide.take_address("2001:db8::1")
    wide.take_address("2001:db8::2")


def test_attack_a_cross_site_post_is_refused(tmp_path):
    from tabletop.rooms import SqliteStore

    store = SqliteStore(tmp_path / "rooms.sqlite3")
    running = serve_in_thread(store)
    host = running.url.removeprefix("http://")
    try:
        body = {"system": "dice", "name": "", "options": {}, "gm": "GM"}
        for foreign in (
            {"Origin": "http://evil.example"},
            {"Origin": "null"},
            {"Origin": f"http://{host}", "Sec-Fetch-Site": "cross-site"},
        ):
            answer = httpx.post(f"{running.url}/rooms", json=body, headers=foreign)
            assert answer.status_code == 403 and "another site" in answer.json()["error"]
            imported = httpx.post(f"{running.url}/import", content=b"{}", headers=foreign)
            assert imported.status_code == 403
        ws = running.url.replace("http", "ws", 1) + "/rooms/x/live"
        with pytest.raises(Exception), connect(ws, origin="http://evil.example") as live:  # noqa: B017
            live.recv(timeout=5)
        own = {"Origin": f"http://{host}", "Sec-Fetch-Site": "same-origin"}
        assert httpx.post(f"{running.url}/rooms", json=body, headers=own).status_code == 201
        assert httpx.post(f"{running.url}/rooms", json=body).status_code == 201  # not a browser
    finally:
        running.stop()
        store.close()


def test_json_answers_are_never_cached(strict):
    running, seated = strict
    gm = {"Authorization": f"Bearer {seated.tokens['GM']}"}
    for path in (f"/rooms/{seated.room}", f"/rooms/{seated.room}/export", "/health", "/systems"):
        answer = httpx.get(f"{running.url}{path}", headers=gm, timeout=30)
        assert answer.status_code == 200 and answer.headers["cache-control"] == "no-store", path
    assert "no-store" not in httpx.get(f"{running.url}/static/app.css").headers.get(
        "cache-control", ""
    )
