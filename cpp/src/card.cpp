#include "burraco/card.hpp"

#include <cctype>

namespace burraco {

std::string card_name(Card card) {
  if (card.is_joker()) return "Jk";
  return {rank_char(card.rank()), kSuitChars[card.suit()]};
}

std::string card_repr(Card card) { return "Card('" + card_name(card) + "')"; }

namespace {

std::string_view trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
    text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
    text.remove_suffix(1);
  return text;
}

char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

}  // namespace

int parse_rank(std::string_view text) {
  text = trim(text);
  if (text == "10") return 10;
  if (text.size() != 1) return 0;
  switch (lower(text[0])) {
    case 'a': return 1;
    case 't': return 10;
    case 'j': return 11;
    case 'q': return 12;
    case 'k': return 13;
    default: break;
  }
  if (text[0] >= '2' && text[0] <= '9') return text[0] - '0';
  return 0;
}

std::optional<Card> parse_card(std::string_view text) {
  text = trim(text);
  if (text.size() == 2 && lower(text[0]) == 'j' && lower(text[1]) == 'k') return Card::joker();
  if (text.size() < 2) return std::nullopt;
  const int rank = parse_rank(text.substr(0, text.size() - 1));
  if (rank == 0) return std::nullopt;
  int suit = -1;
  switch (lower(text.back())) {
    case 'c': suit = 0; break;
    case 'd': suit = 1; break;
    case 'h': suit = 2; break;
    case 's': suit = 3; break;
    default: return std::nullopt;
  }
  // No white space inside a card ("Q h" is not a card).
  for (char c : text)
    if (std::isspace(static_cast<unsigned char>(c))) return std::nullopt;
  return Card::suited(suit, rank);
}

std::vector<std::string_view> split_words(std::string_view text) {
  std::vector<std::string_view> words;
  // ASCII white space and commas only, whatever the C locale: any other white space (U+00A0,
  // U+2003, ...) is part of a word, which then fails to read, quoting the text (docs/api.md).
  auto separator = [](char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' || c == ',';
  };
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && separator(text[i])) ++i;
    std::size_t j = i;
    while (j < text.size() && !separator(text[j])) ++j;
    if (j > i) words.push_back(text.substr(i, j - i));
    i = j;
  }
  return words;
}

}  // namespace burraco
