"""The system's random tables (data/tables/*.toml), loaded and validated once."""

from __future__ import annotations

from functools import cache
from importlib import resources

from tabletop.systems.dead_weight.errors import DataError
from tabletop.tables import Table, load_table

TABLES = (
    "infancy",
    "career",
    "tragedy",
    "burden",
    "quirks",
    "mishaps",
    "miracles",
    "mortal-wounds",
)
"""Every table Dead Weight ships, by the name `tabletop dead-weight table roll` takes."""


@cache
def system_table(name: str) -> Table:
    """One of the shipped tables by name (see `TABLES`)."""
    if name not in TABLES:
        raise DataError(f"no Dead Weight table named {name!r}; choose one of {', '.join(TABLES)}")
    file = resources.files(__package__).joinpath(f"data/tables/{name}.toml")
    with resources.as_file(file) as path:
        return load_table(path)
