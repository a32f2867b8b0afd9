#include "burraco/rules.hpp"

#include <array>
#include <vector>

namespace burraco {

std::string_view preset_name(Preset preset) { return kPresets[static_cast<int>(preset)].name; }
std::string_view preset_title(Preset preset) { return kPresets[static_cast<int>(preset)].title; }

std::string preset_names_text() {
  std::string out;
  for (const PresetInfo& preset : kPresets)
    out += (out.empty() ? "" : ", ") + std::string(preset.name);
  return out;
}

namespace {
// The sides a player count makes (RULES F.1, F.6, F.7): six players choose 2 or 3, 3 by default.
int sides_of_players(int players) { return players == 3 || players == 6 ? 3 : 2; }
}  // namespace

Rules player_baseline(Preset preset, int players) {
  Rules r = *preset_rules(preset_name(preset));
  r.players = players;
  r.sides = sides_of_players(players);
  if (players == 6) {
    r.decks = 3;
    r.jokers = 6;
    r.pozzetto_sizes = {11, 11, 11};
  }
  return r;
}

std::string check_rules(const Rules& rules) {
  // The layout knobs (RULES A.1, F.2, F.7, G): the player count, its sides, three packets only
  // with six players.
  if (rules.players != 2 && rules.players != 3 && rules.players != 4 && rules.players != 6)
    return "players=" + std::to_string(rules.players) + " is not 2, 3, 4 or 6 (RULES G)";
  if (rules.players != 6 && rules.sides != sides_of_players(rules.players))
    return "sides=" + std::to_string(rules.sides) + " does not fit players=" +
           std::to_string(rules.players) + ": " + std::to_string(rules.players) + " players make " +
           std::to_string(sides_of_players(rules.players)) + " sides (only six players choose 2 or 3)";
  if (rules.pozzetto_sizes[2] > 0 && rules.players != 6)
    return "pozzetto_sizes=(" + std::to_string(rules.pozzetto_sizes[0]) + ", " +
           std::to_string(rules.pozzetto_sizes[1]) + ", " + std::to_string(rules.pozzetto_sizes[2]) +
           "): three pozzetti only with six players (players=" + std::to_string(rules.players) +
           ") (RULES F.7)";
  // Two jokers per deck at most (RULES A.1): the knobs are checked one by one, this pair here.
  if (rules.jokers > 2 * rules.decks)
    return "jokers=" + std::to_string(rules.jokers) + " is more than two per deck (decks=" +
           std::to_string(rules.decks) + ") (RULES A.1)";
  const int stock = rules.initial_stock(), threshold = rules.stock_end_threshold;
  if (stock < 0)
    return "the pack of " + std::to_string(rules.total_cards()) +
           " cards is too small for the hands, the pozzetti and the start card";
  const std::string held = "after the deal the stock holds " + std::to_string(stock) +
                           " cards, not more than stock_end_threshold=" + std::to_string(threshold);
  // The first stock draw of the hand must be possible (RULES D.2, D.3, F.2); every later one then
  // is, or the draw that reached the threshold made its turn the last.
  if (rules.first_draw_rule == FirstDrawRule::MayRejectFirstCard) {
    // keep needs one stock card; a start card can be taken instead, and then the next turns draw.
    if (stock == 0) return "the stock is empty after the deal, so the first draw (keep) is impossible";
    if (rules.initial_upcard && stock <= threshold)
      return held + ": once the start card is taken no card could ever be drawn";
    return "";
  }
  // A draw needs more than stock_end_threshold cards, or (threshold 0) an empty stock that a
  // pozzetto replaces.
  if (stock > threshold || (stock == 0 && threshold == 0 && rules.pozzetto_becomes_stock)) return "";
  return held + ", so no card could ever be drawn from it";
}

std::optional<Rules> preset_rules(std::string_view name) {
  for (std::size_t i = 0; i < std::size(kPresets); ++i)
    if (kPresets[i].name == name) {
      Rules r;  // the defaults are the italian preset (RULES G.1)
      r.preset = static_cast<Preset>(i);
      kPresets[i].changes(r);
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

KnobInfo boolean(std::string_view name, std::string_view doc, void* (*field)(Rules&),
                 int only = -1) {
  KnobInfo k{name, doc, KnobType::Bool, field};
  k.only = static_cast<std::int8_t>(only);
  return k;
}
KnobInfo integer(std::string_view name, std::string_view doc, void* (*field)(Rules&), int min,
                 int max, KnobType type = KnobType::Int) {
  KnobInfo k{name, doc, type, field};
  k.min = min;
  k.max = max;
  return k;
}
template <std::size_t N>
KnobInfo choice(std::string_view name, std::string_view doc, void* (*field)(Rules&),
                const std::array<std::string_view, N>& choices) {
  KnobInfo k{name, doc, KnobType::Choice, field};
  k.choices = std::span<const std::string_view>(choices.data(), N);
  return k;
}

const std::vector<KnobInfo>& table() {
  static const std::vector<KnobInfo> knobs = [] {
    KnobInfo probability{"cut_exact_probability",
                         "Chance that a simulated cut is exact (RULES F.5).", KnobType::Float,
                         BURRACO_FIELD(cut_exact_probability)};
    probability.fmin = 0.0;
    probability.fmax = 1.0;
    return std::vector<KnobInfo>{
        integer("players",
                "Players at the table (2, 3, 4, or 6 with three decks); the sides follow from it (RULES G, F.7).",
                BURRACO_FIELD(players), 2, 6),  // 2, 3, 4 or 6: checked below
        integer("sides",
                "Sides at the table: 3 (seats A B C A B C) or 2 (A B A B A B) with six players; "
                "fixed by the player count otherwise (RULES F.7, G).",
                BURRACO_FIELD(sides), 2, 3),
        integer("decks",
                "52-card decks in the pack: 2, or 3 (RULES A.1, F.7).",
                BURRACO_FIELD(decks), 2, 3),
        KnobInfo{"jokers",
                 "Jokers in the pack: 0, 2, 4 or 6, at most two per deck (RULES A.1).",
                 KnobType::Int, BURRACO_FIELD(jokers)},  // even, 0 to 6: checked below
        choice("card_values",
               "Point table: `italian` (joker 30, two 20) or `pagat_brazil` (20, 10) (RULES A.3).",
               BURRACO_FIELD(card_values), kCardValues),
        integer("hand_size",
                "Cards dealt to each player (RULES F.2).",
                BURRACO_FIELD(hand_size), 1, 20),
        integer("pozzetto_sizes",
                "Sizes of the two pozzetti, the one taken first written first (RULES F.2).",
                BURRACO_FIELD(pozzetto_sizes), 1, 30, KnobType::IntPair),
        boolean("initial_upcard",
                "A start card is turned face up on the pile after the deal (RULES F.2).",
                BURRACO_FIELD(initial_upcard)),
        choice("first_draw_rule",
               "`may_reject_first_card`: the brazilian `keep`/`reject` first draw (RULES C.2).",
               BURRACO_FIELD(first_draw_rule), kFirstDraw),
        boolean("pile_take_requires_meld",
                "The pile may be taken only to put one of its cards down at once (only False) "
                "(RULES C.2).",
                BURRACO_FIELD(pile_take_requires_meld), 0),
        boolean("forbid_discard_of_single_pile_card",
                "A one-card pile just taken may not be discarded back in the same turn "
                "(RULES C.5).",
                BURRACO_FIELD(forbid_discard_of_single_pile_card)),
        boolean("natural_two_in_run",
                "A two in slot 2 of its own suit's run is natural, not wild (RULES A.4).",
                BURRACO_FIELD(natural_two_in_run)),
        integer("max_wild_per_meld",
                "Most wild-acting cards in one meld (only 1) (RULES B.1).",
                BURRACO_FIELD(max_wild_per_meld), 1, 1),
        boolean("sets_allowed",
                "Sets (cards of one rank) may be melded at all (RULES B.2).",
                BURRACO_FIELD(sets_allowed)),
        KnobInfo{"set_ranks",
                 "The ranks that may form a set (RULES B.2).",
                 KnobType::Ranks, BURRACO_FIELD(set_ranks)},
        integer("max_sets_per_rank_per_side",
                "Sets of one rank a side may hold (only 1) (RULES B.2).",
                BURRACO_FIELD(max_sets_per_rank_per_side), 1, 1),
        integer("max_set_size",
                "Most cards in a set, the wild included (RULES B.2).",
                BURRACO_FIELD(max_set_size), 3, 9),
        choice("ace_low_or_high",
               "Where an ace may sit in a run: slot 1, slot 14, or either (RULES B.3).",
               BURRACO_FIELD(ace_low_or_high), kAceRule),
        boolean("allow_both_aces_in_run",
                "One run may hold natural aces at both ends (RULES B.3).",
                BURRACO_FIELD(allow_both_aces_in_run)),
        boolean("allow_orphan_wild_14",
                "The 14-card run A..K plus a wild in the other ace slot is legal (RULES B.3).",
                BURRACO_FIELD(allow_orphan_wild_14)),
        integer("max_run_size",
                "Most cards in a run, the wild included (RULES B.3).",
                BURRACO_FIELD(max_run_size), 3, 14),
        boolean("run_wraparound",
                "Runs may wrap from K through A to 2 (only False) (RULES B.3).",
                BURRACO_FIELD(run_wraparound), 0),
        choice("wild_display_end",
               "The end where a free wild is shown (only `low`) (RULES B.4).",
               BURRACO_FIELD(wild_display_end), kDisplayEnd),
        boolean("free_end_wild_may_move",
                "A free wild at an end may move to fill a new hole (only True) (RULES B.6).",
                BURRACO_FIELD(free_end_wild_may_move), 1),
        boolean("wild_replaced_only_by_its_card",
                "Only the card a wild stands for displaces it (only True) (RULES B.6).",
                BURRACO_FIELD(wild_replaced_only_by_its_card), 1),
        boolean("wild_swap_allowed",
                "A wild may be swapped for another wild (only False) (RULES B.6).",
                BURRACO_FIELD(wild_swap_allowed), 0),
        boolean("low_natural_two_may_convert",
                "A natural two at the low end of a run without wild may turn into its wild "
                "(RULES B.6).",
                BURRACO_FIELD(low_natural_two_may_convert)),
        KnobInfo{"opening_minimum",
                 "Brazilian opening minimum: None, or (from score, points) steps (RULES C.3).",
                 KnobType::Opening, BURRACO_FIELD(opening_minimum)},
        integer("opening_fail_increment",
                "Rise of the opening minimum after each short opening (RULES C.3).",
                BURRACO_FIELD(opening_fail_increment), 0, 1000000),
        choice("pozzetto_reveal",
               "When the owner may look at a pozzetto taken by discarding (RULES C.4).",
               BURRACO_FIELD(pozzetto_reveal), kReveal),
        boolean("closing_requires_pozzetto",
                "A side must have taken its pozzetto to close (only True) (RULES C.6).",
                BURRACO_FIELD(closing_requires_pozzetto), 1),
        choice("closing_requires_burraco",
               "The burraco a side needs to close: `any` or `clean` (RULES C.6).",
               BURRACO_FIELD(closing_requires_burraco), kClosingBurraco),
        choice("closing_discard",
               "Closing needs a last discard (`required`) or not (`optional`) (RULES C.6).",
               BURRACO_FIELD(closing_discard), kClosingDiscard),
        boolean("closing_discard_wild_allowed",
                "The closing discard may be a wild (RULES C.6).",
                BURRACO_FIELD(closing_discard_wild_allowed)),
        integer("closing_bonus",
                "Points for the side that closes (RULES E.3).",
                BURRACO_FIELD(closing_bonus), 0, 1000000),
        integer("clean_burraco_bonus",
                "Points for each clean burraco (RULES E.2).",
                BURRACO_FIELD(clean_burraco_bonus), 0, 1000000),
        integer("dirty_burraco_bonus",
                "Points for each dirty burraco (RULES E.2).",
                BURRACO_FIELD(dirty_burraco_bonus), 0, 1000000),
        integer("semi_clean_burraco_bonus",
                "Points for each semi-clean burraco; None: no such class, scored as dirty "
                "(RULES B.7, E.2).",
                BURRACO_FIELD(semi_clean_burraco_bonus), 0, 1000000, KnobType::OptInt),
        choice("semi_clean_rule",
               "What makes a burraco semi-clean: longest natural block or wild at an end "
               "(RULES B.7).",
               BURRACO_FIELD(semi_clean_rule), kSemiCleanRule),
        integer("no_pozzetto_penalty",
                "Points lost by a side that never took its pozzetto (RULES E.4).",
                BURRACO_FIELD(no_pozzetto_penalty), 0, 1000000),
        choice("unplayed_pozzetto_rule",
               "How a pozzetto taken but not played is scored (RULES E.4).",
               BURRACO_FIELD(unplayed_pozzetto_rule), kUnplayed),
        integer("stock_end_threshold",
                "The hand ends after the turn whose draw leaves this many stock cards "
                "(RULES D.2, D.3).",
                BURRACO_FIELD(stock_end_threshold), 0, 10),
        boolean("pozzetto_becomes_stock",
                "An untaken pozzetto becomes the stock when the stock runs out (RULES D.3).",
                BURRACO_FIELD(pozzetto_becomes_stock)),
        choice("deadlock_rule",
               "What a deadlock does: end the hand, or force a stock draw (RULES D.4).",
               BURRACO_FIELD(deadlock_rule), kDeadlock),
        integer("cut_bonus",
                "Brazilian bonus for cutting exactly 22 cards before the deal (RULES E.5, F.5).",
                BURRACO_FIELD(cut_bonus), 0, 1000000),
        probability,
        choice("score_split",
               "How the pair of italian-3p shares its hand score (RULES E.6).",
               BURRACO_FIELD(score_split), kScoreSplit),
        integer("match_target",
                "The score that ends a match (RULES E.7).",
                BURRACO_FIELD(match_target), 1, 1000000),
        choice("compare",
               "How a score is compared with the target: `>` or `>=` (RULES E.7).",
               BURRACO_FIELD(compare), kCompare),
        choice("tie_policy",
               "A tie at the top past the target: play on, or a drawn match (RULES E.7).",
               BURRACO_FIELD(tie_policy), kTiePolicy),
        // Knobs of RULES G with a single supported value, kept so every row of G has its name.
        choice("pile_take",
               "How the discard pile is taken (only `whole_pile`) (RULES C.2).",
               BURRACO_FIELD(pile_take), kPileTake),
        choice("wild_cards",
               "Which cards are wild (only `jokers_and_twos`) (RULES A.4).",
               BURRACO_FIELD(wild_cards), kWildCards),
        choice("pozzetto_pickup",
               "When a pozzetto is picked up: on the fly, or after the discard (RULES C.4).",
               BURRACO_FIELD(pozzetto_pickup), kPozzettoPickup),
        integer("pozzetti_per_side",
                "Pozzetti one side may take in a hand (only 1) (RULES C.4).",
                BURRACO_FIELD(pozzetti_per_side), 1, 1),
        boolean("discard_pile_public",
                "Every card of the discard pile is public (only True) (RULES C.2).",
                BURRACO_FIELD(discard_pile_public), 1),
        choice("dealer_rotation",
               "Where the deal passes after a hand (only `left`) (RULES F.1).",
               BURRACO_FIELD(dealer_rotation), kDealerRotation),
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
      const auto& a = *static_cast<const std::array<std::int32_t, 3>*>(p);
      return "(" + std::to_string(a[0]) + "," + std::to_string(a[1]) +
             (a[2] > 0 ? "," + std::to_string(a[2]) : std::string()) + ")";
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
      if (k.name == "jokers" ? (v < 0 || v > 2 * kMaxSuitedCopies || v % 2) : (v < k.min || v > k.max)) return false;
      if (k.name == "players" && v == 5) return false;
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
      if (parts.size() != 2 && parts.size() != 3) return false;
      std::array<std::int32_t, 3> a{};
      for (std::size_t i = 0; i < parts.size(); ++i) {
        if (!parse_int(parts[i], v) || v < k.min || v > k.max) return false;
        a[i] = static_cast<std::int32_t>(v);
      }
      *static_cast<std::array<std::int32_t, 3>*>(p) = a;
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

Rules text_baseline(const Rules& rules) {
  Rules base = player_baseline(rules.preset, rules.players);
  base.players = preset_rules(preset_name(rules.preset))->players;
  return base;
}

std::string rules_text(const Rules& rules) {
  std::string out(preset_name(rules.preset));
  // Knobs that differ from the preset played by this many players; players from the preset's.
  const Rules base = text_baseline(rules);
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
  // The player count first: the other knobs default to the preset played by that many players.
  for (std::string_view scan = rest; !scan.empty();) {
    const std::size_t next = scan.find(':');
    const std::string_view item = scan.substr(0, next);
    scan = next == std::string_view::npos ? "" : scan.substr(next + 1);
    Rules players = r;
    if (item.starts_with("players=") &&
        set_knob_text(players, *find_knob("players"), item.substr(8))) {
      r = player_baseline(r.preset, players.players);
      break;
    }
  }
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
  if (const std::string why = check_rules(r); !why.empty()) {
    error = "rules '" + std::string(text) + "' are refused: " + why;
    return false;
  }
  rules = r;
  return true;
}

bool parse_canonical_rules_text(std::string_view text, Rules& rules, std::string& error) {
  Rules r;
  if (!parse_rules_text(text, r, error)) return false;
  // Canonical text only, as in state strings (docs/game.md): the text rules_text writes (its
  // characters need no escaping in the quotes).
  if (const std::string canonical = rules_text(r); canonical != text) {
    error = "not in canonical form ('" + canonical + "')";
    return false;
  }
  rules = r;
  return true;
}

// ---- knob values -----------------------------------------------------------------------------

namespace {

using Kind = KnobValue::Kind;

KnobValue integer_value(long long v) {
  KnobValue out;
  out.kind = Kind::Int;
  out.integer = v;
  return out;
}

KnobValue tuple_value(std::vector<KnobValue> items) {
  KnobValue out;
  out.kind = Kind::Tuple;
  out.items = std::move(items);
  return out;
}

bool int_within(const KnobValue& v, long long min, long long max) {
  return v.kind == Kind::Int && v.integer >= min && v.integer <= max;
}

std::string integers_text(std::int32_t min, std::int32_t max) {
  return min == max ? "the integer " + std::to_string(min) + " (the only value supported)"
                    : "an integer from " + std::to_string(min) + " to " + std::to_string(max);
}


}  // namespace

KnobValue knob_value(const Rules& rules, const KnobInfo& k) {
  const void* p = k.get(rules);
  KnobValue out;
  switch (k.type) {
    case KnobType::Bool:
      out.kind = Kind::Bool;
      out.flag = *static_cast<const bool*>(p);
      return out;
    case KnobType::Int: return integer_value(*static_cast<const std::int32_t*>(p));
    case KnobType::OptInt: {
      const std::int32_t v = *static_cast<const std::int32_t*>(p);
      if (v != kNone) return integer_value(v);
      out.kind = Kind::None;
      return out;
    }
    case KnobType::Float:
      out.kind = Kind::Real;
      out.real = *static_cast<const double*>(p);
      return out;
    case KnobType::Choice:
    case KnobType::Ranks:
      out.kind = Kind::Text;
      out.text = knob_text(rules, k);  // the choice's name, or the rank letters
      return out;
    case KnobType::IntPair: {
      const auto& a = *static_cast<const std::array<std::int32_t, 3>*>(p);
      std::vector<KnobValue> items = {integer_value(a[0]), integer_value(a[1])};
      if (a[2] > 0) items.push_back(integer_value(a[2]));
      return tuple_value(std::move(items));
    }
    case KnobType::Opening: {
      if (rules.opening_steps == 0) {
        out.kind = Kind::None;
        return out;
      }
      std::vector<KnobValue> steps;
      for (int i = 0; i < rules.opening_steps; ++i)
        steps.push_back(tuple_value({integer_value(rules.opening_minimum[i].from_score),
                                     integer_value(rules.opening_minimum[i].minimum)}));
      return tuple_value(std::move(steps));
    }
  }
  return out;
}

std::string set_knob_value(Rules& rules, const KnobInfo& k, const KnobValue& v) {
  void* p = k.get(rules);
  switch (k.type) {
    case KnobType::Bool:
      if (v.kind != Kind::Bool) return "True or False";
      if (k.only >= 0 && v.flag != (k.only == 1))
        return std::string(k.only ? "True" : "False") + " (the only value supported)";
      *static_cast<bool*>(p) = v.flag;
      return "";
    case KnobType::Int:
      if (k.name == "players") {
        if (!int_within(v, 2, 4) && !int_within(v, 6, 6)) return "2, 3, 4 or 6";
      } else if (k.name == "jokers") {  // two per deck: an even count
        if (!int_within(v, 0, 2 * kMaxSuitedCopies)) return integers_text(0, 2 * kMaxSuitedCopies);
        if (v.integer % 2) return "0, 2, 4 or 6";
      } else if (!int_within(v, k.min, k.max)) {
        return integers_text(k.min, k.max);
      }
      *static_cast<std::int32_t*>(p) = static_cast<std::int32_t>(v.integer);
      return "";
    case KnobType::OptInt:
      if (v.kind != Kind::None && !int_within(v, k.min, k.max)) return integers_text(k.min, k.max);
      *static_cast<std::int32_t*>(p) =
          v.kind == Kind::None ? kNone : static_cast<std::int32_t>(v.integer);
      return "";
    case KnobType::Float:
      // NaN fails the range.
      if ((v.kind != Kind::Real && !v.real_too) || !(v.real >= k.fmin && v.real <= k.fmax))
        return "a number from 0.0 to 1.0";
      *static_cast<double*>(p) = v.real;
      return "";
    case KnobType::Choice: {
      std::string expected = "one of";
      for (std::size_t i = 0; i < k.choices.size(); ++i)
        expected += (i ? ", '" : " '") + std::string(k.choices[i]) + "'";
      if (v.kind != Kind::Text || !set_knob_text(rules, k, v.text)) return expected;
      return "";
    }
    case KnobType::Ranks:
      if (v.kind != Kind::Text || !set_knob_text(rules, k, v.text))
        return "a string of distinct set ranks from 'A3456789TJQK'";
      return "";
    case KnobType::IntPair: {
      const std::string expected = "a tuple of 2 integers (3 with six players), each from 1 to 30";
      if (v.kind != Kind::Tuple || (v.items.size() != 2 && v.items.size() != 3)) return expected;
      std::array<std::int32_t, 3> a{};
      for (std::size_t i = 0; i < v.items.size(); ++i) {
        if (!int_within(v.items[i], k.min, k.max)) return expected;
        a[i] = static_cast<std::int32_t>(v.items[i].integer);
      }
      *static_cast<std::array<std::int32_t, 3>*>(p) = a;
      return "";
    }
    case KnobType::Opening: {
      const std::string expected =
          "None or up to 4 (from_score, minimum) pairs of integers from 0 to 1000000, "
          "from_score ascending and starting at 0";
      if (v.kind == Kind::None) {
        rules.opening_steps = 0;
        rules.opening_minimum = {};
        return "";
      }
      if (v.kind != Kind::Tuple || v.items.empty() || v.items.size() > 4) return expected;
      std::array<OpeningStep, 4> steps{};
      for (std::size_t i = 0; i < v.items.size(); ++i) {
        const KnobValue& pair = v.items[i];
        if (pair.kind != Kind::Tuple || pair.items.size() != 2) return expected;
        const KnobValue &from = pair.items[0], &minimum = pair.items[1];
        if (!int_within(from, 0, 1000000) || !int_within(minimum, 0, 1000000)) return expected;
        if (i == 0 ? from.integer != 0 : from.integer <= steps[i - 1].from_score) return expected;
        steps[i] = {static_cast<std::int32_t>(from.integer),
                    static_cast<std::int32_t>(minimum.integer)};
      }
      rules.opening_minimum = steps;
      rules.opening_steps = static_cast<std::int32_t>(v.items.size());
      return "";
    }
  }
  return "";
}

bool knob_listed(const Rules& rules, const KnobInfo& k) {
  return k.name != "sides" || rules.players == 6;
}

std::string python_float_text(double x) {
  char buf[64];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::scientific);
  std::string_view sci(buf, static_cast<std::size_t>(end - buf));  // "-1.25e-05", "inf", "nan"
  const std::size_t e = sci.find('e');
  if (ec != std::errc() || e == std::string_view::npos) return std::string(sci);
  std::string sign, digits;
  for (char c : sci.substr(0, e))
    if (c == '-') sign = "-";
    else if (c != '.') digits += c;
  long long exponent = 0;
  const std::string_view power = sci.substr(e + 1);
  std::from_chars(power.data() + (power.front() == '+'), power.data() + power.size(), exponent);
  if (exponent < -4 || exponent >= 16) {
    std::string out = sign + digits.substr(0, 1);
    if (digits.size() > 1) out += "." + digits.substr(1);
    const std::string magnitude = std::to_string(exponent < 0 ? -exponent : exponent);
    return out + "e" + (exponent < 0 ? "-" : "+") + (magnitude.size() < 2 ? "0" : "") + magnitude;
  }
  const long long point = exponent + 1;  // digits before the decimal point
  if (point <= 0) return sign + "0." + std::string(static_cast<std::size_t>(-point), '0') + digits;
  if (point >= static_cast<long long>(digits.size()))
    return sign + digits + std::string(static_cast<std::size_t>(point) - digits.size(), '0') + ".0";
  return sign + digits.substr(0, static_cast<std::size_t>(point)) + "." +
         digits.substr(static_cast<std::size_t>(point));
}

std::string python_literal(const KnobValue& v) {
  switch (v.kind) {
    case Kind::Bool: return v.flag ? "True" : "False";
    case Kind::Int: return std::to_string(v.integer);
    case Kind::Real: return python_float_text(v.real);
    case Kind::Text: return "'" + v.text + "'";  // names and rank letters: nothing to escape
    case Kind::Tuple: {
      std::string out = "(";
      for (std::size_t i = 0; i < v.items.size(); ++i)
        out += (i ? ", " : "") + python_literal(v.items[i]);
      return out + (v.items.size() == 1 ? ",)" : ")");
    }
    case Kind::None:
    case Kind::Other: break;
  }
  return "None";
}

std::vector<const KnobInfo*> changed_knobs(const Rules& rules) {
  const Rules base = text_baseline(rules);
  std::vector<const KnobInfo*> out;
  for (const KnobInfo& k : knob_table())
    if (!(knob_value(rules, k) == knob_value(base, k))) out.push_back(&k);
  return out;
}

std::string rules_repr(const Rules& rules) {
  std::string out = "Rules('" + std::string(preset_name(rules.preset)) + "'";
  for (const KnobInfo* k : changed_knobs(rules))
    out += ", " + std::string(k->name) + "=" + python_literal(knob_value(rules, *k));
  return out + ")";
}

KnobRefusal override_knobs(Rules& rules, const std::vector<KnobOverride>& overrides) {
  KnobRefusal refusal;
  Rules r = rules;
  for (std::size_t i = 0; i < overrides.size(); ++i) {
    if (overrides[i].name != "players") continue;
    Rules probe = rules;
    refusal.expected = set_knob_value(probe, *find_knob("players"), overrides[i].value);
    if (!refusal.expected.empty()) {
      refusal.index = i;
      return refusal;
    }
    if (probe.players == rules.players) break;
    r = player_baseline(rules.preset, probe.players);
    const Rules own = player_baseline(rules.preset, rules.players);
    for (const KnobInfo& k : knob_table())
      if (k.name != "players" && knob_text(rules, k) != knob_text(own, k))
        set_knob_text(r, k, knob_text(rules, k));
    break;
  }
  for (std::size_t i = 0; i < overrides.size(); ++i) {
    refusal.index = i;
    const KnobInfo* k = find_knob(overrides[i].name);
    refusal.unknown = k == nullptr;
    if (refusal.unknown) return refusal;
    refusal.expected = set_knob_value(r, *k, overrides[i].value);
    if (!refusal.expected.empty()) return refusal;
  }
  refusal.index = 0;
  if (const std::string why = check_rules(r); !why.empty()) {
    refusal.refused = rules_repr(r) + " is refused: " + why;
    return refusal;
  }
  rules = r;
  return refusal;
}

}  // namespace burraco
