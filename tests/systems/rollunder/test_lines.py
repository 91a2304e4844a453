"""Every line a roll-under table writes reads as a person would say it (issue 30, item 2):
it names the character it is about, and holds no id, snake_case or kebab-case name, Python
value or JSON. Dice notation and a die list such as `[4, 1]` are words."""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import cache
from typing import Any

from pydantic import BaseModel

from tabletop.systems.rollunder import SESSION, RollUnderTable
from tests.lines import lines_with_code, nameless_lines, read_as, unreached, written_kinds
from tests.session_laws import Step, Table, Walk
from tests.systems.rollunder.test_npcs import KEPT_TABLE
from tests.systems.rollunder.test_session import ASH, GM, TABLE

WORDS = frozenset({"re-roll", "re-rolls", "tie-break"})
"""The chapter's and English's hyphenated words a line may hold."""

IMPERSONAL = frozenset({"stretch", "downtime", "mutation-table", "roll", "turns ended"})
"""Lines about the whole company's time, the table's mutation table, or a roll of dice."""


@cache
def walks() -> tuple[Walk, ...]:
    """Seeded walks of a table of two players' characters and of one with the GM's hidden
    hound and secret character."""
    return tuple(_walk(table, seed) for table in (TABLE, KEPT_TABLE) for seed in range(10))


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
        return names(before, step.state) | named(step.intent) | waiting | {step.member.name or "GM"}

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


NOT_REACHED = frozenset(
    {
        "dying_deadline",
        "group_result",
        "item_destroyed",
        "mutation",
        "mutation_to_choose",
        "replacement",
        "revealed",
        "saved_from_death",
        "tie_break",
    }
)
"""Kinds of line the rules write that no walk or scene here reaches yet, so the lint has
not read them (docs/architecture.md, "The words a table shows", lists them as not built)."""


def test_every_kind_of_line_the_rules_write_is_reached():
    """The lint reads a kind of line only once a walk or the scene writes it: a kind the
    rules begin to write fails here until one does (and one reached leaves the list)."""
    assert unreached(written_kinds("tabletop.systems.rollunder"), walks()) == NOT_REACHED
