"""The enemies a Dead Weight GM keeps (DW-N01..N05): typed in, tested with their level,
wounded until they die, and their numbers kept from the players until the GM shows them.
Each kind of line that tells of a hidden enemy is played with fixed dice, and what the GM
and the players read of it is compared whole, with the dice a player is shown apart."""

from __future__ import annotations

import json

import pytest

from tabletop.errors import PermissionDenied
from tabletop.session import Event, Member, Visibility
from tabletop.systems.dead_weight import SESSION, DeadWeightError
from tabletop.systems.dead_weight.session import DeadWeightTable
from tests.systems.dead_weight.test_session import ADA, BO, GM, WATCHER, play, seated

WIGHT = {"kind": "new-npc", "name": "Wight", "stats": {"level": 3, "wound_limit": 2}}
GHOUL = {"kind": "new-npc", "name": "Ghoul", "stats": {"level": 1, "wound_limit": 2}}

PASSED = "Wight's test: no re-roll this turn"
"""What the players read of a pass in the wight's test."""


def with_wight() -> DeadWeightTable:
    state, _ = play(seated(), WIGHT, GM)
    return state


def received(events, state, member) -> str:
    """Every byte `member` receives of these events and of the table after them."""
    shown = [SESSION.view_event(e, member) for e in events]
    return json.dumps([e.model_dump(mode="json") for e in shown if e]) + json.dumps(
        SESSION.view(state, member)
    )


def told(events: list[Event], member: Member) -> list[str]:
    """The lines `member` reads of `events`, in order."""
    return [shown.text for e in events if (shown := SESSION.view_event(e, member)) is not None]


def draws_shown(event: Event, member: Member) -> list[int]:
    """The faces of the d6s `member` is shown apart with `event`, in the order rolled; no
    position comes with them, since it would count the hidden enemy's dice (DW-N04)."""
    shown = SESSION.view_event(event, member)
    assert shown is not None and shown.cause is None
    draws = shown.data.get("draws", [])
    assert all(set(d) == {"sides", "face"} and d["sides"] == 6 for d in draws)
    return [d["face"] for d in draws]


def opposed(first: dict, second: dict) -> dict:
    return {"kind": "opposed-test", "first": first, "second": second}


AMBER_DEX = {"character": "c1", "setup": {"attribute": "DEX"}}
BROM_STR = {"character": "c2", "setup": {"attribute": "STR"}}
WIGHT_STR = {"kept": "n1", "setup": {"attribute": "STR"}}


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
    assert SESSION.kept_from_players(state) == {"n1": "Wight"}
    assert not any(o.kind.endswith("npc") for o in SESSION.legal(state, ADA))
    with pytest.raises(PermissionDenied):
        SESSION.resolve(state, WIGHT, ADA, None)


def test_a_kept_enemys_test_reads_to_players_in_words_with_none_of_its_dice():
    """DW-M50, DW-N04: the wight checks PRE with its level, three dice [1, 3, 5], at one
    disadvantage, and the GM re-rolls the 5 into a 2: a critical failure. One die per level
    would give the level away, so the players read that it checks PRE, rolls, has a die
    re-rolled, and that its test is judged; never its pool, a die, its re-rolls or how it
    went. The GM reads every line whole."""
    check = {
        "kind": "npc-test",
        "kept": "n1",
        "setup": {"attribute": "PRE", "check": True, "disadvantage": 1},
    }
    state, events = play(with_wight(), check, GM, [1, 3, 5])
    assert told(events, GM) == [
        "Wight: PRE check, 3 dice; 1 disadvantage",
        "Wight's test: rolled [1, 3, 5]",
        "Wight has nothing to re-roll",
    ]
    players = ["Wight: PRE check", "Wight rolls its dice", PASSED]
    assert told(events, ADA) == told(events, WATCHER) == players
    assert draws_shown(events[0], ADA) == []
    reroll = {"kind": "reroll", "resource": "disadvantage", "die": 2, "helper": 0}
    state, events = play(state, reroll, GM, [2])
    assert told(events, GM) == [
        "the GM re-rolls Wight's die 3 (5 → 2) with disadvantage",
        "Wight has nothing to re-roll",
        "the GM has nothing to re-roll on Wight's test",
        "Wight's test: critical failure",
    ]
    assert told(events, ADA) == [
        "Wight's test: a die is re-rolled",
        PASSED,
        PASSED,
        "Wight's test is judged",
    ]
    assert state.exchange.test.verdict == "critical failure"
    told_ada = received(events, state, ADA)
    assert (
        "critical failure" not in told_ada
        and '"level"' not in told_ada
        and "[1, 3, 2]" not in told_ada
    )
    assert SESSION.view(state, ADA)["exchange"]["test"] == {
        "hidden": "Wight's test, which the GM keeps"
    }
    assert SESSION.view(state, GM)["exchange"]["test"]["pool"] == 3


def test_an_opposed_test_shows_the_player_their_side_and_who_won_and_nothing_of_the_wights():
    """DW-M48, DW-N04: Amber's DEX (3 dice, one proficiency: [1, 4, 6]) against the
    wight's STR ([2, 3, 1], nothing to re-roll: a critical failure). Everyone reads
    Amber's side whole and the wight's in words; the first line brings Ada her own three
    dice apart (they are hers to check), never the wight's. Her re-roll and the verdict are
    everyone's: she wins, and the wight's verdict stays the GM's."""
    state, events = play(with_wight(), opposed(AMBER_DEX, WIGHT_STR), GM, [1, 4, 6, 2, 3, 1])
    amber = ["Amber: DEX test, 3 dice; 1 proficiency", "Amber's test: rolled [1, 4, 6]"]
    assert told(events, GM) == [
        *amber,
        "Wight: STR test, 3 dice",
        "Wight's test: rolled [2, 3, 1]",
        "Wight has nothing to re-roll",
        "the GM has nothing to re-roll on Wight's test",
        "Wight's test: critical failure",
    ]
    wight = ["Wight: STR test", "Wight rolls its dice", PASSED, PASSED, "Wight's test is judged"]
    for member in (ADA, BO, WATCHER):
        assert told(events, member) == [*amber, *wight]
        assert draws_shown(events[0], member) == [1, 4, 6]
    reroll = {"kind": "reroll", "resource": "proficiency", "die": 0, "helper": 0}
    state, events = play(state, reroll, ADA, [5])
    assert (
        told(events, ADA)
        == told(events, GM)
        == [
            "Amber re-rolls die 1 (1 → 5) with proficiency",
            "the GM has nothing to re-roll on Amber's test",
            "Amber has nothing to re-roll",
            "Amber's test: success, fatigue",
            "Amber's DEX takes a fatigue point",
            "Amber against Wight: Amber wins the opposed test",
        ]
    )
    assert events[0].cause.seen_by(ADA)  # nothing of the wight's in it: she checks it all
    seen = SESSION.view(state, ADA)["exchange"]["opposed"]
    assert seen["tests"][1] == {"hidden": "Wight's test, which the GM keeps"}
    assert seen["setups"][1] == {"hidden": "what Wight tests with"}
    assert seen["tests"][0]["verdict"] == "success" and seen["winner"] == 0
    assert "critical failure" not in received(events, state, ADA)


def test_a_tie_with_the_wight_keeps_its_verdict_and_shows_brom_both_of_his_rolls():
    """DW-M48, DW-A26, DW-N04: the wight goes first ([4, 2, 2], a success) against Brom's
    STR ([5], a success): a tie, which players read with the wight's verdict as `?`, and
    both test again: the wight [6, 6, 3], Brom [2], and the wight wins. Bo's player is
    shown Brom's two dice apart, in order and with no place among the wight's: his second
    die's place would count the wight's three dice, its level."""
    _, events = play(with_wight(), opposed(WIGHT_STR, BROM_STR), GM, [4, 2, 2, 5, 6, 6, 3, 2])
    wight = ["Wight: STR test", "Wight rolls its dice", PASSED, PASSED, "Wight's test is judged"]

    def brom(face: int, verdict: str) -> list[str]:
        return [
            "Brom: STR test, 1 die",
            f"Brom's test: rolled [{face}]",
            "Brom has nothing to re-roll",
            "the GM has nothing to re-roll on Brom's test",
            f"Brom's test: {verdict}",
        ]

    assert told(events, BO) == [
        *wight,
        *brom(5, "success"),
        "Wight against Brom: a tie (? and success): test again",
        *wight,
        *brom(2, "failure"),
        "Wight against Brom: Wight wins the opposed test",
    ]
    gm = told(events, GM)
    assert gm[10] == "Wight against Brom: a tie (success and success): test again"
    assert gm[11:16] == [
        "Wight: STR test, 3 dice",
        "Wight's test: rolled [6, 6, 3]",
        "Wight has nothing to re-roll",
        "the GM has nothing to re-roll on Wight's test",
        "Wight's test: great success",
    ]
    assert draws_shown(events[0], BO) == [5, 2]


def test_an_opposed_test_between_two_hidden_enemies_keeps_who_won():
    """DW-M48, DW-N04: the wight's STR against the ghoul's DEX, both hidden: a tie (both
    succeed), then the ghoul wins. The players read that they tested and tied and that one
    of them won, not which, nor either verdict; their view keeps the winner too."""
    state, _ = play(with_wight(), GHOUL, GM)
    ghoul = {"kept": "n2", "setup": {"attribute": "DEX"}}
    state, events = play(state, opposed(WIGHT_STR, ghoul), GM, [4, 2, 2, 5, 2, 2, 3, 6])
    both = "Wight against Ghoul: "
    assert told(events, GM)[10] == f"{both}a tie (success and success): test again"
    assert told(events, GM)[-1] == f"{both}Ghoul wins the opposed test"
    read = told(events, ADA)
    assert read[10] == f"{both}a tie (? and ?): test again"
    assert read[-1] == f"{both}? wins the opposed test"
    assert read[5:10] == [
        "Ghoul: DEX test",
        "Ghoul rolls its dice",
        "Ghoul's test: no re-roll this turn",
        "Ghoul's test: no re-roll this turn",
        "Ghoul's test is judged",
    ]
    assert draws_shown(events[0], ADA) == []
    assert SESSION.view(state, ADA)["exchange"]["opposed"]["winner"] == {
        "hidden": "who won, which the GM keeps"
    }
    assert SESSION.view(state, GM)["exchange"]["opposed"]["winner"] == 1


def test_the_advisor_gives_a_player_odds_of_their_own_test_and_nothing_of_the_enemys():
    """DW-M30, DW-N04: the advisor answers whoever chooses, from the test they choose in.
    While the wight's side chooses (the GM's disadvantage on it), Ada is given none; on
    her own side her odds are the same whatever the wight's level, so they hold nothing of
    it, and the same as against an enemy typed into the test."""
    first = {"kept": "n1", "setup": {"attribute": "STR", "disadvantage": 1}}
    state, _ = play(with_wight(), opposed(first, AMBER_DEX), GM, [4, 2, 2, 1, 4, 6])
    assert SESSION.advice(state, ADA) is None and SESSION.advice(state, GM) is not None
    advised = []
    for level in (3, 11):
        edit = {"kind": "edit-npc", "npc": "n1", "stat": "level", "value": str(level)}
        kept, _ = play(with_wight(), edit, GM)
        playing, _ = play(kept, opposed(WIGHT_STR, AMBER_DEX), GM, [2] * level + [1, 4, 6])
        advised.append(SESSION.advice(playing, ADA))
    typed = {"npc": {"name": "Rat", "level": 1}, "setup": {"attribute": "STR"}}
    rat, _ = play(seated(), opposed(typed, AMBER_DEX), GM, [2, 1, 4, 6])
    assert advised[0] == advised[1] == SESSION.advice(rat, ADA)
    assert advised[0]["side"] == "player" and len(advised[0]["choices"]) == 4


def test_wounds_past_the_limit_kill_the_enemy_and_players_learn_no_count():
    """DW-M45, DW-N03, DW-N05: wounds come after armour, with no attribute to place them;
    past its limit of 2 the wight dies. The GM reads how many; Ada reads that it took
    wounds and died, never how many (the count would tell its limit), not even in a line's
    facts; a dead enemy neither tests nor takes wounds."""
    state, events = play(with_wight(), {"kind": "npc-wounds", "npc": "n1", "wounds": 3}, GM)
    assert state.npcs["n1"].stats.wounds == 3
    assert told(events, GM) == ["Wight takes 3 wounds", "Wight dies"]
    assert told(events, ADA) == told(events, WATCHER) == ["Wight takes ? wounds", "Wight dies"]
    assert [SESSION.view_event(e, ADA).data for e in events] == [{}, {}]
    offered = {o.kind for o in SESSION.legal(state, GM)}
    assert "npc-wounds" not in offered
    with pytest.raises(DeadWeightError, match="Wight is dead"):
        play(state, {"kind": "npc-test", "kept": "n1"}, GM)


def test_the_gm_changes_removes_shows_and_hides_an_enemy():
    """A bad value is one line and nothing changes; shown, the numbers reach the players
    and later lines about it are theirs whole; hidden again, they are the GM's again."""
    state = with_wight()
    for bad, message in (
        ("three", "the NPC: level: Input should be a valid integer"),
        ("-1", "level"),
    ):
        with pytest.raises(DeadWeightError, match=message):
            play(state, {"kind": "edit-npc", "npc": "n1", "stat": "level", "value": bad}, GM)
    with pytest.raises(DeadWeightError, match="must be one of name, level, wound limit"):
        play(state, {"kind": "edit-npc", "npc": "n1", "stat": "armour", "value": "2"}, GM)
    state, events = play(
        state, {"kind": "edit-npc", "npc": "n1", "stat": "level", "value": "5"}, GM
    )
    assert state.npcs["n1"].stats.level == 5
    assert told(events, ADA) == ["the GM changes Wight"]
    state, _ = play(state, {"kind": "reveal-npc", "npc": "n1", "revealed": True}, GM)
    assert SESSION.view(state, ADA)["npcs"][0]["stats"]["level"] == 5
    assert SESSION.kept_from_players(state) == {}
    _, events = play(state, {"kind": "npc-test", "kept": "n1"}, GM, [6] * 5)
    assert all(e.visibility == Visibility.PUBLIC for e in events)
    assert told(events, ADA)[:2] == [
        "Wight: STR test, 5 dice",
        "Wight's test: rolled [6, 6, 6, 6, 6]",
    ]
    _, events = play(state, {"kind": "npc-wounds", "npc": "n1"}, GM)
    assert told(events, ADA) == ["Wight takes 1 wound"]
    state, _ = play(state, {"kind": "reveal-npc", "npc": "n1", "revealed": False}, GM)
    assert SESSION.view(state, ADA)["npcs"][0]["stats"] == {
        "hidden": "Wight's numbers, kept by the GM"
    }
    waiting = {"kind": "npc-test", "kept": "n1", "setup": {"attribute": "STR", "disadvantage": 1}}
    state, _ = play(state, waiting, GM, [6] * 5)
    assert state.testing
    with pytest.raises(DeadWeightError, match=r"in the test \(or attack\) under way"):
        play(state, {"kind": "remove-npc", "npc": "n1"}, GM)


def test_an_enemy_taken_away_after_its_test_leaves_its_test_hidden():
    """DW-N04: once the opposed test is judged the GM may take the wight away; the test
    stays on the table, and the players' view of it still holds none of its dice."""
    state, _ = play(with_wight(), opposed(WIGHT_STR, BROM_STR), GM, [1, 2, 2, 5])
    state, _ = play(state, {"kind": "remove-npc", "npc": "n1"}, GM)
    assert state.npcs == {} and state.exchange.finished
    seen = SESSION.view(state, BO)["exchange"]["opposed"]
    assert seen["tests"][0] == {"hidden": "an NPC's test, which the GM keeps"}
    assert '"pool": 3' not in json.dumps(seen)


def test_names_are_unique_and_an_enemy_typed_into_a_test_stays_as_public_as_before():
    """DW-N04: an NPC typed into one test is told in the open, as the GM typed it; the kept
    ones are the hidden ones. A kept enemy may not take a character's name."""
    state = with_wight()
    with pytest.raises(DeadWeightError, match="already someone called Amber"):
        play(state, {**WIGHT, "name": "Amber"}, GM)
    typed = {"kind": "npc-test", "npc": {"name": "Rat", "level": 1}}
    _, events = play(state, typed, GM, [4])
    assert all(e.visibility == Visibility.PUBLIC for e in events)
    assert told(events, ADA)[:2] == ["Rat: STR test, 1 die", "Rat's test: rolled [4]"]
    with pytest.raises(DeadWeightError, match="not both"):
        play(state, {**typed, "kept": "n1"}, GM)
