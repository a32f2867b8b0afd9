#!/usr/bin/env python3
"""Instruction counts of the bench table's core rows, under callgrind: repeatable on a shared VM.

    python tools/callgrind_rows.py                      # every row, one build (the installed one)
    python tools/callgrind_rows.py --rows playout/italian copy
    python tools/callgrind_rows.py --python A --python B # two builds side by side, B against A
    python tools/callgrind_rows.py --json FILE          # also write the counts
    python tools/callgrind_rows.py --rows native/pilewise native/port ismcts_native

The native-policy rows (``native/...``, ``ismcts_native``) are not in the default set: they play
examples/cython_policy's pilewise (``pip install --no-build-isolation ./examples/cython_policy``,
or that folder built in place and put on PYTHONPATH), so they need it importable by each
interpreter measured. ``view`` is the native view alone (``_core._policy_view_repeat``).

Compare builds installed the same way: an editable install run with PYTHONDONTWRITEBYTECODE=1
parses its Python sources on every run, a cost that need not cancel between the two runs (the
same build read 3,166 instructions a move on playout/italian-2p installed editable, 3,047
installed regularly, whose bytecode is compiled when installed).

Each row of ``tools/bench_table.py``'s core column (C++-driven playouts, batch playouts on one
thread, Python-driven steps, legal moves from Python and in a C++ loop, copy, determinize, ISMCTS)
is run twice under ``valgrind --tool=callgrind``, once with a small and once with a larger amount
of work, and the difference of the two totals is divided by the difference of the work done
(moves, calls or iterations). Interpreter start-up, imports and every other fixed cost cancel out;
what is left is the whole cost of one unit as a Python user pays it, the interpreter's share
included. The same build and input give the same count on every run, whatever the load.

``--python`` names an interpreter (a virtual environment's ``bin/python``) with the build to
measure; given twice, the second build is compared with the first and the change is printed in
percent. Each measurement takes a few seconds under valgrind; the whole table about 3-6 minutes
per build on this 2-core machine.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Each snippet reads N from sys.argv[1], does N units of work after a fixed set-up, and prints
# the number of units it did (moves, calls, iterations). Seeds and positions are those of
# benches/search_workloads.py.
_PRELUDE = f"""
import sys
sys.path.insert(0, {str(ROOT / 'benches')!r})
import burraco
import search_workloads as W
N = int(sys.argv[1])
"""

_PLAYOUT = """
rules = W.make_rules(burraco, {rules_id!r})
seeds = range(W.{first}, W.{first} + N)
print(sum(burraco.Game(rules, seed=s).playout({policy!r}, s) for s in seeds))
"""

_BATCH = """
rules = W.make_rules(burraco, {rules_id!r})
print(int(burraco.playouts(rules, N, seed=W.BATCH_SEED, policy='random', threads=1)['moves'].sum()))
"""

_PYTHON = """
rules = W.make_rules(burraco, {rules_id!r})
play = W.{play}
print(sum(play(burraco.Game(rules, seed=s), s) for s in range(W.FIRST_SEED, W.FIRST_SEED + N)))
"""

_LEGAL = """
position_id, moves = W.LEGAL_POSITIONS[{row!r}]
game = W.position(burraco, position_id, moves)
copies = [game.copy() for _ in range(N)]
total = sum(len(g.legal_moves()) for g in copies)
print(N)
"""

_CPP_LEGAL = """
from burraco import _core
position_id, moves = W.LEGAL_POSITIONS[{row!r}]
game = W.position(burraco, position_id, moves)
_core._legal_moves_repeat(game, N)
print(N)
"""

_COPY = """
game = W.position(burraco, W.COPY_POSITION)
copy = game.copy
for _ in range(N):
    copy()
print(N)
"""

_DETERMINIZE = """
game = W.position(burraco, W.DETERMINIZE_POSITION)
player, determinize = game.turn, game.determinize
for s in range(N):
    determinize(player, s)
print(N)
"""

_ISMCTS = """
game = W.position(burraco, *W.ISMCTS_POSITION)
burraco.ISMCTS(iterations=N, seed=1, exploration=W.ISMCTS_EXPLORATION,
               **W.classic_options(burraco)).choose(game)
print(N)
"""

_ISMCTS_HEURISTIC = """
game = W.position(burraco, *W.ISMCTS_POSITION)
burraco.ISMCTS(iterations=N, seed=1, exploration=W.ISMCTS_EXPLORATION,
               **W.HEURISTIC_SEARCH).choose(game)
print(N)
"""

_NATIVE = """
rules = W.make_rules(burraco, W.NATIVE_RULES)
table = burraco.playouts(rules, N, seed=W.NATIVE_SEED, policy=burraco.Policy({spec!r}), threads=1)
print(int(table['moves'].sum()))
"""

_ISMCTS_NATIVE = """
game = W.position(burraco, *W.ISMCTS_POSITION)
burraco.ISMCTS(iterations=N, seed=1, exploration=W.ISMCTS_EXPLORATION,
               **{**W.classic_options(burraco), 'policy': burraco.Policy(W.NATIVE_POLICY)}).choose(game)
print(N)
"""

_VIEW = """
from burraco import _core
position_id, moves = W.LEGAL_POSITIONS['legal_12']
game = W.position(burraco, position_id, moves)
_core._policy_view_repeat(game, N)
print(N)
"""

# Rows measured only when asked for by name (--rows): they need examples/cython_policy.
NATIVE_ROWS = ("native/pilewise", "native/port", "ismcts_native")

RULES_IDS = ("italian", "italian-2p", "italian-3p", "online-2p", "brazilian", "brazilian-2p")


def _rows() -> dict[str, tuple[str, int, int, str]]:
    """row -> (snippet, small N, large N, unit)."""
    rows: dict[str, tuple[str, int, int, str]] = {}
    for rules_id in RULES_IDS:
        # Enough hands that what happens once in a while (a garbage collection, the allocator
        # growing its heap) is spread thin. Two builds read 3,002 and 3,091 instructions a move on
        # playout/italian-2p (+2.9 %) measured at 5 and 25 hands, and 2,574 and 2,588 (+0.5 %)
        # at 20 and 220 hands.
        short = rules_id.startswith("brazilian")
        rows[f"playout/{rules_id}"] = (
            _PLAYOUT.format(rules_id=rules_id, first="FIRST_SEED", policy="random"),
            *((4, 20) if short else (20, 220)), "move")
        rows[f"batch1/{rules_id}"] = (
            _BATCH.format(rules_id=rules_id), *((8, 40) if short else (20, 100)), "move")
    for rules_id in ("italian", "brazilian"):
        rows[f"greedy/{rules_id}"] = (
            _PLAYOUT.format(rules_id=rules_id, first="GREEDY_FIRST_SEED", policy="greedy"),
            2, 8, "move")
    for rules_id in ("italian", "italian-2p"):
        rows[f"heuristic/{rules_id}"] = (
            _PLAYOUT.format(rules_id=rules_id, first="GREEDY_FIRST_SEED", policy="heuristic"),
            1, 4, "move")
    rows["python/italian"] = (_PYTHON.format(rules_id="italian", play="_python_hand"), 2, 8, "move")
    rows["python_index/italian"] = (
        _PYTHON.format(rules_id="italian", play="_python_hand_by_index"), 2, 8, "move")
    # A call at the draw phase costs ~87 instructions in C++: what does not cancel between the two
    # runs (the interpreter's start-up reads sys.argv, and its dictionaries fill in a slightly
    # different order) must be spread over many calls. At 200 and 1,200 calls two builds whose
    # legal_moves and loop cost 73 + 14 instructions a call alike read 86 and 88 (+1.3 %), the
    # difference all in CPython's dictionary lookups; at 2,000 and 22,000 both read 87.
    for row in ("legal_11", "legal_12", "legal_30"):
        rows[row] = (_LEGAL.format(row=row), 100, 1100, "call")
        rows[f"cpp_{row}"] = (_CPP_LEGAL.format(row=row), 2000, 22000, "call")
    rows["copy"] = (_COPY, 200, 1200, "call")
    rows["determinize"] = (_DETERMINIZE, 50, 300, "call")
    rows["ismcts"] = (_ISMCTS, 200, 1200, "iteration")
    rows["ismcts_heuristic"] = (_ISMCTS_HEURISTIC, 100, 500, "iteration")
    rows["ismcts_heuristic_2p"] = (_ISMCTS_HEURISTIC.replace("ISMCTS_POSITION", "ISMCTS_POSITION_2P"),
                                   100, 500, "iteration")
    rows["native/pilewise"] = (_NATIVE.format(spec="pilewise._native:policy"), 4, 20, "move")
    rows["native/port"] = (_NATIVE.format(spec="pilewise._greedy:policy"), 2, 8, "move")
    rows["ismcts_native"] = (_ISMCTS_NATIVE, 100, 500, "iteration")
    rows["view"] = (_VIEW, 2000, 12000, "call")
    return rows


def _count(python: str, snippet: str, n: int) -> tuple[int, int]:
    """(instructions, units) of one run of ``snippet`` with N = n under callgrind."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", python,
             "-c", _PRELUDE + snippet, str(n)],
            capture_output=True, text=True, check=False,
            cwd=tmp,  # `-c` puts the working directory first on sys.path: an empty one
            env={**os.environ, "PYTHONHASHSEED": "0", "OPENBLAS_NUM_THREADS": "1",
                 "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"},
        )
    if done.returncode != 0:
        raise SystemExit(f"error: the row failed under valgrind ({python}):\n{done.stderr[-2000:]}")
    match = re.search(r"Collected : (\d+)", done.stderr)
    if not match:
        raise SystemExit(f"error: no callgrind total in:\n{done.stderr[-2000:]}")
    return int(match.group(1)), int(done.stdout.split()[-1])


def measure(python: str, row: str) -> float:
    """Instructions per unit of ``row`` with the build of ``python``."""
    snippet, small, large, _unit = _rows()[row]
    instructions_small, units_small = _count(python, snippet, small)
    instructions_large, units_large = _count(python, snippet, large)
    if units_large <= units_small:
        raise SystemExit(f"error: {row}: the larger run did no more work ({units_small} units)")
    return (instructions_large - instructions_small) / (units_large - units_small)


def _resolve(python: str) -> str:
    """The interpreter binary itself (valgrind must not run a shell shim); a virtual
    environment's ``bin/python`` is kept as given, since it is a link that selects the venv."""
    path = Path(python)
    if path.parent.name == "bin" and (path.parent.parent / "pyvenv.cfg").exists():
        return str(path)
    done = subprocess.run([python, "-c", "import os, sys; print(os.path.realpath(sys.executable))"],
                          capture_output=True, text=True, check=True)
    return done.stdout.strip()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--python", action="append", help="interpreter with the build (twice: A/B)")
    parser.add_argument("--rows", nargs="+", help="rows to measure (default: all)")
    parser.add_argument("--json", help="also write the counts to this file")
    args = parser.parse_args(argv)
    pythons = [_resolve(p) for p in (args.python or [sys.executable])]
    if len(pythons) > 2:
        parser.error("--python at most twice")
    rows = args.rows or [row for row in _rows() if row not in NATIVE_ROWS]
    unknown = [row for row in rows if row not in _rows()]
    if unknown:
        parser.error(f"unknown rows {unknown}; rows are {list(_rows())}")
    results: dict[str, list[float]] = {}
    header = f"{'row':24} {'unit':9}" + "".join(f" {'build ' + 'AB'[i]:>14}" for i in
                                               range(len(pythons)))
    print(header + ("  change" if len(pythons) == 2 else ""))
    for row in rows:
        counts = [measure(python, row) for python in pythons]
        results[row] = counts
        line = f"{row:24} {_rows()[row][3]:9}" + "".join(f" {c:14,.0f}" for c in counts)
        if len(counts) == 2:
            line += f"  {100.0 * (counts[1] - counts[0]) / counts[0]:+6.2f} %"
        print(line, flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps({"pythons": pythons, "rows": results}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
