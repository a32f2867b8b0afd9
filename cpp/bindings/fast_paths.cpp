// burraco._core: the CPython fast paths of a Python playout loop, and the construction guards.
#include "binding.hpp"

// The docstrings, burraco_doc(scope, name): the stub's (src/burraco/_core.pyi), written into the
// build directory by cpp/bindings/docstrings.py (CMakeLists.txt); in angle brackets, as a file of
// the include path and not of the source tree.
#include <burraco_binding/docstrings.hpp>

namespace burraco_binding {

// ---- fast paths -----------------------------------------------------------------------------
// The calls of a Python-driven playout loop (is_over, legal_moves, len, push_index, push, [i])
// are plain CPython methods, installed on the classes after binding: pybind11's argument dispatch
// cost more than the work. is_over, legal_moves, push_index and len exist only here; push and
// [i] take the common case and hand every other argument to the bound method they replace.

template <class T>
T* native(PyObject* self) {
  auto v_h = reinterpret_cast<py::detail::instance*>(self)->get_value_and_holder();
  if (!v_h || !v_h.holder_constructed() || !v_h.value_ptr()) {
    PyErr_Format(PyExc_TypeError,
                 "%s object is not initialized (made by __new__ without __init__): construct it "
                 "by calling the class",
                 Py_TYPE(self)->tp_name);
    return nullptr;
  }
  return static_cast<T*>(v_h.value_ptr());
}

// Runs `body` on self's value, turning a C++ exception into the Python error it stands for.
template <class T, class F>
PyObject* guarded(PyObject* self, F&& body) {
  T* value = native<T>(self);
  if (!value) return nullptr;
  try {
    return body(*value);
  } catch (py::error_already_set& e) {
    e.restore();
  } catch (const py::builtin_exception& e) {
    e.set_error();
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  }
  return nullptr;
}

PyObject* fast_is_over(PyObject* self, PyObject*) {
  return guarded<PyGame>(self, [](PyGame& g) { return PyBool_FromLong(g.state.over()); });
}

PyObject* fast_legal_moves(PyObject* self, PyObject*) {
  return guarded<PyGame>(self, [](PyGame& g) -> PyObject* {
    const auto& list = g.legal_list();
    if (g.list_object && Py_REFCNT(g.list_object) == 1) {
      // Nobody else holds the last MoveList: hand it out again, showing the current moves.
      native<PyMoveList>(g.list_object)->moves = list;
      Py_INCREF(g.list_object);
      return g.list_object;
    }
    PyObject* fresh = py::cast(PyMoveList{list}).release().ptr();
    Py_XDECREF(g.list_object);
    Py_INCREF(fresh);
    g.list_object = fresh;
    return fresh;
  });
}

PyObject* fast_push_index(PyObject* self, PyObject* index) {
  return guarded<PyGame>(self, [index](PyGame& g) -> PyObject* {
    long long i = -1;
    const bool is_index = index_int(index, i);  // runs index.__index__ before the game is read
    const auto list = g.legal_list();
    if (!is_index || i < 0 || i >= static_cast<long long>(list->size()))
      illegal("push_index(" + quote(index) + "): expected an index 0.." +
              std::to_string(static_cast<long long>(list->size()) - 1) + " into the " +
              std::to_string(list->size()) + " legal moves");
    g.push((*list)[static_cast<std::size_t>(i)]);  // legal: it is in the list
    Py_RETURN_NONE;
  });
}

// The bound functions a fast path hands every other argument to, and the Move type it knows.
PyObject* bound_push = nullptr;
PyObject* bound_move_list_getitem = nullptr;
PyTypeObject* move_type = nullptr;

// game.push(move) for a Move object (push(moves[i])); any other call goes to the bound push.
PyObject* fast_push(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  if (nargs == 1 && !kwnames && Py_TYPE(args[0]) != move_type)  // a str: no argument array
    return PyObject_CallFunctionObjArgs(bound_push, self, args[0], nullptr);
  if (nargs != 1 || kwnames) {
    const Py_ssize_t total = nargs + (kwnames ? PyTuple_GET_SIZE(kwnames) : 0);
    std::vector<PyObject*> with_self(static_cast<std::size_t>(total) + 1);
    with_self[0] = self;
    std::copy(args, args + total, with_self.begin() + 1);
    return PyObject_Vectorcall(bound_push, with_self.data(), static_cast<std::size_t>(nargs) + 1, kwnames);
  }
  return guarded<PyGame>(self, [move = args[0]](PyGame& g) -> PyObject* {
    const PyMove* m = native<PyMove>(move);
    if (!m) return nullptr;
    push_one(g, m->move);
    Py_RETURN_NONE;
  });
}

// moves[i] for an integer i (any object with __index__, as a list takes); slices and anything
// else go to the bound __getitem__.
PyObject* fast_move_list_getitem(PyObject* self, PyObject* key) {
  if (!PyIndex_Check(key)) return PyObject_CallFunctionObjArgs(bound_move_list_getitem, self, key, nullptr);
  Py_ssize_t i = PyNumber_AsSsize_t(key, PyExc_IndexError);
  if (i == -1 && PyErr_Occurred()) return nullptr;
  return guarded<PyMoveList>(self, [i](PyMoveList& l) mutable -> PyObject* {
    const auto n = static_cast<Py_ssize_t>(l.moves->size());
    if (i < 0) i += n;
    if (i < 0 || i >= n) {
      PyErr_SetString(PyExc_IndexError, "MoveList index out of range");
      return nullptr;
    }
    return py::cast(PyMove{(*l.moves)[static_cast<std::size_t>(i)]}).release().ptr();
  });
}

PyObject* fast_move_list_len(PyObject* self, PyObject*) {
  return guarded<PyMoveList>(self,
                             [](PyMoveList& l) { return PyLong_FromSize_t(l.moves->size()); });
}

// ---- construction guards ------------------------------------------------------------------------
// pybind11's instance allocator throws a C++ exception when asked for an instance of a type with no
// bound C++ class (`Game.__base__()`, or the protocol-0 pickling of a class without __reduce__
// calling it); thrown through CPython that would abort the interpreter. It is wrapped so the
// exception becomes a TypeError. Classes that are not values (MoveList, a view of one position;
// ISMCTS, a search) refuse pickling with a TypeError of their own.

newfunc pybind11_new = nullptr;

PyObject* guarded_new(PyTypeObject* type, PyObject* args, PyObject* kwargs) {
  try {
    return pybind11_new(type, args, kwargs);
  } catch (const std::exception& e) {
    PyErr_Format(PyExc_TypeError, "cannot create a %s object: %s", type->tp_name, e.what());
  }
  return nullptr;
}

void guard_construction(py::module_& m) {
  auto* base = reinterpret_cast<PyTypeObject*>(py::detail::get_internals().instance_base);
  if (base->tp_new != guarded_new) {
    pybind11_new = base->tp_new;
    base->tp_new = guarded_new;
  }
  for (auto [name, value] : py::reinterpret_borrow<py::dict>(m.attr("__dict__"))) {
    auto* type = reinterpret_cast<PyTypeObject*>(value.ptr());
    if (PyType_Check(value.ptr()) && type->tp_new == pybind11_new) type->tp_new = guarded_new;
  }
  py::object moves = m.attr("MoveList"), search = m.attr("ISMCTS");
  py::setattr(moves, "__reduce__", py::cpp_function([](const PyMoveList&) -> py::object {
                throw py::type_error("cannot pickle a MoveList object (pickle the Game, or list(moves))");
              }, py::name("__reduce__"), py::is_method(moves)));
  py::setattr(search, "__reduce__", py::cpp_function([](const PyIsmcts&) -> py::object {
                throw py::type_error("cannot pickle an ISMCTS object (make a new one with its parameters)");
              }, py::name("__reduce__"), py::is_method(search)));
}

void install_fast_paths(py::module_& m) {
  // Their docstrings are the stub's, set below; their text signatures mark `$self` (bound, CPython
  // gives such a method its instance as __self__).
  static PyMethodDef game_methods[] = {
      {"is_over", fast_is_over, METH_NOARGS, nullptr},
      {"legal_moves", fast_legal_moves, METH_NOARGS, nullptr},
      {"push_index", fast_push_index, METH_O, nullptr},
      {"push", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(fast_push)),
       METH_FASTCALL | METH_KEYWORDS, nullptr},
  };
  static PyMethodDef list_methods[] = {
      {"__len__", fast_move_list_len, METH_NOARGS, nullptr},
      {"__getitem__", fast_move_list_getitem, METH_O},
  };
  // Kept for the life of the module: the fast paths fall back on them.
  bound_push = py::object(m.attr("Game").attr("push")).release().ptr();
  bound_move_list_getitem = py::object(m.attr("MoveList").attr("__getitem__")).release().ptr();
  move_type = reinterpret_cast<PyTypeObject*>(py::object(m.attr("Move")).release().ptr());
  auto install = [](py::object cls, PyMethodDef* defs, std::size_t n) {
    const std::string scope = py::str(cls.attr("__name__"));
    for (std::size_t i = 0; i < n; ++i) {
      defs[i].ml_doc = burraco_doc(scope, defs[i].ml_name, true);
      py::object descr = py::reinterpret_steal<py::object>(
          PyDescr_NewMethod(reinterpret_cast<PyTypeObject*>(cls.ptr()), &defs[i]));
      if (!descr) throw py::error_already_set();
      py::setattr(cls, defs[i].ml_name, descr);
    }
  };
  install(m.attr("Game"), game_methods, std::size(game_methods));
  install(m.attr("MoveList"), list_methods, std::size(list_methods));
}

}  // namespace burraco_binding
