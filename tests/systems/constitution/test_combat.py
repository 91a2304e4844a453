"""Combat as a state machine (article 5): C3-T13 and every move of the initiative economy."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.dice import FixedDice, SeededDice
from tabletop.systems.constitution import Combat, Combatant, ConstitutionError, Options, apply
from tabletop.systems.constitution.combat import (
    Add,
    AnswerDirectHit,
    AnswerShield,
    AttackAction,
    Begin,
    Command,
    DeclareSpell,
    Defend,
    EndCombat,
    EndTurn,
    ExtraAction,
    ForceBout,
    LoseTrack,
    MoraleCheck,
    NextRound,
    React,
    ReleaseStored,
    Reorient,
    RollInitiative,
    SetInitiative,
    Spend,
    Tactical,
    legal_actions,
)
from tests.effort import tried

NO_DICE = FixedDice([])


def fight(*combatants: Combatant, initiative: dict[str, int]) -> Combat:
    """A combat set up with the given combatants and initiative scores, round 1 begun."""
    combat = Combat()
    for combatant in combatants:
        combat, _ = apply(combat, Add(combatant=combatant), NO_DICE)
    for combatant_id, value in initiative.items():
        combat, _ = apply(combat, SetInitiative(id=combatant_id, value=value), NO_DICE)
    combat, _ = apply(combat, Begin(), NO_DICE)
    return combat


def fighter(cid: str, side: str = "party", **stats: object) -> Combatant:
    return Combatant(id=cid, name=cid, side=side, **stats)


def abc() -> Combat:
    return fight(
        fighter("A"), fighter("B"), fighter("C", "foes"), initiative={"A": 23, "B": 15, "C": 9}
    )


def scores(combat: Combat) -> dict[str, int | None]:
    return {c.id: c.initiative for c in combat.combatants}


def test_c3_t13_the_initiative_economy():
    """§ 5.1–5.9, C3-T13: order, superior turn, reactions, a forced bout, disorientation."""
    combat = abc()
    assert combat.acting == "A" and combat.superior == ("A",)
    combat, _ = apply(combat, EndTurn(superior=True), NO_DICE)
    assert scores(combat)["A"] == 13 and combat.acting == "B"
    combat, _ = apply(combat, React(id="C", cost=2, what="shield"), NO_DICE)
    combat, _ = apply(combat, EndTurn(), NO_DICE)
    assert combat.acting == "A"  # A's second turn at 13 comes before C at 7
    combat, _ = apply(combat, React(id="B", cost=5, what="attack"), NO_DICE)
    assert scores(combat) == {"A": 13, "B": 10, "C": 7}
    combat, _ = apply(combat, EndTurn(), NO_DICE)
    assert combat.acting == "C"
    combat, events = apply(combat, EndTurn(), NO_DICE)
    assert combat.phase == "between_rounds" and events[-1].kind == "round_end"
    combat, _ = apply(combat, ForceBout(), NO_DICE)
    assert scores(combat) == {"A": 3, "B": 0, "C": 0}
    assert combat.phase == "round" and combat.forced
    assert combat.get("B").disoriented and combat.get("C").disoriented
    with pytest.raises(ConstitutionError, match="cannot react"):
        apply(combat, React(id="B", cost=2), NO_DICE)
    combat, _ = apply(combat, EndTurn(), NO_DICE)
    assert combat.phase == "between_rounds"  # the bout goes on: A is still above 0
    combat, events = apply(combat, ForceBout(), NO_DICE)
    assert events[-1].kind == "bout_over" and scores(combat) == {"A": 0, "B": 0, "C": 0}


def test_c3_a50_a_spent_bout_ends_the_bout_not_the_fight():
    """§ 5.8, § 5.1, docs/rules C3-A50: when forcing the bout on leaves everyone at 0 they
    break apart into the respite, and re-orient (penalty die at 0, § 5.9) to fight on."""
    combat = fight(fighter("A"), fighter("B", "foes"), initiative={"A": 12, "B": 4})
    for _ in range(2):
        combat, _ = apply(combat, EndTurn(), NO_DICE)
    combat, _ = apply(combat, ForceBout(), NO_DICE)
    assert combat.phase == "round" and combat.forced and scores(combat) == {"A": 2, "B": 0}
    combat, _ = apply(combat, EndTurn(), NO_DICE)
    combat, events = apply(combat, ForceBout(), NO_DICE)
    assert events[-1].kind == "bout_over" and scores(combat) == {"A": 0, "B": 0}
    assert combat.phase == "between_rounds"
    legal = legal_actions(combat)
    assert ForceBout() not in legal and EndCombat() in legal and Reorient(id="B") in legal
    with pytest.raises(ConstitutionError, match="everyone is at 0"):
        apply(combat.evolve(respite_taken=False), ForceBout(), NO_DICE)
    combat, _ = apply(combat, Reorient(id="A"), FixedDice([3, 16]))
    assert combat.get("A").initiative == 13  # 2d20!kl1 → 3, + wits 10
    combat, _ = apply(combat, NextRound(), NO_DICE)
    assert combat.round == 3 and combat.phase == "between_rounds"  # only reactions for A
    combat, _ = apply(combat, NextRound(), NO_DICE)
    assert combat.round == 4 and combat.acting == "A"


def test_c3_a47_the_superior_turn_needs_initiative_left_after_the_ten():
    """§ 5.3, docs/rules C3-A41 and C3-A47: a turn at initiative 0 is no turn, so a superior
    combatant at 10 or less cannot buy one."""
    combat = fight(fighter("A"), fighter("B", "foes"), initiative={"A": 10, "B": 4})
    assert combat.superior == () and EndTurn(superior=True) not in legal_actions(combat)
    with pytest.raises(ConstitutionError, match="superior"):
        apply(combat, EndTurn(superior=True), NO_DICE)
    with pytest.raises(ConstitutionError, match="no initiative left"):
        apply(combat.evolve(superior=("A",)), EndTurn(superior=True), NO_DICE)
    combat = fight(fighter("A"), fighter("B", "foes"), initiative={"A": 20, "B": 4})
    combat, _ = apply(combat, ExtraAction(), NO_DICE)
    assert combat.superior == ("A",) and combat.get("A").initiative == 10
    assert EndTurn(superior=True) not in legal_actions(combat)  # spent down to 10 this round
    combat = fight(fighter("A"), fighter("B", "foes"), initiative={"A": 11, "B": 4})
    assert EndTurn(superior=True) in legal_actions(combat)
    combat, _ = apply(combat, EndTurn(superior=True), NO_DICE)
    assert combat.acting == "B" and combat.get("A").turns_left == 1


def test_c3_a12_a_tie_for_highest_gives_nobody_the_superior_turn():
    """C3-A12 option superior_initiative_ties."""
    combat = fight(fighter("A"), fighter("B", "foes"), initiative={"A": 15, "B": 15})
    assert combat.superior == ()
    with pytest.raises(ConstitutionError, match="superior"):
        apply(combat, EndTurn(superior=True), NO_DICE)
    generous = Options(superior_initiative_ties="all_tied")
    tied = Combat()
    for c in (fighter("A"), fighter("B", "foes")):
        tied, _ = apply(tied, Add(combatant=c), NO_DICE)
    for cid in "AB":
        tied, _ = apply(tied, SetInitiative(id=cid, value=15), NO_DICE)
    tied, _ = apply(tied, Begin(), NO_DICE, generous)
    assert tied.superior == ("A", "B")


def test_the_superior_turn_is_lost_once_the_turn_ends_without_it():
    """§ 5.3: the −10 is taken after the turn, not later in the round."""
    combat = abc()
    combat, _ = apply(combat, EndTurn(), NO_DICE)
    assert combat.superior == ()


def test_c3_a13_overspending_clamps_to_zero_or_is_refused():
    combat = abc()
    combat, _ = apply(combat, React(id="C", cost=10), NO_DICE)
    assert scores(combat)["C"] == 0
    strict = Options(overspend_initiative="refuse")
    combat, _ = apply(abc(), React(id="B", cost=10), NO_DICE, strict)
    with pytest.raises(ConstitutionError, match="has 5 initiative"):
        apply(combat, React(id="B", cost=10), NO_DICE, strict)


def test_reactions_cost_two_five_or_ten_only():
    """§ 5.4."""
    with pytest.raises(ConstitutionError, match="2, 5 or 10"):
        apply(abc(), React(id="B", cost=3), NO_DICE)


def test_the_acting_combatant_buys_an_extra_action_not_a_reaction():
    """§ 5.2–5.4: a reaction answers someone else's action."""
    with pytest.raises(ConstitutionError, match="extra action"):
        apply(abc(), React(id="A", cost=2), NO_DICE)


def test_c3_a14_an_extra_action_costs_ten_and_five_with_bow_training():
    """§ 5.2, § 7.8, C3-A14."""
    combat, _ = apply(abc(), ExtraAction(), NO_DICE)
    assert scores(combat)["A"] == 13 and "A" in combat.permits
    with pytest.raises(ConstitutionError, match="bow training"):
        apply(abc(), ExtraAction(bow=True), NO_DICE)
    archer = fight(
        fighter("A", bow_training=True), fighter("B", "foes"), initiative={"A": 20, "B": 5}
    )
    archer, _ = apply(archer, ExtraAction(bow=True), NO_DICE)
    assert scores(archer)["A"] == 15


def test_c3_a13_at_zero_there_is_nothing_left_to_buy_with():
    """§ 5.2, § 5.9, docs/rules C3-A13: paying more than one has leaves 0, but at 0 no
    extra action (and no physical action between rounds) can be bought for nothing."""
    combat = fight(fighter("A"), fighter("B", "foes", hp=50), initiative={"A": 3, "B": 1})
    combat, _ = apply(combat, ExtraAction(), NO_DICE)
    assert scores(combat)["A"] == 0 and "A" in combat.permits
    combat, _ = apply(combat, AttackAction(attacker="A", target="B"), FixedDice([3]))
    combat, _ = apply(combat, AttackAction(attacker="A", target="B"), FixedDice([3]))
    assert ExtraAction() not in legal_actions(combat)
    with pytest.raises(ConstitutionError, match="nothing to spend"):
        apply(combat, ExtraAction(), NO_DICE)
    for _ in range(2):
        combat, _ = apply(combat, EndTurn(), NO_DICE)
    assert Spend(id="A", cost=2) not in legal_actions(combat)
    with pytest.raises(ConstitutionError, match="nothing to spend"):
        apply(combat, Spend(id="A", cost=2), NO_DICE)


def test_an_attack_needs_the_turn_or_paid_initiative():
    """§ 5.2: one action at one's count; more must be bought with initiative."""
    combat = abc()
    with pytest.raises(ConstitutionError, match="needs the combatant's turn"):
        apply(combat, AttackAction(attacker="C", target="A"), NO_DICE)
    combat, _ = apply(combat, React(id="C", cost=5, what="attack"), NO_DICE)
    combat, events = apply(combat, AttackAction(attacker="C", target="A"), FixedDice([3]))
    assert events[0].kind == "attack" and "C" not in combat.permits
    combat, _ = apply(combat, AttackAction(attacker="A", target="C"), FixedDice([3]))
    with pytest.raises(ConstitutionError):
        apply(combat, AttackAction(attacker="A", target="C"), FixedDice([3]))


def test_c3_m30_attack_is_a_strength_check_against_ac_and_hits_roll_d6():
    """§ 5.14, § 5.18, § 7.1: STR 12 + fighter 2 vs AC 22; [8] = 22 hits; d6 [4]."""
    combat = fight(
        fighter("A", strength=12, fighter_level=2),
        fighter("B", "foes", ac=22, hp=6),
        initiative={"A": 20, "B": 10},
    )
    combat, events = apply(combat, AttackAction(attacker="A", target="B"), FixedDice([8, 4]))
    assert combat.get("B").hp == 2
    assert [e.kind for e in events] == ["attack", "damage_roll", "damage"]


def test_c3_m42_damage_past_hp_rolls_the_injury_saves_in_combat():
    """§ 6.6–6.8: HP 1, damage 5 → DC 24; strength [3] fails → major wound; will [2] → down."""
    combat = fight(fighter("A"), fighter("B", "foes", hp=1), initiative={"A": 20, "B": 10})
    combat, events = apply(combat, AttackAction(attacker="A", target="B"), FixedDice([15, 5, 3, 2]))
    told = [(e.kind, e.message) for e in events]
    assert ("wound", "B: major wound") in told and ("collapsed", "B collapses") in told
    assert combat.get("B").status == "down" and combat.get("B").major_wound_marks == 1


def test_each_number_of_a_blow_says_whose_it_is():
    """C3-N05: the tracker's lines read as the referee reads them, and tell by combatant id
    whose each number is, so a table can keep one combatant's: the attack's dice, total and
    degrees are A's, the AC (and DC) B's; the damage B takes is both A's roll and B's loss;
    B's HP, saves and wound are B's; that A hit and that B collapses are anyone's."""
    combat = fight(fighter("A"), fighter("B", "foes", hp=1), initiative={"A": 20, "B": 10})
    combat, events = apply(combat, AttackAction(attacker="A", target="B"), FixedDice([15, 5, 3, 2]))
    told = [
        (e.message, e.roller, [(e.message[p.start : p.end], p.owners) for p in e.parts])
        for e in events
    ]
    strength = "B's strength save: 1d20! → [3] = 3; 3 + 10 = 13 vs DC 24: failure, 3 degrees"
    will = "B's will save: 1d20! → [2] = 2; 2 + 10 = 12 vs DC 24: failure, 3 degrees"
    assert told == [
        (
            "A attacks B (AC 20): 1d20! → [15] = 15; 15 + 10 = 25 vs DC 20: success, 2 degrees",
            "A",
            [
                ("20", ("B",)),
                ("1d20! → [15] = 15; 15 + 10 = 25", ("A",)),
                ("20", ("B",)),
                ("2 degrees", ("A",)),
            ],
        ),
        ("A has extra degrees to spend on B (§ 5.19): 1", None, [("1", ("A",))]),
        ("A's damage 1d6 → [5] = 5", "A", [("1d6 → [5] = 5", ("A",))]),
        ("B takes 5: HP 0", None, [("5", ("B", "A")), ("0", ("B",))]),
        (strength, "B", [(strength, ("B",))]),
        (will, "B", [(will, ("B",))]),
        ("B: major wound", None, [("B: major wound", ("B",))]),
        ("B collapses", None, []),
    ]


def test_c3_m35_a_direct_hit_waits_for_the_defender_to_pay_or_take_it():
    """§ 5.20, § 6.12: beating AC 20 by 20 (10 + [20, 10] = 40)."""
    combat = fight(fighter("A"), fighter("B", "foes", hp=12), initiative={"A": 20, "B": 10})
    combat, events = apply(combat, AttackAction(attacker="A", target="B"), FixedDice([20, 10, 3]))
    assert combat.pending_direct_hit is not None and events[-1].kind == "direct_hit"
    assert "(3 damage)" in events[-1].message and "at DC 23" in events[-1].message
    assert legal_actions(combat) == [AnswerDirectHit(pay=False), AnswerDirectHit(pay=True)]
    with pytest.raises(ConstitutionError, match="answer the direct hit"):
        apply(combat, EndTurn(), NO_DICE)
    paid, _ = apply(combat, AnswerDirectHit(pay=True), NO_DICE)
    assert paid.get("B").hp == 2 and paid.pending_direct_hit is None
    taken, events = apply(combat, AnswerDirectHit(pay=False), FixedDice([15, 15]))
    assert taken.get("B").hp == 12
    assert "DC 23" in events[0].message  # C3-A16: 20 + the 3 damage


def test_c3_m32_active_defence_as_main_action_lasts_the_round():
    """§ 5.17: STR 10 [15] → 25 > AC 20 for the rest of the round."""
    combat = abc()
    combat, _ = apply(combat, Defend(id="A"), FixedDice([15]))
    assert combat.get("A").current_ac == 25
    with pytest.raises(ConstitutionError, match="shield or training"):
        apply(combat, React(id="C", cost=2) and Defend(id="C"), NO_DICE)


def test_c3_m32_defence_as_a_reaction_covers_one_attack():
    combat = fight(
        fighter("A"),
        fighter("B", "foes", can_defend_as_reaction=True),
        initiative={"A": 20, "B": 10},
    )
    combat, _ = apply(combat, React(id="B", cost=2, what="shield"), NO_DICE)
    combat, _ = apply(combat, Defend(id="B"), FixedDice([18]))
    assert combat.get("B").current_ac == 28
    combat, events = apply(combat, AttackAction(attacker="A", target="B"), FixedDice([17]))
    assert "vs DC 28" in events[0].message and combat.get("B").current_ac == 20


def test_c3_m28_henchmen_are_at_1_and_act_on_a_command():
    """§ 5.11: a henchman acts at the commander's value instead of at 1; a proper
    follower pays 10; ordering outside one's turn costs 5 (§ 5.4)."""
    combat = fight(
        fighter("Boss", "foes"),
        fighter("Grunt", "foes", henchman=True, commander="Boss"),
        fighter("Sworn", "foes", commander="Boss"),
        fighter("Hero"),
        initiative={"Boss": 18, "Sworn": 12, "Hero": 15},
    )
    assert combat.get("Grunt").initiative == 1
    combat, _ = apply(combat, Command(commander="Boss", followers=("Grunt",)), NO_DICE)
    assert combat.get("Grunt").turns_left == 0 and "Grunt" in combat.permits
    combat, _ = apply(combat, Command(commander="Boss", followers=("Sworn",)), NO_DICE)
    assert combat.get("Sworn").initiative == 2
    with pytest.raises(ConstitutionError, match="does not take orders"):
        apply(combat, Command(commander="Hero", followers=("Grunt",)), NO_DICE)
    with pytest.raises(ConstitutionError, match="always 1"):
        apply(
            Combat(combatants=(combat.get("Grunt").evolve(initiative=None, commander=None),)),
            RollInitiative(id="Grunt"),
            NO_DICE,
        )


def test_c3_a52_one_order_out_of_turn_costs_the_commander_five_for_all_its_followers():
    """§ 5.4 ("take −5 to order subordinates to attack"), § 5.11, docs/rules C3-A52: out of
    the commander's turn one order sends several followers for a single −5; a proper
    follower still pays 10 for acting on it, and one at 0 cannot (§ 5.9)."""
    combat = fight(
        fighter("Hero"),
        fighter("Boss", "foes"),
        fighter("G1", "foes", henchman=True, commander="Boss"),
        fighter("G2", "foes", henchman=True, commander="Boss"),
        fighter("Sworn", "foes", commander="Boss"),
        initiative={"Hero": 20, "Boss": 15, "Sworn": 12},
    )
    order = Command(commander="Boss", followers=("G1", "G2", "Sworn"))
    combat, events = apply(combat, order, NO_DICE)
    assert scores(combat) == {"Hero": 20, "Boss": 10, "G1": 1, "G2": 1, "Sworn": 2}
    assert [e.kind for e in events] == ["order", "command", "command", "command"]
    assert combat.permits == ("G1", "G2", "Sworn")
    with pytest.raises(ConstitutionError, match="already acted"):
        apply(combat, Command(commander="Boss", followers=("G1",)), NO_DICE)
    spent = combat.replace(combat.get("Sworn").evolve(initiative=0))
    with pytest.raises(ConstitutionError, match="cannot react"):
        apply(spent, Command(commander="Boss", followers=("Sworn",)), NO_DICE)
    with pytest.raises(ValueError, match="named once"):
        Command(commander="Boss", followers=("G1", "G1"))


def test_c3_m28_a_henchman_reorients_to_1_without_rolling():
    """§ 5.11 (henchmen never roll initiative), § 5.6, docs/rules C3-A46: a henchman at 0
    after a forced bout re-orients back to 1; no die is rolled."""
    combat = fight(
        fighter("Boss", "foes"),
        fighter("Grunt", "foes", henchman=True, commander="Boss"),
        fighter("Hero"),
        initiative={"Boss": 18, "Hero": 15},
    )
    for _ in range(3):
        combat, _ = apply(combat, EndTurn(), NO_DICE)
    combat, _ = apply(combat, ForceBout(), NO_DICE)
    assert combat.get("Grunt").initiative == 0
    for _ in range(2):
        combat, _ = apply(combat, EndTurn(), NO_DICE)
    combat, events = apply(combat, Reorient(id="Grunt"), NO_DICE)
    assert combat.get("Grunt").initiative == 1 and events[0].dice == ()


def test_a_commander_must_join_before_their_followers():
    """§ 5.11: an order needs a superior in the fight; a dangling name is refused at once."""
    with pytest.raises(ConstitutionError, match="must join the fight first"):
        apply(Combat(), Add(combatant=fighter("Grunt", commander="Boss")), NO_DICE)


@pytest.mark.parametrize(
    "change",
    [
        {"acting": "ghost"},
        {"permits": ["ghost"]},
        {"superior": ["ghost"]},
        {"phase": "between_rounds"},
    ],
)
def test_a_fight_that_names_someone_absent_is_refused(change):
    """A saved fight is checked whole: every id it mentions must be a combatant."""
    data = {**abc().model_dump(mode="json"), **change}
    with pytest.raises(ValueError, match=r"not in the fight|nobody takes a turn"):
        Combat.model_validate(data)
    twins = {**abc().model_dump(mode="json")}
    twins["combatants"] = [twins["combatants"][0]] * 2
    with pytest.raises(ValueError, match="share an id"):
        Combat.model_validate(twins)


def test_c3_m23_reorienting_rerolls_with_a_penalty_die_at_zero_and_skips_the_turn():
    """§ 5.6, § 5.9."""
    combat = abc()
    combat, _ = apply(combat, React(id="C", cost=10), NO_DICE)
    for _ in range(3):
        combat, _ = apply(combat, EndTurn(), NO_DICE)
    assert combat.phase == "between_rounds" and combat.get("C").disoriented
    combat, events = apply(combat, Reorient(id="C"), FixedDice([4, 17]))
    assert events[0].dice[0].expression == "2d20!kl1" and combat.get("C").initiative == 14
    combat, _ = apply(combat, NextRound(), NO_DICE)
    assert combat.get("C").turns_left == 0
    with pytest.raises(ConstitutionError):
        apply(combat, ForceBout(), NO_DICE)


def test_c3_m25_a_bout_cannot_be_forced_once_the_respite_is_used():
    """§ 5.8: no between-round actions in a forced bout."""
    combat = abc()
    for _ in range(3):
        combat, _ = apply(combat, EndTurn(), NO_DICE)
    combat, _ = apply(combat, Spend(id="A", cost=2, what="drink a potion"), NO_DICE)
    with pytest.raises(ConstitutionError, match="respite"):
        apply(combat, ForceBout(), NO_DICE)


def test_c3_g07_a_forced_bout_may_cost_hp():
    combat = fight(fighter("A", hp=5), fighter("B", "foes", hp=5), initiative={"A": 25, "B": 20})
    for _ in range(2):
        combat, _ = apply(combat, EndTurn(), NO_DICE)
    combat, _ = apply(combat, ForceBout(), FixedDice([2, 3]), Options(forced_bout_hp_loss="1d3"))
    assert (combat.get("A").hp, combat.get("B").hp) == (3, 2)


def test_c3_m27_surprise_variants_of_initiative():
    """§ 5.10: advantage die, wits + 20, penalty die, or 0."""
    combat = Combat()
    for cid in ("Amb", "Adv", "Pen", "Flat"):
        combat, _ = apply(combat, Add(combatant=fighter(cid, wits=10)), NO_DICE)
    combat, _ = apply(combat, RollInitiative(id="Amb", surprise="ambush"), NO_DICE)
    combat, _ = apply(combat, RollInitiative(id="Adv", surprise="advantage"), FixedDice([3, 12]))
    combat, _ = apply(combat, RollInitiative(id="Pen", surprise="penalty"), FixedDice([3, 12]))
    combat, _ = apply(combat, RollInitiative(id="Flat", surprise="flat_footed"), NO_DICE)
    assert scores(combat) == {"Amb": 30, "Adv": 22, "Pen": 13, "Flat": 0}
    combat, _ = apply(combat, Begin(), NO_DICE)
    assert combat.get("Flat").turns_left == 0


def test_c3_m18_initiative_is_d20_plus_wits_plus_fighter_level_and_explodes():
    """§ 5.1, § 7.1, C3-A07."""
    combat, _ = apply(Combat(), Add(combatant=fighter("F", wits=11, fighter_level=2)), NO_DICE)
    combat, _ = apply(combat, RollInitiative(id="F"), FixedDice([20, 4]))
    assert combat.get("F").initiative == 37


def test_c3_m37_stored_shots_are_released_when_the_target_takes_damage():
    """§ 5.22."""
    combat = fight(
        fighter("Archer"),
        fighter("Knight"),
        fighter("Orc", "foes", hp=9),
        initiative={"Archer": 20, "Knight": 15, "Orc": 5},
    )
    combat, _events = apply(
        combat,
        AttackAction(attacker="Archer", target="Orc", ranged=True, store=True),
        FixedDice([12]),
    )
    assert combat.get("Orc").hp == 9 and len(combat.get("Archer").stored) == 1
    with pytest.raises(ConstitutionError, match="released when"):
        apply(combat, ReleaseStored(shooter="Archer"), NO_DICE)
    combat, _ = apply(combat, EndTurn(), NO_DICE)
    combat, _ = apply(combat, AttackAction(attacker="Knight", target="Orc"), FixedDice([12, 2]))
    combat, _ = apply(combat, ReleaseStored(shooter="Archer"), FixedDice([5]))
    assert combat.get("Orc").hp == 2 and combat.get("Archer").stored == ()
    combat, _ = apply(combat, LoseTrack(shooter="Archer"), NO_DICE)


def test_c3_m37_a_stored_shot_joins_damage_only_as_it_is_dealt():
    """§ 5.22: the stored damage is added when the target takes damage, not at any time
    after the target was last hurt."""
    combat = fight(
        fighter("Archer"),
        fighter("Knight"),
        fighter("Orc", "foes", hp=9),
        initiative={"Archer": 20, "Knight": 15, "Orc": 5},
    )
    shot = AttackAction(attacker="Archer", target="Orc", ranged=True, store=True)
    combat, _ = apply(combat, shot, FixedDice([12]))
    combat, _ = apply(combat, EndTurn(), NO_DICE)
    combat, _ = apply(combat, AttackAction(attacker="Knight", target="Orc"), FixedDice([12, 2]))
    assert ReleaseStored(shooter="Archer") in legal_actions(combat)
    later, _ = apply(combat, EndTurn(), NO_DICE)
    assert ReleaseStored(shooter="Archer") not in legal_actions(later)
    with pytest.raises(ConstitutionError, match="released when"):
        apply(later, ReleaseStored(shooter="Archer"), FixedDice([5]))


def test_c3_a35_firing_into_melee_rolls_a_d10_after_the_hit():
    """§ 5.21: from the side 6 in 10 hits the chosen target; aiming adds up to 2."""
    combat = fight(
        fighter("Archer"),
        fighter("Ally", hp=5),
        fighter("Orc", "foes", hp=5),
        initiative={"Archer": 20, "Ally": 10, "Orc": 5},
    )
    shot = AttackAction(attacker="Archer", target="Orc", into_melee="side", other_target="Ally")
    hit_ally, _ = apply(combat, shot, FixedDice([15, 7, 3]))
    assert hit_ally.get("Ally").hp == 2 and hit_ally.get("Orc").hp == 5
    aimed = shot.model_copy(update={"aimed_tenths": 2})
    hit_orc, _ = apply(combat, aimed, FixedDice([15, 8, 3]))
    assert hit_orc.get("Orc").hp == 2


def test_c3_m29_a_failed_morale_check_breaks_the_combatant():
    """§ 5.13: 2d6 at or under morale holds."""
    combat = fight(fighter("A"), fighter("Orc", "foes", morale=7), initiative={"A": 20, "Orc": 5})
    held, _ = apply(combat, MoraleCheck(id="Orc"), FixedDice([3, 4]))
    assert held.get("Orc").fighting
    fled, _ = apply(combat, MoraleCheck(id="Orc"), FixedDice([4, 4]))
    assert fled.get("Orc").status == "fled"
    with pytest.raises(ConstitutionError, match="no morale"):
        apply(combat, MoraleCheck(id="A"), NO_DICE)


def test_c3_m24_a_declared_spell_goes_off_on_the_casters_turn():
    """§ 5.7."""
    combat = abc()
    for _ in range(3):
        combat, _ = apply(combat, EndTurn(), NO_DICE)
    combat, _ = apply(combat, DeclareSpell(id="A", spell="Sleep"), NO_DICE)
    combat, events = apply(combat, NextRound(), NO_DICE)
    assert events[-1].kind == "spell" and combat.get("A").casting is None


def test_c3_m49_a_tactician_has_one_free_tactical_action_a_round():
    """§ 7.3."""
    combat = fight(fighter("T", tactician=True), fighter("B", "foes"), initiative={"T": 5, "B": 9})
    combat, _ = apply(combat, Tactical(id="T"), NO_DICE)
    with pytest.raises(ConstitutionError, match="used this round"):
        apply(combat, Tactical(id="T"), NO_DICE)
    with pytest.raises(ConstitutionError, match="no tactician"):
        apply(combat, Tactical(id="B"), NO_DICE)


def test_illegal_moves_change_nothing_and_the_combat_round_trips_through_json():
    combat = abc()
    before = combat.model_dump_json()
    for bad in (Begin(), NextRound(), EndCombat(), Reorient(id="A"), React(id="Z", cost=2)):
        with pytest.raises(ConstitutionError):
            apply(combat, bad, NO_DICE)
    assert combat.model_dump_json() == before
    assert Combat.model_validate_json(before) == combat
    with pytest.raises(ConstitutionError, match="already a combatant"):
        apply(Combat(combatants=(fighter("A"),)), Add(combatant=fighter("A")), NO_DICE)


def test_c3_a13_when_overspending_is_refused_only_what_can_be_paid_is_offered():
    """§ 5.2, § 5.4, § 5.5, § 5.11, docs/rules C3-A13: under `overspend_initiative="refuse"`
    a cost above the initiative left is not offered, so nothing offered is then refused."""
    strict = Options(overspend_initiative="refuse")
    combat = fight(
        fighter("A", tactician=True),
        fighter("B", "foes"),
        fighter("C", "foes", commander="B"),
        initiative={"A": 8, "B": 4, "C": 12},
    )
    assert combat.acting == "C"
    legal = legal_actions(combat, strict)
    assert React(id="B", cost=2) in legal and React(id="B", cost=5) not in legal
    assert React(id="A", cost=5) in legal and React(id="A", cost=10) not in legal
    assert ExtraAction() in legal  # C at 12 can pay 10
    with pytest.raises(ConstitutionError, match="has 4 initiative, not the 5"):
        apply(combat, React(id="B", cost=5), NO_DICE, strict)
    assert React(id="B", cost=10) in legal_actions(combat)  # clamped by default: B ends at 0
    combat, _ = apply(combat, ExtraAction(), NO_DICE, strict)
    assert ExtraAction() not in legal_actions(combat, strict)  # 2 left
    combat, _ = apply(combat, EndTurn(), NO_DICE, strict)
    assert combat.acting == "A"
    order = Command(commander="B", followers=("C",))
    assert order not in legal_actions(combat, strict)  # C has 2, not the 10 to act on it
    assert order in legal_actions(combat)
    for _ in range(2):
        combat, _ = apply(combat, EndTurn(), NO_DICE, strict)
    assert combat.phase == "between_rounds"
    respite = legal_actions(combat, strict)
    assert Spend(id="C", cost=2) in respite and Spend(id="B", cost=2) in respite
    combat, _ = apply(combat, Spend(id="C", cost=2), NO_DICE, strict)
    assert Spend(id="C", cost=2) not in legal_actions(combat, strict)  # at 0 now


@settings(max_examples=tried(60))
@given(
    seed=st.integers(0, 10**6),
    choices=st.lists(st.integers(0, 10**6), max_size=60),
    overspend=st.sampled_from(["clamp", "refuse"]),
)
def test_any_sequence_of_legal_actions_keeps_the_fight_valid(seed, choices, overspend):
    """A bot picking among `legal_actions` never hits an error, under either reading of
    overspending (C3-A13), and initiative never goes below 0."""
    options = Options(overspend_initiative=overspend)
    dice = SeededDice(seed)
    combat = Combat()
    for combatant in (
        fighter("A", hp=6, tactician=True),
        fighter("B", hp=4, can_defend_as_reaction=True),
        fighter("C", "foes", hp=5, morale=7),
        fighter("D", "foes", hp=3, henchman=True, commander="C"),
        fighter("E", "foes", hp=3, commander="C"),
    ):
        combat, _ = apply(combat, Add(combatant=combatant), dice)
    for choice in choices:
        everything = legal_actions(combat, options)
        offered = [a for a in everything if not isinstance(a, EndCombat)] or everything
        if not offered:
            assert combat.phase == "over"
            break
        combat, _ = apply(combat, offered[choice % len(offered)], dice, options)
        assert all((c.initiative or 0) >= 0 for c in combat.combatants)
        assert Combat.model_validate_json(combat.model_dump_json()) == combat


def test_c3_m31_blind_constrained_or_unaware_targets_are_easier_to_hit():
    """§ 5.15: −5 blind, −5 constrained, −10 unaware, for that attack."""
    combat = fight(fighter("A"), fighter("B", "foes", ac=26), initiative={"A": 20, "B": 10})
    sneak = AttackAction(attacker="A", target="B", target_unaware=True, target_blind=True)
    combat, events = apply(combat, sneak, FixedDice([1, 1]))
    assert "(AC 11)" in events[0].message and combat.get("B").current_ac == 26


def test_a_character_sheet_joins_a_fight():
    """§ 7.1, § 7.3, § 7.5, § 7.8: fighter level, tactician, bow training, two-handed d8."""
    from .conftest import make_character

    sheet = make_character(
        name="Bryn",
        character_class="fighter",
        level=3,
        strength=14,
        hp=9,
        initiations=("tactician", "weapons_training", "bow_training"),
    )
    combatant = Combatant.of(sheet, ac=24, situations=frozenset({"two_handed"}))
    assert (combatant.fighter_level, combatant.hp, combatant.damage) == (3, 9, "1d8")
    assert combatant.tactician and combatant.bow_training


def shield_bearer(initiative: int = 10) -> Combat:
    """A (STR 10) against B, who carries a shield (can defend as a reaction), AC 20."""
    return fight(
        fighter("A"),
        fighter("B", "foes", hp=10, can_defend_as_reaction=True),
        initiative={"A": 20, "B": initiative},
    )


def test_c3_a55_a_shield_raised_after_the_roll_can_turn_a_hit_into_a_miss():
    """§ 5.4: "defend with a shield after the attack roll has been made" for 5 initiative.
    A rolls 17: 27 hits AC 20. B pays 5 and defends: 18 + 10 = 28, so 27 now misses."""
    combat, events = apply(shield_bearer(), AttackAction(attacker="A", target="B"), FixedDice([17]))
    assert combat.pending_shield is not None and events[-1].kind == "shield_after_roll"
    assert legal_actions(combat) == [
        AnswerShield(raise_shield=True),
        AnswerShield(raise_shield=False),
    ]
    with pytest.raises(ConstitutionError, match="first B answers the hit"):
        apply(combat, EndTurn(), NO_DICE)
    combat, events = apply(combat, AnswerShield(raise_shield=True), FixedDice([18]))
    assert combat.pending_shield is None
    assert combat.get("B").initiative == 5 and combat.get("B").hp == 10
    assert "against AC 28" in events[0].message and "failure" in events[0].message


def test_c3_a55_a_hit_that_beats_the_raised_shield_still_lands_with_fewer_degrees():
    """A rolls 19: 29 against AC 20. B's shield check, 15 + 10, raises it to 25: the hit
    stands, judged against 25, and its damage (4) is rolled only now."""
    combat, _ = apply(shield_bearer(), AttackAction(attacker="A", target="B"), FixedDice([19]))
    combat, events = apply(combat, AnswerShield(raise_shield=True), FixedDice([15, 4]))
    assert "against AC 25" in events[0].message
    assert combat.get("B").hp == 6 and events[-1].message == "B takes 4: HP 6"


def test_c3_a55_letting_the_roll_land_takes_the_damage_as_rolled():
    combat, _ = apply(shield_bearer(), AttackAction(attacker="A", target="B"), FixedDice([17]))
    combat, _ = apply(combat, AnswerShield(raise_shield=False), FixedDice([3]))
    assert combat.get("B").hp == 7 and combat.get("B").initiative == 10


def test_c3_a55_no_pause_when_the_target_cannot_pay_for_the_shield():
    """The −5 reaction must be bought: under the `refuse` reading of overspending (C3-A13)
    a target at 3 initiative cannot, so the attack lands at once (17 hits, 3 damage)."""
    refuse = Options(overspend_initiative="refuse")
    attack = AttackAction(attacker="A", target="B")
    combat, _ = apply(shield_bearer(3), attack, FixedDice([17, 3]), refuse)
    assert combat.pending_shield is None and combat.get("B").hp == 7
