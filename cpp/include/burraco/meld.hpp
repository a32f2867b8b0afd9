// burraco — melds: validation of a new meld, lay-offs, classification (RULES B).
//
// A Meld is a small value (24 bytes). A run is a suit plus a range of slots lo..hi (RULES 0.3:
// slot 1 = low ace, 2..13 = ranks 2..K, 14 = high ace) with one card per slot; every slot holds
// its natural card except `wild_slot`, which holds the wild-acting card `wild`. A set is a rank,
// its natural cards, and at most one wild with no position (RULES B.2). `cards` is the multiset of
// every card in the meld, the wild included.
//
// The state of a run depends on its history (RULES B.6 L1: naturals stay put, so an ace laid
// high stays high even when a later two would have let it sit low). The layout is therefore part
// of the value: equal multisets can be different melds.
//
// Cost: make_meld tries at most four slot assignments (ace low/high x natural two or not) on
// bit masks; lay_off builds at most a handful of candidates; neither allocates.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

#include "burraco/card.hpp"
#include "burraco/cardset.hpp"
#include "burraco/rules.hpp"

namespace burraco {

enum class MeldKind : std::uint8_t { Set = 1, Run = 2 };

// RULES B.5 (runs) plus the position-less wild of a set.
enum class WildState : std::uint8_t { None, Bound, FreeLow, FreeHigh, Orphan, InSet };

// RULES B.7. SemiClean only where the rules give it a bonus.
enum class BurracoClass : std::uint8_t { None, Clean, SemiClean, Dirty };

// Why a new meld or a lay-off is refused. Hot paths return these; bindings turn them into text.
enum class MeldError : std::uint8_t {
  Ok,
  TooFewCards,         // fewer than 3 cards (B.1.1)
  AllWild,             // only wild cards (B.1.3)
  TooManyWilds,        // two or more cards would act as wild (B.1.2)
  NotOneRankOrSuit,    // naturals of several ranks and several suits
  MixedSuits,          // a run's naturals are of several suits (V2)
  RepeatedRank,        // a run would hold one rank twice (V2)
  Hole,                // the naturals leave holes the wilds cannot fill (V1)
  BothAces,            // natural aces at both ends (V4)
  NoSlotForWild,       // the wild would have no slot (V6)
  OrphanNotAllowed,    // the 14-card orphan run is switched off
  TooLong,             // longer than max_run_size / max_set_size
  SetRankNotAllowed,   // no sets of that rank (set_ranks; twos are never a set, B.2)
  SetsNotAllowed,      // sets_allowed is false
  NoSuchCopy,          // every copy of that card that exists is already in the meld
  WrongRank,           // a set takes only its rank or a wild (B.2)
  NotAdjacent,         // the card does not fit at either end or in the wild's slot (B.6)
  BoundWildCannotMove, // a bound wild stays until its exact card comes (B.6 L2)
  SecondWild,          // the meld already has a wild (B.6 L3, no swap)
  SecondSetOfRank,     // the side already has a set of that rank (B.2)
  BadLayout,           // a layout text that is not a legal meld state
  BadNotation,         // a layout text whose cards cannot be read
  TableFull,           // a Melds container already holds SideMelds::kCapacity melds
};

std::string_view meld_error_text(MeldError error);

struct Meld {
  CardSet cards;                  // every card of the meld, the wild included
  MeldKind kind = MeldKind::Run;
  std::uint8_t suit = 0;          // run: 0..3
  std::uint8_t rank = 0;          // set: 1..13
  std::uint8_t lo = 0, hi = 0;    // run: first and last slot (1..14)
  std::uint8_t wild_slot = 0;     // run: slot of the wild, 0 if none
  Card wild{};                    // the wild-acting card, or kNoCard
  WildState wild_state = WildState::None;

  // Member by member, compared as the three words the members fill with no padding (static_assert
  // below): the same answer as the defaulted comparison, in three compares instead of eleven.
  friend constexpr bool operator==(const Meld& a, const Meld& b) {
    using Words = std::array<std::uint64_t, 3>;
    const Words x = std::bit_cast<Words>(a), y = std::bit_cast<Words>(b);
    return ((x[0] ^ y[0]) | (x[1] ^ y[1]) | (x[2] ^ y[2])) == 0;
  }

  int size() const { return cards.size(); }
  bool has_wild() const { return wild.index != kNoCard; }
  bool is_clean() const { return !has_wild(); }
  // Run: bit s set for every slot s holding a natural card.
  unsigned natural_slots() const {
    if (kind != MeldKind::Run) return 0;
    const unsigned span = ((1u << (hi + 1)) - 1) & ~((1u << lo) - 1);
    return wild_slot ? span & ~(1u << wild_slot) : span;
  }
  // The natural card of slot s of this run's suit.
  Card slot_card(int slot) const { return Card::suited(suit, slot == 14 ? kAce : slot); }

  BurracoClass classify(const Rules& rules) const;
  int points(const Rules& rules) const;
  int bonus(const Rules& rules) const;
};

static_assert(sizeof(Meld) == 24 && std::has_unique_object_representations_v<Meld>);

struct MeldResult {
  Meld meld;
  MeldError error = MeldError::Ok;
  bool ok() const { return error == MeldError::Ok; }
};

// RULES B.2-B.4: is this multiset a meld, and which canonical layout does it take?
MeldResult make_meld(CardSet cards, const Rules& rules);

// A run's extent from its natural slots and at most one wild (RULES B.3-B.5, V1-V6): the wild's
// slot (0: none; in the single hole, else low, else high, or `fixed_slot` for a bound wild that
// may not move) and the first and last slot, or why there is no such run. `own_two`: the wild is
// a two of the run's suit, which is never a wild in slot 2 where such a two is natural. The one
// place of these rules: make_meld, lay_off, parse_layout and the move generator all use it.
struct RunShape {
  int first = 0, last = 0, wild_slot = 0;
  bool orphan = false;  // slots 1..14 with the wild beside A..K (V5)
};
// Inline: the move generator asks it at nearly every run it walks.
inline MeldError run_shape(unsigned naturals, bool has_wild, bool own_two, int fixed_slot,
                    const Rules& rules, RunShape& out) {
  const int lo = std::countr_zero(naturals), hi = 31 - std::countl_zero(naturals);
  if ((naturals & (1u << 1)) && (naturals & (1u << 14)) && !rules.allow_both_aces_in_run)
    return MeldError::BothAces;  // V4
  const int gaps = (hi - lo + 1) - std::popcount(naturals);
  int wild_slot = 0;
  if (!has_wild) {
    if (gaps != 0) return MeldError::Hole;
  } else if (fixed_slot != 0) {
    const unsigned with = naturals | (1u << fixed_slot);
    const unsigned shifted = with >> std::countr_zero(with);
    if ((shifted & (shifted + 1)) != 0) return MeldError::BoundWildCannotMove;
    wild_slot = fixed_slot;
  } else if (gaps > 1) {
    return MeldError::Hole;
  } else if (gaps == 1) {
    wild_slot = std::countr_zero(~naturals & ~((1u << lo) - 1));  // the hole
  } else if (lo - 1 >= rules.min_slot()) {
    wild_slot = lo - 1;  // B.4 preference 3: a free wild goes low
  } else if (hi + 1 <= rules.max_slot()) {
    wild_slot = hi + 1;
  } else {
    return MeldError::NoSlotForWild;  // V6
  }
  // A two of the run's suit in slot 2 is natural (V2): such a placement is not a wild.
  if (wild_slot == 2 && rules.natural_two_in_run && own_two) return MeldError::Hole;
  const int first = wild_slot ? std::min<int>(lo, wild_slot) : lo;
  const int last = wild_slot ? std::max<int>(hi, wild_slot) : hi;
  if (last - first + 1 > rules.max_run_size) return MeldError::TooLong;
  const bool orphan = first == 1 && last == 14 && !rules.allow_both_aces_in_run;
  if (orphan && !rules.allow_orphan_wild_14) return MeldError::OrphanNotAllowed;  // V5
  out = RunShape{first, last, wild_slot, orphan};
  return MeldError::Ok;
}

// RULES B.2 (sets) and B.6 (runs): the meld after laying off one card.
MeldResult lay_off(const Meld& meld, Card card, const Rules& rules);
// lay_off(meld, card, rules).ok(), for less: no meld is built, and a run stops at its first legal
// candidate (the move generator asks it of every card that might fit).
bool can_lay_off(const Meld& meld, Card card, const Rules& rules);

// The layout text (docs/api.md): `Jk(=4d) 5d 6d`, `Kd Kh Ks Jk(=K)`.
std::string layout(const Meld& meld);

// Parses a layout (optional [tags] after the wild are checked); BadLayout or a validity error.
MeldResult parse_layout(std::string_view text, const Rules& rules);

std::string_view wild_state_name(WildState state);   // "", "bound", "free-low", ...
std::string_view burraco_class_name(BurracoClass c); // "", "clean", "semi-clean", "dirty"

// One side's melds in creation order (RULES B.1.4, B.2 one set per rank per side).
// Fixed capacity: 54 melds, as many as a table holds (kMaxMelds, game.hpp: a third of 162 cards),
// so every side of a game fits. A container built from melds alone (the Python Melds) meets no
// deck and is refused a 55th (TableFull).
struct SideMelds {
  static constexpr int kCapacity = 54;
  std::array<Meld, kCapacity> melds{};
  std::uint8_t count = 0;
  std::uint16_t set_ranks = 0;  // bit r: the side has a set of rank r

  friend bool operator==(const SideMelds& a, const SideMelds& b) {
    if (a.count != b.count) return false;
    for (int i = 0; i < a.count; ++i)
      if (!(a.melds[i] == b.melds[i])) return false;
    return true;
  }

  // Validates a new meld for this side (the meld rules, then one set per rank).
  MeldResult check_new(CardSet cards, const Rules& rules) const;
  // Appends a meld (precondition: check_new succeeded and count < kCapacity).
  void append(const Meld& meld);
};

}  // namespace burraco
