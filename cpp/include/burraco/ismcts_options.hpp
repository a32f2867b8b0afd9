// burraco — the options of an ISMCTS search by name (docs/search.md "Search options"): the range
// or the names each accepts, the refusal of a value it does not, the names and the constructor
// call a repr shows, and the positions a search refuses. A binding reads a caller's value into an
// OptionValue and raises the refusal it gets back; the texts are written here once.
#pragma once

#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "burraco/game.hpp"
#include "burraco/ismcts.hpp"
#include "burraco/rules.hpp"

namespace burraco {

// iterations=None (a time limit alone): this cap, shown as None.
inline constexpr int kUnlimitedIterations = std::numeric_limits<int>::max();

// A value a caller passed for an option, as its language has it. Every flag that holds is set
// (an int is also a real number); the names in messages quote `shown` and `type`.
struct OptionValue {
  bool none = false;
  bool boolean = false;  // True or False (and nothing else below)
  bool flag = false;     // its value
  bool index = false;    // an integer (an int, or what converts to one exactly)
  bool fits = false;     // index: whether it fits a long long
  long long integer = 0;
  bool real = false;     // a real number
  double number = 0;     // real: its value as a double, infinite when too large for one
  bool text = false;     // a string, read as text
  std::string str;
  std::string shown;     // the value as the caller writes it (Python: repr)
  std::string type;      // the name of its type
};

// Sets the option `name` of `params` (iterations, exploration, max_rollout_moves, reward,
// margin_scale, equity_sigma, equity_points, evaluation, opponents, time_limit, threads,
// keep_tree) from `value`, or refuses it with params unchanged: a value of the wrong type
// (Kind::Type, "ISMCTS: NAME expected an int, got str '3'") or out of range (Kind::Value). None
// leaves an optional one unset; iterations=None needs the time_limit set before it.
Refusal set_ismcts_option(IsmctsParams& params, std::string_view name, const OptionValue& value);

// The names the options reward, evaluation and opponents take.
const char* ismcts_name(IsmctsReward reward);
const char* ismcts_name(IsmctsEvaluation evaluation);
const char* ismcts_name(IsmctsOpponents opponents);

// The options a caller sets by name, in the constructor's order (seed and policy, which a binding
// reads itself, among them).
inline constexpr std::string_view kIsmctsOptions[] = {
    "iterations", "seed", "exploration", "policy", "max_rollout_moves", "reward", "margin_scale",
    "evaluation", "opponents", "time_limit", "threads", "keep_tree", "equity_sigma",
    "equity_points"};

// The option `name` (of kIsmctsOptions, but seed and policy) as a caller reads it back: the value
// set_ismcts_option took, None for an optional one that is unset (Kind::Other: no such option).
KnobValue ismcts_option(const IsmctsParams& params, std::string_view name);

// The constructor call that makes an equal search, every option given, `policy` as the caller
// writes the rollout policy (shown as None when params.policy_by_players):
// "ISMCTS(iterations=1000, seed=0, exploration=0.7, policy='greedy', ...)".
std::string ismcts_repr(const IsmctsParams& params, std::string_view policy);

// Why the search `name` ("ISMCTS.choose") cannot choose a move in `s` (ok() if it can): the hand
// is over (Illegal), reward equity needs two sides (Value), or the hand is not over and has no
// legal move (State).
Refusal ismcts_position_refusal(const IsmctsParams& params, const GameState& s,
                                const Rules& rules, const std::string& name);

// ISMCTS.hint's ranking of the root's moves after a search that chose `chosen`: most visited
// first (the chosen move leads), ties by mean reward, then canonical order; a forced move (no
// search, no children) is the one entry, unvisited.
std::vector<IsmctsChild> ismcts_hints(std::vector<IsmctsChild> children, const Move& chosen);

// Why match_equity cannot value hands under `rules` ("" if it can): the model needs two sides.
std::string match_equity_refusal(const Rules& rules);

}  // namespace burraco
