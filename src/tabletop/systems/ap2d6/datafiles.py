"""Reading data: the files shipped in `data/` and the files a group supplies (TOML or JSON)."""

from __future__ import annotations

import json
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

from tabletop.systems.ap2d6.errors import Ap2d6DataError

MAX_DATA_FILE_BYTES = 1_000_000
"""A data file larger than this is refused before it is read."""


def shipped(name: str) -> dict[str, Any]:
    """A TOML file from this package's `data/` folder."""
    text = (
        resources.files("tabletop.systems.ap2d6").joinpath("data").joinpath(name).read_text("utf-8")
    )
    return tomllib.loads(text)


def read_file(path: str | Path) -> dict[str, Any]:
    """A group's own data file: TOML, or JSON when the name ends in `.json`."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_DATA_FILE_BYTES:
            raise Ap2d6DataError(f"{path}: {size:,} bytes is more than a data file may hold")
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise Ap2d6DataError(f"cannot read {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise Ap2d6DataError(f"{path}: not a UTF-8 text file") from None
    try:
        data = json.loads(text) if path.suffix == ".json" else tomllib.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as error:
        kind = "JSON" if path.suffix == ".json" else "TOML"
        raise Ap2d6DataError(f"{path}: not valid {kind}: {error}") from None
    if not isinstance(data, dict):
        raise Ap2d6DataError(f"{path}: the file must hold one object (a table of entries)")
    return data
