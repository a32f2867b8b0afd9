"""The ``burraco`` command: play against bots, self-play, replay records, perft, benchmarks and
the table server.

    burraco play --preset italian [--seat 0] [--seed S] [--bots greedy|ismcts:N|module:attr]
                 [--hands N] [--out FILE]
    burraco selfplay --preset P --games N [--policy greedy | --policies greedy,module:attr]
                     [--seed S] [--out games.jsonl] [--matches] [--engine core|reference]
                     [--ray [ADDRESS] --out DIR [--shard-size N] [--restart]]
    burraco replay FILE [--game K | --list] [--move N] [--all] [--engine core|reference]
    burraco perft [--preset P --seed S | --state STATE] --depth D [--divide]
    burraco perft FILE [FILE ...] [--id ID] [--max-nodes N] [--divide]
    burraco bench [--smoke] [--json FILE]
    burraco serve [--host 127.0.0.1] [--port 8000] [--db FILE] [--seed S]
    burraco --version

Also ``python -m burraco``. Every subcommand has ``--help``; docs/cli.md describes them. The
terminal output goes through ``rich``: coloured on a terminal, plain text when piped, under
``NO_COLOR`` or with ``--no-color``; the board itself is drawn by :mod:`burraco._board` (also
``str(game)``). User errors (a bad preset, a missing file, an illegal move typed at the prompt)
print one line and never a traceback: exit status 2 for a bad command line, 1 for a failure, 130
after Ctrl-C.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import logging
import math
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from types import ModuleType
from typing import Any, TextIO

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from . import _perft_tool
from ._board import WIDTH, Seating, draw, side_label
from ._errors import BurracoError
from ._policy import _splitmix64, play_with
from ._records import read_records, write_records
from ._tally import Tally, hand_winner, unit_scores, units_of

POLICIES = ("greedy", "heuristic", "random")  # the built-in policies; 'module:attribute' names any other
ENGINES = _perft_tool.ENGINES
_MASK = (1 << 64) - 1
MAX_GAMES = 10**9  # the games (or matches) of one selfplay run, as burraco.distributed takes
MAX_PERFT_DEPTH = 64  # the engines' perft depth limit: a deeper --depth is refused before counting


class CliError(Exception):
    """A user error: its message is printed on one line and the command exits with ``status``."""

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.status = status


# ---- shared helpers ------------------------------------------------------------------------------


def package_version() -> str:
    """The installed distribution's version (``importlib.metadata``)."""
    try:
        return version("burraco")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown (not installed)"


def load_engine(name: str) -> ModuleType:
    """``burraco`` for ``'core'``, ``burraco.reference`` for ``'reference'``."""
    return _perft_tool.load_engine(name)


def make_rules(engine: ModuleType, preset: str, players: int | None = None,
               sides: int | None = None) -> Any:
    """``Rules(preset)`` of an engine, with ``players`` and ``sides`` (six players: 3 sides of two
    or 2 of three) overridden when given; a bad preset, player count or side count is a
    :class:`CliError` quoting it (status 2: a bad command line)."""
    knobs = {name: value for name, value in (("players", players), ("sides", sides))
             if value is not None}
    try:
        return engine.Rules(preset, **knobs)
    except BurracoError as error:
        raise CliError(str(error), 2) from None


def seed_or_random(seed: int | None) -> int:
    """The given seed, or a fresh one from ``os.urandom`` (printed by the callers, so that any
    run can be repeated)."""
    if seed is None:
        return int.from_bytes(os.urandom(8), "little")
    return seed


def seed_stream(seed: int) -> Iterator[int]:
    """The SplitMix64 outputs of ``seed``: the hand seeds of ``burraco.playouts`` and ``Match``."""
    state = seed
    while True:
        state, output = _splitmix64(state)
        yield output


def format_points(half_points: int) -> str:
    """Half points (three players, RULES E.6) as points: ``-3`` -> ``'-1.5'``."""
    text = f"{half_points / 2:.1f}"
    return text.removesuffix(".0")


def show_units(rules: Any, scores: Sequence[int]) -> list[str]:
    """Scores per unit as printed (points; with three players converted from half points)."""
    if rules.players == 3:
        return [format_points(score) for score in scores]
    return [str(score) for score in scores]


def columns(items: Sequence[str], width: int) -> list[str]:
    """Items in columns, top to bottom then left to right, separated by at least three spaces."""
    if not items:
        return []
    cell = max(len(item) for item in items) + 3
    per_row = max(1, (width - 2) // cell)
    rows = math.ceil(len(items) / per_row)
    lines = []
    for row in range(rows):
        cells = [items[i] for i in range(row, len(items), rows)]
        lines.append("  " + "".join(f"{text:<{cell}}" for text in cells).rstrip())
    return lines


# ---- the screen ----------------------------------------------------------------------------------

# A card of hearts or diamonds (also the card a wild stands for: the 4d of ``Jk(=4d)``), and a joker.
RED_CARD = r"(?<![A-Za-z0-9])[A2-9TJQK][hd](?![A-Za-z0-9])"
JOKER = r"(?<![A-Za-z0-9])Jk(?![A-Za-z0-9])"


class Screen:
    """Where the command prints: a ``rich`` console on stdout. On a terminal the board is coloured
    (hearts and diamonds red, titles bold); piped, under ``NO_COLOR`` or ``--no-color`` the text is
    plain, the same characters without any escape sequence."""

    def __init__(self, color: bool = True) -> None:
        plain = not color or bool(os.environ.get("NO_COLOR"))
        self.console = Console(highlight=False, markup=False, emoji=False, soft_wrap=True,
                               color_system=None if plain else "auto")

    @property
    def styled(self) -> bool:
        """True when colours and styles are drawn (a terminal, colour not turned off)."""
        return self.console.color_system is not None

    def say(self, text: str = "", style: str = "") -> None:
        """Prints lines of text, cards coloured."""
        line = Text(text, style=style)
        if self.styled:
            line.highlight_regex(RED_CARD, "red")
            line.highlight_regex(JOKER, "bold magenta")
        self.console.print(line)

    def board(self, text: str) -> None:
        """Prints a drawing of :mod:`burraco._board`: titles bold, the cards just arrived green."""
        for line in text.splitlines():
            if line.startswith(("== ", "Hand over:")):
                self.say(line, "bold")
            elif line.startswith("  new in your hand:"):
                self.say(line, "bold green")
            else:
                self.say(line)

    def table(self, table: Table) -> None:
        """Prints a table; plain, it is laid out at its natural width with no trailing blanks."""
        if self.styled:
            self.console.print(table)
            return
        flat = Console(file=io.StringIO(), width=10_000, color_system=None, highlight=False,
                       markup=False, emoji=False)
        flat.print(table)
        out = flat.file.getvalue()  # type: ignore[attr-defined]
        for line in out.splitlines():
            self.console.print(Text(line.rstrip()))

    def wrapped(self, text: str, width: int = WIDTH) -> None:
        """Prints a paragraph wrapped to ``width`` columns (the 80 of a default terminal)."""
        for line in textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False):
            self.say(line)


def plain_table(*headers: str, min_label: int = 0) -> Table:
    """A table without borders: columns two blanks apart, the first one left-aligned labels."""
    table = Table(box=None, show_header=any(headers), pad_edge=False, padding=(0, 1),
                  header_style="bold", show_edge=False)
    for index, header in enumerate(headers):
        table.add_column(header, no_wrap=index == 0, min_width=min_label if index == 0 else None)
    return table


# ---- the board (drawn by burraco._board) ---------------------------------------------------------


def render_board(
    game: Any,
    seating: Seating,
    *,
    title: str = "",
    match_scores: Sequence[int] | None = None,
    new_cards: Any = None,
) -> str:
    """The table as text (``burraco._board.draw``) with the match scores of the units, the
    human's marked ``(you)``."""
    rules = game.rules
    shown: list[str] | None = None
    if match_scores is not None:
        shown = []
        for unit, score in zip(units_of(rules), show_units(rules, match_scores)):
            if seating.human is not None and (
                unit == f"seat {seating.human}"
                or (rules.players != 3 and unit == f"side {game.side_of(seating.human)}")
            ):
                unit += " (you)"
            shown.append(f"{unit} {score}")
    return draw(game, seating, title=title, match_scores=shown, new_cards=new_cards)


RESULT_FIELDS = ("melds", "bonuses", "closing", "hand", "pozzetto", "cut", "total")


def render_result(game: Any, seating: Seating) -> Table:
    """A finished hand's score breakdown per side (RULES E), the board's last line having said
    how it ended; with three players the seats' scores as a last row."""
    result = game.result()
    table = plain_table("", *RESULT_FIELDS)
    for column in table.columns[1:]:
        column.justify = "right"
    for side in result.sides:
        table.add_row(side_label(game, side.side, seating),
                      *(str(getattr(side, name)) for name in RESULT_FIELDS))
    return table


def render_seat_scores(game: Any) -> str | None:
    """With three players, each seat's score of the hand (RULES E.6), else None."""
    result = game.result()
    if result.player_scores is None:
        return None
    scores = ", ".join(
        f"seat {seat} {format_points(points)}" for seat, points in enumerate(result.player_scores)
    )
    return f"Scores per seat (RULES E.6): {scores}"


def show_result(screen: Screen, game: Any, seating: Seating) -> None:
    """Prints :func:`render_result` and the seats' scores."""
    screen.table(render_result(game, seating))
    seats = render_seat_scores(game)
    if seats is not None:
        screen.say(seats)


def _line_editing(candidates: Callable[[], Sequence[str]] | None = None) -> bool:
    """Line editing and history for ``input()`` (arrows, Ctrl-R, ...) where the ``readline``
    module exists, with Tab completing ``candidates()``; False where it does not (the prompt
    then reads plain lines)."""
    try:
        import readline
    except ImportError:  # Windows without a readline port: plain input
        return False
    libedit = "libedit" in (readline.__doc__ or "")
    if libedit:
        readline.parse_and_bind("bind ^I rl_complete")
    else:
        readline.parse_and_bind("tab: complete")
        readline.parse_and_bind("set enable-bracketed-paste off")
    if candidates is not None:
        readline.set_completer_delims("")  # complete the whole line: moves have blanks

        def complete(text: str, state: int) -> str | None:
            lowered = text.lower()
            found = [item for item in candidates() if item.lower().startswith(lowered)]
            return found[state] if state < len(found) else None

        readline.set_completer(complete)
    return True


def _read_line(prompt: str) -> str:
    """One line from the person; end of input raises :class:`_Quit`."""
    try:
        line = input(prompt)
    except EOFError:
        print()
        raise _Quit("end of input") from None
    if not sys.stdin.isatty():
        print(line)  # a piped session reads like a typed one
    return line.strip()


class _Quit(Exception):
    """The person left (quit, or end of input)."""


# ---- play ----------------------------------------------------------------------------------------

PLAY_COMMANDS = ("moves", "board", "help", "quit")
PLAY_HELP = """\
Commands:
  draw, pile, keep, reject      draw phase moves (keep/reject: the brazilian first draw)
  meld 5h 6h 7h                 a new meld (cards in any order; a wild: Jk or a two)
  add 2 8h                      lay 8h off on your side's meld [2] ("add 2 8h 9h": several)
  discard Qs                    end the turn
  moves, ?                      the numbered legal moves; type a number to play that move
  board                         show the table again
  help                          this text
  quit                          leave the match (also Ctrl-D)"""
EDITING_HELP = ("Line editing: the arrows move in the line, Up and Down recall earlier commands, "
                "Tab completes a command or a legal move.")


def _bot_move(game: Any, policy: Any, seed: int) -> Any:
    """The move the bots' policy (or search) plays here."""
    if hasattr(policy, "choose"):
        return policy.choose(game)
    return game.policy_move(policy, seed)


def load_policy(engine: ModuleType, spec: str, option: str) -> Any:
    """The policy a command-line spec names: a built-in name as is, else ``'module:attribute'``
    as ``engine.Policy(spec)``, the module imported with the current folder first on the path (as
    ``python -m`` would). Any failure is a :class:`CliError` quoting the spec."""
    if spec in POLICIES:
        return spec
    if spec == "ismcts" or spec.startswith("ismcts:"):
        if not hasattr(engine, "ISMCTS"):
            raise CliError(f"{option} {spec!r}: ISMCTS is the core engine's only "
                           "(drop --engine reference)", 2)
        from .arena import bot

        try:
            return bot(spec).player
        except BurracoError as error:
            raise CliError(f"{option}: {error}", 2) from None
    if ":" not in spec:
        raise CliError(f"{option} {spec!r}: unknown policy (built in: {', '.join(POLICIES)}; "
                       "ismcts:ITERATIONS; or module:attribute)", 2)
    if "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        return engine.Policy(spec)
    except BurracoError as error:
        raise CliError(f"{option}: {error}", 2) from None


def _describe_moves(seating: Seating, played: Sequence[tuple[int, Any]]) -> list[str]:
    """``'seat 1 (greedy bot) played: draw, meld 5h 6h 7h, discard Qs'`` per run of one seat's
    moves."""
    lines: list[str] = []
    run: list[str] = []
    current: int | None = None
    for seat, move in played:
        if seat != current and run:
            lines.append(f"{seating.seat(current or 0)} played: {', '.join(run)}")
            run = []
        current = seat
        run.append(str(move))
    if run and current is not None:
        lines.append(f"{seating.seat(current)} played: {', '.join(run)}")
    return lines


def _gained(after: Any, before: Any) -> Any:
    """The cards of ``after`` that ``before`` lacks (multisets)."""
    return after - (after & before)


@dataclass
class HandView:
    """What the person sees of the hand being played: the screen, the seats, the title."""

    screen: Screen
    seating: Seating
    title: str
    match_scores: Sequence[int]

    def show(self, game: Any, new_cards: Any = None, final: bool = False) -> None:
        """Draws the board; ``new_cards`` are listed under the hand as new in it."""
        title = self.title + (" (final)" if final else "")
        self.screen.say()
        self.screen.board(render_board(game, self.seating, title=title,
                                       match_scores=self.match_scores, new_cards=new_cards))


def play_hand(
    game: Any,
    view: HandView,
    bots: Any,
    rng: random.Random,
) -> None:
    """Plays one hand: the bots move by themselves, the person at the prompt. Raises
    :class:`_Quit` when the person leaves."""
    screen, seating = view.screen, view.seating
    human = seating.human
    played: list[tuple[int, Any]] = []
    show = True
    new_cards: Any = None  # what the next board lists as new in the hand
    after_move: Any = None  # the hand after the person's last move
    while not game.is_over():
        if game.turn != human:
            seat = game.turn
            move = _bot_move(game, bots, rng.getrandbits(64))
            game.push(move)
            played.append((seat, move))
            show = True
            continue
        if played:
            for line in _describe_moves(seating, played):
                screen.say(line)
            played = []
            if after_move is not None:
                # Cards that came while the others played: the packet taken face down.
                packet = _gained(game.hand(human), after_move)
                if len(packet):
                    screen.say(f"Your pozzetto joined your hand: {_plural(len(packet), 'card')}.",
                               "bold")
                    new_cards = packet
            after_move = game.hand(human)
        if show:
            view.show(game, new_cards)
            new_cards = None
            show = False
        line = _read_line(f"[{game.phase}] your move> ")
        command = line.lower()
        if not command:
            continue
        if command in ("quit", "exit", "q"):
            raise _Quit("quit")
        if command in ("help", "h"):
            screen.say(PLAY_HELP)
            continue
        if command in ("board", "b"):
            show = True
            continue
        moves = game.legal_moves()
        if command in ("moves", "?"):
            width = shutil.get_terminal_size((WIDTH, 24)).columns
            digits = len(str(len(moves)))
            items = [f"{n:>{digits}}. {move}" for n, move in enumerate(moves, 1)]
            screen.say(f"{len(moves)} legal moves:")
            for text in columns(items, width):
                screen.say(text)
            continue
        before = game.hand(human)
        played_before = len(game.moves)
        if command.isdigit():
            number = int(command)
            if not 1 <= number <= len(moves):
                screen.say(f"No move number {number}: there are {len(moves)} legal moves "
                           "(type 'moves' to list them).")
                continue
            chosen: Any = moves[number - 1]
        else:
            chosen = line
        try:
            game.push(chosen)
        except BurracoError as error:
            screen.say(f"Not played: {error}. Type 'moves' (or '?') for the legal moves, 'help' "
                       "for the commands.")
            continue
        mine = ", ".join(str(move) for move in game.moves[played_before:])
        note = f"You played: {mine}"
        after_move = game.hand(human)
        new_cards = _gained(after_move, before)
        if len(new_cards):
            note += f"; new in your hand: {new_cards}"
        screen.say(note)
        show = True
    for line in _describe_moves(seating, played):
        screen.say(line)
    view.show(game, final=True)
    show_result(screen, game, seating)


def _open_out(path: str | None, stack: contextlib.ExitStack) -> TextIO | None:
    """The records file of ``--out`` opened for writing, or None. A path that cannot be opened,
    and a write or close that fails later (a full disk), is a :class:`CliError` quoting it."""
    if not path:
        return None
    stack.enter_context(_out_errors(path))  # entered first, so it also sees the file's close
    return stack.enter_context(open(path, "w", encoding="utf-8", newline="\n"))


@contextlib.contextmanager
def _out_errors(path: str) -> Iterator[None]:
    """An OSError of the ``--out`` file as a :class:`CliError` quoting the path (a broken pipe
    excepted: ``main`` ends quietly on that; so is an error naming another file)."""
    try:
        yield
    except BrokenPipeError:
        raise
    except OSError as error:
        if error.filename not in (None, path):
            raise
        raise CliError(f"--out {path!r}: {error.strerror or error}") from None


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def cmd_play(args: argparse.Namespace) -> int:
    """``burraco play``: a person plays a match against bots in the terminal."""
    engine = load_engine(args.engine)
    rules = make_rules(engine, args.preset, args.players, args.sides)
    if not 0 <= args.seat < rules.players:
        raise CliError(f"--seat {args.seat}: {rules!r} has seats 0 to {rules.players - 1}", 2)
    if args.hands is not None and args.hands < 1:
        raise CliError(f"--hands {args.hands}: expected at least 1", 2)
    bots = load_policy(engine, args.bots, "--bots")
    seed = seed_or_random(args.seed)
    match = engine.Match(rules, seed=seed)
    names = {}
    for seat in range(rules.players):
        if seat == args.seat:
            names[seat] = "you"
        elif rules.players in (4, 6) and seat % rules.sides == args.seat % rules.sides:
            names[seat] = f"partner, {args.bots} bot"
        else:
            names[seat] = f"{args.bots} bot"
    seating = Seating(names, args.seat)
    screen = Screen(color=not args.no_color)
    rng = random.Random(seed)
    current: list[Any] = []  # the hand being played
    editing = _line_editing(
        lambda: [*PLAY_COMMANDS, *(str(move) for move in current[-1].legal_moves())]
        if current and not current[-1].is_over() else list(PLAY_COMMANDS)
    ) if sys.stdin.isatty() else False
    limit = _plural(args.hands, "hand") if args.hands else f"to {rules.match_target} points"
    screen.wrapped(f"burraco play: {rules!r}, match seed {seed}; you are seat {args.seat}, the "
                   f"bots play {args.bots}; playing {limit}.")
    screen.wrapped("Type a move ('draw', 'meld 5h 6h 7h', 'discard Qs'), 'moves' or '?' for the "
                   "legal moves, 'help', 'quit'." + (" Up recalls the last command." if editing
                                                     else ""))
    with contextlib.ExitStack() as stack:
        out = _open_out(args.out, stack)
        written = 0

        def save(game: Any) -> None:
            nonlocal written
            if out is not None:
                write_records(out, [game.record()])
                out.flush()
                written += 1

        try:
            while not match.is_over() and (args.hands is None or match.hands_played < args.hands):
                game = match.new_game()
                current.append(game)
                view = HandView(screen, seating, f"{rules.preset}, hand {match.hands_played + 1}",
                             match.scores)
                play_hand(game, view, bots, rng)
                match.record(game)
                save(game)
                current.clear()
                scores = ", ".join(f"{unit} {score}" for unit, score in
                                   zip(units_of(rules), show_units(rules, match.scores)))
                screen.say(f"Match scores after {_plural(match.hands_played, 'hand')}: {scores}")
        except _Quit as reason:
            if current and current[-1].moves:
                save(current[-1])  # the unfinished hand, for replay
            screen.say(f"Leaving the match ({reason}) after "
                       f"{_plural(match.hands_played, 'finished hand')}. Goodbye.")
        else:
            if match.is_over():
                winner = match.winner
                unit = units_of(rules)[winner] if winner is not None else None
                screen.say(f"Match over: {unit} wins." if unit else "Match over: a draw.")
            else:
                screen.say(f"Stopped after {_plural(match.hands_played, 'hand')}.")
        if out is not None:
            screen.say(f"wrote {_plural(written, 'record')} to {args.out}")
    return 0


# ---- selfplay ------------------------------------------------------------------------------------


def seat_policies(policy: str, policies: str | None, players: int, sides: int = 2) -> list[str]:
    """One policy spec per seat: ``--policies a,b,...`` (one per seat, or one per side with four
    or six players: seat k plays entry ``k mod sides``), else ``--policy`` for every seat."""
    if policies is None:
        chosen = [policy] * players
    else:
        names = [name.strip() for name in policies.split(",")]
        if len(names) == players:
            chosen = names
        elif players in (4, 6) and len(names) == sides:
            chosen = [names[seat % sides] for seat in range(players)]
        else:
            per_side = f", or {sides}, one per side" if players in (4, 6) else ""
            raise CliError(f"--policies {policies!r}: expected {players} policies, one per seat"
                           + per_side, 2)
    for name in chosen:
        if name not in POLICIES and ":" not in name:
            raise CliError(f"unknown policy {name!r} (built in: {', '.join(POLICIES)}; "
                           "ismcts:ITERATIONS; or module:attribute)", 2)
    return chosen


def load_policies(engine: ModuleType, specs: Sequence[str], option: str) -> list[Any]:
    """The policies of ``specs``, each distinct spec loaded once (so equal specs are one policy)."""
    loaded: dict[str, Any] = {}
    for spec in specs:
        if spec not in loaded:
            loaded[spec] = load_policy(engine, spec, option)
    return [loaded[spec] for spec in specs]


def play_out(engine: ModuleType, game: Any, policies: Sequence[Any], seed: int) -> None:
    """Plays a hand to its end: with one policy for every seat ``game.playout(policy, seed)``,
    else move by move with ``game.policy_move``, the move seeds from SplitMix64 of ``seed``
    (``Match.play_hand`` plays the same way)."""
    play_with(game, policies, seed, engine.MAX_HAND_MOVES)


def progress_bar(total: int, unit: str, enabled: bool = True) -> Progress:
    """A ``rich`` progress bar on stderr (done/total, rate, elapsed and remaining time); drawn only
    when stderr is a terminal, so a piped run's stderr stays empty."""
    stream = Console(stderr=True, highlight=False, markup=False, emoji=False)
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn(unit),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
        console=stream,
        disable=not (enabled and stream.is_terminal),
        transient=False,
    )


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
    if rules.players == 3:
        units.add_row("policy", *policies)
    else:
        seats = [[seat for seat in range(rules.players) if seat % rules.sides == side]
                 for side in range(rules.sides)]
        units.add_row("seats", *(", ".join(map(str, group)) for group in seats))
        units.add_row("policy", *("/".join(policies[seat] for seat in group) for group in seats))
    units.add_row("wins", *(percent(wins, tally.games) for wins in tally.wins))
    means = [total / tally.games if tally.games else 0.0 for total in tally.score_sums]
    if rules.players == 3:
        means = [mean / 2 for mean in means]
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


def cmd_selfplay(args: argparse.Namespace) -> int:
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
    with contextlib.ExitStack() as stack:
        out = _open_out(args.out, stack)
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
    if not args.out:
        raise CliError("--ray needs --out DIR: the folder of the run's shards", 2)
    if args.shard_size < 1:
        raise CliError(f"--shard-size {args.shard_size}: expected at least 1", 2)
    try:
        from . import distributed
        import pyarrow  # noqa: F401  # both are the ray extra: say so before starting anything
        import ray  # noqa: F401
    except ImportError as error:
        raise CliError(f"--ray needs Ray and pyarrow: pip install 'burraco[ray]' ({error})") from None
    if "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())  # module:attribute policies from the current folder
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
                address=args.ray or None, resume=not args.restart, progress=progress)
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
    """Plays the games of ``burraco selfplay``, writing each hand's record to ``out`` as it ends;
    returns the tally and the seconds taken."""
    seat_play = load_policies(engine, policies, "--policies" if args.policies else "--policy")
    tally = Tally(units_of(rules))
    unit = "matches" if args.matches else "hands"
    started = time.perf_counter()
    seeds = seed_stream(seed)

    def finished(game: Any) -> None:
        tally.add_hand(len(game.moves), str(game.end_reason))
        if out is not None:
            write_records(out, [game.record()])

    with progress_bar(args.games, unit, enabled=not args.quiet) as bar:
        task = bar.add_task("selfplay", total=args.games, rate="")
        shown = started
        for done in range(args.games):
            if args.matches:
                match = engine.Match(rules, seed=next(seeds))
                while not match.is_over() and match.hands_played < args.max_hands:
                    game = match.new_game()
                    play_out(engine, game, seat_play, game.seed)
                    match.record(game)
                    finished(game)
                tally.add_game(list(match.scores), match.winner)
            else:
                hand_seed = next(seeds)
                game = engine.Game(rules, seed=hand_seed)
                play_out(engine, game, seat_play, hand_seed)
                finished(game)
                scores = unit_scores(rules, game.result())
                tally.add_game(scores, hand_winner(scores))
            now = time.perf_counter()
            if now >= shown + 0.05 or done + 1 == args.games:  # a few redraws a second at most
                shown = now
                rate = f"{tally.hands / (now - started):,.0f} hands/s" if now > started else ""
                bar.update(task, completed=done + 1, rate=rate)
        seconds = time.perf_counter() - started
    return tally, seconds


# ---- arena ---------------------------------------------------------------------------------------


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


def cmd_arena(args: argparse.Namespace) -> int:
    """``burraco arena``: bots on duplicate deals, a table of results, ratings, records."""
    from . import arena  # the core engine only: the reference has no arena

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
    if "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())  # module:attribute bots from the current folder
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
            out = _open_out(args.out, stack)
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


# ---- replay --------------------------------------------------------------------------------------


def _input_file(path: str, what: str) -> None:
    """A :class:`CliError` quoting ``path`` unless it names something to read: not a missing path
    nor a folder (a device or a pipe is read as it is)."""
    if os.path.isdir(path):
        raise CliError(f"{path!r}: is a folder, not {what}")
    if not os.path.exists(path):
        raise CliError(f"{path!r}: no such file")


def _load_records(path: str) -> list[dict[str, Any]]:
    """Every record of a records file; a missing, unreadable or empty file, or one that is not
    JSON Lines of game records, is a :class:`CliError` quoting the path."""
    _input_file(path, "a records file")
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
            self.screen.say(f"The record ends after {_plural(len(self.moves), 'move')}; the hand "
                            "is not over.")


def cmd_replay(args: argparse.Namespace) -> int:
    """``burraco replay``: a recorded hand move by move, or the list of records."""
    engine = load_engine(args.engine)
    records = _load_records(args.file)
    screen = Screen(color=not args.no_color)
    if args.list:
        for index, record in enumerate(records):
            screen.say(f"{index:>3}  {record_line(record)}")
        return 0
    if not 0 <= args.game < len(records):
        raise CliError(f"--game {args.game}: {args.file} holds {_plural(len(records), 'record')} "
                       f"(0 to {len(records) - 1})")
    where = f"{args.file}: record {args.game}"
    replay = Replay(screen, _game_from_record(engine, records[args.game], where), args.game)
    total = len(replay.moves)
    if not 0 <= args.move <= total:
        raise CliError(f"--move {args.move}: record {args.game} has {_plural(total, 'move')} "
                       f"(0 to {total})", 2)
    game = replay.game
    screen.wrapped(f"burraco replay: {where}, {game.rules!r}, seed {game.seed}, "
                   f"{_plural(total, 'move')}.")
    replay.go_to(args.move)
    # Step unless asked for everything, or when the output goes to a file or a program while a
    # person sits at the keyboard (nobody would see the prompt).
    stepping = not args.all and not (sys.stdin.isatty() and not sys.stdout.isatty())
    if stepping:
        if sys.stdin.isatty():
            _line_editing()
        screen.say(REPLAY_HELP)
    while replay.at < total:
        if not stepping:
            replay.step()
            continue
        try:
            answer = _read_line(f"replay [{replay.at}/{total}]> ").lower()
        except _Quit:
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


# ---- perft ---------------------------------------------------------------------------------------


def cmd_perft(args: argparse.Namespace) -> int:
    """``burraco perft``: move counts of a position (with a divide), or a check of perft files."""
    if args.files:
        for name in args.files:
            _input_file(name, "a perft file")
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


# ---- bench ---------------------------------------------------------------------------------------


def find_checkout(explicit: str | None = None) -> Path | None:
    """The source checkout that holds ``tools/bench_table.py`` and ``benches/``: ``explicit``,
    else the one this package was installed from in editable mode, else the current directory or
    one of its parents."""
    if explicit is not None:
        candidates = [Path(explicit)]
    else:
        here = Path(__file__).resolve()
        candidates = [here.parents[2], Path.cwd(), *Path.cwd().parents]
    for candidate in candidates:
        if (candidate / "tools" / "bench_table.py").is_file() and (
            candidate / "benches" / "search_workloads.py"
        ).is_file():
            return candidate
    return None


def cmd_bench(args: argparse.Namespace) -> int:
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


# ---- serve ---------------------------------------------------------------------------------------


def _listening_socket(host: str, port: int) -> Any:
    """A TCP socket bound to ``host:port`` (port 0: a free one) and listening; a host that does
    not resolve or an address in use is a :class:`CliError` quoting it."""
    import socket

    try:
        family, kind, protocol, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    except (socket.gaierror, UnicodeError) as error:
        raise CliError(f"--host {host!r}: {error}", 2) from None
    sock = socket.socket(family, kind, protocol)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
        sock.listen(128)
    except OSError as error:
        sock.close()
        raise CliError(f"cannot listen on {host!r} port {port}: {error.strerror or error}") from None
    return sock


_TOKEN_IN_QUERY = re.compile(r"([?&]token=)[^&\s\"']*")


def _hide_tokens(record: logging.LogRecord) -> bool:
    """A logging filter: a socket's ``token=...`` in a log line's message or arguments becomes
    ``token=...`` with the token left out."""
    if isinstance(record.msg, str):
        record.msg = _TOKEN_IN_QUERY.sub(r"\1...", record.msg)
    if isinstance(record.args, tuple):
        record.args = tuple(_TOKEN_IN_QUERY.sub(r"\1...", arg) if isinstance(arg, str) else arg
                            for arg in record.args)
    return True


def cmd_serve(args: argparse.Namespace) -> int:
    """``burraco serve``: the table server (docs/server.md) under uvicorn, until Ctrl-C."""
    try:
        import uvicorn

        from .server import Limits, ServerConfig, create_app
    except ImportError as error:
        raise CliError(f"the server needs the server extra ({error}): pip install "
                       "'burraco[server]'") from None
    if args.port is not None and not 0 <= args.port <= 65535:
        raise CliError(f"--port {args.port}: expected 0 to 65535 (0: any free port)", 2)
    if args.bot_threads < 1:
        raise CliError(f"--bot-threads {args.bot_threads}: expected at least 1", 2)
    if args.max_iterations < 1:
        raise CliError(f"--max-iterations {args.max_iterations}: expected at least 1", 2)
    if args.max_tables < 1 or args.max_bot_tables < 0:
        raise CliError(f"--max-tables {args.max_tables} --max-bot-tables {args.max_bot_tables}: "
                       "expected at least 1 and at least 0", 2)
    if not (args.rate > 0 and args.burst >= 1):
        raise CliError(f"--rate {args.rate:g} --burst {args.burst:g}: expected a rate above 0 "
                       "and a burst of at least 1", 2)
    if not (args.create_rate >= 0 and args.create_burst >= 1):
        raise CliError(f"--create-rate {args.create_rate:g} --create-burst "
                       f"{args.create_burst:g}: expected a rate of at least 0 (0: no limit) and "
                       "a burst of at least 1", 2)
    if not (args.idle_timeout > 0 and math.isfinite(args.idle_timeout)):
        raise CliError(f"--idle-timeout {args.idle_timeout:g}: expected seconds above 0", 2)
    if not (0 < args.busy_timeout <= 3600):
        raise CliError(f"--busy-timeout {args.busy_timeout:g}: expected seconds above 0, at "
                       "most 3600", 2)
    from .server._app import normal_origin

    try:
        origins = frozenset(normal_origin(origin) for origin in args.allow_origin or ())
    except ValueError as error:
        raise CliError(f"--allow-origin: {error}", 2) from None
    config = ServerConfig(db=args.db, seed=args.seed, engine=args.engine,
                          bot_threads=args.bot_threads, max_tables=args.max_tables,
                          max_bot_tables=args.max_bot_tables, rate=args.rate, burst=args.burst,
                          create_rate=args.create_rate, create_burst=args.create_burst,
                          idle_timeout=args.idle_timeout, busy_timeout=args.busy_timeout,
                          allowed_origins=origins,
                          limits=Limits(max_iterations=args.max_iterations,
                                        allowed_policies=frozenset(args.allow_policy or ())))
    try:
        app = create_app(config)
        app.state.server.open()  # the database and its tables, before the port is announced
    except Exception as error:  # a database that cannot be opened or read
        raise CliError(f"--db {args.db!r}: {error}") from None
    sock = _listening_socket(args.host, args.port)
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    reloaded = len(app.state.server.tables)
    print(f"burraco serve: listening on http://{shown}:{port}/ (database {args.db}, "
          f"{_plural(reloaded, 'unfinished table')} reloaded); Ctrl-C stops", flush=True)
    # No access log: its lines would hold the seats' tokens (the sockets' query strings).
    server = uvicorn.Server(uvicorn.Config(app, log_level=args.log_level, access_log=False,
                                           ws_max_size=65536, lifespan="on"))
    # uvicorn logs each WebSocket handshake ('"WebSocket /api/tables/ID/play?token=..." [accepted]')
    # at info, the access log off or not: the token is blanked out of those lines.
    logging.getLogger("uvicorn.error").addFilter(_hide_tokens)
    # uvicorn stops cleanly on SIGINT or SIGTERM, then raises the signal again: both are the
    # normal way to stop a server (every move is already committed), so both end with status 0.
    previous = signal.signal(signal.SIGTERM, _stop_serving)
    try:
        server.run(sockets=[sock])
    except (KeyboardInterrupt, _StopServing):
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        sock.close()
    print("burraco serve: stopped", flush=True)
    return 0


class _StopServing(Exception):
    """SIGTERM after uvicorn's clean shutdown."""


def _stop_serving(signum: int, frame: Any) -> None:
    raise _StopServing()


# ---- the parser ----------------------------------------------------------------------------------


def _nonnegative_seed(text: str) -> int:
    try:
        value = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if not 0 <= value <= _MASK:
        raise argparse.ArgumentTypeError(f"{text!r}: expected an integer in [0, 2**64)")
    return value


class _OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (``burraco play: error: ...``), status 2."""

    def error(self, message: str) -> Any:
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """The ``burraco`` argument parser with its subcommands."""
    from ._core import Rules  # the presets are the engine's

    presets = ", ".join(Rules.PRESETS)
    parser = _OneLineParser(
        prog="burraco",
        description="Burraco / Buraco rules engine: play, self-play, arena, replay, perft, "
        "benchmarks, the table server.",
        epilog=f"Every subcommand has --help. Presets: {presets}.",
    )
    parser.add_argument("--version", action="version", version=f"burraco {package_version()}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_OneLineParser)

    def engine_option(sub: argparse.ArgumentParser) -> None:
        sub.add_argument("--engine", choices=ENGINES, default="core",
                         help="core: the C++ engine (default); reference: the pure-Python one")

    def color_option(sub: argparse.ArgumentParser) -> None:
        sub.add_argument("--no-color", action="store_true",
                         help="plain text even on a terminal (also: the NO_COLOR variable; piped "
                         "output is always plain)")

    def rules_options(sub: argparse.ArgumentParser, default: str | None = "italian") -> None:
        sub.add_argument("--preset", default=default, metavar="PRESET", choices=Rules.PRESETS,
                         help=f"rules preset: {presets} (default: {default})")
        sub.add_argument("--players", type=int, metavar="N",
                         help="override the preset's number of players (2, 3, 4, or 6 with "
                         "brazilian)")
        sub.add_argument("--sides", type=int, metavar="N",
                         help="six players: 3 sides of two (default) or 2 sides of three")

    play = commands.add_parser(
        "play", help="play a match against bots in the terminal",
        description="Play a match (to the preset's target, or --hands N hands) against bots. "
        "At the prompt type a move in the notation (draw, pile, meld 5h 6h 7h, add 2 8h, "
        "discard Qs; keep/reject in brazilian), 'moves' or '?' for the numbered legal moves (a "
        "number plays that move), 'help', 'quit'.",
    )
    rules_options(play)
    play.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    play.add_argument("--seed", type=_nonnegative_seed,
                      help="match seed (default: random, printed at the start)")
    play.add_argument("--bots", default="greedy", metavar="POLICY",
                      help="the bots' policy: greedy (default), heuristic, random, "
                      "ismcts:ITERATIONS[:option=value...] (a search, docs/bots.md), or "
                      "module:attribute (a native or Python policy, docs/native.md)")
    play.add_argument("--hands", type=int, metavar="N",
                      help="stop after N hands (default: play to the match target)")
    play.add_argument("--out", metavar="FILE",
                      help="write the record of every hand played to FILE (JSON Lines, as "
                      "selfplay --out; an unfinished hand too when you leave)")
    color_option(play)
    engine_option(play)
    play.set_defaults(run=cmd_play)

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
                          help="policy of every seat: greedy (default), heuristic, random, "
                          "ismcts:ITERATIONS[:option=value...] (a search, docs/bots.md), or "
                          "module:attribute (a native or Python policy, docs/native.md)")
    selfplay.add_argument("--policies", metavar="P0,P1,...",
                          help="one policy per seat, e.g. greedy,random or greedy,mine:policy "
                          "(four players: one per side is enough)")
    selfplay.add_argument("--seed", type=_nonnegative_seed,
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
    selfplay.add_argument("--quiet", action="store_true", help="no progress bar")
    color_option(selfplay)
    engine_option(selfplay)
    selfplay.set_defaults(run=cmd_selfplay)

    arena_cmd = commands.add_parser(
        "arena", help="bots against bots on duplicate deals, with confidence intervals",
        description="Play every two of the bots on the same duplicate pairs (one deal played "
        "twice with the seats swapped; hand i dealt from the (i+1)-th SplitMix64 output of the "
        "seed) and print, per two bots, the first's share of the pairs won with its 95 % "
        "(Wilson) interval, its mean margin per pair and each bot's CPU time per move; with "
        "three bots or more, Bradley-Terry ratings on the Elo scale. Bots: random, greedy, "
        "heuristic, ismcts:ITERATIONS[:option=value...] (options: docs/bots.md), or module:attribute "
        "(docs/bots.md).",
    )
    rules_options(arena_cmd, default="italian-2p")
    arena_cmd.add_argument("--bots", required=True, metavar="A,B[,C...]",
                           help="the bots, e.g. heuristic,greedy,random or ismcts:1000,heuristic")
    arena_cmd.add_argument("--pairs", type=int, default=100, metavar="N",
                           help="duplicate pairs per two bots (default 100)")
    arena_cmd.add_argument("--seed", type=_nonnegative_seed,
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
    arena_cmd.set_defaults(run=cmd_arena)

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
    replay.set_defaults(run=cmd_replay)

    perft = commands.add_parser(
        "perft", help="count move sequences from a position, with a per-move divide",
        description="Count the legal move sequences of 1..D moves from a dealt position (--preset, "
        "--seed) or a state string (--state), printing 'perft d n' per depth; --divide adds the "
        "count below each root move. With perft FILEs instead: check their frozen counts "
        "(a mismatch prints both engines' divide).",
    )
    perft.add_argument("files", nargs="*", metavar="FILE", help="perft files to check")
    rules_options(perft)
    perft.add_argument("--seed", type=_nonnegative_seed, default=1, help="deal seed (default 1)")
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
    perft.set_defaults(run=cmd_perft)

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
    bench.set_defaults(run=cmd_bench)

    serve = commands.add_parser(
        "serve", help="the table server: people play against bots over WebSockets",
        description="Serve tables over HTTP and WebSockets (docs/server.md): POST /api/tables "
        "makes a table with human and bot seats, each human seat plays through "
        "/api/tables/ID/play?token=TOKEN, bots move on the server. Every move is committed to the "
        "SQLite database before anyone is told of it, and a restarted server reloads every "
        "unfinished table where it was. Needs pip install 'burraco[server]'.",
    )
    serve.add_argument("--host", default="127.0.0.1",
                       help="the address to listen on (default 127.0.0.1: this machine only)")
    serve.add_argument("--port", type=int, default=8000,
                       help="the port (default 8000; 0: any free port, printed)")
    serve.add_argument("--db", default="burraco-server.sqlite3", metavar="FILE",
                       help="the SQLite database (default burraco-server.sqlite3, created if "
                       "missing; :memory: keeps nothing)")
    serve.add_argument("--seed", type=_nonnegative_seed,
                       help="deal seeds from this seed's stream, for tests (default: each deal "
                       "from the secrets module)")
    serve.add_argument("--bot-threads", type=int, default=2, metavar="N",
                       help="worker threads for the bots' moves, all tables together (default 2)")
    serve.add_argument("--max-tables", type=int, default=1000, metavar="N",
                       help="the most tables played at once (default 1000)")
    serve.add_argument("--max-bot-tables", type=int, default=100, metavar="N",
                       help="of which tables of bots only (default 100)")
    serve.add_argument("--rate", type=float, default=10.0, metavar="R",
                       help="frames a second a socket may send after its burst (default 10)")
    serve.add_argument("--burst", type=float, default=20.0, metavar="N",
                       help="frames a socket may send at once (default 20)")
    serve.add_argument("--create-rate", type=float, default=10.0, metavar="N",
                       help="tables one client address may make a minute after its burst "
                       "(default 10; 0: no limit); over it the answer is 429 with Retry-After")
    serve.add_argument("--create-burst", type=float, default=10.0, metavar="N",
                       help="tables one client address may make at once (default 10)")
    serve.add_argument("--idle-timeout", type=float, default=3600.0, metavar="SECONDS",
                       help="an unfinished table with no socket open and no move or request for "
                       "this long is closed as abandoned (default 3600)")
    serve.add_argument("--busy-timeout", type=float, default=5.0, metavar="SECONDS",
                       help="how long a commit waits for a database lock another process holds "
                       "before it fails and is retried (default 5)")
    serve.add_argument("--allow-origin", action="append", metavar="ORIGIN",
                       help="a web page origin (scheme://host[:port]) besides the server's own "
                       "that may make tables and open sockets (repeatable; none by default)")
    serve.add_argument("--max-iterations", type=int, default=5000, metavar="N",
                       help="the most ISMCTS iterations a bot seat may ask for (default 5000)")
    serve.add_argument("--allow-policy", action="append", metavar="MODULE:ATTRIBUTE",
                       help="a module:attribute policy that bot seats may name (repeatable; "
                       "none by default, since naming one imports its module)")
    serve.add_argument("--log-level", default="info",
                       choices=("critical", "error", "warning", "info", "debug"),
                       help="uvicorn's log level (default info)")
    engine_option(serve)
    serve.set_defaults(run=cmd_serve)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the ``burraco`` command; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "run", None) is None:
        parser.print_help()
        return 2
    prog = f"burraco {args.command}"
    try:
        status: int = args.run(args)
        return status
    except CliError as error:
        print(f"{prog}: error: {error}", file=sys.stderr)
        return error.status
    except BurracoError as error:
        print(f"{prog}: error: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"\n{prog}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (``burraco replay x | head``): no message, and none at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
