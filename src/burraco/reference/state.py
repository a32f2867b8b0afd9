"""The position's vocabulary, shared by the game, the validator and the observations: phases,
packet statuses, the limits of docs/game.md, the pack of a rule set, the brazilian opening
requirement, :class:`Setup`, what a hand is dealt under, and :class:`_State`, the plain value a
position is (RULES A, C.3, E.5).

The modules that play a hand are functions of these values and the rules: :mod:`.seats` (which
side a seat plays for, packets, closing), :mod:`.deal`, :mod:`.apply` (a move on a position),
:mod:`.movegen` (the legal moves), :mod:`.state_string`, :mod:`.validate` and the hand's result in
:mod:`.scoring`; :class:`.game.Game` holds a setup, a position and its history, and calls them.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, NamedTuple

from .cards import Card
from .melds import Meld
from .rules import Rules

JOKER = Card("Jk")
#: The brazilian opening requirement never rises above this (docs/game.md "need").
MAX_OPENING_NEED = 10_000_000
#: Match scores a hand may start from lie in [-MAX_SCORE, MAX_SCORE] (docs/game.md "Deal").
MAX_SCORE = 10_000_000
#: The cards that are wild in hand: the joker and the four twos (RULES A.4).
WILD_KINDS = (Card("2c"), Card("2d"), Card("2h"), Card("2s"), JOKER)

DRAW, MELD, OVER = "draw", "meld", "over"

# Packet statuses (docs/game.md "Other accessors") and their state-string letters.
UNTAKEN, FACE_DOWN, SEEN, IN_HAND, STOCK = "untaken", "face_down", "seen", "in_hand", "stock"
_STATUS_LETTER = {UNTAKEN: "u", FACE_DOWN: "f", SEEN: "s", IN_HAND: "h", STOCK: "x"}
_LETTER_STATUS = {letter: status for status, letter in _STATUS_LETTER.items()}
_TAKEN = (FACE_DOWN, SEEN, IN_HAND)


def _opening_requirement(minimum: tuple[tuple[int, int], ...], score: int) -> int:
    """RULES C.3 / E.5: the minimum of the highest band whose from_score the score reaches."""
    requirement = minimum[0][1]
    for from_score, band_minimum in minimum:
        if score >= from_score:
            requirement = band_minimum
    return requirement


def side_slots(rules: Rules) -> int:
    """The side slots of a game under ``rules`` (melds, openings, results): one per side, and four
    with three players (the three seats and the pair they split into, RULES F.6)."""
    return 4 if rules.players == 3 else rules.sides


def _unshuffled_deck(rules: Rules) -> list[Card]:
    """The unshuffled pack (docs/game.md "Deal"): for each deck copy, suits c d h s, ranks A..K;
    then the jokers."""
    deck = [Card.from_index(index) for _copy in range(rules.decks) for index in range(52)]
    return deck + [JOKER] * rules.jokers


# --- the setup and the state ----------------------------------------------------------------


class Setup(NamedTuple):
    """What a hand is dealt under, fixed for the whole hand (docs/game.md "Deal")."""

    rules: Rules
    #: The deal seed, or None (an explicit deck, or a position read without one).
    seed: int | None
    #: The seat that plays first; the dealer is the seat before it.
    first: int
    #: The match scores at the start of the hand, per side (three players: per seat, half points).
    scores: tuple[int, ...]
    #: The side credited with the brazilian cut bonus (RULES F.5), or None.
    cut: int | None



class _State:
    """Everything that changes during a hand. Never mutated once it is a game's current state.

    ``melds[slot]`` is a list of (creation number, Meld) in creation order; ``pozzetti`` a list of
    [status, owner seat or None, cards in deal order (top first)]; ``end`` is None,
    ``('closed', side)``, ``'stock_exhausted'`` or ``'deadlock'``. Turn flags (docs/game.md):
    ``took_single`` p, ``put_down`` d, ``last_turn`` l, ``force_draw`` f, ``first_draw`` b.
    """

    __slots__ = (
        "deadlock",
        "end",
        "first_draw",
        "force_draw",
        "hands",
        "hold",
        "known",
        "last_turn",
        "melds",
        "need",
        "opened",
        "phase",
        "pile",
        "pozzetti",
        "put_down",
        "split",
        "stock",
        "took_single",
        "top",
        "turn",
    )

    turn: int
    phase: str
    hands: list[Counter[Card]]
    known: list[Counter[Card]]
    stock: list[Card]
    pile: Counter[Card]
    top: Card | None
    melds: list[list[tuple[int, Meld]]]
    # Per packet [status, owner seat or None, cards top first]: a list is updated in place, and a
    # list's positions have no types of their own.
    pozzetti: list[list[Any]]
    hold: Card | None
    opened: list[bool]
    need: list[int]
    deadlock: int
    took_single: bool
    put_down: bool
    last_turn: bool
    force_draw: bool
    first_draw: bool
    split: int | None
    end: str | tuple[str, int] | None

    def __getstate__(self) -> tuple[Any, ...]:
        """Pickle support at every protocol: the slot values in slot order."""
        return tuple(getattr(self, name) for name in self.__slots__)

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        for name, value in zip(self.__slots__, state):
            object.__setattr__(self, name, value)

    def copy(self) -> _State:
        new = object.__new__(_State)
        new.turn, new.phase = self.turn, self.phase
        new.hands = [_copy_counter(hand) for hand in self.hands]
        new.known = [_copy_counter(known) for known in self.known]
        new.stock = list(self.stock)
        new.pile = _copy_counter(self.pile)
        new.top = self.top
        new.melds = [list(slot) for slot in self.melds]
        new.pozzetti = [list(packet) for packet in self.pozzetti]
        new.hold = self.hold
        new.opened = list(self.opened)
        new.need = list(self.need)
        new.deadlock = self.deadlock
        new.took_single, new.put_down = self.took_single, self.put_down
        new.last_turn, new.force_draw = self.last_turn, self.force_draw
        new.first_draw = self.first_draw
        new.split, new.end = self.split, self.end
        return new


def _copy_counter(counter: Counter[Card]) -> Counter[Card]:
    """A copy of a Counter (plain dict copying: Counter(counter) is slow on a hot path)."""
    new: Counter[Card] = Counter()
    dict.update(new, counter)
    return new
