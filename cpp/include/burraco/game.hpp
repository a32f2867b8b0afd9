// burraco — the state of one hand and the moves that change it (RULES C, D, E, F; docs/game.md).
//
// GameState is a plain value: no heap, no pointers, trivially copyable, so copying it is clone
// and undo (copy-make). The rules are not inside it: every function takes the Rules it plays
// under, which the owner keeps alive and unchanged.
//
// Sides: 4 players side = seat % 2; 6 players side = seat % rules.sides (three sides of two, or
// two of three, RULES F.7); 2 players side = seat; 3 players side = seat until the first
// pozzetto is taken, then the soloist keeps their seat and the pair is side 3 (RULES F.6).
// Packets: two, or three with six players; packet n may be a side's pozzetto only while
// n < rules.sides (two sides of six: the third packet is only a stock reserve, RULES D.3, F.7).
// Melds of all sides live in one pool in creation order, each tagged with its side; a side's
// meld index (the `add` move) counts that side's melds in pool order.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "burraco/card.hpp"
#include "burraco/cardset.hpp"
#include "burraco/meld.hpp"
#include "burraco/rules.hpp"

namespace burraco {

inline constexpr int kMaxPlayers = 6;
inline constexpr int kSideSlots = 4;
inline constexpr int kMaxDeck = 162;   // three decks and six jokers (RULES A.1, F.7)
// The most melds on the table in one hand, every side counted: every meld holds at least three
// distinct cards and melds never merge, so a table holds at most a third of the pack (54 with
// three decks; 36 with two, 108 cards). No legal move can ask for a slot more (RULES F.7).
inline constexpr int kMaxMelds = kMaxDeck / 3;
static_assert(kMaxDeck == 52 * kMaxSuitedCopies + kMaxJokers && kMaxMelds == 54);
// A Melds container holds as many as a table (MeldError::TableFull's text names the number).
static_assert(kMaxMelds == SideMelds::kCapacity);
static_assert(kMaxDeck <= 255, "stock_pos, stock_end and pile_size are bytes");
inline constexpr int kMaxPacket = 30;  // pozzetto_sizes knob limit
inline constexpr int kPackets = 3;  // six players deal three (RULES F.7); others two

enum class Phase : std::uint8_t { Draw, Meld, Over };
enum class EndReason : std::uint8_t { None, Closed, StockExhausted, Deadlock };
enum class PacketStatus : std::uint8_t { Untaken, FaceDown, Seen, InHand, Stock };

enum class MoveKind : std::uint8_t { Draw, Pile, Keep, Reject, Meld, Add, Discard };

// Largest meld index the notation accepts (`add <index> <card>`, docs/game.md); an index that
// names no meld is refused by apply_move, not by the parser.
inline constexpr std::uint32_t kMaxMoveIndex = 999'999'999;

// The largest brazilian opening requirement: a failed opening raises it up to this value and no
// further (also the largest a state string may give).
inline constexpr std::int32_t kMaxOpeningNeed = 10'000'000;

struct Move {
  MoveKind kind = MoveKind::Draw;
  Card card{};              // add, discard
  std::uint32_t index = 0;  // add: the side's meld index
  CardSet cards;            // meld
  friend bool operator==(const Move&, const Move&) = default;
};

// Turn flags (docs/game.md "turnflags").
enum TurnFlag : std::uint8_t {
  kTookSinglePile = 1,  // p: the pile held one card at the start of the turn and was taken
  kPutDown = 2,         // d: a card went on the table this turn (even if returned)
  kLastTurn = 4,        // l: the stock reached its threshold (RULES D.2)
  kForceDraw = 8,       // f: this turn must draw from the stock (D.4 force_draw)
  kFirstDraw = 16,      // b: the brazilian first draw is pending (C.2)
};

struct Packet {
  std::array<Card, kMaxPacket> cards{};
  std::uint8_t size = 0;
  PacketStatus status = PacketStatus::Untaken;
  std::int8_t owner = -1;
  CardSet set() const {
    CardSet s;
    for (int i = 0; i < size; ++i) s.add(cards[i]);
    return s;
  }
  friend bool operator==(const Packet&, const Packet&) = default;
};

// Every member of a position but the melds' layouts: GameState below adds those, last, so that a
// copy of a position may stop after its melds in play (copy_state).
struct GameStateHead {
  std::uint8_t players = 4;
  std::uint8_t first = 0;
  std::uint8_t turn = 0;
  Phase phase = Phase::Draw;
  EndReason end = EndReason::None;
  std::int8_t closing_side = -1;
  std::int8_t split = -1;     // 3 players: the soloist once the first packet is taken
  std::int8_t cut_side = -1;  // brazilian exact cut
  std::uint8_t flags = 0;     // TurnFlag bits of the current turn
  std::uint8_t deadlock = 0;  // consecutive exchange turns (RULES D.4)
  Card hold{};                // kind held by a one-card pile take this turn (C.5); cleared
                              // when a card of it goes down (kept while the side is provisional)
  bool has_seed = false;
  std::uint64_t seed = 0;

  std::array<CardSet, kMaxPlayers> hands{};
  std::array<CardSet, kMaxPlayers> known{};  // taken with the pile and not yet played (C.9)

  CardSet pile;
  Card top{};
  std::uint8_t pile_size = 0;

  std::array<Card, kMaxDeck> stock{};
  std::uint8_t stock_pos = 0, stock_end = 0;  // stock[stock_pos] is the top card

  std::array<Packet, kPackets> packets{};

  std::array<std::uint8_t, kMaxMelds> meld_side{};  // 0 past meld_count
  std::uint8_t meld_count = 0;

  std::array<bool, kSideSlots> opened{};
  std::array<std::int32_t, kSideSlots> need{};
  std::array<std::int32_t, kSideSlots> scores{};  // cumulative at the start of the hand

  friend bool operator==(const GameStateHead&, const GameStateHead&) = default;
};

struct GameState : GameStateHead {
  // The table: melds[0, meld_count) in creation order. The slots past meld_count are no part of
  // the position (copy_state leaves them as they were): nothing reads them.
  std::array<Meld, kMaxMelds> melds{};

  int stock_size() const { return stock_end - stock_pos; }
  bool over() const { return phase == Phase::Over; }
  // Every member equal (the seed included) and the same melds in play: the same position reached
  // the same way.
  friend bool operator==(const GameState& a, const GameState& b) {
    return static_cast<const GameStateHead&>(a) == b &&
           std::equal(a.melds.begin(), a.melds.begin() + a.meld_count, b.melds.begin());
  }
};

// to = from, as a position: the same answer to every question, for less. The head and the
// first kCopiedMelds meld slots are copied whole (moves of a size known when compiling, which
// the compiler lays out without a loop: most tables hold no more melds), the melds in play past
// them two at a time; the slots past meld_count are no part of a position, so the 54 slots a
// plain copy moves are not. The copy the hot paths make of a position into one they already
// have (copy-make).
inline constexpr int kCopiedMelds = 8;
inline void copy_state(GameState& to, const GameState& from) {
  static_assert(kMaxMelds % 2 == 0 && kCopiedMelds % 2 == 0 && kCopiedMelds <= kMaxMelds);
  static_cast<GameStateHead&>(to) = from;
  std::memcpy(static_cast<void*>(to.melds.data()), from.melds.data(), kCopiedMelds * sizeof(Meld));
  for (int i = kCopiedMelds, n = from.meld_count; i < n; i += 2)
    std::memcpy(static_cast<void*>(&to.melds[i]), &from.melds[i], 2 * sizeof(Meld));
}

// ---- setup ------------------------------------------------------------------------------------

// The unshuffled deck of these rules (docs/game.md "Deal"). Returns its size.
int unshuffled_deck(const Rules& rules, std::array<Card, kMaxDeck>& deck);

// Checks that the rules describe a game this engine can deal; empty string if fine, else why.
std::string check_playable(const Rules& rules);

// Deals from an explicit order (precondition: the full deck of these rules, checked by callers).
GameState deal(const Rules& rules, const std::array<Card, kMaxDeck>& order, int first_player,
               const std::array<std::int32_t, kSideSlots>& scores);
// Deals from a seed: shuffle, deal, and the brazilian exact cut (docs/game.md).
GameState deal_seeded(const Rules& rules, std::uint64_t seed, int first_player,
                      const std::array<std::int32_t, kSideSlots>& scores);

// ---- queries ----------------------------------------------------------------------------------

int side_of(const GameState& s, const Rules& rules, int seat);
// The side slots in play now (2 or 4 players: 0 and 1; 3 players: the seats, or soloist and 3).
int active_sides(const GameState& s, const Rules& rules, std::array<int, kSideSlots>& out);
// A side's melds in creation order, as a SideMelds (for the Python view).
SideMelds side_melds(const GameState& s, int side);
bool side_took_packet(const GameState& s, const Rules& rules, int side);
// The side has the burraco closing needs (RULES C.6: any, or clean with closing_requires_burraco).
bool has_required_burraco(const GameState& s, const Rules& rules, int side);

// ---- moves ------------------------------------------------------------------------------------

enum class MoveError : std::uint8_t {
  Ok,
  GameOver,
  WrongPhase,
  FirstDrawPending,
  NotFirstDraw,
  EmptyPile,
  MustDrawFromStock,
  StockEmpty,
  NotInHand,
  BadMeld,          // detail in meld_error
  SecondSetOfRank,
  NoSuchMeld,
  BadLayOff,        // detail in meld_error
  DeadEnd,          // RULES C.7: the turn could not be finished
  CannotEmptyHand,  // no pozzetto to take and closing not allowed
  HeldCard,         // RULES C.5
  WildClosingDiscard,
  NoBurracoToClose,
  NoPozzettoToClose,
  OpeningReturned,  // RULES C.3 H-38: a short opening returned its cards; only discards follow
};

struct MoveResult {
  MoveError error = MoveError::Ok;
  MeldError meld_error = MeldError::Ok;
  bool ok() const { return error == MoveError::Ok; }
};

std::string_view move_error_text(MoveError error);

// Plays a move if it is legal; on error the state is unchanged.
MoveResult apply_move(GameState& s, const Rules& rules, const Move& move);

// Every legal move, in the canonical order of docs/game.md, appended to `out` (cleared first).
void legal_moves(const GameState& s, const Rules& rules, std::vector<Move>& out);

// legal_moves(s, rules, out), given the legal moves `before_moves` of `before`, a position of the
// same turn that `s` follows by melds or lay-offs of the seat to act: the new melds of `s` are
// then picked out of `before_moves` when that is sure to give the same list, for less.
void legal_moves_after(const GameState& before, const std::vector<Move>& before_moves, const GameState& s,
                       const Rules& rules, std::vector<Move>& out);

// Canonical comparison of moves (docs/game.md).
bool move_less(const Move& a, const Move& b);

// ---- notation ---------------------------------------------------------------------------------

std::string move_text(const Move& move);
// Parses a move; false when the text is not a move (lenient, see docs/game.md).
// `decks`: the pack whose copies a meld may hold (2, or 3 in a three-deck game's own moves).
bool parse_move(std::string_view text, Move& out, int decks = 2);

// ---- scoring (RULES E) --------------------------------------------------------------------------

struct SideResult {
  int side = 0;
  int melds = 0, bonuses = 0, closing = 0, hand = 0, pozzetto = 0, cut = 0, total = 0;
};

struct HandResult {
  EndReason reason = EndReason::None;
  int closing_side = -1;
  std::array<SideResult, kSideSlots> sides{};
  int side_count = 0;
  std::array<int, kMaxPlayers> player_half_points{};  // 3 players only
};

// Precondition: s.over().
HandResult score_hand(const GameState& s, const Rules& rules);

// ---- perft --------------------------------------------------------------------------------------

std::uint64_t perft(const GameState& s, const Rules& rules, int depth);
// Generates the legal moves of `s` `calls` times in one loop and returns how many moves that gave
// in all (a bench of the move generator alone: no cache, nothing else per call).
std::uint64_t legal_moves_repeat(const GameState& s, const Rules& rules, std::uint64_t calls);

}  // namespace burraco

namespace burraco {

// The card-list fields of a state string: canonical order, or deal order; "-" when empty.
std::string cards_field(CardSet set);
std::string sequence_field(const Card* cards, int n);
// The state string of docs/game.md (version 1).
std::string state_string(const GameState& s, const Rules& rules);
// Parses a state string; on failure returns false and names the bad field in `error`.
bool parse_state_string(std::string_view text, GameState& s, Rules& rules, std::string& error);
// How many side slots the state string and the meld lists use (one per side, 4 with three
// players): rules.side_slots().
inline int side_slots(const Rules& rules) { return rules.side_slots(); }

}  // namespace burraco
