"""The words a table shows people for what its rules call by ids: each intent kind, field,
value, rule option and event type a label and a line of help, in the book's terms.

The rules name things for code (`new-character`, `defender_wins_ties`, `d4-2`); a page
must never show those names. Every system keeps its words in `data/words.toml` beside its
rules, over the words every table shares (`words.toml` beside this module): a page builds
its forms and lines from them, and `missing` finds any kind, field or value of a schema
that has no words of its own (a test asks it of every system). docs/architecture.md, "The
words a table shows".

    [kinds.check]                      # an intent kind: its button or form, and its help
    label = "Make a check"
    help = "2d6 plus a score against a difficulty."
    [fields.dc]                        # a field of any kind …
    label = "DC"
    help = "The difficulty the total must reach."
    [fields."check.score"]             # … or of one kind only
    [values.mode]                      # a field's values (any kind's, or "kind.field")
    public = "Everyone sees it"
    [options.tie_on_set_dc]            # a rule option in the lobby's "Rules of this table"
    [events]                           # an event type, as a hint names what happened
    health_lost = "lost health"

A line says a count, a list and a roll the one way every table does: `counted` (`2 wounds`,
never `wound(s)`), `listed` and `said` (the dice as a book writes them, as they fell).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from functools import cache
from importlib import resources
from typing import Any, Literal, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field

from tabletop.data import validated
from tabletop.dice import PLAIN, Die, Roll, RolledPool, RolledRisk, render_line
from tabletop.dice.render import shown_number
from tabletop.dice.syntax import Number
from tabletop.errors import DataError


def counted(number: int, noun: str, many: str = "") -> str:
    """`1 wound`, `3 wounds`, `2 life rings`: a count as a line says it, never `wound(s)`
    (`many`, the plural where it is not the noun and an s)."""
    return f"{number} {noun if number == 1 else many or noun + 's'}"


def listed(items: Sequence[str], last: str = "and") -> str:
    """`A`, `A and B`, `A, B and C` (or `A, B or C`)."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} {last} {items[-1]}"


def said(rolled: Roll) -> str:
    """A roll of one term as a player reads it: the dice as a book writes them and each die
    as it fell, `1d20: 12`, `2d6: 3 and 4 = 7`, `1d6, exploding: 6, then 3 (+2) = 8`,
    `3d!: 4, 2 and 4, no 1`; never the engine's own notation (`1d6!p:100`, `(no risk) = 0`).
    Any other roll (an expression a user wrote) as the engine writes it, since they wrote it
    so."""
    pool = rolled.result
    if isinstance(pool, RolledRisk):
        faces = listed([str(face) for face in pool.faces])
        return f"{len(pool.faces)}d!: {faces}, {'a 1' if pool.triggered else 'no 1'}"
    if not isinstance(pool, RolledPool) or not _plain(pool.term):
        return render_line(rolled, PLAIN)
    exploding = ", exploding" if pool.term.explode else ""
    return f"{pool.term.count}d{pool.term.sides}{exploding}: {fell(pool.dice, rolled.total)}"


def said_plus(rolled: Roll, modifier: int, total: int) -> str:
    """A roll with what is added to it, as a line says it: `1d6: 3 + 2 = 5`, or the roll
    alone when nothing is added (never `+ 0`)."""
    if not modifier:
        return said(rolled)
    sign = "+" if modifier > 0 else "-"
    return f"{said(rolled)} {sign} {abs(modifier)} = {total}"


def _plain(term: Any) -> bool:
    """Whether a pool is its count of dice and sides alone, but for an explosion."""
    return replace(term, explode=None) == type(term)(term.count, term.sides)


def fell(dice: Sequence[Die], total: Number) -> str:
    """Each die as it fell, with the total where one face does not say it: `12`, `3 and 4 =
    7`, `6, then 3 (+2) = 8` (an exploding die's maximum rolls again and adds the new face,
    or the new face minus 1 where the explosion penetrates)."""
    shown = [_die(die) for die in dice]
    if len(dice) == 1 and not dice[0].exploded:
        return shown[0]
    joined = "; ".join(shown) if any(die.exploded for die in dice) else listed(shown)
    return f"{joined} = {shown_number(total)}"


def _die(die: Die) -> str:
    later = [f"{face} (+{face - 1 if die.penetrating else face})" for face in die.faces[1:]]
    return ", then ".join([str(die.faces[0]), *later])


class Wording(BaseModel):
    """What a person reads for one id: a label, and a line of help."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    label: str = Field(min_length=1, max_length=80)
    help: str = Field(default="", max_length=300)


class Words(BaseModel):
    """A system's words, over those every table shares."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kinds: dict[str, Wording] = {}
    fields: dict[str, Wording] = {}
    values: dict[str, dict[str, str]] = {}
    options: dict[str, Wording] = {}
    events: dict[str, str] = {}

    def over(self, base: Words) -> Words:
        """These words, and the base's wherever these have none."""
        values = {**base.values}
        for field, named in self.values.items():
            values[field] = {**values.get(field, {}), **named}
        return Words(
            kinds={**base.kinds, **self.kinds},
            fields={**base.fields, **self.fields},
            values=values,
            options={**base.options, **self.options},
            events={**base.events, **self.events},
        )

    def kind(self, kind: str) -> Wording | None:
        return self.kinds.get(kind)

    def field(self, kind: str, name: str) -> Wording | None:
        return self.fields.get(f"{kind}.{name}") or self.fields.get(name)

    def value(self, kind: str, name: str, value: object) -> str | None:
        """A value's words: its own, else those of a value written with `…` standing for
        a part that varies (`"reroll …" = "Re-roll with …'s omen"` says
        `reroll Ash`)."""
        text = str(value)
        for key in (f"{kind}.{name}", name):
            named = self.values.get(key, {})
            if text in named:
                return named[text]
            for shape, said in named.items():
                part = _varying(shape, text)
                if part:
                    return said.replace(VARIES, part)
        return None

    def event(self, type: str) -> str:
        """An event type in words (how a hint says what happened), or the type's own words
        where a system gives none."""
        return self.events.get(type) or type.replace("_", " ").replace("-", " ")


VARIES = "…"
"""In a value's key, the part that varies (a name, a number); in its words, where it goes."""


def _varying(shape: str, text: str) -> str:
    """The part of `text` that `shape` leaves to vary, or "" where it does not fit."""
    before, marked, after = shape.partition(VARIES)
    if not marked or len(text) <= len(before) + len(after):
        return ""
    fits = text.startswith(before) and text.endswith(after)
    return text[len(before) : len(text) - len(after)] if fits else ""


def _read(package: str, name: str) -> Words:
    try:
        text = resources.files(package).joinpath(name).read_text("utf-8")
    except FileNotFoundError:
        return Words()
    return validated(Words, tomllib.loads(text), f"{package}: {name}")


@cache
def shared() -> Words:
    """The words every table shares: rolls, characters' names and notes, NPCs."""
    return _read("tabletop", "words.toml")


@cache
def words_of(package: str) -> Words:
    """A system's words (its package's `data/words.toml`) over the shared ones, read and
    checked once."""
    return _read(package, "data/words.toml").over(shared())


# what a schema asks words for -------------------------------------------------------------


def wanted(schema: Mapping[str, Any]) -> Iterator[tuple[str, str, str | None]]:
    """Every (kind, field, value) an intent schema holds: each kind with field "" and
    value None, each field of it (nested objects' fields by their own name) with value
    None, and each value a field may only take from a list."""
    defs = schema.get("$defs", {})
    for model in _models(schema, defs):
        kind = model["properties"]["kind"].get("const") or model["properties"]["kind"]["default"]
        yield kind, "", None
        yield from _fields(kind, model, defs, set())


def _models(schema: Mapping[str, Any], defs: Mapping[str, Any]) -> list[dict[str, Any]]:
    if "properties" in schema and "kind" in schema["properties"]:
        return [dict(schema)]
    found = []
    for option in schema.get("oneOf", schema.get("anyOf", [])):
        found.append(_resolved(option, defs))
    return found


def _fields(
    kind: str, model: Mapping[str, Any], defs: Mapping[str, Any], seen: set[str]
) -> Iterator[tuple[str, str, str | None]]:
    for name, spec in model.get("properties", {}).items():
        if name == "kind":
            continue
        yield kind, name, None
        for value in _choices(spec, defs):
            yield kind, name, value
        for nested in _nested(spec, defs, seen):
            yield from _fields(kind, nested, defs, seen)


def _resolved(spec: Mapping[str, Any], defs: Mapping[str, Any]) -> dict[str, Any]:
    found = dict(spec)
    while "$ref" in found:
        found = {**defs[found.pop("$ref").split("/")[-1]], **found}
    return found


def _alternatives(spec: Mapping[str, Any], defs: Mapping[str, Any]) -> list[dict[str, Any]]:
    spec = _resolved(spec, defs)
    options = spec.get("anyOf") or spec.get("oneOf")
    if options:
        return [alt for option in options for alt in _alternatives(option, defs)]
    if spec.get("type") == "array" and isinstance(spec.get("items"), dict):
        return _alternatives(spec["items"], defs)
    return [spec]


def _choices(spec: Mapping[str, Any], defs: Mapping[str, Any]) -> list[str]:
    """The values a field may take only from a list: an enum's, or consts."""
    found: list[str] = []
    for alternative in _alternatives(spec, defs):
        if "enum" in alternative:
            found += [str(v) for v in alternative["enum"] if v is not None]
        elif "const" in alternative and not isinstance(alternative["const"], bool):
            found.append(str(alternative["const"]))
    return found


def _nested(
    spec: Mapping[str, Any], defs: Mapping[str, Any], seen: set[str]
) -> list[dict[str, Any]]:
    """The object models a field holds (a test's setup, a contest's sides), each once."""
    found = []
    for alternative in _alternatives(spec, defs):
        title = alternative.get("title", "")
        if alternative.get("properties") and title not in seen:
            seen.add(title)
            found.append(alternative)
    return found


_SEPARATORS = re.compile(r"[-_.\s]+")


def only_the_id(text: str, id: str) -> bool:
    """Whether `text` says nothing but the id, its separators replaced."""
    return _SEPARATORS.sub(" ", text).strip().lower() == _SEPARATORS.sub(" ", id).strip().lower()


def missing(schema: Mapping[str, Any], words: Words) -> list[str]:
    """What a schema asks words for and `words` do not give, one line each: a kind or field
    with no label, no help, or nothing but its id; a listed value with no label, or one
    that is only the value."""
    problems = []
    for kind, field, value in wanted(schema):
        if value is not None:
            named = words.value(kind, field, value)
            if named is None or (only_the_id(named, value) and not value.isupper()):
                problems.append(f"{kind}: {field} = {value!r} has no words of its own")
            continue
        wording = words.field(kind, field) if field else words.kind(kind)
        what = f"{kind}: {field}" if field else f"{kind}"
        if wording is None:
            problems.append(f"{what} has no words")
        elif not wording.help or only_the_id(wording.help, field or kind):
            problems.append(f"{what} has no line of help")
        elif only_the_id(wording.label, field or kind) and only_the_id(wording.help, wording.label):
            problems.append(f"{what} says only its id")
    return problems


def unworded_options(options: type[BaseModel], words: Words) -> list[str]:
    """Each rule option of a system's `Options` that the lobby would show by its id, one
    line each: an option with no label of its own or no help, a setting it takes from a
    list with no label of its own."""
    problems = []
    for name, field in options.model_fields.items():
        wording = words.options.get(name)
        if wording is None or not wording.help or only_the_id(wording.label, name):
            problems.append(f"option {name} has no words of its own")
        for setting in _settings(field.annotation):
            label = words.values.get(name, {}).get(setting)
            if label is None or only_the_id(label, setting):
                problems.append(f"option {name} = {setting!r} has no words of its own")
    return problems


def _settings(annotation: Any) -> list[str]:
    """The settings an option takes from a list (its Literal's, also inside `| None`)."""
    if get_origin(annotation) is Literal:
        return [str(value) for value in get_args(annotation)]
    return [setting for arg in get_args(annotation) for setting in _settings(arg)]


def refused_words(words: Words) -> None:
    """Refuse words that would put code on a page: a label or help that holds an id's
    separators in a word (`draw-weapon`, `take_lowest`) or JSON."""
    for where, text in _texts(words):
        if re.search(r"\b\w+_\w+\b|[{}]|`", text):
            raise DataError(f"the words for {where} read like code: {text!r}")


def _texts(words: Words) -> Iterator[tuple[str, str]]:
    for table in (words.kinds, words.fields, words.options):
        for key, wording in table.items():
            yield key, wording.label
            yield key, wording.help
    for key, named in words.values.items():
        for value, label in named.items():
            yield f"{key} = {value}", label
    for key, text in words.events.items():
        yield key, text
