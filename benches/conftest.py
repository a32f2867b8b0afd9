"""Benches: ``python -m pytest benches/ --benchmark-only``.

The default test run never sees these files (``testpaths = ["tests"]``), and pytest would not
collect ``bench_*.py`` anyway: the hook below collects them when benches/ is on the command line.
At the end of the run, a table gives the reference/core time ratio of each operation (median and
minimum per round), taken from the benchmark stats; each bench tags itself with
``extra_info['operation']``, ``['engine']`` and ``['items']`` (calls per round).
"""

from __future__ import annotations

import pytest


def pytest_collect_file(file_path, parent):
    if file_path.suffix == ".py" and file_path.name.startswith("bench_"):
        return pytest.Module.from_parent(parent, path=file_path)
    return None


def _timings(config) -> dict[str, dict[str, tuple[float, float, int]]]:
    """operation -> engine -> (median, min seconds per round, items per round)."""
    session = getattr(config, "_benchmarksession", None)
    found: dict[str, dict[str, tuple[float, float, int]]] = {}
    for bench in getattr(session, "benchmarks", None) or []:
        info = bench.extra_info or {}
        if "operation" not in info or "engine" not in info or not bench.stats:
            continue
        found.setdefault(info["operation"], {})[info["engine"]] = (
            bench.stats.median,
            bench.stats.min,
            int(info.get("items", 1)),
        )
    return found


@pytest.hookimpl(trylast=True)
def pytest_terminal_summary(terminalreporter, exitstatus, config):
    found = _timings(config)
    if not found:
        return
    write = terminalreporter.write_line
    terminalreporter.section("core vs reference")
    head = ("operation", "engine", "median/round", "min/round", "per item")
    write(f"{head[0]:<10} {head[1]:<10} {head[2]:>13} {head[3]:>11} {head[4]:>12}")
    for operation, engines in sorted(found.items()):
        for engine, (median, least, items) in sorted(engines.items()):
            write(
                f"{operation:<10} {engine:<10} {median * 1e3:>11.3f}ms {least * 1e3:>9.3f}ms "
                f"{median / items * 1e6:>10.3f}us"
            )
        if "core" in engines and "reference" in engines:
            core, ref = engines["core"], engines["reference"]
            write(
                f"{operation:<10} {'ratio':<10} reference/core: median {ref[0] / core[0]:,.1f}x, "
                f"min {ref[1] / core[1]:,.1f}x"
            )
        else:
            write(f"{operation:<10} {'ratio':<10} n/a (only {', '.join(sorted(engines))} ran)")
