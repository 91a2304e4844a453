"""The GM's asks and turns at a 2d6 table (RU-S08): the GM asks a player for a check against
a DC shown, kept or none; the player answers with one tap; the turn order is the GM's."""

from __future__ import annotations

import pytest

from tabletop.dice import FixedDice
from tabletop.errors import TabletopError
from tests.systems.ap2d6.test_npcs import guarded, told
from tests.systems.ap2d6.test_session import AYLA, BRAN, GM, SESSION, WATCHER, play, received


def asked(dc: int | None, shown: bool = True):
    state = guarded()
    ask = {"kind": "ask-roll", "character": "c1", "what": {"score": "AGI"}, "dc_shown": shown}
    return play(state, {**ask, "dc": dc} if dc is not None else ask, GM)


def test_rus08_a_check_against_a_dc_the_gm_keeps_reads_as_a_secret_to_the_players():
    """RU-S08, § A Simple Example of a "Check": the GM asks Ayla (AGI 2) to jump the chasm,
    DC 8, kept; [3, 3] + 2 = 8 meets it (a set DC, RU-A01). Her player sees her roll, never
    the DC or the verdict; Bran cannot answer for her."""
    state, events = asked(8, shown=False)
    assert told(events, AYLA) == ["the GM asks Ayla for an AGI check against a DC the GM keeps"]
    waiting = received(events, state, AYLA)
    assert "DC 8" not in waiting and '"dc": 8' not in waiting
    with pytest.raises(TabletopError):
        SESSION.resolve(state, {"kind": "answer-ask", "ask": "a1"}, BRAN, FixedDice([3, 3]))
    state, events = play(state, {"kind": "answer-ask", "ask": "a1"}, AYLA, [3, 3])
    assert told(events, GM) == [
        "Ayla (AGI), as the GM asked: 2d6 → [3, 3] = 6 +2 = 8 vs DC 8: success"
    ]
    players = ["Ayla (AGI), as the GM asked: 2d6 → [3, 3] = 6 +2 = 8 vs DC ?: ?"]
    assert told(events, AYLA) == told(events, BRAN) == told(events, WATCHER) == players
    seen = received(events, state, AYLA)
    assert "DC 8" not in seen and ": success" not in seen and '"dc": 8' not in seen
    assert state.asks.waiting == {}


def test_rus08_a_shown_dc_reads_whole_and_no_dc_is_the_gms_to_judge():
    """RU-S08: DC 10 shown: [3, 3] + 2 = 8 fails, everyone reads it; no DC: the total for
    the GM to judge (RU-S06)."""
    state, _ = asked(10)
    _, events = play(state, {"kind": "answer-ask", "ask": "a1"}, AYLA, [3, 3])
    assert told(events, BRAN) == [
        "Ayla (AGI), as the GM asked: 2d6 → [3, 3] = 6 +2 = 8 vs DC 10: failure"
    ]
    state, _ = asked(None)
    _, events = play(state, {"kind": "answer-ask", "ask": "a1"}, AYLA, [3, 4])
    assert told(events, BRAN) == ["Ayla (AGI): 2d6 → [3, 4] = 7 +2 = 9, for the GM to judge"]


def test_rus08_only_the_gm_asks_and_an_npc_is_never_asked():
    state = guarded()
    ask = {"kind": "ask-roll", "character": "c1", "what": {"score": "AGI"}, "dc": 8}
    with pytest.raises(TabletopError):
        SESSION.resolve(state, ask, AYLA, FixedDice([]))
    with pytest.raises(TabletopError):
        SESSION.resolve(state, {**ask, "character": "n1"}, GM, FixedDice([]))


def test_rus08_the_gm_sets_the_turn_order_and_a_player_ends_their_own_turn():
    """RU-S08: Initiative Rules B keeps no turns, so the order is the GM's: Ayla, then the
    guard. Ayla's player ends her turn; Bran's may not; everyone sees whose it is."""
    state = guarded()
    state, _ = play(state, {"kind": "turn-order", "order": ["c1", "n1"]}, GM)
    assert SESSION.view(state, BRAN)["turn"]["current"] == "c1"
    with pytest.raises(TabletopError):
        SESSION.resolve(state, {"kind": "next-turn"}, BRAN, FixedDice([]))
    state, events = play(state, {"kind": "next-turn"}, AYLA)
    # who ended the turn first: the log credits the step's first line to Ayla's player (v6)
    assert told(events, BRAN) == ["Ayla ends the turn", "round 1: Guard's turn"]
    assert events[0].cause is not None and events[0].cause.member == AYLA
    state, _ = play(state, {"kind": "remove-npc", "npc": "n1"}, GM)
    assert SESSION.view(state, GM)["turn"]["order"] == [
        {"id": "c1", "name": "Ayla", "player": "p1"}
    ]


@pytest.mark.parametrize(
    ("dc", "said"), [(8, " vs DC ?: ?"), (None, ", for the GM to judge (double 6s)")]
)
def test_rus08_an_asked_check_in_a_fight_gives_double_6s_their_temp_ap(dc, said):
    """RU-S08, RU-A13: a check in a fight is a roll in initiative, asked or not: Ayla's
    asked AGI check rolls [6, 6] in round 1, so she takes 1 temp AP, as her own check would
    (was: the shared answer wrote the line and left her tracker as it was)."""
    state, _ = play(guarded(), {"kind": "start-fight", "characters": ["c1", "n1"]}, GM)
    state, _ = play(state, {"kind": "next-round"}, GM)
    ask = {"kind": "ask-roll", "character": "c1", "what": {"score": "AGI"}, "dc_shown": False}
    state, _ = play(state, {**ask, "dc": dc} if dc is not None else ask, GM)
    state, events = play(state, {"kind": "answer-ask", "ask": "a1"}, AYLA, [6, 6])
    lines = told(events, BRAN)
    assert lines[0].endswith(said) and lines[1:] == ["double 6s: Ayla: 1 temp AP on cell 0"]
