"""docs/rooms.md's threat model names a test for each claim: every one it names exists."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_test_the_threat_model_names_exists():
    text = (ROOT / "docs" / "rooms.md").read_text(encoding="utf-8")
    section = text[text.index("## Threat model") : text.index("## Deployment with PostgreSQL")]
    named, current = [], None
    for file, test in re.findall(r"`((?:tests/\w+/)?[\w.]+\.py|…)(?:::(\w+))?`", section):
        current = current if file == "…" else file
        named.append((current, test))
    assert len(named) >= 20
    for file, test in named:
        path = ROOT / file if file.startswith("tests/") else ROOT / "tests" / "rooms" / file
        assert path.exists(), file
        if test:
            assert f"def {test}" in path.read_text(encoding="utf-8"), f"{file}::{test}"
