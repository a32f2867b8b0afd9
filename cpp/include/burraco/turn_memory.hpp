// burraco — the positions of the current turn a policy loop keeps (TurnMemory).
#pragma once

#include <string>
#include <vector>

#include "burraco/game.hpp"

namespace burraco {

// The positions of the current turn, for the rule that a built-in policy never returns to one
// (docs/search.md "Candidates"). Only a meld or lay-off that empties the hand of a side that has
// not met its brazilian opening minimum can first bring the game back to a position of the turn
// (the short opening returns the cards, RULES C.3); after such a return every meld or lay-off may
// retrace a step already taken, so from then on all of them are tried. A turn is watched only
// under rules with an opening minimum when the side to act has not opened, and even then nothing
// is copied until the turn's first meld or lay-off: the positions before it (the draw phase and
// the first position of the meld phase) are the position of the draw phase, which no meld-phase
// move can give back, and the position the filter is asked about. Elsewhere it costs one test per
// move.
class TurnMemory {
 public:
  // A turn starts at `s` (or `s` is the first position of it that is known).
  void begin(const GameState& s, const Rules& rules) {
    watching_ = rules.opening_steps > 0 && !s.over() && !s.opened[side_of(s, rules, s.turn)];
    kept_ = false;
  }
  // Whether the turn is watched (a move of it could repeat a position).
  bool watching() const { return watching_; }
  // `p` is a position of this turn, known from a history: the memory holds it and the moves
  // given to follow() after it (then the position now).
  void remember(const GameState& p) {
    if (!watching_) return;
    start_ = p;
    kept_ = true;
    moves_.clear();
    positions_.clear();
    strings_.clear();
  }
  void follow(const Move& move) {
    if (kept_) moves_.push_back(move);
  }
  // `move` is about to be played from `s`, a position of this turn.
  void before(const GameState& s, const Move& move) {
    if (watching_ && !kept_ && (move.kind == MoveKind::Meld || move.kind == MoveKind::Add)) remember(s);
  }
  // `move` was played by `seat` and gave `s`.
  void played(const GameState& s, const Rules& rules, const Move& move, int seat) {
    if (s.turn != seat || s.over()) {
      begin(s, rules);
    } else {
      follow(move);
    }
  }
  // The policy's candidates among `legal` (the legal moves of `s`, the position now, in canonical
  // order): `legal` less every move after which the position equals one of this turn; `legal`
  // itself when that removes nothing or everything.
  const std::vector<Move>& candidates(const GameState& s, const Rules& rules,
                                      const std::vector<Move>& legal) {
    return watching_ ? filter(s, rules, legal) : legal;
  }

 private:
  const std::vector<Move>& filter(const GameState& s, const Rules& rules,
                                  const std::vector<Move>& legal);
  bool repeats(const GameState& now, const GameState& after, const Rules& rules);
  bool came_back(const GameState& s, const Rules& rules);
  void materialize(const Rules& rules);

  bool watching_ = false;
  bool kept_ = false;                 // start_ and moves_ hold the turn from start_ on
  GameState start_;
  std::vector<Move> moves_;           // played from start_ this turn
  std::vector<GameState> positions_;  // start_ and the positions after moves_, made on demand
  std::vector<std::string> strings_;  // their state strings, made on demand
  std::vector<Move> candidates_;
};

}  // namespace burraco
