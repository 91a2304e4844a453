"""Dead Weight's errors: every one a `TabletopError`, worded for the person at the table."""

from __future__ import annotations

from tabletop.errors import DataError, RulesError


class DeadWeightError(RulesError):
    """A choice the rules do not allow in the current state (the state is left unchanged)."""


class DeadWeightDataError(DataError):
    """A sheet, intent or data file that is not valid, named by its problem."""


class SheetError(DeadWeightDataError):
    """A character sheet that cannot exist under the rules, with the reason."""
