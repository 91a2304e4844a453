"""A table game's record: the seed its dice follow and every step since the setup, so that
the server can roll the next chance node from the same stream, and a finished game can be
stepped through and written out as the JSON-lines log `deadweight-board replay` checks.

A table draws the game's seed from the room's fair dice when the GM starts the game; the
setup and every chance node after it are drawn from `SeededDice(seed)`, in order, exactly
as `simulate` plays a game, so that `replay` re-executes the table's game like a simulated
one (docs/rules/deadweight-board.md, ENG-10).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from tabletop.dice import SeededDice
from tabletop.games.deadweight_board.board import COLOURS
from tabletop.games.deadweight_board.config import DeadweightConfig
from tabletop.games.deadweight_board.errors import BoardDataError
from tabletop.games.deadweight_board.log import GameLog
from tabletop.games.deadweight_board.observe import ALL_SEEING, observation
from tabletop.games.deadweight_board.rules import apply_in_place, describe, roll_chance
from tabletop.games.deadweight_board.setup import new_game
from tabletop.games.deadweight_board.state import CHANCE, State
from tabletop.session import Frozen

GAME_SEED_SIDES = 2**31 - 1
"""The die a table's game seed is drawn from (a seed `SeededDice` and the log take)."""


class Step(Frozen):
    """One step of a table's game after its setup: a decision, with the bot that chose it
    and the seed that bot drew (None for a person's), or a chance outcome."""

    action: int
    bot: str | None = None
    bot_seed: int | None = None


class Moment:
    """One step as it is re-run: the state before it, whether it was a chance node, who
    decided (the seat, or -1 at a chance node), and its line of text."""

    __slots__ = ("chance", "player", "step", "text")

    def __init__(self, state: State, step: Step) -> None:
        self.step = step
        self.chance = state.chance if state.phase == CHANCE else -1
        self.player = -1 if self.chance >= 0 else state.owner
        self.text = describe(state, step.action)


class Rerun:
    """A table's game re-run from its seed: the state after the setup, then after each step
    `play` applies (one state, changed in place), and the dice where the next chance node
    draws."""

    def __init__(self, players: int, options: DeadweightConfig, seed: int) -> None:
        self.dice = SeededDice(seed)
        self.state = new_game(players, options, self.dice)

    def play(self, steps: Iterable[Step]) -> Iterator[Moment]:
        """Apply each step, yielding it as a `Moment` once applied. A chance outcome the
        dice do not give is refused: the record was not played from this seed."""
        for number, step in enumerate(steps, start=1):
            moment = Moment(self.state, step)
            if moment.chance >= 0 and roll_chance(self.state, self.dice) != step.action:
                raise BoardDataError(
                    f"step {number} of the table's record is not what its dice give"
                )
            apply_in_place(self.state, step.action)
            yield moment


def rerun(players: int, options: DeadweightConfig, seed: int, steps: Iterable[Step]) -> Rerun:
    """The game after every step of its record."""
    game = Rerun(players, options, seed)
    deque(game.play(steps), maxlen=0)
    return game


def finished(
    bots: Sequence[str], options: DeadweightConfig, seed: int, steps: Iterable[Step]
) -> tuple[list[str], list[dict[str, Any]]]:
    """A finished game, re-run once, as two things:

    - its log: the JSON lines `deadweight-board replay` checks (log.py's writer), as one game
      numbered 0; `bots` names each seat's holder at the start, and each bot's decision names
      the bot and the seed it drew, so that replay asks it again;
    - its boards as a page steps through them: after the setup, then after each decision with
      the chance nodes it led to, each with what happened in words. Seen whole
      (ALL_SEEING): once the game is over its log, which anyone at the table may download,
      holds every state in full anyway.
    """
    game = Rerun(len(bots), options, seed)
    log = GameLog(0)
    log.setup(seed, list(bots), [None] * len(bots), game.state)
    boards = [{"text": "the ship is set up", "state": observation(game.state, ALL_SEEING)}]
    told: list[str] = []
    for moment in game.play(steps):
        step, text = moment.step, moment.text
        if moment.chance >= 0:
            log.chance(moment.chance, step.action, text, game.state)
            told.append(text)
        else:
            log.decision(moment.player, step.action, text, game.state, step.bot, step.bot_seed)
            told.append(f"{COLOURS[moment.player]}: {text}")
        if game.state.phase != CHANCE:
            boards.append({"text": "; ".join(told), "state": observation(game.state, ALL_SEEING)})
            told = []
    log.end(game.state)
    return log.lines, boards
