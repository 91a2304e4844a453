"""The character (articles 2, 4, 7–10): abilities, class, level and XP, initiations, skills.

Rules here are pure functions from a `Character` (and a dice source) to a new `Character`
and the events that explain it.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator, model_validator

from tabletop.data import read_data_file
from tabletop.dice import DiceSource, roll
from tabletop.systems.constitution.check import Check, check, skill_score
from tabletop.systems.constitution.check import reroll as reroll_check
from tabletop.systems.constitution.encumbrance import MAX_GEAR, Gear, load_of
from tabletop.systems.constitution.errors import ConstitutionDataError, ConstitutionError
from tabletop.systems.constitution.initiations import (
    COMBAT_SITUATIONS,
    CharacterClass,
    Effect,
    Situation,
    find,
)
from tabletop.systems.constitution.models import DiceRecord, Event, Model, build
from tabletop.systems.constitution.options import DEFAULT, Options

Ability = Literal["strength", "wits", "knowledge", "will", "charisma"]
ABILITIES: tuple[Ability, ...] = ("strength", "wits", "knowledge", "will", "charisma")
"""The five abilities in the order they are rolled (§ 4.1–4.2)."""

MAX_SCORE = 30
"""Largest ability score accepted (3d6 gives 18; improvement reaches 20; the rest is room
for what a referee accepts under § 4.5)."""

MAX_LEVEL = 30
"""Largest level accepted: past it the XP thresholds pass a billion."""

FIRST_LEVEL_XP = 1500
"""XP for level 2 (§ 2.9); each later level doubles it."""

FOE_XP_PER_HIT_DIE = 10
"""XP per hit die of foes overcome (§ 2.7)."""


class Abilities(Model):
    """The five ability scores; 10 is an average adult (§ 4.2)."""

    strength: int = Field(ge=0, le=MAX_SCORE)
    wits: int = Field(ge=0, le=MAX_SCORE)
    knowledge: int = Field(ge=0, le=MAX_SCORE)
    will: int = Field(ge=0, le=MAX_SCORE)
    charisma: int = Field(ge=0, le=MAX_SCORE)

    def __getitem__(self, ability: Ability) -> int:
        return int(getattr(self, ability))


class KnownSpell(Model):
    """A spell the character knows: its level, school and skill rating (§ 12.1)."""

    level: int = Field(ge=1, le=MAX_LEVEL)
    rating: int = Field(ge=0, le=100)
    school: str | None = None


class Wound(Model):
    """A real injury (§ 6.9–6.10): minor or major, what it is, its penalty and duration."""

    severity: Literal["minor", "major"]
    description: str
    penalty: int = Field(default=0, le=0)
    applies_to: str = "heavy physical tasks"
    until: str = "the next long rest"


class Character(Model):
    """A player character's sheet, with every invariant the articles imply checked."""

    name: str = Field(min_length=1, max_length=80)
    character_class: CharacterClass | None = None
    abilities: Abilities
    level: int = Field(default=1, ge=1, le=MAX_LEVEL)
    xp: int = Field(default=0, ge=0)
    initiations: tuple[str, ...] = ()
    skills: dict[str, int] = Field(default_factory=dict)
    spells: dict[str, KnownSpell] = Field(default_factory=dict)
    prepared: tuple[str, ...] = ()
    has_spell_book: bool = False
    research_owed: int = Field(default=0, ge=0)
    """New spells the character may research (one per level gained or breakthrough, § 12.8)."""
    hp: int = Field(default=0, ge=0)
    fatigue: int = Field(default=0, ge=0)
    penance: int = Field(default=0, ge=0)
    major_wound_marks: int = Field(default=0, ge=0)
    wounds: tuple[Wound, ...] = ()
    rerolls_used: int = Field(default=0, ge=0)
    cast_this_session: bool = False
    preparations_today: int = Field(default=0, ge=0)
    standing: bool = True
    dead: bool = False
    gear: tuple[Gear, ...] = Field(default=(), max_length=MAX_GEAR)
    """What the character carries and where (§ 14.1)."""
    coins: int = Field(default=0, ge=0, le=1_000_000)
    """Silver pieces carried; they need purses or pouches to be carried in (§ 14.13a)."""
    notes: str = Field(default="", max_length=4_000)

    @field_validator("skills")
    @classmethod
    def _skill_range(cls, skills: dict[str, int]) -> dict[str, int]:
        for skill, rating in skills.items():
            if not 0 <= rating <= 100:
                raise ValueError(f"skill {skill!r} is {rating}; ratings run from 0 to 100")
        return skills

    @model_validator(mode="after")
    def _initiations_fit(self) -> Character:
        if len(self.initiations) > self.level:
            raise ValueError(
                f"{len(self.initiations)} initiations but level {self.level} allows {self.level}"
            )
        for initiation_id in self.initiations:
            entry = find(initiation_id)
            if entry and entry.character_class and entry.character_class != self.character_class:
                raise ValueError(f"{entry.name} is open only to {entry.character_class}s")
        unknown = [name for name in self.prepared if name not in self.spells]
        if unknown:
            raise ValueError(f"prepared spells not in the spell book: {', '.join(unknown)}")
        load_of(self.gear, self.coins)
        return self

    @property
    def hit_dice(self) -> int:
        """Player characters have one hit die per level (§ 6.2)."""
        return self.level

    @property
    def rerolls_left(self) -> int:
        """Adventurers re-roll a d20 as many times per session as their level (§ 9.1)."""
        if self.character_class != "adventurer":
            return 0
        return max(0, self.level - self.rerolls_used)

    def effects(self, kind: str) -> list[Effect]:
        """Every effect of this kind among the character's initiations."""
        found = []
        for initiation_id in self.initiations:
            entry = find(initiation_id)
            if entry:
                found.extend(effect for effect in entry.effects if effect.kind == kind)
        return found

    def can(self, capability: str) -> bool:
        """Whether an initiation unlocks the named rule (e.g. "bless", "prepare_spells")."""
        return any(effect.name == capability for effect in self.effects("capability"))


# -- XP and levels (article 2) ---------------------------------------------------------------


def level_threshold(level: int, options: Options = DEFAULT) -> int:
    """XP at which `level` is reached: 0, 1500, 3000, 6000, … (or a tenth of them)."""
    if level <= 1:
        return 0
    first = FIRST_LEVEL_XP // 10 if options.xp_scale == "tenth" else FIRST_LEVEL_XP
    return first << (level - 2)


def level_for_xp(xp: int, options: Options = DEFAULT) -> int:
    """The level an XP total earns (§ 2.9), in whole numbers only (C3-P06)."""
    if xp < 0:
        raise ConstitutionError("XP cannot be negative")
    level = 1
    while level < MAX_LEVEL and xp >= level_threshold(level + 1, options):
        level += 1
    return level


def treasure_xp(silver: int | Fraction, options: Options = DEFAULT) -> int:
    """XP for treasure worth `silver` sp brought home (§ 2.1–2.6; rate: C3-G01). Whether a
    find counts as treasure is the referee's call (§ 2.1–2.5)."""
    if silver < 0:
        raise ConstitutionError("treasure cannot be worth less than nothing")
    return int(silver * options.xp_per_sp)


def foe_xp(hit_dice: int) -> int:
    """XP for foes overcome: 10 per hit die (§ 2.7)."""
    if hit_dice < 0:
        raise ConstitutionError("hit dice cannot be negative")
    return FOE_XP_PER_HIT_DIE * hit_dice


def award_xp(
    character: Character, amount: int, reason: str, options: Options = DEFAULT
) -> tuple[Character, list[Event]]:
    """Add XP (never lost, § 2.9); each level gained owes one spell research (§ 12.8)."""
    if amount < 0:
        raise ConstitutionError("XP is never taken away")
    xp = character.xp + amount
    level = max(character.level, level_for_xp(xp, options))
    events = [Event(kind="xp", message=f"{character.name} gains {amount} XP for {reason}")]
    gained = level - character.level
    if gained:
        events.append(Event(kind="level", message=f"{character.name} reaches level {level}"))
    owed = character.research_owed + (gained if character.has_spell_book else 0)
    return character.evolve(xp=xp, level=level, research_owed=owed), events


def add_initiation(character: Character, initiation_id: str) -> Character:
    """Take an initiation; a character has at most as many as their level (§ 4.4)."""
    if initiation_id in character.initiations:
        raise ConstitutionError(f"{character.name} already has {initiation_id}")
    return character.evolve(initiations=(*character.initiations, initiation_id))


# -- Checks with class and initiation bonuses --------------------------------------------


class Bonus(Model):
    """A named modifier on a check: where it comes from and how much."""

    source: str
    amount: int


def bonuses(
    character: Character,
    ability: Ability,
    situations: frozenset[Situation] | set[Situation] = frozenset(),
    options: Options = DEFAULT,
) -> list[Bonus]:
    """The class and initiation bonuses on a check of `ability` in `situations`."""
    found = []
    combat = set(COMBAT_SITUATIONS)
    if options.fighter_bonus_scope == "attack_and_defence":
        combat.discard("injury_save")
    if character.character_class == "fighter" and combat & set(situations):
        found.append(Bonus(source="fighter level (§ 7.1)", amount=character.level))
    if character.character_class == "sage" and ability == "knowledge":
        found.append(Bonus(source="sage level (§ 8.1)", amount=character.level))
    if "blessed" in situations:
        found.append(Bonus(source="the Lord's blessing (§ 11.5)", amount=1))
    return found + _initiation_bonuses(character, "check_bonus", situations)


def armour_bonuses(
    character: Character, situations: frozenset[Situation] | set[Situation]
) -> list[Bonus]:
    """AC from reach (§ 5.16) and from initiations (§ 7.5–7.7) in `situations`."""
    found = []
    if "longer_reach" in situations:
        found.append(Bonus(source="longer reach (§ 5.16)", amount=1))
    return found + _initiation_bonuses(character, "armour_bonus", situations)


def _initiation_bonuses(
    character: Character, kind: str, situations: frozenset[Situation] | set[Situation]
) -> list[Bonus]:
    """The character's initiation effects of `kind` that apply in `situations`, named."""
    found = []
    for initiation_id in character.initiations:
        entry = find(initiation_id)
        for effect in entry.effects if entry else ():
            if effect.kind == kind and effect.when in situations:
                found.append(Bonus(source=entry.name, amount=effect.bonus(character.level)))
    return found


def character_check(
    character: Character,
    ability: Ability,
    dc: int,
    dice: DiceSource,
    *,
    situations: frozenset[Situation] | set[Situation] = frozenset(),
    skill: str | None = None,
    modifier: int = 0,
    advantage: int = 0,
    disadvantage: int = 0,
    options: Options = DEFAULT,
) -> Check:
    """A check of one of the character's abilities, skill-modified if `skill` is named
    (§ 4.10), with every class and initiation bonus that applies."""
    score = character.abilities[ability]
    if skill is not None:
        if skill not in character.skills:
            raise ConstitutionError(
                f"{character.name} has no rating for {skill!r} yet; "
                "the group sets one first (§ 4.11)"
            )
        score = skill_score(score, character.skills[skill], options)
    score += modifier + sum(b.amount for b in bonuses(character, ability, situations, options))
    return check(score, dc, dice, advantage=advantage, disadvantage=disadvantage, options=options)


def spend_reroll(
    character: Character, previous: Check, dice: DiceSource, options: Options = DEFAULT
) -> tuple[Character, Check]:
    """An adventurer re-rolls a d20 roll and must take the new result (§ 9.1; C3-A34)."""
    if character.rerolls_left < 1:
        raise ConstitutionError(f"{character.name} has no re-rolls left this session")
    return character.evolve(rerolls_used=character.rerolls_used + 1), reroll_check(
        previous, dice, options
    )


# -- The end of a session (§ 4.9) ----------------------------------------------------------


def improvement_roll(
    character: Character, order: list[Ability], dice: DiceSource
) -> tuple[Character, list[Event]]:
    """Try abilities in the player's order: a d20 above the score raises it by one and ends
    the roll; otherwise the next ability is tried, each at most once (§ 4.9; C3-A10)."""
    if len(set(order)) != len(order):
        raise ConstitutionError("each ability may be tried only once per session")
    events = []
    for ability in order:
        rolled = roll("1d20", dice)
        score = character.abilities[ability]
        record = (DiceRecord.of(rolled),)
        if rolled.total > score:
            raised = character.abilities.evolve(**{ability: score + 1})
            events.append(
                Event(
                    kind="improved",
                    message=f"{character.name}: {ability} rises to {score + 1}",
                    dice=record,
                )
            )
            return character.evolve(abilities=raised), events
        stays = f"{character.name}: {ability} stays at {score}"
        events.append(Event(kind="not_improved", message=stays, dice=record))
    return character, events


def end_session(character: Character) -> Character:
    """Reset what lasts a session: adventurer re-rolls and the spell-casting flag."""
    return character.evolve(rerolls_used=0, cast_this_session=False)


# -- Initiations that are rules of their own (§ 9.3, § 10.3) and money (§ 2.6) ------------

RUMMAGE_DC = 20
"""Finding the thing one happened to pack (§ 9.3)."""

HAGGLE_DISCOUNT = Fraction(1, 10)
"""What a good haggle takes off the listed price (§ 10.3)."""


def rummage(
    character: Character, dice: DiceSource, *, options: Options = DEFAULT, modifier: int = 0
) -> Check:
    """Prepared: outside direct danger, a knowledge check at DC 20 finds an undetermined
    medium item in the pack (§ 9.3); the price is paid back in town."""
    if not character.can("find_in_pack"):
        raise ConstitutionError(f"{character.name} is not Prepared (§ 9.3)")
    return character_check(
        character, "knowledge", RUMMAGE_DC, dice, modifier=modifier, options=options
    )


def haggle(character: Character, price: Fraction, dice: DiceSource) -> tuple[Fraction, DiceRecord]:
    """Haggler: with time to survey the market, a d20 under charisma takes 10% off (§ 10.3).
    The d20 does not explode: it is compared with the score, not added (C3-A07)."""
    if not character.can("haggle"):
        raise ConstitutionError(f"{character.name} is no Haggler (§ 10.3)")
    rolled = roll("1d20", dice)
    paid = price * (1 - HAGGLE_DISCOUNT) if rolled.total < character.abilities.charisma else price
    return paid, DiceRecord.of(rolled)


def to_silver(gold: int = 0, silver: int = 0, copper: int = 0) -> Fraction:
    """Coins in silver pieces: a gold piece is 50 sp, a copper a tenth (§ 2.6)."""
    return 50 * Fraction(gold) + silver + Fraction(copper, 10)


def damage_dice(
    character: Character,
    situations: frozenset[Situation] | set[Situation] = frozenset(),
    base: int = 6,
) -> str:
    """The character's damage roll (§ 5.18): 1d6, a bigger die or advantage dice from
    initiations in `situations` (§ 7.5 two-handed d8, § 7.7 longsword advantage die)."""
    sides = max(
        (e.sides or base for e in character.effects("damage_die") if e.when in situations),
        default=base,
    )
    advantage = sum(
        e.dice or 0 for e in character.effects("damage_advantage") if e.when in situations
    )
    return f"1d{sides}" if advantage == 0 else f"{1 + advantage}d{sides}kh1"


def read_sheet(path: str | Path) -> Character:
    """A character sheet from a JSON file (as `character new --json` prints it), checked."""
    return build(Character, read_data_file(path, ConstitutionDataError))
