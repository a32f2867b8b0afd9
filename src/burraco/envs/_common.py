"""What the PettingZoo and the Gymnasium environments share (docs/rl.md): the rules of a preset,
the rewards of a finished hand, the bounds of the observation tensor, the legal mask as int8, the
check of an action id with its message, and the seats played by policies.

Only NumPy and the engine are imported here, never Gymnasium or PettingZoo.
"""

from __future__ import annotations

import operator
from collections.abc import Mapping
from typing import Any, Callable, Literal, SupportsIndex, Union

import numpy as np
import numpy.typing as npt

from .. import bots
from .._core import ISMCTS, Game, Move, MoveList, Policy, Rules
from .._errors import IllegalMoveError, InvalidNotationError
from .._policy import PolicyView
from .._tally import unit_of_seat, unit_scale, unit_scores

# A finished hand's margin is divided by this (the "margin" reward): the match target of the
# italian presets, so a reward of 1 is a whole match won in one hand. Measured hands stay well
# inside [-1, 1] (docs/rl.md "Rewards").
MARGIN_SCALE = 2000.0
# Bound of the two match-score features (398, 399: score / 1000 or half points / 2000): far
# beyond any match, so that a position given by the caller stays inside the observation space.
SCORE_FEATURE_BOUND = 1000.0
SCORE_FEATURES = slice(398, 400)
# Six players (681 features, docs/search.md): the match scores of relative sides 0, 1, 2 / 1000.
SCORE_FEATURES_SIX = slice(567, 570)

RewardKind = Literal["margin", "win"]
REWARDS = ("margin", "win")

PolicyFunction = Callable[[PolicyView, MoveList], SupportsIndex]
PolicyLike = Union[str, Policy, ISMCTS, PolicyFunction]


def rules_of(preset: str | Rules) -> Rules:
    """The rules of a preset name, or the given ``Rules`` (custom knobs)."""
    if isinstance(preset, Rules):
        return preset
    if not isinstance(preset, str):
        raise TypeError(f"preset {preset!r}: expected a preset name or a burraco.Rules")
    return Rules(preset)  # Rules quotes an unknown name itself


def is_real(value: object) -> bool:
    """An int or a float, NumPy's included, not a bool."""
    return (isinstance(value, (int, float, np.integer, np.floating))
            and not isinstance(value, (bool, np.bool_)))


def check_reward(reward: str, scale: float) -> None:
    """Refuses an unknown reward kind or a scale that is not a positive finite number."""
    if reward not in REWARDS:
        raise ValueError(f"reward {reward!r}: expected 'margin' or 'win'")
    if not is_real(scale) or not 0 < float(scale) < float("inf"):
        raise ValueError(f"reward_scale {scale!r}: expected a positive finite number")


def check_seat(seat: object, players: int) -> int:
    """A seat argument as an int (a NumPy integer too): ValueError quoting anything else."""
    if not is_int(seat) or not 0 <= operator.index(seat) < players:  # type: ignore[arg-type]
        raise ValueError(f"seat {seat!r}: expected an int from 0 to {players - 1}")
    return operator.index(seat)  # type: ignore[arg-type]  # is_int checked it


def agent_names(players: int) -> list[str]:
    """``['player_0', 'player_1', ...]``: the agent of seat i is ``player_i``."""
    return [f"player_{seat}" for seat in range(players)]


def seat_scores(game: Game) -> list[float]:
    """Each seat's score for the finished hand, in points: its side's total with 2 or 4 players;
    with 3 players the seat's own share (``player_scores`` are half points, RULES E.6)."""
    rules = game.rules
    units = unit_scores(rules, game.result())
    return [units[unit_of_seat(rules, seat)] / unit_scale(rules) for seat in range(game.players)]


def margins(game: Game) -> list[float]:
    """Each seat's margin for the finished hand, in points: its score less the best score of a
    seat of another side (with 2 or 4 players, its side's total less the other side's)."""
    scores = seat_scores(game)
    sides = [game.side_of(seat) for seat in range(game.players)]
    out = []
    for seat in range(game.players):
        others = [scores[other] for other in range(game.players) if sides[other] != sides[seat]]
        out.append(scores[seat] - max(others) if others else 0.0)
    return out


def rewards(game: Game, reward: RewardKind, scale: float) -> list[float]:
    """The reward of each seat for the finished hand: ``margin / scale``, or with ``'win'`` +1, -1
    or 0 by the sign of the margin."""
    if reward == "win":
        return [float(np.sign(margin)) for margin in margins(game)]
    return [margin / scale for margin in margins(game)]


def observation_bounds(rules: Rules) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """Low and high of each feature of ``observation_tensor`` (docs/search.md "Actions and tensors
    for learning"): counts and sizes lie in [0, total_cards], flags in [0, 1] within that; the two
    match-score features may be negative."""
    size = observation_size(rules)
    low = np.zeros(size, np.float32)
    high = np.full(size, float(rules.total_cards), np.float32)
    scores = SCORE_FEATURES_SIX if rules.players == 6 else SCORE_FEATURES
    low[scores] = -SCORE_FEATURE_BOUND
    high[scores] = SCORE_FEATURE_BOUND
    return low, high


def observation_size(rules: Rules) -> int:
    """The length of the observation tensor under these rules."""
    return int(Game(rules, seed=0).observation_tensor(0).shape[0])


def mask_int8(game: Game) -> npt.NDArray[np.int8]:
    """The legal mask as a new int8 array (what ``Discrete.sample(mask)`` takes)."""
    return game.legal_mask().astype(np.int8)


def _describe(game: Game, action: int) -> str:
    return f"{action} ({str(game.action_move(action))!r})"


def illegal_message(game: Game, action: int, who: str) -> str:
    """The message of an illegal action: the id and its move, the position, the legal ids."""
    legal = np.flatnonzero(game.legal_mask()).tolist()
    shown = ", ".join(_describe(game, index) for index in legal[:8])
    more = f" and {len(legal) - 8} more" if len(legal) > 8 else ""
    return (f"illegal action {_describe(game, action)} for {who} in the {game.phase} phase: "
            f"nothing was played; the legal actions are {shown}{more}")


SEED_LIMIT = 2**64


def is_int(value: object) -> bool:
    """An int or a NumPy integer, not a bool (nor another type that only has ``__index__``)."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def check_seed(seed: object, what: str = "seed") -> int | None:
    """A ``reset(seed=...)`` argument as None or an int in [0, 2**64) (the seeds a deal takes):
    TypeError or ValueError quoting anything else, before the environment changes."""
    if seed is None:
        return None
    if not is_int(seed):
        raise TypeError(f"{what} {seed!r}: expected None or an int from 0 to 2**64 - 1")
    value = operator.index(seed)  # type: ignore[arg-type]  # is_int checked it
    if not 0 <= value < SEED_LIMIT:
        raise ValueError(f"{what} {seed!r}: expected None or an int from 0 to 2**64 - 1")
    return value


def check_options(options: object) -> dict[str, Any]:
    """A ``reset(options=...)`` argument as a dict (TypeError quoting anything but a mapping)."""
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise TypeError(f"options {options!r}: expected None or a dict")
    return dict(options)


def action_index(game: Game, action: object) -> int:
    """The action id as an int; refuses a non-integer (``TypeError``, also when its ``__index__``
    fails) or an id outside the action space (``InvalidNotationError``, quoting it)."""
    if isinstance(action, (bool, np.bool_)):
        raise TypeError(f"action {action!r}: expected an integer action id, not a bool")
    try:
        index = operator.index(action)  # type: ignore[arg-type]  # refused just below
    except TypeError:
        raise TypeError(f"action {action!r}: expected an integer action id") from None
    except Exception as error:  # the caller's __index__ failed: say so, as a bad argument
        raise TypeError(f"action {action!r}: expected an integer action id (its __index__ "
                        f"raised {type(error).__name__}: {error})") from None
    if not 0 <= index < game.action_size:
        raise InvalidNotationError(
            f"action {action!r}: expected an action id from 0 to {game.action_size - 1}")
    return index


def is_legal(game: Game, action: int) -> bool:
    return bool(game.legal_mask()[action])


def refuse(game: Game, action: int, who: str) -> IllegalMoveError:
    """The error for an illegal (in-range) action id."""
    return IllegalMoveError(illegal_message(game, action, who))


class SeatPlayer:
    """A seat played inside an environment: a bot spec of :mod:`burraco.bots` (a built-in bot,
    ``'ismcts:N[:option=value...]'`` or ``'module:attribute'``), a ``burraco.Policy``, a Python
    policy ``f(view, moves) -> index`` (docs/native.md "Python policies"), or an ``ISMCTS`` (its
    ``choose``). Policies see only the seat's observation; ISMCTS never reads the hidden cards of
    the game it is given (docs/search.md "Search")."""

    def __init__(self, source: PolicyLike, what: str) -> None:
        self.search: ISMCTS | None = None
        self.policy: Policy | None = None
        if isinstance(source, str):
            source = bots.make(source)  # a bad spec raises InvalidNotationError quoting it
        if isinstance(source, ISMCTS):
            self.search = source
        elif isinstance(source, Policy) or callable(source):
            self.policy = Policy(source)
        else:
            raise TypeError(f"{what} {source!r}: expected a bot spec ({bots.HELP}), a "
                            "burraco.Policy, a burraco.ISMCTS or a callable policy(view, moves)")
        self.name = "ismcts" if self.policy is None else self.policy.name

    def move(self, game: Game, seed: int) -> Move:
        """The move of the seat to act (``seed`` drives a policy's random stream)."""
        if self.search is not None:
            return self.search.choose(game)
        assert self.policy is not None
        return game.policy_move(self.policy, seed)
