"""The board game as a research environment: PettingZoo, Gymnasium and OpenSpiel.

These need the optional `rl` extra (`pip install tabletop[rl]`), so each is imported only
when asked for; the rest of the package never imports them. Every environment observes
through `encoding.encode` (what observe.py lets that seat see) and acts in the action space
of actions.py. docs/environments.md shows each in use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tabletop.games.deadweight_board.envs.gym_env import DeadweightGym
    from tabletop.games.deadweight_board.envs.pettingzoo_env import DeadweightAEC


def aec_env(players: int = 4, render_mode: str | None = None, **config: Any) -> DeadweightAEC:
    """A PettingZoo AEC environment: one agent per seat, rewards when the game ends."""
    from tabletop.games.deadweight_board.envs.pettingzoo_env import DeadweightAEC

    return DeadweightAEC(players, config, render_mode)


def gym_env(
    players: int = 4,
    opponents: str | list[str] = "random",
    seat: int = 0,
    render_mode: str | None = None,
    **config: Any,
) -> DeadweightGym:
    """A Gymnasium environment for one seat; bots (`random`, `greedy`, `mcts:N`) play the rest."""
    from tabletop.games.deadweight_board.envs.gym_env import DeadweightGym

    return DeadweightGym(players, opponents, seat, config, render_mode)


def register_openspiel() -> None:
    """Register the game with OpenSpiel as `python_deadweight_board` (safe to call again)."""
    from tabletop.games.deadweight_board.envs.openspiel_game import register

    register()


__all__ = ["aec_env", "gym_env", "register_openspiel"]
