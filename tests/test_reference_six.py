"""The six-player, three-deck brazilian game in the reference engine (RULES A.1, C.4, C.6, D.3,
D.4, E, F.2, F.3, F.5, F.7; docs/game.md "Six players").

Every expected value is written here from the rules: the deck from RULES A.1, the deal from the
contract of docs/game.md "Deal" (dealt again below with this file's own arithmetic and the
independent generator of tests/test_deal.py), the positions of play as state strings built card
by card, and the scores added up by hand from RULES E.
"""

from __future__ import annotations

from collections import Counter

import pytest
from test_deal import Xoshiro256StarStar  # the generator written out from the contract

from burraco._errors import IllegalMoveError, InvalidNotationError, InvalidStateError
from burraco.reference import Cards, Game, Match, Rules, SideResult

SUITED = [rank + suit for suit in "cdhs" for rank in "A23456789TJQK"]
SIX = Rules("brazilian", players=6)
SIX_TWO_SIDES = Rules("brazilian", players=6, sides=2)


# ---- Rules ------------------------------------------------------------------------------------


def test_six_players_take_the_three_deck_pack_by_default():
    rules = Rules("brazilian", players=6)
    assert (rules.players, rules.sides, rules.decks, rules.jokers) == (6, 3, 3, 6)
    assert rules.pozzetto_sizes == (11, 11, 11)
    assert rules.total_cards == 162 and rules.initial_stock == 63  # RULES F.2: 66 + 33 + 63
    assert rules.text == "brazilian:players=6" and repr(rules) == "Rules('brazilian', players=6)"
    assert rules.knobs()["sides"] == 3 and list(rules.knobs())[:3] == ["players", "sides", "decks"]
    assert Rules.from_text("brazilian:players=6") == rules


def test_two_sides_of_three_are_named_in_the_rules_text():
    rules = Rules("brazilian", players=6, sides=2)
    assert rules.text == "brazilian:players=6:sides=2"
    assert repr(rules) == "Rules('brazilian', players=6, sides=2)"
    assert Rules.from_text(rules.text) == rules and rules != SIX
    assert Rules("brazilian", players=6, sides=3) == SIX  # the default is not written
    with pytest.raises(InvalidNotationError, match="not in canonical form"):
        Rules.from_text("brazilian:players=6:sides=3")


def test_given_knobs_override_the_six_player_defaults():
    rules = Rules("brazilian", players=6, decks=2, jokers=4)
    assert (rules.decks, rules.jokers, rules.pozzetto_sizes) == (2, 4, (11, 11, 11))
    assert rules.initial_stock == 108 - 66 - 33
    assert rules.text == "brazilian:players=6:decks=2:jokers=4"


def test_fewer_players_keep_their_sides_and_do_not_list_them():
    # RULES F.1, F.6: three players make three sides, two or four players two.
    assert [Rules(preset).sides for preset in Rules.PRESETS] == [
        3 if Rules(preset).players == 3 else 2 for preset in Rules.PRESETS]
    assert Rules("italian-3p").sides == 3 and Rules("italian").sides == Rules("italian-2p").sides == 2
    assert "sides" not in Rules("brazilian").knobs() and "sides" not in Rules("italian-3p").knobs()
    assert Rules("italian-3p", players=4).sides == 2
    assert Rules("brazilian", players=6).replace(players=4) == Rules("brazilian")


@pytest.mark.parametrize(
    "knobs, quoted",
    [
        ({"sides": 3}, "sides=3"),  # four players make two sides
        ({"players": 2, "sides": 3}, "sides=3"),
        ({"players": 3, "sides": 2}, "sides=2"),
        ({"players": 6, "sides": 4}, "4"),
        ({"players": 6, "sides": 6}, "6"),
        ({"players": 5}, "5"),
        ({"decks": 4}, "4"),
        ({"jokers": 6}, "jokers=6"),  # two decks hold at most four
        ({"players": 6, "decks": 2}, "jokers=6"),  # the derived six jokers need three decks
        ({"pozzetto_sizes": (11, 11, 11)}, "(11, 11, 11)"),  # three packets: six players only
        ({"players": 6, "pozzetto_sizes": (11, 11, 11, 11)}, "(11, 11, 11, 11)"),
    ],
    ids=repr,
)
def test_bad_layouts_are_refused_quoting_the_value(knobs, quoted):
    with pytest.raises(InvalidNotationError) as excinfo:
        Rules("brazilian", **knobs)
    assert quoted in str(excinfo.value)


# ---- the deck and the deal (docs/game.md "Deal") ------------------------------------------------


def test_the_three_deck_pack():
    game = Game(SIX, seed=5)
    everything = Counter()
    for seat in range(6):
        everything.update(str(card) for card in game.hand(seat))
    for _status, _owner, cards in game.pozzetti:
        everything.update(str(card) for card in cards)
    everything.update(str(card) for card in game.stock)
    assert sum(everything.values()) == 162
    assert everything == Counter({**{kind: 3 for kind in SUITED}, "Jk": 6})


def contract_deal(seed: int, players: int = 6, packets: int = 3) -> dict[str, list]:
    """The deal of docs/game.md "Deal", written out: the unshuffled three-deck pack, Fisher-Yates
    from the end, hands round the table from seat 0, packets one card at a time in turn."""
    deck = [kind for _copy in range(3) for kind in SUITED] + ["Jk"] * 6
    generator = Xoshiro256StarStar(seed)
    for i in range(len(deck) - 1, 0, -1):
        j = generator.bounded(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    hands = [[deck[k] for k in range(11 * players) if k % players == seat] for seat in range(players)]
    rest = deck[11 * players:]
    packet_cards = [rest[number:33:packets] for number in range(packets)]  # 0, 1, 2, 0, 1, 2, ...
    return {"deck": deck, "hands": hands, "packets": packet_cards, "stock": rest[33:]}


@pytest.mark.parametrize("rules", [SIX, SIX_TWO_SIDES], ids=["three-sides", "two-sides"])
@pytest.mark.parametrize("seed", [0, 1, 2, 77, 2**64 - 1])
def test_the_deal_follows_the_contract(rules, seed):
    expected = contract_deal(seed)
    game = Game(rules, seed=seed)
    for seat in range(6):
        assert game.hand(seat) == Cards(expected["hands"][seat], decks=3)
    assert [Cards(cards, decks=3) for _s, _o, cards in game.pozzetti] == \
        [Cards(packet, decks=3) for packet in expected["packets"]]
    assert [str(card) for card in game.stock] == expected["stock"]
    assert game.top_discard is None and game.stock_size == 63  # no face-up card (RULES F.2)


def test_the_deal_known_answers():
    # docs/game.md "Deal", six players: Rules('brazilian', players=6), seed 1.
    expected = contract_deal(1)
    assert expected["deck"][:12] == ["Td", "8c", "Kd", "Qd", "3d", "3c", "4s", "9d", "7s", "9h",
                                     "2c", "Th"]
    assert expected["hands"][0] == ["Td", "4s", "6d", "9s", "9d", "As", "6c", "Kh", "3d", "Jk", "4c"]
    assert [packet[:3] for packet in expected["packets"]] == [["6c", "Js", "Td"],
                                                               ["4c", "Th", "6h"],
                                                               ["Jc", "2d", "Qh"]]
    assert expected["stock"][:3] == ["Kh", "5d", "Qc"]
    game = Game(SIX, seed=1)
    assert str(game.hand(0)) == "4c 6c 3d 6d 9d Td Kh As 4s 9s Jk"
    assert [str(card) for card in game.stock[:3]] == ["Kh", "5d", "Qc"]
    assert str(game.pozzetti[2][2]) == "Jc 2d 2d 4h Qh Qh 5s 7s 8s Ts Ks"


def test_the_deal_does_not_depend_on_the_sides():
    one, other = Game(SIX, seed=9), Game(SIX_TWO_SIDES, seed=9)
    assert [one.hand(seat) for seat in range(6)] == [other.hand(seat) for seat in range(6)]
    assert one.stock == other.stock


def test_the_first_player_moves_the_hands_round_the_table():
    expected = contract_deal(3)
    game = Game(SIX, seed=3, first_player=4)
    for k in range(6):
        assert game.hand((4 + k) % 6) == Cards(expected["hands"][k], decks=3)
    assert game.turn == 4


def test_the_cutter_is_two_seats_before_the_first_player():
    # RULES F.5: the cutter sits on the dealer's right, (first - 2) mod N; with probability 1
    # every cut is exact. Three sides: side = seat % 3; two sides: seat % 2.
    for first, cutter in ((0, 4), (1, 5), (3, 1)):
        assert Game(SIX.replace(cut_exact_probability=1.0), seed=1,
                    first_player=first).cut_side == cutter % 3
        assert Game(SIX_TWO_SIDES.replace(cut_exact_probability=1.0), seed=1,
                    first_player=first).cut_side == cutter % 2


# ---- seats and sides ----------------------------------------------------------------------------


def test_three_sides_of_two():
    game = Game(SIX, seed=1)
    assert [game.side_of(seat) for seat in range(6)] == [0, 1, 2, 0, 1, 2]  # A B C A B C
    assert game.sides == (0, 1, 2) and game.scores == (0, 0, 0)
    assert [len(game.melds(side)) for side in range(3)] == [0, 0, 0]
    with pytest.raises(InvalidNotationError):
        game.melds(3)


def test_two_sides_of_three():
    game = Game(SIX_TWO_SIDES, seed=1)
    assert [game.side_of(seat) for seat in range(6)] == [0, 1, 0, 1, 0, 1]  # A B A B A B
    assert game.sides == (0, 1) and game.scores == (0, 0)
    with pytest.raises(InvalidNotationError):
        game.melds(2)


def test_scores_are_one_per_side():
    assert Game(SIX, seed=1, scores=(1500, 0, 10)).scores == (1500, 0, 10)
    with pytest.raises(InvalidNotationError, match="expected 3 ints"):
        Game(SIX, seed=1, scores=(0, 0))
    with pytest.raises(InvalidNotationError, match="expected 2 ints"):
        Game(SIX_TWO_SIDES, seed=1, scores=(0, 0, 0))
    # The opening minimum reads each side's score (RULES C.3): 75 from 1500 up.
    fields = dict(part.split("=", 1) for part in
                  Game(SIX, seed=1, scores=(1500, 0, 10)).state_string().split(";"))
    assert fields["need"] == "75,50,50" and fields["scores"] == "1500,0,10"


def test_turns_go_round_six_seats():
    game = Game(SIX, seed=1)
    game.push("keep")
    seats = [game.turn]
    while len(seats) < 8:
        game.push(game.legal_moves()[-1])  # a discard: the turn passes
        if game.phase == "draw":
            seats.append(game.turn)
            game.push("draw")
    assert seats == [0, 1, 2, 3, 4, 5, 0, 1]


# ---- positions of play ---------------------------------------------------------------------------

FULL = Counter({**{kind: 3 for kind in SUITED}, "Jk": 6})


def kinds(text: str) -> list[str]:
    return text.split()


def canonical(cards: list[str]) -> str:
    return "".join(sorted(cards, key=lambda card: Cards(card).distinct()[0].index)) or "-"


def position(rules: Rules, *, turn: int, phase: str = "meld", hands: dict[int, str],
             melds: dict[int, list[str]], packets: list[tuple[str, str | None]],
             stock: int, pile_top: str, opened: str, need: str, deadlock: int = 0,
             flags: str = "-", scores: str | None = None) -> Game:
    """A game in a position written card by card. ``packets``: (prefix, cards) per packet, the
    cards None for a packet in a hand or the stock. Every card not placed goes first to the stock
    (``stock`` cards, in canonical order), the rest to the discard pile, whose top is
    ``pile_top``; with ``pile_top`` '' the pile is the last card left alone and the stock all the
    others (a deadlock position)."""
    sides = rules.sides
    left = Counter(FULL)
    hand_texts = []
    for seat in range(6):
        cards = kinds(hands.get(seat, ""))
        left.subtract(cards)
        hand_texts.append(canonical(cards))
    meld_texts = []
    for side in range(sides):
        layouts = melds.get(side, [])
        for layout in layouts:
            left.subtract(word.partition("(")[0] for word in layout.split())
        meld_texts.append("+".join(layout.replace(" ", "") for layout in layouts) or "-")
    packet_texts = []
    for prefix, cards in packets:
        if cards is None:
            packet_texts.append(f"{prefix}:-")
        else:
            left.subtract(kinds(cards))
            packet_texts.append(f"{prefix}:{''.join(kinds(cards))}")
    assert all(count >= 0 for count in left.values()), left
    rest = sorted(left.elements(), key=lambda card: Cards(card).distinct()[0].index)
    stock_cards, pile = rest[:stock], rest[stock:]
    if not pile_top:
        stock_cards, pile = rest[:-1], rest[-1:]
        pile_top = pile[0]
    assert pile_top in pile
    fields = {
        "v": "1", "rules": rules.text, "seed": "-", "first": "0",
        "scores": scores or ",".join(["0"] * sides), "turn": str(turn), "phase": phase,
        "hands": "/".join(hand_texts), "known": "/".join(["-"] * 6),
        "stock": "".join(stock_cards) or "-", "pile": canonical(pile), "top": pile_top,
        "melds": "/".join(meld_texts), "pozzetti": "/".join(packet_texts), "hold": "-",
        "opened": opened, "need": need, "deadlock": str(deadlock), "turnflags": flags,
        "split": "-", "end": "-", "cut": "-",
    }
    return Game.from_state_string(";".join(f"{name}={value}" for name, value in fields.items()))


PACKET_0 = "Ac Ac 3c 4c 5c 6c 7c 8c 9c Tc Jc"  # 15 + 15 + 5 * 5 + 4 * 10 = 95 points
PACKET_1 = "Ad 3d 4d 5d 6d 7d 8d 9d Td Jd Qd"
PACKET_2 = "As 3s 4s 5s 6s 7s 8s 9s Ts Js Qs"


def test_a_side_takes_the_top_packet_by_discarding():
    game = position(SIX, turn=0, hands={0: "5h 6h 7h Qs", 1: "Kh", 2: "Kd", 3: "Qh", 4: "Qd",
                                        5: "Qc"},
                    melds={0: ["Kc Kc Ks"]},
                    packets=[("u", PACKET_0), ("u", PACKET_1), ("u", PACKET_2)],
                    stock=40, pile_top="2h", opened="1,0,0", need="50,50,50")
    game.push("meld 5h 6h 7h")
    game.push("discard Qs")
    assert [(status, owner) for status, owner, _cards in game.pozzetti] == \
        [("face_down", 0), ("untaken", None), ("untaken", None)]
    assert game.turn == 1 and game.phase == "draw" and len(game.hand(0)) == 0


def test_each_side_takes_the_next_packet_on_the_fly():
    # Side 0 (seat 3) has packet 0; side 1 (seat 1) runs out of cards: it takes packet 1, top first.
    game = position(SIX, turn=1,
                    hands={0: "Kh", 1: "5h 6h 7h", 2: "Kh Kd", 3: "Jh", 4: "Kd", 5: "Qh Qh"},
                    melds={0: ["Kc Kc Ks"], 1: ["Tc Th Ts"]},
                    packets=[("h3", None), ("u", PACKET_1), ("u", PACKET_2)],
                    stock=40, pile_top="2h", opened="1,1,0", need="50,50,50")
    game.push("meld 5h 6h 7h")
    assert [(status, owner) for status, owner, _cards in game.pozzetti] == \
        [("in_hand", 3), ("in_hand", 1), ("untaken", None)]
    assert game.hand(1) == Cards(PACKET_1) and game.phase == "meld"
    game.push("discard Qd")
    assert game.turn == 2 and game.pozzetti[2][0] == "untaken"


def test_a_side_with_its_packet_cannot_take_another():
    # Side 0 holds packet 0 and has no burraco; seat 3 (side 0) may not meld down to one card it
    # could only discard by emptying its hand: packet 1 is for another side (RULES C.4, C.7).
    game = position(SIX, turn=3,
                    hands={0: "Kh", 1: "Kh", 2: "Kd", 3: "5h 6h 7h 9h", 4: "Kd", 5: "Qh"},
                    melds={0: ["Kc Kc Ks"], 1: ["Tc Th Ts"]},
                    packets=[("h0", None), ("u", PACKET_1), ("u", PACKET_2)],
                    stock=40, pile_top="2h", opened="1,1,0", need="50,50,50")
    assert "meld 5h 6h 7h" not in game.legal_moves()
    with pytest.raises(IllegalMoveError, match=r"RULES C.7"):
        game.push("meld 5h 6h 7h")
    assert game.legal_moves().strings() == ["discard 5h", "discard 6h", "discard 7h",
                                            "discard 9h"]


def reserve_position(rules: Rules, seat_hand: str) -> Game:
    """Packet 0 became the stock, packet 1 is side 0's (seat 0); packet 2 is untaken; seat 1
    (side 1) is in its meld phase with ``seat_hand``."""
    sides = rules.sides
    melds = {0: ["Kc Kc Ks"], 1: ["Tc Th Ts"]}
    opened = ",".join(["1", "1"] + ["0"] * (sides - 2))
    return position(rules, turn=1,
                    hands={0: "Kh", 1: seat_hand, 2: "Kd Kd", 3: "Qh", 4: "Qd", 5: "Qc"},
                    melds=melds, packets=[("x", None), ("h0", None), ("u", PACKET_2)],
                    stock=5, pile_top="2h", opened=opened, need=",".join(["50"] * sides))


def test_with_three_sides_the_third_packet_is_a_pot():
    game = reserve_position(SIX, "5h 6h 7h 9s")
    game.push("meld 5h 6h 7h")
    game.push("discard 9s")
    assert game.pozzetti[2][:2] == ("face_down", 1)


def test_with_two_sides_the_third_packet_is_only_a_stock_reserve():
    game = reserve_position(SIX_TWO_SIDES, "5h 6h 7h 9s")
    assert "meld 5h 6h 7h" not in game.legal_moves()
    with pytest.raises(IllegalMoveError, match=r"could not be finished after it \(RULES C.7\)"):
        game.push("meld 5h 6h 7h")


def test_the_reserve_packet_becomes_the_stock():
    # Two sides of three: the stock is empty, packet 2 untaken: the draw turns it into the stock.
    game = position(SIX_TWO_SIDES, turn=3, phase="draw",
                    hands={0: "Kh", 1: "Kd", 2: "Kd Kd", 3: "Qh 9s", 4: "Qd", 5: "Qc"},
                    melds={0: ["Kc Kc Ks"], 1: ["Tc Th Ts"]},
                    packets=[("h2", None), ("h1", None), ("u", PACKET_2)],
                    stock=0, pile_top="2h", opened="1,1", need="50,50")
    assert game.legal_moves().strings() == ["draw", "pile"]
    game.push("draw")
    assert game.pozzetti[2][:2] == ("stock", None) and game.stock_size == 10
    assert "As" in game.hand(3)  # the packet's top card, its order kept
    game.push("discard 9s")
    assert not game.is_over() and game.turn == 4


def test_the_hand_ends_when_the_stock_and_the_packets_are_gone():
    game = position(SIX, turn=3, phase="draw",
                    hands={0: "Kh", 1: "Kd", 2: "Kd Kd", 3: "Qh 9s", 4: "Qd", 5: "Qc"},
                    melds={0: ["Kc Kc Ks"], 1: ["Tc Th Ts"], 2: ["Jc Jd Jh"]},
                    packets=[("h0", None), ("h1", None), ("h2", None)],
                    stock=1, pile_top="2h", opened="1,1,1", need="50,50,50")
    game.push("draw")
    assert game.stock_size == 0 and not game.is_over()
    game.push("discard 9s")
    assert game.is_over() and game.end_reason == "stock_exhausted"
    assert game.result().closing_side is None
    assert all(entry.closing == 0 for entry in game.result().sides)


def deadlock_position(count: int) -> Game:
    return position(SIX, turn=2, phase="draw",
                    hands={0: "Kh", 1: "Kd", 2: "4c 5d 9h", 3: "Qh", 4: "Qd", 5: "Qc"},
                    melds={0: ["Kc Kc Ks"]}, packets=[("h3", None), ("u", PACKET_1),
                                                      ("u", PACKET_2)],
                    stock=50, pile_top="", opened="1,0,0", need="50,50,50", deadlock=count)


def test_six_exchange_turns_make_a_deadlock():
    # RULES D.4: N = 6 consecutive exchange turns end the hand (deadlock_rule = end_hand).
    game = deadlock_position(5)
    taken = game.top_discard
    game.push("pile")
    assert game.hold == taken
    game.push("discard 4c")
    assert game.is_over() and game.end_reason == "deadlock"
    game = deadlock_position(4)
    game.push("pile")
    game.push("discard 4c")
    assert not game.is_over() and game.turn == 3
    assert "deadlock=5;" in game.state_string()
    with pytest.raises(InvalidStateError, match="V12"):
        Game.from_state_string(game.state_string().replace("deadlock=5;", "deadlock=6;"))


# ---- closing and scoring (RULES C.6, E) ------------------------------------------------------------


def closing_position(rules: Rules = SIX) -> Game:
    """Seat 4 (side 1) holds its side's packet and a clean burraco and is to play its last card.
    Side 0: seat 3 took packet 0 by discarding and has not played it; side 2 has no packet."""
    return position(
        rules, turn=4,
        hands={0: "Kd Kd", 1: "Jk", 2: "4d 4d", 3: "", 4: "Th", 5: "As 2c"},
        melds={0: ["7c 8c 9c"], 1: ["3h 4h 5h 6h 7h 8h 9h", "Qd Qs Qs"], 2: ["Jc Jd Jh Jk(=J)"]},
        packets=[("f3", PACKET_0), ("h1", None), ("u", PACKET_2)],
        stock=30, pile_top="2h", opened="1,1,1", need="50,50,50")


def test_closing_by_a_discard_and_the_scores_of_three_sides():
    game = closing_position()
    game.push("discard Th")
    assert game.is_over() and game.end_reason == "closed"
    result = game.result()
    assert result.closing_side == 1 and result.player_scores is None
    # Side 0: melds 7c 8c 9c = 25; seat 0 holds Kd Kd = -20; seat 3's unplayed packet (RULES
    # E.4 brazilian): min(95, 100) = -95.
    # Side 1: melds 45 (3h..9h) + 30 (Q Q Q) = 75; clean burraco 200; closing 100; seat 1 holds
    # Jk = -30.
    # Side 2: melds J J J + Jk = 30 + 30 = 60; hands 4d 4d and As 2c = -10 - 35; no packet -100.
    assert result.sides == (
        SideResult(0, 25, 0, 0, -20, -95, 0, -90),
        SideResult(1, 75, 200, 100, -30, 0, 0, 345),
        SideResult(2, 60, 0, 0, -45, -100, 0, -85),
    )


def test_closing_by_melding_out():
    game = closing_position()
    game.push("add 0 Th")
    assert game.is_over() and game.end_reason == "closed"
    assert game.result().side(1) == SideResult(1, 85, 200, 100, -30, 0, 0, 355)


def test_no_closing_without_the_packet():
    # Side 2 has a clean burraco but no packet: its last card takes packet 2 instead of closing.
    game = position(
        SIX, turn=5,
        hands={0: "Kd Kd", 1: "Jk", 2: "4d 4d", 3: "", 4: "Th", 5: "2c"},
        melds={0: ["7c 8c 9c"], 1: ["3h 4h 5h 6h 7h 8h 9h", "Qd Qs Qs"],
               2: ["Jc Jd Jh Jk(=J)", "3s 4s 5s 6s 7s 8s 9s"]},
        packets=[("f3", PACKET_0), ("h1", None), ("u", PACKET_2)],
        stock=30, pile_top="2h", opened="1,1,1", need="50,50,50")
    game.push("discard 2c")
    assert not game.is_over() and game.turn == 0
    assert game.pozzetti[2][:2] == ("face_down", 5)


def test_two_sides_of_three_score_two_sides():
    game = position(
        SIX_TWO_SIDES, turn=3,
        hands={0: "Kd Kd", 1: "Jk", 2: "4d 4d", 3: "Th", 4: "As 2c", 5: "5s"},
        melds={1: ["3h 4h 5h 6h 7h 8h 9h", "Qd Qs Qs"], 0: ["Jc Jd Jh Jk(=J)"]},
        packets=[("h1", None), ("u", PACKET_1), ("u", PACKET_2)],
        stock=30, pile_top="2h", opened="1,1", need="50,50")
    game.push("discard Th")
    assert game.end_reason == "closed" and game.result().closing_side == 1
    # Side 1 (seats 1, 3, 5): 75 + 200 + 100 - 30 (Jk) - 5 (5s) = 340.
    # Side 0 (seats 0, 2, 4): 60 - 20 - 10 - 35 and never took a packet: -100 -> -105.
    assert game.result().sides == (SideResult(0, 60, 0, 0, -65, -100, 0, -105),
                                   SideResult(1, 75, 200, 100, -35, 0, 0, 340))


# ---- the match (RULES E.7) ------------------------------------------------------------------------


def test_a_match_of_three_sides():
    match = Match(SIX.replace(match_target=400), seed=11)
    assert match.scores == (0, 0, 0)
    winner = match.play("random", max_hands=30)
    totals = [sum(result.side(side).total for result in match.results) for side in range(3)]
    assert match.scores == tuple(totals)
    assert match.is_over() and winner is not None
    passing = [side for side in range(3) if totals[side] >= 400]
    best = max(totals[side] for side in passing)
    assert [side for side in passing if totals[side] == best] == [winner]
    for number, result in enumerate(match.results):
        assert [entry.side for entry in result.sides] == [0, 1, 2], number


def test_match_ties_at_the_top_play_on():
    match = Match(SIX, seed=1)
    assert match._outcome((2100, 2100, 1990)) == (False, None)
    assert match._outcome((2100, 2050, 2200)) == (True, 2)
    assert match._outcome((1990, 1995, 1999)) == (False, None)
    assert Match(SIX.replace(tie_policy="draw"), seed=1)._outcome((2100, 2100, 0)) == (True, None)
    two = Match(SIX_TWO_SIDES, seed=1)
    assert two.scores == (0, 0) and two._outcome((2000, 1999)) == (True, 0)
