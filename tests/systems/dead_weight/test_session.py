"""Dead Weight at a shared table: the session's scenarios with fixed dice, its secrets, and
the laws every session obeys."""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.dice import FixedDice, SeededDice
from tabletop.errors import PermissionDenied
from tabletop.offers import Offer
from tabletop.session import Member, Visibility
from tabletop.systems.dead_weight import SESSION, Attribute, DeadWeightError
from tabletop.systems.dead_weight.session import DeadWeightTable
from tests.effort import tried
from tests.session_laws import NO_VALUE, Pick, Table, check_hidden_npc_laws, check_laws

GM = Member.gm()
ADA = Member.player("p1", "Ada")
BO = Member.player("p2", "Bo")
WATCHER = Member.observer()


def play(state: DeadWeightTable, intent: dict[str, Any], member: Member, dice=()) -> tuple:
    """Resolve and fold one intent (with these faces, or this dice source)."""
    source = FixedDice(dice) if isinstance(dice, list | tuple) else dice
    events = SESSION.resolve(state, intent, member, source)
    for event in events:
        state = SESSION.fold(state, event)
    return state, events


def sheet(name: str, **attributes: dict[str, int]) -> dict[str, Any]:
    return {"name": name, "attributes": attributes}


def seated() -> DeadWeightTable:
    """Amber (DEX 3, proficiency 1) played by Ada, and Brom played by Bo."""
    state = SESSION.new()
    amber = sheet("Amber", DEX={"score": 3, "proficiency": 1})
    state, _ = play(state, {"kind": "import-character", "sheet": amber}, ADA)
    state, _ = play(state, {"kind": "import-character", "sheet": sheet("Brom")}, BO)
    return state


def test_characters_join_the_table_with_their_owner():
    state = seated()
    assert {cid: seat.owner for cid, seat in state.characters.items()} == {"c1": "p1", "c2": "p2"}
    assert state.characters["c1"].sheet.attribute(Attribute.DEX).score == 3


def test_a_test_and_its_re_roll_exchange_die_by_die():
    """DW-M28..M31: the player re-rolls first, then the GM; both pass and the faces are
    judged. Amber's 3 DEX dice show 1, 4, 6; she spends her proficiency on the 1. The GM
    announces her test with a disadvantage (§ Advantage and Disadvantage, DW-T01)."""
    state = seated()
    test = {"kind": "test", "roller": "c1", "setup": {"attribute": "DEX", "disadvantage": 1}}
    state, events = play(state, test, GM, [1, 4, 6])
    assert [e.type for e in events] == ["test announced", "dice rolled"]
    assert events[0].cause.draws[0].face == 1 and events[0].visibility == Visibility.PUBLIC
    reroll = {"kind": "reroll", "resource": "proficiency", "die": 0, "helper": 0}
    assert any(reroll in o.intents for o in SESSION.legal(state, ADA))
    with pytest.raises(PermissionDenied):
        SESSION.resolve(state, reroll, BO, FixedDice([5]))
    state, events = play(state, reroll, ADA, [5])
    assert events[0].text == "Amber re-rolls die 1 (1 → 5) with proficiency"
    assert not {"reroll", "pass"} & {o.kind for o in SESSION.legal(state, ADA)}  # the GM's turn
    gm_reroll = {"kind": "reroll", "resource": "disadvantage", "die": 2, "helper": 0}
    state, events = play(state, gm_reroll, GM, [2])
    assert events[0].text == "the GM re-rolls Amber's die 3 (6 → 2) with disadvantage"
    # Neither side has a re-roll left: both pass by themselves and the faces are judged
    # (DW-M31); 5, 4, 2 succeed, and the 4 costs Amber a DEX fatigue point (DW-M38).
    assert [e.type for e in events] == ["reroll", "pass", "pass", "test judged", "fatigue"]
    assert state.exchange.finished and state.exchange.test.verdict == "success"
    assert state.characters["c1"].sheet.attribute(Attribute.DEX).fatigue == 1


def test_an_opposed_test_view_says_whose_test_takes_the_next_choice():
    """DW-M36: Amber's DEX test (1, 4, 6) against a level-1 ghoul's STR (5, one die, no
    re-roll open, so it is judged at once); the next choice is in Amber's test, and the
    view names it for the page (`opposed.current`), with both tests' dice."""
    npc = {"kind": "npc", "name": "Ghoul", "level": 1}
    opposed = {
        "kind": "opposed-test",
        "first": {"character": "c1", "setup": {"attribute": "DEX"}},
        "second": {"npc": npc, "setup": {"attribute": "STR"}},
    }
    state, _ = play(seated(), opposed, GM, [1, 4, 6, 5])
    shown = SESSION.view(state, ADA)["exchange"]
    assert shown["opposed"]["current"] == 0 and shown["rollers"] == ["c1", None]
    faces = [[die["faces"] for die in test["dice"]] for test in shown["opposed"]["tests"]]
    assert faces == [[[1], [4], [6]], [[5]]]
    assert any(o.kind == "reroll" for o in SESSION.legal(state, ADA))


def test_the_advisor_answers_whoever_chooses_and_nobody_else():
    state, _ = play(
        seated(), {"kind": "test", "roller": "c1", "setup": {"attribute": "DEX"}}, ADA, [1, 4, 6]
    )
    advice = SESSION.advice(state, ADA)
    assert advice["side"] == "player"
    odds = {json.dumps(c["intent"]): c["odds"]["exact"]["success"] for c in advice["choices"]}
    assert len(odds) == 4  # pass, or proficiency on any of the three dice
    assert SESSION.advice(state, BO) is None
    assert SESSION.advice(state, WATCHER) is None


def test_a_player_may_not_test_with_another_players_character():
    with pytest.raises(DeadWeightError, match=r"Test an attribute: Who tests must be Brom$"):
        SESSION.resolve(seated(), {"kind": "test", "roller": "c1"}, BO, FixedDice([1, 1, 1]))


def test_the_groups_additions_and_a_chosen_feature_are_the_gms_to_give():
    """Issue 30, DW-T07, DW-M10: a player's new character leaves the group's additions and
    a chosen feature at their defaults (the GM's to give), refused in one line and nothing
    changed when sent; the GM's own offer leaves both open, as for Wren in test_lines."""
    school = {"schools": {"Wandering Mystics": {"spells": ["Light"]}}}
    for asked, why in (
        ({"supplement": school}, "Your group's additions is not yours to set now"),
        ({"allow_choosing_quirk": True}, "must be left unticked"),
    ):
        intent = {"kind": "new-character", "name": "Wren", "guided": True, **asked}
        with pytest.raises(DeadWeightError, match=why):
            SESSION.resolve(seated(), intent, ADA, FixedDice([1, 1, 1]))
        offered = next(o for o in SESSION.legal(seated(), GM) if o.kind == "new-character")
        assert offered.allows(intent | {"owner": ADA.id}) is None
    plain = {"kind": "new-character", "name": "Wren", "guided": True}
    state, _ = play(seated(), plain, ADA, [1, 1, 1])
    assert state.making["c3"].owner == ADA.id


def test_no_second_test_while_one_is_under_way():
    state, _ = play(
        seated(), {"kind": "test", "roller": "c1", "setup": {"attribute": "DEX"}}, ADA, [1, 4, 6]
    )
    with pytest.raises(DeadWeightError, match="finish it first"):
        SESSION.resolve(state, {"kind": "test", "roller": "c1"}, GM, FixedDice([1]))


def test_doom_is_hidden_from_players_who_hear_only_that_it_moved():
    """DW-X21: the doom tracker starts hidden; a player learns that a hidden tracker moved,
    never its name or where it stands."""
    state = seated()
    doom = {
        "kind": "new-tracker",
        "name": "mk-doom-of-the-crypt",
        "tracker_kind": "doom",
        "segments": 6,
    }
    state, made = play(state, doom, GM)
    state, moved = play(
        state, {"kind": "advance-tracker", "name": "mk-doom-of-the-crypt", "points": 4}, GM
    )
    for member in (ADA, BO, WATCHER):
        received = [SESSION.view_event(e, member) for e in made + moved]
        told = json.dumps([e.model_dump(mode="json") for e in received if e]) + json.dumps(
            SESSION.view(state, member)
        )
        assert "mk-doom" not in told and "4/6" not in told
        assert {e.text for e in received if e} == {"the GM moved a hidden tracker"}
    assert SESSION.view(state, GM)["trackers"][0]["filled"] == 4
    state, _ = play(
        state, {"kind": "show-tracker", "name": "mk-doom-of-the-crypt", "visible": True}, GM
    )
    assert SESSION.view(state, ADA)["trackers"][0]["filled"] == 4


def test_a_character_with_the_third_eye_sees_the_omens_tracker():
    """DW-M52: the Third eye sees the omens tracker, hidden from everyone else."""
    state = SESSION.new()
    seer = {**sheet("Seer"), "traits": ["third eye"]}
    state, _ = play(state, {"kind": "import-character", "sheet": seer}, ADA)
    state, _ = play(state, {"kind": "import-character", "sheet": sheet("Brom")}, BO)
    state, events = play(
        state, {"kind": "new-tracker", "name": "omens", "tracker_kind": "omens", "segments": 8}, GM
    )
    seen = SESSION.view_event(events[0], ADA)
    assert seen.text == events[0].text and seen.cause is None  # the GM's own draws stay put
    assert SESSION.view_event(events[0], BO).text == "the GM moved a hidden tracker"
    assert SESSION.view(state, ADA)["trackers"][0]["name"] == "omens"
    assert SESSION.view(state, BO)["trackers"][0] == {"hidden": "a tracker the GM keeps hidden"}


def test_a_blind_table_roll_tells_the_players_only_that_it_was_made():
    _, (event,) = play(
        SESSION.new(), {"kind": "roll-table", "table": "mishaps", "mode": "blind"}, GM, [3, 4, 2]
    )
    assert event.data["value"] == 9
    assert SESSION.view_event(event, ADA).data == {}


def test_guided_creation_is_a_series_of_choices_by_its_owner():
    state, events = play(
        SESSION.new(), {"kind": "new-character", "name": "Wren", "guided": True}, ADA, SeededDice(2)
    )
    assert "c1" in state.making and events[0].type == "character begun"
    keep = {"kind": "creation-choice", "character": "c1", "choice": {"kind": "keep"}}
    with pytest.raises(PermissionDenied):
        SESSION.resolve(state, keep, BO, SeededDice(1))
    dice = SeededDice(5)
    while "c1" in state.making:
        offers = [o for o in SESSION.legal(state, ADA) if o.kind == "creation-choice" and o.closed]
        state, _ = play(state, offers[0].intents[0], ADA, dice)
    assert state.characters["c1"].sheet.name == "Wren"


def test_a_wound_and_rest_change_only_the_sheet_they_name():
    state = seated()
    state, _ = play(state, {"kind": "fatigue", "character": "c1", "attribute": "DEX"}, GM)
    assert state.characters["c1"].sheet.attribute(Attribute.DEX).fatigue == 1
    state, _ = play(state, {"kind": "recover", "character": "c1", "attribute": "DEX"}, GM)
    assert state.characters["c1"].sheet.attribute(Attribute.DEX).fatigue == 0
    assert state.characters["c2"] == seated().characters["c2"]


# the laws ---------------------------------------------------------------------------------


def fill(offer: Offer, name: str, pick: Pick, marker: str) -> Any:
    """Values for the free fields of Dead Weight's open offers."""
    attribute = pick(["STR", "DEX", "INT", "PRE"])
    values: dict[str, Any] = {
        "name": marker,
        "label": marker,
        "notation": pick(["1d6", "2d6", "3d!"]),
        "setup": {
            "attribute": attribute,
            "advantage": pick([0, 1]),
            "disadvantage": pick([0, 1, 2]),
            "check": pick([False, True]),
        },
        "placements": [{"attribute": attribute}],
        "npc": pick([{"name": marker, "level": pick([0, 1, 3])}, NO_VALUE]),
        "first": pick(
            [
                {"npc": {"name": marker, "level": 2}, "setup": {"attribute": attribute}},
                {"kept": "n1", "setup": {"attribute": attribute}},
            ]
        ),
        "stats": {"level": pick([0, 2, 4]), "wound_limit": pick([0, 2])},
        "value": pick(["2", "0", marker]),
        "wounds": pick([1, 3]),
        "second": {"npc": {"name": "Rat", "level": 1}, "setup": {"attribute": "DEX"}},
        "count": pick([1, 2]),
        "segments": pick([2, 4, 6]),
        "choice": {"kind": "keep"},
        "notes": marker,
        "reason": marker,
        "item": {"name": marker, "slots": pick([0, 1, 2]), "usage": pick([None, 4, 6])},
        "silver": pick([-2, 0, 5]),
        "gold": pick([0, 1]),
        "spell": marker,
    }
    return values.get(name, NO_VALUE)


TABLE = Table(SESSION, [GM, ADA, BO, WATCHER], filler=fill, start=seated)


@settings(max_examples=tried(25), deadline=None)
@given(data=st.data(), seed=st.integers(0, 10_000))
def test_the_dead_weight_table_obeys_the_session_laws(data, seed):
    check_laws(TABLE, lambda items: data.draw(st.sampled_from(list(items))), steps=20, seed=seed)


# hidden enemies ---------------------------------------------------------------------------

WRAITH = {"level": 13, "wound_limit": 17}
SHADE = {"level": 12, "wound_limit": 16}
"""Enemies typed in with numbers no rule here gives anyone else: a character of this table
throws 4 dice at most (a pool of 3, or the zero-dice rule's 4), the walk's other enemies 4,
and no one else's sheet lists a level or a wound limit."""

NPC_SECRETS = (
    r'"level":\s*1[23]\b',
    r'"wound_limit":\s*1[67]\b',
    r"level 1[23]\b",
    r"past 1[67]\b",
    r"\b1[23] dice\b",
    r'"(pool|thrown)":\s*1[23]\b',
    r"\[(\d, ){11,12}\d\]",
)
"""Their levels and wound limits as the GM's lines and views write them, and their pools:
as a count, or as the twelve or thirteen dice (or owners) of a test's list."""


def with_hidden_enemies() -> DeadWeightTable:
    """Amber and Brom, and two enemies kept hidden: the wraith (n1) and the shade (n2)."""
    state = seated()
    for name, stats in (("Wraith", WRAITH), ("Shade", SHADE)):
        state, _ = play(state, {"kind": "new-npc", "name": name, "stats": stats}, GM)
    return state


SIDES = ({"character": "c1"}, {"character": "c2"}, {"kept": "n1"}, {"kept": "n2"})


def fill_with_enemies(offer: Offer, name: str, pick: Pick, marker: str) -> Any:
    """`fill`, with opposed tests between any of the characters and the kept enemies."""
    if name in ("first", "second"):
        return {**pick(SIDES), "setup": {"attribute": pick(["STR", "DEX"])}}
    return fill(offer, name, pick, marker)


PLAYED = frozenset(
    {"opposed-test", "npc-test", "npc-wounds", "reroll", "pass", "attack", "blow"}
    | {"defend", "no-armour", "hardened", "place-wounds"}
)
"""The offers that play the enemies' lines: the walk takes one of them when it leans so."""


def walked(items: Any, leaning: bool) -> list[Any]:
    """The walk's choices but the GM's showing an enemy's numbers (then they are everyone's),
    and, `leaning`, only those that play the enemies' lines while any is offered."""
    offers = [i for i in items if not (isinstance(i, tuple) and _kind(i[-1]) == "reveal-npc")]
    played = [i for i in offers if isinstance(i, tuple) and _kind(i[-1]) in PLAYED]
    return played if leaning and played else offers


def _kind(choice: Any) -> str | None:
    return choice.kind if isinstance(choice, Offer) else None


@settings(max_examples=tried(20), deadline=None)
@given(data=st.data(), seed=st.integers(0, 10_000))
def test_no_player_receives_a_hidden_enemys_numbers(data, seed):
    """DW-N04, DW-N05, issue 29: walks of a table that keeps two enemies hidden, tested,
    set against the characters and each other and wounded; no byte a player or the
    observer receives holds their levels, wound limits or pools (nor a place among a
    step's draws, which would count them), no line reaches anyone with a mark in it, and
    the GM reads every line whole."""
    table = Table(
        SESSION, [GM, ADA, BO, WATCHER], filler=fill_with_enemies, start=with_hidden_enemies
    )

    def pick(items: Any) -> Any:
        leaning = data.draw(st.integers(0, 3)) > 0
        return data.draw(st.sampled_from(walked(items, leaning)))

    walk = check_hidden_npc_laws(table, pick, NPC_SECRETS, steps=25, seed=seed)
    for event, member in itertools.product(walk.events, (ADA, BO, WATCHER)):
        shown = SESSION.view_event(event, member)
        draws = shown.data.get("draws", []) if shown is not None else []
        assert all("at" not in draw for draw in draws), "a die's place counts an enemy's dice"


def test_a_character_who_cannot_act_is_offered_no_test():
    """§ Fainting: a fainted character takes no action, so neither the table's test nor the
    tests at their sheet's attributes are offered for them (the control walk pressed one
    and met 'cannot act')."""
    state = SESSION.new()
    down = {**sheet("Amber"), "condition": {"fainted": True}}
    state, _ = play(state, {"kind": "import-character", "sheet": down}, ADA)
    kinds = {o.kind for o in SESSION.offers(state, ADA)}
    assert "test" not in kinds
    state, _ = play(state, {"kind": "import-character", "sheet": sheet("Cara")}, ADA)
    (test,) = [o for o in SESSION.offers(state, ADA) if o.kind == "test" and not o.entry]
    assert [state.characters[c].sheet.name for c in test.fields["roller"].values] == ["Cara"]
    attribute_tests = [o for o in SESSION.offers(state, ADA) if o.kind == "test" and o.entry]
    assert {o.preset["roller"] for o in attribute_tests} == {"c2"}
