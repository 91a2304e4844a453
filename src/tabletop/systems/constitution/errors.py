"""The Constitution's errors: all `TabletopError`s, so the command line shows one line."""

from __future__ import annotations

from tabletop.errors import DataError, RulesError


class ConstitutionError(RulesError):
    """A choice the articles do not allow in the current state (e.g. a spent re-roll)."""


class ConstitutionDataError(DataError):
    """Input the Constitution engine refuses: out-of-range values, malformed files."""
