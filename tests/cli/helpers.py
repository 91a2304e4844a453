"""Run the `tabletop` command in-process and capture what it prints and how it exits."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from tabletop.cli.app import main


@dataclass
class Result:
    code: int
    out: str
    err: str


def run(capsys: pytest.CaptureFixture[str], *args: str) -> Result:
    code = 0
    try:
        main(list(args))
    except SystemExit as leaving:
        code = leaving.code if isinstance(leaving.code, int) else 1
    captured = capsys.readouterr()
    return Result(code, captured.out, captured.err)
