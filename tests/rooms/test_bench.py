"""The room server's benchmark (bench/rooms.py) in its quick mode: one small load, the anchor
and one SQLite process, a couple of seconds of rolling. What is checked is the report's
shape and that nothing was lost or duplicated, never a latency (the machine may be busy)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from bench.rooms import HEADER, QUICK_LOADS

ROOT = Path(__file__).resolve().parents[2]


def cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


@pytest.mark.stress
def test_the_quick_benchmark_reports_each_server_beside_the_anchor_and_the_goals():
    done = subprocess.run(
        [sys.executable, "-m", "bench.rooms", "--quick"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    header = HEADER.splitlines()[0]
    start = lines.index(header)
    columns = cells(header)
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append(dict(zip(columns, cells(line), strict=True)))
    assert [row["server"] for row in rows] == [
        "anchor: bare broadcast",
        "tabletop, 1 process, SQLite",
    ]
    clients = f"{QUICK_LOADS[0]:,}"
    for row in rows:
        assert row["clients"] == clients
        assert int(row["intents"].replace(",", "")) > 0
        assert (row["lost"], row["duplicated"], row["errors"]) == ("0", "0", "0"), row
        for column in ("p50 ms", "p99 ms", "CPU µs/entry"):
            assert float(row[column].replace(",", "")) > 0, row
    assert rows[0]["p99 ÷ anchor"] == ""
    assert re.fullmatch(r"[\d.]+×", rows[1]["p99 ÷ anchor"])
    assert re.fullmatch(r"[\d.]+×", rows[1]["CPU ÷ anchor"])

    goals = lines.index("| goal | measured | holds |")
    verdicts = [cells(line)[-1] for line in lines[goals + 2 : goals + 6]]
    assert verdicts[:3] == ["not measured"] * 3, "a quick run measures none of the loads"
    assert verdicts[3] == "yes", "something was lost, duplicated or refused"
    assert any(line.startswith("- tabletop, 1 process, SQLite, at ") for line in lines)
