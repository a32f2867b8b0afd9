"""Card and Cards (docs/api.md "Notation", "Card", "Cards"; RULES 0.2, A.2, A.4), on both engines.

Every expected value here is written from the spec: the 53 card kinds in canonical order are spelt
out below, and the multiset behaviour of ``Cards`` is checked against ``collections.Counter``,
exhaustively on a small universe (a third of its pairs in the default run, the rest under
``-m slow``) and with Hypothesis on the full two-deck universe.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from burraco._errors import BurracoError, InvalidNotationError

SUITS = "cdhs"
RANKS = "A23456789TJQK"
# RULES 0.2 / docs/api.md: suit c < d < h < s, then rank A < 2 < ... < K, the joker last;
# index = 13 * suit + (rank - 1), joker 52.
KINDS = tuple(rank + suit for suit in SUITS for rank in RANKS) + ("Jk",)
LIMIT = {kind: (4 if kind == "Jk" else 2) for kind in KINDS}  # RULES A.2, two decks

# Hypothesis must never time a test (no deadline, no "too slow" health check); the ``engine``
# fixture is a module, shared safely between examples.
HYPOTHESIS = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def text_of(counter: Counter) -> str:
    """The canonical card-list string of a multiset model: canonical order, copies repeated."""
    return " ".join(kind for kind in KINDS for _ in range(counter[kind]))


def message(excinfo) -> str:
    return str(excinfo.value)


# ----------------------------------------------------------------------------------------------
# Card: parsing and canonical output


def test_kind_table_is_the_documented_order():
    # A self-check of the table the tests below rely on (docs/api.md: index = 13 * suit + rank - 1).
    assert len(KINDS) == 53
    assert KINDS[0] == "Ac" and KINDS[12] == "Kc" and KINDS[13] == "Ad"
    assert KINDS[13 * 2 + 11] == "Qh" and KINDS[51] == "Ks" and KINDS[52] == "Jk"


@pytest.mark.parametrize("kind", KINDS)
def test_card_canonical_text_and_index(engine, kind):
    card = engine.Card(kind)
    index = KINDS.index(kind)
    assert str(card) == kind
    assert repr(card) == f"Card('{kind}')"
    assert card.index == index
    assert type(card.index) is int
    assert engine.Card.from_index(index) == card
    assert str(engine.Card.from_index(index)) == kind
    assert eval(repr(card), {"Card": engine.Card}) == card
    assert engine.Card(card) == card
    assert hash(engine.Card(card)) == hash(card)


@pytest.mark.parametrize(
    "text, canonical",
    [
        ("Qh", "Qh"),
        ("qh", "Qh"),
        ("QH", "Qh"),
        ("qH", "Qh"),
        (" Qh ", "Qh"),
        ("\tqh\n", "Qh"),
        ("Th", "Th"),
        ("th", "Th"),
        ("10h", "Th"),
        ("10H", "Th"),
        (" 10s", "Ts"),
        ("ac", "Ac"),
        ("2D", "2d"),
        ("kS", "Ks"),
        ("Jk", "Jk"),
        ("jk", "Jk"),
        ("JK", "Jk"),
        ("jK", "Jk"),
        (" Jk\t", "Jk"),
        ("jc", "Jc"),
        ("JC", "Jc"),
    ],
)
def test_card_lenient_input(engine, text, canonical):
    card = engine.Card(text)
    assert str(card) == canonical
    assert card == engine.Card(canonical)
    assert repr(card) == f"Card('{canonical}')"


@pytest.mark.parametrize(
    "bad",
    [
        "",
        " ",
        "Xh",
        "Q",
        "h",
        "Qx",
        "Qh Kh",
        "Qh,Kh",
        "Jk2",
        "QhQ",
        "1h",
        "11h",
        "0h",
        "Jkk",
        "Jd2",
        "Q h",
    ],
)
def test_card_bad_text_raises_quoting_the_input(engine, bad):
    with pytest.raises(InvalidNotationError) as excinfo:
        engine.Card(bad)
    assert repr(bad) in message(excinfo)


@pytest.mark.parametrize("bad", [5, None, 1.5, b"Qh", ["Qh"], ("Qh",), 52], ids=repr)
def test_card_non_string_raises_quoting_the_input(engine, bad):
    with pytest.raises(InvalidNotationError) as excinfo:
        engine.Card(bad)
    assert repr(bad) in message(excinfo)


@pytest.mark.parametrize("bad", [53, -1, 100])
def test_card_from_index_out_of_range(engine, bad):
    with pytest.raises(InvalidNotationError) as excinfo:
        engine.Card.from_index(bad)
    assert repr(bad) in message(excinfo)


def test_errors_are_the_shared_classes(engine):
    # docs/api.md: both engines raise (and re-export) the classes of burraco._errors.
    assert engine.InvalidNotationError is InvalidNotationError
    assert issubclass(InvalidNotationError, BurracoError)
    assert issubclass(InvalidNotationError, ValueError)
    with pytest.raises(ValueError):
        engine.Card("Zz")


# ----------------------------------------------------------------------------------------------
# Card: properties (RULES A.4: every two is "wild in hand")

RANK_VALUE = {rank: value for value, rank in enumerate(RANKS, start=1)}


@pytest.mark.parametrize("kind", KINDS)
def test_card_properties(engine, kind):
    card = engine.Card(kind)
    if kind == "Jk":
        assert card.rank is None
        assert card.suit is None
        assert card.rank_value == 0
        assert card.is_joker is True
        assert card.is_two is False
        assert card.is_wild is True
    else:
        rank, suit = kind
        assert card.rank == rank
        assert card.suit == suit
        assert card.rank_value == RANK_VALUE[rank]
        assert card.is_joker is False
        assert card.is_two is (rank == "2")
        assert card.is_wild is (rank == "2")
        assert card.index == 13 * SUITS.index(suit) + RANK_VALUE[rank] - 1
    assert type(card.rank_value) is int


@pytest.mark.parametrize(
    "kind, rank, suit, rank_value",
    [
        ("Ac", "A", "c", 1),
        ("2d", "2", "d", 2),
        ("Th", "T", "h", 10),
        ("Qh", "Q", "h", 12),
        ("Ks", "K", "s", 13),
        ("Jk", None, None, 0),
    ],
)
def test_card_properties_spot_checks(engine, kind, rank, suit, rank_value):
    card = engine.Card(kind)
    assert (card.rank, card.suit, card.rank_value) == (rank, suit, rank_value)


def test_card_total_order_is_the_index_order(engine):
    cards = [engine.Card(kind) for kind in KINDS]
    shuffled = cards[:]
    random.Random(7).shuffle(shuffled)
    assert sorted(shuffled) == cards
    assert [c.index for c in sorted(shuffled)] == list(range(53))
    for a, b in itertools.combinations(cards, 2):  # a comes first in canonical order
        assert a < b and a <= b and b > a and b >= a and a != b
        assert (b < a) is False and (a > b) is False and (a == b) is False
    # A few orderings spelt out (suit first, then rank, joker last).
    C = engine.Card
    assert C("Kc") < C("Ad") < C("2d") < C("Td") < C("Qd") < C("Ah") < C("Ks") < C("Jk")


def test_card_equality_and_hash(engine):
    C = engine.Card
    assert C("qh") == C("Qh") == C(" QH ")
    assert C("10d") == C("Td")
    assert hash(C("10d")) == hash(C("Td"))
    every = {C(kind) for kind in KINDS} | {C(kind.lower()) for kind in KINDS}
    assert len(every) == 53
    assert (C("Qh") == 5) is False
    assert (C("Qh") != None) is True  # comparing with a foreign value must not raise


@pytest.mark.parametrize(
    "attribute", ["rank", "suit", "rank_value", "index", "is_joker", "is_two", "is_wild"]
)
def test_card_is_immutable(engine, attribute):
    card = engine.Card("Qh")
    with pytest.raises(AttributeError):
        setattr(card, attribute, getattr(engine.Card("Kd"), attribute))
    assert card == engine.Card("Qh") and card.rank == "Q" and card.index == 37


# ----------------------------------------------------------------------------------------------
# Cards: construction and text


@pytest.mark.parametrize(
    "given_input, canonical",
    [
        ("5h 6h 7h Jk", "5h 6h 7h Jk"),
        ("Jk 7h 6h 5h", "5h 6h 7h Jk"),
        ("jk,7H, 6h  5h", "5h 6h 7h Jk"),
        ("5h,6h,7h,jk", "5h 6h 7h Jk"),
        ("10h th Th", None),  # three tens of hearts: overflow, checked below
        ("Ks Ac Jk Ad Jk 2c Kc", "Ac 2c Kc Ad Ks Jk Jk"),
        ("\n As\t2s ", "As 2s"),
        ("Jk Jk Jk Jk", "Jk Jk Jk Jk"),
        ("", ""),
    ],
)
def test_cards_from_text(engine, given_input, canonical):
    if canonical is None:
        with pytest.raises(InvalidNotationError):
            engine.Cards(given_input)
        return
    cards = engine.Cards(given_input)
    assert str(cards) == canonical
    assert repr(cards) == f"Cards('{canonical}')"
    assert eval(repr(cards), {"Cards": engine.Cards}) == cards


def test_cards_constructors_agree(engine):
    Cards, Card = engine.Cards, engine.Card
    expected = Cards("5h 6h 7h Jk")
    assert Cards(["5h", Card("6h"), "Jk", "7h"]) == expected
    assert Cards(("jk", "7H", "6h", "5h")) == expected
    assert Cards(card for card in ["5h", "6h", "7h", "Jk"]) == expected
    assert Cards([Card("Jk"), Card("7h"), Card("6h"), Card("5h")]) == expected
    assert Cards(expected) == expected
    assert Cards() == Cards("") == Cards([])
    assert len(Cards()) == 0 and not Cards() and str(Cards()) == "" and repr(Cards()) == "Cards('')"


@pytest.mark.parametrize(
    "bad, quoted",
    [
        ("5h 5h 5h", "'5h 5h 5h'"),
        ("5h 6h 5H 10s 5h", "'5h 6h 5H 10s 5h'"),
        ("Jk Jk Jk Jk Jk", "'Jk Jk Jk Jk Jk'"),
        ("5h Xx", "Xx"),  # an unreadable card: its text is named (alone or within the whole input)
        ("5h 6", "6"),
        ("Qh Kh Jk2", "Jk2"),
    ],
)
def test_cards_bad_text_raises_quoting_the_input(engine, bad, quoted):
    with pytest.raises(InvalidNotationError) as excinfo:
        engine.Cards(bad)
    assert quoted in message(excinfo)


@pytest.mark.parametrize(
    "bad, named",
    [
        (["5h", "5h", "5h"], "5h"),
        (["Jk"] * 5, "Jk"),
        (["5h", "Xx"], "Xx"),
        (["5h", 5], "5"),
        (5, "5"),
        (1.5, "1.5"),
        (b"5h 6h", None),  # bytes are not text: any message, but the right class
        (["5h 6h"], "5h 6h"),
    ],
    ids=repr,
)
def test_cards_bad_values_raise(engine, bad, named):
    with pytest.raises(InvalidNotationError) as excinfo:
        engine.Cards(bad)
    if named is not None:
        assert named in message(excinfo)


def test_cards_membership_and_count(engine):
    Cards, Card = engine.Cards, engine.Card
    cards = Cards("5h 5h 6h Jk Jk Jk")
    assert Card("5h") in cards and "5h" in cards and "5H" in cards and "jk" in cards
    assert Card("7h") not in cards and "7h" not in cards and "5d" not in cards
    assert cards.count(Card("5h")) == 2 and cards.count("5h") == 2 and cards.count("10h") == 0
    assert cards.count("Jk") == 3 and cards.count(Card("6h")) == 1
    assert cards.distinct() == (Card("5h"), Card("6h"), Card("Jk"))
    assert list(cards) == [Card("5h"), Card("5h"), Card("6h"), Card("Jk"), Card("Jk"), Card("Jk")]


def test_cards_whole_two_deck_pack(engine):
    text = " ".join(kind for kind in KINDS for _ in range(LIMIT[kind]))
    pack = engine.Cards(text)
    assert len(pack) == 108
    assert str(pack) == text
    assert pack.distinct() == tuple(engine.Card(kind) for kind in KINDS)
    assert engine.Cards(reversed(text.split())) == pack
    for kind in KINDS:
        with pytest.raises(InvalidNotationError):
            pack + kind
        assert pack - kind + kind == pack


def test_cards_are_immutable(engine):
    Cards = engine.Cards
    original = Cards("5h 6h")
    before = hash(original)
    alias = original
    alias += "7h"
    assert alias == Cards("5h 6h 7h")
    alias -= "5h"
    alias |= "Jk"
    alias &= "6h 7h"
    assert original == Cards("5h 6h") and str(original) == "5h 6h" and hash(original) == before
    with pytest.raises(TypeError):
        original["5h"] = 3
    with pytest.raises(TypeError):
        del original["5h"]
    # Usable as a dict key and set member.
    assert {Cards("6h 5h"): 1}[original] == 1
    assert len({Cards("5h 6h"), Cards("6h,5h"), Cards("5h 6h 6h")}) == 2


# ----------------------------------------------------------------------------------------------
# Cards against a Counter model


def check_one(engine, model: Counter) -> None:
    """Every unary protocol of one Cards value against the model."""
    Cards, Card = engine.Cards, engine.Card
    text = text_of(model)
    cards = Cards(text)
    assert len(cards) == sum(model.values())
    assert bool(cards) is (sum(model.values()) > 0)
    assert [str(c) for c in cards] == text.split()
    assert all(isinstance(c, Card) for c in cards)
    assert str(cards) == text
    assert repr(cards) == f"Cards('{text}')"
    assert eval(repr(cards), {"Cards": Cards}) == cards
    assert cards.distinct() == tuple(Card(kind) for kind in KINDS if model[kind])
    shuffled = text.split()
    random.Random(len(shuffled)).shuffle(shuffled)
    assert Cards(shuffled) == cards and hash(Cards(shuffled)) == hash(cards)
    assert Cards(", ".join(reversed(text.split()))) == cards


def check_pair(engine, a: Counter, b: Counter, kinds) -> None:
    """Every binary protocol of Cards(a) with Cards(b) against the model."""
    Cards, Card = engine.Cards, engine.Card
    left, right = Cards(text_of(a)), Cards(text_of(b))
    ta, tb = text_of(a), text_of(b)
    label = f"{ta!r} vs {tb!r}"
    contained = all(a[k] <= b[k] for k in KINDS)
    contains = all(a[k] >= b[k] for k in KINDS)

    assert (left == right) is (a == b), label
    assert (left != right) is (a != b), label
    if a == b:
        assert hash(left) == hash(right), label
    assert (left <= right) is contained, label
    assert (left < right) is (contained and a != b), label
    assert (left >= right) is contains, label
    assert (left > right) is (contains and a != b), label
    assert (left <= tb) is contained, label  # the right operand may be anything Cards() accepts

    for kind in kinds:
        card = Card(kind)
        assert (card in left) is (a[kind] > 0), label
        assert (kind in left) is (a[kind] > 0), label
        assert left.count(card) == a[kind] and left.count(kind) == a[kind], label

    total = a + b
    if all(total[k] <= LIMIT[k] for k in KINDS):
        assert str(left + right) == text_of(total), label
        assert left + tb == left + right == left + list(right), label
    else:
        over = next(k for k in KINDS if total[k] > LIMIT[k])
        with pytest.raises(InvalidNotationError) as excinfo:
            left + right
        assert over in message(excinfo), label
        with pytest.raises(InvalidNotationError):
            left + tb

    if contains:
        assert str(left - right) == text_of(a - b), label
        assert left - tb == left - right, label
        assert (left - right) + right == left, label
    else:
        missing = next(k for k in KINDS if b[k] > a[k])
        with pytest.raises(InvalidNotationError) as excinfo:
            left - right
        assert missing in message(excinfo), label
        with pytest.raises(ValueError):
            left - tb

    assert str(left | right) == text_of(a | b), label
    assert str(left & right) == text_of(a & b), label
    assert left | tb == left | right and left & tb == left & right, label
    # Operands are never modified.
    assert str(left) == ta and str(right) == tb, label


SMALL_KINDS = ("Ac", "2h", "Ks", "Jk")  # an ace, a two, a king of another suit, the joker


def small_universe():
    ranges = [range(LIMIT[kind] + 1) for kind in SMALL_KINDS]
    for counts in itertools.product(*ranges):
        yield Counter({kind: n for kind, n in zip(SMALL_KINDS, counts) if n})


SMALL = list(small_universe())  # 3 * 3 * 3 * 5 = 135 multisets


def test_small_universe_size():
    assert len(SMALL) == 135


# The default run checks every value of the small universe and a third of its 18,225 ordered
# pairs: (SMALL[i], SMALL[j]) when i + j is a multiple of PAIR_STRIDE, so each value meets a third
# of the others as either operand; the slow run checks every pair.
PAIR_STRIDE = 3
SMALL_IDS = [text_of(c) or "empty" for c in SMALL]


@pytest.mark.parametrize("i", range(len(SMALL)), ids=SMALL_IDS)
def test_cards_exhaustive_small_universe(engine, i):
    check_one(engine, SMALL[i])
    for j in range(len(SMALL)):
        if (i + j) % PAIR_STRIDE == 0:
            check_pair(engine, SMALL[i], SMALL[j], SMALL_KINDS + ("5d",))


@pytest.mark.slow
@pytest.mark.parametrize("i", range(len(SMALL)), ids=SMALL_IDS)
def test_cards_exhaustive_small_universe_every_pair(engine, i):
    for j in range(len(SMALL)):
        if (i + j) % PAIR_STRIDE:
            check_pair(engine, SMALL[i], SMALL[j], SMALL_KINDS + ("5d",))


def counters(max_size: int = 108):
    """Multisets over the full two-deck universe, sparse or dense, within the copy limits."""
    return st.lists(st.sampled_from(KINDS), max_size=max_size).map(
        lambda kinds: Counter({k: min(n, LIMIT[k]) for k, n in Counter(kinds).items()})
    )


@HYPOTHESIS
@given(a=counters(), b=counters())
def test_cards_against_counter_full_deck(engine, a, b):
    check_one(engine, a)
    check_pair(engine, a, b, KINDS)


@HYPOTHESIS
@given(a=counters(40))
def test_cards_subsets_of_a_multiset(engine, a):
    # Every sub-multiset relation found by removing some cards (the other case is rare at random).
    kinds = text_of(a).split()
    b = Counter(kinds[::2])
    check_pair(engine, a, b, KINDS)
    check_pair(engine, b, a, KINDS)
