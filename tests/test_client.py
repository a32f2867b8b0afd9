"""burraco.client (docs/server.md "A client in Python"): games dealt from a seat's view play as the
real game does; the protocol's steps (pacing, retry_after, stale moves, error frames) without a
socket; and against a real ``burraco serve`` on loopback: a whole match as fast as the limits
allow (it meets the rate limit), a server killed in mid-hand that the client resumes from, an
error frame raised, a 429 on table creation waited out, the asyncio client, and docs/server.md's
client example."""

from __future__ import annotations

import asyncio
import json
import random
import re
import signal
import time
from pathlib import Path

import pytest

pytest.importorskip("websockets")
pytest.importorskip("httpx")
pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

import burraco  # noqa: E402
from burraco import Game, Policy, Rules, client  # noqa: E402
from burraco.client import (  # noqa: E402
    AsyncClient,
    Client,
    HTTPError,
    SeatRefused,
    ServerError,
    Table,
    game_from_view,
)
from serving import start_serving  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def serving(tmp_path):
    """Starts ``burraco serve`` on loopback with the options given; stops every one at the end.
    Returns a function ``start(*options, port=None) -> (process, url)``."""
    started = []

    def start(*options: str, port: int | None = None, db: Path | None = None):
        extra = ("--port", str(port)) if port is not None else ()
        process, bound, _ = start_serving(db or tmp_path / "tables.sqlite3", "--seed", "3",
                                          *options, *extra)
        started.append(process)
        return process, f"http://127.0.0.1:{bound}"

    yield start
    for process in started:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            process.communicate(timeout=20)


# ---- the protocol's words ------------------------------------------------------------------------


def test_the_error_codes_are_the_ones_the_server_sends_and_the_page_lists():
    from burraco import _protocol
    sources = "".join(path.read_text(encoding="utf-8")
                      for path in (ROOT / "src" / "burraco" / "server").glob("*.py"))
    sent = set(re.findall(r'"code": "([a-z_]+)"|MoveRefused\("([a-z_]+)"', sources))
    sent_codes = {a or b for a, b in sent}
    page = (ROOT / "docs" / "server.md").read_text(encoding="utf-8")
    table = page[page.index("| `code` | when |"):]
    table = table[:table.index("\n\n")]
    listed = set(re.findall(r"^\| `([a-z_]+)` \|", table, flags=re.MULTILINE)) - {"code"}
    assert sent_codes == listed == set(_protocol.ERROR_CODES)


def test_the_client_imports_without_the_server():
    import subprocess
    import sys
    code = ("import sys, burraco.client; "
            "print(sorted(m for m in ('starlette', 'uvicorn', 'anyio', 'burraco.server') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


# ---- games from views ----------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["italian-2p", "italian", "italian-3p", "brazilian",
                                    "brazilian:players=6"])
def test_a_game_dealt_from_a_seat_view_gives_that_view_and_the_policy_its_move(preset):
    rules = Rules.from_text(preset) if ":" in preset else Rules(preset)
    game = Game(rules, seed=21)
    greedy, heuristic = Policy("greedy"), Policy("heuristic")
    ply = 0
    while not game.is_over():
        seat = game.turn
        view = json.loads(game.to_json(player=seat))
        dealt = game_from_view(view, seed=ply)
        assert dealt.to_json(player=seat) == game.to_json(player=seat)
        assert dealt.observation(seat) == game.observation(seat)
        if ply % 7 == 0:
            assert dealt.policy_move(heuristic, ply) == game.policy_move(heuristic, ply)
        game.push(game.policy_move(greedy, ply))
        ply += 1


def test_a_view_no_game_gives_is_refused_quoting_it():
    game = Game(Rules("italian-2p"), seed=4)
    view = json.loads(game.to_json(player=0))
    view["stock_size"] += 1  # a card more than the deck holds
    with pytest.raises(burraco.InvalidStateError, match="no game gives it"):
        game_from_view(view)
    with pytest.raises(burraco.InvalidNotationError, match="not a seat's JSON view"):
        game_from_view({"player": 0})


# ---- the protocol's steps, without a socket -------------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def seat_at(burst: float = 2, rate: float = 10) -> tuple[client._Seat, Clock]:
    clock = Clock()
    return client._Seat("t", client._Pace(burst, rate, clock)), clock


def view_frame(ply: int = 0, seq=None, your_turn: bool = True, status: str = "playing"):
    return {"type": "view", "table": "t", "seat": 0, "hand": 0, "ply": ply, "status": status,
            "your_turn": your_turn, "legal": ["draw"] if your_turn else [], "last": None,
            "match": None, "view": {}, "seq": seq}


def test_a_move_carries_its_seq_hand_and_ply_and_the_burst_then_the_rate_is_kept():
    seat, clock = seat_at(burst=2, rate=10)
    waits = []
    for ply in range(4):
        step = seat.receive(view_frame(ply, seq=seat.pending and seat.pending["seq"]))
        assert step.choose is not None and step.send is None
        step = seat.chosen(step.choose, "draw")
        assert step.send == {"type": "move", "move": "draw", "seq": ply + 1, "hand": 0,
                             "ply": ply}
        waits.append(step.wait)
    assert waits == pytest.approx([0, 0, 0.1, 0.2])  # two at once, then 10 a second
    assert seat.receive(view_frame(4, seq=4, your_turn=False)).send is None
    assert seat.played.moves == 4


def test_a_rate_limited_move_is_sent_again_after_retry_after():
    seat, clock = seat_at(burst=20, rate=10)
    step = seat.chosen(seat.receive(view_frame(0)).choose, "draw")
    assert step.wait == 0
    step = seat.receive({"type": "error", "code": "rate_limited", "message": "...",
                         "retry_after": 0.35})
    assert step.send == seat.pending and step.send["seq"] == 1
    assert step.wait == pytest.approx(0.35)
    clock.now += 0.35
    # The bucket is empty now, and refills slower than 10 a second (a token took 0.35 s): the
    # next frame waits for the server's rate.
    step = seat.chosen(seat.receive(view_frame(1, seq=1)).choose, "draw")
    assert step.wait == pytest.approx(0.35)
    clock.now += 0.35
    step = seat.receive({"type": "error", "code": "rate_limited", "message": "...",
                         "retry_after": 0.05})
    assert step.send["seq"] == 2 and step.wait >= 0.05
    # The last one before the server closes the socket has no retry_after: nothing is sent.
    assert seat.receive({"type": "error", "code": "rate_limited",
                         "message": "too many frames: closing"}).send is None
    assert seat.played.rate_limited == 3


def test_a_stale_move_asks_for_the_view_and_other_errors_raise_quoting_the_frame():
    seat, _ = seat_at()
    seat.chosen(seat.receive(view_frame(0)).choose, "draw")
    step = seat.receive({"type": "error", "code": "stale", "message": "at ply 0", "seq": 1})
    assert step.send == {"type": "view", "seq": 2} == seat.pending
    # A request dropped for the rate is sent again too; its answer is no move of the seat's.
    step = seat.receive({"type": "error", "code": "rate_limited", "message": "...",
                         "retry_after": 0.1})
    assert step.send == {"type": "view", "seq": 2}
    assert seat.receive(view_frame(1, seq=2)).choose is not None
    assert seat.pending is None and seat.played.moves == 0
    frame = {"type": "error", "code": "bot_failed", "message": "the bot of seat 1 failed"}
    with pytest.raises(ServerError, match="the bot of seat 1 failed") as raised:
        seat.receive(frame)
    assert raised.value.frame == frame and raised.value.code == "bot_failed"


def test_play_takes_a_policy_or_a_chooser_and_a_table_or_its_token():
    with Client() as http:
        with pytest.raises(TypeError, match="policy= .* or choose="):
            http.play("t", "token")
        with pytest.raises(TypeError, match="policy= .* or choose="):
            http.play("t", "token", policy="greedy", choose=lambda view, legal: legal[0])
        with pytest.raises(ValueError, match="2 human seats"):
            http.play(Table("t", {0: "a", 1: "b"}, 2, "italian-2p", False, 0.0), policy="greedy")
        with pytest.raises(burraco.InvalidNotationError, match="unknown bot 'nobody'"):
            http.play("t", "token", policy="nobody")
    with pytest.raises(ValueError, match="expected the server's address"):
        Client("127.0.0.1:8000")


def test_a_server_that_does_not_answer_is_tried_again_then_named(unused_port):
    url = f"http://127.0.0.1:{unused_port}"
    with Client(url, retries=1) as http:
        with pytest.raises(client.ClientError, match=r"POST /api/tables: ConnectError.*2 times"):
            http.create_table("italian-2p", ["human", "bot:greedy"])
        with pytest.raises(client.ClientError, match="the connection failed 2 times") as failed:
            http.play("t", "token", policy="greedy")
        assert isinstance(failed.value.__cause__, OSError)


@pytest.fixture
def unused_port():
    """A loopback port nothing listens on (bound, then closed)."""
    import socket
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


# ---- against a real server ----------------------------------------------------------------------


def _seat_moves(record, seat: int) -> int:
    """The moves of ``seat`` in a hand's record."""
    game = Game.from_record(dict(record, moves=[], result=None))
    count = 0
    for move in record["moves"]:
        count += game.turn == seat
        game.push(move)
    return count


def test_a_whole_match_over_the_socket_meets_the_rate_limit_and_waits_as_told(serving):
    # The server allows a burst of 5 frames; the client believes in 20, so the 6th is dropped:
    # it must wait as the frame says and send it again, and keep to the rate from then on (a
    # client that sent at once would be refused again and again, and closed after 10).
    _, url = serving("--burst", "5", "--rate", "40", "--create-rate", "0")
    with Client(url, burst=20, rate=40) as http:
        table = http.create_table("italian-2p", ["human", "bot:greedy"], match=True,
                                  knobs={"match_target": 600})
        assert table.match and table.players == 2 and list(table.tokens) == [0]
        played = http.play(table, policy="greedy", seed=7)
        records = http.records(table.id)
    assert played.rate_limited == 1 and played.reconnects == 0
    assert played.match is not None and played.match["over"]
    assert played.results[-1]["status"] == "finished" and len(played.results) == len(records)
    assert [result["record"] for result in played.results] == records
    for record in records:
        assert Game.from_record(record).is_over()  # the replay gives the recorded result
    assert played.moves == sum(_seat_moves(record, 0) for record in records)


def test_a_server_killed_in_mid_hand_is_reconnected_to_and_the_hand_resumed(serving):
    process, url = serving("--rate", "1000", "--burst", "1000")
    port = int(url.rsplit(":", 1)[1])
    rng = random.Random(5)
    views: list[dict] = []

    def choose(view, legal):
        nonlocal process
        views.append(view)
        if len(views) == 6:  # the server dies before this move is sent, and comes back
            process.kill()
            process.wait(timeout=10)
            process, _ = serving("--rate", "1000", "--burst", "1000", port=port)
        return rng.choice(legal)

    with Client(url, rate=1000, burst=1000, retries=20) as http:
        table = http.create_table("italian-2p", ["human", "bot:random"])
        played = http.play(table, choose=choose)
        records = http.records(table.id)
    assert played.reconnects >= 1 and played.results[-1]["status"] == "finished"
    # The view after the restart is the one the lost move was chosen for: the seat resumes
    # where the table is, and nothing was played twice or lost.
    assert views[6] == views[5]
    assert len(records) == 1 and played.moves == _seat_moves(records[0], 0)


def test_an_error_frame_is_raised_quoting_it_and_a_wrong_token_is_refused(serving):
    _, url = serving("--create-rate", "0")
    with Client(url) as http:
        table = http.create_table("italian-2p", ["human", "bot:greedy"])
        with pytest.raises(ServerError, match=r'"code": "illegal_move".*meld As 2s') as raised:
            http.play(table, choose=lambda view, legal: "meld As 2s 3s")
        assert raised.value.code == "illegal_move" and raised.value.frame["seq"] == 1
        with pytest.raises(SeatRefused, match="1008"):
            http.play(table.id, "not-a-token", policy="greedy")
        with pytest.raises(HTTPError, match=r"422 .*unknown bot 'nobody'") as refused:
            http.create_table("italian-2p", ["human", "bot:nobody"])
        assert refused.value.status == 422


def test_a_429_on_table_creation_is_waited_out_as_retry_after_says(serving):
    _, url = serving("--create-burst", "1", "--create-rate", "60")  # one table a second
    with Client(url) as http:
        http.create_table("italian-2p", ["human", "bot:greedy"])
        started = time.monotonic()
        http.create_table("italian-2p", ["human", "bot:greedy"])  # 429, Retry-After: 1
        assert time.monotonic() - started >= 0.9
    with Client(url, retries=0) as impatient:
        with pytest.raises(HTTPError, match="429 too many tables") as refused:
            impatient.create_table("italian-2p", ["human", "bot:greedy"])
        assert refused.value.status == 429


@pytest.mark.slow  # a whole hand at the server's default limits; CI's slow step runs it
def test_a_bot_joins_a_club_table_from_the_list(serving):
    """docs/server.md "The lobby": public=, list_tables() and claim(), blocking and asyncio; a
    seat claimed twice is HTTPError 409, and the two claimed seats play the table to its end."""
    _, url = serving()
    with Client(url) as club:
        made = club.create_table("italian-2p", ["open", "open"], public=True, match=False)
        private = club.create_table("italian-2p", ["human", "open"])
        assert made.public and made.tokens == {} and private.public is False
        assert made.join == {0: f"/table/{made.id}?join=0", 1: f"/table/{made.id}?join=1"}
        listed = club.list_tables()
        assert [t["id"] for t in listed] == [made.id]  # the private table is not listed
        assert listed[0]["open_seats"] == [0, 1] and listed[0]["status"] == "waiting"
        assert club.list_tables(limit=1) == listed
        first = club.claim(made, 0)
        assert list(first.tokens) == [0] and first.id == made.id and first.players == 2
        with pytest.raises(HTTPError, match="409 seat 0 of table .* was claimed already") as refused:
            club.claim(made.id, 0)
        assert refused.value.status == 409
        with pytest.raises(HTTPError, match=r"400 limit '0'"):
            club.list_tables(limit=0)
        with pytest.raises(TypeError, match="expected a table"):
            club.claim(made.id, "1")  # type: ignore[arg-type]

    async def join_and_play():
        async with AsyncClient(url) as mine:
            free = [t for t in await mine.list_tables() if t["open_seats"]]
            assert [t["open_seats"] for t in free] == [[1]]
            second = await mine.claim(free[0]["id"], 1)
            return await asyncio.gather(mine.play(first, policy="greedy"),
                                        mine.play(second, choose=lambda v, legal: legal[0]))

    played = asyncio.run(join_and_play())
    assert [p.seat for p in played] == [0, 1]
    assert all(p.results[-1]["status"] == "finished" for p in played)
    with Client(url) as club:
        assert club.list_tables() == []


def test_the_asyncio_client_plays_a_hand_with_a_coroutine(serving):
    _, url = serving("--rate", "1000", "--burst", "1000", "--create-rate", "0")

    async def main():
        async with AsyncClient(url, rate=1000, burst=1000) as http:
            table = await http.create_table("italian-2p", ["human", "bot:greedy"])

            async def choose(view, legal):
                await asyncio.sleep(0)
                return legal[-1]

            played = await http.play(table.id, table.tokens[0], choose=choose)
            other = await http.create_table("italian-2p", ["bot:greedy", "human"])
            by_policy = await http.play(other, policy="heuristic", seed=2)
            return played, by_policy, await http.table(table.id)

    played, by_policy, summary = asyncio.run(main())
    assert played.results[-1]["status"] == "finished" and summary["status"] == "finished"
    assert by_policy.seat == 1 and by_policy.results[-1]["status"] == "finished"


def _client_examples() -> list[str]:
    page = (ROOT / "docs" / "server.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```\n+```text\n(.*?)```", page, flags=re.DOTALL)
    return [block for block in blocks if "burraco.client" in block[0]]


def test_docs_server_md_has_its_client_examples():
    assert len(_client_examples()) == 3, "docs/server.md lost an example of burraco.client"


@pytest.mark.slow  # whole hands at the server's default limits; CI's slow step runs them
@pytest.mark.parametrize("number", range(3))
def test_a_client_example_of_docs_server_md_plays_its_tables_at_the_default_limits(
        number, serving, capsys):
    # The server's default limits, which the example's client keeps to without being told: the
    # example of old, which sent its moves as fast as the views came, had its 21st frame dropped
    # and waited for ever.
    code, output = _client_examples()[number]
    _, url = serving()
    exec(compile(code.replace("http://127.0.0.1:8000", url), "docs/server.md", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    expected = output.splitlines()
    assert len(printed) == len(expected)
    for line, shown in zip(printed, expected):  # the deal differs, the words do not
        assert re.sub(r"\d+", "N", line) == re.sub(r"\d+", "N", shown)


# ---- a person who leaves (docs/server.md "When a person leaves") ---------------------------------


class _Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def in_thread():
    """``burraco serve``'s application under uvicorn in a thread of this process, its clock the
    test's: ``start(**options) -> (server, url, clock, run)``, ``run(coroutine_function)`` calling
    it on the server's event loop."""
    import socket as sockets
    import threading

    import uvicorn

    from burraco.server import ServerConfig, create_app

    running = []

    def start(**options):
        clock = _Clock()
        app = create_app(ServerConfig(seed=3, clock=clock, rate=1000, burst=1000,
                                      **options))
        listener = sockets.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
        thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]},
                                  daemon=True)
        thread.start()
        running.append((server, thread, listener))
        deadline = time.monotonic() + 30
        while not server.started:
            assert time.monotonic() < deadline and thread.is_alive(), "uvicorn did not start"
            time.sleep(0.01)
        state = app.state.server
        loop = state.janitor.get_loop()

        def run(function):
            return asyncio.run_coroutine_threadsafe(function(), loop).result(timeout=30)

        return state, f"http://127.0.0.1:{listener.getsockname()[1]}", clock, run

    yield start
    for server, thread, listener in running:
        server.should_exit = True
        thread.join(timeout=30)
        listener.close()


def _drop_seat(server, table_id: str, seat: int, run) -> None:
    """Closes every socket of a seat from the server's side (as a network drop would) and waits
    until the table has seen them go."""
    table = server.tables[table_id]

    async def close():
        for connection in list(table.connections):
            if connection.seat == seat:
                connection.close()

    run(close)
    deadline = time.monotonic() + 30
    while any(c.seat == seat for c in table.connections) or not table.states[seat].away:
        assert time.monotonic() < deadline, "the socket did not close"
        time.sleep(0.01)


def test_a_client_whose_socket_drops_reconnects_within_the_grace_and_keeps_its_seat(in_thread):
    server, url, clock, run = in_thread(grace=60)
    rng = random.Random(8)
    views: list[dict] = []

    def choose(view, legal):
        views.append(view)
        if len(views) == 4:  # the socket drops before this move is sent
            _drop_seat(server, table.id, 0, run)
            clock.now += 59  # back within the grace
        return rng.choice(legal)

    with Client(url, rate=1000, burst=1000) as http:
        table = http.create_table("italian-2p", ["human", "bot:heuristic"])
        played = http.play(table, choose=choose)
        records = http.records(table.id)
        summary = http.table(table.id)
    assert played.reconnects >= 1 and played.results[-1]["status"] == "finished"
    assert views[4] == views[3]  # resumed from the server's view, where the move was lost
    # Never replaced: every move of the seat is one the client chose.
    assert played.moves == _seat_moves(records[0], 0)
    assert summary["seats"][0]["played_by"] == "person" and not summary["seats"][0]["replaced"]


def test_a_client_back_after_the_grace_finds_its_seat_played_and_takes_it_back(in_thread):
    """Seat 0's client drops and is not back within the grace: the replacement plays its turn.
    Seat 1's client (a person) waits for seat 0's to be back, so the hand cannot end before it:
    seat 0's client comes back, takes its seat back, and both play the hand to its end."""
    import threading

    server, url, clock, run = in_thread(grace=60)
    rng, other_rng = random.Random(9), random.Random(10)
    views: list[dict] = []
    replaced: list[dict] = []
    dropped = threading.Event()

    def choose(view, legal):
        views.append(view)
        if len(views) == 4:  # the socket drops, and the client is not back within the grace
            table = server.tables[made.id]
            ply = len(table.moves)
            _drop_seat(server, made.id, 0, run)
            dropped.set()
            clock.now += 60
            run(server.tick)
            deadline = time.monotonic() + 30
            while len(table.moves) == ply:  # the bot plays the seat's turn
                assert time.monotonic() < deadline, "the replacement did not play"
                time.sleep(0.01)
            replaced.append(http.table(made.id)["seats"][0])
        return rng.choice(legal)

    def choose_other(view, legal):
        if dropped.is_set():  # seat 1 waits for seat 0's person to be back
            deadline = time.monotonic() + 30
            while server.tables[made.id].seats[0].bot_plays:
                assert time.monotonic() < deadline, "seat 0 was not given back"
                time.sleep(0.01)
        return other_rng.choice(legal)

    with Client(url, rate=1000, burst=1000) as http, Client(url, rate=1000, burst=1000) as other:
        made = http.create_table("italian-2p", ["human", "human"])
        seat_1: list = []
        thread = threading.Thread(target=lambda: seat_1.append(
            other.play(made.id, made.tokens[1], choose=choose_other)))
        thread.start()
        played = http.play(made.id, made.tokens[0], choose=choose)
        thread.join(timeout=60)
        records = http.records(made.id)
    assert replaced[0]["played_by"] == "bot:heuristic" and replaced[0]["replaced"]
    assert played.reconnects >= 1 and played.results[-1]["status"] == "finished"
    assert seat_1[0].results[-1]["result"] == played.results[-1]["result"]
    assert len(records) == 1 and len(views) > 4  # the client played again once back
    # The bot played some of the seat's moves; the client the others.
    assert _seat_moves(records[0], 0) > played.moves
    events = [(frame["event"], frame["seat"]) for frame in seat_1[0].events]
    assert events[:4] == [("away", 0), ("replaced", 0), ("returning", 0), ("returned", 0)]
