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

// A card list holds at most the copies of a two-deck pack, as every rule set played has.
int copy_limit(Card card) { return card.is_joker() ? kTwoDeckJokers : kTwoDeckCopies; }
bool add_copy(CardSet& set, Card card) { return set.add(card) && set.count(card) <= copy_limit(card); }

std::string copies_message(py::handle input, Card card) {
  const int limit = copy_limit(card);
  return quote(input) + ": more than " + std::to_string(limit) + " copies of " + card_name(card) +
         " (two decks hold " + std::to_string(limit) + ")";
}

CardSet cards_from(py::handle obj) {
  if (py::isinstance<CardSet>(obj)) return obj.cast<CardSet>();
  CardSet set;
  if (py::isinstance<py::str>(obj)) {
    const std::string text = text_arg(obj);
    for (std::string_view word : split_words(text)) {
      const auto card = parse_card(word);
      if (!card)
        notation_error(quote(obj) + ": " + quote(py::str(std::string(word))) +
                       " is not a card (" + kCardHelp + ")");
      if (!add_copy(set, *card)) notation_error(copies_message(obj, *card));
    }
    return set;
  }
  if (obj.is_none() || py::isinstance<py::bytes>(obj) || !py::hasattr(obj, "__iter__"))
    notation_error("expected cards as a string such as '5h 6h 7h' or an iterable of cards, got " +
                   quote(obj));
  for (py::handle item : obj) {
    const Card card = card_from(item);
    if (!add_copy(set, card)) notation_error(copies_message(obj, card));
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
      .def("__hash__", [](Card c) { return static_cast<int>(c.index); })
      .def("__eq__", [](Card a, AnyArg b) {
        return py::isinstance<Card>(b) && a == b.cast<Card>();
      })
      .def("__ne__", [](Card a, AnyArg b) {
        return !(py::isinstance<Card>(b) && a == b.cast<Card>());
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
      .def(py::init([](CardsArg obj) { return cards_from(obj); }), py::arg("cards") = "",
           "Cards('5h 6h Jk'), Cards(['5h', Card('6h')]), Cards() (empty); at most two copies "
           "of a card and four jokers (two decks), else InvalidNotationError.")
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
      .def("__repr__", [](CardSet s) { return "Cards('" + cards_text(s) + "')"; })
      .def("__hash__", [](CardSet s) { return py::hash(py::make_tuple(s.one(), s.two(), s.three())); })
      .def("__eq__", [](CardSet a, AnyArg b) {
        return py::isinstance<CardSet>(b) && a == b.cast<CardSet>();
      })
      .def("__ne__", [](CardSet a, AnyArg b) {
        return !(py::isinstance<CardSet>(b) && a == b.cast<CardSet>());
      })
      .def("__le__", [](CardSet a, CardsArg b) { return a.subset_of(cards_from(b)); })
      .def("__lt__", [](CardSet a, CardsArg b) {
        const CardSet o = cards_from(b);
        return a.subset_of(o) && !(a == o);
      })
      .def("__ge__", [](CardSet a, CardsArg b) { return cards_from(b).subset_of(a); })
      .def("__gt__", [](CardSet a, CardsArg b) {
        const CardSet o = cards_from(b);
        return o.subset_of(a) && !(a == o);
      })
      .def("__add__",
           [](CardSet a, CardsArg b) {
             CardSet out;
             const CardSet o = cards_from(b);
             if (!a.sum(o, out) || !out.within(kTwoDeckCopies, kTwoDeckJokers)) {
               // Name the first kind that would pass its limit.
               std::string which;
               o.for_each([&](Card c) {
                 if (which.empty() && a.count(c) + o.count(c) > copy_limit(c))
                   which = card_name(c);
               });
               notation_error("Cards('" + cards_text(a) + "') + " + quote(b) +
                              ": more copies of " + which + " than two decks hold");
             }
             return out;
           })
      .def("__radd__",
           [](CardSet a, CardsArg b) {
             CardSet out;
             if (!cards_from(b).sum(a, out) || !out.within(kTwoDeckCopies, kTwoDeckJokers))
               notation_error(quote(b) + " + Cards('" + cards_text(a) +
                              "'): more copies than two decks hold");
             return out;
           })
      .def("__sub__",
           [](CardSet a, CardsArg b) {
             CardSet out;
             if (!a.difference(cards_from(b), out))
               notation_error("Cards('" + cards_text(a) + "') - " + quote(b) + ": " + quote(b) +
                              " is not contained in Cards('" + cards_text(a) + "')");
             return out;
           })
      .def("__or__", [](CardSet a, CardsArg b) { return a.max_with(cards_from(b)); })
      .def("__and__", [](CardSet a, CardsArg b) { return a.min_with(cards_from(b)); })
      .def("__copy__", [](CardSet c) { return c; })
      .def("__deepcopy__", [](CardSet c, MemoArg) { return c; })
      .def("__reduce__", [](CardSet s) -> ReduceResult {
        return py::make_tuple(core_attr("Cards"), py::make_tuple(cards_text(s)));
      });

}

}  // namespace burraco_binding
