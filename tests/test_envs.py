"""burraco.envs (docs/rl.md): the PettingZoo AEC environment and the Gymnasium one.

* The libraries' own conformance checks: PettingZoo's ``api_test`` and ``seed_test`` (two and four
  players), Gymnasium's ``check_env`` on every registered id and on hand-built environments.
* The environments are the engine: an AEC trajectory is a ``burraco.Game`` stepped with the same
  action ids (the same tensors, masks and turns, rewards the result's margins); a Gymnasium step is
  the agent's action then legal moves of the other seats up to the agent's next turn.
* Determinism from the seed, observations and drawings that do not change when only cards the
  agent may not see change (``game.determinize``), illegal actions refused or terminating as
  documented, whole episodes of random agents, the ImportError without the extra, and the
  examples of docs/rl.md.
"""

from __future__ import annotations

import doctest
import re
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

import burraco

gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from burraco.envs import gymnasium as gym_envs  # noqa: E402
from burraco.envs import pettingzoo as pz_envs  # noqa: E402
from hostile import HugeIndex, RaisingIndex  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SCALE = 2000.0  # the documented default reward_scale


def expected_margins(game: burraco.Game) -> list[float]:
    """Each seat's margin computed here from the result: its score less the best score of a seat
    of another side (3 players: the seat's share, half points / 2)."""
    result = game.result()
    if result.player_scores is not None:
        scores = [half / 2 for half in result.player_scores]
    else:
        totals = {side.side: side.total for side in result.sides}
        scores = [float(totals[game.side_of(seat)]) for seat in range(game.players)]
    return [scores[seat] - max(scores[other] for other in range(game.players)
                               if game.side_of(other) != game.side_of(seat))
            for seat in range(game.players)]


def masked_choice(rng: np.random.Generator, mask: np.ndarray) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


def played_game(preset: str, seed: int, moves: int) -> burraco.Game:
    """A hand after ``moves`` random legal moves (fewer if it ends first, then one move less)."""
    game = burraco.Game(burraco.Rules(preset), seed=seed)
    for step in range(moves):
        copy = game.copy()
        copy.push(copy.policy_move("random", step))
        if copy.is_over():
            break
        game = copy
    return game


# ---- PettingZoo ---------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["italian-2p", "italian"])
def test_pettingzoo_api_test(preset):
    with warnings.catch_warnings():
        # The two warnings every classic card game gives: its observation is a dict.
        warnings.filterwarnings("ignore", "Observation is not a NumPy array")
        warnings.filterwarnings("ignore", "Observation space for each agent probably should be")
        api_test(pz_envs.env(preset=preset), num_cycles=400, verbose_progress=False)
        api_test(pz_envs.raw_env(preset=preset), num_cycles=100, verbose_progress=False)


@pytest.mark.parametrize("preset", ["italian-2p", "italian"])
def test_pettingzoo_seed_test(preset):
    seed_test(lambda: pz_envs.env(preset=preset), num_cycles=300)


@pytest.mark.parametrize("preset", ["italian-2p", "italian", "italian-3p", "brazilian"])
@pytest.mark.parametrize("reward", ["margin", "win"])
def test_aec_trajectory_is_the_game_stepped_with_the_same_actions(preset, reward):
    env = pz_envs.env(preset=preset, reward=reward)
    env.reset(seed=11)
    game = burraco.Game(burraco.Rules(preset), seed=11)
    rng = np.random.default_rng(3)
    assert env.possible_agents == [f"player_{seat}" for seat in range(game.players)]
    while not game.is_over():
        agent = env.agent_selection
        assert agent == f"player_{game.turn}"
        for other in env.agents:
            seat = int(other.split("_")[1])
            observation = env.observe(other)
            assert observation["observation"].dtype == np.float32
            assert np.array_equal(observation["observation"], game.observation_tensor(seat))
            mask = observation["action_mask"]
            assert mask.dtype == np.int8
            if other == agent:
                assert np.array_equal(mask, game.legal_mask().astype(np.int8))
            else:
                assert not mask.any()
        action = masked_choice(rng, game.legal_mask())
        env.step(action)
        game.push_action(action)
    margins = expected_margins(game)
    final = {}
    for agent in env.agent_iter():
        _, value, terminated, truncated, info = env.last()
        assert terminated and not truncated
        final[agent] = (value, info["margin"])
        env.step(None)
    assert not env.agents
    for seat, margin in enumerate(margins):
        value, points = final[f"player_{seat}"]
        assert points == margin
        assert value == (float(np.sign(margin)) if reward == "win" else margin / SCALE)
    if game.players == 4:  # partners share their side's reward
        assert final["player_0"] == final["player_2"] and final["player_1"] == final["player_3"]


def aec_trajectory(preset: str, seed: int | None, actions_seed: int, reset_first: int | None):
    env = pz_envs.env(preset=preset)
    if reset_first is not None:
        env.reset(seed=reset_first)
    env.reset(seed=seed)
    rng = np.random.default_rng(actions_seed)
    out = []
    for agent in env.agent_iter():
        observation, value, terminated, truncated, _ = env.last()
        out.append((agent, observation["observation"].tobytes(), value))
        if terminated or truncated:
            env.step(None)
        else:
            env.step(masked_choice(rng, observation["action_mask"]))
    return out


def test_aec_same_seed_same_trajectory():
    first = aec_trajectory("italian", 5, 1, None)
    assert aec_trajectory("italian", 5, 1, 99) == first
    assert aec_trajectory("italian", 6, 1, None) != first
    # reset() without a seed deals from the generator the last seed started.
    assert aec_trajectory("italian", None, 1, 7) == aec_trajectory("italian", None, 1, 7)
    assert aec_trajectory("italian", None, 1, 7) != aec_trajectory("italian", None, 1, 8)


def test_aec_reset_seed_is_the_deal_seed():
    env = pz_envs.raw_env("italian-2p")
    env.reset(seed=123)
    assert env.game == burraco.Game(burraco.Rules("italian-2p"), seed=123)


@pytest.mark.parametrize("preset", ["italian-2p", "italian", "italian-3p"])
def test_aec_observation_and_drawing_hide_the_other_hands(preset):
    # Two positions that differ only in cards the seat to act may not see: the same observation
    # and the same drawing for that seat. (Both come from state strings, with no history, so that
    # the drawings of the discard pile agree too.)
    for moves in (0, 9, 40):
        game = played_game(preset, 21, moves)
        seat = game.turn
        original = burraco.Game.from_state_string(game.state_string())
        twin = game.determinize(seat, 5)
        assert any(str(twin.hand(other)) != str(game.hand(other))
                   for other in range(game.players) if other != seat)
        views = []
        for start in (original, twin):
            env = pz_envs.env(preset=preset, render_mode="ansi")
            env.reset(options={"game": start})
            observation = env.observe(f"player_{seat}")
            views.append((observation["observation"].tobytes(),
                          observation["action_mask"].tobytes(), env.render()))
        assert views[0] == views[1]
        assert f"Hand of seat {seat} (player_{seat}) ({len(game.hand(seat))}):" in views[0][2]


def test_aec_raw_env_refuses_an_illegal_action_and_changes_nothing():
    env = pz_envs.raw_env("italian-2p")
    env.reset(seed=4)
    before = (env.game.state_string(), list(env.game.moves), env.agent_selection,
              dict(env.rewards), dict(env._cumulative_rewards))
    discard = env.game.action_id("discard " + str(list(env.game.hand(0))[0]))
    with pytest.raises(burraco.IllegalMoveError,
                       match=rf"illegal action {discard} \('discard .*'\) for player_0 in the "
                             r"draw phase: nothing was played; the legal actions are 0 \('draw'\)"):
        env.step(discard)
    with pytest.raises(burraco.InvalidNotationError, match=r"action 99999: expected an action id"):
        env.step(99999)
    with pytest.raises(TypeError, match="action 1.5"):
        env.step(1.5)
    assert (env.game.state_string(), list(env.game.moves), env.agent_selection,
            dict(env.rewards), dict(env._cumulative_rewards)) == before
    env.step(np.int32(0))  # NumPy integers are ids too
    assert env.game.moves == [burraco.Move("draw")]


def test_aec_env_illegal_action_ends_the_hand_as_classic_games_do():
    env = pz_envs.env(preset="italian")
    env.reset(seed=4)
    env.step(5)  # PettingZoo logs "Illegal move made, game terminating with current player losing."
    rewards = {}
    for agent in env.agent_iter():
        _, value, terminated, truncated, _ = env.last()
        assert terminated and truncated
        rewards[agent] = value
        env.step(None)
    assert rewards == {"player_0": -1.0, "player_1": 0.0, "player_2": 0.0, "player_3": 0.0}
    strict = pz_envs.env(preset="italian", illegal_reward=None)
    strict.reset(seed=4)
    with pytest.raises(burraco.IllegalMoveError, match=r"illegal action 5 \('discard 2c'\)"):
        strict.step(5)


@pytest.mark.parametrize("preset", burraco.Rules.PRESETS)
def test_aec_masked_random_agents_finish_the_hand(preset):
    env = pz_envs.env(preset=preset)
    for seed in range(3):
        env.reset(seed=seed)
        steps = 0
        for agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            action = None if terminated or truncated else env.action_space(agent).sample(
                observation["action_mask"])
            env.step(action)
            steps += 1
        assert not env.agents and steps > env.num_agents
        assert env.unwrapped.game.is_over()


def test_aec_unmasked_random_agent_episode_ends():
    # A random agent that ignores the mask plays an illegal id soon; the hand then ends.
    env = pz_envs.env(preset="italian-2p")
    env.reset(seed=0)
    env.action_space("player_0").seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for agent in env.agent_iter(10_000):
            _, _, terminated, truncated, _ = env.last()
            env.step(None if terminated or truncated else env.action_space(agent).sample())
    assert not env.agents


def test_aec_render():
    env = pz_envs.env(preset="italian", render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert isinstance(text, str) and "Turn: seat 0 (player_0), draw phase" in text
    assert "Hand of seat 1 (player_1): 11 cards" in text
    quiet = pz_envs.env(preset="italian")
    quiet.reset(seed=2)
    with pytest.warns(UserWarning, match="render_mode"):
        assert quiet.render() is None


def test_aec_arguments_are_checked():
    with pytest.raises(ValueError, match="reward 'points'"):
        pz_envs.env(reward="points")
    with pytest.raises(ValueError, match="reward_scale 0"):
        pz_envs.env(reward_scale=0)
    with pytest.raises(ValueError, match="render_mode 'human'"):
        pz_envs.env(render_mode="human")
    with pytest.raises(burraco.InvalidNotationError, match="nope"):
        pz_envs.env(preset="nope")
    env = pz_envs.raw_env(burraco.Rules("italian-2p", jokers=2))
    with pytest.raises(ValueError, match="options\\['game'\\] plays"):
        env.reset(options={"game": burraco.Game(burraco.Rules("italian-2p"), seed=1)})
    finished = burraco.Game(burraco.Rules("italian-2p", jokers=2), seed=1)
    finished.playout("greedy")
    with pytest.raises(ValueError, match="the hand is over"):
        env.reset(options={"game": finished})


# ---- Gymnasium ----------------------------------------------------------------------------------


@pytest.mark.parametrize("env_id", sorted(gym_envs.ENV_IDS))
def test_gymnasium_check_env_on_every_registered_id(env_id):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # check_env's warnings (logger.warn) fail the test
        env = gymnasium.make(env_id, opponent="greedy")
        assert env.spec is not None and env.unwrapped.spec is not None
        check_env(env.unwrapped)  # with a spec: the render modes and close() are checked too
        env.close()


@pytest.mark.parametrize("kwargs", [
    {"preset": "italian-2p", "opponent": "heuristic", "seat": 1, "reward": "win"},
    {"preset": "italian", "opponent": "random", "partner": "greedy", "seat": 3},
    {"preset": "italian-3p", "opponent": burraco.Policy("greedy"), "seat": 2,
     "illegal": "terminate", "render_mode": "ansi"},
])
def test_gymnasium_check_env_on_built_environments(kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # Built by hand the environment has no spec: check_env says it cannot test the other
        # render modes, and that is the one warning allowed.
        warnings.filterwarnings("ignore", ".*Not able to test alternative render modes")
        check_env(gym_envs.BurracoEnv(**kwargs))


def test_gymnasium_make_registers_every_preset():
    assert sorted(gym_envs.ENV_IDS.values()) == sorted(burraco.Rules.PRESETS)
    for env_id, preset in gym_envs.ENV_IDS.items():
        env = gymnasium.make(env_id)
        assert env.unwrapped.rules == burraco.Rules(preset)
    env = gymnasium.make("burraco.envs.gymnasium:burraco/Italian2p-v0", opponent="heuristic")
    assert env.unwrapped.players[1].name == "heuristic"


class Recorder:
    """A Python policy that plays the first move and remembers the seats it played."""

    def __init__(self):
        self.seats = set()

    def __call__(self, view, moves):
        self.seats.add(view.seat)
        return 0


@pytest.mark.parametrize("preset,seat", [("italian-2p", 0), ("italian-2p", 1), ("italian", 1),
                                         ("italian-3p", 2), ("brazilian", 0)])
def test_gymnasium_step_is_the_action_then_the_others_up_to_the_agents_turn(preset, seat):
    env = gym_envs.BurracoEnv(preset, opponent="greedy", seat=seat)
    observation, info = env.reset(seed=8)
    reference = burraco.Game(burraco.Rules(preset), seed=8)
    rng = np.random.default_rng(1)
    terminated = False
    while True:
        # What the other seats played since the agent's last action: legal moves, none of them
        # the agent's (the turn reaches the agent only at the end).
        for move in env.game.moves[len(reference.moves):]:
            assert reference.turn != seat
            reference.push(move)
        assert reference == env.game
        if terminated:
            break
        assert reference.turn == seat
        assert np.array_equal(observation, reference.observation_tensor(seat))
        assert observation in env.observation_space
        assert info["action_mask"].dtype == np.int8
        assert np.array_equal(info["action_mask"], reference.legal_mask().astype(np.int8))
        assert np.array_equal(env.action_masks(), reference.legal_mask())
        action = masked_choice(rng, info["action_mask"])
        observation, value, terminated, truncated, info = env.step(action)
        assert not truncated
        reference.push_action(action)
        if not terminated:
            assert value == 0.0
    assert reference.is_over()
    margin = expected_margins(reference)[seat]
    assert info["margin"] == margin and value == margin / SCALE
    assert not info["action_mask"].any() and not env.action_masks().any()
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step(0)


def test_gymnasium_partner_and_opponents():
    opponents, partner = Recorder(), Recorder()
    env = gym_envs.BurracoEnv("italian", opponent=opponents, partner=partner, seat=1)
    _, info = env.reset(seed=3)
    for _ in range(30):
        _, _, terminated, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        if terminated:
            break
    assert opponents.seats == {0, 2} and partner.seats == {3}
    with pytest.raises(ValueError, match="only four players"):
        gym_envs.BurracoEnv("italian-2p", partner="greedy")


def test_gymnasium_ismcts_opponent():
    search = burraco.ISMCTS(iterations=8, seed=1, max_rollout_moves=10)
    env = gym_envs.BurracoEnv("italian-2p", opponent=search)
    _, info = env.reset(seed=1)
    for _ in range(4):
        # The lowest legal id: draw, then a discard (ids 4..56 come before the melds).
        _, _, terminated, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        assert terminated or env.game.turn == 0
    assert len(env.game.moves) > 4  # the search played seat 1


def gym_trajectory(opponent: str, seed: int | None, reset_first: int | None):
    env = gymnasium.make("burraco/Italian-v0", opponent=opponent)
    if reset_first is not None:
        env.reset(seed=reset_first)
    observation, info = env.reset(seed=seed)
    rng = np.random.default_rng(0)
    out = [observation.tobytes()]
    terminated = False
    while not terminated:
        observation, value, terminated, _, info = env.step(masked_choice(rng, info["action_mask"]))
        out.append((observation.tobytes(), value))
    return out, env.unwrapped.game.moves


@pytest.mark.parametrize("opponent", ["random", "heuristic"])
def test_gymnasium_same_seed_same_trajectory(opponent):
    first = gym_trajectory(opponent, 9, None)
    assert gym_trajectory(opponent, 9, 1) == first
    assert gym_trajectory(opponent, 10, None) != first
    assert gym_trajectory(opponent, None, 4) == gym_trajectory(opponent, None, 4)


@pytest.mark.parametrize("preset", ["italian-2p", "italian"])
def test_gymnasium_observation_and_drawing_hide_the_other_hands(preset):
    for moves in (0, 12, 50):
        game = played_game(preset, 17, moves)
        seat = game.turn
        views = []
        for start in (burraco.Game.from_state_string(game.state_string()),
                      game.determinize(seat, 3)):
            env = gym_envs.BurracoEnv(preset, seat=seat, render_mode="ansi")
            observation, info = env.reset(options={"game": start})
            views.append((observation.tobytes(), info["action_mask"].tobytes(), env.render()))
        assert views[0] == views[1]


def test_gymnasium_illegal_action_terminates_by_default_and_changes_nothing():
    env = gym_envs.BurracoEnv("italian-2p")
    observation, _ = env.reset(seed=4)
    state = env.game.state_string()
    after, value, terminated, truncated, info = env.step(5)
    assert (value, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, 5)
    assert np.array_equal(after, observation) and not info["action_mask"].any()
    assert env.game.state_string() == state and not env.game.moves
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step(0)


def test_gymnasium_illegal_action_raises_when_asked_and_changes_nothing():
    env = gym_envs.BurracoEnv("italian-2p", illegal="raise")
    env.reset(seed=4)
    state = env.game.state_string()
    with pytest.raises(burraco.IllegalMoveError,
                       match=r"illegal action 5 \('discard 2c'\) for seat 0 in the draw phase: "
                             r"nothing was played; the legal actions are 0 \('draw'\), 1 \('pile'\)"):
        env.step(5)
    with pytest.raises(burraco.InvalidNotationError, match="action -1"):
        env.step(-1)
    assert env.game.state_string() == state
    _, value, terminated, _, info = env.step(0)
    assert (value, terminated) == (0.0, False) and env.game.moves == [burraco.Move("draw")]


@pytest.mark.parametrize("env_id", sorted(gym_envs.ENV_IDS))
def test_gymnasium_masked_random_episodes_finish(env_id):
    env = gymnasium.make(env_id, opponent="random", reward="win")
    for seed in range(3):
        _, info = env.reset(seed=seed)
        terminated = truncated = False
        while not (terminated or truncated):
            action = env.action_space.sample(info["action_mask"])
            _, value, terminated, truncated, info = env.step(action)
        assert terminated and not truncated and value in (-1.0, 0.0, 1.0)
        assert "illegal_action" not in info and env.unwrapped.game.is_over()


def test_gymnasium_unmasked_random_episode_ends():
    env = gymnasium.make("burraco/Italian2p-v0")
    env.reset(seed=0)
    env.action_space.seed(0)
    for _ in range(10_000):
        _, _, terminated, truncated, _ = env.step(env.action_space.sample())
        if terminated or truncated:
            break
    assert terminated


def test_gymnasium_render():
    env = gymnasium.make("burraco/Italian-v0", opponent="greedy", render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert isinstance(text, str) and "Hand of seat 0 (agent) (11):" in text
    assert "Hand of seat 1 (greedy): 11 cards" in text and "Turn: seat 0 (agent)" in text


def test_gymnasium_arguments_are_checked():
    with pytest.raises(TypeError, match="opponent 3"):
        gym_envs.BurracoEnv(opponent=3)
    with pytest.raises(burraco.InvalidNotationError, match="'best'"):
        gym_envs.BurracoEnv(opponent="best")
    with pytest.raises(ValueError, match="seat 2"):
        gym_envs.BurracoEnv("italian-2p", seat=2)
    with pytest.raises(ValueError, match="illegal 'ignore'"):
        gym_envs.BurracoEnv(illegal="ignore")
    with pytest.raises(ValueError, match="reward 'points'"):
        gymnasium.make("burraco/Italian2p-v0", reward="points")


BAD_SEEDS = [
    (1.5, TypeError, r"seed 1\.5: expected None or an int from 0 to 2\*\*64 - 1"),
    (float("nan"), TypeError, r"seed nan: expected None or an int"),
    (True, TypeError, r"seed True: expected None or an int"),
    ("3", TypeError, r"seed '3': expected None or an int"),
    (RaisingIndex(), TypeError, r"seed <.*RaisingIndex.*>: expected None or an int"),
    (HugeIndex(), TypeError, r"seed <.*HugeIndex.*>: expected None or an int"),
    (-1, ValueError, r"seed -1: expected None or an int from 0 to 2\*\*64 - 1"),
    (2**64, ValueError, r"seed 18446744073709551616: expected None or an int"),
]


@pytest.mark.parametrize("seed, error, message", BAD_SEEDS)
def test_gymnasium_and_aec_refuse_a_bad_seed_and_change_nothing(seed, error, message):
    gym_env = gym_envs.BurracoEnv("italian-2p")
    gym_env.reset(seed=5)
    aec = pz_envs.raw_env("italian-2p")
    aec.reset(seed=5)
    states = gym_env._game.state_string(), aec._game.state_string()
    draws = gym_env.np_random.bit_generator.state, aec._np_random.bit_generator.state
    with pytest.raises(error, match=message):
        gym_env.reset(seed=seed)
    with pytest.raises(error, match=message):
        aec.reset(seed=seed)
    assert (gym_env._game.state_string(), aec._game.state_string()) == states
    assert (gym_env.np_random.bit_generator.state, aec._np_random.bit_generator.state) == draws


def test_gymnasium_and_aec_take_numpy_integer_seeds():
    top = 2**64 - 1
    for given, as_int in ((np.uint64(top), top), (np.int32(7), 7)):
        assert (gym_envs.BurracoEnv().reset(seed=given)[0]
                == gym_envs.BurracoEnv().reset(seed=as_int)[0]).all()
        aec, expected = pz_envs.raw_env(), pz_envs.raw_env()
        aec.reset(seed=given)
        expected.reset(seed=as_int)
        assert aec._game.state_string() == expected._game.state_string()


def test_gymnasium_and_aec_refuse_options_that_are_not_a_dict():
    with pytest.raises(TypeError, match=r"options \[1\]: expected None or a dict"):
        gym_envs.BurracoEnv().reset(seed=1, options=[1])
    with pytest.raises(TypeError, match=r"options 'game': expected None or a dict"):
        pz_envs.raw_env().reset(seed=1, options="game")


def test_an_action_whose_index_fails_or_is_huge_is_refused():
    env = gym_envs.BurracoEnv("italian-2p", illegal="raise")
    env.reset(seed=2)
    aec = pz_envs.raw_env("italian-2p")
    aec.reset(seed=2)
    state = env._game.state_string(), aec._game.state_string()
    for step in (env.step, aec.step):
        with pytest.raises(TypeError, match=r"action <.*RaisingIndex.*>: expected an integer "
                                            r"action id \(its __index__ raised RuntimeError: no "
                                            r"index here\)"):
            step(RaisingIndex())
        with pytest.raises(burraco.InvalidNotationError,
                           match=r"action <.*HugeIndex.*>: expected an action id from 0"):
            step(HugeIndex())
        for bad in (float("nan"), np.array([0]), np.float64(1.0)):
            with pytest.raises(TypeError, match=r"action .*: expected an integer action id"):
                step(bad)
        with pytest.raises(burraco.InvalidNotationError,
                           match=r"action np\.uint64\(18446744073709551615\)|action "
                                 r"18446744073709551615"):
            step(np.uint64(2**64 - 1))
    assert (env._game.state_string(), aec._game.state_string()) == state


def test_numpy_numbers_are_numbers_and_a_reward_must_be_finite():
    # np.float32 scales and np.int64 seats were refused as if they were not numbers; a NaN
    # illegal_reward was taken (and would have been every illegal step's reward).
    env = gym_envs.BurracoEnv("italian-2p", seat=np.int64(1), reward_scale=np.float32(500.0))
    assert (env.seat, env.reward_scale) == (1, 500.0) and type(env.seat) is int
    aec = pz_envs.raw_env("italian-2p", reward_scale=np.float64(250.0))
    assert aec.reward_scale == 250.0
    for bad in (float("nan"), float("inf"), "-1", RaisingIndex(), True):
        with pytest.raises(ValueError, match=r"illegal_reward .*: expected a finite number"):
            gym_envs.BurracoEnv(illegal_reward=bad)
    for bad in (np.int64(2), np.float64(1.0), RaisingIndex()):
        with pytest.raises(ValueError, match=r"seat .*: expected an int from 0 to 1"):
            gym_envs.BurracoEnv("italian-2p", seat=bad)
    with pytest.raises(ValueError, match=r"reward_scale np\.float32\(nan\): expected a positive"):
        gym_envs.BurracoEnv(reward_scale=np.float32("nan"))


# ---- packaging and docs -------------------------------------------------------------------------


def run_python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)


def test_the_core_package_imports_neither_library():
    done = run_python("import sys, burraco, burraco.envs; "
                      "print(sorted(m for m in sys.modules if m.split('.')[0] in "
                      "('gymnasium', 'pettingzoo')))")
    assert done.returncode == 0 and done.stdout.strip() == "[]", done.stderr


@pytest.mark.parametrize("module,missing", [("burraco.envs.gymnasium", "gymnasium"),
                                            ("burraco.envs.pettingzoo", "pettingzoo")])
def test_without_the_extra_the_import_says_what_to_install(module, missing):
    done = run_python(f"import sys; sys.modules[{missing!r}] = None; import {module}")
    assert done.returncode != 0
    assert "ImportError" in done.stderr and "pip install 'burraco[rl]'" in done.stderr


def test_docs_rl_examples():
    """docs/rl.md's ``>>>`` examples run (as tests/test_docs.py runs the other pages')."""
    path = ROOT / "docs" / "rl.md"
    text = re.sub(r"^```.*$", "", path.read_text(encoding="utf-8"), flags=re.MULTILINE)
    test = doctest.DocTestParser().get_doctest(text, {}, "rl.md", str(path), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    report: list[str] = []
    runner.run(test, out=report.append)
    assert runner.failures == 0, "".join(report)
    assert len(test.examples) >= 10, "docs/rl.md lost examples"
