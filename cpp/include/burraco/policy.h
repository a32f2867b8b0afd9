/* burraco — the native policy interface (docs/native.md).
 *
 * A policy written in C, C++ or Cython that the engine calls inside its own loops (Game.playout,
 * burraco.playouts, ISMCTS rollouts, Match, the command) without the GIL. Plain C, so that a
 * Cython module (`cimport burraco.policy`) and a C++ file (`#include <burraco/policy.h>`) read
 * the same declarations; burraco.get_include() is the folder to add to the include path.
 *
 * The engine gives the policy a burraco_view: what the seat to act sees (its hand, the table,
 * the pile, the sizes of what it cannot see, the cards it knows to be in other hands) and the
 * legal moves; it never holds a hidden card. The policy returns the index of one of the moves.
 * Every array of the view ends at its count: what lies past melds[meld_count - 1] or
 * moves[move_count - 1] is blank (zero bytes, the card fields BURRACO_NO_CARD), never a move or
 * meld of another call (docs/native.md "What a policy may read, and for how long").
 *
 * ABI rule: BURRACO_POLICY_ABI names the layout of every struct below. A module exports a
 * burraco_policy whose first two fields are the version and the size it was compiled with; the
 * engine refuses a policy of another version with an error that names both. Those two fields stay
 * first in every future version; anything else may change with the version.
 */
#ifndef BURRACO_POLICY_H
#define BURRACO_POLICY_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BURRACO_POLICY_ABI 1
/* The name of the PyCapsule that carries a `const burraco_policy *` from a module to the engine. */
#define BURRACO_POLICY_CAPSULE "burraco.policy"

/* ---- cards ----------------------------------------------------------------------------------
 * A card kind is an index: 13 * suit + rank - 1 for the suited kinds (suits c d h s = 0..3, ranks
 * A = 1 .. K = 13), BURRACO_JOKER for the joker; BURRACO_NO_CARD for none. */
#define BURRACO_KINDS 53
#define BURRACO_JOKER 52
#define BURRACO_NO_CARD 255

/* A multiset of cards (two decks: two copies of a suited kind, four jokers at most), as two
 * "thermometer" planes of 64 bits. Each suit owns a 16-bit lane (clubs bits 0-15, diamonds 16-31,
 * hearts 32-47, spades 48-63) with rank r at bit r of its lane; `one` has the bit of every kind
 * held at least once, `two` of every kind held twice. Jokers are counted in unary in bit 0 of the
 * lanes of `one` (clubs lane first). Equal multisets have equal planes. */
typedef struct burraco_cards {
  uint64_t one;
  uint64_t two;
} burraco_cards;

/* ---- moves ----------------------------------------------------------------------------------- */
enum burraco_move_kind {
  BURRACO_DRAW = 0,    /* draw the top card of the stock */
  BURRACO_PILE = 1,    /* take the discard pile */
  BURRACO_KEEP = 2,    /* brazilian first draw: keep the card */
  BURRACO_REJECT = 3,  /* brazilian first draw: reject it */
  BURRACO_MELD = 4,    /* put down `cards` as a new meld */
  BURRACO_ADD = 5,     /* lay `card` off on meld `meld` of the mover's side */
  BURRACO_DISCARD = 6  /* discard `card` */
};

typedef struct burraco_move {
  uint8_t kind;      /* enum burraco_move_kind */
  uint8_t card;      /* add, discard: the card; else BURRACO_NO_CARD */
  uint16_t reserved;
  uint32_t meld;     /* add: the index among the mover's side's melds (burraco_meld.index) */
  burraco_cards cards; /* meld: its cards; else empty */
} burraco_move;

/* ---- the table ------------------------------------------------------------------------------- */
enum burraco_phase { BURRACO_PHASE_DRAW = 0, BURRACO_PHASE_MELD = 1 };
enum burraco_meld_kind { BURRACO_SET = 1, BURRACO_RUN = 2 };
enum burraco_wild_state {  /* RULES B.5, and the position-less wild of a set */
  BURRACO_WILD_NONE = 0, BURRACO_WILD_BOUND = 1, BURRACO_WILD_FREE_LOW = 2,
  BURRACO_WILD_FREE_HIGH = 3, BURRACO_WILD_ORPHAN = 4, BURRACO_WILD_IN_SET = 5
};
enum burraco_class {  /* what a burraco (a meld of seven cards or more) is worth */
  BURRACO_NOT_BURRACO = 0, BURRACO_CLEAN = 1, BURRACO_SEMI_CLEAN = 2, BURRACO_DIRTY = 3
};

/* One meld on the table, with its layout. A run is a suit and a range of slots lo..hi (slot 1 =
 * low ace, 2..13 = ranks 2..K, 14 = high ace), one card per slot, each slot holding its natural
 * card except wild_slot, which holds `wild`. A set is a rank, its naturals and at most one wild. */
typedef struct burraco_meld {
  burraco_cards cards; /* every card of the meld, the wild included */
  uint8_t side;        /* the side that owns it (burraco_view.sides) */
  uint8_t index;       /* its index among that side's melds, in creation order */
  uint8_t kind;        /* enum burraco_meld_kind */
  uint8_t suit;        /* run: 0..3 */
  uint8_t rank;        /* set: 1..13 */
  uint8_t lo, hi;      /* run: first and last slot */
  uint8_t wild_slot;   /* run: the wild's slot, 0 if none */
  uint8_t wild;        /* the card acting as wild, or BURRACO_NO_CARD */
  uint8_t wild_state;  /* enum burraco_wild_state */
  uint8_t burraco;     /* enum burraco_class under the game's rules */
  uint8_t size;        /* number of cards */
  int16_t points;      /* the points of its cards (no bonus) */
  int16_t bonus;       /* its burraco bonus under the game's rules, 0 if none */
} burraco_meld;

enum burraco_packet_status {
  BURRACO_PACKET_UNTAKEN = 0, BURRACO_PACKET_FACE_DOWN = 1, BURRACO_PACKET_SEEN = 2,
  BURRACO_PACKET_IN_HAND = 3, BURRACO_PACKET_STOCK = 4
};

/* A pozzetto (packet). Its cards are given only when the seat to act has seen it (status SEEN,
 * owner the seat); otherwise `cards` is empty and only `size` says how many it holds. */
typedef struct burraco_packet {
  uint8_t status;  /* enum burraco_packet_status */
  int8_t owner;    /* the seat that took it, -1 if untaken */
  uint8_t size;
  uint8_t reserved;
  burraco_cards cards;
} burraco_packet;

/* The rules the game is played under, as far as a policy usually needs them. */
typedef struct burraco_rules {
  uint8_t players, decks, jokers, hand_size;
  uint8_t closing_requires_pozzetto; /* 1 if a side must have taken its pozzetto to close */
  uint8_t closing_requires_clean;    /* 1 if closing needs a clean burraco (else any burraco) */
  uint8_t pile_take_requires_meld;   /* 1 if the pile may be taken only to meld from it at once */
  uint8_t stock_end_threshold;
  int16_t closing_bonus, clean_bonus, semi_clean_bonus, dirty_bonus, no_pozzetto_penalty;
  int16_t card_points[BURRACO_KINDS]; /* the points of each card kind */
  int32_t match_target;
} burraco_rules;

#define BURRACO_MAX_PLAYERS 4
/* The most melds on the table: a third of the largest pack (162 cards, three decks), as the engine
 * keeps. The interface carries two-deck games only (at most 36 melds then): its card planes hold
 * two copies of a suited kind and four jokers, and the engine refuses to call a native policy under
 * three decks (PolicyError, docs/native.md). */
#define BURRACO_MAX_MELDS 54

/* What the seat to act sees, with the legal moves. The engine fills one for every call; the
 * pointers are valid during the call only. */
typedef struct burraco_view {
  uint32_t abi;        /* BURRACO_POLICY_ABI of the engine */
  uint32_t size;       /* sizeof(burraco_view) in the engine */
  uint8_t players;     /* 2, 3 or 4 */
  uint8_t seat;        /* the seat to act (the viewer) */
  uint8_t phase;       /* enum burraco_phase */
  uint8_t side;        /* the viewer's side, sides[seat] */
  uint8_t sides[BURRACO_MAX_PLAYERS]; /* the side of each seat now (3 players: merges, RULES F.6) */
  uint8_t first;       /* the seat that played first this hand */
  uint8_t flags;       /* turn flags: 1 took a one-card pile, 2 put a card down, 4 last turn,
                          8 must draw from the stock, 16 brazilian first draw pending */
  uint8_t hold;        /* the card kind taken with a one-card pile this turn, or NO_CARD */
  uint8_t top;         /* the top card of the discard pile, or NO_CARD if empty */
  uint8_t pile_size;   /* cards in the discard pile */
  uint8_t stock_size;  /* cards in the stock */
  uint8_t meld_count;  /* melds on the table, every side */
  uint8_t deadlock;    /* consecutive turns that only exchanged cards with the pile */
  uint8_t hand_sizes[BURRACO_MAX_PLAYERS]; /* cards in each seat's hand */
  uint8_t opened[BURRACO_MAX_PLAYERS];     /* per side: 1 once it has met its brazilian opening
                                              minimum (0 throughout without one) */
  int32_t need[BURRACO_MAX_PLAYERS];       /* per side: the brazilian opening still needed */
  int32_t scores[BURRACO_MAX_PLAYERS];     /* the match scores at the start of the hand: per side,
                                              per seat in half points with three players */
  burraco_cards hand;                      /* the viewer's hand */
  burraco_cards known[BURRACO_MAX_PLAYERS]; /* per seat: the cards everyone knows to be in
                                               that hand (taken with the pile and not played
                                               since; public, the viewer's own seat too) */
  burraco_cards pile;                      /* every card of the discard pile (public) */
  burraco_packet packets[2];
  const burraco_meld* melds;               /* meld_count melds in creation order, all sides;
                                              nothing past them */
  const burraco_move* moves;               /* the legal moves (the candidates of docs/search.md),
                                              in canonical order; nothing past move_count */
  uint32_t move_count;                     /* >= 1 */
  uint32_t reserved;
  const burraco_rules* rules;
} burraco_view;

/* ---- the per-call random stream -----------------------------------------------------------------
 * SplitMix64 from a state the engine draws for every call from its own generator, so a playout
 * with a given seed replays exactly. */
typedef struct burraco_random {
  uint64_t state;
} burraco_random;

static inline uint64_t burraco_random_next(burraco_random* r) {
  uint64_t z = (r->state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/* Uniform in [0, n), n >= 1: Lemire's multiply-shift with rejection. */
static inline uint64_t burraco_random_below(burraco_random* r, uint64_t n) {
  unsigned __int128 m = (unsigned __int128)burraco_random_next(r) * n;
  uint64_t low = (uint64_t)m;
  if (low < n) {
    const uint64_t threshold = (0 - n) % n;
    while (low < threshold) {
      m = (unsigned __int128)burraco_random_next(r) * n;
      low = (uint64_t)m;
    }
  }
  return (uint64_t)(m >> 64);
}

/* ---- the policy ---------------------------------------------------------------------------------
 * choose() returns the index of one of view->moves (0 <= index < view->move_count); anything else
 * stops the engine's loop with burraco.PolicyError naming the policy. It is called without the
 * GIL, possibly from several threads at once with the same `data`: it must not call Python and
 * must treat `data` as read-only (or guard it). It may keep nothing that view points to. */
typedef int32_t (*burraco_choose_fn)(const burraco_view* view, burraco_random* random, void* data);

typedef struct burraco_policy {
  uint32_t abi;              /* BURRACO_POLICY_ABI of the headers the policy was compiled with */
  uint32_t size;             /* sizeof(burraco_policy) there */
  const char* name;          /* shown in errors and reprs (bytes not UTF-8 as \xNN escapes) */
  burraco_choose_fn choose;
  void* data;                /* passed to every call */
} burraco_policy;

/* ---- helpers (inline: no call into the engine) ------------------------------------------------- */

static inline int burraco_card_suit(uint8_t card) { return card / 13; }      /* not the joker */
static inline int burraco_card_rank(uint8_t card) { return card % 13 + 1; }  /* not the joker */
static inline int burraco_card_is_wild(uint8_t card) {
  return card == BURRACO_JOKER || (card < BURRACO_JOKER && card % 13 == 1);
}
static inline uint64_t burraco_card_bit(uint8_t card) {
  return (uint64_t)1 << (16 * (card / 13) + card % 13 + 1);
}

static inline int burraco_popcount(uint64_t x) {
#if defined(__GNUC__) || defined(__clang__)
  return __builtin_popcountll(x);
#else
  int n = 0;
  for (; x; x &= x - 1) ++n;
  return n;
#endif
}

/* Copies of `card` in `cards`. */
static inline int burraco_cards_count(burraco_cards cards, uint8_t card) {
  if (card == BURRACO_JOKER) return burraco_popcount(cards.one & 0x0001000100010001ULL);
  if (card > BURRACO_JOKER) return 0;
  const uint64_t bit = burraco_card_bit(card);
  return ((cards.one & bit) != 0) + ((cards.two & bit) != 0);
}

/* Number of cards in `cards`. */
static inline int burraco_cards_size(burraco_cards cards) {
  return burraco_popcount(cards.one) + burraco_popcount(cards.two);
}

/* Writes the cards in canonical order (suits c d h s, ranks A..K, copies repeated, jokers last)
 * into out[0..size) and returns the size; `out` must hold 108 entries. */
static inline int burraco_cards_list(burraco_cards cards, uint8_t* out) {
  int n = 0;
  for (int suit = 0; suit < 4; ++suit)
    for (int rank = 1; rank <= 13; ++rank) {
      const uint64_t bit = (uint64_t)1 << (16 * suit + rank);
      const uint8_t card = (uint8_t)(13 * suit + rank - 1);
      if (cards.one & bit) out[n++] = card;
      if (cards.two & bit) out[n++] = card;
    }
  for (int j = burraco_cards_count(cards, BURRACO_JOKER); j > 0; --j) out[n++] = BURRACO_JOKER;
  return n;
}

#ifdef __cplusplus
}
#endif

#endif /* BURRACO_POLICY_H */
