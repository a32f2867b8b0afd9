// burraco_selftest: card lists against a pack and the API's texts of cards and melds
// (burraco/pack.hpp, burraco/meld_view.hpp), without Python: the reasons a list, an operator of
// Cards, a meld or a lay-off is refused, as the binding raises them after quoting the input.
#include <cstdio>
#include <string>

#include "check.hpp"
#include "burraco/meld_view.hpp"
#include "burraco/pack.hpp"
#include "burraco/rules.hpp"

using namespace burraco;

namespace {

int failures = 0;
#define PACK_CHECK(cond) COUNT_CHECK(failures, cond)

CardSet read(const char* text, int decks = 2) {
  CardList list(decks);
  PACK_CHECK(list.add_text(text));
  return list.cards();
}

void check_card_lists() {
  CardList two(2);
  PACK_CHECK(!two.add_text("5h, 5h 5h"));
  PACK_CHECK(two.bad_word().empty() && two.why("") == ": 3 copies of 5h (at most 2)");
  CardList three(3);
  PACK_CHECK(!three.add_text("5h 5h 5h 5h"));
  PACK_CHECK(three.why("") == ": 4 copies of 5h (at most 3 with 3 decks)");
  CardList jokers(3);
  for (int i = 0; i < 6; ++i) PACK_CHECK(jokers.add(Card::joker()));
  PACK_CHECK(!jokers.add(Card::joker()));
  PACK_CHECK(jokers.why("") == ": 7 copies of Jk (at most 6 with 3 decks)");
  CardList bad(2);
  PACK_CHECK(!bad.add_text("5h Xx 6h") && bad.bad_word() == "Xx");
  PACK_CHECK(bad.why("'Xx'") == ": 'Xx' is not a card (" + std::string(kCardHelp) + ")");
  PACK_CHECK(cards_text(read("jk 6h 5H")) == "5h 6h Jk");
  PACK_CHECK(cards_repr(read("5h 5h 5h", 3), 3) == "Cards('5h 5h 5h', decks=3)");
  PACK_CHECK(cards_repr(CardSet(), 2) == "Cards('')" && card_repr(Card::joker()) == "Card('Jk')");
  PACK_CHECK(pack_needed(read("5h 5h")) == 2 && pack_needed(read("5h 5h 5h", 3)) == 3);
  PACK_CHECK(valid_decks(2) && valid_decks(3) && !valid_decks(4) && !valid_decks(1));
}

void check_operators() {
  const CardSet a = read("5h 5h 6h"), b = read("5h 7h");
  CardsOpResult r = combine(CardsOp::Add, a, 2, b, 2);
  PACK_CHECK(!r.ok && r.decks == 2);
  PACK_CHECK(combine_refusal(CardsOp::Add, a, b, 2, "'5h 7h'") ==
             "Cards('5h 5h 6h') + '5h 7h': 3 copies of 5h (at most 2), more than 2 decks hold");
  r = combine(CardsOp::Add, a, 2, b, 3);  // the larger pack holds the third copy
  PACK_CHECK(r.ok && r.decks == 3 && cards_text(r.cards) == "5h 5h 5h 6h 7h");
  PACK_CHECK(combine_refusal(CardsOp::ReflectedAdd, a, b, 2, "'5h 7h'") ==
             "'5h 7h' + Cards('5h 5h 6h'): more copies than 2 decks hold");
  PACK_CHECK(!combine(CardsOp::Sub, a, 2, b, 2).ok);
  PACK_CHECK(combine_refusal(CardsOp::Sub, a, b, 2, "X") ==
             "Cards('5h 5h 6h') - X: X is not contained in Cards('5h 5h 6h')");
  PACK_CHECK(cards_text(combine(CardsOp::Sub, a, 2, read("5h"), 2).cards) == "5h 6h");
  PACK_CHECK(cards_text(combine(CardsOp::Or, a, 2, b, 2).cards) == "5h 5h 6h 7h");
  PACK_CHECK(cards_text(combine(CardsOp::And, a, 2, b, 2).cards) == "5h");
  PACK_CHECK(compare(CardsCompare::Le, read("5h"), a) && compare(CardsCompare::Lt, read("5h"), a));
  PACK_CHECK(compare(CardsCompare::Le, a, a) && !compare(CardsCompare::Lt, a, a));
  PACK_CHECK(compare(CardsCompare::Ge, a, a) && !compare(CardsCompare::Gt, a, a));
  PACK_CHECK(!compare(CardsCompare::Ge, a, b) && compare(CardsCompare::Gt, a, read("6h")));
}

void check_meld_texts() {
  const Rules rules = *preset_rules("italian");
  const MeldResult run = make_meld(read("Jk 5d 6d"), rules);
  PACK_CHECK(run.ok() && layout(run.meld) == "Jk(=4d) 5d 6d");
  PACK_CHECK(meld_repr(run.meld, rules, "") == "Meld('Jk(=4d) 5d 6d')");
  PACK_CHECK(kind_name(run.meld.kind) == "run" && run_suit_text(run.meld) == "d");
  PACK_CHECK(set_rank_text(run.meld).empty() && cards_in_order(run.meld).size() == 3);
  PACK_CHECK(cards_in_order(run.meld).front() == Card::joker());
  // An ace laid high stays high (RULES B.6 L1), where make_meld would lay it low.
  const char* kHigh = "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah";
  const MeldResult high = parse_layout(kHigh, rules);
  PACK_CHECK(high.ok() && meld_repr(high.meld, rules, ", R") ==
                              "Meld.from_layout('" + std::string(kHigh) + "', R)");
  const MeldResult set = make_meld(read("Qc Qd 2s"), rules);
  PACK_CHECK(set.ok() && set_rank_text(set.meld) == "Q" && run_suit_text(set.meld).empty());
  PACK_CHECK(cards_in_order(set.meld).back() == *parse_card("2s"));
  SideMelds side;
  side.append(run.meld);
  side.append(set.meld);
  PACK_CHECK(layouts(side).size() == 2 && layouts(side)[1] == "Qc Qd 2s(=Q)");
  PACK_CHECK(melds_repr(side, "") == "Melds(['Jk(=4d) 5d 6d', 'Qc Qd 2s(=Q)'])");
  PACK_CHECK(is_layout_text("Jk(=4d) 5d 6d") && !is_layout_text("Jk 5d 6d"));
  MeldRefusal r = meld_refusal(MeldError::TooFewCards, false);
  PACK_CHECK(r.kind == MeldRefusal::Invalid && r.before.empty());
  PACK_CHECK(r.after == " is not a meld: a meld needs at least 3 cards");
  PACK_CHECK(meld_refusal(MeldError::BadLayout, true).after ==
             " is not a meld layout: not a meld layout");
  PACK_CHECK(meld_refusal(MeldError::BadNotation, true).kind == MeldRefusal::Notation);
  r = side_meld_refusal(MeldError::SecondSetOfRank);
  PACK_CHECK(r.kind == MeldRefusal::Illegal && r.before == "cannot meld ");
  PACK_CHECK(r.after ==
             ": the side already has a set of that rank; lay the cards off on it instead");
  PACK_CHECK(side_meld_refusal(MeldError::Hole).kind == MeldRefusal::Invalid);
  r = lay_off_refusal(set.meld, MeldError::SecondWild, 1);
  PACK_CHECK(r.before == "cannot add " &&
             r.after == " to meld 1 (Qc Qd 2s(=Q)): the meld already has a wild");
  PACK_CHECK(lay_off_refusal(set.meld, MeldError::SecondWild).after ==
             " to Qc Qd 2s(=Q): the meld already has a wild");
  PACK_CHECK(no_meld_refusal(2).after == ": the side has 2 meld(s)");
  PACK_CHECK(too_many_melds_text() ==
             "more than 54 melds for one side (as many as 162 cards make)");
}

}  // namespace

// Called by selftest.cpp's main; returns the number of failed checks.
int check_pack_texts() {
  check_card_lists();
  check_operators();
  check_meld_texts();
  std::printf("selftest: card lists, Cards operators and meld texts checked\n");
  return failures;
}
