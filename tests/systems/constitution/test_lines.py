"""Every line a 3d6 Constitution table writes reads as a person would say it (issue 30, item
2): it names the character it is about, and holds no id, snake_case or kebab-case name,
Python value or JSON. Dice notation and a die list such as `[4, 1]` are words."""

from __future__ import annotations

import random
from functools import cache

from tabletop.dice import FixedDice
from tabletop.systems.constitution import (
    SESSION,
    ConstitutionTable,
    KnownSpell,
    ask_blessing,
    improvement_roll,
    spell_improvement,
)
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
from tests.systems.constitution.conftest import make_character
from tests.systems.constitution.test_lists import CLIMBING, FLAME, sage
from tests.systems.constitution.test_session import ADA, GM, HIDDEN_TABLE, TABLE
from tests.systems.constitution.test_sheet_session import seated

WORDS = frozenset({"re-roll", "re-rolls", "re-orient", "re-orients", "ten-minute"})
"""The book's and English's hyphenated words a line may hold."""


IMPERSONAL = frozenset(
    {"round", "round_end", "over", "forced", "bout_over", "camp", "march", "explore"}
    | {"encounter-check", "roll"}
)
"""Lines about the whole fight, the party's day or the GM's clock, which name nobody."""


def test_the_lint_finds_code_and_passes_dice():
    assert code_in("Ada: scores {'STR': 0}", WORDS) == ["{'", "': "]
    assert code_in("STR takes a wound on c1, heavily_encumbered, each-hour", WORDS) == [
        "c1",
        "heavily_encumbered",
        "each-hour",
    ]
    assert code_in("stats None; 'ranged'", WORDS) == ["None", " 'ranged'"]
    assert code_in("Ada's damage {2d20}kh1 → [4, 1] = 5; Bo's re-roll", WORDS) == []


def names(*states: ConstitutionTable) -> set[str]:
    """Everyone a line could be about: the characters, the NPCs and those in the fight."""
    found: set[str] = set()
    for state in states:
        found |= {seat.sheet.name for seat in state.characters.values()}
        found |= {npc.name for npc in state.npcs.values()}
        found |= {c.name for c in state.fight.combatants}
    return found


def combat(action: dict) -> dict:
    return {"kind": "combat", "action": action}


def add(**combatant) -> dict:
    return combat({"action": "add", "combatant": combatant})


SCENE = [
    add(id="Ana", name="Ana", side="party", strength=15, tactician=True, bow_training=True, hp=30),
    add(id="Boss", name="Boss", side="foes", hp=40, ac=10, morale=2),
    add(id="Hench", name="Hench", side="foes", henchman=True, commander="Boss", hp=3),
    add(id="Cal", name="Cal", side="party", hp=10),
    *[
        combat({"action": "set_initiative", "id": who, "value": value})
        for who, value in (("Ana", 30), ("Boss", 20), ("Cal", 15))
    ],
    combat({"action": "begin"}),
    combat({"action": "tactical", "id": "Ana"}),
    combat(
        {
            "action": "attack",
            "attacker": "Ana",
            "target": "Boss",
            "ranged": True,
            "store": True,
            "modifier": 40,
            "use_direct_hit": False,
        }
    ),
    combat({"action": "extra_action", "bow": True}),
    combat(
        {
            "action": "attack",
            "attacker": "Ana",
            "target": "Boss",
            "modifier": 12,
            "use_direct_hit": False,
        }
    ),
    combat({"action": "spend_degrees", "id": "Ana", "degrees": 1, "effect": "back to the wall"}),
    combat({"action": "release_stored", "shooter": "Ana"}),
    combat({"action": "end_turn"}),
    combat({"action": "command", "commander": "Boss", "followers": ["Hench"]}),
    combat({"action": "end_turn"}),
    combat(
        {
            "action": "attack",
            "attacker": "Cal",
            "target": "Boss",
            "ranged": True,
            "into_melee": "side",
            "other_target": "Ana",
            "modifier": 40,
            "use_direct_hit": False,
        }
    ),
    combat({"action": "extra_action"}),
    combat(
        {
            "action": "attack",
            "attacker": "Cal",
            "target": "Boss",
            "ranged": True,
            "store": True,
            "modifier": 40,
        }
    ),
    combat({"action": "lose_track", "shooter": "Cal"}),
    combat({"action": "end_turn"}),
    combat({"action": "declare_spell", "id": "Ana", "spell": "Sleep"}),
    combat({"action": "spend", "id": "Cal", "cost": 2, "what": "a drink from a flask"}),
    combat({"action": "reorient", "id": "Boss"}),
    combat({"action": "next_round"}),
    combat({"action": "attack", "attacker": "Ana", "target": "Hench", "modifier": 60}),
    combat({"action": "answer_direct_hit", "pay": False}),
    combat({"action": "extra_action"}),
    combat({"action": "attack", "attacker": "Ana", "target": "Boss", "modifier": 60}),
    combat({"action": "answer_direct_hit", "pay": True}),
    combat({"action": "end_turn"}),
    combat({"action": "morale", "id": "Boss"}),
    combat({"action": "leave", "id": "Cal", "status": "down"}),
    combat({"action": "end_combat"}),
]
"""The GM's fight of the choices a walk rarely reaches: a tactician's free action, a shot
stored, released and lost, extra degrees spent, an order, a shot into a mêlée, a spell
declared, a respite action, a direct hit, a morale check, the fight's end."""


STRAINING = {"forced_bout_hp_loss": "1d6"}
"""A table whose forced bouts cost HP (C3-G07)."""

SHEETS = [
    (ADA, {"kind": "stow-gear", "character": "c1", "gear": {"name": "pack", "size": "backpack"}}),
    (ADA, {"kind": "stow-gear", "character": "c1", "gear": {"name": "purse", "size": "purse"}}),
    (ADA, {"kind": "coins", "character": "c1", "amount": 50, "reason": "loot"}),
    (ADA, {"kind": "prepare-spells", "character": "c1", "spells": ["Sleep"]}),
    (ADA, {"kind": "cast-spell", "character": "c1", "spell": "Sleep"}, [42]),
    (ADA, {"kind": "cast-spell", "character": "c1", "spell": "Sleep", "ritual": True}, [15, 3]),
    *[(GM, {"kind": "award-xp", "character": "c1", "amount": 3000, "reason": "the hoard"})] * 3,
    (ADA, {"kind": "rations", "character": "c1", "food": 0}),
    *[(GM, {"kind": "march", "terrain": "road"})] * 4,
    (ADA, {"kind": "rations", "character": "c1", "food": 3}),
    (GM, {"kind": "march", "terrain": "road"}),
]
"""Ada's sheet at the table: coins, a spell prepared and cast and a ritual, levels of
experience, and days of marching without food and then with it."""


STAND = [
    add(id="Ana", name="Ana", side="party", hp=30),
    add(id="Boss", name="Boss", side="foes", hp=40, ac=10, can_defend_as_reaction=True),
    add(id="Hench", name="Hench", side="foes", henchman=True, commander="Boss", hp=3),
    *[
        combat({"action": "set_initiative", "id": who, "value": value})
        for who, value in (("Ana", 30), ("Boss", 20))
    ],
    combat({"action": "begin"}),
    combat({"action": "command", "commander": "Boss", "followers": ["Hench"]}),
    combat({"action": "attack", "attacker": "Ana", "target": "Boss", "modifier": 40}),
    combat({"action": "answer_shield", "raise_shield": True}),
    combat({"action": "answer_direct_hit", "pay": True}),
    combat({"action": "end_turn"}),
    combat({"action": "end_turn"}),
    combat({"action": "force_bout"}),
]
"""A stand where the foes pay for what they do out of turn: the boss's order on Ana's turn
(§ 5.11), a shield raised after the roll (§ 5.4), and a bout forced on at a table whose
forced bouts cost 1d6 HP (§ 5.8; C3-G07)."""

STARVING = [
    (ADA, {"kind": "rations", "character": "c1", "food": 0}),
    *[(GM, {"kind": "camp"})] * 4,
    (ADA, {"kind": "rations", "character": "c1", "food": 3}),
    (GM, {"kind": "camp"}),
]
"""Ada (strength 9) goes without food until starvation sets in on the third day, starves a
day, then eats a day: the starvation ends, the fast goes on (§ 15.3–15.4)."""


@cache
def walks() -> tuple[Walk, ...]:
    """Seeded walks of a table and of a fight with hidden NPCs, most steps a choice of the
    fight where one is open, and the scenes above."""
    done = [scene(SESSION, SESSION.new(), [(GM, intent) for intent in SCENE])]
    done.append(scene(SESSION, SESSION.new(STRAINING), [(GM, intent) for intent in STAND]))
    done.append(scene(SESSION, seated(), STARVING))
    done += [scene(SESSION, seated(), SHEETS, seed) for seed in range(3)]
    done.append(scene(SESSION, sage(), LISTS_SCENE))
    for table, seed in [(t, s) for t in (TABLE, HIDDEN_TABLE) for s in range(12)]:
        done.append(_walk(table, seed))
    return tuple(done)


LISTS_SCENE = [
    (GM, CLIMBING),
    (GM, FLAME),
    (GM, {"kind": "learn-spell", "character": "c1", "spell": "Flame dart", "owed": False}),
    (GM, {"kind": "drop-listed", "list": "skill", "name": "climbing"}),
]
"""The referee's skill and spell lists, which the walks leave out (C3-S08)."""


def _walk(table: Table, seed: int) -> Walk:
    chance = random.Random(seed)

    def pick(items):
        items = off_the_lists(items)
        if items and isinstance(items[0], tuple) and hasattr(items[0][1], "closed"):
            fight = [item for item in items if item[1].kind == "combat" and item[1].closed]
            if fight and chance.random() < 0.7:
                items = fight
        return chance.choice(items)

    return table.walk(pick, 40, seed)


read = read_as(SESSION, (GM, ADA))
"""The line as the GM and as a player read it (text and hint)."""


def test_no_line_of_the_walks_holds_code():
    assert lines_with_code(walks(), read, WORDS) == set()


def test_each_line_of_the_walks_names_who_it_is_about():
    """ "Ada: fatigue 2", "Ada's strength save: …", "Ada's torch goes out": never a line
    that leaves the table to guess whose it is (a roll in a mode names whose player made
    it)."""

    def about(before: ConstitutionTable, step: Step) -> set[str]:
        return names(before, step.state) | {step.member.name or "the GM"}

    assert nameless_lines(walks(), read, about, IMPERSONAL) == set()


def test_the_walks_reach_the_lines_of_the_fight_and_the_road():
    """The walks above are worth what they reach: every part of a fight's blow, the injury
    saves, the day's supplies and the lights."""
    reached = {event.type for walk in walks() for event in walk.events}
    assert {
        "attack",
        "extra_degrees",
        "damage_roll",
        "damage",
        "strength_save",
        "will_save",
        "wound",
        "collapsed",
        "direct_hit",
        "defence",
        "morale",
        "initiative",
        "reaction",
        "hit_points",
        "fatigue",
        "penalty",
        "supper",
        "light",
        "hunt",
        "ability",
        "tactical",
        "stored",
        "stored_released",
        "stored_lost",
        "degrees_spent",
        "command",
        "stray_shot",
        "casting",
        "spell",
        "spend",
        "left",
        "over",
    } <= reached


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


NOT_REACHED = frozenset({"blessing", "penance", "improved", "not_improved", "spell_improved"})
"""Kinds of line only the library writes: no intent of the table asks for a blessing
(`magic.ask_blessing`, § 11), rolls the end of a session's improvement (`improvement_roll`,
§ 4.9) or a spell's (`spell_improvement`, § 12.15), so no walk can reach them
(docs/architecture.md, "The words a table shows"). The lint reads their words below."""


def test_every_kind_of_line_the_rules_write_is_reached():
    """The lint reads a kind of line only once a walk or the scene writes it: a kind the
    rules begin to write fails here until one does (and one reached leaves the list)."""
    assert unreached(written_kinds("tabletop.systems.constitution"), walks()) == NOT_REACHED


def test_no_part_of_the_table_calls_what_writes_the_kinds_not_reached():
    """Why `NOT_REACHED` cannot be reached at a table: nothing in the system calls the
    library functions that write those lines, so no intent can."""
    library = {"ask_blessing", "improvement_roll", "spell_improvement"}
    assert callers("tabletop.systems.constitution", library) == set()


def test_the_lines_only_the_library_writes_read_as_words():
    """The kinds no table reaches, written by the library on fixed dice: a blessing asked
    for a selfish purpose and its penance (§ 11.1–11.3), an improvement roll that fails once
    and then raises a score (§ 4.9), a spell's rating improved (§ 12.15)."""
    priest = make_character(name="Ada", character_class="sage", initiations=("ordained",))
    _, _, blessed = ask_blessing(priest, "the bridge", "revenge", just=False)
    _, tried = improvement_roll(priest, ["strength", "wits"], FixedDice([3, 20]))
    caster = priest.evolve(spells={"Sleep": KnownSpell(level=1, rating=40)}, cast_this_session=True)
    _, improved = spell_improvement(caster, "Sleep", FixedDice([12, 4]))
    lines = [*blessed, *tried, *improved]
    assert {line.kind for line in lines} == NOT_REACHED
    assert [(line.kind, line.message) for line in lines if code_in(line.message, WORDS)] == []
    assert all("Ada" in line.message for line in lines)
