"""Showing the game to people: the ship as a Rich table, choices and events in words."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from tabletop.games.deadweight_board.actions import DEPLOY, EVAC, LOOT, TRADE
from tabletop.games.deadweight_board.board import (
    BS,
    FS,
    ITEM_SHORT,
    KIND_TITLES,
    PLANK_NAMES,
    PRE_FS,
    SPACE_NAMES,
    plank_space,
    space_plank,
    wall_name,
)
from tabletop.games.deadweight_board.narrate import event_line
from tabletop.games.deadweight_board.observe import (
    ALL_SEEING,
    event_hint,
    event_seat,
    sees_chests,
)
from tabletop.games.deadweight_board.rules import describe
from tabletop.games.deadweight_board.ship import Trade
from tabletop.games.deadweight_board.state import COLOURS, SETUP_LANTERN, STAGE_NAMES, State
from tabletop.words import counted

STYLE = {"Red": "bold red", "Blue": "bold blue", "Green": "bold green", "Yellow": "bold yellow"}


def player_text(player: int) -> Text:
    name = COLOURS[player]
    return Text(name, style=STYLE[name])


def _gems(cost: tuple[int, ...]) -> str:
    return (
        "+".join(
            f"{count}{ITEM_SHORT[gem]}" if count > 1 else ITEM_SHORT[gem]
            for gem, count in enumerate(cost)
            if count
        )
        or "nothing"
    )


def _card_text(card: tuple[Trade, ...]) -> str:
    return "; ".join(f"{_gems(trade.cost)}→{trade.life_rings}" for trade in card)


def choice_label(state: State, action: int) -> str:
    """An action in words with the details a player needs to choose it (costs, walls)."""
    ship = state.ship
    if TRADE <= action < TRADE + 4:
        trade = ship.cards[state.card[state.active]][action - TRADE]
        return f"trade {_gems(trade.cost)} for {counted(trade.life_rings, 'life ring')}"
    if DEPLOY <= action < DEPLOY + len(ship.walls):
        wall = action - DEPLOY
        return f"Mariner to wall {wall_name(ship.walls[wall])} (pay {_gems(ship.wall_cost[wall])})"
    if action == LOOT:
        plank = space_plank(state.pos[state.active])
        return f"take loot ({ITEM_SHORT[ship.loot[plank]]})"
    if EVAC <= action < EVAC + 16:
        mariner, boat = divmod(action - EVAC, 4)
        owner = COLOURS[mariner] if mariner < state.n else f"neutral #{mariner + 1}"
        return f"{owner} Mariner to the {ITEM_SHORT[boat]} lifeboat (take a {ITEM_SHORT[boat]})"
    return describe(state, action)


def _items(counts: list[int]) -> str:
    return " ".join(f"{ITEM_SHORT[i]}{counts[i]}" for i in range(6) if counts[i]) or "—"


def _plank_cell(state: State, plank: int) -> Text:
    ship = state.ship
    flooded = state.flooded >> plank & 1
    text = Text(f"{PLANK_NAMES[plank]} ", style="bold")
    text.append(KIND_TITLES[ship.kind[plank]], style="cyan" if flooded else "")
    text.append(" (flooded)" if flooded else " (brown)", style="dim")
    text.append(f" [{ITEM_SHORT[ship.loot[plank]]}]")
    if state.lantern == plank and state.phase != SETUP_LANTERN:
        text.append(" 🏮", style="yellow")
    for p in range(state.n):
        if state.pos[p] == plank_space(plank):
            text.append(" ")
            text.append_text(player_text(p))
    return text


def _station_cell(state: State, space: int, title: str) -> Text:
    text = Text(title, style="bold yellow")
    for p in range(state.n):
        if state.pos[p] == space or (space == FS and state.pos[p] == PRE_FS):
            text.append(" ")
            text.append_text(player_text(p))
    return text


def _wall_cell(state: State, wall: int) -> Text:
    if state.dep >= 0 and state.dep_wall == wall:
        text = Text("⚓ ")
        text.append_text(player_text(state.dep))
        return text.append(" Mariner")
    return Text("·", style="dim")


def board_view(state: State, viewer: int) -> Group:
    """The ship from above (bow at the top), then the players and the shared pieces, as
    `viewer` may see them (observe.py)."""
    ship = state.ship
    hidden = not sees_chests(state, viewer)
    ship_table = Table(title="the Blackwake", show_lines=False, expand=False)
    ship_table.add_column("P lane ↑ (to the front)")
    ship_table.add_column("chest", justify="center")
    ship_table.add_column("S lane ↓ (to the back)")
    ship_table.add_row(_station_cell(state, FS, "FS front station"), "", "")
    for column in range(1, 6):
        s_plank, p_plank = column - 1, 10 - column
        chest = ship.chest_of_plank[s_plank]
        contents = "?" if hidden else _items(state.chests[chest * 6 : chest * 6 + 6])
        ship_table.add_row(
            _plank_cell(state, p_plank), f"C{chest + 1}: {contents}", _plank_cell(state, s_plank)
        )
        if column < 5:
            p_wall = ship.walls.index((p_plank - 1, p_plank))
            s_wall = ship.walls.index((s_plank, s_plank + 1))
            ship_table.add_row(_wall_cell(state, p_wall), "", _wall_cell(state, s_wall))
    ship_table.add_row(_station_cell(state, BS, "BS back station"), "", "")

    players = Table(title="players")
    for heading in ("seat", "at", "holds", "trade card", "Mariner"):
        players.add_column(heading)
    for p in range(state.n):
        seat = player_text(p)
        if p == state.active:
            seat.append(" ◀", style="bold")
        if state.skip[p]:
            seat.append(" (skips)", style="dim")
        players.add_row(
            seat,
            SPACE_NAMES[state.pos[p]],
            _items(state.items(p)),
            _card_text(ship.cards[state.card[p]]),
            _mariner_text(state, p),
        )
    shared = Text(
        f"stage: {STAGE_NAMES[state.stage]} · turn {state.turn} · flips {state.flips_done()}/10 · "
        f"crates Em{state.crates[0]} Pe{state.crates[1]} Ru{state.crates[2]} Di{state.crates[3]} "
        f"(fill at {'/'.join(str(c) for c in ship.capacity)}) · next trade card: "
        + _card_text(ship.cards[state.top])
    )
    neutral = range(state.n, 4)
    if neutral:
        shared.append(" · neutral Mariners: " + ", ".join(_mariner_text(state, m) for m in neutral))
    return Group(ship_table, players, shared)


def _mariner_text(state: State, mariner: int) -> str:
    if state.boat[mariner] >= 0:
        return f"in the {ITEM_SHORT[state.boat[mariner]]} lifeboat"
    if state.dep == mariner:
        return f"on wall {wall_name(state.ship.walls[state.dep_wall])}"
    return "in reserve"


def event_text(event: dict[str, Any], state: State, viewer: int) -> Text | None:
    """One event as `viewer` may see it, as a line for the table; None for events not
    worth a line."""
    seat = event_seat(event, state)
    if seat is not None and viewer not in (seat, ALL_SEEING):
        return Text("  " + event_hint(event))
    line = event_line(event)
    if line is None or event["kind"] == "turn":  # the board view marks a human's turn
        return None
    if event["kind"] != "roll":
        return Text("  " + line)
    text = Text("🎲 ")
    text.append_text(player_text(event["player"]))
    return text.append(line.removeprefix(COLOURS[event["player"]]))
