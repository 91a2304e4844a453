"""Fair dice: every face follows from a key and a position in its stream (format 3: a
roll's two keys at its entry and its witnesses' reveals; format 2: the session's seed at who
asked and their nonce), and every face of a die is exactly as likely (rejection sampling)."""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from tabletop.rooms.fairdice import (
    FairDice,
    SplitDice,
    call_digest,
    commitment,
    roll_keys,
    witnessed_position,
)

SEED = bytes(range(32))


def test_the_first_die_is_the_first_64_bits_of_the_hmac_mod_sides():
    block = hmac.digest(SEED, b"m2:nonce-1:0", "sha256")
    number = int.from_bytes(block[:8], "big")
    assert FairDice(SEED, "m2:nonce-1").roll(6) == number % 6 + 1


def faces(dice: FairDice, count: int = 8) -> list[int]:
    return [dice.roll(1_000_000) for _ in range(count)]


def test_the_same_key_and_position_give_the_same_faces():
    assert faces(FairDice(SEED, "m3:abc")) == faces(FairDice(SEED, "m3:abc"))


def test_another_key_or_position_gives_other_faces():
    base = faces(FairDice(SEED, "m3:abc"))
    for other in (
        FairDice(bytes(32), "m3:abc"),
        FairDice(SEED, "m4:abc"),
        FairDice(SEED, "m3:abd"),
    ):
        assert faces(other) != base


def test_a_witnessed_position_is_the_entry_and_every_reveal():
    """Format 3: a witness's value, or another entry, moves every die."""
    base = faces(FairDice(SEED, witnessed_position(7, {"m2": "aa" * 32})))
    for seq, reveals in ((8, {"m2": "aa" * 32}), (7, {"m2": "ab" * 32}), (7, {})):
        assert faces(FairDice(SEED, witnessed_position(seq, reveals))) != base
    both = {"m2": "aa" * 32, "m3": "bb" * 32}
    assert witnessed_position(7, both) == witnessed_position(7, dict(reversed(both.items())))


def test_a_rolls_two_keys_come_from_its_seed_and_tell_nothing_of_each_other():
    kept, opened = roll_keys(SEED)
    assert kept == hmac.digest(SEED, b"kept", "sha256") != opened
    assert opened == hmac.digest(SEED, b"open", "sha256")


def test_split_dice_draw_a_seen_owners_dice_from_the_open_key_and_the_rest_from_the_kept():
    """A die rolled for Ada (whose numbers the players see) comes from the open key's
    stream; one for the hidden Wight, or for nobody in particular, from the kept key's; a
    replay with those positions gives the same faces."""
    owners = iter(["c1", "wight", None, "c1"])
    kept, opened = FairDice(SEED, "p"), FairDice(bytes(32), "p")
    split = SplitDice(kept, opened, {"wight"}, lambda: next(owners))
    rolled = [split.roll(20) for _ in range(4)]
    assert split.open_at == [0, 3]
    alone_open, alone_kept = FairDice(bytes(32), "p"), FairDice(SEED, "p")
    expected = [alone_open.roll(20), alone_kept.roll(20), alone_kept.roll(20), alone_open.roll(20)]
    assert rolled == expected
    again = SplitDice(FairDice(SEED, "p"), FairDice(bytes(32), "p"), replay=[0, 3])
    assert [again.roll(20) for _ in range(4)] == rolled and again.open_at == [0, 3]


def test_a_call_digest_binds_each_of_its_inputs():
    committed = {"kept": "11" * 32, "open": "22" * 32}
    base = call_digest(5, "00" * 32, committed, "33" * 32, ["m2"])
    changed = [
        call_digest(6, "00" * 32, committed, "33" * 32, ["m2"]),
        call_digest(5, "01" * 32, committed, "33" * 32, ["m2"]),
        call_digest(5, "00" * 32, {**committed, "open": "23" * 32}, "33" * 32, ["m2"]),
        call_digest(5, "00" * 32, committed, "34" * 32, ["m2"]),
        call_digest(5, "00" * 32, committed, "33" * 32, ["m2", "m3"]),
    ]
    assert base not in changed and len(set(changed)) == len(changed)


def test_a_number_past_the_last_whole_multiple_is_thrown_away():
    """2**64 mod 3 == 1, so 2**64 - 1 would make a 1 more likely: it is skipped."""

    numbers = [2**64 - 1, 5]

    class Scripted(FairDice):
        def _next(self) -> int:
            return numbers.pop(0)

    assert Scripted(SEED, "m1:n").roll(3) == 3


def test_faces_are_spread_evenly():
    dice = FairDice(SEED, "m1:spread")
    counts = Counter(dice.roll(6) for _ in range(60_000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    chi_square = sum((n - 10_000) ** 2 / 10_000 for n in counts.values())
    assert chi_square < 20.5  # p = 0.001 for five degrees of freedom


@given(st.integers(1, 1_000_000), st.text(max_size=64), st.text(max_size=64))
def test_every_face_is_on_the_die(sides, member, nonce):
    dice = FairDice(SEED, f"{member}:{nonce}")
    assert all(1 <= dice.roll(sides) <= sides for _ in range(10))


def test_the_commitment_is_the_sha256_of_the_seed():
    assert commitment(SEED) == hashlib.sha256(SEED).hexdigest()
