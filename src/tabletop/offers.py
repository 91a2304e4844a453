"""What a member may ask for now, as every table offers it: an `Offer` of one kind of intent,
closed (the very intents allowed: re-roll die 1, 2 or 3) or open (its `Choice` fields), and
placed at a sheet entry where it acts on one. A session's `legal` lists them; a page turns
each into a control, and `Offer.allows` holds an intent to what was offered."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from pydantic import BaseModel, Field

from tabletop.frozen import Frozen


class Choice(Frozen):
    """One field of an open offer: the values it may take now, or what to write in it."""

    values: tuple[Any, ...] | None = None
    """Every value allowed now; None when the field is free (a name, a dice expression)."""
    help: str = ""
    example: Any = None
    """A value that would be accepted, for a form's placeholder and for tests."""
    shapes: tuple[str, ...] | None = None
    """For a choice between shapes told apart by a tag (a fight's actions): the tags open
    now, so a form offers only those; None for every shape."""
    items: tuple[Any, ...] | None = None
    """For a list field: every value each of its entries may take now (spells picked from
    the GM's list), so a form ticks them from a list; None when entries are free."""
    ordered: bool = False
    """For a list field whose order matters (a turn order, which score the highest roll
    goes to): a form places its entries one by one instead of ticking them."""
    names: tuple[str, ...] | None = None
    """For a free name: who is there to pick (the characters and NPCs at the table), so a
    form lists them and still takes anyone else's name typed in; None for no list."""
    within: dict[str, Choice] = Field(default_factory=dict)
    """For an object field: the choices of its own fields (the skills a check may name), so
    a form picks them from a list; a field not named here is free."""
    fixed: str = ""
    """For a field offered at one value that still matters to whoever sends it (the level
    a player rolls at): who or what sets it, for a form to show beside the value ("set by
    the GM"); empty where a form need not show the value at all."""
    follows: str | None = None
    """For a field whose values depend on another field of the intent (the skills of the
    character a check is asked of): that field's name, and `each` the values for each of its
    values, so a form changes the list when that field changes."""
    each: dict[str, tuple[Any, ...]] = Field(default_factory=dict)
    """The values allowed for each value of the field `follows` names, by that value."""

    def values_for(self, intent: Mapping[str, Any]) -> tuple[Any, ...] | None:
        """The values allowed now in `intent` (in JSON form, the whole intent): `values`, or
        those for the value of the field it follows (none allowed for a value not listed)."""
        if self.follows is None:
            return self.values
        return self.each.get(str(intent.get(self.follows)), ())


class Offer(Frozen):
    """One kind of intent a member may send now.

    A *closed* offer lists every intent it allows in `intents` (a re-roll of die 1, 2 or 3);
    an *open* one describes its `fields` instead (a test: which attribute, how many
    advantages). Fields an open offer does not name take their defaults or any value the
    rules accept."""

    kind: str
    text: str
    intents: tuple[dict[str, Any], ...] = ()
    fields: dict[str, Choice] = Field(default_factory=dict)
    entry: str = ""
    """The sheet entry this offer acts on, as a dotted path into the character's sheet
    (`attributes.STR`, `inventory.places.2.items.0`), so a page shows it beside that entry;
    empty for an offer that belongs to no one entry."""
    preset: dict[str, Any] = Field(default_factory=dict)
    """Part of the intent the entry fixes (its character, the attribute tested, the item
    used), nested as in the intent; a page fills it in and `allows` holds an intent to it."""

    @property
    def closed(self) -> bool:
        return bool(self.intents)

    def fits_preset(self, intent: Mapping[str, Any]) -> bool:
        """Whether `intent` (in JSON form) holds what this offer's entry fixes."""
        return _within(self.preset, intent)

    def allows(self, intent: Mapping[str, Any], said: Said | None = None) -> str | None:
        """None if this offer covers `intent` (in JSON form), else the reason it does not,
        in `said`'s words (a field's label, a character's name) where a person reads it."""
        said = said or Said()
        if self.closed:
            return None if intent in self.intents else "that choice is not open now"
        if not self.fits_preset(intent):
            return f"this offer is for {self.entry or 'another entry'}"
        return _fields_refuse(self.kind, self.fields, intent, intent, said)


def _fields_refuse(
    kind: str,
    fields: Mapping[str, Choice],
    given: Mapping[str, Any],
    whole: Mapping[str, Any],
    said: Said,
) -> str | None:
    """Why the fields `given` (a part of the intent `whole`) fall outside `fields`, in
    `said`'s words, or None; a field that follows another reads it in `whole`."""
    for name, choice in fields.items():
        label = functools.partial(said.field, kind, name)  # words only once refused
        values = choice.values_for(whole)
        if values is not None and given.get(name) not in values:
            if len(values) == 1 and isinstance(values[0], Mapping):
                return f"{label()} is not yours to set now: leave it out"
            shown = ", ".join(said.value(kind, name, v) for v in values[:12])
            more = ", …" if len(values) > 12 else ""
            one = "" if len(values) == 1 else "one of "
            sent = said.given(given.get(name))
            return f"{label()} must be {one}{shown}{more}" + (f", not {sent}" if sent else "")
        listed = given.get(name)
        if choice.items is not None and listed is not None and not _all_in(listed, choice.items):
            return f"{label()}: pick each from the list offered"
        if choice.within:
            inner = given.get(name)
            nested = inner if isinstance(inner, Mapping) else {}
            refused = _fields_refuse(kind, choice.within, nested, whole, said)
            if refused is not None:
                return f"{label()}: {refused}"
    return None


class Said:
    """How a refusal says a field and its values: as code by default (the library's own
    callers), in a table's words for a room (`Session` gives its labels and names)."""

    def field(self, kind: str, name: str) -> str:
        return name

    def value(self, kind: str, name: str, value: Any) -> str:
        return str(value)

    def given(self, value: Any) -> str:
        """What was sent instead, echoed back ("" to echo nothing)."""
        return repr(value)


def offer(kind: str, text: str, **fields: Choice) -> Offer:
    """An open offer of `kind` with these fields."""
    return Offer(kind=kind, text=text, fields=fields)


def entry_offer(
    kind: str, text: str, entry: str, preset: Mapping[str, Any], **fields: Choice
) -> Offer:
    """An open offer for one sheet entry: `preset` fixes what the entry decides (the
    character, the attribute, the item), `fields` are what is still asked."""
    return Offer(kind=kind, text=text, fields=fields, entry=entry, preset=dict(preset))


def _all_in(given: Any, items: tuple[Any, ...]) -> bool:
    """Whether `given` is a list whose every entry is one of `items`."""
    return isinstance(given, list | tuple) and all(entry in items for entry in given)


def _within(part: Mapping[str, Any], whole: Any) -> bool:
    """Whether every value of `part` is in `whole`, nested objects compared key by key."""
    if not isinstance(whole, Mapping):
        return not part
    for key, value in part.items():
        if isinstance(value, Mapping):
            if not _within(value, whole.get(key)):
                return False
        elif key not in whole or whole[key] != value:
            return False
    return True


def closed_offer(
    kind: str, text: str, intents: Iterable[BaseModel], entry: str = ""
) -> Offer | None:
    """A closed offer of exactly these intents (at a sheet entry, if named), or None when
    there are none."""
    listed = tuple(i.model_dump(mode="json") for i in intents)
    return Offer(kind=kind, text=text, intents=listed, entry=entry) if listed else None


def entry_action(kind: str, text: str, intent: BaseModel, entry: str) -> Offer:
    """The one intent a sheet entry's button sends (use this item, cast this spell)."""
    return Offer(kind=kind, text=text, intents=(intent.model_dump(mode="json"),), entry=entry)


def accepts(rule: Callable[[], object], refusal: type[Exception]) -> bool:
    """Whether a rule that rolls no dice runs without `refusal` on the state as it is now:
    how a closed offer lists only what the rules will take."""
    try:
        rule()
    except refusal:
        return False
    return True
