// burraco_selftest: the check the C++ test files share. COUNT_CHECK(count, cond) adds one to
// `count` when `cond` is false and prints the first 20 failures with their file and line.
#pragma once

#include <cstdio>

#define COUNT_CHECK(count, cond)                                                               \
  do {                                                                                         \
    if (!(cond) && ++(count) <= 20)                                                            \
      std::fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond);             \
  } while (0)
