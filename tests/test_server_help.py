"""Hints and reviews at the table server (docs/server.md "Hints", "Reviews"). A person asks for a
hint at their turn and gets the moves burraco.hint ranks for their seat (so nothing of the other
hands), within the server's budget a hint and the seat's number of hints a hand; anything else is
refused and changes nothing. A finished hand's review is burraco.review's, with the table before
every move, one searched at a time."""

from __future__ import annotations

import json
import warnings

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

with warnings.catch_warnings():  # Starlette's notice that its test client may change
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402
from test_server import app_for, new_table, server_of, socket, table_of  # noqa: E402

import burraco  # noqa: E402
from burraco.server._table import bot_seed  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def ask(ws, seq=1):
    ws.send_json({"type": "hint", "seq": seq})
    return ws.receive_json()


@pytest.mark.parametrize("engine", ["core", "reference"])
def test_a_hint_ranks_the_seats_legal_moves_as_burraco_hint_does(engine):
    with TestClient(app_for(engine=engine, hint_iterations=200)) as client:
        table_id, tokens = new_table(client, ["human", "bot:greedy"])
        table = table_of(client, table_id)
        with socket(client, table_id, tokens["0"]) as ws:
            view = ws.receive_json()
            before = table.game.state_string()
            frame = ask(ws, seq="h1")
            assert frame["type"] == "hint", frame
            assert frame["seq"] == "h1" and frame["hand"] == 0 and frame["ply"] == 0
            assert frame["iterations"] == 200 and frame["left"] == 2
            moves = [entry["move"] for entry in frame["moves"]]
            assert moves and len(moves) <= 3 and set(moves) <= set(view["legal"])
            assert 0 < frame["confidence"] <= 1
            # The same search the library runs for that seat, from that seed.
            game = burraco.Game.from_state_string(before)
            seed = bot_seed(table.seeds, table.hand_seed, 0)
            ranked = burraco.hint(game, player=0, iterations=200, seed=seed)
            assert moves == [str(h.move) for h in ranked[:3]]
            assert [entry["visits"] for entry in frame["moves"]] == [h.visits for h in ranked[:3]]
            assert frame["confidence"] == round(ranked[0].visits / sum(h.visits for h in ranked), 3)
            # Nothing changed at the table.
            assert table.game.state_string() == before and table.moves == []


def test_hints_are_refused_off_turn_to_watchers_and_beyond_the_budget():
    with TestClient(app_for(hints=1, hint_iterations=50)) as client:
        table_id, tokens = new_table(client, ["human", "human"])
        table = table_of(client, table_id)
        before = table.game.state_string()
        with socket(client, table_id, tokens["0"]) as ws0, \
                socket(client, table_id, tokens["1"]) as ws1, \
                client.websocket_connect(f"/api/tables/{table_id}/watch") as watcher:
            ws0.receive_json(), ws1.receive_json(), watcher.receive_json()
            off_turn = ask(ws1, 7)
            assert off_turn["code"] == "not_your_turn" and off_turn["seq"] == 7
            assert "seat 0 is to act" in off_turn["message"]
            watching = ask(watcher, 8)
            assert watching["code"] == "spectator" and watching["seq"] == 8
            first = ask(ws0)
            assert first["type"] == "hint" and first["left"] == 0
            spent = ask(ws0, 9)
            assert spent["code"] == "no_hints" and "1 hints a hand, all used" in spent["message"]
            assert table.game.state_string() == before and table.moves == []
            # The other seat's hints are its own: at its turn it gets one.
            ws0.send_json({"type": "move", "move": "draw"})
            ws0.receive_json(), ws1.receive_json(), watcher.receive_json()
            assert table.hints == {(0, 0): 1}


def test_a_server_with_no_hints_says_so():
    with TestClient(app_for(hints=0)) as client:
        table_id, tokens = new_table(client, ["human", "bot:greedy"])
        with socket(client, table_id, tokens["0"]) as ws:
            ws.receive_json()
            refused = ask(ws)
            assert refused["code"] == "no_hints" and "gives no hints" in refused["message"]
        assert server_of(client).tables[table_id].hints == {}


def test_no_hint_once_the_hand_is_over():
    with TestClient(app_for(hint_iterations=20)) as client:
        table_id, tokens = new_table(client, ["human", "bot:random"])
        table = table_of(client, table_id)
        with socket(client, table_id, tokens["0"]) as ws:
            frame = ws.receive_json()
            while frame["type"] != "result":
                if frame["type"] == "view" and frame["legal"]:
                    ws.send_json({"type": "move", "move": frame["legal"][-1]})
                frame = ws.receive_json()
            assert table.finished
            refused = ask(ws)
            assert refused["code"] == "table_finished"


def test_a_six_player_hint_ranks_only_the_seats_moves():
    with TestClient(app_for(hint_iterations=60)) as client:
        seats = ["human"] + ["bot:greedy"] * 5
        table_id, tokens = new_table(client, seats, preset="brazilian", knobs={"players": 6})
        with socket(client, table_id, tokens["0"]) as ws:
            view = ws.receive_json()
            frame = ask(ws)
            assert frame["type"] == "hint", frame
            assert {entry["move"] for entry in frame["moves"]} <= set(view["legal"])


@pytest.mark.parametrize("options, quoted", [
    (["--hints", "-1"], "--hints -1"),
    (["--hint-iterations", "0"], "--hint-iterations 0"),
    (["--hint-iterations", "6000"], "--hint-iterations 6000"),  # over --max-iterations 5000
])
def test_serve_refuses_a_hint_budget_out_of_range(options, quoted, tmp_path, capsys):
    from burraco import cli

    assert cli.main(["serve", *options, "--db", str(tmp_path / "x")]) == 2
    assert quoted in capsys.readouterr().err


# ---- reviews (docs/server.md "Reviews") ----------------------------------------------------------


def finish_a_hand(client, seats=("bot:greedy", "bot:random")):
    """A table of bots only, watched to the end of its hand."""
    table_id, _ = new_table(client, list(seats), bot_delay=0)
    with client.websocket_connect(f"/api/tables/{table_id}/watch") as ws:
        while ws.receive_json()["type"] != "result":
            pass
    assert server_of(client).store.load_table(table_id).status == "finished"
    return table_id


def test_a_finished_hand_is_reviewed_move_by_move_as_burraco_review_does():
    with TestClient(app_for(review_iterations=30)) as client:
        table_id = finish_a_hand(client)
        record = client.get(f"/api/tables/{table_id}/record").json()[0]
        answer = client.get(f"/api/tables/{table_id}/review?hand=0")
        assert answer.status_code == 200, answer.text
        body = answer.json()
        assert body["table"] == table_id and body["hand"] == 0 and body["iterations"] == 30
        game = burraco.Game.from_record(record)
        assert body["moves"] == [str(move) for move in game.moves]
        assert len(body["positions"]) == len(body["moves"]) + 1
        # The table before the first move is the deal; after the last, the hand's end.
        first = burraco.Game.from_record(record)
        while first.moves:
            first.pop()
        assert body["positions"][0]["hands"] == [[str(c) for c in first.hand(s)]
                                                 for s in range(first.players)]
        assert body["positions"][-1]["hands"] == [[str(c) for c in game.hand(s)]
                                                  for s in range(game.players)]
        expected = burraco.review(game, iterations=30, seed=record["seed"]).to_json()
        assert body["review"] == json.loads(json.dumps(expected))
        # Asked again, the same review, from memory.
        again = client.get(f"/api/tables/{table_id}/review?hand=0").json()
        assert again == body
        assert server_of(client).reviews.kept


@pytest.mark.parametrize("query, status, quoted", [
    ("hand=1", 404, "hand 1 of table"),
    ("hand=-1", 400, "'-1'"),
    ("hand=x", 400, "'x'"),
])
def test_a_review_of_no_finished_hand_is_refused_quoting_it(query, status, quoted):
    with TestClient(app_for(review_iterations=10)) as client:
        table_id = finish_a_hand(client)
        answer = client.get(f"/api/tables/{table_id}/review?{query}")
        assert answer.status_code == status and quoted in answer.json()["error"], answer.text
        assert client.get("/api/tables/nope/review?hand=0").status_code == 404


def test_one_review_is_searched_at_a_time():
    with TestClient(app_for(review_iterations=10)) as client:
        table_id = finish_a_hand(client)
        reviews = server_of(client).reviews
        reviews.busy = True  # as while another hand's review is searched
        answer = client.get(f"/api/tables/{table_id}/review?hand=0")
        assert answer.status_code == 503 and answer.headers["Retry-After"] == "2"
        reviews.busy = False
        assert client.get(f"/api/tables/{table_id}/review?hand=0").status_code == 200
