"""The score of a finished hand, as both engines return it: :class:`Result` and
:class:`SideResult`.

One pair of value classes serves the core (``burraco.Game.result()``) and the reference
(``burraco.reference.Game.result()``): each engine scores the hand by itself, and hands its
numbers to these classes, so the two engines' results are the same kind of value and compare,
hash, print and pickle alike.
"""

from __future__ import annotations

from dataclasses import astuple, dataclass, fields

from ._blank import Initialized

__all__ = ["Result", "SideResult"]


@dataclass(frozen=True)
class SideResult(Initialized):
    """One side's score for one hand, broken down as RULES E.1 does. Every field is an int.

    ``side``: the side's index; ``melds``: card points on the table; ``bonuses``: burraco bonuses
    (E.2); ``closing``: the closing bonus (E.3); ``hand``: minus the points of the cards its
    players hold, a pozzetto held face down included where E.4 says so (<= 0); ``pozzetto``: the
    pozzetto penalty (<= 0, E.4); ``cut``: the brazilian cut bonus (E.5); ``total``: their sum.
    """

    #: The side's index: 0 or 1, or 0-2 with three players or three pairs of six.
    side: int
    #: Points of the cards in the side's melds (RULES E.1).
    melds: int
    #: Burraco bonuses of the side's melds (E.2).
    bonuses: int
    #: The closing bonus, if this side closed the hand (E.3).
    closing: int
    #: Minus the points of the cards left in the side's hands (E.4).
    hand: int
    #: The penalty for a pozzetto never taken (<= 0, E.4).
    pozzetto: int
    #: The brazilian cut bonus, when the dealer's cut was exact (E.5).
    cut: int
    #: The side's score for the hand: the sum of the fields above.
    total: int

    def __reduce__(self) -> tuple[object, tuple[int, ...]]:
        # Reads every field: an uninitialized SideResult raises TypeError (burraco/_blank.py).
        return (SideResult, astuple(self))


SideResult.__init__.__doc__ = "A side's score from its fields, in the order above (all ints)."


@dataclass(frozen=True)
class Result(Initialized):
    """The result of a finished hand (RULES D.5, E).

    ``end_reason``: ``'closed'``, ``'stock_exhausted'`` or ``'deadlock'``; ``closing_side``: the
    side that closed, or None; ``sides``: one :class:`SideResult` per side in play at the end, by
    side index; ``player_scores``: three players only, each seat's score in half points (RULES E.6),
    else None.
    """

    #: Why the hand ended: 'closed', 'stock_exhausted' or 'deadlock' (one of END_REASONS).
    end_reason: str
    #: The side that closed the hand, or None if it ended another way.
    closing_side: int | None
    #: A SideResult per side in play, in side order.
    sides: tuple[SideResult, ...]
    #: With three players, each seat's score in half points (RULES E.6); None otherwise.
    player_scores: tuple[int, ...] | None

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # Reads every field: an uninitialized Result raises TypeError (burraco/_blank.py).
        return (Result, tuple(getattr(self, field.name) for field in fields(self)))

    def side(self, side: int) -> SideResult:
        """The SideResult of side index ``side`` (KeyError if that side is not in play)."""
        for entry in self.sides:
            if entry.side == side:
                return entry
        raise KeyError(side)


Result.__init__.__doc__ = "A hand's result from its fields, in the order above."
