"""Combat (article 5) as a state machine: initiative as a score that is spent.

A `Combat` is plain data. `legal_actions(combat)` lists what may be done now; `apply(combat,
action, dice)` checks the action is legal and returns the new combat and its events. The
phases: `setup` (add combatants, roll initiative) → `round` (turns from the highest
initiative down; anyone may spend initiative on reactions) → `between_rounds` (the respite:
re-orient, physical actions at a cost, declare spells, force the bout on) → `round` … → `over`.

Spending initiative buys one action outside one's turn: a reaction, an extra action, or
acting on a command. That purchase is a *permit* the next attack or defence uses up.
"""

from tabletop.systems.constitution.combat.actions import (
    Action,
    Add,
    AnswerDirectHit,
    AnswerShield,
    AttackAction,
    Begin,
    Command,
    DeclareSpell,
    Defend,
    EndCombat,
    EndTurn,
    ExtraAction,
    ForceBout,
    Leave,
    LoseTrack,
    MoraleCheck,
    NextRound,
    React,
    ReleaseStored,
    Reorient,
    RollInitiative,
    SetInitiative,
    Spend,
    SpendDegrees,
    Tactical,
)
from tabletop.systems.constitution.combat.flow import can_act
from tabletop.systems.constitution.combat.machine import apply, legal_actions
from tabletop.systems.constitution.combat.state import (
    AMBUSH_BONUS,
    CHAIN_OF_COMMAND_COST,
    FORCED_BOUT_COST,
    HENCHMAN_INITIATIVE,
    MAX_COMBATANTS,
    ORDER_COST,
    REACTION_COSTS,
    SUPERIOR_COST,
    Combat,
    Combatant,
    PendingDirectHit,
    PendingShield,
    StoredAttack,
    UnspentDegrees,
)

__all__ = [
    "AMBUSH_BONUS",
    "CHAIN_OF_COMMAND_COST",
    "FORCED_BOUT_COST",
    "HENCHMAN_INITIATIVE",
    "MAX_COMBATANTS",
    "ORDER_COST",
    "REACTION_COSTS",
    "SUPERIOR_COST",
    "Action",
    "Add",
    "AnswerDirectHit",
    "AnswerShield",
    "AttackAction",
    "Begin",
    "Combat",
    "Combatant",
    "Command",
    "DeclareSpell",
    "Defend",
    "EndCombat",
    "EndTurn",
    "ExtraAction",
    "ForceBout",
    "Leave",
    "LoseTrack",
    "MoraleCheck",
    "NextRound",
    "PendingDirectHit",
    "PendingShield",
    "React",
    "ReleaseStored",
    "Reorient",
    "RollInitiative",
    "SetInitiative",
    "Spend",
    "SpendDegrees",
    "StoredAttack",
    "Tactical",
    "UnspentDegrees",
    "apply",
    "can_act",
    "legal_actions",
]
