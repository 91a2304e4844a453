"""Rolling with fixed faces: every modifier does exactly what the notation says."""

from __future__ import annotations

import json

import pytest

from tabletop.dice import FixedDice, SeededDice, SystemDice, dice_source, limits, roll
from tabletop.errors import LimitError, RollError


def line(expression: str, faces: list[int], **names: int) -> str:
    source = FixedDice(faces)
    text = str(roll(expression, source, names=names))
    assert source.remaining == [], "every fixed face should have been used"
    return text


@pytest.mark.parametrize(
    ("expression", "faces", "expected"),
    [
        ("3d6", [1, 2, 3], "3d6 → [1, 2, 3] = 6"),
        ("1d20 + 5", [13], "1d20 + 5 → [13] + 5 = 18"),
        ("4d6dl1", [6, 5, 4, 2], "4d6dl1 → [6, 5, 4, ~~2~~] = 15"),
        ("4d6kh3", [2, 6, 5, 4], "4d6kh3 → [~~2~~, 6, 5, 4] = 15"),
        ("4d6kl1", [2, 6, 5, 4], "4d6kl1 → [2, ~~6~~, ~~5~~, ~~4~~] = 2"),
        ("4d6dh2", [2, 6, 5, 4], "4d6dh2 → [2, ~~6~~, ~~5~~, 4] = 6"),
        ("3d6kh1", [5, 5, 2], "3d6kh1 → [5, ~~5~~, ~~2~~] = 5"),
        ("d20adv", [7, 15], "2d20kh1 → [~~7~~, 15] = 15"),
        ("d20dis", [7, 15], "2d20kl1 → [7, ~~15~~] = 7"),
        ("d20! + 1", [20, 20, 3], "1d20! + 1 → [20!+20!+3] + 1 = 44"),
        ("2d6!", [6, 2, 3], "2d6! → [6!+2, 3] = 11"),
        ("d6!>=5", [5, 6, 1], "1d6!>=5 → [5!+6!+1] = 12"),
        ("d6!:2", [6, 6, 6], "1d6!:2 → [6!+6!+6] = 18"),
        ("d6!p", [6, 6, 1], "1d6!p → [6!+(6-1)!+(1-1)] = 11"),
        ("d8!p", [8, 3], "1d8!p → [8!+(3-1)] = 10"),
        ("d6r1", [1, 1, 4], "1d6r1 → [~~1~~ ~~1~~ 4] = 4"),
        ("d6ro1", [1, 1], "1d6ro1 → [~~1~~ 1] = 1"),
        ("2d6r<3", [2, 5, 6], "2d6r<3 → [~~2~~ 5, 6] = 11"),
        (
            "8d6>=4",
            [6, 3, 4, 1, 5, 2, 2, 6],
            "8d6>=4 → [**6**, 3, **4**, 1, **5**, 2, 2, **6**] = 4",
        ),
        ("3d6kh2>=5", [5, 6, 5], "3d6kh2>=5 → [**5**, **6**, ~~5~~] = 2"),
        ("Ud8", [5], "Ud8 → [5, stays Ud8] = 5"),
        ("Ud8", [2], "Ud8 → [2, down to Ud6] = 2"),
        ("Ud4", [1], "Ud4 → [1, used up] = 1"),
        ("2d!", [3, 1], "2d! → [3, **1**] (happens) = 1"),
        ("2d!", [3, 2], "2d! → [3, 2] (no risk) = 0"),
        ("d6 * 2 - 1", [4], "1d6 * 2 - 1 → [4] * 2 - 1 = 7"),
        ("-d6 / 4", [3], "-1d6 / 4 → -[3] / 4 = -1"),
        ("(d6 + 1) * 2", [3], "(1d6 + 1) * 2 → ([3] + 1) * 2 = 8"),
    ],
)
def test_fixed_faces_give_exact_outcomes(expression, faces, expected):
    assert line(expression, faces) == expected


def test_names_are_bound_when_rolling():
    assert line("2d6+STR", [3, 4], STR=2) == "2d6 + STR → [3, 4] + STR(2) = 9"


def test_an_unbound_name_is_a_roll_error():
    with pytest.raises(RollError, match="'AGI'"):
        roll("d6+AGI", FixedDice([1]))


def test_division_rounds_down_toward_minus_infinity():
    assert roll("-7 / 2", FixedDice([])).total == -4
    assert roll("7 / 2", FixedDice([])).total == 3


def test_division_by_zero_is_a_roll_error():
    with pytest.raises(RollError, match="division by zero"):
        roll("6 / (d2 - 1)", FixedDice([1]))


def test_a_roll_that_could_throw_too_many_dice_is_refused_before_rolling():
    with pytest.raises(LimitError, match="could throw 10,100 dice"):
        roll("100d2!>=1:100", SeededDice(1))


def test_an_extraordinarily_unlucky_re_roll_stops_at_the_dice_limit():
    # d100 re-rolling anything under 100 expects 99 re-rolls; 10,000 in a row is the limit.
    with pytest.raises(LimitError, match="more than 10,000 dice"):
        roll("d100r<100", FixedDice([1] * 10_001))


def test_the_default_explosion_depth_bounds_an_always_exploding_die():
    rolled = roll("d1!", SeededDice(1))
    assert rolled.total == 1 + limits.DEFAULT_EXPLOSION_DEPTH


def test_fixed_dice_refuse_impossible_faces_and_running_out():
    with pytest.raises(RollError, match="cannot appear on a d6"):
        roll("d6", FixedDice([7]))
    with pytest.raises(RollError, match="ran out"):
        roll("2d6", FixedDice([3]))


def test_the_same_seed_gives_the_same_roll():
    first = roll("10d6!kh5 + d20adv", seed=99).to_json()
    second = roll("10d6!kh5 + d20adv", seed=99).to_json()
    assert json.dumps(first) == json.dumps(second)


def test_dice_source_picks_seeded_or_system():
    assert isinstance(dice_source(3), SeededDice)
    assert isinstance(dice_source(), SystemDice)
    faces = {SystemDice().roll(4) for _ in range(400)}
    assert faces == {1, 2, 3, 4}


def test_the_json_record_holds_every_die_and_its_fate():
    data = roll("d6r1!kh1 + 2d6", FixedDice([1, 6, 2, 3, 4])).to_json()
    assert data["expression"] == "1d6r1!kh1 + 2d6"
    assert data["total"] == 15
    pool = data["dice"]["left"]
    assert pool["dice"] == [
        {"sides": 6, "faces": [6, 2], "value": 8, "kept": True, "rerolled": [1], "exploded": True}
    ]
    assert data["dice"]["right"]["dice"][1] == {"sides": 6, "faces": [4], "value": 4, "kept": True}


def test_usage_and_risk_records_say_what_happened():
    usage = roll("Ud6", FixedDice([2])).result.to_json()
    assert usage == {
        "type": "usage",
        "notation": "Ud6",
        "value": 2,
        "steps_down": True,
        "next_size": 4,
    }
    risk = roll("3d!", FixedDice([4, 1, 1])).result.to_json()
    assert risk["triggered"] is True and risk["faces"] == [4, 1, 1]


def test_pools_lists_every_dice_term_left_to_right():
    rolled = roll("d4 + 2 * (d6 - Ud8)", FixedDice([1, 2, 3]))
    assert [pool.value for pool in rolled.pools()] == [1, 2, 3]


def test_seeded_draws_are_those_of_the_random_module():
    """`draw_below` is `randrange` and `choice` without their checks: the same stream."""
    import random

    from tabletop.dice.draw import draw_below

    ours, theirs = random.Random(5), random.Random(5)
    sizes = [1, 2, 3, 5, 6, 7, 8, 9, 13, 20, 78, 100, 1000] * 300
    assert [draw_below(ours, n) for n in sizes] == [theirs.randrange(n) for n in sizes]
    assert [draw_below(ours, n) for n in sizes] == [theirs.choice(range(n)) for n in sizes]
