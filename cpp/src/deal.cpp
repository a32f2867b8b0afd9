// The deal: the pack, the hands, the pozzetti, the start card and the stock (RULES A), and
// whether a rule set has cards enough to deal at all.
#include <array>
#include <string>

#include "burraco/game.hpp"
#include "burraco/rng.hpp"
#include "turn.hpp"

namespace burraco {

int unshuffled_deck(const Rules& rules, std::array<Card, kMaxDeck>& deck) {
  int n = 0;
  for (int copy = 0; copy < rules.decks; ++copy)
    for (int suit = 0; suit < kSuits; ++suit)
      for (int rank = 1; rank <= kRanks; ++rank) deck[n++] = Card::suited(suit, rank);
  for (int j = 0; j < rules.jokers; ++j) deck[n++] = Card::joker();
  return n;
}

std::string check_playable(const Rules& rules) {
  if (rules.initial_stock() < 0)
    return "the pack of " + std::to_string(rules.total_cards()) +
           " cards is too small for the hands, the pozzetti and the start card";
  if (rules.players == 3 && (rules.opening_steps > 0 || rules.cut_exact_probability > 0))
    return "three players with a brazilian opening minimum or cut are not supported";
  return check_rules(rules);
}

namespace {

int opening_requirement(const Rules& rules, int band) {
  int need = rules.opening_minimum[0].minimum;
  for (int i = 0; i < rules.opening_steps; ++i)
    if (band >= rules.opening_minimum[i].from_score) need = rules.opening_minimum[i].minimum;
  return need;
}

GameState deal_with_cut(const Rules& rules, const std::array<Card, kMaxDeck>& order,
                        int first_player, const std::array<std::int32_t, kSideSlots>& scores,
                        int cut_side) {
  GameState s;
  s.players = static_cast<std::uint8_t>(rules.players);
  s.first = static_cast<std::uint8_t>(first_player);
  s.turn = s.first;
  s.scores = scores;
  s.cut_side = static_cast<std::int8_t>(cut_side);
  const int total = rules.total_cards();
  int i = 0;
  for (; i < rules.hand_size * rules.players; ++i)
    s.hands[(first_player + i) % rules.players].add(order[i]);
  // The packets get one card at a time in turn, a full packet skipped (docs/game.md "Deal").
  const int packets = rules.packets();
  for (bool more = true; more;) {
    more = false;
    for (int k = 0; k < packets; ++k) {
      Packet& packet = s.packets[k];
      if (packet.size >= rules.pozzetto_sizes[k]) continue;
      packet.cards[packet.size++] = order[i++];
      more = true;
    }
  }
  if (rules.initial_upcard) {
    s.pile.add(order[i]);
    s.top = order[i];
    s.pile_size = 1;
    ++i;
  }
  int k = 0;
  for (; i < total; ++i, ++k) s.stock[k] = order[i];
  s.stock_pos = 0;
  s.stock_end = static_cast<std::uint8_t>(k);
  if (rules.first_draw_rule == FirstDrawRule::MayRejectFirstCard) s.flags |= kFirstDraw;
  if (rules.opening_steps > 0)
    for (int side = 0; side < rules.side_slots(); ++side)
      s.need[side] = opening_requirement(
          rules, scores[side] + (cut_side == side ? rules.cut_bonus : 0));
  detail::end_if_no_draw(s, rules);
  return s;
}

}  // namespace

GameState deal(const Rules& rules, const std::array<Card, kMaxDeck>& order, int first_player,
               const std::array<std::int32_t, kSideSlots>& scores) {
  return deal_with_cut(rules, order, first_player, scores, -1);
}

GameState deal_seeded(const Rules& rules, std::uint64_t seed, int first_player,
                      const std::array<std::int32_t, kSideSlots>& scores) {
  std::array<Card, kMaxDeck> deck{};
  const int n = unshuffled_deck(rules, deck);
  Rng rng(seed);
  rng.shuffle(deck.data(), n);
  int cut_side = -1;
  if (rules.cut_exact_probability > 0 && rng.unit() < rules.cut_exact_probability) {
    const int cutter = ((first_player - 2) % rules.players + rules.players) % rules.players;
    cut_side = rules.players == 4 || rules.players == 6 ? cutter % rules.sides : cutter;
  }
  GameState s = deal_with_cut(rules, deck, first_player, scores, cut_side);
  s.has_seed = true;
  s.seed = seed;
  return s;
}

}  // namespace burraco
