"""The registry names every system once, and every path it names loads."""

from __future__ import annotations

import pytest
import typer
from pydantic import BaseModel

from tabletop.session import Member, Session
from tabletop.systems.registry import SYSTEMS, UnknownSystem, load, system


@pytest.mark.parametrize("entry", SYSTEMS, ids=lambda entry: entry.name)
def test_every_path_the_registry_names_loads(entry):
    session = entry.session
    assert isinstance(session, Session) and session.name == entry.name
    assert session.legal(session.new(), Member.gm())  # at least the roll every table takes
    if entry.cli_path:
        assert isinstance(load(entry.cli_path), typer.Typer)
    if entry.showcase_path:
        assert callable(load(entry.showcase_path))
    if entry.options_path:
        assert issubclass(entry.options, BaseModel)


def test_the_six_systems_are_registered_once_each():
    names = [entry.name for entry in SYSTEMS]
    assert names == [
        "dice",
        "dead-weight",
        "constitution",
        "ap2d6",
        "rollunder",
        "deadweight-board",
    ]


def test_an_unknown_system_is_named_in_the_error():
    with pytest.raises(UnknownSystem, match="nope"):
        system("nope")
