// burraco — a hand's game record as one line of JSON (burraco/record.hpp).
#include "burraco/record.hpp"

#include "burraco/game_text.hpp"

#include <optional>
#include <stdexcept>
#include <string_view>
#include <vector>

namespace burraco {

namespace {

// `text` as a JSON string, as json.dumps writes it. The engine's texts (rules text, state
// strings, notation) are ASCII; a byte outside ASCII would be a defect of the engine.
void json_string(std::string& out, std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  std::size_t plain = 0;  // the start of the characters not yet written, none of them escaped
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') continue;
    out.append(text.data() + plain, i - plain);
    plain = i + 1;
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        if (c >= 0x80) throw std::logic_error("a record text is not ASCII: " + std::string(text));
        out += "\\u00";
        out += kHex[c >> 4];
        out += kHex[c & 0xF];
    }
  }
  out.append(text.data() + plain, text.size() - plain);
  out += '"';
}

// rules_text(rules), kept for the last rules of this thread: every hand of a shard has the same.
const std::string& record_rules_text(const Rules& rules) {
  thread_local std::optional<Rules> last;
  thread_local std::string text;
  if (!last || !(*last == rules)) {
    text = rules_text(rules);
    last = rules;
  }
  return text;
}

// The deck order that deals `start` (a fresh deal), by docs/game.md "Deal" read backwards, as
// `_deck_of` in src/burraco/_records.py builds it; nullopt where that order has a gap (a hand
// or packet short of its cards, no face-up card), which a deal from a deck refuses.
std::optional<std::array<Card, kMaxDeck>> deck_of(const GameState& start, const Rules& rules, int& size) {
  std::array<Card, kMaxDeck> order{};
  int n = 0;
  const int players = start.players;
  std::array<std::vector<Card>, kMaxPlayers> hands;
  for (int seat = 0; seat < players; ++seat)
    start.hands[seat].for_each([&](Card c) { hands[seat].push_back(c); });
  for (int position = 0; position < rules.hand_size * players; ++position) {
    const auto& hand = hands[(start.first + position) % players];
    const auto index = static_cast<std::size_t>(position / players);
    if (index >= hand.size() || n >= kMaxDeck) return std::nullopt;
    order[n++] = hand[index];
  }
  std::array<std::vector<Card>, kPackets> packets;
  for (int k = 0; k < kPackets; ++k) {
    const Packet& p = start.packets[k];
    if (p.status == PacketStatus::Untaken || p.status == PacketStatus::FaceDown ||
        p.status == PacketStatus::Seen)
      p.set().for_each([&](Card c) { packets[k].push_back(c); });
  }
  std::array<int, kPackets> taken{};
  auto pending = [&] {
    for (int k = 0; k < kPackets; ++k)
      if (taken[k] < rules.pozzetto_sizes[k]) return true;
    return false;
  };
  while (pending()) {  // one card to each packet in turn
    for (int k = 0; k < kPackets; ++k) {
      if (taken[k] >= rules.pozzetto_sizes[k]) continue;
      const auto index = static_cast<std::size_t>(taken[k]++);
      if (index >= packets[k].size() || n >= kMaxDeck) return std::nullopt;
      order[n++] = packets[k][index];
    }
  }
  if (rules.initial_upcard) {
    if (!start.top.valid() || n >= kMaxDeck) return std::nullopt;
    order[n++] = start.top;
  }
  for (int i = start.stock_pos; i < start.stock_end; ++i) {
    if (n >= kMaxDeck) return std::nullopt;
    order[n++] = start.stock[i];
  }
  size = n;
  return order;
}

}  // namespace

std::string record_line(const Game& game) {
  const Rules& rules = *game.rules;
  const GameState& s = game.state;
  const GameState& start = game.start();
  const int units = rules.score_count();
  // How the hand was dealt: the seed, else a deck order, else the start's state string. A deal
  // is the start when their state strings are equal, which equal states are sure to be: the
  // strings are only written when the states differ (the cost of a seeded hand's line was
  // mostly its two state strings).
  std::string start_text;
  auto deals_start = [&](const GameState& dealt) {
    if (dealt == start) return true;
    if (start_text.empty()) start_text = state_string(start, rules);
    return state_string(dealt, rules) == start_text;
  };
  enum class Source { Seed, Deck, Start } source = Source::Start;
  std::array<Card, kMaxDeck> deck{};
  int deck_size = 0;
  if (s.has_seed && deals_start(deal_seeded(rules, s.seed, s.first, s.scores))) {
    source = Source::Seed;
  } else if (auto order = deck_of(start, rules, deck_size);
             order && is_full_pack(rules, order->data(), deck_size) &&
             deals_start(deal(rules, *order, s.first, s.scores))) {
    source = Source::Deck;
    deck = *order;
  }
  if (source == Source::Start && start_text.empty()) start_text = state_string(start, rules);
  std::string out;
  out.reserve(512 + 16 * game.move_count());
  out += "{\"format\":\"burraco-record\",\"version\":1,\"rules\":";
  json_string(out, record_rules_text(rules));
  out += ",\"first\":" + std::to_string(s.first) + ",\"scores\":[";
  for (int i = 0; i < units; ++i) out += (i ? "," : "") + std::to_string(s.scores[i]);
  out += "],\"seed\":";
  out += source == Source::Seed ? std::to_string(s.seed) : "null";
  out += ",\"deck\":";
  if (source == Source::Deck) {
    std::string text;
    for (int i = 0; i < deck_size; ++i) text += (i ? " " : "") + card_name(deck[i]);
    json_string(out, text);
  } else {
    out += "null";
  }
  out += ",\"start\":";
  if (source == Source::Start) json_string(out, start_text);
  else out += "null";
  out += ",\"moves\":[";
  bool first_move = true;
  for (const Move& m : game.moves()) {
    if (!first_move) out += ',';
    first_move = false;
    json_string(out, move_text(m));
  }
  out += "],\"result\":";
  if (!s.over()) return out + "null}";
  const HandResult r = score_hand(s, rules);
  out += "{\"end_reason\":";
  json_string(out, end_reason_text(r.reason));
  out += ",\"closing_side\":";
  out += r.closing_side >= 0 ? std::to_string(r.closing_side) : "null";
  out += ",\"sides\":[";
  for (int i = 0; i < r.side_count; ++i) {
    const SideResult& side = r.sides[i];
    const std::pair<const char*, int> fields[] = {
        {"side", side.side}, {"melds", side.melds},       {"bonuses", side.bonuses},
        {"closing", side.closing}, {"hand", side.hand}, {"pozzetto", side.pozzetto},
        {"cut", side.cut},   {"total", side.total}};
    out += i ? ",{" : "{";
    for (std::size_t f = 0; f < std::size(fields); ++f)
      out += std::string(f ? ",\"" : "\"") + fields[f].first + "\":" + std::to_string(fields[f].second);
    out += '}';
  }
  out += "],\"player_scores\":";
  if (s.players == 3) {
    out += '[';
    for (int q = 0; q < 3; ++q) out += (q ? "," : "") + std::to_string(r.player_half_points[q]);
    out += ']';
  } else {
    out += "null";
  }
  return out + "}}";
}

}  // namespace burraco
