"""Saved Dead Weight characters on the command line (issue 17): `--character FILE` plays on
the sheet and writes it back, `--dry-run` keeps nothing, helpers join a test, rest and
recovery commands, and guided creation that asks for the name and explains each choice."""

from __future__ import annotations

import io
import json

from tabletop.systems.dead_weight import Affliction, Attribute, Character
from tabletop.systems.dead_weight.character import Condition
from tests.cli.helpers import run
from tests.systems.dead_weight.helpers import character


def saved(tmp_path, name: str, sheet: Character) -> str:
    path = tmp_path / f"{name}.json"
    path.write_text(sheet.model_dump_json())
    return str(path)


def read(path: str) -> Character:
    with open(path) as file:
        return Character.model_validate_json(file.read())


def test_a_test_writes_the_sheet_back_and_a_dry_run_does_not(capsys, tmp_path):
    """STR 3 with nothing to re-roll; seed 1 throws 2, 5, 1: a success, and the 1 costs a
    fatigue point on STR (§ Attribute Tests and Checks)."""
    amber = saved(tmp_path, "amber", character(Attribute.STR, score=3))
    args = ("dead-weight", "test", "STR", "--character", amber, "--auto", "--seed", "1", "--json")
    looked = run(capsys, *args, "--dry-run")
    assert looked.code == 0, looked.err
    assert read(amber) == character(Attribute.STR, score=3)
    played = json.loads(run(capsys, *args).out)
    assert (played["faces"], played["outcome"], played["fatigue"]) == ([2, 5, 1], "success", True)
    assert played == json.loads(looked.out)
    assert read(amber).attribute(Attribute.STR).fatigue == 1


def test_the_test_command_adds_helpers(capsys, tmp_path):
    """Issue 17: `test` could not add helpers. DW-M35: each helper adds a die of their own,
    and tires on it as their own sheet says; both sheets are written back."""
    amber = saved(tmp_path, "amber", character(Attribute.DEX, score=2, name="Amber"))
    brom = saved(tmp_path, "brom", character(Attribute.DEX, score=2, name="Brom"))
    result = run(
        capsys,
        "dead-weight",
        "test",
        "DEX",
        "--character",
        amber,
        "--helper",
        brom,
        "--auto",
        "--seed",
        "11",
        "--json",
    )
    assert result.code == 0, result.err
    data = json.loads(result.out)
    (helped,) = data["test"]["helpers"]
    assert helped["helper"]["name"] == "Brom"
    assert data["faces"] == [4, 5, 4]  # Amber's two dice, then Brom's one
    assert read(brom).model_dump(mode="json") == helped["helper"]
    assert read(brom).attribute(Attribute.DEX).fatigue == 1  # Brom's 4 tires Brom
    assert read(amber).attribute(Attribute.DEX).fatigue == 1  # and Amber's 4 tires Amber
    assert any("Brom" in e["text"] for e in data["events"])


def test_a_helper_must_be_another_character(capsys, tmp_path):
    amber = saved(tmp_path, "amber", character(Attribute.DEX, score=2))
    result = run(capsys, "dead-weight", "test", "DEX", "--character", amber, "--helper", amber)
    assert result.code == 2 and "already at this table" in result.err


def test_rest_clears_what_the_book_says_and_saves_it(capsys, tmp_path):
    sheet = character(afflictions=[Affliction.SHAKEN, Affliction.SLEEPY])
    path = saved(tmp_path, "tired", sheet)
    result = run(capsys, "dead-weight", "rest", "--character", path)
    assert result.code == 0, result.err
    assert read(path).afflictions == () and "saved to" in result.out


def test_a_fainted_character_waits_wakes_and_is_saved(capsys, tmp_path):
    """Issue 17: a character who faints stays fainted. Wait the turns out, then the 1d!."""
    path = saved(tmp_path, "out", character(condition=Condition(fainted=True, faint_turns=1)))
    early = run(capsys, "dead-weight", "wake", "--character", path)
    assert early.code == 2 and "must wait 1 more turn" in early.err
    assert run(capsys, "dead-weight", "wait", "--character", path).code == 0
    assert read(path).condition.faint_turns == 0
    for seed in range(40):  # a 1 on the d6 wakes (DW-A17): some seed gives one
        run(capsys, "dead-weight", "wake", "--character", path, "--seed", str(seed))
        if read(path).condition.can_act:
            break
    assert read(path).condition == Condition()


def test_recover_and_heal_take_amounts_and_honour_afflictions(capsys, tmp_path):
    """DW-G09: the amount is the GM's; Parched blocks recovery, Hungry healing (§ Afflictions)."""
    path = saved(tmp_path, "hurt", character(Attribute.STR, score=3, fatigue=2, wounds=1))
    assert run(capsys, "dead-weight", "recover", "STR", "2", "--character", path).code == 0
    assert run(capsys, "dead-weight", "heal", "str", "--character", path).code == 0
    state = read(path).attribute(Attribute.STR)
    assert (state.fatigue, state.wounds) == (0, 0)
    parched = saved(tmp_path, "dry", character(fatigue=1, afflictions=[Affliction.PARCHED]))
    refused = run(capsys, "dead-weight", "recover", "STR", "--character", parched)
    assert refused.code == 2 and "parched" in refused.err


def test_a_command_that_changes_a_character_needs_one(capsys):
    result = run(capsys, "dead-weight", "rest")
    assert result.code == 2 and "--character" in result.err


def test_guided_creation_asks_for_the_name_and_describes_each_choice(capsys, monkeypatch):
    """Issue 17: guided creation asks for the name, describes each choice, and a wizard
    gets their spells (named by the player when no school list is supplied)."""
    answers = ["Zed", "k", "k", "k", "k", "1", "k", "3", "1", "Bone spear, Grave chill"]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(answers) + "\n"))
    result = run(capsys, "dead-weight", "character", "new", "--guided", "--seed", "3", "--json")
    assert result.code == 0, result.err
    made = json.loads(result.out)["character"]
    assert made["name"] == "Zed" and made["character_class"] == "wizard"
    assert made["magic"]["spells_known"] == ["Bone spear", "Grave chill"]
    assert "the character's name" in result.err
    assert "Farmer's kid: STR +1; skill: cooking; skill: animal affinity" in result.err
    assert "wizard: +1 INT proficiency; trait magic user" in result.err
    assert "Necromancers of Yadar: sacrificial dagger" in result.err
