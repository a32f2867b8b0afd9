// burraco — what one player may know, and the full states consistent with it: observations and
// determinization (RULES C.9, docs/search.md "Observations", "Determinization").
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "burraco/game.hpp"

namespace burraco {

// What one player may know (RULES C.9). `state` is the game with every card that player cannot
// see removed: the other hands hold only their known cards (hand_sizes keeps their real sizes),
// the stock and the hidden packets keep their sizes but hold no cards (Card{}), the seed is gone.
struct Observation {
  GameState state;
  std::uint8_t player = 0;
  std::array<std::uint8_t, kMaxPlayers> hand_sizes{};
};

// May `player` see the cards of packet k? (seen by that player; joined hands are hands).
inline bool packet_visible(const GameState& s, int player, int k) {
  const Packet& p = s.packets[static_cast<std::size_t>(k)];
  return p.status == PacketStatus::Seen && p.owner == player;
}

Observation observe(const GameState& s, const Rules& rules, int player);

// docs/search.md "Observations": the state string with hidden fields masked.
std::string observation_string(const Observation& o, const Rules& rules);

// docs/search.md "Determinization": a full state consistent with the observation, the unseen
// cards shuffled with Rng(seed) and handed out in the documented order. Reads only `o`.
GameState determinize(const Observation& o, const Rules& rules, std::uint64_t seed);

// determinize(observe(s, rules, seat), rules, seed), checked when `seat` is not the seat to act:
// determinize gives the seat to act a hand it can move with (docs/search.md "Determinization"
// step 4), so the deal is a position of play by construction, but seen from another seat it is
// validated still, so that a fault of the sampler is reported and never handed on as a game.
// `fault` is then "determinize(SEAT, SEED): internal error, ..." naming why; else left empty.
GameState determinize_seat(const GameState& s, const Rules& rules, int seat, std::uint64_t seed,
                           std::string& fault);

}  // namespace burraco
