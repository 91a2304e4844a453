"""Where the command line writes: Rich consoles for people, plain JSON for programs."""

from __future__ import annotations

import json
import sys
import unicodedata
from typing import Any

from rich.console import Console
from rich.markup import escape

from tabletop.dice import PLAIN, RICH, Roll, render_line

console = Console(highlight=False)
errors = Console(stderr=True, highlight=False, soft_wrap=True)


def print_json(data: Any) -> None:
    """One JSON document on one line of stdout, keys in a stable order."""
    sys.stdout.write(json.dumps(data) + "\n")


def plain(text: str) -> str:
    """Text from elsewhere (a name, a chat line, an error quoting them), safe for a terminal:
    control characters are shown as escapes, never sent to it."""
    return "".join(
        ch.encode("unicode_escape").decode("ascii") if unicodedata.category(ch) == "Cc" else ch
        for ch in text
    )


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


def print_roll(rolled: Roll, prefix: str = "", suffix: str = "") -> None:
    """A roll on one line: coloured on a terminal, Markdown-style marks when piped.

    `prefix` and `suffix` are Rich markup (escape any user text in them)."""
    if console.is_terminal:
        console.print(prefix + render_line(rolled, RICH) + suffix, soft_wrap=True)
    else:
        console.print(prefix + escape(render_line(rolled, PLAIN)) + suffix, soft_wrap=True)
