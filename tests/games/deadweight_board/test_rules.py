"""One test per rule and per option, with fixed dice, on the reference layout L0.

Docstrings cite the seed section and the docs/rules/deadweight-board.md entry (AMB-nn)."""

from __future__ import annotations

import pytest

from tabletop.games.deadweight_board.actions import (
    ACT,
    CHALLENGE,
    DEAL,
    DEALS,
    DEPLOY,
    FATE,
    FLOODED_TRADE,
    LOOT,
    PASS,
    RETURN,
    STEP_1,
    STEP_2,
    SWAP,
    TIE_WINNER,
    deals_for,
)
from tabletop.games.deadweight_board.actions import EVAC as EVAC_ACTION
from tabletop.games.deadweight_board.board import DI, EM, FS, PE, PRE_FS, RU, rope_destinations
from tabletop.games.deadweight_board.rules import chance_outcomes
from tabletop.games.deadweight_board.state import (
    CHANCE,
    EVAC,
    FINAL,
    FLIP_PICK,
    LANTERN,
    LIMIT,
    OVER,
    PLANK,
    STATION,
    TAKE_ITEM,
)
from tests.games.deadweight_board.table import (
    BLUE,
    GREEN,
    RED,
    YELLOW,
    Table,
    deploy,
    evacuate,
    flip,
    lantern_to,
    plank,
    rope_to,
    space,
    steal_from,
    take,
    take_item,
    target,
    trade,
)

# --- movement ------------------------------------------------------------------------------


def test_steps_wrap_round_the_loop_through_the_stations():
    """Seed §Movement: reversing onto the other lane at each station (AMB-17)."""
    t = Table()
    destination = t.s.ship.destination
    assert destination[space("S5")][1] == space("BS")
    assert destination[space("S5")][2] == space("P5")
    assert destination[space("P1")][2] == space("S1")
    assert destination[space("BS")][1] == space("P5")


@pytest.mark.parametrize(
    ("mode", "start", "reach"),
    [
        ("forward_to_station", "S3", ["S4", "S5", "BS"]),
        ("forward_to_station", "FS", ["S1", "S2", "S3", "S4", "S5", "BS"]),
        ("forward_to_station", "BS", ["P5", "P4", "P3", "P2", "P1", "FS"]),
        ("lane_any_direction", "S3", ["S1", "S2", "S4", "S5"]),
        ("any_plank", "S3", ["S1", "S2", "S4", "S5", "P5", "P4", "P3", "P2", "P1"]),
    ],
)
def test_rope_destinations(mode, start, reach):
    """Seed §Movement (rope): AMB-19 `rope_mode`."""
    assert rope_destinations(space(start), mode) == [space(name) for name in reach]


def test_a_rope_returns_to_the_supply_and_lands_normally():
    """Seed §Movement: after use the rope goes back; the landing resolves as usual."""
    t = Table().empty_hands().fresh_turn(RED).at(RED, "S1").hold(RED, Rope=1)
    t.do(rope_to("BS"))
    assert t.s.phase == STATION and t.s.pos[RED] == space("BS")
    assert t.items(RED) == {}


def test_start_before_the_front_station():
    """AMB-12 `start_space = pre_FS`: a step of 1 lands on FS."""
    t = Table(start_space="pre_FS", lantern="P2")
    assert t.s.pos[RED] == PRE_FS
    t.do(STEP_1)
    assert t.s.pos[RED] == FS and t.s.phase == STATION


# --- lantern -------------------------------------------------------------------------------


def test_lantern_reference_lantern_counts_from_the_lantern():
    """AMB-28 `lantern_reference = lantern`."""
    t = Table(lantern_reference="lantern").empty_hands().fresh_turn(RED).lantern_on("P3")
    t.at(RED, "S1").do(STEP_1, PASS)
    assert sorted(t.legal()) == sorted([lantern_to("P4"), lantern_to("P5")])


def test_lantern_may_stay_when_it_need_not_change():
    """AMB-28 `lantern_must_change = false`."""
    t = Table(lantern_must_change=False).empty_hands().fresh_turn(RED).lantern_on("S3")
    t.at(RED, "S3").do(STEP_1, PASS)
    assert sorted(t.legal()) == sorted([lantern_to("S3"), lantern_to("S2")])


@pytest.mark.parametrize(
    ("rule", "forbidden"), [("not_reachable_by_step", {"S1", "S2"}), ("none", set())]
)
def test_lantern_setup_rules(rule, forbidden):
    """AMB-13 `lantern_setup_rule`."""
    from tabletop.dice import SeededDice
    from tabletop.games.deadweight_board.config import make_config
    from tabletop.games.deadweight_board.rules import legal_actions
    from tabletop.games.deadweight_board.setup import new_game

    state = new_game(4, make_config(lantern_setup_rule=rule), SeededDice(1))
    allowed = {lantern_to(name) for name in ("S1", "S2", "S3", "P1")} - {
        lantern_to(n) for n in forbidden
    }
    assert allowed <= set(legal_actions(state))
    assert not {lantern_to(n) for n in forbidden} & set(legal_actions(state))


def test_skipped_turn_can_move_the_lantern():
    """AMB-29 `lantern_on_skip = move`."""
    t = (
        Table(lantern_on_skip="move", flip_order="free")
        .empty_hands()
        .fresh_turn(RED)
        .flooded("P1")
        .at(RED, "P2")
    )
    t.do(STEP_1, target(BLUE), lantern_to("P2"))
    assert t.s.phase == LANTERN and t.s.active == BLUE


# --- loot and limits -----------------------------------------------------------------------


def test_a_full_player_can_upgrade_by_returning_a_gem():
    """Seed §Loot Collection (10 loot, player's choice); AMB-30."""
    t = Table().empty_hands().fresh_turn(RED).at(RED, "P5").hold(RED, Em=10)
    t.do(STEP_1, LOOT)
    assert t.s.phase == LIMIT and t.s.owner == RED
    assert sorted(t.legal()) == [RETURN + EM, RETURN + DI]
    t.do(RETURN + EM)
    assert t.items(RED) == {"Em": 9, "Di": 1}


def test_crate_overflow_pays_a_life_ring_each_time_it_fills():
    """Seed §Trading (crate filled → extra life ring); AMB-15 `crate_capacity`."""
    t = Table(crate_capacity={"emerald": 1}).empty_hands().fresh_turn(RED).at(RED, "P1")
    t.hold(RED, Em=2).do(STEP_1, trade(1))
    assert t.items(RED) == {"LR": 3}
    assert t.s.crates[EM] == 0


# --- plank actions -------------------------------------------------------------------------


def test_brown_trade_swaps_two_gems_through_the_crates():
    """Seed §Tile Actions 1; AMB-31 `two_1for1`."""
    t = Table().empty_hands().fresh_turn(RED).at(RED, "FS").hold(RED, Em=1, Pe=1)
    t.do(STEP_1)
    deal = DEAL + DEALS.index(((EM, PE), (DI, DI)))
    assert deal in t.legal()
    offered = [DEALS[a - DEAL] for a in t.legal() if a >= DEAL]
    assert all(got[0] != given[0] and got[1] != given[1] for given, got in offered)
    assert len(offered) == 9
    t.do(deal)
    assert t.items(RED) == {"Di": 2}
    assert t.s.crates[:2] == [1, 1]


@pytest.mark.parametrize(
    ("mode", "count"),
    [("two_1for1", 78), ("same_type_pair", 12), ("two_for_one", 24), ("up_to_two", 90)],
)
def test_trade_action_modes(mode, count):
    """AMB-31 `trade_action_mode`: the swaps each reading allows."""
    assert len(deals_for(mode)) == count


def test_flooded_trade_swaps_a_gem_and_a_life_ring_either_way():
    """Seed §Tile Actions 1 (Opposite); AMB-32."""
    t = (
        Table(flip_order="free")
        .empty_hands()
        .fresh_turn(RED)
        .flooded("S1")
        .at(RED, "FS")
        .hold(RED, Ru=1, LR=1)
    )
    t.do(STEP_1)
    trades = [a for a in t.legal() if FLOODED_TRADE <= a < FLOODED_TRADE + 8]
    assert sorted(trades) == sorted(
        [FLOODED_TRADE + RU] + [FLOODED_TRADE + 4 + g for g in range(4)]
    )
    t.do(FLOODED_TRADE + 4 + DI)
    assert t.items(RED) == {"Ru": 1, "Di": 1}


def test_flooded_rope_and_life_ring_steal_automatically_but_not_from_the_protected():
    """Seed §Tile Actions 2 and 6 (Opposite); AMB-33, AMB-55."""
    t = Table(flip_order="free").empty_hands().fresh_turn(RED).flooded("P4").at(RED, "P5")
    t.hold(BLUE, LR=2).hold(GREEN, LR=1).mariner(GREEN, "P1|P2").at(GREEN, "P1")
    t.do(STEP_1)
    assert target(BLUE) in t.legal() and target(GREEN) not in t.legal()
    t.do(target(BLUE))
    assert t.items(RED) == {"LR": 1} and t.items(BLUE) == {"LR": 1}
    assert not t.events("roll")


def test_flooded_steal_as_a_contest():
    """AMB-33 `flooded_steal_contest = true`."""
    t = (
        Table(flooded_steal_contest=True, flip_order="free")
        .empty_hands()
        .fresh_turn(RED)
        .flooded("S2")
        .at(RED, "S1")
    )
    t.hold(BLUE, Rope=1)
    t.do(STEP_1, target(BLUE)).roll(6, 1)
    assert t.items(RED) == {"Rope": 1} and t.items(BLUE) == {}


def test_brown_sabotage_is_a_steal_anywhere_with_the_counter_steal():
    """Seed §Tile Actions 5; AMB-34, AMB-26."""
    t = Table().empty_hands().fresh_turn(RED).at(RED, "P2").at(BLUE, "S5").hold(RED, Pe=1)
    t.do(STEP_1, target(BLUE)).roll(2, 2)
    assert t.s.phase == TAKE_ITEM and t.s.owner == BLUE
    t.do(take_item("Pe"))
    assert t.items(BLUE) == {"Pe": 1}


@pytest.mark.parametrize(("blocks", "stolen"), [(True, False), (False, True)])
def test_protection_and_the_counter_steal(blocks, stolen):
    """AMB-55 `protection_blocks_counter_steal`: a protected thief who ties."""
    t = Table(protection_blocks_counter_steal=blocks).empty_hands().fresh_turn(RED)
    t.mariner(RED, "P1|P2").at(RED, "P2").at(BLUE, "S5").hold(RED, Pe=1)
    t.do(STEP_1, target(BLUE)).roll(3, 3)
    assert (t.s.phase == TAKE_ITEM) == stolen


def test_unified_ties_block_player_steals():
    """AMB-26 `unify_ties = true`."""
    t = Table(unify_ties=True).empty_hands().fresh_turn(RED).at(RED, "P2").at(BLUE, "S5")
    t.hold(RED, Pe=1).do(STEP_1, target(BLUE)).roll(4, 4)
    assert t.s.phase == LANTERN and t.items(RED) == {"Pe": 1}


def test_steal_requires_item_removes_empty_targets():
    """AMB-24 `steal_requires_item = true`."""
    t = Table(steal_requires_item=True).empty_hands().fresh_turn(RED).at(RED, "S1").at(BLUE, "S2")
    t.do(STEP_1)
    assert steal_from(BLUE) not in t.legal()


def test_switch_and_swap_two():
    """Seed §Tile Actions 4; AMB-37."""
    t = (
        Table()
        .empty_hands()
        .fresh_turn(RED)
        .flooded("S5")
        .at(RED, "S4")
        .at(BLUE, "P1")
        .at(GREEN, "S2")
    )
    t.do(STEP_1)
    pair = SWAP + [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)].index((BLUE, GREEN))
    t.do(pair)
    assert t.s.pos[BLUE] == space("S2") and t.s.pos[GREEN] == space("P1")
    assert t.s.pos[RED] == space("S5")


def test_plain_plank_offers_loot_only():
    """AMB-03: the tenth plank has no action."""
    t = Table().empty_hands().fresh_turn(RED).at(RED, "P4")
    t.do(STEP_1)
    assert sorted(t.legal()) == sorted([LOOT, PASS])


def test_flooded_walk_the_plank_succeeds_on_three():
    """Seed §Walking the Plank; AMB-38 `wtp_success_flooded`."""
    t = Table(flip_order="free").empty_hands().fresh_turn(RED).flooded("S3").at(RED, "S1")
    t.do(STEP_2, ACT).roll(3)
    assert t.s.keep_left == 4


def test_walk_the_plank_gems_only():
    """AMB-39 `wtp_scope = gems_only`: life rings and ropes stay in the chest."""
    t = Table(wtp_scope="gems_only").empty_hands().fresh_turn(RED).at(RED, "S1")
    t.do(STEP_2, ACT).roll(1)
    assert t.s.pool == [1, 1, 1, 1, 0, 0]
    assert t.s.chests[2 * 6 + 5] == 2


# --- stations, Mariners, evacuation --------------------------------------------------------


def test_trades_cannot_repeat_and_the_card_is_replaced_after_the_visit():
    """Seed §Trading (no repeats, discard, draw); AMB-43."""
    t = Table().empty_hands().fresh_turn(RED).at(RED, "P1").hold(RED, Em=4)
    old = t.s.card[RED]
    t.do(STEP_1, trade(1))
    assert trade(1) not in t.legal()
    top = t.s.top
    t.do(PASS)
    assert t.s.phase == CHANCE
    t.roll(1)
    assert t.s.card[RED] == top and t.s.discards >> old & 1
    assert t.s.phase == LANTERN


def test_new_card_usable_same_visit():
    """AMB-43 `new_card_usable_same_visit = true`: after the draw the visit goes on."""
    t = (
        Table(new_card_usable_same_visit=True)
        .empty_hands()
        .fresh_turn(RED)
        .at(RED, "P1")
        .hold(RED, Em=4)
    )
    t.do(STEP_1, trade(1), PASS).roll(1)
    assert t.s.phase == STATION and trade(1) in t.legal()


def test_challenge_needs_an_affordable_wall_and_relocation_pays_again():
    """AMB-56, AMB-57."""
    t = Table().empty_hands().fresh_turn(RED).mariner(BLUE, "S2|S3").at(RED, "P1")
    t.do(STEP_1)
    assert CHALLENGE not in t.legal()
    t2 = (
        Table()
        .empty_hands()
        .fresh_turn(RED)
        .mariner(RED, "S2|S3")
        .at(RED, "P1")
        .hold(RED, Em=1, Pe=1)
    )
    t2.do(STEP_1)
    assert deploy("S1|S2") in t2.legal()
    t3 = Table(owner_relocation=False).empty_hands().fresh_turn(RED).mariner(RED, "S2|S3")
    t3.at(RED, "P1").hold(RED, Em=1, Pe=1).do(STEP_1)
    assert deploy("S1|S2") not in t3.legal()


def test_neutral_mariners_are_never_deployed():
    """AMB-59: in a 3-player game only seats 0-2 own Mariners."""
    t = Table(players=3).empty_hands().fresh_turn(GREEN).at(GREEN, "P1").hold(GREEN, Em=2, Pe=2)
    t.do(STEP_1)
    assert any(DEPLOY <= a < EVAC_ACTION for a in t.legal())
    assert t.s.mariner_owner(3) == -1


def _evacuation(t: Table) -> Table:
    return t.evacuation()


def test_evacuation_only_at_the_front_station():
    """Seed §When All Planks Are Flipped; AMB-49: a diamond traded at BS does nothing more."""
    t = _evacuation(Table().empty_hands().fresh_turn(RED)).at(RED, "S5").hold(RED, Di=1)
    t.do(STEP_1, trade(3))
    assert t.s.phase == STATION
    t2 = _evacuation(Table().empty_hands().fresh_turn(RED)).at(RED, "P1").hold(RED, Di=1)
    t2.do(STEP_1, trade(3))
    assert t2.s.phase == EVAC


def test_evacuation_per_diamond_and_unlimited_lifeboats():
    """AMB-49 `evac_per_turn = per_diamond`; AMB-50 `lifeboat_capacity = unlimited`."""
    t = _evacuation(Table(evac_per_turn="per_diamond", lifeboat_capacity="unlimited").empty_hands())
    t.fresh_turn(RED).at(RED, "P1").hold(RED, Di=2, Em=1, Pe=1, Ru=1)
    t.do(STEP_1, trade(3), evacuate(GREEN, "Di"), trade(4))
    assert t.s.phase == EVAC
    assert evacuate(YELLOW, "Di") in t.legal()


def test_one_evacuation_per_turn_by_default():
    """AMB-49 `evac_per_turn = one`."""
    t = (
        _evacuation(Table().empty_hands())
        .fresh_turn(RED)
        .at(RED, "P1")
        .hold(RED, Di=2, Em=1, Pe=1, Ru=1)
    )
    t.do(STEP_1, trade(3), evacuate(GREEN, "Ru"), trade(4))
    assert t.s.phase == STATION


# --- flips ---------------------------------------------------------------------------------


def _flip_due(t: Table) -> Table:
    t.fresh_turn(RED).at(RED, "P1").hold(RED, Di=1)
    return t.do(STEP_1, trade(3), PASS).roll(1)


@pytest.mark.parametrize(
    ("order", "choices"),
    [
        ("track_from_BS", ["P5"]),
        ("free", ["S1", "S2", "S3", "S4", "S5", "P5", "P4", "P3", "P2", "P1"]),
    ],
)
def test_flip_orders(order, choices):
    """AMB-46 `flip_order`."""
    t = _flip_due(Table(flip_order=order).empty_hands())
    assert sorted(t.legal()) == sorted(flip(name) for name in choices)


def test_flipper_may_not_rejoin():
    """AMB-47 `flipper_rejoins = false`: after the others, the rest goes to the supply."""
    t = _flip_due(Table(flipper_rejoins=False, players=2).empty_hands())
    t.do(flip("S5"), take("LR"), take("Em"))
    assert t.s.phase == FLIP_PICK and t.s.owner == BLUE
    t.do(take("Pe"))
    assert t.s.phase == FLIP_PICK and t.s.owner == BLUE


def test_optional_picks_end_when_everyone_passes():
    """AMB-47 `pick_optional = true`."""
    t = _flip_due(Table(pick_optional=True, players=2).empty_hands())
    t.do(flip("S5"), take("LR"), take("Em"), PASS, PASS)
    assert t.s.phase == LANTERN


def test_quadrant_chests():
    """AMB-07 `chest_map = quadrant`: S4 and S5 share a chest."""
    t = Table(chest_map="quadrant")
    ship = t.s.ship
    assert ship.chest_of_plank[plank("S4")] == ship.chest_of_plank[plank("S5")]
    assert ship.chest_of_plank[plank("P4")] != ship.chest_of_plank[plank("S4")]


@pytest.mark.parametrize(("trigger", "reloaded"), [("wtp_only", False), ("any_emptied", True)])
def test_reload_triggers(trigger, reloaded):
    """AMB-08 `reload_trigger`: a chest emptied by a flip is reloaded only under any_emptied."""
    t = _flip_due(Table(reload_trigger=trigger, players=2).empty_hands())
    t.do(flip("S5"))
    while t.s.active == RED:
        t.do(t.legal()[0])
    assert (sum(t.s.chests[24:30]) > 0) == reloaded


def test_two_player_reload_contents_option():
    """AMB-08 `reload_contents_2p = two_player`."""
    t = _flip_due(Table(reload_contents_2p="two_player", players=2).empty_hands())
    t.do(flip("S5"))
    while t.s.active == RED:
        t.do(t.legal()[0])
    assert t.s.chests[24:30] == [1, 1, 0, 0, 1, 1]


# --- Mariner triggers ----------------------------------------------------------------------


def test_cross_or_end_adjacent_trigger():
    """AMB-52 `mariner_trigger = cross_or_end_adjacent`."""
    t = Table(mariner_trigger="cross_or_end_adjacent").empty_hands().fresh_turn(RED)
    t.mariner(BLUE, "S2|S3").at(RED, "FS").do(STEP_2)
    assert t.s.phase == CHANCE


def test_teleport_triggers_mariner_option():
    """AMB-53 `teleport_triggers_mariner = true`: arriving by Shortcut beside the wall."""
    t = Table(teleport_triggers_mariner=True).empty_hands().fresh_turn(RED).mariner(BLUE, "P3|P4")
    t.at(RED, "S3").do(STEP_1, ACT)
    assert t.s.pos[RED] == space("P4") and t.s.phase == CHANCE


# --- the end -------------------------------------------------------------------------------


def _trigger_end(t: Table) -> Table:
    t.evacuation((RED, "Em"), (GREEN, "Pe"), (YELLOW, "Ru"))
    t.fresh_turn(GREEN).at(GREEN, "P1").hold(GREEN, Di=1)
    t.do(STEP_1, trade(3), evacuate(BLUE, "Di"), PASS).roll(1)
    t.do(t.legal()[0])
    return t


@pytest.mark.parametrize(
    ("mode", "queue"),
    [
        ("all_including_trigger", [YELLOW, RED, BLUE, GREEN]),
        ("all_others", [YELLOW, RED, BLUE]),
        ("finish_round", [YELLOW]),
    ],
)
def test_final_round_options(mode, queue):
    """AMB-60 `final_round`."""
    t = _trigger_end(Table(final_round=mode).empty_hands())
    assert t.s.stage == FINAL
    assert [t.s.active, *t.s.final_queue] == queue


def test_full_final_turns():
    """AMB-61 `final_turn_mode = full`: plank landings work in the final round."""
    t = _trigger_end(Table(final_turn_mode="full").empty_hands())
    t.at(YELLOW, "P5").do(STEP_1)
    assert t.s.phase == PLANK


def test_turn_cap_ends_and_flags_the_game():
    """AMB-63 `turn_cap`."""
    t = Table(turn_cap=3)
    while t.s.phase != OVER:
        t.do(t.legal()[0]) if t.s.phase != CHANCE else t.roll(1)
    assert t.s.aborted and t.s.turn == 3


def _tied_end(option: str) -> Table:
    t = (
        Table(final_tie=option, turn_cap=1)
        .empty_hands()
        .hold(RED, LR=2, Em=1)
        .hold(BLUE, LR=2, Em=1)
    )
    t.at(RED, "P5").do(STEP_1, PASS)
    t.do(t.legal()[0])
    return t


def test_ties_shared_by_default():
    """AMB-62 `final_tie = shared`: same life rings and loot value share the win."""
    t = _tied_end("shared")
    assert t.s.winners == [RED, BLUE] and t.s.returns() == [0.5, 0.5, 0.0, 0.0]


def test_ties_broken_by_loot_value():
    """Seed §Game End Condition 4: loot values Em 1, Pe 2, Ru 3, Di 4."""
    t = Table(turn_cap=1).empty_hands().hold(RED, LR=2, Ru=1).hold(BLUE, LR=2, Em=1)
    t.at(RED, "P5").do(STEP_1, PASS)
    t.do(t.legal()[0])
    assert t.s.winners == [RED]


def test_ties_random_is_a_chance_event():
    """AMB-62 `final_tie = random`."""
    t = _tied_end("random")
    assert t.s.phase == CHANCE
    assert [o for o, _ in chance_outcomes(t.s)] == [TIE_WINNER + RED, TIE_WINNER + BLUE]
    t.roll(2)
    assert t.s.winners == [BLUE]


def test_fate_die_faces_option():
    """AMB-02 `fate_die_faces`."""
    faces = ("emerald", "pearl", "ruby", "diamond", "rope", "life_ring")
    t = Table(fate_die_faces=faces).empty_hands().fresh_turn(RED).at(RED, "S5")
    t.do(STEP_1, FATE).roll(1)
    assert t.items(RED) == {"Em": 1}


def test_finite_supply_loses_gains_that_are_not_there():
    """AMB-09 `supply = {counts}`."""
    supply = {"emerald": 0, "pearl": 0, "ruby": 0, "diamond": 0, "rope": 0, "life_ring": 0}
    t = Table(supply=supply).empty_hands().fresh_turn(RED).at(RED, "P5")
    t.do(STEP_1, ACT)
    assert t.items(RED) == {} and t.events("supply_empty")
