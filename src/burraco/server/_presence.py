"""Who plays each seat of a table, and the turn clock (docs/server.md "When a person leaves" and
"The turn clock").

A person's seat with no socket open while its table is played is *away*: its person has the
server's grace time to come back with the seat's token, after which a bot (the server's
replacement bot) plays the seat, committed to the database like any change of a seat. A replaced
person who comes back (a new socket, or ``{"type": "resume"}``) plays the seat again from its
next turn: at once when the seat is not in the middle of a turn, else once the bot has ended the
turn. A table may have a turn clock: a person whose turn time runs out has the rest of the turn
played by the server's timeout bot, and after ``max_timeouts`` such turns in a row is taken as
away (the grace then runs, the socket open or not).

Every change is told to every socket of the table by a ``seat`` frame, and every view carries
who plays each seat (``players``) and the turn clock (``clock``). The deadlines are on the
server's clock (``ServerConfig.clock``): a timer wakes the table at the next one, and
:meth:`PresenceTable.tick` (``Server.tick``) acts on every deadline past, which tests call after
moving the clock.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

import anyio.to_thread

from ._table import _MASK, Connection, Limits, Table, load_bot

log = logging.getLogger("burraco.server")


@dataclass
class Presence:
    """The server's rules for people who leave (``burraco serve`` options; docs/server.md)."""

    grace: float | None = 60.0  # seconds an away person has to come back (None: never replaced)
    max_timeouts: int = 3  # turns in a row played by the turn clock before the seat is away
    replacement: str = "heuristic"  # the bot spec that plays a seat whose person did not come back
    timeout_bot: str = "greedy"  # the bot spec that ends a turn whose time ran out


@dataclass
class SeatPresence:
    """What the server knows of a person's seat, in memory only (a restart gives every person a
    fresh grace and a fresh turn)."""

    away: bool = False  # no socket open (or taken as away after its timeouts), not replaced
    until: float | None = None  # the end of the grace, on the server's clock (None: no end)
    returning: bool = False  # replaced, and the person is back: the seat is theirs at a boundary
    timeouts: int = 0  # turns in a row the turn clock ended
    told: bool = False  # an "away" frame was sent (a "back" or "replaced" one follows)


class PresenceTable(Table):
    """A :class:`Table` whose people may leave and come back, with its turn clock."""

    def __init__(self, *args: Any, **options: Any) -> None:
        super().__init__(*args, **options)
        self.presence = Presence()
        self.timeout_player: Any = None  # what plays a turn whose time ran out
        self.states = [SeatPresence() for _ in self.seats]
        self.turn_deadline: float | None = None  # the turn clock's end (None: no clock running)
        self.turn_key: tuple[int, int] | None = None  # the turn (hand, first ply) it is for
        self.timer: asyncio.TimerHandle | None = None
        self.tick_task: asyncio.Task[None] | None = None
        self.halted = False  # the server stops: no timer is set again
        # A socket being opened: counted in the frames its arrival sends the others, sent none
        # of them (its first frame is its view).
        self.arriving: Connection | None = None

    # ---- state ---------------------------------------------------------------------------------

    @property
    def playing(self) -> bool:
        """Whether the table is being played (not finished, not abandoned)."""
        return not (self.finished or self.abandoned)

    def start(self, presence: Presence) -> None:
        """Takes the server's rules; every person who has no socket open is away from now (a new
        table, or one reloaded at the server's start), and the turn clock starts."""
        self.presence = presence
        self.timeout_player = load_bot(self.engine, presence.timeout_bot, Limits())
        now = self.clock()
        for seat, state in zip(self.seats, self.states):
            if (self.playing and seat.kind == "human" and not seat.bot_plays
                    and not self._sockets(seat.seat)):
                self._away(state, now)
        self._clock_turn()

    def _sockets(self, seat: int) -> int:
        return sum(1 for c in self.connections if c.seat == seat and not c.closed)

    def _away(self, state: SeatPresence, now: float) -> None:
        """The seat's person is away: the grace runs from ``now``, unless the table waits for
        its open seats (nothing is played: the grace starts when the table does)."""
        state.away = True
        grace = self.presence.grace
        state.until = None if grace is None or self.open_seats else now + grace

    def players(self) -> list[dict[str, Any]]:
        """Who plays each seat now (a view's ``players``, the summary's ``seats``)."""
        now = self.clock()
        shown = []
        for seat, state in zip(self.seats, self.states):
            person = seat.kind == "human"
            shown.append({
                "seat": seat.seat, "kind": seat.kind, "policy": seat.policy,
                "played_by": (None if seat.kind == "open" else "person" if not seat.bot_plays
                              else f"bot:{seat.spec}"),
                "replaced": seat.replaced_by is not None,
                "connected": self._sockets(seat.seat),
                "away": person and state.away,
                "grace": (round(max(0.0, state.until - now), 3)
                          if person and state.away and state.until is not None else None),
                "returning": person and state.returning,
                "timeouts": state.timeouts if person else 0})
        return shown

    def turn_clock(self) -> dict[str, Any] | None:
        """The turn clock of the person to act (a view's ``clock``), or None."""
        if self.turn_deadline is None:
            return None
        return {"seat": self.game.turn, "turn_seconds": self.turn_seconds,
                "seconds": round(max(0.0, self.turn_deadline - self.clock()), 3)}

    def view_frame(self, seat: int | None, last: dict[str, Any] | None = None,
                   seq: Any = None) -> dict[str, Any]:
        frame = super().view_frame(seat, last, seq)
        frame["players"] = self.players()
        frame["clock"] = self.turn_clock()
        return frame

    def summary(self) -> dict[str, Any]:
        summary = super().summary()
        summary["seats"] = self.players()
        summary["clock"] = self.turn_clock()
        return summary

    def _event(self, seat: int, event: str, message: str, **extra: Any) -> None:
        """Tells every socket of the table what happened to a seat (a ``seat`` frame)."""
        frame = {"type": "seat", "table": self.id, "seat": seat, "event": event,
                 "message": message, **extra, "players": self.players(),
                 "clock": self.turn_clock()}
        self._broadcast(lambda s: frame, skip=self.arriving)

    def _views(self) -> None:
        self._broadcast(lambda s: self.view_frame(s), skip=self.arriving)

    # ---- sockets -------------------------------------------------------------------------------

    async def arrive(self, connection: Connection) -> None:
        """A socket opens (call with the lock held): its seat's person is back, then it gets the
        fresh view."""
        if connection.seat is not None and self.playing:
            self.arriving = connection
            self.connections.append(connection)
            try:
                await self.here(connection.seat)
            finally:
                self.connections.remove(connection)
                self.arriving = None
        self.attach(connection)
        self.arm()

    async def leave(self, connection: Connection) -> None:
        """A socket closes (call with the lock held): its seat is away once it has none open."""
        self.detach(connection)
        number = connection.seat
        if number is None or not self.playing or self._sockets(number):
            return
        seat, state = self.seats[number], self.states[number]
        state.returning = False
        if not seat.bot_plays and not state.away:
            self._away(state, self.clock())
            state.told = True
            grace = None if self.open_seats else self.presence.grace
            self._event(number, "away", f"seat {number}'s person left: "
                        + ("a bot plays the seat unless they are back within "
                           f"{grace:g} s" if grace is not None else "the seat waits for them"),
                        grace=grace)
        self.arm()

    async def here(self, number: int) -> None:
        """Seat ``number``'s person is here (a socket, a ``resume`` frame, a move; the lock
        held): back from away, or taking back a seat a bot plays, at the next turn boundary."""
        seat, state = self.seats[number], self.states[number]
        if seat.kind != "human" or not self.playing:
            return
        if seat.replaced_by is not None:
            if not state.returning:
                state.returning = True
                self._event(number, "returning", f"seat {number}'s person is back: the seat is "
                            f"theirs again at their next turn (bot:{seat.replaced_by} ends the "
                            "turn it is playing)")
            await self._hand_back()
        elif state.away:
            state.away, state.until = False, None
            if state.told:  # not a person's first socket: the table was told they left
                state.told = False
                self._event(number, "back", f"seat {number}'s person is back")
        self.arm()

    def claimed(self, number: int) -> None:
        """An open seat was claimed (the lock held): its person is away until their first
        socket; everyone is told. Once no seat is open the table plays: every person away has
        a whole grace from now, then fresh views (with the legal moves), the turn clock, the
        bots."""
        if not self._sockets(number):
            self._away(self.states[number], self.clock())
        left = self.open_seats
        if not left:
            now = self.clock()
            for seat, state in zip(self.seats, self.states):
                if state.away and not seat.bot_plays:
                    self._away(state, now)
        self._event(number, "claimed", f"seat {number} was claimed: "
                    + (f"the table waits for seats {left}" if left else "the table plays"),
                    open_seats=left)
        super().claimed(number)
        self._clock_turn()
        self.arm()
        self.kick()

    # ---- moves ---------------------------------------------------------------------------------

    async def play(self, seat: int, text: Any, sender: Connection | None = None,
                   seq: Any = None, hand: Any = None, ply: Any = None,
                   patience: float | None = None) -> None:
        await super().play(seat, text, sender, seq, hand, ply, patience)
        if sender is not None:  # a person's move: here, and not timed out
            self.states[seat].timeouts = 0
            await self.here(seat)
        await self._hand_back()
        self._clock_turn()
        self.arm()

    def moved(self) -> None:
        self._clock_turn()

    async def _hand_back(self) -> None:
        """Gives every replaced seat whose person is back to its person, unless the bot is in
        the middle of that seat's turn (the lock held)."""
        for seat, state in zip(self.seats, self.states):
            if not (state.returning and seat.replaced_by is not None and self.playing):
                continue
            if self.game.turn == seat.seat and len(self.moves) > self.turn_started:
                continue  # the bot ends the turn it began
            try:
                await anyio.to_thread.run_sync(self.store.set_replaced, self.id, seat.seat, None)
            except Exception as error:  # tried again after the next move, or the next socket
                log.warning("table %s: seat %d cannot be given back now (%s)", self.id,
                            seat.seat, error)
                continue
            bot = seat.replaced_by
            seat.replaced_by, seat.player = None, None
            state.returning, state.away, state.until, state.timeouts = False, False, None, 0
            self._clock_turn()
            self._event(seat.seat, "returned", f"seat {seat.seat}'s person plays the seat "
                        f"again (bot:{bot} played it while they were away)")
            self._views()

    def _clock_turn(self) -> None:
        """Starts the turn clock for a new turn of a person, stops it for a bot's."""
        if (not self.turn_seconds or not self.playing or self.game.is_over()
                or self.seats[self.game.turn].bot_plays or self.open_seats):
            self.turn_deadline = self.turn_key = None
            return
        key = (self.hand, self.turn_started)
        if key != self.turn_key:
            self.turn_key = key
            self.turn_deadline = self.clock() + self.turn_seconds

    # ---- deadlines -----------------------------------------------------------------------------

    def next_deadline(self) -> float | None:
        """The next moment something is due at the table (None: nothing)."""
        if not self.playing:
            return None
        due = [state.until for seat, state in zip(self.seats, self.states)
               if state.away and state.until is not None and not seat.bot_plays]
        if self.turn_deadline is not None:
            due.append(self.turn_deadline)
        return min(due, default=None)

    def arm(self) -> None:
        """Sets the table's timer for its next deadline (none without a running loop: the
        server arms every table when it starts)."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        deadline = self.next_deadline()
        if deadline is None or self.halted:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self.timer = loop.call_later(max(0.0, deadline - self.clock()), self._wake)

    def disarm(self, halt: bool = False) -> None:
        """Stops the timer (the table is finished or abandoned); ``halt``: for good (the server
        stops)."""
        self.halted = self.halted or halt
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def _wake(self) -> None:
        self.timer = None
        if self.tick_task is None or self.tick_task.done():
            self.tick_task = asyncio.get_running_loop().create_task(self.tick())

    async def tick(self) -> None:
        """Acts on every deadline past on the server's clock: a grace over replaces its seat's
        person, a turn clock over plays the rest of the turn; then the bots, and the timer."""
        async with self.lock:
            if self.playing:
                await self._expire()
        self.kick()
        self.arm()

    async def _expire(self) -> None:
        now = self.clock()
        for seat, state in zip(self.seats, self.states):
            if (state.away and state.until is not None and now >= state.until
                    and not seat.bot_plays and self.playing):
                await self._replace(seat.seat, now)
        self._clock_turn()
        if self.turn_deadline is not None and now >= self.turn_deadline and self.playing:
            await self._time_out(self.game.turn, now)

    async def _replace(self, number: int, now: float) -> None:
        seat, state = self.seats[number], self.states[number]
        spec = self.presence.replacement
        try:
            player = load_bot(self.engine, spec, Limits(max_iterations=_MASK,
                                                        max_time_limit=float("inf")))
            await anyio.to_thread.run_sync(self.store.set_replaced, self.id, number, spec)
        except Exception as error:
            state.until = now + self.retry.most
            log.warning("table %s: seat %d cannot be replaced now (%s): tried again in %g s",
                        self.id, number, error, self.retry.most)
            return
        seat.replaced_by, seat.player = spec, player
        state.away, state.until, state.returning, state.timeouts = False, None, False, 0
        state.told = False
        self._clock_turn()
        self._event(number, "replaced", f"seat {number}'s person did not come back within "
                    f"{self.presence.grace:g} s: bot:{spec} plays the seat from now on, until "
                    "they are back", policy=spec)
        self._views()

    async def _time_out(self, number: int, now: float) -> None:
        """Plays the rest of seat ``number``'s turn with the timeout bot (the lock held)."""
        hand, played = self.hand, []
        try:
            while (self.playing and self.hand == hand and self.game.turn == number
                   and not self.seats[number].bot_plays):
                move = await anyio.to_thread.run_sync(self._choose, self.timeout_player,
                                                      limiter=self.limiter)
                await Table.play(self, number, move, patience=0.0)
                played.append(move)
        except Exception as error:  # the database, or the policy: tried again a little later
            self.turn_deadline = now + self.retry.most
            log.warning("table %s: seat %d's turn could not be played for it (%s): tried again "
                        "in %g s", self.id, number, error, self.retry.most)
            if not played:
                return
        state = self.states[number]
        state.timeouts += 1
        limit = self.presence.max_timeouts
        self._clock_turn()
        self._event(number, "timeout", f"seat {number}'s turn time ran out: the server played "
                    f"{', '.join(repr(m) for m in played)} for it ({state.timeouts} in a row of "
                    f"{limit})", moves=played, timeouts=state.timeouts)
        if state.timeouts >= limit and not state.away and self.playing:
            self._away(state, self.clock())
            state.told = True
            grace = self.presence.grace
            self._event(number, "away", f"seat {number}'s person let the turn clock run out "
                        f"{limit} times in a row: taken as away"
                        + (f", a bot plays the seat unless they are back within {grace:g} s"
                           if grace is not None else ""), grace=grace)
        await self._hand_back()
