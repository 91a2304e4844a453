"""Games written line by line outside `simulate`, as a table or a forger would write them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tabletop.dice import SeededDice
from tabletop.games.deadweight_board.config import make_config
from tabletop.games.deadweight_board.log import GameLog
from tabletop.games.deadweight_board.rules import apply_in_place, describe, roll_chance
from tabletop.games.deadweight_board.setup import new_game
from tabletop.games.deadweight_board.state import CHANCE, OVER, State

Decide = Callable[[State, int], tuple[int, dict[str, Any]]]
"""The `n`th decision of the game: its action, and the `bot`/`bot_seed` its line names."""


def written_game(
    seed: int,
    holders: list[str],
    bot_seeds: list[int | None],
    decide: Decide,
    table: bool = False,
) -> list[str]:
    """A game of four turns from `seed`, each decision `decide`'s, as a log's lines; with
    `table`, as a table writes it: no seed on the setup line (the room's dice gave the
    setup and the outcomes, which the lines record)."""
    dice, log = SeededDice(seed), GameLog(0)
    state = new_game(len(holders), make_config(turn_cap=4), dice)
    log.setup(None if table else seed, holders, bot_seeds, state)
    decisions = 0
    while state.phase != OVER:
        if state.phase == CHANCE:
            chance, outcome = state.chance, roll_chance(state, dice)
            text = describe(state, outcome)
            apply_in_place(state, outcome)
            log.chance(chance, outcome, text, state)
            continue
        owner, (action, made_by) = state.owner, decide(state, decisions)
        decisions += 1
        text = describe(state, action)
        apply_in_place(state, action)
        log.decision(owner, action, text, state, **made_by)
    log.end(state)
    return log.lines
