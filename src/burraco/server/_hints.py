"""Hints for a person at a table (docs/server.md "Hints"): the moves :func:`burraco.hint` ranks
for the seat asking, within the server's budget of one hint (``--hint-iterations``) and a seat's
number of hints a hand (``--hints``)."""

from __future__ import annotations

import functools
from typing import Any

import anyio

from .. import _core
from .._hint import hint as rank_moves
from ._table import Connection, Table, bot_seed

#: The moves a ``hint`` frame ranks, best first.
SHOWN = 3


async def answer(table: Table, connection: Connection, seq: Any, *, iterations: int,
                 per_hand: int, limiter: anyio.CapacityLimiter) -> None:
    """Sends the seat of ``connection`` a ``hint`` frame for the position it is to act in, or an
    ``error`` frame saying why not. The search runs in a worker thread of ``limiter`` (the bots'),
    outside the table's lock, on a copy of the position: it reads only what the seat may see, so
    it tells nothing of the other hands. A hint is counted when its search starts."""
    seat = connection.seat
    if seat is None:
        connection.send({"type": "error", "code": "spectator", "seq": seq,
                         "message": "a watching socket gets no hints"})
        return
    async with table.lock:
        if table.finished or table.abandoned or table.game.is_over():
            connection.send({"type": "error", "code": "table_finished", "seq": seq,
                             "message": "the hand is over: no hint"})
            return
        if table.open_seats:  # docs/server.md "Open seats"
            connection.send({"type": "error", "code": "waiting", "seq": seq,
                             "message": f"the table waits for its open seats "
                             f"{table.open_seats} to be claimed: no hint"})
            return
        if table.game.turn != seat:
            connection.send({"type": "error", "code": "not_your_turn", "seq": seq,
                             "message": f"seat {table.game.turn} is to act: a hint is for the "
                             "seat to act"})
            return
        if table.seats[seat].bot_plays:  # docs/server.md "When a person leaves"
            connection.send({"type": "error", "code": "replaced", "seq": seq,
                             "message": f"a bot plays seat {seat} since its person left: no "
                             "hint (send resume to take the seat back)"})
            return
        used = table.hints.get((table.hand, seat), 0)
        if used >= per_hand:
            why = (f"this server gives {per_hand} hints a hand, all used" if per_hand
                   else "this server gives no hints")
            connection.send({"type": "error", "code": "no_hints", "seq": seq, "message": why})
            return
        table.hints[table.hand, seat] = used + 1
        hand, ply = table.hand, len(table.moves)
        # The core searches whichever engine the table plays: the two share state strings.
        game = _core.Game.from_state_string(table.game.state_string())
        seed = bot_seed(table.seeds, table.hand_seed, ply)
    ranked = await anyio.to_thread.run_sync(
        functools.partial(rank_moves, game, player=seat, iterations=iterations, seed=seed),
        limiter=limiter)
    total = sum(h.visits for h in ranked)
    connection.send({
        "type": "hint", "seq": seq, "hand": hand, "ply": ply, "iterations": iterations,
        "moves": [{"move": str(h.move), "visits": h.visits, "value": round(h.value, 4)}
                  for h in ranked[:SHOWN]],
        # The share of the search's visits the first move got: how sure the hint is (1 when the
        # move is forced).
        "confidence": round(ranked[0].visits / total, 3) if total else 1.0,
        "left": per_hand - used - 1,
    })
