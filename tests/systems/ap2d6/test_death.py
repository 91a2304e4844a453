"""Rest, dying and death (§ Resting and Healing, § Death and Dying, § Consequence Tables,
§ Consequences), and what a player may see of a death record."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletop.dice import FixedDice
from tabletop.errors import TabletopError
from tabletop.systems.ap2d6 import (
    Character,
    Options,
    check_on,
    death_check,
    for_role,
    heal,
    player_view,
    rest,
    standard_sheet,
    take_damage,
)
from tabletop.systems.ap2d6.death import PlayerDeathView, consequence_tables, gm_view
from tabletop.systems.ap2d6.health import dies_outright
from tabletop.systems.ap2d6.sheet import Injuries
from tabletop.systems.ap2d6.statuses import ROUNDS_PER_HOUR


def downed(dc_faces: tuple[int, int] = (4, 5), hp: int = -4, con: int = 0) -> Character:
    sheet = standard_sheet("Ayla", CON=con)
    character, _ = take_damage(sheet, sheet.max_hp - hp, FixedDice(dc_faces))
    return character


def checks(character: Character, *faces: tuple[int, int]) -> Character:
    for pair in faces:
        character, _ = death_check(character, FixedDice(pair))
    return character


def test_rum35_reaching_zero_goes_down_and_the_gm_rolls_a_secret_dc() -> None:
    """RU-M35, RU-M37: the DC is 2d6 with no modifier, and only the GM's events show it."""
    sheet = standard_sheet("Ayla")
    character, events = take_damage(sheet, 18, FixedDice([4, 5]))
    assert character.life == "dying" and character.hp == 0 and character.dying.dc == 9
    secret = [event for event in events if event.kind == "death-dc"]
    assert secret and secret[0].gm_only
    assert all("9" not in event.summary for event in for_role(events, "player"))


def test_rut15_three_successes_stabilise_and_consequences_wait_for_a_check() -> None:
    """RU-T15: DC 9; [4,5] meets it, [2,3] fails by 4, [6,6] and [5,6] succeed: stable at
    -4, unconscious. Someone checks on them: margin 4 is scars, [frail] for a day and a lowered
    stat, here d4 [2] = AGI."""
    character = checks(downed(), (4, 5), (2, 3), (6, 6), (5, 6))
    record = character.dying
    assert (record.successes, record.failures, record.end) == (3, 1, "stabilised")
    assert [check.margin for check in record.checks] == [None, 4, None, None]
    assert character.life == "unconscious" and character.hp == -4
    assert record.consequences == (), "nothing is rolled until someone checks on them"
    with pytest.raises(TabletopError, match="stop rolling"):
        death_check(character, FixedDice([6, 6]))
    character, events = check_on(character, FixedDice([2]))
    assert character.injuries.scars == 1
    assert character.scores["AGI"] == -1 and character.score("AGI") == -2
    frail = character.statuses["frail"]
    assert frail.state.rounds_left == 24 * ROUNDS_PER_HOUR
    assert character.max_hp == 18 - 12
    assert character.life == "unconscious"
    assert any(event.kind == "consequence" for event in events)


def test_rut17_a_hit_while_down_adds_a_failure_and_the_third_kills() -> None:
    """RU-T17: Max 18, HP -2, two failures; a hit for 3 → HP -5 (above -9), the third failure:
    dead, secretly, and the hit's failure has no consequence row (RU-A23)."""
    character = checks(downed(dc_faces=(6, 6), hp=-2), (2, 2), (3, 3))
    assert character.dying.failures == 2
    hit, events = take_damage(character, 3, FixedDice([]))
    assert hit.hp == -5 and hit.life == "dead" and hit.dying.checks[-1].margin is None
    assert hit.public_life == "down"
    assert [e.kind for e in for_role(events, "player")] == [
        "damage",
        "hit-while-down",
        "stop-rolling",
    ]


def test_rut17_reduced_to_half_max_hp_below_zero_dies_outright() -> None:
    """RU-T17, RU-M34: a hit for 10 from -2 → -12 ≤ -9: dead at once, and everyone knows."""
    character = checks(downed(hp=-2), (2, 2))
    dead, events = take_damage(character, 10, FixedDice([]))
    assert dead.hp == -12 and dead.life == "dead" and dead.public_life == "dead"
    assert "dies outright" in events[-1].summary
    with pytest.raises(TabletopError, match="already dead"):
        take_damage(dead, 1, FixedDice([]))


def test_rua19_the_outright_threshold_is_exact() -> None:
    """RU-A19: at or below -(Max HP / 2), compared exactly: Max 21 → -11 dies, -10 does not."""
    assert dies_outright(-11, 21) and not dies_outright(-10, 21)
    assert dies_outright(-9, 18) and not dies_outright(-8, 18)
    sheet = standard_sheet("Ayla")
    assert take_damage(sheet, 27, FixedDice([]))[0].life == "dead"
    assert take_damage(sheet, 26, FixedDice([1, 1]))[0].life == "dying"


def test_rum38_three_failures_die_and_margins_are_kept() -> None:
    """RU-M38: a roll below the DC fails by DC - roll."""
    character = checks(downed(dc_faces=(6, 5)), (1, 2), (4, 4), (5, 5))
    assert character.life == "dead" and character.public_life == "down"
    assert [check.margin for check in character.dying.checks] == [8, 3, 1]
    character, _ = check_on(character, FixedDice([]))
    assert character.public_life == "dead" and character.dying.consequences == ()


def test_rua12_double_ones_meet_a_dc_of_two() -> None:
    """RU-A12: a death check's "matches" beats "critical failure" by default."""
    assert checks(downed(dc_faces=(1, 1)), (1, 1)).dying.successes == 1
    strict = Options(double_one_fails_death_check=True)
    character, _ = death_check(downed(dc_faces=(1, 1)), FixedDice([1, 1]), options=strict)
    assert character.dying.failures == 1 and character.dying.checks[0].margin == 1


@pytest.mark.parametrize(
    ("margin", "name"),
    [
        (1, "[weak] (1 hour)"),
        (2, "[weak] (8 hours)"),
        (3, "Scars, [frail] (8 hours)"),
        (4, "Scars, [frail] (1 day), Lower 1 Stat"),
        (5, "Scars, [frail] (2 days), Lower 1 Stat"),
        (6, "Scars, Lame"),
        (7, "Scars, Lame"),
        (8, "Lose a Limb"),
        (9, "Lose a Limb"),
        (10, "Lose a Limb"),
    ],
)
def test_rum40_the_consequence_table_by_margin(margin: int, name: str) -> None:
    """RU-M40, RU-A24: failing by m reads row -m."""
    assert consequence_tables()["death-consequences"].lookup(margin).name == name


@pytest.mark.parametrize(
    ("face", "score", "limb"),
    [(1, "STR", "arm"), (2, "AGI", "leg"), (3, "DEX", "eye"), (4, "CON", "ear")],
)
def test_rum41_the_d4_tables(face: int, score: str, limb: str) -> None:
    """RU-M41, RU-A25: Lower a Stat (STR, AGI, DEX, CON) and Lose a Limb (arm, leg, eye, ear)."""
    tables = consequence_tables()
    assert tables["lower-a-stat"].lookup(face).effects[0].fields == {"score": score, "by": 1}
    assert tables["lose-a-limb"].lookup(face).effects[0].fields == {"limb": limb}


def survive_with_failures(*failures: tuple[int, int]) -> Character:
    """DC 12 ([6,6]); the failing rolls given, then three [6,6] successes."""
    character = downed(dc_faces=(6, 6), hp=0)
    character = checks(character, *failures)
    return checks(character, (6, 6), (6, 6), (6, 6))


def test_rua22_repeated_statuses_keep_the_longest_and_permanent_results_stack() -> None:
    """RU-A22: margins 2 and 1 are [weak] 8 hours and 1 hour: [weak] for 8 hours."""
    character = survive_with_failures((5, 5), (5, 6))
    character, _ = check_on(character, FixedDice([]))
    assert character.statuses["weak"].state.rounds_left == 8 * ROUNDS_PER_HOUR
    added = survive_with_failures((5, 5), (5, 6))
    added, _ = check_on(added, FixedDice([]), options=Options(repeated_consequence_status="add"))
    assert added.statuses["weak"].state.rounds_left == 9 * ROUNDS_PER_HOUR


def test_rum41_lame_and_a_lost_limb() -> None:
    """Margins 6 (scars, lame) and 9 (lose a limb, d4 [3] = eye)."""
    character = survive_with_failures((3, 3), (1, 2))
    character, _ = check_on(character, FixedDice([3]))
    assert character.injuries.lame and character.injuries.lost_limbs == ("eye",)
    assert character.injuries.scars == 1


def test_rua27_lame_slows_every_move_after_the_first() -> None:
    """RU-A27: 4, 3, 3 spaces; cumulatively 4, 3, 2."""
    lame = Character(name="Ayla", injuries=Injuries(lame=True))
    assert [lame.move_spaces(n) for n in (1, 2, 3)] == [4, 3, 3]
    steep = Options(lame_penalty="cumulative")
    assert [lame.move_spaces(n, steep) for n in (1, 2, 3)] == [4, 3, 2]


def test_rua26_con_loss_caps_health_and_it_does_not_come_back_by_itself() -> None:
    """RU-A26: [weak] for an hour at 18/18: Max 12, HP 12; when it ends Max is 18, HP 12."""
    character = survive_with_failures((6, 5))
    character = character.model_copy(update={"hp": 18})
    character, _ = check_on(character, FixedDice([]))
    assert (character.max_hp, character.hp, character.life) == (12, 12, "up")
    character, _ = rest(character, 1, 0, FixedDice([]))
    assert not character.has("weak") and (character.max_hp, character.hp) == (18, 12)


def test_rua20_healed_above_zero_is_stable_and_six_wakes() -> None:
    """RU-A20, RU-M36: healing a dying character to 3 stops the checks; healing them again
    means going to them, so first what it cost is revealed (RU-A41); at 6 HP they wake."""
    character = checks(downed(hp=-1), (2, 2))
    character, events = heal(character, 4, FixedDice([]))
    assert character.life == "unconscious" and character.dying.end == "healed"
    assert "stop-rolling" in [e.kind for e in events]
    character, events = heal(character, 3, FixedDice([1]))
    assert character.life == "up" and character.dying is None and character.hp == 6
    assert character.has("frail") and character.scores["STR"] == -1, "failed by 5, d4 [1]"
    assert [e.kind for e in events] == ["checked-on", "consequence", "heal", "wake"]


def test_rua39_a_stable_character_hit_while_down_can_still_die() -> None:
    """RU-A39: a hit adds a failure even after three successes; a third failure kills."""
    character = checks(downed(dc_faces=(3, 3)), (1, 1), (1, 2), (6, 6), (6, 6), (6, 6))
    assert character.life == "unconscious" and character.dying.failures == 2
    character, _ = take_damage(character, 1, FixedDice([]))
    assert character.life == "dead" and character.public_life == "down"


def test_healed_then_hurt_again_resumes_the_checks() -> None:
    """RU-A20: above 0 HP is what made them stable; back at 0 or below the checks go on."""
    character = checks(downed(hp=-1), (2, 2))
    character, _ = heal(character, 2, FixedDice([]))
    character, events = take_damage(character, 3, FixedDice([]))
    assert character.life == "dying" and character.dying.rolling
    assert "keep-rolling" in [e.kind for e in events]


def test_rut07_recovery_dice_heal_up_to_max_and_a_long_rest_restores_them() -> None:
    """RU-T07, RU-A18: HP 10/18 + [5] = 15; HP 16/18 + [6] = 18 (capped); 8 hours restores."""
    sheet = standard_sheet("Ayla").model_copy(update={"hp": 10})
    rested, _ = rest(sheet, 1, 1, FixedDice([5]))
    assert rested.hp == 15 and rested.recovery_dice == 2
    capped, _ = rest(sheet.model_copy(update={"hp": 16}), 1, 1, FixedDice([6]))
    assert capped.hp == 18
    long, events = rest(sheet, 8, 2, FixedDice([1, 1]))
    assert long.hp == 12 and long.recovery_dice == 3
    assert events[-1].kind == "long-rest"


def test_rest_spends_at_most_one_die_an_hour_and_only_dice_left() -> None:
    sheet = standard_sheet("Ayla")
    with pytest.raises(TabletopError, match="0 to 1"):
        rest(sheet, 1, 2, FixedDice([1, 1]))
    with pytest.raises(TabletopError, match="0 to 3"):
        rest(sheet, 8, 4, FixedDice([1] * 4))


def test_rua40_statuses_that_act_each_round_are_played_out_before_resting() -> None:
    from tabletop.systems.ap2d6 import shipped_statuses

    sheet = standard_sheet("Ayla").with_status("poison", shipped_statuses().spec("poison"))
    with pytest.raises(TabletopError, match="poison"):
        rest(sheet, 1, 0, FixedDice([]))


def test_rum36_a_stable_character_rests_until_six_then_wakes() -> None:
    """RU-M36: stable at -4, after three successes; recovery dice each hour."""
    character = checks(downed(con=1), (6, 6), (6, 6), (6, 6))
    character, events = rest(character, 3, 3, FixedDice([6, 2, 6]))
    assert character.hp == 10 and character.life == "up"
    assert "wake" in [event.kind for event in events]


# -- the secret ---------------------------------------------------------------------------------

faces = st.tuples(st.integers(1, 6), st.integers(1, 6))
commands = st.lists(
    st.one_of(
        st.tuples(st.just("roll"), faces),
        st.tuples(st.sampled_from(["hit", "heal"]), st.integers(0, 3)),
        st.tuples(st.just("rest"), st.integers(0, 2)),
    ),
    max_size=8,
)


def _player_side(character: Character, script: list) -> list[tuple]:
    """What the player is shown at each step of `script`, whether they must keep rolling, and
    whether someone has checked on them."""

    def told(character: Character) -> tuple[bool, bool]:
        shown = character.view("player")["dying"] or {"keep_rolling": False, "checked_on": True}
        return shown["keep_rolling"], shown["checked_on"]

    seen = [(character.view("player"), *told(character))]
    for verb, value in script:
        try:
            if verb == "roll":
                character, events = death_check(character, FixedDice(value))
            elif verb == "hit":
                character, events = take_damage(character, value, FixedDice([]))
            elif verb == "heal":
                character, events = heal(character, value, FixedDice([2] * 20))
            else:
                character, events = rest(character, 1, value, FixedDice([2] * 20))
            shown: object = (
                [event.model_dump() for event in for_role(events, "player")],
                character.view("player"),
            )
        except TabletopError as error:
            shown = ("refused", str(error))
        seen.append((shown, *told(character)))
    return seen


@given(faces, faces, commands)
def test_the_player_sees_the_same_whatever_the_secret_dc(
    first_dc: tuple[int, int], second_dc: tuple[int, int], script: list
) -> None:
    """RU-M37, RU-M38, RU-A41: until someone checks on them, everything the player is shown
    (their sheet, their view of the record, every event, every refusal, through rolls, hits,
    healing and rest) is the same for any two DCs, up to the moment one of them is told to
    stop rolling and the other is not, the one thing the rules let the DC change. So nothing
    shown carries the DC, a verdict or the outcome (alive or dead)."""
    first = _player_side(downed(first_dc, hp=-1), script)
    second = _player_side(downed(second_dc, hp=-1), script)
    for (shown_first, *told_first), (shown_second, *told_second) in zip(first, second, strict=True):
        if told_first != told_second or told_first[1]:
            break
        assert shown_first == shown_second


def test_stable_and_dead_look_the_same_until_someone_checks() -> None:
    """DC 2 and DC 12 with three rolls of 6: one is stable, the other dead; the player is
    shown exactly the same, through a later hit, until the check reveals it."""
    script = [("roll", (3, 3))] * 3 + [("hit", 2), ("roll", (3, 3))]
    alive = _player_side(downed((1, 1), hp=-1), script)
    dead = _player_side(downed((6, 6), hp=-1), script)
    assert alive == dead
    saved = checks(downed((1, 1), hp=-1), (3, 3), (3, 3), (3, 3))
    lost = checks(downed((6, 6), hp=-1), (3, 3), (3, 3), (3, 3))
    assert (saved.life, lost.life) == ("unconscious", "dead")
    assert check_on(saved, FixedDice([]))[0].view("player")["life"] == "down"
    assert check_on(lost, FixedDice([]))[0].view("player")["life"] == "dead"


def test_the_player_view_has_no_place_for_the_dc() -> None:
    """The player's model has no field that could carry a DC, a margin, a success or an end."""
    fields = set(PlayerDeathView.model_fields) | set(
        PlayerDeathView.model_fields["marks"].annotation.__args__[0].model_fields
    )
    assert not fields & {
        "dc",
        "dc_roll",
        "margin",
        "success",
        "successes",
        "failures",
        "end",
        "survived",
    }
    character = checks(downed(dc_faces=(5, 6)), (1, 2), (2, 2))
    shown = player_view(character.dying)
    text = "\n".join(shown.lines())
    assert "DC" not in text and "margin" not in text and "fail" not in text
    assert "11" not in shown.model_dump_json()
    assert gm_view(character.dying).dc == 11 and "11" in "\n".join(gm_view(character.dying).lines())


def test_after_the_check_the_player_learns_fate_and_consequences_but_not_the_dc() -> None:
    character = checks(downed(dc_faces=(6, 5)), (6, 4), (6, 6), (6, 5), (6, 6))
    character, _ = check_on(character, FixedDice([]))
    shown = player_view(character.dying)
    assert shown.checked_on and shown.alive and shown.consequences == ("[weak] for 1 hour",)
    assert "DC" not in "\n".join(shown.lines())


def test_rua41_resting_a_secretly_dead_character_is_refused_no_differently() -> None:
    """§ Being Reduced to 0 HP, RU-A41: nobody learns the outcome until someone checks on the
    character. DC 2 and DC 12 with three rolls of 6: stable or secretly dead. Resting either
    means staying with them, so it checks on them first: the stable one then rests, the dead
    one is found dead; a refusal before that (here, too many dice) reads the same for both."""
    saved = checks(downed((1, 1), hp=-1), (3, 3), (3, 3), (3, 3))
    lost = checks(downed((6, 6), hp=-1), (3, 3), (3, 3), (3, 3))
    refusals = []
    for character in (saved, lost):
        with pytest.raises(TabletopError) as refused:
            rest(character, 1, 2, FixedDice([]))
        refusals.append(str(refused.value))
    assert refusals[0] == refusals[1]
    rested, events = rest(saved, 1, 1, FixedDice([4]))
    assert [e.kind for e in events][:1] == ["checked-on"] and rested.hp == 3
    assert rested.dying.revealed and rested.life == "unconscious"
    found, events = rest(lost, 1, 1, FixedDice([4]))
    assert found.public_life == "dead" and [e.kind for e in events] == ["checked-on", "too-late"]
