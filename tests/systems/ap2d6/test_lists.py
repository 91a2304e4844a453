"""The skills and armour a 2d6 GM keeps for the table (docs/rules/ap2d6.md, RU-S10): a sheet
buys a skill from the list at its cost once what it needs is bought; a character wears armour
from it, its To-Hit cost on the sheet and its reduction where the GM deals damage; with no
list, the sheet's own form stays and the page says who writes one."""

from __future__ import annotations

import json
import tomllib

import pytest

from tabletop.dice import FixedDice
from tabletop.errors import PermissionDenied, TabletopError
from tabletop.systems.ap2d6 import SESSION, Ap2d6Table
from tests.lines import code_in
from tests.systems.ap2d6.test_session import AYLA, GM, play, seated
from tests.systems.ap2d6.test_strikes import LONGSWORD, in_the_fight, strike

STEALTH = {"kind": "keep-skill", "name": "STEALTH", "cost": 2, "text": "move unseen"}
CLIMB = {"kind": "keep-skill", "name": "CLIMB", "cost": 1, "needs": ["STEALTH"]}
CHAINMAIL = {"kind": "keep-armour", "name": "chainmail", "piercing": 2, "slashing": 3, "to_hit": -1}


def skill_offers(state: Ap2d6Table) -> list:
    """The ways Ayla's player may buy her a skill now (her player plays only her)."""
    return [o for o in SESSION.legal(state, AYLA) if o.kind == "buy-skill"]


def with_sp(state: Ap2d6Table, points: int) -> Ap2d6Table:
    state, _ = play(state, {"kind": "award-sp", "character": "c1", "points": points}, GM)
    return state


def test_rus10_a_sheet_buys_from_the_gms_skill_list_at_its_cost_and_in_order():
    """RU-S10, § Point Buy: a skill's SP cost and prerequisites are listed with it."""
    state = with_sp(seated(), 3)
    spare = state.characters["c1"].sheet.unspent_sp
    (free,) = skill_offers(state)
    assert not free.closed  # no list yet: the sheet's form takes a name and a cost
    assert SESSION.view(state, AYLA)["lists"]["empty"] == (
        "No weapons, skills or armour on the table's lists yet: "
        "the GM writes each under “Write … on the table's list” or loads the group's list file."
    )
    for kept in (STEALTH, CLIMB):
        state, (line,) = play(state, kept, GM)
    assert line.text == "the GM writes the skill CLIMB on the list: 1 SP, needs STEALTH"
    (listed,) = skill_offers(state)
    assert listed.closed and listed.intents == (
        {"kind": "buy-skill", "character": "c1", "skill": "STEALTH", "cost": 2},
    )
    for intent, said in (
        ({"skill": "CLIMB", "cost": 1}, "CLIMB needs STEALTH first"),
        ({"skill": "STEALTH", "cost": 1}, "STEALTH costs 2 SP"),
        ({"skill": "SWIM", "cost": 1}, "not on the GM's skill list"),
    ):
        with pytest.raises(TabletopError, match=said):
            SESSION.resolve(
                state, {"kind": "buy-skill", "character": "c1", **intent}, GM, FixedDice(())
            )
    state, _ = play(state, listed.intents[0], AYLA)
    sheet = state.characters["c1"].sheet
    assert sheet.skills == {"STEALTH": 2} and sheet.unspent_sp == spare - 2
    (listed,) = skill_offers(state)
    assert [i["skill"] for i in listed.intents] == ["CLIMB"]


def test_rus10_armour_from_the_list_costs_to_hit_and_starts_the_gms_damage_step():
    """RU-S10, RU-M05: Ayla wears the group's chainmail (To-Hit -1); the guard's longsword
    slash at her starts the GM's "armour takes" at the chainmail's 3 for slashing."""
    state = in_the_fight()
    with pytest.raises(PermissionDenied):
        SESSION.resolve(state, CHAINMAIL, AYLA, FixedDice(()))
    state, _ = play(state, CHAINMAIL, GM)
    state, (line,) = play(
        state, {"kind": "wear-armour", "character": "c1", "armour": "chainmail"}, AYLA
    )
    assert line.text == "Ayla wears chainmail: takes 0 B, 2 P, 3 S; To-Hit -1"
    assert state.characters["c1"].sheet.to_hit_adjustments == {"chainmail": -1}
    state, _ = play(state, strike("n1", "c1"), GM)
    state, _ = play(state, {"kind": "roll-to-hit", "character": "n1"}, GM, [6, 6])
    state, _ = play(state, {"kind": "roll-damage", "character": "n1"}, GM, [5, 5])
    (deal,) = [o for o in SESSION.legal(state, GM) if o.kind == "deal-damage"]
    assert deal.fields["less"].example == 3
    assert deal.fields["less"].help.startswith("Ayla's chainmail takes 3 of slashing")
    state, _ = play(state, {"kind": "wear-armour", "character": "c1"}, AYLA)
    assert state.characters["c1"].sheet.to_hit_adjustments == {}


FILE = """
[skills.STEALTH]
cost = 2
text = "move unseen"

[skills.CLIMB]
cost = 1
needs = ["STEALTH"]

[armour.chainmail]
piercing = 2
slashing = 3
to_hit = -1

[weapons.longsword]
speed = "(1n1)->(2n1)"
to_hit = "DEX"
damage = "1d8+STR"
damage_type = "S"
"""
"""The group's list file (docs/rules/ap2d6.md, "The group's list file"): each entry holds
the fields of the GM's form that writes one."""


def lists_of(state: Ap2d6Table) -> tuple:
    return state.skills, state.armours, state.weapons


def test_rus10_the_group_list_file_writes_what_typing_each_entry_writes():
    """RU-S10: the GM loads the group's file of skills, armour and weapons, as TOML or JSON,
    and the table keeps what typing each entry in would keep; a player may not load one."""
    typed = seated()
    for kept in (STEALTH, CLIMB, CHAINMAIL, {"kind": "keep-weapon", **LONGSWORD}):
        typed, _ = play(typed, kept, GM)
    (form,) = [o for o in SESSION.legal(seated(), GM) if o.kind == "load-lists"]
    assert form.text == "load the group's list file" and list(form.fields) == ["file"]
    assert code_in(form.fields["file"].example) == []  # the page shows it: words, no field ids
    loaded, (line,) = play(seated(), {"kind": "load-lists", "file": FILE}, GM)
    assert line.text == "the GM loads the group's list file: 2 skills, 1 armour, 1 weapon"
    assert lists_of(loaded) == lists_of(typed)
    as_json = json.dumps(tomllib.loads(FILE))
    assert lists_of(play(seated(), {"kind": "load-lists", "file": as_json}, GM)[0]) == lists_of(
        typed
    )
    with pytest.raises(PermissionDenied):
        SESSION.resolve(seated(), {"kind": "load-lists", "file": FILE}, AYLA, FixedDice(()))


def test_rus10_a_bad_list_file_is_refused_whole():
    """RU-S10: a file that is not TOML or JSON, names a list the table does not keep, holds
    an entry the GM's form would refuse, or breaks a bound (the lists' size, the file's,
    its nesting) is refused with what is wrong, and nothing of it reaches the table, not
    even the entries before the bad one."""
    many = "".join(f"[skills.S{n}]\ncost = 1\n" for n in range(101))
    for text, said in (
        ("[skills", "the list file is neither TOML nor JSON"),
        ("[spells.Sleep]\nlevel = 1", "holds spells, not a list of this table's"),
        ('skills = "STEALTH"', "skills must be a table of entries by name"),
        (FILE + "[skills.JUMP]\ncost = -1", "the list file's skills entry JUMP: "),
        (FILE + '[armour.plate]\nsturdy = "yes"', "armour entry plate: "),
        (FILE.replace('"1d8+STR"', '"a lot"'), "the weapon longsword: "),
        (many, "a table's list holds at most 100"),
        ("#" * 200_001, "200000"),
        ('{"skills": ' * 15_000 + "{}" + "}" * 15_000, "nests its tables or lists too deeply"),
        ("skills = " + "[" * 15_000 + "]" * 15_000, "nests its tables or lists too deeply"),
    ):
        with pytest.raises(TabletopError, match=said):
            SESSION.resolve(seated(), {"kind": "load-lists", "file": text}, GM, FixedDice(()))
