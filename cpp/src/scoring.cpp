// Scoring a finished hand (RULES E).
#include <algorithm>
#include <array>

#include "burraco/game.hpp"
#include "turn.hpp"

namespace burraco {

using namespace detail;

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
      if (seat_side(s, rules, seat) == side)
        r.hand -= rules.points_of(s.hands[seat]);
    bool took = false;
    for (const Packet& p : s.packets) {
      if (p.status == PacketStatus::Untaken || p.status == PacketStatus::Stock) continue;
      if (seat_side(s, rules, p.owner) != side) continue;
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
        if (result.sides[k].side == seat_side(s, rules, seat))
          result.player_half_points[seat] =
              result.sides[k].total *
              (result.sides[k].side == 3 && rules.score_split == ScoreSplit::HalvesForPair ? 1 : 2);
  return result;
}

}  // namespace burraco
