"""Every line a 2d6 table writes reads as a person would say it (issue 30, item 2): it names
the character it is about, and holds no id, snake_case or kebab-case name, Python value or
JSON. Dice notation such as (1n1) and a die list such as `[4, 1]` are words (RU-S05)."""

from __future__ import annotations

import random
from functools import cache

from tabletop.dice import FixedDice
from tabletop.systems.ap2d6 import SESSION, Ap2d6Table, BeginningChoices, shipped_statuses
from tabletop.systems.ap2d6.death import consequence_tables
from tabletop.systems.ap2d6.rounds import activate_effects
from tests.lines import (
    callers,
    code_in,
    lines_with_code,
    nameless_lines,
    off_the_lists,
    read_as,
    scene,
    unreached,
    written_kinds,
)
from tests.session_laws import Step, Table, Walk
from tests.systems.ap2d6.test_lists import CHAINMAIL, STEALTH
from tests.systems.ap2d6.test_session import (
    AYLA,
    BRAN,
    GM,
    TABLE,
    WATCHER,
    fighting,
    fighting_hidden_npcs,
    fill_with_npcs,
    seated,
    with_hidden_npcs,
)
from tests.systems.ap2d6.test_strikes import LONGSWORD, in_the_fight

WORDS = frozenset({"one-handed", "two-handed", "well-liked", "re-roll", "re-rolls"})
"""Hyphenated words of the book and of English, not ids."""

IMPERSONAL = frozenset({"round", "main-phase", "fight-over", "fight", "order"})
"""Lines about the whole fight, which name nobody in particular."""


def test_the_lint_finds_code_and_passes_dice():
    assert code_in("Ayla: scores {'STR': 0}", WORDS) == ["{'", "': "]
    assert code_in("STR lowered on c1, heavily_encumbered, draw-weapon", WORDS) == [
        "c1",
        "heavily_encumbered",
        "draw-weapon",
    ]
    assert code_in("death check None; 'gain'", WORDS) == ["None", " 'gain'"]
    assert code_in("Ayla: 2d6 [4, 1] +2 = 7 (1n1)->(2n1); a two-handed sword", WORDS) == []


def names(*states: Ap2d6Table) -> set[str]:
    """Everyone a line could be about: the characters and the NPCs."""
    return {seat.sheet.name for state in states for seat in state.characters.values()}


MEMBERS = [GM, AYLA, BRAN, WATCHER]
TABLES = (
    TABLE,
    Table(SESSION, MEMBERS, filler=TABLE.filler, start=fighting),
    Table(SESSION, MEMBERS, filler=fill_with_npcs, start=with_hidden_npcs),
    Table(SESSION, MEMBERS, filler=fill_with_npcs, start=fighting_hidden_npcs),
)


SCENE = [
    (AYLA, {"kind": "new-character", "name": "Cora", "method": "d4-2"}),
    (AYLA, {"kind": "stow-item", "character": "c3", "item": {"kind": "heavy-weapon"}}),
    (AYLA, {"kind": "use-bag", "character": "c3", "bag": {"name": "sack", "maximum": 6}}),
    (
        AYLA,
        {
            "kind": "stow-item",
            "character": "c3",
            "item": {"kind": "small", "count": 3},
            "in_bag": True,
        },
    ),
    (AYLA, {"kind": "drop-bag", "character": "c3"}),
    (AYLA, {"kind": "stow-item", "character": "c1", "item": {"kind": "heavy-weapon", "count": 3}}),
    (AYLA, {"kind": "drop-item", "character": "c1", "index": 0}),
    (AYLA, {"kind": "stow-item", "character": "c3", "item": {"kind": "heavy-weapon", "count": 9}}),
    (AYLA, {"kind": "drop-item", "character": "c3", "index": 1}),
    (GM, {"kind": "start-fight", "characters": ["c2", "c3"]}),
    (GM, {"kind": "next-round"}),
    (BRAN, {"kind": "spend", "character": "c2", "action": "draw a weapon"}),
    (AYLA, {"kind": "spend", "character": "c3", "action": "pick-up-weapon"}),
    (AYLA, {"kind": "spend", "character": "c3", "action": "free-action"}),
    (GM, {"kind": "tracker", "character": "c2", "change": "lose"}),
    (GM, {"kind": "tracker", "character": "c3", "change": "gain"}),
    (BRAN, {"kind": "interrupt", "character": "c2", "target": "c3"}),
    (GM, {"kind": "next-round"}),
    (GM, {"kind": "end-fight"}),
    (GM, {"kind": "damage", "character": "c1", "amount": 20}),
    *[(AYLA, {"kind": "death-check", "character": "c1"})] * 3,
    (GM, {"kind": "reveal-death-dc", "character": "c1"}),
    (BRAN, {"kind": "check-on", "character": "c1"}),
    (GM, {"kind": "heal", "character": "c1", "amount": 20}),
    (AYLA, {"kind": "rest", "character": "c1", "hours": 8, "recovery_dice": 1}),
]
"""What the walks rarely reach: rolled scores, unnamed gear and a bag, basic actions by
their words, the tracker's changes, an interrupt, and dying from the first check to the
rest after."""


STRIKE = {"kind": "strike", "character": "c1", "target": "n1", "weapon": "longsword"}

FIGHT = [
    (GM, {"kind": "keep-weapon", **LONGSWORD}),
    (AYLA, STRIKE),
    (AYLA, {"kind": "roll-to-hit", "character": "c1"}),
    (AYLA, {"kind": "roll-damage", "character": "c1"}),
    (GM, {"kind": "deal-damage", "character": "c1"}),
    (AYLA, STRIKE),
    (GM, {"kind": "drop-strike", "character": "c1"}),
    (GM, {"kind": "drop-weapon", "name": "longsword"}),
    (AYLA, {"kind": "attack", "character": "c1", "speed": "(1n1)->(2n1)"}),
    (GM, {"kind": "damage", "character": "n1", "amount": 40}),
    (GM, {"kind": "next-round"}),
    (GM, {"kind": "damage", "character": "c1", "amount": 20}),
    (GM, {"kind": "damage", "character": "c1", "amount": 1}),
    (GM, {"kind": "damage", "character": "c1", "amount": 500}),
    (GM, {"kind": "heal", "character": "c1", "amount": 5}),
    (AYLA, {"kind": "rest", "character": "c1", "hours": 8, "recovery_dice": 1}),
]
"""An attack on the book's hidden guard step by step and one called off, the GM's weapon
list, a guard and a hero past saving."""


ABSORBED = [
    (AYLA, STRIKE),
    (AYLA, {"kind": "roll-to-hit", "character": "c1"}, [6, 6]),
    (AYLA, {"kind": "roll-damage", "character": "c1"}),
    (GM, {"kind": "deal-damage", "character": "c1", "less": 2}),
]
"""A hit on the guard whose armour takes part of it (the group's armour, RU-A51)."""

DYING_TWICE = [
    (GM, {"kind": "damage", "character": "c1", "amount": 20}, [6, 6]),
    (GM, {"kind": "heal", "character": "c1", "amount": 4}),
    (GM, {"kind": "damage", "character": "c1", "amount": 3}),
    *[(AYLA, {"kind": "death-check", "character": "c1"}, [1, 1])] * 2,
    (GM, {"kind": "heal", "character": "c1", "amount": 5}),
]
"""Ayla down at DC 12, healed to 2 HP (her checks stop, RU-A20), hit down again (they start
again), two failed checks after the hit's (dead, RU-M39), and healing that comes too late
(RU-A41)."""

LOST = [
    (GM, {"kind": "start-fight", "characters": ["c1", "c2"]}),
    (GM, {"kind": "next-round"}),
    (GM, {"kind": "tracker", "character": "c2", "change": "lose"}),
    (GM, {"kind": "next-round"}),
]
"""Bran loses a token at a table where lost AP returns the next round (RU-A10)."""


def seated_where(**options) -> Ap2d6Table:
    """Ayla and Bran at a table under `options`."""
    return seated().model_copy(update={"options": SESSION.new(options).options})


@cache
def walks() -> tuple[Walk, ...]:
    """Seeded walks of a table, a fight, and both with hidden NPCs, and the scenes above."""
    done = [scene(SESSION, seated(), SCENE, seed) for seed in range(4)]
    done += [scene(SESSION, in_the_fight(), FIGHT, seed) for seed in range(4)]
    done.append(scene(SESSION, in_the_fight(), ABSORBED))
    done.append(scene(SESSION, seated(), DYING_TWICE))
    done.append(scene(SESSION, seated_where(lost_ap_returns="next-round"), LOST))
    done.append(scene(SESSION, in_the_fight(), LISTS_SCENE))
    return tuple(done + [_walk(table, seed) for table in TABLES for seed in range(4)])


LISTS_SCENE = [
    (GM, STEALTH),
    (GM, CHAINMAIL),
    (AYLA, {"kind": "wear-armour", "character": "c1", "armour": "chainmail"}),
    (GM, {"kind": "drop-listed", "list": "skill", "name": "STEALTH"}),
]
"""The GM's skill and armour lists, which the walks leave out (RU-S10)."""


def _walk(table: Table, seed: int) -> Walk:
    chance = random.Random(seed)
    return table.walk(lambda items: chance.choice(off_the_lists(items)), 30, seed)


read = read_as(SESSION, (GM, AYLA))
"""The line as the GM and as a player read it (text and hint)."""


def test_no_line_of_the_walks_holds_code():
    assert lines_with_code(walks(), read, WORDS) == set()


def test_each_line_of_the_walks_names_who_it_is_about():
    """ "Ayla lowers AGI to -1 for 1 SP", "Ayla, hour 1: recovery die …": never a line that
    leaves the table to guess whose it is (a roll in a mode names whose player made it)."""

    def about(before: Ap2d6Table, step: Step) -> set[str]:
        return names(before, step.state) | {step.member.name or "the GM"}

    assert nameless_lines(walks(), read, about, IMPERSONAL) == set()


def test_the_walks_reach_the_lines_of_the_table():
    """The walks above are worth what they reach."""
    reached = {event.type for walk in walks() for event in walk.events}
    assert {
        "character",
        "roll-score",
        "assign",
        "lower",
        "raise",
        "skill",
        "load",
        "check",
        "contest",
        "damage",
        "downed",
        "death-dc",
        "death-check",
        "death-check-result",
        "stop-rolling",
        "checked-on",
        "heal",
        "rest",
        "recovery-die",
        "long-rest",
        "fight",
        "round",
        "shift",
        "pay",
        "free",
        "gain",
        "lose",
        "interrupt",
        "fight-over",
        "npc",
    } <= reached


def test_every_kind_of_line_has_words_for_a_hint():
    """A hint names what happened by the words for its event type (data/words.toml)."""
    reached = {event.type for walk in walks() for event in walk.events}
    assert {kind for kind in reached if kind not in SESSION.words.events} == set()


NOT_REACHED = frozenset({"ignored", "status-effect"})
"""Kinds of line no table can write: a status that hurts or heals each round ([poison],
[bleed], [heal]) is what CON ignores and what acts in Effect Activation, and no intent of the
table gives a character one (its statuses come from load, [encumbered], and from dying,
[weak] and [frail]; docs/architecture.md, "The words a table shows"). The lint reads their
words below."""


def test_every_kind_of_line_the_rules_write_is_reached():
    """The lint reads a kind of line only once a walk or the scene writes it: a kind the
    rules begin to write fails here until one does (and one reached leaves the list)."""
    assert unreached(written_kinds("tabletop.systems.ap2d6"), walks()) == NOT_REACHED


def test_no_status_a_table_gives_acts_each_round():
    """Why `NOT_REACHED` cannot be reached at a table: its rules give a status only from the
    death consequence tables and from load ([encumbered], the one caller of `with_status`),
    and none of those acts each round (RU-M06, RU-M51)."""
    dying = {
        effect.fields["status"]
        for table in consequence_tables().values()
        for entry in table.entries
        for effect in entry.effects
        if effect.kind == "status"
    }
    assert dying == {"weak", "frail"}
    assert callers("tabletop.systems.ap2d6", {"with_status"}) == {"encumbrance.py"}
    given = dying | {"encumbered"}
    assert {name for name in given if shipped_statuses().spec(name).acts_each_round} == set()


def test_the_lines_of_statuses_that_act_each_round_read_as_words():
    """Ayla with [poison] and [heal] as the library plays them in Effect Activation (RU-M06):
    her CON ignores a stack of poison, the rest hurt and heal."""
    ayla = seated().characters["c1"].sheet
    ayla = ayla.model_copy(update={"scores": {**ayla.scores, "CON": 1}})
    for status, stacks in (("poison", 2), ("heal", 1)):
        ayla = ayla.with_status(status, shipped_statuses().spec(status), stacks)
    _, lines = activate_effects(ayla, FixedDice([]), BeginningChoices())
    assert {line.kind for line in lines} >= NOT_REACHED
    said = [line.summary for line in lines]
    assert "Ayla's [poison] acts: 1 stack" in said
    assert [text for text in said if code_in(text, WORDS)] == []
    assert all("Ayla" in text for text in said)
