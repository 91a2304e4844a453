"""The words a table shows people (tabletop/words.py; docs/architecture.md, "The words a
table shows"): every kind, field and listed value of a system's intents has a label and a
line of help of its own, never only its id with the separators replaced."""

from __future__ import annotations

import re
from typing import Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from tabletop.dice import FixedDice, SeededDice, roll
from tabletop.errors import DataError
from tabletop.systems.plain_dice.session import SESSION as DICE
from tabletop.words import (
    Wording,
    Words,
    counted,
    listed,
    missing,
    only_the_id,
    refused_words,
    said,
    shared,
    unworded_options,
)
from tests.effort import tried

SCHEMA = {
    "properties": {
        "kind": {"const": "take-lowest", "type": "string"},
        "take_lowest_eval": {"type": "boolean"},
        "mode": {"enum": ["draw-weapon", "STR"], "type": "string"},
    }
}


def test_a_kind_field_or_value_without_words_of_its_own_is_found():
    assert missing(SCHEMA, Words()) == [
        "take-lowest has no words",
        "take-lowest: take_lowest_eval has no words",
        "take-lowest: mode has no words",
        "take-lowest: mode = 'draw-weapon' has no words of its own",
        "take-lowest: mode = 'STR' has no words of its own",
    ]


def test_the_id_with_its_separators_replaced_is_not_words():
    """Forms once read 'Take lowest eval', 'Gm auto fail at minus two', 'draw-weapon'."""
    lazy = Words(
        kinds={"take-lowest": Wording(label="Take lowest", help="take lowest")},
        fields={"take_lowest_eval": Wording(label="Take lowest eval", help="")},
        values={"mode": {"draw-weapon": "draw weapon", "STR": "STR"}},
    )
    problems = missing(SCHEMA, lazy)
    assert problems == [
        "take-lowest has no line of help",
        "take-lowest: take_lowest_eval has no line of help",
        "take-lowest: mode has no words",
        "take-lowest: mode = 'draw-weapon' has no words of its own",
    ]  # STR is the book's own word for strength: its label may be the same
    assert only_the_id("Gm auto fail at minus two", "gm_auto_fail_at_minus_two")


def test_words_that_read_like_code_are_refused():
    with pytest.raises(DataError, match="read like code"):
        refused_words(Words(kinds={"x": Wording(label="Draw", help="see draw_weapon")}))
    with pytest.raises(DataError, match="read like code"):
        refused_words(Words(values={"mode": {"x": '{"a": 1}'}}))


def test_every_roll_has_its_words_and_the_shared_words_read_like_prose():
    assert missing(DICE.intent_schema(), DICE.words) == []
    refused_words(shared())
    assert DICE.words.value("roll", "mode", "blind") == "The GM alone"


class _Rules(BaseModel):
    wake_on: Literal["risk_triggers", "never"] = "risk_triggers"
    cap: Literal["low", "high"] | None = None
    strict: bool = False
    max_score: int | None = None


def test_a_rule_option_or_setting_without_words_of_its_own_is_found():
    """The lobby once read 'Wake on', 'risk_triggers'; a number or a yes/no has no list."""
    lazy = Words(
        options={
            "wake_on": Wording(label="Wake on", help="When a fainted one wakes."),
            "cap": Wording(label="A cap", help="How high."),
            "strict": Wording(label="Strict", help="strict"),
        },
        values={"wake_on": {"risk_triggers": "risk triggers", "never": "Never wakes"}},
    )
    assert unworded_options(_Rules, lazy) == [
        "option wake_on has no words of its own",
        "option wake_on = 'risk_triggers' has no words of its own",
        "option cap = 'low' has no words of its own",
        "option cap = 'high' has no words of its own",
        "option strict has no words of its own",
        "option max_score has no words of its own",
    ]


def test_a_value_with_a_varying_part_is_said_with_that_part_in_place():
    """`reroll Ash` and `keep 12` are said by `"reroll …"` and `"keep …"`; a value the
    shape does not fit, or that is only its fixed part, has no words from it."""
    words = Words(values={"choice": {"reroll …": "… re-rolls", "keep …": "Keep result …"}})
    assert words.value("answer", "choice", "reroll Mire hound") == "Mire hound re-rolls"
    assert words.value("answer", "choice", "keep 12") == "Keep result 12"
    for unsaid in ("keep ", "keep", "rope", "a keep 1"):
        assert words.value("answer", "choice", unsaid) is None, unsaid


@settings(max_examples=tried(60), deadline=None)
@given(
    count=st.integers(1, 4),
    sides=st.integers(2, 8),
    exploding=st.booleans(),
    seed=st.integers(0, 10**6),
)
def test_a_roll_in_words_shows_each_die_and_adds_up_to_the_engines_total(
    count, sides, exploding, seed
):
    """`said` (CR-S13, DW-T06): a pool reads as the book names its dice and as each die fell,
    every follow-up of an exploding die with what it adds (a penetrating one, its face minus
    1), so the numbers a player reads add up to the engine's total; never its notation."""
    rolled = roll(f"{count}d{sides}" + ("!p:100" if exploding else ""), SeededDice(seed))
    text = said(rolled)
    assert text.startswith(f"{count}d{sides}{', exploding' if exploding else ''}: ")
    assert "!" not in text and "→" not in text and "[" not in text
    body, _, total = text.partition(": ")[2].rpartition(" = ")
    if not body:  # one die, one face: the face is the total
        body, total = total, total
    worth = re.sub(r"then \d+ \(\+(\d+)\)", r"\1", body)
    assert int(total) == rolled.total == sum(int(n) for n in re.findall(r"\d+", worth))


def test_risk_dice_and_counts_read_as_words():
    """DW-M27: any 1 and the thing happens; a count says its plural (never `wound(s)`)."""
    assert said(roll("3d!", FixedDice([4, 2, 4]))) == "3d!: 4, 2 and 4, no 1"
    assert said(roll("2d!", FixedDice([1, 5]))) == "2d!: 1 and 5, a 1"
    assert said(roll("1d6!p:100", FixedDice([6, 3]))) == "1d6, exploding: 6, then 3 (+2) = 8"
    assert said(roll("2d6+1", FixedDice([3, 4]))) == "2d6 + 1 → [3, 4] + 1 = 8"  # as typed
    assert [counted(n, "wound") for n in (0, 1, 2)] == ["0 wounds", "1 wound", "2 wounds"]
    assert counted(1, "ruby", "rubies") == "1 ruby" and counted(3, "ruby", "rubies") == "3 rubies"
    assert listed(["a", "b", "c"], "or") == "a, b or c"
