// Observations and determinization (observation.hpp, docs/search.md).
#include "burraco/observation.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "burraco/rng.hpp"
#include "burraco/validate.hpp"

namespace burraco {

// ---- observations -------------------------------------------------------------------------------

namespace {

// Packets whose cards the observer cannot see (untaken, face down, seen by someone else).
bool packet_hidden(const GameState& s, int player, int k) {
  const Packet& p = s.packets[static_cast<std::size_t>(k)];
  return p.status == PacketStatus::Untaken || p.status == PacketStatus::FaceDown ||
         (p.status == PacketStatus::Seen && p.owner != player);
}

}  // namespace

Observation observe(const GameState& s, const Rules& rules, int player) {
  (void)rules;
  // Made from a copy of the position (no GameState is first built empty: that costs more than
  // the copy).
  Observation o{s, static_cast<std::uint8_t>(player), {}};
  GameState& v = o.state;
  v.has_seed = false;
  v.seed = 0;
  for (int q = 0; q < s.players; ++q) {
    o.hand_sizes[static_cast<std::size_t>(q)] = static_cast<std::uint8_t>(s.hands[q].size());
    if (q != player) v.hands[q] = s.known[q];
  }
  std::fill(v.stock.begin(), v.stock.end(), Card{});
  // Only a packet the observer has seen keeps its cards; a packet joined to a hand or turned into
  // the stock keeps none either (its cards are in that hand or the stock).
  for (int k = 0; k < kPackets; ++k)
    if (!packet_visible(s, player, k)) v.packets[k].cards.fill(Card{});
  return o;
}

namespace {

std::vector<std::string> split_fields(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find(';', start);
    out.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) return out;
    start = end + 1;
  }
}

}  // namespace

std::string observation_string(const Observation& o, const Rules& rules) {
  // The state string of the observed state, with every hidden card left out, then the three
  // fields that describe hidden cards rewritten (docs/search.md "Observations").
  GameState v = o.state;
  v.stock_pos = v.stock_end = 0;
  for (Packet& p : v.packets) p.size = 0;
  std::vector<std::string> fields = split_fields(state_string(v, rules));
  const GameState& s = o.state;
  for (std::string& field : fields) {
    if (field.rfind("hands=", 0) == 0) {
      field = "hands=";
      for (int q = 0; q < s.players; ++q) {
        if (q) field += '/';
        field += q == o.player ? cards_field(s.hands[q])
                               : "?" + std::to_string(o.hand_sizes[static_cast<std::size_t>(q)]);
      }
    } else if (field.rfind("stock=", 0) == 0) {
      field = s.stock_size() ? "stock=?" + std::to_string(s.stock_size()) : "stock=-";
    } else if (field.rfind("pozzetti=", 0) == 0) {
      field = "pozzetti=";
      for (int k = 0; k < rules.packets(); ++k) {
        const Packet& p = s.packets[k];
        if (k) field += '/';
        const std::string hidden = "?" + std::to_string(p.size);
        switch (p.status) {
          case PacketStatus::Untaken: field += "u:" + hidden; break;
          case PacketStatus::FaceDown: field += "f" + std::to_string(p.owner) + ":" + hidden; break;
          case PacketStatus::Seen:
            field += "s" + std::to_string(p.owner) + ":" +
                     (p.owner == o.player ? sequence_field(p.cards.data(), p.size) : hidden);
            break;
          case PacketStatus::InHand: field += "h" + std::to_string(p.owner) + ":-"; break;
          case PacketStatus::Stock: field += "x:-"; break;
        }
      }
    }
  }
  std::string out = fields[0] + ";player=" + std::to_string(o.player);
  for (std::size_t i = 1; i < fields.size(); ++i) out += ";" + fields[i];
  return out;
}

// ---- determinization ----------------------------------------------------------------------------

namespace {

// docs/search.md "Determinization" step 3: `s` (the observed state) gets the shuffled unseen
// cards, in order: the other seats' hidden cards, the hidden packets, the stock.
inline void hand_out(GameState& s, const Observation& o, const Card* unseen) {
  const GameState& v = o.state;
  const int player = o.player;
  int next = 0;
  for (int step = 1; step < v.players; ++step) {
    const int q = (player + step) % v.players;
    for (int c = s.hands[q].size(); c < o.hand_sizes[static_cast<std::size_t>(q)]; ++c)
      s.hands[q].add(unseen[next++]);
  }
  for (int k = 0; k < kPackets; ++k)
    if (packet_hidden(v, player, k))
      for (int i = 0; i < v.packets[k].size; ++i) s.packets[k].cards[i] = unseen[next++];
  for (int i = v.stock_pos; i < v.stock_end; ++i) s.stock[i] = unseen[next++];
  s.has_seed = false;
  s.seed = 0;
}

// docs/search.md "Determinization" step 4, on `s` dealt from `unseen` (n cards) by step 3; `rng`
// is the generator after the shuffle. The seat to act T holds one card, dealt at unseen[t] (its
// place in the hand-out order). In the meld phase a hand of two or more cards can always be
// discarded from (RULES C.5, C.7: the hold blocks one card at most, and what is left does not
// empty the hand), and a draw phase's moves are public; a single card is the one hidden hand
// that may leave T no legal move. Whether it does depends on that card and public facts alone:
// it may be discarded when a pozzetto is still available to T's side (whatever the card, but
// the held one, which is known), else only laid off towards a close, which the melds, the
// pozzetti taken and the burraco decide (RULES C.4, C.6, C.7). So each kind is playable or not
// for T whatever the other hidden cards are. If unseen[t] is not, it is exchanged with the i-th
// of the dealt cards whose kind is (i = bounded(m), m the number of such cards: at least one,
// T's real card) and the cards are handed out again. Every deal in which T can move then comes
// out with the same probability n / (m n!): uniform over the deals consistent with the
// observation that are positions of play. Out of line: determinize itself stays as small as it
// was (rare positions only come here).
[[gnu::noinline]] void give_a_playable_card(GameState& s, const Observation& o, const Rules& rules,
                                            Card* unseen, int n, Rng rng) {
  const int player = o.player, turn = o.state.turn, players = o.state.players;
  int t = 0;
  for (int q = (player + 1) % players; q != turn; q = (q + 1) % players)
    t += o.hand_sizes[static_cast<std::size_t>(q)] - o.state.hands[q].size();
  // Playable kinds, worked out on the deal made (T's hand is the one card; nothing reads the
  // other hidden cards' places, and the lay-offs tried may take a real pozzetto into the hand).
  std::array<std::int8_t, kKinds> playable{};  // 0 not known yet, 1 yes, -1 no
  std::vector<Move> moves;
  GameState trial = s;
  auto playable_kind = [&](Card c) {
    std::int8_t& known = playable[c.index];
    if (known == 0) {
      trial.hands[turn] = CardSet{};
      trial.hands[turn].add(c);
      legal_moves(trial, rules, moves);
      known = moves.empty() ? -1 : 1;
    }
    return known > 0;
  };
  if (playable_kind(unseen[t])) return;
  int m = 0;
  for (int j = 0; j < n; ++j) m += playable_kind(unseen[j]);
  if (m == 0) return;  // no consistent deal lets T move: not an observation of a real position
  int i = static_cast<int>(rng.bounded(static_cast<std::uint64_t>(m)));
  for (int j = 0; j < n; ++j) {
    if (playable_kind(unseen[j]) && i-- == 0) {
      std::swap(unseen[t], unseen[j]);
      break;
    }
  }
  s = o.state;
  hand_out(s, o, unseen);
}

}  // namespace

GameState determinize(const Observation& o, const Rules& rules, std::uint64_t seed) {
  const GameState& v = o.state;
  const int player = o.player;
  // 1. The unseen cards: the deck less everything the observer sees, in canonical order.
  // The deck (unshuffled_deck) holds `decks` copies of every suited kind and `jokers` jokers.
  std::array<int, kKinds> count;
  count.fill(rules.decks);
  count[kJoker] = rules.jokers;
  auto take = [&](CardSet cards) { cards.for_each([&](Card c) { --count[c.index]; }); };
  for (int q = 0; q < v.players; ++q) take(v.hands[q]);  // own hand; the others' known cards
  for (int i = 0; i < v.meld_count; ++i) take(v.melds[i].cards);
  take(v.pile);
  for (int k = 0; k < kPackets; ++k)
    if (packet_visible(v, player, k))
      for (int i = 0; i < v.packets[k].size; ++i) --count[v.packets[k].cards[i].index];
  // Every suited kind is written four times (no pack holds more copies: three decks hold 3) and
  // the next kind starts after its real copies: straight-line stores instead of a loop per kind.
  // The jokers, last, are written eight times (six at most).
  std::array<Card, kMaxDeck + 8> unseen;
  int n = 0;
  static_assert(sizeof(Card) == 1 && std::is_trivially_copyable_v<Card>);
  static_assert(kMaxSuitedCopies <= 4 && kMaxJokers <= 8 && kJoker == kKinds - 1);
  for (int kind = 0; kind < kJoker; ++kind) {
    const std::uint32_t four = static_cast<std::uint32_t>(kind) * 0x01010101u;
    std::memcpy(static_cast<void*>(&unseen[static_cast<std::size_t>(n)]), &four, sizeof four);
    n += std::clamp(count[kind], 0, kMaxSuitedCopies);  // 0..decks in any consistent state
  }
  const std::uint64_t eight = std::uint64_t{kJoker} * 0x0101010101010101ULL;
  std::memcpy(static_cast<void*>(&unseen[static_cast<std::size_t>(n)]), &eight, sizeof eight);
  n += std::clamp(count[kJoker], 0, kMaxJokers);
  // 2. Shuffled like a deal.
  Rng rng(seed);
  rng.shuffle(unseen.data(), n);
  // 3. Handed out: the other seats, the hidden packets, the stock.
  GameState s = v;
  hand_out(s, o, unseen.data());
  // 4. The seat to act T, seen from another seat, in the meld phase with one card it was not
  // seen to take: the only hidden hand a legal move depends on (docs/search.md).
  const int turn = v.turn;
  if (turn != player && v.phase == Phase::Meld && o.hand_sizes[static_cast<std::size_t>(turn)] == 1 &&
      v.hands[turn].empty()) [[unlikely]]
    give_a_playable_card(s, o, rules, unseen.data(), n, rng);
  return s;
}

GameState determinize_seat(const GameState& s, const Rules& rules, int seat, std::uint64_t seed,
                           std::string& fault) {
  GameState out = determinize(observe(s, rules, seat), rules, seed);
  if (seat != s.turn) {
    if (const std::string why = validate_state(out, rules); !why.empty())
      fault = "determinize(" + std::to_string(seat) + ", " + std::to_string(seed) +
              "): internal error, the cards dealt from seat " + std::to_string(seat) +
              "'s view give a position that could not arise in play (" + why + ")";
  }
  return out;
}

}  // namespace burraco
