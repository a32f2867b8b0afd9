# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
"""pilewise's policy as a native burraco policy (burraco/policy.h), written in Cython.

``policy`` is the capsule ``burraco.Policy('pilewise._native:policy')`` reads. The engine calls
``choose`` without the GIL, from any number of threads at once; it keeps no state.

It plays exactly as its Python twin ``pilewise.python.policy`` (same information, same integer
arithmetic, same order of the candidates, same tie-breaks, same random draws), by the rules of
the package's docstring (pilewise/__init__.py).
"""

from libc.stdint cimport int32_t, uint8_t, uint32_t, uint64_t
from burraco.policy cimport *

cdef enum:
    WILD_COST = 4000
    OPPONENT_MELD_COST = 1000
    NEXT_SEAT_COST = 500
    LATE_HAND = 3
    LATE_STOCK = 8

# The bits of the four twos in a burraco_cards plane (rank 2 of each suit's lane).
cdef uint64_t TWOS = 0x0004000400040004ULL
# The joker bits of plane `one`: bit 0 of each lane.
cdef uint64_t JOKERS = 0x0001000100010001ULL


cdef inline int copies(burraco_cards c, int suit, int rank) noexcept nogil:
    """Copies of the natural card of `suit` and `rank` (1..13) in `c`."""
    cdef uint64_t bit = (<uint64_t>1) << (16 * suit + rank)
    return ((c.one & bit) != 0) + ((c.two & bit) != 0)


cdef inline int at_slot(burraco_cards c, int suit, int slot) noexcept nogil:
    """Copies in `c` of the natural of `suit` that fills run slot `slot` (1..14); 0 off the run or
    for a two."""
    if slot < 1 or slot > 14:
        return 0
    cdef int rank = 1 if slot == 14 else slot
    if rank == 2:
        return 0
    return copies(c, suit, rank)


cdef inline bint is_wild(uint8_t card) noexcept nogil:
    return card == BURRACO_JOKER or card % 13 == 1


cdef inline bint has_wild(burraco_cards c) noexcept nogil:
    return (c.one & (TWOS | JOKERS)) != 0


cdef inline int slots_of(int rank, int* out) noexcept nogil:
    """The run slots of a natural of `rank`: the ace has two (1 and 14)."""
    if rank == 1:
        out[0] = 1
        out[1] = 14
        return 2
    out[0] = rank
    return 1


cdef inline bint makes_meld(uint8_t card, burraco_cards c) noexcept nogil:
    """Does natural `card` make a set or a run with two natural cards of `c`?"""
    cdef int suit = card // 13, rank = card % 13 + 1, s, p, k, n
    cdef int slots[2]
    n = 0
    for s in range(4):
        n += copies(c, s, rank)
    if n >= 2:
        return True
    for k in range(slots_of(rank, slots)):
        p = slots[k]
        if at_slot(c, suit, p - 1) and (at_slot(c, suit, p - 2) or at_slot(c, suit, p + 1)):
            return True
        if at_slot(c, suit, p + 1) and at_slot(c, suit, p + 2):
            return True
    return False


cdef inline bint lays_off(uint8_t card, const burraco_meld* m) noexcept nogil:
    """The cheap lay-off test of the module docstring, for natural `card`."""
    cdef int suit = card // 13, rank = card % 13 + 1
    if m.kind == BURRACO_SET:
        return m.rank == rank
    if m.suit != suit:
        return False
    if rank == 1:
        return m.lo == 2 or m.hi == 13
    return rank == m.lo - 1 or rank == m.hi + 1


cdef inline int use_to_hand(uint8_t card, burraco_cards hand) noexcept nogil:
    """What natural `card` is worth to the hand holding it (the module docstring's "use")."""
    cdef int suit = card // 13, rank = card % 13 + 1, s, k, p, n
    cdef int slots[2]
    n = -1  # the card itself
    for s in range(4):
        n += copies(hand, s, rank)
    cdef int use = 10 * n
    for k in range(slots_of(rank, slots)):
        p = slots[k]
        use += 3 * (at_slot(hand, suit, p - 1) + at_slot(hand, suit, p + 1))
        use += at_slot(hand, suit, p - 2) + at_slot(hand, suit, p + 2)
    return use


cdef int32_t draw_choice(const burraco_view* v) noexcept nogil:
    cdef uint32_t i
    cdef int32_t pile = -1, draw = -1
    cdef uint8_t top = v.top
    cdef bint useful
    for i in range(v.move_count):
        if v.moves[i].kind == BURRACO_KEEP:
            return i
        if v.moves[i].kind == BURRACO_PILE and pile < 0:
            pile = i
        if v.moves[i].kind == BURRACO_DRAW and draw < 0:
            draw = i
    if pile >= 0 and top != BURRACO_NO_CARD:
        useful = is_wild(top) or makes_meld(top, v.hand)
        if not useful:
            for i in range(v.meld_count):
                if v.melds[i].side == v.side and lays_off(top, &v.melds[i]):
                    useful = True
                    break
        if useful:
            return pile
    if draw >= 0:
        return draw
    return 0


cdef int discard_cost(const burraco_view* v, uint8_t card) noexcept nogil:
    """The cost of discarding `card` (the module docstring's "Discard")."""
    if is_wild(card):
        return WILD_COST
    cdef int cost = use_to_hand(card, v.hand)
    cdef uint32_t j
    for j in range(v.meld_count):
        if v.melds[j].side != v.side and lays_off(card, &v.melds[j]):
            cost += OPPONENT_MELD_COST
            break
    cdef int next_seat = (v.seat + 1) % v.players
    if v.sides[next_seat] != v.side and makes_meld(card, v.known[next_seat]):
        cost += NEXT_SEAT_COST
    return cost


cdef int reach_points(const burraco_view* v) noexcept nogil:
    """The points of every card some meld or lay-off among the candidates puts down, each card
    kind counted as often as the one move that puts down most copies of it."""
    cdef int most[BURRACO_KINDS]
    cdef int here[BURRACO_KINDS]
    cdef uint8_t cards[108]
    cdef int k, n, total = 0
    cdef uint32_t i
    for k in range(BURRACO_KINDS):
        most[k] = 0
    for i in range(v.move_count):
        if v.moves[i].kind == BURRACO_ADD:
            if most[v.moves[i].card] < 1:
                most[v.moves[i].card] = 1
        elif v.moves[i].kind == BURRACO_MELD:
            n = burraco_cards_list(v.moves[i].cards, cards)
            for k in range(n):
                here[cards[k]] = 0
            for k in range(n):
                here[cards[k]] += 1
                if here[cards[k]] > most[cards[k]]:
                    most[cards[k]] = here[cards[k]]
    for k in range(BURRACO_KINDS):
        total += most[k] * v.rules.card_points[k]
    return total


cdef int32_t meld_choice(const burraco_view* v, burraco_random* random) noexcept nogil:
    cdef uint32_t i
    cdef int own_size[BURRACO_MAX_MELDS]
    cdef int own_count = 0
    cdef int hand_size = burraco_cards_size(v.hand)
    cdef bint late = hand_size <= LATE_HAND or v.stock_size <= LATE_STOCK
    cdef bint unopened = v.need[v.side] > 0 and not v.opened[v.side]
    cdef int down = 0  # the points of the side's melds: all put down this turn while unopened
    for i in range(v.meld_count):
        if v.melds[i].side == v.side:
            own_size[v.melds[i].index] = v.melds[i].size
            own_count += 1
            down += v.melds[i].points
    # unopened: put nothing down unless the turn can reach the requirement
    cdef bint hold_back = unopened and down + reach_points(v) < v.need[v.side]

    # best[c], key[c]: the move of class c (1..5) with the largest key, the first on a tie.
    cdef int32_t best[6]
    cdef int key[6]
    cdef int c, k, size
    for c in range(6):
        best[c] = -1
        key[c] = -1
    # the discards: their move index, cost and card points (a card is discarded by one move)
    cdef int32_t discards[BURRACO_KINDS]
    cdef int costs[BURRACO_KINDS]
    cdef int points[BURRACO_KINDS]
    cdef int n_discards = 0
    # without a discard: the longest meld, else the lay-off on the longest own meld
    cdef int32_t any_meld = -1, any_add = -1
    cdef int any_meld_key = -1, any_add_key = -1
    cdef const burraco_move* m

    for i in range(v.move_count):
        m = &v.moves[i]
        if m.kind == BURRACO_DISCARD:
            if n_discards < BURRACO_KINDS:
                discards[n_discards] = i
                costs[n_discards] = discard_cost(v, m.card)
                points[n_discards] = v.rules.card_points[m.card]
                n_discards += 1
            continue
        if m.kind == BURRACO_MELD:
            size = burraco_cards_size(m.cards)
            if size > any_meld_key:
                any_meld = i
                any_meld_key = size
            if hold_back or (unopened and size + 2 > hand_size):
                continue
            if not has_wild(m.cards):
                c = 2
            elif size >= 4 or own_count == 0 or late:
                c = 4
            else:
                continue
        elif m.kind == BURRACO_ADD:
            size = own_size[m.meld] if m.meld < BURRACO_MAX_MELDS else 0
            if size > any_add_key:
                any_add = i
                any_add_key = size
            if hold_back or (unopened and 3 > hand_size):
                continue
            if not is_wild(m.card):
                c = 1
            elif size == 6:
                c = 3
            elif late:
                c = 5
            else:
                continue
        else:
            continue
        if size > key[c]:
            best[c] = i
            key[c] = size

    for c in range(1, 6):
        if best[c] >= 0:
            return best[c]
    if n_discards == 0:
        if any_meld >= 0:
            return any_meld
        if any_add >= 0:
            return any_add
        return 0
    # the lowest cost, then the most points, then uniformly among the discards still tied
    cdef int b = 0, tied = 1, d
    for d in range(1, n_discards):
        if costs[d] < costs[b] or (costs[d] == costs[b] and points[d] > points[b]):
            b = d
            tied = 1
        elif costs[d] == costs[b] and points[d] == points[b]:
            tied += 1
    if tied == 1:
        return discards[b]
    k = <int>burraco_random_below(random, <uint64_t>tied)
    for d in range(b, n_discards):
        if costs[d] == costs[b] and points[d] == points[b]:
            if k == 0:
                return discards[d]
            k -= 1
    return discards[b]


cdef int32_t choose(const burraco_view* view, burraco_random* random, void* data) noexcept nogil:
    if view.phase == BURRACO_PHASE_DRAW:
        return draw_choice(view)
    return meld_choice(view, random)


cdef burraco_policy descriptor = new_policy(choose, b"pilewise", NULL)
policy = export_policy(&descriptor)
