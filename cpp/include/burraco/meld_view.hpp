// burraco — a meld and a side's melds as the API shows them: a meld's cards in table order, the
// names of its kind, suit and rank, the reprs, and the reasons a meld, a layout or a lay-off is
// refused, as they read around the caller's quoting of the input (the caller quotes values as its
// language writes them, the engine says what is wrong with them).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "burraco/card.hpp"
#include "burraco/meld.hpp"
#include "burraco/rules.hpp"

namespace burraco {

// Whether a text writes a meld as a layout (a wild showing what it stands for: "Jk(=4d) 5d 6d")
// rather than as its cards.
bool is_layout_text(std::string_view text);

// The cards of a meld in table order: a run slot by slot (the wild in its slot), a set's naturals
// in canonical order and then its wild.
std::vector<Card> cards_in_order(const Meld& meld);
std::string_view kind_name(MeldKind kind);         // "set", "run"
std::string_view run_suit_text(const Meld& meld);  // a run's suit letter; empty for a set
std::string_view set_rank_text(const Meld& meld);  // a set's rank letter; empty for a run
// The layouts of a side's melds, in creation order.
std::vector<std::string> layouts(const SideMelds& side);

// repr of a meld: Meld('layout') when make_meld lays its cards so, else
// Meld.from_layout('layout'); `rules_text` (", Rules(...)", or empty for the Italian rules) goes
// before the closing parenthesis.
std::string meld_repr(const Meld& meld, const Rules& rules, std::string_view rules_text);
// repr of a side's melds: Melds(['5h 6h 7h', 'Qs Qh Qd']) with `rules_text` as above.
std::string melds_repr(const SideMelds& side, std::string_view rules_text);

// A refusal as the API raises it: `before` + the quoted input + `after`, as an error of `kind`.
struct MeldRefusal {
  enum Kind : std::uint8_t { Notation, Invalid, Illegal } kind;  // unreadable, no meld, refused
  std::string before, after;
};
// A meld of cards (`layout`: of a layout text) refused for `error`.
MeldRefusal meld_refusal(MeldError error, bool layout);
// A side's new meld (Melds.meld) refused for `error`: a second set of a rank is a refused move.
MeldRefusal side_meld_refusal(MeldError error);
// A card (the input) refused as a lay-off on `meld` for `error`; `index` >= 0 names the meld's
// place on its side.
MeldRefusal lay_off_refusal(const Meld& meld, MeldError error, int index = -1);
// A meld index (the input) past a side's `count` melds.
MeldRefusal no_meld_refusal(int count);
// A side of more melds than SideMelds::kCapacity.
std::string too_many_melds_text();

}  // namespace burraco
