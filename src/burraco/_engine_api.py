"""The parts of an engine that the records and JSON views use (:mod:`burraco._records`), as
protocols: both engines' ``Game``, ``Rules`` and their values satisfy them (docs/api.md,
docs/game.md, docs/search.md). Type-only: nothing here runs at play.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

if TYPE_CHECKING:
    from typing_extensions import Self  # typing.Self from Python 3.11

class _Card(Protocol):
    """A card: its ``str`` is the canonical name."""

    def __str__(self) -> str: ...


class _Meld(Protocol):
    """A meld on the table."""

    @property
    def layout(self) -> str: ...

    @property
    def kind(self) -> str: ...

    @property
    def cards(self) -> Iterable[_Card]: ...

    @property
    def burraco(self) -> str | None: ...

    @property
    def points(self) -> int: ...


class _Melds(Protocol):
    """One side's melds, in creation order."""

    def __iter__(self) -> Iterator[_Meld]: ...


class _Rules(Protocol):
    """A rule set."""

    @property
    def preset(self) -> str: ...

    @property
    def text(self) -> str: ...

    @property
    def players(self) -> int: ...

    @property
    def sides(self) -> int: ...

    @property
    def opening_minimum(self) -> object: ...

    @property
    def total_cards(self) -> int: ...

    @property
    def hand_size(self) -> int: ...

    @property
    def pozzetto_sizes(self) -> tuple[int, ...]: ...

    @property
    def initial_upcard(self) -> bool: ...

    @property
    def decks(self) -> int: ...

    @property
    def jokers(self) -> int: ...

    def knobs(self) -> dict[str, object]: ...


class _SideResult(Protocol):
    """One side's score of a finished hand."""

    @property
    def side(self) -> int: ...

    @property
    def melds(self) -> int: ...

    @property
    def bonuses(self) -> int: ...

    @property
    def closing(self) -> int: ...

    @property
    def hand(self) -> int: ...

    @property
    def pozzetto(self) -> int: ...

    @property
    def cut(self) -> int: ...

    @property
    def total(self) -> int: ...


class _Result(Protocol):
    """The result of a finished hand."""

    @property
    def end_reason(self) -> str: ...

    @property
    def closing_side(self) -> int | None: ...

    @property
    def sides(self) -> Sequence[_SideResult]: ...

    @property
    def player_scores(self) -> Sequence[int] | None: ...


class _Observation(Protocol):
    """``game.observation(player)`` (docs/search.md)."""

    @property
    def player(self) -> int: ...

    @property
    def rules(self) -> _Rules: ...

    @property
    def hand(self) -> Iterable[_Card]: ...

    @property
    def hand_sizes(self) -> tuple[int, ...]: ...

    @property
    def known(self) -> tuple[Iterable[_Card], ...]: ...

    @property
    def stock_size(self) -> int: ...

    @property
    def discard_pile(self) -> Iterable[_Card]: ...

    @property
    def top(self) -> _Card | None: ...

    @property
    def pozzetti(self) -> tuple[tuple[str, int | None, int | None,
                                      Iterable[_Card] | None], ...]: ...

    @property
    def scores(self) -> tuple[int, ...]: ...

    def melds(self, side: int) -> _Melds: ...

    def __str__(self) -> str: ...


_G = TypeVar("_G", bound="_Game")


class _Game(Protocol):
    """A hand of either engine (docs/game.md)."""

    @property
    def rules(self) -> _Rules: ...

    @property
    def seed(self) -> int | None: ...

    @property
    def players(self) -> int: ...

    @property
    def first_player(self) -> int: ...

    @property
    def scores(self) -> tuple[int, ...]: ...

    @property
    def turn(self) -> int: ...

    @property
    def phase(self) -> str: ...

    @property
    def moves(self) -> Sequence[object]: ...

    @property
    def stock(self) -> tuple[_Card, ...]: ...

    @property
    def discard_pile(self) -> Iterable[_Card]: ...

    @property
    def top_discard(self) -> _Card | None: ...

    @property
    def stock_size(self) -> int: ...

    @property
    def pozzetti(self) -> tuple[tuple[str, int | None, Iterable[_Card]], ...]: ...

    def hand(self, player: int) -> Iterable[_Card]: ...

    def known(self, player: int) -> Iterable[_Card]: ...

    def melds(self, side: int) -> _Melds: ...

    def copy(self) -> Self: ...

    def pop(self) -> object: ...

    def push(self, move: str) -> None: ...

    def is_over(self) -> bool: ...

    def result(self) -> _Result: ...

    def legal_moves(self) -> Iterable[object]: ...

    def state_string(self) -> str: ...

    def observation(self, player: int) -> _Observation: ...


_G_co = TypeVar("_G_co", bound="_Game", covariant=True)


class _GameClass(Protocol[_G_co]):
    """The engine's ``Game`` class: the constructors used to rebuild a hand."""

    # The constructor's parameters (rules, seed=, deck=, first_player=, scores=) are typed by
    # each engine in its own way; any signature is accepted here.
    def __call__(self, *args: Any, **kwargs: Any) -> _G_co: ...

    def from_state_string(self, text: str) -> _G_co: ...


class _RulesClass(Protocol):
    """An engine's ``Rules`` class: made from a preset and knobs, or read from a rules text."""

    def __call__(self, *args: Any, **kwargs: Any) -> _Rules: ...

    def from_text(self, text: str) -> _Rules: ...
