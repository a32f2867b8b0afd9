"""A match: hands played until a target score is reached (RULES E.7, docs/game.md "Match")."""

from __future__ import annotations

import os

from .._errors import IllegalMoveError, InvalidNotationError
from .game import Game
from .rng import SplitMix64, check_seed
from .rules import Rules
from .scoring import Result

__all__ = ["Match"]


class Match:
    """Hands of one match under ``rules``, dealt from ``seed`` (os.urandom when None).

    Hand h is dealt from the (h+1)-th SplitMix64 output of the match seed, with seat h mod N first.
    ``scores`` are per side (2 and 4 players) or per seat in half points (3 players, RULES E.6).
    """

    def __init__(self, rules: Rules | None = None, seed: int | None = None) -> None:
        if rules is None:
            rules = Rules()
        if not isinstance(rules, Rules):
            raise InvalidNotationError(f"{rules!r} is not a Rules")
        if seed is None:
            seed = int.from_bytes(os.urandom(8), "little")
        self._rules = rules
        self._seed = check_seed(seed)
        self._scores = [0] * (3 if rules.players == 3 else 2)
        self._results: list[Result] = []

    @property
    def rules(self) -> Rules:
        return self._rules

    @property
    def seed(self) -> int:
        return self._seed

    @property
    def scores(self) -> tuple[int, ...]:
        """Cumulative scores: per side, or per seat in half points with three players."""
        return tuple(self._scores)

    @property
    def results(self) -> tuple[Result, ...]:
        """The results of the hands recorded so far."""
        return tuple(self._results)

    @property
    def hand_number(self) -> int:
        """The number of the next hand to deal (0 first): the hands recorded so far."""
        return len(self._results)

    def hand_seed(self, hand: int) -> int:
        """The deal seed of hand ``hand``: SplitMix64 output number hand+1 from the match seed."""
        generator = SplitMix64(self._seed)
        for _ in range(hand):
            generator.next()
        return generator.next()

    def new_game(self) -> Game:
        """Deal the next hand (IllegalMoveError once the match is over)."""
        if self.is_over():
            raise IllegalMoveError("the match is over")
        hand = len(self._results)
        return Game(self._rules, seed=self.hand_seed(hand), first_player=hand % self._rules.players,
                    scores=tuple(self._scores))

    def record(self, game: Game) -> Result:
        """Add a finished hand's result to the scores and return it."""
        if not isinstance(game, Game) or game.rules != self._rules:
            raise InvalidNotationError(f"{game!r} is not a hand of this match")
        if self.is_over():
            raise IllegalMoveError("the match is over")
        result = game.result()
        if result.player_scores is not None:
            for seat, score in enumerate(result.player_scores):
                self._scores[seat] += score
        else:
            for entry in result.sides:
                self._scores[entry.side] += entry.total
        self._results.append(result)
        return result

    def _passes(self, score: int) -> bool:
        target = self._rules.match_target
        if self._rules.players == 3:
            target *= 2  # three players: the scores are in half points
        return score > target if self._rules.compare == ">" else score >= target

    def _outcome(self) -> tuple[bool, int | None]:
        """(over, winner) by RULES E.7."""
        passing = [index for index, score in enumerate(self._scores) if self._passes(score)]
        if not passing:
            return False, None
        best = max(self._scores[index] for index in passing)
        leaders = [index for index in passing if self._scores[index] == best]
        if len(leaders) == 1:
            return True, leaders[0]
        if self._rules.tie_policy == "draw":
            return True, None
        return False, None

    def is_over(self) -> bool:
        return self._outcome()[0]

    @property
    def winner(self) -> int | None:
        """The winning side (3 players: seat), or None (not over, or a draw)."""
        return self._outcome()[1]

    def __repr__(self) -> str:
        return f"Match({self._rules!r}, seed={self._seed})"
