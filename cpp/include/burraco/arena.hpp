// burraco — bots playing one another on duplicate deals (docs/bots.md "Arena").
//
// A bot is a policy (random, greedy, heuristic with its parameters, or a hook) or an ISMCTS search
// with its parameters. A duplicate pair plays one deal twice with the bots' seats swapped, so
// the luck of the cards cancels out: in game 0 of a pair the first bot holds the even seats (side
// 0 of two or four players), in game 1 the odd ones; with three players the first bot holds seat
// 0 in game 0 and seats 1 and 2 in game 1 (not a fair split: three-player arenas are left out).
//
// Every game of pair i is dealt from hand seed batch_seed(seed, i), player 0 first. The policy
// bots of a game draw from one Rng seeded by batch_seed(hand seed, game number); an ISMCTS bot
// searches with a generator seeded by batch_seed(its parameters' seed, hand seed + game number),
// fresh for each game. So a game depends neither on the other games nor on the threads.
//
// Matches (arena_match_pairs): each pair is then a whole match to rules.match_target, played
// twice with the bots' sides swapped over the same sequence of deals, each play until its own end
// (RULES E.7; the two plays may last different numbers of hands). Hand h of pair i's matches is
// dealt as Match(rules, seed=batch_seed(seed, i)) deals it: from hand seed
// batch_seed(batch_seed(seed, i), h), seat h mod players first, the match scores so far; the bots
// of each hand are seeded from that hand seed as above, and an ISMCTS bot reads the match scores
// from the state (reward = Equity). A play stops as a draw after kArenaMaxHands hands.
#pragma once

#include <array>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <atomic>
#include <exception>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "burraco/heuristic.hpp"
#include "burraco/ismcts.hpp"
#include "burraco/policies.hpp"

namespace burraco {

struct BotSpec {
  bool search = false;         // an ISMCTS search (ismcts) rather than a policy (policy)
  Policy policy = Policy::Random;  // a heuristic policy's parameters point into `heuristic`
  // The heuristic's parameters (for the policy, or the search's heuristic rollouts); none: those
  // the policy points to, or else the defaults for the number of players.
  std::optional<HeuristicParams> heuristic;
  IsmctsParams ismcts;         // its rollout policy's heuristic parameters: `heuristic`
};

inline constexpr int kArenaMaxHands = 1000;

// One game (one hand) of a pair.
struct ArenaGame {
  std::uint64_t pair = 0;
  std::uint8_t game = 0;                  // 0: bot A on the even seats; 1: swapped
  std::int32_t hand = 0;                  // the hand's index in its match (0 without matches)
  std::uint64_t hand_seed = 0;
  std::uint8_t first_player = 0;
  std::array<std::int32_t, 2> before{};   // the match scores per side before the hand
  std::array<std::int32_t, 2> scores{};   // per side (0: even seats)
  std::int32_t moves = 0;
  std::uint8_t end_reason = 0;            // 1 closed, 2 stock exhausted, 3 deadlock
  double seconds[2] = {0, 0};             // CPU time the bots A and B spent choosing
  std::int32_t decisions[2] = {0, 0};     // moves they chose
  std::vector<Move> history;              // kept when asked for
};

// Plays pairs [from, to) of bots a and b on `threads` threads (precondition: two or four
// players); the games in pair order, game 0 before game 1. `keep_moves` fills
// ArenaGame::history. `done` (if given) counts the finished games as they finish; once `stop` (if
// given) is set, the threads stop after their current game and the call throws ArenaStopped.
// A failure of a game (StateError, PolicyError) is thrown after every thread has stopped.
struct ArenaStopped {};
std::vector<ArenaGame> arena_pairs(const Rules& rules, const BotSpec& a, const BotSpec& b,
                                   std::uint64_t seed, std::uint64_t from, std::uint64_t to,
                                   int threads, bool keep_moves, std::atomic<std::uint64_t>* done,
                                   const std::atomic<bool>* stop);

// One game of an arena (the unit arena_pairs runs on its threads).
ArenaGame arena_game(const Rules& rules, const BotSpec& a, const BotSpec& b, std::uint64_t seed,
                     std::uint64_t pair, int game, bool keep_moves);

// One play of a pair's match: its hands in order and the outcome.
struct ArenaMatch {
  std::uint64_t pair = 0;
  std::uint8_t game = 0;                 // 0: bot A on side 0 (the even seats); 1: swapped
  std::array<std::int32_t, 2> scores{};  // final match scores per side
  std::int8_t winner = -1;               // the winning side, or -1: a draw (or kArenaMaxHands)
  std::vector<ArenaGame> hands;
};

// RULES E.7 for two sides: -1 while the match goes on, the winning side, or 2 for a draw
// (tie_policy = Draw with equal scores past the target).
int match_outcome(const Rules& rules, const std::array<std::int32_t, 2>& scores);

// Plays the matches of pairs [from, to) as arena_pairs plays hands (same threads, progress and
// stop; `done` counts finished matches): the plays in pair order, play 0 before play 1.
std::vector<ArenaMatch> arena_match_pairs(const Rules& rules, const BotSpec& a, const BotSpec& b,
                                          std::uint64_t seed, std::uint64_t from, std::uint64_t to,
                                          int threads, bool keep_moves,
                                          std::atomic<std::uint64_t>* done,
                                          const std::atomic<bool>* stop);

// One play of a match (the unit arena_match_pairs runs on its threads); throws ArenaStopped
// between hands once `stop` (if given) is set.
ArenaMatch arena_match(const Rules& rules, const BotSpec& a, const BotSpec& b, std::uint64_t seed,
                       std::uint64_t pair, int game, bool keep_moves, const std::atomic<bool>* stop);

// Why an arena cannot be played under `rules` ("" if it can): they cannot be dealt
// (playable_refusal), or have three or six players (duplicate pairs need two or four, two sides).
std::string arena_rules_refusal(const Rules& rules);
// Why pairs [from, to) are refused ("" if they are not): from > to, or more than 10**7 pairs.
std::string arena_pairs_refusal(std::uint64_t from, std::uint64_t to);

// The games of pairs [from, to) (arena_pairs) or, with `matches`, the plays of their matches
// (arena_match_pairs), played on a thread of its own so that the caller's thread can report
// progress and handle signals meanwhile. With matches, `games` holds every play's hands in order
// (play 0 of pair `from`, its play 1, ...), moved out of the plays (each play's hands keep
// their count). `rules`, `a` and `b` must outlive the runner; the destructor stops the run and
// waits for it.
class ArenaRunner {
 public:
  ArenaRunner(const Rules& rules, const BotSpec& a, const BotSpec& b, std::uint64_t seed,
              std::uint64_t from, std::uint64_t to, int threads, bool keep_moves, bool matches);
  ~ArenaRunner() { stop(); }
  ArenaRunner(const ArenaRunner&) = delete;
  ArenaRunner& operator=(const ArenaRunner&) = delete;

  // Waits until the run has finished or `most` has passed; whether it has finished.
  bool wait(std::chrono::milliseconds most);
  // The games (with matches: the plays) finished so far.
  std::uint64_t done() const { return done_.load(); }
  // Stops the threads after their current games (or hands) and waits for them.
  void stop();

  // Once wait() returned true: the games and plays, or the failure of the run.
  std::vector<ArenaGame> games;
  std::vector<ArenaMatch> plays;
  std::exception_ptr failure;

 private:
  std::atomic<std::uint64_t> done_{0};
  std::atomic<bool> stop_{false};
  bool finished_ = false;  // under mutex_
  std::mutex mutex_;
  std::condition_variable changed_;
  std::thread thread_;
};

}  // namespace burraco
