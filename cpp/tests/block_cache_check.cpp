// burraco_selftest: the caches of blocks (burraco/block_cache.hpp) hand a released block out
// again and keep no more than their limit; a thread's cache takes blocks released on another
// thread and gives its blocks back when the thread ends; a history's positions come from one.
#include <cstdio>
#include <memory>
#include <set>
#include <thread>
#include <vector>

#include "check.hpp"
#include "burraco/block_cache.hpp"
#include "burraco/history.hpp"
#include "burraco/rules.hpp"

using namespace burraco;

namespace {

int failures = 0;
#define CACHE_CHECK(cond) COUNT_CHECK(failures, cond)

// A size no other user of the cache has: this test alone fills and empties it.
using Cache = BlockCache<4000, 4>;
using ProcessCache = BlockCache<4000, 4, CacheScope::Process>;

template <class Cache>
void check_reuse() {
  void* a = Cache::allocate();
  void* b = Cache::allocate();
  CACHE_CHECK(a != b);
  static_cast<char*>(a)[3999] = 1;  // the whole size is usable
  Cache::release(a);
  CACHE_CHECK(Cache::allocate() == a);  // the last released block comes back first
  Cache::release(b);
  Cache::release(a);
  void* first = Cache::allocate();
  void* second = Cache::allocate();
  CACHE_CHECK(first == a && second == b);
  Cache::release(first);
  Cache::release(second);
  // Past the limit, released blocks go to the global allocator: six out, six back, then the
  // cache hands out at most four it had before.
  std::vector<void*> out;
  for (int i = 0; i < 6; ++i) out.push_back(Cache::allocate());
  std::set<void*> outs(out.begin(), out.end());
  CACHE_CHECK(outs.size() == 6);
  for (void* p : out) Cache::release(p);
  int reused = 0;
  std::vector<void*> again;
  for (int i = 0; i < 6; ++i) {
    again.push_back(Cache::allocate());
    reused += outs.count(again.back()) ? 1 : 0;
  }
  CACHE_CHECK(reused >= 4);
  for (void* p : again) Cache::release(p);
}

// Blocks made on one thread and released on another join the second thread's cache, which gives
// them back to the global allocator when it ends (a leak or a double free shows under ASan).
void check_threads() {
  std::vector<void*> made;
  for (int i = 0; i < 3; ++i) made.push_back(Cache::allocate());
  std::thread other([&] {
    for (void* p : made) Cache::release(p);
    void* p = Cache::allocate();
    CACHE_CHECK(p == made.back());
    Cache::release(p);
  });
  other.join();
  std::vector<std::thread> many;
  for (int t = 0; t < 4; ++t)
    many.emplace_back([] {
      std::vector<void*> blocks;
      for (int i = 0; i < 10; ++i) blocks.push_back(Cache::allocate());
      for (void* p : blocks) Cache::release(p);
    });
  for (std::thread& t : many) t.join();
}

// A history's positions come from the cache: a hand pushed and popped to its start twice gives
// the same positions, and copies of the game share them.
void check_history() {
  const auto rules = std::make_shared<const Rules>(*preset_rules("italian"));
  Game game(deal_seeded(*rules, 11, 0, {}), rules);
  std::vector<Move> legal;
  for (int i = 0; i < 40 && !game.state.over(); ++i) {
    legal_moves(game.state, *rules, legal);
    CACHE_CHECK(game.push(legal[static_cast<std::size_t>(i) % legal.size()]).ok());
  }
  const Game copy = game;
  const std::size_t n = game.move_count();
  while (game.move_count() > 0) game.pop();
  CACHE_CHECK(copy.move_count() == n);
  CACHE_CHECK(state_string(game.state, *rules) == state_string(copy.start(), *rules));
}

}  // namespace

int check_block_cache() {
  check_reuse<Cache>();
  check_reuse<ProcessCache>();
  check_threads();
  check_history();
  return failures;
}
