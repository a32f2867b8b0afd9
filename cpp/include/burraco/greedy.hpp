// burraco — the `greedy` policy (docs/search.md "greedy") and the measure of a card's use in a
// hand that it discards by (the heuristic values hands with it too).
#pragma once

#include <cstddef>
#include <vector>

#include "burraco/game.hpp"

namespace burraco {

// How much card `c` of `hand` helps the rest of it (docs/search.md "greedy"): 1000 for a wild;
// else 10 per other card of its rank, 1 per other card of its suit one or two ranks away (the ace
// both low and high; twos do not count). The greedy discard and the heuristic use it.
int greedy_usefulness(CardSet hand, Card c);
// The sum of greedy_usefulness(hand, c) over the cards c of `hand` that are not wild (each copy
// counted), computed at once from the planes (the heuristic values hands with it).
int hand_usefulness(CardSet hand);

// The greedy policy's choice among `moves` (candidates of the position `s` in canonical order,
// non-empty).
std::size_t greedy_choice(const GameState& s, const Rules& rules, const std::vector<Move>& moves);

}  // namespace burraco
