"""Initiations (articles 7–10): the precedents as data, and the situations their effects need.

The catalogue is `data/initiations.toml`, validated on first use. A table may add its own
initiations (the lists are open, § 4.4) by giving the character an id that starts with
`custom:`; such an initiation counts against the level limit and has no computed effect.
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from typing import Literal

from pydantic import ConfigDict, Field, model_validator

from tabletop.systems.constitution.models import Model, build

CharacterClass = Literal["fighter", "sage", "adventurer"]

Situation = Literal[
    "initiative",
    "attack",
    "defence",
    "injury_save",
    "whole_body",
    "search",
    "people_and_places",
    "berserk_melee",
    "lighter_weapon",
    "ranged_unhindered",
    "two_handed",
    "spear",
    "spear_longer_reach",
    "longsword",
    "longsword_longer_reach",
    "longer_reach",
    "bow_first",
    "blessed",
]
"""What a check, an attack or an AC is about: the words initiations and classes key on."""

COMBAT_SITUATIONS: frozenset[str] = frozenset({"initiative", "attack", "defence", "injury_save"})
"""The combat-related checks that carry the fighter's level (§ 7.1)."""

CUSTOM_PREFIX = "custom:"

EffectKind = Literal[
    "check_bonus",
    "armour_bonus",
    "hit_die",
    "keep_hit_points",
    "damage_die",
    "damage_advantage",
    "extra_action_cost",
    "capability",
]


class Effect(Model):
    """One mechanical effect of an initiation; which fields matter depends on `kind`."""

    kind: EffectKind
    when: Situation | None = None
    amount: int | Literal["level"] | None = None
    sides: int | None = Field(default=None, ge=2, le=100)
    dice: int | None = Field(default=None, ge=1, le=10)
    cost: int | None = Field(default=None, ge=1, le=20)
    name: str | None = None
    school: str | None = None

    @model_validator(mode="after")
    def _fields_for_kind(self) -> Effect:
        needed = {
            "check_bonus": ("when", "amount"),
            "armour_bonus": ("when", "amount"),
            "hit_die": ("sides",),
            "damage_die": ("when", "sides"),
            "damage_advantage": ("when", "dice"),
            "extra_action_cost": ("when", "cost"),
            "capability": ("name",),
        }.get(self.kind, ())
        missing = [field for field in needed if getattr(self, field) is None]
        if missing:
            raise ValueError(f"a {self.kind} effect needs {', '.join(missing)}")
        return self

    def bonus(self, level: int) -> int:
        """The effect's amount, with "level" read as the character's level."""
        return level if self.amount == "level" else int(self.amount or 0)


class Initiation(Model):
    """A special ability (§ 4.4): its id, name, exclusive class, article and effects."""

    # The data file spells the class `class`; a JSON dump spells it by name: both load back.
    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    id: str = Field(pattern=r"^[a-z_]+$")
    name: str
    character_class: CharacterClass | None = Field(default=None, alias="class")
    article: str
    effects: tuple[Effect, ...] = ()
    referee: str | None = None
    """What the article leaves to the referee's judgement."""


class _Catalogue(Model):
    initiation: tuple[Initiation, ...]


@cache
def catalogue() -> dict[str, Initiation]:
    """Every precedent initiation by id, loaded and validated once."""
    text = resources.files(__package__).joinpath("data/initiations.toml").read_text("utf-8")
    loaded = build(_Catalogue, tomllib.loads(text))
    return {item.id: item for item in loaded.initiation}


def find(initiation_id: str) -> Initiation | None:
    """The catalogue entry for an id; None for a table's own `custom:` initiation."""
    if initiation_id.startswith(CUSTOM_PREFIX):
        return None
    try:
        return catalogue()[initiation_id]
    except KeyError:
        known = ", ".join(sorted(catalogue()))
        raise ValueError(
            f"unknown initiation {initiation_id!r}; known: {known} "
            f"(or name your own as '{CUSTOM_PREFIX}<name>')"
        ) from None
