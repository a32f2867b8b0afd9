"""Remembered answers of pure functions that applying moves and listing them ask again and again:
the new meld of a multiset of cards, a lay-off onto a meld, and the Move values themselves.

Nothing here decides a rule: :class:`.melds.Meld` does (RULES B.2-B.6); this only keeps its answers
per rule set, shared by every game under those rules, and clears them when they grow large.
"""

from __future__ import annotations

import functools
from typing import Optional, Union

from .._errors import IllegalMoveError, InvalidMeldError
from .cards import JOKER_INDEX, Card, Cards
from .melds import Meld
from .moves import Move
from .rules import Rules

#: Every card kind by its index (0..52).
CARDS = [Card.from_index(index) for index in range(JOKER_INDEX + 1)]

# The group key of the move generator's new melds: ('set', the rank's four naturals, counts, wild
# counts) or ('run', suit, counts, wild counts).
GroupKey = tuple[str, Union[tuple[Card, ...], str], tuple[int, ...], tuple[int, ...]]
Memo = tuple[
    dict[tuple[int, ...], Optional[Meld]],
    dict[tuple[str, int], Optional[Meld]],
    dict[GroupKey, list[tuple[tuple[int, ...], Meld]]],
]
_MEMO: dict[Rules, Memo] = {}
_MEMO_LIMIT = 400_000


def memo(rules: Rules) -> Memo:
    """(new melds by card-index key, lay-offs by (layout, card index), new melds by rank or suit
    group: :func:`.movegen.valid_new_melds`) for ``rules``."""
    found = _MEMO.get(rules)
    if found is None or sum(len(table) for table in found) > _MEMO_LIMIT:
        found = _MEMO[rules] = ({}, {}, {})
    return found


def new_meld(key: tuple[int, ...], rules: Rules,
             table: dict[tuple[int, ...], Meld | None] | None = None) -> Meld | None:
    """The new meld of the cards with these indices (RULES B.2-B.4), or None if they are not one."""
    if table is None:
        table = memo(rules)[0]
    if key in table:
        return table[key]
    try:
        meld: Meld | None = Meld(Cards._from_cards((CARDS[index] for index in key), rules.decks),
                                 rules)
    except InvalidMeldError:
        meld = None
    table[key] = meld
    return meld


def meld_problem(key: tuple[int, ...], rules: Rules) -> str:
    """Why the cards with these indices are not a new meld (the meld's own words)."""
    try:
        Meld(Cards._from_cards((CARDS[index] for index in key), rules.decks), rules)
    except InvalidMeldError as error:
        return str(error)
    return "not a meld"


def lay_off(meld: Meld, card: Card,
            table: dict[tuple[str, int], Meld | None] | None = None) -> Meld | None:
    """``meld`` after laying ``card`` off onto it (RULES B.2, B.6), or None if that is refused."""
    if table is None:
        table = memo(meld.rules)[1]
    key = (meld.layout, card.index)
    if key in table:
        return table[key]
    try:
        result: Meld | None = meld.add(card)
    except IllegalMoveError:
        result = None
    table[key] = result
    return result


#: The moves of the draw phase, by their notation.
BARE_MOVES = {text: Move(text) for text in ("draw", "pile", "keep", "reject")}


@functools.cache
def meld_move(key: tuple[int, ...], decks: int) -> Move:
    """``meld`` of the cards with these indices (in canonical order)."""
    return Move._meld(Cards._from_cards((CARDS[index] for index in key), decks))


@functools.cache
def add_move(index: int, card: Card) -> Move:
    """``add index card``."""
    return Move._add(index, card)


@functools.cache
def discard_move(card: Card) -> Move:
    """``discard card``."""
    return Move._discard(card)
