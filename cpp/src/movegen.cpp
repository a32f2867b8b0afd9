// The move generator: every legal move of a position, in canonical order (docs/game.md).
#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <vector>

#include "burraco/game.hpp"
#include "turn.hpp"

namespace burraco {

using namespace detail;

namespace {

// The canonical order of new melds (docs/game.md): the card index sequences compared
// lexicographically, a prefix first. A meld has at most 16 cards, so the sequence (index + 1 per
// byte, zero padded) packs into two words compared as one 128-bit big-endian number.
struct MeldKey {
  std::uint64_t hi = 0, lo = 0;
  friend constexpr auto operator<=>(const MeldKey&, const MeldKey&) = default;
};

MeldKey meld_key(CardSet cards) {
  MeldKey key;
  int i = 0;
  cards.for_each([&](Card c) {
    const std::uint64_t byte = static_cast<std::uint64_t>(c.index) + 1;
    if (i < 8)
      key.hi |= byte << (8 * (7 - i));
    else if (i < 16)
      key.lo |= byte << (8 * (15 - i));
    ++i;
  });
  return key;
}

// New melds in canonical order, with no keys and no sort.
//
// The canonical order of new melds is the lexicographic order of their card index sequences, a
// prefix first: exactly the pre-order of a depth-first walk that grows a meld one card at a time,
// each card's index at least the previous one's (the same kind again only while the hand has
// another copy), and tries the next cards in ascending index. The walk below is that search. At
// each node it keeps two small views of the cards chosen so far: what they could still become as
// a set (RULES B.2) and as a run (RULES B.3). Each view says which card kinds may come next (a
// mask of kinds, bit k for kind k) and whether the node is itself a legal meld; a node neither
// view can grow is dropped with its whole subtree. The views never refuse a card that some legal
// meld could add next, so every legal meld is reached, once, in canonical order.
//
// Sets are legal by construction. A run is decided on slot bits by run_shape (meld.hpp), the rules
// make_meld places runs by, trying the ace low and high and an own two as natural or wild as
// make_meld does, without building the layout.
//
// Three pruning rules keep the walk small: a wild is taken only where the meld can still be legal
// after it (a run needs two cards before a wild that sorts after its suit; a set with one natural
// needs another of its rank sorting after the wild); beside an ace the first of 3..K must fit a
// low run (A 2 3 4) or a high run the hand can complete (r..K A); and a natural starts a set or a
// run only if the hand holds enough cards after it for one (roots(), for every kind at once).
//
// A node that only one view keeps (nearly every node past the first card or a wild) is walked on
// by that view's own recursion, set_walk or run_walk, which carries only its view's state, in
// registers; the nodes both views keep are walked by grow and visit. A run whose last card is a
// wild of another suit (or the joker) is a leaf: nothing that sorts after it can join it.
//
// Cost (callgrind, tools/callgrind_rows.py, rows cpp_legal_12 and cpp_legal_30, with the
// lay-offs and discards): the dealt italian hand's meld phase 4,934 instructions a call (5,182
// with the first card's checks made card by card; 7,819 before the view walks and the pruning of
// the first card; 9,176 with the sorted candidates the walk replaced), for its 12 melds; a
// 31-card hand after a pile take 32,029 (32,279; 47,943; 83,650) for 102 melds.

constexpr std::uint64_t kind_bit(int k) { return std::uint64_t{1} << k; }
constexpr std::uint64_t kind_suit(int suit) { return std::uint64_t{0x1FFF} << (13 * suit); }
constexpr std::uint64_t kind_rank(int rank) {
  return (kind_bit(0) | kind_bit(13) | kind_bit(26) | kind_bit(39)) << (rank - 1);
}
constexpr std::uint64_t kKindJoker = kind_bit(kJoker);
constexpr std::uint64_t kKindTwos = kind_rank(kTwo);
// Every kind of the suits after `suit` (the joker not included).
constexpr std::uint64_t kinds_after_suit(int suit) {
  return (kind_bit(52) - 1) & ~((kind_bit(13 * (suit + 1))) - 1);
}

constexpr std::array<std::uint8_t, kKinds> kSuitOf = [] {
  std::array<std::uint8_t, kKinds> t{};
  for (int k = 0; k < kSuitedKinds; ++k)
    t[static_cast<std::size_t>(k)] = static_cast<std::uint8_t>(k / 13);
  t[kJoker] = 0xFF;
  return t;
}();
constexpr std::array<std::uint8_t, kKinds> kRankOf = [] {
  std::array<std::uint8_t, kKinds> t{};
  for (int k = 0; k < kSuitedKinds; ++k)
    t[static_cast<std::size_t>(k)] = static_cast<std::uint8_t>(k % 13 + 1);
  t[kJoker] = 0;
  return t;
}();

// The bit of each kind in a CardSet plane (the joker: the first joker bit; a meld has one joker
// at most).
constexpr std::array<std::uint64_t, kKinds> kKindPlaneBit = [] {
  std::array<std::uint64_t, kKinds> t{};
  for (int k = 0; k < kSuitedKinds; ++k)
    t[static_cast<std::size_t>(k)] = std::uint64_t{1} << (16 * (k / 13) + k % 13 + 1);
  t[kJoker] = 1;
  return t;
}();

// The kind of each suited bit of a CardSet plane (bit 16 * suit + rank).
constexpr std::array<std::uint8_t, 64> kKindOfBit = [] {
  std::array<std::uint8_t, 64> t{};
  for (int b = 0; b < 64; ++b)
    t[static_cast<std::size_t>(b)] = static_cast<std::uint8_t>(13 * (b / 16) + b % 16 - 1);
  return t;
}();

// The kinds of a CardSet plane as a kind mask (the joker bits not included).
std::uint64_t kinds_of(std::uint64_t plane) {
  std::uint64_t kinds = 0;
  for (int s = 0; s < kSuits; ++s) kinds |= ((plane >> (16 * s + 1)) & 0x1FFF) << (13 * s);
  return kinds;
}

// What the cards so far can still become as a set: its rank (0 until a natural is chosen),
// whether its one wild is chosen, how many naturals.
struct SetView {
  bool alive = false;
  bool wild = false;
  std::uint8_t rank = 0;
  std::uint8_t naturals = 0;
};

// ... and as a run of one suit: aces, twos of that suit (natural in slot 2 or wild), other wilds
// (the joker, twos of other suits), the ranks 3..K chosen (bit r), the highest of them and the
// holes between them. A leading two of suit x leaves the suit open (`suit` < 0, `pending` = x):
// it is the run's own two if the next card is of suit x, else a wild below a run of a later suit.
struct RunView {
  bool alive = false;
  std::int8_t suit = -1;
  std::int8_t pending = -1;
  std::uint8_t aces = 0, own_twos = 0, others = 0, holes = 0, top = 0;
  std::uint16_t ranks = 0;
};

struct MeldNode {
  CardSet cards;
  int n = 0;     // cards chosen (cards.size(), kept to spare the popcounts)
  int last = 0;  // kind of the last card chosen
  SetView set;
  RunView run;
};

// kThree: the hand holds a third copy of some kind (three decks). Only a set can take a third
// copy (a run holds at most two aces, low and high, and two of its own twos), so only the set
// walk carries a third plane, and a two-deck hand walks the code it always did.
template <bool kThree>
class MeldWalk {
 public:
  MeldWalk(const GameState& s, const Rules& rules, CardSet hand, std::uint16_t side_set_ranks,
           std::vector<Move>& out)
      : s_(s), rules_(rules), hand_size_(hand.size()), out_(out) {
    one_ = kinds_of(hand.one()) | (hand.jokers() ? kKindJoker : 0);
    two_ = kinds_of(hand.two());
    if constexpr (kThree) three_ = kinds_of(hand.three());
    if (rules.sets_allowed) {
      const unsigned ranks = rules.set_ranks & ~side_set_ranks & ~(1u << kTwo) & 0x3FFEu;
      const std::uint64_t lane = (ranks >> 1) & 0x1FFFu;  // bit r - 1 for rank r
      set_naturals_ = lane | lane << 13 | lane << 26 | lane << 39;
    }
    const std::uint64_t wilds = one_ & (kKindTwos | kKindJoker);
    wilds_ = wilds;
    for (int suit = 0; suit < kSuits; ++suit) {
      // Wilds that sort after every card of the suit: twos of the later suits, the joker.
      high_wilds_[suit] = wilds & (kinds_after_suit(suit) | kKindJoker);
      if (!(one_ & kind_bit(13 * suit))) continue;  // beside_ace_ is only read beside an ace
      // The first of 3..K beside an ace: what a low run (A 2 3 4) or a high run (r..K A, at most
      // one of r..K missing from the hand) could use: r above the second highest missing rank.
      unsigned missing = ~hand.lane(suit) & 0x3FF8u;
      if (missing) missing &= ~(1u << (31 - std::countl_zero(missing)));
      const unsigned high = missing ? ~((2u << (31 - std::countl_zero(missing))) - 1) : ~0u;
      beside_ace_[suit] = ((1u << 3) | (1u << 4) | high) & 0x3FF8u;
    }
    // Melds leaving two cards or more go out unchecked (a meld slot is always free: kMaxMelds).
    plain_max_ = hand_size_ - 2;
    max_set_ = rules.sets_allowed ? rules.max_set_size : 0;
    max_run_ = rules.max_run_size;
  }

  void run() {
    // A meld's first card is never the joker (the joker sorts last, and a meld is not all wild).
    // A two may start a set (as its wild) or a run; a natural only what roots() lets it.
    const std::uint64_t naturals = one_ & ~(kKindTwos | kKindJoker);
    std::uint64_t set_roots, run_roots;
    roots(naturals, set_roots, run_roots);
    for (std::uint64_t firsts = (one_ & kKindTwos) | set_roots | run_roots; firsts;
         firsts &= firsts - 1) {
      const int k = std::countr_zero(firsts);
      const std::uint64_t bit = kKindPlaneBit[k];
      const int suit = kSuitOf[static_cast<std::size_t>(k)];
      const int rank = kRankOf[static_cast<std::size_t>(k)];
      const bool set = (set_roots >> k) & 1, run = (run_roots >> k) & 1;
      if (!run && !set) {  // a two
        MeldNode node;
        node.set.alive = set_naturals_ != 0 && max_set_ >= 3;
        node.set.wild = true;
        node.run.alive = true;
        node.run.pending = static_cast<std::int8_t>(suit);
        node.cards = CardSet(bit, 0);
        node.n = 1;
        node.last = k;
        grow(node);
        continue;
      }
      if (!run) {
        set_walk(bit, 0, 0, 1, k, false, 1, kind_rank(rank) & set_naturals_ & one_);
        continue;
      }
      RunView v;
      v.alive = true;
      v.suit = static_cast<std::int8_t>(suit);
      add_run_natural(v, rank);
      if (!set) {
        run_walk(bit, 0, 1, k, v);
        continue;
      }
      MeldNode node;
      node.set.alive = true;
      node.set.rank = static_cast<std::uint8_t>(rank);
      node.set.naturals = 1;
      node.run = v;
      node.cards = CardSet(bit, 0);
      node.n = 1;
      node.last = k;
      grow(node);
    }
  }

 private:
  // Which naturals held can start a set, which a run, for every kind at once. A meld's cards sort
  // after its first, so a natural starts a meld only with enough of the cards after it: a set with
  // two more cards of its rank or wilds (one wild at most, and two naturals in all), a run from
  // 3..K with the next rank or the one after and a third card (the two ranks or a wild), a run
  // from an ace always. A view that cannot reach a meld is dropped here with its subtree, which
  // holds no meld of that view. Kind k + 13 is the same rank in the next suit, k + 1 the next
  // rank in the same suit.
  void roots(std::uint64_t naturals, std::uint64_t& set_roots, std::uint64_t& run_roots) const {
    constexpr std::uint64_t kSuited = kind_bit(52) - 1;
    constexpr std::uint64_t kAces = kind_rank(kAce);
    constexpr std::uint64_t kRank3Up = kSuited & ~(kAces | kKindTwos);
    constexpr std::uint64_t kBelowK = kSuited & ~kind_rank(kRanks);                 // ranks 1..12
    constexpr std::uint64_t kBelowQ = kBelowK & ~kind_rank(kRanks - 1);            // ranks 1..11
    // The kinds that have a wild held after them (a two of a later kind, the joker).
    const std::uint64_t wild_after = wilds_ ? (std::uint64_t{1} << (63 - std::countl_zero(wilds_))) - 1 : 0;
    const std::uint64_t one = one_ & kSuited, two = two_;
    const std::uint64_t next1 = (one >> 1) & kBelowK, next2 = (one >> 2) & kBelowQ;
    run_roots = naturals & ((kAces) | (kRank3Up & ((next1 & next2) | (wild_after & (next1 | next2)))));
    // Copies of the kind's rank in the later suits: one kind or more, two kinds or more, a kind
    // held twice.
    const std::uint64_t l1 = one >> 13, l2 = one >> 26, l3 = one >> 39;
    const std::uint64_t later_any = l1 | l2 | l3;
    const std::uint64_t later_two = (l1 & l2) | (l1 & l3) | (l2 & l3) | (two >> 13) | (two >> 26) |
                                    (two >> 39);
    std::uint64_t here_three = 0;
    if constexpr (kThree) here_three = three_;
    // Three naturals from the kind on, or two and a wild after it.
    const std::uint64_t three_naturals = (two & (later_any | here_three)) | later_two;
    const std::uint64_t two_naturals = two | later_any;
    set_roots = naturals & set_naturals_ & (three_naturals | (wild_after & two_naturals));
  }

  static void add_run_natural(RunView& v, int rank) {
    if (rank == kAce) {
      ++v.aces;
      return;
    }
    if (v.ranks) v.holes = static_cast<std::uint8_t>(v.holes + rank - v.top - 1);
    v.ranks = static_cast<std::uint16_t>(v.ranks | (1u << rank));
    v.top = static_cast<std::uint8_t>(rank);
  }

  std::uint64_t set_next(const SetView& v, int n) const {
    if (!v.alive || n >= max_set_) return 0;
    std::uint64_t next = v.rank ? kind_rank(v.rank) & set_naturals_ : set_naturals_;
    if (!v.wild) {
      // The wild now only if the set can still be legal: with two naturals it is; with one,
      // another natural of the rank must sort after the wild (a two; never after the joker).
      if (v.naturals >= 2) {
        next |= kKindTwos | kKindJoker;
      } else {
        const std::uint64_t naturals = one_ & next;  // the first natural among them
        if (naturals) next |= kKindTwos & (kind_bit(63 - std::countl_zero(naturals)) - 1);
      }
    }
    return next;
  }

  std::uint64_t run_next(const RunView& v, int n) const {
    if (!v.alive || n >= max_run_) return 0;
    if (v.suit < 0) {  // after a leading two of suit x: x's two again, x's 3..K, any later suit
      const int x = v.pending;
      return kind_bit(13 * x + 1) | (kind_suit(x) & (~std::uint64_t{3} << (13 * x))) |
             kinds_after_suit(x);
    }
    const int suit = v.suit;
    const int base = 13 * suit;  // kind of the suit's ace; rank r is base + r - 1
    std::uint64_t next = 0;
    const bool room = v.others == 0 && v.own_twos < 2;  // a wild of another kind may still come
    // A wild of another suit or the joker sorts after every card of the run's suit: only worth
    // taking when the run has two cards already (it can then be legal; nothing can follow it).
    if (room && n >= 2) next |= (kKindTwos & ~kind_bit(base + 1)) | kKindJoker;
    if (v.ranks == 0) {
      if (v.aces == 1 && v.own_twos == 0 && rules_.allow_both_aces_in_run) next |= kind_bit(base);
      if (v.own_twos == 0 || (v.own_twos == 1 && v.others == 0)) next |= kind_bit(base + 1);
      // The first of 3..K: any, but beside an ace only what a low or a high run could use.
      const unsigned ranks = v.aces ? beside_ace_[suit] : 0x3FF8u;
      next |= static_cast<std::uint64_t>(ranks >> 1) << base;
    } else {
      const int top = v.top;
      unsigned ranks = 1u << (top + 1);
      const bool wild_possible = v.others || v.own_twos || (room && high_wilds_[suit]);
      if (v.holes == 0 && wild_possible) ranks |= 1u << (top + 2);
      ranks &= 0x3FF8u;  // 3..K
      next |= static_cast<std::uint64_t>(ranks >> 1) << base;
    }
    return next;
  }

  static SetView set_step(SetView v, int k) {
    if (kRankOf[static_cast<std::size_t>(k)] == kTwo || k == kJoker) {
      v.wild = true;
    } else {
      v.rank = kRankOf[static_cast<std::size_t>(k)];
      ++v.naturals;
    }
    return v;
  }

  static RunView run_step(RunView v, int k) {
    if (k == kJoker) {
      ++v.others;
      return v;
    }
    const int suit = kSuitOf[static_cast<std::size_t>(k)];
    const int rank = kRankOf[static_cast<std::size_t>(k)];
    if (v.suit < 0) {
      const int x = v.pending;
      v.suit = static_cast<std::int8_t>(suit);
      v.pending = -1;
      if (suit == x) {
        v.own_twos = 1;  // the leading two is this run's own
      } else {
        v.others = 1;  // the leading two is a wild below a run of a later suit
      }
      if (rank == kTwo) ++v.own_twos;
      else add_run_natural(v, rank);
      return v;
    }
    if (rank == kTwo) {
      if (suit == v.suit) ++v.own_twos;
      else ++v.others;
      return v;
    }
    add_run_natural(v, rank);
    return v;
  }

  // Is the set view (three cards or more) a legal set? Its rank, wild and size were checked on
  // the way; it needs two naturals.
  static bool set_legal(const MeldNode& node) { return node.set.alive && node.set.naturals >= 2; }

  // Is the run view (three cards or more) a legal run? make_meld's choices on slot bits: the ace
  // low or high (or both), an own two natural in slot 2 or the wild; run_shape judges each, and
  // any one legal choice suffices.
  bool run_legal(const MeldNode& node) const { return node.run.alive && run_view_legal(node.run); }

  bool run_view_legal(const RunView& v) const {
    assert(v.suit >= 0);  // a leading two's suit is settled by the second card
    if (v.ranks == 0 && v.aces != 1) return false;  // no natural, or two aces alone (a set)
    const unsigned ranks = v.ranks;
    if (v.aces == 0) {
      // No ace: run_shape's answers in closed form (no V4, no orphan: the run ends at K). With
      // naturals in slots `s` and w <= 1 wilds it is legal when the holes are at most w and
      // popcount(s) + w cards fit max_run_size: a wild goes in the one hole, else below the
      // lowest natural (slot 2 or 1, always a slot when the lowest is 3 or 2; slot 1 may be
      // missing only when the ace is high-only, and then slot 14 is free above K) -- except an
      // own two that would go below a 3 into slot 2, where it is natural, not a wild (Hole).
      const int max = rules_.max_run_size, count = std::popcount(ranks);
      const int top = 31 - std::countl_zero(ranks), low = std::countr_zero(ranks);
      const int gaps = top - low + 1 - count;           // holes among the 3..K
      const int gaps_with_two = top - 2 + 1 - (count + 1);  // with the two natural in slot 2
      const bool natural_two = rules_.natural_two_in_run;
      if (v.own_twos == 0)
        return v.others <= 1 && gaps <= v.others && count + v.others <= max;
      if (v.own_twos == 1) {
        // The two natural in slot 2 (others still wild), or the two as the one wild.
        if (natural_two && v.others <= 1 && gaps_with_two <= v.others &&
            count + 1 + v.others <= max)
          return true;
        return v.others == 0 && gaps <= 1 && count + 1 <= max &&
               !(natural_two && gaps == 0 && low == 3);
      }
      // Two own twos: one natural in slot 2, the other the wild.
      return natural_two && v.own_twos == 2 && v.others == 0 && gaps_with_two <= 1 &&
             count + 2 <= max;
    }
    unsigned ace_options[2] = {0, 0};
    int options = 1;
    if (v.aces == 1) {
      ace_options[0] = 1u << 1;
      ace_options[1] = 1u << 14;
      options = 2;
    } else if (v.aces == 2) {
      ace_options[0] = (1u << 1) | (1u << 14);
    }
    const int min_slot = rules_.min_slot(), max_slot = rules_.max_slot();
    for (int a = 0; a < options; ++a) {
      const unsigned aces = ace_options[a];
      if ((aces & (1u << 1)) && min_slot > 1) continue;
      if ((aces & (1u << 14)) && max_slot < 14) continue;
      for (int natural_two = (v.own_twos && rules_.natural_two_in_run) ? 1 : 0; natural_two >= 0;
           --natural_two) {
        const int wilds = v.others + v.own_twos - natural_two;
        if (wilds > 1) continue;
        const unsigned slots = ranks | aces | (natural_two ? 1u << 2 : 0u);
        RunShape shape;
        if (run_shape(slots, wilds == 1, v.others == 0, 0, rules_, shape) == MeldError::Ok)
          return true;
      }
    }
    return false;
  }

  // A node both views keep (the first card, or a wild after it): both views' next kinds. Each
  // child that only one view takes goes on in that view's own walk (set_child, run_child), which
  // keeps the other view's state out of its way; the rest stay here.
  void grow(const MeldNode& node) {
    const std::uint64_t set_ok = set_next(node.set, node.n), run_ok = run_next(node.run, node.n);
    const std::uint64_t next = (set_ok | run_ok) & one_;
    const int k = node.last;
    // The same kind again first (while the hand has another copy and the meld has one), then the
    // kinds above it. A meld has one joker at most.
    if (k != kJoker && ((next & two_) >> k & 1)) {
      if (!(node.cards.two() & kKindPlaneBit[k])) {
        visit(node, k, set_ok, run_ok);
      } else if constexpr (kThree) {
        if (((next & three_) >> k & 1) && !(node.cards.three() & kKindPlaneBit[k]))
          visit(node, k, set_ok, run_ok);
      }
    }
    for (std::uint64_t rest = next & (~std::uint64_t{0} << k << 1); rest; rest &= rest - 1)
      visit(node, std::countr_zero(rest), set_ok, run_ok);
  }

  void visit(const MeldNode& parent, int k, std::uint64_t set_ok, std::uint64_t run_ok) {
    // The card's bit in the planes: a second copy goes to plane two, a third (a set's only) to
    // plane three; a meld has one joker at most.
    const std::uint64_t bit = kKindPlaneBit[k];
    const bool again = k == parent.last;
    std::uint64_t one = parent.cards.one() | bit, two = parent.cards.two(), three = 0;
    if constexpr (kThree) three = parent.cards.three();
    if (again) {
      if (kThree && (two & bit)) three |= bit;
      else two |= bit;
    }
    const int n = parent.n + 1;
    const bool set = (set_ok >> k) & 1, run = (run_ok >> k) & 1;
    if (!run) {  // a set only from here
      const int rank = parent.set.rank ? parent.set.rank : kRankOf[static_cast<std::size_t>(k)];
      const std::uint64_t column = kind_rank(rank) & set_naturals_ & one_;
      set_child(one, two, three, n, k, parent.set.wild, parent.set.naturals, column);
      return;
    }
    if (!set) {  // a run only from here (never a third copy)
      run_child(one, two, n, k, parent.run);
      return;
    }
    MeldNode node;
    node.cards = CardSet(one, two, three);
    node.n = n;
    node.last = k;
    node.set = set_step(parent.set, k);
    node.run = run_step(parent.run, k);
    if (n >= 3 && (set_legal(node) || run_legal(node))) emit(node.cards, n);
    grow(node);
  }

  // The subtree of a node that can only become a run (its suit settled): run_next, run_step and
  // run_view_legal with the run's state in registers.
  void run_walk(std::uint64_t one, std::uint64_t two, int n, int k, RunView v) {
    const std::uint64_t next = run_next(v, n) & one_;
    if (k != kJoker && ((next & two_) >> k & 1) && !(two & kKindPlaneBit[k]))
      run_child(one, two | kKindPlaneBit[k], n + 1, k, v);
    for (std::uint64_t rest = next & (~std::uint64_t{0} << k << 1); rest; rest &= rest - 1) {
      const int c = std::countr_zero(rest);
      run_child(one | kKindPlaneBit[c], two, n + 1, c, v);
    }
  }

  void run_child(std::uint64_t one, std::uint64_t two, int n, int k, RunView parent) {
    const RunView v = run_step(parent, k);
    if (n >= 3 && run_view_legal(v)) emit(CardSet(one, two), n);
    // A card past the suit's kinds is a wild of another kind: it sorts after every card the run
    // could still take, and the run has no room for a second wild, so nothing follows it.
    if (k < 13 * v.suit + 13) run_walk(one, two, n, k, v);
  }

  // The subtree of a node that can only become a set (of the kinds in `column`): set_next and
  // set_step with the set's state in registers.
  void set_walk(std::uint64_t one, std::uint64_t two, std::uint64_t three, int n, int k, bool wild,
                int naturals, std::uint64_t column) {
    if (n >= max_set_) return;
    std::uint64_t next = column;
    if (!wild) {
      // The wild only if the set can still be legal (set_next).
      if (naturals >= 2) next |= wilds_;
      else if (column) next |= wilds_ & kKindTwos & (kind_bit(63 - std::countl_zero(column)) - 1);
    }
    // The same kind again (a second copy, then with three decks a third), then the kinds above.
    if (k != kJoker && ((next & two_) >> k & 1)) {
      const std::uint64_t bit = kKindPlaneBit[k];
      if (!(two & bit)) {
        set_child(one, two | bit, three, n + 1, k, wild, naturals, column);
      } else if constexpr (kThree) {
        if (((next & three_) >> k & 1) && !(three & bit))
          set_child(one, two, three | bit, n + 1, k, wild, naturals, column);
      }
    }
    for (std::uint64_t rest = next & (~std::uint64_t{0} << k << 1); rest; rest &= rest - 1) {
      const int c = std::countr_zero(rest);
      set_child(one | kKindPlaneBit[c], two, three, n + 1, c, wild, naturals, column);
    }
  }

  // set_step, set_legal and the walk on: `wild` and `naturals` are the parent's (set_next offers
  // a wild only to a set without one).
  void set_child(std::uint64_t one, std::uint64_t two, std::uint64_t three, int n, int k, bool wild,
                 int naturals, std::uint64_t column) {
    if ((kKindTwos | kKindJoker) >> k & 1) wild = true;
    else ++naturals;
    if (n >= 3 && naturals >= 2) emit(CardSet(one, two, three), n);
    set_walk(one, two, three, n, k, wild, naturals, column);
  }

  void emit(CardSet cards, int n) {
    if (n <= plain_max_) out_.push_back(Move{MoveKind::Meld, Card{}, 0, cards});
    else if (n > hand_size_ - 2) emit_checked(cards);
  }

  // A meld that would leave one card or none: apply_move decides (RULES C.4).
  [[gnu::noinline]] void emit_checked(CardSet cards) {
    const Move move{MoveKind::Meld, Card{}, 0, cards};
    if (!positions_) positions_ = &ScratchPositions::of_thread();
    const ScratchPosition t(*positions_, s_);
    if (apply_move(*t, rules_, move, *positions_).ok()) out_.push_back(move);
  }

  const GameState& s_;
  const Rules& rules_;
  ScratchPositions* positions_ = nullptr;  // this thread's, once a meld is checked
  int hand_size_;
  std::vector<Move>& out_;
  std::uint64_t one_ = 0, two_ = 0;  // kinds held at least once / twice
  std::uint64_t three_ = 0;          // kinds held three times (kThree only)
  std::uint64_t wilds_ = 0;          // the wild kinds held (twos, the joker)
  std::uint64_t set_naturals_ = 0;   // kinds that may be a set's natural (rank allowed, no set yet)
  std::uint64_t high_wilds_[kSuits] = {};
  unsigned beside_ace_[kSuits] = {};  // the ranks 3..K that may follow an ace (run_next)
  int max_set_ = 0, max_run_ = 0;
  int plain_max_ = 0;  // melds of this many cards or fewer are emitted unchecked
};

Move simple_move(MoveKind kind) {
  Move m;
  m.kind = kind;
  return m;
}

// The ranks of the sets the side has on the table (bit r for rank r): no second set of them.
std::uint16_t side_set_ranks(const GameState& s, int side) {
  std::uint16_t set_ranks = 0;
  for (int i = 0; i < s.meld_count; ++i)
    if (s.meld_side[i] == side && s.melds[i].kind == MeldKind::Set)
      set_ranks |= static_cast<std::uint16_t>(1u << s.melds[i].rank);
  return set_ranks;
}

// The moves of a meld-phase position after its new melds: the lay-offs, then the discards.
void append_lay_offs_and_discards(const GameState& s, const Rules& rules, std::vector<Move>& out) {
  const CardSet hand = s.hands[s.turn];
  const int side = seat_side(s, rules, s.turn);
  // Lay-offs, by meld index then card. Only a card of the meld's rank (a set) or suit (a run),
  // or a wild, can ever be laid off on it (RULES B.2, B.6): the others are not tried.
  const CardSet distinct = hand.distinct();
  constexpr std::uint64_t kWildBits = CardSet::kJokerBits | CardSet::rank_column(kTwo);
  ScratchPositions* positions = nullptr;  // this thread's, once a lay-off is checked
  for (int index = 0, i = 0; i < s.meld_count; ++i) {
    if (s.meld_side[i] != side) continue;
    const Meld& meld = s.melds[i];
    std::uint64_t fits = kWildBits;
    if (meld.kind == MeldKind::Set) {
      fits |= CardSet::rank_column(meld.rank);
    } else {
      // A natural can only go one or two slots beyond an end (two: a free wild moves into the
      // gap) or into the wild's slot (RULES B.6); the ace is slot 1 and slot 14.
      unsigned slots = (1u << meld.wild_slot) | (1u << (meld.hi + 1)) | (1u << (meld.hi + 2));
      slots |= (1u << meld.lo) >> 1 | (1u << meld.lo) >> 2;
      const unsigned ranks = (slots & 0x3FFEu) | ((slots >> 13) & 2u);  // slot 14 is the ace
      fits |= static_cast<std::uint64_t>(ranks) << (16 * meld.suit);
    }
    CardSet(distinct.one() & fits, 0).for_each([&](Card c) {
      if (!can_lay_off(meld, c, rules)) return;
      Move move{MoveKind::Add, c, static_cast<std::uint32_t>(index), CardSet{}};
      if (hand.size() - 1 >= 2) {
        out.push_back(move);
      } else {
        if (!positions) positions = &ScratchPositions::of_thread();
        const ScratchPosition t(*positions, s);
        if (apply_move(*t, rules, move, *positions).ok()) out.push_back(move);
      }
    });
    ++index;
  }
  // Discards: with two or more cards in hand only the C.5 hold can refuse one (check_discard).
  const bool many = hand.size() > 1, held = s.hold.valid();
  if (many && !held) {
    // Every distinct card may go: written straight from the plane's bits, in canonical order.
    const std::uint64_t bits = distinct.one() & CardSet::kRankBits;
    const bool joker = distinct.jokers() != 0;
    out.reserve(out.size() + static_cast<std::size_t>(std::popcount(bits)) + joker);
    for (std::uint64_t rest = bits; rest; rest &= rest - 1)
      out.push_back(Move{MoveKind::Discard, Card(kKindOfBit[std::countr_zero(rest)]), 0, {}});
    if (joker) out.push_back(Move{MoveKind::Discard, Card::joker(), 0, CardSet{}});
    return;
  }
  distinct.for_each([&](Card c) {
    if (many ? !(held && hold_blocks(s, rules, c)) : check_discard(s, rules, c) == MoveError::Ok)
      out.push_back(Move{MoveKind::Discard, c, 0, CardSet{}});
  });
}

// Could a meld leave at most one card of `hand` (a meld of all of it, or of all but one card)?
// A set's naturals share a rank and a run's naturals other than its suit's two share a suit, so
// the cards that are neither a two nor the joker must, but for one of them, share a rank or a
// suit. Answers true whenever such a meld may exist (and sometimes when none does).
bool may_meld_all_but_one(CardSet hand) {
  constexpr std::uint64_t naturals = CardSet::kRankBits & ~CardSet::rank_column(kTwo);
  const int need = hand.count_in(naturals) - 1;
  for (int suit = 0; suit < kSuits; ++suit) {
    const std::uint64_t lane = std::uint64_t{0xFFFF} << (16 * suit);
    if (hand.count_in(naturals & lane) >= need) return true;
  }
  for (int rank = 1; rank <= kRanks; ++rank) {
    if (hand.count_in(naturals & CardSet::rank_column(rank)) >= need) return true;
  }
  return false;
}

// meld_key(a) < meld_key(b) read off the planes, for melds of 16 cards or fewer (all of their cards
// in the keys). The card sequences agree up to the lowest kind held a different number of times;
// there the one holding it more often has that kind next, where the other has a later kind or has
// ended (a prefix, the smaller). Kinds run in index order along the planes' bits, the joker last.
bool meld_cards_less(CardSet a, CardSet b) {
  const std::uint64_t a1 = a.one() & CardSet::kRankBits, a2 = a.two(), a3 = a.three();
  const std::uint64_t b1 = b.one() & CardSet::kRankBits, b2 = b.two(), b3 = b.three();
  const int a_jokers = a.jokers(), b_jokers = b.jokers();
  const int a_size = a.size(), b_size = b.size();
  if (a_size > 16 || b_size > 16) return meld_key(a) < meld_key(b);
  const std::uint64_t differ = (a1 ^ b1) | (a2 ^ b2) | (a3 ^ b3);
  if (differ == 0) return a_jokers < b_jokers;
  const std::uint64_t kind = differ & (~differ + 1);
  const std::uint64_t later = ~((kind << 1) - 1);  // the kinds after it
  // The thermometer planes: a holds the kind more often where some plane has it and b's not.
  const bool a_more = (((a1 & ~b1) | (a2 & ~b2) | (a3 & ~b3)) & kind) != 0;
  if (a_more) return (b1 & later) != 0 || b_jokers > 0;
  return (a1 & later) == 0 && a_jokers == 0;
}

}  // namespace

bool move_less(const Move& a, const Move& b) {
  if (a.kind != b.kind) return a.kind < b.kind;
  switch (a.kind) {
    case MoveKind::Meld: return meld_cards_less(a.cards, b.cards);
    case MoveKind::Add:
      return a.index != b.index ? a.index < b.index : a.card.index < b.card.index;
    case MoveKind::Discard: return a.card.index < b.card.index;
    default: return false;
  }
}

void legal_moves(const GameState& s, const Rules& rules, std::vector<Move>& out) {
#ifndef NDEBUG
  const NestedCall nested;
#endif
  out.clear();
  if (s.over()) return;
  if (s.phase == Phase::Draw) {
    MoveKind kinds[4];
    const int n = draw_phase_moves(s, rules, kinds);
    for (int i = 0; i < n; ++i) out.push_back(simple_move(kinds[i]));
    return;
  }
  const CardSet hand = s.hands[s.turn];
  const int side = seat_side(s, rules, s.turn);
  // RULES C.3 H-38: after a short opening's return only discards (the side has no melds, so
  // append_lay_offs_and_discards finds no lay-off either).
  if (!opening_returned(s, rules, side)) {
    const std::uint16_t set_ranks = side_set_ranks(s, side);
    if (hand.three() & CardSet::kRankBits) MeldWalk<true>(s, rules, hand, set_ranks, out).run();
    else MeldWalk<false>(s, rules, hand, set_ranks, out).run();
  }
  append_lay_offs_and_discards(s, rules, out);
}

// The new melds of `s` are those of `before` that its hand still holds: the walk finds every meld
// of the hand that is legal for the side's set ranks, in canonical order, and emits one that
// leaves two cards or more whenever a meld slot is free. So every meld of the smaller hand that
// leaves it two cards left `before`'s larger hand at least three and is among `before`'s moves
// (in the same order). Those moves may hold more: a set of a rank the side has melded a set of
// since (a meld whose cards but its twos and joker are all of that rank: the whole walk is then
// run, as a run could be such a meld too). The melds that would leave one card or none are checked
// by apply_move in the walk, and when the hand may have one (may_meld_all_but_one) the whole walk
// is run instead.
void legal_moves_after(const GameState& before, const std::vector<Move>& before_moves, const GameState& s,
                       const Rules& rules, std::vector<Move>& out) {
  const int seat = s.turn;
  const CardSet hand = s.hands[seat], earlier = before.hands[before.turn];
  const int n = hand.size();
  const int side = seat_side(s, rules, seat);
  const std::uint16_t set_ranks = side_set_ranks(s, side), earlier_ranks = side_set_ranks(before, side);
  const bool filter = !s.over() && s.phase == Phase::Meld && before.phase == Phase::Meld &&
                      before.turn == seat && seat_side(before, rules, seat) == side &&
                      n >= 5 && n < earlier.size() &&
                      hand.subset_of(earlier) && (earlier_ranks & ~set_ranks) == 0 &&
                      !may_meld_all_but_one(hand);
  if (!filter) {
    legal_moves(s, rules, out);
    return;
  }
#ifndef NDEBUG
  const NestedCall nested;
  std::vector<Move> check;
  legal_moves(before, rules, check);
  assert(check == before_moves);
#endif
  out.clear();
  const std::uint16_t new_ranks = set_ranks & ~earlier_ranks;
  constexpr std::uint64_t naturals = CardSet::kRankBits & ~CardSet::rank_column(kTwo);
  for (const Move& m : before_moves) {
    if (m.kind != MoveKind::Meld) break;  // the melds come first
    if (m.cards.size() > n - 2 || !m.cards.subset_of(hand)) continue;
    const std::uint64_t cards = (m.cards.one() | m.cards.two()) & naturals;
    for (unsigned ranks = new_ranks; ranks; ranks &= ranks - 1) {
      if ((cards & ~CardSet::rank_column(std::countr_zero(ranks))) == 0) {
        legal_moves(s, rules, out);  // perhaps a set of a rank no longer allowed
        return;
      }
    }
    out.push_back(m);
  }
  append_lay_offs_and_discards(s, rules, out);
#ifndef NDEBUG
  legal_moves(s, rules, check);
  assert(check == out);
#endif
}

}  // namespace burraco
