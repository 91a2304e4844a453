"""Priests and magic (articles 11–12): blessings and penance, spells as skills, ritual and
prepared casting, spell slots, research and the spell improvement roll.

The spells themselves (names, levels, schools, curricula) are the table's: the seed names
none (C3-G03), so every rule here takes the spells it needs from the caller.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import Field

from tabletop.dice import DiceSource, roll
from tabletop.systems.constitution.character import Character, KnownSpell, bonuses
from tabletop.systems.constitution.check import Check, check, skill_score
from tabletop.systems.constitution.errors import ConstitutionError
from tabletop.systems.constitution.models import DiceRecord, Event, Model
from tabletop.systems.constitution.options import DEFAULT, Options

RITUAL_DC = 20
"""Both ritual checks are against DC 20 (§ 12.2)."""

RESEARCH_RATING = 50
"""A newly researched spell starts at 50% (§ 12.9)."""

PREPARATION_HOURS = 2
"""Preparing spells takes two hours (§ 12.3)."""

MAX_STUDY_DAYS = 365
"""Days of focused study one call may roll for: a documented bound."""


# -- Blessings (article 11) ----------------------------------------------------------------


class Blessing(Model):
    """The Lord's blessing on a person, place or item, for a stated purpose (§ 11.1–11.2).

    It lasts until one sunrise and one sunset have passed, in either order."""

    priest: str
    subject: str
    purpose: str
    just: bool
    sunrise_passed: bool = False
    sunset_passed: bool = False

    @property
    def active(self) -> bool:
        return not (self.sunrise_passed and self.sunset_passed)

    def time_passes(self, event: Literal["sunrise", "sunset"]) -> Blessing:
        return self.evolve(**{f"{event}_passed": True})


def ask_blessing(
    priest: Character, subject: str, purpose: str, *, just: bool
) -> tuple[Character, Blessing, list[Event]]:
    """Ask for a blessing (§ 11.1–11.3). A selfish or ungodly purpose earns a point of
    penance whether or not it is granted; whether it is granted is the referee's (C3-A33)."""
    if not priest.can("bless"):
        raise ConstitutionError(f"{priest.name} is not ordained (§ 8.2)")
    blessing = Blessing(priest=priest.name, subject=subject, purpose=purpose, just=just)
    events = [Event(kind="blessing", message=f"{priest.name} asks a blessing on {subject}")]
    if not just:
        priest = priest.evolve(penance=priest.penance + 1)
        events.append(Event(kind="penance", message=f"{priest.name}: penance {priest.penance}"))
    return priest, blessing, events


def purpose_fulfilled(priest: Character, blessing: Blessing) -> Character:
    """Acting on a just blessing's purpose takes away a point of penance (§ 11.4)."""
    if not blessing.just:
        raise ConstitutionError("only a blessing asked for a just and good purpose lifts penance")
    return priest.evolve(penance=max(0, priest.penance - 1))


# -- Learning spells (§ 12.1, 12.8–12.14) --------------------------------------------------


def may_learn(character: Character, level: int, school: str | None) -> bool:
    """Goetia opens first-level spells; a school initiation opens its school's spells up to
    the character's level (§ 8.3–8.5)."""
    if level == 1 and character.can("learn_first_level_spells"):
        return True
    return any(
        effect.school == school and level <= character.level
        for effect in character.effects("capability")
        if effect.name == "learn_school"
    )


def learn_spell(
    character: Character, name: str, spell: KnownSpell, *, owed: bool = True
) -> Character:
    """Add a spell to the character's book (§ 12.8): it needs a spell book, an initiation that
    opens the spell, and (when `owed`) a research the character is owed."""
    needs_spell_book(character)
    if name in character.spells:
        raise ConstitutionError(f"{character.name} already knows {name}")
    if not may_learn(character, spell.level, spell.school):
        raise ConstitutionError(
            f"{character.name} has no initiation that opens a level-{spell.level} "
            f"{spell.school or 'unschooled'} spell"
        )
    if owed:
        may_research(character)
    return character.evolve(
        spells={**character.spells, name: spell},
        research_owed=character.research_owed - (1 if owed else 0),
    )


def needs_spell_book(character: Character) -> None:
    """Refuse learning by a character with no spell book of their own (§ 12.7–12.8)."""
    if not character.has_spell_book:
        raise ConstitutionError(f"{character.name} has no spell book (§ 12.7)")


def may_research(character: Character) -> None:
    """Refuse research by a character with no spell book or no research owed (§ 12.8)."""
    needs_spell_book(character)
    if character.research_owed < 1:
        raise ConstitutionError(
            f"{character.name} may research a new spell only on gaining a level or after a "
            "breakthrough (§ 12.8)"
        )


def breakthrough(character: Character) -> Character:
    """A find (e.g. a foreign magician's book) earns one more research (§ 12.8)."""
    return character.evolve(research_owed=character.research_owed + 1)


def research_days(
    spell_level: int, dice: DiceSource, *, own_chores: bool = False, options: Options = DEFAULT
) -> tuple[int, DiceRecord]:
    """Days of research: 4d6 per spell level (C3-A21), doubled if the character keeps their
    own house (§ 12.9)."""
    if spell_level < 1:
        raise ConstitutionError("spell levels start at 1")
    expression = (
        f"{4 * spell_level}d6" if options.research_time == "per_level" else f"4d6*{spell_level}"
    )
    rolled = roll(expression, dice)
    return rolled.total * (2 if own_chores else 1), DiceRecord.of(rolled)


ResearchRoute = Literal["chosen", "exploratory", "school", "writings", "mentor"]


def research_subject(
    route: ResearchRoute,
    dice: DiceSource,
    *,
    candidates: Sequence[str] = (),
    mentor_rating: int | None = None,
) -> tuple[str | None, int, DiceRecord | None]:
    """Which spell a research yields and its starting rating (§ 12.9–12.13).

    `candidates` are the table's spells for the route: the random first-level list
    (exploratory), the school's curriculum in order (school), the other magician's spells
    the character lacks (writings), or the one spell studied (chosen, mentor); a random
    route with one candidate left draws no die."""
    if not candidates:
        raise ConstitutionError(
            "name the spells this research can lead to (the table's spell list)"
        )
    if route == "mentor":
        if mentor_rating is None or not 0 <= mentor_rating <= 100:
            raise ConstitutionError("a mentor's own rating (0–100) is needed")
        return candidates[0], mentor_rating // 2, None
    if route in ("exploratory", "writings") and len(candidates) > 1:  # one left: no die
        rolled = roll(f"1d{len(candidates)}", dice)
        return candidates[rolled.total - 1], RESEARCH_RATING, DiceRecord.of(rolled)
    return candidates[0], RESEARCH_RATING, None


def study(
    character: Character, spell: str, days: int, dice: DiceSource
) -> tuple[Character, DiceRecord]:
    """Focused study: 1d6 points of rating per full day (§ 12.14), up to 100."""
    known = _known(character, spell)
    if not 1 <= days <= MAX_STUDY_DAYS:
        raise ConstitutionError(f"study lasts 1 to {MAX_STUDY_DAYS} full days")
    rolled = roll(f"{days}d6", dice)
    rating = min(100, known.rating + rolled.total)
    improved = {**character.spells, spell: known.evolve(rating=rating)}
    return character.evolve(spells=improved), DiceRecord.of(rolled)


def _known(character: Character, spell: str) -> KnownSpell:
    try:
        return character.spells[spell]
    except KeyError:
        raise ConstitutionError(f"{character.name} does not know {spell}") from None


# -- Casting (§ 12.2–12.6) -----------------------------------------------------------------


class Ritual(Model):
    """A ritual casting: hours taken and the two checks (§ 12.2)."""

    spell: str
    hours: int
    knowledge: Check
    will: Check

    @property
    def success(self) -> bool:
        return self.knowledge.success and self.will.success


def cast_ritual(
    character: Character, spell: str, dice: DiceSource, options: Options = DEFAULT
) -> tuple[Character, Ritual]:
    """Cast a known spell as a ritual: an hour per level, then knowledge and will checks,
    each scaled by the spell's rating, against DC 20; both must succeed (§ 12.2, § 12.7)."""
    known = _known(character, spell)
    if not character.has_spell_book:
        raise ConstitutionError(f"{character.name} needs their spell book for a ritual (§ 12.7)")
    checks = []
    for ability in ("knowledge", "will"):
        score = skill_score(character.abilities[ability], known.rating, options)
        score += sum(b.amount for b in bonuses(character, ability, set(), options))
        checks.append(check(score, RITUAL_DC, dice, options=options))
    ritual = Ritual(spell=spell, hours=known.level, knowledge=checks[0], will=checks[1])
    return character.evolve(cast_this_session=True), ritual


def slots_fit(levels: Sequence[int], character_level: int) -> bool:
    """Whether prepared spells of these levels fit the slots (§ 12.5; C3-A22): slot k holds a
    spell of level k or lower, one slot per character level."""
    ordered = sorted(levels, reverse=True)
    if len(ordered) > character_level:
        return False
    return all(level <= character_level - i for i, level in enumerate(ordered))


def prepare_spells(character: Character, spells: Sequence[str]) -> tuple[Character, list[Event]]:
    """Two hours with the spell book to memorise spells (§ 12.3–12.6); preparing again the
    same day costs a point of fatigue (§ 12.4)."""
    if not character.can("prepare_spells"):
        raise ConstitutionError(
            f"{character.name} cannot prepare spells (Goetia or similar, § 12.3)"
        )
    if not character.has_spell_book:
        raise ConstitutionError(f"{character.name} needs their spell book to prepare (§ 12.7)")
    levels = [_known(character, spell).level for spell in spells]
    if not slots_fit(levels, character.level):
        raise ConstitutionError(
            f"spells of levels {sorted(levels)} do not fit the slots of a level-"
            f"{character.level} character (§ 12.5)"
        )
    fatigue = character.fatigue + (1 if character.preparations_today >= 1 else 0)
    events = [
        Event(
            kind="prepared",
            message=f"{character.name} spends {PREPARATION_HOURS} hours preparing "
            f"{', '.join(spells) or 'nothing'}",
        )
    ]
    if fatigue > character.fatigue:
        events.append(
            Event(
                kind="fatigue",
                message=f"{character.name} prepares a second time today: fatigue {fatigue}",
            )
        )
    prepared = character.evolve(
        prepared=tuple(spells),
        fatigue=fatigue,
        preparations_today=character.preparations_today + 1,
    )
    return prepared, events


class PreparedCast(Model):
    """A quick casting of a prepared spell: d100 at or under the rating (§ 12.3; C3-A19)."""

    spell: str
    rating: int = Field(ge=0, le=100)
    roll: DiceRecord

    @property
    def success(self) -> bool:
        return self.roll.total <= self.rating


def cast_prepared(
    character: Character, spell: str, dice: DiceSource
) -> tuple[Character, PreparedCast]:
    """Cast a prepared spell; the preparation is spent either way (C3-A39)."""
    if spell not in character.prepared:
        raise ConstitutionError(f"{character.name} has not prepared {spell}")
    rolled = roll("1d100", dice)
    cast = PreparedCast(
        spell=spell, rating=_known(character, spell).rating, roll=DiceRecord.of(rolled)
    )
    remaining = list(character.prepared)
    remaining.remove(spell)
    return character.evolve(prepared=tuple(remaining), cast_this_session=True), cast


def spell_improvement(
    character: Character, spell: str, dice: DiceSource
) -> tuple[Character, list[Event]]:
    """After a session with a casting attempt, one spell may improve (§ 12.15): a d100 above
    the rating becomes the rating; otherwise +1d6, to at most 100 (C3-A20)."""
    if not character.cast_this_session:
        raise ConstitutionError(f"{character.name} tried no spell this session")
    known = _known(character, spell)
    percentile = roll("1d100", dice)
    records = [DiceRecord.of(percentile)]
    if percentile.total > known.rating:
        rating = percentile.total
    else:
        gain = roll("1d6", dice)
        records.append(DiceRecord.of(gain))
        rating = min(100, known.rating + gain.total)
    improved = character.evolve(
        spells={**character.spells, spell: known.evolve(rating=rating)}, cast_this_session=False
    )
    event = Event(
        kind="spell_improved",
        message=f"{character.name}: {spell} {known.rating}% → {rating}%",
        dice=tuple(records),
    )
    return improved, [event]
