"""``burraco serve``: the table server (:mod:`burraco.server`) under uvicorn, until Ctrl-C."""

from __future__ import annotations

import argparse
import logging
import math
import re
import signal
from typing import Any

from .. import _protocol as protocol
from ._common import CliError, engine_option, nonnegative_seed, plural


def _listening_socket(host: str, port: int) -> Any:
    """A TCP socket bound to ``host:port`` (port 0: a free one) and listening; a host that does
    not resolve or an address in use is a :class:`CliError` quoting it."""
    import socket

    try:
        family, kind, protocol, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    except (socket.gaierror, UnicodeError) as error:
        raise CliError(f"--host {host!r}: {error}", 2) from None
    sock = socket.socket(family, kind, protocol)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
        sock.listen(128)
    except OSError as error:
        sock.close()
        raise CliError(f"cannot listen on {host!r} port {port}: {error.strerror or error}") from None
    return sock


_TOKEN_IN_QUERY = re.compile(r"([?&]token=)[^&\s\"']*")


def _hide_tokens(record: logging.LogRecord) -> bool:
    """A logging filter: a socket's ``token=...`` in a log line's message or arguments becomes
    ``token=...`` with the token left out."""
    if isinstance(record.msg, str):
        record.msg = _TOKEN_IN_QUERY.sub(r"\1...", record.msg)
    if isinstance(record.args, tuple):
        record.args = tuple(_TOKEN_IN_QUERY.sub(r"\1...", arg) if isinstance(arg, str) else arg
                            for arg in record.args)
    return True


def run(args: argparse.Namespace) -> int:
    """``burraco serve``: the table server (docs/server.md) under uvicorn, until Ctrl-C."""
    try:
        import uvicorn

        from ..server import Limits, ServerConfig, create_app
    except ImportError as error:
        raise CliError(f"the server needs the server extra ({error}): pip install "
                       "'burraco[server]'") from None
    if args.port is not None and not 0 <= args.port <= 65535:
        raise CliError(f"--port {args.port}: expected 0 to 65535 (0: any free port)", 2)
    if args.bot_threads < 1:
        raise CliError(f"--bot-threads {args.bot_threads}: expected at least 1", 2)
    if args.max_iterations < 1:
        raise CliError(f"--max-iterations {args.max_iterations}: expected at least 1", 2)
    if not (1 <= args.hint_iterations <= args.max_iterations and args.hints >= 0):
        raise CliError(f"--hint-iterations {args.hint_iterations} --hints {args.hints}: expected "
                       "iterations from 1 to --max-iterations and at least 0 hints", 2)
    if not 1 <= args.review_iterations <= args.max_iterations:
        raise CliError(f"--review-iterations {args.review_iterations}: expected 1 to "
                       "--max-iterations", 2)
    if args.max_tables < 1 or args.max_bot_tables < 0:
        raise CliError(f"--max-tables {args.max_tables} --max-bot-tables {args.max_bot_tables}: "
                       "expected at least 1 and at least 0", 2)
    if not (args.rate > 0 and args.burst >= 1):
        raise CliError(f"--rate {args.rate:g} --burst {args.burst:g}: expected a rate above 0 "
                       "and a burst of at least 1", 2)
    if not (args.create_rate >= 0 and args.create_burst >= 1):
        raise CliError(f"--create-rate {args.create_rate:g} --create-burst "
                       f"{args.create_burst:g}: expected a rate of at least 0 (0: no limit) and "
                       "a burst of at least 1", 2)
    if not (args.idle_timeout > 0 and math.isfinite(args.idle_timeout)):
        raise CliError(f"--idle-timeout {args.idle_timeout:g}: expected seconds above 0", 2)
    if not (0 < args.busy_timeout <= 3600):
        raise CliError(f"--busy-timeout {args.busy_timeout:g}: expected seconds above 0, at "
                       "most 3600", 2)
    if not (args.turn_seconds == 0 or 1 <= args.turn_seconds <= 86400):
        raise CliError(f"--turn-seconds {args.turn_seconds:g}: expected 0 (no turn clock) or 1 "
                       "to 86400 seconds", 2)
    if args.max_timeouts < 1:
        raise CliError(f"--max-timeouts {args.max_timeouts}: expected at least 1", 2)
    from ..server._app import normal_origin

    try:
        origins = frozenset(normal_origin(origin) for origin in args.allow_origin or ())
    except ValueError as error:
        raise CliError(f"--allow-origin: {error}", 2) from None
    config = ServerConfig(db=args.db, seed=args.seed, engine=args.engine,
                          bot_threads=args.bot_threads, max_tables=args.max_tables,
                          max_bot_tables=args.max_bot_tables, rate=args.rate, burst=args.burst,
                          create_rate=args.create_rate, create_burst=args.create_burst,
                          idle_timeout=args.idle_timeout, busy_timeout=args.busy_timeout,
                          allowed_origins=origins, hint_iterations=args.hint_iterations,
                          hints=args.hints, review_iterations=args.review_iterations,
                          grace=args.grace,
                          replace_with=args.replace_with, turn_seconds=args.turn_seconds,
                          max_timeouts=args.max_timeouts, timeout_bot=args.timeout_bot,
                          limits=Limits(max_iterations=args.max_iterations,
                                        allowed_policies=frozenset(args.allow_policy or ())))
    try:
        app = create_app(config)
    except ValueError as error:  # a bot spec the engine does not have as a built-in bot
        raise CliError(f"{error}", 2) from None
    try:
        app.state.server.open()  # the database and its tables, before the port is announced
    except Exception as error:  # a database that cannot be opened or read
        raise CliError(f"--db {args.db!r}: {error}") from None
    sock = _listening_socket(args.host, args.port)
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    reloaded = len(app.state.server.tables)
    print(f"burraco serve: listening on http://{shown}:{port}/ (database {args.db}, "
          f"{plural(reloaded, 'unfinished table')} reloaded); Ctrl-C stops", flush=True)
    # No access log: its lines would hold the seats' tokens (the sockets' query strings).
    server = uvicorn.Server(uvicorn.Config(app, log_level=args.log_level, access_log=False,
                                           ws_max_size=65536, lifespan="on"))
    # uvicorn logs each WebSocket handshake ('"WebSocket /api/tables/ID/play?token=..." [accepted]')
    # at info, the access log off or not: the token is blanked out of those lines.
    logging.getLogger("uvicorn.error").addFilter(_hide_tokens)
    # uvicorn stops cleanly on SIGINT or SIGTERM, then raises the signal again: both are the
    # normal way to stop a server (every move is already committed), so both end with status 0.
    previous = signal.signal(signal.SIGTERM, _stop_serving)
    try:
        server.run(sockets=[sock])
    except (KeyboardInterrupt, _StopServing):
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        sock.close()
    print("burraco serve: stopped", flush=True)
    return 0


def _grace(text: str) -> float | None:
    """``--grace``: seconds from 0, or ``off``."""
    if text.strip().lower() == "off":
        return None
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds < math.inf:
        raise argparse.ArgumentTypeError(f"{text!r}: expected seconds from 0, or off")
    return seconds


class _StopServing(Exception):
    """SIGTERM after uvicorn's clean shutdown."""


def _stop_serving(signum: int, frame: Any) -> None:
    raise _StopServing()


def register(commands: Any) -> None:
    """Adds ``burraco serve`` to the subcommands."""
    serve = commands.add_parser(
        "serve", help="the table server: people play against bots over WebSockets",
        description="Serve tables over HTTP and WebSockets (docs/server.md): POST /api/tables "
        "makes a table with human and bot seats, each human seat plays through "
        "/api/tables/ID/play?token=TOKEN, bots move on the server. Every move is committed to the "
        "SQLite database before anyone is told of it, and a restarted server reloads every "
        "unfinished table where it was. Needs pip install 'burraco[server]'.",
    )
    serve.add_argument("--host", default="127.0.0.1",
                       help="the address to listen on (default 127.0.0.1: this machine only)")
    serve.add_argument("--port", type=int, default=8000,
                       help="the port (default 8000; 0: any free port, printed)")
    serve.add_argument("--db", default="burraco-server.sqlite3", metavar="FILE",
                       help="the SQLite database (default burraco-server.sqlite3, created if "
                       "missing; :memory: keeps nothing)")
    serve.add_argument("--seed", type=nonnegative_seed,
                       help="deal seeds from this seed's stream, for tests (default: each deal "
                       "from the secrets module)")
    serve.add_argument("--bot-threads", type=int, default=2, metavar="N",
                       help="worker threads for the bots' moves, all tables together (default 2)")
    serve.add_argument("--max-tables", type=int, default=1000, metavar="N",
                       help="the most tables played at once (default 1000)")
    serve.add_argument("--max-bot-tables", type=int, default=100, metavar="N",
                       help="of which tables of bots only (default 100)")
    serve.add_argument("--rate", type=float, default=protocol.RATE, metavar="R",
                       help="frames a second a socket may send after its burst (default 10)")
    serve.add_argument("--burst", type=float, default=protocol.BURST, metavar="N",
                       help="frames a socket may send at once (default 20)")
    serve.add_argument("--create-rate", type=float, default=10.0, metavar="N",
                       help="tables one client address may make a minute after its burst "
                       "(default 10; 0: no limit); over it the answer is 429 with Retry-After")
    serve.add_argument("--create-burst", type=float, default=10.0, metavar="N",
                       help="tables one client address may make at once (default 10)")
    serve.add_argument("--idle-timeout", type=float, default=3600.0, metavar="SECONDS",
                       help="an unfinished table with no socket open and no move or request for "
                       "this long is closed as abandoned (default 3600)")
    serve.add_argument("--busy-timeout", type=float, default=5.0, metavar="SECONDS",
                       help="how long a commit waits for a database lock another process holds "
                       "before it fails and is retried (default 5)")
    serve.add_argument("--allow-origin", action="append", metavar="ORIGIN",
                       help="a web page origin (scheme://host[:port]) besides the server's own "
                       "that may make tables and open sockets (repeatable; none by default)")
    serve.add_argument("--grace", type=_grace, default=60.0, metavar="SECONDS",
                       help="how long a person who left (no socket open at their table) has to "
                       "come back before a bot plays their seat (default 60; 0: at once; off: "
                       "never, the seat waits for them)")
    serve.add_argument("--replace-with", metavar="BOT",
                       help="the built-in bot that plays a seat whose person did not come back "
                       "(default heuristic; greedy with --engine reference)")
    serve.add_argument("--turn-seconds", type=float, default=0.0, metavar="SECONDS",
                       help="the turn clock of a table that asks for none: a person's time for "
                       "a turn before the server plays it (default 0: no turn clock)")
    serve.add_argument("--max-timeouts", type=int, default=3, metavar="N",
                       help="turns in a row the turn clock ends before the person is taken as "
                       "away, and the grace runs (default 3)")
    serve.add_argument("--timeout-bot", default="greedy", metavar="BOT",
                       help="the built-in bot that plays the rest of a turn whose time ran out "
                       "(default greedy)")
    serve.add_argument("--max-iterations", type=int, default=5000, metavar="N",
                       help="the most ISMCTS iterations a bot seat may ask for (default 5000)")
    serve.add_argument("--hint-iterations", type=int, default=600, metavar="N",
                       help="the ISMCTS iterations of one hint a person asks for (default 600)")
    serve.add_argument("--hints", type=int, default=3, metavar="N",
                       help="the hints a seat may ask for in one hand (default 3; 0: none)")
    serve.add_argument("--review-iterations", type=int, default=200, metavar="N",
                       help="the ISMCTS iterations of each decision of a hand's review "
                       "(default 200)")
    serve.add_argument("--allow-policy", action="append", metavar="MODULE:ATTRIBUTE",
                       help="a module:attribute policy that bot seats may name (repeatable; "
                       "none by default, since naming one imports its module)")
    serve.add_argument("--log-level", default="info",
                       choices=("critical", "error", "warning", "info", "debug"),
                       help="uvicorn's log level (default info)")
    engine_option(serve)
    serve.set_defaults(run=run)
