#!/usr/bin/env python3
"""The search benchmarks in one table: burraco's core, burraco.reference and OpenSpiel gin_rummy.

    python tools/bench_table.py                 # 4-5 minutes on 2 cores; prints the table
    python tools/bench_table.py --only openspiel  # our ISMCTS against OpenSpiel's, 2-3 minutes
    python tools/bench_table.py --smoke         # every row with tiny counts, a few seconds (CI)
    python tools/bench_table.py --json FILE     # also write the figures to FILE

The workloads are those of benches/bench_search.py (benches/search_workloads.py), timed here
directly with ``time.perf_counter``: each is run once and checked, then timed ``--repeats`` times
(each repeat loops the workload for at least ``--min-time`` seconds) and the median is reported;
the answer of every repeat is checked, so a fast wrong answer stops the script. ``--smoke`` times
one run of each, checked the same way, and leaves the met column empty (one cold run is no
measurement).

Columns: core, reference, and OpenSpiel's gin_rummy (``pip install open_spiel``; ``n/a`` when it
cannot be imported), then the core's target and whether the measured value meets it. A row whose
core feature does not exist yet (docs/search.md) prints ``missing``; any other error is raised.
Playouts of every rule set print two lines: the time per hand (hands per second), then moves per
second (mean moves per hand); gin_rummy's figure stands on the italian line of each group.

Peak memory: the resident set's peak (``resource.getrusage``) before and after many playouts, in a
fresh child process (its peak is not raised by the other rows), after a warm-up.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benches"))

import env_workloads as E
import memory_workloads as M
import ray_workloads as R
import search_workloads as W

ENGINES = W.ENGINES
COLUMNS = {"core": "core", "reference": "reference", "open_spiel": "open_spiel gin_rummy"}

RSS_TOLERANCE_KIB = 256  # peak RSS growth under this counts as none (allocator noise)

# The notes under the table (reasons for n/a and missing cells are added to them).
NOTES = (
    "times are medians; 'missing': that engine has no such feature yet (docs/search.md).",
    (
        "legal_moves(): timed on a fresh copy of the position, minus the copy (the core keeps a"
        " position's moves, and a copy shares them); the core's MoveList makes Move objects only"
        " when asked, the reference builds a list of them. 'C++ legal moves': the same"
        " positions, generated 2,000 times in one C++ loop (burraco._core._legal_moves_repeat);"
        " the 0.5 us target is judged on the meld phase, where generation does real work."
        " '< X': the call minus the copy is below the measurement floor X (the clock's"
        " resolution and the spread of the repeats; in smoke mode the copy's own time), so only"
        " the bound is shown, never a negative time."
    ),
    (
        "gin_rummy counts the players' actions as moves, not its chance nodes (the deal, each"
        " stock draw); its C++-driven playouts go through pyspiel.evaluate_bots and its bots."
    ),
    (
        "positions: burraco legal 11 = italian-dealt (draw phase), legal 12 = the same after"
        " 'draw', legal 31 = italian-pile-take; ISMCTS from italian-dealt after 'draw'; copy of a"
        " state-string position (no history); determinize for the seat to act at"
        " italian-pile-take. gin_rummy: legal 11 = a 10-card hand at the first upcard, legal"
        " 12 = 11 cards after drawing it (also the ISMCTS position), copy and resample after"
        f" {W.GIN_MIDGAME_MOVES} seeded moves (its clone copies the history)."
    ),
    (
        "native policies (docs/native.md): examples/cython_policy installed (pip install"
        " --no-build-isolation ./examples/cython_policy), else n/a. pilewise takes the pile and"
        " plays longer hands with larger positions than greedy, so its hands/s measure its own"
        " game; the greedy native port plays greedy's very hands, so the time between the two is"
        " what the native interface costs. ISMCTS: 2,000 iterations from the ISMCTS position,"
        " whole rollouts. The view: burraco._core._policy_view_repeat."
    ),
    (
        "OpenSpiel's ISMCTS on burraco: both searches at italian-2p-dealt after 'draw', random"
        " rollouts and the win/loss reward (OpenSpiel's returns +1/-1, so its exploration constant"
        " is twice ours, the same UCB); OpenSpiel's bot is its Python ISMCTSBot on python_burraco"
        " (the C++ ISMCTSBot cannot resample a Python game). Duels: each italian-2p deal (the"
        " arena's deals of seed 14) played twice, seats swapped; ours wins a pair when its two"
        " margins add up above zero (a tie half); the interval is Wilson's, the margin's 95 %"
        " half-width normal; one run, never repeated. The second duel gives ours 100 times the"
        " iterations, about the time OpenSpiel's bot takes."
    ),
)


# ---- measuring ----------------------------------------------------------------------------------


@dataclass
class Figure:
    """A measured workload, or why there is none (``status`` 'missing' or 'n/a')."""

    status: str = "ok"
    reason: str = ""
    seconds: float = 0.0  # median seconds per round
    items: int = 1
    unit: str = ""
    moves: int | None = None
    hands: int | None = None
    samples: list[float] = field(default_factory=list)
    note: str = ""
    baseline: float = 0.0  # median seconds of the workload's baseline (subtracted per item)
    floor: float = 0.0  # seconds per item below which a difference with the baseline is noise
    answer: Any = None  # the last answer (a duel's figures are in it)

    @property
    def below_floor(self) -> bool:
        """True when the workload minus its baseline is not above the measurement floor: the
        figure is then only an upper bound (the floor), never a negative time."""
        return self.baseline > 0 and (self.seconds - self.baseline) / self.items <= self.floor

    @property
    def per_item(self) -> float:
        """Seconds per item, the baseline subtracted; the floor when the difference is below it."""
        if self.below_floor:
            return self.floor
        return (self.seconds - self.baseline) / self.items

    @property
    def per_second(self) -> float:
        return 1 / self.per_item

    def as_json(self) -> dict[str, Any]:
        if self.status != "ok":
            return {"status": self.status, "reason": self.reason}
        out: dict[str, Any] = {
            "status": "ok",
            "unit": self.unit,
            "items_per_round": self.items,
            "seconds_per_round": self.seconds,
            "seconds_per_item": self.per_item,
            "items_per_second": self.per_second,
            "rounds_seconds": self.samples,
        }
        if self.baseline:
            out["baseline_seconds_per_round"] = self.baseline
            out["floor_seconds_per_item"] = self.floor
            out["below_floor"] = self.below_floor
        if self.moves is not None and self.hands:
            out.update(
                hands_per_second=self.hands / self.seconds,
                moves_per_second=self.moves / self.seconds,
                moves_per_hand=self.moves / self.hands,
                seconds_per_move=self.seconds / self.moves,
            )
        if self.note:
            out["note"] = self.note
        if hasattr(self.answer, "win_rate"):  # a duel (burraco.arena.Duel)
            duel = self.answer
            out["duel"] = {
                "a": duel.a, "b": duel.b, "pairs": duel.pairs, "wins_a": duel.wins_a,
                "wins_b": duel.wins_b, "ties": duel.ties, "win_rate_a": duel.win_rate,
                "interval_a": list(duel.interval), "mean_margin_a": duel.mean_margin,
                "margin_halfwidth": duel.margin_halfwidth,
                "ms_per_move": [duel.ms_per_decision(0), duel.ms_per_decision(1)],
            }
        return out


def measure(build: Callable[[], W.Workload], smoke: bool, repeats: int, min_time: float) -> Figure:
    try:
        workload = build()
    except W.Missing as missing:
        return Figure(status="missing", reason=str(missing))
    except W.NotApplicable as not_applicable:
        return Figure(status="n/a", reason=str(not_applicable))
    if smoke or workload.once:
        smoke, repeats, min_time = True, 1, 0.0
    elif workload.engine == "reference":
        repeats = min(repeats, 3)
    samples, answer = _time(workload.run, workload.check, smoke, repeats, min_time)
    baseline, floor = 0.0, 0.0
    if workload.baseline is not None:
        base_samples = _time(workload.baseline, lambda _: None, smoke, repeats, min_time)[0]
        baseline = statistics.median(base_samples)
        floor = measurement_floor(samples, base_samples) / workload.items
    return Figure(
        baseline=baseline,
        floor=floor,
        seconds=statistics.median(samples),
        items=workload.items,
        unit=workload.unit,
        moves=workload.moves(answer) if workload.moves else None,
        hands=workload.hands,
        samples=samples,
        note=workload.note,
        answer=answer,
    )


def measurement_floor(samples: list[float], base_samples: list[float]) -> float:
    """The smallest difference between a workload and its baseline (seconds per round) that the
    samples can tell from noise: the clock's resolution, the spread of each one's repeats (half
    the range, added), and with a single sample of each (smoke) the baseline itself, since one cold
    call's error is of the order of the call."""
    floor = time.get_clock_info("perf_counter").resolution
    if len(samples) < 2 or len(base_samples) < 2:
        return max(floor, *base_samples)
    spread = (max(samples) - min(samples)) / 2 + (max(base_samples) - min(base_samples)) / 2
    return max(floor, spread)


def _time(run, check, smoke: bool, repeats: int, min_time: float) -> tuple[list[float], Any]:
    """Seconds per call of ``run`` in each repeat (looped for ``min_time``), and the last answer;
    every repeat's answer is checked, and so is a warm-up call first (none in smoke mode)."""
    if smoke:
        start = time.perf_counter()
        answer = run()
        samples = [time.perf_counter() - start]
        check(answer)
        return samples, answer
    answer = run()  # warm-up, checked
    check(answer)
    start = time.perf_counter()
    answer = run()
    once = time.perf_counter() - start
    check(answer)
    loops = max(1, int(min_time / max(once, 1e-9)))
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(loops):
            answer = run()
        samples.append((time.perf_counter() - start) / loops)
        check(answer)
    return samples, answer


# ---- peak memory, in a child process (benches/memory_workloads.py) -------------------------


def measure_rss(engine: str, mode: str) -> dict[str, Any]:
    if engine == "open_spiel" and not W.open_spiel_available():
        return {"status": "n/a", "reason": "n/a: open_spiel not importable"}
    if engine == "reference":
        return {"status": "n/a", "reason": "n/a: too slow for many hands"}
    done = subprocess.run(
        [sys.executable, __file__, "--rss-child", engine, "--mode", mode],
        check=True,
        capture_output=True,
        text=True,
    )
    return {"status": "ok", **json.loads(done.stdout.splitlines()[-1])}


# ---- the rows ----------------------------------------------------------------------------------


def fmt_time(seconds: float) -> str:
    if seconds < 1e-3:
        value, unit = seconds * 1e6, "us"
    elif seconds < 1:
        value, unit = seconds * 1e3, "ms"
    else:
        value, unit = seconds, "s"
    digits = 2 if value < 10 else 1 if value < 100 else 0
    return f"{value:.{digits}f} {unit}"


def fmt_per_item(figure: Figure) -> str:
    """A figure's time per item, ``'< 0.40 us'`` when it is below the measurement floor."""
    text = fmt_time(figure.per_item)
    return f"< {text}" if figure.below_floor else text


def fmt_rate(per_second: float) -> str:
    if per_second >= 1e6:
        return f"{per_second / 1e6:.2f}M/s"
    return f"{per_second:,.0f}/s"


@dataclass
class Line:
    label: str
    metric: str
    cells: dict[str, str]
    values: dict[str, float | None]
    target: str = ""
    met: str = ""


def _cell(figure: Figure | None, show: Callable[[Figure], str]) -> str:
    if figure is None:
        return ""
    if figure.status != "ok":
        return figure.status
    return show(figure)


def _value(figure: Figure | None, get: Callable[[Figure], float]) -> float | None:
    return get(figure) if figure is not None and figure.status == "ok" else None


def _line(label, metric, figures, show, get, target="", test=None) -> Line:
    cells = {e: _cell(figures.get(e), show) for e in ENGINES}
    values = {e: _value(figures.get(e), get) for e in ENGINES}
    met = ""
    if test is not None:
        core = figures.get("core")
        if core is None or core.status != "ok":
            met = core.status if core is not None else ""
        else:
            met = test(values["core"])
    return Line(label, metric, cells, values, target, met)


def _yes(ok: bool) -> str:
    return "yes" if ok else "NO"


def playout_lines(label: str, figures: dict[str, Figure], target_rate: float | None) -> list[Line]:
    def per_hand(f: Figure) -> str:
        return f"{fmt_time(f.seconds / f.hands)} ({fmt_rate(f.hands / f.seconds)})"

    def moves(f: Figure) -> str:
        return f"{fmt_rate(f.moves / f.seconds)} ({f.moves / f.hands:.1f})"

    target, test = "", None
    if target_rate is not None:
        target = f">= {target_rate:,.0f} hands/s"

        def test(hands_per_second: float) -> str:
            return _yes(hands_per_second >= target_rate)

    return [
        _line(
            label,
            "time/hand (hands/s)",
            figures,
            per_hand,
            lambda f: f.hands / f.seconds,
            target,
            test,
        ),
        _line("", "moves/s (moves/hand)", figures, moves, lambda f: f.moves / f.seconds),
    ]


def _ratio_line(label: str, top: Figure | None, bottom: Figure | None, target: str,
                test: Callable[[float], bool]) -> Line:
    """A core-only line: top's rate over bottom's (hands or iterations per second)."""
    line = Line(label, "ratio", {e: "" for e in ENGINES}, {e: None for e in ENGINES}, target)
    if top is None or bottom is None or top.status != "ok" or bottom.status != "ok":
        line.cells["core"] = line.met = next(
            (f.status for f in (top, bottom) if f is not None and f.status != "ok"), "")
        return line
    ratio = top.per_second / bottom.per_second
    line.cells["core"], line.values["core"] = f"{ratio:.2f}x", ratio
    line.met = _yes(test(ratio))
    return line


def native_lines(fig, sizes) -> list[Line]:
    """The rows of issue-style targets for native policies (docs/native.md "Cost")."""
    def rate(f: Figure) -> str:
        text = fmt_rate(f.per_second)
        if f.moves and f.hands:
            text += f" ({f.moves / f.hands:.1f} moves/hand, {fmt_time(f.seconds / f.moves)}/move)"
        return text

    def core_only(key, label, metric, build) -> tuple[Line, Figure]:
        figure = fig(lambda: build("core"), "core", key)
        figures = {"core": figure}
        for engine in ENGINES:
            if engine != "core":
                figures[engine] = Figure(status="n/a", reason="n/a: core only")
        return _line(label, metric, figures, rate, lambda f: f.per_second), figure

    native_line, native = core_only(
        "native_policy", "pilewise native: playouts(threads=1)", "hands/s",
        lambda e: W.policy_batch(e, sizes, W.NATIVE_POLICY))
    twin_line, twin = core_only(
        "twin_policy", "pilewise Python twin: playouts(threads=1)", "hands/s",
        lambda e: W.policy_batch(e, sizes, W.TWIN_POLICY))
    greedy_line, greedy = core_only(
        "greedy_policy", "greedy: playouts(threads=1)", "hands/s",
        lambda e: W.policy_batch(e, sizes, "greedy"))
    two_line, two = core_only(
        "native_policy2", "pilewise native: playouts(threads=2)", "hands/s",
        lambda e: W.policy_batch(e, sizes, W.NATIVE_POLICY, threads=2))
    search_native_line, search_native = core_only(
        "ismcts_native", "ISMCTS, pilewise native rollouts", "it/s",
        lambda e: W.policy_ismcts(e, sizes, W.NATIVE_POLICY))
    search_greedy_line, search_greedy = core_only(
        "ismcts_greedy", "ISMCTS, greedy rollouts", "it/s",
        lambda e: W.policy_ismcts(e, sizes, "greedy"))
    port_line, port = core_only(
        "port_policy", "greedy, native port: playouts(threads=1)", "hands/s",
        lambda e: W.policy_batch(e, sizes, W.PORT_POLICY))
    search_port_line, search_port = core_only(
        "ismcts_port", "ISMCTS, greedy native-port rollouts", "it/s",
        lambda e: W.policy_ismcts(e, sizes, W.PORT_POLICY))
    view_figure = fig(lambda: W.policy_view("core"), "core", "policy_view")
    view = _line("the native view, one call (12 cards, meld phase)", "time/call (C++)",
                 {"core": view_figure, **{e: Figure(status="n/a", reason="n/a: core only")
                                          for e in ENGINES if e != "core"}},
                 fmt_per_item, lambda f: f.per_item)
    return [
        native_line, twin_line, greedy_line, two_line,
        _ratio_line("pilewise native / Python twin", native, twin, ">= 20x", lambda r: r >= 20),
        _ratio_line("pilewise native / greedy", native, greedy, ">= 0.67x (within 1.5x)",
                    lambda r: r >= 1 / 1.5),
        _ratio_line("pilewise native, 2 threads / 1 thread", two, native, ">= 1.8x",
                    lambda r: r >= 1.8),
        port_line,
        _ratio_line("greedy native port / built-in greedy", port, greedy,
                    ">= 0.67x (within 1.5x)", lambda r: r >= 1 / 1.5),
        search_native_line, search_port_line, search_greedy_line,
        _ratio_line("ISMCTS pilewise / greedy rollouts", search_native, search_greedy, ">= 0.5x",
                    lambda r: r >= 0.5),
        _ratio_line("ISMCTS greedy-port / greedy rollouts", search_port, search_greedy,
                    ">= 0.5x", lambda r: r >= 0.5),
        view,
    ]


def ray_lines(fig, mode: str) -> list[Line]:
    """The rows of self-play on Ray (docs/rl.md): the run against playouts(threads=2)."""
    def rate(f: Figure) -> str:
        return fmt_rate(f.per_second) + (f" ({f.hands:,} hands)" if f.hands else "")

    def core_only(key, label, build) -> tuple[Line, Figure]:
        figure = fig(lambda: build("core"), "core", key)
        figures = {"core": figure, **{e: Figure(status="n/a", reason="n/a: core only")
                                      for e in ENGINES if e != "core"}}
        return _line(label, "hands/s", figures, rate, lambda f: f.per_second), figure

    batch_line, batch = core_only(
        "ray_playouts2", f"{R.RAY_POLICY}: playouts(threads=2)",
        lambda e: R.playouts_two_threads(e, mode))
    ray_line, ray = core_only(
        "ray_selfplay", f"{R.RAY_POLICY}: selfplay on a local 2-CPU Ray (records, Parquet)",
        lambda e: R.ray_selfplay(e, mode))
    return [batch_line, ray_line,
            _ratio_line("Ray selfplay / playouts(threads=2)", ray, batch, ">= 0.7x",
                        lambda r: r >= 0.7)]


SPIEL_TITLE = ("OpenSpiel's ISMCTS on burraco: burraco.ISMCTS (random rollouts, win reward, every"
               " seat in the tree) | open_spiel column: OpenSpiel's Python ISMCTSBot on"
               f" python_burraco ({E.SPIEL_PRESET}, burraco.envs.openspiel), not gin_rummy")


def spiel_lines(fig, sizes) -> list[Line]:
    """Our ISMCTS against OpenSpiel's on the same game: iterations a second at one position, and
    duels on duplicate deals (the arena's statistics: pair wins with the Wilson interval, the mean
    margin a pair with its 95 % half-width, CPU time a move chosen)."""
    figures = {e: fig(lambda e=e: E.ismcts_2p(e, sizes), e, "ismcts_2p") for e in ENGINES}
    rate = _line("ISMCTS, italian-2p after the draw", "time/iteration (it/s)", figures,
                 lambda f: f"{fmt_per_item(f)} ({fmt_rate(f.per_second)})",
                 lambda f: f.per_item)
    ours, theirs = figures.get("core"), figures.get("open_spiel")
    ratio = Line("", "iterations/s, core / open_spiel", {e: "" for e in ENGINES},
                 {e: None for e in ENGINES})
    if ours is not None and theirs is not None and ours.status == theirs.status == "ok":
        ratio.values["core"] = ours.per_second / theirs.per_second
        ratio.cells["core"] = f"{ratio.values['core']:,.0f}x"
    lines = [rate, ratio]
    for factor in (1, E.DUEL_TIME_FACTOR):
        figure = fig(lambda f=factor: E.openspiel_duel("core", sizes, f), "core",
                     f"duel_openspiel_x{factor}")
        ours_it = sizes.duel_iterations * factor
        plural = "s" if sizes.duel_pairs != 1 else ""
        label = (f"duel, {sizes.duel_pairs} italian-2p pair{plural}: {ours_it:,} it vs ISMCTSBot "
                 f"{sizes.duel_iterations} it")
        win = Line(label, "ours: pair wins (95% CI), margin/pair", {e: "" for e in ENGINES},
                   {e: None for e in ENGINES})
        cpu = Line("", "CPU time per move chosen", {e: "" for e in ENGINES},
                   {e: None for e in ENGINES})
        if figure.status != "ok":
            win.cells["core"] = cpu.cells["core"] = figure.status
        else:
            duel = figure.answer
            low, high = duel.interval
            win.values["core"] = duel.win_rate
            spread = ("" if duel.pairs < 2 else f" ± {duel.margin_halfwidth:.0f}")
            win.cells["core"] = (f"{duel.win_rate:.0%} [{low:.0%}, {high:.0%}], "
                                 f"{duel.mean_margin:+.0f}{spread}")
            for engine, which in (("core", 0), ("open_spiel", 1)):
                cpu.values[engine] = duel.ms_per_decision(which)
                cpu.cells[engine] = fmt_time(duel.ms_per_decision(which) / 1000)
        lines += [win, cpu]
    return lines


def vector_lines(fig, sizes) -> list[Line]:
    """The vector environment's rows (issue 14; docs/rl.md "The vector environment")."""
    def rate(f: Figure) -> str:
        return f"{fmt_rate(f.per_second)} ({f.note})"

    def core_only(key, label, target, test, build) -> tuple[Line, Figure]:
        figure = fig(lambda: build("core"), "core", key)
        figures = {"core": figure, **{e: Figure(status="n/a", reason="n/a: core only")
                                      for e in ENGINES if e != "core"}}
        return _line(label, "agent steps/s", figures, rate, lambda f: f.per_second, target,
                     test), figure

    one_line, one = core_only(
        "vector1", "C++ vector env, threads=1", ">= 300,000 steps/s",
        lambda r: _yes(r >= 300_000), lambda e: E.vector_env(e, sizes, 1))
    two_line, two = core_only(
        "vector2", "C++ vector env, threads=2", "", None, lambda e: E.vector_env(e, sizes, 2))
    aec_line, aec = core_only(
        "aec", "PettingZoo AEC env, Python loop", "", None, lambda e: E.aec_loop(e, sizes))
    return [
        one_line, two_line,
        _ratio_line("vector env, 2 threads / 1 thread", two, one, ">= 1.8x", lambda r: r >= 1.8),
        aec_line,
        _ratio_line("vector env (1 thread) / AEC loop", one, aec, ">= 10x", lambda r: r >= 10),
    ]


def build_table(smoke: bool, repeats: int, min_time: float, progress, raw: list,
                only: str | None = None) -> list:
    """Measures every row (only="native": the native-policy rows alone; "openspiel": OpenSpiel's
    ISMCTS on burraco alone); returns (group title,
    lines) pairs; every figure is added to raw."""
    sizes = W.SMOKE if smoke else W.FULL
    mode = "smoke" if smoke else "full"
    gin = W.open_spiel_available()

    def fig(build, engine, key) -> Figure:
        if engine == "open_spiel" and not gin:
            figure = Figure(status="n/a", reason="n/a: open_spiel not importable")
        else:
            progress(f"{key} {engine}")
            figure = measure(build, smoke, repeats, min_time)
        raw.append({"row": key, "engine": engine, **figure.as_json()})
        return figure

    groups: list[tuple[str, list]] = []
    native_title = ("Native policies: examples/cython_policy's pilewise, native (Cython) and its "
                    f"Python twin, and its native port of greedy, beside greedy ({W.NATIVE_RULES})")
    vector_title = (f"Vector environment: burraco.envs.vector, {W.VECTOR_RULES} against 'random',"
                    " observations and masks every step, masked random actions")
    if only == "native":
        return [(native_title, native_lines(fig, sizes))]
    ray_title = (f"Self-play on Ray ({R.RAY_RULES}, the same hands both ways; "
                 "burraco.distributed, docs/rl.md)")
    if only == "ray":
        return [(ray_title, ray_lines(fig, mode))]
    if only == "openspiel":
        return [(SPIEL_TITLE, spiel_lines(fig, sizes))]
    if only == "vector":
        return [(vector_title, vector_lines(fig, sizes))]

    def per_rules(key, title, builder, engines, target_for, extra=None):
        lines, all_figures = [], {}
        for rules_id in W.RULES_IDS:
            figures = {}
            for engine in engines:
                if engine == "open_spiel" and rules_id != "italian":
                    continue  # one gin_rummy figure per group, on the italian line
                figures[engine] = fig(
                    lambda e=engine, r=rules_id: builder(e, r), engine, f"{key}/{rules_id}"
                )
            all_figures[rules_id] = figures
            lines += playout_lines(rules_id, figures, target_for(rules_id))
            if extra is not None:
                lines += extra(rules_id, figures)
        groups.append((title, lines))
        return all_figures

    def italian_only(rate):
        return lambda rules_id: rate if rules_id == "italian" else None

    per_rules(
        "playout",
        "C++-driven random playouts: Game(rules, seed=s).playout('random', s)"
        " | gin: pyspiel.evaluate_bots, 2 uniform random bots",
        lambda e, r: W.playout(e, r, sizes),
        ENGINES,
        italian_only(10_000),
    )
    # Six-player brazilian (three sides of two, 162 cards): the same workload, hands per second
    # on one core, the core and the reference only.
    six = W.SIX_PLAYER_RULES
    six_figures = {engine: fig(lambda e=engine: W.playout(e, six, sizes), engine, f"playout/{six}")
                   for engine in ("core", "reference")}
    groups[-1][1].extend(playout_lines(six, six_figures, 3_000))
    python = per_rules(
        "python",
        "Python-driven random playouts: legal_moves() + push() per move"
        " | gin: legal_actions() + apply_action(), chance from chance_outcomes()",
        lambda e, r: W.python_playout(e, r, sizes),
        ENGINES,
        italian_only(None),
    )
    by_index = {
        e: fig(
            lambda e=e: W.python_playout(e, "italian", sizes, by_index=True),
            e,
            "python_index/italian",
        )
        for e in ("core", "reference")
    }

    def per_move(f: Figure) -> str:
        return f"{fmt_time(f.seconds / f.moves)} ({f.moves / f.hands:.1f} moves/hand)"

    groups.append(
        (
            "Python-driven step, italian random hands (time per move of whole hands)",
            [
                _line(
                    "legal_moves() + push(moves[i])",
                    "time/move",
                    python["italian"],
                    per_move,
                    lambda f: f.seconds / f.moves,
                    "<= 1.5 us",
                    lambda s: _yes(s <= 1.5e-6),
                ),
                _line(
                    "legal_moves() + push_index(i)",
                    "time/move",
                    by_index,
                    per_move,
                    lambda f: f.seconds / f.moves,
                    "<= 1.5 us",
                    lambda s: _yes(s <= 1.5e-6),
                ),
            ],
        )
    )

    batch1 = per_rules(
        "batch1",
        "Batch playouts: burraco.playouts(rules, n, policy='random', threads=1), core only",
        lambda e, r: W.batch(e, r, sizes, 1),
        ("core",),
        italian_only(10_000),
    )

    def speed_up(rules_id, figures):
        one, two = batch1[rules_id].get("core"), figures.get("core")
        line = Line(
            "",
            "speed-up vs 1 thread",
            {e: "" for e in ENGINES},
            {e: None for e in ENGINES},
            ">= 1.8x",
        )
        if one is None or two is None or "ok" not in (one.status, two.status):
            line.cells["core"] = line.met = two.status if two is not None else ""
            return [line]
        ratio = one.seconds / two.seconds
        line.cells["core"], line.values["core"] = f"{ratio:.2f}x", ratio
        line.met = _yes(ratio >= 1.8)
        return [line]

    per_rules(
        "batch2",
        f"Batch playouts, threads=2 (this machine: {os.cpu_count()} cores, shared)",
        lambda e, r: W.batch(e, r, sizes, 2),
        ("core",),
        italian_only(None),
        speed_up,
    )
    per_rules(
        "greedy",
        "C++-driven greedy playouts: playout('greedy', s) | gin: evaluate_bots,"
        " make_simple_gin_rummy_bot",
        lambda e, r: W.playout(e, r, sizes, "greedy"),
        ENGINES,
        italian_only(None),
    )


    groups.append((native_title, native_lines(fig, sizes)))
    groups.append((vector_title, vector_lines(fig, sizes)))

    def single(key, label, metric, build, target="", test=None, show=None, get=None):
        figures = {e: fig(lambda e=e: build(e), e, key) for e in ENGINES}
        show = show or fmt_per_item
        get = get or (lambda f: f.per_item)
        return _line(label, metric, figures, show, get, target, test)

    fixed = [
        single(
            "legal_11",
            "legal_moves(), 11 cards, draw phase",
            "time/call (Python)",
            lambda e: W.legal_moves(e, "legal_11"),
        ),
        single(
            "legal_12",
            "legal_moves(), 12 cards, meld phase",
            "time/call (Python)",
            lambda e: W.legal_moves(e, "legal_12"),
        ),
        single(
            "legal_30",
            "legal_moves(), 31 cards after pile take",
            "time/call (Python)",
            lambda e: W.legal_moves(e, "legal_30"),
        ),
        # The 0.5 us target is judged where generation does real work: the 11 dealt cards plus
        # the drawn one, in the meld phase (the draw phase only offers draw and pile).
        single(
            "cpp_legal_11",
            "C++ legal moves, 11 cards, draw phase",
            "time/call (C++)",
            lambda e: W.cpp_legal_moves(e, "legal_11"),
        ),
        single(
            "cpp_legal_12",
            "C++ legal moves, 11 + 1 cards, meld phase",
            "time/call (C++)",
            lambda e: W.cpp_legal_moves(e, "legal_12"),
            "<= 0.5 us",
            lambda s: _yes(s <= 0.5e-6),
        ),
        single(
            "cpp_legal_30",
            "C++ legal moves, 31 cards after pile take",
            "time/call (C++)",
            lambda e: W.cpp_legal_moves(e, "legal_30"),
        ),
        single(
            "copy", "copy() / clone()", "time/call", W.copy, "<= 1 us", lambda s: _yes(s <= 1e-6)
        ),
        single(
            "determinize",
            "determinize() / resample_from_infostate()",
            "time/call",
            W.determinize,
            "<= 2 us",
            lambda s: _yes(s <= 2e-6),
        ),
    ] + [
        single(
            row,
            label,
            "time/iteration (it/s)",
            workload,
            f">= {rate:,} it/s",
            lambda s, rate=rate: _yes(1 / s >= rate),
            show=lambda f: f"{fmt_per_item(f)} ({fmt_rate(f.per_second)})",
        )
        for row, label, workload, rate in (
            ("ismcts", "ISMCTS choose() / ISMCTSBot.step()", lambda e: W.ismcts(e, sizes), 5000),
            ("ismcts_heuristic", "ISMCTS, heuristic rollouts cut at 8 (docs/bots.md)",
             lambda e: W.ismcts_heuristic(e, sizes), 20000),
            ("ismcts_heuristic_2p", "ISMCTS, heuristic rollouts cut at 8, italian-2p",
             lambda e: W.ismcts_heuristic_2p(e, sizes), 20000),
        )
    ]
    groups.append(
        ("Fixed positions (tests/data/perft/italian.perft and italian-2p.perft; gin_rummy: "
         "seeded deals)", fixed)
    )
    groups.append((SPIEL_TITLE, spiel_lines(fig, sizes)))

    groups.append((ray_title, ray_lines(fig, mode)))

    rss = {}
    for engine in ENGINES:
        progress(f"{engine} memory")
        rss[engine] = measure_rss(engine, mode)
        raw.append({"row": "memory", "engine": engine, **rss[engine]})
    cells, values = {}, {}
    for engine, found in rss.items():
        if found["status"] != "ok":
            cells[engine], values[engine] = found["status"], None
        else:
            cells[engine] = f"{found['growth_kib']:+,} KiB ({found['hands']:,} hands)"
            values[engine] = found["growth_kib"]
    memory = Line(
        "peak RSS growth, italian",
        "KiB after warm-up",
        cells,
        values,
        f"none (<= {RSS_TOLERANCE_KIB} KiB)",
    )
    if values["core"] is not None:
        memory.met = _yes(values["core"] <= RSS_TOLERANCE_KIB)
    title = f"Memory over many playouts (fresh child process; core: {rss['core'].get('what', '')})"
    groups.append((title, [memory]))
    return groups


# ---- printing ------------------------------------------------------------------------------------


def render(groups, header: str, judged: bool, reasons: list[str]) -> str:
    """The table; ``judged`` False (smoke) leaves the met column empty: one cold run is no
    measurement."""
    lines = [line for _, group in groups for line in group]
    widths = {
        "label": max(len(line.label) for line in lines),
        "metric": max(len(line.metric) for line in lines),
        **{e: max(len(COLUMNS[e]), *(len(line.cells[e]) for line in lines)) for e in ENGINES},
        "target": max(len("core target"), *(len(line.target) for line in lines)),
    }
    head = (
        f"{'row':<{widths['label']}}  {'metric':<{widths['metric']}}  "
        + "  ".join(f"{COLUMNS[e]:>{widths[e]}}" for e in ENGINES)
        + f"  {'core target':<{widths['target']}}  {'met' if judged else 'met (smoke: not judged)'}"
    )
    out = [header, "", head, "-" * len(head)]
    for title, group in groups:
        out.append(f"# {title}")
        for line in group:
            out.append(
                f"{line.label:<{widths['label']}}  {line.metric:<{widths['metric']}}  "
                + "  ".join(f"{line.cells[e]:>{widths[e]}}" for e in ENGINES)
                + f"  {line.target:<{widths['target']}}  {line.met if judged else ''}".rstrip()
            )
    notes = [*NOTES, *reasons]
    out += ["", "Notes:"]
    for note in notes:
        out += textwrap.wrap(note, 100, initial_indent="* ", subsequent_indent="  ")
    return "\n".join(out)


def versions() -> dict[str, Any]:
    found: dict[str, Any] = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "load_average": " ".join(f"{x:.1f}" for x in os.getloadavg()),
    }
    for name in ("burraco", "open_spiel", "numpy"):
        try:
            found[name] = version(name)
        except PackageNotFoundError:  # not installed: the column says n/a
            found[name] = None
    if not W.open_spiel_available():
        found["open_spiel"] = None
    core = W.load("core")
    found["core_features"] = {
        "playouts": hasattr(core, "playouts"),
        "ISMCTS": hasattr(core, "ISMCTS"),
        "determinize": hasattr(core.Game, "determinize"),
        "observation": hasattr(core.Game, "observation"),
        "push_index": hasattr(core.Game, "push_index"),
    }
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="tiny counts, a few seconds")
    parser.add_argument("--json", metavar="FILE", help="write the figures to FILE")
    parser.add_argument("--repeats", type=int, default=5, help="timed repeats (median)")
    parser.add_argument(
        "--min-time",
        type=float,
        default=0.2,
        help="seconds a repeat loops the workload for, at least",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    parser.add_argument("--only", choices=["native", "openspiel", "ray", "vector"],
                        help="measure one group of rows alone (native: the native policies; "
                             "openspiel: our ISMCTS against OpenSpiel's on burraco; ray: "
                             "self-play on Ray; vector: the vector environment)")
    parser.add_argument("--rss-child", choices=ENGINES, help=argparse.SUPPRESS)
    parser.add_argument("--mode", default="full", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.rss_child:
        print(json.dumps(M.rss_child(args.rss_child, args.mode)))
        return 0

    started = time.perf_counter()
    count = [0]

    def progress(what: str) -> None:
        count[0] += 1
        if not args.quiet and sys.stderr.isatty():
            print(
                f"\r[{count[0]:3d}] {time.perf_counter() - started:6.1f}s {what:<20}",
                end="",
                file=sys.stderr,
                flush=True,
            )

    info = versions()
    raw: list[dict[str, Any]] = []
    groups = build_table(args.smoke, args.repeats, args.min_time, progress, raw, args.only)
    if not args.quiet and sys.stderr.isatty():
        print(file=sys.stderr)
    elapsed = time.perf_counter() - started
    header = (
        f"burraco search benchmarks ({'smoke' if args.smoke else 'full'}: "
        + (
            "one run per row"
            if args.smoke
            else f"median of {args.repeats} repeats of >= {args.min_time} s, reference 3"
        )
        + f"; {elapsed:.0f} s) | Python {info['python']}, {info['cpus']} CPUs, load average"
        + f" {info['load_average']} at the start, open_spiel "
        + f"{info['open_spiel'] or 'not importable'}"
    )
    reasons = sorted({f["reason"] for f in raw if f.get("status") in ("n/a", "missing")})
    print(render(groups, header, judged=not args.smoke, reasons=reasons))
    if args.json:
        rows, label = [], ""
        for title, group in groups:
            for line in group:
                label = line.label or label
                rows.append(
                    {
                        "group": title,
                        "row": label,
                        "metric": line.metric,
                        "cells": line.cells,
                        "values": line.values,
                        "target": line.target,
                        "met": line.met,
                    }
                )
        Path(args.json).write_text(
            json.dumps(
                {
                    "mode": "smoke" if args.smoke else "full",
                    "seconds": elapsed,
                    "versions": info,
                    "rows": rows,
                    "figures": raw,
                },
                indent=1,
            )
            + "\n",
            encoding="utf-8",
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
