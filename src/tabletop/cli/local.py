"""A room of one: the command line plays a system's session like any other client, as the
GM of its own table, so the rules have one path from every client."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from pydantic import BaseModel

from tabletop.dice import DiceSource
from tabletop.session import Event, Member, Session

YOU = Member.gm("you", "you")
"""The person at the keyboard: the GM of a table of one, who may act for everyone."""

State = TypeVar("State", bound=BaseModel)


def play(
    session: Session[State],
    state: State,
    intent: BaseModel | Mapping[str, Any],
    dice: DiceSource,
    member: Member = YOU,
) -> tuple[State, list[Event]]:
    """Resolve one intent and fold its events: the new state and what happened."""
    events = session.resolve(state, intent, member, dice)
    for event in events:
        state = session.fold(state, event)
    return state, events
