"""Where the command line writes: Rich consoles for people, plain JSON for programs.

Text that comes from a person or a file (names, table entries, error lines quoting input)
may hold terminal escape sequences; every string these consoles print has its control
characters shown as `\\x1b`-style text first, so nothing but tabletop's own styling ever
reaches the terminal as a command.
"""

from __future__ import annotations

import json
import sys
import unicodedata
from fractions import Fraction
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from tabletop.dice import PLAIN, RICH, Roll, render_line

WRITTEN_OUT = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
"""Unicode categories printed as their code (`\\x1b`, `\\u202e`): controls (C0 and C1),
format characters (bidi overrides, zero-width marks), line and paragraph separators, and
lone surrogates."""


def as_text(text: str) -> str:
    """`text` with every control character written out (`\\x1b`) but its tabs and newlines,
    safe to print raw."""
    return _written_out(text, "\t\n")


def one_line(text: str) -> str:
    """Someone else's text as one line of the terminal: every control character written
    out, newlines and tabs too, so that it can neither drive the terminal nor start a line
    that looks like another (a fake "GM rolls 1d20" line in `room log`)."""
    return _written_out(text, "")


def _written_out(text: str, kept: str) -> str:
    if text.isprintable():  # no character of the categories below (C speed)
        return text
    return "".join(
        char if char in kept or unicodedata.category(char) not in WRITTEN_OUT else _code(ord(char))
        for char in text
    )


def _code(code: int) -> str:
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


class TextConsole(Console):
    """A Rich console that writes out the control characters of every string it prints."""

    def render_str(self, text: str, **kwargs: Any) -> Text:
        return super().render_str(as_text(text), **kwargs)


console = TextConsole(highlight=False)
errors = TextConsole(stderr=True, highlight=False, soft_wrap=True)
notes = TextConsole(stderr=True, highlight=False)
"""Prompts and commentary that must stay off standard output (when it carries JSON)."""


def print_json(data: Any) -> None:
    """One JSON document on one line of stdout, keys in a stable order."""
    sys.stdout.write(json.dumps(data, allow_nan=False) + "\n")


def percent(probability: float) -> str:
    """A probability as a percentage with enough digits to tell small ones apart."""
    value = probability * 100
    if value == 0:
        return "0%"
    if value >= 99.95 and probability < 1:
        return ">99.9%"
    if value >= 10:
        return f"{value:.1f}%"
    if value >= 0.1:
        return f"{value:.2f}%"
    return f"{value:.2g}%"


def fraction(probability: Fraction) -> str:
    """An exact probability as `numerator/denominator`, the way the JSON writes it."""
    return f"{probability.numerator}/{probability.denominator}"


def print_roll(rolled: Roll, prefix: str = "", suffix: str = "") -> None:
    """A roll on one line: coloured where the terminal shows styles, Markdown-style marks
    otherwise (piped, or `TERM=dumb`, where a struck-out die would look kept).

    `prefix` and `suffix` are Rich markup (escape user text in them)."""
    if console.is_terminal and console.color_system is not None:
        console.print(prefix + render_line(rolled, RICH) + suffix, soft_wrap=True)
    else:
        console.print(prefix + escape(render_line(rolled, PLAIN)) + suffix, soft_wrap=True)
