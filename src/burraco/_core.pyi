# The type stub of burraco._core, the C++ engine (cpp/bindings/*.cpp, entry point module.cpp).
# Written by hand and checked against the built module by tests/test_typing.py (mypy's stubtest,
# plus a comparison of every parameter list with the signatures pybind11 records). Behaviour:
# docs/api.md, docs/game.md, docs/search.md.
#
# This stub is where the module's docstrings live: those of its classes, methods, properties and
# functions (of an overloaded one, on its first overload) and the module's own below. The binding
# has none of its own: cpp/bindings/docstrings.py turns these into a C++ header at build time, and
# the binding names each as BURRACO_DOC(Game, push). A docstring wraps at 100 columns; the text
# help() shows is its lines joined by single spaces. The Rules knobs' properties are documented by
# the knob table (cpp/src/rules.cpp), and tests/test_docstrings.py checks the built module's
# docstrings against these.
#
# Where an argument takes several forms the alias below names them once: a card is a Card or its
# notation ('Qh'); a card list is Cards, a notation string ('5h 6h 7h') or an iterable of cards; a
# move is a Move or its notation ('meld 5h 6h 7h'). Integers are plain ints except where the core
# also takes NumPy integers (anything with __index__): push_index, push_action, action_move.

"""burraco's C++ engine (cards, rules, melds). Import the names from `burraco`."""

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import (
    Any,
    ClassVar,
    Final,
    Literal,
    SupportsIndex,
    TypeAlias,
    TypedDict,
    overload,
    type_check_only,
)

import numpy as np
import numpy.typing as npt
from typing_extensions import CapsuleType, NotRequired, Unpack

from ._records import Record
from ._result import Result

# Every class's metaclass is pybind11's (pybind11_builtins.pybind11_type), a subclass of type.
@type_check_only
class _Pybind11Type(type): ...

# ---- the fixed words of the notation --------------------------------------------------------

_Rank: TypeAlias = Literal["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"]
_Suit: TypeAlias = Literal["c", "d", "h", "s"]
# A name of Rules.PRESETS: the core's table (rules.hpp kPresets) is their one list, so a preset is
# not spelled out again here (docs/contributing.md, "Adding a preset").
_Preset: TypeAlias = str
_Phase: TypeAlias = Literal["draw", "meld", "over"]
_PolicyName: TypeAlias = Literal["random", "greedy", "heuristic", "heuristic:2p", "heuristic:4p", "heuristic:4p-opening"]
_EndReason: TypeAlias = Literal["closed", "stock_exhausted", "deadlock"]
_MoveKind: TypeAlias = Literal["draw", "pile", "keep", "reject", "meld", "add", "discard"]
_MeldKind: TypeAlias = Literal["set", "run"]
_WildState: TypeAlias = Literal["bound", "free-low", "free-high", "orphan", "set"]
_BurracoClass: TypeAlias = Literal["clean", "semi-clean", "dirty"]
_PacketStatus: TypeAlias = Literal["untaken", "face_down", "seen", "in_hand", "stock"]

# ---- the forms an argument may take ---------------------------------------------------------

_CardLike: TypeAlias = Card | str
_CardsLike: TypeAlias = Cards | str | Iterable[Card | str]
_MoveLike: TypeAlias = Move | str
# A policy (docs/native.md): a built-in name, a Policy, a native policy's capsule or a Python
# callable (view, moves) -> index, the view a burraco.PolicyView (burraco._policy builds on this
# module, so the stub does not import it back: tests/test_layout.py).
_PolicyFunction: TypeAlias = Callable[[Any, MoveList], SupportsIndex]
_PolicyLike: TypeAlias = Policy | _PolicyName | CapsuleType | _PolicyFunction

# ---- values -----------------------------------------------------------------------------------

class Card(metaclass=_Pybind11Type):
    """One card kind: 'Qh', 'Th', 'Jk' (RULES 0.2). Immutable."""
    def __reduce__(self) -> tuple[Any, ...]: ...
    def __init__(self, card: _CardLike) -> None:
        """Card('Qh'), or a Card (copied); the text is lenient ('qh', '10h', 'JK').
        InvalidNotationError if it is not a card."""
    @staticmethod
    def from_index(index: int) -> Card:
        """The card of canonical index 0..52 (13 * suit + rank - 1; the joker is 52)."""
    @property
    def index(self) -> int:
        """Canonical index: 13 * suit + rank - 1; the joker is 52."""
    @property
    def rank(self) -> _Rank | None:
        """'A', '2', ..., 'K'; None for the joker."""
    @property
    def suit(self) -> _Suit | None:
        """'c', 'd', 'h' or 's'; None for the joker."""
    @property
    def rank_value(self) -> int:
        """A=1 ... K=13; 0 for the joker."""
    @property
    def is_joker(self) -> bool:
        """True for the joker (Jk)."""
    @property
    def is_two(self) -> bool:
        """True for a two of any suit (a wild card, or natural in its run)."""
    @property
    def is_wild(self) -> bool:
        """A joker or any two (wild in hand, RULES A.4)."""
    def __hash__(self) -> int: ...
    def __str__(self) -> str: ...
    def __repr__(self) -> str: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    def __lt__(self, other: Card, /) -> bool: ...
    def __le__(self, other: Card, /) -> bool: ...
    def __gt__(self, other: Card, /) -> bool: ...
    def __ge__(self, other: Card, /) -> bool: ...
    def __copy__(self) -> Card: ...
    def __deepcopy__(self, memo: dict[int, Any], /) -> Card: ...

class Cards(metaclass=_Pybind11Type):
    """An immutable multiset of cards in canonical order: Cards('5h 6h 7h Jk')."""
    def __reduce__(self) -> tuple[Any, ...]: ...
    def __init__(self, cards: _CardsLike = "", *, decks: int = 2) -> None:
        """Cards('5h 6h Jk'), Cards(['5h', Card('6h')]), Cards() (empty); at most two copies of a
        card and four jokers (two decks), else InvalidNotationError. Cards(text, decks=3) allows a
        three-deck pack's 3 copies and 6 jokers (RULES A.1)."""
    @property
    def decks(self) -> int:
        """The pack whose copies this multiset may hold: 2 decks, or 3 (made with decks=3, or
        holding more than two decks have)."""
    def __setattr__(self, name: str, value: Any) -> None: ...
    def __delattr__(self, name: str) -> None: ...
    def __len__(self) -> int: ...
    def __bool__(self) -> bool: ...
    def __iter__(self) -> Iterator[Card]: ...
    def __contains__(self, card: _CardLike, /) -> bool: ...
    def count(self, card: _CardLike) -> int:
        """How many copies of the card the multiset holds."""
    def distinct(self) -> tuple[Card, ...]:
        """The distinct cards, in canonical order."""
    def __str__(self) -> str: ...
    def __repr__(self) -> str: ...
    def __hash__(self) -> int: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    # Sub-multiset comparisons; the other side may be anything Cards() accepts.
    def __le__(self, other: _CardsLike, /) -> bool: ...
    def __lt__(self, other: _CardsLike, /) -> bool: ...
    def __ge__(self, other: _CardsLike, /) -> bool: ...
    def __gt__(self, other: _CardsLike, /) -> bool: ...
    def __add__(self, other: _CardsLike, /) -> Cards: ...
    def __radd__(self, other: _CardsLike, /) -> Cards: ...
    def __sub__(self, other: _CardsLike, /) -> Cards: ...
    def __or__(self, other: _CardsLike, /) -> Cards: ...
    def __and__(self, other: _CardsLike, /) -> Cards: ...
    def __copy__(self) -> Cards: ...
    def __deepcopy__(self, memo: dict[int, Any], /) -> Cards: ...

# ---- rules ------------------------------------------------------------------------------------

_OpeningMinimum: TypeAlias = tuple[tuple[int, int], ...]

@type_check_only
class _Knobs(TypedDict, total=False):
    # The knobs Rules() and Rules.replace() take, in the order of RULES section G (docs/api.md);
    # values as the knob properties below give them. Pairs may also be given as lists.
    players: int
    decks: int
    jokers: int
    card_values: Literal["italian", "pagat_brazil"]
    hand_size: int
    pozzetto_sizes: tuple[int, int] | list[int]
    initial_upcard: bool
    first_draw_rule: Literal["none", "may_reject_first_card"]
    pile_take_requires_meld: bool
    forbid_discard_of_single_pile_card: bool
    natural_two_in_run: bool
    max_wild_per_meld: int
    sets_allowed: bool
    set_ranks: str
    max_sets_per_rank_per_side: int
    max_set_size: int
    ace_low_or_high: Literal["low_or_high", "low_only", "high_only"]
    allow_both_aces_in_run: bool
    allow_orphan_wild_14: bool
    max_run_size: int
    run_wraparound: bool
    wild_display_end: Literal["low"]
    free_end_wild_may_move: bool
    wild_replaced_only_by_its_card: bool
    wild_swap_allowed: bool
    low_natural_two_may_convert: bool
    opening_minimum: Sequence[tuple[int, int] | list[int]] | None
    opening_fail_increment: int
    pozzetto_reveal: Literal["after_partner_turn", "next_own_turn", "immediately"]
    closing_requires_pozzetto: bool
    closing_requires_burraco: Literal["any", "clean"]
    closing_discard: Literal["required", "optional"]
    closing_discard_wild_allowed: bool
    closing_bonus: int
    clean_burraco_bonus: int
    dirty_burraco_bonus: int
    semi_clean_burraco_bonus: int | None
    semi_clean_rule: Literal["longest_natural_block", "wild_at_end"]
    no_pozzetto_penalty: int
    unplayed_pozzetto_rule: Literal["count_as_hand", "min_of_value_and_100", "as_not_taken"]
    stock_end_threshold: int
    pozzetto_becomes_stock: bool
    deadlock_rule: Literal["end_hand", "force_draw"]
    cut_bonus: int
    cut_exact_probability: float
    score_split: Literal["none", "halves_for_pair"]
    match_target: int
    compare: Literal[">", ">="]
    tie_policy: Literal["play_on", "draw"]
    pile_take: Literal["whole_pile"]
    wild_cards: Literal["jokers_and_twos"]
    pozzetto_pickup: Literal["on_the_fly_or_after_discard"]
    pozzetti_per_side: int
    discard_pile_public: bool
    dealer_rotation: Literal["left"]

_KnobValue: TypeAlias = bool | int | float | str | tuple[int, int] | _OpeningMinimum | None

class Rules(metaclass=_Pybind11Type):
    """The rules of one table: a preset plus knob overrides (RULES section G). Rules('italian',
    semi_clean_burraco_bonus=None)."""
    def __reduce__(self) -> tuple[Any, ...]: ...
    PRESETS: ClassVar[tuple[_Preset, ...]]
    def __init__(self, preset: _Preset = "italian", **knobs: Unpack[_Knobs]) -> None:
        """Rules('italian'), or a preset with knobs changed: Rules('brazilian', players=2). An
        unknown preset or knob, a value outside the knob's domain, or a refused combination raises
        InvalidNotationError quoting it."""
    @staticmethod
    def from_text(text: str) -> Rules:
        """The rules of a rules text, as rules.text writes it and the rules= field of a state string
        holds it: the preset, then ':knob=value' for each knob that differs from it, in the knob
        table's order ('brazilian:players=2:semi_clean_burraco_bonus=150'), in that canonical form
        only. Raises InvalidNotationError quoting the text if it is not one."""
    @staticmethod
    def presets() -> dict[str, str]:
        """Every preset's name and a one-line title for a menu ('italian-2p': 'Italian, two
        players'), in the order of Rules.PRESETS (a new dict)."""
    @property
    def text(self) -> str:
        """The rules as one line of text: the preset, then ':knob=value' for each knob that differs
        from it (values as Python literals without spaces). Rules.from_text(rules.text) == rules."""
    @property
    def preset(self) -> _Preset:
        """The preset the knobs start from: one of Rules.PRESETS."""
    def knobs(self) -> dict[str, _KnobValue]:
        """Every knob, name -> value, in the order of the knob table (RULES section G); each is also
        a property of the same name. `sides` is listed only with six players, where it is a
        choice."""
    def replace(self, **knobs: Unpack[_Knobs]) -> Rules:
        """A copy with some knobs changed: rules.replace(players=2); the same checks as the
        constructor."""
    def card_points(self, card: _CardLike) -> int:
        """The card's points (RULES A.3, knob card_values)."""
    @property
    def total_cards(self) -> int:
        """Cards in the pack: 52 per deck plus the jokers."""
    @property
    def initial_stock(self) -> int:
        """Cards left in the stock after the deal (hands, pozzetti and the upcard)."""
    def __repr__(self) -> str: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __copy__(self) -> Rules: ...
    def __deepcopy__(self, memo: dict[int, Any], /) -> Rules: ...
    # One read-only property per knob, in the order of RULES section G.
    @property
    def players(self) -> int: ...
    @property
    def sides(self) -> int: ...
    @property
    def decks(self) -> int: ...
    @property
    def jokers(self) -> int: ...
    @property
    def card_values(self) -> Literal["italian", "pagat_brazil"]: ...
    @property
    def hand_size(self) -> int: ...
    @property
    def pozzetto_sizes(self) -> tuple[int, ...]: ...
    @property
    def initial_upcard(self) -> bool: ...
    @property
    def first_draw_rule(self) -> Literal["none", "may_reject_first_card"]: ...
    @property
    def pile_take_requires_meld(self) -> bool: ...
    @property
    def forbid_discard_of_single_pile_card(self) -> bool: ...
    @property
    def natural_two_in_run(self) -> bool: ...
    @property
    def max_wild_per_meld(self) -> int: ...
    @property
    def sets_allowed(self) -> bool: ...
    @property
    def set_ranks(self) -> str: ...
    @property
    def max_sets_per_rank_per_side(self) -> int: ...
    @property
    def max_set_size(self) -> int: ...
    @property
    def ace_low_or_high(self) -> Literal["low_or_high", "low_only", "high_only"]: ...
    @property
    def allow_both_aces_in_run(self) -> bool: ...
    @property
    def allow_orphan_wild_14(self) -> bool: ...
    @property
    def max_run_size(self) -> int: ...
    @property
    def run_wraparound(self) -> bool: ...
    @property
    def wild_display_end(self) -> Literal["low"]: ...
    @property
    def free_end_wild_may_move(self) -> bool: ...
    @property
    def wild_replaced_only_by_its_card(self) -> bool: ...
    @property
    def wild_swap_allowed(self) -> bool: ...
    @property
    def low_natural_two_may_convert(self) -> bool: ...
    @property
    def opening_minimum(self) -> _OpeningMinimum | None: ...
    @property
    def opening_fail_increment(self) -> int: ...
    @property
    def pozzetto_reveal(self) -> Literal["after_partner_turn", "next_own_turn", "immediately"]: ...
    @property
    def closing_requires_pozzetto(self) -> bool: ...
    @property
    def closing_requires_burraco(self) -> Literal["any", "clean"]: ...
    @property
    def closing_discard(self) -> Literal["required", "optional"]: ...
    @property
    def closing_discard_wild_allowed(self) -> bool: ...
    @property
    def closing_bonus(self) -> int: ...
    @property
    def clean_burraco_bonus(self) -> int: ...
    @property
    def dirty_burraco_bonus(self) -> int: ...
    @property
    def semi_clean_burraco_bonus(self) -> int | None: ...
    @property
    def semi_clean_rule(self) -> Literal["longest_natural_block", "wild_at_end"]: ...
    @property
    def no_pozzetto_penalty(self) -> int: ...
    @property
    def unplayed_pozzetto_rule(
        self,
    ) -> Literal["count_as_hand", "min_of_value_and_100", "as_not_taken"]: ...
    @property
    def stock_end_threshold(self) -> int: ...
    @property
    def pozzetto_becomes_stock(self) -> bool: ...
    @property
    def deadlock_rule(self) -> Literal["end_hand", "force_draw"]: ...
    @property
    def cut_bonus(self) -> int: ...
    @property
    def cut_exact_probability(self) -> float: ...
    @property
    def score_split(self) -> Literal["none", "halves_for_pair"]: ...
    @property
    def match_target(self) -> int: ...
    @property
    def compare(self) -> Literal[">", ">="]: ...
    @property
    def tie_policy(self) -> Literal["play_on", "draw"]: ...
    @property
    def pile_take(self) -> Literal["whole_pile"]: ...
    @property
    def wild_cards(self) -> Literal["jokers_and_twos"]: ...
    @property
    def pozzetto_pickup(self) -> Literal["on_the_fly_or_after_discard"]: ...
    @property
    def pozzetti_per_side(self) -> int: ...
    @property
    def discard_pile_public(self) -> bool: ...
    @property
    def dealer_rotation(self) -> Literal["left"]: ...

# ---- melds ------------------------------------------------------------------------------------

class Meld(metaclass=_Pybind11Type):
    """A meld on the table (RULES B): Meld('Jk 5d 6d') makes a new meld from cards; meld.add('7d')
    lays one off. Immutable."""
    def __reduce__(self) -> tuple[Any, ...]: ...
    # `cards` is a card list (a new meld, RULES B.2-B.4), a layout string containing '(=' (as
    # from_layout), or a Meld made under the same rules.
    def __init__(self, cards: Meld | _CardsLike, rules: Rules | None = None) -> None:
        """Meld('Jk 5d 6d'): a new meld from its cards (the engine places the wild cards as the
        rules say), under `rules` (the Italian rules if None). InvalidMeldError if the cards are no
        meld, InvalidNotationError if they cannot be read."""
    @staticmethod
    def from_layout(layout: str, rules: Rules | None = None) -> Meld:
        """The exact table state written as a layout: '2h 3h ... Kh Ah'."""
    @staticmethod
    def is_valid(cards: _CardsLike, rules: Rules | None = None) -> bool:
        """Whether Meld(cards, rules) would succeed, without raising; unreadable cards still raise
        InvalidNotationError."""
    def add(self, card: _CardLike) -> Meld:
        """The meld after laying off one card (RULES B.2, B.6)."""
    def can_add(self, card: _CardLike) -> bool:
        """Whether meld.add(card) would succeed, without raising (unreadable cards still raise
        InvalidNotationError)."""
    @property
    def kind(self) -> _MeldKind:
        """'set' (same rank, RULES B.3) or 'run' (same suit in sequence, RULES B.4)."""
    @property
    def suit(self) -> _Suit | None:
        """The suit of a run ('c', 'd', 'h' or 's'); None for a set."""
    @property
    def rank(self) -> _Rank | None:
        """The rank of a set ('A', '3', ..., 'K'); None for a run."""
    @property
    def layout(self) -> str:
        """The meld as the table shows it, each wild card with the card it stands for: 'Jk(=4d) 5d
        6d'."""
    @property
    def cards(self) -> Cards:
        """The meld's cards as a multiset (Cards)."""
    @property
    def wild(self) -> Card | None:
        """The wild card in the meld (a joker or a two used as wild), or None for a clean meld."""
    @property
    def wild_state(self) -> _WildState | None:
        """How the wild card sits (RULES B.6): 'bound' inside a run, 'free-low' or 'free-high' at a
        run's end, 'orphan' (a run of 14 with a wild), 'set' in a set; None without a wild card."""
    @property
    def span(self) -> tuple[int, int] | None:
        """A run's lowest and highest slots (1 = ace low ... 14 = ace high); None for a set."""
    @property
    def is_clean(self) -> bool:
        """True if no wild card is in the meld (a natural two in its own place is clean)."""
    @property
    def burraco(self) -> _BurracoClass | None:
        """'clean', 'semi-clean' or 'dirty' for a meld of seven cards or more (a burraco, RULES
        E.1), else None."""
    @property
    def points(self) -> int:
        """The points of the meld's cards (RULES A.3), without the burraco bonus."""
    @property
    def bonus(self) -> int:
        """The burraco bonus the meld earns under its rules (0 below seven cards)."""
    @property
    def rules(self) -> Rules:
        """The rules the meld was made under."""
    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[Card]: ...
    def __str__(self) -> str: ...
    def __repr__(self) -> str: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __copy__(self) -> Meld: ...
    def __deepcopy__(self, memo: dict[int, Any], /) -> Meld: ...

class Melds(metaclass=_Pybind11Type):
    """One side's melds in creation order (RULES B.1.4): melds.meld(cards) puts down a new meld,
    melds.add(index, card) lays one off. Immutable."""
    def __reduce__(self) -> tuple[Any, ...]: ...
    def __init__(
        self, melds: Iterable[Meld | str] | None = None, rules: Rules | None = None
    ) -> None:
        """Melds(['5h 6h 7h', Meld('Qs Qh Qd')]): a side's melds from Meld objects or layouts, in
        creation order; Melds() is none."""
    def meld(self, cards: _CardsLike) -> Melds:
        """A copy with a new meld appended (RULES B.2 one set per rank)."""
    def can_meld(self, cards: _CardsLike) -> bool:
        """Whether melds.meld(cards) would succeed, without raising."""
    def add(self, index: int, card: _CardLike) -> Melds:
        """A copy with `card` laid off on the meld at `index` (creation order); IllegalMoveError if
        the rules refuse it."""
    def can_add(self, index: int, card: _CardLike) -> bool:
        """Whether melds.add(index, card) would succeed, without raising."""
    @property
    def rules(self) -> Rules:
        """The rules the melds were made under."""
    def __len__(self) -> int: ...
    @overload
    def __getitem__(self, index: int, /) -> Meld: ...
    @overload
    def __getitem__(self, index: slice, /) -> Melds: ...
    def __iter__(self) -> Iterator[Meld]: ...
    def __repr__(self) -> str: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __copy__(self) -> Melds: ...
    def __deepcopy__(self, memo: dict[int, Any], /) -> Melds: ...

# ---- moves ------------------------------------------------------------------------------------

class Move(metaclass=_Pybind11Type):
    """One atomic move: Move('meld 5h 6h 7h'), Move('add 2 8h'), Move('discard Qs'), Move('draw').
    Immutable."""
    def __reduce__(self) -> tuple[Any, ...]: ...
    def __init__(self, move: _MoveLike) -> None:
        """Move('discard Qs') from its notation (or a Move, copied); InvalidNotationError if the
        text is not a move. Whether it is legal is the game's question."""
    @property
    def kind(self) -> _MoveKind:
        """What the move does: 'draw' (from the stock), 'pile' (take the discard pile), 'keep' or
        'reject' (the first upcard, when the rules allow), 'meld', 'add' (a lay-off) or
        'discard'."""
    @property
    def cards(self) -> Cards:
        """The cards the move puts down: the meld's cards, the card laid off or discarded; empty for
        draw, pile, keep and reject."""
    @property
    def index(self) -> int | None:
        """For 'add', the index of the meld laid off on (the side's creation order); None for the
        other kinds."""
    def __str__(self) -> str: ...
    def __repr__(self) -> str: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    def __lt__(self, other: Move, /) -> bool: ...
    def __le__(self, other: Move, /) -> bool: ...
    def __gt__(self, other: Move, /) -> bool: ...
    def __ge__(self, other: Move, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __copy__(self) -> Move: ...
    def __deepcopy__(self, memo: dict[int, Any], /) -> Move: ...

class MoveList(metaclass=_Pybind11Type):
    """The legal moves of a position in canonical order: a read-only sequence (len, [i], iteration,
    `in`, index, ==) that makes Move objects on demand."""
    def __reduce__(self) -> tuple[Any, ...]: ...
    # A read-only sequence of the legal moves of one position (game.legal_moves()). It is not
    # registered as a collections.abc.Sequence; list(moves) makes a list.
    def __len__(self) -> int:
        """The number of moves: len(moves)."""
    def __bool__(self) -> bool: ...
    @overload
    def __getitem__(self, index: int, /) -> Move:
        """moves[i] (a Move, made on demand) or moves[a:b] (a list of Moves)."""
    @overload
    def __getitem__(self, index: slice, /) -> list[Move]: ...
    def __iter__(self) -> Iterator[Move]: ...
    def __contains__(self, move: object, /) -> bool: ...
    def index(self, move: _MoveLike, /) -> int:
        """The position of a move in the list; ValueError if it is not in it."""
    def count(self, move: _MoveLike, /) -> int:
        """How many times the move is in the list (0 or 1)."""
    def strings(self) -> list[str]:
        """The moves' notations, in order."""
    def __repr__(self) -> str: ...
    # Equal to another MoveList, or to a list or tuple of the same Moves.
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    __hash__: ClassVar[None]  # type: ignore[assignment]

# ---- the game ---------------------------------------------------------------------------------

# game.pozzetti: per packet (status, owner seat or None, its cards while untaken or face down).
_Packet: TypeAlias = tuple[_PacketStatus, int | None, Cards]
# observation.pozzetti: per packet (status, owner, size while a packet, cards if visible).
_ObservedPacket: TypeAlias = tuple[_PacketStatus, int | None, int | None, Cards | None]

class Game(metaclass=_Pybind11Type):
    """One hand of Burraco: Game(Rules('italian'), seed=7)."""
    def __reduce__(self) -> tuple[Any, ...]: ...
    def _record_history(self) -> tuple[str, list[str]]:
        """(the state string the history starts from, the moves' notation): what game.record()
        needs, read in one call instead of undoing every move from Python."""
    def _record_line(self) -> tuple[str, int]:
        """(the game record as one line of JSON, its number of moves): the text of
        json.dumps(game.record(), separators=(',', ':')), written by the core without the record's
        dict; what a self-play shard writes for each hand."""
    # A seed or an explicit deck order (never both); neither: a seed from os.urandom. The rules
    # may be given as a preset's name: Game('italian-2p') is Game(Rules('italian-2p')).
    @overload
    def __init__(
        self,
        rules: Rules | _Preset | None = None,
        *,
        seed: int | None = None,
        first_player: int = 0,
        scores: tuple[SupportsIndex, ...] | list[SupportsIndex] | None = None,
    ) -> None:
        """Deals a hand: Game(Rules('italian'), seed=7), or Game('italian-2p', seed=7) with a
        preset's rules. The deal is fixed by the seed (a random one if None), or given as `deck`,
        the whole pack in dealing order; `first_player` is the seat to play first and `scores` the
        sides' scores before this hand (a match)."""
    @overload
    def __init__(
        self,
        rules: Rules | _Preset | None = None,
        *,
        seed: None = None,
        deck: str | Iterable[_CardLike],
        first_player: int = 0,
        scores: tuple[SupportsIndex, ...] | list[SupportsIndex] | None = None,
    ) -> None: ...
    @staticmethod
    def from_state_string(state: str) -> Game:
        """The game of a state string (game.state_string(), docs/notation.md): the position with no
        history. InvalidStateError quoting the reason if the text is not a position that can arise
        in play."""
    def state_string(self) -> str:
        """The position as one line of text ('v=1;rules=italian;...'), every card placed:
        Game.from_state_string reads it back."""
    # is_over, legal_moves, push_index and push are plain CPython methods (docs/search.md): they
    # take their arguments by position only.
    def is_over(self, /) -> bool:
        """True once the hand has ended."""
    def legal_moves(self, /) -> MoveList:
        """Every legal move, in the canonical order, as a MoveList (a read-only sequence that makes
        Move objects on demand; it is cached until the position changes)."""
    def push_index(self, index: SupportsIndex, /) -> None:
        """Plays legal_moves()[index] without making a Move object (the fast step of a Python loop);
        IllegalMoveError, nothing changed, if there is no such move."""
    def push(self, move: _MoveLike, /) -> None:
        """Plays a legal move, a Move or its notation ('add 2 8h 9h' lays off several cards on meld
        2 in a legal order); raises IllegalMoveError and changes nothing otherwise."""
    def pop(self) -> Move:
        """Undoes the last move and returns it; IndexError if no move was played."""
    def playout(self, policy: _PolicyLike = "random", seed: int = 0) -> int:
        """Plays the hand to its end with a policy (docs/search.md, docs/native.md) and returns the
        number of moves played: 'random' is uniform over the candidates, drawn with the deal
        contract's generator from `seed`; 'greedy' takes a pile that pays, melds the longest meld,
        lays off, else discards the least useful card; 'heuristic' plays the move its evaluation
        prefers (docs/bots.md); a Policy, a native policy or a Python callable (view, moves) ->
        index plays its own choices. A policy that fails raises PolicyError and leaves the game as
        it was."""
    def policy_move(self, policy: _PolicyLike = "greedy", seed: int = 0) -> Move:
        """The move the policy would play now: the first move of playout(policy, seed), without
        playing it (docs/search.md). Raises IllegalMoveError when the hand is over."""
    @property
    def action_size(self) -> int:
        """The number of action ids of these rules: every move that can occur under them has a fixed
        id in range(action_size), the same in every position."""
    def action_id(self, move: _MoveLike) -> int:
        """The move's fixed action id, in range(action_size); InvalidNotationError if the move
        cannot occur under these rules."""
    def action_move(self, id: SupportsIndex) -> Move:
        """The move an action id stands for (the inverse of action_id)."""
    def legal_mask(self, out: npt.NDArray[np.bool_] | None = None) -> npt.NDArray[np.bool_]:
        """A bool array of action_size entries, True at the action id of every legal move; written
        into `out` (a writeable C-contiguous bool array of that shape) if given."""
    def push_action(self, id: SupportsIndex) -> None:
        """Plays the move of an action id; IllegalMoveError (nothing changed) if it is not legal
        here."""
    def observation_tensor(
        self, player: int, out: npt.NDArray[np.float32] | None = None
    ) -> npt.NDArray[np.float32]:
        """The 511 float32 features of observation(player), for a network (the player's hand, the
        discard pile, the cards known in other hands, the melds, the sizes, the pozzetti, the phase
        and the seat to act; nothing hidden is read); 681 with six players; written into `out` (a
        writeable C-contiguous float32 array of that size) if given."""
    def observation(self, player: int) -> Observation:
        """What that player may know of the game (RULES C.9): its own hand, the cards seen in other
        hands, the hand sizes and everything on the table."""
    def determinize(self, player: int, seed: int) -> Game:
        """A game consistent with that player's observation, the unseen cards dealt from `seed`
        (reads only the observation: the same observation and seed give the same game); a position
        of play, where the seat to act has a legal move (docs/search.md)."""
    def copy(self) -> Game:
        """An independent copy of the game, history included (cheap: the history is shared until
        either changes)."""
    def __copy__(self) -> Game: ...
    def __deepcopy__(self, memo: dict[int, Any], /) -> Game: ...
    def __eq__(self, other: object, /) -> bool:
        """Same position (state string) and same moves played, as chess.Board compares."""
    def __ne__(self, other: object, /) -> bool: ...
    # A Game is mutable: it is compared, never hashed.
    __hash__: ClassVar[None]  # type: ignore[assignment]
    @property
    def moves(self) -> list[Move]:
        """The moves played so far, in order (a new list each time)."""
    @property
    def rules(self) -> Rules:
        """The rules of the hand."""
    @property
    def seed(self) -> int | None:
        """The seed the hand was dealt from, or None for a deal given as a deck or read from a state
        string without one."""
    @property
    def players(self) -> int:
        """The number of players (2, 3, 4 or 6)."""
    @property
    def first_player(self) -> int:
        """The seat that played first."""
    @property
    def turn(self) -> int:
        """The seat to act (0..players-1)."""
    @property
    def phase(self) -> _Phase:
        """'draw' (the seat to act must draw or take the pile), 'meld' (it may meld, lay off, then
        must discard) or 'over'."""
    @property
    def scores(self) -> tuple[int, ...]:
        """The sides' scores before this hand (the match so far), in side order."""
    def hand(self, player: int) -> Cards:
        """The cards in that player's hand."""
    def known(self, player: int) -> Cards:
        """The cards of that player's hand the other players have seen (taken from the discard pile,
        RULES C.9)."""
    def side_of(self, player: int) -> int:
        """The side that player plays for."""
    @property
    def sides(self) -> tuple[int, ...]:
        """The sides in play, in order."""
    def melds(self, side: int) -> Melds:
        """That side's melds on the table, in creation order (Melds)."""
    @property
    def discard_pile(self) -> Cards:
        """The cards of the discard pile, as a multiset (the top card is top_discard)."""
    @property
    def top_discard(self) -> Card | None:
        """The card on top of the discard pile, or None when the pile is empty."""
    @property
    def stock_size(self) -> int:
        """The number of cards left in the stock."""
    @property
    def stock(self) -> tuple[Card, ...]:
        """The stock, from the next card drawn to the last."""
    @property
    def pozzetti(self) -> tuple[_Packet, ...]:
        """The pozzetti (the packets set aside at the deal): (status, owner side or None, cards)
        each; status is 'untaken', 'face_down', 'seen', 'in_hand' or 'stock'."""
    @property
    def cut_side(self) -> int | None:
        """The side that earned the cut bonus, or None."""
    @property
    def end_reason(self) -> _EndReason | None:
        """Why the hand ended ('closed', 'stock_exhausted', 'deadlock'), or None while it goes
        on."""
    def result(self) -> Result:
        """The score breakdown of the finished hand; IllegalMoveError while it goes on."""
    def __repr__(self) -> str: ...
    # The board (burraco._board.game_str) and the records and JSON views (burraco._records,
    # docs/records.md): the methods call the package's Python, written once for both engines.
    def __str__(self) -> str:
        """The table as text, as str(chess.Board) draws a board: stock, the pile in order, pozzetti,
        melds, hands and whose turn (burraco._board.game_str; docs/cli.md "The board")."""
    def record(self) -> Record:
        """The hand as a game record: a JSON-serialisable dict (docs/records.md). Fields: format
        ('burraco-record'), version (1), rules (the state string's rules text), first, scores (at
        the start of the hand), how the hand was dealt (seed, else deck, else start: the state
        string the history starts from), moves (notation) and result (None while the hand goes on).
        Game.from_record replays it."""
    @staticmethod
    def from_record(data: Record | str, /) -> Game:
        """The game of a record (a dict, or one JSON line): dealt as it says, its moves replayed, so
        that the state string and the history (moves, pop()) are the recorded game's. Refuses a bad
        record, quoting the bad part: InvalidNotationError (not JSON, unknown format or version, a
        missing field or one of the wrong type, a move that is not a move), IllegalMoveError (an
        illegal move, by its number from 1), InvalidStateError (a deck that is not the full pack; a
        seed, deck or start that disagree; a recorded result the replay does not give)."""
    def to_json(self, player: int | None = None, *, indent: int | None = None) -> str:
        """The hand as JSON text (docs/records.md "JSON views"). player=k: what seat k may see,
        built from observation(k) (own hand; other hands as sizes and known cards; melds, pile,
        stock size, packets without hidden cards; the legal moves when k is to act; the observation
        string). player=None: the whole state, with the state string, which Game.from_json restores.
        indent is passed to json.dumps."""
    @staticmethod
    def from_json(text: str, /) -> Game:
        """The game of a full JSON view (game.to_json()), no history. A player's view is refused
        (InvalidStateError: it hides cards), and so is a view whose fields contradict its state
        string (InvalidStateError, quoting the field)."""

class Observation(metaclass=_Pybind11Type):
    """What one player may know of a game (RULES C.9): game.observation(p)."""
    def __reduce__(self) -> tuple[Any, ...]: ...
    @property
    def player(self) -> int:
        """The seat whose view this is."""
    @property
    def rules(self) -> Rules:
        """The rules of the game observed."""
    @property
    def turn(self) -> int:
        """The seat to act."""
    @property
    def phase(self) -> _Phase:
        """'draw', 'meld' or 'over', as game.phase."""
    @property
    def hand(self) -> Cards:
        """The observing player's own hand."""
    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """How many cards each seat holds, in seat order."""
    @property
    def known(self) -> tuple[Cards, ...]:
        """Per seat, the cards everyone knows to be in that hand: taken with the pile and not played
        since (RULES C.9; public, the observer's own seat too)."""
    @property
    def stock_size(self) -> int:
        """The number of cards left in the stock."""
    @property
    def discard_pile(self) -> Cards:
        """The cards of the discard pile (public: RULES C.9)."""
    @property
    def top(self) -> Card | None:
        """The top card of the discard pile, or None."""
    def melds(self, side: int) -> Melds:
        """That side's melds on the table (public), in creation order."""
    @property
    def pozzetti(self) -> tuple[_ObservedPacket, ...]:
        """Each pozzetto as (status, owner side or None, size or None, cards or None): the cards
        only where the observer may see them."""
    @property
    def sides(self) -> tuple[int, ...]:
        """The side of each seat now (with three players the pair becomes side 3 once the first
        pozzetto is taken, RULES F.6)."""
    @property
    def opened(self) -> tuple[bool, ...]:
        """Per side slot: whether the side has met its brazilian opening minimum (False throughout
        under rules without one)."""
    @property
    def need(self) -> tuple[int, ...]:
        """Per side slot: the brazilian opening minimum the side still has to meet (0 once met or
        without one)."""
    @property
    def scores(self) -> tuple[int, ...]:
        """The sides' scores before this hand."""
    def __str__(self) -> str: ...
    def __repr__(self) -> str: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __copy__(self) -> Observation: ...
    def __deepcopy__(self, memo: dict[int, Any], /) -> Observation: ...

# ---- playouts and search ----------------------------------------------------------------------

@type_check_only
class _PlayoutTable(TypedDict):
    # burraco.playouts(): row i is hand i (docs/search.md "Playouts").
    seed: npt.NDArray[np.uint64]
    scores: npt.NDArray[np.int32]  # shape (n, 2), or (n, 3) with three players
    moves: npt.NDArray[np.int32]
    end_reason: npt.NDArray[np.uint8]  # 1 + the index into END_REASONS

END_REASONS: Final[tuple[_EndReason, _EndReason, _EndReason]]
MAX_HAND_MOVES: Final[int]  # the move cap of the policy loops (docs/search.md "Move cap")

def playouts(
    rules: Rules | None,
    n: int,
    *,
    seed: int = 0,
    policy: _PolicyLike = "random",
    threads: int = 1,
) -> _PlayoutTable:
    """Plays n whole hands from seeds derived from `seed` (hand i from batch seed i): a dict of
    NumPy arrays 'seed', 'scores', 'moves', 'end_reason' (1 closed, 2 stock exhausted, 3 deadlock).
    Releases the GIL; `threads` splits the hands, the result does not depend on it (native policies
    run on every thread at once; a Python policy takes the GIL for each move)."""
def perft(game: Game, depth: int) -> int:
    """Leaf nodes of every legal move sequence of that depth."""

@type_check_only
class _ArenaTable(TypedDict):
    # burraco._core._arena_pairs(): row 2i + g is game g of pair i (docs/bots.md "Arena"); with
    # matches=True one row per hand, every play's hands in order, and the match_* keys per play.
    pair: npt.NDArray[np.uint64]
    game: npt.NDArray[np.uint8]
    hand_seed: npt.NDArray[np.uint64]
    scores: npt.NDArray[np.int32]  # shape (n, 2): per side
    moves: npt.NDArray[np.int32]
    end_reason: npt.NDArray[np.uint8]
    seconds: npt.NDArray[np.float64]  # shape (n, 2): per bot
    decisions: npt.NDArray[np.int32]  # shape (n, 2): per bot
    history: list[list[str]] | None
    hand: npt.NDArray[np.int32]  # the hand's index in its match (0 without matches)
    first_player: npt.NDArray[np.uint8]
    before: npt.NDArray[np.int32]  # shape (n, 2): the match scores before the hand
    match_pair: NotRequired[npt.NDArray[np.uint64]]
    match_game: NotRequired[npt.NDArray[np.uint8]]
    match_scores: NotRequired[npt.NDArray[np.int32]]  # shape (m, 2): final, per side
    match_hands: NotRequired[npt.NDArray[np.int32]]
    match_winner: NotRequired[npt.NDArray[np.int8]]  # the side, or -1: a draw

def _arena_pairs(
    rules: Rules | None,
    a: ISMCTS | _PolicyLike,
    b: ISMCTS | _PolicyLike,
    *,
    seed: int,
    first: int,
    stop: int,
    threads: int = 1,
    keep_moves: bool = False,
    progress: Callable[[int], object] | None = None,
    matches: bool = False,
) -> _ArenaTable:
    """The engine of burraco.arena (docs/bots.md): duplicate pairs first..stop-1 of bots a and b (an
    ISMCTS or a policy), each pair one deal played twice with the seats swapped, on `threads`
    threads without the GIL. A dict of NumPy arrays, one row per game in pair order (game 0: a on
    the even seats, side 0): 'pair', 'game', 'hand_seed', 'scores' (per side), 'moves',
    'end_reason', 'seconds' and 'decisions' (per bot: CPU seconds choosing, moves chosen), 'history'
    (the moves' texts per game, or None), 'hand' (its index in its match), 'first_player' and
    'before' (the match scores before it). With matches=True each pair is a whole match to the
    target played twice with the sides swapped on the same deals (arena.hpp): one row per hand,
    every play's hands in order, and per play 'match_pair', 'match_game', 'match_scores' (final, per
    side), 'match_hands' and 'match_winner' (the side, or -1 for a draw). progress(done) counts the
    games (or plays of a match) done, about ten times a second; Ctrl-C stops the threads after their
    current games."""

# ---- policies (docs/native.md) ----------------------------------------------------------------

POLICY_ABI: Final[int]  # the native policy interface version (BURRACO_POLICY_ABI of policy.h)

class Policy(metaclass=_Pybind11Type):
    """A policy as a value (docs/native.md): Policy('greedy'), Policy('mymodule:policy'),
    Policy(callable). Accepted wherever a policy is."""
    def __reduce__(self) -> tuple[Any, ...]: ...
    def __init__(self, source: Policy | str | CapsuleType | _PolicyFunction) -> None:
        """A policy: 'random', 'greedy' or 'heuristic' (built in), 'module:attribute' (imports the
        module and takes that attribute), a native policy (the capsule a Cython or C++ module
        exports with burraco/policy.h), or a Python callable (view, moves) -> index. A native policy
        built against another interface version raises PolicyError naming both versions."""
    @property
    def name(self) -> str:
        """The policy's name: the built-in name, the native policy's own, or the callable's."""
    @property
    def kind(self) -> Literal["builtin", "native", "python"]:
        """'builtin', 'native' (runs without the GIL) or 'python' (takes the GIL for each call)."""
    @property
    def spec(self) -> str | None:
        """The text the policy was made from ('greedy', 'module:attribute'), or None."""
    @property
    def source(self) -> CapsuleType | _PolicyFunction | None:
        """The capsule or callable behind the policy (None for a built-in)."""
    def __repr__(self) -> str: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __copy__(self) -> Policy: ...
    def __deepcopy__(self, memo: dict[int, Any], /) -> Policy: ...

class ISMCTS(metaclass=_Pybind11Type):
    """Information-set Monte Carlo tree search (docs/search.md): ISMCTS(iterations=1000,
    seed=0).choose(game) -> Move. Reads only the observation of the seat to act."""
    def __reduce__(self) -> tuple[Any, ...]: ...
    def __init__(
        self,
        *,
        iterations: int | None = 1000,
        seed: int = 0,
        exploration: float = 0.7,
        policy: _PolicyLike | None = None,
        max_rollout_moves: int | None = None,
        reward: Literal["win", "margin", "equity"] = "margin",
        margin_scale: float = 300.0,
        evaluation: Literal["score", "heuristic"] = "score",
        opponents: Literal["tree", "policy", "random", "greedy", "heuristic"] = "heuristic",
        time_limit: float | None = None,
        threads: int = 1,
        keep_tree: bool = False,
        equity_sigma: float = 720.0,
        equity_points: float = 600.0,
    ) -> None:
        """A search with these parameters (docs/search.md "Search"); one ISMCTS may choose for any
        game, any number of times: each choose() builds a fresh tree. A fresh ISMCTS with a given
        seed always makes the same choices unless a time_limit stops it; choose() advances its
        generator, so successive calls differ. Wrong types raise TypeError, values out of range
        BurracoError."""
    def choose(self, game: Game) -> Move:
        """A legal move for the seat to act, by a fresh search (releases the GIL). Calls on one
        ISMCTS from several threads run one after the other."""
    def hint(self, game: Game) -> list[tuple[Move, int, float]]:
        """Searches the position as choose() does and ranks the root's moves: a list of (move,
        visits, mean reward of the seat's side), most visited first (burraco.hint)."""
    @property
    def iterations(self) -> int | None:
        """The number of search iterations per choose() (each one determinization, descent and
        playout), a cap when time_limit is set; None: the time limit alone."""
    @property
    def reward(self) -> Literal["win", "margin", "equity"]:
        """'win' (1, 0.5 or 0 by who leads at the end of the playout), 'margin' (0.5 + 0.5 *
        tanh(margin / margin_scale)) or 'equity' (the side's chance of winning the match from the
        game's scores, match_equity())."""
    @property
    def margin_scale(self) -> float:
        """The points that scale the margin reward."""
    @property
    def equity_sigma(self) -> float:
        """The equity reward's standard deviation of one hand's margin (points)."""
    @property
    def equity_points(self) -> float:
        """The equity reward's mean points a side scores in a hand."""
    def match_equity(
        self, rules: Rules | None, before: tuple[float, float], hand: tuple[float, float]
    ) -> tuple[float, float]:
        """The equity reward of a hand's end (docs/search.md "Search options"): (side 0's, side 1's)
        probability of winning a match under `rules` (two sides) when the sides had `before` points
        and scored `hand` points in the hand, by this search's equity_sigma and equity_points."""
    @property
    def evaluation(self) -> Literal["score", "heuristic"]:
        """How a cut playout is valued: 'score' (as if the hand ended now) or 'heuristic' (the
        heuristic policy's evaluation)."""
    @property
    def opponents(self) -> Literal["tree", "policy", "random", "greedy", "heuristic"]:
        """Who plays the other seats inside the tree: 'tree' (tree nodes, by UCB), 'policy' (the
        rollout policy, from what each seat sees) or 'random', 'greedy', 'heuristic' (that built-in
        policy, from what each seat sees)."""
    @property
    def time_limit(self) -> float | None:
        """Seconds of wall-clock time a choose() may search, or None."""
    @property
    def threads(self) -> int:
        """Root-parallel trees, one per thread, their root statistics summed."""
    @property
    def keep_tree(self) -> bool:
        """Whether the subtree of a chosen pile take, meld or lay-off is kept for the seat's next
        decision of the turn (one tree only)."""
    @property
    def seed(self) -> int:
        """The seed of the search's generator (determinizations, expansions, playouts)."""
    @property
    def exploration(self) -> float:
        """The UCB exploration constant of the tree policy."""
    @property
    def policy(self) -> Policy | _PolicyName | None:
        """The rollout policy below the tree: 'random', 'greedy' or 'heuristic', the Policy given,
        or None (greedy with two players, random with more)."""
    @property
    def max_rollout_moves(self) -> int | None:
        """The cap on playout moves below the tree (the position is then scored as it stands), or
        None for playouts to the end of the hand."""
    @property
    def nodes(self) -> int:
        """Tree nodes of the last search (the root included); waits for a search in progress."""
    @property
    def last_iterations(self) -> int:
        """Iterations the last search ran (0 when the move was forced); waits for a search in
        progress."""
    def root_stats(self) -> list[tuple[Move, int, int, float]]:
        """The root's moves after the last search: (move, visits, availability, summed reward).
        Waits for a search in progress on another thread, then reads its finished tree."""
    def __repr__(self) -> str:
        """ISMCTS(iterations=..., seed=..., ...): the constructor call with every parameter."""

# ---- the vector environment (docs/rl.md "The vector environment") ---------------------------

class VectorGames(metaclass=_Pybind11Type):
    """N hands of one rule set stepped together (docs/rl.md "The vector environment"): the learner
    plays one seat of each, policies the other seats inside step(), which writes observations,
    masks, rewards and done flags into the caller's NumPy arrays without the GIL, on `threads`
    threads. burraco.envs.vector.BurracoVectorEnv is its Gymnasium interface."""
    def __init__(
        self,
        rules: Rules | None,
        num_envs: int,
        *,
        seat: int = 0,
        opponent: _PolicyLike = "random",
        partner: _PolicyLike | None = None,
        reward: Literal["margin", "win"] = "margin",
        reward_scale: float = 2000.0,
        threads: int = 1,
    ) -> None:
        """num_envs hands of `rules`; the learner plays `seat`, `opponent` every other seat (with
        four players `partner`, if given, plays seat + 2): 'random', 'greedy', 'heuristic' or a
        burraco.Policy that is built in or native (a Python policy needs the GIL). reward: 'margin'
        (margin / reward_scale) or 'win' (+1, -1, 0). Every env waits for its reset."""
    @property
    def num_envs(self) -> int:
        """The number of envs."""
    @property
    def threads(self) -> int:
        """The threads a step runs on (at most num_envs)."""
    @property
    def seat(self) -> int:
        """The learner's seat in every env."""
    @property
    def rules(self) -> Rules:
        """The rules of every hand."""
    @property
    def opponent(self) -> Policy | _PolicyName:
        """The policy of the other seats."""
    @property
    def partner(self) -> Policy | _PolicyName | None:
        """The partner's policy (four players), or None: the opponent's."""
    @property
    def reward(self) -> str:
        """'margin' or 'win'."""
    @property
    def reward_scale(self) -> float:
        """What a margin is divided by (reward 'margin')."""
    @property
    def action_size(self) -> int:
        """The width of a mask row: the number of action ids of the rules."""
    @property
    def observation_size(self) -> int:
        """The width of an observation row (511)."""
    def seed(self, env: int, state: int, inc: int) -> None:
        """Gives env `env` the generator NumPy's PCG64 has in the state (state, inc) (its
        bit_generator.state['state']; inc is odd, an even one raises InvalidNotationError): the
        deals of its resets without a seed and the seeds of the other seats' moves are drawn from
        it, as BurracoEnv draws them from np_random."""
    def reset(
        self,
        env: int,
        deal: int | None,
        observations: npt.NDArray[np.float32],
        masks: npt.NDArray[np.int8] | npt.NDArray[np.bool_],
    ) -> None:
        """Starts a new hand in env `env`: the deal of seed `deal`, or (None) of the seed its
        generator draws; the other seats play up to the learner's first move, and row `env` of
        `observations` (float32, num_envs x 511) and `masks` (int8 or bool, num_envs x action_size)
        is written."""
    def step(
        self,
        actions: npt.NDArray[np.integer[Any]],
        observations: npt.NDArray[np.float32],
        masks: npt.NDArray[np.int8] | npt.NDArray[np.bool_],
        rewards: npt.NDArray[np.float64],
        terminated: npt.NDArray[np.bool_],
        truncated: npt.NDArray[np.bool_],
        margins: npt.NDArray[np.float64],
        *,
        masks_unchanged: bool = False,
    ) -> None:
        """One step of every env, the GIL released: the learner plays its action id (row i of
        `actions`, an integer array of num_envs), then the other seats play until it is to act again
        or the hand is over; an env whose hand ended at the previous step is reset instead (its
        action unread; reward 0). Row i of every output is written: `observations` (float32,
        num_envs x 511), `masks` (int8 or bool, num_envs x action_size; all 0 when the hand is
        over), `rewards`, `margins` (float64: the learner's margin in points at the hand's end, else
        0), `terminated`, `truncated` (bool; truncated is always False). Every action is checked
        first: an id outside range(action_size) raises InvalidNotationError, an illegal one
        IllegalMoveError, each naming the env and the action, and then no env is stepped.
        masks_unchanged=True vouches that nobody wrote into `masks` since this object last did: a
        row it wrote there then has only the ids it set cleared, not every byte (much less memory
        traffic; what BurracoVectorEnv(copy=False) passes)."""
    def random_actions(self, seed: int, out: npt.NDArray[np.int64]) -> None:
        """Writes into `out` (int64, num_envs) a uniformly random legal action of each env: the
        legal ids of env i in canonical move order, one picked with the deal contract's generator
        seeded by the i-th SplitMix64 output of `seed` (0 for an env that waits for its reset). A
        masked random learner, for baselines and benches."""
    def game(self, env: int) -> Game:
        """A copy of env `env`'s hand now (without its moves' history): over when the last step
        ended it."""
    def needs_reset(self, env: int) -> bool:
        """Whether env `env` was never reset or its hand is over: its next step resets it."""
    def __repr__(self) -> str: ...

# ---- private: what the __reduce__ methods name, and hooks of the tests and benches ------------
# Pickle support (docs/api.md "Pickling and copying"): each refuses data it did not write with
# InvalidStateError.

def _restore_move(text: Any, decks: Any) -> Move:
    """Unpickles a Move of a three-deck game (what move.__reduce__ names for a set holding a third
    copy of a card; the other values' restorers are burraco._pickle's)."""
def _set_move_cap(cap: int) -> int:
    """A test hook: the move cap of the policy loops from now on (MAX_HAND_MOVES restores it);
    returns the previous one."""
def _legal_moves_repeat(game: Game, calls: int) -> int:
    """Generates the legal moves of the game's position `calls` times in one C++ loop and returns
    how many moves that gave in all (a bench helper: no cache, no Python per call)."""
def _policy_view_repeat(game: Game, calls: int) -> int:
    """Fills the native view of the game's position (its legal moves as the candidates) `calls`
    times in one C++ loop, the storage kept from call to call as a policy loop keeps it; returns the
    summed move and meld counts (a bench helper)."""
