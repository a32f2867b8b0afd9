"""The legal moves of a position (docs/game.md "Phases and moves", the canonical order of
docs/architecture.md §3): :func:`legal_moves` lists candidates (sets by rank, runs by suit and slot
window, every lay-off of a card of the hand, every discard) and keeps exactly those that
:func:`.apply.apply_move` accepts. Every function takes the rules and the state and changes
neither.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import cast

from .._errors import IllegalMoveError
from .apply import apply_move, card_count, discard_problem, draw_phase_moves, opening_returned
from .cards import JOKER_INDEX, SUITS, Card
from .memo import CARDS, add_move, discard_move, lay_off, meld_move, memo, new_meld
from .melds import Meld
from .moves import Move
from .rules import Rules
from .runs import slot_card
from .seats import acting_side
from .state import DRAW, OVER, WILD_KINDS, _State

#: The natural card of every run slot 1..14 (index 0 unused), per suit.
_SLOT_CARDS: dict[str, list[Card | None]] = {
    suit: [None] + [slot_card(suit, slot) for slot in range(1, 15)] for suit in SUITS
}
#: The four natural cards of each rank (clubs, diamonds, hearts, spades), by rank value.
_RANK_NATURALS = {rank: tuple(CARDS[13 * suit + rank - 1] for suit in range(4))
                  for rank in range(1, 14)}


def legal_moves(rules: Rules, s: _State) -> list[Move]:
    """Exactly the moves :func:`.apply.apply_move` accepts in ``s``, each once, in canonical
    order."""
    if s.phase == OVER:
        return []
    if s.phase == DRAW:
        return draw_phase_moves(rules, s)
    hand = s.hands[s.turn]
    size = card_count(hand)
    side = acting_side(rules, s)
    melds = s.melds[side]
    set_ranks = {meld.rank for _number, meld in melds if meld.kind == "set"}
    lay_offs = memo(rules)[1]
    moves: list[Move] = []
    if opening_returned(rules, s, side):
        # RULES C.3, H-38: the meld phase is over (no melds are left to lay off on either).
        return [discard_move(card) for card in sorted(hand, key=lambda card: card.index)
                if discard_problem(rules, s, card) is None]
    for key, meld in valid_new_melds(hand, rules):
        if meld.kind == "set" and meld.rank in set_ranks:
            continue
        move = meld_move(key, rules.decks)
        if size - len(key) >= 2 or accepts(rules, s, move):
            moves.append(move)
    distinct = sorted(hand, key=lambda card: card.index)
    for index, (_number, meld) in enumerate(melds):
        suit, rank = meld.suit, meld.rank
        for card in distinct:
            if not card.is_wild and card.suit != suit and card.rank != rank:
                continue  # neither a wild nor of the run's suit or the set's rank
            if lay_off(meld, card, lay_offs) is None:
                continue
            move = add_move(index, card)
            if size >= 3 or accepts(rules, s, move):
                moves.append(move)
    for card in distinct:
        if discard_problem(rules, s, card) is None:
            moves.append(discard_move(card))
    return moves


def accepts(rules: Rules, s: _State, move: Move) -> bool:
    """Whether ``move`` is legal in ``s`` (played on a copy)."""
    try:
        apply_move(rules, s.copy(), move)
    except IllegalMoveError:
        return False
    return True


def valid_new_melds(hand: Counter[Card], rules: Rules) -> list[tuple[tuple[int, ...], Meld]]:
    """Every sub-multiset of ``hand`` that is a new meld (RULES B.2-B.4), as (card indices, Meld),
    sorted by card indices. One-set-per-rank and C.7 are left to the caller.

    The candidates are made per rank (sets) and per suit (runs) by :func:`_set_candidates` and
    :func:`_run_candidates`, validated by :class:`Meld`; both steps are remembered per rank or suit
    and the counts that matter to it, so a draw only recomputes the rank and the suit it touched.
    """
    tables = memo(rules)
    groups, new_melds = tables[2], tables[0]
    by_index = [0] * (JOKER_INDEX + 1)
    for card, copies in hand.items():
        by_index[card.index] = copies
    wild_counts = tuple(by_index[card.index] for card in WILD_KINDS)
    found: list[tuple[tuple[int, ...], Meld]] = []
    groups_wanted: list[tuple[str, tuple[Card, ...] | str, tuple[int, ...]]] = []
    if rules.sets_allowed:
        for rank_value in (1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13):
            counts = tuple(by_index[rank_value - 1::13][:4])
            if sum(counts) >= 2:
                groups_wanted.append(("set", _RANK_NATURALS[rank_value], counts))
    any_wild = any(wild_counts)
    for number, suit in enumerate(SUITS):
        counts = tuple(by_index[13 * number:13 * number + 13])
        if len(counts) - counts.count(0) + any_wild >= 3:
            groups_wanted.append(("run", suit, counts))
    for kind, what, counts in groups_wanted:
        group_key = (kind, what, counts, wild_counts)
        melds = groups.get(group_key)
        if melds is None:
            if kind == "set":
                candidates = _set_candidates(cast("tuple[Card, ...]", what), counts, wild_counts)
            else:
                candidates = _run_candidates(cast(str, what), counts, wild_counts)
            melds = []
            for key in candidates:
                meld = new_meld(key, rules, new_melds)
                if meld is not None:
                    melds.append((key, meld))
            groups[group_key] = melds
        found.extend(melds)
    found.sort(key=lambda entry: entry[0])
    return found


def _set_candidates(naturals: tuple[Card, ...], counts: tuple[int, ...],
                    wild_counts: tuple[int, ...]) -> set[tuple[int, ...]]:
    """Sets of one rank: every sub-multiset of its naturals (2+), with no wild or one wild kind."""
    wilds = [wild.index for wild, count in zip(WILD_KINDS, wild_counts) if count]
    keys: set[tuple[int, ...]] = set()
    for choice in itertools.product(*(range(count + 1) for count in counts)):
        size = sum(choice)
        if size < 2:
            continue
        base = [card.index for card, copies in zip(naturals, choice) for _ in range(copies)]
        if size >= 3:
            keys.add(tuple(base))
        for wild in wilds:
            keys.add(tuple(sorted(base + [wild])))
    return keys


def _run_candidates(suit: str, counts: tuple[int, ...],
                    wild_counts: tuple[int, ...]) -> set[tuple[int, ...]]:
    """Runs of one suit: every window of slots lo..hi (RULES 0.3) whose slots all hold their
    natural card but at most one, which holds a wild of any kind present (or a wild in place of a
    natural that is in hand too). ``counts``: the hand's copies of the suit's A..K."""
    wilds = [wild for wild, count in zip(WILD_KINDS, wild_counts) if count]
    wild_count = dict(zip(WILD_KINDS, wild_counts))
    slot_cards = cast("list[Card]", _SLOT_CARDS[suit])  # slot 0, None, is never read
    present = [False] + [counts[card.rank_value - 1] > 0 for card in slot_cards[1:]]
    keys: set[tuple[int, ...]] = set()
    for low in range(1, 13):
        missing: list[int] = []
        for high in range(low, 15):
            if not present[high]:
                missing.append(high)
                if len(missing) > 1 or not wilds:
                    break
            if high - low < 2:
                continue
            window = range(low, high + 1)
            wild_slots: list[int | None] = [missing[0]] if missing else [None, *window]
            for wild_slot in wild_slots:
                needed = [slot_cards[slot] for slot in window if slot != wild_slot]
                if low == 1 and high == 14 and wild_slot not in (1, 14) and counts[0] < 2:
                    continue  # both ace slots need both aces
                base = [card.index for card in needed]
                if wild_slot is None:
                    keys.add(tuple(sorted(base)))
                    continue
                for wild in wilds:
                    if wild_count[wild] > (1 if wild in needed else 0):
                        keys.add(tuple(sorted(base + [wild.index])))
    return keys
