"""Matches in the search and the arena: the ISMCTS equity reward (docs/search.md "Search options")
and ``burraco arena --matches`` (docs/bots.md "The arena")."""

from __future__ import annotations

import itertools
import math

import pytest

import burraco
from burraco.arena import bot

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
