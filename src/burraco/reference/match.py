"""A match: hands played until a target score is reached (RULES E.7, docs/game.md "Match")."""

from __future__ import annotations

import os
import threading

from .._errors import IllegalMoveError, InvalidNotationError
from .._policy import play_match, play_with, seat_policies
from .._blank import Initialized
from .game import MAX_HAND_MOVES, Game
from .rng import SplitMix64, check_seed
from .rules import Rules
from .scoring import Result

__all__ = ["Match"]


class Match(Initialized, fields=("_lock", "_results", "_rules", "_scores", "_seed")):
    """Hands of one match under ``rules``, dealt from ``seed`` (os.urandom when None).

    Hand h is dealt from the (h+1)-th SplitMix64 output of the match seed, with seat h mod N first.
    ``scores`` are per side (2, 4 and 6 players) or per seat in half points (3 players, RULES
    E.6).

    A Match deals hands and adds up their results; :meth:`play_hand` also plays one with given
    policies (the move cap of docs/game.md is the playing loop's: ``Game.playout``). It may be shared between threads:
    :meth:`record`, the only call that changes it, holds a lock, and every reader takes one
    consistent snapshot (docs/game.md "Threads"). It pickles and copies with its results;
    two matches are equal when their rules, seed and recorded results are (it is unhashable,
    since it changes).
    """

    def __init__(self, rules: Rules | None = None, seed: int | None = None) -> None:
        """A match under ``rules`` (default ``Rules()``) whose hands are dealt from ``seed`` (an int
        in ``[0, 2**64)``; None: a random one), with no hand recorded yet."""
        if rules is None:
            rules = Rules()
        if not isinstance(rules, Rules):
            raise InvalidNotationError(f"{rules!r} is not a Rules")
        if seed is None:
            seed = int.from_bytes(os.urandom(8), "little")
        self._rules = rules
        self._seed = check_seed(seed)
        self._scores: tuple[int, ...] = (0,) * rules.sides  # per side; three players: per seat
        self._results: tuple[Result, ...] = ()
        self._lock = threading.RLock()

    @property
    def rules(self) -> Rules:
        """The rules every hand of the match is played under."""
        return self._rules

    @property
    def seed(self) -> int:
        """The match seed, from which every hand's deal seed is derived (:meth:`hand_seed`)."""
        return self._seed

    @property
    def scores(self) -> tuple[int, ...]:
        """Cumulative scores: per side, or per seat in half points with three players."""
        return self._scores

    @property
    def results(self) -> tuple[Result, ...]:
        """The results of the hands recorded so far."""
        return self._results

    @property
    def hand_number(self) -> int:
        """The number of the next hand to deal (0 first): the hands recorded so far."""
        return len(self._results)

    @property
    def hands_played(self) -> int:
        """The hands recorded so far (docs/game.md "Match")."""
        return len(self._results)

    def hand_seed(self, hand: int) -> int:
        """The deal seed of hand ``hand``: SplitMix64 output number hand+1 from the match seed."""
        generator = SplitMix64(self._seed)
        for _ in range(hand):
            generator.next()
        return generator.next()

    def new_game(self) -> Game:
        """Deal the next hand (IllegalMoveError once the match is over)."""
        with self._lock:
            scores, hand = self._scores, len(self._results)
        if self._outcome(scores)[0]:
            raise IllegalMoveError("the match is over")
        return Game(self._rules, seed=self.hand_seed(hand), first_player=hand % self._rules.players,
                    scores=scores)

    def record(self, game: Game) -> Result:
        """Add a finished hand's result to the scores and return it: InvalidNotationError for
        what is not a Game, IllegalMoveError for a hand under other rules, a hand not over or a
        match already over (docs/game.md "Match"); then nothing changes."""
        if not isinstance(game, Game):
            raise InvalidNotationError(f"{game!r} is not a Game")
        if game.rules != self._rules:
            raise IllegalMoveError(
                f"the hand was played under {game.rules!r}, not this match's {self._rules!r}")
        result = game.result()
        with self._lock:
            if self._outcome(self._scores)[0]:
                raise IllegalMoveError("the match is over")
            scores = list(self._scores)
            if result.player_scores is not None:
                for seat, score in enumerate(result.player_scores):
                    scores[seat] += score
            else:
                for entry in result.sides:
                    scores[entry.side] += entry.total
            self._scores = tuple(scores)
            self._results = self._results + (result,)
        return result

    def play_hand(self, policies: object) -> Game:
        """Deal the next hand, play it to its end with ``policies`` and record it; return the
        finished game. ``policies``: one policy for every seat (a name, a :class:`Policy` or a
        callable ``(view, moves) -> index``), or a list with one per seat (with four players one
        per side is enough). One policy plays ``game.playout(policy, game.seed)``; several play
        move by move with ``game.policy_move``, the move seeds the SplitMix64 outputs of the hand
        seed (as ``burraco selfplay --matches``). The match's lock is held for the whole hand; a
        policy that fails raises PolicyError and records nothing."""
        chosen = seat_policies(policies, self._rules.players, self._rules.sides)
        with self._lock:
            game = self.new_game()
            assert game.seed is not None  # every hand of a match is dealt from a seed
            play_with(game, chosen, game.seed, MAX_HAND_MOVES)
            self.record(game)
            return game

    def play(self, policies: object, *, max_hands: int | None = None) -> int | None:
        """Play hands with :meth:`play_hand` until the match is over (or ``max_hands`` more hands
        were played); return :attr:`winner`."""
        return play_match(self, policies, max_hands)

    def _passes(self, score: int) -> bool:
        target = self._rules.match_target
        if self._rules.players == 3:
            target *= 2  # three players: the scores are in half points
        return score > target if self._rules.compare == ">" else score >= target

    def _outcome(self, scores: tuple[int, ...]) -> tuple[bool, int | None]:
        """(over, winner) by RULES E.7 for these scores."""
        passing = [index for index, score in enumerate(scores) if self._passes(score)]
        if not passing:
            return False, None
        best = max(scores[index] for index in passing)
        leaders = [index for index in passing if scores[index] == best]
        if len(leaders) == 1:
            return True, leaders[0]
        if self._rules.tie_policy == "draw":
            return True, None
        return False, None

    def is_over(self) -> bool:
        """Whether the match is decided (RULES E.7): exactly one side (seat) leads among those past
        ``match_target`` by ``compare``, or those past it tie and ``tie_policy`` is ``'draw'``."""
        return self._outcome(self._scores)[0]

    @property
    def winner(self) -> int | None:
        """The winning side (3 players: seat), or None (not over, or a draw)."""
        return self._outcome(self._scores)[1]

    # --- value semantics (pickling, docs/api.md) ----------------------------------------------

    def _key(self) -> tuple[Rules, int, tuple[Result, ...]]:
        with self._lock:
            return (self._rules, self._seed, self._results)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Match):
            return NotImplemented
        return self is other or self._key() == other._key()

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = None  # type: ignore[assignment]  # a Match changes: unhashable

    def __getstate__(self) -> dict[str, object]:
        with self._lock:
            state = dict(self.__dict__)
        del state["_lock"]
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        self._lock = threading.RLock()

    def __copy__(self) -> Match:
        new = object.__new__(Match)
        new.__setstate__(self.__getstate__())  # scores and results are tuples: nothing shared
        return new

    def __deepcopy__(self, memo: dict[int, object]) -> Match:
        return self.__copy__()  # Rules and Results are immutable

    def __repr__(self) -> str:
        return f"Match({self._rules!r}, seed={self._seed})"
