"""Rules kept for reading: a room or an export made under an earlier version of a system's
rules is re-read, and a live room made then goes on, under the code that wrote it.

Each release whose rules a later change replaces is kept whole as `rules-<commit>.zip`
beside this file (keep.py made it): its systems and what they stand on, as a package of
their own. `session_at` gives the session of a system at a version, today's or a kept
one; a kept one speaks today's protocol through `Reading`, which carries members, intents,
events and errors across as their JSON (docs/rooms.md, "Rooms made before").
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

from pydantic import BaseModel

from tabletop import errors
from tabletop.dice import Draw
from tabletop.errors import DataError, TabletopError
from tabletop.offers import Offer
from tabletop.rooms.errors import SystemUnavailable
from tabletop.session import Cause, Decision, DrawnRefusal, Event, Member, Session
from tabletop.systems.registry import system
from tabletop.words import Words

KEPT: dict[tuple[str, int], str] = {
    ("dice", 1): "a48a6db",
    ("dead-weight", 1): "a48a6db",
    ("ap2d6", 1): "a48a6db",
    ("ap2d6", 2): "d95ff36",
    ("constitution", 1): "a48a6db",
    ("rollunder", 1): "a48a6db",
    ("constitution", 2): "d95ff36",
    ("rollunder", 2): "d95ff36",
    ("dead-weight", 2): "d95ff36",
    ("deadweight-board", 1): "7495a47",
    ("dead-weight", 3): "7495a47",
    ("ap2d6", 3): "7495a47",
    ("rollunder", 3): "7495a47",
    ("dead-weight", 4): "208927c",
    ("rollunder", 4): "208927c",
    ("constitution", 3): "208927c",
    ("ap2d6", 4): "208927c",
    ("rollunder", 5): "6b988da",
    ("dead-weight", 5): "6b988da",
    ("deadweight-board", 2): "6b988da",
    ("constitution", 4): "6b988da",
    ("ap2d6", 5): "6b988da",
}
"""Each (system, rules version) no longer today's, and the release whose rules it was."""

PACKAGES = {
    "dice": "systems.plain_dice",
    "dead-weight": "systems.dead_weight",
    "ap2d6": "systems.ap2d6",
    "constitution": "systems.constitution",
    "rollunder": "systems.rollunder",
    "deadweight-board": "games.deadweight_board",
}
"""Where each system's session lies in a kept release."""


def session_at(name: str, version: int) -> Session[Any]:
    """System `name`'s session under rules `version`: today's, or a kept release's; a
    version this installation never had is refused in one line."""
    today = load_session(name)
    if version == today.version:
        return today
    if (name, version) not in KEPT:  # refused, not half-checked
        raise DataError(
            f"this log was written under version {version} of {name}'s rules; this "
            f"installation has version {today.version} and keeps no other"
        )
    return _reading(name, version)


def load_session(name: str) -> Session[Any]:
    """Today's session of system `name`, or a one-line error when this installation cannot
    play it in a room (unknown, or its session does not load)."""
    try:
        return system(name).session
    except TabletopError as problem:
        raise SystemUnavailable(str(problem)) from None
    except (ImportError, AttributeError) as problem:
        raise SystemUnavailable(
            f"{name} cannot be played in a room yet: its session does not load ({problem})"
        ) from None


def _kept_on_path() -> None:
    """Each kept release importable by its own package name, in every process that reads
    rooms: a pool worker unpickles a kept code's state by that name."""
    for release in sorted(set(KEPT.values())):
        archive = str(Path(__file__).with_name(f"rules-{release}.zip"))
        if archive not in sys.path:
            sys.path.append(archive)


_kept_on_path()


@cache
def _reading(name: str, version: int) -> Reading:
    package = f"tabletop_rules_{KEPT[(name, version)]}"
    module = importlib.import_module(f"{package}.{PACKAGES[name]}.session")
    kept = importlib.import_module(f"{package}.session")
    kept_errors = importlib.import_module(f"{package}.errors")
    return Reading(module.SESSION, kept, kept_errors)


def _json(value: BaseModel) -> dict[str, Any]:
    return value.model_dump(mode="json")


class Reading(Session[Any]):
    """A kept release's session behind today's protocol: what goes in is made the kept
    code's own models from its JSON, and what comes out today's, so the room around it
    never meets a class of another release. Its state stays the kept code's own."""

    def __init__(self, kept: Any, protocol: ModuleType, kept_errors: ModuleType) -> None:
        self._kept = kept
        self._protocol = protocol
        self._errors = kept_errors
        self.name = kept.name
        self.version = kept.version
        self.state = kept.state
        self.thinks = kept.thinks
        self.explained = kept.explained

    # today's models into the kept code's, and back ---------------------------------------

    def _member(self, member: Member) -> Any:
        return self._protocol.Member.model_validate(_json(member))

    def _event(self, event: Event) -> Any:
        return self._protocol.Event.model_validate(_json(event))

    @staticmethod
    def _told(event: BaseModel) -> Event:
        return Event.model_validate(_json(event))

    def _call(self, rule: Any, *arguments: Any) -> Any:
        """`rule(*arguments)`, its errors made today's of the same name and message."""
        try:
            return rule(*arguments)
        except self._protocol.DrawnRefusal as refused:
            problem = self._error(refused.problem)
            raise DrawnRefusal(problem, self._told(refused.event)) from None
        except self._errors.TabletopError as problem:
            raise self._error(problem) from None

    def _error(self, problem: Exception) -> TabletopError:
        for kind in type(problem).__mro__:
            today = getattr(errors, kind.__name__, None)
            if isinstance(today, type) and issubclass(today, TabletopError):
                return today(str(problem))
        return TabletopError(str(problem))

    # the protocol -------------------------------------------------------------------------

    def new(self, options: Mapping[str, Any] | None = None) -> Any:
        return self._call(self._kept.new, options)

    def legal(self, state: Any, member: Member) -> list[Offer]:
        offers = self._call(self._kept.legal, state, self._member(member))
        return [Offer.model_validate(_json(o)) for o in offers]

    def resolve(
        self,
        state: Any,
        intent: BaseModel | Mapping[str, Any],
        member: Member,
        dice: Any,
        decision: Decision | None = None,
    ) -> list[Event]:
        asked = _json(intent) if isinstance(intent, BaseModel) else dict(intent)
        kept_decision = None
        if decision is not None:
            draws = tuple(self._protocol.Draw.model_validate(_json(d)) for d in decision.draws)
            kept_decision = self._protocol.Decision(decision.intent, draws)
        events = self._call(
            self._kept.resolve, state, asked, self._member(member), dice, kept_decision
        )
        return [self._told(e) for e in events]

    def resolve_again(self, state: Any, cause: Cause) -> list[Event]:
        kept = self._protocol.Cause.model_validate(_json(cause))
        return [self._told(e) for e in self._call(self._kept.resolve_again, state, kept)]

    def think(self, state: Any, intent: Any, member: Member, dice: Any) -> Decision:
        asked = _json(intent) if isinstance(intent, BaseModel) else dict(intent)
        made = self._call(self._kept.think, state, asked, self._member(member), dice)
        return Decision(made.intent, tuple(Draw.model_validate(_json(d)) for d in made.draws))

    def fold(self, state: Any, event: Event) -> Any:
        return self._call(self._kept.fold, state, self._event(event))

    def table_move(self, state: Any) -> dict[str, Any] | None:
        return self._call(self._kept.table_move, state)

    def view(self, state: Any, member: Member) -> dict[str, Any]:
        return self._call(self._kept.view, state, self._member(member))

    def view_event(self, event: Event, member: Member) -> Event | None:
        shown = self._call(self._kept.view_event, self._event(event), self._member(member))
        return None if shown is None else self._told(shown)

    def intent_schema(self) -> dict[str, Any]:
        return self._kept.intent_schema()

    @property
    def words(self) -> Words:
        """Today's words for the system: a kept release's ids are named as today's are."""
        return load_session(self.name).words

    def parse_intent(self, intent: BaseModel | Mapping[str, Any]) -> Any:
        asked = _json(intent) if isinstance(intent, BaseModel) else dict(intent)
        return self._call(self._kept.parse_intent, asked)

    def load(self, data: Mapping[str, Any] | str) -> Any:
        return self._call(self._kept.load, data)
