#include "burraco/game.hpp"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cctype>

#include "burraco/rng.hpp"
#include "burraco/validate.hpp"

#ifndef NDEBUG
#include <cstdio>
#include <cstdlib>
#endif

namespace burraco {

// ---- setup ------------------------------------------------------------------------------------

int unshuffled_deck(const Rules& rules, std::array<Card, kMaxDeck>& deck) {
  int n = 0;
  for (int copy = 0; copy < rules.decks; ++copy)
    for (int suit = 0; suit < kSuits; ++suit)
      for (int rank = 1; rank <= kRanks; ++rank) deck[n++] = Card::suited(suit, rank);
  for (int j = 0; j < rules.jokers; ++j) deck[n++] = Card::joker();
  return n;
}

std::string check_playable(const Rules& rules) {
  if (rules.initial_stock() < 0)
    return "the pack of " + std::to_string(rules.total_cards()) +
           " cards is too small for the hands, the pozzetti and the start card";
  if (rules.players == 3 && (rules.opening_steps > 0 || rules.cut_exact_probability > 0))
    return "three players with a brazilian opening minimum or cut are not supported";
  return check_rules(rules);
}

bool has_required_burraco(const GameState& s, const Rules& rules, int side) {
  for (int i = 0; i < s.meld_count; ++i)
    if (s.meld_side[i] == side && s.melds[i].size() >= 7 &&
        (rules.closing_requires_burraco == ClosingBurraco::Any || s.melds[i].is_clean()))
      return true;
  return false;
}

namespace {

void end_if_no_draw(GameState& s, const Rules& rules);

int opening_requirement(const Rules& rules, int band) {
  int need = rules.opening_minimum[0].minimum;
  for (int i = 0; i < rules.opening_steps; ++i)
    if (band >= rules.opening_minimum[i].from_score) need = rules.opening_minimum[i].minimum;
  return need;
}

GameState deal_with_cut(const Rules& rules, const std::array<Card, kMaxDeck>& order,
                        int first_player, const std::array<std::int32_t, kSideSlots>& scores,
                        int cut_side) {
  GameState s;
  s.players = static_cast<std::uint8_t>(rules.players);
  s.first = static_cast<std::uint8_t>(first_player);
  s.turn = s.first;
  s.scores = scores;
  s.cut_side = static_cast<std::int8_t>(cut_side);
  const int total = rules.total_cards();
  int i = 0;
  for (; i < rules.hand_size * rules.players; ++i)
    s.hands[(first_player + i) % rules.players].add(order[i]);
  const int p0 = rules.pozzetto_sizes[0], p1 = rules.pozzetto_sizes[1];
  for (int next = 0; s.packets[0].size < p0 || s.packets[1].size < p1; ++i) {
    if (s.packets[next].size >= (next == 0 ? p0 : p1)) next ^= 1;
    Packet& packet = s.packets[next];
    packet.cards[packet.size++] = order[i];
    next ^= 1;
  }
  if (rules.initial_upcard) {
    s.pile.add(order[i]);
    s.top = order[i];
    s.pile_size = 1;
    ++i;
  }
  int k = 0;
  for (; i < total; ++i, ++k) s.stock[k] = order[i];
  s.stock_pos = 0;
  s.stock_end = static_cast<std::uint8_t>(k);
  if (rules.first_draw_rule == FirstDrawRule::MayRejectFirstCard) s.flags |= kFirstDraw;
  if (rules.opening_steps > 0)
    for (int side = 0; side < 2; ++side)
      s.need[side] = opening_requirement(
          rules, scores[side] + (cut_side == side ? rules.cut_bonus : 0));
  end_if_no_draw(s, rules);
  return s;
}

}  // namespace

GameState deal(const Rules& rules, const std::array<Card, kMaxDeck>& order, int first_player,
               const std::array<std::int32_t, kSideSlots>& scores) {
  return deal_with_cut(rules, order, first_player, scores, -1);
}

GameState deal_seeded(const Rules& rules, std::uint64_t seed, int first_player,
                      const std::array<std::int32_t, kSideSlots>& scores) {
  std::array<Card, kMaxDeck> deck{};
  const int n = unshuffled_deck(rules, deck);
  Rng rng(seed);
  rng.shuffle(deck.data(), n);
  int cut_side = -1;
  if (rules.cut_exact_probability > 0 && rng.unit() < rules.cut_exact_probability) {
    const int cutter = ((first_player - 2) % rules.players + rules.players) % rules.players;
    cut_side = rules.players == 4 ? cutter % 2 : cutter;
  }
  GameState s = deal_with_cut(rules, deck, first_player, scores, cut_side);
  s.has_seed = true;
  s.seed = seed;
  return s;
}

// ---- queries ----------------------------------------------------------------------------------

int side_of(const GameState& s, const Rules& rules, int seat) {
  (void)rules;
  if (s.players == 4) return seat % 2;
  if (s.players == 3 && s.split >= 0) return seat == s.split ? seat : 3;
  return seat;
}

int active_sides(const GameState& s, const Rules& rules, std::array<int, kSideSlots>& out) {
  (void)rules;
  if (s.players == 3) {
    if (s.split < 0) {
      out = {0, 1, 2, 0};
      return 3;
    }
    out = {s.split, 3, 0, 0};
    return 2;
  }
  out = {0, 1, 0, 0};
  return 2;
}

SideMelds side_melds(const GameState& s, int side) {
  SideMelds out;
  for (int i = 0; i < s.meld_count; ++i)
    if (s.meld_side[i] == side) out.append(s.melds[i]);
  return out;
}

bool side_took_packet(const GameState& s, const Rules& rules, int side) {
  for (const Packet& p : s.packets)
    if ((p.status == PacketStatus::FaceDown || p.status == PacketStatus::Seen ||
         p.status == PacketStatus::InHand) &&
        side_of(s, rules, p.owner) == side)
      return true;
  return false;
}

std::string_view move_error_text(MoveError error) {
  switch (error) {
    case MoveError::Ok: return "ok";
    case MoveError::GameOver: return "the hand is over";
    case MoveError::WrongPhase: return "not in this phase of the turn";
    case MoveError::FirstDrawPending: return "the first draw of the hand is keep or reject";
    case MoveError::NotFirstDraw: return "keep and reject belong to the brazilian first draw";
    case MoveError::EmptyPile: return "the discard pile is empty";
    case MoveError::MustDrawFromStock: return "after a deadlock this turn must draw from the stock";
    case MoveError::StockEmpty: return "no card can be drawn from the stock";
    case MoveError::NotInHand: return "the cards are not in the player's hand";
    case MoveError::BadMeld: return "not a meld";
    case MoveError::SecondSetOfRank: return "the side already has a set of that rank";
    case MoveError::NoSuchMeld: return "the side has no meld with that index";
    case MoveError::BadLayOff: return "the card cannot be laid off on that meld";
    case MoveError::DeadEnd: return "the turn could not be finished after it (RULES C.7)";
    case MoveError::CannotEmptyHand:
      return "the hand would be empty with no pozzetto to take and no right to close";
    case MoveError::HeldCard:
      return "that is the card just taken from a one-card pile (RULES C.5)";
    case MoveError::WildClosingDiscard: return "a wild may not be the closing discard";
    case MoveError::NoBurracoToClose: return "closing needs a burraco on the side's table";
    case MoveError::NoPozzettoToClose: return "closing needs the side's pozzetto";
  }
  return "?";
}

// ---- the rules of a turn ------------------------------------------------------------------------

namespace {

int top_untaken(const GameState& s) {
  for (int k = 0; k < kPackets; ++k)
    if (s.packets[k].size > 0 && s.packets[k].status == PacketStatus::Untaken) return k;
  return -1;
}

bool packet_available(const GameState& s, const Rules& rules, int side) {
  return top_untaken(s) >= 0 && !side_took_packet(s, rules, side);
}

int table_points(const GameState& s, const Rules& rules, int side) {
  int total = 0;
  for (int i = 0; i < s.meld_count; ++i)
    if (s.meld_side[i] == side) total += s.melds[i].points(rules);
  return total;
}

bool side_has_melds(const GameState& s, int side) {
  for (int i = 0; i < s.meld_count; ++i)
    if (s.meld_side[i] == side) return true;
  return false;
}

int pool_index(const GameState& s, int side, std::uint32_t index) {
  for (int i = 0; i < s.meld_count; ++i)
    if (s.meld_side[i] == side && index-- == 0) return i;
  return -1;
}

// The side has not met its brazilian opening minimum yet: its table cards are this turn's.
bool provisional(const GameState& s, const Rules& rules, int side) {
  return rules.opening_steps > 0 && !s.opened[side];
}

bool side_table_has(const GameState& s, int side, Card card) {
  for (int i = 0; i < s.meld_count; ++i)
    if (s.meld_side[i] == side && s.melds[i].cards.count(card)) return true;
  return false;
}

// RULES C.5 on multiplicities: discarding `card` would be the very card taken from a one-card
// pile. While the side is provisional the hold stays recorded, and a card of that kind on the
// (this turn's) table releases it; if a short opening brings that card back, it holds again.
bool hold_blocks(const GameState& s, const Rules& rules, Card card) {
  if (!(s.hold.valid() && s.hold == card) || s.hands[s.turn].count(card) != 1) return false;
  const int side = side_of(s, rules, s.turn);
  return !(provisional(s, rules, side) && side_table_has(s, side, card));
}

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
  if (s.hold.valid() && card == s.hold && !provisional(s, rules, side_of(s, rules, s.turn)))
    s.hold = Card{};
}

// The hand is over: the turn stays with the seat that moved; the turn's bookkeeping is cleared.
void end_hand(GameState& s, EndReason reason, int closing_side = -1) {
  s.phase = Phase::Over;
  s.end = reason;
  s.closing_side = static_cast<std::int8_t>(closing_side);
  s.hold = Card{};
  s.flags = 0;
}

bool can_draw_stock(const GameState& s, const Rules& rules) {
  if (s.stock_size() > rules.stock_end_threshold) return true;
  return s.stock_size() == 0 && rules.pozzetto_becomes_stock && top_untaken(s) >= 0;
}

// The draw-phase moves of the seat to act (docs/game.md), in canonical order.
int draw_phase_moves(const GameState& s, const Rules& rules, MoveKind out[4]) {
  int n = 0;  // written in the canonical order: draw, pile, keep, reject
  const bool first_draw = s.flags & kFirstDraw;
  if (!first_draw && can_draw_stock(s, rules)) out[n++] = MoveKind::Draw;
  if (s.pile_size > 0 && !(s.flags & kForceDraw)) out[n++] = MoveKind::Pile;
  if (first_draw && s.stock_size() >= 1) out[n++] = MoveKind::Keep;
  if (first_draw && s.stock_size() >= 2) out[n++] = MoveKind::Reject;
  return n;
}

// RULES D.2/D.3 taken to their limit: a seat that can neither draw nor take the pile ends the hand.
void end_if_no_draw(GameState& s, const Rules& rules) {
  MoveKind kinds[4];
  if (draw_phase_moves(s, rules, kinds) == 0) end_hand(s, EndReason::StockExhausted);
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

bool opening_pending(const GameState& s, const Rules& rules, int side) {
  return rules.opening_steps > 0 && !s.opened[side] && side_has_melds(s, side);
}

enum class Emptied { Resolved, Closed, Illegal };

// RULES C.3 order when a meld-phase action empties the hand.
Emptied resolve_empty_hand(GameState& s, const Rules& rules, int seat) {
  const int side = side_of(s, rules, seat);
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
  if (rules.closing_discard == ClosingDiscard::Optional && side_took_packet(s, rules, side) &&
      has_required_burraco(s, rules, side)) {
    end_hand(s, EndReason::Closed, side);
    return Emptied::Closed;
  }
  return Emptied::Illegal;
}

MoveError check_discard(const GameState& s, const Rules& rules, Card card) {
  const CardSet& hand = s.hands[s.turn];
  const int count = hand.count(card);
  if (count == 0) return MoveError::NotInHand;
  if (hold_blocks(s, rules, card)) return MoveError::HeldCard;
  const int side = side_of(s, rules, s.turn);
  if (opening_pending(s, rules, side) && table_points(s, rules, side) < s.need[side])
    return MoveError::Ok;  // the cards come back first: the hand cannot be emptied
  if (hand.size() > 1) return MoveError::Ok;
  if (packet_available(s, rules, side)) return MoveError::Ok;
  if (!side_took_packet(s, rules, side)) return MoveError::NoPozzettoToClose;
  if (!has_required_burraco(s, rules, side)) return MoveError::NoBurracoToClose;
  if (card.is_wild() && !rules.closing_discard_wild_allowed) return MoveError::WildClosingDiscard;
  return MoveError::Ok;
}

MoveResult lay_off_in_place(GameState& s, const Rules& rules, std::uint32_t index, Card card);

// RULES C.7: after a meld-phase action, can the turn still be finished?
bool completable(const GameState& s, const Rules& rules) {
  if (s.over()) return true;
  const CardSet& hand = s.hands[s.turn];
  if (hand.size() >= 2) return true;
  if (hand.size() == 0) return false;
  Card last{};
  hand.for_each([&](Card c) { last = c; });
  if (check_discard(s, rules, last) == MoveError::Ok) return true;
  const int side = side_of(s, rules, s.turn);
  for (int i = 0, index = 0; i < s.meld_count; ++i) {
    if (s.meld_side[i] != side) continue;
    GameState t = s;
    if (lay_off_in_place(t, rules, static_cast<std::uint32_t>(index++), last).ok()) return true;
  }
  return false;
}

// Lays one card off without the C.7 test (used by it); resolves an emptied hand.
MoveResult lay_off_in_place(GameState& s, const Rules& rules, std::uint32_t index, Card card) {
  const int side = side_of(s, rules, s.turn);
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
  const int side = side_of(s, rules, s.turn);
  if (!cards.subset_of(s.hands[s.turn])) return {MoveError::NotInHand};
  const MeldResult r = make_meld(cards, rules);
  if (!r.ok()) return {MoveError::BadMeld, r.error};
  if (r.meld.kind == MeldKind::Set)
    for (int i = 0; i < s.meld_count; ++i)
      if (s.meld_side[i] == side && s.melds[i].kind == MeldKind::Set &&
          s.melds[i].rank == r.meld.rank)
        return {MoveError::SecondSetOfRank, MeldError::SecondSetOfRank};
  if (s.meld_count >= kMaxMelds) return {MoveError::BadMeld, MeldError::TooLong};
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
          side_of(s, rules, p.owner) == side_of(s, rules, finished))
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
  const int side = side_of(s, rules, s.turn);
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

#ifndef NDEBUG
// Debug builds: how deep this thread is in apply_move / legal_moves. Only the outermost call
// validates; legal_moves counts too, since the validator's liveness check calls it and its scratch
// buffer is per thread.
thread_local int nesting = 0;
struct NestedCall {
  NestedCall() { ++nesting; }
  ~NestedCall() { --nesting; }
  NestedCall(const NestedCall&) = delete;
  NestedCall& operator=(const NestedCall&) = delete;
  bool outermost() const { return nesting == 1; }
};
#endif

// Every stock draw (draw, keep, reject): a draw that leaves the stock at its threshold or below
// makes this the last turn (RULES D.2); then the meld phase begins.
void after_stock_draw(GameState& s, const Rules& rules) {
  if (rules.stock_end_threshold > 0 && s.stock_size() <= rules.stock_end_threshold)
    s.flags |= kLastTurn;
  s.phase = Phase::Meld;
}

MoveResult apply_move_unchecked(GameState& s, const Rules& rules, const Move& move);

}  // namespace

// Debug builds check the whole state after every move that changed it (validate.hpp); Release
// builds (NDEBUG) compile this to the bare move. Moves tried on copies inside legal_moves and the
// validator's own liveness check are not re-validated (the depth guard).
MoveResult apply_move(GameState& s, const Rules& rules, const Move& move) {
#ifdef NDEBUG
  return apply_move_unchecked(s, rules, move);
#else
  const NestedCall nested;
  const MoveResult r = apply_move_unchecked(s, rules, move);
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

namespace {

MoveResult apply_move_unchecked(GameState& s, const Rules& rules, const Move& move) {
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
      // Two or more cards stay in hand: the hand cannot empty and the turn can always be finished
      // by a discard (C.7), and the in-place moves change nothing before their last check.
      const int left = s.hands[s.turn].size() - (move.kind == MoveKind::Meld ? move.cards.size() : 1);
      if (left >= 2)
        return move.kind == MoveKind::Meld ? meld_in_place(s, rules, move.cards)
                                           : lay_off_in_place(s, rules, move.index, move.card);
      GameState t = s;
      const MoveResult r = move.kind == MoveKind::Meld
                               ? meld_in_place(t, rules, move.cards)
                               : lay_off_in_place(t, rules, move.index, move.card);
      if (!r.ok()) return r;
      if (!completable(t, rules)) return {MoveError::DeadEnd};
      s = t;
      return {};
    }
    case MoveKind::Discard: {
      if (draw_phase) return {MoveError::WrongPhase};
      return do_discard(s, rules, move.card);  // checks everything before it changes anything
    }
  }
  return {MoveError::WrongPhase};
}

}  // namespace

// ---- the move generator -------------------------------------------------------------------------

namespace {

// The canonical order of new melds (docs/game.md): the card index sequences compared
// lexicographically, a prefix first. A meld has at most 16 cards, so the sequence (index + 1 per
// byte, zero padded) packs into two words compared as one 128-bit big-endian number.
struct MeldKey {
  std::uint64_t hi = 0, lo = 0;
  friend constexpr auto operator<=>(const MeldKey&, const MeldKey&) = default;
};

MeldKey meld_key(CardSet cards) {
  MeldKey key;
  int i = 0;
  cards.for_each([&](Card c) {
    const std::uint64_t byte = static_cast<std::uint64_t>(c.index) + 1;
    if (i < 8)
      key.hi |= byte << (8 * (7 - i));
    else if (i < 16)
      key.lo |= byte << (8 * (15 - i));
    ++i;
  });
  return key;
}

struct MeldCandidate {
  MeldKey key;
  CardSet cards;
  std::uint8_t set_rank = 0;  // a set candidate's rank (valid by construction); 0: a run, to check
};

MeldCandidate candidate(CardSet cards, int set_rank = 0) {
  return {meld_key(cards), cards, static_cast<std::uint8_t>(set_rank)};
}

void add_set_candidates(CardSet hand, const Rules& rules, std::vector<MeldCandidate>& out) {
  if (!rules.sets_allowed) return;
  int wild_kinds[5];
  int wilds = 0;
  if (hand.jokers()) wild_kinds[wilds++] = kJoker;
  for (int s = 0; s < kSuits; ++s)
    if (hand.count(Card::suited(s, kTwo))) wild_kinds[wilds++] = Card::suited(s, kTwo).index;
  // Ranks held at least twice: some suit twice, or two suits (bit r of the lanes is rank r).
  unsigned seen = 0, twice = 0;
  for (int s = 0; s < kSuits; ++s) {
    twice |= hand.lane_two(s) | (seen & hand.lane(s));
    seen |= hand.lane(s);
  }
  unsigned ranks = twice & rules.set_ranks & ~(1u << kTwo);
  for (; ranks; ranks &= ranks - 1) {
    const int rank = std::countr_zero(ranks);
    int have[kSuits];
    for (int s = 0; s < kSuits; ++s) have[s] = hand.count(Card::suited(s, rank));
    for (int a = 0; a <= have[0]; ++a)
      for (int b = 0; b <= have[1]; ++b)
        for (int c = 0; c <= have[2]; ++c)
          for (int d = 0; d <= have[3]; ++d) {
            const int naturals = a + b + c + d;
            if (naturals < 2) continue;
            // The thermometer planes of a copies of the clubs card, b of the diamonds, ...
            const int counts[kSuits] = {a, b, c, d};
            std::uint64_t set_one = 0, set_two = 0;
            for (int s = 0; s < kSuits; ++s) {
              const std::uint64_t bit = std::uint64_t{1} << (16 * s + rank);
              if (counts[s] >= 1) set_one |= bit;
              if (counts[s] == 2) set_two |= bit;
            }
            // Each candidate is a legal set (make_meld's B.2 checks): sets are allowed, the rank
            // may form one, naturals of that one rank, at most one wild, at most max_set_size.
            const CardSet set(set_one, set_two);
            if (naturals >= 3 && naturals <= rules.max_set_size) out.push_back(candidate(set, rank));
            if (naturals + 1 > rules.max_set_size) continue;
            for (int w = 0; w < wilds; ++w) {
              CardSet with = set;
              with.add(Card(static_cast<std::uint8_t>(wild_kinds[w])));
              out.push_back(candidate(with, rank));
            }
          }
  }
}

void add_run_candidates(CardSet hand, const Rules& rules, std::vector<MeldCandidate>& out) {
  Card wild_kinds[5];
  int wilds = 0;
  if (hand.jokers()) wild_kinds[wilds++] = Card::joker();
  for (int s = 0; s < kSuits; ++s)
    if (hand.count(Card::suited(s, kTwo))) wild_kinds[wilds++] = Card::suited(s, kTwo);
  for (int suit = 0; suit < kSuits; ++suit) {
    const int aces = hand.count(Card::suited(suit, kAce));
    unsigned avail = (hand.lane(suit) & ~(1u << 1)) & 0x3FF8u;  // ranks 3..K
    if (aces) avail |= (1u << 1) | (1u << 14);
    if (hand.count(Card::suited(suit, kTwo))) avail |= 1u << 2;
    auto slot_card = [&](int slot) { return Card::suited(suit, slot == 14 ? kAce : slot); };
    // A window starting at lo needs two of the slots lo, lo+1, lo+2 (at most one is missing).
    const unsigned two_of_three =
        (avail & (avail >> 1)) | (avail & (avail >> 2)) | ((avail >> 1) & (avail >> 2));
    const int min_slot = rules.min_slot(), max_slot = rules.max_slot();
    unsigned starts = two_of_three & ((2u << (max_slot - 2)) - 1) & ~((1u << min_slot) - 1);
    for (; starts; starts &= starts - 1) {
      const int lo = std::countr_zero(starts);
      for (int hi = lo + 2; hi <= max_slot && hi - lo + 1 <= rules.max_run_size; ++hi) {
        const unsigned interval = ((1u << (hi + 1)) - 1) & ~((1u << lo) - 1);
        unsigned missing = interval & ~avail;
        if (lo == 1 && hi == 14 && aces < 2 && !(missing & (1u << 14))) missing |= 1u << 14;
        if (std::popcount(missing) > 1) {
          if (!(lo == 1 && hi == 14)) break;
          continue;
        }
        const unsigned naturals = interval & ~missing;
        CardSet base;
        bool ok = true;
        for (unsigned m = naturals; m && ok; m &= m - 1) ok = base.add(slot_card(std::countr_zero(m)));
        if (!ok) continue;
        auto with_wild = [&](CardSet set) {
          for (int w = 0; w < wilds; ++w) {
            CardSet x = set;
            if (x.add(wild_kinds[w]) && x.subset_of(hand)) out.push_back(candidate(x));
          }
        };
        if (missing) {
          with_wild(base);
        } else {
          out.push_back(candidate(base));
          for (unsigned m = naturals; m; m &= m - 1) {
            CardSet without = base;
            without.remove(slot_card(std::countr_zero(m)));
            with_wild(without);
          }
        }
      }
    }
  }
}

Move simple_move(MoveKind kind) {
  Move m;
  m.kind = kind;
  return m;
}

}  // namespace

bool move_less(const Move& a, const Move& b) {
  if (a.kind != b.kind) return a.kind < b.kind;
  switch (a.kind) {
    case MoveKind::Meld: return meld_key(a.cards) < meld_key(b.cards);
    case MoveKind::Add:
      return a.index != b.index ? a.index < b.index : a.card.index < b.card.index;
    case MoveKind::Discard: return a.card.index < b.card.index;
    default: return false;
  }
}

void legal_moves(const GameState& s, const Rules& rules, std::vector<Move>& out) {
#ifndef NDEBUG
  const NestedCall nested;
#endif
  out.clear();
  if (s.over()) return;
  if (s.phase == Phase::Draw) {
    MoveKind kinds[4];
    const int n = draw_phase_moves(s, rules, kinds);
    for (int i = 0; i < n; ++i) out.push_back(simple_move(kinds[i]));
    return;
  }
  const CardSet hand = s.hands[s.turn];
  const int side = side_of(s, rules, s.turn);
  // New melds: candidate multisets in canonical order, deduplicated, then checked like push()
  // checks them. The scratch buffer is per thread and keeps its capacity between calls.
  thread_local std::vector<MeldCandidate> candidates;
  candidates.clear();
  add_set_candidates(hand, rules, candidates);
  add_run_candidates(hand, rules, candidates);
  std::sort(candidates.begin(), candidates.end(),
            [](const MeldCandidate& a, const MeldCandidate& b) { return a.key < b.key; });
  std::uint16_t set_ranks = 0;
  for (int i = 0; i < s.meld_count; ++i)
    if (s.meld_side[i] == side && s.melds[i].kind == MeldKind::Set)
      set_ranks |= static_cast<std::uint16_t>(1u << s.melds[i].rank);
  const CardSet* previous = nullptr;
  for (const MeldCandidate& c : candidates) {
    if (previous && *previous == c.cards) continue;  // equal multisets sort next to each other
    previous = &c.cards;
    if (c.set_rank) {
      assert(make_meld(c.cards, rules).ok());
      if (set_ranks & (1u << c.set_rank)) continue;  // one set per rank per side (B.2)
    } else {
      const MeldResult r = make_meld(c.cards, rules);
      if (!r.ok()) continue;
      if (r.meld.kind == MeldKind::Set && (set_ranks & (1u << r.meld.rank))) continue;
    }
    Move move{MoveKind::Meld, Card{}, 0, c.cards};
    if (hand.size() - c.cards.size() >= 2) {
      if (s.meld_count < kMaxMelds) out.push_back(move);
    } else {
      GameState t = s;
      if (apply_move(t, rules, move).ok()) out.push_back(move);
    }
  }
  // Lay-offs, by meld index then card. Only a card of the meld's rank (a set) or suit (a run),
  // or a wild, can ever be laid off on it (RULES B.2, B.6): the others are not tried.
  const CardSet distinct = hand.distinct();
  constexpr std::uint64_t kWildBits = CardSet::kJokerBits | CardSet::rank_column(kTwo);
  for (int index = 0, i = 0; i < s.meld_count; ++i) {
    if (s.meld_side[i] != side) continue;
    const Meld& meld = s.melds[i];
    std::uint64_t fits = kWildBits;
    if (meld.kind == MeldKind::Set) {
      fits |= CardSet::rank_column(meld.rank);
    } else {
      // A natural can only go one or two slots beyond an end (two: a free wild moves into the
      // gap) or into the wild's slot (RULES B.6); the ace is slot 1 and slot 14.
      unsigned slots = (1u << meld.wild_slot) | (1u << (meld.hi + 1)) | (1u << (meld.hi + 2));
      slots |= (1u << meld.lo) >> 1 | (1u << meld.lo) >> 2;
      const unsigned ranks = (slots & 0x3FFEu) | ((slots >> 13) & 2u);  // slot 14 is the ace
      fits |= static_cast<std::uint64_t>(ranks) << (16 * meld.suit);
    }
    CardSet(distinct.one() & fits, 0).for_each([&](Card c) {
      if (!lay_off(meld, c, rules).ok()) return;
      Move move{MoveKind::Add, c, static_cast<std::uint32_t>(index), CardSet{}};
      if (hand.size() - 1 >= 2) {
        out.push_back(move);
      } else {
        GameState t = s;
        if (apply_move(t, rules, move).ok()) out.push_back(move);
      }
    });
    ++index;
  }
  // Discards: with two or more cards in hand only the C.5 hold can refuse one (check_discard).
  const bool many = hand.size() > 1, held = s.hold.valid();
  distinct.for_each([&](Card c) {
    if (many ? !(held && hold_blocks(s, rules, c)) : check_discard(s, rules, c) == MoveError::Ok)
      out.push_back(Move{MoveKind::Discard, c, 0, CardSet{}});
  });
}

// ---- scoring ------------------------------------------------------------------------------------

HandResult score_hand(const GameState& s, const Rules& rules) {
  HandResult result;
  result.reason = s.end;
  result.closing_side = s.closing_side;
  std::array<int, kSideSlots> sides{};
  result.side_count = active_sides(s, rules, sides);
  for (int k = 0; k < result.side_count; ++k) {
    const int side = sides[k];
    SideResult& r = result.sides[k];
    r.side = side;
    for (int i = 0; i < s.meld_count; ++i)
      if (s.meld_side[i] == side) {
        r.melds += s.melds[i].points(rules);
        r.bonuses += s.melds[i].bonus(rules);
      }
    if (s.end == EndReason::Closed && s.closing_side == side) r.closing = rules.closing_bonus;
    for (int seat = 0; seat < s.players; ++seat)
      if (side_of(s, rules, seat) == side)
        s.hands[seat].for_each([&](Card c) { r.hand -= rules.card_points(c); });
    bool took = false;
    for (const Packet& p : s.packets) {
      if (p.status == PacketStatus::Untaken || p.status == PacketStatus::Stock) continue;
      if (side_of(s, rules, p.owner) != side) continue;
      took = true;
      if (p.status == PacketStatus::FaceDown || p.status == PacketStatus::Seen) {
        // RULES E.4: a packet taken by discarding and not yet played when the hand ends.
        int value = 0;
        for (int i = 0; i < p.size; ++i) value += rules.card_points(p.cards[i]);
        switch (rules.unplayed_pozzetto_rule) {
          case UnplayedPozzettoRule::CountAsHand: r.hand -= value; break;
          case UnplayedPozzettoRule::MinOfValueAnd100: r.pozzetto -= std::min(value, 100); break;
          case UnplayedPozzettoRule::AsNotTaken: r.pozzetto -= rules.no_pozzetto_penalty; break;
        }
      }
    }
    if (!took) r.pozzetto -= rules.no_pozzetto_penalty;
    if (s.cut_side == side) r.cut = rules.cut_bonus;
    r.total = r.melds + r.bonuses + r.closing + r.hand + r.pozzetto + r.cut;
  }
  if (s.players == 3)
    for (int seat = 0; seat < 3; ++seat)
      for (int k = 0; k < result.side_count; ++k)
        if (result.sides[k].side == side_of(s, rules, seat))
          result.player_half_points[seat] =
              result.sides[k].total *
              (result.sides[k].side == 3 && rules.score_split == ScoreSplit::HalvesForPair ? 1 : 2);
  return result;
}

// ---- perft --------------------------------------------------------------------------------------

namespace {

// buffers[d] holds the moves of the node d plies above the leaves, reused across siblings.
std::uint64_t perft_below(const GameState& s, const Rules& rules, int depth,
                          std::vector<std::vector<Move>>& buffers) {
  if (depth == 0 || s.over()) return 1;
  std::vector<Move>& moves = buffers[static_cast<std::size_t>(depth)];
  legal_moves(s, rules, moves);
  if (depth == 1) return moves.size();
  std::uint64_t nodes = 0;
  for (const Move& m : moves) {
    GameState t = s;
    apply_move(t, rules, m);
    nodes += perft_below(t, rules, depth - 1, buffers);
  }
  return nodes;
}

}  // namespace

std::uint64_t perft(const GameState& s, const Rules& rules, int depth) {
  if (depth <= 0) return 1;
  std::vector<std::vector<Move>> buffers(static_cast<std::size_t>(depth) + 1);
  return perft_below(s, rules, depth, buffers);
}

// ---- notation -----------------------------------------------------------------------------------

std::string move_text(const Move& move) {
  switch (move.kind) {
    case MoveKind::Draw: return "draw";
    case MoveKind::Pile: return "pile";
    case MoveKind::Keep: return "keep";
    case MoveKind::Reject: return "reject";
    case MoveKind::Meld: {
      std::string out = "meld";
      move.cards.for_each([&](Card c) { out += ' ' + card_name(c); });
      return out;
    }
    case MoveKind::Add: return "add " + std::to_string(move.index) + ' ' + card_name(move.card);
    case MoveKind::Discard: return "discard " + card_name(move.card);
  }
  return "?";
}

bool parse_move(std::string_view text, Move& out) {
  const std::vector<std::string_view> words = split_words(text);
  if (words.empty()) return false;
  std::string verb(words[0]);
  for (char& c : verb) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  out = Move{};
  auto simple = [&](MoveKind kind) {
    out.kind = kind;
    return words.size() == 1;
  };
  if (verb == "draw") return simple(MoveKind::Draw);
  if (verb == "pile") return simple(MoveKind::Pile);
  if (verb == "keep") return simple(MoveKind::Keep);
  if (verb == "reject") return simple(MoveKind::Reject);
  if (verb == "meld") {
    out.kind = MoveKind::Meld;
    if (words.size() < 2) return false;
    for (std::size_t k = 1; k < words.size(); ++k) {
      const auto c = parse_card(words[k]);
      if (!c || !out.cards.add(*c)) return false;
    }
    return true;
  }
  if (verb == "discard") {
    out.kind = MoveKind::Discard;
    if (words.size() != 2) return false;
    const auto c = parse_card(words[1]);
    if (!c) return false;
    out.card = *c;
    return true;
  }
  if (verb == "add") {
    out.kind = MoveKind::Add;
    if (words.size() != 3 || words[1].empty()) return false;
    std::uint32_t index = 0;
    for (char ch : words[1]) {
      if (ch < '0' || ch > '9') return false;
      if (index > (kMaxMoveIndex - static_cast<std::uint32_t>(ch - '0')) / 10) return false;
      index = index * 10 + static_cast<std::uint32_t>(ch - '0');
    }
    const auto c = parse_card(words[2]);
    if (!c) return false;
    out.index = index;
    out.card = *c;
    return true;
  }
  return false;
}

}  // namespace burraco
