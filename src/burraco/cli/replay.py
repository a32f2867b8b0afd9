"""``burraco replay``: a recorded hand move by move, or the list of a records file."""

from __future__ import annotations

import argparse
import sys
from types import ModuleType
from typing import Any

from .._board import Seating, draw
from .._records import read_records
from ._common import CliError, color_option, engine_option, input_file, load_engine, plural
from ._screen import Quit, Screen, line_editing, read_line, show_result


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


def run(args: argparse.Namespace) -> int:
    """``burraco replay``: a recorded hand move by move, or the list of records."""
    engine = load_engine(args.engine)
    records = _load_records(args.file)
    screen = Screen(color=not args.no_color)
    if args.list:
        for index, record in enumerate(records):
            screen.say(f"{index:>3}  {record_line(record)}")
        return 0
    if not 0 <= args.game < len(records):
        raise CliError(f"--game {args.game}: {args.file} holds {plural(len(records), 'record')} "
                       f"(0 to {len(records) - 1})")
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
        "a line per answer.",
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
    color_option(replay)
    engine_option(replay)
    replay.set_defaults(run=run)
