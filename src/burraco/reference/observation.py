"""What one player may know of a hand (RULES C.9; docs/search.md "Observations"), and the deal of
the cards that player cannot see.

* :class:`Observation` (:func:`observe`, ``game.observation(player)``): exactly what one player may
  know of a hand, and its *observation string*: the game's state string with the hidden fields
  masked and ``player=P`` after the version.
* :func:`determinized_state_string`: the state string of a whole game consistent with an
  observation, the cards the player cannot see dealt at random by the deal contract's generator.
  It is given the observation alone, so it cannot read a hidden card; ``game.determinize`` and
  :func:`burraco.reference.search.determinize` make the game from it.

This module reads a game through its public API only (``observe``): it does not import
:mod:`.game`, which builds on it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from .._blank import Initialized
from .._errors import InvalidNotationError, InvalidStateError
from .cards import Card, Cards
from .melds import Melds
from .rng import Xoshiro256StarStar, check_seed, shuffle
from .rules import Rules
from .state import _unshuffled_deck, side_slots



class ObservedGame(Protocol):
    """What :func:`observe` reads of a game: the public accessors of :class:`.game.Game` (this
    module sits below the game, which it never imports, not even for the type checker)."""

    @property
    def rules(self) -> Rules: ...
    @property
    def players(self) -> int: ...
    @property
    def scores(self) -> tuple[int, ...]: ...
    @property
    def turn(self) -> int: ...
    @property
    def phase(self) -> str: ...
    @property
    def discard_pile(self) -> Cards: ...
    @property
    def top_discard(self) -> Card | None: ...
    @property
    def stock_size(self) -> int: ...
    @property
    def pozzetti(self) -> tuple[tuple[str, int | None, Cards], ...]: ...
    def hand(self, player: int) -> Cards: ...
    def known(self, player: int) -> Cards: ...
    def side_of(self, player: int) -> int: ...
    def melds(self, side: int) -> Melds: ...
    def state_string(self) -> str: ...

__all__ = ["Observation", "determinized_state_string", "observation_from_view", "observe",
           "unseen_cards"]


def _card_list(cards: Cards) -> str:
    """A state-string card list in canonical order: the card names run together, ``-`` if none."""
    return "".join(str(card) for card in cards) or "-"


def _hidden(count: int) -> str:
    """The masked form of a hidden card list of ``count`` cards."""
    return f"?{count}"


# --- observations -------------------------------------------------------------------------------


class Observation(Initialized):
    """What one player may know of a hand (RULES C.9), made by ``game.observation(player)``.

    Public: the melds, the discard pile, every hand's size and the cards known to be in it (taken
    with the pile and not played since), the stock size, each packet's status, owner and size, the
    scores, every turn flag, each seat's side and each side's opening state. Private: the player's
    own hand and a packet that player has seen.
    Hidden from the player: the other hands (but their known cards), the stock, the untaken packets,
    a packet face down and not yet looked at (even by its owner), and another player's seen packet.

    Immutable; compares and hashes by its observation string (``str(obs)``, docs/search.md).
    """

    __slots__ = (
        "_fields",
        "_hand",
        "_hand_sizes",
        "_known",
        "_melds",
        "_need",
        "_opened",
        "_phase",
        "_pile",
        "_player",
        "_pozzetti",
        "_rules",
        "_scores",
        "_sides",
        "_stock_size",
        "_text",
        "_top",
        "_turn",
    )

    _player: int
    _rules: Rules
    _turn: int
    _phase: str
    _hand: Cards
    _hand_sizes: tuple[int, ...]
    _known: tuple[Cards, ...]
    _stock_size: int
    _pile: Cards
    _top: Card | None
    _melds: tuple[Melds, ...]
    _pozzetti: tuple[tuple[str, int | None, int | None, Cards | None], ...]
    _scores: tuple[int, ...]
    _sides: tuple[int, ...]
    _opened: tuple[bool, ...]
    _need: tuple[int, ...]
    _fields: tuple[tuple[str, str], ...]
    _text: str

    def __init__(self) -> None:
        """Not callable: an Observation is made by ``game.observation(player)`` (TypeError)."""
        raise TypeError("an Observation is made by game.observation(player)")

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Observation is immutable: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"Observation is immutable: cannot delete {name!r}")

    # --- accessors: the game's values, restricted to what the player may know ---------------

    @property
    def player(self) -> int:
        """The observing seat."""
        return self._player

    @property
    def rules(self) -> Rules:
        """The rules of the hand."""
        return self._rules

    @property
    def turn(self) -> int:
        """The seat to act (when the hand is over: the seat that made the last move)."""
        return self._turn

    @property
    def phase(self) -> str:
        """``'draw'``, ``'meld'`` or ``'over'``."""
        return self._phase

    @property
    def hand(self) -> Cards:
        """The observing player's own hand."""
        return self._hand

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """The number of cards in each seat's hand."""
        return self._hand_sizes

    @property
    def known(self) -> tuple[Cards, ...]:
        """Per seat, the cards everyone knows to be in that hand (RULES C.9)."""
        return self._known

    @property
    def stock_size(self) -> int:
        """The number of cards in the stock."""
        return self._stock_size

    @property
    def discard_pile(self) -> Cards:
        """The whole discard pile (it is public)."""
        return self._pile

    @property
    def top(self) -> Card | None:
        """The top card of the discard pile, or None when it is empty."""
        return self._top

    def melds(self, side: int) -> Melds:
        """A side's melds in creation order (3 players: a side slot 0..3), as ``game.melds``."""
        slots = len(self._melds)
        if isinstance(side, bool) or not isinstance(side, int) or not 0 <= side < slots:
            raise InvalidNotationError(
                f"{side!r} is not a side: expected an int from 0 to {slots - 1}"
            )
        return self._melds[side]

    @property
    def pozzetti(self) -> tuple[tuple[str, int | None, int | None, Cards | None], ...]:
        """Per packet ``(status, owner, size, cards)``: status and owner as in ``game.pozzetti``;
        ``size`` the packet's number of cards while it is a packet (untaken, face down or seen),
        None once it joined a hand or became the stock; ``cards`` a Cards when the player may see
        them (a packet the player has seen), else None."""
        return self._pozzetti

    @property
    def scores(self) -> tuple[int, ...]:
        """The match scores at the start of the hand (as ``game.scores``)."""
        return self._scores

    @property
    def sides(self) -> tuple[int, ...]:
        """The side of each seat now (as ``game.side_of``: with three players the pair becomes
        side 3 once the first pozzetto is taken, RULES F.6)."""
        return self._sides

    @property
    def opened(self) -> tuple[bool, ...]:
        """Per side slot: whether the side has met its brazilian opening minimum (False throughout
        under rules without one)."""
        return self._opened

    @property
    def need(self) -> tuple[int, ...]:
        """Per side slot: the brazilian opening minimum the side still has to meet (0 once met or
        without one); public, as the state string's ``need`` field."""
        return self._need

    # --- value semantics -------------------------------------------------------------------------

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"<Observation {self._text}>"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Observation):
            return self._text == other._text
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        if isinstance(other, Observation):
            return self._text != other._text
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._text)

    # --- pickle and copy (pickling, docs/api.md): immutable, so a copy is the value itself ----

    def __reduce__(self) -> tuple[object, tuple[dict[str, object]]]:
        return (_observation_from_slots, ({name: getattr(self, name) for name in self.__slots__},))

    def __copy__(self) -> Observation:
        self.player  # noqa: B018 -- an uninitialized Observation raises TypeError, not copied
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Observation:
        return self.__copy__()


def _observation_from_slots(values: dict[str, object]) -> Observation:
    """Rebuild an Observation from its slot values (pickle support); InvalidStateError for data
    that is not a dict of exactly those slots."""
    if not isinstance(values, dict) or set(values) != set(Observation.__slots__):
        raise InvalidStateError(f"pickled Observation: cannot restore from {values!r}")
    observation = object.__new__(Observation)
    for name, value in values.items():
        object.__setattr__(observation, name, value)
    return observation


def observe(game: ObservedGame, player: int) -> Observation:
    """``game.observation(player)``: read off the game's public accessors and its state string,
    then mask what ``player`` may not see (InvalidNotationError for a bad player)."""
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < game.players:
        raise InvalidNotationError(
            f"{player!r} is not a seat: expected an int from 0 to {game.players - 1}"
        )
    players = game.players
    pozzetti: list[tuple[str, int | None, int | None, Cards | None]] = []
    for status, owner, cards in game.pozzetti:
        if status in ("in_hand", "stock"):
            pozzetti.append((status, owner, None, None))  # no longer a packet: nothing to hide
        elif status == "seen" and owner == player:
            pozzetti.append((status, owner, len(cards), cards))
        else:
            pozzetti.append((status, owner, len(cards), None))
    hand_sizes = tuple(len(game.hand(seat)) for seat in range(players))

    # The observation string: the state string, field by field, with the hidden values masked.
    fields: dict[str, str] = dict(part.split("=", 1) for part in game.state_string().split(";"))
    fields["seed"] = "-"
    fields["hands"] = "/".join(
        text if seat == player else _hidden(hand_sizes[seat])
        for seat, text in enumerate(fields["hands"].split("/"))
    )
    fields["stock"] = _hidden(game.stock_size) if game.stock_size else "-"
    packet_texts = []
    for text, (_status, _owner, size, shown) in zip(fields["pozzetti"].split("/"), pozzetti):
        if size is not None and shown is None:  # hidden
            packet_texts.append(f"{text.partition(':')[0]}:{_hidden(size)}")
        else:
            packet_texts.append(text)
    fields["pozzetti"] = "/".join(packet_texts)
    ordered = [("v", fields.pop("v")), ("player", str(player)), *fields.items()]

    observation = object.__new__(Observation)
    values = {
        "_player": player,
        "_rules": game.rules,
        "_turn": game.turn,
        "_phase": game.phase,
        "_hand": game.hand(player),
        "_hand_sizes": hand_sizes,
        "_known": tuple(game.known(seat) for seat in range(players)),
        "_stock_size": game.stock_size,
        "_pile": game.discard_pile,
        "_top": game.top_discard,
        "_melds": tuple(game.melds(slot) for slot in range(side_slots(game.rules))),
        "_pozzetti": tuple(pozzetti),
        "_scores": tuple(game.scores),
        "_sides": tuple(game.side_of(seat) for seat in range(players)),
        "_opened": tuple(value == "1" for value in fields["opened"].split(",")),
        "_need": tuple(int(value) for value in fields["need"].split(",")),
        "_fields": tuple(ordered),
        "_text": ";".join(f"{name}={value}" for name, value in ordered),
    }
    for name, value in values.items():
        object.__setattr__(observation, name, value)
    return observation


def observation_from_view(view: Mapping[str, Any]) -> Observation:
    """The :class:`Observation` a seat's JSON view holds (``game.to_json(player=k)`` read with
    ``json.loads``; docs/records.md "JSON views"): its structured fields and its observation
    string, which say what the seat may know and nothing more. InvalidNotationError quoting a view
    that is not a seat's view. The observation's string is the view's own: whether the fields agree
    with it is checked by dealing a game from the observation and comparing its view
    (:func:`burraco.client.game_from_view` does)."""
    try:
        player = view["player"]
        text = view["observation"]
        if isinstance(player, bool) or not isinstance(player, int) or not isinstance(text, str):
            raise TypeError("player or observation")
        rules = Rules.from_text(view["rules"])
        decks = rules.decks
        fields = tuple((name, value) for name, _, value in
                       (part.partition("=") for part in text.split(";")))
        named = dict(fields)
        seats = view["seats"]
        melds = {side["side"]: [meld["layout"] for meld in side["melds"]]
                 for side in view["sides"]}
        values: dict[str, object] = {
            "_player": player,
            "_rules": rules,
            "_turn": view["turn"],
            "_phase": view["phase"],
            "_hand": Cards(seats[player]["hand"], decks=decks),
            "_hand_sizes": tuple(seat["hand_size"] for seat in seats),
            "_known": tuple(Cards(seat["known"], decks=decks) for seat in seats),
            "_stock_size": view["stock_size"],
            "_pile": Cards(view["pile"], decks=decks),
            "_top": None if view["top"] is None else Card(view["top"]),
            "_melds": tuple(Melds(melds.get(slot, ()), rules=rules)
                            for slot in range(side_slots(rules))),
            "_pozzetti": tuple(
                (packet["status"], packet["owner"], packet["size"],
                 None if packet["cards"] is None else Cards(packet["cards"], decks=decks))
                for packet in view["pozzetti"]),
            "_scores": tuple(view["scores"]),
            "_sides": tuple(seat["side"] for seat in seats),
            "_opened": tuple(value == "1" for value in named["opened"].split(",")),
            "_need": tuple(int(value) for value in named["need"].split(",")),
            "_fields": fields,
            "_text": text,
        }
    except (KeyError, TypeError, ValueError, IndexError) as error:
        shown = repr(dict(view) if isinstance(view, Mapping) else view)
        shown = shown if len(shown) <= 120 else shown[:117] + "..."
        raise InvalidNotationError(f"{shown} is not a seat's JSON view ({type(error).__name__}: "
                                   f"{error})") from None
    return _observation_from_slots(values)


# --- determinization ----------------------------------------------------------------------------


def unseen_cards(observation: Observation) -> list[Card]:
    """The cards the observing player P cannot place, in canonical card order (step 1 of
    docs/search.md "Determinization"): the full deck minus P's hand, every meld's cards, the
    discard pile, the known cards of every other seat, and the cards of a packet P has seen."""
    rules, player = observation.rules, observation.player
    placed: Counter[Card] = Counter(observation.hand)
    placed.update(observation.discard_pile)
    for slot in range(side_slots(rules)):
        for meld in observation.melds(slot):
            placed.update(meld.cards)
    for seat, known in enumerate(observation.known):
        if seat != player:
            placed.update(known)
    for _status, _owner, _size, cards in observation.pozzetti:
        if cards is not None:
            placed.update(cards)
    unseen = Counter(_unshuffled_deck(rules))
    unseen.subtract(placed)
    if any(count < 0 for count in unseen.values()):
        raise AssertionError(f"{observation}: more cards placed than the deck holds")
    return sorted(unseen.elements(), key=lambda card: card.index)


def determinized_state_string(observation: Observation, seed: int,
                               can_move: Callable[[str], bool] | None = None) -> str:
    """The state string of a game consistent with ``observation`` (docs/search.md
    "Determinization"), no seed, dealt from ``seed`` (an int in ``[0, 2**64)``, else
    InvalidNotationError):

    1. the unseen cards (:func:`unseen_cards`), in canonical order,
    2. shuffled as a deck is shuffled for a deal (xoshiro256** from ``seed``, Fisher-Yates),
    3. handed out from the front: every other seat q = P+1, P+2, ... gets its known cards plus
       ``size(q) - len(known(q))`` cards; then every packet P cannot see, index 0 first, its size
       in deal order; then the stock, top first;
    4. when the seat to act T is not P, is in its meld phase and holds one card not known to be
       there, T must be able to move with the card it gets: ``can_move(text)`` says whether the
       seat to act of a whole deal's state string has a legal move. If T's card does not let it
       move, it is exchanged with the i-th card of the shuffled list whose kind does
       (i = ``bounded(m)`` from the same generator, m the number of such cards) and the list is
       handed out again;
    5. every other field copied from the observation string.

    Without ``can_move`` step 4 is left out (the deal may then leave T no legal move).
    """
    seed = check_seed(seed)
    order = unseen_cards(observation)
    generator = Xoshiro256StarStar(seed)
    shuffle(order, generator)
    text = _handed_out(observation, order)
    turn, player = observation.turn, observation.player
    lone_hidden_card = (turn != player and observation.phase == "meld"
                        and observation.hand_sizes[turn] == 1 and not observation.known[turn])
    if can_move is None or not lone_hidden_card:
        return text
    # T's card: after the hidden cards of the seats between P and T in the hand-out order.
    seat_at = [(player + step) % observation.rules.players
               for step in range(1, observation.rules.players)]
    t = sum(observation.hand_sizes[seat] - len(observation.known[seat])
            for seat in seat_at[:seat_at.index(turn)])
    verdicts: dict[Card, bool] = {}

    def lets_move(card: Card) -> bool:
        """Whether T holding ``card`` alone has a legal move (the deal of ``order`` with ``card``
        exchanged into T's place: the same for every place the card comes from)."""
        if card not in verdicts:
            trial = list(order)
            j = trial.index(card)
            trial[t], trial[j] = trial[j], trial[t]
            verdicts[card] = can_move(_handed_out(observation, trial))
        return verdicts[card]

    if lets_move(order[t]):
        return text
    playable = [j for j, card in enumerate(order) if lets_move(card)]
    if not playable:  # no deal lets T move: not the observation of a position of play
        return text
    j = playable[generator.bounded(len(playable))]
    order[t], order[j] = order[j], order[t]
    return _handed_out(observation, order)


def _handed_out(observation: Observation, order: list[Card]) -> str:
    """Steps 3 and 5 of :func:`determinized_state_string`: the state string of the observation
    with the shuffled unseen cards ``order`` handed out."""
    position = 0

    def deal(count: int) -> list[Card]:
        nonlocal position
        cards = order[position:position + count]
        position += count
        return cards

    player = observation.player
    players = observation.rules.players
    fields = dict(observation._fields)
    del fields["player"]
    fields["seed"] = "-"

    hands = fields["hands"].split("/")
    for step in range(1, players):
        seat = (player + step) % players
        known = observation.known[seat]
        dealt = deal(observation.hand_sizes[seat] - len(known))
        hands[seat] = _card_list(known + Cards._from_cards(dealt, observation.rules.decks))
    fields["hands"] = "/".join(hands)

    packets = fields["pozzetti"].split("/")
    for number, (_status, _owner, size, cards) in enumerate(observation.pozzetti):
        if size is not None and cards is None:  # a packet whose cards the player cannot see
            prefix = packets[number].partition(":")[0]
            packets[number] = f"{prefix}:{''.join(str(card) for card in deal(size))}"
    fields["pozzetti"] = "/".join(packets)

    fields["stock"] = "".join(str(card) for card in deal(observation.stock_size)) or "-"
    if position != len(order):
        raise AssertionError(f"{observation}: {len(order) - position} unseen cards left over")
    return ";".join(f"{name}={value}" for name, value in fields.items())
