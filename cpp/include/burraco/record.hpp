// burraco — a hand's game record as one line of JSON (docs/records.md).
//
// The text of json.dumps(game.record(), separators=(",", ":")) for the Python Game of the same
// hand (`record` in src/burraco/_records.py is the definition it follows; tests/test_record_line.py
// holds them to each other byte for byte), written without building the record: what a self-play
// shard writes for every hand.
#pragma once

#include <string>

#include "burraco/history.hpp"

namespace burraco {

// The record of `game`: its rules, first seat and scores, how its first known position was
// dealt (the seed, else the deck order, else that position's state string), its moves in
// notation and, once the hand is over, its result.
std::string record_line(const Game& game);

}  // namespace burraco
