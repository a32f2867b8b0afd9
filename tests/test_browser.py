"""The browser table of burraco serve (docs/server.md "The browser table"), played in headless
Chromium: a real server in a subprocess, the lobby makes an italian-2p table against the heuristic
bot, and a whole hand is played by clicking the page's own controls (the stock or the pile, the
cards of the hand, Meld, a meld of the table to lay off on, Discard). The page is checked to show
the hand's result, and the server's record of the table to hold the moves played.

It needs Debian's chromium and chromium-driver and Selenium; without the browser the test is
skipped, except under CI (the environment variable CI set), where it fails: CI must run it."""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

import burraco

pytestmark = [pytest.mark.browser, pytest.mark.slow]  # CI runs them in its slow step

ROOT = Path(__file__).resolve().parent.parent
MISSING = "install Debian's chromium and chromium-driver (apt-get install chromium chromium-driver) and selenium"
HAND_SECONDS = 75  # the whole hand, clicks and bot moves together


def _missing(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"CI must run the browser test: {reason}")
    pytest.skip(reason)


def _browser_paths() -> tuple[str, str]:
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver") or (
        "/usr/bin/chromedriver" if os.path.exists("/usr/bin/chromedriver") else None
    )
    if not browser or not driver:
        _missing(f"chromium or chromedriver not found: {MISSING}")
    return browser, driver  # type: ignore[return-value]


class Served:
    """`burraco serve` on a free loopback port with a temporary database."""

    def __init__(self, db: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "burraco", "serve", "--port", "0", "--seed", "7", "--db", str(db)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert found, f"burraco serve did not say where it listens: {line!r}"
        self.url = f"http://127.0.0.1:{found.group(1)}"

    def stop(self) -> str:
        """Stops the server; what it printed after its first line."""
        if self.process.poll() is None:
            self.process.terminate()
        try:
            out, _ = self.process.communicate(timeout=10)
        except subprocess.TimeoutExpired:  # pragma: no cover
            self.process.kill()
            out, _ = self.process.communicate()
        return out


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Served]:
    pytest.importorskip("uvicorn")
    pytest.importorskip("starlette")
    served = Served(tmp_path / "tables.sqlite3")
    try:
        yield served
    finally:
        served.stop()


def start_chrome(width: int = 1280, height: int = 800):
    """Headless Chromium through Selenium, its page's viewport `width` x `height` (a window of
    that size has less room inside); skipped without the browser (failed under CI)."""
    browser, chromedriver = _browser_paths()
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        _missing(f"selenium is not installed: {MISSING}")
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                     f"--window-size={width},{height}", "--disable-gpu", "--hide-scrollbars"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    chrome = webdriver.Chrome(service=Service(chromedriver), options=options)
    set_viewport(chrome, width, height)
    return chrome


def set_viewport(chrome, width: int, height: int, mobile: bool = False) -> None:
    """The page's viewport, in CSS pixels (a phone's with `mobile`: the page's meta viewport
    counts), for the current tab."""
    chrome.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})


@pytest.fixture
def driver() -> Iterator[object]:
    chrome = start_chrome()
    try:
        yield chrome
    finally:
        chrome.quit()


def _page_state(chrome) -> dict:
    return chrome.execute_script(
        "const d = document.body.dataset;"
        "return {ply: d.ply, phase: d.phase, yourTurn: d.yourTurn, pending: d.pending,"
        " result: d.result === undefined ? null : d.result, status: d.status,"
        " legal: [...document.querySelectorAll('#legal-list li')].map(li => li.dataset.move),"
        " hand: [...document.querySelectorAll('#hand .card')].map(c => c.dataset.card),"
        " error: document.getElementById('error').hidden ? null : document.getElementById('error').textContent};"
    )


def _wait(chrome, condition, what: str, timeout: float = 20.0) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        state = _page_state(chrome)
        if condition(state):
            return state
        if time.monotonic() > deadline:
            pytest.fail(f"the page did not reach {what} in {timeout} s: {state}")
        time.sleep(0.03)


def _my_turn_or_result(state: dict) -> bool:
    return state["result"] is not None or (state["yourTurn"] == "true" and not state["pending"])


def _click(chrome, selector: str) -> None:
    from selenium.webdriver.common.by import By

    chrome.find_element(By.CSS_SELECTOR, selector).click()


def _select(chrome, cards: list[str]) -> None:
    """Click the hand's cards named `cards` (a multiset), each on its own element."""
    names = _page_state(chrome)["hand"]
    used: set[int] = set()
    for name in cards:
        index = next(i for i, n in enumerate(names) if n == name and i not in used)
        used.add(index)
        _click(chrome, f'#hand .card[data-index="{index}"]')


def _played(chrome, before: str) -> dict:
    """Wait for the move just clicked to be acknowledged (a new ply, or the hand's end)."""
    return _wait(chrome, lambda s: s["result"] is not None
                 or (s["ply"] != before and not s["pending"]), "the next view")


def _ask_for_a_hint(chrome, legal: list[str]) -> None:
    """Click Hint: the advice names one of the legal moves, which the list of legal moves marks,
    and the button counts the hints left (docs/server.md "Hints")."""
    from selenium.webdriver.common.by import By

    button = chrome.find_element(By.ID, "suggest")
    assert button.is_enabled() and button.text == "Hint"
    button.click()
    advice = _wait_for(chrome, "return document.getElementById('advice').dataset.move || null",
                       "a hint")
    assert advice in legal
    shown = chrome.find_element(By.ID, "advice").text
    assert shown.startswith(f"Hint: {advice} (") and "searches" in shown
    marked = chrome.execute_script(
        "return [...document.querySelectorAll('#legal-list li.hinted')].map(li => li.dataset.move)")
    assert marked == [advice]
    assert chrome.find_element(By.ID, "suggest").text == "Hint (2)"


def _wait_for(chrome, script: str, what: str, timeout: float = 20.0):
    deadline = time.monotonic() + timeout
    while (value := chrome.execute_script(script)) is None:
        if time.monotonic() > deadline:
            pytest.fail(f"the page did not show {what} in {timeout} s")
        time.sleep(0.03)
    return value


def test_a_whole_hand_is_played_by_clicking_the_page(server, driver, tmp_path):
    url = server.url
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    chrome = driver
    started = time.monotonic()
    chrome.get(url + "/")
    # The menu of presets comes from GET /api/presets: every preset of the engine, in its order.
    deadline = time.monotonic() + 10
    while len(Select(chrome.find_element(By.ID, "preset")).options) < len(burraco.Rules.PRESETS):
        assert time.monotonic() < deadline, "the lobby did not list the presets"
        time.sleep(0.05)
    menu = Select(chrome.find_element(By.ID, "preset"))
    assert [option.get_attribute("value") for option in menu.options] == list(burraco.Rules.PRESETS)
    assert menu.first_selected_option.text == "italian-2p — " + burraco.Rules.presets()["italian-2p"]
    chrome.save_screenshot(str(tmp_path / "server-lobby.png"))
    menu.select_by_value("italian-2p")
    Select(chrome.find_element(By.ID, "seat-0")).select_by_value("human")
    Select(chrome.find_element(By.ID, "seat-1")).select_by_value("bot:heuristic")
    _click(chrome, "#create")
    deadline = time.monotonic() + 10
    while "/table/" not in chrome.current_url:
        assert time.monotonic() < deadline, "the lobby did not open the table page"
        time.sleep(0.05)
    table = re.search(r"/table/([A-Za-z0-9_-]+)", chrome.current_url).group(1)
    # The token was in the fragment only, and the page took it out of the address bar.
    _wait(chrome, lambda s: s["ply"] is not None, "the first view")
    assert "token" not in chrome.current_url
    token = json.loads(chrome.execute_script(f"return sessionStorage.getItem('burraco-seat:{table}')"))["token"]

    rng = random.Random(5)
    clicked: list[str] = []
    turns = 0
    shot = tmp_path / "server-table.png"
    screenshot_taken = False
    while True:
        state = _wait(chrome, _my_turn_or_result, "the seat's turn", timeout=30)
        if state["result"] is not None:
            break
        assert time.monotonic() - started < HAND_SECONDS, f"the hand took over {HAND_SECONDS} s"
        legal = state["legal"]
        assert state["error"] is None, state["error"]
        if state["phase"] == "draw":
            turns += 1
            if turns == 1:
                _ask_for_a_hint(chrome, legal)
            # The stock, or the pile when the stock cannot be drawn from (or now and then).
            if "draw" in legal and ("pile" not in legal or rng.random() < 0.8):
                _click(chrome, "#stock.active .card")
                clicked.append("draw")
            else:
                _click(chrome, "#pile.active")
                clicked.append("pile")
            _played(chrome, state["ply"])
            continue
        melds = [m for m in legal if m.startswith("meld ")]
        adds = [m for m in legal if m.startswith("add ")]
        if melds:
            move = melds[0]
            _select(chrome, move.split()[1:])
            assert chrome.find_element(By.ID, "meld").is_enabled()
            _click(chrome, "#meld")
        elif adds:
            move = adds[0]
            _, index, card = move.split()
            _select(chrome, [card])
            _click(chrome, f'.side.mine .meld.target[data-index="{index}"]')
        else:
            discards = [m for m in legal if m.startswith("discard ")]
            assert discards, legal
            move = rng.choice(discards)
            _select(chrome, [move.split()[1]])
            if not screenshot_taken and (_worth_a_picture(chrome) or turns >= 18):
                # Mid-hand (a burraco down, cards on the pile), a card selected, Discard enabled.
                chrome.save_screenshot(str(shot))
                screenshot_taken = True
            assert chrome.find_element(By.ID, "discard").is_enabled()
            assert not chrome.find_element(By.ID, "meld").is_enabled() or len(state["hand"]) > 1
            _click(chrome, "#discard")
        clicked.append(move)
        _played(chrome, state["ply"])

    # The result is on the page.
    dialog = chrome.find_element(By.ID, "result")
    assert dialog.is_displayed()
    totals = chrome.find_elements(By.CSS_SELECTOR, '#result-table td[data-field="total"]')
    assert len(totals) == 2 and all(re.fullmatch(r"-?\d+", t.text) for t in totals)
    assert turns >= 3
    chrome.save_screenshot(str(tmp_path / "server-result.png"))
    if not screenshot_taken:
        chrome.save_screenshot(str(shot))
    kinds = {kind: sum(m.split()[0] == kind for m in clicked) for kind in ("draw", "pile", "meld", "add", "discard")}
    print(f"\nmoves clicked: {kinds}")
    print(f"screenshot of the table mid-hand: {shot} ({turns} turns, {time.monotonic() - started:.1f} s)")

    # No script error on the way.
    problems = [entry for entry in chrome.get_log("browser") if entry["level"] == "SEVERE"]
    assert not problems, problems

    # The server's record holds the hand, with the moves clicked in it, in order.
    with urllib.request.urlopen(f"{url}/api/tables/{table}/record") as answer:
        records = json.load(answer)
    assert len(records) == 1
    record = records[0]
    assert record["result"]["sides"][0]["total"] == int(totals[0].text)
    mine = [move for move, seat in zip(record["moves"], _movers(record)) if seat == 0]
    assert mine == clicked
    with urllib.request.urlopen(f"{url}/api/tables/{table}") as answer:
        assert json.load(answer)["status"] == "finished"

    _review_the_hand(chrome, table, record, tmp_path)

    # The token reached the server in the socket's query string only, and is in none of its logs.
    log = server.stop()
    assert "WebSocket" in log and token not in log, log


def _review_the_hand(chrome, table: str, record: dict, tmp_path: Path) -> None:
    """The result dialog's link opens the hand's review (docs/server.md "Reviews"): it steps
    through the moves, each hand open, and says what the search thought of each decision."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    link = chrome.find_element(By.ID, "review-link")
    assert link.get_attribute("href").endswith(f"/review/{table}?hand=0")
    chrome.get(link.get_attribute("href"))  # the same page, not a second tab
    _wait_for(chrome, "return document.body.dataset.loaded || null", "the review", timeout=60)
    moves = chrome.find_elements(By.CSS_SELECTOR, "#moves li")
    assert [m.text.split(": ", 1)[1] for m in moves] == record["moves"]
    assert chrome.find_element(By.ID, "at").text == f"before move 1 of {len(record['moves'])}"
    first = chrome.find_element(By.ID, "decision").text
    assert first.startswith(f"Seat {record['first']} played {record['moves'][0]}"), first
    hands = chrome.find_elements(By.CSS_SELECTOR, "#board .review-hand")
    assert len(hands) == 2 and all(h.find_elements(By.CSS_SELECTOR, ".card") for h in hands)
    chrome.find_element(By.ID, "next").click()
    assert chrome.execute_script("return document.body.dataset.at") == "1"
    chrome.find_element(By.TAG_NAME, "body").send_keys(Keys.END)
    assert chrome.execute_script("return document.body.dataset.at") == str(len(moves))
    assert chrome.find_element(By.ID, "decision").text == "The hand is over."
    chrome.save_screenshot(str(tmp_path / "server-review.png"))
    problems = [entry for entry in chrome.get_log("browser") if entry["level"] == "SEVERE"]
    assert not problems, problems


def _worth_a_picture(chrome) -> bool:
    return chrome.execute_script(
        "return document.querySelectorAll('.meld.burraco').length > 0"
        " && document.querySelectorAll('#pile .card:not(.slot)').length >= 1"
        " && document.querySelectorAll('#hand .card').length >= 3;"
    )


def _movers(record: dict) -> list[int]:
    """The seat that played each move of a finished record (the engine replays it)."""
    import burraco

    game = burraco.Game.from_record(record)
    seats = []
    for _ in record["moves"]:
        game.pop()
        seats.append(game.turn)
    return seats[::-1]
