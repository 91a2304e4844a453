"""Playing a session in a test: resolve an intent on fixed faces and fold its events."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from tabletop.dice import FixedDice
from tabletop.session import Event, Member, Session


def played(
    session: Session[Any], state: BaseModel, intent: dict[str, Any], member: Member, faces=()
) -> tuple[Any, list[Event]]:
    """The state after `member` asks for `intent` with these faces, and its events."""
    events = session.resolve(state, intent, member, FixedDice(faces))
    for event in events:
        state = session.fold(state, event)
    return state, events
