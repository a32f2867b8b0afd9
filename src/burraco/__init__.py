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
    POLICY_ABI,
    Policy,
    Rules,
    perft,
    playouts,
)
from ._hint import Hint, hint
from ._result import Result, SideResult
from ._match import Match
from ._policy import PolicyView, RandomStream
from ._records import read_records, write_records
from ._review import Decision, Review, review
from ._errors import (
    BurracoError,
    IllegalMoveError,
    InvalidMeldError,
    InvalidNotationError,
    InvalidStateError,
    PolicyError,
)


def get_include() -> str:
    """The folder of the native policy interface (docs/native.md): ``burraco/policy.h`` for C and
    C++, ``burraco/policy.pxd`` for Cython. Add it to both the C include path and the Cython
    include path of a module that exports a policy, as with ``numpy.get_include()``."""
    import os

    here = os.path.dirname(os.path.abspath(__file__))
    # An installed package holds the folder; an editable install from a checkout reads the
    # checkout's headers.
    for folder in (os.path.join(here, "include"),
                   os.path.join(os.path.dirname(os.path.dirname(here)), "cpp", "include")):
        if os.path.isfile(os.path.join(folder, "burraco", "policy.h")):
            return folder
    raise FileNotFoundError(f"burraco's headers are not installed beside {here}")


try:
    __version__: str = _metadata.version("burraco")
except _metadata.PackageNotFoundError:  # imported from a source tree that was never installed
    __version__ = "0+unknown"

__all__ = [
    "END_REASONS",
    "MAX_HAND_MOVES",
    "BurracoError",
    "Decision",
    "ISMCTS",
    "Card",
    "Cards",
    "Game",
    "Hint",
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
    "POLICY_ABI",
    "Policy",
    "PolicyError",
    "PolicyView",
    "RandomStream",
    "Result",
    "Review",
    "Rules",
    "SideResult",
    "get_include",
    "hint",
    "perft",
    "playouts",
    "read_records",
    "review",
    "write_records",
]
