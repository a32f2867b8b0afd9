"""pilewise's policy as a plain Python function over burraco.PolicyView and burraco.MoveList.

``policy(view, moves)`` returns the index into ``moves`` of the move to play; pass the function
itself, or ``burraco.Policy('pilewise.python:policy')``, wherever burraco takes a policy.

It is the twin of the Cython policy ``pilewise._native:policy`` and makes the same choice from the
same information: same integer arithmetic, same order of the candidates, same tie-breaks, the same
draws of ``view.random`` as ``burraco_random_below`` of the native call's stream. It plays by
the rules of the package's docstring (pilewise/__init__.py).

Cards are handled as their indices (``Card.index``: 13 * suit + rank - 1, the joker 52), the
numbering of the native interface.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Dict, List, Sequence, Tuple

if TYPE_CHECKING:
    from burraco import Cards, MoveList, PolicyView, Rules

__all__ = ["policy"]

JOKER = 52
WILD_COST = 4000
OPPONENT_MELD_COST = 1000
NEXT_SEAT_COST = 500
LATE_HAND = 3
LATE_STOCK = 8

_SUITS = "cdhs"
_RANKS = "A23456789TJQK"

# A meld as the lay-off test needs it: (is a set, rank of a set, suit of a run, lowest slot,
# highest slot).
_Meld = Tuple[bool, int, int, int, int]

_points_cache: Dict["Rules", List[int]] = {}


def _card_points(rules: "Rules") -> List[int]:
    """The points of each card index under `rules` (kept per rules)."""
    table = _points_cache.get(rules)
    if table is None:
        from burraco import Card

        table = [rules.card_points(Card.from_index(i)) for i in range(53)]
        _points_cache[rules] = table
    return table


def _is_wild(card: int) -> bool:
    return card == JOKER or card % 13 == 1


def _counts(cards: "Cards") -> List[int]:
    """Copies of each card index in `cards`."""
    counts = [0] * 53
    for card in cards:
        counts[card.index] += 1
    return counts


def _at_slot(counts: Sequence[int], suit: int, slot: int) -> int:
    """Copies of the natural of `suit` that fills run slot `slot` (1..14); 0 off the run or for a
    two."""
    if slot < 1 or slot > 14:
        return 0
    rank = 1 if slot == 14 else slot
    if rank == 2:
        return 0
    return counts[13 * suit + rank - 1]


def _slots(rank: int) -> Tuple[int, ...]:
    """The run slots of a natural of `rank`: the ace has two (1 and 14)."""
    return (1, 14) if rank == 1 else (rank,)


def _makes_meld(card: int, counts: Sequence[int]) -> bool:
    """Does natural `card` make a set or a run with two natural cards of `counts`?"""
    suit, rank = divmod(card, 13)
    rank += 1
    if sum(counts[13 * s + rank - 1] for s in range(4)) >= 2:
        return True
    for p in _slots(rank):
        below = _at_slot(counts, suit, p - 1)
        if below and (_at_slot(counts, suit, p - 2) or _at_slot(counts, suit, p + 1)):
            return True
        if _at_slot(counts, suit, p + 1) and _at_slot(counts, suit, p + 2):
            return True
    return False


def _lays_off(card: int, meld: _Meld) -> bool:
    """The cheap lay-off test of the module docstring, for natural `card`."""
    is_set, set_rank, run_suit, lo, hi = meld
    suit, rank = divmod(card, 13)
    rank += 1
    if is_set:
        return set_rank == rank
    if run_suit != suit:
        return False
    if rank == 1:
        return lo == 2 or hi == 13
    return rank == lo - 1 or rank == hi + 1


def _use_to_hand(card: int, hand: Sequence[int]) -> int:
    """What natural `card` is worth to the hand holding it (the module docstring's "use")."""
    suit, rank = divmod(card, 13)
    rank += 1
    use = 10 * (sum(hand[13 * s + rank - 1] for s in range(4)) - 1)
    for p in _slots(rank):
        use += 3 * (_at_slot(hand, suit, p - 1) + _at_slot(hand, suit, p + 1))
        use += _at_slot(hand, suit, p - 2) + _at_slot(hand, suit, p + 2)
    return use


def _meld_tuple(meld) -> _Meld:
    """A burraco.Meld as the lay-off test needs it."""
    if meld.kind == "set":
        return (True, _RANKS.index(meld.rank) + 1, -1, 0, 0)
    lo, hi = meld.span
    return (False, 0, _SUITS.index(meld.suit), lo, hi)


def _side_slots(view: "PolicyView") -> range:
    """The side slots of the game: 2, or 4 with three players."""
    return range(4) if view.players == 3 else range(2)


def _draw_choice(view: "PolicyView", moves: "MoveList") -> int:
    pile = draw = -1
    for i, move in enumerate(moves):
        kind = move.kind
        if kind == "keep":
            return i
        if kind == "pile" and pile < 0:
            pile = i
        if kind == "draw" and draw < 0:
            draw = i
    top = view.top
    if pile >= 0 and top is not None:
        card = top.index
        useful = _is_wild(card) or _makes_meld(card, _counts(view.hand))
        if not useful:
            useful = any(_lays_off(card, _meld_tuple(m)) for m in view.melds(view.side))
        if useful:
            return pile
    if draw >= 0:
        return draw
    return 0


def _reach_points(moves: "MoveList", points_of: Sequence[int]) -> int:
    """The points of every card some meld or lay-off among `moves` puts down, each card index
    counted as often as the one move that puts down most copies of it."""
    most = [0] * 53
    for move in moves:
        kind = move.kind
        if kind == "add" or kind == "meld":
            here = _counts(move.cards)
            for k in range(53):
                if here[k] > most[k]:
                    most[k] = here[k]
    return sum(n * p for n, p in zip(most, points_of))


def _meld_choice(view: "PolicyView", moves: "MoveList") -> int:
    side = view.side
    seat = view.seat
    hand = _counts(view.hand)
    hand_size = sum(hand)
    late = hand_size <= LATE_HAND or view.stock_size <= LATE_STOCK
    unopened = view.need[side] > 0 and not view.opened[side]
    own = view.melds(side)
    own_size = [len(m) for m in own]
    points_of = _card_points(view.rules)
    # unopened: put nothing down unless the turn can reach the requirement (while unopened, every
    # meld of the side was put down this turn)
    reach = sum(m.points for m in own) + _reach_points(moves, points_of)
    hold_back = unopened and reach < view.need[side]

    opponent_melds: List[_Meld] = [
        _meld_tuple(m) for s in _side_slots(view) if s != side for m in view.melds(s)
    ]
    next_seat = (seat + 1) % view.players
    next_known = _counts(view.known[next_seat]) if view.sides[next_seat] != side else None

    def discard_cost(card: int) -> int:
        if _is_wild(card):
            return WILD_COST
        cost = _use_to_hand(card, hand)
        if any(_lays_off(card, m) for m in opponent_melds):
            cost += OPPONENT_MELD_COST
        if next_known is not None and _makes_meld(card, next_known):
            cost += NEXT_SEAT_COST
        return cost

    best = [-1] * 6  # per class 1..5: the move with the largest key, the first on a tie
    key = [-1] * 6
    discards: List[Tuple[int, int, int]] = []  # (move index, cost, points)
    any_meld = any_add = -1
    any_meld_key = any_add_key = -1

    for i, move in enumerate(moves):
        kind = move.kind
        if kind == "discard":
            card = next(iter(move.cards)).index
            discards.append((i, discard_cost(card), points_of[card]))
            continue
        if kind == "meld":
            cards = [c.index for c in move.cards]
            size = len(cards)
            if size > any_meld_key:
                any_meld, any_meld_key = i, size
            if hold_back or (unopened and size + 2 > hand_size):
                continue
            if not any(_is_wild(c) for c in cards):
                c = 2
            elif size >= 4 or not own_size or late:
                c = 4
            else:
                continue
        elif kind == "add":
            size = own_size[move.index]
            if size > any_add_key:
                any_add, any_add_key = i, size
            if hold_back or (unopened and 3 > hand_size):
                continue
            card = next(iter(move.cards)).index
            if not _is_wild(card):
                c = 1
            elif size == 6:
                c = 3
            elif late:
                c = 5
            else:
                continue
        else:
            continue
        if size > key[c]:
            best[c], key[c] = i, size

    for c in range(1, 6):
        if best[c] >= 0:
            return best[c]
    if not discards:
        if any_meld >= 0:
            return any_meld
        if any_add >= 0:
            return any_add
        return 0
    # the lowest cost, then the most points, then uniformly among the discards still tied
    low = min(cost for _, cost, _ in discards)
    high = max(points for _, cost, points in discards if cost == low)
    tied = [i for i, cost, points in discards if cost == low and points == high]
    if len(tied) == 1:
        return tied[0]
    return tied[view.random.below(len(tied))]


def policy(view: "PolicyView", moves: "MoveList") -> int:
    """pilewise's choice among ``moves`` for the seat of ``view`` (the rules in the module
    docstring): the index of the move to play."""
    if view.phase == "draw":
        return _draw_choice(view, moves)
    return _meld_choice(view, moves)
