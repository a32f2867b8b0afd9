// burraco — a vector of single-agent environments stepped together (docs/rl.md "The vector
// environment"): N hands, one learner seat in each, the other seats played by policies inside the
// call, automatic reset, the outputs written into arrays the caller owns, the envs split across
// threads.
//
// Env i is the Gymnasium environment BurracoEnv (src/burraco/envs/gymnasium.py) whose generator
// is the PCG64 stream given to seed(i): a reset with a deal seed deals that hand, a reset without
// one deals the seed the stream draws next, and every move of another seat is that policy's move
// with the next seed of the stream (game.policy_move(policy, seed)), as BurracoEnv draws them
// from its np_random. The same actions therefore give the same observations, masks and rewards.
#pragma once

#include <array>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "burraco/actions.hpp"
#include "burraco/game.hpp"
#include "burraco/observation.hpp"
#include "burraco/policies.hpp"
#include "burraco/rules.hpp"

namespace burraco {

// NumPy's PCG64 bit generator (PCG XSL-RR 128/64), the generator of Gymnasium's np_random: the
// same state gives the same numbers. below_2_63() is what np_random.integers(2**63) returns.
// `inc` is odd, as in every state of NumPy's (pcg64_refusal refuses an even one).
class Pcg64 {
 public:
  using u128 = unsigned __int128;
  Pcg64() = default;
  Pcg64(u128 state, u128 inc) : state_(state), inc_(inc) {}

  std::uint64_t next() {
    state_ = state_ * kMultiplier + inc_;
    const auto high = static_cast<std::uint64_t>(state_ >> 64);
    const std::uint64_t x = high ^ static_cast<std::uint64_t>(state_);
    const unsigned r = static_cast<unsigned>(high >> 58);
    return (x >> r) | (x << ((64 - r) & 63));
  }
  std::uint64_t below_2_63() { return next() >> 1; }

 private:
  static constexpr u128 kMultiplier =
      (static_cast<u128>(0x2360ED051FC65DA4ULL) << 64) | 0x4385DF649FCCF645ULL;
  u128 state_ = 0;
  u128 inc_ = 1;
};

// How each env plays: the learner's seat, the policy of the other seats (with four players the
// partner, seat + 2, has its own), the reward of a finished hand.
struct VecEnvConfig {
  int seat = 0;
  Policy opponent = Policy::Random;
  Policy partner = Policy::Random;  // four players only
  bool win_reward = false;          // +1 / -1 / 0 by the margin's sign, else margin / scale
  double reward_scale = 2000.0;
};

// The caller's arrays for one call, row i for env i: observations N x kObservationSize floats,
// masks N x action_size bytes (0 or 1), rewards, terminated, truncated and margins N each.
struct VecEnvOutput {
  float* observations = nullptr;
  std::uint8_t* masks = nullptr;
  double* rewards = nullptr;
  bool* terminated = nullptr;
  bool* truncated = nullptr;
  double* margins = nullptr;
  // The caller vouches that nobody wrote into `masks` since this VecEnv last did: a row written
  // at the same address then has only the ids set last time cleared, not all action_size bytes
  // (a 256-env mask array is 4 MB: clearing it whole each step costs more memory traffic than the
  // rest of the step).
  bool masks_unchanged = false;

  // The refusal of arrays that share memory (one env's row would overwrite another's), for
  // `envs` envs of `action_size` action ids: "VectorGames: rewards and margins share memory:
  // expected separate arrays", or "" (null arrays are not written, and not compared).
  std::string overlap_refusal(std::size_t envs, int action_size) const;
};

// A bad action of a step: env `env` was given `action`, which is no action id (`in_range`
// false) or no legal one. Nothing was stepped.
struct VecActionProblem {
  int env = -1;
  std::int64_t action = 0;
  bool in_range = true;
  std::string message;  // checked_step's: refusal()
};

// ---- the caller's arrays ------------------------------------------------------------------------
// The arrays of the calls: the outputs in VecEnvOutput's order, random_actions' `out`, the actions
// of a step.
enum class VecArray { Observations, Masks, Rewards, Terminated, Truncated, Margins, Out, Actions };

// An array argument as the binding reads it off the caller's object: its data, dimensions (-1 for
// an axis it does not have), NumPy's dtype.kind letter and item size, and flags. `is_array` false:
// the object is no NumPy array at all.
struct ArrayFacts {
  bool is_array = false;
  void* data = nullptr;
  int ndim = 0;
  long long rows = -1, width = -1;
  char kind = '?';
  std::size_t itemsize = 0;
  bool c_contiguous = false, writeable = false;
};

// ---- the caller's arguments (burraco._core.VectorGames) -----------------------------------------
// The binding reads each argument of VectorGames into a value (nullopt where the object is not of
// the argument's type) and raises the refusal the functions below return ("" if there is none).
// The messages name VectorGames, the class the caller called, and quote the caller's objects with
// `quoted`, which the binding gives (the core never sees them); Rules is quoted as repr shows it.
enum class VecArg { Rules, NumEnvs, Seat, Threads, Reward, RewardScale, Partner, Env, State, Inc };
using VecQuote = std::function<std::string(VecArg)>;

struct VecEnvArgs {
  std::optional<long long> num_envs, seat, threads;
  std::optional<std::string> reward;
  std::optional<double> reward_scale;
};

// Writes the seat and the reward of `args` into `config`, or refuses the first bad argument in
// the signature's order: rules that cannot be dealt or have six players (the observation rows are
// those of 2, 3 or 4 players), num_envs outside 1..1,000,000, a seat that is not one of the rules,
// threads outside 1..64, a reward other than 'margin' and 'win', a reward_scale that is not a
// positive finite number.
std::string vec_env_config(const Rules& rules, const VecEnvArgs& args, const VecQuote& quoted,
                           VecEnvConfig& config);
// A partner (seat + 2) given (`given`) to rules that have none: only four players have one.
std::string vec_partner_refusal(const Rules& rules, bool given, const VecQuote& quoted);
// A generator (VectorGames.seed) whose state or inc is no int in [0, 2**128) (nullopt), or whose
// inc is even: NumPy's PCG64 state always holds an odd one.
std::string pcg64_refusal(const std::optional<Pcg64::u128>& state,
                          const std::optional<Pcg64::u128>& inc, const VecQuote& quoted);
// The name of the reward: 'margin' or 'win'.
const char* reward_name(const VecEnvConfig& config);

// Each seat's margin in points for the finished hand `s` (docs/rl.md "Rewards"): its score (its
// side's total; with three players its own share, RULES E.6) less the best score of a seat of
// another side.
std::array<double, kMaxPlayers> seat_margins(const GameState& s, const Rules& rules);

class VecEnv {
 public:
  // `threads` workers (the calling thread is one of them) split the envs of each step.
  VecEnv(const Rules& rules, int num_envs, const VecEnvConfig& config, int threads);
  ~VecEnv();
  VecEnv(const VecEnv&) = delete;
  VecEnv& operator=(const VecEnv&) = delete;

  int size() const { return static_cast<int>(envs_.size()); }
  int threads() const { return threads_; }
  int action_size() const { return action_size_; }
  const Rules& rules() const { return rules_; }
  const VecEnvConfig& config() const { return config_; }

  // Env i's generator from now on.
  void seed(int i, const Pcg64& stream) { envs_[static_cast<std::size_t>(i)].stream = stream; }
  // Starts a new hand in env i: the deal of `deal`, or of the seed its stream draws; the other
  // seats play up to the learner's first move; row i of the observations and masks is written.
  // Throws StateError if the hand ends before that, PolicyError if a policy fails.
  void reset(int i, std::optional<std::uint64_t> deal, const VecEnvOutput& out);
  // The first env whose action is bad, if any (envs waiting for their reset take any action).
  std::optional<VecActionProblem> check(const std::int64_t* actions) const;
  // The message of check()'s problem `p` (docs/rl.md "The vector environment"): the env, the
  // action with its move, the phase and the first legal actions. The actions were read as int64:
  // from an unsigned array (`given_unsigned`) an id above 2**63 - 1 became negative, and is
  // quoted as the caller gave it.
  std::string refusal(const VecActionProblem& p, bool given_unsigned) const;
  // The refusal of `env` as an env's index (nullopt: not an int): one from 0 to size() - 1.
  std::string env_refusal(std::optional<long long> env, const VecQuote& quoted) const;
  // The refusal of `facts` as the array `which` of this env's calls, or "": an output or `out` is
  // a writeable, aligned, C-contiguous array of one row per env (of kObservationSize or
  // action_size() entries for the observations and the masks) of its dtype; the actions are an
  // integer array of one id per env. `shown()` quotes the object: "(shape S, dtype D)" for an
  // array, its type's name for anything else.
  std::string array_refusal(VecArray which, const ArrayFacts& facts,
                            const std::function<std::string()>& shown) const;
  // check(actions), then step(actions, out) if no action is bad; else the problem with its
  // message (refusal(), `given_unsigned` as there), and nothing was stepped.
  std::optional<VecActionProblem> checked_step(const std::int64_t* actions, bool given_unsigned,
                                               const VecEnvOutput& out);
  // One step of every env (precondition: check(actions) found nothing): the learner's action,
  // then the other seats; an env whose hand ended at the last step is reset instead (its action
  // unread) with reward 0. Throws what a reset throws (the first error of the envs in index
  // order; the other envs are stepped).
  void step(const std::int64_t* actions, const VecEnvOutput& out);

  // A uniformly random legal action of each env's learner: out[i] is one of env i's legal ids,
  // picked by Rng(batch_seed(seed, i)).bounded(count) among them in canonical move order; 0 for
  // an env that waits for its reset (its action is not read). For baselines and benches.
  void random_actions(std::uint64_t seed, std::int64_t* out) const;

  // Env i's hand (over when the last step ended it), and whether it waits for its reset.
  const GameState& state(int i) const { return envs_[static_cast<std::size_t>(i)].state; }
  bool needs_reset(int i) const { return envs_[static_cast<std::size_t>(i)].done; }
  // The legal moves of env i's learner, in canonical order (empty when its hand is over).
  const std::vector<Move>& legal(int i) const { return envs_[static_cast<std::size_t>(i)].legal; }

  // What repr shows: VectorGames(<rules>, <size>, seat=..., opponent=<opponent>[, partner=
  // <partner>], reward='...', threads=...), the policies and the rules as the caller shows them
  // (an empty `partner`: none given).
  std::string repr(const std::string& rules, const std::string& opponent,
                   const std::string& partner) const;

 private:
  struct Env {
    GameState state;
    Pcg64 stream;
    bool done = true;
    std::vector<Move> legal;         // the learner's legal moves now
    std::vector<std::int32_t> ids;   // their action ids
    std::vector<Move> scratch;       // the other seats' legal moves
    const std::uint8_t* mask_row = nullptr;  // where `ids` were last written as a mask row
  };

  void step_one(std::size_t i, std::int64_t action, const VecEnvOutput& out);
  void play_others(Env& env);
  void play(Env& env, const Move& move);
  void write(std::size_t i, const VecEnvOutput& out, double reward, bool terminated, double margin);
  void run_workers(const std::function<void(std::size_t)>& job);
  void worker_loop(std::size_t worker);

  Rules rules_;
  const MeldTable* table_;
  int action_size_;
  VecEnvConfig config_;
  std::vector<Env> envs_;
  int threads_;

  // The worker pool: threads_ - 1 threads that wait for a job and run job(worker). A worker
  // spins a little (kSpin) before it sleeps, and so does the caller waiting for the workers: a
  // learner's loop calls step again within microseconds, and waking a sleeping thread costs as
  // much as stepping a few envs.
  std::vector<std::thread> pool_;
  std::mutex pool_mutex_;
  std::condition_variable wake_, finished_;
  std::atomic<const std::function<void(std::size_t)>*> job_{nullptr};
  std::atomic<std::uint64_t> generation_{0};
  std::atomic<std::size_t> running_{0};
  std::atomic<bool> stopping_{false};
};

}  // namespace burraco
