"""Every reading of an unclear rule as a named option, in one validated config object.

Each default is the recommended reading recorded in docs/rules/deadweight-board.md; the
entry id (AMB-nn) is given next to each field. A config file (TOML or JSON) may set any of
these keys, and may replace the trade-card deck, the loot-card mix, crate capacity and the
plank layout.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from tabletop.data import read_data_file, shipped_data
from tabletop.games.deadweight_board.board import (
    CENTRE_PLANKS,
    ITEM_NAMES,
    KIND_NAMES,
    PLANK_NAMES,
    PLANKS,
    SPOT_ORDER,
    spacing_neighbours,
)
from tabletop.games.deadweight_board.errors import ConfigError, LayoutError

GemName = Literal["emerald", "pearl", "ruby", "diamond"]
ItemName = Literal["emerald", "pearl", "ruby", "diamond", "rope", "life_ring"]
ActionName = Literal[
    "trade", "rope", "shortcut", "switch", "sabotage", "life_ring", "walk_the_plank", "plain"
]
MAX_TRADE_CARDS = 200
MAX_TURN_CAP = 100_000
_FROZEN = ConfigDict(extra="forbid", frozen=True)


class TradeOffer(BaseModel):
    """One trade on a trade card: pay these gems, gain this many life rings."""

    model_config = _FROZEN
    cost: dict[GemName, int]
    life_rings: int = Field(ge=1, le=100)

    @field_validator("cost")
    @classmethod
    def _sensible_cost(cls, cost: dict[str, int]) -> dict[str, int]:
        if any(count < 0 for count in cost.values()):
            raise ValueError("a trade cannot cost a negative number of gems")
        if not 1 <= sum(cost.values()) <= 10:
            raise ValueError("a trade costs between 1 and 10 gems (a player holds at most 10)")
        return {gem: count for gem, count in cost.items() if count}


class TradeCard(BaseModel):
    """A trade card: up to four trades, each usable once per station visit (seed, Trading)."""

    model_config = _FROZEN
    trades: list[TradeOffer] = Field(min_length=1, max_length=4)


class PlankSpot(BaseModel):
    """One spot of a layout: the plank's action and the loot-type card beside it."""

    model_config = _FROZEN
    action: ActionName
    loot: GemName


class PlankCopies(BaseModel):
    """How many planks of one action the ship has (AMB-03)."""

    model_config = _FROZEN
    action: ActionName
    copies: int = Field(ge=1, le=10)


class SupplyCounts(BaseModel):
    """Finite supplies (AMB-09): how many of each item exist outside chests at setup."""

    model_config = _FROZEN
    emerald: int = Field(ge=0, le=10_000)
    pearl: int = Field(ge=0, le=10_000)
    ruby: int = Field(ge=0, le=10_000)
    diamond: int = Field(ge=0, le=10_000)
    rope: int = Field(ge=0, le=10_000)
    life_ring: int = Field(ge=0, le=10_000)

    def as_list(self) -> list[int]:
        return [getattr(self, name) for name in ITEM_NAMES]


DEFAULT_PLANK_SET = (
    PlankCopies(action="trade", copies=2),
    PlankCopies(action="rope", copies=1),
    PlankCopies(action="shortcut", copies=2),
    PlankCopies(action="switch", copies=1),
    PlankCopies(action="sabotage", copies=1),
    PlankCopies(action="life_ring", copies=1),
    PlankCopies(action="walk_the_plank", copies=1),
    PlankCopies(action="plain", copies=1),
)


@cache
def _data(name: str) -> dict[str, Any]:
    return shipped_data(__package__, name)


def default_trade_deck() -> tuple[TradeCard, ...]:
    """The placeholder deck shipped in data/trade_deck.toml (an assumption, AMB-14)."""
    return tuple(TradeCard.model_validate(card) for card in _data("trade_deck.toml")["cards"])


def named_layouts() -> dict[str, dict[str, PlankSpot]]:
    """The layouts shipped in data/layouts.toml, by name."""
    return {
        name: {spot: PlankSpot.model_validate(value) for spot, value in spots.items()}
        for name, spots in _data("layouts.toml").items()
    }


class DeadweightConfig(BaseModel):
    """Every interpretation of the rules as a named option; defaults are the recommended
    readings. Frozen: one config serves every game and every clone made from it."""

    model_config = _FROZEN

    fate_die_faces: tuple[ItemName, ItemName, ItemName, ItemName, ItemName, ItemName] = (
        "pearl",
        "emerald",
        "ruby",
        "diamond",
        "rope",
        "life_ring",
    )  # AMB-02
    plank_set: tuple[PlankCopies, ...] = DEFAULT_PLANK_SET  # AMB-03
    setup_spacing: Literal["same_action_lane_and_mirror", "same_action_lane_only", "none"] = (
        "same_action_lane_and_mirror"  # AMB-04
    )
    loot_card_counts: dict[GemName, int] = Field(
        default_factory=lambda: {"emerald": 3, "pearl": 3, "ruby": 2, "diamond": 2}
    )  # AMB-05
    layout: str | dict[str, PlankSpot] = "random"  # AMB-06
    chest_map: Literal["column", "quadrant"] = "column"  # AMB-07
    reload_trigger: Literal["any_emptied", "wtp_only", "every_turn_center"] = "any_emptied"
    reload_contents_2p: Literal["standard", "two_player"] = "standard"  # AMB-08
    supply: Literal["unlimited"] | SupplyCounts = "unlimited"  # AMB-09
    first_player: Literal["seat0", "random"] = "seat0"  # AMB-11
    start_space: Literal["FS", "pre_FS"] = "FS"  # AMB-12
    lantern_setup_rule: Literal["no_first_landing", "not_reachable_by_step", "none"] = (
        "no_first_landing"  # AMB-13
    )
    trade_deck: tuple[TradeCard, ...] = Field(default_factory=default_trade_deck)  # AMB-14
    crate_capacity: dict[GemName, int] = Field(
        default_factory=lambda: {"emerald": 5, "pearl": 5, "ruby": 5, "diamond": 5}
    )  # AMB-15
    chest_visibility: Literal["public", "hidden"] = "public"  # AMB-16
    rope_mode: Literal["forward_to_station", "lane_any_direction", "any_plank"] = (
        "forward_to_station"  # AMB-19
    )
    steal_requires_item: bool = False  # AMB-24
    unify_ties: bool = False  # AMB-26
    lantern_reference: Literal["player", "lantern"] = "player"  # AMB-28
    lantern_must_change: bool = True  # AMB-28
    lantern_on_skip: Literal["none", "move"] = "none"  # AMB-29
    trade_action_mode: Literal["two_1for1", "same_type_pair", "two_for_one", "up_to_two"] = (
        "two_1for1"  # AMB-31
    )
    flooded_steal_contest: bool = False  # AMB-33
    skip_stacks: bool = False  # AMB-35
    wtp_success_brown: frozenset[int] = frozenset({1, 4})  # AMB-38
    wtp_success_flooded: frozenset[int] = frozenset({1, 3, 4})  # AMB-38
    wtp_scope: Literal["all_items", "gems_only"] = "all_items"  # AMB-39
    new_card_usable_same_visit: bool = False  # AMB-43
    diamond_trigger_includes_deploy: bool = False  # AMB-44
    flip_order: Literal["rear_column_choice", "track_from_BS", "free"] = "rear_column_choice"
    flipper_rejoins: bool = True  # AMB-47
    pick_optional: bool = False  # AMB-47
    evac_per_turn: Literal["one", "per_diamond"] = "one"  # AMB-49
    lifeboat_capacity: Literal["one", "unlimited"] = "one"  # AMB-50
    walls: Literal["lane_neighbours", "lane_and_mirrors"] = "lane_neighbours"  # AMB-51
    mariner_trigger: Literal["cross", "cross_or_end_adjacent"] = "cross"  # AMB-52
    teleport_triggers_mariner: bool = False  # AMB-53
    protection_blocks_counter_steal: bool = True  # AMB-55
    owner_relocation: bool = True  # AMB-56
    final_round: Literal["all_including_trigger", "all_others", "finish_round"] = (
        "all_including_trigger"  # AMB-60
    )
    final_turn_mode: Literal["move_and_trade_only", "full"] = "move_and_trade_only"  # AMB-61
    final_tie: Literal["shared", "fewest_turns", "random"] = "shared"  # AMB-62
    turn_cap: int = Field(default=600, ge=1, le=MAX_TURN_CAP)  # AMB-63

    @field_validator("trade_deck")
    @classmethod
    def _deck_size(cls, deck: tuple[TradeCard, ...]) -> tuple[TradeCard, ...]:
        if not 5 <= len(deck) <= MAX_TRADE_CARDS:
            raise ValueError(
                f"the trade deck needs 5 to {MAX_TRADE_CARDS} cards "
                "(one per player plus a face-up top card)"
            )
        return deck

    @field_validator("loot_card_counts")
    @classmethod
    def _loot_cards(cls, counts: dict[str, int]) -> dict[str, int]:
        full = {gem: counts.get(gem, 0) for gem in ITEM_NAMES[:4]}
        if any(count < 0 for count in full.values()) or sum(full.values()) != 10:
            raise ValueError("there are 10 loot-type cards: the counts must add up to 10")
        if full["diamond"] != 2:
            raise ValueError(
                "the setup rules place exactly 2 diamond cards (one in the centre, one with "
                "Plus 1 Life Ring)"
            )
        return full

    @field_validator("crate_capacity")
    @classmethod
    def _crates(cls, capacity: dict[str, int]) -> dict[str, int]:
        full = {gem: capacity.get(gem, 5) for gem in ITEM_NAMES[:4]}
        if not all(1 <= size <= 1000 for size in full.values()):
            raise ValueError("a crate holds between 1 and 1000 gems")
        return full

    @field_validator("plank_set")
    @classmethod
    def _planks(cls, planks: tuple[PlankCopies, ...]) -> tuple[PlankCopies, ...]:
        counts: dict[str, int] = {}
        for entry in planks:
            counts[entry.action] = counts.get(entry.action, 0) + entry.copies
        if sum(counts.values()) != 10:
            raise ValueError("the ship has 10 planks: the copies must add up to 10")
        if counts.get("walk_the_plank") != 1:
            raise ValueError("the ship has exactly one Walk the Plank plank")
        return planks

    @field_validator("wtp_success_brown", "wtp_success_flooded")
    @classmethod
    def _faces(cls, faces: frozenset[int]) -> frozenset[int]:
        if not faces or not faces <= {1, 2, 3, 4, 5, 6}:
            raise ValueError("success faces are a non-empty set of d6 faces 1 to 6")
        return faces

    @field_validator("layout")
    @classmethod
    def _layout(cls, layout: str | dict[str, PlankSpot]) -> str | dict[str, PlankSpot]:
        if isinstance(layout, str):
            if layout != "random" and layout not in named_layouts():
                known = ", ".join(["random", *named_layouts()])
                raise ValueError(f"unknown layout {layout!r}; choose {known} or give the spots")
            return layout
        if sorted(layout) != sorted(SPOT_ORDER):
            raise ValueError(f"a layout names exactly the spots {', '.join(SPOT_ORDER)}")
        return layout

    @model_validator(mode="after")
    def _fixed_layout_follows_rules(self) -> DeadweightConfig:
        spots = self.fixed_layout()
        if spots is not None:
            check_layout(spots, self)
        return self

    def fixed_layout(self) -> dict[str, PlankSpot] | None:
        """The layout's spots when the layout is fixed, None when it is dealt at random."""
        if isinstance(self.layout, dict):
            return self.layout
        if self.layout == "random":
            return None
        return named_layouts()[self.layout]

    def plank_counts(self) -> dict[str, int]:
        """How many planks of each action the ship has."""
        counts = dict.fromkeys(KIND_NAMES, 0)
        for entry in self.plank_set:
            counts[entry.action] += entry.copies
        return counts

    def changed(self) -> dict[str, Any]:
        """The options that differ from the defaults (for logs and reports)."""
        defaults = DeadweightConfig().model_dump(mode="json")
        mine = self.model_dump(mode="json")
        return {key: value for key, value in mine.items() if defaults[key] != value}


@cache
def default_config() -> DeadweightConfig:
    """The all-defaults config, built once."""
    return DeadweightConfig()


def make_config(**options: Any) -> DeadweightConfig:
    """A config from keyword options; a bad option is a `ConfigError` naming the key."""
    try:
        return DeadweightConfig.model_validate(options)
    except ValidationError as error:
        raise ConfigError(_first_problem(error)) from None


def load_config(path: str | Path) -> DeadweightConfig:
    """A config from a TOML or JSON file, read as every data file is (a regular file of
    bounded size with finite numbers, tabletop.data); anything wrong is one `ConfigError`."""
    data = read_data_file(path, ConfigError)
    data.pop("assumption", None)
    return make_config(**data)


def _first_problem(error: ValidationError) -> str:
    problem = error.errors()[0]
    where = ".".join(str(part) for part in problem["loc"]) or "config"
    message = problem["msg"].removeprefix("Value error, ")
    return f"config option {where}: {message}"


def check_layout(spots: dict[str, PlankSpot], config: DeadweightConfig) -> None:
    """Refuse a layout that breaks a setup rule, naming the rule (seed §Ship Setup 2;
    AMB-03 to AMB-06)."""
    actions = [spots[name].action for name in PLANK_NAMES]
    wanted = config.plank_counts()
    have = {kind: actions.count(kind) for kind in KIND_NAMES}
    if have != wanted:
        listed = ", ".join(f"{kind} ×{count}" for kind, count in wanted.items() if count)
        raise LayoutError(f"the layout's planks must be the ship's plank set ({listed})")
    if actions.index("walk_the_plank") not in CENTRE_PLANKS:
        raise LayoutError("Walk the Plank must sit in the centre of the ship (S3 or P3)")
    loot = [spots[name].loot for name in PLANK_NAMES]
    for gem, count in config.loot_card_counts.items():
        if loot.count(gem) != count:
            raise LayoutError(
                f"the loot-type cards must be the configured mix ({loot.count(gem)} {gem} "
                f"cards, expected {count})"
            )
    life_ring = actions.index("life_ring") if "life_ring" in actions else -1
    centre_diamond = [k for k in CENTRE_PLANKS if loot[k] == "diamond" and k != life_ring]
    if not centre_diamond:
        raise LayoutError("one diamond card must be on a centre spot (S3 or P3)")
    if life_ring >= 0 and loot[life_ring] != "diamond":
        raise LayoutError("Plus 1 Life Ring must sit with the other diamond card")
    for plank in range(PLANKS):
        for other in spacing_neighbours(plank, config.setup_spacing):
            if actions[plank] == actions[other] and actions[plank] != "plain":
                raise LayoutError(
                    f"no two planks with the same action may be next to each other "
                    f"({PLANK_NAMES[plank]} and {PLANK_NAMES[other]} are both "
                    f"{actions[plank]}; setup_spacing = {config.setup_spacing})"
                )
