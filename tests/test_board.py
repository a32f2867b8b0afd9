"""The board drawing (src/burraco/_board.py): what ``str(game)`` and the command show.

* The same text on both engines for the same game, every line within 80 columns (long piles and
  31-card hands wrap), the full view showing every hand and the seat's view only its own.
* The discard pile in pile order, bottom to top, rebuilt from the history and checked against an
  order kept here move by move (discards on top, ``pile`` empties it, a brazilian ``reject`` at the
  bottom); a position read from a state string, whose pile order is unknown, says so.
* One line says how a finished hand ended; the cards new in a hand are listed under it.
* ``str(game)`` is the drawing and ``repr(game)`` the constructor call, on both engines.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest
from conftest import ENGINES, load_engine

import burraco
from burraco import _board
from burraco._board import Seating, draw, pile_order

PRESETS = burraco.Rules.PRESETS


def games_along_a_hand(engine, preset: str, seed: int, count: int = 12):
    """Copies of one greedy hand at about ``count`` moments, from the deal to the end."""
    game = engine.Game(engine.Rules(preset), seed=seed)
    game.playout("greedy", seed)
    moves = list(game.moves)
    step = max(1, len(moves) // count)
    start = game.copy()
    while start.moves:
        start.pop()
    for number, move in enumerate(moves):
        if number % step == 0:
            yield start.copy()
        start.push(move)
    yield start


def pile_by_hand(game) -> list[str]:
    """The pile of ``game`` kept move by move from its deal, independently of _board."""
    start = game.copy()
    moves = list(start.moves)
    while start.moves:
        start.pop()
    pile = [str(card) for card in start.discard_pile]
    assert len(pile) <= 1  # a deal has at most its start card
    for move in moves:
        before = Counter(str(card) for card in start.discard_pile)
        start.push(move)
        text = str(move)
        if text.startswith("discard "):
            pile.append(text.split()[1])
        elif text == "pile":
            pile = []
        elif text == "reject":  # the stock card goes under the pile
            (added,) = Counter(str(card) for card in start.discard_pile) - before
            pile.insert(0, added)
        assert sorted(pile) == sorted(str(card) for card in start.discard_pile), text
    return pile


@pytest.mark.parametrize("preset", PRESETS)
def test_both_engines_draw_the_same_text_within_80_columns(preset):
    core, reference = load_engine("core"), load_engine("reference")
    seed = 5 + PRESETS.index(preset)
    pairs = zip(games_along_a_hand(core, preset, seed), games_along_a_hand(reference, preset, seed))
    drawn = 0
    for ours, theirs in pairs:
        assert ours.state_string() == theirs.state_string()
        text = draw(ours)
        assert text == draw(theirs)
        for line in text.splitlines():
            assert len(line) <= 80, line
        for seat in range(ours.players):
            assert f"Hand of seat {seat} ({len(ours.hand(seat))}): " in text
        drawn += 1
    assert drawn > 5


@pytest.mark.parametrize("engine_name", ENGINES)
@pytest.mark.parametrize("preset", PRESETS)
def test_the_pile_is_drawn_bottom_to_top(engine_name, preset):
    engine = load_engine(engine_name)
    count = 40 if engine_name == "core" else 12
    unsorted_seen = False
    for game in games_along_a_hand(engine, preset, 21 + PRESETS.index(preset), count):
        expected = pile_by_hand(game)
        order, known = pile_order(game)
        assert known
        assert [str(card) for card in order] == expected
        if expected:
            assert str(game.top_discard) == expected[-1]
            line = f"Discard pile ({len(expected)}, bottom to top): {' '.join(expected)} (top)"
            assert line in " ".join(draw(game, width=10_000).split("\n    "))
            unsorted_seen |= expected != sorted(expected, key=lambda name: burraco.Card(name))
        else:
            assert "Discard pile: empty" in draw(game)
    assert unsorted_seen  # the drawing is not the pile sorted


def test_a_pile_whose_order_is_unknown_says_so():
    game = burraco.Game(burraco.Rules("italian-2p"), seed=3)
    game.playout("greedy", 1)
    while game.is_over() or len(game.discard_pile) < 2:
        game.pop()
    from_text = burraco.Game.from_state_string(game.state_string())  # no history
    order, known = pile_order(from_text)
    assert not known and str(order[-1]) == str(game.top_discard)
    assert sorted(map(str, order)) == sorted(map(str, game.discard_pile))
    assert "order unknown below the top" in draw(from_text)
    assert "bottom to top" in draw(game)


@pytest.mark.parametrize("engine_name", ENGINES)
def test_a_seats_view_hides_the_other_hands(engine_name):
    engine = load_engine(engine_name)
    game = engine.Game(engine.Rules("italian"), seed=2)
    seating = Seating({0: "you", 1: "greedy bot"}, human=0)
    text = draw(game, seating, title="italian, hand 1")
    lines = text.splitlines()
    assert lines[0].startswith("== italian, hand 1 ==") and len(lines[0]) == 80
    assert f"Hand of seat 0 (you) (11): {game.hand(0)}" in text
    assert "Hand of seat 1 (greedy bot): 11 cards" in text
    assert "Hand of seat 2: 11 cards" in text
    for status, _, cards in game.pozzetti:
        assert status == "untaken" and str(cards) not in text  # the full view shows them
    assert str(game.pozzetti[0][2]) in draw(game)
    assert lines[-1] == "Turn: seat 0 (you), draw phase"


@pytest.mark.parametrize("engine_name", ENGINES)
def test_new_cards_and_the_end_of_a_hand(engine_name):
    engine = load_engine(engine_name)
    game = engine.Game(engine.Rules("italian-2p"), seed=4)
    before = game.hand(0)
    game.push("draw")
    new = game.hand(0) - before
    seating = Seating({0: "you"}, human=0)
    lines = draw(game, seating, new_cards=new).splitlines()
    index = lines.index(f"Hand of seat 0 (you) (12): {game.hand(0)}")
    assert lines[index + 1] == f"  new in your hand: {new}"
    assert "new in your hand" not in draw(game, seating)

    game.playout("greedy", 4)
    text = draw(game)
    result = game.result()
    ended = [line for line in text.splitlines() if re.search(r"hand over|hand is over", line, re.I)]
    assert len(ended) == 1 and ended == [text.splitlines()[-1]]
    reason = str(result.end_reason).replace("_", " ")
    assert ended[0].startswith(f"Hand over: {reason}")
    if result.closing_side is not None:
        assert f"by side {result.closing_side} (" in ended[0]


def test_long_lines_wrap_under_their_start():
    game = burraco.Game(burraco.Rules("italian-2p"), seed=8)
    while len(game.discard_pile) < 40:  # draw and discard only: the pile grows a card a turn
        moves = game.legal_moves()
        game.push(next(move for move in moves if move.kind in ("draw", "discard")))
    lines = draw(game).splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("Stock:"))
    rest = []
    for line in lines[first + 1:]:
        if not line.startswith("    "):
            break
        rest.append(line.strip())
    assert rest and all(len(line) <= 80 for line in lines)
    assert " ".join([lines[first], *rest]).endswith(
        " ".join(str(card) for card in pile_order(game)[0]) + " (top)")


@pytest.mark.parametrize("engine_name", ENGINES)
def test_str_is_the_board_and_repr_the_constructor_call(engine_name):
    engine = load_engine(engine_name)
    game = engine.Game(engine.Rules("online-2p"), seed=6)
    game.push(game.legal_moves()[0])
    assert str(game) == _board.draw(game) == _board.game_str(game)
    assert "\x1b" not in str(game)
    assert repr(game) == f"Game.from_state_string({game.state_string()!r})"
    assert engine.Game.from_state_string(game.state_string()).state_string() == game.state_string()
