"""Options every verb shares, declared once: `--seed`, `--json`, and `--option KEY=VALUE` for
a system's readings of unclear rules (the fields of its options model)."""

from __future__ import annotations

import typing
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from tabletop.errors import DataError

if TYPE_CHECKING:  # pydantic loads only for the verbs that read rule options
    from pydantic import BaseModel

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

Options = TypeVar("Options", bound="BaseModel")


@dataclass(frozen=True)
class Readings:
    """What `--option` chose for the running command: checked once, kept as given so that a
    verb can lay them over a base (the board game's config file)."""

    options: BaseModel
    pairs: tuple[str, ...]


def add_rule_options(app: typer.Typer, model: type[BaseModel], help: str) -> None:
    """Give a system's command group `--option KEY=VALUE`, checked once for every verb under
    it (`tabletop <system> --option key=value <verb> …`); verbs ask `rule_options`."""

    def readings(ctx: typer.Context, option: RuleOptions = None) -> None:
        ctx.obj = Readings(read_rule_options(model, option), tuple(option or ()))

    readings.__doc__ = help
    app.callback()(readings)


def rule_options(ctx: typer.Context, model: type[Options], base: Options | None = None) -> Options:
    """The readings chosen with `--option` for the running command, over `base` if given
    (else over the defaults)."""
    chosen = ctx.find_object(Readings)
    if chosen is None:
        return base if base is not None else model()
    if base is not None:
        return read_rule_options(model, list(chosen.pairs), base)
    assert isinstance(chosen.options, model)
    return chosen.options


def read_rule_options(
    model: type[Options], pairs: list[str] | None, base: Options | None = None
) -> Options:
    """`["key=value", …]` as the system's validated options (over `base`, if given): unknown
    keys, repeated keys and values a key does not take are one-line errors. Lists are
    written comma-separated."""
    from pydantic import ValidationError

    chosen: dict[str, Any] = {} if base is None else base.model_dump()
    given: set[str] = set()
    for pair in pairs or []:
        key, sep, value = (part.strip() for part in pair.partition("="))
        if not sep or not key:
            raise DataError(f"--option wants KEY=VALUE, not {pair[:60]!r}")
        if key not in model.model_fields:
            known = ", ".join(sorted(model.model_fields))
            raise DataError(f"--option: there is no {key!r}; the keys are {known}")
        if key in given:
            raise DataError(f"--option gives {key} twice: which value is meant?")
        given.add(key)
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


def whole_number(text: str) -> int | None:
    """A whole number as a person types it, or None: digits of any script count (`٣` is 3,
    as `int` reads it), while `²`, `1_000`, `1e3` and numbers past 18 digits do not, so an
    answer is asked again or refused in one line rather than crashing `int`."""
    cleaned = text.strip()
    digits = cleaned.removeprefix("-").removeprefix("+")
    if not digits or len(digits) > 18 or not digits.isdecimal():
        return None
    return int(cleaned)
