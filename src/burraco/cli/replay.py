"""``burraco replay``: a recorded hand move by move, its review (``--analyze``, a thin layer
over :func:`burraco.review`), or the list of a records file."""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from types import ModuleType
from typing import Any

from .._board import Seating, draw
from .._errors import BurracoError
from .._records import read_records
from .._review import Review, review
from ._common import (
    CliError,
    color_option,
    engine_option,
    input_file,
    load_engine,
    nonnegative_seed,
    plural,
    progress_bar,
)
from ._screen import Quit, Screen, line_editing, plain_table, read_line, show_result


def _load_records(path: str) -> list[dict[str, Any]]:
    """Every record of a records file; a missing, unreadable or empty file, or one that is not
    JSON Lines of game records, is a :class:`CliError` quoting the path."""
    input_file(path, "a records file")
    try:
        records = list(read_records(path))
    except OSError as error:
        raise CliError(f"{path!r}: {error.strerror or error}") from None
    except UnicodeDecodeError as error:
        raise CliError(f"{path!r}: not a records file (not UTF-8 text: {error.reason} at byte "
                       f"{error.start})") from None
    except (ValueError, KeyError, TypeError) as error:
        raise CliError(f"{path!r}: not a records file ({error})") from None
    if not records:
        raise CliError(f"{path!r}: empty, not a records file (no game record in it)")
    return records


def _game_from_record(engine: ModuleType, record: dict[str, Any], where: str) -> Any:
    """``Game.from_record`` with a bad record turned into a :class:`CliError`."""
    try:
        return engine.Game.from_record(record)
    except (ValueError, KeyError, TypeError) as error:
        raise CliError(f"{where}: bad record ({error})") from None


def record_line(record: dict[str, Any]) -> str:
    """One line about a game record, from its fields (no replay): rules, deal, moves, result."""
    if record.get("seed") is not None:
        dealt = f"seed {record['seed']}"
    else:
        dealt = "dealt from a deck" if record.get("deck") is not None else "from a position"
    moves = record.get("moves") or []
    result = record.get("result")
    if isinstance(result, dict):
        totals = ", ".join(f"side {side.get('side')} {side.get('total')}"
                           for side in result.get("sides") or [] if isinstance(side, dict))
        outcome = f"{result.get('end_reason')}: {totals}"
    else:
        outcome = "unfinished"
    return f"{record.get('rules')}  {dealt}  {len(moves)} moves  {outcome}"


REPLAY_HELP = """\
Enter: the next move   N: the table after move N (0: the start)   a: all the rest
q: quit (also Ctrl-D)   help: this text"""


class Replay:
    """A recorded hand shown move by move: the table at the start and after every move."""

    def __init__(self, screen: Screen, final: Any, number: int) -> None:
        self.screen = screen
        self.number = number
        self.moves = list(final.moves)
        self.game = final.copy()
        while self.game.moves:
            self.game.pop()
        self.start = self.game.copy()
        self.seating = Seating()
        self.shown = False  # whether a table was shown already (a blank line goes between two)

    @property
    def at(self) -> int:
        """How many moves have been played on the shown table."""
        return len(self.game.moves)

    def go_to(self, number: int) -> None:
        """The table after ``number`` moves (0: the start), shown."""
        if number < self.at:
            self.game = self.start.copy()
        while self.at < number:
            self.game.push(self.moves[self.at])
        self.show()

    def step(self) -> None:
        """The next move played, and the table after it shown."""
        self.game.push(self.moves[self.at])
        self.show()

    def show(self) -> None:
        if self.at == 0:
            game = self.game
            title = f"record {self.number}: the start"
        else:
            before = self.game.copy()
            move = before.pop()
            title = f"move {self.at}: seat {before.turn} {move}"
        if self.shown:
            self.screen.say()
        self.shown = True
        self.screen.board(draw(self.game, self.seating, title=title))

    def finish(self) -> None:
        """The end of the record: the result, or that the hand goes on."""
        self.screen.say()
        if self.game.is_over():
            show_result(self.screen, self.game, self.seating)
        else:
            self.screen.say(f"The record ends after {plural(len(self.moves), 'move')}; the hand "
                            "is not over.")


#: The budget of a decision when neither --iterations nor --time-limit is given: a two-player
#: hand (some 60 to 100 decisions) analyses in seconds (docs/cli.md).
ANALYZE_ITERATIONS = 1000
_ANALYZE_ONLY = ("seat", "iterations", "time_limit", "seed", "json")


def _value(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def show_review(screen: Screen, result: Review) -> None:
    """The decisions, the biggest loss first, then each seat's total loss."""
    table = plain_table("move", "seat", "played", "value", "best", "value", "loss",
                        "visits played/best/all")
    for decision in result.by_loss():
        loss = decision.loss
        table.add_row(str(decision.number), str(decision.seat), str(decision.played),
                      _value(decision.played_value), str(decision.best),
                      _value(decision.best_value), "untried" if loss is None else f"{loss:.3f}",
                      f"{decision.played_visits}/{decision.best_visits}/{decision.visits}")
    if result.decisions:
        screen.table(table)
    else:
        screen.say("No decision to review: every move of these seats was forced.")
    screen.say()
    totals = plain_table("seat", "decisions", "forced", "untried", "total loss")
    for seat in result.seats:
        mine = [d for d in result.decisions if d.seat == seat]
        totals.add_row(str(seat), str(len(mine)), str(result.forced[seat]),
                       str(sum(d.loss is None for d in mine)), f"{result.total_loss(seat):.3f}")
    screen.table(totals)


def analyze(args: argparse.Namespace, records: list[dict[str, Any]]) -> int:
    """``burraco replay --analyze``: every decision of record K searched again
    (:func:`burraco.review`), printed as a table or as JSON."""
    if args.engine != "core":
        raise CliError(f"--engine {args.engine}: --analyze searches with the core engine (the "
                       "reference has no search)", 2)
    for option, given in (("--list", args.list), ("--all", args.all), ("--move", args.move)):
        if given:
            raise CliError(f"{option} does not go with --analyze", 2)
    where = f"{args.file}: record {args.game}"
    game = _game_from_record(load_engine("core"), records[args.game], where)
    iterations = args.iterations
    if iterations is None and args.time_limit is None:
        iterations = ANALYZE_ITERATIONS
    seed = 0 if args.seed is None else args.seed
    with progress_bar(len(game.moves), "decisions") as bar:
        task = bar.add_task("analyze", total=None, rate="")
        started = time.perf_counter()

        def progress(done: int, total: int) -> None:
            elapsed = time.perf_counter() - started
            bar.update(task, total=total, completed=done,
                       rate=f"{done / elapsed:,.1f}/s" if elapsed > 0 else "")

        try:
            result = review(game, seat=args.seat, iterations=iterations,
                            time_limit=args.time_limit, seed=seed, progress=progress)
        except (BurracoError, TypeError) as error:  # the record is sound: the options are not
            raise CliError(str(error), 2) from None
    budget = plural(iterations, "iteration") if iterations is not None else f"{args.time_limit} s"
    if args.json:
        print(json.dumps({"file": args.file, "record": args.game, "rules": records[args.game].get(
            "rules"), "moves": len(game.moves), "iterations": iterations,
            "time_limit": args.time_limit, "seed": seed, **result.to_json()}, indent=1))
        return 0
    screen = Screen(color=not args.no_color)
    screen.wrapped(f"burraco replay --analyze: {where}, {game.rules!r}, "
                   f"{plural(len(game.moves), 'move')}; seat{'s' if len(result.seats) > 1 else ''} "
                   f"{', '.join(map(str, result.seats))}; {budget} a decision, seed {seed}.")
    screen.say()
    show_review(screen, result)
    return 0


def _time_limit(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"{text!r}: expected seconds > 0")
    return value


def run(args: argparse.Namespace) -> int:
    """``burraco replay``: a recorded hand move by move, its review, or the list of records."""
    if not args.analyze:
        for option in _ANALYZE_ONLY:
            if getattr(args, option) is not None and getattr(args, option) is not False:
                raise CliError(f"--{option.replace('_', '-')} needs --analyze", 2)
    engine = load_engine(args.engine)
    records = _load_records(args.file)
    screen = Screen(color=not args.no_color)
    if args.list and not args.analyze:
        for index, record in enumerate(records):
            screen.say(f"{index:>3}  {record_line(record)}")
        return 0
    if not 0 <= args.game < len(records):
        raise CliError(f"--game {args.game}: {args.file} holds {plural(len(records), 'record')} "
                       f"(0 to {len(records) - 1})")
    if args.analyze:
        return analyze(args, records)
    where = f"{args.file}: record {args.game}"
    replay = Replay(screen, _game_from_record(engine, records[args.game], where), args.game)
    total = len(replay.moves)
    if not 0 <= args.move <= total:
        raise CliError(f"--move {args.move}: record {args.game} has {plural(total, 'move')} "
                       f"(0 to {total})", 2)
    game = replay.game
    screen.wrapped(f"burraco replay: {where}, {game.rules!r}, seed {game.seed}, "
                   f"{plural(total, 'move')}.")
    replay.go_to(args.move)
    # Step unless asked for everything, or when the output goes to a file or a program while a
    # person sits at the keyboard (nobody would see the prompt).
    stepping = not args.all and not (sys.stdin.isatty() and not sys.stdout.isatty())
    if stepping:
        if sys.stdin.isatty():
            line_editing()
        screen.say(REPLAY_HELP)
    while replay.at < total:
        if not stepping:
            replay.step()
            continue
        try:
            answer = read_line(f"replay [{replay.at}/{total}]> ").lower()
        except Quit:
            answer = "q"
        if answer == "":
            replay.step()
        elif answer in ("q", "quit", "exit"):
            screen.say(f"Stopped at move {replay.at} of {total}.")
            return 0
        elif answer in ("a", "all"):
            stepping = False
        elif answer.isdigit() and int(answer) <= total:
            replay.go_to(int(answer))
        elif answer in ("?", "h", "help"):
            screen.say(REPLAY_HELP)
        else:
            screen.say(f"Not understood: {answer!r}. Enter, a move number (0 to {total}), a, q "
                       "or help.")
    replay.finish()
    return 0


def register(commands: Any) -> None:
    """Adds ``burraco replay`` to the subcommands."""
    replay = commands.add_parser(
        "replay", help="replay a recorded hand move by move",
        description="Replay record K of a records file (JSON Lines, as written by selfplay --out "
        "or play --out) move by move: the table at the start, then Enter shows the next move and "
        "the table after it (a number N: the table after move N; a: every move left; q: stop); "
        "after the last move, the result. --all prints every move at once, as does output "
        "redirected away from the terminal. A stdin that is not a terminal is read the same way, "
        "a line per answer. --analyze reviews the hand instead: every decision searched again "
        "(see the analysis options).",
    )
    replay.add_argument("file", help="the records file")
    replay.add_argument("--game", type=int, default=0, metavar="K",
                        help="the record to replay, from 0 (default 0)")
    replay.add_argument("--list", action="store_true",
                        help="list the records instead: index, rules, moves, result")
    replay.add_argument("--move", type=int, default=0, metavar="N",
                        help="start at the table after move N (default 0: the start)")
    replay.add_argument("--all", action="store_true",
                        help="every move and the table after it at once, no stepping")
    analysis = replay.add_argument_group(
        "analysis", "--analyze searches every decision of record K again from the seat's own "
        "view (ISMCTS, burraco.review) and prints the move played against the search's best, "
        "the biggest loss first, and each seat's total loss")
    analysis.add_argument("--analyze", action="store_true",
                          help="review the hand's decisions instead of replaying it")
    analysis.add_argument("--seat", type=int, metavar="N",
                          help="review only seat N (default: every seat)")
    budget = analysis.add_mutually_exclusive_group()
    budget.add_argument("--iterations", type=int, metavar="N",
                        help=f"search iterations a decision (default {ANALYZE_ITERATIONS})")
    budget.add_argument("--time-limit", type=_time_limit, metavar="S",
                        help="seconds of search a decision instead (not reproducible)")
    analysis.add_argument("--seed", type=nonnegative_seed, metavar="S",
                          help="the searches' seed (default 0)")
    analysis.add_argument("--json", action="store_true",
                          help="print the review as JSON, for programs")
    color_option(replay)
    engine_option(replay)
    replay.set_defaults(run=run)
