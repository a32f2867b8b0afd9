"""Differential tests for melds and lay-offs: the C++ core (``burraco``) held to the pure-Python
reference (``burraco.reference``); RULES sections B and G, docs/architecture.md §7.

Every comparison runs the same call on both engines and compares the outcomes as plain tuples
(``differential.Answer``): the exception class, or for a meld its layout, kind, suit, rank, wild,
wild_state, span, is_clean, burraco, points, bonus, cards, len and repr. Every lay-off also
compares ``can_add``. A failing test lists the disagreements it found (the first 25, and how
many in all), each with the input, the preset and both answers field by field.

Universes (generated with itertools in ``differential.py``, never by an engine):

  a. One suit, 3..6 cards: the suit's 13 ranks (two copies each), plus at most one two of another
     suit, plus 0..2 jokers. Hearts gets each of 2c/2d/2s; the other suits get the two of the next
     suit (c+2d, d+2h, s+2c), since the three other-suit twos behave alike. 176,442 proposals over
     the four suits: every 6th of them for italian and brazilian (the two sets of meld knobs of the
     presets), every 36th for the other presets, at different offsets (``STRIDE``).
  b. One rank, for every rank A..K including 2: any multiset of its eight cards plus a wild extra
     (none, Jk, any two, or two wilds: Jk+Jk, Jk+two, two+two), 3..10 cards: 19,974 proposals,
     every 2nd for italian and brazilian, every 6th for the other presets (``RANK_STRIDE``).
  c. Lay-offs: every valid meld found in (a) and 300 of the valid sets of (b) (a seeded sample),
     each + every one of the 53 card kinds.
  d. Random chains (seeded): 100 chains of 15 attempted lay-offs per preset (about 570 legal
     lay-offs), ``Meld.from_layout`` of every meld reached, and every 4th chain also parses
     variants of each layout (lower case, tags right and wrong, the wild moved, an ace moved).
     60 random ``Melds`` (one side) sequences of 20 actions per preset. Odd inputs (wrong
     types, lenient notation, layouts given to ``Meld``). Knob values other than the presets'
     (14 variants: ``semi_clean_rule``, ``ace_low_or_high``, ``natural_two_in_run``, ...): every
     256th proposal of (a) hearts and of (b), their lay-offs, 30 chains each.
  e. Hypothesis (derandomized, no database, 300 examples each): card lists from the whole deck,
     card lists around one suit or rank, and lay-off chains (which shrink to a short chain).
  f. ``@pytest.mark.slow``: 7..10 cards of one suit (distinct ranks, at most one doubled, plus
     wilds; 207,207 proposals a suit, ``LONG_STRIDE``) and their lay-offs; two suits mixed
     (3..5 cards + 0..1 joker, 167,817 a pair of suits, italian and brazilian); every valid meld of
     the whole of (a) and of (b) + 53 cards; 5,000 chains of 30 per preset; the knob variants on
     the whole of (a) hearts and (b), 3,000 valid melds' lay-offs and 300 chains each.

Measured with every preset on the whole of (a) (2 cores, other jobs running):
``python -m pytest tests/test_differential_melds.py -m 'not slow'`` passed 168 tests in 205 s;
the default run takes the shares above, and ``-m slow`` validates the whole of (a) and (b) for
every preset again (``test_slow_layoffs_one_suit_all``, ``test_slow_layoffs_one_rank_all``).
"""

from __future__ import annotations

import itertools
import random

import pytest
from differential import (
    CARD_KINDS,
    JOKER,
    RANKS,
    SET_RANKS,
    SUITS,
    TWOS,
    Differ,
    card_list,
    load_engine,
    one_rank_universe,
    one_suit_long_universe,
    one_suit_universe,
    run_chain,
    run_side_chain,
    sample,
    two_suit_universe,
    value_answer,
    within_copy_limits,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

PRESETS = load_engine("core").Rules.PRESETS

# (a): the other-suit twos tried with each suit.
OTHER_TWOS = {"c": ("2d",), "d": ("2h",), "h": ("2c", "2d", "2s"), "s": ("2c",)}
NEW_MELD_SIZES = range(3, 7)
SET_SIZES = range(3, 11)
# (a) in the default run: (stride, offset) of the proposals each preset validates, every 6th for
# italian and brazilian (the two sets of meld knobs of the presets), every 36th for the others;
# the slow run gives every preset the whole of (a) (test_slow_layoffs_one_suit_all).
STRIDE = {"italian": (6, 0), "brazilian": (6, 1), "italian-2p": (36, 2), "italian-3p": (36, 7),
          "online-2p": (36, 13)}
# (b) in the default run: (stride, offset) of the proposals (all of them in the slow run).
RANK_STRIDE = {"italian": (2, 0), "brazilian": (2, 1), "italian-2p": (6, 2), "italian-3p": (6, 3),
               "online-2p": (6, 5)}
# (f), slow: the share of the 7..10-card universe each preset validates.
LONG_STRIDE = {"italian": (1, 0), "brazilian": (1, 0), "italian-2p": (8, 1), "italian-3p": (8, 3),
               "online-2p": (8, 5)}
# (c): how many valid sets of (b) per preset get all 53 lay-offs in the default run (all of them in
# the slow run); the valid melds of (a) all do.
RANK_LAYOFF_SAMPLE = 300
# (d): random chains in the default run.
CHAINS = 100
CHAIN_STEPS = 15
# (d): every VARIANTS_EVERY-th chain also parses variants of each layout it reaches (lower case,
# tags, the wild moved to the other end, ...) with Meld.from_layout on both engines.
VARIANTS_EVERY = 4
# (d): random sequences of Melds.meld / Melds.add on one side.
SIDE_CHAINS = 60
SIDE_CHAIN_STEPS = 20

# Valid melds found by (a)/(b), kept for (c) so they are not validated twice: key -> [(core, ref)].
_VALID: dict[tuple, list] = {}


def test_presets_are_the_same():
    assert load_engine("reference").Rules.PRESETS == Differ("italian").core.Rules.PRESETS


def _validate_all(differ: Differ, proposals, key) -> None:
    """(a)/(b): every proposal on both engines; keep the pairs of valid melds under ``key``."""
    valid = []
    for proposal in proposals:
        agree, core_meld, ref_meld, ref_answer = differ.new(proposal)
        if agree and ref_answer.ok:
            valid.append((core_meld, ref_meld))
    _VALID[key] = valid


def _valid_melds(differ: Differ, key, proposals) -> list:
    """The valid meld pairs of a universe: from the cache, else validated now (by ``differ``, so a
    disagreement is reported here too when (a)/(b) did not run first, e.g. under ``-k``)."""
    if key not in _VALID:
        _validate_all(differ, proposals, key)
    return _VALID[key]


def _one_suit(suit: str, preset: str | None = None):
    """Universe (a) for one suit; with a preset, that preset's stride sample of it."""
    proposals = one_suit_universe(suit, NEW_MELD_SIZES, OTHER_TWOS[suit])
    stride, offset = STRIDE[preset] if preset else (1, 0)
    return itertools.islice(proposals, offset, None, stride)


def _one_rank_all():
    for rank in RANKS:
        yield from one_rank_universe(rank, SET_SIZES)


def _one_rank(preset: str):
    """Universe (b), the preset's stride sample of it (the default run)."""
    stride, offset = RANK_STRIDE[preset]
    return itertools.islice(_one_rank_all(), offset, None, stride)


# --------------------------------------------------------------------------------------------
# (a), (b): new melds


@pytest.mark.parametrize("suit", SUITS)
@pytest.mark.parametrize("preset", PRESETS)
def test_new_melds_one_suit(preset, suit):
    differ = Differ(preset)
    _validate_all(differ, _one_suit(suit, preset), ("suit", preset, suit))
    differ.assert_agree()


@pytest.mark.parametrize("preset", PRESETS)
def test_new_melds_one_rank(preset):
    differ = Differ(preset)
    _validate_all(differ, _one_rank(preset), ("rank", preset))
    differ.assert_agree()


# --------------------------------------------------------------------------------------------
# (c): lay-offs of every card kind onto the valid melds of (a) and (b)


def _lay_off_every_card(differ: Differ, pairs) -> None:
    for core_meld, ref_meld in pairs:
        for card in CARD_KINDS:
            differ.add(core_meld, ref_meld, card)


@pytest.mark.parametrize("suit", SUITS)
@pytest.mark.parametrize("preset", PRESETS)
def test_layoffs_one_suit(preset, suit):
    differ = Differ(preset)
    pairs = _valid_melds(differ, ("suit", preset, suit), _one_suit(suit, preset))
    _lay_off_every_card(differ, pairs)
    differ.assert_agree()


@pytest.mark.parametrize("preset", PRESETS)
def test_layoffs_one_rank(preset):
    differ = Differ(preset)
    pairs = _valid_melds(differ, ("rank", preset), _one_rank(preset))
    _lay_off_every_card(differ, sample(pairs, RANK_LAYOFF_SAMPLE, f"layoff-rank-{preset}"))
    differ.assert_agree()


# --------------------------------------------------------------------------------------------
# (d): seeded random lay-off chains


@pytest.mark.parametrize("preset", PRESETS)
def test_random_chains(preset):
    differ = Differ(preset)
    legal = 0
    for chain in range(CHAINS):
        rng = random.Random(f"chain-{preset}-{chain}")
        legal += run_chain(differ, rng, CHAIN_STEPS, variants=chain % VARIANTS_EVERY == 0)
    differ.assert_agree()
    assert legal > 3 * CHAINS  # the generator is biased enough to make the chains grow


@pytest.mark.parametrize("preset", PRESETS)
def test_random_side_chains(preset):
    """``Melds`` (one side's melds): random new melds and lay-offs by index, bad indices too."""
    differ = Differ(preset)
    legal = 0
    for chain in range(SIDE_CHAINS):
        legal += run_side_chain(differ, random.Random(f"side-{preset}-{chain}"), SIDE_CHAIN_STEPS)
    differ.assert_agree()
    assert legal > SIDE_CHAINS * SIDE_CHAIN_STEPS // 4


@pytest.mark.parametrize(
    "index", ["0", True, False, 1.0, None, 2, -3, 2**31, 2**63, 2**64, 2**70, -(2**70)], ids=repr
)
def test_melds_odd_index(index):
    """``Melds.add`` / ``can_add`` with an index that is not an int (a bool is not one either) or
    is out of range, up to far beyond any C++ integer type."""
    differ = Differ("italian")
    core_melds = differ.core.Melds(["Qd Qh Qs", "5h 6h 7h"], differ.core_rules)
    ref_melds = differ.ref.Melds(["Qd Qh Qs", "5h 6h 7h"], differ.ref_rules)
    differ.melds(core_melds, ref_melds, "add", index, "8h")
    differ.assert_agree()


# Odd inputs to Meld(...), Meld.from_layout(...) and meld.add(...): each a function giving a fresh
# value (an iterator is used up by the first engine).
ODD_PROPOSALS = {
    "int": lambda: 5,
    "None": lambda: None,
    "empty-list": list,
    "empty-string": lambda: "",
    "blank": lambda: "  ",
    "commas": lambda: "5h,6h, 7h",
    "upper-case": lambda: "5H 6h 7H",
    "ten-alias": lambda: "10h Jh Qh",
    "list": lambda: ["5h", "6h", "7h"],
    "tuple-with-int": lambda: ("5h", 6, "7h"),
    "iterator": lambda: iter(["5h", "6h", "7h"]),
    "generator": lambda: (card for card in ["Jk", "5d", "6d"]),
    "bytes": lambda: b"5h 6h 7h",
    "dict": lambda: {"5h": 1, "6h": 1, "7h": 1},
    "five-jokers": lambda: "5h 6h 7h Jk Jk Jk Jk Jk",
    "three-copies": lambda: "Ah Ah Ah",
    "layout": lambda: "Jk(=4d) 5d 6d",
    "layout-tag": lambda: "Jk(=4d)[free-low] 5d 6d",
    "layout-wrong-tag": lambda: "Jk(=4d)[bound] 5d 6d",
    "layout-free-high": lambda: "5d 6d Jk(=7d)",
    "layout-set-wild-first": lambda: "Jk(=K) Kd Kh Ks",
    "layout-set-wrong-rank": lambda: "Kd Kh Ks Jk(=Q)",
    "layout-natural-as-wild": lambda: "5h 6h 7h 8h(=8h)",
    "layout-two-wilds": lambda: "5h 6h 7h Jk(=8h) 2c(=9h)",
    "layout-ace-high-kept": lambda: "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah",
    "layout-orphan-low": lambda: "Jk(=Ah) 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah",
    "layout-out-of-order": lambda: "6d Jk(=4d) 5d",
}
ODD_CARDS = {
    "None": lambda: None,
    "int": lambda: 52,
    "float": lambda: 2.0,
    "empty": lambda: "",
    "bad": lambda: "Xx",
    "two-cards": lambda: "8h 9h",
    "upper-case": lambda: "8H",
    "padded": lambda: " 8h ",
    "ten-alias": lambda: "10h",
    "joker-lower": lambda: "jk",
    "annotated": lambda: "8h(=8h)",
    "list": lambda: ["8h"],
}


@pytest.mark.parametrize("make", ODD_PROPOSALS.values(), ids=ODD_PROPOSALS.keys())
@pytest.mark.parametrize("constructor", ["Meld", "Meld.from_layout"])
def test_odd_inputs_new_meld(constructor, make):
    differ = Differ("italian")

    def call(engine, rules):
        build = engine.Meld if constructor == "Meld" else engine.Meld.from_layout
        return lambda: build(make(), rules)

    differ.calls(
        f"{constructor}({make()!r})",
        call(differ.core, differ.core_rules),
        call(differ.ref, differ.ref_rules),
    )
    differ.assert_agree()


@pytest.mark.parametrize("make", ODD_CARDS.values(), ids=ODD_CARDS.keys())
@pytest.mark.parametrize("layout", ["5h 6h 7h", "Kd Kh Ks"])
def test_odd_inputs_add(layout, make):
    differ = Differ("italian")
    core_meld = differ.core.Meld(layout, differ.core_rules)
    ref_meld = differ.ref.Meld(layout, differ.ref_rules)
    what = f"Meld({layout!r}).add({make()!r})"
    differ.calls(what, lambda: core_meld.add(make()), lambda: ref_meld.add(make()))
    differ.check(
        what.replace(".add(", ".can_add("),
        value_answer(lambda: core_meld.can_add(make())),
        value_answer(lambda: ref_meld.can_add(make())),
    )
    differ.assert_agree()


# --------------------------------------------------------------------------------------------
# (d'): knob values other than the presets' (docs/api.md "Meld-relevant knob semantics"): a
# sample of (a) for hearts, of (b), their lay-offs, and random chains.

KNOB_VARIANTS = {
    "wild-at-end": ("italian", {"semi_clean_rule": "wild_at_end"}),
    "aces-low-only": ("italian", {"ace_low_or_high": "low_only"}),
    "aces-high-only": ("italian", {"ace_low_or_high": "high_only"}),
    "brazilian-aces-high-only": ("brazilian", {"ace_low_or_high": "high_only"}),
    "no-natural-two": ("italian", {"natural_two_in_run": False}),
    "no-two-conversion": ("italian", {"low_natural_two_may_convert": False}),
    "no-orphan": ("italian", {"allow_orphan_wild_14": False}),
    "both-aces-and-orphan": ("brazilian", {"allow_orphan_wild_14": True}),
    "italian-both-aces": ("italian", {"allow_both_aces_in_run": True}),
    "short-melds": ("italian", {"max_run_size": 7, "max_set_size": 5}),
    "few-set-ranks": ("italian", {"set_ranks": "AKQ7"}),
    "no-sets": ("brazilian", {"sets_allowed": False}),
    "pagat-values": ("italian", {"card_values": "pagat_brazil", "semi_clean_burraco_bonus": None}),
    "bonuses": (
        "italian",
        {"clean_burraco_bonus": 300, "dirty_burraco_bonus": 50, "semi_clean_burraco_bonus": 0},
    ),
}
# Default run: every KNOB_STRIDE-th proposal of (a) for hearts and of (b); KNOB_CHAINS chains.
KNOB_STRIDE = 256
KNOB_CHAINS = 30


def _knob_variant_run(name: str, stride: int, layoffs: int, chains: int, every: int) -> Differ:
    """(a) for hearts and (b), every ``stride``-th proposal; up to ``layoffs`` of the valid melds
    found (a deterministic sample) + each of the 53 cards; ``chains`` random chains, every
    ``every``-th of them parsing layout variants."""
    preset, overrides = KNOB_VARIANTS[name]
    differ = Differ(preset, overrides=overrides)
    pairs = []
    for proposals in (one_suit_universe("h", NEW_MELD_SIZES, OTHER_TWOS["h"]), _one_rank_all()):
        key = ("knobs", name, len(pairs))
        _validate_all(differ, itertools.islice(proposals, 0, None, stride), key)
        pairs += _VALID.pop(key)
    _lay_off_every_card(differ, sample(pairs, layoffs, f"knob-layoffs-{name}"))
    for chain in range(chains):
        rng = random.Random(f"knob-chain-{name}-{chain}")
        run_chain(differ, rng, CHAIN_STEPS, variants=chain % every == 0)
    return differ


@pytest.mark.parametrize("name", KNOB_VARIANTS)
def test_knob_variants(name):
    _knob_variant_run(name, KNOB_STRIDE, 10**6, KNOB_CHAINS, VARIANTS_EVERY).assert_agree()


# --------------------------------------------------------------------------------------------
# (e): Hypothesis

HYPOTHESIS = settings(
    max_examples=300,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

whole_deck = st.lists(st.sampled_from(CARD_KINDS), max_size=15).map(within_copy_limits)


@st.composite
def near_melds(draw):
    """Cards around one suit or one rank, plus a few wilds and strays: often a meld, often not."""
    if draw(st.booleans()):
        suit = draw(st.sampled_from(SUITS))
        naturals = draw(st.lists(st.sampled_from(RANKS), min_size=1, max_size=14))
        cards = [r + suit for r in naturals]
    else:
        rank = draw(st.sampled_from(RANKS))
        cards = [rank + s for s in draw(st.lists(st.sampled_from(SUITS), min_size=1, max_size=9))]
    cards += draw(st.lists(st.sampled_from(TWOS + (JOKER,)), max_size=2))
    cards += draw(st.lists(st.sampled_from(CARD_KINDS), max_size=1))
    return within_copy_limits(cards)


def _assert_new_meld_agrees(preset, cards):
    differ = Differ(preset)
    differ.new(card_list(cards))
    differ.assert_agree()


@HYPOTHESIS
@given(preset=st.sampled_from(PRESETS), cards=whole_deck)
def test_hypothesis_new_meld_whole_deck(preset, cards):
    _assert_new_meld_agrees(preset, cards)


@HYPOTHESIS
@given(preset=st.sampled_from(PRESETS), cards=near_melds())
def test_hypothesis_new_meld_near_melds(preset, cards):
    _assert_new_meld_agrees(preset, cards)


@st.composite
def meld_starts(draw):
    """A valid-looking new meld and the cards that could fit it: a run (a suit, a slot range, maybe
    a wild in one slot) or a set (a rank, 2..8 naturals, maybe a wild)."""
    if draw(st.integers(0, 3)) > 0:
        suit = draw(st.sampled_from(SUITS))
        length = draw(st.integers(3, 13))
        lo = draw(st.integers(1, 15 - length))
        cards = [("A" if s in (1, 14) else RANKS[s - 1]) + suit for s in range(lo, lo + length)]
        if draw(st.booleans()):
            cards[draw(st.integers(0, length - 1))] = draw(st.sampled_from(TWOS + (JOKER,)))
        fitting = [r + suit for r in RANKS]
    else:
        rank = draw(st.sampled_from(SET_RANKS))
        cards = [rank + s for s in draw(st.lists(st.sampled_from(SUITS), min_size=2, max_size=8))]
        if draw(st.booleans()):
            cards.append(draw(st.sampled_from(TWOS + (JOKER,))))
        fitting = [rank + s for s in SUITS]
    return within_copy_limits(cards), fitting


@HYPOTHESIS
@given(preset=st.sampled_from(PRESETS), start=meld_starts(), data=st.data())
def test_hypothesis_layoff_chain(preset, start, data):
    cards, fitting = start
    additions = data.draw(
        st.lists(
            st.one_of(
                st.sampled_from(fitting),
                st.sampled_from(TWOS + (JOKER,)),
                st.sampled_from(CARD_KINDS),
            ),
            max_size=10,
        ),
        label="additions",
    )
    differ = Differ(preset)
    _, core_meld, ref_meld, ref_answer = differ.new(card_list(cards))
    differ.assert_agree()
    if not ref_answer.ok:
        return
    for card in additions:
        _, core_new, ref_new, new_answer = differ.add(core_meld, ref_meld, card)
        differ.assert_agree()
        if new_answer.ok:
            core_meld, ref_meld = core_new, ref_new


# --------------------------------------------------------------------------------------------
# (f): larger universes


@pytest.mark.slow
@pytest.mark.parametrize("suit", SUITS)
@pytest.mark.parametrize("preset", PRESETS)
def test_slow_new_melds_one_suit_7_to_10(preset, suit):
    """7..10 cards of one suit (distinct ranks, at most one doubled) plus wilds, the preset's
    stride of them; every valid meld also gets all 53 lay-offs."""
    differ = Differ(preset)
    proposals = one_suit_long_universe(suit, range(7, 11), OTHER_TWOS[suit][0])
    stride, offset = LONG_STRIDE[preset]
    _validate_all(differ, itertools.islice(proposals, offset, None, stride), ("long", preset, suit))
    _lay_off_every_card(differ, _VALID[("long", preset, suit)])
    differ.assert_agree()


@pytest.mark.slow
@pytest.mark.parametrize("suits", ["cd", "dh", "hs", "sc"])
@pytest.mark.parametrize("preset", ["italian", "brazilian"])
def test_slow_new_melds_two_suits(preset, suits):
    """3..5 cards mixing two suits, plus 0..1 joker (the other-suit two is (a)'s business)."""
    differ = Differ(preset)
    for proposal in two_suit_universe(suits, range(3, 6)):
        differ.new(proposal)
    differ.assert_agree()


@pytest.mark.slow
@pytest.mark.parametrize("suit", SUITS)
@pytest.mark.parametrize("preset", PRESETS)
def test_slow_layoffs_one_suit_all(preset, suit):
    """Every valid meld of the whole universe (a), whatever the preset's stride, + every card."""
    differ = Differ(preset)
    key = ("suit-all", preset, suit)
    pairs = _valid_melds(differ, key, _one_suit(suit))
    _lay_off_every_card(differ, pairs)
    differ.assert_agree()


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
def test_slow_layoffs_one_rank_all(preset):
    differ = Differ(preset)
    pairs = _valid_melds(differ, ("rank-all", preset), _one_rank_all())
    _lay_off_every_card(differ, pairs)
    differ.assert_agree()


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
def test_slow_random_chains_many(preset):
    differ = Differ(preset)
    for chain in range(5000):
        rng = random.Random(f"slow-chain-{preset}-{chain}")
        run_chain(differ, rng, 30, variants=chain % 2 == 0)
    differ.assert_agree()


@pytest.mark.slow
@pytest.mark.parametrize("name", KNOB_VARIANTS)
def test_slow_knob_variants(name):
    _knob_variant_run(name, 1, 3000, 300, 2).assert_agree()
