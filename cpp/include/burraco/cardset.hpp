// burraco — CardSet, the multiset of card kinds used for every unordered pile.
//
// Encoding: two 64-bit "thermometer planes". Plane `one` has a bit for every kind held at least
// once, plane `two` for every kind held twice (so two ⊆ one). Each suit owns a 16-bit lane with
// the rank at its bit; the jokers are counted in unary in the spare bit 0 of the lanes of `one`:
//
//   bit   63      48 47      32 31      16 15       0
//         [ spades ] [ hearts ] [diamonds] [  clubs ]
//   lane  15 14 13 ............ 2 1 0
//          -  -  K  Q J T 9 8 7 6 5 4 3 2 A  j         j = one joker bit (plane `one` only)
//                                                      bit 14 (the high ace) is never stored: run
//                                                      detection copies the ace there on the fly.
//
//   one = kinds held >= 1 time, plus one bit per joker (clubs lane first, then d, h, s)
//   two = kinds held == 2 times
//
// Equal multisets have equal words; the card count is popcount(one) + popcount(two); add,
// remove, subset, sum, difference, max and min are a handful of bit operations; a suit's run
// candidates are read off its lane, a rank's set candidates off a column of four bits.
// Limits (two decks): 2 copies of a suited kind, 4 jokers. Operations that would pass a limit
// or go below zero report failure instead of saturating. (Three decks need a third plane.)
#pragma once

#include <array>
#include <bit>
#include <cstdint>

#include "burraco/card.hpp"

namespace burraco {

inline constexpr int kMaxSuitedCopies = 2;
inline constexpr int kMaxJokers = 4;

class CardSet {
 public:
  static constexpr std::uint64_t kJokerBits = 0x0001'0001'0001'0001ULL;  // bit 0 of each lane
  static constexpr std::uint64_t kRankBits = 0x3FFE'3FFE'3FFE'3FFEULL;   // A..K of each lane
  static constexpr std::uint64_t kLaneRanks = 0x3FFEULL;                 // A..K in one lane

  constexpr CardSet() = default;
  constexpr CardSet(std::uint64_t one, std::uint64_t two) : one_(one), two_(two) {}

  // The bit of a suited kind in its plane (precondition: !card.is_joker()). A table lookup: the
  // division behind suit() and rank() was the most executed instruction of the move generator.
  static constexpr std::uint64_t bit(Card card) { return std::uint64_t{1} << kBitOf[card.index]; }
  // The four bits of one rank across the suits (a "rank column").
  static constexpr std::uint64_t rank_column(int rank) { return kJokerBits << rank; }

  constexpr std::uint64_t one() const { return one_; }
  constexpr std::uint64_t two() const { return two_; }

  constexpr int size() const { return std::popcount(one_) + std::popcount(two_); }
  constexpr bool empty() const { return one_ == 0; }
  constexpr int jokers() const { return std::popcount(one_ & kJokerBits); }

  constexpr int count(Card card) const {
    if (card.is_joker()) return jokers();
    const std::uint64_t b = bit(card);
    return ((one_ & b) != 0) + ((two_ & b) != 0);
  }

  // Adds one copy; false (and no change) if the limit would be passed.
  constexpr bool add(Card card) {
    if (card.is_joker()) {
      const std::uint64_t free = kJokerBits & ~one_;
      if (free == 0) return false;
      one_ |= free & (~free + 1);  // lowest free joker bit
      return true;
    }
    const std::uint64_t b = bit(card);
    if ((one_ & b) == 0) { one_ |= b; return true; }
    if ((two_ & b) == 0) { two_ |= b; return true; }
    return false;
  }

  // Removes one copy; false (and no change) if there is none.
  constexpr bool remove(Card card) {
    if (card.is_joker()) {
      const std::uint64_t held = one_ & kJokerBits;
      if (held == 0) return false;
      one_ &= ~(std::uint64_t{1} << (63 - std::countl_zero(held)));  // highest joker bit
      return true;
    }
    const std::uint64_t b = bit(card);
    if (two_ & b) { two_ &= ~b; return true; }
    if (one_ & b) { one_ &= ~b; return true; }
    return false;
  }

  // Sub-multiset test: every kind at most as often as in `other`.
  constexpr bool subset_of(CardSet other) const {
    return (one_ & ~other.one_) == 0 && (two_ & ~other.two_) == 0;
  }

  // Multiset sum; false (and `out` untouched) if a limit would be passed.
  constexpr bool sum(CardSet other, CardSet& out) const {
    const std::uint64_t a1 = one_ & kRankBits, b1 = other.one_ & kRankBits;
    if (((two_ & other.one_) | (one_ & other.two_)) & kRankBits) return false;
    const int jokers_total = jokers() + other.jokers();
    if (jokers_total > kMaxJokers) return false;
    out = CardSet((a1 | b1) | joker_bits(jokers_total), two_ | other.two_ | (a1 & b1));
    return true;
  }

  // Multiset difference; false (and `out` untouched) if `other` is not a sub-multiset.
  constexpr bool difference(CardSet other, CardSet& out) const {
    if (!other.subset_of(*this)) return false;
    const std::uint64_t a1 = one_ & kRankBits, b1 = other.one_ & kRankBits;
    out = CardSet(((a1 & ~b1) | (two_ & ~other.two_)) | joker_bits(jokers() - other.jokers()),
                  two_ & ~b1);
    return true;
  }

  // One copy of every kind held.
  constexpr CardSet distinct() const {
    return CardSet((one_ & kRankBits) | (one_ & kJokerBits & 1u), 0);
  }

  // Per-kind maximum and minimum (the thermometer planes make these plain OR and AND).
  constexpr CardSet max_with(CardSet other) const {
    return CardSet(one_ | other.one_, two_ | other.two_);
  }
  constexpr CardSet min_with(CardSet other) const {
    return CardSet(one_ & other.one_, two_ & other.two_);
  }

  // The 13 rank bits (bit r for rank r, A=1) held at least once / twice in one suit.
  constexpr unsigned lane(int suit) const {
    return static_cast<unsigned>((one_ >> (16 * suit)) & kLaneRanks);
  }
  constexpr unsigned lane_two(int suit) const {
    return static_cast<unsigned>((two_ >> (16 * suit)) & kLaneRanks);
  }
  // A suit's lane with the ace copied to bit 14 (slot 14, RULES 0.3) for run windows.
  constexpr unsigned run_lane(int suit) const {
    const unsigned l = lane(suit);
    return l | ((l & 2u) << 13);
  }

  // Calls f(card) for every card, copies repeated, in canonical order.
  template <class F>
  constexpr void for_each(F&& f) const {
    for (std::uint64_t bits = one_ & kRankBits; bits != 0; bits &= bits - 1) {
      const int pos = std::countr_zero(bits);
      const Card card = Card::suited(pos / 16, pos % 16);
      f(card);
      if (two_ & (std::uint64_t{1} << pos)) f(card);
    }
    for (int j = jokers(); j > 0; --j) f(Card::joker());
  }

  friend constexpr bool operator==(CardSet, CardSet) = default;

 private:
  // Bit position of each card index: 16 * suit + rank; anything else (the joker, kNoCard) maps
  // to bit 15, which no suited kind uses.
  static constexpr std::array<std::uint8_t, 256> kBitOf = [] {
    std::array<std::uint8_t, 256> table{};
    for (int i = 0; i < 256; ++i)
      table[static_cast<std::size_t>(i)] =
          i < 52 ? static_cast<std::uint8_t>(16 * (i / 13) + i % 13 + 1) : std::uint8_t{15};
    return table;
  }();

  static constexpr std::uint64_t joker_bits(int n) {
    // n jokers occupy the lowest n joker bits: clubs lane, then diamonds, hearts, spades.
    std::uint64_t bits = 0;
    for (int i = 0; i < n; ++i) bits |= std::uint64_t{1} << (16 * i);
    return bits;
  }

  std::uint64_t one_ = 0;
  std::uint64_t two_ = 0;
};

static_assert(sizeof(CardSet) == 16);

}  // namespace burraco
