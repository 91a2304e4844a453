"""Every file loader this branch reaches, fuzzed: whatever bytes a file holds, the loader
returns a valid model or raises the system's own one-line error, and nothing else."""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.cli.constitution.tracker import load_combat
from tabletop.errors import TabletopError
from tabletop.systems.ap2d6.sheet import read_sheet as read_2d6_sheet
from tabletop.systems.constitution.character import read_sheet as read_constitution_sheet
from tabletop.systems.dead_weight.character import read_sheet as read_dead_weight_sheet
from tabletop.tables import find_table
from tests.effort import tried

pytestmark = pytest.mark.hostile

LOADERS = {
    "dead-weight sheet": (read_dead_weight_sheet, ".json"),
    "2d6 sheet": (read_2d6_sheet, ".json"),
    "constitution sheet": (read_constitution_sheet, ".json"),
    "constitution fight": (load_combat, ".json"),
    "table (TOML)": (find_table, ".toml"),
    "table (JSON)": (find_table, ".json"),
}

JSON_VALUES = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.floats(allow_nan=False, allow_infinity=False),
        st.sampled_from(["NaN", "Infinity", "1e400", "9" * 5000, "\u001b[2J", "²"]),
        st.text(max_size=20),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=20,
)


def _mutated(good: dict[str, object]) -> st.SearchStrategy[str]:
    """A real file with one field replaced by anything, or a raw number token spliced in."""
    replaced = st.tuples(st.sampled_from(sorted(good)), JSON_VALUES).map(
        lambda pair: json.dumps({**good, pair[0]: pair[1]})
    )
    spliced = st.sampled_from(["NaN", "-Infinity", "1e999", "9" * 4400]).map(
        lambda token: json.dumps(good).replace(": ", f': {token}, "x": ', 1)
    )
    return st.one_of(replaced, spliced)


def _contents(good: dict[str, object]) -> st.SearchStrategy[bytes]:
    return st.one_of(
        st.binary(max_size=200),
        st.text(max_size=200).map(str.encode),
        JSON_VALUES.map(lambda value: json.dumps(value).encode()),
        _mutated(good).map(str.encode),
    )


@pytest.mark.parametrize("kind", sorted(LOADERS))
def test_a_loader_gives_a_model_or_one_line_error(kind, files):
    loader, suffix = LOADERS[kind]
    good = json.loads(files["dead_weight" if "sheet" in kind else "ap2d6"].read_text())
    path = files["table"].parent / f"fuzzed-{os.getpid()}-{kind.replace(' ', '-')}{suffix}"

    @settings(max_examples=tried(40), database=None)
    @given(content=_contents(good))
    def fuzz(content: bytes) -> None:
        path.write_bytes(content)
        try:
            loader(str(path))
        except TabletopError as error:
            assert "\n" not in str(error).strip()

    fuzz()
