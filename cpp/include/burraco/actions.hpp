// burraco — fixed action ids and observation tensors for learning (docs/search.md "Actions and
// tensors for learning").
#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "burraco/game.hpp"
#include "burraco/observation.hpp"

namespace burraco {

inline constexpr int kActionDiscard = 4;                       // 4 + card index
inline constexpr int kActionAdd = kActionDiscard + kKinds;     // 57 + 53 * meld index + card index
// Lay-offs on a side's meld indices 0..35 (36 melds: all a two-deck pack makes) have their ids
// here; a pack of more than 108 cards (three decks) may hold more melds, and the lay-offs on
// indices 36 and up take ids after the meld table (MeldTable::late_add_melds), so that no id of
// any rule set moved when the table grew past 36 melds.
inline constexpr int kActionAddMelds = 36;
inline constexpr int kActionMeld = kActionAdd + kActionAddMelds * kKinds;  // 1965 + meld table entry

// Every multiset of the shapes the move generator builds that is a valid new meld under `rules`,
// in canonical meld order (docs/search.md "Actions"). Built once per rule set.
struct CardSetHash {
  std::size_t operator()(CardSet c) const {
    const std::uint64_t h = c.one() * 0x9E3779B97F4A7C15ULL ^ (c.two() + 0x632BE59BD9B4E019ULL) ^
                            (c.three() << 1);
    return static_cast<std::size_t>(h ^ (h >> 29));
  }
};

struct MeldTable {
  std::vector<CardSet> melds;
  // Meld indices past kActionAddMelds a side may reach under these rules (a third of the pack
  // less 36; 0 with two decks): `add 36 + j <card k>` is id kActionMeld + melds.size() + 53 j + k.
  int late_add_melds = 0;
  std::unordered_map<CardSet, int, CardSetHash> index;  // melds[index[c]] == c
  int find(CardSet cards) const {  // entry of that multiset, or -1
    const auto it = index.find(cards);
    return it == index.end() ? -1 : it->second;
  }
};
const MeldTable& meld_table(const Rules& rules);

int action_size(const Rules& rules);
int action_id(const Move& move, const MeldTable& table);  // -1 if not representable
bool action_move(int id, const MeldTable& table, Move& out);
// Writes action_size(rules) flags to `mask`: true at the action id of every move of `legal`
// (the legal moves of a position under `rules`, each of which has an id).
void legal_mask(const std::vector<Move>& legal, const Rules& rules, bool* mask);

inline constexpr int kObservationSize = 511;
// Six players (RULES F.7) have a layout of their own: 681 features (docs/search.md).
inline constexpr int kObservationSizeSix = 681;
inline constexpr int observation_size(const Rules& rules) {
  return rules.players == 6 ? kObservationSizeSix : kObservationSize;
}
// The features of docs/search.md "Observation tensor", from the observation only.
void observation_features(const Observation& o, const Rules& rules, float* out);

}  // namespace burraco
