"""Saved 2d6 characters on the command line (issue 17): new --out, show, and rest, damage,
heal and carry with --character (written back) or --dry-run; and the rules' social,
stealth and weapon rolls as commands."""

from __future__ import annotations

import json
from pathlib import Path

from tabletop.systems.ap2d6.sheet import Character
from tests.cli.helpers import run

WEAPONS = str(Path(__file__).parent / "fixtures" / "weapons.toml")


def made(capsys, tmp_path, *scores: str) -> str:
    path = str(tmp_path / "ayla.json")
    sets = [arg for score in scores for arg in ("--set", score)]
    result = run(capsys, "ap2d6", "character", "new", "--name", "Ayla", *sets, "--out", path)
    assert result.code == 0, result.err
    return path


def sheet(path: str) -> Character:
    return Character.model_validate_json(Path(path).read_text())


def test_new_out_and_show_round_trip(capsys, tmp_path):
    path = made(capsys, tmp_path, "STR=2")
    shown = json.loads(run(capsys, "ap2d6", "character", "show", path, "--json").out)
    assert shown == sheet(path).model_dump(mode="json") and shown["scores"]["STR"] == 2


def test_damage_rest_and_heal_are_written_back_and_dry_run_is_not(capsys, tmp_path):
    """RU-M33: each hour of rest may spend a recovery die (d6); seed 2 rolls 1 and 1."""
    path = made(capsys, tmp_path, "STR=2")
    full = sheet(path).current_hp
    assert run(capsys, "ap2d6", "damage", "4", "--character", path, "--dry-run").code == 0
    assert sheet(path).current_hp == full
    assert run(capsys, "ap2d6", "damage", "4", "--character", path).code == 0
    assert sheet(path).current_hp == full - 4
    rested = run(
        capsys,
        "ap2d6",
        "rest",
        "2",
        "--recovery-dice",
        "2",
        "--character",
        path,
        "--seed",
        "2",
        "--json",
    )
    data = json.loads(rested.out)
    assert [e["summary"].split(":")[0] for e in data["events"][1:3]] == [
        "Ayla, hour 1",
        "Ayla, hour 2",
    ]
    assert sheet(path).current_hp == full - 2
    assert run(capsys, "ap2d6", "heal", "5", "--character", path).code == 0
    assert sheet(path).current_hp == full


def test_carrying_past_the_threshold_encumbers_and_dropping_it_does_not(capsys, tmp_path):
    """RU-M50: personal space is [encumbered] past 3 + STR encs (STR 0: past 3)."""
    path = made(capsys, tmp_path)
    assert run(capsys, "ap2d6", "carry", "--item", "weapon:4", "--character", path).code == 0
    assert sheet(path).has("encumbered")
    assert run(capsys, "ap2d6", "carry", "--item", "weapon:3", "--character", path).code == 0
    assert not sheet(path).has("encumbered")
    over = run(capsys, "ap2d6", "carry", "--item", "weapon:7", "--character", path)
    assert over.code == 2 and "maximum" in over.err


def test_social_read_lie_and_stealth_on_the_command_line(capsys):
    """Issue 17: these rules existed only in the library. Seeds give 2d6 → 2 + 5."""
    social = json.loads(
        run(
            capsys,
            "ap2d6",
            "social",
            "--social",
            "1",
            "--bias",
            "-2",
            "--dc",
            "8",
            "--seed",
            "3",
            "--json",
        ).out
    )
    assert (social["total"], social["success"], social["level"]) == (6, False, -2)
    lie = json.loads(
        run(capsys, "ap2d6", "lie", "--social", "2", "--listener", "0", "--seed", "1", "--json").out
    )
    assert (lie["success"], lie["suspicious"], lie["read_dc"]) == (True, False, 9)
    read = json.loads(
        run(capsys, "ap2d6", "read", "--perception", "0", "--dc", "7", "--seed", "1", "--json").out
    )
    assert read["band"] == "moderate-failure"
    sneak = json.loads(
        run(
            capsys,
            "ap2d6",
            "stealth",
            "--agi",
            "1",
            "--stealth",
            "2",
            "--perception",
            "1",
            "--seed",
            "4",
            "--json",
        ).out
    )
    assert (sneak["total"], sneak["success"]) == (8, True)


def test_a_weapon_attack_on_the_command_line(capsys, tmp_path):
    """RU-M28: To-Hit as the defender's DC (a tie misses); seed 5 rolls 5 + 3 against 8."""
    path = made(capsys, tmp_path, "STR=2")
    result = run(
        capsys,
        "ap2d6",
        "attack",
        WEAPONS,
        "longsword",
        "--character",
        path,
        "--target-to-hit",
        "8",
        "--seed",
        "5",
        "--json",
    )
    data = json.loads(result.out)
    assert (data["total"], data["hit"], data["damage"]) == (8, False, 0)
    unknown = run(
        capsys, "ap2d6", "attack", WEAPONS, "trident", "--character", path, "--target-to-hit", "8"
    )
    assert unknown.code == 2 and "no weapon 'trident'" in unknown.err
