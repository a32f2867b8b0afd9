"""The rules knobs and their presets (RULES section G, docs/api.md "Rules").

A :class:`Rules` value is a preset name plus the value of every knob. The knob table below is the
single place that lists the knobs: their order (the order of docs/api.md), their documentation, the
values they accept, and their default value (the italian game's). The preset table after it is the
single place that lists the presets: each is the defaults with the knobs it changes. The core has
its own table (cpp/include/burraco/rules.hpp, kPresets), which tests/test_rules.py holds to this one.
"""

from __future__ import annotations

import ast
import functools
import math
import numbers
import operator
from collections.abc import Callable
from typing import Any

from .._blank import Initialized
from .._errors import InvalidNotationError
from .._pickle import rules_of_overrides
from .cards import Card

__all__ = ["Rules"]

# Points knobs (bonuses, penalties, targets) are capped so every engine can hold them (docs/api.md).
_MAX_POINTS = 1_000_000
_MAX_OPENING_STEPS = 4

# The ranks that may form a set (RULES B.2: every rank but the two), in their stored order.
_SET_RANK_LETTERS = "A3456789TJQK"


# --- value checkers: each returns the stored value, or raises ValueError(reason) -----------------


class _Rejected(Exception):
    """A knob value that is not allowed; the message says why."""


def _is_bool(value: Any) -> bool:
    """``bool`` or a NumPy bool (``numpy.bool_``), without importing NumPy."""
    kind = type(value)
    return kind is bool or (kind.__module__ == "numpy" and kind.__name__ in ("bool_", "bool"))


def _integer(value: Any) -> int:
    """strict parsing, docs/records.md: any object with ``__index__`` (NumPy integers too) but a bool."""
    if _is_bool(value):
        raise _Rejected("expected an int")
    try:
        return operator.index(value)
    except TypeError:
        raise _Rejected("expected an int") from None


def _int_in(low: int, high: int | None) -> Callable[[Any], int]:
    def check(value: Any) -> int:
        number = _integer(value)
        if number < low or (high is not None and number > high):
            raise _Rejected(f"expected an int from {low} to {high}" if high is not None
                            else f"expected an int >= {low}")
        return number
    return check


def _int_one_of(*allowed: int) -> Callable[[Any], int]:
    def check(value: Any) -> int:
        number = _integer(value)
        if number not in allowed:
            raise _Rejected("expected one of " + ", ".join(map(str, allowed))
                            + (" (other values are not supported yet)" if len(allowed) == 1 else ""))
        return number
    return check


def _boolean(value: Any) -> bool:
    if not _is_bool(value):
        raise _Rejected("expected True or False")
    return bool(value)


def _bool_only(allowed: bool) -> Callable[[Any], bool]:
    def check(value: Any) -> bool:
        if _boolean(value) is not allowed:
            raise _Rejected(f"only {allowed} is supported")
        return allowed
    return check


def _string_one_of(*allowed: str) -> Callable[[Any], str]:
    def check(value: Any) -> str:
        if not isinstance(value, str) or value not in allowed:
            raise _Rejected("expected one of " + ", ".join(repr(text) for text in allowed)
                            + (" (other values are not supported yet)" if len(allowed) == 1 else ""))
        return value
    return check


def _optional(checker: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        return None if value is None else checker(value)
    return check


def _pozzetto_sizes(value: Any) -> tuple[int, ...]:
    if not isinstance(value, (tuple, list)) or len(value) not in (2, 3):
        raise _Rejected("expected a tuple of 2 ints (3 with six players), each from 1 to 30")
    sizes = tuple(_int_in(1, 30)(size) for size in value)
    return sizes


def _set_ranks(value: Any) -> str:
    if not isinstance(value, str):
        raise _Rejected(f"expected a string of distinct rank letters from {_SET_RANK_LETTERS!r}")
    if not value.isascii():
        raise _Rejected(f"expected a string of distinct rank letters from {_SET_RANK_LETTERS!r}")
    letters = value.upper()  # rank letters are notation: case-insensitive (docs/api.md)
    if not letters:
        raise _Rejected("at least one rank is needed")
    for letter in letters:
        if letter not in _SET_RANK_LETTERS:
            raise _Rejected(f"{letter!r} is not a rank that may form a set "
                            f"(allowed: {_SET_RANK_LETTERS!r}; there are no sets of twos)")
        if letters.count(letter) > 1:
            raise _Rejected(f"the rank {letter!r} is repeated")
    return "".join(letter for letter in _SET_RANK_LETTERS if letter in letters)


def _opening_minimum(value: Any) -> tuple[tuple[int, int], ...] | None:
    if value is None:
        return None
    problem = ("expected None or up to 4 (from_score, minimum) int pairs, from_score ascending "
               "and starting at 0, both from 0 to 1000000")
    if not isinstance(value, (tuple, list)) or not value or len(value) > _MAX_OPENING_STEPS:
        raise _Rejected(problem)
    steps = []
    for step in value:
        if not isinstance(step, (tuple, list)) or len(step) != 2:
            raise _Rejected(problem)
        from_score, minimum = (_integer(number) for number in step)
        if not 0 <= minimum <= _MAX_POINTS or not 0 <= from_score <= _MAX_POINTS:
            raise _Rejected(problem)
        steps.append((from_score, minimum))
    if steps[0][0] != 0 or any(later[0] <= earlier[0] for earlier, later in zip(steps, steps[1:])):
        raise _Rejected(problem)
    return tuple(steps)


def _probability(value: Any) -> float:
    if _is_bool(value) or not isinstance(value, numbers.Real):
        raise _Rejected("expected a float from 0.0 to 1.0")
    number = float(value)
    if math.isnan(number) or not 0.0 <= number <= 1.0:
        raise _Rejected("expected a float from 0.0 to 1.0")
    return number


# --- the knob table (docs/api.md, in its order) -----------------------------------------------
# name, checker, docstring, default value (the italian game's, RULES G.1).
# The docstring is the knob's one-line meaning with the sections of docs/rules.md that define it;
# the core has the same text in its knob table (cpp/src/rules.cpp), and tools/rules_table.py reads
# it from either engine for the table of docs/rules.md.

_NON_NEGATIVE = _int_in(0, _MAX_POINTS)

_KNOB_TABLE: tuple[tuple[str, Callable[[Any], Any], str, Any], ...] = (
    ("players", _int_one_of(2, 3, 4, 6),
     "Players at the table (2, 3, 4, or 6 with three decks); the sides follow from it (RULES G, F.7).",
     4),
    ("sides", _int_one_of(2, 3),
     "Sides at the table: 3 (seats A B C A B C) or 2 (A B A B A B) with six players; fixed by "
     "the player count otherwise (RULES F.7, G).",
     2),
    ("decks", _int_one_of(2, 3),
     "52-card decks in the pack: 2, or 3 (RULES A.1, F.7).",
     2),
    ("jokers", _int_one_of(0, 2, 4, 6),
     "Jokers in the pack: 0, 2, 4 or 6, at most two per deck (RULES A.1).",
     4),
    ("card_values", _string_one_of("italian", "pagat_brazil"),
     "Point table: `italian` (joker 30, two 20) or `pagat_brazil` (20, 10) (RULES A.3).",
     'italian'),
    ("hand_size", _int_in(1, 20),
     "Cards dealt to each player (RULES F.2).",
     11),
    ("pozzetto_sizes", _pozzetto_sizes,
     "Sizes of the two pozzetti, the one taken first written first (RULES F.2).",
     (11, 11)),
    ("initial_upcard", _boolean,
     "A start card is turned face up on the pile after the deal (RULES F.2).",
     True),
    ("first_draw_rule", _string_one_of("none", "may_reject_first_card"),
     "`may_reject_first_card`: the brazilian `keep`/`reject` first draw (RULES C.2).",
     'none'),
    ("pile_take_requires_meld", _bool_only(False),
     "The pile may be taken only to put one of its cards down at once (only False) (RULES C.2).",
     False),
    ("forbid_discard_of_single_pile_card", _boolean,
     "A one-card pile just taken may not be discarded back in the same turn (RULES C.5).",
     True),
    ("natural_two_in_run", _boolean,
     "A two in slot 2 of its own suit's run is natural, not wild (RULES A.4).",
     True),
    ("max_wild_per_meld", _int_one_of(1),
     "Most wild-acting cards in one meld (only 1) (RULES B.1).",
     1),
    ("sets_allowed", _boolean,
     "Sets (cards of one rank) may be melded at all (RULES B.2).",
     True),
    ("set_ranks", _set_ranks,
     "The ranks that may form a set (RULES B.2).",
     _SET_RANK_LETTERS),
    ("max_sets_per_rank_per_side", _int_one_of(1),
     "Sets of one rank a side may hold (only 1) (RULES B.2).",
     1),
    ("max_set_size", _int_in(3, 9),
     "Most cards in a set, the wild included (RULES B.2).",
     9),
    ("ace_low_or_high", _string_one_of("low_or_high", "low_only", "high_only"),
     "Where an ace may sit in a run: slot 1, slot 14, or either (RULES B.3).",
     'low_or_high'),
    ("allow_both_aces_in_run", _boolean,
     "One run may hold natural aces at both ends (RULES B.3).",
     False),
    ("allow_orphan_wild_14", _boolean,
     "The 14-card run A..K plus a wild in the other ace slot is legal (RULES B.3).",
     True),
    ("max_run_size", _int_in(3, 14),
     "Most cards in a run, the wild included (RULES B.3).",
     14),
    ("run_wraparound", _bool_only(False),
     "Runs may wrap from K through A to 2 (only False) (RULES B.3).",
     False),
    ("wild_display_end", _string_one_of("low"),
     "The end where a free wild is shown (only `low`) (RULES B.4).",
     'low'),
    ("free_end_wild_may_move", _bool_only(True),
     "A free wild at an end may move to fill a new hole (only True) (RULES B.6).",
     True),
    ("wild_replaced_only_by_its_card", _bool_only(True),
     "Only the card a wild stands for displaces it (only True) (RULES B.6).",
     True),
    ("wild_swap_allowed", _bool_only(False),
     "A wild may be swapped for another wild (only False) (RULES B.6).",
     False),
    ("low_natural_two_may_convert", _boolean,
     "A natural two at the low end of a run without wild may turn into its wild (RULES B.6).",
     True),
    ("opening_minimum", _opening_minimum,
     "Brazilian opening minimum: None, or (from score, points) steps (RULES C.3).",
     None),
    ("opening_fail_increment", _NON_NEGATIVE,
     "Rise of the opening minimum after each short opening (RULES C.3).",
     15),
    ("pozzetto_reveal", _string_one_of("after_partner_turn", "next_own_turn", "immediately"),
     "When the owner may look at a pozzetto taken by discarding (RULES C.4).",
     'after_partner_turn'),
    ("closing_requires_pozzetto", _bool_only(True),
     "A side must have taken its pozzetto to close (only True) (RULES C.6).",
     True),
    ("closing_requires_burraco", _string_one_of("any", "clean"),
     "The burraco a side needs to close: `any` or `clean` (RULES C.6).",
     'any'),
    ("closing_discard", _string_one_of("required", "optional"),
     "Closing needs a last discard (`required`) or not (`optional`) (RULES C.6).",
     'required'),
    ("closing_discard_wild_allowed", _boolean,
     "The closing discard may be a wild (RULES C.6).",
     False),
    ("closing_bonus", _NON_NEGATIVE,
     "Points for the side that closes (RULES E.3).",
     100),
    ("clean_burraco_bonus", _NON_NEGATIVE,
     "Points for each clean burraco (RULES E.2).",
     200),
    ("dirty_burraco_bonus", _NON_NEGATIVE,
     "Points for each dirty burraco (RULES E.2).",
     100),
    ("semi_clean_burraco_bonus", _optional(_NON_NEGATIVE),
     "Points for each semi-clean burraco; None: no such class, scored as dirty (RULES B.7, E.2).",
     150),
    ("semi_clean_rule", _string_one_of("longest_natural_block", "wild_at_end"),
     "What makes a burraco semi-clean: longest natural block or wild at an end (RULES B.7).",
     'longest_natural_block'),
    ("no_pozzetto_penalty", _NON_NEGATIVE,
     "Points lost by a side that never took its pozzetto (RULES E.4).",
     100),
    ("unplayed_pozzetto_rule", _string_one_of("count_as_hand", "min_of_value_and_100",
                                              "as_not_taken"),
     "How a pozzetto taken but not played is scored (RULES E.4).",
     'count_as_hand'),
    ("stock_end_threshold", _int_in(0, 10),
     "The hand ends after the turn whose draw leaves this many stock cards (RULES D.2, D.3).",
     2),
    ("pozzetto_becomes_stock", _boolean,
     "An untaken pozzetto becomes the stock when the stock runs out (RULES D.3).",
     False),
    ("deadlock_rule", _string_one_of("end_hand", "force_draw"),
     "What a deadlock does: end the hand, or force a stock draw (RULES D.4).",
     'end_hand'),
    ("cut_bonus", _NON_NEGATIVE,
     "Brazilian bonus for cutting exactly 22 cards before the deal (RULES E.5, F.5).",
     0),
    ("cut_exact_probability", _probability,
     "Chance that a simulated cut is exact (RULES F.5).",
     0.0),
    ("score_split", _string_one_of("none", "halves_for_pair"),
     "How the pair of italian-3p shares its hand score (RULES E.6).",
     'none'),
    ("match_target", _int_in(1, _MAX_POINTS),
     "The score that ends a match (RULES E.7).",
     2000),
    ("compare", _string_one_of(">", ">="),
     "How a score is compared with the target: `>` or `>=` (RULES E.7).",
     '>'),
    ("tie_policy", _string_one_of("play_on", "draw"),
     "A tie at the top past the target: play on, or a drawn match (RULES E.7).",
     'play_on'),
    ("pile_take", _string_one_of("whole_pile"),
     "How the discard pile is taken (only `whole_pile`) (RULES C.2).",
     'whole_pile'),
    ("wild_cards", _string_one_of("jokers_and_twos"),
     "Which cards are wild (only `jokers_and_twos`) (RULES A.4).",
     'jokers_and_twos'),
    ("pozzetto_pickup", _string_one_of("on_the_fly_or_after_discard"),
     "When a pozzetto is picked up: on the fly, or after the discard (RULES C.4).",
     'on_the_fly_or_after_discard'),
    ("pozzetti_per_side", _int_one_of(1),
     "Pozzetti one side may take in a hand (only 1) (RULES C.4).",
     1),
    ("discard_pile_public", _bool_only(True),
     "Every card of the discard pile is public (only True) (RULES C.2).",
     True),
    ("dealer_rotation", _string_one_of("left"),
     "Where the deal passes after a hand (only `left`) (RULES F.1).",
     'left'),
)

# --- the presets (RULES G.1) --------------------------------------------------------------------
# name -> (a one-line title for a menu, the knobs whose value differs from the knob table's).

_PRESET_TABLE: dict[str, tuple[str, dict[str, Any]]] = {
    "italian": ("Italian, four players in two pairs", {}),
    "italian-2p": ("Italian, two players", {"players": 2, "pozzetto_reveal": "next_own_turn"}),
    "italian-3p": ("Italian, three players", {
        "players": 3, "sides": 3, "pozzetto_sizes": (18, 11), "score_split": "halves_for_pair",
    }),
    "online-2p": ("online Italian, two players", {
        "players": 2, "jokers": 2, "pozzetto_reveal": "immediately", "stock_end_threshold": 0,
        "pozzetto_becomes_stock": True, "match_target": 2005, "compare": ">=",
    }),
    "brazilian": ("Buraco, four players", {
        "initial_upcard": False, "first_draw_rule": "may_reject_first_card",
        "allow_both_aces_in_run": True, "allow_orphan_wild_14": False,
        "opening_minimum": ((0, 50), (1500, 75)), "closing_requires_burraco": "clean",
        "closing_discard": "optional", "closing_discard_wild_allowed": True,
        "semi_clean_burraco_bonus": None, "unplayed_pozzetto_rule": "min_of_value_and_100",
        "stock_end_threshold": 0, "pozzetto_becomes_stock": True, "cut_bonus": 100,
        "compare": ">=",
    }),
}

#: The preset names, in table order.
PRESETS = tuple(_PRESET_TABLE)

# The knob docstrings above are the core's text (docs/rules.md is built from either engine); the
# reference also takes players=6, decks=3, jokers=6 and three pozzetti, which the core does not
# take yet (docs/game.md "Six players").

# `sides` (RULES G row 2) follows from `players` with 2, 3 or 4 players; with six it is a choice,
# 3 by default. `Rules(preset, players=6)` also takes the six-player pack and packets unless they
# are given (RULES A.1, F.2, F.7). These are the values a knob takes when the caller does not give
# it, per player count; knobs() lists `sides` only where it is a choice (six players).
_SIDES_OF_PLAYERS = {2: 2, 3: 3, 4: 2, 6: 3}
_SIX_PLAYER_DEFAULTS = {"decks": 3, "jokers": 6, "pozzetto_sizes": (11, 11, 11), "sides": 3}

_KNOB_NAMES = tuple(row[0] for row in _KNOB_TABLE)
_KNOB_CHECKERS = {row[0]: row[1] for row in _KNOB_TABLE}
_DEFAULTS = {row[0]: row[3] for row in _KNOB_TABLE}
_PRESET_VALUES = {preset: {**_DEFAULTS, **changes}
                  for preset, (_title, changes) in _PRESET_TABLE.items()}

_CARD_POINTS = {
    # card_values -> (joker, any two); the other cards are the same in both tables (RULES A.3).
    "italian": (30, 20),
    "pagat_brazil": (20, 10),
}


class Rules(Initialized):
    """The rules a game is played under: a preset plus every knob of RULES section G.

    ``Rules()`` is ``Rules('italian')``; ``Rules('brazilian', players=2)`` overrides knobs. Every
    knob is a read-only attribute.

    Six players (RULES F.7): ``Rules('brazilian', players=6)`` takes, unless they are given,
    ``decks=3``, ``jokers=6``, ``pozzetto_sizes=(11, 11, 11)`` and ``sides=3`` (three sides of
    two, seats A B C A B C, side = seat % 3); ``sides=2`` makes two sides of three (A B A B A B,
    side = seat % 2). With 2, 3 or 4 players ``sides`` is 2, 3 and 2. The rules text and the repr
    list a knob only where it differs from these values. Two Rules are equal when their preset names and all knob values
    are equal. Unknown presets or knobs, values of the wrong type or out of range raise
    InvalidNotationError quoting the name and the value.
    """

    #: The preset names, in docs/api.md order.
    PRESETS = PRESETS

    # Every knob is a private slot `_<knob>` (set once in __init__), read through the read-only
    # property `<knob>` installed below the class with the knob table's docstring.
    __slots__ = {"_preset": "The preset name.",
                 "_key": "(preset, every knob value in table order): equality and hash.",
                 **{"_" + row[0]: row[2] for row in _KNOB_TABLE}}
    _preset: str
    _key: tuple[str, tuple[Any, ...]]
    # The knobs, for type checkers (the properties are installed below the class).
    players: int
    sides: int
    decks: int
    jokers: int
    card_values: str
    hand_size: int
    pozzetto_sizes: tuple[int, int]
    initial_upcard: bool
    first_draw_rule: str
    pile_take_requires_meld: bool
    forbid_discard_of_single_pile_card: bool
    natural_two_in_run: bool
    max_wild_per_meld: int
    sets_allowed: bool
    set_ranks: str
    max_sets_per_rank_per_side: int
    max_set_size: int
    ace_low_or_high: str
    allow_both_aces_in_run: bool
    allow_orphan_wild_14: bool
    max_run_size: int
    run_wraparound: bool
    wild_display_end: str
    free_end_wild_may_move: bool
    wild_replaced_only_by_its_card: bool
    wild_swap_allowed: bool
    low_natural_two_may_convert: bool
    opening_minimum: tuple[tuple[int, int], ...] | None
    opening_fail_increment: int
    pozzetto_reveal: str
    closing_requires_pozzetto: bool
    closing_requires_burraco: str
    closing_discard: str
    closing_discard_wild_allowed: bool
    closing_bonus: int
    clean_burraco_bonus: int
    dirty_burraco_bonus: int
    semi_clean_burraco_bonus: int | None
    semi_clean_rule: str
    no_pozzetto_penalty: int
    unplayed_pozzetto_rule: str
    stock_end_threshold: int
    pozzetto_becomes_stock: bool
    deadlock_rule: str
    cut_bonus: int
    cut_exact_probability: float
    score_split: str
    match_target: int
    compare: str
    tie_policy: str
    pile_take: str
    wild_cards: str
    pozzetto_pickup: str
    pozzetti_per_side: int
    discard_pile_public: bool
    dealer_rotation: str

    def __init__(self, preset: str = "italian", **knobs: Any) -> None:
        """The preset ``preset`` with the given knob values overriding its own."""
        if not isinstance(preset, str) or preset not in PRESETS:
            raise InvalidNotationError(
                f"{preset!r} is not a preset: expected one of {', '.join(map(repr, PRESETS))}"
            )
        given = {}
        for name, value in knobs.items():
            if name not in _KNOB_CHECKERS:
                raise InvalidNotationError(f"{name!r} is not a rules knob (value {value!r})")
            try:
                given[name] = _KNOB_CHECKERS[name](value)
            except _Rejected as reason:
                raise InvalidNotationError(
                    f"{value!r} is not a valid value of the knob {name!r}: {reason}"
                ) from None
        players = given.get("players", _PRESET_VALUES[preset]["players"])
        values = {**_baseline(preset, players), **given}
        problem = _layout_problem(values) or _unplayable(values)
        if problem is not None:
            overrides = ", ".join(f"{name}={value!r}" for name, value in knobs.items())
            raise InvalidNotationError(
                f"Rules({preset!r}{', ' if overrides else ''}{overrides}) cannot be played: "
                f"{problem}"
            )
        object.__setattr__(self, "_preset", preset)
        for name, value in values.items():
            object.__setattr__(self, "_" + name, value)
        object.__setattr__(self, "_key", (preset, tuple(values[name] for name in _KNOB_NAMES)))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Rules is immutable: cannot set {name!r} (use rules.replace())")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"Rules is immutable: cannot delete {name!r}")

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return (rules_of_overrides, (Rules, self._preset, self._overrides()))

    @property
    def preset(self) -> str:
        """The name of the preset these rules start from."""
        return self._preset

    @staticmethod
    def presets() -> dict[str, str]:
        """Every preset's name and a one-line title for a menu (``'italian-2p'``: ``'Italian, two
        players'``), in the order of :attr:`PRESETS` (a new dict)."""
        return {preset: title for preset, (title, _changes) in _PRESET_TABLE.items()}

    def knobs(self) -> dict[str, Any]:
        """Every knob, name -> value, in the order of the docs/api.md table (a new dict);
        ``sides`` only with six players, where it is a choice."""
        return {name: getattr(self, name) for name in _KNOB_NAMES
                if name != "sides" or self.players == 6}

    def replace(self, **overrides: Any) -> Rules:
        """New Rules: the same preset and knobs, with ``overrides`` applied."""
        return Rules(self._preset, **{**self._overrides(), **overrides})

    @classmethod
    def from_text(cls, text: str) -> Rules:
        """The Rules a rules text names (docs/game.md, the ``rules`` field of a state string): the
        preset name, then ``:knob=value`` for each knob that differs from the preset, in table
        order, a value written as a Python literal without spaces (a string knob's bare), e.g.
        ``online-2p:opening_minimum=((0,50),(1500,75))``. Only the canonical text of a rule set
        (its :attr:`text`) is read: anything else raises InvalidNotationError quoting it."""
        if not isinstance(text, str):
            raise InvalidNotationError(f"{text!r} is not a rules text")
        preset, *overrides = text.split(":")
        if preset not in PRESETS:
            raise InvalidNotationError(
                f"rules {text!r}: {preset!r} is not a preset: expected one of "
                f"{', '.join(map(repr, PRESETS))}"
            )
        preset_values = _PRESET_VALUES[preset]
        knobs: dict[str, Any] = {}
        for override in overrides:
            name, equals, value = override.partition("=")
            if not equals or name not in preset_values or name in knobs:
                raise InvalidNotationError(f"rules {text!r}: cannot read {override!r}")
            if isinstance(preset_values[name], str):
                knobs[name] = value
                continue
            try:
                knobs[name] = ast.literal_eval(value)
            except (ValueError, SyntaxError):
                raise InvalidNotationError(f"rules {text!r}: cannot read {override!r}") from None
        try:
            rules = cls(preset, **knobs)
        except InvalidNotationError as error:
            raise InvalidNotationError(f"rules {text!r}: {error}") from None
        if rules.text != text:
            raise InvalidNotationError(
                f"rules {text!r} is not in canonical form ({rules.text!r})"
            )
        return rules

    @property
    def text(self) -> str:
        """The canonical rules text (what :meth:`from_text` reads, docs/game.md): ``italian``, or
        ``brazilian:players=2:semi_clean_burraco_bonus=150`` with the knobs that differ from the
        preset in table order."""
        return _rules_text(self)

    def _overrides(self) -> dict[str, Any]:
        """The knobs whose value differs from the preset's at this player count, in table order."""
        baseline = {**_baseline(self._preset, self.players),
                    "players": _PRESET_VALUES[self._preset]["players"]}
        return {name: value for name, value in self.knobs().items()
                if _differs(value, baseline[name])}

    @property
    def total_cards(self) -> int:
        """Cards in the pack: 52 per deck plus the jokers (RULES A.1)."""
        return 52 * self.decks + self.jokers

    @property
    def initial_stock(self) -> int:
        """Stock size after the deal: the pack minus hands, pozzetti and the start card (RULES F.2)."""
        return (self.total_cards
                - self.players * self.hand_size
                - sum(self.pozzetto_sizes)
                - int(self.initial_upcard))

    def card_points(self, card: Card | str) -> int:
        """The point value of ``card`` (a Card or a card string) under ``card_values`` (RULES A.3).

        The value depends only on the card, never on the role it plays in a meld.
        """
        joker_points, two_points = _CARD_POINTS[self.card_values]  # self first: TypeError if blank
        card = Card(card)
        if card.is_joker:
            return joker_points
        if card.is_two:
            return two_points
        if card.is_ace:
            return 15
        return 10 if card.rank_value >= 8 else 5

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Rules):
            return self is other or self._key == other._key
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        if isinstance(other, Rules):
            return not self == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._key)

    def __repr__(self) -> str:
        arguments = [repr(self._preset)]
        arguments += [f"{name}={value!r}" for name, value in self._overrides().items()]
        return f"Rules({', '.join(arguments)})"


def _install_knob_properties() -> None:
    """Each knob of the table becomes a read-only property of Rules over its slot ``_<knob>``,
    with the table's docstring (the same text as the core's: docs/rules.md is built from it)."""
    for name, _checker, doc, _values in _KNOB_TABLE:
        setattr(Rules, name, property(operator.attrgetter("_" + name), doc=doc))


_install_knob_properties()


def _baseline(preset: str, players: int) -> dict[str, Any]:
    """The knob values of ``preset`` played by ``players`` players, before any other override:
    the preset's, with the sides of that player count and, for six players, the six-player pack
    and packets."""
    values = dict(_PRESET_VALUES[preset])
    values["players"] = players
    values["sides"] = _SIDES_OF_PLAYERS[players]
    if players == 6:
        values.update(_SIX_PLAYER_DEFAULTS)
    return values


def _layout_problem(values: dict[str, Any]) -> str | None:
    """Why the table's layout knobs do not fit together (RULES A.1, F.2, F.7, G), or None: the
    sides of the player count, at most two jokers per deck, three packets only with six players.
    Each message quotes the knob and its value."""
    players, sides = values["players"], values["sides"]
    if players != 6 and sides != _SIDES_OF_PLAYERS[players]:
        return (f"sides={sides!r} does not fit players={players}: {players} players make "
                f"{_SIDES_OF_PLAYERS[players]} sides (only six players choose 2 or 3)")
    if values["jokers"] > 2 * values["decks"]:
        return (f"jokers={values['jokers']!r} is more than two per deck "
                f"(decks={values['decks']}) (RULES A.1)")
    sizes = values["pozzetto_sizes"]
    if len(sizes) == 3 and players != 6:
        return (f"pozzetto_sizes={sizes!r}: three pozzetti only with six players "
                f"(players={players}) (RULES F.7)")
    return None


def _unplayable(values: dict[str, Any]) -> str | None:
    """Why a hand under these knob values could not be played to its end, or None.

    Each knob is checked on its own by the table; this refuses the combinations under which a
    position reached by legal play could have no legal move, or turns could follow each other
    with no seat ever able to draw (issue 10). Only the dealt stock can do that: the first stock
    draw of the hand must be possible, so after the deal (hands, pozzetti, start card)

    * with the brazilian first draw (``first_draw_rule='may_reject_first_card'``): the stock holds
      at least one card (``keep``), and more than ``stock_end_threshold`` when a start card is
      dealt (else taking it would leave every later turn without a draw);
    * otherwise: the stock holds more than ``stock_end_threshold`` cards, or none at all under
      threshold 0 with ``pozzetto_becomes_stock`` (the first draw then turns the top pozzetto
      into the stock, RULES D.3).

    Nothing else can stop a hand: a stock above its threshold always has a card to draw and the
    draw that reaches the threshold makes the turn the last (RULES D.2, D.3), C.7 keeps a legal
    finish for every meld phase, a short brazilian opening only returns its cards (C.3; playing
    it again is a choice the policies and docs/search.md "Move cap" deal with), and D.4 ends
    or forces a draw after N exchange turns.
    """
    stock = (52 * values["decks"] + values["jokers"]
             - values["players"] * values["hand_size"]
             - sum(values["pozzetto_sizes"])
             - int(values["initial_upcard"]))
    threshold = values["stock_end_threshold"]
    if stock < 0:
        return (f"the pack of {52 * values['decks'] + values['jokers']} cards is too small for "
                f"the hands, the pozzetti and the start card (RULES F.2)")
    if values["first_draw_rule"] == "may_reject_first_card":
        if stock < 1:
            return "the stock is empty after the deal, so the first draw (keep) is impossible"
        if values["initial_upcard"] and stock <= threshold:
            return (f"after the deal the stock holds {stock} cards, not more than "
                    f"stock_end_threshold={threshold}: once the start card is taken no card "
                    f"could ever be drawn (RULES D.2, F.2)")
        return None
    if stock > threshold or (stock == threshold == 0 and values["pozzetto_becomes_stock"]):
        return None
    return (f"after the deal the stock holds {stock} cards, not more than "
            f"stock_end_threshold={threshold}, so no card could ever be drawn from it "
            f"(RULES D.2, F.2)")


def _differs(value: Any, preset_value: Any) -> bool:
    """Whether a knob value differs from the preset's (type-aware, so 0 is not False)."""
    return type(value) is not type(preset_value) or value != preset_value


def _knob_text(value: Any) -> str:
    """A knob value in a rules text: a string bare, anything else its repr without spaces."""
    return value if isinstance(value, str) else repr(value).replace(" ", "")


@functools.lru_cache(maxsize=256)
def _rules_text(rules: Rules) -> str:
    """``rules.text`` (cached: every state string writes it)."""
    parts = [rules.preset]
    parts += [f"{name}={_knob_text(value)}" for name, value in rules._overrides().items()]
    return ":".join(parts)


#: The default rules (italian), shared so that comparing with it is cheap.
DEFAULT_RULES = Rules()
