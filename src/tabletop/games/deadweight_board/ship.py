"""One game's ship, built once from its layout and config: every table the rules look up.

The rules ask the same questions many times a turn (where does a step of 2 from S4 land,
which walls does it cross, what does that wall cost), so the answers are computed here once
and shared, read-only, by every state and clone of the game.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Final, get_args

from tabletop.games.deadweight_board.actions import DEAL, DEALS, deals_for
from tabletop.games.deadweight_board.board import (
    DI,
    ITEM_BY_NAME,
    KIND_BY_NAME,
    PLANK_NAMES,
    PLANKS,
    PRE_FS,
    column,
    lane_walls,
    mirror_walls,
    rope_destinations,
    space_plank,
    step_path,
)
from tabletop.games.deadweight_board.config import DeadweightConfig, GemName, PlankSpot

_QUADRANT: Final = {"S1": 0, "S2": 0, "P1": 1, "P2": 1, "S3": 2, "P3": 2, "S4": 3, "S5": 3}
"""Chest of each plank under `chest_map = "quadrant"` (AMB-07); P4 and P5 share chest 4."""
TRACK_FROM_BS: Final = (5, 6, 7, 8, 9, 0, 1, 2, 3, 4)
"""Flip order under `flip_order = "track_from_BS"`: forward along the track from BS."""


class Trade:
    """One trade of a trade card, as counts the engine can compare with a player's gems."""

    __slots__ = ("cost", "diamonds", "life_rings")

    def __init__(self, cost: tuple[int, ...], life_rings: int) -> None:
        self.cost = cost
        self.life_rings = life_rings
        self.diamonds = cost[DI]


class Fittings:
    """The tables a config decides on its own, whatever the layout (walls, paths, ropes,
    chests, trade cards, deals): built once per config and shared by all its ships, since a
    simulation sets up a new ship for every game."""

    def __init__(self, config: DeadweightConfig) -> None:
        walls = lane_walls() + (mirror_walls() if config.walls == "lane_and_mirrors" else [])
        self.walls = tuple(walls)
        self.walls_of_plank = tuple(
            tuple(w for w, wall in enumerate(walls) if plank in wall) for plank in range(PLANKS)
        )
        self.wall_planks = tuple(frozenset(wall) for wall in walls)
        self.destination = tuple(
            (space, *(step_path(space, steps)[-1] for steps in (1, 2))) for space in range(13)
        )
        adjacent_too = config.mariner_trigger == "cross_or_end_adjacent"
        self.crossed = tuple(
            (frozenset(), *(self._touched(space, steps, adjacent_too) for steps in (1, 2)))
            for space in range(13)
        )
        self.rope = tuple(tuple(rope_destinations(space, config.rope_mode)) for space in range(13))
        self.chest_of_plank = tuple(
            column(plank) - 1
            if config.chest_map == "column"
            else _QUADRANT.get(PLANK_NAMES[plank], 4)
            for plank in range(PLANKS)
        )
        self.planks_of_chest = tuple(
            tuple(k for k in range(PLANKS) if self.chest_of_plank[k] == c) for c in range(5)
        )
        self.cards = tuple(
            tuple(
                Trade(tuple(offer.cost.get(name, 0) for name in _GEM_NAMES), offer.life_rings)
                for offer in card.trades
            )
            for card in config.trade_deck
        )
        self.deals = deals_for(config.trade_action_mode)
        self.deal_groups = _group_deals(self.deals)
        self.fate = (-1, *(ITEM_BY_NAME[name] for name in config.fate_die_faces))
        self.capacity = tuple(config.crate_capacity[name] for name in _GEM_NAMES)
        self.wtp_success = (
            frozenset(config.wtp_success_brown),
            frozenset(config.wtp_success_flooded),
        )
        self.column_planks = tuple(
            tuple(k for k in range(PLANKS) if column(k) == c) for c in range(6)
        )

    def _touched(self, space: int, steps: int, adjacent_too: bool) -> frozenset[int]:
        """Walls a step move crosses (AMB-52); with `cross_or_end_adjacent`, also the walls
        beside the plank it ends on."""
        path = [space, *step_path(space, steps)]
        touched: set[int] = set()
        for here, there in pairwise(path):
            a, b = space_plank(here), space_plank(there)
            if a >= 0 and b >= 0:
                touched.update(w for w, wall in enumerate(self.walls) if {a, b} == set(wall))
        end = space_plank(path[-1])
        if adjacent_too and end >= 0:
            touched.update(self.walls_of_plank[end])
        return frozenset(touched)


class Ship:
    """The board of one game: layout, walls, paths and config tables (read-only)."""

    def __init__(self, config: DeadweightConfig, spots: dict[str, PlankSpot]) -> None:
        self.config = config
        self.spots = spots
        self.kind = tuple(KIND_BY_NAME[spots[name].action] for name in PLANK_NAMES)
        self.loot = tuple(ITEM_BY_NAME[spots[name].loot] for name in PLANK_NAMES)
        fittings = fittings_for(config)
        self.walls = fittings.walls
        self.wall_cost = tuple(self._cost_of(wall) for wall in self.walls)
        self.walls_of_plank = fittings.walls_of_plank
        self.wall_planks = fittings.wall_planks
        self.destination = fittings.destination
        self.crossed = fittings.crossed
        self.rope = fittings.rope
        self.chest_of_plank = fittings.chest_of_plank
        self.planks_of_chest = fittings.planks_of_chest
        self.wtp = self.kind.index(KIND_BY_NAME["walk_the_plank"])
        self.wtp_chest = self.chest_of_plank[self.wtp]
        self.cards = fittings.cards
        self.deals = fittings.deals
        self.deal_groups = fittings.deal_groups
        self.fate = fittings.fate
        self.capacity = fittings.capacity
        self.wtp_success = fittings.wtp_success
        self.column_planks = fittings.column_planks
        # Every setting the rules read during play, copied as a plain value: the compiled
        # engine reads an attribute of its own class directly, a pydantic model's by lookup.
        self.turn_cap: int = config.turn_cap
        self.final_turn_mode: str = config.final_turn_mode
        self.final_round: str = config.final_round
        self.final_tie: str = config.final_tie
        self.lantern_setup_rule: str = config.lantern_setup_rule
        self.lantern_reference: str = config.lantern_reference
        self.lantern_must_change: bool = config.lantern_must_change
        self.lantern_on_skip: str = config.lantern_on_skip
        self.reload_trigger: str = config.reload_trigger
        self.reload_contents_2p: str = config.reload_contents_2p
        self.steal_requires_item: bool = config.steal_requires_item
        self.unify_ties: bool = config.unify_ties
        self.protection_blocks_counter_steal: bool = config.protection_blocks_counter_steal
        self.flooded_steal_contest: bool = config.flooded_steal_contest
        self.skip_stacks: bool = config.skip_stacks
        self.teleport_triggers_mariner: bool = config.teleport_triggers_mariner
        self.owner_relocation: bool = config.owner_relocation
        self.diamond_trigger_includes_deploy: bool = config.diamond_trigger_includes_deploy
        self.new_card_usable_same_visit: bool = config.new_card_usable_same_visit
        self.wtp_scope: str = config.wtp_scope
        self.evac_per_turn: str = config.evac_per_turn
        self.lifeboat_capacity: str = config.lifeboat_capacity
        self.flip_order: str = config.flip_order
        self.flipper_rejoins: bool = config.flipper_rejoins
        self.pick_optional: bool = config.pick_optional

    def _cost_of(self, wall: tuple[int, int]) -> tuple[int, int, int, int]:
        cost = [0, 0, 0, 0]
        for plank in wall:
            cost[self.loot[plank]] += 1
        return (cost[0], cost[1], cost[2], cost[3])

    def flip_candidates(self, flooded: int) -> list[int]:
        """The planks that may be flipped next (AMB-46), given the flooded-plank bitmask."""
        order = self.flip_order
        if order == "free":
            return [k for k in range(PLANKS) if not flooded >> k & 1]
        if order == "track_from_BS":
            return [k for k in TRACK_FROM_BS if not flooded >> k & 1][:1]
        for c in range(5, 0, -1):
            brown = [k for k in self.column_planks[c] if not flooded >> k & 1]
            if brown:
                return brown
        return []

    def start_space(self) -> int:
        return PRE_FS if self.config.start_space == "pre_FS" else 0


_GEM_NAMES: tuple[GemName, ...] = get_args(GemName)
"""The gems as the config names them, in item order (Em, Pe, Ru, Di)."""
_SHIPS: dict[tuple[int, tuple[tuple[str, PlankSpot], ...]], tuple[DeadweightConfig, Ship]] = {}
MAX_CACHED_SHIPS: Final = 64
_FITTINGS: dict[int, tuple[DeadweightConfig, Fittings]] = {}


def fittings_for(config: DeadweightConfig) -> Fittings:
    """The fittings of this config, built once (a config is frozen; the cache holds it, so
    its id is not reused while its entry lives)."""
    cached = _FITTINGS.get(id(config))
    if cached is not None and cached[0] is config:
        return cached[1]
    if len(_FITTINGS) >= MAX_CACHED_SHIPS:
        _FITTINGS.clear()
    fittings = Fittings(config)
    _FITTINGS[id(config)] = (config, fittings)
    return fittings


def ship_for(config: DeadweightConfig, spots: dict[str, PlankSpot]) -> Ship:
    """The ship of this config and layout, built once: loading positions one after another
    (a table's every intent, a replay) would otherwise rebuild the same tables each time."""
    key = (id(config), tuple(spots.items()))
    cached = _SHIPS.get(key)
    if cached is not None and cached[0] is config:
        return cached[1]
    if len(_SHIPS) >= MAX_CACHED_SHIPS:
        _SHIPS.clear()
    ship = Ship(config, spots)
    _SHIPS[key] = (config, ship)
    return ship


def _group_deals(deals: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], list[int]], ...]:
    """Trade-plank deals grouped by the gems they give: (gems needed per type, actions), so
    affordability is checked once per group."""
    groups: dict[tuple[int, ...], list[int]] = {}
    for index in deals:
        need = [0, 0, 0, 0]
        for gem in DEALS[index][0]:
            need[gem] += 1
        groups.setdefault(tuple(need), []).append(DEAL + index)
    return tuple(groups.items())
