"""What the ap2d6 commands share: reading scores, NAME=VALUE pairs and table options."""

from __future__ import annotations

from typing import Any

from rich.markup import escape

from tabletop.cli.output import console, print_json
from tabletop.errors import TabletopError
from tabletop.session import Event, Visibility
from tabletop.systems.ap2d6.errors import Ap2d6Error
from tabletop.systems.ap2d6.scores import MAX_SCORE, Score


def read_score(text: str, flag: str = "--score") -> Score:
    """A score from the command line: a whole number, or `none` for a [special] score the
    character does not have."""
    if text.strip().lower() == "none":
        return None
    try:
        value = int(text)
    except ValueError:
        raise Ap2d6Error(
            f"{flag} wants a whole number, or 'none' for a missing [special] score"
        ) from None
    if abs(value) > MAX_SCORE:
        raise Ap2d6Error(f"{flag} must be between -{MAX_SCORE} and {MAX_SCORE}")
    return value


def read_pairs(pairs: list[str] | None, flag: str) -> dict[str, str]:
    """`["STR=2", "AGI=-1"]` → `{"STR": "2", "AGI": "-1"}`, refusing anything without `=`."""
    found: dict[str, str] = {}
    for pair in pairs or []:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise Ap2d6Error(f"{flag} wants NAME=VALUE, not {pair!r}")
        if name.strip().upper() in (known.upper() for known in found):
            raise Ap2d6Error(f"{flag} gives {name.strip()} twice: which value is meant?")
        found[name.strip()] = value.strip()
    return found


def read_numbers(pairs: list[str] | None, flag: str) -> dict[str, int]:
    """NAME=WHOLE_NUMBER pairs."""
    numbers = {}
    for name, value in read_pairs(pairs, flag).items():
        try:
            numbers[name] = int(value)
        except ValueError:
            raise Ap2d6Error(f"{flag} wants NAME=WHOLE_NUMBER, not {name}={value}") from None
    return numbers


def ask_again(error: TabletopError, as_json: bool) -> None:
    """Say why an interactive command was refused, before asking for the next one."""
    if as_json:
        print_json({"error": str(error)})
    else:
        console.print(f"[red]{escape(str(error))}[/red] — try again")


def event_json(event: Event) -> dict[str, Any]:
    """An event as the ap2d6 commands have always printed it: kind, summary, dice, data, and
    whether only the GM may see it."""
    data = dict(event.data)
    return {
        "kind": event.type,
        "summary": event.text,
        "dice": data.pop("dice", []),
        "data": data,
        "gm_only": event.visibility != Visibility.PUBLIC,
    }
