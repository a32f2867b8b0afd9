"""Information sets and batch playouts for bots and search (docs/search.md; RULES C.9).

* :class:`Observation` (:func:`observe`, ``game.observation(player)``): exactly what one player may
  know of a hand, and its *observation string*: the game's state string with the hidden fields
  masked and ``player=P`` after the version.
* :func:`determinize` (``game.determinize(player, seed)``): a whole game consistent with an
  observation, the cards the player cannot see dealt at random by the deal contract's generator.
  It is given the observation alone, so it cannot read a hidden card.
* :func:`playouts`: many whole hands played with a policy (:mod:`.policies`), as NumPy arrays.

:class:`Observation` and :func:`observe` live in :mod:`.observation`, :func:`determinize` in
:mod:`.game` (a game is what it makes); this module gathers them for bots and search.

The reference has no tree search (``ISMCTS`` is core only).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .._errors import InvalidNotationError, InvalidStateError, PolicyError
from .game import Game, determinize, play_hand, prefixed
from .observation import Observation, observe
from .policies import PolicyLike, policy_arg
from .rng import SplitMix64, check_seed
from .rules import Rules

if TYPE_CHECKING:
    import numpy

__all__ = ["END_REASONS", "Observation", "determinize", "observe", "playouts"]

#: The ways a hand ends; ``playouts()['end_reason']`` holds the index + 1 into this tuple.
END_REASONS = ("closed", "stock_exhausted", "deadlock")

#: The most hands and threads :func:`playouts` accepts (docs/search.md).
MAX_HANDS = 10**9
MAX_THREADS = 64


# --- batch playouts -----------------------------------------------------------------------------


def _check_count(name: str, value: object, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidNotationError(
            f"{value!r} is not a valid {name}: expected an int from {low} to {high}"
        )
    return int(value)


def hand_seeds(seed: int, n: int) -> list[int]:
    """The deal seeds of hands 0..n-1 of :func:`playouts`: SplitMix64 outputs 1..n from ``seed``
    (the derivation of ``Match``)."""
    generator = SplitMix64(seed)
    return [generator.next() for _ in range(n)]


def playouts(rules: Rules, n: int, *, seed: int = 0, policy: PolicyLike = "random",
             threads: int = 1) -> dict[str, numpy.ndarray]:
    """Play ``n`` whole hands under ``rules`` and return their outcomes as NumPy arrays, row i for
    hand i (docs/search.md "Playouts"):

    * ``'seed'`` (uint64): hand i is ``Game(rules, seed=seed_i)`` played by
      ``playout(policy, seed_i)``, ``seed_i`` the (i+1)-th SplitMix64 output from ``seed``;
    * ``'scores'`` (int32, shape (n, sides): (n, 2), or (n, 3) with three players or three sides
      of six): the sides' totals; with three players each seat's score in half points
      (``result().player_scores``);
    * ``'moves'`` (int32): the moves played;
    * ``'end_reason'`` (uint8): 1 + the index of ``result().end_reason`` in :data:`END_REASONS`.

    ``policy`` is anything :meth:`Game.playout` takes. ``threads`` (1 to 64) is checked and
    otherwise ignored: the reference plays the hands one after another (pure Python holds the GIL),
    and the result never depends on it. Bad arguments raise InvalidNotationError (a ValueError)
    quoting them; a policy that fails, PolicyError (``playouts: policy 'NAME' ...``).
    """
    import numpy as np  # a runtime dependency, imported only when playouts are asked for

    if not isinstance(rules, Rules):
        raise InvalidNotationError(f"{rules!r} is not a Rules")
    count = _check_count("number of hands", n, 0, MAX_HANDS)
    seed = check_seed(seed)
    chosen = policy_arg(policy)
    _check_count("number of threads", threads, 1, MAX_THREADS)

    columns = rules.sides  # a column per side; three players: per seat
    seeds = hand_seeds(seed, count)
    scores: list[tuple[int, ...]] = []
    moves: list[int] = []
    end_reasons: list[int] = []
    for hand_seed in seeds:
        game = Game(rules, seed=hand_seed)
        try:
            moves.append(play_hand(game, chosen, hand_seed))
        except InvalidStateError as error:  # the move cap: which hand, as the core says
            raise prefixed(error, f"playouts: hand seed {hand_seed}: ") from None
        except PolicyError as error:
            raise prefixed(error, "playouts: ") from error.__cause__
        result = game.result()
        if result.player_scores is not None:
            scores.append(tuple(result.player_scores))
        else:
            scores.append(tuple(side.total for side in result.sides))
        end_reasons.append(END_REASONS.index(result.end_reason) + 1)
    arrays: dict[str, Any] = {
        "seed": np.array(seeds, dtype=np.uint64),
        "scores": np.array(scores, dtype=np.int32).reshape(count, columns),
        "moves": np.array(moves, dtype=np.int32),
        "end_reason": np.array(end_reasons, dtype=np.uint8),
    }
    return arrays
