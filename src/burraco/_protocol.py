"""The words of the table server's protocol (docs/server.md), shared by the server
(:mod:`burraco.server`) and the client (:mod:`burraco.client`).

This module imports nothing but the standard library: the client imports it without the server's
Starlette and uvicorn. The server's behaviour lives in ``burraco/server/``; only the names both
sides spell, and the token bucket both sides count frames by, live here.
"""

from __future__ import annotations

from collections.abc import Callable

#: The routes (``{id}``: a table id).
TABLES_PATH = "/api/tables"
TABLE_PATH = "/api/tables/{id}"
RECORD_PATH = "/api/tables/{id}/record"
REVIEW_PATH = "/api/tables/{id}/review"
PLAY_PATH = "/api/tables/{id}/play"
WATCH_PATH = "/api/tables/{id}/watch"
HEALTH_PATH = "/api/health"
PRESETS_PATH = "/api/presets"
CLAIM_PATH = "/api/tables/{id}/seats/{seat}/claim"  # an open seat's token, once
#: The page of a table (``?join=SEAT``: claims that open seat, then plays it).
TABLE_PAGE = "/table/{id}"

#: The list of public tables (``GET TABLES_PATH``): its default and largest ``limit``.
LIST_LIMIT = 50
MAX_LIST_LIMIT = 200

#: The fields of a ``POST /api/tables`` body, the first two required.
CREATE_FIELDS = ("preset", "seats", "knobs", "match", "bot_delay", "turn_seconds", "public")

#: A seat of a ``POST /api/tables`` body: a person (its token in the answer), an open seat (a
#: person's seat whose token nobody holds yet: anyone with the join link claims it), or
#: ``BOT_PREFIX`` + a bot spec.
HUMAN_SEAT = "human"
OPEN_SEAT = "open"
BOT_PREFIX = "bot:"

#: The frames a client sends (their ``type``).
CLIENT_FRAMES = ("move", "view", "ping", "hint", "resume")

#: The frames the server sends (their ``type``).
SERVER_FRAMES = ("view", "result", "error", "pong", "hint", "seat")

#: The ``event`` of a ``seat`` frame, and when the server sends it (docs/server.md "When a person
#: leaves").
SEAT_EVENTS: dict[str, str] = {
    "away": "a person's last socket closed, or they let the turn clock run out too often",
    "back": "an away person is here again, within the grace",
    "replaced": "the grace ran out: a bot plays the person's seat from now on",
    "returning": "a replaced person is back: the seat is theirs at their next turn boundary",
    "returned": "the replaced person plays the seat again",
    "timeout": "a person's turn time ran out: the server played the rest of the turn",
    "claimed": "an open seat was claimed: a person's from now on (open_seats: those left)",
}

#: The ``code`` of an ``error`` frame, and when the server sends it (docs/server.md "Frames from
#: the server").
ERROR_CODES: dict[str, str] = {
    "illegal_move": "the engine refused the move",
    "bad_move": "the move is not a non-empty string of at most 200 characters of valid text",
    "not_your_turn": "another seat is to act (a move, or a hint)",
    "stale": "the move's hand or ply is not the table's now",
    "table_finished": "the hand (or match) is over (a move, or a hint)",
    "table_abandoned": "the table was closed as abandoned",
    "spectator": "a move or a hint asked on a watching socket",
    "no_hints": "the seat has used its hints of this hand, or the server gives none",
    "bad_json": "the frame is not JSON",
    "bad_message": "not a JSON object, or a seq, hand or ply of the wrong type",
    "unknown_type": "a type other than " + ", ".join(CLIENT_FRAMES),
    "too_large": "a frame over the size limit",
    "binary": "a binary frame",
    "rate_limited": "too many frames: this one was dropped (retry_after: seconds to wait)",
    "internal": "the server could not store the move: it was not played",
    "bot_failed": "a bot's policy failed: its table waits",
    "replaced": "a move or a hint for a seat a bot plays since its person left (send resume)",
    "waiting": "a move or a hint before every open seat of the table is claimed",
}

#: The WebSocket close code of a wrong token or table, of a flood, and of a socket that does not
#: read its frames.
POLICY_VIOLATION = 1008

#: The default limits of a socket (``burraco serve --burst``, ``--rate``): frames at once, then
#: frames a second.
BURST = 20.0
RATE = 10.0

#: The default limit on the size of a frame and of a request body, bytes.
MAX_MESSAGE = 4096


# The limit of a socket's frames (and of a client's table creations): the server refuses by it,
# the client paces itself by the same model.
class TokenBucket:
    """A token bucket: ``capacity`` messages at once, ``rate`` more a second."""

    def __init__(self, capacity: float, rate: float, clock: Callable[[], float]) -> None:
        self.capacity = capacity
        self.rate = rate
        self.tokens = capacity
        self._clock = clock
        self._last = clock()

    def _refill(self) -> None:
        now = self._clock()
        self.tokens = min(self.capacity, self.tokens + (now - self._last) * self.rate)
        self._last = now

    def take(self) -> bool:
        """Takes one token if there is one."""
        self._refill()
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def wait(self) -> float:
        """Seconds until the next token."""
        self._refill()
        return max(0.0, (1 - self.tokens) / self.rate)

    def full(self) -> bool:
        """Whether the bucket is full again (then it is the same as a new one)."""
        self._refill()
        return self.tokens >= self.capacity
