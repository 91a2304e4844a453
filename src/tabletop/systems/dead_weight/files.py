"""Reading the user's files (character sheets, supplements): size-checked, one-line errors."""

from __future__ import annotations

from pathlib import Path

from tabletop.systems.dead_weight.errors import DataError

MAX_FILE_BYTES = 1_000_000
"""A character sheet or supplement larger than this is refused before it is read."""


def read_text(path: Path, what: str) -> str:
    """The text of a UTF-8 file, or `DataError` saying what was wrong with it."""
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise DataError(f"{path}: larger than a {what} may be ({MAX_FILE_BYTES:,} bytes)")
        return path.read_text(encoding="utf-8")
    except OSError as error:
        raise DataError(f"cannot read {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise DataError(f"{path}: a {what} is a UTF-8 text file") from None
