"""Policy loops that cannot loop, crash or be fooled (docs/search.md "Candidates", "Move cap",
"Threads"): the built-in policies never return to a position of the turn, every policy loop stops
with InvalidStateError at MAX_HAND_MOVES moves or on a position with no legal move, and ISMCTS
readers never see a tree being built."""

from __future__ import annotations

import contextlib
import sys
import threading

import pytest

import burraco
import burraco.reference as reference
from burraco import _core

ENGINES = [burraco, reference]
ENGINE_IDS = ["core", "reference"]

# A short brazilian opening that cannot raise the requirement: before the candidates rule greedy
# put `meld 2c 5c 5c 5d` down and took it back forever after 90 moves of seed 0; since RULES H-38
# only discards may follow the return, so the repeat is illegal.
RETURNING = {"hand_size": 3, "opening_fail_increment": 0}
# keep/reject once left the last-turn flag unset under these knobs: greedy never ended a hand.
LOOPING = {"pozzetto_sizes": (30, 30), "stock_end_threshold": 10}
# Every hand of this test file is far shorter; the reference's loops are bounded by it too.
BOUND = 5000


@contextlib.contextmanager
def move_cap(engine, cap):
    """The engine's policy loops stop at `cap` moves meanwhile (the core's test hook; the
    reference reads its module constant at each call)."""
    if engine is burraco:
        previous = _core._set_move_cap(cap)
        try:
            yield
        finally:
            _core._set_move_cap(previous)
    else:
        import burraco.reference.game as game_module

        previous = game_module.MAX_HAND_MOVES
        game_module.MAX_HAND_MOVES = cap
        try:
            yield
        finally:
            game_module.MAX_HAND_MOVES = previous


def assert_no_position_repeats_in_a_turn(engine, rules, seed, moves, start=None):
    """Replays `moves` and checks that no position comes back within one turn."""
    game = engine.Game.from_state_string(start) if start else engine.Game(rules, seed=seed)
    seen = {game.state_string()}
    for i, move in enumerate(moves):
        turn = game.turn
        game.push(str(move))
        text = game.state_string()
        if game.turn != turn:
            seen = set()
        assert text not in seen, f"seed {seed}: move {i} ({move}) repeats a position of the turn"
        seen.add(text)
    assert game.is_over()


# ---- the move cap ----------------------------------------------------------------------------


def test_max_hand_moves_is_exported():
    import burraco.reference.game as game_module

    assert burraco.MAX_HAND_MOVES == _core.MAX_HAND_MOVES == game_module.MAX_HAND_MOVES == 100_000
    assert _core._set_move_cap(_core.MAX_HAND_MOVES) == _core.MAX_HAND_MOVES
    for bad in (0, -1, True, 1.5, "10", 10**6):
        with pytest.raises(burraco.InvalidNotationError):
            _core._set_move_cap(bad)
    assert _core._set_move_cap(_core.MAX_HAND_MOVES) == _core.MAX_HAND_MOVES


@pytest.mark.parametrize("engine", ENGINES, ids=ENGINE_IDS)
@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_playout_past_the_cap_raises_and_changes_nothing(engine, policy):
    game = engine.Game(engine.Rules("italian"), seed=3)
    game.push("draw")
    game.push(str(game.legal_moves()[-1]))
    before, moves = game.state_string(), [str(m) for m in game.moves]
    with move_cap(engine, 30):
        with pytest.raises(burraco.InvalidStateError, match="MAX_HAND_MOVES") as caught:
            game.playout(policy, 7)
    message = str(caught.value)
    assert "v=1;rules=italian;" in message  # the state reached is named
    assert game.state_string() == before
    assert [str(m) for m in game.moves] == moves
    assert str(game.pop()) == moves[-1]
    # Without the lowered cap the same call plays the hand to its end.
    game.push(moves[-1])
    played = game.playout(policy, 7)
    assert game.is_over() and 30 < played < 1000


def test_playouts_past_the_cap_raise_the_first_failing_hand_whatever_the_threads():
    rules = burraco.Rules("italian")
    seeds = burraco.playouts(rules, 6, seed=5)["seed"]
    messages = []
    for threads in (1, 2, 3):
        with move_cap(burraco, 40):
            with pytest.raises(burraco.InvalidStateError, match="MAX_HAND_MOVES") as caught:
                burraco.playouts(rules, 6, seed=5, threads=threads)
        messages.append(str(caught.value))
    assert messages[0] == messages[1] == messages[2]
    assert messages[0].startswith(f"playouts: hand seed {int(seeds[0])}: ")
    assert "state 'v=1;rules=italian;" in messages[0]


def test_reference_playouts_past_the_cap_raise():
    with move_cap(reference, 40):
        with pytest.raises(burraco.InvalidStateError, match="MAX_HAND_MOVES"):
            reference.playouts(reference.Rules("italian"), 3, seed=5)


def test_ismcts_rollouts_past_the_cap_raise_unless_cut_earlier():
    game = burraco.Game(burraco.Rules("italian"), seed=0)
    search = burraco.ISMCTS(iterations=5, seed=1)
    with move_cap(burraco, 30):
        with pytest.raises(burraco.InvalidStateError, match="ISMCTS.choose: .*MAX_HAND_MOVES"):
            search.choose(game)
        assert search.root_stats() == [] and search.last_iterations == 0  # no half-built tree
        cut = burraco.ISMCTS(iterations=5, seed=1, max_rollout_moves=20)
        assert cut.choose(game) in game.legal_moves()
        assert cut.last_iterations == 5
    assert search.choose(game) in game.legal_moves()


@pytest.mark.parametrize("engine", ENGINES, ids=ENGINE_IDS)
def test_knobs_that_once_looped_end_or_raise(engine):
    """Greedy hands under LOOPING ended in the reference and never in the core; now every
    policy loop either ends the hand or stops at the cap with InvalidStateError, never hangs."""
    rules = engine.Rules("brazilian", **LOOPING)
    try:
        out = engine.playouts(rules, 1, seed=0, policy="greedy")
    except burraco.InvalidStateError as error:
        assert "MAX_HAND_MOVES" in str(error)
        assert "rules=brazilian:pozzetto_sizes=(30,30):stock_end_threshold=10" in str(error)
    else:
        assert 0 < int(out["moves"][0]) < _core.MAX_HAND_MOVES
    game = engine.Game(rules, seed=0)
    try:
        played = game.playout("greedy")
    except burraco.InvalidStateError:
        assert game.moves == [] and game.state_string() == engine.Game(rules, seed=0).state_string()
    else:
        assert game.is_over() and played == len(game.moves)


# ---- no legal move ---------------------------------------------------------------------------

# Seat 0 to act in the meld phase with an empty hand (its cards moved to the pile): not over, and
# no move is legal. A validator may refuse it when parsing; if it is accepted, no policy loop may
# crash or return a move.
NO_MOVE = (
    "v=1;rules=italian;seed=-;first=0;scores=0,0;turn=0;phase=meld;"
    "hands=-/Ac7cTc2d7d8d6h7hJh3s4s/4c5c6d7d5hThQh2s3s7s9s/4c8c3dJdAh7h9h9h9sQsKs;known=-/-/-/-;"
    "stock=3h4dTdAs5dAhKc6cTd5s6d2h9dAcKd5h2cTh4s2s6cJs5dJk2h8sJcJk7cQcKh8h3cJkQsQd5sJc3hKc;"
    "pile=5c8c9cAdAd8dQdKd4h8hJh6sTs;top=9c;melds=-/-;"
    "pozzetti=u:4h7s9d4d2cJsKh3d2dQc9c/u:6h6s8sJdTcAsQhTsJkKs3c;hold=-;opened=0,0;need=0,0;"
    "deadlock=0;turnflags=-;split=-;end=-;cut=-"
)


@pytest.mark.parametrize("engine", ENGINES, ids=ENGINE_IDS)
def test_a_position_without_legal_moves_raises_in_every_policy_loop(engine):
    try:
        game = engine.Game.from_state_string(NO_MOVE)
    except burraco.InvalidStateError:
        return  # refused when parsing: the position cannot arise in play
    assert not game.is_over() and len(game.legal_moves()) == 0
    calls = [lambda: game.playout("random", 0), lambda: game.playout("greedy"),
             lambda: game.policy_move("greedy"), lambda: game.policy_move("random", 3)]
    if engine is burraco:
        calls.append(lambda: burraco.ISMCTS(iterations=5).choose(game))
    for call in calls:
        with pytest.raises(burraco.InvalidStateError, match="no legal move"):
            call()
        assert game.state_string() == NO_MOVE and game.moves == []


# ---- no position twice in a turn (RULES H-38) ----------------------------------------------------


@pytest.mark.parametrize("engine", ENGINES, ids=ENGINE_IDS)
@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_policies_never_return_to_a_position_of_the_turn(engine, policy):
    rules = engine.Rules("brazilian", **RETURNING)
    returns = 0
    with move_cap(engine, BOUND):
        for seed in range(6):
            game = engine.Game(rules, seed=seed)
            played = game.playout(policy, seed)
            assert game.is_over() and played == len(game.moves) < BOUND
            assert_no_position_repeats_in_a_turn(engine, rules, seed, game.moves)
            returns += sum(1 for m in game.moves if str(m).startswith("meld"))
    assert returns > 0


@pytest.mark.parametrize("engine", ENGINES, ids=ENGINE_IDS)
def test_the_returning_greedy_example_ends(engine):
    """Seed 0: greedy puts `meld 2c 5c 5c 5d` down once (the cards come back); RULES H-38 leaves
    only discards, so the turn ends with `discard 5c` and the next seat draws."""
    rules = engine.Rules("brazilian", **RETURNING)
    game = engine.Game(rules, seed=0)
    stepped = 0
    while not game.is_over() and stepped < BOUND:
        game.push(game.policy_move("greedy"))
        stepped += 1
    assert game.is_over() and game.end_reason == "stock_exhausted"
    moves = [str(m) for m in game.moves]
    assert moves[89:92] == ["meld 2c 5c 5c 5d", "discard 5c", "draw"]
    assert moves.count("meld 2c 5c 5c 5d") == 1
    with move_cap(engine, BOUND):
        again = engine.Game(rules, seed=0)
        assert again.playout("greedy") == stepped == 248
    assert [str(m) for m in again.moves] == moves


def _returned(engine):
    """Seed 0 after greedy's 90 moves: `meld 2c 5c 5c 5d` has just come back (RULES C.3)."""
    game = engine.Game(engine.Rules("brazilian", **RETURNING), seed=0)
    for _ in range(90):
        game.push(game.policy_move("greedy"))
    assert str(game.moves[89]) == "meld 2c 5c 5c 5d"
    return game


@pytest.mark.parametrize("engine", ENGINES, ids=ENGINE_IDS)
def test_the_repeat_after_the_return_is_refused(engine):
    """Putting `2c 5c 5c 5d` down again would bring back the position after the first meld (the
    loop the candidates guarded against); under RULES H-38 it is illegal: refused quoting the
    move, nothing changed, and every legal move and every policy choice is a discard."""
    game = _returned(engine)
    before, history = game.state_string(), [str(m) for m in game.moves]
    for repeat in ("meld 2c 5c 5c 5d", "meld 2c 5c 5c"):
        with pytest.raises(engine.IllegalMoveError, match=f"'{repeat}'.*H-38"):
            game.push(repeat)
        assert game.state_string() == before and [str(m) for m in game.moves] == history
    assert [str(m) for m in game.legal_moves()] == ["discard 2c", "discard 5c", "discard 5d"]
    assert str(game.policy_move("greedy")) == "discard 5c"
    assert {str(game.policy_move("random", s)) for s in range(40)} == {
        "discard 2c", "discard 5c", "discard 5d"}


@pytest.mark.parametrize("engine", ENGINES, ids=ENGINE_IDS)
def test_policy_move_chooses_alike_with_and_without_the_history(engine):
    """Before RULES H-38 policy_move and playout read the turn's earlier positions from the game's
    history (a game made by from_state_string started its turn at that position), and that changed
    the choice after a return. Now no legal move can repeat a position of the turn and the policies
    choose among the legal moves from the position alone: a game and its bare copy choose alike at
    every position of a returning hand, and playout's first move is policy_move's."""
    game = _returned(engine)
    bare = engine.Game.from_state_string(game.state_string())
    assert [str(m) for m in game.legal_moves()] == [str(m) for m in bare.legal_moves()]
    assert str(game.policy_move("greedy")) == str(bare.policy_move("greedy")) == "discard 5c"
    for s in range(40):
        assert str(game.policy_move("random", s)) == str(bare.policy_move("random", s))
    # playout's first move is policy_move's, with the history as without it.
    for policy in ("greedy", "random"):
        for start in (game, bare):
            first = str(start.policy_move(policy, 11))
            copy = start.copy()
            with move_cap(engine, BOUND):
                copy.playout(policy, 11)
            assert str(copy.moves[len(start.moves)]) == first
    # Every position of two returning hands, the return's turns included.
    returns = 0
    for policy, seed in (("greedy", 0), ("random", 3)):
        hand = engine.Game(engine.Rules("brazilian", **RETURNING), seed=seed)
        while not hand.is_over():
            fresh = engine.Game.from_state_string(hand.state_string())
            chosen = str(hand.policy_move(policy, len(hand.moves)))
            assert str(fresh.policy_move(policy, len(hand.moves))) == chosen, hand.state_string()
            seat, cards = hand.turn, len(hand.hand(hand.turn))
            hand.push(chosen)
            returns += chosen.startswith(("meld", "add")) and len(hand.hand(seat)) >= cards
    assert returns > 0


@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_engines_agree_move_by_move_on_returning_hands(policy):
    rules = {"preset": "brazilian", **RETURNING}
    for seed in range(6):
        games = []
        for engine in ENGINES:
            game = engine.Game(engine.Rules(**rules), seed=seed)
            with move_cap(engine, BOUND):
                game.playout(policy, seed + 100)
            games.append(game)
        core, ref = games
        assert [str(m) for m in core.moves] == [str(m) for m in ref.moves], seed
        assert core.state_string() == ref.state_string(), seed
    one = burraco.playouts(burraco.Rules(**rules), 3, seed=2, policy=policy)
    with move_cap(reference, BOUND):
        ref = reference.playouts(reference.Rules(**rules), 3, seed=2, policy=policy)
    for key in ref:
        assert (ref[key] == one[key]).all(), (policy, key)


def test_playouts_on_returning_hands_do_not_depend_on_threads():
    rules = burraco.Rules("brazilian", **RETURNING)
    for policy in ("random", "greedy"):
        one = burraco.playouts(rules, 12, seed=2, policy=policy)
        two = burraco.playouts(rules, 12, seed=2, policy=policy, threads=2)
        for key in one:
            assert (one[key] == two[key]).all(), (policy, key)
        assert int(one["moves"].max()) < BOUND


def test_ismcts_rollouts_on_returning_hands_end():
    rules = burraco.Rules("brazilian", **RETURNING)
    game = burraco.Game(rules, seed=0)
    for _ in range(89):
        game.push(game.policy_move("greedy"))
    for policy in ("random", "greedy"):
        search = burraco.ISMCTS(iterations=60, seed=2, policy=policy)
        assert search.choose(game) in game.legal_moves()
        assert search.last_iterations == 60


# ---- ISMCTS and threads ----------------------------------------------------------------------


@contextlib.contextmanager
def fast_switching():
    previous = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(previous)


def test_ismcts_readers_never_see_a_tree_being_built():
    game = burraco.Game(burraco.Rules("italian"), seed=4)
    game.push("draw")
    iterations = 1500
    search = burraco.ISMCTS(iterations=iterations, seed=1)
    errors = []

    def choose():
        try:
            for _ in range(4):
                search.choose(game)
        except BaseException as error:  # reported below
            errors.append(error)

    seen = set()
    with fast_switching():
        worker = threading.Thread(target=choose)
        worker.start()
        while worker.is_alive():
            stats = search.root_stats()
            visits = sum(row[1] for row in stats)
            assert visits in (0, iterations)  # before the first search, or one finished
            assert all(row[2] >= row[1] >= 1 for row in stats)
            assert search.last_iterations in (0, iterations)
            assert 0 <= search.nodes <= iterations + 1
            seen.add(visits)
        worker.join()
    assert not errors
    assert iterations in seen
    assert sum(row[1] for row in search.root_stats()) == iterations


def test_two_threads_choosing_on_one_ismcts_run_one_after_the_other():
    game = burraco.Game(burraco.Rules("italian"), seed=6)
    game.push("draw")
    alone = burraco.ISMCTS(iterations=400, seed=9)
    expected = sorted(str(alone.choose(game)) for _ in range(2))
    shared = burraco.ISMCTS(iterations=400, seed=9)
    got = []
    with fast_switching():
        workers = [threading.Thread(target=lambda: got.append(str(shared.choose(game)))) for _ in range(2)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
    assert sorted(got) == expected
    assert sum(row[1] for row in shared.root_stats()) == 400


@pytest.mark.parametrize(
    ("kwargs", "error", "quoted"),
    [
        ({"exploration": 2**1100}, burraco.BurracoError, str(2**1100)),
        ({"exploration": -0.5}, burraco.BurracoError, "-0.5"),
        ({"exploration": float("inf")}, burraco.BurracoError, "inf"),
        ({"exploration": float("nan")}, burraco.BurracoError, "nan"),
        ({"exploration": "1"}, TypeError, "'1'"),
        ({"exploration": True}, TypeError, "True"),
        ({"exploration": None}, TypeError, "None"),
        ({"iterations": 0}, burraco.BurracoError, "0"),
        ({"iterations": -3}, burraco.BurracoError, "-3"),
        ({"iterations": 10**8 + 1}, burraco.BurracoError, "100000001"),
        ({"iterations": 2**80}, burraco.BurracoError, str(2**80)),
        ({"iterations": 10.0}, TypeError, "10.0"),
        ({"iterations": True}, TypeError, "True"),
        ({"iterations": "10"}, TypeError, "'10'"),
        ({"max_rollout_moves": -1}, burraco.BurracoError, "-1"),
        ({"max_rollout_moves": 2.0}, TypeError, "2.0"),
        ({"max_rollout_moves": False}, TypeError, "False"),
        ({"policy": "minimax"}, burraco.InvalidNotationError, "'minimax'"),
        ({"seed": -1}, burraco.InvalidNotationError, "-1"),
    ],
)
def test_bad_ismcts_parameters_are_refused_quoting_them(kwargs, error, quoted):
    with pytest.raises(error) as caught:
        burraco.ISMCTS(**kwargs)
    assert quoted in str(caught.value)
    if error is not TypeError:
        assert isinstance(caught.value, ValueError)


def test_ismcts_parameters_take_numpy_numbers():
    import numpy
    search = burraco.ISMCTS(iterations=numpy.int64(7), exploration=numpy.float32(0.5),
                            max_rollout_moves=numpy.int32(3))
    assert (search.iterations, search.exploration, search.max_rollout_moves) == (7, 0.5, 3)
    assert burraco.ISMCTS(exploration=0).exploration == 0.0
    assert burraco.ISMCTS(exploration=1e300).exploration == 1e300


@pytest.mark.parametrize("kwargs", [
    {},
    {"iterations": 250, "seed": 2**64 - 1, "exploration": 0.1, "policy": "greedy",
     "max_rollout_moves": 12},
    {"exploration": 1 / 3, "max_rollout_moves": 0},
])
def test_ismcts_repr_is_the_constructor_call_of_an_equal_search(kwargs):
    """repr names every parameter, so eval(repr(search)) makes a search with the same ones."""
    search = burraco.ISMCTS(**kwargs)
    text = repr(search)
    again = eval(text, {"ISMCTS": burraco.ISMCTS})
    names = ("iterations", "seed", "exploration", "policy", "max_rollout_moves")
    assert [getattr(again, n) for n in names] == [getattr(search, n) for n in names]
    assert repr(again) == text
    for name, value in kwargs.items():
        assert f"{name}={value!r}" in text


def test_ismcts_repr_of_the_defaults():
    assert repr(burraco.ISMCTS()) == (
        "ISMCTS(iterations=1000, seed=0, exploration=0.7, policy=None, max_rollout_moves=None, "
        "reward='margin', margin_scale=300.0, evaluation='score', opponents='heuristic', "
        "time_limit=None, threads=1, keep_tree=False, equity_sigma=720.0, equity_points=600.0)")
