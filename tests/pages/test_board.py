"""The Deadweight board game in the browser: a GM, one human seat and two bots play a whole
short game, the human clicking moves on the drawn ship; an observer on a phone watches and
never receives what observe.py keeps from them; the finished game is stepped through and
its log downloaded and replayed."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from tabletop.games.deadweight_board.log import replay
from tabletop.games.deadweight_board.state import CHANCE_NAMES
from tests.pages.conftest import serving_pages
from tests.pages.driver import (
    Seat,
    accessible,
    board_room,
    board_table,
    fits,
    live,
    my_move,
    offer,
    seat,
    submit,
)
from tests.pages.expecting import expect
from tests.pages.test_board_view import small_text

ROLLS = set(CHANCE_NAMES) - {"reveal_card", "tie_draw"}
"""The chance events that roll the fate die (state.CHANCE_NAMES)."""


def views(person: Seat) -> list[dict[str, Any]]:
    """Every view of the room this page fetched."""
    found = []
    for body in person.bodies:
        if body.url.split("?")[0].rstrip("/").count("/") == 4 and "/rooms/" in body.url:
            try:
                found.append(body.json())
            except Exception:  # a page, not a view
                continue
    return [v for v in found if isinstance(v, dict) and "state" in v]


def start_causes(person: Seat) -> list[Any]:
    """The cause of the game's start as each entry frame this page received shows it."""
    found = []
    for frame in person.frames:
        try:
            line = json.loads(frame)
        except ValueError:
            continue
        event = line.get("event") if isinstance(line, dict) else None
        if isinstance(event, dict) and event.get("type") == "setup":
            found.append(event.get("cause"))
    return found


QUICK_BOTS = 0.1
"""Seconds a bot waits before its move on the whole game's server (a table's wait is
`BOT_PAUSE`, 0.6 s, so people can follow): the bots decide some sixteen times in the short
game, and the 0.6 s pauses were about ten of the test's 23 s on a quiet machine. The test
below and test_board_view.py play at a table's pace."""


@pytest.fixture(scope="module")
def quick_bots(request, tmp_path_factory):
    with serving_pages(request, tmp_path_factory, bot_pause=QUICK_BOTS) as url:
        yield url


SEEN = """() => {
  // What Ann's page ever drew, whatever the test was doing then: a bot thinking, the dice.
  const look = () => {
    window.sawThinking ||= !!document.querySelector(".board .status-line.thinking");
    window.sawDice ||= !!document.querySelector(".board-dice .die");
  };
  new MutationObserver(look).observe(document.body, { childList: true, subtree: true });
  look();
}"""

TO_MOVE_OR_OVER = """() => document.querySelector(".moves")
  || document.querySelector(".board .status-line")?.innerText.includes("Game over")"""


def test_a_human_and_two_bots_play_a_whole_game_in_the_browser(browser, quick_bots, tmp_path):
    gm, ann, watcher = board_table(browser, quick_bots)
    expect(gm.page.locator(".board .seats")).to_contain_text("Green: MCTS bot, 30 simulations")
    accessible(gm.page)
    ann.page.evaluate(SEEN)
    submit(offer(gm, "set the ship up and start"))
    expect(ann.page.locator(".ship")).to_be_visible()
    expect(watcher.page.locator(".ship")).to_be_visible()
    fits(watcher.page)

    ways = {"board": 0, "list": 0}
    deadline = time.monotonic() + 300  # a whole game; the machine may be busy
    status = ann.page.locator(".board .status-line")
    while "Game over" not in status.inner_text():
        assert time.monotonic() < deadline, "the game did not end"
        if ann.page.locator(".moves").count():
            if not sum(ways.values()):  # Ann's first move: the ship's places are buttons
                expect(ann.page.locator(".ship .target").first).to_have_attribute("role", "button")
                accessible(ann.page)
            ways[my_move(ann)] += 1
        else:
            ann.page.wait_for_function(TO_MOVE_OR_OVER, polling="raf", timeout=60_000)
    assert ways["board"] >= 1 and ann.page.evaluate("window.sawThinking")
    saw_dice = ann.page.evaluate("window.sawDice")
    expect(watcher.page.locator(".board .status-line")).to_contain_text("Game over")

    # What observe.py keeps: the closed chests and the face-down trade cards, from the
    # observer and from Ann; the start's cause, whose dice dealt them, from both.
    for person in (watcher, ann):
        for view in views(person):
            game = view["state"]["game"]
            if game and game["machine"]["phase"] != "over":
                assert all("hidden" in chest for chest in game["chests"])
                assert "hidden" in game["trade_pile"]["face_down"]
    gm_views = [v for v in views(gm) if v["state"].get("game")]
    assert any("emerald" in c for v in gm_views for c in v["state"]["game"]["chests"])

    # Replay the finished game on the ship: Ann by step, turn and player on her laptop, Wes
    # on his phone, the GM with the slider; every step shows its board and says what it did.
    record = replay_by_turn_and_player(ann)
    watch_on_a_phone(watcher, record)
    gm.page.get_by_role("button", name="Replay the game").click()
    gm.page.get_by_role("slider", name="Step of the game").fill("2")
    showing(gm, record, 2)
    with ann.page.expect_download() as downloading:
        ann.page.get_by_role("button", name="Download the game log").click()
    path = tmp_path / "game.jsonl"
    downloading.value.save_as(path)
    assert replay(path) == 1
    rolled = [json.loads(line) for line in path.read_text().splitlines()]
    if any(line.get("event") in ROLLS for line in rolled):  # dice rolled: the log shows them
        expect(ann.page.locator("#log .entry .die").first).to_be_visible()
        assert saw_dice, "the ship never showed the dice of a move"
    assert json.loads(path.read_text().splitlines()[0])["seed"] is None  # the room's dice
    assert [bool(cause) for cause in start_causes(ann) + start_causes(watcher)] == [False] * 2
    assert [bool(cause and cause["draws"]) for cause in start_causes(gm)] == [True]
    fits(watcher.page)
    accessible(watcher.page)
    accessible(ann.page)
    assert not (gm.errors or ann.errors or watcher.errors)


def showing(person: Seat, record: dict[str, Any], index: int) -> None:
    """The page shows step `index` of the record: its words, what it did a line each, and
    its board (each player where the record puts them)."""
    page, steps = person.page, record["steps"]
    step, last = steps[index], len(steps) - 1
    turn = f"turn {step['turn']}" if step["turn"] else "the setup"
    said = f"Step {index} of {last}, {turn}: {step['by']}'s move"
    if not step["by"]:
        said = f"Step 0 of {last}: the ship as it was set up"
    expect(page.locator(".replay .step-text")).to_have_text(said)
    expect(page.locator(".replay .step-events li")).to_have_text(step["events"] or [step["text"]])
    expect(page.get_by_role("slider", name="Step of the game")).to_have_value(str(index))
    where = page.locator(".board .players tbody td:nth-child(2)")
    expect(where).to_have_text([p["position"] for p in step["state"]["players"]])


def replay_by_turn_and_player(person: Seat) -> dict[str, Any]:
    """Ann replays the game with every control of the replay, each named in words; the
    record her page fetched."""
    page = person.page
    page.get_by_role("button", name="Replay the game").click()
    expect(page.locator(".replay .step-text")).to_be_visible()
    record = next(b for b in person.bodies if b.url.split("?")[0].endswith("/record")).json()
    steps = record["steps"]
    last = len(steps) - 1
    showing(person, record, last)  # the replay opens on the last step
    # The steps' icons are drawn in the page (no font has ⏮ or ⏭ everywhere).
    icons = page.locator(".stepper svg.icon")
    expect(icons).to_have_count(4)
    assert all(box and box["width"] > 0 for box in (i.bounding_box() for i in icons.all()))
    names = page.locator(".replay button").evaluate_all("found => found.map(b => b.innerText)")
    assert [name.strip() for name in names] == [
        "First", "Back", "Next", "Last", "Previous turn", "Next turn", "Go to turn",
        "Previous move", "Next move", "Download the game log",
    ]  # fmt: skip
    fields = (("slider", "Step of the game"), ("spinbutton", "Turn"), ("combobox", "Player"))
    for role, name in fields:
        expect(page.get_by_role(role, name=name)).to_be_visible()
    expect(page.get_by_role("group", name="Red's moves")).to_be_visible()  # her own first
    for name in ("Next", "Last", "Next move"):
        expect(page.get_by_role("button", name=name, exact=True)).to_be_disabled()

    def press(name: str, index: int) -> None:
        page.get_by_role("button", name=name, exact=True).click()
        showing(person, record, index)

    press("First", 0)
    for name in ("First", "Back", "Previous turn"):
        expect(page.get_by_role("button", name=name, exact=True)).to_be_disabled()
    press("Next", 1)
    turn_one = next(i for i, step in enumerate(steps) if step["turn"] == 1)
    press("Next turn", turn_one)
    press("Next turn", next(i for i, step in enumerate(steps) if step["turn"] == 2))
    press("Previous turn", turn_one)
    page.get_by_role("spinbutton", name="Turn").fill("3")
    press("Go to turn", next(i for i, step in enumerate(steps) if step["turn"] == 3))
    page.get_by_role("combobox", name="Player").select_option("Blue")
    here = int(page.get_by_role("slider", name="Step of the game").input_value())
    blue = [i for i, step in enumerate(steps) if step["by"] == "Blue" and i > here]
    expect(page.get_by_role("group", name="Blue's moves")).to_be_visible()
    press("Next move", blue[0])
    press("Next move", blue[1])
    press("Previous move", blue[0])
    page.get_by_role("slider", name="Step of the game").fill("5")
    showing(person, record, 5)
    page.get_by_role("slider", name="Step of the game").press("ArrowRight")
    showing(person, record, 6)
    press("Back", 5)
    press("Last", last)
    return record


def watch_on_a_phone(person: Seat, record: dict[str, Any]) -> None:
    """Wes replays on his phone: turn by turn, one player's moves; every word of the board
    still 12 px or more, nothing sideways."""
    page, steps = person.page, record["steps"]
    page.get_by_role("button", name="Replay the game").click()
    page.get_by_role("button", name="First", exact=True).click()
    showing(person, record, 0)
    page.get_by_role("button", name="Next turn").click()
    showing(person, record, next(i for i, step in enumerate(steps) if step["turn"] == 1))
    page.get_by_role("combobox", name="Player").select_option("Green")
    page.get_by_role("button", name="Next move").click()
    showing(person, record, next(i for i, step in enumerate(steps) if step["by"] == "Green"))
    assert small_text(page) == []
    fits(page)


def test_at_the_end_of_a_session_the_page_says_the_bots_wait(browser, server):
    # the server stops moving bots when the GM ends the session (docs/rooms.md, "Bots at the
    # table"); the page must not go on saying a bot is thinking
    gm = seat(browser)
    gm.page.goto(board_room(server)["gm"])
    live(gm)
    seats = gm.page.locator(".board .seats")
    for kind, seated in (("greedy", "Red: greedy bot"), ("random", "Blue: random bot")):
        form = offer(gm, "Seat a bot")
        form.get_by_label("Bot").select_option(kind)
        form.get_by_role("button", name="Seat the bot").click()
        expect(seats).to_contain_text(seated)
    submit(offer(gm, "set the ship up and start"))
    status = gm.page.locator(".board .status-line")
    expect(status).to_contain_text("is thinking…")
    gm.page.once("dialog", lambda dialog: dialog.accept())
    gm.page.get_by_role("button", name="End the session", exact=True).click()
    expect(status).to_contain_text("The session has ended")
    title = gm.page.locator(".board h2").first.inner_text()
    gm.page.wait_for_timeout(1500)  # more than two of the server's bot pauses
    assert gm.page.locator(".board h2").first.inner_text() == title
    submit(offer(gm, "decides"))  # someone asks the bot to move: the bots go on
    expect(status).not_to_contain_text("The session has ended")
    assert not gm.errors
