// burraco — native policies (burraco/policy.h, docs/native.md) as policy hooks of the loops.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "burraco/policy.h"
#include "burraco/policies.hpp"

namespace burraco {

// Why the engine cannot call the policy `descriptor` points to ("" when it can): another
// interface version (both named), another struct size, no choose function. Reads the version
// and size first, as the ABI rule of policy.h allows, and nothing else of a wrong version.
std::string check_native_policy(const burraco_policy* descriptor);

// A native policy as a PolicyHook (precondition: check_native_policy(descriptor) is ""). The
// descriptor and what it points to stay alive and unchanged while the hook is used.
class NativePolicy final : public PolicyHook {
 public:
  explicit NativePolicy(const burraco_policy* descriptor);
  std::int64_t choose(const GameState& s, const Rules& rules, const std::vector<Move>& moves,
                      std::uint64_t random) const override;
  const std::string& name() const override { return name_; }

 private:
  const burraco_policy* descriptor_;
  std::string name_;
};

// The moves of a view: a heap block of their own, every entry of which past the moves of the
// last call is blank (kBlankMove), and the allocator's slack after the last entry zero: a policy
// that reads past move_count, even to the end of the block, reads nothing (docs/native.md).
class MoveBuffer {
 public:
  MoveBuffer() = default;
  MoveBuffer(const MoveBuffer&) = delete;
  MoveBuffer& operator=(const MoveBuffer&) = delete;
  ~MoveBuffer();

  // Room for `count` moves, to be written in full before the policy reads them: the entries past
  // `count` are blank. Grows the block when it is too small (throws std::bad_alloc).
  burraco_move* take(std::size_t count) {
    if (count > capacity_) [[unlikely]]
      grow(count);
    else if (count < shown_)
      blank(count, shown_);
    shown_ = count;
    return data_;
  }

 private:
  void grow(std::size_t count);
  void blank(std::size_t from, std::size_t to);
  burraco_move* data_ = nullptr;
  std::size_t capacity_ = 0;  // entries in the block
  std::size_t shown_ = 0;     // entries the last take() handed out; all past it are blank
};

// The storage of a view: what its pointers point to, and what one call leaves for the next on
// the same thread (the rules block, the entries of the melds). The melds past the view's
// meld_count are blank (kBlankMeld), as the moves past its move_count. The view points into the
// storage itself: it is neither copied nor moved.
struct ViewStorage {
  ViewStorage();
  ViewStorage(const ViewStorage&) = delete;
  ViewStorage& operator=(const ViewStorage&) = delete;
  burraco_view view{};
  burraco_rules rules{};
  Rules rules_copy;           // the rules `rules` and the meld entries were made under
  bool rules_ready = false;
  std::array<Meld, kMaxMelds> meld_keys{};  // the melds the first cached_melds entries show
  std::array<burraco_meld, kMaxMelds> melds;
  int cached_melds = 0;
  int shown_melds = 0;        // the meld_count of the last view; every entry past it is blank
  MoveBuffer moves;
};

// The view of the seat to act in `s` with `moves` (what NativePolicy passes), in `storage`: the
// hidden cards left out. Reuses what `storage` holds from an earlier call where it still applies.
void fill_view(const GameState& s, const Rules& rules, const std::vector<Move>& moves,
               ViewStorage& storage);

// For the benches (tools/bench_table.py, the callgrind row `view`): what the native interface
// costs per call. Fills the view of the seat to act in `s` (not over), its legal moves the
// candidates, `calls` times, the storage kept from call to call as a policy loop keeps it; returns
// the summed move and meld counts.
std::uint64_t repeat_view(const GameState& s, const Rules& rules, long long calls);

}  // namespace burraco
