// The heuristic policy (heuristic.hpp, docs/bots.md).
#include "burraco/heuristic.hpp"

#include <algorithm>
#include <cassert>
#include <bit>
#include <cstdlib>
#include <limits>

#include "burraco/search.hpp"
#include "turn.hpp"

namespace burraco {

using namespace detail;

namespace {

double meld_value(const Meld& m, const Rules& rules, const HeuristicParams& p) {
  const int bonus = m.bonus(rules);
  double value = m.points(rules) + bonus;
  if (bonus == 0 && m.size() >= 3 && m.size() <= 6) {
    const double share = p.progress[static_cast<std::size_t>(m.size() - 3)];
    value += share * rules.clean_burraco_bonus * (m.is_clean() ? 1.0 : p.dirty_share);
  }
  return value;
}

// The cards of the seat's hand valued: held against it, and what they promise. `unseen` of them
// (a pozzetto just joined in a lookahead) are not looked at: each counts as an average card.
// Card by card that is -hand_weight * points, plus wild_value for a wild or use_weight times its
// greedy usefulness for a natural; summed here from the planes at once.
double hand_value(CardSet hand, CardSet unseen, const Rules& rules, const HeuristicParams& p) {
  CardSet seen = hand;
  if (!unseen.empty()) unseen.for_each([&](Card c) { seen.remove(c); });
  constexpr std::uint64_t twos = CardSet::rank_column(kTwo);
  const int wilds = seen.jokers() + std::popcount(seen.one() & twos) + std::popcount(seen.two() & twos);
  return -p.hand_weight * p.unseen_card_points * unseen.size() - p.hand_weight * rules.points_of(seen) +
         p.wild_value * wilds + p.use_weight * hand_usefulness(seen);
}

// The harm of `card` on the pile for the sides other than `side`.
double discard_danger(const GameState& s, const Rules& rules, int side, Card card,
                      const HeuristicParams& p) {
  if (!card.valid()) return 0;
  double harm = 0;
  const bool wild = card.is_wild();
  for (int i = 0; i < s.meld_count; ++i) {
    if (s.meld_side[i] == side) continue;
    const Meld& m = s.melds[i];
    // A natural lays off only on a set of its rank or a run of its suit (RULES B.2, B.6).
    if (!wild && (m.kind == MeldKind::Set ? m.rank != card.rank() : m.suit != card.suit())) continue;
    if (lay_off(m, card, rules).ok()) {
      harm += p.danger_lay + rules.card_points(card);
      break;
    }
  }
  if (wild) return harm;
  for (int q = 0; q < s.players; ++q) {
    if (seat_side(s, rules, q) == side || s.known[q].empty()) continue;
    bool matches = false;
    s.known[q].for_each([&](Card k) {
      if (k.is_wild()) return;
      if (k.rank() == card.rank() || (k.suit() == card.suit() && std::abs(k.rank() - card.rank()) == 1))
        matches = true;
    });
    if (matches) {
      harm += p.danger_known;
      break;
    }
  }
  return harm;
}

// The values of the melds of a position, to be reused for the positions one move away: a meld
// of those that is unchanged (same index, same cards) takes its value from here.
struct MeldValues {
  const GameState* base = nullptr;
  std::array<double, kMaxMelds> value{};

  MeldValues(const GameState& s, const Rules& rules, const HeuristicParams& p) : base(&s) {
    for (int i = 0; i < s.meld_count; ++i) value[static_cast<std::size_t>(i)] = meld_value(s.melds[i], rules, p);
  }
  double of(const GameState& s, int i, const Rules& rules, const HeuristicParams& p) const {
    if (i < base->meld_count && s.melds[i] == base->melds[i]) return value[static_cast<std::size_t>(i)];
    return meld_value(s.melds[i], rules, p);
  }
};

// Per side in play: its melds' values less its pozzetto's costs; returns the count of sides.
// `cache`, if given, holds the values of the melds of a nearby position.
int table_values(const GameState& s, const Rules& rules, const HeuristicParams& p,
                 std::array<int, kSideSlots>& sides, std::array<double, kSideSlots>& value,
                 const MeldValues* cache = nullptr) {
  const int count = active_sides(s, rules, sides);
  value = {};
  for (int i = 0; i < s.meld_count; ++i)
    value[s.meld_side[i]] += cache ? cache->of(s, i, rules, p) : meld_value(s.melds[i], rules, p);
  for (int k = 0; k < count; ++k) {
    const int x = sides[static_cast<std::size_t>(k)];
    if (took_packet(s, rules, x)) continue;
    value[static_cast<std::size_t>(x)] -= rules.no_pozzetto_penalty + p.pozzetto_extra;
    for (int q = 0; q < s.players; ++q)
      if (seat_side(s, rules, q) == x) value[static_cast<std::size_t>(x)] -= p.pozzetto_card * s.hands[q].size();
  }
  return count;
}

// What the hand of seat q adds to its side's value as `seat` sees it: the seat's own hand by
// hand_value; another's cards it cannot see as average cards, the known ones as they are.
double seat_hand_value(const GameState& s, const Rules& rules, int seat, int q,
                       const HeuristicParams& p, CardSet unseen) {
  if (q == seat) return hand_value(s.hands[q], unseen, rules, p);
  const double hand = -p.unseen_card_points * (s.hands[q].size() - s.known[q].size()) -
                      rules.points_of(s.known[q]);
  return p.hand_weight * hand;
}

// The evaluation; `unseen` as in hand_value, `discarded` the card the seat just put on the pile
// (or none). When the hand is not over, `best_other_out` (if given) receives the best value of
// another side.
double evaluate(const GameState& s, const Rules& rules, int seat, const HeuristicParams& p,
                CardSet unseen, Card discarded, const MeldValues* cache = nullptr,
                double* best_other_out = nullptr) {
  const int side = seat_side(s, rules, seat);
  if (s.over()) {
    // The hand as the seat sees it: the other hands hold their known cards; the rest of each is
    // counted as average cards.
    GameState seen = s;
    double others_unknown = 0, own_unknown = -static_cast<double>(unseen.size()) * p.unseen_card_points;
    for (int q = 0; q < s.players; ++q) {
      if (q == seat) continue;
      seen.hands[q] = s.known[q];
      const double missing = (s.hands[q].size() - s.known[q].size()) * p.unseen_card_points;
      if (seat_side(s, rules, q) == side) own_unknown -= missing;
      else others_unknown -= missing;
    }
    unseen.for_each([&](Card c) { seen.hands[seat].remove(c); });
    const HandResult r = score_hand(seen, rules);
    double own = 0, best_other = -std::numeric_limits<double>::infinity();
    for (int k = 0; k < r.side_count; ++k) {
      const SideResult& x = r.sides[static_cast<std::size_t>(k)];
      if (x.side == side) own = x.total;
      else best_other = std::max(best_other, static_cast<double>(x.total));
    }
    if (best_other == -std::numeric_limits<double>::infinity()) best_other = 0;
    return own + own_unknown - best_other - (r.side_count > 1 ? others_unknown / (r.side_count - 1) : 0);
  }
  std::array<int, kSideSlots> sides{};
  std::array<double, kSideSlots> value{};
  const int count = table_values(s, rules, p, sides, value, cache);
  for (int q = 0; q < s.players; ++q) {
    const int x = seat_side(s, rules, q);
    value[static_cast<std::size_t>(x)] += seat_hand_value(s, rules, seat, q, p, unseen);
  }
  double best_other = -std::numeric_limits<double>::infinity();
  for (int k = 0; k < count; ++k)
    if (sides[static_cast<std::size_t>(k)] != side)
      best_other = std::max(best_other, value[static_cast<std::size_t>(sides[static_cast<std::size_t>(k)])]);
  if (best_other == -std::numeric_limits<double>::infinity()) best_other = 0;
  if (best_other_out) *best_other_out = best_other;
  double result = value[static_cast<std::size_t>(side)] - best_other;
  if (discarded.valid()) result -= discard_danger(s, rules, side, discarded, p);
  return result;
}

// The evaluation of `t`, a position one move of the seat after `base` (which evaluated to
// `base_best_other` for the other sides), when that move ended nothing: no side but the seat's
// changed, so only its value is worked out, by the same steps in the same order as evaluate()
// (the result is the same to the last bit). Falls back to evaluate() when the hand is over, the
// sides in play changed (three players: the first pozzetto taken) or another side's hand changed
// (the next seat took up the pozzetto it had reached by discarding).
double evaluate_after(const GameState& base, double base_best_other, const GameState& t,
                      const Rules& rules, int seat, const HeuristicParams& p, CardSet unseen,
                      Card discarded, const MeldValues& cache) {
  if (t.over() || t.split != base.split) return evaluate(t, rules, seat, p, unseen, discarded, &cache);
  const int side = seat_side(t, rules, seat);
  for (int q = 0; q < t.players; ++q)
    if (seat_side(t, rules, q) != side && (t.hands[q] != base.hands[q] || t.known[q] != base.known[q]))
      return evaluate(t, rules, seat, p, unseen, discarded, &cache);  // (a pozzetto joined at a turn's start)
  double own = 0;
  for (int i = 0; i < t.meld_count; ++i)
    if (t.meld_side[i] == side) own += cache.of(t, i, rules, p);
  if (!took_packet(t, rules, side)) {
    own -= rules.no_pozzetto_penalty + p.pozzetto_extra;
    for (int q = 0; q < t.players; ++q)
      if (seat_side(t, rules, q) == side) own -= p.pozzetto_card * t.hands[q].size();
  }
  for (int q = 0; q < t.players; ++q)
    if (seat_side(t, rules, q) == side) own += seat_hand_value(t, rules, seat, q, p, unseen);
  double result = own - base_best_other;
  if (discarded.valid()) result -= discard_danger(t, rules, side, discarded, p);
  assert(result == evaluate(t, rules, seat, p, unseen, discarded, &cache));
  return result;
}

// The cards that joined the seat's hand from a pozzetto between `before` and `after` (the seat
// has not seen them when it chooses).
CardSet new_packet_cards(const GameState& before, const GameState& after, int seat) {
  CardSet out;
  for (int k = 0; k < kPackets; ++k)
    if (before.packets[k].status == PacketStatus::Untaken &&
        after.packets[k].status == PacketStatus::InHand && after.packets[k].owner == seat)
      out = after.packets[k].set();
  return out;
}

struct Scored {
  std::size_t index;
  double value;       // evaluation after the move
  bool ends_lookahead;  // the turn is over, or a pozzetto joined the hand
};

// The meld-phase choice (see the header) and the evaluation it leads to.
Scored meld_phase_choice(const GameState& s, const Rules& rules, const std::vector<Move>& moves,
                         const HeuristicParams& p) {
  const int seat = s.turn;
  const MeldValues melds(s, rules, p);
  double best_other = 0;
  const double now = evaluate(s, rules, seat, p, CardSet{}, Card{}, &melds, &best_other);
  Scored best_put{moves.size(), -std::numeric_limits<double>::infinity(), false};
  Scored best_end{moves.size(), -std::numeric_limits<double>::infinity(), true};
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const Move& m = moves[i];
    GameState t = s;
    if (!apply_move(t, rules, m).ok()) continue;
    // (No move here can be a short brazilian opening, RULES C.3: heuristic_choice leaves a side
    // that is not open to greedy, and an open side's cards never come back.)
    const CardSet unseen = new_packet_cards(s, t, seat);
    const bool discard = m.kind == MoveKind::Discard;
    const double v = evaluate_after(s, best_other, t, rules, seat, p, unseen,
                                    discard && !t.over() ? m.card : Card{}, melds);
    const bool ends = discard || t.over() || t.turn != seat || !unseen.empty();
    if (discard || t.over()) {
      if (v > best_end.value) best_end = {i, v, true};
    } else if (v > best_put.value) {
      best_put = {i, v, ends};
    }
  }
  if (best_put.index < moves.size() && best_put.value > now + p.meld_margin) return best_put;
  if (best_end.index < moves.size()) return best_end;
  if (best_put.index < moves.size()) return best_put;
  return {0, now, true};
}

// The rest of the turn of `t` played by the meld-phase rule; the evaluation where it ends.
// `put_down` tells whether the imagined turn put a card on the table.
double imagine_turn(GameState t, const Rules& rules, int seat, const HeuristicParams& p,
                    std::vector<Move>& scratch, bool& put_down) {
  put_down = false;
  for (int step = 0; step < 40; ++step) {
    if (t.over() || t.turn != seat || t.phase != Phase::Meld) break;
    legal_moves(t, rules, scratch);
    if (scratch.empty()) break;
    const Scored c = meld_phase_choice(t, rules, scratch, p);
    const MoveKind kind = scratch[c.index].kind;
    if (kind == MoveKind::Meld || kind == MoveKind::Add) put_down = true;
    if (c.ends_lookahead) return c.value;
    apply_move(t, rules, scratch[c.index]);
  }
  return evaluate(t, rules, seat, p, CardSet{}, Card{});
}

}  // namespace

std::size_t heuristic_choice(const GameState& s, const Rules& rules, const std::vector<Move>& moves,
                             const HeuristicParams& p, std::vector<Move>& scratch) {
  if (moves.size() == 1) return 0;
  // Under an opening minimum, until its side is open, the heuristic plays greedy's moves: greedy
  // never takes the pile then and never plays a short opening (docs/search.md), so its hands end;
  // the evaluation has no model of the requirement yet.
  if (rules.opening_steps > 0 && !s.opened[seat_side(s, rules, s.turn)])
    return greedy_choice(s, rules, moves);
  if (s.phase == Phase::Draw) {
    std::size_t draw = moves.size(), pile = moves.size();
    for (std::size_t i = 0; i < moves.size(); ++i) {
      if (moves[i].kind == MoveKind::Keep) return i;
      if (moves[i].kind == MoveKind::Draw) draw = i;
      if (moves[i].kind == MoveKind::Pile) pile = i;
    }
    if (pile == moves.size()) return draw < moves.size() ? draw : 0;
    if (draw == moves.size()) return pile;
    // Under an opening minimum a side not yet open leaves the pile alone, as greedy does: a pile
    // it cannot open with only grows the hand (and a held card it cannot discard can leave it
    // only short openings, RULES C.3, C.5).
    if (rules.opening_steps > 0 && !s.opened[seat_side(s, rules, s.turn)]) return draw;
    GameState taken = s;
    if (!apply_move(taken, rules, moves[pile]).ok()) return draw;
    bool melds_from_pile = false, unused = false;
    const double with_pile = imagine_turn(taken, rules, s.turn, p, scratch, melds_from_pile);
    // A one-card pile taken and nothing put down is an exchange turn (RULES D.4): enough of them
    // in a row end the hand, so the heuristic never plays one.
    if (s.pile_size == 1 && !melds_from_pile) return draw;
    GameState as_is = s;  // the turn on the hand as it is: the stock card is not known
    as_is.phase = Phase::Meld;
    const double without = imagine_turn(as_is, rules, s.turn, p, scratch, unused);
    const double margin = s.players == 2 ? p.pile_margin_two_players : p.pile_margin;
    return with_pile > without + margin ? pile : draw;
  }
  if (s.phase != Phase::Meld) return 0;
  const Scored c = meld_phase_choice(s, rules, moves, p);
  return c.index < moves.size() ? c.index : 0;
}

int heuristic_side_values(const GameState& s, const Rules& rules, const HeuristicParams& p,
                          std::array<int, kSideSlots>& sides, std::array<double, kSideSlots>& value) {
  const int count = table_values(s, rules, p, sides, value);
  for (int q = 0; q < s.players; ++q)
    value[static_cast<std::size_t>(seat_side(s, rules, q))] += hand_value(s.hands[q], CardSet{}, rules, p);
  return count;
}

std::size_t heuristic_policy_choice(Policy policy, const GameState& s, const Rules& rules,
                                    const std::vector<Move>& moves) {
  static const HeuristicParams defaults{};
  thread_local std::vector<Move> scratch;
  return heuristic_choice(s, rules, moves, policy.heuristic ? *policy.heuristic : defaults, scratch);
}

}  // namespace burraco
