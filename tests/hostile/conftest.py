"""Files for the hostile suite: good ones to reach deep code, and every kind of bad one."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from tests.hostile.harness import run


def _sheets(folder: Path) -> dict[str, Path]:
    """A real sheet of each system, made by the commands themselves."""
    dead_weight = folder / "amber.json"
    run(["dead-weight", "character", "new", "--class", "wizard", "--seed", "3",
         "--out", str(dead_weight)])  # fmt: skip
    ap2d6 = folder / "ayla.json"
    ap2d6.write_text(run(["ap2d6", "character", "new", "--set", "STR=2", "--json"]).out)
    table = folder / "table.toml"
    table.write_text(
        'name = "t"\ndice = "1d2"\n[[entries]]\nroll = "1"\nname = "one"\n'
        '[[entries]]\nroll = "2"\nname = "two"\n'
    )
    return {"dead_weight": dead_weight, "ap2d6": ap2d6, "table": table}


def _bad_files(folder: Path, good: Path) -> dict[str, Path]:
    """Files that have broken loaders: wrong kinds, sizes, encodings and numbers."""
    sheet = json.loads(good.read_text())
    bad: dict[str, Path] = {}

    def write(name: str, content: str | bytes) -> None:
        path = folder / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)
        bad[name] = path

    write("empty.json", "")
    write("list.json", "[1, 2]")
    write("nan.json", json.dumps(sheet).replace('"silver": 25', '"silver": NaN'))
    write("huge-number.json", json.dumps(sheet).replace('"silver": 25', '"silver": 1e400'))
    write("long-int.json", json.dumps(sheet).replace('"silver": 25', '"silver": ' + "9" * 5000))
    write("deep.json", "[" * 100_000 + "]" * 100_000)
    write("latin1.json", b'{"name": "\xe9"}')
    write("escape-name.json", json.dumps({**sheet, "name": "\x1b[31mred\x1b]0;t\x07"}))
    write("big-name.json", json.dumps({**sheet, "name": "x" * 600_000}))
    write("too-big.json", " " * 1_100_000)
    write("nan.toml", 'name = "t"\ndice = "1d2"\nx = nan\n')
    write("escape-table.toml", 'name = "\\u001b[2J"\ndice = "1d1"\n[[entries]]\nroll = "1"\n'
          'name = "\\u001b]0;t\\u0007"\n')  # fmt: skip
    for name, target in (("link.json", good), ("dangling.json", folder / "nowhere")):
        (folder / name).symlink_to(target)
        bad[name] = folder / name
    fifo = folder / "fifo.json"
    os.mkfifo(fifo)
    bad["fifo.json"] = fifo
    bad["directory"] = folder
    bad["missing"] = folder / "missing.json"
    bad["no-folder"] = folder / "no" / "such" / "folder.json"
    return bad


def _board_files(folder: Path) -> dict[str, Path]:
    """A short board-game config, a log written with it, the same log with a number JSON
    cannot hold in its setup line, and the folder a report writes to."""
    config = folder / "board-config.toml"
    config.write_text("turn_cap = 4\n")
    log = folder / "board-log.jsonl"
    run(["deadweight-board", "simulate", "--games", "2", "--seats", "random,greedy",
         "--config", str(config), "--log", str(log)])  # fmt: skip
    made = {"board-config.toml": config, "board-log.jsonl": log}
    setup, rest = log.read_text().split("\n", 1)
    for name, number in (("board-infinity.jsonl", "Infinity"), ("board-1e400.jsonl", "1e400")):
        made[name] = folder / name
        made[name].write_text(re.sub(r'"seed": \d+', f'"seed": {number}', setup) + "\n" + rest)
    made["board-report"] = folder / "board-report"
    return made


@pytest.fixture(scope="session")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Every file the fuzzer may give a command that takes a path."""
    folder = tmp_path_factory.mktemp("hostile-files")
    sheets = _sheets(folder)
    return {**sheets, **_board_files(folder), **_bad_files(folder, sheets["dead_weight"])}


@pytest.fixture(autouse=True)
def _in_a_scratch_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A fuzzed relative path (`--out １２`) lands in the test's own folder, not the
    repository: two such files were once committed at its root."""
    monkeypatch.chdir(tmp_path)
