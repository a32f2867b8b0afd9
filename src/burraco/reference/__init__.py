"""burraco.reference: the pure-Python reference engine, the executable reading of RULES.md.

It implements the same public API as the C++ core (docs/api.md) independently, in plain Python and
by brute force where that is clearer, so that the two can be compared case by case.
"""

from .._errors import (
    BurracoError,
    IllegalMoveError,
    InvalidMeldError,
    InvalidNotationError,
    InvalidStateError,
)
from .cards import Card, Cards
from .game import Game
from .match import Match
from .melds import Meld, Melds
from .moves import Move
from .perft import perft
from .rules import Rules
from .scoring import Result, SideResult

__all__ = [
    "Card",
    "Cards",
    "Rules",
    "Meld",
    "Melds",
    "Move",
    "Game",
    "Result",
    "SideResult",
    "Match",
    "perft",
    "BurracoError",
    "InvalidNotationError",
    "InvalidMeldError",
    "IllegalMoveError",
    "InvalidStateError",
]
