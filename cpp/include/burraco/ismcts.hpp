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
//      with opponents = Policy (the C++ default; Python's is Heuristic) only the observer's
//      moves are nodes: the other seats (the partner included) play the rollout policy on the
//      way down, which reads only what that seat may see, except that a seat that can end the
//      hand by deadlock (RULES D.4) while its side leads does so; opponents = Random, Greedy or
//      Heuristic are Policy with that built-in policy in place of the rollout policy; with
//      opponents = Tree every seat's moves are nodes, chosen by UCB as the observer's are (they
//      then play as if they saw the guessed cards);
//   3. expands one untried legal move (chosen uniformly among the untried ones);
//   4. plays the rest of the hand with the rollout policy (playout(), policies.hpp), or at most
//      max_rollout_moves moves of it (see below);
//   5. backs up a reward per side, from a value per side: the hand total of a finished (or, cut
//      with evaluation = Score, a scored-as-if-finished) hand, or the heuristic's evaluation of
//      a cut one (evaluation = Heuristic, heuristic_side_values). With reward = Margin (the
//      default) a side's reward is 0.5 + 0.5 * tanh((its value - the best other side's) /
//      margin_scale); with reward = Win 1 for the side with the highest value, 0 for a lower
//      one, 0.5 for every side sharing the highest; with reward = Equity (two sides only) the
//      side's probability of winning the match once this hand's values are added to the match
//      scores the state carries (GameState::scores), match_equity() below. Each node keeps the
//      sum of the rewards of the side of the seat that made the move into it, taken in that
//      determinization on the state before the move (with three players the sides merge at the
//      split, RULES F.6: a mover's reward is that of the side its seat ends the hand in, which is
//      its side at the time followed through the merge).
//
// Budget: at most `iterations` iterations, and with time_limit > 0 until that many seconds of
// wall-clock have passed (the clock read every 16 iterations; a timed search depends on the
// machine). threads > 1 runs that many independent trees (root parallelism), each on its own
// thread with its share of the iterations and a generator seeded from the search's, and sums
// their root statistics move by move; an untimed search does not depend on the scheduling.
//
// choose() returns the most visited root move (ties: the first in canonical order, move_less;
// with several trees, of the summed visits).
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
// moves (policies.hpp), as does a position with no legal move (the root or a determinization).
//
// Cost: one determinization, one legal_moves() per tree level, one rollout per iteration. On
// 4-player italian positions (x86-64, one core) about 13,000 iterations per second with whole
// random rollouts (~135 moves each), 26,000 with max_rollout_moves = 40, 120,000 with 0 (tree
// only); brazilian hands run much longer (about 1,400 per second with whole random rollouts).
// Greedy rollouts with the other seats by policy (Python's defaults with two players) cost about
// three times the random rollouts' time per iteration (docs/bots.md measures both).
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "burraco/game.hpp"
#include "burraco/heuristic.hpp"
#include "burraco/rng.hpp"
#include "burraco/observation.hpp"
#include "burraco/policies.hpp"

namespace burraco {

// How a playout's end is turned into a reward in [0, 1] for each side.
enum class IsmctsReward : std::uint8_t {
  Win,     // 1 for the side with the highest value, 0 for a lower one, 0.5 each for a shared top
  Margin,  // 0.5 + 0.5 * tanh((value of the side - best value of another side) / margin_scale)
  Equity,  // the side's chance of winning the match after this hand (match_equity; two sides)
};
// How a cut rollout's unfinished hand is valued, per side.
enum class IsmctsEvaluation : std::uint8_t {
  Score,      // scored as if the hand ended now by stock exhaustion (score_hand)
  Heuristic,  // the heuristic's evaluation of each side, every card seen (heuristic.hpp)
};
// Who chooses the moves of the other seats (the partner included) inside the tree.
enum class IsmctsOpponents : std::uint8_t {
  Tree,       // tree nodes chosen by UCB, as the observer's are (they act as if they saw the guess)
  Policy,     // the rollout policy, which reads only what that seat may see; no node for them
  Random,     // as Policy, with the named built-in policy in place of the rollout policy (the
  Greedy,     // heuristic with the rollout policy's heuristic parameters when it has some, else
  Heuristic,  // the defaults); below the tree every seat still plays the rollout policy
};

struct IsmctsParams {
  int iterations = 1000;          // iterations per choose() (a cap when time_limit is set; never
                                  // more than 10^8 a tree)
  std::uint64_t seed = 0;         // seeds the search's generator
  double exploration = 0.7;       // the UCB constant
  Policy policy = Policy::Greedy; // rollout policy (and the other seats' with Opponents::Policy)
  int max_rollout_moves = -1;     // -1: play every rollout to the end of the hand
  IsmctsReward reward = IsmctsReward::Margin;
  double margin_scale = 300;      // points: the margin reward's scale
  // The equity reward's model (match_equity): the standard deviation of one hand's margin and
  // the mean points a side scores in a hand, measured by heuristic self-play of italian-2p
  // (tools/match_model.py; docs/search.md quotes the other presets' figures).
  double equity_sigma = 720;
  double equity_points = 600;
  IsmctsEvaluation evaluation = IsmctsEvaluation::Score;
  IsmctsOpponents opponents = IsmctsOpponents::Policy;  // Python's default: Heuristic
  double time_limit = 0;          // seconds of wall-clock per choose(); 0: none
  int threads = 1;                // root-parallel trees, each on its own thread
  // Keep the subtree of the chosen move for the seat's next decision of the same turn, when that
  // move reveals nothing (a pile take, a meld, a lay-off) and the next call is that position
  // (one tree only: ignored with threads > 1).
  bool keep_tree = false;
  // Ignore `policy` and roll out by the number of players: greedy with two, random with three or
  // four (what the arena measured best, docs/bots.md; Python's policy=None).
  bool policy_by_players = false;

  friend bool operator==(const IsmctsParams&, const IsmctsParams&) = default;
};

// The equity reward (docs/search.md "Search options"): side 0's probability of winning a match
// of two sides when the sides had `before` points and score `hand` points in this hand (values,
// so a heuristic evaluation's fractions are allowed). With t = before + hand per side:
//   * a side past rules.match_target (RULES E.7: '>' or '>=' by rules.compare) decides the match:
//     1 if side 0's total is the higher, 0 if lower, 0.5 if equal (a draw, or another hand
//     from level scores);
//   * else Phi((t0 - t1) / (sigma * sqrt(h))), Phi the standard normal distribution function and
//     h = max(1, (match_target - max(t0, t1)) / points) the hands the leader still needs at
//     `points` a hand: the remaining hands' margins taken as independent normal draws of mean 0
//     and standard deviation sigma.
// Side 1's probability is 1 minus side 0's. Nondecreasing in hand[0] and nonincreasing in
// hand[1]. Preconditions: sigma > 0, points > 0 (finite).
double match_equity(const Rules& rules, const std::array<double, 2>& before,
                    const std::array<double, 2>& hand, double sigma, double points);

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
  // throws StateError naming the observation; reward = Equity with three players throws
  // std::invalid_argument: their per-seat match scores, RULES E.6, are not modelled). Reads `s`
  // only through observe(s, rules, s.turn). When the seat has exactly one legal move it is returned without a
  // search (the generator is not advanced); when no iteration runs (iterations < 1) the first
  // legal move in canonical order is returned.
  Move choose(const GameState& s, const Rules& rules);

  const IsmctsParams& params() const { return params_; }

  // Statistics of the last choose() call (with threads > 1: summed over the trees; max_depth the
  // deepest of them).
  int nodes() const { return nodes_count_; }  // the roots included
  int iterations() const { return iterations_run_; }
  int max_depth() const { return max_depth_; }  // deepest node, in moves below the root
  long rollout_moves() const { return rollout_moves_; }  // summed over the iterations
  // The root's children in canonical move order (with threads > 1: merged over the trees).
  const std::vector<IsmctsChild>& root_children() const { return root_; }

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

  void clear_statistics();
  // keep_tree: remembers the subtree of `move` (a child of the root) if the position after it is
  // the seat's own next decision, known without a hidden card; takes it back in choose().
  void remember_subtree(const Observation& obs, const Rules& rules, const Move& move);
  bool reuse_subtree(const std::string& observation);
  // One tree: `iterations` iterations at most, until `deadline` (if timed); fills root_.
  void search(const Observation& obs, const Rules& rules, int iterations, bool timed,
              std::chrono::steady_clock::time_point deadline, bool reusing = false);
  void search_parallel(const Observation& obs, const Rules& rules, bool timed,
                       std::chrono::steady_clock::time_point deadline);
  int add_child(int parent, const Move& move, int mover);
  Policy others_policy() const;
  void play_policy_move(GameState& d, const Rules& rules);
  bool deadlock_if_it_leads(GameState& d, const Rules& rules);
  void rollout(GameState& s, const Rules& rules);
  void reward_per_seat(GameState& s, const Rules& rules);
  void equity_per_seat(const GameState& s, const Rules& rules,
                       const std::array<double, kSideSlots>& value);

  IsmctsParams params_;
  Rng rng_;
  Policy policy_;  // the rollout policy of the current search
  Policy others_;  // the other seats' policy inside the tree (opponents != Tree)
  std::vector<Node> nodes_;
  std::vector<IsmctsChild> root_;
  std::vector<Ismcts> workers_;  // threads > 1: the other trees (their params: threads = 1)
  std::string kept_key_;         // keep_tree: the observation the kept subtree is for, or empty
  std::int32_t kept_node_ = -1;  // its root in nodes_
  std::vector<Node> spare_;      // scratch of the re-rooting
  // Scratch reused across iterations and calls.
  std::vector<Move> legal_;
  std::vector<Move> root_legal_;  // search(): the root's legal moves, the same in every iteration
  std::vector<Move> scratch_;
  std::vector<Move> before_legal_;  // search(): the legal moves before the observer's last meld
  std::vector<std::int32_t> path_;
  std::vector<std::int32_t> untried_;
  std::array<double, kMaxPlayers> seat_reward_{};
  int nodes_count_ = 0;
  int iterations_run_ = 0;
  int max_depth_ = 0;
  long rollout_moves_ = 0;
};

}  // namespace burraco
