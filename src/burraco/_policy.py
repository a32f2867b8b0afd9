"""What a Python policy sees (docs/native.md "Python policies"), shared by both engines.

A Python callable is a policy: ``policy(view, moves) -> int``, the index into ``moves`` of the
move to play. ``view`` is a :class:`PolicyView` of the seat to act: its observation (the cards it
may see, nothing hidden) and its own random stream; ``moves`` is a :class:`burraco.MoveList` of the
legal moves, in canonical order. A native policy (burraco/policy.h) gets the same information.
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING, Any, Callable, List, Optional, Sequence, Tuple

from ._errors import InvalidNotationError, InvalidStateError

if TYPE_CHECKING:
    from ._core import Card, Cards, Melds, MoveList, Observation, Rules

__all__ = ["PolicyView", "RandomStream"]

_MASK = (1 << 64) - 1


def _splitmix64(state: int) -> Tuple[int, int]:
    """One SplitMix64 step: (new state, output). The hand seeds of a match and of a batch, and
    the outputs of :class:`RandomStream`."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


class RandomStream:
    """The per-call random stream of a policy: SplitMix64 from the state the engine drew for this
    call, the same numbers as ``burraco_random_next`` and ``burraco_random_below`` of the native
    interface, so a Python policy and its native twin can make the same random choices.

    >>> stream = RandomStream(0)
    >>> stream.next()
    16294208416658607535
    >>> stream.below(10)
    4
    """

    __slots__ = {"state": "The generator's state: the next output is SplitMix64 of it."}

    def __init__(self, state: int) -> None:
        if isinstance(state, bool) or not isinstance(state, int) or not 0 <= state <= _MASK:
            raise ValueError(f"RandomStream state {state!r}: expected an int in [0, 2**64)")
        self.state = state

    def next(self) -> int:
        """The next 64-bit output."""
        self.state, output = _splitmix64(self.state)
        return output

    def below(self, n: int) -> int:
        """Uniform in ``range(n)``, ``n >= 1`` (Lemire's multiply-shift with rejection)."""
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= _MASK:
            raise ValueError(f"RandomStream.below({n!r}): expected an int from 1 to 2**64 - 1")
        m = self.next() * n
        low = m & _MASK
        if low < n:
            threshold = ((1 << 64) - n) % n
            while low < threshold:
                m = self.next() * n
                low = m & _MASK
        return m >> 64

    def __repr__(self) -> str:
        return f"RandomStream({self.state})"


class PolicyView:
    """The position as the seat to act sees it, for a Python policy.

    Every field of the native view (burraco/policy.h ``burraco_view``) has its counterpart here;
    the cards it may not see are not in it. ``observation`` is the underlying
    :class:`burraco.Observation`; ``random`` the call's :class:`RandomStream`.
    """

    __slots__ = {"observation": "The burraco.Observation of the seat to act.",
                 "random": "The call's RandomStream (the same numbers as the native stream's)."}

    def __init__(self, observation: "Observation", random: RandomStream) -> None:
        self.observation = observation
        self.random = random

    @property
    def rules(self) -> "Rules":
        """The rules of the game."""
        return self.observation.rules

    @property
    def players(self) -> int:
        """The number of seats."""
        return int(self.observation.rules.players)

    @property
    def seat(self) -> int:
        """The seat to act, whose view this is."""
        return self.observation.player

    @property
    def phase(self) -> str:
        """``'draw'`` or ``'meld'``."""
        return self.observation.phase

    @property
    def sides(self) -> Tuple[int, ...]:
        """The side of each seat now (with three players the pair merges into side 3)."""
        return self.observation.sides

    @property
    def side(self) -> int:
        """The side of the seat to act."""
        return self.observation.sides[self.observation.player]

    @property
    def hand(self) -> "Cards":
        """The seat's own hand."""
        return self.observation.hand

    @property
    def hand_sizes(self) -> Tuple[int, ...]:
        """The number of cards in each seat's hand."""
        return self.observation.hand_sizes

    @property
    def known(self) -> Tuple["Cards", ...]:
        """Per seat, the cards everyone knows to be in that hand (taken with the pile and not
        played since; public, this seat's own entry too)."""
        return self.observation.known

    @property
    def discard_pile(self) -> "Cards":
        """Every card of the discard pile."""
        return self.observation.discard_pile

    @property
    def top(self) -> Optional["Card"]:
        """The top card of the discard pile, or None."""
        return self.observation.top

    @property
    def stock_size(self) -> int:
        """The number of cards in the stock."""
        return self.observation.stock_size

    def melds(self, side: int) -> "Melds":
        """The melds of a side, in creation order (the index of an ``add`` move)."""
        return self.observation.melds(side)

    @property
    def pozzetti(self) -> Tuple[Any, ...]:
        """Each pozzetto as (status, owner, size, cards); cards only when this seat has seen it."""
        return self.observation.pozzetti

    @property
    def opened(self) -> Tuple[bool, ...]:
        """Per side slot: whether the side has met its brazilian opening minimum (False throughout
        under rules without one)."""
        return self.observation.opened

    @property
    def need(self) -> Tuple[int, ...]:
        """Per side slot: the brazilian opening minimum still needed (0 without one)."""
        return self.observation.need

    @property
    def scores(self) -> Tuple[int, ...]:
        """The match scores at the start of the hand (per side; per seat in half points with
        three players)."""
        return self.observation.scores

    def __repr__(self) -> str:
        return f"<PolicyView seat {self.seat} {self.observation}>"


def call_python_policy(function: Callable[[PolicyView, "MoveList"], Any],
                       observation: "Observation", moves: "MoveList", state: int) -> int:
    """Calls a Python policy the way the engines do: the view of ``observation`` with the stream
    started at ``state``, then ``operator.index`` of the answer (a bool is refused)."""
    answer = function(PolicyView(observation, RandomStream(state)), moves)
    if isinstance(answer, bool):
        raise TypeError(f"returned {answer!r}, not a move index")
    try:
        return operator.index(answer)
    except TypeError:
        kind = type(answer).__name__
        raise TypeError(f"returned {answer!r} ({kind}), not a move index") from None


def seat_policies(policies: Any, players: int, sides: int = 2) -> List[Any]:
    """One policy per seat from ``policies``: a list or tuple with one per seat (where seats have
    partners, fewer sides than seats, one per side is enough: seat k plays entry k mod
    ``sides``), or any single policy for every seat."""
    if isinstance(policies, (list, tuple)):
        chosen = list(policies)
        partners = sides < players
        if partners and len(chosen) == sides:
            chosen = [chosen[seat % sides] for seat in range(players)]
        if len(chosen) != players:
            raise InvalidNotationError(
                f"policies {policies!r}: expected one policy per seat ({players})"
                + (f" or one per side ({sides})" if partners else ""))
        return chosen
    return [policies] * players


def play_match(match: Any, policies: Any, max_hands: Optional[int]) -> Optional[int]:
    """``match.play(policies, max_hands=...)`` of both engines: ``match.play_hand(policies)``
    until the match is over or ``max_hands`` more hands were played; the winner."""
    if max_hands is not None and (isinstance(max_hands, bool) or not isinstance(max_hands, int)
                                  or max_hands < 0):
        raise InvalidNotationError(f"max_hands {max_hands!r}: expected None or an int >= 0")
    played = 0
    while not match.is_over() and (max_hands is None or played < max_hands):
        match.play_hand(policies)
        played += 1
    winner: Optional[int] = match.winner
    return winner


def play_with(game: Any, policies: Sequence[Any], seed: int, move_cap: int) -> None:
    """Plays ``game`` to its end with one policy per seat, as ``burraco selfplay`` and
    :meth:`burraco.Match.play_hand` do: with the same policy at every seat
    ``game.playout(policy, seed)``; else move by move, ``game.policy_move(policies[game.turn],
    s)`` with ``s`` the successive SplitMix64 outputs of ``seed``, at most ``move_cap`` moves. A
    seat's entry may also be a :class:`burraco.ISMCTS`: its moves are ``search.choose(game)``
    (a seed is still drawn for each, so the other seats' moves do not depend on it)."""
    first = policies[0]
    searching = any(hasattr(p, "choose") for p in policies)
    if not searching and all(p is first or p == first for p in policies):
        game.playout(first, seed)
        return
    seeds = RandomStream(seed)  # its outputs are the SplitMix64 outputs of the seed
    played = 0
    while not game.is_over():
        if played == move_cap:
            raise InvalidStateError(f"the hand is not over after {move_cap} moves "
                                    f"(MAX_HAND_MOVES): state {game.state_string()!r}")
        player = policies[game.turn]
        move_seed = seeds.next()
        game.push(player.choose(game) if hasattr(player, "choose") else
                  game.policy_move(player, move_seed))
        played += 1
