"""A Gymnasium vector environment stepped in C++: ``num_envs`` hands of one seat against policies,
every env of a step played by the engine without the GIL, on ``threads`` threads (docs/rl.md "The
vector environment").

Env i is the single-agent ``BurracoEnv`` (``burraco.envs.gymnasium``): the same deal, the same
opponents' random streams, so ``BurracoVectorEnv(n, ...)`` gives what
``gymnasium.vector.SyncVectorEnv`` over ``n`` ``BurracoEnv`` gives, observations, masks, rewards
and terminations alike, only faster. Autoreset follows Gymnasium's ``NEXT_STEP`` mode, the mode of
``SyncVectorEnv``. ``gymnasium.make_vec('burraco/Italian2p-v0', num_envs=n)`` makes one (the ids
of ``burraco.envs.gymnasium`` name this class as their vector entry point).
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

try:
    from gymnasium import spaces
    from gymnasium.utils import seeding
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space
except ImportError as error:  # pragma: no cover - exercised in a subprocess by the tests
    raise ImportError(
        "burraco.envs.vector needs Gymnasium: pip install 'burraco[rl]'"
    ) from error

from .._core import ISMCTS, Rules, VectorGames
from ._common import (
    MARGIN_SCALE,
    SEED_LIMIT,
    PolicyLike,
    RewardKind,
    check_options,
    check_reward,
    check_seed,
    is_int,
    observation_bounds,
    rules_of,
)

__all__ = ["BurracoVectorEnv", "make"]

Observations = npt.NDArray[np.float32]
Actions = npt.NDArray[np.int64]
SeedArgument = int | Sequence[int | None] | None


class BurracoVectorEnv(VectorEnv[Observations, Actions, npt.NDArray[Any]]):
    """``num_envs`` hands of ``preset`` from seat ``seat``, the other seats played by ``opponent``
    (with four players seat + 2 by ``partner``, by default the opponent's policy): ``'random'``,
    ``'greedy'``, ``'heuristic'``, or a ``burraco.Policy`` that is built in or native
    (docs/native.md). A Python policy or an ``ISMCTS`` needs the GIL at every move: play those in
    ``BurracoEnv``.

    ``step(actions)`` takes one action id per env (an integer array of ``num_envs``) and returns
    ``(observations, rewards, terminations, truncations, infos)``: observations float32 of shape
    ``(num_envs, 511)``, rewards float64 (0 until a hand's end, then the margin / ``reward_scale``
    or, with ``reward='win'``, +1 / -1 / 0), terminations and truncations bool (truncations always
    False). ``infos['action_mask']`` (int8, ``(num_envs, action_size)``) holds each env's legal
    mask, all zeros for an env whose hand just ended; ``infos['margin']`` (float64, with
    ``infos['_margin']`` telling which envs) the margins in points of the envs whose hand ended.

    Autoreset is Gymnasium's ``NEXT_STEP`` (``metadata['autoreset_mode']``): the step after a
    hand's end resets that env, ignores its action, and returns the new hand's first observation
    with reward 0. Every action is checked before any env is stepped: an id outside the action
    space raises ``burraco.InvalidNotationError``, an illegal one ``burraco.IllegalMoveError``, each
    naming the env and the action, and no env changes.

    ``reset(seed=s)`` seeds env i with ``s + i`` (a list gives each env's seed, ``None`` keeping
    its generator): env i then deals ``burraco.Game(rules, seed=s + i)``, and its generator is
    ``gymnasium.utils.seeding.np_random(s + i)``, from which the opponents' moves and the deals of
    its later (automatic) resets are drawn, as ``BurracoEnv.reset(seed=s + i)`` does.
    ``options={'reset_mask': m}`` resets only the envs where the bool array ``m`` is True.

    ``copy=True`` (the default) returns new arrays from every call; ``copy=False`` returns the
    environment's own arrays, overwritten by the next call: read them, never write into them
    (the engine then clears only the mask entries it set, the fastest).
    ``games`` is the engine underneath (``burraco._core.VectorGames``), which writes into arrays
    of the caller's.
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs: int = 1,
        preset: str | Rules = "italian-2p",
        opponent: PolicyLike = "random",
        *,
        partner: PolicyLike | None = None,
        seat: int = 0,
        reward: RewardKind = "margin",
        reward_scale: float = MARGIN_SCALE,
        threads: int = 1,
        copy: bool = True,
        illegal: str = "raise",
        render_mode: str | None = None,
    ) -> None:
        check_reward(reward, reward_scale)
        if illegal != "raise":
            raise ValueError(f"illegal {illegal!r}: the vector environment only raises on an "
                             "illegal action ('raise')")
        if render_mode is not None:
            raise ValueError(f"render_mode {render_mode!r}: the vector environment does not render")
        if isinstance(opponent, ISMCTS) or isinstance(partner, ISMCTS):
            raise TypeError("an ISMCTS opponent or partner searches with the GIL held; play it "
                            "in BurracoEnv")
        if not is_int(seat):
            raise ValueError(f"seat {seat!r}: expected an int")
        seat = operator.index(seat)  # a NumPy integer too; the engine checks its range
        self.rules = rules_of(preset)
        reward_scale = float(reward_scale)  # check_reward took it: also a NumPy number
        self.games = VectorGames(
            self.rules, num_envs, seat=seat,
            opponent=opponent,  # type: ignore[arg-type]  # the core quotes a bad name itself
            partner=partner,  # type: ignore[arg-type]  # (and refuses a Python policy)
            reward=reward, reward_scale=reward_scale, threads=threads)
        self.num_envs = num_envs
        self.seat = seat
        self.reward = reward
        self.reward_scale = float(reward_scale)
        self.copy = bool(copy)
        self.render_mode = None
        low, high = observation_bounds(self.rules)
        self.single_observation_space = spaces.Box(low, high, dtype=np.float32)
        self.single_action_space = spaces.Discrete(self.games.action_size)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._seeded = np.zeros(num_envs, np.bool_)
        self._buffers = self._new_buffers()

    def _new_buffers(self) -> dict[str, npt.NDArray[Any]]:
        n, size = self.num_envs, self.games.action_size
        return {
            "observations": np.zeros((n, self.games.observation_size), np.float32),
            "masks": np.zeros((n, size), np.int8),
            "rewards": np.zeros(n, np.float64),
            "terminated": np.zeros(n, np.bool_),
            "truncated": np.zeros(n, np.bool_),
            "margins": np.zeros(n, np.float64),
        }

    def _outputs(self) -> dict[str, npt.NDArray[Any]]:
        """The arrays this call writes: new ones (``copy=True``; the rows of envs a partial reset
        leaves alone are copied from the last call) or the environment's own."""
        if not self.copy:
            return self._buffers
        fresh = {name: np.empty_like(array) for name, array in self._buffers.items()}
        self._buffers = fresh
        return fresh

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal masks of the last call as bools, one row per env."""
        return self._buffers["masks"].astype(np.bool_)

    # ---- the episodes -------------------------------------------------------------------------

    def reset(
        self, *, seed: SeedArgument = None, options: dict[str, Any] | None = None
    ) -> tuple[Observations, dict[str, Any]]:
        seeds = self._seeds(seed)
        which = np.ones(self.num_envs, np.bool_)
        options = check_options(options)
        if "game" in options:
            raise ValueError("options['game']: the vector environment deals its hands; start "
                             "from a given game in BurracoEnv")
        if "reset_mask" in options:
            which = self._reset_mask(options.pop("reset_mask"))
        previous = self._buffers
        out = self._outputs()
        if out is not previous:
            out["observations"][:] = previous["observations"]
            out["masks"][:] = previous["masks"]
        for env in np.flatnonzero(which).tolist():
            given = seeds[env]
            if given is not None or not self._seeded[env]:
                generator, _ = seeding.np_random(given)
                state = generator.bit_generator.state["state"]
                self.games.seed(env, state["state"], state["inc"])
                self._seeded[env] = True
            self.games.reset(env, given, out["observations"], out["masks"])
        return out["observations"], {"action_mask": out["masks"], "_action_mask": which}

    def _seeds(self, seed: SeedArgument) -> list[int | None]:
        """Each env's deal seed of ``reset(seed=...)``: TypeError or ValueError quoting a seed
        that is not None, an int in [0, 2**64 - num_envs] or a list of one int or None per env."""
        n = self.num_envs
        if seed is None:
            return [None] * n
        if is_int(seed):
            first = operator.index(seed)  # type: ignore[arg-type]  # is_int checked it
            if not 0 <= first <= SEED_LIMIT - n:
                raise ValueError(f"seed {seed!r}: expected an int from 0 to {SEED_LIMIT - n} "
                                 "(env i deals seed + i, a seed below 2**64)")
            return [first + i for i in range(n)]
        if (isinstance(seed, (str, bytes)) or not isinstance(seed, (Sequence, np.ndarray))
                or (isinstance(seed, np.ndarray) and seed.ndim != 1)):
            raise TypeError(f"seed {seed!r}: expected None, an int, or a list of {n} seeds (an "
                            "int or None per env)")
        seeds = list(seed)
        if len(seeds) != n:
            raise ValueError(f"seed: a list of {len(seeds)} seeds for {n} envs")
        return [check_seed(given, f"seed[{env}]") for env, given in enumerate(seeds)]

    def _reset_mask(self, mask: object) -> npt.NDArray[np.bool_]:
        if not (isinstance(mask, np.ndarray) and mask.dtype == np.bool_
                and mask.shape == (self.num_envs,)):
            raise ValueError(f"options['reset_mask']: expected a bool array of shape "
                             f"({self.num_envs},), got {mask!r}")
        if not mask.any():
            raise ValueError("options['reset_mask']: no env to reset")
        return mask.copy()

    def step(
        self, actions: Actions
    ) -> tuple[Observations, npt.NDArray[np.float64], npt.NDArray[np.bool_],
               npt.NDArray[np.bool_], dict[str, Any]]:
        chosen = np.asarray(actions)
        out = self._outputs()
        # copy=False: the arrays are this env's, which only the engine writes into.
        self.games.step(chosen, out["observations"], out["masks"], out["rewards"],
                        out["terminated"], out["truncated"], out["margins"],
                        masks_unchanged=not self.copy)
        infos: dict[str, Any] = {"action_mask": out["masks"],
                                 "_action_mask": np.ones(self.num_envs, np.bool_)}
        terminated = out["terminated"]
        if terminated.any():
            infos["margin"] = out["margins"]
            infos["_margin"] = terminated.copy()
        return out["observations"], out["rewards"], terminated, out["truncated"], infos

    def random_actions(self, seed: int) -> Actions:
        """A uniformly random legal action id per env (0 for an env waiting for its reset),
        drawn in the engine from ``seed``: a masked random learner for baselines and benches."""
        out = np.empty(self.num_envs, np.int64)
        # A NumPy integer is a seed like an int; anything else the engine refuses, quoting it.
        self.games.random_actions(operator.index(seed) if is_int(seed) else seed, out)
        return out

    def __repr__(self) -> str:
        return f"BurracoVectorEnv({self.games!r})"


def make(num_envs: int = 1, preset: str | Rules = "italian-2p", opponent: PolicyLike = "random",
         **kwargs: Any) -> BurracoVectorEnv:
    """``BurracoVectorEnv(num_envs, preset, opponent, **kwargs)``; the same as
    ``gymnasium.make_vec(env_id, num_envs=num_envs, **kwargs)`` for the ids of
    ``burraco.envs.gymnasium``."""
    return BurracoVectorEnv(num_envs, preset, opponent, **kwargs)
