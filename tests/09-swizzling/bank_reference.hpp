// Lesson 09's grader, what both of its files use: the grader's own count of bank conflicts,
// written independently of the exercise, and how a warp's addresses are shown.
#pragma once

#include "lessons/09-swizzling/bank_conflicts.hpp"

#include <algorithm>
#include <cstdint>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

using lesson09::WarpAddresses;

// The grader's own count of extra wavefronts, written independently of the exercise: per phase,
// the most distinct 4-byte words any bank holds, minus one.
inline int reference_conflicts(const WarpAddresses& a, int bytes) {
  const int words = bytes / 4, per_phase = 32 / words;
  int extra = 0;
  for (int p = 0; p < words; ++p) {
    std::vector<std::set<std::uint32_t>> bank(32);
    for (int t = p * per_phase; t < (p + 1) * per_phase; ++t)
      for (int w = 0; w < words; ++w) bank[(a[t] / 4 + w) % 32].insert(a[t] / 4 + w);
    std::size_t most = 1;
    for (const auto& b : bank) most = std::max(most, b.size());
    extra += static_cast<int>(most) - 1;
  }
  return extra;
}

inline std::string show(const WarpAddresses& a) {
  std::ostringstream o;
  for (int t = 0; t < 32; ++t) o << (t ? " " : "") << a[t];
  return o.str();
}

inline WarpAddresses addresses(std::uint32_t (*f)(int)) {
  WarpAddresses a{};
  for (int t = 0; t < 32; ++t) a[t] = f(t);
  return a;
}

}  // namespace
