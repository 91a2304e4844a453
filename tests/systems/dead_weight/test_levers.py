"""The GM's levers at a Dead Weight table (DW-T01): what the book gives the GM (advantage and
disadvantage, a check called for, more than one helper, harm and healing) is refused to a
player, in the offers and when asked for anyway, unless `players_set_difficulty` hands it
over. Dice are fixed faces."""

from __future__ import annotations

from typing import Any

import pytest

from tabletop.dice import FixedDice
from tabletop.errors import PermissionDenied, TabletopError
from tabletop.session import Member
from tabletop.systems.dead_weight import SESSION, Attribute
from tabletop.systems.dead_weight.session import DeadWeightTable
from tests.systems.playing import played

GM = Member.gm()
ADA = Member.player("p1", "Ada")

DEX = {"score": 3, "proficiency": 1}

ANNOUNCED_BY_THE_GM = [
    {"attribute": "DEX", "advantage": 1},
    {"attribute": "DEX", "disadvantage": 1},
    {"attribute": "DEX", "check": True},
    {"attribute": "DEX", "helpers_allowed": 2},
]
"""Announcements the book gives the GM: § Advantage and Disadvantage ("The GM must announce
that the test has advantage and/or disadvantage"), § Checks or Tests ("a rule will call for
a check"), § Receiving Help ("unless the GM specifies otherwise")."""

DEALT = [
    {"kind": "fatigue", "character": "c1", "attribute": "DEX"},
    {"kind": "wounds", "character": "c1", "placements": [{"attribute": "DEX"}]},
    {"kind": "recover", "character": "c1", "attribute": "DEX"},
    {"kind": "heal", "character": "c1", "attribute": "DEX"},
]


def amber_at(handed_over: bool) -> DeadWeightTable:
    """Amber (DEX 3, proficiency 1, a fatigue and a wound on DEX) played by Ada."""
    state = SESSION.new({"players_set_difficulty": handed_over})
    sheet = {"name": "Amber", "attributes": {"DEX": {**DEX, "fatigue": 1, "wounds": 1}}}
    state, _ = played(SESSION, state, {"kind": "import-character", "sheet": sheet}, ADA)
    return state


def offered(state: DeadWeightTable, member: Member) -> dict[str, list[Any]]:
    found: dict[str, list[Any]] = {}
    for o in SESSION.legal(state, member):
        found.setdefault(o.kind, []).append(o)
    return found


@pytest.mark.parametrize("setup", ANNOUNCED_BY_THE_GM)
def test_a_players_test_announced_with_the_gms_levers_is_refused_and_changes_nothing(setup):
    """DW-T01: Ada may test, but not with what the GM announces; refused before a die is
    thrown, so the table is as it was."""
    state = amber_at(handed_over=False)
    test = {"kind": "test", "roller": "c1", "setup": setup}
    with pytest.raises(TabletopError, match="the GM sets"):
        SESSION.resolve(state, test, ADA, FixedDice([1, 4, 6]))
    after, events = played(SESSION, state, test, GM, [1, 4, 6])
    assert events[0].type == "test announced" and after.testing


@pytest.mark.parametrize("setup", ANNOUNCED_BY_THE_GM)
def test_the_table_may_hand_the_announcement_to_the_players(setup):
    state = amber_at(handed_over=True)
    test = {"kind": "test", "roller": "c1", "setup": setup}
    after, events = played(SESSION, state, test, ADA, [1, 4, 6])
    assert events[0].type == "test announced" and after.testing


def test_a_players_own_announcement_stays_theirs():
    """§ Attribute Tests and Checks: "Players may always choose to roll fewer dice", as
    they announce extra effort and keeping it safe: the player's to announce."""
    state = amber_at(handed_over=False)
    setup = {"attribute": "DEX", "extra_effort": True, "dice": 1}
    after, _ = played(SESSION, state, {"kind": "test", "roller": "c1", "setup": setup}, ADA, [5])
    assert after.exchange.test.faces() == (5,)
    assert after.characters["c1"].sheet.attribute(Attribute.DEX).fatigue == 2  # effort paid


def test_the_players_offers_carry_no_lever_and_the_gms_do():
    state = amber_at(handed_over=False)
    ada, gm = offered(state, ADA), offered(state, GM)
    assert not {"fatigue", "wounds", "recover", "heal"} & set(ada)
    assert {"fatigue", "wounds", "recover", "heal"} <= set(gm)
    for test in ada["test"]:
        assert "advantage" not in test.fields["setup"].help
    assert any("advantage" in test.fields["setup"].help for test in gm["test"])
    handed = offered(amber_at(handed_over=True), ADA)
    assert {"fatigue", "wounds", "recover", "heal"} <= set(handed)


@pytest.mark.parametrize("intent", DEALT, ids=lambda intent: intent["kind"])
def test_harm_and_healing_are_the_gms_unless_handed_over(intent):
    """DW-T01: a player neither wounds nor heals their own character; the GM does, or the
    player when the table hands it over."""
    state = amber_at(handed_over=False)
    with pytest.raises(PermissionDenied):
        SESSION.resolve(state, intent, ADA, FixedDice([]))
    by_gm, _ = played(SESSION, state, intent, GM)
    handed = amber_at(handed_over=True)
    by_ada, _ = played(SESSION, handed, intent, ADA)
    assert by_gm.characters["c1"].sheet == by_ada.characters["c1"].sheet
    assert by_gm.characters["c1"].sheet != state.characters["c1"].sheet
