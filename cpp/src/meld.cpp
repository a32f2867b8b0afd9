#include "burraco/meld.hpp"

#include <bit>
#include <cctype>
#include <vector>

namespace burraco {

std::string_view meld_error_text(MeldError error) {
  switch (error) {
    case MeldError::Ok: return "ok";
    case MeldError::TooFewCards: return "a meld needs at least 3 cards";
    case MeldError::AllWild: return "a meld needs natural cards, not only wilds";
    case MeldError::TooManyWilds: return "more than one card would act as a wild";
    case MeldError::NotOneRankOrSuit:
      return "the natural cards are neither of one rank (a set) nor of one suit (a run)";
    case MeldError::MixedSuits: return "a run's natural cards must all be of one suit";
    case MeldError::RepeatedRank: return "a run cannot hold the same rank twice";
    case MeldError::Hole: return "the cards leave a hole that no wild can fill";
    case MeldError::BothAces: return "a run may not have natural aces at both ends";
    case MeldError::NoSlotForWild: return "the wild would have no slot left in the run";
    case MeldError::OrphanNotAllowed:
      return "a 14th card as an orphan wild beside A..K is not allowed by these rules";
    case MeldError::TooLong: return "the meld would be longer than the rules allow";
    case MeldError::SetRankNotAllowed: return "no sets of that rank (and never of twos)";
    case MeldError::SetsNotAllowed: return "sets are not allowed by these rules";
    case MeldError::NoSuchCopy: return "the meld already holds every copy of that card";
    case MeldError::WrongRank: return "a set takes only cards of its rank or one wild";
    case MeldError::NotAdjacent: return "the card does not fit the run";
    case MeldError::BoundWildCannotMove:
      return "the wild is bound inside the run and only its exact card can move it";
    case MeldError::SecondWild: return "the meld already has a wild";
    case MeldError::SecondSetOfRank: return "the side already has a set of that rank";
    case MeldError::BadLayout: return "not a meld layout";
    case MeldError::BadNotation: return "cannot read the cards";
    case MeldError::TableFull:
      static_assert(SideMelds::kCapacity == 54, "the text names the cap");
      return "a side holds at most 54 melds, as many as 162 cards make";
  }
  return "?";
}

std::string_view wild_state_name(WildState state) {
  switch (state) {
    case WildState::None: return "";
    case WildState::Bound: return "bound";
    case WildState::FreeLow: return "free-low";
    case WildState::FreeHigh: return "free-high";
    case WildState::Orphan: return "orphan";
    case WildState::InSet: return "set";
  }
  return "";
}

std::string_view burraco_class_name(BurracoClass c) {
  switch (c) {
    case BurracoClass::None: return "";
    case BurracoClass::Clean: return "clean";
    case BurracoClass::SemiClean: return "semi-clean";
    case BurracoClass::Dirty: return "dirty";
  }
  return "";
}

namespace {

constexpr unsigned kSlotLowAce = 1u << 1;
constexpr unsigned kSlotTwo = 1u << 2;
constexpr unsigned kSlotHighAce = 1u << 14;

int lowest(unsigned mask) { return std::countr_zero(mask); }
int highest(unsigned mask) { return 31 - std::countl_zero(mask); }

// Completes a run from its natural slots and its wild (RULES B.3-B.5): run_shape places the wild
// and checks V1-V6. Writes every run field of `out` but `cards`.
MeldError finish_run(unsigned naturals, Card wild, int fixed_slot, int suit, const Rules& rules,
                     Meld& out) {
  const bool has_wild = wild.index != kNoCard;
  const bool own_two = has_wild && wild.is_two() && wild.suit() == suit;
  RunShape shape;
  const MeldError error = run_shape(naturals, has_wild, own_two, fixed_slot, rules, shape);
  if (error != MeldError::Ok) return error;
  const int lo = lowest(naturals), hi = highest(naturals), wild_slot = shape.wild_slot;
  out.kind = MeldKind::Run;
  out.suit = static_cast<std::uint8_t>(suit);
  out.rank = 0;
  out.lo = static_cast<std::uint8_t>(shape.first);
  out.hi = static_cast<std::uint8_t>(shape.last);
  out.wild_slot = static_cast<std::uint8_t>(wild_slot);
  out.wild = wild_slot ? wild : Card{};
  if (!wild_slot) out.wild_state = WildState::None;
  else if (shape.orphan) out.wild_state = WildState::Orphan;
  else if (wild_slot > lo && wild_slot < hi) out.wild_state = WildState::Bound;
  else out.wild_state = wild_slot < lo ? WildState::FreeLow : WildState::FreeHigh;
  return MeldError::Ok;
}

// The slots where a card may sit as a natural in a run of `suit` (RULES V2), as a mask.
unsigned natural_slot_options(Card card, int suit, const Rules& rules) {
  if (card.is_joker() || card.suit() != suit) return 0;
  const int rank = card.rank();
  unsigned slots = 0;
  if (rank == kAce) slots = kSlotLowAce | kSlotHighAce;
  else if (rank == kTwo) slots = rules.natural_two_in_run ? kSlotTwo : 0;
  else slots = 1u << rank;
  const unsigned existing = ((1u << (rules.max_slot() + 1)) - 1) & ~((1u << rules.min_slot()) - 1);
  return slots & existing;
}

// Preference key among several legal results (RULES B.4, B.6): most naturals, no two
// conversion unless needed, the added ace low. Larger is better.
int preference(unsigned naturals, bool conversion, bool ace_high) {
  return std::popcount(naturals) * 4 + (conversion ? 0 : 2) + (ace_high ? 0 : 1);
}

}  // namespace

MeldResult make_meld(CardSet cards, const Rules& rules) {
  MeldResult result;
  const int n = cards.size();
  if (n < 3) return {result.meld, MeldError::TooFewCards};
  if (!cards.within(rules.decks, 2 * rules.decks)) return {result.meld, MeldError::NoSuchCopy};
  const std::uint64_t twos_column = CardSet::rank_column(kTwo);
  const int jokers = cards.jokers();
  const int twos = cards.count_in(twos_column);
  const std::uint64_t nat_one = cards.one() & CardSet::kRankBits & ~twos_column;
  const int naturals = cards.count_in(CardSet::kRankBits & ~twos_column);
  if (naturals == 0) return {result.meld, MeldError::AllWild};

  unsigned ranks = 0, suits = 0;
  for (int s = 0; s < kSuits; ++s) {
    const unsigned lane = static_cast<unsigned>((nat_one >> (16 * s)) & CardSet::kLaneRanks);
    ranks |= lane;
    if (lane) suits |= 1u << s;
  }

  if (naturals >= 2 && std::popcount(ranks) == 1) {  // RULES B.2: a set
    const int rank = lowest(ranks);
    if (!rules.sets_allowed) return {result.meld, MeldError::SetsNotAllowed};
    if (!(rules.set_ranks & (1u << rank))) return {result.meld, MeldError::SetRankNotAllowed};
    if (jokers + twos > 1) return {result.meld, MeldError::TooManyWilds};
    if (n > rules.max_set_size) return {result.meld, MeldError::TooLong};
    Meld& m = result.meld;
    m.cards = cards;
    m.kind = MeldKind::Set;
    m.rank = static_cast<std::uint8_t>(rank);
    if (jokers) m.wild = Card::joker();
    else if (twos) m.wild = Card::suited(std::countr_zero(cards.one() & twos_column) / 16, kTwo);
    m.wild_state = m.has_wild() ? WildState::InSet : WildState::None;
    return result;
  }

  if (std::popcount(suits) > 1)  // RULES B.3: a run
    return {result.meld, std::popcount(ranks) > 1 ? MeldError::NotOneRankOrSuit : MeldError::MixedSuits};
  const int suit = lowest(suits);
  const unsigned lane = cards.lane(suit) & ~kSlotTwo;
  const unsigned lane_two = cards.lane_two(suit) & ~kSlotTwo;
  if ((lane_two & ~kSlotLowAce) || (cards.lane_three(suit) & ~kSlotTwo))
    return {result.meld, MeldError::RepeatedRank};  // a rank twice, or a third ace
  const int aces = ((lane & kSlotLowAce) ? 1 : 0) + ((lane_two & kSlotLowAce) ? 1 : 0);
  const Card own_two = Card::suited(suit, kTwo);
  const int own_twos = cards.count(own_two);
  const int other_wilds = jokers + twos - own_twos;
  Card other_wild{};
  if (jokers) other_wild = Card::joker();
  else if (other_wilds)
    for (int s = 0; s < kSuits; ++s)
      if (s != suit && cards.count(Card::suited(s, kTwo))) other_wild = Card::suited(s, kTwo);

  const unsigned base = lane & ~kSlotLowAce;  // ranks 3..K sit in their own slot
  unsigned ace_options[2] = {0, 0};
  int ace_count = 1;
  if (aces == 1) { ace_options[0] = kSlotLowAce; ace_options[1] = kSlotHighAce; ace_count = 2; }
  else if (aces == 2) ace_options[0] = kSlotLowAce | kSlotHighAce;

  int best = -1;
  MeldError first_error = MeldError::Ok;
  for (int a = 0; a < ace_count; ++a) {
    const unsigned ace_slots = ace_options[a];
    if ((ace_slots & kSlotLowAce) && rules.min_slot() > 1) continue;
    if ((ace_slots & kSlotHighAce) && rules.max_slot() < 14) continue;
    for (int natural_two = (own_twos && rules.natural_two_in_run) ? 1 : 0; natural_two >= 0;
         --natural_two) {
      const unsigned slots = base | ace_slots | (natural_two ? kSlotTwo : 0u);
      const int wilds = other_wilds + own_twos - natural_two;
      MeldError error = MeldError::Ok;
      Meld candidate;
      if (wilds > 1) error = MeldError::TooManyWilds;
      else error = finish_run(slots, wilds == 0 ? Card{} : (other_wilds ? other_wild : own_two), 0,
                              suit, rules, candidate);
      if (error != MeldError::Ok) {
        if (first_error == MeldError::Ok) first_error = error;
        continue;
      }
      const int key = preference(slots, false, ace_slots == kSlotHighAce);
      if (key > best) {
        best = key;
        result.meld = candidate;
      }
    }
  }
  if (best < 0) return {Meld{}, first_error == MeldError::Ok ? MeldError::Hole : first_error};
  result.meld.cards = cards;
  return result;
}

namespace {

// RULES B.6: the candidate runs R' a card laid off on run `meld` may give. Calls
// consider(slots, wild, fixed_slot, conversion, ace_high) for each, and stops when it returns
// true; returns the error to report when no candidate is legal and `consider` saw none fail
// (SecondWild), else Ok. Shared by lay_off, which keeps the preferred legal candidate, and
// can_lay_off, which stops at the first.
template <class Consider>
MeldError run_lay_off_candidates(const Meld& meld, Card card, const Rules& rules, Consider&& consider) {
  const unsigned naturals = meld.natural_slots();
  const int suit = meld.suit;
  // L3: the card as a natural in one of its slots.
  for (unsigned options = natural_slot_options(card, suit, rules) & ~naturals; options;
       options &= options - 1) {
    const int slot = lowest(options);
    const unsigned slots = naturals | (1u << slot);
    const bool ace_high = slot == 14;
    if (!meld.has_wild()) {
      if (consider(slots, Card{}, 0, false, ace_high)) return MeldError::Ok;
      // L1 exception: a lowest natural two (slot 2, no ace below) may become the wild.
      if (rules.low_natural_two_may_convert && lowest(naturals) == 2 &&
          consider(slots & ~kSlotTwo, Card::suited(suit, kTwo), 0, true, ace_high))
        return MeldError::Ok;
    } else if (slot == meld.wild_slot) {
      // L2 replacement: the released wild returns to slot 2 as a natural when it is a two of
      // the run's suit and the run now starts at 3; otherwise it is placed like a free wild.
      const Card wild = meld.wild;
      if (!wild.is_joker() && wild.is_two() && wild.suit() == suit && rules.natural_two_in_run &&
          lowest(slots) == 3) {
        if (consider(slots | kSlotTwo, Card{}, 0, false, ace_high)) return MeldError::Ok;
      } else if (consider(slots, wild, 0, false, ace_high)) {
        return MeldError::Ok;
      }
    } else if (meld.wild_state == WildState::Bound) {
      // A bound wild stays.
      if (consider(slots, meld.wild, meld.wild_slot, false, ace_high)) return MeldError::Ok;
    } else if (consider(slots, meld.wild, 0, false, ace_high)) {  // a free wild may move
      return MeldError::Ok;
    }
  }
  // L3: the card as the wild of R' (only if R has none).
  if (card.is_wild()) {
    if (meld.has_wild()) return MeldError::SecondWild;
    consider(naturals, card, 0, false, false);
  }
  return MeldError::Ok;
}

// The error of a run lay-off no candidate of which is legal.
MeldError run_lay_off_error(MeldError first_error, Card card, int suit) {
  if (first_error != MeldError::Ok) return first_error;
  return (!card.is_joker() && card.suit() != suit) ? MeldError::MixedSuits : MeldError::NotAdjacent;
}

}  // namespace

MeldResult lay_off(const Meld& meld, Card card, const Rules& rules) {
  const int limit = card.is_joker() ? rules.jokers : rules.decks;
  if (meld.cards.count(card) >= limit) return {meld, MeldError::NoSuchCopy};
  CardSet cards = meld.cards;
  cards.add(card);

  if (meld.kind == MeldKind::Set) {  // RULES B.2
    Meld m = meld;
    m.cards = cards;
    if (card.is_wild()) {
      if (meld.has_wild()) return {meld, MeldError::SecondWild};
      m.wild = card;
      m.wild_state = WildState::InSet;
    } else if (card.rank() != meld.rank) {
      return {meld, MeldError::WrongRank};
    }
    if (cards.size() > rules.max_set_size) return {meld, MeldError::TooLong};
    return {m, MeldError::Ok};
  }

  // RULES B.6: enumerate the candidate runs R' and keep the preferred legal one.
  const int suit = meld.suit;
  int best = -1;
  Meld best_meld;
  MeldError first_error = MeldError::Ok;
  const MeldError wild_error = run_lay_off_candidates(
      meld, card, rules,
      [&](unsigned slots, Card wild, int fixed_slot, bool conversion, bool ace_high) {
        Meld candidate;
        const MeldError error = finish_run(slots, wild, fixed_slot, suit, rules, candidate);
        if (error != MeldError::Ok) {
          if (first_error == MeldError::Ok) first_error = error;
          return false;
        }
        const int key = preference(slots, conversion, ace_high);
        if (key > best) {
          best = key;
          best_meld = candidate;
        }
        return false;
      });
  if (first_error == MeldError::Ok) first_error = wild_error;
  if (best < 0) return {meld, run_lay_off_error(first_error, card, suit)};
  best_meld.cards = cards;
  return {best_meld, MeldError::Ok};
}

bool can_lay_off(const Meld& meld, Card card, const Rules& rules) {
  const int limit = card.is_joker() ? rules.jokers : rules.decks;
  if (meld.cards.count(card) >= limit) return false;
  if (meld.kind == MeldKind::Set) {  // RULES B.2
    if (card.is_wild() ? meld.has_wild() : card.rank() != meld.rank) return false;
    return meld.cards.size() + 1 <= rules.max_set_size;
  }
  bool legal = false;
  run_lay_off_candidates(meld, card, rules,
                         [&](unsigned slots, Card wild, int fixed_slot, bool, bool) {
                           const bool has_wild = wild.index != kNoCard;
                           const bool own_two = has_wild && wild.is_two() && wild.suit() == meld.suit;
                           RunShape shape;
                           legal = run_shape(slots, has_wild, own_two, fixed_slot, rules, shape) ==
                                   MeldError::Ok;
                           return legal;
                         });
  return legal;
}

BurracoClass Meld::classify(const Rules& rules) const {
  if (size() < 7) return BurracoClass::None;
  if (!has_wild()) return BurracoClass::Clean;
  if (rules.semi_clean_burraco_bonus != kNone) {
    if (kind == MeldKind::Set) {
      if (size() - 1 >= 7) return BurracoClass::SemiClean;
    } else if (rules.semi_clean_rule == SemiCleanRule::WildAtEnd) {
      if (wild_state != WildState::Bound && size() - 1 >= 7) return BurracoClass::SemiClean;
    } else {
      unsigned block = natural_slots();
      int longest = 0;
      while (block) {
        block &= block << 1;
        ++longest;
      }
      if (longest >= 7) return BurracoClass::SemiClean;
    }
  }
  return BurracoClass::Dirty;
}

int Meld::points(const Rules& rules) const { return rules.points_of(cards); }

int Meld::bonus(const Rules& rules) const {
  switch (classify(rules)) {
    case BurracoClass::None: return 0;
    case BurracoClass::Clean: return rules.clean_burraco_bonus;
    case BurracoClass::SemiClean: return rules.semi_clean_burraco_bonus;
    case BurracoClass::Dirty: return rules.dirty_burraco_bonus;
  }
  return 0;
}

std::string layout(const Meld& meld) {
  std::string out;
  if (meld.kind == MeldKind::Set) {
    CardSet naturals = meld.cards;
    if (meld.has_wild()) naturals.remove(meld.wild);
    naturals.for_each([&](Card c) {
      if (!out.empty()) out += ' ';
      out += card_name(c);
    });
    if (meld.has_wild()) {
      out += ' ';
      out += card_name(meld.wild);
      out += "(=";
      out += rank_char(meld.rank);
      out += ')';
    }
    return out;
  }
  for (int slot = meld.lo; slot <= meld.hi; ++slot) {
    if (slot != meld.lo) out += ' ';
    if (slot == meld.wild_slot) {
      out += card_name(meld.wild);
      out += "(=";
      out += card_name(meld.slot_card(slot));
      out += ')';
    } else {
      out += card_name(meld.slot_card(slot));
    }
  }
  return out;
}

namespace {

struct LayoutToken {
  Card card;
  std::string_view stands_for;  // text inside "(=...)", empty if none
  std::string_view tag;         // text inside "[...]", empty if none
};

bool split_layout(std::string_view text, std::vector<LayoutToken>& tokens) {
  std::size_t i = 0;
  auto is_sep = [](char c) { return std::isspace(static_cast<unsigned char>(c)) || c == ','; };
  while (i < text.size()) {
    while (i < text.size() && is_sep(text[i])) ++i;
    if (i >= text.size()) break;
    std::size_t j = i;
    while (j < text.size() && !is_sep(text[j]) && text[j] != '(' && text[j] != '[') ++j;
    const auto card = parse_card(text.substr(i, j - i));
    if (!card) return false;
    LayoutToken token{*card, {}, {}};
    if (j < text.size() && text[j] == '(') {
      if (j + 1 >= text.size() || text[j + 1] != '=') return false;
      const std::size_t close = text.find(')', j);
      if (close == std::string_view::npos) return false;
      token.stands_for = text.substr(j + 2, close - j - 2);
      if (!parse_card(token.stands_for) && parse_rank(token.stands_for) == 0) return false;
      j = close + 1;
    }
    if (j < text.size() && text[j] == '[') {
      const std::size_t close = text.find(']', j);
      if (close == std::string_view::npos) return false;
      std::string tag(text.substr(j + 1, close - j - 1));
      for (char& c : tag) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      static constexpr std::string_view kTags[] = {"bound", "free-low", "free-high", "orphan", "set"};
      token.tag = {};
      for (std::string_view known : kTags)
        if (tag == known) token.tag = known;  // points at static storage, lower case
      if (token.tag.empty()) return false;
      j = close + 1;
    }
    if (j < text.size() && !is_sep(text[j])) return false;
    tokens.push_back(token);
    i = j;
  }
  return true;
}

MeldResult bad_layout() { return {Meld{}, MeldError::BadLayout}; }
MeldResult bad_notation() { return {Meld{}, MeldError::BadNotation}; }

}  // namespace

MeldResult parse_layout(std::string_view text, const Rules& rules) {
  std::vector<LayoutToken> tokens;
  if (!split_layout(text, tokens)) return bad_notation();
  CardSet cards;
  int annotated = -1, naturals_not_two = 0, set_rank = 0;
  bool one_rank = true;
  for (int i = 0; i < static_cast<int>(tokens.size()); ++i) {
    const LayoutToken& t = tokens[i];
    // More copies than the rules' pack holds (jokers: two a deck).
    if (!cards.add(t.card) || !cards.within(rules.decks, 2 * rules.decks)) return bad_notation();
    if (!t.stands_for.empty()) {
      if (annotated >= 0 || !t.card.is_wild()) return bad_layout();
      annotated = i;
    } else if (!t.tag.empty()) {
      return bad_layout();  // a tag belongs to the wild
    }
    if (!t.card.is_wild()) {
      ++naturals_not_two;
      if (set_rank == 0) set_rank = t.card.rank();
      else if (t.card.rank() != set_rank) one_rank = false;
    }
  }
  if (tokens.size() < 3) return {Meld{}, MeldError::TooFewCards};

  const bool annotation_is_rank =
      annotated >= 0 && parse_rank(tokens[annotated].stands_for) != 0 &&
      !parse_card(tokens[annotated].stands_for);
  if (annotation_is_rank || (annotated < 0 && one_rank && naturals_not_two >= 2)) {
    // A set: no positions, so the multiset decides; an annotation must name the set's rank.
    MeldResult result = make_meld(cards, rules);
    if (!result.ok()) return result;
    if (result.meld.kind != MeldKind::Set) return bad_layout();
    if (annotated >= 0) {
      if (parse_rank(tokens[annotated].stands_for) != result.meld.rank) return bad_layout();
      if (!tokens[annotated].tag.empty() && tokens[annotated].tag != "set") return bad_layout();
    } else if (result.meld.has_wild()) {
      return bad_layout();  // a wild in a layout shows what it stands for
    }
    return result;
  }

  // A run: consecutive slots from the first card's slot.
  int suit = -1;
  for (const LayoutToken& t : tokens)
    if (t.stands_for.empty() && !t.card.is_wild()) { suit = t.card.suit(); break; }
  if (suit < 0) return {Meld{}, MeldError::AllWild};
  auto slot_of = [&](Card c, bool first) -> int {  // the natural slot of c in this run, or 0
    if (c.is_joker() || c.suit() != suit) return 0;
    if (c.rank() == kAce) return first ? 1 : 14;
    return c.rank();
  };
  int slot = 0;
  unsigned naturals = 0;
  int wild_slot = 0;
  for (int i = 0; i < static_cast<int>(tokens.size()); ++i) {
    const LayoutToken& t = tokens[i];
    Card placed = t.card;
    if (i == annotated) {
      const auto stands = parse_card(t.stands_for);
      if (!stands) return bad_layout();
      placed = *stands;
    }
    const int own = slot_of(placed, i == 0);
    if (own == 0) return i == annotated ? bad_layout() : MeldResult{Meld{}, MeldError::MixedSuits};
    if (i == 0) slot = own;
    else if (++slot != own) return bad_layout();
    if (slot > 14) return bad_layout();
    if (i == annotated) {
      // A two of the run's suit in slot 2 is natural, never a wild (V2).
      if (slot == 2 && t.card.is_two() && t.card.suit() == suit && rules.natural_two_in_run)
        return bad_layout();
      wild_slot = slot;
    } else {
      if (t.card.is_two() && !(slot == 2 && t.card.suit() == suit && rules.natural_two_in_run))
        return bad_layout();  // a wild must show what it stands for
      naturals |= 1u << slot;
    }
  }
  if (naturals == 0) return {Meld{}, MeldError::AllWild};
  if (rules.min_slot() > lowest(naturals | (wild_slot ? 1u << wild_slot : 0)) ||
      rules.max_slot() < highest(naturals | (wild_slot ? 1u << wild_slot : 0)))
    return bad_layout();
  MeldResult result;
  const Card wild = annotated >= 0 ? tokens[annotated].card : Card{};
  const bool inside = wild_slot > lowest(naturals) && wild_slot < highest(naturals);
  result.error = finish_run(naturals, wild, inside ? wild_slot : 0, suit, rules, result.meld);
  if (!result.ok()) return result;
  if (annotated >= 0 && !tokens[annotated].tag.empty()) {
    const std::string_view tag = tokens[annotated].tag;
    std::string_view written = inside ? "bound"
                               : wild_slot < lowest(naturals) ? "free-low" : "free-high";
    if (result.meld.wild_state == WildState::Orphan) written = "orphan";
    if (tag != written) return bad_layout();
  }
  result.meld.cards = cards;
  return result;
}

MeldResult SideMelds::check_new(CardSet cards, const Rules& rules) const {
  MeldResult result = make_meld(cards, rules);
  if (result.ok() && result.meld.kind == MeldKind::Set && (set_ranks & (1u << result.meld.rank)))
    result.error = MeldError::SecondSetOfRank;
  if (result.ok() && count >= kCapacity) result.error = MeldError::TableFull;
  return result;
}

void SideMelds::append(const Meld& meld) {
  melds[count++] = meld;
  if (meld.kind == MeldKind::Set) set_ranks |= static_cast<std::uint16_t>(1u << meld.rank);
}

}  // namespace burraco
