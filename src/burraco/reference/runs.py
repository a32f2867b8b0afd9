"""Runs: the static rules (RULES B.3), the canonical new run (B.4), wild states (B.5), lay-offs (B.6).

A run is written here as a :class:`RunLayout`: the suit, the natural cards with their slots, and the
wild-acting card (if any) with its slot. Slots are numbered 1..14 (RULES 0.3): slot 1 is the low
ace, slots 2..13 the ranks 2..K, slot 14 the high ace.

Everything is brute force over small choices, on purpose: for a new run every way to seat the
ambiguous cards (aces low or high, a two of the run's suit natural or not) is tried and every legal
result kept; for a lay-off every candidate resulting run R' is built and checked against RULES B.6
L1-L4. The preferences of B.4 / B.6 then pick one.

The state of a run depends only on its suit, its natural cards with their slots, and its wild card:
a bound wild sits in the one hole between the naturals, and a free wild is shown at the low end
(or at the high end if there is no low slot) (RULES B.4 preference 3, B.5). The functions here
always return runs in that canonical position.
"""

from __future__ import annotations

import functools
import itertools
from typing import NamedTuple, cast

from .._errors import IllegalMoveError, InvalidMeldError
from .cards import SUITS, Card, Cards
from .rules import Rules

__all__ = [
    "RunLayout",
    "slot_card",
    "natural_slots",
    "run_problem",
    "wild_state",
    "unreachable_problem",
    "canonical_new_run",
    "canonical_position",
    "lay_off_on_run",
    "run_layout_text",
]

LOW_ACE_SLOT = 1
TWO_SLOT = 2
HIGH_ACE_SLOT = 14


class RunLayout(NamedTuple):
    """One seating of a run's cards: ``naturals`` is ((slot, card), ...) sorted by slot."""

    suit: str
    naturals: tuple[tuple[int, Card], ...]
    wild: Card | None
    wild_slot: int | None

    @property
    def natural_slot_set(self) -> frozenset[int]:
        """The slots that hold natural cards."""
        return frozenset(slot for slot, _card in self.naturals)

    @property
    def all_slots(self) -> list[int]:
        """Every occupied slot, in order."""
        slots = [slot for slot, _card in self.naturals]
        if self.wild is not None:
            slots.append(self.wild_slot)  # type: ignore[arg-type]
        return sorted(slots)

    @property
    def span(self) -> tuple[int, int]:
        """(lowest slot, highest slot)."""
        slots = self.all_slots
        return (slots[0], slots[-1])

    @property
    def natural_count(self) -> int:
        """How many cards are natural."""
        return len(self.naturals)

    def cards_in_slot_order(self) -> list[Card]:
        """The cards from the lowest slot to the highest."""
        by_slot = dict(self.naturals)
        if self.wild is not None:
            by_slot[self.wild_slot] = self.wild  # type: ignore[index]
        return [by_slot[slot] for slot in sorted(by_slot)]


# --- slots ---------------------------------------------------------------------------------------


def slot_range(rules: Rules) -> tuple[int, int]:
    """The lowest and highest slot that exist: ace_low_or_high removes slot 14 or slot 1."""
    return _slot_bounds(rules.ace_low_or_high)


def _slot_bounds(ace_low_or_high: str) -> tuple[int, int]:
    """RULES 0.3 slots 1..14; 'high_only' removes slot 1 and 'low_only' slot 14 (docs/api.md)."""
    lowest = TWO_SLOT if ace_low_or_high == "high_only" else LOW_ACE_SLOT
    highest = HIGH_ACE_SLOT - 1 if ace_low_or_high == "low_only" else HIGH_ACE_SLOT
    return lowest, highest


@functools.lru_cache(maxsize=None)
def slot_card(suit: str, slot: int) -> Card:
    """The natural card of ``suit`` for ``slot`` (an ace for slots 1 and 14)."""
    rank_value = 1 if slot == HIGH_ACE_SLOT else slot
    return Card.from_index(13 * SUITS.index(suit) + rank_value - 1)


def natural_slots(card: Card, suit: str, rules: Rules) -> tuple[int, ...]:
    """The slots where ``card`` may sit as a natural card of a run of ``suit`` (RULES B.3 V2)."""
    if card.is_joker or card.suit != suit:
        return ()
    return _natural_slots(card, rules.natural_two_in_run, rules.ace_low_or_high)


@functools.lru_cache(maxsize=None)
def _natural_slots(card: Card, natural_two_in_run: bool, ace_low_or_high: str) -> tuple[int, ...]:
    """:func:`natural_slots` for a card of the run's suit, remembered per knob values."""
    lowest, highest = _slot_bounds(ace_low_or_high)
    if card.is_ace:
        candidates: tuple[int, ...] = (LOW_ACE_SLOT, HIGH_ACE_SLOT)
    elif card.is_two:
        # A two of the run's suit is natural only in slot 2 (RULES A.4), and only where
        # natural_two_in_run holds; otherwise it is always a wild.
        candidates = (TWO_SLOT,) if natural_two_in_run else ()
    else:
        candidates = (card.rank_value,)
    return tuple(slot for slot in candidates if lowest <= slot <= highest)


def _is_natural_two_slot(card: Card, suit: str, slot: int, rules: Rules) -> bool:
    """True if ``card`` in ``slot`` can only be natural: a two of the suit in slot 2 (RULES B.3 V2)."""
    return (rules.natural_two_in_run and card.is_two and card.suit == suit and slot == TWO_SLOT)


def _describe_slots(suit: str, slots: list[int]) -> str:
    return ", ".join(str(slot_card(suit, slot)) for slot in slots)


# --- RULES B.3: is this seating a legal run? --------------------------------------------------


def run_problem(layout: RunLayout, rules: Rules) -> str | None:
    """Why ``layout`` breaks RULES B.3 V1-V6, or None if it is a legal run."""
    suit = layout.suit
    lowest, highest = slot_range(rules)
    occupied: dict[int, Card] = {}
    for slot, card in layout.naturals:
        # RULES B.3 V2: naturals are of the run's suit, each in a slot of its own rank.
        if card.is_joker or card.suit != suit:
            return f"{card} is not of the run's suit ({suit}): mixed suits"
        if slot not in natural_slots(card, suit, rules):
            return f"{card} cannot be the natural card of slot {slot}"
        if slot in occupied:
            return f"repeated rank: {occupied[slot]} and {card} would share a slot"
        occupied[slot] = card
    if layout.wild is not None:
        wild, wild_slot = layout.wild, layout.wild_slot
        assert wild_slot is not None
        # RULES B.3 V3: only jokers and twos act as wilds.
        if not wild.is_wild:
            return f"{wild} cannot act as a wild (only jokers and twos can)"
        if not lowest <= wild_slot <= highest:
            return f"slot {wild_slot} does not exist under ace_low_or_high={rules.ace_low_or_high!r}"
        if wild_slot in occupied:
            return f"the wild {wild} and {occupied[wild_slot]} would share a slot"
        # RULES B.3 V2: a two of the run's suit that sits in slot 2 is natural, never a wild.
        if _is_natural_two_slot(wild, suit, wild_slot, rules):
            return f"{wild} in slot 2 of a run of its own suit is natural, it cannot act as a wild there"
        occupied[wild_slot] = wild
    if not occupied:
        return "fewer than 3 cards"
    low, high = min(occupied), max(occupied)
    holes = [slot for slot in range(low, high + 1) if slot not in occupied]
    if holes:
        # RULES 0.3 / B.3: a run fills one unbroken range of slots.
        return f"hole at {_describe_slots(suit, holes)}: a run fills one unbroken range of slots"
    length = len(occupied)
    # RULES B.3 V1.
    if length < 3:
        return "fewer than 3 cards"
    if length > rules.max_run_size:
        return f"too long: {length} cards (max_run_size={rules.max_run_size})"
    natural_slot_set = layout.natural_slot_set
    natural_aces_at_both_ends = (
        LOW_ACE_SLOT in natural_slot_set and HIGH_ACE_SLOT in natural_slot_set
    )
    # RULES B.3 V4: italian family, no natural aces at both ends.
    if natural_aces_at_both_ends and not rules.allow_both_aces_in_run:
        return "natural aces at both ends (allow_both_aces_in_run=False)"
    # RULES B.3 V5: the italian 14-card run is the 13 naturals plus an orphan wild.
    if length == 14 and layout.wild is not None and not rules.allow_both_aces_in_run \
            and not rules.allow_orphan_wild_14:
        return "a 14-card run with an orphan wild is not allowed (allow_orphan_wild_14=False)"
    # RULES B.3 V6 (brazilian: the wild stands for a real empty slot) needs no test here: with one
    # card per slot a 15th card has no slot at all.
    return None


def unreachable_problem(layout: RunLayout, rules: Rules) -> str | None:
    """Why a legal ``layout`` still cannot be a table state, or None.

    One seating passes RULES B.3 but can never arise from legal play: a two of the run's suit as
    a free wild while slot 2 lies directly below the lowest natural. A new meld puts that two in
    slot 2 as a natural (B.4 preference 1), and a released two goes there too (B.6 L2).
    """
    wild = layout.wild
    if wild is None or not _is_natural_two_slot(wild, layout.suit, TWO_SLOT, rules):
        return None
    lowest_natural = layout.naturals[0][0]
    if lowest_natural == TWO_SLOT + 1 and wild_state(layout, rules) != "bound":
        return (f"{wild} would be the natural two of slot 2, directly below the lowest natural, not "
                f"a wild (RULES B.4, B.6 L2)")
    return None


def wild_state(layout: RunLayout, rules: Rules) -> str | None:
    """The state of the run's wild (RULES B.5): 'bound', 'free-low', 'free-high', 'orphan' or None."""
    if layout.wild is None:
        return None
    natural_slots_in_order = [slot for slot, _card in layout.naturals]
    natural_low, natural_high = natural_slots_in_order[0], natural_slots_in_order[-1]
    wild_slot = layout.wild_slot
    assert wild_slot is not None
    if natural_low < wild_slot < natural_high:
        return "bound"
    if len(natural_slots_in_order) == 13 and not rules.allow_both_aces_in_run:
        # RULES B.3 V5 / B.5: the italian 14-card run; the wild stands for the duplicate ace.
        return "orphan"
    return "free-low" if wild_slot == natural_low - 1 else "free-high"


def _wild_slot_choices(naturals: dict[int, Card]) -> list[int]:
    """Where a single wild could go beside these naturals: the one hole, else both ends (low first).

    Slots that do not exist or are otherwise illegal are weeded out by :func:`run_problem`.
    """
    low, high = min(naturals), max(naturals)
    holes = [slot for slot in range(low, high + 1) if slot not in naturals]
    if len(holes) == 1:
        return holes  # RULES B.5 bound
    if holes:
        return []
    return [low - 1, high + 1]  # RULES B.5 free; the low end first (B.4 preference 3)


def _seatings(
    suit: str, naturals: dict[int, Card], wild: Card | None
) -> list[RunLayout]:
    """Every seating of these naturals plus ``wild`` (if any), legal or not, low wild slot first."""
    seated = tuple(sorted(naturals.items()))
    if wild is None:
        return [RunLayout(suit, seated, None, None)]
    if not naturals:
        return []
    return [RunLayout(suit, seated, wild, slot) for slot in _wild_slot_choices(naturals)]


def canonical_position(layout: RunLayout, rules: Rules) -> RunLayout:
    """The same run with a free wild moved to its display end: low, else high (RULES B.4 pref. 3).

    A bound wild has only one place; ``layout`` must be a legal run.
    """
    if layout.wild is None:
        return layout
    for seating in _seatings(layout.suit, dict(layout.naturals), layout.wild):
        if run_problem(seating, rules) is None:
            return seating
    return layout


def run_layout_text(layout: RunLayout) -> str:
    """The layout notation: cards in slot order, the wild as ``Jk(=5d)`` (docs/api.md)."""
    by_slot = {slot: str(card) for slot, card in layout.naturals}
    if layout.wild is not None:
        assert layout.wild_slot is not None
        by_slot[layout.wild_slot] = f"{layout.wild}(={slot_card(layout.suit, layout.wild_slot)})"
    return " ".join(by_slot[slot] for slot in sorted(by_slot))


# --- RULES B.4: the canonical form of a new run -----------------------------------------------


def _run_suit(cards: Cards) -> str:
    """The suit of a proposed run: the suit of its cards that are not jokers or twos (RULES B.3)."""
    # A card that is not wild has a suit.
    suits = sorted({cast(str, card.suit) for card in cards if not card.is_wild}, key=SUITS.index)
    if not suits:
        raise InvalidMeldError(f"{str(cards)!r} is not a meld: all wild (jokers and twos only)")
    if len(suits) > 1:
        raise InvalidMeldError(
            f"{str(cards)!r} is not a run: mixed suits ({', '.join(suits)})"
        )
    return suits[0]


def canonical_new_run(cards: Cards, rules: Rules) -> RunLayout:
    """The canonical run made of ``cards`` (RULES B.4), or InvalidMeldError saying why there is none.

    Every way of seating the ambiguous cards is tried: each ace of the suit low (slot 1) or high
    (slot 14), and none or one of the twos of the suit natural in slot 2. All other cards of the
    suit have one slot; the rest must be a single wild. The legal seatings are ranked by the B.4
    preferences: most naturals, then aces low, then the free wild low.
    """
    text = str(cards)
    if len(cards) < 3:
        raise InvalidMeldError(f"{text!r} is not a meld: fewer than 3 cards")
    suit = _run_suit(cards)
    if len(cards) > min(rules.max_run_size, 14):
        raise InvalidMeldError(
            f"{text!r} is not a run: too long, {len(cards)} cards "
            f"(at most {min(rules.max_run_size, 14)})"
        )
    aces = [card for card in cards if card.is_ace and card.suit == suit]
    twos_of_suit = [card for card in cards if card.is_two and card.suit == suit]
    fixed = [card for card in cards if card.suit == suit and not card.is_ace and not card.is_two]
    other_wilds = [card for card in cards if card.is_joker or (card.is_two and card.suit != suit)]

    # Cheap, readable diagnoses first (each is also caught by the brute force below).
    seen_ranks: set[int] = set()
    for card in fixed:
        if card.rank_value in seen_ranks:
            raise InvalidMeldError(f"{text!r} is not a run: repeated rank ({card} twice)")
        seen_ranks.add(card.rank_value)
    if len(aces) > 1 and not rules.allow_both_aces_in_run:
        raise InvalidMeldError(
            f"{text!r} is not a run: natural aces at both ends (RULES B.3 V4)"
        )
    possible_natural_twos = 1 if (twos_of_suit and rules.natural_two_in_run) else 0
    least_wilds = len(other_wilds) + len(twos_of_suit) - possible_natural_twos
    if least_wilds > rules.max_wild_per_meld:
        raise InvalidMeldError(
            f"{text!r} is not a run: two wilds (at most one card may act as a wild; "
            f"only one two of the suit can be natural, in slot 2)"
        )

    legal: list[tuple[tuple[int, int, int], RunLayout]] = []
    problems: list[str] = []
    # The aces of the suit are copies of one kind, so only the multiset of their slots matters.
    ace_slot_choices = sorted({
        tuple(sorted(choice))
        for choice in itertools.product(*(natural_slots(ace, suit, rules) for ace in aces))
    })
    for ace_slots in ace_slot_choices:
        for natural_two_count in range(possible_natural_twos + 1):
            naturals: dict[int, Card] = {}
            seated_cards = list(zip(ace_slots, aces))
            seated_cards += [(TWO_SLOT, two) for two in twos_of_suit[:natural_two_count]]
            seated_cards += [(card.rank_value, card) for card in fixed]
            collision = False
            for slot, card in seated_cards:
                if slot in naturals:
                    collision = True
                naturals[slot] = card
            if collision:
                problems.append("repeated rank")
                continue
            wilds = other_wilds + twos_of_suit[natural_two_count:]
            if len(wilds) > 1:
                problems.append("two wilds")
                continue
            wild = wilds[0] if wilds else None
            seatings = _seatings(suit, naturals, wild)
            if not seatings:
                problems.append(_hole_problem(suit, naturals, wild))
            for seating in seatings:
                problem = run_problem(seating, rules)
                if problem is not None:
                    problems.append(problem)
                    continue
                aces_high = sum(1 for slot in ace_slots if slot == HIGH_ACE_SLOT)
                # RULES B.4 preferences: 1 most naturals, 2 ace low, 3 free wild low.
                preference = (-seating.natural_count, aces_high, seating.wild_slot or 0)
                legal.append((preference, seating))
    if not legal:
        raise InvalidMeldError(f"{text!r} is not a run: {_most_telling(problems)}")
    return min(legal, key=lambda entry: entry[0])[1]


def _hole_problem(suit: str, naturals: dict[int, Card], wild: Card | None) -> str:
    """The reason a seating has no room for its wild: how many holes against how many wilds."""
    low, high = min(naturals), max(naturals)
    holes = [slot for slot in range(low, high + 1) if slot not in naturals]
    wild_count = 0 if wild is None else 1
    return (f"hole at {_describe_slots(suit, holes)}: {len(holes)} empty slot(s) between the "
            f"naturals and {wild_count} wild")


# Reasons in the order they are reported when no seating is legal: the first kind found wins.
_PROBLEM_ORDER = (
    "natural aces at both ends",
    "a 14-card run with an orphan wild",
    "too long",
    "slot ",
    "hole at",
    "two wilds",
    "repeated rank",
)


def _most_telling(problems: list[str]) -> str:
    """Pick the reason to report among the problems of all tried seatings."""
    if not problems:
        return "no legal seating"
    for start in _PROBLEM_ORDER:
        matching = [problem for problem in problems if problem.startswith(start)]
        if matching:
            if start == "hole at":
                # The seating that came closest: the fewest empty slots.
                return min(matching, key=lambda problem: (problem.count(","), len(problem)))
            return matching[0]
    return problems[0]


# --- RULES B.6: adding one card to a run --------------------------------------------------------


class _Candidate(NamedTuple):
    """A candidate resulting run R' and how it was made from R and the added card c."""

    after: RunLayout
    card_slot: int | None  # the slot of c in R' if c is natural there, else None (c is the wild)
    released: bool  # c took the slot of R's wild W (RULES B.6 L2 replacement)
    converted: bool  # R's low natural two became the wild of R' (RULES B.6 L1 exception)
    problem: str | None = None  # set when the cards cannot even be seated (two wilds, holes)


def _lay_off_clause_problem(before: RunLayout, card: Card, candidate: _Candidate,
                            rules: Rules) -> str | None:
    """Why ``candidate`` breaks RULES B.6 L1-L3 for ``before`` + ``card`` (None if it does not)."""
    after = candidate.after
    after_naturals = dict(after.naturals)
    before_naturals = dict(before.naturals)

    # L1: every natural of R stays natural in R', in the same slot ...
    for slot, natural in before_naturals.items():
        if after_naturals.get(slot) == natural:
            continue
        # ... except the low natural two of a run without a wild, which may become the wild of R'.
        low_two_converts = (
            candidate.converted and rules.low_natural_two_may_convert and before.wild is None
            and slot == TWO_SLOT == min(before_naturals) and natural.is_two
            and after.wild == natural
        )
        if not low_two_converts:
            return f"the natural {natural} would have to leave its slot"

    # L2: the existing wild W.
    if before.wild is not None:
        wild, wild_slot = before.wild, before.wild_slot
        if candidate.released:
            # Replacement: c is the natural card for W's slot; W stays in the run, re-placed as in
            # B.4 -- a two of the suit to slot 2 as a natural when the run then starts at 3,
            # otherwise a wild at an end (the preferences put it low), else an orphan.
            if after_naturals.get(wild_slot) != card:  # type: ignore[arg-type]
                return "only the card the wild stands for can replace it"
            if after.wild != wild and after_naturals.get(TWO_SLOT) != wild:
                return f"the released wild {wild} has no legal place"
        else:
            if after.wild != wild:
                return (f"the run already has a wild ({wild}); a second wild, or a wild-for-wild "
                        f"swap, is not allowed")
            if wild_state(before, rules) == "bound" and after.wild_slot != wild_slot:
                return f"the bound wild {wild}(={slot_card(before.suit, wild_slot)}) cannot move"

    # L3: c is a natural in one of its natural slots, or the (only) wild of R'.
    if candidate.card_slot is not None:
        if after_naturals.get(candidate.card_slot) != card \
                or candidate.card_slot not in natural_slots(card, before.suit, rules):
            return f"{card} cannot be a natural card in slot {candidate.card_slot}"
    elif after.wild != card:
        return f"{card} would be a second wild"
    return None


def _candidates(before: RunLayout, card: Card, rules: Rules) -> list[_Candidate]:
    """Every run R' that might result from adding ``card`` to ``before`` (legal or not)."""
    suit = before.suit
    wild = before.wild
    before_naturals = dict(before.naturals)
    conversion_choices = [False]
    if (wild is None and rules.low_natural_two_may_convert
            and min(before_naturals) == TWO_SLOT and before_naturals[TWO_SLOT].is_two):
        conversion_choices.append(True)  # RULES B.6 L1 exception (seed 000, sixth point)

    # c: natural in each of its natural slots, or the wild of R' (jokers and twos only).
    card_roles: list[int | None] = list(natural_slots(card, suit, rules))
    if card.is_wild:
        card_roles.append(None)

    candidates: list[_Candidate] = []
    for converted in conversion_choices:
        base = dict(before_naturals)
        old_wild = wild
        if converted:
            old_wild = base.pop(TWO_SLOT)
        for card_slot in card_roles:
            if card_slot is not None and card_slot in base:
                # The slot already holds a natural: a run holds one card per slot (RULES B.3).
                candidates.append(_Candidate(
                    RunLayout(suit, tuple(sorted(base.items())), None, None), card_slot, False,
                    converted, f"repeated rank: the slot of {card} already holds {base[card_slot]}"))
                continue
            released = (card_slot is not None and not converted and wild is not None
                        and card_slot == before.wild_slot)
            # Where R's wild (or the converted two) may end up: a wild of R', or -- only a released
            # two of the suit -- the natural of slot 2.
            old_wild_roles = ["wild"]
            if released and old_wild is not None and TWO_SLOT in natural_slots(old_wild, suit, rules):
                old_wild_roles.append("natural two")
            for old_wild_role in (old_wild_roles if old_wild is not None else ["none"]):
                naturals = dict(base)
                wilds: list[Card] = []
                if card_slot is None:
                    wilds.append(card)
                else:
                    naturals[card_slot] = card
                if old_wild_role == "wild":
                    wilds.append(old_wild)  # type: ignore[arg-type]
                elif old_wild_role == "natural two":
                    if TWO_SLOT in naturals:
                        continue
                    naturals[TWO_SLOT] = old_wild  # type: ignore[assignment]
                unseated = RunLayout(suit, tuple(sorted(naturals.items())), None, None)
                if len(wilds) > 1:
                    # RULES B.1 / B.6: at most one wild; no wild-for-wild swap.
                    candidates.append(_Candidate(
                        unseated, card_slot, released, converted,
                        f"the run already has a wild ({old_wild}); "
                        f"a second wild, or a wild-for-wild swap, is not allowed"))
                    continue
                seatings = _seatings(suit, naturals, wilds[0] if wilds else None)
                if not seatings:
                    candidates.append(_Candidate(
                        unseated, card_slot, released, converted,
                        _hole_problem(suit, naturals, wilds[0] if wilds else None)))
                for seating in seatings:
                    candidates.append(_Candidate(seating, card_slot, released, converted))
    return candidates


def lay_off_on_run(before: RunLayout, card: Card, rules: Rules) -> RunLayout:
    """The run after laying ``card`` off onto ``before`` (RULES B.6), or IllegalMoveError.

    Every candidate R' is checked against L1-L3 (:func:`_lay_off_clause_problem`) and L4
    (:func:`run_problem`); among the legal ones the B.6 preferences pick: most naturals, no
    two-conversion unless needed, ace low, free wild low.
    """
    prefix = f"cannot add {str(card)!r} to the run {run_layout_text(before)!r}"
    suit = before.suit
    if not card.is_wild and card.suit != suit:
        raise IllegalMoveError(f"{prefix}: {card} is not of the run's suit ({suit}) and is not a wild")
    length = len(before.naturals) + (0 if before.wild is None else 1)
    if length >= min(rules.max_run_size, 14):
        raise IllegalMoveError(f"{prefix}: the run already has {length} cards, the most allowed")

    legal: list[tuple[tuple[int, int, int, int], RunLayout]] = []
    problems: list[str] = []
    for candidate in _candidates(before, card, rules):
        after = candidate.after
        problem = candidate.problem
        if problem is None:
            problem = _lay_off_clause_problem(before, card, candidate, rules)  # RULES B.6 L1-L3
            if problem is None:
                problem = run_problem(after, rules)  # RULES B.6 L4
        if problem is not None:
            problems.append(problem)
            continue
        ace_high = 1 if (card.is_ace and candidate.card_slot == HIGH_ACE_SLOT) else 0
        # RULES B.6 preferences: most naturals; no two-conversion unless needed; ace low; free
        # wild low.
        preference = (-after.natural_count, int(candidate.converted), ace_high, after.wild_slot or 0)
        legal.append((preference, after))
    if not legal:
        if not problems:
            problems.append(f"{card} has no slot in this run")
        raise IllegalMoveError(f"{prefix}: {_lay_off_reason(before, card, problems, rules)}")
    return min(legal, key=lambda entry: entry[0])[1]


def _lay_off_reason(before: RunLayout, card: Card, problems: list[str], rules: Rules) -> str:
    """The most telling reason a lay-off is refused."""
    for start in ("the run already has a wild", "the bound wild", "natural aces at both ends",
                  "a 14-card run", "the released wild", "the natural", "hole at", "too long",
                  "repeated rank"):
        for problem in problems:
            if problem.startswith(start):
                if start == "hole at" and wild_state(before, rules) == "bound":
                    wild_slot = before.wild_slot
                    assert wild_slot is not None
                    problem += (f"; the bound wild {before.wild}(={slot_card(before.suit, wild_slot)})"
                                f" cannot move")
                return problem
    return problems[0]
