"""ENG-11, the observation vector (encoding.py, docs/observation-encoding.md): two positions encode
the same for a viewer exactly when that viewer's `observation` of them is the same, so the
vector neither leaks what observe.py hides (ENG-07, AMB-16) nor drops what it shows."""

from __future__ import annotations

import json
import random

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from tabletop.dice import SeededDice
from tabletop.games.deadweight_board import Position
from tabletop.games.deadweight_board.config import DeadweightConfig, make_config
from tabletop.games.deadweight_board.encoding import encode, segments, size
from tabletop.games.deadweight_board.errors import BoardDataError, BoardError
from tabletop.games.deadweight_board.model import state_from_json, state_to_json
from tabletop.games.deadweight_board.observe import ALL_SEEING, TABLE, observation
from tabletop.games.deadweight_board.rules import apply_in_place, legal_actions, roll_chance
from tabletop.games.deadweight_board.setup import new_game
from tabletop.games.deadweight_board.state import CHANCE, OVER, PHASE_NAMES, State
from tests.games.deadweight_board.test_loaders import leaves, mutated, mutations
from tests.games.deadweight_board.test_properties import VARIANTS

CONFIGS = [*VARIANTS, make_config(turn_cap=40, chest_visibility="hidden")]


def played_under(config: DeadweightConfig, seed: int, steps: int, players: int) -> State:
    """A position `steps` steps into a random game under `config`."""
    dice, chooser = SeededDice(seed), random.Random(seed)
    state = new_game(players, config, dice)
    for _ in range(steps):
        if state.phase == OVER:
            break
        action = roll_chance(state, dice) if state.phase == CHANCE else None
        apply_in_place(state, chooser.choice(legal_actions(state)) if action is None else action)
    return state


def piece(state: State, viewer: int, name: str) -> np.ndarray:
    """The named piece of the vector (by `segments`)."""
    vector = encode(state, viewer)
    at = 0
    for piece_name, length in segments(state.ship.config):
        if piece_name == name:
            return vector[at : at + length]
        at += length
    raise KeyError(name)


def viewers(state: State) -> list[int]:
    return [*range(state.n), TABLE, ALL_SEEING]


def seen_alike(a: State, b: State, viewer: int) -> bool:
    return json.dumps(observation(a, viewer), sort_keys=True) == json.dumps(
        observation(b, viewer), sort_keys=True
    )


def encoded_alike(a: State, b: State, viewer: int) -> bool:
    return bool(np.array_equal(encode(a, viewer), encode(b, viewer)))


def test_the_pieces_sit_where_segments_say():
    position = Position(3).lantern("P3").turn("Blue").at("Blue", "S4").holding("Blue", ruby=2)
    state = position.build()
    assert len(encode(state, 1)) == size(state.ship.config)
    assert piece(state, 1, "turn")[0] == state.turn
    assert np.flatnonzero(piece(state, 1, "phase")).tolist() == [state.phase]
    assert PHASE_NAMES[state.phase] == "move"
    assert np.flatnonzero(piece(state, 1, "viewer_seat")).tolist() == [1]
    assert piece(state, 1, "seat_items").reshape(4, 6)[1].tolist() == [0, 0, 2, 0, 1, 0]
    assert piece(state, 1, "seat_present").tolist() == [1, 1, 1, 0]
    assert piece(state, 1, "pile_counts").tolist() == [
        state.pile.bit_count(),
        state.discards.bit_count(),
    ]


def test_a_face_down_card_moved_to_the_discards_changes_only_the_all_seeing_vector():
    """ENG-07: which face-down cards lie in the pile and which were discarded is hidden from
    every seat and from the table; only their counts show."""
    state = next(
        state
        for seed in range(50)
        for state in [played_under(VARIANTS[0], seed, 400, 4)]
        if state.pile and state.discards
    )
    saved = json.loads(state_to_json(state))
    pile = saved["trade_pile"]
    pile["face_down"][0], pile["discards"][0] = pile["discards"][0], pile["face_down"][0]
    other = state_from_json(json.dumps(saved))
    for viewer in [*range(4), TABLE]:
        assert encoded_alike(state, other, viewer)
    assert not encoded_alike(state, other, ALL_SEEING)


def test_a_closed_chest_under_hidden_chests_is_seen_by_the_all_seeing_alone():
    """AMB-16 `chest_visibility = hidden`: a gem dropped into the centre chest (AMB-40)."""
    state = Position(2, chest_visibility="hidden").lantern("P3").turn("Red").build()
    saved = json.loads(state_to_json(state))
    saved["chests"][state.ship.wtp_chest]["emerald"] += 1
    other = state_from_json(json.dumps(saved))
    assert all(encoded_alike(state, other, viewer) for viewer in (0, 1, TABLE))
    assert not encoded_alike(state, other, ALL_SEEING)
    assert piece(state, 0, "chests_hidden")[0] == 1


@given(
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 400),
    players=st.integers(2, 4),
    variant=st.integers(0, len(CONFIGS) - 1),
    data=st.data(),
)
def test_positions_encode_alike_exactly_when_the_viewer_sees_them_alike(
    seed, steps, players, variant, data
):
    """Each accepted single-field mutation of a played position (config left alone): for
    every viewer, same observation ⇔ same vector."""
    state = played_under(CONFIGS[variant], seed, steps, players)
    saved = json.loads(state_to_json(state))
    paths = [path for path in leaves(saved) if path[0] != "config"]
    path = data.draw(st.sampled_from(paths))
    value = data.draw(st.sampled_from(mutations(_at(saved, path))))
    try:
        other = state_from_json(json.dumps(mutated(saved, path, value)))
    except (BoardError, BoardDataError):
        return
    for viewer in viewers(state):
        assert seen_alike(state, other, viewer) == encoded_alike(state, other, viewer), (
            path,
            value,
            viewer,
        )


def _at(data: dict, path: tuple):
    for key in path:
        data = data[key]
    return data
