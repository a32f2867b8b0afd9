// burraco — the policies a policy loop plays (random, greedy, heuristic, or a hook of the
// caller's), the loops that play them (playout, play_hand) and their errors (docs/search.md).
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "burraco/game.hpp"
#include "burraco/greedy.hpp"
#include "burraco/heuristic.hpp"
#include "burraco/rng.hpp"

namespace burraco {

// A policy of the caller's (docs/native.md): the native policies of burraco/policy.h
// (NativePolicy, burraco/native.hpp) and the binding's Python callables. choose() gets the real
// state and must read it only as the seat to act may (observe() or the native view does that).
class PolicyHook {
 public:
  virtual ~PolicyHook() = default;
  // The index of the move to play among `moves` (the candidates of `s`, non-empty, in canonical
  // order); `random` seeds the call's own random stream. An index out of range is refused by
  // policy_choice; a policy that fails otherwise throws PolicyError (or the binding's error).
  virtual std::int64_t choose(const GameState& s, const Rules& rules, const std::vector<Move>& moves,
                             std::uint64_t random) const = 0;
  // The policy's name, for errors and reprs.
  virtual const std::string& name() const = 0;
};

// A policy that failed: it returned no legal move's index, or raised. The message names it.
class PolicyError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The policy of a policy loop: a built-in one, or a hook (kept alive by the caller). The
// heuristic policy plays with `heuristic` (kept alive by the caller), or with the default
// parameters when it is null.
struct Policy {
  enum class Kind : std::uint8_t { Random, Greedy, Hook, Heuristic };
  Kind kind = Kind::Random;
  const PolicyHook* hook = nullptr;
  const HeuristicParams* heuristic = nullptr;

  static const Policy Random;
  static const Policy Greedy;
  static const Policy Heuristic;
  static constexpr Policy of(const PolicyHook* hook) { return Policy{Kind::Hook, hook, nullptr}; }
  friend constexpr bool operator==(const Policy&, const Policy&) = default;
};
inline constexpr Policy Policy::Random{Policy::Kind::Random, nullptr, nullptr};
inline constexpr Policy Policy::Greedy{Policy::Kind::Greedy, nullptr, nullptr};
inline constexpr Policy Policy::Heuristic{Policy::Kind::Heuristic, nullptr, nullptr};

// A built-in policy by name: the engine's half of burraco.bots.BUILT_INS (which documents them;
// tests/test_bot_specs.py checks that both name the same bots). A bare name is looked up here.
struct BuiltinPolicy {
  std::string_view name;
  Policy policy;
};
// Every built-in, in the order of burraco.bots.BUILT_INS: random, greedy, heuristic, and the
// heuristic with one of its parameter sets whatever the number of players (docs/bots.md).
std::span<const BuiltinPolicy> builtin_policies();
// The built-in of that name, or null.
const BuiltinPolicy* find_builtin_policy(std::string_view name);
// Their names quoted and joined, for messages: "'random', 'greedy', ...".
std::string builtin_policy_names();

// docs/search.md "Move cap": a policy loop (playout, playouts, ISMCTS rollouts, Match) that has
// played this many moves of a hand without reaching its end stops with a StateError. Real hands
// take under 1,000 moves.
inline constexpr int kMaxHandMoves = 100'000;
// The cap the loops apply, read once per loop: kMaxHandMoves, or a lower one while a test sets it
// (burraco._core._set_move_cap; not a user setting).
inline std::atomic<int> g_move_cap{kMaxHandMoves};

// A position a policy loop cannot go on from: a hand that is not over with no legal move, or a
// hand past kMaxHandMoves moves. The message names the state string; the bindings raise it as
// burraco.InvalidStateError.
class StateError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

[[noreturn]] void throw_no_legal_move(const GameState& s, const Rules& rules);
[[noreturn]] void throw_move_cap(const GameState& s, const Rules& rules, int cap);
// "policy 'NAME' returned INDEX: expected the index of one of its N moves (0 to N-1)".
std::string policy_index_text(const std::string& name, const std::string& index, std::size_t moves);
[[noreturn]] void throw_policy_index(const PolicyHook& hook, std::int64_t index, std::size_t moves);

// The policy's choice among `moves` (as greedy_choice), the randomness drawn from `rng`: random
// takes rng.bounded(size), a hook one rng.next() for its stream, greedy and heuristic nothing.
inline std::size_t policy_choice(Policy policy, const GameState& s, const Rules& rules,
                                 const std::vector<Move>& moves, Rng& rng) {
  switch (policy.kind) {
    case Policy::Kind::Random: return static_cast<std::size_t>(rng.bounded(moves.size()));
    case Policy::Kind::Greedy: return greedy_choice(s, rules, moves);
    case Policy::Kind::Heuristic: return heuristic_policy_choice(policy.heuristic, s, rules, moves);
    case Policy::Kind::Hook: break;
  }
  const std::int64_t i = policy.hook->choose(s, rules, moves, rng.next());
  if (i < 0 || static_cast<std::uint64_t>(i) >= moves.size()) [[unlikely]]
    throw_policy_index(*policy.hook, i, moves.size());
  return static_cast<std::size_t>(i);
}

// Plays the hand with the policy until it ends, or until `cut` moves were played (cut < 0: no
// cut); on_move(state_before, move) before each move. The policy chooses among the legal moves
// (docs/search.md "Candidates"). Throws StateError on a position with no legal move or when the
// hand passes kMaxHandMoves moves, PolicyError (or what a hook throws) when the policy fails; `s`
// is then the position reached. Returns the number of moves played.
template <class OnMove>
int playout(GameState& s, const Rules& rules, Policy policy, std::uint64_t seed,
            std::vector<Move>& buffer, OnMove&& on_move, int cut = -1) {
  Rng rng(seed);
  const int cap = g_move_cap.load(std::memory_order_relaxed);
  int played = 0;
  while (!s.over() && played != cut) {
    if (played == cap) [[unlikely]]
      throw_move_cap(s, rules, cap);
    if (policy.kind != Policy::Kind::Heuristic || !heuristic_recalled_moves(s, rules, buffer))
      legal_moves(s, rules, buffer);
    if (buffer.empty()) [[unlikely]]
      throw_no_legal_move(s, rules);
    const Move move = buffer[policy_choice(policy, s, rules, buffer, rng)];
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

// A batch of playouts (docs/search.md "Playouts"): hand i dealt and played by play_hand from
// batch_seed(seed, i), for i in [0, count), split into consecutive runs over `threads` threads
// (at most one a hand; the calling thread plays the first run). row(i, row) receives each row
// once, from the thread that played it. A thread stops at its first failure; once every thread
// has stopped, the failure of the earliest run that failed (StateError, PolicyError) is thrown.
void play_hands(const Rules& rules, std::uint64_t seed, Policy policy, std::size_t count,
                int threads, const std::function<void(std::size_t, const PlayoutRow&)>& row);

// A refusal, with the kind of error a binding raises for it (Python: TypeError, BurracoError,
// IllegalMoveError, InvalidStateError); an empty message accepts.
struct Refusal {
  enum class Kind : std::uint8_t { Type, Value, Illegal, State };
  Kind kind = Kind::Value;
  std::string message;
  bool ok() const { return message.empty(); }
};

// Why `name` ("policy_move") cannot choose a move in `s` (ok() if it can): the hand is over
// (Illegal), or it is not over and has no legal move (State). `legal` gets the legal moves.
Refusal choice_refusal(const GameState& s, const Rules& rules, const std::string& name,
                       std::vector<Move>& legal);

// "Rules('italian', ...) cannot be dealt: WHY" (rules_repr, check_playable), or "" for rules a
// deal accepts.
std::string playable_refusal(const Rules& rules);

// Game.playout (docs/search.md): plays `game`'s hand (a burraco::Game, history.hpp, or what
// wraps one) to its end in place, recording every move (game.record). A loop that fails puts the
// game back as it was (game.truncate) and throws as playout does. Returns the number of moves
// played.
template <class G>
int play_recorded(G& game, Policy policy, std::uint64_t seed, std::vector<Move>& buffer) {
  const GameState start = game.state;
  const std::size_t count = game.move_count();
  try {
    return playout(game.state, *game.rules, policy, seed, buffer,
                   [&](const GameState& before, const Move& move) { game.record(before, move); });
  } catch (...) {
    game.truncate(count, start);
    throw;
  }
}

}  // namespace burraco
