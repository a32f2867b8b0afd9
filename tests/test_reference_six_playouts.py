"""Random six-player hands in the reference engine, checked move by move (RULES C, D, E, F.7;
docs/game.md "Six players").

For 10 seeds of each layout (three sides of two, two sides of three; ``-m slow``, which
``.ci/run`` runs, 190 more) a hand is played to its end by the random policy, then replayed from its deal with these checks at every move: the 162
cards are all somewhere (hands, melds, pile, stock, packets, each card three times and six
jokers); the move played is one of the legal moves; the phase and the seat to act follow the
turn structure (a stock or pile draw opens the meld phase, a discard that does not end the hand
passes the turn to the next of the six seats); a side holds at most one packet and only a packet
that may be a pot (with two sides the third packet never is). Every hand must end (the random
policy's loop stops at the move cap), and its result must add up. Now and then every legal move
is pushed on a copy, and the position is read back from its state string, which runs the whole
validator of the engine.
"""

from __future__ import annotations

from collections import Counter

import pytest

from burraco.reference import Game, Rules

SUITED = [rank + suit for suit in "cdhs" for rank in "A23456789TJQK"]
FULL = Counter({**{kind: 3 for kind in SUITED}, "Jk": 6})
LAYOUTS = {"three-sides": Rules("brazilian", players=6),
           "two-sides": Rules("brazilian", players=6, sides=2)}
SEEDS = range(10)
SLOW_SEEDS = range(10, 200)
TAKEN = ("face_down", "seen", "in_hand")


def every_card(game: Game) -> Counter:
    found: Counter = Counter()
    for seat in range(6):
        found.update(str(card) for card in game.hand(seat))
    for side in game.sides:
        for meld in game.melds(side):
            found.update(str(card) for card in meld.cards)
    found.update(str(card) for card in game.discard_pile)
    found.update(str(card) for card in game.stock)
    for _status, _owner, cards in game.pozzetti:
        found.update(str(card) for card in cards)
    return found


def check_packets(game: Game, rules: Rules) -> None:
    holders = [(number, game.side_of(owner)) for number, (status, owner, _cards)
               in enumerate(game.pozzetti) if status in TAKEN]
    sides = [side for _number, side in holders]
    assert len(sides) == len(set(sides)), game.pozzetti
    assert all(number < rules.sides for number, _side in holders), game.pozzetti
    statuses = [status for status, _owner, _cards in game.pozzetti]
    if "untaken" in statuses:  # packets leave from the top
        assert all(status == "untaken" for status in statuses[statuses.index("untaken"):])


def play_and_check(rules: Rules, seeds: range) -> Counter:
    """Plays and checks the hand of each seed (the module's docstring); how they ended."""
    ends: Counter = Counter()
    for seed in seeds:
        played = Game(rules, seed=seed)
        count = played.playout("random", seed)
        assert played.is_over() and count == len(played.moves)
        game = Game(rules, seed=seed)
        thorough = seed % 25 == 0
        for step, move in enumerate(played.moves):
            assert every_card(game) == FULL, (seed, step)
            legal = game.legal_moves()
            assert move in legal, (seed, step, str(move))
            if thorough and step % 15 == 0:
                for other in legal:
                    trial = game.copy()
                    trial.push(other)
                text = game.state_string()
                assert Game.from_state_string(text).state_string() == text
            turn, phase = game.turn, game.phase
            game.push(move)
            check_packets(game, rules)
            if move.kind in ("draw", "pile", "keep", "reject"):
                assert phase == "draw" and game.phase == "meld" and game.turn == turn
            elif move.kind == "discard":
                assert phase == "meld"
                assert game.is_over() or (game.phase == "draw" and game.turn == (turn + 1) % 6)
            else:
                assert phase == "meld" and game.turn == turn
                assert game.phase == "meld" or game.end_reason == "closed"
        assert every_card(game) == FULL
        assert game.is_over() and not game.legal_moves()
        assert game.state_string() == played.state_string()
        text = game.state_string()
        assert Game.from_state_string(text).state_string() == text
        result = game.result()
        assert [entry.side for entry in result.sides] == list(range(rules.sides))
        for entry in result.sides:
            assert entry.total == (entry.melds + entry.bonuses + entry.closing + entry.hand
                                   + entry.pozzetto + entry.cut)
            assert entry.hand <= 0 and entry.pozzetto <= 0 and entry.total % 5 == 0
        if result.end_reason == "closed":
            assert [entry.closing for entry in result.sides].count(100) == 1
        ends[result.end_reason] += 1
    return ends


@pytest.mark.parametrize("name", LAYOUTS)
def test_random_six_player_hands(name):
    ends = play_and_check(LAYOUTS[name], SEEDS)
    # The random policy ends hands every way but rarely by a deadlock; the first 20 seeds of
    # each layout close some and exhaust the stock in others (a layout that could never close
    # would show here).
    assert ends["closed"] > 0 and ends["stock_exhausted"] > 0, ends


@pytest.mark.slow
@pytest.mark.parametrize("name", LAYOUTS)
def test_random_six_player_hands_slow(name):
    ends = play_and_check(LAYOUTS[name], SLOW_SEEDS)
    assert sum(ends.values()) == len(SLOW_SEEDS) and ends["stock_exhausted"] > 0, ends
