"""The errors of the roll-under Core Rules, in tabletop's one exception family."""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel

from tabletop.data import validated as _validated
from tabletop.errors import DataError, RulesError

M = TypeVar("M", bound=BaseModel)


class RollUnderError(RulesError):
    """Something the Core Rules do not allow in the current state (a dead character acting,
    an omen nobody holds, a third follower)."""


class RollUnderDataError(DataError):
    """A sheet, intent, option set or data file that is not valid, named by its problem."""


def validated(model: type[M], data: Any, origin: str) -> M:
    """`model` built from `data`, or one readable `RollUnderDataError`."""
    return _validated(model, data, origin, RollUnderDataError)
