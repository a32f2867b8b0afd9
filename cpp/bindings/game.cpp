// burraco._core: one hand (Game) and its moves (Move, MoveList); its result is burraco._result's.
#include "binding.hpp"

#include "burraco/pack.hpp"
#include "burraco/record.hpp"

#include <optional>
#include <stdexcept>

namespace burraco_binding {

Move move_from(py::handle obj, int decks) {
  if (py::isinstance<PyMove>(obj)) return obj.cast<const PyMove&>().move;
  if (!py::isinstance<py::str>(obj))
    notation_error("expected a move such as 'draw' or 'meld 5h 6h 7h', got " + quote(obj));
  Move m;
  if (!parse_move(text_arg(obj), m, decks))
    notation_error(quote(obj) + " is not a move (draw, pile, keep, reject, meld <cards>, "
                                "add <index> <card>, discard <card>)");
  return m;
}

py::object phase_name(Phase p) { return py::str(phase_text(p)); }

py::object end_reason_name(EndReason e) {
  const char* name = end_reason_text(e);
  return name ? py::object(py::str(name)) : py::object(py::none());
}

int seat_arg(const PyGame& g, py::handle seat) {
  return static_cast<int>(int_in(seat, 0, g.state.players - 1, [&] {
    notation_error("no player " + quote(seat) + ": players are 0.." +
                   std::to_string(g.state.players - 1));
  }));
}

std::array<std::int32_t, kSideSlots> scores_arg(const Rules& rules, py::handle scores) {
  std::array<std::int32_t, kSideSlots> out{};
  if (scores.is_none()) return out;
  const std::size_t n = static_cast<std::size_t>(rules.score_count());  // one per side
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
    if (py::isinstance<py::bool_>(v) || !PyIndex_Check(v.ptr()))
      throw py::type_error("scores " + quote(scores) + ": expected " + std::to_string(n) +
                           " ints, got a " +
                           type_name_of(v));
    out[i++] = static_cast<std::int32_t>(int_in(v, -10000000, 10000000, [&] {
      notation_error("scores " + quote(scores) + ": expected " + std::to_string(n) +
                     " integers from -10000000 to 10000000");
    }, true));
  }
  return out;
}

// A seed argument: an int in [0, 2**64); anything else raises InvalidNotationError quoting it.
std::uint64_t seed_arg(py::handle seed) {
  std::uint64_t value = 0;
  if (!u64_int(seed, value))
    notation_error(quote(seed) + " is not a seed: expected an int in [0, 2**64)");
  return value;
}

// Game()'s seed: an int in [0, 2**64), or None for a random one.
std::uint64_t deal_seed(py::handle seed) {
  std::uint64_t value = 0;
  if (seed.is_none()) {
    py::bytes raw = py::module_::import("os").attr("urandom")(8);
    const py::object from_bytes = py::module_::import("builtins").attr("int").attr("from_bytes");
    return from_bytes(raw, "little").cast<std::uint64_t>();
  }
  if (!u64_int(seed, value))
    notation_error("seed " + quote(seed) + ": expected an integer in [0, 2**64)");
  return value;
}

// Game()'s deck: the cards' names in one str, or an iterable of cards (Card or str).
std::vector<Card> deck_arg(py::handle deck) {
  std::vector<Card> cards;
  if (py::isinstance<py::str>(deck)) {
    const std::string text = text_arg(deck);
    if (const auto bad = parse_card_words(text, cards))
      notation_error("deck: " + quote(py::str(std::string(*bad))) + " is not a card");
  } else if (py::hasattr(deck, "__iter__")) {
    for (py::handle c : deck) cards.push_back(card_from(c));
  } else {
    notation_error("deck " + quote(deck) + ": expected a list of cards");
  }
  return cards;
}

py::tuple packet_view(const Packet& p, int decks) {
  CardSet cards;
  if (p.status == PacketStatus::Untaken || p.status == PacketStatus::FaceDown ||
      p.status == PacketStatus::Seen)
    cards = p.set();
  return py::make_tuple(packet_status_text(p.status), int_or_none(p.owner >= 0, p.owner),
                        cards_object(cards, decks));
}

std::unique_ptr<PyGame> game_from_state_string(py::handle text) {
  if (!py::isinstance<py::str>(text)) state_error("expected a state string, got " + quote(text));
  auto g = std::make_unique<PyGame>();
  Rules rules;
  std::string error;
  if (!parse_state_string(text_arg(text), g->state, rules, error))
    state_error("invalid state string: " + error);
  g->rules = same_rules(italian_rules(), std::make_shared<const Rules>(rules))
                 ? italian_rules() : std::make_shared<const Rules>(rules);
  return g;
}

py::object package_function(const char* module, const char* name) {
  return py::module_::import(module).attr(name);
}

// A hand's result as the value class both engines return (burraco._result.Result).
py::object result_object(const HandResult& h, int players) {
  const py::object side_class = package_function("burraco._result", "SideResult");
  const py::tuple sides = tuple_of(h.side_count, [&](int i) {
    const SideResult& r = h.sides[i];
    return side_class(r.side, r.melds, r.bonuses, r.closing, r.hand, r.pozzetto, r.cut, r.total);
  });
  const py::object scores =
      players == 3 ? py::object(tuple_of(3, [&](int q) { return h.player_half_points[q]; }))
                   : py::object(py::none());
  return package_function("burraco._result", "Result")(
      end_reason_name(h.reason), int_or_none(h.closing_side >= 0, h.closing_side), sides, scores);
}

// A list of Move objects.
py::list move_objects(const std::vector<Move>& moves) {
  py::list out(moves.size());
  for (std::size_t i = 0; i < moves.size(); ++i) out[i] = PyMove{moves[i]};
  return out;
}

// The move a MoveList is searched for: a Move, or a move's notation read with the copies of any
// pack; none for anything else (which no list holds).
std::optional<Move> sought_move(py::handle item) {
  Move m;
  if (py::isinstance<PyMove>(item)) return item.cast<const PyMove&>().move;
  if (!py::isinstance<py::str>(item) || !parse_move(text_arg(item), m, kMaxSuitedCopies))
    return std::nullopt;
  return m;
}

// Whether a MoveList holds the same moves as `other`: another MoveList, or a list or tuple of the
// same Move objects; NotImplemented for anything else.
py::object same_moves(const PyMoveList& l, py::handle other) {
  if (py::isinstance<PyMoveList>(other)) return py::bool_(*l.moves == *other.cast<const PyMoveList&>().moves);
  if (!py::isinstance<py::list>(other) && !py::isinstance<py::tuple>(other))
    return py::reinterpret_borrow<py::object>(Py_NotImplemented);
  const py::sequence items = py::reinterpret_borrow<py::sequence>(other);
  bool same = items.size() == l.moves->size();
  for (std::size_t i = 0; same && i < l.moves->size(); ++i) {
    const py::object item = items[i];
    same = py::isinstance<PyMove>(item) && item.cast<const PyMove&>().move == (*l.moves)[i];
  }
  return py::bool_(same);
}

// How many times the list holds the move `item` names (0 or 1).
long count_in(const PyMoveList& l, py::handle item) {
  const auto m = sought_move(item);
  return m ? static_cast<long>(std::count(l.moves->begin(), l.moves->end(), *m)) : 0L;
}

void bind_game(py::module_& m) {
  // Another class answers for itself (NotImplemented): burraco.reference's Move compares
  // equal to this one when both print the same (docs/api.md "Both engines").
  value_class<const PyMove&>(
      bound_class<PyMove>(m, "Move"), [](const PyMove& a, const PyMove& b) { return a.move == b.move; },
      [](const PyMove& m) { return py::hash(py::str(move_text(m.move))); },
      [](const PyMove& m) { return m; },
      [](const PyMove& m) -> py::object {
        // Move(text) reads a two-deck pack; a three-deck game's set of three copies of a card
        // is restored with its pack. Every other move pickles as it always did.
        if (!m.move.cards.within(kTwoDeckCopies, kTwoDeckJokers))
          return py::make_tuple(core_attr("_restore_move"), py::make_tuple(move_text(m.move), 3));
        return py::make_tuple(core_attr("Move"), py::make_tuple(move_text(m.move)));
      })
      .def(py::init([](py::handle obj) { return PyMove{move_from(obj)}; }), py::arg("move"))
      .def_property_readonly("kind", [](const PyMove& m) -> py::object {
        static py::object* interned = [] {
          auto* strings = new py::object[7];  // kept for the life of the interpreter
          for (int k = 0; k < 7; ++k)
            strings[k] = py::str(move_kind_text(static_cast<MoveKind>(k)));
          return strings;
        }();
        return interned[static_cast<int>(m.move.kind)];
      })
      .def_property_readonly("cards", [](const PyMove& m) {
        CardSet c = m.move.cards;
        if (m.move.kind == MoveKind::Add || m.move.kind == MoveKind::Discard) c.add(m.move.card);
        return c;
      })
      .def_property_readonly("index", [](const PyMove& m) -> py::object {
        return int_or_none(m.move.kind == MoveKind::Add, m.move.index);
      })
      .def("__str__", [](const PyMove& m) { return move_text(m.move); })
      .def("__repr__", [](const PyMove& m) { return move_repr(m.move); })
      .def("__lt__", [](const PyMove& a, const PyMove& b) { return move_less(a.move, b.move); })
      .def("__gt__", [](const PyMove& a, const PyMove& b) { return move_less(b.move, a.move); })
      .def("__le__", [](const PyMove& a, const PyMove& b) { return !move_less(b.move, a.move); })
      .def("__ge__", [](const PyMove& a, const PyMove& b) { return !move_less(a.move, b.move); });

  auto game = bound_class<PyGame>(m, "Game");
  game
      .def(py::init([](py::handle rules_obj, py::handle seed, py::handle deck, py::handle first,
                       py::handle scores) {
             PyGame g;
             // A preset's name is read as Rules(name) reads it (an unknown one is refused there).
             g.rules = py::isinstance<py::str>(rules_obj)
                           ? RulesPtr(core_attr("Rules")(rules_obj).cast<std::shared_ptr<Rules>>())
                           : rules_from(rules_obj);
             const Rules& rules = *g.rules;
             if (const std::string why = playable_refusal(rules); !why.empty()) notation_error(why);
             const int first_player = static_cast<int>(int_in(first, 0, rules.players - 1, [&] {
               notation_error("first_player " + quote(first) + ": expected a seat 0.." +
                              std::to_string(rules.players - 1));
             }));
             const auto score_values = scores_arg(rules, scores);
             if (deck.is_none()) {
               g.state = deal_seeded(rules, deal_seed(seed), first_player, score_values);
               return g;
             }
             if (!seed.is_none()) notation_error("give a seed or a deck, not both");
             const std::string bad =
                 deal_deck(rules, deck_arg(deck), first_player, score_values, g.state);
             if (!bad.empty()) notation_error("deck: " + bad);
             return g;
           }), py::arg("rules") = py::none(), py::kw_only(), py::arg("seed") = py::none(),
           py::arg("deck") = py::none(), py::arg("first_player") = 0, py::arg("scores") = py::none())
      .def_static("from_state_string", [](py::handle state) { return game_from_state_string(state); },
                  py::arg("state"))
      .def("state_string", [](const PyGame& g) { return state_string(g.state, *g.rules); })
      // legal_moves, push_index and is_over are fast_paths.cpp's CPython methods alone.
      .def("push",
           [](PyGame& g, py::handle move) {
             std::uint32_t index = 0;
             std::vector<Card> cards;
             // The multi-card lay-off sugar: "add 2 8h 9h".
             if (py::isinstance<py::str>(move) &&
                 parse_lay_offs(text_arg(move), g.rules->decks, index, cards)) {
               if (!g.push_lay_offs(index, std::move(cards)))
                 illegal("illegal move " + quote(move) + ": no order of these lay-offs is legal");
               return;
             }
             push_one(g, move_from(move, g.rules->decks));
           }, py::arg("move"))
      .def("pop",
           [](PyGame& g) {
             if (g.move_count() == 0) throw py::index_error("pop from a game with no moves");
             return PyMove{g.pop()};
           })
      .def("copy", [](const PyGame& g) { return std::make_unique<PyGame>(g); })
      .def("__reduce__", [](const PyGame& g) -> py::object {
        const std::string start = state_string(g.start(), *g.rules);
        const std::string now = state_string(g.state, *g.rules);
        return reduce_with("game_of_history", "Game", start, move_texts(g.moves()), now);
      })
      .def("_record_history", [](const PyGame& g) {
        return py::make_tuple(state_string(g.start(), *g.rules), move_texts(g.moves()));
      })
      .def("_record_line", [](const PyGame& g) {
        return py::make_tuple(py::str(record_line(g.game())), g.move_count());
      })
      .def_property_readonly("moves",
           [](const PyGame& g) -> py::object { return move_objects(g.moves()); })
      .def_property_readonly("rules", [](const PyGame& g) { return std::const_pointer_cast<Rules>(g.rules); })
      .def_property_readonly("seed", [](const PyGame& g) -> py::object {
        return int_or_none(g.state.has_seed, g.state.seed);
      })
      .def_property_readonly("players", [](const PyGame& g) { return static_cast<int>(g.state.players); })
      .def_property_readonly("first_player", [](const PyGame& g) { return static_cast<int>(g.state.first); })
      .def_property_readonly("turn", [](const PyGame& g) { return static_cast<int>(g.state.turn); })
      .def_property_readonly("phase", [](const PyGame& g) -> py::object { return phase_name(g.state.phase); })
      .def_property_readonly("scores", [](const PyGame& g) -> py::object {
        return tuple_of(g.rules->score_count(), [&](int i) { return g.state.scores[i]; });
      })
      .def("hand", [](const PyGame& g, py::handle p) { return cards_object(g.state.hands[seat_arg(g, p)], g.rules->decks); }, py::arg("player"))
      .def("known", [](const PyGame& g, py::handle p) { return cards_object(g.state.known[seat_arg(g, p)], g.rules->decks); }, py::arg("player"))
      .def("side_of", [](const PyGame& g, py::handle p) { return side_of(g.state, *g.rules, seat_arg(g, p)); }, py::arg("player"))
      .def_property_readonly("sides", [](const PyGame& g) -> py::object {
        std::array<int, kSideSlots> sides{};
        return tuple_of(active_sides(g.state, *g.rules, sides), [&](int i) { return sides[i]; });
      })
      .def("melds",
           [](const PyGame& g, py::handle side) {
             const long long v = int_in(side, 0, side_slots(*g.rules) - 1,
                                        [&] { notation_error("no side " + quote(side)); });
             return PyMelds{side_melds(g.state, static_cast<int>(v)), g.rules};
           }, py::arg("side"))
      .def_property_readonly("discard_pile", [](const PyGame& g) { return cards_object(g.state.pile, g.rules->decks); })
      .def_property_readonly("top_discard", [](const PyGame& g) -> py::object {
        return g.state.top.valid() ? py::cast(g.state.top) : py::object(py::none());
      })
      .def_property_readonly("stock_size", [](const PyGame& g) { return g.state.stock_size(); })
      .def_property_readonly("stock", [](const PyGame& g) -> py::object {
        const auto* next = g.state.stock.data() + g.state.stock_pos;
        return tuple_of(g.state.stock_size(), [&](int i) { return next[i]; });
      })
      .def_property_readonly("pozzetti", [](const PyGame& g) -> py::object {
        return tuple_of(g.rules->packets(),
                        [&](int k) { return packet_view(g.state.packets[k], g.rules->decks); });
      })
      .def_property_readonly("cut_side", [](const PyGame& g) -> py::object {
        return int_or_none(g.state.cut_side >= 0, g.state.cut_side);
      })
      .def_property_readonly("end_reason", [](const PyGame& g) -> py::object { return end_reason_name(g.state.end); })
      .def("result",
           [](const PyGame& g) {
             if (!g.state.over()) illegal("the hand is not over: no result yet");
             return result_object(score_hand(g.state, *g.rules), g.state.players);
           })
      .def("__repr__", [](const PyGame& g) { return game_repr(g.state, *g.rules); })
      // The board and the records are written once in Python for both engines (burraco._board,
      // burraco._records: docs/architecture.md §1); the methods call them.
      .def("__str__", [](py::object self) -> py::object {
        require_initialized<PyGame>(self);
        return package_function("burraco._board", "game_str")(self);
      })
      .def("record", [](py::object self) -> py::object {
        require_initialized<PyGame>(self);
        return package_function("burraco._records", "record")(self, core_attr("Rules"), core_attr("Game"));
      })
      .def_static("from_record", [](py::handle data) -> py::object {
        return package_function("burraco._records", "from_record")(core_attr("Game"), core_attr("Rules"), data);
      }, py::arg("data"), py::pos_only())
      .def("to_json", [](py::object self, py::handle player, py::handle indent) -> py::object {
        require_initialized<PyGame>(self);
        return package_function("burraco._records", "to_json")(self, player, indent);
      }, py::arg("player") = py::none(), py::kw_only(), py::arg("indent") = py::none())
      .def_static("from_json", [](py::handle text) -> py::object {
        return package_function("burraco._records", "from_json")(core_attr("Game"), text);
      }, py::arg("text"), py::pos_only());
  bind_game_search(game);
  def_equality(game, [](const PyGame& a, const PyGame& b) { return a.game() == b.game(); });
  def_copies(game);

  bound_class<PyMoveList>(m, "MoveList")
      // __len__ is fast_paths.cpp's.
      .def("__bool__", [](const PyMoveList& l) { return !l.moves->empty(); })
      // moves[i] is fast_paths.cpp's, which hands every key that is not an index here.
      .def("__getitem__",
           [](const PyMoveList& l, py::handle key) -> py::object {
             if (py::isinstance<py::slice>(key)) return py::object(move_objects(*l.moves)[key]);
             throw py::type_error("MoveList indices must be integers or slices, not " +
                                  type_name_of(key));
           })
      .def("__iter__",
           [](const PyMoveList& l) -> py::object { return py::iter(move_objects(*l.moves)); })
      .def("__contains__", [](const PyMoveList& l, py::handle item) { return count_in(l, item) > 0; })
      .def("index", [](const PyMoveList& l, py::handle item) {
        const auto m = sought_move(item);
        const auto it = m ? std::find(l.moves->begin(), l.moves->end(), *m) : l.moves->end();
        if (it == l.moves->end()) throw py::value_error(quote(item) + " is not in the list");
        return static_cast<long long>(it - l.moves->begin());
      })
      .def("count", [](const PyMoveList& l, py::handle item) { return count_in(l, item); })
      .def("__eq__", [](const PyMoveList& l, py::handle other) { return same_moves(l, other); })
      .def("__ne__", [](const PyMoveList& l, py::handle other) -> py::object {
        const py::object same = same_moves(l, other);
        return same.is(py::reinterpret_borrow<py::object>(Py_NotImplemented)) ? same : py::bool_(!same.cast<bool>());
      })
      .def("strings",
           [](const PyMoveList& l) -> py::object { return py::cast(move_texts(*l.moves)); })
      // Written as the list it stands for (the reference's is a list).
      .def("__repr__", [](const PyMoveList& l) { return moves_repr(*l.moves); });
  py::setattr(m.attr("MoveList"), "__hash__", py::none());
  py::setattr(m.attr("Game"), "__hash__", py::none());  // mutable: compared, never hashed

  // Unpickles a Move of a three-deck game (the other values' are burraco._pickle's), refusing data
  // that is not what it pickled with InvalidStateError.
  m.def("_restore_move", [](py::handle text, py::handle decks) {
    Move move;
    long long pack = 0;
    if (!py::isinstance<py::str>(text) || !small_int(decks, pack) || !valid_decks(pack) ||
        !parse_move(text_arg(text), move, static_cast<int>(pack)))
      state_error("pickled Move: cannot restore from " + quote(py::make_tuple(text, decks)));
    return PyMove{move};
  }, py::arg("text"), py::arg("decks"));
}

}  // namespace burraco_binding
