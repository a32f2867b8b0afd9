"""Unpickling, for both engines: the functions that the values' ``__reduce__`` methods name
(docs/api.md "Pickling and copying").

Each function takes the class to rebuild (the core's or the reference's, pickled by reference),
rebuilds the value through the class's public constructors, and refuses data that is not what a
pickle of that class holds with :class:`InvalidStateError` (or the error the constructor raises
for a bad value, quoting it). Nothing here imports an engine.
"""

from __future__ import annotations

from typing import Any

from ._errors import BurracoError, InvalidStateError

__all__ = ["cards_of_pack", "game_of_history", "meld_of_layout", "observation_of_stand_in",
           "rules_of_overrides"]


def cards_of_pack(cls: Any, text: Any, decks: Any) -> Any:
    """A Cards of a three-deck pack: ``cls(text, decks=decks)``."""
    return cls(text, decks=decks)


def meld_of_layout(cls: Any, layout: Any, rules: Any) -> Any:
    """A Meld from its layout and rules: ``cls.from_layout(layout, rules)``."""
    return cls.from_layout(layout, rules)


def rules_of_overrides(cls: Any, preset: Any, overrides: Any) -> Any:
    """Rules from a preset's name and the knobs that differ from it: ``cls(preset, **overrides)``
    (pickle passes no keywords)."""
    if not isinstance(overrides, dict):
        raise InvalidStateError(f"pickled Rules: cannot restore from {overrides!r}")
    return cls(preset, **overrides)


def _from_state_string(cls: Any, what: str, text: Any) -> Any:
    if not isinstance(text, str):
        raise InvalidStateError(f"pickled {what}: {text!r} is not a state string")
    return cls.from_state_string(text)  # InvalidStateError for a bad one


def game_of_history(cls: Any, start: Any, moves: Any, state: Any) -> Any:
    """A Game from its history: the state string it starts from, its moves in notation, and the
    state string they lead to. The moves are replayed, so ``pop()``, ``moves`` and ``record()``
    work as on the pickled game; InvalidStateError if a move is not one, is illegal, or the moves
    do not lead to ``state``."""
    game = _from_state_string(cls, "game", start)
    if not isinstance(moves, list):
        raise InvalidStateError(f"pickled game: moves {moves!r} is not a list")
    for number, text in enumerate(moves, 1):
        if not isinstance(text, str):
            raise InvalidStateError(f"pickled game: move {number} {text!r} is not a move")
        try:
            game.push(text)
        except BurracoError as error:
            raise InvalidStateError(f"pickled game: move {number} {text!r}: {error}") from None
    if not isinstance(state, str) or game.state_string() != state:
        raise InvalidStateError(f"pickled game: the moves do not lead to the state {state!r}")
    return game


def observation_of_stand_in(cls: Any, stand_in: Any, player: Any, text: Any) -> Any:
    """An Observation pickled without a hidden card: ``player``'s observation of ``stand_in``, a
    game dealt from the observation alone, checked to read as ``text``."""
    game = _from_state_string(cls, "Observation", stand_in)
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < game.players:
        raise InvalidStateError(f"pickled Observation: cannot restore from {player!r}")
    observation = game.observation(player)
    if not isinstance(text, str) or str(observation) != text:
        raise InvalidStateError(
            f"pickled Observation: {text!r} is not the observation of its stand-in game")
    return observation
