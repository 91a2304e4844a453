"""Every line a Dead Weight table writes reads as a person would say it (issue 30, item 2):
it names the adventurer or enemy it is about, and holds no id, snake_case or kebab-case
name, Python value or JSON, over seeded walks of a table and of one with hidden enemies
that lean on tests and attacks. Dice lists such as `[4, 1]` and Ud8 are words."""

from __future__ import annotations

import random
import re
from functools import cache

from tabletop.dice import FixedDice
from tabletop.session import Member
from tabletop.systems.dead_weight import (
    Affliction,
    ArmourPart,
    Attribute,
    Item,
    LifePath,
    LightKind,
    PlaceKind,
    Quirk,
    QuirkRule,
    Skill,
    TestSetup,
    Trauma,
    camp_repair,
    create_food_and_water,
    decay_lights,
    encumbered_turn,
    gain_affliction,
    light,
    see_spell_cast,
    start_test,
    unveil_true_past,
)
from tabletop.systems.dead_weight import stow as packed
from tests.lines import (
    code_in,
    engine_lines,
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
from tests.systems.dead_weight.helpers import character
from tests.systems.dead_weight.test_fights import table as fight_table
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
from tests.systems.dead_weight.test_sheet_session import CLERIC, WIZARD, seated
from tests.systems.playing import played

WORDS = frozenset({"re-roll", "re-rolls", "re-rolled", "re-rolling", "zero-dice", "mid-life"})
"""The book's and English's hyphenated words a line may hold."""

HIDDEN_TABLE = Table(
    SESSION, [GM, ADA, BO, WATCHER], filler=fill_with_enemies, start=with_hidden_enemies
)


def stow(item: dict, place: str) -> tuple:
    return (ADA, {"kind": "stow-item", "character": "c1", "item": item, "place": place})


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


def struck(target: str, wounds: int) -> list[tuple]:
    """The Wight hits `target` (its 6 and 3, DW-M50) and the GM gives the blow's wounds."""
    attack = {"kind": "attack", "attacker": "n1", "target": target, "setup": {"attribute": "STR"}}
    return [(GM, attack, [6, 3]), (GM, {"kind": "blow", "wounds": wounds})]


def placed(member: Member, where: list[str], faces: list[int] | None = None) -> tuple:
    """The struck character's player places the wounds (none: no attribute holds one)."""
    intent = {"kind": "place-wounds", "placements": [{"attribute": a} for a in where]}
    return (member, intent, faces or [])


def stabilised(cid: str) -> tuple:
    return (GM, {"kind": "stabilise", "character": cid, "means": "first aid kit"})


EMPTY = {a: {"score": 0} for a in ("STR", "DEX", "INT", "PRE")}
COLE = {"name": "Cole", "attributes": EMPTY, "traits": ["rejected by death"]}
DANA = {"name": "Dana", "attributes": {**EMPTY, "STR": {"score": 1, "proficiency": 1}}}

FIGHT = [
    (BO, {"kind": "import-character", "sheet": COLE}),
    (BO, {"kind": "import-character", "sheet": DANA}),
    *struck("c1", 3),
    (ADA, {"kind": "no-armour"}),
    (ADA, {"kind": "hardened", "answer": "decline"}),
    placed(ADA, ["STR", "STR", "DEX"]),
    *struck("c3", 3),
    placed(BO, [], [2, 3, 3]),
    (BO, {"kind": "wound-choice", "character": "c3", "answer": "visions"}),
    stabilised("c3"),
    *struck("c3", 1),
    placed(BO, [], [1, 3]),
    *struck("c4", 2),
    placed(BO, ["STR"], [2]),
    stabilised("c4"),
    *struck("c4", 1),
    placed(BO, [], [3]),
    stabilised("c4"),
    *struck("c4", 1),
    placed(BO, [], [2]),
    *struck("c4", 1),
    placed(BO, []),
    (GM, {"kind": "wounds", "character": "c4", "placements": [{"attribute": "STR"}]}),
]
"""A fight's ends (DW-T02): Amber rolls no armour and declines Hardened (DW-A35); Cole, who
can hold no wound, is refused by death's 2d! (DW-A37), rolls a lasting scar (the blow's
rest discarded, DW-A15), chooses Visions for it and is stabilised, and death rejects him the
next time; Dana's mortal wounds bring chronic pain (her only score drops), brain damage
(her only proficiency drops) and brain damage again (DW-M47, M53, A18), then a blow kills
her, and harm to the dead changes nothing."""

MISHAPS_WIZARD = {
    "name": "Amber",
    "traits": ["magic user", "bad omens"],
    "attributes": {"INT": {"score": 3}},
    "magic": {
        "spells_known": ["Bolt", "Ward", "Haze"],
        "spells_memorised": ["Bolt", "Ward", "Haze"],
    },
}
"""Amber as a wizard of INT 3 with Bad omens, three spells memorised."""


def cast(spell: str, faces: list[int]) -> tuple:
    return (ADA, {"kind": "cast-spell", "character": "c1", "spell": spell}, faces)


def studied(spell: str) -> tuple:
    return (ADA, {"kind": "study", "character": "c1", "spell": spell})


def by_cole(faces: list[int], **setup: bool) -> tuple:
    return (BO, {"kind": "test", "roller": "c3", "setup": {"attribute": "INT", **setup}}, faces)


MISHAPS = [
    stow({"name": "wand", "tags": ["conductor"]}, "belt"),
    stow({"name": "grimoire", "tags": ["grimoire"]}, "bag"),
    cast("Bolt", [6, 6, 2]),
    cast("Bolt", []),
    cast("Ward", [1, 2, 3, 1, 1, 2]),
    cast("Haze", [1, 2, 1, 1, 2]),
    cast("Bolt", [1, 1, 1, 2]),
    studied("Bolt"),
    cast("Bolt", [1, 2, 1, 1, 1]),
    studied("Bolt"),
    cast("Bolt", [1, 2, 3, 3, 3]),
    (BO, {"kind": "import-character", "sheet": {"name": "Cole", "traits": ["dauntless"]}}),
    by_cole([5, 2], extra_effort=True),
    (BO, {"kind": "dauntless", "roll": True}, [6, 3]),
    by_cole([5, 2], burden=True),
    (GM, {"kind": "new-session"}),
]
"""A great success's arcane well and the spell it makes automatic (DW-A20); four critical
failures, each with Bad omens' line (DW-M52) and a mishap a row further down (DW-A18): a
loud noise, blindness, Shaken, Shaken again, the conductor shattered (DW-M19); and Cole's
test with extra effort (DW-A11), his Dauntless dice (DW-A36), and one on his burden
(DW-M09), which a new session gives back."""

MIRACLE_CLERIC = {**CLERIC, "attributes": {"PRE": {"score": 2}}}


def prayed(faces: list[int]) -> tuple:
    return (ADA, {"kind": "pray", "character": "c1", "prayer": "Light"}, faces)


MIRACLES = [
    PRAYERS[0],
    prayed([6, 6, 3]),
    prayed([6, 6, 1, 4]),
    *[
        step
        for row in (2, 4, 5, 6)
        for step in ((ADA, {"kind": "rest-at-camp", "character": "c1"}), prayed([6, 6, row]))
    ],
    (ADA, {"kind": "rest-at-camp", "character": "c1"}),
    prayed([1, 2]),
    (ADA, {"kind": "sacrifice", "character": "c1"}),
]
"""Every row of the miracle table, each after a great success on a prayer (DW-M23; camp
readies the prayer again), then a critical failure that angers the god until a sacrifice."""


def camp_table() -> DeadWeightTable:
    """Amber, a sleepy coffee addict, played by Ada; Brom, a sleepy loud snorer, by Bo."""
    state = SESSION.new()
    for member, name, quirk in ((ADA, "Amber", "coffee addict"), (BO, "Brom", "loud snore")):
        quirks = [{"name": quirk.capitalize(), "rule": quirk}]
        sheet = {"name": name, "afflictions": ["sleepy"], "quirks": quirks}
        state, _ = played(SESSION, state, {"kind": "import-character", "sheet": sheet}, member)
    return state


CAMP = [
    (
        GM,
        {
            "kind": "wounds",
            "character": "c1",
            "placements": [{"attribute": "STR"}],
            "in_combat": True,
        },
    ),
    (ADA, {"kind": "rest-at-camp", "character": "c1"}),
    (BO, {"kind": "rest-at-camp", "character": "c2", "snore": "sleepy"}),
    (BO, {"kind": "rest-at-camp", "character": "c2", "snore": "ambush"}),
    stow({"name": "coffee", "tags": ["coffee"]}, "bag"),
    (ADA, {"kind": "use-item", "character": "c1", "place": "bag", "index": 0}),
    stow({"name": "coffee", "tags": ["coffee"]}, "bag"),
    (ADA, {"kind": "use-item", "character": "c1", "place": "bag", "index": 0}),
]
"""Amber, a sleepy coffee addict, stays Sleepy through a wound in combat and a night at
camp, then has her coffee twice; Brom, a sleepy loud snorer, keeps Sleepy one night and
snores an ambush die the next (quirks 4 and 6, DW-X22)."""

KEEP = {"kind": "creation-choice", "character": "c1", "choice": {"kind": "keep"}}
MAKING = [
    (
        GM,  # a chosen feature is the GM's to allow (DW-M10): the GM begins Wren for Ada
        {
            "kind": "new-character",
            "name": "Wren",
            "guided": True,
            "allow_choosing_quirk": True,
            "owner": ADA.id,
        },
        [1, 1, 1],
    ),
    (ADA, KEEP, [2, 2, 2]),
    (ADA, {"kind": "reroll-dice", "character": "c1", "dice": [1]}, [3]),
    (ADA, KEEP, [3, 3, 4]),
    (ADA, KEEP, [1, 2]),
    (ADA, KEEP),
    (
        ADA,
        {
            "kind": "creation-choice",
            "character": "c1",
            "choice": {"kind": "pick", "name": "Coffee addict"},
        },
    ),
]
"""Wren's life path: Tossed in the Pit's insight point, spent on re-rolling a career die
(DW-A02), and a quirk chosen, not rolled (DW-M10)."""


@cache
def walks() -> tuple[Walk, ...]:
    """Seeded walks of the table and of one with hidden enemies, most steps a choice of a
    test or an attack where one is open, and the scenes above (the first two on several
    seeds, the rest on fixed faces)."""
    done = [scene(SESSION, seated(WIZARD), MAGIC, seed) for seed in range(6)]
    done += [scene(SESSION, seated(CLERIC), PRAYERS, seed) for seed in range(6)]
    done.append(scene(SESSION, SESSION.new(), LISTS_SCENE))
    done.append(scene(SESSION, fight_table(), FIGHT))
    done.append(scene(SESSION, seated(MISHAPS_WIZARD), MISHAPS))
    done.append(scene(SESSION, seated(MIRACLE_CLERIC), MIRACLES))
    done.append(scene(SESSION, camp_table(), CAMP))
    done.append(scene(SESSION, SESSION.new(), MAKING))
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
        "dropped",
        "food and water",
        "light",
        "patience",
        "repair",
        "stun",
        "true past",
    }
)
"""Kinds of line only a rule no table calls yet writes, so no walk or scene can reach them
(docs/rules/dead-weight.md, "Not built yet at the table"); `rules_only` reads them from
the rules themselves:

- dropped: an encumbered adventurer's STR test each turn (DW-M55, `encumbered_turn`); no
  intent asks for it, and a table's turns (DW-T05) do not test it.
- food and water: the basic prayer Create food and water (`create_food_and_water`); a
  prayer answered at a table does nothing of its own (what a prayer does is the caller's).
- light: the lights' usage dice at a decay (`decay_lights`); a table keeps no light sources.
- patience: an Extremely patient character about to turn Angry (quirk 23); nothing at a
  table makes anyone Angry (a mishap's spreading anger falls on others, told, not applied).
- repair: a crafter's camp-phase repair (`camp_repair`); no intent asks for it.
- stun: the Visions trauma's stun token when someone nearby casts (`see_spell_cast`); a
  table does not know who is nearby.
- true past: quirk 24's camp-phase re-roll of the infancy (`unveil_true_past`); no intent
  asks for it."""


def rules_only() -> dict[str, list[str]]:
    """The lines of `NOT_REACHED`, each from its rule called on Amber (and Brom, who crafts)
    on fixed faces, by kind."""
    amber = character(Attribute.STR, score=0, name="Amber")
    lines: dict[str, list[str]] = {}

    def keep(change: tuple) -> None:
        for line in change[-1]:
            lines.setdefault(line.kind, []).append(line.text)

    laden = amber.inventory
    for name in "abcdefgh":
        laden = packed(laden, Item(name=name))
    laden_amber = amber.model_copy(update={"inventory": laden})
    failed, _ = start_test(laden_amber, TestSetup(attribute=Attribute.STR), FixedDice([2, 3]))
    keep(encumbered_turn(laden_amber, failed, FixedDice([2])))
    keep(create_food_and_water(amber))
    keep(decay_lights([light(LightKind.TORCH), light(LightKind.LIGHT_SPELL)], FixedDice([1])))
    patient = amber.model_copy(
        update={"quirks": (Quirk(name="Extremely patient", rule=QuirkRule.EXTREMELY_PATIENT),)}
    )
    for faces in ([1, 3], [2, 3]):
        keep(gain_affliction(patient, Affliction.ANGRY, FixedDice(faces)))
    coat = Item(name="scale coat", armour=(ArmourPart(points=0, maximum=2),))
    wearer = amber.model_copy(update={"inventory": packed(amber.inventory, coat, PlaceKind.TORSO)})
    brom = character(name="Brom", skills=[Skill.CRAFTING])
    keep(camp_repair(brom, wearer, "scale coat"))
    keep(see_spell_cast(amber.model_copy(update={"traumas": (Trauma.VISIONS,)})))
    past = Quirk(name="Deep and murky past", rule=QuirkRule.DEEP_AND_MURKY_PAST)
    murky = amber.model_copy(
        update={"quirks": (past,), "life_path": LifePath(infancy="Tossed in the Pit")}
    )
    keep(unveil_true_past(murky, FixedDice([6, 6, 5, 1, 1, 1, 1])))
    return lines


def test_the_lines_no_table_writes_yet_read_as_words_and_name_whom_they_are_about():
    """What the rules of `NOT_REACHED` write, held to what a table's lines are held to, so
    a table that comes to call them shows words (a light's usage die is about the light)."""
    lines = rules_only()
    assert set(lines) >= NOT_REACHED
    assert [text for texts in lines.values() for text in texts if code_in(text, WORDS)] == []
    about = [text for kind, texts in lines.items() if kind != "light" for text in texts]
    assert [text for text in about if "Amber" not in text and "Brom" not in text] == []


def test_every_kind_of_line_the_rules_write_is_reached():
    """The lint reads a kind of line only once a walk or the scene writes it: a kind the
    rules begin to write fails here until one does (and one reached leaves the list)."""
    assert unreached(written_kinds("tabletop.systems.dead_weight"), walks()) == NOT_REACHED


def test_no_line_shows_the_dice_engines_own_marks():
    """DW-T06, rules version 6: risk dice read `3d!: 4, 2 and 4, no 1`, never `(no risk) = 0`."""
    assert engine_lines(walks(), read) == set()


def test_a_class_reads_by_its_name_and_risk_dice_as_they_fell():
    """DW-T06, rules version 6 (docs/rules/dead-weight.md): `Wren's class: Warrior`, never
    `class: warrior`; the starting gear's risk dice as the book writes them and as they fell
    (`Wren's camping supply on 3d!: 4, 2 and 4, no 1: none`), never the dice engine's
    `3d! → [4, 2, 4] (no risk) = 0`; a life-path roll and silver as they fell (`Wren's
    infancy roll, 3d6: 1, 1 and 1 = 3`, `silver on 2d4: 3 and 1 = 4`); an insight re-roll
    names its dice in words, not as `[1]`."""
    lines = [(event.type, event.text) for walk in walks() for event in walk.events]
    classes = [text for kind, text in lines if kind == "class"]
    assert classes
    assert [
        t for t in classes if not re.search(r"'s class: (Warrior|Thief|Wizard|Cleric)$", t)
    ] == []
    risked = [text for kind, text in lines if kind == "gear" and "d!" in text]
    assert risked
    rolled = [text for kind, text in lines if kind in ("life path roll", "silver")]
    fell = re.compile(r"'s (?:\w+ roll,|silver on) \d+d\d+: \d")
    assert rolled
    assert [text for text in rolled if not fell.search(text) or "→" in text] == []
    rerolled = [text for kind, text in lines if kind == "life path reroll"]
    assert rerolled == ["Wren's career: re-rolled die 1 with an insight point: 3, 2 and 2"]
    shape = re.compile(r"'s [a-z ]+ on \dd!: \d(, \d)*( and \d)?, (a|no) 1: (one packed|none)$")
    assert [text for text in risked if not shape.search(text)] == []
