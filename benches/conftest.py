"""Benches: ``python -m pytest benches/ --benchmark-only``.

The default test run never sees these files (``testpaths = ["tests"]``), and pytest would not
collect ``bench_*.py`` anyway: the hook below collects them when benches/ is on the command line.
At the end of the run, a table gives the reference/core time ratio of each operation (median and
minimum per round), taken from the benchmark stats; each bench tags itself with
``extra_info['operation']``, ``['engine']`` and ``['items']`` (calls per round). Ratios are per
item, so engines may do different amounts of work per round; an ``open_spiel`` bench (OpenSpiel's
gin_rummy, benches/bench_search.py) also gets its ratio to the core. Benches that add
``['hands']`` and ``['moves']`` (playouts) get a second table: hands/s, moves/s, moves per hand.
"""

from __future__ import annotations

import pytest


def pytest_collect_file(file_path, parent):
    # A file named on the command line is collected by pytest itself: not a second time here.
    if parent.session.isinitpath(file_path):
        return None
    if file_path.suffix == ".py" and file_path.name.startswith("bench_"):
        return pytest.Module.from_parent(parent, path=file_path)
    return None


def _timings(config) -> dict[str, dict[str, tuple[float, float, int, dict]]]:
    """operation -> engine -> (median, min seconds per round, items per round, extra_info)."""
    session = getattr(config, "_benchmarksession", None)
    found: dict[str, dict[str, tuple[float, float, int, dict]]] = {}
    for bench in getattr(session, "benchmarks", None) or []:
        info = bench.extra_info or {}
        if "operation" not in info or "engine" not in info or not bench.stats:
            continue
        found.setdefault(info["operation"], {})[info["engine"]] = (
            bench.stats.median,
            bench.stats.min,
            int(info.get("items", 1)),
            info,
        )
    return found


def _ratio(slow, fast) -> str:
    """Per-item ratio of two timings (per round when they do the same number of items)."""
    return (
        f"median {slow[0] / slow[2] / (fast[0] / fast[2]):,.1f}x, "
        f"min {slow[1] / slow[2] / (fast[1] / fast[2]):,.1f}x"
    )


@pytest.hookimpl(trylast=True)
def pytest_terminal_summary(terminalreporter, exitstatus, config):
    found = _timings(config)
    if not found:
        return
    write = terminalreporter.write_line
    terminalreporter.section("core vs reference")
    width = max(10, *(len(operation) for operation in found))
    head = ("operation", "engine", "median/round", "min/round", "per item")
    write(f"{head[0]:<{width}} {head[1]:<10} {head[2]:>13} {head[3]:>11} {head[4]:>12}")
    for operation, engines in sorted(found.items()):
        for engine, (median, least, items, _) in sorted(engines.items()):
            write(
                f"{operation:<{width}} {engine:<10} {median * 1e3:>11.3f}ms {least * 1e3:>9.3f}ms "
                f"{median / items * 1e6:>10.3f}us"
            )
        if "core" in engines and "reference" in engines:
            ratio = _ratio(engines["reference"], engines["core"])
            write(f"{operation:<{width}} {'ratio':<10} reference/core: {ratio}")
        else:
            write(f"{operation:<{width}} {'ratio':<10} n/a (only {', '.join(sorted(engines))} ran)")
        if "core" in engines and "open_spiel" in engines:
            ratio = _ratio(engines["open_spiel"], engines["core"])
            write(f"{operation:<{width}} {'ratio':<10} open_spiel/core: {ratio}")
    playouts = [
        (operation, engine, median, info)
        for operation, engines in sorted(found.items())
        for engine, (median, _, _, info) in sorted(engines.items())
        if info.get("hands") and info.get("moves")
    ]
    if playouts:
        terminalreporter.section("playouts (median round)")
        write(
            f"{'operation':<{width}} {'engine':<10} {'hands/s':>12} {'moves/s':>12} "
            f"{'moves/hand':>10} {'per move':>10}"
        )
        for operation, engine, median, info in playouts:
            hands, moves = info["hands"], info["moves"]
            write(
                f"{operation:<{width}} {engine:<10} {hands / median:>12,.1f} "
                f"{moves / median:>12,.0f} {moves / hands:>10.1f} {median / moves * 1e6:>8.3f}us"
            )
