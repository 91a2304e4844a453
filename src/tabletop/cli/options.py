"""Options every verb shares, declared once: `--seed`, `--json`, and `--option KEY=VALUE` for
a system's readings of unclear rules (the fields of its options model)."""

from __future__ import annotations

import typing
from typing import Annotated, Any, TypeVar

import typer
from pydantic import BaseModel, ValidationError

from tabletop.errors import DataError

Seed = Annotated[
    int | None,
    typer.Option("--seed", min=0, help="Roll a reproducible stream of dice from this seed."),
]
Json = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]
RuleOptions = Annotated[
    list[str] | None,
    typer.Option(
        "--option",
        metavar="KEY=VALUE",
        help="A reading of an unclear rule (every key is in docs/rules/<system>.md).",
    ),
]

Options = TypeVar("Options", bound=BaseModel)


def read_rule_options(model: type[Options], pairs: list[str] | None) -> Options:
    """`["key=value", …]` as the system's validated options: unknown keys, repeated keys and
    values the key does not take are one-line errors. Lists are written comma-separated."""
    chosen: dict[str, Any] = {}
    for pair in pairs or []:
        key, sep, value = (part.strip() for part in pair.partition("="))
        if not sep or not key:
            raise DataError(f"--option wants KEY=VALUE, not {pair[:60]!r}")
        if key not in model.model_fields:
            known = ", ".join(sorted(model.model_fields))
            raise DataError(f"--option: there is no {key!r}; the keys are {known}")
        if key in chosen:
            raise DataError(f"--option gives {key} twice: which value is meant?")
        chosen[key] = value.split(",") if _is_list(model, key) else value
    try:
        return model.model_validate(chosen)
    except ValidationError as problem:
        first = problem.errors(include_url=False)[0]
        where = ".".join(str(part) for part in first["loc"])
        raise DataError(f"--option {where}: {first['msg']}"[:200]) from None


def _is_list(model: type[BaseModel], key: str) -> bool:
    annotation = model.model_fields[key].annotation
    return typing.get_origin(annotation) in (list, tuple, set, frozenset)
