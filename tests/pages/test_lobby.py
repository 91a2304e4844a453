"""The lobby's "Rules of this table": a field per option of the picked system, defaults
chosen; only the options the GM changed reach `POST /rooms`, and a value the server refuses
shows its message and opens nothing."""

from __future__ import annotations

import json

import httpx

from tests.pages.driver import (
    PHONE,
    SHORT_GAME,
    accessible,
    choose_rules,
    fits,
    live,
    log_texts,
    offer,
    seat,
    wait_for_log,
)
from tests.pages.expecting import expect


def test_a_board_room_opened_from_the_lobby_runs_under_the_rules_chosen_there(browser, server):
    gm = seat(browser, PHONE)
    page = gm.page
    page.goto(server)
    page.get_by_label("Game system").select_option("dead-weight")
    page.locator("details#rules summary").click()
    expect(page.get_by_label("What an insight point re-rolls", exact=True)).to_have_value(
        '"up_to_two_dice"'
    )
    page.get_by_label("Game system").select_option("deadweight-board")
    rules = page.locator("details#rules")
    expect(rules).to_have_attribute("open", "")
    expect(rules.get_by_label("Turn limit", exact=True)).to_have_value("600")
    expect(rules.get_by_label("Chest contents", exact=True)).to_have_value('"public"')
    # a yes or no is a box to tick, at its default
    expect(
        rules.get_by_label("Only steal from someone holding something", exact=True)
    ).not_to_be_checked()
    expect(rules.get_by_label("What an insight point re-rolls", exact=True)).to_have_count(0)
    # The options a field cannot hold are named in words; their ids only in the command
    # that sets them (issue 30, item 2; ENG-17).
    note = rules.locator(".not-offered")
    expect(note).to_contain_text("What the fate die gives")
    said = "p => [...p.childNodes].filter(n => n.nodeName !== 'CODE').map(n => n.textContent)"
    assert "fate_die_faces" not in "".join(note.evaluate(said))
    expect(note.locator("code")).to_contain_text("--option fate_die_faces=")
    fits(page)
    accessible(page)

    choose_rules(gm, **{"Turn limit": 0})
    page.get_by_role("button", name="Open the room").click()
    expect(page.locator("#error")).to_contain_text("turn_cap")
    assert page.url.rstrip("/") == server

    choose_rules(gm, **{"Turn limit": SHORT_GAME["turn_cap"]})
    choose_rules(gm, **{"Chest contents": SHORT_GAME["chest_visibility"]})
    with page.expect_request(lambda r: r.url.endswith("/rooms") and r.method == "POST") as sent:
        page.get_by_role("button", name="Open the room").click()
    assert json.loads(sent.value.post_data or "")["options"] == SHORT_GAME
    live(gm)
    room, _, token = page.url.partition("#")
    view = httpx.get(room, headers={"Authorization": f"Bearer {token}"}).json()
    assert view["system"] == "deadweight-board"
    assert view["state"]["options"] == SHORT_GAME
    # The log names the game and a bot as a player says them, not by their ids.
    wait_for_log(gm, "opens for Deadweight, the board game")
    form = offer(gm, "Seat a bot")
    form.get_by_label("Bot").select_option("mcts")
    form.get_by_label("MCTS simulations").fill("30")
    form.get_by_role("button", name="Seat the bot").click()
    wait_for_log(gm, "seats an MCTS bot (30 simulations a move) as Red")
    assert not [line for line in log_texts(gm) if "deadweight-board" in line or "mcts" in line]
    assert not gm.errors


def test_the_lobby_says_it_is_loading_until_the_systems_come(browser, server):
    # issue 23: an empty system list for half a second, with no word of why
    gm = seat(browser, PHONE)
    held: list = []

    def hold(route) -> None:
        held.append(route)

    gm.page.route("**/systems", hold)
    with gm.page.expect_request("**/systems"):
        gm.page.goto(server, wait_until="domcontentloaded")
    picker = gm.page.get_by_label("Game system")
    expect(picker.locator("option")).to_have_text(["loading…"])
    expect(gm.page.get_by_role("button", name="Open the room")).to_be_disabled()
    assert len(held) == 1
    held[0].continue_()
    expect(picker.locator("option", has_text="Dead Weight")).to_have_count(1)
    expect(picker.locator("option", has_text="loading")).to_have_count(0)
    expect(gm.page.get_by_role("button", name="Open the room")).to_be_enabled()
    assert not gm.errors
