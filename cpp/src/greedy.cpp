// The greedy policy (greedy.hpp, docs/search.md "greedy").
#include "burraco/greedy.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>

namespace burraco {

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

}  // namespace burraco
