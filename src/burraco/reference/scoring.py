"""The score of a finished hand (RULES E.1-E.6): :class:`Result` and :class:`SideResult`."""

from __future__ import annotations

from dataclasses import astuple, dataclass, fields

from ._blank import Initialized

__all__ = ["Result", "SideResult"]


@dataclass(frozen=True)
class SideResult(Initialized):
    """One side's score for one hand, broken down as RULES E.1 does. Every field is an int.

    ``melds``: card points on the table; ``bonuses``: burraco bonuses (E.2); ``closing``: the
    closing bonus (E.3); ``hand``: minus the points of the cards its players hold, a pozzetto held
    face down included where E.4 says so (<= 0); ``pozzetto``: the pozzetto penalty (<= 0, E.4);
    ``cut``: the brazilian cut bonus (E.5); ``total``: their sum.
    """

    side: int
    melds: int
    bonuses: int
    closing: int
    hand: int
    pozzetto: int
    cut: int
    total: int

    def __reduce__(self) -> tuple[object, tuple[int, ...]]:
        # Reads every field: an uninitialized SideResult raises TypeError (reference/_blank.py).
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

    end_reason: str
    closing_side: int | None
    sides: tuple[SideResult, ...]
    player_scores: tuple[int, ...] | None

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # Reads every field: an uninitialized Result raises TypeError (reference/_blank.py).
        return (Result, tuple(getattr(self, field.name) for field in fields(self)))

    def side(self, side: int) -> SideResult:
        """The SideResult of side index ``side`` (KeyError if that side is not in play)."""
        for entry in self.sides:
            if entry.side == side:
                return entry
        raise KeyError(side)


Result.__init__.__doc__ = "A hand's result from its fields, in the order above."
