"""A client of the table server (``burraco serve``, docs/server.md "A client in Python"): it makes
tables over HTTP and plays a seat over its WebSocket, with a bot of the library or a function of
yours. Needs the ``client`` extra (``pip install 'burraco[client]'``: websockets and httpx).

:class:`Client` is the blocking client, :class:`AsyncClient` the same for asyncio. Both speak the
protocol as the server implements it:

* every move carries a ``seq`` and the ``hand`` and ``ply`` it was chosen at, so a move is never
  played in another position than its own, and only one move is in flight at a time;
* frames are paced to the server's limits (a burst, then a rate: ``burst`` and ``rate``, the
  server's defaults unless given); a ``rate_limited`` error frame is waited out as it says
  (``retry_after``) and the dropped move sent again; a ``429`` or ``503`` answer to a request is
  waited out as its ``Retry-After`` says, and the request sent again;
* a socket that drops is opened again with the seat's token, and play resumes from the fresh view
  the server sends on connecting (a move in flight is then either played, and the view shows it,
  or chosen again);
* every other error frame raises :class:`ServerError`, which quotes the frame.

>>> from burraco.client import Client
>>> with Client("http://127.0.0.1:8000/") as client:
...     client.url
'http://127.0.0.1:8000'
"""

from __future__ import annotations

import asyncio
import inspect
import json
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Union
from urllib.parse import quote, urlsplit, urlunsplit

try:
    import httpx
    from websockets.asyncio.client import connect as async_connect
    from websockets.exceptions import ConnectionClosed, InvalidHandshake
    from websockets.sync.client import connect as sync_connect
except ImportError as missing:  # pragma: no cover - the extra is installed where tests run
    raise ImportError(f"burraco.client needs the extra 'client' (pip install "
                      f"'burraco[client]': websockets and httpx): {missing}") from missing

from . import _protocol as protocol
from . import bots
from ._core import Game
from ._errors import BurracoError, InvalidStateError
from .reference.game import determinize
from .reference.observation import observation_from_view

__all__ = [
    "AsyncClient",
    "Client",
    "ClientError",
    "HTTPError",
    "Played",
    "SeatRefused",
    "ServerError",
    "Table",
    "game_from_view",
]

# A function that chooses a move: choose(view, legal) -> move, with view the seat's JSON view (a
# view frame's view) and legal its legal moves as text; it returns one of them.
Chooser = Callable[[dict[str, Any], list[str]], str]
AsyncChooser = Callable[[dict[str, Any], list[str]], Union[str, Awaitable[str]]]


class ClientError(Exception):
    """A table the client could not play, or a request it could not make; the message says why."""


class HTTPError(ClientError):
    """A request the server refused: ``status`` is the HTTP status, ``error`` the server's
    message (its ``{"error": ...}``)."""

    def __init__(self, method: str, url: str, status: int, error: str) -> None:
        super().__init__(f"{method} {url}: {status} {error}")
        self.status = status
        self.error = error


class ServerError(ClientError):
    """An ``error`` frame of the server that the client cannot get past: ``frame`` is the frame,
    ``code`` its code (docs/server.md: ``illegal_move``, ``table_finished``, ``bot_failed``, ...)."""

    def __init__(self, frame: Mapping[str, Any]) -> None:
        super().__init__(f"the server refused a frame: {json.dumps(frame)}")
        self.frame = dict(frame)
        self.code = str(frame.get("code"))


class SeatRefused(ClientError):
    """The socket was closed at once (code 1008) with no frame: the token is not one of the
    table's, or there is no such table (the server does not tell which)."""


@dataclass(frozen=True)
class Table:
    """A table made by ``POST /api/tables`` (its id, one token per human seat by seat number,
    and what the server made of the request), or a seat claimed (``tokens`` has the claimed
    seat's alone). ``join`` has the join link of each open seat, by seat number (a page of the
    server: docs/server.md "Open seats")."""

    id: str
    tokens: dict[int, str]
    players: int
    rules: str
    match: bool
    bot_delay: float
    turn_seconds: float = 0.0  # the turn clock (0: none)
    public: bool = False  # listed by the server's lobby
    join: dict[int, str] = field(default_factory=dict)

    @classmethod
    def from_answer(cls, answer: Mapping[str, Any]) -> Table:
        """The table of the server's ``201`` answer, or of a claim's answer."""
        if "token" in answer:  # a claim: the one seat's token
            tokens = {int(answer["seat"]): answer["token"]}
        else:
            tokens = {int(seat): token for seat, token in answer["tokens"].items()}
        return cls(answer["id"], tokens, answer["players"], answer["rules"], answer["match"],
                   answer["bot_delay"], answer.get("turn_seconds", 0.0),
                   answer.get("public", False),
                   {int(seat): link for seat, link in answer.get("join", {}).items()})


class Played:
    """What :meth:`Client.play` saw of a table: ``results``, the ``result`` frames of the hands it
    saw end, in order; ``view``, the last ``view`` frame; ``seat``, the seat played; ``moves``, the
    moves it played (each acknowledged); ``rate_limited``, the ``rate_limited`` frames it was
    sent; ``reconnects``, the times it tried to connect again after a socket dropped or could not
    be opened; ``events``, the ``seat`` frames it was sent (a person away, replaced by a bot,
    back, a turn clock run out: docs/server.md "When a person leaves")."""

    def __init__(self, table: str) -> None:
        self.table = table
        self.seat: int | None = None
        self.results: list[dict[str, Any]] = []
        self.view: dict[str, Any] | None = None
        self.moves = 0
        self.rate_limited = 0
        self.reconnects = 0
        self.events: list[dict[str, Any]] = []

    def __repr__(self) -> str:
        return (f"<Played table {self.table} seat {self.seat}: {len(self.results)} hands, "
                f"{self.moves} moves, {self.rate_limited} rate limited, {self.reconnects} "
                "reconnects>")

    @property
    def match(self) -> dict[str, Any] | None:
        """The match's scores and state after the last frame (None for a one-hand table)."""
        if self.results:
            last: dict[str, Any] | None = self.results[-1]["match"]
            return last
        return None if self.view is None else self.view["match"]


def game_from_view(view: Mapping[str, Any], seed: int = 0) -> Game:
    """A game consistent with a seat's JSON view (a ``view`` frame's ``view``; docs/records.md
    "JSON views"): that seat's cards and every public fact as the view gives them, the cards it
    cannot see dealt from ``seed`` (docs/search.md "Determinization"). A policy of the library reads
    only the observation of the seat to act, so it plays the same move in every such game: this is
    how the client plays a bot from the view it is sent. InvalidStateError if the game's view of
    the seat is not the view given (a view that no game gives)."""
    observation = observation_from_view(view)
    try:
        game = Game.from_state_string(determinize(observation, seed).state_string())
    except (AssertionError, BurracoError) as error:  # cards the deck does not hold, ...
        raise InvalidStateError(f"seat {observation.player}'s view {str(observation)!r}: no game "
                                f"gives it ({error})") from None
    dealt = json.loads(game.to_json(player=observation.player))
    if dealt != dict(view):
        wrong = sorted(key for key in set(dealt) | set(view) if dealt.get(key) != view.get(key))
        raise InvalidStateError(f"seat {observation.player}'s view {str(observation)!r}: no game "
                                f"gives it (the fields {', '.join(wrong)} differ)")
    return game


def _policy_chooser(policy: Any, seed: int) -> Chooser:
    """A chooser that plays ``policy`` (a bot spec, a :class:`burraco.Policy`, a
    :class:`burraco.ISMCTS`, or a Python policy ``policy(view, moves) -> index``) from the views,
    each move seeded by the next output of ``bots.seeds(seed)``."""
    player = bots.make(policy) if isinstance(policy, (str, bots.Spec)) else policy
    stream = bots.seeds(seed)

    def choose(view: dict[str, Any], legal: list[str]) -> str:
        move_seed = stream.next()
        game = game_from_view(view, move_seed)
        if hasattr(player, "choose"):
            return str(player.choose(game))
        return str(game.policy_move(player, move_seed))

    return choose


def _chooser(policy: Any, choose: Any, seed: int) -> Any:
    if (policy is None) == (choose is None):
        raise TypeError("play: give either policy= (a bot spec or a policy) or choose= (a "
                        "function (view, legal) -> move), not both and not neither")
    if choose is not None:
        if not callable(choose):
            raise TypeError(f"choose={choose!r}: expected a function (view, legal) -> move")
        return choose
    return _policy_chooser(policy, seed)


# ---- the protocol, without input or output ------------------------------------------------------


class _Pace(protocol.TokenBucket):
    """The client's model of its socket's token bucket on the server (``capacity`` frames at
    once, then ``rate`` a second), the server's own class: how long to wait before the next
    frame."""

    def reserve(self) -> float:
        """Takes a frame's token, owing it if there is none: the seconds to wait before sending
        the frame (0: at once)."""
        self._refill()
        self.tokens -= 1
        return max(0.0, -self.tokens / self.rate)

    def drained(self, retry_after: float) -> None:
        """The server says its bucket has a token again in ``retry_after`` seconds: so does the
        model. As the server's wait is at most one token's time, a longer one than the model's
        shows a slower rate, which the model takes from then on; and as the server's burst may
        be smaller than the model's, the model keeps to the rate without a burst from then on
        (a socket refused too often is closed)."""
        self._refill()
        if retry_after > 1 / self.rate:
            self.rate = 1 / retry_after
        self.capacity = 1.0
        self.tokens = min(self.tokens, 1 - retry_after * self.rate)


@dataclass
class _Step:
    """What a driver does after a frame: ``choose`` a move for the view frame ``choose`` (then
    call :meth:`_Seat.chosen`), wait ``wait`` seconds and send ``send``, or stop (``done``)."""

    send: dict[str, Any] | None = None
    wait: float = 0.0
    choose: dict[str, Any] | None = None
    done: bool = False


class _Seat:
    """One seat's side of the protocol, frame by frame; the sync and asyncio drivers only read,
    wait, call the chooser and send."""

    def __init__(self, table: str, pace: _Pace) -> None:
        self.pace = pace
        self.played = Played(table)
        # The frame sent and not yet answered: a move, or a request for the view.
        self.pending: dict[str, Any] | None = None
        self.seq = 0
        self.frames = 0  # frames received on the current socket

    def connected(self) -> None:
        """A new socket: the server's bucket is full again, and its first frame is the fresh
        view (a move in flight was played, which the view shows, or is chosen again)."""
        self.pending = None
        self.frames = 0
        self.pace.tokens = self.pace.capacity  # what the model has learnt of the limits stays

    def _next_seq(self) -> int:
        self.seq += 1
        return self.seq

    def receive(self, frame: dict[str, Any]) -> _Step:
        """The step after one frame from the server."""
        self.frames += 1
        kind = frame.get("type")
        if kind == "view":
            return self._view(frame)
        if kind == "result":
            self.played.results.append(frame)
            return _Step(done=frame["status"] != "playing")
        if kind == "error":
            return self._error(frame)
        if kind == "seat":
            self.played.events.append(frame)
        return _Step()  # a pong, a seat frame

    def _view(self, frame: dict[str, Any]) -> _Step:
        self.played.view = frame
        self.played.seat = frame["seat"]
        if self.pending is not None and frame.get("seq") == self.pending["seq"]:
            self.played.moves += self.pending["type"] == "move"
            self.pending = None
        if frame["status"] == "abandoned":
            raise ClientError(f"table {frame['table']} was closed as abandoned (docs/server.md "
                              "\"Tables in memory\"): no more moves")
        if frame["status"] == "finished":
            # After the last move its hand's result frame follows; a socket that connects to a
            # finished table gets the view alone (the results are in the table's records).
            return _Step(done=frame["last"] is None)
        if self.pending is None and frame["your_turn"] and frame["legal"]:
            return _Step(choose=frame)
        return _Step()

    def chosen(self, frame: dict[str, Any], move: Any) -> _Step:
        """The step after the chooser chose ``move`` for the view ``frame``."""
        if not isinstance(move, str):
            raise TypeError(f"the chooser returned {move!r} for a view whose legal moves are "
                            f"{frame['legal']!r}: expected one of them, a str")
        self.pending = {"type": "move", "move": move, "seq": self._next_seq(),
                        "hand": frame["hand"], "ply": frame["ply"]}
        return _Step(send=self.pending, wait=self.pace.reserve())

    def _error(self, frame: dict[str, Any]) -> _Step:
        code = frame.get("code")
        if code == "rate_limited":
            self.played.rate_limited += 1
            if "retry_after" not in frame:  # the last one: the server closes the socket
                return _Step()
            self.pace.drained(float(frame["retry_after"]))
            if self.pending is None:
                return _Step()
            return _Step(send=self.pending, wait=self.pace.reserve())
        if (code in ("stale", "replaced") and self.pending is not None
                and frame.get("seq") == self.pending["seq"]):
            # The position moved on (another socket of the seat played), or a bot plays the seat
            # since the server took its person as gone: ask where it is now.
            self.pending = {"type": "view", "seq": self._next_seq()}
            return _Step(send=self.pending, wait=self.pace.reserve())
        raise ServerError(frame)


# ---- the clients --------------------------------------------------------------------------------


def _retry_after(response: httpx.Response) -> float | None:
    """The seconds a ``429`` or ``503`` answer says to wait, else None."""
    if response.status_code not in (429, 503):
        return None
    try:
        return max(0.0, float(response.headers.get("retry-after", "1")))
    except ValueError:
        return 1.0


def _again(method: str, path: str, outcome: httpx.Response | httpx.TransportError,
           attempt: int, retries: int) -> float | None:
    """After a request's ``attempt``-th try (0: the first): None if ``outcome``, an answer, is
    final; else the seconds to wait before trying again (a ``Retry-After``, or a wait that grows
    after a failed connection); ClientError after ``retries`` tries again."""
    if isinstance(outcome, httpx.Response):
        wait = _retry_after(outcome)
        return None if wait is None or attempt == retries else wait
    if attempt == retries:
        raise ClientError(f"{method} {path}: {type(outcome).__name__}: {outcome} (tried "
                          f"{attempt + 1} times)") from outcome
    return min(2.0, 0.05 * 2.0 ** (attempt + 1))


def _answer(response: httpx.Response) -> Any:
    """The JSON of a successful answer; HTTPError quoting the server's error otherwise."""
    if response.is_success:
        return response.json()
    try:
        error = str(response.json()["error"])
    except (ValueError, KeyError, TypeError):
        error = response.text[:200]
    raise HTTPError(response.request.method, str(response.request.url), response.status_code,
                    error)


def _table_body(preset: str, seats: Sequence[str], knobs: Mapping[str, Any] | None,
                match: bool, bot_delay: float | None,
                turn_seconds: float | None = None, public: bool = False) -> dict[str, Any]:
    if isinstance(seats, str):
        raise TypeError(f"seats {seats!r}: expected a list of seats, one per player "
                        "('human', 'open' or 'bot:SPEC')")
    body: dict[str, Any] = {"preset": preset, "seats": list(seats), "match": match}
    if public:
        body["public"] = True
    if knobs:
        body["knobs"] = dict(knobs)
    if bot_delay is not None:
        body["bot_delay"] = bot_delay
    if turn_seconds is not None:
        body["turn_seconds"] = turn_seconds
    return body


def _decode(raw: str | bytes) -> dict[str, Any]:
    frame = json.loads(raw)
    if not isinstance(frame, dict) or "type" not in frame:
        raise ClientError(f"the server sent {raw!r}: not a frame of docs/server.md")
    return frame


class _Base:
    def __init__(self, url: str, *, rate: float, burst: float, retries: int,
                 timeout: float) -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ValueError(f"url {url!r}: expected the server's address, such as "
                             "'http://127.0.0.1:8000'")
        if rate <= 0 or burst < 1:
            raise ValueError(f"rate {rate!r}, burst {burst!r}: expected rate > 0 and burst >= 1")
        self.url = url.rstrip("/")
        self.rate, self.burst = rate, burst
        self.retries = retries
        self.timeout = timeout
        self._ws = urlunsplit(("wss" if parts.scheme == "https" else "ws", parts.netloc,
                               parts.path.rstrip("/"), "", ""))

    @staticmethod
    def _list_query(limit: int | None) -> dict[str, Any]:
        return {} if limit is None else {"params": {"limit": str(limit)}}

    @staticmethod
    def _claim_path(table: str | Table, seat: int) -> str:
        table_id = table.id if isinstance(table, Table) else table
        if not isinstance(table_id, str) or type(seat) is not int:
            raise TypeError(f"claim({table!r}, {seat!r}): expected a table (or its id) and a "
                            "seat number")
        return protocol.CLAIM_PATH.format(id=quote(table_id, safe=""), seat=seat)

    def _play_url(self, table: str, token: str) -> str:
        path = protocol.PLAY_PATH.format(id=quote(table, safe=""))
        return f"{self._ws}{path}?token={quote(token, safe='')}"

    def _seat(self, table: str) -> _Seat:
        return _Seat(table, _Pace(self.burst, self.rate, time.monotonic))

    def _lost(self, seat: _Seat, error: Exception, failures: int) -> float:
        """After a socket was lost: SeatRefused for a socket closed before its first frame with
        1008, ClientError once ``retries`` attempts in a row failed, else the wait before the
        next one."""
        if (isinstance(error, ConnectionClosed) and seat.frames == 0 and error.rcvd is not None
                and error.rcvd.code == protocol.POLICY_VIOLATION):
            raise SeatRefused(f"table {seat.played.table}: the socket was closed with code 1008 "
                              "at once (a token that is not one of the table's, or no such "
                              "table)") from error
        if failures > self.retries:
            raise ClientError(f"table {seat.played.table}: the connection failed {failures} "
                              f"times in a row ({error})") from error
        seat.played.reconnects += 1
        return min(2.0, 0.05 * 2.0 ** failures)


class Client(_Base):
    """The blocking client of a server at ``url`` (``'http://127.0.0.1:8000'``).

    ``rate`` and ``burst`` are the socket limits the client keeps to (the server's defaults: give
    those of a server started with ``--rate`` and ``--burst``); ``retries`` how many times in a
    row a request or a connection is tried again, ``timeout`` the seconds a request or a
    connection may take. Use it as a context manager, or call :meth:`close`."""

    def __init__(self, url: str = "http://127.0.0.1:8000", *, rate: float = protocol.RATE,
                 burst: float = protocol.BURST, retries: int = 5, timeout: float = 10.0) -> None:
        super().__init__(url, rate=rate, burst=burst, retries=retries, timeout=timeout)
        self._http = httpx.Client(base_url=self.url, timeout=timeout)

    def close(self) -> None:
        """Closes the HTTP connections."""
        self._http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _request(self, method: str, path: str, **options: Any) -> Any:
        attempt = 0
        while True:
            outcome: httpx.Response | httpx.TransportError
            try:
                outcome = self._http.request(method, path, **options)
            except httpx.TransportError as error:
                outcome = error
            wait = _again(method, path, outcome, attempt, self.retries)
            if wait is None and isinstance(outcome, httpx.Response):
                return _answer(outcome)
            time.sleep(wait or 0.0)  # as the server says (Retry-After)
            attempt += 1

    def create_table(self, preset: str, seats: Sequence[str], *,
                     knobs: Mapping[str, Any] | None = None, match: bool = False,
                     bot_delay: float | None = None, turn_seconds: float | None = None,
                     public: bool = False) -> Table:
        """Makes a table (``POST /api/tables``): ``seats`` one per player, ``'human'``,
        ``'open'`` (a seat anyone may claim: :meth:`claim`) or ``'bot:SPEC'``; ``turn_seconds``
        its turn clock (None: the server's); ``public`` lists it in the server's lobby
        (:meth:`list_tables`). A ``429`` or ``503`` is waited out (``Retry-After``) and tried
        again."""
        body = _table_body(preset, seats, knobs, match, bot_delay, turn_seconds, public)
        return Table.from_answer(self._request("POST", protocol.TABLES_PATH, json=body))

    def list_tables(self, limit: int | None = None) -> list[dict[str, Any]]:
        """The public tables being played, newest first (``GET /api/tables``; at most ``limit``,
        the server's default if None): each with its rules, its seats (``free`` for an open
        seat nobody has claimed) and ``open_seats``."""
        answer: dict[str, Any] = self._request("GET", protocol.TABLES_PATH,
                                               **self._list_query(limit))
        tables: list[dict[str, Any]] = answer["tables"]
        return tables

    def claim(self, table: str | Table, seat: int) -> Table:
        """Claims an open seat (``POST /api/tables/{id}/seats/{seat}/claim``): a :class:`Table`
        whose ``tokens`` has that seat's token, for :meth:`play`. HTTPError 409 if the seat is
        not open (claimed already, a bot's, a person's)."""
        return Table.from_answer(self._request("POST", self._claim_path(table, seat)))

    def table(self, table: str) -> dict[str, Any]:
        """The table and its public view (``GET /api/tables/{id}``)."""
        answer: dict[str, Any] = self._request(
            "GET", protocol.TABLE_PATH.format(id=quote(table, safe="")))
        return answer

    def records(self, table: str) -> list[dict[str, Any]]:
        """The game records of the table's finished hands (``GET /api/tables/{id}/record``)."""
        answer: list[dict[str, Any]] = self._request(
            "GET", protocol.RECORD_PATH.format(id=quote(table, safe="")))
        return answer

    def play(self, table: str | Table, token: str | None = None, *, policy: Any = None,
             choose: Chooser | None = None, seed: int = 0) -> Played:
        """Plays a seat until the hand (or the match) is over and returns what it saw.

        ``table`` is a table id with the seat's ``token``, or a :class:`Table` with one human seat
        (its token is taken). The moves are ``policy``'s (a bot spec of docs/bots.md, as
        ``'heuristic'`` or ``'ismcts:500'``, or a policy :func:`burraco.bots.make` made, or a
        Python policy ``policy(view, moves) -> index``; move ``i`` seeded by output ``i`` of
        ``bots.seeds(seed)``), or those of ``choose(view, legal) -> move``."""
        table_id, token = _seat_of(table, token)
        decide = _chooser(policy, choose, seed)
        seat = self._seat(table_id)
        failures = 0
        while True:
            try:
                with sync_connect(self._play_url(table_id, token), open_timeout=self.timeout,
                                  max_size=None) as socket:
                    seat.connected()
                    while True:
                        step = seat.receive(_decode(socket.recv()))
                        failures = 0
                        if step.choose is not None:
                            frame = step.choose
                            step = seat.chosen(frame, decide(frame["view"], list(frame["legal"])))
                        if step.send is not None:
                            if step.wait > 0:
                                time.sleep(step.wait)  # the server's pace (retry_after)
                            socket.send(json.dumps(step.send))
                        if step.done:
                            return seat.played
            except (ConnectionClosed, InvalidHandshake, OSError, TimeoutError) as error:
                failures += 1
                time.sleep(self._lost(seat, error, failures))


class AsyncClient(_Base):
    """The asyncio client: :class:`Client`'s calls as coroutines (``choose`` may be a coroutine
    function; a policy chooses in a worker thread, so the event loop goes on meanwhile)."""

    def __init__(self, url: str = "http://127.0.0.1:8000", *, rate: float = protocol.RATE,
                 burst: float = protocol.BURST, retries: int = 5, timeout: float = 10.0) -> None:
        super().__init__(url, rate=rate, burst=burst, retries=retries, timeout=timeout)
        self._http = httpx.AsyncClient(base_url=self.url, timeout=timeout)

    async def aclose(self) -> None:
        """Closes the HTTP connections."""
        await self._http.aclose()

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def _request(self, method: str, path: str, **options: Any) -> Any:
        attempt = 0
        while True:
            outcome: httpx.Response | httpx.TransportError
            try:
                outcome = await self._http.request(method, path, **options)
            except httpx.TransportError as error:
                outcome = error
            wait = _again(method, path, outcome, attempt, self.retries)
            if wait is None and isinstance(outcome, httpx.Response):
                return _answer(outcome)
            await asyncio.sleep(wait or 0.0)  # as the server says (Retry-After)
            attempt += 1

    async def create_table(self, preset: str, seats: Sequence[str], *,
                           knobs: Mapping[str, Any] | None = None, match: bool = False,
                           bot_delay: float | None = None,
                           turn_seconds: float | None = None, public: bool = False) -> Table:
        """:meth:`Client.create_table`."""
        body = _table_body(preset, seats, knobs, match, bot_delay, turn_seconds, public)
        return Table.from_answer(await self._request("POST", protocol.TABLES_PATH, json=body))

    async def list_tables(self, limit: int | None = None) -> list[dict[str, Any]]:
        """:meth:`Client.list_tables`."""
        answer: dict[str, Any] = await self._request("GET", protocol.TABLES_PATH,
                                                     **self._list_query(limit))
        tables: list[dict[str, Any]] = answer["tables"]
        return tables

    async def claim(self, table: str | Table, seat: int) -> Table:
        """:meth:`Client.claim`."""
        return Table.from_answer(await self._request("POST", self._claim_path(table, seat)))

    async def table(self, table: str) -> dict[str, Any]:
        """:meth:`Client.table`."""
        answer: dict[str, Any] = await self._request(
            "GET", protocol.TABLE_PATH.format(id=quote(table, safe="")))
        return answer

    async def records(self, table: str) -> list[dict[str, Any]]:
        """:meth:`Client.records`."""
        answer: list[dict[str, Any]] = await self._request(
            "GET", protocol.RECORD_PATH.format(id=quote(table, safe="")))
        return answer

    async def play(self, table: str | Table, token: str | None = None, *, policy: Any = None,
                   choose: AsyncChooser | None = None, seed: int = 0) -> Played:
        """:meth:`Client.play`."""
        table_id, token = _seat_of(table, token)
        decide = _chooser(policy, choose, seed)
        seat = self._seat(table_id)
        failures = 0
        while True:
            try:
                async with async_connect(self._play_url(table_id, token),
                                         open_timeout=self.timeout, max_size=None) as socket:
                    seat.connected()
                    while True:
                        step = seat.receive(_decode(await socket.recv()))
                        failures = 0
                        if step.choose is not None:
                            frame = step.choose
                            move = await _decide(decide, policy is not None, frame)
                            step = seat.chosen(frame, move)
                        if step.send is not None:
                            if step.wait > 0:
                                await asyncio.sleep(step.wait)  # the server's pace
                            await socket.send(json.dumps(step.send))
                        if step.done:
                            return seat.played
            except (ConnectionClosed, InvalidHandshake, OSError, TimeoutError) as error:
                failures += 1
                await asyncio.sleep(self._lost(seat, error, failures))


async def _decide(decide: Any, in_thread: bool, frame: dict[str, Any]) -> Any:
    view, legal = frame["view"], list(frame["legal"])
    if in_thread:  # a policy may search for a while: not on the event loop
        return await asyncio.to_thread(decide, view, legal)
    move = decide(view, legal)
    return await move if inspect.isawaitable(move) else move


def _seat_of(table: str | Table, token: str | None) -> tuple[str, str]:
    if isinstance(table, Table):
        if token is None:
            if len(table.tokens) != 1:
                raise ValueError(f"table {table.id}: {len(table.tokens)} human seats; give the "
                                 "token of the seat to play")
            token = next(iter(table.tokens.values()))
        return table.id, token
    if not isinstance(table, str) or not isinstance(token, str):
        raise TypeError(f"play({table!r}, {token!r}): expected a table id and its seat's token, "
                        "or a Table")
    return table, token
