"""How hard the suite tries. `make test` runs each property and each long comparison at a
third of its full size, so a developer's run stays within five minutes on two cores; CI's
second run (`.ci/run`, in a random order) sets TABLETOP_THOROUGH=1 and runs them whole.
Every test keeps its fixed seeds either way: a quick run is a prefix of the thorough one's
examples where hypothesis allows, never a different draw of luck."""

from __future__ import annotations

import os

THOROUGH = os.environ.get("TABLETOP_THOROUGH") == "1"
"""Whether this run is the thorough one (CI's second run)."""

QUICK_SHARE = 3
"""A quick run tries one in this many of a thorough run's examples or games."""


def tried(full: int) -> int:
    """How many of the `full` examples, games or seeds of a thorough run this run tries (at
    least 5, or `full` when that is fewer)."""
    return full if THOROUGH else max(min(full, 5), full // QUICK_SHARE)
