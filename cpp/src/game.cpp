#include "burraco/game.hpp"

#include <cctype>
#include <cstdint>
#include <string>
#include <vector>

#include "turn.hpp"

namespace burraco {

// The deal is deal.cpp, the move generator movegen.cpp, apply apply.cpp and scoring scoring.cpp;
// the rules of a turn they share are turn.hpp. Here: the public queries, perft and the notation.

// ---- queries ----------------------------------------------------------------------------------

int side_of(const GameState& s, const Rules& rules, int seat) {
  return detail::seat_side(s, rules, seat);
}

int active_sides(const GameState& s, const Rules& rules, std::array<int, kSideSlots>& out) {
  if (s.players == 6 && rules.sides == 3) {
    out = {0, 1, 2, 0};
    return 3;
  }
  if (s.players == 3) {
    if (s.split < 0) {
      out = {0, 1, 2, 0};
      return 3;
    }
    out = {s.split, 3, 0, 0};
    return 2;
  }
  out = {0, 1, 0, 0};
  return 2;
}

SideMelds side_melds(const GameState& s, int side) {
  SideMelds out;
  for (int i = 0; i < s.meld_count; ++i)
    if (s.meld_side[i] == side) out.append(s.melds[i]);
  return out;
}

bool side_took_packet(const GameState& s, const Rules& rules, int side) {
  return detail::took_packet(s, rules, side);
}

bool has_required_burraco(const GameState& s, const Rules& rules, int side) {
  return detail::has_closing_burraco(s, rules, side);
}

std::string_view move_error_text(MoveError error) {
  switch (error) {
    case MoveError::Ok: return "ok";
    case MoveError::GameOver: return "the hand is over";
    case MoveError::WrongPhase: return "not in this phase of the turn";
    case MoveError::FirstDrawPending: return "the first draw of the hand is keep or reject";
    case MoveError::NotFirstDraw: return "keep and reject belong to the brazilian first draw";
    case MoveError::EmptyPile: return "the discard pile is empty";
    case MoveError::MustDrawFromStock: return "after a deadlock this turn must draw from the stock";
    case MoveError::StockEmpty: return "no card can be drawn from the stock";
    case MoveError::NotInHand: return "the cards are not in the player's hand";
    case MoveError::BadMeld: return "not a meld";
    case MoveError::SecondSetOfRank: return "the side already has a set of that rank";
    case MoveError::NoSuchMeld: return "the side has no meld with that index";
    case MoveError::BadLayOff: return "the card cannot be laid off on that meld";
    case MoveError::DeadEnd: return "the turn could not be finished after it (RULES C.7)";
    case MoveError::CannotEmptyHand:
      return "the hand would be empty with no pozzetto to take and no right to close";
    case MoveError::HeldCard:
      return "that is the card just taken from a one-card pile (RULES C.5)";
    case MoveError::WildClosingDiscard: return "a wild may not be the closing discard";
    case MoveError::NoBurracoToClose: return "closing needs a burraco on the side's table";
    case MoveError::NoPozzettoToClose: return "closing needs the side's pozzetto";
    case MoveError::OpeningReturned:
      return "a short opening returned its cards this turn; only a discard may follow (RULES C.3, H-38)";
  }
  return "?";
}

// ---- perft --------------------------------------------------------------------------------------

namespace {

// buffers[d] holds the moves of the node d plies above the leaves, reused across siblings.
std::uint64_t perft_below(const GameState& s, const Rules& rules, int depth,
                          std::vector<std::vector<Move>>& buffers) {
  if (depth == 0 || s.over()) return 1;
  std::vector<Move>& moves = buffers[static_cast<std::size_t>(depth)];
  legal_moves(s, rules, moves);
  if (depth == 1) return moves.size();
  std::uint64_t nodes = 0;
  for (const Move& m : moves) {
    GameState t = s;
    apply_move(t, rules, m);
    nodes += perft_below(t, rules, depth - 1, buffers);
  }
  return nodes;
}

}  // namespace

std::uint64_t perft(const GameState& s, const Rules& rules, int depth) {
  if (depth <= 0) return 1;
  std::vector<std::vector<Move>> buffers(static_cast<std::size_t>(depth) + 1);
  return perft_below(s, rules, depth, buffers);
}

std::uint64_t legal_moves_repeat(const GameState& s, const Rules& rules, std::uint64_t calls) {
  std::uint64_t generated = 0;
  std::vector<Move> buffer;
  for (std::uint64_t i = 0; i < calls; ++i) {
    legal_moves(s, rules, buffer);
    generated += buffer.size();
  }
  return generated;
}

// ---- notation -----------------------------------------------------------------------------------

std::string move_text(const Move& move) {
  switch (move.kind) {
    case MoveKind::Draw: return "draw";
    case MoveKind::Pile: return "pile";
    case MoveKind::Keep: return "keep";
    case MoveKind::Reject: return "reject";
    case MoveKind::Meld: {
      std::string out = "meld";
      move.cards.for_each([&](Card c) { out += ' ' + card_name(c); });
      return out;
    }
    case MoveKind::Add: return "add " + std::to_string(move.index) + ' ' + card_name(move.card);
    case MoveKind::Discard: return "discard " + card_name(move.card);
  }
  return "?";
}

bool parse_move(std::string_view text, Move& out, int decks) {
  const std::vector<std::string_view> words = split_words(text);
  if (words.empty()) return false;
  std::string verb(words[0]);
  for (char& c : verb) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  out = Move{};
  auto simple = [&](MoveKind kind) {
    out.kind = kind;
    return words.size() == 1;
  };
  if (verb == "draw") return simple(MoveKind::Draw);
  if (verb == "pile") return simple(MoveKind::Pile);
  if (verb == "keep") return simple(MoveKind::Keep);
  if (verb == "reject") return simple(MoveKind::Reject);
  if (verb == "meld") {
    out.kind = MoveKind::Meld;
    if (words.size() < 2) return false;
    for (std::size_t k = 1; k < words.size(); ++k) {
      const auto c = parse_card(words[k]);
      if (!c || !out.cards.add(*c)) return false;
    }
    // The notation alone has no rules: it takes the copies of a two-deck pack unless told the
    // pack (a game reads its moves with its own, docs/game.md "Six players").
    return out.cards.within(decks, 2 * decks);
  }
  if (verb == "discard") {
    out.kind = MoveKind::Discard;
    if (words.size() != 2) return false;
    const auto c = parse_card(words[1]);
    if (!c) return false;
    out.card = *c;
    return true;
  }
  if (verb == "add") {
    out.kind = MoveKind::Add;
    if (words.size() != 3 || words[1].empty()) return false;
    std::uint32_t index = 0;
    for (char ch : words[1]) {
      if (ch < '0' || ch > '9') return false;
      if (index > (kMaxMoveIndex - static_cast<std::uint32_t>(ch - '0')) / 10) return false;
      index = index * 10 + static_cast<std::uint32_t>(ch - '0');
    }
    const auto c = parse_card(words[2]);
    if (!c) return false;
    out.index = index;
    out.card = *c;
    return true;
  }
  return false;
}

}  // namespace burraco
