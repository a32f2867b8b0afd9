// burraco._core: melds on the table (Meld, Melds).
#include "binding.hpp"

#include "burraco/meld_view.hpp"

namespace burraco_binding {

namespace {

// Raises a refusal of the engine (burraco/meld_view.hpp) quoting `input`.
[[noreturn]] void refuse(py::handle input, const MeldRefusal& r) {
  static constexpr const char* kTypes[] = {"InvalidNotationError", "InvalidMeldError",
                                           "IllegalMoveError"};
  raise(kTypes[r.kind], r.before + quote(input) + r.after);
}

PyMeld meld_from(py::handle cards, const RulesPtr& rules) {
  if (py::isinstance<PyMeld>(cards)) {
    PyMeld m = cards.cast<PyMeld>();
    if (!same_rules(m.rules, rules))
      notation_error(quote(cards) + " was made under other rules than " + rules_repr(*rules));
    return m;
  }
  if (py::isinstance<py::str>(cards) && is_layout_text(text_arg(cards)))
    return meld_from_layout(cards, rules);
  const MeldResult r = make_meld(cards_from(cards, rules->decks), *rules);
  if (!r.ok()) refuse(cards, meld_refusal(r.error, false));
  return {r.meld, rules};
}

// ", Rules(...)" for a repr, empty under the Italian rules.
std::string rules_suffix(const RulesPtr& rules) {
  return same_rules(rules, italian_rules()) ? "" : ", " + rules_repr(*rules);
}

int melds_index(const PyMelds& m, py::handle index) {
  if (!is_int(index)) raise("IllegalMoveError", "meld index " + quote(index) + " is not an integer");
  long long i = -1;
  if (!small_int(index, i) || i < 0 || i >= m.side.count)
    refuse(index, no_meld_refusal(m.side.count));
  return static_cast<int>(i);
}

}  // namespace

PyMeld meld_from_layout(py::handle text, const RulesPtr& rules) {
  if (!py::isinstance<py::str>(text))
    notation_error("expected a meld layout string such as 'Jk(=4d) 5d 6d', got " + quote(text));
  const MeldResult r = parse_layout(text_arg(text), *rules);
  if (!r.ok()) refuse(text, meld_refusal(r.error, true));
  return {r.meld, rules};
}

void bind_melds(py::module_& m) {
  // ---- Meld ----
  // Another class answers for itself (NotImplemented): burraco.reference's Meld compares
  // equal to the core's meld of the same layout and rules, and hashes its layout too.
  value_class<const PyMeld&>(
      bound_class<PyMeld>(m, "Meld"),
      [](const PyMeld& a, const PyMeld& b) {
        return a.meld == b.meld && same_rules(a.rules, b.rules);
      },
      [](const PyMeld& s) { return py::hash(py::str(layout(s.meld))); },
      [](const PyMeld& s) { return s; },
      [](const PyMeld& s) -> py::object {
        return reduce_with("meld_of_layout", "Meld", layout(s.meld),
                           std::const_pointer_cast<Rules>(s.rules));
      })
      .def(py::init([](py::handle cards, py::handle rules) {
             return meld_from(cards, rules_from(rules));
           }), py::arg("cards"), py::arg("rules") = py::none())
      .def_static("from_layout",
                  [](py::handle text, py::handle rules) {
                    return meld_from_layout(text, rules_from(rules));
                  }, py::arg("layout"), py::arg("rules") = py::none())
      .def_static("is_valid",
                  [](py::handle cards, py::handle rules) {
                    const RulesPtr r = rules_from(rules);
                    if (!py::isinstance<py::str>(cards) || !is_layout_text(text_arg(cards)))
                      return make_meld(cards_from(cards, r->decks), *r).ok();
                    const MeldResult layout_result = parse_layout(text_arg(cards), *r);
                    if (layout_result.error == MeldError::BadNotation)
                      refuse(cards, meld_refusal(layout_result.error, true));
                    return layout_result.ok();
                  }, py::arg("cards"), py::arg("rules") = py::none())
      .def("add",
           [](const PyMeld& self, py::handle card) {
             const MeldResult r = lay_off(self.meld, card_from(card), *self.rules);
             if (!r.ok()) refuse(card, lay_off_refusal(self.meld, r.error));
             return PyMeld{r.meld, self.rules};
           }, py::arg("card"))
      .def("can_add",
           [](const PyMeld& self, py::handle card) {
             return can_lay_off(self.meld, card_from(card), *self.rules);
           }, py::arg("card"))
      .def_property_readonly("kind", [](const PyMeld& s) { return kind_name(s.meld.kind); })
      .def_property_readonly("suit",
           [](const PyMeld& s) -> py::object { return optional_str(run_suit_text(s.meld)); })
      .def_property_readonly("rank",
           [](const PyMeld& s) -> py::object { return optional_str(set_rank_text(s.meld)); })
      .def_property_readonly("layout", [](const PyMeld& s) { return layout(s.meld); })
      .def_property_readonly("cards", [](const PyMeld& s) { return cards_object(s.meld.cards, s.rules->decks); })
      .def_property_readonly("wild", [](const PyMeld& s) -> py::object {
        return s.meld.has_wild() ? py::cast(s.meld.wild) : py::object(py::none());
      })
      .def_property_readonly("wild_state", [](const PyMeld& s) -> py::object {
        return optional_str(wild_state_name(s.meld.wild_state));
      })
      .def_property_readonly("span", [](const PyMeld& s) -> py::object {
        return s.meld.kind == MeldKind::Run ? py::object(py::make_tuple(s.meld.lo, s.meld.hi))
                                            : py::object(py::none());
      })
      .def_property_readonly("is_clean", [](const PyMeld& s) { return s.meld.is_clean(); })
      .def_property_readonly("burraco", [](const PyMeld& s) -> py::object {
        return optional_str(burraco_class_name(s.meld.classify(*s.rules)));
      })
      .def_property_readonly("points", [](const PyMeld& s) { return s.meld.points(*s.rules); })
      .def_property_readonly("bonus", [](const PyMeld& s) { return s.meld.bonus(*s.rules); })
      .def_property_readonly("rules", [](const PyMeld& s) { return std::const_pointer_cast<Rules>(s.rules); })
      .def("__len__", [](const PyMeld& s) { return s.meld.size(); })
      .def("__iter__", [](const PyMeld& s) -> py::object {
        return py::iter(py::cast(cards_in_order(s.meld)));
      })
      .def("__str__", [](const PyMeld& s) { return layout(s.meld); })
      .def("__repr__", [](const PyMeld& s) {
        return meld_repr(s.meld, *s.rules, rules_suffix(s.rules));
      });


  // ---- Melds ----
  value_class<const PyMelds&>(
      bound_class<PyMelds>(m, "Melds"),
      [](const PyMelds& a, const PyMelds& b) {
        return a.side == b.side && same_rules(a.rules, b.rules);
      },
      [](const PyMelds& s) { return py::hash(py::tuple(py::cast(layouts(s.side)))); },
      [](const PyMelds& s) { return s; },
      [](const PyMelds& s) -> py::object {
        const auto rules = std::const_pointer_cast<Rules>(s.rules);
        return py::make_tuple(core_attr("Melds"), py::make_tuple(py::cast(layouts(s.side)), rules));
      })
      .def(py::init([](py::handle melds, py::handle rules_obj) {
             PyMelds out{SideMelds{}, rules_from(rules_obj)};
             if (melds.is_none()) return out;
             if (py::isinstance<py::str>(melds) || !py::hasattr(melds, "__iter__"))
               notation_error("expected a list of melds (Meld objects or layouts), got " +
                              quote(melds));
             for (py::handle item : melds) {
               const PyMeld one = py::isinstance<PyMeld>(item) ? meld_from(item, out.rules)
                                                               : meld_from_layout(item, out.rules);
               if (out.side.count >= SideMelds::kCapacity) notation_error(too_many_melds_text());
               out.side.append(one.meld);
             }
             return out;
           }), py::arg("melds") = py::none(), py::arg("rules") = py::none())
      .def("meld",
           [](const PyMelds& self, py::handle cards) {
             const CardSet set = cards_from(cards, self.rules->decks);
             const MeldResult r = self.side.check_new(set, *self.rules);
             if (!r.ok()) refuse(cards, side_meld_refusal(r.error));
             PyMelds out = self;
             out.side.append(r.meld);
             return out;
           }, py::arg("cards"))
      .def("can_meld",
           [](const PyMelds& self, py::handle cards) {
             return self.side.check_new(cards_from(cards, self.rules->decks), *self.rules).ok();
           }, py::arg("cards"))
      .def("add",
           [](const PyMelds& self, py::handle index, py::handle card) {
             const int i = melds_index(self, index);
             const MeldResult r = lay_off(self.side.melds[i], card_from(card), *self.rules);
             if (!r.ok()) refuse(card, lay_off_refusal(self.side.melds[i], r.error, i));
             PyMelds out = self;
             out.side.melds[i] = r.meld;
             return out;
           }, py::arg("index"), py::arg("card"))
      .def("can_add",
           [](const PyMelds& self, py::handle index, py::handle card) {
             long long i = -1;
             if (!small_int(index, i) || i < 0 || i >= self.side.count) return false;
             return can_lay_off(self.side.melds[i], card_from(card), *self.rules);
           }, py::arg("index"), py::arg("card"))
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
           [](const PyMelds& s) -> py::object {
             py::list out;
             for (int i = 0; i < s.side.count; ++i) out.append(py::cast(PyMeld{s.side.melds[i], s.rules}));
             return py::iter(out);
           })
      .def("__repr__", [](const PyMelds& s) { return melds_repr(s.side, rules_suffix(s.rules)); });

}

}  // namespace burraco_binding
