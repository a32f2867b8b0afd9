"""Moves: the atomic actions of a turn (docs/game.md "Phases and moves").

``Move('draw')``, ``Move('pile')``, ``Move('keep')``, ``Move('reject')``, ``Move('meld 5h 6h 7h')``,
``Move('add 2 8h')``, ``Move('discard Qs')``. Input is lenient (case, spacing, ``10h``, any card
order for a meld); ``str`` is the canonical notation. Moves are immutable, hashable and ordered by
the canonical move order: by kind (draw, pile, keep, reject, meld, add, discard), melds by their
card lists compared card by card in canonical card order (a prefix first), adds by meld index then
card, discards by card.

``Move(text)`` reads the cards of a two-deck pack; a game reads a move with its own pack
(:meth:`Move._parse`), so ``game.push('meld 5h 5h 5h')`` is a move of a three-deck game.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .._errors import InvalidNotationError
from .cards import BLANKS, Card, Cards, _copy_limit, core_twin

__all__ = ["KINDS", "Move", "MoveList"]

#: The move kinds, in the canonical order (docs/game.md "Phases and moves").
KINDS = ("draw", "pile", "keep", "reject", "meld", "add", "discard")
_KIND_ORDER = {kind: number for number, kind in enumerate(KINDS)}
_BARE_KINDS = ("draw", "pile", "keep", "reject")
_SEPARATOR = re.compile(r"[ \t\n\r\x0b\x0c,]+")  # ASCII white space and commas only
#: The largest meld index the notation accepts; an index naming no meld is refused by ``push``.
MAX_MOVE_INDEX = 999_999_999


class Move:
    """One atomic move, parsed from its notation; immutable, hashable, ordered canonically."""

    __slots__ = ("_cards", "_index", "_key", "_kind", "_text")
    _kind: str
    _cards: Cards
    _index: int | None
    _text: str
    _key: tuple[int, tuple[int | None, ...]]  # (kind order, card indices; an add's index first)

    def __new__(cls, move: Move | str) -> Move:
        """Parse ``move`` (its notation, or a Move); InvalidNotationError if it is not a move."""
        return cls._parse(move, 2)

    @classmethod
    def _parse(cls, move: Move | str, decks: int) -> Move:
        """``Move(move)`` with the cards of a pack of ``decks`` decks (RULES A.1)."""
        if isinstance(move, Move):
            return move
        if not isinstance(move, str):
            raise InvalidNotationError(f"{move!r} is not a move: expected a string such as 'draw'")
        words = [word for word in _SEPARATOR.split(move.strip(BLANKS)) if word]
        if not words:
            raise InvalidNotationError(f"{move!r} is not a move: it is empty")
        kind = words[0].lower()
        if kind in _BARE_KINDS:
            if len(words) != 1:
                raise InvalidNotationError(f"{move!r} is not a move: {kind!r} takes no argument")
            return cls._make(kind, Cards(), None)
        if kind == "meld":
            if len(words) < 2:
                raise InvalidNotationError(f"{move!r} is not a move: 'meld' needs cards")
            return cls._make(kind, _cards(move, words[1:], decks), None)
        if kind == "add":
            if len(words) != 3:
                raise InvalidNotationError(
                    f"{move!r} is not a move: expected 'add <meld index> <card>'"
                )
            if not words[1].isdigit() or not words[1].isascii():
                raise InvalidNotationError(
                    f"{move!r} is not a move: {words[1]!r} is not a meld index (0, 1, ...)"
                )
            index = int(words[1])
            if index > MAX_MOVE_INDEX:
                raise InvalidNotationError(
                    f"{move!r} is not a move: meld index {words[1]!r} is above {MAX_MOVE_INDEX}"
                )
            return cls._make(kind, _cards(move, words[2:], decks), index)
        if kind == "discard":
            if len(words) != 2:
                raise InvalidNotationError(f"{move!r} is not a move: expected 'discard <card>'")
            return cls._make(kind, _cards(move, words[1:], decks), None)
        raise InvalidNotationError(
            f"{move!r} is not a move: expected draw, pile, keep, reject, meld, add or discard"
        )

    @classmethod
    def _make(cls, kind: str, cards: Cards, index: int | None) -> Move:
        move = object.__new__(cls)
        cards = _in_smallest_pack(cards)
        if kind == "meld":
            text = f"meld {cards}"
            payload: tuple[int | None, ...] = tuple(card.index for card in cards)
        elif kind == "add":
            text = f"add {index} {cards}"
            payload = (index, next(iter(cards)).index)
        elif kind == "discard":
            text = f"discard {cards}"
            payload = (next(iter(cards)).index,)
        else:
            text, payload = kind, ()
        object.__setattr__(move, "_kind", kind)
        object.__setattr__(move, "_cards", cards)
        object.__setattr__(move, "_index", index)
        object.__setattr__(move, "_text", text)
        object.__setattr__(move, "_key", (_KIND_ORDER[kind], payload))
        return move

    @classmethod
    def _meld(cls, cards: Cards) -> Move:
        return cls._make("meld", cards, None)

    @classmethod
    def _add(cls, index: int, card: Card) -> Move:
        return cls._make("add", Cards._from_cards((card,)), index)

    @classmethod
    def _discard(cls, card: Card) -> Move:
        return cls._make("discard", Cards._from_cards((card,)), None)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Move is immutable: cannot set {name!r}")

    def __reduce__(self) -> tuple[object, tuple[str] | tuple[str, int]]:
        if self._cards.decks == 2:
            return (Move, (self._text,))
        return (_move_of_decks, (self._text, self._cards.decks))

    @property
    def kind(self) -> str:
        """``'draw'``, ``'pile'``, ``'keep'``, ``'reject'``, ``'meld'``, ``'add'`` or ``'discard'``."""
        return self._kind

    @property
    def cards(self) -> Cards:
        """The cards of a meld, the one card of an add or a discard; empty otherwise."""
        return self._cards

    @property
    def card(self) -> Card | None:
        """The one card of an add or a discard; None otherwise."""
        if self._kind in ("add", "discard"):
            return next(iter(self._cards))
        return None

    @property
    def index(self) -> int | None:
        """The meld index of an add; None otherwise."""
        return self._index

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Move({self._text!r})"

    def __hash__(self) -> int:
        return hash(self._text)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Move):
            return self._text == other._text
        if isinstance(other, core_twin("Move")):  # the core's, printed the same (cards.core_twin)
            return self._text == str(other)
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __lt__(self, other: object) -> bool:
        if isinstance(other, Move):
            return self._key < other._key
        return NotImplemented

    def __le__(self, other: object) -> bool:
        if isinstance(other, Move):
            return self._key <= other._key
        return NotImplemented

    def __gt__(self, other: object) -> bool:
        if isinstance(other, Move):
            return self._key > other._key
        return NotImplemented

    def __ge__(self, other: object) -> bool:
        if isinstance(other, Move):
            return self._key >= other._key
        return NotImplemented


def _move_of_decks(text: str, decks: int) -> Move:
    """Rebuild a move of a three-deck game (pickle support)."""
    return Move._parse(text, decks)


def _in_smallest_pack(cards: Cards) -> Cards:
    """``cards`` with the smallest pack that holds them. A move is a value of its own, apart from
    the game it was read in (``Move(text)`` reads two decks): its cards say ``decks=3`` only when
    they hold more copies of a card than two decks have (a set of three copies)."""
    if cards.decks == 2:
        return cards
    two_decks = all(cards.count(card) <= _copy_limit(card, 2) for card in set(cards))
    return Cards._from_cards(list(cards), 2) if two_decks else cards


def _cards(move: str, words: list[str], decks: int) -> Cards:
    """The cards named by ``words``, or InvalidNotationError quoting the whole move."""
    try:
        return Cards(" ".join(words), decks=decks)
    except InvalidNotationError as error:
        raise InvalidNotationError(f"{move!r} is not a move: {error}") from None


class MoveList(list[Move]):
    """The legal moves of a position, in canonical order (docs/search.md "Stepping from Python").

    A ``list`` of :class:`Move` with the core's extras: :meth:`strings` gives the notations; ``in``,
    :meth:`index` and :meth:`count` take a Move or its notation (lenient, as ``Move()`` reads it);
    ``==`` holds with another MoveList or a list or tuple of the same Moves.
    """

    __slots__ = ()

    def __new__(cls, *moves: Iterable[Move]) -> MoveList:
        # MoveList(moves) only: an empty one made by MoveList.__new__(MoveList) would pass for the
        # moves of a position that has none (the core refuses such an object, docs/api.md).
        if len(moves) != 1:
            raise TypeError(f"MoveList.__new__ takes the moves of a position: MoveList(moves), "
                            f"got {len(moves)} arguments")
        return super().__new__(cls)  # list.__init__ fills it

    def __reduce__(self) -> tuple[object, tuple[list[Move]]]:
        return (MoveList, (list(self),))

    def strings(self) -> list[str]:
        """The moves' canonical notations, in order."""
        return [str(move) for move in self]

    @staticmethod
    def _as_move(item: object) -> Move | None:
        """``item`` as a Move (a Move, or a notation that parses), else None."""
        if isinstance(item, Move):
            return item
        if isinstance(item, str):
            try:
                # The largest pack: a list holds only the moves of its game, whatever its pack.
                return Move._parse(item, 3)
            except InvalidNotationError:
                return None
        return None

    def __contains__(self, item: object) -> bool:
        move = self._as_move(item)
        return move is not None and list.__contains__(self, move)

    # list.index names its bounds start and stop; these are positional only.
    def index(self, item: object, *bounds: int) -> int:  # type: ignore[override]
        """The position of a Move or notation (ValueError if it is not in the list)."""
        move = self._as_move(item)
        if move is None:
            raise ValueError(f"{item!r} is not a legal move here")
        try:
            return list.index(self, move, *bounds)
        except ValueError:
            raise ValueError(f"{str(move)!r} is not a legal move here") from None

    def count(self, item: object) -> int:
        """1 if the Move or notation is in the list, else 0 (each legal move is listed once)."""
        move = self._as_move(item)
        return 0 if move is None else list.count(self, move)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (list, tuple)):
            return len(self) == len(other) and all(
                isinstance(theirs, Move) and mine == theirs for mine, theirs in zip(self, other)
            )
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = None
