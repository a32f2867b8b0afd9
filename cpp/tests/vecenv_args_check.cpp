// burraco_selftest: the vector environment's refusals (vecenv.hpp) with no Python: each bad
// argument of VectorGames is refused in the signature's order with its message, the caller's
// objects quoted through the callback; arrays of the wrong shape, dtype or flags, outputs that
// share memory, a bad env index, an even PCG64 increment and a bad action are named; good
// arguments give the configuration and the repr.
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "check.hpp"
#include "burraco/vecenv.hpp"

using namespace burraco;

namespace {

int failures = 0;
#define VEC_CHECK(cond) COUNT_CHECK(failures, cond)

// Quotes argument k as "<k>" (the binding gives Python's repr).
std::string shown_arg(VecArg arg) { return "<" + std::to_string(static_cast<int>(arg)) + ">"; }

void check_config() {
  const Rules italian = *preset_rules("italian");
  const VecEnvArgs good{8, 1, 2, std::string("win"), 7.5};
  VecEnvConfig config;
  VEC_CHECK(vec_env_config(italian, good, shown_arg, config).empty());
  VEC_CHECK(config.seat == 1 && config.win_reward && config.reward_scale == 7.5);
  VEC_CHECK(std::string(reward_name(config)) == "win");
  const std::string margin = "margin";
  const std::string ints = ": expected an int from ";
  const std::string finite = "reward_scale <5>: expected a positive finite number";
  struct Case {
    VecEnvArgs args;
    std::string message;  // after "VectorGames: "
  };
  const std::vector<Case> cases = {
      {{0, 0, 1, margin, 1.0}, "num_envs <1>" + ints + "1 to 1000000"},
      {{std::nullopt, 9, 0, std::nullopt, -1.0}, "num_envs <1>" + ints + "1 to 1000000"},
      {{2, 4, 1, margin, 1.0}, "seat <2>" + ints + "0 to 3"},
      {{2, std::nullopt, 1, margin, 1.0}, "seat <2>" + ints + "0 to 3"},
      {{2, 0, 65, margin, 1.0}, "threads <3>" + ints + "1 to 64"},
      {{2, 0, 1, std::string("points"), 1.0}, "reward <4>: expected 'margin' or 'win'"},
      {{2, 0, 1, std::nullopt, 1.0}, "reward <4>: expected 'margin' or 'win'"},
      {{2, 0, 1, margin, 0.0}, finite},
      {{2, 0, 1, margin, std::nullopt}, finite},
      {{2, 0, 1, margin, 1e308 * 10}, finite},
  };
  for (const Case& c : cases) {
    VecEnvConfig untouched;
    const std::string got = vec_env_config(italian, c.args, shown_arg, untouched);
    VEC_CHECK(got == "VectorGames: " + c.message);
    if (got != "VectorGames: " + c.message) std::fprintf(stderr, "  got: %s\n", got.c_str());
    VEC_CHECK(untouched.seat == 0 && !untouched.win_reward);  // nothing written
  }
  Rules six = italian;
  six.players = 6;
  VEC_CHECK(vec_env_config(six, good, shown_arg, config) ==
            "VectorGames: <0> has six players; vector environments play 2, 3 or 4 players "
            "(their 511-feature observation rows)");
  VEC_CHECK(vec_partner_refusal(italian, true, shown_arg).empty());
  VEC_CHECK(vec_partner_refusal(*preset_rules("italian-2p"), false, shown_arg).empty());
  VEC_CHECK(vec_partner_refusal(*preset_rules("italian-3p"), true, shown_arg) ==
            "VectorGames: partner <6>: only four players have a fixed partner");
}

void check_seed() {
  VEC_CHECK(pcg64_refusal(Pcg64::u128{5}, Pcg64::u128{7}, shown_arg).empty());
  VEC_CHECK(pcg64_refusal(Pcg64::u128{5}, std::nullopt, shown_arg) ==
            "VectorGames.seed: inc <9>: expected an int in [0, 2**128)");
  VEC_CHECK(pcg64_refusal(std::nullopt, Pcg64::u128{8}, shown_arg) ==
            "VectorGames.seed: inc <9>: expected an odd int (a PCG64 increment, as NumPy's "
            "bit_generator.state['state']['inc'] holds)");
  VEC_CHECK(pcg64_refusal(std::nullopt, Pcg64::u128{9}, shown_arg) ==
            "VectorGames.seed: state <8>: expected an int in [0, 2**128)");
}

// The arrays: what each must be, and each problem in its order.
void check_arrays(const VecEnv& env) {
  const int size = env.action_size();
  std::vector<float> obs(3 * kObservationSize);
  std::vector<std::uint8_t> masks(3 * static_cast<std::size_t>(size));
  const auto facts = [](void* data, int ndim, long long width, char kind, std::size_t item) {
    return ArrayFacts{true, data, ndim, 3, width, kind, item, true, true};
  };
  const auto shown = [] { return std::string("(shape S, dtype D)"); };
  const auto refusal = [&](VecArray which, const ArrayFacts& f) {
    return env.array_refusal(which, f, shown);
  };
  VEC_CHECK(refusal(VecArray::Observations, facts(obs.data(), 2, 511, 'f', 4)).empty());
  VEC_CHECK(refusal(VecArray::Masks, facts(masks.data(), 2, size, 'b', 1)).empty());
  VEC_CHECK(refusal(VecArray::Masks, facts(masks.data(), 2, size, 'u', 1)).empty());
  const std::string obs_is = "VectorGames: observations (shape S, dtype D) is ";
  const std::string wanted = ": expected a writeable C-contiguous float32 array of shape (3, 511)";
  VEC_CHECK(refusal(VecArray::Observations, facts(obs.data(), 2, 510, 'f', 4)) ==
            obs_is + "of the wrong shape" + wanted);
  VEC_CHECK(refusal(VecArray::Observations, facts(obs.data(), 1, -1, 'f', 4)) ==
            obs_is + "of the wrong shape" + wanted);
  VEC_CHECK(refusal(VecArray::Observations, facts(obs.data(), 2, 511, 'f', 8)) ==
            obs_is + "of the wrong dtype" + wanted);
  ArrayFacts strided = facts(obs.data(), 2, 511, 'f', 4);
  strided.c_contiguous = false;
  VEC_CHECK(refusal(VecArray::Observations, strided) == obs_is + "not C-contiguous" + wanted);
  ArrayFacts readonly = facts(obs.data(), 2, 511, 'f', 4);
  readonly.writeable = false;
  VEC_CHECK(refusal(VecArray::Observations, readonly) == obs_is + "read-only" + wanted);
  char* odd = reinterpret_cast<char*>(obs.data()) + 1;
  VEC_CHECK(refusal(VecArray::Observations, facts(odd, 2, 511, 'f', 4)) ==
            obs_is + "not aligned" + wanted);
  const auto list = [] { return std::string("list"); };
  VEC_CHECK(env.array_refusal(VecArray::Margins, ArrayFacts{}, list) ==
            "VectorGames: margins is a list, not a NumPy array: expected a writeable C-contiguous "
            "float64 array of shape (3,)");
  VEC_CHECK(refusal(VecArray::Masks, facts(masks.data(), 2, size, 'i', 2)) ==
            "VectorGames: masks (shape S, dtype D) is of the wrong dtype: expected a writeable "
            "C-contiguous int8 (or bool) array of shape (3, " + std::to_string(size) + ")");
  const std::string integers = ": expected a NumPy integer array of shape (3,)";
  VEC_CHECK(refusal(VecArray::Actions, facts(nullptr, 1, -1, 'u', 8)).empty());
  VEC_CHECK(refusal(VecArray::Actions, facts(nullptr, 1, -1, 'f', 8)) ==
            "VectorGames.step: actions (shape S, dtype D)" + integers);
  VEC_CHECK(env.array_refusal(VecArray::Actions, ArrayFacts{}, list) ==
            "VectorGames.step: actions (a list)" + integers);

  // Outputs sharing memory; null ones are not compared.
  std::vector<double> doubles(5);
  VecEnvOutput out;
  out.observations = obs.data();
  out.masks = masks.data();
  VEC_CHECK(out.overlap_refusal(3, size).empty());
  out.rewards = doubles.data();
  out.margins = doubles.data() + 2;
  VEC_CHECK(out.overlap_refusal(3, size) ==
            "VectorGames: rewards and margins share memory: expected separate arrays");
  out.margins = doubles.data() + 3;
  VEC_CHECK(out.overlap_refusal(2, size).empty());
}

void check_env() {
  const Rules rules = *preset_rules("italian-2p");
  VecEnvConfig config;
  VecEnv env(rules, 3, config, 1);
  const int size = env.action_size();
  VEC_CHECK(env.env_refusal(2, shown_arg).empty());
  for (const std::optional<long long> bad : {std::optional<long long>(3),
                                             std::optional<long long>(-1),
                                             std::optional<long long>()})
    VEC_CHECK(env.env_refusal(bad, shown_arg) ==
              "VectorGames: env <7>: expected an int from 0 to 2");
  VEC_CHECK(env.repr("R", "'random'", "") ==
            "VectorGames(R, 3, seat=0, opponent='random', reward='margin', threads=1)");
  VEC_CHECK(env.repr("R", "'random'", "'greedy'") ==
            "VectorGames(R, 3, seat=0, opponent='random', partner='greedy', reward='margin', "
            "threads=1)");
  check_arrays(env);

  // A bad action: nothing stepped, the env and the action named.
  std::vector<float> obs(3 * kObservationSize);
  std::vector<std::uint8_t> masks(3 * static_cast<std::size_t>(size));
  VecEnvOutput out;
  out.observations = obs.data();
  out.masks = masks.data();
  for (int i = 0; i < 3; ++i) {
    env.seed(i, Pcg64(static_cast<Pcg64::u128>(40 + i), 2 * static_cast<Pcg64::u128>(i) + 1));
    env.reset(i, 50 + static_cast<std::uint64_t>(i), out);
  }
  std::vector<std::int64_t> actions(3);
  env.random_actions(1, actions.data());
  actions[1] = size;
  const GameState before = env.state(1);
  std::optional<VecActionProblem> problem = env.checked_step(actions.data(), false, out);
  VEC_CHECK(problem && problem->env == 1 && !problem->in_range && env.state(1) == before);
  VEC_CHECK(problem && problem->message == "VectorGames.step: env 1: action " +
                                              std::to_string(size) +
                                              " is not an action id: expected an int from 0 to " +
                                              std::to_string(size - 1) + "; no env was stepped");
  actions[1] = -1;  // from an unsigned array: 2**64 - 1
  problem = env.checked_step(actions.data(), true, out);
  VEC_CHECK(problem && problem->message.find("action 18446744073709551615 is not") !=
                           std::string::npos);
  actions[1] = 3;  // 'reject': not legal in Italian
  problem = env.checked_step(actions.data(), false, out);
  VEC_CHECK(problem && problem->in_range && env.state(1) == before);
  const std::string illegal = "VectorGames.step: env 1: illegal action 3 ";
  VEC_CHECK(problem && problem->message.rfind(illegal, 0) == 0);
  VEC_CHECK(problem && problem->message.find("in the draw phase: no env was stepped; its legal "
                                             "actions are 0 ('draw'), 1 ('pile')") !=
                           std::string::npos);
  env.random_actions(1, actions.data());
  VEC_CHECK(!env.checked_step(actions.data(), false, out));
  VEC_CHECK(!(env.state(1) == before));
}

}  // namespace

int check_vecenv_args() {
  check_config();
  check_seed();
  check_env();
  std::printf("selftest: the vector environment's refusals, %d failed\n", failures);
  return failures;
}
