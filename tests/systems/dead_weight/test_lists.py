"""The lists a Dead Weight GM keeps in the room, and guided creation picking from them
(docs/rules/dead-weight.md, DW-T07): what the book leaves to the Blacksalt book is the GM's
to write or load, creation offers nothing else, and an empty list says so."""

from __future__ import annotations

from typing import Any

import pytest

from tabletop.dice import SeededDice
from tabletop.errors import PermissionDenied, TabletopError
from tabletop.session import Member, Offer
from tabletop.systems.dead_weight import SESSION, Attribute
from tabletop.systems.dead_weight.creation import Stage
from tabletop.systems.dead_weight.session import DeadWeightTable

GM = Member.gm()
ADA = Member.player("p1", "Ada")

FILE = """
[backgrounds.Footman]
class = "warrior"
traits = ["hardened"]
maneuvers = ["Shield bash", "Hold the line"]
silver = "2d6"
items = [{ name = "spear", weapon = "STR 1P+2", place = "right hand" }]

[schools."Necromancers of Yadar"]
spells = ["Bone dart", "Grave chill", "Dead speak", "Rot touch"]

[gods.Yulak]
prayers = ["Smite"]
"""


def play(state: DeadWeightTable, intent: dict[str, Any], member: Member, seed: int = 1):
    events = SESSION.resolve(state, intent, member, SeededDice(seed))
    for event in events:
        state = SESSION.fold(state, event)
    return state, events


def offered(state: DeadWeightTable, kind: str, member: Member = ADA) -> list[Offer]:
    return [o for o in SESSION.legal(state, member) if o.kind == kind]


def made_to(state: DeadWeightTable, stage: Stage, cls: str, seed: int = 3) -> DeadWeightTable:
    """Ada's guided character of `cls`, its life path kept as rolled, up to `stage`."""
    new = {"kind": "new-character", "name": "Wren", "guided": True, "character_class": cls}
    state, _ = play(state, new, ADA, seed)
    while (decision := state.making["c1"].creation.decision()).stage != stage:
        closed = next(o for o in offered(state, "creation-choice") if o.closed)
        picks = [i for i in closed.intents if i["choice"]["kind"] != "skip"]
        state, _ = play(state, (picks or closed.intents)[0], ADA, seed)
        assert decision is not None
    return state


def step(state: DeadWeightTable) -> dict[str, Any]:
    return SESSION.view(state, ADA)["making"][0]["step"]


def test_a_wizard_ticks_spells_from_the_gms_list_of_their_school():
    """DW-T07, § Spells: as many spells as INT, from the school's list the GM wrote."""
    spells = ["Bone dart", "Grave chill", "Dead speak", "Rot touch"]
    keep = {"kind": "keep-spells", "school": "Necromancers of Yadar", "spells": spells}
    state, (line,) = play(SESSION.new(), keep, GM)
    assert line.text == (
        "the GM writes the spells of the Necromancers of Yadar: "
        "Bone dart, Grave chill, Dead speak, Rot touch"
    )
    state = made_to(state, Stage.SCHOOL, "wizard")
    school = {"kind": "pick", "name": "Necromancers of Yadar"}
    state, _ = play(state, {"kind": "creation-choice", "character": "c1", "choice": school}, ADA)
    count = state.making["c1"].creation.decision().count
    assert count == state.making["c1"].creation.character.attribute(Attribute.INT).score
    (form,) = offered(state, "choose-names")
    assert form.fields["names"].items == tuple(spells)
    assert step(state)["from"].startswith("From the GM's list of the spells of the Necromancers")
    wrong = {"kind": "choose-names", "character": "c1", "names": ["Fireball"]}
    with pytest.raises(TabletopError, match="pick each from the list"):
        SESSION.resolve(state, wrong, ADA, SeededDice(1))
    chosen = {"kind": "choose-names", "character": "c1", "names": spells[:count]}
    state, _ = play(state, chosen, ADA)
    assert state.characters["c1"].sheet.magic.spells_known == tuple(spells[:count])


def test_an_empty_spell_list_says_the_gm_has_not_written_it_and_how():
    """DW-T07: no list, nothing invented: the step says so, the player may write names in
    or skip, and a skip stays on the sheet under what creation left out."""
    state = made_to(SESSION.new(), Stage.SCHOOL, "wizard")
    pick = {"kind": "pick", "name": "The Awakened"}
    state, _ = play(state, {"kind": "creation-choice", "character": "c1", "choice": pick}, ADA)
    said = step(state)["from"]
    assert said.startswith("The GM has not written the spells of The Awakened yet")
    assert "“Write … on the table's list”" in said and "supplement file" in said
    (form,) = offered(state, "choose-names")
    assert form.fields["names"].items is None and form.fields["names"].example is None
    skip = {"kind": "creation-choice", "character": "c1", "choice": {"kind": "skip"}}
    state, _ = play(state, skip, ADA)
    seat = SESSION.view(state, ADA)["characters"][0]
    assert seat["left_out"] == ["spells: skipped, to be written on the sheet"]


def test_a_footman_off_the_list_gets_no_gear_and_the_sheet_says_why():
    """§ Warrior: a warrior's gear and silver are the background's (Blacksalt book). With no
    Footman on the GM's list the warrior starts with no weapon and no silver, and the page
    says why; loaded from the group's file, the same Footman brings its spear, trait and
    2d6 silver."""
    state = made_to(SESSION.new(), Stage.BACKGROUND, "warrior")
    words = step(state)
    assert "Footman" in words["from"] and "has not written any yet" in words["from"]
    pick = {"kind": "pick", "name": "Footman"}
    footman = {"kind": "creation-choice", "character": "c1", "choice": pick}
    bare, _ = play(state, footman, ADA)
    sheet = bare.characters["c1"].sheet
    assert sheet.silver == 0 and not any(item.weapon for item in sheet.inventory.items())
    (why,) = SESSION.view(bare, ADA)["characters"][0]["left_out"][:1]
    assert why.startswith("background Footman: its special trait, gear, silver and maneuvers")

    loaded, (line,) = play(state, {"kind": "load-lists", "file": FILE}, GM)
    assert line.text == (
        "the GM loads the group's supplement file: 1 background, 1 school's spells, 1 god, 0 items"
    )
    assert "On the GM's list: Footman." in step(loaded)["from"]
    loaded, _ = play(loaded, footman, ADA)
    maneuver = next(o for o in offered(loaded, "creation-choice") if o.closed)
    assert [i["choice"]["name"] for i in maneuver.intents if "name" in i["choice"]] == [
        "Shield bash",
        "Hold the line",
    ]
    loaded, _ = play(loaded, maneuver.intents[0], ADA)
    sheet = loaded.characters["c1"].sheet
    assert "hardened" in sheet.traits and sheet.maneuvers == ("Shield bash",)
    assert sheet.silver >= 2 and "spear" in [item.name for item in sheet.inventory.items()]


def test_only_the_gm_keeps_the_lists_and_a_bad_file_changes_nothing():
    """DW-T07: a player cannot write a list; a file that is not TOML, names a school the
    book does not, or breaks a bound is refused with a line and the table unchanged."""
    god = {"kind": "keep-god", "name": "Yulak", "prayers": ["Smite"]}
    with pytest.raises(PermissionDenied):
        SESSION.resolve(SESSION.new(), god, ADA, SeededDice(1))
    for text, said in (
        ("[schools", "neither TOML nor JSON"),
        ('[schools."Frost Mages"]\nspells = ["Ice"]', "not a school of magic the book names"),
        ('[gods.Yulak]\nprayers = "Smite"', "the supplement file"),
        (
            '[backgrounds.Footman]\nclass = "warrior"\nsilver = "banana"',
            "silver is dice such as 2d6",
        ),
    ):
        with pytest.raises(TabletopError, match=said):
            SESSION.resolve(SESSION.new(), {"kind": "load-lists", "file": text}, GM, SeededDice(1))
    many = {"kind": "keep-god", "name": "Many", "prayers": [f"p{i}" for i in range(101)]}
    with pytest.raises(TabletopError):
        SESSION.resolve(SESSION.new(), many, GM, SeededDice(1))
    state, long = SESSION.new(), ["p" * 190 + f"{i:03}" for i in range(100)]
    for god in range(12):  # gods of 100 prayers of 193 letters: 10 of them about 196,000
        keep = {"kind": "keep-god", "name": f"g{god}", "prayers": long}
        try:
            state, _ = play(state, keep, GM)
        except TabletopError as refused:
            assert "would be over 200,000 characters" in str(refused) and god == 10
            break
    else:
        pytest.fail("the lists grew past their bound")


def test_the_gm_writing_a_list_reaches_a_character_being_made_and_dropping_takes_it_away():
    """DW-T07: a character in the making picks from the lists as they are now."""
    state = made_to(SESSION.new(), Stage.GOD, "cleric")
    assert offered(state, "choose-names")[0].fields["names"].items is None
    state, _ = play(state, {"kind": "keep-god", "name": "Yulak", "prayers": ["Smite"]}, GM)
    closed = next(o for o in offered(state, "creation-choice") if o.closed)
    assert {"kind": "pick", "name": "Yulak"} in [i["choice"] for i in closed.intents]
    assert not offered(state, "choose-names")
    state, (line,) = play(state, {"kind": "drop-listed", "list": "god", "name": "Yulak"}, GM)
    assert line.text == "the GM takes Yulak off the table's god list"
    assert SESSION.view(state, ADA)["lists"]["empty"].startswith("The GM has not written any")


def test_life_path_dice_are_re_rolled_by_their_place_in_the_roll():
    """DW-A02: re-rolling with insight, the dice named by place (the first die is 1)."""
    new = {"kind": "new-character", "name": "Wren", "guided": True}
    state, _ = play(SESSION.new(), new, ADA, 3)
    before = state.making["c1"].creation.dice
    (form,) = offered(state, "reroll-dice")
    assert form.fields["dice"].items == tuple(range(1, len(before) + 1))
    state, _ = play(state, {"kind": "reroll-dice", "character": "c1", "dice": [2]}, ADA, 9)
    after = state.making["c1"].creation
    assert after.dice[0] == before[0] and after.character.insight == 0
