"""Invariants that hold for any input (hypothesis): armour, thresholds, health and omens
bookkeeping through the machine, saved states, contests, corruption, odds."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.dice import FixedDice, SeededDice
from tabletop.systems.rollunder import (
    ChanceRoll,
    Contest,
    DamageDice,
    Hit,
    Item,
    Load,
    Resolution,
    RollDamage,
    Roller,
    RollUnderOptions,
    Side,
    SufferCorruption,
    SufferHit,
    after_armour,
    critical_damage,
    encumbered,
    resolve,
)
from tabletop.systems.rollunder.odds import TAIL, damage_odds
from tests.effort import tried
from tests.systems.rollunder.helpers import hero

scores = st.integers(min_value=1, max_value=20)


@st.composite
def sheets(draw):  # type: ignore[no-untyped-def]
    maximum = draw(st.integers(min_value=1, max_value=30))
    omens = draw(st.integers(min_value=0, max_value=3))
    return hero(
        abilities={"STR": draw(scores), "AGI": draw(scores), "WIT": draw(scores)},
        max_health=maximum,
        health=draw(st.integers(min_value=1, max_value=maximum)),
        omens=omens,
        max_omens=3,
        corruption=draw(st.integers(min_value=0, max_value=15)),
    )


damage_dice = st.builds(
    DamageDice,
    count=st.integers(min_value=1, max_value=3),
    sides=st.integers(min_value=1, max_value=12),
    modifier=st.integers(min_value=-2, max_value=3),
)
hits = st.one_of(
    st.builds(Hit, dice=damage_dice, armour=st.integers(0, 6), direct=st.booleans()),
    st.builds(Hit, amount=st.integers(0, 40), armour=st.integers(0, 6), direct=st.booleans()),
)


@given(st.integers(-5, 60), st.integers(0, 20), st.booleans())
def test_armour_never_takes_more_than_3_nor_leaves_less_than_0(damage, armour, direct):
    dealt = after_armour(damage, armour, direct)
    assert 0 <= dealt <= max(0, damage)
    assert max(0, damage) - dealt <= (0 if direct else 3)


@given(st.integers(0, 60), st.integers(0, 40), st.integers(0, 40))
def test_cr_a06_the_thresholds_nest(damage, health, extra):
    critical = critical_damage(damage, health, health + extra)
    assert not critical.injury or critical.incapacitated
    assert not critical.permanent or critical.injury


@settings(max_examples=tried(40))
@given(
    sheets(),
    st.sampled_from(["1d6", "d6", "2d6+1", "1D8 - 1", "3d6kh2", "2d4*2"]),
    st.integers(0, 2**32),
    st.lists(st.integers(0, 5), max_size=6),
)
def test_a_chance_roll_in_any_notation_resumes_after_every_choice(sheet, expression, seed, picks):
    """CR-M19a: whatever is chosen, every choice offered is accepted, and the resolution
    round-trips through JSON and can still be read at each step and at the end."""
    dice = SeededDice(seed)
    resolution = Resolution.begin(ChanceRoll(character=sheet, expression=expression), dice)
    for pick in [*picks, *[0] * 10]:
        decision = resolution.decision
        if decision is None:
            break
        resolution = resolution.choose(decision.choices[pick % len(decision.choices)], dice)
        again = Resolution.model_validate_json(resolution.model_dump_json())
        assert again == resolution and again.decision == resolution.decision
    assert resolution.outcome.character.omens <= sheet.omens


@settings(max_examples=tried(60))
@given(sheets(), hits, st.integers(0, 2**32), st.lists(st.integers(0, 5), max_size=12))
def test_a_hit_keeps_the_sheet_consistent_and_the_saved_state_resumes(sheet, hit, seed, picks):
    """Whatever is chosen: health stays within 0 and the maximum, omens are spent one event
    at a time, the dealt damage is the rolled damage after armour, and a resolution saved at
    any decision resumes to the same end."""
    dice = SeededDice(seed)
    resolution = Resolution.begin(SufferHit(character=sheet, hit=hit), dice)
    for pick in picks:
        decision = resolution.decision
        if decision is None:
            break
        again = Resolution.model_validate_json(resolution.model_dump_json())
        assert again == resolution and again.decision == decision
        resolution = resolution.choose(decision.choices[pick % len(decision.choices)], dice)
    while (decision := resolution.decision) is not None:
        resolution = resolution.choose(decision.choices[0], dice)
    outcome = resolution.outcome
    after = outcome.character
    assert 0 <= after.health <= after.max_health
    spent = sum(event.kind == "omen_spent" for event in resolution.events)
    assert after.omens == sheet.omens - spent
    assert outcome.dealt == after_armour(outcome.rolled, hit.armour, hit.direct)
    moved_by_str = any(
        event.values.get("ability") == "STR" or event.kind == "saved_from_death"
        for event in resolution.events
    )
    if not moved_by_str:
        assert after.health == max(0, sheet.health - outcome.dealt)


@settings(max_examples=tried(60))
@given(st.integers(1, 12), st.integers(0, 6), st.integers(1, 12))
def test_cr_m13_a_chain_of_k_maximums_then_f_totals_n_plus_k_minus_1_times_n_minus_1(n, k, f):
    """Any chain: n, then k − 1 more maximums (n − 1 each), then f (f − 1), or f alone."""
    last = min(f, max(1, n - 1))
    faces = [n] * k + ([last] if n > 1 else [])
    if n == 1:
        faces = [1]
    done = resolve(RollDamage(character=hero(), dice=DamageDice(sides=n)), FixedDice(faces))
    if n == 1:
        expected = 1
    elif k == 0:
        expected = last
    else:
        expected = n + (k - 1) * (n - 1) + (last - 1)
    assert done.outcome.damage == expected


@settings(max_examples=tried(50))
@given(
    st.lists(st.lists(scores, min_size=1, max_size=3), min_size=2, max_size=4),
    st.integers(1, 5),
    st.integers(0, 2**32),
)
def test_a_contest_ranks_every_side_exactly_once_best_first(teams, rolls, seed):
    sides = tuple(
        Side(
            name=f"S{i}", members=tuple(Roller(name=f"S{i}m{j}", score=s) for j, s in enumerate(t))
        )
        for i, t in enumerate(teams)
    )
    outcome = resolve(Contest(ability="AGI", sides=sides, rolls=rolls), SeededDice(seed)).outcome
    placed = [name for place in outcome.places for name in place.sides]
    assert sorted(placed) == sorted(side.name for side in sides)
    assert [p.successes for p in outcome.places] == sorted(
        (p.successes for p in outcome.places), reverse=True
    )
    for side in sides:
        assert 0 <= outcome.successes[side.name] <= rolls * len(side.members)


@settings(max_examples=tried(60))
@given(sheets(), st.integers(1, 8), st.integers(1, 12), st.integers(1, 8))
def test_cr_m18_corruption_heals_exactly_what_it_deals(sheet, gain, face, injury_face):
    sheet = sheet.with_changes(max_health=40, health=40)
    done = resolve(SufferCorruption(character=sheet, gain=gain), FixedDice([face, injury_face]))
    total = sheet.corruption + gain
    struck = face <= total
    assert done.outcome.triggered is struck
    assert done.outcome.character.corruption == total - (face if struck else 0)


@given(st.integers(0, 40), st.lists(st.integers(0, 6), max_size=6), st.integers(0, 6))
def test_encumbrance_never_lifts_by_carrying_more(limit, bulks, extra):
    clothes = Item(name="clothes", bulk=0, kind="clothes")
    stored = tuple(Item(name=f"i{n}", bulk=min(b, 4)) for n, b in enumerate(bulks))
    total = sum(item.bulk for item in stored)
    if total + min(extra, 4) > limit:
        return
    options = RollUnderOptions()
    light = Load(carry_limit=limit, worn=(clothes,), stored=stored)
    heavier = Load(
        carry_limit=limit, worn=(clothes,), stored=(*stored, Item(name="x", bulk=min(extra, 4)))
    )
    assert encumbered(heavier, options) >= encumbered(light, options)


@settings(max_examples=tried(40))
@given(damage_dice, st.integers(0, 6), st.booleans())
def test_damage_odds_sum_to_1_and_stop_under_the_tail(dice, armour, direct):
    odds = damage_odds(dice, armour, direct)
    outcomes = odds.outcomes()
    assert sum(p for _, p in outcomes) == 1
    last, lumped = outcomes[-1]
    assert lumped - odds.dealt.probability(last) < TAIL
    assert all(p > 0 for _, p in outcomes)
    assert [v for v, _ in outcomes] == sorted(v for v, _ in outcomes)
    assert odds.mean >= 0 and Fraction(0) <= odds.critical(10, 14).incapacitated <= 1
