"""Small builders shared by the Dead Weight tests."""

from __future__ import annotations

from tabletop.systems.dead_weight import Attribute, Attributes, AttributeState, Character


def character(
    attribute: Attribute = Attribute.STR,
    score: int = 1,
    proficiency: int = 0,
    fatigue: int = 0,
    wounds: int = 0,
    **fields: object,
) -> Character:
    """A sheet with one attribute set as given (the others at their starting 1/0)."""
    state = AttributeState(score=score, proficiency=proficiency, fatigue=fatigue, wounds=wounds)
    return Character.model_validate(
        {"attributes": Attributes().with_(attribute, state).model_dump(), **fields}
    )
