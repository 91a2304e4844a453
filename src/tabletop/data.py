"""Reading and writing data files and validating data, with errors in tabletop's one family.

Systems ship tables and other data as TOML under their `data/` folder, and groups supply
their own files (weapons, spell lists, mutations) as TOML or JSON. Every such file is read
here: bounded in size, decoded as UTF-8, parsed, and refused with one line naming the file.
Files the commands save (sheets, fights) are written here all or nothing.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import tomllib
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any, BinaryIO, TypeVar

from pydantic import BaseModel, ValidationError

from tabletop.errors import DataError, TabletopError

Model = TypeVar("Model", bound=BaseModel)

MAX_DATA_FILE_BYTES = 1_000_000
"""A data file larger than this is refused before it is read."""


def read_data_file(path: str | Path, error: type[TabletopError] = DataError) -> dict[str, Any]:
    """A TOML file (JSON when the name ends in `.json`) holding one object."""
    path = Path(path)
    text = read_text_file(path, error)
    kind = "JSON" if path.suffix == ".json" else "TOML"
    try:
        data = parse_json(text) if kind == "JSON" else tomllib.loads(text, parse_float=_finite)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as problem:
        raise error(f"{path}: not valid {kind}: {problem}") from None
    except ValueError as problem:  # a non-finite number, or an integer of thousands of digits
        raise error(f"{path}: {str(problem)[:120]}") from None
    if not isinstance(data, dict):
        raise error(f"{path}: the file must hold one object, not a list or a value")
    return data


def read_text_file(
    path: str | Path,
    error: type[TabletopError] = DataError,
    limit: int | None = MAX_DATA_FILE_BYTES,
) -> str:
    """The UTF-8 text of a regular file of at most `limit` bytes (any size when None). A named
    pipe or a device is refused before it is opened (reading one would wait for ever, or never
    end)."""
    path = Path(path)
    try:
        if not path.is_file():
            problem = "no such file" if not path.exists() else "not a regular file"
            raise error(f"cannot read {path}: {problem}")
        with path.open("rb") as file:
            raw = file.read(-1 if limit is None else limit + 1)
        if limit is not None and len(raw) > limit:
            raise error(f"{path}: more than {limit:,} bytes, too much for a data file")
        return raw.decode("utf-8")
    except OSError as problem:
        raise error(f"cannot read {path}: {problem.strerror or problem}") from None
    except UnicodeDecodeError:
        raise error(f"{path}: not a UTF-8 text file") from None


def parse_json(text: str) -> Any:
    """JSON as the standard defines it: `NaN`, `Infinity` and overflowing numbers refused."""
    return json.loads(text, parse_float=_finite, parse_constant=_no_constant)


def canonical(data: Any) -> str:
    """The one JSON spelling of `data` that hashes are taken over (keys sorted, no spaces)."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _finite(text: str) -> float:
    """A float that is a real number: `1e400` would silently become infinity."""
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text[:40]} is too large or not a number")
    return value


def _no_constant(text: str) -> float:
    raise ValueError(f"{text} is not a number a data file may hold")


def write_text_file(path: str | Path, text: str, error: type[TabletopError] = DataError) -> None:
    """Write `text` as UTF-8 to `path` all or nothing, and never through a symbolic link."""
    write_file(path, text.encode("utf-8"), error)


def write_file(path: str | Path, content: bytes, error: type[TabletopError] = DataError) -> None:
    """Write `content` to `path` all or nothing, and never through a symbolic link."""
    with written_atomically(path, error) as file:
        file.write(content)


@contextlib.contextmanager
def written_atomically(
    path: str | Path, error: type[TabletopError] = DataError
) -> Iterator[BinaryIO]:
    """A binary file to write that appears at `path` only once the block completes.

    The bytes go to a new file beside it (created exclusively, so no link planted under
    that name is followed), reach the disk, and are moved into place: a failed or
    interrupted write (a full disk, Ctrl-C) leaves any earlier file as it was, and a
    symbolic link, a folder, a pipe or a device at `path` is refused, not replaced."""
    path = Path(path)
    try:
        if path.is_symlink():
            raise error(f"cannot write {path}: it is a symbolic link; name the file itself")
        if not path.name or (path.exists() and not path.is_file()):
            raise error(f"cannot write {path}: not a regular file")
    except OSError as problem:  # a name the system cannot look up, such as one too long
        raise error(f"cannot write {path}: {problem.strerror or problem}") from None
    partial = path.with_name(f".{path.name}.{os.getpid()}.partial")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    try:
        file = os.fdopen(os.open(partial, flags, 0o644), "wb")
    except OSError as problem:
        raise error(f"cannot write {path}: {problem.strerror or problem}") from None
    try:
        with file:
            yield file
            file.flush()
            os.fsync(file.fileno())
        os.replace(partial, path)
    except OSError as problem:
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)
        raise error(f"cannot write {path}: {problem.strerror or problem}") from None
    except BaseException:
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)
        raise


def require_blocks(
    data: dict[str, Any], blocks: tuple[str, ...], origin: str, error: type[TabletopError]
) -> None:
    """Refuse a saved file that leaves out a block the rules read: a default there would
    quietly make a different character. `blocks` are dotted paths, e.g. `attributes.STR`."""
    missing = [block for block in blocks if not _has_path(data, block.split("."))]
    if missing:
        raise error(
            f"{origin}: the file has no {', '.join(missing)}; a saved sheet holds every block "
            "the rules read"
        )


def _has_path(data: Any, keys: list[str]) -> bool:
    for key in keys:
        if not isinstance(data, dict) or key not in data:
            return False
        data = data[key]
    return True


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
