"""``burraco bench``: the benchmark table of a source checkout (tools/bench_table.py)."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path
from typing import Any

from ._common import CliError


def find_checkout(explicit: str | None = None) -> Path | None:
    """The source checkout that holds ``tools/bench_table.py`` and ``benches/``: ``explicit``,
    else the one this package was installed from in editable mode, else the current directory or
    one of its parents."""
    if explicit is not None:
        candidates = [Path(explicit)]
    else:
        here = Path(__file__).resolve()
        candidates = [here.parents[3], Path.cwd(), *Path.cwd().parents]
    for candidate in candidates:
        if (candidate / "tools" / "bench_table.py").is_file() and (
            candidate / "benches" / "search_workloads.py"
        ).is_file():
            return candidate
    return None


def run(args: argparse.Namespace) -> int:
    """``burraco bench``: runs ``tools/bench_table.py`` of a source checkout (the workloads live
    in ``benches/`` and the positions in ``tests/data``, outside the package)."""
    checkout = find_checkout(args.source)
    if checkout is None:
        where = f"{args.source!r}" if args.source else "the current directory or its parents"
        raise CliError(
            f"the benchmarks need a source checkout of burraco (tools/bench_table.py and "
            f"benches/), none found in {where}: run from a clone or give --source DIR"
        )
    command = [sys.executable, str(checkout / "tools" / "bench_table.py")]
    if args.smoke:
        command.append("--smoke")
    if args.json:
        command += ["--json", args.json]
    if args.quiet:
        command.append("--quiet")
    if args.repeats is not None:
        command += ["--repeats", str(args.repeats)]
    return subprocess.call(command)


def register(commands: Any) -> None:
    """Adds ``burraco bench`` to the subcommands."""
    bench = commands.add_parser(
        "bench", help="the benchmark table (needs a source checkout)",
        description="Print the search benchmark table of tools/bench_table.py: the core, the "
        "reference and OpenSpiel's gin_rummy side by side. The workloads live in the source "
        "checkout (benches/, tests/data), so this runs from one.",
    )
    bench.add_argument("--smoke", action="store_true", help="every row with tiny counts, seconds")
    bench.add_argument("--json", metavar="FILE", help="also write the figures to FILE")
    bench.add_argument("--repeats", type=int, metavar="N", help="timed repeats per row (median)")
    bench.add_argument("--quiet", action="store_true", help="no progress on stderr")
    bench.add_argument("--source", metavar="DIR",
                       help="the source checkout (default: found from the package or the "
                       "current directory)")
    bench.set_defaults(run=run)
