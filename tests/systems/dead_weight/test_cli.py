"""`tabletop dead-weight …`: the odds JSON contract, characters, the interactive test,
tables, usage and risk dice, and one clear line with exit 2 for bad input."""

from __future__ import annotations

import io
import json
import os
from fractions import Fraction

import pytest

from tabletop.systems.dead_weight import Attribute, Character
from tests.cli.helpers import run
from tests.systems.dead_weight.helpers import character

KEYS = ("critical_failure", "failure", "success", "great_success", "fatigue")


def odds(capsys, *args):
    result = run(capsys, "dead-weight", "odds", *args, "--json")
    assert result.code == 0, result.err
    return json.loads(result.out)


def test_the_odds_json_contract(capsys):
    data = odds(
        capsys, "--dice", "3", "--proficiency", "1", "--advantage", "1", "--disadvantage", "2"
    )
    assert set(data) == {*KEYS, "exact"} and set(data["exact"]) == set(KEYS)
    exact = {key: Fraction(data["exact"][key]) for key in KEYS}
    assert sum(exact[key] for key in KEYS[:4]) == 1
    for key in KEYS:
        assert data[key] == pytest.approx(float(exact[key]))


def test_the_odds_of_dw_p01_and_the_zero_dice_rule(capsys):
    data = odds(capsys, "--dice", "2")
    assert data["exact"]["critical_failure"] == "5/36" and data["exact"]["fatigue"] == "5/9"
    zero = odds(capsys, "--dice", "0")
    assert Fraction(zero["exact"]["success"]) == Fraction(1, 4)
    negative = odds(capsys, "--dice", "-3")
    assert Fraction(negative["exact"]["critical_failure"]) == Fraction(4651, 7776)


def test_a_check_never_tires_and_afflictions_change_the_odds(capsys):
    assert odds(capsys, "--dice", "4", "--check")["fatigue"] == 0
    terrified = odds(capsys, "--dice", "1", "--terrified")
    assert Fraction(terrified["exact"]["success"]) == Fraction(1, 3)
    hopeless = odds(capsys, "--dice", "1", "--hopeless")
    assert Fraction(hopeless["exact"]["fatigue"]) == Fraction(2, 3)


def test_odds_as_a_table(capsys):
    result = run(capsys, "dead-weight", "odds", "--dice", "2")
    assert result.code == 0 and "critical failure" in result.out and "5/36" in result.out


@pytest.mark.parametrize(
    "args",
    [
        ("odds", "--dice", "99"),
        ("odds", "--dice", "2", "--proficiency", "-1"),
        ("test", "LUCK"),
        ("usage", "d7"),
        ("risk", "0"),
        ("table", "roll", "weather"),
        ("character", "show", "/no/such/file.json"),
        ("test", "STR", "--gm", "robot"),
        ("test", "STR", "--score", "1", "--fatigue", "2"),
    ],
)
def test_bad_input_is_one_line_and_exit_two(capsys, args):
    result = run(capsys, "dead-weight", *args)
    assert result.code == 2
    assert result.err.count("\n") == 1 and "Traceback" not in result.err


def test_character_new_is_reproducible_and_saves_a_valid_sheet(capsys, tmp_path):
    out = tmp_path / "hero.json"
    first = run(
        capsys,
        "dead-weight",
        "character",
        "new",
        "--class",
        "cleric",
        "--seed",
        "9",
        "--json",
        "--out",
        str(out),
    )
    second = run(
        capsys, "dead-weight", "character", "new", "--class", "cleric", "--seed", "9", "--json"
    )
    assert first.code == 0 and first.out == second.out
    data = json.loads(first.out)
    assert data["character"]["character_class"] == "cleric"
    assert Character.model_validate_json(out.read_text()).character_class == "cleric"
    shown = run(capsys, "dead-weight", "character", "show", str(out))
    assert shown.code == 0 and "Presence" in shown.out and "trappings" in shown.out


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_out_to_a_pipe_is_refused_and_a_failed_save_keeps_the_old_sheet(capsys, tmp_path):
    """`--out` once hung on a named pipe, and a write that failed part-way clobbered the file."""
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    result = run(capsys, "dead-weight", "character", "new", "--seed", "1", "--out", str(pipe))
    assert result.code == 2 and "not a regular file" in result.err
    folder = run(capsys, "dead-weight", "character", "new", "--seed", "1", "--out", str(tmp_path))
    assert folder.code == 2 and folder.err.count("\n") == 1
    assert sorted(os.listdir(tmp_path)) == ["pipe"]


@pytest.mark.parametrize("name", ["", "a" * 201])
def test_a_name_the_sheet_cannot_hold_is_one_line_and_exit_2(capsys, name):
    """An empty or over-long --name was a pydantic error (an internal error, exit 1)."""
    for guided in ((), ("--guided",)):
        result = run(capsys, "dead-weight", "character", "new", "--name", name, *guided)
        assert result.code == 2 and "new-character.name:" in result.err
        assert result.err.count("\n") == 1


def test_a_corrupt_sheet_is_refused(capsys, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"attributes": {"STR": {"score": 1, "fatigue": 2}}}')
    result = run(capsys, "dead-weight", "character", "show", str(bad))
    assert result.code == 2 and "exceed the score" in result.err
    bad.write_text("not json")
    assert run(capsys, "dead-weight", "character", "show", str(bad)).code == 2


def test_guided_creation_asks_at_every_step(capsys, monkeypatch):
    answers = ["k", "STR", "roll", "3", "skip"]  # a line a prompt refuses is asked again
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(answers * 20) + "\n"))
    result = run(
        capsys, "dead-weight", "character", "new", "--guided", "--seed", "1", "--class", "wizard"
    )
    assert result.code == 0, result.err
    assert "choose a school of magic" in result.out and "wizard" in result.out


def test_the_interactive_test_shows_the_advice_and_applies_the_choice(
    capsys, monkeypatch, tmp_path
):
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n1\n1\n1\n"))
    result = run(
        capsys, "dead-weight", "test", "INT", "--score", "2", "--proficiency", "1", "--seed", "5"
    )
    assert result.code == 0, result.err
    assert "player's choice" in result.out and "★" in result.out
    assert any(word in result.out for word in ("success", "failure"))


def test_the_automatic_test_as_json_writes_the_sheet_back(capsys, tmp_path):
    sheet = tmp_path / "me.json"
    run(capsys, "dead-weight", "character", "new", "--seed", "2", "--out", str(sheet))
    result = run(
        capsys,
        "dead-weight",
        "test",
        "STR",
        "--character",
        str(sheet),
        "--auto",
        "--disadvantage",
        "1",
        "--seed",
        "3",
        "--json",
    )
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert data["outcome"] in {"critical failure", "failure", "success", "great success"}
    saved = Character.model_validate_json(sheet.read_text())
    assert saved.attribute(Attribute.STR).fatigue == int(data["fatigue"])


def test_table_roll_usage_and_risk(capsys):
    rolled = json.loads(
        run(
            capsys,
            "dead-weight",
            "table",
            "roll",
            "mortal-wounds",
            "-m",
            "9",
            "--seed",
            "1",
            "--json",
        ).out
    )
    assert rolled["entry"]["name"] == "Dead"
    listed = run(capsys, "dead-weight", "table", "list").out
    assert "infancy" in listed and "mishaps" in listed
    usage = json.loads(run(capsys, "dead-weight", "usage", "d4", "--seed", "1", "--json").out)
    assert usage["after"] in ("Ud4", None)
    assert usage["after"] is None or usage["total"] > 2
    text = run(capsys, "dead-weight", "usage", "Ud8", "--seed", "1").out
    assert "Ud8" in text
    risky = json.loads(run(capsys, "dead-weight", "risk", "2", "--seed", "3", "--json").out)
    assert risky["triggered"] == (1 in risky["dice"]["faces"])


INT_TEST = ("dead-weight", "test", "INT", "--score", "2", "--proficiency", "1", "--seed", "5")
"""An interactive INT test whose first throw leaves the player a choice."""


def test_the_end_of_input_mid_test_is_one_line_exit_two_and_saves_nothing(
    capsys, monkeypatch, tmp_path
):
    """The brief: EOF at an interactive prompt is one readable line and exit 2, and the
    sheet given with --character is left as it was."""
    sheet = tmp_path / "me.json"
    sheet.write_text(character(Attribute.INT, score=2, proficiency=1).model_dump_json())
    before = sheet.read_text()
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    result = run(capsys, "dead-weight", "test", "INT", "--character", str(sheet), "--seed", "5")
    assert result.code == 2 and result.err.count("\n") == 1, result.err
    assert "input ended" in result.err and sheet.read_text() == before


def test_the_end_of_input_in_guided_creation_is_one_line_and_exit_two(
    capsys, monkeypatch, tmp_path
):
    monkeypatch.setattr("sys.stdin", io.StringIO("k\n"))
    out = tmp_path / "hero.json"
    result = run(
        capsys, "dead-weight", "character", "new", "--guided", "--seed", "1", "--out", str(out)
    )
    assert result.code == 2 and result.err.count("\n") == 1, result.err
    assert not out.exists()


def test_an_interactive_test_with_json_prints_only_json(capsys, monkeypatch):
    """With --json, the prompts and the table go to stderr: stdout is one JSON object."""
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 10))
    result = run(capsys, *INT_TEST, "--json")
    assert result.code == 0, result.err
    assert json.loads(result.out)["outcome"] and "your choice" in result.err


def test_guided_creation_with_json_prints_only_json(capsys, monkeypatch):
    answers = ["k", "STR", "roll", "3", "skip"]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(answers * 20) + "\n"))
    result = run(
        capsys,
        "dead-weight",
        "character",
        "new",
        "--guided",
        "--seed",
        "1",
        "--class",
        "wizard",
        "--json",
    )
    assert result.code == 0, result.err
    assert json.loads(result.out)["character"]["character_class"] == "wizard"
    assert "choose a school of magic" in result.err


def test_a_guided_re_roll_names_dice_from_one(capsys, monkeypatch):
    """The prompt numbers dice from 1: "r 0" is refused in those terms and asked again."""
    monkeypatch.setattr("sys.stdin", io.StringIO("r 0\n"))
    result = run(
        capsys, "dead-weight", "character", "new", "--guided", "--seed", "1", "--name", "Ayla"
    )
    assert "dice are numbered 1 to 3" in result.out


def test_a_test_the_advisor_cannot_weigh_is_refused_before_the_dice(capsys):
    """Every re-roll the exchange allows must fit the advisor's plan (docs/rules, Limits);
    a test past it is refused before any die is thrown, not halfway through."""
    result = run(
        capsys,
        "dead-weight",
        "test",
        "STR",
        "--score",
        "5",
        "--proficiency",
        "12",
        "--advantage",
        "12",
        "--seed",
        "1",
    )
    assert result.code == 2 and "at most 18" in result.err
    assert "rolled" not in result.out


def test_the_sheet_shows_prayers_memorised_and_the_running_counts(capsys, tmp_path):
    """The issue's sheet: spells and prayers memorised, the mishap count and the
    expedition's counters are on the sheet a player reads, not only in its JSON."""
    sheet = tmp_path / "cleric.json"
    cleric = Character.model_validate(
        {
            "traits": ["divine mandate"],
            "magic": {
                "prayers_known": ["Light"],
                "prayers_memorised": ["Light"],
                "prayers_exhausted": ["Light"],
                "god_angry": True,
                "mishaps": 2,
            },
            "expedition": {"mortal_wounds": 1},
        }
    )
    sheet.write_text(cleric.model_dump_json())
    shown = run(capsys, "dead-weight", "character", "show", str(sheet))
    assert shown.code == 0, shown.err
    for text in ("prayers memorised: Light", "prayers exhausted: Light", "god is angry"):
        assert text in shown.out
    assert "2 spell mishaps" in shown.out and "1 mortal wound" in shown.out


def test_an_attack_runs_step_by_step_from_the_command_line(capsys, tmp_path):
    """DW-T02 from a shell: `tabletop campaign act` plays the attack and each later step as
    the GM, the attack waits in the campaign between commands, and a wrong step is one line
    with exit 2."""
    path, amber = str(tmp_path / "crypt.json"), tmp_path / "Amber.json"
    amber.write_text(character(Attribute.DEX, score=2, name="Amber").model_dump_json())
    wight = {"kind": "new-npc", "name": "Wight", "stats": {"level": 2, "wound_limit": 2}}
    attack = {"kind": "attack", "attacker": "n1", "target": "c1", "setup": {"attribute": "STR"}}
    for args in (
        ("campaign", "new", path, "--system", "dead-weight"),
        ("campaign", "add", path, str(amber)),
        ("campaign", "act", path, json.dumps(wight)),
        ("campaign", "act", path, json.dumps(attack), "--seed", "1"),
    ):
        assert run(capsys, *args).code == 0
    assert "Wight hits Amber" in run(capsys, "campaign", "log", path, "--last", "2").out

    def attack_now():
        shown = run(capsys, "campaign", "show", path, "--json")
        return json.loads(shown.out)["table"]["attack"]

    assert attack_now()["step"] == "damage"
    wrong = run(capsys, "campaign", "act", path, '{"kind": "place-wounds", "placements": []}')
    assert wrong.code == 2 and len(wrong.err.strip().splitlines()) == 1
    assert run(capsys, "campaign", "act", path, '{"kind": "blow", "wounds": 1}').code == 0
    assert attack_now()["step"] == "place"
    placed = '{"kind": "place-wounds", "placements": [{"attribute": "DEX"}]}'
    assert run(capsys, "campaign", "act", path, placed).code == 0
    assert attack_now() is None
