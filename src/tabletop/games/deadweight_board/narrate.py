"""The rules' events as one plain line each, for the terminal, logs and a table's events."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from tabletop.games.deadweight_board.board import COLOURS
from tabletop.words import counted, listed

_ITEMS = {
    "Em": ("an emerald", "emeralds"),
    "Pe": ("a pearl", "pearls"),
    "Ru": ("a ruby", "rubies"),
    "Di": ("a diamond", "diamonds"),
    "Rope": ("a rope", "ropes"),
    "LR": ("a life ring", "life rings"),
}
"""Each piece as a line names it, from its short name on the board (ENG-17)."""


def _item(short: str, count: int = 1) -> str:
    """`count` of a piece in words: "a ruby", "2 life rings"."""
    one, many = _ITEMS[short]
    return one if count == 1 else f"{count} {many}"


def _gem(short: str) -> str:
    """A gem's name alone, as its crate is called: "pearl"."""
    return _ITEMS[short][0].split(" ", 1)[1]


def _pool(text: str) -> str:
    """What a chest holds (`Em×1 LR×2`) in words: "an emerald and 2 life rings"."""
    if text == "nothing":
        return text
    return listed([_item(short, int(n)) for short, n in (p.split("×") for p in text.split())])


_PIECES = re.compile(r"(?<!\ba )\b(?:Em|Pe|Ru|Di|Rope|LR)(?:\+(?:Em|Pe|Ru|Di|Rope|LR))*\b")
"""A piece's short name in an action's name, but not a plank's own words ("Gain a Rope")."""


def in_words(action: str) -> str:
    """An action's name with its pieces in words: "trade Em+Ru for Di" reads "trade an
    emerald and a ruby for a diamond"."""

    def spelled(found: re.Match[str]) -> str:
        return listed([_item(short) for short in found.group(0).split("+")])

    return _PIECES.sub(spelled, action)


def _mariner(e: dict[str, Any]) -> str:
    return COLOURS[e["owner"]] if e["owner"] >= 0 else f"neutral #{e['mariner'] + 1}"


_LINES: dict[str, Callable[[dict[str, Any]], str]] = {
    "turn": lambda e: f"turn {e['turn']}: {COLOURS[e['player']]}",
    "move": lambda e: f"{COLOURS[e['player']]} moves {e['start']} → {e['end']} by {e['by']}",
    "gain": lambda e: (
        f"{COLOURS[e['player']]} gains {_item(e['item'])} ({e['source'].replace('_', ' ')})"
    ),
    "rope_returned": lambda e: f"{COLOURS[e['player']]} already has 2 ropes; the rope goes back",
    "crate": lambda e: (
        f"{COLOURS[e['player']]} puts {_item(e['gem'])} in the {_gem(e['gem'])} crate "
        f"(it holds {e['fill']})"
    ),
    "crate_dumped": lambda e: f"the {_gem(e['gem'])} crate is full and is dumped in its lifeboat",
    "stolen": lambda e: (
        f"{COLOURS[e['thief']]} takes {_item(e['item'])} from {COLOURS[e['victim']]}"
    ),
    "blocked": lambda e: f"{COLOURS[e['victim']]} blocks the steal",
    "tie_protected": lambda e: (
        f"a tie: {COLOURS[e['thief']]}'s Mariner protects {COLOURS[e['thief']]}, so "
        f"{COLOURS[e['victim']]} steals nothing back"
    ),
    "nothing_to_take": lambda e: f"{COLOURS[e['victim']]} holds nothing to take",
    "mariner_off": lambda e: (
        f"the {COLOURS[e['mariner']]} Mariner leaves its wall ({e['why'].replace('_', ' ')})"
    ),
    "mariner_tie": lambda e: "a tie: the Mariner stays",
    "mariner_on": lambda e: f"{COLOURS[e['player']]}'s Mariner takes wall {e['wall']}",
    "challenge_blocked": lambda e: "the challenge is blocked",
    "trade": lambda e: (
        f"{COLOURS[e['player']]} makes trade {e['trade'] + 1} of card {e['card'] + 1} "
        f"for {counted(e['life_rings'], 'life ring')}"
    ),
    "shortcut": lambda e: f"{COLOURS[e['player']]} takes the shortcut to {e['end']}",
    "switch": lambda e: f"{COLOURS[e['first']]} and {COLOURS[e['second']]} swap places",
    "skip_set": lambda e: f"{COLOURS[e['player']]} will skip their next turn",
    "skipped": lambda e: f"{COLOURS[e['player']]} skips this turn",
    "chest_opened": lambda e: f"the chest holds {_pool(e['items'])} (keep up to {e['may_keep']})",
    "dropped": lambda e: f"{COLOURS[e['player']]} drops {_item(e['gem'])} into the hole",
    "flipped": lambda e: f"{COLOURS[e['player']]} flips {e['plank']} to its flooded side",
    "evacuation_begins": lambda e: "every plank is flooded: the evacuation begins",
    "evacuated": lambda e: (
        f"{COLOURS[e['player']]} sends the {_mariner(e)} Mariner to the {_gem(e['lifeboat'])} "
        "lifeboat"
    ),
    "end_triggered": lambda e: "all four Mariners are in lifeboats: the final round follows",
    "final_round": lambda e: "final round: " + ", ".join(COLOURS[p] for p in e["order"]),
    "lantern": lambda e: f"{COLOURS[e['player']]} puts the lantern on {e['plank']}",
    "returned": lambda e: f"{COLOURS[e['player']]} returns {_item(e['gem'])} (over 10 loot)",
    "reloaded": lambda e: f"chest C{e['chest']} is reloaded",
    "reshuffled": lambda e: "the trade discards are shuffled into a new pile",
    "card_up": lambda e: f"trade card {e['card'] + 1} turns up",
    "supply_empty": lambda e: f"no {_ITEMS[e['item']][1]} left in the supply",
    "turn_cap": lambda e: f"the turn cap ({e['turns']}) ends the game",
    "game_over": lambda e: (
        "game over: "
        + " and ".join(COLOURS[p] for p in e["winners"])
        + (" wins" if len(e["winners"]) == 1 else " win")
    ),
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


def event_line(event: dict[str, Any]) -> str | None:
    """One event as a line; None for events not worth one (a turn starting)."""
    kind = event["kind"]
    if kind == "roll":
        line = f"{COLOURS[event['player']]} rolls {event['face']} {_PURPOSES[event['purpose']]}"
        if "item" in event:
            line += f": gains {_item(event['item'])}"
        if "success" in event:
            line += ": success!" if event["success"] else ": failure"
        return line
    describe = _LINES.get(kind)
    return None if describe is None else describe(event)
