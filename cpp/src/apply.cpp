// Apply: one move played on a GameState, checked first (docs/game.md "What a move does"), and the turn's
// consequences: a hand emptied, a short opening taken back, the turn passed, the hand ended.
#include <algorithm>
#include <cassert>
#include <string>

#include "burraco/game.hpp"
#include "burraco/validate.hpp"
#include "turn.hpp"

#ifndef NDEBUG
#include <cstdio>
#include <cstdlib>
#endif

namespace burraco {

using namespace detail;

namespace {

void open_side(GameState& s, int side) {
  s.opened[side] = true;
  if (s.hold.valid() && side_table_has(s, side, s.hold)) s.hold = Card{};
}

// A card leaves the hand in front of everybody: what the others know of that hand (cards taken
// with the pile, RULES C.9) loses one copy of that kind too, since it may have been the known one.
void remove_from_hand(GameState& s, int seat, Card card) {
  s.hands[seat].remove(card);
  s.known[seat].remove(card);
}

void note_put_down(GameState& s, const Rules& rules, Card card) {
  s.flags |= kPutDown;
  if (s.hold.valid() && card == s.hold && !provisional(s, rules, seat_side(s, rules, s.turn)))
    s.hold = Card{};
}

// RULES F.6: the first packet taken makes the soloist; the other two seats become side 3.
void maybe_split(GameState& s, int seat) {
  if (s.players != 3 || s.split >= 0) return;
  s.split = static_cast<std::int8_t>(seat);
  for (int i = 0; i < s.meld_count; ++i)
    if (s.meld_side[i] != seat) s.meld_side[i] = 3;
}

void take_packet(GameState& s, const Rules& rules, int seat, bool face_down) {
  Packet& p = s.packets[top_untaken(s)];
  p.owner = static_cast<std::int8_t>(seat);
  p.status = !face_down ? PacketStatus::InHand
             : rules.pozzetto_reveal == PozzettoReveal::Immediately ? PacketStatus::Seen
                                                                    : PacketStatus::FaceDown;
  if (!face_down)
    for (int i = 0; i < p.size; ++i) s.hands[seat].add(p.cards[i]);
  maybe_split(s, seat);
}

// RULES C.3: a short brazilian opening returns every card the side put down this turn.
void return_turn_cards(GameState& s, const Rules& rules, int seat, int side) {
  int kept = 0;
  for (int i = 0; i < s.meld_count; ++i) {
    if (s.meld_side[i] == side) {
      s.melds[i].cards.for_each([&](Card c) {
        s.hands[seat].add(c);
        s.known[seat].add(c);  // everyone saw them on the table
      });
    } else {
      s.melds[kept] = s.melds[i];
      s.meld_side[kept] = s.meld_side[i];
      ++kept;
    }
  }
  for (int i = kept; i < s.meld_count; ++i) {
    s.melds[i] = Meld{};
    s.meld_side[i] = 0;
  }
  s.meld_count = static_cast<std::uint8_t>(kept);
  // The requirement saturates at kMaxOpeningNeed (docs/game.md): unreachable in play, it keeps an
  // endless put-down-and-take-back from overflowing.
  s.need[side] = std::min(s.need[side] + rules.opening_fail_increment, kMaxOpeningNeed);
}

enum class Emptied { Resolved, Closed, Illegal };

// RULES C.3 order when a meld-phase action empties the hand.
Emptied resolve_empty_hand(GameState& s, const Rules& rules, int seat) {
  const int side = seat_side(s, rules, seat);
  if (opening_pending(s, rules, side)) {
    if (table_points(s, rules, side) < s.need[side]) {
      return_turn_cards(s, rules, seat, side);
      return Emptied::Resolved;
    }
    open_side(s, side);
  }
  if (packet_available(s, rules, side)) {
    take_packet(s, rules, seat, false);
    return Emptied::Resolved;
  }
  if (rules.closing_discard == ClosingDiscard::Optional && took_packet(s, rules, side) &&
      has_closing_burraco(s, rules, side)) {
    end_hand(s, EndReason::Closed, side);
    return Emptied::Closed;
  }
  return Emptied::Illegal;
}

MoveResult lay_off_in_place(GameState& s, const Rules& rules, std::uint32_t index, Card card);

// RULES C.7: after a meld-phase action, can the turn still be finished?
bool completable(const GameState& s, const Rules& rules, ScratchPositions& positions) {
  if (s.over()) return true;
  const CardSet& hand = s.hands[s.turn];
  if (hand.size() >= 2) return true;
  if (hand.size() == 0) return false;
  Card last{};
  hand.for_each([&](Card c) { last = c; });
  if (check_discard(s, rules, last) == MoveError::Ok) return true;
  const int side = seat_side(s, rules, s.turn);
  for (int i = 0, index = 0; i < s.meld_count; ++i) {
    if (s.meld_side[i] != side) continue;
    const auto at = static_cast<std::uint32_t>(index++);
    // A meld that refuses the card is what lay_off_in_place would refuse before changing
    // anything: the position is copied only for a lay-off that fits (the copy is the cost).
    if (!lay_off(s.melds[i], last, rules).ok()) continue;
    const ScratchPosition copy(positions, s);
    // The lay-off empties the hand; a pozzetto picked up on the fly may hold a single card,
    // whose turn must be finishable in its turn (at most one pickup a side: the recursion ends).
    if (lay_off_in_place(*copy, rules, at, last).ok() && completable(*copy, rules, positions))
      return true;
  }
  return false;
}

// Lays one card off without the C.7 test (used by it); resolves an emptied hand.
MoveResult lay_off_in_place(GameState& s, const Rules& rules, std::uint32_t index, Card card) {
  const int side = seat_side(s, rules, s.turn);
  if (!s.hands[s.turn].count(card)) return {MoveError::NotInHand};
  const int at = pool_index(s, side, index);
  if (at < 0) return {MoveError::NoSuchMeld};
  const MeldResult r = lay_off(s.melds[at], card, rules);
  if (!r.ok()) return {MoveError::BadLayOff, r.error};
  s.melds[at] = r.meld;
  remove_from_hand(s, s.turn, card);
  note_put_down(s, rules, card);
  if (s.hands[s.turn].empty() && resolve_empty_hand(s, rules, s.turn) == Emptied::Illegal)
    return {MoveError::CannotEmptyHand};
  return {};
}

MoveResult meld_in_place(GameState& s, const Rules& rules, CardSet cards) {
  const int side = seat_side(s, rules, s.turn);
  if (!cards.subset_of(s.hands[s.turn])) return {MoveError::NotInHand};
  const MeldResult r = make_meld(cards, rules);
  if (!r.ok()) return {MoveError::BadMeld, r.error};
  if (r.meld.kind == MeldKind::Set && side_has_set_of_rank(s, side, r.meld.rank))
    return {MoveError::SecondSetOfRank, MeldError::SecondSetOfRank};
  // A slot is always free: a table holds at most a third of the pack (kMaxMelds, game.hpp).
  assert(s.meld_count < kMaxMelds);
  s.melds[s.meld_count] = r.meld;
  s.meld_side[s.meld_count] = static_cast<std::uint8_t>(side);
  ++s.meld_count;
  cards.for_each([&](Card c) {
    remove_from_hand(s, s.turn, c);
    note_put_down(s, rules, c);
  });
  if (s.hands[s.turn].empty() && resolve_empty_hand(s, rules, s.turn) == Emptied::Illegal)
    return {MoveError::CannotEmptyHand};
  return {};
}

// After a discard that did not close: the end checks (RULES D.2-D.4), then the next turn.
void finish_turn(GameState& s, const Rules& rules) {
  if (s.flags & kLastTurn) return end_hand(s, EndReason::StockExhausted);
  if (rules.stock_end_threshold == 0 && s.stock_size() == 0 &&
      !(rules.pozzetto_becomes_stock && top_untaken(s) >= 0))
    return end_hand(s, EndReason::StockExhausted);
  bool force_next = false;
  if ((s.flags & kTookSinglePile) && !(s.flags & kPutDown)) {  // an exchange turn (D.4)
    if (++s.deadlock >= s.players) {
      if (rules.deadlock_rule == DeadlockRule::EndHand) return end_hand(s, EndReason::Deadlock);
      s.deadlock = 0;
      force_next = true;
    }
  } else {
    s.deadlock = 0;
  }
  const int finished = s.turn;
  if (rules.pozzetto_reveal == PozzettoReveal::AfterPartnerTurn)
    for (Packet& p : s.packets)  // C.4: the partner's turn is over, the owner may look
      if (p.status == PacketStatus::FaceDown && p.owner != finished &&
          seat_side(s, rules, p.owner) == seat_side(s, rules, finished))
        p.status = PacketStatus::Seen;
  s.turn = static_cast<std::uint8_t>((finished + 1) % s.players);
  s.phase = Phase::Draw;
  s.flags = force_next ? kForceDraw : 0;
  s.hold = Card{};
  for (Packet& p : s.packets)  // H-36: the face-down pozzetto joins the hand before the draw
    if ((p.status == PacketStatus::FaceDown || p.status == PacketStatus::Seen) &&
        p.owner == s.turn) {
      p.status = PacketStatus::InHand;
      for (int i = 0; i < p.size; ++i) s.hands[s.turn].add(p.cards[i]);
    }
  end_if_no_draw(s, rules);
}

MoveResult do_discard(GameState& s, const Rules& rules, Card card) {
  const MoveError e = check_discard(s, rules, card);
  if (e != MoveError::Ok) return {e};
  const int side = seat_side(s, rules, s.turn);
  const bool pending = opening_pending(s, rules, side);
  const bool short_opening = pending && table_points(s, rules, side) < s.need[side];
  if (pending && !short_opening) open_side(s, side);
  // RULES C.3: the discard leaves the hand as it was; then a short opening's cards come back.
  remove_from_hand(s, s.turn, card);
  s.pile.add(card);
  s.top = card;
  ++s.pile_size;
  if (short_opening) {
    return_turn_cards(s, rules, s.turn, side);
    finish_turn(s, rules);
    return {};
  }
  if (s.hands[s.turn].empty()) {
    if (packet_available(s, rules, side)) {
      take_packet(s, rules, s.turn, true);
    } else {
      end_hand(s, EndReason::Closed, side);
      return {};
    }
  }
  finish_turn(s, rules);
  return {};
}

Card draw_top(GameState& s) { return s.stock[s.stock_pos++]; }

// Every stock draw (draw, keep, reject): a draw that leaves the stock at its threshold or below
// makes this the last turn (RULES D.2); then the meld phase begins.
void after_stock_draw(GameState& s, const Rules& rules) {
  if (rules.stock_end_threshold > 0 && s.stock_size() <= rules.stock_end_threshold)
    s.flags |= kLastTurn;
  s.phase = Phase::Meld;
}

// `positions`: the stack of copies to use, or null for this thread's (asked for when needed).
MoveResult apply_move_unchecked(GameState& s, const Rules& rules, const Move& move,
                                ScratchPositions* positions);
MoveResult apply_move_checked(GameState& s, const Rules& rules, const Move& move,
                              ScratchPositions* positions);

}  // namespace

detail::ScratchPositions& detail::ScratchPositions::of_thread() {
  thread_local ScratchPositions positions;
  return positions;
}

// Debug builds check the whole state after every move that changed it (validate.hpp); Release
// builds (NDEBUG) compile this to the bare move. Moves tried on copies inside legal_moves and the
// validator's own liveness check are not re-validated (the depth guard).
MoveResult apply_move(GameState& s, const Rules& rules, const Move& move) {
  return apply_move_checked(s, rules, move, nullptr);
}

MoveResult detail::apply_move(GameState& s, const Rules& rules, const Move& move,
                              ScratchPositions& positions) {
  return apply_move_checked(s, rules, move, &positions);
}

namespace {

MoveResult apply_move_checked(GameState& s, const Rules& rules, const Move& move,
                              ScratchPositions* positions) {
#ifdef NDEBUG
  return apply_move_unchecked(s, rules, move, positions);
#else
  const NestedCall nested;
  const MoveResult r = apply_move_unchecked(s, rules, move, positions);
  if (nested.outermost() && r.ok()) {
    const std::string why = validate_state(s, rules);
    if (!why.empty()) {
      std::fprintf(stderr, "burraco: invalid state after '%s': %s\n%s\n", move_text(move).c_str(),
                   why.c_str(), state_string(s, rules).c_str());
      std::abort();
    }
  }
  return r;
#endif
}

MoveResult apply_move_unchecked(GameState& s, const Rules& rules, const Move& move,
                                ScratchPositions* positions) {
  if (s.over()) return {MoveError::GameOver};
  const bool draw_phase = s.phase == Phase::Draw;
  switch (move.kind) {
    case MoveKind::Draw: {
      if (!draw_phase) return {MoveError::WrongPhase};
      if (s.flags & kFirstDraw) return {MoveError::FirstDrawPending};
      if (!can_draw_stock(s, rules)) return {MoveError::StockEmpty};
      if (s.stock_size() == 0) {
        const int k = top_untaken(s);
        if (!(rules.pozzetto_becomes_stock && s.stock_size() == 0 && k >= 0))
          return {MoveError::StockEmpty};
        Packet& p = s.packets[k];  // RULES D.3: the top untaken packet becomes the stock
        std::copy(p.cards.begin(), p.cards.begin() + p.size, s.stock.begin());
        s.stock_pos = 0;
        s.stock_end = p.size;
        p.status = PacketStatus::Stock;
      }
      s.hands[s.turn].add(draw_top(s));
      after_stock_draw(s, rules);
      return {};
    }
    case MoveKind::Pile: {
      if (!draw_phase) return {MoveError::WrongPhase};
      if (s.flags & kForceDraw) return {MoveError::MustDrawFromStock};
      if (s.pile_size == 0) return {MoveError::EmptyPile};
      if (s.pile_size == 1) {
        s.flags |= kTookSinglePile;  // counts for the deadlock (D.4) whatever the hold knob says
        if (rules.forbid_discard_of_single_pile_card) s.hold = s.top;  // RULES C.5
      }
      CardSet joined;
      s.hands[s.turn].sum(s.pile, joined);
      s.hands[s.turn] = joined;
      CardSet known;
      s.known[s.turn].sum(s.pile, known);
      s.known[s.turn] = known;
      s.pile = CardSet{};
      s.top = Card{};
      s.pile_size = 0;
      s.flags &= static_cast<std::uint8_t>(~kFirstDraw);
      s.phase = Phase::Meld;
      return {};
    }
    case MoveKind::Keep:
    case MoveKind::Reject: {
      if (!draw_phase || !(s.flags & kFirstDraw)) return {MoveError::NotFirstDraw};
      if (s.stock_size() < (move.kind == MoveKind::Reject ? 2 : 1)) return {MoveError::StockEmpty};
      if (move.kind == MoveKind::Reject) {
        const Card rejected = draw_top(s);
        s.pile.add(rejected);
        s.top = rejected;
        s.pile_size = 1;
      }
      s.hands[s.turn].add(draw_top(s));
      s.flags &= static_cast<std::uint8_t>(~kFirstDraw);
      after_stock_draw(s, rules);  // keep and reject are stock draws (RULES D.2)
      return {};
    }
    case MoveKind::Meld:
    case MoveKind::Add: {
      if (draw_phase) return {MoveError::WrongPhase};
      if (opening_returned(s, rules, seat_side(s, rules, s.turn))) return {MoveError::OpeningReturned};
      // Two or more cards stay in hand: the hand cannot empty and the turn can always be finished
      // by a discard (C.7), and the in-place moves change nothing before their last check.
      const int left = s.hands[s.turn].size() - (move.kind == MoveKind::Meld ? move.cards.size() : 1);
      if (left >= 2)
        return move.kind == MoveKind::Meld ? meld_in_place(s, rules, move.cards)
                                           : lay_off_in_place(s, rules, move.index, move.card);
      // The move is played on `s` itself, after a copy of it to restore should it be refused:
      // playing it on the copy would cost a second, whole copy back when it is kept.
      ScratchPositions& stack = positions ? *positions : ScratchPositions::of_thread();
      const ScratchPosition before(stack, s);
      MoveResult r = move.kind == MoveKind::Meld ? meld_in_place(s, rules, move.cards)
                                                 : lay_off_in_place(s, rules, move.index, move.card);
      if (r.ok() && !completable(s, rules, stack)) r = {MoveError::DeadEnd};
      if (!r.ok()) copy_state(s, *before);
      return r;
    }
    case MoveKind::Discard: {
      if (draw_phase) return {MoveError::WrongPhase};
      return do_discard(s, rules, move.card);  // checks everything before it changes anything
    }
  }
  return {MoveError::WrongPhase};
}

}  // namespace

}  // namespace burraco
