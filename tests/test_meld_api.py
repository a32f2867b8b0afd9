"""Meld and Melds as Python objects (docs/api.md "Meld", "Melds"), on both engines.

The RULES I.1-I.4 vectors live in test_rules_vectors_melds.py; this file checks the object surface
around them: property values and types, immutability, ``can_add`` against ``add``, ``repr`` and
``Meld.from_layout`` round trips (including run states that depend on history), error classes and
messages, and how the meld-related knobs of ``Rules`` change what is a meld.

Every expected value was worked out by hand from RULES B.1-B.7 and A.3 (the reasoning is in the
comments); none was read from an engine.
"""

from __future__ import annotations

import pytest

from burraco._errors import (
    BurracoError,
    IllegalMoveError,
    InvalidMeldError,
    InvalidNotationError,
)

SUITS = "cdhs"
RANKS = "A23456789TJQK"
KINDS = tuple(r + s for s in SUITS for r in RANKS) + ("Jk",)
SLOT_RANK = dict(enumerate("A23456789TJQKA", start=1))  # RULES 0.3: slot 1 = low ace, 14 = high ace


def run(suit: str, lo: int, hi: int) -> str:
    """The naturals of ``suit`` in slots lo..hi, in slot order: run('h', 3, 5) == '3h 4h 5h'."""
    return " ".join(SLOT_RANK[slot] + suit for slot in range(lo, hi + 1))


def namespace(engine) -> dict:
    return {name: getattr(engine, name) for name in ("Card", "Cards", "Meld", "Melds", "Rules")}


# ----------------------------------------------------------------------------------------------
# Properties


# cards given -> layout, kind, suit, rank, wild, wild_state, span, is_clean, burraco, points, bonus
# (italian rules: points per A.3 Jk 30, 2 20, A 15, 8..K 10, 3..7 5; bonuses 200 / 150 / 100)
# fmt: off
PROPERTY_CASES = [
    # B.4 pref. 3: a free wild goes low
    ("Jk 5d 6d", "Jk(=4d) 5d 6d", "run", "d", None, "Jk", "free-low", (4, 6), False, None, 40, 0),
    # B.2: wild last, written with the set's rank
    ("Ks Kd Jk", "Kd Ks Jk(=K)", "set", None, "K", "Jk", "set", None, False, None, 50, 0),
    ("Tc Ts Tc", "Tc Tc Ts", "set", None, "T", None, None, None, True, None, 30, 0),
    ("4s 4h 4c 4d 2s", "4c 4d 4h 4s 2s(=4)",
     "set", None, "4", "2s", "set", None, False, None, 40, 0),
    ("9h 8h 7h", "7h 8h 9h", "run", "h", None, None, None, (7, 9), True, None, 25, 0),
    # a natural 2s in slot 2 plus a wild 2h bound in slot 4
    ("As 2s 3s 2h 5s", "As 2s 3s 2h(=4s) 5s",
     "run", "s", None, "2h", "bound", (1, 5), False, None, 65, 0),
    ("9c 2c Jc", "9c 2c(=Tc) Jc", "run", "c", None, "2c", "bound", (9, 11), False, None, 40, 0),
    ("As Ks Qs", "Qs Ks As", "run", "s", None, None, None, (12, 14), True, None, 35, 0),
    ("Ks As 2s", "2s(=Qs) Ks As", "run", "s", None, "2s", "free-low", (12, 14), False, None, 45, 0),
    # no slot below a low ace: the free wild is high
    ("Ah 2h Jk", "Ah 2h Jk(=3h)", "run", "h", None, "Jk", "free-high", (1, 3), False, None, 65, 0),
    ("2h 2h 3h", "2h(=Ah) 2h 3h", "run", "h", None, "2h", "free-low", (1, 3), False, None, 45, 0),
    ("5h 2h 3h 4h", "2h 3h 4h 5h", "run", "h", None, None, None, (2, 5), True, None, 35, 0),
    # burracos (B.7): 7+ cards
    ("7h 7h 7s 7s 7d 7c 7c", "7c 7c 7d 7h 7h 7s 7s",
     "set", None, "7", None, None, None, True, "clean", 35, 200),
    ("7h 7h 7s 7s 7d 7c 7c Jk", "7c 7c 7d 7h 7h 7s 7s Jk(=7)",
     "set", None, "7", "Jk", "set", None, False, "semi-clean", 65, 150),
    ("Qc Qd Qh Qs Qs Qh 2d", "Qc Qd Qh Qh Qs Qs 2d(=Q)",
     "set", None, "Q", "2d", "set", None, False, "dirty", 80, 100),
    (run("d", 2, 8), run("d", 2, 8),
     "run", "d", None, None, None, (2, 8), True, "clean", 55, 200),
    # 8 naturals 5..Q and a free wild: longest natural block 8 -> semi-clean
    ("5h 6h 7h 8h 9h Th Jh Qh 2c", "2c(=4h) 5h 6h 7h 8h 9h Th Jh Qh",
     "run", "h", None, "2c", "free-low", (4, 12), False, "semi-clean", 85, 150),
    # blocks 5..7 and 9..J around a bound joker -> dirty
    ("5h 6h 7h Jk 9h Th Jh", "5h 6h 7h Jk(=8h) 9h Th Jh",
     "run", "h", None, "Jk", "bound", (5, 11), False, "dirty", 75, 100),
    # RULES V5: A..K plus a wild, the wild an orphan in slot 14 (13 naturals in a row: semi-clean)
    (run("s", 1, 13) + " Jk", run("s", 1, 13) + " Jk(=As)",
     "run", "s", None, "Jk", "orphan", (1, 14), False, "semi-clean", 150, 150),
    # 3..K plus an ace: only slot 14 is next to the run
    (run("h", 3, 13) + " Ah", run("h", 3, 14),
     "run", "h", None, None, None, (3, 14), True, "clean", 100, 200),
]
# fmt: on


@pytest.mark.parametrize(
    "cards, layout, kind, suit, rank, wild, wild_state, span, is_clean, burraco, points, bonus",
    PROPERTY_CASES,
    ids=[case[0] for case in PROPERTY_CASES],
)
def test_meld_properties(
    engine,
    cards,
    layout,
    kind,
    suit,
    rank,
    wild,
    wild_state,
    span,
    is_clean,
    burraco,
    points,
    bonus,
):
    meld = engine.Meld(cards)
    assert meld.layout == layout
    assert str(meld) == layout
    assert meld.kind == kind
    assert meld.suit == suit
    assert meld.rank == rank
    assert meld.wild == (None if wild is None else engine.Card(wild))
    assert meld.wild_state == wild_state
    assert meld.span == span
    assert meld.is_clean is is_clean
    assert meld.burraco == burraco
    assert meld.points == points
    assert meld.bonus == bonus
    assert meld.cards == engine.Cards(cards)
    assert len(meld) == len(cards.split())
    assert meld.rules == engine.Rules("italian")


@pytest.mark.parametrize("cards", [case[0] for case in PROPERTY_CASES])
def test_meld_property_types(engine, cards):
    meld = engine.Meld(cards)
    assert type(meld.kind) is str and type(meld.layout) is str
    assert meld.suit is None or type(meld.suit) is str
    assert meld.rank is None or type(meld.rank) is str
    assert meld.wild is None or isinstance(meld.wild, engine.Card)
    assert meld.wild_state is None or type(meld.wild_state) is str
    if meld.kind == "run":
        assert type(meld.span) is tuple and len(meld.span) == 2
        assert all(type(slot) is int for slot in meld.span)
        assert len(meld) == meld.span[1] - meld.span[0] + 1
    else:
        assert meld.span is None
    assert type(meld.is_clean) is bool
    assert meld.is_clean is (meld.wild is None)
    assert meld.burraco is None or type(meld.burraco) is str
    assert (meld.burraco is None) is (len(meld) < 7)
    assert type(meld.points) is int and type(meld.bonus) is int
    assert isinstance(meld.cards, engine.Cards)
    assert isinstance(meld.rules, engine.Rules)
    assert type(len(meld)) is int


@pytest.mark.parametrize(
    "cards, layout_order",
    [
        ("Jk 5d 6d", ["Jk", "5d", "6d"]),
        ("2h 2h 3h", ["2h", "2h", "3h"]),
        ("As 2s 3s 2h 5s", ["As", "2s", "3s", "2h", "5s"]),
        ("4s 4h 4c 4d 2s", ["4c", "4d", "4h", "4s", "2s"]),
        ("Ks Kd Jk", ["Kd", "Ks", "Jk"]),
        ("Ks As 2s", ["2s", "Ks", "As"]),
        (run("c", 1, 13) + " Jk", run("c", 1, 13).split() + ["Jk"]),
    ],
)
def test_meld_iterates_in_layout_order(engine, cards, layout_order):
    meld = engine.Meld(cards)
    assert list(meld) == [engine.Card(card) for card in layout_order]
    assert all(isinstance(card, engine.Card) for card in meld)


def test_meld_input_forms_agree(engine):
    Meld, Card, Cards = engine.Meld, engine.Card, engine.Cards
    expected = Meld("Jk 5d 6d")
    assert Meld("6d Jk 5d") == expected
    assert Meld("6d, jk, 5D") == expected
    assert Meld(["5d", Card("6d"), "Jk"]) == expected
    assert Meld((Card("Jk"), Card("5d"), Card("6d"))) == expected
    assert Meld(Cards("5d 6d Jk")) == expected
    assert Meld(iter(["Jk", "6d", "5d"])) == expected
    assert Meld("Jk 5d 6d", None) == expected
    assert Meld("Jk 5d 6d", rules=engine.Rules()) == expected
    # a string with a wild annotation is read as a layout (docs/api.md)
    assert Meld("Jk(=4d) 5d 6d") == expected
    assert Meld.from_layout("Jk(=4d) 5d 6d") == expected
    assert hash(Meld("6d Jk 5d")) == hash(expected)


def test_meld_equality_includes_the_rules(engine):
    Meld, Rules = engine.Meld, engine.Rules
    assert Meld("7h 8h 9h") != Meld("7h 8h 9h", Rules("brazilian"))
    assert Meld("7h 8h 9h") == Meld("7h 8h 9h", Rules("italian", players=4))
    assert Meld("7h 8h 9h") != Meld("7h 8h 9h", Rules("italian", players=2))
    assert Meld("7h 8h 9h", Rules("brazilian")).rules == Rules("brazilian")
    assert len({Meld("7h 8h 9h"), Meld("9h 8h 7h"), Meld("7h 8h 9h", Rules("brazilian"))}) == 2
    assert (Meld("7h 8h 9h") == "7h 8h 9h") is False


# ----------------------------------------------------------------------------------------------
# Immutability


@pytest.mark.parametrize(
    "attribute", ["layout", "cards", "wild", "kind", "span", "points", "rules"]
)
def test_meld_attributes_are_read_only(engine, attribute):
    meld = engine.Meld("Jk 5d 6d")
    with pytest.raises(AttributeError):
        setattr(meld, attribute, getattr(engine.Meld("7h 8h 9h"), attribute))
    assert meld.layout == "Jk(=4d) 5d 6d"


@pytest.mark.parametrize(
    "before, card, after",
    [
        ("Jk 5d 6d", "7d", "Jk(=4d) 5d 6d 7d"),  # the free wild stays low
        ("Jk 5d 6d", "3d", "3d Jk(=4d) 5d 6d"),  # the free wild is now bound
        ("Jk 5d 6d", "4d", "Jk(=3d) 4d 5d 6d"),  # replaced: re-placed low
        ("Ks Kd Jk", "Kh", "Kd Kh Ks Jk(=K)"),
        ("Ks Kd Kh", "2c", "Kd Kh Ks 2c(=K)"),
        ("7h 8h 9h", "Th", "7h 8h 9h Th"),
        ("Qh Kh Ah", "Jk", "Jk(=Jh) Qh Kh Ah"),
    ],
)
def test_add_returns_a_new_meld_and_leaves_the_old_one(engine, before, card, after):
    meld = engine.Meld(before)
    layout, cards, length, points = meld.layout, meld.cards, len(meld), meld.points
    for given in (card, engine.Card(card), card.lower()):
        new = meld.add(given)
        assert isinstance(new, engine.Meld)
        assert new.layout == after
        assert new.cards == cards + card
        assert len(new) == length + 1
        assert new.points == points + engine.Rules().card_points(engine.Card(card))
        assert meld.layout == layout and meld.cards == cards and len(meld) == length
        assert meld == engine.Meld(before)


# ----------------------------------------------------------------------------------------------
# History-dependent run states, repr and from_layout


def history(engine, start: str, *cards: str, rules=None):
    """The meld ``start`` with ``cards`` laid off one by one."""
    meld = engine.Meld(start, rules)
    for card in cards:
        meld = meld.add(card)
    return meld


def test_ace_laid_high_stays_high(engine):
    # 3h..Kh + Ah: only slot 14 is next to the run. Then + 2h: L1 keeps the ace in slot 14 and the
    # 2h goes to slot 2 as a natural two -> 2..14, which is not the canonical form of that multiset
    # (B.4 pref. 2 puts the ace low: Ah 2h .. Kh).
    meld = history(engine, run("h", 3, 13), "Ah", "2h")
    assert meld.layout == run("h", 2, 14)
    assert meld.span == (2, 14)
    assert meld.is_clean is True and meld.burraco == "clean" and meld.bonus == 200
    assert meld.points == 120
    canonical = engine.Meld(run("h", 1, 13))
    assert canonical.layout == run("h", 1, 13) and canonical.span == (1, 13)
    assert meld.cards == canonical.cards
    assert meld != canonical
    # without a wild annotation the text is a multiset: Meld() chooses the canonical layout
    assert engine.Meld(run("h", 2, 14)) == canonical
    assert engine.Meld.from_layout(run("h", 2, 14)) == meld
    assert repr(meld) == f"Meld.from_layout('{run('h', 2, 14)}')"
    assert eval(repr(meld), namespace(engine)) == meld


def test_orphan_in_the_low_ace_slot(engine):
    # 2h..Kh Ah (ace high) + Jk: 13 naturals in slots 2..14, the wild in slot 1: the V5 run with the
    # orphan below (it stands for the other ace). The canonical form of the same cards has the
    # ace low and the orphan in slot 14.
    meld = history(engine, run("h", 3, 13), "Ah", "2h", "Jk")
    layout = "Jk(=Ah) " + run("h", 2, 14)
    assert meld.layout == layout
    assert meld.wild == engine.Card("Jk") and meld.wild_state == "orphan"
    assert meld.span == (1, 14) and len(meld) == 14
    assert meld.burraco == "semi-clean" and meld.bonus == 150 and meld.points == 150
    canonical = engine.Meld(run("h", 1, 13) + " Jk")
    assert canonical.layout == run("h", 1, 13) + " Jk(=Ah)"
    assert canonical.wild_state == "orphan"
    assert canonical != meld and canonical.cards == meld.cards
    assert repr(meld) == f"Meld.from_layout('{layout}')"
    assert eval(repr(meld), namespace(engine)) == meld
    assert engine.Meld(layout) == meld  # a wild annotation: read as a layout
    # nothing can be added to a 14-card run with an orphan (B.5)
    assert [kind for kind in KINDS if meld.can_add(kind)] == []


def test_free_wild_below_a_high_ace(engine):
    # 3h..Kh Ah + Jk: the joker can only take slot 2 (a free wild at the low end). The canonical
    # form of these cards is Ah Jk(=2h) 3h..Kh (R39: ace low, joker bound).
    meld = history(engine, run("h", 3, 13), "Ah", "Jk")
    layout = "Jk(=2h) " + run("h", 3, 14)
    assert meld.layout == layout
    assert meld.wild_state == "free-low" and meld.span == (2, 14)
    assert meld.burraco == "semi-clean" and meld.points == 130
    assert engine.Meld(meld.cards).layout == "Ah Jk(=2h) " + run("h", 3, 13)
    assert repr(meld) == f"Meld.from_layout('{layout}')"
    assert eval(repr(meld), namespace(engine)) == meld
    # + 2h replaces the joker, which moves to slot 1 as the orphan: the run of the other path
    assert meld.add("2h") == history(engine, run("h", 3, 13), "Ah", "2h", "Jk")
    assert meld.can_add("Ah") is False  # natural aces at both ends (V4)
    assert meld.can_add("2c") is False  # a second wild
    assert meld.can_add("Jk") is False


def test_brazilian_history_repr_names_the_rules(engine):
    rules = engine.Rules("brazilian")
    meld = history(engine, run("h", 3, 13), "Ah", "2h", rules=rules)
    assert meld.layout == run("h", 2, 14)
    assert repr(meld) == f"Meld.from_layout('{run('h', 2, 14)}', Rules('brazilian'))"
    assert eval(repr(meld), namespace(engine)) == meld
    # brazilian allows both natural aces (V4): + Ah gives the canonical A..K..A
    both = meld.add("Ah")
    assert both.layout == run("h", 1, 14) and both.span == (1, 14) and both.is_clean
    assert repr(both) == f"Meld('{run('h', 1, 14)}', Rules('brazilian'))"


REPR_CASES = [
    ("Jk 5d 6d", None, "Meld('Jk(=4d) 5d 6d')"),
    ("Tc Ts Tc", None, "Meld('Tc Tc Ts')"),
    ("Ks Kd Jk", None, "Meld('Kd Ks Jk(=K)')"),
    ("9h 7h 8h", None, "Meld('7h 8h 9h')"),
    ("As 2s 3s 2h 5s", None, "Meld('As 2s 3s 2h(=4s) 5s')"),
    (run("h", 3, 13) + " Ah", None, f"Meld('{run('h', 3, 14)}')"),
    ("Jk 5d 6d", "Rules('brazilian')", "Meld('Jk(=4d) 5d 6d', Rules('brazilian'))"),
    ("Jk 5d 6d", "Rules('italian', players=4)", "Meld('Jk(=4d) 5d 6d')"),
    (
        "Jk 5d 6d",
        "Rules('italian', semi_clean_burraco_bonus=None)",
        "Meld('Jk(=4d) 5d 6d', Rules('italian', semi_clean_burraco_bonus=None))",
    ),
    (
        "Jk 2h 3h",
        "Rules('italian', ace_low_or_high='high_only')",
        "Meld('2h 3h Jk(=4h)', Rules('italian', ace_low_or_high='high_only'))",
    ),
]


@pytest.mark.parametrize(
    "cards, rules, text", REPR_CASES, ids=[f"{c[0]}|{c[1]}" for c in REPR_CASES]
)
def test_repr(engine, cards, rules, text):
    ns = namespace(engine)
    meld = engine.Meld(cards, None if rules is None else eval(rules, ns))
    assert repr(meld) == text
    assert eval(text, ns) == meld


# A variety of meld states, each reached by a history: (start, lay-offs, rules)
STATES = [
    ("Jk 5d 6d", (), None),
    ("Jk 5d 6d", ("7d",), None),
    ("Jk 5d 6d", ("3d",), None),
    ("Jk 5d 6d", ("4d", "3d", "7d"), None),
    ("8d Jk Td", (), None),
    ("8d Jk Td", ("9d",), None),
    ("8d Jk Td", ("9d", "Qd"), None),
    ("2d 3d 4d 5d 6d 7d", ("9d",), None),
    ("2d 3d 4d 5d 6d 7d", ("9d", "8d"), None),
    ("2h 3h 4h", ("2c",), None),
    ("Qh Kh Ah", ("Jk",), None),
    ("Ah 2h 3h", ("Jk", "5h"), None),
    ("Ks Kd Jk", ("Kh", "Kc"), None),
    ("4s 4h 4c 4d 2s", ("4s", "4h", "4c", "4d"), None),
    ("Tc Tc Ts", ("Jk",), None),
    (run("c", 1, 13), ("Jk",), None),
    (run("c", 1, 5) + " Jk " + run("c", 7, 13), ("6c",), None),
    (run("h", 3, 13), ("Ah",), None),
    (run("h", 3, 13), ("Ah", "2h"), None),
    (run("h", 3, 13), ("Ah", "2h", "Jk"), None),
    (run("h", 3, 13), ("Ah", "Jk"), None),
    (run("h", 2, 13), ("Jk",), None),
    ("Jk 5d 6d", ("7d",), "Rules('brazilian')"),
    (run("c", 1, 13), ("Jk",), "Rules('brazilian')"),
    (run("c", 1, 13), ("Ac",), "Rules('brazilian')"),
    (run("h", 3, 13), ("Ah", "2h"), "Rules('brazilian')"),
    ("Jk 2h 3h", ("4h",), "Rules('italian', ace_low_or_high='high_only')"),
    ("Ah 2h 3h", (), "Rules('italian', natural_two_in_run=False)"),
    ("3h 4h 5h", ("2h",), "Rules('italian', natural_two_in_run=False)"),
    (
        "Jk 5d 6d",
        ("7d",),
        "Rules('italian', card_values='pagat_brazil', semi_clean_burraco_bonus=None)",
    ),
]


@pytest.mark.parametrize(
    "start, lay_offs, rules", STATES, ids=[f"{s[0]}+{'+'.join(s[1])}|{s[2]}" for s in STATES]
)
def test_repr_and_from_layout_round_trip(engine, start, lay_offs, rules):
    ns = namespace(engine)
    rules = None if rules is None else eval(rules, ns)
    meld = history(engine, start, *lay_offs, rules=rules)
    again = eval(repr(meld), ns)
    assert again == meld and hash(again) == hash(meld)
    assert again.layout == meld.layout and again.rules == meld.rules
    assert again.wild_state == meld.wild_state and again.span == meld.span
    from_layout = engine.Meld.from_layout(meld.layout, meld.rules)
    assert from_layout == meld
    assert engine.Meld.from_layout(str(meld), rules) == meld
    # repr uses Meld('...') exactly when the layout is the canonical one of the multiset
    canonical = engine.Meld(meld.cards, meld.rules)
    if canonical.layout == meld.layout:
        assert repr(meld).startswith("Meld('")
    else:
        assert repr(meld).startswith("Meld.from_layout('")
    # from_layout of the same text is stable, and lay-offs continue the same way on the copy
    for kind in KINDS:
        assert again.can_add(kind) is meld.can_add(kind), kind


@pytest.mark.parametrize(
    "text, layout",
    [
        # tags are accepted and checked (docs/api.md)
        ("Jk(=4d)[free-low] 5d 6d", "Jk(=4d) 5d 6d"),
        ("8d Jk(=9d)[bound] Td", "8d Jk(=9d) Td"),
        ("Ah 2h Jk(=3h)[free-high]", "Ah 2h Jk(=3h)"),
        (run("c", 1, 13) + " Jk(=Ac)[orphan]", run("c", 1, 13) + " Jk(=Ac)"),
        # a free wild written high while the low end exists is normalised low (B.4 pref. 3)
        ("5d 6d Jk(=7d)", "Jk(=4d) 5d 6d"),
        ("Qh Kh Jk(=Ah)", "Jk(=Jh) Qh Kh"),
        (run("h", 2, 13) + " Jk(=Ah)", "Jk(=Ah) " + run("h", 2, 13)),
        # ... but not when there is no low end
        ("Ah 2h Jk(=3h)", "Ah 2h Jk(=3h)"),
        # lenient card text inside a layout
        ("jk(=4D) 5d 6D", "Jk(=4d) 5d 6d"),
        ("Kd Ks Jk(=K)", "Kd Ks Jk(=K)"),
        ("4c 4d 4h 4s 2s(=4)", "4c 4d 4h 4s 2s(=4)"),
        ("9c 2c(=10c) Jc", "9c 2c(=Tc) Jc"),
    ],
)
def test_from_layout_accepts(engine, text, layout):
    meld = engine.Meld.from_layout(text)
    assert meld.layout == layout
    assert engine.Meld(text) == meld


@pytest.mark.parametrize(
    "text",
    [
        "",
        "5d 6d",
        "Jk(=4d) 5d 7d",  # a hole
        "5d Jk(=4d) 6d",  # not in slot order
        "7d 6d 5d",  # not in slot order
        "Jk(=5d) 5d 6d",  # the wild's slot is taken
        "Jk(=3d) 5d 6d",  # the wild is not next to the run
        "Jk(=4h) 5d 6d",  # the wild stands for a card of another suit
        "2h(=2h) 3h 4h",  # a two of the suit in slot 2 is natural (V2)
        "Jk(=Ah) 2h 3h Jk(=4h)",  # two wilds
        "2c(=Ah) 2h 3h 4h Jk(=5h)",  # two wilds
        run("h", 1, 14),  # both natural aces (italian, V4)
        "Jk(=4d)[bound] 5d 6d",  # a tag that does not match the state
        "8d Jk(=9d)[free-low] Td",
        "Ah 2h Jk(=3h)[free-low]",
        "Kd Ks Jk(=Q)",  # the wild of a set stands for its rank
        "Kd Ks Qs",
        "Jk(=K) Jk(=K) Kd",
        "2c 2d 2h",
    ],
)
def test_from_layout_rejects(engine, text):
    with pytest.raises(InvalidMeldError) as excinfo:
        engine.Meld.from_layout(text)
    assert repr(text) in str(excinfo.value)


@pytest.mark.parametrize(
    "text, named",
    [
        ("Jk(=Xx) 5d 6d", "Xx"),
        ("5d 6d Zz", "Zz"),
        ("Jk(=4d 5d 6d", "Jk(=4d"),
        ("Jk(=4d)[loose] 5d 6d", "loose"),
    ],
)
def test_from_layout_bad_notation(engine, text, named):
    with pytest.raises(InvalidNotationError) as excinfo:
        engine.Meld.from_layout(text)
    assert named in str(excinfo.value)


@pytest.mark.parametrize("bad", [5, None, 1.5, ["Jk(=4d)", "5d", "6d"]], ids=repr)
def test_from_layout_needs_a_string(engine, bad):
    with pytest.raises(InvalidNotationError):
        engine.Meld.from_layout(bad)


# ----------------------------------------------------------------------------------------------
# can_add agrees with add


CAN_ADD_MELDS = [
    ("Jk 5d 6d", None),
    ("8d Jk Td", None),
    ("2h 6s 7s", None),
    ("2d 3d 4d 5d 6d 7d", None),
    ("Ad 2d 3d 4d", None),
    ("2h 3h 4h", None),
    ("3h 4h 2h 6h", None),
    ("Qh Kh Ah", None),
    ("Ks As 2s", None),
    ("Ah 2h Jk", None),
    ("Ks Kd Jk", None),
    ("Ks Kd Kh", None),
    ("5h 5h 5s 5s 5d 5d 5c 5c", None),
    (run("c", 1, 13), None),
    (run("c", 1, 13), "brazilian"),
    (run("h", 3, 13) + " Ah", None),
    (run("h", 3, 13) + " Ah", "brazilian"),
    (run("c", 1, 13) + " Jk", "brazilian"),
    ("3h 4h 2h 6h", "brazilian"),
    ("Tc Tc Ts Ts Th Th", "brazilian"),
]


@pytest.mark.parametrize("cards, preset", CAN_ADD_MELDS, ids=[f"{c}|{p}" for c, p in CAN_ADD_MELDS])
def test_can_add_agrees_with_add(engine, cards, preset):
    rules = engine.Rules(preset or "italian")
    meld = engine.Meld(cards, rules)
    before = meld.layout
    for kind in KINDS:
        can = meld.can_add(kind)
        assert type(can) is bool
        assert meld.can_add(engine.Card(kind)) is can
        if can:
            new = meld.add(kind)
            assert new.cards == meld.cards + kind, kind
            assert len(new) == len(meld) + 1
            assert new.rules == rules
        else:
            with pytest.raises(IllegalMoveError) as excinfo:
                meld.add(kind)
            message = str(excinfo.value)
            assert repr(kind) in message, message  # the card, quoted with repr()
        assert meld.layout == before


def test_no_add_past_the_copies_that_exist(engine):
    # docs/api.md: a card of which the meld already holds every copy is an IllegalMoveError
    meld = engine.Meld("Kd Kh Kh")
    assert meld.can_add("Kh") is False
    with pytest.raises(IllegalMoveError):
        meld.add("Kh")
    assert meld.add("Kd").layout == "Kd Kd Kh Kh"


# ----------------------------------------------------------------------------------------------
# Errors


def test_error_classes(engine):
    for name, cls in (
        ("InvalidNotationError", InvalidNotationError),
        ("InvalidMeldError", InvalidMeldError),
        ("IllegalMoveError", IllegalMoveError),
        ("BurracoError", BurracoError),
    ):
        assert getattr(engine, name) is cls
        assert issubclass(cls, ValueError)
    for cls in (InvalidNotationError, InvalidMeldError, IllegalMoveError):
        assert issubclass(cls, BurracoError)


@pytest.mark.parametrize(
    "cards",
    [
        "",
        "5h",
        "5h 6h",
        "5h 6h 8h",
        "5h 6h 7d",
        "Jk Jk Jk",
        "Jk Jk 5h",
        "2c 2d 2h",
        "5h 6h 6h",
        "Kh Ah 2h 3h",
        "5c 5d 6d",
    ],
)
def test_not_a_meld_quotes_the_input(engine, cards):
    with pytest.raises(InvalidMeldError) as excinfo:
        engine.Meld(cards)
    # the input as given, or as the canonical card list of that multiset (its order is irrelevant)
    text = str(excinfo.value)
    assert repr(cards) in text or repr(str(engine.Cards(cards))) in text, text


def test_empty_list_is_not_a_meld(engine):
    with pytest.raises(InvalidMeldError):
        engine.Meld([])
    with pytest.raises(InvalidMeldError):
        engine.Meld(engine.Cards())


@pytest.mark.parametrize(
    "cards, named",
    [
        ("5h 6h Xx", "Xx"),
        ("5h 6h 7", "7"),
        ("5h 5h 5h", "5h"),
        ("5h 5h 5h 6h 7h", "5h"),
        ("Jk Jk Jk Jk Jk", "Jk"),
        (5, "5"),
        (None, "None"),
        (1.5, "1.5"),
        (["5h", 6, "7h"], "6"),
        ([None, "5h", "6h"], "None"),
    ],
    ids=repr,
)
def test_bad_meld_input_is_a_notation_error(engine, cards, named):
    with pytest.raises(InvalidNotationError) as excinfo:
        engine.Meld(cards)
    assert named in str(excinfo.value)


@pytest.mark.parametrize("card", ["Xx", "", "5h 6h", "Jk2", 5, None, 1.5], ids=repr)
def test_add_bad_card_is_a_notation_error(engine, card):
    meld = engine.Meld("5h 6h 7h")
    with pytest.raises(InvalidNotationError) as excinfo:
        meld.add(card)
    assert repr(card) in str(excinfo.value)
    assert meld.layout == "5h 6h 7h"


@pytest.mark.parametrize(
    "cards, card",
    [
        ("5h 6h 7h", "Kd"),  # another suit, not adjacent
        ("5h 6h 7h", "9h"),  # a hole and no wild
        ("5d Jk 7d", "9d"),  # a bound wild does not move (B.5)
        ("Jk 5d 6d", "2c"),  # a second wild
        ("Ks Kd Jk", "Qs"),  # another rank
        ("Ks Kd Jk", "Jk"),  # a second wild
    ],
)
def test_illegal_add_names_the_card(engine, cards, card):
    meld = engine.Meld(cards)
    with pytest.raises(IllegalMoveError) as excinfo:
        meld.add(card)
    assert repr(card) in str(excinfo.value)  # every message quotes the input with repr()
    assert meld.can_add(card) is False


# ----------------------------------------------------------------------------------------------
# Rules knobs that change melds (docs/api.md "Meld-relevant knob semantics")

LOW_ONLY = "Rules('italian', ace_low_or_high='low_only')"
HIGH_ONLY = "Rules('italian', ace_low_or_high='high_only')"
NO_NATURAL_TWO = "Rules('italian', natural_two_in_run=False)"
NO_CONVERT = "Rules('italian', low_natural_two_may_convert=False)"
NO_ORPHAN = "Rules('italian', allow_orphan_wild_14=False)"
SET_MAX_4 = "Rules('italian', max_set_size=4)"
SET_MAX_3 = "Rules('italian', max_set_size=3)"
RUN_MAX_5 = "Rules('italian', max_run_size=5)"
RUN_MAX_13 = "Rules('italian', max_run_size=13)"
FACES_ONLY = "Rules('italian', set_ranks='JQK')"
NO_SETS = "Rules('italian', sets_allowed=False)"
BOTH_ACES = "Rules('italian', allow_both_aces_in_run=True)"

# rules, cards -> the canonical layout, or None when the cards are not a meld under those rules
NEW_MELD_KNOBS = [
    # low_only: slot 14 does not exist
    (LOW_ONLY, "Qs Ks As", None),
    (LOW_ONLY, "Ks As 2s", None),  # italian: 2s(=Qs) Ks As
    (LOW_ONLY, "Ah 2h Kh", None),  # italian: 2h(=Qh) Kh Ah (R25)
    (LOW_ONLY, run("c", 1, 13) + " Jk", None),  # the orphan needs slot 14
    (LOW_ONLY, "Ah 2h 3h", "Ah 2h 3h"),
    (LOW_ONLY, "Jk Qh Kh", "Jk(=Jh) Qh Kh"),
    (LOW_ONLY, "Jk 2h 3h", "Jk(=Ah) 2h 3h"),
    # high_only: slot 1 does not exist, so a free wild next to slot 2 goes high
    (HIGH_ONLY, "Ah 2h 3h", None),
    (HIGH_ONLY, "Ah 2h Jk", None),
    (HIGH_ONLY, run("c", 1, 13) + " Jk", None),
    (HIGH_ONLY, "Qs Ks As", "Qs Ks As"),
    (HIGH_ONLY, "Ks As 2s", "2s(=Qs) Ks As"),
    (HIGH_ONLY, "2c 3c 4c", "2c 3c 4c"),
    (HIGH_ONLY, "Jk 2h 3h", "2h 3h Jk(=4h)"),  # italian: Jk(=Ah) 2h 3h
    (HIGH_ONLY, "2h 2h 3h", "2h 3h 2h(=4h)"),  # italian: 2h(=Ah) 2h 3h (R13)
    # natural_two_in_run=False: every two is a wild, written 2h(=2h) in slot 2
    (NO_NATURAL_TWO, "Ah 2h 3h", "Ah 2h(=2h) 3h"),
    (NO_NATURAL_TWO, "2h 3h 4h", "2h(=2h) 3h 4h"),
    (NO_NATURAL_TWO, "2h 2h 3h", None),
    (NO_NATURAL_TWO, "Ah 2h 3h Jk", None),  # italian: Ah 2h 3h Jk(=4h)
    (NO_NATURAL_TWO, "2h 2c 4h", None),  # italian: 2h 2c(=3h) 4h (R30)
    (NO_NATURAL_TWO, "3h 4h 5h", "3h 4h 5h"),
    # allow_orphan_wild_14=False: no 14-card run with a wild
    (NO_ORPHAN, run("c", 1, 13) + " Jk", None),
    (NO_ORPHAN, run("c", 1, 13), run("c", 1, 13)),
    (NO_ORPHAN, run("c", 1, 12) + " Jk", run("c", 1, 12) + " Jk(=Kc)"),
    # max_set_size
    (SET_MAX_4, "5h 5h 5s 5s", "5h 5h 5s 5s"),
    (SET_MAX_4, "5h 5s 5d Jk", "5d 5h 5s Jk(=5)"),
    (SET_MAX_4, "5h 5h 5s 5s 5d", None),
    (SET_MAX_4, "5h 5s 5d 5c Jk", None),
    (SET_MAX_4, "5h 6h 7h 8h 9h", "5h 6h 7h 8h 9h"),  # runs are not limited by it
    # max_run_size
    (RUN_MAX_5, "3h 4h 5h 6h 7h", "3h 4h 5h 6h 7h"),
    (RUN_MAX_5, "3h 4h 5h 6h Jk", "Jk(=2h) 3h 4h 5h 6h"),
    (RUN_MAX_5, "3h 4h 5h 6h 7h 8h", None),
    (RUN_MAX_5, "3h 4h 5h 6h 7h Jk", None),
    (RUN_MAX_5, "5h 5h 5s 5s 5d 5d", "5d 5d 5h 5h 5s 5s"),  # sets are not limited by it
    (RUN_MAX_13, run("c", 1, 13), run("c", 1, 13)),
    (RUN_MAX_13, run("c", 1, 13) + " Jk", None),
    # set_ranks
    (FACES_ONLY, "Ks Kd Kh", "Kd Kh Ks"),
    (FACES_ONLY, "Js Jd Jk", "Jd Js Jk(=J)"),
    (FACES_ONLY, "5h 5s 5d", None),
    (FACES_ONLY, "As Ad Ah", None),
    (FACES_ONLY, "5h 6h 7h", "5h 6h 7h"),
    # sets_allowed=False
    (NO_SETS, "Ks Kd Kh", None),
    (NO_SETS, "Ks Kd Jk", None),
    (NO_SETS, "Ks As 2s", "2s(=Qs) Ks As"),
    # allow_both_aces_in_run=True on the italian preset
    (BOTH_ACES, run("c", 1, 14), run("c", 1, 14)),
]


@pytest.mark.parametrize(
    "rules, cards, layout", NEW_MELD_KNOBS, ids=[f"{r}|{c}" for r, c, _ in NEW_MELD_KNOBS]
)
def test_knobs_on_new_melds(engine, rules, cards, layout):
    ns = namespace(engine)
    rules = eval(rules, ns)
    if layout is None:
        with pytest.raises(InvalidMeldError):
            engine.Meld(cards, rules)
        assert engine.Melds(rules=rules).can_meld(cards) is False
    else:
        meld = engine.Meld(cards, rules)
        assert meld.layout == layout
        assert meld.rules == rules
        assert eval(repr(meld), ns) == meld
        assert engine.Melds(rules=rules).can_meld(cards) is True


# rules, start (a layout or cards), card -> the layout after, or None when the lay-off is illegal
LAY_OFF_KNOBS = [
    (LOW_ONLY, "Jk Qh Kh", "Ah", None),
    ("Rules('italian')", "Jk Qh Kh", "Ah", "Jk(=Jh) Qh Kh Ah"),
    (LOW_ONLY, run("h", 3, 13), "Ah", None),
    (LOW_ONLY, "Jk Qh Kh", "Jh", "Jk(=Th) Jh Qh Kh"),
    (HIGH_ONLY, "2h 3h 4h", "Ah", None),
    ("Rules('italian')", "2h 3h 4h", "Ah", "Ah 2h 3h 4h"),
    (HIGH_ONLY, "2h 3h 4h", "Jk", "2h 3h 4h Jk(=5h)"),
    ("Rules('italian')", "2h 3h 4h", "Jk", "Jk(=Ah) 2h 3h 4h"),
    (HIGH_ONLY, "Jk 2h 3h", "4h", "2h 3h 4h Jk(=5h)"),  # replaced; no low end for the joker
    ("Rules('italian')", "Jk 2h 3h", "4h", "Jk(=Ah) 2h 3h 4h"),
    (HIGH_ONLY, "Qs Ks As", "Jk", "Jk(=Js) Qs Ks As"),
    (NO_NATURAL_TWO, "3h 4h 5h", "2h", "2h(=2h) 3h 4h 5h"),  # italian: 2h 3h 4h 5h (L29)
    (NO_NATURAL_TWO, "Ah 2h 3h", "4h", "Ah 2h(=2h) 3h 4h"),
    (NO_NATURAL_TWO, "Ah 2h 3h", "Jk", None),
    (NO_CONVERT, "2d 3d 4d 5d 6d 7d", "9d", None),  # italian: L17
    (NO_CONVERT, "2d 3d 4d", "6d", None),  # italian: 3d 4d 2d(=5d) 6d (L20)
    (NO_CONVERT, "2d 3d 4d", "5d", "2d 3d 4d 5d"),
    (NO_CONVERT, "2d 3d 4d", "Ad", "Ad 2d 3d 4d"),
    (NO_CONVERT, "2d 3d 4d", "Jk", "Jk(=Ad) 2d 3d 4d"),
    (NO_ORPHAN, run("c", 1, 13), "Jk", None),  # italian: L24
    (NO_ORPHAN, run("c", 1, 5) + " Jk(=6c) " + run("c", 7, 13), "6c", None),  # italian: L23
    (NO_ORPHAN, run("h", 3, 14), "Jk", "Jk(=2h) " + run("h", 3, 14)),
    (NO_ORPHAN, "Jk(=2h) " + run("h", 3, 14), "2h", None),  # the joker would become an orphan
    ("Rules('italian')", "Jk(=2h) " + run("h", 3, 14), "2h", "Jk(=Ah) " + run("h", 2, 14)),
    (SET_MAX_4, "5h 5s 5d 5c", "5h", None),
    (SET_MAX_4, "5h 5s 5d 5c", "Jk", None),
    (SET_MAX_4, "5h 5s 5d", "Jk", "5d 5h 5s Jk(=5)"),
    (SET_MAX_3, "Ks Kd Jk", "Kh", None),
    (RUN_MAX_5, "3h 4h 5h 6h 7h", "8h", None),
    (RUN_MAX_5, "3h 4h 5h 6h 7h", "2h", None),
    (RUN_MAX_5, "3h 4h 5h 6h", "7h", "3h 4h 5h 6h 7h"),
    (RUN_MAX_5, "Jk 3h 4h 5h 6h", "2h", None),  # the released joker would make 6 cards
    (RUN_MAX_13, run("c", 1, 13), "Jk", None),
]


@pytest.mark.parametrize(
    "rules, start, card, after", LAY_OFF_KNOBS, ids=[f"{r}|{s}+{c}" for r, s, c, _ in LAY_OFF_KNOBS]
)
def test_knobs_on_lay_offs(engine, rules, start, card, after):
    rules = eval(rules, namespace(engine))
    meld = engine.Meld(start, rules)
    if after is None:
        assert meld.can_add(card) is False
        with pytest.raises(IllegalMoveError):
            meld.add(card)
    else:
        assert meld.can_add(card) is True
        new = meld.add(card)
        assert new.layout == after
        assert new.rules == rules


def test_run_max_5_full_run_takes_nothing(engine):
    meld = engine.Meld("Jk 3h 4h 5h 6h", engine.Rules("italian", max_run_size=5))
    assert meld.layout == "Jk(=2h) 3h 4h 5h 6h"
    assert [kind for kind in KINDS if meld.can_add(kind)] == []


@pytest.mark.parametrize(
    "rules, text",
    [
        (LOW_ONLY, "Qh Kh Ah"),
        (LOW_ONLY, run("h", 3, 14)),
        (HIGH_ONLY, "Ah 2h 3h"),
        (HIGH_ONLY, "Jk(=Ah) 2h 3h"),
        (NO_NATURAL_TWO, "2h 3h 4h"),
        (NO_ORPHAN, run("c", 1, 13) + " Jk(=Ac)"),
        (NO_ORPHAN, "Jk(=Ah) " + run("h", 2, 14)),
        (SET_MAX_4, "5c 5d 5h 5s Jk(=5)"),
        (RUN_MAX_5, "Jk(=2h) 3h 4h 5h 6h 7h"),
        (FACES_ONLY, "Tc Td Jk(=T)"),
        (NO_SETS, "Kd Ks Jk(=K)"),
    ],
)
def test_knobs_on_layouts(engine, rules, text):
    with pytest.raises(InvalidMeldError):
        engine.Meld.from_layout(text, eval(rules, namespace(engine)))


def test_natural_two_in_run_false_layouts(engine):
    rules = engine.Rules("italian", natural_two_in_run=False)
    meld = engine.Meld("Ah 2h 3h", rules)
    assert meld.wild == engine.Card("2h") and meld.wild_state == "bound" and meld.is_clean is False
    assert engine.Meld.from_layout("Ah 2h(=2h) 3h", rules) == meld
    seven = engine.Meld(run("h", 2, 8), rules)  # the two is a wild: 6 naturals, a dirty burraco
    assert seven.layout == "2h(=2h) " + run("h", 3, 8)
    assert seven.wild_state == "free-low" and seven.burraco == "dirty" and seven.bonus == 100
    # the same text under the default rules is a clean burraco, and its 2h(=2h) layout is refused
    assert engine.Meld(run("h", 2, 8)).burraco == "clean"
    with pytest.raises(InvalidMeldError):
        engine.Meld.from_layout("Ah 2h(=2h) 3h")


# semi_clean_rule and the bonus knobs (B.7, H-5)
WILD_AT_END = "Rules('italian', semi_clean_rule='wild_at_end')"
CLASSIFICATION_KNOBS = [
    # RULES C05: a bound joker with 7 naturals below it
    (WILD_AT_END, "3h 4h 5h 6h 7h 8h 9h Jk(=Th) Jh Qh", "dirty", 100),
    # the wild at an end with 7 naturals
    (WILD_AT_END, "Jk 3h 4h 5h 6h 7h 8h 9h", "semi-clean", 150),
    (WILD_AT_END, "Jk(=Ah) " + run("h", 2, 8), "semi-clean", 150),
    (WILD_AT_END, run("c", 1, 13) + " Jk", "semi-clean", 150),  # the orphan sits at the end
    (WILD_AT_END, "Jk(=2h) " + run("h", 3, 14), "semi-clean", 150),
    # R39: the joker bound in slot 2 (default rule: block 3..K = 11 naturals, semi-clean)
    (WILD_AT_END, "Jk " + run("h", 3, 13) + " Ah", "dirty", 100),
    ("Rules('italian')", "Jk " + run("h", 3, 13) + " Ah", "semi-clean", 150),
    (WILD_AT_END, "Jk 3h 4h 5h 6h 7h 8h", "dirty", 100),  # 6 naturals
    (WILD_AT_END, "7h 7h 7s 7s 7d 7c 7c Jk", "semi-clean", 150),  # sets as before
    (WILD_AT_END, run("h", 2, 8), "clean", 200),
    # semi_clean_burraco_bonus=None: no semi-clean class
    ("Rules('italian', semi_clean_burraco_bonus=None)", "Jk 3h 4h 5h 6h 7h 8h 9h", "dirty", 100),
    ("Rules('italian', semi_clean_burraco_bonus=None)", "7h 7h 7s 7s 7d 7c 7c Jk", "dirty", 100),
    # the bonus values follow the knobs
    ("Rules('italian', clean_burraco_bonus=300)", run("h", 2, 8), "clean", 300),
    ("Rules('italian', dirty_burraco_bonus=50)", "Jk 3h 4h 5h 6h 7h 8h", "dirty", 50),
    ("Rules('italian', semi_clean_burraco_bonus=0)", "Jk 3h 4h 5h 6h 7h 8h 9h", "semi-clean", 0),
    (
        "Rules('italian', semi_clean_burraco_bonus=175)",
        "Jk 3h 4h 5h 6h 7h 8h 9h",
        "semi-clean",
        175,
    ),
    (
        "Rules('brazilian', semi_clean_burraco_bonus=150)",
        "Jk 3h 4h 5h 6h 7h 8h 9h",
        "semi-clean",
        150,
    ),
]


@pytest.mark.parametrize(
    "rules, cards, burraco, bonus",
    CLASSIFICATION_KNOBS,
    ids=[f"{r}|{c}" for r, c, _, _ in CLASSIFICATION_KNOBS],
)
def test_knobs_on_classification(engine, rules, cards, burraco, bonus):
    meld = engine.Meld(cards, eval(rules, namespace(engine)))
    assert meld.burraco == burraco
    assert meld.bonus == bonus


@pytest.mark.parametrize(
    "cards, italian, pagat",
    [
        ("Jk 5d 6d", 40, 30),  # Jk 30 / 20
        ("As 2s 3s 2h 5s", 65, 45),  # two twos: 20 / 10 each, natural or wild (A.3)
        ("Ks Kd Jk", 50, 40),
        ("Ah 2h 3h", 40, 30),
        ("7h 8h 9h", 25, 25),
        (run("c", 1, 13) + " Jk", 150, 130),
    ],
)
def test_card_values_on_meld_points(engine, cards, italian, pagat):
    assert engine.Meld(cards).points == italian
    assert engine.Meld(cards, engine.Rules("brazilian")).points == italian  # brazilian keeps 30/20
    assert engine.Meld(cards, engine.Rules("italian", card_values="pagat_brazil")).points == pagat
    assert engine.Meld(cards, engine.Rules("brazilian", card_values="pagat_brazil")).points == pagat


# ----------------------------------------------------------------------------------------------
# Melds: one side's melds


def test_melds_empty(engine):
    melds = engine.Melds()
    assert len(melds) == 0 and list(melds) == []
    assert melds == engine.Melds(rules=engine.Rules()) == engine.Melds([])
    assert eval(repr(melds), namespace(engine)) == melds


def test_melds_meld_appends_in_creation_order(engine):
    Meld, Melds = engine.Meld, engine.Melds
    empty = Melds()
    one = empty.meld("7h 9h 8h")
    two = one.meld("Jk 5d 6d")
    three = two.meld("Qs Qh Qd")
    assert len(empty) == 0 and len(one) == 1 and len(two) == 2  # earlier values are unchanged
    assert list(three) == [Meld("7h 8h 9h"), Meld("Jk 5d 6d"), Meld("Qd Qh Qs")]
    assert three[0] == Meld("7h 8h 9h") and three[2].layout == "Qd Qh Qs"
    assert all(isinstance(meld, Meld) for meld in three)
    assert three == Melds([Meld("7h 8h 9h"), "Jk(=4d) 5d 6d", Meld("Qd Qh Qs")])
    assert three != Melds([Meld("Jk 5d 6d"), Meld("7h 8h 9h"), Meld("Qd Qh Qs")])  # order matters
    assert hash(three) == hash(Melds([Meld("7h 8h 9h"), Meld("Jk 5d 6d"), Meld("Qd Qh Qs")]))
    with pytest.raises(IndexError):
        three[3]
    with pytest.raises(TypeError):
        three[0] = Meld("Ks Kd Kh")
    assert eval(repr(three), namespace(engine)) == three


def test_melds_one_set_per_rank(engine):
    melds = engine.Melds().meld("Qs Qh Qd")
    assert melds.can_meld("Qc Qc Qh") is False
    with pytest.raises(IllegalMoveError) as excinfo:
        melds.meld("Qc Qc Qh")  # RULES B.2: lay them off instead
    assert "Qc Qc Qh" in str(excinfo.value)
    assert melds.can_meld("Qc Qc Jk") is False
    assert melds.can_meld("Kc Kc Kh") is True
    # a run with queens in it is no set of queens
    assert melds.can_meld("Jh Qh Kh") is True
    # two runs of one suit may coexist (B.1.6)
    runs = engine.Melds().meld("3h 4h 5h").meld("3h 4h 5h 6h")
    assert len(runs) == 2


def test_melds_meld_not_a_meld(engine):
    melds = engine.Melds()
    assert melds.can_meld("5h 6h 8h") is False
    with pytest.raises(InvalidMeldError):
        melds.meld("5h 6h 8h")
    with pytest.raises(InvalidNotationError):
        melds.meld("5h 6h Xx")
    assert len(melds) == 0


def test_melds_add(engine):
    Meld, Melds = engine.Meld, engine.Melds
    melds = Melds().meld("3h 4h 5h").meld("7h 8h 9h")
    after = melds.add(0, "6h")  # RULES L38: runs never join
    assert list(after) == [Meld("3h 4h 5h 6h"), Meld("7h 8h 9h")]
    assert list(melds) == [Meld("3h 4h 5h"), Meld("7h 8h 9h")]
    assert melds.add(1, engine.Card("6h")) == Melds([Meld("3h 4h 5h"), Meld("6h 7h 8h 9h")])
    assert melds.can_add(0, "6h") is True and melds.can_add(1, "6h") is True
    assert melds.can_add(0, "Kd") is False
    with pytest.raises(IllegalMoveError) as excinfo:
        melds.add(0, "Kd")
    assert "'Kd'" in str(excinfo.value)
    with pytest.raises(InvalidNotationError):
        melds.add(0, "Xx")


@pytest.mark.parametrize("index", [2, 3, 100])
def test_melds_add_bad_index(engine, index):
    melds = engine.Melds().meld("3h 4h 5h").meld("7h 8h 9h")
    assert melds.can_add(index, "6h") is False
    with pytest.raises(IllegalMoveError) as excinfo:
        melds.add(index, "6h")
    assert str(index) in str(excinfo.value)


def test_melds_rules(engine):
    Rules, Melds = engine.Rules, engine.Melds
    brazilian = Melds(rules=Rules("brazilian"))
    both_aces = brazilian.meld(run("c", 1, 14))  # V4: brazilian allows both natural aces
    assert both_aces[0].rules == Rules("brazilian")
    assert both_aces[0].layout == run("c", 1, 14)
    with pytest.raises(InvalidMeldError):
        Melds().meld(run("c", 1, 14))
    assert brazilian != Melds()
    assert eval(repr(both_aces), namespace(engine)) == both_aces
    no_sets = Melds(rules=Rules("italian", sets_allowed=False))
    with pytest.raises(InvalidMeldError):
        no_sets.meld("Ks Kd Kh")
    assert no_sets.meld("Ks As 2s")[0].layout == "2s(=Qs) Ks As"


def test_melds_repr_round_trip_with_history(engine):
    Melds = engine.Melds
    melds = (
        Melds()
        .meld(run("h", 3, 13))
        .add(0, "Ah")
        .add(0, "2h")
        .meld("Ks Kd Jk")
        .add(1, "Kh")
        .meld("8d Jk Td")
    )
    assert [meld.layout for meld in melds] == [run("h", 2, 14), "Kd Kh Ks Jk(=K)", "8d Jk(=9d) Td"]
    again = eval(repr(melds), namespace(engine))
    assert again == melds and hash(again) == hash(melds)
    assert again[0].span == (2, 14)
