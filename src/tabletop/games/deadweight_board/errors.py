"""The board game's errors, all `TabletopError`s so the command line turns them into one line."""

from __future__ import annotations

from tabletop.errors import RulesError, TabletopError


class ConfigError(TabletopError):
    """A config file or option that cannot be used, with the key that is wrong."""


class LayoutError(RulesError):
    """A plank layout that breaks a setup rule; the message names the rule."""


class IllegalActionError(RulesError):
    """An action that is not legal at the current decision; nothing was changed."""


class StateError(TabletopError):
    """A serialised game state that is malformed or breaks an invariant of the game."""


class ReplayError(TabletopError):
    """A game log that cannot be read, or whose games do not replay as recorded."""


class InputEndedError(TabletopError):
    """The input at the terminal ended while the game still waited for a choice."""
