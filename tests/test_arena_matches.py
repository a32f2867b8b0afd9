"""Matches in the search and the arena: the ISMCTS equity reward (docs/search.md "Search options")
and ``burraco arena --matches`` (docs/bots.md "The arena")."""

from __future__ import annotations

import itertools
import json
import math

import numpy as np
import pytest

import burraco
from burraco.arena import bot, duel, tournament
from burraco.cli import main

ITALIAN_2P = burraco.Rules("italian-2p")


def phi(x: float) -> float:
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


# ---- the equity model --------------------------------------------------------------------------


def test_equity_defaults_and_repr() -> None:
    search = burraco.ISMCTS(reward="equity")
    assert (search.reward, search.equity_sigma, search.equity_points) == ("equity", 720.0, 600.0)
    assert repr(search).endswith("equity_sigma=720.0, equity_points=600.0)")
    other = burraco.ISMCTS(reward="equity", equity_sigma=380, equity_points=515.5)
    assert (other.equity_sigma, other.equity_points) == (380.0, 515.5)


@pytest.mark.parametrize("preset", ["italian-2p", "italian", "online-2p", "brazilian"])
def test_equity_bounds_and_monotonicity(preset: str) -> None:
    rules = burraco.Rules(preset)
    search = burraco.ISMCTS(reward="equity")
    grid = range(-600, 2601, 300)
    for a, b, other in itertools.product(grid, grid, (-200, 0, 400)):
        previous = -1.0
        for hand in range(-400, 1201, 50):
            p0, p1 = search.match_equity(rules, (a, b), (hand, other))
            assert 0.0 <= p0 <= 1.0 and p0 + p1 == pytest.approx(1.0, abs=1e-12)
            assert p0 >= previous, (a, b, other, hand)
            previous = p0
            # Symmetric: the sides swapped swap the probabilities.
            q1, q0 = search.match_equity(rules, (b, a), (other, hand))
            assert (q0, q1) == pytest.approx((p0, p1), abs=1e-12)


def test_equity_decided_matches() -> None:
    search = burraco.ISMCTS(reward="equity")
    italian = burraco.Rules("italian")  # '>' 2000
    assert search.match_equity(italian, (1900, 0), (105, 0)) == (1.0, 0.0)
    assert search.match_equity(italian, (1900, 1950), (150, 150)) == (0.0, 1.0)
    assert search.match_equity(italian, (1950, 1950), (100, 100)) == (0.5, 0.5)  # level past it
    # 2000 is not past '> 2000': one more hand, led by 2000 points.
    assert search.match_equity(italian, (1900, 0), (100, 0))[0] == pytest.approx(phi(2000 / 720))
    brazilian = burraco.Rules("brazilian")  # '>=' 2000: 2000 decides
    assert brazilian.compare == ">="
    assert search.match_equity(brazilian, (1900, 0), (100, 0)) == (1.0, 0.0)
    high = burraco.Rules("italian", match_target=5000)
    assert search.match_equity(high, (1900, 0), (105, 0))[0] < 1.0


def test_equity_model_by_hand() -> None:
    italian = burraco.Rules("italian")
    search = burraco.ISMCTS(reward="equity")
    # Totals 1100 and 850: the leader needs 900, 1.5 hands at 600; z = 250 / (720 * sqrt(1.5)).
    p0, p1 = search.match_equity(italian, (1000, 800), (100, 50))
    assert p0 == pytest.approx(0.611605, abs=1e-6)
    assert p1 == pytest.approx(1 - 0.611605, abs=1e-6)
    # Near the target a hand left at least: 1980 against 1500, z = 480 / 720.
    assert search.match_equity(italian, (1900, 1500), (80, 0))[0] == pytest.approx(0.747507, abs=1e-6)
    # At the start: 2000 - 300 = 1700 points, 2.8333 hands; sigma and points from the search.
    wide = burraco.ISMCTS(reward="equity", equity_sigma=400, equity_points=500)
    assert wide.match_equity(italian, (0, 0), (300, -100))[0] == pytest.approx(
        phi(400 / (400 * math.sqrt(1700 / 500))), abs=1e-12)
    # Far from the target it is a smooth function of the margin alone (the margin reward's shape).
    assert search.match_equity(italian, (0, 0), (0, 0)) == (0.5, 0.5)
    assert (search.match_equity(italian, (0, 0), (100, 0))[0]
            < search.match_equity(italian, (0, 0), (200, 0))[0] < 1.0)


def test_equity_near_the_target_values_crossing_it() -> None:
    """A points lead just short of the target is worth less than crossing it by a little."""
    italian = burraco.Rules("italian")
    search = burraco.ISMCTS(reward="equity")
    short = search.match_equity(italian, (1800, 1700), (195, 150))[0]  # 1995 against 1850
    crossed = search.match_equity(italian, (1800, 1700), (205, 150))[0]  # 2005: the match
    assert short < 0.6 and crossed == 1.0


@pytest.mark.parametrize(
    ("options", "error", "quoted"),
    [
        ({"reward": "equities"}, burraco.BurracoError, "'equities'"),
        ({"reward": "Equity"}, burraco.BurracoError, "'Equity'"),
        ({"equity_sigma": 0}, burraco.BurracoError, "0"),
        ({"equity_sigma": float("nan")}, burraco.BurracoError, "nan"),
        ({"equity_points": -600.0}, burraco.BurracoError, "-600.0"),
        ({"equity_points": float("inf")}, burraco.BurracoError, "inf"),
        ({"equity_sigma": "720"}, TypeError, "'720'"),
        ({"equity_points": True}, TypeError, "True"),
    ],
)
def test_equity_options_refused(options: dict, error: type, quoted: str) -> None:
    with pytest.raises(error, match=quoted):
        burraco.ISMCTS(**options)


def test_match_equity_arguments_refused() -> None:
    search = burraco.ISMCTS(reward="equity")
    for before in [(1, 2, 3), "12", (1, "x"), (1, float("nan")), 5, (True, 0)]:
        with pytest.raises(burraco.BurracoError, match="before"):
            search.match_equity(ITALIAN_2P, before, (0, 0))
    with pytest.raises(burraco.BurracoError, match="three players"):
        search.match_equity(burraco.Rules("italian-3p"), (0, 0), (0, 0))


def test_equity_refused_with_three_players() -> None:
    game = burraco.Game(burraco.Rules("italian-3p"), seed=3)
    search = burraco.ISMCTS(reward="equity", iterations=20)
    before = game.state_string()
    with pytest.raises(burraco.BurracoError, match=r"reward 'equity' needs two sides.*italian-3p"):
        search.choose(game)
    assert game.state_string() == before
    assert search.last_iterations == 0 and search.root_stats() == []
    # The other rewards still search three players.
    assert burraco.ISMCTS(reward="margin", iterations=20).choose(game) in game.legal_moves()


def test_equity_search_reads_the_game_scores() -> None:
    """The search's match situation is the game's scores: a side already past the target (no
    hand can take its lead) has every move worth 1, where the margin reward still varies."""
    decided = burraco.Game(ITALIAN_2P, seed=7, scores=(9000, 0))
    search = burraco.ISMCTS(reward="equity", iterations=150, seed=2)
    assert decided.turn == 0
    search.choose(decided)
    stats = search.root_stats()
    assert len(stats) >= 2 and all(reward == visits for _, visits, _, reward in stats)
    margin = burraco.ISMCTS(reward="margin", iterations=150, seed=2)
    margin.choose(decided)
    assert any(reward != visits for _, visits, _, reward in margin.root_stats())
    # The other side sees it lost: every reward 0.
    lost = burraco.Game(ITALIAN_2P, seed=7, scores=(0, 9000))
    search.choose(lost)
    assert all(reward == 0 for _, _, _, reward in search.root_stats())


def test_equity_search_is_reproducible_and_legal() -> None:
    game = burraco.Game(ITALIAN_2P, seed=11, scores=(1750, 1600))
    a = burraco.ISMCTS(reward="equity", iterations=120, seed=5)
    b = burraco.ISMCTS(reward="equity", iterations=120, seed=5)
    move = a.choose(game)
    assert move in game.legal_moves() and b.choose(game) == move
    assert a.root_stats() == b.root_stats()
    assert all(0 <= reward <= visits for _, visits, _, reward in a.root_stats())
    four = burraco.Game(burraco.Rules("italian"), seed=4, scores=(1500, 1900))
    assert burraco.ISMCTS(reward="equity", iterations=60, seed=1).choose(four) in four.legal_moves()


def test_equity_arena_spec() -> None:
    search = bot("ismcts:50:reward=equity:sigma=380:points=515").player
    assert (search.reward, search.equity_sigma, search.equity_points) == ("equity", 380.0, 515.0)
    with pytest.raises(burraco.InvalidNotationError, match="'reward=equities'"):
        bot("ismcts:50:reward=equities")
    with pytest.raises(burraco.BurracoError, match="-3"):
        bot("ismcts:50:reward=equity:sigma=-3")


# ---- the matches arena ---------------------------------------------------------------------------



def pair_seed(rules: burraco.Rules, seed: int, pair: int) -> int:
    """The seed of pair ``pair``: the hand seed the hand arena deals that pair from."""
    return int(burraco.playouts(rules, pair + 1, seed=seed)["seed"][pair])


@pytest.mark.parametrize("preset", ["italian-2p", "online-2p", "italian"])
def test_matches_replay_as_python_matches(preset: str) -> None:
    """Every play is the Match its pair's seed deals, hand by hand, to the same end (E.7), and
    the swapped play has the same deals."""
    rules = burraco.Rules(preset)
    result = duel(rules, "greedy", "random", pairs=2, seed=5, matches=True, keep_moves=True)
    games = result.games
    row = 0
    for play in range(4):
        pair, a_side = play // 2, play % 2
        assert (games["match_pair"][play], games["match_game"][play]) == (pair, a_side)
        match = burraco.Match(rules, seed=pair_seed(rules, 5, pair))
        for hand in range(int(games["match_hands"][play])):
            assert (games["pair"][row], games["game"][row], games["hand"][row]) == (pair, a_side, hand)
            game = match.new_game()
            assert game.seed == games["hand_seed"][row]
            assert game.first_player == games["first_player"][row] == hand % rules.players
            assert game.scores == tuple(games["before"][row])
            for move in games["history"][row]:
                game.push(move)
            assert game.is_over()
            assert [side.total for side in game.result().sides] == list(games["scores"][row])
            assert not match.is_over()
            match.record(game)
            row += 1
        assert match.is_over()
        assert match.scores == tuple(games["match_scores"][play])
        winner = -1 if match.winner is None else match.winner
        assert winner == games["match_winner"][play]
        assert max(match.scores) >= rules.match_target
    assert row == len(games["hand"])
    # The same deals in both plays of a pair, hand by hand.
    for pair in range(2):
        plays = [games["hand_seed"][(games["pair"] == pair) & (games["game"] == g)] for g in (0, 1)]
        shared = min(len(plays[0]), len(plays[1]))
        assert shared >= 1 and list(plays[0][:shared]) == list(plays[1][:shared])


def test_matches_do_not_depend_on_threads() -> None:
    rules = burraco.Rules("italian-2p")
    bots = ("heuristic", "ismcts:12:reward=equity:cut=10")
    one = duel(rules, *bots, pairs=2, seed=9, matches=True, threads=1)
    two = duel(rules, *bots, pairs=2, seed=9, matches=True, threads=2)
    for key in ("pair", "game", "hand", "hand_seed", "scores", "moves", "before", "match_scores",
                "match_hands", "match_winner"):
        assert np.array_equal(one.games[key], two.games[key]), key
    assert (one.wins_a, one.wins_b, one.ties, one.margins) == (two.wins_a, two.wins_b, two.ties,
                                                               two.margins)


def test_match_pair_figures() -> None:
    rules = burraco.Rules("italian-2p")
    result = duel(rules, "heuristic", "random", pairs=3, seed=1, matches=True)
    games = result.games
    assert result.matches and result.match_count == 6
    assert result.wins_a + result.wins_b + result.ties == 3
    assert result.match_wins_a + result.match_wins_b == 6
    scores = games["match_scores"]
    for i, margin in enumerate(result.margins):
        assert margin == (scores[2 * i][0] - scores[2 * i][1]) + (scores[2 * i + 1][1] - scores[2 * i + 1][0])
    assert result.hands_per_match == pytest.approx(games["match_hands"].mean())
    # The matches' first hands are not the hand arena's deals (a match seeds its hands from the
    # pair's seed), and the hand arena's rows keep hand 0 and zero scores before.
    hands = duel(rules, "heuristic", "random", pairs=3, seed=1)
    assert list(hands.games["hand"]) == [0] * 6 and not hands.games["before"].any()
    assert "match_scores" not in hands.games and not hands.matches
    assert set(games["hand_seed"][games["hand"] == 0]).isdisjoint(set(hands.games["hand_seed"]))


def test_matches_split_by_margin() -> None:
    """A 1-1 split of the matches goes to the summed margin (here recomputed from the arrays)."""
    rules = burraco.Rules("italian-2p")
    result = duel(rules, "greedy", "random", pairs=6, seed=2, matches=True)
    winners, scores = result.games["match_winner"], result.games["match_scores"]
    wins = 0.0
    for i in range(6):
        mine = (winners[2 * i] == 0) + (winners[2 * i + 1] == 1)
        theirs = (winners[2 * i] == 1) + (winners[2 * i + 1] == 0)
        margin = result.margins[i]
        wins += 1 if mine > theirs or (mine == theirs and margin > 0) else (
            0.5 if mine == theirs and margin == 0 else 0)
    assert result.win_rate == pytest.approx(wins / 6)


def test_matches_refused_arguments() -> None:
    rules = burraco.Rules("italian-2p")
    with pytest.raises(burraco.InvalidNotationError, match="'yes'"):
        duel(rules, "greedy", "random", pairs=1, matches="yes")
    with pytest.raises(burraco.InvalidNotationError, match="three players"):
        duel(burraco.Rules("italian-3p"), "greedy", "random", pairs=1, matches=True)


def test_tournament_of_matches() -> None:
    result = tournament(burraco.Rules("italian-2p"), ["heuristic", "greedy", "random"], pairs=1,
                        seed=4, matches=True)
    assert [d.matches for d in result.duels] == [True, True, True]
    assert result.ratings is not None and set(result.ratings) == {"heuristic", "greedy", "random"}


def test_burraco_arena_matches_table_and_records(tmp_path, capsys) -> None:
    out = tmp_path / "matches.jsonl"
    status = main(["arena", "--preset", "italian-2p", "--bots", "heuristic,random", "--pairs", "2",
                   "--seed", "7", "--matches", "--quiet", "--out", str(out)])
    text = capsys.readouterr().out
    assert status == 0
    assert "duplicate match pairs (to 2000)" in text
    for column in ("matches", "A matches won", "hands/match", "95 % CI", "A margin/pair"):
        assert column in text
    line = next(row for row in text.splitlines() if row.startswith("heuristic"))
    assert line.split()[2:4] == ["2", "4"]  # pairs, matches
    records = [json.loads(row) for row in out.read_text().splitlines()]
    result = duel(burraco.Rules("italian-2p"), "heuristic", "random", pairs=2, seed=7, matches=True)
    assert len(records) == int(result.games["match_hands"].sum())
    assert [r["scores"] for r in records] == [list(map(int, b)) for b in result.games["before"]]
    for record in records:
        assert burraco.Game.from_record(record).is_over()
