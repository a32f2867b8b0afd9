"""Three-deck tables in the core engine (RULES A.1, B.2, F.7; docs/game.md "Six players").

The core plays ``decks=3`` (three copies of every suited card, up to six jokers, 162 cards) with
2, 3 or 4 players, exactly as the reference does; six players stay the reference's. Every
expected value below is written from the rules (pack sizes, copy limits, deal layout), not read
from the engine; the lockstep hands hold the core to the reference move by move.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
from collections import Counter

import playouts
import pytest
from test_differential_game import report
from test_differential_game import run as lockstep
from test_json_views import meld_slots
from test_reference_six_search import third_copy_sets

import burraco
from burraco import reference
from burraco._errors import IllegalMoveError, InvalidNotationError

RULES = burraco.Rules("brazilian", decks=3, jokers=6)
SUITED = [rank + suit for suit in "cdhs" for rank in "A23456789TJQK"]


def three_deck_pack() -> Counter:
    pack = Counter({card: 3 for card in SUITED})
    pack["Jk"] = 6
    return pack


# ---- Cards ------------------------------------------------------------------------------------


def test_cards_of_three_decks_hold_three_copies_and_six_jokers():
    cards = burraco.Cards("5h 5h 5h Jk Jk Jk Jk Jk Jk", decks=3)
    assert cards.count("5h") == 3 and cards.count("Jk") == 6 and len(cards) == 9
    assert cards.decks == 3 and str(cards) == "5h 5h 5h Jk Jk Jk Jk Jk Jk"
    assert burraco.Cards("5h 5h").decks == 2


@pytest.mark.parametrize("text, message", [
    ("5h 5h 5h 5h", "'5h 5h 5h 5h': 4 copies of 5h (at most 3 with 3 decks)"),
    ("Ac Ac Ac Ac 2d", "'Ac Ac Ac Ac 2d': 4 copies of Ac (at most 3 with 3 decks)"),
    ("Jk " * 7, "7 copies of Jk (at most 6 with 3 decks)"),
])
def test_a_fourth_copy_is_refused_quoting_the_input(text, message):
    with pytest.raises(InvalidNotationError) as excinfo:
        burraco.Cards(text, decks=3)
    assert message in str(excinfo.value)


def test_two_decks_stay_the_default():
    with pytest.raises(InvalidNotationError) as excinfo:
        burraco.Cards("5h 5h 5h")
    assert str(excinfo.value) == "'5h 5h 5h': 3 copies of 5h (at most 2)"
    with pytest.raises(InvalidNotationError, match=r"5 copies of Jk \(at most 4\)"):
        burraco.Cards(["Jk"] * 5)


@pytest.mark.parametrize("decks", [1, 4, 0, "3", 3.0, True, None], ids=repr)
def test_only_two_or_three_decks(decks):
    with pytest.raises(InvalidNotationError) as excinfo:
        burraco.Cards("5h", decks=decks)
    assert repr(decks) in str(excinfo.value)


def test_operators_keep_the_larger_pack():
    three = burraco.Cards("5h 5h", decks=3)
    total = three + "5h"  # the string is read with the left operand's pack
    assert total.count("5h") == 3 and total.decks == 3
    assert (burraco.Cards("5h") + three).decks == 3
    with pytest.raises(InvalidNotationError, match="4 copies of 5h"):
        total + "5h"
    with pytest.raises(InvalidNotationError):
        burraco.Cards("5h 5h") + "5h"
    assert (total - "5h 5h") == burraco.Cards("5h")
    assert (total | burraco.Cards("5h 6h")) == burraco.Cards("5h 5h 5h 6h", decks=3)
    assert burraco.Cards("5h 5h 5h", decks=3) >= "5h 5h 5h"


def test_equality_hash_repr_pickle_and_immutability():
    cards = burraco.Cards("5h 5h 5h", decks=3)
    assert burraco.Cards("5h 6h", decks=3) == burraco.Cards("5h 6h")
    assert hash(burraco.Cards("5h 6h", decks=3)) == hash(burraco.Cards("5h 6h"))
    assert repr(cards) == "Cards('5h 5h 5h', decks=3)"
    assert repr(burraco.Cards("5h 5h")) == "Cards('5h 5h')"
    for again in (pickle.loads(pickle.dumps(cards)), copy.copy(cards), copy.deepcopy(cards)):
        assert again == cards and again.decks == 3
    assert pickle.loads(pickle.dumps(burraco.Cards("5h 6h", decks=3))).decks == 3
    with pytest.raises(AttributeError):
        cards._decks = 2
    with pytest.raises(AttributeError):
        cards.decks = 2
    assert cards.decks == 3


# ---- Rules --------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_rules_of_three_decks(players):
    preset = {2: "italian-2p", 3: "italian-3p", 4: "italian"}[players]
    rules = burraco.Rules(preset, decks=3, jokers=6)
    assert (rules.players, rules.decks, rules.jokers, rules.total_cards) == (players, 3, 6, 162)
    assert rules.initial_stock == 162 - 11 * players - sum(rules.pozzetto_sizes) - 1
    assert repr(rules) == f"Rules('{preset}', decks=3, jokers=6)"
    assert pickle.loads(pickle.dumps(rules)) == rules


def test_six_players_take_the_three_deck_pack_unless_given():
    # The core plays six players (tests/test_six_players.py); a three-deck rule set keeps its pack.
    assert burraco.Rules("brazilian", players=6) == RULES.replace(players=6)
    assert RULES.replace(players=6).pozzetto_sizes == (11, 11, 11)
    with pytest.raises(InvalidNotationError, match="players=5"):
        RULES.replace(players=5)


def test_more_than_two_jokers_a_deck_is_refused():
    with pytest.raises(InvalidNotationError) as excinfo:
        burraco.Rules("brazilian", jokers=6)
    assert "jokers=6" in str(excinfo.value) and "decks=2" in str(excinfo.value)


# ---- the deal -----------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 77])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_three_deck_deal(players, seed):
    rules = burraco.Rules("brazilian" if players != 3 else "italian-3p", players=players,
                          decks=3, jokers=6)
    game = burraco.Game(rules, seed=seed)
    for seat in range(players):
        assert len(game.hand(seat)) == 11
    assert len(game.stock) == rules.initial_stock
    assert [len(packet[2]) for packet in game.pozzetti] == list(rules.pozzetto_sizes)
    seen = playouts.state_cards(game.state_string())
    assert seen == three_deck_pack() and sum(seen.values()) == 162


def test_the_deal_follows_the_unshuffled_pack_order():
    # An explicit deck: the pack in its unshuffled order (docs/game.md "Deal").
    deck = SUITED * 3 + ["Jk"] * 6
    game = burraco.Game(RULES, deck=" ".join(deck))
    assert [str(card) for card in game.hand(0)] == sorted(
        deck[0:44:4], key=lambda name: burraco.Card(name).index)
    with pytest.raises(ValueError):
        burraco.Game(RULES, deck=" ".join(SUITED * 2 + ["Jk"] * 4))


def test_the_deal_is_the_references():
    reference = pytest.importorskip("burraco.reference")
    for players in (2, 3, 4):
        preset = "italian-3p" if players == 3 else "brazilian"
        core = burraco.Game(burraco.Rules(preset, players=players, decks=3, jokers=6), seed=5)
        ref = reference.Game(reference.Rules(preset, players=players, decks=3, jokers=6), seed=5)
        assert core.state_string() == ref.state_string()


# ---- sets with a third copy ---------------------------------------------------------------------


def test_a_set_may_hold_three_copies_and_refuses_a_fourth():
    meld = burraco.Meld("Kh Kh Kh", RULES)
    assert meld.kind == "set" and meld.layout == "Kh Kh Kh" and meld.cards.decks == 3
    grown = meld.add("Kc").add("Kc").add("Kc").add("Jk")
    assert grown.layout == "Kc Kc Kc Kh Kh Kh Jk(=K)"
    assert meld.add("Ks").can_add("Kh") is False
    with pytest.raises(IllegalMoveError):
        meld.add("Ks").add("Kh")
    with pytest.raises(InvalidNotationError, match="4 copies of Kh"):
        burraco.Meld("Kh Kh Kh Kh", RULES)
    # max_set_size stays 9 (RULES B.2).
    with pytest.raises(IllegalMoveError):
        burraco.Meld("Kc Kc Kc Kd Kd Kd Kh Kh Kh", RULES).add("Ks")
    # Two-deck rules keep two copies.
    with pytest.raises(InvalidNotationError, match="3 copies of Kh"):
        burraco.Meld("Kh Kh Kh")
    assert burraco.Meld.from_layout("Kc Kc Kc Jk(=K)", RULES).layout == "Kc Kc Kc Jk(=K)"
    melds = burraco.Melds([], RULES).meld("9d 9d 9d").add(0, "9s")
    assert [m.layout for m in melds] == ["9d 9d 9d 9s"]


def position_with_three_kings():
    """A three-deck game whose seat 0 holds three Kh, in its meld phase."""
    deck = SUITED * 3 + ["Jk"] * 6
    # Seat 0 is dealt cards 0, 4, 8, ... (four players): put Kh Kh Kh, Ks there.
    order = [card for card in deck if card not in ("Kh", "Ks")]
    kings = ["Kh", "Kh", "Kh", "Ks"]
    for position, card in zip((0, 4, 8, 12), kings):
        order.insert(position, card)
    order += ["Ks", "Ks"]
    assert Counter(order) == three_deck_pack()
    game = burraco.Game(burraco.Rules("italian", decks=3, jokers=6), deck=" ".join(order))
    game.push("draw")
    return game


def test_a_game_reads_its_moves_with_its_pack():
    game = position_with_three_kings()
    assert game.hand(0).count("Kh") == 3
    assert "meld Kh Kh Kh" in [str(move) for move in game.legal_moves()]
    assert "meld Kh Kh Kh" in game.legal_moves()
    with pytest.raises(InvalidNotationError, match="Kh"):
        burraco.Move("meld Kh Kh Kh")  # the notation alone reads two decks
    action = game.action_id("meld Kh Kh Kh Ks")
    assert action >= 1965 and str(game.action_move(action)) == "meld Kh Kh Kh Ks"
    game.push("meld Kh Kh Kh Ks")
    assert [m.layout for m in game.melds(0)] == ["Kh Kh Kh Ks"]
    with pytest.raises((InvalidNotationError, IllegalMoveError)):
        game.push("meld Kh Kh Kh Kh")


def test_a_move_with_a_third_copy_pickles_and_copies():
    """Move(text) reads two decks, so a set of three copies pickles with its pack (the reference's
    moves keep theirs); every two-deck move pickles to Move(text) as before."""
    game = position_with_three_kings()
    moves = [move for move in game.legal_moves() if str(move).startswith("meld Kh Kh Kh")]
    assert [str(move) for move in moves] == ["meld Kh Kh Kh", "meld Kh Kh Kh Ks"]
    for move in moves:
        for again in (pickle.loads(pickle.dumps(move)), copy.copy(move), copy.deepcopy(move)):
            assert again == move and str(again) == str(move) and again.cards.count("Kh") == 3
        game_copy = game.copy()
        game_copy.push(pickle.loads(pickle.dumps(move)))
        assert [m.layout for m in game_copy.melds(0)] == [str(move.cards)]
    two_deck = burraco.Move("meld Kh Kh Ks")
    assert two_deck.__reduce__() == (burraco.Move, ("meld Kh Kh Ks",))
    restore = moves[0].__reduce__()[0]
    for args in (("meld Kh Kh Kh Kh", 3), ("meld Kh Kh Kh", 4), ("meld Kh Kh Kh", "3"), (7, 3)):
        with pytest.raises(burraco.InvalidStateError, match="pickled Move"):
            restore(*args)


def cards_returned(game, seat: int):
    """Every Cards a game and one seat's observation return, by name (docs/game.md "Three decks in
    the core": the pack of a Cards)."""
    observation = game.observation(seat)
    found = {"discard_pile": game.discard_pile, "observation.hand": observation.hand,
             "observation.discard_pile": observation.discard_pile}
    for player in range(game.players):
        found[f"hand({player})"] = game.hand(player)
        found[f"known({player})"] = game.known(player)
        found[f"observation.known[{player}]"] = observation.known[player]
    for number, (_, _, cards) in enumerate(game.pozzetti):
        found[f"pozzetti[{number}]"] = cards
    for number, packet in enumerate(observation.pozzetti):
        if packet[3] is not None:
            found[f"observation.pozzetti[{number}]"] = packet[3]
    for side in meld_slots(game):
        for number, meld in enumerate(game.melds(side)):
            found[f"melds({side})[{number}]"] = meld.cards
    for move in game.legal_moves():
        found[f"move {move}"] = move.cards
    return found


@pytest.mark.parametrize("rules_id", [rules_id for rules_id, _, _ in
                                      playouts.THREE_DECK_RULES + playouts.SIX_PLAYER_RULES])
def test_the_pack_of_the_cards_a_game_returns(rules_id):
    """A game's, an observation's and a meld's Cards say decks=3 in a three-deck game, a move's
    the smallest pack that holds its cards; both engines alike, repr included, and an operator on
    a hand allows a third copy."""
    checked = Counter()
    for seed in range(3):
        core = burraco.Game(playouts.make_rules(burraco, rules_id), seed=seed)
        rng = random.Random(seed)
        while not core.is_over():
            if len(core.moves) % 9 == 0:
                ref = reference.Game.from_state_string(core.state_string())
                seat = rng.randrange(core.players)
                mine, theirs = cards_returned(core, seat), cards_returned(ref, seat)
                assert mine.keys() == theirs.keys()
                for name, cards in mine.items():
                    assert repr(cards) == repr(theirs[name]), name
                    third = max(Counter(map(str, cards)).values(), default=0) > 2
                    expected = 3 if not name.startswith("move") or third else 2
                    assert cards.decks == expected, (name, cards)
                    checked["move" if name.startswith("move") else "other"] += 1
                    checked["third copy"] += third
            legal = core.legal_moves()
            core.push(legal[rng.randrange(len(legal))])
    print(rules_id, dict(checked))
    assert checked["move"] > 50 and checked["other"] > 100 and checked["third copy"] > 0
    hand = burraco.Game(playouts.make_rules(burraco, rules_id), seed=1).hand(0)
    card = str(next(iter(hand)))
    assert (hand + f"{card} {card}").count(card) == hand.count(card) + 2


def test_the_meld_table_adds_the_sets_with_a_third_copy():
    """The three-deck action space: the meld table grows by the sets holding a third copy, and
    the lay-offs on meld indices 36 to 53 (162 cards hold 54 melds) follow it, 53 ids each."""
    two = burraco.Game(burraco.Rules("brazilian"), seed=1)
    three = burraco.Game(RULES, seed=1)
    assert three.action_size - two.action_size == third_copy_sets() + 18 * 53  # RULES B.2, F.7
    assert two.action_size == burraco.Game(burraco.Rules("brazilian"), seed=2).action_size


# ---- records, views, pickles and state strings ---------------------------------------------------


def played_game(seed: int = 3, moves: int = 150):
    game = burraco.Game(RULES, seed=seed)
    pick = playouts.PICK["meld"]
    rng = playouts.policy_rng("meld", "three-decks", seed)
    while not game.is_over() and len(game.moves) < moves:
        legal = [str(move) for move in game.legal_moves()]
        game.push(legal[pick(rng, legal)])
    return game


def test_round_trips_of_a_three_deck_game():
    game = played_game()
    state = game.state_string()
    assert "decks=3" in state
    assert burraco.Game.from_state_string(state).state_string() == state
    again = pickle.loads(pickle.dumps(game))
    assert again == game and again.state_string() == state
    record = game.record()
    replayed = burraco.Game.from_record(record)
    assert replayed.state_string() == state and list(replayed.moves) == list(game.moves)
    line = json.dumps(record)
    assert burraco.Game.from_record(line).state_string() == state
    view = json.loads(game.to_json())
    assert view["rules"] == "brazilian:decks=3:jokers=6" and view["state"] == state
    for seat in range(4):
        shown = json.loads(game.to_json(player=seat))["seats"]
        assert shown[seat]["hand"] == [str(card) for card in game.hand(seat)]
        assert all(shown[other]["hand"] is None for other in range(4) if other != seat)


def test_round_trips_match_the_reference():
    reference = pytest.importorskip("burraco.reference")
    game = played_game(seed=4, moves=120)
    ref = reference.Game(reference.Rules("brazilian", decks=3, jokers=6), seed=4)
    for move in game.moves:
        ref.push(str(move))
    assert ref.state_string() == game.state_string()
    assert ref.record() == game.record()
    assert ref.to_json() == game.to_json()


# ---- lockstep with the reference -----------------------------------------------------------------

THREE_DECK_IDS = tuple(rules_id for rules_id, _, _ in playouts.THREE_DECK_RULES)
HANDS = 4  # a rule set and policy, default run; seeds HANDS..CI_HANDS-1 are the rest (-m slow, CI)
CI_HANDS = 50
SLOW_HANDS = 400
SLOW_FIRST_SEED = 1_000_000


@pytest.mark.parametrize("policy", playouts.POLICIES)
@pytest.mark.parametrize("rules_id", THREE_DECK_IDS)
def test_lockstep_three_deck_hands(rules_id, policy):
    events = lockstep(rules_id, policy, playouts.seeds(HANDS))
    assert events.hands == HANDS
    assert events.ends["closed"] + events.ends["stock_exhausted"] + events.ends["deadlock"] == HANDS


def test_lockstep_hands_meet_sets_with_a_third_copy():
    """The lockstep hands put down sets holding three copies of a card (else they would not test
    what three decks change)."""
    found = 0
    for seed in range(12):
        for rules_id in THREE_DECK_IDS:
            done = playouts.lockstep_many(rules_id, "meld", [seed], workers=1)[0]
            assert done.disagreement is None, report([done])
            for move in done.moves:
                if move.startswith("meld ") and max(Counter(move.split()[1:]).values()) == 3:
                    found += 1
    assert found > 0


@pytest.mark.slow
@pytest.mark.parametrize("policy", playouts.POLICIES)
@pytest.mark.parametrize("rules_id", THREE_DECK_IDS)
def test_lockstep_rest_three_deck_hands(rules_id, policy):
    """The seeds the default run leaves out, up to CI_HANDS (CI's slow step runs them)."""
    events = lockstep(rules_id, policy, playouts.seeds(CI_HANDS - HANDS, HANDS))
    assert events.hands == CI_HANDS - HANDS


@pytest.mark.slow
@pytest.mark.parametrize("policy", playouts.POLICIES)
@pytest.mark.parametrize("rules_id", THREE_DECK_IDS)
def test_lockstep_three_deck_hands_slow(rules_id, policy):
    events = lockstep(rules_id, policy, playouts.seeds(SLOW_HANDS, SLOW_FIRST_SEED))
    assert events.hands == SLOW_HANDS
