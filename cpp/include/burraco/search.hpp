// burraco — information sets, determinization, playout policies and batch playouts
// (RULES C.9, DESIGN §5, docs/search.md).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "burraco/game.hpp"
#include "burraco/rng.hpp"

namespace burraco {

// What one player may know (RULES C.9). `state` is the game with every card that player cannot
// see removed: the other hands hold only their known cards (hand_sizes keeps their real sizes),
// the stock and the hidden packets keep their sizes but hold no cards (Card{}), the seed is gone.
struct Observation {
  GameState state;
  std::uint8_t player = 0;
  std::array<std::uint8_t, kMaxPlayers> hand_sizes{};
};

// May `player` see the cards of packet k? (seen by that player; joined hands are hands).
bool packet_visible(const GameState& s, int player, int k);

Observation observe(const GameState& s, const Rules& rules, int player);

// docs/search.md "Observations": the state string with hidden fields masked.
std::string observation_string(const Observation& o, const Rules& rules);

// docs/search.md "Determinization": a full state consistent with the observation, the unseen
// cards shuffled with Rng(seed) and handed out in the documented order. Reads only `o`.
GameState determinize(const Observation& o, const Rules& rules, std::uint64_t seed);

enum class Policy : std::uint8_t { Random, Greedy };

// The greedy policy's choice among `legal` (the legal moves of `s` in canonical order, non-empty).
std::size_t greedy_choice(const GameState& s, const Rules& rules, const std::vector<Move>& legal);

// Plays the hand to its end with the policy; on_move(state_before, move) before each move.
template <class OnMove>
int playout(GameState& s, const Rules& rules, Policy policy, std::uint64_t seed,
            std::vector<Move>& buffer, OnMove&& on_move) {
  Rng rng(seed);
  int played = 0;
  while (!s.over()) {
    legal_moves(s, rules, buffer);
    const std::size_t i = policy == Policy::Random ? static_cast<std::size_t>(rng.bounded(buffer.size()))
                                                   : greedy_choice(s, rules, buffer);
    const Move move = buffer[i];
    on_move(s, move);
    apply_move(s, rules, move);
    ++played;
  }
  return played;
}

// One row of a batch of playouts (docs/search.md "Playouts").
struct PlayoutRow {
  std::uint64_t seed = 0;
  std::array<std::int32_t, 3> scores{};  // per side (2 or 4 players) or half points per seat (3)
  std::int32_t moves = 0;
  std::uint8_t end_reason = 0;  // 1 closed, 2 stock exhausted, 3 deadlock
};

// Deals hand `hand_seed` (first player 0, scores 0) and plays it with `policy` seeded by the same
// seed (docs/search.md "Playouts"); `buffer` is scratch space.
PlayoutRow play_hand(const Rules& rules, std::uint64_t hand_seed, Policy policy,
                     std::vector<Move>& buffer);

// The seed of hand i of a batch (or of a match): the (i+1)-th SplitMix64 output of `seed`.
std::uint64_t batch_seed(std::uint64_t seed, std::uint64_t i);

}  // namespace burraco

namespace burraco {

// ---- fixed action ids and observation features for learning (docs/search.md) ---------------------

inline constexpr int kActionDiscard = 4;                       // 4 + card index
inline constexpr int kActionAdd = kActionDiscard + kKinds;     // 57 + 53 * meld index + card index
inline constexpr int kActionMeld = kActionAdd + kMaxMelds * kKinds;  // 1965 + meld table entry

// Every multiset of the shapes the move generator builds that is a valid new meld under `rules`,
// in canonical meld order (docs/search.md "Actions"). Built once per rule set.
struct CardSetHash {
  std::size_t operator()(CardSet c) const {
    const std::uint64_t h = c.one() * 0x9E3779B97F4A7C15ULL ^ (c.two() + 0x632BE59BD9B4E019ULL);
    return static_cast<std::size_t>(h ^ (h >> 29));
  }
};

struct MeldTable {
  std::vector<CardSet> melds;
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

inline constexpr int kObservationSize = 511;
// The features of docs/search.md "Observation tensor", from the observation only.
void observation_features(const Observation& o, const Rules& rules, float* out);

}  // namespace burraco
