"""Helpers for the differential tests: the C++ core held to the pure-Python reference.

Three parts, none of which asks an engine anything it is testing:

* universes: small deterministic generators (itertools) of card proposals, as card-list strings in
  canonical order, so a failing input can be pasted straight into ``Meld('...')``;
* answers: an engine's result (a meld, or the exception it raised) turned into a plain tuple,
  ``Answer``, so two engines compare with ``==`` and a failure prints both answers field by field;
* ``Differ``: one preset, both engines; runs the same call on each and records every disagreement
  (``Mismatch``) with the input, so a test can report all of them (up to a limit) at the end.

``BURRACO_DIFF_CORE=reference`` makes the "core" side the reference too (reference vs reference):
only useful to check the plumbing and time the reference while the core is not built.
"""

from __future__ import annotations

import importlib
import itertools
import os
import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, NamedTuple

SUITS = "cdhs"
RANKS = "A23456789TJQK"
SET_RANKS = "A3456789TJQK"
JOKER = "Jk"
# The 53 card kinds in index order (RULES 0.2, docs/api.md): 13 * suit + (rank - 1), joker 52.
CARD_KINDS: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS) + (JOKER,)
TWOS = tuple("2" + s for s in SUITS)
MAX_COPIES = 2  # of a suited card (two decks)
MAX_JOKERS = 4


# --------------------------------------------------------------------------------------------
# Engines


def load_engine(name: str):
    """``burraco`` (the C++ core) or ``burraco.reference``."""
    return importlib.import_module("burraco" if name == "core" else "burraco.reference")


def core_engine_name() -> str:
    """Which engine plays the "core" side ("core" unless BURRACO_DIFF_CORE says otherwise)."""
    return os.environ.get("BURRACO_DIFF_CORE", "core")


# --------------------------------------------------------------------------------------------
# Universes (card proposals), engine-free


def card_list(cards: Iterable[str]) -> str:
    """Cards as a canonical card-list string: suits c < d < h < s, ranks A < 2 < ... < K, jokers
    last."""
    return " ".join(sorted(cards, key=CARD_KINDS.index))


def bounded_multisets(
    kinds: Sequence[str], size: int, max_copies: int = MAX_COPIES
) -> Iterator[tuple[str, ...]]:
    """Every multiset of ``size`` cards from ``kinds`` with at most ``max_copies`` of each kind."""
    for combo in itertools.combinations_with_replacement(kinds, size):
        if all(a != c for a, c in zip(combo, combo[max_copies:])):
            yield combo


def suit_kinds(suit: str) -> tuple[str, ...]:
    """The thirteen card kinds of one suit, A..K."""
    return tuple(r + suit for r in RANKS)


def rank_kinds(rank: str) -> tuple[str, ...]:
    """The four card kinds of one rank, c d h s."""
    return tuple(rank + s for s in SUITS)


def one_suit_universe(
    suit: str, sizes: Iterable[int], other_twos: Sequence[str], max_jokers: int = 2
) -> Iterator[str]:
    """Proposals of one suit's cards (two copies each), plus at most one two of another suit
    (each of ``other_twos`` in turn) plus 0..max_jokers jokers, whose total size is in ``sizes``.

    Each proposal is generated once (the natural part never contains another suit's two).
    """
    sizes = sorted(set(sizes))
    kinds = suit_kinds(suit)
    extras: list[tuple[str, ...]] = []
    for two in ((),) + tuple((t,) for t in other_twos):
        for jokers in range(max_jokers + 1):
            extras.append(two + (JOKER,) * jokers)
    for size in sizes:
        for extra in extras:
            natural_count = size - len(extra)
            if natural_count < 0:
                continue
            for naturals in bounded_multisets(kinds, natural_count):
                yield card_list(naturals + extra)


def one_suit_long_universe(suit: str, sizes: Iterable[int], other_two: str) -> Iterator[str]:
    """Long proposals from one suit: a set of distinct ranks, at most one card doubled (the second
    copy of one of them, e.g. the other ace or a second two), plus one of: nothing, a joker, the
    two of another suit, a joker and that two, two jokers; total size in ``sizes``.

    The full multiset universe is too large at these sizes (about 3 million per suit for 7..10
    cards), and a proposal with two repeated ranks is rejected for the same reason as one with one.
    """
    sizes = sorted(set(sizes))
    kinds = suit_kinds(suit)
    extras = [(), (JOKER,), (other_two,), (other_two, JOKER), (JOKER, JOKER)]
    for size in sizes:
        for extra in extras:
            for doubled in (False, True):
                distinct = size - len(extra) - doubled
                if distinct < 1:
                    continue
                for ranks in itertools.combinations(kinds, distinct):
                    for extra_copy in ranks if doubled else ((),):
                        naturals = ranks + ((extra_copy,) if doubled else ())
                        yield card_list(naturals + extra)


def one_rank_universe(rank: str, sizes: Iterable[int]) -> Iterator[str]:
    """Proposals of one rank's eight cards (four suits, two copies each) plus wild extras: none, one
    joker, one two (any suit), or two wilds (joker+joker, joker+two, two+two) so that invalid
    two-wild proposals are compared too; total size in ``sizes``. For rank 2 the "naturals" are
    twos themselves, and the two-wild extras other than jokers are left out (they are naturals)."""
    sizes = set(sizes)
    kinds = rank_kinds(rank)
    twos: tuple[str, ...] = () if rank == "2" else TWOS
    extras: list[tuple[str, ...]] = [(), (JOKER,), (JOKER, JOKER)]
    extras += [(t,) for t in twos]
    extras += [(t, JOKER) for t in twos]
    extras += list(bounded_multisets(twos, 2))
    seen: set[str] = set()
    for natural_count in range(9):
        for naturals in bounded_multisets(kinds, natural_count):
            for extra in extras:
                if natural_count + len(extra) in sizes:
                    proposal = card_list(naturals + extra)
                    if proposal not in seen:
                        seen.add(proposal)
                        yield proposal


def two_suit_universe(suits: str, sizes: Iterable[int], max_jokers: int = 1) -> Iterator[str]:
    """Proposals mixing two suits' cards (mostly invalid; checks the mixed-suit rejections) plus
    0..max_jokers jokers, with at least one card of each suit."""
    first, second = (suit_kinds(s) for s in suits)
    for size in sorted(set(sizes)):
        for jokers in range(max_jokers + 1):
            for k in range(1, size - jokers):
                for a in bounded_multisets(first, k):
                    for b in bounded_multisets(second, size - jokers - k):
                        yield card_list(a + b + (JOKER,) * jokers)


def sample(items: Sequence[Any], count: int, seed: str) -> list[Any]:
    """A deterministic sample of ``count`` items (all of them, in order, if there are fewer)."""
    if count >= len(items):
        return list(items)
    rng = random.Random(seed)
    return [items[i] for i in sorted(rng.sample(range(len(items)), count))]


# --------------------------------------------------------------------------------------------
# Answers


class Answer(NamedTuple):
    """One engine's answer: ``verdict`` is 'ok' or the exception class name; the rest are the
    meld's fields (None after an exception)."""

    verdict: str
    layout: str | None = None
    kind: str | None = None
    suit: str | None = None
    rank: str | None = None
    wild: str | None = None
    wild_state: str | None = None
    span: Any = None
    is_clean: bool | None = None
    burraco: str | None = None
    points: int | None = None
    bonus: int | None = None
    cards: str | None = None
    length: int | None = None
    repr: str | None = None
    message: str | None = None  # the exception message, for the report; not compared

    def key(self) -> tuple:
        """What is compared: everything but the exception message."""
        return self[:-1]

    @property
    def ok(self) -> bool:
        return self.verdict == "ok"


def meld_answer(meld) -> Answer:
    """A meld as a plain tuple of every compared field."""
    wild = meld.wild
    return Answer(
        "ok",
        meld.layout,
        meld.kind,
        meld.suit,
        meld.rank,
        None if wild is None else str(wild),
        meld.wild_state,
        meld.span,
        meld.is_clean,
        meld.burraco,
        meld.points,
        meld.bonus,
        str(meld.cards),
        len(meld),
        repr(meld),
    )


def answer(call: Callable[..., Any], *args: Any) -> tuple[Answer, Any]:
    """Run ``call(*args)``; return (its Answer, the meld or None)."""
    try:
        meld = call(*args)
    except Exception as error:  # noqa: BLE001 - every exception class is part of the answer
        return Answer(type(error).__name__, message=str(error)), None
    try:
        return meld_answer(meld), meld
    except Exception as error:  # noqa: BLE001 - a property that raises is an answer too
        return Answer("property raised " + type(error).__name__, message=str(error)), None


def melds_answer(call: Callable[..., Any], *args: Any) -> tuple[Answer, Any]:
    """Run ``call(*args)`` that returns a ``Melds``: the verdict is 'ok', the layout field holds the
    layouts of its melds joined by ' | ', the repr field its repr; or the exception."""
    try:
        melds = call(*args)
        return Answer(
            "ok",
            " | ".join(m.layout for m in melds),
            length=len(melds),
            repr=repr(melds),
        ), melds
    except Exception as error:  # noqa: BLE001
        return Answer(type(error).__name__, message=str(error)), None


def value_answer(call: Callable[..., Any], *args: Any) -> Answer:
    """Run ``call(*args)`` that returns a plain value (``can_add``): the verdict is its repr."""
    try:
        return Answer(f"returned {call(*args)!r}")
    except Exception as error:  # noqa: BLE001
        return Answer(type(error).__name__, message=str(error))


def describe(core: Answer, ref: Answer) -> str:
    """Both answers side by side, the differing fields marked."""
    if not core.ok and not ref.ok:
        return (
            f"  core:      {core.verdict}: {core.message}\n"
            f"  reference: {ref.verdict}: {ref.message}"
        )
    lines = []
    for field, a, b in zip(Answer._fields, core, ref):
        if field == "message" and a is None and b is None:
            continue
        mark = "  <-- differs" if a != b and field != "message" else ""
        lines.append(f"  {field:10} core={a!r:44} reference={b!r}{mark}")
    return "\n".join(lines)


class Mismatch(NamedTuple):
    preset: str
    what: str  # the input, e.g. "Meld('5h 6h Jk')" or "Meld.from_layout('...').add('7h')"
    core: Answer
    reference: Answer

    def __str__(self) -> str:
        return f"[{self.preset}] {self.what}\n{describe(self.core, self.reference)}"


# --------------------------------------------------------------------------------------------
# Differ


class Differ:
    """One preset on both engines; every comparison it makes is counted, every disagreement kept."""

    def __init__(
        self,
        preset: str,
        core_name: str | None = None,
        limit: int = 25,
        overrides: dict[str, Any] | None = None,
    ):
        self.core = load_engine(core_name or core_engine_name())
        self.ref = load_engine("reference")
        self.core_rules = self.core.Rules(preset, **(overrides or {}))
        self.ref_rules = self.ref.Rules(preset, **(overrides or {}))
        # The label in reports: the preset, or the reference's repr of the rules with overrides.
        self.preset = repr(self.ref_rules) if overrides else preset
        self.core_cards = {k: self.core.Card(k) for k in CARD_KINDS}
        self.ref_cards = {k: self.ref.Card(k) for k in CARD_KINDS}
        self.mismatches: list[Mismatch] = []
        self.mismatch_count = 0
        self.limit = limit
        self.comparisons = 0

    # -- recording

    def check(self, what: str, core: Answer, ref: Answer) -> bool:
        """Record one comparison; True when both engines agree."""
        self.comparisons += 1
        if core.key() == ref.key():
            return True
        self.mismatch_count += 1
        if len(self.mismatches) < self.limit:
            self.mismatches.append(Mismatch(self.preset, what, core, ref))
        return False

    def report(self) -> str:
        head = (
            f"{self.mismatch_count} disagreement(s) in {self.comparisons} comparisons "
            f"(preset {self.preset!r}; first {len(self.mismatches)} shown):"
        )
        return "\n\n".join([head] + [str(m) for m in self.mismatches])

    def assert_agree(self) -> None:
        assert self.mismatch_count == 0, self.report()

    # -- calls

    def new(self, cards: str) -> tuple[bool, Any, Any, Answer]:
        """``Meld(cards, rules)`` on both engines (the card-list string as given).

        Returns (agree, core meld, reference meld, reference answer)."""
        core_answer, core_meld = answer(self.core.Meld, cards, self.core_rules)
        ref_answer, ref_meld = answer(self.ref.Meld, cards, self.ref_rules)
        agree = self.check(f"Meld({cards!r})", core_answer, ref_answer)
        return agree, core_meld, ref_meld, ref_answer

    def from_layout(self, layout: str) -> tuple[bool, Any, Any, Answer]:
        """``Meld.from_layout(layout, rules)`` on both engines."""
        core_answer, core_meld = answer(self.core.Meld.from_layout, layout, self.core_rules)
        ref_answer, ref_meld = answer(self.ref.Meld.from_layout, layout, self.ref_rules)
        agree = self.check(f"Meld.from_layout({layout!r})", core_answer, ref_answer)
        return agree, core_meld, ref_meld, ref_answer

    def calls(self, what: str, core_call: Callable[[], Any], ref_call: Callable[[], Any]) -> bool:
        """Any meld-returning call, given as one thunk per engine."""
        return self.check(what, answer(core_call)[0], answer(ref_call)[0])

    def melds(self, core_melds, ref_melds, method: str, *args: Any) -> tuple[bool, Any, Any]:
        """``melds.meld(cards)`` or ``melds.add(index, card)`` on both engines (each on its own
        ``Melds``), and the matching ``can_meld`` / ``can_add``.

        Returns (agree, core result, reference result)."""
        what = f"{ref_melds!r}.{method}{args!r}".replace(",)", ")")
        core_answer, core_new = melds_answer(getattr(core_melds, method), *args)
        ref_answer, ref_new = melds_answer(getattr(ref_melds, method), *args)
        agree = self.check(what, core_answer, ref_answer)
        can = "can_" + method
        core_can = value_answer(getattr(core_melds, can), *args)
        ref_can = value_answer(getattr(ref_melds, can), *args)
        agree = self.check(what.replace(f".{method}(", f".{can}("), core_can, ref_can) and agree
        return agree, core_new, ref_new

    def add(
        self, core_meld, ref_meld, card: str, check_can_add: bool = True
    ) -> tuple[bool, Any, Any, Answer]:
        """``meld.add(card)`` on both engines (each on its own meld), with pre-built ``Card``s; and
        ``meld.can_add(card)`` (a separate path in the core) unless told not to."""
        core_answer, core_new = answer(core_meld.add, self.core_cards[card])
        ref_answer, ref_new = answer(ref_meld.add, self.ref_cards[card])
        what = f"Meld.from_layout({ref_meld.layout!r})"
        agree = self.check(f"{what}.add({card!r})", core_answer, ref_answer)
        if check_can_add:
            core_can = value_answer(core_meld.can_add, self.core_cards[card])
            ref_can = value_answer(ref_meld.can_add, self.ref_cards[card])
            agree = self.check(f"{what}.can_add({card!r})", core_can, ref_can) and agree
        return agree, core_new, ref_new, ref_answer


# --------------------------------------------------------------------------------------------
# Random melds and lay-off chains (seeded, engine-free generation)


def slot_card(slot: int, suit: str) -> str:
    """The natural card of a run slot (1 and 14 are the ace)."""
    return ("A" if slot in (1, 14) else RANKS[slot - 1]) + suit


def random_wild(rng: random.Random) -> str:
    return JOKER if rng.random() < 0.5 else rng.choice(TWOS)


def random_proposal(rng: random.Random) -> str:
    """A proposal that is often a valid meld: a run or a set, with or without a wild, sometimes
    disturbed (a card dropped, an extra card, a second wild)."""
    if rng.random() < 0.7:
        suit = rng.choice(SUITS)
        length = min(14, 3 + int(rng.expovariate(1 / 2.5)))
        lo = rng.randint(1, 15 - length)
        cards = [slot_card(s, suit) for s in range(lo, lo + length)]
        if lo == 1 and length == 14:
            cards[-1] = random_wild(rng)  # A..K + a wild (orphan / free-high)
        roll = rng.random()
        if roll < 0.35:
            cards[rng.randrange(length)] = random_wild(rng)
        elif roll < 0.5 and length < 14:
            cards[rng.randrange(length)] = random_wild(rng) if rng.random() < 0.8 else cards[0]
    else:
        rank = rng.choice(SET_RANKS) if rng.random() < 0.95 else "2"
        count = rng.randint(2, 8)
        pool = [rank + s for s in SUITS for _ in range(MAX_COPIES)]
        cards = rng.sample(pool, count)
        if rng.random() < 0.45 or count == 2:
            cards.append(random_wild(rng))
    if rng.random() < 0.1:
        cards.append(rng.choice(CARD_KINDS))
    if rng.random() < 0.05 and len(cards) > 3:
        cards.pop(rng.randrange(len(cards)))
    return card_list(within_copy_limits(cards))


def within_copy_limits(cards: Iterable[str]) -> list[str]:
    """Drop the copies past the physical limit (2 of a suited card, 4 jokers)."""
    kept: Counter[str] = Counter()
    out = []
    for card in cards:
        limit = MAX_JOKERS if card == JOKER else MAX_COPIES
        if kept[card] < limit:
            kept[card] += 1
            out.append(card)
    return out


def stands_for(layout: str) -> str | None:
    """The card a run's wild stands for, read off its layout (``Jk(=4d) 5d 6d`` -> ``4d``)."""
    start = layout.find("(=")
    return None if start < 0 else layout[start + 2 : layout.index(")", start)]


def random_addition(rng: random.Random, meld_answer_: Answer, held: Counter[str]) -> str:
    """A card to lay off, biased towards cards that could fit the meld described by the answer:
    for a run the cards just outside its ends, the card its wild stands for, cards of its suit
    near its span, wilds; for a set its rank and wilds; sometimes anything. Mostly avoids a card
    whose every copy is already in the meld (still tried now and then: the error is compared
    too)."""
    for _ in range(20):
        roll = rng.random()
        if meld_answer_.kind == "run":
            suit = meld_answer_.suit
            lo, hi = meld_answer_.span
            replacement = stands_for(meld_answer_.layout)
            if roll < 0.4:
                card = slot_card(rng.choice([max(1, lo - 1), min(14, hi + 1)]), suit)
            elif roll < 0.5 and replacement is not None and len(replacement) == 2:
                card = replacement
            elif roll < 0.6:
                card = slot_card(rng.randint(max(1, lo - 2), min(14, hi + 2)), suit)
            elif roll < 0.65:
                card = rng.choice(RANKS) + suit
            elif roll < 0.8:
                card = random_wild(rng)
            elif roll < 0.87:
                card = "2" + suit
            else:
                card = rng.choice(CARD_KINDS)
        else:
            if roll < 0.55:
                card = meld_answer_.rank + rng.choice(SUITS)
            elif roll < 0.8:
                card = random_wild(rng)
            else:
                card = rng.choice(CARD_KINDS)
        limit = MAX_JOKERS if card == JOKER else MAX_COPIES
        if held[card] < limit or rng.random() < 0.05:
            return card
    return card


TAGS = ("bound", "free-low", "free-high", "orphan")


def layout_variants(meld: Answer) -> list[str]:
    """Other ways to write (or mis-write) the layout of a meld, for ``Meld.from_layout``: lower
    case with commas (lenient input); each wild tag after the wild (one right, the others wrong);
    a run's wild moved to either end of its naturals (the free wild written high is normalised, a
    bound wild moved out leaves a hole); a run's end ace moved to the other end (not a run)."""
    tokens = meld.layout.split()
    variants = [meld.layout.lower(), ", ".join(tokens)]
    wild_at = [i for i, token in enumerate(tokens) if "(=" in token]
    for i in wild_at:
        for tag in TAGS:
            variants.append(" ".join(tokens[:i] + [f"{tokens[i]}[{tag}]"] + tokens[i + 1 :]))
    if meld.kind != "run":
        return variants
    lo = meld.span[0]
    slots = {lo + j: token for j, token in enumerate(tokens)}
    if wild_at:
        wild_slot = lo + wild_at[0]
        wild_card = tokens[wild_at[0]].split("(=")[0]
        natural_slots = sorted(s for s in slots if s != wild_slot)
        for new_slot in (natural_slots[0] - 1, natural_slots[-1] + 1):
            if 1 <= new_slot <= 14 and new_slot != wild_slot:
                moved = {s: slots[s] for s in natural_slots}
                moved[new_slot] = f"{wild_card}(={slot_card(new_slot, meld.suit)})"
                variants.append(" ".join(moved[s] for s in sorted(moved)))
    if tokens[0].startswith("A"):
        variants.append(" ".join(tokens[1:] + tokens[:1]))
    if tokens[-1].startswith("A"):
        variants.append(" ".join(tokens[-1:] + tokens[:-1]))
    return variants


def run_chain(
    differ: Differ,
    rng: random.Random,
    steps: int,
    start_tries: int = 20,
    variants: bool = True,
) -> int:
    """One random lay-off chain: a random valid meld, then ``steps`` random lay-offs. Compares the
    new meld, every lay-off, and ``Meld.from_layout`` of every meld reached (both engines parsing
    the same layout, and with ``variants`` the ``layout_variants`` of it). Follows each engine's
    own meld; stops at the first disagreement. Returns the number of legal lay-offs made."""
    for _ in range(start_tries):
        proposal = random_proposal(rng)
        agree, core_meld, ref_meld, ref_answer = differ.new(proposal)
        if not agree:
            return 0
        if ref_answer.ok:
            break
    else:
        return 0
    held = Counter(str(c) for c in ref_meld.cards)
    legal = 0
    for _ in range(steps):
        card = random_addition(rng, ref_answer, held)
        agree, core_new, ref_new, new_answer = differ.add(core_meld, ref_meld, card)
        if not agree:
            return legal
        if new_answer.ok:
            legal += 1
            core_meld, ref_meld, ref_answer = core_new, ref_new, new_answer
            held[card] += 1
            if not differ.from_layout(ref_answer.layout)[0]:
                return legal
            if variants:
                for variant in layout_variants(ref_answer):
                    differ.from_layout(variant)
    return legal


# Out-of-range meld indices for the side chains (wrong types have their own test).
BAD_INDICES: tuple[Any, ...] = (-1, -2, 99)


def run_side_chain(differ: Differ, rng: random.Random, steps: int) -> int:
    """One side's melds (``Melds``) through ``steps`` random actions: a new meld (a random
    proposal, so sometimes a second set of a rank or not a meld), a lay-off on a random meld (a
    card biased to fit it), now and then an index out of range. Compares
    every result (layouts and repr) and ``can_meld``/``can_add``; follows each engine's own
    ``Melds``; stops at the first disagreement. Returns the number of legal actions."""
    core_melds = differ.core.Melds(rules=differ.core_rules)
    ref_melds = differ.ref.Melds(rules=differ.ref_rules)
    legal = 0
    for _ in range(steps):
        roll = rng.random()
        if roll < 0.35 or not len(ref_melds):
            if rng.random() < 0.3 and len(ref_melds):
                # More of a rank the side already holds as a set, or more of a run's suit.
                target = meld_answer(ref_melds[rng.randrange(len(ref_melds))])
                held: Counter[str] = Counter()
                cards = [random_addition(rng, target, held) for _ in range(rng.randint(3, 4))]
                args: tuple[Any, ...] = (card_list(within_copy_limits(cards)),)
            else:
                args = (random_proposal(rng),)
            method = "meld"
        else:
            if roll < 0.93:
                index = rng.randrange(len(ref_melds))
                target = meld_answer(ref_melds[index])
                held = Counter(str(c) for c in ref_melds[index].cards)
                card = random_addition(rng, target, held)
            else:
                index = rng.choice(BAD_INDICES)
                card = rng.choice(CARD_KINDS)
            args = (index, card)
            method = "add"
        agree, core_new, ref_new = differ.melds(core_melds, ref_melds, method, *args)
        if not agree:
            return legal
        if ref_new is not None:
            legal += 1
            core_melds, ref_melds = core_new, ref_new
    return legal
