// burraco — information sets, determinization, playout policies and batch playouts
// (RULES C.9, docs/search.md).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "burraco/game.hpp"
#include "burraco/heuristic.hpp"
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

// The positions of the current turn, for the rule that a built-in policy never returns to one
// (docs/search.md "Candidates"). Only a meld or lay-off that empties the hand of a side that has
// not met its brazilian opening minimum can first bring the game back to a position of the turn
// (the short opening returns the cards, RULES C.3); after such a return every meld or lay-off may
// retrace a step already taken, so from then on all of them are tried. A turn is watched only
// under rules with an opening minimum when the side to act has not opened, and even then nothing
// is copied until the turn's first meld or lay-off: the positions before it (the draw phase and
// the first position of the meld phase) are the position of the draw phase, which no meld-phase
// move can give back, and the position the filter is asked about. Elsewhere it costs one test per
// move.
class TurnMemory {
 public:
  // A turn starts at `s` (or `s` is the first position of it that is known).
  void begin(const GameState& s, const Rules& rules) {
    watching_ = rules.opening_steps > 0 && !s.over() && !s.opened[side_of(s, rules, s.turn)];
    kept_ = false;
  }
  // Whether the turn is watched (a move of it could repeat a position).
  bool watching() const { return watching_; }
  // `p` is a position of this turn, known from a history: the memory holds it and the moves
  // given to follow() after it (then the position now).
  void remember(const GameState& p) {
    if (!watching_) return;
    start_ = p;
    kept_ = true;
    moves_.clear();
    positions_.clear();
    strings_.clear();
  }
  void follow(const Move& move) {
    if (kept_) moves_.push_back(move);
  }
  // `move` is about to be played from `s`, a position of this turn.
  void before(const GameState& s, const Move& move) {
    if (watching_ && !kept_ && (move.kind == MoveKind::Meld || move.kind == MoveKind::Add)) remember(s);
  }
  // `move` was played by `seat` and gave `s`.
  void played(const GameState& s, const Rules& rules, const Move& move, int seat) {
    if (s.turn != seat || s.over()) {
      begin(s, rules);
    } else {
      follow(move);
    }
  }
  // The policy's candidates among `legal` (the legal moves of `s`, the position now, in canonical
  // order): `legal` less every move after which the position equals one of this turn; `legal`
  // itself when that removes nothing or everything.
  const std::vector<Move>& candidates(const GameState& s, const Rules& rules,
                                      const std::vector<Move>& legal) {
    return watching_ ? filter(s, rules, legal) : legal;
  }

 private:
  const std::vector<Move>& filter(const GameState& s, const Rules& rules,
                                  const std::vector<Move>& legal);
  bool repeats(const GameState& now, const GameState& after, const Rules& rules);
  bool came_back(const GameState& s, const Rules& rules);
  void materialize(const Rules& rules);

  bool watching_ = false;
  bool kept_ = false;                 // start_ and moves_ hold the turn from start_ on
  GameState start_;
  std::vector<Move> moves_;           // played from start_ this turn
  std::vector<GameState> positions_;  // start_ and the positions after moves_, made on demand
  std::vector<std::string> strings_;  // their state strings, made on demand
  std::vector<Move> candidates_;
};

// How much card `c` of `hand` helps the rest of it (docs/search.md "greedy"): 1000 for a wild;
// else 10 per other card of its rank, 1 per other card of its suit one or two ranks away (the ace
// both low and high; twos do not count). The greedy discard and the heuristic use it.
int greedy_usefulness(CardSet hand, Card c);
// The sum of greedy_usefulness(hand, c) over the cards c of `hand` that are not wild (each copy
// counted), computed at once from the planes (the heuristic values hands with it).
int hand_usefulness(CardSet hand);

// The greedy policy's choice among `moves` (candidates of the position `s` in canonical order,
// non-empty).
std::size_t greedy_choice(const GameState& s, const Rules& rules, const std::vector<Move>& moves);

// The heuristic policy's choice (heuristic.hpp) with the policy's parameters or the defaults.
std::size_t heuristic_policy_choice(Policy policy, const GameState& s, const Rules& rules,
                                    const std::vector<Move>& moves);

// legal_moves(s, rules, out) when the heuristic policy has them at hand, and then true: the
// positions of the turn it imagined after a pile take it then chose (heuristic.cpp); else false,
// `out` unchanged. The policy loops ask it before legal_moves when the heuristic plays.
bool heuristic_recalled_moves(const GameState& s, const Rules& rules, std::vector<Move>& out);

// The policy's choice among `moves` (as greedy_choice), the randomness drawn from `rng`: random
// takes rng.bounded(size), a hook one rng.next() for its stream, greedy and heuristic nothing.
inline std::size_t policy_choice(Policy policy, const GameState& s, const Rules& rules,
                                 const std::vector<Move>& moves, Rng& rng) {
  switch (policy.kind) {
    case Policy::Kind::Random: return static_cast<std::size_t>(rng.bounded(moves.size()));
    case Policy::Kind::Greedy: return greedy_choice(s, rules, moves);
    case Policy::Kind::Heuristic: return heuristic_policy_choice(policy, s, rules, moves);
    case Policy::Kind::Hook: break;
  }
  const std::int64_t i = policy.hook->choose(s, rules, moves, rng.next());
  if (i < 0 || static_cast<std::uint64_t>(i) >= moves.size()) [[unlikely]]
    throw_policy_index(*policy.hook, i, moves.size());
  return static_cast<std::size_t>(i);
}

// Plays the hand with the policy until it ends, or until `cut` moves were played (cut < 0: no
// cut); on_move(state_before, move) before each move. `memory` holds the positions of the turn
// before `s` (begin(s) if none are known) and follows the moves. Throws StateError on a position
// with no legal move or when the hand passes kMaxHandMoves moves, PolicyError (or what a hook
// throws) when the policy fails; `s` is then the position reached. Returns the number of moves
// played.
template <class OnMove>
int playout(GameState& s, const Rules& rules, Policy policy, std::uint64_t seed,
            std::vector<Move>& buffer, TurnMemory& memory, OnMove&& on_move, int cut = -1) {
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
    const std::vector<Move>& moves = memory.candidates(s, rules, buffer);
    const Move move = moves[policy_choice(policy, s, rules, moves, rng)];
    on_move(s, move);
    memory.before(s, move);
    const int seat = s.turn;
    apply_move(s, rules, move);
    memory.played(s, rules, move, seat);
    ++played;
  }
  return played;
}

// The same, from `s` with no earlier position of its turn known.
template <class OnMove>
int playout(GameState& s, const Rules& rules, Policy policy, std::uint64_t seed,
            std::vector<Move>& buffer, OnMove&& on_move) {
  TurnMemory memory;
  memory.begin(s, rules);
  return playout(s, rules, policy, seed, buffer, memory, std::forward<OnMove>(on_move));
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

inline constexpr int kObservationSize = 511;
// Six players (RULES F.7) have a layout of their own: 681 features (docs/search.md).
inline constexpr int kObservationSizeSix = 681;
inline constexpr int observation_size(const Rules& rules) {
  return rules.players == 6 ? kObservationSizeSix : kObservationSize;
}
// The features of docs/search.md "Observation tensor", from the observation only.
void observation_features(const Observation& o, const Rules& rules, float* out);

}  // namespace burraco
