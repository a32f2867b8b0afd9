// The policy loops' errors and batches of playouts (policies.hpp, docs/search.md).
#include "burraco/policies.hpp"

#include <algorithm>
#include <exception>
#include <string>
#include <thread>
#include <vector>

namespace burraco {

// ---- policy loops: errors ------------------------------------------------------------------------

void throw_no_legal_move(const GameState& s, const Rules& rules) {
  throw StateError("the hand is not over but has no legal move: state '" + state_string(s, rules) +
                   "'");
}

void throw_move_cap(const GameState& s, const Rules& rules, int cap) {
  throw StateError("the hand is not over after " + std::to_string(cap) + " moves (MAX_HAND_MOVES" +
                   (cap == kMaxHandMoves ? std::string() : " lowered to " + std::to_string(cap) + " by a test") +
                   "): state '" + state_string(s, rules) + "'");
}

std::string policy_index_text(const std::string& name, const std::string& index, std::size_t moves) {
  return "policy '" + name + "' returned " + index + ": expected the index of one of its " +
         std::to_string(moves) +
         (moves == 1 ? " move (0)" : " moves (0 to " + std::to_string(moves - 1) + ")");
}

void throw_policy_index(const PolicyHook& hook, std::int64_t index, std::size_t moves) {
  throw PolicyError(policy_index_text(hook.name(), std::to_string(index), moves));
}

// ---- the built-ins ------------------------------------------------------------------------------

std::span<const BuiltinPolicy> builtin_policies() {
  static const HeuristicParams opening = HeuristicParams::partnership_opening();
  static const BuiltinPolicy table[] = {
      {"random", Policy::Random},
      {"greedy", Policy::Greedy},
      {"heuristic", Policy::Heuristic},
      {"heuristic:2p", Policy{Policy::Kind::Heuristic, nullptr, &HeuristicParams::defaults(2)}},
      {"heuristic:4p", Policy{Policy::Kind::Heuristic, nullptr, &HeuristicParams::defaults(4)}},
      {"heuristic:4p-opening", Policy{Policy::Kind::Heuristic, nullptr, &opening}},
  };
  return table;
}

const BuiltinPolicy* find_builtin_policy(std::string_view name) {
  for (const BuiltinPolicy& builtin : builtin_policies())
    if (builtin.name == name) return &builtin;
  return nullptr;
}

std::string builtin_policy_names() {
  std::string names;
  for (const BuiltinPolicy& builtin : builtin_policies())
    names += (names.empty() ? "'" : ", '") + std::string(builtin.name) + "'";
  return names;
}

// ---- batches ------------------------------------------------------------------------------------

std::uint64_t batch_seed(std::uint64_t seed, std::uint64_t i) {
  std::uint64_t state = seed + i * 0x9E3779B97F4A7C15ULL;
  return splitmix64(state);
}

PlayoutRow play_hand(const Rules& rules, std::uint64_t hand_seed, Policy policy,
                     std::vector<Move>& buffer) {
  PlayoutRow row;
  row.seed = hand_seed;
  GameState s = deal_seeded(rules, hand_seed, 0, {});
  try {
    row.moves = playout(s, rules, policy, hand_seed, buffer, [](const GameState&, const Move&) {});
  } catch (const StateError& e) {
    throw StateError("hand seed " + std::to_string(hand_seed) + ": " + e.what());
  }
  const HandResult r = score_hand(s, rules);
  row.end_reason = static_cast<std::uint8_t>(r.reason);
  if (s.players == 3) {
    for (int seat = 0; seat < 3; ++seat) row.scores[seat] = r.player_half_points[seat];
  } else {
    for (int k = 0; k < r.side_count && k < 3; ++k) row.scores[k] = r.sides[k].total;
  }
  return row;
}

void play_hands(const Rules& rules, std::uint64_t seed, Policy policy, std::size_t count,
                int threads, const std::function<void(std::size_t, const PlayoutRow&)>& row) {
  const std::size_t workers =
      std::min<std::size_t>(static_cast<std::size_t>(std::max(threads, 1)),
                            std::max<std::size_t>(count, 1));
  std::vector<std::exception_ptr> errors(workers);
  auto work = [&](std::size_t w) {
    try {
      std::vector<Move> buffer;
      buffer.reserve(256);
      const std::size_t from = count * w / workers, to = count * (w + 1) / workers;
      for (std::size_t i = from; i < to; ++i)
        row(i, play_hand(rules, batch_seed(seed, i), policy, buffer));
    } catch (...) {  // the first hand of this run that failed
      errors[w] = std::current_exception();
    }
  };
  std::vector<std::thread> pool;
  for (std::size_t w = 1; w < workers; ++w) pool.emplace_back(work, w);
  work(0);
  for (std::thread& t : pool) t.join();
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
}

Refusal choice_refusal(const GameState& s, const Rules& rules, const std::string& name,
                       std::vector<Move>& legal) {
  legal.clear();
  if (s.over())
    return {Refusal::Kind::Illegal, name + ": the hand is over, there is no move to choose"};
  legal_moves(s, rules, legal);
  if (!legal.empty()) return {};
  return {Refusal::Kind::State, name + ": the hand is not over but has no legal move: state '" +
                                    state_string(s, rules) + "'"};
}

std::string playable_refusal(const Rules& rules) {
  const std::string why = check_playable(rules);
  return why.empty() ? why : rules_repr(rules) + " cannot be dealt: " + why;
}

}  // namespace burraco
