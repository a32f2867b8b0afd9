"""What a seat of a six-player game sees and what bots and search get from the reference engine:
observations, the observation tensor, action ids, policies, perft, batch playouts, records and
determinization (RULES C.9, F.7; docs/search.md; docs/game.md "Six players").

Expected values are worked out here by hand from a position written card by card (the helpers of
tests/test_reference_six.py) and from the layouts the docs give.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter

import numpy
import pytest
from test_reference_six import PACKET_0, closing_position, position

from burraco._errors import InvalidNotationError
from burraco.reference import Game, Match, Move, Rules, perft, playouts
from burraco.reference.actions import meld_table
from burraco.reference.perft import divide

SIX = Rules("brazilian", players=6)
SIX_TWO_SIDES = Rules("brazilian", players=6, sides=2)
CARD = {rank + suit: 13 * number + offset
        for number, suit in enumerate("cdhs") for offset, rank in enumerate("A23456789TJQK")}
CARD["Jk"] = 52


# ---- observations (RULES C.9) ----------------------------------------------------------------


def test_a_seat_sees_its_hand_every_side_and_the_other_sizes():
    game = closing_position()
    seen = game.observation(1)
    assert str(seen.hand) == "Jk"
    assert seen.hand_sizes == (2, 1, 2, 0, 1, 2)
    assert seen.sides == (0, 1, 2, 0, 1, 2)
    assert [[meld.layout for meld in seen.melds(side)] for side in range(3)] == [
        ["7c 8c 9c"], ["3h 4h 5h 6h 7h 8h 9h", "Qd Qs Qs"], ["Jc Jd Jh Jk(=J)"]]
    assert seen.discard_pile == game.discard_pile and seen.stock_size == 30
    # Packet 0 lies face down for seat 3: its size is public, its cards are not; packet 1 joined
    # seat 1's hand; packet 2 is untaken and hidden.
    assert [(status, owner, size, cards) for status, owner, size, cards in seen.pozzetti] == [
        ("face_down", 3, 11, None), ("in_hand", 1, None, None), ("untaken", None, 11, None)]
    fields = dict(part.split("=", 1) for part in str(seen).split(";"))
    assert fields["player"] == "1" and fields["scores"] == "0,0,0"
    assert fields["hands"] == "?2/Jk/?2/?0/?1/?2"
    assert fields["pozzetti"] == "f3:?11/h1:-/u:?11"
    assert fields["stock"] == "?30"
    with pytest.raises(InvalidNotationError):
        seen.melds(3)


def test_determinize_keeps_what_the_seat_knows():
    game = Game(SIX, seed=4)
    game.playout("random", 4)
    game = Game(SIX, seed=4)
    for _ in range(40):
        game.push(game.legal_moves()[0])
    for player in (0, 5):
        made = game.determinize(player, 99)
        assert made.hand(player) == game.hand(player)
        assert [len(made.hand(seat)) for seat in range(6)] == \
            [len(game.hand(seat)) for seat in range(6)]
        assert all(made.known(seat) <= made.hand(seat) for seat in range(6))
        assert made.stock_size == game.stock_size and made.discard_pile == game.discard_pile
        assert str(made.observation(player)) == str(game.observation(player))


# ---- the observation tensor (docs/search.md) -------------------------------------------------------


def test_the_six_player_tensor_of_a_position():
    tensor = closing_position().observation_tensor(1)
    assert tensor.shape == (681,) and tensor.dtype == numpy.float32
    expected = numpy.zeros(681, numpy.float32)
    expected[0 + CARD["Jk"]] = 1  # the hand
    pile = closing_position().discard_pile
    for card in pile:
        expected[53 + CARD[str(card)]] += 1
    # known cards of relative seats 1..5: none. Own side (1) melds, then relative sides 1 (side
    # 2) and 2 (side 0).
    for card in "3h 4h 5h 6h 7h 8h 9h Qd Qs Qs".split():
        expected[371 + CARD[card]] += 1
    for card in "Jc Jd Jh Jk".split():
        expected[424 + CARD[card]] += 1
    for card in "7c 8c 9c".split():
        expected[424 + 53 + CARD[card]] += 1
    expected[530:536] = [1, 2, 0, 1, 2, 2]  # seats 1, 2, 3, 4, 5, 0
    expected[536:538] = [30, len(pile)]
    expected[538 + 1] = 1  # packet 0 face down
    expected[538 + 5 + 3] = 1  # packet 1 in hand
    expected[538 + 10 + 0] = 1  # packet 2 untaken
    expected[553 + 0] = 1  # own side took a packet
    expected[553 + 2] = 1  # side 0, relative side 2, took one
    expected[556 + 1] = 1  # meld phase
    expected[559 + 3] = 1  # seat 4 acts: relative seat 3
    expected[565:567] = [1, 0.5]  # opened; requirement 50 / 100
    assert numpy.array_equal(tensor, expected), numpy.flatnonzero(tensor != expected)


def test_two_sides_leave_the_third_side_blocks_empty():
    game = Game(SIX_TWO_SIDES, seed=2, scores=(1000, 500))
    tensor = game.observation_tensor(1)
    assert tensor[567:570].tolist() == [0.5, 1.0, 0.0]  # own side 1, then side 0, no third
    assert not tensor[424 + 53:530].any()
    buffer = numpy.ones(681, numpy.float32)
    assert game.observation_tensor(1, out=buffer) is buffer and numpy.array_equal(buffer, tensor)
    with pytest.raises(InvalidNotationError, match=r"\(511,\)"):
        game.observation_tensor(1, out=numpy.zeros(511, numpy.float32))


def test_fewer_players_keep_the_511_layout():
    assert Game(Rules("brazilian"), seed=1).observation_tensor(0).shape == (511,)
    assert Game(Rules("brazilian", decks=3, jokers=6), seed=1).observation_tensor(0).shape == (511,)


# ---- action ids ----------------------------------------------------------------------------------


def third_copy_sets() -> int:
    """The sets a three-deck meld table adds, counted from RULES B.2: per rank (12 of them), 0..3
    copies of each suit with a 3 somewhere, at least two naturals; no wild (3 to 9 cards) or one
    of the five wild kinds (up to 9)."""
    count = 0
    for copies in itertools.product(range(4), repeat=4):
        naturals = sum(copies)
        if 3 not in copies or naturals < 2:
            continue
        count += (3 <= naturals <= 9) + 5 * (naturals + 1 <= 9)
    return 12 * count


def test_a_three_copy_set_has_an_id_only_with_three_decks():
    game = Game(SIX, seed=1)
    action = game.action_id("meld Kh Kh Kh")
    assert action >= 1965 and game.action_move(action) == Move._parse("meld Kh Kh Kh", 3)
    with pytest.raises(InvalidNotationError, match="3 copies of Kh"):
        Game(Rules("brazilian"), seed=1).action_id("meld Kh Kh Kh")


def test_the_three_deck_meld_table_adds_the_sets_with_a_third_copy():
    two = meld_table(Rules("brazilian"))
    three = meld_table(Rules("brazilian", decks=3, jokers=6))
    old = set(two.moves)
    assert old <= set(three.moves)
    added = [move for move in three.moves if move not in old]
    assert all(max(Counter(move.cards).values()) == 3 for move in added)
    assert len(added) == third_copy_sets()
    assert Game(SIX, seed=1).action_size == 1965 + len(three) + 18 * 53  # add 36..53 after it


def test_every_legal_move_of_a_six_player_hand_has_its_id():
    game = Game(SIX, seed=8)
    for _ in range(120):
        if game.is_over():
            break
        mask = game.legal_mask()
        ids = [game.action_id(move) for move in game.legal_moves()]
        assert sorted(ids) == numpy.flatnonzero(mask).tolist()
        assert [game.action_move(action) for action in ids] == list(game.legal_moves())
        game.push_action(ids[-1])


# ---- policies, perft, playouts -------------------------------------------------------------------


@pytest.mark.parametrize("rules", [SIX, SIX_TWO_SIDES], ids=["three-sides", "two-sides"])
def test_the_policies_play_six_player_hands_to_their_end(rules):
    for seed in range(3):
        game = Game(rules, seed=seed)
        assert game.playout("greedy") == len(game.moves) and game.is_over()
        game = Game(rules, seed=seed)
        game.playout("random", seed)
        assert game.is_over()
    match = Match(rules, seed=3)
    played = match.play_hand(["greedy", "random"] * 3)
    assert played.is_over() and len(match.scores) == rules.sides


def test_perft_counts_the_legal_sequences():
    game = Game(SIX, seed=1)
    assert perft(game, 1) == 2  # the brazilian first draw: keep or reject
    total = 0
    for move in game.legal_moves():
        game.push(move)
        total += len(game.legal_moves())
        game.pop()
    assert perft(game, 2) == total
    assert sum(divide(game, 3).values()) == perft(game, 3)


def test_batch_playouts_have_a_column_per_side():
    for rules in (SIX, SIX_TWO_SIDES):
        arrays = playouts(rules, 4, seed=6)
        assert arrays["scores"].shape == (4, rules.sides)
        for row, seed in enumerate(arrays["seed"].tolist()):
            game = Game(rules, seed=seed)
            moves = game.playout("random", seed)
            assert arrays["moves"][row] == moves
            assert arrays["scores"][row].tolist() == [side.total for side in game.result().sides]


# ---- records, state strings, the board -------------------------------------------------------------


@pytest.mark.parametrize("rules", [SIX, SIX_TWO_SIDES], ids=["three-sides", "two-sides"])
def test_records_and_state_strings_round_trip(rules):
    game = Game(rules, seed=12, first_player=5, scores=(0,) * rules.sides)
    game.playout("random", 12)
    record = game.record()
    assert record["rules"] == rules.text and record["seed"] == 12 and record["first"] == 5
    again = Game.from_record(record)
    assert again.state_string() == game.state_string() and again.moves == game.moves
    text = game.state_string()
    assert Game.from_state_string(text).state_string() == text


def test_the_board_names_the_three_sides():
    board = str(Game(SIX, seed=1))
    assert "Melds of side 2 (seats 2, 5)" in board and "Pozzetto 2: untaken, 11 cards" in board


def test_json_views_of_six_players():
    """The reference's own views (tests/test_json_views.py holds them to the core's): the sides
    of both six-player tables with their seats, and the full view restores the game."""
    for rules, sides in ((SIX, [[0, 3], [1, 4], [2, 5]]), (SIX_TWO_SIDES, [[0, 2, 4], [1, 3, 5]])):
        game = Game(rules, seed=3)
        game.playout("random", 3)
        view = json.loads(game.to_json())
        assert [side["seats"] for side in view["sides"]] == sides
        assert [seat["side"] for seat in view["seats"]] == [seat % len(sides) for seat in range(6)]
        assert len(view["result"]["sides"]) == len(sides)
        assert Game.from_json(game.to_json()).state_string() == game.state_string()
        mine = json.loads(game.to_json(player=1))
        assert mine["seats"][1]["hand"] is not None and mine["seats"][0]["hand"] is None


def test_a_position_with_a_stock_made_of_packet_zero():
    # Helpers shared with test_reference_six: a two-sides position reads back through the
    # validator (V4: the stock is at most the packet it was made from).
    game = position(SIX_TWO_SIDES, turn=1,
                    hands={0: "Kh", 1: "5h 6h 7h 9s", 2: "Kd Kd", 3: "Qh", 4: "Qd", 5: "Qc"},
                    melds={0: ["Kc Kc Ks"], 1: ["Tc Th Ts"]},
                    packets=[("x", None), ("h0", None), ("u", PACKET_0)],
                    stock=5, pile_top="2h", opened="1,1", need="50,50")
    assert game.stock_size == 5
    with pytest.raises(Exception, match="V4"):
        position(SIX_TWO_SIDES, turn=1,
                 hands={0: "Kh", 1: "5h 6h 7h 9s", 2: "Kd Kd", 3: "Qh", 4: "Qd", 5: "Qc"},
                 melds={0: ["Kc Kc Ks"], 1: ["Tc Th Ts"]},
                 packets=[("x", None), ("h0", None), ("u", PACKET_0)],
                 stock=12, pile_top="2h", opened="1,1", need="50,50")
