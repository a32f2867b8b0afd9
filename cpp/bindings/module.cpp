// burraco._core — the Python binding of the C++ engine. The only file that includes pybind11.
// Thin: conversions, docstrings, and turning the engine's error codes into the exceptions of
// burraco._errors, each message quoting the input.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <exception>
#include <mutex>
#include <thread>

#include "burraco/card.hpp"
#include "burraco/cardset.hpp"
#include "burraco/meld.hpp"
#include "burraco/rules.hpp"
#include "burraco/game.hpp"
#include "burraco/rng.hpp"
#include "burraco/ismcts.hpp"
#include "burraco/search.hpp"
#include "burraco/validate.hpp"

namespace py = pybind11;
using namespace burraco;

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
BURRACO_CHECKED_CASTER(burraco::SideResult)

namespace {

// ---- errors ---------------------------------------------------------------------------------

py::object& error_type(const char* name) {
  // Looked up once; the module keeps the classes alive.
  static py::object notation, meld, move, base;
  py::object* slot = std::string_view(name) == "InvalidNotationError" ? &notation
                     : std::string_view(name) == "InvalidMeldError"   ? &meld
                     : std::string_view(name) == "BurracoError"       ? &base
                                                                      : &move;
  if (!*slot) *slot = py::module_::import("burraco._errors").attr(name);
  return *slot;
}

[[noreturn]] void raise(const char* type, const std::string& message) {
  py::set_error(error_type(type), message.c_str());
  throw py::error_already_set();
}
[[noreturn]] void notation_error(const std::string& message) {
  raise("InvalidNotationError", message);
}

std::string quote(py::handle obj) { return py::repr(obj).cast<std::string>(); }

// ---- cards ----------------------------------------------------------------------------------

constexpr const char* kCardHelp = "a card is a rank (A 2-9 T J Q K) and a suit (c d h s), or Jk";

Card card_from(py::handle obj) {
  if (py::isinstance<Card>(obj)) return obj.cast<Card>();
  if (!py::isinstance<py::str>(obj))
    notation_error("expected a card such as 'Qh' or 'Jk', got " + quote(obj));
  const auto card = parse_card(obj.cast<std::string>());
  if (!card) notation_error(quote(obj) + " is not a card: " + kCardHelp);
  return *card;
}

std::string copies_message(py::handle input, Card card) {
  const int limit = card.is_joker() ? kMaxJokers : kMaxSuitedCopies;
  return quote(input) + ": more than " + std::to_string(limit) + " copies of " + card_name(card) +
         " (two decks hold " + std::to_string(limit) + ")";
}

CardSet cards_from(py::handle obj) {
  if (py::isinstance<CardSet>(obj)) return obj.cast<CardSet>();
  CardSet set;
  if (py::isinstance<py::str>(obj)) {
    const std::string text = obj.cast<std::string>();
    for (std::string_view word : split_words(text)) {
      const auto card = parse_card(word);
      if (!card)
        notation_error(quote(obj) + ": " + quote(py::str(std::string(word))) +
                       " is not a card (" + kCardHelp + ")");
      if (!set.add(*card)) notation_error(copies_message(obj, *card));
    }
    return set;
  }
  if (obj.is_none() || py::isinstance<py::bytes>(obj) || !py::hasattr(obj, "__iter__"))
    notation_error("expected cards as a string such as '5h 6h 7h' or an iterable of cards, got " +
                   quote(obj));
  for (py::handle item : obj) {
    const Card card = card_from(item);
    if (!set.add(card)) notation_error(copies_message(obj, card));
  }
  return set;
}

std::string cards_text(CardSet set) {
  std::string out;
  set.for_each([&](Card c) {
    if (!out.empty()) out += ' ';
    out += card_name(c);
  });
  return out;
}

py::list cards_list(CardSet set) {
  py::list out;
  set.for_each([&](Card c) { out.append(py::cast(c)); });
  return out;
}

// ---- rules ----------------------------------------------------------------------------------

std::string rank_letters(std::uint16_t mask) {
  std::string out;
  for (int r = 1; r <= 13; ++r)
    if (mask & (1u << r)) out += rank_char(r);
  return out;
}

py::object knob_value(const Rules& rules, const KnobInfo& k) {
  const void* p = k.get(rules);
  switch (k.type) {
    case KnobType::Bool: return py::bool_(*static_cast<const bool*>(p));
    case KnobType::Int: return py::int_(*static_cast<const std::int32_t*>(p));
    case KnobType::OptInt: {
      const std::int32_t v = *static_cast<const std::int32_t*>(p);
      return v == kNone ? py::object(py::none()) : py::object(py::int_(v));
    }
    case KnobType::Float: return py::float_(*static_cast<const double*>(p));
    case KnobType::Choice:
      return py::str(std::string(k.choices[*static_cast<const std::uint8_t*>(p)]));
    case KnobType::Ranks: return py::str(rank_letters(*static_cast<const std::uint16_t*>(p)));
    case KnobType::IntPair: {
      const auto& a = *static_cast<const std::array<std::int32_t, 2>*>(p);
      return py::make_tuple(a[0], a[1]);
    }
    case KnobType::Opening: {
      if (rules.opening_steps == 0) return py::none();
      py::list steps;
      for (int i = 0; i < rules.opening_steps; ++i)
        steps.append(py::make_tuple(rules.opening_minimum[i].from_score,
                                    rules.opening_minimum[i].minimum));
      return py::tuple(steps);
    }
  }
  return py::none();
}

bool is_int(py::handle v) { return py::isinstance<py::int_>(v) && !py::isinstance<py::bool_>(v); }

// An int (not a bool) that fits a long long; false for anything else, huge ints included.
bool small_int(py::handle v, long long& out) {
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
bool index_int(py::handle v, long long& out) {
  if (py::isinstance<py::bool_>(v) || !PyIndex_Check(v.ptr())) return false;
  py::object as_int = py::reinterpret_steal<py::object>(PyNumber_Index(v.ptr()));
  if (!as_int) {
    PyErr_Clear();
    return false;
  }
  return small_int(as_int, out);
}

[[noreturn]] void knob_error(const KnobInfo& k, py::handle value, const std::string& expected) {
  notation_error("rules knob " + std::string(k.name) + "=" + quote(value) + ": expected " +
                 expected);
}

// A knob's bool: True or False, or a numpy.bool_.
bool knob_bool(py::handle value, bool& out) {
  if (py::isinstance<py::bool_>(value)) {
    out = value.ptr() == Py_True;
    return true;
  }
  PyObject* numpy = PyImport_GetModule(py::str("numpy").ptr());  // only if NumPy is loaded
  if (!numpy) {
    PyErr_Clear();
    return false;
  }
  py::object np = py::reinterpret_steal<py::object>(numpy);
  if (!py::hasattr(np, "bool_") || !py::isinstance(value, np.attr("bool_"))) return false;
  out = PyObject_IsTrue(value.ptr()) == 1;
  return true;
}

// A knob's float: a real number (numbers.Real: int, float, NumPy floats and ints), not a bool.
bool knob_real(py::handle value, double& out) {
  static PyObject* real = nullptr;
  if (!real) real = py::object(py::module_::import("numbers").attr("Real")).release().ptr();  // kept
  if (py::isinstance<py::bool_>(value) || PyObject_IsInstance(value.ptr(), real) != 1) {
    PyErr_Clear();
    return false;
  }
  out = PyFloat_AsDouble(value.ptr());
  if (out == -1.0 && PyErr_Occurred()) {
    PyErr_Clear();
    return false;
  }
  return true;
}

std::int32_t int_in_range(const KnobInfo& k, py::handle value, std::int32_t min, std::int32_t max) {
  const std::string expected = min == max ? "the integer " + std::to_string(min) + " (the only value supported)"
                                          : "an integer from " + std::to_string(min) + " to " + std::to_string(max);
  long long v = 0;
  if (!index_int(value, v) || v < min || v > max) knob_error(k, value, expected);
  return static_cast<std::int32_t>(v);
}

void set_knob(Rules& rules, const KnobInfo& k, py::handle value) {
  void* p = k.get(rules);
  switch (k.type) {
    case KnobType::Bool: {
      bool v = false;
      if (!knob_bool(value, v)) knob_error(k, value, "True or False");
      if (k.only >= 0 && v != (k.only == 1))
        knob_error(k, value, std::string(k.only ? "True" : "False") + " (the only value supported)");
      *static_cast<bool*>(p) = v;
      return;
    }
    case KnobType::Int: {
      if (k.name == "jokers") {
        const std::int32_t v = int_in_range(k, value, 0, 4);
        if (v % 2) knob_error(k, value, "0, 2 or 4");
        *static_cast<std::int32_t*>(p) = v;
      } else {
        *static_cast<std::int32_t*>(p) = int_in_range(k, value, k.min, k.max);
      }
      return;
    }
    case KnobType::OptInt:
      *static_cast<std::int32_t*>(p) =
          value.is_none() ? kNone : int_in_range(k, value, k.min, k.max);
      return;
    case KnobType::Float: {
      double v = 0;
      if (!knob_real(value, v) || !(v >= k.fmin && v <= k.fmax))  // NaN fails the range
        knob_error(k, value, "a number from 0.0 to 1.0");
      *static_cast<double*>(p) = v;
      return;
    }
    case KnobType::Choice: {
      std::string expected = "one of";
      for (std::size_t i = 0; i < k.choices.size(); ++i)
        expected += (i ? ", '" : " '") + std::string(k.choices[i]) + "'";
      if (!py::isinstance<py::str>(value)) knob_error(k, value, expected);
      const std::string v = value.cast<std::string>();
      for (std::size_t i = 0; i < k.choices.size(); ++i)
        if (k.choices[i] == v) {
          *static_cast<std::uint8_t*>(p) = static_cast<std::uint8_t>(i);
          return;
        }
      knob_error(k, value, expected);
    }
    case KnobType::Ranks: {
      const std::string expected = "a string of distinct set ranks from 'A3456789TJQK'";
      if (!py::isinstance<py::str>(value)) knob_error(k, value, expected);
      std::uint16_t mask = 0;
      for (char c : value.cast<std::string>()) {
        const int r = parse_rank(std::string_view(&c, 1));
        if (r == 0 || r == kTwo || (mask & (1u << r))) knob_error(k, value, expected);
        mask |= static_cast<std::uint16_t>(1u << r);
      }
      if (mask == 0) knob_error(k, value, expected);
      *static_cast<std::uint16_t*>(p) = mask;
      return;
    }
    case KnobType::IntPair: {
      const std::string expected = "a pair of integers from 1 to 30";
      if (!(py::isinstance<py::tuple>(value) || py::isinstance<py::list>(value)) ||
          py::len(value) != 2)
        knob_error(k, value, expected);
      auto& a = *static_cast<std::array<std::int32_t, 2>*>(p);
      py::sequence seq = py::reinterpret_borrow<py::sequence>(value);
      for (int i = 0; i < 2; ++i) {
        py::object item = seq[i];
        long long v = 0;
        if (!index_int(item, v) || v < k.min || v > k.max) knob_error(k, value, expected);
        a[i] = static_cast<std::int32_t>(v);
      }
      return;
    }
    case KnobType::Opening: {
      const std::string expected =
          "None or up to 4 (from_score, minimum) pairs of integers from 0 to 1000000, "
          "from_score ascending and starting at 0";
      if (value.is_none()) {
        rules.opening_steps = 0;
        rules.opening_minimum = {};
        return;
      }
      if (!(py::isinstance<py::tuple>(value) || py::isinstance<py::list>(value)))
        knob_error(k, value, expected);
      py::sequence seq = py::reinterpret_borrow<py::sequence>(value);
      const std::size_t n = py::len(seq);
      if (n == 0 || n > 4) knob_error(k, value, expected);
      std::array<OpeningStep, 4> steps{};
      for (std::size_t i = 0; i < n; ++i) {
        py::object pair = seq[i];
        if (!(py::isinstance<py::tuple>(pair) || py::isinstance<py::list>(pair)) ||
            py::len(pair) != 2)
          knob_error(k, value, expected);
        py::sequence two = py::reinterpret_borrow<py::sequence>(pair);
        py::object a = two[0], b = two[1];
        long long from = 0, minimum = 0;
        if (!index_int(a, from) || !index_int(b, minimum)) knob_error(k, value, expected);
        if (from < 0 || minimum < 0 || from > 1000000 || minimum > 1000000)
          knob_error(k, value, expected);
        if (i == 0 ? from != 0 : from <= steps[i - 1].from_score) knob_error(k, value, expected);
        steps[i] = {static_cast<std::int32_t>(from), static_cast<std::int32_t>(minimum)};
      }
      rules.opening_minimum = steps;
      rules.opening_steps = static_cast<std::int32_t>(n);
      return;
    }
  }
}

std::string rules_repr(const Rules& rules);

Rules rules_with(const Rules& base, const py::kwargs& overrides) {
  Rules rules = base;
  for (auto item : overrides) {
    const std::string name = item.first.cast<std::string>();
    const KnobInfo* k = find_knob(name);
    if (!k) notation_error("unknown rules knob " + quote(item.first) + " (see Rules().knobs())");
    set_knob(rules, *k, item.second);
  }
  if (const std::string why = check_rules(rules); !why.empty())
    notation_error(rules_repr(rules) + " is refused: " + why);
  return rules;
}

Rules make_rules(py::handle preset, const py::kwargs& overrides) {
  if (!py::isinstance<py::str>(preset))
    notation_error("expected a preset name such as 'italian', got " + quote(preset));
  const auto base = preset_rules(preset.cast<std::string>());
  if (!base)
    notation_error("unknown rules preset " + quote(preset) +
                   " (presets: italian, italian-2p, italian-3p, online-2p, brazilian)");
  return rules_with(*base, overrides);
}

std::string rules_repr(const Rules& rules) {
  std::string out = "Rules('" + std::string(preset_name(rules.preset)) + "'";
  const Rules base = *preset_rules(preset_name(rules.preset));
  for (const KnobInfo& k : knob_table()) {
    py::object a = knob_value(rules, k), b = knob_value(base, k);
    if (!a.equal(b)) out += ", " + std::string(k.name) + "=" + quote(a);
  }
  return out + ")";
}

// Rules are shared, never copied, by the melds made under them (Python objects are immutable).
using RulesPtr = std::shared_ptr<const Rules>;

const RulesPtr& italian_rules() {
  static const RulesPtr rules = std::make_shared<const Rules>(*preset_rules("italian"));
  return rules;
}

RulesPtr rules_from(py::handle obj) {
  if (obj.is_none()) return italian_rules();
  if (py::isinstance<Rules>(obj)) {
    burraco_binding::require_initialized<Rules>(obj);
    return obj.cast<std::shared_ptr<Rules>>();
  }
  notation_error("expected Rules or None, got " + quote(obj));
}

// ---- melds ----------------------------------------------------------------------------------

bool same_rules(const RulesPtr& a, const RulesPtr& b) { return a == b || *a == *b; }

struct PyMeld {
  Meld meld;
  RulesPtr rules;
};

struct PyMelds {
  SideMelds side;
  RulesPtr rules;
};

}  // namespace
BURRACO_CHECKED_CASTER(PyMeld)
BURRACO_CHECKED_CASTER(PyMelds)
namespace {

[[noreturn]] void meld_error(py::handle input, MeldError error, bool layout) {
  if (error == MeldError::BadNotation)
    notation_error(quote(input) + " cannot be read as a meld layout: " +
                   "cards written as in 'Jk(=4d) 5d 6d' or 'Kd Ks Jk(=K)'");
  raise("InvalidMeldError", quote(input) + (layout ? " is not a meld layout: " : " is not a meld: ") +
                                std::string(meld_error_text(error)));
}

PyMeld meld_from_layout(py::handle text, const RulesPtr& rules) {
  if (!py::isinstance<py::str>(text))
    notation_error("expected a meld layout string such as 'Jk(=4d) 5d 6d', got " + quote(text));
  const MeldResult r = parse_layout(text.cast<std::string>(), *rules);
  if (!r.ok()) meld_error(text, r.error, true);
  return {r.meld, rules};
}

PyMeld meld_from(py::handle cards, const RulesPtr& rules) {
  if (py::isinstance<PyMeld>(cards)) {
    PyMeld m = cards.cast<PyMeld>();
    if (!same_rules(m.rules, rules))
      notation_error(quote(cards) + " was made under other rules than " + rules_repr(*rules));
    return m;
  }
  if (py::isinstance<py::str>(cards) && cards.cast<std::string>().find("(=") != std::string::npos)
    return meld_from_layout(cards, rules);
  const MeldResult r = make_meld(cards_from(cards), *rules);
  if (!r.ok()) meld_error(cards, r.error, false);
  return {r.meld, rules};
}

std::string meld_repr_body(const PyMeld& m) {
  const MeldResult canonical = make_meld(m.meld.cards, *m.rules);
  const bool is_canonical = canonical.ok() && canonical.meld == m.meld;
  return (is_canonical ? "Meld('" : "Meld.from_layout('") + layout(m.meld) + "'";
}

std::string rules_suffix(const RulesPtr& rules) {
  return same_rules(rules, italian_rules()) ? "" : ", " + rules_repr(*rules);
}

py::list meld_cards_in_order(const Meld& meld) {
  py::list out;
  if (meld.kind == MeldKind::Set) {
    CardSet naturals = meld.cards;
    if (meld.has_wild()) naturals.remove(meld.wild);
    naturals.for_each([&](Card c) { out.append(py::cast(c)); });
    if (meld.has_wild()) out.append(py::cast(meld.wild));
  } else {
    for (int s = meld.lo; s <= meld.hi; ++s)
      out.append(py::cast(s == meld.wild_slot ? meld.wild : meld.slot_card(s)));
  }
  return out;
}

py::object optional_str(std::string_view s) {
  return s.empty() ? py::object(py::none()) : py::object(py::str(std::string(s)));
}

int melds_index(const PyMelds& m, py::handle index) {
  if (!is_int(index)) raise("IllegalMoveError", "meld index " + quote(index) + " is not an integer");
  long long i = -1;
  if (!small_int(index, i) || i < 0 || i >= m.side.count)
    raise("IllegalMoveError", "no meld " + quote(index) + ": the side has " +
                                  std::to_string(m.side.count) + " meld(s)");
  return static_cast<int>(i);
}


// ---- game -----------------------------------------------------------------------------------

struct PyMove {
  Move move;
};

// game.legal_moves(): the moves of one position, shared (immutable) with the game's cache; Move
// objects are made only for the entries asked for.
struct PyMoveList {
  std::shared_ptr<const std::vector<Move>> moves;
};

}  // namespace
BURRACO_CHECKED_CASTER(PyMove)
BURRACO_CHECKED_CASTER(PyMoveList)
namespace {

// The moves played, as a persistent stack of batches shared between copies: copy() shares the
// head batch (O(1)); a game that owns its head batch alone appends to it and pops from it in
// place, one that shares it starts a new batch (push) or clones it first (pop). Every 8th move of
// a batch also keeps the state before it: pop() restores the nearest one and replays at most 7
// moves. A move costs a vector append, not an allocation.
struct HistoryBatch {
  static constexpr std::size_t kCapacity = 512;
  std::uint32_t depth = 0;  // moves before this batch
  std::vector<Move> moves;
  std::vector<std::shared_ptr<const GameState>> before;  // before[k]: the state before moves[8k]
  std::shared_ptr<HistoryBatch> parent;
};

struct PyGame {
  static constexpr std::size_t kSnapshotEvery = 8;

  GameState state;
  RulesPtr rules;
  std::shared_ptr<HistoryBatch> head;  // the batch holding the last move, or null
  // The legal moves of `state`, shared with the MoveLists handed out; null when not computed.
  std::shared_ptr<const std::vector<Move>> legal;
  // A Python loop asks for a new list every move. Two things are recycled while nobody else
  // holds them: the vector of the last list (`spare`, refilled for the next position) and the
  // last MoveList object handed out (`list_object`, a strong reference; pointed at the new
  // vector when Python holds no other reference to it). Neither is shared by copies.
  std::shared_ptr<std::vector<Move>> spare;
  PyObject* list_object = nullptr;

  PyGame() = default;
  PyGame(const GameState& s, RulesPtr r) : state(s), rules(std::move(r)) {}
  PyGame(const PyGame& other) : state(other.state), rules(other.rules), head(other.head), legal(other.legal) {}
  PyGame(PyGame&& other) noexcept
      : state(other.state), rules(std::move(other.rules)), head(std::move(other.head)),
        legal(std::move(other.legal)), spare(std::move(other.spare)),
        list_object(std::exchange(other.list_object, nullptr)) {}
  PyGame& operator=(const PyGame&) = delete;
  ~PyGame() {
    Py_XDECREF(list_object);  // games are created and destroyed with the GIL held
    // Release a long unshared chain iteratively rather than by nested destructors.
    while (head && head.use_count() == 1) {
      std::shared_ptr<HistoryBatch> parent = std::move(head->parent);
      head = std::move(parent);
    }
  }

  std::size_t move_count() const { return head ? head->depth + head->moves.size() : 0; }

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

  // The next move goes into a new batch (the head is shared with a copy, or full).
  bool needs_batch() const {
    return !head || head.use_count() > 1 || head->moves.size() >= HistoryBatch::kCapacity;
  }
  // A snapshot is kept before the next move.
  bool next_needs_snapshot() const {
    return needs_batch() || head->moves.size() % kSnapshotEvery == 0;
  }

  // Appends `m`, played from `before` (read only when a snapshot is due).
  void record(const GameState& before, const Move& m) {
    forget_legal();
    if (needs_batch()) {
      auto batch = std::make_shared<HistoryBatch>();
      batch->depth = static_cast<std::uint32_t>(move_count());
      batch->moves.reserve(64);
      batch->parent = std::move(head);
      head = std::move(batch);
    }
    if (head->moves.size() % kSnapshotEvery == 0)
      head->before.push_back(std::make_shared<const GameState>(before));
    head->moves.push_back(m);
  }

  // Plays `m` in place if legal, recording it; on error nothing changes.
  MoveResult play(const Move& m) {
    if (next_needs_snapshot()) {
      const GameState before = state;
      const MoveResult r = apply_move(state, *rules, m);
      if (r.ok()) record(before, m);
      return r;
    }
    const MoveResult r = apply_move(state, *rules, m);
    if (r.ok()) record(state, m);  // no snapshot is due: `before` is not read
    return r;
  }

  // Undoes the last move (precondition: head) and returns it.
  Move undo() {
    forget_legal();
    if (head.use_count() > 1) head = std::make_shared<HistoryBatch>(*head);  // copy on write
    HistoryBatch& batch = *head;
    const Move last = batch.moves.back();
    batch.moves.pop_back();
    const std::size_t k = batch.moves.size();  // index of the undone move in the batch
    const std::size_t from = k / kSnapshotEvery * kSnapshotEvery;
    state = *batch.before[k / kSnapshotEvery];
    for (std::size_t i = from; i < k; ++i) apply_move(state, *rules, batch.moves[i]);
    if (k == from) batch.before.pop_back();
    if (batch.moves.empty()) {
      std::shared_ptr<HistoryBatch> parent = std::move(batch.parent);
      head = std::move(parent);
    }
    return last;
  }

  // The position the history starts from (the state before the first move).
  const GameState& start_state() const {
    const HistoryBatch* b = head.get();
    if (!b) return state;
    while (b->parent) b = b->parent.get();
    return *b->before.front();
  }

  std::vector<Move> move_list() const {
    std::vector<Move> out(move_count());
    for (const HistoryBatch* b = head.get(); b; b = b->parent.get())
      std::copy(b->moves.begin(), b->moves.end(), out.begin() + b->depth);
    return out;
  }
};

// The vector a MoveList that only the game holds points to while it waits to be reused.
const std::shared_ptr<const std::vector<Move>>& no_moves() {
  static const auto empty = std::make_shared<const std::vector<Move>>();
  return empty;
}

void PyGame::forget_legal() {
  if (!legal) return;
  if (list_object && Py_REFCNT(list_object) == 1) {
    // Only the game holds its last MoveList: let go of the vector so it can be refilled.
    auto v_h = reinterpret_cast<py::detail::instance*>(list_object)->get_value_and_holder();
    static_cast<PyMoveList*>(v_h.value_ptr())->moves = no_moves();
  }
  if (legal.use_count() == 1) spare = std::const_pointer_cast<std::vector<Move>>(std::move(legal));
  legal.reset();
}

[[noreturn]] void illegal(const std::string& message) { raise("IllegalMoveError", message); }

[[noreturn]] void state_error(const std::string& message) {
  static py::object type = py::module_::import("burraco._errors").attr("InvalidStateError");
  py::set_error(type, message.c_str());
  throw py::error_already_set();
}

Move move_from(py::handle obj) {
  if (py::isinstance<PyMove>(obj)) return obj.cast<const PyMove&>().move;
  if (!py::isinstance<py::str>(obj))
    notation_error("expected a move such as 'draw' or 'meld 5h 6h 7h', got " + quote(obj));
  Move m;
  if (!parse_move(obj.cast<std::string>(), m))
    notation_error(quote(obj) + " is not a move (draw, pile, keep, reject, meld <cards>, "
                                "add <index> <card>, discard <card>)");
  return m;
}

py::object phase_name(Phase p) {
  return py::str(p == Phase::Draw ? "draw" : p == Phase::Meld ? "meld" : "over");
}

py::object end_reason_name(EndReason e) {
  switch (e) {
    case EndReason::None: return py::none();
    case EndReason::Closed: return py::str("closed");
    case EndReason::StockExhausted: return py::str("stock_exhausted");
    case EndReason::Deadlock: return py::str("deadlock");
  }
  return py::none();
}

int seat_arg(const PyGame& g, py::handle seat) {
  long long v = -1;
  if (!small_int(seat, v) || v < 0 || v >= g.state.players)
    notation_error("no player " + quote(seat) + ": players are 0.." +
                   std::to_string(g.state.players - 1));
  return static_cast<int>(v);
}

std::array<std::int32_t, kSideSlots> scores_arg(const Rules& rules, py::handle scores) {
  std::array<std::int32_t, kSideSlots> out{};
  if (scores.is_none()) return out;
  const std::size_t n = rules.players == 3 ? 3 : 2;
  const std::string type_name = py::str(py::type::handle_of(scores).attr("__name__"));
  if (!py::isinstance<py::tuple>(scores) && !py::isinstance<py::list>(scores))
    throw py::type_error("scores " + quote(scores) + ": expected a tuple or list of " +
                         std::to_string(n) + " ints, got a " + type_name);
  // A copy: the items are converted (their __index__ run) before anything else is read.
  const py::tuple items = py::tuple(py::reinterpret_borrow<py::object>(scores));
  if (items.size() != n)
    notation_error("scores " + quote(scores) + ": expected " + std::to_string(n) + " integers");
  std::size_t i = 0;
  for (py::handle v : items) {
    long long x = 0;
    if (py::isinstance<py::bool_>(v) || !PyIndex_Check(v.ptr()))
      throw py::type_error("scores " + quote(scores) + ": expected " + std::to_string(n) +
                           " ints, got a " +
                           std::string(py::str(py::type::handle_of(v).attr("__name__"))));
    if (!index_int(v, x) || x < -10000000 || x > 10000000)
      notation_error("scores " + quote(scores) + ": expected " + std::to_string(n) +
                     " integers from -10000000 to 10000000");
    out[i++] = static_cast<std::int32_t>(x);
  }
  return out;
}

void push_one(PyGame& g, const Move& m) {
  const MoveResult r = g.play(m);
  if (!r.ok()) {
    std::string why(move_error_text(r.error));
    if (r.meld_error != MeldError::Ok) why += ": " + std::string(meld_error_text(r.meld_error));
    illegal("illegal move '" + move_text(m) + "': " + why);
  }
}

// "add 2 8h 9h": single lay-offs in some legal order (canonical order first, backtracking).
bool push_lay_offs(PyGame& g, std::uint32_t index, std::vector<Card>& cards) {
  if (cards.empty()) return true;
  for (std::size_t i = 0; i < cards.size(); ++i) {
    if (i && cards[i] == cards[i - 1]) continue;
    Move m;
    m.kind = MoveKind::Add;
    m.index = index;
    m.card = cards[i];
    if (!g.play(m).ok()) continue;
    std::vector<Card> rest = cards;
    rest.erase(rest.begin() + static_cast<long>(i));
    if (push_lay_offs(g, index, rest)) return true;
    g.undo();
  }
  return false;
}

// A seed argument: an int in [0, 2**64); anything else raises InvalidNotationError quoting it.
std::uint64_t seed_arg(py::handle seed) {
  if (is_int(seed)) {
    const unsigned long long value = PyLong_AsUnsignedLongLong(seed.ptr());  // raises if < 0 or too big
    if (!(value == static_cast<unsigned long long>(-1) && PyErr_Occurred())) return value;
    PyErr_Clear();
  }
  notation_error(quote(seed) + " is not a seed: expected an int in [0, 2**64)");
}

Policy policy_arg(py::handle policy) {
  if (py::isinstance<py::str>(policy)) {
    const std::string name = policy.cast<std::string>();
    if (name == "random") return Policy::Random;
    if (name == "greedy") return Policy::Greedy;
  }
  notation_error("unknown playout policy " + quote(policy) + " (known: 'random', 'greedy')");
}

// The positions of the game's current turn for the policies' candidates (docs/search.md
// "Candidates"), from its history: the snapshots are walked back, newest first, to the last change
// of turn; the turn began at the position after it (or before the first move the game knows).
TurnMemory turn_memory(const PyGame& g) {
  const Rules& rules = *g.rules;
  TurnMemory memory;
  memory.begin(g.state, rules);
  if (!memory.watching()) return memory;  // no move of this turn can repeat a position
  struct Segment {
    const HistoryBatch* batch;
    std::size_t from, to;  // moves [from, to) of the batch, played from batch->before[from / 8]
  };
  std::vector<Segment> newer;  // the segments after the one holding the change, newest first
  for (const HistoryBatch* b = g.head.get(); b; b = b->parent.get()) {
    for (std::size_t k = b->before.size(); k-- > 0;) {
      const std::size_t from = k * PyGame::kSnapshotEvery;
      const std::size_t to = std::min(from + PyGame::kSnapshotEvery, b->moves.size());
      GameState p = *b->before[k];
      GameState start;
      std::size_t start_at = to + 1;  // the first move of the turn in this segment, if found
      for (std::size_t i = from; i < to; ++i) {
        const int seat = p.turn;
        apply_move(p, rules, b->moves[i]);
        if (p.turn != seat) {
          start = p;
          start_at = i + 1;
        }
      }
      if (start_at <= to) {
        memory.remember(start);
        for (std::size_t i = start_at; i < to; ++i) memory.follow(b->moves[i]);
        for (auto it = newer.rbegin(); it != newer.rend(); ++it)
          for (std::size_t i = it->from; i < it->to; ++i) memory.follow(it->batch->moves[i]);
        return memory;
      }
      newer.push_back({b, from, to});
    }
  }
  if (newer.empty()) return memory;  // no history: the turn is known from the current position
  const Segment& first = newer.back();  // the oldest known position is in this turn
  memory.remember(*first.batch->before[first.from / PyGame::kSnapshotEvery]);
  for (auto it = newer.rbegin(); it != newer.rend(); ++it)
    for (std::size_t i = it->from; i < it->to; ++i) memory.follow(it->batch->moves[i]);
  return memory;
}

// Puts a game back to `state` with its first `count` moves (a playout that raised changes
// nothing). The batches appended since are dropped; a batch the game owned is cut back in place.
void rewind_game(PyGame& g, const GameState& state, std::size_t count) {
  g.forget_legal();
  while (g.head && g.head->depth >= count) {
    std::shared_ptr<HistoryBatch> parent = g.head->parent;
    g.head = std::move(parent);
  }
  if (g.head && g.move_count() > count) {
    HistoryBatch& b = *g.head;
    const std::size_t keep = count - b.depth;
    b.moves.resize(keep);
    b.before.resize((keep + PyGame::kSnapshotEvery - 1) / PyGame::kSnapshotEvery);
  }
  g.state = state;
}

struct PyIsmcts {
  Ismcts search;
  // One call at a time: choose() holds it for the whole search (without the GIL), and the
  // statistics readers take it too (releasing the GIL while they wait), so a reader sees the
  // tree of a finished search, never one being built (docs/search.md "Threads").
  std::shared_ptr<std::mutex> busy = std::make_shared<std::mutex>();
};

// Runs f() (which must not touch Python) under the search's lock, the GIL released meanwhile.
template <class F>
auto with_search(const PyIsmcts& self, F&& f) {
  py::gil_scoped_release release;
  std::lock_guard<std::mutex> lock(*self.busy);
  return f();
}

// ISMCTS parameters: a wrong type is a TypeError naming what was expected and what was given; a
// value out of range a BurracoError (a ValueError) quoting it.
[[noreturn]] void ismcts_type_error(const char* name, py::handle value, const char* expected) {
  throw py::type_error(std::string("ISMCTS: ") + name + " expected " + expected + ", got " +
                       std::string(py::str(py::type::handle_of(value).attr("__name__"))) + " " +
                       quote(value));
}

long long ismcts_int(py::handle value, const char* name, long long lo, long long hi) {
  if (py::isinstance<py::bool_>(value) || !PyIndex_Check(value.ptr()))
    ismcts_type_error(name, value, "an int");
  py::object as_int = py::reinterpret_steal<py::object>(PyNumber_Index(value.ptr()));
  if (!as_int) {
    PyErr_Clear();
    ismcts_type_error(name, value, "an int");
  }
  long long v = 0;
  if (!small_int(as_int, v) || v < lo || v > hi)
    raise("BurracoError", std::string("ISMCTS: ") + name + " " + quote(value) + ": expected an int from " +
                              std::to_string(lo) + " to " + std::to_string(hi));
  return v;
}

double ismcts_exploration(py::handle value) {
  static PyObject* const real = py::object(py::module_::import("numbers").attr("Real")).release().ptr();
  if (py::isinstance<py::bool_>(value) || !py::isinstance(value, py::handle(real)))
    ismcts_type_error("exploration", value, "a real number");
  const double c = PyFloat_AsDouble(value.ptr());
  if (c == -1.0 && PyErr_Occurred()) PyErr_Clear();  // too large for a float: refused below
  else if (c >= 0 && c <= std::numeric_limits<double>::max()) return c;
  raise("BurracoError", "ISMCTS: exploration " + quote(value) + ": expected a finite number >= 0");
}

struct PyObservation {
  Observation obs;
  RulesPtr rules;
  std::string text;
};

py::object packet_view(const Packet& p) {
  const char* status = "untaken";
  switch (p.status) {
    case PacketStatus::Untaken: status = "untaken"; break;
    case PacketStatus::FaceDown: status = "face_down"; break;
    case PacketStatus::Seen: status = "seen"; break;
    case PacketStatus::InHand: status = "in_hand"; break;
    case PacketStatus::Stock: status = "stock"; break;
  }
  CardSet cards;
  if (p.status == PacketStatus::Untaken || p.status == PacketStatus::FaceDown ||
      p.status == PacketStatus::Seen)
    cards = p.set();
  return py::make_tuple(status, p.owner >= 0 ? py::object(py::int_(p.owner)) : py::object(py::none()),
                        cards);
}

std::string side_result_repr(const SideResult& r) {
  return "SideResult(side=" + std::to_string(r.side) + ", melds=" + std::to_string(r.melds) +
         ", bonuses=" + std::to_string(r.bonuses) + ", closing=" + std::to_string(r.closing) +
         ", hand=" + std::to_string(r.hand) + ", pozzetto=" + std::to_string(r.pozzetto) +
         ", cut=" + std::to_string(r.cut) + ", total=" + std::to_string(r.total) + ")";
}

struct PyResult {
  HandResult result;
  int players = 4;
};

std::array<int, 8> side_fields(const SideResult& r) {
  return {r.side, r.melds, r.bonuses, r.closing, r.hand, r.pozzetto, r.cut, r.total};
}

py::tuple side_tuple(const SideResult& r) {
  py::list out;
  for (int v : side_fields(r)) out.append(v);
  return py::tuple(out);
}

// A Result's value: (end reason code, closing side, side tuples, player half points, players).
py::tuple result_tuple(const PyResult& r) {
  py::list sides, halves;
  for (int i = 0; i < r.result.side_count; ++i) sides.append(side_tuple(r.result.sides[i]));
  for (int q = 0; q < kMaxPlayers; ++q) halves.append(r.result.player_half_points[q]);
  return py::make_tuple(static_cast<int>(r.result.reason), r.result.closing_side, py::tuple(sides),
                        py::tuple(halves), r.players);
}

[[noreturn]] void pickle_error(const char* what, py::handle data) {
  state_error(std::string("pickled ") + what + ": cannot restore from " + quote(data));
}

// An int in [lo, hi] of pickled data, else InvalidStateError.
int pickled_int(const char* what, py::handle v, long long lo, long long hi) {
  long long x = 0;
  if (!small_int(v, x) || x < lo || x > hi) pickle_error(what, v);
  return static_cast<int>(x);
}

SideResult restore_side_result(py::args fields) {
  if (fields.size() != 8) pickle_error("SideResult", fields);
  std::array<int, 8> v{};
  for (std::size_t i = 0; i < 8; ++i)
    v[i] = pickled_int("SideResult", fields[i], i == 0 ? 0 : -100000000, i == 0 ? kSideSlots - 1 : 100000000);
  return SideResult{v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]};
}

std::unique_ptr<PyGame> game_from_state_string(py::handle text) {
  if (!py::isinstance<py::str>(text)) state_error("expected a state string, got " + quote(text));
  auto g = std::make_unique<PyGame>();
  Rules rules;
  std::string error;
  if (!parse_state_string(text.cast<std::string>(), g->state, rules, error))
    state_error("invalid state string: " + error);
  g->rules = same_rules(italian_rules(), std::make_shared<const Rules>(rules))
                 ? italian_rules() : std::make_shared<const Rules>(rules);
  return g;
}

// A pickled game (docs/api.md "Pickling and copying"): the state string its history starts from,
// its moves in notation, and the state string they lead to; replayed, so pop() and record() work.
std::unique_ptr<PyGame> restore_game(py::handle start, py::handle moves, py::handle state) {
  std::unique_ptr<PyGame> g = game_from_state_string(start);
  if (!py::isinstance<py::list>(moves)) state_error("pickled game: moves " + quote(moves) + " is not a list");
  const py::list list = py::reinterpret_borrow<py::list>(moves);
  for (std::size_t i = 0; i < list.size(); ++i) {
    const py::object item = list[i];
    Move m;
    if (!py::isinstance<py::str>(item) || !parse_move(item.cast<std::string>(), m))
      state_error("pickled game: move " + std::to_string(i + 1) + " " + quote(item) + " is not a move");
    if (!g->play(m).ok())
      state_error("pickled game: move " + std::to_string(i + 1) + " " + quote(item) + " is illegal");
  }
  if (!py::isinstance<py::str>(state) || state.cast<std::string>() != state_string(g->state, *g->rules))
    state_error("pickled game: the moves do not lead to the state " + quote(state));
  return g;
}

py::object core_attr(const char* name) { return py::module_::import("burraco._core").attr(name); }

bool same_game(const PyGame& a, const PyGame& b) {
  return a.move_count() == b.move_count() && a.rules && b.rules &&
         state_string(a.state, *a.rules) == state_string(b.state, *b.rules) &&
         a.move_list() == b.move_list();
}

PyResult restore_result(py::handle reason, py::handle closing, py::handle sides, py::handle halves,
                        py::handle players) {
  PyResult r;
  r.result.reason = static_cast<EndReason>(pickled_int("Result", reason, 1, 3));
  r.result.closing_side = pickled_int("Result", closing, -1, kSideSlots - 1);
  r.players = pickled_int("Result", players, 2, kMaxPlayers);
  if (!py::isinstance<py::tuple>(sides) || py::len(sides) > kSideSlots) pickle_error("Result", sides);
  if (!py::isinstance<py::tuple>(halves) || py::len(halves) != kMaxPlayers) pickle_error("Result", halves);
  const py::tuple side_items = py::reinterpret_borrow<py::tuple>(sides);
  for (std::size_t i = 0; i < side_items.size(); ++i) {
    if (!py::isinstance<py::tuple>(side_items[i])) pickle_error("Result", sides);
    r.result.sides[i] = restore_side_result(py::reinterpret_borrow<py::args>(side_items[i]));
  }
  r.result.side_count = static_cast<int>(side_items.size());
  const py::tuple half_items = py::reinterpret_borrow<py::tuple>(halves);
  for (int q = 0; q < kMaxPlayers; ++q)
    r.result.player_half_points[q] = pickled_int("Result", half_items[q], -200000000, 200000000);
  return r;
}

}  // namespace
BURRACO_CHECKED_CASTER(PyGame)
BURRACO_CHECKED_CASTER(PyIsmcts)
BURRACO_CHECKED_CASTER(PyObservation)
BURRACO_CHECKED_CASTER(PyResult)
namespace {

// An `out=` array argument: a writeable, C-contiguous, one-dimensional NumPy array of exactly
// `size` entries of T, else InvalidNotationError quoting its shape and dtype (docs/search.md).
template <class T>
py::array_t<T> out_array(py::handle out, py::ssize_t size, const char* dtype) {
  const std::string wanted = std::string("a writeable C-contiguous ") + dtype +
                             " array of shape (" + std::to_string(size) + ",)";
  if (!py::isinstance<py::array>(out))
    notation_error("out is a " + std::string(py::str(py::type::handle_of(out).attr("__name__"))) +
                   ", not a NumPy array: expected " + wanted);
  const py::array a = py::reinterpret_borrow<py::array>(out);
  const char* problem = nullptr;
  if (!py::isinstance<py::array_t<T>>(out) || a.ndim() != 1 || a.shape(0) != size)
    problem = "wrong shape or dtype";
  else if (!(a.flags() & py::array::c_style))
    problem = "not C-contiguous";
  else if (!a.writeable())
    problem = "read-only";
  if (problem)
    notation_error("out (shape " + std::string(py::str(out.attr("shape"))) + ", dtype " +
                   std::string(py::str(out.attr("dtype"))) + ") is " + problem + ": expected " + wanted);
  return py::reinterpret_borrow<py::array_t<T>>(out);
}

// ---- fast paths -----------------------------------------------------------------------------
// The calls of a Python-driven playout loop (is_over, legal_moves, len, push_index) are plain
// CPython methods installed over the pybind11 ones after binding: pybind11's argument dispatch
// cost more than the work. They behave exactly like the bound versions they replace.

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

template <class F>
PyObject* guarded(F&& body) {
  try {
    return body();
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
  PyGame* g = native<PyGame>(self);
  if (!g) return nullptr;
  return PyBool_FromLong(g->state.over());
}

PyObject* fast_legal_moves(PyObject* self, PyObject*) {
  PyGame* g = native<PyGame>(self);
  if (!g) return nullptr;
  return guarded([&]() -> PyObject* {
    const auto& list = g->legal_list();
    if (g->list_object && Py_REFCNT(g->list_object) == 1) {
      // Nobody else holds the last MoveList: hand it out again, showing the current moves.
      native<PyMoveList>(g->list_object)->moves = list;
      Py_INCREF(g->list_object);
      return g->list_object;
    }
    PyObject* fresh = py::cast(PyMoveList{list}).release().ptr();
    Py_XDECREF(g->list_object);
    Py_INCREF(fresh);
    g->list_object = fresh;
    return fresh;
  });
}

PyObject* fast_push_index(PyObject* self, PyObject* index) {
  PyGame* g = native<PyGame>(self);
  if (!g) return nullptr;
  return guarded([&]() -> PyObject* {
    long long i = -1;
    const bool is_index = index_int(index, i);  // runs index.__index__ before the game is read
    const auto list = g->legal_list();
    if (!is_index || i < 0 || i >= static_cast<long long>(list->size()))
      illegal("push_index(" + quote(index) + "): expected an index 0.." +
              std::to_string(static_cast<long long>(list->size()) - 1) + " into the " +
              std::to_string(list->size()) + " legal moves");
    g->play((*list)[static_cast<std::size_t>(i)]);  // legal: it is in the list
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
  PyObject* move = args[0];
  PyGame* g = native<PyGame>(self);
  if (!g) return nullptr;
  const PyMove* m = native<PyMove>(move);
  if (!m) return nullptr;
  return guarded([&]() -> PyObject* {
    push_one(*g, m->move);
    Py_RETURN_NONE;
  });
}

// moves[i] for an integer i (any object with __index__, as a list takes); slices and anything
// else go to the bound __getitem__.
PyObject* fast_move_list_getitem(PyObject* self, PyObject* key) {
  if (!PyIndex_Check(key)) return PyObject_CallFunctionObjArgs(bound_move_list_getitem, self, key, nullptr);
  Py_ssize_t i = PyNumber_AsSsize_t(key, PyExc_IndexError);
  if (i == -1 && PyErr_Occurred()) return nullptr;
  PyMoveList* l = native<PyMoveList>(self);
  if (!l) return nullptr;
  const auto n = static_cast<Py_ssize_t>(l->moves->size());
  if (i < 0) i += n;
  if (i < 0 || i >= n) {
    PyErr_SetString(PyExc_IndexError, "MoveList index out of range");
    return nullptr;
  }
  return guarded([&] { return py::cast(PyMove{(*l->moves)[static_cast<std::size_t>(i)]}).release().ptr(); });
}

PyObject* fast_move_list_len(PyObject* self, PyObject*) {
  PyMoveList* l = native<PyMoveList>(self);
  if (!l) return nullptr;
  return PyLong_FromSize_t(l->moves->size());
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
  for (const char* name : {"Card", "Cards", "Rules", "Meld", "Melds", "Move", "MoveList", "Game",
                           "SideResult", "Result", "Observation", "ISMCTS"}) {
    auto* type = reinterpret_cast<PyTypeObject*>(m.attr(name).ptr());
    if (type->tp_new == pybind11_new) type->tp_new = guarded_new;
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
  static PyMethodDef game_methods[] = {
      {"is_over", fast_is_over, METH_NOARGS, "True once the hand has ended."},
      {"legal_moves", fast_legal_moves, METH_NOARGS,
       "Every legal move, in the canonical order, as a MoveList (a read-only sequence)."},
      {"push_index", fast_push_index, METH_O,
       "Plays legal_moves()[index] (docs/search.md); IllegalMoveError, nothing changed, if there "
       "is no such move."},
      {"push", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(fast_push)),
       METH_FASTCALL | METH_KEYWORDS,
       "push(self, move: Move | str) -> None\n--\n\n"
       "Plays a legal move; raises IllegalMoveError and changes nothing otherwise."},
  };
  static PyMethodDef list_methods[] = {
      {"__len__", fast_move_list_len, METH_NOARGS, "len(moves)"},
      {"__getitem__", fast_move_list_getitem, METH_O, "moves[i] (a Move) or moves[a:b] (a list)"},
  };
  // Kept for the life of the module: the fast paths fall back on them.
  bound_push = py::object(m.attr("Game").attr("push")).release().ptr();
  bound_move_list_getitem = py::object(m.attr("MoveList").attr("__getitem__")).release().ptr();
  move_type = reinterpret_cast<PyTypeObject*>(py::object(m.attr("Move")).release().ptr());
  auto install = [](py::object cls, PyMethodDef* defs, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
      py::object descr = py::reinterpret_steal<py::object>(
          PyDescr_NewMethod(reinterpret_cast<PyTypeObject*>(cls.ptr()), &defs[i]));
      if (!descr) throw py::error_already_set();
      py::setattr(cls, defs[i].ml_name, descr);
    }
  };
  install(m.attr("Game"), game_methods, std::size(game_methods));
  install(m.attr("MoveList"), list_methods, std::size(list_methods));
}

void bind_game(py::module_& m) {
  py::class_<PyMove>(m, "Move", "One atomic move: Move('meld 5h 6h 7h'), Move('add 2 8h'), "
                                "Move('discard Qs'), Move('draw'). Immutable.")
      .def(py::init([](py::handle obj) { return PyMove{move_from(obj)}; }), py::arg("move"))
      .def_property_readonly("kind", [](const PyMove& m) {
        static const char* names[] = {"draw", "pile", "keep", "reject", "meld", "add", "discard"};
        static py::object* interned = [] {
          auto* strings = new py::object[7];  // kept for the life of the interpreter
          for (int k = 0; k < 7; ++k) strings[k] = py::str(names[k]);
          return strings;
        }();
        return interned[static_cast<int>(m.move.kind)];
      })
      .def_property_readonly("cards", [](const PyMove& m) {
        CardSet c = m.move.cards;
        if (m.move.kind == MoveKind::Add || m.move.kind == MoveKind::Discard) c.add(m.move.card);
        return c;
      })
      .def_property_readonly("index", [](const PyMove& m) {
        return m.move.kind == MoveKind::Add ? py::object(py::int_(m.move.index))
                                            : py::object(py::none());
      })
      .def("__str__", [](const PyMove& m) { return move_text(m.move); })
      .def("__repr__", [](const PyMove& m) { return "Move('" + move_text(m.move) + "')"; })
      .def("__eq__", [](const PyMove& a, py::handle b) {
        return py::isinstance<PyMove>(b) && a.move == b.cast<const PyMove&>().move;
      })
      .def("__ne__", [](const PyMove& a, py::handle b) {
        return !(py::isinstance<PyMove>(b) && a.move == b.cast<const PyMove&>().move);
      })
      .def("__lt__", [](const PyMove& a, const PyMove& b) { return move_less(a.move, b.move); })
      .def("__gt__", [](const PyMove& a, const PyMove& b) { return move_less(b.move, a.move); })
      .def("__le__", [](const PyMove& a, const PyMove& b) { return !move_less(b.move, a.move); })
      .def("__ge__", [](const PyMove& a, const PyMove& b) { return !move_less(a.move, b.move); })
      .def("__hash__", [](const PyMove& m) { return py::hash(py::str(move_text(m.move))); })
      .def("__copy__", [](const PyMove& m) { return m; })
      .def("__deepcopy__", [](const PyMove& m, py::handle) { return m; })
      .def("__reduce__", [](const PyMove& m) {
        return py::make_tuple(core_attr("Move"), py::make_tuple(move_text(m.move)));
      });

  py::class_<SideResult>(m, "SideResult", "One side's score breakdown for a hand (RULES E.1).")
      .def_readonly("side", &SideResult::side)
      .def_readonly("melds", &SideResult::melds)
      .def_readonly("bonuses", &SideResult::bonuses)
      .def_readonly("closing", &SideResult::closing)
      .def_readonly("hand", &SideResult::hand)
      .def_readonly("pozzetto", &SideResult::pozzetto)
      .def_readonly("cut", &SideResult::cut)
      .def_readonly("total", &SideResult::total)
      .def("__repr__", &side_result_repr)
      .def("__eq__", [](const SideResult& a, py::handle b) {
        return py::isinstance<SideResult>(b) && side_fields(a) == side_fields(b.cast<const SideResult&>());
      })
      .def("__ne__", [](const SideResult& a, py::handle b) {
        return !(py::isinstance<SideResult>(b) && side_fields(a) == side_fields(b.cast<const SideResult&>()));
      })
      .def("__hash__", [](const SideResult& r) { return py::hash(side_tuple(r)); })
      .def("__copy__", [](const SideResult& r) { return r; })
      .def("__deepcopy__", [](const SideResult& r, py::handle) { return r; })
      .def("__reduce__", [](const SideResult& r) {
        return py::make_tuple(core_attr("_restore_side_result"), side_tuple(r));
      });

  py::class_<PyResult>(m, "Result", "The result of a finished hand (RULES D.5, E).")
      .def_property_readonly("end_reason", [](const PyResult& r) { return end_reason_name(r.result.reason); })
      .def_property_readonly("closing_side", [](const PyResult& r) {
        return r.result.closing_side >= 0 ? py::object(py::int_(r.result.closing_side))
                                          : py::object(py::none());
      })
      .def_property_readonly("sides", [](const PyResult& r) {
        py::list out;
        for (int i = 0; i < r.result.side_count; ++i) out.append(py::cast(r.result.sides[i]));
        return py::tuple(out);
      })
      .def_property_readonly("player_scores", [](const PyResult& r) {
        if (r.players != 3) return py::object(py::none());
        return py::object(py::make_tuple(r.result.player_half_points[0],
                                         r.result.player_half_points[1],
                                         r.result.player_half_points[2]));
      })
      .def("__repr__", [](const PyResult& r) {
        std::string out = "Result(end_reason=" + quote(end_reason_name(r.result.reason)) +
                          ", closing_side=" +
                          (r.result.closing_side >= 0 ? std::to_string(r.result.closing_side) : "None") +
                          ", sides=(";
        for (int i = 0; i < r.result.side_count; ++i)
          out += (i ? ", " : "") + side_result_repr(r.result.sides[i]);
        out += "), player_scores=";
        if (r.players == 3)
          out += "(" + std::to_string(r.result.player_half_points[0]) + ", " +
                 std::to_string(r.result.player_half_points[1]) + ", " +
                 std::to_string(r.result.player_half_points[2]) + ")";
        else
          out += "None";
        return out + ")";
      })
      .def("__eq__", [](const PyResult& a, py::handle b) {
        return py::isinstance<PyResult>(b) && result_tuple(a).equal(result_tuple(b.cast<const PyResult&>()));
      })
      .def("__ne__", [](const PyResult& a, py::handle b) {
        return !(py::isinstance<PyResult>(b) && result_tuple(a).equal(result_tuple(b.cast<const PyResult&>())));
      })
      .def("__hash__", [](const PyResult& r) { return py::hash(result_tuple(r)); })
      .def("__copy__", [](const PyResult& r) { return r; })
      .def("__deepcopy__", [](const PyResult& r, py::handle) { return r; })
      .def("__reduce__", [](const PyResult& r) {
        return py::make_tuple(core_attr("_restore_result"), result_tuple(r));
      });

  py::class_<PyGame>(m, "Game", "One hand of Burraco: Game(Rules('italian'), seed=7).")
      .def(py::init([](py::handle rules_obj, py::handle seed, py::handle deck, py::handle first,
                       py::handle scores) {
             PyGame g;
             g.rules = rules_from(rules_obj);
             const Rules& rules = *g.rules;
             const std::string why = check_playable(rules);
             if (!why.empty()) notation_error(rules_repr(rules) + " cannot be dealt: " + why);
             long long first_value = -1;
             if (!small_int(first, first_value) || first_value < 0 || first_value >= rules.players)
               notation_error("first_player " + quote(first) + ": expected a seat 0.." +
                              std::to_string(rules.players - 1));
             const int first_player = static_cast<int>(first_value);
             const auto score_values = scores_arg(rules, scores);
             if (!deck.is_none()) {
               if (!seed.is_none()) notation_error("give a seed or a deck, not both");
               std::array<Card, kMaxDeck> order{};
               std::vector<Card> cards;
               if (py::isinstance<py::str>(deck)) {
                 const std::string text = deck.cast<std::string>();
                 for (std::string_view word : split_words(text)) {
                   const auto c = parse_card(word);
                   if (!c) notation_error("deck: " + quote(py::str(std::string(word))) + " is not a card");
                   cards.push_back(*c);
                 }
               } else if (py::hasattr(deck, "__iter__")) {
                 for (py::handle c : deck) cards.push_back(card_from(c));
               } else {
                 notation_error("deck " + quote(deck) + ": expected a list of cards");
               }
               std::array<Card, kMaxDeck> full{};
               const int n = unshuffled_deck(rules, full);
               std::array<int, kKinds> want{}, have{};
               for (int i = 0; i < n; ++i) ++want[full[i].index];
               for (Card c : cards) ++have[c.index];
               if (static_cast<int>(cards.size()) != n || want != have)
                 notation_error("deck: expected the " + std::to_string(n) +
                                " cards of these rules' deck, each once, got " +
                                std::to_string(cards.size()) + " cards that do not match");
               for (int i = 0; i < n; ++i) order[i] = cards[i];
               g.state = deal(rules, order, first_player, score_values);
               return g;
             }
             std::uint64_t seed_value = 0;
             if (seed.is_none()) {
               py::bytes raw = py::module_::import("os").attr("urandom")(8);
               seed_value = py::int_(py::module_::import("builtins").attr("int").attr("from_bytes")(raw, "little")).cast<std::uint64_t>();
             } else {
               if (!is_int(seed)) notation_error("seed " + quote(seed) + ": expected an integer in [0, 2**64)");
               py::object zero = py::int_(0);
               py::object limit = py::reinterpret_steal<py::object>(PyLong_FromUnsignedLongLong(~0ULL));
               const bool ok = PyObject_RichCompareBool(seed.ptr(), zero.ptr(), Py_GE) == 1 &&
                               PyObject_RichCompareBool(seed.ptr(), limit.ptr(), Py_LE) == 1;
               if (!ok) notation_error("seed " + quote(seed) + ": expected an integer in [0, 2**64)");
               seed_value = seed.cast<std::uint64_t>();
             }
             g.state = deal_seeded(rules, seed_value, first_player, score_values);
             return g;
           }),
           py::arg("rules") = py::none(), py::kw_only(), py::arg("seed") = py::none(),
           py::arg("deck") = py::none(), py::arg("first_player") = 0, py::arg("scores") = py::none())
      .def_static("from_state_string", &game_from_state_string, py::arg("state"))
      .def("state_string", [](const PyGame& g) { return state_string(g.state, *g.rules); })
      .def("legal_moves", [](PyGame& g) { return PyMoveList{g.legal_list()}; },
           "Every legal move, in the canonical order, as a MoveList (a read-only sequence).")
      .def("push_index",
           [](PyGame& g, py::handle index) {
             long long i = -1;
             const bool is_index = index_int(index, i);  // index.__index__ first
             const auto list = g.legal_list();
             if (!is_index || i < 0 || i >= static_cast<long long>(list->size()))
               illegal("push_index(" + quote(index) + "): expected an index 0.." +
                       std::to_string(static_cast<long long>(list->size()) - 1) +
                       " into the " + std::to_string(list->size()) + " legal moves");
             g.play((*list)[static_cast<std::size_t>(i)]);  // legal: it is in the list
           },
           py::arg("index"),
           "Plays legal_moves()[index] (docs/search.md); IllegalMoveError, nothing changed, if "
           "there is no such move.")
      .def("push",
           [](PyGame& g, py::handle move) {
             if (py::isinstance<py::str>(move)) {
               // The multi-card lay-off sugar: "add 2 8h 9h".
               const std::string text = move.cast<std::string>();
               Move probe;
               if (!parse_move(text, probe)) {
                 const std::vector<std::string_view> words = split_words(text);
                 Move first;
                 if (words.size() > 3 &&
                     parse_move(std::string(words[0]) + " " + std::string(words[1]) + " " +
                                    std::string(words[2]), first) &&
                     first.kind == MoveKind::Add) {
                   std::vector<Card> cards;
                   for (std::size_t k = 2; k < words.size(); ++k) {
                     const auto c = parse_card(words[k]);
                     if (!c) move_from(move);
                     cards.push_back(*c);
                   }
                   std::sort(cards.begin(), cards.end());
                   if (!push_lay_offs(g, first.index, cards))
                     illegal("illegal move " + quote(move) + ": no order of these lay-offs is legal");
                   return;
                 }
               }
             }
             push_one(g, move_from(move));
           },
           py::arg("move"), "Plays a legal move; raises IllegalMoveError and changes nothing otherwise.")
      .def("pop",
           [](PyGame& g) {
             if (!g.head) throw py::index_error("pop from a game with no moves");
             return PyMove{g.undo()};
           })
      .def("playout",
           [](PyGame& g, py::handle policy, py::handle seed) {
             const Policy p = policy_arg(policy);
             const std::uint64_t seed_value = seed_arg(seed);
             std::vector<Move> buffer;
             TurnMemory memory = turn_memory(g);
             const GameState start = g.state;
             const std::size_t count = g.move_count();
             try {
               return playout(g.state, *g.rules, p, seed_value, buffer, memory,
                              [&](const GameState& before, const Move& move) {
                                g.record(before, move);
                              });
             } catch (const StateError& e) {
               const std::string why = e.what();
               rewind_game(g, start, count);
               state_error("playout(" + quote(policy) + ", " + quote(seed) + "): " + why +
                           " (the game is left as it was)");
             }
           },
           py::arg("policy") = "random", py::arg("seed") = 0,
           "Plays the hand to its end and returns the number of moves played (docs/search.md): "
           "'random' is uniform over legal_moves(), drawn with the deal contract's generator from "
           "`seed`; 'greedy' melds the longest meld, lays off, else discards the least useful card.")
      .def("policy_move",
           [](const PyGame& g, py::handle policy, py::handle seed) {
             const Policy p = policy_arg(policy);
             const std::uint64_t seed_value = seed_arg(seed);
             if (g.state.over()) illegal("policy_move: the hand is over, there is no move to choose");
             std::vector<Move> buffer;
             legal_moves(g.state, *g.rules, buffer);
             if (buffer.empty())
               state_error("policy_move: the hand is not over but has no legal move: state '" +
                           state_string(g.state, *g.rules) + "'");
             // The candidates of the first move of playout(policy, seed) from here.
             TurnMemory memory = turn_memory(g);
             const std::vector<Move>& moves = memory.candidates(g.state, *g.rules, buffer);
             Rng rng(seed_value);
             const std::size_t i = p == Policy::Random ? static_cast<std::size_t>(rng.bounded(moves.size()))
                                                       : greedy_choice(g.state, *g.rules, moves);
             return PyMove{moves[i]};
           },
           py::arg("policy") = "greedy", py::arg("seed") = 0,
           "The move the playout policy would play now: the first move of playout(policy, seed), "
           "without playing it (docs/search.md). Raises IllegalMoveError when the hand is over.")
      .def_property_readonly("action_size", [](const PyGame& g) { return action_size(*g.rules); },
                             "The number of action ids of these rules (docs/search.md).")
      .def("action_id",
           [](const PyGame& g, py::handle move) {
             const Move m = move_from(move);
             const int id = action_id(m, meld_table(*g.rules));
             if (id < 0) notation_error("move " + quote(move) + " has no action id under these rules");
             return id;
           },
           py::arg("move"), "The fixed action id of a move (docs/search.md).")
      .def("action_move",
           [](const PyGame& g, py::handle id) {
             long long v = -1;
             Move m;
             if (!index_int(id, v) || v < 0 || v >= action_size(*g.rules) ||
                 !action_move(static_cast<int>(v), meld_table(*g.rules), m))
               notation_error("action id " + quote(id) + ": expected an int from 0 to " +
                              std::to_string(action_size(*g.rules) - 1));
             return PyMove{m};
           },
           py::arg("id"), "The move of an action id (docs/search.md).")
      .def("legal_mask",
           [](PyGame& g, py::object out) {
             const MeldTable& table = meld_table(*g.rules);
             const py::ssize_t size = action_size(*g.rules);
             py::array_t<bool> mask =
                 out.is_none() ? py::array_t<bool>(size) : out_array<bool>(out, size, "bool");
             bool* data = mask.mutable_data();
             std::fill(data, data + size, false);
             for (const Move& m : *g.legal_list()) {
               const int id = action_id(m, table);
               if (id < 0) throw std::logic_error("legal move '" + move_text(m) + "' has no action id");
               data[id] = true;
             }
             return mask;
           },
           py::arg("out") = py::none(), "True at the action id of every legal move (docs/search.md).")
      .def("push_action",
           [](PyGame& g, py::handle id) {
             long long v = -1;
             Move m;
             if (!index_int(id, v) || v < 0 || v >= action_size(*g.rules) ||
                 !action_move(static_cast<int>(v), meld_table(*g.rules), m))
               notation_error("action id " + quote(id) + ": expected an int from 0 to " +
                              std::to_string(action_size(*g.rules) - 1));
             push_one(g, m);
           },
           py::arg("id"), "Plays the move of an action id if it is legal (docs/search.md).")
      .def("observation_tensor",
           [](const PyGame& g, py::handle player, py::object out) {
             const int seat = seat_arg(g, player);
             py::array_t<float> features =
                 out.is_none() ? py::array_t<float>(kObservationSize)
                               : out_array<float>(out, kObservationSize, "float32");
             observation_features(observe(g.state, *g.rules, seat), *g.rules, features.mutable_data());
             return features;
           },
           py::arg("player"), py::arg("out") = py::none(),
           "The 511 float32 features of observation(player) (docs/search.md).")
      .def("observation",
           [](const PyGame& g, py::handle player) {
             PyObservation o{observe(g.state, *g.rules, seat_arg(g, player)), g.rules, {}};
             o.text = observation_string(o.obs, *g.rules);
             return o;
           },
           py::arg("player"), "What that player may know (RULES C.9, docs/search.md).")
      .def("determinize",
           [](const PyGame& g, py::handle player, py::handle seed) {
             const int seat = seat_arg(g, player);
             const std::uint64_t seed_value = seed_arg(seed);
             // Built in place on the heap and handed to Python as is: no further copies.
             auto out = std::make_unique<PyGame>(
                 determinize(observe(g.state, *g.rules, seat), *g.rules, seed_value), g.rules);
             // Only hidden cards differ from a real position, and the acting seat's moves depend
             // on its own hand and public facts: seen from the acting seat the deal is always a
             // position of play. Seen from another seat, the hand dealt to the acting seat may
             // have no legal move (RULES C.7), and such a position is refused as a parser would.
             if (seat != g.state.turn) {
               if (const std::string why = validate_state(out->state, *g.rules); !why.empty())
                 state_error("determinize(" + std::to_string(seat) + ", " + std::to_string(seed_value) +
                             "): the cards dealt from seat " + std::to_string(seat) +
                             "'s view give a position that could not arise in play (" + why + ")");
             }
             return out;
           },
           py::arg("player"), py::arg("seed"),
           "A game consistent with that player's observation, the unseen cards dealt from `seed` "
           "(docs/search.md); reads only the observation.")
      .def("copy", [](const PyGame& g) { return std::make_unique<PyGame>(g); })
      .def("__copy__", [](const PyGame& g) { return std::make_unique<PyGame>(g); })
      .def("__deepcopy__", [](const PyGame& g, py::handle) { return std::make_unique<PyGame>(g); })
      .def("__reduce__", [](const PyGame& g) {
        py::list moves;
        for (const Move& mv : g.move_list()) moves.append(py::str(move_text(mv)));
        return py::make_tuple(core_attr("_restore_game"),
                              py::make_tuple(state_string(g.start_state(), *g.rules), moves,
                                             state_string(g.state, *g.rules)));
      })
      .def("__eq__", [](const PyGame& a, py::handle b) -> py::object {
        if (!py::isinstance<PyGame>(b)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
        return py::bool_(same_game(a, b.cast<const PyGame&>()));
      }, "Same position (state string) and same moves played, as chess.Board compares.")
      .def("__ne__", [](const PyGame& a, py::handle b) -> py::object {
        if (!py::isinstance<PyGame>(b)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
        return py::bool_(!same_game(a, b.cast<const PyGame&>()));
      })
      .def_property_readonly("moves", [](const PyGame& g) {
        py::list out;
        for (const Move& mv : g.move_list()) out.append(py::cast(PyMove{mv}));
        return out;
      })
      .def_property_readonly("rules", [](const PyGame& g) { return std::const_pointer_cast<Rules>(g.rules); })
      .def_property_readonly("seed", [](const PyGame& g) {
        return g.state.has_seed ? py::object(py::int_(g.state.seed)) : py::object(py::none());
      })
      .def_property_readonly("players", [](const PyGame& g) { return static_cast<int>(g.state.players); })
      .def_property_readonly("first_player", [](const PyGame& g) { return static_cast<int>(g.state.first); })
      .def_property_readonly("turn", [](const PyGame& g) { return static_cast<int>(g.state.turn); })
      .def_property_readonly("phase", [](const PyGame& g) { return phase_name(g.state.phase); })
      .def_property_readonly("scores", [](const PyGame& g) {
        py::list out;
        for (int i = 0; i < (g.state.players == 3 ? 3 : 2); ++i) out.append(g.state.scores[i]);
        return py::tuple(out);
      })
      .def("hand", [](const PyGame& g, py::handle p) { return g.state.hands[seat_arg(g, p)]; }, py::arg("player"))
      .def("known", [](const PyGame& g, py::handle p) { return g.state.known[seat_arg(g, p)]; }, py::arg("player"))
      .def("side_of", [](const PyGame& g, py::handle p) { return side_of(g.state, *g.rules, seat_arg(g, p)); }, py::arg("player"))
      .def_property_readonly("sides", [](const PyGame& g) {
        std::array<int, kSideSlots> sides{};
        const int n = active_sides(g.state, *g.rules, sides);
        py::list out;
        for (int i = 0; i < n; ++i) out.append(sides[i]);
        return py::tuple(out);
      })
      .def("melds",
           [](const PyGame& g, py::handle side) {
             long long v = -1;
             if (!small_int(side, v) || v < 0 || v >= side_slots(g.state.players))
               notation_error("no side " + quote(side));
             return PyMelds{side_melds(g.state, static_cast<int>(v)), g.rules};
           },
           py::arg("side"))
      .def_property_readonly("discard_pile", [](const PyGame& g) { return g.state.pile; })
      .def_property_readonly("top_discard", [](const PyGame& g) {
        return g.state.top.valid() ? py::cast(g.state.top) : py::object(py::none());
      })
      .def_property_readonly("stock_size", [](const PyGame& g) { return g.state.stock_size(); })
      .def_property_readonly("stock", [](const PyGame& g) {
        py::list out;
        for (int i = g.state.stock_pos; i < g.state.stock_end; ++i) out.append(py::cast(g.state.stock[i]));
        return py::tuple(out);
      })
      .def_property_readonly("pozzetti", [](const PyGame& g) {
        py::list out;
        for (const Packet& p : g.state.packets) out.append(packet_view(p));
        return py::tuple(out);
      })
      .def_property_readonly("cut_side", [](const PyGame& g) {
        return g.state.cut_side >= 0 ? py::object(py::int_(g.state.cut_side)) : py::object(py::none());
      })
      .def("is_over", [](const PyGame& g) { return g.state.over(); })
      .def_property_readonly("end_reason", [](const PyGame& g) { return end_reason_name(g.state.end); })
      .def("result",
           [](const PyGame& g) {
             if (!g.state.over()) illegal("the hand is not over: no result yet");
             return PyResult{score_hand(g.state, *g.rules), g.state.players};
           })
      .def("__repr__", [](const PyGame& g) {
        return "Game.from_state_string('" + state_string(g.state, *g.rules) + "')";
      });

  py::class_<PyMoveList>(m, "MoveList",
                         "The legal moves of a position in canonical order: a read-only sequence "
                         "(len, [i], iteration, `in`, index, ==) that makes Move objects on demand.")
      .def("__len__", [](const PyMoveList& l) { return l.moves->size(); })
      .def("__bool__", [](const PyMoveList& l) { return !l.moves->empty(); })
      .def("__getitem__",
           [](const PyMoveList& l, py::handle key) -> py::object {
             const auto n = static_cast<long long>(l.moves->size());
             if (py::isinstance<py::slice>(key)) {
               py::ssize_t start = 0, stop = 0, step = 0, length = 0;
               if (!key.cast<py::slice>().compute(static_cast<py::ssize_t>(n), &start, &stop, &step, &length))
                 throw py::error_already_set();
               py::list out;
               for (py::ssize_t k = 0; k < length; ++k)
                 out.append(PyMove{(*l.moves)[static_cast<std::size_t>(start + k * step)]});
               return std::move(out);
             }
             long long i = 0;
             if (!small_int(key, i))
               throw py::type_error("MoveList indices must be integers or slices, not " +
                                    std::string(py::str(py::type::handle_of(key).attr("__name__"))));
             if (i < 0) i += n;
             if (i < 0 || i >= n) throw py::index_error("MoveList index out of range");
             return py::cast(PyMove{(*l.moves)[static_cast<std::size_t>(i)]});
           })
      .def("__iter__", [](const PyMoveList& l) {
        py::list out;
        for (const Move& mv : *l.moves) out.append(PyMove{mv});
        return py::iter(out);
      })
      .def("__contains__", [](const PyMoveList& l, py::handle item) {
        Move m;
        if (py::isinstance<PyMove>(item)) m = item.cast<const PyMove&>().move;
        else if (!py::isinstance<py::str>(item) || !parse_move(item.cast<std::string>(), m)) return false;
        return std::find(l.moves->begin(), l.moves->end(), m) != l.moves->end();
      })
      .def("index", [](const PyMoveList& l, py::handle item) {
        Move m;
        if (py::isinstance<PyMove>(item)) m = item.cast<const PyMove&>().move;
        else if (!py::isinstance<py::str>(item) || !parse_move(item.cast<std::string>(), m))
          throw py::value_error(quote(item) + " is not in the list");
        const auto it = std::find(l.moves->begin(), l.moves->end(), m);
        if (it == l.moves->end()) throw py::value_error(quote(item) + " is not in the list");
        return static_cast<long long>(it - l.moves->begin());
      })
      .def("count", [](const PyMoveList& l, py::handle item) {
        Move m;
        if (py::isinstance<PyMove>(item)) m = item.cast<const PyMove&>().move;
        else if (!py::isinstance<py::str>(item) || !parse_move(item.cast<std::string>(), m)) return 0L;
        return static_cast<long>(std::count(l.moves->begin(), l.moves->end(), m));
      })
      .def("__eq__", [](const PyMoveList& l, py::handle other) -> py::object {
        if (py::isinstance<PyMoveList>(other)) return py::bool_(*l.moves == *other.cast<const PyMoveList&>().moves);
        if (!py::isinstance<py::list>(other) && !py::isinstance<py::tuple>(other))
          return py::reinterpret_borrow<py::object>(Py_NotImplemented);
        const py::sequence seq = other.cast<py::sequence>();
        if (seq.size() != l.moves->size()) return py::bool_(false);
        for (std::size_t i = 0; i < l.moves->size(); ++i) {
          py::object item = seq[i];
          if (!py::isinstance<PyMove>(item) || !(item.cast<const PyMove&>().move == (*l.moves)[i]))
            return py::bool_(false);
        }
        return py::bool_(true);
      })
      .def("__ne__", [](const PyMoveList& l, py::handle other) -> py::object {
        py::object eq = py::cast(l).attr("__eq__")(other);
        if (eq.is(py::reinterpret_borrow<py::object>(Py_NotImplemented))) return eq;
        return py::bool_(!eq.cast<bool>());
      })
      .def("strings", [](const PyMoveList& l) {
        py::list out;
        for (const Move& mv : *l.moves) out.append(py::str(move_text(mv)));
        return out;
      }, "The moves' notations, in order.")
      .def("__repr__", [](const PyMoveList& l) {
        std::string out = "[";  // like the list it stands for (the reference's is a list)
        for (std::size_t i = 0; i < l.moves->size(); ++i)
          out += (i ? ", Move('" : "Move('") + move_text((*l.moves)[i]) + "')";
        return out + "]";
      });
  py::setattr(m.attr("MoveList"), "__hash__", py::none());
  py::setattr(m.attr("Game"), "__hash__", py::none());  // mutable: compared, never hashed

  py::class_<PyObservation>(m, "Observation",
                            "What one player may know of a game (RULES C.9): game.observation(p).")
      .def_property_readonly("player", [](const PyObservation& o) { return static_cast<int>(o.obs.player); })
      .def_property_readonly("rules", [](const PyObservation& o) { return std::const_pointer_cast<Rules>(o.rules); })
      .def_property_readonly("turn", [](const PyObservation& o) { return static_cast<int>(o.obs.state.turn); })
      .def_property_readonly("phase", [](const PyObservation& o) { return phase_name(o.obs.state.phase); })
      .def_property_readonly("hand", [](const PyObservation& o) { return o.obs.state.hands[o.obs.player]; })
      .def_property_readonly("hand_sizes", [](const PyObservation& o) {
        py::list out;
        for (int q = 0; q < o.obs.state.players; ++q) out.append(static_cast<int>(o.obs.hand_sizes[q]));
        return py::tuple(out);
      })
      .def_property_readonly("known", [](const PyObservation& o) {
        py::list out;
        for (int q = 0; q < o.obs.state.players; ++q) out.append(py::cast(o.obs.state.known[q]));
        return py::tuple(out);
      })
      .def_property_readonly("stock_size", [](const PyObservation& o) { return o.obs.state.stock_size(); })
      .def_property_readonly("discard_pile", [](const PyObservation& o) { return o.obs.state.pile; })
      .def_property_readonly("top", [](const PyObservation& o) {
        return o.obs.state.top.valid() ? py::cast(o.obs.state.top) : py::object(py::none());
      })
      .def("melds",
           [](const PyObservation& o, py::handle side) {
             long long v = -1;
             if (!small_int(side, v) || v < 0 || v >= side_slots(o.obs.state.players))
               notation_error("no side " + quote(side));
             return PyMelds{side_melds(o.obs.state, static_cast<int>(v)), o.rules};
           },
           py::arg("side"))
      .def_property_readonly("pozzetti", [](const PyObservation& o) {
        py::list out;
        for (int k = 0; k < kPackets; ++k) {
          const Packet& p = o.obs.state.packets[k];
          py::tuple view = packet_view(p);
          const bool sized = p.status == PacketStatus::Untaken || p.status == PacketStatus::FaceDown ||
                             p.status == PacketStatus::Seen;
          out.append(py::make_tuple(view[0], view[1],
                                    sized ? py::object(py::int_(p.size)) : py::object(py::none()),
                                    packet_visible(o.obs.state, o.obs.player, k)
                                        ? py::cast(p.set()) : py::object(py::none())));
        }
        return py::tuple(out);
      })
      .def_property_readonly("scores", [](const PyObservation& o) {
        py::list out;
        for (int i = 0; i < (o.obs.state.players == 3 ? 3 : 2); ++i) out.append(o.obs.state.scores[i]);
        return py::tuple(out);
      })
      .def("__str__", [](const PyObservation& o) { return o.text; })
      .def("__repr__", [](const PyObservation& o) { return "<Observation " + o.text + ">"; })
      .def("__eq__", [](const PyObservation& a, py::handle b) {
        return py::isinstance<PyObservation>(b) && a.text == b.cast<const PyObservation&>().text;
      })
      .def("__ne__", [](const PyObservation& a, py::handle b) {
        return !(py::isinstance<PyObservation>(b) && a.text == b.cast<const PyObservation&>().text);
      })
      .def("__hash__", [](const PyObservation& o) { return py::hash(py::str(o.text)); })
      .def("__copy__", [](const PyObservation& o) { return o; })
      .def("__deepcopy__", [](const PyObservation& o, py::handle) { return o; })
      .def("__reduce__", [](const PyObservation& o) {
        // No hidden card is pickled: a game dealt from the observation alone (determinize with
        // seed 0) stands for it, and restoring checks it observes to the same string.
        const GameState stand_in = determinize(o.obs, *o.rules, 0);
        return py::make_tuple(core_attr("_restore_observation"),
                              py::make_tuple(state_string(stand_in, *o.rules),
                                             static_cast<int>(o.obs.player), o.text));
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
      },
      py::arg("cap"),
      "A test hook: the move cap of the policy loops from now on (MAX_HAND_MOVES restores it); "
      "returns the previous one.");
  m.def("playouts",
        [](py::handle rules_obj, py::handle n, py::handle seed, py::handle policy, py::handle threads) {
          const RulesPtr rules = rules_from(rules_obj);
          const std::string why = check_playable(*rules);
          if (!why.empty()) notation_error(rules_repr(*rules) + " cannot be dealt: " + why);
          long long count = -1, thread_count = 0;
          if (!small_int(n, count) || count < 0 || count > 1000000000LL)
            notation_error("playouts: n " + quote(n) + ": expected an int from 0 to 10**9");
          if (!small_int(threads, thread_count) || thread_count < 1 || thread_count > 64)
            notation_error("playouts: threads " + quote(threads) + ": expected an int from 1 to 64");
          const std::uint64_t seed_value = seed_arg(seed);
          const Policy p = policy_arg(policy);
          const auto size = static_cast<py::ssize_t>(count);
          const py::ssize_t columns = rules->players == 3 ? 3 : 2;
          py::array_t<std::uint64_t> seeds(size);
          py::array_t<std::int32_t> scores({size, columns});
          py::array_t<std::int32_t> moves(size);
          py::array_t<std::uint8_t> reasons(size);
          std::uint64_t* seed_out = seeds.mutable_data();
          std::int32_t* score_out = scores.mutable_data();
          std::int32_t* move_out = moves.mutable_data();
          std::uint8_t* reason_out = reasons.mutable_data();
          {
            py::gil_scoped_release release;
            const std::size_t total = static_cast<std::size_t>(count);
            const std::size_t workers = std::min<std::size_t>(static_cast<std::size_t>(thread_count),
                                                              std::max<std::size_t>(total, 1));
            std::vector<std::exception_ptr> errors(workers);
            auto work = [&](std::size_t w) {
              try {
                std::vector<Move> buffer;
                buffer.reserve(256);
                const std::size_t from = total * w / workers, to = total * (w + 1) / workers;
                for (std::size_t i = from; i < to; ++i) {
                  const PlayoutRow row = play_hand(*rules, batch_seed(seed_value, i), p, buffer);
                  seed_out[i] = row.seed;
                  for (py::ssize_t c = 0; c < columns; ++c)
                    score_out[static_cast<py::ssize_t>(i) * columns + c] = row.scores[static_cast<std::size_t>(c)];
                  move_out[i] = row.moves;
                  reason_out[i] = row.end_reason;
                }
              } catch (const StateError& e) {  // the first hand of this worker that failed
                errors[w] = std::make_exception_ptr(StateError(std::string("playouts: ") + e.what()));
              } catch (...) {
                errors[w] = std::current_exception();
              }
            };
            std::vector<std::thread> pool;
            for (std::size_t w = 1; w < workers; ++w) pool.emplace_back(work, w);
            work(0);
            for (std::thread& t : pool) t.join();
            for (const std::exception_ptr& e : errors)
              if (e) std::rethrow_exception(e);
          }
          py::dict out;
          out["seed"] = seeds;
          out["scores"] = scores;
          out["moves"] = moves;
          out["end_reason"] = reasons;
          return out;
        },
        py::arg("rules"), py::arg("n"), py::kw_only(), py::arg("seed") = 0,
        py::arg("policy") = "random", py::arg("threads") = 1,
        "Plays n whole hands (docs/search.md): a dict of NumPy arrays 'seed', 'scores', 'moves', "
        "'end_reason' (1 closed, 2 stock exhausted, 3 deadlock). Releases the GIL; `threads` "
        "splits the hands, the result does not depend on it.");
  m.attr("END_REASONS") = py::make_tuple("closed", "stock_exhausted", "deadlock");

  py::class_<PyIsmcts>(m, "ISMCTS",
                       "Information-set Monte Carlo tree search (docs/search.md): "
                       "ISMCTS(iterations=1000, seed=0).choose(game) -> Move. Reads only the "
                       "observation of the seat to act.")
      .def(py::init([](py::handle iterations, py::handle seed, py::handle exploration,
                       py::handle policy, py::handle max_rollout_moves) {
             IsmctsParams params;
             params.iterations = static_cast<int>(ismcts_int(iterations, "iterations", 1, 100000000));
             params.seed = seed_arg(seed);
             params.exploration = ismcts_exploration(exploration);
             params.policy = policy_arg(policy);
             if (!max_rollout_moves.is_none())
               params.max_rollout_moves =
                   static_cast<int>(ismcts_int(max_rollout_moves, "max_rollout_moves", 0, 1000000000));
             return PyIsmcts{Ismcts(params)};
           }),
           py::kw_only(), py::arg("iterations") = 1000, py::arg("seed") = 0,
           py::arg("exploration") = 0.7, py::arg("policy") = "random",
           py::arg("max_rollout_moves") = py::none())
      .def("choose",
           [](PyIsmcts& self, PyGame& g) {
             if (g.state.over()) illegal("ISMCTS.choose: the hand is over, there is no move to choose");
             if (g.legal_list()->empty())
               state_error("ISMCTS.choose: the hand is not over but has no legal move: state '" +
                           state_string(g.state, *g.rules) + "'");
             const GameState state = g.state;
             const RulesPtr rules = g.rules;
             Move chosen;
             std::string failure;
             {
               py::gil_scoped_release release;
               std::lock_guard<std::mutex> lock(*self.busy);
               try {
                 chosen = self.search.choose(state, *rules);
               } catch (const StateError& e) {
                 failure = e.what();
               }
             }
             if (!failure.empty()) state_error("ISMCTS.choose: " + failure);
             return PyMove{chosen};
           },
           py::arg("game"),
           "A legal move for the seat to act, by a fresh search (releases the GIL). Calls on one "
           "ISMCTS from several threads run one after the other.")
      .def_property_readonly("iterations", [](const PyIsmcts& self) { return self.search.params().iterations; })
      .def_property_readonly("seed", [](const PyIsmcts& self) { return self.search.params().seed; })
      .def_property_readonly("exploration", [](const PyIsmcts& self) { return self.search.params().exploration; })
      .def_property_readonly("policy", [](const PyIsmcts& self) {
        return self.search.params().policy == Policy::Random ? "random" : "greedy";
      })
      .def_property_readonly("max_rollout_moves", [](const PyIsmcts& self) {
        const int cut = self.search.params().max_rollout_moves;
        return cut < 0 ? py::object(py::none()) : py::object(py::int_(cut));
      })
      .def_property_readonly(
          "nodes", [](const PyIsmcts& self) { return with_search(self, [&] { return self.search.nodes(); }); },
          "Tree nodes of the last search (the root included); waits for a search in progress.")
      .def_property_readonly(
          "last_iterations",
          [](const PyIsmcts& self) { return with_search(self, [&] { return self.search.iterations(); }); },
          "Iterations the last search ran (0 when the move was forced); waits for a search in progress.")
      .def("root_stats",
           [](const PyIsmcts& self) {
             const std::vector<IsmctsChild> children =
                 with_search(self, [&] { return self.search.root_children(); });
             py::list out;
             for (const IsmctsChild& c : children)
               out.append(py::make_tuple(PyMove{c.move}, c.visits, c.availability, c.reward));
             return out;
           },
           "The root's moves after the last search: (move, visits, availability, summed reward). "
           "Waits for a search in progress on another thread, then reads its finished tree.")
      .def("__repr__", [](const PyIsmcts& self) {
        const IsmctsParams& p = self.search.params();
        return "ISMCTS(iterations=" + std::to_string(p.iterations) + ", seed=" + std::to_string(p.seed) +
               ", policy='" + (p.policy == Policy::Random ? "random" : "greedy") + "')";
      });

  // Pickle support (docs/api.md "Pickling and copying"): private constructors the __reduce__
  // methods name; each refuses data that is not what it pickled with InvalidStateError.
  m.def("_restore_game", &restore_game, py::arg("start"), py::arg("moves"), py::arg("state"));
  m.def("_restore_side_result", &restore_side_result);
  m.def("_restore_result", &restore_result, py::arg("reason"), py::arg("closing_side"),
        py::arg("sides"), py::arg("player_half_points"), py::arg("players"));
  m.def("_restore_observation", [](py::handle stand_in, py::handle player, py::handle text) {
    const std::unique_ptr<PyGame> g = game_from_state_string(stand_in);
    const int seat = pickled_int("Observation", player, 0, g->state.players - 1);
    PyObservation o{observe(g->state, *g->rules, seat), g->rules, {}};
    o.text = observation_string(o.obs, *g->rules);
    if (!py::isinstance<py::str>(text) || o.text != text.cast<std::string>())
      state_error("pickled Observation: " + quote(text) + " is not the observation of its stand-in game");
    return o;
  }, py::arg("stand_in"), py::arg("player"), py::arg("text"));

  m.def("perft",
        [](const PyGame& g, py::handle depth) {
          long long dv = -1;
          if (!small_int(depth, dv) || dv < 0 || dv > 64)
            notation_error("perft depth " + quote(depth) + ": expected an integer 0..64");
          const int d = static_cast<int>(dv);
          std::uint64_t nodes = 0;
          const GameState state = g.state;  // another thread may push once the GIL is released
          const RulesPtr rules = g.rules;
          {
            py::gil_scoped_release release;
            nodes = perft(state, *rules, d);
          }
          return nodes;
        },
        py::arg("game"), py::arg("depth"), "Leaf nodes of every legal move sequence of that depth.");
  // For the benches (tools/bench_table.py): legal-move generation timed without Python per call.
  m.def(
      "_legal_moves_repeat",
      [](const PyGame& g, py::handle calls) {
        long long n = -1;
        if (!small_int(calls, n) || n < 0 || n > 1000000000)
          notation_error("_legal_moves_repeat: calls " + quote(calls) + ": expected an int 0..10**9");
        std::uint64_t generated = 0;
        const GameState state = g.state;  // the game may change once the GIL is released
        const RulesPtr rules = g.rules;
        {
          py::gil_scoped_release release;
          std::vector<Move> buffer;
          for (long long i = 0; i < n; ++i) {
            legal_moves(state, *rules, buffer);
            generated += buffer.size();
          }
        }
        return generated;
      },
      py::arg("game"), py::arg("calls"),
      "Generates the legal moves of the game's position `calls` times in one C++ loop and "
      "returns how many moves that gave in all (a bench helper: no cache, no Python per call).");
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "burraco's C++ engine (cards, rules, melds). Import the names from `burraco`.";

  // ---- Card ----
  py::class_<Card>(m, "Card", "One card kind: 'Qh', 'Th', 'Jk' (RULES 0.2). Immutable.")
      .def(py::init([](py::handle obj) { return card_from(obj); }), py::arg("card"),
           "Card('Qh'); input is lenient ('qh', '10h', 'JK').")
      .def_static(
          "from_index",
          [](py::handle i) {
            long long v = -1;
            if (!small_int(i, v) || v < 0 || v >= kKinds)
              notation_error("card index " + quote(i) + " is not in 0..52");
            return Card(static_cast<std::uint8_t>(v));
          },
          py::arg("index"), "The card of canonical index 0..52 (the joker is 52).")
      .def_property_readonly("index", [](Card c) { return static_cast<int>(c.index); },
                             "Canonical index: 13 * suit + rank - 1; the joker is 52.")
      .def_property_readonly(
          "rank",
          [](Card c) {
            return c.is_joker() ? py::object(py::none())
                                : py::object(py::str(std::string(1, rank_char(c.rank()))));
          },
          "'A', '2', ..., 'K'; None for the joker.")
      .def_property_readonly(
          "suit",
          [](Card c) {
            return c.is_joker() ? py::object(py::none())
                                : py::object(py::str(std::string(1, kSuitChars[c.suit()])));
          },
          "'c', 'd', 'h' or 's'; None for the joker.")
      .def_property_readonly("rank_value", [](Card c) { return c.is_joker() ? 0 : c.rank(); },
                             "A=1 ... K=13; 0 for the joker.")
      .def_property_readonly("is_joker", &Card::is_joker)
      .def_property_readonly("is_two", &Card::is_two)
      .def_property_readonly("is_wild", &Card::is_wild,
                             "A joker or any two (wild in hand, RULES A.4).")
      .def("__str__", [](Card c) { return card_name(c); })
      .def("__repr__", [](Card c) { return "Card('" + card_name(c) + "')"; })
      .def("__hash__", [](Card c) { return static_cast<int>(c.index); })
      .def("__eq__", [](Card a, py::handle b) {
        return py::isinstance<Card>(b) && a == b.cast<Card>();
      })
      .def("__ne__", [](Card a, py::handle b) {
        return !(py::isinstance<Card>(b) && a == b.cast<Card>());
      })
      .def("__lt__", [](Card a, Card b) { return a < b; })
      .def("__le__", [](Card a, Card b) { return a <= b; })
      .def("__gt__", [](Card a, Card b) { return a > b; })
      .def("__ge__", [](Card a, Card b) { return a >= b; })
      .def("__copy__", [](Card c) { return c; })
      .def("__deepcopy__", [](Card c, py::handle) { return c; })
      .def("__reduce__", [](Card c) {
        return py::make_tuple(core_attr("Card"), py::make_tuple(card_name(c)));
      });

  // ---- Cards ----
  py::class_<CardSet>(m, "Cards",
                      "An immutable multiset of cards in canonical order: Cards('5h 6h 7h Jk').")
      .def(py::init([](py::handle obj) { return cards_from(obj); }), py::arg("cards") = "",
           "Cards('5h 6h Jk'), Cards(['5h', Card('6h')]), Cards() (empty).")
      .def("__len__", &CardSet::size)
      .def("__bool__", [](CardSet s) { return !s.empty(); })
      .def("__iter__", [](CardSet s) { return py::iter(cards_list(s)); })
      .def("__contains__", [](CardSet s, py::handle c) { return s.count(card_from(c)) > 0; })
      .def("count", [](CardSet s, py::handle c) { return s.count(card_from(c)); },
           py::arg("card"), "How many copies of the card the multiset holds.")
      .def("distinct",
           [](CardSet s) { return py::tuple(cards_list(s.distinct())); },
           "The distinct cards, in canonical order.")
      .def("__str__", &cards_text)
      .def("__repr__", [](CardSet s) { return "Cards('" + cards_text(s) + "')"; })
      .def("__hash__", [](CardSet s) { return py::hash(py::make_tuple(s.one(), s.two())); })
      .def("__eq__", [](CardSet a, py::handle b) {
        return py::isinstance<CardSet>(b) && a == b.cast<CardSet>();
      })
      .def("__ne__", [](CardSet a, py::handle b) {
        return !(py::isinstance<CardSet>(b) && a == b.cast<CardSet>());
      })
      .def("__le__", [](CardSet a, py::handle b) { return a.subset_of(cards_from(b)); })
      .def("__lt__", [](CardSet a, py::handle b) {
        const CardSet o = cards_from(b);
        return a.subset_of(o) && !(a == o);
      })
      .def("__ge__", [](CardSet a, py::handle b) { return cards_from(b).subset_of(a); })
      .def("__gt__", [](CardSet a, py::handle b) {
        const CardSet o = cards_from(b);
        return o.subset_of(a) && !(a == o);
      })
      .def("__add__",
           [](CardSet a, py::handle b) {
             CardSet out;
             const CardSet o = cards_from(b);
             if (!a.sum(o, out)) {
               // Name the first kind that would pass its limit.
               std::string which;
               o.for_each([&](Card c) {
                 if (which.empty() && a.count(c) + o.count(c) >
                                          (c.is_joker() ? kMaxJokers : kMaxSuitedCopies))
                   which = card_name(c);
               });
               notation_error("Cards('" + cards_text(a) + "') + " + quote(b) +
                              ": more copies of " + which + " than two decks hold");
             }
             return out;
           })
      .def("__radd__",
           [](CardSet a, py::handle b) {
             CardSet out;
             if (!cards_from(b).sum(a, out))
               notation_error(quote(b) + " + Cards('" + cards_text(a) +
                              "'): more copies than two decks hold");
             return out;
           })
      .def("__sub__",
           [](CardSet a, py::handle b) {
             CardSet out;
             if (!a.difference(cards_from(b), out))
               notation_error("Cards('" + cards_text(a) + "') - " + quote(b) + ": " + quote(b) +
                              " is not contained in Cards('" + cards_text(a) + "')");
             return out;
           })
      .def("__or__", [](CardSet a, py::handle b) { return a.max_with(cards_from(b)); })
      .def("__and__", [](CardSet a, py::handle b) { return a.min_with(cards_from(b)); })
      .def("__copy__", [](CardSet c) { return c; })
      .def("__deepcopy__", [](CardSet c, py::handle) { return c; })
      .def("__reduce__", [](CardSet s) {
        return py::make_tuple(core_attr("Cards"), py::make_tuple(cards_text(s)));
      });

  // ---- Rules ----
  py::class_<Rules, std::shared_ptr<Rules>> rules_class(m, "Rules",
                                "The rules of one table: a preset plus knob overrides "
                                "(RULES section G). Rules('italian', semi_clean_burraco_bonus=None).");
  rules_class
      .def(py::init([](py::handle preset, const py::kwargs& kw) { return make_rules(preset, kw); }),
           py::arg("preset") = "italian")
      .def_property_readonly("preset",
                             [](const Rules& r) { return std::string(preset_name(r.preset)); })
      .def("knobs",
           [](const Rules& r) {
             py::dict out;
             for (const KnobInfo& k : knob_table()) out[py::str(std::string(k.name))] = knob_value(r, k);
             return out;
           },
           "Every knob, name -> value, in the order of RULES section G.")
      .def("replace", [](const Rules& r, const py::kwargs& kw) { return rules_with(r, kw); },
           "A copy with some knobs changed.")
      .def("card_points", [](const Rules& r, py::handle c) { return r.card_points(card_from(c)); },
           py::arg("card"), "The card's points (RULES A.3, knob card_values).")
      .def_property_readonly("total_cards", &Rules::total_cards)
      .def_property_readonly("initial_stock", &Rules::initial_stock)
      .def("__repr__", &rules_repr)
      .def("__eq__", [](const Rules& a, py::handle b) {
        return py::isinstance<Rules>(b) && a == b.cast<Rules>();
      })
      .def("__ne__", [](const Rules& a, py::handle b) {
        return !(py::isinstance<Rules>(b) && a == b.cast<Rules>());
      })
      .def("__hash__", [](const Rules& r) {
        py::list values;
        values.append(py::str(std::string(preset_name(r.preset))));
        for (const KnobInfo& k : knob_table()) values.append(knob_value(r, k));
        return py::hash(py::tuple(values));
      })
      .def("__copy__", [](const Rules& r) { return r; })
      .def("__deepcopy__", [](const Rules& r, py::handle) { return r; })
      .def("__reduce__", [](const Rules& r) {
        // Rules(preset, **overrides), through a private function (pickle passes no keywords).
        py::dict overrides;
        const Rules base = *preset_rules(preset_name(r.preset));
        for (const KnobInfo& k : knob_table()) {
          py::object a = knob_value(r, k), b = knob_value(base, k);
          if (!a.equal(b)) overrides[py::str(std::string(k.name))] = a;
        }
        return py::make_tuple(core_attr("_restore_rules"),
                              py::make_tuple(std::string(preset_name(r.preset)), overrides));
      });
  m.def("_restore_rules", [](py::handle preset, py::handle overrides) {
    if (!py::isinstance<py::dict>(overrides)) state_error("pickled Rules: cannot restore from " + quote(overrides));
    return make_rules(preset, py::reinterpret_borrow<py::kwargs>(overrides));
  }, py::arg("preset"), py::arg("overrides"));
  // Every knob is a read-only property whose docstring is its meaning in the knob table (the
  // names and texts are string literals there, so their data() ends with a NUL).
  for (const KnobInfo& k : knob_table()) {
    const KnobInfo* knob = &k;
    rules_class.def_property_readonly(
        k.name.data(), [knob](const Rules& r) { return knob_value(r, *knob); }, k.doc.data());
  }
  py::list presets;
  for (std::string_view name : kPresetNames) presets.append(py::str(std::string(name)));
  rules_class.attr("PRESETS") = py::tuple(presets);

  // ---- Meld ----
  py::class_<PyMeld>(m, "Meld",
                     "A meld on the table (RULES B): Meld('Jk 5d 6d') makes a new meld from "
                     "cards; meld.add('7d') lays one off. Immutable.")
      .def(py::init([](py::handle cards, py::handle rules) {
             return meld_from(cards, rules_from(rules));
           }),
           py::arg("cards"), py::arg("rules") = py::none())
      .def_static("from_layout",
                  [](py::handle text, py::handle rules) {
                    return meld_from_layout(text, rules_from(rules));
                  },
                  py::arg("layout"), py::arg("rules") = py::none(),
                  "The exact table state written as a layout: '2h 3h ... Kh Ah'.")
      .def_static("is_valid",
                  [](py::handle cards, py::handle rules) {
                    const RulesPtr r = rules_from(rules);
                    if (py::isinstance<py::str>(cards) &&
                        cards.cast<std::string>().find("(=") != std::string::npos)
                    {
                      const MeldResult layout_result = parse_layout(cards.cast<std::string>(), *r);
                      if (layout_result.error == MeldError::BadNotation)
                        meld_error(cards, layout_result.error, true);
                      return layout_result.ok();
                    }
                    return make_meld(cards_from(cards), *r).ok();
                  },
                  py::arg("cards"), py::arg("rules") = py::none(),
                  "Whether Meld(cards, rules) would succeed, without raising; unreadable "
                  "cards still raise InvalidNotationError.")
      .def("add",
           [](const PyMeld& self, py::handle card) {
             const Card c = card_from(card);
             const MeldResult r = lay_off(self.meld, c, *self.rules);
             if (!r.ok())
               raise("IllegalMoveError", "cannot add " + quote(card) + " to " + layout(self.meld) +
                                             ": " + std::string(meld_error_text(r.error)));
             return PyMeld{r.meld, self.rules};
           },
           py::arg("card"), "The meld after laying off one card (RULES B.2, B.6).")
      .def("can_add",
           [](const PyMeld& self, py::handle card) {
             return lay_off(self.meld, card_from(card), *self.rules).ok();
           },
           py::arg("card"))
      .def_property_readonly("kind", [](const PyMeld& s) {
        return s.meld.kind == MeldKind::Set ? "set" : "run";
      })
      .def_property_readonly("suit", [](const PyMeld& s) {
        return s.meld.kind == MeldKind::Run
                   ? py::object(py::str(std::string(1, kSuitChars[s.meld.suit])))
                   : py::object(py::none());
      })
      .def_property_readonly("rank", [](const PyMeld& s) {
        return s.meld.kind == MeldKind::Set
                   ? py::object(py::str(std::string(1, rank_char(s.meld.rank))))
                   : py::object(py::none());
      })
      .def_property_readonly("layout", [](const PyMeld& s) { return layout(s.meld); })
      .def_property_readonly("cards", [](const PyMeld& s) { return s.meld.cards; })
      .def_property_readonly("wild", [](const PyMeld& s) {
        return s.meld.has_wild() ? py::cast(s.meld.wild) : py::object(py::none());
      })
      .def_property_readonly("wild_state", [](const PyMeld& s) {
        return optional_str(wild_state_name(s.meld.wild_state));
      })
      .def_property_readonly("span", [](const PyMeld& s) {
        return s.meld.kind == MeldKind::Run ? py::object(py::make_tuple(s.meld.lo, s.meld.hi))
                                            : py::object(py::none());
      })
      .def_property_readonly("is_clean", [](const PyMeld& s) { return s.meld.is_clean(); })
      .def_property_readonly("burraco", [](const PyMeld& s) {
        return optional_str(burraco_class_name(s.meld.classify(*s.rules)));
      })
      .def_property_readonly("points", [](const PyMeld& s) { return s.meld.points(*s.rules); })
      .def_property_readonly("bonus", [](const PyMeld& s) { return s.meld.bonus(*s.rules); })
      .def_property_readonly("rules", [](const PyMeld& s) { return std::const_pointer_cast<Rules>(s.rules); })
      .def("__len__", [](const PyMeld& s) { return s.meld.size(); })
      .def("__iter__", [](const PyMeld& s) { return py::iter(meld_cards_in_order(s.meld)); })
      .def("__str__", [](const PyMeld& s) { return layout(s.meld); })
      .def("__repr__", [](const PyMeld& s) {
        return meld_repr_body(s) + rules_suffix(s.rules) + ")";
      })
      .def("__eq__", [](const PyMeld& a, py::handle b) {
        if (!py::isinstance<PyMeld>(b)) return false;
        const PyMeld& o = b.cast<const PyMeld&>();
        return a.meld == o.meld && same_rules(a.rules, o.rules);
      })
      .def("__ne__", [](const PyMeld& a, py::handle b) {
        if (!py::isinstance<PyMeld>(b)) return true;
        const PyMeld& o = b.cast<const PyMeld&>();
        return !(a.meld == o.meld && same_rules(a.rules, o.rules));
      })
      .def("__hash__", [](const PyMeld& s) { return py::hash(py::str(layout(s.meld))); })
      .def("__copy__", [](const PyMeld& s) { return s; })
      .def("__deepcopy__", [](const PyMeld& s, py::handle) { return s; })
      .def("__reduce__", [](const PyMeld& s) {
        return py::make_tuple(core_attr("_restore_meld"),
                              py::make_tuple(layout(s.meld), std::const_pointer_cast<Rules>(s.rules)));
      });

  m.def("_restore_meld", [](py::handle text, py::handle rules) {
    return meld_from_layout(text, rules_from(rules));
  }, py::arg("layout"), py::arg("rules"));

  // ---- Melds ----
  py::class_<PyMelds>(m, "Melds",
                      "One side's melds in creation order (RULES B.1.4): melds.meld(cards) puts "
                      "down a new meld, melds.add(index, card) lays one off. Immutable.")
      .def(py::init([](py::handle melds, py::handle rules_obj) {
             PyMelds out{SideMelds{}, rules_from(rules_obj)};
             if (melds.is_none()) return out;
             if (py::isinstance<py::str>(melds) || !py::hasattr(melds, "__iter__"))
               notation_error("expected a list of melds (Meld objects or layouts), got " +
                              quote(melds));
             for (py::handle item : melds) {
               const PyMeld one = py::isinstance<PyMeld>(item) ? meld_from(item, out.rules)
                                                               : meld_from_layout(item, out.rules);
               if (out.side.count >= SideMelds::kCapacity)
                 notation_error("more than 36 melds for one side");
               out.side.append(one.meld);
             }
             return out;
           }),
           py::arg("melds") = py::none(), py::arg("rules") = py::none())
      .def("meld",
           [](const PyMelds& self, py::handle cards) {
             const CardSet set = cards_from(cards);
             const MeldResult r = self.side.check_new(set, *self.rules);
             if (r.error == MeldError::SecondSetOfRank)
               raise("IllegalMoveError", "cannot meld " + quote(cards) + ": " +
                                             std::string(meld_error_text(r.error)) +
                                             "; lay the cards off on it instead");
             if (!r.ok()) meld_error(cards, r.error, false);
             PyMelds out = self;
             out.side.append(r.meld);
             return out;
           },
           py::arg("cards"), "A copy with a new meld appended (RULES B.2 one set per rank).")
      .def("can_meld",
           [](const PyMelds& self, py::handle cards) {
             return self.side.check_new(cards_from(cards), *self.rules).ok();
           },
           py::arg("cards"))
      .def("add",
           [](const PyMelds& self, py::handle index, py::handle card) {
             const int i = melds_index(self, index);
             const Card c = card_from(card);
             const MeldResult r = lay_off(self.side.melds[i], c, *self.rules);
             if (!r.ok())
               raise("IllegalMoveError", "cannot add " + quote(card) + " to meld " +
                                             std::to_string(i) + " (" +
                                             layout(self.side.melds[i]) + "): " +
                                             std::string(meld_error_text(r.error)));
             PyMelds out = self;
             out.side.melds[i] = r.meld;
             return out;
           },
           py::arg("index"), py::arg("card"))
      .def("can_add",
           [](const PyMelds& self, py::handle index, py::handle card) {
             long long i = -1;
             if (!small_int(index, i) || i < 0 || i >= self.side.count) return false;
             return lay_off(self.side.melds[i], card_from(card), *self.rules).ok();
           },
           py::arg("index"), py::arg("card"))
      .def_property_readonly("rules", [](const PyMelds& s) { return std::const_pointer_cast<Rules>(s.rules); })
      .def("__len__", [](const PyMelds& s) { return static_cast<int>(s.side.count); })
      .def("__getitem__",
           [](const PyMelds& s, py::handle index) -> py::object {
             if (py::isinstance<py::slice>(index)) {
               std::size_t start = 0, stop = 0, step = 0, length = 0;
               if (!index.cast<py::slice>().compute(s.side.count, &start, &stop, &step, &length))
                 throw py::error_already_set();
               PyMelds out{SideMelds{}, s.rules};
               for (std::size_t k = 0; k < length; ++k) out.side.append(s.side.melds[start + k * step]);
               return py::cast(out);
             }
             if (!is_int(index)) throw py::type_error("meld index must be an integer or a slice");
             long long i = 0;
             if (!small_int(index, i)) throw py::index_error("meld index out of range");
             if (i < 0) i += s.side.count;
             if (i < 0 || i >= s.side.count) throw py::index_error("meld index out of range");
             return py::cast(PyMeld{s.side.melds[static_cast<int>(i)], s.rules});
           })
      .def("__iter__",
           [](const PyMelds& s) {
             py::list out;
             for (int i = 0; i < s.side.count; ++i) out.append(py::cast(PyMeld{s.side.melds[i], s.rules}));
             return py::iter(out);
           })
      .def("__repr__",
           [](const PyMelds& s) {
             std::string out = "Melds([";
             for (int i = 0; i < s.side.count; ++i)
               out += (i ? ", '" : "'") + layout(s.side.melds[i]) + "'";
             return out + "]" + rules_suffix(s.rules) + ")";
           })
      .def("__eq__", [](const PyMelds& a, py::handle b) {
        if (!py::isinstance<PyMelds>(b)) return false;
        const PyMelds& o = b.cast<const PyMelds&>();
        return a.side == o.side && same_rules(a.rules, o.rules);
      })
      .def("__ne__", [](const PyMelds& a, py::handle b) {
        if (!py::isinstance<PyMelds>(b)) return true;
        const PyMelds& o = b.cast<const PyMelds&>();
        return !(a.side == o.side && same_rules(a.rules, o.rules));
      })
      .def("__hash__", [](const PyMelds& s) {
        py::list layouts;
        for (int i = 0; i < s.side.count; ++i) layouts.append(py::str(layout(s.side.melds[i])));
        return py::hash(py::tuple(layouts));
      })
      .def("__copy__", [](const PyMelds& s) { return s; })
      .def("__deepcopy__", [](const PyMelds& s, py::handle) { return s; })
      .def("__reduce__", [](const PyMelds& s) {
        py::list layouts;
        for (int i = 0; i < s.side.count; ++i) layouts.append(py::str(layout(s.side.melds[i])));
        return py::make_tuple(core_attr("Melds"),
                              py::make_tuple(layouts, std::const_pointer_cast<Rules>(s.rules)));
      });

  bind_game(m);
  install_fast_paths(m);
  guard_construction(m);
}
