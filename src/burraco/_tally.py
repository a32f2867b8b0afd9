"""The scoring units, in one place, and self-play statistics.

A match is scored per *unit*: per side (two sides, or with six players three sides of two or two
of three), or with three players per seat, in half points (RULES E.6). :func:`units_of`,
:func:`unit_of_seat`, :func:`unit_scale`, :func:`unit_scores` and :func:`match_target` say it for
``Match``, the command, the environments and Ray self-play alike; :class:`Tally` keeps the
statistics of ``burraco selfplay`` on one machine and on Ray (burraco.distributed): wins, score
sums and draws per unit, hands, moves and end reasons."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


def units_of(rules: Any) -> list[str]:
    """What a match scores: the sides (two, or with six players three or two), or with three
    players each seat (in half points)."""
    if per_seat(rules):
        return [f"seat {seat}" for seat in range(rules.players)]
    return [f"side {side}" for side in range(rules.sides)]


def per_seat(rules: Any) -> bool:
    """Whether each seat scores for itself (three players, in half points: RULES E.6) rather than
    for its side."""
    return bool(rules.players == 3)


def unit_scale(rules: Any) -> int:
    """How many of a unit's score make a point: 2 with three players (half points), else 1."""
    return 2 if per_seat(rules) else 1


def unit_of_seat(rules: Any, seat: int) -> int:
    """The unit of :func:`units_of` that seat ``seat`` scores for: the seat itself with three
    players, else its side (seat mod sides)."""
    return seat if per_seat(rules) else seat % rules.sides


def match_target(rules: Any) -> int:
    """The match target (RULES E.7) in the units' scale (half points with three players)."""
    return int(rules.match_target) * unit_scale(rules)


def unit_scores(rules: Any, result: Any) -> list[int]:
    """A finished hand's score per unit of :func:`units_of` (half points with three players)."""
    if per_seat(rules):
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
