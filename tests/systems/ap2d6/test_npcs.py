"""The 2d6 GM's NPCs (RU-N01..N05): the rules' own NPCs or typed in, each a character the GM
plays, in checks, contests, damage and fights, its sheet the GM's until shown. Each kind of
line that tells of a hidden NPC is played with fixed dice, and what the GM and the players
read of it is compared whole (RU-N05)."""

from __future__ import annotations

import pytest

from tabletop.errors import TabletopError
from tabletop.session import Event, Member, Visibility
from tabletop.systems.ap2d6 import SESSION, Ap2d6Error, Ap2d6Table
from tabletop.systems.ap2d6.table_npcs import bestiary
from tests.systems.ap2d6.test_session import AYLA, BRAN, GM, WATCHER, play, received, seated

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


def test_a_book_npc_line_names_its_creature_beside_a_name_of_its_own_not_twice():
    """Issue 30: the GM's line of a guard brought under the book's own name reads "Sneering
    guard (from the book)", one called Guard "Guard (Sneering guard, from the book)"."""
    unnamed = {k: v for k, v in GUARD.items() if k != "name"}
    for intent, said in ((GUARD, "Guard (Sneering guard, "), (unnamed, "Sneering guard (")):
        _, events = play(seated(), intent, GM)
        assert events[0].text.startswith(f"{said}from the book): "), events[0].text


def guarded() -> Ap2d6Table:
    """Ayla (AGI 2) and Bran, and the book's sneering guard with STR 3, its numbers hidden."""
    state, _ = play(seated(), GUARD, GM)
    state, _ = play(state, {"kind": "edit-npc", "npc": "n1", "stat": "STR", "value": "3"}, GM)
    return state


def told(events: list[Event], member: Member) -> list[str]:
    """The lines `member` reads of `events`, in order."""
    return [shown.text for e in events if (shown := SESSION.view_event(e, member)) is not None]


def draws_shown(event: Event, member: Member) -> list[int]:
    """The faces of the dice `member` is shown apart with `event` (its hint's)."""
    shown = SESSION.view_event(event, member)
    assert shown is not None and shown.cause is None
    return [d["face"] for d in shown.data.get("draws", [])]


def test_a_contest_with_a_hidden_npc_shows_the_player_their_roll_and_who_won():
    """RU-N05, RU-M11: Ayla's STR (0, [6, 6]) against the guard's (3, [3, 2]). The GM reads
    both rolls; the players read Ayla's roll and that she won, the guard's roll and why she
    won as `?`, and the hint brings them her two dice, never the guard's."""
    contest = {"kind": "contest", "first": "c1", "second": "n1", "score": "STR", "versus": "STR"}
    state, events = play(guarded(), contest, GM, [6, 6, 3, 2])
    assert [e.text for e in events] == [
        "Ayla (STR) vs Guard (STR): 2d6 → [6, 6] = 12 +0 = 12  vs  2d6 → [3, 2] = 5 +3 = 8\n"
        "the first side won (higher total)"
    ]
    ayla = "Ayla (STR) vs Guard (STR): 2d6 → [6, 6] = 12 +0 = 12  vs  ?\nthe first side won (?)"
    assert told(events, AYLA) == told(events, BRAN) == told(events, WATCHER) == [ayla]
    assert draws_shown(events[0], AYLA) == [6, 6]
    assert "+3" not in received(events, state, AYLA)


def test_a_tied_contest_rolled_again_shows_the_player_each_of_their_rolls():
    """RU-N05, RU-M11: the guard's AGI (0) against Ayla's STR (0), ties rolled again: 6 all
    at first, then [1, 2] against [5, 5]. Ayla's player reads both of her rolls (they rolled
    again too) and that she won; each of the guard's is `?`."""
    contest = {
        "kind": "contest",
        "first": "n1",
        "second": "c1",
        "score": "AGI",
        "versus": "STR",
        "redo_ties": True,
    }
    _, events = play(guarded(), contest, GM, [3, 3, 4, 2, 1, 2, 5, 5])
    assert told(events, AYLA) == [
        "Guard (AGI) vs Ayla (STR): ?  vs  2d6 → [4, 2] = 6 +0 = 6\n"
        "?  vs  2d6 → [5, 5] = 10 +0 = 10\n"
        "the second side won (?)"
    ]
    assert draws_shown(events[0], AYLA) == [4, 2, 5, 5]


def test_a_contest_between_two_hidden_npcs_keeps_who_won():
    """RU-N05: the guard's STR (3) against the innkeeper's (0), both hidden: the players
    read who contested with what, and neither roll nor who won; no dice come with it."""
    host = {"kind": "npc-from-book", "creature": "Kindly innkeeper", "name": "Host"}
    state, _ = play(guarded(), host, GM)
    contest = {"kind": "contest", "first": "n1", "second": "n2", "score": "STR", "versus": "STR"}
    _, events = play(state, contest, GM, [3, 3, 2, 2])
    assert told(events, GM) == [
        "Guard (STR) vs Host (STR): 2d6 → [3, 3] = 6 +3 = 9  vs  2d6 → [2, 2] = 4 +0 = 4\n"
        "the first side won (higher total)"
    ]
    assert told(events, AYLA) == ["Guard (STR) vs Host (STR): ?  vs  ?\n?"]
    assert draws_shown(events[0], AYLA) == []


def test_a_hidden_npcs_check_reads_to_players_as_a_characters_would():
    """RU-N05, RU-M10: the guard's STR check (2d6 [4, 2] + 3 against DC 8) succeeds. Made
    openly, the players read that it checked STR and not how it went; blind or for the GM,
    only that the GM made a roll, as a character's blind check reads to the others (Ayla's
    below); for the GM alone, nothing. The GM always reads it whole."""
    whole = "Guard (STR): 2d6 → [4, 2] = 6 +3 = 9 vs DC 8: success"
    for mode, players in (
        ("public", ["Guard (STR): ?"]),
        ("blind", ["GM made a blind roll for the GM"]),
        ("gm", ["GM rolled for the GM"]),
        ("self", []),
    ):
        check = {"kind": "check", "character": "n1", "score": "STR", "dc": 8, "mode": mode}
        _, events = play(guarded(), check, GM, [4, 2])
        assert told(events, GM) == [whole], mode
        assert told(events, AYLA) == told(events, BRAN) == players, mode
        assert not players or draws_shown(events[0], AYLA) == []
    check = {"kind": "check", "character": "c1", "score": "AGI", "mode": "blind"}
    _, events = play(guarded(), check, AYLA, [4, 2])
    assert told(events, BRAN) == ["Ayla's player made a blind roll for the GM"]


def test_harm_to_a_hidden_npc_reads_in_words_and_its_death_checks_keep_their_verdicts():
    """RU-N05, RU-M35..M39: 5 damage, then 20 more (Health 18 → -7): the players read how
    much it took and that it is down, never its HP or death DC (8). Its death checks read
    as made, not how they went, and that it makes no more; a hit while down is a failed
    check by the rules. Ayla goes to it and finds it alive; what dying cost it is the GM's."""
    state, events = play(guarded(), {"kind": "damage", "character": "n1", "amount": 5}, GM)
    assert told(events, GM) == ["Guard takes 5 damage (HP 13)"]
    assert told(events, AYLA) == ["Guard takes 5 damage"]
    assert "13" not in received(events, state, AYLA)
    assert SESSION.view(state, AYLA)["characters"][2]["sheet"] == {
        "hidden": "an NPC's sheet, which the GM keeps"
    }
    state, events = play(state, {"kind": "damage", "character": "n1", "amount": 15}, GM, [4, 4])
    assert told(events, GM) == [
        "Guard takes 15 damage (HP -2)",
        "Guard is down",
        "the GM's secret death DC for Guard: 2d6 → [4, 4] = 8",
    ]
    assert told(events, AYLA) == ["Guard takes 15 damage", "Guard is down"]
    log = []
    for faces in ([3, 4], [5, 4], [6, 4], [6, 5]):
        state, events = play(state, {"kind": "death-check", "character": "n1"}, GM, faces)
        log += events
    assert told(log, GM)[:2] == [
        "Guard's death check: 2d6 → [3, 4] = 7",
        "Guard's death check against DC 8: failure by 1",
    ]
    assert told(log, AYLA) == [
        *["Guard makes a death check"] * 4,
        "Guard makes no more death checks",
    ]
    state, events = play(state, {"kind": "check-on", "character": "n1"}, AYLA)
    assert told(events, GM) == ["someone checks on Guard: alive", "Guard: [weak] for 1 hour"]
    assert told(events, AYLA) == ["someone checks on Guard: alive"]
    _, events = play(state, {"kind": "damage", "character": "n1", "amount": 3}, GM)
    assert told(events, AYLA) == [
        "Guard takes 3 damage",
        "Guard is hit while down: a failed death check",
    ]
    assert told(events, GM)[0] == "Guard takes 3 damage (HP -5)"


def fight_with_the_guard() -> Ap2d6Table:
    state, _ = play(guarded(), {"kind": "start-fight", "characters": ["c1", "n1"]}, GM)
    return state


def test_a_fights_lines_tell_the_players_everything_but_the_guards_numbers():
    """RU-N05, RU-M18..M27: a round's start hides nothing (the guard's tokens slide as
    everyone's do). The guard pays for an attack: the players read that it attacks, not the
    AP. Its AGI check in the fight rolls double 6s: they read that it checked AGI, and
    nothing of the temp AP the sixes gave it. Ayla interrupts it: they read her roll, the
    guard's as `?`, and who acts first, and the hint brings her dice. It waits; the AP its
    wait gives it next round is the GM's."""
    state, events = play(fight_with_the_guard(), {"kind": "next-round"}, GM)
    assert (
        told(events, AYLA)
        == told(events, GM)
        == [
            "round 1 begins",
            "Ayla: every token moved one cell toward 0",
            "Guard: every token moved one cell toward 0",
            "round 1: the Main Phase",
        ]
    )
    attack = {"kind": "attack", "character": "n1", "speed": "(1n1)->(2n1)"}
    _, events = play(state, attack, GM)
    assert told(events, GM) == ["Guard: attack #1 this round: spent (1n1)"]
    assert told(events, AYLA) == ["Guard: attack"]
    check = {"kind": "check", "character": "n1", "score": "AGI", "dc": 8}
    _, events = play(state, check, GM, [6, 6])
    assert told(events, GM) == [
        "Guard (AGI): 2d6 → [6, 6] = 12 +0 = 12 vs DC 8: success (double 6s)",
        "double 6s: Guard: 1 temp AP on cell 0",
    ]
    assert told(events, AYLA) == ["Guard (AGI): ?"]
    interrupting = {"kind": "interrupt", "character": "c1", "target": "n1"}
    _, events = play(state, interrupting, AYLA, [5, 4, 6, 6])
    assert told(events, GM) == [
        "Ayla interrupts Guard: 2d6 → [5, 4] = 9 +2 = 11  vs  2d6 → [6, 6] = 12 +0 = 12: "
        "Guard acts first",
        "Ayla: interrupt: spent (1n1)",
        "double 6s: Guard: 1 temp AP on cell 0",
    ]
    assert told(events, AYLA) == [
        "Ayla interrupts Guard: 2d6 → [5, 4] = 9 +2 = 11  vs  ?: Guard acts first",
        "Ayla: interrupt: spent (1n1)",
    ]
    assert draws_shown(events[0], AYLA) == [5, 4]
    state, events = play(state, {"kind": "tracker", "character": "n1", "change": "wait"}, GM)
    assert told(events, AYLA) == ["Guard: waits: gains 1 AP when the next round starts"]
    _, events = play(state, {"kind": "next-round"}, GM)
    assert "Guard: waited: gained 1 AP: every token already on 0" in told(events, GM)
    assert told(events, AYLA) == [
        "round 2 begins",
        "Ayla: every token moved one cell toward 0",
        "Guard: every token moved one cell toward 0",
        "round 2: the Main Phase",
    ]


def test_a_roll_off_for_order_shows_ayla_her_roll_and_the_order_not_the_guards_roll():
    """RU-N05, RU-M26: the guard's AGI is Ayla's (2) and neither has acted, so an order
    Ayla's player asks for is rolled off: the guard [1, 2] → 5, Ayla [4, 2] → 8. The players
    read that it rolled, her roll and the order; the hint of the step's first line (the
    guard's) brings her her two dice."""
    state, _ = play(guarded(), {"kind": "edit-npc", "npc": "n1", "stat": "AGI", "value": "2"}, GM)
    state, _ = play(state, {"kind": "start-fight", "characters": ["c1", "n1"]}, GM)
    state, _ = play(state, {"kind": "next-round"}, GM)
    _, events = play(state, {"kind": "order", "characters": ["n1", "c1"]}, AYLA, [1, 2, 4, 2])
    assert told(events, GM) == [
        "Guard: 2d6 → [1, 2] = 3 → 5",
        "Ayla: 2d6 → [4, 2] = 6 → 8",
        "in order: Ayla, Guard",
    ]
    assert told(events, AYLA) == [
        "Guard rolls for initiative",
        "Ayla: 2d6 → [4, 2] = 6 → 8",
        "in order: Ayla, Guard",
    ]
    assert draws_shown(events[0], AYLA) == [4, 2]


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


def test_resting_a_hidden_npc_tells_players_it_rolled_and_nothing_of_its_health():
    """RU-N05, RU-M33: the GM rests the guard (CON 4, Health 42) after 5 damage, spending two
    recovery dice; each line is the guard's own: the players read that it rested and
    rolled a recovery die, never the die or its health."""
    state, _ = play(seated(), GUARD, GM)
    state, _ = play(state, {"kind": "edit-npc", "npc": "n1", "stat": "CON", "value": "4"}, GM)
    state, _ = play(state, {"kind": "damage", "character": "n1", "amount": 5}, GM)
    rest = {"kind": "rest", "character": "n1", "hours": 2, "recovery_dice": 2}
    state, events = play(state, rest, GM, [3, 2])
    assert told(events, GM) == [
        "Guard rests 2 hours, 2 recovery dice to roll",
        "Guard, hour 1: recovery die 1d6 → [3] = 3 (HP 40)",
        "Guard, hour 2: recovery die 1d6 → [2] = 2 (HP 42)",
    ]
    assert told(events, AYLA) == ["Guard rests", *["Guard rolls a recovery die"] * 2]
    said = received(events, state, AYLA)
    assert "40" not in said and "42" not in said
