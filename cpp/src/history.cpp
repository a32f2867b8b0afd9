// burraco — a hand being played and its history (burraco/history.hpp).
#include "burraco/history.hpp"

#include <algorithm>
#include <array>


namespace burraco {

void Game::new_batch() {
  auto batch = std::make_shared<HistoryBatch>();
  batch->depth = static_cast<std::uint32_t>(move_count());
  batch->moves.reserve(64);
  batch->parent = std::move(head_);
  head_ = std::move(batch);
}

Move Game::pop() {
  if (head_.use_count() > 1) head_ = std::make_shared<HistoryBatch>(*head_);  // copy on write
  HistoryBatch& batch = *head_;
  const Move last = batch.moves.back();
  batch.moves.pop_back();
  const std::size_t k = batch.moves.size();  // index of the undone move in the batch
  const std::size_t from = k / kSnapshotEvery * kSnapshotEvery;
  state = *batch.before[k / kSnapshotEvery];
  for (std::size_t i = from; i < k; ++i) apply_move(state, *rules, batch.moves[i]);
  if (k == from) batch.before.pop_back();
  if (batch.moves.empty()) {
    std::shared_ptr<HistoryBatch> parent = std::move(batch.parent);
    head_ = std::move(parent);
  }
  return last;
}

bool Game::push_lay_offs(std::uint32_t index, std::vector<Card> cards) {
  if (cards.empty()) return true;
  std::sort(cards.begin(), cards.end());
  for (std::size_t i = 0; i < cards.size(); ++i) {
    if (i && cards[i] == cards[i - 1]) continue;
    Move m;
    m.kind = MoveKind::Add;
    m.index = index;
    m.card = cards[i];
    if (!push(m).ok()) continue;
    std::vector<Card> rest = cards;
    rest.erase(rest.begin() + static_cast<long>(i));
    if (push_lay_offs(index, std::move(rest))) return true;
    pop();
  }
  return false;
}

void Game::truncate(std::size_t count, const GameState& s) {
  while (head_ && head_->depth >= count) {
    std::shared_ptr<HistoryBatch> parent = head_->parent;
    head_ = std::move(parent);
  }
  if (head_ && move_count() > count) {
    if (head_.use_count() > 1) head_ = std::make_shared<HistoryBatch>(*head_);  // copy on write
    HistoryBatch& b = *head_;
    const std::size_t keep = count - b.depth;
    b.moves.resize(keep);
    b.before.resize((keep + kSnapshotEvery - 1) / kSnapshotEvery);
  }
  state = s;
}

std::vector<Move> Game::moves() const {
  std::vector<Move> out(move_count());
  for (const HistoryBatch* b = head_.get(); b; b = b->parent.get())
    std::copy(b->moves.begin(), b->moves.end(), out.begin() + b->depth);
  return out;
}

const GameState& Game::start() const {
  const HistoryBatch* b = head_.get();
  if (!b) return state;
  while (b->parent) b = b->parent.get();
  return *b->before.front();
}

bool operator==(const Game& a, const Game& b) {
  return a.move_count() == b.move_count() && a.rules && b.rules &&
         state_string(a.state, *a.rules) == state_string(b.state, *b.rules) &&
         a.moves() == b.moves();
}

bool is_full_pack(const Rules& rules, const Card* cards, int n) {
  std::array<Card, kMaxDeck> full{};
  const int size = unshuffled_deck(rules, full);
  if (n != size) return false;
  std::array<int, kKinds> want{}, have{};
  for (int i = 0; i < n; ++i) {
    ++want[full[i].index];
    ++have[cards[i].index];
  }
  return want == have;
}

std::string deal_deck(const Rules& rules, const std::vector<Card>& cards, int first_player,
                      const std::array<std::int32_t, kSideSlots>& scores, GameState& out) {
  const int n = rules.total_cards();
  if (!is_full_pack(rules, cards.data(), static_cast<int>(cards.size())))
    return "expected the " + std::to_string(n) + " cards of these rules' deck, each once, got " +
           std::to_string(cards.size()) + " cards that do not match";
  std::array<Card, kMaxDeck> order{};
  std::copy(cards.begin(), cards.end(), order.begin());
  out = deal(rules, order, first_player, scores);
  return "";
}

bool parse_lay_offs(std::string_view text, int decks, std::uint32_t& index, std::vector<Card>& cards) {
  Move m;
  if (parse_move(text, m, decks)) return false;
  const std::vector<std::string_view> words = split_words(text);
  if (words.size() <= 3 ||
      !parse_move(std::string(words[0]) + " " + std::string(words[1]) + " " + std::string(words[2]),
                  m, decks) ||
      m.kind != MoveKind::Add)
    return false;
  cards.clear();
  for (std::size_t k = 2; k < words.size(); ++k) {
    const auto c = parse_card(words[k]);
    if (!c) return false;
    cards.push_back(*c);
  }
  index = m.index;
  return true;
}

std::optional<std::string_view> parse_card_words(std::string_view text, std::vector<Card>& out) {
  for (std::string_view word : split_words(text)) {
    const auto c = parse_card(word);
    if (!c) return word;
    out.push_back(*c);
  }
  return std::nullopt;
}

}  // namespace burraco
