// Fixed action ids and observation tensors for learning (actions.hpp, docs/search.md).
#include "burraco/actions.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

namespace burraco {

// ---- fixed action ids and observation features ---------------------------------------------------

namespace {

bool meld_less(CardSet a, CardSet b) {
  Move x, y;
  x.kind = y.kind = MoveKind::Meld;
  x.cards = a;
  y.cards = b;
  return move_less(x, y);
}

// docs/search.md "Actions": sets of one rank with or without one wild; run windows, whole, with one
// slot's natural swapped for a wild, or with a wild added; kept when the deck holds those cards
// and make_meld accepts them.
std::unique_ptr<MeldTable> build_meld_table(const Rules& rules) {
  std::vector<CardSet> candidates;
  std::vector<Card> wilds;
  if (rules.jokers > 0) wilds.push_back(Card::joker());
  for (int suit = 0; suit < kSuits; ++suit) wilds.push_back(Card::suited(suit, kTwo));
  auto with_wild = [&](CardSet base) {
    for (Card w : wilds) {
      CardSet x = base;
      if (x.add(w)) candidates.push_back(x);
    }
  };
  for (int rank = 1; rank <= kRanks; ++rank) {
    if (rank == kTwo) continue;
    // 0 to `decks` copies of each suit: a code in base decks + 1.
    const int base = rules.decks + 1;
    for (int code = 0; code < base * base * base * base; ++code) {
      CardSet set;
      int naturals = 0;
      for (int suit = 0, c = code; suit < kSuits; ++suit, c /= base)
        for (int k = 0; k < c % base; ++k) {
          set.add(Card::suited(suit, rank));
          ++naturals;
        }
      if (naturals < 2) continue;
      if (naturals >= 3) candidates.push_back(set);
      with_wild(set);
    }
  }
  for (int suit = 0; suit < kSuits; ++suit)
    for (int lo = 1; lo <= 12; ++lo)
      for (int hi = lo + 2; hi <= 14; ++hi) {
        CardSet base;
        for (int slot = lo; slot <= hi; ++slot) base.add(Card::suited(suit, slot == 14 ? kAce : slot));
        candidates.push_back(base);
        with_wild(base);
        for (int slot = lo; slot <= hi; ++slot) {
          CardSet without = base;
          without.remove(Card::suited(suit, slot == 14 ? kAce : slot));
          with_wild(without);
        }
      }
  auto data = std::make_unique<MeldTable>();
  std::vector<CardSet>& melds = data->melds;
  for (CardSet c : candidates) {
    bool in_deck = c.jokers() <= rules.jokers;
    c.for_each([&](Card card) {
      if (!card.is_joker() && c.count(card) > rules.decks) in_deck = false;
    });
    if (in_deck && make_meld(c, rules).ok()) melds.push_back(c);
  }
  std::sort(melds.begin(), melds.end(), meld_less);
  melds.erase(std::unique(melds.begin(), melds.end()), melds.end());
  for (std::size_t i = 0; i < melds.size(); ++i) data->index.emplace(melds[i], static_cast<int>(i));
  data->late_add_melds = std::max(0, rules.total_cards() / 3 - kActionAddMelds);
  return data;
}

}  // namespace

const MeldTable& meld_table(const Rules& rules) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<MeldTable>> tables;
  const std::string key = rules_text(rules);
  std::lock_guard<std::mutex> lock(mutex);
  auto& slot = tables[key];
  if (!slot) slot = build_meld_table(rules);
  return *slot;
}

int action_size(const Rules& rules) {
  const MeldTable& table = meld_table(rules);
  return kActionMeld + static_cast<int>(table.melds.size()) + kKinds * table.late_add_melds;
}

int action_id(const Move& move, const MeldTable& table) {
  switch (move.kind) {
    case MoveKind::Draw: return 0;
    case MoveKind::Pile: return 1;
    case MoveKind::Keep: return 2;
    case MoveKind::Reject: return 3;
    case MoveKind::Discard: return move.card.valid() ? kActionDiscard + move.card.index : -1;
    case MoveKind::Add: {
      if (!move.card.valid()) return -1;
      if (move.index < static_cast<std::uint32_t>(kActionAddMelds))
        return kActionAdd + kKinds * static_cast<int>(move.index) + move.card.index;
      const std::uint32_t late = move.index - static_cast<std::uint32_t>(kActionAddMelds);
      if (late >= static_cast<std::uint32_t>(table.late_add_melds)) return -1;
      return kActionMeld + static_cast<int>(table.melds.size()) + kKinds * static_cast<int>(late) +
             move.card.index;
    }
    case MoveKind::Meld: {
      const int m = table.find(move.cards);
      return m < 0 ? -1 : kActionMeld + m;
    }
  }
  return -1;
}

bool action_move(int id, const MeldTable& table, Move& out) {
  out = Move{};
  if (id < 0) return false;
  if (id < kActionDiscard) {
    static constexpr MoveKind kinds[] = {MoveKind::Draw, MoveKind::Pile, MoveKind::Keep, MoveKind::Reject};
    out.kind = kinds[id];
    return true;
  }
  if (id < kActionAdd) {
    out.kind = MoveKind::Discard;
    out.card = Card(static_cast<std::uint8_t>(id - kActionDiscard));
    return true;
  }
  if (id < kActionMeld) {
    out.kind = MoveKind::Add;
    out.index = static_cast<std::uint32_t>((id - kActionAdd) / kKinds);
    out.card = Card(static_cast<std::uint8_t>((id - kActionAdd) % kKinds));
    return true;
  }
  const auto m = static_cast<std::size_t>(id - kActionMeld);
  if (m < table.melds.size()) {
    out.kind = MoveKind::Meld;
    out.cards = table.melds[m];
    return true;
  }
  const std::size_t late = m - table.melds.size();  // a lay-off on meld index 36 or more
  if (late >= static_cast<std::size_t>(kKinds * table.late_add_melds)) return false;
  out.kind = MoveKind::Add;
  out.index = static_cast<std::uint32_t>(kActionAddMelds + late / kKinds);
  out.card = Card(static_cast<std::uint8_t>(late % kKinds));
  return true;
}

namespace {

// The 681 features of a six-player observation (docs/search.md "Six players"; the reference's
// TENSOR_LAYOUT_SIX): the blocks of the 511 layout for six seats, three packets and up to three
// sides, side (S + k) % sides being relative side k of a player on side S.
void six_player_features(const Observation& o, const Rules& rules, float* out) {
  std::fill(out, out + kObservationSizeSix, 0.0f);
  const GameState& s = o.state;
  const int player = o.player, sides = rules.sides;
  const int my_side = side_of(s, rules, player);
  auto relative_side = [&](int side) { return (side - my_side + sides) % sides; };
  auto counts = [&](CardSet cards, int at) {
    cards.for_each([&](Card c) { out[at + c.index] += 1.0f; });
  };
  counts(s.hands[player], 0);
  counts(s.pile, 53);
  for (int j = 1; j < 6; ++j) counts(s.known[(player + j) % 6], 106 + 53 * (j - 1));
  for (int i = 0; i < s.meld_count; ++i) {
    const int relative = relative_side(s.meld_side[i]);
    counts(s.melds[i].cards, relative == 0 ? 371 : 424 + 53 * (relative - 1));
  }
  for (int j = 0; j < 6; ++j) out[530 + j] = o.hand_sizes[static_cast<std::size_t>((player + j) % 6)];
  out[536] = static_cast<float>(s.stock_size());
  out[537] = s.pile_size;
  for (int k = 0; k < rules.packets(); ++k) {
    const Packet& p = s.packets[k];
    out[538 + 5 * k + static_cast<int>(p.status)] = 1.0f;
    if (p.status == PacketStatus::FaceDown || p.status == PacketStatus::Seen ||
        p.status == PacketStatus::InHand)
      out[553 + relative_side(side_of(s, rules, p.owner))] = 1.0f;
    if (packet_visible(s, player, k)) counts(p.set(), 628);
  }
  out[556 + static_cast<int>(s.phase)] = 1.0f;
  out[559 + (s.turn - player + 6) % 6] = 1.0f;
  out[565] = s.opened[my_side] ? 1.0f : 0.0f;
  out[566] = static_cast<float>(s.need[my_side]) / 100.0f;
  for (int side = 0; side < sides; ++side)
    out[567 + relative_side(side)] = static_cast<float>(s.scores[side]) / 1000.0f;
  if (s.hold.valid()) out[570 + s.hold.index] = 1.0f;
  static constexpr std::uint8_t flags[] = {kTookSinglePile, kPutDown, kLastTurn, kForceDraw, kFirstDraw};
  for (int f = 0; f < 5; ++f) out[623 + f] = (s.flags & flags[f]) ? 1.0f : 0.0f;
}

}  // namespace

void observation_features(const Observation& o, const Rules& rules, float* out) {
  if (o.state.players == 6) return six_player_features(o, rules, out);
  std::fill(out, out + kObservationSize, 0.0f);
  const GameState& s = o.state;
  const int player = o.player;
  const int my_side = side_of(s, rules, player);
  auto counts = [&](CardSet cards, int at) {
    cards.for_each([&](Card c) { out[at + c.index] += 1.0f; });
  };
  counts(s.hands[player], 0);
  counts(s.pile, 53);
  for (int j = 1; j < s.players; ++j) counts(s.known[(player + j) % s.players], 106 + 53 * (j - 1));
  for (int i = 0; i < s.meld_count; ++i)
    counts(s.melds[i].cards, s.meld_side[i] == my_side ? 265 : 318);
  for (int j = 0; j < s.players; ++j)
    out[371 + j] = o.hand_sizes[static_cast<std::size_t>((player + j) % s.players)];
  out[375] = static_cast<float>(s.stock_size());
  out[376] = s.pile_size;
  for (int k = 0; k < 2; ++k) out[377 + 5 * k + static_cast<int>(s.packets[k].status)] = 1.0f;
  std::array<int, kSideSlots> sides{};
  const int side_count = active_sides(s, rules, sides);
  for (int k = 0; k < side_count; ++k)
    if (side_took_packet(s, rules, sides[k])) out[sides[k] == my_side ? 387 : 388] = 1.0f;
  out[389 + static_cast<int>(s.phase)] = 1.0f;
  out[392 + (s.turn - player + s.players) % s.players] = 1.0f;
  out[396] = s.opened[my_side] ? 1.0f : 0.0f;
  out[397] = static_cast<float>(s.need[my_side]) / 100.0f;
  // Quotients in float32 arithmetic: float32(a) / float32(b) (docs/search.md).
  if (s.players == 3) {
    std::int32_t others = 0;
    for (int q = 0; q < 3; ++q)
      if (q != player) others += s.scores[q];
    out[398] = static_cast<float>(s.scores[player]) / 2000.0f;  // half points
    out[399] = static_cast<float>(others) / 2000.0f;
  } else {
    out[398] = static_cast<float>(s.scores[my_side]) / 1000.0f;
    out[399] = static_cast<float>(s.scores[1 - my_side]) / 1000.0f;
  }
  if (s.hold.valid()) out[400 + s.hold.index] = 1.0f;
  static constexpr std::uint8_t flags[] = {kTookSinglePile, kPutDown, kLastTurn, kForceDraw, kFirstDraw};
  for (int f = 0; f < 5; ++f) out[453 + f] = (s.flags & flags[f]) ? 1.0f : 0.0f;
  for (int k = 0; k < 2; ++k)
    if (packet_visible(s, player, k)) counts(s.packets[k].set(), 458);
}

void legal_mask(const std::vector<Move>& legal, const Rules& rules, bool* mask) {
  const MeldTable& table = meld_table(rules);
  std::fill(mask, mask + action_size(rules), false);
  for (const Move& m : legal) {
    const int id = action_id(m, table);
    if (id < 0) throw std::logic_error("legal move '" + move_text(m) + "' has no action id");
    mask[id] = true;
  }
}

}  // namespace burraco
