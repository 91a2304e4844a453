"""The words a Dead Weight table shows (data/words.toml; docs/architecture.md, "The words a
table shows"): every intent kind, field and listed value, every rule option and each of its
readings, and the hidden enemy's lines a hint names, have a label and help in the book's
terms, never only their ids."""

from __future__ import annotations

from tabletop.systems.dead_weight import SESSION
from tabletop.systems.dead_weight.options import Options
from tabletop.systems.dead_weight.table_npcs import _TOLD_AS
from tabletop.words import missing, only_the_id, refused_words, unworded_options


def test_every_kind_field_and_value_has_words_that_read_like_the_book():
    assert missing(SESSION.intent_schema(), SESSION.words) == []
    refused_words(SESSION.words)


def test_every_rule_option_and_each_of_its_settings_has_words():
    """The lobby's "Rules of this table": each option a label and help; each setting it
    takes from a list a label of its own (DW-A02 … DW-A34, DW-M37, DW-G10)."""
    assert unworded_options(Options, SESSION.words) == []


def test_a_hidden_enemys_lines_are_named_in_words():
    """DW-N04, DW-N05: each line of a hidden enemy's own test or wounds has words of its
    own for a hint that names what happened, not the event type's id."""
    for kind in _TOLD_AS:
        said = SESSION.words.events.get(kind)
        assert said is not None and not only_the_id(said, kind), kind


def test_the_books_tables_read_with_their_numbers():
    """§ Inventory, § Dice Notation: a container's label says what it holds; a usage die
    reads as the book writes it."""
    words = SESSION.words
    assert words.value("add-container", "container", "backpack") == "A backpack: 7 items"
    assert words.value("add-container", "container", "skin") == "A skin: 2 liquids"
    assert words.value("usage-die", "size", 8) == "Ud8"
    assert words.value("test", "attribute", "PRE") == "PRE: persuasion and will"
