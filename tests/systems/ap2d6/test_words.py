"""The words a 2d6 table shows (data/words.toml; docs/architecture.md, "The words a table
shows"): every intent kind, field and listed value, every rule option and each of its
readings, and every kind of line the rules write has words in the book's terms."""

from __future__ import annotations

from tabletop.systems.ap2d6 import SESSION
from tabletop.systems.ap2d6.options import Options
from tabletop.words import missing, refused_words, unworded_options


def test_every_kind_field_and_value_has_words_that_read_like_the_book():
    assert missing(SESSION.intent_schema(), SESSION.words) == []
    refused_words(SESSION.words)


def test_every_rule_option_and_each_of_its_readings_has_words():
    """The lobby's "Rules of this table": each option (RU-A01 … RU-A37) a label and help;
    each reading it takes from a list a label of its own."""
    assert unworded_options(Options, SESSION.words) == []


def test_the_random_schemes_and_tracker_changes_read_as_the_book_has_them():
    """Character Creation's d4-2 and d6-3 and the AP tracker's gain, lose, temp and wait."""
    words = SESSION.words
    assert "d4-2" in (words.value("new-character", "method", "d4-2") or "")
    assert words.value("new-character", "method", "point-buy").startswith("Point buy")
    assert words.value("tracker", "change", "wait").startswith("Wait")
