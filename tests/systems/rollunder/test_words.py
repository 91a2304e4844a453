"""The words a roll-under table shows (data/words.toml; docs/architecture.md, "The words a
table shows"): every intent kind, field and listed value, every rule option and each of
its readings, and every kind of line a hint names has a label in the Core Rules' terms."""

from __future__ import annotations

from typing import get_args

from tabletop.systems.rollunder import SESSION
from tabletop.systems.rollunder.carrying import ItemKind
from tabletop.systems.rollunder.options import RollUnderOptions
from tabletop.systems.rollunder.records import EventKind
from tabletop.words import missing, only_the_id, refused_words, unworded_options
from tests.systems.rollunder.test_session import ASH, play, seated


def test_every_kind_field_and_value_has_words_that_read_like_the_book():
    assert missing(SESSION.intent_schema(), SESSION.words) == []
    refused_words(SESSION.words)


def test_every_rule_option_and_each_of_its_readings_has_words():
    """The lobby's "Rules of this table": each option (CR-A01 … CR-A26, CR-G01) a label and
    help; each reading it takes from a list a label of its own."""
    assert unworded_options(RollUnderOptions, SESSION.words) == []


def test_the_books_abilities_and_item_sorts_are_named_in_words():
    """Ability Rolls and Encumbrance: the pick-lists of abilities (STR, AGI, WIT) say what
    each is, and an item's sort (a field the schema walk leaves out, as `kind` names the
    intent) reads as the book says it."""
    for ability in RollUnderOptions().abilities:
        label = SESSION.words.value("ability-roll", "ability", ability)
        assert label is not None and label.startswith(f"{ability}: "), ability
    for sort in get_args(ItemKind):
        label = SESSION.words.value("take-item", "kind", sort)
        assert label is not None and not only_the_id(label, sort), sort


def test_every_kind_of_line_a_hint_may_name_has_words_of_its_own():
    """A line wholly a hidden NPC's reaches the players as 'Mire hound: <what happened>,
    kept secret': each kind of line the rules write has its own words there."""
    for kind in get_args(EventKind):
        assert kind in SESSION.words.events, kind
        assert "_" not in SESSION.words.event(kind), kind


def test_each_answer_a_waiting_roll_offers_is_said_in_words():
    """§ Spending omens, CR-A10: Ash's failed roll waits on keeping result 1 or his omen's
    re-roll; the buttons said `keep 1` and `reroll Ash` (issue 30's new GM). The GM's
    choice of an item the rules destroy is the item's own name."""
    state, _ = play(
        seated(omens=1, max_omens=1),
        {"kind": "ability-roll", "character": "c1", "ability": "STR"},
        ASH,
        [15],
    )
    (answer,) = [o for o in SESSION.legal(state, ASH) if o.kind == "answer"]
    said = [SESSION.words.value("answer", "choice", i["choice"]) for i in answer.intents]
    assert said == ["Keep result 1", "Re-roll with Ash's omen"]
    for choice, words in (("save", "Spend omens to be saved"), ("die", "Die"), ("rope", None)):
        assert SESSION.words.value("answer", "choice", choice) == words
