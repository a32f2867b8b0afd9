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
    if (policy.kind == Policy::Kind::Heuristic) policy.heuristic = &s.heuristic;
    if (s.search) {
      IsmctsParams params = s.ismcts;
      if (params.policy.kind == Policy::Kind::Heuristic) params.policy.heuristic = &s.heuristic;
      params.seed = search_seed;
      search.emplace(params);
    }
  }
};

}  // namespace

ArenaGame arena_game(const Rules& rules, const BotSpec& a, const BotSpec& b, std::uint64_t seed,
                     std::uint64_t pair, int game, bool keep_moves) {
  ArenaGame out;
  out.pair = pair;
  out.game = static_cast<std::uint8_t>(game);
  const std::uint64_t hand_seed = batch_seed(seed, pair);
  std::array<Seat, 2> bots{Seat(a, batch_seed(a.ismcts.seed, hand_seed + static_cast<std::uint64_t>(game))),
                           Seat(b, batch_seed(b.ismcts.seed, hand_seed + static_cast<std::uint64_t>(game)))};
  GameState s = deal_seeded(rules, hand_seed, 0, {});
  TurnMemory memory;
  memory.begin(s, rules);
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
      const std::vector<Move>& moves = memory.candidates(s, rules, buffer);
      move = moves[policy_choice(bot.policy, s, rules, moves, rng)];
    }
    out.seconds[which] += thread_seconds() - start;
    ++out.decisions[which];
    if (keep_moves) out.history.push_back(move);
    memory.before(s, move);
    apply_move(s, rules, move);
    memory.played(s, rules, move, seat);
    ++out.moves;
  }
  const HandResult r = score_hand(s, rules);
  out.end_reason = static_cast<std::uint8_t>(r.reason);
  for (int k = 0; k < r.side_count && k < 2; ++k) out.scores[static_cast<std::size_t>(k)] = r.sides[static_cast<std::size_t>(k)].total;
  return out;
}

std::vector<ArenaGame> arena_pairs(const Rules& rules, const BotSpec& a, const BotSpec& b,
                                   std::uint64_t seed, std::uint64_t from, std::uint64_t to,
                                   int threads, bool keep_moves, std::atomic<std::uint64_t>* done,
                                   const std::atomic<bool>* stop) {
  const std::uint64_t total = to > from ? 2 * (to - from) : 0;
  std::vector<ArenaGame> games(static_cast<std::size_t>(total));
  std::atomic<std::uint64_t> next{0};
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(std::max(threads, 1)));
  std::atomic<bool> failed{false};
  auto work = [&](int w) {
    try {
      while (true) {
        if (failed.load() || (stop && stop->load())) return;
        const std::uint64_t i = next.fetch_add(1);
        if (i >= total) return;
        games[static_cast<std::size_t>(i)] =
            arena_game(rules, a, b, seed, from + i / 2, static_cast<int>(i % 2), keep_moves);
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
  return games;
}

}  // namespace burraco
