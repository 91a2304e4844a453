"""Every line a Dead Weight table writes holds no id, snake_case or kebab-case name, Python
value or JSON (issue 30, item 2), over seeded walks of a table and of one with hidden
enemies that lean on tests and attacks. Dice lists such as `[4, 1]` and Ud8 are words.
That each line names whom it is about is not held yet: the exchange's, creation's and the
body's lines name the attribute or the side, not the adventurer (docs/rules/dead-weight.md,
"Not built yet at the table")."""

from __future__ import annotations

import random
from functools import cache

from tabletop.session import Event
from tests.lines import code_in, lines_with_code
from tests.session_laws import Table, Walk
from tests.systems.dead_weight.test_session import (
    ADA,
    BO,
    GM,
    SESSION,
    TABLE,
    WATCHER,
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


def read(event: Event) -> list[str]:
    """The line as the GM and as a player read it (text and hint)."""
    shown = [SESSION.view_event(event, member) for member in (GM, ADA)]
    return [t for e in shown if e is not None for t in (e.text, e.hint) if t]


def test_no_line_of_the_walks_holds_code():
    assert lines_with_code(walks(), read, WORDS) == set()


def test_the_walks_reach_the_attack_and_the_exchange():
    reached = {event.type for walk in walks() for event in walk.events}
    assert {"attack", "hit", "test announced", "dice rolled", "reroll", "test judged"} <= reached


def test_the_lint_finds_code():
    assert code_in("STR takes a wound on c1, kept_npc", WORDS) == ["c1", "kept_npc"]


def test_no_offer_or_its_help_reads_like_code():
    """What a page builds its buttons and forms from: each offer's text and each field's
    help, to the GM and to a player, at every fifth step of the walks."""
    found = set()
    for walk in walks():
        for step in walk.steps[::5]:
            for member in (GM, ADA):
                for offer in SESSION.offers(step.state, member):
                    helps = [choice.help for choice in offer.fields.values()]
                    found |= {text for text in (offer.text, *helps) if code_in(text, WORDS)}
    assert found == set()
