"""Turns everyone can see (tabletop/turns.py; docs/architecture.md, "Turns everyone can
see"): the GM sets an order of the characters and NPCs at the table and moves the turn on,
the one who plays the current character may end their own turn, a new round follows the
last, and every member's view holds the same shape."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletop.errors import PermissionDenied, RulesError
from tabletop.session import Member
from tabletop.turns import (
    EndTurns,
    NextTurn,
    SetTurnOrder,
    Turns,
    take_turns,
    turn_offers,
    turn_view,
    without,
)

GM, ADA, BO = Member.gm(), Member.player("p1", "Ada"), Member.player("p2", "Bo")
NAMES = {"c1": "Mara", "c2": "Wren", "n1": "Thug"}
OWNERS = {"c1": "p1", "c2": "p2"}


def plays(member: Member):
    return lambda who: OWNERS.get(who) == member.id


def step(turns: Turns, intent, member: Member = GM):
    return take_turns(turns, intent, NAMES, member, plays(member))


def test_the_gm_sets_the_order_and_the_first_ones_turn_begins_in_round_one():
    turns, events = step(Turns(), SetTurnOrder(order=("n1", "c1", "c2")))
    assert (turns.whose, turns.round) == ("n1", 1)
    assert [e.text for e in events] == ["the turn order: Thug, Mara, Wren", "round 1: Thug's turn"]


def test_after_the_last_in_the_order_a_new_round_begins():
    turns, _ = step(Turns(), SetTurnOrder(order=("c1", "c2")))
    turns, _ = step(turns, NextTurn(), ADA)  # Ada ends Mara's turn
    turns, events = step(turns, NextTurn(), BO)
    assert (turns.whose, turns.round) == ("c1", 2)
    # who ended the turn is said first: a log credits a step's first line to its sender
    assert [e.text for e in events] == ["Wren ends the turn", "round 2: Mara's turn"]
    assert events[0].data == {"whose": "c2", "round": 1}


def test_only_the_one_whose_turn_it_is_or_the_gm_ends_it_and_only_the_gm_sets_or_ends():
    turns, _ = step(Turns(), SetTurnOrder(order=("c1", "c2")))
    with pytest.raises(PermissionDenied, match="Mara's turn, not yours"):
        step(turns, NextTurn(), BO)
    with pytest.raises(PermissionDenied):
        step(turns, SetTurnOrder(order=("c2",)), ADA)
    with pytest.raises(PermissionDenied):
        step(turns, EndTurns(), ADA)
    with pytest.raises(RulesError, match="nobody at the table is 'c9'"):
        step(turns, SetTurnOrder(order=("c9",)))
    with pytest.raises(RulesError, match="one place"):
        step(turns, SetTurnOrder(order=("c1", "c1")))
    assert step(turns, EndTurns())[0] == Turns()
    with pytest.raises(RulesError, match="no turn order"):
        step(Turns(), NextTurn())


def test_each_member_is_offered_what_is_theirs_to_do():
    turns, _ = step(Turns(), SetTurnOrder(order=("c1", "c2")))
    kinds = {
        m.id: [o.kind for o in turn_offers(turns, m, list(NAMES), plays(m))] for m in (GM, ADA, BO)
    }
    assert kinds == {"gm": ["turn-order", "next-turn", "end-turns"], "p1": ["next-turn"], "p2": []}
    # the order is placed one by one from whoever sits at the table, and held to them
    (order,) = [o for o in turn_offers(turns, GM, list(NAMES), plays(GM)) if o.kind == "turn-order"]
    assert order.fields["order"].items == ("c1", "c2", "n1") and order.fields["order"].ordered
    assert order.allows({"kind": "turn-order", "order": ["n1", "c1"]}) is None
    assert order.allows({"kind": "turn-order", "order": ["c1", "c9"]})


@given(st.lists(st.sampled_from(list(NAMES)), min_size=1, max_size=3, unique=True), st.data())
def test_one_leaving_the_table_keeps_the_turn_with_whoever_had_it(order, data):
    turns, _ = step(Turns(), SetTurnOrder(order=tuple(order)))
    for _ in range(data.draw(st.integers(0, 4))):
        turns, _ = step(turns, NextTurn())
    gone = data.draw(st.sampled_from(order))
    after = without(turns, gone)
    assert gone not in after.order
    if turns.whose != gone and after.order:
        assert after.whose == turns.whose
    elif after.order:
        assert after.whose in after.order


def test_every_member_sees_the_turn_in_one_shape():
    shown = turn_view([("c1", "Mara"), ("n1", "Thug")], "n1", 2, OWNERS)
    assert shown == {
        "order": [
            {"id": "c1", "name": "Mara", "player": "p1"},
            {"id": "n1", "name": "Thug", "player": None},
        ],
        "current": "n1",
        "round": 2,
        "by": "the GM",
    }
    assert turn_view([], None, 0, OWNERS) is None
