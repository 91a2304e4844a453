"""The 2d6 GM's NPCs (RU-N01..N05): the rules' own NPCs or typed in, each a character the GM
plays, in checks, contests, damage and fights, its sheet the GM's until shown."""

from __future__ import annotations

import pytest

from tabletop.errors import TabletopError
from tabletop.session import Visibility
from tabletop.systems.ap2d6 import SESSION, Ap2d6Error
from tabletop.systems.ap2d6.table_npcs import bestiary
from tests.systems.ap2d6.test_session import AYLA, GM, play, received, seated

GUARD = {"kind": "npc-from-book", "creature": "Sneering guard", "name": "Guard"}


def test_the_rules_npcs_are_the_basic_sheet_with_their_bias():
    """RU-N01, RU-N02: an ordinary person is the sheet with 0s all the way down (Health 18,
    To-Hit 6); the innkeeper, the guard and the traveller differ by their bias."""
    book = {c.name: c.stats for c in bestiary().creatures}
    assert {name: stats.bias for name, stats in book.items()} == {
        "Ordinary person": 0,
        "Kindly innkeeper": 2,
        "Sneering guard": -2,
        "Traveller on the road": -1,
    }
    state, events = play(seated(), GUARD, GM)
    guard = state.characters["n1"]
    assert guard.owner == GM.id and guard.npc.bias == -2 and guard.npc.creature == "Sneering guard"
    assert (guard.sheet.max_hp, guard.sheet.to_hit, set(guard.sheet.scores.values())) == (
        18,
        6,
        {0},
    )
    assert [e.visibility for e in events] == [Visibility.GM, Visibility.PUBLIC]


def test_an_npc_contests_and_is_harmed_like_a_character_and_players_read_no_number():
    """RU-N04, RU-N05: the guard (STR 3 once the GM changes it) contests Ayla's STR; Ayla's
    player reads both rolls and who won with every number a `?`, and its damage the same."""
    state, _ = play(seated(), GUARD, GM)
    state, _ = play(state, {"kind": "edit-npc", "npc": "n1", "stat": "STR", "value": "3"}, GM)
    contest = {"kind": "contest", "first": "c1", "second": "n1", "score": "STR", "versus": "STR"}
    state, events = play(state, contest, GM, [6, 6, 3, 2])
    shown = SESSION.view_event(events[0], AYLA)
    assert events[0].visibility == Visibility.HIDDEN and "+3" in events[0].text
    assert shown.text.startswith("Ayla (STR) vs Guard (STR): ?d? → [?, ?] = ? +? = ?  vs  ?d?")
    assert shown.text.endswith("the first side won (higher total)")
    state, events = play(state, {"kind": "damage", "character": "n1", "amount": 5}, GM)
    assert state.characters["n1"].sheet.hp == 13
    told = received(events, state, AYLA)
    assert '"hp": 13' not in told and "13" not in told
    assert SESSION.view(state, AYLA)["characters"][2]["sheet"] == {
        "hidden": "an NPC's sheet, which the GM keeps"
    }


def test_in_a_fight_players_see_the_npcs_name_and_whether_it_is_up():
    """RU-N05: in the fight's view the guard's AP, HP and scores are the GM's."""
    state, _ = play(seated(), GUARD, GM)
    state, _ = play(state, {"kind": "start-fight", "characters": ["c1", "n1"]}, GM)
    state, _ = play(state, {"kind": "next-round"}, GM)
    row = SESSION.view(state, AYLA)["fight"]["characters"][1]
    assert row["name"] == "Guard" and row["public_life"] == "up"
    assert row == {"name": "Guard", "public_life": "up"}
    with pytest.raises(Ap2d6Error, match="in the fight"):
        play(state, {"kind": "remove-npc", "npc": "n1"}, GM)


def test_edits_keep_full_health_full_and_refuse_bad_values_in_one_line():
    """Health follows CON at full health (RU-M04); a bias off the scale is refused."""
    state, _ = play(seated(), GUARD, GM)
    state, _ = play(state, {"kind": "edit-npc", "npc": "n1", "stat": "CON", "value": "2"}, GM)
    assert state.characters["n1"].sheet.hp == 30
    with pytest.raises(
        TabletopError, match="the NPC: bias: Input should be less than or equal to 6"
    ):
        play(state, {"kind": "edit-npc", "npc": "n1", "stat": "bias", "value": "9"}, GM)
    with pytest.raises(Ap2d6Error, match="already someone called Ayla"):
        play(state, {"kind": "edit-npc", "npc": "n1", "stat": "name", "value": "Ayla"}, GM)
    state, _ = play(state, {"kind": "reveal-npc", "npc": "n1", "revealed": True}, GM)
    assert SESSION.view(state, AYLA)["npcs"][0]["stats"]["max_hp"] == 30


def test_resting_a_hidden_npc_tells_players_no_health_though_its_lines_name_nobody():
    """RU-N05, RU-M33: the GM rests the guard (CON 4, Health 42) after 5 damage, spending two
    recovery dice; each hour's line names nobody and holds its health. They are the guard's,
    whom the rest is for, so Ada's player reads them with every number a `?`."""
    state, _ = play(seated(), GUARD, GM)
    state, _ = play(state, {"kind": "edit-npc", "npc": "n1", "stat": "CON", "value": "4"}, GM)
    state, _ = play(state, {"kind": "damage", "character": "n1", "amount": 5}, GM)
    rest = {"kind": "rest", "character": "n1", "hours": 2, "recovery_dice": 2}
    state, events = play(state, rest, GM, [3, 2])
    assert [e.text for e in events] == [
        "hour 1: recovery die 1d6 → [3] = 3 (HP 40)",
        "hour 2: recovery die 1d6 → [2] = 2 (HP 42)",
    ]
    told = received(events, state, AYLA)
    assert "40" not in told and "42" not in told
    assert SESSION.view_event(events[0], AYLA).text == "hour ?: recovery die ?d? → [?] = ? (HP ?)"
