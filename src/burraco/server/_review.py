"""Reviews of a table's finished hands (docs/server.md "Reviews"): each decision of the hand searched
again by :func:`burraco.review` from the seat's own view, and the table before every move, for
the review page (``/review/{id}``). A hand is reviewed once it is over, when its cards are no
secret any more (its record names them all)."""

from __future__ import annotations

import functools
from collections import OrderedDict
from typing import Any

import anyio

from .. import _core
from .._review import review

#: The reviews kept in memory, the most recently asked for.
KEPT = 32


def _position(game: _core.Game) -> dict[str, Any]:
    """The table as the review page draws it: every hand, the melds of each side as layouts, the
    discard pile's size and top card, the stock's size, whose turn and its phase."""
    top = game.top_discard
    return {
        "turn": game.turn, "phase": game.phase,
        "hands": [[str(card) for card in game.hand(seat)] for seat in range(game.players)],
        "sides": [game.side_of(seat) for seat in range(game.players)],
        "melds": {str(side): [meld.layout for meld in game.melds(side)] for side in game.sides},
        "pile": len(game.discard_pile), "top": None if top is None else str(top),
        "stock": game.stock_size,
    }


def build(record: dict[str, Any], iterations: int, seed: int) -> dict[str, Any]:
    """The review of one finished hand's record: its moves, the table before each move and after
    the last, and :func:`burraco.review`'s decisions of every seat (``iterations`` a decision)."""
    game = _core.Game.from_record(record)
    start = game.copy()
    while start.moves:
        start.pop()
    positions = [_position(start)]
    for move in game.moves:
        start.push(move)
        positions.append(_position(start))
    reviewed = review(game, iterations=iterations, seed=seed)
    return {"players": game.players, "rules": repr(game.rules),
            "moves": [str(move) for move in game.moves], "positions": positions,
            "iterations": iterations, "review": reviewed.to_json()}


class Reviews:
    """The server's reviews: one searched at a time (in a worker thread of its own, so that the
    bots' threads are never taken), the last :data:`KEPT` kept."""

    def __init__(self, iterations: int) -> None:
        self.iterations = iterations
        self.busy = False  # a review is being searched (the event loop's thread alone sets it)
        self.kept: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()

    async def of(self, table_id: str, hand: int, record: dict[str, Any]) -> dict[str, Any] | None:
        """The review of ``hand`` of the table; None when another review is being searched (the
        caller answers 503 and the page asks again)."""
        key = (table_id, hand)
        if key in self.kept:
            self.kept.move_to_end(key)
            return self.kept[key]
        if self.busy:
            return None
        self.busy = True
        try:
            seed = int(record.get("seed") or 0)
            answer = await anyio.to_thread.run_sync(
                functools.partial(build, record, self.iterations, seed))
        finally:
            self.busy = False
        self.kept[key] = answer
        while len(self.kept) > KEPT:
            self.kept.popitem(last=False)
        return answer
