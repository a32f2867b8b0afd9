"""A PettingZoo AEC environment: one hand of Burraco, one agent per seat (docs/rl.md).

``env(preset='italian-2p')`` follows PettingZoo's classic card games: agents ``player_0`` ..
``player_{n-1}`` (the agent of seat i is ``player_i``; with four players the sides are seats 0, 2
and seats 1, 3), each observing ``{'observation': float32 tensor, 'action_mask': int8 mask}`` and
acting with ``Discrete(game.action_size)`` action ids (docs/search.md "Actions and tensors for
learning"). A turn is several actions (draw, then melds and lay-offs, then a discard), so the
same agent is selected several times in a row. Rewards come only when the hand ends, which
terminates every agent; the hand is the episode.

``env()`` wraps :class:`raw_env` as PettingZoo's classic environments are wrapped: an illegal
action ends the hand at once with ``illegal_reward`` (-1) for the agent that played it and 0 for
the others (``TerminateIllegalWrapper``), an action outside the space fails an assertion, and the
order of calls is enforced. ``raw_env`` itself refuses an illegal action with
``burraco.IllegalMoveError`` quoting the id and its move, and changes nothing.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

try:
    import gymnasium
    from gymnasium import spaces
    from gymnasium.utils import seeding
    from pettingzoo import AECEnv  # type: ignore[import-untyped,unused-ignore]
    from pettingzoo.utils import wrappers  # type: ignore[import-untyped,unused-ignore]
except ImportError as error:  # pragma: no cover - exercised in a subprocess by the tests
    raise ImportError(
        "burraco.envs.pettingzoo needs PettingZoo and Gymnasium: pip install 'burraco[rl]'"
    ) from error

from .._board import Seating, draw
from .._core import Game, Rules
from ._common import (
    MARGIN_SCALE,
    RewardKind,
    action_index,
    agent_names,
    check_options,
    check_reward,
    check_seed,
    is_legal,
    margins,
    mask_int8,
    observation_bounds,
    refuse,
    rewards,
    rules_of,
)

__all__ = ["env", "raw_env"]

Observation = dict[str, npt.NDArray[Any]]


def env(
    preset: str | Rules = "italian-2p",
    render_mode: str | None = None,
    reward: RewardKind = "margin",
    reward_scale: float = MARGIN_SCALE,
    illegal_reward: float | None = -1.0,
) -> Any:
    """The AEC environment with PettingZoo's classic wrappers (see the module's docstring);
    ``illegal_reward=None`` leaves out the termination on an illegal action, so that
    :class:`raw_env`'s ``IllegalMoveError`` reaches the caller."""
    wrapped: Any = raw_env(preset, render_mode=render_mode, reward=reward,
                           reward_scale=reward_scale)
    if illegal_reward is not None:
        wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=illegal_reward)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv):  # type: ignore[misc]  # AECEnv is untyped (Any)
    """One hand of ``preset`` (a preset name or a ``burraco.Rules``) as an AEC environment.

    ``reward='margin'``: at the hand's end each agent gets its margin in points (its side's total
    less the other side's; docs/rl.md "Rewards") divided by ``reward_scale`` (2000 by default;
    1 gives points). ``reward='win'``: +1, -1 or 0 by the sign of that margin.
    ``reset(seed=s)`` deals ``burraco.Game(rules, seed=s)``; ``reset()`` without a seed deals
    from the environment's generator (seeded by the last seed given). ``reset(options={'game':
    g})`` starts from a copy of the unfinished game ``g`` of the same rules (other keys of
    ``options`` are ignored). ``render_mode='ansi'``: ``render()`` returns the table as the
    selected agent sees it (``burraco play``'s drawing, no other hand shown).
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "name": "burraco_v0",
                                "is_parallelizable": False, "render_fps": 1}

    def __init__(
        self,
        preset: str | Rules = "italian-2p",
        render_mode: str | None = None,
        reward: RewardKind = "margin",
        reward_scale: float = MARGIN_SCALE,
    ) -> None:
        super().__init__()
        check_reward(reward, reward_scale)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: expected None or 'ansi'")
        self.rules = rules_of(preset)
        self.render_mode = render_mode
        self.reward = reward
        self.reward_scale = float(reward_scale)
        self._game = Game(self.rules, seed=0)
        self.possible_agents = agent_names(self._game.players)
        self.agents = self.possible_agents[:]
        size = self._game.action_size
        low, high = observation_bounds(self.rules)
        self.observation_spaces = {
            agent: spaces.Dict({
                "observation": spaces.Box(low, high, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(size,), dtype=np.int8),
            })
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(size) for agent in self.possible_agents}
        self._np_random: np.random.Generator | None = None
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self._game.turn]

    # ---- spaces -------------------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def game(self) -> Game:
        """The hand being played (read it; play through ``step``)."""
        return self._game

    def seat_of(self, agent: str) -> int:
        """The seat of an agent: ``player_i`` sits at seat i."""
        return self.possible_agents.index(agent)

    # ---- the AEC cycle ------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        seed = check_seed(seed)
        given = check_options(options).get("game")
        if seed is not None or self._np_random is None:
            self._np_random, _ = seeding.np_random(seed)
        if given is not None:
            self._game = self._start_from(given)
        else:
            deal = seed if seed is not None else int(self._np_random.integers(2**63))
            self._game = Game(self.rules, seed=deal)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self._game.turn]

    def _start_from(self, given: object) -> Game:
        if not isinstance(given, Game):
            raise TypeError(f"options['game'] {given!r}: expected a burraco.Game")
        if given.rules != self.rules:
            raise ValueError(f"options['game'] plays {given.rules!r}, not {self.rules!r}")
        if given.is_over():
            raise ValueError("options['game']: the hand is over")
        return given.copy()

    def observe(self, agent: str) -> Observation:
        seat = self.seat_of(agent)
        acting = (agent == self.agent_selection and not self._game.is_over()
                  and not self.terminations.get(agent, True)
                  and not self.truncations.get(agent, True))
        mask = mask_int8(self._game) if acting else np.zeros(self._game.action_size, np.int8)
        return {"observation": self._game.observation_tensor(seat), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        index = action_index(self._game, action)
        if not is_legal(self._game, index):
            raise refuse(self._game, index, agent)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self._game.push_action(index)
        if self._game.is_over():
            points = margins(self._game)
            for seat, value in enumerate(rewards(self._game, self.reward, self.reward_scale)):
                name = self.possible_agents[seat]
                self.rewards[name] = value
                self.terminations[name] = True
                self.infos[name] = {"margin": points[seat]}
        else:
            self.agent_selection = self.possible_agents[self._game.turn]
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode (use 'ansi')")
            return None
        seat = self.seat_of(self.agent_selection)
        seating = Seating(names=dict(enumerate(self.possible_agents)), human=seat)
        return draw(self._game, seating)

    def close(self) -> None:
        pass
