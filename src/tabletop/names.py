"""Text a person types, held to what a table can trust to read: a name that names someone
(a member, a room, a character, an NPC) holds no character that is invisible or rearranges
text (controls, format characters such as zero-width and bidi marks, line separators,
default-ignorable fillers), and looks like no other name it stands beside (casefolded
Unicode TR39 skeletons, from ICU's spoof checker: `Ann`, `ANN`, `Аnn` with a Cyrillic А
and `Ann` with a zero-width space are one name); any other text (chat, a roll's label,
notes) holds no control but a newline or a tab, and no bidirectional embedding, override
or isolate, which could make a line read as another (docs/rooms.md, "Reads that cost what
they read").
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable, Iterator
from typing import Any

HIDING = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Unicode general categories a name may not hold: controls (a newline among them), format
characters (zero-width and bidi marks), surrogates, private use, unassigned code points,
and line and paragraph separators."""

REORDERING = frozenset(chr(c) for c in [*range(0x202A, 0x202F), *range(0x2066, 0x206A)])
"""The bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069)."""

KEPT_CONTROLS = frozenset("\n\t")
"""The controls free text may hold."""


def normalised(name: str) -> str:
    """`name` as a table keeps it: NFC, white space stripped at both ends."""
    return unicodedata.normalize("NFC", name).strip()


def hiding(name: str) -> str | None:
    """The first character of a name that could hide or fake text, described (`U+200B
    ZERO WIDTH SPACE`); None when there is none."""
    ignorable = _ignorable()
    for char in name:
        if unicodedata.category(char) in HIDING or ignorable(char):
            return described(char)
    return None


def disguising(text: str) -> str | None:
    """The first character of free text (chat, a label, notes) that could make it read as
    other text, described: a control but a newline or a tab, or a bidi embedding, override
    or isolate; None when there is none."""
    for char in text:
        if char in REORDERING or (unicodedata.category(char) == "Cc" and char not in KEPT_CONTROLS):
            return described(char)
    return None


def texts(value: Any, most: int = 10_000) -> Iterator[str]:
    """Every text in a JSON value (an intent), keys too, however deep, `most` values at
    most."""
    waiting, seen = [value], 0
    while waiting and seen < most:
        found = waiting.pop()
        seen += 1
        if isinstance(found, str):
            yield found
        elif isinstance(found, dict):
            waiting += found.keys()
            waiting += found.values()
        elif isinstance(found, list | tuple):
            waiting += found


def skeletons(name: str) -> frozenset[str]:
    """The casefolded TR39 skeletons of `name`: two names that share one look alike.

    Both orders are kept (the skeleton of the casefolded name, and of the casefolded
    skeleton): case and confusables each merge letters the other keeps apart (`I` looks
    like `l` and folds to `i`)."""
    checker, kept = _spoof_checker(), normalised(name)
    once = checker.getSkeleton(0, kept.casefold())
    twice = checker.getSkeleton(0, checker.getSkeleton(0, kept).casefold())
    return frozenset({once, twice})


def look_alike(name: str, others: Iterable[str]) -> str | None:
    """The first of `others` that `name` looks like (or is), if any."""
    mine = skeletons(name)
    return next((other for other in others if mine & skeletons(other)), None)


def described(char: str) -> str:
    label = unicodedata.name(char, "")
    return f"U+{ord(char):04X} {label}".strip()


@functools.cache
def _spoof_checker() -> Any:
    """ICU's spoof checker, loaded on first use (66 ms: the command line needs it only to
    verify a log or name someone)."""
    import icu

    return icu.SpoofChecker()


@functools.cache
def _ignorable() -> Any:
    """Whether a character is Default_Ignorable (ICU's property: Hangul fillers, variation
    selectors, the combining grapheme joiner…), which shows as nothing."""
    import icu

    prop = icu.UProperty.DEFAULT_IGNORABLE_CODE_POINT
    return lambda char: icu.Char.hasBinaryProperty(char, prop)
