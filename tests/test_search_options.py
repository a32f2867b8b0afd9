"""The ISMCTS options beyond the iteration count (docs/search.md "Search options"): the reward,
the evaluation of cut rollouts, the model of the other seats, the time limit, root-parallel
threads, and the hint call built on them."""

from __future__ import annotations

import pytest

import burraco
from burraco import ISMCTS, Game, Rules

NEW = {"reward": "margin", "evaluation": "heuristic", "opponents": "policy",
       "policy": "heuristic", "max_rollout_moves": 4}


def position(preset: str = "italian-2p", seed: int = 5, moves: int = 20) -> Game:
    game = Game(Rules(preset), seed=seed)
    for _ in range(moves):
        game.push(game.policy_move("greedy"))
    return game


def test_the_defaults_are_the_documented_ones():
    search = ISMCTS()
    assert (search.policy, search.reward, search.margin_scale, search.evaluation,
            search.opponents, search.time_limit, search.threads, search.keep_tree) == (
        None, "margin", 300.0, "score", "heuristic", None, 1, False)


@pytest.mark.parametrize(("preset", "policy"), [("italian-2p", "greedy"), ("italian", "random"),
                                                ("italian-3p", "random")])
def test_the_default_rollouts_follow_the_number_of_players(preset, policy):
    """policy=None rolls out with greedy in a two-player game and random with more: the same
    search as that policy named."""
    game = position(preset)
    by_players, named = ISMCTS(iterations=150, seed=6), ISMCTS(iterations=150, seed=6, policy=policy)
    assert by_players.choose(game) == named.choose(game)
    assert by_players.root_stats() == named.root_stats()


@pytest.mark.parametrize("kwargs", [
    NEW,
    {"reward": "margin", "margin_scale": 125.5, "threads": 3},
    {"iterations": None, "time_limit": 0.25},
    {"iterations": 50, "time_limit": 1e-3, "evaluation": "heuristic", "max_rollout_moves": 0},
    {"keep_tree": True, "opponents": "tree", "reward": "win", "policy": "random"},
    {"opponents": "heuristic", "policy": "greedy"},
    {"opponents": "greedy", "policy": "random", "max_rollout_moves": 12},
    {"opponents": "random"},
])
def test_repr_names_every_option(kwargs):
    search = ISMCTS(**kwargs)
    text = repr(search)
    again = eval(text, {"ISMCTS": ISMCTS})
    assert repr(again) == text
    for name, value in kwargs.items():
        assert getattr(search, name) == value
        assert f"{name}={value!r}" in text


@pytest.mark.parametrize(
    ("kwargs", "error", "quoted"),
    [
        ({"reward": "points"}, burraco.BurracoError, "'points'"),
        ({"reward": 1}, TypeError, "1"),
        ({"evaluation": "deep"}, burraco.BurracoError, "'deep'"),
        ({"evaluation": None}, TypeError, "None"),
        ({"opponents": "oracle"}, burraco.BurracoError, "'oracle'"),
        ({"opponents": "Heuristic"}, burraco.BurracoError, "'Heuristic'"),
        ({"opponents": 2}, TypeError, "2"),
        ({"margin_scale": 0}, burraco.BurracoError, "0"),
        ({"margin_scale": -5.0}, burraco.BurracoError, "-5.0"),
        ({"margin_scale": float("nan")}, burraco.BurracoError, "nan"),
        ({"margin_scale": float("inf")}, burraco.BurracoError, "inf"),
        ({"margin_scale": "300"}, TypeError, "'300'"),
        ({"time_limit": 0}, burraco.BurracoError, "0"),
        ({"time_limit": -1.0}, burraco.BurracoError, "-1.0"),
        ({"time_limit": float("nan")}, burraco.BurracoError, "nan"),
        ({"time_limit": True}, TypeError, "True"),
        ({"iterations": None}, burraco.BurracoError, "None"),
        ({"threads": 0}, burraco.BurracoError, "0"),
        ({"threads": 65}, burraco.BurracoError, "65"),
        ({"threads": 2.0}, TypeError, "2.0"),
        ({"keep_tree": 1}, TypeError, "1"),
        ({"keep_tree": "yes"}, TypeError, "'yes'"),
    ],
)
def test_bad_options_are_refused_quoting_them(kwargs, error, quoted):
    with pytest.raises(error) as caught:
        ISMCTS(**kwargs)
    assert quoted in str(caught.value)


@pytest.mark.parametrize("kwargs", [
    {},
    NEW,
    {"reward": "margin"},
    {"evaluation": "heuristic", "max_rollout_moves": 6, "policy": "greedy"},
    {"opponents": "policy", "policy": "greedy"},
    {"threads": 2},
    {"threads": 3, "opponents": "policy", "policy": "greedy", "max_rollout_moves": 10},
    {"opponents": "heuristic"},
    {"opponents": "greedy", "policy": "random"},
])
@pytest.mark.parametrize("preset", ["italian-2p", "italian"])
def test_every_option_searches_only_the_observation(kwargs, preset):
    """Two games that differ only in cards the seat to act cannot see get the same search: the
    same move and the same root statistics, for a fresh search of the same seed."""
    game = position(preset)
    seat = game.turn
    other = game.determinize(seat, 99)
    assert other.observation(seat) == game.observation(seat)
    assert other.state_string() != game.state_string()
    first, second = ISMCTS(iterations=120, seed=3, **kwargs), ISMCTS(iterations=120, seed=3, **kwargs)
    assert first.choose(game) == second.choose(other)
    assert first.root_stats() == second.root_stats()
    assert first.last_iterations == 120
    assert sum(row[1] for row in first.root_stats()) == 120
    assert first.choose(game) in game.legal_moves()


def test_threads_split_the_iterations_and_sum_the_roots():
    """Four trees share the iterations; their roots are summed move by move, in canonical order,
    and an untimed search does not depend on how the threads were scheduled."""
    game = position()
    split = ISMCTS(iterations=301, seed=4, threads=4)
    split.choose(game)
    assert split.last_iterations == 301
    assert sum(row[1] for row in split.root_stats()) == 301
    assert split.nodes == 301 + 4  # each iteration adds one node to its tree; four roots
    legal = list(game.legal_moves())
    moves = [row[0] for row in split.root_stats()]
    assert moves == sorted(moves, key=legal.index)
    for _ in range(3):
        fresh = ISMCTS(iterations=301, seed=4, threads=4)
        fresh.choose(game)
        assert fresh.root_stats() == split.root_stats()


def test_a_time_limit_alone_stops_the_search():
    game = position()
    search = ISMCTS(iterations=None, time_limit=0.05, seed=1)
    assert search.iterations is None
    move = search.choose(game)
    assert move in game.legal_moves()
    assert search.last_iterations >= 1
    assert sum(row[1] for row in search.root_stats()) == search.last_iterations


def test_the_iteration_count_caps_a_timed_search():
    game = position()
    search = ISMCTS(iterations=40, time_limit=1000.0, seed=1)
    search.choose(game)
    assert search.last_iterations == 40


def test_the_margin_reward_values_lie_between_zero_and_one():
    game = position()
    search = ISMCTS(iterations=200, seed=2, reward="margin", evaluation="heuristic",
                    max_rollout_moves=4, policy="heuristic")
    search.choose(game)
    for move, visits, availability, reward in search.root_stats():
        assert 0 < visits <= availability
        assert 0.0 <= reward / visits <= 1.0
    # Not every leaf is a win or a loss: the margin reward is graded.
    assert any(reward != int(reward) and reward * 2 != int(reward * 2)
               for _, _, _, reward in search.root_stats())


def test_opponents_by_policy_make_only_the_observers_nodes():
    """With opponents='policy' the tree holds the seat to act's moves only, so its nodes are at
    most one per iteration plus the root, and a deeper tree for the same iterations."""
    game = position()
    tree = ISMCTS(iterations=300, seed=5, policy="greedy", max_rollout_moves=0)
    own = ISMCTS(iterations=300, seed=5, policy="greedy", max_rollout_moves=0, opponents="policy")
    tree.choose(game)
    own.choose(game)
    assert own.nodes <= 301 and tree.nodes <= 301
    assert own.last_iterations == tree.last_iterations == 300


def test_hint_ranks_the_moves_of_the_seat_to_act():
    game = position()
    ranked = burraco.hint(game, iterations=200, seed=7)
    assert all(isinstance(h, burraco.Hint) for h in ranked)
    assert sum(h.visits for h in ranked) == 200
    assert [h.visits for h in ranked] == sorted((h.visits for h in ranked), reverse=True)
    assert {h.move for h in ranked} <= set(game.legal_moves())
    assert all(0.0 <= h.value <= 1.0 for h in ranked)
    chooser = ISMCTS(iterations=200, seed=7)
    assert ranked[0].move == chooser.choose(game)
    assert burraco.hint(game, player=game.turn, iterations=200, seed=7) == ranked
    before = game.state_string()
    assert game.state_string() == before


def test_hint_refuses_a_seat_not_to_act_and_a_finished_hand():
    game = position()
    with pytest.raises(burraco.IllegalMoveError, match=f"player {1 - game.turn}"):
        burraco.hint(game, player=1 - game.turn, iterations=10)
    with pytest.raises(burraco.InvalidNotationError, match="player 7"):
        burraco.hint(game, player=7, iterations=10)
    with pytest.raises(TypeError, match="True"):
        burraco.hint(game, player=True, iterations=10)
    with pytest.raises(TypeError, match="str"):
        burraco.hint("not a game")  # type: ignore[arg-type]
    done = Game(Rules("italian-2p"), seed=1)
    done.playout("greedy")
    with pytest.raises(burraco.IllegalMoveError, match="over"):
        burraco.hint(done, iterations=10)


def test_hint_of_a_forced_move_is_that_move_unvisited():
    game = Game(Rules("italian-2p"), seed=7)
    for _ in range(60):
        game.push(game.policy_move("greedy"))
    assert len(game.legal_moves()) == 1
    assert burraco.hint(game, iterations=50) == [burraco.Hint(game.legal_moves()[0], 0, 0.0)]


def test_keep_tree_carries_the_chosen_moves_subtree_through_the_turn():
    """After a pile take or a meld, the next decision of the same seat starts from the subtree
    of that move: its root counts those visits too. After a draw (a card the search had to
    guess), or in another position, the tree starts afresh."""
    game = Game(Rules("italian-2p"), seed=7)
    kept = ISMCTS(iterations=300, seed=1, keep_tree=True)
    plain = ISMCTS(iterations=300, seed=1)
    assert kept.keep_tree and not plain.keep_tree
    carried = 0
    while game.turn == 0 and not game.is_over():
        move = kept.choose(game)
        visits = sum(row[1] for row in kept.root_stats())
        # The kept node's children hold its visits but the one that expanded it.
        assert kept.last_iterations == 300 and visits == 300 + max(carried - 1, 0)
        carried = next(row[1] for row in kept.root_stats() if row[0] == move)
        if move.kind not in ("pile", "meld", "add"):
            carried = 0
        game.push(move)
    assert game.turn == 1
    # Another position: nothing carried over, whatever the last move was.
    other = position(seed=11)
    kept.choose(other)
    assert sum(row[1] for row in kept.root_stats()) == 300


def test_keep_tree_reads_only_the_observation():
    game = position(seed=7, moves=0)
    seat = game.turn
    other = game.determinize(seat, 5)
    searches = [ISMCTS(iterations=150, seed=2, keep_tree=True) for _ in range(2)]
    for _ in range(4):
        if game.is_over() or game.turn != seat:
            break
        moves = [search.choose(g) for search, g in zip(searches, (game, other))]
        assert moves[0] == moves[1]
        assert searches[0].root_stats() == searches[1].root_stats()
        game.push(moves[0])
        other.push(moves[1])
        if game.turn == seat:
            assert other.observation(seat) == game.observation(seat)


def test_hint_refuses_a_player_whose_index_fails():
    class Strange:
        def __index__(self):
            raise RuntimeError("no index")

    game = position()
    with pytest.raises(TypeError, match="Strange"):
        burraco.hint(game, player=Strange(), iterations=10)
    with pytest.raises(TypeError, match="float"):
        burraco.hint(game, player=1.0, iterations=10)


def test_the_docstring_examples_of_hint_and_the_arena_run():
    import doctest

    import burraco._hint
    import burraco.arena

    for module in (burraco._hint, burraco.arena):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__


@pytest.mark.parametrize(("named", "same_as"), [
    ("greedy", {"opponents": "policy", "policy": "greedy"}),
    ("random", {"opponents": "policy", "policy": "random"}),
    ("heuristic", {"opponents": "policy", "policy": "heuristic"}),
])
def test_a_named_opponent_model_is_that_policy_inside_the_tree(named, same_as):
    """opponents='greedy' (or another name) with the rollout policy of the same name is the search
    with opponents='policy': the name only replaces the policy of the other seats in the tree."""
    game = position("italian", moves=9)
    assert game.turn != 0
    rollout = same_as["policy"]
    by_name = ISMCTS(iterations=150, seed=8, policy=rollout, opponents=named)
    by_policy = ISMCTS(iterations=150, seed=8, **same_as)
    assert by_name.choose(game) == by_policy.choose(game)
    assert by_name.root_stats() == by_policy.root_stats()


def test_a_named_opponent_model_changes_the_search():
    """With greedy rollouts, other seats played by the heuristic inside the tree lead to other
    statistics than the other seats played by greedy: the model is used."""
    game = position("italian", moves=9)
    greedy_model = ISMCTS(iterations=200, seed=8, policy="greedy", opponents="policy")
    heuristic_model = ISMCTS(iterations=200, seed=8, policy="greedy", opponents="heuristic")
    greedy_model.choose(game)
    heuristic_model.choose(game)
    assert greedy_model.root_stats() != heuristic_model.root_stats()
