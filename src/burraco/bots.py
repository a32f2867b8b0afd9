"""The bots: one grammar of bot specs, the registry of built-in bots, :func:`make`, the seed
stream and the self-play loop (docs/bots.md "Bot specs").

A bot is named by a *spec*, the same text everywhere (the command's ``--bots``, ``--policy`` and
``--policies``, the arena, the server's bot seats, the environments, Ray self-play):

* a built-in bot of :data:`BUILT_INS`: ``'random'``, ``'greedy'``, ``'heuristic'`` and
  ``'heuristic:SET'`` (one of the heuristic's parameter sets);
* ``'ismcts:ITERATIONS'``, an ISMCTS search, with options after more colons, each
  ``name=value`` (:data:`ISMCTS_OPTIONS`): ``'ismcts:1000:rollout=heuristic:cut=40'``;
* ``'module:attribute'``: a policy of yours (a native policy or a Python callable,
  docs/native.md), the module imported when the bot is made.

:func:`parse` reads a spec into a :class:`Spec` (``str(spec)`` writes it back), :func:`make`
turns it into what an engine plays, :func:`seeds` is the SplitMix64 stream every deal seed of a
run comes from, and :func:`play_games` is the self-play loop of ``burraco selfplay``, its threads
and its Ray shards.

>>> from burraco import bots
>>> bots.parse('ismcts:500:rollout=heuristic')
Spec(kind='ismcts', name='ismcts', iterations=500, options=(('rollout', 'heuristic'),))
>>> str(bots.parse(' heuristic:2p '))
'heuristic:2p'
>>> next(bots.seeds(0))
16294208416658607535
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any, Literal

from . import _core
from ._errors import InvalidNotationError, PolicyError
from ._match import Match
from ._policy import RandomStream, play_with
from ._tally import hand_winner, unit_scores

__all__ = [
    "BUILT_INS",
    "HELP",
    "ISMCTS_OPTIONS",
    "BuiltIn",
    "Played",
    "Spec",
    "built_in_names",
    "engine_of",
    "import_attribute",
    "make",
    "parse",
    "play_games",
    "play_hand",
    "seeds",
]

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15  # SplitMix64's increment: the stream's state after n outputs


# ---- the registry --------------------------------------------------------------------------------


@dataclass(frozen=True)
class BuiltIn:
    """A built-in bot: its spec, one line on what it plays, and the engines that have it
    (``'core'``, ``'reference'``)."""

    name: str
    summary: str
    engines: tuple[str, ...] = ("core",)


#: Every built-in bot, by name: the one list the command, the arena, the server, the environments
#: and both engines' policy constructors read (the core's ``burraco.Policy`` makes each of them;
#: a test checks that both lists agree).
BUILT_INS: dict[str, BuiltIn] = {bot.name: bot for bot in (
    BuiltIn("random", "uniform over the candidate moves", ("core", "reference")),
    BuiltIn("greedy", "a fixed rule of thumb: a pile that pays, the longest meld, lay-offs, the "
            "least useful discard", ("core", "reference")),
    BuiltIn("heuristic", "the move its position evaluation prefers, with the parameter set of "
            "the rules and the number of players"),
    BuiltIn("heuristic:2p", "the heuristic with its two-player parameter set, whatever the game"),
    BuiltIn("heuristic:4p", "the heuristic with its four-player parameter set, whatever the game"),
    BuiltIn("heuristic:4p-opening", "the heuristic with the four-player set played under an "
            "opening minimum, whatever the game"),
)}


def built_in_names(engine: str | None = None) -> tuple[str, ...]:
    """The built-in bots' names, of one engine (``'core'`` or ``'reference'``) or of any."""
    return tuple(name for name, bot in BUILT_INS.items() if engine is None or engine in bot.engines)


def _plain_names() -> tuple[str, ...]:
    """The built-ins a search option may name (a colon would end the option)."""
    return tuple(name for name in built_in_names("core") if ":" not in name)


def _heuristic_sets() -> str:
    return "|".join(name.partition(":")[2] for name in BUILT_INS if name.startswith("heuristic:"))


def _one_of(names: Sequence[str]) -> Callable[[str], str]:
    def check(value: str) -> str:
        if value not in names:
            raise ValueError(value)
        return value
    return check


def _yes_no(value: str) -> bool:
    return _one_of(("yes", "no"))(value) == "yes"


#: The options of an ``ismcts:`` spec: name -> (the ``burraco.ISMCTS`` keyword, its parser, help).
ISMCTS_OPTIONS: dict[str, tuple[str, Callable[[str], Any], str]] = {
    "rollout": ("policy", _one_of(_plain_names()), "the rollout policy (a built-in bot)"),
    "cut": ("max_rollout_moves", int, "rollouts cut after N moves and valued as they stand"),
    "eval": ("evaluation", _one_of(("score", "heuristic")), "how a cut rollout is valued"),
    "reward": ("reward", _one_of(("win", "margin", "equity")), "what a rollout is worth"),
    "scale": ("margin_scale", float, "the margin reward's scale"),
    "sigma": ("equity_sigma", float, "the equity reward's model"),
    "points": ("equity_points", float, "the equity reward's model"),
    "opponents": ("opponents", _one_of(("tree", "policy", *_plain_names())),
                  "who the other seats are inside the tree"),
    "c": ("exploration", float, "the exploration constant"),
    "time": ("time_limit", float, "seconds a move at most"),
    "threads": ("threads", int, "search threads of its own"),
    "keep": ("keep_tree", _yes_no, "yes: the tree is kept from move to move"),
    "seed": ("seed", int, "the search's seed"),
}

#: The grammar in one line, for help texts and error messages.
HELP = (f"{', '.join(name for name in BUILT_INS if ':' not in name)} (heuristic:SET: one of its "
        f"parameter sets, {_heuristic_sets()}), ismcts:ITERATIONS[:option=value...] (a search, "
        "docs/bots.md), or module:attribute (a native or Python policy, docs/native.md)")


# ---- the grammar ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Spec:
    """A parsed bot spec. ``kind`` is ``'builtin'`` (``name`` a key of :data:`BUILT_INS`),
    ``'ismcts'`` (``iterations`` and the ``options`` as written, each checked) or ``'module'``
    (``name`` the ``'module:attribute'``). ``str(spec)`` is the spec's text."""

    kind: Literal["builtin", "ismcts", "module"]
    name: str
    iterations: int | None = None
    options: tuple[tuple[str, str], ...] = ()

    def __str__(self) -> str:
        if self.kind != "ismcts":
            return self.name
        return ":".join([self.name, str(self.iterations),
                         *(f"{key}={value}" for key, value in self.options)])

    @property
    def module(self) -> str:
        """The module a ``'module:attribute'`` spec imports ('' for another kind)."""
        return self.name.partition(":")[0] if self.kind == "module" else ""

    @property
    def attribute(self) -> str:
        """The (dotted) attribute a ``'module:attribute'`` spec takes ('' for another kind)."""
        return self.name.partition(":")[2] if self.kind == "module" else ""

    def search_options(self) -> dict[str, Any]:
        """The ``burraco.ISMCTS`` keywords of an ``ismcts`` spec (``iterations`` included)."""
        options: dict[str, Any] = {"iterations": self.iterations}
        for key, value in self.options:
            keyword, convert, _ = ISMCTS_OPTIONS[key]
            options[keyword] = convert(value)
        return options


def parse(text: object) -> Spec:
    """The :class:`Spec` of a bot spec (blanks around it ignored); InvalidNotationError quoting
    the text and saying what a spec is when it names no bot. Nothing is imported."""
    if not isinstance(text, str):
        raise InvalidNotationError(f"bot {text!r}: expected a spec string: {HELP}")
    spec = text.strip()
    if spec in BUILT_INS:
        return Spec("builtin", spec)
    head, colon, rest = spec.partition(":")
    if head == "ismcts":
        return _parse_ismcts(text, rest.split(":") if colon else [])
    if head == "heuristic" and colon:
        raise InvalidNotationError(
            f"unknown heuristic parameter set {text!r} (known: "
            + ", ".join(repr(name) for name in BUILT_INS if name.startswith("heuristic:"))
            + "; 'heuristic' plays the set of the rules and the number of players)")
    if colon and head and rest and ":" not in rest:
        return Spec("module", spec)
    raise InvalidNotationError(f"unknown bot {text!r}: expected {HELP}")


def _parse_ismcts(text: str, parts: list[str]) -> Spec:
    if not parts or not parts[0].strip().isdigit():
        raise InvalidNotationError(f"bot {text!r}: expected 'ismcts:ITERATIONS', such as "
                                   "'ismcts:1000'")
    options = []
    for part in parts[1:]:
        key, equals, value = part.partition("=")
        key, value = key.strip(), value.strip()
        if not equals or key not in ISMCTS_OPTIONS:
            raise InvalidNotationError(
                f"bot {text!r}: option {part!r}: expected one of "
                + ", ".join(f"{name}=..." for name in ISMCTS_OPTIONS))
        try:
            ISMCTS_OPTIONS[key][1](value)
        except ValueError:
            raise InvalidNotationError(f"bot {text!r}: option {part!r}: bad value") from None
        options.append((key, value))
    return Spec("ismcts", "ismcts", int(parts[0]), tuple(options))


# ---- making a bot --------------------------------------------------------------------------------


#: The core engine as the loops use it (``burraco`` itself re-exports these).
_CORE = SimpleNamespace(__name__="burraco", Game=_core.Game, Match=Match, Policy=_core.Policy,
                        ISMCTS=_core.ISMCTS, MAX_HAND_MOVES=_core.MAX_HAND_MOVES)


def engine_of(rules: Any = None, engine: Any = None) -> Any:
    """The engine (``burraco`` or ``burraco.reference``, or any object with their ``Game``,
    ``Match``, ``Policy`` and ``MAX_HAND_MOVES``) named by ``engine`` (itself, ``'core'`` or
    ``'reference'``), else the one ``rules`` belong to (the core without rules). The reference
    is found by name at run time: it builds on this module (its policies read the registry)."""
    if engine is None:
        module = type(rules).__module__ if rules is not None else ""
        engine = "reference" if module.startswith("burraco.reference") else "core"
    if engine == "core":
        return _CORE
    if engine == "reference":
        return sys.modules.get("burraco.reference") or importlib.import_module("burraco.reference")
    if isinstance(engine, str):
        raise InvalidNotationError(f"engine {engine!r}: expected 'core' or 'reference'")
    return engine


def _engine_name(engine: Any) -> str:
    return "reference" if engine.__name__ == "burraco.reference" else "core"


def import_attribute(spec: Spec | str) -> Any:
    """What a ``'module:attribute'`` spec names: the module imported, the (dotted) attribute
    followed; PolicyError quoting the spec, the error as ``__cause__``, when that fails."""
    parsed = spec if isinstance(spec, Spec) else parse(spec)
    if parsed.kind != "module":
        raise InvalidNotationError(f"bot {str(parsed)!r}: not a 'module:attribute' spec")
    try:
        target: object = importlib.import_module(parsed.module)
        for part in parsed.attribute.split("."):
            target = getattr(target, part)
    except Exception as error:
        raise PolicyError(f"policy {parsed.name!r}: {type(error).__name__}: {error}") from error
    return target


def make(spec: Spec | str, rules: Any = None, *, engine: Any = None) -> Any:
    """What the engine of ``rules`` (or ``engine``: the core by default) plays for a bot spec: a
    built-in or ``'module:attribute'`` as that engine's ``Policy``, an ``ismcts:`` spec as a
    ``burraco.ISMCTS`` (the core's only). InvalidNotationError quoting a bad spec, PolicyError
    for a bot the engine does not have or a module that fails to load.

    >>> make('greedy')
    Policy('greedy')
    >>> make('ismcts:100:seed=3').iterations
    100
    """
    parsed = spec if isinstance(spec, Spec) else parse(spec)
    module = engine_of(rules, engine)
    name = _engine_name(module)
    if parsed.kind == "ismcts":
        if not hasattr(module, "ISMCTS"):
            raise PolicyError(f"bot {str(parsed)!r}: ISMCTS is the core engine's only")
        try:
            return module.ISMCTS(**parsed.search_options())
        except ValueError as error:  # a value the search refuses (e.g. a negative cut)
            raise InvalidNotationError(f"bot {str(parsed)!r}: {error}") from None
    if parsed.kind == "builtin" and name not in BUILT_INS[parsed.name].engines:
        raise PolicyError(f"policy {parsed.name!r} is built into the core engine only "
                          "(burraco.Game, docs/bots.md); the reference engine plays "
                          + ", ".join(repr(n) for n in built_in_names("reference"))
                          + " and Python policies")
    return module.Policy(parsed.name)


# ---- seeds and the self-play loop ----------------------------------------------------------------


def seeds(seed: int, first: int = 0) -> RandomStream:
    """The SplitMix64 stream of ``seed``, from its output number ``first`` (0: the first): every
    seed a run deals from (hand i of ``burraco.playouts``, game i of ``burraco selfplay``, hand h
    of a ``Match`` from the match seed). The state advances by a constant, so output ``first``
    needs no walk.

    >>> stream = seeds(7, first=2)
    >>> [stream.next() for _ in range(2)] == [s for _, s in zip(range(4), seeds(7))][2:]
    True
    """
    if isinstance(first, bool) or not isinstance(first, int) or first < 0:
        raise InvalidNotationError(f"first {first!r}: expected an int >= 0")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= _MASK:
        raise InvalidNotationError(f"seed {seed!r}: expected an int in [0, 2**64)")
    return RandomStream((seed + first * _GAMMA) & _MASK)


#: Plays a hand to its end with one bot per seat (``burraco._policy.play_with``): the loop of
#: :func:`play_games` and of ``Match.play_hand``.
play_hand = play_with


@dataclass
class Played:
    """A game of a self-play run: its number, the seat rotation it was played with (seat ``s``
    played the bot of seat ``(s - rotation) mod players``), its hands in order (one without
    matches), and with matches the match."""

    number: int
    rotation: int
    hands: list[Any]
    match: Any = None

    def scores(self, rules: Any) -> list[int]:
        """The game's score per unit of the unrotated seating (the hand's, or the match's), in
        the units of ``burraco._tally.units_of``."""
        scores = (list(self.match.scores) if self.match is not None
                  else unit_scores(rules, self.hands[0].result()))
        count = len(scores)
        return [scores[(unit + self.rotation) % count] for unit in range(count)]

    def winner(self, rules: Any) -> int | None:
        """The winning unit of the unrotated seating, or None (a draw)."""
        if self.match is not None:
            won = self.match.winner
            return None if won is None else (won - self.rotation) % len(self.match.scores)
        return hand_winner(self.scores(rules))


def play_games(
    rules: Any,
    players: Sequence[Any],
    seed: int,
    first: int,
    stop: int,
    *,
    matches: bool = False,
    max_hands: int = 1000,
    rotate: bool = False,
    engine: Any = None,
) -> Iterator[Played]:
    """The self-play loop: plays games ``first`` .. ``stop - 1`` of a run, one bot per seat in
    ``players`` (made by :func:`make`), and yields each as it ends. Game ``i`` is dealt from
    output ``i`` of ``seeds(seed)``: a hand (first player 0, its moves seeded as
    :func:`play_hand` seeds them), or with ``matches`` a whole ``Match`` from that seed, stopped
    after ``max_hands`` hands. With ``rotate``, game ``i`` seats the bots ``i mod players`` seats
    further on, so each bot plays from every seat in turn. ``burraco selfplay``, its threads (each
    a range of games) and its Ray shards all play through here, so a game is the same whoever
    plays it."""
    module = engine_of(rules, engine)
    stream = seeds(seed, first)
    count = rules.players
    for number in range(first, stop):
        game_seed = stream.next()
        rotation = number % count if rotate else 0
        seated = [players[(seat - rotation) % count] for seat in range(count)]
        if matches:
            match = module.Match(rules, seed=game_seed)
            hands = []
            while not match.is_over() and match.hands_played < max_hands:
                game = match.new_game()
                play_hand(game, seated, game.seed, module.MAX_HAND_MOVES)
                match.record(game)
                hands.append(game)
            yield Played(number, rotation, hands, match)
        else:
            game = module.Game(rules, seed=game_seed)
            play_hand(game, seated, game_seed, module.MAX_HAND_MOVES)
            yield Played(number, rotation, [game])
