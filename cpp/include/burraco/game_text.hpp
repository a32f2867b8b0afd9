// burraco — the names and reprs of a hand's values, as the Python API shows them (docs/api.md):
// a phase, an end reason, a packet's status and a move's kind by name; Move('...'), a list of
// moves, SideResult(...), Result(...) and Game.from_state_string('...') as repr writes them; and
// the message of a refused move. The binding hands these texts to Python as they are.
#pragma once

#include <string>
#include <vector>

#include "burraco/game.hpp"

namespace burraco {

// 'draw', 'meld' or 'over' (Game.phase).
const char* phase_text(Phase phase);
// 'closed', 'stock_exhausted' or 'deadlock'; nullptr while the hand goes on (EndReason::None).
const char* end_reason_text(EndReason reason);
// 'untaken', 'face_down', 'seen', 'in_hand' or 'stock' (Game.pozzetti).
const char* packet_status_text(PacketStatus status);
// 'draw', 'pile', 'keep', 'reject', 'meld', 'add' or 'discard' (Move.kind).
const char* move_kind_text(MoveKind kind);

// The moves' notations, in order (a MoveList's strings(), a pickled game's moves).
std::vector<std::string> move_texts(const std::vector<Move>& moves);
// Move('discard Qs').
std::string move_repr(const Move& move);
// [Move('draw'), Move('pile')]: a MoveList's repr, as the list it stands for prints.
std::string moves_repr(const std::vector<Move>& moves);
// SideResult(side=0, melds=.., bonuses=.., closing=.., hand=.., pozzetto=.., cut=.., total=..).
std::string side_result_repr(const SideResult& result);
// Result(end_reason='closed', closing_side=0, sides=(SideResult(...), ...), player_scores=None):
// player_scores are the half points of the three seats with three players, else None.
std::string result_repr(const HandResult& result, int players);
// Game.from_state_string('<the state string>').
std::string game_repr(const GameState& s, const Rules& rules);

// Why apply_move refused `move`: "illegal move 'discard Qs': <the move error>", followed by
// ": <the meld error>" when a meld or a lay-off was at fault.
std::string illegal_move_text(const Move& move, const MoveResult& result);

}  // namespace burraco
