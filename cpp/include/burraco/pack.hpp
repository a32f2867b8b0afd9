// burraco — card lists against a pack (RULES A.1): the copies two or three decks hold, a card
// list read from text or card by card within them, the multiset operators and comparisons of the
// API's Cards (a result takes the larger pack of its operands, docs/api.md "Cards"), and their
// texts.
// A refusal is a text that follows the caller's quoting of its input: the caller quotes values as
// its language writes them, the engine says what is wrong with them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "burraco/card.hpp"
#include "burraco/cardset.hpp"

namespace burraco {

// What a card is written as, for the messages that refuse one.
inline constexpr std::string_view kCardHelp =
    "a card is a rank (A 2-9 T J Q K) and a suit (c d h s), or Jk";

// Whether `decks` is a pack the engine plays: 2 or 3 decks.
constexpr bool valid_decks(long long decks) { return decks == 2 || decks == 3; }
// The copies of `card` a pack of `decks` decks holds: one a deck, two jokers a deck.
constexpr int copy_limit(Card card, int decks) { return card.is_joker() ? 2 * decks : decks; }
// The smallest pack (2 or 3 decks) that holds `cards`.
constexpr int pack_needed(CardSet cards) {
  return cards.within(kTwoDeckCopies, kTwoDeckJokers) ? 2 : 3;
}

// The canonical text of a multiset ("5h 6h Jk"), and its repr with its pack: "Cards('5h 6h Jk')",
// "Cards('5h 5h 5h', decks=3)" (only a three-deck pack is written).
std::string cards_text(CardSet cards);
std::string cards_repr(CardSet cards, int decks);
// "3 copies of 5h (at most 2)", "7 copies of Jk (at most 6 with 3 decks)".
std::string copies_text(Card card, int count, int decks);

// A card list read against a pack of `decks` decks, card by card or from text (words separated by
// white space or commas, split_words): the first word that is not a card, or the first card the
// pack holds no more copies of, refuses the list.
class CardList {
 public:
  explicit CardList(int decks) : decks_(decks) {}
  // Adds one card; false if the pack holds no more copies of it.
  bool add(Card card);
  // Adds the cards of `text` (which must outlive the list); false at the first word that is not a
  // card or passes the pack.
  bool add_text(std::string_view text);
  CardSet cards() const { return cards_; }
  // The word of add_text that is not a card; empty when the copies refused the list.
  std::string_view bad_word() const { return bad_word_; }
  // Why the list was refused, after the quoted input: ": 3 copies of 5h (at most 2)", or
  // ": " + quoted_word + " is not a card (...)" for bad_word() as the caller quotes it.
  std::string why(std::string_view quoted_word) const;

 private:
  CardSet cards_;
  int decks_;
  Card over_{};      // the card that passed the pack, and its copies with it
  int over_count_ = 0;
  std::string_view bad_word_;
};

// The operators of the API's Cards: a + b, b + a (the reflected +), a - b, a | b (per-kind
// maximum), a & b (per-kind minimum), and the sub-multiset comparisons.
enum class CardsOp : std::uint8_t { Add, ReflectedAdd, Sub, Or, And };
enum class CardsCompare : std::uint8_t { Le, Lt, Ge, Gt };

// `a op b` of multisets of packs `a_decks`, `b_decks`, in the larger pack; `ok` is false when a
// sum passes that pack's copies or `b` is not within `a` (Sub).
struct CardsOpResult {
  CardSet cards;
  int decks = 2;
  bool ok = true;
};
CardsOpResult combine(CardsOp op, CardSet a, int a_decks, CardSet b, int b_decks);
// Why combine(op, a, _, b, _) was refused in a pack of `decks`: the whole message, `b` written as
// the caller quotes it: "Cards('5h 5h') + '5h': 3 copies of 5h (at most 2), more than 2 decks
// hold".
std::string combine_refusal(CardsOp op, CardSet a, CardSet b, int decks, std::string_view quoted_b);
bool compare(CardsCompare how, CardSet a, CardSet b);

}  // namespace burraco
