"""The screen of the commands: a ``rich`` console, tables, the board with the match scores, a
hand's result, and the line editing of the prompts."""

from __future__ import annotations

import io
import math
import os
import sys
import textwrap
from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from .._board import WIDTH, Seating, draw, side_label
from .._tally import unit_of_seat, unit_scale, units_of


def format_points(half_points: int) -> str:
    """Half points (three players, RULES E.6) as points: ``-3`` -> ``'-1.5'``."""
    text = f"{half_points / 2:.1f}"
    return text.removesuffix(".0")


def show_units(rules: Any, scores: Sequence[int]) -> list[str]:
    """Scores per unit as printed (points; with three players converted from half points)."""
    if unit_scale(rules) == 2:
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
        for index, (unit, score) in enumerate(zip(units_of(rules),
                                                  show_units(rules, match_scores))):
            if seating.human is not None and index == unit_of_seat(rules, seating.human):
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


def line_editing(candidates: Callable[[], Sequence[str]] | None = None) -> bool:
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


def read_line(prompt: str) -> str:
    """One line from the person; end of input raises :class:`Quit`."""
    try:
        line = input(prompt)
    except EOFError:
        print()
        raise Quit("end of input") from None
    if not sys.stdin.isatty():
        print(line)  # a piped session reads like a typed one
    return line.strip()


class Quit(Exception):
    """The person left (quit, or end of input)."""
