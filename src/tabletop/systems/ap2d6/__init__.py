"""The 2d6 action-point rules: 2d6 + score checks and contests, the AP tracker, Initiative
Rules B in phases, weapons, hidden death checks, social play and encumbrance.

>>> from tabletop.dice import FixedDice
>>> from tabletop.systems.ap2d6 import check_against, APTracker, action_cost
>>> check_against(0, 1, FixedDice([3, 4])).success   # DC 7, and the defender wins ties
False
>>> tracker, _ = APTracker().pay(action_cost("(2n2)"), "spell")
>>> tracker.cells()
[1, 0, 2, 0]

Readings of unclear rules are in docs/rules/ap2d6.md; each is an `Options` field.
"""

from tabletop.systems.ap2d6.checks import (
    Check,
    Contest,
    Side,
    check,
    check_against,
    contest,
    stealth,
)
from tabletop.systems.ap2d6.costs import ActionCost, BasicAction, Cost, action_cost, basic_action
from tabletop.systems.ap2d6.creation import point_buy, random_character, random_scores
from tabletop.systems.ap2d6.death import (
    Consequence,
    DeathCheck,
    DeathRecord,
    GMDeathView,
    PlayerDeathView,
    gm_view,
    player_view,
    view,
)
from tabletop.systems.ap2d6.encumbrance import Encumbrance, apply_encumbrance, carry
from tabletop.systems.ap2d6.errors import Ap2d6DataError, Ap2d6Error
from tabletop.systems.ap2d6.events import Event, Role, for_role
from tabletop.systems.ap2d6.gear import Bag, Item
from tabletop.systems.ap2d6.health import (
    check_on,
    death_check,
    heal,
    pass_rounds,
    rest,
    take_damage,
)
from tabletop.systems.ap2d6.odds import (
    check_odds,
    contest_odds,
    double_six_chance,
    failure_margins,
    reading_bands,
    simulate_death,
    sp_equivalent,
    stabilise_chance,
)
from tabletop.systems.ap2d6.options import DEFAULTS, Options
from tabletop.systems.ap2d6.records import DiceRecord, TwoDice
from tabletop.systems.ap2d6.rounds import (
    BeginningChoices,
    Combat,
    Decision,
    act,
    attack,
    begin_round,
    end_fight,
    interrupt,
    open_decision,
    order,
    start_main_phase,
)
from tabletop.systems.ap2d6.scores import STANDARD_SCORES, passive, raise_cost
from tabletop.systems.ap2d6.session import SESSION, Ap2d6Session, Ap2d6Table
from tabletop.systems.ap2d6.sheet import Character, read_sheet, standard_sheet
from tabletop.systems.ap2d6.social import (
    lie,
    read,
    reputation_name,
    social_contest,
    social_roll,
)
from tabletop.systems.ap2d6.statuses import StatusCatalogue, load_statuses, shipped_statuses
from tabletop.systems.ap2d6.tracker import APTracker
from tabletop.systems.ap2d6.weapons import (
    Attack,
    AttackResult,
    Weapon,
    improvised_throw,
    load_weapons,
    resolve,
    wield,
)

__all__ = [
    "DEFAULTS",
    "SESSION",
    "STANDARD_SCORES",
    "APTracker",
    "ActionCost",
    "Ap2d6DataError",
    "Ap2d6Error",
    "Ap2d6Session",
    "Ap2d6Table",
    "Attack",
    "AttackResult",
    "Bag",
    "BasicAction",
    "BeginningChoices",
    "Character",
    "Check",
    "Combat",
    "Consequence",
    "Contest",
    "Cost",
    "DeathCheck",
    "DeathRecord",
    "Decision",
    "DiceRecord",
    "Encumbrance",
    "Event",
    "GMDeathView",
    "Item",
    "Options",
    "PlayerDeathView",
    "Role",
    "Side",
    "StatusCatalogue",
    "TwoDice",
    "Weapon",
    "act",
    "action_cost",
    "apply_encumbrance",
    "attack",
    "basic_action",
    "begin_round",
    "carry",
    "check",
    "check_against",
    "check_odds",
    "check_on",
    "contest",
    "contest_odds",
    "death_check",
    "double_six_chance",
    "end_fight",
    "failure_margins",
    "for_role",
    "gm_view",
    "heal",
    "improvised_throw",
    "interrupt",
    "lie",
    "load_statuses",
    "load_weapons",
    "open_decision",
    "order",
    "pass_rounds",
    "passive",
    "player_view",
    "point_buy",
    "raise_cost",
    "random_character",
    "random_scores",
    "read",
    "read_sheet",
    "reading_bands",
    "reputation_name",
    "resolve",
    "rest",
    "shipped_statuses",
    "simulate_death",
    "social_contest",
    "social_roll",
    "sp_equivalent",
    "stabilise_chance",
    "standard_sheet",
    "start_main_phase",
    "stealth",
    "take_damage",
    "view",
    "wield",
]
