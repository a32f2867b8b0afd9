// burraco — the `heuristic` policy: a position evaluation and the moves it prefers
// (docs/bots.md "heuristic").
//
// The evaluation estimates, from one seat, the final score margin of its side: its melds' points
// and burraco bonuses, a share of a burraco's bonus for every meld on its way to one (more for a
// clean meld than a dirty one), less a share of the points in the seat's hand, plus what the cards
// of the hand promise (a wild is kept for a burraco; a natural counts its rank-mates and suit
// neighbours), less the cost of a pozzetto not yet taken and of every card still between the seat
// and it; the same for the other sides from what the seat may see (their melds and the sizes of
// their hands); after the seat's discard, less the harm that card can do (it lays off on another
// side's meld, it matches the cards that side took with the pile). A finished hand is valued
// exactly: the side's total less the best other side's total.
//
// The policy reads the position only as its seat may see it:
//   * draw phase: a pending brazilian first draw is kept; otherwise it plays the rest of the turn
//     in its head twice, once after taking the pile (all of it is face up) and once on the hand as
//     it is (the stock card unknown), and takes the pile when that turn ends better by more than
//     `pile_margin` (with two players `pile_margin_two_players`), but never a one-card pile it
//     would put nothing down from (an exchange turn, RULES D.4: enough in a row end the hand);
//   * meld phase: among the melds and lay-offs it plays the one that raises the evaluation most,
//     when one raises it by more than `meld_margin`; else it discards the card whose discard
//     leaves the best evaluation (a closing is valued as the hand it ends). With a short hand
//     (`emptying_search_cards`) it also tries the lines of melds and lay-offs that empty the hand,
//     to a closing or to the pozzetto, and starts the best one if it ends better.
// With four players (HeuristicParams::partnership) a pile of three cards or more is taken without
// imagining the turn until the other side has a burraco (late piles); once the other side can
// close (the race) the hand is valued at closer to its full cost, and once the own side can (the
// closing) at weights of its own.
// Ties go to the first move in canonical order. The policy draws no random numbers. Under an
// opening minimum (brazilian), until the side to act is open, it plays greedy's move (greedy.hpp
// greedy_choice): the evaluation has no model of the requirement yet.
#pragma once

#include <array>
#include <cstddef>
#include <vector>

#include "burraco/game.hpp"

namespace burraco {

struct HeuristicParams {
  // Share of a card's points held against the hand while it is in a hand (0: ignore the hand).
  double hand_weight = 0.6;
  // What a wild in the hand is worth: kept for a burraco rather than spent on a small meld.
  double wild_value = 45;
  // Per unit of a natural card's usefulness in the hand: 10 for each other card of its rank, 1 for
  // each card of its suit one or two ranks away (the greedy policy's measure, docs/search.md).
  double use_weight = 0.3;
  // The share of the clean burraco bonus a clean meld of 3, 4, 5 and 6 cards is counted for
  // (a meld on its way to a burraco); `dirty_share` of it for a meld with a wild.
  std::array<double, 4> progress = {0.0, 0.05, 0.15, 0.3};
  double dirty_share = 0.4;
  // The cost of a pozzetto the side has not taken, on top of the rules' no-pozzetto penalty, and
  // the cost of each card in the hand while it is not taken (fewer cards: nearer to it).
  double pozzetto_extra = 60;
  double pozzetto_card = 4;
  // Discarding a card another side can lay off on its melds costs this plus the card's points;
  // one that matches (same rank, or same suit one rank away) a card that side took with the pile
  // costs `danger_known`.
  double danger_lay = 25;
  double danger_known = 40;
  // Points of an average unseen card in another player's hand (for their hand's liability).
  double unseen_card_points = 7;
  // Take the pile when the imagined turn after it evaluates more than this above drawing: with
  // three or four players `pile_margin`, with two `pile_margin_two_players` (measured: in a
  // two-player game the pile is worth more than the evaluation says).
  double pile_margin = 0;
  double pile_margin_two_players = -60;
  // Play a meld or lay-off only when it raises the evaluation by more than this.
  double meld_margin = 0;
  // With at most this many cards in the hand in the meld phase, also try every line of melds and
  // lay-offs that empties the hand (a closing, or the side's pozzetto taken on the fly or by the
  // last discard), and play a line's first move when the line ends better than the one-move rule's
  // choice: its first steps can look bad alone (a wild given up). 0: never.
  int emptying_search_cards = 5;
  // Take a pile of at least this many cards without imagining the turn after it, unless another
  // side can close or, with `late_piles`, has a burraco (0: every pile is judged by its imagined
  // turn).
  int pile_take_cards = 0;
  // The race: once another side can close (its pozzetto taken and a burraco that closes), the
  // hand is held at its full cost rather than for what it promises. With `race` set, the policy
  // then plays with `race_hand_weight` and `race_wild_value` in place of hand_weight and
  // wild_value, with `progress` scaled by `race_progress`, and a pile is always judged by its
  // imagined turn.
  bool race = false;
  double race_hand_weight = 0.6;
  double race_wild_value = 45;
  double race_progress = 1;
  // The closing: once the seat's own side can close (and no other side can: that is the race),
  // the hand is on its way out. With `closing` set, the policy then plays with
  // `closing_hand_weight`, `closing_wild_value` and `closing_use_weight` in place of hand_weight,
  // wild_value and use_weight, and with `progress` scaled by `closing_progress`.
  bool closing = false;
  double closing_hand_weight = 0.6;
  double closing_wild_value = 45;
  double closing_use_weight = 0.3;
  double closing_progress = 1;
  // With `late_piles` set, once another side has laid a burraco a pile of `pile_take_cards` or
  // more is no longer taken on sight: it is judged by its imagined turn, with `late_pile_margin`
  // in place of pile_margin, as is every pile in the race.
  bool late_piles = false;
  double late_pile_margin = 0;

  friend bool operator==(const HeuristicParams&, const HeuristicParams&) = default;

  // The measured defaults for a number of players with no opening minimum: HeuristicParams{} with
  // two or three players (three were never measured apart), partnership() with four.
  static const HeuristicParams& defaults(int players);
  // The set the policy with no parameters (Policy::Heuristic) plays under `rules` with `players`
  // players: defaults(players), except with four players under an opening minimum (brazilian),
  // partnership_opening().
  static const HeuristicParams& defaults(const Rules& rules, int players);
  // The four-player set (docs/bots.md "heuristic"): piles of three cards or more taken until the
  // other side has a burraco, the race and the closing played, no harm counted for a discard
  // another side can lay off.
  static HeuristicParams partnership();
  // The four-player set before partnership(), without the closing or late piles: brazilian, under
  // its opening minimum, measured stronger with it.
  static HeuristicParams partnership_opening();
};

// The heuristic policy's choice among `moves` (candidates of `s`, non-empty, canonical order);
// `scratch` is reused space. A function of its arguments alone; each thread keeps what its last
// calls worked out (the turn imagined after a pile take, make_meld's answers) and uses it only
// for the same position, candidates, rules and parameters.
std::size_t heuristic_choice(const GameState& s, const Rules& rules, const std::vector<Move>& moves,
                             const HeuristicParams& params, std::vector<Move>& scratch);

// The evaluation of every side in play of `s` (precondition: !s.over()) with every card seen, as
// in a determinization: per side, its melds' values, its pozzetto's costs and the values of its
// seats' hands, as above (no discard danger). Sets sides[0..count) to the side slots in play
// (active_sides) and value[slot] for each; returns count. ISMCTS values its cut rollouts with it.
int heuristic_side_values(const GameState& s, const Rules& rules, const HeuristicParams& params,
                          std::array<int, kSideSlots>& sides, std::array<double, kSideSlots>& value);

// The heuristic policy's choice (heuristic_choice, with reused space of the thread's) with
// `params`, or with HeuristicParams::defaults(rules, s.players) when it is null: the choice of
// Policy::Heuristic and of a Policy with parameters (policies.hpp policy_choice).
std::size_t heuristic_policy_choice(const HeuristicParams* params, const GameState& s, const Rules& rules,
                                    const std::vector<Move>& moves);

// legal_moves(s, rules, out) when the heuristic policy has them at hand, and then true: the
// positions of the turn it imagined after a pile take it then chose (heuristic.cpp); else false,
// `out` unchanged. The policy loops ask it before legal_moves when the heuristic plays.
bool heuristic_recalled_moves(const GameState& s, const Rules& rules, std::vector<Move>& out);

}  // namespace burraco
