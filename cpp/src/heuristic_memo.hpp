// The heuristic policy's memos (heuristic.cpp): make_meld's answers and the values of melds
// (MeldMemo), the harm of a discard per card kind (DangerMemo), each one per thread
// (memo_of_thread), with the values they keep: meld_value, the integers of a hand's value
// (HandTally) and discard_danger. Internal to the core library (not installed).
//
// Included by heuristic.cpp alone, and all in an unnamed namespace, as they were written there:
// the lookahead calls them in its inner loops, where they stay inline and local to that
// translation unit (no call of them goes through the shared library's symbol table).
#pragma once

#include <array>
#include <bit>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <type_traits>

#include "burraco/game.hpp"
#include "burraco/greedy.hpp"
#include "burraco/heuristic.hpp"
#include "turn.hpp"

namespace burraco {

using namespace detail;

namespace {

double meld_value(const Meld& m, const Rules& rules, const HeuristicParams& p) {
  const int bonus = m.bonus(rules);
  double value = m.points(rules) + bonus;
  if (bonus == 0 && m.size() >= 3 && m.size() <= 6) {
    const double share = p.progress[static_cast<std::size_t>(m.size() - 3)];
    value += share * rules.clean_burraco_bonus * (m.is_clean() ? 1.0 : p.dirty_share);
  }
  return value;
}

// Whether two doubles are the same to the bit (a NaN equals itself, 0 and -0 differ): the memos
// below key on parameters so, and Debug builds compare their answers so.
bool same_bits(double a, double b) {
  return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

// Whether the memos below may take answers worked out under rules `a` for rules `b`: the same
// bytes (every member then holds the same value, and the answers are the same; two bytewise
// copies are the common case, asked about at every call), or equal members (operator==).
bool same_rules(const Rules& a, const Rules& b) {
  static_assert(std::is_trivially_copyable_v<Rules>);
  return std::memcmp(&a, &b, sizeof(Rules)) == 0 || a == b;
}

// The integers hand_value() is made of, for the cards of a hand it looks at.
struct HandTally {
  int points = 0, wilds = 0, usefulness = 0;

  HandTally(int pts, int wild_count, int use) : points(pts), wilds(wild_count), usefulness(use) {}
  HandTally(CardSet seen, const Rules& rules)
      : points(rules.points_of(seen)),
        wilds(seen.jokers() + seen.count_in(CardSet::rank_column(kTwo))),
        usefulness(hand_usefulness(seen)) {}

  // The tally of `hand` (this one's) less one copy of its card `c`. The usefulness is a sum over
  // ordered pairs of cards of a weight that does not depend on the order, so the pairs that hold
  // that copy weigh twice greedy_usefulness(hand, c) (and nothing for a wild).
  HandTally without(CardSet hand, Card c, const Rules& rules) const {
    HandTally t = *this;
    t.points -= rules.card_points(c);
    if (c.is_wild()) --t.wilds;
    else t.usefulness -= 2 * greedy_usefulness(hand, c);
    return t;
  }
};

// make_meld's answers for the meld candidates met lately, and meld_value's for the melds met
// lately (on the table, and those candidates make): the same melds come up again over the
// positions of a turn, of the turns the draw-phase choice imagines and of the turns after. One per
// thread, holding answers for one Rules and one set of the parameters meld_value reads (progress
// and dirty_share, compared bit for bit) at a time; use() is called at each heuristic_choice, and
// the memo is only read below it.
class MeldMemo {
 public:
  void use(const Rules& rules, const HeuristicParams& p) {
    if (!same_rules(rules_, rules)) {
      rules_ = rules;
      ++rules_generation_;
      for (Entry& e : table_) e.filled = false;
      for (ValueEntry& e : values_) e.filled = false;
    }
    if (!same_meld_params(params_, p)) {
      params_ = p;
      for (Entry& e : table_) e.filled = false;
      for (ValueEntry& e : values_) e.filled = false;
    }
  }
  const Rules& rules() const { return rules_; }
  // Changes whenever the rules in use do: two calls that see the same number saw the same rules.
  std::uint64_t rules_generation() const { return rules_generation_; }
  // make_meld(cards) and, when it is a meld, meld_value of it and the integers of HandTally of its
  // cards (points under the rules, wilds, hand_usefulness).
  struct Candidate {
    MeldResult result;
    double value = 0;
    int points = 0, wilds = 0, usefulness = 0;
  };
  const Candidate& of(CardSet cards) {
    Entry& e = table_[slot(cards)];
    if (!e.filled || e.cards != cards) {
      e.candidate.result = make_meld(cards, rules_);
      if (e.candidate.result.ok()) {
        e.candidate.value = meld_value(e.candidate.result.meld, rules_, params_);
        const HandTally t(cards, rules_);
        e.candidate.points = t.points;
        e.candidate.wilds = t.wilds;
        e.candidate.usefulness = t.usefulness;
      } else {
        e.candidate.value = 0;
      }
      e.cards = cards;
      e.filled = true;
    }
    return e.candidate;
  }
  // meld_value(m) under the rules and parameters in use.
  double value(const Meld& m) {
    ValueEntry& e = values_[slot(m.cards)];
    if (!e.filled || !(e.meld == m)) {
      e.value = meld_value(m, rules_, params_);
      e.meld = m;
      e.filled = true;
    }
    return e.value;
  }

 private:
  static constexpr int kBits = 11;
  static std::size_t slot(CardSet cards) {
    const std::uint64_t h =
        (cards.one() ^ ((cards.two() ^ (cards.three() << 1)) * 0x9E3779B97F4A7C15ULL)) * 0xBF58476D1CE4E5B9ULL;
    return static_cast<std::size_t>(h >> (64 - kBits));
  }
  static bool same_meld_params(const HeuristicParams& a, const HeuristicParams& b) {
    for (std::size_t i = 0; i < a.progress.size(); ++i)
      if (!same_bits(a.progress[i], b.progress[i])) return false;
    return same_bits(a.dirty_share, b.dirty_share);
  }
  struct Entry {
    CardSet cards;
    Candidate candidate;
    bool filled = false;
  };
  struct ValueEntry {
    Meld meld;
    double value = 0;
    bool filled = false;
  };
  std::array<Entry, std::size_t{1} << kBits> table_{};
  std::array<ValueEntry, std::size_t{1} << kBits> values_{};
  Rules rules_{};
  std::uint64_t rules_generation_ = 0;
  HeuristicParams params_{};
};

// The memos below are one per thread, each reached through a pointer of its thread that holds its
// address. In a shared library (the Python extension) GCC takes a thread_local's own address for a
// constant it may work out again, a call to __tls_get_addr, wherever it is used: several times
// over in one inlined comparison of two melds, and in the functions it clones for the memo passed
// by reference. An address read from a variable is read once per call and kept in a register.
template <class Memo>
Memo& memo_of_thread() {
  thread_local Memo memo;
  thread_local Memo* at = nullptr;
  if (!at) at = &memo;
  return *at;
}

MeldMemo& meld_memo() { return memo_of_thread<MeldMemo>(); }

// Whether the natural `card` may lay off on the run `m`: of its suit, one or two slots beyond an
// end (two: a free wild moves into the gap) or in the wild's slot (RULES B.6; the ace is slot 1
// and slot 14). The move generator tries only these (append_lay_offs_and_discards); lay_off
// refuses every other natural.
bool run_may_take(const Meld& m, Card card) {
  if (m.suit != card.suit()) return false;
  unsigned slots = (1u << m.wild_slot) | (1u << (m.hi + 1)) | (1u << (m.hi + 2));
  slots |= (1u << m.lo) >> 1 | (1u << m.lo) >> 2;
  const unsigned ranks = (slots & 0x3FFEu) | ((slots >> 13) & 2u);  // slot 14 is the ace
  return (ranks >> card.rank()) & 1u;
}

// The harm of `card` on the pile for the sides other than `side`.
double discard_danger(const GameState& s, const Rules& rules, int side, Card card,
                      const HeuristicParams& p) {
  if (!card.valid()) return 0;
  double harm = 0;
  const bool wild = card.is_wild();
  for (int i = 0; i < s.meld_count; ++i) {
    if (s.meld_side[i] == side) continue;
    const Meld& m = s.melds[i];
    // A natural lays off only on a set of its rank or a run of its suit (RULES B.2, B.6), and on
    // a run only one or two slots beyond an end or in the wild's slot (the move generator's rule).
    assert(wild || m.kind == MeldKind::Set || run_may_take(m, card) || !can_lay_off(m, card, rules));
    if (!wild && (m.kind == MeldKind::Set ? m.rank != card.rank() : !run_may_take(m, card))) continue;
    if (can_lay_off(m, card, rules)) {
      harm += p.danger_lay + rules.card_points(card);
      break;
    }
  }
  if (wild) return harm;
  for (int q = 0; q < s.players; ++q) {
    if (seat_side(s, rules, q) == side || s.known[q].empty()) continue;
    bool matches = false;
    s.known[q].for_each([&](Card k) {
      if (k.is_wild()) return;
      if (k.rank() == card.rank() || (k.suit() == card.suit() && std::abs(k.rank() - card.rank()) == 1))
        matches = true;
    });
    if (matches) {
      harm += p.danger_known;
      break;
    }
  }
  return harm;
}

// discard_danger's answers per card kind, for one side over the positions of one of its turns
// that one heuristic_choice looks at: the seat's own moves change neither the other sides' melds
// nor what it knows of their hands (and a pozzetto taken, which could change the sides in play,
// ends every lookahead). One per thread, kept from one heuristic_choice to the next while what
// discard_danger reads besides the card is the same (use()): the other sides' melds in index
// order, the cards known in the other sides' hands, the seats' sides, the rules (meld_memo's,
// unchanged) and the two parameters it reads (bit for bit). The moves of a turn and of the other
// sides' turns that meld nothing and take no pile change none of these.
class DangerMemo {
 public:
  void use(const GameState& s, const Rules& rules, int side, const HeuristicParams& p) {
    bool same = side == side_ && s.split == split_ && s.players == players_ &&
                meld_memo().rules_generation() == rules_generation_ &&
                same_bits(p.danger_lay, danger_lay_) && same_bits(p.danger_known, danger_known_);
    int count = 0;
    for (int i = 0; i < s.meld_count; ++i) {
      if (s.meld_side[i] == side) continue;
      const auto k = static_cast<std::size_t>(count++);
      if (same && !(others_melds_[k] == s.melds[i])) same = false;
      others_melds_[k] = s.melds[i];
    }
    if (count != others_count_) same = false;
    for (std::size_t q = 0; q < kMaxPlayers; ++q) {
      // The sides of the seats are those of (players, split), compared above.
      const CardSet known = static_cast<int>(q) < s.players && seat_side(s, rules, static_cast<int>(q)) != side
                                ? s.known[q]
                                : CardSet{};
      if (known != known_[q]) same = false;
      known_[q] = known;
    }
    if (same) return;
    side_ = side;
    split_ = s.split;
    players_ = s.players;
    rules_generation_ = meld_memo().rules_generation();
    danger_lay_ = p.danger_lay;
    danger_known_ = p.danger_known;
    others_count_ = count;
    filled_.fill(false);
  }
  double of(const GameState& s, const Rules& rules, int side, Card card, const HeuristicParams& p) {
    if (side != side_ || s.split != split_) {
      side_ = side;
      split_ = s.split;
      others_count_ = -1;  // the next use() starts afresh
      filled_.fill(false);
    }
    const std::size_t k = card.index;
    if (!filled_[k]) {
      harm_[k] = discard_danger(s, rules, side, card, p);
      filled_[k] = true;
    }
    assert(same_bits(harm_[k], discard_danger(s, rules, side, card, p)));
    return harm_[k];
  }

 private:
  int side_ = -1, split_ = -2, players_ = -1;
  std::uint64_t rules_generation_ = 0;
  double danger_lay_ = 0, danger_known_ = 0;
  int others_count_ = -1;
  std::array<Meld, kMaxMelds> others_melds_{};
  std::array<CardSet, kMaxPlayers> known_{};
  std::array<bool, kKinds> filled_{};
  std::array<double, kKinds> harm_{};
};

}  // namespace

}  // namespace burraco
