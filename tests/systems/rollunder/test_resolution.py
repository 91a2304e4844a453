"""The decision machine: saved mid-decision, resumed exactly, refusing what does not fit and
never changing anything on a refusal (architecture: interactive rules as state machines)."""

from __future__ import annotations

import pytest

from tabletop.dice import FixedDice, SeededDice
from tabletop.systems.rollunder import (
    AbilityRoll,
    Contest,
    Hit,
    Resolution,
    Roller,
    RollUnderError,
    RollUnderOptions,
    Side,
    SufferHit,
    reroll_failures,
    resolve,
)
from tabletop.systems.rollunder.errors import RollUnderDataError, validated
from tests.systems.rollunder.helpers import hero


def hit_with_omens() -> SufferHit:
    return SufferHit(character=hero(health=14, omens=2, max_omens=2), hit=Hit(amount=8))


def test_a_resolution_saved_mid_decision_resumes_to_the_same_end():
    start = Resolution.begin(hit_with_omens(), FixedDice([8]))
    saved = start.model_dump_json()
    loaded = Resolution.model_validate_json(saved)
    assert loaded == start
    assert loaded.decision == start.decision
    assert loaded.events == start.events
    first = start.choose("reroll Ash", FixedDice([4])).choose("keep 2", FixedDice([]))
    second = loaded.choose("reroll Ash", FixedDice([4])).choose("keep 2", FixedDice([]))
    assert first.outcome == second.outcome
    assert first.model_dump_json() == second.model_dump_json()


def test_events_so_far_are_visible_while_a_decision_is_open():
    start = Resolution.begin(hit_with_omens(), FixedDice([8]))
    assert [event.kind for event in start.events] == [
        "armour",
        "health_lost",
        "incapacitated",
    ]
    with pytest.raises(RollUnderError, match="waiting for a decision"):
        _ = start.outcome


def test_an_illegal_choice_is_refused_and_changes_nothing():
    start = Resolution.begin(hit_with_omens(), FixedDice([8]))
    before = start.model_dump_json()
    with pytest.raises(RollUnderError, match="'keep 2' is not a choice here"):
        start.choose("keep 2", FixedDice([]))
    with pytest.raises(RollUnderError, match="choose one of: keep 1, reroll Ash"):
        start.choose("reroll Bo", FixedDice([]))
    assert start.model_dump_json() == before


def test_a_finished_resolution_has_nothing_left_to_choose():
    done = Resolution.begin(AbilityRoll(character=hero(), ability="STR"), FixedDice([3]))
    assert done.finished and done.decision is None
    with pytest.raises(RollUnderError, match="finished"):
        done.choose("keep 1", FixedDice([]))


def test_a_hand_edited_saved_state_is_refused_clearly():
    start = Resolution.begin(hit_with_omens(), FixedDice([8]))
    done = start.choose("reroll Ash", FixedDice([4])).choose("reroll Ash", FixedDice([5]))
    data = done.model_dump(mode="json")
    data["open_results"] = []
    with pytest.raises(RollUnderError, match="missing the results of its open roll"):
        Resolution.model_validate(data).decision  # noqa: B018
    finished = done.choose("keep 3", FixedDice([])).model_dump(mode="json")
    finished["answers"][0]["rerolled_by"] = ["Ash", "Zed"]
    with pytest.raises(RollUnderError, match="Zed paid for more re-rolls"):
        Resolution.model_validate(finished).outcome  # noqa: B018
    finished["answers"][0]["rerolled_by"] = ["Ash", "Ash"]
    finished["answers"][0]["results"][0]["expression"] = "1d6"
    with pytest.raises(RollUnderError, match="not a roll of 1d8"):
        Resolution.model_validate(finished).outcome  # noqa: B018
    with pytest.raises(
        RollUnderDataError, match=r"intent\.ability_roll\.character: Field required"
    ):
        validated(Resolution, {"intent": {"intent": "ability_roll"}, "answers": 3}, "x")


def test_the_same_roll_keeps_every_result_and_the_owner_picks_any():
    start = Resolution.begin(hit_with_omens(), FixedDice([8]))
    twice = start.choose("reroll Ash", FixedDice([4])).choose("reroll Ash", FixedDice([2]))
    assert twice.decision is not None
    assert twice.decision.choices == ("keep 1", "keep 2", "keep 3")
    assert [r.total for r in twice.decision.results] == [8, 4, 2]
    done = twice.choose("keep 2", FixedDice([]))
    assert done.outcome.character.abilities["AGI"] == 8
    assert done.outcome.character.omens == 0


def test_resolve_feeds_each_answer_once_and_agrees_with_stepping(monkeypatch):
    """Architecture (docs/rules, "How the engine runs them"): `resolve` runs the rule once,
    live, however many decisions it takes (it replayed every answer at every decision, so
    a contest of omen-holding contestants took hours within the documented bounds), and
    ends exactly where choosing the same answers one at a time ends."""
    sides = tuple(
        Side.alone(Roller(name=name, score=score, omens=3))
        for name, score in (("Ana", 9), ("Bo", 11))
    )
    contest = Contest(ability="AGI", sides=sides, rolls=6)
    policy = reroll_failures(tuple(m for s in sides for m in s.members), RollUnderOptions())
    calls = []
    original = Contest.procedure

    def counted(self, options, log):  # type: ignore[no-untyped-def]
        calls.append(1)
        return original(self, options, log)

    monkeypatch.setattr(Contest, "procedure", counted)
    done = resolve(contest, SeededDice(3), None, policy)
    assert len(calls) == 1 and len(done.answers) >= 12
    assert sum(done.outcome.omens_spent.values()) > 0  # decisions were made on the way
    monkeypatch.undo()
    dice = SeededDice(3)
    stepped = Resolution.begin(contest, dice)
    while (decision := stepped.decision) is not None:
        stepped = stepped.choose(policy(decision), dice)
    assert stepped == done
    assert stepped.outcome == done.outcome


def test_a_saved_state_with_more_answers_than_its_rule_asks_for_is_refused():
    done = Resolution.begin(AbilityRoll(character=hero(), ability="STR"), FixedDice([3]))
    data = done.model_dump(mode="json")
    data["answers"].append(data["answers"][0])
    with pytest.raises(RollUnderError, match="more answers than its rule asks for"):
        Resolution.model_validate(data).outcome  # noqa: B018
