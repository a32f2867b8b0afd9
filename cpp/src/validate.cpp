// The whole-state validator, written from the rules (RULES C, D, F.6; docs/game.md "Invariants").
//
// Each check is a consequence of how a hand is played, not of how the engine stores it: the
// comments say which move makes or clears what is checked. The checks run in the order of
// docs/game.md so that the first broken invariant is the one reported.
#include "burraco/validate.hpp"

#include <array>
#include <string>
#include <vector>

namespace burraco {

namespace {

std::string num(int v) { return std::to_string(v); }

std::string flag_text(std::uint8_t flags) {
  std::string out;
  if (flags & kTookSinglePile) out += 'p';
  if (flags & kPutDown) out += 'd';
  if (flags & kLastTurn) out += 'l';
  if (flags & kForceDraw) out += 'f';
  if (flags & kFirstDraw) out += 'b';
  return out.empty() ? "-" : out;
}

std::string phase_text(Phase p) {
  return p == Phase::Draw ? "draw" : p == Phase::Meld ? "meld" : "over";
}

bool waiting(const Packet& p) {
  return p.status == PacketStatus::FaceDown || p.status == PacketStatus::Seen;
}
bool taken(const Packet& p) { return waiting(p) || p.status == PacketStatus::InHand; }

int initial_requirement(const Rules& rules, int band) {
  int need = rules.opening_minimum[0].minimum;
  for (int i = 0; i < rules.opening_steps; ++i)
    if (band >= rules.opening_minimum[i].from_score) need = rules.opening_minimum[i].minimum;
  return need;
}

bool side_table_has(const GameState& s, int side, Card card) {
  for (int i = 0; i < s.meld_count; ++i)
    if (s.meld_side[i] == side && s.melds[i].cards.count(card)) return true;
  return false;
}

bool side_has_melds(const GameState& s, int side) {
  for (int i = 0; i < s.meld_count; ++i)
    if (s.meld_side[i] == side) return true;
  return false;
}

// No move has been made in the hand yet, as far as the position tells without counting cards
// (hand and stock sizes are not checked: docs/game.md): the first player to act, nothing on the
// table, every packet untaken, nothing known, no exchange turn, no split.
bool untouched_deal(const GameState& s) {
  if (s.turn != s.first || s.phase != Phase::Draw || s.meld_count != 0 || s.deadlock != 0 ||
      s.hold.valid() || s.split >= 0)
    return false;
  for (int p = 0; p < s.players; ++p)
    if (!s.known[p].empty()) return false;
  for (const Packet& p : s.packets)
    if (p.status != PacketStatus::Untaken) return false;
  return true;
}

// A position before any discard is the deal itself: with untouched_deal(s), every hand holds
// hand_size cards, the stock its dealt size and the pile the start card alone (if the rules deal
// one), the brazilian first draw is pending exactly where the rules have it, and every side's
// opening requirement is its start. Empty if so, else what differs.
std::string deal_problem(const GameState& s, const Rules& rules) {
  if (!untouched_deal(s)) return "the first player acts, with no meld, packet or known card yet";
  for (int p = 0; p < s.players; ++p)
    if (s.hands[p].size() != rules.hand_size)
      return "every hand holds " + num(rules.hand_size) + " cards (seat " + num(p) + " holds " +
             num(s.hands[p].size()) + ")";
  if (s.stock_size() != rules.initial_stock())
    return "the stock holds " + num(rules.initial_stock()) + " cards, not " + num(s.stock_size());
  if (s.pile_size != (rules.initial_upcard ? 1 : 0))
    return "the pile is the start card alone (if the rules deal one)";
  if (((s.flags & kFirstDraw) != 0) != (rules.first_draw_rule == FirstDrawRule::MayRejectFirstCard))
    return "the brazilian first draw is pending exactly where the rules have it";
  if (rules.opening_steps > 0)
    for (int side = 0; side < side_slots(rules); ++side)
      if (s.opened[side] ||
          s.need[side] != initial_requirement(
                              rules, s.scores[side] + (s.cut_side == side ? rules.cut_bonus : 0)))
        return "side " + num(side) + " has not opened and needs its starting requirement";
  return {};
}

std::string check(const GameState& s, const Rules& rules) {
  const int n = s.players, slots = side_slots(rules);
  const int threshold = rules.stock_end_threshold;
  const bool over = s.over();

  // ---- shape ----------------------------------------------------------------------------------
  if (n != rules.players) return "players: the state has " + num(n) + " seats, the rules " +
                                 num(rules.players);
  if (s.first >= n) return "first=" + num(s.first) + ": no such seat";
  if (s.turn >= n) return "turn=" + num(s.turn) + ": no such seat";
  if (s.stock_pos > s.stock_end || s.stock_end > kMaxDeck) return "stock: bad bounds";
  if ((s.end != EndReason::None) != over)
    return "end: a hand has an end exactly when its phase is over (phase=" + phase_text(s.phase) +
           ")";

  // ---- RULES A.1: every card of the pack in exactly one place -----------------------------------
  {
    std::array<int, kKinds> count{};
    auto tally = [&](CardSet set) { set.for_each([&](Card c) { ++count[c.index]; }); };
    for (int p = 0; p < n; ++p) tally(s.hands[p]);
    tally(s.pile);
    for (int i = s.stock_pos; i < s.stock_end; ++i) {
      if (!s.stock[i].valid()) return "stock: not a card";
      ++count[s.stock[i].index];
    }
    for (int i = 0; i < s.meld_count; ++i) tally(s.melds[i].cards);
    for (int k = 0; k < kPackets; ++k) {
      const Packet& p = s.packets[k];
      if (p.size != rules.pozzetto_sizes[k])
        return "pozzetti: packet " + num(k) + " has " + num(p.size) + " cards, the rules deal " +
               num(rules.pozzetto_sizes[k]);
      if (p.status == PacketStatus::Untaken || waiting(p))
        for (int i = 0; i < p.size; ++i) {
          if (!p.cards[i].valid()) return "pozzetti: not a card";
          ++count[p.cards[i].index];
        }
    }
    for (int k = 0; k < kKinds; ++k) {
      const int expected = k == kJoker ? rules.jokers : rules.decks;
      if (count[k] != expected)
        return "cards not conserved: " + num(count[k]) + " x " +
               card_name(Card(static_cast<std::uint8_t>(k))) + " where the deck has " +
               num(expected);
    }
  }
  for (int p = 0; p < n; ++p)
    if (!s.known[p].subset_of(s.hands[p]))
      return "known=" + cards_field(s.known[p]) + " (seat " + num(p) +
             "): a known card is not in the hand " + cards_field(s.hands[p]);
  for (int p = n; p < kMaxPlayers; ++p)
    if (!s.hands[p].empty() || !s.known[p].empty()) return "hands: a card held by no seat";
  if (s.pile_size != s.pile.size() || s.top.valid() != (s.pile_size > 0) ||
      (s.top.valid() && !s.pile.count(s.top)))
    return "top: the top card must be in the pile, and only an empty pile has none";

  // ---- sides and melds (RULES F.6 for three players) ------------------------------------------
  if (n != 3 && s.split >= 0) return "split=" + num(s.split) + ": only three players split";
  if (s.split >= n) return "split=" + num(s.split) + ": no such seat";
  for (int i = 0; i < s.meld_count; ++i) {
    const int side = s.meld_side[i];
    const bool ok = n != 3 ? side < rules.sides : s.split < 0 ? side < 3 : (side == s.split || side == 3);
    if (!ok)
      return "melds: slot " + num(side) + " holds a meld" +
             (n != 3    ? std::string(rules.sides == 2 ? " (only sides 0 and 1 exist)" : " (only sides 0, 1 and 2 exist)")
              : s.split < 0 ? std::string(" (the pair slot 3 is empty before the split)")
                            : " (after the split, split=" + num(s.split) +
                                  ", the partners' melds are in the pair slot 3)");
  }
  {
    std::array<std::array<int, 16>, kSideSlots> sets{};
    for (int i = 0; i < s.meld_count; ++i)
      if (s.melds[i].kind == MeldKind::Set && ++sets[s.meld_side[i]][s.melds[i].rank] >
                                                  (s.meld_side[i] == 3 ? 2 : 1))
        return "melds: slot " + num(s.meld_side[i]) + " has a second set of one rank (RULES B.2)";
  }

  // ---- pozzetti (RULES C.4, D.3, F.6) ---------------------------------------------------------
  std::array<bool, kSideSlots> side_took{};
  int first_taken = -1;
  for (int k = 0; k < kPackets; ++k) {
    const Packet& p = s.packets[k];
    const bool owned = taken(p);
    if (owned != (p.owner >= 0) || p.owner >= n)
      return "pozzetti: packet " + num(k) + " has a wrong owner";
    if (p.status == PacketStatus::Stock && !rules.pozzetto_becomes_stock)
      return "pozzetti: packet " + num(k) +
             " became the stock, but pozzetto_becomes_stock is False";
    // Packets are taken, or turned into the stock, top first.
    if (k > 0 && p.status != PacketStatus::Untaken &&
        s.packets[k - 1].status == PacketStatus::Untaken)
      return "pozzetti: packet " + num(k) + " left the table before packet " + num(k - 1) +
             " (the top one goes first)";
    if (!owned) continue;
    if (k >= rules.sides)  // V15: two sides of six players leave the third packet a reserve
      return "pozzetti: packet " + num(k) + " is only a stock reserve with " + num(rules.sides) +
             " sides: it cannot be a side's pozzetto (RULES F.7)";
    if (first_taken < 0) first_taken = k;
    const int side = side_of(s, rules, p.owner);
    if (side_took[side])
      return "pozzetti: side " + num(side) + " took two pozzetti (one per side, RULES C.4)";
    side_took[side] = true;
    if (!waiting(p)) continue;
    // A packet taken by discarding waits for its owner, whose hand is then empty, and joins the
    // hand at the start of the owner's next turn (H-36).
    if (!s.hands[p.owner].empty())
      return "pozzetti: packet " + num(k) + " waits face down for seat " + num(p.owner) +
             ", whose hand is not empty (it was taken with the last discard)";
    if (!over && p.owner == s.turn)
      return "pozzetti: packet " + num(k) + " waits face down for seat " + num(p.owner) +
             ", who is to act (it joins the hand at the start of the turn)";
    // Seen or not (RULES C.4 reveal): immediately; never before the own turn; or once a partner
    // finished a turn since it was taken (the seats owner+1 .. turn-1 have).
    bool seen = false;
    switch (rules.pozzetto_reveal) {
      case PozzettoReveal::Immediately: seen = true; break;
      case PozzettoReveal::NextOwnTurn: seen = false; break;
      case PozzettoReveal::AfterPartnerTurn: {
        const int steps = (s.turn - p.owner + n) % n;
        for (int j = 1; j < steps; ++j) {
          const int q = (p.owner + j) % n;
          if (q != p.owner && side_of(s, rules, q) == side) seen = true;
        }
        break;
      }
    }
    if (seen != (p.status == PacketStatus::Seen))
      return "pozzetti: packet " + num(k) + " of seat " + num(p.owner) + " should be " +
             (seen ? "seen (s)" : "face down (f)") + " under pozzetto_reveal";
  }
  if (n == 3) {
    // The first packet taken makes its taker the soloist at once (RULES F.6).
    if ((s.split >= 0) != (first_taken >= 0))
      return s.split >= 0 ? "split=" + num(s.split) + ": no pozzetto has been taken"
                          : std::string("split=-: a pozzetto was taken, so the hand has split");
    if (s.split >= 0 && s.packets[first_taken].owner != s.split)
      return "split=" + num(s.split) + ": the first pozzetto taken went to seat " +
             num(s.packets[first_taken].owner);
  }
  // A pozzetto's taker emptied the hand by putting cards down (a hand of two or more after the
  // draw needs a meld or a lay-off to reach one card), and under an opening minimum such a hand
  // is only empty once the side is open (RULES C.3, C.4).
  for (int side = 0; side < kSideSlots && !over; ++side) {
    if (!side_took[side]) continue;
    if (!side_has_melds(s, side))
      return "pozzetti: side " + num(side) + " took a pozzetto, so it has melds";
    if (rules.opening_steps > 0 && !s.opened[side])
      return "pozzetti: side " + num(side) + " took a pozzetto, so it has opened";
  }

  // ---- hands ----------------------------------------------------------------------------------
  // A hand empties only on its own turn: then a packet is taken (on the fly: the hand fills; with
  // the last discard: it waits), or the hand closes. A seat left with no cards and no packet would
  // draw one card at its turn and find no legal move after it. (Hand sizes are not checked
  // otherwise, and not at all once the hand is over: only scoring reads them then.)
  for (int p = 0; p < n && !over; ++p) {
    if (!s.hands[p].empty()) continue;
    bool packet_waits = false;
    for (const Packet& k : s.packets) packet_waits |= waiting(k) && k.owner == p;
    if (!packet_waits) return "hands: seat " + num(p) + " has no cards and no pozzetto waiting for it";
  }

  // ---- stock (RULES D.2, D.3) -------------------------------------------------------------------
  {
    int last_stock_packet = -1;
    for (int k = 0; k < kPackets; ++k)
      if (s.packets[k].status == PacketStatus::Stock) last_stock_packet = k;
    bool convertible = false;
    for (const Packet& k : s.packets) convertible |= k.status == PacketStatus::Untaken && k.size > 0;
    convertible = convertible && rules.pozzetto_becomes_stock;
    if (last_stock_packet >= 0 && s.stock_size() > rules.pozzetto_sizes[last_stock_packet])
      return "stock: " + num(s.stock_size()) + " cards, more than the pozzetto it came from";
    if (!over && threshold > 0) {
      // A draw that leaves the stock at the threshold makes the turn the last (RULES D.2), so no
      // draw takes it below but the brazilian first draw, from a stock the deal left near it:
      // the first player to act, with the dealt stock (the draw pending) or one or two cards less
      // (after keep or reject). A draw phase at the threshold has only that first draw left.
      const int size = s.stock_size(), initial = rules.initial_stock();
      const bool first_draw = rules.first_draw_rule == FirstDrawRule::MayRejectFirstCard &&
                              s.turn == s.first &&
                              (size == initial - 1 || size == initial - 2 ||
                               ((s.flags & kFirstDraw) && size == initial));
      if (size < threshold && !first_draw)
        return "stock: " + num(size) + " cards, below stock_end_threshold=" + num(threshold) +
               ", which no draw but the brazilian first draw goes below (RULES D.2)";
      if (s.phase == Phase::Draw && size <= threshold && !((s.flags & kFirstDraw) && size >= 1))
        return "stock: " + num(size) + " cards at a draw, at or below stock_end_threshold=" +
               num(threshold) + ": the hand ended with the last turn's discard (RULES D.2)";
      if (s.phase == Phase::Meld && size <= threshold && !(s.flags & kLastTurn))
        return "turnflags=" + flag_text(s.flags) + ": a draw left the stock at " + num(size) +
               " cards (stock_end_threshold=" + num(threshold) + ") without the last-turn flag l";
    }
    if (!over && threshold == 0 && s.stock_size() == 0 && !convertible && s.phase != Phase::Meld)
      return "stock=-: the stock is out with no pozzetto to replace it, so the hand ended with the "
             "last turn's discard (RULES D.3)";
  }

  // ---- turn flags and hold (docs/game.md "turnflags") ------------------------------------------
  const std::uint8_t f = s.flags;
  const std::string flags = "turnflags=" + flag_text(f) + ": ";
  if (over) {
    if (f) return flags + "a hand that is over has no turn flags";
    if (s.hold.valid()) return "hold=" + card_name(s.hold) + ": a hand that is over has no hold";
  } else if (s.phase == Phase::Draw) {
    if (f & (kTookSinglePile | kPutDown | kLastTurn))
      return flags + "p, d and l belong to the meld phase (after the draw)";
    if (s.hold.valid()) return "hold=" + card_name(s.hold) + ": no pile was taken yet this turn";
  } else {
    if (f & kFirstDraw) return flags + "b (the first draw pending) in the meld phase";
  }
  if ((f & kTookSinglePile) && (f & (kLastTurn | kForceDraw)))
    return flags + "p (a pile take) with a stock draw (l or f) in one turn";
  if ((f & kForceDraw) && (f & kFirstDraw)) return flags + "f and b in one turn";
  if (f & kTookSinglePile) {
    // The one card taken is in the hand and known, unless a card of it went down since.
    if (s.pile_size != 0) return flags + "the pile was taken this turn but is not empty";
    if (s.known[s.turn].empty() && !(f & kPutDown))
      return flags + "a one-card pile was taken but no card is known in the hand";
  }
  if ((f & kLastTurn) && (threshold == 0 || s.stock_size() > threshold))
    return flags + "l (last turn) with " + num(s.stock_size()) +
           " cards in the stock and stock_end_threshold=" + num(threshold);
  if (f & kForceDraw) {
    if (rules.deadlock_rule != DeadlockRule::ForceDraw)
      return flags + "f (forced stock draw) but deadlock_rule is end_hand";
    if (s.deadlock != 0) return flags + "f follows a deadlock, which resets the count";
    if (s.pile_size != 1) return flags + "f follows an exchange turn, which leaves one pile card";
  }
  if (f & kFirstDraw) {
    if (rules.first_draw_rule != FirstDrawRule::MayRejectFirstCard)
      return flags + "b (brazilian first draw) but first_draw_rule is none";
    if (f != kFirstDraw || !untouched_deal(s) || s.pile_size != (rules.initial_upcard ? 1 : 0))
      return flags + "b (first draw pending) after the hand has moved";
  }
  if (!over && s.phase == Phase::Draw && s.pile_size == 0 &&
      (rules.initial_upcard || !untouched_deal(s)))
    return "pile=-: the pile is empty at a draw after the hand has moved (every turn ends with a "
           "discard)";
  if (!over && s.phase == Phase::Draw && (s.pile_size == 0 || (f & kFirstDraw))) {
    const std::string problem = deal_problem(s, rules);
    if (!problem.empty()) return "nothing has been discarded yet, so this is the deal: " + problem;
  }
  if (s.hold.valid()) {
    const int side = side_of(s, rules, s.turn);
    const bool provisional = rules.opening_steps > 0 && !s.opened[side];
    const std::string hold = "hold=" + card_name(s.hold) + ": ";
    if (!(f & kTookSinglePile)) return hold + "a hold needs a one-card pile take (turnflags p)";
    if (!rules.forbid_discard_of_single_pile_card)
      return hold + "forbid_discard_of_single_pile_card is False, so no card is held";
    if (!s.known[s.turn].count(s.hold) && !(provisional && side_table_has(s, side, s.hold)))
      return hold + "the held card is neither known in the hand nor on the side's table of this "
                    "turn";
  }

  // ---- deadlock (RULES D.4) ---------------------------------------------------------------------
  if (s.end == EndReason::Deadlock) {
    if (rules.deadlock_rule != DeadlockRule::EndHand)
      return "end=deadlock but deadlock_rule is force_draw";
    if (s.deadlock != n) return "deadlock=" + num(s.deadlock) + ": a deadlock end counts " + num(n);
    if (s.pile_size != 1) return "end=deadlock: the last exchange turn leaves one pile card";
  } else if (s.deadlock >= n) {
    return "deadlock=" + num(s.deadlock) + ": " + num(n) + " exchange turns end the hand or force "
           "a draw";
  }
  if (!over && s.deadlock > 0 &&
      !(s.pile_size == 1 || (s.phase == Phase::Meld && s.pile_size == 0 && (f & kTookSinglePile))))
    return "deadlock=" + num(s.deadlock) + ": an exchange turn leaves exactly one card on the pile";

  // ---- brazilian opening (RULES C.3) ------------------------------------------------------------
  for (int side = 0; side < kSideSlots; ++side) {
    const std::string at = " (side " + num(side) + ")";
    if (rules.opening_steps == 0 || side >= slots) {
      if (s.opened[side] || s.need[side] != 0)
        return "opened/need" + at + ": no opening minimum in these rules, so 0 and 0";
      continue;
    }
    const int base =
        initial_requirement(rules, s.scores[side] + (s.cut_side == side ? rules.cut_bonus : 0));
    const int inc = rules.opening_fail_increment;
    const bool need_ok = s.need[side] == kMaxOpeningNeed ||
                         (s.need[side] >= base &&
                          (inc == 0 ? s.need[side] == base : (s.need[side] - base) % inc == 0));
    if (!need_ok)
      return "need=" + num(s.need[side]) + at + ": the requirement starts at " + num(base) +
             " and rises by opening_fail_increment=" + num(inc);
    if (s.opened[side] && !side_has_melds(s, side))
      return "opened=1" + at + ": an open side has melds on the table";
    if (!s.opened[side] && side_has_melds(s, side) &&
        (over || s.phase != Phase::Meld || side_of(s, rules, s.turn) != side || !(f & kPutDown)))
      return "opened=0" + at + ": melds of a side that has not opened are this turn's, put "
             "down by the seat to act (turnflags d)";
  }

  // ---- the end (RULES D) ------------------------------------------------------------------------
  if (s.end == EndReason::Closed) {
    const int side = side_of(s, rules, s.turn);
    if (s.closing_side != side)
      return "end=closed:" + num(s.closing_side) + ": the closer is the seat of turn=" +
             num(s.turn) + ", side " + num(side);
    if (!s.hands[s.turn].empty()) return "end=closed: the closer's hand is not empty";
    for (const Packet& p : s.packets)  // a discard that takes the pozzetto does not close (C.4)
      if ((p.status == PacketStatus::FaceDown || p.status == PacketStatus::Seen) && p.owner == s.turn)
        return "end=closed: the closer's own pozzetto is waiting, taken by the last discard, "
               "which then cannot have closed (RULES C.4, C.6)";
    if (!side_took_packet(s, rules, side)) return "end=closed: the side has no pozzetto (C.6)";
    if (!has_required_burraco(s, rules, side))
      return "end=closed: the side has no burraco to close with (C.6)";
  } else if (s.closing_side >= 0) {
    return "end: a closing side without a closed end";
  }
  if (s.cut_side >= 0) {
    if (!(rules.cut_exact_probability > 0))
      return "cut=" + num(s.cut_side) + ": no cut is exact when cut_exact_probability is 0 (RULES F.5)";
    const int cutter = ((s.first - 2) % n + n) % n;
    const int expected = n == 4 || n == 6 ? cutter % rules.sides : cutter;
    if (s.cut_side != expected)
      return "cut=" + num(s.cut_side) + ": the cutter is seat " + num(cutter) + ", side " +
             num(expected);
  }

  // ---- liveness: a hand that is not over goes on -----------------------------------------------
  if (!over) {
    if (s.hands[s.turn].empty()) return "hands: the seat to act has no cards";
    std::vector<Move> moves;
    legal_moves(s, rules, moves);
    if (moves.empty()) return "the hand is not over, yet seat " + num(s.turn) + " has no legal move";
  }
  return "";
}

}  // namespace

std::string validate_state(const GameState& s, const Rules& rules) { return check(s, rules); }

}  // namespace burraco
