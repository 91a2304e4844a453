"""`tabletop roll` and `tabletop odds` without Typer's parameter layer, so a roll starts at once.

Typer converts every option through a pydantic TypeAdapter, and importing pydantic alone
takes longer than the whole roll. These two verbs read their arguments here instead, from
the very declarations of their Typer functions (`tabletop.cli.dice`: names, defaults,
bounds), and call those functions. Anything this reader does not follow exactly -- help,
an unknown option, a value out of bounds, an option whose type it does not know -- goes to
Typer, which then says what is wrong in its own words.
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable
from types import NoneType, UnionType
from typing import Any

from typer.models import ArgumentInfo, OptionInfo

from tabletop.cli import dice
from tabletop.cli.options import whole_number

QUICK: dict[str, Callable[..., None]] = {"roll": dice.roll_command, "odds": dice.odds_command}
"""The verbs read here, by name."""


def run_quickly(args: list[str]) -> bool:
    """Run `args` (`["roll", "3d6", …]`) if they are for a quick verb and read exactly; False
    to leave them to Typer."""
    if not args or args[0] not in QUICK:
        return False
    command = QUICK[args[0]]
    values = _read(command, args[1:])
    if values is None:
        return False
    command(**values)
    return True


def _read(command: Callable[..., None], tokens: list[str]) -> dict[str, Any] | None:
    """The keyword arguments `tokens` give `command`, or None where Typer must read them."""
    flags, arguments, values = _declared(command)
    if flags is None:
        return None
    position = 0
    index = 0
    while index < len(tokens):
        token = tokens[index]
        name, _, attached = token.partition("=")
        declared = flags.get(name) if token.startswith("-") else None
        if declared is None:
            if token.startswith("--") or token in ("-h", "--help") or position >= len(arguments):
                return None  # unknown options, help and extra arguments: Typer's to explain
            values[arguments[position]] = token
            position += 1
            index += 1
            continue
        key, kind, info = declared
        if kind is bool:
            if attached:
                return None
            values[key] = True
            index += 1
            continue
        if attached:
            text = attached
            index += 1
        elif index + 1 < len(tokens):
            text = tokens[index + 1]
            index += 2
        else:
            return None
        value = _value(kind, text, info)
        if value is None:
            return None
        if kind is list:
            values[key] = [*(values[key] or []), value]
        else:
            values[key] = value
    if position < len(arguments):
        return None
    return values


def _declared(
    command: Callable[..., None],
) -> tuple[dict[str, tuple[str, type, OptionInfo]] | None, list[str], dict[str, Any]]:
    """The command's options by flag, its arguments in order, and their defaults."""
    hints = typing.get_type_hints(command, include_extras=True)
    flags: dict[str, tuple[str, type, OptionInfo]] = {}
    arguments: list[str] = []
    defaults: dict[str, Any] = {}
    for name, parameter in inspect.signature(command).parameters.items():
        base, info = typing.get_args(hints[name])[:2]
        if isinstance(info, ArgumentInfo):
            arguments.append(name)
            continue
        kind = _kind(base)
        if kind is None or not isinstance(info, OptionInfo):
            return None, [], {}
        defaults[name] = parameter.default
        declarations = [info.default] if isinstance(info.default, str) else []
        for flag in [*declarations, *(info.param_decls or ())]:
            flags[flag] = (name, kind, info)
    return flags, arguments, defaults


def _kind(annotation: Any) -> type | None:
    """str, int, bool or list (of str), unwrapping `X | None`; None for anything else."""
    if isinstance(annotation, UnionType):
        members = [member for member in typing.get_args(annotation) if member is not NoneType]
        annotation = members[0] if len(members) == 1 else None
    if typing.get_origin(annotation) is list and typing.get_args(annotation) == (str,):
        return list
    return annotation if annotation in (str, int, bool) else None


def _value(kind: type, text: str, info: OptionInfo) -> Any:
    """An option's value as its command receives it, or None where Typer must judge it."""
    if kind is not int:
        return text
    number = whole_number(text) if text.isascii() else None
    if number is None:  # not a number, or past 18 digits: Typer explains
        return None
    low, high = info.min, info.max
    if (low is not None and number < low) or (high is not None and number > high):
        return None
    return number
