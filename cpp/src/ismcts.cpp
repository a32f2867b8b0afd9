#include "burraco/ismcts.hpp"

#include <algorithm>
#include <cassert>
#include <climits>
#include <cmath>
#include <limits>

namespace burraco {

Ismcts::Ismcts(IsmctsParams params) : params_(params), rng_(params.seed) {}

// Appends a child and links it among its siblings in canonical move order.
int Ismcts::add_child(int parent, const Move& move, int mover) {
  const int index = static_cast<int>(nodes_.size());
  Node& child = nodes_.emplace_back();
  child.move = move;
  child.mover = static_cast<std::uint8_t>(mover);
  std::int32_t* link = &nodes_[static_cast<std::size_t>(parent)].first_child;
  while (*link >= 0 && move_less(nodes_[static_cast<std::size_t>(*link)].move, move))
    link = &nodes_[static_cast<std::size_t>(*link)].next_sibling;
  child.next_sibling = *link;
  *link = index;
  return index;
}

void Ismcts::rollout(GameState& s, const Rules& rules) {
  // A cut rollout makes the same choices as the whole one with this seed, stopped after
  // max_rollout_moves moves; a whole one stops with StateError past kMaxHandMoves moves.
  rollout_moves_ += playout(s, rules, params_.policy, rng_.next(), legal_, memory_,
                            [](const GameState&, const Move&) {}, params_.max_rollout_moves);
}

// The reward of every seat's side at the end of the rollout. An unfinished hand (a cut rollout)
// is scored as if it had ended now by stock exhaustion (see the header).
void Ismcts::reward_per_seat(GameState& s, const Rules& rules) {
  if (!s.over()) {
    s.phase = Phase::Over;
    s.end = EndReason::StockExhausted;
    s.closing_side = -1;
  }
  const HandResult result = score_hand(s, rules);
  int best = INT_MIN, tied = 0;
  for (int k = 0; k < result.side_count; ++k) {
    const int total = result.sides[static_cast<std::size_t>(k)].total;
    if (total > best) {
      best = total;
      tied = 1;
    } else if (total == best) {
      ++tied;
    }
  }
  for (int seat = 0; seat < s.players; ++seat) {
    const int side = side_of(s, rules, seat);
    double reward = 0;
    for (int k = 0; k < result.side_count; ++k) {
      const SideResult& r = result.sides[static_cast<std::size_t>(k)];
      if (r.side == side && r.total == best) reward = tied == 1 ? 1.0 : 0.5;
    }
    seat_reward_[static_cast<std::size_t>(seat)] = reward;
  }
}

Move Ismcts::choose(const GameState& s, const Rules& rules) {
  // The only read of the real state: everything below works on the observation.
  const Observation obs = observe(s, rules, s.turn);
  nodes_.clear();
  iterations_run_ = 0;
  max_depth_ = 0;
  rollout_moves_ = 0;
  nodes_.emplace_back();  // the root

  // The root's legal moves depend only on what the seat to act sees; any determinization does.
  legal_moves(determinize(obs, rules, 0), rules, legal_);
  if (legal_.empty())
    throw StateError("the hand is not over but the seat to act has no legal move: observation '" +
                     observation_string(obs, rules) + "'");
  if (legal_.size() == 1 || params_.iterations < 1) return legal_[0];
  try {
    search(obs, rules);
  } catch (...) {
    nodes_.clear();  // no statistics of a search that did not finish
    iterations_run_ = 0;
    max_depth_ = 0;
    rollout_moves_ = 0;
    throw;
  }
  // The most visited root move; siblings are in canonical order, so ties go to the first.
  std::int32_t best = -1;
  for (std::int32_t n = nodes_[0].first_child; n >= 0;
       n = nodes_[static_cast<std::size_t>(n)].next_sibling)
    if (best < 0 || nodes_[static_cast<std::size_t>(n)].visits >
                        nodes_[static_cast<std::size_t>(best)].visits)
      best = n;
  return nodes_[static_cast<std::size_t>(best)].move;
}

// The iterations of one choose() (the root already added).
void Ismcts::search(const Observation& obs, const Rules& rules) {
  // One node per iteration at most; beyond a million the vector grows by itself.
  nodes_.reserve(static_cast<std::size_t>(std::min(params_.iterations, 1 << 20)) + 1);
  const double c = params_.exploration;
  for (int it = 0; it < params_.iterations; ++it) {
    GameState d = determinize(obs, rules, rng_.next());
    memory_.begin(d, rules);  // the rollout policy's positions of the turn, from the root on
    int node = 0;
    path_.clear();
    path_.push_back(0);
    // Selection and expansion: one level of the tree per step, so at most nodes_.size() steps.
    while (!d.over()) {
      legal_moves(d, rules, legal_);
      if (legal_.empty()) throw_no_legal_move(d, rules);  // a determinization the rules refuse
      // One merge pass: siblings and legal moves are both in canonical order.
      untried_.clear();
      int best = -1;
      double best_score = -std::numeric_limits<double>::infinity();
      std::int32_t child = nodes_[static_cast<std::size_t>(node)].first_child;
      for (std::size_t i = 0; i < legal_.size(); ++i) {
        const Move& m = legal_[i];
        while (child >= 0 && move_less(nodes_[static_cast<std::size_t>(child)].move, m))
          child = nodes_[static_cast<std::size_t>(child)].next_sibling;
        if (child >= 0 && !move_less(m, nodes_[static_cast<std::size_t>(child)].move)) {
          Node& n = nodes_[static_cast<std::size_t>(child)];
          ++n.availability;
          const double visits = n.visits;
          const double score =
              n.reward / visits + c * std::sqrt(std::log(static_cast<double>(n.availability)) / visits);
          if (score > best_score) {
            best_score = score;
            best = child;
          }
          child = n.next_sibling;
        } else {
          untried_.push_back(static_cast<std::int32_t>(i));
        }
      }
      const int mover = d.turn;
      if (!untried_.empty()) {
        const Move move =
            legal_[static_cast<std::size_t>(untried_[rng_.bounded(untried_.size())])];
        memory_.before(d, move);
        [[maybe_unused]] const MoveResult r = apply_move(d, rules, move);
        assert(r.ok());
        memory_.played(d, rules, move, mover);
        node = add_child(node, move, mover);
        nodes_[static_cast<std::size_t>(node)].availability = 1;
        path_.push_back(node);
        break;
      }
      const Move move = nodes_[static_cast<std::size_t>(best)].move;
      memory_.before(d, move);
      [[maybe_unused]] const MoveResult r = apply_move(d, rules, move);
      assert(r.ok());
      memory_.played(d, rules, move, mover);
      node = best;
      path_.push_back(node);
    }
    max_depth_ = std::max(max_depth_, static_cast<int>(path_.size()) - 1);
    // Simulation and backpropagation.
    rollout(d, rules);
    reward_per_seat(d, rules);
    for (const std::int32_t n : path_) {
      Node& x = nodes_[static_cast<std::size_t>(n)];
      ++x.visits;
      if (n != 0) x.reward += seat_reward_[x.mover];
    }
    ++iterations_run_;
  }
}

std::vector<IsmctsChild> Ismcts::root_children() const {
  std::vector<IsmctsChild> out;
  if (nodes_.empty()) return out;
  for (std::int32_t n = nodes_[0].first_child; n >= 0;
       n = nodes_[static_cast<std::size_t>(n)].next_sibling) {
    const Node& x = nodes_[static_cast<std::size_t>(n)];
    out.push_back({x.move, x.visits, x.availability, x.reward});
  }
  return out;
}

}  // namespace burraco
