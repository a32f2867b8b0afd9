"""Policies as values and Python policies, on both engines (docs/native.md "Python policies").

* ``Policy(x)``: the built-in names, ``'module:attribute'``, a Python callable, a Policy; its
  properties, repr, equality, hash and pickling; construction errors quote the input; a policy
  capsule of another interface version (or any capsule, in the reference) is refused.
* ``RandomStream``: SplitMix64's published outputs, Lemire's bounded draw, and the state each call
  gets: one ``next()`` of the loop's xoshiro256** generator.
* ``PolicyView``: every field equals the observation of the seat to act, read from outside.
* A Python policy, random (through ``view.random``) or deterministic (reading the view's fields),
  makes the same choices in both engines: moves, state strings, game records and ``playouts()``
  rows, over several presets and seeds; the views it is shown are equal field by field.
* A policy that fails (an index out of range, a bool, a float or a str answer, a huge int, an
  exception) raises PolicyError naming it, with the loop's prefix and the cause, and changes
  nothing: the state string and the moves stay.
"""

from __future__ import annotations

import copy
import ctypes
import datetime
import pickle

import numpy as np
import pytest

import burraco
from burraco import reference
from burraco.reference import game as reference_game
from burraco.reference.rng import Xoshiro256StarStar

# The presets of the differential runs: two, three and four players, with and without a brazilian
# opening minimum.
PRESETS = ("italian-2p", "italian", "italian-3p", "brazilian", "online-2p")


# ---- the policies under test (module level: importable as 'module:attribute', picklable) ------


def uniform(view, moves):
    """Uniform over the candidates, drawn from the call's stream."""
    return view.random.below(len(moves))


def _points(view, cards):
    return sum(view.rules.card_points(card) for card in cards)


def reader(view, moves):
    """A deterministic policy that reads most of the view: each move gets a score from the hand,
    the table, the pile, the other hands and the opening state; the best score wins, the first of
    equal ones. Exact integer arithmetic only, so both engines must agree."""
    hand = view.hand
    own = view.melds(view.side)
    longest = max((len(meld.cards) for meld in own), default=0)
    others = sum(size for seat, size in enumerate(view.hand_sizes) if seat != view.seat)
    known = sum(len(cards) for seat, cards in enumerate(view.known) if seat != view.seat)
    seen = sum(1 for status, _owner, _size, cards in view.pozzetti if cards is not None)
    need = view.need[view.side]
    opened = view.opened[view.side]

    def score(move):
        kind = move.kind
        if kind == "pile":
            pile = view.discard_pile
            top = view.top
            matches = sum(1 for card in hand if top is not None and card.rank == top.rank)
            return 3 * matches + len(pile) - (view.stock_size % 5) + seen
        if kind in ("draw", "keep"):
            return 2 + (others + known) % 3
        if kind == "reject":
            return 1
        if kind == "meld":
            value = _points(view, move.cards)
            return 50 + 4 * len(move.cards) + value % 7 + (need // 10 if not opened else 0)
        card = list(move.cards)[0]  # an add or a discard: its one card
        if kind == "add":
            target = own[move.index]
            return 30 + len(target.cards) + (longest - len(target.cards)) % 2 - card.is_wild
        # discard: the card worth most, a wild last; the scores and sides break nothing here
        base = -100 if card.is_wild else view.rules.card_points(card)
        return base + (sum(view.scores) + sum(view.sides)) % 2

    best, best_score = 0, None
    for position, move in enumerate(moves):
        value = score(move)
        if best_score is None or value > best_score:
            best, best_score = position, value
    return best


def first(view, moves):
    """Always the first candidate."""
    return 0


class Answer:
    """A policy that answers a fixed value (or raises it, when it is an exception), whatever the
    position; it keeps the number of moves it was offered last."""

    def __init__(self, value):
        self.value = value
        self.offered = None

    def __call__(self, view, moves):
        self.offered = len(moves)
        if isinstance(self.value, BaseException):
            raise self.value
        return self.value


class Index:
    """An answer that is not an int but has ``__index__`` (as numpy's integers do)."""

    def __init__(self, value):
        self.value = value

    def __index__(self):
        return self.value


# ---- Policy: construction, properties, value semantics -------------------------------------------


@pytest.mark.parametrize("name", ["random", "greedy"])
def test_built_in_policies(engine, name):
    policy = engine.Policy(name)
    assert (policy.name, policy.kind, policy.spec, policy.source) == (name, "builtin", name, None)
    assert repr(policy) == f"Policy('{name}')"
    assert policy == name and policy == engine.Policy(name) and hash(policy) == hash(name)
    assert policy != ("greedy" if name == "random" else "random")
    assert pickle.loads(pickle.dumps(policy)) == policy
    assert copy.copy(policy) == policy == copy.deepcopy(policy)


def test_a_callable_is_a_python_policy(engine):
    policy = engine.Policy(uniform)
    assert policy.kind == "python" and policy.spec is None and policy.source is uniform
    assert policy.name == f"{uniform.__module__}.uniform"
    assert repr(policy) == f"Policy({uniform!r})"
    assert policy == engine.Policy(uniform) and hash(policy) == hash(uniform)
    assert policy != engine.Policy(first) and policy != "random"
    assert engine.Policy(policy) == policy
    restored = pickle.loads(pickle.dumps(policy))
    assert restored == policy and restored.source is uniform
    lambda_policy = engine.Policy(lambda view, moves: 0)
    assert lambda_policy.name.endswith("<lambda>")
    instance = Answer(0)
    assert engine.Policy(instance).name == repr(instance)  # no __qualname__: its repr


def test_module_attribute_imports(engine):
    spec = f"{uniform.__module__}:uniform"
    policy = engine.Policy(spec)
    assert (policy.name, policy.kind, policy.spec, policy.source) == (spec, "python", spec, uniform)
    assert repr(policy) == f"Policy('{spec}')"
    assert policy == spec and hash(policy) == hash(spec) and policy != engine.Policy(uniform)
    assert pickle.loads(pickle.dumps(policy)) == policy
    dotted = engine.Policy(f"{Answer.__module__}:Answer.__call__")  # a dotted attribute
    assert dotted.source is Answer.__call__
    # A string argument of a loop is a built-in name only: it never imports.
    game = engine.Game(engine.Rules("italian-2p"), seed=1)
    with pytest.raises(engine.InvalidNotationError, match=repr(spec)):
        game.playout(spec, 0)
    assert game.moves == []


@pytest.mark.parametrize("text", ["best", "Random", "", "module", "a:", ":b", "a:b:c"])
def test_bad_policy_texts_are_quoted(engine, text):
    with pytest.raises(engine.InvalidNotationError) as info:
        engine.Policy(text)
    assert repr(text) in str(info.value)


@pytest.mark.parametrize(("spec", "cause"), [
    ("burraco_no_such_module:policy", ModuleNotFoundError),
    ("math:no_such_attribute", AttributeError),
])
def test_failed_imports_raise_policy_error(engine, spec, cause):
    with pytest.raises(engine.PolicyError) as info:
        engine.Policy(spec)
    assert repr(spec) in str(info.value) and cause.__name__ in str(info.value)
    assert isinstance(info.value.__cause__, cause)


@pytest.mark.parametrize("value", [42, None, 1.5, ["random"], b"greedy"])
def test_non_policies_are_quoted(engine, value):
    with pytest.raises(engine.InvalidNotationError) as info:
        engine.Policy(value)
    assert repr(value) in str(info.value)
    game = engine.Game(engine.Rules("italian-2p"), seed=1)
    with pytest.raises(engine.InvalidNotationError) as info:
        game.policy_move(value, 0)
    assert repr(value) in str(info.value)


def test_an_attribute_that_is_no_policy(engine):
    with pytest.raises(engine.InvalidNotationError) as info:
        engine.Policy("math:pi")
    assert "'math:pi'" in str(info.value) and "3.14159" in str(info.value)


_CAPSULE_NEW = ctypes.PYFUNCTYPE(ctypes.py_object, ctypes.c_void_p, ctypes.c_char_p,
                                 ctypes.c_void_p)(("PyCapsule_New", ctypes.pythonapi))
_POLICY_CAPSULE = b"burraco.policy"  # a constant: alive as long as the module, as a capsule needs


def test_capsules(engine):
    """A capsule of another name is no policy (InvalidNotationError); a policy capsule of another
    interface version is refused by the core, and every native policy by the reference
    (PolicyError)."""
    with pytest.raises(engine.InvalidNotationError, match="not a burraco policy"):
        engine.Policy(datetime.datetime_CAPI)
    descriptor = (ctypes.c_uint32 * 16)(99, 40)  # abi 99: not this interface's version
    capsule = _CAPSULE_NEW(ctypes.addressof(descriptor), _POLICY_CAPSULE, None)
    with pytest.raises(engine.PolicyError) as info:
        engine.Policy(capsule)
    message = str(info.value)
    if engine is reference:
        assert "reference engine runs built-in and Python policies only" in message
    else:
        assert "version 99" in message
    game = engine.Game(engine.Rules("italian-2p"), seed=1)
    with pytest.raises(engine.PolicyError):
        game.playout(capsule, 0)
    assert game.moves == []


# A native policy made with ctypes (burraco/policy.h's burraco_policy, its choose a ctypes
# callback, which takes the GIL when the engine calls it): always the first candidate.
_CHOOSE = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)


class _Descriptor(ctypes.Structure):
    _fields_ = [("abi", ctypes.c_uint32), ("size", ctypes.c_uint32), ("name", ctypes.c_char_p),
                ("choose", _CHOOSE), ("data", ctypes.c_void_p)]


_FIRST_CHOOSE = _CHOOSE(lambda view, random, data: 0)
_FIRST_DESCRIPTOR = _Descriptor(burraco.POLICY_ABI, ctypes.sizeof(_Descriptor), b"ctypes-first",
                                _FIRST_CHOOSE, None)
FIRST_NATIVE = _CAPSULE_NEW(ctypes.addressof(_FIRST_DESCRIPTOR), _POLICY_CAPSULE, None)


def test_native_policies_are_core_only(core, reference):
    native = core.Policy(FIRST_NATIVE)
    assert (native.kind, native.name, native.spec) == ("native", "ctypes-first", None)
    mine = core.Game(core.Rules("italian-2p"), seed=9)
    theirs = reference.Game(reference.Rules("italian-2p"), seed=9)
    mine.playout(native, 4)
    theirs.playout(first, 4)  # the same choices as a Python policy
    assert [str(move) for move in mine.moves] == [str(move) for move in theirs.moves]
    refusal = "reference engine runs built-in and Python policies only"
    for refused in (FIRST_NATIVE, native):
        with pytest.raises(reference.PolicyError, match=refusal):
            reference.Policy(refused)
        with pytest.raises(reference.PolicyError, match=refusal):
            reference.playouts(reference.Rules("italian-2p"), 1, policy=refused)


def test_the_reference_takes_core_policies():
    assert reference.Policy(burraco.Policy("greedy")) == "greedy"
    assert reference.Policy(burraco.Policy("greedy")).kind == "builtin"
    converted = reference.Policy(burraco.Policy(uniform))
    assert converted.kind == "python" and converted.source is uniform
    assert converted.name == burraco.Policy(uniform).name
    spec = f"{uniform.__module__}:uniform"
    assert reference.Policy(burraco.Policy(spec)) == spec
    game = reference.Game(reference.Rules("italian-2p"), seed=4)
    core_game = burraco.Game(burraco.Rules("italian-2p"), seed=4)
    assert (str(game.policy_move(burraco.Policy(reader), 3))
            == str(core_game.policy_move(burraco.Policy(reader), 3)))


def test_policy_is_immutable(engine):
    policy = engine.Policy("greedy")
    with pytest.raises(AttributeError):
        policy.kind = "python"  # type: ignore[misc]
    assert policy.kind == "builtin"


# ---- RandomStream ----------------------------------------------------------------------------


def _bounded(draw, n):
    """Uniform in range(n) from 64-bit draws: the high word of draw() * n, drawn again while the
    low word is below 2**64 mod n (the draws that would make some answers likelier)."""
    while True:
        product = draw() * n
        if product % 2**64 >= 2**64 % n:
            return product >> 64


def test_random_stream_known_values(engine):
    # SplitMix64 from state 0: the published first outputs of Steele, Lea and Flood's generator.
    stream = engine.RandomStream(0)
    assert [stream.next() for _ in range(3)] == [
        0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
    assert stream.state == 3 * 0x9E3779B97F4A7C15 % 2**64
    stream = engine.RandomStream(0)
    stream.next()
    assert stream.below(10) == (0x6E789E6AA1B965F4 * 10) >> 64 == 4
    assert engine.RandomStream(0).below(1) == 0
    stream, twin = engine.RandomStream(12345), engine.RandomStream(12345)
    # 2**63 + 1 rejects almost half the draws: the redraws are exercised.
    for n in (1, 2, 3, 10, 52, 1000, 2**63 + 1, 2**64 - 1) * 4:
        assert stream.below(n) == _bounded(twin.next, n)
        assert stream.state == twin.state


def test_random_stream_rejects(engine):
    for state in (-1, 2**64, 1.0, True, "0"):
        with pytest.raises(ValueError):
            engine.RandomStream(state)
    for n in (0, -3, 2**64, True, 2.0):
        with pytest.raises(ValueError):
            engine.RandomStream(5).below(n)


def test_each_call_gets_one_draw_of_the_loop_generator(engine):
    """The stream of the k-th call of a playout starts at the k-th next() of xoshiro256** seeded
    with the playout's seed (random draws bounded, greedy nothing: a hook draws one next())."""
    states = []

    def recorder(view, moves):
        states.append(view.random.state)
        return 0

    game = engine.Game(engine.Rules("italian-2p"), seed=21)
    game.push("draw")
    game.policy_move(recorder, 77)
    generator = Xoshiro256StarStar(77)
    assert states == [generator.next()]
    states.clear()
    played = game.playout(recorder, 5)
    generator = Xoshiro256StarStar(5)
    assert states == [generator.next() for _ in range(played)]


# ---- PolicyView --------------------------------------------------------------------------------


def _view_fields(view):
    """The view's fields as text, comparable across engines."""
    slots = 4 if view.players == 3 else 2
    return (
        view.seat, view.players, view.phase, view.sides, view.side, str(view.hand),
        view.hand_sizes, tuple(str(cards) for cards in view.known), str(view.discard_pile),
        str(view.top), view.stock_size,
        tuple(tuple(str(meld) for meld in view.melds(side)) for side in range(slots)),
        tuple((status, owner, size, None if cards is None else str(cards))
              for status, owner, size, cards in view.pozzetti),
        view.opened, view.need, view.scores, str(view.observation), view.rules.text,
    )


def _state_fields(game):
    return dict(part.split("=", 1) for part in game.state_string().split(";"))


def test_view_fields_equal_the_observation(engine):
    """Every PolicyView field is what the game shows the seat to act, read from outside."""
    for preset, seed in (("italian-3p", 2), ("brazilian", 3), ("italian", 4)):
        game = engine.Game(engine.Rules(preset), seed=seed)
        seen = []

        def check(view, moves):
            seat = game.turn
            observation = game.observation(seat)
            fields = _state_fields(game)
            assert view.observation == observation
            assert view.seat == seat and view.players == game.players
            assert view.rules == game.rules and view.phase == game.phase
            assert view.sides == tuple(game.side_of(s) for s in range(game.players))
            assert view.side == game.side_of(seat)
            assert view.hand == game.hand(seat)
            assert view.hand_sizes == tuple(len(game.hand(s)) for s in range(game.players))
            assert view.known == tuple(game.known(s) for s in range(game.players))
            assert view.discard_pile == game.discard_pile and view.top == game.top_discard
            assert view.stock_size == game.stock_size
            for side in range(4 if game.players == 3 else 2):
                assert view.melds(side) == game.melds(side)
            assert view.pozzetti == observation.pozzetti
            assert view.opened == tuple(value == "1" for value in fields["opened"].split(","))
            assert view.need == tuple(int(value) for value in fields["need"].split(","))
            assert view.scores == tuple(game.scores)
            assert list(moves) == [move for move in game.legal_moves() if move in moves]
            seen.append(view.sides)
            return view.random.below(len(moves))

        steps = 0
        while not game.is_over() and steps < 400:
            chosen = game.policy_move(check, steps)
            # Greedy's move, one step in two: greedy takes pozzetti (3 players: the pair merges).
            game.push(game.policy_move("greedy") if steps % 2 else chosen)
            steps += 1
        assert len(seen) == steps > 20
        if preset == "italian-3p":  # the pair merged into side 3 at some point
            assert any(3 in sides for sides in seen)


@pytest.mark.parametrize("preset", PRESETS)
def test_observation_sides_opened_need_agree(core, reference, preset):
    core_game = core.Game(core.Rules(preset), seed=5)
    ref_game = reference.Game(reference.Rules(preset), seed=5)
    seen = set()
    for step in range(300):
        for player in range(core_game.players):
            mine, theirs = core_game.observation(player), ref_game.observation(player)
            assert mine.sides == theirs.sides
            assert (mine.opened, mine.need) == (theirs.opened, theirs.need)
            assert len(mine.opened) == len(mine.need) == (4 if core_game.players == 3 else 2)
            seen.add((mine.sides, mine.opened, mine.need))
        if core_game.is_over():
            break
        move = core_game.policy_move("greedy" if step % 2 else "random", step)
        core_game.push(move)
        ref_game.push(str(move))
    if preset == "italian-3p":  # the pair merged
        assert any(3 in sides for sides, _opened, _need in seen)
    if preset == "brazilian":  # a side opened, after needing its minimum
        assert any(any(opened) for _sides, opened, _need in seen)
        assert any(any(need) for _sides, _opened, need in seen)


# ---- the engines agree on Python policies -------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("policy", [uniform, reader], ids=["uniform", "reader"])
def test_engines_play_python_policies_alike(core, reference, preset, policy):
    """The same policy plays the same hand in both engines: every move, the final state string
    and the game record; and the views it is shown are equal field by field."""
    for seed in (1, 2):
        views = {}
        games = {}
        for engine in (core, reference):
            shown = views[engine.__name__] = []

            def recording(view, moves, shown=shown):
                shown.append(_view_fields(view) + (tuple(moves.strings()),))
                return policy(view, moves)

            game = engine.Game(engine.Rules(preset), seed=seed)
            game.push(game.policy_move(recording, 1000 + seed))
            played = game.playout(recording, seed)
            assert played == len(game.moves) - 1 and game.is_over()
            games[engine.__name__] = game
        mine, theirs = games["burraco"], games["burraco.reference"]
        assert [str(move) for move in mine.moves] == [str(move) for move in theirs.moves]
        assert mine.state_string() == theirs.state_string()
        assert mine.record() == theirs.record()
        assert views["burraco"] == views["burraco.reference"]


@pytest.mark.parametrize("preset", ["italian-2p", "italian", "italian-3p"])
def test_engines_play_the_same_match_hands(core, reference, preset):
    """Match.play_hand in both engines: one policy for every seat, then one per seat (four
    players: one per side), the same hands and scores; a failing policy records nothing."""
    matches = {engine: engine.Match(engine.Rules(preset), seed=21) for engine in (core, reference)}
    per_seat = [uniform, "greedy"] if preset != "italian-3p" else [uniform, "greedy", reader]
    for policies in (reader, per_seat):
        hands = {engine: match.play_hand(policies) for engine, match in matches.items()}
        mine, theirs = hands[core], hands[reference]
        assert [str(m) for m in mine.moves] == [str(m) for m in theirs.moves]
        assert mine.record() == theirs.record()
        assert matches[core].scores == matches[reference].scores
    for engine, match in matches.items():
        with pytest.raises(burraco.PolicyError, match="returned 999"):
            match.play_hand(lambda view, moves: 999)
        assert match.hands_played == 2
        with pytest.raises(burraco.InvalidNotationError, match="one policy per seat"):
            match.play_hand(["greedy"] * 5)
    assert matches[core].play(uniform, max_hands=2) == matches[reference].play(uniform, max_hands=2)
    assert matches[core].scores == matches[reference].scores
    assert matches[core].hands_played == matches[reference].hands_played == 4


@pytest.mark.parametrize("preset", ["italian-2p", "italian-3p", "brazilian"])
def test_engines_give_the_same_playouts_rows(core, reference, preset):
    for policy in (uniform, core.Policy(reader)):
        mine = core.playouts(core.Rules(preset), 3, seed=11, policy=policy)
        theirs = reference.playouts(reference.Rules(preset), 3, seed=11,
                                    policy=reference.Policy(policy))
        assert sorted(mine) == sorted(theirs)
        for column in mine:
            assert mine[column].dtype == theirs[column].dtype
            np.testing.assert_array_equal(mine[column], theirs[column])


def test_playouts_rows_are_playouts(engine):
    rules = engine.Rules("italian-2p")
    table = engine.playouts(rules, 2, seed=5, policy=uniform)
    for row, hand_seed in enumerate(table["seed"]):
        game = engine.Game(rules, seed=int(hand_seed))
        assert game.playout(uniform, int(hand_seed)) == table["moves"][row]
        assert tuple(side.total for side in game.result().sides) == tuple(table["scores"][row])


def test_a_constant_policy_plays_a_hand_to_its_end(engine):
    """Always the first candidate: the candidates never trap a policy in a loop (docs/search.md
    "Candidates"), so even this ends the hand."""
    game = engine.Game(engine.Rules("italian-2p"), seed=6)
    assert game.playout(first, 0) == len(game.moves) and game.is_over()


# ---- failures -----------------------------------------------------------------------------------


def _position(engine):
    game = engine.Game(engine.Rules("italian-2p"), seed=3)
    game.push("draw")
    return game


@pytest.mark.parametrize("answer", [99, -1, 10**30, -(10**30)])
def test_an_index_out_of_range(engine, answer):
    game = _position(engine)
    before, moves = game.state_string(), game.moves
    policy = Answer(answer)
    name = engine.Policy(policy).name
    with pytest.raises(engine.PolicyError) as info:
        game.playout(policy, 3)
    count = policy.offered
    assert count > 1
    expected = (f"policy '{name}' returned {answer}: expected the index of one of its {count} "
                f"moves (0 to {count - 1})")
    assert str(info.value) == (f"playout(Policy({policy!r}), 3): {expected} "
                               "(the game is left as it was)")
    assert game.state_string() == before and game.moves == moves
    with pytest.raises(engine.PolicyError) as info:
        game.policy_move(policy, 3)
    assert str(info.value) == f"policy_move(Policy({policy!r})): {expected}"
    with pytest.raises(engine.PolicyError) as info:
        engine.playouts(engine.Rules("italian-2p"), 2, seed=1, policy=policy)
    assert str(info.value).startswith(f"playouts: policy '{name}' returned {answer}: ")
    assert game.state_string() == before and game.moves == moves


def _one_candidate(engine):
    """The first position with a single legal move (a hand of one card that lays off nowhere) met
    by greedy play, one move in three random, from the first of a few fixed deals that has one."""
    for seed in range(20):
        game = engine.Game(engine.Rules("italian-2p"), seed=seed)
        step = 0
        while not game.is_over():
            if len(game.legal_moves()) == 1:
                return game
            game.push(game.policy_move("random" if step % 3 == 0 else "greedy", step))
            step += 1
    raise AssertionError("no position with one legal move")


def test_one_move_out_of_range(engine):
    game = _one_candidate(engine)
    before = game.state_string()
    policy = Answer(1)
    name = engine.Policy(policy).name
    with pytest.raises(engine.PolicyError) as info:
        game.policy_move(policy, 0)
    assert policy.offered == 1
    assert str(info.value) == (f"policy_move(Policy({policy!r})): policy '{name}' returned 1: "
                               "expected the index of one of its 1 move (0)")
    assert game.state_string() == before


@pytest.mark.parametrize("answer", [True, False, 1.0, "0", None, [0]])
def test_answers_that_are_not_ints(engine, answer):
    game = _position(engine)
    before, moves = game.state_string(), game.moves
    policy = Answer(answer)
    name = engine.Policy(policy).name
    with pytest.raises(engine.PolicyError) as info:
        game.playout(policy, 0)
    assert str(info.value).startswith(f"playout(Policy({policy!r}), 0): policy '{name}' raised "
                                      "TypeError: returned ")
    assert repr(answer) in str(info.value)
    assert isinstance(info.value.__cause__, TypeError)
    assert game.state_string() == before and game.moves == moves
    with pytest.raises(engine.PolicyError) as info:
        game.policy_move(policy, 0)
    assert isinstance(info.value.__cause__, TypeError)


@pytest.mark.parametrize("answer", [Index(0), np.int64(0), np.uint8(1)])
def test_index_like_answers_are_accepted(engine, answer):
    game = _position(engine)
    assert game.policy_move(Answer(answer), 0) == game.legal_moves()[int(answer)]


@pytest.mark.parametrize("error", [KeyError("x"), RuntimeError(), ValueError("bad card")])
def test_a_raising_policy(engine, error):
    game = _position(engine)
    before, moves = game.state_string(), game.moves
    policy = Answer(error)
    name = engine.Policy(policy).name
    text = str(error)
    described = f"{type(error).__name__}: {text}" if text else type(error).__name__
    with pytest.raises(engine.PolicyError) as info:
        game.playout(policy, 2)
    assert str(info.value) == (f"playout(Policy({policy!r}), 2): policy '{name}' raised "
                               f"{described} (the game is left as it was)")
    assert info.value.__cause__ is error
    assert game.state_string() == before and game.moves == moves
    with pytest.raises(engine.PolicyError) as info:
        game.policy_move(policy, 2)
    assert str(info.value) == f"policy_move(Policy({policy!r})): policy '{name}' raised {described}"
    assert info.value.__cause__ is error
    with pytest.raises(engine.PolicyError) as info:
        engine.playouts(engine.Rules("italian-2p"), 1, policy=policy)
    assert str(info.value) == f"playouts: policy '{name}' raised {described}"
    assert info.value.__cause__ is error


def test_a_failure_late_in_the_hand_leaves_the_game_as_it_was(engine):
    """A policy that plays for a while, then fails: nothing of what it played is kept."""
    game = _position(engine)
    before, moves = game.state_string(), game.moves
    calls = []

    def tires(view, moves):
        calls.append(1)
        if len(calls) == 40:
            raise KeyError("x")
        return 0

    with pytest.raises(engine.PolicyError, match="raised KeyError: 'x'"):
        game.playout(tires, 0)
    assert len(calls) == 40
    assert game.state_string() == before and game.moves == moves
    named = engine.Policy(tires)
    with pytest.raises(engine.PolicyError) as info:
        calls.clear()
        game.playout(named, 0)
    assert str(info.value).startswith(f"playout({named!r}, 0): policy '{named.name}' raised")


def test_a_policy_that_moves_the_game(engine):
    """A policy may not push on the game it plays: the playout is refused, not recorded."""
    game = _position(engine)

    def meddler(view, moves):
        if game.phase == "meld" and len(game.moves) == 1:
            game.push(moves[0])
        return 0

    with pytest.raises(engine.IllegalMoveError, match="changed while the policy played"):
        game.playout(meddler, 0)
    assert len(game.moves) == 2  # the policy's own push, nothing of the playout


def test_the_move_cap_with_a_python_policy(engine, monkeypatch):
    """A Python policy that never ends the hand stops at the move cap (lowered here) with
    InvalidStateError, and the game is left as it was."""
    if engine is reference:
        monkeypatch.setattr(reference_game, "MAX_HAND_MOVES", 5)
    else:
        previous = burraco._core._set_move_cap(5)
    try:
        game = _position(engine)
        before, moves = game.state_string(), game.moves
        policy = engine.Policy(first)
        with pytest.raises(engine.InvalidStateError) as info:
            game.playout(policy, 0)
        message = str(info.value)
        assert message.startswith(f"playout({policy!r}, 0): the hand is not over after 5 moves")
        assert "MAX_HAND_MOVES" in message and message.endswith(" (the game is left as it was)")
        assert game.state_string() == before and game.moves == moves
        with pytest.raises(engine.InvalidStateError) as info:
            engine.playouts(engine.Rules("italian-2p"), 1, seed=0, policy=policy)
        # Hand 0's seed: the first SplitMix64 output from seed 0.
        assert str(info.value).startswith(
            f"playouts: hand seed {0xE220A8397B1DCDAF}: the hand is not over after 5 moves")
    finally:
        if engine is not reference:
            burraco._core._set_move_cap(previous)


@pytest.mark.parametrize("interrupt", [KeyboardInterrupt(), SystemExit(3)])
def test_an_interrupt_is_no_policy_failure(engine, interrupt):
    """KeyboardInterrupt or SystemExit raised in a policy goes through as it is (it is not a
    failure of the policy, and a PolicyError is a ValueError that a caller may catch); the game
    is left as it was."""
    game = _position(engine)
    before, moves = game.state_string(), game.moves
    with pytest.raises(type(interrupt)) as info:
        game.playout(Answer(interrupt), 0)
    assert info.value is interrupt
    assert game.state_string() == before and game.moves == moves
    with pytest.raises(type(interrupt)):
        game.policy_move(Answer(interrupt), 0)
    with pytest.raises(type(interrupt)):
        engine.playouts(engine.Rules("italian-2p"), 1, policy=Answer(interrupt))
