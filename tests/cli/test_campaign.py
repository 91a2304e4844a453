"""`tabletop campaign …` (issue 17): a campaign keeps a party, trackers and a journal of
every event with its dice; the state is the fold of the journal, so it survives a fresh
shell and a tampered journal is refused."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tabletop.campaigns import CampaignError, read_campaign
from tabletop.cli.app import main
from tabletop.systems.dead_weight import Attribute
from tests.cli.helpers import run
from tests.systems.dead_weight.helpers import character

DOOM = '{"kind": "new-tracker", "name": "doom", "tracker_kind": "doom", "segments": 6}'


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> str:
    """A Dead Weight campaign with Amber and Brom, and a doom tracker two segments in,
    made once through the commands (copied for each test)."""
    folder = tmp_path_factory.mktemp("crypt")
    path = folder / "crypt.json"
    for name in ("Amber", "Brom"):
        sheet = character(Attribute.DEX, score=2, name=name)
        (folder / f"{name}.json").write_text(sheet.model_dump_json())
    main(["campaign", "new", str(path), "--system", "dead-weight"])
    main(["campaign", "add", str(path), *(str(folder / f"{n}.json") for n in ("Amber", "Brom"))])
    main(["campaign", "act", str(path), DOOM])
    main(["campaign", "act", str(path), '{"kind": "advance-tracker", "name": "doom", "points": 2}'])
    return path.read_text()


@pytest.fixture
def crypt(template, tmp_path) -> Path:
    path = tmp_path / "crypt.json"
    path.write_text(template)
    return path


def test_a_campaign_survives_a_fresh_shell(crypt):
    """Done when: a campaign survives a fresh shell. Another process reads it back."""
    shown = subprocess.run(
        [str(Path(sys.executable).parent / "tabletop"), "campaign", "show", str(crypt), "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert shown.returncode == 0, shown.stderr
    table = json.loads(shown.stdout)["table"]
    assert [c["sheet"]["name"] for c in table["characters"]] == ["Amber", "Brom"]
    assert [(t["name"], t["filled"], t["visible"]) for t in table["trackers"]] == [
        ("doom", 2, False)
    ]


def test_a_test_played_in_a_campaign_joins_its_journal_with_its_dice(capsys, crypt):
    before = len(read_campaign(crypt)[0].journal)
    result = run(
        capsys,
        "dead-weight",
        "test",
        "DEX",
        "--campaign",
        str(crypt),
        "--who",
        "amber",
        "--helper",
        "Brom",
        "--auto",
        "--seed",
        "3",
    )
    assert result.code == 0, result.err
    campaign, state = read_campaign(crypt)
    played = campaign.journal[before:]
    assert played[0].type == "test announced" and played[0].cause is not None
    assert [d.face for d in played[0].cause.draws] == [2, 5, 5]  # Amber's 2, 5 and Brom's 5
    assert state.exchange is not None and state.exchange.finished
    logged = run(capsys, "campaign", "log", str(crypt), "--last", "6").out
    assert "dice d6:2, d6:5, d6:5" in logged
    data = json.loads(crypt.read_text())
    data["journal"][before]["cause"]["draws"][0]["face"] = 6  # a die changed: the throw differs
    crypt.write_text(json.dumps(data))
    with pytest.raises(CampaignError, match=f"journal event {before + 2} is not what happened"):
        read_campaign(crypt)


def test_a_dry_run_in_a_campaign_keeps_nothing(capsys, crypt):
    before = crypt.read_text()
    result = run(
        capsys, "dead-weight", "rest", "--campaign", str(crypt), "--who", "Brom", "--dry-run"
    )
    assert result.code == 0 and crypt.read_text() == before


def test_a_tampered_journal_is_refused_naming_the_event(crypt):
    """The journal is folded as it is read: a die changed by hand does not apply."""
    data = json.loads(crypt.read_text())
    data["journal"] = [e for e in data["journal"] if e["type"] != "new tracker"]
    crypt.write_text(json.dumps(data))
    with pytest.raises(CampaignError, match=r"journal event 3 \(tracker\) does not apply"):
        read_campaign(crypt)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("dead-weight", "rest", "--campaign", "{crypt}"), "--who"),
        (("dead-weight", "rest", "--campaign", "{crypt}", "--who", "Cy"), "no character 'Cy'"),
        (("constitution", "rest", "--campaign", "{crypt}", "--who", "Brom"), "not constitution"),
        (("campaign", "new", "{crypt}", "--system", "dead-weight"), "exists"),
        (("campaign", "new", "x.json", "--system", "chess"), "no system 'chess'"),
        (("campaign", "act", "{crypt}", "{"), "not JSON"),
        (("campaign", "act", "{crypt}", '{"kind": "fly"}'), "not an intent"),
    ],
)
def test_campaign_mistakes_are_one_line_and_exit_2(capsys, crypt, args, message):
    before = crypt.read_text()
    result = run(capsys, *(str(crypt) if a == "{crypt}" else a for a in args))
    assert result.code == 2 and message in result.err and result.err.count("\n") == 1
    assert crypt.read_text() == before


def test_constitution_and_ap2d6_characters_rest_in_their_campaigns(capsys, tmp_path):
    for system, make in (
        ("constitution", ("constitution", "character", "new", "--name", "Ada", "--seed", "1")),
        ("ap2d6", ("ap2d6", "character", "new", "--name", "Ada")),
    ):
        sheet, path = tmp_path / f"{system}-ada.json", tmp_path / f"{system}.json"
        assert run(capsys, *make, "--out", str(sheet)).code == 0
        assert run(capsys, "campaign", "new", str(path), "--system", system).code == 0
        assert run(capsys, "campaign", "add", str(path), str(sheet)).code == 0
        rest = ("rest", "8") if system == "ap2d6" else ("rest",)
        result = run(capsys, system, *rest, "--campaign", str(path), "--who", "Ada", "--seed", "2")
        assert result.code == 0, result.err
        campaign, _ = read_campaign(path)
        step = [e for e in campaign.journal if e.cause is not None][-1]
        assert step.cause.intent["kind"] == "rest" and step.cause.intent["character"] == "c1"


def test_rollunder_damage_and_corruption_play_into_a_campaign(capsys, tmp_path):
    """Issue 17 item 2: roll-under commands that change a character take --campaign; the
    sheet (health, corruption, omens) is the fold of the journal. A d4 hit of 3 after
    armour 1 leaves Grue 19 − 2 = 17."""
    sheet, path = tmp_path / "grue.json", tmp_path / "ru.json"
    made = ("rollunder", "character", "new", "--name", "Grue", "--set", "STR=13")
    made += ("--set", "AGI=9", "--set", "WIT=7", "--max-health", "19", "--omens", "1")
    assert run(capsys, *made, "--out", str(sheet)).code == 0
    assert run(capsys, "campaign", "new", str(path), "--system", "rollunder").code == 0
    assert run(capsys, "campaign", "add", str(path), str(sheet)).code == 0
    hit = ("rollunder", "damage", "3", "--armour", "1", "--campaign", str(path), "--who", "Grue")
    result = run(capsys, *hit)
    assert result.code == 0, result.err
    sour = ("rollunder", "corruption", "--gain", "1", "--campaign", str(path), "--who", "grue")
    assert run(capsys, *sour, "--seed", "1").code == 0
    _, state = read_campaign(path)
    grue = state.characters["c1"].sheet
    assert grue.health <= 17 and grue.omens == 1
    campaign, _ = read_campaign(path)
    asked = [e.cause.intent["kind"] for e in campaign.journal if e.cause is not None]
    steps = [kind for kind in asked if kind != "answer"]  # each omen question is a step too
    assert steps[-2:] == ["suffer-hit", "suffer-corruption"]
    both = run(capsys, "rollunder", "damage", "3", "--campaign", str(path), "--health", "4")
    assert both.code == 2 and "sheet" in both.err
