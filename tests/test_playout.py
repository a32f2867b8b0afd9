"""``game.playout('random', seed)``: both engines play the very same hand from the same seed
(docs/game.md), so whole random hands are compared end to end, from fresh deals and from
positions reached by other seeds' moves; and a playout is an ordinary sequence of moves."""

from __future__ import annotations

import pytest

import burraco
import burraco.reference as reference

PRESETS = [(preset, {}) for preset in burraco.Rules.PRESETS] + [("brazilian", {"players": 2})]
SEEDS = range(10)


def _pair(preset, knobs, seed):
    return (
        burraco.Game(burraco.Rules(preset, **knobs), seed=seed),
        reference.Game(reference.Rules(preset, **knobs), seed=seed),
    )


@pytest.mark.parametrize(("preset", "knobs"), PRESETS, ids=lambda v: v if isinstance(v, str) else "")
def test_engines_play_the_same_random_hands(preset, knobs):
    for seed in SEEDS:
        core, ref = _pair(preset, knobs, seed)
        if seed % 3 == 1:  # start some after a first move, not from the deal
            move = core.legal_moves()[-1]
            core.push(move)
            ref.push(str(move))
        played = core.playout("random", seed + 1000)
        assert ref.playout("random", seed + 1000) == played, (preset, seed)
        where = f"{preset} {knobs} seed {seed}"
        assert [str(m) for m in core.moves] == [str(m) for m in ref.moves], where
        assert core.state_string() == ref.state_string(), where
        assert core.is_over() and ref.is_over(), where
        assert repr(core.result()) == repr(ref.result()), where


@pytest.mark.parametrize("engine", [burraco, reference], ids=["core", "reference"])
def test_playout_is_a_sequence_of_legal_moves(engine):
    start = engine.Game(engine.Rules("italian"), seed=5)
    game = start.copy()
    played = game.playout("random", 77)
    assert played == len(game.moves) > 0 and game.is_over()
    replay = start.copy()
    for move in game.moves:
        assert move in replay.legal_moves()
        replay.push(move)
    assert replay.state_string() == game.state_string()
    for _ in range(played):
        game.pop()
    assert game.state_string() == start.state_string()
    assert game.playout("random", 77) == played  # the same seed, the same hand
    assert game.playout("random", 1) == 0  # nothing left to play


@pytest.mark.parametrize("engine", [burraco, reference], ids=["core", "reference"])
@pytest.mark.parametrize(
    ("policy", "seed"), [("greedy!", 0), (None, 0), ("random", -1), ("random", 2**64), ("random", 1.5)]
)
def test_playout_refuses_bad_arguments(engine, policy, seed):
    game = engine.Game(engine.Rules("italian"), seed=5)
    before = game.state_string()
    with pytest.raises(engine.InvalidNotationError) as info:
        game.playout(policy, seed)
    assert repr(policy if policy != "random" else seed) in str(info.value)
    assert game.state_string() == before
