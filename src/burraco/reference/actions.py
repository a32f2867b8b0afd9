"""A fixed action space and an observation tensor, for learning (docs/search.md "Actions and tensors
for learning").

Action ids, per rule set (``action_size`` of them)::

    0, 1, 2, 3          draw, pile, keep, reject
    4 + k               discard the card of index k (0..52, docs/api.md "card index")
    57 + 53 * i + k     add i <card k>, meld index i from 0 to 35
    1965 + m            meld the m-th multiset of the rules' meld table (T entries)
    1965 + T + 53 * j + k   add 36 + j <card k>: the meld indices past 35 a pack of more than
                        108 cards allows (three decks; none with two)

The **meld table** (:func:`meld_table`) lists, once each and in canonical meld order (the order of
``meld`` moves in ``legal_moves()``), every multiset of a few fixed shapes that is a valid new meld
under the rules and that the deck holds: sets (a rank other than two, 0 to ``decks`` copies of each
suit -- 2, or 3 with three decks --, no wild or one) and runs (a window of slots, its naturals, plus a wild or with one natural replaced
by a wild). It is built once per :class:`.rules.Rules` by asking :meth:`.melds.Meld.is_valid`.

The observation tensor (:func:`observation_tensor`) is 511 float32 features of an
:class:`.search.Observation` with 2, 3 or 4 players, laid out as :data:`TENSOR_LAYOUT` says, and
681 with six players, laid out as :data:`TENSOR_LAYOUT_SIX` says (:func:`observation_size`); it
reads the observation only (its accessors and its observation string), never the game. Only the
six-player layout is new: the meld table of a three-deck game grows by the sets that hold a third
copy, and every id of a two-deck game is what it was. A meld holds three cards or more, so a side
has at most a third of the pack on the table: 36 melds with two decks, 54 with three; the lay-offs
on a three-deck side's melds 36 to 53 come after the meld table, and no earlier id moves.
"""

from __future__ import annotations

import functools
import itertools
import operator
from collections import Counter
from typing import TYPE_CHECKING

import numpy as np

from .._errors import InvalidNotationError
from .cards import JOKER_INDEX, Card, Cards
from .melds import Meld
from .moves import Move
from .rules import Rules

if TYPE_CHECKING:
    from .observation import Observation

__all__ = [
    "ACTION_MELD_BASE",
    "OBSERVATION_SIZE",
    "OBSERVATION_SIZE_SIX",
    "TENSOR_LAYOUT",
    "TENSOR_LAYOUT_SIX",
    "MeldTable",
    "action_id",
    "action_move",
    "action_size",
    "check_action",
    "meld_table",
    "observation_size",
    "observation_tensor",
    "output_array",
]

CARD_KINDS = JOKER_INDEX + 1  # 53: the card indices 0..52

# --- the action space -----------------------------------------------------------------------------

#: The ids of the four moves without cards.
BARE_ACTIONS = {"draw": 0, "pile": 1, "keep": 2, "reject": 3}
ACTION_DISCARD_BASE = 4
ACTION_ADD_BASE = ACTION_DISCARD_BASE + CARD_KINDS  # 57
#: Lay-offs on meld indices 0..35 have their ids here; those on 36 and up (three decks) after the
#: meld table (:func:`late_add_melds`).
ACTION_ADD_MELDS = 36
ACTION_MELD_BASE = ACTION_ADD_BASE + ACTION_ADD_MELDS * CARD_KINDS  # 1965

#: The cards a meld of the table may hold as its one wild: the joker, then the two of each suit.
_WILD_INDICES = (JOKER_INDEX, 1, 14, 27, 40)
_CARDS = tuple(Card.from_index(index) for index in range(CARD_KINDS))


class MeldTable:
    """The meld table of one rule set: ``moves[m]`` is the ``meld`` move of id ``1965 + m``;
    ``number`` maps a meld's card indices (canonical order) to m."""

    __slots__ = ("moves", "number")

    def __init__(self, moves: tuple[Move, ...]) -> None:
        self.moves = moves
        self.number = {_key(move): m for m, move in enumerate(moves)}

    def __len__(self) -> int:
        return len(self.moves)


def _key(move: Move) -> tuple[int, ...]:
    """A meld move's card indices in canonical card order (its multiset)."""
    return tuple(card.index for card in move.cards)


def _slot_index(suit: int, slot: int) -> int:
    """The card index of the natural card of run slot 1..14 of a suit (slots 1 and 14: the ace)."""
    rank = 1 if slot == 14 else slot
    return 13 * suit + rank - 1


def _set_shapes(decks: int) -> list[list[int]]:
    """Per rank other than two: 0 to ``decks`` copies of each suit, at least two in all; with no
    wild (then at least three cards) or one wild of any kind."""
    shapes = []
    for rank in (1, *range(3, 14)):
        for copies in itertools.product(range(decks + 1), repeat=4):
            naturals = [13 * suit + rank - 1
                        for suit, count in enumerate(copies) for _ in range(count)]
            if len(naturals) < 2:
                continue
            if len(naturals) >= 3:
                shapes.append(naturals)
            shapes.extend(naturals + [wild] for wild in _WILD_INDICES)
    return shapes


def _run_shapes() -> list[list[int]]:
    """Per suit and window of slots lo..hi (1 <= lo, lo + 2 <= hi <= 14): the natural card of every
    slot; those plus one wild; those with one slot's card taken out and one wild put in."""
    shapes = []
    for suit in range(4):
        for low in range(1, 13):
            for high in range(low + 2, 15):
                naturals = [_slot_index(suit, slot) for slot in range(low, high + 1)]
                shapes.append(naturals)
                shapes.extend(naturals + [wild] for wild in _WILD_INDICES)
                for out in range(len(naturals)):
                    rest = naturals[:out] + naturals[out + 1:]
                    shapes.extend(rest + [wild] for wild in _WILD_INDICES)
    return shapes


def _deck_holds(key: tuple[int, ...], rules: Rules) -> bool:
    """Whether the deck has these cards: at most ``decks`` copies of a suited card and at most
    ``jokers`` jokers."""
    return all(count <= (rules.jokers if index == JOKER_INDEX else rules.decks)
               for index, count in Counter(key).items())


@functools.cache
def meld_table(rules: Rules) -> MeldTable:
    """The meld table of ``rules`` (module docstring), built once per rule set."""
    keys = {tuple(sorted(shape)) for shape in _set_shapes(rules.decks) + _run_shapes()}
    moves = []
    for key in keys:
        if not _deck_holds(key, rules):
            continue
        cards = Cards._from_cards((_CARDS[index] for index in key), rules.decks)
        if Meld.is_valid(cards, rules):
            moves.append(Move._meld(cards))
    return MeldTable(tuple(sorted(moves)))  # Move order is the canonical move order


def late_add_melds(rules: Rules) -> int:
    """How many meld indices past 35 a side may reach under ``rules``: every meld holds three
    cards or more, so a table holds at most a third of the pack (0 with two decks, 18 with three
    decks and six jokers)."""
    return max(0, rules.total_cards // 3 - ACTION_ADD_MELDS)


def _late_add_base(rules: Rules) -> int:
    """The id of ``add 36 <card 0>``: the first id after the meld table."""
    return ACTION_MELD_BASE + len(meld_table(rules))


def action_size(rules: Rules) -> int:
    """The number of action ids under ``rules``: 1965 + the length of its meld table + 53 for
    each meld index past 35 a side may reach."""
    return _late_add_base(rules) + CARD_KINDS * late_add_melds(rules)


def as_index(value: object) -> int | None:
    """``value`` as an int if it is an integer with ``__index__`` (NumPy integers included) and
    not a bool, else None (docs/search.md)."""
    if isinstance(value, (bool, np.bool_)):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]  # any object: TypeError is the test
    except TypeError:
        return None


def _quotient(numerator: int, denominator: int) -> np.float32:
    """A feature quotient in float32 arithmetic: float32(a) / float32(b) (docs/search.md)."""
    return np.float32(numerator) / np.float32(denominator)


def check_action(rules: Rules, action: object) -> int:
    """``action`` as an id (an integer, not a bool, from 0 to ``action_size - 1``), else
    InvalidNotationError quoting it."""
    size = action_size(rules)
    index = as_index(action)
    if index is None or not 0 <= index < size:
        raise InvalidNotationError(
            f"{action!r} is not an action id: expected an int from 0 to {size - 1}"
        )
    return index


def action_move(rules: Rules, action: object) -> Move:
    """The move of an action id (InvalidNotationError for anything else, quoting it)."""
    action = check_action(rules, action)
    for kind, number in BARE_ACTIONS.items():
        if action == number:
            return Move(kind)
    if action < ACTION_ADD_BASE:
        return Move._discard(_CARDS[action - ACTION_DISCARD_BASE])
    if action < ACTION_MELD_BASE:
        index, card = divmod(action - ACTION_ADD_BASE, CARD_KINDS)
        return Move._add(index, _CARDS[card])
    if action < _late_add_base(rules):
        return meld_table(rules).moves[action - ACTION_MELD_BASE]
    late, card = divmod(action - _late_add_base(rules), CARD_KINDS)
    return Move._add(ACTION_ADD_MELDS + late, _CARDS[card])


def action_id(rules: Rules, move: Move | str) -> int:
    """The id of a move (a Move or its notation); InvalidNotationError quoting it if it is not a
    move or has no id (a lay-off on a meld index no side can reach under these rules, a meld
    outside the meld table)."""
    parsed = Move._parse(move, rules.decks)
    quoted = repr(move) if isinstance(move, str) else repr(str(parsed))
    kind = parsed.kind
    if kind in BARE_ACTIONS:
        return BARE_ACTIONS[kind]
    if kind == "discard":
        return ACTION_DISCARD_BASE + parsed.card.index  # type: ignore[union-attr]
    if kind == "add":
        index = parsed.index
        last = ACTION_ADD_MELDS + late_add_melds(rules) - 1
        if index is None or index > last:
            raise InvalidNotationError(
                f"{quoted} has no action id: lay-offs have ids for meld indices 0 to {last} only"
            )
        card = parsed.card.index  # type: ignore[union-attr]
        if index < ACTION_ADD_MELDS:
            return ACTION_ADD_BASE + CARD_KINDS * index + card
        return _late_add_base(rules) + CARD_KINDS * (index - ACTION_ADD_MELDS) + card
    number = meld_table(rules).number.get(_key(parsed))
    if number is None:
        raise InvalidNotationError(
            f"{quoted} has no action id: its cards are not a new meld of the meld table of {rules!r}"
        )
    return ACTION_MELD_BASE + number


# --- output arrays --------------------------------------------------------------------------------


def output_array(out: object, size: int, dtype: type) -> np.ndarray:
    """A zeroed array of ``size`` entries of ``dtype``: ``out`` itself when given (it must be a
    writeable, C-contiguous, one-dimensional NumPy array of exactly that dtype and length), else a
    new one. A wrong ``out`` raises InvalidNotationError (a ValueError) quoting its shape and dtype."""
    wanted = np.dtype(dtype)
    if out is None:
        return np.zeros(size, dtype=wanted)
    if not isinstance(out, np.ndarray):
        raise InvalidNotationError(
            f"out is a {type(out).__name__}, not a NumPy array: expected a C-contiguous {wanted} "
            f"array of shape ({size},)"
        )
    problem = None
    if out.dtype != wanted or out.shape != (size,):
        problem = "wrong shape or dtype"
    elif not out.flags.c_contiguous:
        problem = "not C-contiguous"
    elif not out.flags.writeable:
        problem = "read-only"
    if problem is not None:
        raise InvalidNotationError(
            f"out (shape {out.shape}, dtype {out.dtype}) is {problem}: expected a writeable "
            f"C-contiguous {wanted} array of shape ({size},)"
        )
    out.fill(0)
    return out


# --- the observation tensor -----------------------------------------------------------------------

OBSERVATION_SIZE = 511

#: (first entry, number of entries, feature) for every block of the tensor, in order.
TENSOR_LAYOUT = (
    (0, 53, "the player's hand, counts per card index"),
    (53, 53, "the discard pile, counts"),
    (106, 159, "the known cards of relative seats 1, 2, 3, 53 each (zero for absent seats)"),
    (265, 53, "the cards of the melds of the player's side, counts"),
    (318, 53, "the cards of the melds of every other side, counts"),
    (371, 4, "hand sizes of relative seats 0..3"),
    (375, 2, "stock size, discard pile size"),
    (377, 10, "per packet (0 then 1), one-hot status: untaken, face down, seen, in hand, stock"),
    (387, 2, "the player's side has taken a pozzetto; another side has"),
    (389, 3, "phase one-hot: draw, meld, over"),
    (392, 4, "the seat to act, relative, one-hot"),
    (396, 2, "the player's side has opened; its opening requirement / 100"),
    (398, 2, "match scores: own side / 1000, other / 1000 (3 players: own / 2000, others / 2000)"),
    (400, 53, "the held card (RULES C.5), one-hot"),
    (453, 5, "the turn flags p, d, l, f, b"),
    (458, 53, "the cards of a packet the player has seen and not yet taken into the hand, counts"),
)

OBSERVATION_SIZE_SIX = 681

#: The six-player layout (RULES F.7): the blocks of :data:`TENSOR_LAYOUT` for six seats, three
#: packets and up to three sides. Sides are counted from the player's side S: relative side k is
#: side (S + k) % sides (with two sides of three, relative side 2 is absent and its entries 0).
TENSOR_LAYOUT_SIX = (
    (0, 53, "the player's hand, counts per card index"),
    (53, 53, "the discard pile, counts"),
    (106, 265, "the known cards of relative seats 1 to 5, 53 each"),
    (371, 53, "the cards of the melds of the player's side, counts"),
    (424, 106, "the cards of the melds of relative sides 1 and 2, 53 each"),
    (530, 6, "hand sizes of relative seats 0..5"),
    (536, 2, "stock size, discard pile size"),
    (538, 15, "per packet (0, 1, 2), one-hot status: untaken, face down, seen, in hand, stock"),
    (553, 3, "relative sides 0, 1, 2 have taken a pozzetto"),
    (556, 3, "phase one-hot: draw, meld, over"),
    (559, 6, "the seat to act, relative, one-hot"),
    (565, 2, "the player's side has opened; its opening requirement / 100"),
    (567, 3, "match scores of relative sides 0, 1, 2 / 1000"),
    (570, 53, "the held card (RULES C.5), one-hot"),
    (623, 5, "the turn flags p, d, l, f, b"),
    (628, 53, "the cards of a packet the player has seen and not yet taken into the hand, counts"),
)
_HAND, _PILE, _KNOWN, _OWN_MELDS, _OTHER_MELDS, _HAND_SIZES, _SIZES, _PACKETS, _PACKET_TAKEN, \
    _PHASE, _TO_ACT, _OPENING, _SCORES, _HELD, _FLAGS, _SEEN_PACKET = (
        first for first, _count, _feature in TENSOR_LAYOUT)
_STATUSES = ("untaken", "face_down", "seen", "in_hand", "stock")
_PHASES = ("draw", "meld", "over")
_FLAG_LETTERS = "pdlfb"


def _side_slot(players: int, seat: int, split: int | None) -> int:
    """The side slot of a seat (docs/game.md "Seats, sides, packets"): 2 players the seat, 4 the
    seat mod 2; 3 players the seat, or 3 for the two seats that are not the soloist. (Six players
    have a layout of their own: :func:`_six_player_tensor`.)"""
    if players == 2:
        return seat
    if players == 4:
        return seat % 2
    return seat if split is None or seat == split else 3


def _add_counts(tensor: np.ndarray, first: int, cards: Cards) -> None:
    for card in cards:  # copies repeated
        tensor[first + card.index] += 1


def observation_size(rules: Rules) -> int:
    """The number of features of an observation tensor under ``rules``: 511, or 681 with six
    players."""
    return OBSERVATION_SIZE_SIX if rules.players == 6 else OBSERVATION_SIZE


def observation_tensor(observation: Observation, out: object = None) -> np.ndarray:
    """The float32 features of ``observation`` (:func:`observation_size` of them: 511 laid out as
    :data:`TENSOR_LAYOUT`, or 681 with six players as :data:`TENSOR_LAYOUT_SIX`; docs/search.md),
    in ``out`` when given (see :func:`output_array`). Seats are counted from the observer P: seat
    (P + j) % players is relative seat j."""
    if observation.rules.players == 6:
        return _six_player_tensor(observation, out)
    tensor = output_array(out, OBSERVATION_SIZE, np.float32)
    rules = observation.rules
    players = rules.players
    player = observation.player
    # The fields the accessors do not give (hold, opening state, turn flags, split) are read off
    # the observation string, which writes them as the state string does.
    fields = dict(part.split("=", 1) for part in str(observation).split(";"))
    split = None if fields["split"] == "-" else int(fields["split"])
    own_side = _side_slot(players, player, split)
    slots = 4 if players == 3 else 2

    _add_counts(tensor, _HAND, observation.hand)
    _add_counts(tensor, _PILE, observation.discard_pile)
    for relative in range(1, players):
        seat = (player + relative) % players
        _add_counts(tensor, _KNOWN + CARD_KINDS * (relative - 1), observation.known[seat])
    for slot in range(slots):
        first = _OWN_MELDS if slot == own_side else _OTHER_MELDS
        for meld in observation.melds(slot):
            _add_counts(tensor, first, meld.cards)

    for relative in range(players):
        tensor[_HAND_SIZES + relative] = observation.hand_sizes[(player + relative) % players]
    tensor[_SIZES] = observation.stock_size
    tensor[_SIZES + 1] = len(observation.discard_pile)

    for number, (status, owner, _size, cards) in enumerate(observation.pozzetti):
        tensor[_PACKETS + len(_STATUSES) * number + _STATUSES.index(status)] = 1
        if status in ("face_down", "seen", "in_hand"):  # taken by the owner's side
            mine = _side_slot(players, owner, split) == own_side  # type: ignore[arg-type]
            tensor[_PACKET_TAKEN + (0 if mine else 1)] = 1
        if cards is not None:  # a packet P has seen and not yet taken into the hand
            _add_counts(tensor, _SEEN_PACKET, cards)

    tensor[_PHASE + _PHASES.index(observation.phase)] = 1
    tensor[_TO_ACT + (observation.turn - player) % players] = 1

    opened = fields["opened"].split(",")
    need = fields["need"].split(",")
    tensor[_OPENING] = int(opened[own_side])
    tensor[_OPENING + 1] = _quotient(int(need[own_side]), 100)

    scores = observation.scores
    if players == 3:
        tensor[_SCORES] = _quotient(scores[player], 2000)
        tensor[_SCORES + 1] = _quotient(sum(scores) - scores[player], 2000)
    else:
        tensor[_SCORES] = _quotient(scores[own_side], 1000)
        tensor[_SCORES + 1] = _quotient(scores[1 - own_side], 1000)

    if fields["hold"] != "-":
        tensor[_HELD + Card(fields["hold"]).index] = 1
    flags = fields["turnflags"]
    for number, letter in enumerate(_FLAG_LETTERS):
        if letter in flags:
            tensor[_FLAGS + number] = 1
    return tensor


(_S_HAND, _S_PILE, _S_KNOWN, _S_OWN_MELDS, _S_OTHER_MELDS, _S_HAND_SIZES, _S_SIZES, _S_PACKETS,
 _S_PACKET_TAKEN, _S_PHASE, _S_TO_ACT, _S_OPENING, _S_SCORES, _S_HELD, _S_FLAGS,
 _S_SEEN_PACKET) = (first for first, _count, _feature in TENSOR_LAYOUT_SIX)


def _six_player_tensor(observation: Observation, out: object) -> np.ndarray:
    """The 681 features of a six-player observation (:data:`TENSOR_LAYOUT_SIX`)."""
    tensor = output_array(out, OBSERVATION_SIZE_SIX, np.float32)
    rules = observation.rules
    player, sides = observation.player, rules.sides
    fields = dict(part.split("=", 1) for part in str(observation).split(";"))
    own_side = observation.sides[player]

    def relative_side(side: int) -> int:
        return (side - own_side) % sides

    _add_counts(tensor, _S_HAND, observation.hand)
    _add_counts(tensor, _S_PILE, observation.discard_pile)
    for relative in range(1, 6):
        _add_counts(tensor, _S_KNOWN + CARD_KINDS * (relative - 1),
                    observation.known[(player + relative) % 6])
    for side in range(sides):
        relative = relative_side(side)
        first = _S_OWN_MELDS if relative == 0 else _S_OTHER_MELDS + CARD_KINDS * (relative - 1)
        for meld in observation.melds(side):
            _add_counts(tensor, first, meld.cards)

    for relative in range(6):
        tensor[_S_HAND_SIZES + relative] = observation.hand_sizes[(player + relative) % 6]
    tensor[_S_SIZES] = observation.stock_size
    tensor[_S_SIZES + 1] = len(observation.discard_pile)

    for number, (status, owner, _size, cards) in enumerate(observation.pozzetti):
        tensor[_S_PACKETS + len(_STATUSES) * number + _STATUSES.index(status)] = 1
        if status in ("face_down", "seen", "in_hand"):
            tensor[_S_PACKET_TAKEN + relative_side(observation.sides[owner])] = 1  # type: ignore[index]
        if cards is not None:
            _add_counts(tensor, _S_SEEN_PACKET, cards)

    tensor[_S_PHASE + _PHASES.index(observation.phase)] = 1
    tensor[_S_TO_ACT + (observation.turn - player) % 6] = 1

    tensor[_S_OPENING] = int(fields["opened"].split(",")[own_side])
    tensor[_S_OPENING + 1] = _quotient(int(fields["need"].split(",")[own_side]), 100)
    for side, score in enumerate(observation.scores):
        tensor[_S_SCORES + relative_side(side)] = _quotient(score, 1000)

    if fields["hold"] != "-":
        tensor[_S_HELD + Card(fields["hold"]).index] = 1
    flags = fields["turnflags"]
    for number, letter in enumerate(_FLAG_LETTERS):
        if letter in flags:
            tensor[_S_FLAGS + number] = 1
    return tensor
