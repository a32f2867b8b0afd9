// burraco — Rules: the knobs of RULES section G and the presets.
//
// A preset is the default Rules (the italian game, RULES G.1) with the knobs it changes, written
// once in the table kPresets below. Every other list of presets is read from it: Rules.PRESETS
// and Rules.presets() in Python, the command's help, the server's lobby (GET /api/presets), the
// gymnasium ids; the reference engine keeps its own table, which tests/test_rules.py holds to this
// one (docs/contributing.md, "Adding a preset").
//
// Every knob is listed, with its type, allowed values and one-line meaning, in the table
// `knob_table()`; bindings and text formats read and write knobs through it by name, so a knob has
// one name everywhere (docs/rules.md G has the full table with every preset's value).
#pragma once

#include <array>
#include <cstdint>
#include <iterator>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "burraco/card.hpp"
#include "burraco/cardset.hpp"

namespace burraco {

// A preset is its row in kPresets. The enumerators name the presets that code refers to; a preset
// needs none to exist (rules.cpp checks that each names its row).
enum class Preset : std::uint8_t { Italian, Italian2p, Italian3p, Online2p, Brazilian };

// Enumerated knobs are stored as small integers indexing their `choices` in the knob table.
enum class CardValues : std::uint8_t { Italian, PagatBrazil };
enum class AceRule : std::uint8_t { LowOrHigh, LowOnly, HighOnly };
enum class FirstDrawRule : std::uint8_t { None, MayRejectFirstCard };
enum class PozzettoReveal : std::uint8_t { AfterPartnerTurn, NextOwnTurn, Immediately };
enum class ClosingBurraco : std::uint8_t { Any, Clean };
enum class ClosingDiscard : std::uint8_t { Required, Optional };
enum class SemiCleanRule : std::uint8_t { LongestNaturalBlock, WildAtEnd };
enum class UnplayedPozzettoRule : std::uint8_t { CountAsHand, MinOfValueAnd100, AsNotTaken };
enum class DeadlockRule : std::uint8_t { EndHand, ForceDraw };
enum class ScoreSplit : std::uint8_t { None, HalvesForPair };
enum class Compare : std::uint8_t { Greater, GreaterEqual };
enum class TiePolicy : std::uint8_t { PlayOn, Draw };

inline constexpr std::int32_t kNone = -1;  // the None of an optional non-negative integer knob

struct OpeningStep {
  std::int32_t from_score = 0;  // cumulative side score from which this minimum applies
  std::int32_t minimum = 0;
  friend constexpr bool operator==(const OpeningStep&, const OpeningStep&) = default;
};

struct Rules {
  Preset preset = Preset::Italian;

  std::int32_t players = 4;
  std::int32_t sides = 2;  // 2, 3 with three players; six players: 3 (A B C A B C) or 2 (RULES F.7)
  std::int32_t decks = 2;
  std::int32_t jokers = 4;
  CardValues card_values = CardValues::Italian;
  std::int32_t hand_size = 11;
  // Two packets, or three (six players, RULES F.7): a third size of 0 means no third packet.
  std::array<std::int32_t, 3> pozzetto_sizes = {11, 11, 0};
  bool initial_upcard = true;
  FirstDrawRule first_draw_rule = FirstDrawRule::None;
  bool pile_take_requires_meld = false;
  bool forbid_discard_of_single_pile_card = true;
  bool natural_two_in_run = true;
  std::int32_t max_wild_per_meld = 1;
  bool sets_allowed = true;
  std::uint16_t set_ranks = 0x3FFA;  // bit r for rank r: A, 3..K (never 2)
  std::int32_t max_sets_per_rank_per_side = 1;
  std::int32_t max_set_size = 9;
  AceRule ace_low_or_high = AceRule::LowOrHigh;
  bool allow_both_aces_in_run = false;
  bool allow_orphan_wild_14 = true;
  std::int32_t max_run_size = 14;
  bool run_wraparound = false;
  std::uint8_t wild_display_end = 0;  // only "low"
  bool free_end_wild_may_move = true;
  bool wild_replaced_only_by_its_card = true;
  bool wild_swap_allowed = false;
  bool low_natural_two_may_convert = true;
  std::array<OpeningStep, 4> opening_minimum{};  // the first `opening_steps` entries are used
  std::int32_t opening_steps = 0;                // 0: no opening minimum (None)
  std::int32_t opening_fail_increment = 15;
  PozzettoReveal pozzetto_reveal = PozzettoReveal::AfterPartnerTurn;
  bool closing_requires_pozzetto = true;
  ClosingBurraco closing_requires_burraco = ClosingBurraco::Any;
  ClosingDiscard closing_discard = ClosingDiscard::Required;
  bool closing_discard_wild_allowed = false;
  std::int32_t closing_bonus = 100;
  std::int32_t clean_burraco_bonus = 200;
  std::int32_t dirty_burraco_bonus = 100;
  std::int32_t semi_clean_burraco_bonus = 150;  // kNone: scored as dirty
  SemiCleanRule semi_clean_rule = SemiCleanRule::LongestNaturalBlock;
  std::int32_t no_pozzetto_penalty = 100;
  UnplayedPozzettoRule unplayed_pozzetto_rule = UnplayedPozzettoRule::CountAsHand;
  std::int32_t stock_end_threshold = 2;
  bool pozzetto_becomes_stock = false;
  DeadlockRule deadlock_rule = DeadlockRule::EndHand;
  std::int32_t cut_bonus = 0;
  double cut_exact_probability = 0.0;
  ScoreSplit score_split = ScoreSplit::None;
  std::int32_t match_target = 2000;
  Compare compare = Compare::Greater;
  TiePolicy tie_policy = TiePolicy::PlayOn;
  // Knobs with a single supported value (the last rows of the knob table, docs/rules.md G): only
  // their one value is accepted, so a rule set states them explicitly.
  std::uint8_t pile_take = 0;        // "whole_pile"
  std::uint8_t wild_cards = 0;       // "jokers_and_twos"
  std::uint8_t pozzetto_pickup = 0;  // "on_the_fly_or_after_discard"
  std::int32_t pozzetti_per_side = 1;
  bool discard_pile_public = true;
  std::uint8_t dealer_rotation = 0;  // "left"

  friend bool operator==(const Rules&, const Rules&) = default;

  // Derived values.
  int total_cards() const { return 52 * decks + jokers; }
  int initial_stock() const {
    return total_cards() - players * hand_size - pozzetto_sizes[0] - pozzetto_sizes[1] -
           pozzetto_sizes[2] - (initial_upcard ? 1 : 0);
  }
  // Packets dealt: 2, or 3 with six players.
  int packets() const { return pozzetto_sizes[2] > 0 ? 3 : 2; }
  // Side slots of a game (melds, openings, results): one per side, four with three players (the
  // seats and the pair they split into, RULES F.6).
  int side_slots() const { return players == 3 ? 4 : sides; }
  // Match scores a hand starts from: one per side (three players: per seat).
  int score_count() const { return sides; }
  // Lowest and highest run slot that exists (RULES 0.3 with ace_low_or_high).
  int min_slot() const { return ace_low_or_high == AceRule::HighOnly ? 2 : 1; }
  int max_slot() const { return ace_low_or_high == AceRule::LowOnly ? 13 : 14; }
  // Card points (RULES A.3): the value depends on the card only, never on its role.
  int card_points(Card card) const {
    if (card.is_joker()) return card_values == CardValues::Italian ? 30 : 20;
    const int r = card.rank();
    if (r == kTwo) return card_values == CardValues::Italian ? 20 : 10;
    if (r == kAce) return 15;
    return r >= 8 ? 10 : 5;
  }
  // The sum of card_points over `cards`, read off the planes by rank columns.
  int points_of(CardSet cards) const {
    constexpr std::uint64_t aces = CardSet::rank_column(kAce), twos = CardSet::rank_column(kTwo);
    constexpr std::uint64_t low = CardSet::rank_column(3) * 0x1F;     // 3 to 7
    constexpr std::uint64_t high = CardSet::rank_column(8) * 0x3F;    // 8 to K
    const auto count = [&](std::uint64_t mask) { return cards.count_in(mask); };
    const bool italian = card_values == CardValues::Italian;
    return cards.jokers() * (italian ? 30 : 20) + count(twos) * (italian ? 20 : 10) +
           count(aces) * 15 + count(low) * 5 + count(high) * 10;
  }
};

// ---- The presets (RULES G.1) ------------------------------------------------------------------

struct PresetInfo {
  std::string_view name;
  std::string_view title;           // one line for a menu: "Italian, two players"
  void (*changes)(Rules&);          // the knobs that differ from the default Rules (italian)
};

inline constexpr PresetInfo kPresets[] = {
    {"italian", "Italian, four players in two pairs", [](Rules&) {}},
    {"italian-2p", "Italian, two players",
     [](Rules& r) {
       r.players = 2;
       r.pozzetto_reveal = PozzettoReveal::NextOwnTurn;
     }},
    {"italian-3p", "Italian, three players",
     [](Rules& r) {
       r.players = 3;
       r.sides = 3;
       r.pozzetto_sizes = {18, 11, 0};
       r.score_split = ScoreSplit::HalvesForPair;
     }},
    {"online-2p", "online Italian, two players",
     [](Rules& r) {
       r.players = 2;
       r.jokers = 2;
       r.pozzetto_reveal = PozzettoReveal::Immediately;
       r.stock_end_threshold = 0;
       r.pozzetto_becomes_stock = true;
       r.match_target = 2005;
       r.compare = Compare::GreaterEqual;
     }},
    {"brazilian", "Buraco, four players",
     [](Rules& r) {
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
     }},
};

// The preset names, in table order.
inline constexpr auto kPresetNames = [] {
  std::array<std::string_view, std::size(kPresets)> names{};
  for (std::size_t i = 0; i < names.size(); ++i) names[i] = kPresets[i].name;
  return names;
}();

// Each enumerator of Preset names its row of kPresets.
static_assert(kPresets[static_cast<int>(Preset::Italian)].name == "italian");
static_assert(kPresets[static_cast<int>(Preset::Italian2p)].name == "italian-2p");
static_assert(kPresets[static_cast<int>(Preset::Italian3p)].name == "italian-3p");
static_assert(kPresets[static_cast<int>(Preset::Online2p)].name == "online-2p");
static_assert(kPresets[static_cast<int>(Preset::Brazilian)].name == "brazilian");

// Whether a side's match total has passed the target (RULES E.7: '>' or '>=' by rules.compare),
// which ends the match. Shared by the arena's matches and the search's equity reward.
inline bool passes_match_target(const Rules& rules, double total) {
  return rules.compare == Compare::Greater ? total > rules.match_target : total >= rules.match_target;
}

// Knob combinations under which a hand could not be played to its end: empty if fine, else why
// (docs/game.md "Rules that are refused"). The Rules constructor, the rules field of a state
// string and every Game refuse such rules. A pack too small to deal is check_playable's (game.hpp).
std::string check_rules(const Rules& rules);

// The preset of that name, or nullopt.
std::optional<Rules> preset_rules(std::string_view name);
// The knob values `preset` takes when played by `players` players, before any other knob is
// given: the preset's, with the sides of that player count (2, 3, 2; six players: 3) and, with
// six players, decks=3, jokers=6 and pozzetto_sizes=(11,11,11) (RULES F.7). The rules text, the
// repr and pickles name a knob only where it differs from these (players: from the preset's).
Rules player_baseline(Preset preset, int players);
std::string_view preset_name(Preset preset);
// The one-line title of a preset, for menus (the server's lobby).
std::string_view preset_title(Preset preset);
// The preset names in table order, joined: "italian, italian-2p, ...", for messages.
std::string preset_names_text();

// ---- The knob table ---------------------------------------------------------------------------

enum class KnobType : std::uint8_t {
  Bool,       // bool field; `only` >= 0 restricts it to that value
  Int,        // int32 field in [min, max]
  OptInt,     // int32 field, kNone or in [min, max]
  Float,      // double field in [fmin, fmax]
  Choice,     // uint8 enum field, value = index into `choices`
  Ranks,      // uint16 rank mask (set_ranks)
  IntPair,    // std::array<int32, 3> (pozzetto_sizes): 2 or 3 entries (a third 0: absent), each in [min, max]
  Opening,    // opening_minimum steps (None or ascending (from_score, minimum) pairs from 0)
};

struct KnobInfo {
  std::string_view name;
  // What the knob means, in one line, ending with the sections of docs/rules.md that define it:
  // "Cards dealt to each player (RULES F.2)." The Python property of the knob has it as its
  // docstring; the reference engine's knob table holds the same text.
  std::string_view doc;
  KnobType type;
  void* (*field)(Rules&);
  std::int32_t min = 0, max = 0;      // Int, OptInt, IntPair
  double fmin = 0, fmax = 0;          // Float
  std::span<const std::string_view> choices{};  // Choice
  std::int8_t only = -1;              // Bool restricted to one value (0 or 1), or -1

  const void* get(const Rules& rules) const { return field(const_cast<Rules&>(rules)); }
  void* get(Rules& rules) const { return field(rules); }
};

std::span<const KnobInfo> knob_table();
const KnobInfo* find_knob(std::string_view name);

}  // namespace burraco

namespace burraco {

// A knob's value as a Python literal without spaces: True, 150, None, (18,11), wild_at_end.
std::string knob_text(const Rules& rules, const KnobInfo& knob);
// Sets a knob from that text; false (rules unchanged) if the text is not a legal value.
bool set_knob_text(Rules& rules, const KnobInfo& knob, std::string_view text);
// The rules text: the `rules=` field of a state string (docs/game.md), e.g. "italian" or
// "brazilian:players=2:semi_clean_burraco_bonus=150" (knobs that differ, table order). These two
// are the core's only writer and reader of it: state strings, the search's keys and the Python
// binding's Rules.from_text / Rules.text all go through them.
std::string rules_text(const Rules& rules);
// Parses rules_text(); on failure returns false, leaves `rules` unchanged and says why in `error`
// (an unknown preset, a knob it cannot read, or rules that check_rules refuses).
bool parse_rules_text(std::string_view text, Rules& rules, std::string& error);
// The same, in the canonical form only (the text rules_text writes, as Rules.from_text takes it):
// any other spelling of valid rules is refused, the error naming the canonical text.
bool parse_canonical_rules_text(std::string_view text, Rules& rules, std::string& error);
// The preset played by this many players, against which the rules text, the repr and pickles
// name knobs (the player count itself against the preset's).
Rules text_baseline(const Rules& rules);

// ---- Knob values as a binding reads and writes them ---------------------------------------------
// A knob's value in plain terms, as a language binding takes it from its caller and hands it back
// (in Python: True, 150, None, 0.5, 'wild_at_end', (18, 11), ((0, 50), (1500, 75))). The binding
// converts its objects to and from these; the checks of a value and their texts are the core's.
struct KnobValue {
  enum class Kind : std::uint8_t { Other, None, Bool, Int, Real, Text, Tuple };
  Kind kind = Kind::Other;       // Other: anything else (a value no knob takes)
  bool flag = false;             // Bool
  long long integer = 0;         // Int
  double real = 0;               // Real; an Int that is a real number too (real_too) as well
  bool real_too = false;
  std::string text;              // Text
  std::vector<KnobValue> items;  // Tuple (a tuple or a list in Python), read to two levels deep
  friend bool operator==(const KnobValue&, const KnobValue&) = default;
};

KnobValue knob_value(const Rules& rules, const KnobInfo& knob);
// Sets the knob to `value`. Returns "" when done; else leaves `rules` unchanged and returns what
// the knob takes ("an integer from 1 to 20", "one of 'any', 'clean'"), for the caller's message.
std::string set_knob_value(Rules& rules, const KnobInfo& knob, const KnobValue& value);
// Whether rules.knobs() lists the knob: all but `sides`, a choice only with six players.
bool knob_listed(const Rules& rules, const KnobInfo& knob);
// The value as a Python literal, as a repr writes it: True, 150, None, 0.1, 'low', (18, 11).
std::string python_literal(const KnobValue& value);
// A double as Python's repr writes it: the shortest digits that read back the same, written
// positionally when the decimal exponent is from -4 to 15 ('0.7', '300.0', '0.0001'), else
// '1e-05', '1e+16'; 'inf', 'nan'.
std::string python_float_text(double x);
// The knobs whose values differ from text_baseline(rules), in table order: those a repr names.
std::vector<const KnobInfo*> changed_knobs(const Rules& rules);
// The Python repr of the rules: "Rules('brazilian', players=2, semi_clean_burraco_bonus=150)".
std::string rules_repr(const Rules& rules);

// One knob given by name, for `override_knobs`.
struct KnobOverride {
  std::string name;
  KnobValue value;
};
// What override_knobs refused, if anything.
struct KnobRefusal {
  std::size_t index = 0;  // the override refused, when `unknown` or `expected` says why
  bool unknown = false;   // its name is no knob's
  std::string expected;   // its value is not one the knob takes: what the knob takes
  std::string refused;    // the rules made are refused as a whole: "Rules(...) is refused: why"
  bool ok() const { return !unknown && expected.empty() && refused.empty(); }
};
// `rules` with the overrides applied (Rules('preset', knob=value) and rules.replace(...)). A new
// player count starts from the preset played by that many players (RULES F.7: six take three
// decks, six jokers, three packets and three sides unless given), keeping the knobs that `rules`
// changed from its own baseline; then every override applies in order, and check_rules judges
// the result. On a refusal `rules` is unchanged.
KnobRefusal override_knobs(Rules& rules, const std::vector<KnobOverride>& overrides);

}  // namespace burraco
