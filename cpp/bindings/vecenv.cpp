// burraco._core: VectorGames, the engine of the vector environment (burraco.envs.vector,
// docs/rl.md "The vector environment"): N hands stepped per call without the GIL, the outputs
// written into the caller's NumPy arrays.
#include "binding.hpp"

#include <cstring>
#include <limits>
#include <optional>

#include "burraco/vecenv.hpp"


namespace burraco_binding {

struct PyVectorGames {
  std::unique_ptr<VecEnv> env;
  RulesPtr rules;
  PyPolicy opponent;                // keeps its hook alive
  std::optional<PyPolicy> partner;  // the partner's if one was given (four players)
  // One call at a time (another Python thread may call while the GIL is released).
  std::shared_ptr<std::mutex> busy = std::make_shared<std::mutex>();
};

}  // namespace burraco_binding
BURRACO_CHECKED_CASTER(burraco_binding::PyVectorGames)
namespace burraco_binding {

namespace {

const char* const kName = "VectorGames";
using Self = const PyVectorGames&;

// Raises the core's refusal of an argument (vecenv.hpp), if it has one.
void refuse(const std::string& message) {
  if (!message.empty()) notation_error(message);
}

// An int argument that fits a long long (an index: anything with __index__), else nullopt.
std::optional<long long> int_of(py::handle value, bool index = false) {
  long long i = 0;
  return (index ? index_int(value, i) : small_int(value, i)) ? std::optional(i) : std::nullopt;
}

// An env index argument, one of the envs'.
int env_index(Self v, py::handle env) {
  const std::optional<long long> i = int_of(env, true);
  refuse(v.env->env_refusal(i, [&](VecArg) { return quote(env); }));
  return static_cast<int>(*i);
}

// A 128-bit unsigned int of the caller's (a PCG64 state word), else nullopt.
std::optional<Pcg64::u128> u128_of(py::handle value) {
  if (!is_int(value)) return std::nullopt;
  const py::int_ low_mask((std::numeric_limits<std::uint64_t>::max)());
  const py::object high = value.attr("__rshift__")(64), low = value.attr("__and__")(low_mask);
  if (py::int_(0).attr("__gt__")(value).cast<bool>() || high.attr("__gt__")(low_mask).cast<bool>())
    return std::nullopt;
  return (static_cast<Pcg64::u128>(high.cast<std::uint64_t>()) << 64) | low.cast<std::uint64_t>();
}

// The data of the array argument `which`, else InvalidNotationError quoting its shape and dtype
// (or its type): the core judges what is read off the object (vecenv.hpp ArrayFacts).
template <class T>
T* array_arg(Self v, VecArray which, py::handle obj, char* kind = nullptr) {
  ArrayFacts facts;
  if (py::isinstance<py::array>(obj)) {
    const auto a = py::reinterpret_borrow<py::array>(obj);
    const auto axis = [&](py::ssize_t k) { return a.ndim() > k ? a.shape(k) : py::ssize_t{-1}; };
    facts = {true, const_cast<void*>(a.data()), static_cast<int>(a.ndim()), axis(0), axis(1),
             a.dtype().kind(), static_cast<std::size_t>(a.itemsize()),
             (a.flags() & py::array::c_style) != 0, a.writeable()};
  }
  refuse(v.env->array_refusal(which, facts, [&] {
    return !facts.is_array ? type_name_of(obj)
                           : "(shape " + std::string(py::str(obj.attr("shape"))) + ", dtype " +
                                 std::string(py::str(obj.attr("dtype"))) + ")";
  }));
  if (kind) *kind = facts.kind;
  return static_cast<T*>(facts.data);
}

PyPolicy seat_policy(py::handle policy, const char* what) {
  PyPolicy p = policy_arg(policy);
  if (std::string_view(p.kind) == "python")
    notation_error(std::string(kName) + ": " + what + " " + policy_repr(p) +
                   " is a Python policy: the vector env plays without the GIL, so its seats take a "
                   "built-in or a native policy (a Python one plays in BurracoEnv)");
  return p;
}

// Returns call() of the envs, run without the GIL, one call at a time; what it throws is raised
// as a policy loop's failure, the message after "VectorGames" + `where`.
template <class Call>
auto locked(Self v, Call&& call, const std::string& where = "") {
  try {
    py::gil_scoped_release release;
    std::lock_guard<std::mutex> lock(*v.busy);
    return call();
  } catch (...) {
    raise_loop_failure(std::current_exception(), kName + where);
  }
}

}  // namespace

void bind_vecenv(py::module_& m) {
  py::class_<PyVectorGames>(m, kName)
      .def(py::init([](py::handle rules_obj, py::handle num_envs, py::handle seat, py::handle opponent,
                       py::handle partner, py::handle reward, py::handle reward_scale,
                       py::handle threads) {
             auto v = std::make_unique<PyVectorGames>();
             v->rules = rules_from(rules_obj);
             const Rules& rules = *v->rules;
             // The arguments in VecArg's order, quoted as the caller gave them (Rules as repr).
             const py::handle given[] = {rules_obj, num_envs, seat, threads, reward, reward_scale,
                                         partner};
             const VecQuote quoted = [&](VecArg arg) {
               const py::handle obj = given[static_cast<int>(arg)];
               return arg == VecArg::Rules ? rules_repr(rules) : quote(obj);
             };
             const bool real = PyFloat_Check(reward_scale.ptr()) || is_int(reward_scale);
             const double scale = real ? PyFloat_AsDouble(reward_scale.ptr()) : -1.0;
             if (PyErr_Occurred()) PyErr_Clear();
             const bool text = py::isinstance<py::str>(reward);
             const VecEnvArgs args{int_of(num_envs), int_of(seat), int_of(threads),
                                   text ? std::optional(text_arg(reward)) : std::nullopt, scale};
             VecEnvConfig config;
             refuse(vec_env_config(rules, args, quoted, config));
             v->opponent = seat_policy(opponent, "opponent");
             refuse(vec_partner_refusal(rules, !partner.is_none(), quoted));
             if (!partner.is_none()) v->partner = seat_policy(partner, "partner");
             config.opponent = v->opponent.policy;
             config.partner = v->partner.value_or(v->opponent).policy;
             const int n = static_cast<int>(*args.num_envs), t = static_cast<int>(*args.threads);
             v->env = std::make_unique<VecEnv>(rules, n, config, t);
             return v;
           }), py::arg("rules"), py::arg("num_envs"), py::kw_only(), py::arg("seat") = 0,
           py::arg("opponent") = "random", py::arg("partner") = py::none(),
           py::arg("reward") = "margin", py::arg("reward_scale") = 2000.0, py::arg("threads") = 1)
      .def_property_readonly("num_envs", [](Self v) { return v.env->size(); })
      .def_property_readonly("threads", [](Self v) { return v.env->threads(); })
      .def_property_readonly("seat", [](Self v) { return v.env->config().seat; })
      .def_property_readonly("rules",
                             [](Self v) { return std::const_pointer_cast<Rules>(v.rules); })
      .def_property_readonly("opponent",
                             [](Self v) -> py::object { return policy_object(v.opponent); })
      .def_property_readonly("partner", [](Self v) -> py::object {
             return v.partner ? policy_object(*v.partner) : py::none();
           })
      .def_property_readonly(
          "reward", [](Self v) -> py::object { return py::str(reward_name(v.env->config())); })
      .def_property_readonly("reward_scale", [](Self v) { return v.env->config().reward_scale; })
      .def_property_readonly("action_size", [](Self v) { return v.env->action_size(); })
      .def_property_readonly("observation_size", [](Self) { return kObservationSize; })
      .def("seed",
           [](PyVectorGames& v, py::handle env, py::handle state, py::handle inc) {
             const int i = env_index(v, env);
             const std::optional<Pcg64::u128> s = u128_of(state), increment = u128_of(inc);
             refuse(pcg64_refusal(s, increment, [&](VecArg arg) {
               return quote(arg == VecArg::Inc ? inc : state);
             }));
             locked(v, [&] { v.env->seed(i, Pcg64(*s, *increment)); });
           }, py::arg("env"), py::arg("state"), py::arg("inc"))
      .def("reset",
           [](PyVectorGames& v, py::handle env, py::handle deal, py::handle observations,
              py::handle masks) {
             const int i = env_index(v, env);
             const std::optional<std::uint64_t> seed =
                 deal.is_none() ? std::nullopt : std::optional(seed_arg(deal));
             VecEnvOutput out;
             out.observations = array_arg<float>(v, VecArray::Observations, observations);
             out.masks = array_arg<std::uint8_t>(v, VecArray::Masks, masks);
             refuse(out.overlap_refusal(std::size_t(v.env->size()), v.env->action_size()));
             const std::string where = ".reset: env " + std::to_string(i) + ": ";
             locked(v, [&] { v.env->reset(i, seed, out); }, where);
           }, py::arg("env"), py::arg("deal"), py::arg("observations"), py::arg("masks"))
      .def("step",
           [](PyVectorGames& v, py::handle actions, py::handle observations,
              py::handle masks, py::handle rewards, py::handle terminated,
              py::handle truncated, py::handle margins, py::handle masks_unchanged) {
             char kind = '?';
             array_arg<void>(v, VecArray::Actions, actions, &kind);
             // A copy: the envs read it on other threads while the outputs are written.
             using Ids = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>;
             const Ids ids = Ids::ensure(actions);
             if (!ids) throw py::error_already_set();
             const std::vector<std::int64_t> chosen(ids.data(), ids.data() + ids.size());
             VecEnvOutput out;
             out.observations = array_arg<float>(v, VecArray::Observations, observations);
             out.masks = array_arg<std::uint8_t>(v, VecArray::Masks, masks);
             out.rewards = array_arg<double>(v, VecArray::Rewards, rewards);
             out.terminated = array_arg<bool>(v, VecArray::Terminated, terminated);
             out.truncated = array_arg<bool>(v, VecArray::Truncated, truncated);
             out.margins = array_arg<double>(v, VecArray::Margins, margins);
             refuse(out.overlap_refusal(std::size_t(v.env->size()), v.env->action_size()));
             if (!py::isinstance<py::bool_>(masks_unchanged))
               notation_error(std::string(kName) + ".step: masks_unchanged " +
                              quote(masks_unchanged) + ": expected a bool");
             out.masks_unchanged = masks_unchanged.ptr() == Py_True;
             const bool given_unsigned = kind == 'u';
             const std::optional<VecActionProblem> problem = locked(v, [&] {
               return v.env->checked_step(chosen.data(), given_unsigned, out);
             }, ".step: ");
             if (problem && problem->in_range) illegal(problem->message);
             if (problem) notation_error(problem->message);
           }, py::arg("actions"), py::arg("observations"), py::arg("masks"), py::arg("rewards"),
           py::arg("terminated"), py::arg("truncated"), py::arg("margins"), py::kw_only(),
           py::arg("masks_unchanged") = false)
      .def("random_actions",
           [](PyVectorGames& v, py::handle seed, py::handle out) {
             const std::uint64_t seed_value = seed_arg(seed);
             auto* actions = array_arg<std::int64_t>(v, VecArray::Out, out);
             locked(v, [&] { v.env->random_actions(seed_value, actions); });
           }, py::arg("seed"), py::arg("out"))
      .def("game",
           [](Self v, py::handle env) {
             const int i = env_index(v, env);
             const GameState state = locked(v, [&] { return v.env->state(i); });
             return std::make_unique<PyGame>(state, v.rules);
           }, py::arg("env"))
      .def("needs_reset",
           [](Self v, py::handle env) {
             const int i = env_index(v, env);
             return locked(v, [&] { return v.env->needs_reset(i); });
           }, py::arg("env"))
      .def("__repr__", [](Self v) {
        return v.env->repr(rules_repr(*v.rules), policy_repr(v.opponent),
                           v.partner ? policy_repr(*v.partner) : std::string());
      });
}

}  // namespace burraco_binding
