"""`tabletop rollunder character new | show` and sheets saved back by `damage --character`
(CR-S01: making a character is writing its numbers down; docs/rules/rollunder.md)."""

from __future__ import annotations

import io
import json
from pathlib import Path

from tests.cli.helpers import run
from tests.systems.rollunder.helpers import hero
from tests.systems.rollunder.test_cli import _frail, _injury_faces, fails, ok_json

ASH = ["--name", "Ash", "--set", "STR=12", "--set", "agi=10", "--set", "WIT=9"]


def test_cr_s01_character_new_writes_the_numbers_down_and_saves_them(capsys, tmp_path):
    out = tmp_path / "ash.json"
    made = ok_json(capsys, "character", "new", *ASH, "--max-health", "14", "--omens", "2",
                   "--money", "30", "--out", str(out))  # fmt: skip
    assert made["abilities"] == {"STR": 12, "AGI": 10, "WIT": 9}
    assert (made["health"], made["max_health"]) == (14, 14)  # health defaults to the maximum
    assert (made["omens"], made["max_omens"], made["money"]) == (2, 2, 30)
    assert json.loads(out.read_text(encoding="utf-8")) == made
    assert ok_json(capsys, "character", "show", str(out)) == made
    shown = run(capsys, "rollunder", "character", "show", str(out)).out
    assert "Ash" in shown and "health 14 of 14" in shown and "omens 2 of 2" in shown


def test_cr_g01_character_new_needs_a_score_for_each_of_the_games_abilities(capsys, tmp_path):
    out = tmp_path / "ash.json"
    base = ["character", "new", "--max-health", "14", "--out", str(out)]
    fails(capsys, *base, "--name", "Ash", "--set", "STR=12", words="--set AGI=N --set WIT=N")
    fails(capsys, *base, *ASH, "--set", "LUCK=3", words="the game's abilities are")
    fails(capsys, *base, *ASH, "--set", "STR=1", words="given twice")
    fails(capsys, *base, "--name", "Ash", "--set", "STR=\u00b2", words="ABILITY=SCORE")
    fails(capsys, *base, *ASH[:-1], "WIT=1e30", words="ABILITY=SCORE")
    fails(capsys, *base, *ASH[:-1], "WIT=5000", words="WIT must be from 0 to 1000")
    fails(capsys, *base, *ASH, "--health", "15", words="over the maximum health")
    assert not out.exists()  # nothing half-made is saved
    made = ok_json(capsys, "--option", "abilities=STR,AGI,WIT,CHA", "character", "new", *ASH,
                   "--set", "CHA=4", "--max-health", "3")  # fmt: skip
    assert made["abilities"] == {"STR": 12, "AGI": 10, "WIT": 9, "CHA": 4}


def test_damage_on_a_sheet_saves_it_back_and_dry_run_only_looks(capsys, tmp_path):
    sheet = tmp_path / "ash.json"
    sheet.write_text(hero(health=14).model_dump_json(), encoding="utf-8")
    looked = ok_json(capsys, "damage", "2", "--character", str(sheet), "--dry-run")
    assert looked["character"]["health"] == 12 and looked["saved"] is False
    assert json.loads(sheet.read_text(encoding="utf-8"))["health"] == 14
    text = run(capsys, "rollunder", "damage", "2", "--character", str(sheet)).out
    assert "Ash: health 12 of 14" in text and "saved to" in text
    assert json.loads(sheet.read_text(encoding="utf-8"))["health"] == 12
    again = ok_json(capsys, "damage", "2", "--character", str(sheet))
    assert again["character"]["health"] == 10 and again["saved"] is True


def test_cr_m19a_ask_saves_the_players_and_the_gms_decisions(capsys, tmp_path, monkeypatch):
    """The --ask run of test_cli's CR-M19a, now kept: the omen spent and the item gone."""
    seed = next(s for s in range(50) if _injury_faces(s) == 1)  # Item destroyed
    sheet = _frail(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO("2\nkeep 1\nsword\n"))
    result = run(capsys, "rollunder", "damage", "15", "--character", sheet, "--ask",
                 "--seed", str(seed))  # fmt: skip
    assert result.code == 0, result.err
    saved = json.loads(Path(sheet).read_text(encoding="utf-8"))
    assert saved["omens"] == 1 and saved["load"]["held"] == []


def test_a_toml_sheet_is_refused_before_anything_unless_it_is_a_dry_run(capsys, tmp_path):
    sheet = tmp_path / "ash.toml"
    sheet.write_text(
        'name = "Ash"\nmax_health = 14\nhealth = 14\n[abilities]\nSTR = 12\nAGI = 10\nWIT = 9\n',
        encoding="utf-8",
    )
    before = sheet.read_text(encoding="utf-8")
    fails(capsys, "damage", "2", "--character", str(sheet), words="not a .json sheet")
    looked = ok_json(capsys, "damage", "2", "--character", str(sheet), "--dry-run")
    assert looked["character"]["health"] == 12
    assert sheet.read_text(encoding="utf-8") == before
    fails(capsys, "damage", "2", "--dry-run", words="--dry-run and --who are for a character")


def test_cr_g_values_the_chapter_leaves_open_are_placeholders_in_the_data_and_the_sheet(
    capsys, tmp_path
):
    """Issue 17 item 4: the abilities the chapter names are its rules; scores, maximum
    health, omens and the carry limit (CR-G01, G03, G05, G02) are the user's game's, marked
    PLACEHOLDER in data/sheet.toml and on every `character show`; an ability the chapter
    does not name is marked too."""
    from tabletop.systems.rollunder.character import sheet_sources

    named, placeholders = sheet_sources()
    assert set(named) == {"STR", "AGI", "WIT"} and {s.status for s in named.values()} == {"rule"}
    assert {(key, p.status, p.gap) for key, p in placeholders.items()} == {
        ("scores", "PLACEHOLDER", "CR-G01"),
        ("max_health", "PLACEHOLDER", "CR-G03"),
        ("omens", "PLACEHOLDER", "CR-G05"),
        ("carry_limit", "PLACEHOLDER", "CR-G02"),
    }
    gaps = (Path(__file__).parents[3] / "docs" / "rules" / "rollunder.md").read_text()
    assert all(f"| {p.gap} |" in gaps for p in placeholders.values())
    out = tmp_path / "ash.json"
    run(capsys, "rollunder", "character", "new", *ASH, "--max-health", "14", "--out", str(out))
    shown = " ".join(run(capsys, "rollunder", "character", "show", str(out)).out.split())
    assert "PLACEHOLDER, from your game and not these rules: ability scores (CR-G01)" in shown
    assert "maximum health (CR-G03)" in shown and "carry limit (CR-G02)" in shown
    more = ["rollunder", "--option", "abilities=STR,AGI,WIT,LUCK", "character", "new"]
    shown = run(capsys, *more, *ASH, "--set", "LUCK=3", "--max-health", "14").out
    assert "PLACEHOLDER abilities the chapter does not name: LUCK" in shown
