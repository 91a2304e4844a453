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
from tabletop.games.deadweight_board.state import CHANCE, PLANK, REVEAL_CARD, TIE_DRAW, State, bits
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
    """The actions allowed at the current decision (empty at chance nodes and at the end)."""
    return _LEGAL[state.phase](state)


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
        _CHANCE[state.chance](state, action)
        return
    legal = _LEGAL[state.phase](state)
    if action not in legal:
        raise IllegalActionError(
            f"{describe(state, action)!r} ({action}) is not legal now; "
            f"legal: {', '.join(describe(state, a) for a in legal) or 'nothing'}"
        )
    _APPLY[state.phase](state, action)


def apply_unchecked(state: State, action: int) -> None:
    """`apply_in_place` without the legality check, for bots that chose from
    `legal_actions` or `chance_outcomes` of this very state."""
    if state.phase == CHANCE:
        _CHANCE[state.chance](state, action)
    else:
        _APPLY[state.phase](state, action)


def describe(state: State, action: int) -> str:
    """The action in words, as a player at this node would read it."""
    return label(action, _kind_here(state))


def _kind_here(state: State) -> int:
    if state.phase != PLANK:
        return -1
    plank = SPACE_PLANK[state.pos[state.active]]
    return state.ship.kind[plank] if plank >= 0 else -1


def _none(s: State) -> list[int]:
    return []


def _refuse(s: State, action: int) -> None:
    raise IllegalActionError("no decision is pending")


_LEGAL: Final = (
    legal_setup_lantern,
    legal_move,
    legal_plank,
    legal_station,
    legal_take_item,
    legal_wtp_keep,
    legal_wtp_give,
    legal_wtp_drop,
    legal_flip,
    legal_flip_keep,
    legal_flip_pick,
    legal_lantern,
    legal_limit,
    evac_choices,
    legal_forced_deploy,
    _none,
    _none,
)
"""The legal actions at each phase, in `state.PHASE_NAMES` order."""
_APPLY: Final = (
    apply_setup_lantern,
    apply_move,
    apply_plank,
    apply_station,
    apply_take_item,
    apply_wtp_keep,
    apply_wtp_give,
    apply_wtp_drop,
    apply_flip,
    apply_flip_keep,
    apply_flip_pick,
    apply_lantern,
    apply_limit,
    apply_evac,
    apply_forced_deploy,
    _refuse,
    _refuse,
)
_CHANCE: Final = (
    first_roll,
    mariner_mover_roll,
    first_roll,
    defend_roll,
    first_roll,
    hold_roll,
    wtp_roll,
    fate_roll,
    reveal_card,
    tie_draw,
)
"""What each chance event does with its outcome, in `state.CHANCE_NAMES` order."""
