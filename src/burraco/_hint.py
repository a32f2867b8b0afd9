"""Ranked moves for a seat, for servers and teaching tools (docs/bots.md "Hints")."""

from __future__ import annotations

import operator
from typing import Any, NamedTuple

from . import _core
from ._errors import IllegalMoveError, InvalidNotationError


class Hint(NamedTuple):
    """One move of a :func:`hint`: how often the search tried it and what it earned.

    ``value`` is the mean reward of the seat's side after the move, from 0 to 1 (with
    ``reward='win'`` the share of playouts it led; with ``'margin'`` 0.5 is level)."""

    move: _core.Move
    visits: int
    value: float


def hint(game: _core.Game, *, player: int | None = None, iterations: int | None = 1000,
         time_limit: float | None = None, seed: int = 0, **options: Any) -> list[Hint]:
    """The legal moves of the seat to act ranked by an ISMCTS search, most visited first.

    The search reads only what that seat may see, so a server can answer a player without
    leaking the other hands. ``player`` (optional) names the seat asking: a seat that is not to
    act has no move and raises :class:`burraco.IllegalMoveError`, as does a finished hand. The
    budget is ``iterations`` and/or ``time_limit`` (seconds); ``seed`` and the other keywords are
    :class:`burraco.ISMCTS`'s. A position with one legal move returns it alone, unvisited.

    >>> import burraco
    >>> game = burraco.Game(burraco.Rules('italian-2p'), seed=7)
    >>> ranked = burraco.hint(game, iterations=300, seed=1)
    >>> [h.move for h in ranked], sum(h.visits for h in ranked)
    ([Move('pile'), Move('draw')], 300)
    """
    if not isinstance(game, _core.Game):
        raise TypeError(f"hint: game expected a burraco.Game, got {type(game).__name__} {game!r:.80}")
    if player is not None:
        if isinstance(player, bool):
            raise TypeError(f"hint: player expected an int, got bool {player!r}")
        try:
            seat = operator.index(player)
        except Exception as error:  # no __index__, or one that raises
            raise TypeError(f"hint: player expected an int, got {type(player).__name__}") from error
        if not 0 <= seat < game.rules.players:
            raise InvalidNotationError(
                f"hint: player {player!r}: expected a seat from 0 to {game.rules.players - 1}")
        if not game.is_over() and seat != game.turn:
            raise IllegalMoveError(
                f"hint: player {seat} has no move to rank: it is seat {game.turn}'s turn")
    search = _core.ISMCTS(iterations=iterations, time_limit=time_limit, seed=seed, **options)
    return [Hint(move, visits, value) for move, visits, value in search.hint(game)]
