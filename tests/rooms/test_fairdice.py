"""Fair dice: every face follows from the committed seed, the entry and the client's nonce,
and every face of a die is exactly as likely (rejection sampling)."""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from tabletop.rooms.fairdice import FairDice, commitment

SEED = bytes(range(32))


def test_the_first_die_is_the_first_64_bits_of_the_hmac_mod_sides():
    block = hmac.digest(SEED, b"m2:nonce-1:0", "sha256")
    number = int.from_bytes(block[:8], "big")
    assert FairDice(SEED, "m2:nonce-1").roll(6) == number % 6 + 1


def faces(dice: FairDice, count: int = 8) -> list[int]:
    return [dice.roll(1_000_000) for _ in range(count)]


def test_the_same_seed_entry_and_nonce_give_the_same_faces():
    assert faces(FairDice(SEED, "m3:abc")) == faces(FairDice(SEED, "m3:abc"))


def test_another_seed_entry_or_nonce_gives_other_faces():
    base = faces(FairDice(SEED, "m3:abc"))
    for other in (
        FairDice(bytes(32), "m3:abc"),
        FairDice(SEED, "m4:abc"),
        FairDice(SEED, "m3:abd"),
    ):
        assert faces(other) != base


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
