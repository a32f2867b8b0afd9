// The state string of docs/game.md, version 1: formatting, parsing and invariant checks.
#include <charconv>
#include <string>
#include <vector>

#include "burraco/game.hpp"
#include "burraco/validate.hpp"

namespace burraco {

namespace {


std::string compact(const std::string& layout_text) {
  std::string out;
  for (char c : layout_text)
    if (c != ' ') out += c;
  return out;
}

}  // namespace

std::string cards_field(CardSet set) {
  if (set.empty()) return "-";
  std::string out;
  set.for_each([&](Card c) { out += card_name(c); });
  return out;
}

std::string sequence_field(const Card* cards, int n) {
  if (n == 0) return "-";
  std::string out;
  for (int i = 0; i < n; ++i) out += card_name(cards[i]);
  return out;
}

std::string state_string(const GameState& s, const Rules& rules) {
  const int slots = side_slots(rules);
  std::string out = "v=1;rules=" + rules_text(rules);
  out += ";seed=" + (s.has_seed ? std::to_string(s.seed) : std::string("-"));
  out += ";first=" + std::to_string(s.first);
  out += ";scores=";
  const int score_count = rules.score_count();
  for (int i = 0; i < score_count; ++i) out += (i ? "," : "") + std::to_string(s.scores[i]);
  out += ";turn=" + std::to_string(s.turn);
  out += ";phase=";
  out += s.phase == Phase::Draw ? "draw" : s.phase == Phase::Meld ? "meld" : "over";
  out += ";hands=";
  for (int p = 0; p < s.players; ++p) out += (p ? "/" : "") + cards_field(s.hands[p]);
  out += ";known=";
  for (int p = 0; p < s.players; ++p) out += (p ? "/" : "") + cards_field(s.known[p]);
  out += ";stock=" + sequence_field(s.stock.data() + s.stock_pos, s.stock_size());
  out += ";pile=" + cards_field(s.pile);
  out += ";top=" + (s.top.valid() ? card_name(s.top) : std::string("-"));
  out += ";melds=";
  for (int side = 0; side < slots; ++side) {
    if (side) out += '/';
    std::string list;
    for (int i = 0; i < s.meld_count; ++i) {
      if (s.meld_side[i] != side) continue;
      if (!list.empty()) list += '+';
      list += compact(layout(s.melds[i]));
      if (s.players == 3) list += "@" + std::to_string(i);
    }
    out += list.empty() ? "-" : list;
  }
  out += ";pozzetti=";
  for (int k = 0; k < rules.packets(); ++k) {
    const Packet& p = s.packets[k];
    if (k) out += '/';
    switch (p.status) {
      case PacketStatus::Untaken: out += "u:" + sequence_field(p.cards.data(), p.size); break;
      case PacketStatus::FaceDown:
        out += "f" + std::to_string(p.owner) + ":" + sequence_field(p.cards.data(), p.size);
        break;
      case PacketStatus::Seen:
        out += "s" + std::to_string(p.owner) + ":" + sequence_field(p.cards.data(), p.size);
        break;
      case PacketStatus::InHand: out += "h" + std::to_string(p.owner) + ":-"; break;
      case PacketStatus::Stock: out += "x:-"; break;
    }
  }
  out += ";hold=";
  out += s.hold.valid() ? card_name(s.hold) : "-";
  out += ";opened=";
  for (int i = 0; i < slots; ++i) out += (i ? "," : "") + std::string(s.opened[i] ? "1" : "0");
  out += ";need=";
  for (int i = 0; i < slots; ++i) out += (i ? "," : "") + std::to_string(s.need[i]);
  out += ";deadlock=" + std::to_string(s.deadlock);
  std::string flags;
  if (s.flags & kTookSinglePile) flags += 'p';
  if (s.flags & kPutDown) flags += 'd';
  if (s.flags & kLastTurn) flags += 'l';
  if (s.flags & kForceDraw) flags += 'f';
  if (s.flags & kFirstDraw) flags += 'b';
  out += ";turnflags=" + (flags.empty() ? std::string("-") : flags);
  out += ";split=" + (s.split >= 0 ? std::to_string(s.split) : std::string("-"));
  out += ";end=";
  switch (s.end) {
    case EndReason::None: out += "-"; break;
    case EndReason::Closed: out += "closed:" + std::to_string(s.closing_side); break;
    case EndReason::StockExhausted: out += "stock_exhausted"; break;
    case EndReason::Deadlock: out += "deadlock"; break;
  }
  out += ";cut=" + (s.cut_side >= 0 ? std::to_string(s.cut_side) : std::string("-"));
  return out;
}

namespace {

std::vector<std::string_view> split(std::string_view text, char sep) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i)
    if (i == text.size() || text[i] == sep) {
      parts.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  return parts;
}

bool parse_number(std::string_view text, long long& out) {
  if (text.empty()) return false;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && ptr == text.data() + text.size();
}

// A card list written as concatenated 2-character names ("-" when empty).
bool parse_cards(std::string_view text, std::vector<Card>& out) {
  out.clear();
  if (text == "-") return true;
  if (text.empty() || text.size() % 2) return false;
  for (std::size_t i = 0; i < text.size(); i += 2) {
    const auto c = parse_card(text.substr(i, 2));
    if (!c) return false;
    out.push_back(*c);
  }
  return true;
}

// A card list of at most as many copies of a kind as the rules' pack holds.
bool parse_set(std::string_view text, const Rules& rules, CardSet& out) {
  std::vector<Card> cards;
  if (!parse_cards(text, cards)) return false;
  out = CardSet{};
  for (Card c : cards)
    if (!out.add(c)) return false;
  return out.within(rules.decks, 2 * rules.decks);
}

// "Jk(=4d)5d6d" -> "Jk(=4d) 5d 6d".
std::string spaced_layout(std::string_view text) {
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    if (!out.empty()) out += ' ';
    std::size_t j = std::min(text.size(), i + 2);
    if (j < text.size() && text[j] == '(') {
      const std::size_t close = text.find(')', j);
      j = close == std::string_view::npos ? text.size() : close + 1;
    }
    out += text.substr(i, j - i);
    i = j;
  }
  return out;
}

}  // namespace

bool parse_state_string(std::string_view text, GameState& result, Rules& rules_out,
                        std::string& error) {
  static const char* kFields[] = {"v",        "rules",  "seed",      "first", "scores",
                                  "turn",     "phase",  "hands",     "known", "stock",
                                  "pile",     "top",    "melds",     "pozzetti", "hold",
                                  "opened",   "need",   "deadlock",  "turnflags", "split",
                                  "end",      "cut"};
  const auto fields = split(text, ';');
  if (fields.size() != std::size(kFields)) {
    error = "expected " + std::to_string(std::size(kFields)) + " ';'-separated fields";
    return false;
  }
  std::vector<std::string_view> values;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const std::size_t eq = fields[i].find('=');
    if (eq == std::string_view::npos || fields[i].substr(0, eq) != kFields[i]) {
      error = "field " + std::to_string(i + 1) + " should be '" + kFields[i] + "=...'";
      return false;
    }
    values.push_back(fields[i].substr(eq + 1));
  }
  auto fail = [&](const char* field) {
    error = std::string("bad field '") + field + "'";
    return false;
  };
  if (values[0] != "1") return fail("v");
  Rules rules;
  if (!parse_rules_text(values[1], rules, error)) return false;
  GameState s;
  s.players = static_cast<std::uint8_t>(rules.players);
  const int n = rules.players, slots = side_slots(rules);
  long long v = 0;
  if (values[2] != "-") {
    unsigned long long seed = 0;
    auto [ptr, ec] = std::from_chars(values[2].data(), values[2].data() + values[2].size(), seed);
    if (ec != std::errc() || ptr != values[2].data() + values[2].size()) return fail("seed");
    s.has_seed = true;
    s.seed = seed;
  }
  if (!parse_number(values[3], v) || v < 0 || v >= n) return fail("first");
  s.first = static_cast<std::uint8_t>(v);
  {
    const auto parts = split(values[4], ',');
    if (static_cast<int>(parts.size()) != rules.score_count()) return fail("scores");
    for (std::size_t i = 0; i < parts.size(); ++i) {
      if (!parse_number(parts[i], v) || v < -10000000 || v > 10000000) return fail("scores");
      s.scores[i] = static_cast<std::int32_t>(v);
    }
  }
  if (!parse_number(values[5], v) || v < 0 || v >= n) return fail("turn");
  s.turn = static_cast<std::uint8_t>(v);
  if (values[6] == "draw") s.phase = Phase::Draw;
  else if (values[6] == "meld") s.phase = Phase::Meld;
  else if (values[6] == "over") s.phase = Phase::Over;
  else return fail("phase");
  for (int f = 7; f <= 8; ++f) {
    const auto parts = split(values[f], '/');
    if (static_cast<int>(parts.size()) != n) return fail(kFields[f]);
    for (int p = 0; p < n; ++p)
      if (!parse_set(parts[p], rules, f == 7 ? s.hands[p] : s.known[p])) return fail(kFields[f]);
  }
  for (int p = 0; p < n; ++p)
    if (!s.known[p].subset_of(s.hands[p])) return fail("known");
  std::vector<Card> cards;
  if (!parse_cards(values[9], cards) || static_cast<int>(cards.size()) > kMaxDeck) return fail("stock");
  for (std::size_t i = 0; i < cards.size(); ++i) s.stock[i] = cards[i];
  s.stock_pos = 0;
  s.stock_end = static_cast<std::uint8_t>(cards.size());
  if (!parse_cards(values[10], cards)) return fail("pile");
  for (Card c : cards)
    if (!s.pile.add(c)) return fail("pile");
  if (!s.pile.within(rules.decks, 2 * rules.decks)) return fail("pile");
  s.pile_size = static_cast<std::uint8_t>(cards.size());
  if (values[11] != "-") {
    const auto c = parse_card(values[11]);
    if (!c || !s.pile.count(*c) || values[11].size() != 2) return fail("top");
    s.top = *c;
  } else if (s.pile_size) {
    return fail("top");
  }
  {
    const auto parts = split(values[12], '/');
    if (static_cast<int>(parts.size()) != slots) return fail("melds");
    std::array<bool, kMaxMelds> used{};
    for (int side = 0; side < slots; ++side) {
      if (parts[side] == "-") continue;
      for (std::string_view item : split(parts[side], '+')) {
        int at = s.meld_count;
        if (n == 3) {
          const std::size_t atsign = item.rfind('@');
          if (atsign == std::string_view::npos || !parse_number(item.substr(atsign + 1), v) ||
              v < 0 || v >= kMaxMelds || used[v])
            return fail("melds");
          at = static_cast<int>(v);
          item = item.substr(0, atsign);
        }
        if (at >= kMaxMelds) return fail("melds");
        const MeldResult r = parse_layout(spaced_layout(item), rules);
        if (!r.ok()) return fail("melds");
        used[at] = true;
        s.melds[at] = r.meld;
        s.meld_side[at] = static_cast<std::uint8_t>(side);
        s.meld_count = static_cast<std::uint8_t>(std::max<int>(s.meld_count, at + 1));
      }
    }
    for (int i = 0; i < s.meld_count; ++i)
      if (!used[i]) return fail("melds");  // creation numbers must be 0..k-1
  }
  {
    const auto parts = split(values[13], '/');
    if (static_cast<int>(parts.size()) != rules.packets()) return fail("pozzetti");
    for (int k = 0; k < rules.packets(); ++k) {
      const std::string_view item = parts[k];
      const std::size_t colon = item.find(':');
      if (colon == std::string_view::npos || colon == 0) return fail("pozzetti");
      const char status = item[0];
      Packet& p = s.packets[k];
      if (status == 'f' || status == 's' || status == 'h') {
        if (!parse_number(item.substr(1, colon - 1), v) || v < 0 || v >= n) return fail("pozzetti");
        p.owner = static_cast<std::int8_t>(v);
      } else if (colon != 1) {
        return fail("pozzetti");
      }
      const std::string_view list = item.substr(colon + 1);
      if (status == 'u' || status == 'f' || status == 's') {
        if (!parse_cards(list, cards) || cards.empty() || static_cast<int>(cards.size()) > kMaxPacket)
          return fail("pozzetti");
        for (std::size_t i = 0; i < cards.size(); ++i) p.cards[i] = cards[i];
        p.size = static_cast<std::uint8_t>(cards.size());
        p.status = status == 'u' ? PacketStatus::Untaken
                   : status == 'f' ? PacketStatus::FaceDown : PacketStatus::Seen;
      } else if ((status == 'h' || status == 'x') && list == "-") {
        p.status = status == 'h' ? PacketStatus::InHand : PacketStatus::Stock;
        p.size = static_cast<std::uint8_t>(rules.pozzetto_sizes[k]);
      } else {
        return fail("pozzetti");
      }
    }
  }
  if (values[14] != "-") {
    const auto c = parse_card(values[14]);
    if (!c || values[14].size() != 2) return fail("hold");
    s.hold = *c;
  }
  for (int f = 15; f <= 16; ++f) {
    const auto parts = split(values[f], ',');
    if (static_cast<int>(parts.size()) != slots) return fail(kFields[f]);
    for (int i = 0; i < slots; ++i) {
      if (f == 15) {
        if (parts[i] != "0" && parts[i] != "1") return fail("opened");
        s.opened[i] = parts[i] == "1";
      } else {
        if (!parse_number(parts[i], v) || v < 0 || v > kMaxOpeningNeed) return fail("need");
        s.need[i] = static_cast<std::int32_t>(v);
      }
    }
  }
  if (!parse_number(values[17], v) || v < 0 || v > n) return fail("deadlock");
  s.deadlock = static_cast<std::uint8_t>(v);
  if (values[18] != "-") {
    const std::string_view order = "pdlfb";
    std::size_t last = 0;
    for (char c : values[18]) {
      const std::size_t at = order.find(c);
      if (at == std::string_view::npos || at < last || (s.flags & (1u << at))) return fail("turnflags");
      last = at;
      s.flags |= static_cast<std::uint8_t>(1u << at);
    }
  }
  if (values[19] != "-") {
    if (n != 3 || !parse_number(values[19], v) || v < 0 || v >= 3) return fail("split");
    s.split = static_cast<std::int8_t>(v);
  }
  if (values[20] == "-") s.end = EndReason::None;
  else if (values[20] == "stock_exhausted") s.end = EndReason::StockExhausted;
  else if (values[20] == "deadlock") s.end = EndReason::Deadlock;
  else if (values[20].substr(0, 7) == "closed:" && parse_number(values[20].substr(7), v) && v >= 0 &&
           v < slots) {
    s.end = EndReason::Closed;
    s.closing_side = static_cast<std::int8_t>(v);
  } else {
    return fail("end");
  }
  if ((s.end != EndReason::None) != (s.phase == Phase::Over)) return fail("end");
  if (values[21] != "-") {
    if (!parse_number(values[21], v) || v < 0 || v >= slots) return fail("cut");
    s.cut_side = static_cast<std::int8_t>(v);
  }
  // Only the canonical form is accepted (one string per state).
  if (state_string(s, rules) != text) {
    error = "not in canonical form (compare with Game.from_state_string(...).state_string())";
    return false;
  }
  // Only a position that could arise in play (docs/game.md "Invariants").
  const std::string why = validate_state(s, rules);
  if (!why.empty()) {
    error = "not a position of play: " + why;
    return false;
  }
  result = s;
  rules_out = rules;
  return true;
}

}  // namespace burraco
