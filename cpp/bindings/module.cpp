// burraco._core, the Python binding of the C++ engine: the module's entry point. The binding is
// split by concept (binding.hpp lists the parts); it is thin: conversions, and turning the engine's
// error codes into the exceptions of burraco._errors, each message quoting the input. Its
// docstrings and signatures live in the type stub, src/burraco/_core.pyi, and are given to every
// object of the module here, once all is bound. Only the binding includes pybind11.
#include "binding.hpp"

// The docstrings, burraco_doc(scope, name): the stub's (src/burraco/_core.pyi), written into the
// build directory by cpp/bindings/docstrings.py (CMakeLists.txt); in angle brackets, as a file of
// the include path and not of the source tree.
#include <burraco_binding/docstrings.hpp>

#include <cstdlib>
#include <cstring>

using namespace burraco_binding;

namespace burraco_binding {
void bind_vecenv(py::module_& m);  // vecenv.cpp: VectorGames (the vector environment)
}

namespace {

// Gives the function pybind11 made for `attribute` (a method, a static method, a function of the
// module) the docstring `text`. pybind11 frees a function's docstring with it, so this is a heap
// copy, as the one pybind11 would have made; CPython's own methods (fast_paths.cpp) are left alone.
void document_function(py::handle attribute, const char* text) {
  py::handle function = py::detail::get_function(attribute);
  if (!text || !function || !PyCFunction_Check(function.ptr())) return;
  PyObject* owner = PyCFunction_GET_SELF(function.ptr());
  if (owner == nullptr || py::detail::function_record_ptr_from_PyObject(owner) == nullptr) return;
  PyMethodDef* def = reinterpret_cast<PyCFunctionObject*>(function.ptr())->m_ml;
  std::free(const_cast<char*>(def->ml_doc));
  def->ml_doc = strdup(text);
}

// Every docstring of the stub (cpp/bindings/docstrings.py), on the module, its functions, its
// classes and their members. What the stub does not document (the Rules knobs, whose docstrings
// are the knob table's) keeps the docstring it was bound with.
void document(py::module_& m) {
  m.doc() = burraco_doc("module", "__doc__");
  for (auto [key, value] : py::reinterpret_borrow<py::dict>(m.attr("__dict__"))) {
    const std::string scope = py::str(key);
    if (!PyType_Check(value.ptr())) {
      document_function(value, burraco_doc("module", scope));
      continue;
    }
    if (const char* text = burraco_doc(scope, "__doc__")) py::setattr(value, "__doc__", py::str(text));
    PyObject* members = reinterpret_cast<PyTypeObject*>(value.ptr())->tp_dict;
    for (auto [name, member] : py::reinterpret_borrow<py::dict>(members)) {
      const char* text = burraco_doc(scope, std::string(py::str(name)));
      if (!text) continue;
      if (PyObject_TypeCheck(member.ptr(), &PyProperty_Type))
        py::setattr(member, "__doc__", py::str(text));
      else if (PyObject_TypeCheck(member.ptr(), &PyStaticMethod_Type))
        document_function(member.attr("__func__"), text);
      else
        document_function(member, text);
    }
  }
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  // Each docstring starts with the stub's signature of the function (document() below):
  // pybind11's own would write the argument types a second time.
  py::options options;
  options.disable_function_signatures();
  // Every class first, so that the signatures of the methods bound next name them.
  py::class_<Card>(m, "Card");
  // dynamic_attr: a Cards made with decks=3 keeps its pack in its instance dict (docs/api.md
  // "Cards"); __setattr__ refuses every other write, so the class stays immutable.
  py::class_<CardSet>(m, "Cards", py::dynamic_attr());
  py::class_<Rules, std::shared_ptr<Rules>>(m, "Rules");
  py::class_<PyMeld>(m, "Meld");
  py::class_<PyMelds>(m, "Melds");
  py::class_<PyMove>(m, "Move");
  py::class_<PyMoveList>(m, "MoveList");
  py::class_<PyGame>(m, "Game");
  py::class_<PyObservation>(m, "Observation");
  py::class_<PyIsmcts>(m, "ISMCTS");
  py::class_<PyPolicy>(m, "Policy");

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
  document(m);
}
