"""The session protocol's record of what happened: refusals after dice were drawn, and
decisions applied without being made again (docs/rooms.md, "The log, version 2")."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletop.dice import SeededDice
from tabletop.errors import TabletopError
from tabletop.session import DrawnRefusal, Member, Visibility
from tabletop.systems.registry import system

DICE = system("dice").session
ANN = Member.player("m2", "Ann")


def _probe(seed: int) -> DrawnRefusal | None:
    """The division-by-zero probe of issue 21: it fails exactly when the d20 shows 20."""
    intent = {"kind": "roll", "notation": "1/(20-1d20)", "mode": "self"}
    try:
        DICE.resolve(DICE.new(), intent, ANN, SeededDice(seed))
    except DrawnRefusal as refused:
        return refused
    return None


def _a_failing_seed() -> int:
    return next(seed for seed in range(500) if _probe(seed) is not None)


def test_a_roll_refused_after_its_dice_were_drawn_carries_them():
    refused = _probe(_a_failing_seed())
    assert refused is not None
    event = refused.event
    assert event.cause is not None and event.cause.refused == str(refused.problem)
    assert [(d.sides, d.face) for d in event.cause.draws] == [(20, 20)]
    assert event.visibility == Visibility.ACTOR  # a self roll: the roller and the GM
    assert "division" in event.data["refused"]


def test_folding_a_refusal_changes_nothing_and_asking_again_refuses_the_same_way():
    event = _probe(_a_failing_seed()).event  # type: ignore[union-attr]
    state = DICE.new()
    assert DICE.fold(state, event) == state
    assert event.cause is not None
    assert DICE.resolve_again(state, event.cause) == [event]


def test_a_refusal_before_any_die_is_an_ordinary_error():
    with pytest.raises(TabletopError) as refused:
        DICE.resolve(DICE.new(), {"kind": "roll", "notation": "1d"}, ANN, SeededDice(1))
    assert not isinstance(refused.value, DrawnRefusal)


def test_a_blind_refusal_looks_like_a_blind_roll_to_everyone_but_the_gm():
    seed = _a_failing_seed()
    intent = {"kind": "roll", "notation": "1/(20-1d20)", "mode": "blind"}
    with pytest.raises(DrawnRefusal) as refused:
        DICE.resolve(DICE.new(), intent, ANN, SeededDice(seed))
    made = DICE.resolve(DICE.new(), {**intent, "notation": "1d20"}, ANN, SeededDice(seed))[0]
    for member in (ANN, Member.player("m3", "Bo"), Member.observer("m4")):
        shown, hinted = DICE.view_event(refused.value.event, member), DICE.view_event(made, member)
        assert shown is not None and hinted is not None
        assert shown.model_dump(exclude={"actor"}) == hinted.model_dump(exclude={"actor"})
    assert DICE.view_event(refused.value.event, Member.gm()) == refused.value.event


@given(st.integers(0, 2**32))
def test_every_resolution_that_drew_and_raised_holds_its_draws(seed):
    """Property: a resolution either succeeds, or fails before drawing, or leaves a refusal
    holding exactly the dice it drew — and asking again with them fails the same way."""
    intent = {"kind": "roll", "notation": "1d6/(1d4-2)+1d8", "mode": "public"}
    try:
        DICE.resolve(DICE.new(), intent, ANN, SeededDice(seed))
    except DrawnRefusal as refused:
        cause = refused.event.cause
        assert cause is not None and len(cause.draws) >= 2
        assert DICE.resolve_again(DICE.new(), cause) == [refused.event]
