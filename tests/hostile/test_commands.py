"""Every command, fuzzed: hostile arguments and standard input never crash, hang, mix text
into JSON or leave a partial file (the contract is `harness.check`)."""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.effort import tried
from tests.hostile.harness import arguments, check, commands, run, stdin_text

EXAMPLES = int(os.environ.get("HOSTILE_EXAMPLES", "12"))
"""Examples per command in `make test`; set HOSTILE_EXAMPLES=2000 for a long hunt."""

pytestmark = pytest.mark.hostile


@pytest.mark.parametrize("path", commands(), ids=" ".join)
def test_a_command_keeps_the_contract_on_any_input(path, files):
    folder = files["table"].parent

    @settings(max_examples=tried(EXAMPLES), database=None)
    @given(data=st.data())
    def fuzz(data: st.DataObject) -> None:
        argv = data.draw(arguments(path, files), label="argv")
        stdin = data.draw(stdin_text(), label="stdin")
        check(run(argv, stdin, workdir=folder))

    fuzz()
