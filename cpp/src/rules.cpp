#include "burraco/rules.hpp"

#include <array>
#include <vector>

namespace burraco {

std::string_view preset_name(Preset preset) { return kPresetNames[static_cast<int>(preset)]; }

std::optional<Rules> preset_rules(std::string_view name) {
  Rules r;  // the defaults are the italian preset (RULES G.1)
  if (name == "italian") return r;
  if (name == "italian-2p") {
    r.preset = Preset::Italian2p;
    r.players = 2;
    r.pozzetto_reveal = PozzettoReveal::NextOwnTurn;
    return r;
  }
  if (name == "italian-3p") {
    r.preset = Preset::Italian3p;
    r.players = 3;
    r.pozzetto_sizes = {18, 11};
    r.score_split = ScoreSplit::HalvesForPair;
    return r;
  }
  if (name == "online-2p") {
    r.preset = Preset::Online2p;
    r.players = 2;
    r.jokers = 2;
    r.pozzetto_reveal = PozzettoReveal::Immediately;
    r.stock_end_threshold = 0;
    r.pozzetto_becomes_stock = true;
    r.match_target = 2005;
    r.compare = Compare::GreaterEqual;
    return r;
  }
  if (name == "brazilian") {
    r.preset = Preset::Brazilian;
    r.initial_upcard = false;
    r.first_draw_rule = FirstDrawRule::MayRejectFirstCard;
    r.allow_both_aces_in_run = true;
    r.allow_orphan_wild_14 = false;
    r.opening_minimum[0] = {0, 50};
    r.opening_minimum[1] = {1500, 75};
    r.opening_steps = 2;
    r.closing_requires_burraco = ClosingBurraco::Clean;
    r.closing_discard = ClosingDiscard::Optional;
    r.closing_discard_wild_allowed = true;
    r.semi_clean_burraco_bonus = kNone;
    r.unplayed_pozzetto_rule = UnplayedPozzettoRule::MinOfValueAnd100;
    r.stock_end_threshold = 0;
    r.pozzetto_becomes_stock = true;
    r.cut_bonus = 100;
    r.compare = Compare::GreaterEqual;
    return r;
  }
  return std::nullopt;
}

namespace {

constexpr std::array<std::string_view, 2> kCardValues = {"italian", "pagat_brazil"};
constexpr std::array<std::string_view, 2> kFirstDraw = {"none", "may_reject_first_card"};
constexpr std::array<std::string_view, 3> kAceRule = {"low_or_high", "low_only", "high_only"};
constexpr std::array<std::string_view, 1> kDisplayEnd = {"low"};
constexpr std::array<std::string_view, 3> kReveal = {"after_partner_turn", "next_own_turn",
                                                     "immediately"};
constexpr std::array<std::string_view, 2> kClosingBurraco = {"any", "clean"};
constexpr std::array<std::string_view, 2> kClosingDiscard = {"required", "optional"};
constexpr std::array<std::string_view, 2> kSemiCleanRule = {"longest_natural_block",
                                                            "wild_at_end"};
constexpr std::array<std::string_view, 3> kUnplayed = {"count_as_hand", "min_of_value_and_100",
                                                       "as_not_taken"};
constexpr std::array<std::string_view, 2> kDeadlock = {"end_hand", "force_draw"};
constexpr std::array<std::string_view, 2> kScoreSplit = {"none", "halves_for_pair"};
constexpr std::array<std::string_view, 2> kCompare = {">", ">="};
constexpr std::array<std::string_view, 2> kTiePolicy = {"play_on", "draw"};
constexpr std::array<std::string_view, 1> kPileTake = {"whole_pile"};
constexpr std::array<std::string_view, 1> kWildCards = {"jokers_and_twos"};
constexpr std::array<std::string_view, 1> kPozzettoPickup = {"on_the_fly_or_after_discard"};
constexpr std::array<std::string_view, 1> kDealerRotation = {"left"};

#define BURRACO_FIELD(member) [](Rules& r) -> void* { return &r.member; }

KnobInfo boolean(std::string_view name, void* (*field)(Rules&), int only = -1) {
  KnobInfo k{name, KnobType::Bool, field};
  k.only = static_cast<std::int8_t>(only);
  return k;
}
KnobInfo integer(std::string_view name, void* (*field)(Rules&), int min, int max,
                 KnobType type = KnobType::Int) {
  KnobInfo k{name, type, field};
  k.min = min;
  k.max = max;
  return k;
}
template <std::size_t N>
KnobInfo choice(std::string_view name, void* (*field)(Rules&),
                const std::array<std::string_view, N>& choices) {
  KnobInfo k{name, KnobType::Choice, field};
  k.choices = std::span<const std::string_view>(choices.data(), N);
  return k;
}

const std::vector<KnobInfo>& table() {
  static const std::vector<KnobInfo> knobs = [] {
    KnobInfo probability{"cut_exact_probability", KnobType::Float,
                         BURRACO_FIELD(cut_exact_probability)};
    probability.fmin = 0.0;
    probability.fmax = 1.0;
    return std::vector<KnobInfo>{
        integer("players", BURRACO_FIELD(players), 2, 4),
        integer("decks", BURRACO_FIELD(decks), 2, 2),
        KnobInfo{"jokers", KnobType::Int, BURRACO_FIELD(jokers)},  // 0, 2 or 4: checked below
        choice("card_values", BURRACO_FIELD(card_values), kCardValues),
        integer("hand_size", BURRACO_FIELD(hand_size), 1, 20),
        integer("pozzetto_sizes", BURRACO_FIELD(pozzetto_sizes), 1, 30, KnobType::IntPair),
        boolean("initial_upcard", BURRACO_FIELD(initial_upcard)),
        choice("first_draw_rule", BURRACO_FIELD(first_draw_rule), kFirstDraw),
        boolean("pile_take_requires_meld", BURRACO_FIELD(pile_take_requires_meld), 0),
        boolean("forbid_discard_of_single_pile_card",
                BURRACO_FIELD(forbid_discard_of_single_pile_card)),
        boolean("natural_two_in_run", BURRACO_FIELD(natural_two_in_run)),
        integer("max_wild_per_meld", BURRACO_FIELD(max_wild_per_meld), 1, 1),
        boolean("sets_allowed", BURRACO_FIELD(sets_allowed)),
        KnobInfo{"set_ranks", KnobType::Ranks, BURRACO_FIELD(set_ranks)},
        integer("max_sets_per_rank_per_side", BURRACO_FIELD(max_sets_per_rank_per_side), 1, 1),
        integer("max_set_size", BURRACO_FIELD(max_set_size), 3, 9),
        choice("ace_low_or_high", BURRACO_FIELD(ace_low_or_high), kAceRule),
        boolean("allow_both_aces_in_run", BURRACO_FIELD(allow_both_aces_in_run)),
        boolean("allow_orphan_wild_14", BURRACO_FIELD(allow_orphan_wild_14)),
        integer("max_run_size", BURRACO_FIELD(max_run_size), 3, 14),
        boolean("run_wraparound", BURRACO_FIELD(run_wraparound), 0),
        choice("wild_display_end", BURRACO_FIELD(wild_display_end), kDisplayEnd),
        boolean("free_end_wild_may_move", BURRACO_FIELD(free_end_wild_may_move), 1),
        boolean("wild_replaced_only_by_its_card", BURRACO_FIELD(wild_replaced_only_by_its_card),
                1),
        boolean("wild_swap_allowed", BURRACO_FIELD(wild_swap_allowed), 0),
        boolean("low_natural_two_may_convert", BURRACO_FIELD(low_natural_two_may_convert)),
        KnobInfo{"opening_minimum", KnobType::Opening, BURRACO_FIELD(opening_minimum)},
        integer("opening_fail_increment", BURRACO_FIELD(opening_fail_increment), 0, 1000000),
        choice("pozzetto_reveal", BURRACO_FIELD(pozzetto_reveal), kReveal),
        boolean("closing_requires_pozzetto", BURRACO_FIELD(closing_requires_pozzetto), 1),
        choice("closing_requires_burraco", BURRACO_FIELD(closing_requires_burraco),
               kClosingBurraco),
        choice("closing_discard", BURRACO_FIELD(closing_discard), kClosingDiscard),
        boolean("closing_discard_wild_allowed", BURRACO_FIELD(closing_discard_wild_allowed)),
        integer("closing_bonus", BURRACO_FIELD(closing_bonus), 0, 1000000),
        integer("clean_burraco_bonus", BURRACO_FIELD(clean_burraco_bonus), 0, 1000000),
        integer("dirty_burraco_bonus", BURRACO_FIELD(dirty_burraco_bonus), 0, 1000000),
        integer("semi_clean_burraco_bonus", BURRACO_FIELD(semi_clean_burraco_bonus), 0, 1000000,
                KnobType::OptInt),
        choice("semi_clean_rule", BURRACO_FIELD(semi_clean_rule), kSemiCleanRule),
        integer("no_pozzetto_penalty", BURRACO_FIELD(no_pozzetto_penalty), 0, 1000000),
        choice("unplayed_pozzetto_rule", BURRACO_FIELD(unplayed_pozzetto_rule), kUnplayed),
        integer("stock_end_threshold", BURRACO_FIELD(stock_end_threshold), 0, 10),
        boolean("pozzetto_becomes_stock", BURRACO_FIELD(pozzetto_becomes_stock)),
        choice("deadlock_rule", BURRACO_FIELD(deadlock_rule), kDeadlock),
        integer("cut_bonus", BURRACO_FIELD(cut_bonus), 0, 1000000),
        probability,
        choice("score_split", BURRACO_FIELD(score_split), kScoreSplit),
        integer("match_target", BURRACO_FIELD(match_target), 1, 1000000),
        choice("compare", BURRACO_FIELD(compare), kCompare),
        choice("tie_policy", BURRACO_FIELD(tie_policy), kTiePolicy),
        // Knobs of RULES G with a single supported value, kept so every row of G has its name.
        choice("pile_take", BURRACO_FIELD(pile_take), kPileTake),
        choice("wild_cards", BURRACO_FIELD(wild_cards), kWildCards),
        choice("pozzetto_pickup", BURRACO_FIELD(pozzetto_pickup), kPozzettoPickup),
        integer("pozzetti_per_side", BURRACO_FIELD(pozzetti_per_side), 1, 1),
        boolean("discard_pile_public", BURRACO_FIELD(discard_pile_public), 1),
        choice("dealer_rotation", BURRACO_FIELD(dealer_rotation), kDealerRotation),
    };
  }();
  return knobs;
}

#undef BURRACO_FIELD

}  // namespace

std::span<const KnobInfo> knob_table() { return table(); }

const KnobInfo* find_knob(std::string_view name) {
  for (const KnobInfo& k : table())
    if (k.name == name) return &k;
  return nullptr;
}

}  // namespace burraco

#include <charconv>
#include <cctype>

namespace burraco {

namespace {

bool parse_int(std::string_view text, long long& out) {
  if (text.empty()) return false;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, out);
  return ec == std::errc() && ptr == end;
}

// Splits "(a,b),(c,d)" at top-level commas.
std::vector<std::string_view> split_top(std::string_view text) {
  std::vector<std::string_view> parts;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '(') ++depth;
    else if (text[i] == ')') --depth;
    else if (text[i] == ',' && depth == 0) {
      parts.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  parts.push_back(text.substr(start));
  return parts;
}

bool strip_parens(std::string_view& text) {
  if (text.size() < 2 || text.front() != '(' || text.back() != ')') return false;
  text = text.substr(1, text.size() - 2);
  return true;
}

}  // namespace

std::string knob_text(const Rules& rules, const KnobInfo& k) {
  const void* p = k.get(rules);
  switch (k.type) {
    case KnobType::Bool: return *static_cast<const bool*>(p) ? "True" : "False";
    case KnobType::Int: return std::to_string(*static_cast<const std::int32_t*>(p));
    case KnobType::OptInt: {
      const std::int32_t v = *static_cast<const std::int32_t*>(p);
      return v == kNone ? "None" : std::to_string(v);
    }
    case KnobType::Float: {
      char buf[64];
      auto [end, ec] = std::to_chars(buf, buf + sizeof buf, *static_cast<const double*>(p));
      std::string out(buf, end);
      if (out.find_first_of(".en") == std::string::npos) out += ".0";
      return out;
    }
    case KnobType::Choice: return std::string(k.choices[*static_cast<const std::uint8_t*>(p)]);
    case KnobType::Ranks: {
      std::string out;
      const std::uint16_t mask = *static_cast<const std::uint16_t*>(p);
      for (int r = 1; r <= 13; ++r)
        if (mask & (1u << r)) out += rank_char(r);
      return out;
    }
    case KnobType::IntPair: {
      const auto& a = *static_cast<const std::array<std::int32_t, 2>*>(p);
      return "(" + std::to_string(a[0]) + "," + std::to_string(a[1]) + ")";
    }
    case KnobType::Opening: {
      if (rules.opening_steps == 0) return "None";
      std::string out = "(";
      for (int i = 0; i < rules.opening_steps; ++i)
        out += (i ? ",(" : "(") + std::to_string(rules.opening_minimum[i].from_score) + "," +
               std::to_string(rules.opening_minimum[i].minimum) + ")";
      return out + (rules.opening_steps == 1 ? ",)" : ")");
    }
  }
  return "";
}

bool set_knob_text(Rules& rules, const KnobInfo& k, std::string_view text) {
  void* p = k.get(rules);
  long long v = 0;
  switch (k.type) {
    case KnobType::Bool: {
      if (text != "True" && text != "False") return false;
      const bool b = text == "True";
      if (k.only >= 0 && b != (k.only == 1)) return false;
      *static_cast<bool*>(p) = b;
      return true;
    }
    case KnobType::Int:
    case KnobType::OptInt: {
      if (k.type == KnobType::OptInt && text == "None") {
        *static_cast<std::int32_t*>(p) = kNone;
        return true;
      }
      if (!parse_int(text, v)) return false;
      if (k.name == "jokers" ? (v < 0 || v > 4 || v % 2) : (v < k.min || v > k.max)) return false;
      *static_cast<std::int32_t*>(p) = static_cast<std::int32_t>(v);
      return true;
    }
    case KnobType::Float: {
      double d = 0;
      auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), d);
      if (ec != std::errc() || ptr != text.data() + text.size() || !(d >= k.fmin && d <= k.fmax))
        return false;
      *static_cast<double*>(p) = d;
      return true;
    }
    case KnobType::Choice:
      for (std::size_t i = 0; i < k.choices.size(); ++i)
        if (k.choices[i] == text) {
          *static_cast<std::uint8_t*>(p) = static_cast<std::uint8_t>(i);
          return true;
        }
      return false;
    case KnobType::Ranks: {
      std::uint16_t mask = 0;
      for (char c : text) {
        const int r = parse_rank(std::string_view(&c, 1));
        if (r == 0 || r == kTwo || (mask & (1u << r))) return false;
        mask |= static_cast<std::uint16_t>(1u << r);
      }
      if (!mask) return false;
      *static_cast<std::uint16_t*>(p) = mask;
      return true;
    }
    case KnobType::IntPair: {
      if (!strip_parens(text)) return false;
      const auto parts = split_top(text);
      if (parts.size() != 2) return false;
      std::array<std::int32_t, 2> a{};
      for (int i = 0; i < 2; ++i) {
        if (!parse_int(parts[i], v) || v < k.min || v > k.max) return false;
        a[i] = static_cast<std::int32_t>(v);
      }
      *static_cast<std::array<std::int32_t, 2>*>(p) = a;
      return true;
    }
    case KnobType::Opening: {
      if (text == "None") {
        rules.opening_steps = 0;
        rules.opening_minimum = {};
        return true;
      }
      if (!strip_parens(text)) return false;
      auto parts = split_top(text);
      if (!parts.empty() && parts.back().empty()) parts.pop_back();  // "((0,50),)"
      if (parts.empty() || parts.size() > 4) return false;
      std::array<OpeningStep, 4> steps{};
      for (std::size_t i = 0; i < parts.size(); ++i) {
        std::string_view pair = parts[i];
        if (!strip_parens(pair)) return false;
        const auto two = split_top(pair);
        long long from = 0, minimum = 0;
        if (two.size() != 2 || !parse_int(two[0], from) || !parse_int(two[1], minimum)) return false;
        if (from < 0 || minimum < 0 || from > 1000000 || minimum > 1000000) return false;
        if (i == 0 ? from != 0 : from <= steps[i - 1].from_score) return false;
        steps[i] = {static_cast<std::int32_t>(from), static_cast<std::int32_t>(minimum)};
      }
      rules.opening_minimum = steps;
      rules.opening_steps = static_cast<std::int32_t>(parts.size());
      return true;
    }
  }
  return false;
}

std::string rules_text(const Rules& rules) {
  std::string out(preset_name(rules.preset));
  const Rules base = *preset_rules(preset_name(rules.preset));
  for (const KnobInfo& k : knob_table()) {
    const std::string value = knob_text(rules, k);
    if (value != knob_text(base, k)) out += ":" + std::string(k.name) + "=" + value;
  }
  return out;
}

bool parse_rules_text(std::string_view text, Rules& rules, std::string& error) {
  const std::size_t colon = text.find(':');
  const std::string_view name = text.substr(0, colon);
  const auto base = preset_rules(name);
  if (!base) {
    error = "unknown preset '" + std::string(name) + "'";
    return false;
  }
  Rules r = *base;
  std::string_view rest = colon == std::string_view::npos ? "" : text.substr(colon + 1);
  while (!rest.empty()) {
    const std::size_t next = rest.find(':');
    const std::string_view item = rest.substr(0, next);
    rest = next == std::string_view::npos ? "" : rest.substr(next + 1);
    const std::size_t eq = item.find('=');
    const KnobInfo* k = eq == std::string_view::npos ? nullptr : find_knob(item.substr(0, eq));
    if (!k || !set_knob_text(r, *k, item.substr(eq + 1))) {
      error = "bad rules knob '" + std::string(item) + "'";
      return false;
    }
  }
  rules = r;
  return true;
}

}  // namespace burraco
