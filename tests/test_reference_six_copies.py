"""Three-deck packs in the reference engine: how many copies a card list, a move and a meld may
hold (RULES A.1, A.2, B.2; docs/api.md "Cards"; docs/game.md "Six players").

A two-deck pack holds two copies of a suited card and up to four jokers; a three-deck pack three
copies and up to six jokers. Every expected value below is written from those rules, not read
from the engine. The two-deck limits are pinned here too, so that a change which loosened them
for every pack would fail.
"""

from __future__ import annotations

import pickle

import pytest

from burraco._errors import IllegalMoveError, InvalidNotationError
from burraco.reference import Cards, Meld, Melds, Move, Rules

SIX = Rules("brazilian", players=6)


# ---- Cards ------------------------------------------------------------------------------------


def test_two_decks_are_the_default_and_hold_two_copies():
    assert Cards("5h 5h").decks == 2
    with pytest.raises(InvalidNotationError) as excinfo:
        Cards("5h 5h 5h")
    assert str(excinfo.value) == "'5h 5h 5h': 3 copies of 5h (at most 2)"
    with pytest.raises(InvalidNotationError, match=r"5 copies of Jk \(at most 4\)"):
        Cards(["Jk"] * 5)


def test_three_decks_hold_three_copies_and_six_jokers():
    cards = Cards("5h 5h 5h Jk Jk Jk Jk Jk Jk", decks=3)
    assert cards.count("5h") == 3 and cards.count("Jk") == 6 and len(cards) == 9
    assert cards.decks == 3
    assert str(cards) == "5h 5h 5h Jk Jk Jk Jk Jk Jk"


@pytest.mark.parametrize(
    "text, message",
    [
        ("5h 5h 5h 5h", "'5h 5h 5h 5h': 4 copies of 5h (at most 3 with 3 decks)"),
        ("Ac Ac Ac Ac 2d", "'Ac Ac Ac Ac 2d': 4 copies of Ac (at most 3 with 3 decks)"),
        ("Jk " * 7, "7 copies of Jk (at most 6 with 3 decks)"),
    ],
)
def test_a_fourth_copy_is_refused_quoting_the_input(text, message):
    with pytest.raises(InvalidNotationError) as excinfo:
        Cards(text, decks=3)
    assert message in str(excinfo.value)


@pytest.mark.parametrize("decks", [1, 4, 0, "3", 3.0, True, None], ids=repr)
def test_only_two_or_three_decks(decks):
    with pytest.raises(InvalidNotationError) as excinfo:
        Cards("5h", decks=decks)
    assert repr(decks) in str(excinfo.value)


def test_operators_keep_the_larger_pack():
    three = Cards("5h 5h", decks=3)
    total = three + "5h"  # the string is read with the left operand's pack
    assert total.count("5h") == 3 and total.decks == 3
    assert (Cards("5h") + three).decks == 3  # a two-deck Cards plus a three-deck one
    with pytest.raises(InvalidNotationError, match="4 copies of 5h"):
        total + "5h"
    with pytest.raises(InvalidNotationError):
        Cards("5h 5h") + "5h"  # two decks: a third copy is refused as before
    assert (total - "5h 5h") == Cards("5h")
    assert (total | Cards("5h 6h")) == Cards("5h 5h 5h 6h", decks=3)
    assert Cards("5h 5h 5h", decks=3) >= "5h 5h 5h"


def test_equality_and_hash_ignore_the_pack():
    assert Cards("5h 6h", decks=3) == Cards("5h 6h")
    assert hash(Cards("5h 6h", decks=3)) == hash(Cards("5h 6h"))


def test_repr_and_pickle_keep_the_pack():
    cards = Cards("5h 5h 5h", decks=3)
    assert repr(cards) == "Cards('5h 5h 5h', decks=3)"
    assert repr(Cards("5h 5h")) == "Cards('5h 5h')"  # two decks: written as before
    again = pickle.loads(pickle.dumps(cards))
    assert again == cards and again.decks == 3


# ---- moves ------------------------------------------------------------------------------------


def test_move_notation_alone_reads_a_two_deck_pack():
    with pytest.raises(InvalidNotationError, match="3 copies of Kh"):
        Move("meld Kh Kh Kh")
    assert str(Move("meld Kh Kh Ks")) == "meld Kh Kh Ks"


def test_a_three_copy_move_pickles():
    move = Move._parse("meld Kh Kh Kh", 3)
    assert str(move) == "meld Kh Kh Kh" and move.cards.count("Kh") == 3
    assert pickle.loads(pickle.dumps(move)) == move


# ---- melds ------------------------------------------------------------------------------------


def test_a_set_may_hold_three_copies_with_three_decks():
    meld = Meld("Kh Kh Kh", SIX)
    assert meld.kind == "set" and meld.layout == "Kh Kh Kh" and meld.cards.decks == 3
    grown = meld.add("Kc").add("Kc").add("Kc").add("Jk")
    assert grown.layout == "Kc Kc Kc Kh Kh Kh Jk(=K)" and grown.burraco == "dirty"


def test_a_set_refuses_a_fourth_copy():
    meld = Meld("Kh Kh Kh Ks", SIX)
    assert meld.can_add("Kh") is False
    with pytest.raises(IllegalMoveError) as excinfo:
        meld.add("Kh")
    assert str(excinfo.value) == (
        "cannot add 'Kh' to the set 'Kh Kh Kh Ks': the set already holds all 3 copies of Kh")
    # Two decks: the message and the limit are as before.
    with pytest.raises(IllegalMoveError, match="the set already holds both copies of Kh"):
        Meld("Kd Kh Kh").add("Kh")


def test_a_set_keeps_max_set_size():
    # RULES B.2 / G row 20: max_set_size stays 9 with three decks (8 naturals and a wild).
    meld = Meld("Kc Kc Kc Kd Kd Kd Kh Kh Kh", SIX)
    assert len(meld) == 9
    with pytest.raises(IllegalMoveError, match=r"already has 9 cards \(max_set_size=9\)"):
        meld.add("Ks")


def test_meld_copies_follow_the_rules_pack():
    with pytest.raises(InvalidNotationError, match="3 copies of Kh"):
        Meld("Kh Kh Kh")  # italian: two decks
    with pytest.raises(InvalidNotationError, match="3 copies of Kh"):
        Meld(Cards("Kh Kh Kh", decks=3), Rules())  # a three-deck Cards under two-deck rules
    with pytest.raises(InvalidNotationError, match=r"4 copies of Kh \(at most 3 with 3 decks\)"):
        Meld("Kh Kh Kh Kh", SIX)
    with pytest.raises(InvalidNotationError, match="4 copies of Kc"):
        Meld.from_layout("Kc Kc Kc Kc Jk(=K)", SIX)
    assert Meld.from_layout("Kc Kc Kc Jk(=K)", SIX).layout == "Kc Kc Kc Jk(=K)"


def test_melds_of_a_side_take_three_copies():
    melds = Melds([], SIX).meld("9d 9d 9d").add(0, "9s")
    assert [meld.layout for meld in melds] == ["9d 9d 9d 9s"]
    with pytest.raises(InvalidNotationError, match="3 copies of 9d"):
        Melds().meld("9d 9d 9d")
