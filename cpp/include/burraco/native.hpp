// burraco — native policies (burraco/policy.h, docs/native.md) as policy hooks of the loops.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "burraco/policy.h"
#include "burraco/search.hpp"

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

// The storage of a view: what its pointers point to, and what one call leaves for the next on
// the same thread (the rules block, the entries of the melds).
struct ViewStorage {
  burraco_view view{};
  burraco_rules rules{};
  Rules rules_copy;           // the rules `rules` and the meld entries were made under
  bool rules_ready = false;
  std::array<burraco_meld, kMaxMelds> melds{};
  std::array<Meld, kMaxMelds> meld_keys{};  // the melds the first cached_melds entries show
  int cached_melds = 0;
  std::vector<burraco_move> moves;
};

// The view of the seat to act in `s` with `moves` (what NativePolicy passes), in `storage`: the
// hidden cards left out. Reuses what `storage` holds from an earlier call where it still applies.
void fill_view(const GameState& s, const Rules& rules, const std::vector<Move>& moves,
               ViewStorage& storage);

}  // namespace burraco
