"""Where the command line writes: Rich consoles for people, plain JSON for programs.

Text that comes from a person or a file (names, table entries, error lines quoting input)
may hold terminal escape sequences; every string these consoles print has its control
characters shown as `\\x1b`-style text first, so nothing but tabletop's own styling ever
reaches the terminal as a command.
"""

from __future__ import annotations

import json
import re
import sys
from fractions import Fraction
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from tabletop.dice import PLAIN, RICH, Roll, render_line

_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
"""Control characters, C0 (but tab and newline) and C1, and the bidirectional overrides."""


def as_text(text: str) -> str:
    """`text` with every control character written out (`\\x1b`), safe to print raw."""
    return _CONTROL.sub(_written_out, text)


def _written_out(match: re.Match[str]) -> str:
    code = ord(match[0])
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


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
