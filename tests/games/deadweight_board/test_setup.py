"""Setup, layouts, config files and saved states (seed §Ship Setup; AMB-03 to AMB-16)."""

from __future__ import annotations

import json

import pytest

from tabletop.dice import SeededDice
from tabletop.errors import TabletopError
from tabletop.games.deadweight_board import Position
from tabletop.games.deadweight_board.board import CENTRE_PLANKS, PLANK_NAMES, mirror
from tabletop.games.deadweight_board.config import (
    DeadweightConfig,
    check_layout,
    load_config,
    make_config,
    named_layouts,
)
from tabletop.games.deadweight_board.errors import ConfigError, LayoutError, StateError
from tabletop.games.deadweight_board.model import state_from_json, state_to_json
from tabletop.games.deadweight_board.setup import deal_layout, new_game


def _reference() -> dict:
    return {name: spot.model_dump() for name, spot in named_layouts()["reference"].items()}


def test_the_reference_layout_meets_every_setup_rule():
    """Notes §0: L0 meets every placement rule (AMB-04, AMB-06)."""
    check_layout(named_layouts()["reference"], DeadweightConfig())


@pytest.mark.parametrize(
    ("change", "rule"),
    [
        (
            {
                "S3": {"action": "walk_the_plank", "loot": "emerald"},
                "S5": {"action": "switch", "loot": "diamond"},
            },
            "one diamond card must be on a centre spot",
        ),
        (
            {
                "S3": {"action": "shortcut", "loot": "diamond"},
                "S4": {"action": "walk_the_plank", "loot": "ruby"},
            },
            "Walk the Plank must sit in the centre",
        ),
        (
            {
                "P4": {"action": "life_ring", "loot": "ruby"},
                "S4": {"action": "shortcut", "loot": "diamond"},
            },
            "Plus 1 Life Ring must sit with the other diamond card",
        ),
        (
            {
                "P1": {"action": "trade", "loot": "pearl"},
                "P5": {"action": "sabotage", "loot": "pearl"},
            },
            "no two planks with the same action",
        ),
        (
            {"P3": {"action": "rope", "loot": "emerald"}},
            "the layout's planks must be the ship's plank set",
        ),
        (
            {"P3": {"action": "plain", "loot": "ruby"}},
            "the loot-type cards must be the configured mix",
        ),
    ],
)
def test_a_layout_breaking_a_setup_rule_is_refused_naming_the_rule(change, rule):
    """Issue 4: "A layout that breaks a setup rule is refused with the rule it breaks"."""
    layout = _reference() | change
    with pytest.raises(LayoutError, match=rule):
        make_config(layout=layout)


def test_spacing_none_allows_neighbouring_twins():
    """AMB-04 `setup_spacing = none`."""
    layout = _reference() | {
        "P1": {"action": "trade", "loot": "pearl"},
        "P5": {"action": "sabotage", "loot": "pearl"},
    }
    make_config(layout=layout, setup_spacing="none")


def test_random_layouts_follow_the_setup_rules():
    """AMB-04, AMB-05, AMB-06: dealt layouts always pass the same check, and vary."""
    config = DeadweightConfig()
    seen = set()
    for seed in range(200):
        spots = deal_layout(config, SeededDice(seed))
        check_layout(spots, config)
        actions = [spots[name].action for name in PLANK_NAMES]
        assert actions.index("walk_the_plank") in CENTRE_PLANKS
        for k in range(10):
            assert actions[k] == "plain" or actions[k] != actions[mirror(k)]
        seen.add(tuple(actions))
    assert len(seen) > 50


def test_setup_for_three_and_four_players():
    """Seed §Ship Setup 1 and 4: chests hold a gem of each type and 2 life rings; players
    start on FS with a rope and a trade card; the top card is face up."""
    for players in (3, 4):
        state = new_game(players, dice=SeededDice(players))
        for chest in range(5):
            assert state.chests[chest * 6 : chest * 6 + 6] == [1, 1, 1, 1, 0, 2]
        assert all(
            state.pos[p] == 0 and state.items(p) == [0, 0, 0, 0, 1, 0] for p in range(players)
        )
        cards = [*state.card, state.top]
        assert len(set(cards)) == players + 1
        assert state.pile.bit_count() == 24 - players - 1


def test_random_first_player():
    """AMB-11 `first_player = random`."""
    firsts = {
        new_game(4, make_config(first_player="random"), SeededDice(s)).first_player
        for s in range(30)
    }
    assert firsts == {0, 1, 2, 3}


def test_setup_is_reproducible_from_a_seed():
    a = new_game(4, dice=SeededDice(77))
    b = new_game(4, dice=SeededDice(77))
    assert a.digest() == b.digest()


@pytest.mark.parametrize("players", [1, 5])
def test_player_count_is_two_to_four(players):
    with pytest.raises(ConfigError, match="2 to 4"):
        new_game(players)


def test_placeholder_deck_follows_its_stated_formula():
    """AMB-14: each placeholder card has 4 different trades of 1-4 gems paying
    max(1, floor(value / 3)) and at least one trade with a diamond."""
    deck = DeadweightConfig().trade_deck
    assert len(deck) == 24
    values = {"emerald": 1, "pearl": 2, "ruby": 3, "diamond": 4}
    for card in deck:
        costs = [tuple(sorted(t.cost.items())) for t in card.trades]
        assert len(card.trades) == 4 and len(set(costs)) == 4
        assert any("diamond" in t.cost for t in card.trades)
        for t in card.trades:
            assert 1 <= sum(t.cost.values()) <= 4
            value = sum(values[g] * n for g, n in t.cost.items())
            assert t.life_rings == max(1, value // 3)


def test_config_files_replace_deck_loot_mix_crates_and_layout(tmp_path):
    """Issue 4: a config file can replace the trade deck, loot-card mix, crate capacity and
    layout."""
    path = tmp_path / "rules.toml"
    path.write_text(
        "crate_capacity = { emerald = 3, pearl = 4, ruby = 4, diamond = 2 }\n"
        "loot_card_counts = { emerald = 2, pearl = 3, ruby = 3, diamond = 2 }\n"
        'layout = "random"\nturn_cap = 300\n'
        + "".join(
            "[[trade_deck]]\ntrades = [{ cost = { diamond = 1 }, life_rings = 2 }]\n"
            for _ in range(6)
        )
    )
    config = load_config(path)
    assert config.crate_capacity["diamond"] == 2 and len(config.trade_deck) == 6
    state = new_game(4, config, SeededDice(1))
    assert state.ship.capacity == (3, 4, 4, 2)
    assert sorted(state.ship.loot).count(0) == 2


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("bogus = 1", "bogus"),
        ("turn_cap = 0", "turn_cap"),
        ("rope_mode = 'teleport'", "rope_mode"),
        (
            "loot_card_counts = { emerald = 4, pearl = 2, ruby = 1, diamond = 3 }",
            "exactly 2 diamond",
        ),
        ("crate_capacity = { emerald = 0 }", "crate"),
        ("layout = 'nowhere'", "unknown layout"),
        ("this is not toml", "not valid TOML"),
    ],
)
def test_bad_config_files_are_refused_in_one_line(tmp_path, text, problem):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(TabletopError, match=problem):
        load_config(path)


def test_config_json_and_missing_file(tmp_path):
    path = tmp_path / "rules.json"
    path.write_text(json.dumps({"final_round": "all_others"}))
    assert load_config(path).final_round == "all_others"
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path / "missing.toml")


def test_changed_lists_only_non_defaults():
    assert make_config(turn_cap=100).changed() == {"turn_cap": 100}


@pytest.mark.parametrize(
    ("path", "value", "problem"),
    [
        (("players", 0, "items", "emerald"), 11, "more than 10 loot"),
        (("players", 0, "items", "rope"), 3, "more than 2 ropes"),
        (("players", 1, "trade_card"), 0, "every trade card"),
        (("mariners", 1), {"owner": "Blue", "where": "wall", "wall": 2}, "one Mariner"),
        (("players", 0, "position"), "deck", "position"),
        (("machine", "owner"), 9, "owner"),
        (("machine", "phase"), "chance", "chance"),
        (("machine", "first_block"), 55, "first_block"),
        (("machine", "final_queue"), [9], "final_queue"),
        (("machine", "contest"), [9, 0, -1, 0, 0], "contest"),
        (("machine", "contest"), [0, 1, 7, 0, 0], "contest"),
        (("machine", "limit"), [0, 99], "resume"),
        (("machine", "winners"), [5], "winners"),
    ],
)
def test_bad_saved_states_are_refused(path, value, problem):
    """A saved state that breaks an invariant is refused with a clear message."""
    state = Position(4, layout="random", seed=2).lantern("P3").turn("Red")
    data = json.loads(state_to_json(state.mariner("Red", "S2|S3").build()))
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(StateError, match=problem):
        state_from_json(json.dumps(data))


def test_garbage_is_not_a_state():
    with pytest.raises(StateError):
        state_from_json("{not json")
