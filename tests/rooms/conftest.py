"""Rooms on a fresh SQLite store for each test."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from tabletop.rooms import Hall, SqliteStore
from tabletop.session import Member


@dataclass
class Seated:
    """A room with a GM and two players, Ada and Bo, and an observer."""

    hall: Hall
    room: str
    tokens: dict[str, str]
    """Each member's own token by name, and the invites by role."""

    def member(self, name: str) -> Member:
        return self.hall.who(self.room, self.tokens[name])


@pytest.fixture
def hall(tmp_path):
    store = SqliteStore(tmp_path / "rooms.sqlite3")
    yield Hall(store)
    store.close()


def seat(hall: Hall, system: str) -> Seated:
    made = hall.create(system, "the crypt")
    room, tokens = made.extra["room"], dict(made.extra["tokens"])
    tokens["GM"] = tokens["gm"]
    for name, invite in (("Ada", "player"), ("Bo", "player"), ("Watcher", "observer")):
        tokens[name] = hall.join(room, tokens[invite], name).extra["token"]
    return Seated(hall, room, tokens)


@pytest.fixture
def dice_room(hall) -> Seated:
    return seat(hall, "dice")


@pytest.fixture
def dead_weight_room(hall) -> Seated:
    return seat(hall, "dead-weight")
