// Bots on duplicate deals (arena.hpp, docs/bots.md "Arena").
#include "burraco/arena.hpp"

#include <ctime>
#include <exception>
#include <memory>
#include <optional>
#include <thread>

namespace burraco {

namespace {

double thread_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// A bot as it plays one game: its policy with the parameters it points to, or its search.
struct Seat {
  Policy policy;
  std::optional<Ismcts> search;

  Seat(const BotSpec& s, std::uint64_t search_seed) : policy(s.policy) {
    // Parameters of the spec, if it has some, else those the policy carries (none: the defaults
    // for the number of players).
    if (policy.kind == Policy::Kind::Heuristic && s.heuristic) policy.heuristic = &*s.heuristic;
    if (s.search) {
      IsmctsParams params = s.ismcts;
      if (params.policy.kind == Policy::Kind::Heuristic && s.heuristic) params.policy.heuristic = &*s.heuristic;
      params.seed = search_seed;
      search.emplace(params);
    }
  }
};

// Plays hand `hand_seed` from its deal `s` to its end: bot a on the even seats in game 0, on the
// odd ones in game 1, each seeded from the hand seed and the game number (arena.hpp); fills the
// play's fields of `out`.
void play_arena_hand(const Rules& rules, const BotSpec& a, const BotSpec& b, GameState s,
                     std::uint64_t hand_seed, int game, bool keep_moves, ArenaGame& out) {
  out.game = static_cast<std::uint8_t>(game);
  out.hand_seed = hand_seed;
  out.first_player = static_cast<std::uint8_t>(s.turn);
  out.before = {s.scores[0], s.scores[1]};
  std::array<Seat, 2> bots{Seat(a, batch_seed(a.ismcts.seed, hand_seed + static_cast<std::uint64_t>(game))),
                           Seat(b, batch_seed(b.ismcts.seed, hand_seed + static_cast<std::uint64_t>(game)))};
  Rng rng(batch_seed(hand_seed, static_cast<std::uint64_t>(game)));
  std::vector<Move> buffer;
  buffer.reserve(256);
  const int cap = g_move_cap.load(std::memory_order_relaxed);
  while (!s.over()) {
    if (out.moves == cap) [[unlikely]]
      throw_move_cap(s, rules, cap);
    legal_moves(s, rules, buffer);
    if (buffer.empty()) [[unlikely]]
      throw_no_legal_move(s, rules);
    const int seat = s.turn;
    const int which = ((seat % 2) ^ game) & 1;  // 0: bot a
    Seat& bot = bots[static_cast<std::size_t>(which)];
    const double start = thread_seconds();
    Move move;
    if (bot.search) {
      move = bot.search->choose(s, rules);
    } else {
      move = buffer[policy_choice(bot.policy, s, rules, buffer, rng)];
    }
    out.seconds[which] += thread_seconds() - start;
    ++out.decisions[which];
    if (keep_moves) out.history.push_back(move);
    apply_move(s, rules, move);
    ++out.moves;
  }
  const HandResult r = score_hand(s, rules);
  out.end_reason = static_cast<std::uint8_t>(r.reason);
  for (int k = 0; k < r.side_count && k < 2; ++k) out.scores[static_cast<std::size_t>(k)] = r.sides[static_cast<std::size_t>(k)].total;
}

// Runs units 0..total-1 (play(i) fills results[i]) on `threads` threads, each taking the next
// unit when it finishes one; `done` counts finished units; once `stop` is set the threads stop
// after their current unit and ArenaStopped is thrown. A failure is thrown after every thread
// has stopped.
template <class Unit, class Play>
std::vector<Unit> run_units(std::uint64_t total, int threads, std::atomic<std::uint64_t>* done,
                            const std::atomic<bool>* stop, Play&& play) {
  std::vector<Unit> results(static_cast<std::size_t>(total));
  std::atomic<std::uint64_t> next{0};
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(std::max(threads, 1)));
  std::atomic<bool> failed{false};
  auto work = [&](int w) {
    try {
      while (true) {
        if (failed.load() || (stop && stop->load())) return;
        const std::uint64_t i = next.fetch_add(1);
        if (i >= total) return;
        results[static_cast<std::size_t>(i)] = play(i);
        if (done) done->fetch_add(1);
      }
    } catch (...) {
      errors[static_cast<std::size_t>(w)] = std::current_exception();
      failed.store(true);
    }
  };
  std::vector<std::thread> pool;
  for (int w = 1; w < threads; ++w) pool.emplace_back(work, w);
  work(0);
  for (std::thread& t : pool) t.join();
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
  if (stop && stop->load()) throw ArenaStopped{};
  return results;
}

}  // namespace

ArenaGame arena_game(const Rules& rules, const BotSpec& a, const BotSpec& b, std::uint64_t seed,
                     std::uint64_t pair, int game, bool keep_moves) {
  ArenaGame out;
  out.pair = pair;
  const std::uint64_t hand_seed = batch_seed(seed, pair);
  play_arena_hand(rules, a, b, deal_seeded(rules, hand_seed, 0, {}), hand_seed, game, keep_moves, out);
  return out;
}

std::vector<ArenaGame> arena_pairs(const Rules& rules, const BotSpec& a, const BotSpec& b,
                                   std::uint64_t seed, std::uint64_t from, std::uint64_t to,
                                   int threads, bool keep_moves, std::atomic<std::uint64_t>* done,
                                   const std::atomic<bool>* stop) {
  const std::uint64_t total = to > from ? 2 * (to - from) : 0;
  return run_units<ArenaGame>(total, threads, done, stop, [&](std::uint64_t i) {
    return arena_game(rules, a, b, seed, from + i / 2, static_cast<int>(i % 2), keep_moves);
  });
}

int match_outcome(const Rules& rules, const std::array<std::int32_t, 2>& scores) {
  if (!passes_match_target(rules, scores[0]) && !passes_match_target(rules, scores[1])) return -1;
  if (scores[0] != scores[1]) return scores[0] > scores[1] ? 0 : 1;
  return rules.tie_policy == TiePolicy::Draw ? 2 : -1;  // play_on: another hand
}

ArenaMatch arena_match(const Rules& rules, const BotSpec& a, const BotSpec& b, std::uint64_t seed,
                       std::uint64_t pair, int game, bool keep_moves, const std::atomic<bool>* stop) {
  ArenaMatch out;
  out.pair = pair;
  out.game = static_cast<std::uint8_t>(game);
  const std::uint64_t match_seed = batch_seed(seed, pair);
  for (int h = 0; h < kArenaMaxHands; ++h) {
    if (stop && stop->load()) throw ArenaStopped{};
    const std::uint64_t hand_seed = batch_seed(match_seed, static_cast<std::uint64_t>(h));
    ArenaGame& hand = out.hands.emplace_back();
    hand.pair = pair;
    hand.hand = h;
    play_arena_hand(rules, a, b,
                    deal_seeded(rules, hand_seed, h % rules.players, {out.scores[0], out.scores[1], 0, 0}),
                    hand_seed, game, keep_moves, hand);
    for (std::size_t k = 0; k < 2; ++k) out.scores[k] += hand.scores[k];
    const int outcome = match_outcome(rules, out.scores);
    if (outcome >= 0) {
      out.winner = static_cast<std::int8_t>(outcome == 2 ? -1 : outcome);
      break;
    }
  }
  return out;
}

std::vector<ArenaMatch> arena_match_pairs(const Rules& rules, const BotSpec& a, const BotSpec& b,
                                          std::uint64_t seed, std::uint64_t from, std::uint64_t to,
                                          int threads, bool keep_moves,
                                          std::atomic<std::uint64_t>* done,
                                          const std::atomic<bool>* stop) {
  const std::uint64_t total = to > from ? 2 * (to - from) : 0;
  return run_units<ArenaMatch>(total, threads, done, stop, [&](std::uint64_t i) {
    return arena_match(rules, a, b, seed, from + i / 2, static_cast<int>(i % 2), keep_moves, stop);
  });
}

std::string arena_rules_refusal(const Rules& rules) {
  if (std::string why = playable_refusal(rules); !why.empty()) return why;
  if (rules.players != 3 && rules.players != 6) return "";
  return "arena: " + rules_repr(rules) +
         (rules.players == 3 ? " has three players" : " has six players") +
         "; duplicate pairs need two or four (two sides)";
}

std::string arena_pairs_refusal(std::uint64_t from, std::uint64_t to) {
  if (to >= from && to - from <= 10'000'000) return "";
  return "arena: pairs " + std::to_string(from) + " to " + std::to_string(to) +
         ": expected first <= stop and at most 10**7 pairs";
}

ArenaRunner::ArenaRunner(const Rules& rules, const BotSpec& a, const BotSpec& b, std::uint64_t seed,
                         std::uint64_t from, std::uint64_t to, int threads, bool keep_moves,
                         bool matches) {
  thread_ = std::thread([=, this, &rules, &a, &b] {
    try {
      if (matches) {
        plays = arena_match_pairs(rules, a, b, seed, from, to, threads, keep_moves, &done_, &stop_);
        std::size_t hands = 0;
        for (const ArenaMatch& play : plays) hands += play.hands.size();
        games.reserve(hands);
        for (ArenaMatch& play : plays)
          for (ArenaGame& hand : play.hands) games.push_back(std::move(hand));
      } else {
        games = arena_pairs(rules, a, b, seed, from, to, threads, keep_moves, &done_, &stop_);
      }
    } catch (...) {
      failure = std::current_exception();
    }
    const std::lock_guard<std::mutex> lock(mutex_);
    finished_ = true;
    changed_.notify_all();
  });
}

bool ArenaRunner::wait(std::chrono::milliseconds most) {
  std::unique_lock<std::mutex> lock(mutex_);
  return changed_.wait_for(lock, most, [this] { return finished_; });
}

void ArenaRunner::stop() {
  stop_.store(true);
  if (thread_.joinable()) thread_.join();
}

}  // namespace burraco
