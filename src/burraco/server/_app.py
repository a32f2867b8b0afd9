"""The ASGI application of ``burraco serve``: HTTP routes and the table sockets
(docs/server.md is the protocol)."""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import math
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import anyio
import anyio.to_thread
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from .. import _protocol as protocol
from .. import bots
from .._protocol import TokenBucket
from ..bots import HELP as BOT_SPECS
from .._errors import BurracoError
from . import _hints as hints
from . import _lobby as lobby
from ._review import Reviews
from ._presence import Presence, PresenceTable
from ._store import Store
from ._table import (
    CommitFailed,
    Connection,
    Limits,
    MoveRefused,
    PolicyNotAllowed,
    RequestError,
    Retry,
    Seat,
    SeedSource,
    Table,
    _short,
    decimal,
    load_bot,
    new_table_id,
    new_token,
    token_hash,
)

log = logging.getLogger("burraco.server")

STATIC = Path(__file__).resolve().parent / "static"
POLICY_VIOLATION = protocol.POLICY_VIOLATION  # the close code for a wrong token or a flood
CREATE_FIELDS = protocol.CREATE_FIELDS
BOTS_ONLY_DELAY = 1.0  # the default bot_delay of a table of bots only: a pace people can follow
MAX_CLIENTS = 65536  # creation buckets kept before the full ones are dropped at once
MAX_TURN_SECONDS = 86400.0  # the longest turn clock a table may ask for


@dataclass
class ServerConfig:
    """The knobs of a server (``burraco serve`` options; docs/server.md "Limits")."""

    db: str = ":memory:"
    seed: int | None = None  # deal seeds from this seed's stream instead of secrets (tests)
    engine: str = "core"
    bot_threads: int = 2  # worker threads choosing bot moves, all tables together
    max_message: int = protocol.MAX_MESSAGE  # bytes of one client frame, and of a POST body
    rate: float = protocol.RATE  # client frames a second, once the burst is spent
    burst: float = protocol.BURST  # client frames at once
    strikes: float = 10.0  # frames refused for the rate before the socket is closed
    max_tables: int = 1000  # tables being played at once
    max_bot_tables: int = 100  # of which tables of bots only (they play without anyone waiting)
    max_bot_delay: float = 60.0  # the longest bot_delay a table may ask for, seconds
    create_rate: float = 10.0  # tables a client may make a minute, once its burst is spent (0: any)
    create_burst: float = 10.0  # tables a client may make at once
    idle_timeout: float = 3600.0  # seconds untouched before an unfinished table is abandoned
    sweep_interval: float | None = None  # how often idle tables are looked for (None: derived)
    allowed_origins: frozenset[str] = frozenset()  # other origins than the server's own
    busy_timeout: float = 5.0  # seconds a commit waits for a lock held by another process
    retry: Retry = field(default_factory=Retry)  # how a commit that failed is tried again
    limits: Limits = field(default_factory=Limits)
    hint_iterations: int = 600  # the search of one hint (docs/server.md "Hints")
    hints: int = 3  # hints a seat may ask for in a hand (0: none)
    review_iterations: int = 200  # the search of each decision of a review ("Reviews")
    clock: Callable[[], float] = time.monotonic
    # People who leave (docs/server.md "When a person leaves"): the seconds an away person has
    # to come back before a bot plays the seat (None: never replaced), the bot that plays it
    # (a built-in bot; None: heuristic, greedy on the reference engine), the turn clock of a
    # table that asks for none (0: off), and what plays a turn whose time ran out.
    grace: float | None = 60.0
    replace_with: str | None = None
    turn_seconds: float = 0.0
    max_timeouts: int = 3
    timeout_bot: str = "greedy"

    def __post_init__(self) -> None:
        self.allowed_origins = frozenset(normal_origin(o) for o in self.allowed_origins)
        if self.grace is not None and not (0 <= self.grace < math.inf):
            raise ValueError(f"grace {self.grace!r}: expected seconds from 0 (None: never "
                             "replaced)")
        if not (self.turn_seconds == 0 or 1 <= self.turn_seconds <= MAX_TURN_SECONDS):
            raise ValueError(f"turn_seconds {self.turn_seconds!r}: expected 0 (no turn clock) "
                             f"or 1 to {MAX_TURN_SECONDS:g} seconds")
        if self.max_timeouts < 1:
            raise ValueError(f"max_timeouts {self.max_timeouts!r}: expected at least 1")


class Server:
    """The state of one application: the store, the tables in memory, the bot threads."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.engine: ModuleType = _engine(config.engine)
        self.seeds = SeedSource(config.seed)
        replacement = config.replace_with
        if replacement is None:
            replacement = "heuristic" if config.engine == "core" else "greedy"
        self.presence = Presence(config.grace, config.max_timeouts,
                                 _built_in(self.engine, "replace_with", replacement),
                                 _built_in(self.engine, "timeout_bot", config.timeout_bot))
        # The tables being played: a finished table is dropped (and read back from the database
        # when asked for), an abandoned one too.
        self.tables: dict[str, PresenceTable] = {}
        self.broken: set[str] = set()  # the stored tables that could not be reloaded
        self.closed: dict[str, str] = {}  # tables closed at reload, with why
        self.reviews = Reviews(config.review_iterations)
        self.creators: dict[str, TokenBucket] = {}  # a creation bucket per client
        self.taken_in = 0  # the tables kept so far: the lobby lists the newest first
        self.janitor: asyncio.Task[None] | None = None
        self.store: Store | None = None
        self.limiter: anyio.CapacityLimiter | None = None
        # The moves of tables of bots only under way at once: two per bot thread, so that a
        # person's move never waits behind every table of bots (docs/server.md).
        self.gate: asyncio.Semaphore | None = None

    # ---- life ----------------------------------------------------------------------------------

    def open(self) -> None:
        """Opens the database and reloads every unfinished table (once; the lifespan calls it
        if ``burraco serve`` has not, and then starts their bots)."""
        if self.store is not None:
            return
        self.store = Store(self.config.db, self.config.busy_timeout)
        for table_id in self.store.table_ids("playing"):
            try:
                row = self.store.load_table(table_id)
                assert row is not None
                self._keep(PresenceTable.load(row, self.engine, self.store, self.seeds,
                                              self.config.limits))
            except PolicyNotAllowed as refused:  # nothing imported: closed for good
                reason = f"{refused} (the policy is no longer allowed)"
                try:
                    self.store.set_status(table_id, "abandoned")
                except Exception:
                    self.broken.add(table_id)
                    log.exception("table %s cannot be closed: it is not served", table_id)
                    continue
                self.closed[table_id] = reason
                log.warning("table %s closed as abandoned: %s", table_id, reason)
            except Exception:  # one broken table (a policy gone, a row edited) is not served
                self.broken.add(table_id)
                log.exception("table %s cannot be reloaded: it is not served", table_id)
        log.info("%d unfinished tables reloaded from %s", len(self.tables), self.config.db)

    def _keep(self, table: PresenceTable) -> None:
        """Keeps a table being played in memory, wired to this server; its people who have no
        socket open are away from now (docs/server.md "When a person leaves")."""
        table.clock = self.config.clock
        table.touch()
        table.retry = self.config.retry
        table.on_finish = self._forget
        table.limiter, table.gate = self.limiter, self.gate
        table.start(self.presence)
        self.taken_in += 1
        table.order = self.taken_in
        self.tables[table.id] = table

    def _forget(self, table: Table) -> None:
        """Drops a finished or abandoned table from memory (the database has it)."""
        if isinstance(table, PresenceTable):
            table.disarm()
        if self.tables.get(table.id) is table:
            del self.tables[table.id]

    def start(self) -> None:
        """In the event loop: opens the database if need be and starts the bots to act."""
        self.open()
        self.limiter = anyio.CapacityLimiter(max(1, self.config.bot_threads))
        self.gate = asyncio.Semaphore(2 * max(1, self.config.bot_threads))
        for table in self.tables.values():
            table.limiter, table.gate = self.limiter, self.gate
            table.kick()
            table.arm()
        self.janitor = asyncio.get_running_loop().create_task(self._janitor())

    async def _janitor(self) -> None:
        interval = self.config.sweep_interval
        if interval is None:  # a quarter of the idle time, from a second to a minute
            interval = min(60.0, max(1.0, self.config.idle_timeout / 4))
        while True:
            await asyncio.sleep(interval)
            try:
                await self.sweep()
            except Exception:
                log.exception("the sweep of idle tables failed: tried again in %g s", interval)

    async def sweep(self) -> int:
        """Closes as abandoned every table idle for ``idle_timeout`` seconds (no socket open,
        no move, no request), and drops the creation buckets that are full again; the number
        of tables closed."""
        now = self.config.clock()
        for key in [k for k, bucket in self.creators.items() if bucket.full()]:
            del self.creators[key]
        closed = 0
        for table in list(self.tables.values()):
            if table.idle(now, self.config.idle_timeout) and await self.abandon(table):
                closed += 1
        return closed

    async def tick(self) -> None:
        """Acts on every deadline past at every table (a grace or a turn clock over, on the
        server's clock) at once; the tables' timers do so by themselves."""
        for table in list(self.tables.values()):
            await table.tick()

    async def abandon(self, table: PresenceTable) -> bool:
        """Closes an idle table as abandoned: its status in the database, then out of memory.
        False if it is no longer idle, or the database refused (the next sweep tries again)."""
        async with table.lock:
            if not table.idle(self.config.clock(), self.config.idle_timeout):
                return False
            assert self.store is not None
            try:
                await anyio.to_thread.run_sync(self.store.set_status, table.id, "abandoned")
            except Exception as error:
                log.warning("table %s: cannot be closed as abandoned now (%s)", table.id, error)
                return False
            table.abandoned = True
            if table.bot_task is not None and not table.bot_task.done():
                table.bot_task.cancel()
            self._forget(table)
        log.info("table %s closed as abandoned: untouched for %g s", table.id,
                 self.config.idle_timeout)
        return True

    async def stop(self) -> None:
        """Stops the bots (a bot's move being committed is finished first) and closes the
        database."""
        if self.janitor is not None:
            self.janitor.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.janitor
        for table in self.tables.values():
            table.disarm(halt=True)
        tasks = [task for t in self.tables.values() for task in (t.bot_task, t.tick_task)
                 if task is not None and not task.done()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self.store is not None:
            self.store.close()

    def table(self, table_id: str) -> PresenceTable | None:
        """The table of an id, from memory or (a finished or abandoned one) from the database;
        a table read back is not kept in memory unless it is being played."""
        table = self.tables.get(table_id)
        if (table is None and self.store is not None and len(table_id) <= 64
                and table_id not in self.broken):
            try:
                row = self.store.load_table(table_id)
                if row is not None:
                    table = PresenceTable.load(row, self.engine, self.store, self.seeds,
                                               self.config.limits)
                    if table.status() == "playing":
                        self._keep(table)
            except Exception:
                self.broken.add(table_id)
                log.exception("table %s cannot be read back: it is not served", table_id)
        return table

    async def find(self, table_id: str) -> PresenceTable | None:
        """:meth:`table` without blocking the event loop: a table in memory at once, else read
        from the database in a worker thread."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        return await anyio.to_thread.run_sync(self.table, table_id)

    # ---- creating a table ----------------------------------------------------------------------

    def create(self, body: Any) -> tuple[PresenceTable, dict[str, str]]:
        """A new table from a ``POST /api/tables`` body; its tokens by seat."""
        if not isinstance(body, dict):
            raise RequestError(f"expected a JSON object, got {_short(body)}", 400)
        unknown = [key for key in body if key not in CREATE_FIELDS]
        if unknown:
            raise RequestError(f"unknown field {unknown[0]!r} (expected "
                               f"{', '.join(CREATE_FIELDS)})")
        preset = body.get("preset")
        if not isinstance(preset, str):
            raise RequestError(f"preset {_short(preset)}: expected one of "
                               f"{', '.join(self.engine.Rules.PRESETS)}")
        knobs = body.get("knobs", {})
        if not isinstance(knobs, dict):
            raise RequestError(f"knobs {_short(knobs)}: expected an object of knob values")
        if "preset" in knobs:  # the engine's binding would answer with its signature
            raise RequestError(f"knob 'preset' {_short(knobs['preset'])}: the preset is not a "
                               "knob, it is the body's field 'preset'")
        try:
            rules = self.engine.Rules(preset, **{str(k): _tuples(v) for k, v in knobs.items()})
        except BurracoError as error:
            raise RequestError(str(error)) from None
        except (TypeError, ValueError) as error:  # not the engine's own message: ours
            log.info("rules refused for %r %r: %s", preset, knobs, error)
            raise RequestError(f"preset {_short(preset)} with knobs {_short(knobs)}: not rules "
                               "this server can deal") from None
        is_match = body.get("match", False)
        if not isinstance(is_match, bool):
            raise RequestError(f"match {_short(is_match)}: expected true or false")
        public = body.get("public", False)
        if not isinstance(public, bool):
            raise RequestError(f"public {_short(public)}: expected true or false")
        specs = body.get("seats")
        if not isinstance(specs, list) or len(specs) != rules.players:
            raise RequestError(f"seats {_short(specs)}: expected a list of {rules.players} seats "
                               "('human', 'open' or 'bot:POLICY')")
        seats: list[Seat] = []
        tokens: dict[str, str] = {}
        for number, spec in enumerate(specs):
            if spec == protocol.HUMAN_SEAT:
                token = new_token()
                tokens[str(number)] = token
                seats.append(Seat(number, "human", None, token_hash(token)))
            elif spec == protocol.OPEN_SEAT:  # its token is handed out when it is claimed
                seats.append(Seat(number, "open"))
            elif isinstance(spec, str) and spec.startswith(protocol.BOT_PREFIX):
                policy = spec[len(protocol.BOT_PREFIX):].strip()
                seats.append(Seat(number, "bot", policy, None,
                                  load_bot(self.engine, policy, self.config.limits)))
            else:
                raise RequestError(f"seat {number} {_short(spec)}: expected 'human', 'open' or "
                                   f"'bot:POLICY' (POLICY: {BOT_SPECS})")
        people = any(seat.kind != "bot" for seat in seats)
        bot_delay = body.get("bot_delay", 0.0 if people else BOTS_ONLY_DELAY)
        if (not isinstance(bot_delay, (int, float)) or isinstance(bot_delay, bool)
                or not 0 <= bot_delay <= self.config.max_bot_delay):
            raise RequestError(f"bot_delay {_short(bot_delay)}: expected a number of seconds "
                               f"from 0 to {self.config.max_bot_delay:g}")
        turn_seconds = body.get("turn_seconds", self.config.turn_seconds)
        if (not isinstance(turn_seconds, (int, float)) or isinstance(turn_seconds, bool)
                or not (turn_seconds == 0 or 1 <= turn_seconds <= MAX_TURN_SECONDS)):
            raise RequestError(f"turn_seconds {_short(turn_seconds)}: expected 0 (no turn "
                               f"clock) or a number of seconds from 1 to {MAX_TURN_SECONDS:g}")
        playing = sum(1 for t in self.tables.values() if not t.finished)
        if playing >= self.config.max_tables:
            raise RequestError(f"{playing} tables are being played, the most this server "
                               "takes: try again later", 503)
        if not people:
            bot_tables = sum(1 for t in self.tables.values() if not t.finished and t.bots_only)
            if bot_tables >= self.config.max_bot_tables:
                raise RequestError(f"{bot_tables} tables of bots only are being played, the most "
                                   "this server takes: try again later", 503)
        assert self.store is not None
        try:
            table = PresenceTable.create(new_table_id(), self.engine, rules, is_match, seats,
                                         self.store, self.seeds, float(bot_delay),
                                         float(turn_seconds), public)
        except (sqlite3.OperationalError, OSError) as error:
            log.warning("a table could not be stored: %s", error)
            raise RequestError(f"the database did not store the table ({error}): try again "
                               "later", 503) from None
        self._keep(table)
        return table, tokens

    def may_create(self, client: str) -> float:
        """Takes one table from the client's creation bucket: 0 if it may make a table now,
        else the seconds until it may."""
        config = self.config
        if config.create_rate <= 0:
            return 0.0
        bucket = self.creators.get(client)
        if bucket is None:
            if len(self.creators) >= MAX_CLIENTS:
                for key in [k for k, b in self.creators.items() if b.full()]:
                    del self.creators[key]
            bucket = self.creators[client] = TokenBucket(config.create_burst,
                                                         config.create_rate / 60, config.clock)
        return 0.0 if bucket.take() else max(bucket.wait(), 0.001)


def _built_in(engine: ModuleType, option: str, spec: str) -> str:
    """A built-in bot spec of the engine, in its written form; ValueError quoting it else."""
    try:
        parsed = bots.parse(spec)
        if parsed.kind != "builtin":
            raise ValueError("not a built-in bot")
        load_bot(engine, str(parsed), Limits())
    except (BurracoError, RequestError, ValueError) as error:
        raise ValueError(f"{option} {spec!r}: expected a built-in bot of the engine "
                         f"({', '.join(bots.built_in_names())}): {error}") from None
    return str(parsed)


def _engine(name: str) -> ModuleType:
    if name == "core":
        import burraco

        return burraco
    if name == "reference":
        from burraco import reference

        return reference
    raise ValueError(f"engine {name!r}: expected 'core' or 'reference'")


def _tuples(value: Any) -> Any:
    """JSON lists as tuples (the tuple knobs: pozzetto_sizes, opening_minimum)."""
    if isinstance(value, list):
        return tuple(_tuples(item) for item in value)
    return value


def _error(status: int, message: str, headers: Mapping[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers)


def normal_origin(origin: str) -> str:
    """An origin as browsers send it: ``scheme://host[:port]``, lower case, no final slash;
    :class:`ValueError` quoting anything else (for ``--allow-origin``)."""
    text = origin.strip().lower().rstrip("/")
    scheme, _, rest = text.partition("://")
    if scheme not in ("http", "https") or not rest or any(c in rest for c in "/?#@ "):
        raise ValueError(f"origin {origin!r}: expected scheme://host[:port], such as "
                         "'https://burraco.example.org'")
    return text


def origin_refused(server: Server, headers: Mapping[str, str]) -> str | None:
    """Why a request's ``Origin`` is refused, or None: a request without one (not from a
    browser page) passes, and so does the server's own origin (the host and port the request
    was addressed to, ``Host``, over http or https) and every ``--allow-origin``."""
    origin = headers.get("origin")
    if origin is None:
        return None
    text = origin.strip().lower().rstrip("/")
    host = headers.get("host", "").strip().lower()
    if host and text in (f"http://{host}", f"https://{host}"):
        return None
    if text in server.config.allowed_origins:
        return None
    return (f"origin {_short(origin)} is not this server's ({host or 'no Host header'}): "
            "a page of another site may not use it (burraco serve --allow-origin ORIGIN)")


def client_key(host: str | None) -> str:
    """Whom a request is counted against: its address, an IPv6 address's /64 (one machine
    usually holds a whole /64)."""
    if not host:
        return "?"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


# ---- HTTP ----------------------------------------------------------------------------------------


async def _read_body(request: Request, limit: int) -> bytes:
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise RequestError(f"the body has {declared} bytes, more than {limit} bytes", 413)
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise RequestError(f"the body has more than {limit} bytes", 413)
    return body


def _server(request: Request | WebSocket) -> Server:
    server: Server = request.app.state.server
    return server


def _rate_limited(server: Server, request: Request, bucket: str, what: str) -> Response | None:
    """429 with Retry-After when the client's address has used up its creation bucket (tables
    made, and apart from them, with ``bucket`` "claim ", seats claimed); None takes one."""
    wait = server.may_create(bucket + client_key(request.client.host if request.client else None))
    if wait <= 0:
        return None
    seconds = math.ceil(wait)
    return _error(429, f"too many {what} from this address: at most "
                  f"{server.config.create_burst:g} at once and {server.config.create_rate:g} "
                  f"a minute; try again in {seconds} s", {"Retry-After": str(seconds)})


async def create_table(request: Request) -> Response:
    """``POST /api/tables``: a new table; 201 with its id and one token per human seat."""
    server = _server(request)
    refused = origin_refused(server, request.headers)
    if refused is not None:
        return _error(403, refused)
    kind = request.headers.get("content-type", "")
    if kind.split(";")[0].strip().lower() != "application/json":
        return _error(415, f"Content-Type {_short(kind)}: expected application/json")
    limited = _rate_limited(server, request, "", "tables made")
    if limited is not None:
        return limited
    try:
        body = await _read_body(request, server.config.max_message)
        try:
            data = json.loads(body)
        except (ValueError, RecursionError) as error:
            raise RequestError(f"the body is not JSON ({error}): {_short(body)}", 400) from None
        # In a worker thread: the table's first commit waits for the disk.
        table, tokens = await anyio.to_thread.run_sync(server.create, data)
    except RequestError as error:
        headers = {"Retry-After": "1"} if error.status == 503 else None
        return _error(error.status, str(error), headers)
    assert server.limiter is not None
    table.kick(server.limiter, server.gate)
    table.arm()
    return JSONResponse({**lobby.described(table), "tokens": tokens,
                         "join": lobby.join_links(table)}, status_code=201)


async def list_tables(request: Request) -> Response:
    """``GET /api/tables``: the public tables being played, newest first (docs/server.md "The
    lobby"); from memory, no card and no token in it."""
    try:
        listed = lobby.listing(_server(request).tables.values(),
                               request.query_params.get("limit"))
    except RequestError as error:
        return _error(error.status, str(error))
    return JSONResponse(listed)


async def claim_seat(request: Request) -> Response:
    """``POST /api/tables/{id}/seats/{seat}/claim``: an open seat's token, handed out once
    (docs/server.md "Open seats"); 409 for a seat that is not open."""
    server = _server(request)
    refused = origin_refused(server, request.headers)
    if refused is not None:
        return _error(403, refused)
    limited = _rate_limited(server, request, "claim ", "seats claimed")
    if limited is not None:
        return limited
    table_id = request.path_params["id"]
    try:
        lobby.empty_body(await _read_body(request, server.config.max_message))
        table = await server.find(table_id)
        if table is None:
            return _error(404, f"no table {_short(table_id)}")
        number = lobby.seat_number(table, request.path_params["seat"])
        async with table.lock:
            token = await table.claim(number)
    except RequestError as error:
        return _error(error.status, str(error))
    except (sqlite3.Error, OSError) as error:  # the database: nothing was handed out
        log.warning("table %s: a seat could not be claimed (%s)", table_id, error)
        return _error(503, f"the database did not store the claim ({error}): try again",
                      {"Retry-After": "1"})
    table.kick(server.limiter, server.gate)
    return JSONResponse(lobby.claim_answer(table, number, token))


async def get_table(request: Request) -> Response:
    """``GET /api/tables/{id}``: the table and its public view (no hidden card)."""
    table_id = request.path_params["id"]
    table = await _server(request).find(table_id)
    if table is None:
        return _error(404, f"no table {_short(table_id)}")
    table.touch()
    return JSONResponse(table.summary())


async def get_record(request: Request) -> Response:
    """``GET /api/tables/{id}/record``: the records of the finished hands, a JSON list (or JSON
    Lines with ``?format=jsonl``)."""
    server = _server(request)
    table_id = request.path_params["id"]
    if await server.find(table_id) is None:
        return _error(404, f"no table {_short(table_id)}")
    assert server.store is not None
    records = await anyio.to_thread.run_sync(server.store.records, table_id)
    if request.query_params.get("format") == "jsonl":
        text = "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records)
        return Response(text, media_type="application/x-ndjson")
    return JSONResponse(records)


async def get_review(request: Request) -> Response:
    """``GET /api/tables/{id}/review?hand=K``: the review of finished hand K (docs/server.md
    "Reviews"); 503 with Retry-After while another review is being searched."""
    server = _server(request)
    table_id = request.path_params["id"]
    if await server.find(table_id) is None:
        return _error(404, f"no table {_short(table_id)}")
    text = request.query_params.get("hand", "0")
    hand = decimal(text, 6)
    if hand is None:
        return _error(400, f"hand {_short(text)}: expected a hand number from 0")
    assert server.store is not None
    records = await anyio.to_thread.run_sync(server.store.records, table_id)
    if hand >= len(records):
        return _error(404, f"hand {hand} of table {table_id} is not finished: "
                      f"{len(records)} finished so far")
    answer = await server.reviews.of(table_id, hand, records[hand])
    if answer is None:
        return _error(503, "another review is being searched: ask again",
                      headers={"Retry-After": "2"})
    return JSONResponse({"table": table_id, "hand": hand, **answer})


async def health(request: Request) -> Response:
    """``GET /api/health``: the server answers, with its version and the tables in play."""
    server = _server(request)
    import burraco

    playing = sum(1 for t in server.tables.values() if not t.finished)
    failures = server.store.failures if server.store is not None else 0
    return JSONResponse({"status": "ok", "version": burraco.__version__, "tables": playing,
                         "in_memory": len(server.tables), "commit_failures": failures})


async def presets(request: Request) -> Response:
    """``GET /api/presets``: the engine's presets in their order, each with a one-line title and
    its number of players (the lobby's menu)."""
    rules = _server(request).engine.Rules
    return JSONResponse({"presets": [
        {"name": name, "title": title, "players": rules(name).players}
        for name, title in rules.presets().items()
    ]})


# ---- sockets -------------------------------------------------------------------------------------


async def play_socket(websocket: WebSocket) -> None:
    """``/api/tables/{id}/play?token=TOKEN``: a seat's socket."""
    server = _server(websocket)
    if origin_refused(server, websocket.headers) is not None:
        await websocket.close(POLICY_VIOLATION)  # before the handshake: HTTP 403
        return
    table = await server.find(websocket.path_params["id"])
    token = websocket.query_params.get("token", "")
    seat = table.seat_of_token(token) if table is not None and len(token) <= 128 else None
    await websocket.accept()
    if table is None or seat is None:
        await websocket.close(POLICY_VIOLATION)  # the same for an unknown table: nothing told
        return
    await _serve(server, table, websocket, seat)


async def watch_socket(websocket: WebSocket) -> None:
    """``/api/tables/{id}/watch``: a spectator's socket (public views only)."""
    server = _server(websocket)
    if origin_refused(server, websocket.headers) is not None:
        await websocket.close(POLICY_VIOLATION)  # before the handshake: HTTP 403
        return
    table = await server.find(websocket.path_params["id"])
    await websocket.accept()
    if table is None:
        await websocket.close(POLICY_VIOLATION)
        return
    await _serve(server, table, websocket, None)


async def _serve(server: Server, table: PresenceTable, websocket: WebSocket,
                 seat: int | None) -> None:
    connection = Connection(websocket, seat)
    config = server.config
    bucket = TokenBucket(config.burst, config.rate, config.clock)
    strikes = TokenBucket(config.strikes, 1.0, config.clock)  # refusals forgiven one a second
    async with table.lock:
        await table.arrive(connection)
    sender = asyncio.get_running_loop().create_task(connection.sender())
    try:
        while not connection.closed:
            receiver = asyncio.ensure_future(websocket.receive())
            done, _ = await asyncio.wait({receiver, sender}, return_when=asyncio.FIRST_COMPLETED)
            if receiver not in done:
                receiver.cancel()
                break
            message = receiver.result()
            if message["type"] == "websocket.disconnect":
                break
            if not bucket.take():
                if not strikes.take():
                    connection.send({"type": "error", "code": "rate_limited",
                                     "message": "too many frames: closing"})
                    connection.close(POLICY_VIOLATION)
                    break
                connection.send({"type": "error", "code": "rate_limited",
                                 "message": f"too many frames: at most {config.rate:g} a second "
                                 f"after a burst of {config.burst:g}; this one was dropped",
                                 "retry_after": math.ceil(bucket.wait() * 1000) / 1000})
                continue
            await _handle(server, table, connection, message)
    except WebSocketDisconnect:
        pass
    finally:
        try:
            async with table.lock:
                await table.leave(connection)
        finally:
            table.detach(connection)
            connection.close()
        if not sender.done():
            try:
                await asyncio.wait_for(sender, timeout=5)
            except (asyncio.TimeoutError, Exception):
                sender.cancel()
        elif not sender.cancelled() and sender.exception() is not None:
            log.debug("a sender ended: %r", sender.exception())


async def _handle(server: Server, table: PresenceTable, connection: Connection,
                  message: Mapping[str, Any]) -> None:
    """One frame from a client: never raises for anything the client sent."""
    limit = server.config.max_message
    text = message.get("text")
    if text is None:
        size = len(message.get("bytes") or b"")
        connection.send({"type": "error", "code": "binary",
                         "message": f"a binary frame ({size} bytes): frames are JSON text"})
        return
    if len(text) > limit or len(text.encode("utf-8", "surrogatepass")) > limit:
        connection.send({"type": "error", "code": "too_large",
                         "message": f"a frame of more than {limit} bytes: {_short(text, 40)}"})
        return
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as error:
        connection.send({"type": "error", "code": "bad_json",
                         "message": f"not JSON ({error}): {_short(text)}"})
        return
    if not isinstance(data, dict):
        connection.send({"type": "error", "code": "bad_message",
                         "message": f"expected a JSON object, got {_short(data)}"})
        return
    table.touch()
    seq = data.get("seq")
    if not (seq is None or (isinstance(seq, (int, str)) and not isinstance(seq, bool)
                            and len(str(seq)) <= 64)):
        connection.send({"type": "error", "code": "bad_message",
                         "message": f"seq {_short(seq)}: expected an integer or a short string"})
        return
    kind = data.get("type")
    if kind == "ping":
        connection.send({"type": "pong", "seq": seq})
    elif kind == "view":
        async with table.lock:
            connection.send(table.view_frame(connection.seat, seq=seq))
    elif kind == "resume":
        if connection.seat is None:
            connection.send({"type": "error", "code": "spectator", "seq": seq,
                             "message": "a spectator has no seat to resume"})
            return
        async with table.lock:
            await table.here(connection.seat)
            connection.send(table.view_frame(connection.seat, seq=seq))
    elif kind == "move":
        if connection.seat is None:
            connection.send({"type": "error", "code": "spectator", "seq": seq,
                             "message": "a spectator cannot move"})
            return
        async with table.lock:
            try:
                await table.play(connection.seat, data.get("move"), connection, seq,
                                 data.get("hand"), data.get("ply"))
            except MoveRefused as refused:
                connection.send({"type": "error", "code": refused.code, "seq": seq,
                                 "message": str(refused)})
                return
            except CommitFailed:
                log.exception("table %s: a move could not be stored", table.id)
                connection.send({"type": "error", "code": "internal", "seq": seq,
                                 "message": "the database did not store the move: it was not "
                                 "played"})
                return
            except Exception:
                log.exception("table %s: a move could not be played", table.id)
                connection.send({"type": "error", "code": "internal", "seq": seq,
                                 "message": "the server could not play the move: it was not "
                                 "played"})
                return
        assert server.limiter is not None
        table.kick(server.limiter, server.gate)
    elif kind == "hint":
        assert server.limiter is not None
        await hints.answer(table, connection, seq, iterations=server.config.hint_iterations,
                           per_hand=server.config.hints, limiter=server.limiter)
    else:
        connection.send({"type": "error", "code": "unknown_type", "seq": seq,
                         "message": f"type {_short(kind)}: expected "
                         + ", ".join(repr(name) for name in protocol.CLIENT_FRAMES)})


# ---- the application -----------------------------------------------------------------------------


def _page(name: str) -> Callable[[Request], Awaitable[Response]]:
    """A route answering one HTML file of the static folder."""

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / name, media_type="text/html; charset=utf-8")

    return page


def create_app(config: ServerConfig | None = None, **options: Any) -> Starlette:
    """The ASGI application: ``create_app(db='tables.sqlite3')``, or a :class:`ServerConfig`.
    The database is opened, and its unfinished tables reloaded, when the application starts
    (its lifespan)."""
    if config is None:
        config = ServerConfig(**options)
    elif options:
        raise TypeError("give a ServerConfig or keyword options, not both")
    server = Server(config)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        server.start()
        try:
            yield
        finally:
            await server.stop()

    routes = [
        Route(protocol.HEALTH_PATH, health, methods=["GET"]),
        Route(protocol.PRESETS_PATH, presets, methods=["GET"]),
        Route(protocol.TABLES_PATH, create_table, methods=["POST"]),
        Route(protocol.TABLES_PATH, list_tables, methods=["GET"]),
        Route(protocol.CLAIM_PATH, claim_seat, methods=["POST"]),
        Route(protocol.TABLE_PATH, get_table, methods=["GET"]),
        Route(protocol.RECORD_PATH, get_record, methods=["GET"]),
        Route(protocol.REVIEW_PATH, get_review, methods=["GET"]),
        WebSocketRoute(protocol.PLAY_PATH, play_socket),
        WebSocketRoute(protocol.WATCH_PATH, watch_socket),
        # The browser table (docs/server.md "The browser table"): the lobby, a table's page, and
        # their files. The pages are static; a seat's token stays in the address's fragment.
        Route("/", _page("index.html"), methods=["GET"]),
        Route("/table/{id}", _page("table.html"), methods=["GET"]),
        Route("/review/{id}", _page("review.html"), methods=["GET"]),
        Mount("/static", StaticFiles(directory=STATIC, html=True), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.server = server
    return app
