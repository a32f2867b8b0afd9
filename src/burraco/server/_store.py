"""The server's SQLite database (docs/server.md "Persistence").

Every write is one transaction committed before the caller goes on, on a connection in WAL mode
with ``synchronous=FULL``: once a method here has returned, what it wrote survives a crash of the
process or of the machine. The connection is shared by the event loop's worker threads, so every
call holds one lock; the writes that wait meanwhile are committed together (a group commit, one
sync of the disk for all of them), each still all or nothing.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

SCHEMA_VERSION = 4

# Portable SQL (docs/server.md shows the same statements): TEXT, INTEGER and primary keys only.
# Seeds are 64-bit unsigned, beyond a signed INTEGER, so they are decimal TEXT.
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    created_at TEXT NOT NULL,
    rules TEXT NOT NULL,
    is_match INTEGER NOT NULL,
    status TEXT NOT NULL,
    bot_delay REAL NOT NULL DEFAULT 0,
    turn_seconds REAL NOT NULL DEFAULT 0,
    public INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables (id),
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,
    policy TEXT,
    token_sha256 TEXT,
    replaced_by TEXT,
    claimed_at TEXT,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS hands (
    table_id TEXT NOT NULL REFERENCES tables (id),
    hand INTEGER NOT NULL,
    seed TEXT NOT NULL,
    first_player INTEGER NOT NULL,
    scores TEXT NOT NULL,
    record TEXT,
    PRIMARY KEY (table_id, hand)
);
CREATE TABLE IF NOT EXISTS moves (
    table_id TEXT NOT NULL REFERENCES tables (id),
    hand INTEGER NOT NULL,
    ply INTEGER NOT NULL,
    move TEXT NOT NULL,
    PRIMARY KEY (table_id, hand, ply)
);
"""

# What each older version lacks, by the version that lacks it (each one lacks the later ones'
# columns too): version 1 had no bot_delay (its tables played bots at once), version 2 no turn
# clock and no replaced seats, version 3 no public tables and no open seats.
_UPGRADES = (
    (1, "ALTER TABLE tables ADD COLUMN bot_delay REAL NOT NULL DEFAULT 0"),
    (2, "ALTER TABLE tables ADD COLUMN turn_seconds REAL NOT NULL DEFAULT 0"),
    (2, "ALTER TABLE seats ADD COLUMN replaced_by TEXT"),
    (3, "ALTER TABLE tables ADD COLUMN public INTEGER NOT NULL DEFAULT 0"),
    (3, "ALTER TABLE seats ADD COLUMN claimed_at TEXT"),
)


def now() -> str:
    """The time now as the database keeps it: ISO 8601 UTC, to the second."""
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class StoreError(Exception):
    """The database is not one this server can use (another schema version, a broken row)."""


@dataclass
class SeatRow:
    """One seat of a stored table."""

    seat: int
    kind: str  # 'human', 'bot', or 'open' (a person's seat whose token nobody holds yet)
    policy: str | None  # the bot's spec
    token_sha256: str | None  # the hex SHA-256 of a human seat's token
    replaced_by: str | None = None  # the bot spec playing a person's seat since they left
    claimed_at: str | None = None  # when a seat made open was claimed (then 'human')


@dataclass
class HandRow:
    """One hand of a stored table, with its moves in order."""

    hand: int
    seed: int
    first_player: int
    scores: list[int]
    record: dict[str, Any] | None
    moves: list[str] = field(default_factory=list)


@dataclass
class TableRow:
    """A stored table: its rules, seats and hands (in order)."""

    id: str
    rules: str
    is_match: bool
    status: str
    seats: list[SeatRow]
    hands: list[HandRow]
    bot_delay: float = 0.0  # seconds before each bot move
    turn_seconds: float = 0.0  # a person's time for a turn (0: no turn clock)
    public: bool = False  # listed by GET /api/tables while it is played
    created_at: str = ""  # ISO 8601 UTC


@dataclass
class NewHand:
    """A hand to add: its number, deal seed, first player and match scores at its start."""

    hand: int
    seed: int
    first_player: int
    scores: Sequence[int]


@dataclass
class _Write:
    """Statements waiting for a group commit, and how it went."""

    statements: Sequence[tuple[str, Sequence[Any]]]
    done: bool = False
    error: BaseException | None = None


class Store:
    """The tables, seats, hands and moves of a server, in one SQLite file (or ``':memory:'``)."""

    def __init__(self, path: str, busy_timeout: float = 5.0) -> None:
        self.path = path
        self._lock = threading.Lock()  # the connection
        self._turn = threading.Condition()  # the writes waiting and whether a leader commits
        self._waiting: list[_Write] = []
        self._writing = False
        self.batches = 0  # group commits so far
        self.writes = 0  # writes they committed or refused
        self.failures = 0  # transactions that failed as a whole (the database locked, the disk)
        # busy_timeout: how long a transaction waits for a lock another connection holds before
        # it fails with "database is locked" (the caller retries: docs/server.md "Persistence").
        self._conn = sqlite3.connect(path, timeout=busy_timeout, check_same_thread=False,
                                     isolation_level=None)
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("PRAGMA synchronous=FULL")
        self._conn.execute("PRAGMA foreign_keys=ON")
        with self._lock:
            self._conn.executescript(SCHEMA)
            row = self._conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
            if row is None:
                self._conn.execute("INSERT INTO meta (key, value) VALUES ('schema_version', ?)",
                                   (str(SCHEMA_VERSION),))
            elif row[0] in ("1", "2", "3"):  # an older version: its missing columns, in one go
                self._write([*((sql, ()) for version, sql in _UPGRADES
                               if version >= int(row[0])),
                             ("UPDATE meta SET value = ? WHERE key = 'schema_version'",
                              (str(SCHEMA_VERSION),))], locked=True)
            elif row[0] != str(SCHEMA_VERSION):
                raise StoreError(f"database {path!r} has schema version {row[0]!r}; this server "
                                 f"reads version {SCHEMA_VERSION}")

    def close(self) -> None:
        """Closes the connection (every write is already committed)."""
        with self._lock:
            self._conn.close()

    def _write(self, statements: Sequence[tuple[str, Sequence[Any]]],
               locked: bool = False) -> None:
        """Runs ``statements`` all or nothing and returns once they are committed; raises what
        refused them (and then none of them was written). ``locked``: the caller holds the lock
        already, and the statements are one transaction of their own.

        A group commit: the writes of the threads that call meanwhile wait while one of them,
        the leader, commits every waiting write in one transaction, each write in a savepoint of
        its own (so one refused write leaves the others be), with one sync of the disk for all
        of them. A sync takes milliseconds, so writes one by one would cap the whole server at a
        few hundred moves a second."""
        write = _Write(statements)
        if locked:
            self._commit([write])
        else:
            with self._turn:
                self._waiting.append(write)
                while not write.done and self._writing:
                    self._turn.wait()
                if not write.done:  # no leader: lead, with every write waiting
                    batch, self._waiting = self._waiting, []
                    self._writing = True
            if not write.done:
                try:
                    with self._lock:
                        self._commit(batch)
                finally:
                    with self._turn:
                        self._writing = False
                        self._turn.notify_all()
        if write.error is not None:
            raise write.error

    def _commit(self, batch: list[_Write]) -> None:
        """One transaction for ``batch``, a savepoint each (call with the lock held); marks every
        write done, with its error if it was refused."""
        try:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                for write in batch:
                    self._conn.execute("SAVEPOINT write")
                    try:
                        for sql, parameters in write.statements:
                            self._conn.execute(sql, parameters)
                    except Exception as error:
                        self._conn.execute("ROLLBACK TO write")
                        write.error = error
                    self._conn.execute("RELEASE write")
                self._conn.execute("COMMIT")
            except BaseException:
                if self._conn.in_transaction:
                    self._conn.execute("ROLLBACK")
                raise
        except BaseException as error:
            self.failures += 1
            for write in batch:
                write.error = write.error or error
            raise
        finally:
            for write in batch:
                write.done = True
        self.batches += 1
        self.writes += len(batch)

    # ---- writes ---------------------------------------------------------------------------------

    def create_table(self, table_id: str, rules: str, is_match: bool, seats: Sequence[SeatRow],
                     first_hand: NewHand, bot_delay: float = 0.0,
                     turn_seconds: float = 0.0, public: bool = False) -> str:
        """A new table with its seats and its first hand, in one transaction; its
        ``created_at``."""
        created = now()
        statements: list[tuple[str, Sequence[Any]]] = [(
            "INSERT INTO tables (id, created_at, rules, is_match, status, bot_delay, "
            "turn_seconds, public) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (table_id, created, rules, int(is_match), "playing", float(bot_delay),
             float(turn_seconds), int(public)))]
        for seat in seats:
            statements.append((
                "INSERT INTO seats (table_id, seat, kind, policy, token_sha256, replaced_by, "
                "claimed_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (table_id, seat.seat, seat.kind, seat.policy, seat.token_sha256,
                 seat.replaced_by, seat.claimed_at)))
        statements.append(self._hand_statement(table_id, first_hand))
        self._write(statements)
        return created

    @staticmethod
    def _hand_statement(table_id: str, hand: NewHand) -> tuple[str, Sequence[Any]]:
        return ("INSERT INTO hands (table_id, hand, seed, first_player, scores, record) "
                "VALUES (?, ?, ?, ?, ?, NULL)",
                (table_id, hand.hand, str(hand.seed), hand.first_player,
                 json.dumps(list(hand.scores))))

    def add_moves(self, table_id: str, hand: int, first_ply: int, moves: Sequence[str], *,
                  record: dict[str, Any] | None = None, next_hand: NewHand | None = None,
                  finished: bool = False) -> None:
        """The moves of one push (plies ``first_ply``, ...), committed together with what they
        end: the hand's ``record`` when it is over, the match's ``next_hand``, the table
        ``finished``."""
        statements: list[tuple[str, Sequence[Any]]] = [
            ("INSERT INTO moves (table_id, hand, ply, move) VALUES (?, ?, ?, ?)",
             (table_id, hand, first_ply + offset, move)) for offset, move in enumerate(moves)]
        if record is not None:
            statements.append(("UPDATE hands SET record = ? WHERE table_id = ? AND hand = ?",
                               (json.dumps(record, separators=(",", ":")), table_id, hand)))
        if next_hand is not None:
            statements.append(self._hand_statement(table_id, next_hand))
        if finished:
            statements.append(("UPDATE tables SET status = 'finished' WHERE id = ?", (table_id,)))
        self._write(statements)

    def set_replaced(self, table_id: str, seat: int, replaced_by: str | None) -> None:
        """Who plays a person's seat: the bot spec that replaced its person, or None (the person
        plays it again; docs/server.md "When a person leaves")."""
        self._write([("UPDATE seats SET replaced_by = ? WHERE table_id = ? AND seat = ? "
                      "AND kind = 'human'", (replaced_by, table_id, seat))])

    def claim_seat(self, table_id: str, seat: int, token_sha256: str, claimed_at: str) -> None:
        """An open seat becomes a person's, with the hash of the token just handed out
        (docs/server.md "Open seats"); StoreError, and nothing written, unless the stored seat
        is open (the caller holds the table's lock, so this is a check, not the arbiter)."""
        with self._lock:
            found = self._conn.execute("SELECT kind FROM seats WHERE table_id = ? AND seat = ?",
                                       (table_id, seat)).fetchone()
        if found is None or found[0] != "open":
            raise StoreError(f"table {table_id!r} seat {seat}: stored as "
                             f"{found[0] if found else 'missing'!r}, not an open seat")
        self._write([("UPDATE seats SET kind = 'human', token_sha256 = ?, claimed_at = ? "
                      "WHERE table_id = ? AND seat = ? AND kind = 'open'",
                      (token_sha256, claimed_at, table_id, seat))])

    def set_status(self, table_id: str, status: str) -> None:
        """Sets a table's status (``'abandoned'``: closed before its end, docs/server.md)."""
        self._write([("UPDATE tables SET status = ? WHERE id = ?", (status, table_id))])

    # ---- reads ----------------------------------------------------------------------------------

    def table_ids(self, status: str | None = None) -> list[str]:
        """The ids of the stored tables (of one status), oldest first."""
        with self._lock:
            if status is None:
                rows = self._conn.execute("SELECT id FROM tables ORDER BY created_at, id")
            else:
                rows = self._conn.execute(
                    "SELECT id FROM tables WHERE status = ? ORDER BY created_at, id", (status,))
            return [row[0] for row in rows.fetchall()]

    def load_table(self, table_id: str) -> TableRow | None:
        """A stored table with its seats, hands and moves, or None."""
        with self._lock:
            row = self._conn.execute(
                "SELECT id, rules, is_match, status, bot_delay, turn_seconds, public, created_at "
                "FROM tables WHERE id = ?",
                (table_id,)).fetchone()
            if row is None:
                return None
            seats = [SeatRow(*columns) for columns in
                     self._conn.execute("SELECT seat, kind, policy, token_sha256, replaced_by, "
                                        "claimed_at FROM seats "
                                        "WHERE table_id = ? ORDER BY seat", (table_id,))]
            hands: list[HandRow] = []
            for hand, seed, first, scores, record in self._conn.execute(
                    "SELECT hand, seed, first_player, scores, record FROM hands "
                    "WHERE table_id = ? ORDER BY hand", (table_id,)):
                hands.append(HandRow(hand, int(seed), first, json.loads(scores),
                                     None if record is None else json.loads(record)))
            by_number = {hand.hand: hand for hand in hands}
            for hand, ply, move in self._conn.execute(
                    "SELECT hand, ply, move FROM moves WHERE table_id = ? ORDER BY hand, ply",
                    (table_id,)):
                moves = by_number[hand].moves
                if ply != len(moves):
                    raise StoreError(f"table {table_id!r} hand {hand}: ply {ply} follows "
                                     f"{len(moves)} stored moves")
                moves.append(move)
        return TableRow(row[0], row[1], bool(row[2]), row[3], seats, hands, float(row[4]),
                        float(row[5]), bool(row[6]), row[7])

    def records(self, table_id: str) -> list[dict[str, Any]]:
        """The records of a table's finished hands, in order."""
        with self._lock:
            return [json.loads(text) for (text,) in self._conn.execute(
                "SELECT record FROM hands WHERE table_id = ? AND record IS NOT NULL "
                "ORDER BY hand", (table_id,))]
