# cython: language_level=3
"""Native policies for tests/test_native_policy.py, built against the installed burraco.

* ``uniform``: a uniform choice from the call's random stream.
* ``echo``: the same choice, after copying the whole view into a module buffer that ``last_view()``
  returns as Python values (so a test can compare what a native policy sees with the game).
* ``out_of_range`` and ``negative``: return no move's index.
* ``wrong_version`` and ``wrong_size``: descriptors as a module built against another interface
  version (or another layout of it) would carry.
"""

from burraco.policy cimport *
from libc.string cimport memcpy

cdef int32_t uniform_choose(const burraco_view* view, burraco_random* random, void* data) noexcept nogil:
    return <int32_t>burraco_random_below(random, view.move_count)

cdef burraco_view saved_view
cdef burraco_meld saved_melds[36]
cdef burraco_move saved_moves[512]
cdef burraco_rules saved_rules
cdef uint64_t saved_state
cdef uint32_t saved_moves_count

cdef int32_t echo_choose(const burraco_view* view, burraco_random* random, void* data) noexcept nogil:
    global saved_view, saved_rules, saved_state, saved_moves_count
    saved_view = view[0]
    saved_state = random.state
    memcpy(saved_melds, view.melds, view.meld_count * sizeof(burraco_meld))
    saved_moves_count = view.move_count if view.move_count < 512 else 512
    memcpy(saved_moves, view.moves, saved_moves_count * sizeof(burraco_move))
    saved_rules = view.rules[0]
    return <int32_t>burraco_random_below(random, view.move_count)

cdef int32_t out_of_range_choose(const burraco_view* view, burraco_random* random, void* data) noexcept nogil:
    return <int32_t>view.move_count

cdef int32_t negative_choose(const burraco_view* view, burraco_random* random, void* data) noexcept nogil:
    return -1

cdef burraco_policy uniform_descriptor = new_policy(uniform_choose, b"uniform", NULL)
cdef burraco_policy echo_descriptor = new_policy(echo_choose, b"echo", NULL)
cdef burraco_policy out_of_range_descriptor = new_policy(out_of_range_choose, b"out_of_range", NULL)
cdef burraco_policy negative_descriptor = new_policy(negative_choose, b"negative", NULL)
cdef burraco_policy wrong_version_descriptor = new_policy(uniform_choose, b"wrong_version", NULL)
wrong_version_descriptor.abi = BURRACO_POLICY_ABI + 1
cdef burraco_policy wrong_size_descriptor = new_policy(uniform_choose, b"wrong_size", NULL)
wrong_size_descriptor.size = sizeof(burraco_policy) + 8

uniform = export_policy(&uniform_descriptor)
echo = export_policy(&echo_descriptor)
out_of_range = export_policy(&out_of_range_descriptor)
negative = export_policy(&negative_descriptor)
wrong_version = export_policy(&wrong_version_descriptor)
wrong_size = export_policy(&wrong_size_descriptor)
ABI = BURRACO_POLICY_ABI


cdef object cards(burraco_cards c):
    cdef uint8_t out[108]
    cdef int n = burraco_cards_list(c, out)
    return [out[i] for i in range(n)]


def last_view():
    """The last view ``echo`` saw, as a dict of Python values (card lists as card indices)."""
    cdef burraco_view v = saved_view
    cdef uint32_t i
    melds = []
    for i in range(v.meld_count):
        m = saved_melds[i]
        melds.append(dict(cards=cards(m.cards), side=m.side, index=m.index, kind=m.kind,
                          suit=m.suit, rank=m.rank, lo=m.lo, hi=m.hi, wild_slot=m.wild_slot,
                          wild=m.wild, wild_state=m.wild_state, burraco=m.burraco, size=m.size,
                          points=m.points, bonus=m.bonus))
    moves = []
    for i in range(saved_moves_count):
        mv = saved_moves[i]
        moves.append(dict(kind=mv.kind, card=mv.card, meld=mv.meld, cards=cards(mv.cards)))
    packets = []
    for i in range(2):
        p = v.packets[i]
        packets.append(dict(status=p.status, owner=p.owner, size=p.size, cards=cards(p.cards)))
    r = saved_rules
    return dict(
        abi=v.abi, size=v.size, players=v.players, seat=v.seat, phase=v.phase, side=v.side,
        sides=[v.sides[i] for i in range(4)], first=v.first, flags=v.flags, hold=v.hold,
        top=v.top, pile_size=v.pile_size, stock_size=v.stock_size, meld_count=v.meld_count,
        deadlock=v.deadlock, hand_sizes=[v.hand_sizes[i] for i in range(4)],
        opened=[v.opened[i] for i in range(4)], need=[v.need[i] for i in range(4)],
        scores=[v.scores[i] for i in range(4)], hand=cards(v.hand),
        known=[cards(v.known[i]) for i in range(4)], pile=cards(v.pile), packets=packets,
        melds=melds, moves=moves, move_count=v.move_count, random_state=saved_state,
        rules=dict(players=r.players, decks=r.decks, jokers=r.jokers, hand_size=r.hand_size,
                   closing_requires_pozzetto=r.closing_requires_pozzetto,
                   closing_requires_clean=r.closing_requires_clean,
                   pile_take_requires_meld=r.pile_take_requires_meld,
                   stock_end_threshold=r.stock_end_threshold, closing_bonus=r.closing_bonus,
                   clean_bonus=r.clean_bonus, semi_clean_bonus=r.semi_clean_bonus,
                   dirty_bonus=r.dirty_bonus, no_pozzetto_penalty=r.no_pozzetto_penalty,
                   card_points=[r.card_points[i] for i in range(53)],
                   match_target=r.match_target),
    )
