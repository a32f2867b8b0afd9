// The vector environment (vecenv.hpp, docs/rl.md "The vector environment").
#include "burraco/vecenv.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <limits>
#include <stdexcept>

namespace burraco {

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
  env.memory.before(env.state, move);
  const int seat = env.state.turn;
  const MoveResult result = apply_move(env.state, rules_, move);
  if (!result.ok()) [[unlikely]]
    throw std::logic_error("vector env: legal move '" + move_text(move) + "' was refused");
  env.memory.played(env.state, rules_, move, seat);
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
    const std::vector<Move>& moves = env.memory.candidates(s, rules_, env.scratch);
    // One seed of the stream per move, as game.policy_move(policy, seed) takes it.
    Rng rng(env.stream.below_2_63());
    const Move move = moves[policy_choice(policy, s, rules_, moves, rng)];
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
  env.memory.begin(env.state, rules_);
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
    if (a < 0 || a >= action_size_) return VecActionProblem{static_cast<int>(i), a, false};
    if (std::find(env.ids.begin(), env.ids.end(), static_cast<std::int32_t>(a)) == env.ids.end())
      return VecActionProblem{static_cast<int>(i), a, true};
  }
  return std::nullopt;
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
