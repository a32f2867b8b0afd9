"""A Gymnasium single-agent environment: one seat of a Burraco hand, the other seats played by
policies inside ``step`` (docs/rl.md).

Importing this module registers one id per preset (``Rules.PRESETS``), the preset's name in
CamelCase: ``burraco/Italian-v0`` (four players), ``burraco/Italian2p-v0``, ``burraco/Brazilian-v0``
and the others, so that ``gymnasium.make('burraco/Italian2p-v0', opponent='heuristic')`` works after ``import
burraco.envs.gymnasium`` (or, without the import, ``gymnasium.make(
'burraco.envs.gymnasium:burraco/Italian2p-v0')``). ``gymnasium.make_vec`` of these ids makes the
C++ vector environment (``burraco.envs.vector``) unless ``vectorization_mode`` says otherwise.
"""

from __future__ import annotations

import math
from typing import Any, Literal, SupportsIndex

import numpy as np
import numpy.typing as npt

try:
    import gymnasium
    from gymnasium import spaces
except ImportError as error:  # pragma: no cover - exercised in a subprocess by the tests
    raise ImportError(
        "burraco.envs.gymnasium needs Gymnasium: pip install 'burraco[rl]'"
    ) from error

from .._board import Seating, draw
from .._core import Game, Rules
from .._errors import InvalidStateError
from ._common import (
    MARGIN_SCALE,
    PolicyLike,
    RewardKind,
    SeatPlayer,
    action_index,
    check_options,
    check_reward,
    check_seat,
    check_seed,
    is_legal,
    is_real,
    margins,
    mask_int8,
    observation_bounds,
    refuse,
    rewards,
    rules_of,
)

__all__ = ["ENV_IDS", "BurracoEnv"]


def _env_id(preset: str) -> str:
    """The id registered for a preset: ``italian-2p`` -> ``burraco/Italian2p-v0``."""
    return "burraco/" + "".join(part.capitalize() for part in preset.split("-")) + "-v0"


# The registered ids and the preset each plays: one per preset of the engine (Rules.PRESETS).
ENV_IDS = {_env_id(preset): preset for preset in Rules.PRESETS}

Observation = npt.NDArray[np.float32]
IllegalKind = Literal["terminate", "raise"]


class BurracoEnv(gymnasium.Env[Observation, np.int64]):
    """One hand of ``preset`` (a preset name or a ``burraco.Rules``) from seat ``seat``.

    The other seats are played by ``opponent``: ``'random'``, ``'greedy'``, ``'heuristic'``, a
    ``burraco.Policy``, a Python policy ``f(view, moves) -> index`` (docs/native.md) or a
    ``burraco.ISMCTS``. With four players the partner (seat + 2) is played by ``partner``, by
    default the opponent's policy. ``step`` plays the agent's action, then the other seats until
    the agent is to act again or the hand is over.

    Observation: ``game.observation_tensor(seat)`` (float32). Action: ``Discrete(action_size)``.
    ``info['action_mask']`` (int8) is the legal mask on ``reset`` and every ``step``;
    ``action_masks()`` returns it as bools. Reward: 0 until the hand's end, then the seat's
    margin / ``reward_scale`` (``reward='margin'``) or +1 / -1 / 0 (``reward='win'``), as in the
    PettingZoo environment; ``info['margin']`` gives the margin in points.

    An illegal action id (``illegal='terminate'``, the default, as PettingZoo's classic games):
    nothing is played and the episode ends (``terminated``) with ``illegal_reward`` (-1),
    ``info['illegal_action']`` giving the id. ``illegal='raise'``: ``burraco.IllegalMoveError``
    quoting the id and its move, nothing changed. An id outside the action space always raises.

    ``reset(seed=s)`` deals ``burraco.Game(rules, seed=s)``, and the policies' random streams
    follow from ``s``; ``reset()`` draws the deal from the generator. ``reset(options={'game':
    g})`` starts from a copy of the unfinished game ``g`` of the same rules.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(
        self,
        preset: str | Rules = "italian-2p",
        opponent: PolicyLike = "random",
        *,
        partner: PolicyLike | None = None,
        seat: int = 0,
        reward: RewardKind = "margin",
        reward_scale: float = MARGIN_SCALE,
        illegal: IllegalKind = "terminate",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        check_reward(reward, reward_scale)
        if illegal not in ("terminate", "raise"):
            raise ValueError(f"illegal {illegal!r}: expected 'terminate' or 'raise'")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: expected None or 'ansi'")
        self.rules = rules_of(preset)
        self._game = Game(self.rules, seed=0)
        players = self._game.players
        seat = check_seat(seat, players)
        if not is_real(illegal_reward) or not math.isfinite(float(illegal_reward)):
            raise ValueError(f"illegal_reward {illegal_reward!r}: expected a finite number")
        if partner is not None and players != 4:
            raise ValueError(f"partner {partner!r}: only four players have a fixed partner")
        self.seat = seat
        self.reward = reward
        self.reward_scale = float(reward_scale)
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        opponents = SeatPlayer(opponent, "opponent")
        partners = SeatPlayer(partner, "partner") if partner is not None else opponents
        self.players: dict[int, SeatPlayer] = {
            other: partners if players == 4 and other == (seat + 2) % 4 else opponents
            for other in range(players) if other != seat
        }
        low, high = observation_bounds(self.rules)
        self.observation_space = spaces.Box(low, high, dtype=np.float32)
        self.action_space = spaces.Discrete(self._game.action_size)
        self._done = True  # reset() starts the first episode

    @property
    def game(self) -> Game:
        """The hand being played (read it; play through ``step``)."""
        return self._game

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal mask as bools (all False once the episode is over)."""
        if self._done:
            return np.zeros(self._game.action_size, np.bool_)
        return self._game.legal_mask()

    # ---- the episode --------------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        seed = check_seed(seed)
        given = check_options(options).get("game")
        super().reset(seed=seed)
        if given is not None:
            self._game = self._start_from(given)
        else:
            deal = seed if seed is not None else int(self.np_random.integers(2**63))
            self._game = Game(self.rules, seed=deal)
        self._done = False
        self._play_others()
        if self._game.is_over():
            raise InvalidStateError("the hand ended before the agent's first turn")
        return self._observe(), self._info()

    def _start_from(self, given: object) -> Game:
        if not isinstance(given, Game):
            raise TypeError(f"options['game'] {given!r}: expected a burraco.Game")
        if given.rules != self.rules:
            raise ValueError(f"options['game'] plays {given.rules!r}, not {self.rules!r}")
        if given.is_over():
            raise ValueError("options['game']: the hand is over")
        return given.copy()

    def step(
        self, action: SupportsIndex
    ) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        if self._done:
            raise gymnasium.error.ResetNeeded("the episode is over: call reset() first")
        index = action_index(self._game, action)
        if not is_legal(self._game, index):
            if self.illegal == "raise":
                raise refuse(self._game, index, f"seat {self.seat}")
            self._done = True
            return self._observe(), self.illegal_reward, True, False, self._info(
                illegal_action=index)
        self._game.push_action(index)
        self._play_others()
        if not self._game.is_over():
            return self._observe(), 0.0, False, False, self._info()
        self._done = True
        value = rewards(self._game, self.reward, self.reward_scale)[self.seat]
        margin = margins(self._game)[self.seat]
        return self._observe(), value, True, False, self._info(margin=margin)

    def _play_others(self) -> None:
        """The other seats' moves until the agent is to act or the hand is over."""
        game = self._game
        while not game.is_over() and game.turn != self.seat:
            player = self.players[game.turn]
            game.push(player.move(game, int(self.np_random.integers(2**63))))

    def _observe(self) -> Observation:
        return self._game.observation_tensor(self.seat)

    def _info(self, **extra: Any) -> dict[str, Any]:
        mask = (np.zeros(self._game.action_size, np.int8) if self._done
                else mask_int8(self._game))
        return {"action_mask": mask, **extra}

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode (use 'ansi')")
            return None
        names = {other: player.name for other, player in self.players.items()}
        names[self.seat] = "agent"
        return draw(self._game, Seating(names=names, human=self.seat))


def _register() -> None:
    for env_id, preset in ENV_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point=f"{__name__}:BurracoEnv",
                               vector_entry_point="burraco.envs.vector:BurracoVectorEnv",
                               kwargs={"preset": preset})


_register()
