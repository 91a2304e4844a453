"""Ability rolls (§ Ability Rolls, § Challenge Levels, § Encumbrance): a d20 equal to or under
the score passes; a group rolls one d20 against its best score; trivial and impossible
actions need no roll; an encumbered character's AGI roll also needs a STR roll.
"""

from __future__ import annotations

from typing import Literal, TypeVar

from pydantic import Field, model_validator

from tabletop.systems.rollunder.carrying import encumbered
from tabletop.systems.rollunder.character import MAX_OMENS, MAX_SCORE, Character, check_sheet
from tabletop.systems.rollunder.flow import (
    Procedure,
    RollAnswer,
    RollKind,
    RollRequest,
    omens_spent_by,
    rolled,
)
from tabletop.systems.rollunder.options import AGI, STR, RollUnderOptions
from tabletop.systems.rollunder.records import Event, Model

ChallengeLevel = Literal["trivial", "challenging", "impossible"]
D20 = "1d20"
MAX_GROUP = 50
"""Rollers in one collective roll."""
GROUP = "the group"
"""Whom a collective roll's lines and its single d20 are about."""


T = TypeVar("T")


def distinct_names(model: T, names: list[str]) -> T:
    """`model` if no name repeats among `names` (a validator's refusal otherwise)."""
    if len(set(names)) != len(names):
        raise ValueError("everyone taking part needs a different name")
    return model


def passes(face: int, score: int, options: RollUnderOptions) -> bool:
    """A d20 face against a score (CR-M01, CR-A17): equal or under passes."""
    if options.natural_results == "one_passes_twenty_fails" and face in (1, 20):
        return face == 1
    return face <= score


class Roller(Model):
    """Who rolls and against what, without a whole sheet: the score, the STR score when an
    encumbered AGI roll adds a STR roll (else None), omens they may spend on re-rolls, and
    whether they are incapacitated."""

    name: str = Field(min_length=1, max_length=60)
    score: int = Field(ge=0, le=MAX_SCORE)
    strength: int | None = Field(default=None, ge=0, le=MAX_SCORE)
    omens: int = Field(default=0, ge=0, le=MAX_OMENS)
    incapacitated: bool = False

    @classmethod
    def of(
        cls,
        character: Character,
        ability: str,
        options: RollUnderOptions,
        encumbered_now: bool | None = None,
    ) -> Roller:
        """The roller a sheet makes for `ability`; encumbrance comes from its load unless
        given (CR-M06)."""
        sheet = character.require_alive()
        heavy = encumbered_now
        if heavy is None:
            heavy = sheet.load is not None and encumbered(sheet.load, options)
        return cls(
            name=sheet.name,
            score=sheet.score(ability),
            strength=sheet.score(STR) if heavy and ability == AGI else None,
            omens=sheet.omens,
            incapacitated=sheet.incapacitated,
        )

    def always(self, options: RollUnderOptions) -> bool | None:
        """True if every roll passes, False if none can, None if it depends on the die."""
        if self.incapacitated and options.incapacitated_rolls == "fail":
            return False
        if options.natural_results != "none":
            return None
        scores = [self.score] if self.strength is None else [self.score, self.strength]
        if all(score >= 20 for score in scores):
            return True
        if any(score <= 0 for score in scores):
            return False
        return None


def _request(
    roller: Roller, kind: RollKind, purpose: str, omens: int, score: int | None = None
) -> RollRequest:
    return RollRequest(
        kind=kind,
        expression=D20,
        purpose=purpose,
        owner=roller.name,
        payers={roller.name: omens},
        score=roller.score if score is None else score,
    )


def ability_check(
    roller: Roller, ability: str, kind: RollKind, purpose: str, options: RollUnderOptions,
    log: list[Event],
) -> Procedure[tuple[bool, int]]:  # fmt: skip
    """One ability roll, with the extra STR roll when `roller.strength` is set (CR-A02).

    Returns whether it passed and how many omens the roller spent on re-rolls."""
    answer = yield from rolled(_request(roller, kind, purpose, roller.omens), log)
    spent = omens_spent_by(roller.name, answer)
    passed = passes(answer.total, roller.score, options)
    log.append(_roll_event("ability_roll", roller.name, ability, roller.score, passed, answer))
    if roller.strength is None or (not passed and options.moot_strength_rolls == "skip"):
        return passed, spent
    held_up, more = yield from _strength_check(roller, roller.omens - spent, options, log)
    return passed and held_up, spent + more


def _strength_check(
    roller: Roller, omens: int, options: RollUnderOptions, log: list[Event]
) -> Procedure[tuple[bool, int]]:
    assert roller.strength is not None
    purpose = f"{roller.name}'s STR roll for carrying a heavy load"
    answer = yield from rolled(_request(roller, "strength", purpose, omens, roller.strength), log)
    held_up = passes(answer.total, roller.strength, options)
    log.append(_roll_event("strength_roll", roller.name, STR, roller.strength, held_up, answer))
    return held_up, omens_spent_by(roller.name, answer)


def _roll_event(
    kind: Literal["ability_roll", "strength_roll"],
    name: str,
    ability: str,
    score: int,
    passed: bool,
    answer: RollAnswer,
) -> Event:
    extra = " (the extra roll of an encumbered AGI roll)" if kind == "strength_roll" else ""
    return Event.about(
        name,
        kind,
        f"{name} rolls {answer.total} against {ability} {score}: "
        f"{'pass' if passed else 'fail'}{extra}",
        dice=answer.result,
        ability=ability,
        score=score,
        face=answer.total,
        passed=passed,
    )


def group_check(
    rollers: tuple[Roller, ...], ability: str, level: ChallengeLevel, options: RollUnderOptions,
    log: list[Event],
) -> Procedure[tuple[bool, bool, dict[str, int]]]:  # fmt: skip
    """An ability roll by one roller or a group at a challenge level.

    A group rolls one d20, which anyone in it may re-roll with an omen, and passes if any
    member would pass (CR-M02). An encumbered member's STR roll is rolled only while the
    group's result depends on it (CR-A02). Returns passed, rolled, omens spent by name."""
    spent = {roller.name: 0 for roller in rollers}
    able = [r for r in rollers if not r.incapacitated or options.incapacitated_rolls == "roll"]
    who = rollers[0].name if len(rollers) == 1 else GROUP
    automatic = _automatic(who, _named(who, rollers), ability, level, bool(able))
    if automatic is not None:
        log.append(automatic)
        return bool(automatic.values["passed"]), False, spent
    if len(rollers) == 1:
        passed, spent[who] = yield from ability_check(
            rollers[0], ability, "ability", f"{who}'s {ability} roll", options, log
        )
        return passed, True, spent
    answer = yield from rolled(
        RollRequest(
            kind="ability",
            expression=D20,
            purpose=f"the {ability} roll of {_named(GROUP, rollers)}",
            owner=who,
            payers={roller.name: roller.omens for roller in rollers},
            score=max(roller.score for roller in able),
        ),
        log,
    )
    spent = {roller.name: omens_spent_by(roller.name, answer) for roller in rollers}
    best = max(roller.score for roller in able)
    log.append(
        Event.about(
            None,
            "ability_roll",
            group_roll_text(_named(GROUP, rollers), answer.total, ability, best),
            dice=answer.result,
            ability=ability,
            score=best,
            face=answer.total,
            group=_named(GROUP, rollers),
        )
    )
    passing = [roller for roller in able if passes(answer.total, roller.score, options)]
    passed = any(roller.strength is None for roller in passing)
    for roller in passing:
        if passed:
            break
        passed, more = yield from _strength_check(
            roller, roller.omens - spent[roller.name], options, log
        )
        spent[roller.name] += more
    log.append(
        Event.about(
            None,
            "group_result",
            f"{_named(GROUP, rollers)} {'passes' if passed else 'fails'} the {ability} roll",
            ability=ability,
            passed=passed,
        )
    )
    return passed, True, spent


def group_roll_text(group: object, face: object, ability: object, best: object) -> str:
    """A group's d20 against its best score (a table may keep that score apart, CR-S04)."""
    return f"{group} rolls {face} against its best {ability} {best}"


def _named(who: str, rollers: tuple[Roller, ...]) -> str:
    """Who rolls, as a line names them: one roller, or the group and who is in it."""
    return who if who != GROUP else f"{GROUP} ({', '.join(r.name for r in rollers)})"


def _automatic(
    who: str, named: str, ability: str, level: ChallengeLevel, can_roll: bool
) -> Event | None:
    """The result without a roll, if there is one (CR-M05, CR-A21), as an event."""
    if level == "trivial":
        passed, reason = True, "trivial: no roll needed"
    elif level == "impossible":
        passed, reason = False, "impossible: no roll can succeed"
    elif not can_roll:
        passed, reason = False, "incapacitated: unable to act or defend"
    else:
        return None
    return Event.about(
        None if who == GROUP else who,
        "automatic_result",
        f"{named} {'passes' if passed else 'fails'} the {ability} roll ({reason})",
        ability=ability,
        level=level,
        passed=passed,
    )


class AbilityOutcome(Model):
    character: Character
    passed: bool
    rolled: bool


class AbilityRoll(Model):
    """A character's ability roll at a challenge level (CR-M01, CR-M05, CR-M06)."""

    intent: Literal["ability_roll"] = "ability_roll"
    character: Character
    ability: str
    level: ChallengeLevel = "challenging"
    encumbered: bool | None = None
    """Whether the character is encumbered; None works it out from the sheet's load."""

    def procedure(self, options: RollUnderOptions, log: list[Event]) -> Procedure[AbilityOutcome]:
        sheet = check_sheet(self.character.require_alive(), options)
        roller = Roller.of(sheet, self.ability, options, self.encumbered)
        passed, rolled_now, spent = yield from group_check(
            (roller,), self.ability, self.level, options, log
        )
        if spent[sheet.name]:
            sheet = sheet.with_changes(omens=sheet.omens - spent[sheet.name])
        return AbilityOutcome(character=sheet, passed=passed, rolled=rolled_now)


class GroupOutcome(Model):
    characters: tuple[Character, ...]
    passed: bool
    rolled: bool


class CollectiveRoll(Model):
    """One d20 for a group of characters: it passes if any member would pass (CR-M02)."""

    intent: Literal["collective_roll"] = "collective_roll"
    characters: tuple[Character, ...] = Field(min_length=1, max_length=MAX_GROUP)
    ability: str
    level: ChallengeLevel = "challenging"

    @model_validator(mode="after")
    def _distinct_names(self) -> CollectiveRoll:
        return distinct_names(self, [member.name for member in self.characters])

    def procedure(self, options: RollUnderOptions, log: list[Event]) -> Procedure[GroupOutcome]:
        sheets = [check_sheet(member.require_alive(), options) for member in self.characters]
        rollers = tuple(Roller.of(sheet, self.ability, options) for sheet in sheets)
        passed, rolled_now, spent = yield from group_check(
            rollers, self.ability, self.level, options, log
        )
        paid = tuple(sheet.with_changes(omens=sheet.omens - spent[sheet.name]) for sheet in sheets)
        return GroupOutcome(characters=paid, passed=passed, rolled=rolled_now)


class ScoreOutcome(Model):
    passed: bool
    rolled: bool
    omens_spent: dict[str, int]


class ScoreRoll(Model):
    """An ability roll against bare scores, no sheet needed: one roller, or several making
    a collective roll."""

    intent: Literal["score_roll"] = "score_roll"
    rollers: tuple[Roller, ...] = Field(min_length=1, max_length=MAX_GROUP)
    ability: str = Field(default="score", min_length=1, max_length=20)
    level: ChallengeLevel = "challenging"

    @model_validator(mode="after")
    def _distinct_names(self) -> ScoreRoll:
        return distinct_names(self, [roller.name for roller in self.rollers])

    def procedure(self, options: RollUnderOptions, log: list[Event]) -> Procedure[ScoreOutcome]:
        passed, rolled_now, spent = yield from group_check(
            self.rollers, self.ability, self.level, options, log
        )
        return ScoreOutcome(passed=passed, rolled=rolled_now, omens_spent=spent)
