// burraco._core: policies as values (docs/native.md): burraco.Policy, made from a built-in name,
// a native policy (a capsule carrying a burraco_policy of burraco/policy.h) or a Python callable.
#include "binding.hpp"

#include "burraco/native.hpp"

namespace burraco_binding {

namespace {

py::object& policy_error_type() {
  static py::object type = py::module_::import("burraco._errors").attr("PolicyError");
  return type;
}

[[noreturn]] void policy_error(const std::string& message) {
  py::set_error(policy_error_type(), message.c_str());
  throw py::error_already_set();
}

// A Python callable as a policy hook: called with the GIL taken, through
// burraco._policy.call_python_policy (the PolicyView of the observation, the candidates).
class PythonPolicy final : public PolicyHook {
 public:
  PythonPolicy(py::object function, std::string name)
      : function_(std::move(function)), name_(std::move(name)) {}
  ~PythonPolicy() override {
    py::gil_scoped_acquire gil;
    function_ = py::object();
  }

  std::int64_t choose(const GameState& s, const Rules& rules, const std::vector<Move>& moves,
                      std::uint64_t random) const override {
    py::gil_scoped_acquire gil;
    static PyObject* const call =
        py::object(py::module_::import("burraco._policy").attr("call_python_policy")).release().ptr();
    // The observation of the seat to act: the callable never sees a hidden card.
    auto rules_ptr = std::make_shared<const Rules>(rules);
    PyObservation o{observe(s, rules, s.turn), rules_ptr, {}};
    o.text = observation_string(o.obs, rules);
    PyMoveList list{std::make_shared<const std::vector<Move>>(moves)};
    py::object answer;
    try {
      answer = py::reinterpret_borrow<py::object>(call)(function_, py::cast(std::move(o)),
                                                        py::cast(std::move(list)), random);
    } catch (py::error_already_set& e) {
      // KeyboardInterrupt, SystemExit: not a failure of the policy; the loop lets them through.
      if (!e.matches(PyExc_Exception)) throw;
      const std::string message = "policy '" + name_ + "' raised " + describe(e);
      throw PythonPolicyFailure(message, std::move(e));
    }
    long long index = 0;
    if (!small_int(answer, index))  // an int too large for the engine: out of range, as it is
      throw PolicyError(policy_index_text(name_, quote(answer), moves.size()));
    return index;
  }
  const std::string& name() const override { return name_; }

  // A failure of the callable, with the Python exception it raised.
  class PythonPolicyFailure : public PolicyError {
   public:
    PythonPolicyFailure(const std::string& message, py::error_already_set cause)
        : PolicyError(message), cause_(std::move(cause)) {}
    const py::error_already_set& cause() const { return cause_; }

   private:
    py::error_already_set cause_;
  };

 private:
  static std::string describe(py::error_already_set& e) {
    std::string type = py::str(e.type().attr("__name__"));
    std::string text = py::str(e.value());
    return text.empty() ? type : type + ": " + text;
  }
  py::object function_;
  std::string name_;
};

// The name of a Python callable: module.qualname when it has them, else its repr.
std::string callable_name(py::handle f) {
  py::object qualname = py::getattr(f, "__qualname__", py::none());
  if (py::isinstance<py::str>(qualname)) {
    py::object module = py::getattr(f, "__module__", py::none());
    try {  // a name that is not valid text: the repr of the callable instead
      std::string name = text_arg(qualname);
      if (py::isinstance<py::str>(module) && text_arg(module) != "__main__")
        name = text_arg(module) + "." + name;
      return name;
    } catch (const py::error_already_set&) {
      return quote(f);
    }
  }
  return quote(f);
}

// A policy of the caller's: the hook, and what keeps it alive.
PyPolicy hooked(std::shared_ptr<const PolicyHook> hook, py::handle source, const std::string& spec,
                const char* kind) {
  const Policy policy = Policy::of(hook.get());
  return PyPolicy{policy, std::move(hook), py::reinterpret_borrow<py::object>(source), spec, kind};
}

PyPolicy native_policy(py::handle capsule, const std::string& spec) {
  const char* name = PyCapsule_GetName(capsule.ptr());
  if (name == nullptr || std::string_view(name) != BURRACO_POLICY_CAPSULE) {
    PyErr_Clear();
    notation_error(quote(capsule) + " is not a burraco policy (a policy capsule is named '" +
                   BURRACO_POLICY_CAPSULE + "', made by burraco.policy's export_policy)");
  }
  const auto* descriptor =
      static_cast<const burraco_policy*>(PyCapsule_GetPointer(capsule.ptr(), BURRACO_POLICY_CAPSULE));
  if (descriptor == nullptr) PyErr_Clear();
  const std::string what = spec.empty() ? quote(capsule) : "'" + spec + "'";
  if (const std::string why = check_native_policy(descriptor); !why.empty())
    policy_error("cannot use the native policy " + what + ": " + why);
  return hooked(std::make_shared<const NativePolicy>(descriptor), capsule, spec, "native");
}

// A policy from an object that is not a string; `spec` is the 'module:attribute' it was found at.
PyPolicy policy_from_object(py::handle obj, const std::string& spec) {
  if (py::isinstance<PyPolicy>(obj)) return obj.cast<const PyPolicy&>();
  if (PyCapsule_CheckExact(obj.ptr())) return native_policy(obj, spec);
  // An object that carries its capsule (a Cython class or module may).
  if (py::object capsule = py::getattr(obj, "__burraco_policy__", py::none());
      !capsule.is_none() && PyCapsule_CheckExact(capsule.ptr()))
    return native_policy(capsule, spec);
  if (PyCallable_Check(obj.ptr())) {
    const std::string name = spec.empty() ? callable_name(obj) : spec;
    return hooked(std::make_shared<const PythonPolicy>(py::reinterpret_borrow<py::object>(obj), name),
                  obj, spec, "python");
  }
  notation_error((spec.empty() ? "" : "'" + spec + "' is ") + quote(obj) +
                 ", not a policy: expected 'random', 'greedy', 'heuristic', a burraco.Policy, a native policy "
                 "(a capsule from burraco.policy's export_policy) or a callable (view, moves) -> int");
}

// Any other text is read by the one grammar of bot specs (burraco.bots): a 'module:attribute' is
// imported there (PolicyError with the cause), anything else refused there, quoted.
PyPolicy policy_from_string(py::handle text, bool import) {
  const std::string name = text_arg(text);
  if (const BuiltinPolicy* builtin = find_builtin_policy(name))
    return PyPolicy{builtin->policy, nullptr, py::none(), name};
  if (!import)
    notation_error("unknown playout policy " + quote(text) + " (known: " + builtin_policy_names() +
                   "; burraco.Policy('module:attribute') loads a module's)");
  py::object target = py::module_::import("burraco.bots").attr("import_attribute")(text);
  return policy_from_object(target, name);
}

}  // namespace

PyPolicy policy_arg(py::handle policy) {
  if (py::isinstance<py::str>(policy)) return policy_from_string(policy, false);
  return policy_from_object(policy, "");
}

std::string policy_repr(const PyPolicy& p) {
  if (std::string_view(p.kind) == "builtin") return "'" + p.spec + "'";
  if (!p.spec.empty()) return "Policy('" + p.spec + "')";
  return "Policy(" + quote(p.source) + ")";
}

py::object policy_object(const PyPolicy& p) {
  if (std::string_view(p.kind) == "builtin") return py::str(p.spec);
  return py::cast(p);
}

void raise_loop_failure(std::exception_ptr e, const std::string& prefix, const std::string& suffix) {
  try {
    std::rethrow_exception(e);
  } catch (const PythonPolicy::PythonPolicyFailure& failure) {
    py::object& kind = policy_error_type();
    py::object error = kind(prefix + failure.what() + suffix);
    error.attr("__cause__") = failure.cause().value();
    PyErr_SetObject(kind.ptr(), error.ptr());
    throw py::error_already_set();
  } catch (const PolicyError& failure) {
    policy_error(prefix + failure.what() + suffix);
  } catch (const StateError& failure) {
    state_error(prefix + failure.what() + suffix);
  }
}

void bind_policy(py::module_& m) {
  bound_class<PyPolicy>(m, "Policy")
      .def(py::init([](py::handle source) {
             if (py::isinstance<py::str>(source)) return policy_from_string(source, true);
             return policy_from_object(source, "");
           }), py::arg("source"))
      .def_property_readonly("name", [](const PyPolicy& p) {
        return p.hook ? p.hook->name() : p.spec;
      })
      .def_property_readonly("kind", [](const PyPolicy& p) -> py::object { return py::str(p.kind); })
      .def_property_readonly("spec", [](const PyPolicy& p) -> py::object {
        return p.spec.empty() ? py::object(py::none()) : py::object(py::str(p.spec));
      })
      .def_property_readonly("source", [](const PyPolicy& p) -> py::object { return p.source; })
      .def("__repr__", [](const PyPolicy& p) {
        const std::string shown = policy_repr(p);
        return std::string_view(p.kind) == "builtin" ? "Policy(" + shown + ")" : shown;
      })
      .def("__eq__", [](const PyPolicy& a, py::handle b) {
        if (py::isinstance<py::str>(b)) return !a.spec.empty() && a.spec == text_arg(b);
        if (!py::isinstance<PyPolicy>(b)) return false;
        const PyPolicy& other = b.cast<const PyPolicy&>();
        if (!a.spec.empty() || !other.spec.empty()) return a.spec == other.spec;
        return a.source.is(other.source);
      })
      .def("__hash__", [](const PyPolicy& p) -> py::ssize_t {
        return p.spec.empty() ? py::hash(p.source) : py::hash(py::str(p.spec));
      })
      .def("__copy__", [](const PyPolicy& p) { return p; })
      .def("__deepcopy__", [](const PyPolicy& p, py::handle) { return p; })
      .def("__reduce__", [](const PyPolicy& p) -> py::object {
        if (p.spec.empty() && std::string_view(p.kind) == "native")
          throw py::type_error("cannot pickle a native policy made from its capsule: make it from "
                               "'module:attribute' (Policy('mymodule:policy')) to pickle it");
        return py::make_tuple(core_attr("Policy"),
                              py::make_tuple(p.spec.empty() ? p.source : py::object(py::str(p.spec))));
      });
  m.attr("POLICY_ABI") = BURRACO_POLICY_ABI;
  py::list names;
  for (const BuiltinPolicy& builtin : builtin_policies())
    names.append(py::str(std::string(builtin.name)));
  m.attr("_BUILT_IN_POLICIES") = py::tuple(names);
  // For the benches (tools/bench_table.py): what the native interface costs per call.
  m.def(
      "_policy_view_repeat",
      [](const PyGame& g, py::handle calls) {
        long long n = -1;
        if (!small_int(calls, n) || n < 0 || n > 1000000000)
          notation_error("_policy_view_repeat: calls " + quote(calls) + ": expected an int 0..10**9");
        if (g.state.over()) illegal("_policy_view_repeat: the hand is over");
        const GameState state = g.state;  // the game may change once the GIL is released
        const RulesPtr rules = g.rules;
        py::gil_scoped_release release;
        return repeat_view(state, *rules, n);
      }, py::arg("game"), py::arg("calls"));
}

}  // namespace burraco_binding
