"""The roll-under Core Rules at a shared table: scenarios with fixed dice citing the chapter
and docs/rules/rollunder.md, who may answer which decision, the GM's secrets, and the laws
every session obeys."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.dice import FixedDice, SeededDice
from tabletop.errors import PermissionDenied
from tabletop.offers import Offer
from tabletop.session import Member, Visibility
from tabletop.systems.rollunder import (
    SESSION,
    AbilityRoll,
    DamageDice,
    Hit,
    RollUnderError,
    RollUnderTable,
    SufferCorruption,
    SufferHit,
    no_rerolls,
    outcome_of,
    resolve,
    rules_events,
    sheet_from,
)
from tests.effort import tried
from tests.session_laws import NO_VALUE, Pick, Table, check_laws

GM = Member.gm()
ASH = Member.player("p1", "Ash's player")
BO = Member.player("p2", "Bo's player")
WATCHER = Member.observer()


def play(state: RollUnderTable, intent: dict[str, Any], member: Member, faces=()) -> tuple:
    """Resolve and fold one intent on exactly these faces."""
    dice = FixedDice(faces)
    events = SESSION.resolve(state, intent, member, dice)
    assert dice.remaining == [], f"faces left unused: {dice.remaining}"
    for event in events:
        state = SESSION.fold(state, event)
    return state, events


def character(name: str, **changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "name": name,
        "abilities": {"STR": 12, "AGI": 10, "WIT": 9},
        "max_health": 14,
        "health": 10,
    }
    return data | changes


def seated(**ash: Any) -> RollUnderTable:
    """Ash (the notes' CR-T09 character: STR 12, AGI 10, WIT 9, health 10 of 14) played by
    p1, and Bo (AGI 12, 300ʂ) played by p2."""
    state = SESSION.new()
    state, _ = play(state, {"kind": "import-character", "sheet": character("Ash", **ash)}, ASH)
    bo = character("Bo", abilities={"STR": 10, "AGI": 12, "WIT": 10}, money=300)
    state, _ = play(state, {"kind": "import-character", "sheet": bo}, BO)
    return state


def received(events, state, member: Member) -> str:
    """Every byte `member` receives of these events and of the table after them."""
    shown = [SESSION.view_event(e, member) for e in events]
    told = json.dumps([e.model_dump(mode="json") for e in shown if e], ensure_ascii=False)
    return told + json.dumps(SESSION.view(state, member), ensure_ascii=False)


def kinds(events) -> list[str]:
    return [e.type for e in events]


def test_cr_s01_characters_join_with_their_owner_at_full_health_unless_told():
    state = seated()
    assert {cid: seat.owner for cid, seat in state.characters.items()} == {"c1": "p1", "c2": "p2"}
    made = {"kind": "new-character", "name": "Cy", "abilities": {"STR": 8, "AGI": 8, "WIT": 8}}
    state, (joined,) = play(state, made | {"max_health": 9, "omens": 2}, BO)
    cy = state.characters["c3"].sheet
    assert (cy.health, cy.max_health, cy.omens, cy.max_omens) == (9, 9, 2, 2)
    assert joined.type == "joined" and joined.visibility == Visibility.PUBLIC


def test_cr_g01_a_sheet_must_carry_the_games_abilities():
    """CR-G01: a sheet carries exactly the table's abilities."""
    with pytest.raises(RollUnderError, match="are not the game's"):
        SESSION.resolve(
            SESSION.new(),
            {"kind": "import-character", "sheet": character("Odd", abilities={"STR": 3})},
            ASH,
            FixedDice([]),
        )


def test_cr_m19a_an_omen_re_roll_is_the_owners_to_make():
    """§ Spending omens, CR-A10, CR-S03: Ash (STR 12, one omen) rolls 15 and fails; his
    player re-rolls (3) and keeps the second result, which passes, and the omen is spent.
    Only he (or the GM) may answer; Bo's player is refused, the watcher too, and the table
    waits for the answer."""
    state, events = play(
        seated(omens=1, max_omens=1),
        {"kind": "ability-roll", "character": "c1", "ability": "STR"},
        ASH,
        [15],
    )
    assert kinds(events) == ["decision"] and "STR roll: 15;" in events[0].text
    reroll = {"kind": "answer", "choice": "reroll Ash"}
    for member in (BO, WATCHER):
        with pytest.raises(PermissionDenied):
            SESSION.resolve(state, reroll, member, FixedDice([3]))
    with pytest.raises(PermissionDenied, match="Answer: not Bo's player's to ask for"):
        SESSION.resolve(state, {"kind": "answer", "choice": "keep 7"}, BO, FixedDice([]))
    with pytest.raises(RollUnderError, match="waits for a decision"):
        SESSION.resolve(state, {"kind": "heal", "character": "c2"}, BO, FixedDice([]))
    state, _ = play(state, reroll, ASH, [3])
    with pytest.raises(RollUnderError, match="that choice is not open now"):
        SESSION.resolve(state, {"kind": "answer", "choice": "keep 3"}, ASH, FixedDice([]))
    state, events = play(state, {"kind": "answer", "choice": "keep 2"}, ASH)
    assert kinds(events) == ["answer", "omen_spent", "roll_kept", "ability_roll", "outcome"]
    assert outcome_of(events)["passed"] is True
    assert state.characters["c1"].sheet.omens == 0 and state.pending is None


def test_cr_t09_a_hit_injures_and_an_omen_re_rolls_instant_death():
    """CR-T09, CR-A09: 8 damage at health 10 of 14 incapacitates (16 > 10) and calls for an
    injury roll (16 > 14). The d8 shows 8, instant death; Ash's player re-rolls it with his
    omen (4: Disabled leg, −2 AGI) and keeps the new result. The GM deals the hit (CR-S10)."""
    state, events = play(
        seated(omens=1, max_omens=1),
        {"kind": "suffer-hit", "character": "c1", "damage": "8"},
        GM,
        [8],
    )
    assert kinds(events)[-1] == "decision" and "incapacitated" in kinds(events)
    state, _ = play(state, {"kind": "answer", "choice": "reroll Ash"}, ASH, [4])
    state, events = play(state, {"kind": "answer", "choice": "keep 2"}, ASH)
    ash = state.characters["c1"].sheet
    assert (ash.health, ash.abilities["AGI"], ash.omens, ash.alive) == (2, 8, 0, True)
    assert ash.incapacitated and ash.injuries[0].trait == "Disabled leg"


def test_cr_m17_the_gm_picks_the_destroyed_item_and_nobody_else():
    """§ Critical damage, injury 1, CR-S03: the GM chooses which carried item is destroyed."""
    state = seated()
    state, _ = play(state, {"kind": "set-carry-limit", "character": "c1", "carry_limit": 10}, ASH)
    for item in ("rope", "lamp"):
        take = {"kind": "take-item", "character": "c1", "item": {"name": item, "bulk": 1}}
        state, _ = play(state, take, ASH)
    state, events = play(state, {"kind": "suffer-hit", "character": "c1", "damage": "8"}, GM, [1])
    assert events[-1].data["kind"] == "destroy_item"
    assert [o.kind for o in SESSION.legal(state, ASH)] == ["roll"]
    with pytest.raises(PermissionDenied, match="the GM may"):
        SESSION.resolve(state, {"kind": "answer", "choice": "lamp"}, ASH, FixedDice([]))
    state, _ = play(state, {"kind": "answer", "choice": "lamp"}, GM)
    assert [i.name for i in state.characters["c1"].sheet.load.held] == ["rope"]


def test_cr_a13_the_dying_face_death_when_the_next_activation_ends():
    """§ Health loss, CR-A13, CR-M19b: Ash falls to 0 (2 damage at health 2: no injury roll,
    4 is not over 14), Bo too (10 damage and a Disabled leg); the next activation to begin
    is their deadline. When it ends Ash's player may spend his omen to live (health back to
    1); Bo, without omens, just dies."""
    state = seated(health=2, omens=1, max_omens=1)
    state, _ = play(state, {"kind": "suffer-hit", "character": "c1", "damage": "2"}, GM)
    state, _ = play(state, {"kind": "suffer-hit", "character": "c2", "damage": "10"}, GM, [4])
    assert state.characters["c1"].sheet.health == state.characters["c2"].sheet.health == 0
    state, events = play(state, {"kind": "begin-activation", "actor": "the orc"}, GM)
    assert kinds(events).count("dying_deadline") == 2
    state, events = play(state, {"kind": "end-activation"}, GM)
    assert events[-1].data["kind"] == "death_save"
    with pytest.raises(PermissionDenied):
        SESSION.resolve(state, {"kind": "answer", "choice": "save"}, BO, FixedDice([]))
    state, events = play(state, {"kind": "answer", "choice": "save"}, ASH)
    assert "saved_from_death" in kinds(events) and "died" in kinds(events)
    ash, bo = (state.characters[c].sheet for c in ("c1", "c2"))
    assert (ash.health, ash.omens, ash.alive, bo.alive) == (1, 0, True, False)
    assert state.pending is None and state.activation is None


def test_cr_t03_a_contest_of_a_character_against_a_bare_score():
    """CR-T03: Ash (AGI 10) rolls 3, 15, 9, 11 and the rival (AGI 12) 12, 13, 2, 20: two
    passes each; the tie-break gives Ash 4 (pass) and the rival 16 (fail): Ash first. The
    rival's score is the GM's to set (CR-S10), and a player's side takes only their own."""
    contest = {
        "kind": "contest",
        "ability": "AGI",
        "sides": [
            {"name": "Ash", "characters": ["c1"]},
            {"name": "Rival", "scores": [{"name": "Rival", "score": 12}]},
        ],
    }
    _, events = play(seated(), contest, GM, [3, 15, 9, 11, 12, 13, 2, 20, 4, 16])
    assert [p["sides"] for p in outcome_of(events)["places"]] == [["Ash"], ["Rival"]]
    with pytest.raises(PermissionDenied, match="Bo is not yours"):
        contest["sides"][1] = {"name": "Bo", "characters": ["c2"]}
        SESSION.apply(seated(), SESSION.parse_intent(contest), ASH, FixedDice([1] * 10))


def test_cr_s02_a_collective_roll_may_use_only_characters_you_play():
    """CR-M02, CR-S02: one d20 for Ash and Bo; only the GM plays both."""
    intent = {"kind": "collective-roll", "characters": ["c1", "c2"], "ability": "AGI"}
    with pytest.raises(PermissionDenied):
        SESSION.resolve(seated(), intent, ASH, FixedDice([11]))
    _, events = play(seated(), intent, GM, [11])
    assert outcome_of(events)["passed"] is True  # 11 is under Bo's AGI 12


def test_cr_s04_a_secret_monster_keeps_its_sheet_from_the_players():
    """CR-S04: the GM's orc. Players see its name and that things happen to it, never its
    numbers or what it carries, not even the best score of a group roll it joins (STR 17,
    which they read as `?`), until the GM shows its sheet."""
    load = {"carry_limit": 20, "held": [{"name": "mk-cursed-blade", "bulk": 2}]}
    orc = character("Orc", abilities={"STR": 17, "AGI": 7, "WIT": 3}, max_health=23, load=load)
    state, log = play(seated(), {"kind": "import-character", "sheet": orc, "secret": True}, GM)
    state, events = play(state, {"kind": "suffer-hit", "character": "c3", "damage": "d6"}, GM, [5])
    log += events
    group = {"kind": "collective-roll", "characters": ["c1", "c3"], "ability": "STR"}
    state, events = play(state, group, GM, [16])
    log += events
    assert "its best STR 17" in received(log, state, GM)
    for member in (ASH, BO, WATCHER):
        told = received(log, state, member)
        assert "Orc" in told and "mk-cursed-blade" not in told and "23" not in told
        assert "Orc takes a hit" in told and "17" not in told
        assert "the group (Ash, Orc) rolls 16 against its best STR ?" in told
    assert SESSION.view(state, GM)["characters"][2]["sheet"]["health"] == 5
    with pytest.raises(RollUnderError, match="The GM's secret character must be left unticked"):
        SESSION.resolve(
            seated(), {"kind": "import-character", "sheet": orc, "secret": True}, ASH, FixedDice([])
        )
    state, shown = play(state, {"kind": "reveal-character", "character": "c3"}, GM)
    assert "mk-cursed-blade" in received(shown, state, ASH)


def test_cr_s06_a_blind_roll_tells_the_roller_only_that_it_was_made():
    """CR-S06: only the GM sees a blind die, so only the GM decides a re-roll of it."""
    state, (decision,) = play(
        seated(omens=1, max_omens=1),
        {"kind": "ability-roll", "character": "c1", "ability": "WIT", "mode": "blind"},
        ASH,
        [17],
    )
    seen = SESSION.view_event(decision, ASH)
    assert seen.data == {} and "blind roll" in seen.text
    assert SESSION.view(state, ASH)["pending"]["decision"] == {
        "hidden": "a decision on a roll kept from you"
    }
    assert [o.kind for o in SESSION.legal(state, ASH)] == ["roll"]
    state, events = play(state, {"kind": "answer", "choice": "keep 1"}, GM)
    assert all(SESSION.view_event(e, ASH).data == {} for e in events)
    assert outcome_of(events)["passed"] is False


def test_cr_s06_a_roll_for_the_gm_is_seen_by_its_roller_and_the_gm_alone():
    _, events = play(
        seated(),
        {"kind": "ability-roll", "character": "c1", "ability": "AGI", "mode": "gm"},
        ASH,
        [4],
    )
    assert all(SESSION.view_event(e, ASH) == e for e in events)
    assert {SESSION.view_event(e, BO).text for e in events} == {"Ash's player rolled for the GM"}


def test_cr_m10_a_player_leads_at_most_two_followers():
    """§ Followers, CR-S02: the leader's player plays the followers; a third is refused."""
    state = seated()
    for name in ("Fen", "Gil"):
        recruit = {"kind": "recruit-follower", "leader": "c1", "sheet": character(name)}
        state, _ = play(state, recruit, ASH)
    assert [s.owner for s in state.characters.values()] == ["p1", "p2", "p1", "p1"]
    with pytest.raises(PermissionDenied, match="Take on a follower: not Ash's player's"):
        SESSION.resolve(state, recruit | {"sheet": character("Hal")}, ASH, FixedDice([]))
    _, events = play(state, {"kind": "loyalty-roll", "follower": "c3"}, ASH, [9])
    assert outcome_of(events)["passed"] is True  # CR-A23: Ash's WIT 9


def test_cr_a19_burial_before_the_replacement_who_takes_the_followers():
    """§ Death, CR-A19, CR-A24, CR-S07: Ash dies; Bo pays the 256ʂ burial, which comes
    before the replacement; Ash's player brings Cy, whom Ash's follower now follows."""
    state = seated()
    recruit = {"kind": "recruit-follower", "leader": "c1", "sheet": character("Fen")}
    state, _ = play(state, recruit, ASH)
    state, _ = play(state, {"kind": "die", "character": "c1"}, GM)
    replace = {"kind": "replace-character", "dead": "c1", "sheet": character("Cy")}
    with pytest.raises(RollUnderError):
        SESSION.resolve(state, replace, ASH, FixedDice([]))  # the burial comes first
    state, _ = play(state, {"kind": "bury", "dead": "c1", "payment": {"c2": 256}}, GM)
    assert state.characters["c2"].sheet.money == 44
    state, _ = play(state, replace, ASH)
    names = {seat.sheet.name: seat.owner for seat in state.characters.values()}
    assert names == {"Bo": "p2", "Fen": "p1", "Cy": "p1"}
    assert state.characters["c3"].sheet.leader == "Cy"


def test_cr_a29_downtime_heals_temporary_injuries_and_restores_omens():
    state = seated(omens=1, max_omens=1)
    state, _ = play(state, {"kind": "cast-spell", "character": "c1", "spell": "Blessing"}, ASH)
    state, _ = play(state, {"kind": "suffer-hit", "character": "c1", "damage": "8"}, GM, [2])
    assert state.characters["c1"].sheet.abilities["STR"] == 10  # Disabled arm
    state, _ = play(state, {"kind": "downtime"}, GM)
    ash = state.characters["c1"].sheet
    assert (ash.abilities["STR"], ash.omens, ash.incapacitated, ash.injuries) == (12, 1, False, ())


def test_cr_s05_only_the_gm_calls_a_roll_trivial_or_impossible():
    """§ Challenge Levels: the GM estimates the level; a player's rolls are challenging."""
    trivial = {"kind": "ability-roll", "character": "c1", "ability": "STR", "level": "trivial"}
    with pytest.raises(RollUnderError, match="Challenge level must be Challenging"):
        SESSION.resolve(seated(), trivial, ASH, FixedDice([]))
    _, events = play(seated(), trivial, GM)
    assert outcome_of(events) | {"character": None} == {
        "character": None,
        "passed": True,
        "rolled": False,
    }


def test_an_observer_asks_for_nothing():
    assert SESSION.legal(seated(), WATCHER) == []
    with pytest.raises(PermissionDenied, match="observer"):
        SESSION.resolve(seated(), {"kind": "heal", "character": "c1"}, WATCHER, FixedDice([]))


def test_a_dead_character_is_refused_naming_why():
    state, _ = play(seated(), {"kind": "die", "character": "c1", "cause": "a fall"}, GM)
    with pytest.raises(RollUnderError, match=r"Heal: Character must be Bo$"):
        SESSION.resolve(state, {"kind": "heal", "character": "c1"}, GM, FixedDice([]))
    alone = SESSION.new()
    alone, _ = play(alone, {"kind": "import-character", "sheet": character("Ash")}, GM)
    alone, _ = play(alone, {"kind": "die", "character": "c1", "cause": "a fall"}, GM)
    with pytest.raises(RollUnderError, match=r"Ash is dead \(a fall\)"):
        SESSION.resolve(alone, {"kind": "heal", "character": "c1"}, GM, FixedDice([]))


def test_a_refusal_names_in_words_and_tells_nothing_of_a_hidden_one():
    """Issue 30: a page's pick gone stale (Ash died while the form was open) is refused in
    the table's words: the form's label, the names still offered, no id and nothing of what
    was sent echoed. A player naming the GM's secret character and one naming nobody get
    the same answer, so a refusal cannot tell whether a hidden one exists."""
    state, _ = play(seated(), {"kind": "die", "character": "c1", "cause": "a fall"}, GM)
    with pytest.raises(RollUnderError) as stale:
        SESSION.resolve(state, {"kind": "heal", "character": "c1", "amount": 2}, GM, FixedDice([]))
    assert str(stale.value) == "Heal: Character must be Bo"
    orc = character("Orc", abilities={"STR": 17, "AGI": 7, "WIT": 3}, max_health=23)
    state, _ = play(seated(), {"kind": "import-character", "sheet": orc, "secret": True}, GM)
    told = set()
    for target in ("c3", "c9"):
        limit = {"kind": "set-carry-limit", "character": target, "carry_limit": 8}
        with pytest.raises(RollUnderError) as refused:
            SESSION.resolve(state, limit, ASH, FixedDice([]))
        told.add(str(refused.value))
    assert told == {"Set the carry limit: Character must be Ash"}


def test_cr_s02_a_player_changes_only_the_characters_they_play():
    state = seated()
    limit = {"kind": "set-carry-limit", "character": "c1", "carry_limit": 8}
    with pytest.raises(RollUnderError, match=r"Set the carry limit: Character must be Bo$"):
        SESSION.resolve(state, limit, BO, FixedDice([]))
    with pytest.raises(RollUnderError, match=r"Played by must be one of none, p2$"):
        made = {"kind": "import-character", "sheet": character("Cy"), "owner": "p1"}
        SESSION.resolve(state, made, BO, FixedDice([]))
    state, _ = play(state, {"kind": "heal", "character": "c1", "amount": 2}, GM)
    assert state.characters["c1"].sheet.health == 12


def test_cr_s07_each_death_save_waits_for_its_own_player_in_turn():
    """CR-A13, CR-S07: Ash and Bo both fall to 0 with an omen each; when the activation
    ends Ash's save is asked first, then Bo's, each of its own player."""
    state = SESSION.new()
    for member, name in ((ASH, "Ash"), (BO, "Bo")):
        sheet = character(name, health=2, omens=1, max_omens=1)
        state, _ = play(state, {"kind": "import-character", "sheet": sheet}, member)
        cid = state.id_of(name)
        state, _ = play(state, {"kind": "suffer-hit", "character": cid, "damage": "2"}, GM)
    state, _ = play(state, {"kind": "begin-activation", "actor": "Ash"}, GM)
    state, _ = play(state, {"kind": "end-activation"}, GM)
    assert state.pending.queue == ("c2",) and "Ash" in SESSION.decision(state).purpose
    assert SESSION.legal(state, BO)[-1].kind == "roll"  # not Bo's turn to choose
    state, _ = play(state, {"kind": "answer", "choice": "die"}, ASH)
    assert "Bo" in SESSION.decision(state).purpose
    state, _ = play(state, {"kind": "answer", "choice": "save"}, BO)
    ash, bo = (state.characters[c].sheet for c in ("c1", "c2"))
    assert (ash.alive, bo.alive, bo.health, state.pending) == (False, True, 1, None)


def test_cr_g09_a_chance_roll_with_an_omen_re_roll():
    """CR-G09, CR-M19a: any roll that directly affects the character may be re-rolled."""
    state, _ = play(
        seated(omens=1, max_omens=1),
        {"kind": "chance-roll", "character": "c1", "expression": "1d6", "purpose": "the rope"},
        ASH,
        [1],
    )
    state, _ = play(state, {"kind": "answer", "choice": "reroll Ash"}, ASH, [6])
    _, events = play(state, {"kind": "answer", "choice": "keep 2"}, ASH)
    assert outcome_of(events)["result"]["total"] == 6


@settings(max_examples=tried(40), deadline=None)
@given(
    seed=st.integers(0, 10**6),
    health=st.integers(1, 14),
    omens=st.integers(0, 2),
    which=st.sampled_from(["hit", "corruption", "roll"]),
)
def test_the_table_takes_the_rules_one_path(seed, health, omens, which):
    """A rule played at the table, each decision answered as `no_rerolls` would, gives the
    events and the outcome `resolve` gives on the same dice: one path through the rules."""
    sheet = character("Ash", health=health, omens=omens, max_omens=2, corruption=9)
    state, _ = play(SESSION.new(), {"kind": "import-character", "sheet": sheet}, ASH)
    ash = sheet_from(sheet)
    intent, rule = {
        "hit": (
            {"kind": "suffer-hit", "character": "c1", "damage": "2d6"},
            SufferHit(character=ash, hit=Hit(dice=DamageDice(count=2, sides=6))),
        ),
        "corruption": (
            {"kind": "suffer-corruption", "character": "c1", "gain": 2},
            SufferCorruption(character=ash, gain=2),
        ),
        "roll": (
            {"kind": "ability-roll", "character": "c1", "ability": "AGI"},
            AbilityRoll(character=ash, ability="AGI"),
        ),
    }[which]
    dice = SeededDice(seed)
    events = SESSION.resolve(state, intent, GM, dice)  # a hit or corruption is the GM's (CR-S10)
    for event in events:
        state = SESSION.fold(state, event)
    while (decision := SESSION.decision(state)) is not None:
        more = SESSION.resolve(state, {"kind": "answer", "choice": no_rerolls(decision)}, GM, dice)
        for event in more:
            state = SESSION.fold(state, event)
        events += more
    alone = resolve(rule, SeededDice(seed), policy=no_rerolls)
    assert rules_events(events) == alone.events
    assert outcome_of(events) == alone.outcome.model_dump(mode="json")


# the laws ---------------------------------------------------------------------------------


def fill(offer: Offer, name: str, pick: Pick, marker: str) -> Any:
    """Values for the free fields of the roll-under table's open offers."""
    scores = {"STR": pick([3, 12]), "AGI": pick([8, 15]), "WIT": pick([5, 10])}
    values: dict[str, Any] = {
        "name": marker,
        "label": marker,
        "notation": pick(["1d20", "2d6"]),
        "abilities": scores,
        "max_health": pick([1, 6, 14]),
        "sheet": {**character(marker), "omens": pick([0, 2]), "max_omens": 2},
        "rollers": [{"name": marker, "score": pick([5, 15]), "omens": pick([0, 1])}],
        "characters": pick([["c1"], ["c1", "c2"]]),
        "sides": [
            {"name": "us", "characters": pick([["c1"], ["c2"]])},
            {"name": marker, "scores": [{"name": marker, "score": 10, "omens": 1}]},
        ],
        "rolls": pick([1, 2]),
        "damage": pick(["d6", "2d4+1"] if offer.kind == "roll-damage" else ["d6", "8", "15"]),
        "armour": pick([0, 2]),
        "gain": pick([1, 6]),
        "expression": pick(["1d6", "1d8"]),
        "purpose": marker,
        "amount": pick([1, 3]),
        "carry_limit": pick([4, 10]),
        "item": {"name": marker, "bulk": pick([1, 3]), "kind": pick(["item", "weapon", "clothes"])},
        "spell": marker,
        "notes": marker,
        "reason": marker,
        "mutation": marker,
        "actor": marker,
        "payment": None,
        "owner": None,
        "table": None,
        "stats": {"abilities": scores, "max_health": pick([3, 9])},
        "value": pick(["4", "9", marker]),
        "weapon": pick(["d6", "d8+1"]),
        "what": {"ability": pick(["STR", "AGI"])},
        "dc": pick([None, 8]),
        "order": pick([["c1", "c2"], ["c2", "c1"]]),
    }
    return values.get(name, NO_VALUE)


TABLE = Table(
    SESSION, [GM, ASH, BO, WATCHER], filler=fill, start=lambda: seated(omens=2, max_omens=2)
)


@settings(max_examples=tried(25), deadline=None)
@given(data=st.data(), seed=st.integers(0, 10_000))
def test_the_rollunder_table_obeys_the_session_laws(data, seed):
    check_laws(TABLE, lambda items: data.draw(st.sampled_from(list(items))), steps=25, seed=seed)
