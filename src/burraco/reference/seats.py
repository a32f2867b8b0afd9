"""Seats, sides and packets: who plays for whom, which packet a side may take, and when a side may
close (RULES C.4, C.6, F.1, F.6, F.7; docs/game.md "Seats, sides, packets").

A *seat* is a player 0..N-1. A *side slot* indexes melds, opening state and results: with 2 or 4
players the two sides (seat, or seat mod 2); with 6 players the ``rules.sides`` sides, seat mod 3
(three sides of two) or seat mod 2 (two sides of three, RULES F.7); with 3 players four slots, seats
0, 1, 2 and the pair 3 that the two non-soloists form when the first pozzetto is taken (RULES F.6;
``split`` is the soloist's seat, None before). A *packet* is a pozzetto; packet n may be a side's
pozzetto only while n < the number of sides, so with two sides of three the third packet is only a
stock reserve (RULES F.7, D.3).

Every function takes the rules and the position (or the part of it it reads) and changes nothing.
"""

from __future__ import annotations

from .rules import Rules
from .state import _TAKEN, UNTAKEN, _State, side_slots


def side_of_seat(rules: Rules, seat: int, split: int | None) -> int:
    """The side slot ``seat`` plays for; with three players it depends on the split (RULES F.6)."""
    players = rules.players
    if players in (4, 6):
        return seat % rules.sides  # partners sit every `sides` seats (RULES F.1, F.7)
    if players == 2 or split is None or seat == split:
        return seat
    return 3


def acting_side(rules: Rules, s: _State) -> int:
    """The side of the seat to act."""
    return side_of_seat(rules, s.turn, s.split)


def seats_of(rules: Rules, side: int, split: int | None) -> list[int]:
    """The seats that play for ``side``."""
    return [seat for seat in range(rules.players) if side_of_seat(rules, seat, split) == side]


def sides_in_play(rules: Rules, split: int | None) -> tuple[int, ...]:
    """The side slots that score: every slot, but with three players the three seats before the
    split and the soloist and the pair after it."""
    if rules.players != 3:
        return tuple(range(side_slots(rules)))
    if split is None:
        return (0, 1, 2)
    return tuple(sorted((split, 3)))


def provisional(rules: Rules, s: _State, side: int) -> bool:
    """A side not yet open under a brazilian opening minimum: its table cards are this turn's."""
    return rules.opening_minimum is not None and not s.opened[side]


def has_packet(rules: Rules, s: _State, side: int) -> bool:
    """Whether ``side`` has taken its pozzetto (face down, seen or in a hand)."""
    return any(status in _TAKEN and side_of_seat(rules, owner, s.split) == side
               for status, owner, _cards in s.pozzetti)


def untaken_packet(s: _State) -> int | None:
    """The index of the top untaken packet, or None: the next pozzetto, or the next stock
    (RULES D.3)."""
    for number, (status, _owner, _cards) in enumerate(s.pozzetti):
        if status == UNTAKEN:
            return number
    return None


def pot(rules: Rules, s: _State) -> int | None:
    """The packet a side that runs out of cards would take (RULES C.4, F.7): the top untaken
    packet, if it may be a side's pozzetto (its index below the number of sides), else None."""
    number = untaken_packet(s)
    if number is None or number >= rules.sides:
        return None
    return number


def may_take_packet(rules: Rules, s: _State, side: int) -> bool:
    """Whether ``side`` would take a pozzetto on running out of cards now (RULES C.4)."""
    return not has_packet(rules, s, side) and pot(rules, s) is not None


def may_close(rules: Rules, s: _State, side: int) -> bool:
    """RULES C.6: the side has its pozzetto and a burraco (clean where required)."""
    if not has_packet(rules, s, side):
        return False
    clean = rules.closing_requires_burraco == "clean"
    return any(meld.burraco is not None and (not clean or meld.burraco == "clean")
               for _number, meld in s.melds[side])
