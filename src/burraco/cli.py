"""The ``burraco`` command: play against bots, self-play, replay records, perft and benchmarks.

    burraco play --preset italian [--seat 0] [--seed S] [--bots greedy|random] [--hands N]
    burraco selfplay --preset P --games N [--policy greedy | --policies greedy,random]
                     [--seed S] [--out games.jsonl] [--matches] [--engine core|reference]
    burraco replay FILE [--game K | --list] [--engine core|reference]
    burraco perft [--preset P --seed S | --state STATE] --depth D [--divide]
    burraco perft FILE [FILE ...] [--id ID] [--max-nodes N] [--divide]
    burraco bench [--smoke] [--json FILE]

Also ``python -m burraco``. Every subcommand has ``--help``; docs/cli.md describes them. User
errors (a bad preset, a missing file, an illegal move typed at the prompt) print one line and never
a traceback: exit status 2 for a bad command line, 1 for a failure, 130 after Ctrl-C.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import random
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, TextIO

from . import _perft_tool
from ._errors import BurracoError
from ._match import _splitmix64
from ._records import read_records, write_records

POLICIES = ("greedy", "random")
ENGINES = _perft_tool.ENGINES
_MASK = (1 << 64) - 1


class CliError(Exception):
    """A user error: its message is printed on one line and the command exits with ``status``."""

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.status = status


# ---- shared helpers ------------------------------------------------------------------------------


def load_engine(name: str) -> ModuleType:
    """``burraco`` for ``'core'``, ``burraco.reference`` for ``'reference'``."""
    return _perft_tool.load_engine(name)


def make_rules(engine: ModuleType, preset: str, players: int | None = None) -> Any:
    """``Rules(preset)`` of an engine, with ``players`` overridden when given; a bad preset or
    player count is a :class:`CliError` quoting it (status 2: a bad command line)."""
    try:
        if players is None:
            return engine.Rules(preset)
        return engine.Rules(preset, players=players)
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


def units_of(rules: Any) -> list[str]:
    """What a match scores: the two sides, or with three players each seat (in half points)."""
    if rules.players == 3:
        return [f"seat {seat}" for seat in range(3)]
    return ["side 0", "side 1"]


def unit_scores(rules: Any, result: Any) -> list[int]:
    """A finished hand's score per unit of :func:`units_of` (half points with three players)."""
    if rules.players == 3:
        return [int(points) for points in result.player_scores]
    totals = [0, 0]
    for side in result.sides:
        totals[side.side] = int(side.total)
    return totals


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


def state_fields(game: Any) -> dict[str, str]:
    """The fields of ``game.state_string()`` by name (docs/game.md, version 1)."""
    fields: dict[str, str] = {}
    for part in game.state_string().split(";"):
        name, _, value = part.partition("=")
        fields[name] = value
    return fields


# ---- the board -----------------------------------------------------------------------------------


@dataclass
class Seating:
    """Who sits where: the human's seat (None: nobody, a full view) and a name per seat."""

    names: dict[int, str] = field(default_factory=dict)
    human: int | None = None

    def seat(self, seat: int) -> str:
        """``'seat 1 (greedy bot)'``, ``'seat 0 (you)'``, or ``'seat 2'``."""
        name = self.names.get(seat)
        return f"seat {seat} ({name})" if name else f"seat {seat}"


def side_seats(game: Any, side: int) -> list[int]:
    """The seats that play for a side."""
    return [seat for seat in range(game.players) if game.side_of(seat) == side]


def side_label(game: Any, side: int, seating: Seating) -> str:
    """``'side 0 (seats 0, 2; you)'``: the side, its seats, and the human if among them."""
    seats = side_seats(game, side)
    text = f"side {side} (seat{'s' if len(seats) > 1 else ''} {', '.join(map(str, seats))}"
    if seating.human is not None and seating.human in seats:
        text += "; you"
    return text + ")"


def _packet_line(packet: tuple[str, int | None, Any], seating: Seating) -> str:
    """A pozzetto's status; its cards too in the full view (or when the human has seen them)."""
    status, owner, cards = packet
    full = seating.human is None
    if status == "untaken":
        text = f"untaken, {len(cards)} cards"
        return text + (f": {cards}" if full and len(cards) else "")
    if status == "stock" or owner is None:
        return "became the stock"
    if status == "face_down":
        text = f"taken face down by {seating.seat(owner)}, joins the hand at its next turn"
        return text + (f": {cards}" if full else "")
    if status == "seen":
        text = f"taken face down by {seating.seat(owner)} (seen by it)"
        return text + (f": {cards}" if full or owner == seating.human else "")
    if status == "in_hand":
        return f"in the hand of {seating.seat(owner)}"
    return f"{status} ({seating.seat(owner)})"


def render_board(
    game: Any,
    seating: Seating,
    *,
    title: str = "",
    match_scores: Sequence[int] | None = None,
) -> str:
    """The table as text: scores, stock, discard pile, pozzetti, every side's melds with their
    indices (as ``add <index> <card>`` takes them), the hands (only the human's cards unless
    ``seating.human`` is None: the full view) and whose turn it is."""
    rules = game.rules
    lines: list[str] = []
    width = 100
    if title:
        lines.append(f"== {title} " + "=" * max(3, width - len(title) - 4))
    if match_scores is not None:
        shown = show_units(rules, match_scores)
        units = units_of(rules)
        parts = []
        for unit, score in zip(units, shown):
            if seating.human is not None and (
                unit == f"seat {seating.human}"
                or (rules.players != 3 and unit == f"side {game.side_of(seating.human)}")
            ):
                unit += " (you)"
            parts.append(f"{unit} {score}")
        lines.append(f"Match scores (target {rules.match_target}): " + ", ".join(parts))
    top = game.top_discard
    pile = game.discard_pile
    lines.append(
        f"Stock: {game.stock_size} cards   Discard pile ({len(pile)}): {pile if len(pile) else '-'}"
        f"   top: {top if top is not None else '-'}"
    )
    for index, packet in enumerate(game.pozzetti):
        lines.append(f"Pozzetto {index}: {_packet_line(packet, seating)}")
    fields = state_fields(game)
    opened = fields.get("opened", "").split(",")
    need = fields.get("need", "").split(",")
    for side in game.sides:
        melds = game.melds(side)
        taken = any(
            status in ("face_down", "seen", "in_hand") and owner is not None
            and game.side_of(owner) == side
            for status, owner, _ in game.pozzetti
        )
        table = sum(int(meld.points) for meld in melds)
        bonus = sum(int(meld.bonus) for meld in melds)
        notes = [f"table {table}" + (f" + burraco bonuses {bonus}" if bonus else "")]
        notes.append("pozzetto taken" if taken else "pozzetto not taken")
        if rules.opening_minimum is not None and side < len(opened) and side < len(need):
            notes.append("open" if opened[side] == "1" else f"not open: needs {need[side]}")
        lines.append(f"Melds of {side_label(game, side, seating)}: {', '.join(notes)}")
        if not len(melds):
            lines.append("  (none)")
        for index, meld in enumerate(melds):
            tag = f"  {meld.burraco} burraco" if meld.burraco else ""
            lines.append(f"  [{index}] {meld}{tag}")
    for seat in range(game.players):
        hand = game.hand(seat)
        if seating.human is None or seat == seating.human:
            lines.append(f"Hand of {seating.seat(seat)} ({len(hand)}): {hand if len(hand) else '-'}")
        else:
            known = game.known(seat)
            extra = f", known: {known}" if len(known) else ""
            plural = "" if len(hand) == 1 else "s"
            lines.append(f"Hand of {seating.seat(seat)}: {len(hand)} card{plural}{extra}")
    if game.is_over():
        lines.append(f"The hand is over: {game.end_reason.replace('_', ' ')}")
    else:
        lines.append(f"Turn: {seating.seat(game.turn)}, {game.phase} phase")
    return "\n".join(lines)


RESULT_FIELDS = ("melds", "bonuses", "closing", "hand", "pozzetto", "cut", "total")


def render_result(game: Any, seating: Seating) -> str:
    """A finished hand's result: the end reason and every side's score breakdown (RULES E)."""
    result = game.result()
    lines = []
    reason = str(result.end_reason).replace("_", " ")
    if result.closing_side is not None:
        reason += f" by {side_label(game, result.closing_side, seating)}"
    lines.append(f"Hand over: {reason}")
    labels = [side_label(game, side.side, seating) for side in result.sides]
    width = max(len(label) for label in labels)
    lines.append(" " * width + "".join(f"{name:>10}" for name in RESULT_FIELDS))
    for label, side in zip(labels, result.sides):
        lines.append(
            f"{label:<{width}}" + "".join(f"{getattr(side, name):>10}" for name in RESULT_FIELDS)
        )
    if result.player_scores is not None:
        scores = ", ".join(
            f"seat {seat} {format_points(points)}" for seat, points in enumerate(result.player_scores)
        )
        lines.append(f"Scores per seat (RULES E.6): {scores}")
    return "\n".join(lines)


# ---- play ----------------------------------------------------------------------------------------

PLAY_HELP = """\
Commands:
  draw, pile, keep, reject      draw phase moves (keep/reject: the brazilian first draw)
  meld 5h 6h 7h                 a new meld (cards in any order; a wild: Jk or a two)
  add 2 8h                      lay 8h off on your side's meld [2] ("add 2 8h 9h": several)
  discard Qs                    end the turn
  moves, ?                      the numbered legal moves; type a number to play that move
  board                         show the table again
  help                          this text
  quit                          leave the match"""


class _Quit(Exception):
    """The person left the match (quit, or end of input)."""


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


def _bot_move(game: Any, policy: str, seed: int) -> Any:
    """The move a built-in policy plays here."""
    return game.policy_move(policy, seed)


def _describe_moves(seating: Seating, played: Sequence[tuple[int, Any]]) -> list[str]:
    """``'seat 1 (greedy bot): draw, meld 5h 6h 7h, discard Qs'`` per run of one seat's moves."""
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


def play_hand(
    game: Any,
    seating: Seating,
    bots: str,
    rng: random.Random,
    title: str,
    match_scores: Sequence[int],
) -> None:
    """Plays one hand: the bots move by themselves, the person at the prompt. Raises
    :class:`_Quit` when the person leaves."""
    human = seating.human
    played: list[tuple[int, Any]] = []
    show = True
    while not game.is_over():
        if game.turn != human:
            seat = game.turn
            move = _bot_move(game, bots, rng.getrandbits(64))
            game.push(move)
            played.append((seat, move))
            show = True
            continue
        if played:
            print("\n".join(_describe_moves(seating, played)))
            played = []
        if show:
            print()
            print(render_board(game, seating, title=title, match_scores=match_scores))
            show = False
        line = _read_line(f"[{game.phase}] your move> ")
        command = line.lower()
        if not command:
            continue
        if command in ("quit", "exit", "q"):
            raise _Quit("quit")
        if command in ("help", "h"):
            print(PLAY_HELP)
            continue
        if command in ("board", "b"):
            show = True
            continue
        moves = game.legal_moves()
        if command in ("moves", "?"):
            width = shutil.get_terminal_size((100, 24)).columns
            digits = len(str(len(moves)))
            items = [f"{n:>{digits}}. {move}" for n, move in enumerate(moves, 1)]
            print(f"{len(moves)} legal moves:")
            print("\n".join(columns(items, width)))
            continue
        before = game.hand(human)
        played_before = len(game.moves)
        if command.isdigit():
            number = int(command)
            if not 1 <= number <= len(moves):
                print(f"No move number {number}: there are {len(moves)} legal moves "
                      "(type 'moves' to list them).")
                continue
            chosen: Any = moves[number - 1]
        else:
            chosen = line
        try:
            game.push(chosen)
        except BurracoError as error:
            print(f"Not played: {error}. Type 'moves' (or '?') for the legal moves, 'help' for "
                  "the commands.")
            continue
        mine = ", ".join(str(move) for move in game.moves[played_before:])
        note = f"You played: {mine}"
        after = game.hand(human)
        gained = after - (after & before)
        if len(gained):
            note += f"; new in your hand: {gained}"
        print(note)
        show = True
    if played:
        print("\n".join(_describe_moves(seating, played)))
    print()
    print(render_board(game, seating, title=title + " (final)", match_scores=match_scores))
    print(render_result(game, seating))


def cmd_play(args: argparse.Namespace) -> int:
    """``burraco play``: a person plays a match against bots in the terminal."""
    engine = load_engine(args.engine)
    rules = make_rules(engine, args.preset, args.players)
    if not 0 <= args.seat < rules.players:
        raise CliError(f"--seat {args.seat}: {rules!r} has seats 0 to {rules.players - 1}", 2)
    if args.hands is not None and args.hands < 1:
        raise CliError(f"--hands {args.hands}: expected at least 1", 2)
    seed = seed_or_random(args.seed)
    match = engine.Match(rules, seed=seed)
    names = {}
    for seat in range(rules.players):
        if seat == args.seat:
            names[seat] = "you"
        elif rules.players == 4 and seat % 2 == args.seat % 2:
            names[seat] = f"partner, {args.bots} bot"
        else:
            names[seat] = f"{args.bots} bot"
    seating = Seating(names, args.seat)
    rng = random.Random(seed)
    limit = f"{args.hands} hand{'s' if args.hands != 1 else ''}" if args.hands else (
        f"to {rules.match_target} points")
    print(f"burraco: {rules!r}, match seed {seed}, you are seat {args.seat}, bots: {args.bots}; "
          f"playing {limit}.")
    print("Type a move (e.g. 'draw', 'meld 5h 6h 7h', 'discard Qs'), 'moves' or '?' for the legal "
          "moves, 'help', 'quit'.")
    try:
        while not match.is_over() and (args.hands is None or match.hands_played < args.hands):
            game = match.new_game()
            title = f"{rules.preset}, hand {match.hands_played + 1}"
            play_hand(game, seating, args.bots, rng, title, match.scores)
            match.record(game)
            scores = ", ".join(f"{unit} {score}" for unit, score in
                               zip(units_of(rules), show_units(rules, match.scores)))
            print(f"Match scores after {match.hands_played} "
                  f"hand{'s' if match.hands_played != 1 else ''}: {scores}")
    except _Quit as reason:
        print(f"Leaving the match ({reason}) after {match.hands_played} finished "
              f"hand{'s' if match.hands_played != 1 else ''}. Goodbye.")
        return 0
    if match.is_over():
        winner = match.winner
        unit = units_of(rules)[winner] if winner is not None else None
        print(f"Match over: {unit} wins." if unit else "Match over: a draw.")
    else:
        print(f"Stopped after {match.hands_played} hand{'s' if match.hands_played != 1 else ''}.")
    return 0


# ---- selfplay ------------------------------------------------------------------------------------


def seat_policies(policy: str, policies: str | None, players: int) -> list[str]:
    """One policy per seat: ``--policies a,b,...`` (one per seat, or one per side with four
    players: seat k plays entry ``k mod 2``), else ``--policy`` for every seat."""
    if policies is None:
        chosen = [policy] * players
    else:
        names = [name.strip() for name in policies.split(",")]
        if len(names) == players:
            chosen = names
        elif players == 4 and len(names) == 2:
            chosen = [names[seat % 2] for seat in range(players)]
        else:
            raise CliError(f"--policies {policies!r}: expected {players} policies, one per seat", 2)
    for name in chosen:
        if name not in POLICIES:
            raise CliError(f"unknown policy {name!r} (policies: {', '.join(POLICIES)})", 2)
    return chosen


def play_out(game: Any, policies: Sequence[str], seed: int) -> None:
    """Plays a hand to its end: with one policy for every seat ``game.playout(policy, seed)``,
    else move by move with ``game.policy_move``, the move seeds from SplitMix64 of ``seed``."""
    if len(set(policies)) == 1:
        game.playout(policies[0], seed)
        return
    seeds = seed_stream(seed)
    while not game.is_over():
        game.push(_bot_move(game, policies[game.turn], next(seeds)))


class Progress:
    """A one-line progress bar on a terminal stream; silent when the stream is not a terminal."""

    def __init__(self, total: int, unit: str, stream: TextIO, enabled: bool = True) -> None:
        self.total = total
        self.unit = unit
        self.stream = stream
        self.enabled = enabled and stream.isatty()
        self.started = time.perf_counter()
        self.shown = 0.0

    def update(self, done: int, extra: str = "") -> None:
        """Redraws the bar (at most ten times a second, and always at the end)."""
        if not self.enabled:
            return
        now = time.perf_counter()
        if done < self.total and now - self.shown < 0.1:
            return
        self.shown = now
        fraction = done / self.total if self.total else 1.0
        bar = "#" * int(fraction * 30)
        elapsed = now - self.started
        rate = f"{done / elapsed:,.1f} {self.unit}/s" if elapsed > 0 else ""
        self.stream.write(f"\r[{bar:<30}] {done}/{self.total} {self.unit} {rate} {extra}".rstrip()
                          + "\x1b[K")
        self.stream.flush()

    def close(self) -> None:
        """Ends the bar's line."""
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()


@dataclass
class Tally:
    """Self-play statistics: per unit (side, or seat with three players) wins and scores, draws,
    end reasons, moves."""

    units: list[str]
    games: int = 0
    hands: int = 0
    wins: list[int] = field(default_factory=list)
    draws: int = 0
    score_sums: list[int] = field(default_factory=list)
    moves: int = 0
    reasons: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.wins = [0] * len(self.units)
        self.score_sums = [0] * len(self.units)

    def add_game(self, scores: Sequence[int], winner: int | None) -> None:
        """A finished game (a hand, or a match): its score per unit and the winning unit."""
        self.games += 1
        for unit, score in enumerate(scores):
            self.score_sums[unit] += score
        if winner is None:
            self.draws += 1
        else:
            self.wins[winner] += 1

    def add_hand(self, game: Any) -> None:
        """A finished hand's moves and end reason."""
        self.hands += 1
        self.moves += len(game.moves)
        reason = str(game.end_reason)
        self.reasons[reason] = self.reasons.get(reason, 0) + 1


def hand_winner(scores: Sequence[int]) -> int | None:
    """The unit with the unique highest score, or None (a draw)."""
    best = max(scores)
    leaders = [unit for unit, score in enumerate(scores) if score == best]
    return leaders[0] if len(leaders) == 1 else None


def render_summary(
    tally: Tally,
    rules: Any,
    policies: Sequence[str],
    seconds: float,
    matches: bool,
    end_reasons: Sequence[str],
) -> str:
    """The summary table of a self-play run."""
    game_word = "matches" if matches else "hands"
    percent: Callable[[int, int], str] = (
        lambda n, total: f"{n} ({100 * n / total:.1f}%)" if total else f"{n}"
    )
    rows: list[tuple[str, list[str]]] = []
    if rules.players == 3:
        rows.append(("policy", list(policies)))
    else:
        seats = [[seat for seat in range(rules.players) if seat % 2 == side] for side in (0, 1)]
        rows.append(("seats", [", ".join(map(str, group)) for group in seats]))
        rows.append(("policy", ["/".join(policies[seat] for seat in group) for group in seats]))
    rows.append(("wins", [percent(wins, tally.games) for wins in tally.wins]))
    means = [total / tally.games if tally.games else 0.0 for total in tally.score_sums]
    if rules.players == 3:
        means = [mean / 2 for mean in means]
    rows.append((f"mean score ({'match' if matches else 'hand'})", [f"{m:.1f}" for m in means]))
    label_width = max(22, max(len(label) for label, _ in rows) + 2)
    cell = max(14, max(len(text) for _, cells in rows for text in cells) + 2)
    out = [f"games{'':<{label_width - 5}}{tally.games} {game_word}"
           + (f" ({tally.hands} hands)" if matches else "")]
    out.append(f"{'':<{label_width}}" + "".join(f"{unit:<{cell}}" for unit in tally.units).rstrip())
    for label, cells in rows:
        out.append(f"{label:<{label_width}}" + "".join(f"{text:<{cell}}" for text in cells).rstrip())
    out.append(f"{'draws':<{label_width}}{percent(tally.draws, tally.games)}")
    reasons = ", ".join(
        f"{reason} {percent(tally.reasons.get(reason, 0), tally.hands)}" for reason in end_reasons
    )
    out.append(f"{'end reasons':<{label_width}}{reasons}")
    mean_moves = tally.moves / tally.hands if tally.hands else 0.0
    out.append(f"{'mean moves per hand':<{label_width}}{mean_moves:.1f}")
    rate = tally.hands / seconds if seconds > 0 else 0.0
    out.append(f"{'hands per second':<{label_width}}{rate:,.1f} ({seconds:.2f} s)")
    return "\n".join(out)


def cmd_selfplay(args: argparse.Namespace) -> int:
    """``burraco selfplay``: hands (or matches) between built-in policies, with a summary."""
    engine = load_engine(args.engine)
    rules = make_rules(engine, args.preset, args.players)
    policies = seat_policies(args.policy, args.policies, rules.players)
    if args.games < 0:
        raise CliError(f"--games {args.games}: expected 0 or more", 2)
    if args.max_hands < 1:
        raise CliError(f"--max-hands {args.max_hands}: expected at least 1", 2)
    seed = seed_or_random(args.seed)
    with contextlib.ExitStack() as stack:
        out: TextIO | None = None
        if args.out:
            try:
                out = stack.enter_context(open(args.out, "w", encoding="utf-8", newline="\n"))
            except OSError as error:
                raise CliError(f"--out {args.out!r}: {error.strerror or error}") from None
        tally, seconds = _selfplay_loop(engine, rules, policies, seed, args, out)
    header = (f"burraco selfplay: {rules!r}, engine {args.engine}, seed {seed}, policies "
              + ", ".join(f"seat {seat} {name}" for seat, name in enumerate(policies)))
    print(header)
    print(render_summary(tally, rules, policies, seconds, args.matches, engine.END_REASONS))
    if args.out:
        print(f"wrote {tally.hands} records to {args.out}")
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
    tally = Tally(units_of(rules))
    progress = Progress(args.games, "matches" if args.matches else "hands", sys.stderr,
                        enabled=not args.quiet)
    started = time.perf_counter()
    seeds = seed_stream(seed)

    def finished(game: Any) -> None:
        tally.add_hand(game)
        if out is not None:
            write_records(out, [game.record()])

    for done in range(args.games):
        if args.matches:
            match = engine.Match(rules, seed=next(seeds))
            while not match.is_over() and match.hands_played < args.max_hands:
                game = match.new_game()
                play_out(game, policies, game.seed)
                match.record(game)
                finished(game)
            tally.add_game(list(match.scores), match.winner)
        else:
            hand_seed = next(seeds)
            game = engine.Game(rules, seed=hand_seed)
            play_out(game, policies, hand_seed)
            finished(game)
            scores = unit_scores(rules, game.result())
            tally.add_game(scores, hand_winner(scores))
        progress.update(done + 1)
    seconds = time.perf_counter() - started
    progress.close()
    return tally, seconds


# ---- replay --------------------------------------------------------------------------------------


def _load_records(path: str) -> list[dict[str, Any]]:
    """Every record of a records file; a missing or unreadable file is a :class:`CliError`."""
    if not Path(path).is_file():
        raise CliError(f"{path}: no such file")
    try:
        return list(read_records(path))
    except OSError as error:
        raise CliError(f"{path}: {error.strerror or error}") from None
    except (ValueError, KeyError, TypeError) as error:
        raise CliError(f"{path}: not a records file ({error})") from None


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


def cmd_replay(args: argparse.Namespace) -> int:
    """``burraco replay``: a recorded hand move by move, or the list of records."""
    engine = load_engine(args.engine)
    records = _load_records(args.file)
    if args.list:
        for index, record in enumerate(records):
            print(f"{index:>5}  {record_line(record)}")
        return 0
    if not 0 <= args.game < len(records):
        raise CliError(f"--game {args.game}: {args.file} holds {len(records)} records "
                       f"(0 to {len(records) - 1})" if records else f"{args.file} holds no records")
    where = f"{args.file}: record {args.game}"
    final = _game_from_record(engine, records[args.game], where)
    moves = list(final.moves)
    game = final.copy()
    while game.moves:
        game.pop()
    seating = Seating()
    print(render_board(game, seating, title=f"{where}: {game.rules!r}, seed {game.seed}, start"))
    for number, move in enumerate(moves, 1):
        seat = game.turn
        game.push(move)
        print()
        print(render_board(game, seating, title=f"move {number}: seat {seat} {move}"))
    print()
    if game.is_over():
        print(render_result(game, seating))
    else:
        print(f"The record ends after {len(moves)} moves; the hand is not over.")
    return 0


# ---- perft ---------------------------------------------------------------------------------------


def cmd_perft(args: argparse.Namespace) -> int:
    """``burraco perft``: move counts of a position (with a divide), or a check of perft files."""
    if args.files:
        missing = [name for name in args.files if not Path(name).is_file()]
        if missing:
            raise CliError(f"{missing[0]}: no such file")
        try:
            return _perft_tool.check_files(args.files, args.engine, ids=args.id,
                                           max_nodes=args.max_nodes, show_divide=args.divide,
                                           out=sys.stdout)
        except _perft_tool.PerftFileError as error:
            raise CliError(str(error)) from None
    engine = load_engine(args.engine)
    if args.depth < 0:
        raise CliError(f"--depth {args.depth}: expected 0 or more", 2)
    if args.state is not None:
        try:
            game = engine.Game.from_state_string(args.state)
        except BurracoError as error:
            raise CliError(f"--state: {error}", 2) from None
    else:
        rules = make_rules(engine, args.preset, args.players)
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
    parser = _OneLineParser(
        prog="burraco",
        description="Burraco / Buraco rules engine: play, self-play, replay, perft, benchmarks.",
        epilog="Every subcommand has --help. Presets: italian, italian-2p, italian-3p, "
        "online-2p, brazilian.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_OneLineParser)

    def engine_option(sub: argparse.ArgumentParser) -> None:
        sub.add_argument("--engine", choices=ENGINES, default="core",
                         help="core: the C++ engine (default); reference: the pure-Python one")

    def rules_options(sub: argparse.ArgumentParser, default: str | None = "italian") -> None:
        sub.add_argument("--preset", default=default, metavar="PRESET",
                         help="rules preset: italian (default), italian-2p, italian-3p, "
                         "online-2p, brazilian")
        sub.add_argument("--players", type=int, metavar="N",
                         help="override the preset's number of players (2, 3 or 4)")

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
    play.add_argument("--bots", choices=POLICIES, default="greedy",
                      help="the bots' policy (default greedy)")
    play.add_argument("--hands", type=int, metavar="N",
                      help="stop after N hands (default: play to the match target)")
    engine_option(play)
    play.set_defaults(run=cmd_play)

    selfplay = commands.add_parser(
        "selfplay", help="hands or matches between built-in policies, with a summary",
        description="Play N hands (or --matches: N matches) between built-in policies and print "
        "a summary: win rate and mean score per side (per seat with three players), draws, end "
        "reasons, mean moves per hand, hands per second. Hand i is dealt from the (i+1)-th "
        "SplitMix64 output of the seed, first player 0; with one policy for every seat it is hand "
        "i of burraco.playouts(rules, N, seed=S, policy=P).",
    )
    rules_options(selfplay)
    selfplay.add_argument("--games", type=int, default=100, metavar="N",
                          help="number of hands (matches with --matches; default 100)")
    selfplay.add_argument("--policy", choices=POLICIES, default="greedy",
                          help="policy of every seat (default greedy)")
    selfplay.add_argument("--policies", metavar="P0,P1,...",
                          help="one policy per seat, e.g. greedy,random (four players: one per "
                          "side is enough)")
    selfplay.add_argument("--seed", type=_nonnegative_seed,
                          help="seed of the run (default: random, printed)")
    selfplay.add_argument("--out", metavar="FILE",
                          help="write one record per hand to FILE (JSON Lines, burraco.read_records)")
    selfplay.add_argument("--matches", action="store_true",
                          help="play N whole matches instead of N hands")
    selfplay.add_argument("--max-hands", type=int, default=1000, metavar="N",
                          help="with --matches: stop a match after N hands as a draw (default 1000)")
    selfplay.add_argument("--quiet", action="store_true", help="no progress bar")
    engine_option(selfplay)
    selfplay.set_defaults(run=cmd_selfplay)

    replay = commands.add_parser(
        "replay", help="replay a recorded hand move by move",
        description="Replay record K of a records file (JSON Lines, as written by selfplay "
        "--out) move by move, printing each move and the table after it, then the result.",
    )
    replay.add_argument("file", help="the records file")
    replay.add_argument("--game", type=int, default=0, metavar="K",
                        help="the record to replay, from 0 (default 0)")
    replay.add_argument("--list", action="store_true",
                        help="list the records instead: index, rules, moves, result")
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
