"""burraco serve (docs/server.md): the HTTP routes and the table sockets through Starlette's
TestClient, persistence across restarts and a crash between commit and acknowledgement, a leak
test of every frame a seat receives, garbage frames and the rate limit, and the real command under
uvicorn talked to with the websockets client."""

from __future__ import annotations

import contextlib
import json
import random
import re
import signal
import sqlite3
import subprocess
import sys
import time
import warnings
from collections import Counter
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

with warnings.catch_warnings():  # Starlette's notice that its test client may change
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

import burraco  # noqa: E402
from burraco import bots, cli  # noqa: E402
from burraco.server import Limits, ServerConfig, create_app  # noqa: E402
from burraco.server import Retry  # noqa: E402
from serving import start_serving  # noqa: E402
from burraco.server._store import SCHEMA  # noqa: E402
from burraco.server._table import public_view  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

ROOT = Path(__file__).resolve().parent.parent
CARD = re.compile(r"\b(?:[A2-9TJQK][cdhs]|Jk)\b")
FAST = {"rate": 100000.0, "burst": 100000.0}  # tests send faster than a person


def app_for(db: str = ":memory:", seed: int | None = 1, **options) -> object:
    """An application with a fixed deal seed and no rate limit to speak of."""
    return create_app(ServerConfig(db=db, seed=seed, **{**FAST, **options}))


@pytest.fixture
def client():
    with TestClient(app_for()) as test_client:
        yield test_client


def new_table(client, seats=("human", "bot:greedy"), preset="italian-2p", **extra):
    answer = client.post("/api/tables", json={"preset": preset, "seats": list(seats), **extra})
    assert answer.status_code == 201, answer.text
    body = answer.json()
    return body["id"], body["tokens"]


def server_of(client):
    return client.app.state.server


def table_of(client, table_id):
    return server_of(client).tables[table_id]


def socket(client, table_id, token):
    return client.websocket_connect(f"/api/tables/{table_id}/play?token={token}")


def play_until(ws, frame, choose, stop, sent=None):
    """Answers every view that lists legal moves with ``choose(frame)`` until ``stop(frame)``;
    returns every frame received (the first included)."""
    frames = [frame]
    seq = 0
    while not stop(frame):
        if frame["type"] == "view" and frame["legal"]:
            ws.send_json({"type": "move", "move": choose(frame), "seq": seq})
            if sent is not None:
                sent.append(seq)
            seq += 1
        frame = ws.receive_json()
        assert frame["type"] != "error", frame
        frames.append(frame)
    return frames


def is_result(frame):
    return frame["type"] == "result"


# ---- creating tables -----------------------------------------------------------------------------


@pytest.mark.parametrize("engine_name", ["core", "reference"])
def test_the_lobby_reads_the_presets_from_the_engine(engine_name):
    """GET /api/presets: every preset of the engine in its order, with its title and players,
    each of which makes a table of that many seats."""
    engine = burraco if engine_name == "core" else __import__("burraco.reference").reference
    with TestClient(app_for(engine=engine_name)) as http:
        answer = http.get("/api/presets")
        assert answer.status_code == 200
        presets = answer.json()["presets"]
        assert [entry["name"] for entry in presets] == list(engine.Rules.PRESETS)
        for entry in presets:
            assert entry["title"] == engine.Rules.presets()[entry["name"]]
            assert entry["players"] == engine.Rules(entry["name"]).players
            seats = ["human"] + ["bot:random"] * (entry["players"] - 1)
            made = http.post("/api/tables", json={"preset": entry["name"], "seats": seats})
            assert made.status_code == 201, made.text


def test_a_table_gets_an_id_and_one_secret_token_per_human_seat(client):
    table_id, tokens = new_table(client, ["human", "bot:heuristic", "human", "bot:random"],
                                 preset="italian")
    assert set(tokens) == {"0", "2"} and tokens["0"] != tokens["2"]
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{40,}", token) for token in tokens.values())
    summary = client.get(f"/api/tables/{table_id}").json()
    assert [seat["kind"] for seat in summary["seats"]] == ["human", "bot", "human", "bot"]
    assert summary["status"] == "playing" and summary["rules"] == "italian"
    # The database holds only the tokens' hashes.
    store = server_of(client).store
    hashes = [row[0] for row in store._conn.execute("SELECT token_sha256 FROM seats")]
    assert not set(tokens.values()) & set(hashes)
    assert client.get("/api/health").json()["status"] == "ok"


def test_knobs_and_matches(client):
    answer = client.post("/api/tables", json={
        "preset": "brazilian", "seats": ["human", "bot:greedy"], "match": True,
        "knobs": {"players": 2, "pozzetto_sizes": [11, 11]}})
    assert answer.status_code == 201, answer.text
    assert answer.json()["rules"] == "brazilian:players=2" and answer.json()["match"] is True
    summary = client.get(f"/api/tables/{answer.json()['id']}").json()
    assert summary["match"] == {"target": 2000, "scores": [0, 0], "hands_played": 0,
                                "over": False, "winner": None}


@pytest.mark.parametrize("body, status, quoted", [
    ("{", 400, "not JSON"),
    ("[1, 2]", 400, "[1, 2]"),
    ({"seats": ["human", "human"]}, 422, "preset None"),
    ({"preset": "italian-9p", "seats": ["human"]}, 422, "'italian-9p'"),
    ({"preset": "italian-2p"}, 422, "seats None"),
    ({"preset": "italian-2p", "seats": ["human"]}, 422, "a list of 2 seats"),
    ({"preset": "italian-2p", "seats": ["human", "robot"]}, 422, "'robot'"),
    ({"preset": "italian-2p", "seats": ["human", 7]}, 422, "seat 1 7"),
    ({"preset": "italian-2p", "seats": ["bot:greedy", "bot:random"], "bot_delay": -1}, 422,
     "bot_delay -1"),
    ({"preset": "italian-2p", "seats": ["human", "bot:random"], "bot_delay": 61}, 422,
     "from 0 to 60"),
    ({"preset": "italian-2p", "seats": ["human", "bot:random"], "bot_delay": True}, 422,
     "bot_delay True"),
    ({"preset": "italian-2p", "seats": ["human", "bot:best"]}, 422, "'best'"),
    ({"preset": "italian-2p", "seats": ["human", "bot:ismcts:999999"]}, 422, "at most 5000"),
    ({"preset": "italian-2p", "seats": ["human", "bot:ismcts:10:threads=2"]}, 422, "one thread"),
    ({"preset": "italian-2p", "seats": ["human", "bot:os:system"]}, 422, "'os:system'"),
    ({"preset": "italian-2p", "seats": ["human", "human"], "knobs": {"hand_size": 99}}, 422,
     "hand_size"),
    ({"preset": "italian-2p", "seats": ["human", "human"], "knobs": {"colour": 1}}, 422,
     "colour"),
    ({"preset": "italian-2p", "seats": ["human", "human"], "knobs": [1]}, 422, "knobs [1]"),
    ({"preset": "italian-2p", "seats": ["human", "human"], "match": "yes"}, 422, "'yes'"),
    ({"preset": "italian-2p", "seats": ["human", "human"], "tables": 3}, 422, "'tables'"),
    ("x" * 5000, 413, "more than 4096 bytes"),
])
def test_bad_bodies_are_refused_with_a_message_quoting_them(client, body, status, quoted):
    if isinstance(body, str):
        answer = client.post("/api/tables", content=body,
                             headers={"Content-Type": "application/json"})
    else:
        answer = client.post("/api/tables", json=body)
    assert answer.status_code == status, answer.text
    assert quoted in answer.json()["error"]
    assert not server_of(client).tables


def test_unknown_tables_are_404(client):
    assert client.get("/api/tables/nope").status_code == 404
    assert client.get("/api/tables/nope/record").status_code == 404
    assert "nope" in client.get("/api/tables/nope").json()["error"]


# ---- playing -------------------------------------------------------------------------------------


def test_a_person_plays_a_whole_hand_against_a_bot_through_the_socket(client):
    table_id, tokens = new_table(client, ["human", "bot:heuristic"])
    table = table_of(client, table_id)
    rng = random.Random(5)
    sent: list[int] = []
    with socket(client, table_id, tokens["0"]) as ws:
        first = ws.receive_json()
        assert first["type"] == "view" and first["seat"] == 0 and first["ply"] == 0
        assert first["legal"] == first["view"]["legal_moves"] and first["your_turn"]
        frames = play_until(ws, first, lambda f: rng.choice(f["legal"]), is_result, sent)
    acks = [f["seq"] for f in frames if f["type"] == "view" and f["seq"] is not None]
    assert acks == sent  # every move acknowledged once, in order
    result = frames[-1]
    records = client.get(f"/api/tables/{table_id}/record").json()
    assert len(records) == 1 and records[0] == result["record"]
    game = burraco.Game.from_record(records[0])
    assert game.is_over() and records[0]["result"] == result["result"]
    assert game.state_string() == table.game.state_string()
    bot_moves = [m for f in frames if f["type"] == "view" and f["last"] and f["last"]["seat"] == 1
                 for m in f["last"]["moves"]]
    assert bot_moves and len(bot_moves) + len(sent) <= len(records[0]["moves"])
    assert client.get(f"/api/tables/{table_id}").json()["status"] == "finished"
    lines = client.get(f"/api/tables/{table_id}/record?format=jsonl").text.splitlines()
    assert [json.loads(line) for line in lines] == records


def test_refused_moves_answer_an_error_and_change_nothing(client):
    table_id, tokens = new_table(client, ["human", "human"])
    table = table_of(client, table_id)
    before = table.game.state_string()
    with socket(client, table_id, tokens["0"]) as ws0, socket(client, table_id, tokens["1"]) as ws1:
        ws0.receive_json(), ws1.receive_json()
        for ws, move, code, quoted in [
            (ws0, "discard Qs", "illegal_move", "discard Qs"),
            (ws0, "fly away", "illegal_move", "fly away"),
            (ws0, 42, "bad_move", "42"),
            (ws0, "", "bad_move", "''"),
            (ws1, "draw", "not_your_turn", "seat 0 is to act"),
        ]:
            ws.send_json({"type": "move", "move": move, "seq": 9})
            error = ws.receive_json()
            assert error["type"] == "error" and error["code"] == code, error
            assert quoted in error["message"] and error["seq"] == 9
        ws0.send_json({"type": "move", "move": "draw", "hand": 3})
        assert ws0.receive_json()["code"] == "stale"
        ws0.send_json({"type": "move", "move": "draw", "ply": 5})
        assert ws0.receive_json()["code"] == "stale"
        assert table.game.state_string() == before and table.moves == []
        ws0.send_json({"type": "move", "move": "draw", "ply": 0, "hand": 0, "seq": "a"})
        mine, theirs = ws0.receive_json(), ws1.receive_json()
        assert mine["seq"] == "a" and theirs["seq"] is None and mine["ply"] == theirs["ply"] == 1
        assert mine["last"] == theirs["last"] == {"seat": 0, "moves": ["draw"]}
    stored = server_of(client).store.load_table(table_id)
    assert stored.hands[0].moves == ["draw"]


def test_a_reconnect_resumes_the_seat_and_every_socket_of_a_seat_gets_the_views(client):
    table_id, tokens = new_table(client, ["human", "bot:greedy"])
    with socket(client, table_id, tokens["0"]) as ws:
        ws.receive_json()
        ws.send_json({"type": "move", "move": "draw"})
        assert ws.receive_json()["ply"] == 1
    with socket(client, table_id, tokens["0"]) as first, socket(client, table_id, tokens["0"]) as second:
        a, b = first.receive_json(), second.receive_json()
        # The same view, but for the sockets open at the seat when each was sent.
        assert [a["players"][0]["connected"], b["players"][0]["connected"]] == [1, 2]
        a["players"][0]["connected"] = b["players"][0]["connected"] = None
        assert a == b and a["ply"] == 1 and a["your_turn"]
        first.send_json({"type": "move", "move": a["legal"][-1], "seq": 1})  # a discard
        ack, other = first.receive_json(), second.receive_json()
        assert ack["seq"] == 1 and other["seq"] is None
        assert dict(ack, seq=None) == other and ack["ply"] == 2
        first.send_json({"type": "view", "seq": 2})
        while (fresh := first.receive_json())["seq"] != 2:
            pass
        assert fresh["ply"] == len(table_of(client, table_id).moves)
        first.send_json({"type": "ping", "seq": 3})
        while (pong := first.receive_json())["type"] != "pong":
            pass
        assert pong == {"type": "pong", "seq": 3}


@pytest.mark.parametrize("where", ["wrong", "other table", "none", "unknown table", "long"])
def test_a_wrong_token_is_closed_with_policy_violation_and_told_nothing(client, where):
    table_id, tokens = new_table(client, ["human", "bot:greedy"])
    other_id, other_tokens = new_table(client, ["human", "bot:greedy"])
    path = {"wrong": f"/api/tables/{table_id}/play?token=x{tokens['0']}",
            "other table": f"/api/tables/{table_id}/play?token={other_tokens['0']}",
            "none": f"/api/tables/{table_id}/play",
            "unknown table": f"/api/tables/{table_id}x/play?token={tokens['0']}",
            "long": f"/api/tables/{table_id}/play?token={'a' * 5000}"}[where]
    with client.websocket_connect(path) as ws:
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    assert closed.value.code == 1008 and not closed.value.reason


def replayed(client, table_id, hand, ply):
    """The game of a table's hand after ``ply`` moves, from the database's seed and moves."""
    stored = server_of(client).store.load_table(table_id)
    row = stored.hands[hand]
    game = burraco.Game(burraco.Rules.from_text(stored.rules), seed=row.seed,
                        first_player=row.first_player, scores=row.scores)
    for move in row.moves[:ply]:
        game.push(move)
    return game


def drain(ws, ply):
    """The frames of a socket up to the view of ``ply``."""
    frames = [ws.receive_json()]
    while not (frames[-1]["type"] == "view" and frames[-1]["ply"] == ply):
        frames.append(ws.receive_json())
    return frames


def test_the_spectators_view_shows_no_hand_and_is_the_same_from_every_seat(client):
    table_id, tokens = new_table(client, ["human", "bot:greedy", "human", "bot:greedy"],
                                 preset="italian")
    table = table_of(client, table_id)
    rng = random.Random(2)
    with socket(client, table_id, tokens["0"]) as ws0, socket(client, table_id, tokens["2"]) as ws2, \
            client.websocket_connect(f"/api/tables/{table_id}/watch") as watch:
        sockets = {0: ws0, 2: ws2, None: watch}
        latest = {key: ws.receive_json() for key, ws in sockets.items()}
        watched = [latest[None]]
        for _ in range(30):
            turn = latest[0]["view"]["turn"]
            sockets[turn].send_json({"type": "move", "move": rng.choice(latest[turn]["legal"])})
            frame = ws0.receive_json()
            while frame["type"] == "view" and frame["view"]["turn"] not in (0, 2):
                frame = ws0.receive_json()  # the bots move until a person is to act
            if frame["type"] == "result":
                watched += drain(watch, len(table.moves))
                break
            latest[0] = frame
            latest[2] = drain(ws2, frame["ply"])[-1]
            watched += drain(watch, frame["ply"])
            latest[None] = watched[-1]
            summary = client.get(f"/api/tables/{table_id}").json()  # the table waits for a person
            assert summary["ply"] == frame["ply"] == len(table.moves)
            view = summary["view"]
            assert view == latest[None]["view"]
            assert all(seat["hand"] is None for seat in view["seats"])
            assert all(packet["cards"] is None for packet in view["pozzetti"])
            assert view["legal_moves"] is None and view["observation"] is None
            assert view["stock"] is None and view["state"] is None and view["seed"] is None
            assert latest[None]["legal"] == [] and not latest[None]["your_turn"]
        watch.send_json({"type": "move", "move": "draw"})
        while (answer := watch.receive_json())["type"] != "error":
            pass
        assert answer["code"] == "spectator"
    for frame in watched:  # nothing in a spectator's frame that one seat's view adds
        game = replayed(client, table_id, frame["hand"], frame["ply"])
        assert frame["view"] == public_view(game)
        for seat in range(4):
            assert public_view(game.determinize(seat, frame["ply"])) == frame["view"]


def test_a_match_deals_the_next_hand_with_the_scores(client):
    table_id, tokens = new_table(client, ["human", "bot:greedy"], match=True)
    with socket(client, table_id, tokens["0"]) as ws:
        frames = play_until(ws, ws.receive_json(), lambda f: f["legal"][0], is_result)
        result = frames[-1]
        assert result["match"]["hands_played"] == 1 and result["status"] == "playing"
        nxt = ws.receive_json()
        assert nxt["type"] == "view" and nxt["hand"] == 1 and nxt["ply"] == 0
        totals = [side["total"] for side in result["result"]["sides"]]
        assert nxt["view"]["scores"] == totals == nxt["match"]["scores"]
        assert nxt["view"]["first"] == 1
    stored = server_of(client).store.load_table(table_id)
    assert [hand.hand for hand in stored.hands] == [0, 1]
    assert stored.hands[0].seed != stored.hands[1].seed  # each deal from a seed of its own


# ---- tables of bots only -------------------------------------------------------------------------


def wait_for(predicate, seconds=20.0):
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def test_a_table_of_bots_only_plays_on_its_own_and_spectators_watch_it(client):
    answer = client.post("/api/tables", json={"preset": "italian-2p", "bot_delay": 0,
                                              "seats": ["bot:heuristic", "bot:random"]})
    assert answer.status_code == 201, answer.text
    made = answer.json()
    assert made["tokens"] == {} and made["bot_delay"] == 0
    table_id = made["id"]
    table = table_of(client, table_id)
    with client.websocket_connect(f"/api/tables/{table_id}/watch") as ws:
        frame = ws.receive_json()
        while frame["type"] != "result":
            assert frame["type"] == "view" and frame["seat"] is None and frame["legal"] == []
            frame = ws.receive_json()
    assert table.finished and table.game.is_over()
    # Every move went through the same path as a person's: committed, and the record replays.
    records = client.get(f"/api/tables/{table_id}/record").json()
    stored = server_of(client).store.load_table(table_id)
    assert stored.status == "finished" and stored.hands[0].moves == table.moves
    assert burraco.Game.from_record(records[0]).record()["result"] == frame["result"]
    summary = client.get(f"/api/tables/{table_id}").json()
    assert summary["status"] == "finished" and summary["bot_delay"] == 0
    assert client.get("/api/health").json()["tables"] == 0


@pytest.mark.parametrize("name", [name for name in bots.BUILT_INS if name.startswith("heuristic:")])
def test_a_bot_seat_plays_every_heuristic_set(client, name):
    """The server takes every built-in bot of burraco.bots, the heuristic's parameter sets
    included (it once refused 'heuristic:2p' unless allowed as a module policy): the bot's moves
    are that set's (the heuristic draws no random numbers, so the server's seeds do not matter)."""
    answer = client.post("/api/tables", json={"preset": "italian-2p", "bot_delay": 0,
                                              "seats": [f"bot:{name}", "bot:random"]})
    assert answer.status_code == 201, answer.text
    table_id = answer.json()["id"]
    with client.websocket_connect(f"/api/tables/{table_id}/watch") as ws:
        while ws.receive_json()["type"] != "result":
            pass
    record = client.get(f"/api/tables/{table_id}/record").json()[0]
    replay = burraco.Game.from_record(record)
    game = burraco.Game(burraco.Rules("italian-2p"), seed=replay.seed)
    own = 0
    for move in replay.moves:
        if game.turn == 0:
            assert game.policy_move(name) == move
            own += 1
        game.push(move)
    assert own > 0 and game.is_over()
    assert client.get(f"/api/tables/{table_id}").json()["seats"][0]["policy"] == name


@pytest.mark.parametrize(("knobs", "sides"), [({"players": 6}, [[0, 3], [1, 4], [2, 5]]),
                                              ({"players": 6, "sides": 2}, [[0, 2, 4], [1, 3, 5]])])
def test_six_player_tables_play_and_show_every_side(client, knobs, sides):
    """A client may ask for the six-player tables (docs/game.md "Six players"): a person's view
    names six seats and the sides with their seats, a spectator sees no hand, and a table of bots
    plays its hand to the result with a side result per side."""
    table_id, tokens = new_table(client, ["human"] + ["bot:random"] * 5, preset="brazilian",
                                 knobs=knobs)
    with socket(client, table_id, tokens["0"]) as ws:
        frame = ws.receive_json()
        assert frame["type"] == "view" and frame["seat"] == 0 and frame["legal"]
        view = frame["view"]
        assert [side["seats"] for side in view["sides"]] == sides
        assert [seat["hand"] is None for seat in view["seats"]] == [False] + [True] * 5
        ws.send_json({"type": "move", "move": frame["legal"][0], "seq": 0})
        frame = ws.receive_json()
        assert frame["type"] == "view" and frame["ply"] >= 1
    spectator = client.get(f"/api/tables/{table_id}").json()["view"]
    assert all(seat["hand"] is None for seat in spectator["seats"])
    answer = client.post("/api/tables", json={"preset": "brazilian", "knobs": knobs,
                                              "bot_delay": 0, "seats": ["bot:greedy"] * 6})
    assert answer.status_code == 201, answer.text
    with client.websocket_connect(f"/api/tables/{answer.json()['id']}/watch") as watch:
        frame = watch.receive_json()
        while frame["type"] != "result":
            assert frame["view"]["seats"][0]["hand"] is None
            frame = watch.receive_json()
    assert len(frame["result"]["sides"]) == len(sides)


def test_a_table_of_bots_only_waits_its_bot_delay_between_moves(client):
    answer = client.post("/api/tables", json={"preset": "italian-2p",
                                              "seats": ["bot:random", "bot:random"]})
    assert answer.json()["bot_delay"] == 1.0  # the default pace of a table of bots only
    slow = table_of(client, answer.json()["id"])
    fast_id = client.post("/api/tables", json={"preset": "italian-2p", "bot_delay": 0,
                                               "match": True,
                                               "seats": ["bot:heuristic", "bot:random"]}
                          ).json()["id"]
    fast = table_of(client, fast_id)
    wait_for(lambda: fast.hand > 0 or len(fast.moves) >= 20)
    assert len(slow.moves) <= 2  # a move a second at most
    # A person's table keeps answering at once while the bots play.
    table_id, tokens = new_table(client, ["human", "bot:random"])
    with socket(client, table_id, tokens["0"]) as ws:
        ws.receive_json()
        ws.send_json({"type": "move", "move": "draw", "seq": 1})
        assert ws.receive_json()["seq"] == 1


def test_tables_of_bots_only_have_a_cap_of_their_own(tmp_path):
    with TestClient(app_for(max_bot_tables=2)) as client:
        body = {"preset": "italian-2p", "seats": ["bot:random", "bot:random"], "bot_delay": 30}
        assert client.post("/api/tables", json=body).status_code == 201
        assert client.post("/api/tables", json=body).status_code == 201
        refused = client.post("/api/tables", json=body)
        assert refused.status_code == 503 and "2 tables of bots only" in refused.json()["error"]
        new_table(client)  # a person's table still gets in


def test_a_table_of_bots_only_goes_on_after_a_restart_with_its_pace(tmp_path):
    db = str(tmp_path / "tables.sqlite3")
    with TestClient(app_for(db)) as client:
        table_id = client.post("/api/tables", json={
            "preset": "italian-2p", "match": True, "bot_delay": 0.02,
            "seats": ["bot:heuristic", "bot:random"]}).json()["id"]
        table = table_of(client, table_id)
        wait_for(lambda: len(table.moves) >= 10)
    with TestClient(app_for(db)) as client:
        table = table_of(client, table_id)
        assert table.bot_delay == 0.02 and table.bots_only
        ply = len(table.moves)
        assert ply >= 10
        wait_for(lambda: table.hand > 0 or len(table.moves) > ply + 5)  # it plays on its own


LOBBY_COLUMNS = [",\n    public INTEGER NOT NULL DEFAULT 0", "\n    claimed_at TEXT,"]
OLD_COLUMNS = {  # what each older schema version lacks
    "1": [",\n    bot_delay REAL NOT NULL DEFAULT 0", ",\n    turn_seconds REAL NOT NULL DEFAULT 0",
          "\n    replaced_by TEXT,", *LOBBY_COLUMNS],
    "2": [",\n    turn_seconds REAL NOT NULL DEFAULT 0", "\n    replaced_by TEXT,",
          *LOBBY_COLUMNS],
    "3": LOBBY_COLUMNS,
}


@pytest.mark.parametrize("version", sorted(OLD_COLUMNS))
def test_an_older_database_gets_the_columns_it_lacks(tmp_path, version):
    import sqlite3

    db = tmp_path / "old.sqlite3"
    schema = SCHEMA
    for column in OLD_COLUMNS[version]:
        assert column in schema
        schema = schema.replace(column, "")
    conn = sqlite3.connect(db)
    conn.executescript(schema)
    conn.execute("INSERT INTO meta VALUES ('schema_version', ?)", (version,))
    conn.commit()
    conn.close()
    with TestClient(app_for(str(db))) as client:
        table_id, _ = new_table(client)
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT value FROM meta").fetchone() == ("4",)
    assert conn.execute("SELECT bot_delay, turn_seconds, public FROM tables WHERE id = ?",
                        (table_id,)).fetchone() == (0, 0, 0)
    assert conn.execute("SELECT replaced_by, claimed_at FROM seats WHERE table_id = ?",
                        (table_id,)).fetchall() == [(None, None), (None, None)]


# ---- persistence ---------------------------------------------------------------------------------


def test_a_new_server_on_the_same_database_finds_every_table_where_it_was(tmp_path):
    db = str(tmp_path / "tables.sqlite3")
    rng = random.Random(3)
    with TestClient(app_for(db)) as client:
        one, one_tokens = new_table(client, ["human", "bot:heuristic"])
        two, two_tokens = new_table(client, ["human", "human", "bot:random"], preset="italian-3p",
                                    match=True)
        with socket(client, one, one_tokens["0"]) as ws:
            frame = ws.receive_json()
            for _ in range(12):
                ws.send_json({"type": "move", "move": rng.choice(frame["legal"])})
                frame = ws.receive_json()
                while not frame["legal"]:
                    frame = ws.receive_json()
        with socket(client, two, two_tokens["0"]) as ws:
            ws.receive_json()
            ws.send_json({"type": "move", "move": "draw"})
            ws.receive_json()
        tables = {t: table_of(client, t) for t in (one, two)}
    states = {t: table.game.state_string() for t, table in tables.items()}
    moves = {t: list(table.moves) for t, table in tables.items()}
    assert len(moves[one]) > 12
    with TestClient(app_for(db, seed=99)) as client:
        for t in (one, two):
            assert table_of(client, t).game.state_string() == states[t]
            assert table_of(client, t).moves == moves[t]
        with socket(client, one, one_tokens["0"]) as ws:  # the same tokens, and play goes on
            frame = ws.receive_json()
            assert frame["ply"] == len(moves[one]) and frame["your_turn"]
            ws.send_json({"type": "move", "move": frame["legal"][0], "seq": 1})
            assert ws.receive_json()["seq"] == 1


def test_a_match_is_reloaded_with_its_finished_hands_and_scores(tmp_path):
    db = str(tmp_path / "tables.sqlite3")
    with TestClient(app_for(db)) as client:
        # The person plays first in hand 1, so no bot moves while the servers start and stop.
        table_id, tokens = new_table(client, ["bot:greedy", "human"], match=True)
        with socket(client, table_id, tokens["1"]) as ws:
            play_until(ws, ws.receive_json(), lambda f: f["legal"][0], is_result)
            assert ws.receive_json()["your_turn"]  # hand 1's first view
        before = table_of(client, table_id)
        records = client.get(f"/api/tables/{table_id}/record").json()
    state, scores = before.game.state_string(), before.match.scores
    with TestClient(app_for(db)) as client:
        table = table_of(client, table_id)
        assert table.hand == 1 and table.match.scores == scores and table.match.hands_played == 1
        assert table.game.state_string() == state
        assert client.get(f"/api/tables/{table_id}/record").json() == records


def test_a_crash_after_the_commit_and_before_the_acknowledgement_keeps_the_move(tmp_path):
    db = str(tmp_path / "tables.sqlite3")
    with TestClient(app_for(db)) as client:
        table_id, tokens = new_table(client, ["human", "human"])
        table = table_of(client, table_id)

        def crash():
            raise RuntimeError("the process dies here")

        table.after_commit = crash
        with socket(client, table_id, tokens["0"]) as ws:
            ws.receive_json()
            ws.send_json({"type": "move", "move": "draw", "seq": 1})
            answer = ws.receive_json()
        assert answer["type"] == "error" and answer["code"] == "internal"  # no acknowledgement
        expected = burraco.Game(table.rules, seed=table.hand_seed)
        expected.push("draw")
    with TestClient(app_for(db)) as client:
        reloaded = table_of(client, table_id)
        assert reloaded.moves == ["draw"]
        assert reloaded.game.state_string() == expected.state_string()


def test_a_commit_that_fails_plays_nothing_and_the_table_goes_on(tmp_path, monkeypatch):
    db = str(tmp_path / "tables.sqlite3")
    retry = Retry(first=0.01, most=0.02, patience=0.1)  # a person's move: tried for 0.1 s
    with TestClient(app_for(db, retry=retry)) as client:
        table_id, tokens = new_table(client, ["human", "human"])
        table = table_of(client, table_id)
        before = table.game.state_string()
        store = server_of(client).store
        real = store.add_moves

        def full_disk(*args, **kwargs):
            raise OSError("disk full")

        with socket(client, table_id, tokens["0"]) as ws:
            ws.receive_json()
            monkeypatch.setattr(store, "add_moves", full_disk)
            ws.send_json({"type": "move", "move": "draw", "seq": 1})
            answer = ws.receive_json()
            assert answer["code"] == "internal" and "not played" in answer["message"]
            assert table.game.state_string() == before and table.moves == []
            assert table.commit_failures >= 3  # tried again before giving up
            failures = [OSError("disk full")] * 2  # then the disk has room again

            def full_for_a_while(*args, **kwargs):
                if failures:
                    raise failures.pop()
                real(*args, **kwargs)

            monkeypatch.setattr(store, "add_moves", full_for_a_while)
            ws.send_json({"type": "move", "move": "draw", "seq": 2})
            assert ws.receive_json()["seq"] == 2 and not failures
    with TestClient(app_for(db)) as client:
        assert table_of(client, table_id).moves == ["draw"]


def test_a_table_that_cannot_be_reloaded_is_left_out_and_the_others_are_served(tmp_path):
    import sqlite3

    db = str(tmp_path / "tables.sqlite3")
    with TestClient(app_for(db)) as client:
        broken, _ = new_table(client, ["human", "bot:greedy"])
        fine, tokens = new_table(client, ["human", "bot:greedy"])
    conn = sqlite3.connect(db)
    with conn:
        conn.execute("INSERT INTO moves VALUES (?, 0, 0, 'discard Zz')", (broken,))  # no move
    conn.close()
    with TestClient(app_for(db)) as client:
        assert broken in server_of(client).broken and fine in server_of(client).tables
        assert client.get(f"/api/tables/{broken}").status_code == 404
        with socket(client, fine, tokens["0"]) as ws:
            assert ws.receive_json()["ply"] == 0


def test_a_bot_thinking_at_one_table_does_not_hold_up_another(client, monkeypatch):
    slow_id, slow_tokens = new_table(client, ["human", "bot:greedy"])
    fast_id, fast_tokens = new_table(client, ["human", "human"])
    slow = table_of(client, slow_id)
    real = slow._choose

    def thinking(seat):
        time.sleep(1.0)  # in the worker thread, as a long search would
        return real(seat)

    monkeypatch.setattr(slow, "_choose", thinking)
    with socket(client, slow_id, slow_tokens["0"]) as ws:
        ws.receive_json()
        ws.send_json({"type": "move", "move": "draw"})
        frame = ws.receive_json()
        ws.send_json({"type": "move", "move": next(m for m in frame["legal"]
                                                   if m.startswith("discard"))})
        ws.receive_json()  # the bot is thinking now
        started = time.monotonic()
        with socket(client, fast_id, fast_tokens["0"]) as other:
            other.receive_json()
            other.send_json({"type": "move", "move": "draw", "seq": 1})
            assert other.receive_json()["seq"] == 1
        assert time.monotonic() - started < 0.8
        assert ws.receive_json()["last"]["seat"] == 1  # and the bot's move comes after


def test_a_server_stopping_during_a_commit_finishes_it_first(tmp_path, monkeypatch):
    db = str(tmp_path / "tables.sqlite3")
    with TestClient(app_for(db)) as client:
        table_id, tokens = new_table(client, ["human", "bot:greedy"])
        table = table_of(client, table_id)
        store = server_of(client).store
        real = store.add_moves

        def slow_disk(*args, **kwargs):
            time.sleep(0.3)
            real(*args, **kwargs)

        with socket(client, table_id, tokens["0"]) as ws:
            ws.receive_json()
            ws.send_json({"type": "move", "move": "draw"})
            frame = ws.receive_json()
            monkeypatch.setattr(store, "add_moves", slow_disk)
            ws.send_json({"type": "move", "move": next(m for m in frame["legal"]
                                                       if m.startswith("discard"))})
            ws.receive_json()
        time.sleep(0.1)  # the bot's move is being committed as the server stops
    kept = list(table.moves)
    with TestClient(app_for(db)) as client:
        assert server_of(client).store.load_table(table_id).hands[0].moves == kept
        assert len(kept) >= 3


def test_writes_from_many_threads_are_committed_together_each_all_or_nothing(tmp_path):
    import sqlite3
    import threading

    from burraco.server._store import NewHand, SeatRow, Store

    db = str(tmp_path / "tables.sqlite3")
    store = Store(db)
    seats = [SeatRow(0, "bot", "random", None), SeatRow(1, "bot", "random", None)]
    for number in range(8):
        store.create_table(f"t{number}", "italian-2p", False, seats, NewHand(0, 1, 0, [0, 0]))
    refused: list[int] = []

    def writer(number: int) -> None:
        for ply in range(25):
            store.add_moves(f"t{number}", 0, ply, ["draw"])
            if number == 7:  # the same ply again: refused, and only this write
                try:
                    store.add_moves(f"t{number}", 0, ply, ["pile", "discard Qs"])
                except sqlite3.IntegrityError:
                    refused.append(ply)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(refused) == list(range(25))
    assert store.writes == 8 + 8 * 25 + 25 and store.batches < store.writes  # grouped
    store.close()
    reread = Store(db)
    for number in range(8):
        assert reread.load_table(f"t{number}").hands[0].moves == ["draw"] * 25
    reread.close()


def test_the_database_schema(tmp_path):
    import sqlite3

    db = tmp_path / "tables.sqlite3"
    with TestClient(app_for(str(db))) as client:
        new_table(client)
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    names = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert names == {"meta", "tables", "seats", "hands", "moves"}
    # docs/server.md shows the very statements the server runs (with comments).
    page = (ROOT / "docs" / "server.md").read_text(encoding="utf-8")
    shown = re.search(r"```sql\n(.*?)```", page, re.DOTALL).group(1)

    def statements(sql):
        return " ".join(re.sub(r"--[^\n]*", "", sql).split())

    assert statements(shown) == statements(SCHEMA)


# ---- what a seat may see -------------------------------------------------------------------------


FRAME_FIELDS = {"type", "table", "seat", "hand", "ply", "status", "your_turn", "legal", "last",
                "match", "view", "seq", "players", "clock", "open_seats"}


def public_cards(view) -> Counter:
    """Every card named in the public part of a view: the pile and the melds."""
    found = Counter(view["pile"])
    for side in view["sides"]:
        for meld in side["melds"]:
            found.update(meld["cards"])
    return found


@pytest.mark.parametrize("preset, seats", [
    ("italian-2p", ["human", "bot:heuristic"]),
    ("italian", ["human", "bot:greedy", "human", "bot:heuristic"]),
    ("italian-3p", ["bot:greedy", "human", "bot:random"]),
])
def test_every_frame_a_seat_receives_is_what_its_view_of_the_game_allows(client, preset, seats):
    """Every frame of a whole hand, for every human seat: its view is ``to_json(player=seat)`` of
    the game at that point (already leak-tested) and the same for a deal of the cards the seat
    cannot see reshuffled; its other fields are public (the legal moves are the view's, the last
    moves name only cards now on the table)."""
    table_id, tokens = new_table(client, seats, preset=preset)
    table = table_of(client, table_id)
    humans = [int(seat) for seat in tokens]
    rng = random.Random(len(seats))
    received: dict[int, list] = {seat: [] for seat in humans}
    with contextlib.ExitStack() as stack:
        sockets = {seat: stack.enter_context(socket(client, table_id, tokens[str(seat)]))
                   for seat in humans}
        latest = {seat: ws.receive_json() for seat, ws in sockets.items()}
        for seat, frame in latest.items():
            received[seat].append(frame)
        while latest[humans[0]]["type"] != "result":
            acting = next((s for s in humans if latest[s]["type"] == "view" and latest[s]["legal"]
                           and latest[s]["ply"] == len(table.moves)), None)
            if acting is not None:
                sockets[acting].send_json({"type": "move",
                                           "move": rng.choice(latest[acting]["legal"])})
            for seat, ws in sockets.items():  # each socket in step: one frame a move
                frame = ws.receive_json()
                received[seat].append(frame)
                latest[seat] = frame
    for seat, frames in received.items():
        assert frames[-1]["type"] == "result" and len(frames) > 20
        for number, frame in enumerate(frames[:-1]):
            assert set(frame) == FRAME_FIELDS and frame["seat"] == seat, frame
            game = replayed(client, table_id, frame["hand"], frame["ply"])
            text = game.to_json(player=seat)
            assert frame["view"] == json.loads(text)
            if number % 5 == 0:
                for deal in (1, 2):
                    assert game.determinize(seat, deal).to_json(player=seat) == text
            assert frame["legal"] == (frame["view"]["legal_moves"] or [])
            assert frame["your_turn"] == (game.turn == seat and not game.is_over())
            if frame["last"] is not None:
                named = Counter(CARD.findall(" ".join(frame["last"]["moves"])))
                assert not named - public_cards(frame["view"]), frame["last"]
        assert frames[-1]["record"] == client.get(f"/api/tables/{table_id}/record").json()[0]


# ---- garbage -------------------------------------------------------------------------------------


def test_garbage_frames_get_error_frames_and_break_nothing(client):
    table_id, tokens = new_table(client, ["human", "human"])
    other_id, other_tokens = new_table(client, ["human", "bot:greedy"])
    table = table_of(client, table_id)
    with socket(client, table_id, tokens["0"]) as ws, socket(client, table_id, tokens["1"]) as ws1:
        ws.receive_json(), ws1.receive_json()
        for frame, code in [
            (b"\x00\xffbinary", "binary"),
            ("x" * 5000, "too_large"),
            ("\u00e9" * 2100, "too_large"),  # 2100 characters, 4200 bytes
            ("{" * 10, "bad_json"),
            ("[" * 4000, "bad_json"),
            ("", "bad_json"),
            ("[1, 2]", "bad_message"),
            ('"draw"', "bad_message"),
            ("NaN", "bad_message"),
            ('{"type": "dance"}', "unknown_type"),
            ('{"kind": "move"}', "unknown_type"),
            ('{"type": "move"}', "bad_move"),
            ('{"type": "move", "move": ["draw"]}', "bad_move"),
            ('{"type": "move", "move": "' + "draw " * 50 + '"}', "bad_move"),
            ('{"type": "move", "move": "draw", "seq": {"a": 1}}', "bad_message"),
            ('{"type": "move", "move": "draw", "seq": true}', "bad_message"),
            ('{"type": "move", "move": "meld Jk Jk Jk Jk Jk"}', "illegal_move"),
            ('{"type": "move", "move": "\\u0000"}', "illegal_move"),
            ('{"type": "move", "move": "draw\\ud800"}', "bad_move"),  # a lone surrogate
        ]:
            if isinstance(frame, bytes):
                ws.send_bytes(frame)
            else:
                ws.send_text(frame)
            answer = ws.receive_json()
            assert answer["type"] == "error" and answer["code"] == code, (frame[:40], answer)
        ws1.send_json({"type": "move", "move": "draw"})  # out of turn
        assert ws1.receive_json()["code"] == "not_your_turn"
        ws.send_text("y" * 1_000_000)
        assert ws.receive_json()["code"] == "too_large"
        assert table.moves == []
        ws.send_json({"type": "move", "move": "draw", "seq": 7})
        assert ws.receive_json()["seq"] == 7  # the socket still plays
    with socket(client, other_id, other_tokens["0"]) as ws:  # and so does another table
        frames = play_until(ws, ws.receive_json(), lambda f: f["legal"][0], is_result)
        ws.send_json({"type": "move", "move": "draw", "seq": 8})  # after the end of the hand
        answer = ws.receive_json()
        assert answer["code"] == "table_finished" and answer["seq"] == 8
    assert frames[-1]["status"] == "finished"
    assert client.get("/api/health").status_code == 200


def test_a_flood_is_rate_limited_then_closed():
    app = create_app(ServerConfig(seed=1, rate=1.0, burst=5.0, strikes=3.0, clock=lambda: 0.0))
    with TestClient(app) as client:
        table_id, tokens = new_table(client, ["human", "bot:greedy"])
        with socket(client, table_id, tokens["0"]) as ws:
            assert ws.receive_json()["type"] == "view"
            for number in range(12):
                ws.send_json({"type": "ping", "seq": number})
            answers = []
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    answers.append(ws.receive_json())
        assert closed.value.code == 1008
        assert [a["seq"] for a in answers[:5]] == [0, 1, 2, 3, 4]
        assert [a["code"] for a in answers[5:]] == ["rate_limited"] * 4
        assert "dropped" in answers[5]["message"] and "closing" in answers[-1]["message"]
        # The wait until the bucket has a token again (the clock stands still: a whole token's
        # time at 1 a second); the last one, before the close, has none.
        assert [a["retry_after"] for a in answers[5:-1]] == [1.0] * 3
        assert "retry_after" not in answers[-1]
        with socket(client, table_id, tokens["0"]) as ws:  # a new socket starts afresh
            assert ws.receive_json()["type"] == "view"


def test_a_bot_that_fails_stops_its_table_only(client, monkeypatch):
    table_id, tokens = new_table(client, ["human", "bot:greedy"])
    table = table_of(client, table_id)

    def broken(seat):
        raise RuntimeError("the policy broke")

    monkeypatch.setattr(table, "_choose", broken)
    with socket(client, table_id, tokens["0"]) as ws:
        frame = ws.receive_json()
        ws.send_json({"type": "move", "move": "draw"})
        ws.receive_json()
        ws.send_json({"type": "move", "move": ws_discard(table)})
        ws.receive_json()
        answer = ws.receive_json()
        assert answer == {"type": "error", "code": "bot_failed",
                          "message": "the bot of seat 1 failed"}
    assert "the policy broke" in table.bot_error and frame["ply"] == 0
    other_id, other_tokens = new_table(client, ["human", "bot:greedy"])
    with socket(client, other_id, other_tokens["0"]) as ws:
        play_until(ws, ws.receive_json(), lambda f: f["legal"][0], lambda f: f["ply"] > 4)


def ws_discard(table) -> str:
    return next(str(m) for m in table.game.legal_moves() if str(m).startswith("discard"))


# ---- the real command ----------------------------------------------------------------------------


def test_burraco_serve_under_uvicorn_with_the_websockets_client(tmp_path):
    import httpx
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    db = tmp_path / "served.sqlite3"
    process, port, line = start_serving(db, "--seed", "5")
    try:
        assert "0 unfinished tables reloaded" in line
        base = f"http://127.0.0.1:{port}"
        with httpx.Client(base_url=base, trust_env=False, timeout=10) as http:
            made = http.post("/api/tables", json={"preset": "italian-2p",
                                                  "seats": ["human", "bot:heuristic"]})
            assert made.status_code == 201, made.text
            table_id, token = made.json()["id"], made.json()["tokens"]["0"]
        uri = f"ws://127.0.0.1:{port}/api/tables/{table_id}/play?token={token}"
        with connect(uri, open_timeout=10) as ws:
            view = json.loads(ws.recv(timeout=10))
            assert view["type"] == "view" and "draw" in view["legal"]
            ws.send(json.dumps({"type": "move", "move": "draw", "seq": 1}))
            ack = json.loads(ws.recv(timeout=10))
            assert ack["seq"] == 1 and ack["ply"] == 1
            ws.send("z" * 100_000)  # past uvicorn's frame limit: the socket is closed
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    ws.recv(timeout=10)
            assert closed.value.rcvd is None or closed.value.rcvd.code == 1009
    finally:
        process.kill()  # a crash: no shutdown of any kind
        process.wait(timeout=10)
    process, port, line = start_serving(db)
    try:
        assert "1 unfinished table reloaded" in line
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", trust_env=False,
                          timeout=10) as http:
            summary = http.get(f"/api/tables/{table_id}").json()
            assert summary["ply"] == 1 and summary["view"]["phase"] == "meld"
            assert http.get("/api/health").json()["tables"] == 1
        with connect(f"ws://127.0.0.1:{port}/api/tables/{table_id}/play?token=bad",
                     open_timeout=10) as ws:
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
        with connect(f"ws://127.0.0.1:{port}/api/tables/{table_id}/play?token={token}",
                     open_timeout=10) as ws:
            assert json.loads(ws.recv(timeout=10))["ply"] == 1  # the seat resumes
    finally:
        process.send_signal(signal.SIGTERM)  # a clean stop, as Ctrl-C
        out, err = process.communicate(timeout=20)
    assert process.returncode == 0 and out == "burraco serve: stopped\n", err


def test_burraco_serve_takes_its_own_pages_and_the_allowed_origins_only(tmp_path):
    """What the browser table sends (its page's origin, JSON) is served; a page of another
    origin gets 403 for its POST and its socket's handshake, unless --allow-origin names it."""
    import httpx
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    process, port, _ = start_serving(tmp_path / "served.sqlite3", "--allow-origin",
                                     "https://cards.example")
    try:
        own = f"http://127.0.0.1:{port}"
        with httpx.Client(base_url=own, trust_env=False, timeout=10) as http:
            made = http.post("/api/tables", json=BODY, headers={"Origin": own})
            assert made.status_code == 201, made.text
            table_id, token = made.json()["id"], made.json()["tokens"]["0"]
            assert http.post("/api/tables", json=BODY,
                             headers={"Origin": "https://cards.example"}).status_code == 201
            foreign = http.post("/api/tables", json=BODY, headers={"Origin": "http://evil.test"})
            assert foreign.status_code == 403 and "evil.test" in foreign.json()["error"]
            plain = http.post("/api/tables", content=json.dumps(BODY),
                              headers={"Content-Type": "text/plain", "Origin": own})
            assert plain.status_code == 415
        uri = f"ws://127.0.0.1:{port}/api/tables/{table_id}/play?token={token}"
        for origin in (own, "https://cards.example"):
            with connect(uri, origin=origin, open_timeout=10) as ws:
                assert json.loads(ws.recv(timeout=10))["seat"] == 0
        with pytest.raises(InvalidStatus) as refused:
            with connect(uri, origin="http://evil.test", open_timeout=10):
                pass
        assert refused.value.response.status_code == 403
    finally:
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=20)


def test_serve_refuses_bad_options(tmp_path, capsys):
    assert cli.main(["serve", "--port", "70000", "--db", str(tmp_path / "x")]) == 2
    assert "--port 70000" in capsys.readouterr().err
    assert cli.main(["serve", "--bot-threads", "0", "--db", str(tmp_path / "x")]) == 2
    assert "--bot-threads 0" in capsys.readouterr().err
    assert cli.main(["serve", "--max-tables", "0", "--db", str(tmp_path / "x")]) == 2
    assert "--max-tables 0" in capsys.readouterr().err
    assert cli.main(["serve", "--rate", "0", "--db", str(tmp_path / "x")]) == 2
    assert "--rate 0" in capsys.readouterr().err
    assert cli.main(["serve", "--create-rate", "-1", "--db", str(tmp_path / "x")]) == 2
    assert "--create-rate -1" in capsys.readouterr().err
    assert cli.main(["serve", "--create-burst", "0", "--db", str(tmp_path / "x")]) == 2
    assert "--create-burst 0" in capsys.readouterr().err
    assert cli.main(["serve", "--idle-timeout", "0", "--db", str(tmp_path / "x")]) == 2
    assert "--idle-timeout 0" in capsys.readouterr().err
    assert cli.main(["serve", "--busy-timeout", "nan", "--db", str(tmp_path / "x")]) == 2
    assert "--busy-timeout nan" in capsys.readouterr().err
    assert cli.main(["serve", "--allow-origin", "evil.test/x", "--db", str(tmp_path / "x")]) == 2
    assert "'evil.test/x'" in capsys.readouterr().err
    (tmp_path / "junk").write_text("not a database" * 100)
    assert cli.main(["serve", "--db", str(tmp_path / "junk"), "--port", "0"]) == 1
    assert "junk" in capsys.readouterr().err


# ---- a database locked by another process --------------------------------------------------------

QUICK_RETRY = Retry(first=0.01, most=0.1, patience=60.0)


@pytest.mark.parametrize("engine_name", ["core", "reference"])
def test_a_database_locked_longer_than_the_busy_timeout_stalls_tables_that_then_resume(
        tmp_path, engine_name):
    """Another connection holds the database's lock (BEGIN EXCLUSIVE) for longer than the busy
    timeout: the commits fail, nothing is announced that is not stored, and once the lock is
    released the bots' table and the person's move go on by themselves; every move anyone was
    shown is in the database."""
    import sqlite3

    db = str(tmp_path / "tables.sqlite3")
    config = {"busy_timeout": 0.05, "retry": QUICK_RETRY, "engine": engine_name}
    with TestClient(app_for(db, **config)) as client:
        store = server_of(client).store
        # A match: its bots play on for many hands, whenever the lock comes.
        made = client.post("/api/tables", json={"preset": "italian-2p", "bot_delay": 0,
                                                "match": True,
                                                "seats": ["bot:greedy", "bot:random"]})
        bots_id = made.json()["id"]
        bots = table_of(client, bots_id)
        person_id, tokens = new_table(client, ["human", "human"])
        person = table_of(client, person_id)
        shown: list[tuple[int, str]] = []  # the bots' moves the spectator was shown, in order
        with client.websocket_connect(f"/api/tables/{bots_id}/watch") as watch, \
                socket(client, person_id, tokens["0"]) as ws:
            assert ws.receive_json()["ply"] == 0
            first = frame = watch.receive_json()
            locker = sqlite3.connect(db, isolation_level=None)
            locker.execute("BEGIN EXCLUSIVE")
            try:
                failed = store.failures
                ws.send_json({"type": "move", "move": "draw", "seq": 1})
                # Both tables' commits fail, each after waiting out the busy timeout ...
                wait_for(lambda: person.commit_failures >= 2 and bots.commit_failures >= 2)
                assert store.failures >= failed + 2
                # ... and what failed was not announced: not in the tables' moves.
                hand = bots.hand
                stored = locker.execute("SELECT COUNT(*) FROM moves WHERE table_id = ? AND "
                                        "hand = ?", (bots_id, hand)).fetchone()[0]
                assert len(bots.moves) == stored and person.moves == []
                assert bots.bot_task is not None and not bots.bot_task.done()
            finally:
                locker.execute("ROLLBACK")
                locker.close()
            ack = ws.receive_json()  # the person's move, committed once the lock is gone
            assert ack["type"] == "view" and ack["seq"] == 1 and ack["ply"] == 1
            # The bots' table plays on by itself: the hand under way when the lock came ends.
            wait_for(lambda: bots.hand > hand or bots.bot_task.done(), 60)
            assert bots.bot_error is None and bots.hand > hand
            while not (frame["type"] == "result" and frame["hand"] == hand):
                frame = watch.receive_json()
                if frame["type"] == "view" and frame["last"] is not None:
                    shown += [(frame["hand"], move) for move in frame["last"]["moves"]]
        rows = store.load_table(bots_id)
        stored_moves = [(h.hand, move) for h in rows.hands for move in h.moves]
        start = sum(len(h.moves) for h in rows.hands[:first["hand"]]) + first["ply"]
        assert len(shown) > 0 and stored_moves[start:start + len(shown)] == shown
        assert rows.hands[hand].record is not None  # the hand's end is stored with its last move
        assert store.load_table(person_id).hands[0].moves == ["draw"]


LOCKER = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
sys.stdin.readline()
conn.execute("ROLLBACK")
"""


def test_burraco_serve_resumes_by_itself_after_another_process_held_the_lock(tmp_path):
    """The real server, and another process holding the database's lock for longer than
    --busy-timeout: the bots' table stalls, then goes on when the lock is released, and every
    move shown to the spectator is stored."""
    import httpx
    from websockets.sync.client import connect

    db = tmp_path / "served.sqlite3"
    process, port, _ = start_serving(db, "--busy-timeout", "0.1")
    shown: list[tuple[int, str]] = []
    try:
        base = f"http://127.0.0.1:{port}"
        with httpx.Client(base_url=base, trust_env=False, timeout=30) as http:
            table_id = http.post("/api/tables", json={  # a match: it plays on for many hands
                "preset": "italian-2p", "bot_delay": 0, "match": True,
                "seats": ["bot:greedy", "bot:random"]}).json()["id"]
            with connect(f"ws://127.0.0.1:{port}/api/tables/{table_id}/watch",
                         open_timeout=10) as ws:
                first = json.loads(ws.recv(timeout=10))
                locker = subprocess.Popen([sys.executable, "-c", LOCKER, str(db)],
                                          stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                          text=True)
                try:
                    assert locker.stdout.readline() == "locked\n"
                    deadline = time.monotonic() + 60
                    while http.get("/api/health").json()["commit_failures"] < 3:
                        assert time.monotonic() < deadline, "no commit failed"
                        time.sleep(0.05)
                    hand = http.get(f"/api/tables/{table_id}").json()["hand"]
                finally:
                    locker.communicate("release\n", timeout=10)
                frame = first
                while not (frame["type"] == "result" and frame["hand"] == hand):
                    frame = json.loads(ws.recv(timeout=60))
                    if frame["type"] == "view" and frame["last"] is not None:
                        shown += [(frame["hand"], move) for move in frame["last"]["moves"]]
    finally:
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=20)
    assert "waits" in err and "database is locked" in err  # the bot's retries, logged
    conn = sqlite3.connect(db)
    stored = list(conn.execute("SELECT hand, move FROM moves WHERE table_id = ? "
                               "ORDER BY hand, ply", (table_id,)))
    start = conn.execute("SELECT COUNT(*) FROM moves WHERE table_id = ? AND hand < ?",
                         (table_id, first["hand"])).fetchone()[0] + first["ply"]
    conn.close()
    assert len(shown) > 0 and stored[start:start + len(shown)] == shown


def test_a_table_cannot_be_made_while_the_database_is_locked(tmp_path):
    import sqlite3

    db = str(tmp_path / "tables.sqlite3")
    with TestClient(app_for(db, busy_timeout=0.05)) as client:
        locker = sqlite3.connect(db, isolation_level=None)
        locker.execute("BEGIN EXCLUSIVE")
        try:
            answer = client.post("/api/tables", json={"preset": "italian-2p",
                                                      "seats": ["human", "human"]})
            assert answer.status_code == 503 and answer.headers["Retry-After"] == "1"
            assert "locked" in answer.json()["error"] and not server_of(client).tables
        finally:
            locker.execute("ROLLBACK")
            locker.close()
        new_table(client, ["human", "human"])


# ---- tables in memory: finished ones freed, idle ones abandoned ----------------------------------


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize("engine_name", ["core", "reference"])
def test_a_finished_table_leaves_memory_and_is_still_read_from_the_database(engine_name):
    with TestClient(app_for(engine=engine_name)) as client:
        finished_tables_leave_memory(client)


def finished_tables_leave_memory(client):
    server = server_of(client)
    made = client.post("/api/tables", json={"preset": "italian-2p", "bot_delay": 0,
                                            "seats": ["bot:random", "bot:greedy"]}).json()
    assert made["id"] in server.tables
    with client.websocket_connect(f"/api/tables/{made['id']}/watch") as watch:
        while watch.receive_json()["type"] != "result":
            pass
    assert server.tables == {}
    for _ in range(3):  # reading it back does not keep it either
        assert client.get(f"/api/tables/{made['id']}").json()["status"] == "finished"
        assert len(client.get(f"/api/tables/{made['id']}/record").json()) == 1
        with client.websocket_connect(f"/api/tables/{made['id']}/watch") as watch:
            assert watch.receive_json()["status"] == "finished"
    assert server.tables == {}
    assert client.get("/api/health").json() == {"status": "ok", "version": burraco.__version__,
                                                "tables": 0, "in_memory": 0,
                                                "commit_failures": 0}


@pytest.mark.parametrize("engine_name", ["core", "reference"])
def test_an_untouched_table_is_closed_as_abandoned_and_the_cap_recovers(tmp_path, engine_name):
    db = str(tmp_path / "tables.sqlite3")
    clock = Clock()
    options = {"clock": clock, "idle_timeout": 600, "max_tables": 2, "engine": engine_name}
    with TestClient(app_for(db, **options)) as client:
        server = server_of(client)
        idle, idle_tokens = new_table(client, ["human", "human"])
        watched, watched_tokens = new_table(client, ["human", "bot:greedy"])
        full = client.post("/api/tables", json={"preset": "italian-2p",
                                                "seats": ["human", "human"]})
        assert full.status_code == 503 and "2 tables" in full.json()["error"]
        with socket(client, watched, watched_tokens["0"]) as ws:
            ws.receive_json()
            clock.now += 599
            assert client.portal.call(server.sweep) == 0  # not long enough
            clock.now += 1
            assert client.portal.call(server.sweep) == 1  # the idle one; a socket is open here
            assert set(server.tables) == {watched}
        clock.now += 599
        assert client.portal.call(server.sweep) == 0  # the socket's close touched it
        new_table(client, ["human", "human"])  # a place again
        clock.now += 1
        assert client.portal.call(server.sweep) == 1
        summary = client.get(f"/api/tables/{idle}").json()
        assert summary["status"] == "abandoned" and summary["ply"] == 0
        with socket(client, idle, idle_tokens["0"]) as ws:
            frame = ws.receive_json()
            assert frame["status"] == "abandoned" and frame["legal"] == []
            ws.send_json({"type": "move", "move": "draw", "seq": 1})
            refused = ws.receive_json()
            assert refused["code"] == "table_abandoned" and "'draw'" in refused["message"]
        assert idle not in server.tables
    with TestClient(app_for(db, **options)) as client:  # not reloaded, kept in the database
        assert set(server_of(client).tables) == set(server.tables)
        store = server_of(client).store
        assert store.load_table(idle).status == store.load_table(watched).status == "abandoned"
        assert set(store.table_ids("abandoned")) == {idle, watched}


def test_a_table_being_played_is_touched_by_its_moves_frames_and_reads(tmp_path):
    clock = Clock()
    with TestClient(app_for(str(tmp_path / "t.sqlite3"), clock=clock, idle_timeout=60)) as client:
        server = server_of(client)
        table_id, tokens = new_table(client, ["human", "human"])
        table = table_of(client, table_id)
        clock.now += 59
        client.get(f"/api/tables/{table_id}")
        assert table.touched == clock.now
        with socket(client, table_id, tokens["0"]) as ws:
            ws.receive_json()
            for frame in ({"type": "ping"}, {"type": "move", "move": "draw"}):
                clock.now += 100
                ws.send_json(frame)
                ws.receive_json()
                assert table.touched == clock.now
            clock.now += 100
            assert client.portal.call(server.sweep) == 0  # a socket is open
        clock.now += 59
        assert client.portal.call(server.sweep) == 0
        clock.now += 1
        assert client.portal.call(server.sweep) == 1 and table.status() == "abandoned"


# ---- per-client limits ---------------------------------------------------------------------------


def test_each_client_may_make_a_burst_of_tables_then_a_few_a_minute(tmp_path):
    clock = Clock()
    app = app_for(clock=clock, create_rate=6, create_burst=2)  # one each 10 s after two
    body = {"preset": "italian-2p", "seats": ["human", "human"]}
    with TestClient(app, client=("203.0.113.5", 4000)) as client:
        assert [client.post("/api/tables", json=body).status_code for _ in range(2)] == [201] * 2
        refused = client.post("/api/tables", json=body)
        assert refused.status_code == 429 and refused.headers["Retry-After"] == "10"
        assert "try again in 10 s" in refused.json()["error"]
        clock.now += 9
        assert client.post("/api/tables", json=body).headers["Retry-After"] == "1"
        clock.now += 1
        assert client.post("/api/tables", json=body).status_code == 201
        assert len(server_of(client).tables) == 3
        server = server_of(client)
        assert server.may_create("203.0.113.6") == 0  # another address: a bucket of its own
        assert set(server.creators) == {"203.0.113.5", "203.0.113.6"}
        clock.now += 20  # both buckets full again: forgotten
        client.portal.call(server.sweep)
        assert server.creators == {}


def test_client_addresses_count_whole_ipv6_subnets():
    from burraco.server._app import client_key

    assert client_key("2001:db8::1") == client_key("2001:db8::ffff:1") == "2001:db8::/64"
    assert client_key("2001:db8:0:1::1") != client_key("2001:db8::1")
    assert client_key("::ffff:192.0.2.7") == client_key("192.0.2.7") == "192.0.2.7"
    assert client_key("testclient") == "testclient" and client_key(None) == "?"


# ---- origins and content types -------------------------------------------------------------------


BODY = {"preset": "italian-2p", "seats": ["human", "human"]}


def test_a_post_must_be_json_and_from_no_page_or_the_servers_own(client):
    plain = client.post("/api/tables", content=json.dumps(BODY),
                        headers={"Content-Type": "text/plain"})
    assert plain.status_code == 415 and "'text/plain'" in plain.json()["error"]
    none = client.post("/api/tables", content=json.dumps(BODY))
    assert none.status_code == 415
    foreign = client.post("/api/tables", json=BODY, headers={"Origin": "https://evil.example"})
    assert foreign.status_code == 403 and "'https://evil.example'" in foreign.json()["error"]
    sandboxed = client.post("/api/tables", json=BODY, headers={"Origin": "null"})
    assert sandboxed.status_code == 403
    assert not server_of(client).tables
    own = client.post("/api/tables", json=BODY, headers={"Origin": "http://testserver"})
    assert own.status_code == 201
    charset = client.post("/api/tables", content=json.dumps(BODY),
                          headers={"Content-Type": "application/json; charset=utf-8"})
    assert charset.status_code == 201


def test_a_socket_from_a_foreign_page_is_refused(client):
    table_id, tokens = new_table(client, ["human", "human"])
    for path in (f"/api/tables/{table_id}/play?token={tokens['0']}",
                 f"/api/tables/{table_id}/watch"):
        with pytest.raises(WebSocketDisconnect) as refused:
            with client.websocket_connect(path, headers={"Origin": "https://evil.example"}):
                pass
        assert refused.value.code == 1008
        with client.websocket_connect(path, headers={"Origin": "http://testserver"}) as ws:
            assert ws.receive_json()["type"] == "view"


def test_allowed_origins_may_use_the_server():
    app = app_for(allowed_origins=frozenset({"HTTPS://Play.Example/"}))
    with TestClient(app) as client:
        made = client.post("/api/tables", json=BODY, headers={"Origin": "https://play.example"})
        assert made.status_code == 201
        table_id = made.json()["id"]
        with client.websocket_connect(f"/api/tables/{table_id}/watch",
                                      headers={"Origin": "https://play.example"}) as ws:
            assert ws.receive_json()["type"] == "view"
        assert client.post("/api/tables", json=BODY,
                           headers={"Origin": "https://other.example"}).status_code == 403
    with pytest.raises(ValueError, match="'ftp://x'"):
        ServerConfig(allowed_origins=frozenset({"ftp://x"}))


# ---- policies at reload --------------------------------------------------------------------------


POLICY_MODULE = '''
import pathlib
pathlib.Path({marker!r}).write_text("imported")


def first(view, moves):
    return 0
'''


def test_a_stored_policy_no_longer_allowed_is_not_imported_and_its_table_closed(
        tmp_path, monkeypatch, caplog):
    marker = tmp_path / "imported"
    (tmp_path / "stored_policy_probe.py").write_text(POLICY_MODULE.format(marker=str(marker)))
    monkeypatch.syspath_prepend(str(tmp_path))
    spec = "stored_policy_probe:first"
    db = str(tmp_path / "tables.sqlite3")
    allowed = Limits(allowed_policies=frozenset({spec}))
    with TestClient(app_for(db, limits=allowed)) as client:
        table_id, tokens = new_table(client, ["human", f"bot:{spec}"])
        other, _ = new_table(client, ["human", "bot:greedy"])
        assert marker.exists()
    marker.unlink()
    monkeypatch.delitem(sys.modules, "stored_policy_probe")
    with caplog.at_level("WARNING", logger="burraco.server"):
        with TestClient(app_for(db)) as client:
            server = server_of(client)
            assert set(server.tables) == {other}
            reason = server.closed[table_id]
            assert spec in reason and "no longer allowed" in reason
            assert client.get(f"/api/tables/{table_id}").json()["status"] == "abandoned"
    assert not marker.exists()  # nothing of the module ran
    assert any(table_id in r.getMessage() and spec in r.getMessage() for r in caplog.records)
    with TestClient(app_for(db, limits=allowed)) as client:  # closed for good
        assert set(server_of(client).tables) == {other}
    assert not marker.exists()


# ---- frames: guards that are real integers -------------------------------------------------------


@pytest.mark.parametrize("guard", [{"hand": False}, {"ply": 0.0}, {"hand": "0"}, {"ply": True},
                                   {"ply": [0]}])
def test_hand_and_ply_guards_must_be_integers(client, guard):
    table_id, tokens = new_table(client, ["human", "human"])
    with socket(client, table_id, tokens["0"]) as ws:
        ws.receive_json()
        ws.send_json({"type": "move", "move": "draw", "seq": 3, **guard})
        refused = ws.receive_json()
        (name, value), = guard.items()
        assert refused["code"] == "bad_message" and refused["seq"] == 3
        assert f"{name} {value!r}" in refused["message"]
        assert table_of(client, table_id).moves == []
        ws.send_json({"type": "move", "move": "draw", "seq": 4, "hand": 0, "ply": 0})
        assert ws.receive_json()["seq"] == 4


def test_a_knob_the_binding_would_refuse_with_its_signature_gets_our_message(client):
    answer = client.post("/api/tables", json={**BODY, "knobs": {"preset": "italian"}})
    assert answer.status_code == 422
    error = answer.json()["error"]
    assert "'preset'" in error and "incompatible" not in error and "Invoked" not in error


# ---- a bot's random state tells nothing of the deal -------------------------------------------

_M64 = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


def _unmix(z: int) -> int:
    """The inverse of SplitMix64's output function."""
    z ^= z >> 31
    z ^= z >> 62
    z = (z * pow(0x94D049BB133111EB, -1, 1 << 64)) & _M64
    z ^= z >> 27
    z ^= z >> 54
    z = (z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64)) & _M64
    z ^= z >> 30
    z ^= z >> 60
    return z


def _stream_seed(random_state: int) -> int:
    """What a policy can work out from the random state its view hands it: the seed of the
    stream (xoshiro256** seeded by SplitMix64), by undoing the output and seeding steps."""
    s1 = (random_state * pow(9, -1, 1 << 64)) & _M64
    s1 = ((s1 >> 7) | (s1 << 57)) & _M64
    s1 = (s1 * pow(5, -1, 1 << 64)) & _M64
    return (_unmix(s1) - 2 * _GAMMA) & _M64


@pytest.mark.parametrize("with_seed", [None, 7])
def test_a_bots_random_state_does_not_give_away_the_hand_seed(with_seed):
    """A `module:attribute` bot is handed a random state each move. The seed of that stream is
    the policy's to work out (the test does); it must not lead back to the hand's seed, which
    deals the hand. The SplitMix64 step used before did: the test shows that it recovers the hand
    seed through the old step, then that the server's seed gives it nothing."""
    from burraco.server._table import SeedSource, bot_seed

    rules = burraco.Rules("italian-2p")
    source = SeedSource(with_seed)
    for hand_seed in (11, 2**63 + 5, random.Random(3).getrandbits(64)):
        game = burraco.Game(rules, seed=hand_seed)
        for _ in range(3):
            game.push(game.policy_move("greedy", 0))
        ply = len(game.moves)
        seen: list[int] = []

        def spy(view, moves):
            seen.append(view.random.state)
            return 0

        # The step used before: SplitMix64 of hand_seed + ply * gamma, inverted by the policy.
        old_move_seed = _splitmix_output((hand_seed + ply * _GAMMA) & _M64)
        game.policy_move(spy, old_move_seed)
        recovered = _stream_seed(seen[-1])
        assert recovered == old_move_seed
        assert (_unmix(recovered) - _GAMMA - ply * _GAMMA) & _M64 == hand_seed

        move_seed = bot_seed(source, hand_seed, ply)
        game.policy_move(spy, move_seed)
        recovered = _stream_seed(seen[-1])
        assert recovered == move_seed  # the policy still learns its stream's seed ...
        for k in range(ply + 1):  # ... but no step back from it gives the hand seed
            assert (_unmix(recovered) - _GAMMA - k * _GAMMA) & _M64 != hand_seed
        assert (recovered - _GAMMA) & _M64 != hand_seed
    # The same --seed gives the same bot seeds (a run can be repeated); no --seed, a fresh key.
    assert bot_seed(SeedSource(7), 5, 3) == bot_seed(SeedSource(7), 5, 3)
    assert bot_seed(SeedSource(), 5, 3) != bot_seed(SeedSource(), 5, 3)


def _splitmix_output(x: int) -> int:
    z = (x + _GAMMA) & _M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return z ^ (z >> 31)
