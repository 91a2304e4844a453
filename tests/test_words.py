"""The words a table shows people (tabletop/words.py; docs/architecture.md, "The words a
table shows"): every kind, field and listed value of a system's intents has a label and a
line of help of its own, never only its id with the separators replaced."""

from __future__ import annotations

from typing import Literal

import pytest
from pydantic import BaseModel

from tabletop.errors import DataError
from tabletop.systems.plain_dice.session import SESSION as DICE
from tabletop.words import (
    Wording,
    Words,
    missing,
    only_the_id,
    refused_words,
    shared,
    unworded_options,
)

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
