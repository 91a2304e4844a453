"""NPCs and monsters a GM keeps at a table: what is the same in every system.

Each RPG session keeps its NPCs in its own state, with the numbers its rules need (a Dead
Weight enemy's level and wounds, a whole 2d6 sheet), and joins them to its own tests,
fights and contests. What they share lives here: the intents that bring an NPC (typed in,
or one of the book's creatures), change one number, take it away and show or hide its
numbers; the book's creatures as data, validated once; the offers for them, GM's only; how
one reaches a member's view. How a line that mixes a hidden NPC and a character is told
to the players is each rule's, by marks (`tabletop.kept`; docs/rooms.md, "What a member
sees of an NPC's line").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Generic, Literal, Protocol, Self, TypeVar

from pydantic import BaseModel, Field, model_validator

from tabletop.data import shipped_data, validated
from tabletop.errors import TabletopError
from tabletop.names import hiding, look_alike
from tabletop.offers import Choice, Offer, closed_offer, offer
from tabletop.session import MAX_NAME, Event, Frozen, Member, Visibility, hidden, note

MAX_NPCS = 100
"""NPCs one table keeps: a documented bound."""

NAMES_NOT_NUMBERS = ("name",)
"""What `edit-npc` may change besides the numbers: the name the table knows it by."""

StatsT = TypeVar("StatsT", bound=BaseModel)
TemplateT = TypeVar("TemplateT", bound=BaseModel)

NpcId = str
"""An NPC's id at the table: `n1`, `n2`, … (never reused)."""


# intents ----------------------------------------------------------------------------------


class NewNpc(Frozen, Generic[StatsT]):
    """The GM types an NPC in: its name and the numbers the system keeps for one."""

    kind: Literal["new-npc"] = "new-npc"
    name: str = Field(min_length=1, max_length=MAX_NAME)
    stats: StatsT


class BookNpc(Frozen):
    """The GM brings one of the book's creatures, with the numbers the book gives it."""

    kind: Literal["npc-from-book"] = "npc-from-book"
    creature: str = Field(min_length=1, max_length=MAX_NAME)
    name: str | None = Field(default=None, min_length=1, max_length=MAX_NAME)
    """What the table calls this one ("the second guard"); the creature's name if left out."""


class EditNpc(Frozen):
    """The GM changes one of an NPC's numbers (or its name), written as text and read by the
    system's own model, so a bad value is refused with the model's one line."""

    kind: Literal["edit-npc"] = "edit-npc"
    npc: NpcId = Field(min_length=1, max_length=64)
    stat: str = Field(min_length=1, max_length=40)
    value: str = Field(min_length=1, max_length=200)


class RemoveNpc(Frozen):
    kind: Literal["remove-npc"] = "remove-npc"
    npc: NpcId = Field(min_length=1, max_length=64)


class RevealNpc(Frozen):
    """The GM shows an NPC's numbers to everyone from now on, or hides them again."""

    kind: Literal["reveal-npc"] = "reveal-npc"
    npc: NpcId = Field(min_length=1, max_length=64)
    revealed: bool


class Kept(Frozen, Generic[StatsT]):
    """An NPC the GM keeps: its name, its numbers, whether the players see them, and the
    book's creature it was made from (None: typed in)."""

    name: str = Field(min_length=1, max_length=MAX_NAME)
    stats: StatsT
    revealed: bool = False
    creature: str | None = None


# the book's creatures ---------------------------------------------------------------------


class Creature(Frozen, Generic[TemplateT]):
    """One of the book's creatures: its name, where the book gives it, the reading that
    maps it to the system's numbers (docs/rules/<system>.md) and those numbers."""

    name: str = Field(min_length=1, max_length=MAX_NAME)
    source: str = Field(min_length=1)
    """The sections of the seed it comes from."""
    reading: str = Field(min_length=1)
    """The entry id in docs/rules/<system>.md that records how it maps to the numbers."""
    note: str = ""
    stats: TemplateT


class Bestiary(Frozen, Generic[TemplateT]):
    """A system's creatures from its rule document, and the credit that document asks for."""

    credit: str = Field(min_length=1)
    creatures: tuple[Creature[TemplateT], ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _each_name_once(self) -> Bestiary[TemplateT]:
        """A pick-list names each creature once."""
        if len(set(self.names)) != len(self.names):
            raise ValueError("a creature is named twice")
        return self

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(creature.name for creature in self.creatures)

    def creature(self, name: str, error: type[TabletopError]) -> Creature[TemplateT]:
        for creature in self.creatures:
            if creature.name == name:
                return creature
        raise error(f"the book has no creature {name!r}; it has {', '.join(self.names)}")


def load_bestiary(package: str, template: type[TemplateT]) -> Bestiary[TemplateT]:
    """`data/bestiary.toml` of a system's package, every creature checked against the
    system's `template` of what the book gives (call it once: tables are validated once)."""
    data = shipped_data(package, "bestiary.toml")
    return validated(Bestiary[template], data, f"{package}: data/bestiary.toml")  # type: ignore[valid-type]


# changing one number ----------------------------------------------------------------------


def edited(stats: StatsT, stat: str, value: str, error: type[TabletopError]) -> StatsT:
    """`stats` with `stat` set to `value` as the stats model reads it ("none" empties an
    optional number), or `error` in one line and nothing changed."""
    if stat not in type(stats).model_fields:
        known = ", ".join((*NAMES_NOT_NUMBERS, *type(stats).model_fields))
        raise error(f"an NPC here has no {stat!r}; it has {known}")
    data = stats.model_dump(mode="json")
    text = value.strip()
    data[stat] = None if text.lower() == "none" else text
    return validated(type(stats), data, "the NPC", error)


def stat_names(stats: type[BaseModel]) -> tuple[str, ...]:
    """What `edit-npc` may change for NPCs kept with these stats."""
    return (*NAMES_NOT_NUMBERS, *stats.model_fields)


def next_id(taken: Iterable[str], counter: int) -> tuple[NpcId, int]:
    """The next NPC id from the table's counter, skipping any id already in use."""
    used = set(taken)
    while f"n{counter}" in used:
        counter += 1
    return f"n{counter}", counter + 1


def check_name(name: str, taken: Iterable[str], error: type[TabletopError]) -> None:
    """Refuse a name that could hide or fake text, or that looks like one another character
    or NPC at the table already has (letters that look or fold alike count as one, as for
    members: tabletop.names): fights, contests and the log tell them apart by name."""
    hidden = hiding(name)
    if hidden is not None:
        raise error(f"a name may not hold {hidden}: it could hide or fake text")
    other = look_alike(name, taken)
    if other == name:
        raise error(f"there is already someone called {name} at this table")
    if other is not None:
        raise error(f"{name!r} looks like {other!r}, someone at this table; choose another name")


def check_room(count: int, error: type[TabletopError]) -> None:
    """Refuse an NPC more than a table keeps, `count` being those it keeps now."""
    if count >= MAX_NPCS:
        raise error(f"a table keeps at most {MAX_NPCS} NPCs")


def check_rename(name: str, old: str, taken: Iterable[str], error: type[TabletopError]) -> None:
    """`check_name` for a new name of `old`, whose own name does not count as taken."""
    check_name(name, [t for t in taken if t != old], error)


# offers -----------------------------------------------------------------------------------


def roster_offers(
    npcs: Sequence[tuple[NpcId, bool]],
    stats: Sequence[str],
    example: dict[str, Any],
    book: Bestiary[Any] | None = None,
) -> list[Offer]:
    """The GM's offers for the NPCs `npcs` (each id with whether it is revealed): bring one
    from the book (when the book has creatures) or typed in, change one of the `stats`
    (or its name), take one away, and show or hide its numbers."""
    found: list[Offer] = []
    if len(npcs) < MAX_NPCS:
        if book is not None:
            found.append(
                offer(
                    "npc-from-book",
                    "bring a creature from the book",
                    creature=Choice(values=book.names),
                    name=Choice(help="what the table calls this one", example="the second one"),
                )
            )
        found.append(
            offer(
                "new-npc",
                "type in an NPC",
                name=Choice(help="its name, which the players see", example="Grell"),
                stats=Choice(help="its numbers, which they do not", example=example),
            )
        )
    ids = tuple(nid for nid, _ in npcs)
    if not ids:
        return found
    found += [
        offer(
            "edit-npc",
            "change an NPC's number or name",
            npc=Choice(values=ids),
            stat=Choice(values=tuple(stats)),
            value=Choice(help="the new value", example="3"),
        ),
        offer("remove-npc", "take an NPC away", npc=Choice(values=ids)),
    ]
    shown = closed_offer(
        "reveal-npc",
        "show an NPC's numbers to the players, or hide them again",
        [RevealNpc(npc=nid, revealed=not revealed) for nid, revealed in npcs],
    )
    return [*found, *([shown] if shown else [])]


# what members see -------------------------------------------------------------------------


def npc_view(
    nid: NpcId,
    name: str,
    revealed: bool,
    creature: str | None,
    stats: dict[str, Any],
    member: Member,
) -> dict[str, Any]:
    """One NPC in a member's view: its name always; its numbers, and which of the book's
    creatures it is, to the GM or once revealed (the book's entry would tell its numbers)."""
    shown = member.is_gm or revealed
    return {
        "id": nid,
        "name": name,
        "revealed": revealed,
        "creature": creature if shown or creature is None else hidden("which creature it is"),
        "stats": stats if shown else hidden(f"{name}'s numbers, kept by the GM"),
    }


def brought(nid: NpcId, name: str, details: str, creature: str | None) -> list[Event]:
    """An NPC comes to the table: its numbers for the GM (the first event, so the intent
    that holds them goes only where they go), its name for everyone; the book's creature
    is named beside a name of its own, not twice ("Sneering guard (from the book)")."""
    named = f"{creature}, " if creature != name else ""
    whence = f" ({named}from the book)" if creature else ""
    return [
        Event(
            type="npc",
            text=f"{name}{whence}: {details}",
            data={"npc": nid},
            visibility=Visibility.GM,
        ),
        note("npc brought", f"the GM brings {name} to the table", npc=nid, name=name),
    ]


def changed(nid: NpcId, name: str, stat: str, value: str, revealed: bool) -> list[Event]:
    """An NPC's number changed: the GM's alone while its numbers are hidden; a new name is
    everyone's, since the players know it by its name."""
    told = Event(
        type="npc changed",
        text=f"{name}: {stat.replace('_', ' ')} is now {value}",
        data={"npc": nid, "stat": stat},
        visibility=Visibility.PUBLIC if revealed else Visibility.GM,
        hint="" if revealed else f"the GM changes {name}",
    )
    if stat != "name" or revealed:
        return [told]
    return [told, note("npc renamed", f"{name} is now called {value}", npc=nid, name=value)]


def removed(nid: NpcId, name: str) -> Event:
    return note("npc removed", f"the GM takes {name} away", npc=nid)


def shown(nid: NpcId, name: str, revealed: bool, stats: dict[str, Any]) -> Event:
    """The GM shows an NPC's numbers (they go with the event), or hides them again."""
    if revealed:
        return note("npc revealed", f"the GM shows {name}'s numbers", npc=nid, stats=stats)
    return note("npc hidden", f"the GM hides {name}'s numbers again", npc=nid)


# keeping them -----------------------------------------------------------------------------


class Roster(Generic[StatsT]):
    """How a table that keeps its NPCs as `Kept` (a name and a stats model) brings, changes,
    removes and shows them; the system gives its stats model, its error and how to tell
    an NPC's numbers in one line."""

    def __init__(
        self,
        stats: type[StatsT],
        error: type[TabletopError],
        describe: Callable[[StatsT], str],
    ) -> None:
        self.stats = stats
        self.error = error
        self.describe = describe

    def kept(self, npcs: Mapping[NpcId, Kept[StatsT]], nid: NpcId) -> Kept[StatsT]:
        if nid not in npcs:
            raise self.error(f"no NPC {nid!r} at this table")
        return npcs[nid]

    def add(
        self,
        npcs: Mapping[NpcId, Kept[StatsT]],
        counter: int,
        made: Kept[StatsT],
        taken: Iterable[str],
    ) -> tuple[dict[NpcId, Kept[StatsT]], int, list[Event]]:
        """`made` joins the NPCs under the next id."""
        check_room(len(npcs), self.error)
        check_name(made.name, taken, self.error)
        nid, counter = next_id(npcs, counter)
        events = brought(nid, made.name, self.describe(made.stats), made.creature)
        return {**npcs, nid: made}, counter, events

    def change(
        self,
        npcs: Mapping[NpcId, Kept[StatsT]],
        intent: EditNpc | RemoveNpc | RevealNpc,
        taken: Iterable[str],
    ) -> tuple[dict[NpcId, Kept[StatsT]], list[Event]]:
        """An NPC edited, taken away, or shown or hidden."""
        kept = self.kept(npcs, intent.npc)
        if isinstance(intent, RemoveNpc):
            rest = {nid: npc for nid, npc in npcs.items() if nid != intent.npc}
            return rest, [removed(intent.npc, kept.name)]
        if isinstance(intent, RevealNpc):
            now = kept.model_copy(update={"revealed": intent.revealed})
            stats = kept.stats.model_dump(mode="json")
            return {**npcs, intent.npc: now}, [shown(intent.npc, kept.name, intent.revealed, stats)]
        if intent.stat == "name":
            name = intent.value.strip()
            if not name or len(name) > MAX_NAME:
                raise self.error(f"an NPC's name is 1 to {MAX_NAME} characters")
            check_rename(name, kept.name, taken, self.error)
            now = kept.model_copy(update={"name": name})
            value = name
        else:
            stats = edited(kept.stats, intent.stat, intent.value, self.error)
            now = kept.model_copy(update={"stats": stats})
            number = getattr(stats, intent.stat)
            value = "none" if number is None else str(number)  # as the GM typed it
        events = changed(intent.npc, kept.name, intent.stat, value, kept.revealed)
        return {**npcs, intent.npc: now}, events

    def offers(
        self,
        npcs: Mapping[NpcId, Kept[StatsT]],
        example: dict[str, Any],
        book: Bestiary[Any] | None = None,
    ) -> list[Offer]:
        listed = [(nid, npc.revealed) for nid, npc in npcs.items()]
        return roster_offers(listed, stat_names(self.stats), example, book)

    def view(self, npcs: Mapping[NpcId, Kept[StatsT]], member: Member) -> list[dict[str, Any]]:
        return [
            npc_view(
                nid,
                npc.name,
                npc.revealed,
                npc.creature,
                npc.stats.model_dump(mode="json"),
                member,
            )
            for nid, npc in npcs.items()
        ]


# seated among the characters --------------------------------------------------------------


class SeatsNpcs(Protocol):
    """A table that seats its NPCs among its characters, by id (2d6, roll-under), and counts
    the NPC ids it has given."""

    @property
    def characters(self) -> Mapping[str, Any]: ...

    @property
    def next_npc(self) -> int: ...

    def model_copy(
        self, *, update: Mapping[str, Any] | None = None, deep: bool = False
    ) -> Self: ...


SeatsT = TypeVar("SeatsT", bound=SeatsNpcs)


def seat_npc(
    state: SeatsT, seat: Any, name: str, details: str, creature: str | None
) -> tuple[SeatsT, list[Event]]:
    """`seat` joins the table's characters under the next NPC id; the GM is told what it is."""
    nid, counter = next_id(state.characters, state.next_npc)
    seats = {**state.characters, nid: seat}
    after = state.model_copy(update={"characters": seats, "next_npc": counter})
    return after, brought(nid, name, details, creature)


def unseat_npc(state: SeatsT, nid: NpcId, name: str) -> tuple[SeatsT, list[Event]]:
    """The table once the GM has taken NPC `nid` (called `name`) away."""
    rest = {cid: seat for cid, seat in state.characters.items() if cid != nid}
    return state.model_copy(update={"characters": rest}), [removed(nid, name)]
