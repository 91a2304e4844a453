"""The `tabletop ap2d6` command line: the odds contract, checks, characters, the interactive
AP tracker and the death checks whose DC the player never sees."""

import io
import json
import os
import re

import pytest

from tests.cli.helpers import run as run_tabletop


@pytest.fixture
def run(capsys, monkeypatch):
    """Run `tabletop` with arguments and typed lines; returns (exit code, stdout, stderr)."""

    def go(*argv: str, typed: str = "") -> tuple[int, str, str]:
        monkeypatch.setattr("sys.stdin", io.StringIO(typed))
        result = run_tabletop(capsys, *argv)
        return result.code, result.out, result.err

    return go


def test_the_odds_json_contract(run) -> None:
    """Issue 6: one object with success, double_one, double_six as floats and "exact" with the
    same keys as "p/q" strings."""
    code, out, _ = run("ap2d6", "odds", "--score", "0", "--dc", "7", "--json")
    data = json.loads(out)
    assert code == 0 and set(data) == {"success", "double_one", "double_six", "exact"}
    assert data["exact"] == {"success": "7/12", "double_one": "1/36", "double_six": "1/36"}
    assert data["success"] == pytest.approx(7 / 12)
    _, out, _ = run("ap2d6", "odds", "--score", "0", "--dc", "7", "--defender-wins-ties", "--json")
    assert json.loads(out)["exact"]["success"] == "5/12"


def test_odds_as_text_and_with_a_rule_changed(run) -> None:
    _, out, _ = run("ap2d6", "odds", "--score", "0", "--dc", "2")
    assert "35/36" in out
    _, out, _ = run(
        "ap2d6", "--option", "double_one_fails=false", "odds", "-s", "0", "--dc", "2", "--json"
    )
    assert json.loads(out)["exact"]["success"] == "1/1"


def test_check_against_a_score_and_json(run) -> None:
    code, out, _ = run("ap2d6", "check", "--score", "0", "--against", "1", "--seed", "3", "--json")
    data = json.loads(out)
    assert code == 0 and data["dc"] == 7 and data["defender_wins_ties"]
    assert data["total"] == sum(data["roll"]["faces"])
    _, text, _ = run("ap2d6", "check", "--score", "none", "--dc", "2")
    assert "special" in text and "failure" in text


@pytest.mark.parametrize(
    "argv",
    [
        ("ap2d6", "check", "--score", "1"),
        ("ap2d6", "check", "--score", "1", "--dc", "3", "--against", "2"),
        ("ap2d6", "check", "--score", "x", "--dc", "3"),
        ("ap2d6", "--option", "nonsense=1", "odds", "--score", "0", "--dc", "7"),
        ("ap2d6", "--option", "tie_on_set_dc=maybe", "odds", "--score", "0", "--dc", "7"),
        ("ap2d6", "character", "new", "--points", "2", "--set", "STR=3"),
        ("ap2d6", "character", "new", "--random", "d8-4"),
        ("ap2d6", "character", "new", "--random", "d4-2", "--set", "STR=1"),
        ("ap2d6", "death", "--hp", "3"),
        ("ap2d6", "death", "--hp", "-9"),
        ("ap2d6", "ap", "--character", ":2"),
        ("ap2d6", "ap", "-c", "Ayla", "-c", "ayla"),
        ("ap2d6", "ap", "-c", "x" * 81),
        ("ap2d6", "ap", *[arg for n in range(101) for arg in ("-c", f"P{n}")]),
        ("ap2d6", "death", "--name", ""),
        ("ap2d6", "character", "new", "--set", "STR=1", "--set", "str=2"),
        ("ap2d6", "character", "new", "--skill", "STEALTH=1", "--skill", "STEALTH=2"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(run, argv) -> None:
    code, out, err = run(*argv)
    assert code == 2 and out == ""
    assert err.startswith("error:") and err.count("\n") == 1


def test_contest_json(run) -> None:
    code, out, _ = run("ap2d6", "contest", "--score", "3", "--versus", "0", "--seed", "1", "--json")
    data = json.loads(out)
    assert code == 0 and data["winner"] in ("first", "second", None) and len(data["rounds"]) == 1


def test_character_new_by_point_buy_and_at_random(run) -> None:
    code, out, _ = run(
        "ap2d6",
        "character",
        "new",
        "--name",
        "Ayla",
        "--set",
        "STR=2",
        "--set",
        "AGI=-1",
        "--skill",
        "STEALTH=2",
        "--json",
    )
    sheet = json.loads(out)
    assert code == 0 and sheet["unspent_sp"] == 9 - 3 + 1 - 2 and sheet["hp"] == 18
    first = run("ap2d6", "character", "new", "--random", "d6-3", "--seed", "9", "--json")[1]
    again = run("ap2d6", "character", "new", "--random", "d6-3", "--seed", "9", "--json")[1]
    assert first == again and json.loads(first)["unspent_sp"] == 4
    _, text, _ = run("ap2d6", "character", "new", "--random", "d4-2", "--seed", "9")
    assert "Health" in text and "To-Hit" in text


def test_the_ap_tracker_runs_the_seeds_walkthrough(run) -> None:
    """The rules' walkthrough typed at the terminal: (2n2), move, next round, move, next."""
    typed = "spend 2n2\nmove\nnext\nmove\nnext\nquit\n"
    code, out, _ = run("ap2d6", "ap", "--json", typed=typed)
    state = json.loads(out.strip().splitlines()[-1])
    assert code == 0 and state["round"] == 3
    assert state["characters"][0]["tracker"]["tokens"] == [0, 0, 0]


def test_the_ap_tracker_asks_again_after_bad_input(run) -> None:
    typed = (
        "Ayla fly\nspend 1n1\nAyla spend 4n1\nOrc move\n"
        "Ayla attack (1n1)->(2n1)\nAyla attack (1n1)->(2n1)\n"
    )
    code, out, _ = run("ap2d6", "ap", "-c", "Ayla:2", "-c", "Orc", "--json", typed=typed)
    errors = [json.loads(line)["error"] for line in out.splitlines() if '"error"' in line]
    assert code == 0 and len(errors) == 3
    assert "cannot read 'fly'" in errors[0] and "say who acts" in errors[1]
    assert "needs 4 AP" in errors[2]
    state = json.loads(out.strip().splitlines()[-1])
    ayla, orc = state["characters"]
    assert ayla["tracker"]["tokens"] == [1, 1, 1] and ayla["tracker"]["uses"] == {"attack": 2}
    assert orc["tracker"]["tokens"] == [0, 0, 1]


def test_the_ap_tracker_orders_and_interrupts(run) -> None:
    typed = "order Ayla Orc\ninterrupt Orc Ayla\nOrc wait\nnext\n"
    code, out, _ = run("ap2d6", "ap", "-c", "Ayla:2", "-c", "Orc", "--seed", "4", typed=typed)
    assert code == 0 and "in order: Ayla, Orc" in out and "acts first" in out


DEATH_SCRIPT = "roll 3 3\nroll 3 3\nroll 3 3\nhit 1\nroll\n"


def test_the_death_screen_is_the_same_whatever_the_dc(run, tmp_path) -> None:
    """Seed 1 hides DC 7 (three 6s fail: dead), seed 2 hides DC 2 (they live). Everything on
    the player's screen, text or JSON, is the same until someone checks on the character;
    the GM's file has the DC."""
    shown = {}
    for seed in ("1", "2"):
        gm = tmp_path / f"gm{seed}.json"
        for as_json in (False, True):
            flags = ("--json",) if as_json else ()
            code, out, err = run(
                "ap2d6", "death", "--seed", seed, "--gm-file", str(gm), *flags, typed=DEATH_SCRIPT
            )
            assert code == 0 and err == ""
            shown[seed, as_json] = out
        secret = json.loads(gm.read_text())["view"]
        assert secret["dc"] == {"1": 7, "2": 2}[seed]
    assert shown["1", False] == shown["2", False]
    assert shown["1", True] == shown["2", True]
    assert "stop rolling" in shown["1", False]
    assert not re.search(r"DC\W*\d|margin|success|fail(ed|ure) by", shown["1", False])
    for line in shown["1", True].splitlines():
        data = json.loads(line)
        assert "dc" not in json.dumps(data).lower().replace("dice", "")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_gm_file_that_is_a_pipe_is_refused_not_waited_on(run, tmp_path) -> None:
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    code, _, err = run("ap2d6", "death", "--seed", "1", "--gm-file", str(pipe), typed="\n")
    assert code == 2 and "not a regular file" in err and err.count("\n") == 1


def test_the_check_reveals_the_fate(run) -> None:
    _, dead, _ = run("ap2d6", "death", "--seed", "1", typed=DEATH_SCRIPT + "check\n")
    _, alive, _ = run("ap2d6", "death", "--seed", "2", typed=DEATH_SCRIPT + "check\n")
    assert "dead" in dead.splitlines()[-1] and "alive" in alive.splitlines()[-1]


def test_interactive_json_stays_json_for_help_and_refusals(run) -> None:
    """Every line the interactive commands print with --json is one JSON object: help in the
    death session, and a refused `order` with nobody named in the AP tracker."""
    _, out, _ = run("ap2d6", "death", "--seed", "1", "--json", typed="help\nroll\n")
    lines = [json.loads(line) for line in out.splitlines()]
    assert any("help" in line for line in lines)
    _, out, _ = run("ap2d6", "ap", "-c", "Ayla", "--json", typed="order\n")
    lines = [json.loads(line) for line in out.splitlines()]
    assert "name the characters" in lines[1]["error"]
