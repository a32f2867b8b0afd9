// burraco._core: the rules of a table (Rules).
#include "binding.hpp"


namespace burraco_binding {

// ---- rules ----------------------------------------------------------------------------------

py::object python_value(const KnobValue& v) {
  switch (v.kind) {
    case KnobValue::Kind::Bool: return py::bool_(v.flag);
    case KnobValue::Kind::Int: return py::int_(v.integer);
    case KnobValue::Kind::Real: return py::float_(v.real);
    case KnobValue::Kind::Text: return py::str(v.text);
    case KnobValue::Kind::Tuple: {
      py::tuple out(v.items.size());
      for (std::size_t i = 0; i < v.items.size(); ++i) out[i] = python_value(v.items[i]);
      return out;
    }
    default: return py::none();
  }
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

// A knob value as the core reads it: None, a bool, an index (int, NumPy ints), a real number, a
// str, or a tuple or list of such (read two levels deep: the opening steps' pairs).
KnobValue knob_input(py::handle value, int depth = 0) {
  KnobValue v;
  if (value.is_none()) {
    v.kind = KnobValue::Kind::None;
  } else if (knob_bool(value, v.flag)) {
    v.kind = KnobValue::Kind::Bool;
  } else if (py::isinstance<py::str>(value)) {
    Py_ssize_t size = 0;
    const char* text = PyUnicode_AsUTF8AndSize(value.ptr(), &size);
    if (text) v.text.assign(text, static_cast<std::size_t>(size));
    v.kind = text ? KnobValue::Kind::Text : KnobValue::Kind::Other;  // not text: a lone surrogate
    PyErr_Clear();
  } else if (py::isinstance<py::tuple>(value) || py::isinstance<py::list>(value)) {
    v.kind = KnobValue::Kind::Tuple;
    if (depth < 2)
      for (py::handle item : value) v.items.push_back(knob_input(item, depth + 1));
  } else {
    v.real_too = knob_real(value, v.real);
    if (index_int(value, v.integer)) v.kind = KnobValue::Kind::Int;
    else if (v.real_too) v.kind = KnobValue::Kind::Real;
  }
  return v;
}

Rules rules_with(const Rules& base, const py::kwargs& overrides) {
  std::vector<KnobOverride> knobs;
  std::vector<std::pair<py::handle, py::handle>> given;
  for (auto [name, value] : overrides) {
    knobs.push_back({text_arg(name), knob_input(value)});
    given.emplace_back(name, value);
  }
  Rules rules = base;
  const KnobRefusal refusal = override_knobs(rules, knobs);
  if (refusal.ok()) return rules;
  if (!refusal.refused.empty()) notation_error(refusal.refused);
  const auto [name, value] = given[refusal.index];
  if (refusal.unknown)
    notation_error("unknown rules knob " + quote(name) + " (see Rules().knobs())");
  const KnobType type = find_knob(knobs[refusal.index].name)->type;
  // A str is read as text first by the knobs that take one: a lone surrogate raises as such.
  if ((type == KnobType::Choice || type == KnobType::Ranks) && py::isinstance<py::str>(value))
    text_arg(value);
  notation_error("rules knob " + knobs[refusal.index].name + "=" + quote(value) + ": expected " +
                 refusal.expected);
}

Rules make_rules(py::handle preset, const py::kwargs& overrides) {
  if (!py::isinstance<py::str>(preset))
    notation_error("expected a preset name such as 'italian', got " + quote(preset));
  const auto base = preset_rules(text_arg(preset));
  if (!base)
    notation_error("unknown rules preset " + quote(preset) + " (presets: " + preset_names_text() +
                   ")");
  return rules_with(*base, overrides);
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
      .def(py::init([](py::handle preset, const py::kwargs& kw) { return make_rules(preset, kw); }),
           py::arg("preset") = "italian")
      .def_static(
          "from_text",
          [](py::handle text) {
            if (!py::isinstance<py::str>(text))
              notation_error("Rules.from_text: expected a rules text such as 'italian' or "
                             "'online-2p:opening_minimum=((0,50),(1500,75))', got " + quote(text));
            Rules rules;
            std::string error;
            if (!parse_canonical_rules_text(text_arg(text), rules, error))
              notation_error("Rules.from_text(" + quote(text) + "): " + error);
            return rules;
          }, py::arg("text"))
      .def_property_readonly("text", [](const Rules& r) { return rules_text(r); })
      .def_property_readonly("preset",
                             [](const Rules& r) { return std::string(preset_name(r.preset)); })
      .def("knobs",
           [](const Rules& r) -> py::object {
             py::dict out;
             for (const KnobInfo& k : knob_table())
               if (knob_listed(r, k))
                 out[py::str(std::string(k.name))] = python_value(knob_value(r, k));
             return out;
           })
      .def("replace", [](const Rules& r, const py::kwargs& kw) { return rules_with(r, kw); })
      .def("card_points", [](const Rules& r, py::handle c) { return r.card_points(card_from(c)); },
           py::arg("card"))
      .def_property_readonly("total_cards", &Rules::total_cards)
      .def_property_readonly("initial_stock", &Rules::initial_stock)
      .def("__repr__", &rules_repr);
  value_class<const Rules&>(
      rules_class, std::equal_to<Rules>(),
      [](const Rules& r) {
        py::list values;
        values.append(py::str(std::string(preset_name(r.preset))));
        for (const KnobInfo& k : knob_table()) values.append(python_value(knob_value(r, k)));
        return py::hash(py::tuple(values));
      },
      [](const Rules& r) { return r; },
      [](const Rules& r) -> py::object {
        // Rules(preset, **overrides), through a private function (pickle passes no keywords).
        py::dict overrides;
        for (const KnobInfo* k : changed_knobs(r))
          overrides[py::str(std::string(k->name))] = python_value(knob_value(r, *k));
        return reduce_with("rules_of_overrides", "Rules", std::string(preset_name(r.preset)),
                           overrides);
      });
  // Every knob is a read-only property whose docstring is its meaning in the knob table (the
  // names and texts are string literals there, so their data() ends with a NUL).
  for (const KnobInfo& k : knob_table()) {
    const KnobInfo* knob = &k;
    rules_class.def_property_readonly(
        k.name.data(), [knob](const Rules& r) { return python_value(knob_value(r, *knob)); },
        k.doc.data());
  }
  // The presets, read from the core's one table of them (rules.hpp kPresets).
  py::list presets;
  for (const PresetInfo& preset : kPresets) presets.append(py::str(std::string(preset.name)));
  rules_class.attr("PRESETS") = py::tuple(presets);
  rules_class.def_static(
      "presets",
      []() -> py::object {
        py::dict titles;
        for (const PresetInfo& preset : kPresets)
          titles[py::str(std::string(preset.name))] = py::str(std::string(preset.title));
        return titles;
      });
}

}  // namespace burraco_binding
