"""Whole hands played inside each engine: ``game.playout('random', seed)`` on both engines.

Both engines draw the same moves from the same seed (docs/game.md), so one fixed set of hands
(every preset and brazilian with two players, three deals each) is played by both; each round
plays them all from fresh deals, and the total number of moves must equal the reference's, so a
fast wrong answer fails. The core plays in C++ (one Python call per hand); the reference plays
in Python: the ratio printed at the end (benches/conftest.py) is the engine speed-up.

Run: ``python -m pytest benches/bench_playout.py --benchmark-only``.
"""

from __future__ import annotations

import importlib

import pytest

HANDS = [
    (preset, knobs, seed)
    for preset, knobs in [
        ("italian", {}),
        ("italian-2p", {}),
        ("italian-3p", {}),
        ("online-2p", {}),
        ("brazilian", {}),
        ("brazilian", {"players": 2}),
    ]
    for seed in (11, 12, 13)
]


def _engine(name):
    return importlib.import_module("burraco" if name == "core" else "burraco.reference")


@pytest.fixture(scope="module")
def expected_moves():
    ref = _engine("reference")
    return sum(
        ref.Game(ref.Rules(preset, **knobs), seed=seed).playout("random", seed)
        for preset, knobs, seed in HANDS
    )


@pytest.mark.parametrize("engine_name", ["core", "reference"])
def test_random_playouts(benchmark, expected_moves, engine_name):
    engine = _engine(engine_name)
    deals = [(engine.Rules(preset, **knobs), seed) for preset, knobs, seed in HANDS]

    def play_all():
        return sum(engine.Game(rules, seed=seed).playout("random", seed) for rules, seed in deals)

    benchmark.group = "playout"
    benchmark.extra_info.update(
        operation="playout", engine=engine_name, items=len(deals), expected=expected_moves
    )
    assert benchmark.pedantic(play_all, rounds=3 if engine_name == "reference" else 20) == (
        expected_moves
    )
