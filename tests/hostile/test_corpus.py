"""Inputs that once broke a command, kept so they never do again (tests/hostile/corpus.json).

Add to the corpus every input a hunt finds (`HOSTILE_EXAMPLES=2000 pytest tests/hostile`):
its command line, what it typed, and what went wrong. `{file:NAME}` stands for one of the
files the `files` fixture makes (tests/hostile/conftest.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.hostile.harness import check, run, with_files

CORPUS = json.loads((Path(__file__).parent / "corpus.json").read_text(encoding="utf-8"))

pytestmark = pytest.mark.hostile


@pytest.mark.parametrize("case", CORPUS, ids=[case["why"][:50] for case in CORPUS])
def test_an_input_that_once_failed_keeps_the_contract(case, files):
    argv = [with_files(word, files) for word in case["argv"]]
    check(run(argv, case.get("stdin", ""), workdir=files["table"].parent))
