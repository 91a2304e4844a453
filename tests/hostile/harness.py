"""The hostile-input harness: run any `tabletop` command in-process on hostile arguments and
standard input, and check the contract every command keeps whatever it is given.

The contract (issue 17): exit 0 or 2, nothing else; on 2 exactly one `error:` line, the last
thing on stderr, short, with no traceback; with `--json` and exit 0, standard output is JSON
lines and nothing else; no terminal control character reaches either stream unasked; it
ends within `TIME_BOUND` seconds; no partial file is left beside an output.

Commands are read from the Typer app itself, so a new command is fuzzed the day it is added.
`EXCLUDED` lists the command groups other work owns for now; removing a prefix from it is
all it takes to fuzz that group too (give its file options a fixture in `FILES` if needed).
"""

from __future__ import annotations

import contextlib
import enum
import functools
import io
import json
import re
import signal
import sys
import time
import typing
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import typer
from hypothesis import strategies as st
from typer.core import TyperGroup

from tabletop.cli.app import MAX_ERROR_CHARS, app, main

TIME_BOUND = 20
"""Seconds one command may take on any input (a hang is cut off and fails the test)."""

EXCLUDED = (
    ("showcase",),  # takes no input
    ("serve",),  # runs until stopped; tests/rooms start it and feed it hostile requests
)
"""Command paths not fuzzed here, with why; remove one to fuzz it."""

_SHORT = ("--config", "{file:board-config.toml}")
_FEW = (*_SHORT, "--games", "2", "--jobs", "1")
BOUNDS = {
    ("deadweight-board", "play"): _SHORT,
    ("deadweight-board", "simulate"): _FEW,
    ("deadweight-board", "report"): (*_FEW, "--out", "{file:board-report}"),
}
"""Words put before the fuzzed ones, so each case stays fast and writes where it may: two
board games (not 100 or 200) of a few turns (board-config.toml caps them) in one process,
plots in the test's folder. An option the fuzzer also draws overrides them (the last value
counts), so a game count or a config the fuzzer gives is still tried; games stay short
because every valid config among the files is short."""

HOSTILE_TEXT = [
    "",
    " ",
    "²",
    "٣",
    "１２",
    "-0",
    "+3",
    "1e3",
    "1_000",
    "9" * 19,
    "9" * 5000,
    "-9223372036854775809",
    "nan",
    "inf",
    "\x1b[31mred\x1b[0m",
    "\x1b]0;title\x07",
    "a\x00b",
    "\udcff",
    "\u202eevil",
    "[bold]markup[/bold]",
    "[/]",
    "x" * 100_000,
    "é" * 300,
    "--json",
    "-",
    "=",
    "a=b=c",
    ",",
    ":",
    "(" * 500,
]
"""Strings that have broken command lines: Unicode digits, huge numbers, escape sequences,
markup, NUL, lone surrogates (undecodable bytes in argv), and lengths past any limit."""

PLAUSIBLE_TEXT = [
    "2",
    "1",
    "0",
    "12",
    "-1",
    "STR",
    "DEX",
    "INT",
    "d6",
    "2d6",
    "4d6kh3",
    "d8",
    "1d20!",
    "-d4",
    "STR=2",
    "AGI=-1",
    "STEALTH=2",
    "Ayla:2",
    "Ayla",
    "road:30",
    "rain",
    "wizard",
    "fighter",
    "tough",
    "d4-2",
    "mishaps",
    "dead-weight/mishaps",
]
"""Values a real user types, so the fuzzer also reaches the code past argument parsing."""

STDIN_LINES = [
    "",
    "help",
    "1",
    "2",
    "k",
    "r 1",
    "f 1 2",
    "STR",
    "skip",
    "roll",
    "²",
    "٣",
    "undo",
    "quit",
    "add Ayla 12",
    "next",
    "show",
    "\x1b[2J",
    "x" * 5000,
    "9" * 40,
    "hit 3",
    "heal 2",
]
"""Lines for interactive prompts and trackers: answers, commands, and hostile ones."""


@dataclass
class Outcome:
    """What one run of the command did."""

    argv: list[str]
    code: int
    out: str
    err: str
    seconds: float
    files: list[str] = field(default_factory=list)


class Hang(BaseException):
    """A command ran past `TIME_BOUND` (a BaseException, so no handler can swallow it)."""


CommandPath = tuple[str, ...]
"""A command's path of names: ("dead-weight", "test")."""


@functools.cache
def command_tree() -> dict[CommandPath, typing.Any]:
    """Every leaf command of the app by its path, loading each lazy group as a user would."""

    def walk(
        command: typing.Any, path: tuple[str, ...]
    ) -> Iterator[tuple[tuple[str, ...], typing.Any]]:
        if not isinstance(command, TyperGroup):
            yield path, command
            return
        context = typer.Context(command)
        for name in command.list_commands(context):
            yield from walk(command.get_command(context, name), (*path, name))

    return dict(walk(typer.main.get_command(app), ()))


def commands() -> list[tuple[str, ...]]:
    """Every leaf command of the app, as its path, less the `EXCLUDED` groups."""
    return [
        path
        for path in command_tree()
        if not any(path[: len(prefix)] == prefix for prefix in EXCLUDED)
    ]


def parameters(path: tuple[str, ...]) -> list[typing.Any]:
    """The click parameters of the command at `path`."""
    return list(command_tree()[path].params)


def arguments(path: tuple[str, ...], files: dict[str, Path]) -> st.SearchStrategy[list[str]]:
    """Command lines for `path`: each parameter left out, given a plausible value, or a
    hostile one; positionals in order, then options in a drawn order."""
    params = parameters(path)
    positional = [_argument_values(p, files) for p in params if p.param_type_name == "argument"]
    options = [_option_words(p, files) for p in params if p.param_type_name == "option"]
    bounds = [with_files(word, files) for word in BOUNDS.get(path, ())]
    return st.tuples(st.tuples(*positional), st.permutations(options).flatmap(_joined)).map(
        lambda parts: [*path, *bounds, *(word for words in parts[0] for word in words), *parts[1]]
    )


def asks_json(argv: list[str]) -> bool:
    """Whether a command line gives the `--json` flag itself, not as the value of an option
    before it (`--gm-file --json` names a file called "--json")."""
    path = max((p for p in commands() if tuple(argv[: len(p)]) == p), key=len, default=())
    options = [p for p in (parameters(path) if path else []) if p.param_type_name == "option"]
    valued = {opt for p in options if not p.is_flag for opt in p.opts}
    words = argv[len(path) :]
    return any(
        word == "--json" and (i == 0 or words[i - 1] not in valued) for i, word in enumerate(words)
    )


def with_files(word: str, files: dict[str, Path]) -> str:
    """`word` with each `{file:NAME}` replaced by the path of that fixture file."""
    return re.sub(r"\{file:([^}]+)\}", lambda found: str(files[found[1]]), word)


def _joined(options: list[st.SearchStrategy[list[str]]]) -> st.SearchStrategy[list[str]]:
    return st.tuples(*options).map(lambda groups: [word for group in groups for word in group])


def _argument_values(param: typing.Any, files: dict[str, Path]) -> st.SearchStrategy[list[str]]:
    values = _values(param, files)
    if param.nargs == -1:
        return st.lists(values, max_size=3)
    return values.map(lambda value: [value])


def _option_words(param: typing.Any, files: dict[str, Path]) -> st.SearchStrategy[list[str]]:
    """Words for one option: absent, the flag, or `--name value` (repeated if it may be)."""
    name = st.sampled_from(param.opts)
    if param.is_flag:
        return st.one_of(st.just([]), name.map(lambda flag: [flag]))
    given = st.tuples(name, _values(param, files)).map(list)
    if param.multiple:
        repeated = st.lists(given, max_size=3)
        return repeated.map(lambda pairs: [word for pair in pairs for word in pair])
    return st.one_of(st.just([]), given)


def _values(param: typing.Any, files: dict[str, Path]) -> st.SearchStrategy[str]:
    """A value for one parameter: what its type suggests, plausible text, or hostile text."""
    annotation = param.type_descriptor.annotation
    inner = typing.get_args(annotation)[0] if typing.get_args(annotation) else annotation
    suggested: list[str] = list(PLAUSIBLE_TEXT)
    if isinstance(inner, type) and issubclass(inner, enum.Enum):
        suggested = [member.value for member in inner]
    elif inner is int:
        low = param.min if param.min is not None else -3
        high = param.max if param.max is not None else low + 30
        suggested = [str(low), str(high), str(low + 1), str(high + 1), str(low - 1)]
    elif inner is Path:
        suggested = [str(path) for path in files.values()]
    return st.one_of(
        st.sampled_from(suggested),
        st.sampled_from(HOSTILE_TEXT),
        st.text(max_size=12),
    )


def stdin_text() -> st.SearchStrategy[str]:
    """What a person (or a pipe) types into prompts: a few lines, then end of input."""
    line = st.one_of(st.sampled_from(STDIN_LINES), st.text(max_size=20))
    return st.lists(line, max_size=8).map(lambda lines: "".join(f"{item}\n" for item in lines))


@contextlib.contextmanager
def _time_bound(seconds: int) -> Iterator[None]:
    def cut_off(signum: int, frame: object) -> None:
        raise Hang(f"ran past {seconds} s")

    previous = signal.signal(signal.SIGALRM, cut_off)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def run(argv: list[str], stdin: str = "", workdir: Path | None = None) -> Outcome:
    """Run `tabletop argv` in-process with `stdin`, capturing both streams and the exit."""
    out, err = io.StringIO(), io.StringIO()
    code = 0
    start = time.perf_counter()
    with (
        _time_bound(TIME_BOUND),
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
        _stdin(stdin),
    ):
        try:
            main(list(argv))
        except SystemExit as leaving:
            code = leaving.code if isinstance(leaving.code, int) else 1
    seconds = time.perf_counter() - start
    files = sorted(p.name for p in workdir.iterdir()) if workdir else []
    return Outcome(list(argv), code, out.getvalue(), err.getvalue(), seconds, files)


@contextlib.contextmanager
def _stdin(text: str) -> Iterator[None]:
    previous = sys.stdin
    sys.stdin = io.StringIO(text)
    try:
        yield
    finally:
        sys.stdin = previous


VERDICTS = {("room", "verify"): 1}
"""Commands with a verdict of their own besides 0 and 2: `room verify` exits 1, naming the
first line that fails in one line, when a log does not verify (issue 14)."""


def check(outcome: Outcome) -> None:
    """Assert the contract every command keeps (see the module docstring)."""
    told = f"tabletop {outcome.argv!r} exited {outcome.code}\n{outcome.err[-2000:]}"
    verdict = VERDICTS.get(tuple(outcome.argv[:2]))
    if verdict is not None and outcome.code == verdict:
        assert len(outcome.err.strip().splitlines()) == 1, told
        if asks_json(outcome.argv):  # the verdict is also told as JSON
            for line in outcome.out.splitlines():
                json.loads(line)
        else:
            assert not outcome.out.strip(), told
        return
    assert outcome.code in (0, 2), told
    assert "Traceback" not in outcome.err, told
    assert "\x1b" not in outcome.out + outcome.err, "a control sequence reached the terminal"
    error_lines = [line for line in outcome.err.splitlines() if line.startswith("error:")]
    if outcome.code == 2:
        helped = not outcome.err.strip() and "Usage:" in outcome.out
        assert helped or len(error_lines) == 1, told
        if error_lines:
            assert outcome.err.rstrip("\n").splitlines()[-1] == error_lines[0], told
            assert len(error_lines[0]) <= MAX_ERROR_CHARS + 20, told
    else:
        assert not error_lines, told
    if outcome.code == 0 and asks_json(outcome.argv):
        for line in outcome.out.splitlines():
            json.loads(line)
    assert not [name for name in outcome.files if name.endswith(".partial")], outcome.files
