"""Setting up the ship: checking or dealing the plank layout, filling chests, dealing trade
cards (seed §Ship Setup, §2-player exceptions; notes §1.6). Every shuffle draws from the
injected dice source, so a seed reproduces the whole setup."""

from __future__ import annotations

from typing import Final

from tabletop.dice import DiceSource, dice_source
from tabletop.games.deadweight_board.board import (
    CENTRE_PLANKS,
    PLANK_NAMES,
    PLANKS,
    SPOT_ORDER,
    spacing_neighbours,
)
from tabletop.games.deadweight_board.config import (
    DeadweightConfig,
    PlankSpot,
    default_config,
)
from tabletop.games.deadweight_board.errors import ConfigError
from tabletop.games.deadweight_board.ship import Ship
from tabletop.games.deadweight_board.state import State

MAX_LAYOUT_DEALS: Final = 10_000
"""Random layouts are dealt until one meets the spacing rule; a plank set that needs more
tries than this is refused as unsatisfiable."""
CHEST_3_4P: Final = (1, 1, 1, 1, 0, 2)
CHEST_2P: Final = (1, 1, 0, 0, 1, 1)
"""What each chest holds at setup: one gem of each type and 2 life rings, or with two
players a life ring, a rope, an emerald and a pearl (seed §Ship Setup 1, 2-player 1)."""
RELOAD: Final = (1, 1, 1, 1, 1, 1)
"""A reloaded chest's contents by default: one of each gem, a life ring and a rope (AMB-08)."""


def _shuffle(items: list, dice: DiceSource) -> None:
    for i in range(len(items) - 1, 0, -1):
        j = dice.roll(i + 1) - 1
        items[i], items[j] = items[j], items[i]


def deal_layout(config: DeadweightConfig, dice: DiceSource) -> dict[str, PlankSpot]:
    """A random layout under the setup rules (AMB-06): Walk the Plank on a random centre
    spot, the other planks shuffled until the spacing rule holds, one diamond card on a
    centre spot, the other with Plus 1 Life Ring, the rest of the cards shuffled."""
    pool = [entry.action for entry in config.plank_set for _ in range(entry.copies)]
    pool.remove("walk_the_plank")
    for _ in range(MAX_LAYOUT_DEALS):
        actions: list[str] = [""] * PLANKS
        wtp = CENTRE_PLANKS[dice.roll(2) - 1]
        actions[wtp] = "walk_the_plank"
        rest = pool[:]
        _shuffle(rest, dice)
        for plank in range(PLANKS):
            if plank != wtp:
                actions[plank] = rest.pop()
        if all(
            actions[k] == "plain" or actions[k] != actions[o]
            for k in range(PLANKS)
            for o in spacing_neighbours(k, config.setup_spacing)
        ):
            break
    else:
        raise ConfigError(
            f"no layout of this plank set meets setup_spacing = {config.setup_spacing}"
        )
    loot: list[str] = [""] * PLANKS
    life_ring = actions.index("life_ring") if "life_ring" in actions else -1
    centres = [k for k in CENTRE_PLANKS if k != life_ring]
    loot[centres[dice.roll(len(centres)) - 1]] = "diamond"
    if life_ring < 0:
        free = [k for k in range(PLANKS) if not loot[k]]
        life_ring = free[dice.roll(len(free)) - 1]
    loot[life_ring] = "diamond"
    cards = [
        gem
        for gem, count in config.loot_card_counts.items()
        if gem != "diamond"
        for _ in range(count)
    ]
    _shuffle(cards, dice)
    for plank in range(PLANKS):
        if not loot[plank]:
            loot[plank] = cards.pop()
    spots = {
        PLANK_NAMES[k]: PlankSpot(action=actions[k], loot=loot[k])  # type: ignore[arg-type]
        for k in range(PLANKS)
    }
    return {name: spots[name] for name in SPOT_ORDER}


def new_game(
    players: int = 4,
    config: DeadweightConfig | None = None,
    dice: DiceSource | int | None = None,
) -> State:
    """A game set up for 2 to 4 players, waiting for the first player to place the lantern.

    `dice` is a dice source, or a seed for one; everything random in the setup (layout,
    first player, trade cards) is drawn from it, in a fixed order."""
    if not 2 <= players <= 4:
        raise ConfigError(f"Deadweight is for 2 to 4 players, not {players}")
    config = config or default_config()
    if dice is None or isinstance(dice, int):
        dice = dice_source(dice)
    spots = config.fixed_layout() or deal_layout(config, dice)
    ship = Ship(config, spots)
    state = State(ship, players)
    chest = CHEST_2P if players == 2 else CHEST_3_4P
    for c in range(5):
        state.chests[c * 6 : c * 6 + 6] = chest
    if config.supply != "unlimited":
        state.supply = config.supply.as_list()
    start = ship.start_space()
    for p in range(players):
        state.pos[p] = start
        state.inv[p * 6 + 4] = 1
    first = 0 if config.first_player == "seat0" else dice.roll(players) - 1
    state.first_player = first
    state.active = first
    state.owner = first
    deck = list(range(len(ship.cards)))
    for offset in range(players):
        state.card[(first + offset) % players] = deck.pop(dice.roll(len(deck)) - 1)
    state.top = deck.pop(dice.roll(len(deck)) - 1)
    state.pile = sum(1 << card for card in deck)
    return state
