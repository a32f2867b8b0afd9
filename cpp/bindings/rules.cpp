// burraco._core: the rules of a table (Rules).
#include "binding.hpp"

BURRACO_SHOWN_RESULT(PresetTitlesResult, "dict[str, str]")

namespace burraco_binding {

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
      const auto& a = *static_cast<const std::array<std::int32_t, 3>*>(p);
      if (a[2] > 0) return py::make_tuple(a[0], a[1], a[2]);
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
        const std::int32_t v = int_in_range(k, value, 0, 2 * kMaxSuitedCopies);
        if (v % 2) knob_error(k, value, "0, 2, 4 or 6");
        *static_cast<std::int32_t*>(p) = v;
      } else if (k.name == "players") {
        long long v = 0;
        if (!index_int(value, v) || !(v == 2 || v == 3 || v == 4 || v == 6))
          knob_error(k, value, "2, 3, 4 or 6");
        *static_cast<std::int32_t*>(p) = static_cast<std::int32_t>(v);
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
      const std::string v = text_arg(value);
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
      for (char c : text_arg(value)) {
        const int r = parse_rank(std::string_view(&c, 1));
        if (r == 0 || r == kTwo || (mask & (1u << r))) knob_error(k, value, expected);
        mask |= static_cast<std::uint16_t>(1u << r);
      }
      if (mask == 0) knob_error(k, value, expected);
      *static_cast<std::uint16_t*>(p) = mask;
      return;
    }
    case KnobType::IntPair: {
      const std::string expected = "a tuple of 2 integers (3 with six players), each from 1 to 30";
      if (!(py::isinstance<py::tuple>(value) || py::isinstance<py::list>(value)) ||
          (py::len(value) != 2 && py::len(value) != 3))
        knob_error(k, value, expected);
      std::array<std::int32_t, 3> a{};
      py::sequence seq = py::reinterpret_borrow<py::sequence>(value);
      for (std::size_t i = 0; i < py::len(seq); ++i) {
        py::object item = seq[i];
        long long v = 0;
        if (!index_int(item, v) || v < k.min || v > k.max) knob_error(k, value, expected);
        a[i] = static_cast<std::int32_t>(v);
      }
      *static_cast<std::array<std::int32_t, 3>*>(p) = a;
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

// The preset played by this many players, against which the rules text, the repr and pickles
// name knobs (the player count itself against the preset's).
Rules text_baseline(const Rules& rules) {
  Rules base = player_baseline(rules.preset, rules.players);
  base.players = preset_rules(preset_name(rules.preset))->players;
  return base;
}

Rules rules_with(const Rules& base, const py::kwargs& overrides) {
  Rules rules = base;
  // A new player count starts from the preset played by that many players (RULES F.7: six take
  // three decks, six jokers, three packets and three sides unless given), keeping the knobs that
  // `base` changed from its own baseline; then the overrides apply.
  for (auto item : overrides) {
    if (!py::isinstance<py::str>(item.first) || text_arg(item.first) != "players") continue;
    Rules probe = base;
    set_knob(probe, *find_knob("players"), item.second);
    if (probe.players == base.players) break;
    rules = player_baseline(base.preset, probe.players);
    const Rules own = player_baseline(base.preset, base.players);
    for (const KnobInfo& k : knob_table())
      if (k.name != "players" && knob_text(base, k) != knob_text(own, k))
        set_knob_text(rules, k, knob_text(base, k));
    break;
  }
  for (auto item : overrides) {
    const std::string name = text_arg(item.first);
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
  const auto base = preset_rules(text_arg(preset));
  if (!base)
    notation_error("unknown rules preset " + quote(preset) +
                   " (presets: italian, italian-2p, italian-3p, online-2p, brazilian)");
  return rules_with(*base, overrides);
}

std::string rules_repr(const Rules& rules) {
  std::string out = "Rules('" + std::string(preset_name(rules.preset)) + "'";
  const Rules base = text_baseline(rules);
  for (const KnobInfo& k : knob_table()) {
    py::object a = knob_value(rules, k), b = knob_value(base, k);
    if (!a.equal(b)) out += ", " + std::string(k.name) + "=" + quote(a);
  }
  return out + ")";
}

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

void bind_rules(py::module_& m) {
  // ---- Rules ----
  auto rules_class = bound_class<Rules, std::shared_ptr<Rules>>(m, "Rules");
  rules_class
      .def(py::init([](PresetArg preset, const py::kwargs& kw) { return make_rules(preset, kw); }),
           py::arg("preset") = "italian",
           "Rules('italian'), or a preset with knobs changed: Rules('brazilian', players=2). "
           "An unknown preset or knob, a value outside the knob's domain, or a refused "
           "combination raises InvalidNotationError quoting it.")
      .def_static(
          "from_text",
          [](StrArg text) {
            if (!py::isinstance<py::str>(text))
              notation_error("Rules.from_text: expected a rules text such as 'italian' or "
                             "'online-2p:opening_minimum=((0,50),(1500,75))', got " + quote(text));
            Rules rules;
            std::string error;
            const std::string given = text_arg(text);
            if (!parse_rules_text(given, rules, error))
              notation_error("Rules.from_text(" + quote(text) + "): " + error);
            // Canonical text only, as in state strings (docs/game.md): the text rules.text writes.
            const std::string canonical = rules_text(rules);
            if (canonical != given)
              notation_error("Rules.from_text(" + quote(text) + "): not in canonical form (" +
                             quote(py::str(canonical)) + ")");
            return rules;
          },
          py::arg("text"),
          "The rules of a rules text, as rules.text writes it and the rules= field of a state "
          "string holds it: the preset, then ':knob=value' for each knob that differs from it, in "
          "the knob table's order ('brazilian:players=2:semi_clean_burraco_bonus=150'), in that "
          "canonical form only. Raises InvalidNotationError quoting the text if it is not one.")
      .def_property_readonly("text", [](const Rules& r) { return rules_text(r); },
                             "The rules as one line of text: the preset, then ':knob=value' for "
                             "each knob that differs from it (values as Python literals without "
                             "spaces). Rules.from_text(rules.text) == rules.")
      .def_property_readonly("preset",
                             [](const Rules& r) { return std::string(preset_name(r.preset)); },
                             "The preset the knobs start from: one of Rules.PRESETS.")
      .def("knobs",
           [](const Rules& r) -> KnobsResult {
             py::dict out;
             for (const KnobInfo& k : knob_table())
               if (k.name != "sides" || r.players == 6)
                 out[py::str(std::string(k.name))] = knob_value(r, k);
             return out;
           },
           "Every knob, name -> value, in the order of the knob table (RULES section G); each is "
           "also a property of the same name. `sides` is listed only with six players, where it "
           "is a choice.")
      .def("replace", [](const Rules& r, const py::kwargs& kw) { return rules_with(r, kw); },
           "A copy with some knobs changed: rules.replace(players=2); the same checks as the "
           "constructor.")
      .def("card_points", [](const Rules& r, CardArg c) { return r.card_points(card_from(c)); },
           py::arg("card"), "The card's points (RULES A.3, knob card_values).")
      .def_property_readonly("total_cards", &Rules::total_cards,
                             "Cards in the pack: 52 per deck plus the jokers.")
      .def_property_readonly("initial_stock", &Rules::initial_stock,
                             "Cards left in the stock after the deal (hands, pozzetti and the upcard).")
      .def("__repr__", &rules_repr)
      .def("__eq__", [](const Rules& a, AnyArg b) {
        return py::isinstance<Rules>(b) && a == b.cast<Rules>();
      })
      .def("__ne__", [](const Rules& a, AnyArg b) {
        return !(py::isinstance<Rules>(b) && a == b.cast<Rules>());
      })
      .def("__hash__", [](const Rules& r) {
        py::list values;
        values.append(py::str(std::string(preset_name(r.preset))));
        for (const KnobInfo& k : knob_table()) values.append(knob_value(r, k));
        return py::hash(py::tuple(values));
      })
      .def("__copy__", [](const Rules& r) { return r; })
      .def("__deepcopy__", [](const Rules& r, MemoArg) { return r; })
      .def("__reduce__", [](const Rules& r) -> ReduceResult {
        // Rules(preset, **overrides), through a private function (pickle passes no keywords).
        py::dict overrides;
        const Rules base = text_baseline(r);
        for (const KnobInfo& k : knob_table()) {
          py::object a = knob_value(r, k), b = knob_value(base, k);
          if (!a.equal(b)) overrides[py::str(std::string(k.name))] = a;
        }
        return py::make_tuple(core_attr("_restore_rules"),
                              py::make_tuple(std::string(preset_name(r.preset)), overrides));
      });
  m.def("_restore_rules", [](PickledArg preset, PickledArg overrides) {
    if (!py::isinstance<py::dict>(overrides)) state_error("pickled Rules: cannot restore from " + quote(overrides));
    return make_rules(preset, py::reinterpret_borrow<py::kwargs>(overrides));
  }, py::arg("preset"), py::arg("overrides"), "Unpickles Rules (what rules.__reduce__ names).");
  // Every knob is a read-only property whose docstring is its meaning in the knob table (the
  // names and texts are string literals there, so their data() ends with a NUL).
  // Each getter returns its kind's typed result, so help() shows `-> int`, `-> tuple[int, int]`.
  for (const KnobInfo& k : knob_table()) {
    const KnobInfo* knob = &k;
    auto def = [&](auto typed) {
      using Result = decltype(typed);
      rules_class.def_property_readonly(
          k.name.data(), [knob](const Rules& r) -> Result { return knob_value(r, *knob); },
          k.doc.data());
    };
    switch (k.type) {
      case KnobType::Bool: def(BoolKnobResult{}); break;
      case KnobType::Int: def(IntKnobResult{}); break;
      case KnobType::OptInt: def(OptIntKnobResult{}); break;
      case KnobType::Float: def(FloatKnobResult{}); break;
      case KnobType::Choice:
      case KnobType::Ranks: def(StrKnobResult{}); break;
      case KnobType::IntPair: def(IntPairKnobResult{}); break;
      case KnobType::Opening: def(OpeningKnobResult{}); break;
    }
  }
  // The presets, read from the core's one table of them (rules.hpp kPresets).
  py::list presets;
  for (const PresetInfo& preset : kPresets) presets.append(py::str(std::string(preset.name)));
  rules_class.attr("PRESETS") = py::tuple(presets);
  rules_class.def_static(
      "presets",
      []() -> PresetTitlesResult {
        py::dict titles;
        for (const PresetInfo& preset : kPresets)
          titles[py::str(std::string(preset.name))] = py::str(std::string(preset.title));
        return titles;
      },
      "Every preset's name and a one-line title for a menu ('italian-2p': 'Italian, two "
      "players'), in the order of Rules.PRESETS (a new dict).");
}

}  // namespace burraco_binding
