"""Meld benches: new-meld validation and lay-off throughput, core and reference on one corpus.

Run: ``python -m pytest benches/ --benchmark-only`` (benches/conftest.py prints the
reference/core ratio per operation at the end).

The corpus is fixed (seeded, generated without an engine):

* PROPOSALS card lists of 3..13 cards: runs and sets, with and without a wild, three in four of
  them disturbed (a card replaced, a stray suit, one more wild, a repeated card), so that about
  half are melds (1,069 of 2,000 with the seed below, italian);
* LAYOFFS (meld, card) cases: melds reached by short random lay-off chains in the reference (so
  not only canonical new melds: an ace laid high, a moved wild, a converted two), each with a card
  that often fits (863 of 2,000 are legal).

Each bench times per-call ``Meld(cards, rules)`` on pre-built ``Cards`` and ``meld.add(card)`` on
pre-built ``Meld``/``Card`` objects, and asserts its count of valid melds / legal lay-offs against
the one computed once from the reference, so a fast wrong answer fails.
"""

from __future__ import annotations

import importlib
import random

import pytest

from burraco import BurracoError

PRESET = "italian"
PROPOSALS = 2000
LAYOFFS = 2000
SEED = "burraco-bench-melds-1"

SUITS = "cdhs"
RANKS = "A23456789TJQK"
SET_RANKS = "A3456789TJQK"
CARDS = [r + s for s in SUITS for r in RANKS] + ["Jk"]
WILDS = ["Jk", "2c", "2d", "2h", "2s"]


def _engine(name):
    return importlib.import_module("burraco" if name == "core" else "burraco.reference")


def _within_limits(cards):
    kept, out = {}, []
    for card in cards:
        if kept.get(card, 0) < (4 if card == "Jk" else 2):
            kept[card] = kept.get(card, 0) + 1
            out.append(card)
    return out


def _slot_card(slot, suit):
    return ("A" if slot in (1, 14) else RANKS[slot - 1]) + suit


def _proposal(rng: random.Random) -> str:
    """A run or a set of 3..13 cards, often with a wild, most of them disturbed."""
    while True:
        size = rng.randint(3, 12)
        if rng.random() < 0.65:
            suit = rng.choice(SUITS)
            lo = rng.randint(1, 15 - size)
            cards = [_slot_card(s, suit) for s in range(lo, lo + size)]
            if rng.random() < 0.4:
                cards[rng.randrange(size)] = rng.choice(WILDS)
        else:
            rank = rng.choice(SET_RANKS)
            size = min(size, rng.randint(3, 9))
            cards = [rank + rng.choice(SUITS) for _ in range(size)]
            if rng.random() < 0.4:
                cards[rng.randrange(size)] = rng.choice(WILDS)
        if rng.random() < 0.75:  # disturb: usually makes it invalid
            roll = rng.random()
            position = rng.randrange(len(cards))
            if roll < 0.25:
                cards[position] = rng.choice(CARDS)  # often a hole, or a stray card
            elif roll < 0.5:
                cards[position] = cards[position][0] + rng.choice(SUITS)  # a stray suit
            elif roll < 0.75:
                cards.append(rng.choice(WILDS))  # maybe a second wild
            else:
                cards.append(cards[position])  # a repeated card
        cards = _within_limits(cards)
        if 3 <= len(cards) <= 13:
            return " ".join(cards)


def _build_corpus():
    """Proposals and lay-off cases, with the reference's counts."""
    ref = _engine("reference")
    rules = ref.Rules(PRESET)
    rng = random.Random(SEED)
    proposals = [_proposal(rng) for _ in range(PROPOSALS)]
    valid = 0
    melds = []
    for text in proposals:
        try:
            melds.append(ref.Meld(ref.Cards(text), rules))
            valid += 1
        except BurracoError:
            pass
    layoffs = []
    while len(layoffs) < LAYOFFS:
        meld = rng.choice(melds)
        for _ in range(rng.randint(0, 4)):  # a short chain of legal lay-offs
            try:
                meld = meld.add(_fitting_card(rng, meld))
            except BurracoError:
                pass
        card = _fitting_card(rng, meld) if rng.random() < 0.7 else rng.choice(CARDS)
        layoffs.append((meld.layout, card))
    legal = 0
    for layout, card in layoffs:
        try:
            ref.Meld.from_layout(layout, rules).add(ref.Card(card))
            legal += 1
        except BurracoError:
            pass
    return proposals, valid, layoffs, legal


def _fitting_card(rng, meld):
    """A card that often fits: a wild, the set's rank, a card at either end of the run, or the
    card the run's wild stands for."""
    if rng.random() < 0.15:
        return rng.choice(WILDS)
    if meld.kind == "set":
        return meld.rank + rng.choice(SUITS)
    lo, hi = meld.span
    layout = meld.layout
    if "(=" in layout and rng.random() < 0.2:
        start = layout.index("(=") + 2
        return layout[start : layout.index(")", start)]
    return _slot_card(rng.choice([max(1, lo - 1), min(14, hi + 1)]), meld.suit)


@pytest.fixture(scope="module")
def corpus():
    return _build_corpus()


ENGINES = ["core", "reference"]


def _tag(benchmark, operation, engine, items, expected):
    benchmark.group = operation
    benchmark.extra_info.update(operation=operation, engine=engine, items=items, expected=expected)


@pytest.mark.parametrize("engine_name", ENGINES)
def test_new_meld_throughput(benchmark, corpus, engine_name):
    engine = _engine(engine_name)
    proposals, expected_valid, _, _ = corpus
    rules = engine.Rules(PRESET)
    cards = [engine.Cards(text) for text in proposals]
    Meld = engine.Meld

    def validate_all():
        valid = 0
        for c in cards:
            try:
                Meld(c, rules)
                valid += 1
            except BurracoError:
                pass
        return valid

    _tag(benchmark, "new_meld", engine_name, len(cards), expected_valid)
    assert benchmark(validate_all) == expected_valid
    assert 0.25 * len(cards) < expected_valid < 0.75 * len(cards)  # a real mix of valid and invalid


@pytest.mark.parametrize("engine_name", ENGINES)
def test_layoff_throughput(benchmark, corpus, engine_name):
    engine = _engine(engine_name)
    _, _, layoffs, expected_legal = corpus
    rules = engine.Rules(PRESET)
    cases = [
        (engine.Meld.from_layout(layout, rules), engine.Card(card)) for layout, card in layoffs
    ]

    def lay_off_all():
        legal = 0
        for meld, card in cases:
            try:
                meld.add(card)
                legal += 1
            except BurracoError:
                pass
        return legal

    _tag(benchmark, "layoff", engine_name, len(cases), expected_legal)
    assert benchmark(lay_off_all) == expected_legal
    assert 0.25 * len(cases) < expected_legal < 0.75 * len(cases)


@pytest.mark.parametrize("engine_name", ENGINES)
def test_new_meld_validation(benchmark, corpus, engine_name):
    """The validation question alone: ``Meld.is_valid`` answers without building an exception
    for the half of the corpus that is not a meld (the constructor bench above pays for one)."""
    engine = _engine(engine_name)
    proposals, expected_valid, _, _ = corpus
    rules = engine.Rules(PRESET)
    cards = [engine.Cards(text) for text in proposals]
    is_valid = engine.Meld.is_valid

    def validate_all():
        return sum(1 for c in cards if is_valid(c, rules))

    _tag(benchmark, "is_valid", engine_name, len(cards), expected_valid)
    assert benchmark(validate_all) == expected_valid


@pytest.mark.parametrize("engine_name", ENGINES)
def test_layoff_check(benchmark, corpus, engine_name):
    """``meld.can_add`` on the lay-off corpus: the legality question without an exception."""
    engine = _engine(engine_name)
    _, _, layoffs, expected_legal = corpus
    rules = engine.Rules(PRESET)
    cases = [
        (engine.Meld.from_layout(layout, rules), engine.Card(card)) for layout, card in layoffs
    ]

    def check_all():
        return sum(1 for meld, card in cases if meld.can_add(card))

    _tag(benchmark, "can_add", engine_name, len(cases), expected_legal)
    assert benchmark(check_all) == expected_legal
