"""Rules with no dice and no decision, at the table: time passing for the whole company
(§ Health loss's activations, stretches, downtime), and one sheet changed by health,
abilities, omens, mutations or carrying (§ Encumbrance, § Spending omens, § Corruption).
"""

from __future__ import annotations

from typing import Any

from tabletop.asks import gm_lever
from tabletop.session import Event, Member, note
from tabletop.systems.rollunder.carrying import Load, check_use, place, remove
from tabletop.systems.rollunder.character import Character
from tabletop.systems.rollunder.corruption import choose_mutation, load_mutation_table
from tabletop.systems.rollunder.dying import begin_activation
from tabletop.systems.rollunder.errors import RollUnderError, validated
from tabletop.systems.rollunder.health import Changed, die, gain_ability, heal
from tabletop.systems.rollunder.intents import (
    BeginActivation,
    CastSpell,
    ChooseMutation,
    Die,
    Downtime,
    DropItem,
    GainAbility,
    Heal,
    RevealCharacter,
    SaveFromDeath,
    SetCarryLimit,
    SetMutationTable,
    Stretch,
    TakeItem,
    UseItem,
)
from tabletop.systems.rollunder.omens import cast_sacred_spell, save_from_death
from tabletop.systems.rollunder.records import Event as RulesEvent
from tabletop.systems.rollunder.recovery import downtime, stretch
from tabletop.systems.rollunder.table import RollUnderTable, with_sheets
from tabletop.systems.rollunder.table_characters import dump, tell


def plain(state: RollUnderTable, intent: Any, member: Member) -> tuple[RollUnderTable, list[Event]]:
    """Rules with no decision in them: what they do to the sheets, told."""
    options = state.options
    if isinstance(intent, SetMutationTable):
        table = None if intent.table is None else load_mutation_table(intent.table)
        name = table["name"] if table else "none: the GM chooses"
        told = note("mutation-table", f"the mutation table: {name}", table=table)
        return state.model_copy(update={"mutation_table": table}), [told]
    if isinstance(intent, BeginActivation):
        changes = [
            begin_activation(s.sheet, intent.actor, options) for s in state.characters.values()
        ]
        state = _changed(state, changes).model_copy(update={"activation": intent.actor})
        began = note("activation", f"{intent.actor}'s activation begins", actor=intent.actor)
        return state, [began, *tell(state, member, _events(changes))]
    if isinstance(intent, Stretch | Downtime):
        rule = stretch if isinstance(intent, Stretch) else downtime
        changes = [rule(seat.sheet) for seat in state.characters.values()]
        word = "the next stretch begins" if isinstance(intent, Stretch) else "downtime"
        told = note(intent.kind, word)
        return _changed(state, changes), [told, *tell(state, member, _events(changes))]
    if isinstance(intent, RevealCharacter):
        seat = state.seat(intent.character)
        seats = {
            **state.characters,
            intent.character: seat.model_copy(update={"secret": False}),
        }
        shown = note(
            "revealed",
            f"the GM shows {seat.sheet.name}'s sheet",
            character=intent.character,
            sheet=dump(seat.sheet),
        )
        return state.model_copy(update={"characters": seats}), [shown]
    if isinstance(intent, GainAbility | Heal):  # CR-S10
        gm_lever(member, options.players_set_difficulty, "healing")
    sheet = state.sheet(intent.character)
    changed = _sheet_rule(state, sheet, intent)
    told = tell(state, member, changed.events, sheet.name)
    return with_sheets(state, (changed.character,)), told


def _sheet_rule(state: RollUnderTable, sheet: Character, intent: Any) -> Changed:
    """One character's sheet changed by a rule that needs no dice and no decision."""
    options = state.options
    if isinstance(intent, GainAbility):
        return gain_ability(sheet, intent.ability, intent.amount)
    if isinstance(intent, Heal):
        return heal(sheet, intent.amount)
    if isinstance(intent, SaveFromDeath):
        return save_from_death(sheet, options)
    if isinstance(intent, CastSpell):
        return cast_sacred_spell(sheet, intent.spell)
    if isinstance(intent, Die):
        return die(sheet, intent.cause)
    if isinstance(intent, ChooseMutation):
        return choose_mutation(sheet, intent.mutation)
    if isinstance(intent, SetCarryLimit):
        held = sheet.load.model_dump() if sheet.load else {}
        data = {**held, "carry_limit": intent.carry_limit}
        load = validated(Load, data, f"{sheet.name}'s load")
        text = f"{sheet.name} can carry bulk {intent.carry_limit}"
        event = RulesEvent.about(sheet.name, "carrying", text, carry_limit=intent.carry_limit)
        return Changed(sheet.with_changes(load=load), (event,))
    if sheet.load is None:
        raise RollUnderError(f"{sheet.name} has no carry limit yet: set one first")
    if isinstance(intent, TakeItem):
        load = place(sheet.load, intent.item, intent.where, options)
        text = f"{sheet.name} takes {intent.item.name} ({intent.where})"
        event = RulesEvent.about(sheet.name, "carrying", text, item=intent.item.name)
        return Changed(sheet.with_changes(load=load), (event,))
    if isinstance(intent, DropItem):
        load, item = remove(sheet.load, intent.item, intent.where)
        text = f"{sheet.name} puts down {item.name}"
        event = RulesEvent.about(sheet.name, "carrying", text, item=item.name)
        return Changed(sheet.with_changes(load=load), (event,))
    assert isinstance(intent, UseItem)
    item = check_use(sheet.load, intent.item, options)
    event = RulesEvent.about(sheet.name, "carrying", f"{sheet.name} uses {item.name}")
    return Changed(sheet, (event,))


def _changed(state: RollUnderTable, changes: list[Changed]) -> RollUnderTable:
    return with_sheets(state, tuple(change.character for change in changes))


def _events(changes: list[Changed]) -> tuple[RulesEvent, ...]:
    return tuple(event for change in changes for event in change.events)
