"""The table of a hand drawn as plain text, for ``str(game)`` and the ``burraco`` command.

``draw(game)`` is what ``str(game)`` returns for both engines' ``Game`` (multi-line text, no
colour, like ``str(chess.Board())``): the stock, the discard pile in pile order, the pozzetti,
every side's melds with the indices ``add <index> <card>`` takes, every hand, and whose turn it
is. The command draws the same text from a seat's point of view (``Seating``: only that seat's
cards) and colours it (``burraco.cli``); nothing here prints or colours anything.

Only the public API common to ``burraco.Game`` and ``burraco.reference.Game`` is read, so the
drawing is the same on both engines.
"""

from __future__ import annotations

import textwrap
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

WIDTH = 80  # every line of the drawing fits in this many columns (long card lists wrap)
INDENT = "    "  # the continuation of a wrapped line


@dataclass
class Seating:
    """Who sits where: the seat whose cards are shown (None: nobody, the full view of every hand
    and packet) and a name per seat."""

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


def state_fields(game: Any) -> dict[str, str]:
    """The fields of ``game.state_string()`` by name (docs/game.md, version 1)."""
    fields: dict[str, str] = {}
    for part in game.state_string().split(";"):
        name, _, value = part.partition("=")
        fields[name] = value
    return fields


def pile_order(game: Any) -> tuple[list[Any], bool]:
    """The discard pile from bottom to top (the top card last), and whether that order is known.

    A game's state holds the pile as a multiset and its top card; the order is rebuilt from the
    history: from the position the moves start at, a discard puts its card on top, ``pile``
    empties the pile, a brazilian ``reject`` puts the stock card at the bottom. A position with no
    history whose pile holds more than one card has no known order: the cards under the top are
    then given in card order (False is returned)."""
    start = game.copy()
    moves = list(start.moves)
    while start.moves:
        start.pop()
    order, known = _unordered(start)
    for move in moves:
        before = Counter(str(card) for card in start.discard_pile)
        start.push(move)
        pile = list(start.discard_pile)
        after = Counter(str(card) for card in pile)
        if after == before:
            continue
        if not pile:
            order, known = [], True
            continue
        added = after - before
        if sum(added.values()) == 1 and sum(after.values()) == sum(before.values()) + 1:
            (name,) = added
            card = next(card for card in pile if str(card) == name)
            top = start.top_discard
            if top is not None and str(top) == name:
                order.append(card)
            else:
                order.insert(0, card)
            continue
        order, known = _unordered(start)
    return order, known


def _unordered(game: Any) -> tuple[list[Any], bool]:
    """The pile of a position without its history: the top last, the rest in card order."""
    cards = list(game.discard_pile)
    top = game.top_discard
    if len(cards) <= 1 or top is None:
        return cards, len(cards) <= 1
    index = next(i for i, card in enumerate(cards) if str(card) == str(top))
    return cards[:index] + cards[index + 1:] + [cards[index]], False


def _wrap(text: str, width: int) -> list[str]:
    """One logical line as lines of at most ``width`` columns (continuations indented)."""
    if len(text) <= width:
        return [text]
    lead = text[: len(text) - len(text.lstrip())]
    return textwrap.wrap(text, width, initial_indent="", subsequent_indent=lead + INDENT,
                         break_long_words=False, break_on_hyphens=False) or [text]


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


def pile_line(game: Any) -> str:
    """``'Discard pile (3, bottom to top): 4c 9h Qs (top)'``, or ``'Discard pile: empty'``."""
    order, known = pile_order(game)
    if not order:
        return "Discard pile: empty"
    how = "bottom to top" if known else "order unknown below the top"
    return f"Discard pile ({len(order)}, {how}): {' '.join(map(str, order))} (top)"


def status_line(game: Any, seating: Seating) -> str:
    """Whose turn and phase it is, or how the hand ended (one line)."""
    if not game.is_over():
        return f"Turn: {seating.seat(game.turn)}, {game.phase} phase"
    result = game.result()
    reason = str(result.end_reason).replace("_", " ")
    if result.closing_side is not None:
        reason += f" by {side_label(game, result.closing_side, seating)}"
    return f"Hand over: {reason}"


def board_lines(
    game: Any,
    seating: Seating | None = None,
    *,
    title: str = "",
    match_scores: Sequence[str] | None = None,
    new_cards: Any = None,
    width: int = WIDTH,
) -> list[str]:
    """The lines of :func:`draw` (see there)."""
    seating = seating if seating is not None else Seating()
    rules = game.rules
    lines: list[str] = []
    if title:
        lines.append(f"== {title} " + "=" * max(2, width - len(title) - 4))
    if match_scores is not None:
        lines.append(f"Match scores (target {rules.match_target}): " + ", ".join(match_scores))
    lines.append(f"Stock: {game.stock_size} cards   " + pile_line(game))
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
            if seat == seating.human and new_cards is not None and len(new_cards):
                lines.append(f"  new in your hand: {new_cards}")
        else:
            known = game.known(seat)
            extra = f", known: {known}" if len(known) else ""
            plural = "" if len(hand) == 1 else "s"
            lines.append(f"Hand of {seating.seat(seat)}: {len(hand)} card{plural}{extra}")
    lines.append(status_line(game, seating))
    return [part for line in lines for part in _wrap(line, width)]


def draw(
    game: Any,
    seating: Seating | None = None,
    *,
    title: str = "",
    match_scores: Sequence[str] | None = None,
    new_cards: Any = None,
    width: int = WIDTH,
) -> str:
    """The table of ``game`` as plain text, lines of at most ``width`` columns.

    Without ``seating`` it is the full view (every hand and the untaken pozzetti's cards): what
    ``str(game)`` returns. With ``Seating(names, human)`` only the human's hand is shown, the
    others' sizes and known cards (the ones taken with the pile). ``title`` heads the drawing,
    ``match_scores`` (already formatted, one per side or seat) adds the match line, and
    ``new_cards`` (``Cards``) lists under the human's hand the cards that just arrived in it.

    >>> import burraco
    >>> print(draw(burraco.Game(burraco.Rules('italian-2p'), seed=7)))  # doctest: +ELLIPSIS
    Stock: 63 cards   Discard pile (1, bottom to top): Th (top)
    Pozzetto 0: untaken, 11 cards: ...
    ...
    Turn: seat 0, draw phase
    """
    return "\n".join(board_lines(game, seating, title=title, match_scores=match_scores,
                                 new_cards=new_cards, width=width))


def game_str(game: Any) -> str:
    """``str(game)`` of both engines' ``Game`` (the reference's ``__str__`` and the core's, in
    cpp/bindings/game.cpp, call it): :func:`draw`, the full view, no title."""
    return draw(game)
