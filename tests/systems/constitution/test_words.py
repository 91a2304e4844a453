"""The words a 3d6 Constitution table shows (data/words.toml; docs/architecture.md, "The
words a table shows"): every intent kind, field and listed value, every rule option and
each of the book's initiations has a label and help in the articles' terms."""

from __future__ import annotations

from typing import get_args

from tabletop.session import Member
from tabletop.systems.constitution import SESSION
from tabletop.systems.constitution.attacks import ARMOUR, ArmourName
from tabletop.systems.constitution.initiations import catalogue
from tabletop.systems.constitution.options import Options
from tabletop.words import missing, refused_words, unworded_options

GM = Member.gm()


def test_every_kind_field_and_value_has_words_that_read_like_the_book():
    assert missing(SESSION.intent_schema(), SESSION.words) == []
    refused_words(SESSION.words)


def test_every_rule_option_and_each_of_its_readings_has_words():
    """The lobby's "Rules of this table": each option a label and help; each reading it
    takes from a list a label of its own (C3-A05 … C3-A27)."""
    assert unworded_options(Options, SESSION.words) == []


def test_each_initiation_of_the_book_is_named_with_its_article():
    """§ 4.4, articles 7-10: the pick-list names each precedent by the book's name, whom
    it is for and its article."""
    for iid, initiation in catalogue().items():
        label = SESSION.words.value("new-character", "initiation", iid)
        assert label is not None and label.startswith(initiation.name), iid
        assert f"(§ {initiation.article})" in label, iid


def test_the_books_initiations_and_armour_are_pick_lists_with_their_numbers():
    """§ 4.4 and § 14.15: rolling up a character offers the book's initiations by name;
    writing down armour offers its five classes, each with its AC, weight and price."""
    new = next(o for o in SESSION.offers(SESSION.new(), GM) if o.kind == "new-character")
    assert new.fields["initiation"].values == (None, *catalogue())
    assert set(get_args(ArmourName)) == set(ARMOUR)
    for name, armour in ARMOUR.items():
        label = SESSION.words.value("stow-gear", "armour", name)
        assert label is not None and f"AC {armour.ac}" in label, name
        assert f"{armour.price_sp} sp" in label and "stone" in label, name


def test_the_fights_numbers_on_its_buttons_say_what_they_count():
    """§ 5.4, § 5.5, § 5.19: a reaction's cost and the extra degrees an effect takes read
    "Pay initiative for a reaction · Cora · 5 initiative", "2 extra degrees" (the buttons
    said a bare "· 5 ·", "· 2 ·" to issue 30's new GM)."""
    said = SESSION.words.value
    assert [said("combat", "cost", cost) for cost in (2, 5, 10)] == [
        "2 initiative",
        "5 initiative",
        "10 initiative",
    ]
    assert [said("combat", "degrees", n) for n in (1, 2)] == ["1 extra degree", "2 extra degrees"]
