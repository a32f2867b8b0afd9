#include "burraco/ismcts.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <exception>
#include <limits>
#include <stdexcept>
#include <thread>

namespace burraco {

Ismcts::Ismcts(IsmctsParams params)
    : params_(params), rng_(params.seed), policy_(params.policy), others_(params.policy) {}

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
  rollout_moves_ += playout(s, rules, policy_, rng_.next(), legal_, [](const GameState&, const Move&) {},
                            params_.max_rollout_moves);
}

// The policy of the other seats inside the tree, from `opponents` and the rollout policy.
Policy Ismcts::others_policy() const {
  switch (params_.opponents) {
    case IsmctsOpponents::Random: return Policy::Random;
    case IsmctsOpponents::Greedy: return Policy::Greedy;
    case IsmctsOpponents::Heuristic:
      return policy_.kind == Policy::Kind::Heuristic ? policy_ : Policy::Heuristic;
    case IsmctsOpponents::Tree:
    case IsmctsOpponents::Policy: break;
  }
  return policy_;
}

void Ismcts::play_policy_move(GameState& d, const Rules& rules) {
  // Another seat inside the tree (opponents other than Tree): the move of others_, the rollout
  // policy or the one `opponents` names (legal_ holds the legal moves of `d`), except that a seat
  // that can end the hand by deadlock while its side leads does so (RULES D.4): the built-in
  // policies never make an exchange turn, and a model that trusts them not to would walk into one.
  if (d.phase == Phase::Draw && d.pile_size == 1 && rules.deadlock_rule == DeadlockRule::EndHand &&
      d.deadlock + 1 >= d.players && deadlock_if_it_leads(d, rules))
    return;
  const Move move = legal_[policy_choice(others_, d, rules, legal_, rng_)];
  [[maybe_unused]] const MoveResult r = apply_move(d, rules, move);
  assert(r.ok());
}

// The seat to act of `d` takes the one-card pile and discards so that the hand ends by deadlock,
// when one such discard leaves its side ahead of every other (the discard that does it by the most);
// returns whether it did. `d` is unchanged otherwise.
bool Ismcts::deadlock_if_it_leads(GameState& d, const Rules& rules) {
  const int mover = d.turn;
  const int side = side_of(d, rules, mover);
  const Move take{MoveKind::Pile};
  GameState taken = d;
  if (!apply_move(taken, rules, take).ok()) return false;
  legal_moves(taken, rules, scratch_);
  int best_margin = 0;
  Move best{};
  bool found = false;
  for (const Move& m : scratch_) {
    if (m.kind != MoveKind::Discard) continue;
    GameState end = taken;
    if (!apply_move(end, rules, m).ok() || !end.over() || end.end != EndReason::Deadlock) continue;
    const HandResult r = score_hand(end, rules);
    int own = 0, other = std::numeric_limits<int>::min();
    for (int k = 0; k < r.side_count; ++k) {
      const SideResult& x = r.sides[static_cast<std::size_t>(k)];
      if (x.side == side) own = x.total;
      else other = std::max(other, x.total);
    }
    if (other == std::numeric_limits<int>::min() || own - other <= best_margin) continue;
    best_margin = own - other;
    best = m;
    found = true;
  }
  if (!found) return false;
  apply_move(d, rules, take);
  apply_move(d, rules, best);
  return true;
}

// The reward of every seat's side at the end of the rollout (see the header): per side a value
// (its hand total, or the heuristic's evaluation of an unfinished hand), then the reward of the
// side's value against the best other side's.
void Ismcts::reward_per_seat(GameState& s, const Rules& rules) {
  std::array<int, kSideSlots> sides{};
  std::array<double, kSideSlots> value{};
  int count = 0;
  if (!s.over() && params_.evaluation == IsmctsEvaluation::Heuristic) {
    // The rollout policy's heuristic parameters when it is a heuristic with some, else the
    // defaults for the rules and the number of players.
    const HeuristicParams& h = policy_.heuristic ? *policy_.heuristic : HeuristicParams::defaults(rules, s.players);
    count = heuristic_side_values(s, rules, h, sides, value);
  } else {
    if (!s.over()) {
      s.phase = Phase::Over;
      s.end = EndReason::StockExhausted;
      s.closing_side = -1;
    }
    const HandResult result = score_hand(s, rules);
    count = result.side_count;
    for (int k = 0; k < count; ++k) {
      const SideResult& r = result.sides[static_cast<std::size_t>(k)];
      sides[static_cast<std::size_t>(k)] = r.side;
      value[static_cast<std::size_t>(r.side)] = r.total;
    }
  }
  if (params_.reward == IsmctsReward::Equity) {
    equity_per_seat(s, rules, value);
    return;
  }
  for (int seat = 0; seat < s.players; ++seat) {
    const int side = side_of(s, rules, seat);
    double best_other = -std::numeric_limits<double>::infinity();
    bool present = false;
    for (int k = 0; k < count; ++k) {
      const int x = sides[static_cast<std::size_t>(k)];
      if (x == side) present = true;
      else best_other = std::max(best_other, value[static_cast<std::size_t>(x)]);
    }
    double reward = 0;
    if (present) {
      const double own = value[static_cast<std::size_t>(side)];
      if (best_other == -std::numeric_limits<double>::infinity()) {
        reward = 1;
      } else if (params_.reward == IsmctsReward::Margin) {
        reward = 0.5 + 0.5 * std::tanh((own - best_other) / params_.margin_scale);
      } else {
        // Win: 1 on top alone, 0.5 for every side sharing the top, 0 below it.
        reward = own > best_other ? 1.0 : own == best_other ? 0.5 : 0.0;
      }
    }
    seat_reward_[static_cast<std::size_t>(seat)] = reward;
  }
}

// reward = Equity (two sides, 0 and 1: choose() refuses three players): each seat's side's
// chance of winning the match, from the match scores before this hand and the sides' values.
void Ismcts::equity_per_seat(const GameState& s, const Rules& rules,
                             const std::array<double, kSideSlots>& value) {
  const double p0 =
      match_equity(rules, {static_cast<double>(s.scores[0]), static_cast<double>(s.scores[1])},
                   {value[0], value[1]}, params_.equity_sigma, params_.equity_points);
  for (int seat = 0; seat < s.players; ++seat)
    seat_reward_[static_cast<std::size_t>(seat)] = side_of(s, rules, seat) == 0 ? p0 : 1.0 - p0;
}

double match_equity(const Rules& rules, const std::array<double, 2>& before,
                    const std::array<double, 2>& hand, double sigma, double points) {
  const double t0 = before[0] + hand[0], t1 = before[1] + hand[1];
  if (passes_match_target(rules, t0) || passes_match_target(rules, t1))
    return t0 > t1 ? 1.0 : t0 < t1 ? 0.0 : 0.5;
  const double hands = std::max(1.0, (rules.match_target - std::max(t0, t1)) / points);
  // Phi(x) = erfc(-x / sqrt 2) / 2.
  return 0.5 * std::erfc(-(t0 - t1) / (sigma * std::sqrt(hands)) / std::sqrt(2.0));
}

void Ismcts::clear_statistics() {
  nodes_.clear();
  root_.clear();
  nodes_count_ = 0;
  iterations_run_ = 0;
  max_depth_ = 0;
  rollout_moves_ = 0;
}

Move Ismcts::choose(const GameState& s, const Rules& rules) {
  // The only read of the real state: everything below works on the observation.
  const Observation obs = observe(s, rules, s.turn);
  const bool may_reuse = params_.keep_tree && params_.threads <= 1 && !kept_key_.empty();
  const std::string key = may_reuse ? observation_string(obs, rules) : std::string();

  if (params_.reward == IsmctsReward::Equity && rules.sides != 2)
    throw std::invalid_argument(
        s.players == 3 ? "ISMCTS: reward 'equity' needs two sides; three players keep per-seat match "
                         "scores (RULES E.6), which the equity model does not cover"
                       : "ISMCTS: reward 'equity' needs two sides; six players in three sides of two "
                         "(RULES F.7) are not covered by the equity model");
  // The root's legal moves depend only on what the seat to act sees; any determinization does.
  legal_moves(determinize(obs, rules, 0), rules, legal_);
  if (legal_.empty() || legal_.size() == 1 || params_.iterations < 1) {
    clear_statistics();
    kept_key_.clear();
    nodes_count_ = 1;  // the root
    if (legal_.empty())
      throw StateError("the hand is not over but the seat to act has no legal move: observation '" +
                       observation_string(obs, rules) + "'");
    return legal_[0];
  }
  const bool reusing = may_reuse && reuse_subtree(key);
  kept_key_.clear();
  if (!reusing) clear_statistics();
  nodes_count_ = 1;
  const Move first = legal_[0];
  // The rollout policy of this search: by the number of players when asked (policy_by_players).
  policy_ = params_.policy_by_players ? (s.players == 2 ? Policy::Greedy : Policy::Random)
                                      : params_.policy;
  others_ = others_policy();
  const bool timed = params_.time_limit > 0;
  // A time limit beyond a day is no limit (and keeps the clock arithmetic in range).
  const auto deadline =
      std::chrono::steady_clock::now() +
      std::chrono::duration_cast<std::chrono::steady_clock::duration>(
          std::chrono::duration<double>(timed ? std::min(params_.time_limit, 86400.0) : 0.0));
  try {
    if (params_.threads > 1) search_parallel(obs, rules, timed, deadline);
    else search(obs, rules, params_.iterations, timed, deadline, reusing);
  } catch (...) {
    clear_statistics();  // no statistics of a search that did not finish
    throw;
  }
  // The most visited root move; the children are in canonical order, so ties go to the first.
  const IsmctsChild* best = nullptr;
  for (const IsmctsChild& c : root_)
    if (!best || c.visits > best->visits) best = &c;
  if (!best) return first;
  if (params_.keep_tree && params_.threads <= 1) remember_subtree(obs, rules, best->move);
  return best->move;
}

void Ismcts::remember_subtree(const Observation& obs, const Rules& rules, const Move& move) {
  // Only a move whose outcome the seat sees in full: a draw shows a new card, a discard ends the
  // turn, a brazilian first draw is a draw.
  if (move.kind != MoveKind::Pile && move.kind != MoveKind::Meld && move.kind != MoveKind::Add) return;
  std::int32_t child = nodes_.empty() ? -1 : nodes_[0].first_child;
  while (child >= 0 && !(nodes_[static_cast<std::size_t>(child)].move == move))
    child = nodes_[static_cast<std::size_t>(child)].next_sibling;
  if (child < 0 || nodes_[static_cast<std::size_t>(child)].first_child < 0) return;
  GameState after = determinize(obs, rules, 0);
  if (!apply_move(after, rules, move).ok() || after.over() || after.turn != obs.player) return;
  // The observation after the move, from any determinization: it differs from the real one when
  // the move revealed a hidden card (a pozzetto picked up), and then nothing is reused.
  kept_key_ = observation_string(observe(after, rules, obs.player), rules);
  kept_node_ = child;
}

// The kept subtree becomes the tree (its root the kept node) when `observation` is the one it was
// kept for.
bool Ismcts::reuse_subtree(const std::string& observation) {
  if (observation != kept_key_ || kept_node_ < 0 ||
      static_cast<std::size_t>(kept_node_) >= nodes_.size())
    return false;
  // Copy the subtree breadth first; each node's children stay consecutive in canonical order.
  spare_.clear();
  spare_.push_back(nodes_[static_cast<std::size_t>(kept_node_)]);
  spare_[0].next_sibling = -1;
  for (std::size_t i = 0; i < spare_.size(); ++i) {
    std::int32_t from = spare_[i].first_child;
    if (from < 0) continue;
    spare_[i].first_child = static_cast<std::int32_t>(spare_.size());
    while (from >= 0) {
      Node copy = nodes_[static_cast<std::size_t>(from)];
      from = copy.next_sibling;
      copy.next_sibling = from >= 0 ? static_cast<std::int32_t>(spare_.size()) + 1 : -1;
      spare_.push_back(copy);
    }
  }
  nodes_.swap(spare_);
  root_.clear();
  iterations_run_ = 0;
  max_depth_ = 0;
  rollout_moves_ = 0;
  return true;
}

// Root parallelism: `threads` trees, this one and workers_, each with its share of the
// iterations and its own generator seeded from ours (drawn in a fixed order, so an untimed search
// does not depend on the scheduling); their root statistics are summed move by move.
void Ismcts::search_parallel(const Observation& obs, const Rules& rules, bool timed,
                             std::chrono::steady_clock::time_point deadline) {
  const int trees = params_.threads;
  IsmctsParams worker = params_;
  worker.threads = 1;
  if (static_cast<int>(workers_.size()) != trees - 1) {
    workers_.clear();
    workers_.reserve(static_cast<std::size_t>(trees - 1));
    for (int k = 1; k < trees; ++k) workers_.emplace_back(worker);
  }
  std::vector<std::uint64_t> seeds(static_cast<std::size_t>(trees - 1));
  for (std::uint64_t& x : seeds) x = rng_.next();
  const int share = params_.iterations / trees, extra = params_.iterations % trees;
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(trees));
  std::vector<std::thread> pool;
  pool.reserve(static_cast<std::size_t>(trees - 1));
  for (int k = 1; k < trees; ++k)
    pool.emplace_back([&, k] {
      Ismcts& w = workers_[static_cast<std::size_t>(k - 1)];
      try {
        w.rng_ = Rng(seeds[static_cast<std::size_t>(k - 1)]);
        w.policy_ = policy_;
        w.others_ = others_;
        w.clear_statistics();
        w.search(obs, rules, share + (k < extra ? 1 : 0), timed, deadline);
      } catch (...) {
        errors[static_cast<std::size_t>(k)] = std::current_exception();
      }
    });
  try {
    search(obs, rules, share + (extra > 0 ? 1 : 0), timed, deadline);
  } catch (...) {
    errors[0] = std::current_exception();
  }
  for (std::thread& th : pool) th.join();
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
  for (const Ismcts& w : workers_) {
    nodes_count_ += w.nodes_count_;
    iterations_run_ += w.iterations_run_;
    max_depth_ = std::max(max_depth_, w.max_depth_);
    rollout_moves_ += w.rollout_moves_;
    // Both lists are in canonical move order: one merge pass.
    std::vector<IsmctsChild> merged;
    merged.reserve(root_.size() + w.root_.size());
    std::size_t i = 0, j = 0;
    while (i < root_.size() || j < w.root_.size()) {
      if (j == w.root_.size() || (i < root_.size() && move_less(root_[i].move, w.root_[j].move))) {
        merged.push_back(root_[i++]);
      } else if (i == root_.size() || move_less(w.root_[j].move, root_[i].move)) {
        merged.push_back(w.root_[j++]);
      } else {
        IsmctsChild c = root_[i++];
        const IsmctsChild& d = w.root_[j++];
        c.visits += d.visits;
        c.availability += d.availability;
        c.reward += d.reward;
        merged.push_back(c);
      }
    }
    root_.swap(merged);
  }
}

// The iterations of one tree: at most `iterations`, and until `deadline` when timed (the clock
// read every 16 iterations); the root's statistics go to root_.
void Ismcts::search(const Observation& obs, const Rules& rules, int iterations, bool timed,
                    std::chrono::steady_clock::time_point deadline, bool reusing) {
  if (!reusing) {
    nodes_.clear();
    nodes_.emplace_back();  // the root
  }
  // A time limit alone (iterations unlimited) still runs at most 10^8 iterations, the most an
  // iteration count may ask for: the tree grows by one node per iteration.
  iterations = std::min(iterations, 100'000'000);
  // One node per iteration at most; beyond 65,536 the vector grows by itself.
  nodes_.reserve(static_cast<std::size_t>(std::min(iterations, 1 << 16)) + 1);
  const double c = params_.exploration;
  const int observer = obs.player;
  const bool others_by_policy = params_.opponents != IsmctsOpponents::Tree;
  // The heuristic keeps the legal moves of the turns it imagined and then played
  // (heuristic_recalled_moves, heuristic.hpp).
  const bool recall = others_by_policy && others_.kind == Policy::Kind::Heuristic;
  const int cap = g_move_cap.load(std::memory_order_relaxed);
  // The root's legal moves depend only on what the seat to act sees (choose()): worked out once
  // here, not at the first step of every iteration.
  legal_moves(determinize(obs, rules, 0), rules, root_legal_);
  // The position before the observer's last tree move when that was a meld or a lay-off (its
  // legal moves in before_legal_): the next position's moves are mostly those
  // (legal_moves_after, which falls back on legal_moves when they are not sure to be).
  GameState before{};
  for (int it = 0; it < iterations; ++it) {
    if (timed && (it & 15) == 0 && it > 0 && std::chrono::steady_clock::now() >= deadline) break;
    GameState d = determinize(obs, rules, rng_.next());
    int node = 0;
    int descent = 0;  // moves played below the root, the other seats' policy moves included
    bool after_meld = false;  // `before` and before_legal_ hold the position before d's last move
    path_.clear();
    path_.push_back(0);
    // Selection and expansion: one level of the tree per observer step (at most nodes_.size()
    // of them); the policy moves of the other seats between them end with the hand.
    while (!d.over()) {
      if (descent == cap) [[unlikely]]
        throw_move_cap(d, rules, cap);
      ++descent;
      if (descent == 1) {
        legal_ = root_legal_;
#ifndef NDEBUG
        legal_moves(d, rules, scratch_);
        assert(scratch_ == root_legal_);
#endif
      } else if (after_meld) {
        legal_moves_after(before, before_legal_, d, rules, legal_);
      } else if (!recall || !heuristic_recalled_moves(d, rules, legal_)) {
        legal_moves(d, rules, legal_);
      }
      after_meld = false;
      if (legal_.empty()) throw_no_legal_move(d, rules);  // a determinization the rules refuse
      const int mover = d.turn;
      if (others_by_policy && mover != observer) {
        play_policy_move(d, rules);
        continue;
      }
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
      if (!untried_.empty()) {
        const Move move =
            legal_[static_cast<std::size_t>(untried_[rng_.bounded(untried_.size())])];
        [[maybe_unused]] const MoveResult r = apply_move(d, rules, move);
        assert(r.ok());
        node = add_child(node, move, mover);
        nodes_[static_cast<std::size_t>(node)].availability = 1;
        path_.push_back(node);
        break;
      }
      const Move move = nodes_[static_cast<std::size_t>(best)].move;
      if (move.kind == MoveKind::Meld || move.kind == MoveKind::Add) {
        before = d;
        before_legal_.swap(legal_);
        after_meld = true;
      }
      [[maybe_unused]] const MoveResult r = apply_move(d, rules, move);
      assert(r.ok());
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
  nodes_count_ = static_cast<int>(nodes_.size());
  root_.clear();
  for (std::int32_t n = nodes_[0].first_child; n >= 0;
       n = nodes_[static_cast<std::size_t>(n)].next_sibling) {
    const Node& x = nodes_[static_cast<std::size_t>(n)];
    root_.push_back({x.move, x.visits, x.availability, x.reward});
  }
}

}  // namespace burraco
