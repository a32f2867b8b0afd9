// The positions of the current turn (turn_memory.hpp, docs/search.md "Candidates").
#include "burraco/turn_memory.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace burraco {

const std::vector<Move>& TurnMemory::filter(const GameState& s, const Rules& rules,
                                            const std::vector<Move>& legal) {
  if (s.phase != Phase::Meld || s.opened[side_of(s, rules, s.turn)]) return legal;
  // The moves that put down every card of the hand: with one card its lay-offs, with three or
  // more a meld of the whole hand; with two, none (a meld has three cards or more). Once a short
  // opening has brought the turn's cards back, the hand and table are those of an earlier
  // position again, and any meld or lay-off may retrace a step of the turn: all are tried.
  const CardSet hand = s.hands[s.turn];
  const int n = hand.size();
  const bool retrace = (s.flags & kPutDown) && came_back(s, rules);
  if (!retrace && (n == 0 || n == 2)) return legal;
  auto risky = [&](const Move& m) {
    if (retrace) return m.kind == MoveKind::Meld || m.kind == MoveKind::Add;
    return n == 1 ? m.kind == MoveKind::Add : m.kind == MoveKind::Meld && m.cards == hand;
  };
  const auto first = std::find_if(legal.begin(), legal.end(), risky);
  if (first == legal.end()) return legal;
  candidates_.assign(legal.begin(), first);
  for (auto it = first; it != legal.end(); ++it) {
    if (risky(*it)) {
      GameState t = s;
      apply_move(t, rules, *it);
      if (repeats(s, t, rules)) continue;
    }
    candidates_.push_back(*it);
  }
  return candidates_.empty() || candidates_.size() == legal.size() ? legal : candidates_;
}

// Did a meld or lay-off of this turn leave the hand with more cards than it had less the cards put
// down (a short opening's return)? Only known when the turn is kept: without a meld or lay-off
// yet, nothing can have come back. When the kept moves are melds and lay-offs only (a policy loop
// keeps the turn from its first meld), the hand of `s` is compared with the start's less the cards
// put down, with no position made; otherwise (a turn read from a history, its draw included) the
// positions are made and each meld or lay-off is checked.
bool TurnMemory::came_back(const GameState& s, const Rules& rules) {
  if (!kept_) return false;
  int put = 0;
  bool simple = true;
  for (const Move& m : moves_) {
    if (m.kind == MoveKind::Meld) {
      put += m.cards.size();
    } else if (m.kind == MoveKind::Add) {
      put += 1;
    } else {
      simple = false;
      break;
    }
  }
  if (simple) return s.hands[s.turn].size() != start_.hands[start_.turn].size() - put;
  materialize(rules);
  for (std::size_t i = 0; i < moves_.size(); ++i) {
    const Move& m = moves_[i];
    if (m.kind != MoveKind::Meld && m.kind != MoveKind::Add) continue;
    const GameState& before = positions_[i];
    const int cards = m.kind == MoveKind::Meld ? m.cards.size() : 1;
    if (positions_[i + 1].hands[before.turn].size() != before.hands[before.turn].size() - cards)
      return true;
  }
  return false;
}

void TurnMemory::materialize(const Rules& rules) {
  if (positions_.empty()) positions_.push_back(start_);
  while (positions_.size() <= moves_.size()) {
    GameState next = positions_.back();
    apply_move(next, rules, moves_[positions_.size() - 1]);
    positions_.push_back(next);
  }
}

// Is `after` one of the positions of this turn: start_ and the positions after moves_ when kept,
// else `now` alone (no meld or lay-off yet: the other position of the turn is the draw phase's,
// and `after` is in the meld phase or over)? Compared by their state strings, after a few fields
// the state string writes in full.
bool TurnMemory::repeats(const GameState& now, const GameState& after, const Rules& rules) {
  if (!kept_) return after.phase == now.phase && state_string(after, rules) == state_string(now, rules);
  materialize(rules);
  std::string text;
  for (std::size_t i = 0; i < positions_.size(); ++i) {
    const GameState& p = positions_[i];
    if (p.phase != after.phase || p.turn != after.turn || p.flags != after.flags ||
        p.meld_count != after.meld_count || p.hands[p.turn] != after.hands[after.turn])
      continue;  // a field the state string writes in full differs: not the same position
    while (strings_.size() <= i) strings_.push_back(state_string(positions_[strings_.size()], rules));
    if (text.empty()) text = state_string(after, rules);
    if (strings_[i] == text) return true;
  }
  return false;
}

}  // namespace burraco
