"""Showing the game to people: the ship as a Rich table, choices and events in words."""

from __future__ import annotations

from collections.abc import Callable
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
from tabletop.games.deadweight_board.rules import describe
from tabletop.games.deadweight_board.ship import Trade
from tabletop.games.deadweight_board.state import COLOURS, SETUP_LANTERN, STAGE_NAMES, State

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
        return f"trade {_gems(trade.cost)} for {trade.life_rings} life ring(s)"
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


def board_view(state: State) -> Group:
    """The ship from above (bow at the top), then the players and the shared pieces."""
    ship = state.ship
    hidden = ship.config.chest_visibility == "hidden"
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


_LINES: dict[str, Callable[[dict[str, Any]], str]] = {
    "move": lambda e: f"{COLOURS[e['player']]} moves {e['start']} → {e['end']} by {e['by']}",
    "gain": lambda e: f"{COLOURS[e['player']]} gains {e['item']} ({e['source'].replace('_', ' ')})",
    "rope_returned": lambda e: f"{COLOURS[e['player']]} already has 2 ropes; the rope goes back",
    "crate": lambda e: f"{COLOURS[e['player']]} puts {e['gem']} in its crate ({e['fill']})",
    "crate_dumped": lambda e: f"the {e['gem']} crate is full and is dumped in its lifeboat",
    "stolen": lambda e: f"{COLOURS[e['thief']]} takes {e['item']} from {COLOURS[e['victim']]}",
    "blocked": lambda e: f"{COLOURS[e['victim']]} blocks the steal",
    "tie_protected": lambda e: "a tie, but the thief's Mariner protects them",
    "nothing_to_take": lambda e: f"{COLOURS[e['victim']]} holds nothing to take",
    "mariner_off": lambda e: (
        f"the {COLOURS[e['mariner']]} Mariner leaves its wall ({e['why'].replace('_', ' ')})"
    ),
    "mariner_tie": lambda e: "a tie: the Mariner stays",
    "mariner_on": lambda e: f"{COLOURS[e['player']]}'s Mariner takes wall {e['wall']}",
    "challenge_blocked": lambda e: "the challenge is blocked",
    "trade": lambda e: (
        f"{COLOURS[e['player']]} trades (card {e['card']} #{e['trade'] + 1}) "
        f"for {e['life_rings']} life ring(s)"
    ),
    "shortcut": lambda e: f"{COLOURS[e['player']]} takes the shortcut to {e['end']}",
    "switch": lambda e: f"{COLOURS[e['first']]} and {COLOURS[e['second']]} swap places",
    "skip_set": lambda e: f"{COLOURS[e['player']]} will skip their next turn",
    "skipped": lambda e: f"{COLOURS[e['player']]} skips this turn",
    "chest_opened": lambda e: f"the chest holds {e['items']} (keep up to {e['may_keep']})",
    "dropped": lambda e: f"{COLOURS[e['player']]} drops {e['gem']} into the hole",
    "flipped": lambda e: f"{COLOURS[e['player']]} flips {e['plank']} to its flooded side",
    "evacuation_begins": lambda e: "every plank is flooded: the evacuation begins",
    "evacuated": lambda e: (
        f"{COLOURS[e['player']]} sends the "
        + (COLOURS[e["owner"]] if e["owner"] >= 0 else f"neutral #{e['mariner'] + 1}")
        + f" Mariner to the {e['lifeboat']} lifeboat"
    ),
    "end_triggered": lambda e: "all four Mariners are in lifeboats: the final round follows",
    "final_round": lambda e: "final round: " + ", ".join(COLOURS[p] for p in e["order"]),
    "lantern": lambda e: f"{COLOURS[e['player']]} puts the lantern on {e['plank']}",
    "returned": lambda e: f"{COLOURS[e['player']]} returns {e['gem']} (over 10 loot)",
    "reloaded": lambda e: f"chest C{e['chest']} is reloaded",
    "reshuffled": lambda e: "the trade discards are shuffled into a new pile",
    "card_up": lambda e: f"trade card {e['card']} turns up",
    "supply_empty": lambda e: f"no {e['item']} left in the supply",
    "turn_cap": lambda e: f"the turn cap ({e['turns']}) ends the game",
    "game_over": lambda e: "game over: " + ", ".join(COLOURS[p] for p in e["winners"]) + " win(s)",
}
"""How each event kind reads as a line; kinds not listed get no line."""

_PURPOSES = {
    "steal": "to steal",
    "defend": "to defend",
    "mariner": "for the Mariner",
    "defend_mariner": "against the Mariner",
    "challenge": "to challenge",
    "hold_wall": "to hold the wall",
    "fate": "on the fate die",
    "walk_the_plank": "to walk the plank",
}


def event_text(event: dict[str, Any]) -> Text | None:
    """One event as a line for the table; None for events not worth a line."""
    kind = event["kind"]
    if kind == "roll":
        text = Text("🎲 ")
        text.append_text(player_text(event["player"]))
        text.append(f" rolls {event['face']} {_PURPOSES.get(event['purpose'], '')}")
        if "item" in event:
            text.append(f": gains {event['item']}")
        if "success" in event:
            text.append(": success!" if event["success"] else ": failure")
        return text
    describe_event = _LINES.get(kind)
    if describe_event is None:
        return None
    return Text("  " + describe_event(event))
