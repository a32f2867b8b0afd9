// The policy loops' errors and batches of playouts (policies.hpp, docs/search.md).
#include "burraco/policies.hpp"

#include <string>
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

}  // namespace burraco
