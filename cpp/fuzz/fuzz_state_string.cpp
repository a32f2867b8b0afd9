// libFuzzer target for the state-string parser (clang -fsanitize=fuzzer; CMake BURRACO_FUZZ=ON).
// Each input is one candidate state string: refused with a reason, or accepted and then held to
// every property of fuzz_check.hpp (validates, writes back the same text, a legal move unless
// over, a random playout that ends within MAX_HAND_MOVES with every position valid).
// docs/fuzzing.md says how to run it.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static burraco::fuzz::Stats stats;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::uint64_t seed = 0;
  for (std::size_t i = 0; i < size && i < 8; ++i) seed = seed * 131 + data[i];
  burraco::fuzz::check_state_text(text, seed, stats);
  return 0;
}
