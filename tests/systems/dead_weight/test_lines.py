"""Every line a Dead Weight table writes reads as a person would say it (issue 30, item 2):
it names the adventurer or enemy it is about, and holds no id, snake_case or kebab-case
name, Python value or JSON, over seeded walks of a table and of one with hidden enemies
that lean on tests and attacks. Dice lists such as `[4, 1]` and Ud8 are words."""

from __future__ import annotations

import random
from functools import cache

from tests.lines import (
    code_in,
    lines_with_code,
    nameless_lines,
    offers_with_code,
    read_as,
    unreached,
    written_kinds,
)
from tests.session_laws import Step, Table, Walk
from tests.systems.dead_weight.test_session import (
    ADA,
    BO,
    GM,
    SESSION,
    TABLE,
    WATCHER,
    DeadWeightTable,
    fill_with_enemies,
    with_hidden_enemies,
)

WORDS = frozenset({"re-roll", "re-rolls", "re-rolled", "re-rolling", "zero-dice", "mid-life"})
"""The book's and English's hyphenated words a line may hold."""

HIDDEN_TABLE = Table(
    SESSION, [GM, ADA, BO, WATCHER], filler=fill_with_enemies, start=with_hidden_enemies
)


@cache
def walks() -> tuple[Walk, ...]:
    """Seeded walks of the table and of one with hidden enemies, most steps a choice of a
    test or an attack where one is open."""
    return tuple(_walk(table, seed) for table in (TABLE, HIDDEN_TABLE) for seed in range(10))


PLAYING = frozenset({"reroll", "pass", "dauntless", "attack", "blow", "defend", "no-armour"})
PLAYING |= {"hardened", "place-wounds", "test", "npc-test", "opposed-test"}


def _walk(table: Table, seed: int) -> Walk:
    chance = random.Random(seed)

    def pick(items):
        items = list(items)
        if items and isinstance(items[0], tuple) and hasattr(items[0][1], "closed"):
            playing = [item for item in items if item[1].kind in PLAYING]
            if playing and chance.random() < 0.7:
                items = playing
        return chance.choice(items)

    return table.walk(pick, 40, seed)


read = read_as(SESSION, (GM, ADA))
"""The line as the GM and as a player read it (text and hint)."""


def test_no_line_of_the_walks_holds_code():
    assert lines_with_code(walks(), read, WORDS) == set()


IMPERSONAL = frozenset({"roll", "risk", "usage die", "new tracker", "tracker shown", "ask"})
IMPERSONAL |= {"tracker advanced", "tracker triggered", "turn order", "turns ended"}
"""Lines about the table's dice and trackers, which name nobody (a roll names its player)."""


def names(*states: DeadWeightTable) -> set[str]:
    """Everyone a line could be about: the adventurers (made or in the making), the kept
    enemies, and an enemy typed into the test under way."""
    found: set[str] = set()
    for state in states:
        found |= {seat.sheet.label for seat in state.characters.values()}
        found |= {npc.name for npc in state.npcs.values()}
        found |= {making.creation.character.label for making in state.making.values()}
        if state.exchange is not None:
            tests = state.exchange.opposed.tests if state.exchange.opposed else ()
            found |= {test.roller.label for test in (*tests, state.exchange.open_test)}
    return found


def test_each_line_of_the_walks_names_who_it_is_about():
    """ "Amber re-rolls die 1 (1 → 5) with proficiency", "Amber's DEX takes a fatigue
    point", "Amber's burden: Amnesia": never a line that leaves the table to guess whose it
    is (a roll names whose player made it)."""

    def about(before: DeadWeightTable, step: Step) -> set[str]:
        return names(before, step.state) | {step.member.name or "the GM"}

    assert nameless_lines(walks(), read, about, IMPERSONAL) == set()


def test_the_walks_reach_the_attack_and_the_exchange():
    reached = {event.type for walk in walks() for event in walk.events}
    assert {"attack", "hit", "test announced", "dice rolled", "reroll", "test judged"} <= reached


def test_the_lint_finds_code():
    assert code_in("STR takes a wound on c1, kept_npc", WORDS) == ["c1", "kept_npc"]


def test_no_offer_or_its_help_reads_like_code():
    """What a page builds its buttons and forms from, to the GM and to a player."""
    assert offers_with_code(walks(), SESSION.offers, (GM, ADA), WORDS) == set()


NOT_REACHED = frozenset(
    {
        "advance tracker",
        "afflict others",
        "affliction",
        "affliction ended",
        "affliction ignored",
        "ambush die",
        "angry god",
        "arcane well",
        "armour roll",
        "blind",
        "burden",
        "choose",
        "coffee",
        "dauntless",
        "death",
        "discarded",
        "dropped",
        "extra effort",
        "faint turn",
        "food and water",
        "forgotten",
        "hardened",
        "insight",
        "item used",
        "items lost",
        "life path reroll",
        "light",
        "miracle",
        "miracle healing",
        "mishap",
        "mortal wound roll",
        "mortally wounded",
        "no conductor",
        "omens",
        "patience",
        "prayer",
        "prayer answered",
        "prayer ignored",
        "prayers ready",
        "proficiency lowered",
        "quirk",
        "rejected by death",
        "repair",
        "sacrifice",
        "score lowered",
        "session",
        "sheet",
        "sleepy",
        "spell",
        "stabilised",
        "still sleepy",
        "study",
        "stun",
        "summon",
        "tracker",
        "tracker triggered",
        "trauma",
        "trauma ignored",
        "true past",
        "wake roll",
    }
)
"""Kinds of line the rules write that no walk or scene here reaches yet, so the lint has
not read them (docs/architecture.md, "The words a table shows", lists them as not built)."""


def test_every_kind_of_line_the_rules_write_is_reached():
    """The lint reads a kind of line only once a walk or the scene writes it: a kind the
    rules begin to write fails here until one does (and one reached leaves the list)."""
    assert unreached(written_kinds("tabletop.systems.dead_weight"), walks()) == NOT_REACHED
