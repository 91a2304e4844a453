"""What every table's GM-kept lists share (issue 30, item 3): where a book leaves a list to
the group (Dead Weight's backgrounds, 2d6's skills, Constitution's spells), the GM keeps the
group's in the room, takes an entry off one with the same pick and the same line, and loads
the group's file of them in one format: a table per list, an entry per name.

    [skills.Climbing]            # a list, then an entry's name
    cost = 2                     # the entry's fields, as the GM's form names them
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, Field

from tabletop.data import parse_json, validated
from tabletop.errors import PermissionDenied, TabletopError
from tabletop.frozen import Frozen
from tabletop.offers import Choice, Offer, offer
from tabletop.session import Event, Member, note

Entry = TypeVar("Entry")
Table = TypeVar("Table")
Kept = TypeVar("Kept", bound=BaseModel)

MAX_FILE = 200_000
"""Characters of a list file the GM loads (every member's view carries the lists)."""


NAMED = Choice(help="its name")


def write_offer(kind: str, what: str, name: Choice | None = NAMED, **fields: Choice) -> Offer:
    """The GM's form to write `what` ("a skill") on its list: its name (None: an entry named
    otherwise, a school's spells by the school), and what else it asks."""
    named = {"name": name, **fields} if name is not None else fields
    return offer(kind, f"write {what} on the table's list", **named)


def gm_offers(lists: Mapping[str, Iterable[str]], *writes: Offer) -> list[Offer]:
    """The GM's forms to write an entry on each list, and the pick to take one off."""
    taken = drop_offer(lists)
    return [*writes, *([taken] if taken else [])]


def drop_offer(lists: Mapping[str, Iterable[str]]) -> Offer | None:
    """The GM's standing pick of an entry to take off a list (None when every list is empty):
    an open offer, as a GM action among the others, never a choice asked of the GM now."""
    kept = {which: tuple(names) for which, names in lists.items()}
    kept = {which: names for which, names in kept.items() if names}
    if not kept:
        return None
    names = tuple(dict.fromkeys(name for listed in kept.values() for name in listed))
    return offer(
        "drop-listed",
        "take an entry off a list",
        list=Choice(values=tuple(kept)),
        name=Choice(values=names, help="the entry to take off"),
    )


def dropped(
    kept: Mapping[str, Entry], which: str, name: str, error: type[TabletopError]
) -> tuple[dict[str, Entry], Event]:
    """The list without `name`, and the line that says so; `error` if it is not on it."""
    if name not in kept:
        raise error(f"{name} is not on the table's {which} list")
    rest = {listed: entry for listed, entry in kept.items() if listed != name}
    return rest, note("list kept", f"the GM takes {name} off the table's {which} list")


class LoadLists(Frozen):
    """The GM loads the group's file of lists (TOML or JSON): its entries go on the table's
    lists, over any of the same name; a file that breaks a bound changes nothing."""

    kind: Literal["load-lists"] = "load-lists"
    file: str = Field(min_length=1, max_length=MAX_FILE)
    """The file's text."""


def load_offer(what: str, shape: str) -> Offer:
    """The GM's form to load `what` ("the group's list file"): the page opens the file or
    takes it pasted; `shape`, a comment, shows what the file holds and loads nothing."""
    return offer("load-lists", f"load {what}", file=Choice(example=shape))


def file_table(text: str, name: str, error: type[TabletopError]) -> dict[str, Any]:
    """A list file's text as its table: JSON when it starts with `{`, TOML otherwise; or
    `error` naming what is wrong."""
    try:
        data = parse_json(text) if text.lstrip().startswith("{") else tomllib.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError, ValueError) as problem:
        raise error(f"{name} is neither TOML nor JSON: {str(problem)[:120]}") from None
    except RecursionError:
        raise error(f"{name} nests its tables or lists too deeply") from None
    if not isinstance(data, dict):
        raise error(f"{name} must hold one table of lists")
    return data


@dataclass(frozen=True)
class KeptList:
    """One list a table keeps, as its file names it: the file's table of its entries
    (`skills`), one entry and many in a line, and the GM's form that writes one entry (an
    entry's fields are that form's, its name the entry's)."""

    table: str
    one: str
    many: str
    write: type[BaseModel]


def list_file_offer(kept: Sequence[KeptList]) -> Offer:
    """The GM's form to load the group's list file of `kept`, its placeholder the file's
    shape in words (the page shows it: no field's id)."""
    tables = [listed.table for listed in kept]
    named = ", ".join(tables[:-1]) + f" and {tables[-1]}" if len(tables) > 1 else tables[0]
    shape = (
        f"# the group's list file, TOML or JSON: a table each for {named}, and in it an entry "
        "by its name with what its “Write … on the table's list” form asks"
    )
    return load_offer("the group's list file", shape)


def read_lists(text: str, kept: Sequence[KeptList], error: type[TabletopError]) -> list[BaseModel]:
    """The GM's writes a group's list file holds, in its order; or `error` naming the first
    list or entry that is not one of `kept`'s."""
    data = file_table(text, "the list file", error)
    tables = {listed.table: listed for listed in kept}
    unknown = [name for name in data if name not in tables]
    if unknown:
        raise error(
            f"the list file holds {unknown[0]}, not a list of this table's "
            f"(it keeps {', '.join(tables)})"
        )
    writes = []
    for name, entries in data.items():
        if not isinstance(entries, dict):
            raise error(f"the list file's {name} must be a table of entries by name")
        for entry, fields in entries.items():
            origin = f"the list file's {name} entry {entry}"
            if not isinstance(fields, dict):
                raise error(f"{origin} must be a table of its fields")
            writes.append(validated(tables[name].write, {**fields, "name": entry}, origin, error))
    return writes


def loaded(
    state: Table,
    text: str,
    kept: Sequence[KeptList],
    error: type[TabletopError],
    write: Callable[[Table, BaseModel], Table],
) -> tuple[Table, list[Event]]:
    """The table with every entry of a group's list file written as the GM's form would
    write it (`write`, whose refusal refuses the whole file), and the line that counts what
    the file held: "the GM loads the group's list file: 2 skills, 1 armour, 0 weapons"."""
    writes = read_lists(text, kept, error)
    for entry in writes:
        state = write(state, entry)
    counts = [(listed, sum(isinstance(w, listed.write) for w in writes)) for listed in kept]
    held = ", ".join(f"{n} {listed.one if n == 1 else listed.many}" for listed, n in counts)
    return state, [note("list kept", f"the GM loads the group's list file: {held}")]


@dataclass(frozen=True)
class Desk:
    """A system's kept lists as the GM changes them: the lists a file fills (`kept`), the
    table's field of each list a drop names (`fields`), how many entries a list holds, and
    the system's refusal."""

    kept: tuple[KeptList, ...]
    fields: Mapping[str, str]
    most: int
    error: type[TabletopError]

    def offers(self, state: BaseModel, *writes: Offer) -> list[Offer]:
        """The GM's: write an entry on a list (`writes`), take one off, load the file."""
        lists = {one: getattr(state, field) for one, field in self.fields.items()}
        return gm_offers(lists, *writes, list_file_offer(self.kept))

    def step(
        self,
        state: Kept,
        intent: Any,
        member: Member,
        entry: Callable[[Kept, Any], tuple[str, dict[str, Any], str]],
        write: Callable[[Kept, BaseModel], Kept] | None = None,
    ) -> tuple[Kept, list[Event]]:
        """The table after the GM loads the group's file (each entry through `write`, by
        default this step), takes an entry off a list, or writes one (`entry`: the list's
        field, the list with it, and the line that says so)."""
        if not member.is_gm:
            raise PermissionDenied("only the GM keeps the table's lists")
        if isinstance(intent, LoadLists):

            def again(table: Kept, one: BaseModel) -> Kept:
                return self.step(table, one, member, entry)[0]

            return loaded(state, intent.file, self.kept, self.error, write or again)
        if intent.kind == "drop-listed":
            field = self.fields[intent.list]
            rest, line = dropped(getattr(state, field), intent.list, intent.name, self.error)
            return state.model_copy(update={field: rest}), [line]
        field, entries, said = entry(state, intent)
        if len(entries) > self.most:
            raise self.error(f"a table's list holds at most {self.most}")
        return state.model_copy(update={field: entries}), [note("list kept", said)]
