"""``burraco selfplay``: hands or matches between bots, on threads or on Ray, with a summary."""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import contextlib
import functools
import itertools
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from types import ModuleType
from typing import Any, TextIO

from rich.table import Table

from .. import bots
from .._errors import BurracoError
from .._records import write_records
from .._tally import Tally, per_seat, unit_of_seat, unit_scale, units_of
from ._common import (
    MAX_GAMES,
    CliError,
    color_option,
    current_folder_on_path,
    engine_option,
    load_engine,
    load_policies,
    make_rules,
    nonnegative_seed,
    open_out,
    progress_bar,
    rules_options,
    seat_policies,
    seed_or_random,
)
from ._screen import Screen, plain_table


def render_summary(
    tally: Tally,
    rules: Any,
    policies: Sequence[str],
    seconds: float,
    matches: bool,
    end_reasons: Sequence[str],
    timed_hands: int | None = None,
) -> list[Table]:
    """The summary of a self-play run: the run, its units side by side, then the hands; the rate
    is of ``timed_hands`` (default: every hand) played in ``seconds``."""
    game_word = "matches" if matches else "hands"
    percent: Callable[[int, int], str] = (
        lambda n, total: f"{n} ({100 * n / total:.1f}%)" if total else f"{n}"
    )
    label = 20  # the values start at column 22
    run = plain_table("", "", min_label=label)
    run.add_row("games", f"{tally.games} {game_word}"
                + (f" ({tally.hands} hands)" if matches else ""))
    units = plain_table("", *tally.units, min_label=label)
    for column in units.columns[1:]:
        column.min_width = 12
    if per_seat(rules):
        units.add_row("policy", *policies)
    else:
        seats = [[seat for seat in range(rules.players) if unit_of_seat(rules, seat) == side]
                 for side in range(rules.sides)]
        units.add_row("seats", *(", ".join(map(str, group)) for group in seats))
        units.add_row("policy", *("/".join(policies[seat] for seat in group) for group in seats))
    units.add_row("wins", *(percent(wins, tally.games) for wins in tally.wins))
    means = [total / tally.games if tally.games else 0.0 for total in tally.score_sums]
    means = [mean / unit_scale(rules) for mean in means]
    units.add_row(f"mean score ({'match' if matches else 'hand'})", *(f"{m:.1f}" for m in means))
    hands = plain_table("", "", min_label=label)
    hands.add_row("draws", percent(tally.draws, tally.games))
    hands.add_row("end reasons", ", ".join(
        f"{reason} {percent(tally.reasons.get(reason, 0), tally.hands)}" for reason in end_reasons
    ))
    mean_moves = tally.moves / tally.hands if tally.hands else 0.0
    hands.add_row("mean moves per hand", f"{mean_moves:.1f}")
    timed = tally.hands if timed_hands is None else timed_hands
    rate = timed / seconds if seconds > 0 else 0.0
    hands.add_row("hands per second", f"{rate:,.1f} ({seconds:.2f} s)")
    return [run, units, hands]


def run(args: argparse.Namespace) -> int:
    """``burraco selfplay``: hands (or matches) between policies, with a summary."""
    engine = load_engine(args.engine)
    rules = make_rules(engine, args.preset, args.players, args.sides)
    policies = seat_policies(args.policy, args.policies, rules.players, rules.sides)
    if not 0 <= args.games <= MAX_GAMES:
        raise CliError(f"--games {args.games}: expected 0 to {MAX_GAMES:,}", 2)
    if args.max_hands < 1:
        raise CliError(f"--max-hands {args.max_hands}: expected at least 1", 2)
    seed = seed_or_random(args.seed)
    if args.ray is not None:
        return _selfplay_ray(args, rules, policies, seed)
    if args.shard_size != 1000 or args.restart:
        raise CliError("--shard-size and --restart go with --ray", 2)
    if not 1 <= args.threads <= 64:
        raise CliError(f"--threads {args.threads}: expected 1 to 64", 2)
    with contextlib.ExitStack() as stack:
        out = open_out(args.out, stack)
        tally, seconds = _selfplay_loop(engine, rules, policies, seed, args, out)
    screen = Screen(color=not args.no_color)
    # One line, however long: a script that reads the summary finds the run on its first line.
    screen.say(f"burraco selfplay: {rules!r}, engine {args.engine}, seed {seed}, policies "
               + ", ".join(f"seat {seat} {name}" for seat, name in enumerate(policies)))
    for table in render_summary(tally, rules, policies, seconds, args.matches,
                                engine.END_REASONS):
        screen.table(table)
    if args.out:
        screen.say(f"wrote {tally.hands} records to {args.out}")
    return 0


def _selfplay_ray(args: argparse.Namespace, rules: Any, policies: Sequence[str], seed: int) -> int:
    """``burraco selfplay --ray``: the games sharded over Ray tasks into the folder ``--out``
    (:func:`burraco.distributed.selfplay`), then the same summary as a local run."""
    if args.engine != "core":
        raise CliError("--ray plays with the core engine (drop --engine reference)", 2)
    if args.threads != 1:
        raise CliError("--threads goes without --ray (Ray runs one task a CPU)", 2)
    if not args.out:
        raise CliError("--ray needs --out DIR: the folder of the run's shards", 2)
    if args.shard_size < 1:
        raise CliError(f"--shard-size {args.shard_size}: expected at least 1", 2)
    try:
        from .. import distributed
        import pyarrow  # noqa: F401  # both are the ray extra: say so before starting anything
        import ray  # noqa: F401
    except ImportError as error:
        raise CliError(f"--ray needs Ray and pyarrow: pip install 'burraco[ray]' ({error})") from None
    current_folder_on_path()  # module:attribute policies from the current folder
    unit = "matches" if args.matches else "hands"
    with progress_bar(args.games, unit, enabled=not args.quiet) as bar:
        task = bar.add_task("selfplay", total=args.games, rate="")
        started = time.perf_counter()

        def progress(done: int, total: int) -> None:
            elapsed = time.perf_counter() - started
            bar.update(task, completed=done,
                       rate=f"{done / elapsed:,.0f} {unit}/s" if elapsed > 0 and done else "")

        try:
            summary = distributed.selfplay(
                rules, args.games, args.out, policies=policies, seed=seed,
                shard_size=args.shard_size, matches=args.matches, max_hands=args.max_hands,
                rotate=args.rotate, address=args.ray or None, resume=not args.restart,
                progress=progress)
        except BurracoError as error:
            raise CliError(str(error)) from None
    screen = Screen(color=not args.no_color)
    screen.say(f"burraco selfplay: {rules!r}, engine core on Ray, seed {seed}, policies "
               + ", ".join(f"seat {seat} {name}" for seat, name in enumerate(policies)))
    for table in render_summary(summary, rules, policies, summary.seconds, args.matches,
                                load_engine("core").END_REASONS, summary.hands_played):
        screen.table(table)
    screen.say(f"shards: {summary.shards_played} played now ({summary.hands_played} hands), "
               f"{summary.shards_skipped} finished before (of {summary.run.shards})")
    for damage in summary.damaged:
        screen.say(f"played again, as it was damaged: {damage}")
    screen.say(f"wrote {summary.hands} records to {args.out}/records and the hands table to "
               f"{args.out}/hands")
    return 0


def _selfplay_loop(
    engine: ModuleType,
    rules: Any,
    policies: Sequence[str],
    seed: int,
    args: argparse.Namespace,
    out: TextIO | None,
) -> tuple[Tally, float]:
    """Plays the games of ``burraco selfplay`` (:func:`burraco.bots.play_games`, on ``--threads``
    threads), writing each hand's record to ``out`` in game order; returns the tally and the
    seconds taken."""
    option = "--policies" if args.policies else "--policy"
    seat_play = load_policies(engine, policies, option)  # a bad spec is refused before playing
    tally = Tally(units_of(rules))
    unit = "matches" if args.matches else "hands"
    started = time.perf_counter()
    with progress_bar(args.games, unit, enabled=not args.quiet) as bar:
        task = bar.add_task("selfplay", total=args.games, rate="")
        shown = started
        games = _games(engine, rules, policies, seat_play, seed, args, option)
        for done, played in enumerate(games):
            for game in played.hands:
                tally.add_hand(len(game.moves), str(game.end_reason))
                if out is not None:
                    write_records(out, [game.record()])
            tally.add_game(played.scores(rules), played.winner(rules))
            now = time.perf_counter()
            if now >= shown + 0.05 or done + 1 == args.games:  # a few redraws a second at most
                shown = now
                rate = f"{tally.hands / (now - started):,.0f} hands/s" if now > started else ""
                bar.update(task, completed=done + 1, rate=rate)
        seconds = time.perf_counter() - started
    return tally, seconds


def _games(engine: ModuleType, rules: Any, policies: Sequence[str], seat_play: list[Any],
           seed: int, args: argparse.Namespace, option: str) -> Iterator[bots.Played]:
    """The run's games in order: played here with one thread, else in chunks of consecutive
    games on ``--threads`` threads (each thread with bots of its own: a search keeps state from
    move to move), a few chunks ahead of the one being written."""
    play = functools.partial(bots.play_games, rules, seed=seed, matches=args.matches,
                             max_hands=args.max_hands, rotate=args.rotate, engine=engine)
    if args.threads == 1:
        yield from play(seat_play, first=0, stop=args.games)
        return
    local = threading.local()

    def chunk(first: int, stop: int) -> list[bots.Played]:
        if not hasattr(local, "players"):
            local.players = load_policies(engine, policies, option)
        return list(play(local.players, first=first, stop=stop))

    size = max(1, min(64, args.games // (8 * args.threads)))
    bounds = iter([(first, min(first + size, args.games))
                   for first in range(0, args.games, size)])
    pool = concurrent.futures.ThreadPoolExecutor(args.threads, thread_name_prefix="selfplay")
    try:
        ahead = collections.deque(pool.submit(chunk, *b) for b in itertools.islice(bounds,
                                                                              2 * args.threads))
        while ahead:
            chunk_games = ahead.popleft().result()
            following = next(bounds, None)
            if following is not None:
                ahead.append(pool.submit(chunk, *following))
            yield from chunk_games
    finally:
        pool.shutdown(wait=True, cancel_futures=True)  # Ctrl-C: the chunks being played end


def register(commands: Any) -> None:
    """Adds ``burraco selfplay`` to the subcommands."""
    selfplay = commands.add_parser(
        "selfplay", help="hands or matches between policies, with a summary",
        description="Play N hands (or --matches: N matches) between policies (built in, or any "
        "module:attribute, docs/native.md) and print "
        "a summary: win rate and mean score per side (per seat with three players), draws, end "
        "reasons, mean moves per hand, hands per second. Hand i is dealt from the (i+1)-th "
        "SplitMix64 output of the seed, first player 0; with one policy for every seat it is hand "
        "i of burraco.playouts(rules, N, seed=S, policy=P).",
    )
    rules_options(selfplay)
    selfplay.add_argument("--games", type=int, default=100, metavar="N",
                          help="number of hands (matches with --matches; default 100)")
    selfplay.add_argument("--policy", default="greedy", metavar="POLICY",
                          help=f"policy of every seat (default greedy): {bots.HELP}")
    selfplay.add_argument("--policies", metavar="P0,P1,...",
                          help="one policy per seat, e.g. greedy,random or greedy,mine:policy "
                          "(four players: one per side is enough)")
    selfplay.add_argument("--seed", type=nonnegative_seed,
                          help="seed of the run (default: random, printed)")
    selfplay.add_argument("--out", metavar="FILE",
                          help="write one record per hand to FILE (JSON Lines, burraco.read_records)")
    selfplay.add_argument("--matches", action="store_true",
                          help="play N whole matches instead of N hands")
    selfplay.add_argument("--max-hands", type=int, default=1000, metavar="N",
                          help="with --matches: stop a match after N hands as a draw (default 1000)")
    selfplay.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                          help="shard the games over Ray tasks (pip install 'burraco[ray]'; "
                          "docs/rl.md): a new local Ray without ADDRESS, else the cluster at "
                          "ADDRESS (e.g. auto, or 10.0.0.1:6379); --out then names a folder that "
                          "gets each shard's records and a Parquet table of the hands, and a run "
                          "into the same folder resumes it")
    selfplay.add_argument("--shard-size", type=int, default=1000, metavar="N",
                          help="with --ray: games per shard (one Ray task each; default 1000)")
    selfplay.add_argument("--restart", action="store_true",
                          help="with --ray: play every shard again instead of resuming")
    selfplay.add_argument("--threads", type=int, default=1, metavar="N",
                          help="threads playing the games (default 1); the games and the summary "
                          "do not depend on it, but for ISMCTS bots (each thread searches with "
                          "a search of its own)")
    selfplay.add_argument("--rotate", action="store_true",
                          help="move the policies one seat on from game to game (game i: seat s "
                          "plays the policy given for seat s - i mod players), so each plays "
                          "from every seat; the summary stays per policy as given")
    selfplay.add_argument("--quiet", action="store_true", help="no progress bar")
    color_option(selfplay)
    engine_option(selfplay)
    selfplay.set_defaults(run=run)
