// burraco — the options of an ISMCTS search by name (ismcts_options.hpp).
#include "burraco/ismcts_options.hpp"

#include <algorithm>
#include <array>
#include <utility>
#include <vector>

namespace burraco {

namespace {

constexpr std::array<std::pair<const char*, IsmctsReward>, 3> kRewards{
    {{"win", IsmctsReward::Win}, {"margin", IsmctsReward::Margin}, {"equity", IsmctsReward::Equity}}};
constexpr std::array<std::pair<const char*, IsmctsEvaluation>, 2> kEvaluations{
    {{"score", IsmctsEvaluation::Score}, {"heuristic", IsmctsEvaluation::Heuristic}}};
constexpr std::array<std::pair<const char*, IsmctsOpponents>, 5> kOpponents{
    {{"tree", IsmctsOpponents::Tree}, {"policy", IsmctsOpponents::Policy},
     {"random", IsmctsOpponents::Random}, {"greedy", IsmctsOpponents::Greedy},
     {"heuristic", IsmctsOpponents::Heuristic}}};

Refusal wrong_type(std::string_view name, const OptionValue& v, const std::string& expected) {
  return {Refusal::Kind::Type,
          "ISMCTS: " + std::string(name) + " expected " + expected + ", got " + v.type + " " + v.shown};
}

Refusal out_of_range(std::string_view name, const OptionValue& v, const std::string& expected) {
  return {Refusal::Kind::Value, "ISMCTS: " + std::string(name) + " " + v.shown + ": expected " + expected};
}

// An int in [lo, hi].
Refusal set_int(int& field, std::string_view name, const OptionValue& v, long long lo, long long hi) {
  if (v.boolean || !v.index) return wrong_type(name, v, "an int");
  if (!v.fits || v.integer < lo || v.integer > hi)
    return out_of_range(name, v, "an int from " + std::to_string(lo) + " to " + std::to_string(hi));
  field = static_cast<int>(v.integer);
  return {};
}

// A finite real number, > 0 (margin_scale, time_limit, equity_sigma, equity_points) or, with
// `zero`, >= 0 (exploration).
Refusal set_real(double& field, std::string_view name, const OptionValue& v, bool zero = false) {
  if (v.boolean || !v.real) return wrong_type(name, v, "a real number");
  const double x = v.number;
  if ((zero ? x >= 0 : x > 0) && x <= std::numeric_limits<double>::max()) {
    field = x;
    return {};
  }
  return out_of_range(name, v, zero ? "a finite number >= 0" : "a finite number > 0");
}

// One of a few names.
template <class E, std::size_t N>
Refusal set_choice(E& field, std::string_view name, const OptionValue& v,
                   const std::array<std::pair<const char*, E>, N>& options) {
  std::string wanted;
  for (const auto& [text, e] : options) wanted += (wanted.empty() ? "'" : " or '") + std::string(text) + "'";
  if (!v.text) return wrong_type(name, v, wanted);
  for (const auto& [text, e] : options)
    if (v.str == text) {
      field = e;
      return {};
    }
  return out_of_range(name, v, wanted);
}

template <class E, std::size_t N>
const char* choice_name(E e, const std::array<std::pair<const char*, E>, N>& options) {
  for (const auto& [text, x] : options)
    if (x == e) return text;
  return "?";
}

}  // namespace

Refusal set_ismcts_option(IsmctsParams& p, std::string_view name, const OptionValue& value) {
  if (name == "iterations") {
    if (!value.none) return set_int(p.iterations, name, value, 1, 100000000);
    if (p.time_limit <= 0)
      return {Refusal::Kind::Value,
              "ISMCTS: iterations None: expected an int, or a time_limit to stop the search"};
    p.iterations = kUnlimitedIterations;
    return {};
  }
  if (name == "max_rollout_moves")
    return value.none ? Refusal{} : set_int(p.max_rollout_moves, name, value, 0, 1000000000);
  if (name == "time_limit") return value.none ? Refusal{} : set_real(p.time_limit, name, value);
  if (name == "exploration") return set_real(p.exploration, name, value, true);
  if (name == "margin_scale") return set_real(p.margin_scale, name, value);
  if (name == "equity_sigma") return set_real(p.equity_sigma, name, value);
  if (name == "equity_points") return set_real(p.equity_points, name, value);
  if (name == "reward") return set_choice(p.reward, name, value, kRewards);
  if (name == "evaluation") return set_choice(p.evaluation, name, value, kEvaluations);
  if (name == "opponents") return set_choice(p.opponents, name, value, kOpponents);
  if (name == "threads") return set_int(p.threads, name, value, 1, 64);
  if (name == "keep_tree") {
    if (!value.boolean) return wrong_type(name, value, "True or False");
    p.keep_tree = value.flag;
    return {};
  }
  return {Refusal::Kind::Type, "ISMCTS: no option named '" + std::string(name) + "'"};
}

const char* ismcts_name(IsmctsReward reward) { return choice_name(reward, kRewards); }
const char* ismcts_name(IsmctsEvaluation evaluation) { return choice_name(evaluation, kEvaluations); }
const char* ismcts_name(IsmctsOpponents opponents) { return choice_name(opponents, kOpponents); }

KnobValue ismcts_option(const IsmctsParams& p, std::string_view name) {
  using Kind = KnobValue::Kind;
  KnobValue v;
  const auto integer = [&v](bool set, long long x) {
    v.kind = set ? Kind::Int : Kind::None;
    v.integer = x;
    return v;
  };
  const auto real = [&v](bool set, double x) {
    v.kind = set ? Kind::Real : Kind::None;
    v.real = x;
    return v;
  };
  const auto text = [&v](const char* x) {
    v.kind = Kind::Text;
    v.text = x;
    return v;
  };
  if (name == "iterations") return integer(p.iterations != kUnlimitedIterations, p.iterations);
  if (name == "max_rollout_moves") return integer(p.max_rollout_moves >= 0, p.max_rollout_moves);
  if (name == "threads") return integer(true, p.threads);
  if (name == "time_limit") return real(p.time_limit > 0, p.time_limit);
  if (name == "exploration") return real(true, p.exploration);
  if (name == "margin_scale") return real(true, p.margin_scale);
  if (name == "equity_sigma") return real(true, p.equity_sigma);
  if (name == "equity_points") return real(true, p.equity_points);
  if (name == "reward") return text(ismcts_name(p.reward));
  if (name == "evaluation") return text(ismcts_name(p.evaluation));
  if (name == "opponents") return text(ismcts_name(p.opponents));
  if (name == "keep_tree") {
    v.kind = Kind::Bool;
    v.flag = p.keep_tree;
  }
  return v;
}

std::string ismcts_repr(const IsmctsParams& p, std::string_view policy) {
  std::string out = "ISMCTS(";
  for (const std::string_view name : kIsmctsOptions) {
    out += (name == kIsmctsOptions[0] ? "" : ", ") + std::string(name) + "=";
    if (name == "seed") out += std::to_string(p.seed);
    else if (name == "policy") out += p.policy_by_players ? std::string("None") : std::string(policy);
    else out += python_literal(ismcts_option(p, name));
  }
  return out + ")";
}

Refusal ismcts_position_refusal(const IsmctsParams& params, const GameState& s,
                                const Rules& rules, const std::string& name) {
  std::vector<Move> legal;
  if (s.over()) return choice_refusal(s, rules, name, legal);
  if (params.reward == IsmctsReward::Equity && rules.sides != 2)
    return {Refusal::Kind::Value,
            name + ": reward 'equity' needs two sides, and " + rules_repr(rules) +
                (s.players == 3 ? " has three players (their per-seat match scores, rules.md "
                                  "E.6, are not modelled)"
                                : " has three sides") +
                ": use reward='margin' or 'win'"};
  return choice_refusal(s, rules, name, legal);
}

std::vector<IsmctsChild> ismcts_hints(std::vector<IsmctsChild> children, const Move& chosen) {
  if (children.empty()) children.push_back({chosen, 0, 0, 0.0});
  std::stable_sort(children.begin(), children.end(), [](const IsmctsChild& a, const IsmctsChild& b) {
    if (a.visits != b.visits) return a.visits > b.visits;
    const double va = a.visits ? a.reward / a.visits : 0, vb = b.visits ? b.reward / b.visits : 0;
    return va > vb;
  });
  return children;
}

std::string match_equity_refusal(const Rules& rules) {
  if (rules.sides == 2) return "";
  return "ISMCTS.match_equity: " + rules_repr(rules) +
         (rules.players == 3 ? " has three players" : " has three sides") +
         "; the equity model needs two sides";
}

}  // namespace burraco
