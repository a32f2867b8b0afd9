// The heuristic policy (heuristic.hpp, docs/bots.md).
#include "burraco/heuristic.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <limits>
#include <optional>
#include <type_traits>

#include "burraco/greedy.hpp"
#include "heuristic_memo.hpp"
#include "turn.hpp"

namespace burraco {

using namespace detail;

namespace {

// The cards of the seat's hand valued: held against it, and what they promise. `unseen` of them
// (a pozzetto just joined in a lookahead) are not looked at: each counts as an average card.
// Card by card that is -hand_weight * points, plus wild_value for a wild or use_weight times its
// greedy usefulness for a natural; summed here from the tally of the cards looked at.
double hand_value(const HandTally& seen, int unseen, const HeuristicParams& p) {
  return -p.hand_weight * p.unseen_card_points * unseen - p.hand_weight * seen.points +
         p.wild_value * seen.wilds + p.use_weight * seen.usefulness;
}

double hand_value(CardSet hand, CardSet unseen, const Rules& rules, const HeuristicParams& p) {
  CardSet seen = hand;
  if (!unseen.empty()) unseen.for_each([&](Card c) { seen.remove(c); });
  return hand_value(HandTally(seen, rules), unseen.size(), p);
}

// The values of the melds of a position, to be reused for the positions one move away: a meld
// of those that is unchanged (same index, same cards) takes its value from here. Made only below
// heuristic_choice, with its rules and parameters: the values come from meld_memo.
struct MeldValues {
  const GameState* base = nullptr;
  MeldMemo* memo = nullptr;
  std::array<double, kMaxMelds> value;  // value[i] for i < base->meld_count (only those are read)

  MeldValues(const GameState& s, [[maybe_unused]] const Rules& rules,
             [[maybe_unused]] const HeuristicParams& p)
      : base(&s), memo(&meld_memo()) {
    for (int i = 0; i < s.meld_count; ++i) {
      value[static_cast<std::size_t>(i)] = memo->value(s.melds[i]);
      assert(same_bits(value[static_cast<std::size_t>(i)], meld_value(s.melds[i], rules, p)));
    }
  }
  double of(const GameState& s, int i, [[maybe_unused]] const Rules& rules,
            [[maybe_unused]] const HeuristicParams& p) const {
    if (i < base->meld_count && s.melds[i] == base->melds[i]) return value[static_cast<std::size_t>(i)];
    const double v = memo->value(s.melds[i]);
    assert(same_bits(v, meld_value(s.melds[i], rules, p)));
    return v;
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

// Whether `t`, one move of `seat` after `base`, leaves the hand going, the sides in play as they
// were and every other seat's hand and known cards untouched.
bool others_unchanged(const GameState& base, const GameState& t, int seat) {
  if (t.over() || t.split != base.split) return false;
  for (int q = 0; q < t.players; ++q)
    if (q != seat && (t.hands[q] != base.hands[q] || t.known[q] != base.known[q])) return false;
  return true;
}

// What evaluate() adds to the value of the seat's side besides its melds and the seat's own
// hand: whether it took a pozzetto, and the other seats of the side with their pozzetto costs and
// their hands' values, in seat order. The terms are worked out as evaluate() works them out (the
// pozzetto's penalty; a seat's cost, p.pozzetto_card times its hand's size), for own_side_value
// to subtract and add in evaluate()'s order.
struct SideParts {
  bool took = false;
  int count = 0;
  int self = -1;  // the seat's entry
  double penalty = 0;  // rules.no_pozzetto_penalty + p.pozzetto_extra
  std::array<double, kMaxPlayers> costs{};  // the other seats' pozzetto_card * hand size
  std::array<double, kMaxPlayers> values{};

  SideParts(const GameState& s, const Rules& rules, int seat, int side, const HeuristicParams& p)
      : took(took_packet(s, rules, side)), penalty(rules.no_pozzetto_penalty + p.pozzetto_extra) {
    for (int q = 0; q < s.players; ++q) {
      if (seat_side(s, rules, q) != side) continue;
      const auto k = static_cast<std::size_t>(count++);
      if (q == seat) {
        self = static_cast<int>(k);
        continue;
      }
      costs[k] = p.pozzetto_card * s.hands[q].size();
      values[k] = seat_hand_value(s, rules, seat, q, p, CardSet{});
    }
  }
};

// evaluate()'s value of the seat's side once its melds are summed into `own` (in the order of
// their indices): the pozzetto's costs, then the hands of the side, the seat's of `hand_size`
// cards valued `hand`.
double own_side_value(const SideParts& side, const HeuristicParams& p, double own, int hand_size,
                      double hand) {
  if (!side.took) {
    own -= side.penalty;
    for (int k = 0; k < side.count; ++k)
      own -= k == side.self ? p.pozzetto_card * hand_size : side.costs[static_cast<std::size_t>(k)];
  }
  for (int k = 0; k < side.count; ++k) own += k == side.self ? hand : side.values[static_cast<std::size_t>(k)];
  return own;
}

// evaluate()'s value at `t` (hand going, no discard) when the best value of another side there is
// known to be `best_other`: the seat's side worked out by the same steps in the same order.
double own_evaluation(const GameState& t, const Rules& rules, int seat, int side, const HeuristicParams& p,
                      CardSet unseen, const MeldValues& cache, double best_other) {
  double own = 0;
  for (int i = 0; i < t.meld_count; ++i)
    if (t.meld_side[i] == side) own += cache.of(t, i, rules, p);
  const SideParts parts(t, rules, seat, side, p);
  return own_side_value(parts, p, own, t.hands[seat].size(), hand_value(t.hands[seat], unseen, rules, p)) -
         best_other;
}

// The evaluation of `t`, a position one move of the seat after `base` (which evaluated to
// `base_best_other` for the other sides), when that move ended nothing: no side but the seat's
// changed, so only its value is worked out, by the same steps in the same order as evaluate()
// (the result is the same to the last bit). Falls back to evaluate() when the hand is over, the
// sides in play changed (three players: the first pozzetto taken) or another seat's hand changed
// (the next seat took up the pozzetto it had reached by discarding). `danger` holds the harms of
// the discards of the turn of `base`, which are those of `t` when nothing but the seat's changed.
double evaluate_after(const GameState& base, double base_best_other, const GameState& t,
                      const Rules& rules, int seat, const HeuristicParams& p, CardSet unseen,
                      Card discarded, const MeldValues& cache, DangerMemo& danger) {
  if (!others_unchanged(base, t, seat)) return evaluate(t, rules, seat, p, unseen, discarded, &cache);
  const int side = seat_side(t, rules, seat);
  double result = own_evaluation(t, rules, seat, side, p, unseen, cache, base_best_other);
  if (discarded.valid()) result -= danger.of(t, rules, side, discarded, p);
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

// emptying_value's space for the moves, one list per depth of its search (a deque: a list added
// leaves the others where they are)
// (Reached through memo_of_thread, as the memos above.)
struct EmptyingScratch {
  std::deque<std::vector<Move>> lists;
};
struct ImaginedScratch {  // imagine_turn's space for a step's moves
  std::vector<Move> moves;
};

struct Scored {
  std::size_t index;
  double value;       // evaluation after the move
  bool ends_lookahead;  // the turn is over, or a pozzetto joined the hand
};

// The evaluations of the meld-phase moves of one position that leave two or more cards in the
// hand, worked out from the move without playing it: such a meld or lay-off changes only the
// seat's hand and its side's melds (RULES C.3, C.7: no pozzetto, no closing, nothing to check),
// and the discards of that size all lead to one position but for the seat's hand and the pile,
// which the evaluation does not read. Each value is the one evaluate_after() gives the position
// after the move, to the last bit (asserted in Debug builds); a move it cannot value so gets NaN
// and is played on a copy instead.
class QuickValues {
 public:
  QuickValues(const GameState& s, const Rules& rules, const HeuristicParams& p, const MeldValues& melds,
              double best_other, DangerMemo& danger)
      : s_(s), rules_(rules), p_(p), melds_(melds), danger_(danger), memo_(*melds.memo),
        best_other_(best_other), seat_(s.turn),
        side_(seat_side(s, rules, s.turn)),
        usable_(s.phase == Phase::Meld && !s.over() && !provisional(s, rules, side_)),
        parts_(s, rules, seat_, side_, p), tally_(s.hands[s.turn], rules), melds_sum_(own_melds(-1, 0)),
        bounded_(std::isfinite(p.use_weight) && p.use_weight >= 0) {
    // The side's melds by pool index (pool_index) and the ranks of its sets (side_has_set_of_rank).
    for (int i = 0; i < s.meld_count; ++i) {
      if (s.meld_side[i] != side_) continue;
      pool_[static_cast<std::size_t>(pool_count_++)] = static_cast<std::uint8_t>(i);
      if (s.melds[i].kind == MeldKind::Set) set_ranks_ |= 1u << s.melds[i].rank;
    }
  }

  // The value of `m`, or kBelow when it is a meld sure to be worth no more than `floor`: valued
  // with the usefulness of the hand left bounded above (the bound is worth at least the value,
  // rounding included: every step of the sum is monotone in it), and the bound is not above
  // `floor`.
  double of(const Move& m, double floor = -std::numeric_limits<double>::infinity()) {
    const CardSet& hand = s_.hands[seat_];
    if (!usable_) return kNone;
    switch (m.kind) {
      case MoveKind::Meld: {
        if (hand.size() - m.cards.size() < 2 || !m.cards.subset_of(hand)) return kNone;
        const MeldMemo::Candidate& c = memo_.of(m.cards);
        const MeldResult& r = c.result;
        if (!r.ok()) return kNone;
        if (r.meld.kind == MeldKind::Set && (set_ranks_ >> r.meld.rank & 1u)) return kNone;
        assert(same_bits(c.value, meld_value(r.meld, rules_, p_)));
        double own = melds_sum_;
        own += c.value;  // the new meld comes last
        if (bounded_ && floor > -std::numeric_limits<double>::infinity()) {
          // The tally of the hand less the meld's cards: points and wilds exactly (sums over the
          // cards), the usefulness at most tally_'s less the meld's own (the ordered pairs within
          // the meld are among those of the hand that hold a meld card, each counted once there,
          // and the pairs between the meld and the rest count twice).
          const HandTally most(tally_.points - c.points, tally_.wilds - c.wilds,
                               tally_.usefulness - c.usefulness);
          const double bound =
              own_side_value(parts_, p_, own, hand.size() - m.cards.size(), hand_value(most, 0, p_)) - best_other_;
          if (bound <= floor) {
#ifndef NDEBUG
            CardSet left_cards;
            hand.difference(m.cards, left_cards);
            const HandTally exact(left_cards, rules_);
            assert(exact.usefulness <= most.usefulness);
            assert(own_side_value(parts_, p_, own, left_cards.size(), hand_value(exact, 0, p_)) - best_other_ <= bound);
#endif
            return kBelow;
          }
        }
        // The tally of the cards left: the same integers as taking the meld's cards out of tally_
        // one by one (HandTally::without), for less. Points and wilds are sums over the cards, so
        // the hand's less the meld's; the usefulness is counted afresh.
        // (The difference is the hand less the meld's cards one by one: m.cards is a part of it.)
        CardSet rest;
        hand.difference(m.cards, rest);
        const HandTally left(tally_.points - c.points, tally_.wilds - c.wilds, hand_usefulness(rest));
#ifndef NDEBUG
        const HandTally counted(rest, rules_);
        assert(counted.points == left.points && counted.wilds == left.wilds && counted.usefulness == left.usefulness);
#endif
        return own_side_value(parts_, p_, own, rest.size(), hand_value(left, 0, p_)) - best_other_;
      }
      case MoveKind::Add: {
        if (hand.size() < 3 || !hand.count(m.card)) return kNone;
        if (m.index >= static_cast<std::uint32_t>(pool_count_)) return kNone;
        const int at = pool_[m.index];
        assert(at == pool_index(s_, side_, m.index));
        const MeldResult r = lay_off(s_.melds[at], m.card, rules_);
        if (!r.ok()) return kNone;
        assert(same_bits(memo_.value(r.meld), meld_value(r.meld, rules_, p_)));
        return own_side_value(parts_, p_, own_melds(at, memo_.value(r.meld)),
                              hand.size() - 1, hand_value(tally_.without(hand, m.card, rules_), 0, p_)) -
               best_other_;
      }
      case MoveKind::Discard: {
        // With two cards or more in hand check_discard refuses only a card not in the hand and
        // the held card (RULES C.5); asked here in that order.
        if (hand.size() < 2 || discards_ != Discards::Quick) return kNone;
        const bool allowed = hand.count(m.card) && !hold_blocks(s_, rules_, m.card);
        assert(allowed == (check_discard(s_, rules_, m.card) == MoveError::Ok));
        if (!allowed) return kNone;
        return own_side_value(parts_, p_, melds_sum_, hand.size() - 1,
                              hand_value(tally_.without(hand, m.card, rules_), 0, p_)) -
               best_other_ - danger_.of(s_, rules_, side_, m.card, p_);
      }
      default:
        return kNone;
    }
  }

  // Called with the position after a discard that left cards in the hand, played on a copy: from
  // then on the other discards are valued from the move if that position is the kind they share.
  void saw_discard(const GameState& t) {
    if (discards_ == Discards::Unknown) discards_ = others_unchanged(s_, t, seat_) ? Discards::Quick : Discards::Play;
  }
  bool discard_pending(const Move& m) const {
    return usable_ && m.kind == MoveKind::Discard && discards_ == Discards::Unknown && s_.hands[seat_].size() >= 2;
  }

  static constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
  static constexpr double kBelow = -std::numeric_limits<double>::infinity();

 private:
  enum class Discards { Unknown, Quick, Play };

  // The sum of the side's meld values in index order, meld `at` (if >= 0) valued `at_value`.
  double own_melds(int at, double at_value) const {
    double own = 0;
    for (int i = 0; i < s_.meld_count; ++i)
      if (s_.meld_side[i] == side_) own += i == at ? at_value : melds_.value[static_cast<std::size_t>(i)];
    return own;
  }

  const GameState& s_;
  const Rules& rules_;
  const HeuristicParams& p_;
  const MeldValues& melds_;
  DangerMemo& danger_;
  MeldMemo& memo_;  // the melds' (MeldValues::memo)
  double best_other_;
  int seat_, side_;
  bool usable_;
  SideParts parts_;
  HandTally tally_;  // of the seat's hand
  double melds_sum_;  // own_melds(-1, 0): the side's melds as they are
  bool bounded_;  // a larger usefulness never lowers hand_value (of() may bound a meld's value)
  Discards discards_ = Discards::Unknown;
  std::array<std::uint8_t, kMaxMelds> pool_;  // the side's melds' indices in s_.melds (pool_count_)
  int pool_count_ = 0;
  unsigned set_ranks_ = 0;  // bit r: the side has a set of rank r
};

// The best value the seat can reach this turn from `t`, a position after a move of it that began
// at `base`, by melds and lay-offs that empty its hand: a closing (valued as the hand it ends), or
// its pozzetto taken, on the fly (its cards unseen) or by discarding the last card; -infinity if
// no such line is left. `space[depth]` on holds reused space for the moves (added when missing).
double emptying_value(const GameState& base, const GameState& t, const Rules& rules, int seat,
                      const HeuristicParams& p, std::deque<std::vector<Move>>& space,
                      ScratchPositions& positions, std::size_t depth = 0) {
  double best = -std::numeric_limits<double>::infinity();
  if (t.over()) return t.closing_side >= 0 ? evaluate(t, rules, seat, p, CardSet{}, Card{}) : best;
  const CardSet joined = new_packet_cards(base, t, seat);
  if (!joined.empty()) return evaluate(t, rules, seat, p, joined, Card{});
  if (t.turn != seat || t.phase != Phase::Meld) return best;
  const bool last = t.hands[seat].size() == 1;
  if (last) {
    // The one legal move looked at is the discard of the last card, when check_discard allows
    // it: apply_move asks the same before it changes anything, so it is tried without the move
    // list (the same line as the discard among legal_moves, which are all refused but it).
    Card card;
    t.hands[seat].for_each([&](Card c) { card = c; });
    const Move m{MoveKind::Discard, card, 0, CardSet{}};
    const ScratchPosition scratch(positions, t);
    GameState& u = *scratch;
    if (!apply_move(u, rules, m, positions).ok()) return best;
    if (!u.over()) {  // the last card discarded: a pozzetto taken, or nothing to reach
      if (u.hands[seat].empty()) best = std::max(best, evaluate(u, rules, seat, p, CardSet{}, m.card));
      return best;
    }
    return std::max(best, emptying_value(base, u, rules, seat, p, space, positions, depth + 1));
  }
  if (space.size() == depth) space.emplace_back();
  std::vector<Move>& here = space[depth];
  legal_moves(t, rules, here);
  for (const Move& m : here) {
    if (m.kind != MoveKind::Meld && m.kind != MoveKind::Add) continue;
    const ScratchPosition scratch(positions, t);
    GameState& u = *scratch;
    if (!apply_move(u, rules, m, positions).ok()) continue;
    best = std::max(best, emptying_value(base, u, rules, seat, p, space, positions, depth + 1));
  }
  return best;
}

// The evaluation of a position and the best value of another side there (evaluate()'s result and
// its best_other_out), when the caller knows them already.
struct Evaluated {
  double value;
  double best_other;
};

// The meld-phase choice (see the header) and the evaluation it leads to. `known`, if given, is
// evaluate()'s answer at `s` (bit for bit); else `others_best`, if given, is the best value of
// another side at `s` (found at a position whose other sides are those of `s`);
// `best_other_out`, if given, receives the best value of another side at `s`.
Scored meld_phase_choice(const GameState& s, const Rules& rules, const std::vector<Move>& moves,
                         const HeuristicParams& p, DangerMemo& danger,
                         const Evaluated* known = nullptr, double* best_other_out = nullptr,
                         const double* others_best = nullptr) {
  const int seat = s.turn;
  ScratchPositions& positions = ScratchPositions::of_thread();  // asked for once (turn.hpp)
  const MeldValues melds(s, rules, p);
  double best_other = 0;
  double now = 0;
  if (known) {
    now = known->value;
    best_other = known->best_other;
#ifndef NDEBUG
    double check_other = 0;
    assert(now == evaluate(s, rules, seat, p, CardSet{}, Card{}, &melds, &check_other));
    assert(best_other == check_other);
#endif
  } else if (others_best) {
    best_other = *others_best;
    now = own_evaluation(s, rules, seat, seat_side(s, rules, seat), p, CardSet{}, melds, best_other);
#ifndef NDEBUG
    double check_other = 0;
    assert(now == evaluate(s, rules, seat, p, CardSet{}, Card{}, &melds, &check_other));
    assert(best_other == check_other);
#endif
  } else {
    now = evaluate(s, rules, seat, p, CardSet{}, Card{}, &melds, &best_other);
  }
  if (best_other_out) *best_other_out = best_other;
  QuickValues quick(s, rules, p, melds, best_other, danger);
  Scored best_put{moves.size(), -std::numeric_limits<double>::infinity(), false};
  Scored best_end{moves.size(), -std::numeric_limits<double>::infinity(), true};
  // Move i valued; a meld sure to be worth no more than `floor` is skipped (it would change
  // nothing below: see the calls).
  const double no_floor = -std::numeric_limits<double>::infinity();
  auto consider = [&](std::size_t i, double floor) {
    const Move& m = moves[i];
    const bool discard = m.kind == MoveKind::Discard;
    double v = quick.of(m, floor);
    if (v == QuickValues::kBelow) return;
    bool over = false, ends = discard;
    if (std::isnan(v)) {
      const bool pending = quick.discard_pending(m);
      const ScratchPosition scratch(positions, s);
      GameState& t = *scratch;
      if (!apply_move(t, rules, m, positions).ok()) return;
      if (pending) {
        // The first discard, played to learn the kind of position the discards lead to: when it
        // is the one quick values cover, this discard is valued from the move too (the same value
        // as evaluate_after's, to the last bit, as for every later discard).
        quick.saw_discard(t);
        v = quick.of(m);
      }
      if (std::isnan(v)) {
        // (No move here can be a short brazilian opening, RULES C.3: heuristic_choice leaves a
        // side that is not open to greedy, and an open side's cards never come back.)
        const CardSet unseen = new_packet_cards(s, t, seat);
        v = evaluate_after(s, best_other, t, rules, seat, p, unseen, discard && !t.over() ? m.card : Card{},
                           melds, danger);
        over = t.over();
        ends = discard || over || t.turn != seat || !unseen.empty();
      } else {
        assert(v == evaluate_after(s, best_other, t, rules, seat, p, CardSet{}, m.card, melds, danger));
        assert(!t.over() && new_packet_cards(s, t, seat).empty() && t.turn != seat);
      }
    } else {
#ifndef NDEBUG
      GameState t = s;
      assert(apply_move(t, rules, m).ok());
      assert(v == evaluate_after(s, best_other, t, rules, seat, p, CardSet{}, discard ? m.card : Card{}, melds,
                                 danger));
      assert(!t.over() && new_packet_cards(s, t, seat).empty() && (t.turn != seat) == discard);
#endif
    }
    // Ties go to the first move in canonical order: a later pass (the discards) takes a tie only
    // from a move after it.
    if (discard || over) {
      if (v > best_end.value || (v == best_end.value && best_end.index < moves.size() && i < best_end.index))
        best_end = {i, v, true};
    } else if (v > best_put.value) {
      best_put = {i, v, ends};
    }
  };
  // The melds and lay-offs first: when one of them is played (it raises the evaluation by more
  // than meld_margin) no discard is chosen, so the discards are valued only when none is.
  // A meld worth no more than the best so far is never the best (a later move takes it only when
  // worth more); one worth no more than now + meld_margin is never played by the rule. So the
  // floor is the larger of the two, and a meld skipped below the second can be the choice only
  // when no move ends the turn (the last fallback below): then they are valued again in full.
  const double margin_floor = now + p.meld_margin;
  for (std::size_t i = 0; i < moves.size(); ++i)
    if (moves[i].kind != MoveKind::Discard) consider(i, std::max(best_put.value, margin_floor));
  const bool put = best_put.index < moves.size() && best_put.value > margin_floor;
  if (!put)
    for (std::size_t i = 0; i < moves.size(); ++i)
      if (moves[i].kind == MoveKind::Discard) consider(i, no_floor);
  if (!put && best_end.index == moves.size()) {
    best_put = {moves.size(), -std::numeric_limits<double>::infinity(), false};
    for (std::size_t i = 0; i < moves.size(); ++i)
      if (moves[i].kind != MoveKind::Discard) consider(i, no_floor);
  }
  Scored chosen{0, now, true};
  if (put) chosen = best_put;
  else if (best_end.index < moves.size()) chosen = best_end;
  else if (best_put.index < moves.size()) chosen = best_put;
  // A short hand: the lines of melds and lay-offs that empty it, whose first steps the one-move
  // rule above can refuse (a wild given up, a small meld), each valued where it ends.
  if (s.hands[seat].size() <= p.emptying_search_cards) {
    std::deque<std::vector<Move>>& next = memo_of_thread<EmptyingScratch>().lists;
    for (std::size_t i = 0; i < moves.size(); ++i) {
      const Move& m = moves[i];
      if (m.kind != MoveKind::Meld && m.kind != MoveKind::Add) continue;
      const ScratchPosition scratch(positions, s);
      GameState& t = *scratch;
      if (!apply_move(t, rules, m, positions).ok()) continue;
      const double v = emptying_value(s, t, rules, seat, p, next, positions);
      if (v > chosen.value) chosen = {i, v, true};
    }
  }
  return chosen;
}

// a == b for two positions, the same answer as GameState's operator== for less: that compares the
// stock, the packets and the melds in play member by member, and these hold only integers with no
// padding between them (unique object representations), so comparing their bytes gives the same
// answer.
// Every other member is compared as operator== does; the size check asks that a member added to
// GameState be added here too.
bool same_position(const GameState& a, const GameState& b) {
  static_assert(std::has_unique_object_representations_v<Card> &&
                std::has_unique_object_representations_v<Packet> &&
                std::has_unique_object_representations_v<Meld>);
  static_assert(sizeof(GameStateHead) == 592 && sizeof(GameState) == 592 + sizeof(Meld) * kMaxMelds,
                "GameState changed: compare its new members here");
  return a.players == b.players && a.first == b.first && a.turn == b.turn && a.phase == b.phase &&
         a.end == b.end && a.closing_side == b.closing_side && a.split == b.split &&
         a.cut_side == b.cut_side && a.flags == b.flags && a.deadlock == b.deadlock &&
         a.hold == b.hold && a.has_seed == b.has_seed && a.seed == b.seed && a.hands == b.hands &&
         a.known == b.known && a.pile == b.pile && a.top == b.top && a.pile_size == b.pile_size &&
         a.stock_pos == b.stock_pos && a.stock_end == b.stock_end &&
         a.meld_count == b.meld_count && a.opened == b.opened && a.need == b.need &&
         a.scores == b.scores && a.meld_side == b.meld_side &&
         std::memcmp(a.stock.data(), b.stock.data(), sizeof a.stock) == 0 &&
         std::memcmp(a.packets.data(), b.packets.data(), sizeof a.packets) == 0 &&
         std::memcmp(a.melds.data(), b.melds.data(), sizeof(Meld) * a.meld_count) == 0;
}

// The turn the draw-phase choice imagined after taking the pile, position by position with the
// choice made there: when the pile is then taken, the meld phase meets the same positions (the
// heuristic reads nothing else), and each choice is looked up instead of worked out again.
// One per thread; a lookup matches the position, the candidates, the rules and the parameters.
// The rules are those meld_memo was given at both calls (heuristic_choice gives them first), so
// they match when its rules did not change in between (a change back to the same rules counts as
// a change: the choice is then worked out again, the same one).
class ImaginedTurn {
 public:
  void begin(const HeuristicParams& p) {
    used_ = 0;
    rules_generation_ = meld_memo().rules_generation();
    if (!(params_ == p)) params_ = p;
  }
  struct Step {
    GameState position;
    std::vector<Move> moves;  // legal_moves at position
    std::size_t choice = 0;
    double best_other = 0;  // the best value of another side at position
  };
  // Records `position` with its legal moves, taken from `moves` (which is left holding some other
  // list), and the choice there; returns the step, valid until the next add().
  const Step& add(const GameState& position, std::vector<Move>& moves, std::size_t choice, double best_other) {
    if (used_ == steps_.size()) steps_.emplace_back();
    Step& step = steps_[used_++];
    copy_state(step.position, position);  // the melds in play only (steps are reused)
    step.moves.swap(moves);
    step.choice = choice;
    step.best_other = best_other;
    return step;
  }
  // The first position recorded since begin(), or null.
  const Step* first() const { return used_ > 0 ? &steps_[0] : nullptr; }
  // The legal moves recorded at `s` under `rules` (legal_moves' answer there), or null.
  const std::vector<Move>* moves_at(const GameState& s, const Rules& rules) const {
    const MeldMemo& memo = meld_memo();
    if (rules_generation_ != memo.rules_generation()) return nullptr;
    for (std::size_t k = 0; k < used_; ++k) {
      const Step& step = steps_[k];
      if (step.position.hands[step.position.turn] != s.hands[s.turn] || !same_position(step.position, s))
        continue;
      return same_rules(memo.rules(), rules) ? &step.moves : nullptr;
    }
    return nullptr;
  }
  // The choice recorded at `s` among `moves`, or moves.size() if none was.
  std::size_t find(const GameState& s, const std::vector<Move>& moves, const HeuristicParams& p) const {
    if (rules_generation_ != meld_memo().rules_generation()) return moves.size();
    for (std::size_t k = 0; k < used_; ++k) {
      const Step& step = steps_[k];
      const bool same = step.position.hands[step.position.turn] == s.hands[s.turn] &&
                        same_position(step.position, s);
      assert(same == (step.position == s));
      if (!same) continue;
      if (step.moves == moves && params_ == p) return step.choice;
    }
    return moves.size();
  }

 private:
  std::vector<Step> steps_;
  std::size_t used_ = 0;
  std::uint64_t rules_generation_ = 0;
  HeuristicParams params_{};
};

ImaginedTurn& imagined_pile_turn() { return memo_of_thread<ImaginedTurn>(); }

// The last meld-phase choice worked out afresh that played a meld or lay-off and left the turn
// going (one per thread): the position and its moves, the legal moves there. At the position the
// choice leads to, the policy loops get the legal moves from these by legal_moves_after, as the
// imagined turn does step by step, instead of from legal_moves. A lookup matches the seat, the hand
// the choice leaves and the rules (meld_memo's, unchanged since); legal_moves_after itself checks
// what else it needs of the two positions, and runs legal_moves when they do not fit.
class LastStep {
 public:
  void clear() { valid_ = false; }
  void record(const GameState& s, const std::vector<Move>& moves, std::size_t choice) {
    copy_state(position_, s);
    moves_ = moves;
    const Move& m = moves[choice];
    left_ = s.hands[s.turn];
    if (m.kind == MoveKind::Meld) s.hands[s.turn].difference(m.cards, left_);
    else left_.remove(m.card);
    rules_generation_ = meld_memo().rules_generation();
    valid_ = true;
  }
  // legal_moves(s) into `out` and true when `s` is a position the recorded choice may lead to;
  // false otherwise (`out` unchanged).
  bool moves_at(const GameState& s, const Rules& rules, std::vector<Move>& out) const {
    if (!valid_ || rules_generation_ != meld_memo().rules_generation() || s.turn != position_.turn ||
        s.phase != Phase::Meld || s.hands[s.turn] != left_ || !same_rules(meld_memo().rules(), rules))
      return false;
    legal_moves_after(position_, moves_, s, rules, out);
    return true;
  }

 private:
  GameState position_{};
  std::vector<Move> moves_;
  CardSet left_;  // the seat's hand after the choice
  std::uint64_t rules_generation_ = 0;
  bool valid_ = false;
};

LastStep& last_step() { return memo_of_thread<LastStep>(); }

// The rest of the turn of `t` played by the meld-phase rule; the evaluation where it ends (`t` is
// played on: it is left where the imagined turn stopped).
// `put_down` tells whether the imagined turn put a card on the table; `record`, if given, keeps
// each position with its choice. `from`, if given, is a position with its legal moves that `t`
// follows by melds or lay-offs or has the same hand less cards as (for legal_moves_after).
double imagine_turn(GameState& t, const Rules& rules, int seat, const HeuristicParams& p,
                    std::vector<Move>& scratch, DangerMemo& danger, bool& put_down,
                    ImaginedTurn* record = nullptr, const ImaginedTurn::Step* from = nullptr) {
  put_down = false;
  // The evaluation of `t` once a step has worked it out: a meld or lay-off chosen without ending
  // the lookahead was valued as the position it leads to (evaluate() there, to the last bit), and
  // when it left every other seat's hand and the sides in play as they were (others_unchanged),
  // the other sides' values, and so their best, are those of the step before.
  Evaluated known{};
  bool have_known = false;
  // After the first step, the position before the move played and its legal moves: the next
  // step's moves are mostly theirs (legal_moves_after). They are the step `record` keeps, or
  // else copies made here.
  const GameState* before = nullptr;
  const std::vector<Move>* before_moves = nullptr;
  // Made at the first move not recorded, on the thread's scratch positions (copy_state: the melds
  // in play only), and overwritten at the next.
  std::optional<ScratchPosition> before_copy;
  std::vector<Move>& moves_copy = memo_of_thread<ImaginedScratch>().moves;
  for (int step = 0; step < 40; ++step) {
    if (t.over() || t.turn != seat || t.phase != Phase::Meld) break;
    if (step > 0) legal_moves_after(*before, *before_moves, t, rules, scratch);
    else if (from) legal_moves_after(from->position, from->moves, t, rules, scratch);
    else legal_moves(t, rules, scratch);
    if (scratch.empty()) break;
    double best_other = 0;
    // At the first step after `from`, the other sides are those of `from` when no other seat's
    // hand or known cards differ (the turn on the hand as it is, after the one with the pile).
    const double* others_best =
        step == 0 && from && others_unchanged(from->position, t, seat) ? &from->best_other : nullptr;
    const Scored c = meld_phase_choice(t, rules, scratch, p, danger, have_known ? &known : nullptr,
                                       &best_other, others_best);
    const std::vector<Move>* moves = &scratch;
    const GameState* at = nullptr;
    if (record && c.index < scratch.size()) {
      const ImaginedTurn::Step& kept = record->add(t, scratch, c.index, best_other);
      moves = &kept.moves;
      at = &kept.position;
    }
    const MoveKind kind = (*moves)[c.index].kind;
    if (kind == MoveKind::Meld || kind == MoveKind::Add) put_down = true;
    if (c.ends_lookahead) return c.value;
    if (!at) {
      if (before_copy) copy_state(**before_copy, t);
      else before_copy.emplace(ScratchPositions::of_thread(), t);
      at = &**before_copy;
      moves_copy.swap(scratch);
      moves = &moves_copy;
    }
    apply_move(t, rules, (*moves)[c.index]);
    have_known = others_unchanged(*at, t, seat);
    known = {c.value, best_other};
    before = at;
    before_moves = moves;
  }
  return have_known ? known.value : evaluate(t, rules, seat, p, CardSet{}, Card{});
}

// Whether a side other than `side` can close: its pozzetto taken and a burraco that closes
// (RULES C.6; the rest of a closing, a hand that empties, is the race itself).
bool other_side_can_close(const GameState& s, const Rules& rules, int side) {
  std::array<int, kSideSlots> sides{};
  const int count = active_sides(s, rules, sides);
  for (int k = 0; k < count; ++k) {
    const int x = sides[static_cast<std::size_t>(k)];
    if (x != side && took_packet(s, rules, x) && has_closing_burraco(s, rules, x)) return true;
  }
  return false;
}

// Whether a side other than `side` has laid a burraco.
bool other_side_has_burraco(const GameState& s, const Rules& rules, int side) {
  for (int i = 0; i < s.meld_count; ++i)
    if (s.meld_side[i] != side && s.melds[i].bonus(rules) > 0) return true;
  return false;
}

// The parameters heuristic_choice plays with in the race (HeuristicParams::race).
HeuristicParams race_params(const HeuristicParams& p) {
  HeuristicParams r = p;
  r.hand_weight = p.race_hand_weight;
  r.wild_value = p.race_wild_value;
  for (double& share : r.progress) share *= p.race_progress;
  r.pile_take_cards = 0;
  if (p.late_piles) r.pile_margin = p.late_pile_margin;
  r.race = false;
  r.closing = false;
  return r;
}

// The parameters heuristic_choice plays with in the closing (HeuristicParams::closing).
HeuristicParams closing_params(const HeuristicParams& p) {
  HeuristicParams r = p;
  r.hand_weight = p.closing_hand_weight;
  r.wild_value = p.closing_wild_value;
  r.use_weight = p.closing_use_weight;
  for (double& share : r.progress) share *= p.closing_progress;
  r.race = false;
  r.closing = false;
  return r;
}

std::size_t choice(const GameState& s, const Rules& rules, const std::vector<Move>& moves,
                   const HeuristicParams& p, std::vector<Move>& scratch);

}  // namespace

std::size_t heuristic_choice(const GameState& s, const Rules& rules, const std::vector<Move>& moves,
                             const HeuristicParams& p, std::vector<Move>& scratch) {
  if (moves.size() == 1) return 0;
  if (p.race || p.closing) {
    const int side = seat_side(s, rules, s.turn);
    const bool others_close = other_side_can_close(s, rules, side);
    if (p.race && others_close) return choice(s, rules, moves, race_params(p), scratch);
    if (p.closing && !others_close && took_packet(s, rules, side) && has_closing_burraco(s, rules, side))
      return choice(s, rules, moves, closing_params(p), scratch);
  }
  return choice(s, rules, moves, p, scratch);
}

namespace {

// heuristic_choice with the parameters of the moment (the race's, or those given).
std::size_t choice(const GameState& s, const Rules& rules, const std::vector<Move>& moves,
                   const HeuristicParams& p, std::vector<Move>& scratch) {
  // Under an opening minimum, until its side is open, the heuristic plays greedy's moves: greedy
  // never takes the pile then and never plays a short opening (docs/search.md), so its hands end;
  // the evaluation has no model of the requirement yet.
  if (rules.opening_steps > 0 && !s.opened[seat_side(s, rules, s.turn)])
    return greedy_choice(s, rules, moves);
  meld_memo().use(rules, p);
  DangerMemo& danger = memo_of_thread<DangerMemo>();
  danger.use(s, rules, seat_side(s, rules, s.turn), p);
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
    const bool big = p.pile_take_cards > 0 && s.pile_size >= p.pile_take_cards;
    const bool late = big && p.late_piles && other_side_has_burraco(s, rules, seat_side(s, rules, s.turn));
    if (big && !late) return pile;
    const ScratchPosition taken_scratch(s);
    GameState& taken = *taken_scratch;
    if (!apply_move(taken, rules, moves[pile]).ok()) return draw;
    bool melds_from_pile = false, unused = false;
    ImaginedTurn& pile_turn = imagined_pile_turn();
    pile_turn.begin(p);
    const double with_pile =
        imagine_turn(taken, rules, s.turn, p, scratch, danger, melds_from_pile, &pile_turn);
    // A one-card pile taken and nothing put down is an exchange turn (RULES D.4): enough of them
    // in a row end the hand, so the heuristic never plays one.
    if (s.pile_size == 1 && !melds_from_pile) return draw;
    const ScratchPosition as_is_scratch(s);
    GameState& as_is = *as_is_scratch;  // the turn on the hand as it is: the stock card is not known
    as_is.phase = Phase::Meld;
    // Its hand is the pile turn's first hand less the pile: the same table, so the moves of the
    // pile turn's first position give its melds.
    const double without = imagine_turn(as_is, rules, s.turn, p, scratch, danger, unused, nullptr,
                                        pile_turn.first());
    const double margin =
        s.players == 2 ? p.pile_margin_two_players : (late ? p.late_pile_margin : p.pile_margin);
    return with_pile > without + margin ? pile : draw;
  }
  if (s.phase != Phase::Meld) return 0;
  const std::size_t seen = imagined_pile_turn().find(s, moves, p);
  if (seen < moves.size()) {
    assert(seen == meld_phase_choice(s, rules, moves, p, danger).index);
    return seen;
  }
  const Scored c = meld_phase_choice(s, rules, moves, p, danger);
  LastStep& last = last_step();
  if (c.index < moves.size() && !c.ends_lookahead &&
      (moves[c.index].kind == MoveKind::Meld || moves[c.index].kind == MoveKind::Add))
    last.record(s, moves, c.index);
  else
    last.clear();
  return c.index < moves.size() ? c.index : 0;
}

}  // namespace

bool heuristic_recalled_moves(const GameState& s, const Rules& rules, std::vector<Move>& out) {
  const std::vector<Move>* moves = imagined_pile_turn().moves_at(s, rules);
  if (moves) {
    out = *moves;
  } else if (!last_step().moves_at(s, rules, out)) {
    return false;
  }
#ifndef NDEBUG
  std::vector<Move> check;
  legal_moves(s, rules, check);
  assert(check == out);
#endif
  return true;
}

int heuristic_side_values(const GameState& s, const Rules& rules, const HeuristicParams& p,
                          std::array<int, kSideSlots>& sides, std::array<double, kSideSlots>& value) {
  const int count = table_values(s, rules, p, sides, value);
  for (int q = 0; q < s.players; ++q)
    value[static_cast<std::size_t>(seat_side(s, rules, q))] += hand_value(s.hands[q], CardSet{}, rules, p);
  return count;
}

std::size_t heuristic_policy_choice(const HeuristicParams* params, const GameState& s, const Rules& rules,
                                    const std::vector<Move>& moves) {
  thread_local std::vector<Move> scratch;
  return heuristic_choice(s, rules, moves, params ? *params : HeuristicParams::defaults(rules, s.players),
                          scratch);
}

}  // namespace burraco
