"""Checks and contests at a 2d6 table (§ Checks and Contests, "Doing Stuff"): 2d6 + a
score against a DC or a defender's score, and two characters' rolls against each other."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from tabletop.asks import gm_lever
from tabletop.dice import DiceSource
from tabletop.offers import Choice, Offer, offer
from tabletop.session import (
    CharacterIntent,
    Event,
    Frozen,
    Member,
    RollMode,
    Visibility,
    in_mode,
    note,
    rolled_for,
)
from tabletop.systems.ap2d6.checks import check, check_against, contest
from tabletop.systems.ap2d6.errors import Ap2d6Error
from tabletop.systems.ap2d6.records import roll_2d6
from tabletop.systems.ap2d6.rounds import Combat, double_six_temp_ap, roll_check
from tabletop.systems.ap2d6.scores import STANDARD_SCORES, incapable
from tabletop.systems.ap2d6.sheet import Character
from tabletop.systems.ap2d6.table import Ap2d6Table, Id, fight_of, sheet_of, with_fight
from tabletop.systems.ap2d6.told import plain, told


class CheckIntent(CharacterIntent):
    """2d6 + a character's score against a DC, or against a defender's score (RU-M10..M12)."""

    kind: Literal["check"] = "check"
    score: str = Field(min_length=1, max_length=40)
    dc: int | None = Field(default=None, ge=-100, le=100)
    against: int | None = Field(default=None, ge=-100, le=100)
    modifier: int = Field(default=0, ge=-100, le=100)
    defender_wins_ties: bool = False
    mode: RollMode = RollMode.PUBLIC


class ContestIntent(Frozen):
    """Two characters roll 2d6 + a score each; the higher total wins (RU-M11)."""

    kind: Literal["contest"] = "contest"
    first: Id
    second: Id
    score: str = Field(min_length=1, max_length=40)
    versus: str = Field(min_length=1, max_length=40)
    redo_ties: bool = False


def scores_of(state: Ap2d6Table, cids: tuple[str, ...]) -> tuple[str, ...]:
    """The scores to pick from: the book's standard six, then every other score and
    [special] score on these characters' sheets (RU-S07)."""
    found = dict.fromkeys(STANDARD_SCORES)
    for cid in cids:
        sheet = state.characters[cid].sheet
        found.update(dict.fromkeys((*sheet.scores, *sheet.special)))
    return tuple(found)


def check_offers(state: Ap2d6Table, up: tuple[str, ...], sets_dc: bool) -> list[Offer]:
    """A check for each character of the member's who is up, with a score from the list;
    its DC only for whoever sets difficulty at this table, the GM unless handed over
    (RU-S06)."""
    if not up:
        return []
    dc = {"dc": Choice(help="the DC", example=8)} if sets_dc else {}
    return [
        offer(
            "check",
            "a check with a score",
            character=Choice(values=up),
            score=Choice(values=scores_of(state, up)),
            **dc,
            mode=Choice(values=tuple(RollMode)),
        )
    ]


def contest_offers(state: Ap2d6Table) -> list[Offer]:
    """The GM's: a contest between any two characters, each with a score from the list."""
    everyone = tuple(state.characters)
    if len(everyone) < 2:
        return []
    scores = scores_of(state, everyone)
    return [
        offer(
            "contest",
            "a contest between two characters",
            first=Choice(values=everyone),
            second=Choice(values=everyone),
            score=Choice(values=scores),
            versus=Choice(values=scores),
        )
    ]


def check_step(
    state: Ap2d6Table, intent: CheckIntent, member: Member, dice: DiceSource
) -> tuple[Ap2d6Table, list[Event]]:
    """A check, its result the character's part of the line (a hidden NPC's reaches the
    players as `?`); made blind or for the GM, the others read only that a roll was made,
    as of any character's (RU-N05)."""
    sheet = sheet_of(state, intent.character)
    fight = fight_of(state, sheet.name)
    if _sets_difficulty(intent):
        gm_lever(member, state.options.players_set_difficulty, "the DC and its bonuses")
    if intent.dc is not None and intent.against is not None:
        raise Ap2d6Error("a check is against a DC or against a score, not both")
    with rolled_for(intent.character):
        if intent.dc is None and intent.against is None:
            state, events = judged(state, intent, sheet, fight, dice)
        else:
            state, events = _rolled(state, intent, sheet, fight, dice)
    if intent.mode == RollMode.PUBLIC:
        return state, events
    who = member.name or member.id
    return state, [
        e if e.visibility == Visibility.GM else in_mode(plain(e), intent.mode, who) for e in events
    ]


def _sets_difficulty(intent: CheckIntent) -> bool:
    """Whether a check names what the book gives the GM: its DC, a defender's score, a
    bonus or penalty, who wins ties (§ A Simple Example of a "Check")."""
    return (
        intent.dc is not None
        or intent.against is not None
        or intent.modifier != 0
        or intent.defender_wins_ties
    )


def judged(
    state: Ap2d6Table,
    intent: CheckIntent,
    sheet: Character,
    fight: Combat | None,
    dice: DiceSource,
) -> tuple[Ap2d6Table, list[Event]]:
    """A roll with no DC on the table: 2d6 + the score, which the GM judges against the DC
    they know (§ A Simple Example of a "Check", RU-S06). A score that cannot be used fails
    without a die (RU-A03); in a fight, double 6s give a temp AP (RU-A13)."""
    owners, name = state.owners, sheet.name
    if fight is not None and fight.character(name).life != "up":
        raise Ap2d6Error(f"{name} is {sheet.public_life} and cannot act")
    score = sheet.score(intent.score)
    cannot = incapable(score, state.options)
    if cannot is not None:
        return state, [note("check", f"{name} ({intent.score}): fails: {cannot}")]
    rolled = roll_2d6(dice)
    bonus = score + sheet.check_modifier(intent.score)
    said = owners.part(name, f"{rolled} {bonus:+d} = {rolled.total + bonus}")
    text = f"{name} ({intent.score}): {said}, for the GM to judge"
    if rolled.double_one:
        text += " (double 1s: a critical failure)"
    elif rolled.double_six:
        text += " (double 6s)"
    events = [note("check", text, total=rolled.total + bonus, score=intent.score)]
    if fight is None:
        return state, events
    fight, temp = double_six_temp_ap(fight, name, rolled, False, state.options)
    return with_fight(state, fight), events + told(temp, owners, name)


def _rolled(
    state: Ap2d6Table,
    intent: CheckIntent,
    sheet: Character,
    fight: Combat | None,
    dice: DiceSource,
) -> tuple[Ap2d6Table, list[Event]]:
    """The check's roll: in a fight against a DC with the fight's rules (a double 6's temp
    AP), else as the rules' check against a DC or a score."""
    owners = state.owners
    if intent.against is None and fight is not None:
        fight, _, raw = roll_check(
            fight,
            sheet.name,
            intent.score,
            intent.dc or 0,
            dice,
            defender_wins_ties=intent.defender_wins_ties,
            options=state.options,
            owners=owners,
        )
        return with_fight(state, fight), told(raw, owners, sheet.name)
    score = sheet.score(intent.score)
    modifier = intent.modifier + sheet.check_modifier(intent.score)
    if intent.against is not None:
        result = check_against(
            score, intent.against, dice, modifier=modifier, options=state.options
        )
    else:
        result = check(
            score,
            intent.dc or 0,
            dice,
            modifier=modifier,
            defender_wins_ties=intent.defender_wins_ties,
            options=state.options,
        )
    text = f"{sheet.name} ({intent.score}): {owners.part(sheet.name, result)}"
    return state, [note("check", text, **result.model_dump(mode="json"))]


def contest_step(state: Ap2d6Table, intent: ContestIntent, dice: DiceSource) -> list[Event]:
    """Two characters' rolls against each other; a hidden NPC's side reaches the players as
    `?` (RU-N05)."""
    first, second = sheet_of(state, intent.first), sheet_of(state, intent.second)
    result = contest(
        first.score(intent.score),
        second.score(intent.versus),
        dice,
        full_tie="redo" if intent.redo_ties else None,
        options=state.options,
        whose=(intent.first, intent.second),
    )
    kept_sides = (state.owners.kept_id(first.name), state.owners.kept_id(second.name))
    said = result.describe(kept=kept_sides)
    text = f"{first.name} ({intent.score}) vs {second.name} ({intent.versus}): {said}"
    return [note("contest", text, **result.model_dump(mode="json"))]
