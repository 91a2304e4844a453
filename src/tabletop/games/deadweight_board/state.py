"""The compact, mutable game state: plain ints and flat lists, so that a step and a clone are
cheap. Validated pydantic models exist at the boundary (`model.py`) for saving and loading.

Layout of the flat lists:
- `inv[p * 6 + item]`: what player p holds (items are Em, Pe, Ru, Di, Rope, LR).
- `chests[c * 6 + item]`: what chest c (0..4, front to back) holds.
- `pool[item]`: items taken out of a chest and being shared out (Walk the Plank, flips).
Mariner m belongs to player m when m < number of players, and is neutral otherwise.
"""

from __future__ import annotations

import zlib
from typing import Any, Final

from tabletop.games.deadweight_board.board import COLOURS
from tabletop.games.deadweight_board.ship import Ship

# What kind of node the game is at (`State.phase`).
SETUP_LANTERN: Final = 0
MOVE: Final = 1
PLANK: Final = 2
STATION: Final = 3
TAKE_ITEM: Final = 4
WTP_KEEP: Final = 5
WTP_GIVE: Final = 6
WTP_DROP: Final = 7
FLIP: Final = 8
FLIP_KEEP: Final = 9
FLIP_PICK: Final = 10
LANTERN: Final = 11
LIMIT: Final = 12
EVAC: Final = 13
FORCED_DEPLOY: Final = 14
CHANCE: Final = 15
OVER: Final = 16
PHASE_NAMES: Final = (
    "setup_lantern",
    "move",
    "plank",
    "station",
    "take_item",
    "wtp_keep",
    "wtp_give",
    "wtp_drop",
    "flip",
    "flip_keep",
    "flip_pick",
    "lantern",
    "limit",
    "evacuate",
    "forced_deploy",
    "chance",
    "over",
)

# Which chance event is pending (`State.chance`).
MARINER_OWNER_ROLL: Final = 0
MARINER_MOVER_ROLL: Final = 1
STEAL_ROLL: Final = 2
DEFEND_ROLL: Final = 3
CHALLENGE_ROLL: Final = 4
HOLD_ROLL: Final = 5
WTP_ROLL: Final = 6
FATE_ROLL: Final = 7
REVEAL_CARD: Final = 8
TIE_DRAW: Final = 9
CHANCE_NAMES: Final = (
    "mariner_owner_roll",
    "mariner_mover_roll",
    "steal_roll",
    "defend_roll",
    "challenge_roll",
    "hold_roll",
    "wtp_roll",
    "fate_roll",
    "reveal_card",
    "tie_draw",
)

# The stage of the game (`State.stage`), seed "Game End Condition" and notes §2.1.
SINKING: Final = 0
EVACUATION: Final = 1
FINAL: Final = 2
ENDED: Final = 3
STAGE_NAMES: Final = ("sinking", "evacuation", "final", "ended")

# Landing flags (`State.landing`).
LANTERN_HERE: Final = 1
STEAL_DONE: Final = 2
LOOT_DONE: Final = 4

CHANCE_PLAYER: Final = -1
"""`current_player` at a chance node (as in OpenSpiel)."""
TERMINAL_PLAYER: Final = -4
"""`current_player` once the game is over."""


FIELDS: Final = (
    "aborted",
    "active",
    "boat",
    "c_attacker",
    "c_defender",
    "c_item",
    "c_resume",
    "c_roll",
    "card",
    "chance",
    "chests",
    "crates",
    "dep",
    "dep_wall",
    "discards",
    "emptied",
    "end_triggered",
    "evac_done",
    "evac_left",
    "events",
    "final_queue",
    "first_block",
    "first_player",
    "flip_pending",
    "flipper",
    "flooded",
    "inv",
    "keep_left",
    "landing",
    "lantern",
    "limit_player",
    "limit_resume",
    "mariner_done",
    "n",
    "owner",
    "phase",
    "pick_skips",
    "picker",
    "pile",
    "pool",
    "pos",
    "reveal_resume",
    "ship",
    "skip",
    "stage",
    "station_mode",
    "stats",
    "supply",
    "take_resume",
    "taker",
    "teleport_queue",
    "top",
    "traded",
    "trades_done",
    "turn",
    "turns_taken",
    "victim",
    "winners",
    "wtp_won",
)
"""Every attribute of a `State`, in one place: its slots, and what `digest` reads."""


class State:
    """One moment of a game. Mutated in place by `rules.apply_in_place`; `clone` copies it.

    Observers (`events`, a list of event dicts, and `stats`, a dict of counters) are attached
    by whoever wants them and are not part of the game state: `clone` leaves them off.
    """

    __slots__ = FIELDS

    def __init__(self, ship: Ship, players: int) -> None:
        self.ship = ship
        self.n = players
        self.pos = [0] * players
        self.inv = [0] * (players * 6)
        self.card = [0] * players
        self.skip = [0] * players
        self.turns_taken = [0] * players
        self.flooded = 0
        self.chests = [0] * 30
        self.crates = [0, 0, 0, 0]
        self.supply: list[int] | None = None
        self.lantern = 0
        self.dep = -1
        self.dep_wall = -1
        self.boat = [-1, -1, -1, -1]
        self.pile = 0
        self.top = -1
        self.discards = 0
        self.phase = SETUP_LANTERN
        self.owner = 0
        self.chance = -1
        self.active = 0
        self.first_player = 0
        self.turn = 0
        self.stage = SINKING
        self.first_block = -1
        self.final_queue: list[int] = []
        self.end_triggered = False
        self.reset_turn()
        self.c_attacker = -1
        self.c_defender = -1
        self.c_item = -1
        self.c_roll = 0
        self.c_resume = 0
        self.taker = -1
        self.victim = -1
        self.take_resume = 0
        self.limit_player = -1
        self.limit_resume = 0
        self.pool = [0] * 6
        self.keep_left = 0
        self.picker = -1
        self.pick_skips = 0
        self.flipper = -1
        self.reveal_resume = 0
        self.teleport_queue: list[int] = []
        self.aborted = False
        self.winners: list[int] = []
        self.events: list[dict[str, Any]] | None = None
        self.stats: dict[str, int] | None = None

    def reset_turn(self) -> None:
        """Forget what the last turn did: a turn starts with nothing done (notes §2.2 T0.2)."""
        self.flip_pending = False
        self.evac_left = 0
        self.evac_done = False
        self.emptied = 0
        self.wtp_won = False
        self.trades_done = 0
        self.mariner_done = False
        self.station_mode = 0
        self.traded = False
        self.landing = 0

    # --- the OpenSpiel-like surface ----------------------------------------------------

    @property
    def current_player(self) -> int:
        """Who decides now: a seat, `CHANCE_PLAYER` at a chance node, or `TERMINAL_PLAYER`.
        The decider is not always the player whose turn it is (`active`)."""
        if self.phase == CHANCE:
            return CHANCE_PLAYER
        if self.phase == OVER:
            return TERMINAL_PLAYER
        return self.owner

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def is_chance_node(self) -> bool:
        return self.phase == CHANCE

    def returns(self) -> list[float]:
        """Each player's share of the win: 1/k for each of k winners, 0 for the others
        (all zero until the game is over)."""
        if self.phase != OVER or not self.winners:
            return [0.0] * self.n
        share = 1.0 / len(self.winners)
        return [share if p in self.winners else 0.0 for p in range(self.n)]

    def clone(self) -> State:
        """An independent copy of the game state (observers are not copied)."""
        new = State(self.ship, self.n)  # a compiled State is made only by its constructor
        new.pos = self.pos[:]
        new.inv = self.inv[:]
        new.card = self.card[:]
        new.skip = self.skip[:]
        new.turns_taken = self.turns_taken[:]
        new.flooded = self.flooded
        new.chests = self.chests[:]
        new.crates = self.crates[:]
        new.supply = None if self.supply is None else self.supply[:]
        new.lantern = self.lantern
        new.dep = self.dep
        new.dep_wall = self.dep_wall
        new.boat = self.boat[:]
        new.pile = self.pile
        new.top = self.top
        new.discards = self.discards
        new.phase = self.phase
        new.owner = self.owner
        new.chance = self.chance
        new.active = self.active
        new.first_player = self.first_player
        new.turn = self.turn
        new.stage = self.stage
        new.first_block = self.first_block
        new.final_queue = self.final_queue[:]
        new.flip_pending = self.flip_pending
        new.evac_left = self.evac_left
        new.evac_done = self.evac_done
        new.emptied = self.emptied
        new.wtp_won = self.wtp_won
        new.trades_done = self.trades_done
        new.mariner_done = self.mariner_done
        new.station_mode = self.station_mode
        new.traded = self.traded
        new.end_triggered = self.end_triggered
        new.landing = self.landing
        new.c_attacker = self.c_attacker
        new.c_defender = self.c_defender
        new.c_item = self.c_item
        new.c_roll = self.c_roll
        new.c_resume = self.c_resume
        new.taker = self.taker
        new.victim = self.victim
        new.take_resume = self.take_resume
        new.limit_player = self.limit_player
        new.limit_resume = self.limit_resume
        new.pool = self.pool[:]
        new.keep_left = self.keep_left
        new.picker = self.picker
        new.pick_skips = self.pick_skips
        new.flipper = self.flipper
        new.reveal_resume = self.reveal_resume
        new.teleport_queue = self.teleport_queue[:]
        new.aborted = self.aborted
        new.winners = self.winners[:]
        new.events = None
        new.stats = None
        return new

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        """`copy.deepcopy` (how OpenSpiel clones a Python game's state) is `clone`: the
        ship is shared and read-only, so copying it would only cost time."""
        return self.clone()

    # --- questions the rules and the bots ask -------------------------------------------

    @property
    def names(self) -> tuple[str, ...]:
        return COLOURS[: self.n]

    def items(self, player: int) -> list[int]:
        """What `player` holds: [Em, Pe, Ru, Di, Rope, LR]."""
        return self.inv[player * 6 : player * 6 + 6]

    def gems(self, player: int) -> int:
        """How many gems (loot pieces) `player` holds."""
        base = player * 6
        inv = self.inv
        return inv[base] + inv[base + 1] + inv[base + 2] + inv[base + 3]

    def life_rings(self, player: int) -> int:
        return self.inv[player * 6 + 5]

    def loot_value(self, player: int) -> int:
        """The tie-break: gem values held (Em 1, Pe 2, Ru 3, Di 4)."""
        base = player * 6
        inv = self.inv
        return inv[base] + 2 * inv[base + 1] + 3 * inv[base + 2] + 4 * inv[base + 3]

    def scores(self) -> list[int]:
        """Life rings per player: the score."""
        return [self.inv[p * 6 + 5] for p in range(self.n)]

    def leaders(self) -> list[int]:
        """The players level at the top: most life rings, then most loot value."""
        best = max((self.life_rings(p), self.loot_value(p)) for p in range(self.n))
        return [p for p in range(self.n) if (self.life_rings(p), self.loot_value(p)) == best]

    def ranking(self) -> list[int]:
        """Players best first: life rings, then loot value (seed, Game End Condition)."""
        return sorted(range(self.n), key=lambda p: (-self.life_rings(p), -self.loot_value(p), p))

    def mariner_owner(self, mariner: int) -> int:
        """The seat owning `mariner`, or -1 for a neutral Mariner."""
        return mariner if mariner < self.n else -1

    def flips_done(self) -> int:
        return self.flooded.bit_count()

    def digest(self) -> str:
        """A short fingerprint of the whole game state, to check a replay step by step."""
        fields = tuple(
            tuple(value) if isinstance(value, list) else value
            for name in _DIGESTED
            for value in (getattr(self, name),)
        )
        return f"{zlib.crc32(repr(fields).encode()):08x}"


def bits(mask: int) -> list[int]:
    """The indices of the bits set in `mask` (cards in a pile, chests emptied)."""
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


_DIGESTED: Final = tuple(name for name in FIELDS if name not in ("ship", "events", "stats"))
