"""Every line a roll-under table writes reads as a person would say it (issue 30, item 2):
it names the character it is about, and holds no id, snake_case or kebab-case name, Python
value or JSON. Dice notation and a die list such as `[4, 1]` are words."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from functools import cache
from typing import Any

from pydantic import BaseModel

from tabletop.systems.rollunder import SESSION, RollUnderTable
from tests.lines import (
    ENGINE,
    engine_lines,
    lines_with_code,
    nameless_lines,
    read_as,
    scene,
    unreached,
    written_kinds,
)
from tests.session_laws import Step, Table, Walk
from tests.systems.rollunder.test_npcs import CONTEST, KEPT_TABLE, kept_table, with_hound
from tests.systems.rollunder.test_session import ASH, GM, TABLE, character, play, seated

WORDS = frozenset({"re-roll", "re-rolls", "re-rolled", "tie-break"})
"""The chapter's and English's hyphenated words a line may hold."""

IMPERSONAL = frozenset({"stretch", "downtime", "mutation-table", "roll", "turns ended"})
"""Lines about the whole company's time, the table's mutation table, or a roll of dice."""


def hit(character: str, damage: str, faces: list[int]) -> tuple:
    return (GM, {"kind": "suffer-hit", "character": character, "damage": damage}, faces)


DYING = [
    hit("c1", "2", []),
    hit("c2", "10", [4]),
    (GM, {"kind": "begin-activation", "actor": "the orc"}, []),
    (GM, {"kind": "end-activation"}, []),
    (ASH, {"kind": "answer", "choice": "save"}, []),
]
"""CR-A13, CR-A19: Ash and Bo fall to 0 and face death when the orc's activation ends; Ash
spends his omen to live, Bo dies."""

MUTATIONS = {
    "name": "the group's mutations",
    "dice": "1d4",
    "entries": [{"roll": "1-2", "name": "Scaled skin"}, {"roll": "3+", "name": "Third eye"}],
}
"""A mutation table the group supplies (CR-G07: the chapter leaves it to another)."""

MISHAPS = [
    (ASH, {"kind": "set-carry-limit", "character": "c1", "carry_limit": 10}),
    (ASH, {"kind": "take-item", "character": "c1", "item": {"name": "lamp", "bulk": 1}}),
    hit("c1", "8", [1]),
    (GM, {"kind": "answer", "choice": "lamp"}, []),
    (GM, {"kind": "collective-roll", "characters": ["c1", "c2"], "ability": "STR"}),
    *[(GM, {"kind": "suffer-corruption", "character": "c2", "gain": 6})] * 3,
    (GM, {"kind": "set-mutation-table", "table": MUTATIONS}),
    *[(GM, {"kind": "suffer-corruption", "character": "c1", "gain": 6})] * 3,
    (GM, {"kind": "die", "character": "c1"}),
    (GM, {"kind": "bury", "dead": "c1", "payment": {"c2": 256}}),
    (ASH, {"kind": "replace-character", "dead": "c1", "sheet": character("Cy")}),
]
"""CR-M17, CR-M02, CR-M18: a critical hit destroys the lamp the GM picks; the company rolls
together; corruption piles up past what Bo can bear, then Ash, once the group supplies
its mutation table; Ash dies, Bo pays his burial and
Ash's player brings Cy."""


@cache
def walks() -> tuple[Walk, ...]:
    """Seeded walks of a table of two players' characters and of one with the GM's hidden
    hound and secret character, and the scenes above and against the hound."""
    done = [scene(SESSION, seated(health=2, omens=1, max_omens=1), DYING)]
    done += [scene(SESSION, seated(), MISHAPS, seed) for seed in range(4)]
    done += [scene(SESSION, with_hound(), [(GM, {**CONTEST, "rolls": 1}, [5, 3, 6, 18])])]
    reveal = {"kind": "reveal-character", "character": "c3"}
    done += [scene(SESSION, kept_table(), [(GM, reveal)])]
    return tuple(done + [_walk(table, seed) for table in (TABLE, KEPT_TABLE) for seed in range(10)])


def _walk(table: Table, seed: int) -> Walk:
    chance = random.Random(seed)
    return table.walk(lambda items: chance.choice(list(items)), 40, seed)


read = read_as(SESSION, (GM, ASH))
"""The line as the GM and as a player read it (text and hint)."""


def names(*states: RollUnderTable) -> set[str]:
    return {seat.sheet.name for state in states for seat in state.characters.values()}


def named(intent: dict) -> set[str]:
    """Who an intent names by a name of its own: bare-score rollers and contestants, a
    contest's sides, whose activation begins."""
    found = {roller["name"] for roller in intent.get("rollers", ())}
    for side in intent.get("sides", ()):
        found |= {side["name"], *(score["name"] for score in side.get("scores", ()))}
    return found | ({intent["actor"]} if "actor" in intent else set())


def named_in(rule: BaseModel) -> set[str]:
    """Every name in a rule waiting for an answer: its rollers, contestants and sides."""

    def walk(value: Any) -> Iterator[str]:
        if isinstance(value, dict):
            if isinstance(value.get("name"), str):
                yield value["name"]
            for inner in value.values():
                yield from walk(inner)
        elif isinstance(value, list):
            for inner in value:
                yield from walk(inner)

    return set(walk(rule.model_dump(mode="json")))


def test_no_line_of_the_walks_holds_code():
    assert lines_with_code(walks(), read, WORDS) == set()


def test_each_line_of_the_walks_names_who_it_is_about():
    """ "Ash rolls damage", "Ash's armour 1 takes off 1", "Mire hound takes a hit": never a
    line that leaves the table to guess whose it is (a roll in a mode names whose player
    made it)."""

    def about(before: RollUnderTable, step: Step) -> set[str]:
        waiting = set() if before.pending is None else named_in(before.pending.resolution.intent)
        acting = {before.activation} if before.activation else set()
        told = named(step.intent) | waiting | acting | {step.member.name or "GM"}
        return names(before, step.state) | told

    assert nameless_lines(walks(), read, about, IMPERSONAL) == set()


def test_the_walks_reach_the_lines_of_a_fight_an_ask_and_the_turns():
    """The walks above are worth what they reach: an attack's blow, armour and hit, a
    roll the GM asks for, the turns, contests and rolls the GM calls."""
    reached = {event.type for walk in walks() for event in walk.events}
    assert {
        "attack",
        "damage_roll",
        "armour",
        "health_lost",
        "incapacitated",
        "injury_roll",
        "ask",
        "turn order",
        "turn",
        "contest_rolls",
        "contest_result",
        "automatic_result",
        "omen_spent",
        "decision",
    } <= reached


def test_every_kind_of_line_the_rules_write_is_reached():
    """The lint reads a kind of line only once a walk or a scene writes it: a kind the
    rules begin to write fails here until one does."""
    assert unreached(written_kinds("tabletop.systems.rollunder"), walks()) == set()


RENDERED = re.compile(rf"{ENGINE.pattern}|→ \[| decides$")
"""The dice engine's line of a roll (`1d6!p:100 → [6!+(3-1)] = 8`, `1d20 → [3] = 3`), and a
waiting roll that names only who decides (CR-S13)."""


def test_no_line_shows_the_dice_engine_or_leaves_a_choice_unsaid():
    """CR-S13 (docs/rules/rollunder.md): dice read as the chapter names them, and a roll
    waiting for an answer says who chooses what."""
    assert engine_lines(walks(), read, RENDERED) == set()


def test_a_waiting_roll_says_what_it_waits_for_and_who_chooses():
    """CR-S13, CR-A10: Ash (an omen) rolls 14 against STR 12 and may keep it or re-roll;
    he re-rolls a 3 and chooses which stands. A hit of d6 against him rolls 6 then 3: the
    book's exploding die, 6 + (3 - 1) = 8, said as it fell."""
    ability = {"kind": "ability-roll", "character": "c1", "ability": "STR"}
    state, events = play(seated(omens=1, max_omens=1), ability, ASH, [14])
    assert [event.text for event in events] == [
        "Ash's STR roll: 14; Ash chooses whether to keep it or spend an omen to re-roll it"
    ]
    _, events = play(state, {"kind": "answer", "choice": "reroll Ash"}, ASH, [3])
    assert events[-1].text == (
        "Ash's STR roll: 14, then re-rolled: 3; Ash chooses which result stands"
    )
    _, events = play(seated(omens=1, max_omens=1), hit("c1", "d6", [])[1], GM, [6, 3])
    assert events[-1].text == (
        "the damage against Ash: 1d6, exploding: 6, then 3 (+2) = 8; Ash chooses whether to"
        " keep it or spend an omen to re-roll it"
    )


ONE_OF_MANY = re.compile(r"(?<![\d.,/-])\b1 (?:coins|omens|rolls)\b")
"""A count of one said in the plural: `Ash: +1 coins`, `Ash recovers 1 omens`, `passes 1 of
1 rolls` (CR-S13)."""


def test_a_count_of_one_is_said_in_the_singular():
    found = {
        (event.type, text)
        for walk in walks()
        for event in walk.events
        for text in read(event)
        if ONE_OF_MANY.search(text)
    }
    assert found == set()
