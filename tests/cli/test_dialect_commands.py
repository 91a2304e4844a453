"""`tabletop roll/odds --dialect`, the user's default dialect, the notes of other readings,
and what a roll imports."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tabletop.dice.dialects import DIALECT_VARIABLE
from tests.cli.helpers import run


def test_roll_reads_the_chosen_dialect_and_says_so_in_json(capsys):
    result = run(capsys, "roll", "--dialect", "roll20", "3d6>3", "--seed", "4", "--json")
    data = json.loads(result.out)
    assert data["dialect"] == "roll20"
    assert data["expression"] == "3d6>3"
    assert 0 <= data["total"] <= 3
    assert "tabletop reads '3d6>3' otherwise" in result.err


def test_a_reading_another_dialect_gives_otherwise_is_one_note_on_stderr(capsys):
    result = run(capsys, "roll", "3d6>3", "--seed", "1")
    assert result.code == 0
    assert result.err.strip().splitlines() == [
        "note: Roll20 reads '3d6>3' otherwise: as '3d6>=3' in tabletop (mean 2 there, 1.5 here)",
        "note: Avrae (d20) reads '3d6>3' otherwise (mean 0.9954 there, 1.5 here)",
    ]
    assert result.out.startswith("3d6>3 → [")


def test_odds_in_roll20_keep_the_fraction(capsys):
    data = json.loads(run(capsys, "odds", "--dialect", "roll20", "7/2", "--json").out)
    assert data["outcomes"] == [
        {"value": 3.5, "exact_value": "7/2", "probability": 1.0, "exact": "1/1"}
    ]


def test_odds_in_avrae_truncate_toward_zero(capsys):
    data = json.loads(run(capsys, "odds", "--dialect", "avrae", "-7/2", "--json").out)
    assert data["mean"] == -3


def test_the_user_default_comes_from_the_environment(capsys, monkeypatch):
    monkeypatch.setenv(DIALECT_VARIABLE, "foundry")
    data = json.loads(run(capsys, "odds", "1d4r1", "--json").out)
    assert data["outcomes"][0] == {"value": 1, "probability": 0.0625, "exact": "1/16"}
    assert run(capsys, "odds", "--dialect", "tabletop", "1d4r1").code == 0


def test_an_unknown_dialect_is_one_line_and_exit_2(capsys, monkeypatch):
    monkeypatch.setenv(DIALECT_VARIABLE, "rolls20")
    result = run(capsys, "roll", "1d6")
    assert result.code == 2
    assert result.err.count("\n") == 1
    assert "there is no dice dialect 'rolls20'" in result.err


def test_a_refusal_names_the_feature_on_the_command_line(capsys):
    result = run(capsys, "roll", "--dialect", "roll20", "1d20 + 1.5")
    assert result.code == 2
    assert "decimal numbers (1.5) is not supported yet (read by Roll20, Foundry VTT" in result.err
    assert len(result.err.strip().splitlines()) == 1


def test_help_and_bad_values_still_go_through_typer(capsys):
    assert "--dialect" in run(capsys, "roll", "--help").out
    bad = run(capsys, "roll", "1d6", "--times", "0")
    assert bad.code == 2
    assert "--times" in bad.err


FORBIDDEN = ("numpy", "pydantic", "matplotlib", "tabletop.rooms", "tabletop.games", "secrets")
"""`secrets` brings hmac and hashlib: the system's dice draw from os.urandom without it."""


@pytest.mark.parametrize(
    "args",
    [
        ["roll", "4d6kh3", "--seed", "1"],
        ["roll", "2d6"],
        ["roll", "--dialect", "roll20", "5d10!k2>6", "--json", "--times", "3"],
        ["odds", "3d6>3", "--at-least", "2"],
        ["odds", "--dialect", "avrae", "4d6e6kh3 / 2", "--json"],
    ],
)
def test_a_roll_imports_nothing_it_does_not_use(args):
    """Issue 34: no rooms, board game, numpy, matplotlib or pydantic for a roll."""
    script = (
        "import sys\n"
        "from tabletop.cli.app import main\n"
        f"try:\n    main({args!r})\nexcept SystemExit:\n    pass\n"
        f"print([m for m in sys.modules if m.startswith({FORBIDDEN!r})], file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stderr.strip().splitlines()[-1] == "[]"
