// burraco_fuzz_driver — the state-string fuzzer without libFuzzer (any compiler; built in the
// sanitizer build too). Replays every file of the corpus folders given, then runs seeded random
// mutations of engine-made state strings for a count or a time limit, and prints the counts.
//
//   burraco_fuzz_driver [--seed N] [--runs N] [--seconds S] [CORPUS_DIR ...]
//   --explain prints why each refused corpus input was refused.
//   burraco_fuzz_driver --emit DIR      writes a seed corpus of engine-made states into DIR
//
// A broken property prints the input and aborts (exit status non-zero). docs/fuzzing.md.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
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
      const std::vector<std::string> states = burraco::fuzz::engine_states(seed, 1);
      const std::string dir = argv[++i];
      const std::size_t step = states.size() / 24 + 1;
      int written = 0;
      for (std::size_t k = 0; k < states.size(); k += step) {
        char name[64];
        std::snprintf(name, sizeof name, "/engine_%02d.txt", written++);
        std::ofstream(dir + name, std::ios::binary) << states[k];
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
