"""Character creation as a state machine: the five life-path rolls, the class, its kit and
the starting gear, one decision at a time (§ Character Creation).

`begin_creation` rolls the infancy; `Creation.decision()` says what must be chosen now and
`Creation.choose(choice, dice)` applies a choice. Scores stay within 0..3 and proficiencies
within 0..2 after every single effect (DW-M02, DW-A27). A kept life-path roll can first be
re-rolled with insight (DW-A02) or, once, for free when it matches a party member's result
(DW-A03). `random_character` drives the same machine with random choices.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from tabletop.data import validated
from tabletop.dice import DiceSource, roll
from tabletop.systems.dead_weight.attributes import Attribute
from tabletop.systems.dead_weight.catalogue import QuirkRule, Skill, Trait
from tabletop.systems.dead_weight.character import (
    Character,
    CharacterClass,
    LifePath,
    Quirk,
    revise,
    with_attribute,
)
from tabletop.systems.dead_weight.errors import DeadWeightError, SheetError
from tabletop.systems.dead_weight.events import Event, about, event
from tabletop.systems.dead_weight.inventory import PlaceKind, add_container, stow
from tabletop.systems.dead_weight.kits import KitItem, creation_data
from tabletop.systems.dead_weight.options import DEFAULT, Options
from tabletop.systems.dead_weight.supplements import Supplement
from tabletop.systems.dead_weight.tables import system_table
from tabletop.systems.dead_weight.trackers import risk
from tabletop.tables import Entry
from tabletop.words import counted, listed, said

SCORE_RANGE = (0, 3)
PROFICIENCY_RANGE = (0, 2)
"""The creation clamps (DW-M02): any point past these during creation is ignored."""


class Stage(StrEnum):
    INFANCY = "infancy"
    CAREER = "career"
    TRAGEDY = "tragedy"
    BURDEN = "burden"
    QUIRK = "quirk"
    CLASS = "class"
    SCHOOL = "school"
    KIT = "kit"
    BACKGROUND = "background"
    MANEUVER = "maneuver"
    GOD = "god"
    SPELLS = "spells"
    PRAYERS = "prayers"
    DONE = "done"


LIFE_PATH: dict[Stage, str] = {
    Stage.INFANCY: "infancy",
    Stage.CAREER: "career",
    Stage.TRAGEDY: "tragedy",
    Stage.BURDEN: "burden",
    Stage.QUIRK: "quirks",
}
"""The life-path stages and the table each rolls on, in order."""

CLASS_STAGES: dict[CharacterClass, tuple[Stage, ...]] = {
    CharacterClass.WARRIOR: (Stage.BACKGROUND, Stage.MANEUVER),
    CharacterClass.THIEF: (Stage.BACKGROUND, Stage.MANEUVER),
    CharacterClass.WIZARD: (Stage.SCHOOL, Stage.SPELLS),
    CharacterClass.CLERIC: (Stage.KIT, Stage.GOD, Stage.PRAYERS),
}


# choices -------------------------------------------------------------------------------


class Keep(BaseModel):
    """Keep the life-path roll as it is."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    kind: Literal["keep"] = "keep"


class RerollDice(BaseModel):
    """Re-roll some dice of the life-path roll (by 0-based position): with an insight
    point, or with the party's free re-roll when `free`."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    kind: Literal["reroll"] = "reroll"
    dice: tuple[int, ...] = ()
    free: bool = False


class PickAttribute(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    kind: Literal["attribute"] = "attribute"
    attribute: Attribute


class PickClass(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    kind: Literal["class"] = "class"
    character_class: CharacterClass


class Pick(BaseModel):
    """Pick one named option: a school, a kit, a background, a maneuver, a god, a quirk
    (or, for the quirk, `name` "roll" to roll instead)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    kind: Literal["pick"] = "pick"
    name: str = Field(min_length=1, max_length=200)


class PickNames(BaseModel):
    """Spells or prayers, by name."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    kind: Literal["names"] = "names"
    names: tuple[str, ...]


class Skip(BaseModel):
    """Leave out what the core book does not give (it can be written in later)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    kind: Literal["skip"] = "skip"


CreationChoice = Annotated[
    Keep | RerollDice | PickAttribute | PickClass | Pick | PickNames | Skip,
    Field(discriminator="kind"),
]
AnyChoice = Keep | RerollDice | PickAttribute | PickClass | Pick | PickNames | Skip

ROLL_QUIRK = "roll"


class Decision(BaseModel):
    """What must be decided now: a prompt, the named options, and what kinds of choice
    are accepted."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    stage: Stage
    prompt: str
    kinds: tuple[str, ...]
    options: tuple[str, ...] = ()
    count: int = 0
    """For spells and prayers: how many names to give."""
    free_names: bool = False
    """Whether names outside `options` are accepted (nothing supplied to choose from)."""


class Creation(BaseModel):
    """A character being made."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    character: Character
    options: Options = DEFAULT
    supplement: Supplement = Supplement()
    party: tuple[LifePath, ...] = ()
    """The other party members' life paths, for the free re-roll (DW-M04)."""
    allow_choosing_quirk: bool = False
    """The GM agrees the player may choose a quirk instead of rolling (DW-M10)."""
    wanted_class: CharacterClass | None = None
    stage: Stage = Stage.INFANCY
    queue: tuple[Stage, ...] = ()
    dice: tuple[int, ...] = ()
    """The life-path roll waiting to be kept or re-rolled."""
    free_reroll_used: bool = False
    effects: tuple[dict[str, Any], ...] = ()
    """Effects of the kept row still to apply (one may be waiting for a choice)."""
    lowest: tuple[Attribute, ...] = ()
    highest: tuple[Attribute, ...] = ()
    kit: str | None = None
    missing: tuple[str, ...] = ()
    """What the core book leaves to other books and was skipped or not supplied."""

    @property
    def done(self) -> bool:
        return self.stage == Stage.DONE

    def decision(self) -> Decision | None:
        """The open decision, or None when the character is finished."""
        return None if self.done else _decision(self)

    def choose(self, choice: AnyChoice, dice: DiceSource) -> tuple[Creation, list[Event]]:
        """Apply one choice; `DeadWeightError` (and no change) if it is not allowed now."""
        decision = self.decision()
        if decision is None:
            raise DeadWeightError("the character is finished")
        if choice.kind not in decision.kinds:
            raise DeadWeightError(f"{decision.prompt}: expected one of {', '.join(decision.kinds)}")
        return _apply(self, decision, choice, dice)


def begin_creation(
    dice: DiceSource,
    *,
    name: str = "Unnamed",
    character_class: CharacterClass | None = None,
    options: Options = DEFAULT,
    supplement: Supplement | None = None,
    party: tuple[LifePath, ...] = (),
    allow_choosing_quirk: bool = False,
) -> tuple[Creation, list[Event]]:
    """Start a character (scores 1, proficiencies 0, one insight) and roll the infancy."""
    start = creation_data().start
    creation = Creation(
        character=validated(
            Character, {"name": name, "insight": start.insight}, "new character", SheetError
        ),
        options=options,
        supplement=supplement or Supplement(),
        party=party,
        allow_choosing_quirk=allow_choosing_quirk,
        wanted_class=character_class,
        queue=(Stage.CAREER, Stage.TRAGEDY, Stage.BURDEN, Stage.QUIRK, Stage.CLASS),
    )
    return _roll_life_path(creation, dice, [])


# decisions ---------------------------------------------------------------------------


def _decision(creation: Creation) -> Decision:
    stage = creation.stage
    if creation.effects:
        effect = creation.effects[0]
        pool = _attribute_pool(creation, effect)
        what = "score" if effect["kind"] == "score" else "proficiency"
        return Decision(
            stage=stage,
            prompt=f"which attribute's {what} changes by {effect['amount']:+d}",
            kinds=("attribute",),
            options=tuple(a.value for a in pool),
        )
    if stage in LIFE_PATH and creation.dice:
        kinds = ["keep"]
        if creation.character.insight > 0 or free_reroll(creation):
            kinds.append("reroll")
        entry = _entry(stage, creation.dice)
        free = (
            " (a free re-roll is allowed: a party member has it too)"
            if free_reroll(creation)
            else ""
        )
        return Decision(
            stage=stage,
            prompt=f"{stage}: rolled {' + '.join(map(str, creation.dice))} = "
            f"{sum(creation.dice)}, {entry.name}{free}",
            kinds=tuple(kinds),
        )
    if stage == Stage.QUIRK:
        names = _quirk_names()
        return Decision(
            stage=stage,
            prompt="roll a quirk, or choose one",
            kinds=("pick",),
            options=(ROLL_QUIRK, *names),
        )
    if stage == Stage.CLASS:
        return Decision(
            stage=stage,
            prompt="choose a class",
            kinds=("class",),
            options=tuple(c.value for c in CharacterClass),
        )
    cls = creation.character.character_class
    assert cls is not None
    data = creation_data().classes[cls]
    supplement = creation.supplement
    if stage in (Stage.SCHOOL, Stage.KIT):
        return Decision(
            stage=stage,
            prompt="choose a school of magic" if stage == Stage.SCHOOL else "choose a starting kit",
            kinds=("pick",),
            options=tuple(kit.name for kit in data.kits),
        )
    if stage == Stage.BACKGROUND:
        supplied = tuple(n for n, b in supplement.backgrounds.items() if b.character_class == cls)
        names = tuple(dict.fromkeys((*data.backgrounds, *supplied)))
        return Decision(
            stage=stage, prompt=f"choose a {cls} background", kinds=("pick", "skip"), options=names
        )
    if stage == Stage.MANEUVER:
        background = supplement.backgrounds.get(creation.character.background or "")
        return Decision(
            stage=stage,
            prompt="choose a combat maneuver",
            kinds=("pick", "skip"),
            options=background.maneuvers if background else (),
        )
    if stage == Stage.GOD:
        gods = tuple(supplement.gods)
        return Decision(
            stage=stage,
            prompt="choose a god",
            kinds=("pick", "skip"),
            options=gods,
            free_names=not gods,
        )
    if stage == Stage.SPELLS:
        school = supplement.schools.get(creation.character.school or "")
        count = creation.character.attribute(Attribute.INT).score
        spells = school.spells if school else ()
        return Decision(
            stage=stage,
            prompt=f"choose {counted(count, 'spell')} of your school",
            kinds=("names", "skip"),
            options=spells,
            count=min(count, len(spells)) if spells else count,
            free_names=not spells,
        )
    assert stage == Stage.PRAYERS
    god = supplement.gods.get(creation.character.god or "")
    prayers = tuple(dict.fromkeys((*data.basic_prayers, *(god.prayers if god else ()))))
    count = creation.character.attribute(Attribute.PRE).score
    return Decision(
        stage=stage,
        prompt=f"choose {counted(min(count, len(prayers)), 'prayer')}",
        kinds=("names", "skip"),
        options=prayers,
        count=min(count, len(prayers)),
    )


def _quirk_names() -> tuple[str, ...]:
    rolled = tuple(entry.name for entry in system_table("quirks").entries)
    return (*(q.name for q in creation_data().choose_only_quirks), *rolled)


def _entry(stage: Stage, dice: tuple[int, ...]) -> Entry:
    return system_table(LIFE_PATH[stage]).lookup(sum(dice))


def free_reroll(creation: Creation) -> bool:
    """The party's free re-roll: once, when another character has the same entry (DW-A03)."""
    if creation.free_reroll_used or creation.stage not in LIFE_PATH or not creation.dice:
        return False
    if creation.stage == Stage.QUIRK:
        return False
    name = _entry(creation.stage, creation.dice).name
    field = creation.stage.value
    return any(getattr(other, field) == name for other in creation.party)


# applying choices --------------------------------------------------------------------


def _apply(
    creation: Creation, decision: Decision, choice: AnyChoice, dice: DiceSource
) -> tuple[Creation, list[Event]]:
    if isinstance(choice, PickAttribute):
        if choice.attribute.value not in decision.options:
            raise DeadWeightError(f"choose one of {', '.join(decision.options)}")
        effect = {**creation.effects[0], "attribute": choice.attribute.value}
        creation = creation.model_copy(update={"effects": (effect, *creation.effects[1:])})
        return _run_effects(creation, dice, [])
    if isinstance(choice, Keep):
        return _keep(creation, dice)
    if isinstance(choice, RerollDice):
        return _reroll(creation, choice, dice)
    if isinstance(choice, PickClass):
        return _take_class(creation, choice.character_class, dice)
    if isinstance(choice, Pick):
        if choice.name not in decision.options and not decision.free_names:
            raise DeadWeightError(
                f"choose one of {', '.join(decision.options) or '(none supplied)'}"
            )
        return _pick(creation, choice.name, dice)
    if isinstance(choice, PickNames):
        return _pick_names(creation, decision, choice.names, dice)
    assert isinstance(choice, Skip)
    missing = (*creation.missing, f"{creation.stage}: skipped, to be written on the sheet")
    return _next_stage(creation.model_copy(update={"missing": missing}), dice, [])


def _roll_life_path(
    creation: Creation, dice: DiceSource, events: list[Event]
) -> tuple[Creation, list[Event]]:
    if creation.stage == Stage.QUIRK and creation.allow_choosing_quirk:
        return creation, events
    table = system_table(LIFE_PATH[creation.stage])
    rolled = roll(table.dice, dice)
    faces = tuple(die.face for pool in rolled.pools() for die in pool.dice)  # type: ignore[union-attr]
    events.append(
        event(
            "life path roll",
            f"{creation.stage} roll, {said(rolled)}",
            stage=creation.stage,
            roll=rolled.to_json(),
        )
    )
    return creation.model_copy(update={"dice": faces}), events


def _reroll(
    creation: Creation, choice: RerollDice, dice: DiceSource
) -> tuple[Creation, list[Event]]:
    size = len(creation.dice)
    chosen = tuple(sorted(set(choice.dice))) or tuple(range(size))
    if any(not 0 <= i < size for i in chosen):
        raise DeadWeightError(f"dice are numbered 0 to {size - 1}")
    if creation.options.insight_reroll == "up_to_two_dice" and len(chosen) > 2:
        raise DeadWeightError("insight re-rolls one or two dice of a life-path roll (DW-A02)")
    if creation.options.insight_reroll == "whole_roll" and len(chosen) != size:
        raise DeadWeightError("under the whole-roll reading, insight re-rolls every die")
    character = creation.character
    if choice.free:
        if not free_reroll(creation):
            raise DeadWeightError("no free re-roll: no party member has this result, or it is used")
        creation = creation.model_copy(update={"free_reroll_used": True})
        paid = "the party's free re-roll"
    else:
        if character.insight < 1:
            raise DeadWeightError("no insight left to re-roll with")
        character = character.model_copy(update={"insight": character.insight - 1})
        paid = "an insight point"
    faces = list(creation.dice)
    for i in chosen:
        faces[i] = dice.roll(6)
    which = f"{'die' if len(chosen) == 1 else 'dice'} {listed([str(i + 1) for i in chosen])}"
    text = f"{creation.stage}: re-rolled {which} with {paid}: {listed([str(f) for f in faces])}"
    updated = creation.model_copy(update={"dice": tuple(faces), "character": character})
    return updated, [event("life path reroll", text, dice=list(faces), paid=paid)]


def _keep(creation: Creation, dice: DiceSource) -> tuple[Creation, list[Event]]:
    stage = creation.stage
    entry = _entry(stage, creation.dice)
    events = [event("life path", f"{stage}: {entry.name}", stage=stage, entry=entry.name)]
    return _take_entry(creation.model_copy(update={"dice": ()}), entry, dice, events)


def _take_entry(
    creation: Creation, entry: Entry, dice: DiceSource, events: list[Event]
) -> tuple[Creation, list[Event]]:
    character = creation.character
    stage = creation.stage
    if stage == Stage.QUIRK:
        rule = next((QuirkRule(e.fields["rule"]) for e in entry.effects if e.kind == "quirk"), None)
        character = character.model_copy(
            update={"quirks": (*character.quirks, Quirk(name=entry.name, rule=rule))}
        )
        return _next_stage(creation.model_copy(update={"character": character}), dice, events)
    character = character.model_copy(
        update={"life_path": character.life_path.model_copy(update={stage.value: entry.name})}
    )
    scores = {a: character.attribute(a).score for a in Attribute}
    low, high = min(scores.values()), max(scores.values())
    creation = creation.model_copy(
        update={
            "character": character,
            "effects": tuple({"kind": e.kind, **e.fields} for e in entry.effects),
            "lowest": tuple(a for a in Attribute if scores[a] == low),
            "highest": tuple(a for a in Attribute if scores[a] == high),
        }
    )
    return _run_effects(creation, dice, events)


def _run_effects(
    creation: Creation, dice: DiceSource, events: list[Event]
) -> tuple[Creation, list[Event]]:
    """Apply the kept row's effects in order, each clamped on its own (DW-A27), stopping
    at one that needs the player to pick an attribute."""
    while creation.effects:
        effect, rest = creation.effects[0], creation.effects[1:]
        if effect.get("attribute") in ("chosen", "lowest", "highest"):
            pool = _attribute_pool(creation, effect)
            if len(pool) > 1:
                return creation, events
            effect = {**effect, "attribute": pool[0].value}
        character, more = apply_life_path_effect(creation.character, effect, dice)
        events += more
        creation = creation.model_copy(update={"character": character, "effects": rest})
    return _next_stage(creation, dice, events)


def _attribute_pool(creation: Creation, effect: dict[str, Any]) -> tuple[Attribute, ...]:
    """The attributes an effect may go on: the lowest or highest scores, or any."""
    return {"lowest": creation.lowest, "highest": creation.highest}.get(
        effect["attribute"], tuple(Attribute)
    )


def apply_life_path_effect(
    character: Character, effect: dict[str, Any], dice: DiceSource
) -> tuple[Character, list[Event]]:
    """One effect of a life-path row, with the creation clamps."""
    kind = effect["kind"]
    if kind in ("score", "proficiency"):
        attribute = Attribute(effect["attribute"])
        state = character.attribute(attribute)
        low, high = SCORE_RANGE if kind == "score" else PROFICIENCY_RANGE
        before = getattr(state, kind)
        after = min(high, max(low, before + effect["amount"]))
        if kind == "score":
            character = with_attribute(
                character,
                attribute,
                score=after,
                fatigue=min(state.fatigue, after),
                wounds=min(state.wounds, after),
            )
        else:
            character = with_attribute(character, attribute, proficiency=after)
        ignored = before + effect["amount"] - after
        note = f" ({ignored:+d} ignored: creation limits)" if ignored else ""
        label = "" if kind == "score" else " proficiency"
        return character, [
            event(kind, f"{attribute}{label} {before} → {after}{note}", attribute=attribute)
        ]
    if kind == "skill":
        return gain_skill(character, Skill.named(effect["name"]))
    if kind == "trait":
        trait = Trait.named(effect["name"])
        if character.has(trait):
            return character, [event("trait", f"already has {trait}")]
        return character.model_copy(update={"traits": tuple(sorted((*character.traits, trait)))}), [
            event("trait", f"special trait: {trait}")
        ]
    if kind == "insight":
        return character.model_copy(update={"insight": character.insight + effect["amount"]}), [
            event("insight", f"insight +{effect['amount']}")
        ]
    if kind == "silver":
        rolled = roll(effect["dice"], dice)
        return character.model_copy(update={"silver": character.silver + rolled.total}), [
            event("silver", f"silver on {said(rolled)}", roll=rolled.to_json())
        ]
    raise DeadWeightError(f"unknown life-path effect {kind!r}")


def gain_skill(character: Character, skill: Skill) -> tuple[Character, list[Event]]:
    """Gain a skill from a table or class: a skill held already is upgraded instead, if it
    can be (DW-M11, DW-A30); an advanced skill from a table is taken as given (DW-A28)."""
    skills = set(character.skills)
    if skill in skills:
        if skill.advanced is None:
            return character, [event("skill", f"{skill} again: no effect (DW-A30)")]
        skills = (skills - {skill}) | {skill.advanced}
        text = f"{skill} again: upgraded to {skill.advanced}"
    elif skill.advanced is not None and skill.advanced in skills:
        return character, [event("skill", f"{skill}: already has {skill.advanced}")]
    elif skill.basic is not None and skill.basic in skills:
        skills = (skills - {skill.basic}) | {skill}
        text = f"{skill.basic} upgraded to {skill}"
    else:
        skills.add(skill)
        text = f"skill: {skill}"
    return character.model_copy(update={"skills": tuple(sorted(skills))}), [event("skill", text)]


def learn_skill(character: Character, skill: Skill) -> tuple[Character, list[Event]]:
    """Learn a skill in play: an advanced skill needs its basic one first (DW-M11)."""
    if skill.basic is not None and not character.has(skill.basic) and not character.has(skill):
        raise DeadWeightError(f"learn {skill.basic} before {skill}")
    return gain_skill(character, skill)


def _next_stage(
    creation: Creation, dice: DiceSource, events: list[Event]
) -> tuple[Creation, list[Event]]:
    if not creation.queue:
        return _finish(creation, dice, events)
    stage, queue = creation.queue[0], creation.queue[1:]
    creation = creation.model_copy(update={"stage": stage, "queue": queue, "effects": ()})
    if stage in LIFE_PATH:
        return _roll_life_path(creation, dice, events)
    if stage == Stage.CLASS and creation.wanted_class is not None:
        return _take_class(creation, creation.wanted_class, dice, events)
    if stage == Stage.MANEUVER and not _decision(creation).options:
        missing = (*creation.missing, "maneuver: no maneuver list supplied for the background")
        return _next_stage(creation.model_copy(update={"missing": missing}), dice, events)
    return creation, events


def _take_class(
    creation: Creation, cls: CharacterClass, dice: DiceSource, events: list[Event] | None = None
) -> tuple[Creation, list[Event]]:
    events = list(events or [])
    data = creation_data().classes[cls]
    character = creation.character.model_copy(update={"character_class": cls})
    events.append(event("class", f"class: {cls.title()}", character_class=cls))
    character, more = apply_life_path_effect(
        character, {"kind": "proficiency", "attribute": data.proficiency.value, "amount": 1}, dice
    )
    events += more
    for trait in data.traits:
        character, more = apply_life_path_effect(character, {"kind": "trait", "name": trait}, dice)
        events += more
    for skill in data.skills:
        character, more = gain_skill(character, skill)
        events += more
    creation = creation.model_copy(
        update={"character": character, "stage": Stage.CLASS, "queue": CLASS_STAGES[cls]}
    )
    return _next_stage(creation, dice, events)


def _pick(creation: Creation, name: str, dice: DiceSource) -> tuple[Creation, list[Event]]:
    stage = creation.stage
    character = creation.character
    if stage == Stage.QUIRK:
        if name == ROLL_QUIRK:
            creation = creation.model_copy(update={"allow_choosing_quirk": False})
            return _roll_life_path(creation, dice, [])
        chosen = next(
            (e for e in system_table("quirks").entries if e.name == name),
            Entry(roll=0, name=name),
        )
        return _take_entry(creation, chosen, dice, [event("quirk", f"quirk chosen: {name}")])
    events = [event(stage.value, f"{stage}: {name}")]
    if stage in (Stage.SCHOOL, Stage.KIT):
        field = "school" if stage == Stage.SCHOOL else "cleric_kit"
        creation = creation.model_copy(
            update={"character": character.model_copy(update={field: name}), "kit": name}
        )
    elif stage == Stage.BACKGROUND:
        creation = creation.model_copy(
            update={"character": character.model_copy(update={"background": name})}
        )
        creation, more = _background(creation, name)
        events += more
    elif stage == Stage.MANEUVER:
        creation = creation.model_copy(
            update={"character": character.model_copy(update={"maneuvers": (name,)})}
        )
    else:
        assert stage == Stage.GOD
        creation = creation.model_copy(
            update={"character": character.model_copy(update={"god": name})}
        )
    return _next_stage(creation, dice, events)


def _background(creation: Creation, name: str) -> tuple[Creation, list[Event]]:
    background = creation.supplement.backgrounds.get(name)
    if background is None:
        missing = (
            *creation.missing,
            f"background {name}: its special trait, gear, silver and maneuvers are in another "
            "book and were not supplied, so none came with it",
        )
        return creation.model_copy(update={"missing": missing}), []
    character = creation.character
    events: list[Event] = []
    for trait in background.traits:
        if not character.has(trait):
            character = character.model_copy(
                update={"traits": tuple(sorted((*character.traits, trait)))}
            )
            events.append(event("trait", f"special trait: {trait}"))
    for skill in background.skills:
        character, more = gain_skill(character, skill)
        events += more
    return creation.model_copy(update={"character": character}), events


def _pick_names(
    creation: Creation, decision: Decision, names: tuple[str, ...], dice: DiceSource
) -> tuple[Creation, list[Event]]:
    if len(set(names)) != len(names) or any(not n.strip() for n in names):
        raise DeadWeightError("give distinct, non-empty names")
    if len(names) != decision.count:
        raise DeadWeightError(f"choose exactly {decision.count}")
    if not decision.free_names and any(n not in decision.options for n in names):
        raise DeadWeightError(f"choose from: {', '.join(decision.options)}")
    character = creation.character
    magic = character.magic
    if creation.stage == Stage.SPELLS:
        magic = magic.model_copy(update={"spells_known": names})
    else:
        magic = magic.model_copy(update={"prayers_known": names})
    creation = creation.model_copy(
        update={"character": character.model_copy(update={"magic": magic})}
    )
    return _next_stage(
        creation, dice, [event(creation.stage.value, f"{creation.stage}: {', '.join(names)}")]
    )


def _finish(
    creation: Creation, dice: DiceSource, events: list[Event]
) -> tuple[Creation, list[Event]]:
    """The starting gear: the class kit and background gear, 1d6 torches, a ration, and the
    camping supply (3d!) and bandage (2d!) if their risk dice trigger (DW-M05)."""
    character = creation.character
    start = creation_data().start
    supplement = creation.supplement
    items: list[KitItem] = []
    cls = character.character_class
    inventory = character.inventory
    if cls is not None and creation.kit is not None:
        kit = next(k for k in creation_data().classes[cls].kits if k.name == creation.kit)
        for container in kit.containers:
            inventory = add_container(inventory, container)
        items += kit.items
        character, more = _coins(character, kit.silver, kit.gold, dice)
        events += more
    background = supplement.backgrounds.get(character.background or "")
    if background is not None:
        items += background.items
        character, more = _coins(character, background.silver, 0, dice)
        events += more
    for item in items:
        stats = supplement.with_stats(item.as_item())
        where = (
            item.place if item.place is not None else (PlaceKind.TORSO if stats.armour else None)
        )
        try:
            inventory = stow(inventory, stats, where)
        except ValueError:
            inventory = stow(inventory, stats)
    torches = roll(start.torches, dice)
    events.append(event("gear", f"torches on {said(torches)}", roll=torches.to_json()))
    gear = [start.torch] * torches.total + [start.ration]
    for item, count in (
        (start.camping_supply, start.camping_supply_risk),
        (start.bandage, start.bandage_risk),
    ):
        triggered, rolled = risk(count, dice)
        got = "one packed" if triggered else "none"
        told = f"{item.name} on {said(rolled)}: {got}"
        events.append(event("gear", told, roll=rolled.to_json()))
        if triggered:
            gear.append(item)
    for item in gear:
        inventory = stow(inventory, supplement.with_stats(item))
    character = revise(character, inventory=inventory)
    events.append(event("done", f"{character.name} is ready ({character.insight} insight left)"))
    return creation.model_copy(update={"character": character, "stage": Stage.DONE}), events


def _coins(
    character: Character, silver: str | None, gold: int, dice: DiceSource
) -> tuple[Character, list[Event]]:
    if silver is None:
        return character, []
    rolled = roll(silver, dice)
    updated = character.model_copy(
        update={"silver": character.silver + rolled.total, "gold": character.gold + gold}
    )
    text = f"silver on {said(rolled)}" + (f", gold {gold}" if gold else "")
    return updated, [event("silver", text, roll=rolled.to_json())]


# random characters ---------------------------------------------------------------------


def random_choice(creation: Creation, dice: DiceSource) -> AnyChoice:
    """A random legal choice (dice from `dice`): rolls are kept, options picked at random,
    spells and prayers sampled from the lists, and anything not supplied skipped."""
    decision = creation.decision()
    assert decision is not None
    if "keep" in decision.kinds:
        return Keep()
    if decision.kinds == ("attribute",):
        return PickAttribute(attribute=Attribute(_any(decision.options, dice)))
    if decision.kinds == ("class",):
        return PickClass(character_class=CharacterClass(_any(decision.options, dice)))
    if "names" in decision.kinds:
        if decision.free_names or not decision.options:
            return Skip()
        pool = list(decision.options)
        chosen = []
        for _ in range(decision.count):
            chosen.append(pool.pop(dice.roll(len(pool)) - 1))
        return PickNames(names=tuple(chosen))
    if decision.stage == Stage.QUIRK:
        return Pick(name=ROLL_QUIRK)
    if decision.options:
        return Pick(name=_any(decision.options, dice))
    return Skip()


def _any(options: tuple[str, ...], dice: DiceSource) -> str:
    return options[dice.roll(len(options)) - 1]


def random_character(
    dice: DiceSource,
    *,
    name: str = "Unnamed",
    character_class: CharacterClass | None = None,
    options: Options = DEFAULT,
    supplement: Supplement | None = None,
) -> tuple[Creation, list[Event]]:
    """A whole character made with random choices (reproducible with `SeededDice`)."""
    creation, events = begin_creation(
        dice, name=name, character_class=character_class, options=options, supplement=supplement
    )
    while not creation.done:
        creation, more = creation.choose(random_choice(creation, dice), dice)
        events += more
    return creation, events


# after creation ----------------------------------------------------------------------


def give_camping_supply(party: list[Character], recipient: int) -> list[Character]:
    """If nobody in the party got a camping supply, one member may take one (DW-M05)."""
    start = creation_data().start
    if any(c.inventory.has(start.camping_supply.tags[0]) for c in party):
        raise DeadWeightError("someone in the party already has a camping supply")
    if not 0 <= recipient < len(party):
        raise DeadWeightError(f"choose a party member 0 to {len(party) - 1}")
    updated = list(party)
    member = updated[recipient]
    updated[recipient] = member.model_copy(
        update={"inventory": stow(member.inventory, start.camping_supply)}
    )
    return updated


def unveil_true_past(character: Character, dice: DiceSource) -> tuple[Character, list[Event]]:
    """Quirk 24, once in a camp phase: re-roll the infancy and take the new entry instead
    of the old. The old entry's score, proficiency, skill and trait effects are taken back
    (silver and insight, long spent, stay); the new entry applies without creation limits,
    which hold only during creation (DW-X13)."""
    quirk = next((q for q in character.quirks if q.rule == QuirkRule.DEEP_AND_MURKY_PAST), None)
    if quirk is None:
        raise DeadWeightError(f"{character.label} has no deep and murky past to unveil")
    table = system_table("infancy")
    old = next((e for e in table.entries if e.name == character.life_path.infancy), None)
    result = table.roll(dice)
    events = [
        event(
            "true past",
            f"{character.label}'s infancy re-rolled, {said(result.roll)}: {result.entry.name}",
        )
    ]
    if old is not None:
        character, more = _take_back(character, old)
        events += more
    for effect in result.entry.effects:
        fields = {"kind": effect.kind, **effect.fields}
        if fields.get("attribute") in ("chosen", "lowest", "highest"):
            events.append(
                event(
                    "choose", f"{character.label}'s player picks the attribute for {effect.kind} +1"
                )
            )
            continue
        character, more = _apply_uncapped(character, fields, dice)
        events += more
    quirks = tuple(q for q in character.quirks if q is not quirk)
    spent = Quirk(name=f"{quirk.name} (unveiled)")
    life_path = character.life_path.model_copy(update={"infancy": result.entry.name})
    character = revise(character, quirks=(*quirks, spent), life_path=life_path)
    return character, about(events, character.label)


def _take_back(character: Character, entry: Entry) -> tuple[Character, list[Event]]:
    events: list[Event] = []
    for effect in entry.effects:
        if effect.kind in ("score", "proficiency") and effect.fields["attribute"] in tuple(
            Attribute
        ):
            attribute = Attribute(effect.fields["attribute"])
            state = character.attribute(attribute)
            value = max(0, getattr(state, effect.kind) - effect.fields["amount"])
            if effect.kind == "score":
                wounds = min(state.wounds, value)
                character = with_attribute(
                    character,
                    attribute,
                    score=value,
                    wounds=wounds,
                    fatigue=min(state.fatigue, value - wounds),
                )
            else:
                character = with_attribute(character, attribute, proficiency=value)
        elif effect.kind == "skill":
            skill = Skill.named(effect.fields["name"])
            character = character.model_copy(
                update={"skills": tuple(s for s in character.skills if s != skill)}
            )
        elif effect.kind == "trait":
            trait = Trait.named(effect.fields["name"])
            character = character.model_copy(
                update={"traits": tuple(t for t in character.traits if t != trait)}
            )
    events.append(
        event("true past", f"{character.label}'s old infancy ({entry.name}) is taken back")
    )
    return character, events


def _apply_uncapped(
    character: Character, effect: dict[str, Any], dice: DiceSource
) -> tuple[Character, list[Event]]:
    if effect["kind"] in ("score", "proficiency"):
        attribute = Attribute(effect["attribute"])
        state = character.attribute(attribute)
        value = max(0, getattr(state, effect["kind"]) + effect["amount"])
        return with_attribute(character, attribute, **{effect["kind"]: value}), [
            event(effect["kind"], f"{attribute} {effect['kind']} {value}")
        ]
    return apply_life_path_effect(character, effect, dice)
