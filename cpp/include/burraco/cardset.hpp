// burraco — CardSet, the multiset of card kinds used for every unordered pile.
//
// Encoding: two 64-bit words that hold each kind's count (0 to 3) in binary, `lo` its low bit
// and `hi` its high bit. Each suit owns a 16-bit lane with the rank at its bit; the jokers are
// counted in unary in spare bits of `lo`: the first four at bit 0 of the lanes, the fifth and
// sixth at bit 14 of the clubs and diamonds lanes (`hi` holds no joker):
//
//   bit   63      48 47      32 31      16 15       0
//         [ spades ] [ hearts ] [diamonds] [  clubs ]
//   lane  15 14 13 ............ 2 1 0
//          -  J  K  Q J T 9 8 7 6 5 4 3 2 A  J         J = one joker bit (`lo` only): jokers
//                                                      1-4 at bit 0 (clubs lane first, then d, h,
//                                                      s), 5-6 at bit 14 (clubs, then diamonds).
//                                                      Run detection copies the ace to bit 14 (the
//                                                      high ace) of a lane's ranks on the fly.
//
//   count   lo hi        a two-deck pack (at most 2 copies, 4 jokers) never sets lo and hi on
//     1      1  0        the same bit; a third copy sets both. The spare bits that hold no
//     2      0  1        joker (0 and 14 of `hi`, 14 of the `lo` lanes 2-3, 15 of all) stay zero.
//     3      1  1
//
// Readers see "thermometer planes": `one()` the kinds held at least once and the joker bits,
// `two()` the kinds held at least twice, `three()` three times (popcount(one) + popcount(two) +
// popcount(three) is the card count). Two words hold every multiset of three decks, as they
// held two thermometer planes of two decks, so no value that holds a CardSet (a hand, a meld,
// a move, the game state) grew when the third deck came. Equal multisets have equal words; the
// card count is popcount(lo) + 2 popcount(hi); add, remove, subset, sum and difference are a
// few bit operations (a 2-bit add, subtract or compare per kind); a suit's run candidates are
// read off its lane, a rank's set candidates off a column of four bits.
// Capacity (three decks): 3 copies of a suited kind, 6 jokers. Operations that would pass it or
// go below zero report failure instead of saturating. A smaller pack's limits (two decks: 2 and
// 4) are the rules' to check: `within(copies, jokers)`.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

#include "burraco/card.hpp"

namespace burraco {

// The capacity of a CardSet: the copies of three decks.
inline constexpr int kMaxSuitedCopies = 3;
inline constexpr int kMaxJokers = 6;
// The limits of a two-deck pack, which every rule set played today has.
inline constexpr int kTwoDeckCopies = 2;
inline constexpr int kTwoDeckJokers = 4;

class CardSet {
 public:
  static constexpr std::uint64_t kJokerBits = 0x0001'0001'0001'0001ULL;  // bit 0 of each lane
  static constexpr std::uint64_t kHighJokerBits = 0x0000'0000'4000'4000ULL;  // jokers 5, 6
  static constexpr std::uint64_t kRankBits = 0x3FFE'3FFE'3FFE'3FFEULL;   // A..K of each lane
  static constexpr std::uint64_t kLaneRanks = 0x3FFEULL;                 // A..K in one lane

  constexpr CardSet() = default;
  // From thermometer planes (three ⊆ two ⊆ one, the joker bits in `one`): the inverse of one(),
  // two(), three().
  constexpr CardSet(std::uint64_t one, std::uint64_t two, std::uint64_t three = 0)
      : lo_((one & ~two) | three), hi_(two) {}

  // The bit of a suited kind in its plane (precondition: !card.is_joker()). A table lookup: the
  // division behind suit() and rank() was the most executed instruction of the move generator.
  static constexpr std::uint64_t bit(Card card) { return std::uint64_t{1} << kBitOf[card.index]; }
  // The four bits of one rank across the suits (a "rank column").
  static constexpr std::uint64_t rank_column(int rank) { return kJokerBits << rank; }

  // The thermometer planes: kinds held at least once (and a bit per joker), at least twice,
  // three times.
  constexpr std::uint64_t one() const { return lo_ | hi_; }
  constexpr std::uint64_t two() const { return hi_; }
  constexpr std::uint64_t three() const { return lo_ & hi_; }

  // How many cards of the suited kinds in `mask` (a subset of kRankBits) are held, copies counted.
  constexpr int count_in(std::uint64_t mask) const {
    return std::popcount(lo_ & mask) + 2 * std::popcount(hi_ & mask);
  }

  constexpr int size() const { return std::popcount(lo_) + 2 * std::popcount(hi_); }
  constexpr bool empty() const { return (lo_ | hi_) == 0; }
  constexpr int jokers() const { return std::popcount(lo_ & (kJokerBits | kHighJokerBits)); }
  // No suited kind more than `copies` times and at most `jokers` jokers (a pack's limits).
  constexpr bool within(int copies, int max_jokers) const {
    const std::uint64_t over = copies >= 3 ? 0 : copies == 2 ? lo_ & hi_ : hi_;
    return (over & kRankBits) == 0 && jokers() <= max_jokers;
  }

  constexpr int count(Card card) const {
    if (card.is_joker()) return jokers();
    const int pos = kBitOf[card.index];
    return static_cast<int>(((lo_ >> pos) & 1) | (((hi_ >> pos) & 1) << 1));
  }

  // Adds one copy; false (and no change) if the capacity would be passed.
  constexpr bool add(Card card) {
    if (card.is_joker()) {
      std::uint64_t free = kJokerBits & ~lo_;
      if (free != 0) { lo_ |= free & (~free + 1); return true; }  // lowest free joker bit
      free = kHighJokerBits & ~lo_;
      if (free == 0) return false;
      lo_ |= free & (~free + 1);
      return true;
    }
    const std::uint64_t b = bit(card);
    if ((lo_ & hi_ & b) != 0) return false;
    // A 2-bit increment: the low bit flips, the high bit takes the carry.
    hi_ |= lo_ & b;
    lo_ ^= b;
    return true;
  }

  // Removes one copy; false (and no change) if there is none.
  constexpr bool remove(Card card) {
    if (card.is_joker()) {
      std::uint64_t held = lo_ & kHighJokerBits;
      if (held != 0) {
        lo_ &= ~(std::uint64_t{1} << (63 - std::countl_zero(held)));  // highest joker bit
        return true;
      }
      held = lo_ & kJokerBits;
      if (held == 0) return false;
      lo_ &= ~(std::uint64_t{1} << (63 - std::countl_zero(held)));
      return true;
    }
    const std::uint64_t b = bit(card);
    if (((lo_ | hi_) & b) == 0) return false;
    // A 2-bit decrement: the low bit flips, the high bit clears where it lent.
    hi_ &= ~(~lo_ & b);
    lo_ ^= b;
    return true;
  }

  // Sub-multiset test: every kind at most as often as in `other` (a 2-bit compare per kind; the
  // jokers fill their bits in one order, so fewer jokers are a subset of the bits of more).
  constexpr bool subset_of(CardSet other) const {
    return ((hi_ & ~other.hi_) | (~(hi_ ^ other.hi_) & lo_ & ~other.lo_)) == 0;
  }

  // Multiset sum; false (and `out` untouched) if the capacity would be passed.
  constexpr bool sum(CardSet other, CardSet& out) const {
    const std::uint64_t al = lo_ & kRankBits, bl = other.lo_ & kRankBits;
    const std::uint64_t ah = hi_, bh = other.hi_;
    const std::uint64_t carry = al & bl;
    // A kind would pass three copies: 2 + 2, 3 + 1 or more.
    if ((ah & bh) | ((ah | bh) & carry)) return false;
    const int jokers_total = jokers() + other.jokers();
    if (jokers_total > kMaxJokers) return false;
    out = raw((al ^ bl) | joker_bits(jokers_total), ah | bh | carry);
    return true;
  }

  // Multiset difference; false (and `out` untouched) if `other` is not a sub-multiset. A 2-bit
  // subtraction per kind, which cannot go below zero once `other` is a subset.
  constexpr bool difference(CardSet other, CardSet& out) const {
    if (!other.subset_of(*this)) return false;
    const std::uint64_t al = lo_ & kRankBits, bl = other.lo_ & kRankBits;
    const std::uint64_t borrow = bl & ~al;
    const int left = jokers() - other.jokers();
    out = raw((al ^ bl) | joker_bits(left), hi_ ^ other.hi_ ^ borrow);
    return true;
  }

  // One copy of every kind held.
  constexpr CardSet distinct() const { return raw(((lo_ | hi_) & kRankBits) | (lo_ & 1u), 0); }

  // Per-kind maximum and minimum: OR and AND of the thermometer planes.
  constexpr CardSet max_with(CardSet other) const {
    return CardSet(one() | other.one(), two() | other.two(), three() | other.three());
  }
  constexpr CardSet min_with(CardSet other) const {
    return CardSet(one() & other.one(), two() & other.two(), three() & other.three());
  }

  // The 13 rank bits (bit r for rank r, A=1) held at least once / twice / three times in a suit.
  constexpr unsigned lane(int suit) const {
    return static_cast<unsigned>(((lo_ | hi_) >> (16 * suit)) & kLaneRanks);
  }
  constexpr unsigned lane_two(int suit) const {
    return static_cast<unsigned>((hi_ >> (16 * suit)) & kLaneRanks);
  }
  constexpr unsigned lane_three(int suit) const {
    return static_cast<unsigned>(((lo_ & hi_) >> (16 * suit)) & kLaneRanks);
  }
  // A suit's lane with the ace copied to bit 14 (slot 14, RULES 0.3) for run windows.
  constexpr unsigned run_lane(int suit) const {
    const unsigned l = lane(suit);
    return l | ((l & 2u) << 13);
  }

  // Calls f(card) for every card, copies repeated, in canonical order.
  template <class F>
  constexpr void for_each(F&& f) const {
    for (std::uint64_t bits = (lo_ | hi_) & kRankBits; bits != 0; bits &= bits - 1) {
      const int pos = std::countr_zero(bits);
      const Card card = Card::suited(pos / 16, pos % 16);
      f(card);
      const std::uint64_t at = std::uint64_t{1} << pos;
      if (hi_ & at) {
        f(card);
        if (lo_ & at) f(card);
      }
    }
    for (int j = jokers(); j > 0; --j) f(Card::joker());
  }

  friend constexpr bool operator==(CardSet, CardSet) = default;

 private:
  static constexpr CardSet raw(std::uint64_t lo, std::uint64_t hi) {
    CardSet s;
    s.lo_ = lo;
    s.hi_ = hi;
    return s;
  }

  // Bit position of each card index: 16 * suit + rank; anything else (the joker, kNoCard) maps
  // to bit 15, which no suited kind uses.
  static constexpr std::array<std::uint8_t, 256> kBitOf = [] {
    std::array<std::uint8_t, 256> table{};
    for (int i = 0; i < 256; ++i)
      table[static_cast<std::size_t>(i)] =
          i < 52 ? static_cast<std::uint8_t>(16 * (i / 13) + i % 13 + 1) : std::uint8_t{15};
    return table;
  }();

  // The bits of `lo` that hold n jokers (0 to 6), in their filling order.
  static constexpr std::uint64_t joker_bits(int n) { return kJokerBitsOf[static_cast<unsigned>(n)]; }
  static constexpr std::array<std::uint64_t, kMaxJokers + 1> kJokerBitsOf = [] {
    constexpr std::array<int, kMaxJokers> kPositions = {0, 16, 32, 48, 14, 30};
    std::array<std::uint64_t, kMaxJokers + 1> table{};
    for (int n = 1; n <= kMaxJokers; ++n)
      table[static_cast<std::size_t>(n)] =
          table[static_cast<std::size_t>(n - 1)] | std::uint64_t{1} << kPositions[static_cast<std::size_t>(n - 1)];
    return table;
  }();

  std::uint64_t lo_ = 0;  // low bit of each kind's count
  std::uint64_t hi_ = 0;  // high bit
};

static_assert(sizeof(CardSet) == 16);

}  // namespace burraco
