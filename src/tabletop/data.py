"""Reading and writing data files and validating data, with errors in tabletop's one family.

Systems ship tables and other data as TOML under their `data/` folder, and groups supply
their own files (weapons, spell lists, mutations) as TOML or JSON. Every such file is read
here: bounded in size, decoded as UTF-8, parsed, and refused with one line naming the file.
Files the commands save (sheets, fights) are written here all or nothing.
"""

from __future__ import annotations

import contextlib
import json
import os
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from tabletop.errors import DataError, TabletopError

Model = TypeVar("Model", bound=BaseModel)

MAX_DATA_FILE_BYTES = 1_000_000
"""A data file larger than this is refused before it is read."""


def read_data_file(path: str | Path, error: type[TabletopError] = DataError) -> dict[str, Any]:
    """A TOML file (JSON when the name ends in `.json`) holding one object."""
    path = Path(path)
    try:
        if not path.is_file():
            problem = "no such file" if not path.exists() else "not a regular file"
            raise error(f"cannot read {path}: {problem}")
        with path.open("rb") as file:
            raw = file.read(MAX_DATA_FILE_BYTES + 1)
        if len(raw) > MAX_DATA_FILE_BYTES:
            raise error(
                f"{path}: more than {MAX_DATA_FILE_BYTES:,} bytes, too much for a data file"
            )
        text = raw.decode("utf-8")
    except OSError as problem:
        raise error(f"cannot read {path}: {problem.strerror or problem}") from None
    except UnicodeDecodeError:
        raise error(f"{path}: not a UTF-8 text file") from None
    kind = "JSON" if path.suffix == ".json" else "TOML"
    try:
        data = json.loads(text) if kind == "JSON" else tomllib.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as problem:
        raise error(f"{path}: not valid {kind}: {problem}") from None
    if not isinstance(data, dict):
        raise error(f"{path}: the file must hold one object, not a list or a value")
    return data


def write_text_file(path: str | Path, text: str, error: type[TabletopError] = DataError) -> None:
    """Write `text` to `path` all or nothing: into a file beside it, moved into place once
    complete, so a failed write (a full disk, say) leaves any earlier file as it was."""
    path = Path(path)
    try:
        if not path.name or (path.exists() and not path.is_file()):
            raise error(f"cannot write {path}: not a regular file")
    except OSError as problem:
        raise error(f"cannot write {path}: {problem.strerror or problem}") from None
    partial = path.with_name(f".{path.name}.{os.getpid()}.partial")
    try:
        partial.write_text(text, encoding="utf-8")
        os.replace(partial, path)
    except OSError as problem:
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)
        raise error(f"cannot write {path}: {problem.strerror or problem}") from None


def shipped_data(package: str, name: str) -> dict[str, Any]:
    """A TOML file from a package's own `data/` folder (data we ship and test)."""
    return tomllib.loads(resources.files(package).joinpath("data", name).read_text("utf-8"))


def describe(error: ValidationError) -> str:
    """Pydantic's complaint as one line: `where: what` for each problem."""
    problems = []
    for item in error.errors():
        message = item["msg"].removeprefix("Value error, ")
        where = ".".join(str(part) for part in item["loc"])
        problems.append(f"{where}: {message}" if where else message)
    return "; ".join(problems)


def validated(
    model: type[Model], data: Any, origin: str, error: type[TabletopError] = DataError
) -> Model:
    """`model` built from `data`, or one readable `error` naming `origin` and the problems."""
    try:
        return model.model_validate(data)
    except ValidationError as problem:
        raise error(f"{origin}: {describe(problem)}") from None
