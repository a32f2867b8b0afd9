"""Sets: 3 or more cards of one rank, at most one wild (RULES B.2).

A set is written here as a :class:`SetLayout`: its rank, its natural cards (canonical order) and its
wild (if any). A wild in a set stands for "one more card of the set's rank"; it has no position, so
adding naturals never frees it, moves it or makes the set clean.
"""

from __future__ import annotations

from typing import NamedTuple, cast

from .._errors import IllegalMoveError, InvalidMeldError
from .cards import Card, Cards
from .rules import Rules

__all__ = ["SetLayout", "set_problem", "new_set", "lay_off_on_set", "set_layout_text"]


class SetLayout(NamedTuple):
    """A set: its rank letter, its natural cards in canonical order, and its wild (or None)."""

    rank: str
    naturals: tuple[Card, ...]
    wild: Card | None

    def cards_in_layout_order(self) -> list[Card]:
        """The naturals in canonical order, then the wild."""
        return list(self.naturals) + ([] if self.wild is None else [self.wild])


def set_layout_text(layout: SetLayout) -> str:
    """The layout notation: naturals in canonical order, then the wild as ``Jk(=K)`` (docs/api.md)."""
    words = [str(card) for card in layout.naturals]
    if layout.wild is not None:
        words.append(f"{layout.wild}(={layout.rank})")
    return " ".join(words)


def set_problem(layout: SetLayout, rules: Rules) -> str | None:
    """Why ``layout`` is not a legal set under ``rules`` (RULES B.2), or None."""
    rank = layout.rank
    if not rules.sets_allowed:
        return "sets are not allowed (sets_allowed=False)"
    if rank == "2":
        return "there are no sets of twos (a two in a set is always a wild)"
    if rank not in rules.set_ranks:
        return f"sets of rank {rank} are not allowed (set_ranks={rules.set_ranks!r})"
    for card in layout.naturals:
        if card.is_wild:
            return f"{card} acts as a wild in a set, it cannot be one of its naturals"
        if card.rank != rank:
            return f"{card} is not of the set's rank ({rank})"
    if layout.wild is not None and not layout.wild.is_wild:
        return f"{layout.wild} cannot act as a wild (only jokers and twos can)"
    size = len(layout.naturals) + (0 if layout.wild is None else 1)
    if size < 3:
        return "fewer than 3 cards"
    # RULES B.2: at most one wild, hence at least 2 naturals.
    if len(layout.naturals) < 2:
        return "a set needs at least 2 natural cards"
    if size > rules.max_set_size:
        return f"too many cards: {size} (max_set_size={rules.max_set_size})"
    return None


def new_set(cards: Cards, rules: Rules) -> SetLayout:
    """The set made of ``cards`` (RULES B.2), or InvalidMeldError saying why it is not one."""
    text = str(cards)
    if len(cards) < 3:
        raise InvalidMeldError(f"{text!r} is not a meld: fewer than 3 cards")
    naturals = tuple(card for card in cards if not card.is_wild)
    wilds = [card for card in cards if card.is_wild]
    if not naturals:
        if all(card.is_two for card in cards):
            raise InvalidMeldError(f"{text!r} is not a meld: there are no sets of twos (all wild)")
        raise InvalidMeldError(f"{text!r} is not a meld: all wild")
    ranks = sorted({cast(str, card.rank) for card in naturals})  # a natural card has a rank
    if len(ranks) > 1:
        raise InvalidMeldError(f"{text!r} is not a set: mixed ranks ({', '.join(ranks)})")
    if len(wilds) > 1:
        raise InvalidMeldError(f"{text!r} is not a meld: two wilds (at most one card may act as a wild)")
    layout = SetLayout(ranks[0], naturals, wilds[0] if wilds else None)
    problem = set_problem(layout, rules)
    if problem is not None:
        raise InvalidMeldError(f"{text!r} is not a set: {problem}")
    return layout


def lay_off_on_set(before: SetLayout, card: Card, rules: Rules) -> SetLayout:
    """The set after laying ``card`` off onto ``before`` (RULES B.2), or IllegalMoveError.

    A natural of the set's rank may be added while the set is below max_set_size; a wild (joker or
    any two) only if the set has none yet.
    """
    prefix = f"cannot add {str(card)!r} to the set {set_layout_text(before)!r}"
    size = len(before.naturals) + (0 if before.wild is None else 1)
    if card.is_wild:
        if before.wild is not None:
            raise IllegalMoveError(
                f"{prefix}: the set already has a wild ({before.wild}); at most one wild per meld"
            )
        after = SetLayout(before.rank, before.naturals, card)
    else:
        if card.rank != before.rank:
            raise IllegalMoveError(f"{prefix}: {card} is not of the set's rank ({before.rank})")
        if before.naturals.count(card) >= rules.decks:
            # The pack holds one copy of a suited card per deck (RULES A.1, A.2).
            every = "both copies" if rules.decks == 2 else f"all {rules.decks} copies"
            raise IllegalMoveError(f"{prefix}: the set already holds {every} of {card}")
        after = SetLayout(before.rank, tuple(sorted(before.naturals + (card,))), before.wild)
    if size >= rules.max_set_size:
        raise IllegalMoveError(
            f"{prefix}: the set already has {size} cards (max_set_size={rules.max_set_size})"
        )
    problem = set_problem(after, rules)
    if problem is not None:
        raise IllegalMoveError(f"{prefix}: {problem}")
    return after
