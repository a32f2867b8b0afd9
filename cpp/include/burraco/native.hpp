// burraco — native policies (burraco/policy.h, docs/native.md) as policy hooks of the loops.
#pragma once

#include <string>

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

// The view of the seat to act in `s` with `moves` (what NativePolicy passes): the hidden cards
// left out. `melds`, `moves_out` and `rules_out` are the storage its pointers point to.
void fill_view(const GameState& s, const Rules& rules, const std::vector<Move>& moves,
               burraco_view& view, burraco_meld* melds, std::vector<burraco_move>& moves_out,
               burraco_rules& rules_out);

}  // namespace burraco
