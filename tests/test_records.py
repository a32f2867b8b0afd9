"""Game records (docs/records.md): ``game.record()``, ``Game.from_record``, ``write_records`` and
``read_records`` on both engines; a record made by one engine replays to the identical game in the
other; a bad record is refused, quoting the bad part, and gives no game."""

from __future__ import annotations

import copy
import doctest
import io
import json
import pathlib
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from playouts import GAME_RULES, RULES_IDS, make_rules, state_fields

import burraco
from burraco import _records, reference

ENGINES = {"core": burraco, "reference": reference}
OTHER = {"core": "reference", "reference": "core"}


def played(engine, rules_id: str, seed: int, policy: str = "random", first: int = 0,
           scores=None):
    """A whole hand: dealt from ``seed`` and played to its end by ``game.playout``."""
    game = engine.Game(make_rules(engine, rules_id), seed=seed, first_player=first, scores=scores)
    game.playout(policy, seed + 1)
    return game


def history_start(game):
    start = game.copy()
    while start.moves:
        start.pop()
    return start


def assert_identical(replayed, game):
    """Same state string, seed and history, and ``pop()`` walks the same positions back."""
    assert replayed.state_string() == game.state_string()
    assert replayed.seed == game.seed
    assert [str(move) for move in replayed.moves] == [str(move) for move in game.moves]
    replayed, game = replayed.copy(), game.copy()
    while game.moves:
        assert str(replayed.pop()) == str(game.pop())
        assert replayed.state_string() == game.state_string()
    with pytest.raises(IndexError):
        replayed.pop()


# ---- the record itself ----------------------------------------------------------------------------


@pytest.mark.parametrize("rules_id", RULES_IDS)
def test_record_fields(engine, rules_id):
    game = played(engine, rules_id, 3)
    record = game.record()
    assert list(record) == ["format", "version", "rules", "first", "scores", "seed", "deck",
                            "start", "moves", "result"]
    assert record["format"] == "burraco-record" and record["version"] == 1
    assert record["rules"] == state_fields(game.state_string())["rules"]
    assert (record["first"], record["scores"]) == (game.first_player, list(game.scores))
    assert (record["seed"], record["deck"], record["start"]) == (3, None, None)
    assert record["moves"] == [str(move) for move in game.moves]
    result = game.result()
    assert record["result"]["end_reason"] == result.end_reason
    assert record["result"]["closing_side"] == result.closing_side
    assert [side["total"] for side in record["result"]["sides"]] == \
        [side.total for side in result.sides]
    assert json.loads(json.dumps(record)) == record  # JSON-serialisable as it is


def test_record_of_a_hand_in_play_has_no_result(engine):
    game = engine.Game(engine.Rules("italian"), seed=8)
    assert game.record()["result"] is None and game.record()["moves"] == []
    game.push(game.legal_moves()[0])
    record = game.record()
    assert record["result"] is None and len(record["moves"]) == 1
    assert_identical(engine.Game.from_record(record), game)


@pytest.mark.parametrize("knobs", [
    {},
    {"semi_clean_burraco_bonus": None},
    {"opening_minimum": ((0, 50), (1500, 75)), "set_ranks": "KQA"},
    {"players": 2, "cut_exact_probability": 0.5, "stock_end_threshold": 0},
], ids=str)
def test_rules_text_is_the_state_strings(engine, knobs):
    rules = engine.Rules("italian", **knobs)
    game = engine.Game(rules, seed=1)
    text = _records.rules_text(rules, engine.Rules)
    assert text == state_fields(game.state_string())["rules"] == game.record()["rules"]
    assert engine.Game.from_record(game.record()).rules == rules


# ---- replay, in the same engine and in the other -------------------------------------------------


@pytest.mark.parametrize("rules_id", RULES_IDS)
@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_record_replays_to_the_identical_game(engine, rules_id, policy):
    for seed in range(2):
        game = played(engine, rules_id, seed, policy, first=seed % make_rules(engine, rules_id).players)
        record = game.record()
        assert_identical(engine.Game.from_record(record), game)
        assert_identical(engine.Game.from_record(json.dumps(record)), game)
        assert engine.Game.from_record(record).record() == record


@pytest.mark.parametrize("rules_id", RULES_IDS)
@pytest.mark.parametrize("policy", ["random", "greedy"])
@pytest.mark.parametrize("maker", ["core", "reference"])
def test_record_replays_in_the_other_engine(maker, rules_id, policy):
    """Made in one engine, replayed in the other: the same state string after every move."""
    source, target = ENGINES[maker], ENGINES[OTHER[maker]]
    for seed in range(10, 12):
        game = played(source, rules_id, seed, policy)
        record = game.record()
        replay = target.Game(make_rules(target, rules_id), seed=seed)
        for move in record["moves"]:
            replay.push(move)
        replayed = target.Game.from_record(json.dumps(record))
        assert replayed.state_string() == replay.state_string() == game.state_string()
        assert replayed.record() == record
        # every position on the way, compared by undoing both hands move by move
        source_walk, target_walk = game.copy(), replayed.copy()
        while source_walk.moves:
            assert str(source_walk.pop()) == str(target_walk.pop())
            assert source_walk.state_string() == target_walk.state_string()


@pytest.mark.parametrize("rules_id", RULES_IDS)
def test_both_engines_write_the_same_record(rules_id):
    for seed in range(20, 22):
        core = played(burraco, rules_id, seed)
        ref = played(reference, rules_id, seed)
        assert core.record() == ref.record()


def test_a_hand_dealt_from_a_deck_records_its_deck(engine):
    dealt = engine.Game(engine.Rules("italian-2p"), seed=9)
    fields = state_fields(dealt.state_string())
    deck = " ".join(_records._deck_of(dealt).split())
    game = engine.Game(engine.Rules("italian-2p"), deck=deck, first_player=1, scores=(30, -5))
    game.playout("random", 4)
    record = game.record()
    assert record["seed"] is None and record["start"] is None
    assert sorted(record["deck"].split()) == sorted(deck.split())
    assert record["first"] == 1 and record["scores"] == [30, -5]
    assert_identical(engine.Game.from_record(record), game)
    assert fields["seed"] == "9"


@pytest.mark.parametrize("rules_id", ["italian", "brazilian", "italian-3p"])
def test_a_hand_from_a_state_string_records_its_start(engine, rules_id):
    source = played(engine, rules_id, 5)
    middle = source.copy()
    for _ in range(len(source.moves) // 2):
        middle.pop()
    game = engine.Game.from_state_string(middle.state_string())
    start_state = game.state_string()
    game.playout("random", 77)
    record = game.record()
    assert (record["seed"], record["deck"], record["start"]) == (None, None, start_state)
    assert_identical(engine.Game.from_record(record), game)
    assert_identical(ENGINES[OTHER[engine_name(engine)]].Game.from_record(record), game)


def test_a_fresh_deal_read_from_its_state_string_records_its_seed(engine):
    dealt = engine.Game(engine.Rules("brazilian"), seed=12, first_player=2, scores=(1600, 100))
    game = engine.Game.from_state_string(dealt.state_string())
    game.push(game.legal_moves()[0])
    record = game.record()
    assert (record["seed"], record["deck"], record["start"]) == (12, None, None)
    assert_identical(engine.Game.from_record(record), game)


def engine_name(engine) -> str:
    return "core" if engine is burraco else "reference"


@settings(max_examples=25, deadline=None)
@given(rules_index=st.integers(0, len(GAME_RULES) - 1), seed=st.integers(0, 2**64 - 1),
       cut=st.integers(0, 400), engine_index=st.integers(0, 1))
def test_any_prefix_of_any_hand_replays(rules_index, seed, cut, engine_index):
    """Any seed, any prefix of a random hand: the record replays in both engines."""
    rules_id = RULES_IDS[rules_index]
    maker = (burraco, reference)[engine_index]
    game = burraco.Game(make_rules(burraco, rules_id), seed=seed)
    game.playout("random", seed ^ 1)
    while len(game.moves) > cut:
        game.pop()
    record = game.record()
    if maker is reference:
        record = reference.Game.from_record(record).record()
    for engine in (burraco, reference):
        assert_identical(engine.Game.from_record(record), game)


# ---- refusals -------------------------------------------------------------------------------------


def base_record():
    game = burraco.Game(burraco.Rules("italian-2p"), seed=31)
    game.playout("random", 32)
    return game.record()


def tampered(change):
    record = copy.deepcopy(base_record())
    change(record)
    return record


def set_field(name, value):
    return lambda record: record.__setitem__(name, value)


def drop_field(name):
    return lambda record: record.pop(name)


def swap_deck_card(record):
    record["seed"] = None
    deck = _records._deck_of(history_start(burraco.Game.from_record(base_record()))).split()
    deck[deck.index("Jk")] = "5h"
    record["deck"] = " ".join(deck)


def deck_of_other_seed(record):
    record["deck"] = _records._deck_of(burraco.Game(burraco.Rules("italian-2p"), seed=30))


def start_of_other_seed(record):
    record["start"] = burraco.Game(burraco.Rules("italian-2p"), seed=30).state_string()


def start_of_other_first(record):
    record["seed"] = None
    record["start"] = burraco.Game(burraco.Rules("italian-2p"), seed=31,
                                   first_player=1).state_string()


def change_move(number, text):
    def change(record):
        record["moves"][number - 1] = text
    return change


def change_total(record):
    record["result"]["sides"][0]["total"] += 10


E_NOTATION = burraco.InvalidNotationError
E_ILLEGAL = burraco.IllegalMoveError
E_STATE = burraco.InvalidStateError

REFUSALS = [
    ("not-json", lambda: '{"format": "burraco-record", ', E_NOTATION, "not a JSON game record"),
    ("json-list", lambda: "[1, 2]", E_NOTATION, "expected a JSON object"),
    ("not-a-dict", lambda: 42, E_NOTATION, "42"),
    ("format", lambda: tampered(set_field("format", "chess-pgn")), E_NOTATION, "'chess-pgn'"),
    ("version-2", lambda: tampered(set_field("version", 2)), E_NOTATION, "version 2"),
    ("version-str", lambda: tampered(set_field("version", "1")), E_NOTATION, "version '1'"),
    ("missing-moves", lambda: tampered(drop_field("moves")), E_NOTATION, "moves"),
    ("missing-result", lambda: tampered(drop_field("result")), E_NOTATION, "result"),
    ("unknown-field", lambda: tampered(set_field("comment", "hi")), E_NOTATION, "comment"),
    ("rules-type", lambda: tampered(set_field("rules", 4)), E_NOTATION, "rules=4"),
    ("rules-unknown", lambda: tampered(set_field("rules", "canasta")), E_NOTATION, "'canasta'"),
    ("rules-not-canonical", lambda: tampered(set_field("rules", "italian-2p:players=2")),
     E_NOTATION, "'italian-2p:players=2'"),
    ("rules-bad-knob", lambda: tampered(set_field("rules", "italian-2p:colour=red")),
     E_NOTATION, "'colour=red'"),
    ("first-str", lambda: tampered(set_field("first", "0")), E_NOTATION, "first='0'"),
    ("first-seat", lambda: tampered(set_field("first", 5)), E_NOTATION, "first=5"),
    ("scores-type", lambda: tampered(set_field("scores", "0,0")), E_NOTATION, "scores='0,0'"),
    ("scores-count", lambda: tampered(set_field("scores", [0, 0, 0])), E_NOTATION, "[0, 0, 0]"),
    ("seed-str", lambda: tampered(set_field("seed", "31")), E_NOTATION, "seed='31'"),
    ("seed-range", lambda: tampered(set_field("seed", 2**64)), E_NOTATION, str(2**64)),
    ("seed-bool", lambda: tampered(set_field("seed", True)), E_NOTATION, "seed=True"),
    ("no-deal", lambda: tampered(set_field("seed", None)), E_NOTATION, "neither seed"),
    ("deck-type", lambda: tampered(set_field("deck", ["Ac"])), E_NOTATION, "deck=['Ac']"),
    ("start-type", lambda: tampered(set_field("start", 5)), E_NOTATION, "start=5"),
    ("moves-type", lambda: tampered(set_field("moves", "draw")), E_NOTATION, "moves='draw'"),
    ("moves-item-type", lambda: tampered(set_field("moves", ["draw", 3])), E_NOTATION, "3"),
    ("result-type", lambda: tampered(set_field("result", "deadlock")), E_NOTATION, "'deadlock'"),
    ("deck-tampered", lambda: tampered(swap_deck_card), E_STATE, "too many 5h"),
    ("seed-deck-disagree", lambda: tampered(deck_of_other_seed), E_STATE, "disagree"),
    ("seed-start-disagree", lambda: tampered(start_of_other_seed), E_STATE, "disagree"),
    ("start-first-disagree", lambda: tampered(start_of_other_first), E_STATE, "first="),
    ("start-malformed", lambda: tampered(set_field("start", "v=1;rules=italian")), E_STATE,
     "v=1;rules=italian"),
    ("move-notation", lambda: tampered(change_move(3, "dance")), E_NOTATION, "move 3 of"),
    ("move-illegal", lambda: tampered(change_move(1, "meld Ac 2c 3c")), E_ILLEGAL,
     "move 1 of"),
    ("move-after-end", lambda: tampered(lambda r: r["moves"].append("draw")), E_ILLEGAL,
     "already over"),
    ("move-missing", lambda: tampered(lambda r: r["moves"].pop()), E_STATE, "result="),
    ("result-total", lambda: tampered(change_total), E_STATE, "disagrees with the replay"),
    ("result-none", lambda: tampered(set_field("result", None)), E_STATE, "result=None"),
]


@pytest.mark.parametrize(("make", "error", "quoted"),
                         [refusal[1:] for refusal in REFUSALS], ids=[r[0] for r in REFUSALS])
def test_bad_records_are_refused(engine, make, error, quoted):
    with pytest.raises(error) as raised:
        engine.Game.from_record(make())
    assert quoted in str(raised.value)


def test_an_illegal_move_says_which_and_why(engine):
    record = base_record()
    record["moves"][4] = "discard Jk" if "Jk" not in record["moves"][4] else "discard 5h"
    with pytest.raises(burraco.IllegalMoveError, match=r"record move 5 of \d+ \('discard"):
        engine.Game.from_record(record)


def test_the_base_record_is_good(engine):
    assert engine.Game.from_record(base_record()).record() == base_record()


# ---- JSON Lines -----------------------------------------------------------------------------------


def some_records(engine):
    records = []
    for index, rules_id in enumerate(RULES_IDS):
        game = played(engine, rules_id, 40 + index)
        records.append(game.record())
    records.append(engine.Game(engine.Rules(), seed=1).record())  # a hand not yet played
    return records


def test_records_round_trip_through_a_file(engine, tmp_path):
    records = some_records(engine)
    path = tmp_path / "hands.jsonl"
    assert engine.write_records(path, records) == len(records)
    text = path.read_text(encoding="utf-8")
    assert text.count("\n") == len(records) and all(line.startswith('{"format":"burraco-record"')
                                                    for line in text.splitlines())
    assert list(engine.read_records(path)) == records
    assert list(engine.read_records(str(path))) == records
    for line, record in zip(text.splitlines(), records):
        assert engine.Game.from_record(line).record() == record
    for record in engine.read_records(path):
        other = ENGINES[OTHER[engine_name(engine)]]
        assert other.Game.from_record(record).record() == record


def test_records_round_trip_through_an_open_file(engine):
    records = some_records(engine)[:3]
    buffer = io.StringIO()
    assert engine.write_records(buffer, iter(records)) == 3
    buffer.seek(0)
    assert list(engine.read_records(buffer)) == records
    padded = io.StringIO("\n" + buffer.getvalue().replace("\n", "\n\n"))
    assert list(engine.read_records(padded)) == records  # blank lines skipped


def test_read_records_refuses_a_bad_line_by_number(engine):
    good = json.dumps(base_record())
    lines = io.StringIO(f"{good}\n{good}\n{{oops\n")
    reader = engine.read_records(lines)
    assert next(reader) == next(engine.read_records(io.StringIO(good)))
    next(reader)
    with pytest.raises(burraco.InvalidNotationError, match="line 3"):
        next(reader)
    other = json.dumps(dict(base_record(), version=7))
    with pytest.raises(burraco.InvalidNotationError, match="line 1: .*version 7"):
        list(engine.read_records(io.StringIO(other)))


def test_write_records_refuses_what_is_not_a_record(engine, tmp_path):
    with pytest.raises(burraco.InvalidNotationError, match="record 2"):
        engine.write_records(io.StringIO(), [base_record(), {"format": "burraco-record"}])
    with pytest.raises(burraco.InvalidNotationError, match="record 1"):
        engine.write_records(io.StringIO(), [engine.Game(engine.Rules(), seed=1)])


def test_record_names_are_exported():
    for module in (burraco, reference):
        assert {"read_records", "write_records"} <= set(module.__all__)
        for name in ("record", "from_record", "to_json", "from_json"):
            assert getattr(module.Game, name).__doc__


def test_the_examples_of_docs_records_md(engine):
    """docs/records.md's examples, on both engines (``from burraco import`` names the engine)."""
    path = pathlib.Path(__file__).resolve().parent.parent / "docs" / "records.md"
    text = re.sub(r"^```.*$", "", path.read_text(encoding="utf-8"), flags=re.MULTILINE)
    text = text.replace("from burraco import", f"from {engine.__name__} import")
    test = doctest.DocTestParser().get_doctest(text, {}, "records.md", str(path), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    report: list[str] = []
    runner.run(test, out=report.append)
    assert runner.failures == 0, "".join(report)
    assert len(test.examples) >= 10


@pytest.mark.slow
@pytest.mark.parametrize("rules_id", RULES_IDS)
def test_many_records_replay_in_both_engines(rules_id):
    """The bigger run: 40 random and 10 greedy hands per rule set, made by the core, replayed by
    both engines, equal records from the reference's own play."""
    for policy, count in (("random", 40), ("greedy", 10)):
        for seed in range(100, 100 + count):
            game = played(burraco, rules_id, seed, policy)
            record = game.record()
            assert played(reference, rules_id, seed, policy).record() == record
            for engine in (burraco, reference):
                assert_identical(engine.Game.from_record(json.dumps(record)), game)
