"""Game benches: perft from a fixed position and whole random hands, core and reference.

Run: ``python -m pytest benches/ --benchmark-only`` (benches/conftest.py prints the
reference/core ratio per operation at the end).

* ``perft``: ``perft(game, PERFT_DEPTH)`` from the position ``PERFT_ID`` of
  ``tests/data/perft/PERFT_FILE`` (a hand just dealt, 4 players), ``items`` = leaf nodes. The
  count must equal the reference's (computed once per run) and the frozen count of the file.
* ``api_hands``: ``PLAYOUT_SEEDS`` seeded hands of each rule set of ``PLAYOUT_RULES`` played to
  the end with the mostly-draw policy of tests/playouts.py (``draw`` nine times in ten when
  legal, else a uniform legal move; the move choice generator seeded per hand), dealing included;
  ``items`` = moves played. The total must equal the reference's. Unlike ``playout``
  (benches/bench_playout.py: ``game.playout`` plays the whole hand inside the engine), every move
  here goes through the Python API (``legal_moves()``, ``Move.kind``, ``push``), as a bot's would.
"""

from __future__ import annotations

import importlib
import random
from pathlib import Path

import pytest

PERFT_FILE = Path(__file__).resolve().parent.parent / "tests" / "data" / "perft" / "italian.perft"
PERFT_ID = "italian-dealt"
PERFT_DEPTH = 5
PLAYOUT_RULES = (
    ("italian", {}),
    ("italian-2p", {}),
    ("italian-3p", {}),
    ("online-2p", {}),
    ("brazilian", {}),
    ("brazilian", {"players": 2}),
)
PLAYOUT_SEEDS = range(2)

ENGINES = ["core", "reference"]


def _engine(name):
    return importlib.import_module("burraco" if name == "core" else "burraco.reference")


def _tag(benchmark, operation, engine, items, expected):
    benchmark.group = operation
    benchmark.extra_info.update(operation=operation, engine=engine, items=items, expected=expected)


def _perft_position() -> tuple[str, int]:
    """The state string of PERFT_ID and its frozen count at PERFT_DEPTH."""
    state, frozen, current = None, None, None
    for line in PERFT_FILE.read_text(encoding="utf-8").splitlines():
        word, _, rest = line.partition(" ")
        if word == "id":
            current = rest.strip()
        elif current == PERFT_ID and word == "state":
            state = rest.strip()
        elif current == PERFT_ID and word == "perft" and int(rest.split()[0]) == PERFT_DEPTH:
            frozen = int(rest.split()[1])
    assert state is not None and frozen is not None, f"{PERFT_ID} depth {PERFT_DEPTH} not found"
    return state, frozen


def _play_hands(engine) -> int:
    """Every hand of the playout bench; returns the number of moves played."""
    total = 0
    for preset, knobs in PLAYOUT_RULES:
        rules = engine.Rules(preset, **knobs)
        for seed in PLAYOUT_SEEDS:
            game = engine.Game(rules, seed=seed)
            rng = random.Random(f"bench:{preset}:{sorted(knobs.items())}:{seed}")
            while not game.is_over():
                moves = game.legal_moves()
                # 'draw' sorts first when it is legal (docs/game.md canonical order).
                if moves[0].kind == "draw" and rng.random() < 0.9:
                    game.push(moves[0])
                else:
                    game.push(moves[rng.randrange(len(moves))])
            total += len(game.moves)
    return total


@pytest.fixture(scope="module")
def expected():
    """The reference's answers, computed once."""
    reference = _engine("reference")
    state, frozen = _perft_position()
    nodes = reference.perft(reference.Game.from_state_string(state), PERFT_DEPTH)
    assert nodes == frozen
    return {"perft": nodes, "playout": _play_hands(reference), "state": state}


@pytest.mark.parametrize("engine_name", ENGINES)
def test_perft(benchmark, expected, engine_name):
    engine = _engine(engine_name)
    game = engine.Game.from_state_string(expected["state"])
    _tag(benchmark, "perft", engine_name, expected["perft"], expected["perft"])
    assert benchmark(engine.perft, game, PERFT_DEPTH) == expected["perft"]


@pytest.mark.parametrize("engine_name", ENGINES)
def test_random_playouts(benchmark, expected, engine_name):
    engine = _engine(engine_name)
    _tag(benchmark, "api_hands", engine_name, expected["playout"], expected["playout"])
    assert benchmark(_play_hands, engine) == expected["playout"]
    assert expected["playout"] > 100 * len(PLAYOUT_RULES) * len(PLAYOUT_SEEDS)  # whole hands
