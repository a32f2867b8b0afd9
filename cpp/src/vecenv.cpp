// The vector environment (vecenv.hpp, docs/rl.md "The vector environment").
#include "burraco/vecenv.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <string_view>

namespace burraco {

namespace {

// The class the messages name: burraco._core.VectorGames, what the caller called.
constexpr const char* kName = "VectorGames";
// The arguments' names, in VecArg's order.
constexpr const char* kArgNames[] = {"rules",   "num_envs", "seat", "threads", "reward",
                                     "reward_scale", "partner", "env", "state", "inc"};

// "VectorGames<method>: <argument> <quoted>: <what was expected>"
std::string arg_refusal(const char* method, VecArg arg, const VecQuote& quoted,
                        const std::string& expected) {
  return std::string(kName) + method + ": " + kArgNames[static_cast<int>(arg)] + " " + quoted(arg) +
         ": " + expected;
}

bool within(const std::optional<long long>& value, long long lo, long long hi) {
  return value && *value >= lo && *value <= hi;
}

std::string ints(long long lo, long long hi) {
  return "expected an int from " + std::to_string(lo) + " to " + std::to_string(hi);
}

}  // namespace

std::string vec_env_config(const Rules& rules, const VecEnvArgs& args, const VecQuote& quoted,
                           VecEnvConfig& config) {
  if (std::string why = playable_refusal(rules); !why.empty()) return why;
  // Its rows are the 511-feature observations of 2, 3 or 4 players (docs/search.md).
  if (rules.players == 6)
    return std::string(kName) + ": " + quoted(VecArg::Rules) +
           " has six players; vector environments play 2, 3 or 4 players "
           "(their 511-feature observation rows)";
  if (!within(args.num_envs, 1, 1'000'000))
    return arg_refusal("", VecArg::NumEnvs, quoted, ints(1, 1'000'000));
  if (!within(args.seat, 0, rules.players - 1))
    return arg_refusal("", VecArg::Seat, quoted, ints(0, rules.players - 1));
  if (!within(args.threads, 1, 64)) return arg_refusal("", VecArg::Threads, quoted, ints(1, 64));
  if (args.reward != "margin" && args.reward != "win")
    return arg_refusal("", VecArg::Reward, quoted, "expected 'margin' or 'win'");
  const double scale = args.reward_scale.value_or(-1.0);
  if (!(scale > 0 && scale <= std::numeric_limits<double>::max()))
    return arg_refusal("", VecArg::RewardScale, quoted, "expected a positive finite number");
  config.seat = static_cast<int>(*args.seat);
  config.win_reward = args.reward == "win";
  config.reward_scale = scale;
  return "";
}

std::string vec_partner_refusal(const Rules& rules, bool given, const VecQuote& quoted) {
  if (!given || rules.players == 4) return "";
  return arg_refusal("", VecArg::Partner, quoted, "only four players have a fixed partner");
}

std::string pcg64_refusal(const std::optional<Pcg64::u128>& state,
                          const std::optional<Pcg64::u128>& inc, const VecQuote& quoted) {
  const char* const in_range = "expected an int in [0, 2**128)";
  if (!inc) return arg_refusal(".seed", VecArg::Inc, quoted, in_range);
  // PCG64 adds `inc` at every step and has its full period only with it odd; NumPy's
  // state always holds an odd one ((stream << 1) | 1): an even one is none of its states.
  if ((*inc & 1U) == 0)
    return arg_refusal(".seed", VecArg::Inc, quoted,
                   "expected an odd int (a PCG64 increment, as NumPy's "
                   "bit_generator.state['state']['inc'] holds)");
  if (!state) return arg_refusal(".seed", VecArg::State, quoted, in_range);
  return "";
}

const char* reward_name(const VecEnvConfig& config) { return config.win_reward ? "win" : "margin"; }

std::string VecEnvOutput::overlap_refusal(std::size_t envs, int action_size) const {
  struct Span {
    const char* name;
    const void* begin;
    std::size_t bytes;
  };
  const Span spans[] = {
      {"observations", observations, envs * kObservationSize * sizeof(float)},
      {"masks", masks, envs * static_cast<std::size_t>(action_size)},
      {"rewards", rewards, envs * sizeof(double)},
      {"terminated", terminated, envs * sizeof(bool)},
      {"truncated", truncated, envs * sizeof(bool)},
      {"margins", margins, envs * sizeof(double)}};
  for (std::size_t a = 0; a < std::size(spans); ++a)
    for (std::size_t b = a + 1; b < std::size(spans); ++b) {
      const auto x = reinterpret_cast<std::uintptr_t>(spans[a].begin);
      const auto y = reinterpret_cast<std::uintptr_t>(spans[b].begin);
      if (x && y && spans[a].bytes && spans[b].bytes && x < y + spans[b].bytes &&
          y < x + spans[a].bytes)
        return std::string(kName) + ": " + spans[a].name + " and " + spans[b].name +
               " share memory: expected separate arrays";
    }
  return "";
}

std::array<double, kMaxPlayers> seat_margins(const GameState& s, const Rules& rules) {
  const HandResult result = score_hand(s, rules);
  const int players = s.players;
  std::array<double, kMaxPlayers> score{};
  std::array<int, kMaxPlayers> side{};
  for (int seat = 0; seat < players; ++seat) {
    side[static_cast<std::size_t>(seat)] = side_of(s, rules, seat);
    if (players == 3) {
      score[static_cast<std::size_t>(seat)] = result.player_half_points[static_cast<std::size_t>(seat)] / 2.0;
      continue;
    }
    for (int k = 0; k < result.side_count; ++k)
      if (result.sides[static_cast<std::size_t>(k)].side == side[static_cast<std::size_t>(seat)])
        score[static_cast<std::size_t>(seat)] = result.sides[static_cast<std::size_t>(k)].total;
  }
  std::array<double, kMaxPlayers> margin{};
  for (int seat = 0; seat < players; ++seat) {
    double best = -std::numeric_limits<double>::infinity();
    for (int other = 0; other < players; ++other)
      if (side[static_cast<std::size_t>(other)] != side[static_cast<std::size_t>(seat)])
        best = std::max(best, score[static_cast<std::size_t>(other)]);
    if (best != -std::numeric_limits<double>::infinity())
      margin[static_cast<std::size_t>(seat)] = score[static_cast<std::size_t>(seat)] - best;
  }
  return margin;
}

VecEnv::VecEnv(const Rules& rules, int num_envs, const VecEnvConfig& config, int threads)
    : rules_(rules),
      table_(&meld_table(rules_)),
      action_size_(burraco::action_size(rules_)),
      config_(config),
      envs_(static_cast<std::size_t>(std::max(num_envs, 0))),
      threads_(std::clamp(threads, 1, std::max(num_envs, 1))) {
  for (Env& env : envs_) {
    env.legal.reserve(64);
    env.ids.reserve(64);
    env.scratch.reserve(64);
  }
  for (int w = 1; w < threads_; ++w)
    pool_.emplace_back([this, w] { worker_loop(static_cast<std::size_t>(w)); });
}

VecEnv::~VecEnv() {
  {
    std::lock_guard<std::mutex> lock(pool_mutex_);
    stopping_.store(true);
  }
  wake_.notify_all();
  for (std::thread& t : pool_) t.join();
}

namespace {

// Spins until done() or for about this long; true if done() came true.
constexpr auto kSpin = std::chrono::microseconds(100);

template <class Done>
bool spin_until(Done&& done) {
  const auto until = std::chrono::steady_clock::now() + kSpin;
  for (int k = 1;; ++k) {
    if (done()) return true;
    if (k % 64 == 0 && std::chrono::steady_clock::now() > until) return false;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }
}

}  // namespace

void VecEnv::worker_loop(std::size_t worker) {
  std::uint64_t seen = 0;
  for (;;) {
    const auto ready = [&] {
      return stopping_.load(std::memory_order_acquire) || generation_.load(std::memory_order_acquire) != seen;
    };
    if (!spin_until(ready)) {
      std::unique_lock<std::mutex> lock(pool_mutex_);
      wake_.wait(lock, ready);
    }
    if (stopping_.load(std::memory_order_acquire)) return;
    seen = generation_.load(std::memory_order_acquire);
    (*job_.load(std::memory_order_acquire))(worker);  // never throws: the jobs catch what the envs throw
    if (running_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      std::lock_guard<std::mutex> lock(pool_mutex_);
      finished_.notify_one();
    }
  }
}

void VecEnv::run_workers(const std::function<void(std::size_t)>& job) {
  if (pool_.empty()) {
    job(0);
    return;
  }
  job_.store(&job, std::memory_order_release);
  running_.store(pool_.size(), std::memory_order_release);
  {
    std::lock_guard<std::mutex> lock(pool_mutex_);
    generation_.fetch_add(1, std::memory_order_acq_rel);
  }
  wake_.notify_all();
  job(0);
  const auto finished = [&] { return running_.load(std::memory_order_acquire) == 0; };
  if (!spin_until(finished)) {
    std::unique_lock<std::mutex> lock(pool_mutex_);
    finished_.wait(lock, finished);
  }
  job_.store(nullptr, std::memory_order_release);
}

void VecEnv::play(Env& env, const Move& move) {
  const MoveResult result = apply_move(env.state, rules_, move);
  if (!result.ok()) [[unlikely]]
    throw std::logic_error("vector env: legal move '" + move_text(move) + "' was refused");
}

void VecEnv::play_others(Env& env) {
  GameState& s = env.state;
  const int seat = config_.seat;
  while (!s.over() && s.turn != seat) {
    const Policy policy =
        s.players == 4 && s.turn == (seat + 2) % 4 ? config_.partner : config_.opponent;
    legal_moves(s, rules_, env.scratch);
    if (env.scratch.empty()) [[unlikely]]
      throw_no_legal_move(s, rules_);
    // One seed of the stream per move, as game.policy_move(policy, seed) takes it.
    Rng rng(env.stream.below_2_63());
    const Move move = env.scratch[policy_choice(policy, s, rules_, env.scratch, rng)];
    play(env, move);
  }
  env.legal.clear();
  env.ids.clear();
  if (s.over()) return;
  legal_moves(s, rules_, env.legal);
  if (env.legal.empty()) [[unlikely]]
    throw_no_legal_move(s, rules_);
  for (const Move& m : env.legal) {
    const int id = action_id(m, *table_);
    if (id < 0) [[unlikely]]
      throw std::logic_error("legal move '" + move_text(m) + "' has no action id");
    env.ids.push_back(static_cast<std::int32_t>(id));
  }
}

void VecEnv::write(std::size_t i, const VecEnvOutput& out, double reward, bool terminated, double margin) {
  Env& env = envs_[i];
  observation_features(observe(env.state, rules_, config_.seat), rules_,
                       out.observations + i * kObservationSize);
  std::uint8_t* mask = out.masks + i * static_cast<std::size_t>(action_size_);
  if (env.mask_row != mask) std::memset(mask, 0, static_cast<std::size_t>(action_size_));
  for (const std::int32_t id : env.ids) mask[id] = 1;
  env.mask_row = mask;
  if (out.rewards) out.rewards[i] = reward;
  if (out.terminated) out.terminated[i] = terminated;
  if (out.truncated) out.truncated[i] = false;
  if (out.margins) out.margins[i] = margin;
}

void VecEnv::reset(int index, std::optional<std::uint64_t> deal, const VecEnvOutput& out) {
  const auto i = static_cast<std::size_t>(index);
  Env& env = envs_[i];
  if (!out.masks_unchanged) env.mask_row = nullptr;
  const std::uint64_t seed = deal ? *deal : env.stream.below_2_63();
  env.state = deal_seeded(rules_, seed, 0, {});
  env.done = false;
  try {
    play_others(env);
  } catch (...) {
    env.done = true;
    throw;
  }
  if (env.state.over()) {
    env.done = true;
    throw StateError("deal seed " + std::to_string(seed) + ": the hand ended before seat " +
                     std::to_string(config_.seat) + "'s first turn");
  }
  write(i, out, 0.0, false, 0.0);
}

std::optional<VecActionProblem> VecEnv::check(const std::int64_t* actions) const {
  for (std::size_t i = 0; i < envs_.size(); ++i) {
    const Env& env = envs_[i];
    if (env.done) continue;
    const std::int64_t a = actions[i];
    if (a < 0 || a >= action_size_) return VecActionProblem{static_cast<int>(i), a, false, {}};
    if (std::find(env.ids.begin(), env.ids.end(), static_cast<std::int32_t>(a)) == env.ids.end())
      return VecActionProblem{static_cast<int>(i), a, true, {}};
  }
  return std::nullopt;
}

namespace {

std::string action_text(const MeldTable& table, int id) {
  Move m;
  return std::to_string(id) + (action_move(id, table, m) ? " ('" + move_text(m) + "')" : "");
}

}  // namespace

std::string VecEnv::refusal(const VecActionProblem& p, bool given_unsigned) const {
  const std::string where = std::string(kName) + ".step: env " + std::to_string(p.env) + ": ";
  if (!p.in_range)
    return where + "action " +
           (given_unsigned ? std::to_string(static_cast<std::uint64_t>(p.action))
                           : std::to_string(p.action)) +
           " is not an action id: " + ints(0, action_size_ - 1) + "; no env was stepped";
  std::vector<int> ids;
  for (const Move& m : legal(p.env)) ids.push_back(action_id(m, *table_));
  std::sort(ids.begin(), ids.end());
  std::string shown;
  for (std::size_t k = 0; k < ids.size() && k < 8; ++k)
    shown += (k ? ", " : "") + action_text(*table_, ids[k]);
  if (ids.size() > 8) shown += " and " + std::to_string(ids.size() - 8) + " more";
  return where + "illegal action " + action_text(*table_, static_cast<int>(p.action)) + " in the " +
         (state(p.env).phase == Phase::Draw ? "draw" : "meld") +
         " phase: no env was stepped; its legal actions are " + shown;
}

std::string VecEnv::env_refusal(std::optional<long long> env, const VecQuote& quoted) const {
  if (within(env, 0, size() - 1)) return "";
  return arg_refusal("", VecArg::Env, quoted, ints(0, size() - 1));
}

std::string VecEnv::array_refusal(VecArray which, const ArrayFacts& a,
                                  const std::function<std::string()>& shown) const {
  const auto n = static_cast<long long>(size());
  if (which == VecArray::Actions) {
    if (a.is_array && (a.kind == 'i' || a.kind == 'u') && a.ndim == 1 && a.rows == n) return "";
    return std::string(kName) + ".step: actions " + (a.is_array ? shown() : "(a " + shown() + ")") +
           ": expected a NumPy integer array of shape (" + std::to_string(n) + ",)";
  }
  struct Layout {
    const char* name;
    long long width;  // -1: one entry per env
    std::size_t item;
    const char* dtype;
    const char* kinds;  // the dtype.kind letters it may have
  };
  const Layout layouts[] = {{"observations", kObservationSize, sizeof(float), "float32", "f"},
                            {"masks", action_size_, 1, "int8 (or bool)", "biu"},
                            {"rewards", -1, sizeof(double), "float64", "f"},
                            {"terminated", -1, sizeof(bool), "bool", "b"},
                            {"truncated", -1, sizeof(bool), "bool", "b"},
                            {"margins", -1, sizeof(double), "float64", "f"},
                            {"out", -1, sizeof(std::int64_t), "int64", "i"}};
  const Layout& l = layouts[static_cast<int>(which)];
  const char* problem = nullptr;
  if (a.is_array) {
    const bool shape_ok =
        a.ndim == (l.width < 0 ? 1 : 2) && a.rows == n && (l.width < 0 || a.width == l.width);
    if (!shape_ok)
      problem = "of the wrong shape";
    else if (std::string_view(l.kinds).find(a.kind) == std::string_view::npos ||
             a.itemsize != l.item)
      problem = "of the wrong dtype";
    else if (!a.c_contiguous)
      problem = "not C-contiguous";
    else if (!a.writeable)
      problem = "read-only";
    else if (reinterpret_cast<std::uintptr_t>(a.data) % l.item != 0)
      problem = "not aligned";
    if (!problem) return "";
  }
  const std::string wanted = "a writeable C-contiguous " + std::string(l.dtype) +
                             " array of shape (" + std::to_string(n) +
                             (l.width < 0 ? ",)" : ", " + std::to_string(l.width) + ")");
  const std::string named = std::string(kName) + ": " + l.name;
  if (!a.is_array) return named + " is a " + shown() + ", not a NumPy array: expected " + wanted;
  return named + " " + shown() + " is " + problem + ": expected " + wanted;
}

std::optional<VecActionProblem> VecEnv::checked_step(const std::int64_t* actions,
                                                     bool given_unsigned, const VecEnvOutput& out) {
  std::optional<VecActionProblem> problem = check(actions);
  if (problem)
    problem->message = refusal(*problem, given_unsigned);
  else
    step(actions, out);
  return problem;
}

std::string VecEnv::repr(const std::string& rules, const std::string& opponent,
                         const std::string& partner) const {
  return std::string(kName) + "(" + rules + ", " + std::to_string(size()) +
         ", seat=" + std::to_string(config_.seat) + ", opponent=" + opponent +
         (partner.empty() ? "" : ", partner=" + partner) + ", reward='" + reward_name(config_) +
         "', threads=" + std::to_string(threads_) + ")";
}

void VecEnv::random_actions(std::uint64_t seed, std::int64_t* out) const {
  for (std::size_t i = 0; i < envs_.size(); ++i) {
    const Env& env = envs_[i];
    if (env.done || env.ids.empty()) {
      out[i] = 0;
      continue;
    }
    Rng rng(batch_seed(seed, i));
    out[i] = env.ids[static_cast<std::size_t>(rng.bounded(env.ids.size()))];
  }
}

void VecEnv::step_one(std::size_t i, std::int64_t action, const VecEnvOutput& out) {
  Env& env = envs_[i];
  // The row of the last call, unchanged: clear what it set (the ids are still those); any other
  // row is cleared whole by write().
  std::uint8_t* row = out.masks + i * static_cast<std::size_t>(action_size_);
  if (!out.masks_unchanged || env.mask_row != row) {
    env.mask_row = nullptr;
  } else {
    for (const std::int32_t id : env.ids) row[id] = 0;
  }
  if (env.done) {  // next-step autoreset: the action is not read
    reset(static_cast<int>(i), std::nullopt, out);
    return;
  }
  const auto at = std::find(env.ids.begin(), env.ids.end(), static_cast<std::int32_t>(action));
  const Move move = env.legal[static_cast<std::size_t>(at - env.ids.begin())];
  play(env, move);
  try {
    play_others(env);
  } catch (...) {
    env.done = true;
    throw;
  }
  if (!env.state.over()) {
    write(i, out, 0.0, false, 0.0);
    return;
  }
  env.done = true;
  const double margin = seat_margins(env.state, rules_)[static_cast<std::size_t>(config_.seat)];
  const double reward = config_.win_reward ? static_cast<double>((margin > 0) - (margin < 0))
                                           : margin / config_.reward_scale;
  write(i, out, reward, true, margin);
}

void VecEnv::step(const std::int64_t* actions, const VecEnvOutput& out) {
  const std::size_t count = envs_.size();
  std::vector<std::exception_ptr> errors(count);
  std::atomic<std::size_t> next{0};
  // Small chunks taken in turn: a thread slowed by the machine takes fewer of them.
  const std::size_t chunk = std::max<std::size_t>(1, count / (static_cast<std::size_t>(threads_) * 8));
  const std::function<void(std::size_t)> job = [&](std::size_t) {
    for (;;) {
      const std::size_t from = next.fetch_add(chunk, std::memory_order_relaxed);
      if (from >= count) return;
      const std::size_t to = std::min(count, from + chunk);
      for (std::size_t i = from; i < to; ++i) {
        try {
          step_one(i, actions[i], out);
        } catch (...) {
          errors[i] = std::current_exception();
        }
      }
    }
  };
  run_workers(job);
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace burraco
