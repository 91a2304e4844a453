"""Members' names that cannot pass for one another: each is NFC-normalised and stripped,
holds no character that is invisible or rearranges text (controls, format characters such
as zero-width and bidi marks, line separators, default-ignorable fillers), and no two
current members' names share a casefolded confusable skeleton (Unicode TR39, from ICU's
spoof checker), so `Ann`, `ANN`, `Аnn` (Cyrillic А) and `Ann` with a zero-width space are
one name at a table.

The hall checks a name before it appends a join or a rename, and `roomevents` checks the
name a log records when it rebuilds the event, so `verify` refuses a log that breaks these
rules as the server would have refused the request.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable
from typing import Any

from tabletop.errors import DataError
from tabletop.rooms.errors import RoomError
from tabletop.session import MAX_NAME

REFUSED = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Unicode general categories a name may not hold: controls (a newline among them), format
characters (zero-width and bidi marks), surrogates, private use, unassigned code points,
and line and paragraph separators."""


class BadName(RoomError, DataError):
    """A name a room refuses, with the one-line reason (a refused request, or a log that
    does not hold what the server would have kept)."""


def normalised(name: str) -> str:
    """`name` as a room keeps it: NFC, white space stripped at both ends (for looking a
    member up as well as for naming one)."""
    return unicodedata.normalize("NFC", name).strip()


def checked(name: str, what: str = "a name") -> str:
    """`name` normalised, or `BadName` saying what is wrong with it: empty, longer than
    `MAX_NAME`, or holding a character that could hide or fake text."""
    kept = normalised(name)
    if not kept or len(kept) > MAX_NAME:
        raise BadName(f"{what} has 1 to {MAX_NAME} characters")
    ignorable = _ignorable()
    for char in kept:
        if unicodedata.category(char) in REFUSED or ignorable(char):
            raise BadName(f"{what} may not hold {_described(char)}: it could hide or fake text")
    return kept


def skeletons(name: str) -> frozenset[str]:
    """The casefolded TR39 skeletons of `name`: two names that share one look alike.

    Both orders are kept (the skeleton of the casefolded name, and of the casefolded
    skeleton): case and confusables each merge letters the other keeps apart (`I` looks
    like `l` and folds to `i`)."""
    checker, kept = _spoof_checker(), normalised(name)
    once = checker.getSkeleton(0, kept.casefold())
    twice = checker.getSkeleton(0, checker.getSkeleton(0, kept).casefold())
    return frozenset({once, twice})


def check_unlike(name: str, others: Iterable[str]) -> None:
    """Refuse `name` when it looks like one of `others` (the names of the room's current
    members), naming which."""
    mine = skeletons(name)
    for other in others:
        if mine & skeletons(other):
            if other == name:
                raise BadName(f"a member is already called {name!r}; choose another name")
            raise BadName(
                f"{name!r} looks like {other!r}, a member's name (letters that look or fold "
                "alike count as one); choose another name"
            )


def _described(char: str) -> str:
    label = unicodedata.name(char, "")
    return f"U+{ord(char):04X} {label}".strip()


@functools.cache
def _spoof_checker() -> Any:
    """ICU's spoof checker, loaded on first use (66 ms: the command line needs it only to
    verify a log)."""
    import icu

    return icu.SpoofChecker()


@functools.cache
def _ignorable() -> Any:
    """Whether a character is Default_Ignorable (ICU's property: Hangul fillers, variation
    selectors, the combining grapheme joiner…), which shows as nothing."""
    import icu

    prop = icu.UProperty.DEFAULT_IGNORABLE_CODE_POINT
    return lambda char: icu.Char.hasBinaryProperty(char, prop)
