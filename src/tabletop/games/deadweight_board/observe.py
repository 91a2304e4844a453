"""What each seat may see: the one place the board game decides its secrets.

The seed keeps little from anyone: positions, holdings, held trade cards, the top card of the
trade pile, crates, the lantern and the Mariners are all on the table. What it does keep:

- the trade cards that lie face down (the pile below its top card, and the discards): every
  viewer sees how many there are, only an all-seeing viewer which they are (ENG-07);
- with `chest_visibility = "hidden"` (AMB-16), the loot in the closed chests below deck, and
  the haul a successful Walk the Plank lifts out of the centre chest, which only its roller
  sees until it is kept or handed out; a chest opened by a flip is shared out in the open.

A *viewer* is a seat (0 to 3), `TABLE` (someone at the table with no seat: an observer) or
`ALL_SEEING` (a room's GM, a replay, a bot; bots read the whole state, AMB-16). The terminal
renderer, the table session and a program's observation all ask here.
"""

from __future__ import annotations

from typing import Any

from tabletop.games.deadweight_board.board import COLOURS
from tabletop.games.deadweight_board.model import to_model
from tabletop.games.deadweight_board.state import FLIP_KEEP, FLIP_PICK, State

ALL_SEEING = -2
"""The viewer who sees the whole state."""
TABLE = -1
"""A viewer at the table who holds no seat."""


def sees_chests(state: State, viewer: int) -> bool:
    """Whether `viewer` sees what the closed chests hold (AMB-16)."""
    return viewer == ALL_SEEING or state.ship.config.chest_visibility == "public"


def haul_owner(state: State) -> int:
    """The roller whose Walk the Plank haul is being kept and handed out, or -1 when no
    haul is (a flip's chest is shared out in the open)."""
    if state.wtp_won and any(state.pool) and state.phase not in (FLIP_KEEP, FLIP_PICK):
        return state.active
    return -1


def sees_pool(state: State, viewer: int) -> bool:
    """Whether `viewer` sees the items being shared out of an opened chest."""
    owner = haul_owner(state)
    return sees_chests(state, viewer) or owner < 0 or viewer == owner


def observation(state: State, viewer: int) -> dict[str, Any]:
    """The state as `viewer` sees it, ready for JSON: the saved-state form (model.py) with
    each secret replaced by `{"hidden": what}`, and the config left out (it is public and
    the same all game)."""
    seen = to_model(state).model_dump(mode="json", exclude={"config"})
    if not sees_chests(state, viewer):
        seen["chests"] = [{"hidden": f"the loot in chest C{c + 1}"} for c in range(5)]
    if not sees_pool(state, viewer):
        seen["machine"]["pool"] = {"hidden": f"the haul {COLOURS[state.active]} lifted"}
    pile = seen["trade_pile"]
    pile["face_down_count"] = len(pile["face_down"])
    pile["discard_count"] = len(pile["discards"])
    if viewer != ALL_SEEING:
        pile["face_down"] = {"hidden": "which trade cards lie face down in the pile"}
        pile["discards"] = {"hidden": "which trade cards were discarded face down"}
    return seen


def event_seat(event: dict[str, Any], state: State) -> int | None:
    """The one seat that sees a rules event in full (all-seeing viewers see it too), or None
    when every viewer does: a hidden-chest haul is its roller's."""
    hidden = state.ship.config.chest_visibility == "hidden"
    if hidden and event["kind"] == "chest_opened" and event["by"] == "walk_the_plank":
        return event["player"]
    return None


def event_hint(event: dict[str, Any]) -> str:
    """What the viewers who may not see an event are told of it."""
    return f"{COLOURS[event['player']]} lifts the loot out of the chest under the plank"
