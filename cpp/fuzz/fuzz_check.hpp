// burraco — the state-string fuzz checks, shared by the libFuzzer target
// (fuzz_state_string.cpp), the standalone driver (driver.cpp) and the selftest.
//
// check_state_text() is the property every input must have: the parser either refuses it with a
// reason, or accepts a position that validates, writes back the very same text, has a legal move
// unless the hand is over, and plays to its end within MAX_HAND_MOVES random moves with every
// position on the way valid and readable back. A broken property prints the input and aborts
// (libFuzzer then keeps the input as a crash).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "burraco/rules.hpp"

namespace burraco::fuzz {

// The documented bound on the moves of one hand (docs/game.md, MAX_HAND_MOVES).
inline constexpr long kMaxHandMoves = 100'000;

struct Stats {
  long tried = 0, accepted = 0, rejected = 0, moves = 0;
  bool explain = false;  // print the reason of every refusal (the driver's --explain)
};

// Checks one input (see above). `seed` picks the random playout of an accepted position.
// Returns true if the parser accepted it.
bool check_state_text(std::string_view text, std::uint64_t seed, Stats& stats);

// The rule sets the engine-made states are played under: every preset and a few knob variants,
// both six-player tables (three sides of two, two sides of three) and the three-deck pack with
// 2, 3 and 4 players.
std::vector<Rules> fuzz_rules();

// Engine-made state strings of one rule set: `hands_per_rules` seeded random hands (seeds drawn
// from `sm`), sampled along the way.
std::vector<std::string> engine_states_of(const Rules& rules, std::uint64_t& sm,
                                          int hands_per_rules);

// Engine-made state strings: seeded random hands under every rule set of fuzz_rules(), sampled
// along the way (deterministic for a seed).
std::vector<std::string> engine_states(std::uint64_t seed, int hands_per_rules);

// One mutation of `base`: byte flips, a field spliced from another state of `pool`, a number
// replaced by an edge value, a card moved or two cards swapped between card fields, a flag,
// phase or status token replaced.
std::string mutate(const std::string& base, const std::vector<std::string>& pool,
                   std::uint64_t& rng);

// Checks every regular file of `dir` (one input per file); returns how many were read, or -1 if
// the folder cannot be read.
long replay_corpus(const std::string& dir, Stats& stats);

// `count` mutations of engine-made states (stopping early after `seconds` > 0 of wall time).
void mutation_run(std::uint64_t seed, long count, double seconds, Stats& stats);

}  // namespace burraco::fuzz
