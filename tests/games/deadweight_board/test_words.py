"""The words a Deadweight board table shows (data/words.toml; docs/architecture.md, "The
words a table shows"): every intent kind, field and listed value, every rule option and each
of its readings has words in the board game's terms, never its id."""

from __future__ import annotations

from tabletop.games.deadweight_board.config import DeadweightConfig
from tabletop.games.deadweight_board.session import SESSION
from tabletop.words import missing, refused_words, unworded_options


def test_every_kind_field_and_value_has_words_that_read_like_the_rules():
    assert missing(SESSION.intent_schema(), SESSION.words) == []
    refused_words(SESSION.words)


def test_every_rule_option_and_each_of_its_readings_has_words():
    """The lobby's "Rules of this table": each option (AMB-02 … AMB-63) a label and help;
    each reading it takes from a list a label of its own."""
    assert unworded_options(DeadweightConfig, SESSION.words) == []


def test_the_options_help_names_the_reading_it_switches():
    """A GM choosing a reading can look it up: every option's help cites its AMB entry in
    docs/rules/deadweight-board.md."""
    words = SESSION.words
    uncited = [
        name for name in DeadweightConfig.model_fields if "AMB-" not in words.options[name].help
    ]
    assert uncited == []


def test_seats_and_readings_read_as_a_table_says_them():
    """A seat is named by its colour; the fate die's faces and the final round's readings
    in the rules' words (AMB-02, AMB-60)."""
    words = SESSION.words
    assert words.value("leave-seat", "seat", "Red") == "Red seat"
    assert words.values["fate_die_faces"]["life_ring"] == "A life ring"
    assert words.values["final_round"]["all_including_trigger"].startswith("Everyone")
