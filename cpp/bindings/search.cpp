// burraco._core: search: observations, playouts, action ids, ISMCTS, perft.
#include "binding.hpp"

#include <cmath>
#include <optional>

#include "burraco/actions.hpp"
#include "burraco/ismcts_options.hpp"

namespace burraco_binding {

// Runs f() (which must not touch Python) under the search's lock, the GIL released meanwhile.
template <class F>
auto with_search(const PyIsmcts& self, F&& f) {
  py::gil_scoped_release release;
  std::lock_guard<std::mutex> lock(*self.busy);
  return f();
}

// Runs the loop f(), without the GIL if `release` (f must then not touch Python); a failure is
// raised once the GIL is back, its message between `prefix` and `suffix` (raise_loop_failure).
template <class F>
auto run_loop(bool release, const std::string& prefix, F&& f, const std::string& suffix = "") {
  try {
    std::optional<py::gil_scoped_release> unlocked;
    if (release) unlocked.emplace();
    return f();
  } catch (...) {
    raise_loop_failure(std::current_exception(), prefix, suffix);
  }
}

// Raises a refusal of the core as its kind's Python error; nothing if it accepts.
void raise_refusal(const Refusal& r) {
  if (r.ok()) return;
  if (r.kind == Refusal::Kind::Type) throw py::type_error(r.message);
  if (r.kind == Refusal::Kind::Illegal) illegal(r.message);
  if (r.kind == Refusal::Kind::State) state_error(r.message);
  raise("BurracoError", r.message);
}

// A Python value as an option's value: what it is (None, a bool, an int, a real number, and with
// `text` a str) and how it is written.
OptionValue option_value(py::handle v, bool text = false) {
  static PyObject* const real = py::object(py::module_::import("numbers").attr("Real")).release().ptr();
  OptionValue o;
  o.shown = quote(v);
  o.type = type_name_of(v);
  o.none = v.is_none();
  o.boolean = py::isinstance<py::bool_>(v);
  o.flag = o.boolean && v.cast<bool>();
  if (!o.boolean && PyIndex_Check(v.ptr())) {
    py::object as_int = py::reinterpret_steal<py::object>(PyNumber_Index(v.ptr()));
    o.index = static_cast<bool>(as_int);
    o.fits = o.index && small_int(as_int, o.integer);
    if (!o.index) PyErr_Clear();
  }
  o.real = !o.boolean && py::isinstance(v, py::handle(real));
  o.number = o.real ? PyFloat_AsDouble(v.ptr()) : 0;
  if (o.real && o.number == -1.0 && PyErr_Occurred()) {  // too large for a float: refused
    PyErr_Clear();
    o.number = HUGE_VAL;
  }
  o.text = text && py::isinstance<py::str>(v);
  if (o.text) o.str = text_arg(v);
  return o;
}

// Sets an ISMCTS option from its Python value, or raises the refusal: TypeError for a wrong
// type, BurracoError (a ValueError) quoting a value out of range.
void set_option(IsmctsParams& params, const char* name, py::handle value, bool text = false) {
  raise_refusal(set_ismcts_option(params, name, option_value(value, text)));
}

// ISMCTS.choose and ISMCTS.hint: `what` names the method in errors. The position is copied under
// the GIL, then searched without it under the search's lock; `children` (if given) receives the
// root's statistics of that very search.
Move search_position(PyIsmcts& self, PyGame& g, const char* what, std::vector<IsmctsChild>* children) {
  const std::string name = std::string("ISMCTS.") + what;
  const IsmctsParams& params = self.search.params();
  raise_refusal(ismcts_position_refusal(params, g.state, *g.rules, name));
  const GameState state = g.state;
  const RulesPtr rules = g.rules;
  return run_loop(true, name + ": ", [&] {
    std::lock_guard<std::mutex> lock(*self.busy);
    const Move chosen = self.search.choose(state, *rules);
    if (children) *children = self.search.root_children();
    return chosen;
  });
}

// An `out=` array argument: a writeable, C-contiguous, one-dimensional NumPy array of exactly
// `size` entries of T, else InvalidNotationError quoting its shape and dtype (docs/search.md).
// None: a new array.
template <class T>
py::array_t<T> out_array(py::handle out, py::ssize_t size, const char* dtype) {
  if (out.is_none()) return py::array_t<T>(size);
  const std::string wanted = std::string("a writeable C-contiguous ") + dtype +
                             " array of shape (" + std::to_string(size) + ",)";
  if (!py::isinstance<py::array>(out))
    notation_error("out is a " + type_name_of(out) + ", not a NumPy array: expected " + wanted);
  const py::array a = py::reinterpret_borrow<py::array>(out);
  const char* problem = !py::isinstance<py::array_t<T>>(out) || a.ndim() != 1 || a.shape(0) != size
                            ? "wrong shape or dtype"
                        : !(a.flags() & py::array::c_style) ? "not C-contiguous"
                        : !a.writeable()                    ? "read-only"
                                                            : nullptr;
  if (problem)
    notation_error("out (shape " + std::string(py::str(out.attr("shape"))) + ", dtype " +
                   std::string(py::str(out.attr("dtype"))) + ") is " + problem + ": expected " + wanted);
  return py::reinterpret_borrow<py::array_t<T>>(out);
}

// The move of action id `id` under the game's rules; InvalidNotationError quoting it if it is not
// an int in range(action_size). Shared by action_move and push_action.
Move move_of_action(const PyGame& g, py::handle id) {
  long long v = -1;
  Move m;
  if (!index_int(id, v) || v < 0 || v >= action_size(*g.rules) ||
      !action_move(static_cast<int>(v), meld_table(*g.rules), m))
    notation_error("action id " + quote(id) + ": expected an int from 0 to " +
                   std::to_string(action_size(*g.rules) - 1));
  return m;
}

// The observation of `state` by `seat`, with its text.
PyObservation observation_of(const GameState& state, const RulesPtr& rules, int seat) {
  PyObservation o{observe(state, *rules, seat), rules, {}};
  o.text = observation_string(o.obs, *rules);
  return o;
}

void bind_game_search(py::class_<PyGame>& game) {
  game
      .def("playout",
           [](PyGame& g, py::handle policy, py::handle seed) {
             const PyPolicy p = policy_arg(policy);
             const std::uint64_t seed_value = seed_arg(seed);
             const std::string shown = "playout(" + policy_repr(p) + ", " + quote(seed) + "): ";
             const std::string kept = " (the game is left as it was)";
             std::vector<Move> buffer;
             if (!p.hook)  // a built-in policy: played in place, the GIL held (no Python runs)
               return run_loop(false, shown, [&] {
                 return play_recorded(g, p.policy, seed_value, buffer);
               }, kept);
             // A policy of the caller's: played on a copy without the GIL (a native policy needs
             // none; a Python one takes it for each call, and may run other threads or touch this
             // game meanwhile), then recorded in one step if the game is still where it started.
             const GameState start = g.state;
             const std::size_t count = g.move_count();
             GameState work = start;
             const RulesPtr rules = g.rules;
             std::vector<Move> played;
             run_loop(true, shown, [&] {
               return playout(work, *rules, p.policy, seed_value, buffer,
                              [&](const GameState&, const Move& move) { played.push_back(move); });
             }, kept);
             if (g.move_count() != count || state_string(g.state, *rules) != state_string(start, *rules))
               illegal(shown + "the game changed while the policy played (another thread or the "
                       "policy itself moved it): the playout is not recorded");
             for (const Move& move : played) g.push(move);
             return static_cast<int>(played.size());
           }, py::arg("policy") = "random", py::arg("seed") = 0)
      .def("policy_move",
           [](const PyGame& g, py::handle policy, py::handle seed) {
             const PyPolicy p = policy_arg(policy);
             const std::uint64_t seed_value = seed_arg(seed);
             std::vector<Move> buffer;
             raise_refusal(choice_refusal(g.state, *g.rules, "policy_move", buffer));
             const std::vector<Move>& moves = buffer;  // the first move of playout(policy, seed)
             const GameState state = g.state;  // another thread may push once the GIL is released
             const RulesPtr rules = g.rules;
             Rng rng(seed_value);
             const std::string shown = "policy_move(" + policy_repr(p) + "): ";
             return PyMove{moves[run_loop(p.hook != nullptr, shown, [&] {
               return policy_choice(p.policy, state, *rules, moves, rng);
             })]};
           }, py::arg("policy") = "greedy", py::arg("seed") = 0)
      .def_property_readonly("action_size", [](const PyGame& g) { return action_size(*g.rules); })
      .def("action_id",
           [](const PyGame& g, py::handle move) {
             const int id = action_id(move_from(move, g.rules->decks), meld_table(*g.rules));
             if (id < 0) notation_error("move " + quote(move) + " has no action id under these rules");
             return id;
           }, py::arg("move"))
      .def("action_move",
           [](const PyGame& g, py::handle id) { return PyMove{move_of_action(g, id)}; },
           py::arg("id"))
      .def("legal_mask",
           [](PyGame& g, py::handle out) {
             py::array_t<bool> mask = out_array<bool>(out, action_size(*g.rules), "bool");
             legal_mask(*g.legal_list(), *g.rules, mask.mutable_data());
             return mask;
           }, py::arg("out") = py::none())
      .def("push_action",
           [](PyGame& g, py::handle id) { push_one(g, move_of_action(g, id)); },
           py::arg("id"))
      .def("observation_tensor",
           [](const PyGame& g, py::handle player, py::handle out) {
             const int seat = seat_arg(g, player);
             const int size = observation_size(*g.rules);
             py::array_t<float> features = out_array<float>(out, size, "float32");
             observation_features(observe(g.state, *g.rules, seat), *g.rules, features.mutable_data());
             return features;
           }, py::arg("player"), py::arg("out") = py::none())
      .def("observation",
           [](const PyGame& g, py::handle player) {
             return observation_of(g.state, g.rules, seat_arg(g, player));
           }, py::arg("player"))
      .def("determinize",
           [](const PyGame& g, py::handle player, py::handle seed) {
             const int seat = seat_arg(g, player);
             const std::uint64_t seed_value = seed_arg(seed);
             std::string fault;  // a deal the sampler should not have made (determinize_seat)
             // Built in place on the heap and handed to Python as is: no further copies.
             auto out = std::make_unique<PyGame>(
                 determinize_seat(g.state, *g.rules, seat, seed_value, fault), g.rules);
             if (!fault.empty()) state_error(fault);
             return out;
           }, py::arg("player"), py::arg("seed"));
}

void bind_search(py::module_& m) {
  bound_class<PyObservation>(m, "Observation")
      .def_property_readonly("player", [](const PyObservation& o) { return static_cast<int>(o.obs.player); })
      .def_property_readonly("rules", [](const PyObservation& o) { return std::const_pointer_cast<Rules>(o.rules); })
      .def_property_readonly("turn", [](const PyObservation& o) { return static_cast<int>(o.obs.state.turn); })
      .def_property_readonly("phase", [](const PyObservation& o) -> py::object { return phase_name(o.obs.state.phase); })
      .def_property_readonly("hand", [](const PyObservation& o) { return cards_object(o.obs.state.hands[o.obs.player], o.rules->decks); })
      .def_property_readonly("hand_sizes", [](const PyObservation& o) -> py::object {
        return tuple_of(o.obs.state.players, [&](int q) { return int{o.obs.hand_sizes[q]}; });
      })
      .def_property_readonly("known", [](const PyObservation& o) -> py::object {
        const int decks = o.rules->decks;
        return tuple_of(o.obs.state.players,
                        [&](int q) { return cards_object(o.obs.state.known[q], decks); });
      })
      .def_property_readonly("stock_size", [](const PyObservation& o) { return o.obs.state.stock_size(); })
      .def_property_readonly("discard_pile", [](const PyObservation& o) { return cards_object(o.obs.state.pile, o.rules->decks); })
      .def_property_readonly("top", [](const PyObservation& o) -> py::object {
        return o.obs.state.top.valid() ? py::cast(o.obs.state.top) : py::object(py::none());
      })
      .def("melds",
           [](const PyObservation& o, py::handle side) {
             long long v = -1;
             if (!small_int(side, v) || v < 0 || v >= side_slots(*o.rules))
               notation_error("no side " + quote(side));
             return PyMelds{side_melds(o.obs.state, static_cast<int>(v)), o.rules};
           }, py::arg("side"))
      .def_property_readonly("pozzetti", [](const PyObservation& o) -> py::object {
        return tuple_of(o.rules->packets(), [&](int k) {
          const Packet& p = o.obs.state.packets[k];
          py::tuple view = packet_view(p, o.rules->decks);
          const bool sized = p.status == PacketStatus::Untaken || p.status == PacketStatus::FaceDown ||
                             p.status == PacketStatus::Seen;
          return py::make_tuple(view[0], view[1],
                                sized ? py::object(py::int_(p.size)) : py::object(py::none()),
                                packet_visible(o.obs.state, o.obs.player, k)
                                    ? py::object(cards_object(p.set(), o.rules->decks))
                                    : py::object(py::none()));
        });
      })
      .def_property_readonly("sides", [](const PyObservation& o) -> py::object {
        const Rules& rules = *o.rules;
        return tuple_of(o.obs.state.players, [&](int q) { return side_of(o.obs.state, rules, q); });
      })
      .def_property_readonly("opened", [](const PyObservation& o) -> py::object {
        return tuple_of(side_slots(*o.rules), [&](int k) { return bool{o.obs.state.opened[k]}; });
      })
      .def_property_readonly("need", [](const PyObservation& o) -> py::object {
        return tuple_of(side_slots(*o.rules), [&](int k) { return o.obs.state.need[k]; });
      })
      .def_property_readonly("scores", [](const PyObservation& o) -> py::object {
        return tuple_of(o.rules->score_count(), [&](int i) { return o.obs.state.scores[i]; });
      })
      .def("__str__", [](const PyObservation& o) { return o.text; })
      .def("__repr__", [](const PyObservation& o) { return "<Observation " + o.text + ">"; });
  value_class<const PyObservation&>(
      bound_class<PyObservation>(m, "Observation"),
      [](const PyObservation& a, const PyObservation& b) { return a.text == b.text; },
      [](const PyObservation& o) { return py::hash(py::str(o.text)); },
      [](const PyObservation& o) { return o; },
      [](const PyObservation& o) -> py::object {
        // No hidden card is pickled: a game dealt from the observation alone (determinize with
        // seed 0) stands for it, and restoring checks it observes to the same string.
        const GameState stand_in = determinize(o.obs, *o.rules, 0);
        return reduce_with("observation_of_stand_in", "Game", state_string(stand_in, *o.rules),
                           static_cast<int>(o.obs.player), o.text);
      });

  // A StateError of the engine (a policy loop that cannot go on) is an InvalidStateError.
  py::register_exception_translator([](std::exception_ptr e) {
    try {
      if (e) std::rethrow_exception(e);
    } catch (const StateError& error) {
      static PyObject* const type =
          py::object(py::module_::import("burraco._errors").attr("InvalidStateError")).release().ptr();
      PyErr_SetString(type, error.what());
    }
  });
  m.attr("MAX_HAND_MOVES") = kMaxHandMoves;
  m.def(
      "_set_move_cap",
      [](py::handle cap) {
        long long v = -1;
        if (!small_int(cap, v) || v < 1 || v > kMaxHandMoves)
          notation_error("_set_move_cap: " + quote(cap) + ": expected an int from 1 to MAX_HAND_MOVES");
        return g_move_cap.exchange(static_cast<int>(v));
      }, py::arg("cap"));
  m.def("playouts",
        [](py::handle rules_obj, py::handle n, py::handle seed, py::handle policy, py::handle threads) -> py::object {
          const RulesPtr rules = rules_from(rules_obj);
          if (const std::string why = playable_refusal(*rules); !why.empty())
            notation_error(why);
          long long count = -1, thread_count = 0;
          if (!small_int(n, count) || count < 0 || count > 1000000000LL)
            notation_error("playouts: n " + quote(n) + ": expected an int from 0 to 10**9");
          if (!small_int(threads, thread_count) || thread_count < 1 || thread_count > 64)
            notation_error("playouts: threads " + quote(threads) + ": expected an int from 1 to 64");
          const std::uint64_t seed_value = seed_arg(seed);
          const PyPolicy p = policy_arg(policy);
          const auto size = static_cast<py::ssize_t>(count);
          const py::ssize_t columns = rules->score_count();  // a column per side
          py::array_t<std::uint64_t> seeds(size);
          py::array_t<std::int32_t> scores({size, columns}), moves(size);
          py::array_t<std::uint8_t> reasons(size);
          auto seed_out = seeds.mutable_unchecked<1>();
          auto score_out = scores.mutable_unchecked<2>();
          auto move_out = moves.mutable_unchecked<1>();
          auto reason_out = reasons.mutable_unchecked<1>();
          run_loop(true, "playouts: ", [&] {
            const auto total = static_cast<std::size_t>(count);
            play_hands(*rules, seed_value, p.policy, total, static_cast<int>(thread_count),
                       [&](std::size_t i, const PlayoutRow& row) {
                         const auto r = static_cast<py::ssize_t>(i);
                         seed_out(r) = row.seed;
                         for (py::ssize_t c = 0; c < columns; ++c) score_out(r, c) = row.scores[c];
                         move_out(r) = row.moves;
                         reason_out(r) = row.end_reason;
                       });
          });
          py::dict out;
          out["seed"] = seeds;
          out["scores"] = scores;
          out["moves"] = moves;
          out["end_reason"] = reasons;
          return out;
        }, py::arg("rules"), py::arg("n"), py::kw_only(), py::arg("seed") = 0,
        py::arg("policy") = "random", py::arg("threads") = 1);
  m.attr("END_REASONS") = py::make_tuple("closed", "stock_exhausted", "deadlock");

  bound_class<PyIsmcts>(m, "ISMCTS")
      .def(py::init([](py::handle iterations, py::handle seed, py::handle exploration, py::handle policy,
                       py::handle max_rollout_moves, py::handle reward, py::handle margin_scale,
                       py::handle evaluation, py::handle opponents, py::handle time_limit,
                       py::handle threads, py::handle keep_tree, py::handle equity_sigma, py::handle equity_points) {
             IsmctsParams params;
             set_option(params, "time_limit", time_limit);
             set_option(params, "iterations", iterations);
             params.seed = seed_arg(seed);
             set_option(params, "exploration", exploration);
             // None: by the number of players (greedy with two, random with more), decided at
             // each choose().
             PyPolicy rollout = policy_arg(policy.is_none() ? py::handle(py::str("greedy")) : policy);
             params.policy = rollout.policy;
             params.policy_by_players = policy.is_none();
             set_option(params, "max_rollout_moves", max_rollout_moves);
             set_option(params, "reward", reward, true);
             set_option(params, "margin_scale", margin_scale);
             set_option(params, "equity_sigma", equity_sigma);
             set_option(params, "equity_points", equity_points);
             set_option(params, "evaluation", evaluation, true);
             set_option(params, "opponents", opponents, true);
             set_option(params, "threads", threads);
             set_option(params, "keep_tree", keep_tree);
             return PyIsmcts{Ismcts(params), std::move(rollout)};
           }),
           py::kw_only(), py::arg("iterations") = 1000, py::arg("seed") = 0,
           py::arg("exploration") = 0.7, py::arg("policy") = py::none(),
           py::arg("max_rollout_moves") = py::none(), py::arg("reward") = "margin",
           py::arg("margin_scale") = 300.0, py::arg("evaluation") = "score",
           py::arg("opponents") = "heuristic", py::arg("time_limit") = py::none(),
           py::arg("threads") = 1, py::arg("keep_tree") = false,
           py::arg("equity_sigma") = IsmctsParams{}.equity_sigma,
           py::arg("equity_points") = IsmctsParams{}.equity_points)
      .def("choose",
           [](PyIsmcts& self, PyGame& g) {
             return PyMove{search_position(self, g, "choose", nullptr)};
           }, py::arg("game"))
      .def_property_readonly("seed", [](const PyIsmcts& self) { return self.search.params().seed; })
      .def_property_readonly("policy", [](const PyIsmcts& self) -> py::object {
        if (self.search.params().policy_by_players) return py::object(py::none());
        return py::object(policy_object(self.rollout));
      })
      .def("match_equity",
           [](const PyIsmcts& self, py::handle rules_obj, py::handle before, py::handle hand) -> py::object {
             const RulesPtr rules = rules_from(rules_obj);
             if (const std::string why = match_equity_refusal(*rules); !why.empty())
               raise("BurracoError", why);
             auto pair = [](py::handle value, const char* name) {
               const std::string wanted = std::string("ISMCTS.match_equity: ") + name + " " + quote(value) +
                                          ": expected two finite numbers, side 0's then side 1's";
               if (!py::isinstance<py::sequence>(value) || py::isinstance<py::str>(value) || py::len(value) != 2)
                 raise("BurracoError", wanted);
               std::array<double, 2> out{};
               const py::sequence seq = py::reinterpret_borrow<py::sequence>(value);
               for (std::size_t k = 0; k < 2; ++k) {
                 const OptionValue x = option_value(py::object(seq[k]));
                 if (x.boolean || !x.real || !std::isfinite(x.number))
                   raise("BurracoError", wanted);
                 out[k] = x.number;
               }
               return out;
             };
             const IsmctsParams& p = self.search.params();
             const double p0 = match_equity(*rules, pair(before, "before"), pair(hand, "hand"),
                                            p.equity_sigma, p.equity_points);
             return py::object(py::make_tuple(p0, 1.0 - p0));
           }, py::arg("rules"), py::arg("before"), py::arg("hand"))
      .def_property_readonly(
          "nodes", [](const PyIsmcts& self) { return with_search(self, [&] { return self.search.nodes(); }); })
      .def_property_readonly(
          "last_iterations",
          [](const PyIsmcts& self) { return with_search(self, [&] { return self.search.iterations(); }); })
      .def("root_stats",
           [](const PyIsmcts& self) {
             py::list out;
             auto children = with_search(self, [&] { return self.search.root_children(); });
             for (const IsmctsChild& c : children)
               out.append(py::make_tuple(PyMove{c.move}, c.visits, c.availability, c.reward));
             return out;
           })
      .def("hint",
           [](PyIsmcts& self, PyGame& g) {
             std::vector<IsmctsChild> children;
             const Move chosen = search_position(self, g, "hint", &children);
             py::list out;
             for (const IsmctsChild& c : ismcts_hints(std::move(children), chosen))
               out.append(py::make_tuple(PyMove{c.move}, c.visits, c.visits ? c.reward / c.visits : 0.0));
             return py::object(std::move(out));
           }, py::arg("game"))
      .def("__repr__", [](const PyIsmcts& self) {
        return ismcts_repr(self.search.params(), policy_repr(self.rollout));
      });
  // The other options' read-only properties, read back by the core (ismcts_options.hpp).
  auto ismcts = bound_class<PyIsmcts>(m, "ISMCTS");
  for (const std::string_view name : kIsmctsOptions)
    if (name != "seed" && name != "policy")  // NUL-terminated: string literals
      ismcts.def_property_readonly(name.data(), [name](const PyIsmcts& self) {
        return python_value(ismcts_option(self.search.params(), name));
      });


  m.def("perft",
        [](const PyGame& g, py::handle depth) {
          long long dv = -1;
          if (!small_int(depth, dv) || dv < 0 || dv > 64)
            notation_error("perft depth " + quote(depth) + ": expected an integer 0..64");
          const GameState state = g.state;  // another thread may push once the GIL is released
          const RulesPtr rules = g.rules;
          py::gil_scoped_release release;
          return perft(state, *rules, static_cast<int>(dv));
        }, py::arg("game"), py::arg("depth"));
  // For the benches (tools/bench_table.py): legal-move generation timed without Python per call.
  m.def(
      "_legal_moves_repeat",
      [](const PyGame& g, py::handle calls) {
        long long n = -1;
        if (!small_int(calls, n) || n < 0 || n > 1000000000)
          notation_error("_legal_moves_repeat: calls " + quote(calls) + ": expected an int 0..10**9");
        const GameState state = g.state;  // the game may change once the GIL is released
        const RulesPtr rules = g.rules;
        py::gil_scoped_release release;
        return legal_moves_repeat(state, *rules, static_cast<std::uint64_t>(n));
      }, py::arg("game"), py::arg("calls"));
}


}  // namespace burraco_binding
