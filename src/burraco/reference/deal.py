"""The deal (docs/game.md "Deal", RULES F.2-F.5): the checks of a new hand's arguments, the
shuffled pack and the brazilian cut of a seed, and the position a pack order deals.
"""

from __future__ import annotations

import operator
import re
from collections import Counter
from collections.abc import Iterable

from .._errors import InvalidNotationError
from .apply import draw_phase_moves, end_hand
from .cards import BLANKS, Card
from .rng import Xoshiro256StarStar, shuffle
from .rules import Rules
from .seats import side_of_seat
from .state import (
    DRAW,
    MAX_SCORE,
    UNTAKEN,
    Setup,
    _opening_requirement,
    _State,
    _unshuffled_deck,
    side_slots,
)


def check_supported(rules: Rules) -> None:
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


def check_scores(rules: Rules, scores: object) -> tuple[int, ...]:
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


def check_deck(rules: Rules, deck: object) -> list[Card]:
    """An explicit pack order (a card-list string or an iterable of cards): the full pack of
    ``rules``, else InvalidNotationError."""
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


def shuffled(rules: Rules, seed: int, first: int) -> tuple[list[Card], int | None]:
    """The pack order a seed deals (the unshuffled pack, Fisher-Yates with xoshiro256**), and the
    side credited with the brazilian cut (RULES F.5: one more output of the same generator, the
    cutter the seat before the dealer), or None."""
    order = _unshuffled_deck(rules)
    generator = Xoshiro256StarStar(seed)
    shuffle(order, generator)
    cut = None
    if rules.cut_exact_probability > 0 and generator.unit_float() < rules.cut_exact_probability:
        cut = side_of_seat(rules, (first - 2) % rules.players, None)
    return order, cut


def deal(setup: Setup, order: list[Card]) -> _State:
    """The position before the first move: hands dealt from the front of ``order`` one card at a
    time from the first player, then the packets a card at a time, the start card, the stock."""
    rules, first = setup.rules, setup.first
    players, slots = rules.players, side_slots(rules)
    s = object.__new__(_State)
    s.hands = [Counter() for _ in range(players)]
    dealt = rules.hand_size * players
    for position in range(dealt):
        s.hands[(first + position) % players][order[position]] += 1
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
    s.turn, s.phase = first, DRAW
    s.melds = [[] for _ in range(slots)]
    s.hold = None
    minimum = rules.opening_minimum
    s.opened = [False] * slots
    s.need = [0] * slots
    if minimum is not None:
        for side in range(slots):
            score = setup.scores[side] + (rules.cut_bonus if setup.cut == side else 0)
            s.need[side] = _opening_requirement(minimum, score)
    s.deadlock = 0
    s.took_single = s.put_down = s.last_turn = s.force_draw = False
    s.first_draw = rules.first_draw_rule == "may_reject_first_card"
    s.split, s.end = None, None
    if not draw_phase_moves(rules, s):
        end_hand(s, "stock_exhausted")
    return s
