"""Search benches, side by side with OpenSpiel's gin_rummy (``pip install '.[bench]'``).

Run: ``python -m pytest benches/bench_search.py --benchmark-only`` (benches/conftest.py prints the
reference/core and open_spiel/core ratios per operation, and hands/s, moves/s and moves per hand
of the playout benches). ``python tools/bench_table.py`` times the same workloads without pytest
and prints them as one table with the core's targets.

The workloads and the checks of their answers live in benches/search_workloads.py (its docstring
says what each one does and which pyspiel API stands for it):

* ``playout:<rules>``: whole random hands played inside the engine, per rule set (every
  ``Rules.PRESETS`` entry and brazilian with two players); gin_rummy on the italian operation.
* ``python:<rules>``: whole random hands driven from Python, one ``legal_moves()`` + ``push()``
  per move (the time per move is one Python-driven step); ``python_index:italian`` the same hands
  with ``push_index(i)``.
* ``greedy:<rules>``: whole hands with the greedy policy (hands from
  ``search_workloads.GREEDY_FIRST_SEED``).
* ``batch1:<rules>``, ``batch2:<rules>``: ``burraco.playouts`` with one and two threads.
* ``legal_11``, ``legal_12``, ``legal_30``: ``legal_moves()`` at fixed positions, on a fresh
  copy each time (the core keeps a position's moves), so the figure includes one ``copy()`` (the
  ``copy`` bench; tools/bench_table.py subtracts it); ``copy``; ``determinize``; ``ismcts``
  (iterations).

A core feature of docs/search.md that does not exist yet skips its bench with ``missing: ...``;
an open_spiel bench skips when ``pyspiel`` cannot be imported.
"""

from __future__ import annotations

import pytest
import env_workloads as E
import search_workloads as W

SIZES = W.FULL
HEAVY_ROUNDS = 3  # rounds of a bench whose round is long (reference and gin_rummy hands, search)


def _build(builder, *args):
    """The workload (a skip only when the optional peer, OpenSpiel, is not installed)."""
    engine = args[0]
    if engine == "open_spiel" and not W.open_spiel_available():
        pytest.skip("open_spiel not installed (pip install open_spiel)")
    # Rows without a counterpart in an engine are not generated (see the parametrizations), so
    # W.NotApplicable and W.Missing (a feature of docs/search.md an engine lacks) fail the bench.
    return builder(*args)


def _measure(benchmark, workload: W.Workload, operation: str, heavy: bool = False):
    """Times ``workload.run`` and checks the answer of the last round."""
    benchmark.group = operation
    benchmark.extra_info.update(
        operation=operation, engine=workload.engine, items=workload.items, unit=workload.unit
    )
    if heavy:
        answer = benchmark.pedantic(workload.run, rounds=HEAVY_ROUNDS, warmup_rounds=0)
    else:
        answer = benchmark(workload.run)
    workload.check(answer)
    if workload.moves is not None:
        benchmark.extra_info.update(hands=workload.hands, moves=workload.moves(answer))
    return answer


def _playout_cases():
    cases = [(engine, rules_id) for rules_id in W.RULES_IDS for engine in ("core", "reference")]
    return cases + [("open_spiel", "italian")]


@pytest.mark.parametrize(("engine_name", "rules_id"), _playout_cases())
def test_playout(benchmark, engine_name, rules_id):
    workload = _build(W.playout, engine_name, rules_id, SIZES)
    _measure(benchmark, workload, f"playout:{rules_id}", heavy=engine_name != "core")


@pytest.mark.parametrize(("engine_name", "rules_id"), _playout_cases())
def test_python_playout(benchmark, engine_name, rules_id):
    workload = _build(W.python_playout, engine_name, rules_id, SIZES)
    _measure(benchmark, workload, f"python:{rules_id}", heavy=engine_name != "core")


@pytest.mark.parametrize("engine_name", ["core", "reference"])
def test_python_playout_by_index(benchmark, engine_name):
    workload = _build(W.python_playout, engine_name, "italian", SIZES, True)
    _measure(benchmark, workload, "python_index:italian", heavy=engine_name != "core")


@pytest.mark.parametrize(("engine_name", "rules_id"), _playout_cases())
def test_greedy_playout(benchmark, engine_name, rules_id):
    workload = _build(W.playout, engine_name, rules_id, SIZES, "greedy")
    _measure(benchmark, workload, f"greedy:{rules_id}", heavy=engine_name != "core")


@pytest.mark.parametrize("rules_id", W.RULES_IDS)
@pytest.mark.parametrize("threads", [1, 2])
def test_batch_playouts(benchmark, threads, rules_id):
    workload = _build(W.batch, "core", rules_id, SIZES, threads)
    _measure(benchmark, workload, f"batch{threads}:{rules_id}")


@pytest.mark.parametrize(
    ("engine_name", "row"),
    # gin rummy has no 30-card hand
    [(e, r) for r in W.LEGAL_POSITIONS for e in W.ENGINES if (e, r) != ("open_spiel", "legal_30")],
)
def test_legal_moves(benchmark, engine_name, row):
    _measure(benchmark, _build(W.legal_moves, engine_name, row), row)


@pytest.mark.parametrize("engine_name", W.ENGINES)
def test_copy(benchmark, engine_name):
    _measure(benchmark, _build(W.copy, engine_name), "copy")


@pytest.mark.parametrize("engine_name", W.ENGINES)
def test_determinize(benchmark, engine_name):
    _measure(benchmark, _build(W.determinize, engine_name), "determinize")


@pytest.mark.parametrize("engine_name", ["core", "open_spiel"])  # the reference has no search
def test_ismcts(benchmark, engine_name):
    workload = _build(W.ismcts, engine_name, SIZES)
    _measure(benchmark, workload, "ismcts", heavy=engine_name == "open_spiel")


@pytest.mark.parametrize("engine_name", ["core", "open_spiel"])
def test_ismcts_2p(benchmark, engine_name):
    """The two-player search: burraco.ISMCTS / OpenSpiel's ISMCTSBot on python_burraco."""
    workload = _build(E.ismcts_2p, engine_name, SIZES)
    _measure(benchmark, workload, "ismcts_2p", heavy=engine_name == "open_spiel")
