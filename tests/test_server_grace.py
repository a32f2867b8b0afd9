"""People who leave a table of burraco serve (docs/server.md "When a person leaves", "The turn
clock"): the grace, the bot that replaces a person who does not come back, the person who comes
back, the turn clock and its timeouts, and what a restart keeps. The server's clock is a clock the
test moves by hand and ``Server.tick`` acts on the deadlines it passed, so nothing waits for the
grace or the turn clock in real time."""

from __future__ import annotations

import random
import warnings

import pytest

pytest.importorskip("starlette")

with warnings.catch_warnings():  # Starlette's notice that its test client may change
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from burraco import _protocol  # noqa: E402
from burraco.server import ServerConfig, create_app  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

FAST = {"rate": 100000.0, "burst": 100000.0}


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def app_for(clock: Clock, db: str = ":memory:", **options):
    return create_app(ServerConfig(db=db, seed=1, clock=clock, **{**FAST, **options}))


def new_table(http, seats, preset="italian-2p", **extra):
    answer = http.post("/api/tables", json={"preset": preset, "seats": list(seats), **extra})
    assert answer.status_code == 201, answer.text
    return answer.json()["id"], answer.json()["tokens"]


def server_of(http):
    return http.app.state.server


def socket(http, table_id, token):
    return http.websocket_connect(f"/api/tables/{table_id}/play?token={token}")


def tick(http):
    http.portal.call(server_of(http).tick)


def next_of(ws, kind, event=None):
    """The next frame of type ``kind`` (and ``event``) on a socket, the others skipped."""
    while True:
        frame = ws.receive_json()
        assert frame["type"] != "error", frame
        if frame["type"] == kind and (event is None or frame.get("event") == event):
            return frame


def seat_of(summary, seat):
    return summary["seats"][seat]


def play_out(table, sockets, rng, choose=None):
    """Plays every person's seat of ``sockets`` (seat -> socket) until the table is over; the
    result frames seen on the first socket."""
    first = next(iter(sockets.values()))
    results = []
    while table.status() == "playing":
        turn = table.game.turn
        ws = first if table.seats[turn].bot_plays else sockets.get(turn, first)
        frame = ws.receive_json()
        if frame["type"] == "result" and ws is first:
            results.append(frame)
        if frame["type"] == "error":
            assert frame["code"] in ("stale", "not_your_turn", "replaced"), frame
            continue
        if (frame["type"] == "view" and frame["legal"] and frame["hand"] == table.hand
                and frame["ply"] == len(table.moves)):  # this socket's seat is to act
            move = (choose or rng.choice)(frame["legal"])
            ws.send_json({"type": "move", "move": move, "hand": frame["hand"],
                          "ply": frame["ply"]})
    while not results or results[-1]["status"] == "playing":  # the last result frame
        frame = first.receive_json()
        if frame["type"] == "result":
            results.append(frame)
    return results


def bot_move(http, table):
    """One move of the bot to act, played here (the table's own bot task waits its delay)."""
    async def move():
        async with table.lock:
            seat = table.bot_to_act()
            assert seat is not None
            await table.play(seat.seat, table._choose(seat.player), patience=0.0)
    http.portal.call(move)


# ---- the grace -----------------------------------------------------------------------------------


def test_a_person_who_leaves_is_replaced_after_the_grace_and_the_table_finishes(tmp_path):
    clock = Clock()
    db = str(tmp_path / "t.sqlite3")
    with TestClient(app_for(clock, db, grace=60)) as http:
        table_id, tokens = new_table(http, ["human", "human"])
        table = server_of(http).tables[table_id]
        with socket(http, table_id, tokens["0"]) as ws0:
            view = ws0.receive_json()
            assert [p["played_by"] for p in view["players"]] == ["person", "person"]
            assert view["players"][1]["away"] and view["players"][1]["grace"] == 60
            with socket(http, table_id, tokens["1"]) as ws1:  # a first socket: no frame
                assert not ws1.receive_json()["players"][1]["away"]
            away = next_of(ws0, "seat")
            assert away["event"] == "away" and away["seat"] == 1 and away["grace"] == 60
            assert away["players"][1]["away"] and away["players"][1]["grace"] == 60
            clock.now += 59.9
            tick(http)
            assert not table.seats[1].bot_plays
            assert seat_of(http.get(f"/api/tables/{table_id}").json(), 1)["grace"] == 0.1
            clock.now += 0.1  # the grace ends at its deadline
            tick(http)
            replaced = next_of(ws0, "seat")
            assert replaced["event"] == "replaced" and replaced["policy"] == "heuristic"
            assert replaced["players"][1] == {
                "seat": 1, "kind": "human", "policy": None, "played_by": "bot:heuristic",
                "replaced": True, "connected": 0, "away": False, "grace": None,
                "returning": False, "timeouts": 0}
            assert "did not come back within 60 s" in replaced["message"]
            stored = server_of(http).store.load_table(table_id).seats[1]
            assert stored.replaced_by == "heuristic" and stored.kind == "human"
            results = play_out(table, {0: ws0}, random.Random(3))
        assert results[-1]["status"] == "finished"
        summary = http.get(f"/api/tables/{table_id}").json()
        assert summary["status"] == "finished"
        assert seat_of(summary, 1)["played_by"] == "bot:heuristic"
        record = http.get(f"/api/tables/{table_id}/record").json()[0]
        assert record["result"] == results[-1]["result"]


def test_a_person_back_within_the_grace_keeps_the_seat_and_the_others_are_told(tmp_path):
    clock = Clock()
    with TestClient(app_for(clock, grace=60)) as http:
        table_id, tokens = new_table(http, ["human", "human"])
        table = server_of(http).tables[table_id]
        with socket(http, table_id, tokens["0"]) as ws0:
            ws0.receive_json()
            with socket(http, table_id, tokens["1"]) as ws1:
                ws1.receive_json()
            assert next_of(ws0, "seat")["event"] == "away"
            clock.now += 59
            with socket(http, table_id, tokens["1"]) as ws1:
                back = next_of(ws0, "seat")
                assert back["event"] == "back" and not back["players"][1]["away"]
                assert back["players"][1]["connected"] == 1
                clock.now += 1000
                tick(http)
                assert not table.seats[1].bot_plays
                assert ws1.receive_json()["players"][1]["grace"] is None
        # Nobody at the table: both away, both replaced once the grace is over.
        clock.now += 60
        tick(http)
        assert [seat.replaced_by for seat in table.seats] == ["heuristic", "heuristic"]


def test_two_sockets_of_one_token_the_seat_is_away_once_both_are_closed():
    clock = Clock()
    with TestClient(app_for(clock, grace=60)) as http:
        table_id, tokens = new_table(http, ["human", "human"])
        table = server_of(http).tables[table_id]
        with socket(http, table_id, tokens["0"]) as ws0:
            ws0.receive_json()
            with socket(http, table_id, tokens["1"]) as one:
                one.receive_json()
                with socket(http, table_id, tokens["1"]) as two:
                    two.receive_json()
                assert not table.states[1].away  # one socket is still open
                clock.now += 100
                tick(http)
                assert not table.seats[1].bot_plays
                one.send_json({"type": "ping", "seq": 1})
                assert one.receive_json()["type"] == "pong"  # nothing was sent meanwhile
            away = next_of(ws0, "seat")
            assert away["event"] == "away" and table.states[1].away
            # Two sockets at once while away: the first is the person's return, the second
            # changes nothing.
            with socket(http, table_id, tokens["1"]) as one, \
                    socket(http, table_id, tokens["1"]) as two:
                one.receive_json(), two.receive_json()
                assert next_of(ws0, "seat")["event"] == "back"
                clock.now += 100
                tick(http)
                assert not table.seats[1].bot_plays and not table.states[1].away


@pytest.mark.parametrize("first", ["the grace ends", "the person connects"])
def test_a_grace_that_ends_as_the_person_reconnects(first):
    """The table's lock orders the two: the grace ends at its deadline (replaced, then the
    person is back and plays the seat again, as it is not in the middle of its turn), or the
    person is back first (never replaced)."""
    clock = Clock()
    with TestClient(app_for(clock, grace=60)) as http:
        table_id, tokens = new_table(http, ["human", "human"])
        table = server_of(http).tables[table_id]
        table.bot_delay = 3600  # the replacement moves only when the test says
        with socket(http, table_id, tokens["0"]) as ws0:
            ws0.receive_json()
            with socket(http, table_id, tokens["1"]) as ws1:
                ws1.receive_json()
            next_of(ws0, "seat", "away")
            clock.now += 60
            if first == "the grace ends":
                tick(http)
                assert next_of(ws0, "seat")["event"] == "replaced"
            with socket(http, table_id, tokens["1"]) as ws1:
                view = ws1.receive_json()
                tick(http)
                assert view["players"][1]["played_by"] == "person"
                assert not table.seats[1].bot_plays
                events = [next_of(ws0, "seat")["event"]]
                if first == "the grace ends":
                    events.append(next_of(ws0, "seat")["event"])
                    assert events == ["returning", "returned"]
                    assert server_of(http).store.load_table(table_id).seats[1].replaced_by \
                        is None
                else:
                    assert events == ["back"]


def test_a_replaced_person_takes_the_seat_back_at_the_end_of_the_bots_turn():
    clock = Clock()
    with TestClient(app_for(clock, grace=60)) as http:
        table_id, tokens = new_table(http, ["human", "human"])
        table = server_of(http).tables[table_id]
        table.bot_delay = 3600  # the replacement moves only when the test says
        with socket(http, table_id, tokens["1"]) as ws1:
            ws1.receive_json()
            clock.now += 60
            tick(http)  # seat 0 never came
            assert table.seats[0].replaced_by == "heuristic"
            next_of(ws1, "seat", "replaced")
            bot_move(http, table)  # the bot begins seat 0's turn
            assert table.game.turn == 0 and len(table.moves) == 1
            with socket(http, table_id, tokens["0"]) as ws0:
                view = ws0.receive_json()
                assert view["your_turn"] is False and view["legal"] == []
                assert view["players"][0]["returning"] and view["players"][0]["replaced"]
                assert next_of(ws1, "seat")["event"] == "returning"
                ws0.send_json({"type": "move", "move": "discard 3c", "seq": 1})
                refused = ws0.receive_json()
                assert refused["code"] == "replaced" and refused["seq"] == 1
                ws0.send_json({"type": "hint", "seq": 2})  # no hint for a seat a bot plays
                refused = ws0.receive_json()
                assert refused["code"] == "replaced" and refused["seq"] == 2
                while table.game.turn == 0:
                    bot_move(http, table)
                assert next_of(ws1, "seat")["event"] == "returned"
                assert not table.seats[0].bot_plays
                mine = next_of(ws0, "seat", "returned")
                assert mine["players"][0]["played_by"] == "person"
                # Seat 1 plays, then seat 0's person plays its own turn.
                ws1_view = next_of(ws1, "view")
                while not ws1_view["legal"]:
                    ws1_view = next_of(ws1, "view")
                ws1.send_json({"type": "move", "move": "draw"})
                ws1_view = next_of(ws1, "view")
                ws1.send_json({"type": "move", "move": next(
                    m for m in ws1_view["legal"] if m.startswith("discard"))})
                while not (view := next_of(ws0, "view"))["legal"]:
                    pass
                assert view["your_turn"] and view["players"][0]["played_by"] == "person"


def test_a_connected_replaced_person_sends_resume_and_a_spectator_cannot():
    clock = Clock()
    with TestClient(app_for(clock, grace=60, turn_seconds=30, max_timeouts=1)) as http:
        table_id, tokens = new_table(http, ["human", "bot:greedy"])
        table = server_of(http).tables[table_id]
        with socket(http, table_id, tokens["0"]) as ws0:
            ws0.receive_json()
            clock.now += 30  # one timeout is enough here: away, connected or not
            tick(http)
            assert next_of(ws0, "seat")["event"] == "timeout"
            assert next_of(ws0, "seat")["event"] == "away"
            clock.now += 60
            tick(http)
            assert next_of(ws0, "seat")["event"] == "replaced"
            ws0.send_json({"type": "resume", "seq": 7})
            answer = next_of(ws0, "view")
            while answer["seq"] != 7:
                answer = next_of(ws0, "view")
            assert not table.seats[0].bot_plays or table.states[0].returning
        with http.websocket_connect(f"/api/tables/{table_id}/watch") as watch:
            watch.receive_json()
            watch.send_json({"type": "resume", "seq": 1})
            # Views and seat frames of the table's play may come first.
            refused = watch.receive_json()
            while refused["type"] != "error":
                refused = watch.receive_json()
            assert refused["code"] == "spectator" and refused["seq"] == 1


def test_a_table_of_bots_has_no_grace_and_nothing_to_replace():
    clock = Clock()
    with TestClient(app_for(clock, grace=0)) as http:
        table_id, _ = new_table(http, ["bot:greedy", "bot:random"], bot_delay=0)
        table = server_of(http).tables.get(table_id)
        if table is not None:
            assert table.next_deadline() is None and not any(s.away for s in table.states)
        with http.websocket_connect(f"/api/tables/{table_id}/watch") as watch:
            frame = watch.receive_json()
            while frame["type"] != "result":
                assert frame["type"] == "view", frame  # no seat frame at a table of bots
                assert [p["played_by"] for p in frame["players"]] == ["bot:greedy",
                                                                      "bot:random"]
                assert not any(p["away"] or p["replaced"] for p in frame["players"])
                frame = watch.receive_json()


def test_six_players_three_leave_three_bots_replace_them_and_the_hand_ends():
    clock = Clock()
    with TestClient(app_for(clock, grace=60)) as http:
        table_id, tokens = new_table(http, ["human"] * 6, preset="brazilian",
                                     knobs={"players": 6})
        table = server_of(http).tables[table_id]
        sockets = {seat: socket(http, table_id, tokens[str(seat)]) for seat in range(6)}
        opened = {seat: ws.__enter__() for seat, ws in sockets.items()}
        try:
            for ws in opened.values():
                ws.receive_json()
            for seat in (1, 3, 5):
                sockets[seat].__exit__(None, None, None)
                del opened[seat]
            left = [next_of(opened[0], "seat", "away")["seat"] for _ in range(3)]
            assert sorted(left) == [1, 3, 5]
            clock.now += 60
            tick(http)
            replaced = sorted(next_of(opened[0], "seat", "replaced")["seat"] for _ in range(3))
            assert replaced == [1, 3, 5]
            assert [s.spec for s in table.seats] == [None, "heuristic"] * 3
            results = play_out(table, opened, random.Random(6))
            assert results[-1]["status"] == "finished"
            assert len(results[-1]["result"]["sides"]) == 3
        finally:
            for seat, ws in opened.items():
                sockets[seat].__exit__(None, None, None)


def test_a_replacement_plays_on_through_the_hands_of_a_match_with_the_scores(tmp_path):
    """A person who never came, at a match with a bot: replaced at once (grace 0), and the bot
    that replaced them plays every hand to the end of the match."""
    clock = Clock()
    with TestClient(app_for(clock, grace=0, replace_with="greedy")) as http:
        table_id, _ = new_table(http, ["human", "bot:heuristic"], match=True)
        with http.websocket_connect(f"/api/tables/{table_id}/watch") as watch:
            watch.receive_json()  # before or after the replacement (the timer's, at once)
            tick(http)
            results, hands = [], set()
            while not results or results[-1]["status"] == "playing":
                frame = watch.receive_json()
                assert frame["type"] in ("view", "result", "seat"), frame
                if frame["type"] == "seat":
                    assert (frame["event"], frame["seat"]) == ("replaced", 0)
                elif frame["type"] == "view":
                    hands.add(frame["hand"])
                    assert frame["players"][0]["played_by"] == "bot:greedy"
                else:
                    results.append(frame)
        assert len(results) >= 2 and hands == set(range(len(results)))
        scores = [0, 0]
        for result in results:
            scores = [a + side["total"] for a, side in zip(scores, result["result"]["sides"])]
            assert result["match"]["scores"] == scores
        assert results[-1]["match"]["over"] and results[-1]["status"] == "finished"
        records = http.get(f"/api/tables/{table_id}/record").json()
        assert len(records) == len(results)


# ---- the turn clock ------------------------------------------------------------------------------


def test_the_turn_clock_plays_a_late_turn_and_three_in_a_row_are_a_person_who_left():
    clock = Clock()
    with TestClient(app_for(clock, grace=60)) as http:
        table_id, tokens = new_table(http, ["human", "bot:greedy"], turn_seconds=30)
        table = server_of(http).tables[table_id]
        assert http.get(f"/api/tables/{table_id}").json()["turn_seconds"] == 30
        with socket(http, table_id, tokens["0"]) as ws0:
            view = ws0.receive_json()
            assert view["clock"] == {"seat": 0, "turn_seconds": 30, "seconds": 30}
            clock.now += 10
            ws0.send_json({"type": "view", "seq": 1})
            assert ws0.receive_json()["clock"]["seconds"] == 20
            clock.now += 19.5
            tick(http)
            assert len(table.moves) == 0  # not yet
            # A move of the person's own does not give more time for the turn.
            ws0.send_json({"type": "move", "move": "draw", "seq": 2})
            assert ws0.receive_json()["clock"]["seconds"] == 0.5
            clock.now += 0.5
            tick(http)
            timeout = next_of(ws0, "seat")
            assert timeout["event"] == "timeout" and timeout["timeouts"] == 1
            assert timeout["moves"] and timeout["moves"][-1].startswith("discard")
            assert table.moves[1:1 + len(timeout["moves"])] == timeout["moves"]
            for count in (2, 3):
                view = next_of(ws0, "view")  # the bot's turn, then seat 0's
                while not view["legal"]:
                    view = next_of(ws0, "view")
                assert view["clock"]["seat"] == 0 and view["clock"]["seconds"] == 30
                clock.now += 30
                tick(http)
                assert next_of(ws0, "seat")["timeouts"] == count
            away = next_of(ws0, "seat")
            assert away["event"] == "away" and away["grace"] == 60 and table.states[0].away
            # A move of the person is their return (and ends the count).
            view = next_of(ws0, "view")
            while not view["legal"]:
                view = next_of(ws0, "view")
            ws0.send_json({"type": "move", "move": view["legal"][0], "seq": 3})
            assert next_of(ws0, "seat")["event"] == "back"
            assert table.states[0].timeouts == 0 and not table.states[0].away


def test_turn_seconds_are_checked_and_a_server_default_applies():
    clock = Clock()
    with TestClient(app_for(clock, turn_seconds=45)) as http:
        for bad in (-1, 0.5, "30", True, 10 ** 6):
            answer = http.post("/api/tables", json={"preset": "italian-2p", "turn_seconds": bad,
                                                    "seats": ["human", "bot:greedy"]})
            assert answer.status_code == 422 and repr(bad)[:3] in answer.json()["error"]
        table_id, _ = new_table(http, ["human", "bot:greedy"])
        assert http.get(f"/api/tables/{table_id}").json()["clock"]["turn_seconds"] == 45
        table_id, _ = new_table(http, ["human", "bot:greedy"], turn_seconds=0)
        assert http.get(f"/api/tables/{table_id}").json()["clock"] is None
    for options, quoted in (({"replace_with": "ismcts:10"}, "'ismcts:10'"),
                            ({"replace_with": "nobody"}, "'nobody'"),
                            ({"timeout_bot": "heuristic", "engine": "reference"}, "'heuristic'"),
                            ({"grace": -1}, "grace -1"),
                            ({"max_timeouts": 0}, "max_timeouts 0")):
        with pytest.raises(ValueError, match=quoted):
            create_app(ServerConfig(**options))


# ---- a restart -----------------------------------------------------------------------------------


def test_a_restart_keeps_the_replacement_and_gives_the_others_a_fresh_grace(tmp_path):
    db = str(tmp_path / "t.sqlite3")
    clock = Clock()
    with TestClient(app_for(clock, db, grace=20)) as http:
        table_id, tokens = new_table(http, ["human", "human"], turn_seconds=30)
        table = server_of(http).tables[table_id]
        with socket(http, table_id, tokens["0"]) as ws0:
            ws0.receive_json()
            clock.now += 20
            tick(http)  # seat 1 never came; seat 0 is here, 10 s left of its turn
            assert [s.spec for s in table.seats] == [None, "heuristic"]
            assert http.get(f"/api/tables/{table_id}").json()["clock"]["seconds"] == 10
        assert table.states[0].away  # closed: 20 s to come back
    clock.now += 3600  # the server was down an hour
    with TestClient(app_for(clock, db, grace=20)) as http:
        table = server_of(http).tables[table_id]
        assert table.turn_seconds == 30 and [s.spec for s in table.seats] == [None, "heuristic"]
        summary = http.get(f"/api/tables/{table_id}").json()
        assert seat_of(summary, 0)["away"] and seat_of(summary, 0)["grace"] == 20
        assert seat_of(summary, 1)["played_by"] == "bot:heuristic"
        assert summary["clock"] == {"seat": 0, "turn_seconds": 30, "seconds": 30}
        with socket(http, table_id, tokens["0"]) as ws0:
            view = ws0.receive_json()
            assert view["legal"] and not view["players"][0]["away"]
            ws0.send_json({"type": "view"})  # play_out starts from a view to come
            results = play_out(table, {0: ws0}, random.Random(2))
        assert results[-1]["status"] == "finished"


def test_the_seat_events_are_the_protocols():
    import re
    from pathlib import Path

    source = (Path(__file__).resolve().parent.parent / "src" / "burraco" / "server"
              / "_presence.py").read_text(encoding="utf-8")
    sent = set(re.findall(r'self\._event\([^,]+, "([a-z]+)"', source))
    assert sent == set(_protocol.SEAT_EVENTS)
    page = (Path(__file__).resolve().parent.parent / "docs" / "server.md").read_text("utf-8")
    table = page[page.index("| `event` | when |"):]
    table = table[:table.index("\n\n")]
    assert set(re.findall(r"^\| `([a-z]+)` \|", table, flags=re.MULTILINE)) - {"event"} == sent


def test_burraco_serve_refuses_bad_grace_and_clock_options(tmp_path, capsys):
    from burraco import cli

    db = str(tmp_path / "x.sqlite3")
    for options, quoted in ((["--grace", "soon"], "'soon'"), (["--grace", "-1"], "'-1'"),
                            (["--turn-seconds", "0.5"], "--turn-seconds 0.5"),
                            (["--max-timeouts", "0"], "--max-timeouts 0"),
                            (["--replace-with", "ismcts:10"], "'ismcts:10'"),
                            (["--timeout-bot", "heuristic", "--engine", "reference"],
                             "'heuristic'")):
        if options[0] == "--grace":  # argparse's own refusal: status 2
            with pytest.raises(SystemExit) as refused:
                cli.main(["serve", "--db", db, *options])
            assert refused.value.code == 2
        else:
            assert cli.main(["serve", "--db", db, *options]) == 2
        assert quoted in capsys.readouterr().err, options
    assert not (tmp_path / "x.sqlite3").exists()  # refused before the database is opened

