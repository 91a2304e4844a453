"""A test table: the reference layout L0, players placed by hand, dice fixed in advance."""

from __future__ import annotations

from tabletop.dice import FixedDice, SeededDice
from tabletop.games.deadweight_board.actions import (
    DEPLOY,
    FLIP,
    LANTERN,
    ROPE,
    SHORTCUT_TO,
    STEAL,
    TAKE,
    TAKE_ITEM,
    TARGET,
    TRADE,
)
from tabletop.games.deadweight_board.board import (
    ITEM_BY_NAME,
    PLANK_BY_NAME,
    SPACE_BY_NAME,
    wall_name,
)
from tabletop.games.deadweight_board.config import make_config
from tabletop.games.deadweight_board.rules import (
    apply_in_place,
    legal_actions,
    roll_chance,
)
from tabletop.games.deadweight_board.setup import new_game
from tabletop.games.deadweight_board.state import CHANCE, MOVE, State

RED, BLUE, GREEN, YELLOW = range(4)
TC_TEST = {
    "trades": [
        {"cost": {"emerald": 2}, "life_rings": 1},
        {"cost": {"pearl": 1, "ruby": 1}, "life_rings": 1},
        {"cost": {"diamond": 1}, "life_rings": 1},
        {"cost": {"emerald": 1, "pearl": 1, "ruby": 1, "diamond": 1}, "life_rings": 3},
    ]
}
"""The notes' placeholder trade card TC-TEST: t1 {Em,Em}→1, t2 {Pe,Ru}→1, t3 {Di}→1,
t4 {Em,Pe,Ru,Di}→3."""


def item(name: str) -> int:
    return ITEM_BY_NAME[
        {
            "Em": "emerald",
            "Pe": "pearl",
            "Ru": "ruby",
            "Di": "diamond",
            "Rope": "rope",
            "LR": "life_ring",
        }.get(name, name)
    ]


def space(name: str) -> int:
    return SPACE_BY_NAME[name]


def plank(name: str) -> int:
    return PLANK_BY_NAME[name]


class Table:
    """A game on the reference layout with every deck card TC-TEST and crates of 5."""

    def __init__(self, players: int = 4, lantern: str = "P3", **options: object) -> None:
        config = make_config(layout="reference", trade_deck=[TC_TEST] * 6, **options)
        self.state = new_game(players, config, SeededDice(1))
        self.state.events = []
        self.dice = FixedDice([])
        apply_in_place(self.state, LANTERN + plank(lantern))

    @property
    def s(self) -> State:
        return self.state

    # --- arranging a scenario --------------------------------------------------------

    def fresh_turn(self, player: int = RED) -> Table:
        """Start `player`'s turn from scratch (as after setup), without the first-turn rule."""
        s = self.state
        s.first_block = -1
        s.active = player
        s.owner = player
        s.phase = MOVE
        return self

    def empty_hands(self) -> Table:
        """Notes §0: a player holds exactly what the scenario lists."""
        self.state.inv = [0] * len(self.state.inv)
        return self

    def hold(self, player: int, **items: int) -> Table:
        base = player * 6
        for name, count in items.items():
            self.state.inv[base + item(name)] = count
        return self

    def at(self, player: int, where: str) -> Table:
        self.state.pos[player] = space(where)
        return self

    def lantern_on(self, where: str) -> Table:
        self.state.lantern = plank(where)
        return self

    def mariner(self, owner: int, wall: str) -> Table:
        self.state.dep = owner
        self.state.dep_wall = wall_index(self.state, wall)
        return self

    def flooded(self, *planks: str) -> Table:
        for name in planks:
            self.state.flooded |= 1 << plank(name)
        return self

    # --- playing -----------------------------------------------------------------------

    def roll(self, *faces: int) -> Table:
        self.dice = FixedDice([*self.dice.remaining, *faces])
        self.settle()
        return self

    def settle(self) -> None:
        s = self.state
        while s.phase == CHANCE and self.dice.remaining:
            apply_in_place(s, roll_chance(s, self.dice))

    def do(self, *actions: int) -> Table:
        for action in actions:
            self.settle()
            apply_in_place(self.state, action)
            self.settle()
        return self

    def legal(self) -> list[int]:
        return legal_actions(self.state)

    def items(self, player: int) -> dict[str, int]:
        names = ("Em", "Pe", "Ru", "Di", "Rope", "LR")
        return {n: c for n, c in zip(names, self.state.items(player), strict=True) if c}

    def events(self, kind: str) -> list[dict]:
        return [e for e in self.state.events or [] if e["kind"] == kind]


def wall_index(state: State, name: str) -> int:
    return next(w for w, wall in enumerate(state.ship.walls) if wall_name(wall) == name)


def rope_to(where: str) -> int:
    return ROPE + space(where)


def steal_from(player: int) -> int:
    return STEAL + player


def target(player: int) -> int:
    return TARGET + player


def take(name: str) -> int:
    return TAKE + item(name)


def take_item(name: str) -> int:
    return TAKE_ITEM + item(name)


def lantern_to(where: str) -> int:
    return LANTERN + plank(where)


def flip(where: str) -> int:
    return FLIP + plank(where)


def shortcut_to(where: str) -> int:
    return SHORTCUT_TO + plank(where)


def trade(number: int) -> int:
    """Trade #number (1-based, as on the card)."""
    return TRADE + number - 1


def deploy(state: State, wall: str) -> int:
    return DEPLOY + wall_index(state, wall)
