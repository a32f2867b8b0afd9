// The pieces of burraco._core shared by the binding's files (cpp/bindings/*.cpp): the Python
// objects that wrap the engine's values, the argument types signatures show, error translation and
// the argument conversions every file uses. Only the binding includes pybind11.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "burraco/card.hpp"
#include "burraco/cardset.hpp"
#include "burraco/game.hpp"
#include "burraco/game_text.hpp"
#include "burraco/history.hpp"
#include "burraco/ismcts.hpp"
#include "burraco/meld.hpp"
#include "burraco/rules.hpp"
#include "burraco/observation.hpp"
#include "burraco/policies.hpp"
#include "burraco/block_cache.hpp"

namespace py = pybind11;

// ---- uninitialized objects ----------------------------------------------------------------------
// `T.__new__(T)` makes a pybind11 instance whose C++ value was never constructed, and pybind11's
// caster would hand a method freshly allocated, unconstructed memory. Every bound class therefore
// gets a caster that first checks its argument was initialized, and raises TypeError naming the
// type otherwise (a check of two flags; the argument is converted before anything is read).

namespace burraco_binding {

// TypeError: `obj` (an instance of a bound class) was never initialized.
[[noreturn]] inline void uninitialized(PyObject* obj) {
  throw py::type_error(std::string(Py_TYPE(obj)->tp_name) +
                       " object is not initialized (made by __new__ without __init__): "
                       "construct it by calling the class");
}

// Whether the instance `obj` of the bound type `info` holds a constructed value.
inline bool initialized(PyObject* obj, const py::detail::type_info* info) {
  auto* inst = reinterpret_cast<py::detail::instance*>(obj);
  const auto v_h = inst->get_value_and_holder(info, false);
  // Owned instances (every one made by __init__ or returned by value) construct their holder;
  // a non-owning reference has a value pointer and no holder.
  return v_h && v_h.value_ptr() && (v_h.holder_constructed() || !inst->owned);
}

template <class T>
void require_initialized(py::handle src) {
  static const py::detail::type_info* cached = nullptr;
  const py::detail::type_info* info = cached;
  if (!info) {
    info = py::detail::get_type_info(typeid(T));
    if (!info) return;  // not bound yet: nothing can be an instance
    cached = info;
  }
  if (PyObject_TypeCheck(src.ptr(), info->type) && !initialized(src.ptr(), info))
    uninitialized(src.ptr());
}

template <class T>
struct checked_caster : py::detail::type_caster_base<T> {
  bool load(py::handle src, bool convert) {
    if (src) require_initialized<T>(src);
    return py::detail::type_caster_base<T>::load(src, convert);
  }
};

}  // namespace burraco_binding

#define BURRACO_CHECKED_CASTER(T)                                                             \
  namespace pybind11::detail {                                                                \
  template <>                                                                                 \
  struct type_caster<T> : burraco_binding::checked_caster<T> {};                              \
  }

BURRACO_CHECKED_CASTER(burraco::Card)
BURRACO_CHECKED_CASTER(burraco::CardSet)
BURRACO_CHECKED_CASTER(burraco::Rules)

// ---- arguments and results ----------------------------------------------------------------------
// Most arguments are taken as any object (py::handle) and converted by the binding itself, so that
// a wrong one raises the engine's error quoting it (InvalidNotationError, IllegalMoveError) rather
// than pybind11's TypeError. Their types are written once, in the stub (src/burraco/_core.pyi):
// pybind11's signature lines are turned off, and each docstring starts with the stub's signature
// (cpp/bindings/docstrings.py).

namespace burraco_binding {

using namespace burraco;

// ---- errors (cards.cpp) -------------------------------------------------------------------------

// Raises the exception class `type` of burraco._errors with `message`.
[[noreturn]] void raise(const char* type, const std::string& message);
[[noreturn]] void notation_error(const std::string& message);
[[noreturn]] void illegal(const std::string& message);
[[noreturn]] void state_error(const std::string& message);
// repr(obj), for quoting an input in a message; ascii(obj) if the repr is not valid text, and the
// type's name alone if the object's __repr__ raises (a message never fails to be made).
std::string quote(py::handle obj);
// The UTF-8 bytes of a str (anything else as pybind11 casts it to std::string): a str holding a lone
// surrogate ('\udc80', which no UTF-8 can hold) raises InvalidNotationError quoting it, where the
// plain cast would raise a RuntimeError. Every str a caller passes is read through this.
std::string text_arg(py::handle obj);
// The name of obj's type ("?" if it is not valid text).
std::string type_name_of(py::handle obj);
// burraco._core.<name> (the pickle restorers and classes __reduce__ names).
py::object core_attr(const char* name);
// A function of the package (burraco.<module>.<name>), imported when first called (game.cpp).
py::object package_function(const char* module, const char* name);
// What __reduce__ returns for a value burraco._pickle's `function` rebuilds: the function, and
// the arguments the bound class `cls` (by name) then `args`.
template <class... A>
py::tuple reduce_with(const char* function, const char* cls, A&&... args) {
  return py::make_tuple(package_function("burraco._pickle", function),
                        py::make_tuple(core_attr(cls), std::forward<A>(args)...));
}

// ---- integers -----------------------------------------------------------------------------------
// Inline: the Python step path (push_index) reads its argument with index_int.

inline bool is_int(py::handle v) { return py::isinstance<py::int_>(v) && !py::isinstance<py::bool_>(v); }

// An int (not a bool) that fits a long long; false for anything else, huge ints included.
inline bool small_int(py::handle v, long long& out) {
  if (!is_int(v)) return false;
  int overflow = 0;
  out = PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
  if (overflow != 0 || (out == -1 && PyErr_Occurred())) {
    PyErr_Clear();
    return false;
  }
  return true;
}

// An index: an int or an object with __index__ (NumPy integers), not a bool, fitting a long long.
inline bool index_int(py::handle v, long long& out) {
  if (py::isinstance<py::bool_>(v) || !PyIndex_Check(v.ptr())) return false;
  py::object as_int = py::reinterpret_steal<py::object>(PyNumber_Index(v.ptr()));
  if (!as_int) {
    PyErr_Clear();
    return false;
  }
  return small_int(as_int, out);
}

// An int (not a bool) in [0, 2**64), a seed's range; false for anything else.
inline bool u64_int(py::handle v, std::uint64_t& out) {
  if (!is_int(v)) return false;
  out = PyLong_AsUnsignedLongLong(v.ptr());  // raises if < 0 or too big
  if (out == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
    PyErr_Clear();
    return false;
  }
  return true;
}

// The integer argument `v` if it is an int (not a bool; with `index`, anything with __index__,
// as index_int) in [lo, hi]; else calls `refuse()`, which raises quoting `v`. The one check of
// the integer arguments that have a range.
template <class Refuse>
long long int_in(py::handle v, long long lo, long long hi, Refuse&& refuse, bool index = false) {
  long long x = 0;
  if (!(index ? index_int(v, x) : small_int(v, x)) || x < lo || x > hi) refuse();
  return x;
}

// A seed argument: an int in [0, 2**64); anything else raises InvalidNotationError quoting it.
std::uint64_t seed_arg(py::handle seed);

// ---- values -------------------------------------------------------------------------------------

// `value` as an int if `has`, else None (a property of type `int | None`).
template <class T>
py::object int_or_none(bool has, T value) {
  return has ? py::object(py::int_(value)) : py::object(py::none());
}

// The tuple (f(0), ..., f(n - 1)): Python objects, or values converted as returned ones are.
template <class F>
py::tuple tuple_of(int n, F&& f) {
  py::tuple out(n);
  for (int i = 0; i < n; ++i) out[static_cast<std::size_t>(i)] = f(i);
  return out;
}

// __eq__ and __ne__ of the bound class T by `same(a, b)`; another class answers for itself
// (NotImplemented: burraco.reference's values compare equal to the core's that print the same).
template <class T, class... Options, class Same>
py::class_<T, Options...>& def_equality(py::class_<T, Options...>& cls, Same same) {
  for (const bool want : {true, false})
    cls.def(want ? "__eq__" : "__ne__", [same, want](const T& a, py::handle b) -> py::object {
      if (!py::isinstance<T>(b)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
      return py::bool_(same(a, b.cast<const T&>()) == want);
    });
  return cls;
}

// __copy__ and __deepcopy__ of the bound class T: a new object holding a copy of the value, made
// by `copy(self)` (Self: const T&, or py::handle when the instance dict holds part of the value).
template <class Self = void, class T, class... Options, class Copy>
py::class_<T, Options...>& def_copies(py::class_<T, Options...>& cls, Copy copy) {
  using Arg = std::conditional_t<std::is_void_v<Self>, const T&, Self>;
  cls.def("__copy__", [copy](Arg self) { return copy(self); });
  cls.def("__deepcopy__", [copy](Arg self, py::handle) { return copy(self); });
  return cls;
}
template <class T, class... Options>
py::class_<T, Options...>& def_copies(py::class_<T, Options...>& cls) {
  return def_copies(cls, [](const T& v) { return std::make_unique<T>(v); });
}

// ---- policies (policy.cpp) ----------------------------------------------------------------------

// A burraco.Policy (docs/native.md): a built-in policy, a native one (a capsule of
// burraco/policy.h) or a Python callable. Immutable; the hook and what keeps it alive are shared.
struct PyPolicy {
  Policy policy;                           // what the loops take
  std::shared_ptr<const PolicyHook> hook;  // null for the built-ins
  py::object source;                       // the capsule or the callable (None for the built-ins)
  std::string spec;                        // 'random', 'greedy', 'module:attribute', or ""
  const char* kind = "builtin";            // 'builtin', 'native' or 'python'
};
// A policy argument: a built-in name, a Policy, a policy capsule or a Python callable (a string
// never imports anything: Policy('module:attribute') does). Raises InvalidNotationError quoting
// anything else, PolicyError for a native policy of another interface version.
PyPolicy policy_arg(py::handle policy);
// What a repr shows for the policy: 'greedy', or Policy('module:attribute'), or Policy(<source>).
std::string policy_repr(const PyPolicy& policy);
// The Python object a `policy` property returns.
py::object policy_object(const PyPolicy& policy);
// Raises the Python error of a policy loop that stopped with the exception `e` (the GIL held):
// StateError as InvalidStateError, PolicyError as burraco.PolicyError (from the exception a
// Python policy raised, if any), each message `prefix` + the error's + `suffix`; any other
// exception unchanged.
[[noreturn]] void raise_loop_failure(std::exception_ptr e, const std::string& prefix,
                                     const std::string& suffix = "");

// ---- cards (cards.cpp) --------------------------------------------------------------------------

Card card_from(py::handle obj);
// A card list read with the copies of a pack of `decks` decks (2 or 3); a Cards as it is.
CardSet cards_from(py::handle obj, int decks = 2);
// A Cards object of `set` whose pack is `decks` decks: what a game, an observation or a meld of a
// three-deck pack returns (its `decks` is 3 whatever cards it holds, as the reference's).
py::object cards_object(CardSet set, int decks);

// ---- rules (rules.cpp) --------------------------------------------------------------------------

// Rules are shared, never copied, by the melds made under them (Python objects are immutable).
using RulesPtr = std::shared_ptr<const Rules>;

// A knob's value (or a search option's, ismcts_option) as the Python object it stands for.
py::object python_value(const KnobValue& v);

const RulesPtr& italian_rules();
// Rules or None (the Italian rules); anything else raises InvalidNotationError.
RulesPtr rules_from(py::handle obj);
inline bool same_rules(const RulesPtr& a, const RulesPtr& b) { return a == b || *a == *b; }

struct PyMeld {
  Meld meld;
  RulesPtr rules;
};

struct PyMelds {
  SideMelds side;
  RulesPtr rules;
};


}  // namespace burraco_binding
BURRACO_CHECKED_CASTER(burraco_binding::PyMeld)
BURRACO_CHECKED_CASTER(burraco_binding::PyMelds)
namespace burraco_binding {

// ---- melds (melds.cpp) --------------------------------------------------------------------------

// A meld of those rules from a layout string ('Jk(=4d) 5d 6d'), or raises quoting the text.
PyMeld meld_from_layout(py::handle text, const RulesPtr& rules);

// ---- game (game.cpp) ----------------------------------------------------------------------------

struct PyMove {
  Move move;
};

// game.legal_moves(): the moves of one position, shared (immutable) with the game's cache; Move
// objects are made only for the entries asked for.
struct PyMoveList {
  std::shared_ptr<const std::vector<Move>> moves;
};


}  // namespace burraco_binding
BURRACO_CHECKED_CASTER(burraco_binding::PyMove)
BURRACO_CHECKED_CASTER(burraco_binding::PyMoveList)
namespace burraco_binding {


// A Python Game: the core's Game (burraco/history.hpp: the position, the rules, the history)
// and a cache of the position's legal moves for the MoveLists handed out. The Game is a private
// base, so that every change goes through the members below, which forget the cache.
struct PyGame : private Game {
  using Game::move_count;
  using Game::moves;
  using Game::rules;
  using Game::start;
  using Game::state;

  // The legal moves of `state`, shared with the MoveLists handed out; null when not computed.
  std::shared_ptr<const std::vector<Move>> legal;
  // A Python loop asks for a new list every move. Two things are recycled while nobody else
  // holds them: the vector of the last list (`spare`, refilled for the next position) and the
  // last MoveList object handed out (`list_object`, a strong reference; pointed at the new
  // vector when Python holds no other reference to it). Neither is shared by copies.
  std::shared_ptr<std::vector<Move>> spare;
  PyObject* list_object = nullptr;

  PyGame() = default;
  PyGame(const GameState& s, RulesPtr r) : Game(s, std::move(r)) {}
  PyGame(const PyGame& other) : Game(other), legal(other.legal) {}
  PyGame(PyGame&& other) noexcept
      : Game(std::move(other)), legal(std::move(other.legal)), spare(std::move(other.spare)),
        list_object(std::exchange(other.list_object, nullptr)) {}
  PyGame& operator=(const PyGame&) = delete;
  ~PyGame() { Py_XDECREF(list_object); }  // games are created and destroyed with the GIL held

  const Game& game() const { return *this; }

  // Games are made and dropped by the thousand (copy() in a search written in Python), always
  // under the GIL: their blocks go through one cache of blocks of this size (block_cache.hpp).
  static void* operator new(std::size_t size) {
    using Blocks = BlockCache<sizeof(PyGame), 64, CacheScope::Process>;
    return size == sizeof(PyGame) ? Blocks::allocate() : ::operator new(size);
  }
  static void operator delete(void* p, std::size_t size) noexcept {
    using Blocks = BlockCache<sizeof(PyGame), 64, CacheScope::Process>;
    if (size == sizeof(PyGame)) return Blocks::release(p);
    ::operator delete(p, size);
  }

  const std::shared_ptr<const std::vector<Move>>& legal_list() {
    if (!legal) {
      std::shared_ptr<std::vector<Move>> list = std::move(spare);
      if (!list) {
        list = std::make_shared<std::vector<Move>>();
        list->reserve(64);
      }
      legal_moves(state, *rules, *list);
      legal = std::move(list);
    }
    return legal;
  }

  // The state changed: forget its legal moves, keeping the vector if nothing else holds it.
  void forget_legal();

  // The changes of Game, each forgetting the legal moves.
  MoveResult push(const Move& m) {
    const MoveResult r = Game::push(m);
    if (r.ok()) forget_legal();
    return r;
  }
  void record(const GameState& before, const Move& m) {
    forget_legal();
    Game::record(before, m);
  }
  Move pop() {
    forget_legal();
    return Game::pop();
  }
  bool push_lay_offs(std::uint32_t index, std::vector<Card> cards) {
    forget_legal();
    return Game::push_lay_offs(index, std::move(cards));
  }
  void truncate(std::size_t count, const GameState& s) {
    forget_legal();
    Game::truncate(count, s);
  }
};

// The vector a MoveList that only the game holds points to while it waits to be reused.
inline const std::shared_ptr<const std::vector<Move>>& no_moves() {
  static const auto empty = std::make_shared<const std::vector<Move>>();
  return empty;
}

inline void PyGame::forget_legal() {
  if (!legal) return;
  if (list_object && Py_REFCNT(list_object) == 1) {
    // Only the game holds its last MoveList: let go of the vector so it can be refilled.
    auto v_h = reinterpret_cast<py::detail::instance*>(list_object)->get_value_and_holder();
    static_cast<PyMoveList*>(v_h.value_ptr())->moves = no_moves();
  }
  if (legal.use_count() == 1) spare = std::const_pointer_cast<std::vector<Move>>(std::move(legal));
  legal.reset();
}


// A Move, or a move's notation read with the copies of a pack of `decks` decks (a game's own).
Move move_from(py::handle obj, int decks = 2);
// The names of burraco/game_text.hpp as str (None for EndReason::None).
py::object phase_name(Phase p);
py::object end_reason_name(EndReason e);
// A seat of the game (0..players-1), else InvalidNotationError.
int seat_arg(const PyGame& g, py::handle seat);
// Plays a move, raising IllegalMoveError (nothing changed) if it is illegal (inline: push(move)
// of the fast paths).
inline void push_one(PyGame& g, const Move& m) {
  const MoveResult r = g.push(m);
  if (!r.ok()) illegal(illegal_move_text(m, r));
}
std::unique_ptr<PyGame> game_from_state_string(py::handle text);
// A pozzetto as (status, owner or None, cards) for Game.pozzetti.
py::tuple packet_view(const Packet& p, int decks);
// Binds Game's search methods (search.cpp) on the class bound in game.cpp.
void bind_game_search(py::class_<PyGame>& game);

// ---- search (search.cpp) ------------------------------------------------------------------------

struct PyIsmcts {
  Ismcts search;
  PyPolicy rollout;  // the rollout policy, kept alive with its hook
  // One call at a time: choose() holds it for the whole search (without the GIL), and the
  // statistics readers take it too (releasing the GIL while they wait), so a reader sees the
  // tree of a finished search, never one being built (docs/search.md "Threads").
  std::shared_ptr<std::mutex> busy = std::make_shared<std::mutex>();
};
struct PyObservation {
  Observation obs;
  RulesPtr rules;
  std::string text;
};

}  // namespace burraco_binding
BURRACO_CHECKED_CASTER(burraco_binding::PyGame)
BURRACO_CHECKED_CASTER(burraco_binding::PyIsmcts)
BURRACO_CHECKED_CASTER(burraco_binding::PyObservation)
BURRACO_CHECKED_CASTER(burraco_binding::PyPolicy)
namespace burraco_binding {

// ---- the parts of the module --------------------------------------------------------------------

// The class objects bound in module.cpp before any method, so that every signature names the
// Python classes; each part adds its methods to them.
template <class... T>
py::class_<T...> bound_class(py::module_& m, const char* name) {
  return py::reinterpret_borrow<py::class_<T...>>(m.attr(name));
}

void bind_cards(py::module_& m);     // cards.cpp: Card, Cards
void bind_rules(py::module_& m);     // rules.cpp: Rules
void bind_melds(py::module_& m);     // melds.cpp: Meld, Melds
void bind_game(py::module_& m);      // game.cpp: Move, MoveList, Game
void bind_search(py::module_& m);    // search.cpp: Observation, ISMCTS, playouts, perft
void bind_policy(py::module_& m);
void bind_arena(py::module_& m);     // arena.cpp: duplicate pairs of bots (burraco.arena)    // policy.cpp: Policy, get_include's header check
void install_fast_paths(py::module_& m);  // fast_paths.cpp
void guard_construction(py::module_& m);  // fast_paths.cpp

}  // namespace burraco_binding


// ---- immutable values (cards.cpp, melds.cpp) ----------------------------------------------------
namespace burraco_binding {

// The protocol of an immutable value class T: equality by `same` (def_equality), __hash__, copies
// by `copy` (def_copies) and __reduce__. `hash`, `copy` and `reduce` take the instance as Self:
// const T&, or py::handle when its dict holds part of the value.
template <class Self, class T, class... Options, class Same, class Hash, class Copy, class Reduce>
py::class_<T, Options...> value_class(py::class_<T, Options...> cls, Same same, Hash hash,
                                      Copy copy, Reduce reduce) {
  def_copies<Self>(def_equality(cls, same), copy)
      .def("__hash__", [hash](Self self) { return hash(self); })
      .def("__reduce__", [reduce](Self self) -> py::object { return reduce(self); });
  return cls;
}

// A str, or None for an empty text (a property that a value of some kinds does not have).
inline py::object optional_str(std::string_view s) {
  return s.empty() ? py::object(py::none()) : py::object(py::str(std::string(s)));
}

}  // namespace burraco_binding
