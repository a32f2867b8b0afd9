"""The playout policies of :meth:`Game.playout <burraco.reference.Game.playout>` (docs/search.md,
"Playouts").

* ``'random'``: uniform over the legal moves, drawn with the deal contract's generator (the game
  draws it itself: it needs nothing but ``bounded``).
* ``'greedy'``: :func:`greedy_move`, a fixed rule of thumb that needs no generator: draw from the
  stock, put down the longest new meld, lay off natural cards, and discard the least useful card.

This module reads a game through its public API (``phase``, ``turn``, ``hand``, ``rules``,
``copy``, ``push``) and, to see a short brazilian opening, its opening requirements; it does not
import :mod:`.game`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from .cards import Card, Cards
from .moves import Move

if TYPE_CHECKING:
    from .game import Game

__all__ = ["POLICIES", "WILD_USEFULNESS", "candidates", "falls_short", "greedy_move", "usefulness"]

#: The policy names :meth:`Game.playout` and :func:`burraco.reference.playouts` accept.
POLICIES = ("random", "greedy")

#: The usefulness of a joker or a two: so high that a wild is discarded only from a hand of wilds.
WILD_USEFULNESS = 1000


def _rank_distance(first: Card, second: Card) -> int:
    """How far apart two natural ranks are, an ace being rank 1 or 14 (whichever is nearer)."""
    first_values = (1, 14) if first.is_ace else (first.rank_value,)
    second_values = (1, 14) if second.is_ace else (second.rank_value,)
    return min(abs(a - b) for a in first_values for b in second_values)


def usefulness(card: Card, hand: Cards) -> int:
    """How much ``card`` helps the rest of ``hand`` (which holds it), for the greedy discard.

    A joker or a two: :data:`WILD_USEFULNESS`. A natural card of rank r and suit s, counting the
    other cards of the hand (the hand less this one copy; wilds do not count): 10 for every other
    card of rank r, of any suit (a set in the making), plus 1 for every other card of suit s whose
    rank is 1 or 2 away from r (a run in the making), the ace being rank 1 and rank 14.
    """
    if card.is_wild:
        return WILD_USEFULNESS
    score = 0
    for other in hand.distinct():
        copies = hand.count(other) - (1 if other is card else 0)
        if other.is_wild or copies == 0:
            continue
        if other.rank == card.rank:
            score += 10 * copies
        elif other.suit == card.suit and _rank_distance(card, other) in (1, 2):
            score += copies
    return score


def falls_short(game: Game, move: Move, hand: Cards) -> bool:
    """Whether the meld or lay-off ``move`` would empty ``hand`` (the acting player's) while the
    side's brazilian opening falls short, so that the turn's cards only come back (RULES C.3). It
    is played on a copy: only a short opening raises the side's requirement (``need``)."""
    if game.rules.opening_minimum is None or len(move.cards) < len(hand):
        return False
    after = game.copy()
    after.push(move)
    return after._state.need != game._state.need


def candidates(game: Game, moves: Sequence[Move]) -> Sequence[Move]:
    """The moves a built-in policy chooses among (docs/search.md "Candidates"): ``moves``, the legal
    moves of ``game`` in canonical order, less every move after which the position (its state
    string) is one the game was in earlier in this turn, since its draw phase began (the current
    position included); all of ``moves`` if every one would repeat.

    Only a brazilian short opening, whose cards come back to the hand (RULES C.3), can bring a
    position back. Until one has happened in this turn, only the moves that can trigger it are
    tried: in the meld phase, a side not yet open under an opening minimum, a meld or lay-off of
    every card of the hand. Once the cards have come back, the hand and the table are as they were
    earlier in the turn, so any meld or lay-off may lead to a position the turn already had: then
    every meld and lay-off is tried. In every other case ``moves`` itself is returned, at no cost.
    """
    state = game._state
    if state.phase != "meld" or game.rules.opening_minimum is None:
        return moves
    side = game.side_of(state.turn)
    if state.opened[side]:
        return moves
    size = sum(state.hands[state.turn].values())
    turn = game._turn_states() if state.put_down else [state]
    # In a meld phase the hand only shrinks, unless cards came back (or a pozzetto was picked up
    # on the fly, which makes no repeat possible but costs nothing to try).
    sizes = [sum(s.hands[state.turn].values()) for s in turn if s.phase == "meld"]
    came_back = any(later > earlier for earlier, later in zip(sizes, sizes[1:]))
    risky = [move for move in moves if move.kind in ("meld", "add")
             and (came_back or len(move.cards) == size)]
    if not risky:
        return moves
    earlier: set[str] | None = None
    repeating = set()
    for move in risky:
        after = game.copy()
        after._push_checked(move)
        returned = after._state
        # A move that opens the side, ends the hand or raises the requirement (it only rises in a
        # turn) reaches a position this turn has not had; only the rest are compared.
        if returned.phase != "meld" or returned.opened[side] or returned.need != state.need:
            continue
        if earlier is None:
            earlier = {game._state_text(position) for position in game._turn_states()}
        if after.state_string() in earlier:
            repeating.add(move)
    if not repeating:
        return moves
    kept = [move for move in moves if move not in repeating]
    return kept or moves


def greedy_move(game: Game, moves: Sequence[Move]) -> Move:
    """The greedy policy's choice among ``moves``, the candidates (:func:`candidates`) of ``game``
    in canonical order.

    1. Draw phase: ``keep`` if legal, else ``draw`` if legal, else the first legal move.
    2. Meld phase, the first rule that applies, never choosing a meld or lay-off that would empty
       the hand of a side whose brazilian opening falls short (:func:`falls_short`: the turn's
       cards would only come back, and greedy would play them again forever):

       * the new meld with the most cards (of equal ones, the first in canonical order);
       * the first lay-off of a natural card (neither a joker nor a two);
       * when the hand holds at most two cards, the first lay-off of any card;
       * the discard of the card with the lowest :func:`usefulness`, of equal ones the card worth
         more points (``rules.card_points``), then the first in canonical order;
       * (never reached while C.7 holds: there is always a discard or a lay-off) the first move.
    """
    if game.phase == "draw":
        for wanted in ("keep", "draw"):
            for move in moves:
                if move.kind == wanted:
                    return move
        return moves[0]
    hand = game.hand(game.turn)
    table_moves = [move for move in moves
                   if move.kind in ("meld", "add") and not falls_short(game, move, hand)]
    longest: Move | None = None
    for move in table_moves:
        if move.kind == "meld" and (longest is None or len(move.cards) > len(longest.cards)):
            longest = move
    if longest is not None:
        return longest
    for move in table_moves:
        if move.kind == "add" and not cast(Card, move.card).is_wild:  # an add has a card
            return move
    if len(hand) <= 2:
        for move in table_moves:
            if move.kind == "add":
                return move
    best: Move | None = None
    best_key: tuple[int, int] | None = None
    for move in moves:  # canonical order: the first of equal keys stays
        if move.kind != "discard":
            continue
        card = cast(Card, move.card)  # a discard has a card
        key = (usefulness(card, hand), -game.rules.card_points(card))
        if best_key is None or key < best_key:
            best, best_key = move, key
    if best is not None:
        return best
    return moves[0]
