"""Random *valid* rule sets, core against reference, hand by hand (issue: every hand ends under
every valid ``Rules``, and the engines agree).

:func:`fuzzing.rule_sets` draws a preset and about half of the knobs of the knob table
(docs/rules.md; ``fuzzing.KNOB_DOMAINS`` lists every knob and its valid values, checked here
against both engines' validation), each from its valid values. A rule set, or its deal, refused by
*both* engines with the same error class is skipped (the Rules constructor may refuse a knob
combination under which a hand could never end); one engine accepting what the other refuses is a
failure. Each accepted rule set plays one hand in lock step (:func:`fuzzing.rules_hand`, in a
worker process so that a crash or a hang is a failure, not a dead run): at every move the state
strings, the legal moves and both engines' ``policy_move`` choice are equal, the chosen move never
returns to a position of the same turn while another legal move does not (docs/search.md "Candidates"), and the
hand ends within the 100,000-move cap; at the end the results are equal, and so are
``playout(policy, seed)`` from the deal and, for one rule set in four, ``playouts(rules, 3,
seed=seed, policy=policy)``. The policy is ``random`` (a fresh seed per move) for three rule sets
in four, else ``greedy``.

The tables are laid out by ``fuzzing.TABLES``: one rule set in four has six players (three sides
of two or two sides of three), one in four three decks with 2, 3 or 4 players, the rest as the
knob table draws them; each run checks that six-player and three-deck hands were played.

Default run: 40 rule sets, derandomized; ``-m slow``: 1,000, random. The counts (hands played,
moves compared, rule sets refused by both, and hands and moves per table) are printed (``-s``)
and written to ``random_rules_counts.json`` in pytest's base temporary directory. Every hand that
once broke the lock step is kept in tests/data/regressions/rules.jsonl and replayed by
:func:`test_rules_regression`; none is ever deleted (docs/fuzzing.md "Kept inputs"). Any hand with
a problem fails the test.
"""

from __future__ import annotations

import json
import math
import os
import pathlib
import re
from collections import Counter

import fuzzing
import numpy
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import burraco
from burraco import reference

ENGINES = {"core": burraco, "reference": reference}


@pytest.fixture(scope="module")
def worker():
    process = fuzzing.Worker(timeout=float(os.environ.get("FUZZ_TIMEOUT", "180")))
    yield process
    process.close()


@pytest.fixture(scope="module")
def tally(tmp_path_factory):
    counts: Counter = Counter()
    yield counts
    path = tmp_path_factory.getbasetemp() / "random_rules_counts.json"
    path.write_text(json.dumps(dict(counts), indent=1) + "\n")
    print(f"\nrandom rule sets: {dict(counts)} (written to {path})")


# ---- the knob table of the strategy is the engines' -------------------------------------------


@pytest.mark.parametrize("name", list(ENGINES))
def test_every_knob_is_drawn(name):
    assert list(fuzzing.KNOB_DOMAINS) == list(ENGINES[name].Rules().knobs())


def _valid_and_invalid(name: str) -> tuple[list, list]:
    """Values of a knob that both engines must accept (every choice, every bound) and values
    just outside its domain that both must refuse."""
    domain = fuzzing.KNOB_DOMAINS[name]
    kind = domain[0]
    if kind == "choice":
        values = list(domain[1])
        if isinstance(values[0], bool):
            return values, [v for v in (False, True) if v not in values]
        if isinstance(values[0], int):
            return values, [min(values) - 1, max(values) + 1]
        return values, ["", values[0] + "x"]
    if kind == "int":
        low, high = domain[1], domain[2]
        return [low, high, (low + high) // 2], [low - 1, high + 1]
    if kind == "pair":
        low, high = domain[1], domain[2]
        return [(low, low), (high, high), (low, high)], [(low - 1, low), (low, high + 1), (low,)]
    if kind == "float":
        return [0.0, 1.0, 0.25], [-0.01, 1.01, math.nan, math.inf]
    if kind == "set_ranks":
        return ["A", "K", "A3456789TJQK", "QKA"], ["", "2", "AA", "Z"]
    if kind == "optional_points":
        return [None, 0, 1_000_000], [-1, 1_000_001]
    if kind == "opening_minimum":
        return ([None, ((0, 0),), ((0, 1_000_000),), ((0, 50), (1, 60), (2, 70), (1_000_000, 0))],
                [(), ((1, 50),), ((0, 50), (0, 60)), ((0, -1),), ((0, 1_000_001),),
                 ((0, 1), (1, 1), (2, 1), (3, 1), (4, 1))])
    raise AssertionError(name)


@pytest.mark.parametrize("name", list(fuzzing.KNOB_DOMAINS))
def test_knob_domain_is_what_both_engines_accept(name):
    """Every value the strategy may draw is accepted by both engines, and the values just past
    the domain are refused by both with the same class."""
    valid, invalid = _valid_and_invalid(name)
    for value in valid:
        for engine in ENGINES.values():
            engine.Rules("italian", **{name: value})
    for value in invalid:
        answers = {}
        for key, engine in ENGINES.items():
            try:
                engine.Rules("italian", **{name: value})
                answers[key] = "accepted"
            except (ValueError, TypeError) as error:
                answers[key] = type(error).__name__
        assert answers["core"] == answers["reference"] != "accepted", (name, value, answers)


# ---- lockstep hands ---------------------------------------------------------------------------


def table_of(rules: tuple[str, dict]) -> str:
    """'six players' (with either number of sides), 'three decks' (2, 3 or 4 players) or 'two
    decks': the table a drawn rule set lays out (fuzzing.TABLES)."""
    preset, overrides = rules
    if overrides.get("players") == 6:
        return "six players"
    return "three decks" if overrides.get("decks") == 3 else "two decks"


def play_rule_sets(worker, tally, examples: int, derandomize: bool) -> Counter:
    """Lock-step hands of ``examples`` drawn rule sets; fail at the first problem; the verdicts
    are counted, and the hands played per table (``'played six players'``, ...) too."""
    verdicts: Counter = Counter()

    @settings(max_examples=examples, derandomize=derandomize, deadline=None, database=None,
              phases=(Phase.explicit, Phase.generate), suppress_health_check=list(HealthCheck))
    @given(rules=fuzzing.rule_sets(), seed=st.integers(0, 2**64 - 1),
           greedy=st.integers(0, 3).map(lambda n: n == 0), batch=st.integers(0, 3))
    def run(rules, seed, greedy, batch):
        policy = "greedy" if greedy else "random"
        text = repr(rules)
        answer = worker.call({"op": "rules_hand", "rules": text, "seed": seed,
                              "policy": policy, "batch": batch == 0})
        verdicts[answer["verdict"]] += 1
        verdicts[f"{answer['verdict']} {table_of(rules)}"] += 1
        tally["rule sets"] += 1
        tally["rule sets refused by both"] += answer["verdict"] == "refused"
        tally["hands"] += answer.get("hands", 0)
        tally["moves compared"] += answer.get("moves", 0)
        tally[f"hands of {table_of(rules)}"] += answer.get("hands", 0)
        tally[f"moves compared, {table_of(rules)}"] += answer.get("moves", 0)
        problems = "\n".join("- " + p for p in answer["problems"])
        assert not answer["problems"], (
            f"Rules({rules[0]!r}, **{rules[1]!r}), seed {seed}, {policy}:\n{problems}")

    run()
    return verdicts


def test_random_rule_sets(worker, tally):
    verdicts = play_rule_sets(worker, tally, 40, derandomize=True)
    # Not vacuous: most rule sets are played, six-player and three-deck tables among them.
    assert verdicts["played"] >= 28, verdicts
    assert verdicts["played six players"] >= 5 and verdicts["played three decks"] >= 5, verdicts


@pytest.mark.slow
def test_random_rule_sets_slow(worker, tally):
    verdicts = play_rule_sets(worker, tally, 1000, derandomize=False)
    assert verdicts["played"] >= 700, verdicts
    assert verdicts["played six players"] >= 150 and verdicts["played three decks"] >= 150, \
        verdicts


# ---- regressions: rule sets and hands that once broke the lock step ----------------------------

REGRESSIONS = pathlib.Path(__file__).parent / "data" / "regressions" / "rules.jsonl"


def rules_regressions() -> list[dict]:
    """tests/data/regressions/rules.jsonl: one JSON object a line, ``{"rules": repr((preset,
    overrides)), "seed": int, "policy": 'random' or 'greedy', "why": str}``."""
    lines = []
    for number, line in enumerate(REGRESSIONS.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            entry = json.loads(line)
            assert set(entry) == {"rules", "seed", "policy", "why"}, f"line {number}"
            fuzzing.rules_from_text(entry["rules"])  # a readable (preset, overrides)
            entry["line"] = number
            lines.append(entry)
    return lines


@pytest.mark.parametrize("entry", rules_regressions(),
                         ids=lambda e: f"{e['line']}-{e['policy']}-{e['why'][:40]}")
def test_rules_regression(worker, entry):
    """Each kept hand now plays in lock step to its end (or its rules are refused by both
    engines alike, if the Rules constructor comes to refuse a combination that could not end)."""
    answer = worker.call({"op": "rules_hand", "rules": entry["rules"], "seed": entry["seed"],
                          "policy": entry["policy"], "batch": True})
    assert not answer["problems"], f"{entry['why']}\n" + "\n".join(answer["problems"])
    assert answer["verdict"] in ("played", "refused"), answer


# ---- the issue's examples ---------------------------------------------------------------------


# online-2p with an opening minimum of 105,712 points that a short opening raises to its cap at once
RETRACE_RULES = ("online-2p", {"opening_minimum": ((0, 105712), (1713, 0), (449395, 15), (515691, 1)),
                               "opening_fail_increment": 1000000})


@pytest.mark.parametrize(("rules", "seed", "policy"), [
    # keep/reject leave the stock below the threshold: they set the last-turn flag as draw does
    # (keep/reject are stock draws, docs/game.md), so the hand ends; the core used to play on forever.
    (("brazilian", {"pozzetto_sizes": (30, 30), "stock_end_threshold": 10}), 0, "greedy"),
    (("brazilian", {"pozzetto_sizes": (30, 30), "stock_end_threshold": 10}), 0, "random"),
    # a short brazilian opening that cannot raise the requirement returns the same position:
    # greedy must not choose it again (docs/search.md "Candidates")
    (("brazilian", {"hand_size": 3, "opening_fail_increment": 0}), 0, "greedy"),
    (("brazilian", {"hand_size": 3, "opening_fail_increment": 0}), 0, "random"),
    # after a short opening brought the cards back (requirement at its cap), a meld that does not
    # empty the hand retraces a step of the turn: greedy must not play it again
    (RETRACE_RULES, 21411, "greedy"),
    # a one-card pile take puts no hold with the knob off (no hold with forbid_discard_of_single_pile_card=False)
    (("italian", {"forbid_discard_of_single_pile_card": False}), 1, "random"),
    (("italian", {"forbid_discard_of_single_pile_card": False}), 1, "greedy"),
], ids=str)
def test_issue_rule_sets_end_and_agree(worker, rules, seed, policy):
    """Lock step, ``playout`` and ``playouts`` (which never returned for the first) all end
    and agree."""
    answer = worker.call({"op": "rules_hand", "rules": repr(rules), "seed": seed,
                          "policy": policy, "batch": True})
    assert not answer["problems"], "\n".join(answer["problems"])
    assert answer["verdict"] == "played" and answer["hands"] == 1, answer


@pytest.mark.parametrize("name", list(ENGINES))
def test_single_pile_card_may_be_discarded_at_once(name):
    """``forbid_discard_of_single_pile_card=False``, seed 1: after taking the one-card pile
    (the start card 2c), ``discard 2c`` is legal, no hold is written, and both engines agree on
    every position."""
    engine = ENGINES[name]
    game = engine.Game(engine.Rules("italian", forbid_discard_of_single_pile_card=False), seed=1)
    assert [str(card) for card in game.discard_pile] == ["2c"]
    game.push("pile")
    fields = dict(part.split("=", 1) for part in game.state_string().split(";"))
    assert fields["hold"] == "-" and "p" in fields["turnflags"]
    assert "discard 2c" in [str(move) for move in game.legal_moves()]
    game.push("discard 2c")
    other = ENGINES["reference" if name == "core" else "core"]
    replay = other.Game(other.Rules("italian", forbid_discard_of_single_pile_card=False), seed=1)
    for move in game.moves:
        replay.push(str(move))
    assert replay.state_string() == game.state_string()


@pytest.mark.parametrize("name", list(ENGINES))
def test_numpy_knob_values(name):
    """strict parsing, docs/records.md: an int knob takes NumPy ints, a bool knob ``numpy.bool_``, a float knob NumPy
    floats, with the same Rules as the plain values; ``True`` is no int."""
    engine = ENGINES[name]
    plain = engine.Rules("brazilian", hand_size=9, pozzetto_sizes=(7, 8), initial_upcard=True,
                         cut_exact_probability=0.25, semi_clean_burraco_bonus=120)
    made = engine.Rules("brazilian", hand_size=numpy.int64(9),
                        pozzetto_sizes=(numpy.int32(7), numpy.uint8(8)),
                        initial_upcard=numpy.bool_(True),
                        cut_exact_probability=numpy.float64(0.25),
                        semi_clean_burraco_bonus=numpy.int16(120))
    assert made == plain and made.knobs() == plain.knobs()
    with pytest.raises((TypeError, ValueError)):
        engine.Rules("italian", hand_size=True)
    with pytest.raises((TypeError, ValueError)):
        engine.Rules("italian", initial_upcard=1)


@pytest.mark.parametrize("name", list(ENGINES))
def test_no_retrace_after_cards_came_back(name):
    """RETRACE_RULES, seed 21411, greedy: seat 1 melds nine spades, melds its last three cards, and
    the short opening brings every card back (the requirement is at its cap, so nothing changes
    but the turn's ``d`` flag). Putting the nine spades down again would give the position after
    the first meld, and so on for ever: RULES H-38 ends the turn's meld phase there, so the
    repeat is refused (quoting the move, the game unchanged), every legal move is a discard, and
    the hand goes on to its end."""
    engine = ENGINES[name]
    game = engine.Game(engine.Rules(RETRACE_RULES[0], **RETRACE_RULES[1]), seed=21411)
    for _ in range(104):
        game.push(game.policy_move("greedy", 0))
    nine = "meld As 2s 6s 7s 8s 9s Ts Qs Ks"
    assert [str(move) for move in game.moves[-2:]] == ["draw", nine]
    after_nine = game.state_string()
    game.push("meld 3h 4h 5h")  # the whole hand: short, the cards come back
    assert game.phase == "meld" and len(game.hand(1)) == 12
    before = game.state_string()
    with pytest.raises(engine.IllegalMoveError, match=re.escape(nine)):
        game.push(nine)  # the repeat: refused under H-38
    assert game.state_string() == before
    assert {str(move).split()[0] for move in game.legal_moves()} == {"discard"}
    chosen = str(game.policy_move("greedy", 0))
    assert chosen.startswith("discard ")
    game.push(chosen)
    assert game.state_string() != after_nine
    game.playout("greedy", 0)
    assert game.is_over()
