"""Dead Weight's errors: every one a `TabletopError`, worded for the person at the table."""

from __future__ import annotations

from tabletop.errors import DataError, RulesError

__all__ = ["DataError", "IllegalChoice", "InputEnded", "SheetError"]


class IllegalChoice(RulesError):
    """A choice the rules do not allow in the current state (the state is left unchanged)."""


class SheetError(RulesError):
    """A character sheet that cannot exist under the rules, with the reason."""


class InputEnded(DataError):
    """The input ran out while the command line waited for a choice (nothing is saved)."""
