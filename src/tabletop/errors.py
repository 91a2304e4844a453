"""The one exception family of tabletop: every error a user can cause is a `TabletopError`.

Messages are written for the person at the table: one line that says what was wrong and,
where it helps, what to do instead. The command line prints exactly that line and exits 2.
"""

from __future__ import annotations


class TabletopError(Exception):
    """Base of every error tabletop raises on purpose."""


class NotationError(TabletopError):
    """A dice expression that does not follow the notation, with where it went wrong."""

    def __init__(self, expression: str, position: int, problem: str) -> None:
        self.expression = expression
        self.position = position
        self.problem = problem
        super().__init__(self._describe())

    def _describe(self) -> str:
        shown = self.expression if len(self.expression) <= 60 else self.expression[:57] + "..."
        if self.position >= len(self.expression):
            where = "at the end"
        else:
            where = f"at character {self.position + 1} ({self.expression[self.position]!r})"
        return f"bad dice expression {shown!r} {where}: {self.problem}"


class LimitError(TabletopError):
    """An input past one of the documented limits (see `tabletop.dice.limits`)."""


class RollError(TabletopError):
    """A well-formed expression that cannot be rolled or evaluated as asked."""


class DataError(TabletopError):
    """A data file or saved state that cannot be read or is not valid."""


class TableError(DataError):
    """A random table whose data is malformed or that cannot answer a roll."""


class RulesError(TabletopError):
    """A choice the rules of a game do not allow in the current state."""


class PermissionDenied(RulesError):
    """Something this member may not ask for at a shared table: not their role, not theirs."""


class InputEndedError(TabletopError):
    """The input ran out while a command waited for an answer; nothing was saved."""
