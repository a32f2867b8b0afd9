"""``burraco perft``: the move counts of a position with a divide, or a check of perft files."""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from .. import _perft_tool
from .._errors import BurracoError
from ._common import (
    MAX_PERFT_DEPTH,
    CliError,
    engine_option,
    input_file,
    load_engine,
    make_rules,
    nonnegative_seed,
    rules_options,
)


def run(args: argparse.Namespace) -> int:
    """``burraco perft``: move counts of a position (with a divide), or a check of perft files."""
    if args.files:
        for name in args.files:
            input_file(name, "a perft file")
        try:
            return _perft_tool.check_files(args.files, args.engine, ids=args.id,
                                           max_nodes=args.max_nodes, show_divide=args.divide,
                                           out=sys.stdout)
        except _perft_tool.PerftFileError as error:
            raise CliError(str(error)) from None
    engine = load_engine(args.engine)
    if not 0 <= args.depth <= MAX_PERFT_DEPTH:
        raise CliError(f"--depth {args.depth}: expected 0 to {MAX_PERFT_DEPTH}", 2)
    if args.state is not None:
        try:
            game = engine.Game.from_state_string(args.state)
        except BurracoError as error:
            raise CliError(f"--state: {error}", 2) from None
    else:
        rules = make_rules(engine, args.preset, args.players, args.sides)
        game = engine.Game(rules, seed=args.seed)
    print(f"state {game.state_string()}")
    started = time.perf_counter()
    nodes = 0
    for depth in range(1, args.depth + 1):
        count = int(engine.perft(game, depth))
        nodes += count
        print(f"perft {depth} {count}", flush=True)
    if args.divide and args.depth >= 1:
        counts = _perft_tool.divide_game(engine, game, args.depth)
        width = max([len(move) for move in counts] + [5])
        print(f"divide at depth {args.depth}:")
        for move, count in counts.items():
            print(f"  {move:<{width}} {count:>12}")
        print(f"  {'total':<{width}} {sum(counts.values()):>12}")
    seconds = time.perf_counter() - started
    rate = f", {nodes / seconds:,.0f} nodes/s" if seconds > 0 and nodes else ""
    print(f"time {seconds:.3f} s{rate} ({args.engine})")
    return 0


def register(commands: Any) -> None:
    """Adds ``burraco perft`` to the subcommands."""
    perft = commands.add_parser(
        "perft", help="count move sequences from a position, with a per-move divide",
        description="Count the legal move sequences of 1..D moves from a dealt position (--preset, "
        "--seed) or a state string (--state), printing 'perft d n' per depth; --divide adds the "
        "count below each root move. With perft FILEs instead: check their frozen counts "
        "(a mismatch prints both engines' divide).",
    )
    perft.add_argument("files", nargs="*", metavar="FILE", help="perft files to check")
    rules_options(perft)
    perft.add_argument("--seed", type=nonnegative_seed, default=1, help="deal seed (default 1)")
    perft.add_argument("--state", metavar="STATE",
                       help="a state string (docs/game.md) instead of --preset/--seed")
    perft.add_argument("--depth", type=int, default=3, metavar="D", help="depth (default 3)")
    perft.add_argument("--divide", action="store_true",
                       help="the count below each root move at the deepest depth (with FILEs: "
                       "both engines' divide)")
    perft.add_argument("--id", action="append", metavar="ID",
                       help="with FILEs: check only this position (repeatable)")
    perft.add_argument("--max-nodes", type=int, metavar="N",
                       help="with FILEs: check only counts of at most N nodes")
    engine_option(perft)
    perft.set_defaults(run=run)
