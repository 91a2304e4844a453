"""Invariants over many seeded random games (issue 4, Tests): limits never exceeded, pieces
conserved with finite supplies, every game ends or is capped and flagged, scores and ranking
follow the tie-break, clones and saved states behave, logs replay."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.dice import SeededDice
from tabletop.games.deadweight_board.actions import NUM_ACTIONS
from tabletop.games.deadweight_board.board import MAX_LOOT, MAX_ROPES
from tabletop.games.deadweight_board.config import make_config
from tabletop.games.deadweight_board.errors import IllegalActionError
from tabletop.games.deadweight_board.log import replay_lines
from tabletop.games.deadweight_board.model import state_from_json, state_to_json
from tabletop.games.deadweight_board.rules import (
    apply,
    apply_in_place,
    chance_outcomes,
    legal_actions,
    roll_chance,
)
from tabletop.games.deadweight_board.setup import new_game
from tabletop.games.deadweight_board.simulate import run_games
from tabletop.games.deadweight_board.state import CHANCE, LIMIT, OVER, State
from tests.effort import tried

SHORT = make_config(turn_cap=40)
VARIANTS = [
    make_config(turn_cap=40),
    make_config(
        turn_cap=40,
        rope_mode="any_plank",
        unify_ties=True,
        skip_stacks=True,
        trade_action_mode="up_to_two",
        flooded_steal_contest=True,
    ),
    make_config(
        turn_cap=40,
        walls="lane_and_mirrors",
        mariner_trigger="cross_or_end_adjacent",
        teleport_triggers_mariner=True,
        flip_order="free",
        pick_optional=True,
        flipper_rejoins=False,
        new_card_usable_same_visit=True,
    ),
    make_config(
        turn_cap=40,
        chest_map="quadrant",
        reload_trigger="every_turn_center",
        wtp_scope="gems_only",
        start_space="pre_FS",
        lantern_reference="lantern",
        lantern_on_skip="move",
        final_turn_mode="full",
        final_tie="random",
    ),
]
FINITE = {"emerald": 6, "pearl": 6, "ruby": 5, "diamond": 4, "rope": 3, "life_ring": 25}


def _random_game(seed: int, config, players: int, check=None) -> State:
    dice = SeededDice(seed)
    state = new_game(players, config, dice)
    chooser = random.Random(seed)
    while state.phase != OVER:
        if state.phase == CHANCE:
            action = roll_chance(state, dice)
        else:
            action = chooser.choice(legal_actions(state))
        apply_in_place(state, action)
        if check:
            check(state)
    return state


def _limits_hold(state: State) -> None:
    for p in range(state.n):
        items = state.items(p)
        assert min(items) >= 0
        assert items[4] <= MAX_ROPES
        assert state.gems(p) <= MAX_LOOT or (state.phase == LIMIT and state.limit_player == p)
    assert min(state.chests) >= 0 and min(state.pool) >= 0
    assert all(0 <= c < cap for c, cap in zip(state.crates, state.ship.capacity, strict=True))
    assert state.dep == -1 or state.boat[state.dep] < 0
    assert state.flooded.bit_count() <= 10
    boats = [b for b in state.boat if b >= 0]
    if state.ship.config.lifeboat_capacity == "one":
        assert len(boats) == len(set(boats))
    if state.phase not in (CHANCE, OVER):
        assert legal_actions(state), "every decision offers at least one action"


@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_limits_hold_at_every_step_of_random_play(variant):
    """Seed §Setup 4, §Loot Collection (10 loot, 2 ropes), one Mariner deployed, a
    Mariner per lifeboat: 250 short games per rules variant (1,000 in all), checked after
    every step (a third of them in a quick run: tests/effort.py)."""
    for seed in range(tried(250)):
        _random_game(seed, VARIANTS[variant], 2 + seed % 3, _limits_hold)


def test_items_are_conserved_with_finite_supplies():
    """AMB-09: with finite supplies every item is somewhere: a player, a chest, a crate, the
    supply, or in the middle of being shared out."""
    config = make_config(turn_cap=40, supply=FINITE)

    for seed in range(tried(100)):
        state = new_game(2 + seed % 3, config, SeededDice(seed))
        start = _totals(state)

        def conserved(s: State, start=start) -> None:
            assert _totals(s) == start

        _random_game(seed, config, state.n, conserved)


def _totals(state: State) -> list[int]:
    totals = list(state.supply or [0] * 6)
    for item in range(6):
        totals[item] += sum(state.inv[p * 6 + item] for p in range(state.n))
        totals[item] += sum(state.chests[c * 6 + item] for c in range(5))
        totals[item] += state.pool[item]
        if item < 4:
            totals[item] += state.crates[item]
    return totals


def test_every_game_ends_or_is_capped_and_flagged_and_the_ranking_follows_the_tie_break():
    """AMB-62, AMB-63: full-length random games either end by the rules or at the cap,
    flagged; winners have the most life rings, then the most loot value."""
    ended = capped = 0
    for seed in range(60):
        state = _random_game(seed, make_config(), 2 + seed % 3)
        assert state.phase == OVER
        assert state.aborted == (state.turn >= 600)
        capped += state.aborted
        ended += not state.aborted
        best = max((state.life_rings(p), state.loot_value(p)) for p in range(state.n))
        assert state.winners == [
            p for p in range(state.n) if (state.life_rings(p), state.loot_value(p)) == best
        ]
        ranking = state.ranking()
        keys = [(state.life_rings(p), state.loot_value(p)) for p in ranking]
        assert keys == sorted(keys, reverse=True)
        assert sum(state.returns()) == pytest.approx(1.0)
    assert ended and capped


def test_chance_outcomes_are_a_probability_distribution():
    """Notes §2.5: every chance node lists outcomes whose probabilities add up to 1."""
    dice = SeededDice(3)
    state = new_game(4, SHORT, dice)
    chooser = random.Random(3)
    seen = 0
    while state.phase != OVER:
        if state.phase == CHANCE:
            outcomes = chance_outcomes(state)
            assert sum(p for _, p in outcomes) == 1
            seen += 1
            apply_in_place(state, roll_chance(state, dice))
        else:
            apply_in_place(state, chooser.choice(legal_actions(state)))
    assert seen


@settings(max_examples=tried(25))
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 400), players=st.integers(2, 4))
def test_saved_states_round_trip_and_play_on_identically(seed, steps, players):
    """A state saved to JSON and loaded again is the same state, and the game goes on the
    same way from both."""
    dice = SeededDice(seed)
    state = new_game(players, SHORT, dice)
    chooser = random.Random(seed)
    for _ in range(steps):
        if state.phase == OVER:
            break
        action = (
            roll_chance(state, dice)
            if state.phase == CHANCE
            else chooser.choice(legal_actions(state))
        )
        apply_in_place(state, action)
    loaded = state_from_json(state_to_json(state))
    assert loaded.digest() == state.digest()
    assert legal_actions(loaded) == legal_actions(state)
    assert chance_outcomes(loaded) == chance_outcomes(state)


@settings(max_examples=tried(25))
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 300))
def test_clones_are_independent_and_illegal_actions_change_nothing(seed, steps):
    """`clone` copies; `apply` leaves its input alone; an illegal action raises and leaves
    the state exactly as it was."""
    dice = SeededDice(seed)
    state = new_game(4, SHORT, dice)
    chooser = random.Random(seed)
    for _ in range(steps):
        if state.phase == OVER:
            return
        if state.phase == CHANCE:
            apply_in_place(state, roll_chance(state, dice))
            continue
        before = state.digest()
        copy = state.clone()
        action = chooser.choice(legal_actions(state))
        after = apply(state, action)
        assert state.digest() == before == copy.digest()
        illegal = next(a for a in range(NUM_ACTIONS) if a not in legal_actions(state))
        with pytest.raises(IllegalActionError):
            apply_in_place(copy, illegal)
        assert copy.digest() == before
        state = after


def test_logged_games_replay_exactly():
    """Issue 4: replay reproduces every game from its seed and recorded choices."""
    records = list(run_games(12, ["random", "greedy"], 3, SHORT, seed=9, log=True))
    lines = [line for record in records for line in record.log]
    assert replay_lines(lines) == 12
