"""The club lobby in the browser (docs/server.md "The lobby"), two headless Chromiums on one
`burraco serve`: the first makes a public italian-2p table with an open seat in the lobby and
sits at it, the table waiting; the second sees the table in its lobby's list, joins the free seat
with its Join button, and both play a move by clicking. Then Watch, from the list, opens the table
for a spectator, and the join link opened again, too late, says so and watches.

Like tests/test_browser.py, it needs Debian's chromium and chromium-driver and Selenium; without
them it is skipped, except under CI (the environment variable CI set), where it fails."""

from __future__ import annotations

import json
import re
import time
import urllib.request
from collections.abc import Iterator

import pytest
from test_browser import (_click, _my_turn_or_result, _page_state, _played, _select, _wait,
                          start_chrome)
from test_browser import driver, server  # noqa: F401  (the fixtures: a server, a browser)

pytestmark = [pytest.mark.browser, pytest.mark.slow]  # CI runs them in its slow step


@pytest.fixture
def second() -> Iterator[object]:
    chrome = start_chrome(390, 844)  # a phone's width: the list and its buttons on a phone
    try:
        yield chrome
    finally:
        chrome.quit()


def _until(chrome, script: str, what: str, timeout: float = 15.0):
    deadline = time.monotonic() + timeout
    while not (value := chrome.execute_script(script)):
        if time.monotonic() > deadline:
            pytest.fail(f"the page did not show {what} in {timeout} s")
        time.sleep(0.05)
    return value


def _play_a_turn(chrome) -> list[str]:
    """The seat's turn by clicking: the stock, then a discard. The moves clicked."""
    state = _wait(chrome, _my_turn_or_result, "the seat's turn", timeout=30)
    assert state["phase"] == "draw" and "draw" in state["legal"], state
    _click(chrome, "#stock.active .card")
    state = _played(chrome, state["ply"])
    discard = next(m for m in state["legal"] if m.startswith("discard "))
    _select(chrome, [discard.split()[1]])
    _click(chrome, "#discard")
    _played(chrome, state["ply"])
    return ["draw", discard]


def _problems(chrome) -> list:
    return [entry for entry in chrome.get_log("browser") if entry["level"] == "SEVERE"
            and "409" not in entry["message"]]  # the late join's refused claim, expected


def test_a_public_table_is_joined_from_the_list_and_both_play(server, driver, second):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    first = driver
    first.get(server.url + "/")
    _until(first, "return document.getElementById('preset').options.length > 1", "the presets")
    Select(first.find_element(By.ID, "preset")).select_by_value("italian-2p")
    Select(first.find_element(By.ID, "seat-0")).select_by_value("human")
    seat1 = Select(first.find_element(By.ID, "seat-1"))
    assert "open seat (anyone with the link)" in [o.text for o in seat1.options]
    seat1.select_by_value("open")
    public = first.find_element(By.ID, "public")
    assert "Public" in first.find_element(By.CSS_SELECTOR, "label:has(#public)").text
    public.click()
    _click(first, "#create")
    # With an open seat the lobby shows the links rather than opening the table.
    join = _until(first, "const i = document.getElementById('join-1'); return i && i.value",
                  "the join link")
    found = re.fullmatch(re.escape(server.url) + r"/table/([A-Za-z0-9_-]+)\?join=1", join)
    assert found, join
    table = found.group(1)
    label = first.find_element(By.CSS_SELECTOR, "label[for='join-1']").text
    assert label == "join link of open seat 1"
    first.find_element(By.LINK_TEXT, "play seat 0").click()
    _wait(first, lambda s: s["ply"] is not None, "the first view")
    banner = first.find_element(By.ID, "turn").text
    assert banner == "waiting for 1 open seat to be taken", banner
    assert join in first.find_element(By.ID, "hint").text  # the creator sees what to send
    assert _page_state(first)["yourTurn"] == "false"

    # The second browser finds the table in its lobby's list, with the seat free.
    second.get(server.url + "/")
    item = f"#public-list li[data-table='{table}']"
    _until(second, f"return document.querySelector(\"{item}\")", "the table in the list")
    text = second.find_element(By.CSS_SELECTOR, item).text
    assert "italian-2p · one hand · waiting for 1 person" in text
    assert "seat 0: a person, here" in text and "seat 1: free" in text
    button = second.find_element(By.CSS_SELECTOR, f"{item} button[data-join='1']")
    assert button.text == "Join seat 1"
    assert button.get_attribute("aria-label") == f"Join seat 1 of table {table} (italian-2p)"
    watch = second.find_element(By.CSS_SELECTOR, f"{item} button[data-watch]")
    assert watch.get_attribute("aria-label") == f"Watch table {table} (italian-2p)"
    button.click()
    _until(second, f"return location.pathname === '/table/{table}' && !location.search",
           "the table page, the join taken out of the address")
    _wait(second, lambda s: s["ply"] is not None, "the joined seat's first view")
    held = json.loads(second.execute_script(
        f"return sessionStorage.getItem('burraco-seat:{table}')"))
    assert held["seat"] == 1 and len(held["token"]) >= 40
    assert "you are seat 1" in second.find_element(By.ID, "table-info").text

    # The table plays: seat 0 (the first browser) a turn, then seat 1 (the second) a turn.
    moves = _play_a_turn(first)
    moves += _play_a_turn(second)
    with urllib.request.urlopen(f"{server.url}/api/tables/{table}") as answer:
        summary = json.load(answer)
    assert summary["open_seats"] == [] and summary["ply"] >= 4
    assert [p["kind"] for p in summary["seats"]] == ["human", "human"]

    # Watch, from the list, in a tab of its own (the seat's tab keeps its token): the table page
    # for a spectator.
    second.switch_to.new_window("tab")
    second.get(server.url + "/")
    _until(second, f"return document.querySelector(\"{item} button[data-watch]\")", "Watch")
    text = second.find_element(By.CSS_SELECTOR, item).text
    assert "playing hand 1" in text and "seat 1: a person" in text and "free" not in text
    assert not second.find_elements(By.CSS_SELECTOR, f"{item} button[data-join]")
    second.find_element(By.CSS_SELECTOR, f"{item} button[data-watch]").click()
    _wait(second, lambda s: s["ply"] is not None, "the spectator's view")
    assert "watching" in second.find_element(By.ID, "table-info").text
    assert int(_page_state(second)["ply"]) == summary["ply"]

    # The join link again, once the seat is taken: it says so and watches.
    second.switch_to.new_window("tab")
    second.get(join)
    _wait(second, lambda s: s["ply"] is not None, "the late joiner's view")
    error = second.find_element(By.ID, "error").text
    assert error.startswith("Seat 1 could not be taken: seat 1 of table") and \
        "claimed already" in error and error.endswith("Watching the table."), error
    assert "watching" in second.find_element(By.ID, "table-info").text
    assert not _problems(first) and not _problems(second)
