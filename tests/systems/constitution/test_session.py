"""3d6 Constitution at a shared table: characters, checks in every roll mode, harm and rest,
the initiative tracker with combatants played by their owners, and the session laws."""

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
from tabletop.systems.constitution import SESSION, ConstitutionError, ConstitutionTable
from tabletop.systems.constitution.table_npcs import bestiary
from tests.effort import tried
from tests.session_laws import NO_VALUE, Pick, Table, check_hidden_npc_laws, check_laws

GM = Member.gm()
ADA = Member.player("p1", "Ada's player")
BO = Member.player("p2", "Bo's player")
WATCHER = Member.observer()

ADA_DICE = [6, 6, 6, 5, 5, 5, 4, 4, 4, 3, 3, 3, 2, 2, 2, 5]
"""3d6 in order for strength, wits, knowledge, will, charisma (§ 4.1), then 1d6 HP."""


def play(state: ConstitutionTable, intent: dict[str, Any], member: Member, faces=()) -> tuple:
    events = SESSION.resolve(state, intent, member, FixedDice(faces))
    for event in events:
        state = SESSION.fold(state, event)
    return state, events


def seated() -> ConstitutionTable:
    """Ada (a fighter, strength 18) played by p1, and Bo played by p2."""
    state = SESSION.new()
    ada = {"kind": "new-character", "name": "Ada", "character_class": "fighter"}
    state, _ = play(state, ada, ADA, ADA_DICE)
    state, _ = play(state, {"kind": "new-character", "name": "Bo"}, BO, [3] * 16)
    return state


def received(events, state, member: Member) -> str:
    shown = [SESSION.view_event(e, member) for e in events]
    told = json.dumps([e.model_dump(mode="json") for e in shown if e], ensure_ascii=False)
    return told + json.dumps(SESSION.view(state, member), ensure_ascii=False)


def test_a_character_is_rolled_in_order_and_owned_by_who_rolled_it():
    """§ 4.1: 3d6 in order for each ability; the player who rolled owns the character."""
    state = seated()
    ada = state.characters["c1"]
    assert ada.owner == "p1"
    assert ada.sheet.abilities.model_dump() == {
        "strength": 18,
        "wits": 15,
        "knowledge": 12,
        "will": 9,
        "charisma": 6,
    }
    assert ada.sheet.hp == 5


def test_a_blind_check_reaches_only_the_gm():
    """C3-A53, a blind roll: the GM sees the check; the roller and the others only that it
    happened."""
    check = {"kind": "check", "character": "c1", "ability": "strength", "mode": "blind"}
    state, events = play(seated(), check, ADA, [7])
    assert "7 + 18 = 25 vs DC 20: success, 2 degrees" in received(events, state, GM)
    for member in (ADA, BO, WATCHER):
        told = received(events, state, member)
        assert "25 vs DC 20" not in told and "made a blind roll for the GM" in told


def test_a_player_checks_only_their_own_character():
    check = {"kind": "check", "character": "c2", "ability": "wits"}
    with pytest.raises(ConstitutionError, match=r"Make a check: Character must be Ada$"):
        SESSION.resolve(seated(), check, ADA, FixedDice([10]))


def test_only_the_gm_deals_damage():
    with pytest.raises(PermissionDenied):
        damage = {"kind": "damage", "character": "c2", "amount": 2}
        SESSION.resolve(seated(), damage, ADA, FixedDice([]))


def test_damage_past_zero_raises_the_injury_dc():
    """§ 5.18, § 6.6: 7 damage on Ada's 5 HP spills 2 over, so the saves are at DC 22;
    strength 18 + fighter level 1 and a 15 pass with 3 degrees, and the will save passes."""
    damage = {"kind": "damage", "character": "c1", "amount": 7}
    state, events = play(seated(), damage, GM, [15, 15])
    assert state.characters["c1"].sheet.hp == 0
    assert [e.text for e in events[1:3]] == [
        "Ada's strength save: 1d20! → [15] = 15; 15 + 19 = 34 vs DC 22: success, 3 degrees",
        "Ada's will save: 1d20! → [15] = 15; 15 + 10 = 25 vs DC 22: success, 1 degree",
    ]


def test_players_step_into_the_fight_and_make_their_own_choices():
    """Article 5 and C3-A53: Ada joins for p1, the GM adds a foe; Ada rolls initiative (1d20 + wits
    + fighter level 1: 10 + 15 + 1 = 26) and, acting first, only p1 or the GM ends her turn."""
    state, _ = play(seated(), {"kind": "join-fight", "character": "c1"}, ADA)
    goblin = {"id": "gob", "name": "Goblin", "side": "foes", "hp": 3}
    add = {"kind": "combat", "action": {"action": "add", "combatant": goblin}}
    state, _ = play(state, add, GM)
    assert state.controllers == {"Ada": "p1"}
    roll = {"kind": "combat", "action": {"action": "roll_initiative", "id": "Ada"}}
    with pytest.raises(PermissionDenied):
        SESSION.resolve(state, roll, BO, FixedDice([10]))
    state, events = play(state, roll, ADA, [10])
    assert state.fight.get("Ada").initiative == 26, events[0].text
    set_gob = {"kind": "combat", "action": {"action": "set_initiative", "id": "gob", "value": 5}}
    state, _ = play(state, set_gob, GM)
    state, _ = play(state, {"kind": "combat", "action": {"action": "begin"}}, GM)
    assert state.fight.acting == "Ada"
    end = {"kind": "combat", "action": {"action": "end_turn"}}
    with pytest.raises(PermissionDenied):
        SESSION.resolve(state, end, BO, FixedDice([]))
    state, _ = play(state, end, ADA)
    assert state.fight.acting == "gob"


def in_full(state: ConstitutionTable, member: Member) -> Offer | None:
    """The detailed combat form offered `member` (None: no such form)."""
    found = [o for o in SESSION.legal(state, member) if o.kind == "combat" and not o.closed]
    return found[0] if found else None


def detailed(state: ConstitutionTable, member: Member) -> tuple[str, ...] | None:
    """The fight's actions the detailed combat form offers `member` (None: no such form)."""
    found = in_full(state, member)
    return found.fields["action"].shapes if found else None


def test_the_fight_form_offers_only_the_choices_open_to_that_member_now():
    """Issue 23: in setup the GM may add a new combatant (any id) or type in an initiative,
    a player none (their initiative is rolled, C3-S09, without a bonus or surprise of their
    own, C3-S07); once Ada has joined she is not offered to join again; in a round the form
    offers the acting combatant's choices, not all 23. Issue 30: the form says what it does,
    and a player is offered none before their character is in a fight."""
    state = seated()
    assert detailed(state, GM) == ("add",)
    assert detailed(state, ADA) is None
    assert getattr(in_full(state, GM), "text", "") == "choose in full: bring someone in by hand"
    state, _ = play(state, {"kind": "join-fight", "character": "c1"}, ADA)
    joins = [o for o in SESSION.legal(state, ADA) if o.kind == "join-fight"]
    assert not joins
    assert [
        o.fields["character"].values for o in SESSION.legal(state, BO) if o.kind == "join-fight"
    ] == [("c2",)]
    assert detailed(state, GM) == ("add", "roll_initiative", "set_initiative")
    assert detailed(state, ADA) is None
    goblin = {"id": "gob", "name": "Goblin", "side": "foes", "hp": 3}
    state, _ = play(state, {"kind": "combat", "action": {"action": "add", "combatant": goblin}}, GM)
    state, _ = play(
        state, {"kind": "combat", "action": {"action": "roll_initiative", "id": "Ada"}}, ADA, [10]
    )
    set_gob = {"kind": "combat", "action": {"action": "set_initiative", "id": "gob", "value": 5}}
    state, _ = play(state, set_gob, GM)
    state, _ = play(state, {"kind": "combat", "action": {"action": "begin"}}, GM)
    shapes = detailed(state, ADA)
    assert shapes is not None and "add" not in shapes and "begin" not in shapes
    assert {"attack", "defend", "end_turn"} <= set(shapes) and len(shapes) < 10
    assert getattr(in_full(state, ADA), "text", "") == (
        "choose in full: attack, defend or react with a modifier, a shot or what it costs"
    )
    # the turn's choices come first, the choices open at any moment after them (the GM's
    # screen read seven "leave the fight" buttons before the acting fighter's attacks)
    turn, anytime = [o for o in SESSION.legal(state, GM) if o.kind == "combat" and o.closed]
    assert {i["action"]["action"] for i in turn.intents} >= {"attack", "end_turn"}
    assert {i["action"]["action"] for i in anytime.intents} == {"leave"}


def test_an_unknown_initiation_is_refused():
    with pytest.raises(ConstitutionError, match="Initiation must be one of none, "):
        unknown = {"kind": "new-character", "initiation": "nope"}
        SESSION.resolve(SESSION.new(), unknown, GM, FixedDice([]))


def fill(offer: Offer, name: str, pick: Pick, marker: str) -> Any:
    if offer.kind == "combat" and name == "action":
        foe = {"id": f"f{marker[-4:-1]}", "name": marker, "side": pick(["foes", "party"])}
        return {"action": "add", "combatant": {**foe, "hp": pick([1, 4])}}
    values: dict[str, Any] = {
        "name": marker,
        "sheet": {"bad": "sheet"},
        "dc": pick([10, 20, 30]),
        "amount": pick([1, 4, 12]),
        "notation": pick(["3d6", "1d20"]),
        "rating": pick([None, 40, 70]),
        "food": pick([-1, 0, 2]),
        "water": pick([-1, 0, 2]),
        "turns": pick([1, 7]),
        "miles": pick([None, 5]),
        "stats": pick([{"level": 2, "ac": 24, "damage": "1d8"}, {"henchman": True, "hp": 3}]),
        "value": pick(["3", "1d4", "none", marker]),
        "notes": marker,
        "reason": marker,
        "dc_shown": pick([True, False]),
        "where": marker,
        "skill": marker,
        "gear": pick(
            [
                {"name": marker, "size": "medium"},
                {"name": marker, "size": "backpack"},
                {"name": "x"},
            ]
        ),
        "spells": [],
    }
    return values.get(name, NO_VALUE)


TABLE = Table(SESSION, [GM, ADA, BO, WATCHER], filler=fill, start=seated)


@settings(max_examples=tried(25), deadline=None)
@given(data=st.data(), seed=st.integers(0, 10_000))
def test_the_constitution_table_obeys_the_session_laws(data, seed):
    check_laws(TABLE, lambda items: data.draw(st.sampled_from(list(items))), steps=25, seed=seed)


# a hidden NPC in the fight ----------------------------------------------------------------

THUG = {
    "kind": "new-npc",
    "name": "Thug",
    "stats": {
        "wits": 37,
        "strength": 38,
        "will": 39,
        "hp": 613,
        "ac": 1,
        "damage": "1d3+71",
        "morale": 11,
        "can_defend_as_reaction": True,
    },
}
"""Numbers no rule gives anyone else at this table: Ada's and Bo's scores are at most 19,
their HP a few, their AC 20; AC 1 makes every blow on it a direct hit (§ 5.20), and its
strength makes its own shield hold."""

THUGS_NUMBERS = (
    r"\+ 3[789] = ",  # its attack, defence and saves (and any initiative written as a sum)
    r"[AD]C 1\b",
    r'"wits":\s*37\b|"strength":\s*38\b|"will":\s*39\b',
    r'"ac":\s*1\b|"hp":\s*6\d\d\b|"morale":\s*11\b',
    r"\b6\d\d\b",  # its HP
    r"\+ ?71\b|1d3",  # its damage, though a blow that lands tells its victim the total
    r"morale 11",
    r"Thug[^\"]*initiative \d",  # its initiative, on its own lines and its turn
    r"Thug[^\"]* at \d",  # its initiative after a superior turn
    *bestiary().names,  # which of the book's creatures the Guard (or any NPC) is
)


def hidden_npcs_in_the_fight() -> ConstitutionTable:
    """Ada and Bo in the fight being set up with the Thug and a guard from the book, both
    hidden."""
    state, _ = play(seated(), THUG, GM)
    guard = {"kind": "npc-from-book", "creature": "Human in heavy armour", "name": "Guard"}
    state, _ = play(state, guard, GM, [4])
    state, _ = play(state, {"kind": "join-fight", "character": "c1"}, ADA)
    state, _ = play(state, {"kind": "join-fight", "character": "c2"}, BO)
    for nid in ("n1", "n2"):
        state, _ = play(state, {"kind": "npc-joins-fight", "npc": nid}, GM)
    return state


HIDDEN_TABLE = Table(SESSION, [GM, ADA, BO, WATCHER], filler=fill, start=hidden_npcs_in_the_fight)


@settings(max_examples=tried(25), deadline=None)
@given(data=st.data(), seed=st.integers(0, 10_000))
def test_no_player_receives_a_hidden_npcs_numbers_or_book_name(data, seed):
    """C3-N05: walks of a fight with the hidden Thug and a guard from the book, most steps
    a choice of the fight (and no NPC is ever shown): no byte a player receives holds the
    Thug's numbers or any creature's book name, and no draw of theirs goes with a hint."""

    def pick(items):
        items = list(items)
        if items and isinstance(items[0], tuple) and isinstance(items[0][1], Offer):
            items = [item for item in items if item[1].kind != "reveal-npc"]
            fight = [item for item in items if item[1].kind == "combat" and item[1].closed]
            if fight and data.draw(st.integers(0, 4)):
                items = fight
        return data.draw(st.sampled_from(items))

    check_hidden_npc_laws(HIDDEN_TABLE, pick, THUGS_NUMBERS, steps=40, seed=seed)
