"""Witnessed dice (log format 3), tried as the host who plays, a dishonest server and a
witness that drops out (docs/rooms.md, "Why nobody can choose a die" and "Threat model").
Each test fails on a48a6db, where the seed in the server's database let its holder compute
every die in advance. Time is a clock passed in, never waited for."""

from __future__ import annotations

import contextlib
import hashlib
import json
import threading
import time

import pytest

from tabletop.rooms import AuditError, Hall, RoomError, SqliteStore, verify
from tabletop.rooms.fairdice import (
    FairDice,
    chain_step,
    commitment,
    digest,
    new_chain,
    witnessed_position,
)
from tabletop.rooms.messages import (
    Attach,
    Call,
    Caller,
    Detach,
    Failure,
    Reply,
    Resolve,
    ShardConfig,
)
from tabletop.rooms.readings import load_session
from tabletop.rooms.shards import MOVED, Shard
from tabletop.rooms.witness import WITNESS_WAIT
from tabletop.session import Member
from tests.rooms.conftest import Seated, fixed_seeds, seat
from tests.rooms.forge import rechained

D20 = {"kind": "roll", "notation": "1d20"}


class Clock:
    def __init__(self) -> None:
        self.now = 1_767_225_600.0

    def __call__(self) -> float:
        return self.now


class Witness:
    """A member's client as a witness: its chain, revealed from the end."""

    def __init__(self, room: Seated, name: str) -> None:
        self.member = room.member(name).id
        self.values = new_chain(hashlib.sha256(name.encode()).digest(), 64)
        self.used = 0
        room.hall.witness(room.room, self.member, self.values[-1])

    def next(self) -> str:
        self.used += 1
        return self.values[-1 - self.used]


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def room(tmp_path, clock) -> Seated:
    hall = Hall(SqliteStore(tmp_path / "rooms.sqlite3"), clock=clock, seeds=fixed_seeds())
    return seat(hall, "dice")


def called_roll(room: Seated, name: str, witnesses, intent=D20, client="r1", nonce="n1"):
    hall = room.hall
    member = room.member(name).id
    return hall.call(room.room, member, intent, client, nonce, tuple(w.member for w in witnesses))


def settle(room: Seated, name: str, called, intent=D20):
    hall = room.hall
    member = room.member(name).id
    return hall.act(room.room, member, intent, called.client, called.nonce, called=called)


def faces(dice: FairDice) -> list[int]:
    return [dice.roll(20) for _ in range(8)]


def test_attack_the_hosts_grind_cannot_see_a_die_before_the_reveals(room):
    """The host reads its database (the call's secret), picks the nonce, runs a sockpuppet
    witness (the GM's own device) and sees the call before anyone: every die it can compute
    then differs from the die Bo's reveal gives, and the only value the call takes for Bo
    is the next one down Bo's chain, which the host cannot make."""
    bo, puppet = Witness(room, "Bo"), Witness(room, "GM")
    called = called_roll(room, "Ada", [bo, puppet])
    assert called is not None and called.witnesses == ("m1", "m3")
    assert called.take("m1", called.digest, puppet.next())
    # What the host can compute before Bo reveals: Bo's head, the puppet's values, guesses.
    known = [bo.values[-1], puppet.values[-1], puppet.values[-3], "00" * 32]
    guesses = [
        faces(
            FairDice(
                called.secret,
                witnessed_position(called.seq, {"m1": puppet.values[-2], "m3": value}),
            )
        )
        for value in known
    ]
    for forged in known:
        assert not called.take("m3", called.digest, forged)  # not the next value of Bo's chain
    assert called.take("m3", called.digest, bo.next()) and called.complete
    assert all(faces(called.dice()) != guess for guess in guesses)
    rolled = settle(room, "Ada", called).entries[0]
    assert rolled.witnessed["reveals"] == {"m1": puppet.values[-2], "m3": bo.values[-2]}
    assert verify(room.hall.export(room.room, room.member("GM"))).witnessed == 1


def test_attack_withholding_a_sockpuppet_names_it_absent(room, clock):
    """The host withholds its sockpuppet's value after seeing Bo's: the roll is resolved at
    the bound, and every member's line of it names the puppet absent."""
    bo, puppet = Witness(room, "Bo"), Witness(room, "GM")
    called = called_roll(room, "Ada", [bo, puppet])
    assert called.take("m3", called.digest, bo.next()) and not called.due(clock())
    clock.now += WITNESS_WAIT
    assert called.due(clock())
    rolled = settle(room, "Ada", called).entries[0]
    assert rolled.witnessed["absent"] == ["m1"] and list(rolled.witnessed["reveals"]) == ["m3"]
    for name in ("Ada", "Bo", "Watcher"):
        line = json.loads(room.hall.project(room.room, rolled, room.member(name)) or "{}")
        assert line["witnessed"]["absent"] == ["m1"]
    assert verify(room.hall.export(room.room, room.member("Watcher"))).entries


def test_a_witness_that_drops_out_is_named_and_the_roll_waits_only_the_bound(room, clock):
    """Bo's device drops out after the call: the roll is due exactly at the bound (not a
    moment later), resolved with Ada's reveal, Bo named absent; no roll without a witness
    goes unmarked."""
    ada, bo = Witness(room, "Ada"), Witness(room, "Bo")
    called = called_roll(room, "Ada", [ada, bo])
    assert called.take("m2", called.digest, ada.next())
    clock.now += WITNESS_WAIT - 0.001
    assert not called.due(clock())
    clock.now += 0.001
    assert called.due(clock())
    rolled = settle(room, "Ada", called).entries[0]
    assert rolled.witnessed["absent"] == ["m3"]
    alone = room.hall.act(room.room, "m2", D20, "r2", "n2").entries[0]
    assert alone.witnessed["witnesses"] == [] and alone.witnessed["reveals"] == {}
    assert verify(room.hall.export(room.room, room.member("GM"))).unwitnessed == 1


def test_attack_an_honest_reveal_used_for_another_call_is_caught(room):
    """The server takes Bo's value for one call, dislikes the outcome, and makes another
    call that claims the same value: Bo's kept reveal names the roll as replaced."""
    bo = Witness(room, "Bo")
    first = called_roll(room, "Ada", [bo])
    value = bo.next()
    assert first.take("m3", first.digest, value)
    kept = {"seq": first.seq, "call": first.digest, "value": value}
    second = called_roll(room, "Ada", [bo])
    assert second.take("m3", second.digest, value)  # the server's own hand: no check stops it
    settle(room, "Ada", second)
    lines = room.hall.export(room.room, room.member("Bo"))
    assert verify(lines).entries  # alone, the export is sound
    with pytest.raises(AuditError, match="another call here"):
        verify(lines, member="m3", heads=[kept])


def test_attack_the_intent_swap_is_named_by_the_nonce_book(room):
    """Ada's page resends two pending intents after a reconnect the server forced; the
    server pairs her d20 with the nonce of her d100. Her nonce book binds each nonce to
    the digest of its intent: `verify --mine` names the entry, and a resend carrying the
    digest of another intent is refused."""
    d100 = {"kind": "roll", "notation": "1d100"}
    book = {
        "p1": {"nonce": "n1", "intent": digest(d100)},
        "p2": {"nonce": "n2", "intent": digest(D20)},
    }
    with pytest.raises(Exception, match="not the one its digest names"):
        room.hall.call(room.room, "m2", D20, "p1", "n1", sent=digest(d100))
    room.hall.act(room.room, "m2", D20, "p1", "n1")  # the swap
    lines = room.hall.export(room.room, room.member("Ada"))
    with pytest.raises(AuditError, match="another intent than you sent"):
        verify(lines, mine=book)


def forged_roll(lines: list[str], seq: int, face: int) -> list[str]:
    """The host's rewrite after the game: the roll at `seq` given a secret of its choosing
    whose d20 shows `face`, resolved again, every hash and call made to agree."""
    bodies = [json.loads(line) for line in lines]
    body = bodies[seq - 1]
    header, session = body["witnessed"], load_session("dice")
    opened = bytes(32)
    where = witnessed_position(seq, header["reveals"])
    for attempt in range(10_000):
        secret = hashlib.sha256(f"forged {attempt}".encode()).digest()
        if FairDice(secret, where).roll(20) == face:
            break
    header["commitment"] = {"kept": commitment(secret), "open": commitment(opened)}
    dice = FairDice(secret, where)
    cause = body["event"]["cause"]
    event = session.resolve(session.new({}), cause["intent"], Member(**cause["member"]), dice)[0]
    keys = {"kept": secret.hex(), "open": opened.hex(), "open_at": []}
    body["event"], body["secret"] = event.model_dump(mode="json"), keys
    return rechained([json.dumps(b) for b in bodies])


def test_attack_a_rewrite_after_end_session_is_caught_by_kept_heads(room):
    """After the session the host rewrites Ada's roll to a natural 20 with a secret of its
    choosing and chains every hash again: the bare export verifies, Bo's kept heads do not."""
    rolled = room.hall.act(room.room, "m2", D20, "r1", "n1").entries[0]
    room.hall.end_session(room.room, "m1")
    lines = room.hall.export(room.room, room.member("GM"))
    heads = [{"seq": json.loads(x)["seq"], "hash": json.loads(x)["hash"]} for x in lines[:-1]]
    forged = forged_roll(lines, rolled.seq, 20)
    assert verify(forged).ruled
    with pytest.raises(AuditError, match=f"line {rolled.seq}: you saw entry {rolled.seq} as"):
        verify(forged, heads=heads)


def test_attack_a_cut_tail_and_a_fork_are_caught_by_kept_heads(room):
    room.hall.act(room.room, "m2", D20, "r1", "n1")
    lines = room.hall.export(room.room, room.member("Bo"))
    heads = [{"seq": json.loads(x)["seq"], "hash": json.loads(x)["hash"]} for x in lines[:-1]]
    cut = rechained(lines[:-2] + lines[-1:])
    assert verify(cut).entries == len(lines) - 2
    with pytest.raises(AuditError, match="cut short"):
        verify(cut, heads=heads)


def test_attack_the_bot_dice_cannot_be_previewed(tmp_path):
    """The table's move is called like a member's roll: its nonce is drawn fresh (nothing in
    the log names it), and its dice wait on the witnesses, so a host holding the database
    cannot preview a bot's dice, and a chat line sent during the pause moves nothing."""
    hall = Hall(SqliteStore(tmp_path / "rooms.sqlite3"), seeds=fixed_seeds())
    room = seat(hall, "deadweight-board")
    for number in range(2):
        hall.act(room.room, "m1", {"kind": "seat-bot", "bot": "random"}, f"bot{number}")
    hall.act(room.room, "m1", {"kind": "start"}, "start", nonce="gm-start")
    bo = Witness(room, "Bo")
    called = hall.table_call(room.room, (bo.member,))
    again = hall.table_call(room.room, (bo.member,))
    assert called.nonce != again.nonce  # nothing the host knows fixes the table's nonce
    before = faces(FairDice(called.secret, witnessed_position(called.seq, {})))
    assert called.take(bo.member, called.digest, bo.next())
    assert faces(called.dice()) != before
    moved = hall.table_move(room.room, called=called).entries[0]
    assert moved.witnessed["reveals"] == {bo.member: bo.values[-2]}
    assert verify(hall.export(room.room, room.member("GM"))).ruled


def keys_in(lines: list[str]) -> set[str]:
    """Every key of a witnessed roll that `lines` hold, opened or shown."""
    found = set()
    for body in map(json.loads, lines):
        found.update(body.get("secret", {}).get(k, "") for k in ("kept", "open"))
        found.add(body.get("witnessed", {}).get("open", ""))
    return found - {""}


def test_attack_a_blind_roller_cannot_compute_their_dice_after_end_session(room):
    """Ada's blind roll: after end-session she holds her nonce, her intent and every
    reveal, never the roll's secret, so she can never compute her dice; ending the
    session reveals nothing."""
    blind = {"kind": "roll", "notation": "1d20", "mode": "blind"}
    rolled = room.hall.act(room.room, "m2", blind, "b1", "nb").entries[0]
    ended = room.hall.end_session(room.room, "m1").entries[0]
    assert ended.event.data == {"session": 0}
    mine = room.hall.export(room.room, room.member("Ada"))
    line = json.loads(mine[rolled.seq - 1])
    assert line["nonce"] == "nb" and "witnessed" in line and "secret" not in line
    keys = {rolled.secret["kept"], rolled.secret["open"]}
    assert not keys & keys_in(mine) and not any(key in "".join(mine) for key in keys)
    assert keys <= keys_in(room.hall.export(room.room, room.member("GM")))


def test_attack_face_down_board_cards_stay_unknown_after_end_session(tmp_path):
    """The board's setup deals face-down cards from its dice: after the session ends, no
    player's or observer's bytes hold the setup's secret."""
    hall = Hall(SqliteStore(tmp_path / "rooms.sqlite3"), seeds=fixed_seeds())
    room = seat(hall, "deadweight-board")
    for number in range(2):
        hall.act(room.room, "m1", {"kind": "seat-bot", "bot": "random"}, f"bot{number}")
    setup = hall.act(room.room, "m1", {"kind": "start"}, "start", nonce="gm-start").entries[0]
    hall.end_session(room.room, "m1")
    assert setup.secret is not None and setup.event.cause.draws
    for name in ("Ada", "Bo", "Watcher"):
        seen = "".join(hall.export(room.room, room.member(name)))
        assert setup.secret["kept"] not in seen and setup.secret["open"] not in seen


def test_a_chain_value_is_the_preimage_of_the_one_before():
    values = new_chain(bytes(32), 4)
    assert all(chain_step(values[i]) == values[i + 1] for i in range(4))


def test_a_following_client_witnesses_every_roll_and_keeps_its_heads(tmp_path):
    """Through a real server: Bo's `follow` answers each call with its chain's next value
    and keeps every head; Ada's roll lists Bo and holds his value, Bo raises no alarm, and
    his kept heads verify Ada's export."""
    from tabletop.rooms.client import RoomClient
    from tabletop.rooms.nonces import read_heads
    from tests.rooms.conftest import create_room, serve_in_thread

    running = serve_in_thread(SqliteStore(tmp_path / "rooms.sqlite3"), witness_wait=0.3)
    try:
        made = create_room(running.url, "dice")
        with RoomClient(made["player"]) as invite:
            ada_link = invite.join("Ada")
        with RoomClient(made["player"]) as invite:
            bo_link = invite.join("Bo")
        chain, heads = tmp_path / "chain.json", tmp_path / "heads.jsonl"
        bo = RoomClient(bo_link, witness=(chain, heads))
        seen: list[dict] = []
        welcomed = threading.Event()

        def follow() -> None:  # Bo's device, reading (and answering) as frames come
            with contextlib.suppress(RoomError):  # the server stops at the test's end
                for text in bo.follow(reconnect=False):
                    seen.append(json.loads(text))
                    welcomed.set()

        threading.Thread(target=follow, daemon=True).start()
        assert welcomed.wait(10)
        with RoomClient(ada_link) as ada:
            seq = ada.roll("1d20")["seqs"][0]
            rolled = ada.log(seq - 1)
            header = json.loads(rolled[0])["witnessed"]
            assert header["witnesses"] == ["m3"] and list(header["reveals"]) == ["m3"]
            assert not any(f.get("type") == "alarm" for f in seen)
            deadline = time.monotonic() + 10
            while not any(f.get("seq") == seq and "type" not in f for f in seen):
                assert time.monotonic() < deadline
                time.sleep(0.01)
            kept = read_heads(heads, made["room"])
            assert verify(ada.export(), member="m3", heads=kept).heads == len(kept)
        bo.close()
    finally:
        running.stop()


def test_a_call_dropped_after_its_reveals_is_named_by_the_witness_and_its_next_roll(room):
    """A call Bo revealed for is never appended (its room was dropped, say): Bo's next
    reveal names that call, and is taken only so (one value passed, one call named); the
    roll's line names it for everyone, and Bo's kept heads, holding both reveals, verify."""
    bo = Witness(room, "Bo")
    dropped = called_roll(room, "Ada", [bo])
    first = bo.next()
    assert dropped.take("m3", dropped.digest, first)
    again = called_roll(room, "Ada", [bo])
    second = bo.next()
    assert not again.take("m3", again.digest, second)  # a value passed over, unnamed
    assert not again.take("m3", again.digest, second, [dropped.digest, dropped.digest])
    assert again.take("m3", again.digest, second, [dropped.digest])
    rolled = settle(room, "Ada", again).entries[0]
    assert rolled.witnessed["skipped"] == {"m3": [dropped.digest]}
    lines = room.hall.export(room.room, room.member("Watcher"))
    assert json.loads(lines[rolled.seq - 1])["witnessed"]["skipped"] == {"m3": [dropped.digest]}
    kept = [
        {"seq": dropped.seq, "call": dropped.digest, "value": first},
        {"seq": again.seq, "call": again.digest, "value": second},
    ]
    bos = room.hall.export(room.room, room.member("Bo"))
    assert verify(bos, member="m3", heads=kept).heads == 2
    bodies = [json.loads(line) for line in bos]
    bodies[rolled.seq - 1]["witnessed"]["skipped"] = {"m3": ["ab" * 32]}
    with pytest.raises(AuditError, match="another call here"):
        verify(rechained([json.dumps(b) for b in bodies]), member="m3", heads=kept)


def test_a_listed_witness_receives_the_stub_of_a_roll_it_may_not_see(room):
    """Ada's self roll, witnessed by Bo's device: Bo receives its header (who witnessed it
    with which values) and nothing of the roll; the observer, no witness, nothing at all."""
    bo = Witness(room, "Bo")
    own = {"kind": "roll", "notation": "1d20", "mode": "self"}
    called = called_roll(room, "Ada", [bo], intent=own)
    assert called.take("m3", called.digest, bo.next())
    rolled = settle(room, "Ada", called, intent=own).entries[0]
    line = json.loads(room.hall.project(room.room, rolled, room.member("Bo")) or "{}")
    assert line["witnessed"]["reveals"] == {"m3": bo.values[-2]}
    assert (
        "event" not in line
        and "secret" not in line
        and set(line["sealed"])
        == {
            "told",
            "why",
            "asked",
        }
    )
    assert room.hall.project(room.room, rolled, room.member("Watcher")) is None


# a shard with a call out -----------------------------------------------------------------


class Quiet:
    def __init__(self) -> None:
        self.sent: list = []

    def send(self, message) -> None:
        self.sent.append(message)


@pytest.fixture
def calling(tmp_path):
    """A shard whose calls would wait a minute, a dice room, and Bo's device attached as a
    witness that never answers; Ada's roll is called and held."""
    store = SqliteStore(tmp_path / "rooms.sqlite3")
    config = ShardConfig(0, store.address, bot_pause=60.0, witness_wait=60.0)
    shard = Shard(store, Quiet(), config)  # type: ignore[arg-type]
    room = seat(shard.hall, "dice")
    bo = new_chain(b"b" * 32, 8)[-1]
    ada = Caller(room.tokens["Ada"])
    shard_round(shard, Call(1, room.room, Attach(room.tokens["Bo"], 0, bo)))
    sent = shard_round(shard, Call(2, room.room, Resolve(ada, D20, "roll-1")))
    assert [type(m).__name__ for m in sent] == ["Calling"]
    yield shard, room
    store.close()


def shard_round(shard: Shard, *calls: Call) -> list:
    for call in calls:
        shard._sort(call)
    shard._round(shard._ready())
    sent, shard.out = shard.out, []
    return sent


def replies(sent: list) -> dict:
    return {m.number: m.value for m in sent if isinstance(m, Reply)}


def test_a_room_dropped_with_a_call_out_refuses_the_roll_and_appends_nothing(calling):
    """The room moves to another process (its lease taken over) while Ada's roll waits for
    Bo: her roll is answered at once, refused so that she sends it again, and nothing of it
    is in the log; sent again, it is called afresh."""
    shard, room = calling
    head = shard.hall.table(room.room).head
    shard._drop(room.room, MOVED)
    refused = replies(shard.out)[2]
    assert isinstance(refused, Failure) and refused.status == 503
    assert shard.hall.table(room.room).head == head and not shard.calls
    shard.out.clear()
    again = shard_round(
        shard, Call(3, room.room, Resolve(Caller(room.tokens["Ada"]), D20, "roll-1"))
    )
    assert [type(m).__name__ for m in again] == ["Calling"]


def test_a_stopping_shard_refuses_a_roll_whose_call_is_out(calling):
    shard, _ = calling
    shard._finish()
    refused = replies(shard.channel.sent[-1])[2]
    assert isinstance(refused, Failure) and "stopping" in refused.problem


def test_a_call_whose_last_awaited_witness_leaves_is_resolved_at_once(calling):
    """Bo's device closes its socket: nobody the call waits for is connected, so the roll
    is resolved in the next round, Bo named absent, not a minute later."""
    shard, room = calling
    shard._sort(Call(0, room.room, Detach("m3", witness=True)))
    answered = replies(shard_round(shard))[2]
    rolled = shard.hall.entries(room.room, answered.seqs[0] - 1)[0]
    assert rolled.witnessed["absent"] == ["m3"]


# a client as a witness -------------------------------------------------------------------


def test_a_witness_client_alarms_at_a_call_dropped_and_called_again_and_at_a_roll_without_it(
    room, tmp_path
):
    """The host drops a call after Bo's device revealed for it and calls the roll again:
    the device answers (its value unknown to the host until then), naming the dropped call,
    and raises the alarm at once; a later roll made while it was connected that does not
    list it raises another. Rolls before its hello raise none."""
    from tabletop.rooms.witnessing import Witnessing

    device = Witnessing(room.room, tmp_path / "chain.json", tmp_path / "heads.jsonl")
    room.hall.witness(room.room, "m3", device.chain.head)
    head = room.hall.table(room.room).head
    device.answer({"type": "welcome", "member": {"id": "m3"}, "head": head})
    dropped = called_roll(room, "Ada", [])
    dropped.witnesses, dropped.lasts = ("m3",), {"m3": device.chain.head}
    first = json.loads(device.answer(dropped.frame()))
    assert first["passed"] == [] and dropped.take("m3", dropped.digest, first["value"])
    again = called_roll(room, "Ada", [])
    again.witnesses, again.lasts = ("m3",), {"m3": device.chain.head}
    second = json.loads(device.answer(again.frame()))
    assert device.alarms == [
        f"entry {again.seq}: the call your device answered was dropped and called again"
    ]
    assert second["passed"] == [dropped.digest]
    assert again.take("m3", again.digest, second["value"], second["passed"])
    device.alarms.clear()
    rolled = settle(room, "Ada", again).entries[0]
    device.received(json.loads(room.hall.project(room.room, rolled, room.member("Bo"))))
    assert device.alarms == [] and device.chain.passed() == []
    alone = room.hall.act(room.room, "m2", D20, "r9", "n9").entries[0]  # Bo not listed
    device.received(json.loads(room.hall.project(room.room, alone, room.member("Bo"))))
    assert device.alarms == [
        f"entry {alone.seq}: a roll made while your device was connected does not list it"
    ]


def test_a_member_witnesses_with_the_device_named_last_and_each_goes_on_down_its_chain(room):
    """Bo's laptop witnesses a roll; its hello again appends nothing; his phone says hello
    (a `room.witness` line), and the next call lists Bo at the phone's chain, whose value
    alone it takes; back on the laptop, its chain goes on where it stopped. The whole log
    verifies."""
    laptop = Witness(room, "Bo")
    first = called_roll(room, "Ada", [laptop])
    assert first.take("m3", first.digest, laptop.next())
    settle(room, "Ada", first)
    assert not room.hall.witness(room.room, "m3", laptop.values[-1]).entries
    phone = Witness(room, "Bo")
    phone.values = new_chain(b"phone" * 6 + b"12", 64)
    assert room.hall.witness(room.room, "m3", phone.values[-1]).entries
    second = called_roll(room, "Ada", [laptop], client="r2", nonce="n2")
    assert second.frame()["heads"] == {"m3": phone.values[-1]}
    assert not second.take("m3", second.digest, laptop.next())
    assert second.take("m3", second.digest, phone.next())
    settle(room, "Ada", second)
    assert room.hall.witness(room.room, "m3", laptop.values[-1]).entries
    third = called_roll(room, "Ada", [laptop], client="r3", nonce="n3")
    assert third.take("m3", third.digest, laptop.values[-3])  # the laptop's next, unspent
    settle(room, "Ada", third)
    assert verify(room.hall.export(room.room, room.member("GM"))).witnessed == 3


def test_a_player_checks_their_own_dice_beside_a_hidden_npcs_and_learns_nothing_of_its(tmp_path):
    """RU-N05: the GM contests Ayla's STR against a hidden innkeeper. Ada's line shows her
    two dice apart; they came from the roll's open key, which the header shows everyone, and
    the innkeeper's from the kept key, which no byte of hers holds. Her export checks her
    dice against the open key; a face changed in her line and every hash chained again is
    named; the GM's export checks them all."""
    hall = Hall(SqliteStore(tmp_path / "rooms.sqlite3"), seeds=fixed_seeds())
    room = seat(hall, "ap2d6")
    gm, ada = room.member("GM").id, room.member("Ada").id
    hall.act(room.room, gm, {"kind": "npc-from-book", "creature": "Kindly innkeeper"}, "a")
    hall.act(room.room, ada, {"kind": "new-character", "name": "Ayla"}, "b")
    contest = {"kind": "contest", "first": "c1", "second": "n1", "score": "STR", "versus": "STR"}
    rolled = hall.act(room.room, gm, contest, "c").entries[0]
    assert rolled.secret["open_at"] == [0, 1] and rolled.witnessed["open"] == rolled.secret["open"]
    mine = hall.export(room.room, room.member("Ada"))
    line = json.loads(mine[rolled.seq - 1])
    shown = line["event"]["data"]["draws"]  # her two dice, with no place among the others
    assert len(shown) == 2 and not any("at" in draw for draw in shown)
    assert rolled.secret["kept"] not in "".join(mine)
    assert verify(mine).dice == 2
    assert verify(hall.export(room.room, room.member("GM"))).ruled
    bodies = [json.loads(text) for text in mine]
    draws = bodies[rolled.seq - 1]["public"]["data"]["draws"]
    draws[0]["face"] = draws[0]["face"] % 6 + 1
    bodies[rolled.seq - 1]["event"]["data"]["draws"] = draws
    with pytest.raises(AuditError, match=r"your die 1 .* the open key gives"):
        verify(rechained([json.dumps(b) for b in bodies]))
