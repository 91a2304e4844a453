"""The observation as a fixed-length vector of numbers, for learning programs.

`encode(state, viewer)` writes what `viewer` may see (observe.py decides, as for every other
client) into a float32 vector; `segments(config)` names its pieces in order, and
docs/observation-encoding.md describes each one. Counts are plain numbers, categories are
one-hot, and a secret the viewer may not see is all zeros with its `*_hidden` flag set, so
two states encode the same for a viewer exactly when that viewer's `observation` of them is
the same (tests/games/deadweight_board/test_encoding.py checks both directions).
"""

from __future__ import annotations

import numpy as np

from tabletop.games.deadweight_board.board import KIND_NAMES, PLANKS, SPACE_NAMES, WALLS
from tabletop.games.deadweight_board.config import DeadweightConfig
from tabletop.games.deadweight_board.flow import RESUME_POINTS
from tabletop.games.deadweight_board.observe import ALL_SEEING, sees_chests, sees_pool
from tabletop.games.deadweight_board.state import CHANCE_NAMES, PHASE_NAMES, STAGE_NAMES, State

SEATS = 4
"""Every vector has room for four seats; an empty seat is all zeros."""
QUEUE = 4
"""Room for each queue (the final round's order, players waiting to teleport)."""
SEAT_OR_NONE = SEATS + 1
"""A slot naming a seat or nobody (-1): one-hot over -1, 0, 1, 2, 3."""


def segments(config: DeadweightConfig) -> list[tuple[str, int]]:
    """The vector's pieces in order, as (name, length); the deck size sets the card pieces."""
    deck = len(config.trade_deck)
    return [
        ("viewer_seat", SEATS),
        ("viewer_all_seeing", 1),
        ("players", 3),
        ("plank_kind", PLANKS * len(KIND_NAMES)),
        ("plank_loot", PLANKS * 4),
        ("seat_present", SEATS),
        ("seat_position", SEATS * len(SPACE_NAMES)),
        ("seat_items", SEATS * 6),
        ("seat_trade_card", SEATS * deck),
        ("seat_skip_turns", SEATS),
        ("seat_turns_taken", SEATS),
        ("flooded", PLANKS),
        ("lantern", PLANKS),
        ("chests", 5 * 6),
        ("chests_hidden", 1),
        ("crates", 4),
        ("supply", 6),
        ("supply_counted", 1),
        ("mariner_reserve", SEATS),
        ("mariner_wall", SEATS * len(WALLS)),
        ("mariner_lifeboat", SEATS * 4),
        ("pile_top", deck + 1),
        ("pile_face_down", deck),
        ("pile_discards", deck),
        ("pile_counts", 2),
        ("pile_hidden", 1),
        ("phase", len(PHASE_NAMES)),
        ("chance", len(CHANCE_NAMES)),
        ("stage", len(STAGE_NAMES)),
        ("owner", SEAT_OR_NONE),
        ("active", SEATS),
        ("first_player", SEATS),
        ("turn", 1),
        ("first_block", PLANKS + 1),
        ("final_queue", QUEUE * SEATS),
        ("teleport_queue", QUEUE * SEATS),
        ("winners", SEATS),
        ("flags", 7),
        ("counts", 4),
        ("emptied", 5),
        ("station_mode", 3),
        ("landing", 3),
        ("contest_players", 2 * SEAT_OR_NONE),
        ("contest_item", 7),
        ("contest_roll", 7),
        ("contest_resume", RESUME_POINTS),
        ("take_players", 2 * SEAT_OR_NONE),
        ("take_resume", RESUME_POINTS),
        ("limit_player", SEAT_OR_NONE),
        ("limit_resume", RESUME_POINTS),
        ("pool", 6),
        ("pool_hidden", 1),
        ("pick_players", 2 * SEAT_OR_NONE),
        ("reveal_resume", RESUME_POINTS),
    ]


def size(config: DeadweightConfig) -> int:
    """The vector's length under `config`."""
    return sum(length for _, length in segments(config))


class _Writer:
    """Fills a zeroed vector piece by piece, in `segments` order."""

    __slots__ = ("at", "out")

    def __init__(self, out: np.ndarray) -> None:
        self.out = out
        self.at = 0

    def values(self, numbers: list[int] | tuple[int, ...]) -> None:
        self.out[self.at : self.at + len(numbers)] = numbers
        self.at += len(numbers)

    def one_hot(self, index: int, length: int, low: int = 0) -> None:
        """Mark `index` among `length` slots numbered from `low`; out of range marks none."""
        if low <= index < low + length:
            self.out[self.at + index - low] = 1.0
        self.at += length

    def bits(self, mask: int, length: int) -> None:
        self.values([mask >> i & 1 for i in range(length)])

    def skip(self, length: int) -> None:
        self.at += length

    def secret(self, visible: bool, numbers: list[int]) -> None:
        """`numbers` then a 0 flag when the viewer may see them; zeros then a 1 flag when not."""
        if visible:
            self.values(numbers)
        else:
            self.skip(len(numbers))
        self.values([not visible])


def encode(state: State, viewer: int, out: np.ndarray | None = None) -> np.ndarray:
    """What `viewer` (a seat, `TABLE` or `ALL_SEEING`) sees of `state`, as a float32 vector."""
    config = state.ship.config
    deck = len(config.trade_deck)
    if out is None:
        out = np.zeros(size(config), np.float32)
    else:
        out.fill(0.0)
    w = _Writer(out)
    n = state.n
    w.one_hot(viewer, SEATS)
    w.values([viewer == ALL_SEEING])
    w.one_hot(n, 3, low=2)
    for plank in range(PLANKS):
        w.one_hot(state.ship.kind[plank], len(KIND_NAMES))
    for plank in range(PLANKS):
        w.one_hot(state.ship.loot[plank], 4)
    w.values([p < n for p in range(SEATS)])
    for p in range(SEATS):
        w.one_hot(state.pos[p] if p < n else -1, len(SPACE_NAMES))
    for p in range(SEATS):
        w.values(state.items(p) if p < n else [0] * 6)
    for p in range(SEATS):
        w.one_hot(state.card[p] if p < n else -1, deck)
    w.values([state.skip[p] if p < n else 0 for p in range(SEATS)])
    w.values([state.turns_taken[p] if p < n else 0 for p in range(SEATS)])
    w.bits(state.flooded, PLANKS)
    w.one_hot(state.lantern, PLANKS)
    _chests(w, state, viewer)
    _mariners(w, state)
    _pile(w, state, viewer, deck)
    _machine(w, state, viewer)
    return out


def _chests(w: _Writer, state: State, viewer: int) -> None:
    w.secret(sees_chests(state, viewer), state.chests)
    w.values(state.crates)
    supply = state.supply
    w.values(supply if supply is not None else [0] * 6)
    w.values([supply is not None])


def _mariners(w: _Writer, state: State) -> None:
    w.values([state.boat[m] < 0 and state.dep != m for m in range(SEATS)])
    for m in range(SEATS):
        w.one_hot(state.dep_wall if state.dep == m else -1, len(WALLS))
    for m in range(SEATS):
        w.one_hot(state.boat[m], 4)


def _pile(w: _Writer, state: State, viewer: int, deck: int) -> None:
    w.one_hot(state.top, deck + 1, low=-1)
    if viewer == ALL_SEEING:
        w.bits(state.pile, deck)
        w.bits(state.discards, deck)
    else:
        w.skip(2 * deck)
    w.values([state.pile.bit_count(), state.discards.bit_count()])
    w.values([viewer != ALL_SEEING])


def _queue(w: _Writer, queue: list[int]) -> None:
    for slot in range(QUEUE):
        w.one_hot(queue[slot] if slot < len(queue) else -1, SEATS)


def _machine(w: _Writer, state: State, viewer: int) -> None:
    w.one_hot(state.phase, len(PHASE_NAMES))
    w.one_hot(state.chance, len(CHANCE_NAMES))
    w.one_hot(state.stage, len(STAGE_NAMES))
    w.one_hot(state.owner, SEAT_OR_NONE, low=-1)
    w.one_hot(state.active, SEATS)
    w.one_hot(state.first_player, SEATS)
    w.values([state.turn])
    w.one_hot(state.first_block, PLANKS + 1, low=-1)
    _queue(w, state.final_queue)
    _queue(w, state.teleport_queue)
    w.values([p in state.winners for p in range(SEATS)])
    w.values(
        [
            state.flip_pending,
            state.evac_done,
            state.wtp_won,
            state.mariner_done,
            state.traded,
            state.end_triggered,
            state.aborted,
        ]
    )
    w.values([state.evac_left, state.trades_done, state.keep_left, state.pick_skips])
    w.bits(state.emptied, 5)
    w.one_hot(state.station_mode, 3)
    w.bits(state.landing, 3)
    w.one_hot(state.c_attacker, SEAT_OR_NONE, low=-1)
    w.one_hot(state.c_defender, SEAT_OR_NONE, low=-1)
    w.one_hot(state.c_item, 7, low=-1)
    w.one_hot(state.c_roll, 7)
    w.one_hot(state.c_resume, RESUME_POINTS)
    w.one_hot(state.taker, SEAT_OR_NONE, low=-1)
    w.one_hot(state.victim, SEAT_OR_NONE, low=-1)
    w.one_hot(state.take_resume, RESUME_POINTS)
    w.one_hot(state.limit_player, SEAT_OR_NONE, low=-1)
    w.one_hot(state.limit_resume, RESUME_POINTS)
    w.secret(sees_pool(state, viewer), state.pool)
    w.one_hot(state.picker, SEAT_OR_NONE, low=-1)
    w.one_hot(state.flipper, SEAT_OR_NONE, low=-1)
    w.one_hot(state.reveal_resume, RESUME_POINTS)
