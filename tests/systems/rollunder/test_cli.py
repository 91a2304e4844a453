"""`tabletop rollunder`: every verb, the odds JSON contract, options, and one-line errors."""

from __future__ import annotations

import io
import json
from fractions import Fraction
from pathlib import Path

import pytest

from tabletop.dice import SeededDice
from tabletop.systems.rollunder import DamageDice, Item, Load
from tabletop.systems.rollunder.odds import damage_odds
from tests.cli.helpers import run
from tests.systems.rollunder.helpers import hero


def ok_json(capsys, *args: str):  # type: ignore[no-untyped-def]
    result = run(capsys, "rollunder", *args, "--json")
    assert result.code == 0, result.err
    return json.loads(result.out)


def fails(capsys, *args: str, words: str) -> None:  # type: ignore[no-untyped-def]
    result = run(capsys, "rollunder", *args)
    assert result.code == 2, result.out
    assert words in result.err
    assert result.err.count("\n") == 1 and "Traceback" not in result.err


def test_roll_is_reproducible_with_a_seed_and_reports_pass_or_fail(capsys):
    first = ok_json(capsys, "roll", "--score", "12", "--seed", "5")
    assert first == ok_json(capsys, "roll", "--score", "12", "--seed", "5")
    face = first["events"][0]["values"]["face"]
    assert first["passed"] is (face <= 12)
    text = run(capsys, "rollunder", "roll", "--score", "12", "--seed", "5").out
    assert text.strip().endswith("pass" if first["passed"] else "fail")


def test_roll_levels_collective_and_encumbered(capsys):
    trivial = ok_json(capsys, "roll", "--score", "1", "--level", "trivial")
    assert trivial["passed"] and not trivial["rolled"]
    group = ok_json(capsys, "roll", "--score", "3", "--score", "15", "--seed", "1")
    assert group["events"][0]["values"]["score"] == 15
    heavy = ok_json(capsys, "roll", "--score", "20", "--strength", "20", "--seed", "1")
    assert [e["kind"] for e in heavy["events"]] == ["ability_roll", "strength_roll"]


def test_roll_spends_omens_only_on_failures(capsys):
    data = ok_json(capsys, "roll", "--score", "1", "--omens", "2", "--seed", "3")
    spent = sum(e["kind"] == "omen_spent" for e in data["events"])
    assert spent == data["omens_spent"]["roller"] <= 2
    assert data["passed"] or spent == 2


def test_contest_ranks_sides_and_teams(capsys):
    data = ok_json(capsys, "contest", "Ana=10", "Bo=12", "--seed", "4")
    assert sorted(name for place in data["places"] for name in place["sides"]) == ["Ana", "Bo"]
    teams = ok_json(capsys, "contest", "Red=10,8", "Blue=20,20", "--rolls", "2", "--seed", "1")
    assert teams["successes"]["Blue"] == 4
    assert "Red 1" in teams["omens_spent"]
    assert "ranking" in run(capsys, "rollunder", "contest", "A=5", "B=6", "--seed", "2").out


def test_damage_rolls_applies_armour_and_reports_critical_damage(capsys):
    data = ok_json(capsys, "damage", "d6", "--armour", "5", "--seed", "7")
    assert data["dealt"] == max(0, data["rolled"] - 3)
    assert data["roll"]["expression"] == "1d6!p:100"
    fixed = ok_json(capsys, "damage", "8", "--health", "10", "--max-health", "14", "--seed", "1")
    assert fixed["dealt"] == 8 and fixed["health"] == {"before": 10, "after": 2, "max": 14}
    assert fixed["critical"] == {"incapacitated": True, "injury": True, "permanent": False}
    assert fixed["injury"]["name"] in {
        "Item destroyed", "Disabled arm", "Disabled leg", "Disabled eye", "Instant death"
    }  # fmt: skip
    calm = ok_json(capsys, "damage", "3", "--direct", "--health", "10", "--max-health", "14")
    assert calm["critical"]["incapacitated"] is False and calm["injury"] is None


def test_damage_on_a_character_sheet_applies_everything(capsys, tmp_path):
    sheet = tmp_path / "ash.json"
    sheet.write_text(hero(health=14).model_dump_json(), encoding="utf-8")
    data = ok_json(capsys, "damage", "8", "--character", str(sheet), "--seed", "2", "--dry-run")
    assert data["character"]["health"] <= 6 and data["critical"]["injury"]
    text = run(capsys, "rollunder", "damage", "2", "--character", str(sheet)).out
    assert "Ash: health 12 of 14" in text


def _frail(tmp_path) -> str:  # type: ignore[no-untyped-def]
    sheet = tmp_path / "ash.json"
    load = Load(
        carry_limit=10,
        worn=(Item(name="clothes", bulk=1, kind="clothes"),),
        held=(Item(name="sword", bulk=2, kind="weapon"),),
    )
    data = hero(health=14, omens=2, max_omens=2, load=load).model_dump_json()
    sheet.write_text(data, encoding="utf-8")
    return str(sheet)


def _injury_faces(seed: int) -> int:
    """The d8 the hit of 15 rolls for its injury with this seed (the hit itself rolls none)."""
    return SeededDice(seed).roll(8)


def test_cr_m19a_ask_puts_each_decision_to_the_player_and_the_gm(capsys, tmp_path, monkeypatch):
    """§ Spending omens, § Critical damage (CR-A10): with --ask the player re-rolls the
    injury roll and keeps the result they choose, and the GM picks the destroyed item."""
    seed = next(s for s in range(50) if _injury_faces(s) == 1)  # Item destroyed
    monkeypatch.setattr("sys.stdin", io.StringIO("2\nkeep 1\nsword\n"))
    result = run(
        capsys, "rollunder", "damage", "15", "--character", _frail(tmp_path), "--ask",
        "--seed", str(seed), "--json",
    )  # fmt: skip
    assert result.code == 0, result.err
    sheet = json.loads(result.out)["character"]
    assert sheet["omens"] == 1  # one omen on the re-roll; the first result stood
    assert [item["name"] for item in sheet["load"]["held"]] == []
    assert "reroll Ash" in result.err and "GM decides" in result.err


def test_ask_refuses_on_end_of_input_or_endless_nonsense_and_changes_nothing(
    capsys, tmp_path, monkeypatch
):
    sheet = _frail(tmp_path)
    before = Path(sheet).read_text(encoding="utf-8")
    endless = (("nonsense\n" * 30, "no valid answer"), ("\u00b2\n" * 30, "no valid answer"))
    for given, words in (("", "before the end of input"), *endless):
        monkeypatch.setattr("sys.stdin", io.StringIO(given))
        result = run(capsys, "rollunder", "damage", "15", "--character", sheet, "--ask")
        assert result.code == 2 and result.out == ""
        assert result.err.splitlines()[-1].startswith("error: ") and words in result.err
        assert "Traceback" not in result.err
    assert Path(sheet).read_text(encoding="utf-8") == before
    fails(capsys, "damage", "d6", "--ask", words="--ask, --dry-run and --who are for a character")


def test_corruption_quick_and_on_a_sheet_with_a_mutation_table(capsys, tmp_path):
    data = ok_json(capsys, "corruption", "--total", "2", "--gain", "1", "--seed", "3")
    assert data["after"] == 3 - data["damage"]
    assert data["triggered"] is (data["roll"]["total"] <= 3)
    table = tmp_path / "mutations.toml"
    table.write_text(
        'name = "test"\ndice = "1d2"\n[[entries]]\nroll = "1-2"\nname = "Test mutation"\n',
        encoding="utf-8",
    )
    sheet = tmp_path / "ash.json"
    sheet.write_text(hero(health=5, max_health=10, corruption=20).model_dump_json(), "utf-8")
    for seed in range(6):
        done = ok_json(
            capsys, "corruption", "--character", str(sheet), "--mutations", str(table),
            "--seed", str(seed),
        )  # fmt: skip
        if done["critical"]["incapacitated"] and done["character"]["death"] is None:
            assert done["character"]["mutations"] == ["Test mutation"]
            break
    else:
        pytest.fail("no seed gave critical corruption damage")


def test_cr_a15_quick_corruption_gives_no_mutation_to_a_character_the_injury_kills(capsys):
    """§ Corruption, CR-A15: corruption 11 + 1 at health 4 of 4 is always critical with an
    injury roll; when that roll is instant death no mutation is rolled (the library's rule),
    and a disabling row names its ability loss."""
    seen = set()
    for seed in range(100):
        data = ok_json(
            capsys, "corruption", "--total", "11", "--health", "4", "--max-health", "4",
            "--seed", str(seed),
        )  # fmt: skip
        if not data["critical"]["incapacitated"]:
            continue
        injury = data["injury"]
        deadly = any(effect["kind"] == "death" for effect in injury["effects"])
        assert (data["mutation"] is None) is deadly
        seen.add(deadly)
        if len(seen) == 2:
            break
    assert seen == {True, False}


def test_the_options_switch_readings(capsys):
    old = ok_json(
        capsys, "--option", "corruption_roll_against=old_total", "corruption", "--total", "0",
        "--seed", "1",
    )  # fmt: skip
    assert old["against"] == 0 and not old["triggered"]
    fails(capsys, "--option", "nonsense=1", "roll", "--score", "3", words="there is no ")
    fails(capsys, "--option", "damage_pool=sometimes", "roll", "--score", "3", words="damage_pool")


def test_odds_damage_keeps_its_json_contract(capsys):
    data = ok_json(capsys, "odds", "damage", "--die", "d6")
    assert set(data) >= {"outcomes", "mean"}
    assert all(set(item) == {"value", "probability"} for item in data["outcomes"])
    assert data["outcomes"][0] == {"value": 1, "probability": pytest.approx(1 / 6)}
    assert sum(item["probability"] for item in data["outcomes"]) == pytest.approx(1.0)
    assert data["mean"] == 4.0
    assert "incapacitated" not in data
    exact = damage_odds(DamageDice(sides=6)).outcomes()
    assert [item["value"] for item in data["outcomes"]] == [v for v, _ in exact]
    assert data["outcomes"][-1]["probability"] == float(exact[-1][1])


def test_odds_damage_with_health_adds_the_three_threshold_probabilities(capsys):
    data = ok_json(
        capsys, "odds", "damage", "--die", "d8", "--armour", "1", "--health", "10",
        "--max-health", "14",
    )  # fmt: skip
    critical = damage_odds(DamageDice(sides=8), 1, exact_up_to=14).critical(10, 14)
    assert data["incapacitated"] == float(critical.incapacitated)
    assert data["injury"] == float(critical.injury)
    assert data["permanent"] == float(critical.permanent)
    assert data["mean"] == 4.0
    text = run(capsys, "rollunder", "odds", "damage", "--die", "d8", "--health", "10",
               "--max-health", "14").out  # fmt: skip
    assert "P(injury roll)" in text


def test_odds_damage_text_gives_the_exact_chance_of_at_least_each_value(capsys):
    """CR-P03: the '≥ damage' column is P(damage ≥ value) from the distribution, even where
    rarer values before it are not listed (5d20 starts at 5; 8 was shown at 100.0%)."""
    out = run(capsys, "rollunder", "odds", "damage", "--die", "5d20").out
    first = next(line for line in out.splitlines() if line.strip("│ ").startswith("8 "))
    assert ">99.9%" in first


def test_the_other_odds(capsys):
    ability = ok_json(capsys, "odds", "ability", "--score", "12", "--omens", "1")
    assert ability["exact"] == "21/25"
    heavy = ok_json(capsys, "odds", "ability", "--score", "12", "--strength", "10")
    assert Fraction(heavy["exact"]) == Fraction(12, 20) * Fraction(10, 20)
    contest = ok_json(capsys, "odds", "contest", "A=10", "B=12")
    assert contest["first"]["A"]["probability"] + contest["first"]["B"]["probability"] == 1
    injury = ok_json(capsys, "odds", "injury", "--omens", "1")
    assert injury["injuries"]["Instant death"]["exact"] == "1/64"
    once = ok_json(
        capsys, "--option", "omen_repeat_rerolls=false", "odds", "injury", "--omens", "3"
    )
    assert once["injuries"]["Instant death"]["exact"] == "1/64"  # CR-A10: one re-roll
    corruption = ok_json(
        capsys, "odds", "corruption", "--total", "4", "--health", "5", "--max-health", "10",
        "--gains", "5",
    )  # fmt: skip
    assert corruption["trigger"]["exact"] == "5/12"
    assert corruption["mutation"]["exact"] == "1/4"  # critical, never an injury: no death
    assert corruption["long_run_damage_per_gain"]["exact"] == "1/1"
    for args in (["ability", "--score", "9"], ["injury"], ["contest", "A=3", "B=4"],
                 ["corruption", "--total", "3", "--gains", "3"]):  # fmt: skip
        assert run(capsys, "rollunder", "odds", *args).code == 0


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["damage", "2x6"], "damage dice look like"),
        (["damage", "d6", "--health", "5"], "give both --health and --max-health"),
        (["damage", "d6", "--health", "15", "--max-health", "14"], "over the maximum"),
        (
            ["roll", "--score", "3", "--level", "easy"],
            "--level is trivial, challenging, impossible",
        ),
        (["roll", "--score", "3", "--score", "4", "--strength", "5"], "one roller"),
        (["contest", "Ana", "Bo=3"], "a side looks like"),
        (["contest", "Ana=3"], "2 to 20 sides"),
        (["corruption"], "give --total"),
        (["odds", "damage", "--die", "7"], "a fixed amount has no odds"),
        (["odds", "contest", *[f"S{n}=5" for n in range(9)]], "2 to 8 sides"),
        (["damage", "d6", "--character", "/nonexistent.json"], "cannot read"),
    ],
)
def test_mistakes_are_one_line_and_exit_2(capsys, args, words):
    fails(capsys, *args, words=words)


def test_a_corrupt_character_file_is_refused_clearly(capsys, tmp_path):
    sheet = tmp_path / "bad.json"
    sheet.write_text('{"name": "Ash", "abilities": {"STR": 5}}', encoding="utf-8")
    fails(capsys, "damage", "d6", "--character", str(sheet), words="max_health")
    sheet.write_text("not json", encoding="utf-8")
    fails(capsys, "damage", "d6", "--character", str(sheet), words="not valid JSON")


def test_the_injury_table_is_a_builtin_table(capsys):
    result = run(capsys, "table", "roll", "rollunder/injuries", "--seed", "1", "--json")
    assert json.loads(result.out)["table"] == "injuries"
