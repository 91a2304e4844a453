"""The d20 roll-under "Core Rules": ability rolls and contests, carrying, followers,
exploding damage and armour, critical damage and injuries, corruption, omens and death.

Rules that can stop for a decision (an omen re-roll, a death save, the GM's pick) run as a
`Resolution`: begin it with an intent and a dice source, answer `decision.choices` one at a
time, read `outcome` and `events` at the end. Rules without decisions are plain functions
returning the new sheet and its events. `SESSION` plays them all at a shared table, where
each decision goes to the member who must make it. Readings of unclear rules:
docs/rules/rollunder.md.

>>> from tabletop.dice import FixedDice
>>> hero = Character(name="Ash", abilities={"STR": 12, "AGI": 10, "WIT": 9},
...                  max_health=12, health=12)
>>> done = resolve(AbilityRoll(character=hero, ability="STR"), FixedDice([12]))
>>> done.outcome.passed
True
"""

from tabletop.systems.rollunder.abilities import (
    AbilityOutcome,
    AbilityRoll,
    ChallengeLevel,
    CollectiveRoll,
    GroupOutcome,
    Roller,
    ScoreOutcome,
    ScoreRoll,
    passes,
)
from tabletop.systems.rollunder.carrying import (
    Item,
    Load,
    check_hands,
    check_use,
    encumbered,
    needs_both_hands,
    place,
    remove,
)
from tabletop.systems.rollunder.character import (
    Character,
    Injury,
    check_sheet,
    read_sheet,
    sheet_from,
)
from tabletop.systems.rollunder.contests import Contest, ContestOutcome, Place, Side
from tabletop.systems.rollunder.corruption import (
    CorruptionOutcome,
    SufferCorruption,
    choose_mutation,
    load_mutation_table,
)
from tabletop.systems.rollunder.critical import CriticalDamage, critical_damage, injury_table
from tabletop.systems.rollunder.damage import (
    ARMOUR_CAP,
    DamageDice,
    DamageOutcome,
    Hit,
    HitOutcome,
    RollDamage,
    SufferHit,
    after_armour,
    armour_reduction,
    parse_damage,
)
from tabletop.systems.rollunder.death import BURIAL_COST, burial_cost, bury, replace_character
from tabletop.systems.rollunder.dying import (
    EndOfActivation,
    LoseAbility,
    Survival,
    begin_activation,
)
from tabletop.systems.rollunder.errors import RollUnderDataError, RollUnderError
from tabletop.systems.rollunder.followers import (
    MAX_FOLLOWERS,
    Company,
    dismiss_follower,
    loyalty_roll,
    recruit_follower,
)
from tabletop.systems.rollunder.health import Changed, die, gain_ability, heal, lose_health
from tabletop.systems.rollunder.omens import (
    ChanceOutcome,
    ChanceRoll,
    cast_sacred_spell,
    recover_omens,
    save_from_death,
    spend_omens,
)
from tabletop.systems.rollunder.options import AGI, STR, WIT, RollUnderOptions
from tabletop.systems.rollunder.policies import avoid_instant_death, reroll_failures
from tabletop.systems.rollunder.records import DiceRecord, Event
from tabletop.systems.rollunder.recovery import downtime, stretch
from tabletop.systems.rollunder.resolution import (
    Decision,
    Intent,
    Outcome,
    Resolution,
    no_rerolls,
    resolve,
)
from tabletop.systems.rollunder.session import (
    SESSION,
    RollUnderSession,
    outcome_of,
    rules_events,
)
from tabletop.systems.rollunder.table import RollUnderTable

__all__ = [
    "AGI",
    "ARMOUR_CAP",
    "BURIAL_COST",
    "MAX_FOLLOWERS",
    "SESSION",
    "STR",
    "WIT",
    "AbilityOutcome",
    "AbilityRoll",
    "ChallengeLevel",
    "ChanceOutcome",
    "ChanceRoll",
    "Changed",
    "Character",
    "CollectiveRoll",
    "Company",
    "Contest",
    "ContestOutcome",
    "CorruptionOutcome",
    "CriticalDamage",
    "DamageDice",
    "DamageOutcome",
    "Decision",
    "DiceRecord",
    "EndOfActivation",
    "Event",
    "GroupOutcome",
    "Hit",
    "HitOutcome",
    "Injury",
    "Intent",
    "Item",
    "Load",
    "LoseAbility",
    "Outcome",
    "Place",
    "Resolution",
    "RollDamage",
    "RollUnderDataError",
    "RollUnderError",
    "RollUnderOptions",
    "RollUnderSession",
    "RollUnderTable",
    "Roller",
    "ScoreOutcome",
    "ScoreRoll",
    "Side",
    "SufferCorruption",
    "SufferHit",
    "Survival",
    "after_armour",
    "armour_reduction",
    "avoid_instant_death",
    "begin_activation",
    "burial_cost",
    "bury",
    "cast_sacred_spell",
    "check_hands",
    "check_sheet",
    "check_use",
    "choose_mutation",
    "critical_damage",
    "die",
    "dismiss_follower",
    "downtime",
    "encumbered",
    "gain_ability",
    "heal",
    "injury_table",
    "load_mutation_table",
    "lose_health",
    "loyalty_roll",
    "needs_both_hands",
    "no_rerolls",
    "outcome_of",
    "parse_damage",
    "passes",
    "place",
    "read_sheet",
    "recover_omens",
    "recruit_follower",
    "remove",
    "replace_character",
    "reroll_failures",
    "resolve",
    "rules_events",
    "save_from_death",
    "sheet_from",
    "spend_omens",
    "stretch",
]
