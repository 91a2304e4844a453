"""What a refusal says: the feature the text looks like and the dialects that read it.

A refusal never guesses at a variable it thought it saw. It names a feature from the table
below when the text at the error has that feature's shape (features some tool reads that
tabletop cannot hold yet), or else the shipped dialects that read the whole text (so a
Foundry formula typed in the Roll20 dialect says so; the parser finds those by parsing).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tabletop.dice.dialects import DIALECTS, Dialect


@dataclass(frozen=True, slots=True)
class Missing:
    """A feature some tool reads and tabletop does not hold yet, as it looks in text."""

    name: str
    shape: re.Pattern[str]
    readers: tuple[str, ...]
    """The shipped dialects whose tools read it (by their references)."""


def _missing(name: str, shape: str, *readers: str) -> Missing:
    return Missing(name, re.compile(shape), readers)


FATE = _missing("Fate dice (4dF)", r"(?<=[dD])[Ff]|[dD][Ff](?![A-Za-z0-9_])", "roll20", "foundry")
"""Also checked where a name would start: tabletop must never read `dF` as a name."""

MISSING: tuple[Missing, ...] = (
    _missing(
        "picking the lowest or highest dice to explode (4d6eh1)",
        r"(?<=e)[lh][0-9]",
        "avrae",
    ),
    _missing("decimal numbers (1.5)", r"\.[0-9]", "roll20", "foundry", "avrae"),
    _missing("dice matching (2d6m, 2d6mt)", r"(?<=[0-9])mt?(?![a-z])", "roll20"),
    _missing("roll options (&{tracker})", r"&\{", "roll20"),
    _missing("a target in parentheses (cs<=(@power), ms>(4d6))", r"(?<=[<>=])\(", "foundry"),
)


MORE_THAN_ONE_REROLL = Missing(
    "re-rolls applied one after another on a pool (Foundry's 2d8r1r3, d20's rr1ro3; "
    "with a limit or apart, not built)",
    re.compile("r"),
    ("foundry", "avrae"),
)
"""Several re-rolls of one kind are one re-roll of all their faces (`2d8r1r3`); re-rolls of
two kinds, or Foundry's (each re-rolls what the one before left), are refused by this."""


def missing_feature(text: str, at: int, dialect: Dialect, own: bool | None = None) -> str | None:
    """Why `text` fails at `at` in `dialect`, when it has the shape of a feature some tool
    reads and tabletop does not hold yet; `own` limits the search to features the
    dialect's own tool reads (True) or to the others' (False)."""
    for feature in MISSING:
        if own is not None and (dialect.name in feature.readers) != own:
            continue
        if feature.shape.match(text, at):
            return describe(feature, dialect)
    return None


def describe(feature: Missing, dialect: Dialect) -> str:
    """The refusal of a missing feature, in the words of the dialect it was typed in."""
    titles = listed([DIALECTS[name].title for name in feature.readers])
    if dialect.name in feature.readers:
        return f"{feature.name} is not supported yet (read by {titles})"
    return f"{feature.name} is not {dialect.title} notation (read by {titles})"


def other_readers(readers: list[Dialect], dialect: Dialect) -> str:
    """The refusal for text that other shipped dialects read whole."""
    titles = listed([other.title for other in readers])
    return f"this is {titles} notation, not {dialect.title}'s (--dialect {readers[0].name})"


def listed(titles: list[str]) -> str:
    """`a`, `a and b`, `a, b and c`."""
    return titles[0] if len(titles) == 1 else ", ".join(titles[:-1]) + " and " + titles[-1]
