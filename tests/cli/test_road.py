"""`tabletop constitution road …` (issue 17, item 2): the Constitution travel clock and each
character's rations and deprivation are kept in a campaign file, advanced by the commands
and read back by a fresh process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tabletop.campaigns import read_campaign
from tests.cli.helpers import run


@pytest.fixture
def trek(capsys, tmp_path) -> Path:
    """A Constitution campaign with Ada and Bo rolled from fixed seeds."""
    path = tmp_path / "trek.json"
    for name, seed in (("Ada", "1"), ("Bo", "2")):
        made = ("constitution", "character", "new", "--name", name, "--seed", seed)
        assert run(capsys, *made, "--out", str(tmp_path / f"{name}.json")).code == 0
    assert run(capsys, "campaign", "new", str(path), "--system", "constitution").code == 0
    sheets = (str(tmp_path / "Ada.json"), str(tmp_path / "Bo.json"))
    assert run(capsys, "campaign", "add", str(path), *sheets).code == 0
    return path


def road(capsys, trek: Path, verb: str, *args: str):
    result = run(capsys, "constitution", "road", verb, "--campaign", str(trek), *args)
    assert result.code == 0, result.err
    return result


def test_a_days_march_and_camp_are_kept_and_read_back_by_a_fresh_process(capsys, trek):
    """§ 13.4: 24 road miles a day; § 15.1: a ration each at supper; the clock moves on to
    day 2, and another process reads it from the journal alone."""
    road(capsys, trek, "rations", "--who", "Ada", "--food", "3", "--water", "1")
    road(capsys, trek, "march", "--terrain", "road", "--seed", "4")
    road(capsys, trek, "camp", "--seed", "5")
    command = [str(Path(sys.executable).parent / "tabletop"), "constitution", "road", "clock"]
    shown = subprocess.run(
        [*command, "--campaign", str(trek), "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert shown.returncode == 0, shown.stderr
    clock = json.loads(shown.stdout)
    assert (clock["day"], clock["miles"], clock["marched"]) == (2, 24.0, False)
    assert clock["party"]["Ada"]["supplies"] == {"food": 2, "water": 1}
    # Bo (strength 3) had no food after a march: two days of strain (§ 15.3, C3-A58) past
    # his threshold of 1 (C3-A23): fasting −2 and one day of starvation −2 (C3-A24).
    assert clock["party"]["Bo"]["penalty"] == -4


def test_the_gm_at_the_command_line_sees_the_encounter_checks(capsys, trek):
    """C3-A61 hides them from the players at a room; the campaign's keeper is its GM."""
    result = road(capsys, trek, "march", "--terrain", "plains", "--seed", "1", "--json")
    kinds = [event["kind"] for event in json.loads(result.out)["events"]]
    assert kinds == ["march", "encounter-check"]


def test_a_dry_run_keeps_nothing(capsys, trek):
    before = trek.read_text()
    road(capsys, trek, "explore", "--turns", "3", "--dry-run")
    assert trek.read_text() == before


def test_hunting_and_lights_join_the_journal(capsys, trek):
    road(capsys, trek, "light", "--who", "Ada", "lantern")
    road(capsys, trek, "hunt", "--who", "Bo", "--rating", "40", "--seed", "3")
    road(capsys, trek, "explore", "--turns", "7", "--encounters", "each_hour", "--seed", "2")
    campaign, state = read_campaign(trek)
    asked = [e.cause.intent["kind"] for e in campaign.journal if e.cause is not None]
    assert asked[-3:] == ["light", "hunt", "explore"]
    assert state.clock.turns.lights[0].turns_left == 24 - 7
    assert "c2" in state.clock.hunted and state.characters["c2"].sheet.skills["hunting"] == 40


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("march", "--terrain", "lava"), "terrain"),
        (("rations", "--who", "Ada", "--food", "-2"), "not that many"),
        (("rations", "--who", "Cy", "--food", "1"), "no character 'Cy'"),
        (("camp", "--sleep", "never"), "sleep"),
    ],
)
def test_road_mistakes_are_one_line_exit_2_and_change_nothing(capsys, trek, args, message):
    before = trek.read_text()
    verb, *rest = args
    result = run(capsys, "constitution", "road", verb, "--campaign", str(trek), *rest)
    assert result.code == 2 and message in result.err and result.err.count("\n") == 1
    assert trek.read_text() == before


def test_a_second_march_the_same_day_says_to_make_camp(capsys, trek):
    road(capsys, trek, "march", "--seed", "1")
    result = run(capsys, "constitution", "road", "march", "--campaign", str(trek))
    assert result.code == 2 and "make camp first" in result.err
