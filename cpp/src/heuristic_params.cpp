// The measured parameter sets of the heuristic policy (HeuristicParams, heuristic.hpp; how they
// were found: docs/bots.md).
#include "burraco/heuristic.hpp"

namespace burraco {

HeuristicParams HeuristicParams::partnership_opening() {
  HeuristicParams p;
  // The first four-player set, found on italian pairs by coordinate and random searches; in
  // brazilian it wins more pairs against greedy than partnership() (docs/bots.md). With partners,
  // a pile of three cards or more pays (the cards it brings outweigh the ones it adds to the hand),
  // the discard's harm for lay-offs costs more than it saves, and keeping wilds pays more.
  p.pile_take_cards = 3;
  p.danger_lay = 0;
  p.danger_known = 10;
  p.wild_value = 60;
  p.pozzetto_extra = 0;
  p.pozzetto_card = 8;
  p.progress = {0.0, 0.0, 0.15, 0.35};
  p.dirty_share = 0.3;
  p.unseen_card_points = 5;
  p.pile_margin = 12;
  p.meld_margin = -5;
  p.race = true;
  p.race_hand_weight = 1.2;
  p.race_wild_value = 30;
  p.race_progress = 0.5;
  return p;
}

HeuristicParams HeuristicParams::partnership() {
  // The set before, its weights refitted with the closing and late piles by an evolution strategy
  // (CMA-ES) over the four-player arena's win rate against greedy (docs/bots.md "How the
  // four-player set was found"): a pile of three or more is taken on sight until the other side
  // has a burraco, and wilds are kept for a burraco until the side can close.
  HeuristicParams p = partnership_opening();
  p.danger_known = 23;
  p.wild_value = 100;
  p.use_weight = 0.47;
  p.pozzetto_card = 13;
  p.progress = {0.0, 0.0, 0.06, 0.43};
  p.dirty_share = 0.19;
  p.unseen_card_points = 2.7;
  p.pile_margin = 30;
  p.meld_margin = -34;
  p.race_wild_value = 57;
  p.race_progress = 0.4;
  p.closing = true;
  p.closing_hand_weight = 0.58;
  p.closing_wild_value = 61;
  p.closing_use_weight = 0.42;
  p.closing_progress = 0.19;
  p.late_piles = true;
  p.late_pile_margin = 0;
  return p;
}

namespace {

// The measured sets, made once (one guard to pass per call of a policy loop).
struct DefaultSets {
  HeuristicParams others{};
  HeuristicParams four = HeuristicParams::partnership();
  HeuristicParams opening = HeuristicParams::partnership_opening();
};

const DefaultSets& default_sets() {
  static const DefaultSets sets;
  return sets;
}

}  // namespace

const HeuristicParams& HeuristicParams::defaults(int players) {
  const DefaultSets& sets = default_sets();
  return players == 4 ? sets.four : sets.others;
}

const HeuristicParams& HeuristicParams::defaults(const Rules& rules, int players) {
  const DefaultSets& sets = default_sets();
  if (players != 4) return sets.others;
  return rules.opening_steps > 0 ? sets.opening : sets.four;
}

}  // namespace burraco
