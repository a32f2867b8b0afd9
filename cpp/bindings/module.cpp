// burraco._core, the Python binding of the C++ engine: the module's entry point. The binding is
// split by concept (binding.hpp lists the parts); it is thin: conversions, docstrings, and turning
// the engine's error codes into the exceptions of burraco._errors, each message quoting the input.
// Only the binding includes pybind11.
#include "binding.hpp"

using namespace burraco_binding;

namespace burraco_binding {
void bind_vecenv(py::module_& m);  // vecenv.cpp: VectorGames (the vector environment)
}

PYBIND11_MODULE(_core, m) {
  m.doc() = "burraco's C++ engine (cards, rules, melds). Import the names from `burraco`.";
  // Every class first, so that the signatures of the methods bound next name them.
  py::class_<Card>(m, "Card",
      "One card kind: 'Qh', 'Th', 'Jk' (RULES 0.2). Immutable.");
  // dynamic_attr: a Cards made with decks=3 keeps its pack in its instance dict (docs/api.md
  // "Cards"); __setattr__ refuses every other write, so the class stays immutable.
  py::class_<CardSet>(m, "Cards", py::dynamic_attr(),
      "An immutable multiset of cards in canonical order: Cards('5h 6h 7h Jk').");
  py::class_<Rules, std::shared_ptr<Rules>>(m, "Rules",
      "The rules of one table: a preset plus knob overrides "
      "(RULES section G). Rules('italian', semi_clean_burraco_bonus=None).");
  py::class_<PyMeld>(m, "Meld",
      "A meld on the table (RULES B): Meld('Jk 5d 6d') makes a new meld from "
      "cards; meld.add('7d') lays one off. Immutable.");
  py::class_<PyMelds>(m, "Melds",
      "One side's melds in creation order (RULES B.1.4): melds.meld(cards) puts "
      "down a new meld, melds.add(index, card) lays one off. Immutable.");
  py::class_<PyMove>(m, "Move",
      "One atomic move: Move('meld 5h 6h 7h'), Move('add 2 8h'), "
      "Move('discard Qs'), Move('draw'). Immutable.");
  py::class_<PyMoveList>(m, "MoveList",
      "The legal moves of a position in canonical order: a read-only sequence "
      "(len, [i], iteration, `in`, index, ==) that makes Move objects on demand.");
  py::class_<SideResult>(m, "SideResult",
      "One side's score breakdown for a hand (RULES E.1).");
  py::class_<PyResult>(m, "Result",
      "The result of a finished hand (RULES D.5, E).");
  py::class_<PyGame>(m, "Game",
      "One hand of Burraco: Game(Rules('italian'), seed=7).");
  py::class_<PyObservation>(m, "Observation",
      "What one player may know of a game (RULES C.9): game.observation(p).");
  py::class_<PyIsmcts>(m, "ISMCTS",
      "Information-set Monte Carlo tree search (docs/search.md): "
      "ISMCTS(iterations=1000, seed=0).choose(game) -> Move. Reads only the "
      "observation of the seat to act.");
  py::class_<PyPolicy>(m, "Policy",
      "A policy as a value (docs/native.md): Policy('greedy'), Policy('mymodule:policy'), "
      "Policy(callable). Accepted wherever a policy is.");

  bind_cards(m);
  bind_rules(m);
  bind_melds(m);
  bind_game(m);
  bind_search(m);
  bind_policy(m);
  bind_arena(m);
  bind_vecenv(m);
  install_fast_paths(m);
  guard_construction(m);
}
