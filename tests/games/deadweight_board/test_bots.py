"""Bots choose legal actions, reproducibly from their seeds; MCTS keeps to its budget; once
the ship has flooded, greedy and MCTS seats bring the Mariners home unless stalling can
still win for them (ENG-16)."""

from __future__ import annotations

import pytest

from tabletop.dice import SeededDice
from tabletop.games.deadweight_board import Position
from tabletop.games.deadweight_board.bots import (
    GreedyBot,
    MctsBot,
    RandomBot,
    greedy,
    heuristic,
    make_bot,
    mcts,
    win_chances,
)
from tabletop.games.deadweight_board.bots.heuristic import HASTE, end_progress, seat_values
from tabletop.games.deadweight_board.config import make_config
from tabletop.games.deadweight_board.rules import (
    apply_in_place,
    describe,
    legal_actions,
    roll_chance,
)
from tabletop.games.deadweight_board.setup import new_game
from tabletop.games.deadweight_board.simulate import Summary, play_game, run_games
from tabletop.games.deadweight_board.state import CHANCE, EVAC, OVER, State
from tabletop.games.deadweight_board.turns import tied_winners
from tests.effort import tried


def _positions(count: int = 25):
    dice = SeededDice(4)
    state = new_game(4, make_config(turn_cap=60), dice)
    bot = RandomBot(1)
    found = []
    while state.phase != OVER and len(found) < count:
        if state.phase == CHANCE:
            apply_in_place(state, roll_chance(state, dice))
            continue
        if len(legal_actions(state)) > 1:
            found.append(state.clone())
        apply_in_place(state, bot.choose(state))
    return found


def test_every_bot_chooses_a_legal_action():
    for bot in (RandomBot(1), GreedyBot(1), MctsBot(1, simulations=30)):
        for state in _positions():
            assert bot.choose(state) in legal_actions(state)


def test_mcts_keeps_to_its_simulation_budget_and_is_reproducible():
    state = _positions()[5]
    first, second = MctsBot(7, simulations=40), MctsBot(7, simulations=40)
    assert first.choose(state) == second.choose(state)
    assert first.last_simulations == 40


def test_mcts_time_budget():
    bot = make_bot("mcts:0.05s", 1)
    bot.choose(_positions()[3])
    assert bot.last_simulations >= 1


def test_win_chances_are_a_distribution():
    for state in _positions():
        chances = win_chances(state)
        assert abs(sum(chances) - 1) < 1e-9 and min(chances) >= 0


def test_a_game_between_bots_is_reproducible_from_its_seed():
    config = make_config(turn_cap=30)
    a = play_game(["greedy", "random", "mcts:20"], config, seed=5)
    b = play_game(["greedy", "random", "mcts:20"], config, seed=5)
    assert (a.scores, a.turns, a.winners) == (b.scores, b.turns, b.winners)


# --- ENG-16: once the ship has flooded, bots bring the Mariners home ----------------------


def _at_the_front_station(red_rings: int, blue_rings: int, home: tuple[str, ...]) -> State:
    """The evacuation with `home`'s Mariners in lifeboats; Red has just stepped from P1
    onto the front station holding two diamonds, and two trades on Red's card pay one."""
    position = Position(2).lantern("P3").evacuation()
    for mariner, lifeboat in zip(home, ("emerald", "pearl", "ruby"), strict=False):
        position.lifeboat(mariner, lifeboat)
    state = (
        position.turn("Red")
        .at("Red", "P1")
        .at("Blue", "S3")
        .holding("Red", emerald=2, pearl=2, ruby=2, diamond=2, life_ring=red_rings)
        .holding("Blue", life_ring=blue_rings)
        .build()
    )
    (step_1,) = (a for a in legal_actions(state) if describe(state, a) == "step 1")
    apply_in_place(state, step_1)
    return state


THREE_HOME = ("Blue", "Green", "Yellow")


def _after(state: State, action: int) -> State:
    after = state.clone()
    apply_in_place(after, action)
    return after


def _as_before(monkeypatch) -> None:
    """The bots as they were before ENG-16: every seat maximised its win chance alone."""
    for module in (heuristic, greedy, mcts):
        monkeypatch.setattr(module, "seat_values", win_chances)


def _rest_of_the_turn(state: State, bot, seed: int) -> State:
    """`state` after its player's turn, every choice the bot's, the dice seeded."""
    state, dice, player = state.clone(), SeededDice(seed), state.active
    while state.phase != OVER and state.active == player:
        apply_in_place(
            state, roll_chance(state, dice) if state.phase == CHANCE else bot.choose(state)
        )
    return state


def test_a_safe_leader_at_the_front_station_brings_the_last_mariner_home(monkeypatch):
    """ENG-16: Red leads 30 life rings to 10 and stands on the front station, where a
    diamond trade moves the fourth Mariner home and ends the game. The win chances cannot
    tell Red's choices apart, so the old greedy bot did whatever its seed drew (the fate
    die, a pass, a Mariner on a wall), and for three seeds of eight the turn passed with
    the last Mariner aboard; now every seed, greedy or MCTS, ends the game this turn."""
    state = _at_the_front_station(30, 10, THREE_HOME)
    assert {round(win_chances(_after(state, a))[0], 9) for a in legal_actions(state)} == {1.0}
    bots = [GreedyBot(seed) for seed in range(8)] + [MctsBot(s, simulations=30) for s in range(3)]
    assert all(_rest_of_the_turn(state, bot, 1).end_triggered for bot in bots)
    _as_before(monkeypatch)
    old = [_rest_of_the_turn(state, GreedyBot(seed), 1) for seed in range(8)]
    assert [game.end_triggered for game in old] == [
        False,
        True,
        False,
        True,
        True,
        True,
        False,
        True,
    ]


def test_haste_hurries_the_seats_ahead_and_leaves_the_others_to_their_chances():
    """ENG-16: Red, ahead by the rules' scoring (AMB-62), gains from every step toward the
    end; Blue, behind, maximises its win chance alone."""
    state = _at_the_front_station(30, 10, THREE_HOME)
    assert tied_winners(state) == [0]
    progress = end_progress(state)
    assert 3.9 < progress < 4  # three home; Red on the station with a diamond trade ready
    red, blue = win_chances(state)
    assert seat_values(state) == pytest.approx([red + HASTE * progress, blue])


def test_a_diamond_paid_at_the_front_station_counts_its_mariner_home_at_once():
    """ENG-16: between the trade and the choice of lifeboat, the Mariner due (AMB-49)
    counts as home, so a lookahead that stops there still sees the trade as progress."""
    state = _at_the_front_station(30, 10, ("Blue", "Green"))
    (trade,) = (a for a in legal_actions(state) if describe(state, a) == "trade #1 on the card")
    due = _after(state, trade)
    assert due.phase == EVAC and sum(b >= 0 for b in due.boat) == 2
    assert end_progress(due) > 3 > end_progress(state)


def test_a_seat_behind_loses_chances_as_the_mariners_come_home():
    """ENG-16: one life ring behind, Blue's win chance is lower with three Mariners home
    than with two (the evaluation grows surer near the end), so Blue's own objective holds
    the Mariners back while it can still catch up, without any haste of its own."""
    two = _at_the_front_station(13, 12, ("Blue", "Green"))
    three = _at_the_front_station(13, 12, THREE_HOME)
    assert tied_winners(three) == [0]
    assert win_chances(three)[1] < win_chances(two)[1]
    assert seat_values(three)[1] == win_chances(three)[1]


CAP_MIXES = [(("greedy",), 2), (("mcts:8",), 2), (("mcts:8", "greedy"), 4)]


@pytest.mark.parametrize(("seats", "players"), CAP_MIXES)
def test_greedy_and_mcts_games_end_before_the_turn_cap(seats, players):
    """ENG-16, issue 23: a seeded batch per bot mix runs to the turn cap in under 5% of its
    games: here none of 20 (the thorough run; a quick run plays the first `tried(20)` of the
    same seeded batch), where the bots before ENG-16 ran 2 of the same 20 two-player MCTS
    games to the cap."""
    games = tried(20)
    summary = Summary(players)
    for record in run_games(games, seats, players, seed=23):
        summary.add(record)
    assert summary.games == games
    assert summary.aborted / summary.games < 0.05
    assert len(summary.after_flood) == games  # every game flooded, then ended by the rules
