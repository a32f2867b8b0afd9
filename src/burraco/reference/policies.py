"""The playout policies of :meth:`Game.playout <burraco.reference.Game.playout>` (docs/search.md,
"Playouts"; docs/native.md), and :class:`Policy`, a policy as a value.

* ``'random'``: uniform over the legal moves, drawn with the deal contract's generator (the game
  draws it itself: it needs nothing but ``bounded``).
* ``'greedy'``: :func:`greedy_move`, a fixed rule of thumb that needs no generator: draw from the
  stock, put down the longest new meld, lay off natural cards, and discard the least useful card.
* A Python callable ``(view, moves) -> int``: :func:`python_choice` calls it with the
  :class:`burraco.PolicyView` of the seat to act and the legal moves, the way the core does.

The reference runs no native policy (a capsule of burraco/policy.h): :class:`Policy` refuses one
with :class:`burraco.PolicyError`.

The built-in policies read the position itself (a :class:`.state._State` under its rules) and try
moves on copies of it with :func:`.apply.apply_move`; this module does not import :mod:`.game`.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Callable, Union, cast

from .. import bots
from .._errors import InvalidNotationError, PolicyError
from .._policy import call_python_policy
from .._blank import Initialized
from .apply import apply_move
from .cards import Card, Cards
from .moves import Move, MoveList
from .rules import Rules
from .seats import acting_side
from .state import _State

if TYPE_CHECKING:
    from .observation import Observation

__all__ = [
    "POLICIES",
    "WILD_USEFULNESS",
    "Policy",
    "PolicyLike",
    "falls_short",
    "greedy_move",
    "policy_arg",
    "python_choice",
    "usefulness",
]

#: The built-in policy names the reference plays (those of ``burraco.bots.BUILT_INS`` it has; a
#: bare string names one of these, and never imports anything).
POLICIES = bots.built_in_names("reference")

#: The usefulness of a joker or a two: so high that a wild is discarded only from a hand of wilds.
WILD_USEFULNESS = 1000

#: The name of the capsule that carries a native policy (BURRACO_POLICY_CAPSULE, burraco/policy.h).
NATIVE_CAPSULE = "burraco.policy"


# --- policies as values ---------------------------------------------------------------------------


def _capsule_name(obj: object) -> str | None:
    """The name of ``obj`` if it is a PyCapsule (``''`` for a capsule without one), else None."""
    kind = type(obj)
    if kind.__name__ != "PyCapsule" or kind.__module__ != "builtins":
        return None
    import ctypes

    get_name = ctypes.PYFUNCTYPE(ctypes.c_char_p, ctypes.py_object)(
        ("PyCapsule_GetName", ctypes.pythonapi))
    name = get_name(obj)
    return name.decode("utf-8", "replace") if name else ""


def _callable_name(function: object) -> str:
    """A Python policy's name: ``module.qualname`` when it has them (no module for ``__main__``),
    else its repr."""
    qualname = getattr(function, "__qualname__", None)
    if isinstance(qualname, str):
        module = getattr(function, "__module__", None)
        if isinstance(module, str) and module != "__main__":
            return f"{module}.{qualname}"
        return qualname
    return repr(function)


def _native_refused(what: str) -> PolicyError:
    return PolicyError(
        f"cannot use the native policy {what} in burraco.reference: the reference engine runs "
        "built-in and Python policies only (a native policy needs the core burraco)"
    )


class Policy(Initialized):
    """A policy of the reference engine's loops (:meth:`Game.playout`, :meth:`Game.policy_move`,
    :func:`playouts`), as a value: the reference's counterpart of ``burraco.Policy``.

    ``Policy(source)`` takes:

    * ``'random'`` or ``'greedy'``: a built-in policy (kind ``'builtin'``);
    * ``'module:attribute'``: imports the module and takes that attribute (a dotted attribute
      path is followed), a Python callable or a Policy; an import or lookup that fails raises
      :class:`burraco.PolicyError` with the error as ``__cause__``;
    * a Python callable ``(view, moves) -> int`` (kind ``'python'``): called for every move with
      a :class:`burraco.PolicyView` of the seat to act and the legal moves as a
      :class:`MoveList`, it returns the index of the move to play;
    * a Policy of either engine, built-in or Python: the same policy.

    A native policy (a capsule of burraco/policy.h, or a core ``burraco.Policy`` of kind
    ``'native'``) raises PolicyError: the reference runs built-in and Python policies only.
    Anything else raises InvalidNotationError quoting it.

    Immutable. Two policies are equal when they were made from the same text (``spec``), or,
    made from an object, from the same object; a policy equals its ``spec`` string. Pickles as
    ``Policy(spec)`` (the module is imported again) or ``Policy(source)``.
    """

    __slots__ = ("_kind", "_name", "_spec", "_source")

    _kind: str
    _name: str
    _spec: str | None
    _source: Any

    def __init__(self, source: object) -> None:
        """Makes the policy ``source`` names or is (see the class)."""
        if isinstance(source, str):
            made = _from_string(source, imports=True)
        else:
            made = _from_object(source, None)
        for name in self.__slots__:
            object.__setattr__(self, name, object.__getattribute__(made, name))

    @classmethod
    def _make(cls, kind: str, name: str, spec: str | None, source: object) -> Policy:
        policy = object.__new__(cls)
        for field, value in zip(cls.__slots__, (kind, name, spec, source)):
            object.__setattr__(policy, field, value)
        return policy

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Policy is immutable: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"Policy is immutable: cannot delete {name!r}")

    @property
    def name(self) -> str:
        """The policy's name: the built-in name, the ``'module:attribute'`` it was loaded from, or
        the callable's ``module.qualname``. Errors of the policy loops name it."""
        return self._name

    @property
    def kind(self) -> str:
        """``'builtin'`` or ``'python'`` (the reference has no ``'native'`` policy)."""
        return self._kind

    @property
    def spec(self) -> str | None:
        """The text the policy was made from (``'greedy'``, ``'module:attribute'``), or None."""
        return self._spec

    @property
    def source(self) -> Any:
        """The callable behind a Python policy (None for a built-in)."""
        return self._source

    def _shown(self) -> str:
        """How the loops' error messages show the policy: ``'greedy'``, else its repr."""
        if self._kind == "builtin":
            return f"'{self._spec}'"
        return repr(self)

    def __repr__(self) -> str:
        if self._spec is not None:
            return f"Policy('{self._spec}')"
        return f"Policy({self._source!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, str):
            return self._spec is not None and self._spec == other
        if not isinstance(other, Policy):
            return NotImplemented
        if self._spec is not None or other._spec is not None:
            return self._spec == other._spec
        return self._source is other._source

    def __hash__(self) -> int:
        return hash(self._spec) if self._spec is not None else hash(self._source)

    def __copy__(self) -> Policy:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Policy:
        return self

    def __reduce__(self) -> tuple[object, tuple[object]]:
        return (Policy, (self._spec if self._spec is not None else self._source,))


#: What the reference's policy loops take: a built-in name, a Policy, or a Python callable.
PolicyLike = Union[str, Policy, Callable[[Any, Any], Any]]


def _builtin(name: str) -> Policy:
    return Policy._make("builtin", name, name, None)


def _from_string(text: str, *, imports: bool) -> Policy:
    """The policy a string names (the grammar of :mod:`burraco.bots`): a built-in name, or
    (``imports``) a ``'module:attribute'``."""
    name = str(text)
    if name in POLICIES:
        return _builtin(name)
    if name in bots.BUILT_INS:
        raise PolicyError(
            f"policy {name!r} is built into the core engine only (burraco.Game, docs/bots.md); "
            "the reference engine plays " + ", ".join(map(repr, POLICIES)) + " and Python policies"
        )
    if imports:
        try:
            spec = bots.parse(name)
        except InvalidNotationError:
            spec = None
        if spec is not None and spec.kind == "module":
            return _from_object(bots.import_attribute(spec), spec.name)
        if spec is None and ":" in name:
            raise InvalidNotationError(f"policy {text!r}: expected {bots.HELP}")
    known = ("or 'module:attribute'" if imports
             else "; burraco.reference.Policy('module:attribute') loads a module's")
    raise InvalidNotationError(
        f"unknown playout policy {text!r} (known: "
        + ", ".join(repr(name) for name in bots.BUILT_INS) + f"{', ' if imports else ''}{known})"
    )


def _from_object(obj: object, spec: str | None) -> Policy:
    """The policy of an object that is not a string; ``spec`` the ``'module:attribute'`` where it
    was found, if any."""
    if isinstance(obj, Policy):
        return obj
    what = f"'{spec}'" if spec is not None else repr(obj)
    core = sys.modules.get("burraco._core")
    if core is not None and isinstance(obj, core.Policy):
        if obj.kind == "builtin":
            return _builtin(str(obj.spec))
        if obj.kind == "python":
            return Policy._make("python", obj.name, obj.spec, obj.source)
        raise _native_refused(what)
    capsule = obj if _capsule_name(obj) is not None else getattr(obj, "__burraco_policy__", None)
    name = _capsule_name(capsule)
    if name is not None:
        if name != NATIVE_CAPSULE:
            raise InvalidNotationError(
                f"{capsule!r} is not a burraco policy (a policy capsule is named "
                f"'{NATIVE_CAPSULE}', made by burraco.policy's export_policy)"
            )
        raise _native_refused(what)
    if callable(obj):
        return Policy._make("python", spec if spec is not None else _callable_name(obj), spec, obj)
    raise InvalidNotationError(
        f"{'' if spec is None else repr(spec) + ' is '}{obj!r}, not a policy: expected 'random', "
        "'greedy', a Policy of either engine or a callable (view, moves) -> int"
    )


def policy_arg(policy: object) -> Policy:
    """The policy argument of a loop (``playout``, ``policy_move``, ``playouts``): a bare string
    is only a built-in name (it never imports: ``Policy('module:attribute')`` does), anything
    else as :class:`Policy` takes it. InvalidNotationError quoting anything else."""
    if isinstance(policy, str):
        return _from_string(policy, imports=False)
    return _from_object(policy, None)


def python_choice(policy: Policy, observation: Observation, moves: Sequence[Move],
                  state: int) -> int:
    """The index a Python policy chooses among ``moves`` (the legal moves, non-empty), called as
    the core calls it: ``burraco._policy.call_python_policy`` with ``observation`` (the seat to
    act's), a fresh :class:`MoveList` of ``moves`` and ``state`` (one 64-bit draw of the loop's
    generator) for its :class:`burraco.RandomStream`.

    PolicyError naming the policy when it raises (``policy 'NAME' raised KeyError: 'x'``, the
    exception as ``__cause__``), when its answer is not an int (a bool, a float, a str: raised
    as TypeError by the call) or when it is out of range."""
    try:
        index = call_python_policy(policy.source, cast(Any, observation),
                                   cast(Any, MoveList(moves)), state)
    except Exception as error:
        text = str(error)
        described = f"{type(error).__name__}: {text}" if text else type(error).__name__
        raise PolicyError(f"policy '{policy.name}' raised {described}") from error
    count = len(moves)
    if not 0 <= index < count:
        expected = f"{count} move (0)" if count == 1 else f"{count} moves (0 to {count - 1})"
        raise PolicyError(
            f"policy '{policy.name}' returned {index}: expected the index of one of its {expected}"
        )
    return index


# --- the built-in policies ------------------------------------------------------------------------


def _rank_distance(first: Card, second: Card) -> int:
    """How far apart two natural ranks are, an ace being rank 1 or 14 (whichever is nearer)."""
    first_values = (1, 14) if first.is_ace else (first.rank_value,)
    second_values = (1, 14) if second.is_ace else (second.rank_value,)
    return min(abs(a - b) for a in first_values for b in second_values)


def usefulness(card: Card, hand: Cards) -> int:
    """How much ``card`` helps the rest of ``hand`` (which holds it), for the greedy discard.

    A joker or a two: :data:`WILD_USEFULNESS`. A natural card of rank r and suit s, counting the
    other cards of the hand (the hand less this one copy; wilds do not count): 10 for every other
    card of rank r, of any suit (a set in the making), plus 1 for every other card of suit s whose
    rank is 1 or 2 away from r (a run in the making), the ace being rank 1 and rank 14.
    """
    if card.is_wild:
        return WILD_USEFULNESS
    score = 0
    for other in hand.distinct():
        copies = hand.count(other) - (1 if other is card else 0)
        if other.is_wild or copies == 0:
            continue
        if other.rank == card.rank:
            score += 10 * copies
        elif other.suit == card.suit and _rank_distance(card, other) in (1, 2):
            score += copies
    return score


def falls_short(rules: Rules, s: _State, move: Move) -> bool:
    """Whether the legal meld or lay-off ``move`` would empty the acting player's hand while the
    side's brazilian opening falls short, so that the turn's cards only come back (RULES C.3). It
    is played on a copy: only a short opening raises the side's requirement (``need``)."""
    if rules.opening_minimum is None or len(move.cards) < sum(s.hands[s.turn].values()):
        return False
    after = s.copy()
    apply_move(rules, after, move)
    return after.need != s.need


def pile_pays(rules: Rules, s: _State) -> bool:
    """Whether greedy takes the pile: never while the acting side has not met an opening minimum
    (a hand that cannot open would only grow); else when it holds at least four cards, or its
    top card is natural
    (neither a joker nor a two) and two other natural cards of the hand make with it three of a
    kind (any suits) or three in a row of its suit. In a row the ace is rank 1 or 14 and a two
    never stands for itself, so ``A 2 3`` is no row but ``Q K A`` is. A pattern of the cards alone,
    whatever the rules allow: a native port can follow it exactly."""
    if rules.opening_minimum is not None and not s.opened[acting_side(rules, s)]:
        return False
    if sum(s.pile.values()) >= 4:
        return True
    top = s.top
    if top is None or top.is_wild:
        return False
    hand = list(s.hands[s.turn].elements())
    if sum(1 for card in hand if card.rank == top.rank) >= 2:
        return True

    def positions(card: Card) -> set[int]:
        return {1, 14} if card.is_ace else {card.rank_value}

    held = set()
    for card in hand:
        if card.suit == top.suit and not card.is_wild:
            held |= positions(card)
    return any({start, start + 1, start + 2} - {position} <= held
               for position in positions(top)
               for start in range(position - 2, position + 1)
               if 2 not in {start, start + 1, start + 2} and start >= 1 and start + 2 <= 14)


def greedy_move(rules: Rules, s: _State, moves: Sequence[Move]) -> Move:
    """The greedy policy's choice among ``moves``, the legal moves of the position ``s`` in
    canonical order.

    1. Draw phase: ``keep`` if legal, else ``pile`` if legal and :func:`pile_pays`, else
       ``draw`` if legal, else the first legal move.
    2. Meld phase, the first rule that applies, never choosing a meld or lay-off that would empty
       the hand of a side whose brazilian opening falls short (:func:`falls_short`: the turn's
       cards would only come back, and greedy would play them again forever):

       * the new meld with the most cards (of equal ones, the first in canonical order);
       * the first lay-off of a natural card (neither a joker nor a two);
       * when the hand holds at most two cards, the first lay-off of any card;
       * the discard of the card with the lowest :func:`usefulness`, of equal ones the card worth
         more points (``rules.card_points``), then the first in canonical order;
       * (never reached while C.7 holds: there is always a discard or a lay-off) the first move.
    """
    if s.phase == "draw":
        for wanted in ("keep", "pile", "draw"):
            for move in moves:
                if move.kind == wanted and (wanted != "pile" or pile_pays(rules, s)):
                    return move
        return moves[0]
    hand = Cards._from_counter(s.hands[s.turn], "hand", rules.decks)
    table_moves = [move for move in moves
                   if move.kind in ("meld", "add") and not falls_short(rules, s, move)]
    longest: Move | None = None
    for move in table_moves:
        if move.kind == "meld" and (longest is None or len(move.cards) > len(longest.cards)):
            longest = move
    if longest is not None:
        return longest
    for move in table_moves:
        if move.kind == "add" and not cast(Card, move.card).is_wild:  # an add has a card
            return move
    if len(hand) <= 2:
        for move in table_moves:
            if move.kind == "add":
                return move
    best: Move | None = None
    best_key: tuple[int, int] | None = None
    for move in moves:  # canonical order: the first of equal keys stays
        if move.kind != "discard":
            continue
        card = cast(Card, move.card)  # a discard has a card
        key = (usefulness(card, hand), -rules.card_points(card))
        if best_key is None or key < best_key:
            best, best_key = move, key
    if best is not None:
        return best
    return moves[0]
