"""The hostile inputs issue 17 names, one test each (the roll-under system's are in its own
suite)."""

from __future__ import annotations

import io
import json
import os
import pty
import signal
import subprocess
import sys
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from tabletop.cli.odds_table import odds_table
from tabletop.cli.terminal import settle_terminal_size
from tabletop.data import write_text_file
from tabletop.dice import distribution
from tabletop.errors import DataError
from tabletop.games.deadweight_board.bots import make_bot
from tabletop.games.deadweight_board.config import make_config
from tabletop.games.deadweight_board.errors import ReplayError
from tabletop.games.deadweight_board.log import GENESIS, line_hash, replay_lines
from tabletop.games.deadweight_board.rules import (
    legal_actions,
)
from tabletop.games.deadweight_board.simulate import bot_seed, run_games
from tests.effort import tried
from tests.games.deadweight_board.logs import written_game
from tests.hostile.harness import check, run

pytestmark = pytest.mark.hostile

PROGRAM = "from tabletop.cli import main; main()"

MEASURED = (
    "import atexit, re, sys\n"
    "def peak():\n"
    "    status = open('/proc/self/status').read()\n"
    "    sys.stderr.write('peak-kib ' + re.search(r'VmHWM:\\s+(\\d+)', status)[1] + '\\n')\n"
    "atexit.register(peak)\n" + PROGRAM
)
"""The command, reporting its peak resident memory on stderr as it leaves. VmHWM belongs to
the process's own memory map, new at exec; `ru_maxrss` would carry over the test worker's
size from the fork that started it."""


def _spawn(args: list[str], env: dict[str, str] | None = None) -> tuple[int, str, str, float, int]:
    """`tabletop args` in a fresh interpreter: exit, stdout, stderr, seconds and peak KiB."""
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", MEASURED, *args],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=120,
    )
    seconds = time.perf_counter() - start
    err, _, peak = done.stderr.rstrip("\n").rpartition("peak-kib ")
    return done.returncode, done.stdout, err, seconds, int(peak)


# -- numbers a person types ------------------------------------------------------------------


def test_a_superscript_digit_answered_at_a_prompt_is_asked_again_not_a_crash():
    # was: int('²') after '²'.isdigit() -> "internal error", exit 1
    outcome = run(["dead-weight", "test", "DEX", "--score", "2", "--proficiency", "1",
                   "--seed", "1"], "²\n1\n")  # fmt: skip
    check(outcome)
    assert outcome.code == 0 and "choose 1 to" in outcome.out


def test_a_superscript_digit_in_a_reroll_answer_is_refused_in_one_line():
    outcome = run(["dead-weight", "character", "new", "--guided", "--seed", "1"], "r ²\n")
    check(outcome)


def test_arabic_indic_digits_are_read_as_the_number_they_are():
    outcome = run(["roll", "d6+STR", "--var", "STR=٣", "--json", "--seed", "1"])
    check(outcome)
    assert json.loads(outcome.out)["expression"] == "1d6 + STR" and outcome.code == 0
    assert json.loads(outcome.out)["dice"]["right"]["value"] == 3


@pytest.mark.parametrize(
    "argv",
    [
        ["roll", "d6+A", "--var", "A=²"],
        ["roll", "d6+A", "--var", "A=1e3"],
        ["roll", "d6+A", "--var", "A=" + "9" * 40],  # past what a dice value may be
        ["odds", "2d6", "--at-least", "²"],
        ["constitution", "check", "--ability", "²", "--dc", "10"],
        ["ap2d6", "check", "--score", "²", "--dc", "8"],
    ],
)
def test_a_number_that_is_not_a_whole_number_is_one_line_and_exit_2(argv):
    outcome = run(argv)
    check(outcome)
    assert outcome.code == 2


# -- odds of a huge die --------------------------------------------------------------------


def test_odds_of_1d100000_is_fast_and_small():
    # was: 69 s and 420 MB, printing a table row for every outcome
    code, out, err, seconds, peak = _spawn(["odds", "1d100000"])
    assert code == 0, err
    assert seconds < 15 and peak < 200_000, (seconds, peak)
    assert len(out.splitlines()) < 60 and "100,000 totals in ranges" in out
    assert "1/40" in out  # each of the forty ranges, exactly


def test_odds_json_of_a_huge_die_stays_complete():
    outcome = run(["odds", "1d50000", "--json"])
    data = json.loads(outcome.out)
    assert len(data["outcomes"]) == 50_000 and data["outcomes"][0]["exact"] == "1/50000"


def test_odds_all_past_the_listing_limit_points_to_json():
    outcome = run(["odds", "1d100000", "--all"])
    check(outcome)
    assert outcome.code == 2 and "--json" in outcome.err


def test_odds_text_shows_exact_fractions_next_to_the_percentages():
    outcome = run(["odds", "2d6"])
    row = next(line for line in outcome.out.splitlines() if line.strip().startswith("7 "))
    assert "16.7%" in row and "1/6" in row
    assert "exactly 5/8" in run(["odds", "3d6", "--at-least", "10"]).out


# -- text from a person or a file ----------------------------------------------------------


def test_escape_sequences_in_a_table_file_are_printed_as_text(files):
    outcome = run(["table", "show", str(files["escape-table.toml"])])
    check(outcome)  # no ESC byte reaches either stream
    assert "\\x1b]0;t\\x07" in outcome.out


def test_escape_sequences_in_a_character_name_are_printed_as_text(files):
    outcome = run(["dead-weight", "character", "show", str(files["escape-name.json"])])
    check(outcome)
    assert outcome.code == 0 and "\\x1b[31mred" in outcome.out


def test_escape_sequences_in_a_mistyped_command_are_printed_as_text():
    outcome = run(["\x1b[2Jroll"])
    check(outcome)
    assert outcome.code == 2 and "\\x1b[2J" in outcome.err


def test_an_error_quoting_a_huge_input_is_one_short_line():
    # a 600 kB argument used to come back whole in the error line
    outcome = run(["x" * 600_000])
    check(outcome)
    assert outcome.code == 2 and len(outcome.err) < 400 and outcome.err.count("\n") == 1


def test_a_600_kb_sheet_gives_a_short_error(files):
    outcome = run(["dead-weight", "character", "show", str(files["big-name.json"])])
    check(outcome)
    assert outcome.code == 2 and len(outcome.err) < 400


# -- terminals -----------------------------------------------------------------------------


@pytest.mark.parametrize("columns", ["0", "20", "²", "-5", "99999999999"])
def test_any_columns_setting_still_shows_the_numbers(columns, monkeypatch):
    # was: COLUMNS=0 printed nothing, 20 columns hid the numbers, ² crashed Rich at import
    monkeypatch.setenv("COLUMNS", columns)
    monkeypatch.setenv("LINES", columns)
    settle_terminal_size()
    screen = Console(file=io.StringIO())  # reads the settled size, as the app's consoles do
    screen.print(odds_table("2d6", distribution("2d6"), False, screen.width))
    row = next(line for line in screen.file.getvalue().splitlines() if line.startswith("    7 "))
    assert "16.7%" in row and "1/6" in row and "58.3%" in row


def test_a_size_rich_cannot_read_is_settled_before_rich_reads_it():
    code, out, err, _, _ = _spawn(["odds", "2d6"], {"COLUMNS": "²", "LINES": "0"})
    assert code == 0, err
    assert "1/6" in out


def test_term_dumb_keeps_the_dropped_die_mark():
    # a terminal without styles cannot strike a die out, so the plain mark is used
    leader, follower = pty.openpty()
    environment = {**os.environ, "TERM": "dumb", "COLUMNS": "80"}
    process = subprocess.Popen(
        [sys.executable, "-c", PROGRAM, "roll", "4d6dl1", "--seed", "3"],
        stdout=follower,
        stderr=follower,
        env=environment,
    )
    os.close(follower)
    output = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:
            break
        if not chunk:
            break
        output += chunk
    process.wait(timeout=60)
    os.close(leader)
    assert process.returncode == 0 and b"~~" in output and b"\x1b" not in output


# -- files ---------------------------------------------------------------------------------


def test_a_sheet_without_its_attributes_is_refused_not_defaulted(files, tmp_path):
    sheet = json.loads(files["dead_weight"].read_text())
    del sheet["attributes"]
    bare = tmp_path / "bare.json"
    bare.write_text(json.dumps(sheet))
    outcome = run(["dead-weight", "character", "show", str(bare)])
    check(outcome)
    assert outcome.code == 2 and "attributes.STR.score" in outcome.err


def test_a_2d6_sheet_without_its_scores_is_refused_not_defaulted(tmp_path):
    from tabletop.systems.ap2d6.errors import Ap2d6DataError
    from tabletop.systems.ap2d6.sheet import read_sheet

    bare = tmp_path / "bare.json"
    bare.write_text('{"name": "Ayla"}')
    with pytest.raises(Ap2d6DataError, match="scores"):
        read_sheet(bare)


@pytest.mark.parametrize("name", ["nan.json", "huge-number.json", "long-int.json", "deep.json"])
def test_numbers_json_cannot_hold_are_refused_in_one_line(files, name):
    # was: NaN and 1e400 read as floats, and a 5,000-digit integer was a ValueError
    for argv in (
        ["dead-weight", "character", "show", str(files[name])],
        ["constitution", "combat", "--load", str(files[name])],
    ):
        outcome = run(argv, "quit\n")
        check(outcome)
        assert outcome.code == 2


def test_a_named_pipe_given_as_a_saved_fight_is_refused_at_once(files):
    # was: opening the pipe waited for a writer for ever
    outcome = run(["constitution", "combat", "--load", str(files["fifo.json"])], "quit\n")
    check(outcome)
    assert outcome.code == 2 and "not a regular file" in outcome.err and outcome.seconds < 5


def test_an_output_is_never_written_through_a_symbolic_link(tmp_path):
    target = tmp_path / "target.json"
    target.write_text("keep me")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    outcome = run(["dead-weight", "character", "new", "--seed", "1", "--out", str(link)])
    check(outcome)
    assert outcome.code == 2 and "symbolic link" in outcome.err
    assert link.is_symlink() and target.read_text() == "keep me"


def test_a_link_planted_under_the_partial_name_is_not_followed(tmp_path):
    victim = tmp_path / "victim"
    victim.write_text("keep me")
    out = tmp_path / "sheet.json"
    (tmp_path / f".sheet.json.{os.getpid()}.partial").symlink_to(victim)
    with pytest.raises(DataError):
        write_text_file(out, "new text")
    assert victim.read_text() == "keep me" and not out.exists()


def test_an_output_is_complete_or_absent(tmp_path):
    out = tmp_path / "sheet.json"
    write_text_file(out, "first")
    write_text_file(out, "second")
    assert out.read_text() == "second"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sheet.json"]


# -- JSON ----------------------------------------------------------------------------------


def test_the_ap_tracker_shows_the_fight_as_json_under_json():
    # was: `show` under --json answered {"error": ...}
    outcome = run(["ap2d6", "ap", "--json", "-c", "Ayla"], "show\n")
    check(outcome)
    lines = [json.loads(line) for line in outcome.out.splitlines()]
    assert lines[1]["characters"][0]["name"] == "Ayla" and "error" not in lines[1]


def test_prompts_under_json_go_to_stderr_so_stdout_stays_json():
    outcome = run(["dead-weight", "test", "DEX", "--score", "2", "--proficiency", "1",
                   "--seed", "1", "--json"], "1\n1\n")  # fmt: skip
    check(outcome)
    assert outcome.code == 0


# -- the notation --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv", [["roll", "-d4", "--seed", "1"], ["roll", "--seed", "1", "-d4"], ["odds", "-d4"]]
)
def test_a_leading_minus_is_a_dice_expression_not_an_option(argv):
    # was: "No such option: -d"
    outcome = run(argv)
    check(outcome)
    assert outcome.code == 0 and "-1d4" in outcome.out


# -- stopping a simulation on many processes -------------------------------------------------


def _as_a_terminal_starts_it() -> None:
    """Ctrl-C and Ctrl-\\ at their defaults, as a shell sets them for a job in the
    foreground, whatever the test process has: a child inherits an ignored SIGINT (seen in
    the suite's worker process, from something run before in it), and Python then installs
    no KeyboardInterrupt, so the command kept playing and the test waited out its two
    minutes."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGQUIT, signal.SIG_DFL)


def _simulating() -> subprocess.Popen[str]:
    """A long simulation on two worker processes, in a process group of its own (as a
    terminal runs a command), once its workers are playing."""
    command = [sys.executable, "-c", PROGRAM, "deadweight-board", "simulate", "--games",
               "1000000", "--seats", "random,random", "--jobs", "2"]  # fmt: skip
    started = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, start_new_session=True,
                               preexec_fn=_as_a_terminal_starts_it)  # fmt: skip
    deadline = time.monotonic() + 60
    while len(_left_behind(started.pid)) < 3 and time.monotonic() < deadline:
        time.sleep(0.1)  # a loaded machine may take seconds to import and fork
    time.sleep(0.5)
    return started


def _left_behind(group: int) -> list[str]:
    found = subprocess.run(["pgrep", "-g", str(group)], capture_output=True, text=True)
    return found.stdout.split()


@pytest.mark.parametrize(
    ("signal_to", "code", "line"),
    [("group", 130, "error: interrupted"), ("parent", 143, "error: terminated")],
    ids=["ctrl-c", "sigterm"],
)
def test_stopping_simulate_on_many_jobs_is_one_line_and_leaves_no_worker(signal_to, code, line):
    # was: Ctrl-C printed a traceback from every worker; SIGTERM left workers behind
    started = _simulating()
    if signal_to == "group":
        os.killpg(started.pid, signal.SIGINT)  # what Ctrl-C at a terminal does
    else:
        started.send_signal(signal.SIGTERM)
    # a loaded machine stops a pool slowly (30 s ran out at a load average of 20); a hang fails
    _, err = started.communicate(timeout=120)
    assert started.returncode == code, err
    assert "Traceback" not in err and err.strip().splitlines() == [line]
    time.sleep(0.5)
    assert _left_behind(started.pid) == []


def test_ctrl_c_while_the_command_line_loads_is_one_line():
    # a loaded machine can take seconds to import; Ctrl-C then used to print a traceback
    interrupt_the_import = (
        "import sys\n"
        "class Interrupted:\n"
        "    def find_spec(self, name, path, target=None):\n"
        "        if name == 'tabletop.cli.app':\n"
        "            raise KeyboardInterrupt\n"
        "sys.meta_path.insert(0, Interrupted())\n" + PROGRAM
    )
    done = subprocess.run([sys.executable, "-c", interrupt_the_import, "roll", "d6"],
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert (done.returncode, done.stderr, done.stdout) == (130, "error: interrupted\n", "")


# -- the board game: logs that cannot lie ----------------------------------------------------


def _short_game(seed: int = 3, bots: tuple[str, ...] = ("random", "random")) -> list[str]:
    (record,) = run_games(1, list(bots), len(bots), make_config(turn_cap=4), seed, log=True)
    return list(record.log)


def _chained_again(records: list[dict]) -> list[str]:
    """The lines a forger who knows the chain writes: every hash computed again."""
    lines, prev = [], GENESIS
    for record in records:
        record["hash"] = prev = line_hash(GENESIS if record["type"] == "setup" else prev, record)
        lines.append(json.dumps(record))
    return lines


def test_a_log_whose_bots_decisions_were_changed_does_not_replay_clean():
    # was: replay applied each recorded action without asking the bot (docs/rules ENG-15)
    seeds = [bot_seed(3, seat) for seat in range(2)]
    bots = [make_bot("random", drawn) for drawn in seeds]

    def decide(state, number):  # the game as played, but the first decision is not the bot's
        action = bots[state.owner].choose(state)
        if number == 0:
            action = next(other for other in legal_actions(state) if other != action)
        return action, {}

    forged = written_game(3, ["random", "random"], seeds, decide)
    with pytest.raises(ReplayError, match=r"^line 2: field 'action': expected \d+ \(Red's random"):
        replay_lines(forged)


def test_a_log_claiming_other_bots_than_played_does_not_replay_clean():
    # was: the setup line's bots were never read; random play passed for greedy play
    records = [json.loads(line) for line in _short_game()]
    records[0]["bots"] = ["greedy", "greedy"]
    with pytest.raises(ReplayError, match=r"field 'action': .*greedy bot, seed \d+, asked again"):
        replay_lines(_chained_again(records))


@pytest.mark.parametrize(
    ("field", "value", "named"),
    [
        ("seed", 4, "field 'state"),
        ("players", 3, "field 'bots': one holder for each of the 3 seats"),
        ("bot_seeds", [1, 2], "field 'action'"),
        ("config", {"turn_cap": 4}, "field 'config.fate_die_faces': expected \\[.*found nothing"),
        ("version", 2, "the log is version 2, this tabletop reads version 4"),
    ],
)
def test_a_log_whose_setup_line_was_altered_does_not_replay_clean(field, value, named):
    # was: the setup line's seats, bots and config were not compared with the game
    records = [json.loads(line) for line in _short_game()]
    records[0][field] = value
    with pytest.raises(ReplayError, match=named):
        replay_lines(_chained_again(records))


def _edited(value):
    """A JSON value of the same kind that is not `value`."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int | float):
        return value + 1
    if isinstance(value, str):
        return value + "x"
    if isinstance(value, list):
        return [*value, 0]
    if isinstance(value, dict):
        return {**value, "x": 1}
    return 0


@settings(max_examples=tried(40), deadline=None)
@given(where=st.tuples(st.integers(0, 10**6), st.integers(0, 10**6)))
def test_every_field_of_every_line_is_checked_and_the_first_line_that_differs_named(where):
    lines = _short_game()
    number = where[0] % len(lines)
    record = json.loads(lines[number])
    field = sorted(record)[where[1] % len(record)]
    record[field] = _edited(record[field])
    lines[number] = json.dumps(record)
    with pytest.raises(ReplayError, match=rf"^line {number + 1}: "):
        replay_lines(lines)
    assert replay_lines(_short_game()) == 1


def test_a_bot_with_a_time_budget_is_refused_for_a_log(tmp_path):
    outcome = run(["deadweight-board", "simulate", "--games", "1", "--seats", "mcts:0.01s",
                   "--players", "2", "--log", str(tmp_path / "games.jsonl")])  # fmt: skip
    check(outcome)
    assert outcome.code == 2 and "time budget" in outcome.err
    assert not (tmp_path / "games.jsonl").exists()


@pytest.mark.parametrize("name", ["board-infinity.jsonl", "board-1e400.jsonl"])
def test_infinity_or_1e400_in_a_log_is_one_line_not_an_overflow(files, name):
    # was: "internal error (OverflowError: cannot convert float infinity to integer)", exit 1
    outcome = run(["deadweight-board", "replay", str(files[name])])
    check(outcome)
    assert outcome.code == 2 and "line 1:" in outcome.err and "OverflowError" not in outcome.err


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("c.json", '{"turn_cap": Infinity}'),
        ("c.json", '{"turn_cap": NaN}'),
        ("c.json", '{"turn_cap": 1e400}'),
        ("c.toml", "turn_cap = inf\n"),
        ("c.toml", "turn_cap = 1e400\n"),
    ],
)
def test_infinity_nan_or_1e400_in_a_board_config_is_one_line(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    outcome = run(["deadweight-board", "simulate", "--games", "1", "--config", str(path)])
    check(outcome)
    assert outcome.code == 2 and "turn_cap" not in outcome.out


@pytest.mark.parametrize("kind", ["fifo.json", "directory", "/dev/zero", "too-big.json"])
@pytest.mark.parametrize("use", ["log", "config"])
def test_a_pipe_folder_device_or_huge_file_as_a_board_log_or_config_is_one_line(files, kind, use):
    # was: a named pipe waited for ever; /dev/zero was read until the bound
    path = kind if kind.startswith("/") else str(files[kind])
    argv = ["replay", path] if use == "log" else ["simulate", "--games", "1", "--config", path]
    outcome = run(["deadweight-board", *argv])
    check(outcome)
    assert outcome.code == 2 and outcome.seconds < 5


def test_board_play_reads_piped_answers_line_by_line_and_says_when_they_end(files):
    # was: "error: aborted", exit 1 (a piped `q`); the end of input now says what happened
    argv = ["deadweight-board", "play", "--seats", "you,random", "--seed", "2"]
    ended = run([*argv, "--config", str(files["board-config.toml"])], "1\n")
    check(ended)
    assert ended.code == 2 and "the input ended at turn" in ended.err
    quit_ = run(argv, "1\nq\n")
    check(quit_)
    assert quit_.code == 0 and "you left the game" in quit_.out


def test_board_play_json_puts_nothing_but_json_on_standard_output(files):
    # was: the board, the bots' moves and the prompts went to stdout before the JSON
    argv = ["deadweight-board", "play", "--seats", "you,random", "--seed", "2", "--json"]
    outcome = run([*argv, "--config", str(files["board-config.toml"])], "1\n" * 40)
    check(outcome)
    (line,) = outcome.out.splitlines()
    assert outcome.code == 0 and json.loads(line)["turns"] == 4 and "Red" in outcome.err


def test_report_writes_plots_and_tables_atomically_and_never_through_a_link(tmp_path):
    # was: matplotlib and open() wrote each file in place, following a link
    out = tmp_path / "report"
    out.mkdir()
    target = tmp_path / "precious"
    target.write_text("keep me")
    (out / "game_length.png").symlink_to(target)
    argv = ["deadweight-board", "report", "--games", "2", "--players", "2", "--jobs", "1",
            "--out", str(out)]  # fmt: skip
    outcome = run(argv, workdir=out)
    check(outcome)
    assert outcome.code == 2 and "symbolic link" in outcome.err
    assert target.read_text() == "keep me"
    (out / "game_length.png").unlink()
    outcome = run(argv, workdir=out)
    check(outcome)
    assert outcome.code == 0
    assert (out / "game_length.png").read_bytes().startswith(b"\x89PNG")
    assert all(not path.is_symlink() for path in out.iterdir())
