"""A match: hands dealt and scored until a side reaches the target (RULES E.7).

Bookkeeping only; every rule of a hand lives in the C++ core behind :class:`burraco.Game`.
"""

from __future__ import annotations

import threading
from typing import Any, Dict, List, Optional, Tuple

from ._core import MAX_HAND_MOVES, Game, Rules
from ._result import Result
from ._errors import IllegalMoveError, InvalidNotationError
from ._policy import RandomStream, play_match, play_with, seat_policies
from ._tally import match_target, unit_scores, units_of

_MASK = (1 << 64) - 1  # a seed is an int in [0, 2**64)


class Match:
    """Hands played to the preset's target: ``Match(Rules('italian'), seed=7)``.

    ``new_game()`` deals the next hand (hand h is dealt from the (h+1)-th SplitMix64 output of the
    match seed, and seat ``h mod players`` plays first); ``record(game)`` adds a finished hand.
    Scores are per side (two sides, or three with six players in three sides of two), or per seat
    in half points with three players (RULES E.6).

    A match may be shared between threads: every public call holds the match's lock, so each one
    acts as if atomic (docs/game.md "Threads"). It pickles and copies (the lock is not part of its
    value: a copy or an unpickled match has a lock of its own).
    """

    def __init__(self, rules: Optional[Rules] = None, *, seed: Optional[int] = None) -> None:
        if rules is None:
            rules = Rules()
        if not isinstance(rules, Rules):
            raise InvalidNotationError(f"expected Rules, got {rules!r}")
        if seed is None:
            import os

            seed = int.from_bytes(os.urandom(8), "little")
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= _MASK:
            raise InvalidNotationError(f"seed {seed!r}: expected an integer in [0, 2**64)")
        self.rules = rules
        self.seed = seed
        self._scores: List[int] = [0] * len(units_of(rules))
        self._hands = 0
        self._results: List[Result] = []
        self._stream = seed
        self._lock = threading.RLock()

    # --- pickling and copying: the value without the lock ---------------------------------------

    def __getstate__(self) -> Dict[str, Any]:
        with self._lock:
            state = dict(self.__dict__)
            state["_scores"] = list(self._scores)
            state["_results"] = list(self._results)
        del state["_lock"]
        return state

    def __setstate__(self, state: Dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._lock = threading.RLock()

    def __copy__(self) -> "Match":
        clone = Match.__new__(Match)
        clone.__setstate__(self.__getstate__())
        return clone

    def __deepcopy__(self, memo: Dict[int, Any]) -> "Match":
        return self.__copy__()  # every part is an immutable value or a list copied here

    @property
    def scores(self) -> Tuple[int, ...]:
        """Cumulative scores: per side, or per seat in half points with three players."""
        with self._lock:
            return tuple(self._scores)

    @property
    def hands_played(self) -> int:
        """The number of hands recorded so far."""
        with self._lock:
            return self._hands

    @property
    def results(self) -> Tuple[Result, ...]:
        """The Result of every recorded hand, in order."""
        with self._lock:
            return tuple(self._results)

    def new_game(self) -> Game:
        """Deals the next hand, with the current scores (the brazilian opening reads them)."""
        with self._lock:
            if self.is_over():
                raise IllegalMoveError("the match is over")
            stream = RandomStream(self._stream)  # the match's seed stream (burraco.bots.seeds)
            hand_seed = stream.next()
            self._stream = stream.state
            return Game(
                self.rules,
                seed=hand_seed,
                first_player=self._hands % self.rules.players,
                scores=self.scores,
            )

    def record(self, game: Game) -> None:
        """Adds a finished hand's result to the scores."""
        if not isinstance(game, Game):
            raise InvalidNotationError(f"expected a Game, got {game!r}")
        game = game.copy()  # one snapshot: another thread may be moving the game
        with self._lock:
            if game.rules != self.rules:
                raise IllegalMoveError(
                    f"the hand was played under {game.rules!r}, not {self.rules!r}")
            if self.is_over():
                raise IllegalMoveError("the match is over")
            result = game.result()
            for unit, score in enumerate(unit_scores(self.rules, result)):
                self._scores[unit] += score
            self._results.append(result)
            self._hands += 1

    def play_hand(self, policies: Any) -> Game:
        """Deals the next hand, plays it to its end with ``policies`` and records it; returns the
        finished game. ``policies`` is one policy for every seat (a name, a :class:`burraco.Policy`,
        a native policy or a callable ``(view, moves) -> index``) or a list with one per seat (with
        four players one per side is enough). One policy plays ``game.playout(policy,
        game.seed)``; several play move by move with ``game.policy_move``, the move seeds the
        SplitMix64 outputs of the hand seed (as ``burraco selfplay --matches``). Holds the match's
        lock for the whole hand; a policy that fails raises :class:`burraco.PolicyError` and
        records nothing."""
        chosen = seat_policies(policies, self.rules.players, self.rules.sides)
        with self._lock:
            stream = self._stream
            game = self.new_game()
            assert game.seed is not None  # a match deals every hand from a seed
            try:
                play_with(game, chosen, game.seed, MAX_HAND_MOVES)
            except BaseException:
                self._stream = stream  # the hand is dealt again by the next call
                raise
            self.record(game)
            return game

    def play(self, policies: Any, *, max_hands: Optional[int] = None) -> Optional[int]:
        """Plays hands with :meth:`play_hand` until the match is over (or ``max_hands`` more hands
        were played) and returns :attr:`winner`."""
        return play_match(self, policies, max_hands)

    def _passing(self) -> List[int]:
        target = match_target(self.rules)
        if self.rules.compare == ">":
            return [i for i, s in enumerate(self._scores) if s > target]
        return [i for i, s in enumerate(self._scores) if s >= target]

    def is_over(self) -> bool:
        """RULES E.7: a side past the target with the highest score, or a tie under 'draw'."""
        with self._lock:
            passing = self._passing()
            if not passing:
                return False
            best = max(self._scores[i] for i in passing)
            leaders = [i for i in passing if self._scores[i] == best]
            return len(leaders) == 1 or self.rules.tie_policy == "draw"

    @property
    def winner(self) -> Optional[int]:
        """The winning side (seat with three players), or None while playing or after a draw."""
        with self._lock:
            if not self.is_over():
                return None
            passing = self._passing()
            best = max(self._scores[i] for i in passing)
            leaders = [i for i in passing if self._scores[i] == best]
            return leaders[0] if len(leaders) == 1 else None

    def __repr__(self) -> str:
        with self._lock:
            return (f"<Match {self.rules!r} seed={self.seed} hands={self._hands} "
                    f"scores={self.scores}>")
