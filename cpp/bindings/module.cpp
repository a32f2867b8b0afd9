// burraco._core, the Python binding of the C++ engine: the module's entry point. The binding is
// split by concept (binding.hpp lists the parts); it is thin: conversions, docstrings, and turning
// the engine's error codes into the exceptions of burraco._errors, each message quoting the input.
// Only the binding includes pybind11.
#include "binding.hpp"

#include <cctype>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <string_view>

using namespace burraco_binding;

namespace burraco_binding {
void bind_vecenv(py::module_& m);  // vecenv.cpp: VectorGames (the vector environment)
}

namespace {

// help() and the documentation site show the signature line pybind11 writes at the head of every
// docstring, where `self` carries its class: `push(self: burraco._core.Game, move: ...)`, or
// `self: object` where the binding takes the instance as a handle. At a method of that class it
// says nothing, so it goes: `push(self, move: ...)`.
std::string without_self_types(const char* doc) {
  static constexpr std::string_view kMarker = "(self: ";
  std::string out(doc);
  for (std::size_t at = out.find(kMarker); at != std::string::npos;
       at = out.find(kMarker, at + 1)) {
    std::size_t end = at + kMarker.size();
    while (end < out.size() && (std::isalnum(static_cast<unsigned char>(out[end])) ||
                                out[end] == '_' || out[end] == '.'))
      ++end;
    out.erase(at + 5, end - (at + 5));  // keeps "(self"
  }
  return out;
}

// Rewrites the docstring of one function pybind11 made (a method, a static method, a property's
// getter or setter), as pybind11 itself rewrites it when an overload is added: the string is
// pybind11's, on the heap, freed by it with the function. Anything else (a CPython method of
// fast_paths.cpp, an attribute) is left alone.
void strip_self_type(py::handle attribute) {
  py::handle function = py::detail::get_function(attribute);
  if (!function || !PyCFunction_Check(function.ptr())) return;
  PyObject* owner = PyCFunction_GET_SELF(function.ptr());
  if (owner == nullptr || py::detail::function_record_ptr_from_PyObject(owner) == nullptr) return;
  auto* cfunction = reinterpret_cast<PyCFunctionObject*>(function.ptr());
  const char* doc = PYBIND11_PYCFUNCTION_GET_DOC(cfunction);
  if (doc == nullptr) return;
  const std::string cleaned = without_self_types(doc);
  if (cleaned == doc) return;
  char* copy = strdup(cleaned.c_str());
  if (copy == nullptr) throw std::bad_alloc();
  std::free(const_cast<char*>(doc));
  PYBIND11_PYCFUNCTION_SET_DOC(cfunction, copy);
}

// Every method of every class of the module, once all are bound (an overload bound later would
// write its docstring anew).
void strip_self_types(py::module_& m) {
  const py::object property = py::module_::import("builtins").attr("property");
  for (auto entry : py::reinterpret_borrow<py::dict>(m.attr("__dict__"))) {
    if (!PyType_Check(entry.second.ptr())) continue;
    const py::dict members(entry.second.attr("__dict__"));
    for (auto member : members) {
      py::handle value = member.second;
      if (py::isinstance(value, property)) {
        strip_self_type(value.attr("fget"));
        strip_self_type(value.attr("fset"));
      } else if (PyObject_TypeCheck(value.ptr(), &PyStaticMethod_Type) ||
                 PyObject_TypeCheck(value.ptr(), &PyClassMethod_Type)) {
        strip_self_type(value.attr("__func__"));
      } else {
        strip_self_type(value);
      }
    }
  }
}

}  // namespace

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
  strip_self_types(m);
}
