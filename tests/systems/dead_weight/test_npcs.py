"""The enemies a Dead Weight GM keeps (DW-N01..N05): typed in, tested with their level,
wounded until they die, and their numbers kept from the players until the GM shows them."""

from __future__ import annotations

import json

import pytest

from tabletop.errors import PermissionDenied
from tabletop.session import Visibility
from tabletop.systems.dead_weight import SESSION, DeadWeightError
from tabletop.systems.dead_weight.session import DeadWeightTable
from tests.systems.dead_weight.test_session import ADA, GM, WATCHER, play, seated

WIGHT = {"kind": "new-npc", "name": "Wight", "stats": {"level": 3, "wound_limit": 2}}


def with_wight() -> DeadWeightTable:
    state, _ = play(seated(), WIGHT, GM)
    return state


def received(events, state, member) -> str:
    """Every byte `member` receives of these events and of the table after them."""
    shown = [SESSION.view_event(e, member) for e in events]
    return json.dumps([e.model_dump(mode="json") for e in shown if e]) + json.dumps(
        SESSION.view(state, member)
    )


def test_a_typed_in_enemy_keeps_its_numbers_for_the_gm():
    """DW-N01, DW-N02: the core book has no bestiary, so the GM types the wight in: its
    level and wound limit are the GM's; the players hear its name."""
    state, events = play(seated(), WIGHT, GM)
    assert state.npcs["n1"].stats.level == 3 and state.npcs["n1"].stats.wound_limit == 2
    assert [e.visibility for e in events] == [Visibility.GM, Visibility.PUBLIC]
    assert events[1].text == "the GM brings Wight to the table"
    for player in (ADA, WATCHER):
        assert SESSION.view_event(events[0], player) is None
        assert SESSION.view_event(events[1], player).cause is None  # the intent holds its stats
        assert SESSION.view(state, player)["npcs"] == [
            {
                "id": "n1",
                "name": "Wight",
                "revealed": False,
                "creature": None,
                "stats": {"hidden": "Wight's numbers, kept by the GM"},
            }
        ]
    assert SESSION.view(state, GM)["npcs"][0]["stats"] == {
        "level": 3,
        "wound_limit": 2,
        "wounds": 0,
    }
    assert not any(o.kind.endswith("npc") for o in SESSION.legal(state, ADA))
    with pytest.raises(PermissionDenied):
        SESSION.resolve(state, WIGHT, ADA, None)


def test_a_kept_enemy_tests_with_its_level_and_the_players_see_none_of_its_dice():
    """DW-M50, DW-N04: the wight tests STR with its level, three dice; one die per level
    would give the level away, so every line of its test is the GM's and the players read
    only that the wight did something, kept secret."""
    state, events = play(with_wight(), {"kind": "npc-test", "kept": "n1"}, GM, [6, 2, 3])
    assert state.exchange.test.pool == 3 and state.exchange.finished
    assert all(e.visibility == Visibility.HIDDEN for e in events)
    assert events[0].hint == "Wight: test announced, kept secret"
    told = received(events, state, ADA)
    assert "3 dice" not in told and "[6, 2, 3]" not in told and '"level"' not in told
    assert SESSION.view(state, ADA)["exchange"]["test"] == {
        "hidden": "Wight's test, which the GM keeps"
    }
    assert SESSION.view(state, GM)["exchange"]["test"]["pool"] == 3


def test_an_opposed_test_hides_the_kept_enemys_side_and_shows_who_won():
    """DW-M48, DW-N04: Amber (DEX 3) against the kept wight (STR, level 3): her dice and
    choices are everyone's, the wight's the GM's; the verdict is public."""
    opposed = {
        "kind": "opposed-test",
        "first": {"character": "c1", "setup": {"attribute": "DEX"}},
        "second": {"kept": "n1", "setup": {"attribute": "STR"}},
    }
    state, events = play(with_wight(), opposed, GM, [6, 5, 5, 1, 2, 3])
    while not state.exchange.finished:
        choice = next(o for o in SESSION.legal(state, GM) if o.kind == "pass").intents[0]
        state, more = play(state, choice, GM)
        events += more
    mine = [e for e in events if e.visibility == Visibility.PUBLIC]
    secret = [e for e in events if e.visibility == Visibility.HIDDEN]
    assert mine[0].text.startswith("Amber: DEX test")
    assert secret[0].hint == "Wight: test announced, kept secret"
    assert mine[-1].text == "Amber wins the opposed test"
    seen = SESSION.view(state, ADA)["exchange"]["opposed"]["tests"]
    assert seen[1] == {"hidden": "Wight's test, which the GM keeps"} and "dice" in seen[0]


def test_wounds_past_the_limit_kill_the_enemy_and_players_learn_no_count():
    """DW-M45, DW-N03, DW-N05: wounds come after armour, with no attribute to place them;
    past its limit of 2 the wight dies. Ada reads that it took wounds and died, not how
    many; a dead enemy neither tests nor takes wounds."""
    state, events = play(with_wight(), {"kind": "npc-wounds", "npc": "n1", "wounds": 3}, GM)
    assert state.npcs["n1"].stats.wounds == 3
    assert [SESSION.view_event(e, ADA).text for e in events] == [
        "Wight takes ? wound(s)",
        "Wight dies",
    ]
    offered = {o.kind for o in SESSION.legal(state, GM)}
    assert "npc-wounds" not in offered
    with pytest.raises(DeadWeightError, match="Wight is dead"):
        play(state, {"kind": "npc-test", "kept": "n1"}, GM)


def test_the_gm_changes_removes_shows_and_hides_an_enemy():
    """A bad value is one line and nothing changes; shown, the numbers reach the players
    and later lines about it are theirs; hidden again, they are the GM's again."""
    state = with_wight()
    for bad, message in (
        ("three", "the NPC: level: Input should be a valid integer"),
        ("-1", "level"),
    ):
        with pytest.raises(DeadWeightError, match=message):
            play(state, {"kind": "edit-npc", "npc": "n1", "stat": "level", "value": bad}, GM)
    with pytest.raises(DeadWeightError, match="stat must be one of name, level, wound_limit"):
        play(state, {"kind": "edit-npc", "npc": "n1", "stat": "armour", "value": "2"}, GM)
    state, events = play(
        state, {"kind": "edit-npc", "npc": "n1", "stat": "level", "value": "5"}, GM
    )
    assert state.npcs["n1"].stats.level == 5
    assert [SESSION.view_event(e, ADA).text for e in events] == ["the GM changes Wight"]
    state, _ = play(state, {"kind": "reveal-npc", "npc": "n1", "revealed": True}, GM)
    assert SESSION.view(state, ADA)["npcs"][0]["stats"]["level"] == 5
    _, events = play(state, {"kind": "npc-test", "kept": "n1"}, GM, [6] * 5)
    assert all(e.visibility == Visibility.PUBLIC for e in events)
    state, _ = play(state, {"kind": "reveal-npc", "npc": "n1", "revealed": False}, GM)
    assert SESSION.view(state, ADA)["npcs"][0]["stats"] == {
        "hidden": "Wight's numbers, kept by the GM"
    }
    waiting = {"kind": "npc-test", "kept": "n1", "setup": {"attribute": "STR", "disadvantage": 1}}
    state, _ = play(state, waiting, GM, [6] * 5)
    assert state.testing
    with pytest.raises(DeadWeightError, match="in the test under way"):
        play(state, {"kind": "remove-npc", "npc": "n1"}, GM)


def test_names_are_unique_and_an_enemy_typed_into_a_test_stays_as_public_as_before():
    """DW-N04: an NPC typed into one test is told in the open, as the GM typed it; the kept
    ones are the hidden ones. A kept enemy may not take a character's name."""
    state = with_wight()
    with pytest.raises(DeadWeightError, match="already someone called Amber"):
        play(state, {**WIGHT, "name": "Amber"}, GM)
    typed = {"kind": "npc-test", "npc": {"name": "Rat", "level": 1}}
    _, events = play(state, typed, GM, [4])
    assert all(e.visibility == Visibility.PUBLIC for e in events)
    with pytest.raises(DeadWeightError, match="not both"):
        play(state, {**typed, "kept": "n1"}, GM)
