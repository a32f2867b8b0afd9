"""``burraco arena``: bots against bots on duplicate deals (:mod:`burraco.arena`), with
confidence intervals, ratings, records and a plot."""

from __future__ import annotations

import argparse
import contextlib
import time
from typing import Any

from rich.table import Table

from .. import _extras, bots
from .._errors import BurracoError
from .._records import write_records
from ._common import (
    CliError,
    color_option,
    current_folder_on_path,
    load_engine,
    make_rules,
    nonnegative_seed,
    open_out,
    progress_bar,
    rules_options,
    seed_or_random,
)
from ._screen import Screen, plain_table


def render_duels(result: Any) -> Table:
    """The arena's table: per two bots, the first's pair wins with the 95 % Wilson interval, its
    mean margin per pair with the 95 % interval's half-width, and each bot's CPU per move."""
    table = plain_table("bot A", "bot B", "pairs", "A wins", "95 % CI", "A margin/pair",
                        "ms/move A", "ms/move B")
    for duel in result.duels:
        low, high = duel.interval
        table.add_row(duel.a, duel.b, f"{duel.pairs:,}", f"{100 * duel.win_rate:.1f} %",
                      f"{100 * low:.1f}-{100 * high:.1f} %",
                      f"{duel.mean_margin:+.0f} ± {duel.margin_halfwidth:.0f}",
                      f"{duel.ms_per_decision(0):.3f}", f"{duel.ms_per_decision(1):.3f}")
    return table


def render_match_duels(result: Any) -> Table:
    """The arena's table with ``--matches``: per two bots, the pairs (two plays of a match each),
    the first's pair wins with the 95 % Wilson interval, its matches won, its mean summed match
    margin per pair with the 95 % interval's half-width, the hands a match lasted and each bot's
    CPU per move."""
    table = plain_table("bot A", "bot B", "pairs", "matches", "A wins", "95 % CI", "A matches won",
                        "A margin/pair", "hands/match", "ms/move A", "ms/move B")
    for duel in result.duels:
        low, high = duel.interval
        table.add_row(duel.a, duel.b, f"{duel.pairs:,}", f"{duel.match_count:,}",
                      f"{100 * duel.win_rate:.1f} %", f"{100 * low:.1f}-{100 * high:.1f} %",
                      f"{duel.match_wins_a:g}", f"{duel.mean_margin:+.0f} ± {duel.margin_halfwidth:.0f}",
                      f"{duel.hands_per_match:.2f}", f"{duel.ms_per_decision(0):.3f}",
                      f"{duel.ms_per_decision(1):.3f}")
    return table


def render_ratings(result: Any) -> Table:
    """The Bradley-Terry ratings, best first (Elo scale, mean 0)."""
    table = plain_table("bot", "rating")
    for name, rating in sorted(result.ratings.items(), key=lambda item: -item[1]):
        table.add_row(name, f"{rating:+.0f}")
    return table


def run(args: argparse.Namespace) -> int:
    """``burraco arena``: bots on duplicate deals, a table of results, ratings, records."""
    from .. import arena  # the core engine only: the reference has no arena

    engine = load_engine("core")
    rules = make_rules(engine, args.preset, args.players, args.sides)
    if rules.players not in (2, 4):
        raise CliError(f"{rules!r}: the arena needs two sides (two or four players)", 2)
    specs = [spec.strip() for spec in args.bots.split(",")]
    if len(specs) < 2:
        raise CliError(f"--bots {args.bots!r}: expected two bots or more, e.g. heuristic,greedy", 2)
    if not 1 <= args.pairs <= arena.MAX_PAIRS:
        raise CliError(f"--pairs {args.pairs}: expected 1 to {arena.MAX_PAIRS:,}", 2)
    if not 1 <= args.threads <= 64:
        raise CliError(f"--threads {args.threads}: expected 1 to 64", 2)
    if args.plot is not None and (missing := _extras.plot_unavailable(args.plot)) is not None:
        raise CliError(missing, 2)
    current_folder_on_path()  # module:attribute bots from the current folder
    try:
        bots = [arena.bot(spec) for spec in specs]
    except BurracoError as error:
        raise CliError(f"--bots: {error}", 2) from None
    seed = seed_or_random(args.seed)
    duels = len(bots) - 1 if args.plot else len(bots) * (len(bots) - 1) // 2
    total = 2 * args.pairs * duels
    unit = "matches" if args.matches else "games"
    with progress_bar(total, unit, enabled=not args.quiet) as bar:
        task = bar.add_task("arena", total=total, rate="")
        started = time.perf_counter()

        def progress(done: int) -> None:
            elapsed = time.perf_counter() - started
            bar.update(task, completed=done,
                       rate=f"{done / elapsed:,.1f} {unit}/s" if elapsed > 0 else "")

        result = arena.tournament(rules, specs, pairs=args.pairs, seed=seed, threads=args.threads,
                                  keep_moves=args.out is not None, progress=progress,
                                  against_first=args.plot is not None, matches=args.matches)
    screen = Screen(color=not args.no_color)
    what = (f"{args.pairs:,} duplicate match pairs (to {rules.match_target}) per two bots"
            if args.matches else f"{args.pairs:,} duplicate pairs per two bots")
    screen.say(f"burraco arena: {rules!r}, seed {seed}, {what}, {args.threads} "
               f"thread{'s' if args.threads != 1 else ''}")
    screen.table(render_match_duels(result) if args.matches else render_duels(result))
    if result.ratings is not None:
        screen.table(render_ratings(result))
    if args.plot is not None:
        try:
            arena.plot(result, args.plot, title=f"{rules!r}, seed {seed}: {args.pairs:,} duplicate "
                       f"pairs per bot against {result.bots[0]}")
        except (OSError, BurracoError) as error:
            raise CliError(f"--plot {args.plot}: {error}") from None
        screen.say(f"wrote the plot to {args.plot}")
    if args.out is not None:
        written = 0
        with contextlib.ExitStack() as stack:
            out = open_out(args.out, stack)
            assert out is not None
            for duel in result.duels:
                games = duel.games
                for row, moves in enumerate(games["history"]):
                    game = engine.Game(rules, seed=int(games["hand_seed"][row]),
                                       first_player=int(games["first_player"][row]),
                                       scores=tuple(int(x) for x in games["before"][row]))
                    for move in moves:
                        game.push(move)
                    written += write_records(out, [game.record()])
        order = ("pair by pair: the match with bot A on the even seats hand by hand, then the "
                 "swapped one" if args.matches else
                 "pair by pair: game 0 with bot A on the even seats, then game 1 swapped")
        screen.say(f"wrote {written:,} records to {args.out} (per two bots, {order})")
    return 0


def register(commands: Any) -> None:
    """Adds ``burraco arena`` to the subcommands."""
    arena_cmd = commands.add_parser(
        "arena", help="bots against bots on duplicate deals, with confidence intervals",
        description="Play every two of the bots on the same duplicate pairs (one deal played "
        "twice with the seats swapped; hand i dealt from the (i+1)-th SplitMix64 output of the "
        "seed) and print, per two bots, the first's share of the pairs won with its 95 % "
        "(Wilson) interval, its mean margin per pair and each bot's CPU time per move; with "
        "three bots or more, Bradley-Terry ratings on the Elo scale. Bots: " + bots.HELP + ".",
    )
    rules_options(arena_cmd, default="italian-2p")
    arena_cmd.add_argument("--bots", required=True, metavar="A,B[,C...]",
                           help="the bots, e.g. heuristic,greedy,random or ismcts:1000,heuristic")
    arena_cmd.add_argument("--pairs", type=int, default=100, metavar="N",
                           help="duplicate pairs per two bots (default 100)")
    arena_cmd.add_argument("--seed", type=nonnegative_seed,
                           help="seed of the deals (default: random, printed)")
    arena_cmd.add_argument("--threads", type=int, default=1, metavar="N",
                           help="C++ threads playing the games (default 1; the results do not "
                           "depend on it)")
    arena_cmd.add_argument("--out", metavar="FILE",
                           help="write the record of every game to FILE (JSON Lines)")
    arena_cmd.add_argument("--plot", metavar="FILE.png",
                           help="play each bot against the first only, and plot their win rates "
                           "against iterations and CPU time per move (matplotlib: pip install "
                           "'burraco[plot]')")
    arena_cmd.add_argument("--matches", action="store_true",
                           help="each pair is a whole match to the preset's target, played twice "
                           "with the sides swapped on the same deals (docs/bots.md)")
    arena_cmd.add_argument("--quiet", action="store_true", help="no progress bar")
    color_option(arena_cmd)
    arena_cmd.set_defaults(run=run)
