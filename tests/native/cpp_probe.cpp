// A native policy written in C++ for tests/test_native_policy.py: the last of the moves, a choice
// a Python callable can make too (`lambda view, moves: len(moves) - 1`).
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <burraco/policy.h>

namespace {

int32_t last_move(const burraco_view* view, burraco_random*, void*) {
  return static_cast<int32_t>(view->move_count) - 1;
}

burraco_policy descriptor{BURRACO_POLICY_ABI, sizeof(burraco_policy), "last_move", last_move, nullptr};

PyModuleDef module_def{PyModuleDef_HEAD_INIT, "cpp_probe", "A C++ native policy.", -1, nullptr,
                       nullptr, nullptr, nullptr, nullptr};

}  // namespace

PyMODINIT_FUNC PyInit_cpp_probe() {
  PyObject* module = PyModule_Create(&module_def);
  if (module == nullptr) return nullptr;
  PyObject* capsule = PyCapsule_New(&descriptor, BURRACO_POLICY_CAPSULE, nullptr);
  if (capsule == nullptr || PyModule_AddObject(module, "policy", capsule) < 0) {
    Py_XDECREF(capsule);
    Py_DECREF(module);
    return nullptr;
  }
  return module;
}
