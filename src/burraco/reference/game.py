"""One hand of Burraco / Buraco: deal, turns, moves, legality, scoring (RULES C, D, E, F).

:class:`Game` follows docs/game.md. Its state is a plain :class:`_State` value (Counters and lists);
every move is applied to a fresh copy of the current state, so an illegal move changes nothing, and
:meth:`Game.pop` simply restores the previous state. The legal-move generator lists candidates
(sets by rank, runs by suit and slot window) and keeps exactly those :meth:`Game.push` accepts.

Terms: a *seat* is a player 0..N-1; a *side slot* indexes melds, opening state and results: with 2
or 4 players the two sides (seat, or seat mod 2); with 6 players the ``rules.sides`` sides, seat mod
3 (three sides of two) or seat mod 2 (two sides of three, RULES F.7); with 3 players four slots,
seats 0, 1, 2 and the pair 3 that the two non-soloists form when the first pozzetto is taken (RULES
F.6). A *packet* is a pozzetto (docs/game.md "Seats, sides, packets"); packet n may be a side's
pozzetto only while n < the number of sides, so with two sides of three the third packet is only
a stock reserve (RULES F.7, D.3).
"""

from __future__ import annotations

import functools
import itertools
import operator
import os
import re
import threading
from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING, Optional, TypeVar, Union, cast

from .. import _board, _records
from .._errors import (
    BurracoError,
    IllegalMoveError,
    InvalidMeldError,
    InvalidNotationError,
    InvalidStateError,
    PolicyError,
)
from . import actions
from ._blank import Initialized
from .cards import BLANKS, JOKER_INDEX, SUITS, Card, Cards
from .melds import Meld, Melds
from .moves import Move, MoveList
from .observation import Observation, determinized_state_string, observe
from .policies import Policy, PolicyLike, candidates, greedy_move, policy_arg, python_choice
from .rng import Xoshiro256StarStar, check_seed, shuffle
from .rules import Rules
from .runs import slot_card
from .scoring import Result, SideResult
from .state import (
    _LETTER_STATUS,
    _STATUS_LETTER,
    _TAKEN,
    DRAW,
    FACE_DOWN,
    IN_HAND,
    MAX_OPENING_NEED,
    MAX_SCORE,
    MELD,
    OVER,
    SEEN,
    STOCK,
    UNTAKEN,
    WILD_KINDS,
    _opening_requirement,
    _State,
    side_slots,
    _unshuffled_deck,
)
from .validate import validate_state

if TYPE_CHECKING:
    import numpy

__all__ = ["MAX_HAND_MOVES", "Game", "determinize"]

#: The most moves a policy-driven loop (``playout``, ``playouts``) plays in one hand before it
#: stops with InvalidStateError (docs/search.md "Move cap"; real hands take under 1,000).
MAX_HAND_MOVES = 100_000

_FIELDS = ("v", "rules", "seed", "first", "scores", "turn", "phase", "hands", "known", "stock",
           "pile", "top", "melds", "pozzetti", "hold", "opened", "need", "deadlock", "turnflags",
           "split", "end", "cut")
_FLAG_LETTERS = "pdlfb"
_BARE_MOVES = {text: Move(text) for text in ("draw", "pile", "keep", "reject")}


def _points(rules: Rules, cards: Iterable[Card]) -> int:
    return sum(rules.card_points(card) for card in cards)


def _count(counter: Counter[Card]) -> int:
    return sum(counter.values())


def _take(counter: Counter[Card], card: Card, copies: int = 1) -> None:
    """Remove ``copies`` of ``card`` from ``counter`` (they must be there)."""
    left = counter[card] - copies
    if left < 0:
        raise AssertionError(f"{card} is not there")
    if left:
        counter[card] = left
    else:
        del counter[card]


def _forget(known: Counter[Card], card: Card) -> None:
    """A copy of ``card`` left the hand: one fewer copy is known to be in it (RULES C.9)."""
    if known[card]:
        _take(known, card)


_LoopError = TypeVar("_LoopError", bound=BurracoError)


def _prefixed(error: _LoopError, prefix: str, suffix: str = "") -> _LoopError:
    """``error`` again, its message between ``prefix`` (the loop that stopped) and ``suffix``."""
    return type(error)(f"{prefix}{error}{suffix}")


def _canonical(counter: Counter[Card]) -> list[Card]:
    return sorted(counter.elements(), key=lambda card: card.index)


# Per-rules memo of meld validations and lay-offs (pure functions of their arguments), shared by
# every game under those rules; cleared when it grows large.
# The group key: ('set', the rank's four naturals, counts, wild counts) or ('run', suit, ...).
_GroupKey = tuple[str, Union[tuple[Card, ...], str], tuple[int, ...], tuple[int, ...]]
_Memo = tuple[
    dict[tuple[int, ...], Optional[Meld]],
    dict[tuple[str, int], Optional[Meld]],
    dict[_GroupKey, list[tuple[tuple[int, ...], Meld]]],
]
_MEMO: dict[Rules, _Memo] = {}
_MEMO_LIMIT = 400_000


def _memo(rules: Rules) -> _Memo:
    """(new melds by card-index key, lay-offs by (layout, card index), new melds by rank or suit
    group; see :func:`_valid_new_melds`) for ``rules``."""
    memo = _MEMO.get(rules)
    if memo is None or sum(len(table) for table in memo) > _MEMO_LIMIT:
        memo = _MEMO[rules] = ({}, {}, {})
    return memo


def _new_meld(key: tuple[int, ...], rules: Rules,
              memo: dict[tuple[int, ...], Meld | None] | None = None) -> Meld | None:
    """The new meld of the cards with these indices (RULES B.2-B.4), or None if they are not one."""
    if memo is None:
        memo = _memo(rules)[0]
    if key in memo:
        return memo[key]
    try:
        meld: Meld | None = Meld(Cards._from_cards((_CARDS[index] for index in key), rules.decks),
                                 rules)
    except InvalidMeldError:
        meld = None
    memo[key] = meld
    return meld


def _lay_off(meld: Meld, card: Card,
             memo: dict[tuple[str, int], Meld | None] | None = None) -> Meld | None:
    """``meld`` after laying ``card`` off onto it (RULES B.2, B.6), or None if that is refused."""
    if memo is None:
        memo = _memo(meld.rules)[1]
    key = (meld.layout, card.index)
    if key in memo:
        return memo[key]
    try:
        result: Meld | None = meld.add(card)
    except IllegalMoveError:
        result = None
    memo[key] = result
    return result


def _meld_problem(key: tuple[int, ...], rules: Rules) -> str:
    try:
        Meld(Cards._from_cards((Card.from_index(index) for index in key), rules.decks), rules)
    except InvalidMeldError as error:
        return str(error)
    return "not a meld"


# --- the game -------------------------------------------------------------------------------


class Game(Initialized, fields=("_cut", "_first", "_history", "_lock", "_players", "_rules",
                                  "_scores", "_seed", "_slots", "_state")):
    """One hand of Burraco / Buraco (docs/game.md).

    ``Game(rules, seed=s)`` deals from a seed (docs/game.md "Deal"); ``Game(rules, deck=[...])``
    from an explicit deck order; with neither, a seed is drawn from the operating system.
    ``first_player`` (default 0) plays first; ``scores`` are the cumulative match scores per side
    at the start of the hand (3 players: per seat, in half points), read only by the brazilian
    opening minimum.
    """

    def __init__(self, rules: Rules | str | None = None, seed: int | None = None,
                 deck: object = None, first_player: int = 0,
                 scores: Iterable[int] | None = None) -> None:
        """Deal a hand under ``rules`` (default ``Rules()``; a preset's name is ``Rules(name)``)
        from ``seed`` or ``deck`` (see the class); bad arguments raise InvalidNotationError
        quoting them."""
        if rules is None:
            rules = Rules()
        elif isinstance(rules, str):
            rules = Rules(rules)
        if not isinstance(rules, Rules):
            raise InvalidNotationError(f"{rules!r} is not a Rules or a preset's name")
        _check_supported(rules)
        players = rules.players
        if isinstance(first_player, bool) or not isinstance(first_player, int) \
                or not 0 <= first_player < players:
            raise InvalidNotationError(
                f"{first_player!r} is not a seat: expected an int from 0 to {players - 1}"
            )
        self._setup(rules, first_player, _check_scores(rules, scores))
        generator = None
        if deck is not None:
            if seed is not None:
                raise InvalidNotationError("give a seed or a deck, not both")
            order = _check_deck(rules, deck)
            self._seed: int | None = None
        else:
            if seed is None:
                seed = int.from_bytes(os.urandom(8), "little")
            self._seed = check_seed(seed)
            order = _unshuffled_deck(rules)
            generator = Xoshiro256StarStar(self._seed)
            shuffle(order, generator)
        # RULES F.5 / docs/game.md: the brazilian cut, one more output of the same generator.
        self._cut: int | None = None
        if (generator is not None and rules.cut_exact_probability > 0
                and generator.unit_float() < rules.cut_exact_probability):
            self._cut = self._side_of_seat((first_player - 2) % players, None)
        self._state = self._deal(order)
        self._history: list[tuple[Move, _State]] = []
        # Every public call is atomic (docs/game.md "Threads"): the moves that change the
        # position hold this lock; readers take one immutable state (self._state) at a time.
        self._lock = threading.RLock()

    def _setup(self, rules: Rules, first_player: int, scores: tuple[int, ...]) -> None:
        self._rules = rules
        self._players = rules.players
        self._first = first_player
        self._scores = scores
        self._slots = side_slots(rules)

    # --- the deal (docs/game.md "Deal") ----------------------------------------------------------

    def _deal(self, order: list[Card]) -> _State:
        rules, players = self._rules, self._players
        s = object.__new__(_State)
        s.hands = [Counter() for _ in range(players)]
        dealt = rules.hand_size * players
        for position in range(dealt):
            s.hands[(self._first + position) % players][order[position]] += 1
        position = dealt
        sizes = rules.pozzetto_sizes
        packets: list[list[Card]] = [[] for _ in sizes]
        while any(len(packet) < size for packet, size in zip(packets, sizes)):
            for packet, size in zip(packets, sizes):
                if len(packet) < size:
                    packet.append(order[position])
                    position += 1
        s.pozzetti = [[UNTAKEN, None, packet] for packet in packets]
        s.pile, s.top = Counter(), None
        if rules.initial_upcard:
            s.top = order[position]
            s.pile[s.top] += 1
            position += 1
        s.stock = order[position:]
        s.known = [Counter() for _ in range(players)]
        s.turn, s.phase = self._first, DRAW
        s.melds = [[] for _ in range(self._slots)]
        s.hold = None
        minimum = rules.opening_minimum
        s.opened = [False] * self._slots
        s.need = [0] * self._slots
        if minimum is not None:
            for side in range(self._slots):
                score = self._scores[side] + (rules.cut_bonus if self._cut == side else 0)
                s.need[side] = _opening_requirement(minimum, score)
        s.deadlock = 0
        s.took_single = s.put_down = s.last_turn = s.force_draw = False
        s.first_draw = rules.first_draw_rule == "may_reject_first_card"
        s.split, s.end = None, None
        if not self._draw_phase_moves(s):
            self._end(s, "stock_exhausted")
        return s

    # --- sides ---------------------------------------------------------------------------------

    def _side_of_seat(self, seat: int, split: int | None) -> int:
        if self._players in (4, 6):
            return seat % self._rules.sides  # partners sit every `sides` seats (RULES F.1, F.7)
        if self._players == 2 or split is None or seat == split:
            return seat
        return 3

    def _seats_of(self, side: int, s: _State) -> list[int]:
        return [seat for seat in range(self._players) if self._side_of_seat(seat, s.split) == side]

    def _sides(self, s: _State) -> tuple[int, ...]:
        if self._players != 3:
            return tuple(range(self._slots))
        if s.split is None:
            return (0, 1, 2)
        return tuple(sorted((s.split, 3)))

    def _provisional(self, s: _State, side: int) -> bool:
        """A side not yet open under a brazilian opening minimum: its table cards are this turn's."""
        return self._rules.opening_minimum is not None and not s.opened[side]

    def _has_packet(self, s: _State, side: int) -> bool:
        return any(status in _TAKEN and self._side_of_seat(owner, s.split) == side
                   for status, owner, _cards in s.pozzetti)

    def _untaken(self, s: _State) -> int | None:
        """The index of the top untaken packet, or None: the next pozzetto, or the next stock
        (RULES D.3)."""
        for number, (status, _owner, _cards) in enumerate(s.pozzetti):
            if status == UNTAKEN:
                return number
        return None

    def _pot(self, s: _State) -> int | None:
        """The packet a side that runs out of cards would take (RULES C.4, F.7): the top untaken
        packet, if it may be a side's pozzetto (its index below the number of sides: with two
        sides of three the third packet is only a stock reserve), else None."""
        number = self._untaken(s)
        if number is None or number >= self._rules.sides:
            return None
        return number

    def _may_take_packet(self, s: _State, side: int) -> bool:
        return not self._has_packet(s, side) and self._pot(s) is not None

    def _may_close(self, s: _State, side: int) -> bool:
        """RULES C.6: the side has its pozzetto and a burraco (clean where required)."""
        if not self._has_packet(s, side):
            return False
        clean = self._rules.closing_requires_burraco == "clean"
        return any(meld.burraco is not None and (not clean or meld.burraco == "clean")
                   for _number, meld in s.melds[side])

    # --- applying moves -------------------------------------------------------------------------

    def _apply(self, s: _State, move: Move) -> None:
        """Play ``move`` on ``s`` (a fresh copy), or raise IllegalMoveError (then ``s`` is dropped)."""
        if s.phase == OVER:
            raise IllegalMoveError(f"{str(move)!r}: the hand is over")
        kind = move.kind
        if kind in ("draw", "pile", "keep", "reject"):
            if s.phase != DRAW:
                raise IllegalMoveError(f"{str(move)!r}: the turn's draw has been made (RULES C.1)")
            getattr(self, f"_apply_{kind}")(s, move)
            return
        if s.phase != MELD:
            raise IllegalMoveError(f"{str(move)!r}: draw first (RULES C.1)")
        if kind == "discard":
            self._apply_discard(s, move)
            return
        if self._opening_returned(s, self._side_of_seat(s.turn, s.split)):
            raise IllegalMoveError(
                f"{str(move)!r}: a short opening returned its cards this turn; only a discard "
                f"may follow (RULES C.3, H-38)"
            )
        if kind == "meld":
            self._apply_meld(s, move)
        else:
            self._apply_add(s, move)
        if s.phase == MELD and not self._completable(s):
            raise IllegalMoveError(
                f"{str(move)!r}: the turn could not be finished after it (RULES C.7)"
            )

    def _can_draw_stock(self, s: _State) -> bool:
        rules = self._rules
        if len(s.stock) > rules.stock_end_threshold:
            return True
        return (not s.stock and rules.pozzetto_becomes_stock and self._untaken(s) is not None)

    def _draw_phase_moves(self, s: _State) -> list[Move]:
        moves = []
        if s.first_draw:
            if len(s.stock) >= 1:
                moves.append("keep")
            if len(s.stock) >= 2:
                moves.append("reject")
        elif self._can_draw_stock(s):
            moves.append("draw")
        if s.pile and not s.force_draw:
            moves.append("pile")
        return [_BARE_MOVES[text] for text in sorted(moves, key=("draw", "pile", "keep", "reject").index)]

    def _after_stock_draw(self, s: _State) -> None:
        threshold = self._rules.stock_end_threshold
        if threshold > 0 and len(s.stock) <= threshold:
            s.last_turn = True  # RULES D.2: the last turn of the hand
        s.phase = MELD

    def _apply_draw(self, s: _State, move: Move) -> None:
        if s.first_draw:
            raise IllegalMoveError("'draw': the first draw of this brazilian hand is keep or reject "
                                   "(RULES C.2)")
        if not self._can_draw_stock(s):
            raise IllegalMoveError(f"'draw': the stock cannot be drawn from ({len(s.stock)} cards, "
                                   f"stock_end_threshold={self._rules.stock_end_threshold})")
        if not s.stock:
            # RULES D.3: the top untaken packet becomes the stock, its order kept.
            packet = s.pozzetti[self._untaken(s)]  # type: ignore[index]
            s.stock = list(packet[2])
            packet[:] = [STOCK, None, []]
        s.hands[s.turn][s.stock.pop(0)] += 1
        self._after_stock_draw(s)

    def _apply_pile(self, s: _State, move: Move) -> None:
        if not s.pile:
            raise IllegalMoveError("'pile': the discard pile is empty")
        if s.force_draw:
            raise IllegalMoveError("'pile': after a deadlock this player must draw from the stock "
                                   "(RULES D.4 force_draw)")
        if _count(s.pile) == 1:
            s.took_single = True
            if self._rules.forbid_discard_of_single_pile_card:
                s.hold = s.top  # RULES C.5: a hold on the kind taken
        s.hands[s.turn].update(s.pile)
        s.known[s.turn].update(s.pile)
        s.pile, s.top = Counter(), None
        s.first_draw = False  # a pile take is this turn's draw: keep/reject no longer apply
        s.phase = MELD

    def _apply_keep(self, s: _State, move: Move) -> None:
        if not s.first_draw or not s.stock:
            raise IllegalMoveError("'keep': only at the brazilian first draw (RULES C.2)")
        s.hands[s.turn][s.stock.pop(0)] += 1
        s.first_draw = False
        self._after_stock_draw(s)

    def _apply_reject(self, s: _State, move: Move) -> None:
        if not s.first_draw or len(s.stock) < 2:
            raise IllegalMoveError("'reject': only at the brazilian first draw (RULES C.2)")
        rejected = s.stock.pop(0)
        s.pile[rejected] += 1
        s.top = rejected
        s.hands[s.turn][s.stock.pop(0)] += 1
        s.first_draw = False
        self._after_stock_draw(s)

    def _put_down(self, s: _State, side: int, cards: Iterable[Card]) -> None:
        """Cards leave the acting player's hand for the side's table."""
        hand, known = s.hands[s.turn], s.known[s.turn]
        for card in cards:
            _take(hand, card)
            _forget(known, card)
            if card is s.hold and not self._provisional(s, side):
                s.hold = None  # RULES C.5: a card of the held kind went down
        s.put_down = True

    def _apply_meld(self, s: _State, move: Move) -> None:
        cards = move.cards
        hand = s.hands[s.turn]
        if not all(hand[card] >= count for card, count in Counter(cards).items()):
            raise IllegalMoveError(f"{str(move)!r}: the cards are not all in the hand")
        key = tuple(card.index for card in cards)
        meld = _new_meld(key, self._rules)
        if meld is None:
            raise IllegalMoveError(f"{str(move)!r}: {_meld_problem(key, self._rules)}")
        side = self._side_of_seat(s.turn, s.split)
        if meld.kind == "set":
            for index, (_number, existing) in enumerate(s.melds[side]):
                if existing.kind == "set" and existing.rank == meld.rank:
                    raise IllegalMoveError(
                        f"{str(move)!r}: the side already has a set of rank {meld.rank} "
                        f"({existing.layout!r}, index {index}); lay the cards off onto it (RULES B.2)"
                    )
        self._put_down(s, side, cards)
        s.melds[side].append((self._next_meld_number(s), meld))
        if not hand:
            self._hand_emptied(s, move)

    def _next_meld_number(self, s: _State) -> int:
        numbers = [number for slot in s.melds for number, _meld in slot]
        return max(numbers) + 1 if numbers else 0

    def _apply_add(self, s: _State, move: Move) -> None:
        card, index = move.card, move.index
        assert card is not None and index is not None
        if not s.hands[s.turn][card]:
            raise IllegalMoveError(f"{str(move)!r}: {card} is not in the hand")
        side = self._side_of_seat(s.turn, s.split)
        melds = s.melds[side]
        if index >= len(melds):
            raise IllegalMoveError(f"{str(move)!r}: the side has {len(melds)} meld(s)")
        number, meld = melds[index]
        try:
            changed = meld.add(card)
        except IllegalMoveError as error:
            raise IllegalMoveError(f"{str(move)!r}: {error}") from None
        self._put_down(s, side, (card,))
        melds[index] = (number, changed)
        if not s.hands[s.turn]:
            self._hand_emptied(s, move)

    def _hand_emptied(self, s: _State, move: Move) -> None:
        """A meld-phase action emptied the hand: RULES C.3 order (H-37)."""
        side = self._side_of_seat(s.turn, s.split)
        # (1) brazilian opening test.
        if self._provisional(s, side):
            if self._opening_short(s, side):
                self._return_cards(s, side)
                return
            self._open(s, side)
        # (2) pozzetto on the fly.
        if self._may_take_packet(s, side):
            number = self._pot(s)
            packet = s.pozzetti[number]  # type: ignore[index]
            s.hands[s.turn].update(packet[2])
            packet[:] = [IN_HAND, s.turn, []]
            self._packet_taken(s)
            return
        # (3) brazilian meld-out close.
        if self._rules.closing_discard == "optional" and self._may_close(s, side):
            self._end(s, ("closed", side))
            return
        # (4) otherwise illegal.
        if self._has_packet(s, side):
            why = ("the side has its pozzetto and cannot close this way (RULES C.6: closing needs a "
                   f"{'clean ' if self._rules.closing_requires_burraco == 'clean' else ''}burraco"
                   f"{'' if self._rules.closing_discard == 'optional' else ' and a final discard'})")
        else:
            why = "no pozzetto is left for the side, so it can never close (RULES C.4)"
        raise IllegalMoveError(f"{str(move)!r}: it would empty the hand, but {why}")

    def _opening_returned(self, s: _State, side: int) -> bool:
        """RULES C.3, H-38: a short opening returned the side's cards this turn, which ended the
        meld phase: only discards are left. Nothing else clears the table of a side not yet open
        in mid-turn, so this is what the position shows: the side is not open, a card went down
        this turn (``d``) and none lies on its table."""
        return self._provisional(s, side) and s.put_down and not s.melds[side]

    def _opening_short(self, s: _State, side: int) -> bool:
        total = sum(meld.points for _number, meld in s.melds[side])
        return total < s.need[side]

    def _return_cards(self, s: _State, side: int) -> None:
        """RULES C.3: a short opening; every card put down this turn goes back to the hand."""
        returned: Counter[Card] = Counter()
        for _number, meld in s.melds[side]:
            returned.update(meld.cards)
        s.melds[side] = []
        s.hands[s.turn].update(returned)
        s.known[s.turn].update(returned)  # they went back in front of everybody
        # docs/game.md: the requirement rises by the increment and stops at MAX_OPENING_NEED.
        s.need[side] = min(s.need[side] + self._rules.opening_fail_increment, MAX_OPENING_NEED)

    def _open(self, s: _State, side: int) -> None:
        s.opened[side] = True
        if s.hold is not None and any(s.hold in meld.cards for _number, meld in s.melds[side]):
            s.hold = None  # RULES C.5: the held kind went down this turn and stays down

    def _packet_taken(self, s: _State) -> None:
        """RULES F.6: in 3p the first packet taken makes its taker the soloist and forms the pair."""
        if self._players == 3 and s.split is None:
            s.split = s.turn
            pair: list[tuple[int, Meld]] = []
            for seat in range(3):
                if seat != s.turn:
                    pair.extend(s.melds[seat])
                    s.melds[seat] = []
            s.melds[3] = sorted(pair, key=lambda entry: entry[0])

    def _hold_blocks(self, s: _State, card: Card) -> bool:
        """RULES C.5: discarding ``card`` is the held card itself."""
        if s.hold is not card or s.hands[s.turn][card] != 1:
            return False
        side = self._side_of_seat(s.turn, s.split)
        if self._provisional(s, side):
            # The held kind is released while a card of it lies on the (this turn's) table.
            return not any(card in meld.cards for _number, meld in s.melds[side])
        return True

    def _discard_problem(self, s: _State, card: Card) -> str | None:
        """Why ``discard card`` is illegal now, or None (RULES C.5, C.6, C.3)."""
        hand = s.hands[s.turn]
        if not hand[card]:
            return f"{card} is not in the hand"
        if self._hold_blocks(s, card):
            return (f"{card} is the card just taken from a one-card pile; only another copy "
                    f"could be discarded (RULES C.5)")
        if _count(hand) > 1:
            return None
        side = self._side_of_seat(s.turn, s.split)
        if self._provisional(s, side) and s.melds[side] and self._opening_short(s, side):
            return None  # the cards come back first: the hand does not become empty (RULES C.3)
        if self._may_take_packet(s, side):
            return None
        if self._may_close(s, side):
            if card.is_wild and not self._rules.closing_discard_wild_allowed:
                return f"{card} is a wild: the closing discard may not be a wild (RULES C.6)"
            return None
        if self._has_packet(s, side):
            return ("it would empty the hand, but the side cannot close: it needs a "
                    f"{'clean ' if self._rules.closing_requires_burraco == 'clean' else ''}"
                    f"burraco (RULES C.6)")
        return "it would empty the hand, but no pozzetto is left for the side (RULES C.4)"

    def _apply_discard(self, s: _State, move: Move) -> None:
        card = move.card
        assert card is not None
        problem = self._discard_problem(s, card)
        if problem is not None:
            raise IllegalMoveError(f"{str(move)!r}: {problem}")
        rules = self._rules
        side = self._side_of_seat(s.turn, s.split)
        short = False
        if self._provisional(s, side) and s.melds[side]:
            # RULES C.3: the opening test when the meld phase ends.
            short = self._opening_short(s, side)
            if not short:
                self._open(s, side)
        hand = s.hands[s.turn]
        _take(hand, card)
        _forget(s.known[s.turn], card)
        s.pile[card] += 1
        s.top = card
        if short:
            # The discard came from the hand as it was; now the short opening's cards come back.
            self._return_cards(s, side)
            self._end_of_turn(s)
            return
        if not hand:
            if self._may_take_packet(s, side):
                # RULES C.4: the packet is taken face down; it joins the hand next turn (H-36).
                number = self._pot(s)
                packet = s.pozzetti[number]  # type: ignore[index]
                status = SEEN if rules.pozzetto_reveal == "immediately" else FACE_DOWN
                packet[0], packet[1] = status, s.turn
                self._packet_taken(s)
            else:
                self._end(s, ("closed", side))
                return
        self._end_of_turn(s)

    def _end_of_turn(self, s: _State) -> None:
        """After a discard that did not close: stock end, deadlock, or the next player's turn."""
        rules = self._rules
        if s.last_turn:
            self._end(s, "stock_exhausted")  # RULES D.2
            return
        if rules.stock_end_threshold == 0 and not s.stock and (
                not rules.pozzetto_becomes_stock or self._untaken(s) is None):
            self._end(s, "stock_exhausted")  # RULES D.3
            return
        force_next = False
        if s.took_single and not s.put_down:
            s.deadlock += 1  # RULES D.4: an exchange turn
            if s.deadlock >= self._players:
                if rules.deadlock_rule == "end_hand":
                    self._end(s, "deadlock")
                    return
                s.deadlock = 0
                force_next = True
        else:
            s.deadlock = 0
        self._pass_turn(s, force_next)

    def _pass_turn(self, s: _State, force_next: bool) -> None:
        finished = s.turn
        if self._rules.pozzetto_reveal == "after_partner_turn":
            for packet in s.pozzetti:
                owner = packet[1]
                if (packet[0] == FACE_DOWN and owner != finished
                        and self._side_of_seat(owner, s.split)
                        == self._side_of_seat(finished, s.split)):
                    packet[0] = SEEN  # the owner looks at it after the partner's turn (RULES C.4)
        s.turn = (finished + 1) % self._players
        s.phase = DRAW
        s.hold = None
        s.took_single = s.put_down = s.last_turn = s.first_draw = False
        s.force_draw = force_next
        for packet in s.pozzetti:
            if packet[0] in (FACE_DOWN, SEEN) and packet[1] == s.turn:
                s.hands[s.turn].update(packet[2])  # RULES H-36: it joins the hand before the draw
                packet[:] = [IN_HAND, s.turn, []]
        if not self._draw_phase_moves(s):
            self._end(s, "stock_exhausted")

    def _end(self, s: _State, end: str | tuple[str, int]) -> None:
        s.phase = OVER
        s.end = end
        s.hold = None
        s.took_single = s.put_down = s.last_turn = s.force_draw = s.first_draw = False

    # --- RULES C.7 ------------------------------------------------------------------------------

    def _completable(self, s: _State) -> bool:
        """Whether the turn can still be finished legally (RULES C.7)."""
        if s.phase != MELD:
            return True
        hand = s.hands[s.turn]
        size = _count(hand)
        if size >= 2:
            return True  # a card that is not held can be discarded, and one card stays
        if size == 0:
            return False
        (card,) = hand.elements()
        if self._discard_problem(s, card) is None:
            return True
        side = self._side_of_seat(s.turn, s.split)
        for index in range(len(s.melds[side])):
            try:
                self._apply(s.copy(), _add_move(index, card))
            except IllegalMoveError:
                continue
            return True
        return False

    # --- legal moves ----------------------------------------------------------------------------

    def legal_moves(self) -> MoveList:
        """Exactly the moves :meth:`push` accepts, each once, in the canonical order (docs/game.md),
        as a :class:`.moves.MoveList` (a list with ``strings()``)."""
        return MoveList(self._legal_moves())

    def _legal_moves(self) -> list[Move]:
        s = self._state
        if s.phase == OVER:
            return []
        if s.phase == DRAW:
            return self._draw_phase_moves(s)
        rules = self._rules
        hand = s.hands[s.turn]
        size = _count(hand)
        side = self._side_of_seat(s.turn, s.split)
        melds = s.melds[side]
        set_ranks = {meld.rank for _number, meld in melds if meld.kind == "set"}
        lay_offs = _memo(rules)[1]
        moves: list[Move] = []
        if self._opening_returned(s, side):
            # RULES C.3, H-38: the meld phase is over (no melds are left to lay off on either).
            return [_discard_move(card) for card in sorted(hand, key=lambda card: card.index)
                    if self._discard_problem(s, card) is None]
        for key, meld in _valid_new_melds(hand, rules):
            if meld.kind == "set" and meld.rank in set_ranks:
                continue
            move = _meld_move(key, rules.decks)
            if size - len(key) >= 2 or self._accepts(s, move):
                moves.append(move)
        distinct = sorted(hand, key=lambda card: card.index)
        for index, (_number, meld) in enumerate(melds):
            suit, rank = meld.suit, meld.rank
            for card in distinct:
                if not card.is_wild and card.suit != suit and card.rank != rank:
                    continue  # neither a wild nor of the run's suit or the set's rank
                if _lay_off(meld, card, lay_offs) is None:
                    continue
                move = _add_move(index, card)
                if size >= 3 or self._accepts(s, move):
                    moves.append(move)
        for card in distinct:
            if self._discard_problem(s, card) is None:
                moves.append(_discard_move(card))
        return moves

    def _accepts(self, s: _State, move: Move) -> bool:
        try:
            self._apply(s.copy(), move)
        except IllegalMoveError:
            return False
        return True

    # --- push / pop -----------------------------------------------------------------------------

    def push(self, move: Move | str) -> None:
        """Play a legal move (a Move or its notation); IllegalMoveError / InvalidNotationError
        otherwise, and then nothing changes. ``'add 2 8h 9h'`` lays off several cards, in the first
        legal order (canonical card order first)."""
        lock = self._lock  # self first: TypeError if this Game was never initialized
        if isinstance(move, str):
            words = [word for word in re.split(r"[ \t\n\r\x0b\x0c,]+", move.strip(BLANKS)) if word]
            if len(words) > 3 and words[0].lower() == "add":
                self._push_several(move, words)
                return
        move = Move._parse(move, self._rules.decks)
        with lock:
            self._push_checked(move)

    def _push_checked(self, move: Move) -> None:
        """Play ``move`` (a Move) if it is legal, else IllegalMoveError and nothing changes. The
        caller holds the lock."""
        new = self._state.copy()
        self._apply(new, move)
        self._history.append((move, self._state))
        self._state = new

    def push_index(self, index: int) -> None:
        """Play ``legal_moves()[index]``; IllegalMoveError quoting ``index`` if it is not an int
        from 0 to ``len(legal_moves()) - 1`` (and then nothing changes)."""
        number = actions.as_index(index)  # converted before the position is read
        with self._lock:
            moves = self._legal_moves()
            if number is None or not 0 <= number < len(moves):
                raise IllegalMoveError(
                    f"{index!r} is not the index of a legal move: expected an int from 0 to "
                    f"{len(moves) - 1} ({len(moves)} legal moves)"
                )
            self._push_checked(moves[number])

    def _push_several(self, text: str, words: list[str]) -> None:
        moves: list[Move] = []
        for word in words[2:]:
            moves.append(Move._parse(f"add {words[1]} {word}", self._rules.decks))
        # Every one is an add: it has a card and an index.
        cards = sorted((cast(Card, move.card) for move in moves), key=lambda card: card.index)
        index = cast(int, moves[0].index)
        errors: list[IllegalMoveError] = []

        def first_legal_order(
            state: _State, remaining: list[Card]
        ) -> tuple[list[tuple[Move, _State]], _State] | None:
            """Depth first, in canonical card order: the first order of single lay-offs that is
            legal throughout (a refused prefix is not extended), with the state it reaches."""
            if not remaining:
                return [], state
            for position, card in enumerate(remaining):
                if position and card is remaining[position - 1]:
                    continue  # the same card again: the same subtree
                move = _add_move(index, card)
                new = state.copy()
                try:
                    self._apply(new, move)
                except IllegalMoveError as error:
                    errors.append(error)
                    continue
                rest = first_legal_order(new, remaining[:position] + remaining[position + 1:])
                if rest is not None:
                    return [(move, state)] + rest[0], rest[1]
            return None

        with self._lock:
            found = first_legal_order(self._state, cards)
            if found is None:
                raise IllegalMoveError(
                    f"{text!r}: no order of these lay-offs is legal "
                    f"({errors[-1] if errors else ''})"
                )
            self._history.extend(found[0])
            self._state = found[1]

    def playout(self, policy: PolicyLike = "random", seed: int = 0) -> int:
        """Play the hand to its end and return how many moves that took (they join :attr:`moves`).

        Each move is the policy's choice among :func:`.policies.candidates` (the legal moves less
        those that would bring back a position of this turn). ``'random'``: uniform, drawn by
        ``bounded(len(candidates))`` from xoshiro256** seeded with ``seed`` (the deal contract's
        generator, so both engines play the same game). ``'greedy'``:
        :func:`.policies.greedy_move`, deterministic; the seed is checked like any seed but not
        used (docs/search.md "Playouts"). A :class:`.policies.Policy` or a Python callable
        ``(view, moves) -> int`` (docs/native.md) plays its own choices, each call's random stream
        started from one ``next()`` of that generator; it may not move this game meanwhile
        (IllegalMoveError, nothing recorded). A policy that fails raises PolicyError, the game
        left as it was.

        After :data:`MAX_HAND_MOVES` moves with the hand still going on, InvalidStateError naming
        the state reached; the game is then left as it was before the call."""
        chosen = policy_arg(policy)
        generator = Xoshiro256StarStar(check_seed(seed))
        shown = f"playout({chosen._shown()}, {seed!r}): "
        left = " (the game is left as it was)"
        with self._lock:
            start_state, start_moves = self._state, len(self._history)
            if chosen.kind == "builtin":  # played in place: nothing else runs meanwhile
                try:
                    return self._play(chosen, generator)
                except InvalidStateError as error:
                    self._state = start_state
                    del self._history[start_moves:]
                    raise _prefixed(error, shown, left) from None
            # A policy of the caller's is played on a copy, then recorded in one step if this game
            # is still where it started (the policy runs Python code, which may touch it).
            start_text = self.state_string()
            work = self.copy()
            try:
                played = work._play(chosen, generator)
            except (InvalidStateError, PolicyError) as error:
                raise _prefixed(error, shown, left) from error.__cause__
            if len(self._history) != start_moves or self.state_string() != start_text:
                raise IllegalMoveError(
                    f"{shown}the game changed while the policy played (the policy itself moved "
                    "it): the playout is not recorded"
                )
            self._history.extend(work._history[start_moves:])
            self._state = work._state
            return played

    def _play(self, policy: Policy, generator: Xoshiro256StarStar) -> int:
        """The loop of :meth:`playout` on this game (the caller holds the lock): the number of moves
        played. InvalidStateError at the move cap, the position reached in the message (which has
        no prefix; the caller restores what it needs); PolicyError from the policy."""
        played = 0
        while self._state.phase != OVER:
            if played == MAX_HAND_MOVES:
                raise InvalidStateError(
                    f"the hand is not over after {MAX_HAND_MOVES} moves (MAX_HAND_MOVES), at "
                    f"{self.state_string()!r}"
                )
            self._push_checked(self._choose(policy, generator))
            played += 1
        return played

    def _choose(self, policy: Policy, generator: Xoshiro256StarStar) -> Move:
        """The move ``policy`` picks here, the hand not over (docs/search.md "Candidates"): random
        draws ``bounded(len(candidates))``, greedy nothing, a Python policy one ``next()`` for its
        stream (PolicyError when it fails)."""
        moves = candidates(self, self._legal_moves())
        if policy.kind == "python":
            state = generator.next()
            return moves[python_choice(policy, observe(self, self._state.turn), moves, state)]
        if policy.spec == "random":
            return moves[generator.bounded(len(moves))]
        return greedy_move(self, moves)

    def policy_move(self, policy: PolicyLike = "greedy", seed: int = 0) -> Move:
        """The move a playout with ``policy`` and ``seed`` would play first, without playing it.

        Raises :class:`IllegalMoveError` when the hand is over, PolicyError when the policy fails
        (docs/search.md "Playouts")."""
        chosen = policy_arg(policy)
        generator = Xoshiro256StarStar(check_seed(seed))
        with self._lock:
            if self._state.phase == OVER:
                raise IllegalMoveError("policy_move: the hand is over, there is no move to choose")
            try:
                return self._choose(chosen, generator)
            except PolicyError as error:
                raise _prefixed(error, f"policy_move({chosen._shown()}): ") from error.__cause__

    def _turn_states(self) -> list[_State]:
        """The positions of the current turn since its draw phase began, the current one last."""
        states = [self._state]
        for _move, state in reversed(self._history):
            if state.turn != self._state.turn or state.phase == OVER:
                break
            states.append(state)
            if state.phase == DRAW:
                break
        if self._state.phase == DRAW:
            del states[1:]
        states.reverse()
        return states

    def pop(self) -> Move:
        """Undo the last move and return it (IndexError if there is none)."""
        with self._lock:
            if not self._history:
                raise IndexError("pop from a game with no moves")
            move, self._state = self._history.pop()
            return move

    @property
    def moves(self) -> list[Move]:
        """The moves played, in order (a new list)."""
        with self._lock:
            return [move for move, _state in self._history]

    def copy(self) -> Game:
        """An independent copy, history included."""
        with self._lock:
            new = object.__new__(type(self))
            new.__dict__.update(self.__dict__)
            new._history = list(self._history)  # states are never mutated: sharing them is safe
        new._lock = threading.RLock()
        return new

    __copy__ = copy

    def _snapshot(self) -> Game:
        """This game's current position alone (no history), for a reader that makes several
        reads: another thread's move cannot come between them."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)  # one read of _state: states are never mutated
        new._history = []
        new._lock = threading.RLock()
        return new

    def __deepcopy__(self, memo: dict[int, object]) -> Game:
        # Every state, move, meld and card is immutable: a copy shares them safely.
        return self.copy()

    def __getstate__(self) -> dict[str, object]:
        """Pickle support: the rules, deal and position with the whole history (no lock)."""
        with self._lock:
            state = dict(self.__dict__)
            state["_history"] = list(self._history)
        del state["_lock"]
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        self._lock = threading.RLock()

    def __eq__(self, other: object) -> bool:
        """Equal games are in the same position (state string) after the same moves."""
        if not isinstance(other, Game):
            return NotImplemented
        if self is other:
            return True
        mine, theirs = self.copy(), other.copy()
        return mine.state_string() == theirs.state_string() and mine.moves == theirs.moves

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = None  # type: ignore[assignment]  # a Game changes: unhashable, like a list

    # --- accessors ------------------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        """The rules of this hand."""
        return self._rules

    @property
    def seed(self) -> int | None:
        """The deal seed, or None for an explicit deck or a game read from a state string without one."""
        return self._seed

    @property
    def players(self) -> int:
        """The number of players (seats 0..players-1)."""
        return self._players

    @property
    def first_player(self) -> int:
        """The seat that played first; the dealer is the seat before it."""
        return self._first

    @property
    def scores(self) -> tuple[int, ...]:
        """Cumulative match scores at the start of this hand (per side; 3p per seat, half points)."""
        return self._scores

    @property
    def cut_side(self) -> int | None:
        """The side credited with the brazilian cut bonus (RULES F.5), or None."""
        return self._cut

    @property
    def turn(self) -> int:
        """The seat to act (when the hand is over: the seat that made the last move)."""
        return self._state.turn

    @property
    def phase(self) -> str:
        """``'draw'``, ``'meld'`` (after the draw, until the discard) or ``'over'``."""
        return self._state.phase

    def is_over(self) -> bool:
        """Whether the hand has ended (RULES D)."""
        return self._state.phase == OVER

    @property
    def end_reason(self) -> str | None:
        """``'closed'``, ``'stock_exhausted'``, ``'deadlock'``, or None while the hand goes on."""
        end = self._state.end
        if end is None:
            return None
        return end[0] if isinstance(end, tuple) else end

    def _seat(self, player: object) -> int:
        if isinstance(player, bool) or not isinstance(player, int) \
                or not 0 <= player < self._players:
            raise InvalidNotationError(
                f"{player!r} is not a seat: expected an int from 0 to {self._players - 1}"
            )
        return player

    def hand(self, player: int) -> Cards:
        """The cards in ``player``'s hand (a face-down pozzetto is not part of it, RULES H-36)."""
        return Cards._from_counter(self._state.hands[self._seat(player)], player,
                                   self._rules.decks)

    def known(self, player: int) -> Cards:
        """The cards known to everyone to be in ``player``'s hand (RULES C.9)."""
        return Cards._from_counter(self._state.known[self._seat(player)], player,
                                   self._rules.decks)

    def side_of(self, player: int) -> int:
        """The side of a seat now (3 players: own seat, or 3 for the pair after the split)."""
        return self._side_of_seat(self._seat(player), self._state.split)

    @property
    def sides(self) -> tuple[int, ...]:
        """The side indices in play."""
        return self._sides(self._state)

    def melds(self, side: int) -> Melds:
        """A side's melds in creation order (3p: a side slot 0..3)."""
        if isinstance(side, bool) or not isinstance(side, int) or not 0 <= side < self._slots:
            raise InvalidNotationError(
                f"{side!r} is not a side: expected an int from 0 to {self._slots - 1}"
            )
        return Melds._from_tuple(tuple(meld for _n, meld in self._state.melds[side]), self._rules)

    @property
    def discard_pile(self) -> Cards:
        """The discard pile, as a multiset (it is public, RULES C.2)."""
        return Cards._from_counter(self._state.pile, "pile", self._rules.decks)

    @property
    def top_discard(self) -> Card | None:
        """The pile's top card (the last discard, or the start card), or None when it is empty."""
        return self._state.top

    @property
    def stock_size(self) -> int:
        """The number of cards in the stock."""
        return len(self._state.stock)

    @property
    def stock(self) -> tuple[Card, ...]:
        """The stock, top first (hidden information; for tests)."""
        return tuple(self._state.stock)

    @property
    def pozzetti(self) -> tuple[tuple[str, int | None, Cards], ...]:
        """Per packet: (status, owner seat or None, its cards while it is a packet)."""
        return tuple((status, owner, Cards._from_cards(cards, self._rules.decks))
                     for status, owner, cards in self._state.pozzetti)

    @property
    def hold(self) -> Card | None:
        """The card kind held by the single-card pile rule (RULES C.5), or None."""
        return self._state.hold

    # --- information sets (docs/search.md, RULES C.9) ---------------------------------------------

    def observation(self, player: int) -> Observation:
        """What ``player`` may know of this hand (RULES C.9): an :class:`.observation.Observation`."""
        return observe(self._snapshot(), player)  # one consistent position (docs/game.md "Threads")

    def determinize(self, player: int, seed: int) -> Game:
        """A new game (no history, no seed) consistent with ``observation(player)``: the cards
        ``player`` cannot see dealt at random from ``seed`` (docs/search.md "Determinization"). It
        reads only the observation."""
        self._seat(player)  # a bad player is reported before a bad seed
        check_seed(seed)
        return determinize(observe(self._snapshot(), player), seed)

    # --- actions and tensors for learning (docs/search.md) --------------------------------------

    @property
    def action_size(self) -> int:
        """The number of action ids under this game's rules: 1965 + its meld table's length (+ 53
        for each meld index past 35 a three-deck side may reach)."""
        return actions.action_size(self._rules)

    def action_id(self, move: Move | str) -> int:
        """The action id of a move (a Move or its notation); InvalidNotationError quoting it if it
        is not a move or has no id (such as ``add 40 5h``)."""
        return actions.action_id(self._rules, move)

    def action_move(self, action: int) -> Move:
        """The move of an action id (InvalidNotationError outside 0..action_size-1, quoting it)."""
        return actions.action_move(self._rules, action)

    def legal_mask(self, out: numpy.ndarray | None = None) -> numpy.ndarray:
        """A NumPy bool array of ``action_size`` entries, True at the ids of ``legal_moves()``;
        written into ``out`` when given (a C-contiguous bool array of that length; anything else
        raises InvalidNotationError quoting its shape and dtype)."""
        mask = actions.output_array(out, self.action_size, bool)
        for move in self._legal_moves():
            mask[actions.action_id(self._rules, move)] = True
        return mask

    def push_action(self, action: int) -> None:
        """Play the move of an action id. InvalidNotationError if it is not an id, IllegalMoveError
        if its move is not legal here; either way, quoting it, and then nothing changes."""
        move = actions.action_move(self._rules, action)
        try:
            self.push(move)
        except IllegalMoveError as error:
            raise IllegalMoveError(
                f"action {action!r} ({str(move)!r}) is not legal here: {error}"
            ) from None

    def observation_tensor(self, player: int, out: numpy.ndarray | None = None) -> numpy.ndarray:
        """511 float32 features of ``observation(player)`` and nothing else (docs/search.md,
        :data:`.actions.TENSOR_LAYOUT`); 681 with six players (:data:`.actions.TENSOR_LAYOUT_SIX`).
        Written into ``out`` when given (a C-contiguous float32 array of that many entries;
        anything else raises InvalidNotationError quoting its shape and dtype)."""
        return actions.observation_tensor(self.observation(player), out)

    # --- scoring (RULES E) ----------------------------------------------------------------------

    def result(self) -> Result:
        """The score of the finished hand (IllegalMoveError before the hand is over)."""
        s = self._state
        if s.phase != OVER:
            raise IllegalMoveError("the hand is not over: no result yet")
        rules = self._rules
        closing_side = s.end[1] if isinstance(s.end, tuple) else None
        entries = []
        for side in self._sides(s):
            seats = self._seats_of(side, s)
            melds = sum(meld.points for _n, meld in s.melds[side])
            bonuses = sum(meld.bonus for _n, meld in s.melds[side])
            closing = rules.closing_bonus if closing_side == side else 0
            hand = -sum(_points(rules, s.hands[seat].elements()) for seat in seats)
            pozzetto = 0
            taken = False
            for status, owner, cards in s.pozzetti:
                if owner not in seats or status not in _TAKEN:
                    continue
                if status == IN_HAND:
                    taken = True
                    continue
                value = _points(rules, cards)  # RULES E.4: taken by discarding, never played
                if rules.unplayed_pozzetto_rule == "count_as_hand":
                    taken = True
                    hand -= value
                elif rules.unplayed_pozzetto_rule == "min_of_value_and_100":
                    taken = True
                    pozzetto -= min(value, 100)
            if not taken:
                pozzetto -= rules.no_pozzetto_penalty
            cut = rules.cut_bonus if self._cut == side else 0
            total = melds + bonuses + closing + hand + pozzetto + cut
            entries.append(SideResult(side, melds, bonuses, closing, hand, pozzetto, cut, total))
        player_scores = None
        if self._players == 3:
            totals = {entry.side: entry.total for entry in entries}
            scores = []
            for seat in range(3):
                side = self._side_of_seat(seat, s.split)
                share = 1 if side == 3 and rules.score_split == "halves_for_pair" else 2
                scores.append(share * totals[side])
            player_scores = tuple(scores)
        end_reason = s.end[0] if isinstance(s.end, tuple) else s.end
        return Result(end_reason, closing_side, tuple(entries), player_scores)  # type: ignore

    # --- state strings (docs/game.md "State string, version 1") ---------------------------------

    def state_string(self) -> str:
        """The whole state as one line (docs/game.md "State string, version 1"); no history."""
        return self._state_text(self._state)

    def _state_text(self, s: _State) -> str:
        """The state string of ``s``, a state of this game (the current one or one of history)."""
        rules = self._rules

        def cards(items: Iterable[Card]) -> str:
            text = "".join(str(card) for card in items)
            return text or "-"

        def melds(slot: list[tuple[int, Meld]]) -> str:
            if not slot:
                return "-"
            words = []
            for number, meld in slot:
                word = meld.layout.replace(" ", "")
                words.append(f"{word}@{number}" if self._players == 3 else word)
            return "+".join(words)

        def packet(status: str, owner: int | None, packet_cards: list[Card]) -> str:
            letter = _STATUS_LETTER[status] + ("" if owner is None else str(owner))
            return f"{letter}:{cards(packet_cards) if status in (UNTAKEN, FACE_DOWN, SEEN) else '-'}"

        flags = "".join(letter for letter, on in zip(_FLAG_LETTERS, (
            s.took_single, s.put_down, s.last_turn, s.force_draw, s.first_draw)) if on)
        if s.end is None:
            end = "-"
        elif isinstance(s.end, tuple):
            end = f"closed:{s.end[1]}"
        else:
            end = s.end
        values = {
            "v": "1",
            "rules": rules.text,
            "seed": "-" if self._seed is None else str(self._seed),
            "first": str(self._first),
            "scores": ",".join(str(score) for score in self._scores),
            "turn": str(s.turn),
            "phase": s.phase,
            "hands": "/".join(cards(_canonical(hand)) for hand in s.hands),
            "known": "/".join(cards(_canonical(known)) for known in s.known),
            "stock": cards(s.stock),
            "pile": cards(_canonical(s.pile)),
            "top": "-" if s.top is None else str(s.top),
            "melds": "/".join(melds(slot) for slot in s.melds),
            "pozzetti": "/".join(packet(*entry) for entry in s.pozzetti),
            "hold": "-" if s.hold is None else str(s.hold),
            "opened": ",".join("1" if opened else "0" for opened in s.opened),
            "need": ",".join(str(need) for need in s.need),
            "deadlock": str(s.deadlock),
            "turnflags": flags or "-",
            "split": "-" if s.split is None else str(s.split),
            "end": end,
            "cut": "-" if self._cut is None else str(self._cut),
        }
        return ";".join(f"{name}={values[name]}" for name in _FIELDS)

    @classmethod
    def from_state_string(cls, text: str) -> Game:
        """The game in the state ``text`` (InvalidStateError, quoting the field, if malformed)."""
        return _parse_state(cls, text)

    # --- game records and JSON views (docs/records.md; shared with the core: burraco._records) ---

    def record(self) -> _records.Record:
        """The hand as a game record: a JSON-serialisable dict (docs/records.md): format and
        version, the rules text, first player and scores, how it was dealt (``seed``, else
        ``deck``, else ``start``), the moves in notation and the result (None while playing)."""
        return _records.record(self.copy(), Rules, Game)  # one consistent snapshot

    @classmethod
    def from_record(cls, record: _records.Record | str) -> Game:
        """The game of a record (a dict or one JSON line), its moves replayed so that the state
        string and the history are the recorded game's; a bad record raises (quoting the bad
        part) and gives no game (docs/records.md)."""
        return _records.from_record(cls, Rules, record)

    def to_json(self, player: int | None = None, *, indent: int | None = None) -> str:
        """JSON text of what seat ``player`` may see (from ``observation(player)``), or of the
        whole state when ``player`` is None (docs/records.md "JSON views"); ``indent`` goes to
        ``json.dumps``."""
        return _records.to_json(self.copy(), player, indent)  # one consistent snapshot

    @classmethod
    def from_json(cls, text: str) -> Game:
        """The game of a full JSON view (``to_json()``), no history; a player's view, or a view
        whose fields contradict its state string, raises InvalidStateError."""
        return _records.from_json(cls, text)

    def __repr__(self) -> str:
        return f"Game.from_state_string({self.state_string()!r})"

    def __str__(self) -> str:
        """The table as text, as ``str(chess.Board)`` draws a board: stock, the pile in order,
        pozzetti, melds, hands and whose turn (burraco._board.draw; docs/cli.md "The board")."""
        return _board.game_str(self)


# --- helpers ----------------------------------------------------------------------------------


def determinize(observation: Observation, seed: int) -> Game:
    """A game consistent with ``observation`` (docs/search.md "Determinization"), no history, no
    seed: the game of :func:`.observation.determinized_state_string` (its seed an int in
    ``[0, 2**64)``, else InvalidNotationError), in which the seat to act has a legal move."""
    seed = check_seed(seed)
    text = determinized_state_string(observation, seed, _seat_to_act_can_move)
    try:
        return Game.from_state_string(text)
    except InvalidStateError as error:
        # Only the hidden cards differ from a real position, and step 4 gives the seat to act a
        # hand it can move with: a position of the real game's observation always reads back.
        player = observation.player
        raise InvalidStateError(
            f"determinize({player}, {seed}): internal error, the cards dealt from seat {player}'s "
            f"view give a position that could not arise in play ({error})"
        ) from None


def _seat_to_act_can_move(text: str) -> bool:
    """Whether the seat to act of the whole deal ``text`` (a state string, every card in one
    place) has a legal move: the one question a determinization's deal leaves open."""
    return bool(_parse_state(Game, text, validate=False)._legal_moves())


def _check_supported(rules: Rules) -> None:
    """InvalidNotationError for knob combinations this engine does not play."""
    if rules.initial_stock < 0:
        raise InvalidNotationError(
            f"{rules!r}: the pack of {rules.total_cards} cards is too small for the hands, the "
            f"pozzetti and the start card"
        )
    if rules.players == 3 and (rules.opening_minimum is not None
                               or rules.cut_exact_probability > 0):
        raise InvalidNotationError(
            f"{rules!r}: three players with a brazilian opening minimum or cut are not supported"
        )


def _check_scores(rules: Rules, scores: object) -> tuple[int, ...]:
    """strict parsing, docs/records.md: a tuple or list of ``count`` ints; any other type (a dict, a set,
    a string, a generator, a float or bool score) is a TypeError, a wrong length a ValueError."""
    count = rules.sides  # one score per side (three players: per seat)
    if scores is None:
        return (0,) * count
    if not isinstance(scores, (tuple, list)):
        raise TypeError(f"scores must be a tuple or list of {count} ints, not "
                        f"{type(scores).__name__} {scores!r}")
    for value in scores:
        if isinstance(value, bool) or not hasattr(type(value), "__index__") or (
                type(value).__name__ == "bool_"):
            raise TypeError(f"scores must be a tuple or list of {count} ints: {value!r} in "
                            f"{scores!r} is a {type(value).__name__}")
    if len(scores) != count:
        raise InvalidNotationError(f"{scores!r} is not a scores tuple: expected {count} ints")
    scores = [operator.index(value) for value in scores]
    if any(not -MAX_SCORE <= value <= MAX_SCORE for value in scores):
        raise InvalidNotationError(f"{scores!r} is not a scores tuple: expected {count} ints "
                                   f"from {-MAX_SCORE} to {MAX_SCORE}")
    return tuple(int(value) for value in scores)


def _check_deck(rules: Rules, deck: object) -> list[Card]:
    if isinstance(deck, str):
        words = [word for word in re.split(r"[ \t\n\r\x0b\x0c,]+", deck.strip(BLANKS)) if word]
    elif isinstance(deck, Iterable):
        words = list(deck)
    else:
        raise InvalidNotationError(f"{deck!r} is not a deck: expected a card list")
    try:
        order = [Card(word) for word in words]
    except InvalidNotationError as error:
        raise InvalidNotationError(f"the deck is not a card list: {error}") from None
    if Counter(order) != Counter(_unshuffled_deck(rules)):
        raise InvalidNotationError(
            f"the deck is not the full pack of {rules.total_cards} cards (RULES A.1): "
            f"got {len(order)} cards"
        )
    return order


@functools.cache
def _meld_move(key: tuple[int, ...], decks: int) -> Move:
    return Move._meld(Cards._from_cards((_CARDS[index] for index in key), decks))


@functools.cache
def _add_move(index: int, card: Card) -> Move:
    return Move._add(index, card)


@functools.cache
def _discard_move(card: Card) -> Move:
    return Move._discard(card)


#: The natural card of every run slot 1..14 (index 0 unused), per suit.
_SLOT_CARDS: dict[str, list[Card | None]] = {
    suit: [None] + [slot_card(suit, slot) for slot in range(1, 15)] for suit in SUITS
}


_CARDS = [Card.from_index(index) for index in range(JOKER_INDEX + 1)]
#: The four natural cards of each rank (clubs, diamonds, hearts, spades), by rank value.
_RANK_NATURALS = {rank: tuple(_CARDS[13 * suit + rank - 1] for suit in range(4))
                  for rank in range(1, 14)}


def _valid_new_melds(hand: Counter[Card], rules: Rules) -> list[tuple[tuple[int, ...], Meld]]:
    """Every sub-multiset of ``hand`` that is a new meld (RULES B.2-B.4), as (card indices, Meld),
    sorted by card indices. One-set-per-rank and C.7 are left to the caller.

    The candidates are made per rank (sets) and per suit (runs) by :func:`_set_candidates` and
    :func:`_run_candidates`, validated by :class:`Meld`; both steps are remembered per rank or suit
    and the counts that matter to it, so a draw only recomputes the rank and the suit it touched.
    """
    memo = _memo(rules)
    groups, new_melds = memo[2], memo[0]
    by_index = [0] * (JOKER_INDEX + 1)
    for card, copies in hand.items():
        by_index[card.index] = copies
    wild_counts = tuple(by_index[card.index] for card in WILD_KINDS)
    found: list[tuple[tuple[int, ...], Meld]] = []
    groups_wanted: list[tuple[str, tuple[Card, ...] | str, tuple[int, ...]]] = []
    if rules.sets_allowed:
        for rank_value in (1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13):
            counts = tuple(by_index[rank_value - 1::13][:4])
            if sum(counts) >= 2:
                groups_wanted.append(("set", _RANK_NATURALS[rank_value], counts))
    any_wild = any(wild_counts)
    for number, suit in enumerate(SUITS):
        counts = tuple(by_index[13 * number:13 * number + 13])
        if len(counts) - counts.count(0) + any_wild >= 3:
            groups_wanted.append(("run", suit, counts))
    for kind, what, counts in groups_wanted:
        group_key = (kind, what, counts, wild_counts)
        melds = groups.get(group_key)
        if melds is None:
            if kind == "set":
                candidates = _set_candidates(cast("tuple[Card, ...]", what), counts, wild_counts)
            else:
                candidates = _run_candidates(cast(str, what), counts, wild_counts)
            melds = []
            for key in candidates:
                meld = _new_meld(key, rules, new_melds)
                if meld is not None:
                    melds.append((key, meld))
            groups[group_key] = melds
        found.extend(melds)
    found.sort(key=lambda entry: entry[0])
    return found


def _set_candidates(naturals: tuple[Card, ...], counts: tuple[int, ...],
                    wild_counts: tuple[int, ...]) -> set[tuple[int, ...]]:
    """Sets of one rank: every sub-multiset of its naturals (2+), with no wild or one wild kind."""
    wilds = [wild.index for wild, count in zip(WILD_KINDS, wild_counts) if count]
    keys: set[tuple[int, ...]] = set()
    for choice in itertools.product(*(range(count + 1) for count in counts)):
        size = sum(choice)
        if size < 2:
            continue
        base = [card.index for card, copies in zip(naturals, choice) for _ in range(copies)]
        if size >= 3:
            keys.add(tuple(base))
        for wild in wilds:
            keys.add(tuple(sorted(base + [wild])))
    return keys


def _run_candidates(suit: str, counts: tuple[int, ...],
                    wild_counts: tuple[int, ...]) -> set[tuple[int, ...]]:
    """Runs of one suit: every window of slots lo..hi (RULES 0.3) whose slots all hold their
    natural card but at most one, which holds a wild of any kind present (or a wild in place of a
    natural that is in hand too). ``counts``: the hand's copies of the suit's A..K."""
    wilds = [wild for wild, count in zip(WILD_KINDS, wild_counts) if count]
    wild_count = dict(zip(WILD_KINDS, wild_counts))
    slot_cards = cast("list[Card]", _SLOT_CARDS[suit])  # slot 0, None, is never read
    present = [False] + [counts[card.rank_value - 1] > 0 for card in slot_cards[1:]]
    keys: set[tuple[int, ...]] = set()
    for low in range(1, 13):
        missing: list[int] = []
        for high in range(low, 15):
            if not present[high]:
                missing.append(high)
                if len(missing) > 1 or not wilds:
                    break
            if high - low < 2:
                continue
            window = range(low, high + 1)
            wild_slots: list[int | None] = [missing[0]] if missing else [None, *window]
            for wild_slot in wild_slots:
                needed = [slot_cards[slot] for slot in window if slot != wild_slot]
                if low == 1 and high == 14 and wild_slot not in (1, 14) and counts[0] < 2:
                    continue  # both ace slots need both aces
                base = [card.index for card in needed]
                if wild_slot is None:
                    keys.add(tuple(sorted(base)))
                    continue
                for wild in wilds:
                    if wild_count[wild] > (1 if wild in needed else 0):
                        keys.add(tuple(sorted(base + [wild.index])))
    return keys


# --- rules text and state-string parsing ------------------------------------------------------


def _parse_rules(text: str) -> Rules:
    """The rules field of a state string: :meth:`Rules.from_text`, its error an InvalidStateError."""
    try:
        return Rules.from_text(text)
    except InvalidNotationError as error:
        raise InvalidStateError(str(error)) from None


_CARD_PAIR = re.compile(r"..")
_LAYOUT_TOKEN = re.compile(r"(..)(\(=[^()]*\))?")


def _parse_state(cls: type[Game], text: str, validate: bool = True) -> Game:
    if not isinstance(text, str):
        raise InvalidStateError(f"{text!r} is not a state string")
    parts = text.split(";")
    names = [part.partition("=")[0] for part in parts]
    if names != list(_FIELDS) or any("=" not in part for part in parts):
        raise InvalidStateError(
            f"{text!r} is not a version-1 state string: expected the fields {';'.join(_FIELDS)}"
        )
    fields = {part.partition("=")[0]: part.partition("=")[2] for part in parts}

    def bad(name: str, why: str) -> InvalidStateError:
        return InvalidStateError(f"{name}={fields[name]!r}: {why}")

    def integer(name: str, value: str, low: int | None = None, high: int | None = None) -> int:
        if not re.fullmatch(r"-?\d+", value):
            raise bad(name, f"{value!r} is not an integer")
        number = int(value)
        if (low is not None and number < low) or (high is not None and number > high):
            raise bad(name, f"{number} is out of range")
        return number

    def card_list(name: str, value: str) -> list[Card]:
        if value == "-":
            return []
        if len(value) % 2:
            raise bad(name, f"{value!r} is not a list of 2-character cards")
        try:
            return [Card(pair) for pair in _CARD_PAIR.findall(value)]
        except InvalidNotationError:
            raise bad(name, f"{value!r} is not a list of 2-character cards") from None

    def canonical_list(name: str, value: str) -> Counter[Card]:
        cards = card_list(name, value)
        if cards != sorted(cards, key=lambda card: card.index):
            raise bad(name, f"{value!r} is not in canonical card order")
        return Counter(cards)

    if fields["v"] != "1":
        raise bad("v", "only version 1 is known")
    rules = _parse_rules(fields["rules"])
    players = rules.players
    try:
        _check_supported(rules)
    except InvalidNotationError as error:
        raise bad("rules", str(error)) from None
    slots = side_slots(rules)
    game = object.__new__(cls)
    seed = None if fields["seed"] == "-" else integer("seed", fields["seed"], 0, (1 << 64) - 1)
    first = integer("first", fields["first"], 0, players - 1)
    score_texts = fields["scores"].split(",")
    if len(score_texts) != rules.sides:
        raise bad("scores", "wrong number of scores")
    scores = tuple(integer("scores", value, -MAX_SCORE, MAX_SCORE) for value in score_texts)
    game._setup(rules, first, scores)
    game._seed = seed
    game._history = []
    game._lock = threading.RLock()
    s = object.__new__(_State)
    s.turn = integer("turn", fields["turn"], 0, players - 1)
    if fields["phase"] not in (DRAW, MELD, OVER):
        raise bad("phase", "expected draw, meld or over")
    s.phase = fields["phase"]

    def per_seat(name: str) -> list[Counter[Card]]:
        values = fields[name].split("/")
        if len(values) != players:
            raise bad(name, f"expected {players} entries")
        return [canonical_list(name, value) for value in values]

    s.hands = per_seat("hands")
    s.known = per_seat("known")
    for hand, known in zip(s.hands, s.known):
        if any(hand[card] < copies for card, copies in known.items()):
            raise bad("known", "a known card is not in the hand")
    s.stock = card_list("stock", fields["stock"])
    s.pile = canonical_list("pile", fields["pile"])
    s.top = None
    if fields["top"] != "-":
        top = card_list("top", fields["top"])
        if len(top) != 1:
            raise bad("top", "expected one card or -")
        s.top = top[0]
    if (s.top is None) != (not s.pile) or (s.top is not None and not s.pile[s.top]):
        raise bad("top", "the top card must be in the pile, and only an empty pile has none")
    slot_texts = fields["melds"].split("/")
    if len(slot_texts) != slots:
        raise bad("melds", f"expected {slots} side slots")
    s.melds = []
    numbers: list[int] = []
    for position, slot_text in enumerate(slot_texts):
        slot: list[tuple[int, Meld]] = []
        if slot_text != "-":
            for word in slot_text.split("+"):
                if players == 3:
                    word, at, number_text = word.partition("@")
                    if not at:
                        raise bad("melds", f"{word!r} has no @creation number")
                    number = integer("melds", number_text, 0)
                else:
                    number = len(numbers)
                tokens = _LAYOUT_TOKEN.findall(word)
                if "".join(card + stands for card, stands in tokens) != word or not tokens:
                    raise bad("melds", f"cannot read the layout {word!r}")
                try:
                    meld = Meld.from_layout(" ".join(card + stands for card, stands in tokens),
                                            rules)
                except (InvalidMeldError, InvalidNotationError) as error:
                    raise bad("melds", str(error)) from None
                if meld.layout.replace(" ", "") != word:
                    raise bad("melds", f"{word!r} is not a canonical layout ({meld.layout!r})")
                if slot and number <= slot[-1][0]:
                    raise bad("melds", "melds must be in creation order")
                numbers.append(number)
                slot.append((number, meld))
        s.melds.append(slot)
    if len(set(numbers)) != len(numbers):
        raise bad("melds", "two melds with one creation number")
    packet_texts = fields["pozzetti"].split("/")
    if len(packet_texts) != len(rules.pozzetto_sizes):
        raise bad("pozzetti", f"expected {len(rules.pozzetto_sizes)} packets")
    s.pozzetti = []
    for packet_text in packet_texts:
        match = re.fullmatch(r"([ufshx])(\d?):(.*)", packet_text)
        if match is None:
            raise bad("pozzetti", f"cannot read {packet_text!r}")
        status = _LETTER_STATUS[match[1]]
        owner = int(match[2]) if match[2] else None
        if (owner is None) != (status in (UNTAKEN, STOCK)) or (owner is not None and owner >= players):
            raise bad("pozzetti", f"{packet_text!r}: wrong owner")
        cards = card_list("pozzetti", match[3])
        if status in (IN_HAND, STOCK) and match[3] != "-":
            raise bad("pozzetti", f"{packet_text!r}: a packet in a hand or the stock shows no cards")
        if status not in (IN_HAND, STOCK) and not cards:
            raise bad("pozzetti", f"{packet_text!r}: a packet needs its cards")
        s.pozzetti.append([status, owner, cards])
    s.hold = None
    if fields["hold"] != "-":
        held = card_list("hold", fields["hold"])
        if len(held) != 1:
            raise bad("hold", "expected one card or -")
        s.hold = held[0]
    opened = fields["opened"].split(",")
    if len(opened) != slots or any(value not in ("0", "1") for value in opened):
        raise bad("opened", f"expected {slots} values 0 or 1")
    s.opened = [value == "1" for value in opened]
    need = fields["need"].split(",")
    if len(need) != slots:
        raise bad("need", f"expected {slots} values")
    s.need = [integer("need", value, 0, MAX_OPENING_NEED) for value in need]
    s.deadlock = integer("deadlock", fields["deadlock"], 0, players)
    flags = fields["turnflags"]
    if flags != "-" and (not flags or not _is_subsequence(flags, _FLAG_LETTERS)):
        raise bad("turnflags", f"expected letters of {_FLAG_LETTERS!r} in that order, or -")
    s.took_single, s.put_down, s.last_turn, s.force_draw, s.first_draw = (
        letter in flags for letter in _FLAG_LETTERS)
    s.split = None
    if fields["split"] != "-":
        if players != 3:
            raise bad("split", "only three players split")
        s.split = integer("split", fields["split"], 0, 2)
    end = fields["end"]
    if end == "-":
        s.end = None
    elif end in ("stock_exhausted", "deadlock"):
        s.end = end
    elif re.fullmatch(r"closed:\d", end):
        s.end = ("closed", int(end[7:]))
        if s.end[1] >= slots:
            raise bad("end", "no such side")
    else:
        raise bad("end", "expected closed:<side>, stock_exhausted, deadlock or -")
    if (s.end is None) != (s.phase != OVER):
        raise bad("end", "a hand has an end exactly when its phase is over")
    game._cut = None if fields["cut"] == "-" else integer("cut", fields["cut"], 0, slots - 1)
    # Card conservation: every card of the pack is in exactly one place.
    everything: Counter[Card] = Counter()
    for hand in s.hands:
        everything.update(hand)
    everything.update(s.stock)
    everything.update(s.pile)
    for slot in s.melds:
        for _number, meld in slot:
            everything.update(meld.cards)
    for _status, _owner, cards in s.pozzetti:
        everything.update(cards)
    if everything != Counter(_unshuffled_deck(rules)):
        missing = Counter(_unshuffled_deck(rules)) - everything
        extra = everything - Counter(_unshuffled_deck(rules))
        raise InvalidStateError(
            f"{text!r}: cards not conserved (missing {' '.join(map(str, _canonical(missing))) or '-'}"
            f", extra {' '.join(map(str, _canonical(extra))) or '-'})"
        )
    if players == 3 and s.split is None and s.melds[3]:
        raise bad("melds", "the pair slot holds melds before the split")
    game._state = s
    canonical = game.state_string()
    if canonical != text:
        raise InvalidStateError(
            f"{text!r} is not in canonical form: the same position is written {canonical!r}"
        )
    if validate:
        validate_state(game)
    return game


def _is_subsequence(text: str, letters: str) -> bool:
    position = 0
    for letter in text:
        position = letters.find(letter, position)
        if position < 0:
            return False
        position += 1
    return len(set(text)) == len(text)
