"""The deal contract (docs/architecture.md §4, docs/game.md "Deal", RULES F.2/F.3/F.5), on both engines.

The test carries its own small implementation of the contract (SplitMix64 seeding xoshiro256**,
Lemire's bounded integers with rejection, Fisher-Yates from the end), checked first against
the contract's known answers and then used as the independent oracle for every engine deal: hands
(one card at a time clockwise from the first player), packets (alternately, a full packet
skipped: italian-3p 18 + 11), the start card, the stock (top first), the brazilian cut draw.
"""

from __future__ import annotations

from collections import Counter

import positions
import pytest
from conftest import load_engine

MASK = (1 << 64) - 1

# Every table a deal can have: the five presets and brazilian with two players (RULES F.2).
TABLES = [
    ("italian", {}),
    ("italian-2p", {}),
    ("italian-3p", {}),
    ("online-2p", {}),
    ("brazilian", {}),
    ("brazilian", {"players": 2}),
]
TABLE_IDS = ["italian", "italian-2p", "italian-3p", "online-2p", "brazilian", "brazilian-2p"]
SEEDS = [*range(12), 42, 1234567, 2**32 - 1, 2**32, 2**63 - 1, 2**63, 2**64 - 2, 2**64 - 1]
MANY_SEEDS = range(200)


# ---- an independent implementation of the contract ---------------------------------------------


def splitmix64(seed: int):
    state = seed
    while True:
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        yield z ^ (z >> 31)


def rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & MASK


class Xoshiro256StarStar:
    def __init__(self, seed: int):
        outputs = splitmix64(seed)
        self.s = [next(outputs) for _ in range(4)]

    def next(self) -> int:
        s = self.s
        result = (rotl((s[1] * 5) & MASK, 7) * 9) & MASK
        t = (s[1] << 17) & MASK
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotl(s[3], 45)
        return result

    def bounded(self, n: int) -> int:
        """Lemire's multiply-shift with rejection, as docs/architecture.md §4 writes it."""
        m = self.next() * n
        low = m & MASK
        if low < n:
            threshold = ((1 << 64) - n) % n
            while low < threshold:
                m = self.next() * n
                low = m & MASK
        return m >> 64


def shuffled(seed: int, jokers: int) -> tuple[list[str], Xoshiro256StarStar]:
    """The deck shuffled with ``seed``, and the generator afterwards (for the cut draw)."""
    deck = positions.unshuffled_deck(jokers)
    generator = Xoshiro256StarStar(seed)
    for i in range(len(deck) - 1, 0, -1):
        j = generator.bounded(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck, generator


def expected_state(preset, knobs, deck, *, seed=None, first=0, cut=None) -> str:
    """The state string of a fresh deal of ``deck`` (docs/game.md), built from the contract."""
    table = positions.Table(preset, knobs)
    dealt = positions.deal(table, deck, first)
    brazilian_first_draw = preset == "brazilian"
    return positions.state_string(
        preset, knobs, seed=seed, first=first, turn=first, phase="draw",
        hands={seat: cards for seat, cards in enumerate(dealt["hands"])},
        stock=dealt["stock"],
        pile=[dealt["upcard"]] if dealt["upcard"] else None, top=dealt["upcard"],
        pozzetti=["u:" + " ".join(cards) for cards in dealt["packets"]],
        turnflags="b" if brazilian_first_draw else "", cut=cut,
    )


# ---- the oracle against the contract's known answers (no engine) -------------------------------


def test_splitmix_seeds_xoshiro_known_answer():
    generator = Xoshiro256StarStar(0)
    assert [generator.next() for _ in range(3)] == [
        0x99EC5F36CB75F2B4, 0xBF6E1F784956452A, 0x1A5F849D4933E6E0]


def test_bounded_known_answer():
    generator = Xoshiro256StarStar(42)
    assert [generator.bounded(108) for _ in range(5)] == [9, 40, 73, 99, 107]


def test_shuffle_known_answer():
    deck, _ = shuffled(1, 4)
    assert deck[:12] == "3c 4s 5s 6h 4d Js Kh 2d 7s Ad 9d 7s".split()


def test_seed_1_italian_deal_known_answer():
    deck, _ = shuffled(1, 4)
    dealt = positions.deal(positions.Table("italian"), deck)
    assert positions.canonical(dealt["hands"][0]) == "3c 7c Jc Kc 3d 4d 2h 9h 3s 4s 7s".split()
    assert dealt["upcard"] == "2c"
    assert dealt["stock"][:3] == ["Jh", "Jk", "Ah"]


def test_italian_3p_packets_alternate_until_the_small_one_is_full():
    """Hand-derived from the unshuffled deck (index i: suit 'cdhs'[i // 13 % 4], rank i % 13)."""
    deck = positions.unshuffled_deck(4)
    dealt = positions.deal(positions.Table("italian-3p"), deck)
    assert dealt["packets"][0] == (
        "8h Th Qh As 3s 5s 7s 9s Js Ks 2c 4c 5c 6c 7c 8c 9c Tc".split())
    assert dealt["packets"][1] == "9h Jh Kh 2s 4s 6s 8s Ts Qs Ac 3c".split()
    assert dealt["hands"][0] == "Ac 4c 7c Tc Kc 3d 6d 9d Qd 2h 5h".split()
    assert dealt["upcard"] == "Jc"
    assert dealt["stock"][0] == "Qc" and len(dealt["stock"]) == 45


# ---- engines: known answers ---------------------------------------------------------------------


def test_seed_1_known_answer(engine):
    game = engine.Game(engine.Rules("italian"), seed=1)
    assert game.hand(0) == engine.Cards("3c 7c Jc Kc 3d 4d 2h 9h 3s 4s 7s")
    assert game.top_discard == engine.Card("2c")
    assert game.discard_pile == engine.Cards("2c")
    assert [str(card) for card in game.stock[:3]] == ["Jh", "Jk", "Ah"]
    # The first twelve cards of the shuffled deck, dealt one at a time clockwise from seat 0.
    first_twelve = "3c 4s 5s 6h 4d Js Kh 2d 7s Ad 9d 7s".split()
    for seat in range(4):
        assert engine.Cards(first_twelve[seat::4]) <= game.hand(seat), seat
    assert (game.seed, game.first_player, game.turn, game.phase) == (1, 0, 0, "draw")


# ---- engines: every table, many seeds -----------------------------------------------------------


@pytest.mark.parametrize(("preset", "knobs"), TABLES, ids=TABLE_IDS)
def test_seeded_deal_follows_the_contract(engine, preset, knobs):
    rules = engine.Rules(preset, **knobs)
    table = positions.Table(preset, knobs)
    for seed in SEEDS:
        deck, _ = shuffled(seed, table.jokers)
        dealt = positions.deal(table, deck)
        game = engine.Game(rules, seed=seed)
        where = f"Game({rules!r}, seed={seed})"
        for seat in range(table.players):
            assert game.hand(seat) == engine.Cards(dealt["hands"][seat]), f"{where}: hand {seat}"
        assert [str(card) for card in game.stock] == dealt["stock"], f"{where}: stock"
        assert [engine.Cards(dealt_cards) for dealt_cards in dealt["packets"]] == [
            cards for _, _, cards in game.pozzetti], f"{where}: packets"
        upcard = dealt["upcard"]
        assert game.top_discard == (engine.Card(upcard) if upcard else None), f"{where}: upcard"
        assert game.state_string() == expected_state(preset, knobs, deck, seed=seed), where


@pytest.mark.parametrize(("preset", "knobs"), TABLES, ids=TABLE_IDS)
def test_first_player(engine, preset, knobs):
    rules = engine.Rules(preset, **knobs)
    table = positions.Table(preset, knobs)
    deck, _ = shuffled(5, table.jokers)
    for first in range(table.players):
        game = engine.Game(rules, seed=5, first_player=first)
        where = f"Game({rules!r}, seed=5, first_player={first})"
        assert (game.first_player, game.turn, game.phase) == (first, first, "draw"), where
        dealt = positions.deal(table, deck, first)
        # Card 0 goes to the first player, card 1 to the next seat clockwise, and so on.
        assert game.hand(first) == engine.Cards(deck[0:table.players * 11:table.players]), where
        for seat in range(table.players):
            assert game.hand(seat) == engine.Cards(dealt["hands"][seat]), f"{where}: {seat}"
        assert game.state_string() == expected_state(preset, knobs, deck, seed=5, first=first)


@pytest.mark.parametrize(("preset", "knobs"), TABLES, ids=TABLE_IDS)
def test_deck_order_is_dealt_as_given(engine, preset, knobs):
    rules = engine.Rules(preset, **knobs)
    table = positions.Table(preset, knobs)
    orders = [positions.unshuffled_deck(table.jokers), shuffled(77, table.jokers)[0]]
    for number, deck in enumerate(orders):
        for first in range(table.players):
            for given in (list(deck), " ".join(deck)):
                game = engine.Game(rules, deck=given, first_player=first)
                where = f"order {number}, first_player={first}, deck as {type(given).__name__}"
                assert game.seed is None, where
                assert game.state_string() == expected_state(preset, knobs, deck, first=first), (
                    where)
                assert [str(card) for card in game.stock] == positions.deal(
                    table, deck, first)["stock"], where


def test_italian_3p_deck_order_packets(engine):
    """RULES F.6: packet 0 (18 cards, on top) and packet 1 (11), dealt alternately."""
    game = engine.Game(engine.Rules("italian-3p"), deck=positions.unshuffled_deck(4))
    packets = [cards for _, _, cards in game.pozzetti]
    assert packets == [
        engine.Cards("8h Th Qh As 3s 5s 7s 9s Js Ks 2c 4c 5c 6c 7c 8c 9c Tc"),
        engine.Cards("9h Jh Kh 2s 4s 6s 8s Ts Qs Ac 3c"),
    ]
    fields = positions.state_fields(game.state_string())
    assert fields["pozzetti"] == "u:8hThQhAs3s5s7s9sJsKs2c4c5c6c7c8c9cTc/u:9hJhKh2s4s6s8sTsQsAc3c"
    assert game.top_discard == engine.Card("Jc")
    assert game.hand(0) == engine.Cards("Ac 4c 7c Tc Kc 3d 6d 9d Qd 2h 5h")
    assert (game.stock_size, str(game.stock[0])) == (45, "Qc")


def test_random_seed_is_kept_and_reproduces_the_deal(engine):
    rules = engine.Rules("italian")
    for _ in range(5):
        game = engine.Game(rules)
        assert isinstance(game.seed, int) and 0 <= game.seed < 2**64, game.seed
        assert engine.Game(rules, seed=game.seed).state_string() == game.state_string()


@pytest.mark.parametrize(("preset", "knobs"), [TABLES[4], TABLES[5]], ids=TABLE_IDS[4:])
def test_brazilian_cut_draw(engine, preset, knobs):
    """docs/game.md / RULES F.5: one more output after the shuffle; exact when
    (x >> 11) * 2**-53 < p; the cutter is (first - 2) mod N, credited to its side."""
    table = positions.Table(preset, knobs)
    rules = engine.Rules(preset, cut_exact_probability=0.5, **knobs)
    exact_seen = set()
    for seed in range(24):
        deck, generator = shuffled(seed, table.jokers)
        exact = (generator.next() >> 11) * 2.0**-53 < 0.5
        exact_seen.add(exact)
        for first in range(table.players):
            game = engine.Game(rules, seed=seed, first_player=first)
            cutter = (first - 2) % table.players
            side = cutter % 2
            assert game.cut_side == (side if exact else None), (seed, first)
            fields = positions.state_fields(game.state_string())
            assert fields["cut"] == (str(side) if exact else "-"), (seed, first)
            assert [str(card) for card in game.stock] == positions.deal(
                table, deck, first)["stock"], (seed, first)
    assert exact_seen == {True, False}  # the seeds exercise both outcomes


@pytest.mark.parametrize(("preset", "knobs"), TABLES, ids=TABLE_IDS)
def test_same_seed_same_deal_in_both_engines(preset, knobs):
    """RULES D07, over many seeds."""
    core, reference = load_engine("core"), load_engine("reference")
    rules = (core.Rules(preset, **knobs), reference.Rules(preset, **knobs))
    for seed in [*MANY_SEEDS, *SEEDS]:
        texts = [engine.Game(rule, seed=seed).state_string()
                 for engine, rule in zip((core, reference), rules)]
        assert texts[0] == texts[1], f"{preset} {knobs} seed {seed}:\n  {texts[0]}\n  {texts[1]}"


# ---- engines: bad input -------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [-1, 2**64, 2**70, 1.5, 1.0, "7", b"7", True, False, [1]],
                         ids=repr)
def test_bad_seed(engine, seed):
    """Seeds are ints in [0, 2**64); anything else is a ValueError (InvalidNotationError) quoting
    the value. bool is not accepted as an int (like every int knob of docs/api.md)."""
    with pytest.raises(engine.InvalidNotationError) as caught:
        engine.Game(engine.Rules("italian"), seed=seed)
    assert isinstance(caught.value, ValueError)
    assert repr(seed) in str(caught.value), str(caught.value)


def bad_decks():
    deck = positions.unshuffled_deck(4)
    third_ace = ["Ac" if card == "Kd" else card for card in deck]  # 3 x Ac (twice), no Kd
    five_jokers = deck[:-5] + ["Jk"] * 5
    return [
        ("107 cards", "italian", deck[:-1]),
        ("109 cards", "italian", [*deck, "Jk"]),
        ("four Ac, no Kd", "italian", third_ace),
        ("five jokers", "italian", five_jokers),
        ("not a card", "italian", ["Xx", *deck[1:]]),
        ("108 cards for online-2p", "online-2p", deck),
        ("empty", "italian", []),
    ]


@pytest.mark.parametrize(("preset", "deck"), [(preset, deck) for _, preset, deck in bad_decks()],
                         ids=[name for name, _, _ in bad_decks()])
def test_bad_deck(engine, preset, deck):
    """A deck that is not the full deck of the rules, card for card, is refused (ValueError)."""
    with pytest.raises(engine.BurracoError):
        engine.Game(engine.Rules(preset), deck=deck)


def test_online_2p_deck_has_106_cards(engine):
    deck = positions.unshuffled_deck(2)
    assert Counter(deck) == positions.full_deck(2) and len(deck) == 106
    game = engine.Game(engine.Rules("online-2p"), deck=deck)
    assert game.stock_size == 61
