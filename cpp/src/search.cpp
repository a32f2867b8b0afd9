#include "burraco/search.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace burraco {

// ---- observations -------------------------------------------------------------------------------

bool packet_visible(const GameState& s, int player, int k) {
  const Packet& p = s.packets[static_cast<std::size_t>(k)];
  return p.status == PacketStatus::Seen && p.owner == player;
}

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

// ---- policy loops: errors and the positions of a turn --------------------------------------------

void throw_no_legal_move(const GameState& s, const Rules& rules) {
  throw StateError("the hand is not over but has no legal move: state '" + state_string(s, rules) +
                   "'");
}

void throw_move_cap(const GameState& s, const Rules& rules, int cap) {
  throw StateError("the hand is not over after " + std::to_string(cap) + " moves (MAX_HAND_MOVES" +
                   (cap == kMaxHandMoves ? std::string() : " lowered to " + std::to_string(cap) + " by a test") +
                   "): state '" + state_string(s, rules) + "'");
}

std::string policy_index_text(const std::string& name, const std::string& index, std::size_t moves) {
  return "policy '" + name + "' returned " + index + ": expected the index of one of its " +
         std::to_string(moves) +
         (moves == 1 ? " move (0)" : " moves (0 to " + std::to_string(moves - 1) + ")");
}

void throw_policy_index(const PolicyHook& hook, std::int64_t index, std::size_t moves) {
  throw PolicyError(policy_index_text(hook.name(), std::to_string(index), moves));
}

const std::vector<Move>& TurnMemory::filter(const GameState& s, const Rules& rules,
                                            const std::vector<Move>& legal) {
  if (s.phase != Phase::Meld || s.opened[side_of(s, rules, s.turn)]) return legal;
  // The moves that put down every card of the hand: with one card its lay-offs, with three or
  // more a meld of the whole hand; with two, none (a meld has three cards or more). Once a short
  // opening has brought the turn's cards back, the hand and table are those of an earlier
  // position again, and any meld or lay-off may retrace a step of the turn: all are tried.
  const CardSet hand = s.hands[s.turn];
  const int n = hand.size();
  const bool retrace = (s.flags & kPutDown) && came_back(s, rules);
  if (!retrace && (n == 0 || n == 2)) return legal;
  auto risky = [&](const Move& m) {
    if (retrace) return m.kind == MoveKind::Meld || m.kind == MoveKind::Add;
    return n == 1 ? m.kind == MoveKind::Add : m.kind == MoveKind::Meld && m.cards == hand;
  };
  const auto first = std::find_if(legal.begin(), legal.end(), risky);
  if (first == legal.end()) return legal;
  candidates_.assign(legal.begin(), first);
  for (auto it = first; it != legal.end(); ++it) {
    if (risky(*it)) {
      GameState t = s;
      apply_move(t, rules, *it);
      if (repeats(s, t, rules)) continue;
    }
    candidates_.push_back(*it);
  }
  return candidates_.empty() || candidates_.size() == legal.size() ? legal : candidates_;
}

// Did a meld or lay-off of this turn leave the hand with more cards than it had less the cards put
// down (a short opening's return)? Only known when the turn is kept: without a meld or lay-off
// yet, nothing can have come back. When the kept moves are melds and lay-offs only (a policy loop
// keeps the turn from its first meld), the hand of `s` is compared with the start's less the cards
// put down, with no position made; otherwise (a turn read from a history, its draw included) the
// positions are made and each meld or lay-off is checked.
bool TurnMemory::came_back(const GameState& s, const Rules& rules) {
  if (!kept_) return false;
  int put = 0;
  bool simple = true;
  for (const Move& m : moves_) {
    if (m.kind == MoveKind::Meld) {
      put += m.cards.size();
    } else if (m.kind == MoveKind::Add) {
      put += 1;
    } else {
      simple = false;
      break;
    }
  }
  if (simple) return s.hands[s.turn].size() != start_.hands[start_.turn].size() - put;
  materialize(rules);
  for (std::size_t i = 0; i < moves_.size(); ++i) {
    const Move& m = moves_[i];
    if (m.kind != MoveKind::Meld && m.kind != MoveKind::Add) continue;
    const GameState& before = positions_[i];
    const int cards = m.kind == MoveKind::Meld ? m.cards.size() : 1;
    if (positions_[i + 1].hands[before.turn].size() != before.hands[before.turn].size() - cards)
      return true;
  }
  return false;
}

void TurnMemory::materialize(const Rules& rules) {
  if (positions_.empty()) positions_.push_back(start_);
  while (positions_.size() <= moves_.size()) {
    GameState next = positions_.back();
    apply_move(next, rules, moves_[positions_.size() - 1]);
    positions_.push_back(next);
  }
}

// Is `after` one of the positions of this turn: start_ and the positions after moves_ when kept,
// else `now` alone (no meld or lay-off yet: the other position of the turn is the draw phase's,
// and `after` is in the meld phase or over)? Compared by their state strings, after a few fields
// the state string writes in full.
bool TurnMemory::repeats(const GameState& now, const GameState& after, const Rules& rules) {
  if (!kept_) return after.phase == now.phase && state_string(after, rules) == state_string(now, rules);
  materialize(rules);
  std::string text;
  for (std::size_t i = 0; i < positions_.size(); ++i) {
    const GameState& p = positions_[i];
    if (p.phase != after.phase || p.turn != after.turn || p.flags != after.flags ||
        p.meld_count != after.meld_count || p.hands[p.turn] != after.hands[after.turn])
      continue;  // a field the state string writes in full differs: not the same position
    while (strings_.size() <= i) strings_.push_back(state_string(positions_[strings_.size()], rules));
    if (text.empty()) text = state_string(after, rules);
    if (strings_[i] == text) return true;
  }
  return false;
}

// ---- the greedy policy --------------------------------------------------------------------------

namespace {

// Per rank (A=1 .. K=13): the lane bits (bit r for rank r) of the ranks at distance 1 or 2 in a
// suit, the ace both below the two and above the king, the twos left out (they are wild).
constexpr std::array<unsigned, kRanks + 1> kNeighbourRanks = [] {
  std::array<unsigned, kRanks + 1> table{};
  for (int rank = 1; rank <= kRanks; ++rank)
    for (int r = 1; r <= kRanks; ++r) {
      if (r == kTwo) continue;
      int d = r > rank ? r - rank : rank - r;
      if (r == kAce) d = std::min(d, 14 - rank);
      if (rank == kAce) d = std::min(d, 14 - r);
      if (d == 1 || d == 2) table[static_cast<std::size_t>(rank)] |= 1u << r;
    }
  return table;
}();

}  // namespace

// docs/search.md: 1000 for a wild; else 10 per other card of the rank, 1 per other card of the
// suit at distance 1 or 2 (the ace both low and high). Read off the planes: the rank's column
// and the suit's lane under the neighbour mask.
int greedy_usefulness(CardSet hand, Card c) {
  if (c.is_wild()) return 1000;
  CardSet others = hand;
  others.remove(c);
  const int rank = c.rank(), suit = c.suit();
  const std::uint64_t column = CardSet::rank_column(rank);
  const unsigned near = kNeighbourRanks[static_cast<std::size_t>(rank)];
  return 10 * others.count_in(column) + others.count_in(std::uint64_t{near} << (16 * suit));
}

namespace {

// hand_usefulness for a hand with a third copy of some kind (three decks): the same sums, card
// by card.
int hand_usefulness_by_counts(CardSet hand) {
  std::array<std::array<int, 15>, kSuits> count{};  // [suit][slot], the ace also in slot 14
  for (int suit = 0; suit < kSuits; ++suit)
    for (int rank = kAce; rank <= kKing; ++rank) {
      if (rank == kTwo) continue;
      const int c = hand.count(Card::suited(suit, rank));
      count[static_cast<std::size_t>(suit)][static_cast<std::size_t>(rank)] = c;
      if (rank == kAce) count[static_cast<std::size_t>(suit)][14] = c;
    }
  int same_rank = 0, near = 0;
  for (int rank = kAce; rank <= kKing; ++rank) {
    int total = 0;
    for (int suit = 0; suit < kSuits; ++suit) total += count[static_cast<std::size_t>(suit)][static_cast<std::size_t>(rank)];
    same_rank += total * (total - 1);
  }
  for (const auto& lane : count)
    for (int slot = 1; slot <= 14; ++slot)
      for (int d = 1; d <= 2 && slot + d <= 14; ++d)
        near += lane[static_cast<std::size_t>(slot)] * lane[static_cast<std::size_t>(slot + d)];
  return 10 * same_rank + 2 * near;
}

}  // namespace

// The rank part: every ordered pair of distinct cards of one natural rank counts 10; a card is a
// slot (plane, suit), and the pairs of slots of a rank are the common bits of the planes turned
// by 0 to 3 lanes, less each slot with itself. The suit part: every ordered pair of cards of one
// suit at distance 1 or 2 counts 1; with the twos taken out and the ace copied above the king,
// those pairs are the bits one or two apart in a lane (a shift moves a lane's lowest bits only
// onto bits 0 and 15 of the lane below, which no rank uses), counted plane by plane:
// cnt(r) * cnt(r + d) is the sum over the planes a, b of [r in a] * [r + d in b].
// Of the rank part's turns, the one by 0 lanes counts each slot with itself (taken off again) and
// the pairs across the planes; turning the planes by 3 lanes counts what turning them by 1 lane
// counts, with the planes swapped (rotr(x, 48) & y is rotr(y, 16) & x turned by 1 lane); by 2 lanes,
// plane one against plane two counts what plane two against plane one does.
int hand_usefulness(CardSet hand) {
  constexpr std::uint64_t ranks = 0x3FFE'3FFE'3FFE'3FFEULL & ~CardSet::rank_column(kTwo);
  constexpr std::uint64_t aces = CardSet::rank_column(kAce);
  if (hand.three() & ranks) [[unlikely]] return hand_usefulness_by_counts(hand);
  const std::uint64_t first = hand.one() & ranks, second = hand.two() & ranks;
  const std::uint64_t first_1 = std::rotr(first, 16), second_1 = std::rotr(second, 16);
  const std::uint64_t first_2 = std::rotr(first, 32), second_2 = std::rotr(second, 32);
  const int same_rank =
      2 * std::popcount(first & second) +
      2 * (std::popcount(first & first_1) + std::popcount(first & second_1) +
           std::popcount(second & first_1) + std::popcount(second & second_1)) +
      std::popcount(first & first_2) + std::popcount(second & second_2) +
      2 * std::popcount(first & second_2);
  const std::uint64_t one = (hand.one() & ranks) | ((hand.one() & aces) << 13);
  const std::uint64_t two = (hand.two() & ranks) | ((hand.two() & aces) << 13);
  int near = 0;
  for (const std::uint64_t a : {one, two})
    for (const std::uint64_t b : {one, two})
      near += std::popcount(a & (b >> 1)) + std::popcount(a & (b >> 2));
  return 10 * same_rank + 2 * near;
}

namespace {

// docs/search.md "greedy": never while the side has not met an opening minimum (a hand that cannot
// open would only grow); else the pile pays when it holds at least four cards, or when its top card
// is natural and two other naturals of the hand make three of a kind with it, or three in a row of
// its suit (the ace low or high; twos are wild, so never in the row). A pattern of the cards
// alone, so a native port can follow it exactly.
bool pile_pays(const GameState& s, const Rules& rules) {
  const Card top = s.top;
  if (rules.opening_steps > 0 && !s.opened[side_of(s, rules, s.turn)]) return false;
  if (s.pile_size >= 4) return true;
  if (!top.valid() || top.is_wild()) return false;
  const CardSet hand = s.hands[s.turn];
  const int rank = top.rank(), suit = top.suit();
  int same_rank = 0;
  for (int x = 0; x < kSuits; ++x) same_rank += hand.count(Card::suited(x, rank));
  if (same_rank >= 2) return true;
  // Slots 1..14 of the suit (the ace at 1 and 14); twos are wild, so slot 2 never counts.
  auto has = [&](int slot) {
    if (slot < 1 || slot > 14 || slot == kTwo) return false;
    return hand.count(Card::suited(suit, slot == 14 ? kAce : slot)) > 0;
  };
  const int slots[2] = {rank, rank == kAce ? 14 : rank};
  for (const int t : slots)
    if ((has(t - 2) && has(t - 1)) || (has(t - 1) && has(t + 1)) || (has(t + 1) && has(t + 2)))
      return true;
  return false;
}

}  // namespace

std::size_t greedy_choice(const GameState& s, const Rules& rules, const std::vector<Move>& legal) {
  // `legal` is the policy's candidates (TurnMemory::candidates): the legal moves, or fewer.
  if (s.phase == Phase::Draw) {
    for (std::size_t i = 0; i < legal.size(); ++i)
      if (legal[i].kind == MoveKind::Keep) return i;
    for (std::size_t i = 0; i < legal.size(); ++i)
      if (legal[i].kind == MoveKind::Pile && pile_pays(s, rules)) return i;
    for (std::size_t i = 0; i < legal.size(); ++i)
      if (legal[i].kind == MoveKind::Draw) return i;
    return 0;
  }
  const CardSet hand = s.hands[s.turn];
  const int side = side_of(s, rules, s.turn);
  // A meld or lay-off that empties the hand of a side whose opening falls short only brings the
  // turn's cards back (RULES C.3); greedy never plays one, or it would play it forever.
  auto returns_cards = [&](const Move& m) {
    const int put = m.kind == MoveKind::Meld ? m.cards.size() : 1;
    if (rules.opening_steps == 0 || s.opened[side] || put < hand.size()) return false;
    GameState t = s;
    apply_move(t, rules, m);
    return t.need[side] != s.need[side];
  };
  std::size_t best = legal.size();
  for (std::size_t i = 0; i < legal.size(); ++i)
    if (legal[i].kind == MoveKind::Meld &&
        (best == legal.size() || legal[i].cards.size() > legal[best].cards.size()) &&
        !returns_cards(legal[i]))
      best = i;
  if (best < legal.size()) return best;
  for (std::size_t i = 0; i < legal.size(); ++i)
    if (legal[i].kind == MoveKind::Add && !legal[i].card.is_wild() && !returns_cards(legal[i]))
      return i;
  if (hand.size() <= 2)
    for (std::size_t i = 0; i < legal.size(); ++i)
      if (legal[i].kind == MoveKind::Add && !returns_cards(legal[i])) return i;
  int best_use = 0, best_points = 0;
  for (std::size_t i = 0; i < legal.size(); ++i) {
    if (legal[i].kind != MoveKind::Discard) continue;
    const int use = greedy_usefulness(hand, legal[i].card);
    const int points = rules.card_points(legal[i].card);
    if (best == legal.size() || use < best_use || (use == best_use && points > best_points)) {
      best = i;
      best_use = use;
      best_points = points;
    }
  }
  return best < legal.size() ? best : 0;
}

// ---- batches ------------------------------------------------------------------------------------

std::uint64_t batch_seed(std::uint64_t seed, std::uint64_t i) {
  std::uint64_t state = seed + i * 0x9E3779B97F4A7C15ULL;
  return splitmix64(state);
}

PlayoutRow play_hand(const Rules& rules, std::uint64_t hand_seed, Policy policy,
                     std::vector<Move>& buffer) {
  PlayoutRow row;
  row.seed = hand_seed;
  GameState s = deal_seeded(rules, hand_seed, 0, {});
  try {
    row.moves = playout(s, rules, policy, hand_seed, buffer, [](const GameState&, const Move&) {});
  } catch (const StateError& e) {
    throw StateError("hand seed " + std::to_string(hand_seed) + ": " + e.what());
  }
  const HandResult r = score_hand(s, rules);
  row.end_reason = static_cast<std::uint8_t>(r.reason);
  if (s.players == 3) {
    for (int seat = 0; seat < 3; ++seat) row.scores[seat] = r.player_half_points[seat];
  } else {
    for (int k = 0; k < r.side_count && k < 3; ++k) row.scores[k] = r.sides[k].total;
  }
  return row;
}

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

}  // namespace burraco
