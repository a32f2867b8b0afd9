"""``burraco.review``: every decision of a hand searched again from the seat's own view
(docs/bots.md "Reviewing a hand"). Small budgets throughout; nothing here depends on time."""

from __future__ import annotations

import json

import pytest

import burraco
from burraco import bots
from burraco._errors import BurracoError, InvalidNotationError

ITERATIONS = 40


def greedy_hand(rules: burraco.Rules, seed: int, moves: int | None = None) -> burraco.Game:
    """A hand played by the greedy policy (to its end, or ``moves`` moves)."""
    game = burraco.Game(rules, seed=seed)
    while not game.is_over() and (moves is None or len(game.moves) < moves):
        game.push(game.policy_move("greedy", len(game.moves)))
    return game


@pytest.fixture(scope="module")
def hand() -> burraco.Game:
    return greedy_hand(burraco.Rules("italian-2p"), 3)


@pytest.fixture(scope="module")
def reviewed(hand: burraco.Game) -> burraco.Review:
    return burraco.review(hand, iterations=ITERATIONS, seed=5)


def _replayed(game: burraco.Game):
    """(move number from 1, the position before it, the move) for every move of ``game``."""
    position = game.copy()
    while position.moves:
        position.pop()
    for number, move in enumerate(game.moves, 1):
        yield number, position.copy(), move
        position.push(move)


def test_every_decision_is_the_hint_of_its_position_with_its_own_seed(hand, reviewed):
    decisions = {d.number: d for d in reviewed.decisions}
    assert len(decisions) > 10
    for number, position, move in _replayed(hand):
        decision = decisions.get(number)
        if decision is None:
            continue
        ranked = burraco.hint(position, iterations=ITERATIONS,
                              seed=bots.seeds(5, first=number - 1).next())
        played = next(h for h in ranked if h.move == move) if any(
            h.move == move and h.visits for h in ranked) else None
        assert decision.seat == position.turn
        assert decision.played == move and decision.best == ranked[0].move
        assert decision.best_value == ranked[0].value and decision.best_visits == ranked[0].visits
        assert decision.visits == sum(h.visits for h in ranked) == ITERATIONS
        assert decision.choices == len(position.legal_moves()) > 1
        if played is None:
            assert decision.played_value is None and decision.played_visits == 0
        else:
            assert decision.played_value == played.value
            assert decision.played_visits == played.visits


def test_the_values_are_consistent(reviewed):
    assert reviewed.seats == (0, 1)
    for d in reviewed.decisions:
        assert 0.0 <= d.best_value <= 1.0
        assert d.best_visits == max(d.best_visits, d.played_visits) and d.best_visits > 0
        if d.played == d.best:
            assert d.loss == 0.0 and d.played_value == d.best_value
            assert d.played_visits == d.best_visits
        elif d.played_value is None:
            assert d.loss is None
        else:
            assert d.loss == d.best_value - d.played_value
    # The greedy player agrees with the search on some moves and not on others.
    assert any(d.loss == 0.0 for d in reviewed.decisions)
    assert any(d.loss is not None and d.loss > 0 for d in reviewed.decisions)
    for seat in reviewed.seats:
        assert reviewed.total_loss(seat) == sum(
            d.loss for d in reviewed.decisions if d.seat == seat and d.loss is not None)
    ranked = reviewed.by_loss()
    assert sorted(ranked, key=lambda d: d.number) == list(reviewed.decisions)
    known = [d.loss for d in ranked if d.loss is not None]
    assert known == sorted(known, reverse=True)
    assert all(d.loss is None for d in ranked[len(known):])


@pytest.mark.parametrize("seed", range(4))
def test_a_deliberately_bad_move_shows_a_loss(seed):
    """Seat 0 throws its joker away with its first discard, where it could meld with it (or
    discard anything else): whatever the seed, the search of its view finds a better move and
    values the joker's loss."""
    game = burraco.Game(burraco.Rules("italian-2p"), seed=7)
    game.push("pile")
    assert "Jk" in game.hand(0) and len(game.legal_moves()) > 20
    game.push("discard Jk")
    result = burraco.review(game, seat=0, iterations=1500, seed=seed)
    bad = result.decisions[-1]
    assert (bad.number, bad.seat, str(bad.played)) == (2, 0, "discard Jk")
    assert bad.best != bad.played and bad.loss is not None and bad.loss > 0.03
    assert bad.played_visits < bad.best_visits
    assert result.total_loss(0) == sum(d.loss for d in result.decisions if d.loss is not None)


def test_the_same_seed_gives_the_same_review_and_a_seat_its_share(hand, reviewed):
    again = burraco.review(hand, iterations=ITERATIONS, seed=5)
    assert again == reviewed and json.dumps(again.to_json()) == json.dumps(reviewed.to_json())
    one = burraco.review(hand, seat=1, iterations=ITERATIONS, seed=5)
    assert one.seats == (1,)
    assert one.decisions == tuple(d for d in reviewed.decisions if d.seat == 1)
    assert one.forced == (0, reviewed.forced[1])
    other = burraco.review(hand, seat=1, iterations=ITERATIONS, seed=6)
    assert [d.number for d in other.decisions] == [d.number for d in one.decisions]
    assert other != one  # another seed searches differently


def test_forced_moves_are_counted_not_searched(hand, reviewed):
    forced = [0, 0]
    decided = []
    for number, position, _ in _replayed(hand):
        if len(position.legal_moves()) == 1:
            forced[position.turn] += 1
        else:
            decided.append(number)
    assert sum(forced) > 0  # the hand has forced moves to skip
    assert reviewed.forced == tuple(forced)
    assert [d.number for d in reviewed.decisions] == decided


def test_a_record_a_json_line_and_a_partial_hand(hand, reviewed):
    record = hand.record()
    assert burraco.review(record, iterations=ITERATIONS, seed=5) == reviewed
    assert burraco.review(json.dumps(record), iterations=ITERATIONS, seed=5) == reviewed
    partial = hand.copy()
    while len(partial.moves) > 30:
        partial.pop()
    early = burraco.review(partial, iterations=ITERATIONS, seed=5)
    assert early.decisions == tuple(d for d in reviewed.decisions if d.number <= 30)
    assert len(partial.moves) == 30  # the game given is not changed
    fresh = burraco.Game(burraco.Rules("italian-2p"), seed=3)
    assert burraco.review(fresh, iterations=ITERATIONS) == burraco.Review((), (0, 1), (0, 0))


def test_six_players_three_decks():
    rules = burraco.Rules("brazilian", players=6)
    assert rules.decks == 3
    game = greedy_hand(rules, 11, moves=60)
    result = burraco.review(game, seat=4, iterations=20, seed=2, max_rollout_moves=30)
    assert result.seats == (4,) and result.decisions
    assert {d.seat for d in result.decisions} == {4}
    assert result.forced[:4] == (0, 0, 0, 0) and len(result.forced) == 6
    for number, position, move in _replayed(game):
        if position.turn == 4 and len(position.legal_moves()) > 1:
            assert any(d.number == number and d.played == move for d in result.decisions)


def test_three_decks_four_players_record():
    rules = burraco.Rules("italian", decks=3)
    game = greedy_hand(rules, 4, moves=40)
    result = burraco.review(game.record(), seat=[0, 2], iterations=20, seed=3)
    assert result.seats == (0, 2) and {d.seat for d in result.decisions} == {0, 2}
    assert all(d.loss is None or d.played != d.best or d.loss == 0 for d in result.decisions)


def test_the_json_form_parses_and_says_everything(reviewed):
    data = json.loads(json.dumps(reviewed.to_json()))
    assert data["seats"] == [0, 1] and data["forced"] == list(reviewed.forced)
    assert data["total_loss"] == {str(s): reviewed.total_loss(s) for s in (0, 1)}
    assert len(data["decisions"]) == len(reviewed.decisions)
    for row, d in zip(data["decisions"], reviewed.decisions):
        assert row == {"number": d.number, "seat": d.seat, "played": str(d.played),
                       "best": str(d.best), "played_value": d.played_value,
                       "best_value": d.best_value, "loss": d.loss,
                       "played_visits": d.played_visits, "best_visits": d.best_visits,
                       "visits": d.visits, "choices": d.choices}
        assert burraco.Move(row["played"]) == d.played


def test_progress_is_told_after_each_decision(hand, reviewed):
    calls: list[tuple[int, int]] = []
    burraco.review(hand, iterations=ITERATIONS, seed=5, progress=lambda *a: calls.append(a))
    total = len(reviewed.decisions)
    assert calls == [(done, total) for done in range(1, total + 1)]


def test_a_time_limit_instead_of_iterations(hand, reviewed):
    timed = burraco.review(hand, seat=0, iterations=None, time_limit=0.002, seed=5)
    assert [d.number for d in timed.decisions] == [
        d.number for d in reviewed.decisions if d.seat == 0]
    assert all(d.visits >= 1 and d.best_visits >= 1 for d in timed.decisions)


def test_a_reference_game_is_refused_with_the_way_in(hand):
    from burraco import reference

    game = reference.Game.from_record(hand.record())
    with pytest.raises(TypeError, match=r"game\.record\(\)"):
        burraco.review(game, iterations=10)
    assert burraco.review(game.record(), iterations=ITERATIONS, seed=5) == burraco.review(
        hand, iterations=ITERATIONS, seed=5)


@pytest.mark.parametrize("game, error, quoted", [
    ("not a record", InvalidNotationError, "not a record"),
    (42, TypeError, "int 42"),
    (None, TypeError, "NoneType"),
    ({"format": "something"}, InvalidNotationError, "something"),
])
def test_what_is_not_a_game_is_refused(game, error, quoted):
    with pytest.raises(error) as excinfo:
        burraco.review(game, iterations=10)
    assert quoted in str(excinfo.value)


@pytest.mark.parametrize("seat, error, quoted", [
    (2, InvalidNotationError, "seat 2: expected a seat from 0 to 1"),
    (-1, InvalidNotationError, "seat -1"),
    (True, TypeError, "bool True"),
    ("0", TypeError, "str '0'"),
    (1.0, TypeError, "float 1.0"),
    ([0, 5], InvalidNotationError, "seat 5"),
    ([], InvalidNotationError, "seat []: no seat named"),
])
def test_a_bad_seat_is_refused_quoting_it(hand, seat, error, quoted):
    with pytest.raises(error) as excinfo:
        burraco.review(hand, seat=seat, iterations=10)
    assert quoted in str(excinfo.value)


@pytest.mark.parametrize("budget, error, quoted", [
    ({"iterations": 0}, BurracoError, "0"),
    ({"iterations": 2.5}, TypeError, "float"),
    ({"iterations": None}, BurracoError, "time_limit"),
    ({"time_limit": -1.0}, BurracoError, "-1"),
    ({"seed": -3}, InvalidNotationError, "-3"),
    ({"seed": 2**64}, InvalidNotationError, str(2**64)),
    ({"reward": "points"}, BurracoError, "points"),
    ({"depth": 3}, TypeError, "depth"),
    ({"progress": 3}, TypeError, "int"),
])
def test_a_bad_budget_is_refused_before_any_search(hand, budget, error, quoted):
    calls = []
    options = {"iterations": 10, **budget}
    if "progress" not in options:
        options["progress"] = lambda *a: calls.append(a)
    with pytest.raises(error) as excinfo:
        burraco.review(hand, **options)
    assert quoted in str(excinfo.value)
    assert calls == []


def test_the_docstring_example_runs():
    import doctest

    import burraco._review

    failures, tried = doctest.testmod(burraco._review)
    assert tried > 0 and failures == 0


def test_a_played_move_the_search_never_tried_has_no_value():
    """One iteration tries one of the 24 moves: the joker's discard, when not that one, has no
    value and no loss, and comes last by loss."""
    game = burraco.Game(burraco.Rules("italian-2p"), seed=7)
    game.push("pile")
    game.push("discard Jk")
    untried = 0
    for seed in range(6):
        result = burraco.review(game, seat=0, iterations=1, seed=seed)
        bad = result.decisions[-1]
        assert bad.visits == 1 and bad.best_visits == 1
        if bad.played != bad.best:
            untried += 1
            assert bad.played_value is None and bad.played_visits == 0 and bad.loss is None
            assert result.by_loss()[-1] == bad and bad.to_json()["loss"] is None
    assert untried > 0
