"""The club lobby of burraco serve (docs/server.md "The lobby"): public tables and their list,
open seats and their claim (once, even when claimed at once from many requests; persisted across
a restart; refused clearly otherwise), a table that waits for its open seats, and the grace that
never gives an open seat to a bot. The server's clock is moved by hand (tests/test_server_grace.py's
way), so nothing waits in real time."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import threading
import warnings

import pytest

pytest.importorskip("starlette")

with warnings.catch_warnings():  # Starlette's notice that its test client may change
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from burraco import _protocol  # noqa: E402
from burraco.server import ServerConfig, create_app  # noqa: E402
from burraco.server._table import RequestError, token_hash  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

FAST = {"rate": 100000.0, "burst": 100000.0, "create_rate": 0}


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def app_for(db: str = ":memory:", clock: Clock | None = None, **options):
    if clock is not None:
        options["clock"] = clock
    return create_app(ServerConfig(db=db, **{"seed": 1, **FAST, **options}))


def made(http, seats, preset="italian-2p", **extra):
    answer = http.post("/api/tables", json={"preset": preset, "seats": list(seats), **extra})
    assert answer.status_code == 201, answer.text
    return answer.json()


def claim(http, table_id, seat, **options):
    return http.post(f"/api/tables/{table_id}/seats/{seat}/claim", **options)


def listed(http, **params):
    answer = http.get("/api/tables", params=params)
    assert answer.status_code == 200, answer.text
    return answer.json()


def server_of(http):
    return http.app.state.server


def socket(http, table_id, token):
    return http.websocket_connect(f"/api/tables/{table_id}/play?token={token}")


def next_of(ws, kind, event=None):
    while True:
        frame = ws.receive_json()
        if frame["type"] == kind and (event is None or frame.get("event") == event):
            return frame


def tick(http):
    http.portal.call(server_of(http).tick)


# ---- public tables and the list ------------------------------------------------------------------


def test_only_public_tables_being_played_are_listed_newest_first():
    with TestClient(app_for()) as http:
        private = made(http, ["human", "bot:greedy"])
        assert private["public"] is False and private["join"] == {}
        first = made(http, ["human", "open"], public=True)
        bots = made(http, ["bot:random", "bot:random"], public=True, bot_delay=60)
        six = made(http, ["open", "human"] + ["bot:heuristic"] * 4, preset="brazilian",
                   knobs={"players": 6}, public=True, match=True)
        answer = listed(http)
        assert answer["total"] == 3 and answer["limit"] == _protocol.LIST_LIMIT
        assert [t["id"] for t in answer["tables"]] == [six["id"], bots["id"], first["id"]]
        shown = answer["tables"][0]
        assert shown["status"] == "waiting" and shown["open_seats"] == [0]
        assert shown["players"] == 6 and shown["match"] is True
        assert shown["scores"] == {"target": 2000, "scores": [0, 0, 0], "hands_played": 0,
                                   "over": False, "winner": None}
        assert shown["join"] == {"0": f"/table/{six['id']}?join=0"}
        assert shown["watch"] == f"/table/{six['id']}"
        assert [(s["kind"], s["free"], s["policy"]) for s in shown["seats"][:3]] == [
            ("open", True, None), ("human", False, None), ("bot", False, "heuristic")]
        assert answer["tables"][1]["status"] == "playing"  # bots only: nobody to wait for
        assert [t["id"] for t in listed(http, limit="2")["tables"]] == [six["id"], bots["id"]]
        # Nothing secret in it: no token, no hash, no card of the public view.
        text = json.dumps(answer)
        for body in (private, first, six):
            for token in body["tokens"].values():
                assert token not in text and token_hash(token) not in text
        assert private["id"] not in text and '"view"' not in text and "hand_sizes" not in text
        # A finished table leaves the list.
        server_of(http).tables[bots["id"]].finished = True
        assert [t["id"] for t in listed(http)["tables"]] == [six["id"], first["id"]]


@pytest.mark.parametrize("limit", ["0", "201", "-1", "ten", "1e3", "٣", "9" * 40, ""])
def test_a_bad_limit_is_refused_quoted(limit):
    with TestClient(app_for()) as http:
        answer = http.get("/api/tables", params={"limit": limit})
        assert answer.status_code == 400
        assert repr(limit)[:20].rstrip("'") in answer.json()["error"]


@pytest.mark.parametrize("value", ["yes", 1, None, [True]])
def test_public_must_be_a_bool(value):
    with TestClient(app_for()) as http:
        answer = http.post("/api/tables", json={"preset": "italian-2p",
                                                "seats": ["human", "open"], "public": value})
        assert answer.status_code == 422 and "public" in answer.json()["error"]
        assert server_of(http).tables == {}


def test_a_table_with_an_open_seat_is_not_a_table_of_bots_only():
    with TestClient(app_for(max_bot_tables=0)) as http:
        body = made(http, ["open", "bot:heuristic"])
        assert body["tokens"] == {} and body["bot_delay"] == 0.0
        assert body["join"] == {"0": f"/table/{body['id']}?join=0"}
        refused = http.post("/api/tables", json={"preset": "italian-2p",
                                                 "seats": ["bot:random", "bot:random"]})
        assert refused.status_code == 503
        wrong = http.post("/api/tables", json={"preset": "italian-2p",
                                               "seats": ["opened", "human"]})
        assert wrong.status_code == 422 and "'opened'" in wrong.json()["error"]
        assert "'open'" in wrong.json()["error"]


# ---- claiming a seat -----------------------------------------------------------------------------


def test_an_open_seat_is_claimed_once_and_refusals_are_clear():
    with TestClient(app_for()) as http:
        body = made(http, ["human", "open", "bot:random", "open"], preset="italian")
        table_id = body["id"]
        answer = claim(http, table_id, 1)
        assert answer.status_code == 200, answer.text
        got = answer.json()
        assert got["seat"] == 1 and got["open_seats"] == [3] and got["players"] == 4
        stored = server_of(http).store.load_table(table_id).seats[1]
        assert stored.kind == "human" and stored.token_sha256 == token_hash(got["token"])
        assert stored.claimed_at is not None
        for seat, status, words in (
                (1, 409, "seat 1 of table " + table_id + " was claimed already"),
                (0, 409, "seat 0 of table " + table_id + " is a person's"),
                (2, 409, "is a bot's (bot:random)"),
                (4, 404, "has no seat 4: its seats are 0 to 3"),
                ("x", 400, "seat 'x': expected a seat number from 0 to 3"),
                ("-1", 400, "seat '-1'"), ("1.0", 400, "seat '1.0'"),
                ("99999999999", 400, "seat '99999999999'")):
            refused = claim(http, table_id, seat)
            assert refused.status_code == status, (seat, refused.text)
            assert words in refused.json()["error"], refused.json()
        unknown = claim(http, "no-such-table", 1)
        assert unknown.status_code == 404 and "'no-such-table'" in unknown.json()["error"]
        assert claim(http, "x" * 5000, 1).status_code == 404
        # Bodies: nothing or {} only, within the size limit; refused without handing out seat 3.
        for content, status in ((b'{"seat": 3}', 400), (b"[]", 400), (b"\xff\xfe", 400),
                                (b"{" * 3000, 400), (b"x" * 5000, 413)):
            refused = claim(http, table_id, 3, content=content,
                            headers={"Content-Type": "application/json"})
            assert refused.status_code == status, (content[:10], refused.text)
        assert server_of(http).tables[table_id].open_seats == [3]
        assert claim(http, table_id, 3, json={}).status_code == 200
        assert server_of(http).tables[table_id].open_seats == []
        # Another site's page may not claim (it would take the seat from the one it was for).
        body = made(http, ["human", "open"])
        foreign = claim(http, body["id"], 1, headers={"Origin": "https://cards.example"})
        assert foreign.status_code == 403
        assert server_of(http).tables[body["id"]].open_seats == [1]


def test_a_finished_or_abandoned_table_has_no_seat_to_claim(tmp_path):
    db = str(tmp_path / "t.sqlite3")
    with TestClient(app_for(db)) as http:
        over = made(http, ["open", "bot:random"])["id"]
        left = made(http, ["open", "bot:random"])["id"]
        server = server_of(http)
        server.store.set_status(over, "finished")
        server.store.set_status(left, "abandoned")
    with TestClient(app_for(db)) as http:  # read back from the database, not reloaded
        for table_id, status in ((over, "finished"), (left, "abandoned")):
            refused = claim(http, table_id, 0)
            assert refused.status_code == 409
            assert f"the table is {status}, no seat to claim" in refused.json()["error"]
        assert listed(http)["tables"] == []


def test_of_many_claims_of_one_seat_at_once_exactly_one_gets_the_token(tmp_path):
    with TestClient(app_for(str(tmp_path / "t.sqlite3"))) as http:
        table_id = made(http, ["human", "open"], public=True)["id"]
        answers: list = []
        start = threading.Barrier(8)

        def claimer():
            start.wait()
            answers.append(claim(http, table_id, 1))

        threads = [threading.Thread(target=claimer) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        codes = sorted(answer.status_code for answer in answers)
        assert codes == [200] + [409] * 7, codes
        token = next(a.json()["token"] for a in answers if a.status_code == 200)
        assert server_of(http).store.load_table(table_id).seats[1].token_sha256 == \
            token_hash(token)

        # The same at the table itself, every claim in the event loop at once.
        table_id = made(http, ["open", "human"])["id"]
        table = server_of(http).tables[table_id]

        async def claims():
            async def one():
                async with table.lock:
                    return await table.claim(0)
            return await asyncio.gather(*(one() for _ in range(6)), return_exceptions=True)

        outcomes = http.portal.call(claims)
        tokens = [o for o in outcomes if isinstance(o, str)]
        refusals = [o for o in outcomes if isinstance(o, RequestError)]
        assert len(tokens) == 1 and len(refusals) == 5
        assert all(r.status == 409 and "claimed already" in str(r) for r in refusals)


def test_claims_are_rate_limited_apart_from_tables():
    with TestClient(app_for(create_rate=1, create_burst=2)) as http:
        tables = [made(http, ["open", "open"])["id"] for _ in range(2)]
        assert http.post("/api/tables", json={"preset": "italian-2p",
                                              "seats": ["open", "open"]}).status_code == 429
        assert claim(http, tables[0], 0).status_code == 200
        assert claim(http, tables[0], 1).status_code == 200
        third = claim(http, tables[1], 0)
        assert third.status_code == 429 and "seats claimed" in third.json()["error"]
        assert int(third.headers["Retry-After"]) >= 1


# ---- a table that waits --------------------------------------------------------------------------


def test_a_table_waits_for_its_open_seats_then_plays():
    with TestClient(app_for()) as http:
        body = made(http, ["bot:heuristic", "open", "human"] + ["bot:random"], preset="italian")
        table_id = body["id"]
        table = server_of(http).tables[table_id]
        assert table.bot_to_act() is None  # seat 0, a bot, is to act: it waits too
        with socket(http, table_id, body["tokens"]["2"]) as ws:
            view = ws.receive_json()
            assert view["open_seats"] == [1] and view["legal"] == [] and not view["your_turn"]
            assert view["players"][1]["kind"] == "open" and view["players"][1]["played_by"] is None
            assert not view["players"][1]["away"]
            ws.send_json({"type": "move", "move": "draw", "seq": 1})
            refused = ws.receive_json()
            assert refused["code"] == "waiting" and refused["seq"] == 1
            assert "open seats [1]" in refused["message"]
            ws.send_json({"type": "hint", "seq": 2})
            assert ws.receive_json()["code"] == "waiting"
            summary = http.get(f"/api/tables/{table_id}").json()
            assert summary["open_seats"] == [1] and summary["public"] is False
            assert table.moves == []
            got = claim(http, table_id, 1).json()
            told = next_of(ws, "seat", "claimed")
            assert told["seat"] == 1 and told["open_seats"] == []
            assert told["players"][1]["kind"] == "human" and told["players"][1]["away"]
            fresh = next_of(ws, "view")
            assert fresh["open_seats"] == [] and fresh["ply"] == 0
            # The bot of seat 0 plays its turn, then seat 1 (claimed) is to act.
            while True:
                frame = next_of(ws, "view")
                if frame["view"]["turn"] == 1:
                    break
            with socket(http, table_id, got["token"]) as ws1:
                mine = ws1.receive_json()
                assert mine["seat"] == 1 and mine["your_turn"] and "draw" in mine["legal"]
                ws1.send_json({"type": "move", "move": "draw", "seq": 7})
                assert next_of(ws1, "view")["seq"] == 7


def test_nobody_is_given_to_a_bot_while_the_table_waits():
    """An open seat is nobody's: never away, never replaced. The people seated are not replaced
    while the table waits either (nothing is played): each one away gets a whole grace once the
    last open seat is claimed."""
    clock = Clock()
    with TestClient(app_for(clock=clock, grace=5, turn_seconds=30)) as http:
        body = made(http, ["human", "open"], public=True)
        table_id = body["id"]
        table = server_of(http).tables[table_id]
        clock.now += 10_000
        tick(http)
        assert table.seats[1].kind == "open" and not table.seats[1].bot_plays
        assert not table.seats[0].bot_plays  # its person never came: away, not replaced
        assert table.turn_deadline is None  # no turn clock while the table waits
        seats = http.get(f"/api/tables/{table_id}").json()["seats"]
        assert seats[0]["away"] and seats[0]["grace"] is None
        assert not seats[1]["away"] and seats[1]["grace"] is None
        claim(http, table_id, 1)
        seats = http.get(f"/api/tables/{table_id}").json()["seats"]
        assert [s["grace"] for s in seats] == [5, 5]  # a whole grace each, from the claim
        assert table.turn_deadline == clock.now + 30  # and the turn clock runs
        clock.now += 4.9
        tick(http)
        assert not any(seat.bot_plays for seat in table.seats)
        clock.now += 0.1
        tick(http)
        assert all(seat.bot_plays for seat in table.seats)  # then a table of bots: it plays on

        # A person who leaves while the table waits is told the seat waits for them.
        body = made(http, ["human", "open"])
        with http.websocket_connect(f"/api/tables/{body['id']}/watch") as watcher:
            watcher.receive_json()
            with socket(http, body["id"], body["tokens"]["0"]) as ws:
                ws.receive_json()
            away = next_of(watcher, "seat", "away")
            assert away["grace"] is None and away["message"].endswith("the seat waits for them")
        summary = http.get(f"/api/tables/{body['id']}").json()
        assert summary["seats"][0]["away"] and summary["seats"][0]["grace"] is None
        clock.now += 100
        tick(http)
        assert not server_of(http).tables[body["id"]].seats[0].bot_plays


def test_a_claimed_seat_has_a_whole_grace_from_its_claim():
    clock = Clock()
    with TestClient(app_for(clock=clock, grace=60)) as http:
        body = made(http, ["human", "open"])
        table_id = body["id"]
        table = server_of(http).tables[table_id]
        with socket(http, table_id, body["tokens"]["0"]) as ws:
            ws.receive_json()
            clock.now += 500
            token = claim(http, table_id, 1).json()["token"]
            assert next_of(ws, "seat", "claimed")["players"][1]["grace"] == 60
            clock.now += 59
            tick(http)
            assert not table.seats[1].bot_plays
            with socket(http, table_id, token) as ws1:
                assert not ws1.receive_json()["players"][1]["away"]


# ---- a restart -----------------------------------------------------------------------------------


def _play_a_turn(http, table_id, token):
    with socket(http, table_id, token) as ws:
        frame = ws.receive_json()
        while not frame.get("your_turn"):
            frame = ws.receive_json()
        ws.send_json({"type": "move", "move": frame["legal"][0], "seq": 3,
                      "hand": frame["hand"], "ply": frame["ply"]})
        while frame.get("seq") != 3:
            frame = ws.receive_json()
            assert frame["type"] != "error", frame
        return frame


def test_a_claim_survives_a_restart_and_a_seat_not_claimed_stays_open(tmp_path):
    db = str(tmp_path / "t.sqlite3")
    with TestClient(app_for(db)) as http:
        claimed = made(http, ["open", "bot:greedy"], public=True)["id"]
        waiting = made(http, ["bot:greedy", "open"], public=True)["id"]
        token = claim(http, claimed, 0).json()["token"]
    with TestClient(app_for(db, seed=5)) as http:
        assert {t["id"]: t["status"] for t in listed(http)["tables"]} == {
            claimed: "playing", waiting: "waiting"}
        assert claim(http, claimed, 0).status_code == 409
        assert _play_a_turn(http, claimed, token)["seat"] == 0
        late = claim(http, waiting, 1)
        assert late.status_code == 200
        late_token = late.json()["token"]
    with TestClient(app_for(db, seed=6)) as http:
        assert _play_a_turn(http, waiting, late_token)["seat"] == 1
        table = server_of(http).tables[waiting]
        assert table.seats[1].kind == "human" and table.seats[1].claimed_at is not None


def test_a_database_of_version_3_opens_with_every_table_private(tmp_path):
    db = str(tmp_path / "v3.sqlite3")
    with TestClient(app_for(db)) as http:
        body = made(http, ["human", "bot:greedy"])
    conn = sqlite3.connect(db)  # as version 3 left it: no public, no claimed_at
    conn.execute("ALTER TABLE tables DROP COLUMN public")
    conn.execute("ALTER TABLE seats DROP COLUMN claimed_at")
    conn.execute("UPDATE meta SET value = '3' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()
    with TestClient(app_for(db)) as http:
        assert listed(http)["tables"] == []
        assert http.get(f"/api/tables/{body['id']}").json()["public"] is False
        assert _play_a_turn(http, body["id"], body["tokens"]["0"])["seat"] == 0
        assert made(http, ["human", "open"], public=True)["public"] is True
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT value FROM meta").fetchone() == ("4",)


def test_a_table_of_many_open_seats_plays_to_its_end_once_they_are_claimed():
    rng = random.Random(4)
    with TestClient(app_for()) as http:
        body = made(http, ["open", "open"], public=True)
        tokens = {seat: claim(http, body["id"], seat).json()["token"] for seat in (0, 1)}
        with socket(http, body["id"], tokens[0]) as ws0, socket(http, body["id"], tokens[1]) as ws1:
            sockets = {0: ws0, 1: ws1}
            table = server_of(http).tables[body["id"]]
            while table.status() == "playing":
                ws = sockets[table.game.turn]
                frame = ws.receive_json()
                if frame["type"] == "view" and frame["legal"] and frame["ply"] == len(table.moves):
                    ws.send_json({"type": "move", "move": rng.choice(frame["legal"]),
                                  "hand": frame["hand"], "ply": frame["ply"]})
            assert table.status() == "finished"
        assert listed(http)["tables"] == []


def test_a_listed_match_keeps_its_scores_across_hands_and_a_restart(tmp_path):
    """Build item 4's "tables of a match keep their scores": the list shows a match's scores
    after its first hand, the sum of the hand's totals, and the same after a restart."""
    db = str(tmp_path / "t.sqlite3")
    with TestClient(app_for(db)) as http:
        body = made(http, ["bot:greedy", "open"], public=True, match=True)
        token = claim(http, body["id"], 1).json()["token"]
        with socket(http, body["id"], token) as ws:
            frame = ws.receive_json()
            while frame["type"] != "result":
                if frame["type"] == "view" and frame["legal"]:
                    ws.send_json({"type": "move", "move": frame["legal"][0],
                                  "hand": frame["hand"], "ply": frame["ply"]})
                frame = ws.receive_json()
                assert frame["type"] != "error", frame
            assert next_of(ws, "view")["hand"] == 1 and frame["status"] == "playing"
        totals = [side["total"] for side in frame["result"]["sides"]]
        shown = listed(http)["tables"][0]
        assert shown["hand"] == 1 and shown["scores"]["scores"] == totals
        assert shown["scores"]["hands_played"] == 1 and totals != [0, 0]
    with TestClient(app_for(db, seed=9)) as http:
        again = listed(http)["tables"][0]
        assert again["id"] == body["id"] and again["hand"] == 1
        assert again["scores"] == shown["scores"]
        table = server_of(http).tables[body["id"]]
        assert list(table.match.scores) == totals
        assert json.loads(table.game.to_json(player=1))["scores"] == totals  # hand 1 dealt so
