"""`tabletop room …` against a running server: --json shapes, one line and exit 2 for a bad
link, an unknown room or a refused intent, and `verify` exiting 1 on the first bad line."""

from __future__ import annotations

import contextlib
import json
import signal
import subprocess
import sys
import time

import httpx
import pytest

from tabletop.rooms import SqliteStore
from tests.cli.helpers import run
from tests.rooms.conftest import free_port, serve_in_thread


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A server on SQLite: the command line is the same whatever the server stores in."""
    store = SqliteStore(tmp_path_factory.mktemp("cli") / "rooms.sqlite3")
    running = serve_in_thread(store)
    yield running.url
    running.stop()
    store.close()


@pytest.fixture
def room(server, capsys):
    made = run(capsys, "room", "new", "--server", server, "--system", "dice", "--json")
    assert made.code == 0, made.err
    links = json.loads(made.out)
    assert set(links) == {"room", "gm", "player", "observer"}
    joined = run(capsys, "room", "join", links["player"], "--name", "Ada<b>", "--json")
    links["ada"] = json.loads(joined.out)["link"]
    return links


def test_a_roll_prints_the_event_or_its_ack_as_json(room, capsys):
    shown = run(capsys, "room", "roll", room["ada"], "2d6", "--mode", "public")
    assert shown.code == 0 and "rolls 2d6 → [" in shown.out
    acked = json.loads(run(capsys, "room", "roll", room["ada"], "1d6", "--json").out)
    assert acked["type"] == "ack" and len(acked["seqs"]) == 1


def test_chat_with_terminal_escapes_is_refused_in_one_line(room, capsys):
    """A room refuses text that could drive a terminal (issue 33); the line saying so holds
    none of it (names and chat are printed with their controls written out all the same:
    tests/rooms/test_attacks.py)."""
    shown = run(capsys, "room", "say", room["ada"], "hi\x07\x1b[31m")
    assert shown.code == 2 and "U+0007" in shown.err
    assert "\x1b" not in shown.out + shown.err and "\x07" not in shown.out + shown.err


def test_log_json_prints_exactly_the_lines_the_server_sent(room, capsys):
    from tabletop.rooms.client import RoomClient

    run(capsys, "room", "roll", room["ada"], "1d6")
    printed = run(capsys, "room", "log", room["ada"], "--json").out.splitlines()
    with RoomClient(room["ada"]) as client:
        assert printed == client.log()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("roll", "http://127.0.0.1:1/rooms/x#y", "1d6"), "cannot reach"),
        (("roll", "not a link", "1d6"), "not a room link"),
        (("act", "{ada}", '{"kind": "nothing"}'), "not an intent"),
        (("act", "{ada}", "[1]"), "a JSON object"),
        (("kick", "{ada}", "GM"), "only the GM"),
        (("roll", "{gone}", "1d6"), "no room 'nosuchroom'"),
        (("roll", "{ada}", "1d"), "bad dice expression"),
    ],
)
def test_a_bad_link_unknown_room_or_refused_intent_is_one_line_and_exit_2(
    room, capsys, args, message
):
    gone = room["ada"].replace(room["room"], "nosuchroom")
    filled = [a.replace("{ada}", room["ada"]).replace("{gone}", gone) for a in args]
    result = run(capsys, "room", *filled)
    assert result.code == 2 and message in result.err
    assert len(result.err.strip().splitlines()) == 1


def test_an_export_verifies_and_a_tampered_one_exits_1_naming_the_line(room, capsys, tmp_path):
    run(capsys, "room", "roll", room["ada"], "3d6")
    run(capsys, "room", "end-session", room["gm"])
    out = tmp_path / "log.jsonl"
    assert run(capsys, "room", "export", room["gm"], "--out", str(out)).code == 0
    ok = run(capsys, "room", "verify", str(out))
    assert ok.code == 0 and ok.out.startswith("ok: 5 entries") and "3 dice" in ok.out
    lines = out.read_text().splitlines()
    lines[3] = lines[3].replace('"face":', '"face":1', 1)
    out.write_text("\n".join(lines) + "\n")
    failed = run(capsys, "room", "verify", str(out), "--json")
    assert failed.code == 1 and json.loads(failed.out)["line"] == 4
    assert "line 4: what it shows does not match its hash" in failed.err


def test_verify_mine_checks_that_your_entries_carry_the_nonces_you_sent(room, capsys, tmp_path):
    """The terminal writes down each nonce it sends (issue 21: a server could otherwise roll
    a player's intent at a nonce of its own choosing and no one would know)."""
    from tabletop.rooms.nonces import default_book

    run(capsys, "room", "roll", room["ada"], "1d20", "--mode", "blind")
    run(capsys, "room", "roll", room["ada"], "2d6")
    run(capsys, "room", "end-session", room["gm"])
    out = tmp_path / "ada.jsonl"
    assert run(capsys, "room", "export", room["ada"], "--out", str(out)).code == 0
    book = default_book(room["room"])
    checked = run(capsys, "room", "verify", str(out), "--mine", str(book))
    assert checked.code == 0 and "2 of yours carry your nonces" in checked.out
    forged = book.read_text().replace('"nonce": "', '"nonce": "x', 1)
    (tmp_path / "other.jsonl").write_text(forged)
    refused = run(capsys, "room", "verify", str(out), "--mine", str(tmp_path / "other.jsonl"))
    assert refused.code == 1 and "a nonce you did not send" in refused.err


def test_a_kicked_players_link_is_refused_with_exit_2(room, capsys):
    assert run(capsys, "room", "kick", room["gm"], "Ada<b>").code == 0
    refused = run(capsys, "room", "roll", room["ada"], "1d6")
    assert refused.code == 2 and "does not open this room" in refused.err


def test_qr_shows_the_player_invite_in_the_terminal(server, capsys):
    shown = run(capsys, "room", "new", "--server", server, "--system", "dice", "--qr")
    assert shown.code == 0 and "player: http://" in shown.out
    assert "█" in shown.out or "▀" in shown.out


def test_serve_prints_its_address_and_stops_cleanly_on_sigterm(tmp_path):
    port = free_port()
    command = [sys.executable, "-c", "from tabletop.cli.app import main; main()", "serve"]
    process = subprocess.Popen(
        [*command, "--port", str(port), "--data", str(tmp_path / "fresh")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        first, second, third = (process.stdout.readline() for _ in range(3))
        assert first.startswith(f"tabletop rooms on http://127.0.0.1:{port}")
        assert second.startswith("only this computer can open its links")  # test_lan.py
        assert "tabletop room new --server" in third
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            with contextlib.suppress(httpx.TransportError):
                if httpx.get(f"http://127.0.0.1:{port}/health").status_code == 200:
                    break
            time.sleep(0.05)
        process.send_signal(signal.SIGTERM)
        # uvicorn shuts down gracefully, then lets the signal end the process as it would
        assert process.wait(timeout=20) in (0, -signal.SIGTERM)
    finally:
        if process.poll() is None:
            process.kill()
        _, err = process.communicate()
    assert "Traceback" not in err


def test_the_gm_renames_and_promotes_from_the_command_line(room, capsys):
    renamed = run(capsys, "room", "rename", room["gm"], "Ada<b>", "Ada")
    assert renamed.code == 0 and "renamed" in renamed.out
    promoted = run(capsys, "room", "promote", room["gm"], "Ada", "observer", "--json")
    assert json.loads(promoted.out)["type"] == "ack"
    assert run(capsys, "room", "roll", room["ada"], "1d6").code == 2  # observers only watch
    refused = run(capsys, "room", "promote", room["ada"], "GM", "player")
    assert refused.code == 2 and "only the GM" in refused.err


def test_a_members_bundle_catches_a_cut_tail_the_export_alone_passes(room, capsys, tmp_path):
    """Ada's terminal follows the room (a witness: it answers each call and keeps every
    head) while she rolls; `room export --bundle` writes her export, nonce book and heads as
    one file that `room verify` checks together. Her log cut short and chained again
    verifies alone, and fails her bundle."""
    import threading

    from tabletop.cli.rooms import _client
    from tabletop.rooms import RoomError
    from tests.rooms.forge import rechained

    seen: list[dict] = []
    follower = _client(room["ada"])

    def follow() -> None:
        with contextlib.suppress(RoomError):
            for text in follower.follow(reconnect=False):
                seen.append(json.loads(text))

    threading.Thread(target=follow, daemon=True).start()
    until(lambda: any(f.get("type") == "welcome" for f in seen))
    rolled = json.loads(run(capsys, "room", "roll", room["ada"], "1d20", "--json").out)
    until(lambda: any(f.get("seq") == rolled["seqs"][0] and "type" not in f for f in seen))
    follower.close()
    assert not any(f.get("type") == "alarm" for f in seen)
    out = tmp_path / "ada.bundle"
    assert run(capsys, "room", "export", room["ada"], "--bundle", "--out", str(out)).code == 0
    checked = run(capsys, "room", "verify", str(out), "--json")
    assert checked.code == 0, checked.err
    summary = json.loads(checked.out)
    assert summary["mine"] == 1 and summary["heads"] >= 2 and summary["witnessed"] == 1
    bundle = json.loads(out.read_text())
    lines = bundle["export"].splitlines()
    cut = rechained(lines[:-2] + lines[-1:])
    (tmp_path / "cut.jsonl").write_text("\n".join(cut) + "\n")
    assert run(capsys, "room", "verify", str(tmp_path / "cut.jsonl")).code == 0
    bundle["export"] = "\n".join(cut) + "\n"
    out.write_text(json.dumps(bundle))
    failed = run(capsys, "room", "verify", str(out))
    assert failed.code == 1 and "cut short" in failed.err


def until(done, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "waited too long"
        time.sleep(0.01)
