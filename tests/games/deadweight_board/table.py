"""A test table: the reference layout L0, a position arranged by name through the public
builder (`Position`, checked like any loaded game), dice fixed in advance, actions by their
named constants or names."""

from __future__ import annotations

from tabletop.dice import FixedDice
from tabletop.games.deadweight_board import Position, action_named
from tabletop.games.deadweight_board.actions import (
    DEPLOY,
    EVAC,
    FLIP,
    GIVE,
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
    COLOURS,
    ITEM_BY_NAME,
    ITEM_SHORT,
    PLANK_BY_NAME,
    SPACE_BY_NAME,
    WALLS,
    wall_name,
)
from tabletop.games.deadweight_board.rules import apply_in_place, legal_actions, roll_chance
from tabletop.games.deadweight_board.state import CHANCE, State

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
    return ITEM_SHORT.index(name) if name in ITEM_SHORT else ITEM_BY_NAME[name]


def space(name: str) -> int:
    return SPACE_BY_NAME[name]


def plank(name: str) -> int:
    return PLANK_BY_NAME[name]


class Table:
    """A game on the reference layout with every deck card TC-TEST and crates of 5.

    Arranging methods (`fresh_turn`, `at`, `hold`, …) edit a `Position`; the first look or
    move builds it, so a scenario is checked as a whole, like a saved game."""

    def __init__(self, players: int = 4, lantern: str = "P3", **options: object) -> None:
        self._position: Position | None = Position(
            players, seed=1, layout="reference", trade_deck=[TC_TEST] * 6, **options
        ).lantern(lantern)
        self._state: State | None = None
        self.dice = FixedDice([])

    @property
    def s(self) -> State:
        """The game state, for reading; arrange it with the methods below."""
        if self._position is not None:
            self._state = self._position.build()
            self._state.events = []
            self._position = None
        assert self._state is not None
        return self._state

    def _arrange(self) -> Position:
        if self._position is None:
            self._position = Position.of(self.s)
            self._state = None
        return self._position

    # --- arranging a scenario (the public builder) ---------------------------------------

    def fresh_turn(self, player: int = RED) -> Table:
        """Start `player`'s turn from scratch, after the first round (so without the first
        move's lantern rule)."""
        self._arrange().turn(COLOURS[player])
        return self

    def empty_hands(self) -> Table:
        """Notes §0: a player holds exactly what the scenario lists."""
        self._arrange().empty_hands()
        return self

    def hold(self, player: int, **items: int) -> Table:
        """`player` holds these counts of items (by short name); others stay as they are."""
        self._arrange().holding(COLOURS[player], **items)
        return self

    def at(self, player: int, where: str) -> Table:
        self._arrange().at(COLOURS[player], where)
        return self

    def lantern_on(self, where: str) -> Table:
        self._arrange().lantern(where)
        return self

    def mariner(self, owner: int, wall: str) -> Table:
        self._arrange().mariner(COLOURS[owner], wall)
        return self

    def flooded(self, *planks: str) -> Table:
        self._arrange().flooded(*planks)
        return self

    def evacuation(self, *boats: tuple[int, str]) -> Table:
        """Every plank flooded, and these (Mariner, lifeboat gem) already evacuated."""
        position = self._arrange().evacuation()
        for mariner, gem in boats:
            position.lifeboat(COLOURS[mariner], gem)
        return self

    def chest(self, number: int, **items: int) -> Table:
        self._arrange().chest(number, **items)
        return self

    def crate(self, gem: str, count: int) -> Table:
        self._arrange().crate(gem, count)
        return self

    def skips(self, player: int) -> Table:
        self._arrange().skips(COLOURS[player])
        return self

    # --- playing -----------------------------------------------------------------------

    def roll(self, *faces: int) -> Table:
        self.dice = FixedDice([*self.dice.remaining, *faces])
        self.settle()
        return self

    def settle(self) -> None:
        s = self.s
        while s.phase == CHANCE and self.dice.remaining:
            apply_in_place(s, roll_chance(s, self.dice))

    def do(self, *actions: int | str) -> Table:
        """Take actions, by named constant or by name ("steal from Blue")."""
        for action in actions:
            self.settle()
            apply_in_place(self.s, action_named(action) if isinstance(action, str) else action)
            self.settle()
        return self

    def legal(self) -> list[int]:
        return legal_actions(self.s)

    def items(self, player: int) -> dict[str, int]:
        return {n: c for n, c in zip(ITEM_SHORT, self.s.items(player), strict=True) if c}

    def chest_items(self, number: int) -> list[int]:
        return self.s.chests[(number - 1) * 6 : number * 6]

    def events(self, kind: str) -> list[dict]:
        return [e for e in self.s.events or [] if e["kind"] == kind]


def wall_index(name: str) -> int:
    return next(w for w, wall in enumerate(WALLS) if wall_name(wall) == name)


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


def give(name: str, player: int) -> int:
    return GIVE + item(name) * 4 + player


def lantern_to(where: str) -> int:
    return LANTERN + plank(where)


def flip(where: str) -> int:
    return FLIP + plank(where)


def shortcut_to(where: str) -> int:
    return SHORTCUT_TO + plank(where)


def trade(number: int) -> int:
    """Trade #number (1-based, as on the card)."""
    return TRADE + number - 1


def deploy(wall: str) -> int:
    return DEPLOY + wall_index(wall)


def evacuate(mariner: int, gem: str) -> int:
    return EVAC + mariner * 4 + item(gem)
