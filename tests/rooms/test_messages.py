"""The messages between a server's front and its workers (messages.py): each pickles back
to an equal message, and a stream of frames cut anywhere gives back every message, whole
and in order."""

from __future__ import annotations

import pickle

from hypothesis import given
from hypothesis import strategies as st

from tabletop.rooms.messages import (
    Answer,
    Call,
    Caller,
    Delivery,
    Failure,
    Fanout,
    Finished,
    Frames,
    Reply,
    Resolve,
    Stop,
    frame,
)

SAMPLES = [
    Call(7, "room", Resolve(Caller("token", ""), {"kind": "roll", "notation": "1d6"}, "c1")),
    Reply(7, Answer([5, 6], lines=["a line"], extra={"room": "r"}), "m1"),
    Reply(8, Failure("not your turn", 409, retry_after=1.5)),
    Fanout("room", (Delivery(5, (("line", ("m1", "m2")),)), Delivery(6, (), "m2", "kicked"))),
    Finished({"value": [1, 2]}),  # one field
    Stop(),  # none
]


def test_every_message_pickles_back_to_an_equal_one_of_its_class():
    """Messages of many fields, of one and of none (`message`'s three ways of pickling)."""
    for sample in SAMPLES:
        again = pickle.loads(pickle.dumps(sample, protocol=pickle.HIGHEST_PROTOCOL))
        assert again == sample and type(again) is type(sample)


@given(
    picks=st.lists(st.integers(0, len(SAMPLES) - 1), max_size=12),
    cuts=st.lists(st.integers(1, 4096), max_size=12),
)
def test_frames_cut_anywhere_give_back_every_message_in_order(picks, cuts):
    sent = [SAMPLES[pick] for pick in picks]
    stream = b"".join(frame(message) for message in sent)
    frames, received, start = Frames(), [], 0
    for cut in [*cuts, len(stream)]:
        received += frames.feed(stream[start : start + cut])
        start += cut
    received += frames.feed(stream[start:])
    assert received == sent and not frames
