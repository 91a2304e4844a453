"""The interactive trackers people live in (issue 17): `undo`, `save`/`load`, `help VERB`,
completion, and nothing dropped at the end of input without asking (or, with --yes,
saving). Driven by piped input, as a terminal would type it."""

from __future__ import annotations

import io
import json
from typing import ClassVar

import pytest
from rich.console import Console

from tabletop.campaigns import read_campaign
from tabletop.cli.repl import Loop
from tests.cli.helpers import run


@pytest.fixture
def typed(capsys, monkeypatch):
    def go(*argv: str, lines: str):
        monkeypatch.setattr("sys.stdin", io.StringIO(lines))
        return run(capsys, *argv)

    return go


def test_undo_takes_back_the_last_change(typed, tmp_path):
    fight = tmp_path / "fight.json"
    result = typed(
        "constitution",
        "combat",
        "--save",
        str(fight),
        "--yes",
        lines="add Ada hp=5\nadd Orc side=foe hp=4\nundo\n",
    )
    assert result.code == 0, result.err
    saved = json.loads(fight.read_text())
    assert [c["id"] for c in saved["combatants"]] == ["Ada"] and "taken back" in result.out


def test_help_names_one_verb(typed):
    result = typed("constitution", "combat", lines="help attack\nhelp fly\nquit\n")
    assert "attack ATTACKER TARGET" in result.out and "an attack (§ 5.4)" in result.out
    assert "no verb 'fly'" in result.out


def test_the_end_of_input_asks_and_says_what_was_dropped(typed):
    """Issue 17: quitting at the end of input dropped the fight without a word."""
    result = typed("constitution", "combat", lines="add Ada hp=5\n")
    assert result.code == 0
    assert "changes not saved" in result.out and "not saved" in result.out


def test_the_answer_to_the_question_saves(typed, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = typed("constitution", "combat", lines="add Ada hp=5\nquit\nkept.json\n")
    assert result.code == 0 and "saved to kept.json" in result.out
    kept = json.loads((tmp_path / "kept.json").read_text())
    assert [c["id"] for c in kept["combatants"]] == ["Ada"]


def test_yes_needs_somewhere_to_save(typed):
    result = typed("constitution", "combat", "--yes", lines="")
    assert result.code == 2 and "--save FILE or --campaign" in result.err


def test_save_and_load_at_the_prompt(typed, tmp_path):
    fight = tmp_path / "fight.json"
    typed("constitution", "combat", lines=f"add Ada hp=5\nsave {fight}\nquit\n")
    result = typed("constitution", "combat", lines=f"load {fight}\nstatus\nundo\nstatus\nquit\nn\n")
    tables = result.out.split("setting up")
    assert "Ada" in tables[-2] and "Ada" not in tables[-1]


def test_the_ap_tracker_undoes_saves_and_loads(typed, tmp_path):
    fight = tmp_path / "ap.json"
    typed(
        "ap2d6",
        "ap",
        "-c",
        "Ayla:1",
        "--save",
        str(fight),
        "--yes",
        lines="spend 2n2\nmove\nundo\n",
    )
    saved = json.loads(fight.read_text())["fight"]
    (ayla,) = saved["characters"]
    assert ayla["tracker"]["tokens"] == [0, 2, 2]  # the (2n2) stays; the move, [1, 2, 2], goes
    result = typed("ap2d6", "ap", "--load", str(fight), "--json", lines="move\n")
    state = json.loads(result.out.strip().splitlines()[-1])
    assert state["characters"][0]["tracker"]["tokens"] != ayla["tracker"]["tokens"]


def test_a_campaign_party_fights_and_the_fight_joins_the_journal(typed, capsys, tmp_path):
    campaign = tmp_path / "c.json"
    sheet = tmp_path / "ada.json"
    run(
        capsys,
        "constitution",
        "character",
        "new",
        "--name",
        "Ada",
        "--seed",
        "1",
        "--out",
        str(sheet),
    )
    run(capsys, "campaign", "new", str(campaign), "--system", "constitution")
    run(capsys, "campaign", "add", str(campaign), str(sheet))
    result = typed(
        "constitution",
        "combat",
        "--campaign",
        str(campaign),
        "--yes",
        "--seed",
        "2",
        lines="join ada\nadd Orc side=foe hp=4\n",
    )
    assert result.code == 0, result.err
    _, state = read_campaign(campaign)
    assert [c.id for c in state.fight.combatants] == ["Ada", "Orc"]
    assert state.controllers == {"Ada": "you"}  # played by its owner (C3-A53)


def test_the_ap_tracker_fights_with_a_campaign_party(typed, capsys, tmp_path):
    campaign = tmp_path / "c.json"
    sheet = tmp_path / "ayla.json"
    run(capsys, "ap2d6", "character", "new", "--name", "Ayla", "--out", str(sheet))
    run(capsys, "campaign", "new", str(campaign), "--system", "ap2d6")
    run(capsys, "campaign", "add", str(campaign), str(sheet))
    result = typed("ap2d6", "ap", "--campaign", str(campaign), "--yes", lines="move\n")
    assert result.code == 0, result.err
    _, state = read_campaign(campaign)
    assert state.fight is not None and state.fight.round == 1
    assert [c.name for c in state.fight.characters] == ["Ayla"]


class Names:
    """The least a tracker needs for completion."""

    verbs: ClassVar = {"attack": ("attack A B", "an attack"), "add": ("add NAME", "a combatant")}
    overview = ""

    def names(self):
        return ["Ada", "Orc"]

    def kept_in(self):
        return None


def test_completion_offers_verbs_then_names():
    loop = Loop(Console(file=io.StringIO()), Names())  # type: ignore[arg-type]
    assert loop._complete("a", "a") == ["add", "attack"]
    assert loop._complete("O", "attack O") == ["Orc"]
    assert loop._complete("", "") == sorted(
        ["add", "attack", "help", "undo", "save", "load", "quit", "Ada", "Orc"]
    )
