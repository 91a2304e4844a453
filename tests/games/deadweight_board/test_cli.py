"""`tabletop deadweight-board play|simulate|replay|report` end to end."""

from __future__ import annotations

import csv
import io
import json
import os
import stat
import sys

import pytest

from tabletop.cli.app import main


def _run(argv: list[str], capsys, stdin: str = "") -> tuple[int, str, str]:
    old = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        main(argv)
        code = 0
    except SystemExit as stop:
        code = stop.code or 0
    finally:
        sys.stdin = old
    out = capsys.readouterr()
    return code, out.out, out.err


def _short(tmp_path, turns: int = 60) -> str:
    path = tmp_path / "short.toml"
    path.write_text(f"turn_cap = {turns}\n")
    return str(path)


def test_simulate_json_reports_rates_with_intervals(tmp_path, capsys):
    code, out, _ = _run(
        [
            "deadweight-board",
            "simulate",
            "--games",
            "4",
            "--seats",
            "random,greedy",
            "--players",
            "3",
            "--seed",
            "2",
            "--json",
            "--config",
            _short(tmp_path),
        ],
        capsys,
    )
    assert code == 0
    data = json.loads(out)
    assert data["games"] == 4 and len(data["win_rate_by_seat"]) == 3
    assert {row["bot"] for row in data["win_rate_by_bot"]} == {"random", "greedy"}
    assert sum(row["rate"] for row in data["win_rate_by_seat"]) == pytest.approx(1.0)
    assert data["life_ring_sources"]


def test_simulate_log_then_replay(tmp_path, capsys):
    log = tmp_path / "games.jsonl"
    code, out, _ = _run(
        [
            "deadweight-board",
            "simulate",
            "--games",
            "3",
            "--seats",
            "random",
            "--players",
            "2",
            "--config",
            _short(tmp_path, 80),
            "--log",
            str(log),
            "--jobs",
            "2",
        ],
        capsys,
    )
    assert code == 0 and "win rate by seat" in out
    lines = log.read_text().splitlines()
    assert json.loads(lines[0])["type"] == "setup" and json.loads(lines[-1])["type"] == "end"
    code, out, _ = _run(["deadweight-board", "replay", str(log)], capsys)
    assert code == 0 and "3 games replayed" in out
    record = json.loads(lines[10])
    record["digest"] = "00000000"
    lines[10] = json.dumps(record)
    log.write_text("\n".join(lines) + "\n")
    code, _, err = _run(["deadweight-board", "replay", str(log)], capsys)
    assert code == 2 and "line 11" in err


def test_report_saves_plots(tmp_path, capsys):
    code, out, _ = _run(
        [
            "deadweight-board",
            "report",
            "--games",
            "3",
            "--seats",
            "greedy",
            "--players",
            "2,3",
            "--jobs",
            "1",
            "--out",
            str(tmp_path / "plots"),
            "--config",
            _short(tmp_path, 40),
        ],
        capsys,
    )
    assert code == 0
    assert "Seat advantage" in out and "Player count" in out
    saved = {p.name for p in (tmp_path / "plots").iterdir()}
    assert {name for name in saved if name.endswith(".png")} == {
        "win_rate_by_seat.png",
        "game_length.png",
        "life_ring_sources.png",
    }
    table = tmp_path / "plots" / "01_1_seat_advantage_win_rate_by_seat_2_players_3_games.csv"
    rows = list(csv.reader(table.open()))
    assert rows[0] == ["seat", "win rate", "95% interval"]
    assert [row[0] for row in rows[1:]] == ["Red", "Blue"]
    assert any(name.endswith("_14_player_count.csv") for name in saved)


def test_report_sets_config_b_beside_a_with_intervals(tmp_path, capsys):
    """Item 5: A/B by one changed reading (a turn cap of 10 against 40), both player counts,
    the difference in game length with its interval, tables as CSV and plots per count."""
    folder = tmp_path / "ab"
    code, out, _ = _run(
        [
            "deadweight-board",
            "report",
            "--games",
            "6",
            "--players",
            "2,3",
            "--jobs",
            "1",
            "--config",
            _short(tmp_path, 40),
            "--compare-option",
            "turn_cap=10",
            "--out",
            str(folder),
            "--json",
        ],
        capsys,
    )
    assert code == 0
    result = json.loads(out)
    assert result["config_changes"] == {"A": {"turn_cap": 40}, "B": {"turn_cap": 10}}
    lengths = [s for s in result["sections"] if s["question"].startswith("A/B: game length")]
    assert [s["question"][-25:] for s in lengths] == [
        "(2 players, 6 games each)",
        "(3 players, 6 games each)",
    ]
    for section in lengths:
        measure, a, _, b, _, diff, interval = section["rows"][0]
        assert measure == "mean turns"
        assert float(b) <= 10 < float(a) and float(diff) == pytest.approx(float(b) - float(a), 0.1)
        low, high = (float(x) for x in interval.split(" to "))
        assert low <= float(diff) <= high
    names = {p.name for p in folder.iterdir()}
    assert {"ab_win_rate_by_seat.png", "ab_game_length.png", "a_game_length.png"} <= names
    assert "b_life_ring_sources.png" in names
    assert sum(name.endswith(".csv") for name in names) == len(result["sections"])


def test_report_gives_each_bot_mix_its_turn_cap_rate(tmp_path, capsys):
    """Issue 23 item 6 (ENG-16): with --seats repeated, every bot mix plays every player
    count and one table gives each its games run to the turn cap, the same games
    `simulate` plays for that mix and seed; a cap of 40 turns stops every game."""
    argv = ["deadweight-board", "report", "--games", "3", "--players", "2", "--jobs", "1"]
    argv += ["--seats", "greedy", "--seats", "random,greedy", "--no-plots", "--json"]
    code, out, _ = _run([*argv, "--config", _short(tmp_path, 40)], capsys)
    assert code == 0
    result = json.loads(out)
    assert result["bots"] == ["greedy", "random,greedy"]
    (caps,) = (s for s in result["sections"] if s["question"].startswith("Turn cap by bot mix"))
    assert caps["headers"][:5] == ["bots", "players", "games", "capped", "share"]
    assert [row[:5] for row in caps["rows"]] == [
        ["greedy", "2", "3", "3", "100.0%"],
        ["random,greedy", "2", "3", "3", "100.0%"],
    ]
    assert any(
        s["question"].startswith("random,greedy: 1. Seat advantage") for s in result["sections"]
    )
    code, out, _ = _run(argv, capsys)
    rows = {row[0]: row for row in json.loads(out)["sections"][-1]["rows"]}
    for mix in ("greedy", "random,greedy"):
        simulate = ["deadweight-board", "simulate", "--json", "--seats", mix]
        code, out, _ = _run([*simulate, "--games", "3", "--players", "2"], capsys)
        simulated = json.loads(out)
        assert rows[mix][3] == str(simulated["turn_cap_games"])
        assert rows[mix][6] == f"{simulated['length_turns']['mean']:.1f}"


def test_play_against_bots_re_asks_on_bad_input(tmp_path, capsys):
    answers = "banana\n99\nb\n" + "1\n" * 200
    argv = ["deadweight-board", "play", "--seats", "you,greedy", "--seed", "3", "--json"]
    argv += ["--config", _short(tmp_path, 6)]
    code, out, err = _run(argv, capsys, answers)
    assert code == 0
    assert "type a number from 1 to 10" in err  # with --json the game is told on stderr
    (line,) = out.splitlines()  # issue 17: --json mixed the board into standard output
    assert json.loads(line)["aborted"] is True


def test_play_quits_on_q_with_one_line_and_exit_zero(capsys):
    """Issue 17: `q` at a prompt (typed or piped) ended in "error: aborted" and exit 1; the
    player leaving is no error, and with --json standard output says so as JSON."""
    argv = ["deadweight-board", "play", "--seats", "you,random", "--seed", "1"]
    code, out, err = _run(argv, capsys, "1\nq\n")
    assert code == 0 and "you left the game at turn 1" in out and err == ""
    code, out, _ = _run([*argv, "--json"], capsys, "1\nq\n")
    assert code == 0 and json.loads(out) == {"quit": True, "turns": 1, "scores": [0, 0]}


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["simulate", "--seats", "random,wizard"], "unknown bot"),
        (["simulate", "--games", "0"], "between 1 and"),
        (["simulate", "--seats", "you,random"], "bots only"),
        (["simulate", "--seats", "random,greedy,mcts", "--players", "2"], "3 seats named"),
        (["play", "--seats", "you"], "2 to 4"),
        (["simulate", "--seats", "mcts:0,random"], "bad MCTS budget"),
        (["replay", "/nonexistent.jsonl"], "cannot read log"),
        (["report", "--players", "5"], "--players"),
        (["report", "--seats", "greedy", "--seats", "greedy"], "named twice"),
        (
            ["report", "--players", "2", "--seats", "greedy", "--seats", "random,greedy,mcts"],
            "3 seats",
        ),
        (
            ["report", "--seats", "greedy", "--seats", "random", "--compare-option", "turn_cap=9"],
            "one bot mix",
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_two(argv, message, capsys):
    code, _, err = _run(["deadweight-board", *argv], capsys)
    assert code == 2 and message in err
    assert "Traceback" not in err


def test_a_refused_simulate_leaves_an_existing_log_untouched(tmp_path, capsys):
    """Bad input changes nothing: a run refused for its arguments must not truncate the
    log file it was pointed at, nor print anything but the one error line."""
    log = tmp_path / "games.jsonl"
    log.write_text("precious\n")
    for argv in (["--games", "0"], ["--seats", "random,wizard"], ["--players", "5"]):
        code, out, err = _run(["deadweight-board", "simulate", *argv, "--log", str(log)], capsys)
        assert code == 2 and "Traceback" not in err
        assert out == "" and len(err.strip().splitlines()) == 1
        assert log.read_text() == "precious\n"


def test_simulate_log_in_a_missing_folder_is_one_line(tmp_path, capsys):
    code, _, err = _run(
        [
            "deadweight-board",
            "simulate",
            "--games",
            "1",
            "--log",
            str(tmp_path / "no" / "such" / "games.jsonl"),
        ],
        capsys,
    )
    assert code == 2 and "cannot write" in err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_simulate_log_never_replaces_a_pipe_or_device(tmp_path, capsys):
    """The finished log was moved over whatever had the name: as root, --log /dev/null
    would have replaced the device with a regular file."""
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    argv = ["deadweight-board", "simulate", "--games", "1", "--log", str(pipe)]
    code, _, err = _run(argv, capsys)
    assert code == 2 and "not a regular file" in err
    assert stat.S_ISFIFO(pipe.stat().st_mode) and os.listdir(tmp_path) == ["pipe"]
    code, _, err = _run([*argv[:-1], "a" * 5000], capsys)  # was an OSError: exit 1
    assert code == 2 and "File name too long" in err


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs a file that never ends")
@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["replay", "/dev/zero"], "not a regular file"),
        (["simulate", "--games", "1", "--config", "/dev/zero"], "not a regular file"),
    ],
)
def test_a_file_that_never_ends_is_refused_at_its_bound(argv, message, capsys):
    """A device has no size to check first: reading it whole hung and filled the memory, so
    only a regular file is opened."""
    code, _, err = _run(["deadweight-board", *argv], capsys)
    assert code == 2 and message in err and err.count("\n") == 1


def test_report_refuses_an_unusable_plot_folder_before_simulating(tmp_path, capsys):
    taken = tmp_path / "a-file"
    taken.write_text("")
    code, out, err = _run(
        ["deadweight-board", "report", "--games", "1", "--jobs", "1", "--out", str(taken)],
        capsys,
    )
    assert code == 2 and "cannot save plots" in err
    assert out == ""


def test_replay_of_a_binary_file_is_one_line(tmp_path, capsys):
    log = tmp_path / "noise.jsonl"
    log.write_bytes(bytes(range(128, 256)))
    code, _, err = _run(["deadweight-board", "replay", str(log)], capsys)
    assert code == 2 and "cannot read log" in err


def test_replay_names_an_action_number_out_of_every_range(tmp_path, capsys):
    log = tmp_path / "games.jsonl"
    _run(
        [
            *("deadweight-board", "simulate", "--games", "1", "--seats", "random,random"),
            *("--log", str(log), "--config", _short(tmp_path, 5)),
        ],
        capsys,
    )
    lines = log.read_text().splitlines()
    decision = next(i for i, line in enumerate(lines) if '"decision"' in line)
    record = json.loads(lines[decision])
    record["action"] = 99_999
    lines[decision] = json.dumps(record)
    log.write_text("\n".join(lines) + "\n")
    code, _, err = _run(["deadweight-board", "replay", str(log)], capsys)
    assert code == 2 and f"line {decision + 1}: field 'action'" in err and "found 99999" in err


def test_play_input_ending_mid_game_is_one_line_and_exit_two(capsys):
    """EOF at a prompt is bad input: one readable line, exit 2, no traceback."""
    code, _, err = _run(
        ["deadweight-board", "play", "--seats", "you,random", "--seed", "1"], capsys, "1\n"
    )
    assert code == 2 and "input ended" in err and "Traceback" not in err


def test_play_shows_what_a_player_needs_and_asks_only_real_questions(capsys):
    """At the table: the lantern is not drawn before the first player places it, a forced
    choice (one legal action) is made and announced rather than asked, loot names its gem,
    and a Mariner's wall is named as the board names it."""
    from rich.console import Console

    from tabletop.cli.deadweight_board.render import board_view, choice_label, event_text
    from tabletop.games.deadweight_board import Position
    from tabletop.games.deadweight_board.actions import LOOT, STEP_1
    from tabletop.games.deadweight_board.observe import TABLE
    from tabletop.games.deadweight_board.rules import apply_in_place, legal_actions
    from tabletop.games.deadweight_board.setup import new_game

    state = new_game(2, dice=3)
    screen = Console(width=120, record=True)
    screen.print(board_view(state, TABLE))
    assert "🏮" not in screen.export_text()
    apply_in_place(state, legal_actions(state)[0])
    screen.print(board_view(state, TABLE))
    assert "🏮" in screen.export_text()

    state = Position(2).lantern("P3").turn("Red").at("Red", "S1").build()
    apply_in_place(state, STEP_1)  # take loot on S2 names the gem of its card: Pe on L0
    assert choice_label(state, LOOT) == "take loot (Pe)"
    line = event_text({"kind": "mariner_on", "player": 0, "wall": "S1|S2"}, state, TABLE)
    assert line is not None and "wall S1|S2" in line.plain

    _, out, _ = _run(
        ["deadweight-board", "play", "--seats", "you,random", "--seed", "4"], capsys, "1\n" * 40
    )
    assert "(the only choice)" in out
    menus = out.split("your choice:")[1:]
    assert menus and all("   2  " in menu.split(">")[0] for menu in menus)
