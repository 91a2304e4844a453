"""`POST /verify` as the room page uses it (docs/rooms.md, "In the browser"): a plain export as
before; JSON with the nonces a browser kept (the `--mine` check) and one entry looked at
closely — its hash, its dice against the revealed seed, and whether it carries your nonce."""

from __future__ import annotations

import json

import httpx
import pytest

from tabletop.rooms.client import RoomClient, create_room


@pytest.fixture
def played(server):
    """Ada's roll with the nonce she kept, before the GM ends the session."""
    made = create_room(server, "dice")
    with RoomClient(made["player"]) as invite:
        ada = RoomClient(invite.join("Ada"))
    gm = RoomClient(made["gm"])
    ack = ada.act({"kind": "roll", "notation": "3d6"}, id="r1", nonce="n-one")
    ada.act({"kind": "roll", "notation": "1d20", "mode": "blind"}, id="r2", nonce="n-two")
    gm.act({"kind": "roll", "notation": "1d8"}, id="g1", nonce="g-one")
    yield server, ada, gm, ack["seqs"][0]
    ada.close()
    gm.close()


def checked(server: str, **asked) -> dict:
    response = httpx.post(f"{server}/verify", json=asked, timeout=30)
    assert response.status_code == 200, response.text
    return response.json()


def test_a_plain_export_is_checked_as_before(played):
    server, ada, gm, _ = played
    gm.end_session()
    text = "".join(f"{line}\n" for line in ada.export())
    answer = httpx.post(f"{server}/verify", content=text.encode()).json()
    assert answer["ok"] and answer["view"] == "m2"


def test_the_nonces_a_browser_kept_are_checked_like_verify_mine(played):
    server, ada, gm, _ = played
    gm.end_session()
    export = "\n".join(ada.export())
    mine = {"r1": "n-one", "r2": "n-two"}
    answer = checked(server, export=export, mine=mine)
    assert answer["ok"] and answer["mine"] == 2
    answer = checked(server, export=export, mine={"r1": "n-one", "r2": "n-other"})
    assert not answer["ok"] and "a nonce you did not send" in answer["error"]
    full = "\n".join(gm.export())
    assert checked(server, export=full, mine={"g1": "g-one"}, member="m1")["mine"] == 1


def test_checking_a_witnessed_roll_before_the_session_ends_shows_its_dice_at_once(played):
    """Format 3: a roll's dice check as soon as it is on the log (nothing waits for a seed)."""
    server, ada, _, seq = played
    mine = {"r1": "n-one", "r2": "n-two"}
    answer = checked(server, export="\n".join(ada.export()), mine=mine, entry=seq)
    assert answer["ok"], answer
    entry = answer["entry"]
    assert entry["seq"] == seq and len(entry["hash"]) == 64 and "rolls 3d6" in entry["text"]
    assert entry["dice"]["text"] == "every die is what its keys and witnesses give"
    assert entry["nonce"]["state"] == "good" and "n-one" in entry["nonce"]["text"]


def test_checking_a_roll_after_the_session_shows_each_die_against_the_seed(played):
    server, ada, gm, seq = played
    gm.end_session()
    lines, mine = ada.export(), {"r1": "n-one", "r2": "n-two"}
    answer = checked(server, export="\n".join(lines), mine=mine, entry=seq)
    dice = answer["entry"]["dice"]
    assert answer["ok"] and dice["state"] == "good" and len(dice["draws"]) == 3
    assert all(d["face"] == d["seed"] and d["sides"] == 6 for d in dice["draws"])
    blind = seq + 1  # Ada sees her blind roll's nonce, not its dice
    entry = checked(server, export="\n".join(lines), mine=mine, entry=blind)["entry"]
    assert entry["dice"]["state"] == "sealed" and entry["nonce"]["state"] == "good"
    gms = checked(server, export="\n".join(lines), entry=seq + 2)["entry"]
    assert gms["nonce"]["state"] == "others" and gms["dice"]["state"] == "good"


def test_a_forged_die_or_line_is_shown_as_such(played):
    server, _, gm, seq = played
    gm.end_session()
    lines = gm.export()
    body = json.loads(lines[seq - 1])
    body["event"]["cause"]["draws"][0]["face"] = 7 - body["event"]["cause"]["draws"][0]["face"]
    forged = [*lines[: seq - 1], json.dumps(body, ensure_ascii=False), *lines[seq:]]
    entry = checked(server, export="\n".join(forged), entry=seq)["entry"]
    assert entry["hash"] is None and f"line {seq}" in entry["problem"]
    assert checked(server, export="\n".join(lines), entry=999)["entry"]["hash"] is None


@pytest.mark.parametrize(
    "body",
    [
        b"[]",
        b'{"export": 5}',
        b'{"export": "x", "mine": {"r1": 5}}',
        b'{"export": "x", "entry": -1}',
        b'{"export": "x", "surprise": 1}',
        b"\xff",
    ],
)
def test_a_malformed_check_request_is_a_one_line_400(server, body):
    response = httpx.post(
        f"{server}/verify", content=body, headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 400 and set(response.json()) == {"error"}
