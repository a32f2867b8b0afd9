"""The workloads of the environments, beside benches/search_workloads.py (whose Workload, Sizes
and sizes they use), for benches/bench_search.py and tools/bench_table.py:

* :func:`ismcts_2p` - the search at the two-player position: ``burraco.ISMCTS`` (the classic
  options) / OpenSpiel's Python ``ISMCTSBot`` on ``python_burraco`` (burraco.envs.openspiel), the
  same position of the same game.
* :func:`openspiel_duel` - strength: ``burraco.ISMCTS`` against that ``ISMCTSBot`` on duplicate
  italian-2p deals (the arena's pairs and statistics, docs/bots.md), one run.
* :func:`vector_env` - ``burraco.envs.vector.BurracoVectorEnv``: italian-2p against 'random',
  ``VECTOR_ENVS`` envs stepped ``VECTOR_STEPS`` times a round with masked random actions
  (``random_actions``), observations and masks written every step (core only).
* :func:`aec_loop` - the PettingZoo AEC env (``burraco.envs.pettingzoo.env``) driven by a Python
  loop, both seats masked random (core only): the baseline the vector env is measured against.
"""

from __future__ import annotations

import functools
import importlib

from search_workloads import (
    AEC_HANDS,
    ISMCTS_EXPLORATION,
    ISMCTS_POSITION_2P,
    SMOKE,
    VECTOR_ENVS,
    VECTOR_RULES,
    VECTOR_SEED,
    VECTOR_STEPS,
    Missing,
    NotApplicable,
    Sizes,
    Workload,
    _core_search,
    classic_options,
    load,
    perft_records,
    position,
    splitmix64_outputs,
)


# ---- OpenSpiel's ISMCTS on burraco (burraco.envs.openspiel) -------------------------------------

SPIEL_PRESET = "italian-2p"
# OpenSpiel's returns with reward='win' are +1 / -1 / 0 where the classic search backs up 1 / 0 /
# 0.5: twice the span, so twice the exploration constant is the same UCB.
SPIEL_EXPLORATION = 2 * ISMCTS_EXPLORATION
DUEL_SEED = 14  # pair i is dealt from the (i+1)-th SplitMix64 output of it, as the arena deals
DUEL_TIME_FACTOR = 100  # the equal-time duel: our search gets this many times the iterations


def spiel_available() -> bool:
    """OpenSpiel and burraco.envs.openspiel import."""
    try:
        importlib.import_module("burraco.envs.openspiel")
    except ImportError:
        return False
    return True


@functools.cache
def _spiel_game():
    load("open_spiel")
    importlib.import_module("burraco.envs.openspiel")
    return load("open_spiel").load_game("python_burraco", {"preset": SPIEL_PRESET, "reward": "win"})


def _spiel_bot(iterations: int, seed: int):
    """OpenSpiel's Python ISMCTSBot on python_burraco: random rollouts, the most visited move,
    seeded (its own generators and burraco.envs.openspiel.resampler)."""
    import numpy as np
    from open_spiel.python.algorithms import ismcts as spiel_ismcts
    from open_spiel.python.algorithms import mcts as spiel_mcts

    from burraco.envs.openspiel import resampler

    evaluator = spiel_mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
    bot = spiel_ismcts.ISMCTSBot(_spiel_game(), evaluator, SPIEL_EXPLORATION, iterations,
                                 random_state=np.random.RandomState(seed))
    bot.set_resampler(resampler(seed))
    return bot


def _spiel_deal(game):
    """The python_burraco state of ``game``'s deal (a hand before its first move)."""
    from burraco.envs.openspiel import deal_actions

    state = _spiel_game().new_initial_state()
    for action in deal_actions(game):
        state.apply_action(action)
    return state


def ismcts_2p(engine_name: str, sizes: Sizes) -> Workload:
    """The search at ISMCTS_POSITION_2P: ``burraco.ISMCTS`` with ISMCTS_CLASSIC (core), or
    OpenSpiel's ISMCTSBot on python_burraco at the same position (open_spiel)."""
    if engine_name == "reference":
        raise NotApplicable("n/a: the reference has no search")
    core = load("core")
    if engine_name == "core":
        return _core_search("ismcts_2p", core, sizes, classic_options(core), ISMCTS_POSITION_2P)
    if not spiel_available():
        raise NotApplicable("n/a: burraco.envs.openspiel not importable")
    position_id, moves = ISMCTS_POSITION_2P
    dealt = core.Game.from_state_string(perft_records(SPIEL_PRESET)[position_id][0])
    state = _spiel_deal(dealt)
    for move in moves:
        state.apply_action(state.game.action_id(move))
    expected = position(core, *ISMCTS_POSITION_2P).state_string()
    assert state.game.state_string().split(";")[3:] == expected.split(";")[3:], "not the position"
    legal = set(state.legal_actions())
    n = sizes.spiel_ismcts_iterations
    first: list = []

    def run():
        return _spiel_bot(n, 1).step(state)

    def check(answer) -> None:
        assert answer in legal, f"ismcts_2p: ISMCTSBot chose {answer}, not legal"
        first.append(answer)
        assert answer == first[0], f"ismcts_2p: seed 1 chose {answer}, then {first[0]}"

    return Workload("ismcts_2p", "open_spiel", run, check, n, "iteration",
                    note="ISMCTSBot on python_burraco")


def openspiel_duel(engine_name: str, sizes: Sizes, factor: int = 1) -> Workload:
    """``burraco.ISMCTS`` (ISMCTS_CLASSIC, ``factor`` times ``sizes.duel_iterations``) against
    OpenSpiel's ISMCTSBot on python_burraco (``sizes.duel_iterations``), on ``sizes.duel_pairs``
    duplicate italian-2p deals: each deal played twice, our search on seat 0 then on seat 1. The
    answer is a ``burraco.arena.Duel`` (bot a ours; its ``games`` hold the scores, CPU seconds and
    moves chosen per game and bot, as the arena's do)."""
    row = f"duel_openspiel_x{factor}"
    if engine_name != "core":
        raise NotApplicable("n/a: one row for both searches (the core column)")
    if not spiel_available():
        raise NotApplicable("n/a: burraco.envs.openspiel not importable")
    import time

    import numpy as np

    from burraco.arena import Duel

    core = load("core")
    rules = core.Rules(SPIEL_PRESET)
    pairs, iterations = sizes.duel_pairs, sizes.duel_iterations
    ours_spec = f"ismcts:{iterations * factor}:rollout=random:reward=win:opponents=tree"
    theirs_spec = f"open_spiel ISMCTSBot:{iterations}"

    def run():
        ours = core.ISMCTS(iterations=iterations * factor, seed=DUEL_SEED,
                           exploration=ISMCTS_EXPLORATION, **classic_options(core))
        theirs = _spiel_bot(iterations, DUEL_SEED)
        scores, seconds, decisions, returns = [], [], [], []
        for deal in splitmix64_outputs(DUEL_SEED, pairs):
            for our_seat in (0, 1):
                state = _spiel_deal(core.Game(rules, seed=deal))
                spent, chosen = [0.0, 0.0], [0, 0]
                while not state.is_terminal():
                    bot = 0 if state.current_player() == our_seat else 1
                    start = time.process_time()
                    if bot == 0:
                        action = state.game.action_id(ours.choose(state.game))
                    else:
                        action = theirs.step(state)
                    spent[bot] += time.process_time() - start
                    chosen[bot] += 1
                    state.apply_action(action)
                totals = {side.side: side.total for side in state.game.result().sides}
                scores.append((totals[0], totals[1]))
                seconds.append(spent)
                decisions.append(chosen)
                returns.append(state.returns())
        games = {"scores": np.array(scores, np.int64), "seconds": np.array(seconds),
                 "decisions": np.array(decisions, np.int64), "returns": np.array(returns)}
        margins = [int(g0[0] - g0[1]) + int(g1[1] - g1[0])
                   for g0, g1 in zip(games["scores"][0::2], games["scores"][1::2])]
        return Duel(ours_spec, theirs_spec, pairs, sum(m > 0 for m in margins),
                    sum(m < 0 for m in margins), sum(m == 0 for m in margins), margins, games)

    def check(answer) -> None:
        assert answer.pairs == pairs == answer.wins_a + answer.wins_b + answer.ties, row
        games = answer.games
        assert games["scores"].shape == (2 * pairs, 2) and (games["decisions"] > 0).all(), row
        for (side0, side1), spiel_returns in zip(games["scores"], games["returns"]):
            sign = float(np.sign(side0 - side1))
            assert list(spiel_returns) == [sign, -sign], f"{row}: returns {spiel_returns}"

    return Workload(row, "core", run, check, pairs, "pair", once=True,
                    note=f"{ours_spec} vs {theirs_spec}")


# ---- the vector environment (docs/rl.md "The vector environment") ----------------------------


def _smoke(sizes: Sizes) -> str:
    return "smoke" if sizes == SMOKE else "full"


def vector_env(engine_name: str, sizes: Sizes, threads: int) -> Workload:
    """``VECTOR_STEPS`` steps of ``BurracoVectorEnv(VECTOR_ENVS, 'italian-2p', 'random',
    threads=threads, copy=False)``, the actions ``random_actions(k)``; the envs go on from round
    to round (autoreset). Items: agent steps (envs x steps). Checked: the first steps equal
    ``SyncVectorEnv`` over ``BurracoEnv`` on the same seeds, and every round's last step has a
    legal mask for every env still playing and rewards that are the finished hands' margins / 2000."""
    row = f"vector/{threads}"
    if engine_name != "core":
        raise NotApplicable("n/a: the vector env is the core's")
    try:
        import gymnasium

        import burraco.envs.gymnasium  # noqa: F401  (the ids)
        from burraco.envs.vector import BurracoVectorEnv
    except ImportError as error:
        raise Missing(f"missing: {error}") from None
    import numpy as np

    mode = _smoke(sizes)
    n, steps = VECTOR_ENVS[mode], VECTOR_STEPS[mode]
    mine = BurracoVectorEnv(4, VECTOR_RULES, "random", threads=threads)
    sync = gymnasium.make_vec("burraco/Italian2p-v0", num_envs=4, vectorization_mode="sync")
    assert (mine.reset(seed=VECTOR_SEED)[0] == sync.reset(seed=VECTOR_SEED)[0]).all(), row
    for k in range(30):
        actions = mine.random_actions(k)
        for got, expected in zip(mine.step(actions)[:4], sync.step(actions)[:4]):
            assert (got == expected).all(), f"{row}: step {k} differs from SyncVectorEnv"
    env = BurracoVectorEnv(n, VECTOR_RULES, "random", threads=threads, copy=False)
    env.reset(seed=VECTOR_SEED)
    counter = [0]
    random_actions, step = env.random_actions, env.step

    def run():
        out = None
        for _ in range(steps):
            counter[0] += 1
            out = step(random_actions(counter[0]))
        return out

    def check(answer) -> None:
        observations, rewards, terminated, truncated, info = answer
        assert observations.shape == (n, 511) and not truncated.any(), row
        playing = info["action_mask"].any(axis=1)
        assert (playing | terminated).all(), f"{row}: an env with no legal action"
        assert not (playing & terminated).any(), f"{row}: a finished env with legal actions"
        if terminated.any():
            assert np.allclose(rewards[terminated] * 2000, info["margin"][terminated]), row
        assert not rewards[~terminated].any(), f"{row}: a reward before the hand's end"

    return Workload(row, engine_name, run, check, n * steps, "agent step",
                    note=f"{n} envs, {steps} steps a round, threads={threads}")


def aec_loop(engine_name: str, sizes: Sizes) -> Workload:
    """``AEC_HANDS`` italian-2p hands of ``burraco.envs.pettingzoo.env()`` driven by the usual
    Python loop (``last()``, a masked random id, ``step``), both seats random; items: seat 0's
    steps (the agent steps of the vector env's rows). Checked: every hand ends with opposite
    rewards equal to the margins / 2000, and the same seeds play the same number of steps."""
    row = "aec"
    if engine_name != "core":
        raise NotApplicable("n/a: the AEC env is the core's")
    try:
        from burraco.envs.pettingzoo import env as aec_env
    except ImportError as error:
        raise Missing(f"missing: {error}") from None
    import numpy as np

    hands = AEC_HANDS[_smoke(sizes)]
    table = aec_env(preset=VECTOR_RULES)

    def run():
        agent_steps, finals = 0, []
        for hand in range(hands):
            table.reset(seed=VECTOR_SEED + hand)
            rng = np.random.default_rng(hand)
            final = {}
            for agent in table.agent_iter():
                observation, reward, terminated, truncated, info = table.last()
                if terminated or truncated:
                    final[agent] = (reward, info["margin"])
                    action = None
                else:
                    legal = np.flatnonzero(observation["action_mask"])
                    action = int(legal[rng.integers(len(legal))])
                    agent_steps += agent == "player_0"
                table.step(action)
            finals.append(final)
        return agent_steps, finals

    steps, _ = run()

    def check(answer) -> None:
        agent_steps, finals = answer
        assert agent_steps == steps, f"{row}: the same seeds played {agent_steps} steps, not {steps}"
        for final in finals:
            (r0, m0), (r1, m1) = final["player_0"], final["player_1"]
            assert r0 == -r1 and r0 == m0 / 2000 and m0 == -m1, f"{row}: {final}"

    return Workload(row, engine_name, run, check, steps, "agent step",
                    note=f"{hands} hands, {steps} steps of seat 0")

