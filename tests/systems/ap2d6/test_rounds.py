"""Initiative Rules B: phases, statuses, ordering, interrupts (§ Initiative Rules B,
§ Beginning Phase, § Main Phase, § Interrupting and [interrupt], § HP and CON)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.dice import FixedDice, SeededDice
from tabletop.errors import TabletopError
from tabletop.systems.ap2d6 import (
    BeginningChoices,
    Combat,
    Options,
    Weapon,
    act,
    action_cost,
    attack,
    begin_round,
    interrupt,
    open_decision,
    order,
    standard_sheet,
    start_main_phase,
)
from tabletop.systems.ap2d6.rounds import (
    check_on,
    death_check,
    join,
    leave,
    roll_check,
    tracker_change,
)
from tabletop.systems.ap2d6.statuses import shipped_statuses
from tests.effort import tried

STATUSES = shipped_statuses()


def poisoned(name: str = "Ayla", hp: int | None = None, con: int = 0, **stacks: int):
    sheet = standard_sheet(name, CON=con)
    if hp is not None:
        sheet = sheet.model_copy(update={"hp": hp})
    for status, count in stacks.items():
        sheet = sheet.with_status(status, STATUSES.spec(status), count)
    return sheet


def fight(*characters, dice=None) -> Combat:
    combat, _ = begin_round(Combat(characters=characters), dice or FixedDice([]))
    combat, _ = start_main_phase(combat)
    return combat


def test_rum06_con_ignores_a_stack_of_each_status() -> None:
    """RU-M06 and the rules' example: CON 1 with 1 [bleed] and 3 [poison] takes 2 poison
    damage and none from bleed; the ignored stacks stay, and one poison wears off."""
    sheet = poisoned(con=1, bleed=1, poison=3)
    combat, _ = begin_round(Combat(characters=(sheet,)), FixedDice([]))
    after = combat.character("Ayla")
    assert after.hp == sheet.max_hp - 2
    assert after.stacks("bleed") == 1 and after.stacks("poison") == 2


def test_rum06_the_owner_chooses_what_con_ignores() -> None:
    """RU-M06: choosing to ignore nothing takes the full 3 + 1."""
    sheet = poisoned(con=1, bleed=1, poison=3)
    choice = {"Ayla": BeginningChoices(ignore={})}
    combat, _ = begin_round(Combat(characters=(sheet,)), FixedDice([]), choice)
    assert combat.character("Ayla").hp == sheet.max_hp - 4
    too_many = {"Ayla": BeginningChoices(ignore={"poison": 2})}
    with pytest.raises(TabletopError, match="at most 1"):
        begin_round(Combat(characters=(sheet,)), FixedDice([]), too_many)


def test_rua31_negative_con_ignores_nothing() -> None:
    """RU-A31: stacks ignored = max(CON, 0)."""
    sheet = poisoned(con=-1, poison=2)
    combat, _ = begin_round(Combat(characters=(sheet,)), FixedDice([]))
    assert combat.character("Ayla").hp == sheet.max_hp - 2


def test_rum25_damage_comes_before_poison_wears_off() -> None:
    """RU-M25 and the rules' example: at 1 HP with 1 [poison], the damage lands in Effect
    Activation (down at 0, the secret DC rolled) and only then is the poison removed."""
    combat, events = begin_round(Combat(characters=(poisoned(hp=1, poison=1),)), FixedDice([3, 3]))
    ayla = combat.character("Ayla")
    assert ayla.hp == 0 and ayla.life == "dying" and ayla.stacks("poison") == 0
    kinds = [event.kind for event in events]
    assert kinds.index("downed") < kinds.index("status-ended")
    assert combat.phase == "beginning-moves"


def test_rua43_poison_while_down_is_not_a_hit() -> None:
    """RU-A43: [poison] hurts a downed character without adding a failed death check."""
    combat, _ = begin_round(Combat(characters=(poisoned(hp=1, poison=2),)), FixedDice([3, 3]))
    combat, _ = begin_round(combat, FixedDice([]))
    ayla = combat.character("Ayla")
    assert ayla.hp == 1 - 2 - 1 and ayla.dying is not None and ayla.dying.failures == 0


def test_heal_stacks_heal_and_wear_off() -> None:
    """RU-M25: [heal] restores 1 HP a stack (assumed, RU-A31) and loses a stack a round."""
    combat, _ = begin_round(Combat(characters=(poisoned(hp=10, heal=2),)), FixedDice([]))
    assert combat.character("Ayla").hp == 12 and combat.character("Ayla").stacks("heal") == 1


def test_status_durations_run_out_in_status_management() -> None:
    sheet = standard_sheet("Ayla").with_status("vulnerable", STATUSES.spec("vulnerable"), rounds=1)
    combat, events = begin_round(Combat(characters=(sheet,)), FixedDice([]))
    assert not combat.character("Ayla").has("vulnerable")
    assert any(event.kind == "status-ended" for event in events)


def test_rua07_ap_comes_back_at_status_management() -> None:
    combat = fight(standard_sheet("Ayla"))
    combat, _ = act(combat, "Ayla", "move")
    combat, _ = act(combat, "Ayla", "move")
    assert combat.character("Ayla").tracker.spendable == 1
    combat, _ = begin_round(combat, FixedDice([]))
    assert combat.character("Ayla").tracker.spendable == 3 and combat.round == 2


def test_rum26_simultaneous_actions_go_by_agi_then_least_recent() -> None:
    """RU-M26: higher AGI first; on a tie whoever acted most recently goes last."""
    combat = fight(
        standard_sheet("A", AGI=1), standard_sheet("B", AGI=1), standard_sheet("C", AGI=3)
    )
    combat, _ = act(combat, "A", "move")
    combat, _ = act(combat, "B", "move")
    assert order(combat, ["A", "B", "C"], FixedDice([]))[0] == ["C", "A", "B"]
    combat, _ = act(combat, "A", "move")
    assert order(combat, ["A", "B", "C"], FixedDice([]))[0] == ["C", "B", "A"]


def test_rua32_a_tie_between_characters_who_have_not_acted_is_an_agi_contest() -> None:
    """RU-A32: A rolls 5 + 1, B rolls 9 + 1, so B goes first; the listed order is an option."""
    combat = fight(standard_sheet("A", AGI=1), standard_sheet("B", AGI=1))
    ordered, events = order(combat, ["A", "B"], FixedDice([2, 3, 4, 5]))
    assert ordered == ["B", "A"] and len(events) == 2
    listed, _ = order(
        combat, ["A", "B"], FixedDice([]), Options(unacted_initiative_tie="listed-order")
    )
    assert listed == ["A", "B"]


def test_rum27_an_interrupt_costs_1n1_and_is_an_initiative_contest() -> None:
    """RU-M27, RU-A14: AGI 0 [6,5] against AGI 2 [3,3]: 11 beats 8, the interrupter acts first."""
    combat = fight(standard_sheet("A"), standard_sheet("B", AGI=2))
    combat, first, _ = interrupt(combat, "A", "B", FixedDice([6, 5, 3, 3]))
    assert first == "A" and combat.character("A").tracker.spendable == 2
    combat, first, _ = interrupt(combat, "A", "B", FixedDice([1, 2, 3, 3]), tagged=True)
    assert first == "B" and combat.character("A").tracker.spendable == 2


def test_rua14_the_interrupt_tag_can_also_waive_the_contest() -> None:
    combat = fight(standard_sheet("A"), standard_sheet("B", AGI=2))
    options = Options(interrupt_tag_waives="cost-and-contest")
    _, first, _ = interrupt(combat, "A", "B", FixedDice([]), tagged=True, options=options)
    assert first == "A"


def test_rum15_double_sixes_give_a_temp_ap_in_initiative() -> None:
    """RU-M15, RU-A13: any roll in initiative; with the option, attacks only."""
    combat = fight(standard_sheet("Ayla"))
    combat, result, _ = roll_check(combat, "Ayla", "AGI", 8, FixedDice([6, 6]))
    assert result.success and combat.character("Ayla").tracker.temp == 1
    options = Options(double_six_temp_ap="attacks")
    combat, _, _ = roll_check(
        fight(standard_sheet("Ayla")), "Ayla", "AGI", 8, FixedDice([6, 6]), options=options
    )
    assert combat.character("Ayla").tracker.temp == 0


def test_an_attack_pays_the_escalating_cost_and_deals_damage(weapons: dict[str, Weapon]) -> None:
    """RU-M19, RU-M28 and § Attacking using AP: slash for (1n1), thrust for (2n1); a third
    attack cannot be paid."""
    combat = fight(standard_sheet("Ayla", STR=1), standard_sheet("Orc"))
    longsword = weapons["longsword"]
    combat, slash, _ = attack(
        combat, "Ayla", "Orc", longsword, FixedDice([4, 4, 5]), attack_name="slash"
    )
    assert slash.hit and slash.damage == 6 and combat.character("Orc").hp == 12
    combat, thrust, _ = attack(
        combat, "Ayla", "Orc", longsword, FixedDice([2, 2]), attack_name="thrust"
    )
    assert not thrust.hit
    assert combat.character("Ayla").tracker.spendable == 0
    with pytest.raises(TabletopError, match="needs 2 AP"):
        attack(combat, "Ayla", "Orc", longsword, FixedDice([6, 6]))


def test_a_double_six_attack_doubles_the_dice_and_gives_temp_ap(weapons: dict[str, Weapon]) -> None:
    """RU-A13: twice the number of damage dice, the flat scaling once; and 1 temp AP."""
    combat = fight(standard_sheet("Ayla", STR=1), standard_sheet("Orc"))
    combat, result, _ = attack(combat, "Ayla", "Orc", weapons["longsword"], FixedDice([6, 6, 3, 5]))
    assert result.doubled and result.damage == 3 + 5 + 1
    assert combat.character("Ayla").tracker.temp == 1


def test_death_checks_once_a_round_in_a_fight() -> None:
    """RU-M38, RU-A07: one death check per round."""
    down = standard_sheet("Ayla").model_copy(update={"hp": 1})
    combat = fight(down, standard_sheet("Orc"))
    combat, _ = tracker_change(combat, "Orc", "temp")
    from tabletop.systems.ap2d6 import take_damage

    hurt, _ = take_damage(combat.character("Ayla"), 3, FixedDice([4, 4]))
    combat = combat.replaced(hurt)
    decision = open_decision(combat)
    assert any(choice.kind == "death-check" and choice.who == "Ayla" for choice in decision.choices)
    combat, _ = death_check(combat, "Ayla", FixedDice([5, 5]))
    with pytest.raises(TabletopError, match="already made"):
        death_check(combat, "Ayla", FixedDice([5, 5]))
    with pytest.raises(TabletopError, match="down"):
        act(combat, "Ayla", "move")
    combat, _ = begin_round(combat, FixedDice([]))
    combat, _ = death_check(combat, "Ayla", FixedDice([5, 5]))
    assert combat.character("Ayla").dying.successes == 2


def test_the_open_decision_lists_what_each_character_can_do() -> None:
    combat = Combat(characters=(standard_sheet("Ayla"),))
    assert [choice.kind for choice in open_decision(combat).choices] == ["begin-round"]
    combat = fight(standard_sheet("Ayla"))
    kinds = {(choice.kind, choice.who) for choice in open_decision(combat).choices}
    assert {("begin-round", None), ("spend", "Ayla"), ("wait", "Ayla")} <= kinds


def test_the_initiative_tracker_is_agi_order_and_characters_come_and_go() -> None:
    """RU-M24."""
    combat = join(Combat(characters=(standard_sheet("A", AGI=1),)), standard_sheet("B", AGI=3))
    assert combat.initiative() == [("B", 3), ("A", 1)]
    assert leave(combat, "B").initiative() == [("A", 1)]
    with pytest.raises(TabletopError, match="already"):
        join(combat, standard_sheet("A"))
    with pytest.raises(ValueError):
        Combat(characters=(standard_sheet("A"), standard_sheet("A")))


def test_nothing_happens_before_the_first_round() -> None:
    with pytest.raises(TabletopError, match="not started"):
        act(Combat(characters=(standard_sheet("A"),)), "A", "move")


def test_picking_up_a_weapon_leaves_you_vulnerable() -> None:
    """RU-M29, RU-A33: drawing, picking up and putting away cost (1n1), and only picking up
    leaves you [vulnerable]; dropping is free."""
    combat = fight(standard_sheet("Ayla"))
    combat, events = act(combat, "Ayla", "pick-up-weapon")
    assert "[vulnerable]" in events[0].summary
    combat, _ = act(combat, "Ayla", "drop-weapon")
    combat, _ = act(combat, "Ayla", "draw-weapon")
    assert combat.character("Ayla").tracker.spendable == 1


def test_rua37_encumbered_hurts_interrupt_contests() -> None:
    """RU-A37: an [encumbered] interrupter rolls AGI - 1: 8 - 1 ties B's 7 and the contest is
    rolled again (someone must go first); without the penalty 8 beats 7."""
    heavy = standard_sheet("A").with_status("encumbered", STATUSES.spec("encumbered"))
    combat = fight(heavy, standard_sheet("B"))
    _, first, _ = interrupt(combat, "A", "B", FixedDice([4, 4, 3, 4, 1, 2, 6, 6]))
    assert first == "B"
    off = Options(encumbered_agi_contests=False)
    _, first, _ = interrupt(combat, "A", "B", FixedDice([4, 4, 3, 4]), options=off)
    assert first == "A"


def test_rua38_con_ignores_only_statuses_that_act_each_round() -> None:
    """RU-A38: CON 2 with [weak] and 3 [poison]: only poison stacks can be ignored."""
    from tabletop.systems.ap2d6.rounds import ignorable

    sheet = poisoned(con=2, poison=3).with_status("weak", STATUSES.spec("weak"))
    assert ignorable(sheet) == {"poison": 1}, "[weak] makes CON 1"


def test_a_players_view_of_the_fight_carries_no_secret() -> None:
    """The DC of a downed character is in the GM's view of the fight and nowhere in the
    player's (both DC 11 [5,6] and its faces are absent)."""
    from tabletop.systems.ap2d6.rounds import view

    combat = fight(standard_sheet("Ayla").model_copy(update={"hp": 1}), standard_sheet("Orc"))
    from tabletop.systems.ap2d6 import take_damage

    down, _ = take_damage(combat.character("Ayla"), 2, FixedDice([5, 6]))
    combat = combat.replaced(down)
    gm, player = view(combat, "gm"), view(combat, "player")
    assert gm["characters"][0]["dying"]["dc_roll"]["total"] == 11
    assert "dc_roll" not in str(player) and "11" not in str(player["characters"][0]["dying"])
    assert player["characters"][0]["life"] == "down"


def test_rua13_double_sixes_in_an_interrupt_contest_give_a_temp_ap() -> None:
    """§ Double 1s, Double 6s, RU-A13 (any roll in initiative): the interrupt contest is one.
    A pays (1n1) and rolls [6,6]: 12 beats B's [3,3] + 2, and A has 2 + 1 temp AP; when the
    target B rolls [6,6], B gets the temp AP. Limited to attacks, neither does."""
    combat = fight(standard_sheet("A"), standard_sheet("B", AGI=2))
    after, first, _ = interrupt(combat, "A", "B", FixedDice([6, 6, 3, 3]))
    assert first == "A" and after.character("A").tracker.temp == 1
    assert after.character("A").tracker.spendable == 3
    after, first, _ = interrupt(combat, "A", "B", FixedDice([1, 2, 6, 6]))
    assert first == "B" and after.character("B").tracker.temp == 1
    options = Options(double_six_temp_ap="attacks")
    after, _, _ = interrupt(combat, "A", "B", FixedDice([6, 6, 3, 3]), options=options)
    assert after.character("A").tracker.temp == 0


def test_rum27_an_interrupt_needs_someone_else_acting() -> None:
    """§ Interrupting and [interrupt], RU-M27, RU-M23: an interrupt interferes with another
    character's action, so not one's own, not a downed or waiting character's, and a waiting
    character can do nothing else, tagged move or not."""
    down = standard_sheet("C").model_copy(update={"hp": 1})
    combat = fight(standard_sheet("A"), standard_sheet("B"), down)
    from tabletop.systems.ap2d6 import take_damage

    combat = combat.replaced(take_damage(combat.character("C"), 2, FixedDice([3, 3]))[0])
    with pytest.raises(TabletopError, match="own action"):
        interrupt(combat, "A", "A", FixedDice([]))
    with pytest.raises(TabletopError, match="C is down"):
        interrupt(combat, "A", "C", FixedDice([]))
    waiting, _ = tracker_change(combat, "B", "wait")
    with pytest.raises(TabletopError, match="B is waiting"):
        interrupt(waiting, "A", "B", FixedDice([]))
    with pytest.raises(TabletopError, match="B is waiting"):
        interrupt(waiting, "B", "A", FixedDice([]), tagged=True)
    assert combat.character("A").tracker.spendable == 3


def test_rua10_lost_ap_stays_lost_until_the_fight_ends() -> None:
    """§ Action Points (AP tracking only in initiative), § AP Shenanigans, RU-A10: a lost
    token stays off the tracker round after round, and comes back when initiative is over,
    with temp AP and waiting gone and every token on 0."""
    from tabletop.systems.ap2d6 import end_fight

    combat = fight(standard_sheet("Ayla"), standard_sheet("Orc"))
    combat, _ = tracker_change(combat, "Ayla", "lose")
    combat, _ = act(combat, "Ayla", "move")
    combat, _ = tracker_change(combat, "Ayla", "temp")
    combat, _ = tracker_change(combat, "Orc", "wait")
    combat, _ = begin_round(combat, FixedDice([]))
    assert combat.character("Ayla").tracker.tokens == (0, 0)
    characters, events = end_fight(combat)
    for character in characters:
        assert character.tracker == type(character.tracker)()
    assert events[0].kind == "fight-over"
    with pytest.raises(TabletopError, match="not started"):
        end_fight(Combat(characters=(standard_sheet("Ayla"),)))


def test_rum02_a_special_score_the_character_lacks_fails_in_a_fight() -> None:
    """§ [special] Scores, RU-M02: no PYROMANCY at all means nothing happens, no die rolled;
    PYROMANCY 0 is a mediocre pyromancer who rolls: [4,4] = 8 meets DC 8."""
    pyromancer = standard_sheet("Bo").model_copy(update={"special": {"PYROMANCY": 0}})
    combat = fight(standard_sheet("Ayla"), pyromancer)
    _, rolled, _ = roll_check(combat, "Ayla", "PYROMANCY", 8, FixedDice([]), special=True)
    assert not rolled.success and rolled.roll is None
    _, rolled, _ = roll_check(combat, "Bo", "PYROMANCY", 8, FixedDice([4, 4]), special=True)
    assert rolled.success and rolled.total == 8


def test_rum19_an_improvised_throw_paid_as_a_basic_action_counts_as_an_attack() -> None:
    """§ Attacking using AP (all attacks count as the same action), RU-M19, RU-A17: a throw
    paid on its own (2n1) is the round's first attack, so a longsword attack after it pays
    the second cost, (2n1), not (1n1)."""
    combat = fight(standard_sheet("Ayla"))
    combat, _ = tracker_change(combat, "Ayla", "temp")
    combat, _ = act(combat, "Ayla", "improvised-throw")
    from tabletop.systems.ap2d6 import action_cost

    combat, events = act(combat, "Ayla", action_cost("(1n1)->(2n1)"), kind="attack")
    assert "attack #2" in events[0].summary and "(2n1)" in events[0].summary


@settings(max_examples=tried(30), deadline=None)
@given(
    seed=st.integers(0, 10**6),
    hp=st.lists(st.integers(-3, 6), min_size=1, max_size=3),
    poison=st.integers(0, 3),
    picks=st.lists(st.tuples(st.integers(0, 50), st.integers(1, 3)), max_size=40),
)
def test_every_choice_the_open_decision_offers_is_taken(seed, hp, poison, picks) -> None:
    """RU-M16..RU-M25, RU-M38: a bot taking any offered choice (spending any amount up to
    what is offered) is never refused, and the fight round-trips through JSON."""
    sheets = [
        poisoned(f"P{i}", hp=points, con=i % 2, **({"poison": poison} if poison else {}))
        for i, points in enumerate(hp)
    ]
    combat, dice = Combat(characters=tuple(sheets)), SeededDice(seed)
    for pick, returns_in in picks:
        choices = open_decision(combat).choices
        choice = choices[pick % len(choices)]
        if choice.kind == "begin-round":
            combat, _ = begin_round(combat, dice)
        elif choice.kind == "main-phase":
            combat, _ = start_main_phase(combat)
        elif choice.kind == "spend":
            ap = 1 + pick % combat.character(choice.who).tracker.spendable
            combat, _ = act(combat, choice.who, action_cost(f"({ap}n{returns_in})"))
        elif choice.kind == "wait":
            combat, _ = tracker_change(combat, choice.who, "wait")
        elif choice.kind == "death-check":
            combat, _ = death_check(combat, choice.who, dice)
        else:
            combat, _ = check_on(combat, choice.who, dice)
        assert Combat.model_validate_json(combat.model_dump_json()) == combat
