"""The 2d6 action-point rules at a shared table: scenarios with fixed dice, the secret death
DC, and the laws every session obeys."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.dice import FixedDice
from tabletop.errors import PermissionDenied
from tabletop.offers import Offer
from tabletop.session import Member
from tabletop.systems.ap2d6 import SESSION, Ap2d6Error, Ap2d6Table
from tests.effort import tried
from tests.session_laws import NO_VALUE, Pick, Table, check_hidden_npc_laws, check_laws

GM = Member.gm()
AYLA = Member.player("p1", "Ayla's player")
BRAN = Member.player("p2", "Bran's player")
WATCHER = Member.observer()


def play(state: Ap2d6Table, intent: dict[str, Any], member: Member, faces=()) -> tuple:
    events = SESSION.resolve(state, intent, member, FixedDice(faces))
    for event in events:
        state = SESSION.fold(state, event)
    return state, events


def seated() -> Ap2d6Table:
    """Ayla (AGI 2) played by p1 and Bran played by p2, bought with the suggested 9 SP."""
    state = SESSION.new()
    state, _ = play(state, {"kind": "new-character", "name": "Ayla", "scores": {"AGI": 2}}, AYLA)
    state, _ = play(state, {"kind": "new-character", "name": "Bran"}, BRAN)
    return state


def received(events, state, member: Member) -> str:
    """Every byte `member` receives of these events and of the table after them."""
    shown = [SESSION.view_event(e, member) for e in events]
    events_json = json.dumps([e.model_dump(mode="json") for e in shown if e], ensure_ascii=False)
    return events_json + json.dumps(SESSION.view(state, member), ensure_ascii=False)


def test_characters_are_bought_with_their_owner():
    state = seated()
    assert {s.sheet.name: s.owner for s in state.characters.values()} == {
        "Ayla": "p1",
        "Bran": "p2",
    }
    assert state.characters["c1"].sheet.scores["AGI"] == 2


def test_the_death_dc_stays_with_the_gm_until_revealed():
    """RU-M35..M38: at 0 HP Ayla is down and the GM rolls the death DC in secret (6 + 5 =
    11); her player sees her death checks but never the DC or a verdict against it."""
    state, events = play(seated(), {"kind": "damage", "character": "c1", "amount": 20}, GM, [6, 5])
    log = list(events)
    assert state.characters["c1"].sheet.dying.dc == 11
    for faces in ([3, 4], [2, 2]):
        state, events = play(state, {"kind": "death-check", "character": "c1"}, AYLA, faces)
        log += events
    for member in (AYLA, BRAN, WATCHER):
        told = received(log, state, member)
        assert "DC 11" not in told and '"dc": 11' not in told and "[6, 5]" not in told
        assert "death check: 2d6 → [3, 4] = 7" in told
    assert "DC 11" in received(log, state, GM)
    state, shown = play(state, {"kind": "reveal-death-dc", "character": "c1"}, GM)
    assert "death DC was 11" in received(shown, state, AYLA)


def test_only_the_owner_or_the_gm_makes_a_death_check():
    state, _ = play(seated(), {"kind": "damage", "character": "c1", "amount": 20}, GM, [6, 5])
    with pytest.raises(PermissionDenied):
        SESSION.resolve(state, {"kind": "death-check", "character": "c1"}, BRAN, FixedDice([1]))


def test_a_fight_on_the_ap_tracker():
    """RU-M16..M25: the GM starts the round; a move costs (1n1) from the AP on cell 0."""
    state, _ = play(seated(), {"kind": "start-fight", "characters": ["c1", "c2"]}, GM)
    state, events = play(state, {"kind": "next-round"}, GM)
    assert events[0].type == "round"
    with pytest.raises(Ap2d6Error, match=r"The AP tracker: What happens must be Wait$"):
        SESSION.resolve(
            state, {"kind": "tracker", "character": "c1", "change": "gain"}, AYLA, FixedDice([])
        )
    state, events = play(state, {"kind": "spend", "character": "c1", "action": "move"}, AYLA)
    assert events[0].text.startswith("Ayla: ")
    with pytest.raises(Ap2d6Error, match=r"Pay for an action: Character must be Bran$"):
        SESSION.resolve(
            state, {"kind": "spend", "character": "c1", "action": "move"}, BRAN, FixedDice([])
        )
    # Having spent AP, Ayla may no longer wait (RU-M23): her player is offered no tracker
    # change at all, so asking for one is the GM's to ask for.
    offered = {o.kind for o in SESSION.legal(state, AYLA)}
    assert "tracker" not in offered and "spend" in offered
    state, _ = play(state, {"kind": "end-fight"}, GM)
    assert state.fight is None
    tracker = state.characters["c1"].sheet.tracker  # RU-A10: a fresh tracker, all AP on 0
    assert tracker.cells()[0] == tracker.ap_per_round and tracker.lost == 0


def fighting() -> Ap2d6Table:
    state, _ = play(seated(), {"kind": "start-fight", "characters": ["c1", "c2"]}, GM)
    state, _ = play(state, {"kind": "next-round"}, GM)
    return state


def test_rua48_an_attack_is_paid_at_its_weapons_speed_escalating_each_time():
    """RU-A48, § Attacking using AP, RU-M19: the seed's longsword, speed (1n1)->(2n1), costs
    1 AP for the first attack and 2 for the second; "attack" is an intent of its own, so
    typing it as a spend's action is refused with what to do instead (issue 23)."""
    state = fighting()
    attack = {"kind": "attack", "character": "c1", "speed": "(1n1)->(2n1)"}
    state, events = play(state, attack, AYLA)
    assert "1n1" in events[0].text
    state, events = play(state, attack, AYLA)
    assert "2n1" in events[0].text
    assert state.characters["c1"].sheet.tracker.cells()[0] == 0
    with pytest.raises(Ap2d6Error, match=r"neither a basic action .* weapon's speed"):
        SESSION.resolve(
            fighting(),
            {"kind": "spend", "character": "c1", "action": "attack"},
            AYLA,
            FixedDice([]),
        )


def test_rua48_a_fighter_is_offered_each_basic_action_they_can_pay_for_now():
    """RU-M16, RU-M17: the basic actions are listed by name for the acting character's
    player, only those their AP still pays for (after two moves, no (2n1) bag search)."""
    state = fighting()
    listed = [o for o in SESSION.legal(state, AYLA) if o.kind == "spend" and o.closed]
    assert {(i["character"], i["action"]) for i in listed[0].intents} >= {
        ("c1", "move"),
        ("c1", "search-bag"),
        ("c1", "free-action"),
    }
    assert all(i["character"] == "c1" for i in listed[0].intents)
    for _ in range(2):
        state, _ = play(state, {"kind": "spend", "character": "c1", "action": "move"}, AYLA)
    listed = [o for o in SESSION.legal(state, AYLA) if o.kind == "spend" and o.closed]
    actions = {i["action"] for i in listed[0].intents}
    assert "move" in actions and "search-bag" not in actions
    assert any(o.kind == "attack" for o in SESSION.legal(state, AYLA))


def test_a_check_against_a_dc_with_a_score():
    """RU-M10: the GM sets the DC (8) for Ayla's AGI check: 2d6 [3, 3] + 2 = 8 meets it."""
    _, (event,) = play(
        seated(), {"kind": "check", "character": "c1", "score": "AGI", "dc": 8}, GM, [3, 3]
    )
    assert event.data["success"] is True and event.data["score"] == 2


def test_a_players_check_is_rolled_for_the_gm_to_judge():
    """RU-S06, § A Simple Example of a "Check": the player rolls 2d6 + AGI; the GM knows the
    DC, so the line gives the total and no verdict (no DC the book does not give)."""
    _, (event,) = play(seated(), {"kind": "check", "character": "c1", "score": "AGI"}, AYLA, [3, 4])
    assert event.text == "Ayla (AGI): 2d6 → [3, 4] = 7 +2 = 9, for the GM to judge"
    assert event.data["total"] == 9 and "success" not in event.data


def test_a_check_has_one_dc_at_most():
    with pytest.raises(Ap2d6Error, match="not both"):
        SESSION.resolve(
            seated(),
            {"kind": "check", "character": "c1", "score": "AGI", "dc": 8, "against": 1},
            GM,
            FixedDice([3, 3]),
        )


LEVERS = (
    {"kind": "check", "character": "c1", "score": "AGI", "dc": 8},
    {"kind": "check", "character": "c1", "score": "AGI", "against": 0},
    {"kind": "check", "character": "c1", "score": "AGI", "modifier": 2},
    {"kind": "check", "character": "c1", "score": "AGI", "defender_wins_ties": True},
    {"kind": "damage", "character": "c2", "amount": 4},
    {"kind": "heal", "character": "c1", "amount": 3},
)


@pytest.mark.parametrize("intent", LEVERS, ids=lambda i: f"{i['kind']}-{sorted(i)[-1]}")
def test_rus06_a_player_cannot_set_what_the_book_gives_the_gm(intent):
    """RU-S06: the DC and its bonuses, harm and healing are the GM's (§ A Simple Example of
    a "Check": "The GM knows the DC"): a player's intent setting one is refused, nothing
    changes, and no offer to the player carries it; the GM's offers do."""
    state = seated()
    state, _ = play(state, {"kind": "damage", "character": "c1", "amount": 5}, GM)
    with pytest.raises(PermissionDenied):
        SESSION.resolve(state, intent, AYLA, FixedDice([3, 3, 3]))
    with pytest.raises(PermissionDenied, match="the GM sets"):
        SESSION.apply(state, SESSION.parse_intent(intent), AYLA, FixedDice([3, 3, 3]))
    offered = SESSION.legal(state, AYLA)
    assert not any(o.kind in ("damage", "heal") for o in offered)
    assert not any("dc" in o.fields for o in offered if o.kind == "check")
    gm = SESSION.legal(state, GM)
    assert {"damage", "heal"} <= {o.kind for o in gm}
    assert all("dc" in o.fields for o in gm if o.kind == "check")


@pytest.mark.parametrize("intent", LEVERS, ids=lambda i: f"{i['kind']}-{sorted(i)[-1]}")
def test_rus06_a_table_may_hand_the_levers_to_its_players(intent):
    """RU-S06: with `players_set_difficulty` on, the same intents from Ayla's player are
    offered and go ahead."""
    state = SESSION.new({"players_set_difficulty": True})
    for name, who in (("Ayla", AYLA), ("Bran", BRAN)):
        scores = {"AGI": 2} if name == "Ayla" else {}
        state, _ = play(state, {"kind": "new-character", "name": name, "scores": scores}, who)
    state, _ = play(state, {"kind": "damage", "character": "c1", "amount": 5}, GM)
    assert {"damage", "heal"} <= {o.kind for o in SESSION.legal(state, AYLA)}
    after, events = play(state, intent, AYLA, [3, 3, 3])
    assert events[0].type == intent["kind"]
    assert (after != state) == (intent["kind"] != "check")  # harm and healing change HP


# the laws ---------------------------------------------------------------------------------


def fill(offer: Offer, name: str, pick: Pick, marker: str) -> Any:
    values: dict[str, Any] = {
        "name": marker,
        "label": marker,
        "notation": pick(["2d6", "1d6"]),
        "score": pick(["AGI", "STR", "CON"]),
        "versus": pick(["AGI", "STR"]),
        "dc": pick([5, 7, 9]),
        "amount": pick([2, 12, 25]),
        "hours": pick([1, 8]),
        "action": pick(["move", "(2n2)", "draw-weapon"]),
        "characters": ["c1", "c2"],
        "stats": {"scores": {"STR": pick([0, 2])}, "bias": pick([-2, 1])},
        "value": pick(["2", "-1", marker]),
        "notes": marker,
        "item": {"name": marker, "kind": pick(["weapon", "small", "heavy-weapon"])},
        "bag": {"name": marker, "threshold": 2, "maximum": 6},
        "skill": marker,
        "cost": pick([1, 3]),
        "points": pick([1, 4]),
        "scores": pick([{"STR": 1, "AGI": 1}, {"SOCIAL": 1, "CON": 1, "AGI": -1}]),
        "skills": pick([{"STEALTH": 1, "ATHLETICS": 2}, {}]),
    }
    return values.get(name, NO_VALUE)


TABLE = Table(SESSION, [GM, AYLA, BRAN, WATCHER], filler=fill, start=seated)


@settings(max_examples=tried(25), deadline=None)
@given(data=st.data(), seed=st.integers(0, 10_000))
def test_the_ap2d6_table_obeys_the_session_laws(data, seed):
    check_laws(TABLE, lambda items: data.draw(st.sampled_from(list(items))), steps=20, seed=seed)


# a hidden NPC -----------------------------------------------------------------------------

OGRE = {"scores": {"STR": 7, "AGI": 6, "CON": 9}, "bias": 5}
"""An NPC typed in with numbers no rule here gives a character: scores of 6 and more (a
character's are 3 at most, so a check's bonus is too), Health 72 (36 at most), bias +5."""

NPC_SECRETS = (
    r'"STR":\s*7\b',
    r'"AGI":\s*6\b',
    r'"CON":\s*9\b',
    r'"bias":\s*[52]\b',
    r'"max_hp":\s*72\b',
    r"\+[6-9] = ",
    r"HP (3[7-9]|[4-9]\d)\b",
    r"Kindly innkeeper",
)
"""The ogre's numbers (its health while above any character's), the innkeeper's bias and the
book's name for it."""


def with_hidden_npcs() -> Ap2d6Table:
    """Ayla and Bran, the ogre typed in (n1), and the book's kindly innkeeper as Host (n2)."""
    state, _ = play(seated(), {"kind": "new-npc", "name": "Ogre", "stats": OGRE}, GM)
    host = {"kind": "npc-from-book", "creature": "Kindly innkeeper", "name": "Host"}
    state, _ = play(state, host, GM)
    return state


def fighting_hidden_npcs() -> Ap2d6Table:
    everyone = {"kind": "start-fight", "characters": ["c1", "c2", "n1", "n2"]}
    state, _ = play(with_hidden_npcs(), everyone, GM)
    state, _ = play(state, {"kind": "next-round"}, GM)
    return state


def fill_with_npcs(offer: Offer, name: str, pick: Pick, marker: str) -> Any:
    """`fill`, with fights and orders that take the NPCs in."""
    if name == "characters":
        return pick([["c1", "n1"], ["n2", "c2", "n1"], ["c1", "c2", "n1", "n2"]])
    return fill(offer, name, pick, marker)


def never_shown(items: Any) -> list[Any]:
    """The walk's choices but the GM's showing an NPC's numbers (then they are the players')."""
    return [i for i in items if not (isinstance(i, tuple) and _reveals(i[-1]))]


def _reveals(choice: Any) -> bool:
    return isinstance(choice, Offer) and choice.kind == "reveal-npc"


@settings(max_examples=tried(20), deadline=None)
@given(data=st.data(), seed=st.integers(0, 10_000), fighting=st.booleans())
def test_no_player_receives_a_hidden_npcs_numbers_or_book_name(data, seed, fighting):
    """RU-N05, issue 29: walks of a table that keeps two NPCs hidden, in a fight or not;
    no byte a player or the observer receives holds the ogre's numbers or the innkeeper's
    bias or book name, and no line reaches anyone with a mark in it."""
    start = fighting_hidden_npcs if fighting else with_hidden_npcs
    table = Table(SESSION, [GM, AYLA, BRAN, WATCHER], filler=fill_with_npcs, start=start)

    def pick(items: Any) -> Any:
        return data.draw(st.sampled_from(never_shown(items)))

    check_hidden_npc_laws(table, pick, NPC_SECRETS, steps=25, seed=seed)


def test_rus07_a_check_picks_its_score_from_the_books_list_and_the_sheets():
    """RU-S07, § "Standard" Scores: the check's score is one of STR, AGI, DEX, CON,
    PERCEPTION and SOCIAL, or one written on the character's sheet (a [special] PYROMANCY);
    a score on nobody's sheet is not offered, and each standard one has the book's words."""
    state = seated()
    sheet = {"name": "Pyra", "scores": {}, "special": {"PYROMANCY": 0}}
    state, _ = play(state, {"kind": "import-character", "sheet": sheet}, AYLA)
    (check,) = [o for o in SESSION.legal(state, AYLA) if o.kind == "check" and not o.entry]
    assert check.fields["score"].values == (
        "STR",
        "AGI",
        "DEX",
        "CON",
        "PERCEPTION",
        "SOCIAL",
        "PYROMANCY",
    )
    with pytest.raises(Ap2d6Error, match="Make a check: Score must be one of STR, AGI, "):
        SESSION.resolve(
            state, {"kind": "check", "character": "c1", "score": "MEDICINE"}, AYLA, FixedDice([])
        )
    assert SESSION.words.value("check", "score", "CON").startswith("CON: constitution")
