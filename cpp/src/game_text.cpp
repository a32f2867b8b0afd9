// burraco — the names and reprs of a hand's values (burraco/game_text.hpp).
#include "burraco/game_text.hpp"

namespace burraco {

const char* phase_text(Phase phase) {
  return phase == Phase::Draw ? "draw" : phase == Phase::Meld ? "meld" : "over";
}

const char* end_reason_text(EndReason reason) {
  switch (reason) {
    case EndReason::None: return nullptr;
    case EndReason::Closed: return "closed";
    case EndReason::StockExhausted: return "stock_exhausted";
    case EndReason::Deadlock: return "deadlock";
  }
  return nullptr;
}

const char* packet_status_text(PacketStatus status) {
  switch (status) {
    case PacketStatus::Untaken: return "untaken";
    case PacketStatus::FaceDown: return "face_down";
    case PacketStatus::Seen: return "seen";
    case PacketStatus::InHand: return "in_hand";
    case PacketStatus::Stock: return "stock";
  }
  return "untaken";
}

const char* move_kind_text(MoveKind kind) {
  static constexpr const char* kNames[] = {"draw", "pile", "keep", "reject", "meld", "add",
                                           "discard"};
  return kNames[static_cast<int>(kind)];
}

std::vector<std::string> move_texts(const std::vector<Move>& moves) {
  std::vector<std::string> out;
  out.reserve(moves.size());
  for (const Move& m : moves) out.push_back(move_text(m));
  return out;
}

std::string move_repr(const Move& move) { return "Move('" + move_text(move) + "')"; }

std::string moves_repr(const std::vector<Move>& moves) {
  std::string out = "[";
  for (std::size_t i = 0; i < moves.size(); ++i) out += (i ? ", " : "") + move_repr(moves[i]);
  return out + "]";
}

std::string side_result_repr(const SideResult& r) {
  return "SideResult(side=" + std::to_string(r.side) + ", melds=" + std::to_string(r.melds) +
         ", bonuses=" + std::to_string(r.bonuses) + ", closing=" + std::to_string(r.closing) +
         ", hand=" + std::to_string(r.hand) + ", pozzetto=" + std::to_string(r.pozzetto) +
         ", cut=" + std::to_string(r.cut) + ", total=" + std::to_string(r.total) + ")";
}

std::string result_repr(const HandResult& r, int players) {
  const char* reason = end_reason_text(r.reason);
  std::string out = "Result(end_reason=" + (reason ? "'" + std::string(reason) + "'" : "None") +
                    ", closing_side=" +
                    (r.closing_side >= 0 ? std::to_string(r.closing_side) : "None") + ", sides=(";
  for (int i = 0; i < r.side_count; ++i) out += (i ? ", " : "") + side_result_repr(r.sides[i]);
  out += "), player_scores=";
  if (players != 3) return out + "None)";
  return out + "(" + std::to_string(r.player_half_points[0]) + ", " +
         std::to_string(r.player_half_points[1]) + ", " +
         std::to_string(r.player_half_points[2]) + "))";
}

std::string game_repr(const GameState& s, const Rules& rules) {
  return "Game.from_state_string('" + state_string(s, rules) + "')";
}

std::string illegal_move_text(const Move& move, const MoveResult& result) {
  std::string why(move_error_text(result.error));
  if (result.meld_error != MeldError::Ok) why += ": " + std::string(meld_error_text(result.meld_error));
  return "illegal move '" + move_text(move) + "': " + why;
}

}  // namespace burraco
