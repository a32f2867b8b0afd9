// burraco_selftest: the knob values a binding passes (burraco/rules.hpp KnobValue) and what the
// core answers without Python: each knob's checks and the texts of its refusals, the value read
// back, the Python literals of a repr (floats as Python writes them), overrides with a new player
// count, the canonical rules text, and the built-in policies by name (burraco/policies.hpp).
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "check.hpp"
#include "burraco/native.hpp"
#include "burraco/policies.hpp"
#include "burraco/rules.hpp"

using namespace burraco;

namespace {

int failures = 0;
#define VALUES_CHECK(cond) COUNT_CHECK(failures, cond)

KnobValue of_int(long long v) {
  KnobValue out;
  out.kind = KnobValue::Kind::Int;
  out.integer = v;
  out.real = static_cast<double>(v);
  out.real_too = true;  // as a Python int is
  return out;
}
KnobValue of_real(double v) {
  KnobValue out;
  out.kind = KnobValue::Kind::Real;
  out.real = v;
  return out;
}
KnobValue of_text(std::string v) {
  KnobValue out;
  out.kind = KnobValue::Kind::Text;
  out.text = std::move(v);
  return out;
}
KnobValue of_bool(bool v) {
  KnobValue out;
  out.kind = KnobValue::Kind::Bool;
  out.flag = v;
  return out;
}
KnobValue of_tuple(std::vector<KnobValue> items) {
  KnobValue out;
  out.kind = KnobValue::Kind::Tuple;
  out.items = std::move(items);
  return out;
}
KnobValue none() {
  KnobValue out;
  out.kind = KnobValue::Kind::None;
  return out;
}

// What setting `name` to `value` in the italian rules answers; the rules unchanged on a refusal.
std::string set(const char* name, const KnobValue& value) {
  Rules rules = *preset_rules("italian");
  const std::string expected = set_knob_value(rules, *find_knob(name), value);
  if (!expected.empty()) VALUES_CHECK(rules == *preset_rules("italian"));
  return expected;
}

std::string repr_of(const char* preset, std::vector<KnobOverride> overrides) {
  Rules rules = *preset_rules(preset);
  const KnobRefusal refusal = override_knobs(rules, overrides);
  VALUES_CHECK(refusal.ok());
  return rules_repr(rules);
}

void check_knob_checks() {
  VALUES_CHECK(set("players", of_int(5)) == "2, 3, 4 or 6");
  VALUES_CHECK(set("players", of_real(4.0)) == "2, 3, 4 or 6");
  VALUES_CHECK(set("players", of_int(6)).empty());
  VALUES_CHECK(set("jokers", of_int(3)) == "0, 2, 4 or 6");
  VALUES_CHECK(set("jokers", of_int(8)) == "an integer from 0 to 6");
  VALUES_CHECK(set("hand_size", of_int(21)) == "an integer from 1 to 20");
  VALUES_CHECK(set("max_wild_per_meld", of_int(2)) == "the integer 1 (the only value supported)");
  VALUES_CHECK(set("initial_upcard", of_int(1)) == "True or False");
  VALUES_CHECK(set("run_wraparound", of_bool(true)) == "False (the only value supported)");
  VALUES_CHECK(set("semi_clean_burraco_bonus", none()).empty());
  VALUES_CHECK(set("cut_exact_probability", of_int(1)).empty());  // an int is a real number
  VALUES_CHECK(set("cut_exact_probability", of_real(1.5)) == "a number from 0.0 to 1.0");
  VALUES_CHECK(set("compare", of_text("<")) == "one of '>', '>='");
  VALUES_CHECK(set("compare", of_int(1)) == "one of '>', '>='");
  VALUES_CHECK(set("set_ranks", of_text("A23")) ==
               "a string of distinct set ranks from 'A3456789TJQK'");
  VALUES_CHECK(set("pozzetto_sizes", of_tuple({of_int(11)})) ==
               "a tuple of 2 integers (3 with six players), each from 1 to 30");
  VALUES_CHECK(set("pozzetto_sizes", of_tuple({of_int(18), of_int(11)})).empty());
  const std::string opening =
      set("opening_minimum", of_tuple({of_tuple({of_int(100), of_int(50)})}));
  VALUES_CHECK(opening.starts_with("None or up to 4 (from_score, minimum) pairs"));
  VALUES_CHECK(set("opening_minimum", of_tuple({of_tuple({of_int(0), of_int(50)})})).empty());
  // Every knob's value reads back, and sets it again unchanged.
  for (std::string_view preset : kPresetNames) {
    const Rules rules = player_baseline(preset_rules(preset)->preset, 6);
    for (const KnobInfo& k : knob_table()) {
      Rules copy = *preset_rules("italian");
      if (k.name == "players") copy = rules;  // the other knobs of six players are checked apart
      VALUES_CHECK(set_knob_value(copy, k, knob_value(rules, k)).empty());
      VALUES_CHECK(knob_value(copy, k) == knob_value(rules, k));
    }
  }
}

void check_literals() {
  VALUES_CHECK(python_literal(of_real(0.0)) == "0.0" && python_literal(of_real(-0.0)) == "-0.0");
  VALUES_CHECK(python_literal(of_real(0.1)) == "0.1" && python_literal(of_real(1.0)) == "1.0");
  VALUES_CHECK(python_literal(of_real(0.0001)) == "0.0001");
  VALUES_CHECK(python_literal(of_real(0.00001)) == "1e-05");
  VALUES_CHECK(python_literal(of_real(1.5e-7)) == "1.5e-07");
  VALUES_CHECK(python_literal(of_real(5e-324)) == "5e-324");
  VALUES_CHECK(python_literal(of_real(123.25)) == "123.25");
  VALUES_CHECK(python_literal(of_real(1e15)) == "1000000000000000.0");
  VALUES_CHECK(python_literal(of_real(1e16)) == "1e+16");
  VALUES_CHECK(python_literal(of_tuple({of_tuple({of_int(0), of_int(50)})})) == "((0, 50),)");
  VALUES_CHECK(python_literal(of_text("low")) == "'low'" && python_literal(none()) == "None");
  VALUES_CHECK(python_literal(of_bool(false)) == "False");
}

void check_overrides() {
  VALUES_CHECK(repr_of("italian", {}) == "Rules('italian')");
  VALUES_CHECK(repr_of("italian", {{"match_target", of_int(3000)}, {"players", of_int(2)}}) ==
               "Rules('italian', players=2, match_target=3000)");
  VALUES_CHECK(repr_of("brazilian", {{"cut_exact_probability", of_real(0.1)}}) ==
               "Rules('brazilian', cut_exact_probability=0.1)");
  VALUES_CHECK(repr_of("italian", {{"opening_minimum", none()}, {"set_ranks", of_text("KQJ")}}) ==
               "Rules('italian', set_ranks='JQK')");
  // Six players take three decks, six jokers and three packets; a knob changed before stays.
  Rules rules = *preset_rules("brazilian");
  VALUES_CHECK(override_knobs(rules, {{"match_target", of_int(3000)}}).ok());
  VALUES_CHECK(override_knobs(rules, {{"players", of_int(6)}}).ok());
  VALUES_CHECK(rules.decks == 3 && rules.jokers == 6 && rules.packets() == 3 && rules.sides == 3);
  VALUES_CHECK(rules_repr(rules) == "Rules('brazilian', players=6, match_target=3000)");
  VALUES_CHECK(changed_knobs(rules).size() == 2);
  // Refusals leave the rules as they were: an unknown knob, a value, the rules as a whole.
  const Rules before = rules;
  KnobRefusal refusal = override_knobs(rules, {{"decks", of_int(2)}, {"nope", of_int(1)}});
  VALUES_CHECK(refusal.unknown && refusal.index == 1 && rules == before);
  refusal = override_knobs(rules, {{"nope", of_int(1)}, {"players", of_int(7)}});
  VALUES_CHECK(!refusal.unknown && refusal.index == 1 && refusal.expected == "2, 3, 4 or 6");
  refusal = override_knobs(rules, {{"decks", of_int(2)}});
  VALUES_CHECK(refusal.refused.starts_with("Rules('brazilian', players=6, decks=2, ") &&
               refusal.refused.find(" is refused: jokers=6 is more than two per deck") !=
                   std::string::npos);
  VALUES_CHECK(rules == before && !knob_listed(*preset_rules("italian"), *find_knob("sides")));
}

void check_texts_and_policies() {
  Rules rules;
  std::string error;
  VALUES_CHECK(parse_canonical_rules_text("brazilian:players=2", rules, error) &&
               rules_repr(rules) == "Rules('brazilian', players=2)");
  VALUES_CHECK(!parse_canonical_rules_text("italian:players=4", rules, error) &&
               error == "not in canonical form ('italian')");
  // The lists of names for messages, in table order (a new preset or bot changes neither test).
  std::string presets;
  for (std::string_view name : kPresetNames)
    presets += (presets.empty() ? "" : ", ") + std::string(name);
  VALUES_CHECK(preset_names_text() == presets && presets.starts_with("italian, italian-2p, "));
  std::string bots;
  for (const BuiltinPolicy& bot : builtin_policies())
    bots += (bots.empty() ? "'" : ", '") + std::string(bot.name) + "'";
  VALUES_CHECK(builtin_policy_names() == bots &&
               bots.starts_with("'random', 'greedy', 'heuristic'"));
  VALUES_CHECK(find_builtin_policy("greedy")->policy == Policy::Greedy);
  VALUES_CHECK(find_builtin_policy("heuristic:2p")->policy.heuristic ==
               &HeuristicParams::defaults(2));
  VALUES_CHECK(find_builtin_policy("ismcts") == nullptr);
  // The bench helper sees the moves of the deal's first position on each call.
  const Rules italian = *preset_rules("italian");
  const GameState s = deal_seeded(italian, 3, 0, {});
  std::vector<Move> moves;
  legal_moves(s, italian, moves);
  VALUES_CHECK(repeat_view(s, italian, 0) == 0);
  VALUES_CHECK(repeat_view(s, italian, 3) >= 3 * moves.size());
}

}  // namespace

int check_rules_values() {
  check_knob_checks();
  check_literals();
  check_overrides();
  check_texts_and_policies();
  std::printf("selftest: knob values, reprs, overrides and built-in policies checked\n");
  return failures;
}
