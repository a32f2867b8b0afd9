// burraco._core, the Python binding of the C++ engine: the module's entry point. The binding is
// split by concept (binding.hpp lists the parts); it is thin: conversions, and turning the engine's
// error codes into the exceptions of burraco._errors, each message quoting the input. Its
// docstrings live in the type stub, src/burraco/_core.pyi: BURRACO_DOC(Game, push) names one.
// Only the binding includes pybind11.
#include "binding.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>

using namespace burraco_binding;

namespace burraco_binding {
void bind_vecenv(py::module_& m);  // vecenv.cpp: VectorGames (the vector environment)
}

namespace {

// help() and the documentation site show the signature line pybind11 writes at the head of every
// docstring, where `self` carries its class: `push(self: burraco._core.Game, move: ...)`, or
// `self: object` where the binding takes the instance as a handle. At a method of that class it
// says nothing, so it goes: `push(self, move: ...)`. The text only shrinks, so it is rewritten
// where it is, in the heap string pybind11 made for it (strdup) and frees with the function:
// nothing is allocated or freed here, so the heap the engine then works in is the one it had.
void strip_self_types_in_place(char* doc) {
  char* out = doc;
  for (const char* in = doc; *in != '\0';) {
    if (std::strncmp(in, "(self: ", 7) != 0) {
      *out++ = *in++;
      continue;
    }
    out = std::copy_n("(self", 5, out);
    for (in += 7; std::isalnum(static_cast<unsigned char>(*in)) || *in == '_' || *in == '.';) ++in;
  }
  *out = '\0';
}

// The docstring of one function pybind11 made (a method, a static method, a property's getter or
// setter). Anything else (a CPython method of fast_paths.cpp, whose text is static) is left alone.
void strip_self_type(py::handle attribute) {
  py::handle function = py::detail::get_function(attribute);
  if (!function || !PyCFunction_Check(function.ptr())) return;
  PyObject* owner = PyCFunction_GET_SELF(function.ptr());
  if (owner == nullptr || py::detail::function_record_ptr_from_PyObject(owner) == nullptr) return;
  auto* cfunction = reinterpret_cast<PyCFunctionObject*>(function.ptr());
  const char* doc = PYBIND11_PYCFUNCTION_GET_DOC(cfunction);
  if (doc != nullptr) strip_self_types_in_place(const_cast<char*>(doc));
}

// Every method of every class of the module, once all are bound (an overload bound later would
// write its docstring anew).
void strip_self_types(py::module_& m) {
  for (auto entry : py::reinterpret_borrow<py::dict>(m.attr("__dict__"))) {
    if (!PyType_Check(entry.second.ptr())) continue;
    PyObject* members = reinterpret_cast<PyTypeObject*>(entry.second.ptr())->tp_dict;
    if (members == nullptr) continue;
    for (auto member : py::reinterpret_borrow<py::dict>(members)) {
      py::handle value = member.second;
      if (PyObject_TypeCheck(value.ptr(), &PyProperty_Type)) {
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
  m.doc() = BURRACO_DOC(module, __doc__);
  // Every class first, so that the signatures of the methods bound next name them.
  py::class_<Card>(m, "Card", BURRACO_DOC(Card, __doc__));
  // dynamic_attr: a Cards made with decks=3 keeps its pack in its instance dict (docs/api.md
  // "Cards"); __setattr__ refuses every other write, so the class stays immutable.
  py::class_<CardSet>(m, "Cards", py::dynamic_attr(), BURRACO_DOC(Cards, __doc__));
  py::class_<Rules, std::shared_ptr<Rules>>(m, "Rules", BURRACO_DOC(Rules, __doc__));
  py::class_<PyMeld>(m, "Meld", BURRACO_DOC(Meld, __doc__));
  py::class_<PyMelds>(m, "Melds", BURRACO_DOC(Melds, __doc__));
  py::class_<PyMove>(m, "Move", BURRACO_DOC(Move, __doc__));
  py::class_<PyMoveList>(m, "MoveList", BURRACO_DOC(MoveList, __doc__));
  py::class_<SideResult>(m, "SideResult", BURRACO_DOC(SideResult, __doc__));
  py::class_<PyResult>(m, "Result", BURRACO_DOC(Result, __doc__));
  py::class_<PyGame>(m, "Game", BURRACO_DOC(Game, __doc__));
  py::class_<PyObservation>(m, "Observation", BURRACO_DOC(Observation, __doc__));
  py::class_<PyIsmcts>(m, "ISMCTS", BURRACO_DOC(ISMCTS, __doc__));
  py::class_<PyPolicy>(m, "Policy", BURRACO_DOC(Policy, __doc__));

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
