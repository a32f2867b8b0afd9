"""Bots against bots on duplicate deals (docs/bots.md "Arena").

A *bot* is named by a spec of :mod:`burraco.bots`, as on the command line: a built-in bot
(``'random'``, ``'greedy'``, ``'heuristic'``, ``'heuristic:2p'``, ...), ``'ismcts:1000'`` (an
ISMCTS search of 1,000 iterations, with options after more colons, such as
``'ismcts:1000:rollout=heuristic:cut=40'``), or ``'module:attribute'`` (a policy of yours: a
native policy or a Python callable, docs/native.md).

A *pair* is one deal played twice with the bots' seats swapped, so the luck of the cards cancels
out: in game 0 the first bot holds the even seats (side 0), in game 1 the odd ones. A bot wins a
pair when its two scores' margins over the other side add up to more than zero (a tie counts
half). :func:`duel` plays two bots; :func:`tournament` plays every two of several and rates them.

With ``matches=True`` a pair is instead one whole match to the preset's target (rules.md E.7),
played twice with the bots' sides swapped over the same sequence of deals: pair i's hands are
dealt as ``Match(rules, seed=batch_seed(seed, i))`` deals them (hand h from the (h+1)-th
SplitMix64 output of that seed, seat ``h mod players`` first), and each play goes on until its
own match ends, so the two plays may last different numbers of hands. A bot wins the pair when it
won more of the two matches; a 1-1 split (a drawn match counting half) goes to the bot whose
summed match margin over the two plays is above zero, and is a tie when that margin is zero too.
An ISMCTS bot reads the match scores from each hand it plays, which ``reward=equity`` uses.

>>> import burraco
>>> from burraco.arena import duel
>>> result = duel(burraco.Rules("italian-2p"), "heuristic", "random", pairs=4, seed=1)
>>> result.pairs, result.wins_a + result.wins_b + result.ties
(4, 4)
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import _core, bots
from ._errors import InvalidNotationError

__all__ = ["Bot", "Duel", "Tournament", "bot", "bradley_terry", "duel", "plot", "tournament",
           "wilson_interval"]

#: The most pairs one duel plays (the engine plays at most this many in one call).
MAX_PAIRS = 10**7


@dataclass(frozen=True)
class Bot:
    """A bot of the arena: its spec (how it was named) and what the engine plays (a policy
    argument or an :class:`burraco.ISMCTS`)."""

    spec: str
    player: Any


def bot(spec: str | Any) -> Bot:
    """The bot a spec names (see the module's docstring), or a :class:`burraco.Policy` or
    :class:`burraco.ISMCTS` as it is (named by the policy's name, or the search's repr);
    :class:`burraco.InvalidNotationError` quoting the spec if it names none,
    :class:`burraco.PolicyError` if its module fails."""
    if isinstance(spec, _core.Policy):
        return Bot(spec.name, spec)
    if isinstance(spec, _core.ISMCTS):
        return Bot(repr(spec), spec)
    if not isinstance(spec, str):
        raise InvalidNotationError(f"bot {spec!r}: expected a spec string such as 'heuristic' or "
                                   "'ismcts:1000', a burraco.Policy or a burraco.ISMCTS")
    text = spec.strip()
    return Bot(text, bots.make(bots.parse(text)))


def wilson_interval(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``wins / n`` (95 % for the default ``z``).

    >>> [round(x, 3) for x in wilson_interval(80, 100)]
    [0.711, 0.867]
    """
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    scale = 1 + z * z / n
    return (max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale))


@dataclass
class Duel:
    """Two bots over duplicate pairs: the per-game arrays of the engine and the pair figures."""

    a: str
    b: str
    pairs: int
    wins_a: int
    wins_b: int
    ties: int
    margins: list[int]  # bot a's margin per pair (both games; with matches: both final margins)
    games: Any = field(repr=False)  # the engine's per-game arrays (burraco._core._arena_pairs)
    matches: bool = False  # each pair two plays of a whole match (docs/bots.md "The arena")
    match_wins_a: float = 0.0  # with matches: the matches bot a won (a drawn match half)
    match_wins_b: float = 0.0

    @property
    def match_count(self) -> int:
        """The matches played (two a pair), or 0 without matches."""
        return 2 * self.pairs if self.matches else 0

    @property
    def hands_per_match(self) -> float:
        """With matches: the mean number of hands a match lasted."""
        if not self.matches or not self.pairs:
            return 0.0
        return float(self.games["match_hands"].sum()) / self.match_count

    @property
    def win_rate(self) -> float:
        """Bot a's share of the pairs, a tie counting half."""
        return (self.wins_a + 0.5 * self.ties) / self.pairs if self.pairs else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95 % Wilson interval of :attr:`win_rate`."""
        return wilson_interval(self.wins_a + 0.5 * self.ties, self.pairs)

    @property
    def mean_margin(self) -> float:
        """Bot a's mean margin per pair (points)."""
        return sum(self.margins) / len(self.margins) if self.margins else 0.0

    @property
    def margin_halfwidth(self) -> float:
        """The half-width of the 95 % normal interval of :attr:`mean_margin`."""
        n = len(self.margins)
        if n < 2:
            return float("inf")
        mean = self.mean_margin
        variance = sum((m - mean) ** 2 for m in self.margins) / (n - 1)
        return 1.96 * math.sqrt(variance / n)

    def ms_per_decision(self, which: int) -> float:
        """CPU milliseconds bot a (0) or b (1) spent per move it chose."""
        seconds = float(self.games["seconds"][:, which].sum())
        decisions = int(self.games["decisions"][:, which].sum())
        return 1000.0 * seconds / decisions if decisions else 0.0


def duel(rules: Any, a: str | Any, b: str | Any, *, pairs: int, seed: int = 0, threads: int = 1,
         first: int = 0, keep_moves: bool = False,
         progress: Callable[[int], object] | None = None, matches: bool = False) -> Duel:
    """Plays pairs ``first`` .. ``first + pairs - 1`` of bots ``a`` and ``b`` (what :func:`bot`
    takes, or a :class:`Bot`) under ``rules`` (two or four players) on ``threads`` threads; hand ``i`` is
    dealt from ``batch_seed(seed, i)``, as ``burraco.playouts`` deals. ``progress(done)``
    is called as the games (with ``matches``: the plays of a match) finish. With ``matches``
    each pair is a whole match played twice (the module's docstring). The result does not depend
    on ``threads``."""
    bot_a = a if isinstance(a, Bot) else bot(a)
    bot_b = b if isinstance(b, Bot) else bot(b)
    if isinstance(pairs, bool) or not isinstance(pairs, int) or not 1 <= pairs <= MAX_PAIRS:
        raise InvalidNotationError(f"pairs {pairs!r}: expected an int from 1 to {MAX_PAIRS:,}")
    if not isinstance(matches, bool):
        raise InvalidNotationError(f"matches {matches!r}: expected True or False")
    games = _core._arena_pairs(rules, bot_a.player, bot_b.player, seed=seed, first=first,
                               stop=first + pairs, threads=threads, keep_moves=keep_moves,
                               progress=progress, matches=matches)
    if matches:
        return _match_duel(bot_a.spec, bot_b.spec, pairs, games)
    scores = games["scores"]
    margins = []
    wins_a = wins_b = ties = 0
    for i in range(pairs):
        g0, g1 = scores[2 * i], scores[2 * i + 1]
        margin = int(g0[0] - g0[1]) + int(g1[1] - g1[0])
        margins.append(margin)
        if margin > 0:
            wins_a += 1
        elif margin < 0:
            wins_b += 1
        else:
            ties += 1
    return Duel(bot_a.spec, bot_b.spec, pairs, wins_a, wins_b, ties, margins, games)


def _match_duel(a: str, b: str, pairs: int, games: Any) -> Duel:
    """The pair figures of a matches duel: per pair, bot a's matches won against bot b's (a
    drawn match half each), a split decided by the summed final margin (zero: a tie)."""
    scores, winners = games["match_scores"], games["match_winner"]
    margins = []
    wins_a = wins_b = ties = 0
    won_a = won_b = 0.0
    for i in range(pairs):
        s0, s1 = scores[2 * i], scores[2 * i + 1]  # play 0: a on side 0; play 1: a on side 1
        margin = int(s0[0] - s0[1]) + int(s1[1] - s1[0])
        margins.append(margin)
        mine = theirs = 0.0
        for play, a_side in ((2 * i, 0), (2 * i + 1, 1)):
            winner = int(winners[play])
            if winner < 0:
                mine += 0.5
                theirs += 0.5
            elif winner == a_side:
                mine += 1
            else:
                theirs += 1
        won_a += mine
        won_b += theirs
        if mine > theirs or (mine == theirs and margin > 0):
            wins_a += 1
        elif mine < theirs or margin < 0:
            wins_b += 1
        else:
            ties += 1
    return Duel(a, b, pairs, wins_a, wins_b, ties, margins, games, matches=True,
                match_wins_a=won_a, match_wins_b=won_b)


def bradley_terry(names: Sequence[str], duels: Sequence[Duel], iterations: int = 2000) -> dict[str, float]:
    """Bradley-Terry ratings of the bots on an Elo scale (400 points: ten to one odds), the mean
    rating 0, fitted to the pair wins of ``duels`` (a tie half to each) by the MM algorithm. A bot
    that won or lost every pair gets a rating pulled in by one virtual tie against each opponent,
    so every rating is finite."""
    index = {name: i for i, name in enumerate(names)}
    n = len(names)
    wins = [[0.0] * n for _ in range(n)]
    for d in duels:
        i, j = index[d.a], index[d.b]
        wins[i][j] += d.wins_a + 0.5 * d.ties + 0.5
        wins[j][i] += d.wins_b + 0.5 * d.ties + 0.5
    strength = [1.0] * n
    for _ in range(iterations):
        new = []
        for i in range(n):
            won = sum(wins[i])
            denominator = sum((wins[i][j] + wins[j][i]) / (strength[i] + strength[j])
                              for j in range(n) if j != i)
            new.append(won / denominator if denominator else strength[i])
        mean_log = sum(math.log(x) for x in new) / n
        strength = [x / math.exp(mean_log) for x in new]
    return {name: 400.0 * math.log10(strength[index[name]]) for name in names}


@dataclass
class Tournament:
    """Every two of several bots: their duels in order, and the ratings (three bots or more)."""

    bots: list[str]
    duels: list[Duel]
    ratings: dict[str, float] | None


def tournament(rules: Any, specs: Sequence[str | Any], *, pairs: int, seed: int = 0, threads: int = 1,
               keep_moves: bool = False, progress: Callable[[int], object] | None = None,
               against_first: bool = False, matches: bool = False) -> Tournament:
    """A duel of ``pairs`` pairs between every two of ``specs`` (in the order given: the first
    against the second, the third, ..., then the second against the third, ...), all on the same
    deals; Bradley-Terry ratings when there are three bots or more. With ``against_first`` only
    the first bot's duels are played (a sweep of bots measured against one baseline, as
    :func:`plot` draws). ``progress(done)`` counts the games (with ``matches``, the plays of a
    match: each pair a whole match played twice, as :func:`duel` plays it) of the whole
    tournament."""
    bots = [bot(spec) for spec in specs]
    names = [b.spec for b in bots]
    if len(set(names)) != len(names):
        raise InvalidNotationError(f"bots {list(specs)!r}: each bot once")
    if len(bots) < 2:
        raise InvalidNotationError(f"bots {list(specs)!r}: expected two bots or more")
    duels = []
    done_before = 0
    for i in range(1 if against_first else len(bots)):
        for j in range(i + 1, len(bots)):
            offset = done_before

            def report(done: int, offset: int = offset) -> object:
                return progress(offset + done) if progress is not None else None

            duels.append(duel(rules, bots[i], bots[j], pairs=pairs, seed=seed, threads=threads,
                              keep_moves=keep_moves, progress=report, matches=matches))
            done_before += 2 * pairs
    ratings = bradley_terry(names, duels) if len(bots) >= 3 else None
    return Tournament(names, duels, ratings)


def _parsed(spec: str) -> bots.Spec | None:
    try:
        return bots.parse(spec)
    except InvalidNotationError:  # a bot given as an object: named by its repr
        return None


def _iterations(spec: str) -> int | None:
    """The iteration count an ``ismcts:N...`` spec names, else None."""
    parsed = _parsed(spec)
    return parsed.iterations if parsed is not None and parsed.kind == "ismcts" else None


def _family(spec: str) -> str:
    """The spec without its iteration count (``ismcts:*:rollout=random``): one line of the plot."""
    parsed = _parsed(spec)
    if parsed is None or parsed.kind != "ismcts":
        return spec
    return ":".join(["ismcts", "*", *(f"{key}={value}" for key, value in parsed.options)])


def plot(result: Tournament, path: str, *, title: str | None = None) -> None:
    """Draws, into the image file ``path`` (in the format of its suffix, PNG without one; an
    unknown suffix is an InvalidNotationError; matplotlib, the ``plot`` extra),
    every bot's share of the pairs won against the first bot of ``result``, with its 95 %
    interval: on the left against the search's iterations (ISMCTS bots, one line per set of
    options), on the right against its CPU time per move (every bot). A duel the first bot did not
    play is left out."""
    try:
        # The object-oriented interface: no pyplot, so the caller's backend is left alone.
        from matplotlib.figure import Figure
    except ImportError as error:  # an optional dependency
        raise InvalidNotationError("arena plot: matplotlib is not installed "
                                   "(pip install 'burraco[plot]')") from error
    baseline = result.bots[0]
    rows = []
    for d in result.duels:
        if d.a != baseline:
            continue
        low, high = d.interval
        # A policy's time can round to zero: kept on the log axis at 0.1 microsecond.
        rows.append((d.b, 1.0 - d.win_rate, 1.0 - high, 1.0 - low, max(d.ms_per_decision(1), 1e-4)))
    if not rows:
        raise InvalidNotationError(f"arena plot: no duel against the first bot {baseline!r}")
    figure = Figure(figsize=(11, 4.5))
    by_iterations, by_time = figure.subplots(1, 2, sharey=True)
    # One line per set of options (the spec less its iteration count) on both panels.
    lines: dict[str, list[tuple[int, str, float, float, float, float]]] = {}
    for name, rate, low, high, ms in rows:
        lines.setdefault(_family(name), []).append((_iterations(name) or 0, name, rate, low, high, ms))
    for family, points in lines.items():
        points.sort()
        ys = [p[2] for p in points]
        errors = [[p[2] - p[3] for p in points], [p[4] - p[2] for p in points]]
        drawn = by_time.errorbar([p[5] for p in points], ys, yerr=errors, marker="o", capsize=3,
                                 label=family)
        if points[0][0]:  # a search: iterations on the left panel too
            by_iterations.errorbar([p[0] for p in points], ys, yerr=errors, marker="o", capsize=3,
                                   label=family, color=drawn[0].get_color())
    if any(p[0] for points in lines.values() for p in points):
        by_iterations.set_xscale("log")
        by_iterations.legend(fontsize=7, loc="best")
    by_iterations.set_xlabel("ISMCTS iterations per decision")
    by_iterations.set_ylabel(f"share of pairs won against {baseline}")
    by_time.set_xscale("log")
    by_time.set_xlabel("CPU ms per move")
    by_time.legend(fontsize=7, loc="best")
    for axes in (by_iterations, by_time):
        axes.axhline(0.5, color="grey", linewidth=0.8, linestyle="--")
        axes.set_ylim(0, 1)
        axes.grid(True, alpha=0.3)
    pairs = result.duels[0].pairs
    figure.suptitle(title or f"{pairs} duplicate pairs per bot against {baseline}", fontsize=10)
    figure.tight_layout()
    # The format is the suffix's, PNG without one, given explicitly: left to itself matplotlib
    # would write a path without a suffix to path + '.png', not to the path asked for.
    suffix = os.path.splitext(os.fspath(path))[1][1:].lower()
    formats = figure.canvas.get_supported_filetypes()
    if suffix and suffix not in formats:
        raise InvalidNotationError(f"arena plot {path!r}: the suffix {suffix!r} is not an image "
                                   f"format matplotlib writes ({', '.join(sorted(formats))})")
    figure.savefig(path, dpi=110, format=suffix or "png")
