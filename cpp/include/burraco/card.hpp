// burraco — card kinds and their notation.
//
// RULES A.2: the two copies of a suited card, and the jokers among themselves, are
// interchangeable, so the engine works with card *kinds*: 52 suited kinds and the joker.
//
// A kind is a small integer in canonical card order (RULES 0.2): suit c < d < h < s, then rank
// A < 2 < ... < K, the joker last:
//
//     index = 13 * suit + (rank - 1)      suit: c=0 d=1 h=2 s=3, rank: A=1 ... K=13
//     joker = 52
//
// Notation: ranks `A 2 3 4 5 6 7 8 9 T J Q K` (`10` accepted for T on input), suits `c d h s`,
// joker `Jk`; input is case-insensitive, output canonical.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace burraco {

inline constexpr int kSuits = 4;
inline constexpr int kRanks = 13;
inline constexpr int kSuitedKinds = 52;
inline constexpr int kKinds = 53;          // 52 suited kinds + the joker
inline constexpr std::uint8_t kJoker = 52; // index of the joker
inline constexpr std::uint8_t kNoCard = 0xFF;

inline constexpr int kAce = 1;
inline constexpr int kTwo = 2;
inline constexpr int kKing = 13;

// A card kind. Trivially copyable, ordered by canonical order.
struct Card {
  std::uint8_t index = kNoCard;

  constexpr Card() = default;
  constexpr explicit Card(std::uint8_t i) : index(i) {}
  // Precondition: 0 <= suit < 4, 1 <= rank <= 13.
  static constexpr Card suited(int suit, int rank) {
    return Card(static_cast<std::uint8_t>(13 * suit + rank - 1));
  }
  static constexpr Card joker() { return Card(kJoker); }

  constexpr bool valid() const { return index < kKinds; }
  constexpr bool is_joker() const { return index == kJoker; }
  constexpr int suit() const { return index / 13; }      // precondition: !is_joker()
  constexpr int rank() const { return index % 13 + 1; }  // precondition: !is_joker()
  constexpr bool is_two() const { return !is_joker() && rank() == kTwo; }
  // Wild in hand (RULES A.4): every joker and every two. In a run a two may still be natural.
  constexpr bool is_wild() const { return is_joker() || is_two(); }

  friend constexpr bool operator==(Card, Card) = default;
  friend constexpr auto operator<=>(Card, Card) = default;
};

inline constexpr char kRankChars[] = "?A23456789TJQK";
inline constexpr char kSuitChars[] = "cdhs";

// Canonical notation of a valid card: "Qh", "Th", "Jk"; its repr in the API: "Card('Qh')".
std::string card_name(Card card);
std::string card_repr(Card card);
// The rank letter of 1..13 ("A", "2", ..., "K").
inline char rank_char(int rank) { return kRankChars[rank]; }
// The letters of a rank 1..13 and of a suit 0..3 as text ("Q", "h").
inline std::string_view rank_text(int rank) { return {&kRankChars[rank], 1}; }
inline std::string_view suit_text(int suit) { return {&kSuitChars[suit], 1}; }
// A card's rank and suit letters; empty for the joker.
inline std::string_view rank_text(Card card) {
  return card.is_joker() ? "" : rank_text(card.rank());
}
inline std::string_view suit_text(Card card) {
  return card.is_joker() ? "" : suit_text(card.suit());
}

// Parses one card, leniently (case-insensitive, "10" for T, surrounding white space).
// Returns nullopt when the text is not exactly one card.
std::optional<Card> parse_card(std::string_view text);
// Splits a card list or a move into words: separated by white space and/or commas.
std::vector<std::string_view> split_words(std::string_view text);

// Parses one rank letter ("A", "t", "10", ...); returns 0 when the text is not a rank.
int parse_rank(std::string_view text);

}  // namespace burraco
