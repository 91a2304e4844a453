"""Helpers for the Constitution tests: a character with chosen scores, fixed dice."""

from __future__ import annotations

import pytest

from tabletop.systems.constitution import Abilities, Character


def make_character(
    *,
    strength: int = 10,
    wits: int = 10,
    knowledge: int = 10,
    will: int = 10,
    charisma: int = 10,
    **fields: object,
) -> Character:
    """A character with the given scores and sheet fields (level 1, no class by default)."""
    abilities = Abilities(
        strength=strength, wits=wits, knowledge=knowledge, will=will, charisma=charisma
    )
    return Character(name=str(fields.pop("name", "Tester")), abilities=abilities, **fields)


@pytest.fixture
def character() -> Character:
    return make_character()
