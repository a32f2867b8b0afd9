// burraco — the whole-state validator (docs/game.md "Invariants").
//
// validate_state accepts a position only if it could arise in play under its rules: every card of
// the pack in exactly one place, the per-turn flags consistent with the phase, the stock, the
// pozzetti, the sides, the brazilian opening bookkeeping and the three-player split, and liveness
// (a hand that is not over has a legal move). It is run by the state-string parser (and so by
// every format built on it) and, in Debug builds only, after every apply_move; Release builds never
// call it on the move path.
#pragma once

#include <string>

#include "burraco/game.hpp"
#include "burraco/rules.hpp"

namespace burraco {

// Empty if the position could arise in play under `rules`; else which invariant breaks, naming
// the state-string field and quoting its value.
std::string validate_state(const GameState& s, const Rules& rules);

}  // namespace burraco
