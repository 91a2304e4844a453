"""The acceptance scenarios of the rules notes (§4), each on the reference layout L0.

Each test names its scenario (Tnn), the seed section it checks and the docs/rules entry
(AMB-nn) whose default reading the expected result relies on. T12, T18 and T20 are
referenced by other scenarios but missing from the notes; they are reconstructed from the
scenarios that cite them and marked as such.
"""

from __future__ import annotations

import pytest

from tabletop.games.deadweight_board.actions import (
    ACT,
    CHALLENGE,
    DROP,
    FATE,
    LOOT,
    PASS,
    RETURN,
    SHORTCUT_TO,
    STEP_1,
    STEP_2,
)
from tabletop.games.deadweight_board.board import EM, RU
from tabletop.games.deadweight_board.state import (
    CHANCE,
    EVAC,
    FINAL,
    FLIP,
    FLIP_KEEP,
    FLIP_PICK,
    FORCED_DEPLOY,
    LANTERN,
    LIMIT,
    MOVE,
    OVER,
    PLANK,
    STATION,
    TAKE_ITEM,
    WTP_GIVE,
    WTP_KEEP,
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
    give,
    lantern_to,
    plank,
    rope_to,
    shortcut_to,
    space,
    steal_from,
    take,
    take_item,
    target,
    trade,
)


def test_t01_first_move_loot_and_lantern():
    """T01 — seed §Movement, §The Lantern; AMB-13, AMB-28."""
    t = Table(lantern="P2")
    t.do(STEP_2, LOOT)
    assert t.s.pos[RED] == space("S2")
    assert t.items(RED) == {"Pe": 1, "Rope": 1}
    assert t.s.phase == LANTERN
    assert sorted(t.legal()) == sorted([lantern_to("S1"), lantern_to("P1")])
    t.do(lantern_to("S1"))
    assert t.s.lantern == plank("S1")
    assert not t.events("flipped") and not t.events("reloaded")
    assert t.s.active == BLUE and t.s.phase == MOVE


def test_t01_variant_first_move_may_not_end_on_the_lantern():
    """T01 variant — seed §Setup 5; AMB-13 (`lantern_setup_rule = no_first_landing`)."""
    t = Table(lantern="S2")
    assert STEP_2 not in t.legal()
    assert STEP_1 in t.legal()
    assert rope_to("S2") not in t.legal() and rope_to("S3") in t.legal()


def test_t03_a_rope_skips_the_mariner():
    """T03 — seed §Movement (rope), §Mariner 3; AMB-19, AMB-53."""
    t = Table().empty_hands().fresh_turn(RED).mariner(BLUE, "S2|S3").at(RED, "S1")
    t.hold(RED, Rope=1, LR=2)
    t.do(rope_to("S4"))
    assert t.items(RED) == {"LR": 2}
    assert t.s.phase == PLANK and t.s.pos[RED] == space("S4")
    assert not t.events("roll")


def test_t05_rope_cap_on_gain_a_rope():
    """T05 — seed §Setup 4 (no more than 2 ropes); AMB-20."""
    t = Table().empty_hands().fresh_turn(RED).at(RED, "S1").hold(RED, Rope=2)
    t.do(STEP_1, ACT)
    assert t.items(RED) == {"Rope": 2}
    assert t.events("rope_returned")


def test_t05_rope_cap_on_the_fate_die():
    """T05 — a fate roll of 5 at a station leaves a player at 2 ropes; AMB-20."""
    t = Table().empty_hands().fresh_turn(RED).at(RED, "S5").hold(RED, Rope=2)
    t.do(STEP_1, FATE).roll(5)
    assert t.items(RED) == {"Rope": 2}


def test_t07_loot_or_action_not_both():
    """T07 — seed §Movement: loot *or* the plank action; AMB-22."""
    t = Table().empty_hands().fresh_turn(RED).at(RED, "P5")
    t.do(STEP_1)
    assert LOOT in t.legal() and ACT in t.legal()
    t.do(ACT)
    assert t.items(RED) == {"LR": 1}
    assert t.s.phase == LANTERN


def test_t09_lantern_with_another_player_allows_all_three():
    """T09 — seed §The Lantern; AMB-27 (steal, then loot, then action)."""
    t = Table().empty_hands().fresh_turn(RED).lantern_on("P4").at(RED, "P5").at(GREEN, "P4")
    t.hold(GREEN, Ru=2, LR=3)
    t.do(STEP_1, steal_from(GREEN)).roll(5, 2)
    t.do(take_item("LR"), LOOT, ACT)
    assert t.items(RED) == {"Di": 1, "LR": 2}
    assert t.items(GREEN) == {"Ru": 2, "LR": 2}


def test_t09_variant_forced_steal_still_allows_loot_and_action():
    """T09 variant — two others on the lantern plank: the steal is compulsory (Blue or
    Green), loot and action remain; AMB-23, AMB-27."""
    t = Table().empty_hands().fresh_turn(RED).lantern_on("P4").at(RED, "P5")
    t.at(GREEN, "P4").at(BLUE, "P4").hold(GREEN, Ru=2, LR=3)
    t.do(STEP_1)
    assert sorted(t.legal()) == [steal_from(BLUE), steal_from(GREEN)]
    t.do(steal_from(GREEN)).roll(1, 6)
    assert sorted(t.legal()) == sorted([LOOT, ACT, PASS])


def test_t11_lantern_must_move_and_an_occupied_plank_gets_nothing():
    """T11 — seed §The Lantern (must be moved; no effect on players already there); AMB-28."""
    t = Table().empty_hands().fresh_turn(RED).lantern_on("S3").at(RED, "S3").at(BLUE, "S2")
    t.do(STEP_1, PASS)
    assert t.s.pos[RED] == space("S4")
    assert t.legal() == [lantern_to("S2")]
    t.do(lantern_to("S2"))
    assert t.items(BLUE) == {}
    t.do(STEP_1)  # Blue leaves S2 for S3: no lantern benefit anywhere
    assert not t.s.landing


def _t12() -> Table:
    """T12 (reconstructed): Red steps from FS onto S2, where Blue stands alone, and attempts
    to steal. T13 builds on it with Red holding Rope 1 and Em 1."""
    t = Table().empty_hands().fresh_turn(RED).at(RED, "FS").at(BLUE, "S2")
    return t.hold(RED, Rope=1, Em=1).hold(BLUE, LR=2)


def test_t12_optional_steal_won_takes_any_item():
    """T12 (reconstructed) — seed §Stealing 2: stealer higher takes any 1 item; AMB-25."""
    t = _t12()
    t.do(STEP_2)
    assert steal_from(BLUE) in t.legal() and LOOT in t.legal()
    t.do(steal_from(BLUE)).roll(5, 2)
    assert t.s.phase == TAKE_ITEM and t.s.owner == RED
    t.do(take_item("LR"))
    assert t.items(RED) == {"Em": 1, "Rope": 1, "LR": 1}
    assert t.s.phase == LANTERN


def test_t13a_blocked_steal_uses_up_the_landing():
    """T13(a) — seed §Stealing 2: defender higher blocks; no loot, no action after."""
    t = _t12()
    t.do(STEP_2, steal_from(BLUE)).roll(2, 5)
    assert t.items(RED) == {"Em": 1, "Rope": 1} and t.items(BLUE) == {"LR": 2}
    assert t.s.phase == LANTERN


def test_t13b_tie_lets_the_defender_steal():
    """T13(b) — seed §Stealing 2: on a tie the defender steals 1 item instead; AMB-26."""
    t = _t12()
    t.do(STEP_2, steal_from(BLUE)).roll(4, 4)
    assert t.s.phase == TAKE_ITEM and t.s.owner == BLUE
    t.do(take_item("Em"))
    assert t.items(RED) == {"Rope": 1}
    assert t.items(BLUE) == {"Em": 1, "LR": 2}
    assert t.s.phase == LANTERN


def test_t15_protection_is_the_exception_to_a_forced_steal():
    """T15 — seed §Movement "(see Mariner section for exception)", §Mariner 2; AMB-23."""
    t = Table().empty_hands().fresh_turn(RED).mariner(BLUE, "S4|S5").at(RED, "S2")
    t.at(BLUE, "S4").at(GREEN, "S4")
    t.do(STEP_2)
    assert not t.events("roll")
    assert t.legal() == [steal_from(GREEN)]


def test_t15_variant_only_a_protected_player_means_no_steal():
    """T15 variant — AMB-23: with no legal target the player chooses freely."""
    t = Table().empty_hands().fresh_turn(RED).mariner(BLUE, "S4|S5").at(RED, "S2").at(BLUE, "S4")
    t.do(STEP_2)
    assert sorted(t.legal()) == sorted([LOOT, ACT, PASS])


def test_t17_deploying_a_mariner_pays_into_crates_and_flips_nothing():
    """T17 — seed §Deploying a Mariner (cost, crate bonus); AMB-44, AMB-51."""
    t = Table().empty_hands().fresh_turn(RED).at(RED, "S5").hold(RED, Di=1, Pe=1)
    t.crate("diamond", 4)
    t.do(STEP_1)
    assert t.s.phase == STATION
    t.do(deploy("P4|P5"))
    assert t.s.dep == RED and t.items(RED) == {"LR": 1}
    assert t.s.crates == [0, 1, 0, 0]
    assert not t.s.flip_pending
    assert FATE not in t.legal()
    t.do(PASS)
    assert t.s.phase == LANTERN


def test_t17_with_deploy_counting_as_a_diamond_spent():
    """T17 variant — `diamond_trigger_includes_deploy = true` (AMB-44): a column-5 flip."""
    t = Table(diamond_trigger_includes_deploy=True).empty_hands().fresh_turn(RED)
    t.at(RED, "S5").hold(RED, Di=1, Pe=1)
    t.do(STEP_1, deploy("P4|P5"), PASS)
    assert t.s.phase == FLIP
    assert sorted(t.legal()) == sorted([flip("S5"), flip("P5")])


def _t18() -> Table:
    """T18 (reconstructed): Blue's Mariner holds S2|S3; Red lands on FS holding Em 1 and
    Pe 1 (enough for wall S1|S2) and challenges."""
    t = Table().empty_hands().fresh_turn(RED).mariner(BLUE, "S2|S3").at(RED, "P1")
    t.hold(RED, Em=1, Pe=1)
    t.do(STEP_1)
    assert sorted(t.legal()) == sorted([FATE, CHALLENGE, PASS])
    return t


def test_t18_a_tied_challenge_is_blocked_and_costs_nothing():
    """T18 (reconstructed) — seed §Deploying: defender higher or equal blocks; AMB-57."""
    t = _t18()
    t.do(CHALLENGE).roll(3, 3)
    assert t.s.dep == BLUE
    assert t.items(RED) == {"Em": 1, "Pe": 1}
    assert t.s.phase == STATION and CHALLENGE not in t.legal()


def test_t19_challenge_succeeds_and_the_challenger_must_deploy():
    """T19 — seed §Deploying a Mariner (challenge); AMB-57."""
    t = _t18()
    t.do(CHALLENGE).roll(6, 3)
    assert t.s.dep == -1 and t.s.phase == FORCED_DEPLOY
    assert t.legal() == [deploy("S1|S2")]
    t.do(deploy("S1|S2"))
    assert t.s.dep == RED and t.items(RED) == {}
    assert t.s.crates == [1, 1, 0, 0]


def test_t20_a_step_across_the_wall_meets_the_mariner():
    """T20 (reconstructed) — seed §Mariner 1: the owner rolls first, then the mover; the
    owner wins and takes any item; AMB-52, AMB-54."""
    t = Table().empty_hands().fresh_turn(RED).mariner(BLUE, "S2|S3").at(RED, "S1")
    t.hold(RED, LR=2)
    t.do(STEP_2)
    assert t.s.phase == CHANCE
    t.roll(5, 2)
    assert t.s.phase == TAKE_ITEM and t.s.owner == BLUE
    t.do(take_item("LR"))
    assert t.items(RED) == {"LR": 1} and t.items(BLUE) == {"LR": 1}
    assert t.s.phase == PLANK and t.s.pos[RED] == space("S3")


@pytest.mark.parametrize(("faces", "mariner_after"), [((2, 5), -1), ((3, 3), BLUE)])
def test_t20_the_mariner_loses_or_ties(faces, mariner_after):
    """Seed §Mariner: the Mariner losing returns to reserve; a tie leaves it (AMB-26)."""
    t = Table().empty_hands().fresh_turn(RED).mariner(BLUE, "S2|S3").at(RED, "S1")
    t.do(STEP_2).roll(*faces)
    assert t.s.dep == mariner_after
    assert t.s.phase == PLANK


def test_t21a_ending_next_to_the_wall_is_no_contest():
    """T21(a) — AMB-52 (`mariner_trigger = cross`)."""
    t = Table().empty_hands().fresh_turn(RED).mariner(BLUE, "S2|S3").at(RED, "FS")
    t.do(STEP_2)
    assert t.s.phase == PLANK


def test_t21b_the_owner_passes_freely():
    """T21(b) — AMB-53: a Mariner never affects its owner."""
    t = Table().empty_hands().fresh_turn(BLUE).mariner(BLUE, "S2|S3").at(BLUE, "S1")
    t.do(STEP_2)
    assert t.s.phase == PLANK


def test_t21c_a_flooded_shortcut_triggers_no_contest():
    """T21(c) — AMB-36, AMB-53: Shortcut moves never meet a Mariner."""
    t = (
        Table(flip_order="free")
        .empty_hands()
        .fresh_turn(RED)
        .flooded("P2")
        .mariner(BLUE, "S2|S3")
        .at(RED, "P3")
    )
    t.do(STEP_1, shortcut_to("S3"))
    assert t.s.pos[RED] == space("S3") and not t.events("roll")
    assert t.s.phase == LANTERN


def test_t21d_a_switch_triggers_no_contest():
    """T21(d) — AMB-37, AMB-53."""
    t = Table().empty_hands().fresh_turn(RED).mariner(BLUE, "S2|S3").at(RED, "S4").at(GREEN, "S1")
    t.do(STEP_1, target(GREEN))
    assert t.s.pos[RED] == space("S1") and t.s.pos[GREEN] == space("S5")
    assert not t.events("roll") and t.s.phase == LANTERN


def test_t21e_a_rope_past_the_mariner_triggers_no_contest():
    """T21(e) — seed §Mariner 3."""
    t = Table().empty_hands().fresh_turn(RED).mariner(BLUE, "S2|S3").at(RED, "S1").hold(RED, Rope=1)
    t.do(rope_to("S4"))
    assert t.s.phase == PLANK


def _flip_due(t: Table, player: int = RED) -> Table:
    """Player trades a diamond at FS (TC-TEST t3) and ends the visit: a flip is due."""
    t.fresh_turn(player).at(player, "P1").hold(player, Di=1)
    t.do(STEP_1, trade(3), PASS).roll(1)
    return t


def test_t23_a_flip_knocks_a_mariner_off_before_the_sharing():
    """T23 — seed §Mariner 4, §Flipping Planks; AMB-46, AMB-48."""
    t = Table().empty_hands().mariner(BLUE, "S4|S5")
    _flip_due(t)
    assert t.s.phase == FLIP
    assert sorted(t.legal()) == sorted([flip("S5"), flip("P5")])
    t.do(flip("S5"))
    assert t.s.dep == -1
    kinds = [e["kind"] for e in t.s.events]
    assert kinds.index("mariner_off") < kinds.index("chest_opened")


def test_t23_flipping_the_other_plank_leaves_the_mariner_until_the_next_flip():
    """T23 — flipping P5 leaves the Mariner on S4|S5; the next flip must be S5 (AMB-46)."""
    t = Table().empty_hands().mariner(BLUE, "S4|S5")
    _flip_due(t)
    t.do(flip("P5"))
    assert t.s.dep == BLUE
    assert t.s.ship.flip_candidates(t.s.flooded) == [plank("S5")]


def _finish_turn(t: Table) -> None:
    """Take compulsory picks and move the lantern until the turn passes."""
    active = t.s.active
    while t.s.active == active and t.s.phase != OVER:
        t.do(t.legal()[0])


def test_t25_flip_order_and_the_reloaded_chest():
    """T25 — seed §Trading ("beginning from the back"); AMB-46, AMB-08."""
    t = Table().empty_hands()
    _flip_due(t)
    t.do(flip("S5"))
    _finish_turn(t)
    assert t.s.chests[4 * 6 : 4 * 6 + 6] == [1, 1, 1, 1, 1, 1]
    _flip_due(t.empty_hands(), BLUE)
    t.do(flip("P5"))
    assert t.s.pool == [1, 1, 1, 1, 1, 1]
    _finish_turn(t)
    _flip_due(t.empty_hands(), GREEN)
    assert sorted(t.legal()) == sorted([flip("S4"), flip("P4")])


def test_t27_walk_the_plank_succeeds_on_the_brown_side():
    """T27 — seed §Walking the Plank, §Tile Actions 7; AMB-38, AMB-39, AMB-40, AMB-08."""
    t = Table().empty_hands().fresh_turn(RED).at(RED, "S1")
    t.do(STEP_2, ACT).roll(4)
    assert t.s.phase == WTP_KEEP and t.s.keep_left == 4
    t.do(take("LR"), take("LR"), take("Di"), take("Ru"))
    assert t.s.phase == WTP_GIVE
    t.do(give("Em", BLUE), give("Pe", BLUE))
    assert t.items(RED) == {"Ru": 1, "Di": 1, "LR": 2}
    assert t.items(BLUE) == {"Em": 1, "Pe": 1}
    assert t.s.chests[2 * 6 : 2 * 6 + 6] == [0] * 6
    t.do(t.legal()[0])
    assert t.s.chests[2 * 6 : 2 * 6 + 6] == [1, 1, 1, 1, 1, 1]


@pytest.mark.parametrize("face", [2, 3, 5, 6])
def test_walk_the_plank_brown_fails_on_other_faces(face):
    """Seed §Tile Actions 7: brown succeeds only on 1 or 4 (AMB-38); failure drops a gem."""
    t = Table().empty_hands().fresh_turn(RED).at(RED, "S1").hold(RED, Ru=1)
    t.do(STEP_2, ACT).roll(face)
    assert t.legal() == [DROP + RU]
    t.do(DROP + RU)
    assert t.items(RED) == {} and t.s.chests[2 * 6 + RU] == 2


@pytest.mark.parametrize(("items", "keep"), [(8, 4), (9, 5), (11, 6)])
def test_t29_walk_the_plank_with_a_large_chest(items, keep):
    """T29 — seed §Walking the Plank: up to 4, or half (rounded up) above 8; AMB-39. The
    centre chest holds a reload (6 items) and emeralds dropped into its hole (AMB-41)."""
    t = Table().empty_hands().fresh_turn(RED).at(RED, "S1")
    t.chest(3, emerald=items - 5, pearl=1, ruby=1, diamond=1, rope=1, life_ring=1)
    t.do(STEP_2, ACT).roll(1)
    assert t.s.keep_left == keep


def test_t29_a_recipient_pushed_over_ten_gems_chooses_what_to_return():
    """T29 — AMB-30, AMB-40: the recipient chooses which gem goes back."""
    t = Table().empty_hands().fresh_turn(RED).at(RED, "S1").hold(BLUE, Di=10)
    t.do(STEP_2, ACT).roll(1)
    t.do(PASS, give("Em", BLUE))
    assert t.s.phase == LIMIT and t.s.owner == BLUE
    t.do(RETURN + EM)
    assert t.items(BLUE) == {"Di": 10}


@pytest.mark.parametrize(
    ("face", "gained"),
    [
        (6, {"LR": 1}),
        (1, {"Pe": 1}),
        (2, {"Em": 1}),
        (3, {"Ru": 1}),
        (4, {"Di": 1}),
        (5, {"Rope": 1}),
    ],
)
def test_t31_fate_roll_at_a_station(face, gained):
    """T31 — seed §Trading (fate die faces); AMB-02, AMB-42, AMB-44."""
    t = Table().empty_hands().fresh_turn(RED).at(RED, "S5")
    t.do(STEP_1, FATE).roll(face)
    assert t.items(RED) == gained
    assert not t.s.flip_pending
    assert t.s.phase == LANTERN


def test_t33_shortcut_lands_with_no_effects():
    """T33 — seed §Tile Actions 3 (ii, iii); AMB-36, AMB-21, AMB-29."""
    t = Table().empty_hands().fresh_turn(RED).lantern_on("P4").at(RED, "S2").at(YELLOW, "P4")
    t.do(STEP_2, ACT)
    assert t.s.pos[RED] == space("P4")
    assert t.items(RED) == {} and not t.events("roll")
    assert sorted(t.legal()) == sorted([lantern_to("P5"), lantern_to("S5")])
    t.do(lantern_to("P5"))
    assert t.s.ship.destination[t.s.pos[RED]][1] == space("P3")


def test_t33_flooded_shortcut_reaches_any_other_plank():
    """T33 — flooded Shortcut: any plank except the current one, never a station."""
    t = Table(flip_order="free").empty_hands().fresh_turn(RED).flooded("S4").at(RED, "S2")
    t.do(STEP_2)
    shortcuts = [a for a in t.legal() if SHORTCUT_TO <= a < SHORTCUT_TO + 10]
    assert sorted(shortcuts) == sorted(
        shortcut_to(p) for p in ("S1", "S2", "S3", "S5", "P1", "P2", "P3", "P4", "P5")
    )


def test_t35_skipping_a_turn():
    """T35 — seed §Tile Actions 5 (flooded Sabotage); AMB-35, AMB-29."""
    t = Table(flip_order="free").empty_hands().fresh_turn(RED).flooded("P1").at(RED, "P2")
    t.do(STEP_1, target(BLUE))
    assert t.s.skip[BLUE] == 1
    t.do(lantern_to("P2"))
    assert t.s.active == GREEN and t.s.skip[BLUE] == 0
    assert t.s.lantern == plank("P2")
    assert t.events("skipped")[0]["player"] == BLUE


def test_t35_skip_flags_do_not_stack():
    """T35 — a second skip before the turn comes has no extra effect (`skip_stacks`)."""
    t = Table(flip_order="free").empty_hands().fresh_turn(RED).flooded("P1").at(RED, "P2")
    t.do(STEP_1, target(BLUE))
    t.skips(BLUE)
    t.fresh_turn(YELLOW).at(YELLOW, "P2").do(STEP_1, target(BLUE))
    assert t.s.skip[BLUE] == 1


def test_t37_the_last_mariner_then_the_final_round():
    """T37 — seed §When All Planks Are Flipped, §Additional Rules, §Game End; AMB-49,
    AMB-50, AMB-60, AMB-61."""
    t = Table().empty_hands().fresh_turn(RED)
    t.evacuation((RED, "Em"), (GREEN, "Pe"), (YELLOW, "Ru"))
    t.mariner(BLUE, "P2|P3").at(RED, "P1").hold(RED, Di=1, Em=2, Pe=1, Ru=1)
    t.do(STEP_1, trade(3))
    assert t.s.phase == EVAC
    assert t.legal() == [evacuate(BLUE, "Di")]
    t.do("Blue Mariner to the Di lifeboat")
    assert t.s.dep == -1 and t.s.end_triggered
    assert t.items(RED) == {"Em": 2, "Pe": 1, "Ru": 1, "Di": 1, "LR": 1}
    assert trade(3) not in t.legal()
    t.do(trade(4))
    assert t.items(RED) == {"Em": 1, "LR": 4}
    t.do(PASS).roll(1)
    t.do(t.legal()[0])
    assert t.s.stage == FINAL
    assert t.s.active == BLUE and t.s.final_queue == [GREEN, YELLOW, RED]
    t.at(BLUE, "P5").do(STEP_1)  # a plank in the final round: nothing happens
    assert t.s.phase == LANTERN
    t.do(t.legal()[0])
    t.at(GREEN, "S5").hold(GREEN, Di=1).do(STEP_1)  # a station: trades only, no fate roll
    assert t.s.phase == STATION and FATE not in t.legal() and trade(3) in t.legal()
    t.do(PASS)
    t.do(t.legal()[0])
    t.do(STEP_1)  # Yellow
    t.do(t.legal()[-1])
    while t.s.phase != OVER:
        t.do(t.legal()[0])
    assert t.s.phase == OVER and t.s.winners == [RED]


def test_t39_two_player_setup():
    """T39 — seed §2-player exceptions; AMB-08, AMB-59."""
    t = Table(players=2)
    for c in range(5):
        assert t.s.chests[c * 6 : c * 6 + 6] == [1, 1, 0, 0, 1, 1]
    assert t.s.boat == [-1, -1, -1, -1] and t.s.dep == -1
    assert t.items(RED) == {"Rope": 1} and t.items(BLUE) == {"Rope": 1}
    assert t.s.mariner_owner(2) == -1 and t.s.mariner_owner(3) == -1


def test_t39_two_player_flip_sharing():
    """T39 — a column-5 flip: Red keeps LR and Em, Blue picks Pe, then Red picks Rope
    (seed §Flipping Planks 1; AMB-47)."""
    t = Table(players=2).empty_hands()
    _flip_due(t)
    t.do(flip("S5"))
    assert t.s.phase == FLIP_KEEP and t.s.owner == RED
    t.do(take("LR"), take("Em"))
    assert t.s.phase == FLIP_PICK and t.s.owner == BLUE
    t.do(take("Pe"))
    assert t.s.owner == RED and t.legal() == [take("Rope")]
    t.do(take("Rope"))
    assert t.items(RED) == {"Em": 1, "Rope": 1, "LR": 2}
    assert t.items(BLUE) == {"Pe": 1}
    assert t.s.phase == LANTERN


def test_t39_two_player_walk_the_plank_and_standard_reload():
    """T39 — WtP with C3 = {LR, Rope, Em, Pe}: keep all 4, or give the rest to Blue; the
    reload uses the standard contents (AMB-08 `reload_contents_2p = standard`)."""
    t = Table(players=2).empty_hands().fresh_turn(RED).at(RED, "S1")
    t.do(STEP_2, ACT).roll(4)
    assert t.s.keep_left == 4
    t.do(take("LR"), take("Rope"), take("Em"))
    t.do(PASS)
    assert t.legal() == [give("Pe", BLUE)]
    t.do(give("Pe", BLUE))
    t.do(t.legal()[0])
    assert t.s.chests[2 * 6 : 2 * 6 + 6] == [1, 1, 1, 1, 1, 1]
