"""Exact odds (CR-P01…P07), checked against closed forms, against brute-force walks of the
rules machine down every sequence of faces, against icepool, and against sampling."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from functools import cache

import icepool
import numpy as np
import pytest

from tabletop.dice import SeededDice
from tabletop.errors import LimitError
from tabletop.systems.rollunder import (
    Contest,
    DamageDice,
    Hit,
    Roller,
    RollUnderOptions,
    ScoreRoll,
    Side,
    SufferCorruption,
    SufferHit,
    after_armour,
    avoid_instant_death,
    critical_damage,
    reroll_failures,
    resolve,
)
from tabletop.systems.rollunder.odds import (
    TAIL,
    collective_chance,
    contest_odds,
    corruption_chain,
    corruption_odds,
    corruption_stationary,
    damage_odds,
    encumbered_chance,
    encumbered_with_omens,
    injury_odds,
    long_run_damage_per_gain,
    mean_damage_dice,
    odds_depth,
    pass_chance,
    with_omens,
)
from tests.systems.rollunder.helpers import d20_classes, hero, walk

DEFAULTS = RollUnderOptions()


# -- ability rolls ----------------------------------------------------------------------------


@pytest.mark.parametrize("score", range(-1, 26))
def test_cr_p01_pass_chance_is_the_clamped_score_over_20(score):
    assert pass_chance(score) == Fraction(min(max(score, 0), 20), 20)


def test_cr_p01_naturals_collective_and_encumbered():
    naturals = RollUnderOptions(natural_results="one_passes_twenty_fails")
    assert pass_chance(25, naturals) == Fraction(19, 20)
    assert pass_chance(0, naturals) == Fraction(1, 20)
    assert collective_chance([5, 14, 9]) == Fraction(14, 20)
    assert encumbered_chance(12, 10) == Fraction(12, 20) * Fraction(10, 20)


def test_cr_p07_an_omen_turns_p_into_1_minus_the_square_of_1_minus_p():
    assert with_omens(Fraction(12, 20), 1) == 1 - Fraction(8, 20) ** 2
    assert with_omens(Fraction(12, 20), 3, RollUnderOptions(omen_repeat_rerolls=False)) == (
        1 - Fraction(8, 20) ** 2
    )


def _walked_pass(roller: Roller, options: RollUnderOptions = DEFAULTS) -> Fraction:
    policy = reroll_failures((roller,), options)

    def once(dice):  # type: ignore[no-untyped-def]
        return resolve(ScoreRoll(rollers=(roller,)), dice, options, policy).outcome.passed

    scores = [roller.score] + ([roller.strength] if roller.strength is not None else [])
    found, unexplored = walk(once, classes=d20_classes(*scores))
    assert unexplored == 0
    return found.get(True, Fraction(0))


@pytest.mark.parametrize(("score", "omens"), [(12, 0), (12, 1), (3, 2), (20, 1)])
def test_cr_p07_the_machine_rerolling_failures_matches_the_formula(score, omens):
    expected = with_omens(pass_chance(score), omens)
    assert _walked_pass(Roller(name="r", score=score, omens=omens)) == expected


@pytest.mark.parametrize(("omens", "repeat"), [(0, True), (1, True), (2, True), (2, False)])
def test_cr_p01_an_encumbered_roll_through_the_machine_matches_the_formula(omens, repeat):
    options = RollUnderOptions(omen_repeat_rerolls=repeat)
    roller = Roller(name="r", score=14, strength=9, omens=omens)
    assert _walked_pass(roller, options) == encumbered_with_omens(14, 9, omens, options)


# -- contests -------------------------------------------------------------------------------


def _binomial(p: Fraction, n: int) -> dict[int, Fraction]:
    return {k: math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)}


def test_cr_p02_two_contestants_against_an_independent_formula():
    """P(A outranks B) = P(more passes) + P(tie) × pA(1−pB) / (pA(1−pB) + pB(1−pA))."""
    for a, b in [(10, 12), (5, 15), (19, 1), (8, 8)]:
        pa, pb = Fraction(a, 20), Fraction(b, 20)
        da, db = _binomial(pa, 4), _binomial(pb, 4)
        more = sum(da[i] * db[j] for i in da for j in db if i > j)
        tie = sum(da[i] * db[i] for i in da)
        wins = pa * (1 - pb) / (pa * (1 - pb) + pb * (1 - pa))
        odds = contest_odds(
            [Side.alone(Roller(name="A", score=a)), Side.alone(Roller(name="B", score=b))]
        )
        assert odds.first["A"] == more + tie * wins
        assert odds.first["A"] + odds.first["B"] == 1 and odds.shared_first == 0


def _rounds_oracle(chances: dict[str, list[float]], rolls: int, per_round: int) -> dict[str, float]:
    """P(first) by enumerating every pass/fail of every roll, and tie-break rounds up to a
    depth where the rest is negligible: an independent (float) algorithm."""
    names = list(chances)

    def outcomes(group: list[str], times: int):  # type: ignore[no-untyped-def]
        slots = [(name, p) for name in group for p in chances[name] for _ in range(times)]
        for bits in itertools.product((0, 1), repeat=len(slots)):
            prob = 1.0
            score = dict.fromkeys(group, 0)
            for bit, (name, p) in zip(bits, slots, strict=True):
                prob *= p if bit else 1 - p
                score[name] += bit
            yield prob, score

    @cache
    def first(group: tuple[str, ...], depth: int) -> dict[str, float]:
        if len(group) == 1:
            return {group[0]: 1.0}
        result = dict.fromkeys(group, 0.0)
        if depth == 0:
            return result
        for prob, score in outcomes(list(group), per_round):
            top = max(score.values())
            tied = tuple(name for name in group if score[name] == top)
            for name, share in first(tied, depth - 1).items():
                result[name] += prob * share
        return result

    total = dict.fromkeys(names, 0.0)
    for prob, score in outcomes(names, rolls):
        top = max(score.values())
        tied = tuple(name for name in names if score[name] == top)
        for name, share in first(tied, 60).items():
            total[name] += prob * share
    return total


@pytest.mark.parametrize("tie_break", ["one_roll_each", "full_set"])
def test_cr_p02_teams_and_three_sides_against_an_enumeration_of_every_roll(tie_break):
    options = RollUnderOptions(contest_tie_break=tie_break)
    sides = [
        Side(name="X", members=(Roller(name="x1", score=8), Roller(name="x2", score=13))),
        Side.alone(Roller(name="Y", score=11)),
        Side.alone(Roller(name="Z", score=14, strength=12)),
    ]
    odds = contest_odds(sides, rolls=2, options=options)
    chances = {"X": [0.4, 0.65], "Y": [0.55], "Z": [0.7 * 0.6]}
    oracle = _rounds_oracle(chances, 2, 1 if tie_break == "one_roll_each" else 2)
    for name, expected in oracle.items():
        assert float(odds.first[name]) == pytest.approx(expected, abs=1e-12)
    assert sum(odds.first.values()) == 1


def test_cr_p02_the_team_successes_are_the_sum_of_binomials():
    side = Side(name="X", members=(Roller(name="a", score=8), Roller(name="b", score=13)))
    odds = contest_odds([side, Side.alone(Roller(name="Y", score=1))], rolls=4)
    pa, pb = _binomial(Fraction(8, 20), 4), _binomial(Fraction(13, 20), 4)
    for total in range(9):
        expected = sum(pa[i] * pb[total - i] for i in range(5) if 0 <= total - i <= 4)
        assert odds.successes["X"].get(total, 0) == expected


def test_cr_a16_a_tie_no_roll_can_break_is_shared():
    odds = contest_odds(
        [Side.alone(Roller(name="A", score=20)), Side.alone(Roller(name="B", score=25))]
    )
    assert odds.first == {"A": 0, "B": 0} and odds.shared_first == 1


def test_exact_contest_odds_refuse_work_past_their_bound():
    big = [Side(name=f"S{n}", members=(Roller(name=f"m{n}", score=10),)) for n in range(8)]
    with pytest.raises(LimitError, match="steps, over the limit"):
        contest_odds(big, 100, RollUnderOptions(contest_tie_break="full_set"))
    with pytest.raises(LimitError, match="200 rolls a side"):
        contest_odds(big[:2], 201)
    with pytest.raises(LimitError, match="2 to 8 sides"):
        contest_odds(big[:1])


def test_cr_p02_contests_played_through_the_machine_match_the_exact_odds():
    sides = (Side.alone(Roller(name="A", score=9)), Side.alone(Roller(name="B", score=12)))
    contest = Contest(ability="AGI", sides=sides)
    dice = SeededDice(2026)
    games = 600
    wins = sum(resolve(contest, dice).outcome.winner == "A" for _ in range(games))
    p = float(contest_odds(sides).first["A"])
    assert abs(wins / games - p) < 4.5 * math.sqrt(p * (1 - p) / games)


# -- damage ---------------------------------------------------------------------------------


def _closed_form(n: int, value: int) -> Fraction:
    """P(one exploding dn totals `value`): 1/n below n; n^-(m+1) in the m-th block after."""
    if value < n:
        return Fraction(1, n) if value >= 1 else Fraction(0)
    block = (value - n) // (n - 1) + 1
    return Fraction(1, n ** (block + 1))


@pytest.mark.parametrize("n", [2, 3, 4, 6, 8, 10, 12, 20])
def test_cr_p03_a_single_die_matches_the_closed_form_exactly(n):
    odds = damage_odds(DamageDice(sides=n))
    for value in range(0, odds.exact_below):
        assert odds.rolled.probability(value) == _closed_form(n, value), value
    assert odds.rolled.probability(n) == Fraction(1, n * n)
    assert 1 - odds.rolled.at_most(n) == Fraction(n - 1, n * n)
    assert odds.mean == Fraction(n + 2, 2) == mean_damage_dice(DamageDice(sides=n))


@pytest.mark.parametrize(("n", "mean"), [(4, 3), (6, 4), (8, 5), (10, 6), (12, 7)])
def test_cr_p03_the_listed_means(n, mean):
    assert damage_odds(DamageDice(sides=n)).mean == mean


def test_cr_t05_a_d6_total_of_6_comes_only_from_6_then_1():
    assert damage_odds(DamageDice(sides=6)).rolled.probability(6) == Fraction(1, 36)


@pytest.mark.parametrize(("n", "depth"), [(2, 49), (4, 24), (6, 19), (8, 16), (20, 11), (100, 7)])
def test_the_depth_leaves_under_1e_15_in_chains_cut_short(n, depth):
    assert odds_depth(DamageDice(sides=n)) == depth
    assert Fraction(1, n ** (depth + 1)) < TAIL <= Fraction(1, n**depth)


@pytest.mark.parametrize("text", ["d2", "d6", "d12", "2d6+1", "3d4"])
@pytest.mark.parametrize("armour", [0, 2, 7])
def test_the_outcome_list_stops_under_1e_15_and_lumps_the_tail_exactly(text, armour):
    odds = damage_odds(DamageDice.parse(text), armour)
    outcomes = odds.outcomes()
    assert sum(p for _, p in outcomes) == 1
    last, lumped = outcomes[-1]
    assert last < odds.exact_below
    assert lumped == 1 - odds.dealt.at_most(last - 1)
    assert lumped - odds.dealt.probability(last) < TAIL
    remaining_before = lumped
    assert remaining_before >= TAIL or len(outcomes) == 1
    for value, p in outcomes[:-1]:
        assert p == odds.dealt.probability(value)


@pytest.mark.parametrize(("n", "count"), [(4, 1), (6, 1), (8, 1), (6, 2), (3, 3)])
def test_cr_p03_damage_odds_agree_with_icepool(n, count):
    dice = DamageDice(count=count, sides=n)
    odds = damage_odds(dice)
    assert odds.depth >= odds_depth(dice)
    one = (icepool.d(n) - 1).explode([n - 1], depth=odds.depth) + 1
    theirs = count @ one
    denominator = theirs.denominator()
    for value in range(count, odds.exact_below):
        assert odds.rolled.probability(value) == Fraction(theirs.quantity(value), denominator)


def _walk_hit(hit: Hit, smallest: Fraction, options: RollUnderOptions = DEFAULTS, **sheet):  # type: ignore[no-untyped-def]
    def once(dice):  # type: ignore[no-untyped-def]
        outcome = resolve(SufferHit(character=hero(**sheet), hit=hit), dice, options).outcome
        critical = outcome.critical
        return outcome.dealt, (critical.incapacitated, critical.injury, critical.permanent)

    return walk(once, smallest)


@pytest.mark.parametrize(
    ("text", "armour", "direct", "options"),
    [
        ("d4", 1, False, DEFAULTS),
        ("d6+1", 2, False, DEFAULTS),
        ("d3", 3, True, DEFAULTS),
        ("2d2", 0, False, RollUnderOptions(damage_pool="whole_pool")),
    ],
)
def test_cr_p04_damage_after_armour_against_the_machine_walked_face_by_face(
    text, armour, direct, options
):
    dice = DamageDice.parse(text)
    hit = Hit(dice=dice, armour=armour, direct=direct)
    found, unexplored = _walk_hit(hit, Fraction(1, 5000), options, max_health=500, health=500)
    odds = damage_odds(dice, armour, direct, options)
    dealt: dict[int, Fraction] = {}
    for (value, _), p in found.items():
        dealt[value] = dealt.get(value, Fraction(0)) + p
    assert unexplored < Fraction(1, 100)
    for value in range(0, 40):
        walked = dealt.get(value, Fraction(0))
        assert walked <= odds.dealt.probability(value) <= walked + unexplored


def test_cr_p04_critical_thresholds_against_the_machine_walked_face_by_face():
    """Health 10 of 14, a d4 against armour 1: every path, injury rolls included."""
    found, unexplored = _walk_hit(Hit(dice=DamageDice(sides=4), armour=1), Fraction(1, 20000))
    critical = damage_odds(DamageDice(sides=4), 1, exact_up_to=14).critical(10, 14)
    for index, expected in enumerate((critical.incapacitated, critical.injury, critical.permanent)):
        walked = sum((p for (_, flags), p in found.items() if flags[index]), Fraction(0))
        assert walked <= expected <= walked + unexplored
    assert critical.incapacitated == Fraction(1, 16)  # dealt ≥ 6: the d4 totals 7 or more


def test_cr_p04_critical_odds_for_the_notes_example_and_the_measure_options():
    odds = damage_odds(DamageDice(sides=8), exact_up_to=14)
    critical = odds.critical(10, 14)
    assert critical.incapacitated == Fraction(3, 8)  # 6, 7 or an explosion
    assert critical.injury == Fraction(1, 8)
    assert critical.permanent == Fraction(1, 64)  # 15 or more: 8, 8, …
    lost = odds.critical(4, 14, RollUnderOptions(critical_damage_measure="health_lost"))
    assert lost.injury == 0 and lost.incapacitated == Fraction(6, 8)
    armoured = damage_odds(DamageDice(sides=8), 3, exact_up_to=14)
    before = armoured.critical(10, 14, RollUnderOptions(critical_damage_measure="before_armour"))
    assert before == critical
    assert armoured.critical(10, 14).injury == 1 - armoured.dealt.at_most(7)


def test_cr_p03_sampled_damage_after_armour_matches_the_exact_odds():
    dice, source = DamageDice(sides=6), SeededDice(7)
    samples = 20_000
    dealt = np.array(
        [after_armour(dice.total(dice.roll(DEFAULTS, source).total), 1) for _ in range(samples)]
    )
    odds = damage_odds(dice, 1)
    assert abs(dealt.mean() - float(odds.mean)) < 4.5 * odds.dealt.stdev / math.sqrt(samples)
    for threshold in (1, 5, 6, 10, 15):
        p = float(1 - odds.dealt.at_most(threshold - 1))
        observed = float((dealt >= threshold).mean())
        assert abs(observed - p) < 4.5 * math.sqrt(p * (1 - p) / samples) + 1e-9
    criticals = np.array([critical_damage(int(d), 10, 14).injury for d in dealt])
    p_injury = float(odds.critical(10, 14).injury)
    assert abs(criticals.mean() - p_injury) < 4.5 * math.sqrt(p_injury * (1 - p_injury) / samples)


def test_the_exact_mean_includes_what_the_cut_chains_would_add():
    for text, armour in [("d2", 0), ("d6", 2), ("2d4-1", 1), ("d1+1", 3)]:
        odds = damage_odds(DamageDice.parse(text), armour)
        assert float(odds.dealt.mean) == pytest.approx(float(odds.mean), abs=1e-12)
    assert damage_odds(DamageDice.parse("d2"), 2).mean == Fraction(1, 2)


# -- injuries ---------------------------------------------------------------------------------


def test_cr_p05_the_injury_table_odds_and_an_omen_against_death():
    assert injury_odds() == {
        "Item destroyed": Fraction(1, 8),
        "Disabled arm": Fraction(2, 8),
        "Disabled leg": Fraction(2, 8),
        "Disabled eye": Fraction(2, 8),
        "Instant death": Fraction(1, 8),
    }
    with_omen = injury_odds(1)
    assert with_omen["Instant death"] == Fraction(1, 64)
    assert with_omen["Disabled arm"] == Fraction(2, 8) * Fraction(9, 8)
    assert sum(with_omen.values()) == 1


def test_cr_a10_injury_odds_allow_one_reroll_when_the_option_says_once():
    """§ Spending omens, CR-A10 `omen_repeat_rerolls=False`: with omens to spare, the injury
    roll is still re-rolled only once, so death stays at 1/64 (it was (1/8)^4 with 3 omens)."""
    once = RollUnderOptions(omen_repeat_rerolls=False)
    odds = injury_odds(3, once)
    assert odds == injury_odds(1)
    assert odds["Instant death"] == Fraction(1, 64)

    def dies(dice):  # type: ignore[no-untyped-def]
        sheet = hero(health=14, omens=3, max_omens=3)
        intent = SufferHit(character=sheet, hit=Hit(amount=8))
        return resolve(intent, dice, once, avoid_instant_death).outcome.character.alive

    found, unexplored = walk(dies)
    assert unexplored == 0 and found[False] == odds["Instant death"]


def test_cr_p05_an_omen_against_death_through_the_machine():
    def once(dice):  # type: ignore[no-untyped-def]
        sheet = hero(health=14, omens=1, max_omens=1)
        done = resolve(
            SufferHit(character=sheet, hit=Hit(amount=8)), dice, None, avoid_instant_death
        )
        return done.outcome.character.alive

    found, unexplored = walk(once)
    assert unexplored == 0 and found[False] == Fraction(1, 64)


# -- corruption -------------------------------------------------------------------------------


@pytest.mark.parametrize("before", [0, 1, 5, 11, 12, 30])
def test_cr_p06_trigger_chance_and_mean_damage_for_a_total(before):
    """P(trigger | C) = min(C, 12)/12 and E[damage | C] = Σ r/12 for r ≤ min(C, 12)."""
    odds = corruption_odds(before, 1)
    against = before + 1
    assert odds.against == against
    assert odds.trigger == Fraction(min(against, 12), 12)
    assert odds.mean_damage == Fraction(sum(range(1, min(against, 12) + 1)), 12)


def test_cr_p06_one_roll_through_the_machine_matches():
    options = RollUnderOptions(corruption_roll_against="old_total")

    def once(dice):  # type: ignore[no-untyped-def]
        sheet = hero(corruption=6, health=200, max_health=200)
        outcome = resolve(SufferCorruption(character=sheet, gain=2), dice, options).outcome
        return 200 - outcome.character.health

    found, unexplored = walk(once)
    odds = corruption_odds(6, 2, options=options)
    assert unexplored == 0 and found == {k: v for k, v in odds.damage.items()}


def test_cr_p06_critical_odds_of_a_corruption_roll():
    odds = corruption_odds(4, 1, health=5, max_health=10)
    assert odds.critical is not None
    assert odds.critical.incapacitated == Fraction(3, 12)  # rolls 3, 4, 5
    assert odds.critical.injury == 0


def test_cr_a15_the_mutation_odds_leave_out_a_character_the_injury_kills():
    """§ Corruption, CR-A15: critical corruption damage brings a mutation unless the injury
    roll kills the character. Corruption 11 + 1 at health 10 of 10: a roll of 6 or more is
    critical and rolls an injury, so P(mutation) = 7/12 · 7/8 (it was given as 7/12)."""
    odds = corruption_odds(11, 1, health=10, max_health=10)
    assert odds.critical is not None and odds.critical.incapacitated == Fraction(7, 12)
    assert odds.mutation == Fraction(7, 12) * Fraction(7, 8)

    def mutates(dice):  # type: ignore[no-untyped-def]
        sheet = hero(corruption=11, health=10, max_health=10)
        outcome = resolve(SufferCorruption(character=sheet, gain=1), dice).outcome
        return outcome.character.mutations_to_choose == 1

    found, unexplored = walk(mutates)
    assert unexplored == 0 and found[True] == odds.mutation
    assert corruption_odds(4, 1).mutation is None


def test_cr_p06_the_chain_of_gains_against_the_machine():
    def once(dice):  # type: ignore[no-untyped-def]
        sheet = hero(corruption=3, health=500, max_health=500)
        for _ in range(2):
            sheet = resolve(SufferCorruption(character=sheet, gain=4), dice).outcome.character
        return sheet.corruption, 500 - sheet.health

    found, unexplored = walk(once)
    chain = corruption_chain(4, 2, start=3)
    assert unexplored == 0
    totals: dict[int, Fraction] = {}
    for (total, _), p in found.items():
        totals[total] = totals.get(total, Fraction(0)) + p
    assert totals == {value: p for value, p in chain.totals}
    assert chain.mean_damage == sum(p * damage for (_, damage), p in found.items())


@pytest.mark.parametrize("gain", [1, 2, 5])
def test_cr_p06_every_point_healed_is_a_point_of_damage(gain):
    chain = corruption_chain(gain, 60, start=4)
    assert chain.mean_damage == 4 + 60 * gain - chain.totals.mean


@pytest.mark.parametrize("gain", [1, 2, 3, 4, 5, 6])
def test_cr_p06_the_long_run_damage_per_gain_is_the_gain_up_to_6(gain):
    """In the long-run pattern, the mean damage of a gain is exactly the gain."""
    shares = corruption_stationary(gain)
    assert shares.sum() == pytest.approx(1.0)
    per_gain = sum(
        share * float(corruption_odds(total, gain).mean_damage)
        for total, share in enumerate(shares)
    )
    assert per_gain == pytest.approx(float(long_run_damage_per_gain(gain)), abs=1e-9)


def test_cr_p06_the_exact_chain_settles_into_the_long_run_pattern():
    shares = corruption_stationary(2)
    late = corruption_chain(2, 100)
    for total, share in enumerate(shares[:30]):
        assert float(late.totals.probability(total)) == pytest.approx(share, abs=1e-9)


def test_cr_p06_larger_gains_outrun_the_die():
    assert long_run_damage_per_gain(9) == Fraction(13, 2)
    chain = corruption_chain(9, 120)
    assert float(chain.mean_damage) / 120 == pytest.approx(6.5, abs=0.2)
