"""`tabletop table`: rolling on a table file, and clear errors for broken ones."""

from __future__ import annotations

import json

import pytest

from tests.cli.helpers import run

TABLE = """
name = "weather"
title = "Weather"
dice = "1d6"

[[entries]]
roll = "1-2"
name = "Rain"

[[entries]]
roll = "3-5"
name = "Clouds"
text = "Grey all day."

[[entries]]
roll = "6+"
name = "Sun"
effects = [{ kind = "morale", amount = 1 }]
"""


def test_table_roll_reaches_an_entry_and_records_the_dice(tmp_path, capsys):
    path = tmp_path / "weather.toml"
    path.write_text(TABLE)
    data = json.loads(run(capsys, "table", "roll", str(path), "--seed", "4", "--json").out)
    assert data["table"] == "weather"
    assert data["value"] == data["roll"]["total"]
    assert data["entry"]["name"] in {"Rain", "Clouds", "Sun"}


def test_a_modifier_can_reach_an_open_ended_entry(tmp_path, capsys):
    path = tmp_path / "weather.toml"
    path.write_text(TABLE)
    data = json.loads(
        run(capsys, "table", "roll", str(path), "--seed", "4", "--modifier", "6", "--json").out
    )
    assert data["entry"]["name"] == "Sun"
    assert data["entry"]["effects"] == [{"kind": "morale", "amount": 1}]


def test_table_roll_text_names_the_entry(tmp_path, capsys):
    path = tmp_path / "weather.toml"
    path.write_text(TABLE)
    text = run(capsys, "table", "roll", str(path), "--seed", "1").out
    assert text.startswith("Weather: 1d6 → [")


def test_table_show_lists_the_entries(tmp_path, capsys):
    path = tmp_path / "weather.toml"
    path.write_text(TABLE)
    text = run(capsys, "table", "show", str(path)).out
    assert "Rain" in text and "3-5" in text and "6+" in text


def test_a_broken_table_is_one_line_and_exit_2(tmp_path, capsys):
    path = tmp_path / "broken.toml"
    path.write_text(TABLE.replace('roll = "3-5"', 'roll = "4-5"'))
    result = run(capsys, "table", "roll", str(path))
    assert result.code == 2
    assert "no entry for a roll of 3" in result.err
    assert result.err.count("\n") == 1


def test_a_missing_table_is_one_line_and_exit_2(capsys):
    result = run(capsys, "table", "roll", "no-such-table")
    assert result.code == 2
    assert "no table file or built-in table" in result.err


@pytest.mark.parametrize("verb", ["roll", "show"])
def test_a_name_too_long_for_a_path_is_an_unknown_table(capsys, verb):
    """Looking up a 5,000-letter name as a file raised OSError (exit 1) before the fix."""
    result = run(capsys, "table", verb, "a" * 5000)
    assert result.code == 2
    assert "no table file or built-in table" in result.err


def test_markup_in_a_table_title_is_shown_as_text(tmp_path, capsys):
    path = tmp_path / "loot.toml"
    path.write_text(TABLE.replace('title = "Weather"', 'title = "Loot [/bold]"'))
    result = run(capsys, "table", "show", str(path))
    assert result.code == 0
    assert "Loot [/bold]" in result.out
