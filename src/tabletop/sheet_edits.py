"""What a player writes on a sheet between rolls, once for every RPG table: a new name, the
notes, coins that come or go, a line of gear dropped; each system gives only its words
(what its coins are called, what a line of gear is) and the rules that weigh the result.

Renaming and notes are the same intents at every table; the rest of the intents stay each
system's (their kinds and fields are in logs already): what is here is the logic they share
and the offers that put them beside a sheet's entries.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal, NamedTuple, TypeVar

from pydantic import Field

from tabletop.offers import Choice, Offer, entry_offer
from tabletop.session import MAX_NAME, CharacterIntent, clean_name

Line = TypeVar("Line")


MAX_NOTES = 4_000
"""Characters in a sheet's notes."""


class RenameCharacter(CharacterIntent):
    """A character's name as its player writes it on the sheet (the GM may too)."""

    kind: Literal["rename-character"] = "rename-character"
    name: str = Field(min_length=1, max_length=MAX_NAME)


class WriteNotes(CharacterIntent):
    """The notes section of a sheet: what the rules leave to the player to write down."""

    kind: Literal["write-notes"] = "write-notes"
    notes: str = Field(default="", max_length=MAX_NOTES)


Naming = RenameCharacter | WriteNotes
"""A new name or new notes: what every sheet takes the same way."""
NAMING = (RenameCharacter, WriteNotes)
"""The same, as the intents a session lists."""


def naming_offers(cid: str, name: str, notes: str) -> list[Offer]:
    """Renaming a character and writing its notes, offered at those entries of its sheet
    with what the sheet holds now as the example."""
    named = Choice(help="the name on the sheet", example=name)
    noted = Choice(help="anything worth remembering", example=notes)
    return [
        edit_offer("rename-character", "rename", "name", cid, name=named),
        edit_offer("write-notes", "write notes", "notes", cid, notes=noted),
    ]


class Written(NamedTuple):
    """What a rename or new notes write on a sheet, and the line the table is told."""

    changes: dict[str, str]
    kind: str
    text: str


def written(intent: Naming, called: str) -> Written:
    """The sheet's new name or notes; `called` is how lines name the character now."""
    if isinstance(intent, RenameCharacter):
        new = clean_name(intent.name)
        return Written({"name": new}, "renamed", f"{called} is now called {new}")
    return Written({"notes": intent.notes}, "notes", f"{called}'s notes are rewritten")


def counted(
    called: str,
    purse: Mapping[str, int],
    change: Mapping[str, int],
    most: int,
    refusal: type[Exception],
) -> dict[str, int]:
    """The purse after `change` (coins by what they are called: sp, gold, …): never fewer
    than none, nor more than `most` of a kind, and never a change of nothing."""
    if not any(change.values()):
        raise refusal("write how many coins come or go")
    now = {coin: purse[coin] + change.get(coin, 0) for coin in purse}
    for coin, count in now.items():
        if count < 0:
            raise refusal(f"{called} has only {purse[coin]} {coin}")
        if count > most:
            raise refusal(f"more than {most} {coin} is past what a sheet holds")
    return now


def coins_line(called: str, change: Mapping[str, int], reason: str) -> str:
    """The line the table is told: `Ada: +10 sp (a lantern)`."""
    changes = ", ".join(f"{count:+d} {coin}" for coin, count in change.items() if count)
    return f"{called}: {changes}" + (f" ({reason})" if reason else "")


def coins_offer(kind: str, cid: str, reason: str, **amounts: Choice) -> Offer:
    """Counting coins, offered at the sheet's entry of the same name (`reason`: an example
    of what they were for)."""
    why = Choice(help="what for", example=reason)
    return edit_offer(kind, "coins gained or spent", kind, cid, **amounts, reason=why)


def taken(lines: Sequence[Line], index: int, missing: str, refusal: type[Exception]) -> Line:
    """The line at `index` of a list on the sheet (gear, items), refused with `missing`
    when there is none."""
    if not 0 <= index < len(lines):
        raise refusal(missing)
    return lines[index]


def without(lines: Sequence[Line], index: int) -> tuple[Line, ...]:
    """The list with its line at `index` struck out."""
    return (*lines[:index], *lines[index + 1 :])


def edit_offer(kind: str, text: str, entry: str, cid: str, **fields: Choice) -> Offer:
    """An open offer at one entry of a character's sheet, for that character."""
    return entry_offer(kind, text, entry, {"character": cid}, **fields)
