"""The dice room's session: every roll mode, and the laws every session obeys."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.dice import FixedDice
from tabletop.errors import DataError, PermissionDenied
from tabletop.session import Member, RollMode, Visibility
from tabletop.systems.plain_dice import SESSION
from tests.effort import tried
from tests.session_laws import Table, check_laws

GM = Member.gm()
ADA = Member.player("p1", "Ada")
BO = Member.player("p2", "Bo")
WATCHER = Member.observer()
TABLE = Table(SESSION, [GM, ADA, BO, WATCHER])


def roll(mode: RollMode, by: Member = ADA, faces: tuple[int, ...] = (6, 5, 1, 3)):
    intent = {"kind": "roll", "notation": "4d6kh3", "mode": mode, "label": "stealth"}
    return SESSION.resolve(SESSION.new(), intent, by, FixedDice(faces))


def test_a_public_roll_shows_every_die_to_everyone():
    (event,) = roll(RollMode.PUBLIC)
    assert event.text == "Ada rolls 4d6kh3 → [6, 5, ~~1~~, 3] = 14 for stealth"
    assert [d["kept"] for d in event.data["dice"]["dice"]] == [True, True, False, True]
    assert [d.face for d in event.cause.draws] == [6, 5, 1, 3]
    for member in (GM, ADA, BO, WATCHER):
        assert SESSION.view_event(event, member) == event


def test_a_gm_roll_is_seen_by_the_roller_and_the_gm_and_the_others_hear_of_it():
    (event,) = roll(RollMode.GM)
    assert SESSION.view_event(event, ADA) == event
    assert SESSION.view_event(event, GM) == event
    told = SESSION.view_event(event, BO)
    assert told.text == "Ada rolled for the GM" and told.data == {} and told.cause is None


def test_a_blind_roll_is_seen_by_the_gm_alone_and_the_roller_learns_only_that_it_happened():
    (event,) = roll(RollMode.BLIND)
    assert event.visibility == Visibility.HIDDEN
    assert SESSION.view_event(event, GM) == event
    for member in (ADA, BO, WATCHER):
        told = SESSION.view_event(event, member)
        assert told.text == "Ada made a blind roll for the GM"
        assert "14" not in told.model_dump_json()


def test_a_self_roll_is_seen_by_the_roller_and_the_gm_and_nobody_else_hears_of_it():
    (event,) = roll(RollMode.SELF)
    assert SESSION.view_event(event, ADA) == event
    assert SESSION.view_event(event, GM) == event
    assert SESSION.view_event(event, BO) is None
    assert SESSION.view_event(event, WATCHER) is None


def test_an_observer_may_not_roll():
    with pytest.raises(PermissionDenied, match="only watches"):
        roll(RollMode.PUBLIC, by=WATCHER)


def test_an_unknown_intent_or_a_bad_expression_is_refused():
    with pytest.raises(DataError, match="not an intent"):
        SESSION.resolve(SESSION.new(), {"kind": "reroll"}, ADA, FixedDice([]))
    with pytest.raises(DataError, match="not an intent"):
        SESSION.resolve(SESSION.new(), {"kind": "roll", "notation": ""}, ADA, FixedDice([]))


def test_folding_a_roll_checks_its_draws_against_the_rules():
    (event,) = roll(RollMode.PUBLIC)
    short = event.model_copy(
        update={"cause": event.cause.model_copy(update={"draws": event.cause.draws[:3]})}
    )
    with pytest.raises(DataError, match="ran out of dice"):
        SESSION.fold(SESSION.new(), short)


@settings(max_examples=tried(30), deadline=None)
@given(data=st.data(), seed=st.integers(0, 10_000))
def test_the_dice_room_obeys_the_session_laws(data, seed):
    check_laws(TABLE, lambda items: data.draw(st.sampled_from(list(items))), steps=8, seed=seed)
