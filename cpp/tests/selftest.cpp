// burraco_selftest — C++-only checks of the core, run under AddressSanitizer and
// UndefinedBehaviorSanitizer in CI (.ci/run). The rules themselves are held to the Python
// reference by the differential tests; this driver checks internal consistency:
//   * CardSet against a plain count array, exhaustively on a small universe and on random ops;
//   * every meld made from a universe of proposals, and every lay-off onto it, round-trips through
//     its layout text, conserves its cards and keeps the naturals where they were (RULES B.6 L1,
//     the two-conversion aside).
#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "burraco/actions.hpp"
#include "burraco/arena.hpp"
#include "burraco/cardset.hpp"
#include "burraco/heuristic.hpp"
#include "burraco/game.hpp"
#include "burraco/greedy.hpp"
#include "burraco/ismcts.hpp"
#include "burraco/rng.hpp"
#include "burraco/meld.hpp"
#include "burraco/native.hpp"
#include "burraco/observation.hpp"
#include "burraco/policies.hpp"
#include "burraco/rules.hpp"
#include "burraco/validate.hpp"
#include "burraco/vecenv.hpp"
#include "fuzz_check.hpp"
#include "../src/turn.hpp"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

using namespace burraco;

int check_game_history();  // game_history_check.cpp
int check_block_cache();   // block_cache_check.cpp
int check_rules_values();  // rules_values_check.cpp
int check_ismcts_options();  // ismcts_options_check.cpp
int check_vecenv_args();    // vecenv_args_check.cpp
int check_pack_texts();    // pack_check.cpp

namespace {

int failures = 0;
#define CHECK(cond)                                                              \
  do {                                                                           \
    if (!(cond)) {                                                               \
      if (++failures <= 20) std::fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); \
    }                                                                            \
  } while (0)

std::uint64_t splitmix(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

using Counts = std::array<int, kKinds>;

// A CardSet's capacity (three decks), and the copies of a two-deck pack.
int limit(int kind) { return kind == kJoker ? kMaxJokers : kMaxSuitedCopies; }
int two_deck_limit(int kind) { return kind == kJoker ? kTwoDeckJokers : kTwoDeckCopies; }

CardSet from_counts(const Counts& c) {
  CardSet s;
  for (int k = 0; k < kKinds; ++k)
    for (int i = 0; i < c[k]; ++i) CHECK(s.add(Card(static_cast<std::uint8_t>(k))));
  return s;
}

bool matches(CardSet s, const Counts& c) {
  int total = 0;
  for (int k = 0; k < kKinds; ++k) {
    if (s.count(Card(static_cast<std::uint8_t>(k))) != c[k]) return false;
    total += c[k];
  }
  int seen = 0, last = -1;
  bool ordered = true;
  s.for_each([&](Card card) {
    ++seen;
    ordered = ordered && card.index >= last;
    last = card.index;
  });
  // The thermometer planes readers see: nested for the suited kinds, counting every card once per
  // plane it reaches, and building the same set again.
  const std::uint64_t ranks = CardSet::kRankBits;
  const bool nested = (s.two() & ~s.one()) == 0 && (s.three() & ranks & ~s.two()) == 0;
  const bool planes = std::popcount(s.one()) + std::popcount(s.two()) + std::popcount(s.three()) == total &&
                      CardSet(s.one(), s.two(), s.three()) == s;
  return s.size() == total && seen == total && ordered && nested && planes;
}

void check_cardset() {
  // Exhaustive over four kinds (two suited kinds of different suits, a two, the joker), every
  // count up to the capacity (three copies, six jokers).
  const std::array<int, 4> kinds = {0, 14, 27, kJoker};
  const int options = 4 * 4 * 4 * 7;
  for (int a = 0; a < options; ++a)
    for (int b = 0; b < options; ++b) {
      Counts ca{}, cb{};
      int x = a, y = b;
      for (int i = 0; i < 4; ++i) {
        const int base = i == 3 ? 7 : 4;
        ca[kinds[i]] = x % base;
        cb[kinds[i]] = y % base;
        x /= base;
        y /= base;
      }
      const CardSet sa = from_counts(ca), sb = from_counts(cb);
      CHECK(matches(sa, ca));
      bool subset = true, sum_fits = true;
      Counts sum{}, diff{}, mx{}, mn{};
      for (int k = 0; k < kKinds; ++k) {
        subset = subset && ca[k] <= cb[k];
        sum[k] = ca[k] + cb[k];
        sum_fits = sum_fits && sum[k] <= limit(k);
        diff[k] = cb[k] - ca[k];
        mx[k] = std::max(ca[k], cb[k]);
        mn[k] = std::min(ca[k], cb[k]);
      }
      CHECK(sa.subset_of(sb) == subset);
      for (int copies = 1; copies <= 3; ++copies)
        for (int jokers = 0; jokers <= 6; ++jokers) {
          bool within = ca[kJoker] <= jokers;
          for (int i = 0; i < 3; ++i) within = within && ca[kinds[i]] <= copies;
          CHECK(sa.within(copies, jokers) == within);
        }
      CHECK((sa == sb) == (ca == cb));
      CardSet out(7, 7);
      CHECK(sa.sum(sb, out) == sum_fits);
      if (sum_fits) CHECK(matches(out, sum));
      else CHECK(out == CardSet(7, 7));
      CardSet out2(7, 7);
      CHECK(sb.difference(sa, out2) == subset);
      if (subset) CHECK(matches(out2, diff));
      CHECK(matches(sa.max_with(sb), mx));
      CHECK(matches(sa.min_with(sb), mn));
    }
  // Random add/remove sequences over the whole deck.
  std::uint64_t rng = 12345;
  for (int round = 0; round < 2000; ++round) {
    Counts c{};
    CardSet s;
    for (int step = 0; step < 60; ++step) {
      const int k = static_cast<int>(splitmix(rng) % kKinds);
      const Card card(static_cast<std::uint8_t>(k));
      if (splitmix(rng) % 3) {
        const bool fits = c[k] < limit(k);
        CHECK(s.add(card) == fits);
        if (fits) ++c[k];
      } else {
        const bool held = c[k] > 0;
        CHECK(s.remove(card) == held);
        if (held) --c[k];
      }
      CHECK(matches(s, c));
    }
  }
}

// Every multiset of up to `max_size` cards over `kinds` (each at most as often as two decks hold).
template <class F>
void for_each_multiset(const std::vector<int>& kinds, int max_size, F&& f) {
  std::vector<int> counts(kinds.size(), 0);
  CardSet set;
  auto rec = [&](auto&& self, std::size_t i, int size) -> void {
    if (i == kinds.size()) {
      f(set);
      return;
    }
    self(self, i + 1, size);
    const Card card(static_cast<std::uint8_t>(kinds[i]));
    int added = 0;
    while (size + added < max_size && set.count(card) < two_deck_limit(kinds[i]) && set.add(card)) {
      ++added;
      self(self, i + 1, size + added);
    }
    for (int j = 0; j < added; ++j) set.remove(card);
  };
  rec(rec, 0, 0);
}

// greedy_usefulness (read off the planes) against its definition in docs/search.md, card by card:
// 10 per other card of the rank, 1 per other card of the suit at distance 1 or 2 (the ace low and
// high; twos never count), 1000 for a wild; and hand_usefulness and Rules::points_of against the
// sums over the cards, and the usefulness lost with one card. Random hands of 0 to 40 cards with up
// to three copies of a kind (the planes' closed forms, and the count-by-count path of a third copy).
void check_usefulness() {
  Rng rng(11);
  for (int trial = 0; trial < 4000; ++trial) {
    CardSet hand;
    const int size = static_cast<int>(rng.next() % 41);
    for (int i = 0; i < size; ++i) hand.add(Card{static_cast<std::uint8_t>(rng.next() % kKinds)});
    hand.for_each([&](Card c) {
      int expected = 1000;
      if (!c.is_wild()) {
        CardSet others = hand;
        others.remove(c);
        expected = 0;
        others.for_each([&](Card o) {
          if (o.is_joker()) return;
          if (o.rank() == c.rank()) expected += 10;
          if (o.suit() != c.suit() || o.is_two() || o.rank() == c.rank()) return;
          int d = std::abs(o.rank() - c.rank());
          if (o.rank() == kAce) d = std::min(d, 14 - c.rank());
          if (c.rank() == kAce) d = std::min(d, 14 - o.rank());
          if (d == 1 || d == 2) expected += 1;
        });
      }
      CHECK(greedy_usefulness(hand, c) == expected);
      // The usefulness sums a weight over ordered pairs that does not depend on the order: taking
      // a natural out loses twice its greedy usefulness (the heuristic's tallies rely on it).
      CardSet rest = hand;
      rest.remove(c);
      CHECK(hand_usefulness(rest) == hand_usefulness(hand) - (c.is_wild() ? 0 : 2 * expected));
    });
    int sum = 0, points = 0;
    const Rules italian = *preset_rules("italian"), brazilian = *preset_rules("brazilian");
    int points_brazilian = 0;
    hand.for_each([&](Card c) {
      if (!c.is_wild()) sum += greedy_usefulness(hand, c);
      points += italian.card_points(c);
      points_brazilian += brazilian.card_points(c);
    });
    CHECK(hand_usefulness(hand) == sum);
    CHECK(italian.points_of(hand) == points && brazilian.points_of(hand) == points_brazilian);
  }
}

long melds_checked = 0, layoffs_checked = 0;

void check_meld_value(const Meld& meld, const Rules& rules) {
  const MeldResult parsed = parse_layout(layout(meld), rules);
  CHECK(parsed.ok());
  CHECK(parsed.meld == meld);
  CHECK(meld.size() >= 3);
  if (meld.kind == MeldKind::Run) {
    const int span = meld.hi - meld.lo + 1;
    CHECK(span == meld.size());
    CHECK(meld.lo >= rules.min_slot() && meld.hi <= rules.max_slot());
    CHECK(span <= rules.max_run_size);
    CardSet rebuilt;
    for (int s = meld.lo; s <= meld.hi; ++s)
      CHECK(rebuilt.add(s == meld.wild_slot ? meld.wild : meld.slot_card(s)));
    CHECK(rebuilt == meld.cards);
  }
  (void)meld.classify(rules);
  (void)meld.bonus(rules);
  (void)meld.points(rules);
}

void check_melds(const Rules& rules) {
  // One suit (hearts) with a two of clubs and the jokers: every proposal of up to 7 cards.
  std::vector<int> kinds;
  for (int r = 1; r <= 13; ++r) kinds.push_back(Card::suited(2, r).index);
  kinds.push_back(Card::suited(0, kTwo).index);
  kinds.push_back(kJoker);
  std::vector<Meld> melds;
  for_each_multiset(kinds, 7, [&](CardSet proposal) {
    const MeldResult r = make_meld(proposal, rules);
    if (!r.ok()) return;
    CHECK(r.meld.cards == proposal);
    check_meld_value(r.meld, rules);
    ++melds_checked;
    if (proposal.size() <= 5) melds.push_back(r.meld);
  });
  // One rank (sevens) plus wilds.
  std::vector<int> sevens;
  for (int s = 0; s < kSuits; ++s) sevens.push_back(Card::suited(s, 7).index);
  sevens.push_back(Card::suited(1, kTwo).index);
  sevens.push_back(kJoker);
  for_each_multiset(sevens, 10, [&](CardSet proposal) {
    const MeldResult r = make_meld(proposal, rules);
    if (!r.ok()) return;
    check_meld_value(r.meld, rules);
    ++melds_checked;
    melds.push_back(r.meld);
  });
  // Every single lay-off, twice deep.
  for (const Meld& meld : melds)
    for (int k = 0; k < kKinds; ++k) {
      const Card card(static_cast<std::uint8_t>(k));
      const MeldResult once = lay_off(meld, card, rules);
      CHECK(can_lay_off(meld, card, rules) == once.ok());
      if (!once.ok()) {
        CHECK(once.meld == meld);  // a refused lay-off changes nothing
        continue;
      }
      ++layoffs_checked;
      check_meld_value(once.meld, rules);
      CardSet expected = meld.cards;
      CHECK(expected.add(card));
      CHECK(once.meld.cards == expected);
      if (meld.kind == MeldKind::Run) {
        // RULES B.6 L1: naturals stay put, except a converted low natural two.
        const unsigned before = meld.natural_slots() & ~(1u << 2);
        CHECK((once.meld.natural_slots() & before) == before);
      }
      for (int k2 = 0; k2 < kKinds; k2 += 3) {
        const MeldResult twice = lay_off(once.meld, Card(static_cast<std::uint8_t>(k2)), rules);
        CHECK(can_lay_off(once.meld, Card(static_cast<std::uint8_t>(k2)), rules) == twice.ok());
        if (twice.ok()) {
          ++layoffs_checked;
          check_meld_value(twice.meld, rules);
        }
      }
    }
}

// ---- game invariants over random playouts --------------------------------------------------------

long hands_played = 0, moves_played = 0;

void check_conservation(const GameState& s, const Rules& rules) {
  std::array<int, kKinds> count{};
  auto tally = [&](CardSet set) { set.for_each([&](Card c) { ++count[c.index]; }); };
  for (int p = 0; p < s.players; ++p) {
    tally(s.hands[p]);
    CHECK(s.known[p].subset_of(s.hands[p]));
  }
  tally(s.pile);
  CHECK(s.pile.size() == s.pile_size);
  for (int i = s.stock_pos; i < s.stock_end; ++i) ++count[s.stock[i].index];
  for (int i = 0; i < s.meld_count; ++i) tally(s.melds[i].cards);
  for (const Packet& p : s.packets)
    if (p.status == PacketStatus::Untaken || p.status == PacketStatus::FaceDown ||
        p.status == PacketStatus::Seen)
      for (int i = 0; i < p.size; ++i) ++count[p.cards[i].index];
  for (int k = 0; k < kKinds; ++k) CHECK(count[k] == (k == kJoker ? rules.jokers : rules.decks));
}

bool contains(const std::vector<Move>& moves, const Move& m) {
  for (const Move& x : moves)
    if (x == m) return true;
  return false;
}

void check_playouts(const Rules& rules, int hands, std::uint64_t seed) {
  std::vector<Move> moves;
  std::uint64_t rng = seed;
  for (int h = 0; h < hands; ++h) {
    GameState s = deal_seeded(rules, splitmix(rng), h % rules.players, {});
    ++hands_played;
    for (int step = 0; !s.over(); ++step) {
      CHECK(step < 5000);  // every hand ends
      if (step >= 5000) break;
      check_conservation(s, rules);
      GameState parsed;
      Rules parsed_rules;
      std::string error;
      const std::string text = state_string(s, rules);
      CHECK(parse_state_string(text, parsed, parsed_rules, error));
      CHECK(state_string(parsed, parsed_rules) == text);
      // Every seat's determinization is a position of play with that seat's observation (seen
      // from another seat, a lone hidden card of the seat to act is one it can move with:
      // docs/search.md "Determinization" step 4).
      for (int seat = 0; seat < s.players; ++seat) {
        const Observation seen = observe(s, rules, seat);
        const GameState det = determinize(seen, rules, static_cast<std::uint64_t>(step) * 8 + seat);
        CHECK(validate_state(det, rules).empty());
        CHECK(observation_string(observe(det, rules, seat), rules) == observation_string(seen, rules));
      }
      legal_moves(s, rules, moves);
      CHECK(!moves.empty());
      if (moves.empty()) break;
      for (std::size_t i = 1; i < moves.size(); ++i) CHECK(move_less(moves[i - 1], moves[i]));
      // Every listed move is accepted; every unlisted discard / lay-off is refused.
      for (const Move& m : moves) {
        GameState t = s;
        CHECK(apply_move(t, rules, m).ok());
      }
      if (s.phase == Phase::Meld) {
        for (int k = 0; k < kKinds; ++k) {
          Move m;
          m.kind = MoveKind::Discard;
          m.card = Card(static_cast<std::uint8_t>(k));
          GameState t = s;
          const bool ok = apply_move(t, rules, m).ok();
          CHECK(ok == contains(moves, m));
          if (!ok) CHECK(state_string(t, rules) == text);  // an illegal move changes nothing
          m.kind = MoveKind::Add;
          for (int index = 0; index < 6; ++index) {
            m.index = static_cast<std::uint32_t>(index);
            GameState u = s;
            CHECK(apply_move(u, rules, m).ok() == contains(moves, m));
          }
        }
      }
      // Mostly draw from the stock, else prefer melds and lay-offs, else anything.
      const std::uint64_t roll = splitmix(rng) % 100;
      const Move* pick = &moves[splitmix(rng) % moves.size()];
      if (roll < 85 && (moves[0].kind == MoveKind::Draw || moves[0].kind == MoveKind::Keep)) {
        pick = &moves[0];
      } else if (roll < 95) {
        std::vector<const Move*> building;
        for (const Move& m : moves)
          if (m.kind == MoveKind::Meld || m.kind == MoveKind::Add) building.push_back(&m);
        if (!building.empty()) pick = building[splitmix(rng) % building.size()];
      }
      CHECK(apply_move(s, rules, *pick).ok());
      ++moves_played;
    }
    check_conservation(s, rules);
    const HandResult r = score_hand(s, rules);
    CHECK(r.side_count >= 2);
  }
}

// ---- new melds against brute force ---------------------------------------------------------------

long new_meld_positions = 0, new_melds_checked = 0, new_melds_with_third = 0;

// The canonical order of new melds (docs/game.md), from its definition: the card index sequences
// compared lexicographically, a prefix first.
bool index_sequence_less(CardSet a, CardSet b) {
  std::vector<int> x, y;
  a.for_each([&](Card c) { x.push_back(c.index); });
  b.for_each([&](Card c) { y.push_back(c.index); });
  return std::lexicographical_compare(x.begin(), x.end(), y.begin(), y.end());
}

// Every sub-multiset of `hand` with three cards or more.
template <class F>
void for_each_sub_multiset(CardSet hand, F&& f) {
  std::vector<std::pair<Card, int>> kinds;  // each kind held and how often
  hand.for_each([&](Card c) {
    if (kinds.empty() || kinds.back().first != c) kinds.push_back({c, 0});
    ++kinds.back().second;
  });
  CardSet set;
  auto rec = [&](auto&& self, std::size_t i, int size) -> void {
    if (i == kinds.size()) {
      if (size >= 3) f(set);
      return;
    }
    self(self, i + 1, size);
    int added = 0;
    for (; added < kinds[i].second; ++added) {
      CHECK(set.add(kinds[i].first));
      self(self, i + 1, size + added + 1);
    }
    for (int j = 0; j < added; ++j) set.remove(kinds[i].first);
  };
  rec(rec, 0, 0);
}

// The move generator's new melds (a walk that grows each meld card by card in canonical order)
// against brute force: every sub-multiset of the hand that apply_move takes as a new meld, in
// canonical order, and move_less against the order's definition. Positions of seeded hands played
// some random moves in (melds on the table, so a side's set ranks count), with the hand to act
// replaced by a random one over a small pool of kinds, so that sets, runs, wilds and repeated
// copies are common: with two decks, and with three, where a set may hold a third copy.
void check_new_melds(std::string_view preset, int decks, std::uint64_t seed, int positions) {
#ifndef NDEBUG
  // The swapped-in hand breaks the pack's conservation: no whole-state validation in debug builds
  // (only the outermost apply_move validates).
  const detail::NestedCall quiet;
#endif
  const Rules dealt = *preset_rules(preset);
  Rules rules = dealt;
  rules.decks = decks;
  if (decks == 3 && rules.jokers == 4) rules.jokers = 6;
  const int copies = decks, jokers = rules.jokers;
  std::uint64_t rng = seed;
  std::vector<Move> moves;
  for (int done = 0; done < positions;) {
    GameState s = deal_seeded(dealt, splitmix(rng), 0, {});
    const int steps = static_cast<int>(splitmix(rng) % 80);
    for (int i = 0; i < steps && !s.over(); ++i) {
      legal_moves(s, dealt, moves);
      // Prefer melds and lay-offs, so the table fills.
      const Move* pick = &moves[splitmix(rng) % moves.size()];
      for (const Move& m : moves)
        if ((m.kind == MoveKind::Meld || m.kind == MoveKind::Add) && splitmix(rng) % 3 == 0) {
          pick = &m;
          break;
        }
      CHECK(apply_move(s, dealt, *pick).ok());
    }
    while (!s.over() && s.phase == Phase::Draw) {
      legal_moves(s, dealt, moves);
      CHECK(apply_move(s, dealt, moves[0]).ok());
    }
    if (s.over()) continue;
    // The pool: a window of five ranks in two suits, one rank in every suit, two twos, the joker.
    std::vector<Card> pool;
    const int low = 1 + static_cast<int>(splitmix(rng) % 10);
    const int suit_a = static_cast<int>(splitmix(rng) % 4), suit_b = (suit_a + 1) % 4;
    for (int r = low; r < low + 5; ++r) {
      const int rank = r > kRanks ? r - kRanks : r;
      pool.push_back(Card::suited(suit_a, rank));
      pool.push_back(Card::suited(suit_b, rank));
    }
    const int column = 1 + static_cast<int>(splitmix(rng) % kRanks);
    for (int suit = 0; suit < kSuits; ++suit) pool.push_back(Card::suited(suit, column));
    pool.push_back(Card::suited(static_cast<int>(splitmix(rng) % 4), kTwo));
    pool.push_back(Card::suited(static_cast<int>(splitmix(rng) % 4), kTwo));
    if (jokers) pool.push_back(Card::joker());
    CardSet hand;
    const int size = 3 + static_cast<int>(splitmix(rng) % 12);
    for (int tries = 0; hand.size() < size && tries < 200; ++tries) {
      const Card c = pool[splitmix(rng) % pool.size()];
      if (hand.count(c) < (c.is_joker() ? jokers : copies)) CHECK(hand.add(c));
    }
    s.hands[s.turn] = hand;
    s.known[s.turn] = CardSet{};
    legal_moves(s, rules, moves);
    std::vector<CardSet> listed;
    for (const Move& m : moves)
      if (m.kind == MoveKind::Meld) listed.push_back(m.cards);
    std::vector<CardSet> expected;
    for_each_sub_multiset(hand, [&](CardSet cards) {
      GameState t = s;
      if (apply_move(t, rules, Move{MoveKind::Meld, Card{}, 0, cards}).ok()) expected.push_back(cards);
    });
    std::sort(expected.begin(), expected.end(), index_sequence_less);
    CHECK(listed == expected);
    for (std::size_t i = 0; i < expected.size(); ++i) {
      if (expected[i].three() & CardSet::kRankBits) ++new_melds_with_third;
      // move_less is the order's definition, on neighbours and on a spread of other pairs.
      for (std::size_t j = i % 7; j < expected.size(); j += 7) {
        const Move a{MoveKind::Meld, Card{}, 0, expected[i]}, b{MoveKind::Meld, Card{}, 0, expected[j]};
        CHECK(move_less(a, b) == index_sequence_less(expected[i], expected[j]));
      }
    }
    new_melds_checked += static_cast<long>(expected.size());
    ++new_meld_positions;
    ++done;
  }
}

// ---- information-set search ----------------------------------------------------------------------

// Ismcts::choose in every preset: a legal move, the same one (and the same root statistics) for
// the same seed, and blind to the hidden cards: states that differ only in cards the seat to act
// cannot see (two other hands exchange a hidden card, another hand trades one with the stock, two
// stock cards trade places, an untaken packet trades a card with the stock) give the same search.
void check_ismcts() {
  long searches = 0, swaps = 0;
  auto same_root = [](const std::vector<IsmctsChild>& a, const std::vector<IsmctsChild>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
      if (!(a[i].move == b[i].move) || a[i].visits != b[i].visits ||
          a[i].availability != b[i].availability || a[i].reward != b[i].reward)
        return false;
    return true;
  };
  // Seat q's cards nobody else has seen (its hand less its known cards), in canonical order.
  auto hidden_cards = [](const GameState& s, int q) {
    CardSet hidden;
    CHECK(s.hands[q].difference(s.known[q], hidden));
    std::vector<Card> out;
    hidden.for_each([&](Card c) { out.push_back(c); });
    return out;
  };
  auto hidden_swaps = [&](const GameState& s) {
    std::vector<GameState> out;
    std::vector<int> others;
    for (int q = 0; q < s.players; ++q)
      if (q != s.turn && !hidden_cards(s, q).empty()) others.push_back(q);
    if (others.size() >= 2) {
      const int a = others[0], b = others[1];
      const std::vector<Card> xs = hidden_cards(s, a), ys = hidden_cards(s, b);
      for (std::size_t i = 0; i < xs.size() && out.empty(); ++i)
        for (const Card y : ys)
          if (!(xs[i] == y)) {
            GameState t = s;
            CHECK(t.hands[a].remove(xs[i]) && t.hands[b].remove(y));
            CHECK(t.hands[a].add(y) && t.hands[b].add(xs[i]));
            out.push_back(t);
            break;
          }
    }
    if (!others.empty() && s.stock_size() > 0) {
      const int a = others.back(), last = s.stock_end - 1;
      for (const Card x : hidden_cards(s, a))
        if (!(s.stock[last] == x)) {
          GameState t = s;
          CHECK(t.hands[a].remove(x) && t.hands[a].add(s.stock[last]));
          t.stock[last] = x;
          out.push_back(t);
          break;
        }
    }
    for (int i = s.stock_pos + 1; i < s.stock_end; ++i)
      if (!(s.stock[i] == s.stock[s.stock_pos])) {
        GameState t = s;
        std::swap(t.stock[s.stock_pos], t.stock[i]);
        out.push_back(t);
        break;
      }
    for (int k = 0; k < kPackets; ++k) {
      const Packet& p = s.packets[k];
      if (p.status == PacketStatus::Untaken && p.size > 0 && s.stock_size() > 0 &&
          !(p.cards[0] == s.stock[s.stock_pos])) {
        GameState t = s;
        std::swap(t.packets[k].cards[0], t.stock[t.stock_pos]);
        out.push_back(t);
        break;
      }
    }
    return out;
  };
  std::vector<std::string_view> presets(kPresetNames.begin(), kPresetNames.end());
  presets.push_back("brazilian:players=2");
  std::uint64_t rng = 11;
  for (const std::string_view text : presets) {
    Rules rules;
    std::string error;
    CHECK(parse_rules_text(text, rules, error));
    std::vector<Move> moves;
    const std::uint64_t seed = splitmix(rng);
    // Whole rollouts except in the brazilian presets, whose random hands run long and whose
    // greedy hands can loop (a failed opening returns its melds; greedy melds them again).
    const bool brazilian = rules.preset == Preset::Brazilian;
    // The search before its options (random rollouts, win reward, every seat in the tree), the
    // defaults, and each option (docs/search.md "Search options").
    auto with = [](IsmctsParams p, auto&& change) {
      change(p);
      return p;
    };
    const std::array<IsmctsParams, 6> settings = {
        with(IsmctsParams{120, seed, 0.7, Policy::Random, brazilian ? 60 : -1}, [](IsmctsParams& p) {
          p.reward = IsmctsReward::Win;
          p.opponents = IsmctsOpponents::Tree;
        }),
        IsmctsParams{150, seed + 1, 0.7, Policy::Greedy, brazilian ? 12 : -1},
        with(IsmctsParams{200, seed + 2, 1.0, Policy::Random, 0},
             [](IsmctsParams& p) { p.opponents = IsmctsOpponents::Tree; }),
        with(IsmctsParams{90, seed + 3, 0.7, Policy::Heuristic, 4}, [](IsmctsParams& p) {
          p.evaluation = IsmctsEvaluation::Heuristic;
        }),
        with(IsmctsParams{160, seed + 4, 0.7, Policy::Greedy, 10}, [](IsmctsParams& p) {
          p.threads = 2;
          p.opponents = IsmctsOpponents::Heuristic;
        }),
        with(IsmctsParams{140, seed + 5, 0.5, Policy::Greedy, 20}, [](IsmctsParams& p) {
          p.opponents = IsmctsOpponents::Tree;
          p.reward = IsmctsReward::Win;
          p.evaluation = IsmctsEvaluation::Heuristic;
          p.threads = 3;
        }),
    };
    for (int position = 0; position < 12; ++position) {
      GameState s = deal_seeded(rules, splitmix(rng), position % rules.players, {});
      // Moves in (deeper for each position; mostly from the stock, so that the hand lasts),
      // then on to a decision with a real choice.
      const int walk = static_cast<int>(splitmix(rng) % 12) + 14 * (position % 6);
      for (int k = 0; !s.over(); ++k) {
        legal_moves(s, rules, moves);
        if (k >= walk && moves.size() > 1) break;
        const bool stock = moves[0].kind == MoveKind::Draw && splitmix(rng) % 100 < 85;
        CHECK(apply_move(s, rules, moves[stock ? 0 : splitmix(rng) % moves.size()]).ok());
      }
      CHECK(!s.over());
      if (s.over()) continue;
      legal_moves(s, rules, moves);
      const IsmctsParams& params = settings[static_cast<std::size_t>(position) % settings.size()];
      Ismcts search(params);
      const Move chosen = search.choose(s, rules);
      ++searches;
      CHECK(contains(moves, chosen));
      CHECK(search.iterations() == params.iterations);
      CHECK(search.nodes() >= 2 && search.nodes() <= params.iterations + params.threads);
      const std::vector<IsmctsChild> root = search.root_children();
      int visits = 0, most = 0;
      for (std::size_t i = 0; i < root.size(); ++i) {
        CHECK(contains(moves, root[i].move));
        CHECK(root[i].visits >= 1 && root[i].availability >= root[i].visits);
        CHECK(root[i].reward >= 0 && root[i].reward <= root[i].visits);
        if (i) CHECK(move_less(root[i - 1].move, root[i].move));
        visits += root[i].visits;
        most = std::max(most, root[i].visits);
      }
      CHECK(visits == params.iterations);
      for (const IsmctsChild& c : root)  // the most visited, ties to the canonical first
        if (c.visits == most) {
          CHECK(c.move == chosen);
          break;
        }
      Ismcts again(params);
      CHECK(again.choose(s, rules) == chosen);
      CHECK(same_root(again.root_children(), root));
      const std::string seen = observation_string(observe(s, rules, s.turn), rules);
      for (const GameState& t : hidden_swaps(s)) {
        CHECK(observation_string(observe(t, rules, t.turn), rules) == seen);
        check_conservation(t, rules);
        Ismcts blind(params);
        CHECK(blind.choose(t, rules) == chosen);
        CHECK(same_root(blind.root_children(), root));
        ++swaps;
      }
    }
    // A forced move comes back without a search.
    GameState s = deal_seeded(rules, seed, 0, {});
    for (int k = 0; k < 40 && !s.over(); ++k) {
      legal_moves(s, rules, moves);
      if (moves.size() == 1) {
        Ismcts search(settings[0]);
        CHECK(search.choose(s, rules) == moves[0]);
        CHECK(search.nodes() == 1);
        break;
      }
      CHECK(apply_move(s, rules, moves[splitmix(rng) % moves.size()]).ok());
    }
  }
  CHECK(searches >= 30 && swaps >= 3 * searches);
  std::printf("selftest: %ld searches, %ld hidden-card swaps checked\n", searches, swaps);
}

// The equity reward: match_equity's bounds, monotonicity and decided matches, and short equity
// searches of two-side presets with match scores near the target and at the start.
void check_equity() {
  const Rules italian = *preset_rules("italian");
  for (int a = -400; a <= 2400; a += 200)
    for (int b = -400; b <= 2400; b += 200) {
      double previous = -1;
      for (int h = -300; h <= 900; h += 50) {
        const double p = match_equity(italian, {double(a), double(b)}, {double(h), 100.0}, 720, 600);
        CHECK(p >= 0 && p <= 1 && p >= previous);
        previous = p;
      }
    }
  CHECK(match_equity(italian, {1900, 0}, {105, 0}, 720, 600) == 1.0);
  CHECK(match_equity(italian, {1900, 1950}, {100, 100}, 720, 600) == 0.0);
  CHECK(match_equity(italian, {1950, 1950}, {100, 100}, 720, 600) == 0.5);
  const double level = match_equity(italian, {1900, 0}, {100, 0}, 720, 600);  // 2000: not past
  CHECK(level > 0.99 && level < 1.0);
  long searches = 0;
  for (const std::string_view name : {"italian-2p", "italian", "brazilian"}) {
    const Rules rules = *preset_rules(name);
    for (const std::array<std::int32_t, kSideSlots> scores :
         {std::array<std::int32_t, kSideSlots>{}, std::array<std::int32_t, kSideSlots>{1850, 1700, 0, 0}}) {
      GameState s = deal_seeded(rules, 31 + static_cast<std::uint64_t>(searches), 0, scores);
      std::vector<Move> moves;
      legal_moves(s, rules, moves);
      IsmctsParams params{60, 9, 0.7, Policy::Greedy, rules.preset == Preset::Brazilian ? 20 : -1};
      params.reward = IsmctsReward::Equity;
      Ismcts search(params);
      CHECK(contains(moves, search.choose(s, rules)));
      for (const IsmctsChild& c : search.root_children()) CHECK(c.reward >= 0 && c.reward <= c.visits);
      ++searches;
    }
  }
  IsmctsParams params;
  params.reward = IsmctsReward::Equity;
  Ismcts refused(params);
  const Rules three = *preset_rules("italian-3p");
  bool thrown = false;
  try {
    refused.choose(deal_seeded(three, 1, 0, {}), three);
  } catch (const std::invalid_argument&) {
    thrown = true;
  }
  CHECK(thrown);
  std::printf("selftest: match equity checked, %ld equity searches\n", searches);
}

// ---- the whole-state validator (validate.hpp) and the issue-10 positions -------------------------

// The parser refuses `s` and names the invariant (its message contains `why`).
void check_refused(const GameState& s, const Rules& rules, std::string_view why) {
  GameState parsed;
  Rules parsed_rules;
  std::string error;
  const std::string text = state_string(s, rules);
  const bool accepted = parse_state_string(text, parsed, parsed_rules, error);
  CHECK(!accepted);
  CHECK(!validate_state(s, rules).empty());
  if (accepted || error.find(why) == std::string::npos)
    std::fprintf(stderr, "expected a refusal naming '%.*s', got '%s' for %s\n",
                 static_cast<int>(why.size()), why.data(), error.c_str(), text.c_str());
  CHECK(error.find(why) != std::string::npos);
}

bool accepted_text(const std::string& text) {
  GameState parsed;
  Rules rules;
  std::string error;
  return parse_state_string(text, parsed, rules, error);
}

// Plays random moves (stock draws and table moves preferred) until `stop` holds or the hand ends.
template <class Stop>
bool play_until(GameState& s, const Rules& rules, std::uint64_t& rng, Stop stop) {
  std::vector<Move> moves;
  for (int step = 0; step < 5000 && !s.over(); ++step) {
    if (stop(s)) return true;
    legal_moves(s, rules, moves);
    const Move* pick = &moves[splitmix(rng) % moves.size()];
    if (moves[0].kind == MoveKind::Draw && splitmix(rng) % 4) pick = &moves[0];
    std::vector<const Move*> building;
    for (const Move& m : moves)
      if (m.kind == MoveKind::Meld || m.kind == MoveKind::Add) building.push_back(&m);
    if (!building.empty() && splitmix(rng) % 3) pick = building[splitmix(rng) % building.size()];
    CHECK(apply_move(s, rules, *pick).ok());
  }
  return !s.over() && stop(s);
}

Move bare(MoveKind kind, Card card = Card{}) {
  Move m;
  m.kind = kind;
  m.card = card;
  return m;
}

void check_validator() {
  long refused = 0;
  std::uint64_t rng = 1010;
  // A face-down pozzetto waiting for the seat to act, whose hand is empty (its cards on the pile).
  {
    const Rules rules = *preset_rules("italian");
    GameState s = deal_seeded(rules, 3, 0, {});
    s.hands[0].for_each([&](Card c) { s.pile.add(c); ++s.pile_size; });
    s.hands[0] = CardSet{};
    s.packets[0].status = PacketStatus::FaceDown;
    s.packets[0].owner = 0;
    check_refused(s, rules, "waits face down for seat 0, who is to act");
    ++refused;
  }
  // A brazilian meld-phase hand of one card that may not be discarded: the side has its pozzetto
  // and no clean burraco, so the last card can neither go nor be laid off.
  {
    const Rules rules = *preset_rules("brazilian");
    bool found = false;
    for (int hand = 0; hand < 40 && !found; ++hand) {
      GameState s = deal_seeded(rules, splitmix(rng), 0, {});
      found = play_until(s, rules, rng, [&](const GameState& t) {
        const int side = side_of(t, rules, t.turn);
        if (t.phase != Phase::Meld || t.flags != 0 || t.deadlock != 0 || t.hands[t.turn].size() < 2 ||
            !side_took_packet(t, rules, side) || !t.opened[side])
          return false;
        for (int i = 0; i < t.meld_count; ++i)
          if (t.meld_side[i] == side && t.melds[i].size() >= 7 && t.melds[i].is_clean()) return false;
        return true;
      });
      if (!found) continue;
      Card keep{};
      s.hands[s.turn].for_each([&](Card c) { keep = c; });
      s.hands[s.turn].remove(keep);
      s.hands[s.turn].for_each([&](Card c) { s.pile.add(c); ++s.pile_size; });
      s.hands[s.turn] = CardSet{};
      s.hands[s.turn].add(keep);
      s.known[s.turn] = CardSet{};
      check_refused(s, rules, "has no legal move");
      ++refused;
    }
    CHECK(found);
  }
  // Three players: the split field erased after the first pozzetto was taken.
  {
    const Rules rules = *preset_rules("italian-3p");
    bool found = false;
    for (int hand = 0; hand < 40 && !found; ++hand) {
      GameState s = deal_seeded(rules, splitmix(rng), 0, {});
      found = play_until(s, rules, rng, [](const GameState& t) { return t.split >= 0; });
      if (!found) continue;
      CHECK(accepted_text(state_string(s, rules)));
      s.split = -1;
      for (int i = 0; i < s.meld_count; ++i) s.meld_side[i] = 0;  // even with the melds moved
      check_refused(s, rules, "split=-: a pozzetto was taken");
      ++refused;
    }
    CHECK(found);
  }
  // A stock at the threshold at a draw (nobody could draw again: the last turn's discard ended
  // the hand, RULES D.2).
  {
    const Rules rules = *preset_rules("italian");
    GameState s = deal_seeded(rules, 5, 0, {});
    while (s.stock_size() > rules.stock_end_threshold) {
      s.pile.add(s.stock[s.stock_pos++]);
      ++s.pile_size;
    }
    check_refused(s, rules, "at a draw, at or below stock_end_threshold=2");
    ++refused;
  }
  // Flags impossible in the phase, a hold without a one-card pile take, a first draw after play.
  {
    const Rules rules = *preset_rules("italian");
    GameState s = deal_seeded(rules, 6, 0, {});
    GameState t = s;
    t.flags = kPutDown;
    check_refused(t, rules, "belong to the meld phase");
    t = s;
    CHECK(apply_move(t, rules, bare(MoveKind::Draw)).ok());
    t.hold = t.top;
    check_refused(t, rules, "a hold needs a one-card pile take");
    const Rules brazilian = *preset_rules("brazilian");
    GameState b = deal_seeded(brazilian, 6, 0, {});
    CHECK(apply_move(b, brazilian, bare(MoveKind::Keep)).ok());
    b.flags |= kFirstDraw;
    check_refused(b, brazilian, "b (the first draw pending) in the meld phase");
    refused += 3;
  }
  // Only the canonical form: leading zeros, a plus sign, a space.
  {
    const Rules rules = *preset_rules("italian");
    const std::string text = state_string(deal_seeded(rules, 8, 1, {}), rules);
    CHECK(accepted_text(text));
    auto replaced = [&](const std::string& from, const std::string& to) {
      std::string t = text;
      t.replace(t.find(from), from.size(), to);
      return t;
    };
    CHECK(!accepted_text(replaced(";first=1;", ";first=01;")));
    CHECK(!accepted_text(replaced(";first=1;", ";first=+1;")));
    CHECK(!accepted_text(replaced(";deadlock=0;", ";deadlock=00;")));
    CHECK(!accepted_text(replaced(";turn=1;", ";turn= 1;")));
    CHECK(!accepted_text(replaced(";phase=draw;", ";phase=Draw;")));
    CHECK(!accepted_text(replaced(";seed=8;", ";seed=08;")));
  }
  std::printf("selftest: %ld unreachable positions refused\n", refused);
}

// keep and reject are stock draws: the threshold makes them the last turn (RULES D.2).
void check_keep_reject_last_turn() {
  Rules rules = *preset_rules("brazilian");
  rules.pozzetto_sizes = {30, 30};
  rules.stock_end_threshold = 10;
  CHECK(check_rules(rules).empty());  // 4 cards of stock: the first draw can still take one
  for (MoveKind kind : {MoveKind::Keep, MoveKind::Reject}) {
    GameState s = deal_seeded(rules, 0, 0, {});
    CHECK(apply_move(s, rules, bare(kind)).ok());
    CHECK(s.flags & kLastTurn);
    CHECK(validate_state(s, rules).empty());
    std::vector<Move> moves;
    legal_moves(s, rules, moves);
    const Move* discard = nullptr;
    for (const Move& m : moves)
      if (m.kind == MoveKind::Discard) discard = &m;
    CHECK(discard != nullptr);
    if (discard) {
      CHECK(apply_move(s, rules, *discard).ok());
      CHECK(s.over() && s.end == EndReason::StockExhausted);
    }
  }
  // The greedy playout of the issue ends (the reference: 5 moves).
  GameState s = deal_seeded(rules, 0, 0, {});
  std::vector<Move> buffer;
  const int moves = playout(s, rules, Policy::Greedy, 0, buffer, [](const GameState&, const Move&) {});
  CHECK(s.over());
  CHECK(moves > 0 && moves < 100);
  std::printf("selftest: keep/reject set the last turn; greedy ends in %d moves\n", moves);
}

// ---- native policies (burraco/policy.h) ------------------------------------------------------------

// The state the probe policy checks its view against (one thread: the selftest plays serially).
const GameState* probe_state = nullptr;
const Rules* probe_rules = nullptr;
long probe_calls = 0;
std::size_t probe_read_past = 0;  // move entries the probe read past move_count

bool same(burraco_cards a, CardSet b) { return a.one == b.one() && a.two == b.two(); }

// A native policy that reads every field of its view and checks it against the real state: the
// seat's own cards and the public ones as they are, nothing hidden; then a uniform choice.
std::int32_t probe_choose(const burraco_view* v, burraco_random* random, void*) {
  const GameState& s = *probe_state;
  ++probe_calls;
  CHECK(v->abi == BURRACO_POLICY_ABI && v->size == sizeof(burraco_view));
  CHECK(v->seat == s.turn && v->players == s.players && v->meld_count == s.meld_count);
  CHECK(same(v->hand, s.hands[s.turn]) && same(v->pile, s.pile));
  for (int q = 0; q < s.players; ++q) {
    CHECK(same(v->known[q], s.known[q]) && v->hand_sizes[q] == s.hands[q].size());
    CHECK(v->sides[q] == side_of(s, *probe_rules, q));
  }
  for (int k = 0; k < 2; ++k)  // the interface's two packets
    CHECK(same(v->packets[k].cards, packet_visible(s, s.turn, k) ? s.packets[k].set() : CardSet{}));
  std::array<int, kSideSlots> per_side{};
  for (int i = 0; i < v->meld_count; ++i) {
    const burraco_meld& m = v->melds[i];
    CHECK(same(m.cards, s.melds[i].cards) && m.side == s.meld_side[i]);
    CHECK(m.index == per_side[m.side]++ && m.size == s.melds[i].size());
    CHECK(m.points == s.melds[i].points(*probe_rules));
  }
  std::uint8_t cards[kMaxDeck];
  for (std::uint32_t i = 0; i < v->move_count; ++i) {
    const burraco_move& m = v->moves[i];
    CHECK(m.kind <= BURRACO_DISCARD);
    CHECK(burraco_cards_list(m.cards, cards) == burraco_cards_size(m.cards));
  }
  CHECK(v->rules->card_points[kJoker] == probe_rules->card_points(Card::joker()));
  // Past every count, to the end of what the policy can size (BURRACO_MAX_MELDS melds, the moves'
  // heap block), blank entries only: nothing of an earlier call (docs/native.md).
  burraco_meld blank_meld{};
  blank_meld.wild = BURRACO_NO_CARD;
  for (int i = v->meld_count; i < BURRACO_MAX_MELDS; ++i)
    CHECK(std::memcmp(&v->melds[i], &blank_meld, sizeof(burraco_meld)) == 0);
#if defined(__GLIBC__)
  burraco_move blank_move{};
  blank_move.card = BURRACO_NO_CARD;
  const std::size_t bytes = malloc_usable_size(const_cast<burraco_move*>(v->moves));
  for (std::size_t i = v->move_count; i < bytes / sizeof(burraco_move); ++i)
    CHECK(std::memcmp(&v->moves[i], &blank_move, sizeof(burraco_move)) == 0);
  const auto* tail = reinterpret_cast<const unsigned char*>(v->moves) + bytes / sizeof(burraco_move) * sizeof(burraco_move);
  for (std::size_t i = 0; i < bytes % sizeof(burraco_move); ++i) CHECK(tail[i] == 0);
  probe_read_past += bytes / sizeof(burraco_move) - v->move_count;
#endif
  return static_cast<std::int32_t>(burraco_random_below(random, v->move_count));
}

std::int32_t past_the_end(const burraco_view* v, burraco_random*, void*) {
  return static_cast<std::int32_t>(v->move_count);
}

// Native policies in the loops: the probe's checks in playouts of every preset and in ISMCTS
// rollouts; an index out of range stops the loop with PolicyError; another version is refused.
void check_native_policies() {
  const burraco_policy probe{BURRACO_POLICY_ABI, sizeof(burraco_policy), "probe", probe_choose, nullptr};
  const burraco_policy bad{BURRACO_POLICY_ABI, sizeof(burraco_policy), "past", past_the_end, nullptr};
  CHECK(check_native_policy(&probe).empty() && check_native_policy(&bad).empty());
  burraco_policy other = probe;
  other.abi = BURRACO_POLICY_ABI + 1;
  CHECK(check_native_policy(&other).find("version") != std::string::npos);
  other = probe;
  other.size = 4;
  CHECK(!check_native_policy(&other).empty());
  CHECK(!check_native_policy(nullptr).empty());
  const NativePolicy probe_hook(&probe), bad_hook(&bad);
  // A name that is not UTF-8 is shown with \xNN escapes (as Python's backslashreplace); UTF-8 as is.
  const burraco_policy latin1{BURRACO_POLICY_ABI, sizeof(burraco_policy), "caf\xe9 \xc3", probe_choose, nullptr};
  const burraco_policy utf8{BURRACO_POLICY_ABI, sizeof(burraco_policy), "caf\xc3\xa9 \xf0\x9f\x83\x8f",
                            probe_choose, nullptr};
  const burraco_policy surrogate{BURRACO_POLICY_ABI, sizeof(burraco_policy), "\xed\xa0\x80x\xf4\x90\x80\x80",
                                 probe_choose, nullptr};
  CHECK(NativePolicy(&latin1).name() == "caf\\xe9 \\xc3");
  CHECK(NativePolicy(&utf8).name() == "caf\xc3\xa9 \xf0\x9f\x83\x8f");
  CHECK(NativePolicy(&surrogate).name() == "\\xed\\xa0\\x80x\\xf4\\x90\\x80\\x80");
  for (std::string_view name : kPresetNames) {
    const Rules rules = *preset_rules(name);
    probe_rules = &rules;
    for (std::uint64_t seed = 0; seed < 4; ++seed) {
      GameState s = deal_seeded(rules, seed, 0, {});
      std::vector<Move> buffer;
      probe_state = &s;
      playout(s, rules, Policy::of(&probe_hook), seed, buffer,
              [](const GameState&, const Move&) {});
      CHECK(s.over() && validate_state(s, rules).empty());
    }
    GameState s = deal_seeded(rules, 9, 0, {});
    std::vector<Move> buffer;
    bool refused = false;
    try {
      playout(s, rules, Policy::of(&bad_hook), 1, buffer, [](const GameState&, const Move&) {});
    } catch (const PolicyError& e) {
      refused = std::string(e.what()).find("policy 'past' returned") != std::string::npos;
    }
    CHECK(refused);
  }
  const Rules rules = *preset_rules("italian-2p");
  probe_rules = &rules;
  GameState root = deal_seeded(rules, 3, 0, {});
  // In the rollouts the probe checks its view against the state of each call (a determinization
  // of the root): the hook below points it there first.
  struct Counting final : PolicyHook {
    const PolicyHook& inner;
    explicit Counting(const PolicyHook& h) : inner(h) {}
    std::int64_t choose(const GameState& s, const Rules& r, const std::vector<Move>& moves,
                        std::uint64_t random) const override {
      probe_state = &s;
      return inner.choose(s, r, moves, random);
    }
    const std::string& name() const override { return inner.name(); }
  } counting(probe_hook);
  Ismcts counted(IsmctsParams{80, 5, 0.7, Policy::of(&counting), 20});
  const long before = probe_calls;
  const Move chosen = counted.choose(root, rules);
  std::vector<Move> legal;
  legal_moves(root, rules, legal);
  CHECK(std::find(legal.begin(), legal.end(), chosen) != legal.end());
  CHECK(counted.iterations() == 80 && probe_calls > before);
#if defined(__GLIBC__)
  CHECK(probe_read_past > static_cast<std::size_t>(probe_calls));
#endif
  std::printf("selftest: native policies: %ld calls checked field by field, %zu move entries past "
              "the counts read blank\n", probe_calls, probe_read_past);
}

// forbid_discard_of_single_pile_card=False: no hold after a one-card pile take (RULES C.5).
void check_forbid_knob() {
  for (bool forbid : {true, false}) {
    Rules rules = *preset_rules("italian");
    rules.forbid_discard_of_single_pile_card = forbid;
    GameState s = deal_seeded(rules, 1, 0, {});
    const Card taken = s.top;
    const bool single_copy = s.hands[0].count(taken) == 0;
    CHECK(apply_move(s, rules, bare(MoveKind::Pile)).ok());
    CHECK(s.flags & kTookSinglePile);  // still an exchange turn for the deadlock count
    CHECK(s.hold.valid() == forbid);
    GameState t = s;
    const bool ok = apply_move(t, rules, bare(MoveKind::Discard, taken)).ok();
    CHECK(ok == (!forbid || !single_copy));
    if (ok) CHECK(accepted_text(state_string(t, rules)));
  }
}

// Rules under which no card could ever be drawn are refused; the presets are not.
void check_rules_refused() {
  for (std::string_view name : kPresetNames) CHECK(check_rules(*preset_rules(name)).empty());
  Rules r = *preset_rules("italian");
  r.hand_size = 20;
  r.pozzetto_sizes = {13, 12};  // 108 - 80 - 25 - 1 = 2 cards of stock, threshold 2
  CHECK(r.initial_stock() == 2);
  CHECK(!check_rules(r).empty());
  r.pozzetto_sizes = {13, 11};
  CHECK(check_rules(r).empty());
  r = *preset_rules("brazilian");
  r.hand_size = 19;
  r.pozzetto_sizes = {16, 16};  // no stock at all, and the first draw needs one
  CHECK(r.initial_stock() == 0);
  CHECK(!check_rules(r).empty());
  r.first_draw_rule = FirstDrawRule::None;  // the first draw turns a pozzetto into the stock
  CHECK(check_rules(r).empty());
  r.pozzetto_becomes_stock = false;
  CHECK(!check_rules(r).empty());
  std::string error;
  Rules parsed;
  CHECK(!parse_rules_text("italian:hand_size=20:pozzetto_sizes=(13,12)", parsed, error));
  CHECK(error.find("stock_end_threshold") != std::string::npos);
}

// The state-string fuzz corpus (tests/data/fuzz/state_strings) and a short mutation run.
void check_fuzz_corpus() {
  fuzz::Stats corpus, mutations;
  const long files = fuzz::replay_corpus(BURRACO_FUZZ_CORPUS, corpus);
  CHECK(files >= 10);
  CHECK(corpus.accepted > 0 && corpus.rejected > 0);
  fuzz::mutation_run(20261201, 1500, 0, mutations);
  CHECK(mutations.tried == 1500 && mutations.accepted > 0);
  std::printf("selftest: fuzz corpus %ld files (%ld accepted, %ld rejected); %ld mutations (%ld "
              "accepted, %ld rejected, %ld moves)\n",
              files, corpus.accepted, corpus.rejected, mutations.tried, mutations.accepted,
              mutations.rejected, mutations.moves);
}

}  // namespace

// The bots of docs/bots.md under the sanitizers: heuristic hands in every preset end, and its
// imagined turns (apply_move on copies) stay within the state; arena pairs of heuristic, greedy
// and a small search end with both sides' scores, the same on one thread and on two.
void check_bots() {
  for (std::string_view name : kPresetNames) {
    const Rules rules = *preset_rules(name);
    std::vector<Move> buffer;
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
      GameState s = deal_seeded(rules, seed, 0, {});
      const int moves = playout(s, rules, Policy::Heuristic, seed, buffer, [](const GameState&, const Move&) {});
      CHECK(s.over() && moves > 0);
      ++hands_played;
      moves_played += moves;
    }
  }
  BotSpec heuristic, greedy, search;
  heuristic.policy = Policy::Heuristic;
  greedy.policy = Policy::Greedy;
  search.search = true;
  search.ismcts = IsmctsParams{60, 3, 0.7, Policy::Heuristic, 8};
  for (std::string_view name : {std::string_view("italian-2p"), std::string_view("italian")}) {
    const Rules rules = *preset_rules(name);
    const std::vector<ArenaGame> one = arena_pairs(rules, heuristic, greedy, 5, 0, 3, 1, true, nullptr, nullptr);
    const std::vector<ArenaGame> two = arena_pairs(rules, heuristic, greedy, 5, 0, 3, 2, true, nullptr, nullptr);
    CHECK(one.size() == 6 && two.size() == 6);
    for (std::size_t i = 0; i < one.size() && i < two.size(); ++i) {
      CHECK(one[i].scores == two[i].scores && one[i].history == two[i].history);
      CHECK(one[i].end_reason >= 1 && one[i].end_reason <= 3);
    }
    const std::vector<ArenaGame> searched = arena_pairs(rules, search, heuristic, 6, 0, 1, 2, false, nullptr, nullptr);
    CHECK(searched.size() == 2 && searched[0].decisions[0] > 0);
  }
  std::printf("selftest: heuristic hands and arena pairs end\n");
}

// HeuristicParams::defaults: the two-player set with two or three players, partnership() with
// four (partnership_opening() under an opening minimum). Each four-player mode changes a choice
// only where it applies: four-player hands played by the partnership set, each choice compared
// with the same set without the race, without the closing and without late piles.
void check_heuristic_defaults() {
  CHECK(HeuristicParams::defaults(2) == HeuristicParams{});
  CHECK(HeuristicParams::defaults(3) == HeuristicParams{});
  CHECK(HeuristicParams::defaults(4) == HeuristicParams::partnership());
  CHECK(HeuristicParams::defaults(*preset_rules("italian"), 4) == HeuristicParams::partnership());
  CHECK(HeuristicParams::defaults(*preset_rules("brazilian"), 4) == HeuristicParams::partnership_opening());
  CHECK(HeuristicParams::defaults(*preset_rules("brazilian"), 2) == HeuristicParams{});
  CHECK(HeuristicParams::defaults(*preset_rules("italian-2p"), 2) == HeuristicParams{});
  CHECK(!HeuristicParams::partnership_opening().closing && !HeuristicParams::partnership_opening().late_piles);
  CHECK(!HeuristicParams{}.race && HeuristicParams{}.pile_take_cards == 0);
  const HeuristicParams race = HeuristicParams::partnership();
  // The same set without one of its modes each: the race, the closing, late piles. The closing
  // changes a choice only where the seat's own side can close and no other side can; late piles
  // only in a draw phase, with a pile of pile_take_cards or more and another side having a
  // burraco, or in the race (whose piles are judged with late_pile_margin).
  HeuristicParams calm = race, open_hand = race, every_pile = race;
  calm.race = false;
  open_hand.closing = false;
  every_pile.late_piles = false;
  CHECK(race.race && race.pile_take_cards == 3 && race.closing && race.late_piles);
  const Rules rules = *preset_rules("italian");
  std::vector<Move> moves, scratch;
  int differ = 0, racing = 0, closing_differ = 0, closing = 0, late_differ = 0, late = 0;
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    GameState s = deal_seeded(rules, seed, 0, {});
    for (int step = 0; step < 2000 && !s.over(); ++step) {
      legal_moves(s, rules, moves);
      const std::size_t a = heuristic_choice(s, rules, moves, race, scratch);
      const std::size_t b = heuristic_choice(s, rules, moves, calm, scratch);
      const std::size_t c = heuristic_choice(s, rules, moves, open_hand, scratch);
      const std::size_t d = heuristic_choice(s, rules, moves, every_pile, scratch);
      const int own = s.turn % 2, other = 1 - own;
      const bool other_closes = side_took_packet(s, rules, other) && has_required_burraco(s, rules, other);
      const bool own_closes = side_took_packet(s, rules, own) && has_required_burraco(s, rules, own);
      bool other_burraco = false;
      for (int i = 0; i < s.meld_count; ++i) other_burraco |= s.meld_side[i] == other && s.melds[i].size() >= 7;
      const bool judged =
          s.phase == Phase::Draw && ((s.pile_size >= race.pile_take_cards && other_burraco) || other_closes);
      racing += other_closes;
      closing += own_closes && !other_closes;
      late += judged;
      if (a != b) {
        ++differ;
        CHECK(other_closes);
      }
      if (a != c) {
        ++closing_differ;
        CHECK(own_closes && !other_closes);
      }
      if (a != d) {
        ++late_differ;
        CHECK(judged);
      }
      apply_move(s, rules, moves[a]);
    }
    CHECK(s.over());
  }
  CHECK(differ > 0 && racing > differ);
  CHECK(closing_differ > 0 && closing > closing_differ && late_differ > 0 && late > late_differ);
  std::printf("selftest: heuristic defaults; the race changed %d of %d choices made in it\n", differ, racing);
  std::printf("selftest: the closing changed %d of %d choices made in it, late piles %d of %d\n", closing_differ,
              closing, late_differ, late);
}

// A short match pair: greedy against an equity search, on two threads; each play ends by
// RULES E.7 with the scores its hands add up to, and both plays deal the same hands.
void check_match_pair() {
  const Rules rules = *preset_rules("italian-2p");
  BotSpec greedy, search;
  greedy.policy = Policy::Greedy;
  search.search = true;
  search.ismcts = IsmctsParams{8, 3, 0.7, Policy::Greedy, 12};
  search.ismcts.reward = IsmctsReward::Equity;
  std::atomic<std::uint64_t> done{0};
  const std::vector<ArenaMatch> plays = arena_match_pairs(rules, greedy, search, 21, 0, 1, 2, false, &done, nullptr);
  CHECK(plays.size() == 2 && done.load() == 2);
  for (const ArenaMatch& play : plays) {
    std::array<std::int32_t, 2> sum{};
    CHECK(!play.hands.empty());
    for (std::size_t h = 0; h < play.hands.size(); ++h) {
      const ArenaGame& hand = play.hands[h];
      CHECK(hand.hand == static_cast<int>(h) && hand.before == sum && hand.first_player == h % 2);
      CHECK(match_outcome(rules, sum) == -1);
      for (std::size_t k = 0; k < 2; ++k) sum[k] += hand.scores[k];
      ++hands_played;
      moves_played += hand.moves;
    }
    CHECK(sum == play.scores && match_outcome(rules, sum) == play.winner);
  }
  const std::size_t shared = std::min(plays[0].hands.size(), plays[1].hands.size());
  for (std::size_t h = 0; h < shared; ++h) CHECK(plays[0].hands[h].hand_seed == plays[1].hands[h].hand_seed);
  std::printf("selftest: a match pair of %zu and %zu hands\n", plays[0].hands.size(), plays[1].hands.size());
}

// The vector environment (vecenv.hpp): one thread, three threads, and three threads writing into
// reused mask rows (masks_unchanged) step the same envs to the same outputs; a finished hand's
// mask is empty and its reward its margin / scale; bad actions are found before any step.
void check_vecenv() {
  struct Case {
    std::string_view preset;
    Policy opponent, partner;
    bool win;
    int seat;
  };
  const Case cases[] = {{"italian-2p", Policy::Random, Policy::Random, false, 0},
                        {"italian", Policy::Greedy, Policy::Heuristic, true, 1},
                        {"brazilian", Policy::Random, Policy::Random, false, 2},
                        {"italian-3p", Policy::Heuristic, Policy::Heuristic, true, 1}};
  constexpr int kEnvs = 5;
  for (const Case& c : cases) {
    const Rules rules = *preset_rules(c.preset);
    VecEnvConfig config;
    config.seat = c.seat;
    config.opponent = c.opponent;
    config.partner = c.partner;
    config.win_reward = c.win;
    VecEnv one(rules, kEnvs, config, 1), three(rules, kEnvs, config, 3), reused(rules, kEnvs, config, 3);
    const int size = one.action_size();
    struct Out {
      std::vector<float> obs;
      std::vector<std::uint8_t> masks;
      std::vector<double> rewards, margins;
      std::array<bool, kEnvs> terminated{}, truncated{};
      VecEnvOutput view(bool unchanged) {
        VecEnvOutput o;
        o.observations = obs.data();
        o.masks = masks.data();
        o.rewards = rewards.data();
        o.terminated = terminated.data();
        o.truncated = truncated.data();
        o.margins = margins.data();
        o.masks_unchanged = unchanged;
        return o;
      }
    };
    auto make_out = [&] {
      return Out{std::vector<float>(kEnvs * kObservationSize), std::vector<std::uint8_t>(kEnvs * static_cast<std::size_t>(size)),
                 std::vector<double>(kEnvs), std::vector<double>(kEnvs), {}, {}};
    };
    Out a = make_out(), b = make_out(), r = make_out();
    for (int i = 0; i < kEnvs; ++i) {
      const Pcg64 stream(static_cast<Pcg64::u128>(1000 + i) << 64 | 77, 2 * static_cast<Pcg64::u128>(i) + 1);
      one.seed(i, stream);
      three.seed(i, stream);
      reused.seed(i, stream);
      one.reset(i, 300 + i, a.view(false));
      three.reset(i, 300 + i, b.view(false));
      reused.reset(i, 300 + i, r.view(false));
    }
    std::vector<std::int64_t> actions(kEnvs);
    int finished = 0;
    for (int t = 0; t < 400; ++t) {
      one.random_actions(static_cast<std::uint64_t>(t), actions.data());
      CHECK(!one.check(actions.data()));
      one.step(actions.data(), a.view(false));
      three.step(actions.data(), b.view(false));
      reused.step(actions.data(), r.view(true));
      CHECK(a.obs == b.obs && a.masks == b.masks && a.rewards == b.rewards && a.margins == b.margins);
      CHECK(a.terminated == b.terminated && a.obs == r.obs && a.masks == r.masks && a.rewards == r.rewards);
      for (int i = 0; i < kEnvs; ++i) {
        const std::uint8_t* row = a.masks.data() + static_cast<std::size_t>(i) * static_cast<std::size_t>(size);
        const int set = static_cast<int>(std::count(row, row + size, std::uint8_t{1}));
        CHECK(!a.truncated[static_cast<std::size_t>(i)]);
        if (a.terminated[static_cast<std::size_t>(i)]) {
          ++finished;
          const double m = a.margins[static_cast<std::size_t>(i)];
          CHECK(set == 0 && one.state(i).over() && one.needs_reset(i));
          CHECK(a.rewards[static_cast<std::size_t>(i)] == (c.win ? (m > 0) - (m < 0) : m / 2000.0));
          CHECK(m == seat_margins(one.state(i), rules)[static_cast<std::size_t>(c.seat)]);
        } else {
          CHECK(set == static_cast<int>(one.legal(i).size()) && set > 0 && one.state(i).turn == c.seat);
          CHECK(a.rewards[static_cast<std::size_t>(i)] == 0.0);
        }
      }
    }
    CHECK(finished >= kEnvs);
    // Bad actions: the first env that has one is named, nothing is stepped.
    one.random_actions(999, actions.data());
    int playing = 0;
    while (playing < kEnvs && one.needs_reset(playing)) ++playing;
    if (playing < kEnvs) {
      const GameState before = one.state(playing);
      actions[static_cast<std::size_t>(playing)] = size;
      const std::optional<VecActionProblem> out_of_range = one.check(actions.data());
      CHECK(out_of_range && out_of_range->env == playing && !out_of_range->in_range);
      actions[static_cast<std::size_t>(playing)] = 3;  // 'reject': never legal outside brazilian's first draw
      const std::optional<VecActionProblem> illegal = one.check(actions.data());
      CHECK(c.preset == "brazilian" || (illegal && illegal->env == playing && illegal->in_range));
      CHECK(one.state(playing) == before);
    }
  }
}

int main() {
  check_cardset();
  check_usefulness();
  for (std::string_view name : kPresetNames) check_melds(*preset_rules(name));
  Rules variant = *preset_rules("italian");
  variant.ace_low_or_high = AceRule::LowOnly;
  variant.natural_two_in_run = false;
  variant.allow_orphan_wild_14 = false;
  check_melds(variant);
  for (std::string_view name : kPresetNames) check_playouts(*preset_rules(name), 15, 7);
  Rules two_player_brazilian = *preset_rules("brazilian");
  two_player_brazilian.players = 2;
  check_playouts(two_player_brazilian, 15, 8);
  Rules force = *preset_rules("italian-2p");
  force.deadlock_rule = DeadlockRule::ForceDraw;
  check_playouts(force, 15, 9);
  // Six players (RULES F.7): three sides of two and two sides of three, three packets.
  for (int sides = 2; sides <= 3; ++sides) {
    Rules six = player_baseline(Preset::Brazilian, 6);
    six.sides = sides;
    CHECK(check_rules(six).empty() && six.packets() == 3 && six.total_cards() == 162);
    check_playouts(six, 12, 10 + static_cast<std::uint64_t>(sides));
  }
  for (std::string_view name : kPresetNames)
    for (int decks = 2; decks <= 3; ++decks) check_new_melds(name, decks, 31 + decks, 120);
  check_ismcts();
  check_equity();
  check_validator();
  check_keep_reject_last_turn();
  check_forbid_knob();
  check_rules_refused();
  check_native_policies();
  check_bots();
  check_heuristic_defaults();
  check_match_pair();
  check_vecenv();
  check_fuzz_corpus();
  failures += check_game_history();
  failures += check_block_cache();
  failures += check_rules_values();
  failures += check_ismcts_options();
  failures += check_vecenv_args();
  failures += check_pack_texts();
  std::printf("selftest: %ld hands, %ld moves played with invariant checks\n", hands_played,
              moves_played);
  std::printf("selftest: %ld melds, %ld lay-offs checked\n", melds_checked, layoffs_checked);
  std::printf("selftest: %ld positions' new melds against brute force, %ld melds, %ld with a third copy\n",
              new_meld_positions, new_melds_checked, new_melds_with_third);
  if (failures) {
    std::printf("selftest: 0 passed, %d failed\n", failures);
    return 1;
  }
  std::printf("selftest: 1 passed, 0 failed\n");
  return 0;
}
