// burraco — a hand being played: its position, its rules and the moves that led to it (Game).
//
// GameState (game.hpp) is a position and nothing more; a Game adds what push() and pop() need:
// the rules the hand is played under (shared, never copied), the moves played since the first
// position the game knows, and enough of the positions before them to undo any. It is
// Stockfish's Position with its stack of StateInfo, arranged for a position of 1,888 bytes that
// is cheaper to copy than to undo move by move:
//
//   * the moves are a persistent stack of batches shared between copies: a copy shares the head
//     batch (O(1)); a game that owns its head batch alone appends to it and pops from it in
//     place, one that shares it starts a new batch (push) or clones it first (pop);
//   * every 8th move of a batch also keeps the position before it: pop() restores the nearest
//     one and replays at most 7 moves. A move costs a vector append, not an allocation.
//
// The history also gives the record of the hand (record.hpp). The Python Game (cpp/bindings) is
// this class with a cache of legal moves.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "burraco/block_cache.hpp"
#include "burraco/card.hpp"
#include "burraco/game.hpp"
#include "burraco/rules.hpp"

namespace burraco {

// A run of at most kCapacity consecutive moves of a history, and the positions before every 8th.
struct HistoryBatch {
  static constexpr std::size_t kCapacity = 512;
  std::uint32_t depth = 0;  // moves before this batch
  std::vector<Move> moves;
  std::vector<std::shared_ptr<const GameState>> before;  // before[k]: the position before moves[8k]
  std::shared_ptr<HistoryBatch> parent;
};

class Game {
 public:
  static constexpr std::size_t kSnapshotEvery = 8;

  Game() = default;
  // A game at `s` under `r`, with no history: `s` is the first position it knows.
  Game(const GameState& s, std::shared_ptr<const Rules> r) : state(s), rules(std::move(r)) {}
  // Copies share the history until either changes (O(1)).
  Game(const Game&) = default;
  Game(Game&&) noexcept = default;
  Game& operator=(Game other) noexcept {  // the old history is released by other's destructor
    state = other.state;
    rules = std::move(other.rules);
    head_.swap(other.head_);
    return *this;
  }
  // Releases a long unshared chain of batches one by one, not by nested destructors.
  ~Game() {
    while (head_ && head_.use_count() == 1) {
      std::shared_ptr<HistoryBatch> parent = std::move(head_->parent);
      head_ = std::move(parent);
    }
  }

  // The position now. Read it freely; it changes with push, pop and truncate, and a loop that
  // plays on it in place calls record() for every move (playout in policies.hpp).
  GameState state;
  std::shared_ptr<const Rules> rules;

  // Plays `m` if it is legal and records it; on error nothing changes.
  MoveResult push(const Move& m) {
    if (next_needs_snapshot()) {
      const GameState before = state;
      const MoveResult r = apply_move(state, *rules, m);
      if (r.ok()) record(before, m);
      return r;
    }
    const MoveResult r = apply_move(state, *rules, m);
    if (r.ok()) record(state, m);  // no snapshot is due: `before` is not read
    return r;
  }

  // Records `m`, already played from `before` (read only when a snapshot is due).
  void record(const GameState& before, const Move& m) {
    if (needs_batch()) new_batch();
    if (head_->moves.size() % kSnapshotEvery == 0)
      head_->before.push_back(std::allocate_shared<const GameState>(CachedAllocator<GameState>(), before));
    head_->moves.push_back(m);
  }

  // Undoes the last move and returns it. Precondition: move_count() > 0.
  Move pop();

  // Lays `cards` off on the side's meld `index` one at a time, in the first order (canonical
  // order first, then backtracking) in which every lay-off is legal; false, nothing changed, if
  // there is none. The Python API's `add 2 8h 9h` (docs/game.md).
  bool push_lay_offs(std::uint32_t index, std::vector<Card> cards);

  // Back to the first `count` moves, `s` being the position they lead to (a loop that failed
  // part way leaves the game as it was). The batches appended since are dropped.
  void truncate(std::size_t count, const GameState& s);

  std::size_t move_count() const { return head_ ? head_->depth + head_->moves.size() : 0; }
  // The moves played, oldest first.
  std::vector<Move> moves() const;
  // The first position the game knows (the position before its first move).
  const GameState& start() const;

  // The same position (state string) reached by the same moves, as chess.Board compares.
  friend bool operator==(const Game& a, const Game& b);

 private:
  // The next move goes into a new batch (the head is shared with a copy, or full).
  bool needs_batch() const {
    return !head_ || head_.use_count() > 1 || head_->moves.size() >= HistoryBatch::kCapacity;
  }
  // A snapshot is kept before the next move.
  bool next_needs_snapshot() const {
    return needs_batch() || head_->moves.size() % kSnapshotEvery == 0;
  }
  void new_batch();

  std::shared_ptr<HistoryBatch> head_;  // the batch holding the last move, or null
};

// Whether `cards[0, n)` is exactly the pack of these rules, each card as often as in it (a deck
// order a deal accepts).
bool is_full_pack(const Rules& rules, const Card* cards, int n);
// Deals from the deck order `cards` into `out` (deal in game.hpp) if they are the full pack of
// these rules; otherwise deals nothing and says why: "" once dealt.
std::string deal_deck(const Rules& rules, const std::vector<Card>& cards, int first_player,
                      const std::array<std::int32_t, kSideSlots>& scores, GameState& out);
// The notation `add <index> <card> <card> ...` of lay-offs of two cards or more on one meld, which
// Game::push_lay_offs plays (`index` and `cards` then hold them); false for any other text, a
// single move's included.
bool parse_lay_offs(std::string_view text, int decks, std::uint32_t& index, std::vector<Card>& cards);
// The cards named in `text`, card names between blanks, appended to `out` in order (a deck
// written as text); the first word that is not a card's name, if any (`out` then stops before it).
std::optional<std::string_view> parse_card_words(std::string_view text, std::vector<Card>& out);

}  // namespace burraco
