"""The examples in docstrings and in the README are true."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import tabletop.dice

DOCS = Path(__file__).resolve().parent.parent
README = DOCS / "README.md"
ARCHITECTURE = DOCS / "docs" / "architecture.md"


def test_the_dice_package_docstring_examples_hold():
    failures, tried = doctest.testmod(tabletop.dice, verbose=False)
    assert tried > 0
    assert failures == 0


def test_the_readme_library_example_gives_what_its_comments_say():
    block = re.search(r"```python\n(.*?)```", README.read_text(), re.S)
    assert block is not None
    lines = [line.partition("#") for line in block[1].splitlines() if line.strip()]
    namespace: dict[str, object] = {}
    exec("\n".join(code for code, _, _ in lines if code.startswith("from ")), namespace)
    said = {code.strip(): comment.strip() for code, _, comment in lines if comment}
    assert said['roll("4d6dl1", FixedDice([6, 5, 4, 2])).total'].startswith("15,")
    assert eval('roll("4d6dl1", FixedDice([6, 5, 4, 2])).total', namespace) == 15
    assert said['distribution("1d20adv").at_least(15)'] == "Fraction(51, 100)"
    assert repr(eval('distribution("1d20adv").at_least(15)', namespace)) == "Fraction(51, 100)"
    mean = eval('sample("4d6kh3", 1_000_000, seed=1).mean()', namespace)
    assert abs(mean - 15869 / 1296) < 0.01


def test_the_architecture_worked_example_runs_as_written():
    """The Dead Weight exchange in docs/architecture.md asserts its own outcomes."""
    text = ARCHITECTURE.read_text()
    section = text[text.index("## A worked example") :]
    block = re.search(r"```python\n(.*?)```", section, re.S)
    assert block is not None and block[1].count("assert ") >= 8
    exec(compile(block[1], str(ARCHITECTURE), "exec"), {})
