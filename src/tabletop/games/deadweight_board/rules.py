"""The rules as a state machine: the legal choices at each node and what each choice does.

A turn is a chain of decision nodes (whose owner may not be the active player) and chance
nodes (the fate die, a card turned up), following notes §2.2. `legal_actions` lists the
integers allowed at the node; `apply_in_place` performs one of them and runs the game on to
the next node. `apply` does the same on a copy, leaving the given state untouched. Dice come
only as chance outcomes: `roll_chance` draws one from an injected dice source.

Each phase of the turn lives in its own module (movement, landing, contests,
walk_the_plank, stations, flips, limit, turns); this one dispatches to them by node.
Rule references: "seed §X" names a section of the rule document; AMB-nn names the entry in
docs/rules/deadweight-board.md whose reading is applied.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Final

from tabletop.dice import DiceSource
from tabletop.games.deadweight_board.actions import CARD, DIE, TIE_WINNER, label
from tabletop.games.deadweight_board.contests import (
    apply_take_item,
    defend_roll,
    first_roll,
    legal_take_item,
    mariner_mover_roll,
)
from tabletop.games.deadweight_board.effects import SPACE_PLANK
from tabletop.games.deadweight_board.errors import IllegalActionError
from tabletop.games.deadweight_board.flips import (
    apply_flip,
    apply_flip_keep,
    apply_flip_pick,
    legal_flip,
    legal_flip_keep,
    legal_flip_pick,
)
from tabletop.games.deadweight_board.flow import evac_choices
from tabletop.games.deadweight_board.landing import apply_plank, legal_plank
from tabletop.games.deadweight_board.limit import apply_limit, legal_limit
from tabletop.games.deadweight_board.movement import apply_move, legal_move
from tabletop.games.deadweight_board.state import (
    CHALLENGE_ROLL,
    CHANCE,
    DEFEND_ROLL,
    EVAC,
    FATE_ROLL,
    FLIP,
    FLIP_KEEP,
    FLIP_PICK,
    FORCED_DEPLOY,
    HOLD_ROLL,
    LANTERN,
    LIMIT,
    MARINER_MOVER_ROLL,
    MARINER_OWNER_ROLL,
    MOVE,
    PLANK,
    REVEAL_CARD,
    SETUP_LANTERN,
    STATION,
    STEAL_ROLL,
    TAKE_ITEM,
    TIE_DRAW,
    WTP_DROP,
    WTP_GIVE,
    WTP_KEEP,
    WTP_ROLL,
    State,
    bits,
)
from tabletop.games.deadweight_board.stations import (
    apply_evac,
    apply_forced_deploy,
    apply_station,
    fate_roll,
    hold_roll,
    legal_forced_deploy,
    legal_station,
    reveal_card,
)
from tabletop.games.deadweight_board.turns import (
    apply_lantern,
    apply_setup_lantern,
    legal_lantern,
    legal_setup_lantern,
    tie_draw,
)
from tabletop.games.deadweight_board.walk_the_plank import (
    apply_wtp_drop,
    apply_wtp_give,
    apply_wtp_keep,
    legal_wtp_drop,
    legal_wtp_give,
    legal_wtp_keep,
    wtp_roll,
)

_DIE_OUTCOMES: Final = tuple((DIE + face, Fraction(1, 6)) for face in range(1, 7))


def legal_actions(state: State) -> list[int]:
    """The actions allowed at the current decision (empty at chance nodes and at the end).

    This and the other dispatchers below name each phase's function outright, commonest
    first, rather than indexing a table of functions: the compiled engine then calls the
    function directly instead of through Python's calling convention."""
    phase = state.phase
    if phase == MOVE:
        return legal_move(state)
    if phase == PLANK:
        return legal_plank(state)
    if phase == LANTERN:
        return legal_lantern(state)
    if phase == STATION:
        return legal_station(state)
    if phase == TAKE_ITEM:
        return legal_take_item(state)
    if phase == LIMIT:
        return legal_limit(state)
    if phase == FLIP:
        return legal_flip(state)
    if phase == FLIP_KEEP:
        return legal_flip_keep(state)
    if phase == FLIP_PICK:
        return legal_flip_pick(state)
    if phase == WTP_KEEP:
        return legal_wtp_keep(state)
    if phase == WTP_GIVE:
        return legal_wtp_give(state)
    if phase == WTP_DROP:
        return legal_wtp_drop(state)
    if phase == EVAC:
        return evac_choices(state)
    if phase == FORCED_DEPLOY:
        return legal_forced_deploy(state)
    if phase == SETUP_LANTERN:
        return legal_setup_lantern(state)
    return []


def chance_outcomes(state: State) -> list[tuple[int, Fraction]]:
    """The outcomes of the pending chance event with their exact probabilities."""
    if state.phase != CHANCE:
        return []
    if state.chance == REVEAL_CARD:
        cards = bits(state.pile)
        return [(CARD + card, Fraction(1, len(cards))) for card in cards]
    if state.chance == TIE_DRAW:
        return [(TIE_WINNER + p, Fraction(1, len(state.winners))) for p in state.winners]
    return list(_DIE_OUTCOMES)


def roll_chance(state: State, dice: DiceSource) -> int:
    """Draw the pending chance outcome from `dice`: a d6 for the fate die, a d(n) to pick
    which of the n face-down cards turns up, a d(k) for a random tie-break."""
    return chance_outcome(state, dice.roll(chance_count(state)) - 1)


def chance_count(state: State) -> int:
    """How many equally likely outcomes the pending chance event has."""
    if state.chance == REVEAL_CARD:
        return state.pile.bit_count()
    if state.chance == TIE_DRAW:
        return len(state.winners)
    return 6


def chance_outcome(state: State, index: int) -> int:
    """The pending chance event's outcome number `index` (0 to `chance_count` - 1), in the
    order of `chance_outcomes`."""
    if state.chance == REVEAL_CARD:
        return CARD + bits(state.pile)[index]
    if state.chance == TIE_DRAW:
        return TIE_WINNER + state.winners[index]
    return DIE + 1 + index


def apply(state: State, action: int) -> State:
    """The state after `action`, as a new state; the given one is not changed."""
    after = state.clone()
    after.events = [] if state.events is not None else None
    apply_in_place(after, action)
    return after


def apply_in_place(state: State, action: int) -> None:
    """Perform `action` (a decision or a chance outcome) on `state` itself.

    An illegal action raises `IllegalActionError` before anything changes."""
    if state.phase == CHANCE:
        if not any(outcome == action for outcome, _ in chance_outcomes(state)):
            raise IllegalActionError(
                f"{describe(state, action)!r} ({action}) is not an outcome of the pending "
                "chance event"
            )
        _apply_chance(state, action)
        return
    legal = legal_actions(state)
    if action not in legal:
        raise IllegalActionError(
            f"{describe(state, action)!r} ({action}) is not legal now; "
            f"legal: {', '.join(describe(state, a) for a in legal) or 'nothing'}"
        )
    _apply_decision(state, action)


def apply_unchecked(state: State, action: int) -> None:
    """`apply_in_place` without the legality check, for bots that chose from
    `legal_actions` or `chance_outcomes` of this very state."""
    if state.phase == CHANCE:
        _apply_chance(state, action)
    else:
        _apply_decision(state, action)


def _apply_decision(state: State, action: int) -> None:
    phase = state.phase
    if phase == MOVE:
        apply_move(state, action)
    elif phase == PLANK:
        apply_plank(state, action)
    elif phase == LANTERN:
        apply_lantern(state, action)
    elif phase == STATION:
        apply_station(state, action)
    elif phase == TAKE_ITEM:
        apply_take_item(state, action)
    elif phase == LIMIT:
        apply_limit(state, action)
    elif phase == FLIP:
        apply_flip(state, action)
    elif phase == FLIP_KEEP:
        apply_flip_keep(state, action)
    elif phase == FLIP_PICK:
        apply_flip_pick(state, action)
    elif phase == WTP_KEEP:
        apply_wtp_keep(state, action)
    elif phase == WTP_GIVE:
        apply_wtp_give(state, action)
    elif phase == WTP_DROP:
        apply_wtp_drop(state, action)
    elif phase == EVAC:
        apply_evac(state, action)
    elif phase == FORCED_DEPLOY:
        apply_forced_deploy(state, action)
    elif phase == SETUP_LANTERN:
        apply_setup_lantern(state, action)
    else:
        raise IllegalActionError("no decision is pending")


def _apply_chance(state: State, outcome: int) -> None:
    """What the pending chance event does with its outcome."""
    kind = state.chance
    if kind in (STEAL_ROLL, MARINER_OWNER_ROLL, CHALLENGE_ROLL):
        first_roll(state, outcome)
    elif kind == DEFEND_ROLL:
        defend_roll(state, outcome)
    elif kind == MARINER_MOVER_ROLL:
        mariner_mover_roll(state, outcome)
    elif kind == HOLD_ROLL:
        hold_roll(state, outcome)
    elif kind == WTP_ROLL:
        wtp_roll(state, outcome)
    elif kind == FATE_ROLL:
        fate_roll(state, outcome)
    elif kind == REVEAL_CARD:
        reveal_card(state, outcome)
    else:
        tie_draw(state, outcome)


def describe(state: State, action: int) -> str:
    """The action in words, as a player at this node would read it."""
    return label(action, _kind_here(state))


def _kind_here(state: State) -> int:
    if state.phase != PLANK:
        return -1
    plank = SPACE_PLANK[state.pos[state.active]]
    return state.ship.kind[plank] if plank >= 0 else -1
