"""burraco.envs.vector (docs/rl.md "The vector environment"): the C++ vector environment is the
single-agent BurracoEnv stepped one by one.

* Equality: ``BurracoVectorEnv(n, ...)`` and Gymnasium's ``SyncVectorEnv`` over ``n``
  ``BurracoEnv`` (``gymnasium.make_vec(..., vectorization_mode='sync')``), reset with the same
  seeds and given the same actions, return the same observations, masks, rewards, terminations,
  truncations and info keys, over many hands of every preset, every built-in opponent, both reward
  kinds and both seats; the first deal of env i is ``Game(rules, seed=s + i)``.
* Autoreset is NEXT_STEP: the step after a hand's end ignores the action (even an invalid one) and
  returns the next hand, reward 0; ``reset_mask`` resets only the envs it names.
* Bad input: an action outside the space or an illegal one raises, naming the env and the action,
  and leaves every env as it was; arrays of the wrong dtype, shape, layout, or sharing memory are
  refused; so are policies that need the GIL.
* Threads: one, two or three threads give the same results.
"""

from __future__ import annotations

import numpy as np
import pytest

import burraco

gymnasium = pytest.importorskip("gymnasium")

import burraco.envs.gymnasium  # noqa: E402,F401  (registers the ids)
from burraco.envs.vector import BurracoVectorEnv, make  # noqa: E402
from hostile import HugeIndex, RaisingIndex  # noqa: E402

ENV_ID = "burraco/Italian2p-v0"


def masked_actions(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    """A random legal id per row (0 for a row with no legal id: an env waiting for its reset)."""
    return np.array([rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in masks],
                    np.int64)


def reference(num_envs: int, **kwargs: object) -> gymnasium.vector.VectorEnv:
    return gymnasium.make_vec(ENV_ID, num_envs=num_envs, vectorization_mode="sync", **kwargs)


def assert_same_step(expected: tuple, got: tuple, where: str) -> None:
    for k, name in enumerate(("observations", "rewards", "terminations", "truncations")):
        np.testing.assert_array_equal(got[k], expected[k], err_msg=f"{where}: {name}")
    assert got[0].dtype == np.float32 and got[1].dtype == np.float64
    assert got[2].dtype == np.bool_ and got[3].dtype == np.bool_
    expected_info, got_info = expected[4], got[4]
    assert set(got_info) == set(expected_info), where
    for key in expected_info:
        np.testing.assert_array_equal(got_info[key], expected_info[key], err_msg=f"{where}: {key}")


def run_both(steps: int, seed: int, num_envs: int, threads: int = 1, copy: bool = True,
             **kwargs: object) -> int:
    """Steps both vector envs with the same random legal actions; returns the hands finished."""
    expected_env, got_env = reference(num_envs, **kwargs), BurracoVectorEnv(
        num_envs, threads=threads, copy=copy, **kwargs)
    expected, got = expected_env.reset(seed=seed), got_env.reset(seed=seed)
    np.testing.assert_array_equal(got[0], expected[0])
    np.testing.assert_array_equal(got[1]["action_mask"], expected[1]["action_mask"])
    rng = np.random.default_rng(seed)
    masks, finished = got[1]["action_mask"], 0
    for t in range(steps):
        actions = masked_actions(rng, masks)
        expected, got = expected_env.step(actions), got_env.step(actions)
        assert_same_step(expected, got, f"{kwargs} step {t}")
        masks = got[4]["action_mask"]
        finished += int(got[2].sum())
    return finished


@pytest.mark.parametrize("preset, opponent, reward, seat", [
    ("italian-2p", "random", "margin", 0),
    ("italian-2p", "random", "win", 1),
    ("italian-2p", "greedy", "margin", 1),
    ("italian-2p", "heuristic", "win", 0),
    ("online-2p", "random", "margin", 0),
    ("italian-3p", "random", "win", 2),
    ("italian", "greedy", "margin", 1),
    ("brazilian", "random", "margin", 0),
])
def test_equal_to_stepping_burraco_env_one_by_one(preset, opponent, reward, seat):
    finished = run_both(250, seed=11, num_envs=4, preset=preset, opponent=opponent,
                        reward=reward, seat=seat)
    assert finished >= 4  # every env went through an autoreset at least once on average


def test_equal_over_many_hands_with_a_partner():
    finished = run_both(300, seed=3, num_envs=8, preset="italian", opponent="random",
                        partner="heuristic", seat=0)
    assert finished >= 8


def test_equal_over_many_italian_2p_hands_on_two_threads():
    assert run_both(600, seed=2024, num_envs=10, threads=2) >= 150


def test_reused_arrays_give_the_same_steps():
    # copy=False: the engine clears only the mask entries it set in its own arrays.
    assert run_both(400, seed=77, num_envs=6, copy=False, preset="brazilian", opponent="greedy") > 0
    assert run_both(300, seed=78, num_envs=5, copy=False, threads=2) >= 5


def test_masks_unchanged_only_skips_clearing_a_row_it_wrote():
    games = burraco._core.VectorGames(burraco.Rules("italian-2p"), 2)
    size = games.action_size
    masks = np.zeros((2, size), np.int8)
    outputs = [np.zeros((2, 511), np.float32), masks, np.zeros(2), np.zeros(2, np.bool_),
               np.zeros(2, np.bool_), np.zeros(2)]
    for i in range(2):
        games.reset(i, 5 + i, outputs[0], masks)
    actions = np.zeros(2, np.int64)
    games.random_actions(1, actions)
    other = np.ones((2, size), np.int8)  # another array: cleared whole even so
    games.step(actions, outputs[0], other, *outputs[2:], masks_unchanged=True)
    for i in range(2):
        assert set(np.flatnonzero(other[i])) == {
            games.game(i).action_id(move) for move in games.game(i).legal_moves()}


def test_the_first_deal_is_the_engine_deal_of_the_seed():
    env = BurracoVectorEnv(3, preset="italian-3p", seat=0)
    env.reset(seed=40)
    for i in range(3):
        game = burraco.Game(burraco.Rules("italian-3p"), seed=40 + i)
        assert env.games.game(i).hand(0) == game.hand(0)
        assert env.games.game(i).seed == 40 + i
    env.reset(seed=[7, None, 9])  # None: env 1 keeps its generator and deals from it
    assert env.games.game(0).seed == 7 and env.games.game(2).seed == 9
    assert env.games.game(1).seed not in (7, 9, 41)


def test_the_same_seed_replays_the_same_hands():
    def trajectory() -> list[np.ndarray]:
        env = BurracoVectorEnv(3, opponent="random")
        observations, info = env.reset(seed=5)
        out = [observations]
        for t in range(120):
            observations, *_ = env.step(env.random_actions(t))
            out.append(observations)
        return out
    first, second = trajectory(), trajectory()
    assert all((a == b).all() for a, b in zip(first, second))
    assert not (first[-1][0] == first[-1][1]).all()  # the envs play different hands


def test_autoreset_is_next_step():
    env = BurracoVectorEnv(2, opponent="greedy", copy=False)
    one = gymnasium.make(ENV_ID, opponent="greedy")
    assert env.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.NEXT_STEP
    _, info = env.reset(seed=8)
    one.reset(seed=8)
    rng = np.random.default_rng(0)
    while True:
        actions = masked_actions(rng, info["action_mask"])
        _, reward, terminated, truncated, info = env.step(actions)
        one_step = one.step(actions[0])
        if terminated[0]:
            break
    assert one_step[2] and reward[0] == one_step[1] and not truncated.any()
    assert info["_margin"][0] and info["margin"][0] == one_step[4]["margin"]
    assert not info["action_mask"][0].any() and env.games.needs_reset(0)
    assert env.games.game(0).is_over()
    # The next step resets env 0 whatever its action (even one outside the space).
    actions = masked_actions(rng, info["action_mask"])
    actions[0] = -1
    observations, reward, terminated, _, info = env.step(actions)
    first, first_info = one.reset()
    assert reward[0] == 0.0 and not terminated[0] and not env.games.needs_reset(0)
    np.testing.assert_array_equal(observations[0], first)
    np.testing.assert_array_equal(info["action_mask"][0], first_info["action_mask"])


def test_reset_mask_resets_only_those_envs():
    env = BurracoVectorEnv(3)
    env.reset(seed=1)
    for t in range(5):
        env.step(env.random_actions(t))
    before = [env.games.game(i).state_string() for i in range(3)]
    observations, info = env.reset(seed=100, options={"reset_mask": np.array([False, True, False])})
    after = [env.games.game(i).state_string() for i in range(3)]
    assert after[0] == before[0] and after[2] == before[2] and after[1] != before[1]
    assert env.games.game(1).seed == 101
    assert info["_action_mask"].tolist() == [False, True, False]
    np.testing.assert_array_equal(observations[1], gymnasium.make(ENV_ID).reset(seed=101)[0])
    with pytest.raises(ValueError, match="reset_mask"):
        env.reset(options={"reset_mask": np.zeros(3, np.bool_)})


def test_a_bad_action_raises_naming_the_env_and_changes_nothing():
    env = BurracoVectorEnv(4, copy=False)
    observations, info = env.reset(seed=21)
    saved = observations.copy(), info["action_mask"].copy()
    states = [env.games.game(i).state_string() for i in range(4)]
    actions = env.random_actions(0)
    legal = actions.copy()
    actions[2] = env.single_action_space.n  # outside the space
    with pytest.raises(burraco.InvalidNotationError, match=r"env 2: action 16097 is not an action id"):
        env.step(actions)
    actions[2] = np.flatnonzero(info["action_mask"][2] == 0)[5]  # in the space, not legal
    with pytest.raises(burraco.IllegalMoveError,
                       match=rf"env 2: illegal action {actions[2]} \('.*'\) in the draw phase: "
                             r"no env was stepped; its legal actions are 0 \('draw'\), 1 \('pile'\)"):
        env.step(actions)
    assert [env.games.game(i).state_string() for i in range(4)] == states
    np.testing.assert_array_equal(observations, saved[0])
    np.testing.assert_array_equal(info["action_mask"], saved[1])
    # The envs go on as if nothing had been asked.
    expected_env = reference(4)
    expected_env.reset(seed=21)
    assert_same_step(expected_env.step(legal), env.step(legal), "after the refused steps")


@pytest.mark.parametrize("actions, message", [
    (np.zeros(4, np.float64), "expected a NumPy integer array of shape"),
    (np.zeros(3, np.int64), "expected a NumPy integer array of shape"),
    (np.zeros((4, 1), np.int64), "expected a NumPy integer array of shape"),
    ([0, 0, 0, 0], "expected a NumPy integer array of shape"),
])
def test_actions_of_the_wrong_type_or_shape(actions, message):
    env = BurracoVectorEnv(4)
    env.reset(seed=0)
    with pytest.raises(burraco.InvalidNotationError, match=message):
        env.games.step(actions, *env._new_buffers().values())


def test_output_arrays_are_checked():
    games = burraco._core.VectorGames(burraco.Rules("italian-2p"), 3)
    size = games.action_size

    def arrays() -> dict[str, np.ndarray]:
        return {"observations": np.zeros((3, 511), np.float32),
                "masks": np.zeros((3, size), np.int8), "rewards": np.zeros(3),
                "terminated": np.zeros(3, np.bool_), "truncated": np.zeros(3, np.bool_),
                "margins": np.zeros(3)}

    def step(**changed: object) -> None:
        actions = np.zeros(3, np.int64)
        games.random_actions(0, actions)
        games.step(actions, **{**arrays(), **changed})

    for i in range(3):
        games.reset(i, i, arrays()["observations"], np.zeros((3, size), np.bool_))
    step()  # the right arrays (a bool mask is fine too)
    step(masks=np.zeros((3, size), np.bool_))
    readonly = np.zeros(3)
    readonly.flags.writeable = False
    shared = np.zeros(6)
    cases = [
        ({"observations": np.zeros((3, 511), np.float64)}, r"observations .* of the wrong dtype"),
        ({"observations": np.zeros((3, 510), np.float32)}, r"observations .* of the wrong shape"),
        ({"observations": np.zeros((511, 3), np.float32).T}, "observations .* not C-contiguous"),
        ({"masks": np.zeros((3, size), np.int16)}, "masks .* of the wrong dtype"),
        ({"rewards": readonly}, "rewards .* read-only"),
        ({"terminated": np.zeros(3, np.int8)}, "terminated .* of the wrong dtype"),
        ({"margins": [0.0, 0.0, 0.0]}, "margins is a list, not a NumPy array"),
        ({"rewards": shared[:3], "margins": shared[2:5]}, "rewards and margins share memory"),
    ]
    for changed, message in cases:
        with pytest.raises(burraco.InvalidNotationError, match=message):
            step(**changed)
    with pytest.raises(burraco.InvalidNotationError, match="env 3: expected an int from 0 to 2"):
        games.reset(3, None, arrays()["observations"], arrays()["masks"])


def test_threads_give_the_same_results():
    def run(threads: int) -> list[tuple[np.ndarray, ...]]:
        env = BurracoVectorEnv(7, opponent="heuristic", threads=threads)
        assert env.games.threads == min(threads, 7)
        out = [(env.reset(seed=70)[0],)]
        for t in range(150):
            observations, rewards, terminated, _, info = env.step(env.random_actions(t))
            out.append((observations, rewards, terminated, info["action_mask"]))
        return out
    one = run(1)
    for threads in (2, 3, 16):
        assert all(all((a == b).all() for a, b in zip(x, y)) for x, y in zip(one, run(threads)))


def test_random_actions_are_legal():
    env = BurracoVectorEnv(5, preset="brazilian")
    _, info = env.reset(seed=3)
    for t in range(30):
        actions = env.random_actions(t)
        assert (actions == env.random_actions(t)).all()
        rows = np.arange(5)
        waiting = ~info["action_mask"].any(axis=1)
        assert (info["action_mask"][rows, actions] == 1)[~waiting].all()
        assert (actions[waiting] == 0).all()
        _, _, _, _, info = env.step(actions)


def test_the_policies_it_takes():
    def python_policy(view, moves):
        return 0

    with pytest.raises(burraco.InvalidNotationError, match="is a Python policy"):
        BurracoVectorEnv(2, opponent=python_policy)
    with pytest.raises(TypeError, match="an ISMCTS opponent"):
        BurracoVectorEnv(2, opponent=burraco.ISMCTS(iterations=10))
    with pytest.raises(burraco.InvalidNotationError, match="only four players have a fixed partner"):
        BurracoVectorEnv(2, partner="greedy")
    env = BurracoVectorEnv(2, preset="italian", opponent=burraco.Policy("greedy"),
                           partner="heuristic")
    assert env.games.opponent == burraco.Policy("greedy") and env.games.partner == "heuristic"
    for bad, message in [({"num_envs": 0}, "num_envs 0"), ({"threads": 0}, "threads 0"),
                         ({"seat": 2}, "seat 2"), ({"opponent": "nobody"}, "nobody")]:
        with pytest.raises(burraco.InvalidNotationError, match=message):
            BurracoVectorEnv(**{"num_envs": 2, **bad})
    with pytest.raises(ValueError, match="reward"):
        BurracoVectorEnv(2, reward="points")
    with pytest.raises(ValueError, match="illegal"):
        BurracoVectorEnv(2, illegal="terminate")


def test_the_gymnasium_interface():
    env = gymnasium.make_vec("burraco/Italian-v0", num_envs=3, opponent="greedy")
    assert isinstance(env, BurracoVectorEnv) and isinstance(env, gymnasium.vector.VectorEnv)
    assert env.rules == burraco.Rules("italian") and env.num_envs == 3
    assert env.single_action_space == gymnasium.spaces.Discrete(16097)
    assert env.action_space == gymnasium.spaces.MultiDiscrete([16097] * 3)
    assert env.observation_space.shape == (3, 511)
    assert env.single_observation_space == gymnasium.make("burraco/Italian-v0").observation_space
    observations, info = env.reset(seed=0)
    assert observations in env.observation_space
    assert env.action_masks().dtype == np.bool_
    assert (env.action_masks() == info["action_mask"].astype(bool)).all()
    assert repr(make(2)).startswith("BurracoVectorEnv(VectorGames(Rules('italian-2p'), 2,")


def test_copy_false_reuses_its_arrays_and_copy_true_does_not():
    shared, fresh = BurracoVectorEnv(2, copy=False), BurracoVectorEnv(2)
    a, _ = shared.reset(seed=1)
    b, *_ = shared.step(shared.random_actions(0))
    assert a is b
    c, _ = fresh.reset(seed=1)
    d, *_ = fresh.step(fresh.random_actions(0))
    assert c is not d and not np.shares_memory(c, d)
    np.testing.assert_array_equal(b, d)


def test_an_unsigned_action_is_quoted_as_given():
    # A uint64 id above 2**63 - 1 used to be quoted as the negative int64 it was read as.
    env = BurracoVectorEnv(2, copy=False)
    env.reset(seed=4)
    states = [env.games.game(i).state_string() for i in range(2)]
    for big in (2**64 - 1, 2**63):
        actions = np.array([0, big], np.uint64)
        with pytest.raises(burraco.InvalidNotationError,
                           match=rf"env 1: action {big} is not an action id: expected an int "
                                 r"from 0 to 16096; no env was stepped"):
            env.step(actions)
    with pytest.raises(burraco.InvalidNotationError, match="env 0: action 16097 is not an action"):
        env.step(np.array([16097, 0], np.uint16))
    with pytest.raises(burraco.InvalidNotationError, match="env 0: action -1 is not an action"):
        env.step(np.array([-1, 0], np.int8))
    assert [env.games.game(i).state_string() for i in range(2)] == states


@pytest.mark.parametrize("seed, error, message", [
    (1.5, TypeError, r"seed 1\.5: expected None, an int, or a list of 3 seeds"),
    (float("nan"), TypeError, r"seed nan: expected None, an int"),
    (True, TypeError, r"seed True: expected None, an int"),
    (np.bool_(True), TypeError, r"seed np\.True_: expected None, an int|seed True: expected"),
    ("12", TypeError, r"seed '12': expected None, an int"),
    (np.zeros((1, 3), np.int64), TypeError, r"seed array\(\[\[0, 0, 0\]\]\): expected"),
    (RaisingIndex(), TypeError, r"seed <.*RaisingIndex.*>: expected None, an int"),
    (-1, ValueError, r"seed -1: expected an int from 0 to 18446744073709551613 \(env i deals "
                     r"seed \+ i"),
    (2**64 - 2, ValueError, r"seed 18446744073709551614: expected an int from 0 to "
                            r"18446744073709551613"),
    (2**64, ValueError, r"seed 18446744073709551616: expected an int from 0"),
    ([1, 2], ValueError, r"seed: a list of 2 seeds for 3 envs"),
    ([1, 2, 3, 4], ValueError, r"seed: a list of 4 seeds for 3 envs"),
    ([1, 1.5, None], TypeError, r"seed\[1\] 1\.5: expected None or an int from 0 to 2\*\*64 - 1"),
    ([1, None, -2], ValueError, r"seed\[2\] -2: expected None or an int from 0 to 2\*\*64 - 1"),
    ([1, None, 2**64], ValueError, r"seed\[2\] 18446744073709551616: expected None or an int"),
    ([HugeIndex(), None, 1], TypeError, r"seed\[0\] <.*HugeIndex.*>: expected None or an int"),
    ([False, None, 1], TypeError, r"seed\[0\] False: expected None or an int"),
])
def test_a_bad_seed_is_refused_quoting_it_and_changes_nothing(seed, error, message):
    env = BurracoVectorEnv(3, copy=False)
    observations, _ = env.reset(seed=8)
    saved = observations.copy()
    states = [env.games.game(i).state_string() for i in range(3)]
    with pytest.raises(error, match=message):
        env.reset(seed=seed)
    assert [env.games.game(i).state_string() for i in range(3)] == states
    np.testing.assert_array_equal(observations, saved)


def test_numpy_integer_seeds_deal_as_ints():
    # np.uint64 near the top, NumPy integers in a list and a 1-d array of seeds are seeds like ints.
    top = 2**64 - 3
    for given, ints in ((np.uint64(top), top), ([np.int32(5), np.uint16(6), np.uint8(7)], [5, 6, 7]),
                        (np.array([9, 10, 11], np.int64), [9, 10, 11])):
        env, expected = BurracoVectorEnv(3), BurracoVectorEnv(3)
        np.testing.assert_array_equal(env.reset(seed=given)[0], expected.reset(seed=ints)[0])


def test_bad_options_are_refused():
    env = BurracoVectorEnv(2)
    with pytest.raises(TypeError, match=r"options \[1, 2\]: expected None or a dict"):
        env.reset(seed=1, options=[1, 2])


def test_an_even_pcg64_increment_is_refused():
    # NumPy's PCG64 keeps an odd increment ((stream << 1) | 1); an even one is not its state.
    games = burraco._core.VectorGames(burraco.Rules("italian-2p"), 2)
    state = np.random.PCG64(5).state["state"]
    assert state["inc"] % 2 == 1
    games.seed(0, state["state"], state["inc"])
    for even in (0, 2, state["inc"] - 1, 2**128 - 2):
        with pytest.raises(burraco.InvalidNotationError,
                           match=rf"VectorGames\.seed: inc {even}: expected an odd int \(a PCG64 "
                                 r"increment"):
            games.seed(1, state["state"], even)
    for bad in (-1, 2**128, 1.5, RaisingIndex()):
        with pytest.raises(burraco.InvalidNotationError, match=r"inc .*: expected an int in"):
            games.seed(1, state["state"], bad)


def test_hostile_index_objects_as_env_numbers_and_sizes():
    games = burraco._core.VectorGames(burraco.Rules("italian-2p"), 2)
    for bad in (RaisingIndex(), HugeIndex(), float("nan"), np.float64(1.0)):
        with pytest.raises(burraco.InvalidNotationError, match=r"env .*: expected an int from 0 to 1"):
            games.needs_reset(bad)
        with pytest.raises(burraco.InvalidNotationError, match=r"num_envs .*: expected an int from 1"):
            BurracoVectorEnv(bad)
        with pytest.raises(burraco.InvalidNotationError, match=r"threads .*: expected an int from 1"):
            BurracoVectorEnv(2, threads=bad)
    with pytest.raises(burraco.InvalidNotationError, match="actions .*dtype object"):
        games.step(np.array([HugeIndex(), RaisingIndex()], dtype=object),
                   *BurracoVectorEnv(2)._new_buffers().values())


def test_numpy_numbers_as_seat_scale_and_random_actions_seed():
    env = BurracoVectorEnv(2, seat=np.int64(1), reward_scale=np.float32(500.0))
    assert (env.games.seat, env.games.reward_scale) == (1, 500.0)
    env.reset(seed=3)
    top = 2**64 - 1
    np.testing.assert_array_equal(env.random_actions(np.uint64(top)), env.random_actions(top))
    with pytest.raises(burraco.InvalidNotationError, match="nan is not a seed"):
        env.random_actions(float("nan"))
    with pytest.raises(burraco.InvalidNotationError, match="seat 2"):
        BurracoVectorEnv(2, seat=np.int64(2))
    with pytest.raises(ValueError, match=r"seat 1\.0: expected an int"):
        BurracoVectorEnv(2, seat=1.0)
