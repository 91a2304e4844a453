"""Trackers at a Dead Weight table (§ Trackers): the GM starts, advances, shows and hides
them; doom and omens start hidden, and a hidden one's moves reach only the GM and whoever
may see it."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from tabletop.offers import Choice, Offer, offer
from tabletop.session import MAX_NAME, Event, Frozen, Member, Visibility, hidden, note
from tabletop.systems.dead_weight.errors import DeadWeightError
from tabletop.systems.dead_weight.table import DeadWeightTable
from tabletop.systems.dead_weight.table_npcs import told_of
from tabletop.systems.dead_weight.trackers import (
    MAX_SEGMENTS,
    Tracker,
    TrackerKind,
    advance,
    advance_doom,
    can_see,
)

HIDDEN_AT_FIRST = (TrackerKind.DOOM, TrackerKind.OMENS)
"""Trackers the players do not see unless the GM shows them (DW-X21)."""

MAX_TRACKERS = 50


class NewTracker(Frozen):
    kind: Literal["new-tracker"] = "new-tracker"
    name: str = Field(min_length=1, max_length=MAX_NAME)
    tracker_kind: TrackerKind = TrackerKind.CUSTOM
    segments: int = Field(ge=1, le=MAX_SEGMENTS)
    visible: bool | None = None
    """Whether the players see it; by default all but doom and omens (DW-X21)."""


class AdvanceTracker(Frozen):
    """Fill segments (empty them with a negative number); doom counts the Doomed (DW-A34)."""

    kind: Literal["advance-tracker"] = "advance-tracker"
    name: str = Field(min_length=1, max_length=MAX_NAME)
    points: int = Field(default=1, ge=-MAX_SEGMENTS, le=MAX_SEGMENTS)


class ShowTracker(Frozen):
    """Show a tracker to the players, or hide it from them."""

    kind: Literal["show-tracker"] = "show-tracker"
    name: str = Field(min_length=1, max_length=MAX_NAME)
    visible: bool


def tracker_offers(state: DeadWeightTable) -> list[Offer]:
    """The GM's: start a tracker while there is room, advance, show or hide one."""
    found = []
    if len(state.trackers) < MAX_TRACKERS:
        found.append(
            offer(
                "new-tracker",
                "start a tracker",
                name=Choice(help="its name", example="the tide"),
                tracker_kind=Choice(values=tuple(TrackerKind)),
                segments=Choice(help="segments", example=6),
            )
        )
    names = tuple(state.trackers)
    if names:
        found += [
            offer("advance-tracker", "advance a tracker", name=Choice(values=names)),
            offer(
                "show-tracker",
                "show a tracker to the players, or hide it",
                name=Choice(values=names),
                visible=Choice(values=(True, False)),
            ),
        ]
    return found


def tracker_step(
    state: DeadWeightTable, intent: NewTracker | AdvanceTracker | ShowTracker
) -> tuple[DeadWeightTable, list[Event]]:
    """A tracker started, advanced, shown or hidden."""
    if isinstance(intent, NewTracker):
        if intent.name in state.trackers:
            raise DeadWeightError(f"there is already a tracker called {intent.name!r}")
        visible = (
            intent.tracker_kind not in HIDDEN_AT_FIRST if intent.visible is None else intent.visible
        )
        tracker = Tracker(
            name=intent.name,
            kind=intent.tracker_kind,
            segments=intent.segments,
            visible=visible,
        )
        events = [
            note(
                "new tracker",
                f"a tracker: {intent.name}, {intent.segments} segments",
                tracker=tracker.model_dump(mode="json"),
            )
        ]
    else:
        tracker = state.trackers[intent.name]
        if isinstance(intent, ShowTracker):
            tracker = tracker.model_copy(update={"visible": intent.visible})
            shown = "shows" if intent.visible else "hides"
            events = [
                note(
                    "tracker shown",
                    f"the GM {shown} {tracker.name}",
                    tracker=tracker.model_dump(mode="json"),
                )
            ]
        elif tracker.kind == TrackerKind.DOOM:
            adventurers = [seat.sheet for seat in state.characters.values()]
            tracker, raw = advance_doom(tracker, intent.points, adventurers, state.options)
            events = told_of(raw)
        else:
            tracker, raw = advance(tracker, intent.points)
            events = told_of(raw)
    trackers = {**state.trackers, tracker.name: tracker}
    if isinstance(intent, ShowTracker) and intent.visible:
        return state.model_copy(update={"trackers": trackers}), events
    return state.model_copy(update={"trackers": trackers}), _kept(state, tracker, events)


def _kept(state: DeadWeightTable, tracker: Tracker, events: list[Event]) -> list[Event]:
    """A hidden tracker's events: the GM sees them (and, for omens, whoever plays a
    character with the Third eye); the others only hear that a hidden tracker moved."""
    if tracker.visible:
        return events
    seers = tuple(
        sorted({seat.owner for seat in state.characters.values() if can_see(tracker, seat.sheet)})
    )
    return [
        e.model_copy(
            update={
                "visibility": Visibility.HIDDEN,
                "audience": seers,
                "hint": "the GM moved a hidden tracker",
            }
        )
        for e in events
    ]


def _sees(state: DeadWeightTable, tracker: Tracker, member: Member) -> bool:
    if member.is_gm or tracker.visible:
        return True
    return any(
        seat.owner == member.id and can_see(tracker, seat.sheet)
        for seat in state.characters.values()
    )


def trackers_view(state: DeadWeightTable, member: Member) -> list[dict[str, Any]]:
    """Each tracker as `member` sees it: whole, or only that the GM keeps one hidden."""
    return [
        tracker.model_dump(mode="json")
        if _sees(state, tracker, member)
        else hidden("a tracker the GM keeps hidden")
        for tracker in state.trackers.values()
    ]
