// burraco._core: VectorGames, the engine of the vector environment (burraco.envs.vector,
// docs/rl.md "The vector environment"): N hands stepped per call without the GIL, the outputs
// written into the caller's NumPy arrays.
#include "binding.hpp"

#include <cstring>
#include <limits>
#include <optional>

#include "burraco/vecenv.hpp"

BURRACO_SHOWN_ARG(VecRewardArg, "typing.Literal['margin', 'win']")
BURRACO_SHOWN_ARG(VecFloatRowsArg, "numpy.typing.NDArray[numpy.float32]")
BURRACO_SHOWN_ARG(VecMaskRowsArg, "numpy.typing.NDArray[numpy.int8] | numpy.typing.NDArray[numpy.bool]")
BURRACO_SHOWN_ARG(VecFloat64Arg, "numpy.typing.NDArray[numpy.float64]")
BURRACO_SHOWN_ARG(VecBoolArg, "numpy.typing.NDArray[numpy.bool]")
BURRACO_SHOWN_ARG(VecActionsOutArg, "numpy.typing.NDArray[numpy.int64]")
BURRACO_SHOWN_ARG(VecActionsArg, "numpy.typing.NDArray[numpy.integer[typing.Any]]")

namespace burraco_binding {

struct PyVectorGames {
  std::unique_ptr<VecEnv> env;
  RulesPtr rules;
  PyPolicy opponent, partner;  // keep their hooks alive
  bool has_partner = false;
  std::string reward;
  // One call at a time (another Python thread may call while the GIL is released).
  std::shared_ptr<std::mutex> busy = std::make_shared<std::mutex>();
};

}  // namespace burraco_binding
BURRACO_CHECKED_CASTER(burraco_binding::PyVectorGames)
namespace burraco_binding {

namespace {

const char* const kName = "VectorGames";

std::string type_name(py::handle obj) {
  return type_name_of(obj);
}

// An env index argument: an int in [0, num_envs).
std::size_t env_index(const PyVectorGames& v, py::handle env) {
  long long i = -1;
  if (!index_int(env, i) || i < 0 || i >= v.env->size())
    notation_error(std::string(kName) + ": env " + quote(env) + ": expected an int from 0 to " +
                   std::to_string(v.env->size() - 1));
  return static_cast<std::size_t>(i);
}

// One output array: a writeable, aligned, C-contiguous NumPy array of shape (rows,) or (rows,
// width), its dtype accepted by `dtype_ok`; else InvalidNotationError naming it and quoting its
// shape and dtype. Returns its first byte and its size in bytes.
struct Span {
  const char* name;
  char* begin;
  std::size_t bytes;
};

template <class Accept>
Span out_rows(py::handle obj, const char* name, py::ssize_t rows, py::ssize_t width, std::size_t item,
              const char* dtype, Accept&& dtype_ok) {
  const std::string shape = width < 0 ? "(" + std::to_string(rows) + ",)"
                                      : "(" + std::to_string(rows) + ", " + std::to_string(width) + ")";
  const std::string wanted = std::string("a writeable C-contiguous ") + dtype + " array of shape " + shape;
  if (!py::isinstance<py::array>(obj))
    notation_error(std::string(kName) + ": " + name + " is a " + type_name(obj) + ", not a NumPy array: expected " +
                   wanted);
  py::array a = py::reinterpret_borrow<py::array>(obj);
  const char* problem = nullptr;
  const bool shape_ok = width < 0 ? a.ndim() == 1 && a.shape(0) == rows
                                  : a.ndim() == 2 && a.shape(0) == rows && a.shape(1) == width;
  if (!shape_ok)
    problem = "of the wrong shape";
  else if (!dtype_ok(a.dtype()) || static_cast<std::size_t>(a.itemsize()) != item)
    problem = "of the wrong dtype";
  else if (!(a.flags() & py::array::c_style))
    problem = "not C-contiguous";
  else if (!a.writeable())
    problem = "read-only";
  else if (reinterpret_cast<std::uintptr_t>(a.data()) % item != 0)
    problem = "not aligned";
  if (problem)
    notation_error(std::string(kName) + ": " + name + " (shape " + std::string(py::str(obj.attr("shape"))) +
                   ", dtype " + std::string(py::str(obj.attr("dtype"))) + ") is " + problem + ": expected " +
                   wanted);
  return Span{name, static_cast<char*>(a.mutable_data()), static_cast<std::size_t>(a.nbytes())};
}

// Refuses two output arrays that share memory (one env's row would overwrite another's).
void no_overlap(const std::vector<Span>& spans) {
  for (std::size_t a = 0; a < spans.size(); ++a)
    for (std::size_t b = a + 1; b < spans.size(); ++b) {
      const Span& x = spans[a];
      const Span& y = spans[b];
      if (x.bytes && y.bytes && x.begin < y.begin + y.bytes && y.begin < x.begin + x.bytes)
        notation_error(std::string(kName) + ": " + x.name + " and " + y.name +
                       " share memory: expected separate arrays");
    }
}

bool is_float32(const py::dtype& d) { return d.kind() == 'f' && d.itemsize() == 4; }
bool is_float64(const py::dtype& d) { return d.kind() == 'f' && d.itemsize() == 8; }
bool is_bool(const py::dtype& d) { return d.kind() == 'b'; }
bool is_mask(const py::dtype& d) { return d.kind() == 'b' || d.kind() == 'i' || d.kind() == 'u'; }

Span observations_arg(const PyVectorGames& v, py::handle obj) {
  return out_rows(obj, "observations", v.env->size(), kObservationSize, 4, "float32", is_float32);
}
Span masks_arg(const PyVectorGames& v, py::handle obj) {
  return out_rows(obj, "masks", v.env->size(), v.env->action_size(), 1, "int8 (or bool)", is_mask);
}

// A 128-bit unsigned int of the caller's (a PCG64 state word).
Pcg64::u128 u128_arg(py::handle value, const char* name) {
  if (is_int(value)) {
    const py::int_ v = py::reinterpret_borrow<py::int_>(value);
    const py::int_ low_mask((std::numeric_limits<std::uint64_t>::max)());
    if (py::int_(0).attr("__le__")(v).cast<bool>()) {
      const py::object high = v.attr("__rshift__")(64);
      const py::object low = v.attr("__and__")(low_mask);
      if (high.attr("__le__")(low_mask).cast<bool>())
        return (static_cast<Pcg64::u128>(high.cast<std::uint64_t>()) << 64) | low.cast<std::uint64_t>();
    }
  }
  notation_error(std::string(kName) + ".seed: " + name + " " + quote(value) +
                 ": expected an int in [0, 2**128)");
}

std::string action_text(const MeldTable& table, int id) {
  Move m;
  return std::to_string(id) + (action_move(id, table, m) ? " ('" + move_text(m) + "')" : "");
}

// The message of a bad action (docs/rl.md "The vector environment"). The ids were read as int64:
// from an unsigned array (`given_unsigned`) an id above 2**63 - 1 became negative, and is quoted
// as the caller gave it.
std::string problem_text(const VecEnv& env, const VecActionProblem& p, bool given_unsigned) {
  const std::string where = std::string(kName) + ".step: env " + std::to_string(p.env) + ": ";
  if (!p.in_range)
    return where + "action " +
           (given_unsigned ? std::to_string(static_cast<std::uint64_t>(p.action))
                           : std::to_string(p.action)) +
           " is not an action id: expected an int from 0 to " +
           std::to_string(env.action_size() - 1) + "; no env was stepped";
  const MeldTable& table = meld_table(env.rules());
  const GameState& s = env.state(p.env);
  std::vector<int> ids;
  for (const Move& m : env.legal(p.env)) ids.push_back(action_id(m, table));
  std::sort(ids.begin(), ids.end());
  std::string shown;
  for (std::size_t k = 0; k < ids.size() && k < 8; ++k) shown += (k ? ", " : "") + action_text(table, ids[k]);
  if (ids.size() > 8) shown += " and " + std::to_string(ids.size() - 8) + " more";
  return where + "illegal action " + action_text(table, static_cast<int>(p.action)) + " in the " +
         (s.phase == Phase::Draw ? "draw" : "meld") + " phase: no env was stepped; its legal actions are " + shown;
}

PyPolicy seat_policy(py::handle policy, const char* what) {
  PyPolicy p = policy_arg(policy);
  if (std::string_view(p.kind) == "python")
    notation_error(std::string(kName) + ": " + what + " " + policy_repr(p) +
                   " is a Python policy: the vector env plays without the GIL, so its seats take a "
                   "built-in or a native policy (a Python one plays in BurracoEnv)");
  return p;
}

}  // namespace

void bind_vecenv(py::module_& m) {
  py::class_<PyVectorGames>(m, kName,
      "N hands of one rule set stepped together (docs/rl.md \"The vector environment\"): the learner "
      "plays one seat of each, policies the other seats inside step(), which writes observations, "
      "masks, rewards and done flags into the caller's NumPy arrays without the GIL, on `threads` "
      "threads. burraco.envs.vector.BurracoVectorEnv is its Gymnasium interface.")
      .def(py::init([](RulesArg rules_obj, IntArg num_envs, IntArg seat, PolicyArg opponent,
                       OptPolicyArg partner, VecRewardArg reward, RealArg reward_scale, IntArg threads) {
             auto v = std::make_unique<PyVectorGames>();
             v->rules = rules_from(rules_obj);
             const Rules& rules = *v->rules;
             const std::string why = check_playable(rules);
             if (!why.empty()) notation_error(rules_repr(rules) + " cannot be dealt: " + why);
             // Its rows are the 511-feature observations of 2, 3 or 4 players (docs/search.md).
             if (rules.players == 6)
               notation_error(std::string(kName) + ": " + rules_repr(rules) +
                              " has six players; vector environments play 2, 3 or 4 players "
                              "(their 511-feature observation rows)");
             long long n = -1, s = -1, t = -1;
             if (!small_int(num_envs, n) || n < 1 || n > 1'000'000)
               notation_error(std::string(kName) + ": num_envs " + quote(num_envs) +
                              ": expected an int from 1 to 1000000");
             if (!small_int(seat, s) || s < 0 || s >= rules.players)
               notation_error(std::string(kName) + ": seat " + quote(seat) + ": expected an int from 0 to " +
                              std::to_string(rules.players - 1));
             if (!small_int(threads, t) || t < 1 || t > 64)
               notation_error(std::string(kName) + ": threads " + quote(threads) + ": expected an int from 1 to 64");
             if (!py::isinstance<py::str>(reward) ||
                 (text_arg(reward) != "margin" && text_arg(reward) != "win"))
               notation_error(std::string(kName) + ": reward " + quote(reward) + ": expected 'margin' or 'win'");
             const double scale = PyFloat_Check(reward_scale.ptr()) || is_int(reward_scale)
                                      ? PyFloat_AsDouble(reward_scale.ptr())
                                      : -1.0;
             if (PyErr_Occurred()) PyErr_Clear();
             if (!(scale > 0 && scale <= std::numeric_limits<double>::max()))
               notation_error(std::string(kName) + ": reward_scale " + quote(reward_scale) +
                              ": expected a positive finite number");
             v->opponent = seat_policy(opponent, "opponent");
             if (!partner.is_none()) {
               if (rules.players != 4)
                 notation_error(std::string(kName) + ": partner " + quote(partner) +
                                ": only four players have a fixed partner");
               v->partner = seat_policy(partner, "partner");
               v->has_partner = true;
             } else {
               v->partner = v->opponent;
             }
             v->reward = text_arg(reward);
             VecEnvConfig config;
             config.seat = static_cast<int>(s);
             config.opponent = v->opponent.policy;
             config.partner = v->partner.policy;
             config.win_reward = v->reward == "win";
             config.reward_scale = scale;
             v->env = std::make_unique<VecEnv>(rules, static_cast<int>(n), config, static_cast<int>(t));
             return v;
           }),
           py::arg("rules"), py::arg("num_envs"), py::kw_only(), py::arg("seat") = 0,
           py::arg("opponent") = "random", py::arg("partner") = py::none(), py::arg("reward") = "margin",
           py::arg("reward_scale") = 2000.0, py::arg("threads") = 1,
           "num_envs hands of `rules`; the learner plays `seat`, `opponent` every other seat (with four "
           "players `partner`, if given, plays seat + 2): 'random', 'greedy', 'heuristic' or a "
           "burraco.Policy that is built in or native (a Python policy needs the GIL). reward: "
           "'margin' (margin / reward_scale) or 'win' (+1, -1, 0). Every env waits for its reset.")
      .def_property_readonly("num_envs", [](const PyVectorGames& v) { return v.env->size(); },
                             "The number of envs.")
      .def_property_readonly("threads", [](const PyVectorGames& v) { return v.env->threads(); },
                             "The threads a step runs on (at most num_envs).")
      .def_property_readonly("seat", [](const PyVectorGames& v) { return v.env->config().seat; },
                             "The learner's seat in every env.")
      .def_property_readonly("rules", [](const PyVectorGames& v) { return std::const_pointer_cast<Rules>(v.rules); },
                             "The rules of every hand.")
      .def_property_readonly("opponent", [](const PyVectorGames& v) -> PolicyResult { return policy_object(v.opponent); },
                             "The policy of the other seats.")
      .def_property_readonly("partner", [](const PyVectorGames& v) -> OptPolicyResult {
             return v.has_partner ? policy_object(v.partner) : py::none();
           },
                             "The partner's policy (four players), or None: the opponent's.")
      .def_property_readonly("reward", [](const PyVectorGames& v) -> StrResult { return py::str(v.reward); },
                             "'margin' or 'win'.")
      .def_property_readonly("reward_scale", [](const PyVectorGames& v) { return v.env->config().reward_scale; },
                             "What a margin is divided by (reward 'margin').")
      .def_property_readonly("action_size", [](const PyVectorGames& v) { return v.env->action_size(); },
                             "The width of a mask row: the number of action ids of the rules.")
      .def_property_readonly("observation_size", [](const PyVectorGames&) { return kObservationSize; },
                             "The width of an observation row (511).")
      .def("seed",
           [](PyVectorGames& v, IntArg env, IntArg state, IntArg inc) {
             const std::size_t i = env_index(v, env);
             const Pcg64::u128 increment = u128_arg(inc, "inc");
             // PCG64 adds `inc` at every step and has its full period only with it odd; NumPy's
             // state always holds an odd one ((stream << 1) | 1): an even one is none of its states.
             if ((increment & 1U) == 0)
               notation_error(std::string(kName) + ".seed: inc " + quote(inc) +
                              ": expected an odd int (a PCG64 increment, as NumPy's "
                              "bit_generator.state['state']['inc'] holds)");
             const Pcg64 stream(u128_arg(state, "state"), increment);
             py::gil_scoped_release release;
             std::lock_guard<std::mutex> lock(*v.busy);
             v.env->seed(static_cast<int>(i), stream);
           },
           py::arg("env"), py::arg("state"), py::arg("inc"),
           "Gives env `env` the generator NumPy's PCG64 has in the state (state, inc) (its "
           "bit_generator.state['state']; inc is odd, an even one raises InvalidNotationError): "
           "the deals of its resets without a seed and the seeds of "
           "the other seats' moves are drawn from it, as BurracoEnv draws them from np_random.")
      .def("reset",
           [](PyVectorGames& v, IntArg env, OptSeedArg deal, VecFloatRowsArg observations, VecMaskRowsArg masks) {
             const std::size_t i = env_index(v, env);
             std::optional<std::uint64_t> seed;
             if (!deal.is_none()) seed = seed_arg(deal);
             const Span obs = observations_arg(v, observations);
             const Span mask = masks_arg(v, masks);
             no_overlap({obs, mask});
             VecEnvOutput out;
             out.observations = reinterpret_cast<float*>(obs.begin);
             out.masks = reinterpret_cast<std::uint8_t*>(mask.begin);
             std::exception_ptr failure;
             {
               py::gil_scoped_release release;
               std::lock_guard<std::mutex> lock(*v.busy);
               try {
                 v.env->reset(static_cast<int>(i), seed, out);
               } catch (...) {
                 failure = std::current_exception();
               }
             }
             if (failure) raise_loop_failure(failure, std::string(kName) + ".reset: env " + std::to_string(i) + ": ");
           },
           py::arg("env"), py::arg("deal"), py::arg("observations"), py::arg("masks"),
           "Starts a new hand in env `env`: the deal of seed `deal`, or (None) of the seed its "
           "generator draws; the other seats play up to the learner's first move, and row `env` of "
           "`observations` (float32, num_envs x 511) and `masks` (int8 or bool, num_envs x "
           "action_size) is written.")
      .def("step",
           [](PyVectorGames& v, VecActionsArg actions, VecFloatRowsArg observations, VecMaskRowsArg masks,
              VecFloat64Arg rewards, VecBoolArg terminated, VecBoolArg truncated, VecFloat64Arg margins,
              BoolArg masks_unchanged) {
             const py::ssize_t n = v.env->size();
             if (!py::isinstance<py::array>(actions) ||
                 (py::reinterpret_borrow<py::array>(actions).dtype().kind() != 'i' &&
                  py::reinterpret_borrow<py::array>(actions).dtype().kind() != 'u') ||
                 py::reinterpret_borrow<py::array>(actions).ndim() != 1 ||
                 py::reinterpret_borrow<py::array>(actions).shape(0) != n)
               notation_error(std::string(kName) + ".step: actions " +
                              (py::isinstance<py::array>(actions)
                                   ? "(shape " + std::string(py::str(actions.attr("shape"))) + ", dtype " +
                                         std::string(py::str(actions.attr("dtype"))) + ")"
                                   : "(a " + type_name(actions) + ")") +
                              ": expected a NumPy integer array of shape (" + std::to_string(n) + ",)");
             const bool given_unsigned = py::reinterpret_borrow<py::array>(actions).dtype().kind() == 'u';
             // A copy: the envs read it on other threads while the outputs are written.
             const auto ids = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>::ensure(actions);
             if (!ids) throw py::error_already_set();
             std::vector<std::int64_t> chosen(ids.data(), ids.data() + n);
             const std::vector<Span> spans{
                 observations_arg(v, observations), masks_arg(v, masks),
                 out_rows(rewards, "rewards", n, -1, 8, "float64", is_float64),
                 out_rows(terminated, "terminated", n, -1, 1, "bool", is_bool),
                 out_rows(truncated, "truncated", n, -1, 1, "bool", is_bool),
                 out_rows(margins, "margins", n, -1, 8, "float64", is_float64)};
             no_overlap(spans);
             VecEnvOutput out;
             out.observations = reinterpret_cast<float*>(spans[0].begin);
             out.masks = reinterpret_cast<std::uint8_t*>(spans[1].begin);
             out.rewards = reinterpret_cast<double*>(spans[2].begin);
             out.terminated = reinterpret_cast<bool*>(spans[3].begin);
             out.truncated = reinterpret_cast<bool*>(spans[4].begin);
             out.margins = reinterpret_cast<double*>(spans[5].begin);
             if (!py::isinstance<py::bool_>(masks_unchanged))
               notation_error(std::string(kName) + ".step: masks_unchanged " + quote(masks_unchanged) +
                              ": expected a bool");
             out.masks_unchanged = masks_unchanged.cast<bool>();
             std::optional<VecActionProblem> problem;
             std::string message;
             std::exception_ptr failure;
             {
               py::gil_scoped_release release;
               std::lock_guard<std::mutex> lock(*v.busy);
               problem = v.env->check(chosen.data());
               if (problem) {
                 message = problem_text(*v.env, *problem, given_unsigned);
               } else {
                 try {
                   v.env->step(chosen.data(), out);
                 } catch (...) {
                   failure = std::current_exception();
                 }
               }
             }
             if (problem) {
               if (problem->in_range) illegal(message);
               notation_error(message);
             }
             if (failure) raise_loop_failure(failure, std::string(kName) + ".step: ");
           },
           py::arg("actions"), py::arg("observations"), py::arg("masks"), py::arg("rewards"),
           py::arg("terminated"), py::arg("truncated"), py::arg("margins"), py::kw_only(),
           py::arg("masks_unchanged") = false,
           "One step of every env, the GIL released: the learner plays its action id (row i of "
           "`actions`, an integer array of num_envs), then the other seats play until it is to act "
           "again or the hand is over; an env whose hand ended at the previous step is reset instead "
           "(its action unread; reward 0). Row i of every output is written: `observations` "
           "(float32, num_envs x 511), `masks` (int8 or bool, num_envs x action_size; all 0 when "
           "the hand is over), `rewards`, `margins` (float64: the learner's margin in points at the "
           "hand's end, else 0), `terminated`, `truncated` (bool; truncated is always False). Every "
           "action is checked first: an id outside range(action_size) raises InvalidNotationError, "
           "an illegal one IllegalMoveError, each naming the env and the action, and then no env "
           "is stepped. masks_unchanged=True vouches that nobody wrote into `masks` since this object "
           "last did: a row it wrote there then has only the ids it set cleared, not every byte "
           "(much less memory traffic; what BurracoVectorEnv(copy=False) passes).")
      .def("random_actions",
           [](PyVectorGames& v, SeedArg seed, VecActionsOutArg out) {
             const std::uint64_t seed_value = seed_arg(seed);
             const Span actions = out_rows(out, "out", v.env->size(), -1, 8, "int64",
                                           [](const py::dtype& d) { return d.kind() == 'i'; });
             py::gil_scoped_release release;
             std::lock_guard<std::mutex> lock(*v.busy);
             v.env->random_actions(seed_value, reinterpret_cast<std::int64_t*>(actions.begin));
           },
           py::arg("seed"), py::arg("out"),
           "Writes into `out` (int64, num_envs) a uniformly random legal action of each env: "
           "the legal ids of env i in canonical move order, one picked with the deal contract's "
           "generator seeded by the i-th SplitMix64 output of `seed` (0 for an env that waits for "
           "its reset). A masked random learner, for baselines and benches.")
      .def("game",
           [](const PyVectorGames& v, IntArg env) {
             const std::size_t i = env_index(v, env);
             GameState state;
             {
               py::gil_scoped_release release;
               std::lock_guard<std::mutex> lock(*v.busy);
               state = v.env->state(static_cast<int>(i));
             }
             return std::make_unique<PyGame>(state, v.rules);
           },
           py::arg("env"),
           "A copy of env `env`'s hand now (without its moves' history): over when the last step "
           "ended it.")
      .def("needs_reset",
           [](const PyVectorGames& v, IntArg env) {
             const std::size_t i = env_index(v, env);
             py::gil_scoped_release release;
             std::lock_guard<std::mutex> lock(*v.busy);
             return v.env->needs_reset(static_cast<int>(i));
           },
           py::arg("env"),
           "Whether env `env` was never reset or its hand is over: its next step resets it.")
      .def("__repr__", [](const PyVectorGames& v) {
        return std::string(kName) + "(" + rules_repr(*v.rules) + ", " + std::to_string(v.env->size()) +
               ", seat=" + std::to_string(v.env->config().seat) + ", opponent=" + policy_repr(v.opponent) +
               (v.has_partner ? ", partner=" + policy_repr(v.partner) : std::string()) + ", reward='" + v.reward +
               "', threads=" + std::to_string(v.env->threads()) + ")";
      });
}

}  // namespace burraco_binding
