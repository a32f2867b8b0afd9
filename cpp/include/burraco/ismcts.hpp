// burraco — information-set Monte Carlo tree search (docs/search.md "Search").
//
// Single-observer ISMCTS (Cowling, Powley & Whitehouse 2012, "Information Set Monte Carlo Tree
// Search", IEEE TCIAIG 4(2)). One tree, seen from the seat to act (the observer); each iteration
//
//   1. determinizes: determinize(observe(s, rules, s.turn), rules, seed) with a fresh seed from
//      the search's generator, so the hidden cards are guessed anew every iteration;
//   2. descends by UCT over the moves legal in that determinization. A node's children are keyed
//      by Move; every child that is legal at a visit has its availability count raised, and UCB
//      uses that count in place of the parent's visits:
//          mean(c) + exploration * sqrt(ln(availability(c)) / visits(c));
//   3. expands one untried legal move (chosen uniformly among the untried ones);
//   4. plays the rest of the hand with the rollout policy (playout(), search.hpp), or at most
//      max_rollout_moves moves of it (see below);
//   5. backs up a reward per side: 1 for the side with the highest hand total, 0 for a lower one,
//      0.5 for every side sharing the highest total. Each node keeps the sum of the rewards of
//      the side of the seat that made the move into it, taken in that determinization on the
//      state before the move (with three players the sides merge at the split, RULES F.6: a
//      mover's reward is that of the side its seat ends the hand in, which is its side at the
//      time followed through the merge).
//
// choose() returns the most visited root move (ties: the first in canonical order, move_less).
//
// Information: choose() receives the real state but reads it only through one call to
// observe(s, rules, s.turn); everything after works on that observation. Two states with the same
// observation for the seat to act give the same move for the same generator state.
//
// Cut rollouts: with max_rollout_moves >= 0 a rollout stops after that many moves; the unfinished
// hand is then valued as if it had ended now by stock exhaustion (RULES E): per side, the points
// of its melds plus their burraco bonuses, less the points of the cards in its hands, less the
// no-pozzetto penalty if it has not taken a pozzetto (an unplayed packet counts by
// unplayed_pozzetto_rule; no closing bonus). That is score_hand() of the state marked over by
// stock exhaustion, so it costs one pass over the melds and hands. A cut rollout plays the same
// moves as the first max_rollout_moves moves of the full one for the same seed.
//
// Determinism: the search owns one generator (Rng, rng.hpp) seeded from params.seed at
// construction; every random choice (determinization seeds, expansion, rollout seeds) draws from
// it in a fixed order. A fresh Ismcts with a given seed always makes the same choices; choose()
// advances the generator, so successive calls on one object differ.
//
// Storage: all nodes live in one std::vector reserved for the whole search, linked by integer
// indices (first child, next sibling; siblings kept in canonical move order so that one merge
// pass against the canonical legal move list finds every child). The tree is rebuilt by every
// choose() call. Not thread-safe: one Ismcts serves one thread at a time (the Python binding
// serialises choose() and the statistics readers with a mutex, docs/search.md "Threads").
//
// Bounds: the descent follows one existing node per level, so it ends within nodes() steps; a
// rollout stops after max_rollout_moves moves or, uncut, throws StateError past kMaxHandMoves
// moves (search.hpp), as does a position with no legal move (the root or a determinization).
// Rollouts choose among the policy's candidates (search.hpp TurnMemory), the positions of the
// turn counted from the determinized root.
//
// Cost: one determinization, one legal_moves() per tree level, one rollout per iteration. On
// 4-player italian positions (x86-64, one core) about 13,000 iterations per second with whole
// random rollouts (~135 moves each), 26,000 with max_rollout_moves = 40, 120,000 with 0 (tree
// only); brazilian hands run much longer (about 1,400 per second with whole random rollouts).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "burraco/game.hpp"
#include "burraco/rng.hpp"
#include "burraco/search.hpp"

namespace burraco {

struct IsmctsParams {
  int iterations = 1000;          // iterations per choose(); below 1 plays no iteration
  std::uint64_t seed = 0;         // seeds the search's generator
  double exploration = 0.7;       // the UCB constant
  Policy policy = Policy::Random; // rollout policy
  int max_rollout_moves = -1;     // -1: play every rollout to the end of the hand
};

// One move at the root after a search (for statistics and the bindings).
struct IsmctsChild {
  Move move;
  int visits = 0;
  int availability = 0;
  double reward = 0;  // summed reward of the side of the seat to act
};

class Ismcts {
 public:
  explicit Ismcts(IsmctsParams params);

  // A legal move for the seat to act (precondition: !s.over(); a position with no legal move
  // throws StateError naming the observation). Reads `s` only through
  // observe(s, rules, s.turn). When the seat has exactly one legal move it is returned without a
  // search (the generator is not advanced); when no iteration runs (iterations < 1) the first
  // legal move in canonical order is returned.
  Move choose(const GameState& s, const Rules& rules);

  const IsmctsParams& params() const { return params_; }

  // Statistics of the last choose() call.
  int nodes() const { return static_cast<int>(nodes_.size()); }  // the root included
  int iterations() const { return iterations_run_; }
  int max_depth() const { return max_depth_; }  // deepest node, in moves below the root
  long rollout_moves() const { return rollout_moves_; }  // summed over the iterations
  // The root's children in canonical move order.
  std::vector<IsmctsChild> root_children() const;

 private:
  struct Node {
    Move move;                // the move into this node (unused at the root)
    double reward = 0;        // summed rewards of the mover's side
    std::int32_t first_child = -1;
    std::int32_t next_sibling = -1;
    std::int32_t visits = 0;
    std::int32_t availability = 0;
    std::uint8_t mover = 0;   // the seat that made the move into this node
  };

  void search(const Observation& obs, const Rules& rules);
  int add_child(int parent, const Move& move, int mover);
  void rollout(GameState& s, const Rules& rules);
  void reward_per_seat(GameState& s, const Rules& rules);

  IsmctsParams params_;
  Rng rng_;
  std::vector<Node> nodes_;
  // Scratch reused across iterations and calls.
  std::vector<Move> legal_;
  std::vector<std::int32_t> path_;
  std::vector<std::int32_t> untried_;
  TurnMemory memory_;  // the positions of the simulated turn (docs/search.md "Candidates")
  std::array<double, kMaxPlayers> seat_reward_{};
  int iterations_run_ = 0;
  int max_depth_ = 0;
  long rollout_moves_ = 0;
};

}  // namespace burraco
