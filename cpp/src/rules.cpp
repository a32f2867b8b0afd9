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
        integer("opening_fail_increment", BURRACO_FIELD(opening_fail_increment), 0, 100000),
        choice("pozzetto_reveal", BURRACO_FIELD(pozzetto_reveal), kReveal),
        boolean("closing_requires_pozzetto", BURRACO_FIELD(closing_requires_pozzetto), 1),
        choice("closing_requires_burraco", BURRACO_FIELD(closing_requires_burraco),
               kClosingBurraco),
        choice("closing_discard", BURRACO_FIELD(closing_discard), kClosingDiscard),
        boolean("closing_discard_wild_allowed", BURRACO_FIELD(closing_discard_wild_allowed)),
        integer("closing_bonus", BURRACO_FIELD(closing_bonus), 0, 100000),
        integer("clean_burraco_bonus", BURRACO_FIELD(clean_burraco_bonus), 0, 100000),
        integer("dirty_burraco_bonus", BURRACO_FIELD(dirty_burraco_bonus), 0, 100000),
        integer("semi_clean_burraco_bonus", BURRACO_FIELD(semi_clean_burraco_bonus), 0, 100000,
                KnobType::OptInt),
        choice("semi_clean_rule", BURRACO_FIELD(semi_clean_rule), kSemiCleanRule),
        integer("no_pozzetto_penalty", BURRACO_FIELD(no_pozzetto_penalty), 0, 100000),
        choice("unplayed_pozzetto_rule", BURRACO_FIELD(unplayed_pozzetto_rule), kUnplayed),
        integer("stock_end_threshold", BURRACO_FIELD(stock_end_threshold), 0, 10),
        boolean("pozzetto_becomes_stock", BURRACO_FIELD(pozzetto_becomes_stock)),
        choice("deadlock_rule", BURRACO_FIELD(deadlock_rule), kDeadlock),
        integer("cut_bonus", BURRACO_FIELD(cut_bonus), 0, 100000),
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
