// The state-string fuzz checks (fuzz_check.hpp).
#include "fuzz_check.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include <iterator>
#include <sstream>

#include "burraco/game.hpp"
#include "burraco/rng.hpp"
#include "burraco/rules.hpp"
#include "burraco/validate.hpp"

namespace burraco::fuzz {

namespace {

[[noreturn]] void broken(std::string_view what, std::string_view input, const std::string& detail) {
  std::fprintf(stderr, "burraco fuzz: %.*s\n  input: %.*s\n  %s\n", static_cast<int>(what.size()),
               what.data(), static_cast<int>(input.size()), input.data(), detail.c_str());
  std::abort();
}

}  // namespace

bool check_state_text(std::string_view text, std::uint64_t seed, Stats& stats) {
  ++stats.tried;
  GameState s;
  Rules rules;
  std::string error;
  if (!parse_state_string(text, s, rules, error)) {
    if (error.empty()) broken("refused without a reason", text, "");
    if (stats.explain)
      std::printf("refused: %s\n  %.*s\n", error.c_str(), static_cast<int>(text.size()), text.data());
    ++stats.rejected;
    return false;
  }
  ++stats.accepted;
  if (const std::string why = validate_state(s, rules); !why.empty())
    broken("accepted a state that does not validate", text, why);
  if (state_string(s, rules) != text)
    broken("accepted a state that does not write back the same", text, state_string(s, rules));
  if (!check_rules(rules).empty()) broken("accepted refused rules", text, check_rules(rules));
  Rng rng(seed);
  std::vector<Move> moves;
  for (long step = 0; !s.over(); ++step) {
    if (step >= kMaxHandMoves)
      broken("a random playout passed MAX_HAND_MOVES", text, state_string(s, rules));
    legal_moves(s, rules, moves);
    if (moves.empty()) broken("no legal move in a hand that is not over", text, state_string(s, rules));
    const Move& m = moves[rng.bounded(moves.size())];
    const MoveResult r = apply_move(s, rules, m);
    if (!r.ok())
      broken("a listed move was refused", text, move_text(m) + " at " + state_string(s, rules));
    ++stats.moves;
    if (const std::string why = validate_state(s, rules); !why.empty())
      broken("a move made an invalid state", text, move_text(m) + ": " + why);
    // Every position of play reads back (the parser refuses nothing that play reaches).
    const std::string now = state_string(s, rules);
    GameState back;
    Rules back_rules;
    if (!parse_state_string(now, back, back_rules, error))
      broken("a position of play is refused by the parser", text, now + "\n  " + error);
  }
  return true;
}

std::vector<Rules> fuzz_rules() {
  std::vector<Rules> out;
  for (std::string_view name : kPresetNames) out.push_back(*preset_rules(name));
  Rules r = *preset_rules("brazilian");
  r.players = 2;
  out.push_back(r);
  r = *preset_rules("brazilian");
  r.pozzetto_sizes = {30, 30};
  r.stock_end_threshold = 10;  // 4 cards of stock: the first keep is the last turn
  out.push_back(r);
  r = *preset_rules("brazilian");
  r.hand_size = 3;
  r.opening_fail_increment = 0;
  out.push_back(r);
  r = *preset_rules("italian");
  r.deadlock_rule = DeadlockRule::ForceDraw;
  r.forbid_discard_of_single_pile_card = false;
  out.push_back(r);
  r = *preset_rules("italian-2p");
  r.hand_size = 20;
  r.pozzetto_sizes = {30, 20};
  out.push_back(r);
  r = *preset_rules("online-2p");
  r.pozzetto_reveal = PozzettoReveal::AfterPartnerTurn;
  r.deadlock_rule = DeadlockRule::ForceDraw;
  out.push_back(r);
  // Six players (RULES F.7): three sides of two and two sides of three, with the three-deck pack
  // and three packets; and the three-deck pack with 2, 3 and 4 players.
  for (const int sides : {3, 2}) {
    r = player_baseline(Preset::Brazilian, 6);
    r.sides = sides;
    out.push_back(r);
  }
  r = player_baseline(Preset::Italian, 6);
  r.pozzetto_becomes_stock = true;
  r.stock_end_threshold = 0;
  out.push_back(r);
  r = player_baseline(Preset::Brazilian, 2);
  r.decks = 3;
  r.jokers = 6;
  out.push_back(r);
  r = *preset_rules("italian-3p");
  r.decks = 3;
  r.jokers = 6;
  out.push_back(r);
  r = *preset_rules("italian");
  r.decks = 3;
  r.jokers = 6;
  out.push_back(r);
  return out;
}

std::vector<std::string> engine_states_of(const Rules& rules, std::uint64_t& sm,
                                          int hands_per_rules) {
  std::vector<std::string> out;
  std::vector<Move> moves;
  for (int h = 0; h < hands_per_rules; ++h) {
    GameState s = deal_seeded(rules, splitmix64(sm), h % rules.players, {});
    Rng rng(splitmix64(sm));
    for (int step = 0; step < 3000; ++step) {
      if (step < 3 || rng.bounded(6) == 0 || s.over()) out.push_back(state_string(s, rules));
      if (s.over()) break;
      legal_moves(s, rules, moves);
      // Mostly stock draws and table moves, so the hands reach their later phases.
      const Move* pick = &moves[rng.bounded(moves.size())];
      if (moves[0].kind == MoveKind::Draw && rng.bounded(4) != 0) pick = &moves[0];
      apply_move(s, rules, *pick);
    }
  }
  return out;
}

std::vector<std::string> engine_states(std::uint64_t seed, int hands_per_rules) {
  std::vector<std::string> out;
  std::uint64_t sm = seed;
  for (const Rules& rules : fuzz_rules()) {
    const std::vector<std::string> states = engine_states_of(rules, sm, hands_per_rules);
    out.insert(out.end(), states.begin(), states.end());
  }
  return out;
}

namespace {

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> parts;
  std::string cur;
  for (char c : text) {
    if (c == sep) {
      parts.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  parts.push_back(cur);
  return parts;
}

std::string join(const std::vector<std::string>& parts, char sep) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? std::string(1, sep) : "") + parts[i];
  return out;
}

std::uint64_t below(std::uint64_t& rng, std::uint64_t n) { return n ? splitmix64(rng) % n : 0; }

// The card lists of a state string, addressed as (field index, entry index): hands and known
// (one entry per seat), stock, pile, pozzetti (the list after ':'). Canonical ones are sorted.
struct CardSlot {
  int field, entry;
  bool sorted;
};

constexpr int kHands = 7, kKnown = 8, kStock = 9, kPile = 10, kPozzetti = 13;

std::vector<CardSlot> card_slots(const std::vector<std::string>& fields) {
  std::vector<CardSlot> out;
  for (int f : {kHands, kKnown, kStock, kPile, kPozzetti}) {
    const std::string value = fields[f].substr(fields[f].find('=') + 1);
    const int entries = f == kStock || f == kPile ? 1 : static_cast<int>(split(value, '/').size());
    for (int e = 0; e < entries; ++e) out.push_back({f, e, f == kHands || f == kKnown || f == kPile});
  }
  return out;
}

// Reads and writes the card list of a slot ("-" is empty).
std::string slot_cards(const std::vector<std::string>& fields, const CardSlot& slot) {
  const std::string& field = fields[slot.field];
  const std::string value = field.substr(field.find('=') + 1);
  std::string list = value;
  if (slot.field == kHands || slot.field == kKnown || slot.field == kPozzetti) {
    const auto entries = split(value, '/');
    list = slot.entry < static_cast<int>(entries.size()) ? entries[slot.entry] : "-";
    if (slot.field == kPozzetti) {
      const std::size_t colon = list.find(':');
      list = colon == std::string::npos ? "-" : list.substr(colon + 1);
    }
  }
  return list == "-" ? "" : list;
}

void set_slot_cards(std::vector<std::string>& fields, const CardSlot& slot, const std::string& cards) {
  std::string& field = fields[slot.field];
  const std::size_t eq = field.find('=');
  const std::string name = field.substr(0, eq + 1);
  std::string value = field.substr(eq + 1);
  const std::string list = cards.empty() ? "-" : cards;
  if (slot.field == kStock || slot.field == kPile) {
    value = list;
  } else {
    auto entries = split(value, '/');
    if (slot.entry >= static_cast<int>(entries.size())) return;
    if (slot.field == kPozzetti) {
      const std::size_t colon = entries[slot.entry].find(':');
      if (colon == std::string::npos) return;
      entries[slot.entry] = entries[slot.entry].substr(0, colon + 1) + list;
    } else {
      entries[slot.entry] = list;
    }
    value = join(entries, '/');
  }
  field = name + value;
}

int card_order(const std::string& two) {
  const auto c = parse_card(two);
  return c ? c->index : 99;
}

std::string insert_card(const std::string& list, const std::string& card, bool sorted,
                        std::uint64_t& rng) {
  const std::size_t n = list.size() / 2;
  std::size_t at = below(rng, n + 1);
  if (sorted) {
    at = 0;
    while (at < n && card_order(list.substr(2 * at, 2)) <= card_order(card)) ++at;
  }
  return list.substr(0, 2 * at) + card + list.substr(2 * at);
}

const char* const kEdgeNumbers[] = {
    "0",  "1",   "2",   "3",   "4",    "5",    "-1",        "9",          "10",
    "11", "00",  "01",  "+1",  "127",  "128",  "255",       "256",        "65535",
    "10000000",  "10000001",   "2147483647", "2147483648", "-2147483648",
    "4294967296", "9223372036854775807", "18446744073709551615", "18446744073709551616"};

// Token values of the fields, up to six seats and three sides (six players) and one past them.
const char* const kTokens[][18] = {
    {"turnflags", "-", "p", "d", "l", "f", "b", "pd", "pl", "pf", "dl", "df", "lf", "pdl", "dlf",
     "pdlf", "pb", "db"},
    {"phase", "draw", "meld", "over", "Draw", "", nullptr},
    {"end", "-", "stock_exhausted", "deadlock", "closed:0", "closed:1", "closed:2", "closed:3",
     nullptr},
    {"split", "-", "0", "1", "2", "3", nullptr},
    {"deadlock", "0", "1", "2", "3", "4", "5", "6", "7", nullptr},
    {"turn", "0", "1", "2", "3", "4", "5", "6", nullptr},
    {"opened", "0,0", "1,0", "0,1", "1,1", "0,0,0", "1,0,1", "0,1,1", "1,1,1", "0,0,0,0", nullptr},
    {"hold", "-", "2c", "Jk", "Kh", "5s", nullptr},
    {"cut", "-", "0", "1", "2", "3", nullptr},
    {"first", "0", "1", "2", "3", "4", "5", "6", nullptr},
};

const char kBytes[] = ";=/,:+-@()0123456789abcdfhlpsuxAJQKTk ";

std::string token_field(std::uint64_t& rng, std::vector<std::string>& fields) {
  const auto& row = kTokens[below(rng, std::size(kTokens))];
  int count = 1;
  while (count < 18 && row[count]) ++count;
  const std::string name = row[0];
  for (std::string& field : fields)
    if (field.compare(0, name.size() + 1, name + "=") == 0) {
      field = name + "=" + row[1 + below(rng, static_cast<std::uint64_t>(count - 1))];
      break;
    }
  return join(fields, ';');
}

std::string packet_status(std::uint64_t& rng, std::vector<std::string>& fields) {
  auto entries = split(fields[kPozzetti].substr(fields[kPozzetti].find('=') + 1), '/');
  const std::size_t k = below(rng, entries.size());
  const std::size_t colon = entries[k].find(':');
  const std::string statuses[] = {"u",  "f0", "f1", "f2", "f3", "f4", "f5", "s0", "s1", "s2",
                                  "s5", "h0", "h1", "h2", "h3", "h4", "h5", "h6", "x"};
  const std::string status = statuses[below(rng, std::size(statuses))];
  std::string list = colon == std::string::npos ? "-" : entries[k].substr(colon + 1);
  if (status[0] == 'h' || status[0] == 'x') list = "-";
  entries[k] = status + ":" + list;
  fields[kPozzetti] = "pozzetti=" + join(entries, '/');
  return join(fields, ';');
}

}  // namespace

std::string mutate(const std::string& base, const std::vector<std::string>& pool,
                   std::uint64_t& rng) {
  std::vector<std::string> fields = split(base, ';');
  const bool shaped = fields.size() == 22;
  switch (below(rng, shaped ? 8 : 1)) {
    case 0: {  // byte flips
      std::string out = base;
      const int flips = 1 + static_cast<int>(below(rng, 3));
      for (int i = 0; i < flips && !out.empty(); ++i) {
        const std::size_t at = below(rng, out.size());
        const std::uint64_t how = below(rng, 4);
        if (how == 0) out[at] = static_cast<char>(below(rng, 256));
        else if (how == 1) out.erase(at, 1);
        else if (how == 2) out.insert(at, 1, kBytes[below(rng, sizeof kBytes - 1)]);
        else out[at] = kBytes[below(rng, sizeof kBytes - 1)];
      }
      return out;
    }
    case 1: {  // a field (or one '/' entry of it) spliced from another engine-made state
      const std::string& other = pool[below(rng, pool.size())];
      const auto donor = split(other, ';');
      if (donor.size() != fields.size()) return base;
      const std::size_t f = 1 + below(rng, fields.size() - 1);
      if (below(rng, 2) == 0 || fields[f].find('/') == std::string::npos) {
        fields[f] = donor[f];
      } else {
        const std::size_t eq = fields[f].find('=');
        auto mine = split(fields[f].substr(eq + 1), '/');
        const auto theirs = split(donor[f].substr(donor[f].find('=') + 1), '/');
        const std::size_t e = below(rng, std::min(mine.size(), theirs.size()));
        mine[e] = theirs[e];
        fields[f] = fields[f].substr(0, eq + 1) + join(mine, '/');
      }
      return join(fields, ';');
    }
    case 2: {  // a number replaced by an edge value
      std::vector<std::pair<std::size_t, std::size_t>> runs;
      for (std::size_t i = 0; i < base.size();) {
        if (base[i] >= '0' && base[i] <= '9') {
          std::size_t j = i;
          while (j < base.size() && base[j] >= '0' && base[j] <= '9') ++j;
          // Card ranks (the '2' of "2c") are not numbers of the format.
          const bool card = j - i == 1 && j < base.size() && std::string("cdhs(").find(base[j]) != std::string::npos;
          if (!card) runs.emplace_back(i, j - i);
          i = j;
        } else {
          ++i;
        }
      }
      if (runs.empty()) return base;
      const auto [at, len] = runs[below(rng, runs.size())];
      return base.substr(0, at) + kEdgeNumbers[below(rng, std::size(kEdgeNumbers))] +
             base.substr(at + len);
    }
    case 3:
    case 4: {  // a card moved, or two cards swapped, between card lists
      const auto slots = card_slots(fields);
      const CardSlot from = slots[below(rng, slots.size())];
      const CardSlot to = slots[below(rng, slots.size())];
      std::string a = slot_cards(fields, from);
      if (a.size() < 2) return base;
      const std::size_t i = 2 * below(rng, a.size() / 2);
      const std::string card = a.substr(i, 2);
      a.erase(i, 2);
      set_slot_cards(fields, from, a);
      std::string b = slot_cards(fields, to);
      if (below(rng, 2) == 0 && b.size() >= 2 && !(from.field == to.field && from.entry == to.entry)) {
        const std::size_t j = 2 * below(rng, b.size() / 2);
        const std::string other = b.substr(j, 2);
        b.erase(j, 2);
        set_slot_cards(fields, from, insert_card(a, other, from.sorted, rng));
      }
      set_slot_cards(fields, to, insert_card(b, card, to.sorted, rng));
      return join(fields, ';');
    }
    case 5: return token_field(rng, fields);
    case 6: return packet_status(rng, fields);
    default: {  // two mutations
      std::string once = mutate(base, pool, rng);
      return mutate(once, pool, rng);
    }
  }
}

long replay_corpus(const std::string& dir, Stats& stats) {
  DIR* d = opendir(dir.c_str());
  if (!d) return -1;
  std::vector<std::string> names;
  while (const dirent* e = readdir(d))
    if (e->d_name[0] != '.') names.push_back(e->d_name);
  closedir(d);
  long read = 0;
  for (const std::string& name : names) {
    std::ifstream in(dir + "/" + name, std::ios::binary);
    if (!in) continue;
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    check_state_text(text, read, stats);
    ++read;
  }
  return read;
}

void mutation_run(std::uint64_t seed, long count, double seconds, Stats& stats) {
  const auto start = std::chrono::steady_clock::now();
  const std::vector<std::string> pool = engine_states(seed, 3);
  std::uint64_t rng = seed ^ 0x5EEDF022ULL;
  for (long i = 0; count <= 0 || i < count; ++i) {
    if (seconds > 0 && (i & 63) == 0 &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > seconds)
      break;
    const std::string input = mutate(pool[below(rng, pool.size())], pool, rng);
    check_state_text(input, splitmix64(rng), stats);
  }
}

}  // namespace burraco::fuzz
