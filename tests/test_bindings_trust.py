"""What a caller can do to the public objects without being fooled or crashing the interpreter
(issue 10): pickle and copy of every value, ``Game.__eq__``, multiprocessing, objects used before
construction, re-entrant argument conversion, threads sharing one object, and the strict parsers
of records, JSON views, knobs and card lists. Every test runs on both engines where the API is
shared."""

from __future__ import annotations

import copy
import inspect
import io
import json
import multiprocessing
import pickle
import sys
import threading
import time

import numpy as np
import pytest

import burraco
from burraco import reference

ENGINES = {"core": burraco, "reference": reference}
ENGINE_NAMES = tuple(ENGINES)


def same(a, b) -> bool:
    """Same position and history, read through the API (not through Game.__eq__)."""
    return a.state_string() == b.state_string() and \
        [str(m) for m in a.moves] == [str(m) for m in b.moves]


def finished(engine, rules=None, seed: int = 3, policy: str = "random"):
    game = engine.Game(rules if rules is not None else engine.Rules(), seed=seed)
    game.playout(policy, seed + 1)
    return game


def midway(engine, rules=None, seed: int = 5, moves: int = 25):
    """A hand with ``moves`` moves played, not over (move 7k mod the number of legal moves)."""
    game = engine.Game(rules if rules is not None else engine.Rules(), seed=seed)
    for step in range(moves):
        legal = game.legal_moves()
        game.push(legal[(step * 7) % len(legal)])
    assert not game.is_over()
    return game


# ---- pickle and copy ----------------------------------------------------------------------------


def values(engine):
    """One or more of every public value type, with the names of what they are."""
    italian = engine.Rules()
    brazilian = engine.Rules("brazilian", players=2)
    odd = engine.Rules("italian", semi_clean_burraco_bonus=None, pozzetto_sizes=(9, 13),
                       cut_exact_probability=0.25, opening_minimum=((0, 30), (500, 60)))
    game = midway(engine)
    done = finished(engine, brazilian, seed=8, policy="greedy")
    three = finished(engine, engine.Rules("italian-3p"), seed=2)
    return [
        ("Card", engine.Card("Qh")), ("Card", engine.Card("Jk")),
        ("Cards", engine.Cards("5h 5h 6h Jk")), ("Cards", engine.Cards()),
        ("Rules", italian), ("Rules", brazilian), ("Rules", odd),
        ("Meld", engine.Meld("Jk 5d 6d")), ("Meld", engine.Meld("Kd Ks 2c")),
        ("Meld", engine.Meld.from_layout("2h 3h 4h", brazilian)),
        ("Melds", engine.Melds(["Jk(=4d) 5d 6d", "Kd Ks Kc"])), ("Melds", engine.Melds()),
        ("Move", engine.Move("draw")), ("Move", engine.Move("add 1 7c")),
        ("Move", engine.Move("meld 5h 6h 7h")),
        ("Result", done.result()), ("Result", three.result()),
        ("SideResult", done.result().sides[1]),
        ("Observation", game.observation(0)), ("Observation", game.observation(1)),
        ("Observation", three.observation(2)), ("Observation", done.observation(0)),
        ("Game", engine.Game(seed=1)), ("Game", game), ("Game", done), ("Game", three),
        ("Game", engine.Game.from_state_string(game.state_string())),
        ("Game", game.determinize(1, 7)),
    ]


@pytest.mark.parametrize("name", ENGINE_NAMES)
def test_every_value_pickles_and_copies_to_an_equal_value(name):
    engine = ENGINES[name]
    seen = set()
    for kind, value in values(engine):
        seen.add(kind)
        assert type(value).__name__ == kind
        for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
            back = pickle.loads(pickle.dumps(value, protocol))
            assert type(back) is type(value)
            assert back == value, (kind, protocol)
            assert repr(back) == repr(value)
        for clone in (copy.copy(value), copy.deepcopy(value)):
            assert type(clone) is type(value) and clone == value and repr(clone) == repr(value)
    assert seen == {"Card", "Cards", "Rules", "Meld", "Melds", "Move", "Result", "SideResult",
                    "Observation", "Game"}


@pytest.mark.parametrize("name", ENGINE_NAMES)
def test_an_unpickled_game_keeps_its_history(name):
    engine = ENGINES[name]
    for game in (midway(engine, moves=40), finished(engine, seed=11),
                 finished(engine, engine.Rules("brazilian"), seed=4, policy="greedy")):
        back = pickle.loads(pickle.dumps(game))
        assert back.state_string() == game.state_string()
        assert [str(m) for m in back.moves] == [str(m) for m in game.moves]
        assert back.record() == game.record()
        assert back.seed == game.seed
        # pop() undoes the same moves to the same positions
        for _ in range(min(12, len(game.moves))):
            assert str(back.pop()) == str(game.pop())
            assert back.state_string() == game.state_string()
            assert back == game
        # and the unpickled game plays on
        if not back.is_over():
            back.push(back.legal_moves()[0])
            assert back != game


def _tampered(arguments: tuple) -> list[tuple]:
    """The arguments of a restore function, each one in turn replaced by what a hand-made pickle
    could hold instead: None, a number, another type, a truncated or altered text, a huge list."""
    out = []
    for k, value in enumerate(arguments):
        if isinstance(value, type):
            continue  # the class to rebuild: pickled by reference, never data
        swaps = [None, 7, True, 2**70, b"x", ["draw"] * 3, {"players": 9}, "\udc80", -1]
        if isinstance(value, str):
            swaps += [value[: len(value) // 2], value + " Jk", value.replace("0", "9")]
        if isinstance(value, list):
            swaps += [value + ["draw"], value[:-1], [7] * len(value), ["pile"] * 1000]
        out += [arguments[:k] + (swap,) + arguments[k + 1:] for swap in swaps]
    return out


@pytest.mark.parametrize("name", ENGINE_NAMES)
def test_a_tampered_pickle_raises_a_clear_error_and_makes_nothing(name):
    """Every value's restore function (what __reduce__ names: burraco/_pickle.py for both
    engines, or the class itself) refuses data no pickle of it holds with the engine's error or a
    TypeError, never another exception, and never returns a value that is not the original."""
    engine = ENGINES[name]
    checked = 0
    for kind, value in values(engine):
        reduced = value.__reduce__()
        assert len(reduced) == 2, kind  # rebuilt by its restore function alone, no state after
        restore, arguments = reduced
        assert restore(*arguments) == value, kind
        for tampered in _tampered(tuple(arguments)):
            try:
                back = restore(*tampered)
            except (burraco.BurracoError, TypeError, ValueError, KeyError):
                checked += 1
                continue
            # Accepted: then it is a value of the kind asked for, made through the constructors.
            assert type(back).__name__ == kind, (kind, tampered)
    assert checked > 200


@pytest.mark.parametrize("name", ENGINE_NAMES)
def test_a_game_from_a_state_string_pickles(name):
    engine = ENGINES[name]
    source = midway(engine, moves=30)
    game = engine.Game.from_state_string(source.state_string())
    game.push(game.legal_moves()[-1])
    back = pickle.loads(pickle.dumps(game))
    assert back == game and len(back.moves) == 1
    back.pop()
    assert back.state_string() == source.state_string() and back.moves == []


@pytest.mark.parametrize("name", ENGINE_NAMES)
def test_game_copies_are_independent(name):
    engine = ENGINES[name]
    game = midway(engine, moves=10)
    for clone in (copy.copy(game), copy.deepcopy(game), game.copy(),
                  pickle.loads(pickle.dumps(game))):
        before = game.state_string()
        clone.push(clone.legal_moves()[0])
        assert game.state_string() == before and clone != game
        clone.pop()
        assert clone == game


@pytest.mark.parametrize("name", ENGINE_NAMES)
def test_match_pickles_and_copies(name):
    engine = ENGINES[name]
    match = engine.Match(engine.Rules("italian-2p"), seed=9)
    for _ in range(2):
        hand = match.new_game()
        hand.playout("greedy", 1)
        match.record(hand)
    for clone in (pickle.loads(pickle.dumps(match)), copy.copy(match), copy.deepcopy(match)):
        assert clone.rules == match.rules and clone.seed == match.seed
        assert clone.scores == match.scores and clone.results == match.results
        # the clone deals the hand the original would deal next, and records on its own
        probe = copy.deepcopy(match)
        assert clone.new_game().state_string() == probe.new_game().state_string()
        hand = clone.new_game()
        hand.playout("greedy", 2)
        clone.record(hand)
        assert len(match.results) == 2 and len(clone.results) == 3


def _play_out(game):
    """A multiprocessing worker: the game played to its end (returned through pickle)."""
    game.playout("random", 17)
    return game


@pytest.mark.parametrize("name", ENGINE_NAMES)
def test_multiprocessing_pool_maps_over_games(name):
    engine = ENGINES[name]
    games = [midway(engine, seed=seed, moves=6) for seed in range(4)]
    with multiprocessing.Pool(2) as pool:
        results = pool.map(_play_out, games)
    for game, result in zip(games, results):
        expected = _play_out(game.copy())
        assert result == expected
        assert result.result() == expected.result()
        assert [str(m) for m in result.moves[:6]] == [str(m) for m in game.moves]


# ---- Game.__eq__ --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ENGINE_NAMES)
def test_game_equality_is_position_and_history(name):
    engine = ENGINES[name]
    game = midway(engine, moves=12)
    assert game == game.copy() and not game != game.copy()
    twin = engine.Game(engine.Rules(), seed=5)
    for move in game.moves:
        twin.push(str(move))
    assert twin == game
    # the same position without the history is another game, as in chess.Board
    bare = engine.Game.from_state_string(game.state_string())
    assert bare.state_string() == game.state_string() and bare != game
    assert game != engine.Game(engine.Rules(), seed=6)
    assert game != game.state_string() and game != 0
    assert engine.Game.__hash__ is None
    with pytest.raises(TypeError):
        hash(game)


# ---- objects never initialized ------------------------------------------------------------------

_SKIP = {"__class__", "__new__", "__init__", "__getattr__", "__init_subclass__", "__subclasshook__",
         "__getattribute__", "__setattr__", "__delattr__", "__dir__", "__format__", "__sizeof__",
         "__reduce_ex__", "__doc__", "__module__", "__dict__", "__weakref__", "__getstate__",
         "__setstate__", "__slots__", "__annotations__", "__dataclass_fields__",
         "__dataclass_params__", "__match_args__", "__hash__", "__eq__", "__ne__", "__lt__",
         "__le__", "__gt__", "__ge__", "__str__", "_pybind11_conduit_v1_", "PRESETS",
         "__abstractmethods__", "__orig_bases__", "__parameters__", "__firstlineno__",
         "__static_attributes__"}

_ARGUMENTS = [(), (0,), (0, 0), ("draw",), (0, 0, 0)]


def _classes(engine):
    names = ["Card", "Cards", "Rules", "Meld", "Melds", "Move", "Game", "ISMCTS", "Observation",
             "Result", "SideResult", "MoveList"]
    return [getattr(engine, n) for n in names if hasattr(engine, n)]


# Both engines: the reference's public classes turn a read of a field __init__ never set into the
# same TypeError (reference/_blank.py); Card, Move and MoveList cannot be made without arguments.
UNINITIALIZED_ENGINES = ["core", "reference"]


@pytest.mark.parametrize("name", UNINITIALIZED_ENGINES)
def test_every_method_of_an_uninitialized_object_raises_type_error(name):
    engine = ENGINES[name]
    checked = 0
    for cls in _classes(engine):
        try:
            obj = cls.__new__(cls)
        except TypeError as error:  # no uninitialized object can be made at all: as good
            assert cls.__name__ in str(error)
            checked += 1
            continue
        for attr in sorted(dir(cls)):
            if attr in _SKIP or (attr.startswith("_") and not attr.startswith("__")):
                continue  # private helpers (the reference's) are not the API
            static = inspect.getattr_static(cls, attr)
            if isinstance(static, (staticmethod, classmethod)) or inspect.isclass(static):
                continue
            if getattr(static, "__self__", None) is cls:  # a pybind11 static or class method
                continue
            try:
                bound = getattr(obj, attr)
            except TypeError as error:  # a property
                assert cls.__name__ in str(error), (cls, attr, error)
                checked += 1
                continue
            assert callable(bound), (cls, attr, bound)
            for arguments in _ARGUMENTS:
                try:
                    bound(*arguments)
                except TypeError as error:
                    if cls.__name__ in str(error) and "initialized" in str(error):
                        checked += 1
                        break
                else:
                    pytest.fail(f"{cls.__name__}.{attr}{arguments} worked on an uninitialized "
                                f"object")
            else:
                pytest.fail(f"{cls.__name__}.{attr} never said the object is uninitialized")
    assert checked > 100


@pytest.mark.parametrize("name", UNINITIALIZED_ENGINES)
def test_uninitialized_objects_are_refused_as_arguments(name):
    engine = ENGINES[name]

    def blank(cls):
        return cls.__new__(cls)  # a TypeError here (no such object can be made) is as good

    calls = [
        lambda: engine.Game(blank(engine.Rules), seed=1),
        lambda: engine.Meld("5h 6h 7h", blank(engine.Rules)),
        lambda: engine.Cards([blank(engine.Card)]),
        lambda: engine.Game(seed=1).push(blank(engine.Move)),
        lambda: engine.perft(blank(engine.Game), 1),
        lambda: pickle.dumps(blank(engine.Game)),
        lambda: copy.copy(blank(engine.Game)),
        lambda: blank(engine.Game).pop(),
        lambda: blank(engine.Game).turn,
        lambda: blank(engine.Game).record(),
    ]
    if hasattr(engine, "ISMCTS"):  # the reference has no search
        calls.append(lambda: engine.ISMCTS(iterations=5).choose(blank(engine.Game)))
    for call in calls:
        with pytest.raises(TypeError, match=r"initialized|__new__"):
            call()


def test_pybind11_base_and_unpicklable_classes_raise_instead_of_aborting():
    with pytest.raises(TypeError):
        burraco.Game.__base__()
    game = burraco.Game(seed=1)
    for value in (game.legal_moves(), burraco.ISMCTS(iterations=3)):
        for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
            with pytest.raises(TypeError, match="cannot pickle"):
                pickle.dumps(value, protocol)
        with pytest.raises(TypeError, match="cannot pickle"):
            value.__reduce__()


# ---- argument conversion before the engine reads its state --------------------------------------


class Sneaky:
    """An index whose __index__ plays a move on the game first."""

    def __init__(self, game, value: int = 0):
        self.game, self.value, self.calls = game, value, 0

    def __index__(self):
        self.calls += 1
        self.game.push(self.game.legal_moves()[0])
        return self.value


@pytest.mark.parametrize("name", ENGINE_NAMES)
def test_push_index_converts_its_argument_before_reading_the_moves(name):
    engine = ENGINES[name]
    game = engine.Game(seed=4)
    game.push("draw")
    before = len(game.moves)
    sneaky = Sneaky(game, 1)
    game.push_index(sneaky)
    assert sneaky.calls == 1
    assert len(game.moves) == before + 2  # the __index__ move, then index 1 of the new list
    check = engine.Game(seed=4)
    check.push("draw")
    check.push(check.legal_moves()[0])
    check.push(check.legal_moves()[1])
    assert game == check
    # an index past the list of the position after conversion is refused, nothing played
    far = Sneaky(game, 10_000)
    with pytest.raises(burraco.IllegalMoveError):
        game.push_index(far)
    assert len(game.moves) == before + 3


# ---- threads ------------------------------------------------------------------------------------


@pytest.fixture
def fast_switching():
    previous = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(previous)


def _threads(targets):
    errors = []

    def wrap(target):
        def run():
            try:
                target()
            except BaseException as error:  # noqa: BLE001 - reported below
                errors.append(error)
        return run

    threads = [threading.Thread(target=wrap(t)) for t in targets]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]


@pytest.mark.parametrize("name", ENGINE_NAMES)
def test_views_under_concurrent_moves_are_consistent_and_leak_nothing(name, fast_switching):
    engine = ENGINES[name]
    game = engine.Game(engine.Rules("italian-2p"), seed=21)
    # Each reader runs for at least two seconds and until it has checked enough views; the
    # counts, not the clock, end the test, so a slow machine takes longer instead of failing.
    # The hard limit only turns a reader that can never get its views into a failure.
    soft = time.monotonic() + 2.0
    hard = time.monotonic() + 120.0
    wanted = {"player": 40, "acting": 10, "whole": 20}
    checked = {"player": 0, "acting": 0, "whole": 0}
    per_seat = [{"player": 0, "acting": 0} for _ in range(2)]
    readers_left = [4]
    lock = threading.Lock()

    def keep_going(enough):
        now = time.monotonic()
        return now < hard and (now < soft or not enough())

    def reader_done():
        with lock:
            readers_left[0] -= 1

    def mover():
        step = 0
        while time.monotonic() < hard and (time.monotonic() < soft or readers_left[0] > 0):
            if game.is_over() or len(game.moves) > 300:
                while game.moves:  # back to the deal, and play again
                    game.pop()
            legal = game.legal_moves()
            try:
                game.push_index((step * 7) % len(legal))
            except burraco.IllegalMoveError:  # the position changed since legal_moves()
                pass
            step += 1

    def player_views(seat):
        mine = per_seat[seat]

        def enough():
            return (mine["player"] >= wanted["player"] // 2
                    and mine["acting"] >= wanted["acting"] // 2)

        def run():
            try:
                while keep_going(enough):
                    check()
            finally:
                reader_done()

        def check():
            view = json.loads(game.to_json(player=seat))
            own = engine.Cards(view["seats"][seat]["hand"])
            assert view["player"] == seat
            if view["legal_moves"] is not None:
                assert view["turn"] == seat and view["phase"] != "over"
                for text in view["legal_moves"]:
                    # every card a move plays comes from the seat's own hand
                    cards = engine.Move(text).cards
                    assert cards <= own, (seat, text, view["seats"][seat]["hand"])
                with lock:
                    checked["acting"] += 1
                    mine["acting"] += 1
            else:
                assert view["turn"] != seat or view["phase"] == "over"
            with lock:
                checked["player"] += 1
                mine["player"] += 1
        return run

    whole_per_reader = wanted["whole"] // 2

    def whole_views():
        done = [0]
        try:
            while keep_going(lambda: done[0] >= whole_per_reader):
                check_whole()
                done[0] += 1
        finally:
            reader_done()

    def check_whole():
        text = game.to_json()
        back = engine.Game.from_json(text)
        assert back.state_string() == json.loads(text)["state"]
        record = game.record()
        replayed = engine.Game.from_record(record)
        assert [str(m) for m in replayed.moves] == record["moves"]
        with lock:
            checked["whole"] += 1

    _threads([mover, player_views(0), player_views(1), whole_views, whole_views])
    assert all(checked[k] >= wanted[k] for k in wanted), (checked, wanted)


@pytest.mark.parametrize("name", ENGINE_NAMES)
def test_match_calls_are_atomic(name, fast_switching):
    engine = ENGINES[name]
    rules = engine.Rules("italian-2p")
    shared = engine.Match(rules, seed=5)
    dealt = []

    def deal():
        for _ in range(1000):
            dealt.append(shared.new_game().seed)

    _threads([deal] * 4)
    sequential = engine.Match(rules, seed=5)
    expected = [sequential.new_game().seed for _ in range(4000)]
    assert sorted(dealt) == sorted(expected)


def test_core_match_deals_each_hand_once_when_threads_race(monkeypatch):
    """The race of new_game made wide (the seed stream step yields the GIL mid-way): with the
    match's lock every hand is dealt once, in the order of the seed stream."""
    from burraco import _match

    stream = _match.RandomStream

    class SlowStream(stream):
        __slots__ = ()

        def next(self):
            time.sleep(0.0005)  # another thread runs here
            return super().next()

    monkeypatch.setattr(_match, "RandomStream", SlowStream)
    shared = burraco.Match(burraco.Rules("italian-2p"), seed=11)
    dealt = []

    def deal():
        for _ in range(15):
            dealt.append(shared.new_game().seed)

    _threads([deal] * 4)
    monkeypatch.setattr(_match, "RandomStream", stream)
    sequential = burraco.Match(burraco.Rules("italian-2p"), seed=11)
    assert sorted(dealt) == sorted(sequential.new_game().seed for _ in range(60))


@pytest.mark.parametrize("name", ENGINE_NAMES)
def test_perft_reads_a_snapshot(name, fast_switching):
    engine = ENGINES[name]
    game = engine.Game(engine.Rules("italian-2p"), seed=2)
    game.push("draw")
    after = game.copy()
    after.push(after.legal_moves()[0])
    possible = {engine.perft(game.copy(), 2), engine.perft(after, 2)}
    counts = []

    def mover():
        while len(counts) < 30:
            game.push(game.legal_moves()[0])
            game.pop()

    def counter():
        while len(counts) < 30:
            counts.append(engine.perft(game, 2))

    _threads([mover, counter])
    assert set(counts) <= possible


# ---- strict parsers -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", ENGINE_NAMES)
def test_record_int_fields_refuse_bools_and_floats(name):
    engine = ENGINES[name]
    game = finished(engine, seed=6)
    record = game.record()
    assert same(engine.Game.from_record(record), game)
    bad = [("first", True), ("first", 0.0), ("scores", [0.0, 0]), ("scores", [False, 0]),
           ("seed", float(record["seed"])), ("seed", True), ("version", 1.0), ("version", True)]
    for field, value in bad:
        broken = dict(record, **{field: value})
        with pytest.raises(burraco.InvalidNotationError, match=field):
            engine.Game.from_record(broken)
        with pytest.raises(burraco.InvalidNotationError):
            engine.Game.from_record(json.dumps(broken))
    result = record["result"]
    sides = [dict(side) for side in result["sides"]]
    sides[0]["total"] = float(sides[0]["total"])
    with pytest.raises(burraco.InvalidNotationError, match="total"):
        engine.Game.from_record(dict(record, result=dict(result, sides=sides)))
    sides = [dict(side) for side in result["sides"]]
    sides[1]["side"] = True
    with pytest.raises(burraco.InvalidNotationError, match="side"):
        engine.Game.from_record(dict(record, result=dict(result, sides=sides)))


def _game_with_multi_lay_off(engine):
    """A position where some `add i c1 c2` lay-off sugar is legal, and that sugar."""
    for seed in range(200):
        game = engine.Game(engine.Rules("italian-2p"), seed=seed)
        while not game.is_over() and len(game.moves) < 300:
            adds = [str(m) for m in game.legal_moves() if m.kind == "add"]
            by_meld = {}
            for text in adds:
                _, index, card = text.split()
                by_meld.setdefault(index, []).append(card)
            for index, cards in by_meld.items():
                for i in range(len(cards)):
                    for j in range(len(cards)):
                        if i == j or cards[i] == cards[j]:
                            continue
                        probe = game.copy()
                        try:
                            probe.push(f"add {index} {cards[i]} {cards[j]}")
                        except burraco.BurracoError:
                            continue
                        return game, f"add {index} {cards[i]} {cards[j]}"
            game.push(game.legal_moves()[0] if len(game.moves) % 3 else game.legal_moves()[-1])
    pytest.fail("no position with a two-card lay-off found")


@pytest.mark.parametrize("name", ENGINE_NAMES)
def test_a_record_move_is_one_move(name):
    engine = ENGINES[name]
    game, sugar = _game_with_multi_lay_off(engine)
    record = game.record()
    record["moves"].append(sugar)
    with pytest.raises(burraco.InvalidNotationError, match="several moves"):
        engine.Game.from_record(record)
    line = json.dumps(record)
    with pytest.raises(burraco.InvalidNotationError, match="several moves"):
        list(engine.read_records(io.StringIO(line + "\n")))
    # played move by move, the same lay-offs are a record that round-trips
    game.push(sugar)
    again = engine.Game.from_record(game.record())
    assert same(again, game) and again.record() == game.record()


@pytest.mark.parametrize("name", ENGINE_NAMES)
def test_deep_nesting_is_refused_without_recursion_error(name):
    engine = ENGINES[name]
    game = midway(engine, moves=4)
    deep = "[" * 200_000 + "]" * 200_000
    with pytest.raises(burraco.InvalidNotationError):
        engine.Game.from_json(deep)
    with pytest.raises(burraco.InvalidNotationError):
        engine.Game.from_record(deep)
    with pytest.raises(burraco.InvalidNotationError):
        list(engine.read_records(io.StringIO(deep + "\n")))
    # one level deeper than the format, inside a field
    view = json.loads(game.to_json())
    view["turn"] = [[[[[[[0]]]]]]]
    with pytest.raises(burraco.InvalidNotationError):
        engine.Game.from_json(json.dumps(view))
    record = game.record()
    nested: list = []
    cursor = nested
    for _ in range(100_000):
        cursor.append([])
        cursor = cursor[0]
    with pytest.raises(burraco.InvalidNotationError):
        engine.Game.from_record(dict(record, result=nested))
    with pytest.raises(burraco.InvalidNotationError):
        engine.write_records(io.StringIO(), [dict(record, moves=nested)])


@pytest.mark.parametrize("name", ENGINE_NAMES)
def test_a_leading_byte_order_mark_is_accepted(name, tmp_path):
    engine = ENGINES[name]
    game = finished(engine, seed=2)
    text = game.to_json()
    assert same(engine.Game.from_json("\ufeff" + text), engine.Game.from_json(text))
    assert engine.Game.from_json(("\ufeff" + text).encode("utf-8")).state_string() == \
        game.state_string()
    line = json.dumps(game.record())
    assert same(engine.Game.from_record("\ufeff" + line), game)
    assert same(engine.Game.from_record(line.encode("utf-8-sig")), game)
    path = tmp_path / "bom.jsonl"
    path.write_text(line + "\n" + line + "\n", encoding="utf-8-sig")
    games = [engine.Game.from_record(r) for r in engine.read_records(path)]
    assert len(games) == 2 and all(same(g, game) for g in games)


@pytest.mark.parametrize("name", ENGINE_NAMES)
def test_view_int_fields_refuse_bools_and_floats(name):
    engine = ENGINES[name]
    game = midway(engine, engine.Rules("brazilian", players=2), seed=3, moves=20)
    view = json.loads(game.to_json())
    assert engine.Game.from_json(json.dumps(view)).state_string() == game.state_string()
    changes = [
        ("turn", lambda v: v.update(turn=float(v["turn"]))),
        ("deadlock", lambda v: v.update(deadlock=bool(v["deadlock"]))),
        ("stock_size", lambda v: v.update(stock_size=float(v["stock_size"]))),
        ("hand_size", lambda v: v["seats"][0].update(hand_size=float(v["seats"][0]["hand_size"]))),
        ("opened", lambda v: v["sides"][0].update(opened=int(v["sides"][0]["opened"]))),
        ("need", lambda v: v["sides"][1].update(need=float(v["sides"][1]["need"]))),
        ("player", lambda v: v.update(player=False)),
        ("version", lambda v: v.update(version=True)),
    ]
    for field, change in changes:
        broken = json.loads(json.dumps(view))
        change(broken)
        with pytest.raises(burraco.InvalidNotationError, match=field):
            engine.Game.from_json(json.dumps(broken))


@pytest.mark.parametrize("name", ENGINE_NAMES)
def test_knob_values(name):
    engine = ENGINES[name]
    Rules = engine.Rules
    assert Rules(hand_size=np.int64(9)) == Rules(hand_size=9)
    assert Rules(pozzetto_sizes=(np.int32(9), 13)) == Rules(pozzetto_sizes=(9, 13))
    assert Rules(allow_both_aces_in_run=np.bool_(True)) == Rules(allow_both_aces_in_run=True)
    assert Rules(cut_exact_probability=np.float32(0.5)) == Rules(cut_exact_probability=0.5)
    assert Rules(cut_exact_probability=1) == Rules(cut_exact_probability=1.0)
    for knobs in ({"hand_size": True}, {"hand_size": 9.0}, {"hand_size": "9"},
                  {"pozzetto_sizes": (True, 11)}, {"allow_both_aces_in_run": 1},
                  {"allow_both_aces_in_run": np.int64(1)}, {"allow_both_aces_in_run": "True"},
                  {"cut_exact_probability": True}, {"cut_exact_probability": float("nan")},
                  {"cut_exact_probability": float("inf")}, {"cut_exact_probability": "0.5"},
                  {"cut_exact_probability": np.bool_(False)}):
        with pytest.raises(burraco.InvalidNotationError):
            Rules(**knobs)


@pytest.mark.parametrize("name", ENGINE_NAMES)
def test_game_scores_take_a_tuple_or_list_of_ints(name):
    engine = ENGINES[name]
    assert engine.Game(seed=1, scores=[10, 20]).scores == (10, 20)
    assert engine.Game(seed=1, scores=(10, 20)).scores == (10, 20)
    for scores in ({1: 1, 2: 2}, {1, 2}, "12", (s for s in (1, 2)), (1.0, 2), (True, 0),
                   ("1", 2)):
        with pytest.raises(TypeError):
            engine.Game(seed=1, scores=scores)
    with pytest.raises(burraco.InvalidNotationError):
        engine.Game(seed=1, scores=(1, 2, 3))


@pytest.mark.parametrize("name", ENGINE_NAMES)
@pytest.mark.parametrize("space", ["\u00a0", "\u2003", "\u3000", "\u2028", "\x85"])
def test_non_ascii_white_space_in_card_lists_is_refused(name, space):
    engine = ENGINES[name]
    for make, text in ((engine.Cards, f"5h{space}6h 7h"), (engine.Meld, f"5h 6h{space}7h"),
                       (engine.Move, f"meld 5h{space}6h 7h"), (engine.Move, f"discard{space}5h")):
        with pytest.raises(burraco.InvalidNotationError) as caught:
            make(text)
        assert repr(text) in str(caught.value) or text in str(caught.value)
    assert engine.Cards("5h\t6h,7h \n") == engine.Cards("5h 6h 7h")


@pytest.mark.parametrize("name", ENGINE_NAMES)
def test_meld_is_valid_of_unreadable_text_raises(name):
    engine = ENGINES[name]
    assert engine.Meld.is_valid("Jk(=4d) 5d 6d") is True
    assert engine.Meld.is_valid("5h 6h 8h") is False
    for text in ("Jk(=4d) 5x 6d", "Jk(=4x) 5d 6d", "5h 6x 7h", "Jk(=4d 5d 6d"):
        with pytest.raises(burraco.InvalidNotationError):
            engine.Meld.is_valid(text)


# ---- text that no UTF-8 can hold ------------------------------------------------------------------

_LONE = "\udc80"  # a lone surrogate: a valid str that cannot be encoded, as a decoder's errors= leave


def _texts_with_a_lone_surrogate():
    return [_LONE, "draw" + _LONE, _LONE + " 5h", "italian" + _LONE]


@pytest.mark.parametrize("name", ENGINE_NAMES)
def test_text_with_a_lone_surrogate_is_refused_as_notation(name):
    """Every call that reads a str refuses one it cannot encode with the library's own error,
    quoting it, never pybind11's RuntimeError; the game is left as it was."""
    engine = ENGINES[name]
    game = engine.Game(engine.Rules("italian-2p"), seed=3)
    game.push("draw")
    before = game.state_string()
    calls = {
        "Card": lambda t: engine.Card(t),
        "Cards": lambda t: engine.Cards(t),
        "Cards of a list": lambda t: engine.Cards([t]),
        "Rules": lambda t: engine.Rules(t),
        "Rules.from_text": lambda t: engine.Rules.from_text(t),
        "Rules knob name": lambda t: engine.Rules("italian", **{t: 1}),
        "Meld": lambda t: engine.Meld(t, engine.Rules("italian")),
        "Move": lambda t: engine.Move(t),
        "Game.push": lambda t: game.push(t),
        "Game(deck=)": lambda t: engine.Game(engine.Rules("italian-2p"), deck=t),
        "Game.from_state_string": lambda t: engine.Game.from_state_string(t),
        "Game.from_json": lambda t: engine.Game.from_json(t),
        "Game.from_record": lambda t: engine.Game.from_record(t),
        "Game.policy_move": lambda t: game.policy_move(t, 1),
        "Game.playout": lambda t: game.copy().playout(t, 1),
    }
    if hasattr(engine, "Policy"):
        calls["Policy"] = lambda t: engine.Policy(t)
    checked = 0
    for label, call in calls.items():
        for text in _texts_with_a_lone_surrogate():
            try:
                call(text)
            except engine.BurracoError as error:
                assert "\\udc80" in str(error) or "text" in str(error), (label, text, error)
                str(error).encode("utf-8")  # the message itself is valid text
                checked += 1
            except TypeError:  # an argument of another type altogether: refused as well
                checked += 1
            else:
                pytest.fail(f"{label}({text!r}) was accepted")
            assert game.state_string() == before, label
    assert checked == len(calls) * len(_texts_with_a_lone_surrogate())


def test_a_repr_that_is_not_text_or_raises_still_gives_a_message():
    class NotText:
        def __repr__(self):
            return _LONE

    class Raises:
        def __repr__(self):
            raise ValueError("no repr")

    game = burraco.Game(burraco.Rules("italian-2p"), seed=3)
    for strange in (NotText(), Raises()):
        with pytest.raises(burraco.InvalidNotationError) as caught:
            game.push(strange)
        str(caught.value).encode("utf-8")
    with pytest.raises(burraco.InvalidNotationError, match="whose repr"):
        game.push(Raises())
