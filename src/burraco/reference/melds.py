"""Melds on the table: :class:`Meld` (one set or run) and :class:`Melds` (one side's melds).

A new meld is built from a multiset of cards (RULES B.2-B.4); an exact table state, whose history
matters for runs (a natural ace laid high stays high), is read with :meth:`Meld.from_layout`.
Lay-offs follow RULES B.2 (sets) and B.6 (runs); classification follows RULES B.7.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any, Union, cast

from .._blank import Initialized
from .._errors import IllegalMoveError, InvalidMeldError, InvalidNotationError
from .._pickle import meld_of_layout
from .cards import BLANKS, RANKS, Card, Cards, check_copies, core_twin
from .rules import DEFAULT_RULES, Rules
from .runs import (
    RunLayout,
    canonical_new_run,
    canonical_position,
    lay_off_on_run,
    run_layout_text,
    run_problem,
    slot_card,
    unreachable_problem,
    wild_state,
)
from .sets import SetLayout, lay_off_on_set, new_set, set_layout_text, set_problem

__all__ = ["Meld", "Melds"]

_Shape = Union[RunLayout, SetLayout]

# One word of a layout: a card, then optionally "(=what it stands for)", then optionally "[tag]".
_LAYOUT_WORD = re.compile(
    r"^(?P<card>[^()\[\]]+)(?:\(=(?P<stands>[^()\[\]]*)\))?(?:\[(?P<tag>[^\[\]]*)\])?$"
)
_LAYOUT_SEPARATOR = re.compile(r"[ \t\n\r\x0b\x0c,]+")  # ASCII white space and commas only
_TAGS = ("free-low", "free-high", "bound", "orphan", "set")
_RANK_ALIASES = {letter: letter for letter in RANKS} | {"10": "T"}


def _rules_argument(rules: object) -> Rules:
    """``rules`` itself, or the default italian rules for None; InvalidNotationError otherwise."""
    if rules is None:
        return DEFAULT_RULES
    if not isinstance(rules, Rules):
        raise InvalidNotationError(f"{rules!r} is not a Rules (expected burraco.reference.Rules or None)")
    return rules


def _check_same_rules(meld: Meld, rules: Rules) -> None:
    """InvalidNotationError if ``meld`` was made under rules other than ``rules``."""
    if meld.rules != rules:
        raise InvalidNotationError(f"{meld!r} was made under other rules than {rules!r}")


def _multiset(cards: object, rules: Rules) -> Cards:
    """``cards`` as a Cards that the rules' pack holds (InvalidNotationError quoting it if it
    holds more copies: RULES A.1)."""
    if isinstance(cards, Cards):
        check_copies(cards, rules.decks)
        return cards
    return Cards(cards, decks=rules.decks)


def _new_meld_shape(cards: Cards, rules: Rules) -> _Shape:
    """The set or canonical run made of ``cards`` (RULES B.2-B.4), or InvalidMeldError."""
    text = str(cards)
    if len(cards) < 3:
        raise InvalidMeldError(f"{text!r} is not a meld: fewer than 3 cards")
    naturals = [card for card in cards if not card.is_wild]
    if not naturals:
        # RULES B.1 item 3 and B.2: no all-wild melds, no sets of twos.
        if all(card.is_two for card in cards):
            raise InvalidMeldError(f"{text!r} is not a meld: there are no sets of twos (all wild)")
        raise InvalidMeldError(f"{text!r} is not a meld: all wild")
    # Two or more non-wild cards of one rank can only be a set: a run holds at most one card of a
    # rank, except the two aces of a brazilian A..K..A run, which also holds other ranks.
    if len(naturals) >= 2 and len({card.rank for card in naturals}) == 1:
        return new_set(cards, rules)
    return canonical_new_run(cards, rules)


# --- reading a layout -------------------------------------------------------------------------


def _layout_words(text: str) -> list[tuple[Card, str | None, str | None]]:
    """Split a layout into (card, stands-for text or None, tag or None) words."""
    words = []
    for word in _LAYOUT_SEPARATOR.split(text.strip(BLANKS)):
        if not word:
            continue
        match = _LAYOUT_WORD.match(word)
        if match is None:
            raise InvalidNotationError(
                f"{text!r} is not a meld layout: cannot read {word!r} (expected a card such as "
                f"'5d', or a wild such as 'Jk(=4d)' or 'Jk(=K)', optionally followed by a tag)"
            )
        try:
            card = Card(match["card"])
        except InvalidNotationError:
            raise InvalidNotationError(
                f"{text!r} is not a meld layout: {match['card']!r} is not a card"
            ) from None
        stands, tag = match["stands"], match["tag"]
        if tag is not None:
            tag = tag.strip(BLANKS).lower()
            if tag not in _TAGS:
                raise InvalidNotationError(
                    f"{text!r} is not a meld layout: unknown tag [{tag}] (expected one of "
                    f"{', '.join(_TAGS)})"
                )
            if stands is None:
                raise InvalidNotationError(
                    f"{text!r} is not a meld layout: the tag [{tag}] follows {card}, which is not "
                    f"written as a wild"
                )
        words.append((card, stands, tag))
    return words


def _stands_for(text: str, stands: str) -> Card | str:
    """The card (run) or rank letter (set) a wild stands for, read from the ``(=...)`` text."""
    cleaned = stands.strip(BLANKS).upper()
    if cleaned in _RANK_ALIASES:
        return _RANK_ALIASES[cleaned]
    try:
        card = Card(stands)
    except InvalidNotationError:
        raise InvalidNotationError(
            f"{text!r} is not a meld layout: (={stands}) is neither a card nor a rank"
        ) from None
    if card.is_joker:
        raise InvalidMeldError(f"{text!r} is not a meld: a wild cannot stand for a joker")
    return card


def _parse_layout(text: object, rules: Rules) -> _Shape:
    """The meld state written as ``text`` (docs/api.md "Layout"), or an error saying why not."""
    if not isinstance(text, str):
        raise InvalidNotationError(f"{text!r} is not a meld layout: expected a string")
    words = _layout_words(text)
    # More copies than the rules' decks hold is a notation error, as for any card list.
    Cards([card for card, _stands, _tag in words], decks=rules.decks)
    if len(words) < 3:
        raise InvalidMeldError(f"{text!r} is not a meld: fewer than 3 cards")
    readings = [(card, None if stands is None else _stands_for(text, stands), tag)
                for card, stands, tag in words]
    annotations = [stands for _card, stands, _tag in readings if stands is not None]
    set_annotations = [stands for stands in annotations if isinstance(stands, str)]
    if set_annotations and len(set_annotations) != len(annotations):
        raise InvalidMeldError(f"{text!r} is not a meld: it mixes set and run wild annotations")
    if len(annotations) > 1:
        raise InvalidMeldError(f"{text!r} is not a meld: two wilds (at most one card may act as a wild)")
    # As for a new meld: two or more non-wild cards of one rank can only be a set.
    bare_naturals = [card for card, stands, _tag in readings if stands is None and not card.is_wild]
    looks_like_a_set = (len(bare_naturals) >= 2 and len({card.rank for card in bare_naturals}) == 1)
    all_twos = all(card.is_two for card, _stands, _tag in readings)
    if set_annotations or (not annotations and (looks_like_a_set or all_twos)):
        return _parse_set_layout(text, readings, rules)
    return _parse_run_layout(text, readings, rules)


def _parse_set_layout(text: str, readings: list[tuple[Card, Any, str | None]],
                      rules: Rules) -> SetLayout:
    naturals = [card for card, stands, _tag in readings if stands is None]
    wild_words = [(card, stands, tag) for card, stands, tag in readings if stands is not None]
    if naturals and all(card.is_two for card in naturals) and not wild_words:
        raise InvalidMeldError(f"{text!r} is not a meld: there are no sets of twos (all wild)")
    for card in naturals:
        if card.is_wild:
            raise InvalidMeldError(
                f"{text!r} is not a meld layout: {card} acts as a wild in a set; write it with the "
                f"rank it stands for, e.g. {card}(=K)"
            )
    wild = None
    if wild_words:
        wild, rank, tag = wild_words[0]
        if tag not in (None, "set"):
            raise InvalidMeldError(f"{text!r} is not a meld: the wild of a set is tagged [set], not [{tag}]")
    else:
        rank = naturals[0].rank
    layout = SetLayout(rank, tuple(sorted(naturals)), wild)
    problem = set_problem(layout, rules)
    if problem is not None:
        raise InvalidMeldError(f"{text!r} is not a set: {problem}")
    return layout


def _layout_slots(card: Card) -> tuple[int, ...]:
    """The slots a card written in a run layout may occupy, before any rules knob."""
    if card.is_ace:
        return (1, 14)
    return (card.rank_value,)


def _parse_run_layout(text: str, readings: list[tuple[Card, Any, str | None]],
                      rules: Rules) -> RunLayout:
    # The suit is fixed by the written naturals that are not twos, else by the wild's annotation.
    fixed_suits = {cast(str, card.suit)  # a card that is not wild has a suit
                   for card, stands, _tag in readings if stands is None and not card.is_wild}
    fixed_suits |= {stands.suit for _card, stands, _tag in readings if stands is not None}
    if len(fixed_suits) > 1:
        raise InvalidMeldError(f"{text!r} is not a run: mixed suits ({', '.join(sorted(fixed_suits))})")
    if not fixed_suits:
        raise InvalidMeldError(f"{text!r} is not a meld: all wild")
    suit = fixed_suits.pop()
    for card, stands, _tag in readings:
        if stands is None and card.is_wild and (card.is_joker or card.suit != suit):
            raise InvalidMeldError(
                f"{text!r} is not a meld layout: {card} can only act as a wild here; write it with "
                f"the card it stands for, e.g. {card}(={slot_card(suit, 5)})"
            )
    if len(readings) > 14:
        raise InvalidMeldError(f"{text!r} is not a run: too long, {len(readings)} cards (at most 14)")
    # Find the slot of the first word: every word must then sit in the next slot.
    first_slot = None
    for start in range(1, 15 - len(readings) + 1):
        if all(start + position in _layout_slots(stands if stands is not None else card)
               for position, (card, stands, _tag) in enumerate(readings)):
            first_slot = start
            break
    if first_slot is None:
        raise InvalidMeldError(
            f"{text!r} is not a run: the cards do not sit in consecutive slots (a run is written from "
            f"low to high, every card in the slot of its rank, a wild in the slot of the card it "
            f"stands for)"
        )
    naturals = []
    wild = wild_slot = tag = None
    for position, (card, stands, word_tag) in enumerate(readings):
        slot = first_slot + position
        if stands is None:
            naturals.append((slot, card))
        else:
            wild, wild_slot, tag = card, slot, word_tag
    written = RunLayout(suit, tuple(naturals), wild, wild_slot)
    problem = run_problem(written, rules) or unreachable_problem(written, rules)
    if problem is not None:
        raise InvalidMeldError(f"{text!r} is not a run: {problem}")
    if tag is not None and tag != wild_state(written, rules):
        raise InvalidMeldError(
            f"{text!r}: the wild is tagged [{tag}] but it is {wild_state(written, rules)}"
        )
    return canonical_position(written, rules)


# --- Meld -------------------------------------------------------------------------------------


class Meld(Initialized):
    """One meld on the table: a set or a run, with its exact layout (immutable).

    ``Meld(cards, rules=None)`` builds a **new meld** from a multiset of cards (a card-list string,
    an iterable of cards or card strings, or a Cards); the input order is irrelevant and the layout
    is the canonical one of RULES B.4. A string holding a wild annotation ``(=...)`` is read as a
    layout instead (see :meth:`from_layout`). ``Meld(meld)`` returns an equal meld (its rules must
    be ``rules``). ``rules`` defaults to ``Rules('italian')``.

    Errors: InvalidMeldError if the cards are not a meld (the reason is in the message);
    InvalidNotationError for unreadable text, more copies than the rules' decks hold (two copies
    of a suited card with two decks, three with three), or a value of the wrong type.
    """

    __slots__ = ("_rules", "_shape", "_layout", "_cards", "_repr")
    _rules: Rules
    _shape: _Shape
    _layout: str
    _cards: Cards
    _repr: str | None

    def __init__(self, cards: object, rules: Rules | None = None) -> None:
        """A new meld of ``cards`` under ``rules`` (RULES B.2-B.4)."""
        checked_rules = _rules_argument(rules)
        if isinstance(cards, Meld):
            # Like Card(card): an equal meld, which keeps its exact (history-dependent) state.
            _check_same_rules(cards, checked_rules)
            self._set(cards._shape, checked_rules)
            return
        if isinstance(cards, str) and ("(" in cards or "[" in cards):
            shape = _parse_layout(cards, checked_rules)
        else:
            multiset = _multiset(cards, checked_rules)
            shape = _new_meld_shape(multiset, checked_rules)
        self._set(shape, checked_rules)

    @classmethod
    def from_layout(cls, text: str, rules: Rules | None = None) -> Meld:
        """The meld in exactly the state written as ``text`` (docs/api.md "Layout").

        A run is written in slot order, every natural in its slot and the wild as ``X(=Yz)`` in the
        slot of ``Yz``; a set as its naturals and the wild as ``X(=R)``. Optional tags after a
        wild (``[bound]``, ``[free-low]``, ``[free-high]``, ``[orphan]``, ``[set]``) are checked. A
        free wild written at the high end while the low end exists is moved to the low end. Anything
        that is not a legal meld state raises InvalidMeldError.
        """
        checked_rules = _rules_argument(rules)
        return cls._from_shape(_parse_layout(text, checked_rules), checked_rules)

    @staticmethod
    def is_valid(cards: object, rules: Rules | None = None) -> bool:
        """Whether ``Meld(cards, rules)`` would succeed, without raising for a non-meld.

        Unreadable cards still raise InvalidNotationError, as in the constructor.
        """
        try:
            Meld(cards, rules)
        except InvalidMeldError:
            return False
        return True

    @classmethod
    def _from_shape(cls, shape: _Shape, rules: Rules) -> Meld:
        meld = object.__new__(cls)
        meld._set(shape, rules)
        return meld

    def _set(self, shape: _Shape, rules: Rules) -> None:
        if isinstance(shape, RunLayout):
            layout, cards = run_layout_text(shape), shape.cards_in_slot_order()
        else:
            layout, cards = set_layout_text(shape), shape.cards_in_layout_order()
        object.__setattr__(self, "_rules", rules)
        object.__setattr__(self, "_shape", shape)
        object.__setattr__(self, "_layout", layout)
        object.__setattr__(self, "_cards", Cards._from_cards(cards, rules.decks))
        object.__setattr__(self, "_repr", None)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Meld is immutable: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"Meld is immutable: cannot delete {name!r}")

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return (meld_of_layout, (Meld, self._layout, self._rules))

    # --- what it is ------------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        """The rules this meld follows."""
        return self._rules

    @property
    def kind(self) -> str:
        """``'set'`` or ``'run'``."""
        return "run" if isinstance(self._shape, RunLayout) else "set"

    @property
    def suit(self) -> str | None:
        """The suit letter of a run; None for a set."""
        return self._shape.suit if isinstance(self._shape, RunLayout) else None

    @property
    def rank(self) -> str | None:
        """The rank letter of a set; None for a run."""
        return self._shape.rank if isinstance(self._shape, SetLayout) else None

    @property
    def layout(self) -> str:
        """The layout notation: a run in slot order with the wild as ``Jk(=4d)``; a set as
        ``Kd Kh Ks Jk(=K)``."""
        return self._layout

    @property
    def cards(self) -> Cards:
        """The cards of the meld, as a multiset."""
        return self._cards

    @property
    def wild(self) -> Card | None:
        """The card acting as a wild, or None (a natural two is not a wild)."""
        return self._shape.wild

    @property
    def wild_state(self) -> str | None:
        """The wild's state (RULES B.5): 'bound', 'free-low', 'free-high', 'orphan' in a run, 'set'
        in a set; None without a wild."""
        if isinstance(self._shape, SetLayout):
            return None if self._shape.wild is None else "set"
        return wild_state(self._shape, self._rules)

    @property
    def span(self) -> tuple[int, int] | None:
        """A run's (lowest, highest) slot, 1..14 (RULES 0.3); None for a set."""
        return self._shape.span if isinstance(self._shape, RunLayout) else None

    @property
    def is_clean(self) -> bool:
        """True if no card acts as a wild (RULES B.7; a natural two keeps a run clean)."""
        return self._shape.wild is None

    @property
    def burraco(self) -> str | None:
        """None below 7 cards; else 'clean', 'semi-clean' (only where semi_clean_burraco_bonus is
        not None) or 'dirty' (RULES B.7)."""
        if len(self._cards) < 7:
            return None
        if self.is_clean:
            return "clean"
        if self._rules.semi_clean_burraco_bonus is not None and self._is_semi_clean():
            return "semi-clean"
        return "dirty"

    def _is_semi_clean(self) -> bool:
        """RULES B.7 (and H-5 for the 'wild_at_end' reading): the wild sits outside 7+ naturals."""
        shape = self._shape
        if isinstance(shape, SetLayout):
            return len(shape.naturals) >= 7  # a set: at least 7 natural cards plus the wild
        if self._rules.semi_clean_rule == "wild_at_end":
            return wild_state(shape, self._rules) != "bound" and shape.natural_count >= 7
        # 'longest_natural_block': the longest block of consecutive natural-held slots (a natural
        # two counts) has at least 7 cards.
        longest = current = 0
        previous_slot = None
        for slot, _card in shape.naturals:
            current = current + 1 if previous_slot == slot - 1 else 1
            longest = max(longest, current)
            previous_slot = slot
        return longest >= 7

    @property
    def points(self) -> int:
        """The card points of all its cards, every wild at its own value (RULES A.3, E.1)."""
        return sum(self._rules.card_points(card) for card in self._cards)

    @property
    def bonus(self) -> int:
        """The burraco bonus (RULES E.2): 0 when not a burraco."""
        burraco = self.burraco
        if burraco is None:
            return 0
        if burraco == "clean":
            return self._rules.clean_burraco_bonus
        if burraco == "semi-clean":
            return self._rules.semi_clean_burraco_bonus  # type: ignore[return-value]
        return self._rules.dirty_burraco_bonus

    # --- lay-offs --------------------------------------------------------------------------

    def add(self, card: Card | str) -> Meld:
        """The meld after laying off ``card`` (RULES B.2 for a set, B.6 for a run).

        ``card`` is a Card or a card string (InvalidNotationError if it is neither). A refused
        lay-off raises IllegalMoveError with the reason. The meld itself never changes.
        """
        old = self._shape  # self first: TypeError if this Meld was never initialized
        card = Card(card)
        if isinstance(old, RunLayout):
            shape: _Shape = lay_off_on_run(old, card, self._rules)
        else:
            shape = lay_off_on_set(old, card, self._rules)
        return Meld._from_shape(shape, self._rules)

    def can_add(self, card: Card | str) -> bool:
        """Whether :meth:`add` would accept ``card`` (a bad card string still raises)."""
        try:
            self.add(card)
        except IllegalMoveError:
            return False
        return True

    # --- protocols -------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._cards)

    def __iter__(self) -> Iterator[Card]:
        shape = self._shape
        if isinstance(shape, RunLayout):
            return iter(shape.cards_in_slot_order())
        return iter(shape.cards_in_layout_order())

    def __str__(self) -> str:
        return self._layout

    def __repr__(self) -> str:
        if self._repr is None:
            object.__setattr__(self, "_repr", self._make_repr())
        return self._repr  # type: ignore[return-value]

    def _make_repr(self) -> str:
        try:
            canonical = _new_meld_shape(self._cards, self._rules) == self._shape
        except InvalidMeldError:
            canonical = False
        call = "Meld" if canonical else "Meld.from_layout"
        rules = "" if self._rules == DEFAULT_RULES else f", {self._rules!r}"
        return f"{call}({self._layout!r}{rules})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Meld):
            return self._layout == other._layout and self._rules == other._rules
        if isinstance(other, core_twin("Meld")):
            # The core's meld: the same layout under rules that print the same.
            # (getattr: the twin class is only known at run time.)
            return self._layout == str(other) and repr(self._rules) == repr(getattr(other, "rules"))
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        # The layout alone, as the core's Meld hashes: equal melds have the same layout.
        return hash(self._layout)


# --- Melds ------------------------------------------------------------------------------------


class Melds(Initialized):
    """One side's melds, in creation order (immutable).

    ``Melds()`` is empty; ``Melds([meld, ...], rules=None)`` takes Meld objects or layout strings.
    Supports ``len``, indexing, iteration, ``==`` and ``hash``. :meth:`meld` adds a new meld,
    :meth:`add` lays a card off onto one of them; both return a new Melds.

    The constructor accepts any legal melds, even two sets of one rank (a state the italian-3p
    merge can create, RULES F.6 / H-35); only :meth:`meld` enforces "one set per rank per side".
    """

    __slots__ = ("_melds", "_rules")
    _melds: tuple[Meld, ...]
    _rules: Rules

    def __init__(self, melds: Iterable[Meld | str] = (), rules: Rules | None = None) -> None:
        """The melds ``melds`` (Meld objects or layout strings) under ``rules``.

        ``rules`` defaults to ``Rules('italian')``; a Meld made under other rules raises
        InvalidNotationError.
        """
        if isinstance(melds, (str, bytes)) or not isinstance(melds, Iterable):
            raise InvalidNotationError(
                f"{melds!r} is not a list of melds: expected an iterable of Meld objects or layout "
                f"strings"
            )
        checked_rules = _rules_argument(rules)
        built = []
        for item in list(melds):
            if isinstance(item, Meld):
                _check_same_rules(item, checked_rules)
                built.append(item)
            elif isinstance(item, str):
                built.append(Meld.from_layout(item, checked_rules))
            else:
                raise InvalidNotationError(
                    f"{item!r} is not a meld: expected a Meld or a layout string"
                )
        object.__setattr__(self, "_melds", tuple(built))
        object.__setattr__(self, "_rules", checked_rules)

    @classmethod
    def _from_tuple(cls, melds: tuple[Meld, ...], rules: Rules) -> Melds:
        result = object.__new__(cls)
        object.__setattr__(result, "_melds", melds)
        object.__setattr__(result, "_rules", rules)
        return result

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Melds is immutable: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"Melds is immutable: cannot delete {name!r}")

    def __reduce__(self) -> tuple[object, tuple[list[str], Rules]]:
        return (Melds, ([meld.layout for meld in self._melds], self._rules))

    @property
    def rules(self) -> Rules:
        """The rules these melds follow."""
        return self._rules

    def meld(self, cards: object) -> Melds:
        """A new Melds with a new meld of ``cards`` appended (RULES B.2-B.4, C.3).

        ``cards`` is a card list, as for :class:`Cards` (a new meld comes from the hand as a multiset:
        no layout annotations); its layout is the canonical one of RULES B.4. IllegalMoveError if
        the side already has a set of that rank (RULES B.2), InvalidMeldError if the cards are not a
        meld.
        """
        self._melds  # noqa: B018 -- TypeError first if this Melds was never initialized
        multiset = _multiset(cards, self._rules)
        new = Meld._from_shape(_new_meld_shape(multiset, self._rules), self._rules)
        if new.kind == "set":
            for index, existing in enumerate(self._melds):
                if existing.kind == "set" and existing.rank == new.rank:
                    # RULES B.2: one set per rank per side; more cards of the rank are laid off.
                    raise IllegalMoveError(
                        f"cannot meld {str(new.cards)!r}: the side already has a set of rank "
                        f"{new.rank} ({existing.layout!r}, index {index}); lay the cards off onto it"
                    )
        return Melds._from_tuple(self._melds + (new,), self._rules)

    def add(self, index: int, card: Card | str) -> Melds:
        """A new Melds with meld ``index`` replaced by ``meld.add(card)`` (RULES B.2, B.6).

        IllegalMoveError for an index that names no meld (or is not an int), or for a refused
        lay-off.
        """
        # docs/api.md: a bad index -- of the wrong type too -- is an IllegalMoveError.
        if isinstance(index, bool) or not isinstance(index, int):
            raise IllegalMoveError(f"{index!r} is not a meld index: expected an int")
        if not 0 <= index < len(self._melds):
            raise IllegalMoveError(
                f"{index!r} is not a meld index: the side has {len(self._melds)} meld(s)"
            )
        changed = self._melds[index].add(card)
        return Melds._from_tuple(
            self._melds[:index] + (changed,) + self._melds[index + 1:], self._rules
        )

    def can_meld(self, cards: object) -> bool:
        """Whether :meth:`meld` would accept ``cards`` (unreadable input still raises)."""
        try:
            self.meld(cards)
        except (IllegalMoveError, InvalidMeldError):
            return False
        return True

    def can_add(self, index: int, card: Card | str) -> bool:
        """Whether :meth:`add` would accept ``index`` and ``card`` (unreadable input still raises)."""
        try:
            self.add(index, card)
        except IllegalMoveError:
            return False
        return True

    def __len__(self) -> int:
        return len(self._melds)

    def __getitem__(self, index: int | slice) -> Meld | Melds:
        if isinstance(index, slice):
            return Melds._from_tuple(self._melds[index], self._rules)
        if isinstance(index, bool) or not isinstance(index, int):
            raise InvalidNotationError(f"{index!r} is not a meld index: expected an int")
        return self._melds[index]

    def __iter__(self) -> Iterator[Meld]:
        return iter(self._melds)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Melds):
            return self._melds == other._melds and self._rules == other._rules
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        if isinstance(other, Melds):
            return not self == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self._melds, self._rules))

    def __repr__(self) -> str:
        rules = "" if self._rules == DEFAULT_RULES else f", {self._rules!r}"
        return f"Melds({[meld.layout for meld in self._melds]!r}{rules})"
