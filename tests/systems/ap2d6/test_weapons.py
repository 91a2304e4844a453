"""Weapons (§ Weapon Rules, § Being Below a Weapon's Requirements, § Two-handing…,
§ Throwing a spear or a dagger…, § Weapon Switching). The weapons are test fixtures."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletop.dice import FixedDice
from tabletop.errors import TabletopError
from tabletop.systems.ap2d6 import Options, Weapon, improvised_throw, resolve, standard_sheet, wield
from tabletop.systems.ap2d6.weapons import load_weapons, parse_damage, reduce_dice


def test_damage_expressions_split_into_dice_scores_and_numbers() -> None:
    """RU-M28: "1d6+STR" is a d6 plus STR."""
    damage = parse_damage("1d8+1d4+STR+1")
    assert (damage.dice, damage.scaling, damage.flat) == ((8, 4), ("STR",), 1)
    assert str(parse_damage("2d6-1")) == "2d6-1"
    for bad in ["1d7", "STR", "1d6*2", "-1d6", "4d6kh3", "1d6+"]:
        with pytest.raises(TabletopError):
            parse_damage(bad)


def test_an_attack_hits_over_to_hit_and_adds_scaling(weapons: dict[str, Weapon]) -> None:
    """RU-M28: DEX to hit, 1d8+STR (S) slash; the thrust is 1d6+STR (P)."""
    ayla = standard_sheet("Ayla", STR=2, DEX=1)
    slash = wield(ayla, weapons["longsword"], "slash")
    assert (slash.to_hit_bonus, slash.dice, slash.scaling_bonus, slash.type) == (1, (8,), 2, "S")
    result = resolve(slash, 6, FixedDice([3, 3, 7]))
    assert result.hit and result.damage == 9 and result.damage_roll.faces == (7,)
    assert wield(ayla, weapons["longsword"], "thrust").type == "P"
    missed = resolve(slash, 7, FixedDice([3, 3]))
    assert not missed.hit and missed.damage == 0 and missed.damage_roll is None


def test_rum30_below_requirements(weapons: dict[str, Weapon]) -> None:
    """RU-M30: an axe needing STR 2 in STR 1 hands: no scaling, to-hit at most 0, one die
    fewer; with one die it shrinks instead: 1d8 → 1d6."""
    weak = standard_sheet("Ayla", STR=1)
    axe = wield(weak, weapons["axe"])
    assert (axe.deficit, axe.to_hit_bonus, axe.scaling_bonus, axe.dice) == (1, 0, 0, (6,))
    two_short = wield(standard_sheet("Ayla"), weapons["axe"])
    assert two_short.dice == (4,)
    negative = wield(standard_sheet("Ayla", DEX=-2), weapons["longsword"])
    assert negative.to_hit_bonus == -2, "a negative to-hit still counts (RU-A15b)"


def test_rum30_below_d4_the_weapon_cannot_be_wielded(weapons: dict[str, Weapon]) -> None:
    with pytest.raises(TabletopError, match="below a d4"):
        wield(standard_sheet("Ayla", STR=-2), weapons["axe"])


def test_rua15_mixed_pools_drop_the_smallest_die_and_deficits_add(
    weapons: dict[str, Weapon],
) -> None:
    """RU-A15a/c: STR 0 and DEX 0 against a flail needing 1 and 1 is 2 short: drop the d4,
    then shrink the d8. Counting the largest deficit, 1 short; dropping the largest die first,
    the d8 goes."""
    flail = wield(standard_sheet("Ayla"), weapons["flail"])
    assert (flail.deficit, flail.dice) == (2, (6,))
    largest = Options(requirement_deficits="largest")
    assert wield(standard_sheet("Ayla"), weapons["flail"], options=largest).dice == (8,)
    drop_big = Options(requirement_deficits="largest", dropped_damage_die="largest")
    assert wield(standard_sheet("Ayla"), weapons["flail"], options=drop_big).dice == (4,)


def test_rua15_without_requirements_each_to_hit_score_needs_minus_one(
    weapons: dict[str, Weapon],
) -> None:
    """RU-M30, RU-A15e: the longsword has none, so DEX -2 is 1 short of the implied -1."""
    clumsy = wield(standard_sheet("Ayla", DEX=-2), weapons["longsword"])
    assert clumsy.deficit == 1 and clumsy.dice == (6,)
    assert wield(standard_sheet("Ayla", DEX=-1), weapons["longsword"]).deficit == 0


@pytest.mark.parametrize(("strength", "allowed"), [(4, True), (3, False)])
def test_rut13_one_handing_a_two_handed_weapon(
    weapons: dict[str, Weapon], strength: int, allowed: bool
) -> None:
    """RU-T13, RU-M31: a greatsword needing STR 2 goes in one hand at STR 4, not at 3."""
    sheet = standard_sheet("Ayla", STR=strength)
    if allowed:
        assert wield(sheet, weapons["greatsword"], grip="one-hand").deficit == 0
    else:
        with pytest.raises(TabletopError, match="STR 4"):
            wield(sheet, weapons["greatsword"], grip="one-hand")


def test_rut13_two_hands_on_a_one_handed_weapon_add_two_str(weapons: dict[str, Weapon]) -> None:
    """RU-T13, RU-A16: an axe needing STR 2 held in both STR 0 hands: no penalty, +2 scaling,
    and +2 to a STR to-hit."""
    axe = wield(standard_sheet("Ayla"), weapons["axe"], grip="two-hands")
    assert (axe.deficit, axe.scaling_bonus, axe.to_hit_bonus, axe.dice) == (0, 2, 2, (8,))


def test_rut13_throwing_a_spear_without_a_thrown_move(weapons: dict[str, Weapon]) -> None:
    """RU-T13, RU-M32: STR 1, AGI 1, PERCEPTION 0: (2n1), to-hit +1, 1d6 (lowered), no
    scaling, 4 spaces. At STR 0: 2 spaces and 1d4 (RU-A17)."""
    thrower = standard_sheet("Ayla", STR=1, AGI=1)
    throw = improvised_throw(thrower, weapons["spear"])
    assert str(throw.cost) == "(2n1)"
    assert (throw.wielded.to_hit_bonus, throw.wielded.dice, throw.wielded.scaling_bonus) == (
        1,
        (6,),
        0,
    )
    assert throw.range == 4 and throw.wielded.type == "P"
    weak = improvised_throw(standard_sheet("Ayla", AGI=1), weapons["spear"])
    assert (weak.range, weak.wielded.dice) == (2, (4,))
    range_only = improvised_throw(
        standard_sheet("Ayla", AGI=1),
        weapons["spear"],
        options=Options(improvised_throw_requirements="range-only"),
    )
    assert range_only.wielded.dice == (6,)


def test_rua17_a_d4_dagger_cannot_be_thrown_this_way(weapons: dict[str, Weapon]) -> None:
    with pytest.raises(TabletopError, match="below a d4"):
        improvised_throw(standard_sheet("Ayla"), weapons["dagger"])


def test_only_spears_and_daggers_are_thrown_this_way(weapons: dict[str, Weapon]) -> None:
    with pytest.raises(TabletopError, match="spear or a dagger"):
        improvised_throw(standard_sheet("Ayla"), weapons["axe"])


def test_rua17_no_throw_without_range(weapons: dict[str, Weapon]) -> None:
    with pytest.raises(TabletopError, match="one space"):
        improvised_throw(standard_sheet("Ayla", STR=-1, AGI=-1), weapons["spear"])


def test_a_to_hit_score_at_minus_three_cannot_attack(weapons: dict[str, Weapon]) -> None:
    """RU-A03: the attack fails before any die is rolled."""
    sheet = standard_sheet("Ayla", DEX=-3)
    result = resolve(wield(sheet, weapons["longsword"]), 6, FixedDice([]))
    assert not result.hit and result.check.roll is None


def test_rua13_double_six_damage_options(weapons: dict[str, Weapon]) -> None:
    """RU-A13: twice the dice by default, or the dice's total doubled."""
    sword = wield(standard_sheet("Ayla", STR=1), weapons["longsword"])
    more = resolve(sword, 6, FixedDice([6, 6, 2, 7]))
    assert more.damage == 2 + 7 + 1
    doubled = resolve(sword, 6, FixedDice([6, 6, 2]), Options(double_six_damage="twice-the-roll"))
    assert doubled.damage == 2 * 2 + 1


def test_heavy_weapons_weigh_two_encs(weapons: dict[str, Weapon]) -> None:
    """RU-M49."""
    assert weapons["greatsword"].encs == 2 and weapons["axe"].encs == 1


def test_a_malformed_weapon_file_is_refused_with_its_place(tmp_path) -> None:
    bad = tmp_path / "weapons.toml"
    bad.write_text(
        '[club]\nspeed = "(1n1)"\n'
        'attacks = [{ name = "bash", to_hit = "STR", damage = "1d7", type = "B" }]\n'
    )
    with pytest.raises(TabletopError, match="club"):
        load_weapons(bad)
    bad.write_text("not toml [")
    with pytest.raises(TabletopError, match="not valid TOML"):
        load_weapons(bad)
    with pytest.raises(TabletopError, match="cannot read"):
        load_weapons(tmp_path / "missing.toml")


@given(st.lists(st.sampled_from([4, 6, 8, 10, 12, 20]), min_size=1, max_size=5), st.integers(0, 12))
def test_each_point_short_removes_one_step_of_damage(dice: list[int], points: int) -> None:
    """RU-M30: the dice only ever get fewer or smaller, one step a point."""
    before = tuple(sorted(dice, reverse=True))
    after = reduce_dice(before, points, Options())
    if after is None:
        assert points >= len(before)
        return
    steps = len(before) - len(after)
    assert len(after) == max(len(before) - points, 1)
    assert sum(after) <= sum(before)
    assert steps <= points


def test_rua42_a_two_handed_weapon_without_a_str_requirement(weapons: dict[str, Weapon]) -> None:
    """RU-A42: no STR requirement counts as STR 0, so STR 2 holds it in one hand."""
    polearm = weapons["greatsword"].model_copy(update={"requirements": {}})
    assert wield(standard_sheet("Ayla", STR=2), polearm, grip="one-hand").weapon == "greatsword"
    with pytest.raises(TabletopError, match="STR 2"):
        wield(standard_sheet("Ayla", STR=1), polearm, grip="one-hand")


def test_rua47_damage_is_never_below_zero(weapons: dict[str, Weapon]) -> None:
    """RU-A47: a 1d4 - 3 hit that rolls 1 deals 0, not -2."""
    dagger = weapons["dagger"].model_copy(
        update={
            "attacks": (
                weapons["dagger"].attacks[0].model_copy(update={"damage": parse_damage("1d4-3")}),
            )
        }
    )
    result = resolve(wield(standard_sheet("Ayla"), dagger), 6, FixedDice([4, 4, 1]))
    assert result.hit and result.damage == 0


def _club(to_hit: str) -> Weapon:
    """A weapon with no requirements that hits with `to_hit` (a test fixture)."""
    return Weapon.model_validate(
        {
            "name": "club",
            "speed": "(1n1)",
            "attacks": [{"name": "bash", "to_hit": to_hit, "damage": "1d6+STR", "type": "B"}],
        }
    )


def test_rua03_a_to_hit_summing_to_minus_three_is_not_an_unusable_score() -> None:
    """§ Characters and Scores, RU-A03: only a score at -3 fails without a roll. STR -1 and
    AGI -2 can both be used, so a STR + AGI attack is rolled at -3: [6,5] = 11 - 3 = 8 beats
    To-Hit 6 (and the 1d6 shrinks to a d4: AGI is 1 short of the implied -1, RU-A15e)."""
    sheet = standard_sheet("Ayla", STR=-1, AGI=-2)
    wielded = wield(sheet, _club("STR + AGI"))
    assert (wielded.blocked, wielded.to_hit_bonus, wielded.dice) == (None, -3, (4,))
    result = resolve(wielded, 6, FixedDice([6, 5, 2]))
    assert result.check.roll is not None and result.check.total == 8
    assert result.hit and result.damage == 2


def test_rua03_an_improvised_throw_at_minus_three_in_all_is_still_rolled(
    weapons: dict[str, Weapon],
) -> None:
    """§ Throwing a spear…, RU-A03: PERCEPTION -2 + AGI -1 is -3 in all, but neither score is
    -3, so the throw is rolled: [6,4] = 10 - 3 = 7 beats 6; range 3 - 1 = 2; 1d8 lowered to
    1d6, no scaling."""
    sheet = standard_sheet("Ayla", STR=1, AGI=-1, PERCEPTION=-2)
    throw = improvised_throw(sheet, weapons["spear"])
    assert (throw.wielded.to_hit_bonus, throw.range, throw.wielded.dice) == (-3, 2, (6,))
    result = resolve(throw.wielded, 6, FixedDice([6, 4, 3]))
    assert result.check.total == 7 and result.hit and result.damage == 3


def test_rua37_encumbered_takes_one_off_attacks_that_hit_with_agi() -> None:
    """§ The [encumbered] Threshold, RU-M51, RU-A37: -1 to AGI checks, and an attack that
    hits with AGI is one; a DEX attack is not. The -1 is a penalty on the roll, so it still
    applies when the weapon's bonus is capped at 0."""
    from tabletop.systems.ap2d6 import shipped_statuses

    spec = shipped_statuses().spec("encumbered")
    sheet = standard_sheet("Ayla", STR=1, AGI=1).with_status("encumbered", spec)
    agile = wield(sheet, _club("STR + AGI"))
    assert (agile.to_hit_bonus, agile.status_modifier) == (2, -1)
    assert not resolve(agile, 6, FixedDice([2, 3])).hit, "5 + 2 - 1 = 6 does not beat 6"
    assert resolve(agile, 6, FixedDice([3, 3, 1])).hit
    assert wield(sheet, _club("DEX")).status_modifier == 0
