// burraco._core: cards (Card, Cards) and the errors every part raises.
#include "binding.hpp"

#include <map>
#include <string_view>

#include "burraco/pack.hpp"

namespace burraco_binding {

// ---- errors ---------------------------------------------------------------------------------

[[noreturn]] void raise(const char* type, const std::string& message) {
  // Each class looked up once; never freed (the module keeps the classes alive).
  static auto* types = new std::map<std::string, py::object, std::less<>>();
  py::object& slot = (*types)[type];
  if (!slot) slot = py::module_::import("burraco._errors").attr(type);
  py::set_error(slot, message.c_str());
  throw py::error_already_set();
}
[[noreturn]] void notation_error(const std::string& message) {
  raise("InvalidNotationError", message);
}

namespace {

// The UTF-8 of a str, or false (the Python error cleared) when it holds a lone surrogate.
bool utf8_of(PyObject* text, std::string& out) {
  Py_ssize_t size = 0;
  const char* bytes = PyUnicode_AsUTF8AndSize(text, &size);
  if (bytes == nullptr) {
    PyErr_Clear();
    return false;
  }
  out.assign(bytes, static_cast<std::size_t>(size));
  return true;
}

}  // namespace

std::string type_name_of(py::handle obj) {
  std::string name;
  const py::object type_name = py::type::handle_of(obj).attr("__name__");
  if (!PyUnicode_Check(type_name.ptr()) || !utf8_of(type_name.ptr(), name)) name = "?";
  return name;
}

std::string quote(py::handle obj) {
  for (auto* make : {PyObject_Repr, PyObject_ASCII}) {
    PyObject* text = make(obj.ptr());
    if (text == nullptr) {  // a __repr__ that raises: name the type instead
      PyErr_Clear();
      return "<a " + type_name_of(obj) + " whose repr() raises>";
    }
    std::string out;
    const bool ok = PyUnicode_Check(text) && utf8_of(text, out);
    Py_DECREF(text);
    if (ok) return out;
  }
  return "<a " + type_name_of(obj) + ">";
}

std::string text_arg(py::handle obj) {
  if (!PyUnicode_Check(obj.ptr())) return obj.cast<std::string>();
  std::string out;
  if (!utf8_of(obj.ptr(), out))
    notation_error(quote(obj) + " is not valid text: it holds a lone surrogate, which no notation uses");
  return out;
}
[[noreturn]] void illegal(const std::string& message) { raise("IllegalMoveError", message); }

[[noreturn]] void state_error(const std::string& message) { raise("InvalidStateError", message); }

py::object core_attr(const char* name) { return py::module_::import("burraco._core").attr(name); }

// ---- cards ----------------------------------------------------------------------------------

Card card_from(py::handle obj) {
  if (py::isinstance<Card>(obj)) return obj.cast<Card>();
  if (!py::isinstance<py::str>(obj))
    notation_error("expected a card such as 'Qh' or 'Jk', got " + quote(obj));
  const auto card = parse_card(text_arg(obj));
  if (!card) notation_error(quote(obj) + " is not a card: " + std::string(kCardHelp));
  return *card;
}

CardSet cards_from(py::handle obj, int decks) {
  if (py::isinstance<CardSet>(obj)) return obj.cast<CardSet>();
  CardList list(decks);
  std::string text;  // the words list.bad_word() points into
  bool read = true;
  if (py::isinstance<py::str>(obj)) {
    read = list.add_text(text = text_arg(obj));
  } else {
    if (obj.is_none() || py::isinstance<py::bytes>(obj) || !py::hasattr(obj, "__iter__"))
      notation_error("expected cards as a string such as '5h 6h 7h' or an iterable of cards, got " +
                     quote(obj));
    for (py::handle item : obj)
      if (!(read = list.add(card_from(item)))) break;
  }
  if (!read) notation_error(quote(obj) + list.why(quote(py::str(std::string(list.bad_word())))));
  return list.cards();
}

namespace {

constexpr const char* kDecksKey = "_decks";

// The pack of a Cards object: the one it was made with (decks=3 is kept in its instance dict),
// and at least the one its cards need (a Cards an engine returns carries no pack of its own).
int pack_of(py::handle obj) {
  int decks = 2;
  if (PyObject* dict = PyObject_GenericGetDict(obj.ptr(), nullptr)) {
    PyObject* value = PyDict_GetItemString(dict, kDecksKey);  // borrowed
    if (value && PyLong_Check(value)) decks = static_cast<int>(PyLong_AsLong(value));
    Py_DECREF(dict);
  } else {
    PyErr_Clear();
  }
  return std::max(decks, pack_needed(obj.cast<CardSet>()));
}

// Writes a three-deck pack into the instance dict of the Cards `self` (two decks are not written).
void keep_pack(PyObject* self, int decks) {
  if (decks == 2) return;
  py::object dict = py::reinterpret_steal<py::object>(PyObject_GenericGetDict(self, nullptr));
  if (!dict) throw py::error_already_set();
  dict[kDecksKey] = decks;
}

int decks_arg(py::handle decks) {
  long long v = 0;
  if (py::isinstance<py::bool_>(decks) || !py::isinstance<py::int_>(decks) || !small_int(decks, v) ||
      !valid_decks(v))
    notation_error(quote(decks) + " is not a number of decks: expected 2 or 3");
  return static_cast<int>(v);
}

py::list cards_list(CardSet set) {
  py::list out;
  set.for_each([&](Card c) { out.append(py::cast(c)); });
  return out;
}

// An operator of Cards (burraco/pack.hpp): an operand that is not a Cards is read with this Cards'
// pack; a result may hold the larger pack of its operands (docs/api.md "Cards").
template <CardsOp op>
py::object cards_op(py::handle self, py::handle other) {
  const CardSet a = self.cast<CardSet>();
  const int decks = pack_of(self);
  const bool is_cards = py::isinstance<CardSet>(other);
  const CardSet b = cards_from(other, decks);
  const CardsOpResult r = combine(op, a, decks, b, is_cards ? pack_of(other) : decks);
  if (!r.ok) notation_error(combine_refusal(op, a, b, r.decks, quote(other)));
  return cards_object(r.cards, r.decks);
}

template <CardsCompare how>
bool cards_compare(py::handle self, py::handle other) {
  return compare(how, self.cast<CardSet>(), cards_from(other, pack_of(self)));
}

}  // namespace

// A new Cards object of `set` whose pack is `decks` (only a three-deck pack is written down).
py::object cards_object(CardSet set, int decks) {
  py::object out = py::cast(set);
  keep_pack(out.ptr(), decks);
  return out;
}

void bind_cards(py::module_& m) {
  // ---- Card ----
  // Another class answers for itself (NotImplemented): burraco.reference's Card compares
  // equal to the core's card it prints as, and hashes as it does (its index).
  value_class<Card>(
      bound_class<Card>(m, "Card"), std::equal_to<Card>(),
      [](Card c) { return static_cast<int>(c.index); }, [](Card c) { return c; },
      [](Card c) -> py::object {
        return py::make_tuple(core_attr("Card"), py::make_tuple(card_name(c)));
      })
      .def(py::init([](py::handle obj) { return card_from(obj); }), py::arg("card"))
      .def_static(
          "from_index",
          [](py::handle i) {
            long long v = -1;
            if (!small_int(i, v) || v < 0 || v >= kKinds)
              notation_error("card index " + quote(i) + " is not in 0..52");
            return Card(static_cast<std::uint8_t>(v));
          }, py::arg("index"))
      .def_property_readonly("index", [](Card c) { return static_cast<int>(c.index); })
      .def_property_readonly("rank",
                             [](Card c) -> py::object { return optional_str(rank_text(c)); })
      .def_property_readonly("suit",
                             [](Card c) -> py::object { return optional_str(suit_text(c)); })
      .def_property_readonly("rank_value", [](Card c) { return c.is_joker() ? 0 : c.rank(); })
      .def_property_readonly("is_joker", &Card::is_joker)
      .def_property_readonly("is_two", &Card::is_two)
      .def_property_readonly("is_wild", &Card::is_wild)
      .def("__str__", &card_name)
      .def("__repr__", &card_repr)
      .def("__lt__", [](Card a, Card b) { return a < b; })
      .def("__le__", [](Card a, Card b) { return a <= b; })
      .def("__gt__", [](Card a, Card b) { return a > b; })
      .def("__ge__", [](Card a, Card b) { return a >= b; });

  // ---- Cards ----
  // The hash of the card indices in canonical order, as burraco.reference's Cards hashes:
  // the two engines' multisets that print the same compare equal (the reference answers for
  // itself, as this one answers NotImplemented to a class it does not know).
  value_class<py::handle>(
      bound_class<CardSet>(m, "Cards"), std::equal_to<CardSet>(),
      [](py::handle self) {
        py::list indices;
        self.cast<CardSet>().for_each([&](Card c) { indices.append(py::int_(c.index)); });
        return py::hash(py::tuple(indices));
      },
      [](py::handle self) { return cards_object(self.cast<CardSet>(), pack_of(self)); },
      [](py::handle self) -> py::object {
        const std::string text = cards_text(self.cast<CardSet>());
        const int decks = pack_of(self);
        if (decks == 2) return py::make_tuple(core_attr("Cards"), py::make_tuple(text));
        return reduce_with("cards_of_pack", "Cards", text, decks);
      })
      // A constructor as py::init makes one (the value, then pybind11 builds the holder), which
      // also writes a three-deck pack into the new instance's dict.
      .def("__init__",
           [](py::detail::value_and_holder& v_h, py::handle obj, py::handle decks_obj) {
             const int decks = decks_arg(decks_obj);
             const CardSet set = cards_from(obj, decks);
             keep_pack(reinterpret_cast<PyObject*>(v_h.inst), decks);
             v_h.value_ptr() = new CardSet(set);
           },
           py::detail::is_new_style_constructor(), py::arg("cards") = "", py::kw_only(),
           py::arg("decks") = 2)
      .def_property_readonly("decks",
                             py::cpp_function([](py::handle self) { return pack_of(self); },
                                              py::arg("self")))
      .def("__setattr__", [](py::handle, py::handle name, py::handle) {
             throw py::attribute_error("Cards is immutable: cannot set " + quote(name));
           }, py::arg("name"), py::arg("value"))
      .def("__delattr__", [](py::handle, py::handle name) {
             throw py::attribute_error("Cards is immutable: cannot delete " + quote(name));
           }, py::arg("name"))
      .def("__len__", &CardSet::size)
      .def("__bool__", [](CardSet s) { return !s.empty(); })
      .def("__iter__", [](CardSet s) -> py::object { return py::iter(cards_list(s)); })
      .def("__contains__", [](CardSet s, py::handle c) { return s.count(card_from(c)) > 0; })
      .def("count", [](CardSet s, py::handle c) { return s.count(card_from(c)); },
           py::arg("card"))
      .def("distinct", [](CardSet s) -> py::object { return py::tuple(cards_list(s.distinct())); })
      .def("__str__", &cards_text)
      .def("__repr__",
           [](py::handle self) { return cards_repr(self.cast<CardSet>(), pack_of(self)); })
      .def("__le__", &cards_compare<CardsCompare::Le>)
      .def("__lt__", &cards_compare<CardsCompare::Lt>)
      .def("__ge__", &cards_compare<CardsCompare::Ge>)
      .def("__gt__", &cards_compare<CardsCompare::Gt>)
      .def("__add__", &cards_op<CardsOp::Add>)
      .def("__radd__", &cards_op<CardsOp::ReflectedAdd>)
      .def("__sub__", &cards_op<CardsOp::Sub>)
      .def("__or__", &cards_op<CardsOp::Or>)
      .def("__and__", &cards_op<CardsOp::And>);


}

}  // namespace burraco_binding
