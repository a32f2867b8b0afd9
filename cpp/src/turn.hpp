// The rules of a turn that the deal, the move generator, apply and scoring share: queries on a
// GameState (and the two small changes that end a hand). Internal to the core library (not
// installed). Everything here is inline: the move generator and apply call these in their inner
// loops, and each lives in its own translation unit.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "burraco/game.hpp"

namespace burraco::detail {

// Positions kept to try moves on (copy-make): a stack, one per level of nesting, each reused.
// A new GameState would be copied whole, room for 54 melds included (kMaxMelds), where
// copy_state copies the melds in play only: the checks that try a move on a copy are hot paths.
class ScratchPositions {
 public:
  // This thread's. In a shared library each use of a thread_local costs a call to
  // __tls_get_addr (and GCC works an inlined thread_local's address out again wherever it is
  // used, so this is out of line, in apply.cpp): a loop that makes many ScratchPositions asks
  // for the stack once and passes it.
  static ScratchPositions& of_thread();
  GameState& push() {
    if (used_ == states_.size()) states_.push_back(std::make_unique<GameState>());
    return *states_[used_++];
  }
  void pop() { --used_; }

 private:
  std::vector<std::unique_ptr<GameState>> states_;  // each keeps its address as more are added
  std::size_t used_ = 0;
};

// A copy of a position to try moves on, for the lifetime of this object: the next position of
// `positions` (LIFO), overwritten by copy_state.
class ScratchPosition {
 public:
  ScratchPosition(ScratchPositions& positions, const GameState& from)
      : positions_(positions), state_(positions.push()) {
    copy_state(state_, from);
  }
  explicit ScratchPosition(const GameState& from) : ScratchPosition(ScratchPositions::of_thread(), from) {}
  ScratchPosition(const ScratchPosition&) = delete;
  ScratchPosition& operator=(const ScratchPosition&) = delete;
  ~ScratchPosition() { positions_.pop(); }
  GameState& operator*() const { return state_; }

 private:
  ScratchPositions& positions_;
  GameState& state_;
};

// apply_move (game.hpp) with the copies it may need (a move that can empty the hand is tried
// on the position itself, a copy kept to restore it) made on `positions`: for the loops that
// try many moves, which ask for their thread's ScratchPositions once.
MoveResult apply_move(GameState& s, const Rules& rules, const Move& move, ScratchPositions& positions);

// side_of, side_took_packet and has_required_burraco (game.hpp) are these, out of line.
inline int seat_side(const GameState& s, const Rules& rules, int seat) {
  if (s.players == 4) return seat % 2;
  if (s.players == 3) return s.split >= 0 && seat != s.split ? 3 : seat;
  if (s.players == 6) return seat % rules.sides;  // partners sit every `sides` seats (RULES F.7)
  return seat;
}

inline bool took_packet(const GameState& s, const Rules& rules, int side) {
  for (const Packet& p : s.packets)
    if ((p.status == PacketStatus::FaceDown || p.status == PacketStatus::Seen ||
         p.status == PacketStatus::InHand) &&
        seat_side(s, rules, p.owner) == side)
      return true;
  return false;
}

inline bool has_closing_burraco(const GameState& s, const Rules& rules, int side) {
  for (int i = 0; i < s.meld_count; ++i)
    if (s.meld_side[i] == side && s.melds[i].size() >= 7 &&
        (rules.closing_requires_burraco == ClosingBurraco::Any || s.melds[i].is_clean()))
      return true;
  return false;
}

inline int top_untaken(const GameState& s) {
  for (int k = 0; k < kPackets; ++k)
    if (s.packets[k].size > 0 && s.packets[k].status == PacketStatus::Untaken) return k;
  return -1;
}

// The packet a side that runs out of cards would take (RULES C.4, F.7): the top untaken packet
// if its index is below the number of sides (two sides of six: the third packet is only a stock
// reserve), else -1.
inline int pot_packet(const GameState& s, const Rules& rules) {
  const int k = top_untaken(s);
  return k < rules.sides ? k : -1;
}

inline bool packet_available(const GameState& s, const Rules& rules, int side) {
  return pot_packet(s, rules) >= 0 && !took_packet(s, rules, side);
}

inline int table_points(const GameState& s, const Rules& rules, int side) {
  int total = 0;
  for (int i = 0; i < s.meld_count; ++i)
    if (s.meld_side[i] == side) total += s.melds[i].points(rules);
  return total;
}

inline bool side_has_melds(const GameState& s, int side) {
  for (int i = 0; i < s.meld_count; ++i)
    if (s.meld_side[i] == side) return true;
  return false;
}

// RULES B.2: a side holds at most one set of a rank.
inline bool side_has_set_of_rank(const GameState& s, int side, int rank) {
  for (int i = 0; i < s.meld_count; ++i)
    if (s.meld_side[i] == side && s.melds[i].kind == MeldKind::Set && s.melds[i].rank == rank) return true;
  return false;
}

inline int pool_index(const GameState& s, int side, std::uint32_t index) {
  for (int i = 0; i < s.meld_count; ++i)
    if (s.meld_side[i] == side && index-- == 0) return i;
  return -1;
}

// The side has not met its brazilian opening minimum yet: its table cards are this turn's.
inline bool provisional(const GameState& s, const Rules& rules, int side) {
  return rules.opening_steps > 0 && !s.opened[side];
}

// RULES C.3 H-38: a short opening returned the side's cards this turn, which ended the meld
// phase: only discards are left. Read off the position: nothing else clears the table of a side
// not yet open in mid-turn, so it is that side having put a card down this turn (flag d) and
// having none on the table (docs/game.md "turnflags").
inline bool opening_returned(const GameState& s, const Rules& rules, int side) {
  return provisional(s, rules, side) && (s.flags & kPutDown) && !side_has_melds(s, side);
}

inline bool side_table_has(const GameState& s, int side, Card card) {
  for (int i = 0; i < s.meld_count; ++i)
    if (s.meld_side[i] == side && s.melds[i].cards.count(card)) return true;
  return false;
}

// RULES C.5 on multiplicities: discarding `card` would be the very card taken from a one-card
// pile. While the side is provisional the hold stays recorded, and a card of that kind on the
// (this turn's) table releases it; if a short opening brings that card back, it holds again.
inline bool hold_blocks(const GameState& s, const Rules& rules, Card card) {
  if (!(s.hold.valid() && s.hold == card) || s.hands[s.turn].count(card) != 1) return false;
  const int side = seat_side(s, rules, s.turn);
  return !(provisional(s, rules, side) && side_table_has(s, side, card));
}

// The hand is over: the turn stays with the seat that moved; the turn's bookkeeping is cleared.
inline void end_hand(GameState& s, EndReason reason, int closing_side = -1) {
  s.phase = Phase::Over;
  s.end = reason;
  s.closing_side = static_cast<std::int8_t>(closing_side);
  s.hold = Card{};
  s.flags = 0;
}

inline bool can_draw_stock(const GameState& s, const Rules& rules) {
  if (s.stock_size() > rules.stock_end_threshold) return true;
  return s.stock_size() == 0 && rules.pozzetto_becomes_stock && top_untaken(s) >= 0;
}

// The draw-phase moves of the seat to act (docs/game.md), in canonical order.
inline int draw_phase_moves(const GameState& s, const Rules& rules, MoveKind out[4]) {
  int n = 0;  // written in the canonical order: draw, pile, keep, reject
  const bool first_draw = s.flags & kFirstDraw;
  if (!first_draw && can_draw_stock(s, rules)) out[n++] = MoveKind::Draw;
  if (s.pile_size > 0 && !(s.flags & kForceDraw)) out[n++] = MoveKind::Pile;
  if (first_draw && s.stock_size() >= 1) out[n++] = MoveKind::Keep;
  if (first_draw && s.stock_size() >= 2) out[n++] = MoveKind::Reject;
  return n;
}

// RULES D.2/D.3 taken to their limit: a seat that can neither draw nor take the pile ends the hand.
inline void end_if_no_draw(GameState& s, const Rules& rules) {
  MoveKind kinds[4];
  if (draw_phase_moves(s, rules, kinds) == 0) end_hand(s, EndReason::StockExhausted);
}

inline bool opening_pending(const GameState& s, const Rules& rules, int side) {
  return rules.opening_steps > 0 && !s.opened[side] && side_has_melds(s, side);
}

// Whether the seat to act may discard `card` now (RULES C.3, C.5, E.1): Ok, or why not.
inline MoveError check_discard(const GameState& s, const Rules& rules, Card card) {
  const CardSet& hand = s.hands[s.turn];
  const int count = hand.count(card);
  if (count == 0) return MoveError::NotInHand;
  if (hold_blocks(s, rules, card)) return MoveError::HeldCard;
  const int side = seat_side(s, rules, s.turn);
  if (opening_pending(s, rules, side) && table_points(s, rules, side) < s.need[side])
    return MoveError::Ok;  // the cards come back first: the hand cannot be emptied
  if (hand.size() > 1) return MoveError::Ok;
  if (packet_available(s, rules, side)) return MoveError::Ok;
  if (!took_packet(s, rules, side)) return MoveError::NoPozzettoToClose;
  if (!has_closing_burraco(s, rules, side)) return MoveError::NoBurracoToClose;
  if (card.is_wild() && !rules.closing_discard_wild_allowed) return MoveError::WildClosingDiscard;
  return MoveError::Ok;
}

#ifndef NDEBUG
// Debug builds: how deep this thread is in apply_move / legal_moves. Only the outermost call
// validates; legal_moves counts too, since the validator's liveness check calls it and its scratch
// buffer is per thread.
inline thread_local int nesting = 0;
struct NestedCall {
  NestedCall() { ++nesting; }
  ~NestedCall() { --nesting; }
  NestedCall(const NestedCall&) = delete;
  NestedCall& operator=(const NestedCall&) = delete;
  bool outermost() const { return nesting == 1; }
};
#endif

}  // namespace burraco::detail
