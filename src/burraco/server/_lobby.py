"""The club lobby of the server (docs/server.md "The lobby"): the list of public tables, and the
open seats that anyone with a table's join link may claim.

A table made with ``"public": true`` is listed by ``GET /api/tables`` while it is played; a
private one (the default) is reached by its id only. An open seat (``"open"`` in a table's
``seats``) is a person's seat whose token nobody holds: ``POST
/api/tables/{id}/seats/{seat}/claim`` hands it out once, and the table waits, dealt but without a
move, until every open seat is claimed. What is listed is read from memory (the tables being
played are all there), a few fields a table, never a card, a token or its hash.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any
from urllib.parse import quote

from .. import _protocol as protocol
from ._presence import PresenceTable
from ._table import RequestError, Table, _short, decimal

# What a listed seat says: who sits there, whether it is free, and whether a socket is open.
_SEAT_FIELDS = ("seat", "kind", "policy", "played_by", "connected")


def join_links(table: Table) -> dict[str, str]:
    """The page that claims each open seat of ``table`` and plays it, by seat number."""
    page = protocol.TABLE_PAGE.format(id=quote(table.id, safe=""))
    return {str(number): f"{page}?join={number}" for number in table.open_seats}


def entry(table: PresenceTable) -> dict[str, Any]:
    """One table of the list: its rules, its seats, where it is (no card: not even the public
    view, which is ``GET /api/tables/{id}``'s)."""
    seats = []
    for shown in table.players():
        seat = {key: shown.get(key) for key in _SEAT_FIELDS}
        seat["free"] = shown["kind"] == "open"
        seats.append(seat)
    open_seats = table.open_seats
    return {"id": table.id, "rules": table.rules.text, "players": table.rules.players,
            "match": table.is_match, "status": "waiting" if open_seats else "playing",
            "created_at": table.created_at, "hand": table.hand, "ply": len(table.moves),
            "scores": table.match_info(), "turn_seconds": table.turn_seconds,
            "bot_delay": table.bot_delay, "seats": seats, "open_seats": open_seats,
            "join": join_links(table),
            "watch": protocol.TABLE_PAGE.format(id=quote(table.id, safe=""))}


def listing(tables: Iterable[PresenceTable], limit: str | None) -> dict[str, Any]:
    """``GET /api/tables``'s answer: the public tables being played, newest first, at most
    ``limit`` (the query's text; LIST_LIMIT by default); RequestError 400 quoting a bad one."""
    count = protocol.LIST_LIMIT if limit is None else decimal(limit, 4)
    if count is None or not 1 <= count <= protocol.MAX_LIST_LIMIT:
        raise RequestError(f"limit {_short(limit)}: expected a number of tables from 1 to "
                           f"{protocol.MAX_LIST_LIMIT}", 400)
    public = [t for t in tables if t.public and not (t.finished or t.abandoned)]
    public.sort(key=lambda t: (t.created_at, t.order), reverse=True)
    return {"tables": [entry(t) for t in public[:count]], "total": len(public), "limit": count}


def seat_number(table: Table, text: str) -> int:
    """The seat of a claim's path; RequestError quoting it: 400 for what is not a number, 404
    for a seat the table does not have."""
    number = decimal(text, 3)
    if number is None:
        raise RequestError(f"seat {_short(text)}: expected a seat number from 0 to "
                           f"{table.rules.players - 1}", 400)
    if number >= table.rules.players:
        raise RequestError(f"table {table.id} has no seat {number}: its seats are 0 to "
                           f"{table.rules.players - 1}", 404)
    return number


def empty_body(body: bytes) -> None:
    """A claim's body: nothing, or ``{}`` (a claim has no field); RequestError quoting anything
    else."""
    if not body.strip():
        return
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        data = None
    if data != {}:
        raise RequestError(f"a claim has no body (or {{}}): got {_short(body)}", 400)


def described(table: Table) -> dict[str, Any]:
    """The table as ``POST /api/tables`` and a claim describe it (their own fields beside)."""
    return {"id": table.id, "players": table.rules.players, "rules": table.rules.text,
            "match": table.is_match, "bot_delay": table.bot_delay,
            "turn_seconds": table.turn_seconds, "public": table.public}


def claim_answer(table: Table, number: int, token: str) -> dict[str, Any]:
    """What a claim answers: the seat's token (given once), and the table as ``POST
    /api/tables`` describes it."""
    return {**described(table), "seat": number, "token": token, "open_seats": table.open_seats}
