// The move generator: every legal move of a position, in canonical order (docs/game.md).
#include <algorithm>
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

struct MeldCandidate {
  MeldKey key;
  CardSet cards;
  std::uint8_t set_rank = 0;  // a set candidate's rank (valid by construction); 0: a run, to check
};

MeldCandidate candidate(CardSet cards, int set_rank = 0) {
  return {meld_key(cards), cards, static_cast<std::uint8_t>(set_rank)};
}

void add_set_candidates(CardSet hand, const Rules& rules, std::vector<MeldCandidate>& out) {
  if (!rules.sets_allowed) return;
  int wild_kinds[5];
  int wilds = 0;
  if (hand.jokers()) wild_kinds[wilds++] = kJoker;
  for (int s = 0; s < kSuits; ++s)
    if (hand.count(Card::suited(s, kTwo))) wild_kinds[wilds++] = Card::suited(s, kTwo).index;
  // Ranks held at least twice: some suit twice, or two suits (bit r of the lanes is rank r).
  unsigned seen = 0, twice = 0;
  for (int s = 0; s < kSuits; ++s) {
    twice |= hand.lane_two(s) | (seen & hand.lane(s));
    seen |= hand.lane(s);
  }
  unsigned ranks = twice & rules.set_ranks & ~(1u << kTwo);
  for (; ranks; ranks &= ranks - 1) {
    const int rank = std::countr_zero(ranks);
    int have[kSuits];
    for (int s = 0; s < kSuits; ++s) have[s] = hand.count(Card::suited(s, rank));
    for (int a = 0; a <= have[0]; ++a)
      for (int b = 0; b <= have[1]; ++b)
        for (int c = 0; c <= have[2]; ++c)
          for (int d = 0; d <= have[3]; ++d) {
            const int naturals = a + b + c + d;
            if (naturals < 2) continue;
            // The thermometer planes of a copies of the clubs card, b of the diamonds, ...
            const int counts[kSuits] = {a, b, c, d};
            std::uint64_t set_one = 0, set_two = 0;
            for (int s = 0; s < kSuits; ++s) {
              const std::uint64_t bit = std::uint64_t{1} << (16 * s + rank);
              if (counts[s] >= 1) set_one |= bit;
              if (counts[s] == 2) set_two |= bit;
            }
            // Each candidate is a legal set (make_meld's B.2 checks): sets are allowed, the rank
            // may form one, naturals of that one rank, at most one wild, at most max_set_size.
            const CardSet set(set_one, set_two);
            if (naturals >= 3 && naturals <= rules.max_set_size) out.push_back(candidate(set, rank));
            if (naturals + 1 > rules.max_set_size) continue;
            for (int w = 0; w < wilds; ++w) {
              CardSet with = set;
              with.add(Card(static_cast<std::uint8_t>(wild_kinds[w])));
              out.push_back(candidate(with, rank));
            }
          }
  }
}

void add_run_candidates(CardSet hand, const Rules& rules, std::vector<MeldCandidate>& out) {
  Card wild_kinds[5];
  int wilds = 0;
  if (hand.jokers()) wild_kinds[wilds++] = Card::joker();
  for (int s = 0; s < kSuits; ++s)
    if (hand.count(Card::suited(s, kTwo))) wild_kinds[wilds++] = Card::suited(s, kTwo);
  for (int suit = 0; suit < kSuits; ++suit) {
    const int aces = hand.count(Card::suited(suit, kAce));
    unsigned avail = (hand.lane(suit) & ~(1u << 1)) & 0x3FF8u;  // ranks 3..K
    if (aces) avail |= (1u << 1) | (1u << 14);
    if (hand.count(Card::suited(suit, kTwo))) avail |= 1u << 2;
    auto slot_card = [&](int slot) { return Card::suited(suit, slot == 14 ? kAce : slot); };
    // A window starting at lo needs two of the slots lo, lo+1, lo+2 (at most one is missing).
    const unsigned two_of_three =
        (avail & (avail >> 1)) | (avail & (avail >> 2)) | ((avail >> 1) & (avail >> 2));
    const int min_slot = rules.min_slot(), max_slot = rules.max_slot();
    unsigned starts = two_of_three & ((2u << (max_slot - 2)) - 1) & ~((1u << min_slot) - 1);
    for (; starts; starts &= starts - 1) {
      const int lo = std::countr_zero(starts);
      for (int hi = lo + 2; hi <= max_slot && hi - lo + 1 <= rules.max_run_size; ++hi) {
        const unsigned interval = ((1u << (hi + 1)) - 1) & ~((1u << lo) - 1);
        unsigned missing = interval & ~avail;
        if (lo == 1 && hi == 14 && aces < 2 && !(missing & (1u << 14))) missing |= 1u << 14;
        if (std::popcount(missing) > 1) {
          if (!(lo == 1 && hi == 14)) break;
          continue;
        }
        const unsigned naturals = interval & ~missing;
        CardSet base;
        bool ok = true;
        for (unsigned m = naturals; m && ok; m &= m - 1) ok = base.add(slot_card(std::countr_zero(m)));
        if (!ok) continue;
        auto with_wild = [&](CardSet set) {
          for (int w = 0; w < wilds; ++w) {
            CardSet x = set;
            if (x.add(wild_kinds[w]) && x.subset_of(hand)) out.push_back(candidate(x));
          }
        };
        if (missing) {
          with_wild(base);
        } else {
          out.push_back(candidate(base));
          for (unsigned m = naturals; m; m &= m - 1) {
            CardSet without = base;
            without.remove(slot_card(std::countr_zero(m)));
            with_wild(without);
          }
        }
      }
    }
  }
}

Move simple_move(MoveKind kind) {
  Move m;
  m.kind = kind;
  return m;
}

}  // namespace

bool move_less(const Move& a, const Move& b) {
  if (a.kind != b.kind) return a.kind < b.kind;
  switch (a.kind) {
    case MoveKind::Meld: return meld_key(a.cards) < meld_key(b.cards);
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
  // New melds: candidate multisets in canonical order, deduplicated, then checked like push()
  // checks them. The scratch buffer is per thread and keeps its capacity between calls.
  thread_local std::vector<MeldCandidate> candidates;
  candidates.clear();
  add_set_candidates(hand, rules, candidates);
  add_run_candidates(hand, rules, candidates);
  std::sort(candidates.begin(), candidates.end(),
            [](const MeldCandidate& a, const MeldCandidate& b) { return a.key < b.key; });
  std::uint16_t set_ranks = 0;
  for (int i = 0; i < s.meld_count; ++i)
    if (s.meld_side[i] == side && s.melds[i].kind == MeldKind::Set)
      set_ranks |= static_cast<std::uint16_t>(1u << s.melds[i].rank);
  const CardSet* previous = nullptr;
  for (const MeldCandidate& c : candidates) {
    if (previous && *previous == c.cards) continue;  // equal multisets sort next to each other
    previous = &c.cards;
    if (c.set_rank) {
      assert(make_meld(c.cards, rules).ok());
      if (set_ranks & (1u << c.set_rank)) continue;  // one set per rank per side (B.2)
    } else {
      const MeldResult r = make_meld(c.cards, rules);
      if (!r.ok()) continue;
      if (r.meld.kind == MeldKind::Set && (set_ranks & (1u << r.meld.rank))) continue;
    }
    Move move{MoveKind::Meld, Card{}, 0, c.cards};
    if (hand.size() - c.cards.size() >= 2) {
      if (s.meld_count < kMaxMelds) out.push_back(move);
    } else {
      GameState t = s;
      if (apply_move(t, rules, move).ok()) out.push_back(move);
    }
  }
  // Lay-offs, by meld index then card. Only a card of the meld's rank (a set) or suit (a run),
  // or a wild, can ever be laid off on it (RULES B.2, B.6): the others are not tried.
  const CardSet distinct = hand.distinct();
  constexpr std::uint64_t kWildBits = CardSet::kJokerBits | CardSet::rank_column(kTwo);
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
      if (!lay_off(meld, c, rules).ok()) return;
      Move move{MoveKind::Add, c, static_cast<std::uint32_t>(index), CardSet{}};
      if (hand.size() - 1 >= 2) {
        out.push_back(move);
      } else {
        GameState t = s;
        if (apply_move(t, rules, move).ok()) out.push_back(move);
      }
    });
    ++index;
  }
  // Discards: with two or more cards in hand only the C.5 hold can refuse one (check_discard).
  const bool many = hand.size() > 1, held = s.hold.valid();
  distinct.for_each([&](Card c) {
    if (many ? !(held && hold_blocks(s, rules, c)) : check_discard(s, rules, c) == MoveError::Ok)
      out.push_back(Move{MoveKind::Discard, c, 0, CardSet{}});
  });
}

}  // namespace burraco
