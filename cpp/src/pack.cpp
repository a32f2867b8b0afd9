#include "burraco/pack.hpp"

#include <algorithm>

namespace burraco {

std::string cards_text(CardSet cards) {
  std::string out;
  cards.for_each([&](Card c) {
    if (!out.empty()) out += ' ';
    out += card_name(c);
  });
  return out;
}

std::string cards_repr(CardSet cards, int decks) {
  return "Cards('" + cards_text(cards) + "'" +
         (decks == 2 ? std::string() : ", decks=" + std::to_string(decks)) + ")";
}

std::string copies_text(Card card, int count, int decks) {
  return std::to_string(count) + " copies of " + card_name(card) + " (at most " +
         std::to_string(copy_limit(card, decks)) +
         (decks == 2 ? std::string() : " with " + std::to_string(decks) + " decks") + ")";
}

bool CardList::add(Card card) {
  // The copies of the card that passes the limit: those read before it, and this one (the set
  // may be at its capacity, three, and refuse it).
  const int before = cards_.count(card);
  if (cards_.add(card) && before + 1 <= copy_limit(card, decks_)) return true;
  over_ = card;
  over_count_ = before + 1;
  return false;
}

bool CardList::add_text(std::string_view text) {
  for (std::string_view word : split_words(text)) {
    const auto card = parse_card(word);
    if (!card) {
      bad_word_ = word;
      return false;
    }
    if (!add(*card)) return false;
  }
  return true;
}

std::string CardList::why(std::string_view quoted_word) const {
  if (!bad_word_.empty())
    return ": " + std::string(quoted_word) + " is not a card (" + std::string(kCardHelp) + ")";
  return ": " + copies_text(over_, over_count_, decks_);
}

CardsOpResult combine(CardsOp op, CardSet a, int a_decks, CardSet b, int b_decks) {
  CardsOpResult r{CardSet(), std::max(a_decks, b_decks), true};
  switch (op) {
    case CardsOp::Add:
      r.ok = a.sum(b, r.cards) && r.cards.within(r.decks, 2 * r.decks);
      break;
    case CardsOp::ReflectedAdd:
      r.ok = b.sum(a, r.cards) && r.cards.within(r.decks, 2 * r.decks);
      break;
    case CardsOp::Sub: r.ok = a.difference(b, r.cards); break;
    case CardsOp::Or: r.cards = a.max_with(b); break;
    case CardsOp::And: r.cards = a.min_with(b); break;
  }
  return r;
}

std::string combine_refusal(CardsOp op, CardSet a, CardSet b, int decks,
                            std::string_view quoted_b) {
  const std::string self = "Cards('" + cards_text(a) + "')", other(quoted_b);
  if (op == CardsOp::Sub)
    return self + " - " + other + ": " + other + " is not contained in " + self;
  const std::string pack = std::to_string(decks) + " decks hold";
  if (op == CardsOp::ReflectedAdd) return other + " + " + self + ": more copies than " + pack;
  // Name the first kind that passes its limit.
  std::string copies;
  b.for_each([&](Card c) {
    const int count = a.count(c) + b.count(c);
    if (copies.empty() && count > copy_limit(c, decks)) copies = copies_text(c, count, decks);
  });
  return self + " + " + other + ": " + copies + ", more than " + pack;
}

bool compare(CardsCompare how, CardSet a, CardSet b) {
  switch (how) {
    case CardsCompare::Le: return a.subset_of(b);
    case CardsCompare::Lt: return a.subset_of(b) && !(a == b);
    case CardsCompare::Ge: return b.subset_of(a);
    case CardsCompare::Gt: return b.subset_of(a) && !(a == b);
  }
  return false;
}

}  // namespace burraco
