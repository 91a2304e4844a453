"""The Deadweight board game in the browser: a GM, one human seat and two bots play a whole
short game, the human clicking moves on the drawn ship; an observer on a phone watches and
never receives what observe.py keeps from them; the finished game is stepped through and
its log downloaded and replayed."""

from __future__ import annotations

import json
import time
from typing import Any

from playwright.sync_api import expect

from tabletop.games.deadweight_board.log import replay
from tabletop.games.deadweight_board.state import CHANCE_NAMES
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


def test_a_human_and_two_bots_play_a_whole_game_in_the_browser(browser, server, tmp_path):
    gm, ann, watcher = board_table(browser, server)
    expect(gm.page.locator(".board .seats")).to_contain_text("Green: mcts:30 bot")
    accessible(gm.page)
    submit(offer(gm, "set the ship up and start"))
    expect(ann.page.locator(".ship")).to_be_visible()
    expect(watcher.page.locator(".ship")).to_be_visible()
    fits(watcher.page)

    ways = {"board": 0, "list": 0}
    saw_thinking = saw_dice = False
    deadline = time.monotonic() + 150
    status = ann.page.locator(".board .status-line")
    while "Game over" not in status.inner_text():
        assert time.monotonic() < deadline, "the game did not end"
        saw_dice = saw_dice or ann.page.locator(".board-dice .die").count() > 0
        if ann.page.locator(".moves").count():
            if not sum(ways.values()):  # Ann's first move: the ship's places are buttons
                expect(ann.page.locator(".ship .target").first).to_have_attribute("role", "button")
                accessible(ann.page)
            ways[my_move(ann)] += 1
        else:
            saw_thinking = saw_thinking or "is thinking…" in status.inner_text()
            ann.page.wait_for_timeout(100)
    assert ways["board"] >= 1 and saw_thinking
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

    # Step through the finished game, then download its log and replay it.
    ann.page.get_by_role("button", name="⏮ First").click()
    expect(ann.page.locator(".replay .step-text")).to_contain_text("Step 0 of")
    ann.page.get_by_role("button", name="Next ▶").click()
    expect(ann.page.locator(".replay .step-text")).to_contain_text("Step 1 of")
    expect(ann.page.locator(".ship")).to_be_visible()
    ann.page.get_by_role("button", name="Last ⏭").click()
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
    gm.page.get_by_role("button", name="End the session (reveal the seed)").click()
    expect(status).to_contain_text("The session has ended")
    title = gm.page.locator(".board h2").first.inner_text()
    gm.page.wait_for_timeout(1500)  # more than two of the server's bot pauses
    assert gm.page.locator(".board h2").first.inner_text() == title
    submit(offer(gm, "decides"))  # someone asks the bot to move: the bots go on
    expect(status).not_to_contain_text("The session has ended")
    assert not gm.errors
