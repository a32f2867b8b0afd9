"""The search workloads, shared by benches/bench_search.py (pytest-benchmark) and
tools/bench_table.py (one table, no pytest), side by side with OpenSpiel's ``gin_rummy``.

A :class:`Workload` is one round of work on one engine (``'core'``: ``burraco``, ``'reference'``:
``burraco.reference``, ``'open_spiel'``: ``pyspiel``'s gin_rummy), the number of items that round
does, and a check of its answer: every answer is checked, so a fast wrong answer fails. Core answers
are compared with the reference's wherever the reference answers the same question.

Builders (each returns a Workload, or raises :class:`Missing` when the engine lacks a feature of
docs/search.md, or :class:`NotApplicable` when the row means nothing for that engine):

* :func:`playout` - whole random hands played inside the engine: ``Game(rules, seed=s)
  .playout('random', s)``; gin_rummy: ``pyspiel.evaluate_bots`` with two
  ``make_uniform_random_bot`` bots (the only C++-driven random playout pyspiel exposes: its
  ``RandomRolloutEvaluator`` has no Python ``evaluate``). ``policy='greedy'``: the greedy policy;
  gin_rummy: ``make_simple_gin_rummy_bot``.
* :func:`python_playout` - whole random hands driven from Python, one ``legal_moves()`` + ``push``
  per move (gin_rummy: ``legal_actions()`` + ``apply_action``, chance nodes drawn from
  ``chance_outcomes()``). The move is ``moves[int(u * len(moves))]`` with ``u`` from a list of
  floats made in advance by ``random.Random(seed)``, so both burraco engines play the same hand and
  the choice costs a multiplication. ``by_index=True``: ``push_index(i)`` instead (no Move made).
* :func:`legal_moves` - ``legal_moves()`` at a fixed position (``LEGAL_POSITIONS``), on a fresh
  copy (the core keeps a position's moves: asking twice would time that cache).
* :func:`cpp_legal_moves` - the same positions' legal moves generated in a C++ loop (core only).
* :func:`copy` - ``game.copy()`` / ``state.clone()``.
* :func:`determinize` - ``game.determinize(player, seed)`` / ``state.resample_from_infostate``.
* :func:`ismcts` - ``burraco.ISMCTS(iterations, seed).choose(game)`` / ``pyspiel.ISMCTSBot``.
* :func:`batch` - ``burraco.playouts(rules, n, seed=, policy='random', threads=)``.
* the workloads of the environments (OpenSpiel's search on this game, the vector env, the AEC
  loop) are benches/env_workloads.py's, built on these classes.

Moves counted for gin_rummy are the players' actions; its chance nodes (the deal, every stock draw)
are extra work that is not counted. Nothing here knows an engine's internals.
"""

from __future__ import annotations

import functools
import importlib
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PERFT_FILE = ROOT / "tests" / "data" / "perft" / "italian.perft"

ENGINES = ("core", "reference", "open_spiel")

# (id, preset, knobs): every Rules.PRESETS entry and brazilian with two players (tests/playouts.py).
RULE_SETS: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("italian", "italian", {}),
    ("italian-2p", "italian-2p", {}),
    ("italian-3p", "italian-3p", {}),
    ("online-2p", "online-2p", {}),
    ("brazilian", "brazilian", {}),
    ("brazilian-2p", "brazilian", {"players": 2}),
)
RULES_IDS = tuple(rules_id for rules_id, _, _ in RULE_SETS)
# Six-player brazilian (RULES F.7, three sides of two): one row of its own beside the C++-driven
# playout rows (tools/bench_table.py), core and reference only.
SIX_PLAYER_RULES = "brazilian-6p"
SIX_PLAYER_RULE_SETS: tuple[tuple[str, str, dict[str, Any]], ...] = (
    (SIX_PLAYER_RULES, "brazilian", {"players": 6}),
)

# Hand counts of the core's playout rows are scaled by this: brazilian hands are long (their big
# hands make many legal moves), so fewer of them, but enough that the heavy tail of long hands
# shows (brazilian with two players: 4 ms a hand on average, 0.02 to 30 ms).
WEIGHT = {
    "italian": 1.0,
    "italian-2p": 1.0,
    "italian-3p": 1.0,
    "online-2p": 1.0,
    "brazilian": 0.5,
    "brazilian-2p": 0.25,
    "brazilian-6p": 0.5,
}

FIRST_SEED = 2  # hands FIRST_SEED, FIRST_SEED + 1, ...; 2 and 3 are short brazilian hands
# Greedy hands start here. The first greedy rule of docs/search.md looped forever on a third to a
# half of the brazilian hands (a side not yet open melds its whole hand, the short opening gives
# the cards back, it melds them again); the rule now skips such melds. Hands 16 and 17 never met
# that case, so they end and play the same under either rule, in every rule set: an engine that
# still has the old rule cannot hang the benches.
GREEDY_FIRST_SEED = 16
BATCH_SEED = 2053  # its first two hands are short in every rule set (cheap for the reference)
REFERENCE_BATCH_HANDS = 2  # the core's batch starts with the reference's hands

# The fixed positions of tests/data/perft/italian.perft, and what is played from them first.
LEGAL_POSITIONS = {
    # 11 cards, draw phase: 'draw' and 'pile' (gin_rummy: a 10-card hand at the first upcard).
    "legal_11": ("italian-dealt", ()),
    # the same hand after its draw: 12 cards, meld phase (gin_rummy: 11 cards after drawing).
    "legal_12": ("italian-dealt", ("draw",)),
    # 31 cards right after a pile take, meld phase, 130 moves (gin_rummy: no such hand).
    "legal_30": ("italian-pile-take", ()),
}
COPY_POSITION = "italian-pile-take"
DETERMINIZE_POSITION = "italian-pile-take"  # the seat to act (3) determinizes
ISMCTS_POSITION = ("italian-dealt", ("draw",))
# The same moment of a two-player hand (the preset docs/bots.md measures strength on).
ISMCTS_POSITION_2P = ("italian-2p-dealt", ("draw",))
ISMCTS_EXPLORATION = 0.7
# The search the benches time: random rollouts to the end of the hand, the win/loss reward, every
# seat in the tree (the configuration OpenSpiel's ISMCTSBot runs, and the one before the search
# options of docs/search.md; the options' own costs are there and in docs/bots.md).
ISMCTS_CLASSIC = {"policy": "random", "reward": "win", "opponents": "tree"}


def classic_options(engine) -> dict:
    """ISMCTS_CLASSIC where the engine has the options (an older build has only that search)."""
    return dict(ISMCTS_CLASSIC) if hasattr(engine.ISMCTS, "reward") else {}
DETERMINIZE_SEEDS = 16  # calls per round, seeds 0..15

GIN_MIDGAME_MOVES = 40  # players' moves played (seeded) before the gin_rummy copy/determinize state


class Missing(Exception):
    """The engine lacks a feature of docs/search.md (not written yet)."""


class NotApplicable(Exception):
    """The row means nothing for this engine (a 30-card hand in gin rummy, threads in Python)."""


@dataclass
class Workload:
    """One round of work: ``run()`` does it and returns the answer that ``check`` verifies."""

    row: str
    engine: str
    run: Callable[[], Any]
    check: Callable[[Any], None]
    items: int  # items per round: hands, moves, calls or iterations
    unit: str  # what one item is
    moves: Callable[[Any], int] | None = None  # players' moves in a round's answer (playouts)
    hands: int | None = None  # hands per round (playouts)
    note: str = ""
    # The part of ``run`` that is not the operation timed (legal_moves: the copy that gives a
    # position whose moves are not cached yet); figures subtract its time when it is set.
    baseline: Callable[[], Any] | None = None
    once: bool = False  # run once and checked, never repeated (a duel: its figures are not times)


@dataclass(frozen=True)
class Sizes:
    """How much work one round does."""

    hands: int  # C++-driven playouts, core (times WEIGHT)
    reference_hands: int  # C++-driven and Python-driven playouts, reference (seeds shared)
    python_hands: int  # Python-driven playouts, core (times WEIGHT)
    gin_hands: int  # gin_rummy playouts (C++-driven and Python-driven)
    batch_hands: int  # burraco.playouts, core (times WEIGHT)
    ismcts_iterations: int
    gin_ismcts_iterations: int
    spiel_ismcts_iterations: int = 200  # OpenSpiel's ISMCTSBot on python_burraco
    duel_pairs: int = 8  # duplicate pairs of the duels against that bot
    duel_iterations: int = 40  # its iterations a move in the duels


FULL = Sizes(
    hands=80,
    reference_hands=2,
    python_hands=10,
    gin_hands=20,
    batch_hands=1000,
    ismcts_iterations=2000,
    gin_ismcts_iterations=200,
)
SMOKE = Sizes(
    hands=2,
    reference_hands=1,
    python_hands=1,
    gin_hands=1,
    batch_hands=20,
    ismcts_iterations=20,
    gin_ismcts_iterations=5,
    spiel_ismcts_iterations=5,
    duel_pairs=1,
    duel_iterations=2,
)


# The vector env rows (issue 14): italian-2p, the learner on seat 0 against 'random'.
VECTOR_RULES = "italian-2p"
VECTOR_SEED = 1409
VECTOR_ENVS = {"full": 256, "smoke": 8}
VECTOR_STEPS = {"full": 20, "smoke": 3}
AEC_HANDS = {"full": 4, "smoke": 1}


# ---- engines, rules, positions -------------------------------------------------------------------


def load(engine: str):
    """The engine's module; ``pyspiel`` for ``'open_spiel'`` (ImportError when not installed)."""
    if engine == "open_spiel":
        return importlib.import_module("pyspiel")
    return importlib.import_module("burraco" if engine == "core" else "burraco.reference")


def open_spiel_available() -> bool:
    try:
        load("open_spiel")
    except ImportError:
        return False
    return True


def make_rules(engine, rules_id: str):
    for known, preset, knobs in RULE_SETS + SIX_PLAYER_RULE_SETS:
        if known == rules_id:
            return engine.Rules(preset, **knobs)
    raise KeyError(rules_id)


def hand_count(base: int, rules_id: str) -> int:
    return max(1, round(base * WEIGHT[rules_id]))


@functools.cache
def perft_records(preset: str = "italian") -> dict[str, tuple[str, dict[int, int]]]:
    """id -> (state string, {depth: frozen count}) of tests/data/perft/PRESET.perft."""
    records: dict[str, tuple[str, dict[int, int]]] = {}
    current = None
    for line in PERFT_FILE.with_name(f"{preset}.perft").read_text(encoding="utf-8").splitlines():
        word, _, rest = line.partition(" ")
        if word == "id":
            current = rest.strip()
            records[current] = ("", {})
        elif word == "state" and current is not None:
            records[current] = (rest.strip(), records[current][1])
        elif word == "perft" and current is not None:
            depth, nodes = rest.split()
            records[current][1][int(depth)] = int(nodes)
    return records


def position(engine, position_id: str, moves: Sequence[str] = ()):
    """A Game at a perft position (of tests/data/perft/italian.perft, or of italian-2p.perft for
    an id that starts with ``italian-2p-``), then ``moves`` pushed."""
    preset = "italian-2p" if position_id.startswith("italian-2p-") else "italian"
    game = engine.Game.from_state_string(perft_records(preset)[position_id][0])
    for move in moves:
        game.push(move)
    return game


@functools.cache
def choice_floats(seed: int) -> tuple[float, ...]:
    """The move choices of a Python-driven hand: 4096 floats in [0, 1), used in turn, wrapping."""
    rng = random.Random(f"burraco-bench-search:{seed}")
    return tuple(rng.random() for _ in range(4096))


def splitmix64_outputs(seed: int, n: int) -> list[int]:
    """The first n outputs of SplitMix64 seeded with ``seed`` (the batch's hand seeds)."""
    mask = (1 << 64) - 1
    state, out = seed, []
    for _ in range(n):
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        out.append(z ^ (z >> 31))
    return out


def _require(owner, name: str, what: str) -> None:
    if not hasattr(owner, name):
        raise Missing(f"missing: {what}")


def _require_policy(engine, policy: str) -> None:
    """Missing when the engine refuses the policy name itself; any other error propagates."""
    game = engine.Game(make_rules(engine, "online-2p"), seed=FIRST_SEED)
    try:
        game.playout(policy, FIRST_SEED)
    except ValueError as error:
        if "unknown playout policy" in str(error):
            raise Missing(f"missing: playout policy {policy!r}") from error
        raise


# ---- answers of the reference, computed once --------------------------------------------------


@functools.cache
def reference_playout_moves(rules_id: str, policy: str, seeds: tuple[int, ...]) -> tuple[int, ...]:
    ref = load("reference")
    rules = make_rules(ref, rules_id)
    return tuple(ref.Game(rules, seed=s).playout(policy, s) for s in seeds)


@functools.cache
def reference_python_moves(rules_id: str, seeds: tuple[int, ...]) -> tuple[int, ...]:
    ref = load("reference")
    rules = make_rules(ref, rules_id)
    return tuple(_python_hand(ref.Game(rules, seed=s), s) for s in seeds)


@functools.cache
def reference_legal_moves(position_id: str, moves: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(str(m) for m in position(load("reference"), position_id, moves).legal_moves())


@functools.cache
def reference_determinized(seeds: tuple[int, ...]) -> tuple[str, ...] | None:
    ref = load("reference")
    if not hasattr(ref.Game, "determinize"):
        return None
    game = position(ref, DETERMINIZE_POSITION)
    return tuple(game.determinize(game.turn, s).state_string() for s in seeds)


# ---- playouts --------------------------------------------------------------------------------


def _hand_seeds(n: int, first: int = FIRST_SEED) -> tuple[int, ...]:
    return tuple(range(first, first + n))


def _check_against_reference(row: str, answer: tuple[int, ...], expected: tuple[int, ...]) -> None:
    shared = answer[: len(expected)]
    assert shared == expected[: len(shared)], f"{row}: moves per hand {shared} != reference's"
    assert all(moves > 0 for moves in answer), f"{row}: a hand of no move: {answer}"


def playout(engine_name: str, rules_id: str, sizes: Sizes, policy: str = "random") -> Workload:
    """Whole hands played inside the engine (open_spiel: gin_rummy, whatever ``rules_id``)."""
    row = f"{'greedy' if policy == 'greedy' else 'playout'}/{rules_id}"
    if engine_name == "open_spiel":
        return _gin_playout(row, sizes, policy)
    engine = load(engine_name)
    _require_policy(engine, policy)
    rules = make_rules(engine, rules_id)
    n = sizes.reference_hands
    if engine_name == "core":
        n = max(n, hand_count(sizes.hands, rules_id))
    seeds = _hand_seeds(n, GREEDY_FIRST_SEED if policy == "greedy" else FIRST_SEED)
    Game = engine.Game

    def run() -> tuple[int, ...]:
        return tuple(Game(rules, seed=s).playout(policy, s) for s in seeds)

    def check(answer: tuple[int, ...]) -> None:
        expected = reference_playout_moves(rules_id, policy, seeds[: sizes.reference_hands])
        _check_against_reference(row, answer, expected)

    return Workload(row, engine_name, run, check, n, "hand", moves=sum, hands=n)


def _python_hand(game, seed: int) -> int:
    """Plays the hand from Python, ``push(moves[i])``; returns the number of moves."""
    floats = choice_floats(seed)
    legal_moves, push, is_over = game.legal_moves, game.push, game.is_over
    played = 0
    while not is_over():
        moves = legal_moves()
        push(moves[int(floats[played & 4095] * len(moves))])
        played += 1
    return played


def _python_hand_by_index(game, seed: int) -> int:
    """The same hand with ``push_index(i)`` (no Move object made)."""
    floats = choice_floats(seed)
    legal_moves, push_index, is_over = game.legal_moves, game.push_index, game.is_over
    played = 0
    while not is_over():
        push_index(int(floats[played & 4095] * len(legal_moves())))
        played += 1
    return played


def python_playout(engine_name: str, rules_id: str, sizes: Sizes, by_index: bool = False):
    """Whole random hands driven from Python, one ``legal_moves()`` + ``push(moves[i])`` per move,
    or with ``by_index`` ``push_index(i)`` (docs/search.md "Stepping from Python")."""
    row = f"{'python_index' if by_index else 'python'}/{rules_id}"
    if engine_name == "open_spiel":
        if by_index:
            raise NotApplicable("n/a: apply_action already takes an action number")
        return _gin_python_playout(row, sizes)
    engine = load(engine_name)
    rules = make_rules(engine, rules_id)
    n = sizes.reference_hands
    if engine_name == "core":
        n = max(n, hand_count(sizes.python_hands, rules_id))
    seeds = _hand_seeds(n)
    Game = engine.Game
    play = _python_hand
    if by_index:
        _require(Game, "push_index", f"{engine.__name__}.Game.push_index")
        play = _python_hand_by_index

    def run() -> tuple[int, ...]:
        return tuple(play(Game(rules, seed=s), s) for s in seeds)

    def check(answer: tuple[int, ...]) -> None:
        expected = reference_python_moves(rules_id, seeds[: sizes.reference_hands])
        _check_against_reference(row, answer, expected)

    return Workload(row, engine_name, run, check, n, "hand", moves=sum, hands=n)


def batch(engine_name: str, rules_id: str, sizes: Sizes, threads: int) -> Workload:
    """``playouts(rules, n, seed=BATCH_SEED, policy='random', threads=threads)``, core only: the
    reference's ``playouts`` is a loop of ``Game.playout`` (the ``playout`` rows time that); its
    first hands are the check of the core's."""
    row = f"batch{threads}/{rules_id}"
    if engine_name == "open_spiel":
        raise NotApplicable("n/a: pyspiel has no batch playouts")
    if engine_name == "reference":
        raise NotApplicable("n/a: a loop of Game.playout (see the playout rows)")
    engine = load(engine_name)
    _require(engine, "playouts", f"{engine.__name__}.playouts")
    rules = make_rules(engine, rules_id)
    n = hand_count(sizes.batch_hands, rules_id)
    playouts = engine.playouts

    def run():
        return playouts(rules, n, seed=BATCH_SEED, policy="random", threads=threads)

    def check(answer) -> None:
        assert [int(s) for s in answer["seed"]] == splitmix64_outputs(BATCH_SEED, n), (
            f"{row}: hand seeds"
        )
        assert answer["scores"].shape == (n, 3 if rules.players == 3 else 2), f"{row}: scores"
        assert {int(r) for r in answer["end_reason"]} <= {1, 2, 3}, f"{row}: end reasons"
        # The first hands: the reference's batch, and Game.playout one hand at a time.
        first = min(n, REFERENCE_BATCH_HANDS)
        expected = reference_batch(rules_id, first) or {}
        for key, column in expected.items():
            assert (answer[key][:first] == column).all(), f"{row}: {key} != the reference's"
        seeds = [int(s) for s in answer["seed"][:3]]
        single = [engine.Game(rules, seed=s).playout("random", s) for s in seeds]
        assert [int(m) for m in answer["moves"][:3]] == single, f"{row}: moves != playout()"
        if threads != 1:
            one = _batch_one_thread(rules_id, n)
            for key in ("seed", "scores", "moves", "end_reason"):
                assert (answer[key] == one[key]).all(), f"{row}: {key} depends on threads"

    return Workload(
        row,
        engine_name,
        run,
        check,
        n,
        "hand",
        moves=lambda answer: int(answer["moves"].sum()),
        hands=n,
    )


@functools.cache
def reference_batch(rules_id: str, n: int) -> dict[str, Any] | None:
    ref = load("reference")
    if not hasattr(ref, "playouts"):
        return None
    return ref.playouts(make_rules(ref, rules_id), n, seed=BATCH_SEED, policy="random")


@functools.cache
def _batch_one_thread(rules_id: str, n: int):
    core = load("core")
    return core.playouts(make_rules(core, rules_id), n, seed=BATCH_SEED, threads=1)


# ---- fixed positions ----------------------------------------------------------------------------


def legal_moves(engine_name: str, row: str) -> Workload:
    """``legal_moves()`` at LEGAL_POSITIONS[row], one call per round, on a new copy of a game whose
    moves were never asked for: the core keeps the moves of the current position (docs/search.md
    "Stepping from Python") and a copy shares them, so asking the same game again would time a
    cache. ``baseline`` is the copy alone."""
    if engine_name == "open_spiel":
        return _gin_legal_moves(row)
    position_id, moves = LEGAL_POSITIONS[row]
    game = position(load(engine_name), position_id, moves)  # legal_moves() never called on it
    frozen = perft_records()[position_id][1][1] if not moves else None
    copy_ = game.copy

    def run():
        return copy_().legal_moves()

    def check(answer) -> None:
        got = tuple(str(m) for m in answer)
        assert got == reference_legal_moves(position_id, moves), f"{row}: legal moves differ"
        assert frozen is None or len(got) == frozen, f"{row}: {len(got)} moves, perft 1 = {frozen}"

    size = len(game.hand(game.turn))
    return Workload(row, engine_name, run, check, 1, "call", note=f"{size} cards", baseline=copy_)


CPP_LEGAL_CALLS = 2000  # legal-move generations per C++ loop


def cpp_legal_moves(engine_name: str, row: str) -> Workload:
    """Legal-move generation in C++ alone: ``burraco._core._legal_moves_repeat(game, calls)``
    generates the moves of LEGAL_POSITIONS[row] ``calls`` times in one C++ loop (no Python and no
    cache per call) and returns how many moves it generated in all."""
    if engine_name != "core":
        raise NotApplicable("n/a: a C++ loop inside the core")
    from burraco import _core

    position_id, moves = LEGAL_POSITIONS[row]
    game = position(load("core"), position_id, moves)
    expected = len(reference_legal_moves(position_id, moves))

    def run() -> int:
        return _core._legal_moves_repeat(game, CPP_LEGAL_CALLS)

    def check(answer: int) -> None:
        assert answer == CPP_LEGAL_CALLS * expected, f"cpp {row}: {answer} moves generated"

    size = len(game.hand(game.turn))
    return Workload(f"cpp_{row}", engine_name, run, check, CPP_LEGAL_CALLS, "call",
                    note=f"{size} cards")


def copy(engine_name: str) -> Workload:
    if engine_name == "open_spiel":
        return _gin_copy()
    game = position(load(engine_name), COPY_POSITION)
    original = game.state_string()

    def check(answer) -> None:
        assert answer is not game and answer.state_string() == original, "copy: not the same state"

    return Workload("copy", engine_name, game.copy, check, 1, "call")


def determinize(engine_name: str) -> Workload:
    if engine_name == "open_spiel":
        return _gin_determinize()
    engine = load(engine_name)
    _require(engine.Game, "determinize", f"{engine.__name__}.Game.determinize")
    game = position(engine, DETERMINIZE_POSITION)
    player = game.turn
    seeds = tuple(range(DETERMINIZE_SEEDS))
    determinize_ = game.determinize

    def run():
        return [determinize_(player, s) for s in seeds]

    def check(answer) -> None:
        observation = str(game.observation(player))
        strings = tuple(g.state_string() for g in answer)
        assert all(str(g.observation(player)) == observation for g in answer), (
            "determinize: the observation changed"
        )
        assert len(set(strings)) > 1, "determinize: every seed dealt the same cards"
        expected = reference_determinized(seeds)
        assert expected is None or strings == expected, "determinize: not the reference's deal"

    return Workload("determinize", engine_name, run, check, len(seeds), "call")


def ismcts(engine_name: str, sizes: Sizes) -> Workload:
    if engine_name == "open_spiel":
        return _gin_ismcts(sizes)
    if engine_name == "reference":
        raise NotApplicable("n/a: the reference has no search")
    engine = load(engine_name)
    _require(engine, "ISMCTS", f"{engine.__name__}.ISMCTS")
    game = position(engine, *ISMCTS_POSITION)
    legal = set(game.legal_moves())
    before = game.state_string()
    n = sizes.ismcts_iterations
    ISMCTS = engine.ISMCTS
    classic = classic_options(engine)
    first: list = []

    def run():
        return ISMCTS(iterations=n, seed=1, exploration=ISMCTS_EXPLORATION, **classic).choose(game)

    def check(answer) -> None:
        assert answer in legal, f"ismcts: {answer!r} is not legal"
        assert game.state_string() == before, "ismcts: choose() changed the game"
        first.append(answer)
        assert answer == first[0], f"ismcts: seed 1 chose {answer!r}, then {first[0]!r}"

    return Workload("ismcts", engine_name, run, check, n, "iteration")


# The heuristic-rollout search of docs/bots.md: heuristic rollouts cut after this many moves and
# valued by the heuristic's evaluation, the other seats by the heuristic too.
HEURISTIC_SEARCH = {"policy": "heuristic", "max_rollout_moves": 8, "evaluation": "heuristic",
                    "reward": "margin", "opponents": "policy"}


def ismcts_heuristic(engine_name: str, sizes: Sizes, at: tuple = ISMCTS_POSITION,
                     row: str = "ismcts_heuristic") -> Workload:
    """``ISMCTS(iterations=n, seed=1, **HEURISTIC_SEARCH).choose(game)`` at ISMCTS_POSITION (or
    ``at``); core only (the options are the core's)."""
    if engine_name != "core":
        raise NotApplicable("n/a: the heuristic and the search options are the core's")
    engine = load("core")
    _require(engine, "ISMCTS", f"{engine.__name__}.ISMCTS")
    if not hasattr(engine.ISMCTS, "evaluation"):
        raise NotApplicable("n/a: this build has no search options")
    return _core_search(row, engine, sizes, HEURISTIC_SEARCH, at)


def ismcts_heuristic_2p(engine_name: str, sizes: Sizes) -> Workload:
    """:func:`ismcts_heuristic` at ISMCTS_POSITION_2P, a two-player hand."""
    return ismcts_heuristic(engine_name, sizes, ISMCTS_POSITION_2P, "ismcts_heuristic_2p")


def _core_search(row: str, engine, sizes: Sizes, options: dict,
                 at: tuple = ISMCTS_POSITION) -> Workload:
    """A core ISMCTS of ``sizes.ismcts_iterations`` iterations, seed 1, with ``options``, at
    ``at``: every answer legal and the same."""
    game = position(engine, *at)
    legal = set(game.legal_moves())
    n = sizes.ismcts_iterations
    first: list = []

    def run():
        return engine.ISMCTS(iterations=n, seed=1, exploration=ISMCTS_EXPLORATION,
                             **options).choose(game)

    def check(answer) -> None:
        assert answer in legal, f"{row}: {answer!r} is not legal"
        first.append(answer)
        assert answer == first[0], f"{row}: seed 1 chose {answer!r}, then {first[0]!r}"

    return Workload(row, "core", run, check, n, "iteration")


# ---- native policies (docs/native.md) -------------------------------------------------------------

# The policy of examples/cython_policy, written twice: native (Cython) and its Python twin, which
# play the same hands. Installed with `pip install --no-build-isolation ./examples/cython_policy`.
NATIVE_POLICY = "pilewise._native:policy"
TWIN_POLICY = "pilewise.python:policy"
# The built-in greedy ported to the interface: the same hands as 'greedy' under italian-2p, so the
# time between the two is what the interface costs.
PORT_POLICY = "pilewise._greedy:policy"
NATIVE_RULES = "italian-2p"
NATIVE_SEED = 4099
TWIN_SHARE = 25  # the Python twin plays 1/25 of the native policy's hands


def _policy(engine, spec: str):
    """engine.Policy(spec); NotApplicable when the example package is not installed."""
    if spec in ("random", "greedy"):
        return spec
    try:
        importlib.import_module(spec.partition(":")[0])
    except ImportError:
        raise NotApplicable("n/a: examples/cython_policy is not installed "
                            "(pip install --no-build-isolation ./examples/cython_policy)") from None
    return engine.Policy(spec)


@functools.cache
def _twin_table(n: int):
    """The Python twin's first n hands of the native policy's batch (the check of its rows)."""
    import burraco

    table = burraco.playouts(make_rules(burraco, NATIVE_RULES), n, seed=NATIVE_SEED,
                             policy=burraco.Policy(TWIN_POLICY))
    return {key: column.copy() for key, column in table.items()}


def policy_batch(engine_name: str, sizes: Sizes, spec: str, threads: int = 1) -> Workload:
    """``burraco.playouts(italian-2p, n, seed=NATIVE_SEED, policy=spec, threads=threads)``: a
    native policy, its Python twin (fewer hands) or a built-in one; core only."""
    row = f"policy/{spec}/{threads}"
    if engine_name != "core":
        raise NotApplicable("n/a: native policies run in the core")
    engine = load("core")
    policy = _policy(engine, spec)
    rules = make_rules(engine, NATIVE_RULES)
    n = max(2, sizes.batch_hands // (TWIN_SHARE if spec == TWIN_POLICY else 1))
    playouts = engine.playouts

    def run():
        return playouts(rules, n, seed=NATIVE_SEED, policy=policy, threads=threads)

    def check(answer) -> None:
        assert [int(s) for s in answer["seed"]] == splitmix64_outputs(NATIVE_SEED, n), f"{row}: seeds"
        if spec in (NATIVE_POLICY, TWIN_POLICY):  # the twins play the same hands
            first = _twin_table(2)
            for key, column in first.items():
                assert (answer[key][:2] == column).all(), f"{row}: {key} != the Python twin's"
        elif spec == PORT_POLICY:  # the port plays greedy's hands
            greedy = playouts(rules, 2, seed=NATIVE_SEED, policy="greedy")
            for key, column in greedy.items():
                assert (answer[key][:2] == column).all(), f"{row}: {key} != greedy's"
        else:
            seeds = [int(s) for s in answer["seed"][:2]]
            alone = [engine.Game(rules, seed=s).playout(spec, s) for s in seeds]
            assert list(answer["moves"][:2]) == alone, f"{row}: moves != Game.playout's"

    return Workload(row, engine_name, run, check, n, "hand",
                    moves=lambda answer: int(answer["moves"].sum()), hands=n)


def policy_ismcts(engine_name: str, sizes: Sizes, spec: str) -> Workload:
    """``ISMCTS(iterations=n, seed=1, policy=spec).choose(game)`` at ISMCTS_POSITION: the rollout
    policy native or built in; core only."""
    if engine_name != "core":
        raise NotApplicable("n/a: native policies run in the core")
    engine = load("core")
    return _core_search(f"ismcts/{spec}", engine, sizes,
                        {**classic_options(engine), "policy": _policy(engine, spec)})


def policy_view(engine_name: str) -> Workload:
    """What the native interface costs per call: ``burraco._core._policy_view_repeat(game,
    calls)`` fills the view of the 12-card meld-phase position (LEGAL_POSITIONS['legal_12'])
    ``calls`` times in one C++ loop."""
    if engine_name != "core":
        raise NotApplicable("n/a: a C++ loop inside the core")
    from burraco import _core

    position_id, moves = LEGAL_POSITIONS["legal_12"]
    game = position(load("core"), position_id, moves)
    expected = len(game.legal_moves()) + sum(len(game.melds(side)) for side in range(2))

    def run() -> int:
        return _core._policy_view_repeat(game, CPP_LEGAL_CALLS)

    def check(answer: int) -> None:
        assert answer == CPP_LEGAL_CALLS * expected, f"policy_view: {answer}"

    return Workload("policy_view", engine_name, run, check, CPP_LEGAL_CALLS, "call",
                    note=f"{len(game.legal_moves())} moves")


# ---- OpenSpiel gin_rummy -------------------------------------------------------------------------


@functools.cache
def _gin():
    return load("open_spiel").load_game("gin_rummy")


def _gin_state(player_moves: int, seed: int = FIRST_SEED):
    """A gin_rummy state after the deal and ``player_moves`` seeded random players' moves."""
    state = _gin().new_initial_state()
    floats = choice_floats(seed)
    k = played = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[int(floats[k & 4095] * len(outcomes))][0])
        elif played == player_moves:
            return state
        else:
            actions = state.legal_actions()
            state.apply_action(actions[int(floats[k & 4095] * len(actions))])
            played += 1
        k += 1
    raise AssertionError(f"gin_rummy seed {seed} ended before move {player_moves}")


def _player_moves(state) -> int:
    return sum(1 for step in state.full_history() if step.player >= 0)


def _check_gin_hands(row: str, states: Sequence[Any]) -> None:
    for state in states:
        assert state.is_terminal(), f"{row}: a hand did not end"
        assert sum(state.returns()) == 0, f"{row}: returns {state.returns()} are not zero-sum"
        assert _player_moves(state) >= 2, f"{row}: a hand of {_player_moves(state)} moves"


def _gin_playout(row: str, sizes: Sizes, policy: str) -> Workload:
    pyspiel = load("open_spiel")
    game = _gin()
    n = sizes.gin_hands
    seeds = _hand_seeds(n)
    if policy == "greedy":
        params = game.get_parameters()

        def make_bots():
            return [pyspiel.make_simple_gin_rummy_bot(params, p) for p in (0, 1)]
    else:

        def make_bots():
            return [pyspiel.make_uniform_random_bot(p, FIRST_SEED + p) for p in (0, 1)]

    evaluate_bots = pyspiel.evaluate_bots
    counts: list[int] = []

    def run():
        bots = make_bots()  # new bots every round: every round plays the same hands
        states = []
        for s in seeds:
            state = game.new_initial_state()
            evaluate_bots(state, bots, s)
            states.append(state)
        return states

    def check(states) -> None:
        _check_gin_hands(row, states)
        counts.append(sum(_player_moves(state) for state in states))
        assert counts[-1] == counts[0], f"{row}: rounds played different hands"

    return Workload(
        row,
        "open_spiel",
        run,
        check,
        n,
        "hand",
        moves=lambda states: sum(_player_moves(state) for state in states),
        hands=n,
        note="evaluate_bots",
    )


def _gin_python_hand(game, seed: int) -> tuple[int, Any]:
    floats = choice_floats(seed)
    state = game.new_initial_state()
    k = played = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[int(floats[k & 4095] * len(outcomes))][0])
        else:
            actions = state.legal_actions()
            state.apply_action(actions[int(floats[k & 4095] * len(actions))])
            played += 1
        k += 1
    return played, state


def _gin_python_playout(row: str, sizes: Sizes) -> Workload:
    game = _gin()
    n = sizes.gin_hands
    seeds = _hand_seeds(n)
    counts: list[tuple[int, ...]] = []

    def run():
        return [_gin_python_hand(game, s) for s in seeds]

    def check(answer) -> None:
        _check_gin_hands(row, [state for _, state in answer])
        moves = tuple(played for played, _ in answer)
        assert moves == tuple(_player_moves(state) for _, state in answer), f"{row}: move count"
        counts.append(moves)
        assert counts[-1] == counts[0], f"{row}: rounds played different hands"

    return Workload(
        row,
        "open_spiel",
        run,
        check,
        n,
        "hand",
        moves=lambda answer: sum(played for played, _ in answer),
        hands=n,
    )


def _gin_legal_moves(row: str) -> Workload:
    if row == "legal_30":
        raise NotApplicable("n/a: no 30-card hand in gin rummy")
    state = _gin_state(0)  # the first upcard decision, 10 cards
    if row == "legal_12":
        state.apply_action(state.legal_actions()[0])  # draw the upcard: 11 cards, discard phase
    player = state.current_player()
    hand = set(state.hands()[player])
    expected = tuple(state.legal_actions())

    def check(answer) -> None:
        assert tuple(answer) == expected, f"{row}: gin_rummy legal actions changed"
        if row == "legal_12":  # every legal discard is a card of the hand, all 11 of them
            assert hand <= set(answer) and len(hand) == 11, f"{row}: discards {answer}"
        else:
            assert len(hand) == 10 and len(answer) == 2, f"{row}: {answer}"

    return Workload(
        row, "open_spiel", state.legal_actions, check, 1, "call", note=f"{len(hand)} cards"
    )


def _gin_copy() -> Workload:
    state = _gin_state(GIN_MIDGAME_MOVES)
    history = state.history()

    def check(answer) -> None:
        assert answer.history() == history and str(answer) == str(state), "clone: not the same"

    return Workload("copy", "open_spiel", state.clone, check, 1, "call")


def _gin_determinize() -> Workload:
    pyspiel = load("open_spiel")
    state = _gin_state(GIN_MIDGAME_MOVES)
    player = state.current_player()
    infostate = state.information_state_string(player)

    def run():
        sampler = pyspiel.UniformProbabilitySampler(FIRST_SEED, 0.0, 1.0)
        return [state.resample_from_infostate(player, sampler) for _ in range(DETERMINIZE_SEEDS)]

    def check(answer) -> None:
        assert all(s.information_state_string(player) == infostate for s in answer), (
            "resample_from_infostate: the information state changed"
        )
        assert len({str(s) for s in answer}) > 1, "resample_from_infostate: always the same deal"

    return Workload("determinize", "open_spiel", run, check, DETERMINIZE_SEEDS, "call")


def _gin_ismcts(sizes: Sizes) -> Workload:
    pyspiel = load("open_spiel")
    state = _gin_state(0)
    state.apply_action(state.legal_actions()[0])  # 11 cards, discard phase (like ISMCTS_POSITION)
    legal = set(state.legal_actions())
    n = sizes.gin_ismcts_iterations

    def run():
        bot = pyspiel.ISMCTSBot(
            1,  # seed
            pyspiel.RandomRolloutEvaluator(1, 1),  # one random rollout per leaf
            ISMCTS_EXPLORATION,  # uct_c
            n,  # max_simulations
            -1,  # max_world_samples: unlimited
            pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
            False,  # use_observation_string: the information state string
            True,  # allow_inconsistent_action_sets: the opponent's moves depend on the deal
        )
        return bot.step(state)

    def check(answer) -> None:
        assert answer in legal, f"ISMCTSBot chose {answer}, not legal"

    return Workload("ismcts", "open_spiel", run, check, n, "iteration", note="ISMCTSBot")
