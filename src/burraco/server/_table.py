"""A table of the server: its seats, its match, the hand being played, its sockets.

Every move at a table, a person's or a bot's, goes through :meth:`Table.play` while the table's
``asyncio.Lock`` is held: the move is pushed, committed to the database, and only then sent to
anyone (docs/server.md "Persistence"). Bots choose in a worker thread (the engine releases the GIL
while it searches), so the event loop goes on serving the other tables meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import hashlib
import hmac
import json
import logging
import secrets
import sqlite3
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, TypeVar

import anyio
import anyio.to_thread

from .. import bots
from .._errors import BurracoError
from .._policy import RandomStream
from ._store import HandRow, NewHand, SeatRow, Store, StoreError, TableRow, now

log = logging.getLogger("burraco.server")

_MASK = (1 << 64) - 1
_T = TypeVar("_T", bound="Table")
_FALLBACK_BOT_KEY = secrets.token_bytes(32)  # for a seed source without a key of its own


class RequestError(Exception):
    """A request the server refuses: ``status`` is the HTTP status, the message quotes the input."""

    def __init__(self, message: str, status: int = 422) -> None:
        super().__init__(message)
        self.status = status


class PolicyNotAllowed(RequestError):
    """A ``module:attribute`` bot this server does not allow (``--allow-policy``)."""


class CommitFailed(Exception):
    """The database did not store a move, after every retry its caller allowed: the move was
    taken back and nobody was told of it."""


class MoveRefused(Exception):
    """A move the table refuses; ``code`` names why (docs/server.md "Errors")."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass
class Limits:
    """What a client may ask of the server's CPU (docs/server.md "Limits")."""

    max_iterations: int = 5000  # an ISMCTS bot's iterations per move
    max_time_limit: float = 5.0  # an ISMCTS bot's time=... option, seconds
    allowed_policies: frozenset[str] = frozenset()  # the module:attribute specs a bot may name


@dataclass
class Retry:
    """How a commit the database refused (locked by another process, the disk) is tried again
    (docs/server.md "Persistence"): after ``first`` seconds, then each wait doubled up to
    ``most``. A person's move is retried for ``patience`` seconds, the table's lock held (nothing
    else happens at that table meanwhile), then refused as ``internal``; a bot's move is retried
    for as long as it takes, each wait outside the table's lock."""

    first: float = 0.05
    most: float = 5.0
    patience: float = 30.0

    def next(self, delay: float) -> float:
        """The wait after a wait of ``delay`` seconds (0: the first)."""
        return self.first if delay <= 0 else min(self.most, 2 * delay)


def retryable(error: BaseException) -> bool:
    """Whether a failed write may succeed if tried again: the database locked or busy, a full
    disk, an I/O error (not a write the database refused as such, like a duplicate row)."""
    return isinstance(error, (sqlite3.OperationalError, OSError))


def token_hash(token: str) -> str:
    """The hex SHA-256 of a seat token: the database keeps this, never the token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def load_bot(engine: ModuleType, spec: str, limits: Limits) -> Any:
    """What the engine plays for a bot spec (:mod:`burraco.bots`: every built-in bot the engine
    has, an ISMCTS search within ``limits``, or a ``module:attribute`` policy the server allows);
    :class:`RequestError` quoting the spec otherwise."""
    try:
        parsed = bots.parse(spec)
    except BurracoError as error:
        raise RequestError(str(error)) from None
    if parsed.kind == "module" and parsed.name not in limits.allowed_policies:
        raise PolicyNotAllowed(f"bot {spec!r}: a module:attribute policy must be allowed when "
                               "the server starts (burraco serve --allow-policy SPEC)")
    if parsed.kind == "ismcts":
        options = parsed.search_options()
        if options["iterations"] > limits.max_iterations:
            raise RequestError(f"bot {spec!r}: at most {limits.max_iterations} iterations a move "
                               "on this server")
        if options.get("threads", 1) != 1:
            raise RequestError(f"bot {spec!r}: a bot searches with one thread on this server")
        if options.get("time_limit", 0) > limits.max_time_limit:
            raise RequestError(f"bot {spec!r}: time at most {limits.max_time_limit} s on this "
                               "server")
    try:
        return bots.make(parsed, engine=engine)
    except BurracoError as error:
        raise RequestError(str(error)) from None


@dataclass
class Seat:
    """A seat: a person (with the hash of its token), a bot (its spec and what plays it), or an
    open seat (``kind`` ``'open'``: a person's seat whose token nobody holds yet; claimed, it is
    a person's, ``claimed_at`` saying when; docs/server.md "Open seats"). A person's seat that a
    bot plays since its person left has that bot's spec in ``replaced_by`` and the bot in
    ``player`` (docs/server.md "When a person leaves")."""

    seat: int
    kind: str
    policy: str | None = None
    token_sha256: str | None = None
    player: Any = None
    replaced_by: str | None = None
    claimed_at: str | None = None

    @property
    def bot_plays(self) -> bool:
        """Whether a bot plays the seat now: a bot's seat, or a person's that was replaced."""
        return self.kind == "bot" or self.replaced_by is not None

    @property
    def spec(self) -> str | None:
        """The spec of the bot playing the seat now (None: its person plays it)."""
        return self.policy if self.kind == "bot" else self.replaced_by

    def row(self) -> SeatRow:
        """The seat as the database stores it."""
        return SeatRow(self.seat, self.kind, self.policy, self.token_sha256, self.replaced_by,
                       self.claimed_at)


class Connection:
    """One socket at a table: a seat's (``seat`` an int) or a spectator's (``None``).

    Frames are queued and sent by the connection's own task, so a slow client never holds the
    table's lock; a client whose queue fills up is closed."""

    QUEUE = 256

    def __init__(self, websocket: Any, seat: int | None) -> None:
        self.websocket = websocket
        self.seat = seat
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue(self.QUEUE)
        self.closed = False
        self.close_code = 1000

    def send(self, frame: dict[str, Any]) -> None:
        """Queues a frame (never waits)."""
        if self.closed:
            return
        try:
            self.queue.put_nowait(frame)
        except asyncio.QueueFull:
            log.warning("closing a connection that does not read its frames")
            self.close(1008)

    def close(self, code: int = 1000) -> None:
        """Asks the sender to close the socket once the queued frames are out."""
        if not self.closed:
            self.closed = True
            self.close_code = code
            try:
                self.queue.put_nowait(None)
            except asyncio.QueueFull:
                pass  # the sender finds closed set after the frames it has

    async def sender(self) -> None:
        """Sends the queued frames in order, then closes the socket."""
        while True:
            frame = await self.queue.get()
            if frame is None:
                break
            await self.websocket.send_text(json.dumps(frame, separators=(",", ":")))
            if self.closed and self.queue.empty():
                break
        await self.websocket.close(self.close_code)


def public_view(game: Any) -> dict[str, Any]:
    """The view for spectators: a seat's view with every card only that seat may see removed
    (its hand, the packets it has seen, its legal moves, its observation string). What remains
    is the same from every seat (tests/test_server.py checks it)."""
    view: dict[str, Any] = json.loads(game.to_json(player=0))
    view["player"] = None
    for seat in view["seats"]:
        seat["hand"] = None
    for packet in view["pozzetti"]:
        packet["cards"] = None
    view["legal_moves"] = None
    view["observation"] = None
    return view


class Table:
    """A table in memory: the rules, the seats, the match so far and the hand being played.

    Built by :meth:`create` (a new table, stored at once) or :meth:`load` (a stored table, its
    hands replayed from their seeds and moves)."""

    def __init__(self, table_id: str, engine: ModuleType, rules: Any, is_match: bool,
                 seats: list[Seat], store: Store, seeds: Callable[[], int],
                 bot_delay: float = 0.0, turn_seconds: float = 0.0, public: bool = False,
                 created_at: str = "") -> None:
        self.id = table_id
        self.public = public  # listed by GET /api/tables while it is played
        self.created_at = created_at  # ISO 8601 UTC, as stored
        self.order = 0  # the server's count of the tables it took in, for the list's order
        self.bot_delay = bot_delay  # seconds a bot waits before each of its moves
        self.turn_seconds = turn_seconds  # a person's time for a turn (0: no turn clock)
        self.engine = engine
        self.rules = rules
        self.is_match = is_match
        self.seats = seats
        self.store = store
        self.seeds = seeds
        # Scores only: each hand is dealt from a seed of its own (docs/server.md "Deals").
        self.match: Any = engine.Match(rules, seed=0)
        self.hand = 0
        self.hand_seed = 0
        self.game: Any = None
        self.moves: list[str] = []  # the moves of the hand being played, in notation
        self.turn_started = 0  # the ply at which the seat to act began its turn
        self.finished = False
        self.lock = asyncio.Lock()
        self.connections: list[Connection] = []
        self.bot_task: asyncio.Task[None] | None = None
        # The server's bot threads and its gate for tables of bots only (set by the server).
        self.limiter: anyio.CapacityLimiter | None = None
        self.gate: asyncio.Semaphore | None = None
        self.bot_error: str | None = None
        # Called after a move is committed and before anyone is told of it (tests simulate a
        # crash there).
        self.after_commit: Callable[[], None] | None = None
        self.abandoned = False  # closed before its end, untouched too long (docs/server.md)
        self.clock: Callable[[], float] = time.monotonic
        self.touched = self.clock()  # when a move, a socket or a request last came
        self.retry = Retry()
        self.commit_failures = 0  # commits the database refused (each retried or taken back)
        # Called once the table is finished (the server then forgets it: it is read back from
        # the database when asked for).
        self.on_finish: Callable[[Table], None] | None = None
        self.stopping = False  # the server stops: a failed commit is not retried
        self.hints: dict[tuple[int, int], int] = {}  # hints given, by (hand, seat)

    # ---- building ------------------------------------------------------------------------------

    def _deal(self, hand: int, seed: int, first_player: int, scores: Sequence[int]) -> None:
        self.hand = hand
        self.hand_seed = seed
        self.game = self.engine.Game(self.rules, seed=seed, first_player=first_player,
                                     scores=list(scores))
        self.moves = []
        self.turn_started = 0

    @classmethod
    def create(cls: type[_T], table_id: str, engine: ModuleType, rules: Any, is_match: bool,
               seats: list[Seat], store: Store, seeds: Callable[[], int],
               bot_delay: float = 0.0, turn_seconds: float = 0.0, public: bool = False) -> _T:
        """A new table, stored with its first hand before it is returned."""
        table = cls(table_id, engine, rules, is_match, seats, store, seeds, bot_delay,
                    turn_seconds, public)
        first = NewHand(0, seeds(), 0, table.match.scores)
        table.created_at = store.create_table(table_id, rules.text, is_match,
                                              [seat.row() for seat in seats], first, bot_delay,
                                              turn_seconds, public)
        table._deal(first.hand, first.seed, first.first_player, first.scores)
        return table

    @classmethod
    def load(cls: type[_T], row: TableRow, engine: ModuleType, store: Store,
             seeds: Callable[[], int], limits: Limits) -> _T:
        """A stored table, exactly where its last committed move left it. The bots of a table
        being played are loaded again under the server's allow-list (a ``module:attribute``
        policy no longer allowed raises :class:`PolicyNotAllowed` before anything is imported;
        the ISMCTS bots keep the iterations they were made with); a finished or abandoned
        table's bots never move again and are not loaded."""
        if row.status not in ("playing", "finished", "abandoned"):
            raise StoreError(f"table {row.id!r} has status {row.status!r}")
        rules = engine.Rules.from_text(row.rules)
        seats = [Seat(s.seat, s.kind, s.policy, s.token_sha256, replaced_by=s.replaced_by,
                      claimed_at=s.claimed_at) for s in row.seats]
        for seat in seats:
            if seat.bot_plays and row.status == "playing":
                assert seat.spec is not None
                seat.player = load_bot(engine, seat.spec, Limits(
                    max_iterations=_MASK, max_time_limit=float("inf"),
                    allowed_policies=limits.allowed_policies))
        table = cls(row.id, engine, rules, row.is_match, seats, store, seeds, row.bot_delay,
                    row.turn_seconds, row.public, row.created_at)
        if not row.hands:
            raise StoreError(f"table {row.id!r} has no hand")
        for number, hand in enumerate(row.hands):
            table._replay(hand, number, last=number == len(row.hands) - 1)
        table.finished = row.status == "finished"
        table.abandoned = row.status == "abandoned"
        return table

    def _replay(self, hand: HandRow, number: int, last: bool) -> None:
        if hand.hand != number or list(hand.scores) != list(self.match.scores):
            raise StoreError(f"table {self.id!r} hand {hand.hand}: expected hand {number} with "
                             f"scores {list(self.match.scores)}, found scores {hand.scores}")
        self._deal(hand.hand, hand.seed, hand.first_player, hand.scores)
        for ply, move in enumerate(hand.moves):
            turn = self.game.turn
            self.game.push(move)
            if self.game.turn != turn:
                self.turn_started = ply + 1
        self.moves = list(hand.moves)
        if hand.record is not None:
            if not self.game.is_over():
                raise StoreError(f"table {self.id!r} hand {hand.hand}: recorded as over, but its "
                                 "moves do not end it")
            self.match.record(self.game)
        elif not last or self.game.is_over():
            raise StoreError(f"table {self.id!r} hand {hand.hand}: not recorded, yet followed "
                             "by another hand or over")

    # ---- seats and tokens ----------------------------------------------------------------------

    def seat_of_token(self, token: str) -> int | None:
        """The human seat whose token this is, or None; every seat's hash is compared, in
        constant time, whatever matches."""
        candidate = token_hash(token)
        found: int | None = None
        for seat in self.seats:
            stored = seat.token_sha256 or ""
            if hmac.compare_digest(stored.encode("ascii"), candidate.encode("ascii")) and stored:
                found = seat.seat
        return found

    @property
    def open_seats(self) -> list[int]:
        """The open seats nobody has claimed yet: while there is one, the table waits (no move,
        no bot; docs/server.md "Open seats")."""
        return [seat.seat for seat in self.seats if seat.kind == "open"]

    async def claim(self, number: int) -> str:
        """Hands out open seat ``number``'s token, once (call with the lock held): committed
        (the seat a person's, the token's hash stored) before it is returned; RequestError 409
        quoting the seat if it is not open, or the table is over."""
        where = f"seat {number} of table {self.id}"
        if self.abandoned or self.finished:
            raise RequestError(f"{where}: the table is {self.status()}, no seat to claim", 409)
        seat = self.seats[number]
        if seat.kind == "bot":
            raise RequestError(f"{where} is a bot's (bot:{seat.policy}): only an open seat can "
                               "be claimed", 409)
        if seat.kind != "open":
            raise RequestError(f"{where} " + ("was claimed already" if seat.claimed_at else
                                              "is a person's, given when the table was made")
                               + ": only an open seat can be claimed, once", 409)
        token, when = new_token(), now()
        digest = token_hash(token)
        await anyio.to_thread.run_sync(self.store.claim_seat, self.id, number, digest, when)
        seat.kind, seat.token_sha256, seat.claimed_at = "human", digest, when
        self.touch()
        self.claimed(number)
        return token

    def claimed(self, number: int) -> None:
        """Called once seat ``number`` was claimed (the lock held): what a subclass tells."""
        if not self.open_seats:
            self._broadcast(lambda s: self.view_frame(s))

    # ---- frames --------------------------------------------------------------------------------

    def match_info(self) -> dict[str, Any] | None:
        """The match's scores and state (None for a one-hand table)."""
        if not self.is_match:
            return None
        return {"target": self.rules.match_target, "scores": list(self.match.scores),
                "hands_played": self.match.hands_played, "over": self.match.is_over(),
                "winner": self.match.winner}

    @property
    def bots_only(self) -> bool:
        """Whether a bot plays every seat (the table plays on its own; people only watch): a
        table of bots, or one whose every person was replaced."""
        return all(seat.bot_plays for seat in self.seats)

    def status(self) -> str:
        """``'playing'``, ``'finished'`` or ``'abandoned'``."""
        if self.abandoned:
            return "abandoned"
        return "finished" if self.finished else "playing"

    def touch(self) -> None:
        """Notes that someone used the table now (a table left untouched is abandoned)."""
        self.touched = self.clock()

    def idle(self, now: float, timeout: float) -> bool:
        """Whether the table is being played, no socket is open at it, no bot is playing there
        (or waiting to) and nothing happened there for ``timeout`` seconds."""
        return (not self.finished and not self.abandoned and not self.connections
                and (self.bot_task is None or self.bot_task.done())
                and now - self.touched >= timeout)

    def view_frame(self, seat: int | None, last: dict[str, Any] | None = None,
                   seq: Any = None) -> dict[str, Any]:
        """The ``view`` frame for a seat (``None``: a spectator)."""
        if seat is None:
            view = public_view(self.game)
            legal: list[str] = []
        else:
            view = json.loads(self.game.to_json(player=seat))
            legal = (list(view["legal_moves"] or [])
                     if not (self.finished or self.abandoned or self.seats[seat].bot_plays
                             or self.open_seats)
                     else [])
        return {"type": "view", "table": self.id, "seat": seat, "hand": self.hand,
                "ply": len(self.moves), "status": self.status(), "open_seats": self.open_seats,
                "your_turn": bool(legal), "legal": legal, "last": last,
                "match": self.match_info(), "view": view, "seq": seq}

    def summary(self) -> dict[str, Any]:
        """What ``GET /api/tables/{id}`` answers: the table and the public view."""
        return {"id": self.id, "rules": self.rules.text, "players": self.rules.players,
                "status": self.status(), "hand": self.hand, "ply": len(self.moves),
                "bot_delay": self.bot_delay, "turn_seconds": self.turn_seconds,
                "public": self.public, "open_seats": self.open_seats,
                "seats": [{"seat": seat.seat, "kind": seat.kind, "policy": seat.policy,
                           "connected": sum(1 for c in self.connections
                                            if c.seat == seat.seat and not c.closed)}
                          for seat in self.seats],
                "match": self.match_info(), "view": public_view(self.game)}

    def _broadcast(self, frames: Callable[[int | None], dict[str, Any]],
                   sender: Connection | None = None, seq: Any = None,
                   skip: Connection | None = None) -> None:
        by_seat: dict[int | None, dict[str, Any]] = {}
        for connection in list(self.connections):
            if connection.closed or connection is skip:
                continue
            if connection.seat not in by_seat:
                by_seat[connection.seat] = frames(connection.seat)
            frame = by_seat[connection.seat]
            if connection is sender and seq is not None:
                frame = dict(frame, seq=seq)
            connection.send(frame)

    def attach(self, connection: Connection) -> None:
        """Adds a socket and sends it the fresh view (call with the lock held)."""
        self.connections.append(connection)
        self.touch()
        connection.send(self.view_frame(connection.seat))

    def detach(self, connection: Connection) -> None:
        """Removes a socket."""
        if connection in self.connections:
            self.connections.remove(connection)
        self.touch()

    # ---- moves ---------------------------------------------------------------------------------

    async def play(self, seat: int, text: Any, sender: Connection | None = None,
                   seq: Any = None, hand: Any = None, ply: Any = None,
                   patience: float | None = None) -> None:
        """Plays ``text`` for ``seat``; call with the lock held. Refused moves raise
        :class:`MoveRefused` and change nothing; an accepted one is committed, then every socket
        gets its view (the sender's carries ``seq``), then the end of the hand if it came. A
        commit the database refuses is retried for ``patience`` seconds (default the table's
        :class:`Retry`), then the move is taken back and :class:`CommitFailed` raised."""
        for name, value in (("hand", hand), ("ply", ply)):
            if value is not None and type(value) is not int:
                raise MoveRefused("bad_message", f"move {_short(text)} with {name} "
                                  f"{_short(value)}: expected an integer {name} (or no {name})")
        if self.abandoned:
            raise MoveRefused("table_abandoned", f"move {_short(text)}: the table was closed "
                              "as abandoned")
        if self.finished:
            raise MoveRefused("table_finished", f"move {text!r}: the table is finished")
        if self.open_seats:
            raise MoveRefused("waiting", f"move {_short(text)}: the table waits for its open "
                              f"seats {self.open_seats} to be claimed")
        if hand is not None and hand != self.hand:
            raise MoveRefused("stale", f"move {text!r} for hand {hand!r}: hand {self.hand} is "
                              "being played")
        if ply is not None and ply != len(self.moves):
            raise MoveRefused("stale", f"move {text!r} at ply {ply!r}: the hand is at ply "
                              f"{len(self.moves)}")
        if not isinstance(text, str) or not text.strip() or len(text) > 200 or not _encodes(text):
            raise MoveRefused("bad_move", f"move {text!r}: expected a move in notation, such "
                              "as 'draw' or 'discard Qs'")
        if sender is not None and self.seats[seat].replaced_by is not None:
            raise MoveRefused("replaced", f"move {text!r}: a bot plays seat {seat} since its "
                              "person left; it is yours again at your next turn once you are "
                              "back (send {\"type\": \"resume\"})")
        if self.game.turn != seat:
            raise MoveRefused("not_your_turn", f"move {text!r}: seat {self.game.turn} is to act, "
                              f"not seat {seat}")
        before = len(self.moves)
        turn = self.game.turn
        try:
            self.game.push(text)
        except (BurracoError, TypeError, ValueError) as error:
            raise MoveRefused("illegal_move", str(error)) from None
        new = [str(move) for move in self.game.moves[before:]]
        # Committed and shown, or neither: a cancellation (the server stopping) waits for the
        # commit to finish, and is raised after it.
        commit = asyncio.ensure_future(self._commit(
            seat, new, sender, seq, self.retry.patience if patience is None else patience,
            self.game.turn != turn))
        cancelled = False
        while True:
            try:
                await asyncio.shield(commit)
                break
            except asyncio.CancelledError:
                if commit.done():
                    raise
                cancelled = True
                self.stopping = True  # a commit being retried gives up at its next failure
        if cancelled:
            raise asyncio.CancelledError()

    async def _commit(self, seat: int, new: list[str], sender: Connection | None,
                      seq: Any, patience: float, turn_over: bool = False) -> None:
        record: dict[str, Any] | None = None
        next_hand: NewHand | None = None
        match = self.match
        finished = False
        if self.game.is_over():
            record = self.game.record()
            match = copy.copy(self.match)
            match.record(self.game)
            if self.is_match and not match.is_over():
                next_hand = NewHand(self.hand + 1, self.seeds(),
                                    match.hands_played % self.rules.players, match.scores)
            else:
                finished = True
        waited = delay = 0.0
        try:
            while True:
                try:
                    await anyio.to_thread.run_sync(
                        lambda: self.store.add_moves(self.id, self.hand, len(self.moves), new,
                                                     record=record, next_hand=next_hand,
                                                     finished=finished))
                    break
                except Exception as error:
                    self.commit_failures += 1
                    if not retryable(error):
                        raise
                    delay = self.retry.next(delay)
                    if self.stopping or waited + delay > patience:
                        raise CommitFailed(f"the database did not store move {new[0]!r} "
                                           f"({error})") from error
                    log.warning("table %s: the database did not store move %r (%s): trying "
                                "again in %.2f s", self.id, new[0], error, delay)
                    await asyncio.sleep(delay)
                    waited += delay
        except BaseException:
            for _ in new:
                self.game.pop()
            raise
        self.moves.extend(new)
        if turn_over:
            self.turn_started = len(self.moves)
        self.touch()
        self.match = match
        self.finished = finished
        self.moved()
        if self.after_commit is not None:
            self.after_commit()
        last = {"seat": seat, "moves": new}
        self._broadcast(lambda s: self.view_frame(s, last), sender, seq)
        if record is not None:
            result = {"type": "result", "table": self.id, "hand": self.hand,
                      "result": record["result"], "record": record, "match": self.match_info(),
                      "status": self.status()}
            self._broadcast(lambda s: result)
            if next_hand is not None:
                self._deal(next_hand.hand, next_hand.seed, next_hand.first_player,
                           next_hand.scores)
                self.moved()
                self._broadcast(lambda s: self.view_frame(s))
        if finished and self.on_finish is not None:
            self.on_finish(self)

    def moved(self) -> None:
        """Called once a move is committed (and once the next hand of a match is dealt), before
        anyone is shown it: what a subclass derives from the position (the turn clock)."""

    # ---- bots ----------------------------------------------------------------------------------

    def bot_to_act(self) -> Seat | None:
        """The bot seat to act, if the hand goes on and a bot is to act."""
        if self.finished or self.abandoned or self.game.is_over() or self.open_seats:
            return None
        seat = self.seats[self.game.turn]
        return seat if seat.bot_plays else None

    def kick(self, limiter: anyio.CapacityLimiter | None = None,
             gate: asyncio.Semaphore | None = None) -> None:
        """Starts the table's bot task unless it runs already or no bot is to act; ``gate``
        bounds the moves of tables of bots only under way at once (docs/server.md "Tables of
        bots only"). Without ``limiter``, the server's (:attr:`limiter`, :attr:`gate`)."""
        if limiter is None:
            limiter, gate = self.limiter, self.gate
        if (limiter is None or self.bot_to_act() is None
                or (self.bot_task is not None and not self.bot_task.done())):
            return
        self.bot_task = asyncio.get_running_loop().create_task(
            self._bots(limiter, gate if self.bots_only else None))

    def _choose(self, player: Any) -> str:
        """A bot's move, ``player``'s (in a worker thread, the table's lock held by the
        caller)."""
        if hasattr(player, "choose"):
            return str(player.choose(self.game))
        move_seed = bot_seed(self.seeds, self.hand_seed, len(self.moves))
        return str(self.game.policy_move(player, move_seed))

    async def _bots(self, limiter: anyio.CapacityLimiter,
                    gate: asyncio.Semaphore | None = None) -> None:
        """Plays the bots' moves while a bot is to act, each one in a worker thread, each after
        the table's ``bot_delay`` (outside the lock: the table's sockets are served meanwhile).
        A move the database did not store is chosen and committed again after a wait that grows
        (:class:`Retry`), outside the lock, for as long as it takes: the table resumes by itself
        once the database takes writes again."""
        backoff = 0.0
        while True:
            if backoff > 0:
                await asyncio.sleep(backoff)
            elif self.bot_delay > 0:
                await asyncio.sleep(self.bot_delay)
            async with contextlib.AsyncExitStack() as stack:
                if gate is not None:
                    await stack.enter_async_context(gate)
                async with self.lock:
                    seat = self.bot_to_act()
                    if seat is None:
                        return
                    try:
                        move = await anyio.to_thread.run_sync(self._choose, seat.player,
                                                              limiter=limiter)
                        await self.play(seat.seat, move, patience=0.0)
                        backoff = 0.0
                    except CommitFailed as error:
                        backoff = self.retry.next(backoff)
                        log.warning("table %s: the bot of seat %d waits %.2f s to play again: "
                                    "%s", self.id, seat.seat, backoff, error)
                    except Exception as error:  # a failing policy stops its table only
                        self.bot_error = f"seat {seat.seat} ({seat.spec}): {error}"
                        log.exception("table %s: the bot of seat %d failed", self.id, seat.seat)
                        self._broadcast(lambda s: {"type": "error", "code": "bot_failed",
                                                   "message": f"the bot of seat {seat.seat} "
                                                   "failed"})
                        return
            await asyncio.sleep(0)  # let the table's sockets in between two bot moves


def _short(value: Any, limit: int = 80) -> str:
    """``repr`` of a bad value, cut to ``limit`` characters."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def decimal(text: str, digits: int) -> int | None:
    """The number a query or path part writes in at most ``digits`` ASCII digits, else None (a
    sign, a space, other digits or a longer text: never int()'s wider reading)."""
    if text.isascii() and text.isdigit() and len(text) <= digits:
        return int(text)
    return None


def _encodes(text: str) -> bool:
    """Whether ``text`` is valid UTF-8 once encoded (JSON can carry a lone surrogate, which the
    engine's binding cannot take)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def new_token() -> str:
    """A seat token: 32 random bytes from :mod:`secrets`, URL-safe."""
    return secrets.token_urlsafe(32)


def bot_seed(seeds: Callable[[], int], hand_seed: int, ply: int) -> int:
    """The playout-policy seed of a bot's move at ``ply`` of the hand dealt from ``hand_seed``:
    a keyed BLAKE2b digest, so that the random state a policy is handed (its view's ``random``)
    tells nothing of the hand's seed, and so of the deal (docs/server.md "Bots"). A SplitMix64
    step of the hand seed, as before, could be inverted by the policy. The key is the seed
    source's ``bot_key`` (a fresh key when the source has none)."""
    key = getattr(seeds, "bot_key", b"") or _FALLBACK_BOT_KEY
    message = hand_seed.to_bytes(8, "little") + ply.to_bytes(8, "little")
    digest = hashlib.blake2b(message, key=key, digest_size=8).digest()
    return int.from_bytes(digest, "little")


def new_table_id() -> str:
    """A table id: 12 random bytes from :mod:`secrets`, URL-safe (not guessable)."""
    return secrets.token_urlsafe(12)


@dataclass
class SeedSource:
    """Deal seeds: from :mod:`secrets`, or (``--seed``, for tests) the SplitMix64 stream of a
    seed, so that a run can be repeated. ``bot_key`` keys the bots' playout-policy seeds
    (:func:`bot_seed`): random bytes from :mod:`secrets`, or with ``--seed`` a digest of it."""

    seed: int | None = None
    _stream: RandomStream = field(default_factory=lambda: RandomStream(0), repr=False)
    bot_key: bytes = field(default=b"", repr=False)

    def __post_init__(self) -> None:
        self._stream = bots.seeds(self.seed or 0)
        if self.seed is None:
            self.bot_key = secrets.token_bytes(32)
        else:
            self.bot_key = hashlib.blake2b(b"burraco bot key %d" % self.seed,
                                           digest_size=32).digest()

    def __call__(self) -> int:
        if self.seed is None:
            return secrets.randbits(64)
        return self._stream.next()
