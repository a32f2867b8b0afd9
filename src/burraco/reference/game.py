"""One hand of Burraco / Buraco: :class:`Game`, a position, its history and the public API of
docs/game.md (deal, turns, moves, legality, scoring: RULES C, D, E, F).

A Game holds what the hand was dealt under (:class:`.state.Setup`), its current position (a plain
:class:`.state._State` of Counters and lists) and the positions before each move. The rules are
played by functions of the rules and a position, one module a concept as in the core: the deal
(:mod:`.deal`), applying a move (:mod:`.apply`), the legal moves (:mod:`.movegen`), seats and sides
(:mod:`.seats`), state strings (:mod:`.state_string`), the validator (:mod:`.validate`) and the
result (:mod:`.scoring`). Every move is applied to a fresh copy of the current position, so an
illegal move changes nothing, and :meth:`Game.pop` simply restores the previous position.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Iterable
from typing import TYPE_CHECKING, TypeVar, cast

from .. import _board, _records
from .._errors import (
    BurracoError,
    IllegalMoveError,
    InvalidNotationError,
    InvalidStateError,
    PolicyError,
)
from . import actions
from .._blank import Initialized
from .._pickle import game_of_history
from .apply import apply_move
from .cards import BLANKS, Card, Cards
from .deal import check_deck, check_scores, check_supported, deal, shuffled
from .memo import add_move
from .melds import Melds
from .movegen import legal_moves
from .moves import Move, MoveList
from .observation import Observation, determinized_state_string, observe
from .policies import Policy, PolicyLike, greedy_move, policy_arg, python_choice
from .rng import Xoshiro256StarStar, check_seed
from .rules import Rules
from .scoring import Result, hand_result
from .seats import side_of_seat, sides_in_play
from .state import OVER, Setup, _State, side_slots
from .state_string import parse_state, state_string
from .validate import validate_state

if TYPE_CHECKING:
    import numpy

__all__ = ["MAX_HAND_MOVES", "Game", "determinize", "play_hand", "prefixed"]

#: The most moves a policy-driven loop (``playout``, ``playouts``) plays in one hand before it
#: stops with InvalidStateError (docs/search.md "Move cap"; real hands take under 1,000).
MAX_HAND_MOVES = 100_000

_LoopError = TypeVar("_LoopError", bound=BurracoError)


def prefixed(error: _LoopError, prefix: str, suffix: str = "") -> _LoopError:
    """``error`` again, its message between ``prefix`` (the loop that stopped) and ``suffix``."""
    return type(error)(f"{prefix}{error}{suffix}")


def _shown(policy: Policy) -> str:
    """How the loops' error messages show a policy: ``'greedy'``, else its repr."""
    return f"'{policy.spec}'" if policy.kind == "builtin" else repr(policy)


# --- the game -------------------------------------------------------------------------------


class Game(Initialized, fields=("_history", "_lock", "_setup", "_state")):
    """One hand of Burraco / Buraco (docs/game.md).

    ``Game(rules, seed=s)`` deals from a seed (docs/game.md "Deal"); ``Game(rules, deck=[...])``
    from an explicit deck order; with neither, a seed is drawn from the operating system.
    ``first_player`` (default 0) plays first; ``scores`` are the cumulative match scores per side
    at the start of the hand (3 players: per seat, in half points), read only by the brazilian
    opening minimum.
    """

    def __init__(self, rules: Rules | str | None = None, seed: int | None = None,
                 deck: object = None, first_player: int = 0,
                 scores: Iterable[int] | None = None) -> None:
        """Deal a hand under ``rules`` (default ``Rules()``; a preset's name is ``Rules(name)``)
        from ``seed`` or ``deck`` (see the class); bad arguments raise InvalidNotationError
        quoting them."""
        if rules is None:
            rules = Rules()
        elif isinstance(rules, str):
            rules = Rules(rules)
        if not isinstance(rules, Rules):
            raise InvalidNotationError(f"{rules!r} is not a Rules or a preset's name")
        check_supported(rules)
        players = rules.players
        if isinstance(first_player, bool) or not isinstance(first_player, int) \
                or not 0 <= first_player < players:
            raise InvalidNotationError(
                f"{first_player!r} is not a seat: expected an int from 0 to {players - 1}"
            )
        checked_scores = check_scores(rules, scores)
        cut: int | None = None
        if deck is not None:
            if seed is not None:
                raise InvalidNotationError("give a seed or a deck, not both")
            order = check_deck(rules, deck)
        else:
            if seed is None:
                seed = int.from_bytes(os.urandom(8), "little")
            seed = check_seed(seed)
            # RULES F.5 / docs/game.md: the brazilian cut, one more output of the same generator.
            order, cut = shuffled(rules, seed, first_player)
        self._setup = Setup(rules, seed, first_player, checked_scores, cut)
        self._state = deal(self._setup, order)
        self._history: list[tuple[Move, _State]] = []
        # Every public call is atomic (docs/game.md "Threads"): the moves that change the
        # position hold this lock; readers take one immutable state (self._state) at a time.
        self._lock = threading.RLock()

    # --- legal moves ----------------------------------------------------------------------------

    def legal_moves(self) -> MoveList:
        """Exactly the moves :meth:`push` accepts, each once, in the canonical order (docs/game.md),
        as a :class:`.moves.MoveList` (a list with ``strings()``)."""
        return MoveList(self._legal_moves())

    def _legal_moves(self) -> list[Move]:
        return legal_moves(self._setup.rules, self._state)

    # --- push / pop -----------------------------------------------------------------------------

    def push(self, move: Move | str) -> None:
        """Play a legal move (a Move or its notation); IllegalMoveError / InvalidNotationError
        otherwise, and then nothing changes. ``'add 2 8h 9h'`` lays off several cards, in the first
        legal order (canonical card order first)."""
        lock = self._lock  # self first: TypeError if this Game was never initialized
        if isinstance(move, str):
            words = [word for word in re.split(r"[ \t\n\r\x0b\x0c,]+", move.strip(BLANKS)) if word]
            if len(words) > 3 and words[0].lower() == "add":
                self._push_several(move, words)
                return
        move = Move._parse(move, self._setup.rules.decks)
        with lock:
            self._push_checked(move)

    def _push_checked(self, move: Move) -> None:
        """Play ``move`` (a Move) if it is legal, else IllegalMoveError and nothing changes. The
        caller holds the lock."""
        new = self._state.copy()
        apply_move(self._setup.rules, new, move)
        self._history.append((move, self._state))
        self._state = new

    def push_index(self, index: int) -> None:
        """Play ``legal_moves()[index]``; IllegalMoveError quoting ``index`` if it is not an int
        from 0 to ``len(legal_moves()) - 1`` (and then nothing changes)."""
        number = actions.as_index(index)  # converted before the position is read
        with self._lock:
            moves = self._legal_moves()
            if number is None or not 0 <= number < len(moves):
                raise IllegalMoveError(
                    f"{index!r} is not the index of a legal move: expected an int from 0 to "
                    f"{len(moves) - 1} ({len(moves)} legal moves)"
                )
            self._push_checked(moves[number])

    def _push_several(self, text: str, words: list[str]) -> None:
        moves: list[Move] = []
        for word in words[2:]:
            moves.append(Move._parse(f"add {words[1]} {word}", self._setup.rules.decks))
        # Every one is an add: it has a card and an index.
        cards = sorted((cast(Card, move.card) for move in moves), key=lambda card: card.index)
        index = cast(int, moves[0].index)
        errors: list[IllegalMoveError] = []

        def first_legal_order(
            state: _State, remaining: list[Card]
        ) -> tuple[list[tuple[Move, _State]], _State] | None:
            """Depth first, in canonical card order: the first order of single lay-offs that is
            legal throughout (a refused prefix is not extended), with the state it reaches."""
            if not remaining:
                return [], state
            for position, card in enumerate(remaining):
                if position and card is remaining[position - 1]:
                    continue  # the same card again: the same subtree
                move = add_move(index, card)
                new = state.copy()
                try:
                    apply_move(self._setup.rules, new, move)
                except IllegalMoveError as error:
                    errors.append(error)
                    continue
                rest = first_legal_order(new, remaining[:position] + remaining[position + 1:])
                if rest is not None:
                    return [(move, state)] + rest[0], rest[1]
            return None

        with self._lock:
            found = first_legal_order(self._state, cards)
            if found is None:
                raise IllegalMoveError(
                    f"{text!r}: no order of these lay-offs is legal "
                    f"({errors[-1] if errors else ''})"
                )
            self._history.extend(found[0])
            self._state = found[1]

    def playout(self, policy: PolicyLike = "random", seed: int = 0) -> int:
        """Play the hand to its end and return how many moves that took (they join :attr:`moves`).

        Each move is the policy's choice among the legal moves (docs/search.md "Candidates").
        ``'random'``: uniform, drawn by ``bounded(len(legal_moves))`` from xoshiro256** seeded with ``seed`` (the deal contract's
        generator, so both engines play the same game). ``'greedy'``:
        :func:`.policies.greedy_move`, deterministic; the seed is checked like any seed but not
        used (docs/search.md "Playouts"). A :class:`.policies.Policy` or a Python callable
        ``(view, moves) -> int`` (docs/native.md) plays its own choices, each call's random stream
        started from one ``next()`` of that generator; it may not move this game meanwhile
        (IllegalMoveError, nothing recorded). A policy that fails raises PolicyError, the game
        left as it was.

        After :data:`MAX_HAND_MOVES` moves with the hand still going on, InvalidStateError naming
        the state reached; the game is then left as it was before the call."""
        chosen = policy_arg(policy)
        generator = Xoshiro256StarStar(check_seed(seed))
        shown = f"playout({_shown(chosen)}, {seed!r}): "
        left = " (the game is left as it was)"
        with self._lock:
            start_state, start_moves = self._state, len(self._history)
            if chosen.kind == "builtin":  # played in place: nothing else runs meanwhile
                try:
                    return self._play(chosen, generator)
                except InvalidStateError as error:
                    self._state = start_state
                    del self._history[start_moves:]
                    raise prefixed(error, shown, left) from None
            # A policy of the caller's is played on a copy, then recorded in one step if this game
            # is still where it started (the policy runs Python code, which may touch it).
            start_text = self.state_string()
            work = self.copy()
            try:
                played = work._play(chosen, generator)
            except (InvalidStateError, PolicyError) as error:
                raise prefixed(error, shown, left) from error.__cause__
            if len(self._history) != start_moves or self.state_string() != start_text:
                raise IllegalMoveError(
                    f"{shown}the game changed while the policy played (the policy itself moved "
                    "it): the playout is not recorded"
                )
            self._history.extend(work._history[start_moves:])
            self._state = work._state
            return played

    def _play(self, policy: Policy, generator: Xoshiro256StarStar) -> int:
        """The loop of :meth:`playout` on this game (the caller holds the lock): the number of moves
        played. InvalidStateError at the move cap, the position reached in the message (which has
        no prefix; the caller restores what it needs); PolicyError from the policy."""
        played = 0
        while self._state.phase != OVER:
            if played == MAX_HAND_MOVES:
                raise InvalidStateError(
                    f"the hand is not over after {MAX_HAND_MOVES} moves (MAX_HAND_MOVES), at "
                    f"{self.state_string()!r}"
                )
            self._push_checked(self._choose(policy, generator))
            played += 1
        return played

    def _choose(self, policy: Policy, generator: Xoshiro256StarStar) -> Move:
        """The move ``policy`` picks among the legal moves here, the hand not over (docs/search.md
        "Candidates"): random draws ``bounded(len(moves))``, greedy nothing, a Python policy one
        ``next()`` for its stream (PolicyError when it fails)."""
        moves = self._legal_moves()
        if policy.kind == "python":
            state = generator.next()
            return moves[python_choice(policy, observe(self, self._state.turn), moves, state)]
        if policy.spec == "random":
            return moves[generator.bounded(len(moves))]
        return greedy_move(self._setup.rules, self._state, moves)

    def policy_move(self, policy: PolicyLike = "greedy", seed: int = 0) -> Move:
        """The move a playout with ``policy`` and ``seed`` would play first, without playing it.

        Raises :class:`IllegalMoveError` when the hand is over, PolicyError when the policy fails
        (docs/search.md "Playouts")."""
        chosen = policy_arg(policy)
        generator = Xoshiro256StarStar(check_seed(seed))
        with self._lock:
            if self._state.phase == OVER:
                raise IllegalMoveError("policy_move: the hand is over, there is no move to choose")
            try:
                return self._choose(chosen, generator)
            except PolicyError as error:
                raise prefixed(error, f"policy_move({_shown(chosen)}): ") from error.__cause__

    def pop(self) -> Move:
        """Undo the last move and return it (IndexError if there is none)."""
        with self._lock:
            if not self._history:
                raise IndexError("pop from a game with no moves")
            move, self._state = self._history.pop()
            return move

    @property
    def moves(self) -> list[Move]:
        """The moves played, in order (a new list)."""
        with self._lock:
            return [move for move, _state in self._history]

    def copy(self) -> Game:
        """An independent copy, history included."""
        with self._lock:
            new = object.__new__(type(self))
            new.__dict__.update(self.__dict__)
            new._history = list(self._history)  # states are never mutated: sharing them is safe
        new._lock = threading.RLock()
        return new

    __copy__ = copy

    def _snapshot(self) -> Game:
        """This game's current position alone (no history), for a reader that makes several
        reads: another thread's move cannot come between them."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)  # one read of _state: states are never mutated
        new._history = []
        new._lock = threading.RLock()
        return new

    def __deepcopy__(self, memo: dict[int, object]) -> Game:
        # Every state, move, meld and card is immutable: a copy shares them safely.
        return self.copy()

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """Pickle support (docs/api.md "Pickling and copying"), as the core pickles a game: the
        position its history starts from, its moves and the position they lead to; unpickling
        replays the moves and checks where they lead (burraco/_pickle.py)."""
        start = self.copy()  # one snapshot: another thread's move cannot come between the reads
        moves = [str(move) for move in start.moves]
        now = start.state_string()
        for _ in moves:
            start.pop()
        return (game_of_history, (Game, start.state_string(), moves, now))

    def __eq__(self, other: object) -> bool:
        """Equal games are in the same position (state string) after the same moves."""
        if not isinstance(other, Game):
            return NotImplemented
        if self is other:
            return True
        mine, theirs = self.copy(), other.copy()
        return mine.state_string() == theirs.state_string() and mine.moves == theirs.moves

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = None  # type: ignore[assignment]  # a Game changes: unhashable, like a list

    # --- accessors ------------------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        """The rules of this hand."""
        return self._setup.rules

    @property
    def seed(self) -> int | None:
        """The deal seed, or None for an explicit deck or a game read from a state string without one."""
        return self._setup.seed

    @property
    def players(self) -> int:
        """The number of players (seats 0..players-1)."""
        return self._setup.rules.players

    @property
    def first_player(self) -> int:
        """The seat that played first; the dealer is the seat before it."""
        return self._setup.first

    @property
    def scores(self) -> tuple[int, ...]:
        """Cumulative match scores at the start of this hand (per side; 3p per seat, half points)."""
        return self._setup.scores

    @property
    def cut_side(self) -> int | None:
        """The side credited with the brazilian cut bonus (RULES F.5), or None."""
        return self._setup.cut

    @property
    def turn(self) -> int:
        """The seat to act (when the hand is over: the seat that made the last move)."""
        return self._state.turn

    @property
    def phase(self) -> str:
        """``'draw'``, ``'meld'`` (after the draw, until the discard) or ``'over'``."""
        return self._state.phase

    def is_over(self) -> bool:
        """Whether the hand has ended (RULES D)."""
        return self._state.phase == OVER

    @property
    def end_reason(self) -> str | None:
        """``'closed'``, ``'stock_exhausted'``, ``'deadlock'``, or None while the hand goes on."""
        end = self._state.end
        if end is None:
            return None
        return end[0] if isinstance(end, tuple) else end

    def _seat(self, player: object) -> int:
        if isinstance(player, bool) or not isinstance(player, int) \
                or not 0 <= player < self.players:
            raise InvalidNotationError(
                f"{player!r} is not a seat: expected an int from 0 to {self.players - 1}"
            )
        return player

    def hand(self, player: int) -> Cards:
        """The cards in ``player``'s hand (a face-down pozzetto is not part of it, RULES H-36)."""
        return Cards._from_counter(self._state.hands[self._seat(player)], player,
                                   self._setup.rules.decks)

    def known(self, player: int) -> Cards:
        """The cards known to everyone to be in ``player``'s hand (RULES C.9)."""
        return Cards._from_counter(self._state.known[self._seat(player)], player,
                                   self._setup.rules.decks)

    def side_of(self, player: int) -> int:
        """The side of a seat now (3 players: own seat, or 3 for the pair after the split)."""
        return side_of_seat(self._setup.rules, self._seat(player), self._state.split)

    @property
    def sides(self) -> tuple[int, ...]:
        """The side indices in play."""
        return sides_in_play(self._setup.rules, self._state.split)

    def melds(self, side: int) -> Melds:
        """A side's melds in creation order (3p: a side slot 0..3)."""
        slots = side_slots(self._setup.rules)
        if isinstance(side, bool) or not isinstance(side, int) or not 0 <= side < slots:
            raise InvalidNotationError(
                f"{side!r} is not a side: expected an int from 0 to {slots - 1}"
            )
        return Melds._from_tuple(tuple(meld for _n, meld in self._state.melds[side]),
                                 self._setup.rules)

    @property
    def discard_pile(self) -> Cards:
        """The discard pile, as a multiset (it is public, RULES C.2)."""
        return Cards._from_counter(self._state.pile, "pile", self._setup.rules.decks)

    @property
    def top_discard(self) -> Card | None:
        """The pile's top card (the last discard, or the start card), or None when it is empty."""
        return self._state.top

    @property
    def stock_size(self) -> int:
        """The number of cards in the stock."""
        return len(self._state.stock)

    @property
    def stock(self) -> tuple[Card, ...]:
        """The stock, top first (hidden information; for tests)."""
        return tuple(self._state.stock)

    @property
    def pozzetti(self) -> tuple[tuple[str, int | None, Cards], ...]:
        """Per packet: (status, owner seat or None, its cards while it is a packet)."""
        return tuple((status, owner, Cards._from_cards(cards, self._setup.rules.decks))
                     for status, owner, cards in self._state.pozzetti)

    @property
    def hold(self) -> Card | None:
        """The card kind held by the single-card pile rule (RULES C.5), or None."""
        return self._state.hold

    # --- information sets (docs/search.md, RULES C.9) ---------------------------------------------

    def observation(self, player: int) -> Observation:
        """What ``player`` may know of this hand (RULES C.9): an :class:`.observation.Observation`."""
        return observe(self._snapshot(), player)  # one consistent position (docs/game.md "Threads")

    def determinize(self, player: int, seed: int) -> Game:
        """A new game (no history, no seed) consistent with ``observation(player)``: the cards
        ``player`` cannot see dealt at random from ``seed`` (docs/search.md "Determinization"). It
        reads only the observation."""
        self._seat(player)  # a bad player is reported before a bad seed
        check_seed(seed)
        return determinize(observe(self._snapshot(), player), seed)

    # --- actions and tensors for learning (docs/search.md) --------------------------------------

    @property
    def action_size(self) -> int:
        """The number of action ids under this game's rules: 1965 + its meld table's length (+ 53
        for each meld index past 35 a three-deck side may reach)."""
        return actions.action_size(self._setup.rules)

    def action_id(self, move: Move | str) -> int:
        """The action id of a move (a Move or its notation); InvalidNotationError quoting it if it
        is not a move or has no id (such as ``add 40 5h``)."""
        return actions.action_id(self._setup.rules, move)

    def action_move(self, action: int) -> Move:
        """The move of an action id (InvalidNotationError outside 0..action_size-1, quoting it)."""
        return actions.action_move(self._setup.rules, action)

    def legal_mask(self, out: numpy.ndarray | None = None) -> numpy.ndarray:
        """A NumPy bool array of ``action_size`` entries, True at the ids of ``legal_moves()``;
        written into ``out`` when given (a C-contiguous bool array of that length; anything else
        raises InvalidNotationError quoting its shape and dtype)."""
        mask = actions.output_array(out, self.action_size, bool)
        for move in self._legal_moves():
            mask[actions.action_id(self._setup.rules, move)] = True
        return mask

    def push_action(self, action: int) -> None:
        """Play the move of an action id. InvalidNotationError if it is not an id, IllegalMoveError
        if its move is not legal here; either way, quoting it, and then nothing changes."""
        move = actions.action_move(self._setup.rules, action)
        try:
            self.push(move)
        except IllegalMoveError as error:
            raise IllegalMoveError(
                f"action {action!r} ({str(move)!r}) is not legal here: {error}"
            ) from None

    def observation_tensor(self, player: int, out: numpy.ndarray | None = None) -> numpy.ndarray:
        """511 float32 features of ``observation(player)`` and nothing else (docs/search.md,
        :data:`.actions.TENSOR_LAYOUT`); 681 with six players (:data:`.actions.TENSOR_LAYOUT_SIX`).
        Written into ``out`` when given (a C-contiguous float32 array of that many entries;
        anything else raises InvalidNotationError quoting its shape and dtype)."""
        return actions.observation_tensor(self.observation(player), out)

    # --- scoring (RULES E) ----------------------------------------------------------------------

    def result(self) -> Result:
        """The score of the finished hand (IllegalMoveError before the hand is over)."""
        s = self._state
        if s.phase != OVER:
            raise IllegalMoveError("the hand is not over: no result yet")
        return hand_result(self._setup.rules, s, self._setup.cut)

    # --- state strings (docs/game.md "State string, version 1") ---------------------------------

    def state_string(self) -> str:
        """The whole state as one line (docs/game.md "State string, version 1"); no history."""
        return state_string(self._setup, self._state)

    @classmethod
    def from_state_string(cls, text: str) -> Game:
        """The game in the state ``text`` (InvalidStateError, quoting the field, if malformed)."""
        setup, s = parse_state(text)
        validate_state(setup, s, text)
        return cls._at(setup, s)

    @classmethod
    def _at(cls, setup: Setup, s: _State) -> Game:
        """A game in the position ``s`` of a hand dealt under ``setup``, with no history."""
        game = object.__new__(cls)
        game._setup, game._state = setup, s
        game._history = []
        game._lock = threading.RLock()
        return game

    # --- game records and JSON views (docs/records.md; shared with the core: burraco._records) ---

    def record(self) -> _records.Record:
        """The hand as a game record: a JSON-serialisable dict (docs/records.md): format and
        version, the rules text, first player and scores, how it was dealt (``seed``, else
        ``deck``, else ``start``), the moves in notation and the result (None while playing)."""
        return _records.record(self.copy(), Rules, Game)  # one consistent snapshot

    @classmethod
    def from_record(cls, record: _records.Record | str) -> Game:
        """The game of a record (a dict or one JSON line), its moves replayed so that the state
        string and the history are the recorded game's; a bad record raises (quoting the bad
        part) and gives no game (docs/records.md)."""
        return _records.from_record(cls, Rules, record)

    def to_json(self, player: int | None = None, *, indent: int | None = None) -> str:
        """JSON text of what seat ``player`` may see (from ``observation(player)``), or of the
        whole state when ``player`` is None (docs/records.md "JSON views"); ``indent`` goes to
        ``json.dumps``."""
        return _records.to_json(self.copy(), player, indent)  # one consistent snapshot

    @classmethod
    def from_json(cls, text: str) -> Game:
        """The game of a full JSON view (``to_json()``), no history; a player's view, or a view
        whose fields contradict its state string, raises InvalidStateError."""
        return _records.from_json(cls, text)

    def __repr__(self) -> str:
        return f"Game.from_state_string({self.state_string()!r})"

    def __str__(self) -> str:
        """The table as text, as ``str(chess.Board)`` draws a board: stock, the pile in order,
        pozzetti, melds, hands and whose turn (burraco._board.draw; docs/cli.md "The board")."""
        return _board.game_str(self)


# --- helpers ----------------------------------------------------------------------------------


def determinize(observation: Observation, seed: int) -> Game:
    """A game consistent with ``observation`` (docs/search.md "Determinization"), no history, no
    seed: the game of :func:`.observation.determinized_state_string` (its seed an int in
    ``[0, 2**64)``, else InvalidNotationError), in which the seat to act has a legal move."""
    seed = check_seed(seed)
    text = determinized_state_string(observation, seed, _seat_to_act_can_move)
    try:
        return Game.from_state_string(text)
    except InvalidStateError as error:
        # Only the hidden cards differ from a real position, and step 4 gives the seat to act a
        # hand it can move with: a position of the real game's observation always reads back.
        player = observation.player
        raise InvalidStateError(
            f"determinize({player}, {seed}): internal error, the cards dealt from seat {player}'s "
            f"view give a position that could not arise in play ({error})"
        ) from None


def play_hand(game: Game, policy: Policy, seed: int) -> int:
    """Play ``game`` to its end with ``policy`` as :meth:`Game.playout` plays a built-in policy
    (the generator xoshiro256** from ``seed``, already checked), for the batch loops: the number of
    moves played. The errors are the loop's own, with no prefix: InvalidStateError at the move cap
    (the moves played so far stay), PolicyError from the policy."""
    with game._lock:
        return game._play(policy, Xoshiro256StarStar(seed))


def _seat_to_act_can_move(text: str) -> bool:
    """Whether the seat to act of the whole deal ``text`` (a state string, every card in one
    place) has a legal move: the one question a determinization's deal leaves open."""
    setup, s = parse_state(text)
    return bool(legal_moves(setup.rules, s))


