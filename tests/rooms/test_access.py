"""Who may reach a server and open rooms on it (docs/rooms.md, "Who may open rooms" and
"The protocol"): links come from the public URL, never from a request's Host; a request
naming another host is refused; a server reachable from elsewhere opens rooms for anyone
only when told (`--open`, within a quota) or for holders of its key (`--key-file`); import
takes the GM's whole export, verified in full."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from tabletop.errors import DataError
from tabletop.rooms import SqliteStore
from tabletop.rooms.access import QUOTA_WINDOW, Access
from tabletop.rooms.client import RoomClient, create_room, import_log
from tabletop.rooms.errors import BadLink, RoomError, TooMuch
from tabletop.rooms.hosts import PublicAddress
from tests.cli.helpers import run
from tests.rooms.conftest import free_port, serve_in_thread, stop_process

EVIL = {"Host": "evil.example"}
KEY = "k" * 12 + "-a-server-key-of-ours"


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    opened = SqliteStore(tmp_path_factory.mktemp("access") / "rooms.sqlite3")
    yield opened
    opened.close()


@pytest.fixture(scope="module")
def loopback(store):
    running = serve_in_thread(store)
    yield running.url
    running.stop()


@pytest.fixture(scope="module")
def keyed(store):
    """A server behind a proxy at https://rooms.example that opens rooms for its key."""
    address = PublicAddress.parse("https://rooms.example", ["127.0.0.1"])
    running = serve_in_thread(store, address=address, access=Access("key", key=KEY))
    yield running.url
    running.stop()


def error_of(response: httpx.Response, status: int) -> str:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"} and "\n" not in body["error"]
    return str(body["error"])


# the Host header --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path"),
    [("GET", "/health"), ("POST", "/rooms"), ("GET", "/"), ("POST", "/import"), ("GET", "/x/")],
)
def test_a_request_naming_another_host_is_refused(loopback, method, path):
    """Issue 21: links and the trailing-slash redirect echoed `Host: evil.example`."""
    body = {"system": "dice"} if path == "/rooms" else None
    response = httpx.request(method, f"{loopback}{path}", headers=EVIL, json=body)
    assert "only" in error_of(response, 400)


def test_a_socket_naming_another_host_is_refused(loopback):
    url = loopback.replace("http", "ws", 1) + "/rooms/abc/live"
    with pytest.raises(InvalidStatus), connect(url, additional_headers=EVIL):
        pass


def test_links_come_from_the_public_url_not_the_requests_host(keyed):
    headers = {"Authorization": f"Bearer {KEY}", "Host": "rooms.example"}
    made = httpx.post(f"{keyed}/rooms", json={"system": "dice"}, headers=headers).json()
    assert all(made[role].startswith("https://rooms.example/rooms/") for role in ("gm", "player"))
    assert error_of(httpx.get(f"{keyed}/health", headers=EVIL), 400)
    # 127.0.0.1 is an allowed host (the proxy's own checks); its links are the public ones
    made = create_room(keyed, "dice", key=KEY)
    assert made["gm"].startswith("https://rooms.example/rooms/")


def test_the_address_a_page_builds_invites_from_is_the_servers_whatever_a_request_says(
    keyed, loopback
):
    """A stranger must not make the GM's page show invites to another site: `/address`, from
    which the page builds the invites it keeps, is the public URL whatever Host (an allowed
    one) or forwarding header a request carries; another Host gets 400."""
    evil = ({}, {"X-Forwarded-Host": "evil.example"}, {"Forwarded": "host=evil.example"})
    for host in ("rooms.example", "127.0.0.1"):
        for forwarded in evil:
            said = httpx.get(f"{keyed}/address", headers={"Host": host, **forwarded}).json()
            assert said == {"url": "https://rooms.example", "this_machine_only": False}
    error_of(httpx.get(f"{keyed}/address", headers=EVIL), 400)
    port = loopback.rsplit(":", 1)[1]
    for host in (f"127.0.0.1:{port}", f"localhost:{port}"):  # no public URL: the name used
        said = httpx.get(f"{loopback}/address", headers={"Host": host}).json()
        assert said == {"url": f"http://{host}", "this_machine_only": True}
    error_of(httpx.get(f"{loopback}/address", headers=EVIL), 400)


def test_a_loopback_server_answers_to_its_other_loopback_names_only(loopback):
    port = loopback.rsplit(":", 1)[1]
    for host in (f"localhost:{port}", f"127.0.0.1:{port}", f"[::1]:{port}"):
        assert httpx.get(f"{loopback}/health", headers={"Host": host}).status_code == 200
    for host in ("evil.example", f"evil.example:{port}", "192.168.1.4", "127.0.0.1.evil.example"):
        error_of(httpx.get(f"{loopback}/health", headers={"Host": host}), 400)


def test_a_public_address_is_checked_when_read():
    address = PublicAddress.parse("https://rooms.example", ["proxy.internal:8001"])
    assert address.url == "https://rooms.example" and not address.loopback
    assert address.accepts("rooms.example") and address.accepts("rooms.example:443")
    assert address.accepts("proxy.internal:8001") and not address.accepts("proxy.internal:9")
    assert not address.accepts("rooms.example:8443") and not address.accepts("evil.example")
    assert PublicAddress.parse("http://127.0.0.1:8000").loopback
    assert PublicAddress.parse("http://[::1]:8000").url == "http://[::1]:8000"
    for bad in ("ftp://x", "http://x/rooms", "http://x:99999", "http://0.0.0.0:8000", "x"):
        with pytest.raises(DataError):
            PublicAddress.parse(bad)


# who may open rooms -----------------------------------------------------------------------


def test_a_keyed_server_opens_and_imports_rooms_for_its_key_only(keyed, loopback):
    headers = {"Host": "rooms.example"}
    said = error_of(httpx.post(f"{keyed}/rooms", json={"system": "dice"}, headers=headers), 401)
    assert "Authorization: Bearer <server key>" in said
    wrong = {**headers, "Authorization": "Bearer not-the-key-at-all"}
    error_of(httpx.post(f"{keyed}/rooms", json={"system": "dice"}, headers=wrong), 401)
    with pytest.raises(BadLink):
        import_log(keyed, ['{"export": {}}'])
    # a room's own links need no server key: joining and playing go on as anywhere
    made = create_room(keyed, "dice", key=KEY)
    local = made["player"].replace("https://rooms.example", keyed)
    with RoomClient(local) as invite:
        assert "/rooms/" in invite.join("Ada")
    assert httpx.get(f"{keyed}/health", headers=headers).json()["create"] == "key"
    assert httpx.get(f"{loopback}/health").json()["create"] == "local"


def test_an_open_server_counts_new_rooms_against_its_hourly_quota():
    now = [1000.0]
    access = Access("open", quota=2, clock=lambda: now[0])
    for _ in range(2):
        access.allow_new_room(None)
        access.opened()
    with pytest.raises(TooMuch, match="at most 2 rooms an hour; try again in 60 minute"):
        access.allow_new_room(None)
    now[0] += QUOTA_WINDOW - 1
    with pytest.raises(TooMuch):
        access.allow_new_room(None)
    now[0] += 1
    access.allow_new_room(None)


def test_rooms_being_made_hold_their_place_in_the_quota():
    """The front awaits a room's shard between allowing it and counting it: requests side
    by side must not pass the quota together, and one refused after all counts nothing."""
    access = Access("open", quota=2)
    with access.new_room(None), access.new_room(None):
        assert not may_open(access), "a third room was allowed while two were being made"
    assert not may_open(access), "two rooms made, and the quota is two"
    access = Access("open", quota=1)
    with pytest.raises(RoomError), access.new_room(None):
        raise RoomError("the shard refused it")
    assert may_open(access), "a room refused after all was counted"


def may_open(access: Access) -> bool:
    try:
        access.allow_new_room(None)
    except TooMuch:
        return False
    return True


def test_an_open_servers_refused_request_counts_nothing(store):
    access = Access("open", quota=1)
    running = serve_in_thread(store, access=access)
    try:
        error_of(httpx.post(f"{running.url}/rooms", json={"system": "nothing"}), 400)
        create_room(running.url, "dice")
        said = error_of(httpx.post(f"{running.url}/rooms", json={"system": "dice"}), 429)
        assert "at most 1 rooms an hour" in said
    finally:
        running.stop()


def test_a_server_key_is_one_long_word(tmp_path):
    short = tmp_path / "short"
    short.write_text("abc\n")
    with pytest.raises(DataError, match="at least 16 characters"):
        Access.from_key_file(short)
    with pytest.raises(DataError, match="cannot read"):
        Access.from_key_file(tmp_path / "missing")
    kept = tmp_path / "key"
    kept.write_text(f"  {KEY}\n")
    assert Access.from_key_file(kept).key == KEY


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("--public-url", "http://rooms.example"), "say who may open rooms there"),
        (("--host", "0.0.0.0"), "every address of this machine"),
        (("--public-url", "http://127.0.0.1:8000", "--allowed-host", "lan.example"), "say who"),
        (("--open", "--key-file", "k"), "two answers"),
        (("--key-file", "nothing-here"), "cannot read the server key"),
        (("--public-url", "http://x.example/sub"), "without a path"),
    ],
)
def test_serve_refuses_to_open_rooms_to_strangers_unless_told(capsys, tmp_path, args, said):
    """Starting a server reachable from elsewhere with neither --open nor --key-file is one
    line and exit 2 (before anything listens)."""
    done = run(capsys, "serve", "--data", str(tmp_path), *args)
    assert done.code == 2 and said in done.err and len(done.err.strip().splitlines()) == 1


def test_serve_with_a_key_file_behind_a_proxy_address(tmp_path):
    key = tmp_path / "key"
    key.write_text(KEY)
    port = free_port()
    command = [sys.executable, "-c", "from tabletop.cli.app import main; main()", "serve"]
    args = ["--port", str(port), "--data", str(tmp_path), "--key-file", str(key)]
    args += ["--public-url", "https://rooms.example"]
    process = subprocess.Popen(
        [*command, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        url, headers = f"http://127.0.0.1:{port}", {"Host": "rooms.example"}
        deadline = time.monotonic() + 30
        while True:
            try:
                health = httpx.get(f"{url}/health", headers=headers, timeout=1)
                break
            except httpx.TransportError:
                assert process.poll() is None and time.monotonic() < deadline
                time.sleep(0.1)
        assert health.json()["create"] == "key"
        error_of(httpx.get(f"{url}/health"), 400)  # 127.0.0.1:PORT is not its name
        made = httpx.post(
            f"{url}/rooms",
            json={"system": "dice"},
            headers={**headers, "Authorization": f"Bearer {KEY}"},
        )
        assert made.json()["gm"].startswith("https://rooms.example/rooms/")
    finally:
        stop_process(process)
        if process.stdout is not None:
            process.stdout.close()


# import -----------------------------------------------------------------------------------


def test_import_takes_only_the_gms_whole_export_verified_in_full(loopback):
    made = create_room(loopback, "dice")
    with RoomClient(made["player"]) as invite:
        ada_link = invite.join("Ada")
    with RoomClient(ada_link) as ada, RoomClient(made["gm"]) as gm:
        ada.roll("1d6")  # a witnessed roll's dice check at once: no session need end first
        gm.end_session()
        with pytest.raises(RoomError, match="a member's export, not the GM's"):
            import_log(loopback, ada.export())
        lines = gm.export()
    edited = json.loads(lines[3])
    edited["time"] += 1
    with pytest.raises(RoomError, match=r"line 4: .*verifies in full"):
        import_log(loopback, [*lines[:3], json.dumps(edited), *lines[4:]])
    assert "/rooms/" in import_log(loopback, lines)["gm"]
