// burraco_selftest: the ISMCTS options by name (burraco/ismcts_options.hpp) and the refusals the
// bindings raise (policies.hpp, arena.hpp) without Python: every option set and refused with its
// message, floats written as Python writes them, the repr, the ranking of hints, a batch of
// playouts that does not depend on its threads, and an arena run on its own thread.
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "check.hpp"
#include "burraco/arena.hpp"
#include "burraco/ismcts_options.hpp"

using namespace burraco;

namespace {

int failures = 0;
#define OPTIONS_CHECK(cond) COUNT_CHECK(failures, cond)

OptionValue integer(long long v) {
  OptionValue o;
  o.index = o.fits = o.real = true;
  o.integer = v;
  o.number = static_cast<double>(v);
  o.shown = std::to_string(v);
  o.type = "int";
  return o;
}

OptionValue real(double x, const std::string& shown) {
  OptionValue o;
  o.real = true;
  o.number = x;
  o.shown = shown;
  o.type = "float";
  return o;
}

OptionValue text(const std::string& s) {
  OptionValue o;
  o.text = true;
  o.str = s;
  o.shown = "'" + s + "'";
  o.type = "str";
  return o;
}

OptionValue none() {
  OptionValue o;
  o.none = true;
  o.shown = o.type = "None";
  return o;
}

void check_options() {
  IsmctsParams p;
  OPTIONS_CHECK(set_ismcts_option(p, "iterations", integer(50)).ok() && p.iterations == 50);
  const Refusal low = set_ismcts_option(p, "iterations", integer(0));
  OPTIONS_CHECK(low.kind == Refusal::Kind::Value && p.iterations == 50);
  OPTIONS_CHECK(low.message == "ISMCTS: iterations 0: expected an int from 1 to 100000000");
  const Refusal typed = set_ismcts_option(p, "threads", text("2"));
  OPTIONS_CHECK(typed.kind == Refusal::Kind::Type);
  OPTIONS_CHECK(typed.message == "ISMCTS: threads expected an int, got str '2'");
  // iterations=None needs a time limit set first.
  OPTIONS_CHECK(set_ismcts_option(p, "iterations", none()).kind == Refusal::Kind::Value);
  OPTIONS_CHECK(set_ismcts_option(p, "time_limit", real(0.5, "0.5")).ok() && p.time_limit == 0.5);
  OPTIONS_CHECK(set_ismcts_option(p, "iterations", none()).ok());
  OPTIONS_CHECK(p.iterations == kUnlimitedIterations);
  OPTIONS_CHECK(set_ismcts_option(p, "exploration", integer(0)).ok() && p.exploration == 0);
  OPTIONS_CHECK(set_ismcts_option(p, "margin_scale", integer(0)).message ==
                "ISMCTS: margin_scale 0: expected a finite number > 0");
  OPTIONS_CHECK(!set_ismcts_option(p, "equity_sigma", real(1e308 * 10, "inf")).ok());
  OPTIONS_CHECK(set_ismcts_option(p, "reward", text("equity")).ok() &&
                p.reward == IsmctsReward::Equity);
  OPTIONS_CHECK(set_ismcts_option(p, "opponents", text("nobody")).message ==
                "ISMCTS: opponents 'nobody': expected 'tree' or 'policy' or 'random' or 'greedy' "
                "or 'heuristic'");
  OptionValue yes;
  yes.boolean = yes.flag = true;
  OPTIONS_CHECK(set_ismcts_option(p, "keep_tree", yes).ok() && p.keep_tree);
  OPTIONS_CHECK(set_ismcts_option(p, "threads", yes).kind == Refusal::Kind::Type);  // not an int
  OPTIONS_CHECK(set_ismcts_option(p, "no_such", integer(1)).kind == Refusal::Kind::Type);
  OPTIONS_CHECK(std::string(ismcts_name(IsmctsEvaluation::Heuristic)) == "heuristic");
}

void check_float_text() {
  const std::pair<double, const char*> cases[] = {
      {0.7, "0.7"},     {300, "300.0"},       {0, "0.0"},          {-0.0, "-0.0"},
      {1e-05, "1e-05"}, {0.0001, "0.0001"},   {1e16, "1e+16"},     {1e15, "1000000000000000.0"},
      {-2.5, "-2.5"},   {123.456, "123.456"}, {1.5e300, "1.5e+300"}, {720, "720.0"}};
  for (const auto& [x, want] : cases) {
    OPTIONS_CHECK(python_float_text(x) == want);
    if (python_float_text(x) != want) std::fprintf(stderr, "  %s\n", python_float_text(x).c_str());
  }
  IsmctsParams p;
  p.iterations = kUnlimitedIterations;
  p.time_limit = 2;
  p.policy_by_players = true;
  OPTIONS_CHECK(ismcts_repr(p, "'greedy'") ==
                "ISMCTS(iterations=None, seed=0, exploration=0.7, policy=None, "
                "max_rollout_moves=None, reward='margin', margin_scale=300.0, evaluation='score', "
                "opponents='policy', time_limit=2.0, threads=1, keep_tree=False, "
                "equity_sigma=720.0, equity_points=600.0)");
}

void check_refusals() {
  const Rules italian = *preset_rules("italian");
  GameState s = deal_seeded(italian, 7, 0, {});
  IsmctsParams p;
  OPTIONS_CHECK(ismcts_position_refusal(p, s, italian, "ISMCTS.choose").ok());
  p.reward = IsmctsReward::Equity;
  OPTIONS_CHECK(ismcts_position_refusal(p, s, italian, "ISMCTS.choose").ok());
  const Rules three = *preset_rules("italian-3p");
  const Refusal sides = ismcts_position_refusal(p, deal_seeded(three, 7, 0, {}), three,
                                                "ISMCTS.choose");
  OPTIONS_CHECK(sides.kind == Refusal::Kind::Value &&
                sides.message == "ISMCTS.choose: reward 'equity' needs two sides, and "
                                 "Rules('italian-3p') has three players (their per-seat match scores, rules.md E.6, are "
                                 "not modelled): use reward='margin' or 'win'");
  OPTIONS_CHECK(match_equity_refusal(*preset_rules("italian-3p")) ==
                "ISMCTS.match_equity: Rules('italian-3p') has three players; the equity model "
                "needs two sides");
  std::vector<Move> legal;
  OPTIONS_CHECK(choice_refusal(s, italian, "policy_move", legal).ok() && !legal.empty());
  s.phase = Phase::Over;
  const Refusal over = choice_refusal(s, italian, "policy_move", legal);
  OPTIONS_CHECK(over.kind == Refusal::Kind::Illegal &&
                over.message == "policy_move: the hand is over, there is no move to choose");
  OPTIONS_CHECK(arena_rules_refusal(*preset_rules("italian-3p")) ==
                "arena: Rules('italian-3p') has three players; duplicate pairs need two or four "
                "(two sides)");
  OPTIONS_CHECK(arena_rules_refusal(italian).empty());
  OPTIONS_CHECK(arena_pairs_refusal(3, 2) ==
                "arena: pairs 3 to 2: expected first <= stop and at most 10**7 pairs");
  OPTIONS_CHECK(arena_pairs_refusal(0, 10'000'000).empty());
}

void check_hints() {
  Move a, b, c;
  a.kind = MoveKind::Draw;
  b.kind = MoveKind::Pile;
  c.kind = MoveKind::Keep;
  const std::vector<IsmctsChild> ranked =
      ismcts_hints({{a, 2, 5, 0.5}, {b, 4, 5, 1.0}, {c, 4, 5, 3.0}}, c);
  OPTIONS_CHECK(ranked.size() == 3 && ranked[0].move == c && ranked[1].move == b &&
                ranked[2].move == a);
  const std::vector<IsmctsChild> forced = ismcts_hints({}, a);
  OPTIONS_CHECK(forced.size() == 1 && forced[0].move == a && forced[0].visits == 0);
}

void check_batches() {
  const Rules rules = *preset_rules("italian-2p");
  std::vector<PlayoutRow> one(6), three(6);
  play_hands(rules, 11, Policy::Random, 6, 1, [&](std::size_t i, const PlayoutRow& r) { one[i] = r; });
  play_hands(rules, 11, Policy::Random, 6, 3, [&](std::size_t i, const PlayoutRow& r) { three[i] = r; });
  for (std::size_t i = 0; i < 6; ++i)
    OPTIONS_CHECK(one[i].seed == batch_seed(11, i) && one[i].moves == three[i].moves &&
                  one[i].scores == three[i].scores && one[i].moves > 0);
  BotSpec greedy;
  greedy.policy = Policy::Greedy;
  ArenaRunner run(rules, greedy, greedy, 5, 0, 2, 2, true, false);
  while (!run.wait(std::chrono::milliseconds(100))) {
  }
  OPTIONS_CHECK(!run.failure && run.games.size() == 4 && run.done() == 4);
  OPTIONS_CHECK(!run.games.empty() && run.games[0].moves > 0 &&
                run.games[0].history.size() == static_cast<std::size_t>(run.games[0].moves));
}

}  // namespace

int check_ismcts_options() {
  check_options();
  check_float_text();
  check_refusals();
  check_hints();
  check_batches();
  if (failures) std::fprintf(stderr, "ismcts options: %d failures\n", failures);
  return failures;
}
