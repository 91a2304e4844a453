"""Saved 3d6 Constitution characters on the command line (issue 17): new --out and
--guided, show, and rest, damage and XP written back with --character (or --dry-run)."""

from __future__ import annotations

import io
import json
from pathlib import Path

from tabletop.systems.constitution.character import Character
from tests.cli.helpers import run


def made(capsys, tmp_path) -> str:
    path = str(tmp_path / "ada.json")
    result = run(
        capsys,
        "constitution",
        "character",
        "new",
        "--name",
        "Ada",
        "--class",
        "fighter",
        "--seed",
        "1",
        "--out",
        path,
    )
    assert result.code == 0, result.err
    return path


def sheet(path: str) -> Character:
    return Character.model_validate_json(Path(path).read_text())


def test_new_out_and_show_round_trip(capsys, tmp_path):
    path = made(capsys, tmp_path)
    shown = json.loads(run(capsys, "constitution", "character", "show", path, "--json").out)
    assert shown == sheet(path).model_dump(mode="json") and shown["name"] == "Ada"


def test_a_short_rest_is_written_back_and_a_dry_run_is_not(capsys, tmp_path):
    """§ 6.4: a short rest re-rolls HP and adds a point of fatigue."""
    path = made(capsys, tmp_path)
    before = sheet(path)
    looked = run(capsys, "constitution", "rest", "--character", path, "--dry-run", "--json")
    assert looked.code == 0 and sheet(path) == before
    rested = json.loads(
        run(capsys, "constitution", "rest", "--character", path, "--seed", "2", "--json").out
    )
    assert sheet(path).fatigue == before.fatigue + 1
    assert sheet(path).model_dump(mode="json") == rested["character"]


def test_damage_and_xp_go_through_the_session_and_are_saved(capsys, tmp_path):
    """§ 2.9: 1500 XP is level 2."""
    path = made(capsys, tmp_path)
    hp = sheet(path).hp
    assert run(capsys, "constitution", "damage", "1", "--character", path).code == 0
    assert sheet(path).hp == max(hp - 1, 0)
    assert run(capsys, "constitution", "xp", "award", "1500", "--character", path).code == 0
    assert (sheet(path).xp, sheet(path).level) == (1500, 2)


def test_rest_without_a_sheet_needs_the_numbers(capsys):
    result = run(capsys, "constitution", "rest")
    assert result.code == 2 and "--character" in result.err


def test_guided_creation_asks_for_name_class_and_initiation_described(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("Bo\nsage\n2\n"))
    result = run(capsys, "constitution", "character", "new", "--guided", "--seed", "3", "--json")
    assert result.code == 0, result.err
    made = json.loads(result.out)
    assert (made["name"], made["character_class"], made["initiations"]) == (
        "Bo",
        "sage",
        ["goetia"],
    )
    assert "sage: excels in knowledge" in result.err
    assert "Goetia (§ 8.3)" in result.err


def test_guided_creation_at_the_end_of_input_saves_nothing(capsys, monkeypatch, tmp_path):
    monkeypatch.setattr("sys.stdin", io.StringIO("Bo\n"))
    out = tmp_path / "bo.json"
    result = run(capsys, "constitution", "character", "new", "--guided", "--out", str(out))
    assert result.code == 2 and "input ended" in result.err and not out.exists()
