"""Positions built by name: the ship's layout, where each piece stands, whose turn it is.

>>> from tabletop.games.deadweight_board import Position
>>> state = (
...     Position(4, layout="reference").lantern("P3")
...     .turn("Red").at("Red", "S1").holding("Red", rope=1, life_ring=2)
...     .mariner("Blue", "S2|S3").build()
... )
>>> state.current_player
0

A `Position` starts from a fresh setup (seed §Ship Setup) on the layout the options name
("reference" unless told), edits it in the game's own words, and `build` checks the result
with the same strict loader a saved game goes through (reachable.py): a position the rules
cannot reach is refused with the rule it breaks. With a finite supply (AMB-09), pieces put
in a hand or a chest come from the supply and pieces taken away go back to it.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from tabletop.dice import SeededDice
from tabletop.games.deadweight_board.actions import LANTERN
from tabletop.games.deadweight_board.board import (
    COLOURS,
    ITEM_BY_NAME,
    ITEM_NAMES,
    ITEM_SHORT,
    PLANK_BY_NAME,
    SPACE_BY_NAME,
    wall_name,
)
from tabletop.games.deadweight_board.config import make_config
from tabletop.games.deadweight_board.errors import StateError
from tabletop.games.deadweight_board.model import from_model, to_model
from tabletop.games.deadweight_board.rules import apply_in_place
from tabletop.games.deadweight_board.setup import new_game
from tabletop.games.deadweight_board.state import (
    EVACUATION,
    MOVE,
    SETUP_LANTERN,
    State,
)
from tabletop.games.deadweight_board.turns import reload_contents
from tabletop.session import first_problem

_ITEMS = {**ITEM_BY_NAME, **{short: index for index, short in enumerate(ITEM_SHORT)}}
"""Items by their full name (`life_ring`) or their short one (`LR`)."""


def _named(table: dict[str, int], name: str, what: str) -> int:
    if name not in table:
        raise StateError(f"no {what} is called {name!r}; the {what}s are {', '.join(table)}")
    return table[name]


class Position:
    """A position under construction; every method returns the position, `build` checks it."""

    def __init__(self, players: int = 4, *, seed: int = 0, **options: Any) -> None:
        options.setdefault("layout", "reference")
        self._state = new_game(players, make_config(**options), SeededDice(seed))

    @classmethod
    def of(cls, state: State) -> Position:
        """A position that starts from `state` (a copy: `state` is not changed)."""
        position = cls.__new__(cls)
        position._state = state.clone()
        return position

    # names ----------------------------------------------------------------------------------

    def _seat(self, colour: str) -> int:
        seat = _named({c: i for i, c in enumerate(COLOURS[: self._state.n])}, colour, "seat")
        return seat

    def _give(self, where: list[int], index: int, item: int, count: int) -> None:
        """Set a count, the difference coming from (or going back to) a finite supply."""
        if count < 0:
            raise StateError(f"a count of {ITEM_SHORT[item]} cannot be negative")
        supply = self._state.supply
        if supply is not None:
            left = supply[item] - (count - where[index])
            if left < 0:
                raise StateError(f"the supply holds too few {ITEM_SHORT[item]} for that")
            supply[item] = left
        where[index] = count

    # the pieces -----------------------------------------------------------------------------

    def lantern(self, plank: str) -> Position:
        """The lantern on `plank`; at setup this is the first player's placement, which
        starts the first turn (seed §Setup 5)."""
        s = self._state
        where = _named(PLANK_BY_NAME, plank, "plank")
        if s.phase == SETUP_LANTERN:
            apply_in_place(s, LANTERN + where)
        else:
            s.lantern = where
        return self

    def at(self, colour: str, space: str) -> Position:
        self._state.pos[self._seat(colour)] = _named(SPACE_BY_NAME, space, "space")
        return self

    def holding(self, colour: str, **items: int) -> Position:
        """These counts of items in `colour`'s hands (items not named stay as they are)."""
        base = self._seat(colour) * 6
        for name, count in items.items():
            item = _named(_ITEMS, name, "item")
            self._give(self._state.inv, base + item, item, count)
        return self

    def empty_hands(self) -> Position:
        """Nobody holds anything (not even the rope every player starts with)."""
        for colour in COLOURS[: self._state.n]:
            self.holding(colour, **dict.fromkeys(ITEM_NAMES, 0))
        return self

    def chest(self, number: int, **items: int) -> Position:
        """Exactly these items in chest C`number` (1 at the front to 5 at the back)."""
        if not 1 <= number <= 5:
            raise StateError("the chests are C1 to C5")
        base = (number - 1) * 6
        counts = {_named(_ITEMS, name, "item"): count for name, count in items.items()}
        for item in range(6):
            self._give(self._state.chests, base + item, item, counts.get(item, 0))
        return self

    def crate(self, gem: str, count: int) -> Position:
        self._state.crates[_named(_ITEMS, gem, "item")] = count
        return self

    def flooded(self, *planks: str) -> Position:
        """These planks flipped to their flooded side in earlier turns: the chest below each
        was shared out and reloaded at the end of that turn (AMB-08)."""
        s = self._state
        for plank in planks:
            k = _named(PLANK_BY_NAME, plank, "plank")
            if not s.flooded >> k & 1:
                s.flooded |= 1 << k
                self._reload(s.ship.chest_of_plank[k])
        return self

    def _reload(self, chest: int) -> None:
        s = self._state
        reloads = s.ship.config.reload_trigger == "any_emptied"
        contents = reload_contents(s) if reloads else (0, 0, 0, 0, 0, 0)
        for item in range(6):
            self._give(s.chests, chest * 6 + item, item, contents[item])

    def evacuation(self) -> Position:
        """Every plank flooded: the evacuation (seed §When All Planks Are Flipped)."""
        self.flooded(*PLANK_BY_NAME)
        self._state.stage = EVACUATION
        return self

    def mariner(self, colour: str, wall: str) -> Position:
        """`colour`'s Mariner deployed on `wall` ("S2|S3")."""
        s = self._state
        walls = {wall_name(w): i for i, w in enumerate(s.ship.walls)}
        s.dep, s.dep_wall = self._seat(colour), _named(walls, wall, "wall")
        return self

    def lifeboat(self, mariner: str, gem: str) -> Position:
        """The `mariner` colour's Mariner (a neutral one too) in the `gem` lifeboat."""
        s = self._state
        m = _named({c: i for i, c in enumerate(COLOURS)}, mariner, "Mariner")
        s.boat[m] = _named(_ITEMS, gem, "item")
        if s.dep == m:
            s.dep, s.dep_wall = -1, -1
        s.end_triggered = all(b >= 0 for b in s.boat)
        return self

    def skips(self, colour: str, turns: int = 1) -> Position:
        self._state.skip[self._seat(colour)] = turns
        return self

    # whose turn -----------------------------------------------------------------------------

    def turn(self, colour: str, number: int | None = None) -> Position:
        """`colour`'s turn begins, at their move: turn `number`, or their next turn after
        the first round (so the first move's lantern rule, AMB-13, does not apply)."""
        s = self._state
        if s.phase == SETUP_LANTERN:
            raise StateError("place the lantern first: that is the setup's last step")
        seat, n = self._seat(colour), s.n
        if number is None:
            number = max(s.turn, 2)
            while (s.first_player + number - 1) % n != seat:
                number += 1
        if (s.first_player + number - 1) % n != seat or not number >= 1:
            raise StateError(f"turn {number} is not {colour}'s")
        s.turn = number
        for offset in range(n):
            s.turns_taken[(s.first_player + offset) % n] = (number - offset + n - 1) // n
        s.active = s.owner = seat
        s.phase, s.chance = MOVE, -1
        s.reset_turn()
        s.pool = [0] * 6
        first_move = number == 1 and s.ship.config.lantern_setup_rule == "no_first_landing"
        s.first_block = s.lantern if first_move else -1
        return self

    # done -----------------------------------------------------------------------------------

    def build(self) -> State:
        """The position as a game state, checked like a saved game (reachable.py)."""
        try:
            model = to_model(self._state)
        except ValidationError as problem:
            raise StateError(f"unreachable position: {first_problem(problem)}") from None
        return from_model(model)
