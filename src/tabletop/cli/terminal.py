"""The terminal's size as Rich and Typer will read it, settled before either is imported.

Rich and Typer read `COLUMNS`, `LINES` and `TERMINAL_WIDTH` with `int()` after `isdigit()`,
so `COLUMNS=²` crashes them at import; `COLUMNS=0` makes every line empty, and a very narrow
terminal squeezes the numbers out of tables. Settled here, once: a size that is not a whole
number is forgotten, and a width under `MIN_WIDTH` is raised to it (the terminal wraps the
longer lines, and every number stays on the screen).
"""

from __future__ import annotations

import os
from collections.abc import MutableMapping

MIN_WIDTH = 40
"""The narrowest width tabletop lays its tables out for."""

_SIZES = ("COLUMNS", "LINES", "TERMINAL_WIDTH", "JUPYTER_COLUMNS", "JUPYTER_LINES")
_WIDTHS = ("COLUMNS", "TERMINAL_WIDTH", "JUPYTER_COLUMNS")


def settle_terminal_size(environ: MutableMapping[str, str] = os.environ) -> None:
    """Forget sizes that are not whole numbers, and raise a width under `MIN_WIDTH`."""
    for name in _SIZES:
        value = environ.get(name)
        if value is None:
            continue
        if not (value.isascii() and value.isdigit() and len(value) <= 6 and int(value) > 0):
            del environ[name]
        elif name in _WIDTHS and int(value) < MIN_WIDTH:
            environ[name] = str(MIN_WIDTH)
    if "COLUMNS" not in environ and 0 < _detected_width() < MIN_WIDTH:
        environ["COLUMNS"] = str(MIN_WIDTH)


def _detected_width() -> int:
    """The width of the terminal on standard output, or 0 when there is none."""
    try:
        return os.get_terminal_size(1).columns
    except (OSError, ValueError):
        return 0
