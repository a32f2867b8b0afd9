"""pilewise's two policies play alike, and play well enough to be worth copying.

The native policy (``pilewise._native:policy``, Cython, run by the engine without the GIL) and its
Python twin (``pilewise.python:policy``) must choose the same move in every position: they read the
same information (burraco_view / PolicyView) and draw the same numbers from the call's random
stream. Run against the burraco the package was built with (README.md).
"""

from __future__ import annotations

import re
import subprocess
import sys

import numpy as np
import pilewise.python
import pytest

import burraco
from burraco import Game, Policy, Rules

NATIVE = Policy("pilewise._native:policy")
PYTHON = Policy(pilewise.python.policy)
PRESETS = ["italian-2p", "italian", "italian-3p", "brazilian"]
# A hand that is still going after this many moves is a policy stuck in a loop: fail, do not hang.
MOVE_LIMIT = 2000


def test_policies_are_what_they_say():
    assert NATIVE.kind == "native"
    assert NATIVE.name == "pilewise"
    assert PYTHON.kind == "python"
    assert Policy("pilewise.python:policy").kind == "python"


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_same_move_at_every_step(preset, seed):
    """Whole hands played move by move: at each step both twins see the position and the same
    random state, and must choose the same move. Each step also asks the native policy with
    another seed, to show that the random stream decides some choices (so the agreement covers
    the stream too, not only the deterministic rules)."""
    game = Game(Rules(preset), seed=seed)
    steps = seed_decided = 0
    while not game.is_over():
        assert steps < MOVE_LIMIT, f"{preset} seed {seed}: no end after {MOVE_LIMIT} moves"
        step_seed = 1000 * seed + steps
        native = game.policy_move(NATIVE, step_seed)
        python = game.policy_move(PYTHON, step_seed)
        assert native == python, (
            f"{preset} seed {seed} move {steps}: native {native}, python {python}, "
            f"state {game.state_string()}"
        )
        seed_decided += game.policy_move(NATIVE, step_seed + 1) != native
        game.push(native)
        steps += 1
    assert seed_decided > 0, "no choice of the hand depended on the random stream"


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("seed", [4, 5])
def test_same_playout(preset, seed):
    """Game.playout with either twin plays the same hand, record for record."""
    native = Game(Rules(preset), seed=seed)
    python = native.copy()
    assert native.playout(NATIVE, seed) == python.playout(PYTHON, seed)
    assert native.is_over()
    assert native.moves == python.moves
    assert native.record() == python.record()


def test_same_playouts_brazilian_openings():
    """The brazilian opening minimum is where the policy's rules are most involved (it holds its
    melds back while the turn cannot reach the requirement, and keeps two cards in hand while it
    is not open): more brazilian hands, played out by both twins."""
    for seed in range(10, 40):
        native = Game(Rules("brazilian"), seed=seed)
        python = native.copy()
        native.playout(NATIVE, seed)
        python.playout(PYTHON, seed)
        assert native.moves == python.moves, f"brazilian seed {seed}"


def test_same_playouts_table():
    """burraco.playouts with either twin gives the same rows (seeds, scores, moves, end
    reasons); the native one gives them on any number of threads."""
    rules = Rules("italian-2p")
    native = burraco.playouts(rules, 6, seed=11, policy=NATIVE)
    python = burraco.playouts(rules, 6, seed=11, policy=PYTHON)
    threaded = burraco.playouts(rules, 6, seed=11, policy=NATIVE, threads=2)
    for column in ("seed", "scores", "moves", "end_reason"):
        np.testing.assert_array_equal(native[column], python[column])
        np.testing.assert_array_equal(native[column], threaded[column])


def duel_margin(preset: str, policy, opponent, seeds) -> float:
    """The mean points margin of `policy` over `opponent` in two-side hands: each seed dealt twice,
    `policy` playing side 0 then side 1, every move a policy_move with a seed fixed by the hand and
    the step (so the figure is the same on every run)."""
    margins = []
    for seed in seeds:
        for mine in (0, 1):
            game = Game(Rules(preset), seed=seed)
            steps = 0
            while not game.is_over():
                assert steps < MOVE_LIMIT
                side = game.side_of(game.turn)
                chosen = policy if side == mine else opponent
                game.push(game.policy_move(chosen, 1000 * seed + steps))
                steps += 1
            totals = [side.total for side in game.result().sides]
            margins.append(totals[mine] - totals[1 - mine])
    return sum(margins) / len(margins)


@pytest.mark.parametrize("preset", ["italian-2p", "italian"])
def test_native_beats_random(preset):
    """Over a fixed set of deals, each played from both sides, pilewise scores more than the
    uniform random policy on average. The margin is computed, not assumed: a policy that played
    no better than random would fail this."""
    margin = duel_margin(preset, NATIVE, "random", range(1, 13))
    assert margin > 0, f"pilewise's mean margin over random in {preset}: {margin}"


def test_selfplay_command():
    """`burraco selfplay --policy module:attribute` plays the native policy in every seat: the
    hands are those of burraco.playouts with that policy, so its summary's mean scores and mean
    moves are those of the table."""
    command = [sys.executable, "-m", "burraco", "selfplay", "--preset", "italian-2p",
               "--games", "20", "--seed", "1", "--quiet", "--policy", "pilewise._native:policy"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    table = burraco.playouts(Rules("italian-2p"), 20, seed=1, policy=NATIVE)
    scores = re.search(r"^mean score \(hand\)\s+(\S+)\s+(\S+)\s*$", done.stdout, re.M)
    assert scores, done.stdout
    expected = [f"{x:.1f}" for x in table["scores"].mean(axis=0)]
    assert list(scores.groups()) == expected, done.stdout
    moves = re.search(r"^mean moves per hand\s+(\S+)\s*$", done.stdout, re.M)
    assert moves and moves.group(1) == f"{table['moves'].mean():.1f}", done.stdout


@pytest.mark.parametrize("preset", ["italian-2p", "italian", "italian-3p", "online-2p"])
def test_the_greedy_port_plays_the_built_in_greedy_hands(preset):
    """pilewise._greedy is the built-in greedy ported to the native interface: under rules without
    an opening minimum it plays the same hands, seat for seat and move for move."""
    rules = Rules(preset)
    port = burraco.playouts(rules, 40, seed=9, policy=Policy("pilewise._greedy:policy"))
    built_in = burraco.playouts(rules, 40, seed=9, policy="greedy")
    for key in ("seed", "scores", "moves", "end_reason"):
        assert np.array_equal(port[key], built_in[key]), key
    game, twin = Game(rules, seed=5), Game(rules, seed=5)
    game.playout(Policy("pilewise._greedy:policy"), 5)
    twin.playout("greedy", 5)
    assert game.record() == twin.record()
