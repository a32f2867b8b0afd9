"""The score of a finished hand (RULES E.1-E.6): :func:`hand_result` scores a finished position
into a :class:`Result` (the value class both engines return, burraco/_result.py)."""

from __future__ import annotations

from collections.abc import Iterable

from .._result import Result, SideResult
from .cards import Card
from .rules import Rules
from .seats import seats_of, side_of_seat, sides_in_play
from .state import _TAKEN, IN_HAND, OVER, _State

__all__ = ["Result", "SideResult", "hand_result"]


def _points(rules: Rules, cards: Iterable[Card]) -> int:
    return sum(rules.card_points(card) for card in cards)


def hand_result(rules: Rules, s: _State, cut: int | None) -> Result:
    """The score of the finished position ``s`` (RULES E.1-E.6); ``cut`` is the side credited
    with the brazilian cut bonus, or None. ValueError if the hand is not over."""
    if s.phase != OVER:
        raise ValueError("the hand is not over: no result yet")
    closing_side = s.end[1] if isinstance(s.end, tuple) else None
    entries = []
    for side in sides_in_play(rules, s.split):
        seats = seats_of(rules, side, s.split)
        melds = sum(meld.points for _n, meld in s.melds[side])
        bonuses = sum(meld.bonus for _n, meld in s.melds[side])
        closing = rules.closing_bonus if closing_side == side else 0
        hand = -sum(_points(rules, s.hands[seat].elements()) for seat in seats)
        pozzetto = 0
        taken = False
        for status, owner, cards in s.pozzetti:
            if owner not in seats or status not in _TAKEN:
                continue
            if status == IN_HAND:
                taken = True
                continue
            value = _points(rules, cards)  # RULES E.4: taken by discarding, never played
            if rules.unplayed_pozzetto_rule == "count_as_hand":
                taken = True
                hand -= value
            elif rules.unplayed_pozzetto_rule == "min_of_value_and_100":
                taken = True
                pozzetto -= min(value, 100)
        if not taken:
            pozzetto -= rules.no_pozzetto_penalty
        cut_bonus = rules.cut_bonus if cut == side else 0
        total = melds + bonuses + closing + hand + pozzetto + cut_bonus
        entries.append(SideResult(side, melds, bonuses, closing, hand, pozzetto, cut_bonus, total))
    player_scores = None
    if rules.players == 3:
        totals = {entry.side: entry.total for entry in entries}
        scores = []
        for seat in range(3):
            side = side_of_seat(rules, seat, s.split)
            share = 1 if side == 3 and rules.score_split == "halves_for_pair" else 2
            scores.append(share * totals[side])
        player_scores = tuple(scores)
    end_reason = s.end[0] if isinstance(s.end, tuple) else s.end
    return Result(end_reason, closing_side, tuple(entries), player_scores)  # type: ignore
