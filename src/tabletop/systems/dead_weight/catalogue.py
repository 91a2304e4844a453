"""The named things of the sheet: skills, special traits, traumas, afflictions and quirk rules.

Names are code (the rules dispatch on them); their descriptions, in this project's own
words, live in data/catalogue.toml and are checked against these names when loaded.
"""

from __future__ import annotations

import re
from enum import StrEnum
from functools import cache
from typing import Self

from tabletop.data import shipped_data
from tabletop.systems.dead_weight.errors import DataError, DeadWeightError


class NamedEnum(StrEnum):
    """Names the rules dispatch on, read back from any spelling (case, spaces: DW-A31)."""

    @classmethod
    def named(cls, text: str) -> Self:
        key = _squash(text)
        for member in cls:
            if _squash(member.value) == key:
                return member
        what = re.sub(r"(?<!^)(?=[A-Z])", " ", cls.__name__).lower()
        raise DeadWeightError(f"no {what} named {text!r}")


class Skill(NamedEnum):
    """The 26 skills: 21 basic and 5 advanced (DW-M51)."""

    ANIMAL_AFFINITY = "animal affinity"
    BEASTMASTER = "beastmaster"
    WARD_THE_DEAD = "ward the dead"
    COOKING = "cooking"
    MASTER_CHEF = "master chef"
    CRAFTING = "crafting"
    DUELIST = "duelist"
    SWASHBUCKLER = "swashbuckler"
    FEARLESS = "fearless"
    HAGGLE = "haggle"
    TRADE_NETWORK = "trade network"
    HOLY_RITES = "holy rites"
    INFILTRATION = "infiltration"
    INTIMIDATE = "intimidate"
    LOREMASTER = "loremaster"
    PILFER = "pilfer"
    OCCULT_STUDIES = "occult studies"
    RITUALIST = "ritualist"
    SHIELD_EXPERT = "shield expert"
    SHIELD_MASTER = "shield master"
    STALKER = "stalker"
    STREET_WISE = "street wise"
    SURGEON = "surgeon"
    SURVIVALIST = "survivalist"
    SLIPPERY = "slippery"
    VETERAN = "veteran"

    @property
    def basic(self) -> Skill | None:
        """The basic skill this advanced skill upgrades, or None for a basic skill."""
        return _ADVANCED_OF.get(self)

    @property
    def advanced(self) -> Skill | None:
        """The advanced skill this basic skill upgrades to, if any."""
        return _UPGRADE.get(self)


_UPGRADE = {
    Skill.ANIMAL_AFFINITY: Skill.BEASTMASTER,
    Skill.COOKING: Skill.MASTER_CHEF,
    Skill.DUELIST: Skill.SWASHBUCKLER,
    Skill.HAGGLE: Skill.TRADE_NETWORK,
    Skill.SHIELD_EXPERT: Skill.SHIELD_MASTER,
}
_ADVANCED_OF = {advanced: basic for basic, advanced in _UPGRADE.items()}


def _squash(text: str) -> str:
    return re.sub(r"[^a-z]", "", text.lower())


class Trait(NamedEnum):
    """The ten special traits (DW-M52)."""

    BERSERKER = "berserker"
    BAD_OMENS = "bad omens"
    BATTLE_TRANCE = "battle trance"
    COLD_BLOOD = "cold blood"
    DIVINE_MANDATE = "divine mandate"
    HARDENED = "hardened"
    MAGIC_USER = "magic user"
    REJECTED_BY_DEATH = "rejected by death"
    DAUNTLESS = "dauntless"
    THIRD_EYE = "third eye"


class Trauma(NamedEnum):
    """The seven traumas (DW-M53); holding one twice changes nothing."""

    BROKEN_ARM = "broken arm"
    BROKEN_LEG = "broken leg"
    CHRONIC_PAIN = "chronic pain"
    BRAIN_DAMAGE = "brain damage"
    PARANOID = "paranoid"
    FEARFUL = "fearful"
    VISIONS = "visions"


class Affliction(NamedEnum):
    """The twelve afflictions (DW-M54); gaining one already held changes nothing."""

    HUNGRY = "hungry"
    PARCHED = "parched"
    BLEEDING = "bleeding"
    SLEEPY = "sleepy"
    ANGRY = "angry"
    SHAKEN = "shaken"
    NAUSEATED = "nauseated"
    TERRIFIED = "terrified"
    HOPELESS = "hopeless"
    CURSED = "cursed"
    PLAGUED = "plagued"
    DOOMED = "doomed"


class QuirkRule(NamedEnum):
    """The quirks (features table) that change a rule; the others are for role-play."""

    LOUD_SNORE = "loud snore"
    IRRITABLE = "irritable"
    COFFEE_ADDICT = "coffee addict"
    FACIAL_SCAR = "facial scar"
    EXTREMELY_PATIENT = "extremely patient"
    DEEP_AND_MURKY_PAST = "deep and murky past"


class Situation(StrEnum):
    """What a test is about, when a skill or quirk gives advantage or proficiency for it."""

    WILD_ANIMALS = "wild animals"
    """Taming, understanding or tracking wild animals (Animal Affinity, Beastmaster)."""
    FIGHTING_ANIMALS = "fighting animals"
    """Fighting animals (Beastmaster)."""
    CRAFTING = "crafting"
    SNEAKING = "sneaking"
    INTIMIDATING = "intimidating"
    WILDERNESS_SURVIVAL = "wilderness survival"


SITUATION_ADVANTAGE: dict[Situation, tuple[Skill | QuirkRule, ...]] = {
    Situation.WILD_ANIMALS: (Skill.ANIMAL_AFFINITY, Skill.BEASTMASTER),
    Situation.FIGHTING_ANIMALS: (Skill.BEASTMASTER,),
    Situation.CRAFTING: (Skill.CRAFTING,),
    Situation.SNEAKING: (Skill.INFILTRATION,),
    Situation.INTIMIDATING: (QuirkRule.FACIAL_SCAR,),
}
"""Who gets one advantage on a test about each situation (DW-M51, quirk 21)."""

SITUATION_PROFICIENCY: dict[Situation, tuple[Skill, ...]] = {
    Situation.WILDERNESS_SURVIVAL: (Skill.SURVIVALIST,),
}
"""Who gets one extra proficiency point on a test about each situation (Survivalist)."""


@cache
def descriptions() -> dict[str, dict[str, str]]:
    """Each named thing's description in this project's words, by kind and name."""
    data = shipped_data(__package__, "catalogue.toml")
    kinds: dict[str, type[StrEnum]] = {
        "skills": Skill,
        "traits": Trait,
        "traumas": Trauma,
        "afflictions": Affliction,
        "quirk_rules": QuirkRule,
    }
    for kind, names in kinds.items():
        given = set(data.get(kind, {}))
        expected = {member.value for member in names}
        if given != expected:
            raise DataError(
                f"data/catalogue.toml [{kind}]: missing {sorted(expected - given)}, "
                f"unknown {sorted(given - expected)}"
            )
    return data
