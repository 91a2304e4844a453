"""The four attributes and one attribute's state: score, proficiency, fatigue and wounds."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field, model_validator

from tabletop.systems.dead_weight.errors import DeadWeightError


class Attribute(StrEnum):
    """Strength, dexterity, intelligence and presence, by their sheet abbreviations."""

    STR = "STR"
    DEX = "DEX"
    INT = "INT"
    PRE = "PRE"

    @classmethod
    def named(cls, text: str) -> Attribute:
        """Read an attribute from its abbreviation or full name, in any case."""
        cleaned = text.strip().upper()
        for attribute in cls:
            if cleaned in (attribute.value, _FULL_NAMES[attribute].upper()):
                return attribute
        choices = ", ".join(attribute.value for attribute in cls)
        raise DeadWeightError(f"no attribute named {text!r}; choose one of {choices}")

    @property
    def full_name(self) -> str:
        return _FULL_NAMES[self]


_FULL_NAMES = {
    Attribute.STR: "Strength",
    Attribute.DEX: "Dexterity",
    Attribute.INT: "Intelligence",
    Attribute.PRE: "Presence",
}


class AttributeState(BaseModel):
    """One attribute on the sheet.

    Fatigue and wounds each take one available die; together they never exceed the score
    (DW-A14), so the available dice are never below zero (DW-A13)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    score: int = Field(default=1, ge=0)
    proficiency: int = Field(default=0, ge=0)
    fatigue: int = Field(default=0, ge=0)
    wounds: int = Field(default=0, ge=0)

    @model_validator(mode="after")
    def _fatigue_and_wounds_fit_the_score(self) -> AttributeState:
        if self.fatigue + self.wounds > self.score:
            raise ValueError(
                f"fatigue {self.fatigue} and wounds {self.wounds} together exceed the score "
                f"{self.score}"
            )
        return self

    @property
    def available(self) -> int:
        """Dice this attribute can roll: score less fatigue and wounds."""
        return self.score - self.fatigue - self.wounds

    @property
    def full_of_wounds(self) -> bool:
        """No further wound fits here (wounds already equal the score)."""
        return self.wounds >= self.score

    def __str__(self) -> str:
        return f"{self.score}/{self.proficiency} F{self.fatigue} W{self.wounds}"
