"""`tabletop roll` and `tabletop odds`: the text, the JSON contract and the errors."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from tests.cli.helpers import run


def test_roll_prints_the_record_on_one_line(capsys):
    result = run(capsys, "roll", "4d6dl1", "--seed", "3")
    assert result.code == 0
    assert result.out.startswith("4d6dl1 → [")
    assert "~~" in result.out  # the dropped die is marked when output is not a terminal
    assert result.out.count("\n") == 1


def test_roll_json_holds_the_contract_keys_and_is_byte_identical_for_a_seed(capsys):
    first = run(capsys, "roll", "4d6kh3 + d20!", "--seed", "11", "--json").out
    second = run(capsys, "roll", "4d6kh3 + d20!", "--seed", "11", "--json").out
    assert first == second
    data = json.loads(first)
    assert data["expression"] == "4d6kh3 + 1d20!"
    assert isinstance(data["total"], int)
    assert data["dice"]["type"] == "operation"


def test_roll_times_prints_one_object_per_line(capsys):
    lines = run(capsys, "roll", "3d6", "--seed", "1", "--times", "4", "--json").out.splitlines()
    assert len(lines) == 4
    assert all(json.loads(line)["expression"] == "3d6" for line in lines)


def test_roll_binds_names_with_var(capsys):
    data = json.loads(run(capsys, "roll", "d6+STR", "--var", "STR=10", "--json", "--seed", "2").out)
    assert data["total"] > 10


def test_odds_json_follows_the_contract(capsys):
    data = json.loads(run(capsys, "odds", "2d6", "--json").out)
    assert data["expression"] == "2d6"
    values = [outcome["value"] for outcome in data["outcomes"]]
    assert values == list(range(2, 13))
    exact = [Fraction(outcome["exact"]) for outcome in data["outcomes"]]
    assert sum(exact) == 1
    assert exact[5] == Fraction(1, 6)
    assert abs(sum(outcome["probability"] for outcome in data["outcomes"]) - 1) < 1e-12
    assert data["mean"] == 7.0
    assert abs(data["stdev"] - 2.41522945769824) < 1e-12


def test_odds_fractions_are_in_lowest_terms(capsys):
    data = json.loads(run(capsys, "odds", "4d6kh3", "--json").out)
    for outcome in data["outcomes"]:
        numerator, denominator = (int(part) for part in outcome["exact"].split("/"))
        assert Fraction(numerator, denominator).denominator == denominator


def test_odds_at_least_is_exact(capsys):
    data = json.loads(run(capsys, "odds", "3d6", "--at-least", "15", "--json").out)
    assert data["at_least"] == {"threshold": 15, "probability": 5 / 54, "exact": "5/54"}
    text = run(capsys, "odds", "3d6", "--at-least", "15").out
    assert "exactly 5/54" in text


def test_odds_table_lists_every_total_and_the_mean(capsys):
    text = run(capsys, "odds", "2d6").out
    assert "mean 7" in text
    for total in range(2, 13):
        assert f" {total} " in text


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["roll", "4d6kx"], "character 5"),
        (["roll", "1000000000d6"], "limit is 10,000"),
        (["roll", "d0"], "at least one side"),
        (["roll", "(" * 10_000 + "1" + ")" * 10_000], "characters long"),
        (["roll", "x" * 1_000_000], "characters long"),
        (["roll", "d6+STR"], "'STR'"),
        (["roll", "d6", "--var", "STR"], "NAME=WHOLE_NUMBER"),
        (["roll", "d6", "--seed", "x"], "--seed"),
        (["roll", "d6", "--times", "0"], "--times"),
        (["odds", "1000d6kh500"], "sample it instead"),
        (["odds", "3d6", "--at-least", "3", "--at-most", "4"], "not both"),
        (["odds", "6 / (d2 - 1)", "--json"], "divide by zero"),
        (["nonsense"], "nonsense"),
        (["roll", "10000d6", "--times", "200"], "--times may throw at most 100,000"),
        (["roll", "3d6", "--seed", "-1"], "seed"),
    ],
)
def test_errors_are_one_line_on_stderr_with_exit_code_2(capsys, args, words):
    result = run(capsys, *args)
    assert result.code == 2
    assert result.out == ""
    assert words in result.err
    assert result.err.count("\n") == 1
    assert "Traceback" not in result.err


def test_showcase_runs(capsys):
    result = run(capsys, "showcase")
    assert result.code == 0
    assert "4d6kh3" in result.out


def test_a_long_roll_stays_on_one_line_when_piped(capsys):
    result = run(capsys, "roll", "1d1000!>1:20 + 1", "--seed", "3")
    assert result.out.count("\n") == 1


def test_markup_in_an_error_is_shown_as_text(capsys):
    result = run(capsys, "roll", "[bold]")
    assert result.code == 2
    assert "[bold]" in result.err
