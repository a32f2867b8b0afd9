"""The Ray self-play workloads of tools/bench_table.py (docs/rl.md "Self-play on Ray"): a run of
``burraco.distributed.selfplay`` on a local Ray of two CPUs beside ``burraco.playouts(threads=2)``
of the same hands with the same policy.

Ray is started (``ray.init(num_cpus=2)``) when the first workload is built, outside any timing, and
the timed runs come after the warm-up run, whose tasks start Ray's worker processes: the figures are
those of a running cluster, as on a real one. Each Ray round writes its shards into a new temporary
folder, removed afterwards; its answer is the hands table, checked against the playouts'.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

import search_workloads as W

RAY_RULES = "italian-2p"
RAY_POLICY = "heuristic"
RAY_SEED = 8191
RAY_CPUS = 2
# Hands of a round: the 20,000 (smoke: 40), in shards of 1/40 of the run (smoke: 10 hands).
RAY_HANDS = {"full": 20_000, "smoke": 40}
RAY_SHARDS = 40


def _start_ray() -> None:
    import ray

    if not ray.is_initialized():
        ray.init(num_cpus=RAY_CPUS, include_dashboard=False, log_to_driver=False,
                 configure_logging=False)


def _hands(mode: str) -> int:
    return RAY_HANDS[mode]


def _playouts(n: int) -> dict[str, Any]:
    engine = W.load("core")
    return engine.playouts(W.make_rules(engine, RAY_RULES), n, seed=RAY_SEED, policy=RAY_POLICY,
                           threads=RAY_CPUS)


_EXPECTED: dict[int, dict[str, Any]] = {}


def _expected(n: int) -> dict[str, Any]:
    if n not in _EXPECTED:
        _EXPECTED[n] = _playouts(n)
    return _EXPECTED[n]


def playouts_two_threads(engine_name: str, mode: str) -> W.Workload:
    """``burraco.playouts(italian-2p, n, seed=RAY_SEED, policy='heuristic', threads=2)``."""
    if engine_name != "core":
        raise W.NotApplicable("n/a: core only")
    n = _hands(mode)
    row = f"ray/playouts2/{n}"

    def check(answer) -> None:
        assert [int(s) for s in answer["seed"]] == W.splitmix64_outputs(RAY_SEED, n), f"{row}: seeds"
        assert answer["scores"].shape == (n, 2), f"{row}: scores"

    return W.Workload(row, engine_name, lambda: _playouts(n), check, n, "hand",
                      moves=lambda answer: int(answer["moves"].sum()), hands=n)


def ray_selfplay(engine_name: str, mode: str) -> W.Workload:
    """``burraco.distributed.selfplay`` of the same hands on the local Ray: records and Parquet
    tables written, the summary merged."""
    if engine_name != "core":
        raise W.NotApplicable("n/a: core only")
    try:
        import pyarrow.parquet as pq
        import ray  # noqa: F401
    except ImportError as error:
        raise W.Missing(f"missing: pip install 'burraco[ray]' ({error})") from None
    from burraco import distributed

    _start_ray()
    n = _hands(mode)
    row = f"ray/selfplay/{n}"

    def run():
        folder = tempfile.mkdtemp(prefix="burraco-ray-bench-")
        try:
            summary = distributed.selfplay(RAY_RULES, n, f"{folder}/run", policies=RAY_POLICY,
                                           seed=RAY_SEED, shard_size=max(1, n // RAY_SHARDS))
            table = pq.read_table(f"{folder}/run/hands").to_pydict()
            records = 0
            for path in Path(folder, "run", "records").iterdir():
                with open(path, encoding="utf-8") as lines:
                    records += sum(1 for _ in lines)
            return summary, table, records
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    def check(answer) -> None:
        summary, table, records = answer
        expected = _expected(n)
        assert summary.hands == n and summary.hands_played == n and records == n, f"{row}: hands"
        assert table["seed"] == [int(s) for s in expected["seed"]], f"{row}: seeds"
        assert table["scores"] == expected["scores"].tolist(), f"{row}: scores != playouts'"
        assert table["moves"] == expected["moves"].tolist(), f"{row}: moves != playouts'"

    return W.Workload(row, engine_name, run, check, n, "hand",
                      moves=lambda answer: sum(answer[1]["moves"]), hands=n,
                      note=f"{RAY_CPUS}-CPU local Ray, {RAY_SHARDS} shards")
