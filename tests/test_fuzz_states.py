"""Mutated state strings, records and JSON views on both engines (issue: nothing a caller passes
crashes, hangs or fools the engine; docs/game.md "State string", docs/records.md).

Every input is an engine-made state string, record or whole-state view (tests/fuzzing.py), most of
them mutated. For each one the deep checks of :func:`fuzzing.deep_check` run in a worker process
(a crash or a hang of an engine is a failure naming the input, not a dead run):

* refused: by both engines, with the same documented class (InvalidStateError for a state string;
  InvalidNotationError, IllegalMoveError or InvalidStateError for a record; InvalidNotationError
  or InvalidStateError for a view), never another exception, never a crash;
* accepted: by both, and then the state string round trips (a view: ``to_json()`` writes it
  back; a record: it replays to its own moves), the cards are conserved (hands, melds, pile,
  stock and packets are the deck of the rules; known cards are in their hands), the position is
  over or has a legal move, both engines give the same state, legal moves, accessors and result,
  stay equal for 30 random moves, and random and greedy playouts from it end (within the
  100,000-move cap: InvalidStateError from the cap is a failure here) with the same moves and
  final state in both engines.

The inputs come from every table (``fuzzing.random_rules_id``): half from the two-deck presets,
a quarter from three-deck tables with 2, 3 or 4 players, a quarter from the six-player tables
(three sides of two, two sides of three).

Default run: 120 state strings, 60 records, 60 views (derandomized, so the run is the same
every time; no shrinking, so a hang costs one timeout), and every file of the C++ fuzzer's corpus
(tests/data/fuzz/state_strings); ``-m slow``: 3,000 of each, random. Every input that showed a
defect is kept in tests/data/regressions/fuzz.jsonl and replayed by :func:`test_regression`; none
is ever deleted (docs/fuzzing.md "Kept inputs"). Any input with a problem fails the test.
"""

from __future__ import annotations

import json
import pathlib
import random
import re
from collections import Counter

import fuzzing
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

REGRESSIONS = pathlib.Path(__file__).parent / "data" / "regressions" / "fuzz.jsonl"


def regression_lines() -> list[dict]:
    lines = []
    for number, line in enumerate(REGRESSIONS.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            entry = json.loads(line)
            assert set(entry) == {"kind", "input", "why"}, f"line {number}: {sorted(entry)}"
            assert entry["kind"] in fuzzing.REFUSALS, f"line {number}: {entry['kind']!r}"
            entry["line"] = number
            lines.append(entry)
    return lines


@pytest.fixture(scope="module")
def worker():
    process = fuzzing.Worker()
    yield process
    process.close()


def report(kind: str, value, answer: dict) -> str:
    problems = "\n".join("- " + problem for problem in answer["problems"])
    return (f"{kind} input ({answer.get('verdict')}):\n{fuzzing.describe_input(kind, value)}\n"
            f"{problems}")


def fuzz(worker, strategy, kind: str, examples: int, derandomize: bool) -> Counter:
    """Run the deep checks on ``examples`` inputs drawn from ``strategy``; fail at the first
    input with a problem; return the verdicts counted."""
    verdicts: Counter = Counter()

    @settings(max_examples=examples, derandomize=derandomize, deadline=None, database=None,
              phases=(Phase.explicit, Phase.generate), suppress_health_check=list(HealthCheck))
    @given(value=strategy, seed=st.integers(0, 2**32 - 1))
    def run(value, seed):
        answer = worker.call({"op": "check", "kind": kind, "input": value, "seed": seed})
        verdicts[answer["verdict"].split()[0]] += 1
        assert not answer["problems"], report(kind, value, answer)

    run()
    print(f"\n{kind}: {sum(verdicts.values())} inputs, {dict(verdicts)}")
    return verdicts


def assert_not_vacuous(verdicts: Counter, examples: int) -> None:
    """Enough inputs were accepted (and so went through the playouts) and enough refused."""
    assert verdicts["accepted"] >= examples // 20, verdicts
    assert verdicts["refused"] >= examples // 5, verdicts


STRATEGIES = {"state": fuzzing.mutated_states, "record": fuzzing.mutated_records,
              "json": fuzzing.mutated_views}
DEFAULT_EXAMPLES = {"state": 120, "record": 60, "json": 60}


@pytest.mark.parametrize("kind", list(STRATEGIES))
def test_mutated_inputs(worker, kind):
    verdicts = fuzz(worker, STRATEGIES[kind](), kind, DEFAULT_EXAMPLES[kind], derandomize=True)
    assert_not_vacuous(verdicts, DEFAULT_EXAMPLES[kind])


@pytest.mark.slow
@pytest.mark.parametrize("kind", list(STRATEGIES))
def test_mutated_inputs_slow(worker, kind):
    verdicts = fuzz(worker, STRATEGIES[kind](), kind, 3000, derandomize=False)
    assert_not_vacuous(verdicts, 3000)


@pytest.mark.parametrize("kind", list(STRATEGIES))
def test_engine_made_inputs_pass(worker, kind):
    """The checks themselves: every unmutated engine-made input is accepted and passes."""
    strategy = {"state": fuzzing.states, "record": fuzzing.records, "json": fuzzing.views}[kind]
    verdicts = fuzz(worker, strategy(), kind, 20, derandomize=True)
    assert set(verdicts) == {"accepted"} and verdicts["accepted"] >= 15, verdicts


def test_mutations_change_their_input():
    """The mutations are not vacuous: nearly every mutated input differs from its source, and
    each kind of state mutation changes some input."""
    rng = random.Random(7)
    draw = fuzzing.RandomDraw(rng)
    sources = [fuzzing.engine_made(rules_id, seed, depth, policy, source)
               for rules_id in fuzzing.RULES_IDS
               for seed, depth, policy, source in ((1, 0, "meld", "seed"),
                                                   (2, 90, "draw", "start"),
                                                   (3, 300, "meld", "deck"))]
    changed = Counter()
    for number in range(300):
        base, other = sources[number % len(sources)], sources[(number * 7 + 3) % len(sources)]
        changed["state"] += fuzzing.mutate_state(draw, base[0], other[0]) != base[0]
        changed["record"] += fuzzing.mutate_record(draw, base[1], other[1], other[0]) != \
            json.loads(base[1])
        changed["json"] += fuzzing.mutate_view(draw, base[2], other[2], other[0]) != base[2]
    assert min(changed.values()) >= 270, changed
    for mutation in fuzzing.STATE_MUTATIONS:
        hits = 0
        for number in range(60):
            base, other = sources[number % len(sources)], sources[(number + 5) % len(sources)]
            fields = fuzzing.split_state(base[0])
            mutation(draw, fields, fuzzing.split_state(other[0]))
            hits += fuzzing.join_state(fields) != base[0]
        assert hits >= 20, (mutation.__name__, hits)


# ---- regressions ------------------------------------------------------------------------------


@pytest.mark.parametrize("entry", regression_lines(),
                         ids=lambda e: f"{e['line']}-{e['kind']}-{e['why'][:40]}")
def test_regression(worker, entry):
    """Each kept input that once broke something now passes the deep checks. The seed of the
    lock step and the playouts is the one the input was found with (``[...; seed N]`` at the end
    of ``why``), else the line number."""
    found = re.search(r"; seed (\d+)\]$", entry["why"])
    seed = int(found.group(1)) if found else entry["line"]
    answer = worker.call({"op": "check", "kind": entry["kind"], "input": entry["input"],
                          "seed": seed})
    assert not answer["problems"], f"{entry['why']}\n" + report(entry["kind"], entry["input"],
                                                                answer)


# ---- the C++ fuzzer's corpus on both engines -----------------------------------------------------

CORPUS = pathlib.Path(__file__).parent / "data" / "fuzz" / "state_strings"


@pytest.mark.parametrize("name", sorted(path.name for path in CORPUS.iterdir()))
def test_state_string_corpus(worker, name):
    """Every input of the C++ fuzzer's corpus (engine-made seeds of every table, six players and
    three decks included, and the inputs that once broke the core: docs/fuzzing.md) passes the
    deep checks on both engines too: refused alike, or accepted alike and played alike."""
    text = (CORPUS / name).read_bytes().decode("utf-8", "replace")
    answer = worker.call({"op": "check", "kind": "state", "input": text, "seed": len(text)})
    assert not answer["problems"], report("state", text, answer)


#: How many inputs each kept file held at least when this was last raised: a deleted entry fails
#: the run (docs/fuzzing.md "Kept inputs": none is ever deleted). Raise a number when you add
#: inputs; never lower it.
KEPT_AT_LEAST = {"regress_*.txt": 12, "fuzz.jsonl": 42, "rules.jsonl": 7}


def test_kept_inputs_are_never_deleted():
    rules_file = REGRESSIONS.with_name("rules.jsonl")
    kept = {
        "regress_*.txt": len(list(CORPUS.glob("regress_*.txt"))),
        "fuzz.jsonl": len(regression_lines()),
        "rules.jsonl": sum(1 for line in rules_file.read_text(encoding="utf-8").splitlines()
                           if line.strip()),
    }
    assert all(kept[name] >= least for name, least in KEPT_AT_LEAST.items()), (kept,
                                                                             KEPT_AT_LEAST)


# ---- the issue's examples: positions no play reaches are refused ------------------------------
# Built by hand (docs/game.md "State string") from engine-made positions; each is also a line of
# the regressions file, where the deep checks show what goes wrong while they are accepted.

UNREACHABLE = {
    # Seat 1 discarded its last card and took packet 0 face down (f1); seat 0 was to play. Turn
    # and phase edited: seat 1 to act with an empty hand while its packet still waits (the
    # packet joins its owner's hand when the owner's turn begins). Meld phase: no legal move.
    "face-down owner to act, meld phase":
        "v=1;rules=italian-2p;seed=28;first=0;scores=0,0;turn=1;phase=meld;"
        "hands=4cTcKd6hJh3s9sQs/-;known=TcJh3s9s/-;stock=JkAcJdAhKs5h9c7h2h6s7c4h4d8s2hJhTc6s5c"
        "Qc8c5d3dAc6cQd3s7d9dTs4sKh5sQc2dAhJd7d4sTs9sQhKhKd3c5sJc4c5d6d9hAdJs5hKcThAd6cTd;"
        "pile=4d6d;top=6d;melds=7h7s2c(=7)+8dJk(=9d)Td/Th2c(=Jh)Qh+8d8h8sJk(=8)+3d3h3hJk(=3);"
        "pozzetti=f1:Qd8c9d9hKs5cJc2sQs7s6h/u:2s4h2d7cJs8hAs9c3cAsKc;hold=-;opened=0,0;"
        "need=0,0;deadlock=0;turnflags=-;split=-;end=-;cut=-",
    "face-down owner to act, draw phase":
        "v=1;rules=italian-2p;seed=28;first=0;scores=0,0;turn=1;phase=draw;"
        "hands=4cTcKd6hJh3s9sQs/-;known=TcJh3s9s/-;stock=JkAcJdAhKs5h9c7h2h6s7c4h4d8s2hJhTc6s5c"
        "Qc8c5d3dAc6cQd3s7d9dTs4sKh5sQc2dAhJd7d4sTs9sQhKhKd3c5sJc4c5d6d9hAdJs5hKcThAd6cTd;"
        "pile=4d6d;top=6d;melds=7h7s2c(=7)+8dJk(=9d)Td/Th2c(=Jh)Qh+8d8h8sJk(=8)+3d3h3hJk(=3);"
        "pozzetti=f1:Qd8c9d9hKs5cJc2sQs7s6h/u:2s4h2d7cJs8hAs9c3cAsKc;hold=-;opened=0,0;"
        "need=0,0;deadlock=0;turnflags=-;split=-;end=-;cut=-",
    # Brazilian, seat 0's side has taken its packet (h0) and has no clean burraco; in the meld
    # phase its hand is the one card 9c (the rest moved to the stock): discarding it would close
    # without a clean burraco, and C.7 forbids every move that would leave this hand.
    "brazilian one card it may not discard":
        "v=1;rules=brazilian;seed=0;first=0;scores=0,0;turn=0;phase=meld;"
        "hands=9c/Ac7cJcQc2d5d6d7d8d6h4s/Tc/2c6c6c7c9c9dTdJd2h7h9h9hJh2s6sQsKsJk;"
        "known=-/7c2d5d6d7d8d6h/Tc/2c6c6c7c9c9dTdJd2h7h9h9hJh2s6sJk;"
        "stock=5sJc3hKc2cQc2d3d4d9dQd4hKh7sJs;pile=3c4c7hTh9s;top=9s;"
        "melds=TdJk(=Jd)QdKdAd+8c8c8d8h8s+4d5d6d7d+7s2h(=8s)9sTsJsQs+8h2s(=9h)ThJhQhKhAh+3d3h3s"
        "3s+AcAdAhAs+4c4h4s+5c5c5h5h5s+KcKdJk(=K)/-;"
        "pozzetti=h0:-/u:6h6s8sJdTcAsQhTsJkKs3c;hold=-;opened=1,0;need=65,305;deadlock=0;"
        "turnflags=-;split=-;end=-;cut=-",
    # Threshold 2 and one stock card, in mid hand, with no last-turn flag and sides not opened:
    # a draw that leaves the stock at the threshold makes the last turn (D.2), so the stock
    # cannot be below it while the hand goes on without `l` (stock cards moved to the pile).
    "stock below the threshold, no last turn":
        "v=1;rules=brazilian:stock_end_threshold=2;seed=3;first=0;scores=0,0;turn=1;phase=draw;"
        "hands=3c3cTc5d6h6hTh2s7sJsQs/7c7c9cAd2d8d4s5s9sQsJk/4c6c8c8c9cQcKcKd7hKsJk/2cJc3d5d6dTd"
        "2hJh5s7sJs;known=6h6h2s/-/-/2cJcJh;stock=9h;pile=AcAc4c5c5cTcJcQcKcAd2d3d4d6d7d7d8d9d9d"
        "TdJdJdQd2h3h4h9hJhQhKhAs2s3s4s6s6s9sTsTsKsJk;top=Jd;melds=-/-;"
        "pozzetti=u:8sQh4hAs8hJk3s5h4dQdTh/u:8h3h5h6c8s7h2cAhAhKhKd;hold=-;opened=0,0;"
        "need=65,65;deadlock=0;turnflags=-;split=-;end=-;cut=-",
    # Three players after seat 1 took packet 0 (split=1: seats 0 and 2 are side 3, with melds in
    # slot 3); `split` erased: the pair's melds would score for nobody. The reference refuses it.
    "three players, split erased":
        "v=1;rules=italian-3p;seed=0;first=0;scores=0,0,0;turn=2;phase=draw;"
        "hands=Qc4d6d5h8h/-/5cJc3hJs;known=Qc4d6d5h8h/-/5c;stock=3cJkQsQd5sJc3hKc;pile=QcQs;"
        "top=Qs;melds=-/AdAhAh2d(=A)@2+8c8d8d8h8s@3+4c4h4s2h(=4)@4+JdJhJhJk(=J)@5+KcKdKdKhKs@9"
        "+6c6c6d@10+5d5d5h@11/-/3c3d3s3s@0+7c7c7d7d7h7h2s(=7)@1+9c9c9d9h9s9s2h(=9)@6+2s(=3s)4s"
        "5s6s7s@7+AcAdAs2c(=A)@8+TdTdThTsJk(=T)@12;"
        "pozzetti=f1:Tc8cAcKs6h9h6h6s8sJdTcAsKhQh3dTs2dJk/u:4c5cQhQdTh4h7s9d4d2cJs;hold=-;"
        "opened=0,0,0,0;need=0,0,0,0;deadlock=0;turnflags=-;split=-;end=-;cut=-",
}


@pytest.mark.parametrize("name", list(UNREACHABLE))
def test_unreachable_positions_are_refused(worker, name):
    """The validator (docs/game.md "Invariants") refuses each: InvalidStateError from both engines, also
    through a record's ``start`` and a view's ``state``."""
    state = UNREACHABLE[name]
    answer = worker.call({"op": "parse", "kind": "state", "input": state})
    assert answer["answers"] == {"core": "InvalidStateError", "reference": "InvalidStateError"}
    fields = dict(pair.split("=", 1) for pair in state.split(";"))
    record = {"format": "burraco-record", "version": 1, "rules": fields["rules"],
              "first": int(fields["first"]),
              "scores": [int(n) for n in fields["scores"].split(",")],
              "seed": None, "deck": None, "start": state, "moves": [], "result": None}
    answer = worker.call({"op": "parse", "kind": "record", "input": record})
    assert answer["answers"] == {"core": "InvalidStateError", "reference": "InvalidStateError"}


def test_regressions_hold_the_issue_examples():
    """The examples above are in the regressions file too (the deep checks replay them)."""
    kept = {entry["input"] for entry in regression_lines() if entry["kind"] == "state"}
    assert set(UNREACHABLE.values()) <= kept


@pytest.mark.parametrize("kind", ["record", "json"])
def test_a_leading_bom_is_ignored(worker, kind):
    """strict parsing, docs/records.md: a record or a view whose text starts with a UTF-8 BOM is read as without it
    (the deep checks accept a refusal, so this is asserted here)."""
    _, record, view = fuzzing.engine_made("italian-3p", 11, 70)
    text = record if kind == "record" else view
    for value in (text, "\ufeff" + text):
        answer = worker.call({"op": "check", "kind": kind, "input": value, "seed": 1})
        assert answer["verdict"] == "accepted" and not answer["problems"], (value[:80], answer)
