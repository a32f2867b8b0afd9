"""burraco: a Burraco / Buraco rules engine (interim: the core is being built)."""

from ._errors import (
    BurracoError,
    IllegalMoveError,
    InvalidMeldError,
    InvalidNotationError,
    InvalidStateError,
)
