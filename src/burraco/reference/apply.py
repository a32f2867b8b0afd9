"""Applying a move to a position (RULES C, D): :func:`apply_move` plays one move on a fresh copy
of a state, or raises IllegalMoveError saying which rule refuses it (the copy is then dropped, so
an illegal move changes nothing). Everything a move sets off is done here too: picking up or taking
a pozzetto, a short brazilian opening's return, closing, the end of the stock, a deadlock and the
passing of the turn.

Every function takes the rules and the state; a state passed to a function whose name is a verb
(``apply_move``, ``end_hand``) is changed in place, the others only read it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from .._errors import IllegalMoveError
from .cards import Card
from .memo import BARE_MOVES, add_move, meld_problem, new_meld
from .melds import Meld
from .moves import Move
from .rules import Rules
from .seats import (
    acting_side,
    has_packet,
    may_close,
    may_take_packet,
    pot,
    provisional,
    side_of_seat,
    untaken_packet,
)
from .state import (
    DRAW,
    FACE_DOWN,
    IN_HAND,
    MAX_OPENING_NEED,
    MELD,
    OVER,
    SEEN,
    STOCK,
    _State,
)

_DRAW_ORDER = ("draw", "pile", "keep", "reject")


def card_count(counter: Counter[Card]) -> int:
    """The number of cards in a multiset."""
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


# --- what the position allows -------------------------------------------------------------------


def can_draw_stock(rules: Rules, s: _State) -> bool:
    """Whether a stock draw is possible (RULES D.2, D.3): the stock holds more than the threshold,
    or it is empty and an untaken packet becomes the stock."""
    if len(s.stock) > rules.stock_end_threshold:
        return True
    return not s.stock and rules.pozzetto_becomes_stock and untaken_packet(s) is not None


def draw_phase_moves(rules: Rules, s: _State) -> list[Move]:
    """The legal moves of a draw phase, in canonical order (RULES C.2, D.4)."""
    moves = []
    if s.first_draw:
        if len(s.stock) >= 1:
            moves.append("keep")
        if len(s.stock) >= 2:
            moves.append("reject")
    elif can_draw_stock(rules, s):
        moves.append("draw")
    if s.pile and not s.force_draw:
        moves.append("pile")
    return [BARE_MOVES[text] for text in sorted(moves, key=_DRAW_ORDER.index)]


def opening_returned(rules: Rules, s: _State, side: int) -> bool:
    """RULES C.3, H-38: a short opening returned the side's cards this turn, which ended the
    meld phase: only discards are left. Nothing else clears the table of a side not yet open
    in mid-turn, so this is what the position shows: the side is not open, a card went down
    this turn (``d``) and none lies on its table."""
    return provisional(rules, s, side) and s.put_down and not s.melds[side]


def _opening_short(s: _State, side: int) -> bool:
    total = sum(meld.points for _number, meld in s.melds[side])
    return total < s.need[side]


def _hold_blocks(rules: Rules, s: _State, card: Card) -> bool:
    """RULES C.5: discarding ``card`` is the held card itself."""
    if s.hold is not card or s.hands[s.turn][card] != 1:
        return False
    side = acting_side(rules, s)
    if provisional(rules, s, side):
        # The held kind is released while a card of it lies on the (this turn's) table.
        return not any(card in meld.cards for _number, meld in s.melds[side])
    return True


def _closing_burraco(rules: Rules) -> str:
    return "clean burraco" if rules.closing_requires_burraco == "clean" else "burraco"


def discard_problem(rules: Rules, s: _State, card: Card) -> str | None:
    """Why ``discard card`` is illegal now, or None (RULES C.5, C.6, C.3)."""
    hand = s.hands[s.turn]
    if not hand[card]:
        return f"{card} is not in the hand"
    if _hold_blocks(rules, s, card):
        return (f"{card} is the card just taken from a one-card pile; only another copy "
                f"could be discarded (RULES C.5)")
    if card_count(hand) > 1:
        return None
    side = acting_side(rules, s)
    if provisional(rules, s, side) and s.melds[side] and _opening_short(s, side):
        return None  # the cards come back first: the hand does not become empty (RULES C.3)
    if may_take_packet(rules, s, side):
        return None
    if may_close(rules, s, side):
        if card.is_wild and not rules.closing_discard_wild_allowed:
            return f"{card} is a wild: the closing discard may not be a wild (RULES C.6)"
        return None
    if has_packet(rules, s, side):
        return ("it would empty the hand, but the side cannot close: it needs a "
                f"{_closing_burraco(rules)} (RULES C.6)")
    return "it would empty the hand, but no pozzetto is left for the side (RULES C.4)"


def completable(rules: Rules, s: _State) -> bool:
    """Whether the turn can still be finished legally (RULES C.7)."""
    if s.phase != MELD:
        return True
    hand = s.hands[s.turn]
    size = card_count(hand)
    if size >= 2:
        return True  # a card that is not held can be discarded, and one card stays
    if size == 0:
        return False
    (card,) = hand.elements()
    if discard_problem(rules, s, card) is None:
        return True
    for index in range(len(s.melds[acting_side(rules, s)])):
        try:
            apply_move(rules, s.copy(), add_move(index, card))
        except IllegalMoveError:
            continue
        return True
    return False


# --- applying a move ----------------------------------------------------------------------------


def apply_move(rules: Rules, s: _State, move: Move) -> None:
    """Play ``move`` on ``s`` (a fresh copy), or raise IllegalMoveError (then ``s`` is dropped)."""
    if s.phase == OVER:
        raise IllegalMoveError(f"{str(move)!r}: the hand is over")
    kind = move.kind
    if kind in _DRAW_ORDER:
        if s.phase != DRAW:
            raise IllegalMoveError(f"{str(move)!r}: the turn's draw has been made (RULES C.1)")
        _DRAWS[kind](rules, s)
        return
    if s.phase != MELD:
        raise IllegalMoveError(f"{str(move)!r}: draw first (RULES C.1)")
    if kind == "discard":
        _discard(rules, s, move)
        return
    if opening_returned(rules, s, acting_side(rules, s)):
        raise IllegalMoveError(
            f"{str(move)!r}: a short opening returned its cards this turn; only a discard "
            f"may follow (RULES C.3, H-38)"
        )
    if kind == "meld":
        _meld(rules, s, move)
    else:
        _add(rules, s, move)
    if s.phase == MELD and not completable(rules, s):
        raise IllegalMoveError(
            f"{str(move)!r}: the turn could not be finished after it (RULES C.7)"
        )


# --- the draw phase (RULES C.2, D.2-D.4) ---------------------------------------------------------


def _after_stock_draw(rules: Rules, s: _State) -> None:
    threshold = rules.stock_end_threshold
    if threshold > 0 and len(s.stock) <= threshold:
        s.last_turn = True  # RULES D.2: the last turn of the hand
    s.phase = MELD


def _draw(rules: Rules, s: _State) -> None:
    if s.first_draw:
        raise IllegalMoveError("'draw': the first draw of this brazilian hand is keep or reject "
                               "(RULES C.2)")
    if not can_draw_stock(rules, s):
        raise IllegalMoveError(f"'draw': the stock cannot be drawn from ({len(s.stock)} cards, "
                               f"stock_end_threshold={rules.stock_end_threshold})")
    if not s.stock:
        # RULES D.3: the top untaken packet becomes the stock, its order kept.
        packet = s.pozzetti[untaken_packet(s)]  # type: ignore[index]
        s.stock = list(packet[2])
        packet[:] = [STOCK, None, []]
    s.hands[s.turn][s.stock.pop(0)] += 1
    _after_stock_draw(rules, s)


def _pile(rules: Rules, s: _State) -> None:
    if not s.pile:
        raise IllegalMoveError("'pile': the discard pile is empty")
    if s.force_draw:
        raise IllegalMoveError("'pile': after a deadlock this player must draw from the stock "
                               "(RULES D.4 force_draw)")
    if card_count(s.pile) == 1:
        s.took_single = True
        if rules.forbid_discard_of_single_pile_card:
            s.hold = s.top  # RULES C.5: a hold on the kind taken
    s.hands[s.turn].update(s.pile)
    s.known[s.turn].update(s.pile)
    s.pile, s.top = Counter(), None
    s.first_draw = False  # a pile take is this turn's draw: keep/reject no longer apply
    s.phase = MELD


def _keep(rules: Rules, s: _State) -> None:
    if not s.first_draw or not s.stock:
        raise IllegalMoveError("'keep': only at the brazilian first draw (RULES C.2)")
    s.hands[s.turn][s.stock.pop(0)] += 1
    s.first_draw = False
    _after_stock_draw(rules, s)


def _reject(rules: Rules, s: _State) -> None:
    if not s.first_draw or len(s.stock) < 2:
        raise IllegalMoveError("'reject': only at the brazilian first draw (RULES C.2)")
    rejected = s.stock.pop(0)
    s.pile[rejected] += 1
    s.top = rejected
    s.hands[s.turn][s.stock.pop(0)] += 1
    s.first_draw = False
    _after_stock_draw(rules, s)


_DRAWS = {"draw": _draw, "pile": _pile, "keep": _keep, "reject": _reject}


# --- the meld phase (RULES B, C.3-C.6) ---------------------------------------------------------


def _put_down(rules: Rules, s: _State, side: int, cards: Iterable[Card]) -> None:
    """Cards leave the acting player's hand for the side's table."""
    hand, known = s.hands[s.turn], s.known[s.turn]
    for card in cards:
        _take(hand, card)
        _forget(known, card)
        if card is s.hold and not provisional(rules, s, side):
            s.hold = None  # RULES C.5: a card of the held kind went down
    s.put_down = True


def _next_meld_number(s: _State) -> int:
    numbers = [number for slot in s.melds for number, _meld in slot]
    return max(numbers) + 1 if numbers else 0


def _meld(rules: Rules, s: _State, move: Move) -> None:
    cards = move.cards
    hand = s.hands[s.turn]
    if not all(hand[card] >= count for card, count in Counter(cards).items()):
        raise IllegalMoveError(f"{str(move)!r}: the cards are not all in the hand")
    key = tuple(card.index for card in cards)
    meld = new_meld(key, rules)
    if meld is None:
        raise IllegalMoveError(f"{str(move)!r}: {meld_problem(key, rules)}")
    side = acting_side(rules, s)
    if meld.kind == "set":
        for index, (_number, existing) in enumerate(s.melds[side]):
            if existing.kind == "set" and existing.rank == meld.rank:
                raise IllegalMoveError(
                    f"{str(move)!r}: the side already has a set of rank {meld.rank} "
                    f"({existing.layout!r}, index {index}); lay the cards off onto it (RULES B.2)"
                )
    _put_down(rules, s, side, cards)
    s.melds[side].append((_next_meld_number(s), meld))
    if not hand:
        _hand_emptied(rules, s, move)


def _add(rules: Rules, s: _State, move: Move) -> None:
    card, index = move.card, move.index
    assert card is not None and index is not None
    if not s.hands[s.turn][card]:
        raise IllegalMoveError(f"{str(move)!r}: {card} is not in the hand")
    side = acting_side(rules, s)
    melds = s.melds[side]
    if index >= len(melds):
        raise IllegalMoveError(f"{str(move)!r}: the side has {len(melds)} meld(s)")
    number, meld = melds[index]
    try:
        changed = meld.add(card)
    except IllegalMoveError as error:
        raise IllegalMoveError(f"{str(move)!r}: {error}") from None
    _put_down(rules, s, side, (card,))
    melds[index] = (number, changed)
    if not s.hands[s.turn]:
        _hand_emptied(rules, s, move)


def _hand_emptied(rules: Rules, s: _State, move: Move) -> None:
    """A meld-phase action emptied the hand: RULES C.3 order (H-37)."""
    side = acting_side(rules, s)
    # (1) brazilian opening test.
    if provisional(rules, s, side):
        if _opening_short(s, side):
            _return_cards(rules, s, side)
            return
        _open(s, side)
    # (2) pozzetto on the fly.
    if may_take_packet(rules, s, side):
        packet = s.pozzetti[pot(rules, s)]  # type: ignore[index]
        s.hands[s.turn].update(packet[2])
        packet[:] = [IN_HAND, s.turn, []]
        _packet_taken(rules, s)
        return
    # (3) brazilian meld-out close.
    if rules.closing_discard == "optional" and may_close(rules, s, side):
        end_hand(s, ("closed", side))
        return
    # (4) otherwise illegal.
    if has_packet(rules, s, side):
        why = ("the side has its pozzetto and cannot close this way (RULES C.6: closing needs a "
               f"{_closing_burraco(rules)}"
               f"{'' if rules.closing_discard == 'optional' else ' and a final discard'})")
    else:
        why = "no pozzetto is left for the side, so it can never close (RULES C.4)"
    raise IllegalMoveError(f"{str(move)!r}: it would empty the hand, but {why}")


def _return_cards(rules: Rules, s: _State, side: int) -> None:
    """RULES C.3: a short opening; every card put down this turn goes back to the hand."""
    returned: Counter[Card] = Counter()
    for _number, meld in s.melds[side]:
        returned.update(meld.cards)
    s.melds[side] = []
    s.hands[s.turn].update(returned)
    s.known[s.turn].update(returned)  # they went back in front of everybody
    # docs/game.md: the requirement rises by the increment and stops at MAX_OPENING_NEED.
    s.need[side] = min(s.need[side] + rules.opening_fail_increment, MAX_OPENING_NEED)


def _open(s: _State, side: int) -> None:
    s.opened[side] = True
    if s.hold is not None and any(s.hold in meld.cards for _number, meld in s.melds[side]):
        s.hold = None  # RULES C.5: the held kind went down this turn and stays down


def _packet_taken(rules: Rules, s: _State) -> None:
    """RULES F.6: in 3p the first packet taken makes its taker the soloist and forms the pair."""
    if rules.players == 3 and s.split is None:
        s.split = s.turn
        pair: list[tuple[int, Meld]] = []
        for seat in range(3):
            if seat != s.turn:
                pair.extend(s.melds[seat])
                s.melds[seat] = []
        s.melds[3] = sorted(pair, key=lambda entry: entry[0])


# --- the discard and the end of the turn (RULES C.4-C.6, D) --------------------------------------


def _discard(rules: Rules, s: _State, move: Move) -> None:
    card = move.card
    assert card is not None
    problem = discard_problem(rules, s, card)
    if problem is not None:
        raise IllegalMoveError(f"{str(move)!r}: {problem}")
    side = acting_side(rules, s)
    short = False
    if provisional(rules, s, side) and s.melds[side]:
        # RULES C.3: the opening test when the meld phase ends.
        short = _opening_short(s, side)
        if not short:
            _open(s, side)
    hand = s.hands[s.turn]
    _take(hand, card)
    _forget(s.known[s.turn], card)
    s.pile[card] += 1
    s.top = card
    if short:
        # The discard came from the hand as it was; now the short opening's cards come back.
        _return_cards(rules, s, side)
        _end_of_turn(rules, s)
        return
    if not hand:
        if may_take_packet(rules, s, side):
            # RULES C.4: the packet is taken face down; it joins the hand next turn (H-36).
            packet = s.pozzetti[pot(rules, s)]  # type: ignore[index]
            status = SEEN if rules.pozzetto_reveal == "immediately" else FACE_DOWN
            packet[0], packet[1] = status, s.turn
            _packet_taken(rules, s)
        else:
            end_hand(s, ("closed", side))
            return
    _end_of_turn(rules, s)


def _end_of_turn(rules: Rules, s: _State) -> None:
    """After a discard that did not close: stock end, deadlock, or the next player's turn."""
    if s.last_turn:
        end_hand(s, "stock_exhausted")  # RULES D.2
        return
    if rules.stock_end_threshold == 0 and not s.stock and (
            not rules.pozzetto_becomes_stock or untaken_packet(s) is None):
        end_hand(s, "stock_exhausted")  # RULES D.3
        return
    force_next = False
    if s.took_single and not s.put_down:
        s.deadlock += 1  # RULES D.4: an exchange turn
        if s.deadlock >= rules.players:
            if rules.deadlock_rule == "end_hand":
                end_hand(s, "deadlock")
                return
            s.deadlock = 0
            force_next = True
    else:
        s.deadlock = 0
    _pass_turn(rules, s, force_next)


def _pass_turn(rules: Rules, s: _State, force_next: bool) -> None:
    finished = s.turn
    if rules.pozzetto_reveal == "after_partner_turn":
        for packet in s.pozzetti:
            owner = packet[1]
            if (packet[0] == FACE_DOWN and owner != finished
                    and side_of_seat(rules, owner, s.split)
                    == side_of_seat(rules, finished, s.split)):
                packet[0] = SEEN  # the owner looks at it after the partner's turn (RULES C.4)
    s.turn = (finished + 1) % rules.players
    s.phase = DRAW
    s.hold = None
    s.took_single = s.put_down = s.last_turn = s.first_draw = False
    s.force_draw = force_next
    for packet in s.pozzetti:
        if packet[0] in (FACE_DOWN, SEEN) and packet[1] == s.turn:
            s.hands[s.turn].update(packet[2])  # RULES H-36: it joins the hand before the draw
            packet[:] = [IN_HAND, s.turn, []]
    if not draw_phase_moves(rules, s):
        end_hand(s, "stock_exhausted")


def end_hand(s: _State, end: str | tuple[str, int]) -> None:
    """The hand ends (``('closed', side)``, ``'stock_exhausted'`` or ``'deadlock'``): no turn
    flag and no hold remain (RULES D)."""
    s.phase = OVER
    s.end = end
    s.hold = None
    s.took_single = s.put_down = s.last_turn = s.force_draw = s.first_draw = False
