"""``burraco play``: a person plays a match against bots in the terminal."""

from __future__ import annotations

import argparse
import contextlib
import random
import shutil
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .. import bots
from .._board import WIDTH, Seating
from .._errors import BurracoError
from .._records import write_records
from .._tally import unit_of_seat, units_of
from ._common import (
    CliError,
    color_option,
    engine_option,
    load_engine,
    load_policy,
    make_rules,
    nonnegative_seed,
    open_out,
    plural,
    rules_options,
    seed_or_random,
)
from ._screen import (
    Quit,
    Screen,
    columns,
    line_editing,
    read_line,
    render_board,
    show_result,
    show_units,
)


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
    :class:`Quit` when the person leaves."""
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
                    screen.say(f"Your pozzetto joined your hand: {plural(len(packet), 'card')}.",
                               "bold")
                    new_cards = packet
            after_move = game.hand(human)
        if show:
            view.show(game, new_cards)
            new_cards = None
            show = False
        line = read_line(f"[{game.phase}] your move> ")
        command = line.lower()
        if not command:
            continue
        if command in ("quit", "exit", "q"):
            raise Quit("quit")
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


def run(args: argparse.Namespace) -> int:
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
        elif unit_of_seat(rules, seat) == unit_of_seat(rules, args.seat):
            names[seat] = f"partner, {args.bots} bot"
        else:
            names[seat] = f"{args.bots} bot"
    seating = Seating(names, args.seat)
    screen = Screen(color=not args.no_color)
    rng = random.Random(seed)
    current: list[Any] = []  # the hand being played
    editing = line_editing(
        lambda: [*PLAY_COMMANDS, *(str(move) for move in current[-1].legal_moves())]
        if current and not current[-1].is_over() else list(PLAY_COMMANDS)
    ) if sys.stdin.isatty() else False
    limit = plural(args.hands, "hand") if args.hands else f"to {rules.match_target} points"
    screen.wrapped(f"burraco play: {rules!r}, match seed {seed}; you are seat {args.seat}, the "
                   f"bots play {args.bots}; playing {limit}.")
    screen.wrapped("Type a move ('draw', 'meld 5h 6h 7h', 'discard Qs'), 'moves' or '?' for the "
                   "legal moves, 'help', 'quit'." + (" Up recalls the last command." if editing
                                                     else ""))
    with contextlib.ExitStack() as stack:
        out = open_out(args.out, stack)
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
                screen.say(f"Match scores after {plural(match.hands_played, 'hand')}: {scores}")
        except Quit as reason:
            if current and current[-1].moves:
                save(current[-1])  # the unfinished hand, for replay
            screen.say(f"Leaving the match ({reason}) after "
                       f"{plural(match.hands_played, 'finished hand')}. Goodbye.")
        else:
            if match.is_over():
                winner = match.winner
                unit = units_of(rules)[winner] if winner is not None else None
                screen.say(f"Match over: {unit} wins." if unit else "Match over: a draw.")
            else:
                screen.say(f"Stopped after {plural(match.hands_played, 'hand')}.")
        if out is not None:
            screen.say(f"wrote {plural(written, 'record')} to {args.out}")
    return 0


def register(commands: Any) -> None:
    """Adds ``burraco play`` to the subcommands."""
    play = commands.add_parser(
        "play", help="play a match against bots in the terminal",
        description="Play a match (to the preset's target, or --hands N hands) against bots. "
        "At the prompt type a move in the notation (draw, pile, meld 5h 6h 7h, add 2 8h, "
        "discard Qs; keep/reject in brazilian), 'moves' or '?' for the numbered legal moves (a "
        "number plays that move), 'help', 'quit'.",
    )
    rules_options(play)
    play.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    play.add_argument("--seed", type=nonnegative_seed,
                      help="match seed (default: random, printed at the start)")
    play.add_argument("--bots", default="greedy", metavar="POLICY",
                      help=f"the bots' policy (default greedy): {bots.HELP}")
    play.add_argument("--hands", type=int, metavar="N",
                      help="stop after N hands (default: play to the match target)")
    play.add_argument("--out", metavar="FILE",
                      help="write the record of every hand played to FILE (JSON Lines, as "
                      "selfplay --out; an unfinished hand too when you leave)")
    color_option(play)
    engine_option(play)
    play.set_defaults(run=run)
