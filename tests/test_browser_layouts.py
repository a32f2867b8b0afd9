"""The browser table on every kind of screen (docs/server.md "The browser table"): one
`burraco serve` and one headless Chromium for the whole file. Two tables are played by clicking to
the middle of a hand (italian-2p against bot:heuristic, and a six-player brazilian table of bots,
the widest table), each in a tab of its own, with the lobby in a third; then, for each of five
viewports (a phone upright and on its side, a tablet, a laptop, a desktop), every page is checked:

* nothing runs off the screen sideways: the page does not scroll sideways, and every element lies
  within the viewport's width; no text is set one word a line;
* on a laptop (1280x720) and a desktop (1920x1080), and on the tablet too, the whole table is in
  the window without scrolling: the turn banner, every meld, the stock and the pile, the players,
  the scores, the last move, the hand and its buttons;
* on a phone, the turn banner, the hand and its buttons are in sight without scrolling, and every
  meld, the stock and the pile can be scrolled to and are then not hidden under anything.

A part of a hand is then played with the keyboard alone. Screenshots of every page and viewport
are written to the folder named by the environment variable BURRACO_SCREENSHOTS (by default a
temporary folder of pytest): docs/images/server-phone.png and server-laptop.png are two of them.

Like tests/test_browser.py, it needs Debian's chromium and chromium-driver and Selenium; without
them it is skipped, except under CI (the environment variable CI set), where it fails."""

from __future__ import annotations

import json
import os
import random
import re
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_browser import (Served, _click, _page_state, _select, _wait, set_viewport,
                          start_chrome)

pytestmark = [pytest.mark.browser, pytest.mark.slow]  # CI runs them in its slow step

# name: (width, height, mobile)
VIEWPORTS = {
    "phone": (390, 844, True),
    "phone-landscape": (844, 390, True),
    "tablet": (768, 1024, True),
    "laptop": (1280, 720, False),
    "desktop": (1920, 1080, False),
}
# The viewports where the whole table is in the window without scrolling.
WHOLE = ("tablet", "laptop", "desktop")
PAGES = ("lobby", "lobby-list", "two", "six", "two-full", "six-full", "review")
CARD_NAME = re.compile(
    r"^(joker|(ace|king|queen|jack|[3-9]|10|2) of (spades|hearts|clubs|diamonds))\b")


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    folder = os.environ.get("BURRACO_SCREENSHOTS")
    path = Path(folder) if folder else tmp_path_factory.mktemp("screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture(scope="module")
def served(tmp_path_factory) -> Iterator[Served]:
    pytest.importorskip("uvicorn")
    pytest.importorskip("starlette")
    server = Served(tmp_path_factory.mktemp("db") / "tables.sqlite3")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def chrome() -> Iterator[object]:
    driver = start_chrome(1280, 720)
    try:
        yield driver
    finally:
        driver.quit()


def _create(url: str, preset: str, seats: list[str], knobs: dict | None = None) -> tuple[str, str]:
    """POST /api/tables; the table's id and seat 0's token."""
    body = {"preset": preset, "seats": seats}
    if knobs:
        body["knobs"] = knobs
    request = urllib.request.Request(f"{url}/api/tables", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request) as answer:
        made = json.load(answer)
    return made["id"], made["tokens"]["0"]


def _lobby_with_its_list(chrome, url: str) -> str:
    """The lobby with the public tables listed (docs/server.md "The lobby"), a six-player match
    waiting for two people among them, and the join links of a table just made there with an
    open seat: a tab's handle."""
    for body in ({"preset": "brazilian", "knobs": {"players": 6}, "match": True, "public": True,
                  "seats": ["open", "bot:ismcts:300", "human", "bot:heuristic", "open",
                            "bot:random"]},
                 {"preset": "italian", "public": True,
                  "seats": ["human", "open", "bot:heuristic", "bot:greedy"]}):
        request = urllib.request.Request(f"{url}/api/tables", data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"})
        urllib.request.urlopen(request).close()
    handle = _open_tab(chrome, f"{url}/")
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    deadline = time.monotonic() + 10
    while len(Select(chrome.find_element(By.ID, "seat-1")).options) < 2:
        assert time.monotonic() < deadline, "the lobby did not draw its seats"
        time.sleep(0.05)
    Select(chrome.find_element(By.ID, "seat-1")).select_by_value("open")
    _click(chrome, "#public")
    _click(chrome, "#create")
    for _ in range(200):
        if chrome.execute_script("return document.querySelectorAll('#public-list > li').length "
                                 ">= 3 && !document.getElementById('made').hidden"):
            return handle
        time.sleep(0.05)
    pytest.fail("the lobby did not list its public tables and the join link in 10 s")


def _open_tab(chrome, address: str, first: bool = False) -> str:
    if not first:
        chrome.switch_to.new_window("tab")
    set_viewport(chrome, *VIEWPORTS["laptop"])
    chrome.get(address)
    return chrome.current_window_handle


def _play_one(chrome, state: dict, rng: random.Random) -> None:
    """One move of seat 0 by clicking, as a plain player would: draw from the stock, meld what
    can be melded, lay off what can be laid off, else discard."""
    legal = state["legal"]
    others = [m for m in legal if m.split()[0] not in ("draw", "pile", "meld", "add", "discard")]
    if "draw" in legal:
        _click(chrome, "#stock.active .card")
    elif others:
        _click(chrome, f'#other-moves button[data-move="{others[0]}"]')
    elif "pile" in legal:
        _click(chrome, "#pile.active")
    elif melds := [m for m in legal if m.startswith("meld ")]:
        _select(chrome, melds[0].split()[1:])
        _click(chrome, "#meld")
    elif adds := [m for m in legal if m.startswith("add ")]:
        _, index, card = adds[0].split()
        _select(chrome, [card])
        _click(chrome, f'.side.mine .meld.target[data-index="{index}"]')
    else:
        discards = [m for m in legal if m.startswith("discard ")]
        assert discards, legal
        _select(chrome, [rng.choice(discards).split()[1]])
        _click(chrome, "#discard")
    _wait(chrome, lambda s: s["result"] is not None
          or (s["ply"] != state["ply"] and not s["pending"]), "the view of the move clicked")


def _my_turn(state: dict) -> bool:
    return state["result"] is not None or (state["yourTurn"] == "true" and not state["pending"])


def _melds(chrome) -> tuple[int, int]:
    """The melds of seat 0's side, and of the others."""
    return chrome.execute_script(
        "return [document.querySelectorAll('.side.mine .meld').length,"
        " document.querySelectorAll('.side:not(.mine) .meld').length];")


def _play_to_the_middle(chrome, enough, turns: int, seed: int) -> None:
    """Play seat 0 until, just after one of its draws, `enough(mine, others, state)` holds (or
    after `turns` draws); the hand must not end on the way."""
    rng = random.Random(seed)
    played = 0
    while True:
        state = _wait(chrome, _my_turn, "seat 0's turn", timeout=30)
        assert state["result"] is None, "the hand ended before the middle"
        assert state["error"] is None, state["error"]
        drawing = "draw" in state["legal"]
        _play_one(chrome, state, rng)
        if drawing:
            played += 1
            state = _wait(chrome, _my_turn, "seat 0's turn after its draw", timeout=30)
            mine, others = _melds(chrome)
            if state["result"] is None and (played >= turns or enough(mine, others, state)):
                return


def _reviewed_hand(url: str) -> str:
    """The review page of a hand of two bots, played to its end (docs/server.md "Reviews")."""
    body = {"preset": "italian-2p", "seats": ["bot:greedy", "bot:random"], "bot_delay": 0}
    request = urllib.request.Request(f"{url}/api/tables", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request) as answer:
        table = json.load(answer)["id"]
    for _ in range(600):
        with urllib.request.urlopen(f"{url}/api/tables/{table}") as answer:
            if json.load(answer)["status"] == "finished":
                return f"{url}/review/{table}?hand=0"
        time.sleep(0.05)
    pytest.fail("the bots did not finish their hand in 30 s")


def _wait_loaded(chrome) -> None:
    for _ in range(1200):
        if chrome.execute_script("return document.body.dataset.loaded === 'true'"):
            return
        time.sleep(0.05)
    pytest.fail("the review page did not load in 60 s")


@pytest.fixture(scope="module")
def tabs(served, chrome) -> dict[str, str]:
    """The lobby and two tables in the middle of a hand, each in a tab: name -> window handle."""
    found: dict[str, str] = {}
    table, token = _create(served.url, "italian-2p", ["human", "bot:heuristic"])
    found["two"] = _open_tab(chrome, f"{served.url}/table/{table}#seat=0&token={token}", first=True)
    _play_to_the_middle(
        chrome, lambda mine, others, s: mine >= 2 and others >= 2 and len(s["hand"]) >= 6,
        turns=14, seed=3)
    # A card with a meld to lay it off on, selected: the meld glows.
    adds = [m for m in _page_state(chrome)["legal"] if m.startswith("add ")]
    if adds:
        _select(chrome, [adds[0].split()[2]])

    table, token = _create(served.url, "brazilian", ["human"] + ["bot:heuristic"] * 5,
                           {"players": 6})
    found["six"] = _open_tab(chrome, f"{served.url}/table/{table}#seat=0&token={token}")
    _play_to_the_middle(chrome, lambda mine, others, s: mine + others >= 6, turns=10, seed=4)

    found["lobby"] = _open_tab(chrome, f"{served.url}/")
    found["review"] = _open_tab(chrome, _reviewed_hand(served.url))
    _wait_loaded(chrome)
    found["lobby-list"] = _lobby_with_its_list(chrome, served.url)
    for name, players in (("two-full", 2), ("six-full", 6)):
        found[name] = _open_staged(chrome, served.url, _full_table(players))
        _wait(chrome, lambda s: s["ply"] is not None, f"the staged view of {name}")
        # A card that goes on one of the side's melds, selected: that meld glows.
        _click(chrome, '#hand .card[data-card="4s"]')
    return found


# ---- a table late in a hand, staged -----------------------------------------------------------

# A late and crowded position, more than a hand usually has at once: long runs, burracos, a hand
# of 22 cards (a large pile just taken), a pile of 24. The page is given it as the view frame of a
# socket of its own (the page knows no rules: it draws the frame), so that every screen is checked
# on the most it may have to show.
MELDS = [
    ("3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh", "run", 160, "clean"),
    ("Qs Qs Qd Qc Qh Qh 2c(=Q)", "set", 180, "semi-clean"),
    ("5c 6c 2d(=7c) 8c 9c", "run", 30, None),
    ("Ad As Ac", "set", 45, None),
    ("9d Td Jd Qd Kd", "run", 50, None),
    ("Kc Kd Ks Jk(=K)", "set", 70, None),
    ("4s 5s 6s 7s 8s 9s Jk(=Ts)", "run", 170, "dirty"),
    ("7d 7h 7c", "set", 15, None),
    ("Jc Jd Js Jh", "set", 40, None),
]
HAND = ["3c", "3d", "4c", "4d", "4s", "5d", "5h", "6d", "6h", "6s", "7c", "8d", "8h", "9s", "Tc",
        "Td", "Ts", "Jd", "Kh", "Ah", "2s", "Jk"]
PILE = ["3s", "5s", "6c", "7s", "8c", "9h", "Tc", "Th", "4h", "3d", "Kc", "2h", "5c", "8s", "9c",
        "Jd", "Qc", "Qs", "Ks", "Ad", "6d", "7h", "8d", "Ts"]


def _full_table(players: int) -> dict:
    sides = 3 if players == 6 else 2
    per_side = 7 if players == 6 else len(MELDS)
    seats = [{"seat": seat, "side": seat % sides, "hand_size": len(HAND) if seat == 0 else 9,
              "hand": HAND if seat == 0 else None, "known": ["Qh", "Qd"] if seat == 1 else []}
             for seat in range(players)]
    melds = [{"layout": layout, "kind": kind, "points": points, "burraco": burraco}
             for layout, kind, points, burraco in MELDS]
    view = {
        "rules": "brazilian:players=6" if players == 6 else "italian-2p", "players": players,
        "turn": 0, "phase": "meld", "scores": [0] * sides, "seats": seats,
        "sides": [{"side": side, "seats": [s for s in range(players) if s % sides == side],
                   "melds": melds[side % 2:][:per_side], "opened": True, "need": None}
                  for side in range(sides)],
        "pile": PILE, "top": PILE[-1], "stock_size": 31,
        "pozzetti": [{"status": "untaken", "owner": None, "size": 11},
                     {"status": "in_hand", "owner": 1, "size": 11}],
    }
    legal = ["meld 3c 3d 3s", "add 3 4s", "add 5 4s"]
    legal += [f"discard {card}" for card in sorted(set(HAND))]
    # Who plays each seat (docs/server.md "When a person leaves"): seat 1's person left and a bot
    # plays it; seat 0 is on a turn clock.
    players = [{"seat": seat, "kind": "human" if seat < 2 else "bot",
                "policy": None if seat < 2 else "heuristic",
                "played_by": "bot:heuristic" if seat else "person", "replaced": seat == 1,
                "connected": int(seat == 0), "away": seat == 1, "grace": None,
                "returning": False, "timeouts": 0} for seat in range(players)]
    return {"type": "view", "table": "staged", "seat": 0, "hand": 0, "ply": 140,
            "status": "playing", "your_turn": True, "legal": legal,
            "last": {"seat": 1, "moves": ["discard Ts"]}, "match": None, "view": view, "seq": None,
            "players": players, "clock": {"seat": 0, "turn_seconds": 30, "seconds": 600}}


# The stand-ins, run before the page's own scripts: GET /api/tables/staged answers SEATS, and the
# socket opens and sends FRAME.
STAND_IN = """
const fetched = window.fetch;
window.fetch = (address, options) => String(address).endsWith('/api/tables/staged')
  ? Promise.resolve(new Response(SEATS, {headers: {'Content-Type': 'application/json'}}))
  : fetched(address, options);
window.WebSocket = class {
  static OPEN = 1;
  constructor() {
    this.readyState = 1;
    setTimeout(() => { this.onopen && this.onopen(); this.onmessage({data: FRAME}); }, 0);
  }
  send() {}
  close() {}
};
"""


def _open_staged(chrome, url: str, frame: dict) -> str:
    """A tab whose table page gets `frame` from a stand-in for its play socket."""
    chrome.switch_to.new_window("tab")
    seats = [{"seat": 0, "kind": "human"}] + [
        {"seat": seat, "kind": "bot", "policy": "heuristic"}
        for seat in range(1, frame["view"]["players"])]
    stand_in = STAND_IN.replace("SEATS", json.dumps(json.dumps({"seats": seats})))
    stand_in = stand_in.replace("FRAME", json.dumps(json.dumps(frame)))
    chrome.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": stand_in})
    set_viewport(chrome, *VIEWPORTS["laptop"])
    chrome.get(f"{url}/table/staged#seat=0&token=staged")
    return chrome.current_window_handle


def _show(chrome, tabs: dict[str, str], page: str, viewport: str) -> None:
    chrome.switch_to.window(tabs[page])
    width, height, mobile = VIEWPORTS[viewport]
    set_viewport(chrome, width, height, mobile)
    chrome.execute_script("window.scrollTo(0, 0)")
    # Two frames: the resize handled (the melds fitted), the page laid out and painted.
    chrome.execute_async_script(
        "const done = arguments[0];"
        " requestAnimationFrame(() => requestAnimationFrame(() => done()));")
    # A phone's browser lays out a page wider than the screen at that width and zooms out.
    inner = chrome.execute_script("return [innerWidth, innerHeight]")
    assert inner == [width, height], f"{page} at {viewport}: the page's viewport is {inner}"


# What lies outside the viewport's width, and which text is set one word a line.
SIDEWAYS = """
const width = innerWidth;
const name = (e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '')
  + (typeof e.className === 'string' && e.className
     ? '.' + e.className.trim().split(/\\s+/).join('.') : '');
const wide = [];
for (const e of document.querySelectorAll('body *')) {
  const r = e.getBoundingClientRect();
  if (r.width === 0 && r.height === 0) continue;
  if (r.left < -0.5 || r.right > width + 0.5) {
    wide.push(`${name(e)} [${Math.round(r.left)}, ${Math.round(r.right)}]`);
  }
}
const wordy = [];
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
while (walker.nextNode()) {
  const text = walker.currentNode;
  const words = text.textContent.trim().split(/\\s+/).filter(Boolean);
  if (words.length < 3) continue;
  const range = document.createRange();
  range.selectNodeContents(text);
  const rects = [...range.getClientRects()].filter((r) => r.width > 0);
  const lines = new Set(rects.map((r) => Math.round(r.top)));
  if (lines.size >= words.length) {
    wordy.push(`${name(text.parentElement)}: ${text.textContent.trim()}`);
  }
}
// The glow of a meld that takes the selected cards (8 px around it): inside the screen's width
// and inside the box of the melds when that box scrolls (and so cuts what passes its edges).
const glows = [];
const sides = document.getElementById('sides');
const cut = sides && getComputedStyle(sides).overflowY !== 'visible'
  ? sides.getBoundingClientRect() : null;
document.querySelectorAll('.meld.target').forEach((e, i) => {
  const r = e.getBoundingClientRect();
  if (r.left - 8 < 0 || r.right + 8 > width) glows.push(`.meld.target #${i} past the screen`);
  if (cut && (r.left - 8 < cut.left || r.right + 8 > cut.right
              || r.top - 8 < cut.top || r.bottom + 8 > cut.bottom)) {
    glows.push(`.meld.target #${i} cut by the melds' box`);
  }
});
return {scrollWidth: document.documentElement.scrollWidth, width, wide: wide.slice(0, 12),
        wordy: wordy.slice(0, 12), glows,
        targets: document.querySelectorAll('.meld.target').length};
"""

# Which of the things a player needs are not wholly in the window.
OUT_OF_SIGHT = """
const [width, height] = [innerWidth, innerHeight];
const inside = (e, box) => {
  const r = e.getBoundingClientRect();
  const b = box ? box.getBoundingClientRect() : {top: 0, left: 0, bottom: height, right: width};
  return r.width > 0 && r.height > 0
    && r.top >= Math.max(0, b.top) - 0.5 && r.left >= Math.max(0, b.left) - 0.5
    && r.bottom <= Math.min(height, b.bottom) + 0.5 && r.right <= Math.min(width, b.right) + 0.5;
};
const out = [];
const need = (selector, box) => {
  const found = [...document.querySelectorAll(selector)];
  if (found.length === 0) out.push(selector + ' (missing)');
  found.forEach((e, i) => { if (!inside(e, box)) out.push(`${selector} #${i}`); });
};
for (const s of ['#turn', '#stock', '#pile', '#seats', '#scores', '#hand', '#hand .card',
                 '#meld', '#discard']) {
  need(s);
}
need('.meld', document.getElementById('sides'));
need('.meld');
need('#log .last', document.getElementById('log'));
const sides = document.getElementById('sides');
if (sides.scrollHeight > sides.clientHeight + 1) out.push('#sides scrolls');
const tall = document.documentElement.scrollHeight;
if (tall > height + 1) out.push(`the page scrolls (${tall} px)`);
return out;
"""

# On a phone: what is not in sight at the top of the page (the turn banner, the hand and its
# buttons), and what cannot be scrolled to and pointed at (the stock, the pile, the melds, the
# hand's cards: the point at the middle of what shows of each is that element).
UNREACHABLE = """
const height = innerHeight;
const out = [];
const seen = (e) => {
  const r = e.getBoundingClientRect();
  return r.height > 0 && r.top >= -0.5 && r.bottom <= height + 0.5;
};
for (const s of ['#turn', '.hand-area', '#meld', '#discard']) {
  if (!seen(document.querySelector(s))) out.push(s + ' not in sight');
}
const area = document.querySelector('.hand-area').getBoundingClientRect();
if (area.height > height * 0.45) {
  out.push(`the hand's area takes ${Math.round(area.height)} px of ${height}`);
}
const pointed = (e, shown) => {
  e.scrollIntoView({block: 'center'});
  const r = (shown || e).getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + Math.min(r.height, 40) / 2);
  return hit !== null && (hit === e || e.contains(hit));
};
if (!pointed(document.getElementById('stock').querySelector('.card'))) out.push('#stock');
if (!pointed(document.getElementById('pile'))) out.push('#pile');
document.querySelectorAll('.meld').forEach((e, i) => { if (!pointed(e)) out.push('.meld #' + i); });
document.querySelectorAll('#hand .slot').forEach((slot, i) => {
  if (!pointed(slot.querySelector('.card'), slot)) out.push('#hand .card #' + i);
});
window.scrollTo(0, 0);
return out;
"""


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_every_page_fits_the_screen(chrome, tabs, shots, viewport):
    for page in PAGES:
        _show(chrome, tabs, page, viewport)
        chrome.save_screenshot(str(shots / f"{viewport}-{page}.png"))
        found = chrome.execute_script(SIDEWAYS)
        assert found["scrollWidth"] <= found["width"], (page, found)
        assert not found["wide"], (page, found["wide"])
        assert not found["wordy"], (page, found["wordy"])
        assert not found["glows"], (page, found["glows"])
        if page.endswith("-full"):
            assert found["targets"] == 2, (page, found["targets"])
        if page in ("lobby", "lobby-list", "review"):
            continue
        if viewport in WHOLE:
            missing = chrome.execute_script(OUT_OF_SIGHT)
            assert not missing, (page, missing)
        else:
            missing = chrome.execute_script(UNREACHABLE)
            assert not missing, (page, missing)
            if VIEWPORTS[viewport][1] > 500:
                # Further down the page, for the eye: the melds, the moves, the scores.
                chrome.execute_script("window.scrollTo(0, document.documentElement.scrollHeight)")
                chrome.save_screenshot(str(shots / f"{viewport}-{page}-end.png"))
                chrome.execute_script("window.scrollTo(0, 0)")


def test_the_table_names_and_marks_its_cards(chrome, tabs):
    """Accessible names for the cards, the melds, the stock and the pile; the card just drawn
    marked; four suit colours, each suit with its symbol; the disabled buttons disabled."""
    _show(chrome, tabs, "two", "laptop")
    found = chrome.execute_script("""
        const label = (e) => e.getAttribute('aria-label') || '';
        return {
          hand: [...document.querySelectorAll('#hand .card')].map(label),
          melds: [...document.querySelectorAll('.meld')].map(label),
          meldCards: [...document.querySelectorAll('.meld .card')].map(label),
          stock: label(document.getElementById('stock')),
          pile: label(document.getElementById('pile')),
          fresh: [...document.querySelectorAll('#hand .card.fresh')]
            .map((c) => [c.dataset.card, label(c), c.textContent]),
          tabbable: [...document.querySelectorAll('#hand .card')]
            .every((c) => c.tabIndex === 0 && c.getAttribute('role') === 'button'),
        };""")
    assert found["hand"] and all(CARD_NAME.match(text) for text in found["hand"]), found["hand"]
    assert found["meldCards"] and all(CARD_NAME.match(text) for text in found["meldCards"])
    meld = re.compile(r"^(your side's|side \d's) meld \d+, .*\d+ points: ")
    assert found["melds"] and all(meld.match(text) for text in found["melds"]), found["melds"]
    assert found["stock"].startswith("the stock, ")
    assert found["pile"].startswith("the discard pile, ")
    assert found["tabbable"]
    # The card drawn this turn: a class, a visible "new", and words for a screen reader.
    assert len(found["fresh"]) == 1, found["fresh"]
    _, label, text = found["fresh"][0]
    assert label.endswith(", just drawn") and "new" in text

    # Who plays each seat and the turn clock, as the view says (docs/server.md).
    _show(chrome, tabs, "two-full", "laptop")
    notes = chrome.execute_script(
        "return [...document.querySelectorAll('#seats .presence')].map(e => e.textContent)")
    assert len(notes) == 2, notes
    # The clock of the staged frame (600 s) counts down from when the frame came.
    left = re.fullmatch(r"(\d+) s left to play", notes[0])
    assert left and 0 < int(left.group(1)) <= 600, notes
    assert notes[1] == "played by bot:heuristic since its person left", notes

    _show(chrome, tabs, "lobby", "laptop")
    suits = chrome.execute_script("""
        const out = {};
        for (const card of document.querySelectorAll('#fan .card:not(.joker)')) {
          const symbol = card.querySelector('.corner .s').textContent;
          out[card.dataset.card[1]] = [getComputedStyle(card).color, symbol];
        }
        return out;""")
    assert sorted(suits) == ["c", "d", "h", "s"]
    assert len({color for color, _ in suits.values()}) == 4, suits
    symbols = {suit: symbol for suit, (_, symbol) in suits.items()}
    assert symbols == {"c": "\u2663", "d": "\u2666", "h": "\u2665", "s": "\u2660"}


def _active(chrome) -> dict:
    return chrome.execute_script(
        "const a = document.activeElement;"
        "return {id: a.id, card: a.dataset.card || null,"
        " index: a.dataset.index === undefined ? null : Number(a.dataset.index),"
        " fresh: a.classList.contains('fresh'), label: a.getAttribute('aria-label'),"
        " pressed: a.getAttribute('aria-pressed')};")


def _press(chrome, key: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(chrome).send_keys(key).perform()


def _tab_to(chrome, wanted, what: str, limit: int = 60) -> int:
    """Press Tab until the focused element is `wanted(active)`; the presses it took."""
    from selenium.webdriver.common.keys import Keys

    for presses in range(limit + 1):
        if wanted(_active(chrome)):
            return presses
        _press(chrome, Keys.TAB)
    pytest.fail(f"Tab did not reach {what} in {limit} presses: {_active(chrome)}")


def _to_card(chrome, index: int) -> None:
    """From a focused card of the hand, the arrow keys to the card at `index`."""
    from selenium.webdriver.common.keys import Keys

    _press(chrome, Keys.HOME)
    for _ in range(index):
        _press(chrome, Keys.ARROW_RIGHT)
    assert _active(chrome)["index"] == index


def test_a_part_of_a_hand_is_played_with_the_keyboard_alone(chrome, tabs, served):
    from selenium.webdriver.common.keys import Keys

    table, token = _create(served.url, "italian-2p", ["human", "bot:heuristic"])
    _open_tab(chrome, f"{served.url}/table/{table}#seat=0&token={token}")
    rng = random.Random(11)
    played: list[str] = []
    state = _wait(chrome, _my_turn, "seat 0's turn")
    # The first turn starts from the top of the page: Tab reaches the stock.
    presses = _tab_to(chrome, lambda a: a["id"] == "stock", "the stock")
    assert presses <= 6
    for turn in range(3):
        state = _wait(chrome, _my_turn, "seat 0's turn")
        assert state["result"] is None and state["phase"] == "draw"
        assert _active(chrome)["id"] == "stock", "the turn starts with the focus elsewhere"
        hand = state["hand"]
        _press(chrome, Keys.ENTER)
        state = _wait(chrome, lambda s, before=state["ply"]: s["ply"] != before
                      and not s["pending"], "the draw's view")
        played.append("draw")
        # The focus is on the card drawn, marked as new.
        focused = _active(chrome)
        new = list(state["hand"])
        for name in hand:
            new.remove(name)
        assert focused["fresh"] and [focused["card"]] == new
        assert focused["label"].endswith("just drawn")
        disabled = chrome.execute_script(
            "const b = document.getElementById('meld'); const s = getComputedStyle(b);"
            "return [b.disabled, s.backgroundColor, s.borderStyle];")
        melds = [m for m in state["legal"] if m.startswith("meld ")]
        if melds and turn > 0:
            move = melds[0]
            cards = move.split()[1:]
            used: set[int] = set()
            for name in cards:
                index = next(i for i, n in enumerate(state["hand"]) if n == name and i not in used)
                used.add(index)
                _to_card(chrome, index)
                _press(chrome, Keys.SPACE)
                assert _active(chrome)["pressed"] == "true"
            _tab_to(chrome, lambda a: a["id"] == "meld", "Meld")
            _press(chrome, Keys.ENTER)
            state = _wait(chrome, lambda s, before=state["ply"]: s["ply"] != before
                          and not s["pending"], "the meld's view")
            played.append(move)
            # Back on the hand.
            assert _active(chrome)["index"] is not None
        move = rng.choice([m for m in state["legal"] if m.startswith("discard ")])
        _to_card(chrome, state["hand"].index(move.split()[1]))
        _press(chrome, Keys.ENTER)
        assert _active(chrome)["pressed"] == "true"
        _tab_to(chrome, lambda a: a["id"] == "discard", "Discard")
        enabled = chrome.execute_script(
            "const b = document.getElementById('discard'); const s = getComputedStyle(b);"
            "return [b.disabled, s.backgroundColor, s.borderStyle];")
        # A disabled button is disabled and looks it: no fill, a dashed frame.
        assert disabled[0] is True and enabled[0] is False
        assert disabled[1] == "rgba(0, 0, 0, 0)" and disabled[2] == "dashed"
        assert enabled[1] != disabled[1] and enabled[2] == "solid"
        _press(chrome, Keys.ENTER)
        state = _wait(chrome, lambda s, before=state["ply"]: s["result"] is not None
                      or (s["ply"] != before and not s["pending"]), "the discard's view")
        played.append(move)
    # The moves log of the page lists seat 0's moves as the server played them: those keyed.
    log = chrome.execute_script(
        "return [...document.querySelectorAll('#log div')].map((d) => d.textContent)")
    assert [line.removeprefix("You: ") for line in log if line.startswith("You: ")] == played
    problems = [entry for entry in chrome.get_log("browser") if entry["level"] == "SEVERE"]
    assert not problems, problems
    chrome.close()
    chrome.switch_to.window(tabs["two"])
