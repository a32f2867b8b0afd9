"""burraco: a Burraco / Buraco rules engine for programs.

The names here are the C++ engine (``burraco._core``); :mod:`burraco.reference` offers the same
API in pure Python. See ``docs/api.md``.

>>> import burraco
>>> burraco.Meld('Jk 5d 6d')
Meld('Jk(=4d) 5d 6d')
"""

from importlib import metadata as _metadata

from ._core import (
    END_REASONS,
    ISMCTS,
    MAX_HAND_MOVES,
    Card,
    Cards,
    Game,
    Meld,
    Melds,
    Move,
    MoveList,
    Observation,
    Result,
    Rules,
    SideResult,
    perft,
    playouts,
)
from ._match import Match
from ._records import read_records, write_records
from ._errors import (
    BurracoError,
    IllegalMoveError,
    InvalidMeldError,
    InvalidNotationError,
    InvalidStateError,
)

from . import _board

# str(game) draws the table, as str(chess.Board) does (docs/cli.md "The board"); repr stays the
# constructor call.
setattr(Game, "__str__", _board.game_str)  # setattr: the stub keeps object.__str__'s type

try:
    __version__: str = _metadata.version("burraco")
except _metadata.PackageNotFoundError:  # imported from a source tree that was never installed
    __version__ = "0+unknown"

__all__ = [
    "END_REASONS",
    "MAX_HAND_MOVES",
    "BurracoError",
    "ISMCTS",
    "Card",
    "Cards",
    "Game",
    "IllegalMoveError",
    "InvalidMeldError",
    "InvalidNotationError",
    "InvalidStateError",
    "Match",
    "Meld",
    "Melds",
    "Move",
    "MoveList",
    "Observation",
    "Result",
    "Rules",
    "SideResult",
    "perft",
    "playouts",
    "read_records",
    "write_records",
]
