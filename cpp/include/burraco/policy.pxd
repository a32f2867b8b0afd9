# burraco — the native policy interface for Cython (docs/native.md): the declarations of
# burraco/policy.h, and two helpers that export a policy to the engine.
#
#     from burraco.policy cimport *
#
#     cdef int32_t choose(const burraco_view* view, burraco_random* random, void* data) noexcept nogil:
#         return 0
#
#     cdef burraco_policy descriptor = new_policy(choose, b"first", NULL)
#     policy = export_policy(&descriptor)    # burraco.Policy("mymodule:policy")
#
# Build with burraco.get_include() on both the Cython include path (this file) and the C include
# path (policy.h).

from libc.stdint cimport int8_t, int16_t, int32_t, uint8_t, uint16_t, uint32_t, uint64_t
from cpython.pycapsule cimport PyCapsule_New

cdef extern from "burraco/policy.h" nogil:
    enum:
        BURRACO_POLICY_ABI
        BURRACO_KINDS
        BURRACO_JOKER
        BURRACO_NO_CARD
        BURRACO_MAX_PLAYERS
        BURRACO_MAX_MELDS
    const char* BURRACO_POLICY_CAPSULE

    ctypedef struct burraco_cards:
        uint64_t one
        uint64_t two

    enum burraco_move_kind:
        BURRACO_DRAW, BURRACO_PILE, BURRACO_KEEP, BURRACO_REJECT, BURRACO_MELD, BURRACO_ADD,
        BURRACO_DISCARD

    ctypedef struct burraco_move:
        uint8_t kind
        uint8_t card
        uint16_t reserved
        uint32_t meld
        burraco_cards cards

    enum burraco_phase:
        BURRACO_PHASE_DRAW, BURRACO_PHASE_MELD
    enum burraco_meld_kind:
        BURRACO_SET, BURRACO_RUN
    enum burraco_wild_state:
        BURRACO_WILD_NONE, BURRACO_WILD_BOUND, BURRACO_WILD_FREE_LOW, BURRACO_WILD_FREE_HIGH,
        BURRACO_WILD_ORPHAN, BURRACO_WILD_IN_SET
    enum burraco_class:
        BURRACO_NOT_BURRACO, BURRACO_CLEAN, BURRACO_SEMI_CLEAN, BURRACO_DIRTY

    ctypedef struct burraco_meld:
        burraco_cards cards
        uint8_t side
        uint8_t index
        uint8_t kind
        uint8_t suit
        uint8_t rank
        uint8_t lo
        uint8_t hi
        uint8_t wild_slot
        uint8_t wild
        uint8_t wild_state
        uint8_t burraco
        uint8_t size
        int16_t points
        int16_t bonus

    enum burraco_packet_status:
        BURRACO_PACKET_UNTAKEN, BURRACO_PACKET_FACE_DOWN, BURRACO_PACKET_SEEN,
        BURRACO_PACKET_IN_HAND, BURRACO_PACKET_STOCK

    ctypedef struct burraco_packet:
        uint8_t status
        int8_t owner
        uint8_t size
        uint8_t reserved
        burraco_cards cards

    ctypedef struct burraco_rules:
        uint8_t players, decks, jokers, hand_size
        uint8_t closing_requires_pozzetto
        uint8_t closing_requires_clean
        uint8_t pile_take_requires_meld
        uint8_t stock_end_threshold
        int16_t closing_bonus, clean_bonus, semi_clean_bonus, dirty_bonus, no_pozzetto_penalty
        int16_t card_points[53]
        int32_t match_target

    ctypedef struct burraco_view:
        uint32_t abi
        uint32_t size
        uint8_t players
        uint8_t seat
        uint8_t phase
        uint8_t side
        uint8_t sides[4]
        uint8_t first
        uint8_t flags
        uint8_t hold
        uint8_t top
        uint8_t pile_size
        uint8_t stock_size
        uint8_t meld_count
        uint8_t deadlock
        uint8_t hand_sizes[4]
        uint8_t opened[4]
        int32_t need[4]
        int32_t scores[4]
        burraco_cards hand
        burraco_cards known[4]
        burraco_cards pile
        burraco_packet packets[2]
        const burraco_meld* melds
        const burraco_move* moves
        uint32_t move_count
        uint32_t reserved
        const burraco_rules* rules

    ctypedef struct burraco_random:
        uint64_t state

    uint64_t burraco_random_next(burraco_random* r)
    uint64_t burraco_random_below(burraco_random* r, uint64_t n)

    ctypedef int32_t (*burraco_choose_fn)(const burraco_view* view, burraco_random* random,
                                          void* data) noexcept nogil

    ctypedef struct burraco_policy:
        uint32_t abi
        uint32_t size
        const char* name
        burraco_choose_fn choose
        void* data

    int burraco_card_suit(uint8_t card)
    int burraco_card_rank(uint8_t card)
    int burraco_card_is_wild(uint8_t card)
    uint64_t burraco_card_bit(uint8_t card)
    int burraco_popcount(uint64_t x)
    int burraco_cards_count(burraco_cards cards, uint8_t card)
    int burraco_cards_size(burraco_cards cards)
    int burraco_cards_list(burraco_cards cards, uint8_t* out)


cdef inline burraco_policy new_policy(burraco_choose_fn choose, const char* name, void* data) noexcept:
    """A descriptor of this interface version for `choose`. Keep it (and `name`, `data`) alive as
    long as the module: a module-level cdef variable does."""
    cdef burraco_policy p
    p.abi = BURRACO_POLICY_ABI
    p.size = sizeof(burraco_policy)
    p.name = name
    p.choose = choose
    p.data = data
    return p


cdef inline object export_policy(burraco_policy* descriptor):
    """The capsule burraco.Policy reads: assign it to a module attribute."""
    return PyCapsule_New(<void*>descriptor, BURRACO_POLICY_CAPSULE, NULL)
