// burraco_fuzz_driver — the state-string fuzzer without libFuzzer (any compiler; built in the
// sanitizer build too). Replays every file of the corpus folders given, then runs seeded random
// mutations of engine-made state strings for a count or a time limit, and prints the counts.
//
//   burraco_fuzz_driver [--seed N] [--runs N] [--seconds S] [CORPUS_DIR ...]
//   --explain prints why each refused corpus input was refused.
//   burraco_fuzz_driver --emit DIR      writes a seed corpus of engine-made states into DIR: four
//                                        of every rule set of fuzz_rules(), six players and
//                                        three decks included
//
// A broken property prints the input and aborts (exit status non-zero). docs/fuzzing.md.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "fuzz_check.hpp"

int main(int argc, char** argv) {
  std::uint64_t seed = 1;
  long runs = 10000;
  double seconds = 0;
  burraco::fuzz::Stats corpus, mutations;
  long files = 0;
  for (int i = 1; i < argc; ++i) {
    const bool has_value = i + 1 < argc;
    if (!std::strcmp(argv[i], "--emit") && has_value) {
      // Four states of one seeded hand per rule set (the deal, then spread over the hand), named
      // after the table: engine_<preset>_<players>p[<sides>s]_<decks>d_<n>.txt.
      const std::string dir = argv[++i];
      std::map<std::string, int> taken;
      std::uint64_t sm = seed;
      int written = 0;
      for (const burraco::Rules& rules : burraco::fuzz::fuzz_rules()) {
        const std::vector<std::string> states = burraco::fuzz::engine_states_of(rules, sm, 1);
        std::string table = std::string(burraco::preset_name(rules.preset)) + "_" +
                            std::to_string(rules.players) + "p" +
                            (rules.players == 6 ? std::to_string(rules.sides) + "s" : "") + "_" +
                            std::to_string(rules.decks) + "d";
        for (std::size_t k = 0; k < 4; ++k) {
          const std::string name =
              dir + "/engine_" + table + "_" + std::to_string(taken[table]++) + ".txt";
          std::ofstream(name, std::ios::binary) << states[k * (states.size() - 1) / 3];
          ++written;
        }
      }
      std::printf("wrote %d engine-made states into %s\n", written, dir.c_str());
      return 0;
    }
    if (!std::strcmp(argv[i], "--explain")) {
      corpus.explain = true;
    } else if (!std::strcmp(argv[i], "--seed") && has_value) {
      seed = std::strtoull(argv[++i], nullptr, 10);
    } else if (!std::strcmp(argv[i], "--runs") && has_value) {
      runs = std::strtol(argv[++i], nullptr, 10);
    } else if (!std::strcmp(argv[i], "--seconds") && has_value) {
      seconds = std::strtod(argv[++i], nullptr);
      if (runs == 10000) runs = 0;  // a time limit alone: as many as fit
    } else if (argv[i][0] == '-') {
      std::fprintf(stderr, "usage: %s [--seed N] [--runs N] [--seconds S] [CORPUS_DIR ...]\n",
                   argv[0]);
      return 2;
    } else {
      const long n = burraco::fuzz::replay_corpus(argv[i], corpus);
      if (n < 0) {
        std::fprintf(stderr, "cannot read the folder %s\n", argv[i]);
        return 2;
      }
      files += n;
    }
  }
  std::printf("corpus: %ld files, %ld accepted, %ld rejected, %ld moves played\n", files,
              corpus.accepted, corpus.rejected, corpus.moves);
  if (runs <= 0 && seconds <= 0) return 0;
  burraco::fuzz::mutation_run(seed, runs, seconds, mutations);
  std::printf("mutations (seed %llu): %ld inputs tried, %ld accepted, %ld rejected, %ld moves "
              "played\n",
              static_cast<unsigned long long>(seed), mutations.tried, mutations.accepted,
              mutations.rejected, mutations.moves);
  return 0;
}
