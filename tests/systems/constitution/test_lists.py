"""The skills and spells a Constitution referee keeps for the table (docs/rules/
constitution.md, C3-S08): a skill used for the first time is rated from the list once there
is one; a character with a spell book learns a spell from it, researched at 50% with a
research owed (§ 12.8–12.9), researched at random (C3-S10) or given by the referee
(C3-A48); nothing is invented."""

from __future__ import annotations

import pytest

from tabletop.dice import FixedDice
from tabletop.errors import PermissionDenied, TabletopError
from tabletop.systems.constitution import SESSION
from tabletop.systems.constitution.session import ConstitutionTable
from tests.lines import code_in
from tests.systems.constitution.test_session import ADA, ADA_DICE, GM, play

FLAME = {"kind": "keep-spell", "name": "Flame dart", "level": 1, "school": "fire"}
STORM = {"kind": "keep-spell", "name": "Fire storm", "level": 3, "school": "fire"}
CLIMBING = {"kind": "keep-skill", "name": "climbing", "note": "walls, trees and rigging"}


def sage() -> ConstitutionTable:
    """Mira, a sage initiated in Goetia (§ 8.3: a spell book, first-level spells)."""
    mira = {"kind": "new-character", "name": "Mira", "character_class": "sage"}
    state, _ = play(SESSION.new(), {**mira, "initiation": "goetia"}, ADA, ADA_DICE)
    return state


def offered(state: ConstitutionTable, kind: str, member=ADA) -> list:
    return [o for o in SESSION.legal(state, member) if o.kind == kind]


def refused(state: ConstitutionTable, intent: dict, member, said: str) -> None:
    with pytest.raises(TabletopError, match=said):
        SESSION.resolve(state, intent, member, FixedDice(()))


def test_c3s08_a_first_rating_picks_from_the_referees_skill_list_once_there_is_one():
    """§ 4.11, C3-S02, C3-S08: with no list the sheet names the skill; with one, it picks."""
    state = sage()
    (first,) = [o for o in offered(state, "rate-skill") if o.entry == "skills"]
    assert first.fields["skill"].values is None
    view = SESSION.view(state, ADA)["lists"]
    assert view["empty"] == (
        "No skills or spells on the table's lists yet: "
        "the referee writes each under “Write … on the table's list” or loads the group's "
        "list file."
    )
    refused(state, CLIMBING, ADA, "the GM may")
    state, (line,) = play(state, CLIMBING, GM)
    assert line.text == "the GM writes the skill climbing on the list: walls, trees and rigging"
    (first,) = [o for o in offered(state, "rate-skill") if o.entry == "skills"]
    assert first.fields["skill"].values == ("climbing",)
    swim = {"kind": "rate-skill", "character": "c1", "skill": "swimming", "rating": 30}
    refused(state, swim, GM, "not on the referee's skill list")
    state, _ = play(state, {**swim, "skill": "climbing"}, ADA)
    assert state.characters["c1"].sheet.skills == {"climbing": 30}
    assert not [o for o in offered(state, "rate-skill") if o.entry == "skills"]


def test_c3s08_a_sage_researches_a_spell_from_the_list_at_fifty_per_cent():
    """§ 8.3, § 12.8–12.9: Goetia opens first-level spells; a research is owed on gaining a
    level; the researched spell starts at 50%. The referee gives the first spell (C3-A48)."""
    state = sage()
    for spell in (FLAME, STORM):
        state, _ = play(state, spell, GM)
    assert not offered(state, "learn-spell")  # no research owed yet
    (gift,) = offered(state, "learn-spell", GM)
    assert gift.fields["spell"].values == ("Flame dart",)  # level 3 is not Goetia's
    assert gift.fields["owed"].values == (False,)
    learn = {"kind": "learn-spell", "character": "c1", "spell": "Flame dart"}
    refused(state, {**learn, "owed": False}, ADA, "the GM may")
    given, (line,) = play(state, {**learn, "owed": False, "rating": 40}, GM)
    assert line.text == "Mira is given Flame dart (level 1, fire): 40%"
    assert given.characters["c1"].sheet.spells["Flame dart"].rating == 40

    state, _ = play(state, {"kind": "award-xp", "character": "c1", "amount": 2000}, GM)
    assert state.characters["c1"].sheet.research_owed == 1
    (research,) = offered(state, "learn-spell")
    assert research.fields["owed"].values == (True,)
    refused(state, {**learn, "rating": 90}, ADA, "starts at 50%")
    state, (line,) = play(state, learn, ADA)
    assert line.text == "Mira researches Flame dart (level 1, fire): 50%"
    sheet = state.characters["c1"].sheet
    assert sheet.spells["Flame dart"].rating == 50 and sheet.research_owed == 0
    with pytest.raises(PermissionDenied):
        SESSION.resolve(
            state,
            {"kind": "drop-listed", "list": "spell", "name": "Flame dart"},
            ADA,
            FixedDice(()),
        )


SLEEP = {"kind": "keep-spell", "name": "Sleep", "level": 1}


def test_c3s10_research_at_random_learns_the_spell_the_servers_die_picks_from_the_list():
    """§ 12.10: Mira (Goetia, two researches owed at level 3) researches at random among the
    list's 1st-level spells she does not know, Flame dart and Sleep (Fire storm is level 3):
    the table's 1d2 rolls 2, Sleep, at 50% (§ 12.9). § 12.12: the writings the referee ticks
    hold Fire storm (no initiation of hers opens it, C3-A48), Flame dart and Sleep (known):
    Flame dart is the only one, with no die. Then nothing is left: refused, no die drawn,
    nothing spent. A player names no writings, and never the spell."""
    state = sage()
    for spell in (FLAME, STORM, SLEEP):
        state, _ = play(state, spell, GM)
    assert not offered(state, "research-at-random")  # no research owed yet
    state, _ = play(state, {"kind": "award-xp", "character": "c1", "amount": 3000}, GM)
    assert state.characters["c1"].sheet.research_owed == 2
    (mine,) = offered(state, "research-at-random")
    assert (mine.fields["character"].values, mine.preset) == (("c1",), {"writings": []})
    assert set(mine.fields) == {"character"}
    (referees,) = offered(state, "research-at-random", GM)
    assert referees.fields["writings"].items == ("Flame dart", "Fire storm", "Sleep")
    research = {"kind": "research-at-random", "character": "c1"}
    refused(state, {**research, "writings": ["Sleep"]}, ADA, "the referee's to say")
    state, (line,) = play(state, research, ADA, [2])
    assert line.text == (
        "Mira researches a spell at random (§ 12.10), one of 2 1st-level spells of the "
        "referee's list new to them: 1d2 → [2] = 2: Sleep (level 1), 50%"
    )
    assert line.data["dice"][0]["total"] == 2
    sheet = state.characters["c1"].sheet
    assert sheet.spells["Sleep"].rating == 50 and sheet.research_owed == 1

    writings = {**research, "writings": ["Fire storm", "Flame dart", "Sleep"]}
    refused(state, {**research, "writings": ["Ward"]}, GM, "Ward is not on the referee's")
    state, (line,) = play(state, writings, GM)
    assert line.text == (
        "Mira researches a spell at random (§ 12.12), the only spell of another magician's "
        "writings new to them: Flame dart (level 1, fire), 50%"
    )
    state, _ = play(state, {"kind": "award-xp", "character": "c1", "amount": 3000}, GM)
    assert not offered(state, "research-at-random")  # nothing left for exploratory research
    refused(state, research, ADA, "nothing is left to learn: Mira knows every 1st-level spell")
    refused(state, writings, GM, "nothing is left to learn: Mira knows every spell of those")
    assert state.characters["c1"].sheet.research_owed == 1
    assert code_in(line.text) == []


FILE = """
[skills.climbing]
note = "walls, trees and rigging"

[spells."Flame dart"]
level = 1
school = "fire"

[spells."Fire storm"]
level = 3
school = "fire"
"""
"""The group's list file (docs/rules/constitution.md, "The group's list file"): each entry
holds the fields of the referee's form that writes one."""


def test_c3s08_the_group_list_file_writes_what_typing_each_entry_writes():
    """C3-S08: the referee loads the group's file of skills and spells and the table keeps
    what typing each in would keep; a file that names another list, breaks a form's rule or
    holds more than a list may is refused whole, with what is wrong."""
    typed = sage()
    for kept in (CLIMBING, FLAME, STORM):
        typed, _ = play(typed, kept, GM)
    (form,) = offered(sage(), "load-lists", GM)
    assert code_in(form.fields["file"].example) == []  # the page shows it: words, no field ids
    loaded, (line,) = play(sage(), {"kind": "load-lists", "file": FILE}, GM)
    assert line.text == "the GM loads the group's list file: 1 skill, 2 spells"
    assert (loaded.skills, loaded.spells) == (typed.skills, typed.spells)
    refused(sage(), {"kind": "load-lists", "file": FILE}, ADA, "the GM may")
    many = "".join(f'[spells."S{n}"]\nlevel = 1\n' for n in range(201))
    for text, said in (
        ("[weapons.club]\ndamage = 4", "holds weapons, not a list of this table's"),
        (FILE + '[spells."Wish"]\nlevel = 0', "the list file's spells entry Wish: level"),
        (many, "a table's list holds at most 200"),
    ):
        refused(sage(), {"kind": "load-lists", "file": text}, GM, said)
