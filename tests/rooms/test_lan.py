"""Reaching a server from phones (docs/rooms.md, "Playing on your network"): `tabletop serve`
on this computer alone says so and how to change it; `--lan` finds this computer's address
on its network with nothing sent anywhere, listens there and on 127.0.0.1 and nowhere else,
makes a server key only its user can read (or reuses one) and builds every link from that
address, so the invites made before reach phones; a request's Host never moves the address
that links name."""

from __future__ import annotations

import os
import socket
import stat
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from tabletop.cli import serve
from tabletop.errors import DataError
from tabletop.rooms.access import Access, own_key_file
from tabletop.rooms.client import RoomClient, create_room
from tabletop.rooms.hosts import PublicAddress, lan_address, outgoing_address
from tests.cli.helpers import run
from tests.rooms.conftest import free_port, stop_process

KEY = "k" * 12 + "-a-server-key-of-ours"


# finding the network address ----------------------------------------------------------------


def test_the_lan_address_is_the_first_one_another_machine_could_reach():
    tried = [None, "127.0.0.1", "0.0.0.0", "169.254.9.9", "not an address", "192.168.1.23"]
    assert lan_address(lambda: [*tried, "10.0.0.5"]) == "192.168.1.23"
    # Debian names its own host 127.0.1.1: a machine on no network has no LAN address
    assert lan_address(lambda: [None, "127.0.1.1"]) is None
    assert lan_address(lambda: []) is None


def test_the_way_to_an_address_is_the_systems_answer_not_a_packet():
    """A UDP socket "connected" to an address names where this machine would send from;
    on loopback that is loopback, with no network at all; no way there is None."""
    assert outgoing_address("127.0.0.1") == "127.0.0.1"
    assert outgoing_address("not an address") is None


# the server key --lan keeps -----------------------------------------------------------------


def test_lan_makes_a_server_key_only_its_user_can_read_and_keeps_it(tmp_path):
    key = tmp_path / "data" / "server-key"
    old = os.umask(0)  # the key is private whatever the umask says
    try:
        assert own_key_file(key) is True
    finally:
        os.umask(old)
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    made = Access.from_key_file(key).key
    assert len(made) >= 32
    assert own_key_file(key) is False and Access.from_key_file(key).key == made


def _open_to_others(key: Path) -> None:
    key.chmod(0o644)


def _group_may_write(key: Path) -> None:
    key.chmod(0o620)


def _a_link(key: Path) -> None:
    target = key.with_name("elsewhere")
    key.rename(target)
    key.symlink_to(target)


def _a_folder(key: Path) -> None:
    key.unlink()
    key.mkdir()


@pytest.mark.parametrize(
    ("spoil", "said"),
    [
        (_open_to_others, "others can read or change the server key"),
        (_group_may_write, "(mode 620): chmod 600"),
        (_a_link, "is not a plain file"),
        (_a_folder, "is not a plain file"),
    ],
)
def test_lan_refuses_a_server_key_someone_else_could_read_or_swap(tmp_path, spoil, said):
    key = tmp_path / "server-key"
    own_key_file(key)
    spoil(key)
    with pytest.raises(DataError, match="server key") as refused:
        own_key_file(key)
    assert said in str(refused.value) and "\n" not in str(refused.value)


def test_lan_refuses_a_server_key_of_another_user(tmp_path, monkeypatch):
    key = tmp_path / "server-key"
    own_key_file(key)
    someone = os.getuid() + 1
    monkeypatch.setattr(os, "getuid", lambda: someone)
    with pytest.raises(DataError, match="belongs to another user"):
        own_key_file(key)


# tabletop serve: one line and exit 2 --------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("--lan", "--host", "0.0.0.0"), "give --lan or --host, not both"),
        (("--lan", "--public-url", "http://x.example"), "give --lan or --public-url, not both"),
        (("--lan", "--open"), "give --lan or --open, not both"),
    ],
)
def test_lan_refuses_options_that_say_otherwise(capsys, tmp_path, args, said):
    done = run(capsys, "serve", "--data", str(tmp_path), *args)
    assert done.code == 2 and said in done.err and len(done.err.strip().splitlines()) == 1
    assert not (tmp_path / serve.KEY_NAME).exists()


def test_lan_refuses_a_key_file_others_can_read_before_anything_listens(
    capsys, tmp_path, monkeypatch
):
    monkeypatch.setattr(serve, "lan_address", lambda: "192.0.2.7")
    key = tmp_path / serve.KEY_NAME
    key.write_text(KEY)
    key.chmod(0o644)
    done = run(capsys, "serve", "--lan", "--data", str(tmp_path))
    assert done.code == 2 and len(done.err.strip().splitlines()) == 1
    assert f"chmod 600 {key}" in done.err
    assert not (tmp_path / "rooms.sqlite3").exists()
    taken = tmp_path / "a-file"
    taken.write_text("not a folder")
    done = run(capsys, "serve", "--lan", "--data", str(taken))
    assert done.code == 2 and len(done.err.strip().splitlines()) == 1
    assert f"cannot make the folder {taken} for the server key" in done.err


def test_serve_on_a_port_another_server_holds_is_one_line(capsys, tmp_path):
    with socket.create_server(("127.0.0.1", 0)) as busy:
        port = busy.getsockname()[1]
        done = run(capsys, "serve", "--data", str(tmp_path), "--port", str(port))
    assert done.code == 2 and len(done.err.strip().splitlines()) == 1
    assert f"cannot listen on 127.0.0.1 port {port}" in done.err
    assert "pick another with --port" in done.err


# the Host header never moves the address ------------------------------------------------------


def test_a_lan_server_answers_to_its_network_address_and_this_computers_names_only():
    """The GM's links on 127.0.0.1 keep working; a DNS-rebinding page (another name) and a
    request for another port get 400 (test_access.py has the same over HTTP)."""
    address = PublicAddress.on_lan("192.168.1.23", 8000, ["proxy.internal"])
    assert address.url == "http://192.168.1.23:8000" and not address.loopback
    for host in ("192.168.1.23:8000", "127.0.0.1:8000", "localhost:8000", "proxy.internal"):
        assert address.accepts(host), host
    for host in ("evil.example", "evil.example:8000", "127.0.0.1:8001", "192.168.1.24:8000"):
        assert not address.accepts(host), host


# tabletop serve: what it says and where it listens ---------------------------------------------


@dataclass
class Served:
    """What `tabletop serve` printed and the addresses it was about to serve on."""

    said: list[str]
    listening: list[tuple[str, int]]


@pytest.fixture
def serve_once(capsys, monkeypatch):
    """`tabletop serve ARGS --port 0` up to the point where it serves until Ctrl-C, with the
    network address found stood in for: its sockets bound, its lines printed. Serving itself
    (uvicorn's loop, the workers) is left out here; the subprocess test below does it."""
    import uvicorn

    def serving(*args: str, found: str | None = None) -> Served:
        listening: list[tuple[str, int]] = []

        def record(server: uvicorn.Server, sockets: list[socket.socket]) -> None:
            for bound in sockets:
                listening.append(bound.getsockname()[:2])
                bound.close()

        monkeypatch.setattr(uvicorn.Server, "run", record)
        monkeypatch.setattr("tabletop.rooms.memory.quiet_collector", lambda: None)
        monkeypatch.setattr(serve, "lan_address", lambda: found)
        done = run(capsys, "serve", "--port", "0", *args)
        assert done.code == 0, done.err
        return Served(done.out.splitlines(), listening)

    return serving


ALONE = (
    "only this computer can open its links: they point at 127.0.0.1, which on a phone or "
    "another computer means that device itself. To play with people on your network, stop it "
    "(Ctrl-C) and start `tabletop serve --lan`: rooms and their invites carry over"
)


def test_a_server_on_this_computer_alone_says_phones_cannot_reach_it(serve_once, tmp_path):
    served = serve_once("--data", str(tmp_path))
    (port,) = {port for _, port in served.listening}
    assert served.listening == [("127.0.0.1", port)]
    assert served.said[0].startswith(f"tabletop rooms on http://127.0.0.1:{port} (")
    assert served.said[1] == ALONE


def test_lan_on_no_network_serves_this_computer_alone_and_says_so(serve_once, tmp_path):
    served = serve_once("--lan", "--data", str(tmp_path), found=None)
    assert [host for host, _ in served.listening] == ["127.0.0.1"]
    assert served.said[0] == (
        "--lan: this computer is on no network (it has no address but its own: is Wi-Fi on, "
        "or a cable in?), so for now it serves this computer alone"
    )
    assert served.said[2] == ALONE
    assert not (tmp_path / serve.KEY_NAME).exists()


def test_lan_listens_on_the_network_address_and_this_computer_only(serve_once, tmp_path):
    """127.0.0.2 stands in for the network address: Linux answers on all of 127/8."""
    key = (tmp_path / serve.KEY_NAME).resolve()
    for made in ("made a", "using the"):
        served = serve_once("--lan", "--data", str(tmp_path), found="127.0.0.2")
        (port,) = {port for _, port in served.listening}  # one port, the system's pick
        assert served.listening == [("127.0.0.2", port), ("127.0.0.1", port)]
        assert served.said[:2] == [
            f"--lan: this computer is 127.0.0.2 on its network; listening there and on "
            f"127.0.0.1 (this computer), port {port}, and on no other address",
            f"--lan: {made} server key in {key} (only you can read it); opening a room asks "
            f"for it: the lobby once a tab, or `tabletop room new --key-file {key}`",
        ]
        assert served.said[2].startswith(f"tabletop rooms on http://127.0.0.2:{port} (")
        assert "rooms opened by holders of the key" in served.said[2]
        assert served.said[3] == (
            "phones and computers on the same network open its invite links and QR codes; "
            "rooms opened before keep their invites, now at this address (the GM's page "
            "shows them)"
        )
        assert stat.S_IMODE(key.stat().st_mode) == 0o600


def test_lan_says_when_the_address_it_found_is_on_the_internet():
    (_, public) = serve._listening("8.8.8.8", 8000)
    assert public.startswith("--lan: 8.8.8.8 is an internet address, not a private one")
    assert serve._listening("192.168.1.23", 8000)[1:] == []


# a real start -------------------------------------------------------------------------------

STARTER = (
    "import tabletop.cli.serve as serve; serve.lan_address = lambda: '127.0.0.2'; "
    "from tabletop.cli.app import main; main()"
)
"""`tabletop serve` with the network address found stood in for: 127.0.0.2 is this computer
(Linux answers on all of 127/8) yet not 127.0.0.1, so "nowhere else" shows."""


@pytest.mark.skipif(sys.platform != "linux", reason="listens on 127.0.0.2, Linux's loopback")
def test_a_lan_server_serves_phones_on_its_network_address_and_strangers_nothing(tmp_path):
    port = free_port()
    command = [sys.executable, "-c", STARTER, "serve", "--lan", "--port", str(port)]
    process = subprocess.Popen(
        [*command, "--data", str(tmp_path), "--pool", "1"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    public = f"http://127.0.0.2:{port}"
    try:
        wait_for(process, f"{public}/health")
        with pytest.raises(httpx.ConnectError):  # not on every address: 127.0.0.3 is refused
            httpx.get(f"http://127.0.0.3:{port}/health")
        assert httpx.get(f"http://127.0.0.1:{port}/address").json()["url"] == public
        stranger = httpx.post(f"{public}/rooms", json={"system": "dice"})
        assert stranger.status_code == 401
        assert httpx.get(public, headers={"Host": "evil.example"}).status_code == 400
        key = Access.from_key_file(tmp_path / serve.KEY_NAME).key
        made = create_room(f"http://127.0.0.1:{port}", "dice", key=key)
        assert made["player"].startswith(f"{public}/rooms/")
        with RoomClient(made["player"]) as invite:  # what a phone opens
            assert invite.join("Ada").startswith(f"{public}/rooms/")
    finally:
        stop_process(process)


def wait_for(process: subprocess.Popen[bytes], health: str) -> None:
    deadline = time.monotonic() + 120  # its workers start beside a busy test suite
    while True:
        try:
            httpx.get(health, timeout=1).raise_for_status()
            return
        except httpx.TransportError:
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)
