"""Differential playouts: the C++ core (``burraco``) held to the pure-Python reference
(``burraco.reference``) over whole hands (docs/game.md; docs/architecture.md §7).

For every rule set of ``playouts.GAME_RULES`` (each preset of ``Rules.PRESETS`` and
``Rules('brazilian', players=2)``) seeded hands are dealt by both engines and played in lockstep
(``playouts.lockstep``): each move is chosen with a seeded ``random.Random`` from the core's
legal moves and pushed on both engines, and at every step the two engines must agree on

* the state string (which holds the whole state: hands, known cards, stock order, pile, melds
  with their layouts, pozzetti, hold, opening bookkeeping, deadlock counter, turn flags, end);
* the legal moves, as strings, in order;
* every 8 moves, at the start and at the end, the public accessors (hands, known, melds, pile,
  top, stock, pozzetti, sides, side_of, cut_side, scores, moves, phase, turn, end_reason);
* at the end, the result: end_reason, closing_side, player_scores and every field of every
  SideResult.

Two move policies (``playouts.POLICIES``): ``draw`` (mostly draws from the stock: random hands
that end by the stock running out, with melds and pozzetti along the way) and ``meld`` (prefers
lay-offs and long new melds, takes the pile now and then: long melds, burraco, pozzetti on the fly
and face down, short brazilian openings, closings and deadlocks). Each test also checks that its
hands reached the situations its policy is there for (``COVERAGE``), so a change that made the
playouts trivial would not pass unnoticed.

A failing test lists the first disagreement of each hand that has one (up to ``SHOWN``, the rest
counted): rule set, seed, policy, move number, the fields that differ with both answers, the
reference's state string and the moves played, so that the hand can be replayed exactly.

Hands run on every core (``playouts.lockstep_many``: a process pool, unless pytest-xdist already
spreads the tests over the cores; the hands are independent).
Hypothesis adds short hands of arbitrary moves that shrink to a short move list.

Counts (default run): ``HANDS`` (16 a rule set with ``draw``, 24 with ``meld``, 18 for
brazilian-2p with ``meld``, ``FEWER_HANDS``), 234 hands in all, which must reach their coverage but
for the items of ``SLOW_COVERAGE``; ``-m slow``: ``SLOW_HANDS`` more per rule set and policy, on
other seeds.

Measured: ``python -m pytest tests/test_differential_game.py -k "lockstep_hands and not slow" -s``
prints each rule set's summary (the default hands once were 1,800 hands and 291,752 moves, about
110 s on 2 cores, most of it the reference's move generator); the slow hands, 18,000 hands and
about 2.9 million moves, 14 min.
"""

from __future__ import annotations

import playouts
import pytest
from conftest import load_engine
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

# Default hands per rule set and policy (seeds 0, 1, ...); the bulk of the hands is in -m slow.
# The seed that first reaches the last of a pair's COVERAGE items was measured: draw: italian 19,
# italian-2p 9, italian-3p 61, online-2p 19, brazilian 19, brazilian-2p 13; meld: italian 90,
# italian-2p 30, italian-3p 45, online-2p 31, brazilian 4, brazilian-2p 48. The default hands
# must reach every item but those of SLOW_COVERAGE, which only the slow hands must reach (from
# seed 1,000,000 on every item of every pair is reached within 100 hands, except italian-3p
# meld's big_hands).
HANDS = {"draw": 16, "meld": 24}
# Brazilian-2p hands are the longest (about 230 moves with draw, 280 with meld, with hands of 30+
# cards): fewer of them.
FEWER_HANDS = {("brazilian-2p", "meld"): 18}
SLOW_COVERAGE = {
    ("italian", "draw"): ("burraco",),
    ("italian-3p", "draw"): ("on_the_fly",),
    ("online-2p", "draw"): ("on_the_fly",),
    ("brazilian", "draw"): ("on_the_fly",),
    ("italian", "meld"): ("big_hands", "on_the_fly"),
    ("italian-2p", "meld"): ("big_hands",),
    ("italian-3p", "meld"): ("deadlock",),
    ("online-2p", "meld"): ("big_hands",),
    ("brazilian-2p", "meld"): ("deadlock",),
}
SLOW_HANDS = {"draw": 2000, "meld": 1000}
SLOW_FIRST_SEED = 1_000_000
SHOWN = 5

# What the default hands of each policy must have reached, at least once each (every name is an
# ``Events`` field or an end reason); rule-set extras below.
COVERAGE = {
    "draw": ("stock_exhausted", "pile_takes", "big_hands", "holds", "burraco", "face_down",
             "on_the_fly"),
    "meld": ("closed", "stock_exhausted", "pile_takes", "big_hands", "holds", "burraco",
             "long_melds", "on_the_fly", "face_down"),
}
RULES_COVERAGE = {
    ("italian", "draw"): ("last_turns",),
    ("italian", "meld"): ("last_turns",),
    ("italian-2p", "meld"): ("last_turns", "deadlock"),
    ("italian-3p", "draw"): ("last_turns", "split"),
    ("italian-3p", "meld"): ("last_turns", "split", "deadlock"),
    ("online-2p", "draw"): ("packet_stock",),
    ("online-2p", "meld"): ("packet_stock", "deadlock"),
    ("brazilian", "draw"): ("packet_stock", "short_openings"),
    ("brazilian", "meld"): ("packet_stock", "short_openings"),
    ("brazilian-2p", "draw"): ("packet_stock", "short_openings"),
    ("brazilian-2p", "meld"): ("packet_stock", "short_openings", "deadlock"),
}


def coverage(rules_id: str, policy: str) -> tuple[str, ...]:
    """Every situation the hands of a rule set and policy must reach."""
    return COVERAGE[policy] + RULES_COVERAGE.get((rules_id, policy), ())


def reached(events: playouts.Events, name: str) -> int:
    return events.ends[name] if name in ("closed", "deadlock", "stock_exhausted") else getattr(
        events, name)


def report(playouts_done: list[playouts.Playout]) -> str:
    found = [p.disagreement for p in playouts_done if p.disagreement is not None]
    lines = [f"{len(found)} of {len(playouts_done)} hands disagree"]
    kinds: dict[str, int] = {}
    for disagreement in found:
        key = disagreement.what + "".join(f" [{name}]" for name in disagreement.fields())
        kinds[key] = kinds.get(key, 0) + 1
    lines += [f"  {count} x {kind}" for kind, count in sorted(kinds.items())]
    lines += [str(disagreement) for disagreement in found[:SHOWN]]
    if len(found) > SHOWN:
        lines.append(f"... and {len(found) - SHOWN} more")
    return "\n".join(lines)


def run(rules_id: str, policy: str, seeds) -> playouts.Events:
    done = playouts.lockstep_many(rules_id, policy, seeds)
    assert all(p.disagreement is None for p in done), report(done)
    events = playouts.Events()
    for p in done:
        events.add(p.events)
    print(f"{rules_id} {policy}: {events.summary()}")
    return events


@pytest.mark.parametrize("policy", playouts.POLICIES)
@pytest.mark.parametrize("rules_id", playouts.RULES_IDS)
def test_lockstep_hands(rules_id, policy):
    hands = FEWER_HANDS.get((rules_id, policy), HANDS[policy])
    events = run(rules_id, policy, playouts.seeds(hands))
    assert events.hands == hands
    later = SLOW_COVERAGE.get((rules_id, policy), ())
    wanted = [name for name in coverage(rules_id, policy) if name not in later]
    missing = [name for name in wanted if not reached(events, name)]
    assert not missing, f"the hands never reached {missing}: {events.summary()}"


def test_slow_coverage_names_coverage_items():
    """SLOW_COVERAGE only moves items of a pair's coverage to the slow run (a typo would drop one)."""
    for (rules_id, policy), names in SLOW_COVERAGE.items():
        assert set(names) <= set(coverage(rules_id, policy)), (rules_id, policy, names)


@pytest.mark.slow
@pytest.mark.parametrize("policy", playouts.POLICIES)
@pytest.mark.parametrize("rules_id", playouts.RULES_IDS)
def test_lockstep_hands_slow(rules_id, policy):
    events = run(rules_id, policy, playouts.seeds(SLOW_HANDS[policy], SLOW_FIRST_SEED))
    assert events.hands == SLOW_HANDS[policy]
    missing = [name for name in coverage(rules_id, policy) if not reached(events, name)]
    assert not missing, f"the hands never reached {missing}: {events.summary()}"


# ---- Hypothesis: arbitrary moves, shrinking to a short move list ---------------------------------


@pytest.mark.parametrize("rules_id", playouts.RULES_IDS)
@settings(max_examples=40, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**64 - 1),
    choices=st.lists(st.integers(0, 2**16), min_size=10, max_size=150),
)
def test_lockstep_arbitrary_moves(rules_id, seed, choices):
    """Any move sequence: the i-th move is the ``choices[i] % len(legal moves)``-th legal move,
    except that ``draw`` is taken over ``pile`` unless ``choices[i] % 4 == 1`` (uniform choices
    would mostly swap one-card piles into a deadlock); the hand stops when the choices run out
    (or it ends). A disagreement shrinks to few moves, with small choices."""
    steps = iter(choices)

    def choose(_rng, moves):
        choice = next(steps)
        if moves[0] == "draw" and len(moves) > 1 and moves[1] == "pile":
            return 1 if choice % 4 == 1 else 0
        return choice % len(moves)

    found = playouts.lockstep(load_engine("core"), load_engine("reference"), rules_id, seed,
                              "hypothesis", choose=choose, stop_after=len(choices))
    assert found.disagreement is None, str(found.disagreement)


# ---- move notation ------------------------------------------------------------------------------

MOVE_TEXTS = (
    "draw", "pile", "keep", "reject", "DRAW", " draw ", "discard Qs", "discard qs", "discard 10h",
    "discard Jk", "discard jk", "meld 7h 5h 6h", "meld 5h 6h 7h Jk", "meld Kh Kh Kh", "add 0 8h",
    "add 2 8h 9h", "add 01 8h", "add 35 8h", "add 36 8h", "add 63 8h", "add 99 8h",
    "add 1000000 8h", "add 999999999 8h", "add 0999999999 8h", "add 1000000000 8h",
    "add 4294967296 8h", "add 99999999999999999999 8h", "add -1 8h", "add x 8h", "discard",
    "discard Xx", "meld", "pass", "",
)


@pytest.mark.parametrize("text", MOVE_TEXTS)
def test_move_notation_agrees(text):
    """``Move(text)``: the same canonical string, kind, index and cards, or the same error class,
    on both engines (docs/game.md "Phases and moves": a well-formed move whose index names no meld
    is refused by ``push`` with ``IllegalMoveError``, not by the parser)."""

    def view(engine):
        move = engine.Move(text)
        return str(move), move.kind, move.index, str(move.cards), repr(move)

    core = playouts.outcome(lambda: view(load_engine("core")))
    reference = playouts.outcome(lambda: view(load_engine("reference")))
    assert core == reference, f"Move({text!r}): core {core!r}, reference {reference!r}"


@pytest.mark.parametrize("index", [1, 35, 36, 255, 256, 65536, 123_456_789, 999_999_999])
def test_push_refuses_an_index_that_names_no_meld(engine, index):
    """``add <index> <card>`` with a well-formed index the side does not have: ``IllegalMoveError``
    from ``push`` (not from the parser), quoting the move, and the game unchanged."""
    game = engine.Game(engine.Rules("italian"), seed=3)
    game.push("draw")
    card = str(next(iter(game.hand(game.turn))))
    before = game.state_string()
    with pytest.raises(engine.IllegalMoveError, match=f"add {index} {card}"):
        game.push(f"add {index} {card}")
    assert game.state_string() == before and len(game.moves) == 1
