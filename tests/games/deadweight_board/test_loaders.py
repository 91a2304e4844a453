"""Strict loaders: a saved position the rules cannot reach is refused with the rule it
breaks, and every single-field mutation of a valid position the loader accepts is one the
rules can go on from (docs/rules ENG-08).

The reachability check used here: a position counts as reachable when (1) it holds every
invariant that holds at every step of random play (`invariants`, checked over thousands of
played positions in test_properties.py), and (2) the engine plays on from it: random legal
play runs 300 steps (or to the end) with every decision offering a legal choice, no error of
any kind, the invariants holding at each step, and the positions it produces loading again.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop.dice import SeededDice
from tabletop.games.deadweight_board import Position
from tabletop.games.deadweight_board.board import (
    COLOURS,
    ITEM_NAMES,
    MAX_LOOT,
    MAX_ROPES,
    PLANK_NAMES,
    SPACE_NAMES,
)
from tabletop.games.deadweight_board.config import make_config
from tabletop.games.deadweight_board.errors import BoardDataError, ReplayError, StateError
from tabletop.games.deadweight_board.log import replay_lines
from tabletop.games.deadweight_board.model import state_from_json, state_to_json
from tabletop.games.deadweight_board.rules import apply_in_place, legal_actions, roll_chance
from tabletop.games.deadweight_board.setup import new_game
from tabletop.games.deadweight_board.simulate import run_games
from tabletop.games.deadweight_board.state import (
    CHANCE,
    CHANCE_NAMES,
    LIMIT,
    OVER,
    PHASE_NAMES,
    STAGE_NAMES,
    State,
)
from tests.effort import tried
from tests.games.deadweight_board.test_properties import VARIANTS

WORDS = (
    *PHASE_NAMES,
    *CHANCE_NAMES,
    *STAGE_NAMES,
    *SPACE_NAMES,
    *PLANK_NAMES,
    *COLOURS,
    *ITEM_NAMES,
    "reserve",
    "wall",
    "lifeboat",
    "zzz",
    "",
)
"""Strings a mutation may write: every name the state uses somewhere, and nonsense."""


def invariants(state: State) -> None:
    """What holds at every step of random play (the oracle's first half)."""
    for p in range(state.n):
        items = state.items(p)
        assert min(items) >= 0 and items[4] <= MAX_ROPES
        assert state.gems(p) <= MAX_LOOT or (state.phase == LIMIT and state.limit_player == p)
    assert min(state.chests) >= 0 and min(state.pool) >= 0
    assert all(0 <= c < cap for c, cap in zip(state.crates, state.ship.capacity, strict=True))
    assert state.dep == -1 or (0 <= state.dep < state.n and state.boat[state.dep] < 0)
    if state.ship.config.lifeboat_capacity == "one":
        boats = [b for b in state.boat if b >= 0]
        assert len(boats) == len(set(boats))
    if state.phase not in (CHANCE, OVER):
        assert 0 <= state.owner < state.n
        assert legal_actions(state), "every decision offers at least one action"


def plays_on(state: State, seed: int, steps: int = 300) -> None:
    """The oracle's second half: random legal play goes on from `state` without a fault."""
    dice, chooser = SeededDice(seed), random.Random(seed)
    for step in range(steps):
        invariants(state)
        if state.phase == OVER:
            break
        if state.phase == CHANCE:
            apply_in_place(state, roll_chance(state, dice))
        else:
            apply_in_place(state, chooser.choice(legal_actions(state)))
        if step % 50 == 0:
            state_from_json(state_to_json(state))
    state_from_json(state_to_json(state))


def played(seed: int, steps: int, players: int, variant: int) -> State:
    dice, chooser = SeededDice(seed), random.Random(seed)
    state = new_game(players, VARIANTS[variant], dice)
    for _ in range(steps):
        if state.phase == OVER:
            break
        apply_in_place(
            state,
            roll_chance(state, dice)
            if state.phase == CHANCE
            else chooser.choice(legal_actions(state)),
        )
    return state


def leaves(data: Any, path: tuple = ()) -> list[tuple]:
    """Every mutable field of a saved state, as a path (the trade deck's cards left out)."""
    if path == ("config", "trade_deck"):
        return []
    if isinstance(data, dict):
        return [leaf for key, value in data.items() for leaf in leaves(value, (*path, key))]
    if isinstance(data, list) and data and not isinstance(data[0], int | str | None):
        return [leaf for i, value in enumerate(data) for leaf in leaves(value, (*path, i))]
    return [path]


def mutations(value: Any) -> list[Any]:
    """The values a field may be changed to: near and far numbers, the other truth value,
    other names, lists with an item gone, doubled or added."""
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        return [v for v in (value - 1, value + 1, 0, -1, 2, 5, 11, 10**6) if v != value]
    if isinstance(value, str):
        return [word for word in WORDS if word != value]
    if isinstance(value, list):
        changed = [[*value, 0], [*value, 1], [*value, "Red"]]
        if value:
            changed += [value[1:], value[:-1], [*value, value[0]]]
            if isinstance(value[0], int):
                changed.append([value[0] + 1, *value[1:]])
        return changed
    return [0, "Red", [], {}]


def mutated(data: dict, path: tuple, value: Any) -> dict:
    copy = json.loads(json.dumps(data))
    target = copy
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return copy


@settings(max_examples=tried(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 400),
    players=st.integers(2, 4),
    variant=st.integers(0, len(VARIANTS) - 1),
    data=st.data(),
)
def test_every_single_field_mutation_the_loader_accepts_is_reachable(
    seed, steps, players, variant, data
):
    """Issue 13 item 5: a mutation is refused with `StateError` (never a bare ValueError,
    KeyError or RecursionError, never a hang), or it is a position the rules reach."""
    state = played(seed, steps, players, variant)
    saved = json.loads(state_to_json(state))
    path = data.draw(st.sampled_from(leaves(saved)))
    target: Any = saved
    for key in path:
        target = target[key]
    value = data.draw(st.sampled_from(mutations(target)))
    try:
        loaded = state_from_json(json.dumps(mutated(saved, path, value)))
    except BoardDataError:
        return
    plays_on(loaded, seed)


@pytest.mark.parametrize(
    ("edit", "rule"),
    [
        (
            lambda p: p.evacuation().lifeboat("Blue", "emerald").lifeboat("Green", "emerald"),
            "two Mariners are in a lifeboat that holds one",
        ),
        (lambda p: p.lifeboat("Blue", "emerald"), "the sinking lasts while a plank is brown"),
        (lambda p: p.at("Red", "start"), "the config starts everyone on FS"),
        (lambda p: p.skips("Red"), "playing a turn they were to skip"),
        (lambda p: p.flooded("S1"), "not flipped in the order"),
        (lambda p: p.crate("emerald", 5), "fewer gems than its capacity"),
        (lambda p: p.chest(2, emerald=3), "chest C2 holds what no setup"),
        (lambda p: p.holding("Red", emerald=11), "more than 10 loot"),
    ],
)
def test_builder_refuses_unreachable_positions_naming_the_rule(edit, rule):
    """The examples of issue 13: each breaks one rule, and the refusal names it."""
    with pytest.raises(StateError, match=rule):
        edit(Position(4).lantern("P3").turn("Red")).build()


@pytest.mark.parametrize(
    ("path", "value", "rule"),
    [
        (("machine", "phase"), "station", "needs Red on a station"),
        (("machine", "owner"), 1, "decision is the active player's"),
        (("machine", "stage"), "evacuation", "once every plank is flooded"),
        (("machine", "turn"), 9, "turns taken must add up"),
        (("players", 0, "position"), "start", "starts everyone on FS"),
    ],
)
def test_saved_states_breaking_a_rule_are_refused_naming_it(path, value, rule):
    """`state_from_json` re-checks a saved position (issue 13's examples)."""
    saved = json.loads(state_to_json(Position(4).lantern("P3").turn("Red").at("Red", "S2").build()))
    with pytest.raises(StateError, match=rule):
        state_from_json(json.dumps(mutated(saved, path, value)))


def test_replay_refuses_a_recorded_position_the_rules_cannot_reach():
    """`replay` loads every recorded position strictly (ENG-08): a log whose setup puts a
    player on the start space, under a config that starts everyone on FS, is refused with
    that rule and its line."""
    (record,) = run_games(1, ["random"], 2, make_config(turn_cap=4), seed=3, log=True)
    lines = list(record.log)
    setup = json.loads(lines[0])
    setup["state"]["players"][0]["position"] = "start"
    lines[0] = json.dumps(setup)
    with pytest.raises(ReplayError, match=r"line 1: unreachable position: .*starts everyone on FS"):
        replay_lines(lines)
