// burraco._core: the arena's engine (burraco.arena, docs/bots.md): duplicate pairs of two bots
// played in C++ threads with the GIL released.
#include "binding.hpp"

#include <atomic>
#include <chrono>
#include <thread>

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

}  // namespace

void bind_arena(py::module_& m) {
  m.def(
      "_arena_pairs",
      [](RulesArg rules_obj, BotArg a, BotArg b, SeedArg seed, IntArg first, IntArg stop_at,
         IntArg threads, BoolArg keep_moves, ProgressArg progress, BoolArg matches) {
        const RulesPtr rules = rules_from(rules_obj);
        const std::string why = check_playable(*rules);
        if (!why.empty()) notation_error(rules_repr(*rules) + " cannot be dealt: " + why);
        if (rules->players == 3 || rules->players == 6)
          notation_error("arena: " + rules_repr(*rules) +
                         (rules->players == 3 ? " has three players" : " has six players") +
                         "; duplicate pairs need two or four (two sides)");
        std::vector<PyPolicy> keep;
        keep.reserve(2);
        const BotSpec bot_a = bot_from(a, keep), bot_b = bot_from(b, keep);
        const std::uint64_t seed_value = seed_arg(seed);
        const auto from = static_cast<std::uint64_t>(arena_int(first, "first", 0, 1'000'000'000));
        const auto to = static_cast<std::uint64_t>(arena_int(stop_at, "stop", 0, 1'000'000'000));
        if (to < from || to - from > 10'000'000)
          notation_error("arena: pairs " + std::to_string(from) + " to " + std::to_string(to) +
                         ": expected first <= stop and at most 10**7 pairs");
        const int thread_count = static_cast<int>(arena_int(threads, "threads", 1, 64));
        if (!py::isinstance<py::bool_>(keep_moves))
          notation_error("arena: keep_moves " + quote(keep_moves) + ": expected True or False");
        const bool keep_history = keep_moves.cast<bool>();
        if (!py::isinstance<py::bool_>(matches))
          notation_error("arena: matches " + quote(matches) + ": expected True or False");
        const bool whole_matches = matches.cast<bool>();
        if (!progress.is_none() && !PyCallable_Check(progress.ptr()))
          notation_error("arena: progress " + quote(progress) + ": expected a callable or None");

        std::atomic<std::uint64_t> done{0};
        std::atomic<bool> stop{false}, finished{false};
        std::vector<ArenaGame> games;
        std::vector<ArenaMatch> plays;
        std::exception_ptr failure;
        std::thread runner([&] {
          try {
            if (whole_matches) {
              plays = arena_match_pairs(*rules, bot_a, bot_b, seed_value, from, to, thread_count,
                                        keep_history, &done, &stop);
              // The hands of every play in order: play 0 of pair `from`, its play 1, ...
              std::size_t hands = 0;
              for (const ArenaMatch& play : plays) hands += play.hands.size();
              games.reserve(hands);
              for (ArenaMatch& play : plays)
                for (ArenaGame& hand : play.hands) games.push_back(std::move(hand));
            } else {
              games = arena_pairs(*rules, bot_a, bot_b, seed_value, from, to, thread_count,
                                  keep_history, &done, &stop);
            }
          } catch (...) {
            failure = std::current_exception();
          }
          finished.store(true);
        });
        // The caller's thread waits without the GIL, and every tenth of a second reports the
        // games done and lets Python handle a signal (Ctrl-C stops the threads after their games).
        try {
          while (true) {
            {
              py::gil_scoped_release release;
              for (int i = 0; i < 20 && !finished.load(); ++i)
                std::this_thread::sleep_for(std::chrono::milliseconds(5));
            }
            if (!progress.is_none()) progress(py::int_(done.load()));
            if (PyErr_CheckSignals() != 0) throw py::error_already_set();
            if (finished.load()) break;
          }
        } catch (...) {
          stop.store(true);
          {
            py::gil_scoped_release release;
            runner.join();
          }
          throw;
        }
        runner.join();
        if (failure) raise_loop_failure(failure, "arena: ");

        const auto n = static_cast<py::ssize_t>(games.size());
        py::array_t<std::uint64_t> pair(n);
        py::array_t<std::uint8_t> game(n), reason(n), first_player(n);
        py::array_t<std::int32_t> scores({n, py::ssize_t{2}}), moves(n), decisions({n, py::ssize_t{2}});
        py::array_t<std::int32_t> hand(n), before({n, py::ssize_t{2}});
        py::array_t<std::uint64_t> hand_seed(n);
        py::array_t<double> seconds({n, py::ssize_t{2}});
        auto pa = pair.mutable_unchecked<1>();
        auto ga = game.mutable_unchecked<1>();
        auto ra = reason.mutable_unchecked<1>();
        auto sa = scores.mutable_unchecked<2>();
        auto ma = moves.mutable_unchecked<1>();
        auto da = decisions.mutable_unchecked<2>();
        auto ta = seconds.mutable_unchecked<2>();
        auto fa = first_player.mutable_unchecked<1>();
        auto ha = hand.mutable_unchecked<1>();
        auto ba = before.mutable_unchecked<2>();
        auto hs = hand_seed.mutable_unchecked<1>();
        py::list history;
        for (py::ssize_t i = 0; i < n; ++i) {
          const ArenaGame& g = games[static_cast<std::size_t>(i)];
          pa(i) = g.pair;
          ga(i) = g.game;
          ra(i) = g.end_reason;
          ma(i) = g.moves;
          fa(i) = g.first_player;
          ha(i) = g.hand;
          hs(i) = g.hand_seed;
          for (int k = 0; k < 2; ++k) {
            sa(i, k) = g.scores[static_cast<std::size_t>(k)];
            ba(i, k) = g.before[static_cast<std::size_t>(k)];
            da(i, k) = g.decisions[k];
            ta(i, k) = g.seconds[k];
          }
          if (keep_history) {
            py::list line;
            for (const Move& mv : g.history) line.append(py::str(move_text(mv)));
            history.append(line);
          }
        }
        py::dict out;
        out["pair"] = pair;
        out["game"] = game;
        out["hand_seed"] = hand_seed;
        out["hand"] = hand;
        out["first_player"] = first_player;
        out["before"] = before;
        out["scores"] = scores;
        out["moves"] = moves;
        out["end_reason"] = reason;
        out["seconds"] = seconds;
        out["decisions"] = decisions;
        out["history"] = keep_history ? py::object(history) : py::object(py::none());
        if (whole_matches) {
          const auto m = static_cast<py::ssize_t>(plays.size());
          py::array_t<std::uint64_t> match_pair(m);
          py::array_t<std::uint8_t> match_game(m);
          py::array_t<std::int32_t> match_scores({m, py::ssize_t{2}}), match_hands(m);
          py::array_t<std::int8_t> match_winner(m);
          auto mp = match_pair.mutable_unchecked<1>();
          auto mg = match_game.mutable_unchecked<1>();
          auto ms = match_scores.mutable_unchecked<2>();
          auto mh = match_hands.mutable_unchecked<1>();
          auto mw = match_winner.mutable_unchecked<1>();
          for (py::ssize_t i = 0; i < m; ++i) {
            const ArenaMatch& play = plays[static_cast<std::size_t>(i)];
            mp(i) = play.pair;
            mg(i) = play.game;
            ms(i, 0) = play.scores[0];
            ms(i, 1) = play.scores[1];
            mh(i) = static_cast<std::int32_t>(play.hands.size());
            mw(i) = play.winner;
          }
          out["match_pair"] = match_pair;
          out["match_game"] = match_game;
          out["match_scores"] = match_scores;
          out["match_hands"] = match_hands;
          out["match_winner"] = match_winner;
        }
        return out;
      },
      py::arg("rules"), py::arg("a"), py::arg("b"), py::kw_only(), py::arg("seed"), py::arg("first"),
      py::arg("stop"), py::arg("threads") = 1, py::arg("keep_moves") = false,
      py::arg("progress") = py::none(), py::arg("matches") = false,
      "The engine of burraco.arena (docs/bots.md): duplicate pairs first..stop-1 of bots a and b "
      "(an ISMCTS or a policy), each pair one deal played twice with the seats swapped, on "
      "`threads` threads without the GIL. A dict of NumPy arrays, one row per game in pair order "
      "(game 0: a on the even seats, side 0): 'pair', 'game', 'hand_seed', 'scores' (per side), "
      "'moves', 'end_reason', 'seconds' and 'decisions' (per bot: CPU seconds choosing, moves "
      "chosen), 'history' (the moves' texts per game, or None), 'hand' (its index in its match), "
      "'first_player' and 'before' (the match scores before it). With matches=True each pair is "
      "a whole match to the target played twice with the sides swapped on the same deals "
      "(arena.hpp): one row per hand, every play's hands in order, and per play 'match_pair', "
      "'match_game', 'match_scores' (final, per side), 'match_hands' and 'match_winner' (the side, "
      "or -1 for a draw). progress(done) counts the games (or plays of a match) done, about ten "
      "times a second; Ctrl-C stops the threads after their current games.");
}

}  // namespace burraco_binding
