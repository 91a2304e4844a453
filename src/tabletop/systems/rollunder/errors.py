"""The errors of the roll-under Core Rules, in tabletop's one exception family."""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from tabletop.errors import RulesError, TabletopError

M = TypeVar("M", bound=BaseModel)


class RollUnderError(RulesError):
    """Something the Core Rules do not allow in the current state (a dead character acting,
    an omen nobody holds, a third follower)."""


class RollUnderDataError(TabletopError):
    """A sheet, intent, option set or data file that is not valid, named by its first problem."""


def validated(model: type[M], data: Any, origin: str) -> M:
    """`model` built from `data`, or one readable `RollUnderDataError`."""
    try:
        return model.model_validate(data)
    except ValidationError as error:
        raise RollUnderDataError(f"{origin}: {describe(error)}") from None


def validated_json(model: type[M], text: str | bytes, origin: str) -> M:
    """`model` read from JSON text, or one readable `RollUnderDataError`."""
    try:
        return model.model_validate_json(text)
    except ValidationError as error:
        raise RollUnderDataError(f"{origin}: {describe(error)}") from None


def describe(error: ValidationError) -> str:
    """The first problem of a validation error as `where: what`."""
    problem = error.errors()[0]
    where = ".".join(str(part) for part in problem["loc"])
    message = problem["msg"].removeprefix("Value error, ")
    return f"{where}: {message}" if where else message
