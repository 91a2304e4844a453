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
    off_the_lists,
    offers_with_code,
    read_as,
    scene,
    unreached,
    written_kinds,
)
from tests.session_laws import Step, Table, Walk
from tests.systems.dead_weight.test_lists import FILE
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
from tests.systems.dead_weight.test_sheet_session import WIZARD, seated

WORDS = frozenset({"re-roll", "re-rolls", "re-rolled", "re-rolling", "zero-dice", "mid-life"})
"""The book's and English's hyphenated words a line may hold."""

HIDDEN_TABLE = Table(
    SESSION, [GM, ADA, BO, WATCHER], filler=fill_with_enemies, start=with_hidden_enemies
)


def stow(item: dict, place: str) -> tuple:
    return (ADA, {"kind": "stow-item", "character": "c1", "item": item, "place": place})


CLERIC = {
    "name": "Amber",
    "traits": ["divine mandate"],
    "attributes": {"PRE": {"score": 1}},
    "magic": {"prayers_known": ["Light"], "prayers_memorised": ["Light"]},
}
"""Amber as a cleric, who knows a prayer (DW-X27); WIZARD is her as a wizard."""

PRAYERS = [
    (
        ADA,
        {
            "kind": "stow-item",
            "character": "c1",
            "item": {"name": "talisman", "tags": ["holy symbol"]},
            "place": "belt",
        },
    ),
    (ADA, {"kind": "pray", "character": "c1", "prayer": "Light"}),
    (ADA, {"kind": "pray", "character": "c1", "prayer": "Light", "desperate_plea": True}),
    (ADA, {"kind": "expedition", "character": "c1", "prayers": ["Light"]}),
]


EVERY_ATTRIBUTE = [{"attribute": a} for a in ("STR", "DEX", "INT", "PRE")]

MAGIC = [
    stow({"name": "wand", "tags": ["conductor"]}, "belt"),
    stow({"name": "torches", "usage": 6}, "bag"),
    (ADA, {"kind": "cast-spell", "character": "c1", "spell": "Bolt"}),
    (ADA, {"kind": "drop-item", "character": "c1", "place": "belt", "index": 0}),
    (ADA, {"kind": "cast-spell", "character": "c1", "spell": "Bolt"}),
    (ADA, {"kind": "use-item", "character": "c1", "place": "bag", "index": 0}),
    stow({"name": "grimoire", "tags": ["grimoire"]}, "bag"),
    (ADA, {"kind": "study", "character": "c1", "spell": "Bolt"}),
    (GM, {"kind": "fatigue", "character": "c1", "attribute": "DEX", "points": 3}),
    (GM, {"kind": "wounds", "character": "c2", "placements": EVERY_ATTRIBUTE}),
    (GM, {"kind": "stabilise", "character": "c2", "means": "medical supply", "in_combat": False}),
    (GM, {"kind": "wait", "character": "c1", "turns": 5}),
    (ADA, {"kind": "wake", "character": "c1"}),
    (ADA, {"kind": "interlude", "character": "c1"}),
    (ADA, {"kind": "rest-at-camp", "character": "c1"}),
    (BO, {"kind": "rest-at-camp", "character": "c2", "snore": "ambush"}),
    (ADA, {"kind": "expedition", "character": "c1", "spells": ["Ward"]}),
    (GM, {"kind": "new-tracker", "name": "doom", "tracker_kind": "omens", "segments": 4}),
    *[(GM, {"kind": "advance-tracker", "name": "doom", "points": 2})] * 3,
]
"""A spell cast with a wand and without, torches used, a spell studied; fatigue and
wounds, a mortal wound stabilised, waking, an interlude and camp, setting out again, and
a tracker run to its end: the sheet's and the body's lines a walk rarely reaches."""


LISTS_SCENE = [
    (GM, {"kind": "keep-god", "name": "Yulak", "prayers": ["Smite"]}),
    (GM, {"kind": "load-lists", "file": FILE}),
    (GM, {"kind": "drop-listed", "list": "god", "name": "Yulak"}),
]
"""The GM's lists of backgrounds, spells and gods, which the walks leave out (DW-T07)."""


@cache
def walks() -> tuple[Walk, ...]:
    """Seeded walks of the table and of one with hidden enemies, most steps a choice of a
    test or an attack where one is open, and the scene above on several seeds."""
    done = [scene(SESSION, seated(WIZARD), MAGIC, seed) for seed in range(6)]
    done += [scene(SESSION, seated(CLERIC), PRAYERS, seed) for seed in range(6)]
    done.append(scene(SESSION, SESSION.new(), LISTS_SCENE))
    return tuple(done + [_walk(t, seed) for t in (TABLE, HIDDEN_TABLE) for seed in range(10)])


PLAYING = frozenset({"reroll", "pass", "dauntless", "attack", "blow", "defend", "no-armour"})
PLAYING |= {"hardened", "place-wounds", "test", "npc-test", "opposed-test"}


def _walk(table: Table, seed: int) -> Walk:
    chance = random.Random(seed)

    def pick(items):
        items = off_the_lists(items)
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
IMPERSONAL |= {"tracker", "tracker advanced", "tracker triggered", "turn order", "turns ended"}
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
        "affliction ignored",
        "ambush die",
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
        "food and water",
        "hardened",
        "insight",
        "item used",
        "items lost",
        "life path reroll",
        "light",
        "miracle",
        "miracle healing",
        "mortal wound roll",
        "mortally wounded",
        "omens",
        "patience",
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
        "stabilised",
        "still sleepy",
        "stun",
        "trauma",
        "trauma ignored",
        "true past",
    }
)
"""Kinds of line the rules write that no walk or scene here reaches yet, so the lint has
not read them (docs/architecture.md, "The words a table shows", lists them as not built)."""


def test_every_kind_of_line_the_rules_write_is_reached():
    """The lint reads a kind of line only once a walk or the scene writes it: a kind the
    rules begin to write fails here until one does (and one reached leaves the list)."""
    assert unreached(written_kinds("tabletop.systems.dead_weight"), walks()) == NOT_REACHED
