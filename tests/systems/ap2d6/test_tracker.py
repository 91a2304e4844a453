"""The AP tracker (§ Action Points (AP), Moving, and the AP Tracker; § AP Shenanigans)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletop.errors import TabletopError
from tabletop.systems.ap2d6 import APTracker, Options, action_cost, basic_action
from tabletop.systems.ap2d6.costs import Cost
from tabletop.systems.ap2d6.tracker import ATTACK

MOVE = basic_action("move").cost


def test_the_seeds_walkthrough_step_by_step() -> None:
    """RU-M18 and the seed's worked example: a (2n2) move then a (1n1) move use all 3 AP; next
    round 1 token is on 0 and 2 on 1; a move; then all 3 sit on 1 and all return to 0."""
    tracker = APTracker()
    assert tracker.cells() == [3, 0, 0, 0]
    tracker, _ = tracker.pay(action_cost("(2n2)"), "heavy move")
    assert tracker.cells() == [1, 0, 2, 0]
    tracker, _ = tracker.pay(MOVE, "move")
    assert tracker.cells() == [0, 1, 2, 0] and tracker.spendable == 0
    with pytest.raises(TabletopError, match="only 0"):
        tracker.pay(MOVE, "move")
    tracker, _ = tracker.start_round()
    assert tracker.cells() == [1, 2, 0, 0] and tracker.spendable == 1
    tracker, _ = tracker.pay(MOVE, "move")
    assert tracker.cells() == [0, 3, 0, 0]
    tracker, _ = tracker.start_round()
    assert tracker.cells() == [3, 0, 0, 0] and tracker.spendable == 3


def test_three_moves_spend_a_whole_round() -> None:
    """RU-M16, RU-M17: three (1n1) moves and there is nothing left."""
    tracker = APTracker()
    for _ in range(3):
        tracker, _ = tracker.pay(MOVE, "move")
    assert tracker.cells() == [0, 3, 0, 0]


def test_either_cost_lets_the_actor_choose() -> None:
    """RU-M16: "(2n3 or 3n1)" can be paid either way."""
    spell = action_cost("(2n3 or 3n1)")
    slow, _ = APTracker().pay(spell, "spell")
    fast, _ = APTracker().pay(spell, "spell", Cost(ap=3, returns_in=1))
    assert slow.cells() == [1, 0, 0, 2]
    assert fast.cells() == [0, 3, 0, 0]
    with pytest.raises(TabletopError, match="not a cost of this action"):
        APTracker().pay(spell, "spell", Cost(ap=1, returns_in=1))


def test_rut11_escalating_attacks_share_one_count() -> None:
    """RU-T11, RU-M19: longsword (1n1)->(2n1): 1 AP, then 2 AP, and a third would cost (2n1)
    with nothing left; a move between attacks does not reset the count."""
    longsword = action_cost("(1n1)->(2n1)")
    tracker, _ = APTracker().pay(longsword, ATTACK)
    assert tracker.cells() == [2, 1, 0, 0]
    assert tracker.choices(longsword, ATTACK) == (Cost(ap=2, returns_in=1),)
    tracker, _ = tracker.pay(longsword, ATTACK)
    assert tracker.cells() == [0, 3, 0, 0]
    with pytest.raises(TabletopError):
        tracker.pay(longsword, ATTACK)
    spear = action_cost("(1n1)->(1n1)")
    mixed, _ = APTracker().pay(spear, ATTACK)
    mixed, _ = mixed.pay(MOVE, "move")
    assert mixed.choices(longsword, ATTACK) == (Cost(ap=2, returns_in=1),)


def test_rut11_past_the_chain_the_last_cost_repeats() -> None:
    """RU-T11: with (1n1)->(2n1)->(3n1), the fourth attack costs (3n1) again."""
    chain = action_cost("(1n1)->(2n1)->(3n1)")
    assert [str(chain.choices(uses)[0]) for uses in range(5)] == ["1n1", "2n1", "3n1", "3n1", "3n1"]


def test_rua07_the_escalating_count_resets_each_round() -> None:
    """RU-A07: the count runs per round and restarts with the shift."""
    chain = action_cost("(1n1)->(2n1)")
    tracker, _ = APTracker().pay(chain, ATTACK)
    tracker, _ = tracker.start_round()
    assert tracker.choices(chain, ATTACK) == (Cost(ap=1, returns_in=1),)


def test_rua08_the_tracker_grows_for_long_returns() -> None:
    """RU-A08: a (1n5) token sits on cell 5 and comes back five rounds later."""
    tracker, _ = APTracker().pay(action_cost("1n5"), "ritual")
    assert tracker.cells() == [2, 0, 0, 0, 0, 1]
    for _ in range(4):
        tracker, _ = tracker.start_round()
    assert tracker.ready == 2
    tracker, _ = tracker.start_round()
    assert tracker.ready == 3


def test_rum20_temp_ap_is_spent_first_and_gone_next_round() -> None:
    """RU-M20, RU-A09: a temp AP sits on 0, is used up when spent, and vanishes unspent."""
    tracker, _ = APTracker().add_temp()
    assert tracker.spendable == 4
    spent, _ = tracker.pay(MOVE, "move")
    assert spent.temp == 0 and spent.cells() == [3, 0, 0, 0]
    kept, _ = tracker.start_round()
    assert kept.temp == 0 and kept.spendable == 3


@pytest.mark.parametrize(
    ("tokens", "after"),
    [((2, 3, 3), (0, 2, 3)), ((0, 0, 0), (0, 0, 0)), ((1, 2), (0, 1, 2))],
)
def test_rut09_gaining_ap(tokens: tuple[int, ...], after: tuple[int, ...]) -> None:
    """RU-T09, RU-M22, RU-A11: with 3 tokens the furthest moves to 0 (none if all are on 0);
    with fewer, a new one goes on 0."""
    lost = 3 - len(tokens)
    tracker, _ = APTracker(tokens=tokens, lost=lost).gain()
    assert tracker.tokens == after


def test_rum21_losing_ap_takes_the_furthest_token_off() -> None:
    """RU-M21: {0, 1, 2} loses the token on 2; it stays lost until a gain (RU-A10)."""
    tracker, _ = APTracker(tokens=(0, 1, 2)).lose()
    assert tracker.tokens == (0, 1) and tracker.lost == 1
    tracker, _ = tracker.start_round()
    assert tracker.tokens == (0, 0)
    back, _ = APTracker(tokens=(0, 1), lost=1).start_round(Options(lost_ap_returns="next-round"))
    assert back.tokens == (0, 0, 0)


def test_rum23_waiting_forbids_anything_else_and_gains_an_ap_next_round() -> None:
    """RU-M23, RU-A11 (shift first, then gain), RU-A36 (no waiting after spending)."""
    tracker = APTracker(tokens=(1, 2, 3))
    waiting, _ = tracker.wait()
    with pytest.raises(TabletopError, match="waiting"):
        waiting.add_temp()[0].pay(MOVE, "move")
    after, events = waiting.start_round()
    assert after.tokens == (0, 0, 1)
    assert "waited" in events[-1].summary
    acted, _ = APTracker().pay(MOVE, "move")
    with pytest.raises(TabletopError, match="AP was spent"):
        acted.wait()
    assert acted.wait(Options(wait_after_acting=True))[0].waiting


@pytest.mark.parametrize("bad", ["1x1", "(0n1)", "(1n0)", "(2n3 or)", "1n1->", "(1n101)", ""])
def test_malformed_costs_are_refused(bad: str) -> None:
    with pytest.raises(TabletopError):
        action_cost(bad)


def test_costs_print_back_as_notation() -> None:
    for text in ["(1n1)", "(2n3 or 3n1)", "(1n1)->(2n1)->(3n1)", "free"]:
        assert str(action_cost(text)) == text


actions = st.lists(
    st.one_of(
        st.tuples(st.just("spend"), st.integers(1, 3), st.integers(1, 5)),
        st.tuples(st.sampled_from(["gain", "lose", "temp", "round"])),
    ),
    max_size=30,
)


@given(actions)
def test_tokens_never_exceed_the_round_and_spending_never_goes_negative(
    script: list[tuple],
) -> None:
    """Invariants: tokens + lost = 3 while no gain adds past it; every token is on a cell ≥ 0;
    a refused spend leaves the tracker exactly as it was."""
    tracker = APTracker()
    for step in script:
        before = tracker
        try:
            if step[0] == "spend":
                tracker, _ = tracker.spend(Cost(ap=step[1], returns_in=step[2]))
            elif step[0] == "gain":
                tracker, _ = tracker.gain()
            elif step[0] == "lose":
                tracker, _ = tracker.lose()
            elif step[0] == "temp":
                tracker, _ = tracker.add_temp()
            else:
                tracker, _ = tracker.start_round()
        except TabletopError:
            assert tracker == before
        assert len(tracker.tokens) + tracker.lost == 3
        assert all(cell >= 0 for cell in tracker.tokens)
        assert list(tracker.tokens) == sorted(tracker.tokens)
        assert APTracker.model_validate_json(tracker.model_dump_json()) == tracker
