"""What every RPG sheet takes the same way (tabletop/sheet_edits.py; docs/architecture.md,
"What a player writes on a sheet"): coins that come or go, a line of a list struck out, a
new name or notes, and the intent shape every system's sheet intents share."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.errors import DataError, RulesError
from tabletop.session import CharacterIntent
from tabletop.sheet_edits import (
    RenameCharacter,
    WriteNotes,
    coins_line,
    counted,
    taken,
    without,
    written,
)
from tabletop.systems.registry import SYSTEMS
from tests.effort import tried

MOST = 1_000


class Refused(RulesError):
    """Stands in for a system's own refusal."""


def test_coins_never_go_below_none_nor_past_what_a_sheet_holds_nor_change_by_nothing():
    with pytest.raises(Refused, match=r"^Ada has only 3 sp$"):
        counted("Ada", {"sp": 3}, {"sp": -4}, MOST, Refused)
    with pytest.raises(Refused, match=rf"^more than {MOST} sp is past what a sheet holds$"):
        counted("Ada", {"sp": MOST}, {"sp": 1}, MOST, Refused)
    with pytest.raises(Refused, match=r"^write how many coins come or go$"):
        counted("Ada", {"silver": 3, "gold": 1}, {"silver": 0, "gold": 0}, MOST, Refused)


def test_one_kind_of_coin_short_refuses_the_whole_count_however_rich_in_the_other():
    with pytest.raises(Refused, match=r"^Amber has only 1 gold$"):
        counted("Amber", {"silver": 5, "gold": 1}, {"silver": 90, "gold": -2}, MOST, Refused)


@settings(max_examples=tried(200))
@given(
    st.dictionaries(st.sampled_from(["silver", "gold"]), st.integers(0, MOST), min_size=2),
    st.dictionaries(st.sampled_from(["silver", "gold"]), st.integers(-MOST, MOST), min_size=2),
)
def test_a_count_adds_each_kind_or_refuses_and_never_leaves_a_kind_out_of_bounds(purse, change):
    sums = {coin: purse[coin] + change[coin] for coin in purse}
    if not any(change.values()) or not all(0 <= n <= MOST for n in sums.values()):
        with pytest.raises(Refused):
            counted("Ada", purse, change, MOST, Refused)
    else:
        assert counted("Ada", purse, change, MOST, Refused) == sums


def test_the_coin_line_names_each_kind_that_moved_and_why():
    assert coins_line("Ada", {"sp": 10}, "a lantern") == "Ada: +10 sp (a lantern)"
    assert coins_line("Amber", {"silver": -2, "gold": 0}, "") == "Amber: -2 silver"
    assert coins_line("Amber", {"silver": 1, "gold": -3}, "") == "Amber: +1 silver, -3 gold"


def test_a_line_of_a_list_is_taken_by_its_place_or_refused_in_the_systems_words():
    gear = ("rope", "lantern", "rations")
    assert taken(gear, 1, "no line 2", Refused) == "lantern"
    assert without(gear, 1) == ("rope", "rations")
    with pytest.raises(Refused, match=r"^Ada carries no line 4$"):
        taken(gear, 3, "Ada carries no line 4", Refused)
    with pytest.raises(Refused):
        taken(gear, -1, "no line 0", Refused)


def test_a_new_name_is_trimmed_and_one_that_could_fake_text_is_refused():
    changes, kind, text = written(RenameCharacter(character="c1", name="  Wren "), "Ada")
    assert (changes, kind, text) == ({"name": "Wren"}, "renamed", "Ada is now called Wren")
    with pytest.raises(DataError):
        written(RenameCharacter(character="c1", name="Wr\u202een"), "Ada")
    notes = written(WriteNotes(character="c1", notes="owes Bo 3 sp"), "Ada")
    assert notes == ({"notes": "owes Bo 3 sp"}, "notes", "Ada's notes are rewritten")


def _character_intents() -> list[type[CharacterIntent]]:
    found = []
    for system in SYSTEMS:
        for intent in system.session.intents:
            if isinstance(intent, type) and issubclass(intent, CharacterIntent):
                found.append(intent)
    return found


@pytest.mark.parametrize("intent", _character_intents(), ids=lambda i: i.__name__)
def test_every_intent_about_a_character_is_sent_as_its_own_kind_then_whose(intent):
    """The shape logs of earlier rooms hold: `kind` (fixed to the intent's own), then
    `character`, then the intent's own fields; a form lists them in that order."""
    schema = intent.model_json_schema()
    assert list(schema["properties"])[:2] == ["kind", "character"]
    assert schema["properties"]["kind"]["const"] == intent.model_fields["kind"].default
    assert "character" in schema["required"] and "kind" not in schema["required"]
