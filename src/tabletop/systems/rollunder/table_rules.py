"""Rules that may stop for a decision, at the table: ability rolls, contests, hits, damage,
corruption, ability loss and death's door (§ Ability Rolls, § Ability Contests, § Damage,
§ Critical damage, § Corruption, § Health loss).

A rule that stops for a decision (an omen re-roll, a death save, the GM's pick of an item)
waits in the table's `pending` resolution until whoever must answer sends an `answer`: the
player who owns the character, the asker for bare scores and a group's roll, the GM for the
GM's picks; the GM may answer anything (CR-S03). While it waits nothing else changes the
table.
"""

from __future__ import annotations

from typing import Any

from tabletop.asks import gm_lever
from tabletop.dice import DiceSource
from tabletop.errors import PermissionDenied
from tabletop.offers import Offer
from tabletop.session import Event, Member, RollMode, controls, hidden, note
from tabletop.systems.rollunder.abilities import (
    AbilityRoll,
    CollectiveRoll,
    GroupOutcome,
    Roller,
    ScoreOutcome,
    ScoreRoll,
)
from tabletop.systems.rollunder.character import Character
from tabletop.systems.rollunder.contests import Contest, ContestOutcome
from tabletop.systems.rollunder.corruption import SufferCorruption
from tabletop.systems.rollunder.damage import DamageDice, Hit, RollDamage, SufferHit, parse_damage
from tabletop.systems.rollunder.dying import EndOfActivation, LoseAbility
from tabletop.systems.rollunder.errors import RollUnderError, validated
from tabletop.systems.rollunder.fight import Next, followed
from tabletop.systems.rollunder.followers import loyalty_roll
from tabletop.systems.rollunder.intents import (
    AbilityRollIntent,
    Answer,
    ChanceRollIntent,
    CollectiveRollIntent,
    ContestIntent,
    LoseAbilityIntent,
    LoyaltyRollIntent,
    RollDamageIntent,
    RuleIntent,
    ScoreRollIntent,
    SufferCorruptionIntent,
    SufferHitIntent,
)
from tabletop.systems.rollunder.offers import decider
from tabletop.systems.rollunder.omens import ChanceRoll
from tabletop.systems.rollunder.resolution import Decision, Intent, Outcome, Replay, Resolution
from tabletop.systems.rollunder.table import Id, Pending, RollUnderTable, with_sheets
from tabletop.systems.rollunder.telling import Telling


def answer_offers(state: RollUnderTable, pending: Pending, member: Member) -> list[Offer]:
    decision = pending.resolution.decision
    assert decision is not None  # a finished rule is never left pending
    if not (member.is_gm or sees_decision(state, pending, decision, member)):
        return []
    allowed = tuple(
        {"kind": "answer", "choice": choice}
        for choice in decision.choices
        if member.is_gm or decider(state, pending, decision, choice) == member.id
    )
    return [Offer(kind="answer", text=decision.purpose, intents=allowed)] if allowed else []


def sees_decision(
    state: RollUnderTable, pending: Pending, decision: Decision, member: Member
) -> bool:
    return Telling.at(state, member, pending).shows(decision, member)


def start(
    state: RollUnderTable, intent: RuleIntent, member: Member, dice: DiceSource
) -> tuple[RollUnderTable, list[Event]]:
    """Begin a rule on the table's sheets: told up to its first decision, or to its end."""
    gm_sets(state, intent, member)
    rule, taking_part = rule_for(state, intent, member)
    mode = getattr(intent, "mode", RollMode.PUBLIC)
    return begin(state, rule, taking_part, mode, member, dice)


def begin(
    state: RollUnderTable,
    rule: Intent,
    taking_part: dict[str, Id],
    mode: RollMode,
    member: Member,
    dice: DiceSource,
    attack: bool = False,
) -> tuple[RollUnderTable, list[Event]]:
    """Run `rule` on the characters taking part, as `member` asked, to its first decision
    or its end (`attack`: a step of the attack under way, which goes on once it settles)."""
    telling = Telling.of(state, member, rule, taking_part, mode)
    resolution, where = Resolution.start(rule, dice, state.options, telling.rolling)
    pending = Pending(
        resolution=resolution, asker=member.id, mode=mode, characters=taking_part, attack=attack
    )
    after, told = advanced(state, pending, where, member, dice)
    opening = [telling.opening(rule)] if isinstance(rule, Contest) else []
    return after, [*opening, *told]


def gm_sets(state: RollUnderTable, intent: RuleIntent, member: Member) -> None:
    """Refuse a player's intent that sets what the chapter gives the GM: the challenge level
    (§ Challenge Levels), the scores a roll is made against, and harm taken outside a rule
    that deals it, unless the table hands them over (CR-S10)."""
    handed = state.options.players_set_difficulty
    if getattr(intent, "level", "challenging") != "challenging":
        gm_lever(member, handed, "the challenge level")
    if isinstance(intent, ScoreRollIntent) or (
        isinstance(intent, ContestIntent) and any(side.scores for side in intent.sides)
    ):
        gm_lever(member, handed, "the scores rolled against")
    if isinstance(intent, SufferHitIntent | SufferCorruptionIntent | LoseAbilityIntent):
        gm_lever(member, handed, "wounds")


def rule_for(state: RollUnderTable, intent: Any, member: Member) -> tuple[Intent, dict[str, Id]]:
    """The rules' intent for a session intent, on the table's sheets, and the characters
    it runs on by name."""
    options = state.options
    if isinstance(intent, ScoreRollIntent):
        data = {"rollers": intent.rollers, "ability": intent.ability, "level": intent.level}
        return validated(ScoreRoll, data, "the roll"), {}
    if isinstance(intent, CollectiveRollIntent | ContestIntent):
        ids = _taking_part(intent)
        _check_controls(state, ids, member)
        if len(set(ids)) != len(ids):
            raise RollUnderError("each character takes part once")
        names = {state.sheet(cid).name: cid for cid in ids}
        if isinstance(intent, CollectiveRollIntent):
            sheets = [state.sheet(cid) for cid in ids]
            data = {"characters": sheets, "ability": intent.ability, "level": intent.level}
            return validated(CollectiveRoll, data, "the collective roll"), names
        return _contest(state, intent), names
    if isinstance(intent, LoyaltyRollIntent):
        follower = state.sheet(intent.follower)
        rule = loyalty_roll(state.company, follower.name, options, intent.level)
        return rule, {rule.character.name: state.id_of(rule.character.name)}
    cid = intent.character
    sheet = state.sheet(cid)
    taking_part = {sheet.name: cid}
    if isinstance(intent, AbilityRollIntent):
        rule = AbilityRoll(character=sheet, ability=intent.ability, level=intent.level)
        return rule, taking_part
    if isinstance(intent, SufferHitIntent):
        damage = parse_damage(intent.damage)
        hit: dict[str, Any] = {"armour": intent.armour, "direct": intent.direct}
        hit |= {"dice": damage} if isinstance(damage, DamageDice) else {"amount": damage}
        return SufferHit(character=sheet, hit=validated(Hit, hit, "the hit")), taking_part
    if isinstance(intent, RollDamageIntent):
        return RollDamage(character=sheet, dice=DamageDice.parse(intent.damage)), taking_part
    if isinstance(intent, SufferCorruptionIntent):
        rule = SufferCorruption(
            character=sheet, gain=intent.gain, mutation_table=state.mutation_table
        )
        return rule, taking_part
    if isinstance(intent, ChanceRollIntent):
        data = {"character": sheet, "expression": intent.expression, "purpose": intent.purpose}
        return validated(ChanceRoll, data, "the chance roll"), taking_part
    assert isinstance(intent, LoseAbilityIntent)
    rule = LoseAbility(character=sheet, ability=intent.ability, amount=intent.amount)
    return rule, taking_part


def answer(
    state: RollUnderTable, intent: Answer, member: Member, dice: DiceSource
) -> tuple[RollUnderTable, list[Event]]:
    pending = state.pending
    assert pending is not None  # only offered while a decision is open
    decision = pending.resolution.decision
    assert decision is not None
    telling = Telling.at(state, member, pending)
    said = telling.answer(member.name or member.id, intent.choice, decision.chooser)
    resolution, where = pending.resolution.answer(intent.choice, dice, telling.rolling)
    pending = pending.model_copy(update={"resolution": resolution})
    state, events = advanced(state, pending, where, member, dice)
    return state, [said, *events]


def advanced(
    state: RollUnderTable,
    pending: Pending,
    where: Replay,
    member: Member,
    dice: DiceSource,
) -> tuple[RollUnderTable, list[Event]]:
    """Tell what the rule did since the last step; then hold it at its decision, or write
    its outcome back and run the next rule: the attack's next step, or the next character
    in the queue."""
    told: list[Event] = []
    while True:
        telling = Telling.at(state, member, pending)
        told += telling.rules(where.events[pending.told :])
        if where.decision is not None:
            told.append(telling.decision(where.decision))
            held = pending.model_copy(update={"told": len(where.events)})
            return state.model_copy(update={"pending": held}), told
        assert where.outcome is not None
        state = with_sheets(state, _sheets(state, pending, where.outcome))
        told.append(telling.outcome(where.outcome))
        state, said, rule, facing = _following(state, pending, where.outcome)
        told += said
        if rule is None:
            return state.model_copy(update={"pending": None}), told
        rolling = Telling.of(state, member, rule, facing, pending.mode, pending.asker).rolling
        resolution, where = Resolution.start(rule, dice, state.options, rolling)
        pending = pending.model_copy(
            update={
                "resolution": resolution,
                "characters": facing,
                "told": 0,
                "queue": pending.queue[1:],
            }
        )


def _following(state: RollUnderTable, pending: Pending, outcome: Outcome) -> Next:
    """What follows a settled rule: the attack's next step, or the next character in the
    queue facing the end of the activation (CR-S07)."""
    if pending.attack:
        return followed(state, outcome)
    if not pending.queue:
        return state, [], None, {}
    nxt = pending.queue[0]
    rule = EndOfActivation(character=state.sheet(nxt), actor=pending.actor or "")
    return state, [], rule, {state.sheet(nxt).name: nxt}


def end_activation(
    state: RollUnderTable, member: Member, dice: DiceSource
) -> tuple[RollUnderTable, list[Event]]:
    """Everyone whose deadline was this activation faces death, one after another."""
    actor = state.activation or ""
    ended = note("activation", f"{actor}'s activation ends", actor=actor, begins=False)
    state = state.model_copy(update={"activation": None})
    facing = tuple(
        cid
        for cid, seat in state.characters.items()
        if seat.sheet.at_deaths_door and seat.sheet.deadline_started
    )
    if not facing:
        return state, [ended]
    first = {state.sheet(facing[0]).name: facing[0]}
    rule = EndOfActivation(character=state.sheet(facing[0]), actor=actor)
    rolling = Telling.of(state, member, rule, first).rolling
    resolution, where = Resolution.start(rule, dice, state.options, rolling)
    pending = Pending(
        resolution=resolution, asker=member.id, characters=first, queue=facing[1:], actor=actor
    )
    state, told = advanced(state, pending, where, member, dice)
    return state, [ended, *told]


def pending_view(state: RollUnderTable, member: Member) -> dict[str, Any] | None:
    pending = state.pending
    if pending is None:
        return None
    decision = pending.resolution.decision
    assert decision is not None
    if member.is_gm:
        seen: dict[str, Any] = decision.model_dump(mode="json")
    elif sees_decision(state, pending, decision, member):
        seen = Telling.at(state, member, pending).decision_view(decision)
    else:
        seen = hidden("a decision on a roll kept from you")
    shown: dict[str, Any] = {
        "asked_by": pending.asker,
        "mode": pending.mode.value,
        "queue": list(pending.queue),
        "decision": seen,
    }
    if member.is_gm:
        shown["resolution"] = pending.resolution.model_dump(mode="json")
    return shown


def _check_controls(state: RollUnderTable, ids: tuple[Id, ...], member: Member) -> None:
    for cid in ids:
        seat = state.seat(cid)
        if not controls(member, seat.owner):
            raise PermissionDenied(f"{seat.sheet.name} is not yours to roll for; the GM may")


def _taking_part(intent: CollectiveRollIntent | ContestIntent) -> tuple[Id, ...]:
    if isinstance(intent, CollectiveRollIntent):
        return intent.characters
    return tuple(cid for side in intent.sides for cid in side.characters)


def _contest(state: RollUnderTable, intent: ContestIntent) -> Contest:
    """The rules' contest: each character rolls with their sheet's score, omens and load."""
    for side in intent.sides:
        if not (side.characters or side.scores):
            raise RollUnderError(f"{side.name} has nobody: tick a character or add a score")
    sides = [
        {
            "name": side.name,
            "members": [
                *(
                    Roller.of(state.sheet(cid), intent.ability, state.options)
                    for cid in side.characters
                ),
                *side.scores,
            ],
        }
        for side in intent.sides
    ]
    data = {"ability": intent.ability, "sides": sides, "rolls": intent.rolls}
    return validated(Contest, data, "the contest")


def _sheets(state: RollUnderTable, pending: Pending, outcome: Outcome) -> tuple[Character, ...]:
    """The sheets a settled rule leaves: its characters as it ends, or the omens each
    contestant spent re-rolling."""
    if isinstance(outcome, GroupOutcome):
        return outcome.characters
    if isinstance(outcome, ContestOutcome):
        return tuple(
            sheet.with_changes(omens=sheet.omens - outcome.omens_spent[name])
            for name, cid in pending.characters.items()
            if outcome.omens_spent.get(name)
            for sheet in (state.sheet(cid),)
        )
    if isinstance(outcome, ScoreOutcome):
        return ()
    return (outcome.character,)
