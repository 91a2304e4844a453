"""What every table's lines are held to (issue 30, item 2), over walks of its session: no
line holds code (an id, a snake_case or kebab-case name, a Python value or JSON), and each
line names whom it is about. Dice notation such as `{2d20}kh1` or (1n1) and a die list such
as `[4, 1]` are words. A system's test gives its walks, how a line reads to the GM, a player
and an observer, and who a step's lines may be about; and it reaches every kind of line its
rules write (`written_kinds`), so that a new kind is read by the lint as soon as it exists."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Collection, Iterable
from importlib import resources
from typing import Any

from pydantic import BaseModel

from tabletop.dice import FixedDice, SeededDice
from tabletop.errors import TabletopError
from tabletop.offers import Offer
from tabletop.session import Event, Member, Session
from tests.session_laws import Step, Walk

LISTS = frozenset(
    {"keep-background", "keep-spells", "keep-god", "load-lists", "drop-listed"}
    | {"keep-skill", "keep-armour", "wear-armour", "keep-spell", "learn-spell"}
    | {"research-at-random"}
    | {"choose-names", "reroll-dice"}
)
"""The kinds that keep the GM's lists and pick from them (issue 30 item 3; guided creation's
names and re-rolls too, which ask what `creation-choice` asks): the walks leave them out, so
their paths through play stay as they were; tests/systems/*/test_lists.py reach their
lines."""


def off_the_lists(items: Iterable[Any]) -> list[Any]:
    """A walk's options without the GM's list-keeping offers (`LISTS`)."""
    items = list(items)
    if items and isinstance(items[0], tuple) and isinstance(items[0][1], Offer):
        return [item for item in items if item[1].kind not in LISTS]
    return items


CODE = re.compile(
    r"\b[cnm]\d+\b"  # a character's, an NPC's or a member's id
    r"|\b[A-Za-z]+_\w+\b"  # snake_case
    r"|\b[a-z]+-[a-z]+(?:-[a-z]+)*\b"  # kebab-case
    r"|[{\[]\s*['\"{]"  # a dict's or a list's repr, JSON
    r"|['\"]\s*:\s"  # a key of one
    r"|\b(?:None|True|False|null|true|false)\b"
    r"|(?:^|[\s(:=,])'[^'\s][^']*'(?=$|[\s),.:;])"  # a quoted Python string
    r"|\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{8,}\b"  # a room's id, a hash
    r"|\w\(s\)"  # a plural left to the reader: `wound(s)`
)
"""What a line must not hold: code, not words."""

ENGINE = re.compile(r"!p:\d|\((?:no risk|happens)\) =")
"""The dice engine's own marks, which a system's lines say in words (`tabletop.words.said`):
`1d6!p:100 → [6!+(3-1)] = 8` reads `1d6, exploding: 6, then 3 (+2) = 8`, and `3d! → [4, 2,
4] (no risk) = 0` reads `3d!: 4, 2 and 4, no 1`."""

Read = Callable[[Event], list[str]]
"""A line as the members who read it see it (its text and its hint)."""


def code_in(text: str, words: Collection[str] = ()) -> list[str]:
    """The code in `text`, but for the hyphenated `words` of the book and of English."""
    return [f.group(0) for f in CODE.finditer(text) if f.group(0).lower() not in words]


def lines_with_code(
    walks: Iterable[Walk], read: Read, words: Collection[str] = ()
) -> set[tuple[str, str]]:
    """Each (event type, line) of the walks that holds code."""
    return {
        (event.type, text)
        for walk in walks
        for event in walk.events
        for text in read(event)
        if code_in(text, words)
    }


def engine_lines(walks: Iterable[Walk], read: Read, engine: re.Pattern[str] = ENGINE) -> set:
    """Each (event type, line) of the walks that shows the dice engine's own marks, but for
    the dice box's (`roll`), which reads as its member typed it."""
    return {
        (event.type, text)
        for walk in walks
        for event in walk.events
        for text in read(event)
        if event.type != "roll" and engine.search(text)
    }


def nameless_lines(
    walks: Iterable[Walk],
    read: Read,
    about: Callable[[BaseModel, Step], set[str]],
    impersonal: Collection[str] = (),
) -> set[tuple[str, str]]:
    """Each (event type, line) of the walks that names none of those its step may be about
    (`about(state before, step)`), but for the `impersonal` types (the whole fight's)."""
    nameless = set()
    for walk in walks:
        before = walk.start
        for step in walk.steps:
            names = about(before, step)
            for event in step.events:
                if event.type in impersonal:
                    continue
                nameless |= {
                    (event.type, text)
                    for text in read(event)
                    if not any(name in text for name in names)
                }
            before = step.state
    return nameless


def offers_with_code(
    walks: Iterable[Walk],
    offers: Callable[[BaseModel, Member], list[Offer]],
    members: Iterable[Member],
    words: Collection[str] = (),
) -> set[str]:
    """What a page builds its buttons and forms from that holds code: each offer's text and
    each field's help, to each of `members`, at every fifth step of the walks."""
    found = set()
    for walk in walks:
        for step in walk.steps[::5]:
            for member in members:
                for offer in offers(step.state, member):
                    helps = [choice.help for choice in offer.fields.values()]
                    found |= {text for text in (offer.text, *helps) if code_in(text, words)}
    return found


def read_as(session: Session, members: Iterable[Member]) -> Callable[[Event], list[str]]:
    """A line as each of `members` reads it (text and hint): the GM's whole, a player's;
    and as an observer does, who may see less than any player."""
    readers = (*members, Member.observer())

    def read(event: Event) -> list[str]:
        shown = [session.view_event(event, member) for member in readers]
        return [t for e in shown if e is not None for t in (e.text, e.hint) if t]

    return read


MAKERS = frozenset({"note", "event", "Event", "told", "about", "_note", "_told"})
"""The calls that make an event, its kind the first argument (`about`'s and the board
engine's `record`'s the second) or a
`kind=`/`type=` keyword: `note("round", …)`, `event("wound", …)`, `Event(kind="xp", …)`,
`Event.told("attack", …)`, `Event.about(name, "healed", …)`."""


def written_kinds(package: str, makers: Collection[str] = MAKERS) -> set[str]:
    """Every kind of event the code of `package` writes by name (through `makers`): a new
    kind the rules write is found here, so a test that every one is reached fails until it
    is, and the lint then reads its line."""
    kinds: set[str] = set()
    for path in _sources(resources.files(package)):
        for call in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(call, ast.Call) and _maker(call.func) in makers:
                named = (
                    call.args[1:2] if _maker(call.func) in ("about", "record") else call.args[:1]
                )
                named += [k.value for k in call.keywords if k.arg in ("kind", "type")]
                kinds |= {n.value for n in named if isinstance(n, ast.Constant) and n.value}
    return kinds


def callers(package: str, functions: Collection[str]) -> set[str]:
    """The modules of `package` that call any of `functions` by name: none, and no intent
    of its table can write the lines only those functions write."""
    return {
        path.name
        for path in _sources(resources.files(package))
        for call in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(call, ast.Call) and _maker(call.func) in functions
    }


def _sources(folder: Any) -> Iterable[Any]:
    for item in folder.iterdir():
        if item.is_dir():
            yield from _sources(item)
        elif item.name.endswith(".py"):
            yield item


def _maker(function: ast.expr) -> str | None:
    if isinstance(function, ast.Name):
        return function.id
    return function.attr if isinstance(function, ast.Attribute) else None


def unreached(kinds: Collection[str], walks: Iterable[Walk]) -> set[str]:
    """The `kinds` no event of the walks is of."""
    return set(kinds) - {event.type for walk in walks for event in walk.events}


def scene(session: Session, start: BaseModel, steps: Iterable[tuple], seed: int = 0) -> Walk:
    """A scene (a walk where the walks rarely go): each (member, intent) of `steps` in turn
    on seeded dice, or (member, intent, faces) on exactly those faces; a step the rules
    refuse on these dice is left out."""
    walk = Walk(start=start)
    state = start
    for number, (member, intent, *faces) in enumerate(steps):
        dice = FixedDice(faces[0]) if faces else SeededDice(seed + number)
        try:
            events = session.resolve(state, intent, member, dice)
        except TabletopError:
            continue
        for event in events:
            state = session.fold(state, event)
        walk.steps.append(Step(member, intent, events, state, seed + number))
    return walk
