"""The exceptions of both engines (the C++ core and :mod:`burraco.reference`).

Every one is a :class:`ValueError`, and every message quotes the offending input.
"""

__all__ = [
    "BurracoError",
    "InvalidNotationError",
    "InvalidMeldError",
    "IllegalMoveError",
    "InvalidStateError",
    "PolicyError",
]


class BurracoError(ValueError):
    """Base class of every error raised by burraco."""


class InvalidNotationError(BurracoError):
    """Text that cannot be parsed (a card, a card list, a rules knob), or a value of the wrong type."""


class InvalidMeldError(BurracoError):
    """Cards that do not form a meld (RULES B.2-B.5)."""


class IllegalMoveError(BurracoError):
    """A well-formed action that the rules do not allow here (for example a refused lay-off)."""


class InvalidStateError(BurracoError):
    """A state that breaks an invariant of the game (for example cards not conserved)."""


class PolicyError(BurracoError):
    """A policy that cannot be used or that failed in a playout: a native policy of another
    interface version, a policy that returned no legal move's index, a Python policy that raised
    (the error it raised is the ``__cause__``). The message names the policy."""
