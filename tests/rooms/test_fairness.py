"""Why nobody can choose a die (docs/rooms.md): every position of a room's dice stream is
drawn once and the log accounts for it — refusals, retries, undo, blind and self rolls,
bots — so a client that grinds gets dice as fair as one that does not."""

from __future__ import annotations

import json

import pytest

from tabletop.rooms import AuditError, Hall, RoomError, SqliteStore, verify
from tabletop.rooms.errors import RefusedOnRecord
from tabletop.rooms.fairdice import FairDice, table_nonce
from tabletop.session import TABLE
from tests.rooms.conftest import Seated, seat
from tests.rooms.forge import rechained

PROBE = "1/((20-1d20)/6)"
"""Issue 21's probe: it fails (division by zero) exactly when its d20 shows 15 or more."""


@pytest.fixture
def fixed(tmp_path) -> Seated:
    """A dice room whose seeds are fixed, so every outcome below is the same each run."""
    hall = Hall(SqliteStore(tmp_path / "rooms.sqlite3"), seeds=lambda: bytes(range(32)))
    return seat(hall, "dice")


def roll(room: Seated, who: str, notation: str, mode: str, nonce: str, client: str = ""):
    intent = {"kind": "roll", "notation": notation, "mode": mode}
    return room.hall.act(room.room, room.member(who).id, intent, client or nonce, nonce)


def test_a_grinding_client_gets_fair_dice_and_every_probe_is_on_the_record(fixed):
    """The attack of issue 21: probe with a self roll; when it fails, roll the public d20
    with the same nonce. The nonce is refused; a fresh one draws a new position."""
    probes, public = [], []
    for attempt in range(30):
        try:
            roll(fixed, "Ada", PROBE, "self", f"p{attempt}")
            continue
        except RefusedOnRecord as refused:
            probes.append(refused.seq)
        with pytest.raises(RoomError, match="already named entry"):
            roll(fixed, "Ada", "1d20", "public", f"p{attempt}", client=f"again{attempt}")
        done = roll(fixed, "Ada", "1d20", "public", f"d{attempt}")
        public.append(done.entries[0])
    assert probes and len(public) == len(probes)
    log = {entry.seq: entry for entry in fixed.hall.entries(fixed.room)}
    for seq in probes:  # every probe that failed holds the die it drew, ≥ 15
        cause = log[seq].event.cause
        assert cause is not None and cause.refused and cause.draws[0].face >= 15
    for entry, probe in zip(public, probes, strict=True):
        assert entry.seq > probe and entry.nonce != log[probe].nonce
    faces = [entry.event.cause.draws[0].face for entry in public]  # type: ignore[union-attr]
    assert sum(face >= 15 for face in faces) < len(faces)  # not 30 of 30, as on main


def test_a_refused_probe_answers_the_same_to_a_resent_id_and_draws_nothing_more(fixed):
    with pytest.raises(RefusedOnRecord) as first:
        for attempt in range(40):
            roll(fixed, "Ada", PROBE, "public", f"q{attempt}")
    head = fixed.hall.table(fixed.room).head
    with pytest.raises(RefusedOnRecord) as again:
        roll(fixed, "Ada", PROBE, "public", f"q{attempt}")
    assert (again.value.seq, str(again.value)) == (first.value.seq, str(first.value))
    assert fixed.hall.table(fixed.room).head == head


def test_a_blind_probe_looks_like_any_blind_roll_to_its_roller(fixed):
    """A blind roll's refusal is not an error to its roller: they learn only that a blind
    roll was made (and its nonce and seq), exactly as when it is not refused."""
    ada = fixed.member("Ada")
    made = [roll(fixed, "Ada", PROBE, "blind", f"b{n}") for n in range(12)]
    refused = [m for m in made if m.entries[0].event.cause.refused]  # type: ignore[union-attr]
    kept = [m for m in made if not m.entries[0].event.cause.refused]  # type: ignore[union-attr]
    assert refused and kept
    lines = [fixed.hall.project(fixed.room, m.entries[0], ada) for m in refused + kept]
    shown = {json.dumps([body["public"], body["event"]]) for body in map(json.loads, lines)}
    assert len(shown) == 1  # the same public hint for every one
    assert all(json.loads(line)["nonce"].startswith("b") for line in lines)
    gm = fixed.member("GM")
    gm_lines = [fixed.hall.project(fixed.room, m.entries[0], gm) for m in refused]
    assert all(line and '"refused"' in line for line in gm_lines)


def test_undo_keeps_the_dice_on_the_record_and_a_reroll_draws_anew(fixed):
    first = roll(fixed, "GM", "1d20", "public", "u1").entries[0]
    fixed.hall.undo(fixed.room, fixed.member("GM").id)
    with pytest.raises(RoomError, match="already named entry"):
        roll(fixed, "GM", "1d20", "public", "u1", client="u1-again")
    second = roll(fixed, "GM", "1d20", "public", "u2").entries[0]
    assert second.seq > first.seq
    types = [entry.event.type for entry in fixed.hall.entries(fixed.room)]
    assert types.count("roll") == 2 and "room.undo" in types


def test_self_rolls_and_their_refusals_reach_the_gm(fixed):
    gm = fixed.member("GM")
    done = roll(fixed, "Ada", "1d6", "self", "s1").entries[0]
    assert fixed.hall.project(fixed.room, done, gm) == done.text
    assert fixed.hall.project(fixed.room, done, fixed.member("Bo")) is None


def test_the_tables_moves_draw_at_a_position_the_server_cannot_pick(tmp_path):
    """A format-2 board room's bot moves are made at table_nonce(seq, latest member nonce);
    a log whose table move was made anywhere else fails verify (format 3 witnesses them:
    test_witness.py)."""
    store = SqliteStore(tmp_path / "rooms.sqlite3")
    hall = Hall(store, seeds=lambda: bytes(range(32)), log_format=2)
    room = seat(hall, "deadweight-board")
    gm = room.member("GM")
    for number in range(2):
        hall.act(room.room, gm.id, {"kind": "seat-bot", "bot": "random"}, f"bot{number}")
    hall.act(room.room, gm.id, {"kind": "start"}, "start", nonce="gm-start")
    moved = hall.table_move(room.room).entries[0]
    assert moved.event.cause is not None and moved.event.cause.member == TABLE
    assert moved.nonce == table_nonce(moved.seq, "gm-start")
    hall.end_session(room.room, gm.id)
    lines = hall.export(room.room, gm)
    assert verify(lines).ruled

    forged = [json.loads(line) for line in lines]
    body, chosen = forged[moved.seq - 1], table_nonce(moved.seq, "chosen-by-the-server")
    seed = next(
        bytes.fromhex(b["event"]["data"]["seed"])
        for b in forged
        if b.get("event", {}).get("type") == "room.session-ended"
    )
    dice = FairDice(seed, f"{TABLE.id}:{chosen}")
    body["nonce"] = chosen
    for draw in body["event"]["cause"]["draws"]:
        draw["face"] = dice.roll(draw["sides"])
    with pytest.raises(AuditError, match=f"line {moved.seq}: the table's move was not made"):
        verify(rechained([json.dumps(body) for body in forged]))


def test_a_table_nonce_never_shows_the_hidden_nonce_it_follows(tmp_path):
    """The table's nonce is public with its bot move; the GM's start before it is hidden
    (its dice dealt the face-down cards), so the table's nonce holds only a hash of the
    start's nonce: once the seed is revealed, the setup's dice stay secret."""
    hall = Hall(SqliteStore(tmp_path / "rooms.sqlite3"), seeds=lambda: bytes(range(32)))
    room = seat(hall, "deadweight-board")
    gm = room.member("GM")
    for number in range(2):
        hall.act(room.room, gm.id, {"kind": "seat-bot", "bot": "random"}, f"bot{number}")
    secret = "a1b2c3d4e5f60718293a4b5c6d7e8f90"
    hall.act(room.room, gm.id, {"kind": "start"}, "start", nonce=secret)
    moved = hall.table_move(room.room).entries[0]
    everything = "".join(room.hall.export(room.room, room.member("Ada")))
    assert moved.nonce is not None and secret not in moved.nonce and secret not in everything


def test_a_request_without_a_nonce_gets_an_unguessable_one(fixed):
    done = fixed.hall.act(
        fixed.room, fixed.member("Ada").id, {"kind": "roll", "notation": "1d6"}, "c-1"
    )
    assert done.entries[0].nonce != "c-1" and len(done.entries[0].nonce or "") == 32
