"""perft: the number of legal move sequences of a given length (docs/cli.md "burraco perft").

A node where the hand is over is a leaf: it counts 1 whatever depth is left (the sequence stops
there). ``divide`` gives the count below each legal move, to find where two engines differ.
"""

from __future__ import annotations

from .game import Game
from .moves import Move

__all__ = ["divide", "perft"]


def perft(game: Game, depth: int) -> int:
    """Leaf nodes of the tree of legal move sequences of ``depth`` moves from ``game``'s state.

    The walk runs on a copy: ``game`` is never changed, and another thread may use it meanwhile
    (the count is that of the position when the call began)."""
    return _perft(game.copy(), depth)


def _perft(game: Game, depth: int) -> int:
    if depth <= 0 or game.is_over():
        return 1
    moves = game.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        game.push(move)
        total += _perft(game, depth - 1)
        game.pop()
    return total


def divide(game: Game, depth: int) -> dict[Move, int]:
    """perft(depth - 1) below each legal move, in the canonical move order (on a copy)."""
    game = game.copy()
    counts = {}
    for move in game.legal_moves():
        game.push(move)
        counts[move] = _perft(game, depth - 1)
        game.pop()
    return counts
