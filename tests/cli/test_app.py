"""`tabletop`'s entry point: what reaches a prompt can never crash the command."""

from __future__ import annotations

import io
import os
import subprocess
import sys

import pytest

from tests.cli.helpers import run


@pytest.mark.parametrize(
    ("args", "asked_again"),
    [
        (["ap2d6", "death", "--seed", "1"], "cannot read"),
        (["constitution", "combat", "--seed", "1"], "unknown command"),
    ],
)
def test_bytes_that_are_not_utf8_at_a_prompt_are_asked_again(
    capsys, monkeypatch, args, asked_again
):
    """Most UTF-8 locales read stdin strictly: a stray byte was a UnicodeDecodeError (exit 1)."""
    typed = io.TextIOWrapper(io.BytesIO(b"ab\xff\xfe\n"), encoding="utf-8", errors="strict")
    monkeypatch.setattr("sys.stdin", typed)
    result = run(capsys, *args)
    assert result.code == 0 and "internal error" not in result.err
    assert asked_again in result.out and "ab\ufffd\ufffd" in result.out


def test_a_terminal_that_cannot_show_the_arrow_still_gets_the_roll():
    """With an ASCII-only stdout every roll's → was a UnicodeEncodeError (exit 1)."""
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    entry = "from tabletop.cli.app import main; main()"
    done = subprocess.run(
        [sys.executable, "-c", entry, "roll", "4d6dl1", "--seed", "1"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0 and "4d6dl1 ? [" in done.stdout and done.stderr == ""


@pytest.mark.parametrize("args", [[], ["constitution"], ["rollunder", "odds"]])
def test_no_arguments_shows_the_help_without_an_empty_error_line(capsys, args):
    """The help went to stdout and then a bare 'error:' to stderr."""
    result = run(capsys, *args)
    assert result.code == 2 and "Usage:" in result.out and result.err == ""
