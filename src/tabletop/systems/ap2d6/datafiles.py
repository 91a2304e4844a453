"""Reading data: the files shipped in `data/` and the files a group supplies (TOML or JSON)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tabletop.data import read_data_file, shipped_data
from tabletop.systems.ap2d6.errors import Ap2d6DataError


def shipped(name: str) -> dict[str, Any]:
    """A TOML file from this package's `data/` folder."""
    return shipped_data("tabletop.systems.ap2d6", name)


def read_file(path: str | Path) -> dict[str, Any]:
    """A group's own data file: TOML, or JSON when the name ends in `.json`."""
    return read_data_file(path, Ap2d6DataError)
