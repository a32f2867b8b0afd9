"""Cards and multisets of cards (RULES 0.2 notation, RULES A.1-A.4).

A :class:`Card` is one of the 53 card kinds: 52 suited cards and the joker. The two physical copies
of a suited card (and the jokers among themselves) are interchangeable for every rule (RULES A.2),
so a pile of cards is a multiset of kinds: :class:`Cards`.

A multiset holds at most as many copies as the pack it comes from: ``decks`` copies of a suited
card and two jokers per deck. Two decks unless told otherwise (``Cards(text, decks=3)``); the
engine makes the cards of a three-deck game (RULES A.1, F.7) with ``decks=3``.

Notation (docs/api.md "Notation"): ranks ``A 2 3 4 5 6 7 8 9 T J Q K`` (``10`` is an alias of
``T``), suits ``c d h s``, the joker ``Jk``. Input is case-insensitive and may carry surrounding
white space; output is always canonical (``Qh``, ``Th``, ``Jk``).
"""

from __future__ import annotations

import numbers
import re
import sys
from collections import Counter
from collections.abc import Iterable, Iterator
from operator import attrgetter

from .._blank import Initialized
from .._errors import InvalidNotationError
from .._pickle import cards_of_pack

__all__ = [
    "RANKS",
    "SUITS",
    "JOKER_INDEX",
    "MAX_COPIES_PER_SUITED_CARD",
    "MAX_JOKERS",
    "DECKS",
    "Card",
    "Cards",
]

#: The rank letters in rank order: index 0 is the ace (rank value 1), index 12 the king (13).
RANKS = "A23456789TJQK"
#: The suit letters in canonical order (RULES 0.2): clubs < diamonds < hearts < spades.
SUITS = "cdhs"
#: The index of the joker, after the 52 suited cards.
JOKER_INDEX = 52
#: Two decks: two copies of every suited card ...
MAX_COPIES_PER_SUITED_CARD = 2
#: ... and at most four jokers (docs/api.md "Cards").
MAX_JOKERS = 4
#: The pack sizes a multiset may come from: two decks (the default), or three (RULES A.1, the
#: six-player brazilian game).
DECKS = (2, 3)

_RANK_VALUE_FROM_TEXT = {letter: value for value, letter in enumerate(RANKS, start=1)}
_RANK_VALUE_FROM_TEXT["10"] = 10  # RULES 0.2: `10` is an accepted alias of `T`
_SUIT_NUMBER_FROM_TEXT = {letter: number for number, letter in enumerate(SUITS)}

# Sorting key: the canonical order of RULES 0.2 is the order of card indices.
_BY_INDEX_KEY = attrgetter("index")

# A card list is cards separated by ASCII white space and/or commas (docs/api.md "Notation");
# any other white space (U+00A0, U+2003, U+2028, ...) is not a separator.
_CARD_LIST_SEPARATOR = re.compile(r"[ \t\n\r\x0b\x0c,]+")
#: The white space a card, a card list, a move or a layout may carry around it: ASCII only.
BLANKS = " \t\n\r\x0b\x0c"


def _parse_card_index(text: object) -> int:
    """The index (0..52) of the card written as ``text``; InvalidNotationError if it is not one."""
    if not isinstance(text, str):
        raise InvalidNotationError(
            f"{text!r} is not a card: expected a card string such as 'Qh' or a Card"
        )
    stripped = text.strip(BLANKS)
    if not stripped.isascii():
        raise InvalidNotationError(
            f"{text!r} is not a card: expected a rank (A 2-9 T J Q K, or 10) followed by a suit "
            f"(c d h s), or Jk, in ASCII letters"
        )
    upper = stripped.upper()
    if upper == "JK":
        return JOKER_INDEX
    rank_text, suit_text = upper[:-1], upper[-1:].lower()
    if rank_text not in _RANK_VALUE_FROM_TEXT or suit_text not in _SUIT_NUMBER_FROM_TEXT:
        raise InvalidNotationError(
            f"{text!r} is not a card: expected a rank (A 2-9 T J Q K, or 10) followed by a suit "
            f"(c d h s), or Jk"
        )
    return 13 * _SUIT_NUMBER_FROM_TEXT[suit_text] + _RANK_VALUE_FROM_TEXT[rank_text] - 1



def core_twin(name: str) -> type | tuple[()]:
    """The C++ engine's class ``name`` when ``burraco._core`` is loaded, else ``()`` (which
    ``isinstance`` matches with nothing). The two engines' values that print the same compare
    equal and hash alike (docs/api.md "Both engines"): the core answers NotImplemented to a class
    it does not know, so the reference's ``__eq__`` decides both ways round, and never imports
    the core to do it."""
    core = sys.modules.get("burraco._core")
    twin = getattr(core, name, None)
    return twin if isinstance(twin, type) else ()

class Card:
    """One card kind: a suited card such as ``Card('Qh')``, or the joker ``Card('Jk')``.

    ``Card(text)`` parses the notation leniently (``'qh'``, ``'QH'``, ``'10h'``, ``' Jk '``);
    ``Card(card)`` returns an equal card. Cards are immutable, hashable and totally ordered by
    :attr:`index`, which follows the canonical order of RULES 0.2 (suit c < d < h < s, then rank
    A < 2 < ... < K, joker last). There is exactly one object per kind; its attributes are computed
    once, when the 53 objects are made at import.
    """

    __slots__ = {
        "index": "The card index, 0..52: ``13 * suit + (rank - 1)`` with suits c=0, d=1, h=2, s=3; "
                 "joker 52.",
        "rank": "The rank letter (``'A'``, ``'2'`` .. ``'9'``, ``'T'``, ``'J'``, ``'Q'``, ``'K'``); "
                "None for the joker.",
        "suit": "The suit letter (``'c'``, ``'d'``, ``'h'``, ``'s'``); None for the joker.",
        "rank_value": "The rank as a number: A = 1, 2 = 2, ..., K = 13; 0 for the joker.",
        "is_joker": "True for the joker.",
        "is_two": "True for a two of any suit (a \"pinella\").",
        "is_ace": "True for an ace of any suit.",
        "is_wild": "True for the cards that are wild in hand: the joker and every two (RULES A.4). "
                   "In a run a two of the run's suit in slot 2 is a natural card instead; that is a "
                   "property of the card's place in a meld, not of the card.",
        "_text": "The canonical notation.",
    }
    index: int
    rank: str | None
    suit: str | None
    rank_value: int
    is_joker: bool
    is_two: bool
    is_ace: bool
    is_wild: bool
    _text: str

    _BY_INDEX: list[Card] = []

    def __new__(cls, card: Card | str) -> Card:
        """Parse ``card`` (a card string or a Card); InvalidNotationError for anything else."""
        if isinstance(card, Card):
            return card
        return cls._BY_INDEX[_parse_card_index(card)]

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card with this index: ``13 * suit + (rank - 1)`` (suits c=0 .. s=3), joker 52."""
        if (
            isinstance(index, bool)
            or not isinstance(index, numbers.Integral)
            or not 0 <= index <= JOKER_INDEX
        ):
            raise InvalidNotationError(
                f"{index!r} is not a card index: expected an integer from 0 to {JOKER_INDEX}"
            )
        return cls._BY_INDEX[int(index)]

    @classmethod
    def _make_all(cls) -> None:
        """Create the 53 card objects once (called at import)."""
        for index in range(JOKER_INDEX + 1):
            card = object.__new__(cls)
            is_joker = index == JOKER_INDEX
            rank_value = 0 if is_joker else index % 13 + 1
            values = {
                "index": index,
                "rank": None if is_joker else RANKS[rank_value - 1],
                "suit": None if is_joker else SUITS[index // 13],
                "rank_value": rank_value,
                "is_joker": is_joker,
                "is_two": rank_value == 2,
                "is_ace": rank_value == 1,
                "is_wild": is_joker or rank_value == 2,
            }
            values["_text"] = "Jk" if is_joker else f"{values['rank']}{values['suit']}"
            for name, value in values.items():
                object.__setattr__(card, name, value)
            cls._BY_INDEX.append(card)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Card is immutable: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"Card is immutable: cannot delete {name!r}")

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Card, (self._text,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card({self._text!r})"

    def __hash__(self) -> int:
        return self.index

    def __eq__(self, other: object) -> bool:
        # One object per kind, so identity is equality.
        if isinstance(other, Card):
            return self is other
        if isinstance(other, core_twin("Card")):
            return self._text == str(other)
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __lt__(self, other: object) -> bool:
        if isinstance(other, Card):
            return self.index < other.index
        return NotImplemented

    def __le__(self, other: object) -> bool:
        if isinstance(other, Card):
            return self.index <= other.index
        return NotImplemented

    def __gt__(self, other: object) -> bool:
        if isinstance(other, Card):
            return self.index > other.index
        return NotImplemented

    def __ge__(self, other: object) -> bool:
        if isinstance(other, Card):
            return self.index >= other.index
        return NotImplemented


Card._make_all()


def _copy_limit(card: Card, decks: int = 2) -> int:
    """How many copies of ``card`` a pack of ``decks`` decks holds: one per deck of a suited card,
    two jokers per deck (RULES A.1; docs/api.md "Cards")."""
    return 2 * decks if card.is_joker else decks


def _check_decks(decks: object) -> int:
    """``decks`` if it is 2 or 3, else InvalidNotationError quoting it."""
    if isinstance(decks, bool) or not isinstance(decks, int) or decks not in DECKS:
        raise InvalidNotationError(f"{decks!r} is not a number of decks: expected 2 or 3")
    return decks


def check_copies(cards: Cards, decks: int) -> None:
    """InvalidNotationError quoting ``cards`` if they hold more copies of a card than a pack of
    ``decks`` decks has (RULES A.1)."""
    cards._check_decks(decks, str(cards))


def _counter_from(source: object) -> Counter[Card]:
    """Read ``source`` (a card-list string, a Cards, or an iterable of cards/strings) as a Counter.

    The copy limit is not checked here.
    """
    if isinstance(source, Cards):
        return Counter(source._counter)
    if isinstance(source, str):
        tokens = [token for token in _CARD_LIST_SEPARATOR.split(source.strip(BLANKS)) if token]
        counter: Counter[Card] = Counter()
        for token in tokens:
            try:
                counter[Card(token)] += 1
            except InvalidNotationError:
                raise InvalidNotationError(
                    f"{source!r} is not a card list: {token!r} is not a card "
                    f"(expected a rank A 2-9 T J Q K or 10, then a suit c d h s; or Jk)"
                ) from None
        return counter
    if isinstance(source, (bytes, bytearray, Card)) or not isinstance(source, Iterable):
        # A lone Card is not a card list (docs/api.md lists strings, Cards and iterables): wrap it.
        raise InvalidNotationError(
            f"{source!r} is not a card list: expected a string such as '5h 6h 7h', "
            f"a Cards, or an iterable of Card objects or card strings"
        )
    counter = Counter()
    try:
        items = list(source)
    except Exception as error:  # a broken iterable must not escape as another exception type
        raise InvalidNotationError(f"{source!r} is not a card list: iterating it failed ({error})") from None
    for item in items:
        if not isinstance(item, (Card, str)):
            raise InvalidNotationError(
                f"{source!r} is not a card list: the item {item!r} is neither a Card nor a card string"
            )
        counter[Card(item)] += 1
    return counter


def _check_copy_limit(counter: Counter[Card], source: object, decks: int = 2) -> None:
    """InvalidNotationError if ``counter`` holds more copies of a card than ``decks`` decks have."""
    for card in sorted(counter, key=_BY_INDEX_KEY):
        limit = _copy_limit(card, decks)
        if counter[card] > limit:
            pack = "" if decks == 2 else f" with {decks} decks"
            raise InvalidNotationError(
                f"{source!r}: {counter[card]} copies of {card} (at most {limit}{pack})"
            )


class Cards(Initialized):
    """An immutable multiset of cards: a hand, a pile, the cards of a meld or of a move.

    ``Cards('5h 6h 7h Jk')``, ``Cards(['5h', Card('6h')])``, ``Cards(other)``, ``Cards()``. The
    order of the input is irrelevant; iteration yields the cards in canonical order (RULES 0.2),
    copies repeated. At most 2 copies of a suited card and 4 jokers (two decks): more raise
    InvalidNotationError. ``Cards(text, decks=3)`` allows a three-deck pack's 3 copies and 6
    jokers (RULES A.1); the result of an operator allows the larger pack of its operands, and
    ``==`` and ``hash`` ignore the pack (the same cards are the same multiset). Supports ``len``, ``in``, :meth:`count`, ``==``, ``hash``, ``bool``,
    sub-multiset comparisons (``<=``, ``<``, ``>=``, ``>``), ``+`` (sum), ``-`` (difference; the right
    side must be contained), ``|`` (max per card) and ``&`` (min per card); an operand may be a
    ``Cards`` or anything the constructor accepts. ``==`` is True only between two ``Cards``.
    """

    __slots__ = ("_counter", "_cards", "_decks")
    _counter: Counter[Card]
    _cards: tuple[Card, ...]
    _decks: int

    def __init__(self, cards: object = "", *, decks: int = 2) -> None:
        """Read ``cards``: a card-list string, a Cards, or an iterable of cards / card strings;
        at most the copies of a pack of ``decks`` decks (2 or 3)."""
        decks = _check_decks(decks)
        counter = _counter_from(cards)
        _check_copy_limit(counter, cards, decks)
        self._set_counter(counter, decks)

    def _set_counter(self, counter: Counter[Card], decks: int = 2) -> None:
        counter = Counter({card: count for card, count in counter.items() if count > 0})
        object.__setattr__(self, "_counter", counter)
        object.__setattr__(self, "_cards", tuple(sorted(counter.elements(), key=_BY_INDEX_KEY)))
        object.__setattr__(self, "_decks", decks)

    @classmethod
    def _from_cards(cls, cards: Iterable[Card], decks: int = 2) -> Cards:
        """A Cards from Card objects (internal: no parsing), checking the copy limit."""
        cards = tuple(cards)
        return cls._from_counter(Counter(cards), " ".join(map(str, cards)), decks)

    @classmethod
    def _from_counter(cls, counter: Counter[Card], source: object, decks: int = 2) -> Cards:
        """A Cards from a Counter, checking the copy limit of ``decks`` decks (``source`` is quoted
        on error)."""
        _check_copy_limit(counter, source, decks)
        result = object.__new__(cls)
        result._set_counter(counter, decks)
        return result

    @property
    def decks(self) -> int:
        """The pack whose copies this multiset may hold: 2 decks, or 3 (RULES A.1)."""
        return self._decks

    def _check_decks(self, decks: int, source: object) -> None:
        """InvalidNotationError if these cards hold more copies than ``decks`` decks have."""
        _check_copy_limit(self._counter, source, decks)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Cards is immutable: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"Cards is immutable: cannot delete {name!r}")

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        if self._decks == 2:
            return (Cards, (str(self),))
        return (cards_of_pack, (Cards, str(self), self._decks))

    # --- reading -------------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._cards)

    def __iter__(self) -> Iterator[Card]:
        return iter(self._cards)

    def __bool__(self) -> bool:
        return bool(self._cards)

    def __contains__(self, card: object) -> bool:
        return self._counter[Card(card)] > 0  # type: ignore[arg-type]

    def count(self, card: Card | str) -> int:
        """How many copies of ``card`` (a Card or a card string) this multiset holds."""
        return self._counter[Card(card)]

    def distinct(self) -> tuple[Card, ...]:
        """The distinct cards, in canonical order."""
        return tuple(sorted(self._counter, key=_BY_INDEX_KEY))

    def __str__(self) -> str:
        return " ".join(str(card) for card in self._cards)

    def __repr__(self) -> str:
        if self._decks == 2:
            return f"Cards({str(self)!r})"
        return f"Cards({str(self)!r}, decks={self._decks})"

    def __hash__(self) -> int:
        return hash(tuple(card.index for card in self._cards))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Cards):
            return self._cards == other._cards
        if isinstance(other, core_twin("Cards")):
            return str(self) == str(other)
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    # --- sub-multiset order --------------------------------------------------------------------

    def __le__(self, other: object) -> bool:
        other_counter = _operand(other, self._decks)._counter
        return all(count <= other_counter[card] for card, count in self._counter.items())

    def __lt__(self, other: object) -> bool:
        other_cards = _operand(other, self._decks)
        return self <= other_cards and len(self) < len(other_cards)

    def __ge__(self, other: object) -> bool:
        return _operand(other, self._decks) <= self

    def __gt__(self, other: object) -> bool:
        other_cards = _operand(other, self._decks)
        return other_cards <= self and len(self) > len(other_cards)

    # --- arithmetic ----------------------------------------------------------------------------

    # Each reads self before converting ``other``: an uninitialized Cards raises TypeError first.
    def __add__(self, other: object) -> Cards:
        counter = self._counter
        other_cards = _operand(other, self._decks)
        return Cards._from_counter(counter + other_cards._counter, f"{self} + {other_cards}",
                                   _larger(self, other_cards))

    def __radd__(self, other: object) -> Cards:
        counter = self._counter
        other_cards = _operand(other, self._decks)
        return Cards._from_counter(other_cards._counter + counter, f"{other_cards} + {self}",
                                   _larger(self, other_cards))

    def __sub__(self, other: object) -> Cards:
        self._counter  # noqa: B018 -- TypeError first if this Cards was never initialized
        return _difference(self, _operand(other, self._decks))

    def __rsub__(self, other: object) -> Cards:
        self._counter  # noqa: B018 -- TypeError first if this Cards was never initialized
        return _difference(_operand(other, self._decks), self)

    def __or__(self, other: object) -> Cards:
        other_cards = _operand(other, self._decks)
        return Cards._from_counter(self._counter | other_cards._counter, other,
                                   _larger(self, other_cards))

    __ror__ = __or__

    def __and__(self, other: object) -> Cards:
        other_cards = _operand(other, self._decks)
        return Cards._from_counter(self._counter & other_cards._counter, other,
                                   _larger(self, other_cards))

    __rand__ = __and__


def _operand(other: object, decks: int) -> Cards:
    """The other operand of a Cards operator, read as Cards of the pack of ``decks`` decks
    (InvalidNotationError if it is not)."""
    return other if isinstance(other, Cards) else Cards(other, decks=decks)


def _larger(one: Cards, other: Cards) -> int:
    """The larger pack of two operands: the one their result may hold."""
    return max(one._decks, other._decks)


def _difference(left: Cards, right: Cards) -> Cards:
    """``left - right``; InvalidNotationError if ``right`` is not contained in ``left``."""
    for card in right.distinct():
        if right.count(card) > left.count(card):
            raise InvalidNotationError(
                f"cannot take {str(right)!r} from {str(left)!r}: it holds {left.count(card)} of "
                f"{card}, not {right.count(card)}"
            )
    return Cards._from_counter(left._counter - right._counter, left, _larger(left, right))
