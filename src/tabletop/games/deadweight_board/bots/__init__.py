"""Bots that play Deadweight: random, greedy and Monte Carlo tree search.

A bot is anything with a `name` and `choose(state) -> action`, called only at decision
nodes. `make_bot("mcts:400", seed)` builds one from a seat description.
"""

from __future__ import annotations

from typing import Protocol

from tabletop.games.deadweight_board.bots.greedy import GreedyBot
from tabletop.games.deadweight_board.bots.heuristic import win_chances, worths
from tabletop.games.deadweight_board.bots.mcts import MctsBot
from tabletop.games.deadweight_board.bots.random_bot import RandomBot
from tabletop.games.deadweight_board.errors import ConfigError
from tabletop.games.deadweight_board.state import State

BOT_KINDS = ("random", "greedy", "mcts")


class Bot(Protocol):
    name: str

    def choose(self, state: State) -> int: ...


def make_bot(description: str, seed: int = 0) -> Bot:
    """A bot from a seat description: `random`, `greedy`, `mcts`, `mcts:400` (simulations
    per decision) or `mcts:0.5s` (seconds per decision)."""
    kind, _, budget = description.partition(":")
    if kind == "random" and not budget:
        return RandomBot(seed)
    if kind == "greedy" and not budget:
        return GreedyBot(seed)
    if kind == "mcts":
        try:
            if not budget:
                return MctsBot(seed)
            if budget.endswith("s"):
                return MctsBot(seed, seconds=float(budget[:-1]))
            return MctsBot(seed, simulations=int(budget))
        except ValueError as error:
            raise ConfigError(f"bad MCTS budget {budget!r}: {error}") from None
    raise ConfigError(
        f"unknown bot {description!r}; choose random, greedy, mcts, mcts:N or mcts:Ts"
    )


def replayable_bot(description: str, seed: int) -> Bot:
    """A bot that chooses the same again from the same seed and position, as a logged game
    needs: a time budget searches as far as the machine gets, so it is refused."""
    bot = make_bot(description, seed)
    if getattr(bot, "seconds", None) is not None:
        raise ConfigError(
            f"bot {description!r} has a time budget and would not choose the same way on "
            "replay; give it a number of simulations (mcts:N) to log its games"
        )
    return bot


__all__ = [
    "BOT_KINDS",
    "Bot",
    "GreedyBot",
    "MctsBot",
    "RandomBot",
    "make_bot",
    "replayable_bot",
    "win_chances",
    "worths",
]
