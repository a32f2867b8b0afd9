#include "burraco/meld_view.hpp"

namespace burraco {

bool is_layout_text(std::string_view text) { return text.find("(=") != std::string_view::npos; }

std::vector<Card> cards_in_order(const Meld& meld) {
  std::vector<Card> out;
  if (meld.kind == MeldKind::Set) {
    CardSet naturals = meld.cards;
    if (meld.has_wild()) naturals.remove(meld.wild);
    naturals.for_each([&](Card c) { out.push_back(c); });
    if (meld.has_wild()) out.push_back(meld.wild);
  } else {
    for (int s = meld.lo; s <= meld.hi; ++s)
      out.push_back(s == meld.wild_slot ? meld.wild : meld.slot_card(s));
  }
  return out;
}

std::string_view kind_name(MeldKind kind) { return kind == MeldKind::Set ? "set" : "run"; }

std::string_view run_suit_text(const Meld& meld) {
  return meld.kind == MeldKind::Run ? suit_text(meld.suit) : std::string_view();
}

std::string_view set_rank_text(const Meld& meld) {
  return meld.kind == MeldKind::Set ? rank_text(meld.rank) : std::string_view();
}

std::vector<std::string> layouts(const SideMelds& side) {
  std::vector<std::string> out;
  for (int i = 0; i < side.count; ++i) out.push_back(layout(side.melds[i]));
  return out;
}

std::string meld_repr(const Meld& meld, const Rules& rules, std::string_view rules_text) {
  const MeldResult canonical = make_meld(meld.cards, rules);
  const bool is_canonical = canonical.ok() && canonical.meld == meld;
  return (is_canonical ? "Meld('" : "Meld.from_layout('") + layout(meld) + "'" +
         std::string(rules_text) + ")";
}

std::string melds_repr(const SideMelds& side, std::string_view rules_text) {
  std::string out = "Melds([";
  for (int i = 0; i < side.count; ++i) out += (i ? ", '" : "'") + layout(side.melds[i]) + "'";
  return out + "]" + std::string(rules_text) + ")";
}

MeldRefusal meld_refusal(MeldError error, bool layout) {
  if (error == MeldError::BadNotation)
    return {MeldRefusal::Notation, "",
            " cannot be read as a meld layout: cards written as in 'Jk(=4d) 5d 6d' or "
            "'Kd Ks Jk(=K)'"};
  return {MeldRefusal::Invalid, "",
          (layout ? " is not a meld layout: " : " is not a meld: ") +
              std::string(meld_error_text(error))};
}

MeldRefusal side_meld_refusal(MeldError error) {
  if (error != MeldError::SecondSetOfRank) return meld_refusal(error, false);
  return {MeldRefusal::Illegal, "cannot meld ",
          ": " + std::string(meld_error_text(error)) + "; lay the cards off on it instead"};
}

MeldRefusal lay_off_refusal(const Meld& meld, MeldError error, int index) {
  const std::string where = index < 0 ? layout(meld)
                                      : "meld " + std::to_string(index) + " (" + layout(meld) + ")";
  return {MeldRefusal::Illegal, "cannot add ",
          " to " + where + ": " + std::string(meld_error_text(error))};
}

MeldRefusal no_meld_refusal(int count) {
  return {MeldRefusal::Illegal, "no meld ",
          ": the side has " + std::to_string(count) + " meld(s)"};
}

std::string too_many_melds_text() {
  return "more than " + std::to_string(SideMelds::kCapacity) +
         " melds for one side (as many as 162 cards make)";
}

}  // namespace burraco
