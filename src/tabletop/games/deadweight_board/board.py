"""The ship: spaces, planks, walls and items, as small integers the engine can index fast.

The movement track is one loop of 12 spaces (docs/rules AMB-17): the front station FS, the
starboard lane S1…S5 heading aft, the back station BS, then the port lane P5…P1 heading
forward. Planks are numbered in the same order (S1=0 … S5=4, P5=5 … P1=9), which is also
the lantern's ring with the stations left out (AMB-28).
"""

from __future__ import annotations

from typing import Final

COLOURS: Final = ("Red", "Blue", "Green", "Yellow")
"""The seats in turn order; Mariner m has colour m too (neutral when nobody holds seat m)."""

# --- items -------------------------------------------------------------------------------


EM: Final = 0
PE: Final = 1
RU: Final = 2
DI: Final = 3
ROPE: Final = 4
LR: Final = 5
GEMS: Final = (EM, PE, RU, DI)
ITEM_NAMES: Final = ("emerald", "pearl", "ruby", "diamond", "rope", "life_ring")
ITEM_SHORT: Final = ("Em", "Pe", "Ru", "Di", "Rope", "LR")
ITEM_BY_NAME: Final = {name: index for index, name in enumerate(ITEM_NAMES)}
MAX_LOOT: Final = 10
MAX_ROPES: Final = 2

# --- spaces ------------------------------------------------------------------------------

FS: Final = 0
BS: Final = 6
PRE_FS: Final = 12
"""The extra starting space before FS, used only with `start_space = "pre_FS"` (AMB-12)."""
TRACK: Final = 12
SPACE_NAMES: Final = (
    "FS",
    "S1",
    "S2",
    "S3",
    "S4",
    "S5",
    "BS",
    "P5",
    "P4",
    "P3",
    "P2",
    "P1",
    "start",
)
SPACE_BY_NAME: Final = {name: index for index, name in enumerate(SPACE_NAMES)}
STATIONS: Final = (FS, BS)

# --- planks ------------------------------------------------------------------------------

PLANKS: Final = 10
PLANK_NAMES: Final = ("S1", "S2", "S3", "S4", "S5", "P5", "P4", "P3", "P2", "P1")
PLANK_BY_NAME: Final = {name: index for index, name in enumerate(PLANK_NAMES)}
SPOT_ORDER: Final = ("S1", "S2", "S3", "S4", "S5", "P1", "P2", "P3", "P4", "P5")
"""The order people read a layout in: each lane from the front."""


def plank_space(plank: int) -> int:
    """The track space a plank occupies."""
    return plank + 1 if plank < 5 else plank + 2


def space_plank(space: int) -> int:
    """The plank on a track space, or -1 for a station or the start space."""
    if 1 <= space <= 5:
        return space - 1
    if 7 <= space <= 11:
        return space - 2
    return -1


def column(plank: int) -> int:
    """The plank's column, 1 at the front (bow) to 5 at the back (stern)."""
    return plank + 1 if plank < 5 else 10 - plank


def mirror(plank: int) -> int:
    """The plank in the same column on the other lane (Shortcut's brown side)."""
    return 9 - plank


CENTRE_PLANKS: Final = (2, 7)
"""S3 and P3: the two centre spots."""


KIND_NAMES: Final = (
    "trade",
    "rope",
    "shortcut",
    "switch",
    "sabotage",
    "life_ring",
    "walk_the_plank",
    "plain",
)
KIND_BY_NAME: Final = {name: index for index, name in enumerate(KIND_NAMES)}
KIND_TITLES: Final = (
    "Trade",
    "Gain a Rope",
    "Shortcut",
    "Switch with Player",
    "Sabotage",
    "Plus 1 Life Ring",
    "Walk the Plank",
    "Plain",
)


def lane_neighbours(plank: int) -> list[int]:
    """Planks next to `plank` in its own lane."""
    return [
        other
        for other in (plank - 1, plank + 1)
        if 0 <= other < PLANKS and other // 5 == plank // 5
    ]


def lane_walls() -> list[tuple[int, int]]:
    """The 8 walls between same-lane neighbours, as (plank, next plank along the track)."""
    return [(k, k + 1) for k in range(4)] + [(k, k + 1) for k in range(5, 9)]


def mirror_walls() -> list[tuple[int, int]]:
    """The 5 extra walls between mirrored planks (only with `walls = "lane_and_mirrors"`)."""
    return [(c, 9 - c) for c in range(5)]


WALLS: Final = (*lane_walls(), *mirror_walls())
"""Every wall a Mariner may stand on, in a fixed order: the 8 lane walls, then the 5 mirror
walls that `walls = "lane_and_mirrors"` adds (AMB-51). A wall's index is its place here."""


def wall_name(wall: tuple[int, int]) -> str:
    """A wall as people name it: the two planks it separates, front one first."""
    a, b = sorted(wall, key=lambda k: (k >= 5, column(k)))
    return f"{PLANK_NAMES[a]}|{PLANK_NAMES[b]}"


def ring_reference(space: int) -> int:
    """Where "behind" is counted from on the lantern's ring: a plank's own index; FS counts
    as the spot before S1 (so P1, P2 are behind it) and BS as the spot after S5."""
    if space in (FS, PRE_FS):
        return 0
    if space == BS:
        return 5
    return space_plank(space)


def behind(space: int, steps: int) -> int:
    """The plank `steps` spaces behind a space on the lantern's ring (stations skipped)."""
    return (ring_reference(space) - steps) % PLANKS


def step_path(space: int, steps: int) -> list[int]:
    """The spaces entered by a step move of `steps` from `space`, in order."""
    path = []
    for _ in range(steps):
        space = FS if space == PRE_FS else (space + 1) % TRACK
        path.append(space)
    return path


def rope_destinations(space: int, mode: str) -> list[int]:
    """Where a rope can take a player from `space` (AMB-19).

    forward_to_station: forward along the current lane up to and including the next
    station; from a station, any plank of the next lane or the other station.
    lane_any_direction: any other plank of the current lane, either way (from a station,
    the lane it faces), or the other station from a station.
    any_plank: any plank of either lane other than the current one.
    """
    if space == PRE_FS:
        return [FS, *rope_destinations(FS, mode)]
    if mode == "any_plank":
        return [plank_space(k) for k in range(PLANKS) if plank_space(k) != space]
    if space in STATIONS:
        lane = range(1, 6) if space == FS else range(7, 12)
        other = BS if space == FS else FS
        return [*lane, other]
    if mode == "forward_to_station":
        destinations = []
        current = space
        while current not in STATIONS:
            current = (current + 1) % TRACK
            destinations.append(current)
        return destinations
    lane = range(1, 6) if space <= 5 else range(7, 12)
    return [other for other in lane if other != space]


def spacing_neighbours(plank: int, spacing: str) -> list[int]:
    """The planks that may not share `plank`'s action under the setup spacing rule (AMB-06)."""
    if spacing == "none":
        return []
    near = lane_neighbours(plank)
    if spacing == "same_action_lane_and_mirror":
        near.append(mirror(plank))
    return near
