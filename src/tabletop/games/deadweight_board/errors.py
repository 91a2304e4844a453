"""The board game's errors, all `TabletopError`s so the command line turns them into one line."""

from __future__ import annotations

from tabletop.errors import DataError, RulesError


class BoardError(RulesError):
    """Something the board game's rules do not allow now; nothing was changed."""


class BoardDataError(DataError):
    """A config, saved game or log that cannot be used, with what is wrong."""


class ConfigError(BoardDataError):
    """A config file or option that cannot be used, with the key that is wrong."""


class LayoutError(BoardError):
    """A plank layout that breaks a setup rule; the message names the rule."""


class IllegalActionError(BoardError):
    """An action that is not legal at the current decision; nothing was changed."""


class StateError(BoardDataError):
    """A serialised game state that is malformed or breaks an invariant of the game."""


class ReplayError(BoardDataError):
    """A game log that cannot be read, or whose games do not replay as recorded."""
