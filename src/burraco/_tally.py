"""Self-play statistics, kept alike by ``burraco selfplay`` on one machine (burraco.cli) and on
Ray (burraco.distributed): wins, score sums and draws per unit, hands, moves and end reasons."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


def units_of(rules: Any) -> list[str]:
    """What a match scores: the sides (two, or with six players three or two), or with three
    players each seat (in half points)."""
    if rules.players == 3:
        return [f"seat {seat}" for seat in range(3)]
    return [f"side {side}" for side in range(rules.sides)]


def unit_scores(rules: Any, result: Any) -> list[int]:
    """A finished hand's score per unit of :func:`units_of` (half points with three players)."""
    if rules.players == 3:
        return [int(points) for points in result.player_scores]
    totals = [0] * rules.sides
    for side in result.sides:
        totals[side.side] = int(side.total)
    return totals


@dataclass
class Tally:
    """Self-play statistics: per unit (side, or seat with three players) wins and scores, draws,
    end reasons, moves."""

    units: list[str]
    games: int = 0
    hands: int = 0
    wins: list[int] = field(default_factory=list)
    draws: int = 0
    score_sums: list[int] = field(default_factory=list)
    moves: int = 0
    reasons: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.wins = [0] * len(self.units)
        self.score_sums = [0] * len(self.units)

    def add_game(self, scores: Sequence[int], winner: int | None) -> None:
        """A finished game (a hand, or a match): its score per unit and the winning unit."""
        if len(scores) != len(self.units) or not (winner is None
                                                  or 0 <= winner < len(self.units)):
            raise ValueError(f"scores {list(scores)!r}, winner {winner!r}: expected one score per "
                             f"unit ({', '.join(self.units)}) and a winner among them or None")
        self.games += 1
        for unit, score in enumerate(scores):
            self.score_sums[unit] += score
        if winner is None:
            self.draws += 1
        else:
            self.wins[winner] += 1

    def add_hand(self, moves: int, end_reason: str) -> None:
        """A finished hand: its number of moves and its end reason."""
        self.hands += 1
        self.moves += moves
        self.reasons[end_reason] = self.reasons.get(end_reason, 0) + 1


def hand_winner(scores: Sequence[int]) -> int | None:
    """The unit with the unique highest score, or None (a draw)."""
    best = max(scores)
    leaders = [unit for unit, score in enumerate(scores) if score == best]
    return leaders[0] if len(leaders) == 1 else None
