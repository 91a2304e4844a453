"""The Constitution's errors: all `TabletopError`s, so the command line shows one line."""

from __future__ import annotations

from tabletop.errors import RulesError, TabletopError


class ConstitutionError(TabletopError):
    """Input the Constitution engine refuses: out-of-range values, malformed files."""


class IllegalMove(RulesError):
    """A choice the articles do not allow in the current state (e.g. a spent re-roll)."""
