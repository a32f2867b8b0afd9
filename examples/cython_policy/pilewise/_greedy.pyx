# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""burraco's built-in 'greedy' policy (docs/search.md "Policies") ported to the native interface.

It makes greedy's choices wherever the rules have no opening minimum (every preset but brazilian,
whose short-opening rule greedy reads from the engine's state), so the two play the very same
hands: the time between them is what the native interface costs (the bench table's "greedy, native
port" row). A second, small example of the interface beside pilewise itself:

* draw phase: keep the first card if offered; else take the pile when it holds four cards or more,
  or when its top card is natural and two other naturals of the hand make three of a kind or three
  in a row of its suit with it; else draw from the stock;
* meld phase: the longest meld; else a natural card laid off; else, with two cards or fewer, any
  lay-off; else discard the card of least use to the hand (ties: the most points, then the first).
"""

from burraco.policy cimport *


cdef inline int copies(burraco_cards cards, int suit, int rank) noexcept nogil:
    """Copies of the suited card (suit, rank) in `cards`."""
    cdef uint64_t bit = (<uint64_t>1) << (16 * suit + rank)
    return ((cards.one & bit) != 0) + ((cards.two & bit) != 0)


cdef int use_in_hand(burraco_cards hand, uint8_t card) noexcept nogil:
    """1000 for a wild; else 10 per other card of its rank, 1 per card of its suit one or two
    ranks away (the ace next to both the two and the king; twos do not count)."""
    if burraco_card_is_wild(card):
        return 1000
    cdef int suit = burraco_card_suit(card), rank = burraco_card_rank(card)
    cdef int score = -10, other, distance, around, s
    for s in range(4):
        score += 10 * copies(hand, s, rank)  # the card itself counted once, taken off above
    for other in range(1, 14):
        if other == 2 or other == rank or copies(hand, suit, other) == 0:
            continue
        distance = other - rank if other > rank else rank - other
        if other == 1:
            around = 14 - rank
            distance = around if around < distance else distance
        if rank == 1:
            around = 14 - other
            distance = around if around < distance else distance
        if distance == 1 or distance == 2:
            score += copies(hand, suit, other)
    return score


cdef inline bint in_row(burraco_cards hand, int suit, int slot) noexcept nogil:
    """The hand holds the natural card of this run slot (1..14, the ace at both ends; slot 2 is
    a two, which is wild, so never)."""
    if slot < 1 or slot > 14 or slot == 2:
        return False
    return copies(hand, suit, 1 if slot == 14 else slot) > 0


cdef bint pile_pays(const burraco_view* view) noexcept nogil:
    cdef uint8_t top = view.top
    cdef int rank, suit, s, same = 0
    if view.need[view.side] > 0 and not view.opened[view.side]:
        return False  # greedy leaves the pile alone until an opening minimum is met
    if view.pile_size >= 4:
        return True
    if top == BURRACO_NO_CARD or burraco_card_is_wild(top):
        return False
    rank, suit = burraco_card_rank(top), burraco_card_suit(top)
    for s in range(4):
        same += copies(view.hand, s, rank)
    if same >= 2:
        return True
    return row_with(view.hand, suit, rank) or (rank == 1 and row_with(view.hand, suit, 14))


cdef inline bint row_with(burraco_cards hand, int suit, int t) noexcept nogil:
    """The hand holds two naturals of the suit making three in a row with slot t."""
    return ((in_row(hand, suit, t - 2) and in_row(hand, suit, t - 1))
            or (in_row(hand, suit, t - 1) and in_row(hand, suit, t + 1))
            or (in_row(hand, suit, t + 1) and in_row(hand, suit, t + 2)))


cdef int32_t choose(const burraco_view* view, burraco_random* random, void* data) noexcept nogil:
    cdef uint32_t i
    cdef int32_t best = -1
    cdef int size, best_size = -1, use, points, best_use = 0, best_points = 0
    cdef const burraco_move* move
    if view.phase == BURRACO_PHASE_DRAW:
        for i in range(view.move_count):
            if view.moves[i].kind == BURRACO_KEEP:
                return i
        if pile_pays(view):
            for i in range(view.move_count):
                if view.moves[i].kind == BURRACO_PILE:
                    return i
        for i in range(view.move_count):
            if view.moves[i].kind == BURRACO_DRAW:
                return i
        return 0
    for i in range(view.move_count):
        move = &view.moves[i]
        if move.kind == BURRACO_MELD:
            size = burraco_cards_size(move.cards)
            if size > best_size:
                best, best_size = i, size
    if best >= 0:
        return best
    for i in range(view.move_count):
        if view.moves[i].kind == BURRACO_ADD and not burraco_card_is_wild(view.moves[i].card):
            return i
    if burraco_cards_size(view.hand) <= 2:
        for i in range(view.move_count):
            if view.moves[i].kind == BURRACO_ADD:
                return i
    for i in range(view.move_count):
        move = &view.moves[i]
        if move.kind != BURRACO_DISCARD:
            continue
        use = use_in_hand(view.hand, move.card)
        points = view.rules.card_points[move.card]
        if best < 0 or use < best_use or (use == best_use and points > best_points):
            best, best_use, best_points = i, use, points
    return best if best >= 0 else 0


cdef burraco_policy descriptor = new_policy(choose, b"greedy-port", NULL)
policy = export_policy(&descriptor)
