"""The action space: every decision and every chance outcome is one integer with one name.

Each kind of action owns a fixed range (`BASE + parameter`), so an action's number never
depends on the state it was chosen in and logs stay readable across versions.

Ids `0 .. NUM_ACTIONS - 1` are the players' decisions (OpenSpiel's `num_distinct_actions`);
the chance outcomes follow them in the same space, up to `NUM_OUTCOMES - 1` (OpenSpiel's
`max_chance_outcomes`, so a chance node's outcomes can be used as they are):

| ids | chance outcome |
| --- | --- |
| `DIE + 1 .. DIE + 6` | a face of the fate die (every contest roll, Walk the Plank, fate roll) |
| `CARD + c` | trade card `c` turned face up on the pile (`c` < `MAX_TRADE_CARDS`) |
| `TIE_WINNER + p` | seat `p` drawn to win a tie (`final_tie = "random"`) |

Every id also has a *name* (`name_of`), the form a person or a table intent uses: "step 2",
"steal from Blue", "rope to S4", "rolled 5". `action_named` reads a name back. `label` is the
same name with the plank action spelled out where the state knows which plank it is.
"""

from __future__ import annotations

from itertools import combinations
from typing import Final

from tabletop.games.deadweight_board.board import (
    COLOURS,
    GEMS,
    ITEM_SHORT,
    KIND_TITLES,
    PLANK_NAMES,
    SPACE_NAMES,
    TRACK,
    WALLS,
    wall_name,
)
from tabletop.games.deadweight_board.config import MAX_TRADE_CARDS
from tabletop.games.deadweight_board.errors import IllegalActionError

PASS: Final = 0
"""Do nothing more here: take nothing on a plank, end a station visit, stop keeping items."""
STEP_1: Final = 1
STEP_2: Final = 2
LOOT: Final = 3
ACT: Final = 4
"""Perform the plank action when it needs no choice (or roll to Walk the Plank)."""
FATE: Final = 5
CHALLENGE: Final = 6
ROPE: Final = 10
"""+ destination space (0..11)."""
STEAL: Final = 22
"""+ player: attempt to steal from a player on the plank landed on."""
TARGET: Final = 26
"""+ player: the plank action aimed at one player (Switch, Sabotage, flooded steals, skip)."""
SWAP: Final = 30
"""+ index into `PAIRS`: flooded Switch, swap two players."""
SHORTCUT_TO: Final = 36
"""+ plank: flooded Shortcut destination."""
FLOODED_TRADE: Final = 46
"""+ k: k < 4 pays gem k for a life ring; k >= 4 pays a life ring for gem k - 4."""
TAKE_ITEM: Final = 54
"""+ item: the item a steal winner takes from the loser."""
TAKE: Final = 60
"""+ item: keep or pick an item from a chest being shared out (Walk the Plank, flips)."""
GIVE: Final = 66
"""+ item * 4 + player: hand an item from Walk the Plank's haul to another player."""
DROP: Final = 90
"""+ gem: the gem dropped into the hole after a failed Walk the Plank."""
RETURN: Final = 94
"""+ gem: a gem returned to the supply by a player holding more than 10."""
TRADE: Final = 98
"""+ index of the trade on the player's trade card."""
DEPLOY: Final = 102
"""+ wall (an index into `board.WALLS`): place (or move) the player's Mariner there, paying."""
EVAC: Final = 115
"""+ mariner * 4 + lifeboat: move a Mariner to a lifeboat during the evacuation."""
FLIP: Final = 131
"""+ plank: the plank flipped at the end of a turn in which a diamond was traded."""
LANTERN: Final = 141
"""+ plank: where the lantern goes (setup placement or the end-of-turn move)."""
DEAL: Final = 151
"""+ index into `DEALS`: the gems given and taken on a brown Trade plank."""

PAIRS: Final = tuple(combinations(range(4), 2))
"""Unordered pairs of seats, for swapping two players."""


def _deals() -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """Every Trade-plank exchange any `trade_action_mode` allows, in a fixed order:
    two one-for-one swaps, then two-for-one, then single swaps (AMB-31)."""
    deals: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
    for first, second in [(a, b) for a in GEMS for b in GEMS if a <= b]:
        for got_first in GEMS:
            for got_second in GEMS:
                if got_first == first or got_second == second:
                    continue
                if first == second and got_first > got_second:
                    continue
                deals.append(((first, second), (got_first, got_second)))
    for first, second in [(a, b) for a in GEMS for b in GEMS if a <= b]:
        deals.extend(((first, second), (got,)) for got in GEMS if got not in (first, second))
    for given in GEMS:
        deals.extend(((given,), (got,)) for got in GEMS if got != given)
    return tuple(deals)


DEALS: Final = _deals()
NUM_ACTIONS: Final = DEAL + len(DEALS)
"""Player decisions are the integers 0 .. NUM_ACTIONS - 1."""

DIE: Final = NUM_ACTIONS - 1
"""+ face (1..6): a roll of the fate die; the first chance outcome is `NUM_ACTIONS`."""
CARD: Final = DIE + 7
"""+ card id: the trade card turned face up on top of the pile."""
TIE_WINNER: Final = CARD + MAX_TRADE_CARDS
"""+ player: the tied player chosen at random (`final_tie = "random"`)."""
NUM_OUTCOMES: Final = TIE_WINNER + 4
"""Decisions and chance outcomes together are the integers 0 .. NUM_OUTCOMES - 1."""


def deals_for(mode: str) -> tuple[int, ...]:
    """The indices into `DEALS` a `trade_action_mode` allows."""
    chosen = []
    for index, (given, got) in enumerate(DEALS):
        if mode == "two_1for1":
            keep = len(given) == 2 and len(got) == 2
        elif mode == "same_type_pair":
            keep = len(got) == 2 and given[0] == given[1] and got[0] == got[1]
        elif mode == "two_for_one":
            keep = len(given) == 2 and len(got) == 1
        else:
            keep = len(given) == len(got)
        if keep:
            chosen.append(index)
    return tuple(chosen)


def _gems(gems: tuple[int, ...]) -> str:
    return "+".join(ITEM_SHORT[gem] for gem in gems)


def _flooded_trade(k: int) -> str:
    if k < 4:
        return f"give {ITEM_SHORT[k]} for a life ring"
    return f"give a life ring for {ITEM_SHORT[k - 4]}"


def _names() -> tuple[str, ...]:
    """The name of every id, in id order; ids no kind uses are named by their number."""
    names = [f"action {action}" for action in range(NUM_OUTCOMES)]
    fixed = {
        PASS: "pass",
        STEP_1: "step 1",
        STEP_2: "step 2",
        LOOT: "take loot",
        ACT: "plank action",
        FATE: "roll the fate die",
        CHALLENGE: "challenge the Mariner",
    }
    for action, text in fixed.items():
        names[action] = text
    ranges = [
        (ROPE, TRACK, lambda k: f"rope to {SPACE_NAMES[k]}"),
        (STEAL, 4, lambda k: f"steal from {COLOURS[k]}"),
        (TARGET, 4, lambda k: f"target {COLOURS[k]}"),
        (SWAP, len(PAIRS), lambda k: f"swap {COLOURS[PAIRS[k][0]]} and {COLOURS[PAIRS[k][1]]}"),
        (SHORTCUT_TO, 10, lambda k: f"shortcut to {PLANK_NAMES[k]}"),
        (FLOODED_TRADE, 8, _flooded_trade),
        (TAKE_ITEM, 6, lambda k: f"steal {ITEM_SHORT[k]}"),
        (TAKE, 6, lambda k: f"take {ITEM_SHORT[k]}"),
        (GIVE, 24, lambda k: f"give {ITEM_SHORT[k // 4]} to {COLOURS[k % 4]}"),
        (DROP, 4, lambda k: f"drop {ITEM_SHORT[k]} in the hole"),
        (RETURN, 4, lambda k: f"return {ITEM_SHORT[k]}"),
        (TRADE, 4, lambda k: f"trade #{k + 1} on the card"),
        (DEPLOY, len(WALLS), lambda k: f"Mariner to wall {wall_name(WALLS[k])}"),
        (EVAC, 16, lambda k: f"{COLOURS[k // 4]} Mariner to the {ITEM_SHORT[k % 4]} lifeboat"),
        (FLIP, 10, lambda k: f"flip {PLANK_NAMES[k]}"),
        (LANTERN, 10, lambda k: f"lantern to {PLANK_NAMES[k]}"),
        (DEAL, len(DEALS), lambda k: f"trade {_gems(DEALS[k][0])} for {_gems(DEALS[k][1])}"),
        (DIE + 1, 6, lambda k: f"rolled {k + 1}"),
        (CARD, MAX_TRADE_CARDS, lambda k: f"card {k + 1} turned up"),
        (TIE_WINNER, 4, lambda k: f"tie broken at random: {COLOURS[k]}"),
    ]
    for base, size, describe in ranges:
        for k in range(size):
            names[base + k] = describe(k)
    return tuple(names)


NAMES: Final = _names()
"""`NAMES[action]` is the action's name."""
_BY_NAME: Final = {
    text: action for action, text in enumerate(NAMES) if not text.startswith("action ")
}


def name_of(action: int) -> str:
    """The action's name: what a person or a table intent calls it."""
    return NAMES[action] if 0 <= action < NUM_OUTCOMES else f"action {action}"


def action_named(text: str) -> int:
    """The action a name stands for; an unknown name is an `IllegalActionError`."""
    action = _BY_NAME.get(text)
    if action is None:
        raise IllegalActionError(f"no action is called {text[:80]!r}")
    return action


def label(action: int, kind: int = -1) -> str:
    """The action's name with the plank action spelled out, where `kind` (the kind of the
    plank in play) says which it is."""
    if kind >= 0 and action == ACT:
        return KIND_TITLES[kind]
    if kind >= 0 and TARGET <= action < TARGET + 4:
        return f"{KIND_TITLES[kind]}: {COLOURS[action - TARGET]}"
    return name_of(action)
