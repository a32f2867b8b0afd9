// burraco._core: cards (Card, Cards) and the errors every part raises.
#include "binding.hpp"

#include <string_view>

namespace burraco_binding {

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

[[noreturn]] void state_error(const std::string& message) {
  static py::object type = py::module_::import("burraco._errors").attr("InvalidStateError");
  py::set_error(type, message.c_str());
  throw py::error_already_set();
}

py::object core_attr(const char* name) { return py::module_::import("burraco._core").attr(name); }

// ---- cards ----------------------------------------------------------------------------------

constexpr const char* kCardHelp = "a card is a rank (A 2-9 T J Q K) and a suit (c d h s), or Jk";

Card card_from(py::handle obj) {
  if (py::isinstance<Card>(obj)) return obj.cast<Card>();
  if (!py::isinstance<py::str>(obj))
    notation_error("expected a card such as 'Qh' or 'Jk', got " + quote(obj));
  const auto card = parse_card(text_arg(obj));
  if (!card) notation_error(quote(obj) + " is not a card: " + kCardHelp);
  return *card;
}

// A card list holds at most the copies of its pack: two decks unless told three (RULES A.1).
int copy_limit(Card card, int decks) { return card.is_joker() ? 2 * decks : decks; }
bool add_copy(CardSet& set, Card card, int decks) {
  return set.add(card) && set.count(card) <= copy_limit(card, decks);
}

std::string copies_message(py::handle input, Card card, int count, int decks) {
  return quote(input) + ": " + std::to_string(count) + " copies of " + card_name(card) +
         " (at most " + std::to_string(copy_limit(card, decks)) +
         (decks == 2 ? std::string() : " with " + std::to_string(decks) + " decks") + ")";
}

CardSet cards_from(py::handle obj, int decks) {
  if (py::isinstance<CardSet>(obj)) return obj.cast<CardSet>();
  CardSet set;
  // The copies of the card that passes the limit: those read before it, and this one (the set may
  // be at its capacity, three, and refuse it).
  auto add = [&](Card card) {
    const int before = set.count(card);
    if (!add_copy(set, card, decks)) notation_error(copies_message(obj, card, before + 1, decks));
  };
  if (py::isinstance<py::str>(obj)) {
    const std::string text = text_arg(obj);
    for (std::string_view word : split_words(text)) {
      const auto card = parse_card(word);
      if (!card)
        notation_error(quote(obj) + ": " + quote(py::str(std::string(word))) +
                       " is not a card (" + kCardHelp + ")");
      add(*card);
    }
    return set;
  }
  if (obj.is_none() || py::isinstance<py::bytes>(obj) || !py::hasattr(obj, "__iter__"))
    notation_error("expected cards as a string such as '5h 6h 7h' or an iterable of cards, got " +
                   quote(obj));
  for (py::handle item : obj) add(card_from(item));
  return set;
}

namespace {

constexpr const char* kDecksKey = "_decks";

// The smallest pack (2 or 3 decks) that holds these cards.
int pack_needed(CardSet set) { return set.within(kTwoDeckCopies, kTwoDeckJokers) ? 2 : 3; }

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

}  // namespace

// A new Cards object of `set` whose pack is `decks` (only a three-deck pack is written down).
CardsResult cards_object(CardSet set, int decks) {
  py::object out = py::cast(set);
  if (decks > 2) {
    py::object dict = py::reinterpret_steal<py::object>(PyObject_GenericGetDict(out.ptr(), nullptr));
    if (!dict) throw py::error_already_set();
    dict[kDecksKey] = decks;
  }
  return out;
}

namespace {

int decks_arg(py::handle decks) {
  long long v = 0;
  if (py::isinstance<py::bool_>(decks) || !py::isinstance<py::int_>(decks) || !small_int(decks, v) ||
      (v != 2 && v != 3))
    notation_error(quote(decks) + " is not a number of decks: expected 2 or 3");
  return static_cast<int>(v);
}

// The other operand of an operator, read with the pack of `decks` decks, and its pack.
std::pair<CardSet, int> operand(py::handle other, int decks) {
  if (py::isinstance<CardSet>(other)) return {other.cast<CardSet>(), pack_of(other)};
  return {cards_from(other, decks), decks};
}

}  // namespace

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

void bind_cards(py::module_& m) {
  // ---- Card ----
  bound_class<Card>(m, "Card")
      .def(py::init([](CardArg obj) { return card_from(obj); }), py::arg("card"),
           "Card('Qh'), or a Card (copied); the text is lenient ('qh', '10h', 'JK'). "
           "InvalidNotationError if it is not a card.")
      .def_static(
          "from_index",
          [](IntArg i) {
            long long v = -1;
            if (!small_int(i, v) || v < 0 || v >= kKinds)
              notation_error("card index " + quote(i) + " is not in 0..52");
            return Card(static_cast<std::uint8_t>(v));
          },
          py::arg("index"), "The card of canonical index 0..52 (13 * suit + rank - 1; the joker is 52).")
      .def_property_readonly("index", [](Card c) { return static_cast<int>(c.index); },
                             "Canonical index: 13 * suit + rank - 1; the joker is 52.")
      .def_property_readonly(
          "rank",
          [](Card c) -> OptStrResult {
            return c.is_joker() ? py::object(py::none())
                                : py::object(py::str(std::string(1, rank_char(c.rank()))));
          },
          "'A', '2', ..., 'K'; None for the joker.")
      .def_property_readonly(
          "suit",
          [](Card c) -> OptStrResult {
            return c.is_joker() ? py::object(py::none())
                                : py::object(py::str(std::string(1, kSuitChars[c.suit()])));
          },
          "'c', 'd', 'h' or 's'; None for the joker.")
      .def_property_readonly("rank_value", [](Card c) { return c.is_joker() ? 0 : c.rank(); },
                             "A=1 ... K=13; 0 for the joker.")
      .def_property_readonly("is_joker", &Card::is_joker, "True for the joker (Jk).")
      .def_property_readonly("is_two", &Card::is_two, "True for a two of any suit (a wild card, or natural in its run).")
      .def_property_readonly("is_wild", &Card::is_wild,
                             "A joker or any two (wild in hand, RULES A.4).")
      .def("__str__", [](Card c) { return card_name(c); })
      .def("__repr__", [](Card c) { return "Card('" + card_name(c) + "')"; })
      // Another class answers for itself (NotImplemented): burraco.reference's Card compares
      // equal to the core's card it prints as, and hashes as it does (its index).
      .def("__hash__", [](Card c) { return static_cast<int>(c.index); })
      .def("__eq__", [](Card a, AnyArg b) -> BoolOrNotImplemented {
        if (!py::isinstance<Card>(b)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
        return py::bool_(a == b.cast<Card>());
      })
      .def("__ne__", [](Card a, AnyArg b) -> BoolOrNotImplemented {
        if (!py::isinstance<Card>(b)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
        return py::bool_(!(a == b.cast<Card>()));
      })
      .def("__lt__", [](Card a, Card b) { return a < b; })
      .def("__le__", [](Card a, Card b) { return a <= b; })
      .def("__gt__", [](Card a, Card b) { return a > b; })
      .def("__ge__", [](Card a, Card b) { return a >= b; })
      .def("__copy__", [](Card c) { return c; })
      .def("__deepcopy__", [](Card c, MemoArg) { return c; })
      .def("__reduce__", [](Card c) -> ReduceResult {
        return py::make_tuple(core_attr("Card"), py::make_tuple(card_name(c)));
      });

  // ---- Cards ----
  bound_class<CardSet>(m, "Cards")
      // A constructor as py::init makes one (the value, then pybind11 builds the holder), which
      // also writes a three-deck pack into the new instance's dict.
      .def("__init__",
           [](py::detail::value_and_holder& v_h, CardsArg obj, IntArg decks_obj) {
             const int decks = decks_arg(decks_obj);
             const CardSet set = cards_from(obj, decks);
             if (decks > 2) {
               PyObject* self = reinterpret_cast<PyObject*>(v_h.inst);
               py::object dict = py::reinterpret_steal<py::object>(PyObject_GenericGetDict(self, nullptr));
               if (!dict) throw py::error_already_set();
               dict[kDecksKey] = decks;
             }
             v_h.value_ptr() = new CardSet(set);
           },
           py::detail::is_new_style_constructor(), py::arg("cards") = "", py::kw_only(),
           py::arg("decks") = 2,
           "Cards('5h 6h Jk'), Cards(['5h', Card('6h')]), Cards() (empty); at most two copies "
           "of a card and four jokers (two decks), else InvalidNotationError. "
           "Cards(text, decks=3) allows a three-deck pack's 3 copies and 6 jokers (RULES A.1).")
      .def_property_readonly("decks",
                             py::cpp_function([](py::handle self) { return pack_of(self); },
                                              py::arg("self")),
                             "The pack whose copies this multiset may hold: 2 decks, or 3 (made "
                             "with decks=3, or holding more than two decks have).")
      .def("__setattr__", [](py::handle, StrArg name, PickledArg) {
             throw py::attribute_error("Cards is immutable: cannot set " + quote(name));
           }, py::arg("name"), py::arg("value"))
      .def("__delattr__", [](py::handle, StrArg name) {
             throw py::attribute_error("Cards is immutable: cannot delete " + quote(name));
           }, py::arg("name"))
      .def("__len__", &CardSet::size)
      .def("__bool__", [](CardSet s) { return !s.empty(); })
      .def("__iter__", [](CardSet s) -> CardIterResult { return py::iter(cards_list(s)); })
      .def("__contains__", [](CardSet s, CardArg c) { return s.count(card_from(c)) > 0; })
      .def("count", [](CardSet s, CardArg c) { return s.count(card_from(c)); },
           py::arg("card"), "How many copies of the card the multiset holds.")
      .def("distinct",
           [](CardSet s) -> CardTupleResult { return py::tuple(cards_list(s.distinct())); },
           "The distinct cards, in canonical order.")
      .def("__str__", &cards_text)
      .def("__repr__", [](py::handle self) {
        const int decks = pack_of(self);
        return "Cards('" + cards_text(self.cast<CardSet>()) + "'" +
               (decks == 2 ? std::string() : ", decks=" + std::to_string(decks)) + ")";
      })
      // The hash of the card indices in canonical order, as burraco.reference's Cards hashes:
      // the two engines' multisets that print the same compare equal (the reference answers for
      // itself, as this one answers NotImplemented to a class it does not know).
      .def("__hash__", [](CardSet s) {
        py::list indices;
        s.for_each([&](Card c) { indices.append(py::int_(c.index)); });
        return py::hash(py::tuple(indices));
      })
      .def("__eq__", [](CardSet a, AnyArg b) -> BoolOrNotImplemented {
        if (!py::isinstance<CardSet>(b)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
        return py::bool_(a == b.cast<CardSet>());
      })
      .def("__ne__", [](CardSet a, AnyArg b) -> BoolOrNotImplemented {
        if (!py::isinstance<CardSet>(b)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
        return py::bool_(!(a == b.cast<CardSet>()));
      })
      // An operand that is not a Cards is read with this Cards' pack; a result may hold the
      // larger pack of its operands (docs/api.md "Cards").
      .def("__le__", [](py::handle a, CardsArg b) {
        return a.cast<CardSet>().subset_of(operand(b, pack_of(a)).first);
      })
      .def("__lt__", [](py::handle a, CardsArg b) {
        const CardSet x = a.cast<CardSet>(), o = operand(b, pack_of(a)).first;
        return x.subset_of(o) && !(x == o);
      })
      .def("__ge__", [](py::handle a, CardsArg b) {
        return operand(b, pack_of(a)).first.subset_of(a.cast<CardSet>());
      })
      .def("__gt__", [](py::handle a, CardsArg b) {
        const CardSet x = a.cast<CardSet>(), o = operand(b, pack_of(a)).first;
        return o.subset_of(x) && !(x == o);
      })
      .def("__add__",
           [](py::handle self, CardsArg b) {
             const CardSet a = self.cast<CardSet>();
             const int decks_a = pack_of(self);
             const auto [o, decks_b] = operand(b, decks_a);
             const int decks = std::max(decks_a, decks_b);
             CardSet out;
             if (!a.sum(o, out) || !out.within(decks, 2 * decks)) {
               // Name the first kind that would pass its limit.
               std::string which;
               int count = 0;
               o.for_each([&](Card c) {
                 if (which.empty() && a.count(c) + o.count(c) > copy_limit(c, decks)) {
                   which = card_name(c);
                   count = a.count(c) + o.count(c);
                 }
               });
               notation_error("Cards('" + cards_text(a) + "') + " + quote(b) + ": " +
                              std::to_string(count) + " copies of " + which + " (at most " +
                              std::to_string(which == "Jk" ? 2 * decks : decks) +
                              (decks == 2 ? std::string() : " with " + std::to_string(decks) + " decks") +
                              "), more than " + std::to_string(decks) + " decks hold");
             }
             return cards_object(out, decks);
           })
      .def("__radd__",
           [](py::handle self, CardsArg b) {
             const CardSet a = self.cast<CardSet>();
             const int decks_a = pack_of(self);
             const auto [o, decks_b] = operand(b, decks_a);
             const int decks = std::max(decks_a, decks_b);
             CardSet out;
             if (!o.sum(a, out) || !out.within(decks, 2 * decks))
               notation_error(quote(b) + " + Cards('" + cards_text(a) + "'): more copies than " +
                              std::to_string(decks) + " decks hold");
             return cards_object(out, decks);
           })
      .def("__sub__",
           [](py::handle self, CardsArg b) {
             const CardSet a = self.cast<CardSet>();
             const int decks_a = pack_of(self);
             const auto [o, decks_b] = operand(b, decks_a);
             CardSet out;
             if (!a.difference(o, out))
               notation_error("Cards('" + cards_text(a) + "') - " + quote(b) + ": " + quote(b) +
                              " is not contained in Cards('" + cards_text(a) + "')");
             return cards_object(out, std::max(decks_a, decks_b));
           })
      .def("__or__", [](py::handle self, CardsArg b) {
        const int decks_a = pack_of(self);
        const auto [o, decks_b] = operand(b, decks_a);
        return cards_object(self.cast<CardSet>().max_with(o), std::max(decks_a, decks_b));
      })
      .def("__and__", [](py::handle self, CardsArg b) {
        const int decks_a = pack_of(self);
        const auto [o, decks_b] = operand(b, decks_a);
        return cards_object(self.cast<CardSet>().min_with(o), std::max(decks_a, decks_b));
      })
      .def("__copy__", [](py::handle self) { return cards_object(self.cast<CardSet>(), pack_of(self)); })
      .def("__deepcopy__", [](py::handle self, MemoArg) {
        return cards_object(self.cast<CardSet>(), pack_of(self));
      })
      .def("__reduce__", [](py::handle self) -> ReduceResult {
        const std::string text = cards_text(self.cast<CardSet>());
        const int decks = pack_of(self);
        if (decks == 2) return py::make_tuple(core_attr("Cards"), py::make_tuple(text));
        return py::make_tuple(core_attr("_restore_cards"), py::make_tuple(text, decks));
      });

  m.def("_restore_cards",
        [](PickledArg text, PickledArg decks) {
          const int pack = decks_arg(decks);
          return cards_object(cards_from(text, pack), pack);
        },
        py::arg("text"), py::arg("decks"), "Rebuilds a Cards of a three-deck pack (pickle support).");

}

}  // namespace burraco_binding
