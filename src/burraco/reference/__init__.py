"""burraco.reference: the pure-Python reference engine, the executable reading of docs/rules.md.

It implements the same public API as the C++ core (docs/api.md) independently, in plain Python and
by brute force where that is clearer, so that the two can be compared case by case.

Its policy loops (``Game.playout``, ``Game.policy_move``, ``playouts``) take the built-in policies
and Python policies (:class:`Policy`; a callable gets a :class:`PolicyView` and its
:class:`RandomStream`, shared with the core); native policies need the core.
"""

from .._errors import (
    BurracoError,
    IllegalMoveError,
    InvalidMeldError,
    InvalidNotationError,
    InvalidStateError,
    PolicyError,
)
from .._policy import PolicyView, RandomStream
from .._records import read_records, write_records
from .cards import Card, Cards
from .game import MAX_HAND_MOVES, Game
from .match import Match
from .melds import Meld, Melds
from .moves import Move, MoveList
from .perft import perft
from .policies import Policy
from .rules import Rules
from .scoring import Result, SideResult
from .search import END_REASONS, Observation, playouts

__all__ = [
    "Card",
    "Cards",
    "Rules",
    "Meld",
    "Melds",
    "Move",
    "MoveList",
    "Game",
    "MAX_HAND_MOVES",
    "Result",
    "SideResult",
    "Match",
    "perft",
    "Observation",
    "Policy",
    "PolicyView",
    "RandomStream",
    "playouts",
    "read_records",
    "write_records",
    "END_REASONS",
    "BurracoError",
    "InvalidNotationError",
    "InvalidMeldError",
    "IllegalMoveError",
    "InvalidStateError",
    "PolicyError",
]
