"""`tabletop constitution …`: every verb, the odds JSON contract, errors, the combat tracker."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.cli.app import main
from tabletop.cli.constitution.tracker import command_line, parse_line, step
from tabletop.dice import FixedDice, SeededDice
from tabletop.systems.constitution import Combat, apply
from tabletop.systems.constitution.combat import legal_actions
from tests.effort import tried


def run(capsys, *args: str, stdin: str | None = None, monkeypatch=None) -> tuple[int, str, str]:
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    try:
        main(["constitution", *args])
        code = 0
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_odds_json_contract(capsys):
    """The issue's stable contract: success and signed degree strings summing to 1."""
    code, out, _ = run(capsys, "odds", "--modifier", "10", "--dc", "20", "--json")
    data = json.loads(out)
    assert code == 0 and set(data) == {"success", "degrees"}
    assert data["success"] == pytest.approx(0.55, abs=1e-15)
    assert data["degrees"]["-3"] == pytest.approx(0.05)  # natural 1 (C3-A06 step)
    assert data["degrees"]["1"] == pytest.approx(0.25)
    assert sum(data["degrees"].values()) == pytest.approx(1, abs=1e-14)


def test_odds_with_advantage_and_readings(capsys):
    _, out, _ = run(capsys, "odds", "--modifier", "5", "--dc", "20", "--advantage", "1", "--json")
    assert json.loads(out)["success"] == pytest.approx(1 - (14 / 20) ** 2)
    _, out, _ = run(
        capsys, "--option", "natural_one=ignore", "odds", "--modifier", "19", "--dc", "20", "--json"
    )
    assert json.loads(out)["success"] == pytest.approx(1)
    code, out, _ = run(capsys, "odds", "--modifier", "3", "--dc", "20")
    assert code == 0 and "20.0%" in out


def test_check_is_reproducible_with_a_seed(capsys):
    _, first, _ = run(capsys, "check", "--ability", "12", "--dc", "20", "--seed", "9", "--json")
    _, second, _ = run(capsys, "check", "--ability", "12", "--dc", "20", "--seed", "9", "--json")
    data = json.loads(first)
    assert first == second and data["total"] == data["die"] + 12
    assert data["success"] == (data["degree"] > 0)
    _, text, _ = run(
        capsys, "check", "--ability", "12", "--dc", "20", "--skill", "50", "--seed", "1"
    )
    assert "vs DC 20" in text


@pytest.mark.parametrize(
    "args",
    [
        ("check", "--ability", "31", "--dc", "20"),
        ("check", "--ability", "10", "--dc", "20", "--modifier", "99999999999999999999"),
        ("odds", "--modifier", "1", "--dc", "1001"),
        ("--option", "natural_one=maybe", "odds", "--modifier", "1", "--dc", "20"),
        ("odds", "--modifier", "1", "--dc", "20", "--advantage", "21"),
        ("character", "new", "--class", "wizard"),
        ("character", "new", "--initiation", "flying"),
        ("character", "new", "--class", "sage", "--initiation", "tough"),
        ("travel", "--leg", "ocean:10"),
        ("travel", "--leg", "road:-3"),
        ("travel", "--leg", "road:10", "--weather", "hail"),
        ("xp", "level", "-5"),
        ("rest", "--hit-dice", "0"),
        ("combat", "--load", "/nonexistent/fight.json"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, args):
    code, _, err = run(capsys, *args)
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err


def test_character_new_json_round_trips(capsys):
    code, out, _ = run(
        capsys,
        "character",
        "new",
        "--name",
        "Ada",
        "--class",
        "fighter",
        "--initiation",
        "tough",
        "--seed",
        "3",
        "--json",
    )
    data = json.loads(out)
    assert code == 0 and data["initiations"] == ["tough"] and 1 <= data["hp"] <= 8
    assert all(3 <= data["abilities"][a] <= 18 for a in data["abilities"])


def test_xp_level(capsys):
    _, out, _ = run(capsys, "xp", "level", "6000", "--json")
    assert json.loads(out) == {"xp": 6000, "level": 4, "next_level_at": 12000}
    _, out, _ = run(capsys, "--option", "xp_scale=tenth", "xp", "level", "150")
    assert "level 2" in out
    _, out, _ = run(capsys, "xp", "level", str(10**30), "--json")
    assert json.loads(out)["level"] == 30 and json.loads(out)["next_level_at"] is None


def test_travel_days_and_encounters(capsys):
    _, out, _ = run(
        capsys, "travel", "--leg", "road:30", "--leg", "forest:10", "--seed", "2", "--json"
    )
    data = json.loads(out)
    assert data["days"] == 3 and data["miles"] == 40
    assert [d["encounter_checks"] for d in data["itinerary"]] == [5, 3, 1]
    _, out, _ = run(capsys, "travel", "--leg", "road:24", "--encumbrance", "encumbered", "--json")
    assert json.loads(out)["days"] == 2


def test_rest(capsys):
    _, out, _ = run(
        capsys, "rest", "--hit-dice", "2", "--fatigue", "2", "--seed", "4", "--json", "--odds"
    )
    data = json.loads(out)
    assert data["fatigue"] == 3 and data["dice"][0].startswith("4d6kl2")
    assert data["mean"] == pytest.approx(4.6559, abs=1e-4)
    _, out, _ = run(capsys, "rest", "--hit-dice", "1", "--fatigue", "3", "--night", "--json")
    assert json.loads(out)["fatigue"] == 0


FIGHT = """\
add Ada side=party wits=12 str=14 hp=6 fighter=2 shield
add Orc side=foes wits=8 str=12 hp=4 ac=22 morale=7
add Gob side=foes hp=2 henchman commander=Orc
nonsense here
add Ada
attack Ada Orc
init all
begin
react Orc 2 draw a blade
react Orc 3
attack Ada Orc
end superior
end
end
end
help
reorient Gob
round
status
legal
morale Orc
quit
"""


def test_a_referee_runs_a_fight_at_the_terminal(capsys, monkeypatch, tmp_path):
    """The tracker reads commands, re-asks on every mistake, and never crashes."""
    save = tmp_path / "fight.json"
    script = FIGHT.replace("status\n", f"status\nsave {save}\n")
    code, out, err = run(capsys, "combat", "--seed", "5", stdin=script, monkeypatch=monkeypatch)
    assert code == 0 and err == ""
    assert "unknown command 'nonsense'" in out
    assert "already a combatant" in out
    assert "can only be done during round" in out
    assert "2, 5 or 10" in out
    assert "round 1 begins" in out and "round 2 begins" in out
    assert "Orc pays 2 for draw a blade" in out
    combat = Combat.model_validate_json(save.read_text())
    assert combat.round == 2
    code, out, _ = run(
        capsys, "combat", "--load", str(save), stdin="status\n", monkeypatch=monkeypatch
    )
    assert code == 0 and "round 2" in out


def test_the_tracker_survives_end_of_input_and_garbage(capsys, monkeypatch):
    code, out, _ = run(
        capsys,
        "combat",
        stdin='add "unclosed\nadd x hp=lots\nadd y wits=99\nsave\n',
        monkeypatch=monkeypatch,
    )
    assert code == 0
    assert "could not read" in out and "whole number" in out and "wits" in out


def test_tracker_step_is_a_pure_function_of_the_line():
    combat, messages = step(Combat(), "add Ada hp=3", FixedDice([]))
    combat, messages = step(combat, "init Ada ambush", FixedDice([]))
    assert combat.get("Ada").initiative == 30 and "ambush" in messages[0]


def test_a_corrupt_save_is_refused(capsys, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"combatants": [{"id": "a b"}]}')
    code, _, err = run(capsys, "combat", "--load", str(bad))
    assert code == 2 and "invalid Combat" in err
    bad.write_text("not json")
    code, _, err = run(capsys, "combat", "--load", str(bad))
    assert code == 2 and "not a saved fight" in err


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs a device that never ends")
def test_a_save_that_never_ends_is_refused_at_the_size_bound(capsys):
    """A device reports no size (and may never end): it is refused before it is read."""
    code, _, err = run(capsys, "combat", "--load", "/dev/zero")
    assert code == 2 and "not a regular file" in err and err.count("\n") == 1


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_save_to_a_pipe_is_refused_and_the_tracker_goes_on(capsys, monkeypatch, tmp_path):
    """`save` once blocked for ever on a named pipe; saves are now written whole or not at all."""
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    good = tmp_path / "fight.json"
    script = f"add Ada hp=3\nsave {pipe}\nsave {good}\n"
    code, out, _ = run(capsys, "combat", stdin=script, monkeypatch=monkeypatch)
    unwrapped = "".join(out.split())  # the console wraps long lines, even inside a path
    assert code == 0 and "notaregularfile" in unwrapped and f"savedto{good}" in unwrapped
    assert Combat.model_validate_json(good.read_text()).get("Ada") is not None
    assert sorted(os.listdir(tmp_path)) == ["fight.json", "pipe"]


def test_the_tracker_help_shows_every_option(capsys, monkeypatch):
    """The bracketed options are text, not Rich markup: a referee must see them."""
    _, out, _ = run(capsys, "combat", stdin="help\n", monkeypatch=monkeypatch)
    assert "add NAME [side=S wits=N" in out
    assert "init ID [advantage|ambush|penalty|flat] [bonus=N]" in out
    assert "attack ATTACKER TARGET [mod=N" in out and "react ID 2|5|10 [what]" in out
    assert "leave ID [down|fled|dead]" in out


def test_legal_lists_commands_a_referee_can_type(capsys, monkeypatch):
    """`legal` names each choice as the tracker command that takes it."""
    script = "add Ada hp=5\nadd Orc side=foes morale=7\nset Ada 20\nset Orc 10\nbegin\nlegal\n"
    _, out, _ = run(capsys, "combat", stdin=script, monkeypatch=monkeypatch)
    lines = {line.rpartition("> ")[2] for line in out.splitlines()}
    for command in ("attack Ada Orc", "defend Ada", "react Orc 5", "end superior", "morale Orc"):
        assert command in lines


@settings(max_examples=tried(30), deadline=None)
@given(seed=st.integers(0, 10**6), choices=st.lists(st.integers(0, 10**6), max_size=40))
def test_every_legal_choice_typed_back_is_the_same_choice(seed, choices):
    """`command_line` and the tracker's parser agree on every legal action of a fight."""
    dice = SeededDice(seed)
    combat = Combat()
    for line in (
        "add A hp=6 tactician",
        "add B hp=4 shield",
        "add C side=foes hp=5 morale=7",
        "add D side=foes hp=3 henchman commander=C",
    ):
        combat, _ = step(combat, line, dice)
    for choice in choices:
        legal = legal_actions(combat)
        if not legal:
            break
        for action in legal:
            assert parse_line(command_line(action)) == [action]
        combat, _ = apply(combat, legal[choice % len(legal)], dice)


def test_a_hits_extra_degrees_are_listed_and_spent_at_the_tracker(capsys, monkeypatch):
    """§ 5.19, C3-A63: `legal` lists the two effects of the notes after a hit 20 over the
    AC, and `degrees A 2` spends two on the notes' own effect for two."""
    script = (
        "add A str=30\nadd B side=foes hp=20\nset A 20\nset B 10\nbegin\n"
        "attack A B nodirect\nlegal\ndegrees A 2\n"
    )
    code, out, _ = run(capsys, "combat", "--seed", "3", stdin=script, monkeypatch=monkeypatch)
    assert code == 0 and "degrees A 1 drives them back a little" in out
    assert "A spends extra degrees (2) on B: drives them well back: out of a window" in out


def test_save_without_a_file_name_says_how(capsys, monkeypatch):
    _, out, _ = run(capsys, "combat", stdin="save\n", monkeypatch=monkeypatch)
    assert "usage: save FILE" in out


def test_a_follower_of_an_absent_commander_is_refused_and_the_tracker_goes_on(capsys, monkeypatch):
    """Before, `legal` stopped the tracker with an error once such a follower was in."""
    script = "add G commander=Nobody\nadd H\nset H 4\nbegin\nlegal\nstatus\n"
    code, out, _ = run(capsys, "combat", stdin=script, monkeypatch=monkeypatch)
    assert code == 0 and "must join the fight first" in out and "end superior" not in out
    assert "\nattack" not in out and "round 1" in out


def test_advantage_and_penalty_dice_cancel_on_the_command_line(capsys):
    """§ 3.8, docs/rules C3-A09: two advantage and one penalty die roll as one advantage die."""
    both = ("--advantage", "2", "--disadvantage", "1")
    _, mixed, _ = run(capsys, "check", "--ability", "10", "--dc", "20", *both, "--seed", "4")
    _, single, _ = run(
        capsys, "check", "--ability", "10", "--dc", "20", "--advantage", "1", "--seed", "4"
    )
    assert "2d20!kh1" in mixed and json.loads(
        run(capsys, "odds", "--modifier", "10", "--dc", "20", *both, "--json")[1]
    ) == json.loads(
        run(capsys, "odds", "--modifier", "10", "--dc", "20", "--advantage", "1", "--json")[1]
    )
    assert mixed.split(";")[0] == single.split(";")[0]
