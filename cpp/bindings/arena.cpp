// burraco._core: the arena's engine (burraco.arena, docs/bots.md): duplicate pairs of two bots
// played in C++ threads with the GIL released.
#include "binding.hpp"

#include <chrono>

#include "burraco/arena.hpp"

namespace burraco_binding {

namespace {

// A bot argument: an ISMCTS (its parameters; the arena seeds a fresh search for every game) or
// anything a policy argument takes. `keep` holds the policy (and its hook) for the call.
BotSpec bot_from(py::handle bot, std::vector<PyPolicy>& keep) {
  BotSpec spec;
  if (py::isinstance<PyIsmcts>(bot)) {
    const PyIsmcts& search = bot.cast<const PyIsmcts&>();
    spec.search = true;
    spec.ismcts = search.search.params();
    keep.push_back(search.rollout);
    return spec;
  }
  keep.push_back(policy_arg(bot));
  spec.policy = keep.back().policy;
  return spec;
}

long long arena_int(py::handle value, const char* name, long long lo, long long hi) {
  long long v = -1;
  if (!small_int(value, v) || v < lo || v > hi)
    notation_error(std::string("arena: ") + name + " " + quote(value) + ": expected an int from " +
                   std::to_string(lo) + " to " + std::to_string(hi));
  return v;
}

// A NumPy array of field(row, k) for every row and k < width: one column, or `width` columns.
template <class T, class Row, class F>
py::array_t<T> column(const std::vector<Row>& rows, py::ssize_t width, F&& field) {
  const auto n = static_cast<py::ssize_t>(rows.size());
  py::array_t<T> out = width == 1 ? py::array_t<T>(n) : py::array_t<T>({n, width});
  T* data = out.mutable_data();
  for (const Row& row : rows)
    for (int k = 0; k < width; ++k) *data++ = static_cast<T>(field(row, k));
  return out;
}

}  // namespace

void bind_arena(py::module_& m) {
  m.def(
      "_arena_pairs",
      [](py::handle rules_obj, py::handle a, py::handle b, py::handle seed, py::handle first, py::handle stop_at,
         py::handle threads, py::handle keep_moves, py::handle progress, py::handle matches) {
        const RulesPtr rules = rules_from(rules_obj);
        if (const std::string why = arena_rules_refusal(*rules); !why.empty())
          notation_error(why);
        std::vector<PyPolicy> keep;
        keep.reserve(2);
        const BotSpec bot_a = bot_from(a, keep), bot_b = bot_from(b, keep);
        const std::uint64_t seed_value = seed_arg(seed);
        const auto from = static_cast<std::uint64_t>(arena_int(first, "first", 0, 1'000'000'000));
        const auto to = static_cast<std::uint64_t>(arena_int(stop_at, "stop", 0, 1'000'000'000));
        if (const std::string why = arena_pairs_refusal(from, to); !why.empty())
          notation_error(why);
        const int thread_count = static_cast<int>(arena_int(threads, "threads", 1, 64));
        if (!py::isinstance<py::bool_>(keep_moves))
          notation_error("arena: keep_moves " + quote(keep_moves) + ": expected True or False");
        const bool keep_history = keep_moves.cast<bool>();
        if (!py::isinstance<py::bool_>(matches))
          notation_error("arena: matches " + quote(matches) + ": expected True or False");
        const bool whole_matches = matches.cast<bool>();
        if (!progress.is_none() && !PyCallable_Check(progress.ptr()))
          notation_error("arena: progress " + quote(progress) + ": expected a callable or None");

        ArenaRunner run(*rules, bot_a, bot_b, seed_value, from, to, thread_count, keep_history,
                        whole_matches);
        // The caller's thread waits without the GIL, and every tenth of a second reports the
        // games done and lets Python handle a signal (Ctrl-C stops the threads after their games).
        try {
          for (bool finished = false; !finished;) {
            {
              py::gil_scoped_release release;
              finished = run.wait(std::chrono::milliseconds(100));
            }
            if (!progress.is_none()) progress(py::int_(run.done()));
            if (PyErr_CheckSignals() != 0) throw py::error_already_set();
          }
        } catch (...) {
          py::gil_scoped_release release;
          run.stop();
          throw;
        }
        if (run.failure) raise_loop_failure(run.failure, "arena: ");

        const std::vector<ArenaGame>& games = run.games;
        py::dict out;
        out["pair"] = column<std::uint64_t>(games, 1, [](auto& g, int) { return g.pair; });
        out["game"] = column<std::uint8_t>(games, 1, [](auto& g, int) { return g.game; });
        out["hand_seed"] =
            column<std::uint64_t>(games, 1, [](auto& g, int) { return g.hand_seed; });
        out["hand"] = column<std::int32_t>(games, 1, [](auto& g, int) { return g.hand; });
        out["first_player"] =
            column<std::uint8_t>(games, 1, [](auto& g, int) { return g.first_player; });
        out["before"] = column<std::int32_t>(games, 2, [](auto& g, int k) { return g.before[k]; });
        out["scores"] = column<std::int32_t>(games, 2, [](auto& g, int k) { return g.scores[k]; });
        out["moves"] = column<std::int32_t>(games, 1, [](auto& g, int) { return g.moves; });
        out["end_reason"] =
            column<std::uint8_t>(games, 1, [](auto& g, int) { return g.end_reason; });
        out["seconds"] = column<double>(games, 2, [](auto& g, int k) { return g.seconds[k]; });
        out["decisions"] =
            column<std::int32_t>(games, 2, [](auto& g, int k) { return g.decisions[k]; });
        py::list history;  // the moves' texts per game, when kept
        for (std::size_t i = 0; keep_history && i < games.size(); ++i) {
          py::list line;
          for (const Move& mv : games[i].history) line.append(py::str(move_text(mv)));
          history.append(line);
        }
        out["history"] = keep_history ? py::object(history) : py::object(py::none());
        if (whole_matches) {
          const std::vector<ArenaMatch>& plays = run.plays;
          out["match_pair"] = column<std::uint64_t>(plays, 1, [](auto& p, int) { return p.pair; });
          out["match_game"] = column<std::uint8_t>(plays, 1, [](auto& p, int) { return p.game; });
          out["match_scores"] =
              column<std::int32_t>(plays, 2, [](auto& p, int k) { return p.scores[k]; });
          out["match_hands"] =
              column<std::int32_t>(plays, 1, [](auto& p, int) { return p.hands.size(); });
          out["match_winner"] =
              column<std::int8_t>(plays, 1, [](auto& p, int) { return p.winner; });
        }
        return out;
      },
      py::arg("rules"), py::arg("a"), py::arg("b"), py::kw_only(), py::arg("seed"), py::arg("first"),
      py::arg("stop"), py::arg("threads") = 1, py::arg("keep_moves") = false,
      py::arg("progress") = py::none(), py::arg("matches") = false);
}

}  // namespace burraco_binding
