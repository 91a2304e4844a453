"""Actions as small integers with a stable encoding, and chance outcomes beside them.

Every decision and every chance outcome of the game is one integer. Each kind of action owns a
fixed range (`BASE + parameter`), so an action's number never depends on the state it was
chosen in and logs stay readable across versions. `label` turns any number into words.
"""

from __future__ import annotations

from itertools import combinations

from tabletop.games.deadweight_board.board import (
    GEMS,
    ITEM_SHORT,
    KIND_TITLES,
    PLANK_NAMES,
    SPACE_NAMES,
)

PASS = 0
"""Do nothing more here: take nothing on a plank, end a station visit, stop keeping items."""
STEP_1 = 1
STEP_2 = 2
LOOT = 3
ACT = 4
"""Perform the plank action when it needs no choice (or roll to Walk the Plank)."""
FATE = 5
CHALLENGE = 6
ROPE = 10
"""+ destination space (0..11)."""
STEAL = 22
"""+ player: attempt to steal from a player on the plank landed on."""
TARGET = 26
"""+ player: the plank action aimed at one player (Switch, Sabotage, flooded steals, skip)."""
SWAP = 30
"""+ index into `PAIRS`: flooded Switch, swap two players."""
SHORTCUT_TO = 36
"""+ plank: flooded Shortcut destination."""
FLOODED_TRADE = 46
"""+ k: k < 4 pays gem k for a life ring; k >= 4 pays a life ring for gem k - 4."""
TAKE_ITEM = 54
"""+ item: the item a steal winner takes from the loser."""
TAKE = 60
"""+ item: keep or pick an item from a chest being shared out (Walk the Plank, flips)."""
GIVE = 66
"""+ item * 4 + player: hand an item from Walk the Plank's haul to another player."""
DROP = 90
"""+ gem: the gem dropped into the hole after a failed Walk the Plank."""
RETURN = 94
"""+ gem: a gem returned to the supply by a player holding more than 10."""
TRADE = 98
"""+ index of the trade on the player's trade card."""
DEPLOY = 102
"""+ wall: place (or move) the player's Mariner on a wall, paying its cost."""
EVAC = 115
"""+ mariner * 4 + lifeboat: move a Mariner to a lifeboat during the evacuation."""
FLIP = 131
"""+ plank: the plank flipped at the end of a turn in which a diamond was traded."""
LANTERN = 141
"""+ plank: where the lantern goes (setup placement or the end-of-turn move)."""
DEAL = 151
"""+ index into `DEALS`: the gems given and taken on a brown Trade plank."""

PAIRS = tuple(combinations(range(4), 2))
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


DEALS = _deals()
NUM_ACTIONS = DEAL + len(DEALS)
"""Player actions are the integers 0 .. NUM_ACTIONS - 1."""

DIE = 1000
"""+ face (1..6): a roll of the fate die."""
CARD = 1100
"""+ card id: the trade card turned face up on top of the pile."""
TIE_WINNER = 1400
"""+ player: the tied player chosen at random (`final_tie = "random"`)."""


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


def label(action: int, names: tuple[str, ...], kind: int = -1) -> str:
    """A short description of any action or chance outcome. `names` are the players'
    names; `kind` is the plank action in play, for actions whose meaning depends on it."""

    def seat(player: int) -> str:
        return names[player] if player < len(names) else f"seat {player + 1}"

    if TIE_WINNER <= action < TIE_WINNER + 4:
        return f"tie broken at random: {seat(action - TIE_WINNER)}"
    if CARD <= action < TIE_WINNER:
        return f"card {action - CARD} turned up"
    if DIE + 1 <= action <= DIE + 6:
        return f"rolled {action - DIE}"
    fixed = {
        PASS: "pass",
        STEP_1: "step 1",
        STEP_2: "step 2",
        LOOT: "take loot",
        ACT: f"{KIND_TITLES[kind]}" if kind >= 0 else "plank action",
        FATE: "roll the fate die",
        CHALLENGE: "challenge the Mariner",
    }
    if action in fixed:
        return fixed[action]
    ranges = [
        (DEAL, len(DEALS), lambda k: f"trade {_gems(DEALS[k][0])} for {_gems(DEALS[k][1])}"),
        (LANTERN, 10, lambda k: f"lantern to {PLANK_NAMES[k]}"),
        (FLIP, 10, lambda k: f"flip {PLANK_NAMES[k]}"),
        (EVAC, 16, lambda k: f"Mariner {k // 4} to lifeboat {ITEM_SHORT[k % 4]}"),
        (DEPLOY, 13, lambda k: f"Mariner to wall {k}"),
        (TRADE, 4, lambda k: f"trade #{k + 1} on the card"),
        (RETURN, 4, lambda k: f"return {ITEM_SHORT[k]}"),
        (DROP, 4, lambda k: f"drop {ITEM_SHORT[k]} in the hole"),
        (GIVE, 24, lambda k: f"give {ITEM_SHORT[k // 4]} to {seat(k % 4)}"),
        (TAKE, 6, lambda k: f"take {ITEM_SHORT[k]}"),
        (TAKE_ITEM, 6, lambda k: f"steal {ITEM_SHORT[k]}"),
        (FLOODED_TRADE, 8, _flooded_trade),
        (SHORTCUT_TO, 10, lambda k: f"shortcut to {PLANK_NAMES[k]}"),
        (SWAP, 6, lambda k: f"swap {seat(PAIRS[k][0])} and {seat(PAIRS[k][1])}"),
        (TARGET, 4, lambda k: f"{KIND_TITLES[kind] if kind >= 0 else 'target'}: {seat(k)}"),
        (STEAL, 4, lambda k: f"steal from {seat(k)}"),
        (ROPE, 12, lambda k: f"rope to {SPACE_NAMES[k]}"),
    ]
    for base, size, describe in ranges:
        if base <= action < base + size:
            return describe(action - base)
    return f"action {action}"


def _flooded_trade(k: int) -> str:
    if k < 4:
        return f"give {ITEM_SHORT[k]} for a life ring"
    return f"give a life ring for {ITEM_SHORT[k - 4]}"
