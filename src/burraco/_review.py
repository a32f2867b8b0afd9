"""Where a hand was lost: every decision of a hand searched again from the seat's own view
(docs/bots.md "Reviewing a hand"), for servers, teaching tools and ``burraco replay --analyze``."""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Union

from . import _core
from ._errors import InvalidNotationError
from ._hint import hint
from .bots import seeds

__all__ = ["Decision", "Review", "review"]

#: A JSON value of :meth:`Decision.to_json` and :meth:`Review.to_json`.
_Json = Union[None, bool, int, float, str, list[Any], dict[str, Any]]  # noqa: UP007


@dataclass(frozen=True)
class Decision:
    """One decision of a reviewed hand: the move a seat played against the move the search of
    that seat's view prefers (the most visited, the move ``ISMCTS.choose`` would play).

    ``number`` is the move's number in the hand, from 1 (``burraco replay --move N-1`` shows the
    table it was played on); ``choices`` the seat's legal moves there. Values are the search's
    mean rewards of the seat's side after the move (0 to 1, 0.5 level with the default margin
    reward). ``played_value`` is None when the search never tried the played move (a budget too
    small for the position's moves); ``loss`` is ``best_value - played_value`` (0 when the played
    move is the best; None with ``played_value``). A less visited move can have the higher mean,
    so a loss can be slightly negative: the search's estimate, not a proof."""

    number: int
    seat: int
    played: _core.Move
    best: _core.Move
    played_value: float | None
    best_value: float
    played_visits: int
    best_visits: int
    visits: int
    choices: int

    @property
    def loss(self) -> float | None:
        """``best_value - played_value``: what the played move gave away by the search's values;
        0.0 when the played move is the best, None when the search never tried it."""
        if self.played == self.best:
            return 0.0
        if self.played_value is None:
            return None
        return self.best_value - self.played_value

    def to_json(self) -> dict[str, _Json]:
        """The decision as a JSON-serialisable dict, the moves in notation, ``loss`` included."""
        return {
            "number": self.number, "seat": self.seat, "played": str(self.played),
            "best": str(self.best), "played_value": self.played_value,
            "best_value": self.best_value, "loss": self.loss, "played_visits": self.played_visits,
            "best_visits": self.best_visits, "visits": self.visits, "choices": self.choices,
        }


@dataclass(frozen=True)
class Review:
    """The review of a hand: its decisions in move order, the seats reviewed, and how many moves
    each seat played forced (one legal move: nothing to decide, not searched), by seat (0 for a
    seat not reviewed)."""

    decisions: tuple[Decision, ...]
    seats: tuple[int, ...]
    forced: tuple[int, ...]

    def total_loss(self, seat: int) -> float:
        """The sum of the known losses of ``seat``'s decisions (0.0 for a seat not reviewed)."""
        return sum(d.loss for d in self.decisions if d.seat == seat and d.loss is not None)

    def by_loss(self) -> list[Decision]:
        """The decisions, the biggest loss first (ties in move order); those the search never
        tried the played move of come last."""
        return sorted(self.decisions, key=lambda d: (d.loss is None, -(d.loss or 0.0), d.number))

    def to_json(self) -> dict[str, _Json]:
        """The review as a JSON-serialisable dict: ``seats``, ``forced`` (by seat), ``total_loss``
        (seat, as a string -> sum) and ``decisions`` in move order (:meth:`Decision.to_json`)."""
        return {
            "seats": list(self.seats),
            "forced": list(self.forced),
            "total_loss": {str(seat): self.total_loss(seat) for seat in self.seats},
            "decisions": [d.to_json() for d in self.decisions],
        }


def _start_and_moves(game: Any) -> tuple[_core.Game, list[_core.Move]]:
    """The position the hand's history starts from, and the moves played from it."""
    if isinstance(game, _core.Game):
        final = game.copy()
    elif isinstance(game, (Mapping, str)):
        final = _core.Game.from_record(game)  # type: ignore[arg-type]
    else:
        raise TypeError(f"review: game expected a burraco.Game or a game record (a dict or a "
                        f"JSON line; of a reference game, game.record()), got "
                        f"{type(game).__name__} {game!r:.80}")
    moves = final.moves
    for _ in moves:
        final.pop()
    return final, moves


def _seats(seat: int | Iterable[int] | None, players: int) -> tuple[int, ...]:
    """The seats to review: every seat for None, else the one or several seats named."""
    if seat is None:
        return tuple(range(players))
    chosen: object = [seat] if isinstance(seat, int) or hasattr(seat, "__index__") else seat
    if isinstance(chosen, (str, bytes)) or not isinstance(chosen, Iterable):
        raise TypeError(f"review: seat expected an int or ints, got {type(seat).__name__} "
                        f"{seat!r:.80}")
    found: list[int] = []
    for one in chosen:
        if isinstance(one, bool):
            raise TypeError(f"review: seat expected an int, got bool {one!r}")
        try:
            index = operator.index(one)
        except Exception as error:  # no __index__, or one that raises
            raise TypeError(f"review: seat expected an int, got {type(one).__name__} "
                            f"{one!r:.80}") from error
        if not 0 <= index < players:
            raise InvalidNotationError(
                f"review: seat {one!r}: expected a seat from 0 to {players - 1}")
        if index not in found:
            found.append(index)
    if not found:
        raise InvalidNotationError(f"review: seat {seat!r}: no seat named")
    return tuple(sorted(found))


def review(game: _core.Game | Mapping[str, Any] | str, *, seat: int | Iterable[int] | None = None,
           iterations: int | None = 1000, time_limit: float | None = None, seed: int = 0,
           progress: Callable[[int, int], None] | None = None, **options: Any) -> Review:
    """Replays a hand and searches every decision of the reviewed seats again, each from that
    seat's view only (:func:`burraco.hint`): the move played against the search's best move.

    ``game`` is a :class:`burraco.Game` with its history, or a game record (a dict or one JSON
    line, docs/records.md), finished or not. ``seat`` is the seat (or seats) to review, every
    seat by default. A decision is a position where the reviewed seat to act had more than one
    legal move; forced moves are counted in ``Review.forced`` (by seat), not searched. The budget is
    per decision: ``iterations`` and/or ``time_limit`` (seconds); the decision at move n (from 1)
    searches with output n - 1 of ``burraco.bots.seeds(seed)``, so a review without a time limit
    is the same for the same seed, whichever seats are reviewed. The other keywords are
    :class:`burraco.ISMCTS`'s. ``progress(done, total)`` is called after each decision searched.
    Bad input (not a game, a bad seat, budget, seed or option) raises before any search, quoting
    it: ``TypeError``, :class:`burraco.InvalidNotationError` or :class:`burraco.BurracoError`.

    >>> import burraco
    >>> game = burraco.Game(burraco.Rules('italian-2p'), seed=7)
    >>> game.push('pile')
    >>> game.push('discard Jk')  # a joker thrown away
    >>> result = burraco.review(game, seat=0, iterations=1000, seed=1)
    >>> [(d.number, str(d.played), str(d.best), round(d.loss, 2)) for d in result.decisions]
    [(1, 'pile', 'pile', 0.0), (2, 'discard Jk', 'meld 7d 7h 7h', 0.09)]
    """
    start, moves = _start_and_moves(game)
    seats = _seats(seat, start.rules.players)
    # One search made up front checks the budget and the options before anything is searched.
    _core.ISMCTS(iterations=iterations, time_limit=time_limit, seed=seed, **options)
    seeds(seed)  # checks the seed too
    if progress is not None and not callable(progress):
        raise TypeError(f"review: progress expected a callable, got {type(progress).__name__}")
    position = start.copy()
    todo: list[int] = []  # the move numbers (from 1) to search
    forced = [0] * start.rules.players
    for number, move in enumerate(moves, 1):
        if position.turn in seats:
            if len(position.legal_moves()) > 1:
                todo.append(number)
            else:
                forced[position.turn] += 1
        position.push(move)
    decisions: list[Decision] = []
    position = start
    for number, move in enumerate(moves, 1):
        if len(decisions) == len(todo):
            break
        if number == todo[len(decisions)]:
            ranked = hint(position, iterations=iterations, time_limit=time_limit,
                          seed=seeds(seed, first=number - 1).next(), **options)
            best = ranked[0]
            played = next((h for h in ranked if h.move == move and h.visits), None)
            decisions.append(Decision(
                number=number, seat=position.turn, played=move, best=best.move,
                played_value=None if played is None else played.value, best_value=best.value,
                played_visits=0 if played is None else played.visits, best_visits=best.visits,
                visits=sum(h.visits for h in ranked), choices=len(position.legal_moves())))
            if progress is not None:
                progress(len(decisions), len(todo))
        position.push(move)
    return Review(tuple(decisions), seats, tuple(forced))
