"""The errors of the 2d6 action-point rules, in tabletop's one exception family."""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel

from tabletop.data import validated as _validated
from tabletop.errors import DataError, RulesError

Model = TypeVar("Model", bound=BaseModel)


class Ap2d6Error(RulesError):
    """Something the 2d6 action-point rules do not allow in the current state."""


class Ap2d6DataError(DataError):
    """A data file or saved state (sheet, weapons, statuses, bags) that is not valid."""


class InvalidValueError(Ap2d6DataError, ValueError):
    """A value no rule accepts (a malformed score name, an out-of-range score). It is also a
    `ValueError` so that models validating it report it like any other field problem."""


def validated(model: type[Model], data: Any, origin: str) -> Model:
    """`model` built from `data`, or one readable `Ap2d6DataError` naming the problem."""
    return _validated(model, data, origin, Ap2d6DataError)
