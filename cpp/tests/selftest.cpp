// burraco_selftest — C++-only checks of the core, run under AddressSanitizer and
// UndefinedBehaviorSanitizer in CI (.ci/run). The rules themselves are held to the Python
// reference by the differential tests; this driver checks internal consistency:
//   * CardSet against a plain count array, exhaustively on a small universe and on random ops;
//   * every meld made from a universe of proposals, and every lay-off onto it, round-trips through
//     its layout text, conserves its cards and keeps the naturals where they were (RULES B.6 L1,
//     the two-conversion aside).
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "burraco/cardset.hpp"
#include "burraco/game.hpp"
#include "burraco/ismcts.hpp"
#include "burraco/rng.hpp"
#include "burraco/meld.hpp"
#include "burraco/rules.hpp"

using namespace burraco;

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

int limit(int kind) { return kind == kJoker ? kMaxJokers : kMaxSuitedCopies; }

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
  return s.size() == total && seen == total && ordered;
}

void check_cardset() {
  // Exhaustive over four kinds (two suited kinds of different suits, a two, the joker).
  const std::array<int, 4> kinds = {0, 14, 27, kJoker};
  const int options = 3 * 3 * 3 * 5;
  for (int a = 0; a < options; ++a)
    for (int b = 0; b < options; ++b) {
      Counts ca{}, cb{};
      int x = a, y = b;
      for (int i = 0; i < 4; ++i) {
        const int base = i == 3 ? 5 : 3;
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

// Every multiset of up to `max_size` cards over `kinds` (each at most its limit).
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
    while (size + added < max_size && set.add(card)) {
      ++added;
      self(self, i + 1, size + added);
    }
    for (int j = 0; j < added; ++j) set.remove(card);
  };
  rec(rec, 0, 0);
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
    const std::array<IsmctsParams, 3> settings = {
        IsmctsParams{120, seed, 0.7, Policy::Random, brazilian ? 60 : -1},
        IsmctsParams{150, seed + 1, 0.7, Policy::Greedy, brazilian ? 12 : -1},
        IsmctsParams{200, seed + 2, 1.0, Policy::Random, 0},
    };
    for (int position = 0; position < 6; ++position) {
      GameState s = deal_seeded(rules, splitmix(rng), position % rules.players, {});
      // Moves in (deeper for each position; mostly from the stock, so that the hand lasts),
      // then on to a decision with a real choice.
      const int walk = static_cast<int>(splitmix(rng) % 12) + 14 * position;
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
      CHECK(search.nodes() >= 2 && search.nodes() <= params.iterations + 1);
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

}  // namespace

int main() {
  check_cardset();
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
  check_ismcts();
  std::printf("selftest: %ld hands, %ld moves played with invariant checks\n", hands_played,
              moves_played);
  std::printf("selftest: %ld melds, %ld lay-offs checked\n", melds_checked, layoffs_checked);
  if (failures) {
    std::printf("selftest: 0 passed, %d failed\n", failures);
    return 1;
  }
  std::printf("selftest: 1 passed, 0 failed\n");
  return 0;
}
